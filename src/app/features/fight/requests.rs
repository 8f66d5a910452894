//! The card's fight requests, each applied by a small function that returns what to tell.

use bevy::prelude::*;

use super::{Board, FightState, FightStateItem};
use crate::app::core::dice::Rolls;
use crate::app::core::messages::FightRequest;
use crate::app::core::notice::{Notice, Said};
use crate::app::core::state::{AttackMode, LoadedScenario};
use crate::app::core::tokens::{Battlefield, Fighters};
use crate::app::core::turns::Turns;
use crate::rules::conditions::Rolling;
use crate::rules::creature::Skill;
use crate::rules::economy::Action;
use crate::rules::fight::actions::{HideOutcome, TurnCost, cannot_help_because, hide, search, seen_by, turn_to_face};
use crate::rules::fight::{death_save, heal, set_exhaustion, stand_up, take_damage};
use crate::rules::health::Life;
use crate::rules::log::RollReason;
use crate::rules::modifiers::D20;

#[allow(clippy::too_many_arguments)]
pub(super) fn apply_fight_requests(
    mut requests: MessageReader<FightRequest>,
    mut board: Board,
    loaded: Res<LoadedScenario>,
    mut mode: ResMut<AttackMode>,
    turns: Res<Turns>,
    mut rolls: Rolls,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        let said = match request.clone() {
            FightRequest::PickAttack { attacker, attack, weapon } => {
                pick(&mut mode, &board.p0(), attacker, attack, weapon)
            }
            FightRequest::Help { helper, ally, target } => {
                let fighters = board.p0().fighters();
                help(&fighters, &loaded, &turns, &mut board.p1(), helper, ally, target)
            }
            FightRequest::Hide { who } => {
                let fighters = board.p0().fighters();
                hide_action(&fighters, &loaded, &turns, &mut board.p1(), &mut rolls, who)
            }
            FightRequest::Search { who } => {
                let fighters = board.p0().fighters();
                search_action(&fighters, &loaded, &turns, &mut board.p1(), &mut rolls, who)
            }
            FightRequest::Turn { target, clockwise } => {
                let grid = loaded.scenario.grid;
                on(&mut board.p1(), target, |s| turn(s, grid, &turns, target, clockwise))
            }
            FightRequest::DeathSave { target } => on(&mut board.p1(), target, |s| roll_death_save(s, &mut rolls)),
            other => on(&mut board.p1(), target_of(&other), |s| change(s, &other)),
        };
        if let Some(said) = said {
            notice.say(said);
        }
    }
}

/// Applies `f` to the token `entity`, if it is there.
fn on(
    state: &mut Query<FightState>,
    entity: Entity,
    f: impl FnOnce(&mut FightStateItem) -> Option<Said>,
) -> Option<Said> {
    state.get_mut(entity).ok().and_then(|mut s| f(&mut s))
}

/// The token a request about one creature's state is for.
fn target_of(request: &FightRequest) -> Entity {
    match *request {
        FightRequest::Damage { target, .. }
        | FightRequest::Heal { target, .. }
        | FightRequest::TempHp { target, .. }
        | FightRequest::Condition { target, .. }
        | FightRequest::Exhaustion { target, .. }
        | FightRequest::DeathSave { target }
        | FightRequest::Stabilize { target }
        | FightRequest::Turn { target, .. }
        | FightRequest::Dodge { target, .. }
        | FightRequest::StandUp { target } => target,
        FightRequest::PickAttack { attacker, .. } => attacker,
        FightRequest::Help { helper, .. } => helper,
        FightRequest::Hide { who } | FightRequest::Search { who } => who,
    }
}

/// Picks an attack (or a weapon to fire) for the next click on a target.
fn pick(
    mode: &mut AttackMode,
    board: &Battlefield,
    attacker: Entity,
    attack: Option<String>,
    weapon: Option<Entity>,
) -> Option<Said> {
    *mode = AttackMode { attacker: Some(attacker), attack: attack.clone(), weapon };
    let who = board.name(attacker);
    match (attack, weapon) {
        (Some(_), Some(weapon)) => Some(Said::Mans { who, weapon: board.name(weapon) }),
        (Some(attack), None) => Some(Said::AttackPicked { who, attack }),
        (None, _) => None,
    }
}

