//! Effects that last (`rules::effects`) run from the initiative tracker: at the end of a
//! creature's turn and the start of the next, every creature's effects advance through the
//! rules' tracker (repeated saves and damage rolled with the session's dice and logged);
//! damage from anything calls for a concentration save; an incapacitated or dead caster's
//! concentration ends, and a grapple whose grappler is incapacitated or out of reach; a coated
//! weapon's hit delivers its poison; the card gives and ends effects, and a dawn advances
//! diseases. The effects' conditions follow them onto the creature.

use bevy::ecs::query::QueryData;
use bevy::prelude::*;

use crate::app::core::components::*;
use crate::app::core::dice::Rolls;
use crate::app::core::messages::{AttackMade, EffectRequest, TurnEnded, TurnStarted};
use crate::app::core::notice::{Notice, Said};
use crate::app::core::requests::EffectAction;
use crate::app::core::schedule::AppSystems;
use crate::app::core::tokens::Battlefield;
use crate::app::core::turns::Turns;
use crate::rules::conditions::Condition;
use crate::rules::dice::DiceError;
use crate::rules::effects::tracker::{Subject, Tracked, Tracker};
use crate::rules::effects::{EndReason, TurnPoint, grapple_holds};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            run_turn_points.in_set(AppSystems::Follow),
            apply_effect_requests.in_set(AppSystems::Apply),
            deliver_coatings.in_set(AppSystems::Follow),
            (after_damage, end_grapples_out_of_reach, follow_up)
                .chain()
                .in_set(AppSystems::Follow)
                .after(run_turn_points),
        ),
    );
}

/// A creature as its effects see it.
#[derive(QueryData)]
#[query_data(mutable)]
struct Affected {
    entity: Entity,
    id: &'static TokenId,
    name: &'static DisplayName,
    effects: &'static mut LastingEffects,
    hit_points: &'static mut HitPoints,
    combatant: &'static mut Combatant,
    vitals: &'static mut Vitals,
    seen: Option<&'static mut SeenHitPoints>,
    order: &'static RosterOrder,
    secret: Has<Secret>,
}

type Creatures<'w, 's> = Query<'w, 's, Affected>;

/// The hit points a drop of which is damage.
fn hit_points_now(hit_points: &HitPoints) -> i32 {
    hit_points.0.hp.saturating_add(hit_points.0.temp_hp)
}

/// Every creature as the tracker sees it, in the roster's order (the dice roll for them in it).
fn subjects(creatures: &Creatures) -> (Vec<Entity>, Vec<Subject>) {
    let mut all: Vec<_> = creatures.iter().collect();
    all.sort_by_key(|c| *c.order);
    all.into_iter()
        .map(|c| {
            let subject = Subject {
                id: c.id.0.clone(),
                name: c.name.0.clone(),
                sheet: c.combatant.sheet.clone(),
                effects: c.effects.0.clone(),
                health: c.hit_points.0,
                defenses: c.combatant.defenses.clone(),
                conditions: c.combatant.conditions.clone(),
                exhaustion: c.vitals.exhaustion,
                hidden: c.secret,
            };
            (c.entity, subject)
        })
        .unzip()
}

/// Writes back what the tracker changed, touching only what differs (an unchanged creature is
/// not marked changed, so no snapshot is taken for nothing).
fn write_back(creatures: &mut Creatures, entities: &[Entity], subjects: Vec<Subject>) {
    for (entity, subject) in entities.iter().zip(subjects) {
        let Ok(mut c) = creatures.get_mut(*entity) else { continue };
        if c.effects.0 != subject.effects {
            c.effects.0 = subject.effects;
        }
        if c.hit_points.0 != subject.health {
            c.hit_points.0 = subject.health;
        }
        if c.combatant.conditions != subject.conditions {
            c.combatant.conditions = subject.conditions;
        }
        if c.vitals.exhaustion != subject.exhaustion {
            c.vitals.exhaustion = subject.exhaustion;
        }
        let now = hit_points_now(&c.hit_points);
        if let Some(mut seen) = c.seen {
            seen.set_if_neq(SeenHitPoints(now));
        }
    }
}

/// Writes what the tracker did in the roll log; says the last ending in the status bar.
fn record(rolls: &mut Rolls, notice: &mut Notice, subjects: &[Subject], done: Vec<Tracked>) {
    let hidden = |who: &str| subjects.iter().any(|s| s.name == who && s.hidden);
    let mut last = None;
    for tracked in done {
        let who = match &tracked {
            Tracked::Roll { entry } => entry.who.clone(),
            Tracked::Effect { who, .. } | Tracked::Damaged { who, .. } | Tracked::Exhaustion { who, .. } => who.clone(),
        };
        if let Some(entry) = tracked.log_entry(hidden(&who)) {
            if !entry.rolled() {
                last = Some(Said::Effect { who: who.clone(), reason: Box::new(entry.reason.clone()) });
            }
            rolls.log.0.entries.push(entry);
        }
    }
    if let Some(said) = last {
        notice.say(said);
    }
}

