//! The autosave loses nothing (issue 38): a session file is checked whole before any of it is
//! used, every list bounded as it is read; whatever can't be restored is kept aside under a free
//! name, byte for byte, and said on a notice that stays on screen; a link to nowhere in the
//! session file's place is kept aside and the game autosaved in its place; a journal is never
//! shortened without keeping the old one, and gives back its rolls through CR LF line ends or an
//! edited line. A property test damages random games' files and restarts.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use serde_json::Value;

use battlemap::app::core::dice::{LogLoss, Mended};
use battlemap::app::core::messages::{EffectRequest, FightRequest, MoveToken, TurnRequest};
use battlemap::app::core::notice::Said;
use battlemap::app::core::requests::EffectAction;
use battlemap::app::core::state::LoadedScenario;
use battlemap::app::features::session::capture;
use battlemap::app::features::session::file::SessionFile;
use battlemap::app::features::session::journal::journal_path;
use battlemap::app::{LaunchOptions, SessionPlace};
use battlemap::rules::Cell;
use battlemap::rules::ability::Ability;
use battlemap::rules::conditions::Condition;
use battlemap::rules::effects::{Duration, Effect, RepeatedSave, Source, TurnPoint};
use battlemap::scenario::Scenario;

use super::headless::{entity_of, notice, pinned, said};
use super::session::{app_on, journal_lines, place, play_some, roll, send, state, tavern_copy};

/// The headless app on `file` with its autosave beside it, the user's state directory `state`.
fn app_with_state(file: &Path, state: &Path, seed: u64) -> App {
    let scenario = Scenario::load(file).expect("valid");
    let mut app = App::new();
    let options = LaunchOptions {
        seed: Some(seed),
        session: SessionPlace::Beside,
        state_directory: Some(state.to_path_buf()),
        ..Default::default()
    };
    app.add_plugins(MinimalPlugins)
        .insert_resource(LoadedScenario::from_file(scenario, file.to_path_buf()))
        .insert_resource(options)
        .add_plugins(battlemap::app::headless_plugin);
    for _ in 0..3 {
        app.update();
    }
    app
}

/// A tavern game with a lasting effect: the thug frightened of Brom (a creature source, a save).
fn play_with_an_effect(app: &mut App) {
    play_some(app);
    let thug = entity_of(app, "thug-1");
    let effect = Effect {
        conditions: vec![Condition::Frightened],
        save: Some(RepeatedSave { ability: Ability::Wis, dc: 13, at: TurnPoint::End, successes: 1 }),
        ..Effect::new("Frightened of Brom", Source::Creature("brom".into()), Duration::UntilSaved)
    };
    send(app, EffectRequest { target: Some(thug), action: EffectAction::Give(Box::new(effect)) });
}

/// The session file as JSON.
fn session_json(session_file: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(session_file).expect("autosaved")).expect("json")
}

/// The files `name.old`, `name.old2`, ... kept aside: the `n`th set's name for `file`.
fn aside(file: &Path, n: u32) -> PathBuf {
    let suffix = if n == 1 { ".old".to_owned() } else { format!(".old{n}") };
    PathBuf::from(format!("{}{suffix}", file.display()))
}

/// Starts the app on a session file whose bytes are `bad`, beside a journal: the game is not
/// restored, the scene starts as written, the notice says why (with `why` in it) and stays on
/// screen, and both files are kept aside as the `n`th set, byte for byte.
fn refused_and_kept(file: &Path, bad: &[u8], why: &str, n: u32) {
    let session_file = file.with_extension("session.json");
    let journal = journal_path(&session_file);
    std::fs::write(&session_file, bad).expect("write");
    let rolls = std::fs::read(&journal).expect("the journal");
    let mut app = app_on(file, SessionPlace::Beside, 1);
    let expected = vec![aside(&session_file, n), aside(&journal, n)];
    match pinned(&app).as_slice() {
        [Said::AutosaveNotRestored { error, kept }] => {
            assert!(error.contains(why), "{why:?} not in {error:?}");
            assert_eq!(kept, &expected);
        }
        other => panic!("{why}: {other:?}"),
    }
    assert_eq!(std::fs::read(&expected[0]).expect("kept"), bad, "the session file, byte for byte");
    assert_eq!(std::fs::read(&expected[1]).expect("kept"), rolls, "its journal, byte for byte");
    assert_eq!(place(&mut app, "lia"), Cell::new(7, 4), "the scene as written");
    assert_ne!(said(&app), Some(Said::RestoredAutosave));
}

