//! Undo and redo, and the autosave: a scripted game is restored exactly, rolls included; the roll
//! log's journal survives a kill between its append and the session file, and damage; a reaction
//! prompt waiting comes back.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use battlemap::app::core::components::{HitPoints, Position};
use battlemap::app::core::dice::{Dice, LogLoss};
use battlemap::app::core::history::Snapshot;
use battlemap::app::core::messages::{
    AttackHow, AttackRequest, DiceRequest, FightRequest, HistoryRequest, MoveToken, OpenScenario, TurnRequest,
};
use battlemap::app::core::notice::Said;
use battlemap::app::core::state::LoadedScenario;
use battlemap::app::core::turns::Turns;
use battlemap::app::features::session::capture;
use battlemap::app::features::session::file::{SessionError, SessionFile, Unplayable};
use battlemap::app::features::session::journal::{self, journal_path};
use battlemap::app::{LaunchOptions, SessionPlace};
use battlemap::rules::Cell;
use battlemap::rules::conditions::Condition;
use battlemap::rules::dice::RollMode;
use battlemap::rules::economy::Action;
use battlemap::scenario::Scenario;

use super::headless::{entity_of, log_entries, notice, pinned, said};
use super::{root, scratch};

/// The headless app on `file`, autosaving to `session` (if any), its dice seeded with `seed`.
pub(super) fn app_on(file: &Path, session: SessionPlace, seed: u64) -> App {
    let scenario = Scenario::load(file).expect("valid");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LoadedScenario::from_file(scenario, file.to_path_buf()))
        .insert_resource(LaunchOptions { seed: Some(seed), session, ..Default::default() })
        .add_plugins(battlemap::app::headless_plugin);
    for _ in 0..3 {
        app.update();
    }
    app
}

pub(super) fn send<M: Message>(app: &mut App, message: M) {
    app.world_mut().write_message(message);
    app.update();
}

/// A copy of the tavern in its own directory, so its session file lands there.
pub(super) fn tavern_copy(name: &str) -> PathBuf {
    let file = scratch(name).join("tavern.ron");
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &file).expect("copy");
    file
}

pub(super) fn place(app: &mut App, id: &str) -> Cell {
    let entity = entity_of(app, id);
    app.world().get::<Position>(entity).expect("position").0
}

fn hp(app: &mut App, id: &str) -> i32 {
    let entity = entity_of(app, id);
    app.world().get::<HitPoints>(entity).expect("hit points").0.hp
}

fn log(app: &App) -> Vec<battlemap::rules::log::LogEntry> {
    log_entries(app)
}

/// A few turns of a tavern fight: initiative, moves, an attack, a condition, damage, Dodge.
pub(super) fn play_some(app: &mut App) {
    send(app, TurnRequest::NextTurn);
    let brom = entity_of(app, "brom");
    let thug = entity_of(app, "thug-1");
    send(app, TurnRequest::StartTurn(brom));
    send(app, MoveToken::new(brom, Cell::new(5, 7)));
    send(app, AttackRequest { attacker: brom, target: thug, attack: "Longsword".into(), how: AttackHow::Action });
    send(app, FightRequest::Condition { target: thug, condition: Condition::Prone, on: true });
    let lia = entity_of(app, "lia");
    send(app, TurnRequest::StartTurn(lia));
    send(app, TurnRequest::Act(lia, Action::Dodge));
    send(app, MoveToken::new(lia, Cell::new(8, 5)));
    send(app, FightRequest::Damage { target: lia, amount: 4 });
}

/// Everything the snapshot compares, and the log and the dice's position.
pub(super) fn state(app: &mut App) -> (Snapshot, Vec<battlemap::rules::log::LogEntry>, u128) {
    let snapshot = capture(app.world_mut());
    let position = app.world().resource::<Dice>().0.position();
    (snapshot, log(app), position)
}

