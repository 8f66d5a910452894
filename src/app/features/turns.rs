//! Turns in a fight: the initiative order and whose turn it is (Next turn, delay, creatures
//! joining and leaving, entries kept from the players), and each creature's action economy with
//! the actions taken from its card (Dash, Disengage, Dodge, Use an Object, Ready, an object
//! interaction). What starts a turn: movement, actions and the reaction come back, Dodge and the
//! Help it gave end, an unfired readied action is lost. It runs the initiative order of [`Turns`].

use bevy::ecs::query::QueryData;
use bevy::prelude::*;

use crate::app::core::components::*;
use crate::app::core::dice::Rolls;
use crate::app::core::messages::{ScenarioChanged, SelectToken, TurnEnded, TurnRequest, TurnStarted};
use crate::app::core::notice::{CantDelay, NotNow, Notice, Said};
use crate::app::core::pointer::MapKeys;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::Reactions;
use crate::app::core::tokens::TokenIndex;
use crate::app::core::turns::Turns;
use crate::rules::conditions::Rolling;
use crate::rules::economy::{Action, Readied, Slot};
use crate::rules::initiative::{InitiativeOrder, Roller};
use crate::rules::log::RollReason;
use crate::rules::movement::TurnMovement;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            forget_the_fight.run_if(on_message::<ScenarioChanged>).in_set(AppSystems::Build),
            turn_keys.in_set(AppSystems::Input),
            apply_turn_requests.in_set(AppSystems::Apply),
            begin_turns.in_set(AppSystems::Follow),
        ),
    );
}

/// A new scenario starts without a fight: its creatures roll initiative on the first Next turn.
fn forget_the_fight(mut turns: ResMut<Turns>) {
    *turns = Turns::default();
}

/// `N` gives the next creature its turn.
fn turn_keys(keys: MapKeys, mut turn: MessageWriter<TurnRequest>) {
    if keys.pressed(KeyCode::KeyN) && !keys.control() {
        turn.write(TurnRequest::NextTurn);
    }
}

/// What a turn's change tells the other features: whose turn ended, whose started.
#[derive(bevy::ecs::system::SystemParam)]
struct TurnWriters<'w> {
    started: MessageWriter<'w, TurnStarted>,
    ended: MessageWriter<'w, TurnEnded>,
}

/// A creature as turns see it.
#[derive(QueryData)]
#[query_data(mutable)]
struct Turner {
    entity: Entity,
    moves: &'static mut TurnMoves,
    position: &'static mut Position,
    name: &'static DisplayName,
    order: &'static RosterOrder,
    id: &'static TokenId,
    secret: Has<Secret>,
}

type Turners<'w, 's> = Query<'w, 's, Turner>;

/// What the turn requests change, and read (the exhaustion of `Vitals`).
type Economies<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut Actions,
        &'static mut Combatant,
        &'static AbilityModifiers,
        &'static Vitals,
        Option<&'static LastingEffects>,
    ),
>;

fn apply_turn_requests(
    mut commands: Commands,
    mut requests: MessageReader<TurnRequest>,
    mut turns: ResMut<Turns>,
    mut movers: Turners,
    mut fighters: Economies,
    mut select: MessageWriter<SelectToken>,
    mut started: TurnWriters,
    mut notice: ResMut<Notice>,
    mut rolls: Rolls,
    index: Res<TokenIndex>,
    reactions: Res<Reactions>,
) {
    for request in requests.read() {
        let changes_turn = matches!(request, TurnRequest::NextTurn | TurnRequest::StartTurn(_) | TurnRequest::Delay);
        if changes_turn && reactions.waiting() {
            notice.say(Said::TurnWaitsForReaction);
            continue;
        }
        let said = match request {
            TurnRequest::NextTurn => {
                next_turn(&mut turns, &mut movers, &fighters, &index, &mut rolls, &mut select, &mut started)
            }
            TurnRequest::StartTurn(entity) => {
                turns.order.round = turns.order.round.max(1);
                start_turn(&mut turns, *entity, &mut movers, &mut started)
            }
            TurnRequest::Delay => delay(&mut turns, &mut movers, &fighters, &index, &mut started),
            TurnRequest::Join(entity) => join(&mut turns, &movers, &fighters, *entity, &mut rolls),
            TurnRequest::Leave(entity) => leave(&mut turns, &movers, *entity),
            TurnRequest::Secret(entity, on) => keep_secret(&mut commands, &mut turns, &movers, *entity, *on),
            TurnRequest::Undo(entity) => undo_move(&mut movers, &mut fighters, *entity),
            TurnRequest::Act(entity, action) => act(&turns, &mut movers, &mut fighters, *entity, *action),
            TurnRequest::Interact(entity) => interact(&turns, &movers, &mut fighters, *entity),
            TurnRequest::Ready(entity, readied) => ready(&turns, &movers, &mut fighters, &index, *entity, readied),
        };
        if let Some(said) = said {
            notice.say(said);
        }
    }
}

fn name_of(movers: &Turners, entity: Entity) -> String {
    movers.get(entity).map_or_else(|_| "?".to_owned(), |m| m.name.0.clone())
}