/// The thug's first lasting effect in a session file.
fn first_effect(session: &mut Value) -> &mut Value {
    &mut session["tokens"]["thug-1"]["effects"]["list"][0]["effect"]
}

/// Item 1: everything in a session file is checked by the rules a scenario is checked by, before
/// any of it is used: an effect's DC, its source, a creature's effect count; one initiative
/// entry per token; a Stealth total and a weapon's crewing within what play reaches. Each of
/// these was restored once, and refused at the next start.
#[test]
fn everything_in_a_session_file_is_checked_before_it_is_restored() {
    type Tamper = fn(&mut Value);
    let cases: [(&str, Tamper, &str); 7] = [
        ("dc", |v| first_effect(v)["save"]["dc"] = 2147483647.into(), "DCs run from 1 to 30"),
        ("source", |v| first_effect(v)["source"] = serde_json::json!({ "Creature": "nobody" }), "\"nobody\""),
        (
            "hundred",
            |v| {
                let list = &mut v["tokens"]["thug-1"]["effects"]["list"];
                let one = list[0].clone();
                *list = Value::Array(
                    (0..100)
                        .map(|i| {
                            let mut e = one.clone();
                            e["id"] = i.into();
                            e
                        })
                        .collect(),
                );
            },
            "at most 64",
        ),
        (
            "twice",
            |v| {
                let entries = v["initiative"]["entries"].as_array_mut().expect("entries");
                entries.push(entries[0].clone());
            },
            "two places in the initiative",
        ),
        ("stealth", |v| v["tokens"]["brom"]["stealth"] = 2147483647.into(), "numbers play can't reach"),
        (
            "crewing",
            |v| v["tokens"]["brom"]["crewing"] = serde_json::json!({ "loaded": 1, "aimed": 0 }),
            "numbers play can't reach",
        ),
        (
            "numbering",
            |v| {
                let list = &mut v["tokens"]["thug-1"]["effects"]["list"];
                let mut twin = list[0].clone();
                twin["effect"]["name"] = "Another".into();
                list.as_array_mut().expect("list").push(twin);
            },
            "shares its number",
        ),
    ];
    for (name, tamper, why) in cases {
        let file = tavern_copy(&format!("autosave-checked-{name}"));
        let session_file = file.with_extension("session.json");
        let mut app = app_on(&file, SessionPlace::Beside, 3);
        play_with_an_effect(&mut app);
        drop(app);
        let mut json = session_json(&session_file);
        assert!(
            json["tokens"]["thug-1"]["effects"]["list"][0]["effect"]["save"]["dc"] == 13,
            "the effect is autosaved"
        );
        tamper(&mut json);
        refused_and_kept(&file, json.to_string().as_bytes(), why, 1);
    }
}

/// A game restored and autosaved at once loads again: the checks refuse nothing play wrote, and
/// a file written before effects kept their next numbers gets them.
#[test]
fn a_restored_game_is_restored_again() {
    let file = tavern_copy("autosave-again");
    let session_file = file.with_extension("session.json");
    let mut app = app_on(&file, SessionPlace::Beside, 3);
    play_with_an_effect(&mut app);
    let before = state(&mut app);
    drop(app);
    let mut json = session_json(&session_file);
    let effects = json["tokens"]["thug-1"]["effects"].as_object_mut().expect("effects");
    effects.remove("next_given");
    std::fs::write(&session_file, json.to_string()).expect("write");
    for seed in [4, 5] {
        let mut app = app_on(&file, SessionPlace::Beside, seed);
        assert_eq!(said(&app), Some(Said::RestoredAutosave), "{}", notice(&app));
        assert!(pinned(&app).is_empty(), "{:?}", pinned(&app));
        assert_eq!(state(&mut app).0, before.0);
    }
}