#[test]
fn undo_and_redo_step_through_moves_attacks_and_turns_and_keep_the_rolls() {
    let file = tavern_copy("session-undo");
    let mut app = app_on(&file, SessionPlace::Off, 2026);
    let start = capture(app.world_mut());
    play_some(&mut app);
    let end = capture(app.world_mut());
    let rolled = log(&app);
    assert_ne!(start, end);
    assert_eq!(place(&mut app, "lia"), Cell::new(8, 5));

    // Lia's damage, her move, her Dodge, her turn's start: four steps back.
    send(&mut app, HistoryRequest::Undo);
    assert_eq!(hp(&mut app, "lia"), 18, "the damage is taken back");
    send(&mut app, HistoryRequest::Undo);
    assert_eq!(place(&mut app, "lia"), Cell::new(7, 4), "the move is taken back");
    assert_eq!(log(&app), rolled, "undo never takes a roll back");
    for _ in 0..30 {
        send(&mut app, HistoryRequest::Undo);
    }
    assert_eq!(capture(app.world_mut()), start, "undone to the start of the scene");
    assert!(app.world().resource::<Turns>().active.is_none());
    assert_eq!(said(&app), Some(Said::NothingTo { redo: false }));
    for _ in 0..30 {
        send(&mut app, HistoryRequest::Redo);
    }
    assert_eq!(capture(app.world_mut()), end, "redone to the end");
    assert_eq!(place(&mut app, "brom"), Cell::new(5, 7));

    // A new change after an undo drops what could be redone.
    send(&mut app, HistoryRequest::Undo);
    let lia = entity_of(&mut app, "lia");
    send(&mut app, FightRequest::Damage { target: lia, amount: 1 });
    send(&mut app, HistoryRequest::Redo);
    assert_eq!(said(&app), Some(Said::NothingTo { redo: true }));
}

/// A game played with autosave, dropped without warning (as a kill would), and started again
/// from the same scenario: the map, the turns, the log and the dice are as they were, and the
/// next rolls are the ones the first game would have made.
#[test]
fn the_autosave_restores_a_scripted_game_exactly_rolls_included() {
    let file = tavern_copy("session-restore");
    let mut first = app_on(&file, SessionPlace::Beside, 7);
    play_some(&mut first);
    let session_file = file.with_extension("session.json");
    assert!(session_file.exists(), "the autosave is written beside the scenario");
    let before = state(&mut first);
    let active = before.0.turn.active.clone();
    assert_eq!(active.as_deref(), Some("lia"));

    let mut second = app_on(&file, SessionPlace::Beside, 99);
    let after = state(&mut second);
    assert_eq!(after.0, before.0, "the map, the turns and the initiative are restored");
    assert_eq!((after.1.len(), after.2), (before.1.len(), before.2), "the log and the dice's position");
    assert_eq!(after.1, before.1);
    assert_eq!(said(&second), Some(Said::RestoredAutosave), "{}", notice(&second));

    // Both go on with the same rolls: the same dice fall.
    for app in [&mut first, &mut second] {
        for notation in ["1d20", "8d6", "4d6kh3"] {
            let roll = DiceRequest::Roll {
                roller: None,
                notation: notation.into(),
                mode: RollMode::Normal,
                hidden: false,
                reason: "the same dice".into(),
            };
            send(app, roll);
        }
    }
    assert_eq!(log(&first), log(&second));
    assert_eq!(log(&first).len(), before.1.len() + 3, "the rolls are logged");

    // The session file is the canonical board and the rest, and loads on its own.
    let saved = SessionFile::load(&session_file).expect("the session file loads");
    assert_eq!(saved.file.seed, 7);
    assert_eq!(saved.snapshot.board, capture(second.world_mut()).board);

    // Reload starts the scene afresh, and the autosave then holds the fresh scene.
    send(&mut second, OpenScenario { path: None });
    second.update();
    assert_eq!(place(&mut second, "lia"), Cell::new(7, 4));
    let mut third = app_on(&file, SessionPlace::Beside, 5);
    assert_eq!(place(&mut third, "lia"), Cell::new(7, 4), "the reloaded scene was autosaved");
}

