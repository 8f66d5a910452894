//! The game in progress as one value ([`Snapshot`]) and the steps to undo and redo
//! ([`History`]): the session feature captures and restores them, the editor makes its edits on
//! the latest one.

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::components::CrewStep;
use super::notice::Said;
use crate::rules::chase::Chases;
use crate::rules::economy::Economy;
use crate::rules::initiative::InitiativeOrder;
use crate::rules::log::RollLog;
use crate::rules::movement::TurnMovement;
use crate::rules::siege::Crewing;
use crate::scenario::Scenario;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<History>();
}

/// The most steps kept to undo: a whole round of a big fight.
pub const MAX_UNDO: usize = 200;

/// Everything a change in play or in the editor can touch, by token id (entities change when the
/// map is rebuilt): the board as a scenario (terrain, and every token where it stands now with its
/// hit points, conditions and siege state), each token's turn, the initiative and the chase.
/// The dice and the roll log are not in it: undo never takes a roll back.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub board: Scenario,
    pub tokens: BTreeMap<String, TokenState>,
    pub turn: TurnState,
    pub initiative: InitiativeOrder,
    pub chase: Option<Chases>,
    pub awaiting_handover: bool,
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
    pub movers: Vec<String>,
}

/// The snapshots to undo and redo, and the one the map shows now.
#[derive(Resource, Default)]
pub struct History {
    pub undo: Vec<Snapshot>,
    pub redo: Vec<Snapshot>,
    /// The state recorded last: what the map shows.
    pub current: Option<Snapshot>,
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

    pub fn push_undo(&mut self, snapshot: Snapshot) {
        self.undo.push(snapshot);
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
    }

    /// Restores a saved session: its snapshot, dice and log, as the state to start from.
    pub fn resume(&mut self, snapshot: Snapshot, seed: u64, position: u128, log: RollLog) {
        *self = Self::default();
        self.pending =
            Some(Pending { snapshot, dice: Some((seed, position, log)), said: Some(Said::RestoredAutosave) });
    }
}
