//! A simple policy that plays a chase on its own, for `battlemap chase` and for tests: everyone
//! dashes while it is free, then weighs exhaustion; everyone runs as far as it can.
//!
//! Beyond the free dashes, a participant dashes only when it needs the extra feet (a pursuer
//! that can't reach its quarry without it, or a quarry), its exhaustion is below 3, and it is at
//! least even odds to pass the DC 10 Constitution check. Complications: inspiration is spent
//! when the affected participant, or a roller on its side, has it; a coin is always tossed; the
//! razorvine's 10 feet are paid when the save is worse than even odds; otherwise the best check.

use super::complication::{Alternative, Test};
use super::{Chase, ChaseError, Chases, Participant, Resolution};
use crate::rules::creature::Ability;
use crate::rules::dice::{RollMode, SeededDice};
use crate::rules::modifiers::D20;

/// The chance of meeting `dc` with `bonus` on a d20, with disadvantage or not.
fn chance(bonus: i32, dc: i32, disadvantage: bool) -> f64 {
    let single = f64::from((21 - (dc - bonus)).clamp(0, 20)) / 20.0;
    if disadvantage { single * single } else { single }
}

fn wants_extra_dash(chase: &Chase, p: &Participant) -> bool {
    let hampered = p.sources(D20::check(Ability::Con)).mode() == RollMode::Disadvantage;
    if p.exhaustion >= 3 || chance(i32::from(p.sheet.abilities.con), 10, hampered) < 0.5 {
        return false;
    }
    let speed = chase.turn_speed();
    chase
        .pursuer_distances(&p.id)
        .into_iter()
        .all(|feet| feet.is_none_or(|feet| feet.saturating_sub(chase.rules.catch_feet) > speed))
}

fn choose(chase: &Chase) -> Option<Resolution> {
    let turn = chase.turn.as_ref()?;
    let pending = turn.complication.as_ref()?;
    let affected = chase.participant(&pending.affected)?;
    if affected.inspiration {
        return Some(Resolution::Negate { by: affected.id.clone() });
    }
    if chase
        .participant(&pending.roller)
        .is_some_and(|r| r.inspiration && chase.roles(&r.id) == chase.roles(&affected.id))
    {
        return Some(Resolution::Negate { by: pending.roller.clone() });
    }
    let complication = &pending.complication;
    match (complication.alternative, &complication.test) {
        (Some(Alternative::TossCoin), _) => return Some(Resolution::Alternative),
        (Some(Alternative::SpendMovement { .. }), Some(Test::Save { dc, ability }))
            if chance(
                i32::from(affected.sheet.save_bonus(*ability)),
                *dc,
                affected.sources(D20::Save(Some(*ability))).mode() == RollMode::Disadvantage,
            ) < 0.5 =>
        {
            return Some(Resolution::Alternative);
        }
        _ => {}
    }
    let option = match &complication.test {
        Some(Test::Check { options, .. }) => options
            .iter()
            .enumerate()
            .max_by_key(|(i, kind)| (affected.sheet.check_bonus(**kind), std::cmp::Reverse(*i)))
            .map_or(0, |(i, _)| i),
        _ => 0,
    };
    Some(Resolution::Attempt { option })
}

/// Plays the acting participant's turn, once begun.
pub fn play_begun_turn(chase: &mut Chase, dice: &mut SeededDice) -> Result<(), ChaseError> {
    if let Some(resolution) = choose(chase) {
        chase.resolve_complication(resolution, dice)?;
    }
    let id = chase.turn.as_ref().map(|t| t.id.clone()).ok_or(ChaseError::NoTurn)?;
    if let Some(p) = chase.participant(&id).filter(|p| p.is_running()).cloned() {
        if p.restrained {
            chase.break_free(dice)?;
        } else if p.free_dashes_left() > 0 || wants_extra_dash(chase, &p) {
            chase.dash()?;
        }
        let left = chase.movement_left();
        if left > 0 && chase.participant(&id).is_some_and(Participant::is_running) {
            chase.move_by(left)?;
        }
    }
    chase.end_turn(dice)
}

/// Plays the chases until they are over or every chase has played `max_rounds` rounds.
pub fn play(chases: &mut Chases, max_rounds: u32, dice: &mut SeededDice) -> Result<(), ChaseError> {
    let done = |chases: &Chases| {
        chases.is_over() || chases.chases.iter().all(|c| c.is_over() || (c.order.round >= max_rounds && c.round_done()))
    };
    while !done(chases) {
        chases.begin_turn(dice)?;
        play_begun_turn(chases.active_mut(), dice)?;
    }
    Ok(())
}