#[test]
fn a_damaged_session_file_is_reported_and_the_scene_starts_afresh() {
    let file = tavern_copy("session-bad");
    let session_file = file.with_extension("session.json");
    let not_json = |e: &SessionError| matches!(e, SessionError::NotJson { line: 1, .. });
    let missing =
        |e: &SessionError| matches!(e, SessionError::NotJson { error, .. } if error.contains("missing field"));
    let other_version = |e: &SessionError| matches!(e, SessionError::OtherVersion { format: 9, .. });
    let cases: [(&str, &dyn Fn(&SessionError) -> bool); 3] = [
        ("{ not json", &not_json),
        (r#"{"format": 1}"#, &missing),
        (
            r#"{"format": 9, "scenario_file": null, "scenario_digest": 0, "board": "", "tokens": {}, "turn": {}, "initiative": {"entries": [], "current": null, "round": 0}, "seed": 1, "dice_position": 0, "log": {"seed": 1, "entries": []}}"#,
            &other_version,
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&session_file, text).expect("write");
        let error = SessionFile::load(&session_file).expect_err("refused");
        assert!(expected(&error), "{text}: {error}");
        let mut app = app_on(&file, SessionPlace::Beside, 1);
        assert!(matches!(pinned(&app).first(), Some(Said::AutosaveNotRestored { .. })), "{text}: {:?}", pinned(&app));
        assert_eq!(place(&mut app, "lia"), Cell::new(7, 4));
    }
    // A game of the scene before it was changed by hand is not put over the changed scene: it is
    // kept aside, and the scene starts as written now.
    let mut app = app_on(&file, SessionPlace::Beside, 1);
    play_some(&mut app);
    drop(app);
    let text = std::fs::read_to_string(&file).expect("scene");
    std::fs::write(&file, text.replace("name: \"Old Mags\"", "name: \"Young Mags\"")).expect("write");
    let mut app = app_on(&file, SessionPlace::Beside, 1);
    let other_scene = matches!(
        pinned(&app).first(),
        Some(Said::AutosaveNotRestored { error, kept }) if error.contains("before it was changed") && !kept.is_empty()
    );
    assert!(other_scene, "{:?}", pinned(&app));
    assert_eq!(place(&mut app, "lia"), Cell::new(7, 4));
    assert!(file.with_extension("session.json.old").exists());
    drop(app);

    // A board whose token ids don't match the rest is refused too.
    let mut app = app_on(&file, SessionPlace::Beside, 1);
    play_some(&mut app);
    drop(app);
    let text = std::fs::read_to_string(&session_file).expect("autosaved");
    std::fs::write(&session_file, text.replace("\"active\":\"lia\"", "\"active\":\"nobody\"")).expect("write");
    let error = SessionFile::load(&session_file).expect_err("an unknown id");
    let unknown =
        matches!(&error, SessionError::Unplayable { why: Unplayable::UnknownToken(id), .. } if id == "nobody");
    assert!(unknown, "{error}");
}

/// A chase in progress is autosaved too: started again, the app is on the chase screen at the
/// same turn, and the next turn rolls what the first app's would.
#[test]
fn the_autosave_restores_a_chase_in_progress() {
    use battlemap::app::core::chase::ChaseRun;
    use battlemap::app::core::messages::ChaseMessage;
    use battlemap::app::core::requests::ChaseRequest;
    use battlemap::rules::chase::SavedChaseError;

    let file = scratch("session-chase").join("market.ron");
    std::fs::copy(root().join("scenes/market_chase.ron"), &file).expect("copy");
    let mut first = app_on(&file, SessionPlace::Beside, 11);
    for request in [ChaseRequest::Start, ChaseRequest::BeginTurn, ChaseRequest::Dash, ChaseRequest::EndTurn] {
        send(&mut first, ChaseMessage(request));
    }
    let chase_of = |app: &App| app.world().resource::<ChaseRun>().chases.clone().expect("a chase runs");
    let before = chase_of(&first);
    assert!(before.active().events.len() > 4);

    let mut second = app_on(&file, SessionPlace::Beside, 12);
    let after = chase_of(&second);
    assert_eq!(after.active().participants, before.active().participants);
    assert_eq!(after.active().events, before.active().events);
    assert_eq!(after.active().order, before.active().order);
    assert!(second.world().resource::<ChaseRun>().awaiting_handover);
    assert_eq!(log(&second), log(&first));

    for app in [&mut first, &mut second] {
        for request in [ChaseRequest::BeginTurn, ChaseRequest::Dash, ChaseRequest::Move(1000), ChaseRequest::EndTurn] {
            send(app, ChaseMessage(request));
        }
    }
    assert_eq!(chase_of(&second).active().events, chase_of(&first).active().events);
    assert_eq!(log(&second), log(&first), "the next turn rolls the same");

    // A saved chase naming someone who isn't in it is refused, not played.
    let session_file = file.with_extension("session.json");
    let text = std::fs::read_to_string(&session_file).expect("autosaved");
    let tampered = text.replacen("\"pursuers\":[\"", "\"pursuers\":[\"nobody\",\"", 1);
    assert_ne!(tampered, text);
    std::fs::write(&session_file, tampered).expect("write");
    let error = SessionFile::load(&session_file).expect_err("refused");
    let unknown = matches!(
        &error,
        SessionError::Unplayable { why: Unplayable::Chase(why), .. }
            if matches!(&**why, SavedChaseError::NotAParticipant { id, .. } if id == "nobody")
    );
    assert!(unknown, "{error}");
}

/// The lines of the roll log's journal beside `session_file`.
pub(super) fn journal_lines(session_file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(journal_path(session_file)).expect("the journal");
    text.lines().map(str::to_owned).collect()
}

pub(super) fn roll(app: &mut App, notation: &str) {
    let request = DiceRequest::Roll {
        roller: None,
        notation: notation.into(),
        mode: RollMode::Normal,
        hidden: false,
        reason: "a roll".into(),
    };
    send(app, request);
}

/// The roll log is a journal beside the session file, a line a roll, appended to (not written
/// anew) as the rolls come; the session file names how many are the game's. A kill after a roll
/// reached the journal and before the session file did (a whole line and half of another past the
/// session file's count) restores the game as the session file has it, and the next autosave writes
/// the journal back to it; the journal with the roll past it is kept aside, byte for byte.
#[cfg(unix)]
#[test]
fn the_rolls_go_to_a_journal_and_a_kill_between_the_two_files_restores_the_session_file() {
    use std::os::unix::fs::MetadataExt;
    let file = tavern_copy("session-journal");
    let session_file = file.with_extension("session.json");
    let mut first = app_on(&file, SessionPlace::Beside, 7);
    play_some(&mut first);
    let rolled = log(&first);
    assert!(rolled.len() >= 5, "initiative and an attack rolled: {}", rolled.len());
    let lines = journal_lines(&session_file);
    assert_eq!(lines.len(), rolled.len(), "a line a roll");
    let parsed: Vec<battlemap::rules::log::LogEntry> =
        lines.iter().map(|l| serde_json::from_str(l).expect("a roll")).collect();
    assert_eq!(parsed, rolled);
    let saved = SessionFile::load(&session_file).expect("loads");
    assert_eq!(saved.file.rolls, rolled.len());
    assert!(saved.inline_log.is_none());
    let text = std::fs::read_to_string(&session_file).expect("the session file");
    assert!(!text.contains("\"evaluations\""), "the session file holds no roll");

    let inode = std::fs::metadata(journal_path(&session_file)).expect("the journal").ino();
    for notation in ["1d20", "2d6+1"] {
        roll(&mut first, notation);
    }
    assert_eq!(journal_lines(&session_file).len(), rolled.len() + 2);
    assert_eq!(std::fs::metadata(journal_path(&session_file)).expect("the journal").ino(), inode, "appended to");
    let before = state(&mut first);
    drop(first);

    // The kill: the next roll's line in the journal, and half of the one after, but not the
    // session file that would have named them.
    let last = journal_lines(&session_file).pop().expect("a line");
    let mut journal = std::fs::OpenOptions::new().append(true).open(journal_path(&session_file)).expect("opens");
    std::io::Write::write_all(&mut journal, format!("{last}\n{}", &last[..last.len() / 2]).as_bytes()).expect("writes");
    drop(journal);
    let killed = std::fs::read(journal_path(&session_file)).expect("the journal");
    let mut second = app_on(&file, SessionPlace::Beside, 99);
    let Some(Said::Several(said)) = said(&second) else { panic!("{}", notice(&second)) };
    let [Said::RestoredAutosave, Said::RollsPastTheAutosave { rolls: 1, aside }] = &said[..] else {
        panic!("{said:?}")
    };
    assert_eq!(std::fs::read(aside).expect("kept aside"), killed, "the roll past the autosave is kept");
    assert!(pinned(&second).is_empty(), "{:?}", pinned(&second));
    let after = state(&mut second);
    assert_eq!(after, before, "the game, the log and the dice as the session file has them");
    let lines = journal_lines(&session_file);
    assert_eq!(lines.len(), before.1.len(), "the journal is cut back to the game's rolls");
    roll(&mut second, "1d4");
    assert_eq!(journal_lines(&session_file).len(), before.1.len() + 1);
    let saved = SessionFile::load(&session_file).expect("loads");
    let back = journal::read(&journal_path(&session_file), saved.file.rolls, saved.file.log_digest);
    assert_eq!((back.entries, back.loss), (log(&second), None));
}

/// A journal with a line that is not a roll gives back the rolls before it: the game itself and
/// the dice's position come back whole, the notice says what was lost, the damaged journal is
/// kept aside, and the next autosave writes the rolls kept, so the next start has no complaint.
#[test]
fn a_damaged_journal_gives_the_rolls_it_can_and_the_game_comes_back() {
    let file = tavern_copy("session-damaged-journal");
    let session_file = file.with_extension("session.json");
    let mut first = app_on(&file, SessionPlace::Beside, 7);
    play_some(&mut first);
    let before = state(&mut first);
    drop(first);
    let mut lines = journal_lines(&session_file);
    lines[2] = "{\"who\": \"Brom\", \"reason\": ".to_owned();
    std::fs::write(journal_path(&session_file), lines.join("\n") + "\n").expect("writes");

    let mut second = app_on(&file, SessionPlace::Beside, 99);
    assert_eq!(said(&second), Some(Said::RestoredAutosave), "{}", notice(&second));
    let cut = pinned(&second).first().cloned();
    let Some(Said::RollLogCut { kept: 2, rolls, why: LogLoss::BadLine { line: 3, .. }, aside: Some(aside), .. }) = cut
    else {
        panic!("{:?}", pinned(&second));
    };
    assert_eq!(rolls, before.1.len());
    assert!(aside.exists(), "the damaged journal is kept as {}", aside.display());
    let words = battlemap::ui::words::said(&pinned(&second)[0]);
    assert!(words.contains("2 of the game's"), "{words}");
    let after = state(&mut second);
    assert_eq!(after.0, before.0, "the game comes back whole");
    assert_eq!((&after.1[..], after.2), (&before.1[..2], before.2), "two rolls, and the dice where they were");
    assert_eq!(journal_lines(&session_file).len(), 2, "the rolls kept are written");
    drop(second);
    let third = app_on(&file, SessionPlace::Beside, 5);
    assert_eq!(said(&third), Some(Said::RestoredAutosave), "{}", notice(&third));
    assert_eq!(log(&third), &before.1[..2]);
}

/// A session file written before the journal (format 1, the log inside it) is still restored,
/// rolls included, and the next autosave writes it as it is written now.
#[test]
fn a_session_file_of_format_1_is_restored_and_written_anew() {
    let file = tavern_copy("session-format-1");
    let session_file = file.with_extension("session.json");
    let mut first = app_on(&file, SessionPlace::Beside, 7);
    play_some(&mut first);
    let before = state(&mut first);
    drop(first);
    let mut old: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&session_file).expect("reads")).expect("json");
    let fields = old.as_object_mut().expect("an object");
    fields.insert("format".into(), 1.into());
    fields.remove("rolls");
    fields.remove("log_digest");
    fields.insert("log".into(), serde_json::json!({ "seed": 7, "entries": before.1 }));
    std::fs::write(&session_file, old.to_string()).expect("writes");
    std::fs::remove_file(journal_path(&session_file)).expect("no journal then");

    let mut second = app_on(&file, SessionPlace::Beside, 99);
    assert_eq!(said(&second), Some(Said::RestoredAutosave), "{}", notice(&second));
    assert_eq!(state(&mut second), before);
    let saved = SessionFile::load(&session_file).expect("loads");
    assert_eq!((saved.file.format, saved.file.rolls, saved.inline_log), (2, before.1.len(), None));
    assert_eq!(journal_lines(&session_file).len(), before.1.len());
}

