//! The game in progress as one value ([`Snapshot`]) and the steps to undo and redo
//! ([`History`]): the session feature captures and restores them, the editor makes its edits on
//! the latest one.

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::components::CrewStep;
use super::notice::Said;
use crate::rules::bounded::at_most;
use crate::rules::chase::Chases;
use crate::rules::economy::Economy;
use crate::rules::fight::opportunity::{Moving, Provocation};
use crate::rules::initiative::InitiativeOrder;
use crate::rules::log::RollLog;
use crate::rules::movement::{Path, TurnMovement};
use crate::rules::siege::Crewing;
use crate::scenario::Scenario;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<History>();
}

/// The most tokens a game read back from a session file may name in one list (more than a
/// scenario of the largest size can hold).
pub const MAX_TOKENS: usize = crate::rules::initiative::MAX_ENTRIES;

/// The most cells a saved fog may mark: a map of the largest size has as many.
const MAX_CELLS: usize = crate::scenario::MAX_MAP_SIDE * crate::scenario::MAX_MAP_SIDE;

/// The most steps kept to undo: a whole round of a big fight.
pub const MAX_UNDO: usize = 200;

/// Everything a change in play or in the editor can touch, by token id (entities change when the
/// map is rebuilt): the board as a scenario (terrain, and every token where it stands now with its
/// hit points, conditions and siege state), each token's turn, the initiative, the chase, and the
/// reaction prompts waiting (none in a step to undo: a step ends when its prompts are answered),
/// and the fog of war's explored cells and the DM's marks.
/// The dice and the roll log are not in it: undo never takes a roll back.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub board: Scenario,
    pub tokens: BTreeMap<String, TokenState>,
    pub turn: TurnState,
    pub initiative: InitiativeOrder,
    pub chase: Option<Chases>,
    pub awaiting_handover: bool,
    pub reactions: SavedReactions,
    pub fog: SavedFog,
}

impl Snapshot {
    /// Whether `other` differs from this one in the explored cells alone (a step's sight found a
    /// frame late): it is no step of its own to undo. The DM's marks are: a stroke of the fog
    /// brush is a step (issue 39).
    pub fn differs_in_explored_alone(&self, other: &Snapshot) -> bool {
        let fog = SavedFog { explored: self.fog.explored.clone(), ..other.fog.clone() };
        self.fog.explored != other.fog.explored && *self == Snapshot { fog, ..other.clone() }
    }
}

/// The fog of war as the autosave keeps it: the cells the party has explored, four cells to a
/// hexadecimal digit in the map's storage order (the first cell the digit's lowest bit), and the
/// cells the DM revealed or hid.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SavedFog {
    pub explored: String,
    #[serde(deserialize_with = "at_most::<_, _, MAX_CELLS>")]
    pub revealed: Vec<crate::rules::Cell>,
    #[serde(deserialize_with = "at_most::<_, _, MAX_CELLS>")]
    pub hidden: Vec<crate::rules::Cell>,
}

impl SavedFog {
    pub fn is_empty(&self) -> bool {
        *self == SavedFog::default()
    }

    /// The fog of `sight` on `map`.
    pub fn of(sight: &super::state::PartySight, map: &crate::rules::TerrainMap) -> Self {
        use super::state::FogMark;
        let explored = if sight.explored.iter().any(|&e| e) {
            sight
                .explored
                .chunks(4)
                .map(|bits| {
                    let digit = bits.iter().enumerate().fold(0u32, |d, (i, &b)| d | (u32::from(b) << i));
                    char::from_digit(digit, 16).unwrap_or('0')
                })
                .collect()
        } else {
            String::new()
        };
        let marked =
            |mark: FogMark| map.cells().zip(&sight.marks).filter(|(_, m)| **m == Some(mark)).map(|(c, _)| c).collect();
        SavedFog { explored, revealed: marked(FogMark::Revealed), hidden: marked(FogMark::Hidden) }
    }

    /// The explored cells and the DM's marks on `map`, or why they don't fit it.
    pub fn on(
        &self,
        map: &crate::rules::TerrainMap,
    ) -> Result<(Vec<bool>, Vec<Option<super::state::FogMark>>), FogMisfit> {
        use super::state::FogMark;
        let count = map.cells().count();
        if self.explored.len() > count.div_ceil(4) {
            return Err(FogMisfit::TooManyCells);
        }
        let mut explored = vec![false; count];
        for (i, digit) in self.explored.chars().enumerate() {
            let bits = digit.to_digit(16).ok_or(FogMisfit::NotHex(digit))?;
            for bit in 0..4 {
                if let Some(cell) = explored.get_mut(i * 4 + bit) {
                    *cell = bits & (1 << bit) != 0;
                }
            }
        }
        let mut marks = vec![None; count];
        for (cells, mark) in [(&self.revealed, FogMark::Revealed), (&self.hidden, FogMark::Hidden)] {
            for &cell in cells {
                let i = map.index_of(cell).ok_or(FogMisfit::OffTheMap(cell))?;
                marks[i] = Some(mark);
            }
        }
        Ok((explored, marks))
    }
}

/// Why a saved fog doesn't fit its map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FogMisfit {
    #[error("the fog's explored cells are more than the map has")]
    TooManyCells,
    #[error("the fog's explored cells hold {0:?}, which is not a hexadecimal digit")]
    NotHex(char),
    #[error("the fog marks the cell {0}, off the map")]
    OffTheMap(crate::rules::Cell),
}

/// The reaction prompts waiting (`core::state::Reactions`), by id: autosaved while they wait, so
/// that a game killed at a prompt comes back at it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SavedReactions {
    /// A move stopped where it provokes opportunity attacks.
    pub interrupted: Option<SavedInterruption>,
    /// Readied actions a finished move set off, to offer in turn.
    #[serde(deserialize_with = "at_most::<_, _, MAX_TOKENS>")]
    pub readied: Vec<SavedReadied>,
}