/// Runs `step` over every creature's effects, writes back and records what it did.
fn run(
    creatures: &mut Creatures,
    rolls: &mut Rolls,
    notice: &mut Notice,
    step: impl FnOnce(&mut Tracker, &mut crate::rules::dice::SeededDice) -> Result<Vec<Tracked>, DiceError>,
) {
    let (entities, all) = subjects(creatures);
    let mut tracker = Tracker::new(all);
    match step(&mut tracker, &mut rolls.dice.0) {
        Ok(done) => {
            record(rolls, notice, &tracker.subjects, done);
            write_back(creatures, &entities, tracker.subjects);
        }
        Err(error) => notice.say(Said::Dice(error)),
    }
}

/// The end of a creature's turn, then the start of the next: the tracker advances everyone's
/// effects and rolls the saves and damage due.
fn run_turn_points(
    mut ended: MessageReader<TurnEnded>,
    mut started: MessageReader<TurnStarted>,
    mut creatures: Creatures,
    ids: Query<&TokenId>,
    mut rolls: Rolls,
    mut notice: ResMut<Notice>,
) {
    let points: Vec<(Entity, TurnPoint)> =
        ended.read().map(|e| (e.0, TurnPoint::End)).chain(started.read().map(|s| (s.0, TurnPoint::Start))).collect();
    for (entity, point) in points {
        let Ok(whose) = ids.get(entity).map(|id| id.0.clone()) else { continue };
        run(&mut creatures, &mut rolls, &mut notice, |tracker, dice| tracker.at_turn(&whose, point, dice));
    }
}

/// Damage from anything (an attack, an area, the DM's hand): what ends on damage ends, and a
/// concentrating creature saves to keep it (PHB "Concentration"). A drop of hit points since
/// last seen is damage.
fn after_damage(mut creatures: Creatures, mut commands: Commands, mut rolls: Rolls, mut notice: ResMut<Notice>) {
    let mut hurt = Vec::new();
    for mut c in &mut creatures {
        let now = hit_points_now(&c.hit_points);
        match c.seen.as_mut() {
            None => {
                // `try_insert`: an undo in the same frame may have rebuilt the tokens.
                commands.entity(c.entity).try_insert(SeenHitPoints(now));
            }
            Some(seen) if seen.0 != now => {
                let drop = seen.0 - now;
                seen.0 = now;
                if drop > 0 {
                    hurt.push((c.entity, drop));
                }
            }
            Some(_) => {}
        }
    }
    for (entity, drop) in hurt {
        let (entities, _) = subjects(&creatures);
        let Some(index) = entities.iter().position(|e| *e == entity) else { continue };
        run(&mut creatures, &mut rolls, &mut notice, |tracker, dice| tracker.took_damage(index, drop, dice));
    }
}

/// A grapple ends when the grappled creature is no longer within the grappler's reach, moved or
/// pushed (PHB "Escaping a Grapple"), measured by the rules' one distance (elevation included).
fn end_grapples_out_of_reach(
    mut board: ParamSet<(Battlefield, Creatures)>,
    moved: Query<(), (With<TokenMarker>, Changed<Position>)>,
    mut rolls: Rolls,
    mut notice: ResMut<Notice>,
) {
    if moved.is_empty() {
        return;
    }
    // Each grapple: the entity held, its id, the effect, the grappler's id and reach.
    let mut grapples: Vec<(Entity, String, u32, String, u32)> = Vec::new();
    for c in &board.p1() {
        for (effect, by, reach) in c.effects.0.grapples() {
            grapples.push((c.entity, c.id.0.clone(), effect, by.to_owned(), reach));
        }
    }
    if grapples.is_empty() {
        return;
    }
    let broken: Vec<(Entity, u32, EndReason)> = {
        let battlefield = board.p0();
        let fighters = battlefield.fighters();
        let field = fighters.field(battlefield.scenario());
        grapples
            .iter()
            .filter_map(|(entity, held, effect, by, reach)| {
                let held = field.fighter(held)?;
                let grappler = field.fighter(by);
                let incapacitated = grappler.is_some_and(|g| g.conditions.has(Condition::Incapacitated));
                let distance = grappler.map_or(u32::MAX, |g| field.feet_between(g, held));
                grapple_holds(incapacitated, distance, *reach).err().map(|why| (*entity, *effect, why))
            })
            .collect()
    };
    if broken.is_empty() {
        return;
    }
    let mut creatures = board.p1();
    let mut done = Vec::new();
    for (entity, effect, why) in broken {
        let Ok(mut c) = creatures.get_mut(entity) else { continue };
        if let Some(event) = c.effects.0.end(effect, why) {
            done.push(Tracked::Effect { who: c.name.0.clone(), event });
        }
    }
    let (_, all) = subjects(&creatures);
    record(&mut rolls, &mut notice, &all, done);
}

