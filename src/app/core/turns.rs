//! Whose turn it is: the fight's initiative order, the creature acting now and who has moved
//! this turn, in one resource. The turns feature runs the order; a creature that moves is added
//! to `movers` by the reactions feature; a restored snapshot replaces it whole.

use bevy::prelude::*;

use super::notice::NotNow;
use crate::rules::conditions::Conditions;
use crate::rules::economy::{Action, Economy, Slot, TurnOptions};
use crate::rules::initiative::InitiativeOrder;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Turns>();
}

/// The fight's turns: the initiative order (its place and its round), the creature whose turn it
/// is, and who has moved during that turn (a creature may turn to face another way as its reaction
/// when another creature moves: DMG "Optional Rule: Facing"). The one place that says whose turn
/// it is: the creature at the order's place, or one the DM started by hand out of the order.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Turns {
    pub order: InitiativeOrder,
    /// The creature whose turn it is; `None` while no fight runs, or after it left the fight.
    pub active: Option<Entity>,
    /// Creatures that moved since the turn began.
    pub movers: Vec<Entity>,
}

impl Turns {
    /// The round, 1 from the first turn on.
    pub fn round(&self) -> u32 {
        self.order.round
    }

    /// A fight runs once someone's turn has started: only that creature moves and acts then.
    pub fn fight_runs(&self) -> bool {
        self.active.is_some()
    }

    /// Whether `who` may spend its turn now: no fight runs, or it is its turn.
    pub fn its_turn(&self, who: Entity) -> bool {
        self.active.is_none_or(|active| active == who)
    }

    /// Takes `action` for `who` (named `name`, with `conditions`) from its economy, in its turn.
    pub fn take(
        &self,
        who: Entity,
        name: &str,
        economy: &mut Economy,
        options: &TurnOptions,
        conditions: &Conditions,
        action: Action,
    ) -> Result<Slot, NotNow> {
        if !self.its_turn(who) {
            return Err(NotNow::NotItsTurn { who: name.to_owned() });
        }
        economy.take(action, options, conditions).map_err(|error| NotNow::Spent { who: name.to_owned(), error })
    }

    /// Whether `who` (named `name`) may attack with its Attack action now: in its turn, with an
    /// attack left ([`Economy::can_attack`]). The click asks it before paying; the attack card,
    /// before the click.
    pub fn may_attack(
        &self,
        who: Entity,
        name: &str,
        economy: &Economy,
        options: &TurnOptions,
        conditions: &Conditions,
    ) -> Result<(), NotNow> {
        if !self.its_turn(who) {
            return Err(NotNow::NotItsTurn { who: name.to_owned() });
        }
        economy.can_attack(options, conditions).map_err(|error| NotNow::Spent { who: name.to_owned(), error })
    }

    /// Whether a creature other than `who` moved during this turn.
    pub fn another_moved(&self, who: Entity) -> bool {
        self.movers.iter().any(|&m| m != who)
    }
}