/// The requests that change one creature's own state.
fn change(s: &mut FightStateItem, request: &FightRequest) -> Option<Said> {
    let who = s.name.0.clone();
    match *request {
        FightRequest::Damage { amount, .. } => {
            let combatant = &mut *s.combatant;
            let taken = take_damage(&mut s.hit_points.0, &mut combatant.conditions, amount, false);
            Some(Said::Damaged { who, taken })
        }
        FightRequest::Heal { amount, .. } => {
            let regained = heal(&mut s.hit_points.0, &mut s.combatant.conditions, amount);
            Some(Said::Healed { who, regained })
        }
        FightRequest::TempHp { amount, .. } => {
            s.hit_points.0.give_temp_hp(amount);
            Some(Said::TempHp { who, now: s.hit_points.0.temp_hp })
        }
        FightRequest::Condition { condition, on: true, .. }
            if s.combatant.sheet.condition_immunities.contains(&condition) =>
        {
            Some(Said::ImmuneToCondition { who, condition })
        }
        FightRequest::Condition { condition, on, .. } => {
            s.combatant.conditions.set(condition, on);
            Some(Said::ConditionSet { who, condition, on })
        }
        FightRequest::Exhaustion { level, .. } => {
            s.vitals.exhaustion = set_exhaustion(&mut s.hit_points.0, level);
            Some(Said::Exhaustion { who, level: s.vitals.exhaustion })
        }
        FightRequest::Stabilize { .. } => s.hit_points.0.stabilize().then_some(Said::Stabilized { who }),
        FightRequest::Dodge { on, .. } => {
            s.combatant.dodging = on;
            Some(Said::Dodging { who, on })
        }
        FightRequest::StandUp { .. } => stand(s, who),
        _ => None,
    }
}

/// Stands a prone creature up, paying half its speed from its movement (PHB "Being Prone").
fn stand(s: &mut FightStateItem, who: String) -> Option<Said> {
    let left = s.moves.as_ref().map_or(0, |m| m.turn.left());
    let (speed, exhaustion) = (s.vitals.speed, s.vitals.exhaustion);
    match stand_up(&mut s.combatant.conditions, speed, exhaustion, left) {
        Ok(cost) => {
            if let Some(moves) = s.moves.as_mut() {
                moves.turn.spent += cost;
            }
            Some(Said::StoodUp { who, cost })
        }
        Err(crate::rules::fight::StandError::NotProne) => None,
        Err(why) => Some(Said::CantStand { who, why }),
    }
}

/// A death saving throw: the d20 in the log, the tally on the creature (PHB "Death Saving
/// Throws"), with disadvantage from exhaustion 3 (a saving throw of no ability: `Rolling::sources`).
fn roll_death_save(s: &mut FightStateItem, rolls: &mut Rolls) -> Option<Said> {
    let who = s.name.0.clone();
    if s.hit_points.0.life != Life::Dying {
        return Some(Said::NotDying { who });
    }
    let effects = s.effects.map(|e| e.0.modifiers()).unwrap_or_default();
    let rolling =
        Rolling { who: &who, conditions: &s.combatant.conditions, exhaustion: s.vitals.exhaustion, effects: &effects };
    // The d20 alone, read as always: 10 or more succeeds, a 1 and a 20 count double.
    let roll = rolls.dice.0.roll("1d20", rolling.sources(D20::Save(None)).mode()).ok()?;
    let save = death_save(&mut s.hit_points.0, &mut s.combatant.conditions, roll.total);
    let health = s.hit_points.0;
    rolls.write(&who, RollReason::DeathSave { result: save }, roll, false);
    let tally = health.death_saves;
    Some(Said::DeathSaved { who, save, successes: tally.successes, failures: tally.failures, life: health.life })
}

/// Turns to face the next side (DMG "Optional Rule: Facing"): free in its turn, its reaction out of
/// it after another creature moved.
fn turn(
    s: &mut FightStateItem,
    grid: crate::rules::Grid,
    turns: &Turns,
    entity: Entity,
    clockwise: bool,
) -> Option<Said> {
    let who = s.name.0.clone();
    let Some(facing) = s.facing.as_mut() else { return Some(Said::FacesNoWay { who }) };
    let (in_turn, moved) = (turns.its_turn(entity), turns.another_moved(entity));
    let conditions = &s.combatant.conditions;
    let turned = turn_to_face(grid, facing.0, clockwise, in_turn, moved, &mut s.actions.0, conditions);
    Some(match turned {
        Ok((to, cost)) => {
            facing.0 = to;
            Said::Turned { who, facing: to, reaction: cost == TurnCost::Reaction }
        }
        Err(why) => Said::CantTurn { who, why },
    })
}

/// The Help action (PHB "Help"): the ally's next attack on the target has advantage.
fn help(
    fighters: &Fighters,
    loaded: &LoadedScenario,
    turns: &Turns,
    state: &mut Query<FightState>,
    helper: Entity,
    ally: Entity,
    target: Entity,
) -> Option<Said> {
    let field = fighters.field(&loaded.scenario);
    let (h, a, t) = (fighters.get(helper)?, fighters.get(ally)?, fighters.get(target)?);
    if let Some(why) = cannot_help_because(&field, h, a, t) {
        return Some(Said::CantHelp { who: h.name().to_owned(), why });
    }
    let mut helping = state.get_mut(helper).ok()?;
    if let Err(why) = turns.take(helper, h.name(), &mut helping.actions.0, &h.sheet.turn, &h.conditions, Action::Help) {
        return Some(Said::NotNow(why));
    }
    let mut helped = state.get_mut(ally).ok()?;
    helped.combatant.helped_against = Some(t.id.clone());
    helped.combatant.helped_by = Some(helper);
    Some(Said::Helps { helper: h.name().to_owned(), ally: a.name().to_owned(), target: t.name().to_owned() })
}