/// After any change: concentration and grapples end with an incapacitated or dead source, and
/// each creature's conditions follow its effects.
fn follow_up(mut creatures: Creatures, mut rolls: Rolls, mut notice: ResMut<Notice>) {
    let changed =
        creatures.iter_mut().any(|c| c.combatant.is_changed() || c.hit_points.is_changed() || c.effects.is_changed());
    if changed {
        run(&mut creatures, &mut rolls, &mut notice, |tracker, _| Ok(tracker.follow_up()));
    }
}

/// A hit with a coated weapon that deals the damage its poison needs exposes the target; the
/// coating is then spent (DMG "Injury": "remains potent until delivered through a wound").
fn deliver_coatings(
    mut made: MessageReader<AttackMade>,
    coated: Query<&CoatedWeapon>,
    mut commands: Commands,
    mut creatures: Creatures,
    mut rolls: Rolls,
    mut notice: ResMut<Notice>,
) {
    for attack in made.read() {
        let (Some(kind), Ok(coating)) = (attack.dealt, coated.get(attack.attacker)) else { continue };
        if !coating.0.delivered_by_hit(kind) {
            continue;
        }
        let poison = coating.0;
        commands.entity(attack.attacker).remove::<CoatedWeapon>();
        let (entities, _) = subjects(&creatures);
        let Some(index) = entities.iter().position(|e| *e == attack.target) else { continue };
        run(&mut creatures, &mut rolls, &mut notice, |tracker, dice| tracker.expose(index, poison, dice));
    }
}

/// The card's requests: end or give an effect, a poison, a disease, a madness, a cure, a dawn.
/// An effect given while no fight runs has its first round at its clock's first turn.
fn apply_effect_requests(
    mut requests: MessageReader<EffectRequest>,
    mut commands: Commands,
    mut creatures: Creatures,
    mut rolls: Rolls,
    mut notice: ResMut<Notice>,
    turns: Res<Turns>,
) {
    let in_fight = turns.fight_runs();
    for request in requests.read() {
        if request.action == EffectAction::Dawn {
            run(&mut creatures, &mut rolls, &mut notice, Tracker::dawn);
            continue;
        }
        let (entities, _) = subjects(&creatures);
        let Some(index) = request.target.and_then(|t| entities.iter().position(|e| *e == t)) else { continue };
        match &request.action {
            EffectAction::Dawn => {}
            EffectAction::Coat(poison) => {
                let Some(target) = request.target else { continue };
                match poison {
                    Some(poison) => commands.entity(target).insert(CoatedWeapon(*poison)),
                    None => commands.entity(target).remove::<CoatedWeapon>(),
                };
                notice.say(Said::Coated { poison: *poison });
            }
            EffectAction::Give(effect) => {
                let (entities, all) = subjects(&creatures);
                let mut tracker = Tracker::new(all);
                match tracker.give(index, (**effect).clone(), in_fight) {
                    Ok(done) => {
                        record(&mut rolls, &mut notice, &tracker.subjects, done);
                        write_back(&mut creatures, &entities, tracker.subjects);
                    }
                    Err(why) => notice.say(Said::EffectRefused(why)),
                }
            }
            EffectAction::Poison(poison) => {
                let poison = *poison;
                run(&mut creatures, &mut rolls, &mut notice, |tracker, dice| tracker.expose(index, poison, dice));
            }
            EffectAction::Disease(disease) => {
                let disease = *disease;
                run(&mut creatures, &mut rolls, &mut notice, |tracker, dice| tracker.infect(index, disease, dice));
            }
            EffectAction::Madness(kind) => {
                let kind = *kind;
                run(&mut creatures, &mut rolls, &mut notice, |tracker, dice| tracker.madden(index, kind, dice));
            }
            EffectAction::End(id) => {
                let id = *id;
                run(&mut creatures, &mut rolls, &mut notice, |tracker, _| Ok(tracker.end(index, id, None)));
            }
            EffectAction::Cure { effect, cure } => {
                let (id, cure) = (*effect, *cure);
                run(&mut creatures, &mut rolls, &mut notice, |tracker, _| Ok(tracker.end(index, id, Some(cure))));
            }
        }
    }
}
