//! Making attacks and rolling area saves: every attack of the map (a click, an opportunity attack,
//! a readied attack, a siege weapon's shot) is adjudicated, paid for as it is made, rolled into the
//! log, and its aftermath (`rules::fight::resolve::Aftermath`) applied; every area's saves are
//! rolled once for all and the damage dealt.

use bevy::prelude::*;

use super::{Board, FightState};
use crate::app::core::dice::Rolls;
use crate::app::core::messages::{AttackHow, AttackMade, AttackRequest, SaveSource, SavesRequest};
use crate::app::core::notice::{CantWork, NotNow, Notice, Said, SaveLine};
use crate::app::core::state::{AttackMode, LoadedScenario};
use crate::app::core::tokens::Fighters;
use crate::app::core::turns::Turns;
use crate::rules::dice::{DiceRoll, Evaluation, RollMode};
use crate::rules::economy::Action;
use crate::rules::fight::Fighter;
use crate::rules::fight::adjudicate::{Adjudication, adjudicate, pick_attack};
use crate::rules::fight::resolve::{Aftermath, AttackRoll, RollError, roll_attack};
use crate::rules::fight::saves::{SaveEffect, SavesRolled, roll_saves};
use crate::rules::fight::take_damage;
use crate::rules::log::{AttackOccasion, RollReason};
use crate::rules::siege::{Step, may_take};

/// Makes every attack asked for.
#[allow(clippy::too_many_arguments)]
pub(super) fn make_attacks(
    mut requests: MessageReader<AttackRequest>,
    mut board: Board,
    loaded: Res<LoadedScenario>,
    turns: Res<Turns>,
    mut mode: ResMut<AttackMode>,
    mut rolls: Rolls,
    mut made: MessageWriter<AttackMade>,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        let (fighters, who, victim) = {
            let battlefield = board.p0();
            let fighters = battlefield.fighters();
            let who = match request.how {
                AttackHow::Crewed { operator } => {
                    let kind = fighters.get(request.attacker).and_then(|w| w.siege).map_or("weapon", |s| s.kind.name());
                    format!("{}'s {kind}", battlefield.name(operator))
                }
                _ => battlefield.name(request.attacker),
            };
            (fighters, who, battlefield.name(request.target))
        };
        let said = match attack(&fighters, &loaded, &turns, &mut board.p1(), &mut rolls, request, &who, &victim) {
            Ok(said) => {
                let dealt = match &said {
                    Said::Attacked { roll, .. } => roll.damage.as_ref().filter(|d| d.dealt.amount > 0).map(|d| d.kind),
                    _ => None,
                };
                made.write(AttackMade { attacker: request.attacker, target: request.target, how: request.how, dealt });
                if matches!(request.how, AttackHow::Crewed { .. }) {
                    *mode = AttackMode::default();
                }
                said
            }
            Err(said) => said,
        };
        notice.say(said);
    }
}

