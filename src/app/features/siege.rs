//! Siege weapons on the map: a creature beside a weapon works it from its card (load, aim, fill:
//! each an action), picks it to fire at a clicked target (the fight feature makes the shot), or
//! tips a cauldron on the square below; a weapon dragged is pushed by its crew. Every ruling comes
//! from `rules::siege` and `rules::fight`; this feature is the only writer of [`SiegeWeapon`].

use std::collections::HashMap;

use bevy::prelude::*;

use crate::app::core::components::{Actions, CrewStep, Position, SiegeWeapon, TurnMoves};
use crate::app::core::messages::{
    AttackHow, AttackMade, FightRequest, MoveToken, SaveSource, SavesRequest, SiegeRequest,
};
use crate::app::core::notice::{CantPush, CantWork, Notice, Said};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{AttackMode, LoadedScenario};
use crate::app::core::tokens::{Battlefield, Fighters};
use crate::app::core::turns::Turns;
use crate::rules;
use crate::rules::economy::Action;
use crate::rules::siege::{PushPlan, Siege, Step, in_pour, plan_push};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        ((apply_siege_requests, apply_pushes).in_set(AppSystems::Apply), record_shots.in_set(AppSystems::Follow)),
    );
}

/// Whether `operator` may take `step` on `weapon` now: beside it, able to act, and the step the
/// weapon needs next.
fn may_work(
    fighters: &Fighters,
    loaded: &LoadedScenario,
    operator: Entity,
    weapon: Entity,
    step: Step,
) -> Result<Siege, CantWork> {
    let (Some(op), Some(w)) = (fighters.get(operator), fighters.get(weapon)) else {
        return Err(CantWork::NoSuchWeapon);
    };
    rules::siege::may_take(&fighters.field(&loaded.scenario), op, w, step).map_err(|e| CantWork::Siege(Box::new(e)))
}

/// Spends `step` on the weapon and notes who did it this round; returns its state.
fn record(weapons: &mut Query<&mut SiegeWeapon>, weapon: Entity, round: u32, who: &str, step: Step) -> String {
    let Ok(mut w) = weapons.get_mut(weapon) else { return String::new() };
    let kind = w.siege.kind;
    // The step was checked before it was paid for, so it can't be refused here.
    let _ = w.siege.crewing.spend(kind, step);
    if w.round != round {
        w.round = round;
        w.crew_this_round.clear();
    }
    w.crew_this_round.push(CrewStep { who: who.to_owned(), step });
    w.siege.crewing.state(kind)
}

/// The board, read to ask the rules or its weapons written.
type Board<'w, 's> =
    ParamSet<'w, 's, (Battlefield<'static, 'static>, Query<'static, 'static, &'static mut SiegeWeapon>)>;

#[allow(clippy::too_many_arguments)]
fn apply_siege_requests(
    mut requests: MessageReader<SiegeRequest>,
    mut board: Board,
    loaded: Res<LoadedScenario>,
    mut actions: Query<&mut Actions>,
    mode: Res<AttackMode>,
    turns: Res<Turns>,
    mut picks: MessageWriter<FightRequest>,
    mut saves: MessageWriter<SavesRequest>,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        let (SiegeRequest::Work { operator, weapon, .. }
        | SiegeRequest::PickTarget { operator, weapon }
        | SiegeRequest::Tip { operator, weapon }) = *request;
        let (fighters, who, weapon_name) = {
            let battlefield = board.p0();
            (battlefield.fighters(), battlefield.name(operator), battlefield.name(weapon))
        };
        let (options, conditions) =
            fighters.get(operator).map(|f| (f.sheet.turn.clone(), f.conditions.clone())).unwrap_or_default();
        let mut pay = || -> Result<(), CantWork> {
            let mut spent = actions.get_mut(operator).map_err(|_| CantWork::NoSuchWeapon)?;
            turns
                .take(operator, &who, &mut spent.0, &options, &conditions, Action::UseAnObject)
                .map(drop)
                .map_err(CantWork::NotNow)
        };
        let result: Result<Option<Said>, CantWork> = match *request {
            SiegeRequest::Work { step: Step::Fire, .. } => Err(CantWork::NeedsTarget),
            SiegeRequest::Work { step, .. } => may_work(&fighters, &loaded, operator, weapon, step).and_then(|siege| {
                pay()?;
                let state = record(&mut board.p1(), weapon, turns.round(), &who, step);
                let (who, weapon, verb) = (who.clone(), weapon_name.clone(), siege.kind.verb(step));
                Ok(Some(Said::Worked { who, weapon, verb, state }))
            }),
            SiegeRequest::PickTarget { .. } if mode.weapon == Some(weapon) && mode.attacker == Some(operator) => {
                picks.write(FightRequest::PickAttack { attacker: operator, attack: None, weapon: None });
                Ok(Some(Said::LetsGoOf { who: who.clone(), weapon: weapon_name.clone() }))
            }
            SiegeRequest::PickTarget { .. } => {
                may_work(&fighters, &loaded, operator, weapon, Step::Fire).and_then(|_| {
                    let attack =
                        fighters.get(weapon).and_then(|w| w.sheet.attacks.first()).ok_or(CantWork::NoAttack)?;
                    picks.write(FightRequest::PickAttack {
                        attacker: operator,
                        attack: Some(attack.name.clone()),
                        weapon: Some(weapon),
                    });
                    Ok(None)
                })
            }
            SiegeRequest::Tip { .. } => may_work(&fighters, &loaded, operator, weapon, Step::Fire).and_then(|siege| {
                let field = fighters.field(&loaded.scenario);
                let cauldron = fighters.get(weapon).ok_or(CantWork::NoSuchWeapon)?;
                let effect = siege.kind.pour().ok_or(CantWork::NoAttack)?;
                let (_, inside) = in_pour(&field, cauldron).map_err(|e| CantWork::Siege(Box::new(e)))?;
                pay()?;
                record(&mut board.p1(), weapon, turns.round(), &who, Step::Fire);
                saves.write(SavesRequest { inside, effect, source: SaveSource::Cauldron { operator, weapon } });
                Ok(None)
            }),
        };
        match result {
            Ok(Some(said)) => notice.say(said),
            Ok(None) => {}
            Err(why) => notice.say(Said::CantWork { who, weapon: weapon_name, why }),
        }
    }
}

