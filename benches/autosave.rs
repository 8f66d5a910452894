//! The autosave's cost per roll with 100 and with 50,000 rolls already in the log (the median of
//! the next 100 rolls, each autosaved as it is made): the new roll appended to the roll log's
//! journal and the session file written atomically (`session::file::write_game`), against the
//! whole roll log rewritten inside the session file after every roll, as before the journal
//! (format 1). On the tavern's board, in a directory of the system's temporary directory.
//! `cargo bench --bench autosave`; the figures go in docs/performance.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use battlemap::app::core::history::{SavedReactions, Snapshot, TokenState, TurnState};
use battlemap::app::features::session::file::{SessionFile, write_game};
use battlemap::app::features::session::journal::{self, Journal, JournalEnd, journal_path};
use battlemap::files::write_atomically;
use battlemap::rules::creature::Ability;
use battlemap::rules::dice::{RollMode, SeededDice};
use battlemap::rules::health::DamageType;
use battlemap::rules::initiative::InitiativeOrder;
use battlemap::rules::log::{LogEntry, RollLog, RollReason};
use battlemap::scenario::Scenario;

/// The session file as format 1 wrote it: the game and the whole roll log in one file.
#[derive(serde::Serialize)]
struct Whole<'a> {
    #[serde(flatten)]
    file: &'a SessionFile,
    log: &'a RollLog,
}

/// `n` rolls as a fight logs them: attacks' damage, saving throws and the dice panel's rolls.
fn rolls(dice: &mut SeededDice, n: usize) -> Vec<LogEntry> {
    (0..n)
        .map(|i| {
            let (notation, reason) = match i % 3 {
                0 => (
                    "1d8+3",
                    RollReason::Damage {
                        of: "Longsword".into(),
                        to: Some("Thug".into()),
                        critical: false,
                        dealt: Some((7, DamageType::Slashing)),
                    },
                ),
                1 => ("1d20+2", RollReason::Save { ability: Ability::Dex, dc: 13, success: i % 2 == 0 }),
                _ => ("4d6kh3", RollReason::Typed { what: "a stat for the new hireling".into(), inspired: false }),
            };
            let roll = dice.roll(notation, RollMode::Normal).expect("valid notation");
            LogEntry::new("Brom", reason, roll, i % 5 == 0)
        })
        .collect()
}

/// The median of some timings.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn report(name: &str, duration: Duration, note: &str) {
    println!("{name:<62} {:>9.3} ms   {note}", duration.as_secs_f64() * 1e3);
}

fn size(path: &Path) -> String {
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    if bytes >= 1 << 20 { format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20)) } else { format!("{bytes} B") }
}

/// The rolls timed after the first ones, one autosave each.
const ROLLS: usize = 100;

fn main() {
    let tavern = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/tavern_brawl.ron");
    let board = Scenario::load(&tavern).expect("the tavern loads");
    let tokens: BTreeMap<String, TokenState> =
        board.tokens.iter().map(|t| (t.id.clone(), TokenState::default())).collect();
    let snapshot = Snapshot {
        board,
        tokens,
        turn: TurnState::default(),
        initiative: InitiativeOrder::default(),
        chase: None,
        awaiting_handover: false,
        reactions: SavedReactions::default(),
        fog: Default::default(),
    };
    let dir: PathBuf = std::env::temp_dir().join(format!("battlemap-bench-autosave-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let session = dir.join("tavern.session.json");
    let journal_file = journal_path(&session);
    let source = Some(tavern.as_path());

    for already in [100, 50_000] {
        let mut dice = SeededDice::new(11);
        let log = rolls(&mut dice, already + ROLLS);
        println!("{already} rolls in the log, then {ROLLS} more, one at a time (the median roll):");

        // The journal: each new roll appended and flushed, then the session file, as the app does
        // (the journal's file stays open between rolls).
        let mut journal = Journal::new(journal_file.clone());
        journal.write(&log[..already]).expect("the journal is written");
        let (mut appends, mut sessions, mut both) = (Vec::new(), Vec::new(), Vec::new());
        for n in already + 1..=already + ROLLS {
            let started = Instant::now();
            let end = journal.write(&log[..n]).expect("appended");
            let appended = started.elapsed();
            let file = SessionFile::new(&snapshot, source, 1, &dice, &end);
            let text = serde_json::to_string(&file).expect("json");
            write_atomically(&session, &text).expect("written");
            appends.push(appended);
            sessions.push(started.elapsed() - appended);
            both.push(started.elapsed());
        }
        let per_roll = median(both);
        report(
            "  journal: append the roll, then the session file",
            per_roll,
            &format!("session file {}, journal {}", size(&session), size(&journal_file)),
        );
        report("    of which the append (write and fdatasync)", median(appends), "");
        report("    of which the session file (JSON, written atomically)", median(sessions), "");
        // The same through `write_game`, the autosave's own call, on a journal opened afresh.
        let mut journal = Journal::new(journal_file.clone());
        journal.write(&log[..already]).expect("the journal is written");
        let through = (already + 1..=already + ROLLS)
            .map(|n| {
                let started = Instant::now();
                write_game(&session, &mut journal, &snapshot, source, 1, &dice, &log[..n]).expect("written");
                started.elapsed()
            })
            .collect();
        report("  the same through write_game", median(through), "");

        // The rare cases: the journal written whole (a new scenario, a log put in place of the
        // written one), and read back at the start.
        let rewrites = (0..5)
            .map(|_| {
                let started = Instant::now();
                Journal::new(journal_file.clone()).write(&log).expect("written");
                started.elapsed()
            })
            .collect();
        report("  the journal written whole (a new scenario)", median(rewrites), "");
        let end = Journal::new(journal_file.clone()).write(&log).expect("written");
        let reads = (0..5)
            .map(|_| {
                let started = Instant::now();
                let back = journal::read(&journal_file, end.rolls, end.digest);
                assert!(back.loss.is_none() && back.entries.len() == log.len(), "read back whole");
                started.elapsed()
            })
            .collect();
        report("  the journal read back (a restart)", median(reads), "");

        // Before the journal: the whole log in the session file, rewritten after every roll.
        let whole = (already + 1..=already + ROLLS)
            .map(|n| {
                let started = Instant::now();
                let file = SessionFile::new(&snapshot, source, 1, &dice, &JournalEnd::default());
                // The old autosave cloned the log into the file it wrote.
                let log = RollLog { seed: 11, entries: log[..n].to_vec() };
                let text = serde_json::to_string(&Whole { file: &file, log: &log }).expect("json");
                write_atomically(&session, &text).expect("written");
                started.elapsed()
            })
            .collect();
        let whole = median(whole);
        report("  whole rewrite (format 1): the session file with the log", whole, &size(&session));
        report(
            "  journal against whole rewrite",
            per_roll,
            &format!("the whole rewrite takes {:.2}x as long", whole.as_secs_f64() / per_roll.as_secs_f64()),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