/// Item 6: the parts of a session file that can grow are bounded as they are read, before they
/// are allocated, with a scenario's limits: 64 effects a creature, an initiative no longer than
/// a board can have tokens, a first-format roll log of at most 300,000 rolls.
#[test]
fn the_parts_of_a_session_file_are_bounded_as_they_are_read() {
    let file = tavern_copy("autosave-bounded");
    let session_file = file.with_extension("session.json");
    let mut app = app_on(&file, SessionPlace::Beside, 3);
    play_with_an_effect(&mut app);
    let rolled = state(&mut app).1;
    drop(app);
    let json = session_json(&session_file);

    let mut effects = json.clone();
    let list = &mut effects["tokens"]["thug-1"]["effects"]["list"];
    let one = list[0].clone();
    *list = Value::Array(vec![one; 10_000]);
    refused_and_kept(&file, effects.to_string().as_bytes(), "at most 64", 1);

    let mut initiative = json.clone();
    let entry = initiative["initiative"]["entries"][0].clone();
    initiative["initiative"]["entries"] = Value::Array(vec![entry; 100_001]);
    refused_and_kept(&file, initiative.to_string().as_bytes(), "at most 100000", 2);

    // The first format, its log inside: refused at the 300,001st roll.
    let mut old = json.clone();
    let fields = old.as_object_mut().expect("an object");
    fields.insert("format".into(), 1.into());
    fields.remove("rolls");
    fields.remove("log_digest");
    let entries = Value::Array(vec![serde_json::to_value(&rolled[0]).expect("json"); 300_001]);
    fields.insert("log".into(), serde_json::json!({ "seed": 3, "entries": entries }));
    refused_and_kept(&file, old.to_string().as_bytes(), "at most 300000", 3);
}

/// Item 2: the session file's place is a link to nowhere, or a loop of links: the link and the
/// journal beside it (the game's rolls) are kept aside, the notice says so and stays, and the
/// game is autosaved in the link's place, so the next start restores it.
#[cfg(unix)]
#[test]
fn a_link_to_nowhere_is_kept_aside_and_the_game_autosaved_in_its_place() {
    let file = tavern_copy("autosave-link");
    let session_file = file.with_extension("session.json");
    let journal = journal_path(&session_file);
    for (n, target) in [(1, file.with_file_name("gone.session.json")), (2, session_file.clone())] {
        let mut app = app_on(&file, SessionPlace::Beside, 3);
        play_some(&mut app);
        drop(app);
        let rolls = std::fs::read(&journal).expect("the journal");
        std::fs::remove_file(&session_file).expect("remove");
        std::os::unix::fs::symlink(&target, &session_file).expect("a link");

        let mut app = app_on(&file, SessionPlace::Beside, 4);
        let expected = vec![aside(&session_file, n), aside(&journal, n)];
        match pinned(&app).as_slice() {
            [Said::SessionLinkBroken { link, target: to, kept }] => {
                assert_eq!((link, to, kept), (&session_file, &target, &expected));
            }
            other => panic!("{other:?}"),
        }
        let link = std::fs::symlink_metadata(&expected[0]).expect("kept");
        assert!(link.file_type().is_symlink(), "the link itself is kept");
        assert_eq!(std::fs::read_link(&expected[0]).expect("a link"), target);
        assert_eq!(std::fs::read(&expected[1]).expect("kept"), rolls, "the game's rolls, byte for byte");
        assert_eq!(place(&mut app, "lia"), Cell::new(7, 4), "the scene as written");
        let lia = entity_of(&mut app, "lia");
        send(&mut app, MoveToken::new(lia, Cell::new(8, 5)));
        roll(&mut app, "1d20");
        let before = state(&mut app);
        drop(app);
        assert!(std::fs::symlink_metadata(&session_file).expect("autosaved").is_file());
        let mut app = app_on(&file, SessionPlace::Beside, 5);
        assert_eq!(said(&app), Some(Said::RestoredAutosave), "{}", notice(&app));
        assert!(pinned(&app).is_empty(), "{:?}", pinned(&app));
        assert_eq!(state(&mut app), before);
    }
}