/// A crew's shot counts as its weapon's fire step (the fight feature made it).
fn record_shots(
    mut made: MessageReader<AttackMade>,
    mut weapons: Query<&mut SiegeWeapon>,
    names: Query<&crate::app::core::components::DisplayName>,
    turns: Res<Turns>,
) {
    for shot in made.read() {
        if let AttackHow::Crewed { operator } = shot.how {
            let who = names.get(operator).map_or_else(|_| "?".to_owned(), |n| n.0.clone());
            record(&mut weapons, shot.attacker, turns.round(), &who, Step::Fire);
        }
    }
}

/// Pushes the siege weapons dropped by a drag (a [`MoveToken`] for a weapon): the weapon moves,
/// its pushers walk alongside, each paying twice the weapon's cost from its movement. While a
/// fight runs, one of the pushers must be the creature whose turn it is (or the DM moves it).
fn apply_pushes(
    mut requests: MessageReader<MoveToken>,
    mut board: ParamSet<(Battlefield, Query<(&mut Position, Option<&mut TurnMoves>)>)>,
    loaded: Res<LoadedScenario>,
    turns: Res<Turns>,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        let (fighters, weapon_name) = {
            let battlefield = board.p0();
            (battlefield.fighters(), battlefield.name(request.entity))
        };
        let Some(weapon) = fighters.get(request.entity).filter(|w| w.siege.is_some()) else { continue };
        let feet_left: HashMap<String, u32> = {
            let tokens = board.p1();
            fighters.iter().filter_map(|(e, f)| Some((f.id.clone(), tokens.get(e).ok()?.1?.turn.left()))).collect()
        };
        let field = fighters.field(&loaded.scenario);
        let planned =
            plan_push(&field, weapon, request.to, |f| feet_left.get(&f.id).copied().unwrap_or(0), request.by_dm);
        let pushers_turn = |plan: &PushPlan| {
            plan.pushers.iter().any(|(id, ..)| turns.active.is_some_and(|a| fighters.entity_of(id) == Some(a)))
        };
        let plan = match planned {
            Ok(plan) if request.by_dm || !turns.fight_runs() || pushers_turn(&plan) => plan,
            Ok(_) => {
                notice.say(Said::CantPush { weapon: weapon_name, to: request.to, why: CantPush::NotTheirTurn });
                continue;
            }
            Err(error) => {
                notice.say(Said::CantPush { weapon: weapon_name, to: request.to, why: CantPush::Push(error) });
                continue;
            }
        };
        let mut tokens = board.p1();
        if let Ok((mut position, _)) = tokens.get_mut(request.entity) {
            position.0 = request.to;
        }
        let each = plan.path.cost.saturating_mul(2);
        let mut pushers = Vec::new();
        for (id, from, there) in &plan.pushers {
            let Some(pusher) = fighters.entity_of(id) else { continue };
            if let Ok((mut position, moves)) = tokens.get_mut(pusher) {
                position.0 = *there;
                if let Some(mut moves) = moves {
                    moves.turn.take_move(*from, &plan.walk_of(*from), false);
                }
            }
            pushers.push(fighters.get(pusher).map_or_else(|| id.clone(), |f| f.name().to_owned()));
        }
        notice.say(if pushers.is_empty() {
            Said::DmMovedWeapon { weapon: weapon_name, to: request.to }
        } else {
            Said::Pushed { pushers, weapon: weapon_name, feet: plan.path.cost, each }
        });
    }
}