/// One attack: adjudicated, paid for once it may be made, rolled with the attacker's spent
/// inspiration, logged, and its aftermath applied. `who` and `victim` name the two in the log.
#[allow(clippy::too_many_arguments)]
fn attack(
    fighters: &Fighters,
    loaded: &LoadedScenario,
    turns: &Turns,
    state: &mut Query<FightState>,
    rolls: &mut Rolls,
    request: &AttackRequest,
    who: &str,
    victim: &str,
) -> Result<Said, Said> {
    let field = fighters.field(&loaded.scenario);
    let gone = || Said::Gone { who: who.to_owned() };
    let (attacker, target) =
        (fighters.get(request.attacker).ok_or_else(gone)?, fighters.get(request.target).ok_or_else(gone)?);
    if attacker.siege.is_some() && !matches!(request.how, AttackHow::Crewed { .. }) {
        return Err(Said::WeaponFiresThroughCrew { weapon: who.to_owned() });
    }
    let chosen =
        pick_attack(attacker, Some(&request.attack)).map_err(|why| Said::CantAttack { who: who.to_owned(), why })?;
    let mut ruling = adjudicate(&field, attacker, target, chosen);
    if let Some(why) = ruling.refusal.clone() {
        return Err(Said::CantAttack { who: who.to_owned(), why });
    }
    pay(fighters, &field, turns, state, request, attacker)?;
    let inspired =
        state.get(request.attacker).ok().and_then(|s| s.inspiration.map(|i| i.spent_on_next_roll)) == Some(true);
    if inspired {
        ruling.sources.advantage("inspiration");
    }
    let roll = roll_attack(&ruling, &target.defenses_now(), attacker.average_damage, &mut rolls.dice.0).map_err(
        |e| match e {
            RollError::Refused(why) => Said::CantAttack { who: who.to_owned(), why },
            error => Said::AttackNotRolled { who: who.to_owned(), error },
        },
    )?;
    if inspired
        && let Ok(mut s) = state.get_mut(request.attacker)
        && let Some(inspiration) = s.inspiration.as_mut()
    {
        inspiration.spent_on_next_roll = false;
    }
    let how = match request.how {
        AttackHow::Opportunity => AttackOccasion::Opportunity,
        AttackHow::Readied => AttackOccasion::Readied,
        AttackHow::Action | AttackHow::Crewed { .. } => AttackOccasion::Attack,
    };
    log_attack(rolls, &ruling, &roll, how, who, victim);
    let aftermath = Aftermath::of(&ruling, attacker, &roll);
    let taken = state.get_mut(request.target).ok().and_then(|mut s| {
        let combatant = &mut *s.combatant;
        aftermath.harm(&mut s.hit_points.0, &mut combatant.conditions)
    });
    if let Ok(mut s) = state.get_mut(request.attacker) {
        let combatant = &mut *s.combatant;
        aftermath.settle(&mut combatant.helped_against, &mut combatant.hidden);
        if combatant.helped_against.is_none() {
            combatant.helped_by = None;
        }
    }
    Ok(Said::Attacked {
        attacker: who.to_owned(),
        target: victim.to_owned(),
        attack: ruling.attack.name.clone(),
        how,
        roll: Box::new(roll),
        taken,
        revealed: aftermath.revealed,
    })
}

/// Pays for an attack as it is made: the Attack action in the attacker's turn, its reaction, its
/// readied action, or a crew member's action beside a weapon ready to fire.
fn pay(
    fighters: &Fighters,
    field: &crate::rules::fight::Field,
    turns: &Turns,
    state: &mut Query<FightState>,
    request: &AttackRequest,
    attacker: &Fighter,
) -> Result<(), Said> {
    let name = attacker.name().to_owned();
    let payer = match request.how {
        AttackHow::Crewed { operator } => operator,
        _ => request.attacker,
    };
    let mut s = state.get_mut(payer).map_err(|_| Said::Gone { who: name.clone() })?;
    let economy = &mut s.actions.0;
    let spent = match request.how {
        AttackHow::Action => {
            let (options, conditions) = (&attacker.sheet.turn, &attacker.conditions);
            let may = turns.may_attack(request.attacker, &name, economy, options, conditions);
            may.map_err(|why| Said::CantAttackNow { who: name.clone(), why })?;
            economy.attack(options, conditions)
        }
        AttackHow::Opportunity => economy.react(&attacker.conditions),
        AttackHow::Readied => economy.fire_readied(&attacker.conditions).map(drop),
        AttackHow::Crewed { operator } => {
            let crew = fighters.get(operator).ok_or_else(|| Said::Gone { who: name.clone() })?;
            let weapon = attacker.name().to_owned();
            let refuse = |why| Said::CantWork { who: crew.name().to_owned(), weapon: weapon.clone(), why };
            may_take(field, crew, attacker, Step::Fire).map_err(|e| refuse(CantWork::Siege(Box::new(e))))?;
            return turns
                .take(operator, crew.name(), economy, &crew.sheet.turn, &crew.conditions, Action::UseAnObject)
                .map(drop)
                .map_err(|why| refuse(CantWork::NotNow(why)));
        }
    };
    spent.map_err(|error| Said::CantAttackNow { who: name.clone(), why: NotNow::Spent { who: name, error } })
}