/// Item 3: a set is kept aside under the first number free for both its files, whatever holds
/// the names before it (here directories), and a second failure never replaces the first's.
#[test]
fn every_set_kept_aside_has_a_free_name() {
    let file = tavern_copy("autosave-free-names");
    let session_file = file.with_extension("session.json");
    let journal = journal_path(&session_file);
    std::fs::create_dir(aside(&session_file, 1)).expect("a directory");
    std::fs::create_dir(aside(&journal, 1)).expect("a directory");
    for (n, bad) in [(2, "{ not json"), (3, "{ not json either")] {
        let mut app = app_on(&file, SessionPlace::Beside, 3);
        play_some(&mut app);
        drop(app);
        refused_and_kept(&file, bad.as_bytes(), "key must be a string", n);
    }
    assert_eq!(std::fs::read(aside(&session_file, 2)).expect("kept"), b"{ not json", "the first is not replaced");
    assert!(aside(&session_file, 1).is_dir() && aside(&journal, 1).is_dir(), "what was there is left alone");
}

/// When a set can't be kept aside (here every name up to the thousandth is taken), nothing is
/// written over it: the game is autosaved in the user's state directory, and the notice says
/// where.
#[test]
fn a_set_that_cannot_be_kept_aside_sends_the_autosave_elsewhere() {
    let file = tavern_copy("autosave-elsewhere");
    let state_dir = file.with_file_name("state");
    let session_file = file.with_extension("session.json");
    for n in 1..=1000 {
        std::fs::write(aside(&session_file, n), "").expect("taken");
    }
    std::fs::write(&session_file, "{ not json").expect("write");
    let mut app = app_with_state(&file, &state_dir, 3);
    let now = match pinned(&app).as_slice() {
        [Said::AutosaveElsewhere { asked, now: Some(now), .. }, Said::AutosaveNotRestored { kept, .. }] => {
            assert_eq!((asked, kept.len()), (&session_file, 0));
            now.clone()
        }
        other => panic!("{other:?}"),
    };
    assert!(now.starts_with(&state_dir), "{}", now.display());
    play_some(&mut app);
    let before = state(&mut app);
    drop(app);
    assert_eq!(std::fs::read(&session_file).expect("left"), b"{ not json", "nothing written over it");
    let saved = SessionFile::load(&now).expect("the game is autosaved elsewhere");
    assert_eq!(saved.snapshot, before.0);
}

/// A journal whose session file is gone (deleted to start afresh) still holds rolls: it is kept
/// aside before the new game's journal is written.
#[test]
fn a_journal_without_its_session_file_is_kept() {
    let file = tavern_copy("autosave-orphan");
    let session_file = file.with_extension("session.json");
    let journal = journal_path(&session_file);
    let mut app = app_on(&file, SessionPlace::Beside, 3);
    play_some(&mut app);
    drop(app);
    let rolls = std::fs::read(&journal).expect("the journal");
    std::fs::remove_file(&session_file).expect("remove");
    let app = app_on(&file, SessionPlace::Beside, 4);
    assert_eq!(pinned(&app), vec![Said::JournalWithoutGame { file: journal.clone(), aside: aside(&journal, 1) }]);
    assert_eq!(std::fs::read(aside(&journal, 1)).expect("kept"), rolls);
}

/// Saving the scene as another file moves the game to that file's session file: a game autosaved
/// there before is kept aside, not written over.
#[test]
fn saving_as_another_file_keeps_the_game_autosaved_there() {
    use battlemap::app::core::messages::SaveScenario;
    let file = tavern_copy("autosave-save-as");
    let other = file.with_file_name("other.ron");
    let other_session = other.with_extension("session.json");
    std::fs::write(&other_session, "another game").expect("write");
    let mut app = app_on(&file, SessionPlace::Beside, 3);
    play_some(&mut app);
    send(&mut app, SaveScenario { path: Some(other.clone()) });
    app.update();
    let kept = vec![aside(&other_session, 1)];
    assert_eq!(pinned(&app), vec![Said::EarlierAutosaveKept { kept: kept.clone() }]);
    assert_eq!(std::fs::read(&kept[0]).expect("kept"), b"another game");
    let before = state(&mut app);
    drop(app);
    let mut app = app_on(&other, SessionPlace::Beside, 4);
    assert_eq!(said(&app), Some(Said::RestoredAutosave), "{}", notice(&app));
    assert_eq!(state(&mut app).0, before.0);
}

