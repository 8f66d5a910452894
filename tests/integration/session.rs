//! Undo and redo, and the autosave: a scripted game is restored exactly, rolls included.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use battlemap::app::core::components::{HitPoints, Position};
use battlemap::app::core::dice::Dice;
use battlemap::app::core::history::Snapshot;
use battlemap::app::core::messages::{
    AttackHow, AttackRequest, DiceRequest, FightRequest, HistoryRequest, MoveToken, OpenScenario, TurnRequest,
};
use battlemap::app::core::notice::Said;
use battlemap::app::core::state::LoadedScenario;
use battlemap::app::core::turns::Turns;
use battlemap::app::features::session::capture;
use battlemap::app::features::session::file::{SessionError, SessionFile, Unplayable};
use battlemap::app::{LaunchOptions, SessionPlace};
use battlemap::rules::Cell;
use battlemap::rules::conditions::Condition;
use battlemap::rules::dice::RollMode;
use battlemap::rules::economy::Action;
use battlemap::scenario::Scenario;

use super::headless::{entity_of, log_entries, notice, said};
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

fn send<M: Message>(app: &mut App, message: M) {
    app.world_mut().write_message(message);
    app.update();
}

/// A copy of the tavern in its own directory, so its session file lands there.
fn tavern_copy(name: &str) -> PathBuf {
    let file = scratch(name).join("tavern.ron");
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &file).expect("copy");
    file
}

fn place(app: &mut App, id: &str) -> Cell {
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
fn play_some(app: &mut App) {
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
fn state(app: &mut App) -> (Snapshot, Vec<battlemap::rules::log::LogEntry>, u128) {
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
    let (saved, snapshot) = SessionFile::load(&session_file).expect("the session file loads");
    assert_eq!(saved.seed, 7);
    assert_eq!(snapshot.board, capture(second.world_mut()).board);

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
        assert!(matches!(said(&app), Some(Said::AutosaveNotRestored { .. })), "{text}: {}", notice(&app));
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
        said(&app),
        Some(Said::AutosaveNotRestored { ref error, kept: Some(_) }) if error.contains("before it was changed")
    );
    assert!(other_scene, "{}", notice(&app));
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