impl SavedReactions {
    /// Whether no prompt waits.
    pub fn is_empty(&self) -> bool {
        self.interrupted.is_none() && self.readied.is_empty()
    }

    /// Every token id named.
    pub fn ids(&self) -> impl Iterator<Item = &String> {
        let interrupted = self
            .interrupted
            .iter()
            .flat_map(|i| std::iter::once(&i.mover).chain(&i.offered).chain(i.offers.iter().map(|o| &o.reactor)));
        interrupted.chain(self.readied.iter().flat_map(|r| [&r.reactor, &r.trigger]))
    }
}

/// A move stopped for opportunity attacks (`core::state::Interrupted` by id; what the answers
/// said so far is not kept: only the notice after the move is the shorter for it).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedInterruption {
    pub mover: String,
    /// The rest of the path, from the cell where it stopped.
    pub rest: Path,
    pub moving: Moving,
    /// The opportunity attacks still to offer here, first first.
    #[serde(deserialize_with = "at_most::<_, _, MAX_TOKENS>")]
    pub offers: Vec<Provocation>,
    /// The reactors offered one here.
    #[serde(deserialize_with = "at_most::<_, _, MAX_TOKENS>")]
    pub offered: Vec<String>,
}

/// A readied action set off by `trigger`'s move, by id.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedReadied {
    pub reactor: String,
    pub trigger: String,
}

/// What a token's entry in the scenario can't say: the turn it is in.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TokenState {
    pub economy: Economy,
    /// Movement this turn (creatures only).
    pub movement: Option<TurnMovement>,
    pub crawling: bool,
    pub dodging: bool,
    pub helped_against: Option<String>,
    pub helped_by: Option<String>,
    /// Hidden by the Hide action, with its Stealth total.
    pub stealth: Option<i32>,
    pub inspiration_spent: bool,
    /// A siege weapon's exact crewing (the scenario's `state` names only whole steps), the round
    /// and who worked it then.
    pub crewing: Option<Crewing>,
    pub siege_round: u32,
    #[serde(deserialize_with = "CrewStep::read_then_or_now")]
    pub crew_this_round: Vec<CrewStep>,
    /// A creature's lasting effects as they stand (rounds left, saves made).
    pub effects: Option<crate::rules::effects::Effects>,
    /// The poison on its weapon.
    pub coated: Option<crate::rules::effects::poisons::Poison>,
}

/// Whose turn it is, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TurnState {
    pub round: u32,
    pub active: Option<String>,
    #[serde(deserialize_with = "at_most::<_, _, MAX_TOKENS>")]
    pub movers: Vec<String>,
}

/// The snapshots to undo and redo, and the one the map shows now.
#[derive(Resource, Default)]
pub struct History {
    pub undo: Vec<Snapshot>,
    pub redo: Vec<Snapshot>,
    /// The state recorded last: what the map shows.
    pub current: Option<Snapshot>,
    /// The game as it stands while a reaction prompt waits, in the middle of a step: what the
    /// autosave writes then (the step to undo is recorded once the prompts are answered).
    pub waiting: Option<Snapshot>,
    /// A snapshot to put on the map after this frame's requests.
    pub pending: Option<Pending>,
    /// The map was just rebuilt from a snapshot: the next capture is taken as it is, not as a change.
    pub settling: bool,
    /// Something changed since the autosave last wrote.
    pub unsaved: bool,
    /// A component or resource a snapshot reads changed this frame.
    pub touched: bool,
}

/// A snapshot waiting to be put on the map.
pub struct Pending {
    pub snapshot: Snapshot,
    /// Also set the dice and the roll log (a session restored from its file).
    pub dice: Option<(u64, u128, RollLog)>,
    pub said: Option<Said>,
}

impl History {
    /// Puts `snapshot` on the map as a new step (an edit): the state before it can be undone.
    pub fn apply_edit(&mut self, snapshot: Snapshot, said: Said) {
        if let Some(current) = self.take_latest() {
            self.push_undo(current);
        }
        self.redo.clear();
        self.pending = Some(Pending { snapshot, dice: None, said: Some(said) });
    }

    /// The state the next step starts from: one waiting to be put on the map, else the one shown.
    pub fn latest(&self) -> Option<&Snapshot> {
        self.pending.as_ref().map(|p| &p.snapshot).or(self.current.as_ref())
    }

    /// Takes [`Self::latest`] out, to make a step from it.
    pub fn take_latest(&mut self) -> Option<Snapshot> {
        let current = self.current.take();
        self.pending.take().map(|p| p.snapshot).or(current)
    }

    /// Whether an undo (`redo`: a redo) would go back now: a step is there to take, and none is
    /// under way. `Ctrl+Z`, `Ctrl+Shift+Z` and the bar's buttons all ask this.
    pub fn can_restore(&self, redo: bool, under_way: bool) -> bool {
        let steps = if redo { &self.redo } else { &self.undo };
        !under_way && !steps.is_empty()
    }

    pub fn push_undo(&mut self, snapshot: Snapshot) {
        self.undo.push(snapshot);
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
    }

    /// Restores a saved session: its snapshot, dice and log, as the state to start from; `also`
    /// is told after the restoring (what of the log could not come back).
    pub fn resume(&mut self, snapshot: Snapshot, seed: u64, position: u128, log: RollLog, also: Option<Said>) {
        *self = Self::default();
        let said = match also {
            Some(also) => Said::Several(vec![Said::RestoredAutosave, also]),
            None => Said::RestoredAutosave,
        };
        self.pending = Some(Pending { snapshot, dice: Some((seed, position, log)), said: Some(said) });
    }
}