/// The attack roll and its damage in the log, with every advantage and disadvantage named.
fn log_attack(
    rolls: &mut Rolls,
    ruling: &Adjudication,
    roll: &AttackRoll,
    how: AttackOccasion,
    who: &str,
    victim: &str,
) {
    let reason = RollReason::Attack {
        attack: Some(ruling.attack.name.clone()),
        how,
        target: victim.to_owned(),
        outcome: roll.outcome,
        sources: ruling.sources.clone(),
    };
    rolls.write(who, reason, roll.roll.clone(), false);
    if let Some(damage) = &roll.damage {
        let critical = roll.outcome == crate::rules::attack::Outcome::Critical;
        let dice_roll = damage.roll.clone().map_or_else(
            || fixed_roll(&format!("average {}", damage.rolled), damage.rolled),
            |mut r| {
                if let Some(average) = damage.average {
                    r.notation = format!("{average} + {}", r.notation);
                    r.total = damage.rolled;
                }
                r
            },
        );
        let reason = RollReason::Damage {
            of: ruling.attack.name.clone(),
            to: Some(victim.to_owned()),
            critical,
            dealt: Some((damage.dealt.amount, damage.kind)),
        };
        rolls.write(who, reason, dice_roll, false);
    }
}

/// A roll the log shows without dice: average damage.
fn fixed_roll(what: &str, total: i32) -> DiceRoll {
    DiceRoll {
        notation: what.to_owned(),
        mode: RollMode::Normal,
        evaluations: vec![Evaluation { detail: what.to_owned(), total }],
        total,
    }
}

/// Rolls the saves of every area asked for: the damage once, every creature's save, the damage
/// each takes.
pub(super) fn roll_area_saves(
    mut requests: MessageReader<SavesRequest>,
    mut board: Board,
    loaded: Res<LoadedScenario>,
    mut rolls: Rolls,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        let (fighters, names) = {
            let battlefield = board.p0();
            let names = match request.source {
                SaveSource::Template => None,
                SaveSource::Cauldron { operator, weapon } => {
                    Some((battlefield.name(operator), battlefield.name(weapon)))
                }
            };
            (battlefield.fighters(), names)
        };
        let field = fighters.field(&loaded.scenario);
        let (who, boiling_oil) = match (request.source, &names) {
            (SaveSource::Cauldron { weapon, .. }, Some((operator, _))) => {
                let kind = fighters.get(weapon).and_then(|w| w.siege).map_or("cauldron", |s| s.kind.name());
                (format!("{operator}'s {kind}"), true)
            }
            _ => ("The DM".to_owned(), false),
        };
        let rolled = match roll_saves(&field, &request.inside, &request.effect, &mut rolls.dice.0) {
            Ok(rolled) => rolled,
            Err(error) => {
                notice.say(Said::Dice(error));
                continue;
            }
        };
        let lines = apply_saves(&fighters, &mut board.p1(), &mut rolls, &rolled, &request.effect, &who, boiling_oil);
        notice.say(match names {
            Some((who, weapon)) => Said::Tipped { who, weapon, lines },
            None => Said::SavesRolled { lines },
        });
    }
}

/// Logs the damage roll (as `who`, of an area or of `boiling_oil`) and every save, deals each creature its damage, and
/// returns each creature's outcome.
fn apply_saves(
    fighters: &Fighters,
    state: &mut Query<FightState>,
    rolls: &mut Rolls,
    rolled: &SavesRolled,
    effect: &SaveEffect,
    who: &str,
    boiling_oil: bool,
) -> Vec<SaveLine> {
    if let Some(roll) = &rolled.damage_roll {
        let reason = RollReason::AreaDamage { boiling_oil, kind: effect.damage_type };
        rolls.write(who, reason, roll.clone(), false);
    }
    let mut lines = Vec::new();
    for result in &rolled.results {
        let Some(entity) = fighters.entity_of(&result.id) else { continue };
        if let Some(roll) = &result.roll {
            let reason = RollReason::Save { ability: effect.ability, dc: effect.dc, success: result.success };
            rolls.write(&result.name, reason, roll.clone(), false);
        }
        let taken = result.damage.as_ref().map_or(0, |d| d.amount);
        if let Ok(mut s) = state.get_mut(entity)
            && taken > 0
        {
            let combatant = &mut *s.combatant;
            take_damage(&mut s.hit_points.0, &mut combatant.conditions, taken, false);
        }
        lines.push(SaveLine {
            name: result.name.clone(),
            success: result.success,
            taken,
            note: result.note.as_ref().map(ToString::to_string),
            rolled: result.roll.is_some(),
        });
    }
    lines
}