/// The next creature in the order starts its turn; the first Next turn rolls initiative for every
/// creature, in the roster's order.
fn next_turn(
    turns: &mut Turns,
    movers: &mut Turners,
    fighters: &Economies,
    index: &TokenIndex,
    rolls: &mut Rolls,
    select: &mut MessageWriter<SelectToken>,
    started: &mut TurnWriters,
) -> Option<Said> {
    if turns.order.entries.is_empty()
        && let Err(error) = roll_initiative(turns, movers, fighters, rolls)
    {
        return Some(Said::Dice(error));
    }
    let id = turns.order.pass_turn().map(|e| e.id.clone())?;
    let next = index.entity(&id)?;
    select.write(SelectToken(Some(id)));
    start_turn(turns, next, movers, started)
}

/// The creature `entity` (`id`, named `name`) as it rolls initiative: a Dexterity check, with the
/// disadvantage its conditions, exhaustion and effects give ([`Roller::new`]).
fn roller(id: &str, name: &str, fighters: &Economies, entity: Entity) -> Roller {
    let none = Default::default();
    let (conditions, dex, exhaustion, effects) = match fighters.get(entity) {
        Ok((_, combatant, abilities, vitals, effects)) => (
            &combatant.conditions,
            abilities.0.dex,
            vitals.exhaustion,
            effects.map(|e| e.0.modifiers()).unwrap_or_default(),
        ),
        Err(_) => (&none, 0, 0, Default::default()),
    };
    Roller::new(id, dex, Rolling { who: name, conditions, exhaustion, effects: &effects })
}

/// Rolls initiative for every creature, in the roster's order, hiding the entries (and the rolls)
/// of those kept from the players.
fn roll_initiative(
    turns: &mut Turns,
    movers: &Turners,
    fighters: &Economies,
    rolls: &mut Rolls,
) -> Result<(), crate::rules::dice::DiceError> {
    let mut roster: Vec<(RosterOrder, Entity)> = movers.iter().map(|m| (*m.order, m.entity)).collect();
    roster.sort();
    let participants: Vec<Roller> = roster
        .iter()
        .filter_map(|(_, e)| {
            let m = movers.get(*e).ok()?;
            Some(roller(&m.id.0, &m.name.0, fighters, *e))
        })
        .collect();
    let (order, dice_rolls) = InitiativeOrder::roll(&participants, &mut rolls.dice.0)?;
    turns.order = order;
    for ((_, entity), roll) in roster.iter().zip(dice_rolls) {
        let Ok(m) = movers.get(*entity) else { continue };
        // The rolls of creatures kept from the players are the DM's, and so are their places.
        rolls.write(&m.name.0, RollReason::Initiative, roll, m.secret);
        turns.order.set_hidden(&m.id.0, m.secret);
    }
    Ok(())
}

fn join(turns: &mut Turns, movers: &Turners, fighters: &Economies, entity: Entity, rolls: &mut Rolls) -> Option<Said> {
    let m = movers.get(entity).ok()?;
    fighters.get(entity).ok()?;
    Some(match turns.order.join(&roller(&m.id.0, &m.name.0, fighters, entity), &mut rolls.dice.0) {
        Ok(roll) => {
            let initiative = roll.total;
            turns.order.set_hidden(&m.id.0, m.secret);
            rolls.write(&m.name.0, RollReason::Initiative, roll, m.secret);
            Said::Joins { who: m.name.0.clone(), initiative }
        }
        Err(error) => Said::Dice(error),
    })
}

fn leave(turns: &mut Turns, movers: &Turners, entity: Entity) -> Option<Said> {
    let m = movers.get(entity).ok()?;
    turns.order.remove(&m.id.0);
    if turns.active == Some(entity) {
        turns.active = None;
    }
    Some(Said::LeavesOrder { who: m.name.0.clone() })
}

fn keep_secret(commands: &mut Commands, turns: &mut Turns, movers: &Turners, entity: Entity, on: bool) -> Option<Said> {
    if on {
        commands.entity(entity).insert(Secret);
    } else {
        commands.entity(entity).remove::<Secret>();
    }
    let m = movers.get(entity).ok()?;
    turns.order.set_hidden(&m.id.0, on);
    Some(Said::KeptFromPlayers { who: m.name.0.clone(), kept: on })
}

fn undo_move(movers: &mut Turners, fighters: &mut Economies, entity: Entity) -> Option<Said> {
    let mut m = movers.get_mut(entity).ok()?;
    let last = m.moves.turn.undo()?;
    m.position.0 = last.from;
    if last.dashed
        && let Ok((mut actions, ..)) = fighters.get_mut(entity)
    {
        actions.0.refund(Action::Dash);
    }
    Some(Said::MoveTakenBack { who: m.name.0.clone(), to: last.to, left: m.moves.turn.left() })
}