/// Takes `action` (Hide or Search) from `who`'s turn.
fn take_for_action(
    turns: &Turns,
    state: &mut Query<FightState>,
    who: Entity,
    fighter: &crate::rules::fight::Fighter,
    action: Action,
) -> Result<(), Said> {
    let mut s = state.get_mut(who).map_err(|_| Said::Gone { who: fighter.name().to_owned() })?;
    let (options, conditions) = (&fighter.sheet.turn, &fighter.conditions);
    turns.take(who, fighter.name(), &mut s.actions.0, options, conditions, action).map(drop).map_err(Said::NotNow)
}

/// Rolls `fighter`'s check of `skill` (`check`, as effects see it) with `sources`: d20 + its skill
/// bonus + what its effects add (sight rot's penalty on sight checks).
fn roll_check(
    fighter: &crate::rules::fight::Fighter,
    skill: Skill,
    check: D20,
    sources: &crate::rules::advantage::Sources,
    rolls: &mut Rolls,
) -> Result<crate::rules::dice::DiceRoll, Said> {
    let bonus = i32::from(fighter.sheet.skill_bonus(skill)) + fighter.rolling().bonus(check);
    rolls.dice.0.roll(&format!("1d20{bonus:+}"), sources.mode()).map_err(Said::Dice)
}

/// The Hide action: not in the clear sight of an enemy, then Stealth against every enemy's
/// passive Perception. A monster's Stealth total is the DM's: the players read only the outcome.
fn hide_action(
    fighters: &Fighters,
    loaded: &LoadedScenario,
    turns: &Turns,
    state: &mut Query<FightState>,
    rolls: &mut Rolls,
    who: Entity,
) -> Option<Said> {
    let field = fighters.field(&loaded.scenario);
    let hider = fighters.get(who)?;
    let seen: Vec<String> = seen_by(&field, hider).iter().map(|f| f.name().to_owned()).collect();
    if !seen.is_empty() {
        return Some(Said::CantHide { who: hider.name().to_owned(), seen_by: seen });
    }
    let roll = match take_for_action(turns, state, who, hider, Action::Hide)
        .and_then(|()| roll_check(hider, Skill::Stealth, D20::STEALTH, &hider.check_sources(D20::STEALTH), rolls))
    {
        Ok(roll) => roll,
        Err(said) => return Some(said),
    };
    let pc = state.get(who).is_ok_and(|s| s.pc);
    let outcome = hide(&field, hider, roll.total);
    let name = hider.name().to_owned();
    let hidden = matches!(outcome, HideOutcome::Hidden { .. });
    rolls.write(&name, RollReason::Hide { hidden }, roll, !pc);
    Some(match outcome {
        HideOutcome::Hidden { stealth, .. } => {
            if let Ok(mut s) = state.get_mut(who) {
                s.combatant.hidden = Some(stealth);
            }
            Said::Hides { who: name, stealth: pc.then_some(stealth) }
        }
        HideOutcome::Noticed { stealth, against, noticed_by } => {
            Said::FailsToHide { who: name, noticed_by, numbers: pc.then_some((stealth, against)) }
        }
    })
}

/// The Search action: Perception against each hidden enemy's Stealth, rolled once for each way the
/// check goes (an enemy in dim light as the searcher sees it: disadvantage); those found are seen
/// again.
fn search_action(
    fighters: &Fighters,
    loaded: &LoadedScenario,
    turns: &Turns,
    state: &mut Query<FightState>,
    rolls: &mut Rolls,
    who: Entity,
) -> Option<Said> {
    let field = fighters.field(&loaded.scenario);
    let searcher = fighters.get(who)?;
    if let Err(said) = take_for_action(turns, state, who, searcher, Action::Search) {
        return Some(said);
    }
    let mut found: Vec<(String, String)> = Vec::new();
    for check in search(&field, searcher) {
        let roll = match roll_check(searcher, Skill::Perception, D20::PERCEPTION, &check.sources, rolls) {
            Ok(roll) => roll,
            Err(said) => return Some(said),
        };
        let these = check.found(roll.total);
        rolls.write(searcher.name(), RollReason::Search { found: these.len() }, roll, false);
        found.extend(these.iter().map(|f| (f.id.clone(), f.name().to_owned())));
    }
    for (id, _) in &found {
        if let Some(entity) = fighters.entity_of(id)
            && let Ok(mut s) = state.get_mut(entity)
        {
            s.combatant.hidden = None;
        }
    }
    Some(Said::Searched { who: searcher.name().to_owned(), found: found.into_iter().map(|(_, n)| n).collect() })
}
