//! The session's randomness and records: one seeded generator for every roll ([`Dice`]), the roll
//! log ([`RollRecord`]), and the DM's tables ([`Tables`]), each its own resource; [`Rolls`] writes
//! a roll in the log. [`LogLoss`] says why a restored game's log came back short.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::options::LaunchOptions;
use crate::rules::dice::{DiceRoll, SeededDice};
use crate::rules::log::{LogEntry, RollLog, RollReason};
use crate::rules::tables::{self, Table};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Dice>().init_resource::<RollRecord>().init_resource::<Tables>();
}

/// The session's one seeded generator: every roll, table roll and initiative roll comes from it,
/// so a session replays from its seed (recorded in the roll log, settable with `--seed`).
#[derive(Resource)]
pub struct Dice(pub SeededDice);

impl FromWorld for Dice {
    fn from_world(world: &mut World) -> Self {
        let seed = world.get_resource::<LaunchOptions>().and_then(|o| o.seed).unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
        });
        Self(SeededDice::new(seed))
    }
}

/// Every roll of the session, with the dice's seed.
#[derive(Resource)]
pub struct RollRecord(pub RollLog);

impl FromWorld for RollRecord {
    fn from_world(world: &mut World) -> Self {
        let seed = world.get_resource_or_init::<Dice>().0.seed;
        Self(RollLog { seed, entries: Vec::new() })
    }
}

/// Why the roll log of a game restored from its autosave holds fewer rolls than the game made: its
/// journal (one line per roll, beside the session file) could not give them all. The game itself
/// and the dice's position come back whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogLoss {
    /// There is no journal.
    Missing,
    /// The journal is a directory, a pipe or a device.
    NotAFile,
    /// Reading it failed, in the operating system's words.
    Unreadable(String),
    /// It is larger than a journal may be, in bytes: what is within that is kept.
    TooLarge { limit: u64 },
    /// Line `line` (from 1) is not a roll: the rolls before it are kept.
    BadLine { line: usize, error: String },
    /// It ends before the game's last roll.
    EndsEarly,
    /// Its lines are not the game's rolls (another game's journal, or edited): none is kept.
    OtherGame,
}

/// How a journal that gave all its rolls differs from what the autosave wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mended {
    /// Its lines end with CR LF (an editor on Windows saved it): the rolls are the game's.
    LineEnds,
    /// Every line is a roll and there are as many as the game made, but they are not what was
    /// written (a line edited by hand, or another game's of the same length): kept as they read.
    Unverified,
}

/// The DM's tables (DMG chapter 8's and the others the app carries).
#[derive(Resource)]
pub struct Tables(pub Vec<Table>);

impl Default for Tables {
    fn default() -> Self {
        Self(tables::all().unwrap_or_else(|e| {
            error!("{e}");
            Vec::new()
        }))
    }
}

/// The dice and the log together: a roll made and written down.
#[derive(SystemParam)]
pub struct Rolls<'w> {
    pub dice: ResMut<'w, Dice>,
    pub log: ResMut<'w, RollRecord>,
}

impl Rolls<'_> {
    /// Writes a roll already made in the log.
    pub fn write(&mut self, who: &str, reason: RollReason, roll: DiceRoll, hidden: bool) {
        self.log.0.entries.push(LogEntry::new(who, reason, roll, hidden));
    }
}