/// An opportunity attack's prompt waiting when the app dies comes back with the game: Brom
/// stopped in the thug's reach with the thug's offer up, the autosave holding the middle of the
/// move. Answered after the restart, it rolls what the first app rolls answering it, and the
/// move goes on; the whole move stays one step to undo, with no prompt in it.
#[test]
fn a_reaction_prompt_waiting_is_autosaved_and_comes_back() {
    use battlemap::app::core::messages::ReactionAnswer;
    use battlemap::app::core::state::Reactions;

    let file = tavern_copy("session-prompt");
    let session_file = file.with_extension("session.json");
    let mut first = app_on(&file, SessionPlace::Beside, 5);
    let brom = entity_of(&mut first, "brom");
    send(&mut first, MoveToken::new(brom, Cell::new(5, 7)));
    send(&mut first, TurnRequest::NextTurn);
    send(&mut first, TurnRequest::StartTurn(brom));
    send(&mut first, MoveToken::new(brom, Cell::new(2, 7)));
    first.update();
    assert!(first.world().resource::<Reactions>().interrupted.is_some(), "{}", notice(&first));
    assert_eq!(place(&mut first, "brom"), Cell::new(5, 7));
    let saved = SessionFile::load(&session_file).expect("loads").snapshot;
    let waiting = saved.reactions.interrupted.clone().expect("the prompt is autosaved");
    assert_eq!((waiting.mover.as_str(), waiting.offers[0].reactor.as_str()), ("brom", "thug-1"));
    let before = state(&mut first);
    assert_eq!(saved, before.0, "the autosave holds the game as it stands, in the middle of the move");

    // A prompt naming someone who isn't on the board is refused, not played.
    let text = std::fs::read_to_string(&session_file).expect("autosaved");
    let tampered = text.replacen("\"mover\":\"brom\"", "\"mover\":\"nobody\"", 1);
    assert_ne!(tampered, text);
    let copy = session_file.with_file_name("tampered.session.json");
    std::fs::write(&copy, tampered).expect("write");
    let error = SessionFile::load(&copy).expect_err("refused");
    let unknown =
        matches!(&error, SessionError::Unplayable { why: Unplayable::UnknownToken(id), .. } if id == "nobody");
    assert!(unknown, "{error}");

    let mut second = app_on(&file, SessionPlace::Beside, 99);
    assert_eq!(state(&mut second), before);
    let back = second.world().resource::<Reactions>().interrupted.clone().expect("the prompt is back");
    assert_eq!((back.mover, back.offers.len()), (entity_of(&mut second, "brom"), 1));
    for app in [&mut first, &mut second] {
        send(app, ReactionAnswer::Opportunity { attack: true });
        app.update();
        assert!(!app.world().resource::<Reactions>().waiting());
        assert_eq!(place(app, "brom"), Cell::new(2, 7), "the move goes on");
    }
    let (one, two) = (state(&mut first), state(&mut second));
    assert_eq!(two, one, "the same attack, the same dice, the same game");
    assert!(log(&second).len() > before.1.len(), "the opportunity attack is rolled");
    assert!(SessionFile::load(&session_file).expect("loads").snapshot.reactions.is_empty(), "answered");
    send(&mut first, HistoryRequest::Undo);
    assert_eq!(place(&mut first, "brom"), Cell::new(5, 7), "the move and its attack, one step");
    assert!(!first.world().resource::<Reactions>().waiting(), "no prompt comes back with an undo");
}