/// Item 4: a session file naming no roll but a digest of some is not taken at its word: the
/// journal's rolls are not the game's, the journal is kept aside whole, and the game comes back.
/// Never shortened without keeping the old one.
#[test]
fn a_journal_is_never_cut_without_keeping_it() {
    let file = tavern_copy("autosave-no-rolls");
    let session_file = file.with_extension("session.json");
    let journal = journal_path(&session_file);
    let mut app = app_on(&file, SessionPlace::Beside, 3);
    play_some(&mut app);
    let before = state(&mut app);
    drop(app);
    let rolls = std::fs::read(&journal).expect("the journal");
    assert!(before.1.len() >= 5);
    let mut json = session_json(&session_file);
    json["rolls"] = 0.into();
    std::fs::write(&session_file, json.to_string()).expect("write");

    let mut app = app_on(&file, SessionPlace::Beside, 4);
    match pinned(&app).as_slice() {
        [Said::RollLogCut { kept: 0, rolls: 0, why: LogLoss::OtherGame, aside: Some(kept), .. }] => {
            assert_eq!(kept, &aside(&journal, 1));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read(aside(&journal, 1)).expect("kept"), rolls, "every roll kept aside");
    let after = state(&mut app);
    assert_eq!(after.0, before.0, "the game comes back");
    drop(app);
    let app = app_on(&file, SessionPlace::Beside, 5);
    assert!(pinned(&app).is_empty(), "a consistent pair: {:?}", pinned(&app));
}

/// Item 7: a journal with CR LF line ends gives back every roll; so does one with a line edited
/// by hand, as it reads. Either is kept aside and written anew, and the next start is clean.
#[test]
fn crlf_line_ends_and_an_edited_line_keep_the_rolls() {
    for (name, how) in [("crlf", Mended::LineEnds), ("edited", Mended::Unverified)] {
        let file = tavern_copy(&format!("autosave-{name}"));
        let session_file = file.with_extension("session.json");
        let journal = journal_path(&session_file);
        let mut app = app_on(&file, SessionPlace::Beside, 3);
        play_some(&mut app);
        let before = state(&mut app);
        drop(app);
        let mut lines = journal_lines(&session_file);
        let damaged = match how {
            Mended::LineEnds => lines.join("\r\n") + "\r\n",
            Mended::Unverified => {
                lines[1] = lines[1].replacen("\"who\":\"", "\"who\":\"Not ", 1);
                lines.join("\n") + "\n"
            }
        };
        std::fs::write(&journal, &damaged).expect("write");
        let mut app = app_on(&file, SessionPlace::Beside, 4);
        let rolls = before.1.len();
        let expected = Said::RollLogMended { file: journal.clone(), rolls, how, aside: Some(aside(&journal, 1)) };
        assert_eq!(pinned(&app), vec![expected]);
        assert_eq!(std::fs::read_to_string(aside(&journal, 1)).expect("kept"), damaged);
        let after = state(&mut app);
        assert_eq!((&after.0, after.1.len(), after.2), (&before.0, rolls, before.2), "every roll comes back");
        if how == Mended::Unverified {
            assert!(after.1[1].who.starts_with("Not "), "as it reads");
        } else {
            assert_eq!(after.1, before.1);
        }
        assert!(!std::fs::read_to_string(&journal).expect("written anew").contains('\r'));
        drop(app);
        let app = app_on(&file, SessionPlace::Beside, 5);
        assert!(pinned(&app).is_empty(), "{name}: {:?}", pinned(&app));
    }
}

/// Item 7: a parse error gives its place once; a UTF-8 byte-order mark is skipped, as a
/// scenario's is.
#[test]
fn a_byte_order_mark_is_skipped_and_a_parse_error_places_itself_once() {
    let file = tavern_copy("autosave-bom");
    let session_file = file.with_extension("session.json");
    let mut app = app_on(&file, SessionPlace::Beside, 3);
    play_some(&mut app);
    let before = state(&mut app);
    drop(app);
    let text = std::fs::read_to_string(&session_file).expect("autosaved");
    std::fs::write(&session_file, format!("\u{feff}{text}")).expect("write");
    let mut app = app_on(&file, SessionPlace::Beside, 4);
    assert_eq!(said(&app), Some(Said::RestoredAutosave), "{}", notice(&app));
    assert_eq!(state(&mut app), before);
    drop(app);

    std::fs::write(&session_file, "{ not json").expect("write");
    let error = SessionFile::load(&session_file).expect_err("refused").to_string();
    assert!(error.ends_with(":1:3: key must be a string"), "{error}");
    assert!(!error.contains("at line"), "{error}");
}

/// Item 5: what can't be restored stays on screen whatever is said after it, until dismissed.
#[test]
fn a_grave_notice_stays_until_dismissed() {
    use battlemap::app::core::messages::DismissPinned;
    let file = tavern_copy("autosave-pinned");
    std::fs::write(file.with_extension("session.json"), "{ not json").expect("write");
    let mut app = app_on(&file, SessionPlace::Beside, 3);
    assert!(matches!(pinned(&app).as_slice(), [Said::AutosaveNotRestored { .. }]));
    let lia = entity_of(&mut app, "lia");
    send(&mut app, FightRequest::Damage { target: lia, amount: 2 });
    send(&mut app, TurnRequest::NextTurn);
    assert_ne!(said(&app), None, "other things are said");
    assert_eq!(pinned(&app).len(), 1, "the notice stays");
    send(&mut app, DismissPinned(0));
    assert!(pinned(&app).is_empty());
}

/// A way to damage a session file or its journal.
#[derive(Clone, Debug)]
enum Damage {
    /// Cut the file short at this fraction of its length.
    Cut { journal: bool, at: f64 },
    /// Flip the bits of the byte at this fraction of its length.
    Flip { journal: bool, at: f64 },
    /// Put this number in place of the `n`th number of the session file.
    Number { n: usize, to: &'static str },
    /// Put "nobody" in place of the `n`th id the session file names.
    Id { n: usize },
    /// Remove the file.
    Remove { journal: bool },
    /// A directory in the file's place.
    Directory { journal: bool },
    /// CR LF line ends in the journal.
    Crlf,
}

fn damage() -> impl Strategy<Value = Damage> {
    let extreme = prop::sample::select(vec![
        "0",
        "-1",
        "2147483647",
        "-2147483648",
        "4294967296",
        "18446744073709551615",
        "1e30",
        "0.5",
    ]);
    prop_oneof![
        (any::<bool>(), 0.0..1.0).prop_map(|(journal, at)| Damage::Cut { journal, at }),
        (any::<bool>(), 0.0..1.0).prop_map(|(journal, at)| Damage::Flip { journal, at }),
        (0usize..400, extreme).prop_map(|(n, to)| Damage::Number { n, to }),
        (0usize..60).prop_map(|n| Damage::Id { n }),
        any::<bool>().prop_map(|journal| Damage::Remove { journal }),
        any::<bool>().prop_map(|journal| Damage::Directory { journal }),
        Just(Damage::Crlf),
    ]
}

/// Does `damage` to the game's files.
fn apply(damage: &Damage, session_file: &Path) {
    let journal = journal_path(session_file);
    let which = |j: bool| if j { journal.clone() } else { session_file.to_path_buf() };
    let at = |bytes: &[u8], f: f64| ((bytes.len() as f64 * f) as usize).min(bytes.len().saturating_sub(1));
    match damage {
        Damage::Cut { journal, at: f } => {
            let path = which(*journal);
            let bytes = std::fs::read(&path).expect("there");
            std::fs::write(&path, &bytes[..at(&bytes, *f)]).expect("write");
        }
        Damage::Flip { journal, at: f } => {
            let path = which(*journal);
            let mut bytes = std::fs::read(&path).expect("there");
            if !bytes.is_empty() {
                let i = at(&bytes, *f);
                bytes[i] = !bytes[i];
            }
            std::fs::write(&path, &bytes).expect("write");
        }
        Damage::Number { n, to } => {
            let text = std::fs::read_to_string(session_file).expect("there");
            let numbers: Vec<(usize, usize)> = number_spans(&text);
            if let Some(&(start, end)) = numbers.get(n % numbers.len().max(1)) {
                std::fs::write(session_file, format!("{}{to}{}", &text[..start], &text[end..])).expect("write");
            }
        }
        Damage::Id { n } => {
            let text = std::fs::read_to_string(session_file).expect("there");
            let ids = ["\"brom\"", "\"lia\"", "\"thug-1\"", "\"thug-2\"", "\"mags\""];
            let spans: Vec<(usize, usize)> =
                ids.iter().flat_map(|id| text.match_indices(id).map(|(i, m)| (i, i + m.len()))).collect();
            if let Some(&(start, end)) = spans.get(n % spans.len().max(1)) {
                std::fs::write(session_file, format!("{}\"nobody\"{}", &text[..start], &text[end..])).expect("write");
            }
        }
        Damage::Remove { journal } => std::fs::remove_file(which(*journal)).expect("remove"),
        Damage::Directory { journal } => {
            let path = which(*journal);
            std::fs::remove_file(&path).expect("remove");
            std::fs::create_dir(&path).expect("a directory");
        }
        Damage::Crlf => {
            let text = std::fs::read_to_string(&journal).expect("there");
            std::fs::write(&journal, text.replace('\n', "\r\n")).expect("write");
        }
    }
}

/// Where the numbers of a JSON text are (outside strings).
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let (mut spans, mut i, mut in_string) = (Vec::new(), 0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'-' | b'0'..=b'9' if !in_string => {
                let start = i;
                while i + 1 < bytes.len() && matches!(bytes[i + 1], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                    i += 1;
                }
                spans.push((start, i + 1));
            }
            _ => {}
        }
        i += 1;
    }
    spans
}