/// One of the actions without a target: Dash, Disengage, Dodge, Use an Object.
fn act(turns: &Turns, movers: &mut Turners, fighters: &mut Economies, entity: Entity, action: Action) -> Option<Said> {
    let who = name_of(movers, entity);
    let (mut actions, mut combatant, ..) = fighters.get_mut(entity).ok()?;
    if !matches!(action, Action::Dash | Action::Disengage | Action::Dodge | Action::UseAnObject) {
        return Some(Said::HasItsOwnButton(action));
    }
    let (options, conditions) = (combatant.sheet.turn.clone(), combatant.conditions.clone());
    let slot = match turns.take(entity, &who, &mut actions.0, &options, &conditions, action) {
        Ok(slot) => slot,
        Err(why) => return Some(Said::NotNow(why)),
    };
    let mut left = 0;
    match action {
        Action::Dash => {
            if let Ok(mut m) = movers.get_mut(entity) {
                m.moves.turn.dash();
                left = m.moves.turn.left();
            }
        }
        Action::Dodge => combatant.dodging = true,
        _ => {}
    }
    Some(Said::Acts { who, action, bonus: slot == Slot::BonusAction, left })
}

fn interact(turns: &Turns, movers: &Turners, fighters: &mut Economies, entity: Entity) -> Option<Said> {
    let who = name_of(movers, entity);
    let (mut actions, combatant, ..) = fighters.get_mut(entity).ok()?;
    if !turns.its_turn(entity) {
        return Some(Said::NotNow(NotNow::NotItsTurn { who }));
    }
    Some(match actions.0.interact(&combatant.sheet.turn, &combatant.conditions) {
        Ok(slot) => Said::Interacts { who, with_action: slot.is_some() },
        Err(error) => Said::NotNow(NotNow::Spent { who, error }),
    })
}

fn ready(
    turns: &Turns,
    movers: &Turners,
    fighters: &mut Economies,
    index: &TokenIndex,
    entity: Entity,
    readied: &Readied,
) -> Option<Said> {
    let who = name_of(movers, entity);
    let (mut actions, combatant, ..) = fighters.get_mut(entity).ok()?;
    if !turns.its_turn(entity) {
        return Some(Said::NotNow(NotNow::NotItsTurn { who }));
    }
    let words = readied.describe(|id| index.entity(id).map_or_else(|| id.to_owned(), |e| name_of(movers, e)));
    Some(match actions.0.ready(readied.clone(), &combatant.conditions) {
        Ok(()) => Said::Readies { who, words },
        Err(error) => Said::NotNow(NotNow::Spent { who, error }),
    })
}

/// The creature whose turn it is delays: only before it has moved or acted.
fn delay(
    turns: &mut Turns,
    movers: &mut Turners,
    fighters: &Economies,
    index: &TokenIndex,
    started: &mut TurnWriters,
) -> Option<Said> {
    let Some(active) = turns.active else { return Some(Said::CantDelay(CantDelay::NoFight)) };
    let who = name_of(movers, active);
    let in_order = movers.get(active).is_ok_and(|m| turns.order.current().is_some_and(|e| e.id == m.id.0));
    if !in_order {
        return Some(Said::CantDelay(CantDelay::StartedByHand { who }));
    }
    let moved = movers.get(active).is_ok_and(|m| !m.moves.turn.moves.is_empty() || m.moves.turn.spent > 0);
    let acted = fighters.get(active).is_ok_and(|f| !f.0.0.taken.is_empty());
    if moved || acted {
        return Some(Said::CantDelay(CantDelay::AlreadyActed { who }));
    }
    let Some(next) = turns.order.delay().map(|e| e.id.clone()) else {
        return Some(Said::CantDelay(CantDelay::Last { who }));
    };
    let Some(entity) = index.entity(&next) else {
        return Some(Said::CantDelay(CantDelay::NextIsGone));
    };
    let then = start_turn(turns, entity, movers, started)?;
    Some(Said::Delays { who, then: Box::new(then) })
}

/// Gives `entity` its turn: its movement resets (the rest, in [`begin_turns`]).
fn start_turn(turns: &mut Turns, entity: Entity, movers: &mut Turners, started: &mut TurnWriters) -> Option<Said> {
    if let Some(ended) = turns.active.filter(|a| *a != entity) {
        started.ended.write(TurnEnded(ended));
    }
    turns.active = Some(entity);
    turns.movers.clear();
    started.started.write(TurnStarted(entity));
    let mut m = movers.get_mut(entity).ok()?;
    m.moves.turn = TurnMovement::new(m.moves.turn.speed);
    Some(Said::TurnStarts { round: turns.order.round, who: m.name.0.clone(), speed: m.moves.turn.speed })
}

/// The start of a creature's turn: its action, bonus action, object interaction and reaction come
/// back and an unfired readied action is lost (PHB "Ready"); its Dodge ends (PHB "Dodge": "until
/// the start of your next turn"), and so does the Help it gave (PHB "Help": "before your next
/// turn").
fn begin_turns(mut started: MessageReader<TurnStarted>, mut fighters: Query<(Entity, &mut Actions, &mut Combatant)>) {
    for TurnStarted(entity) in started.read() {
        for (other, mut actions, mut combatant) in &mut fighters {
            if other == *entity {
                actions.0.start_turn();
                combatant.dodging = false;
            }
            if combatant.helped_by == Some(*entity) {
                combatant.helped_against = None;
                combatant.helped_by = None;
            }
        }
    }
}