/// A random game: moves, damage, rolls, an effect, turns.
fn play_random(app: &mut App, steps: &[(u8, u8, u8)]) {
    play_with_an_effect(app);
    for &(what, x, y) in steps {
        let who = entity_of(app, ["brom", "lia", "thug-1"][usize::from(x % 3)]);
        match what % 4 {
            0 => send(app, MoveToken::new(who, Cell::new(i32::from(x % 12), i32::from(y % 9)))),
            1 => send(app, FightRequest::Damage { target: who, amount: i32::from(y % 7) }),
            2 => roll(app, "2d6"),
            _ => send(app, TurnRequest::NextTurn),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, rng_seed: RngSeed::Fixed(38), ..ProptestConfig::default() })]

    /// Random games, their files damaged in random ways, restarted: either the game comes back
    /// whole (its rolls too, or a notice that stays says which did not and the journal is kept
    /// aside byte for byte), or the scene starts as written with a notice that stays and every
    /// byte of the bad files kept aside. Either way the next start restores what this one wrote,
    /// with nothing to say.
    #[test]
    fn a_damaged_game_comes_back_whole_or_is_kept_aside(
        steps in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 0..8),
        damage in damage(),
        case in any::<u32>(),
    ) {
        let file = tavern_copy(&format!("autosave-property-{case}"));
        let session_file = file.with_extension("session.json");
        let journal = journal_path(&session_file);
        let mut app = app_on(&file, SessionPlace::Beside, u64::from(case));
        play_random(&mut app, &steps);
        let before = state(&mut app);
        drop(app);
        let mut fresh = app_on(&file, SessionPlace::Off, 1);
        let as_written = capture(fresh.world_mut());
        drop(fresh);
        apply(&damage, &session_file);
        let read = |p: &Path| std::fs::read(p).ok();
        let (bad_session, bad_journal) = (read(&session_file), read(&journal));

        let mut app = app_on(&file, SessionPlace::Beside, 2);
        let after = state(&mut app);
        let pinned_now = pinned(&app);
        let refused = pinned_now
            .iter()
            .any(|s| matches!(s, Said::AutosaveNotRestored { .. } | Said::JournalWithoutGame { .. }));
        if refused {
            prop_assert_eq!(&after.0, &as_written, "the scene as written");
            prop_assert_eq!(read(&aside(&session_file, 1)), bad_session, "the session file kept");
            prop_assert_eq!(read(&aside(&journal, 1)), bad_journal, "its journal kept");
        } else if !matches!(damage, Damage::Number { .. }) {
            // (A number put in place of another may make a valid game of its own.)
            prop_assert_eq!(&after.0, &before.0, "the game comes back whole ({:?})", damage);
            prop_assert_eq!(after.2, before.2, "the dice where they were");
            if after.1 != before.1 {
                prop_assert!(!pinned_now.is_empty(), "lost rolls are said");
                prop_assert_eq!(read(&aside(&journal, 1)), bad_journal, "the journal kept");
            }
        }
        drop(app);
        let mut again = app_on(&file, SessionPlace::Beside, 3);
        prop_assert!(pinned(&again).is_empty(), "{:?}", pinned(&again));
        prop_assert_eq!(said(&again), Some(Said::RestoredAutosave));
        prop_assert_eq!(state(&mut again).0, after.0);
    }
}
