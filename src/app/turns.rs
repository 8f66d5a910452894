//! Turns in a fight: the initiative order and whose turn it is (Next turn, delay, creatures
//! joining and leaving, entries kept from the players), and each creature's action economy with
//! the actions taken from its card (Dash, Disengage, Dodge, Use an Object, Ready, an object
//! interaction). What starts a turn: movement, actions and the reaction come back, Dodge and the
//! Help it gave end, an unfired readied action is lost.

use bevy::prelude::*;

use super::AppSystems;
use super::components::*;
use super::dice::Session;
use super::input::MapKeys;
use super::movement::TurnMoves;
use super::state::{Notice, SelectToken};
use crate::rules::economy::{Action, Readied, TurnOptions};
use crate::rules::movement::TurnMovement;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Turn>().add_message::<TurnRequest>().add_message::<TurnStarted>().add_systems(
        Update,
        (
            forget_initiative.run_if(on_message::<super::state::ScenarioChanged>).in_set(AppSystems::Build),
            turn_keys.in_set(AppSystems::Input),
            (apply_turn_requests, begin_turns).chain().in_set(AppSystems::Apply),
        ),
    );
}

/// A new scenario starts without a fight: its creatures roll initiative on the first Next turn.
fn forget_initiative(session: Option<ResMut<Session>>) {
    if let Some(mut session) = session {
        session.initiative = Default::default();
    }
}

/// Whose turn it is, and who has moved during it (a creature may turn to face another way as its
/// reaction when another creature moves: DMG "Optional Rule: Facing").
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    pub round: u32,
    pub active: Option<Entity>,
    /// Creatures that moved since the turn began.
    pub movers: Vec<Entity>,
}

impl Turn {
    /// A fight runs once someone's turn has started: only that creature moves and acts then.
    pub fn fight_runs(&self) -> bool {
        self.active.is_some()
    }

    /// Why `who` can't spend its turn now, if it can't: it isn't its turn.
    pub fn not_yours(&self, who: Entity, name: &str) -> Option<String> {
        self.active
            .filter(|active| *active != who)
            .map(|_| format!("it is not {name}'s turn: out of its turn a creature acts only with its reaction"))
    }
}

/// A creature's turn has just started.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnStarted(pub Entity);

/// Turn and initiative requests from the panels and the keyboard.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum TurnRequest {
    /// The next creature in the initiative order starts its turn (the first rolls initiative).
    NextTurn,
    /// This creature starts its turn now.
    StartTurn(Entity),
    /// The creature whose turn it is waits until after the next one (before it has done anything).
    Delay,
    /// A creature joins the fight: it rolls initiative and takes its place.
    Join(Entity),
    /// A creature leaves the initiative order.
    Leave(Entity),
    /// Keep a creature from the players (its token and its initiative entry), or show it.
    Secret(Entity, bool),
    /// Take back the last move of this turn.
    Undo(Entity),
    /// One of the actions without a target: Dash, Disengage, Dodge, Use an Object.
    Act(Entity, Action),
    /// The free object interaction (a second one takes the action).
    Interact(Entity),
    /// The Ready action: a trigger and what fires.
    Ready(Entity, Readied),
}

/// `N` gives the next creature its turn.
fn turn_keys(keys: MapKeys, mut turn: MessageWriter<TurnRequest>) {
    if keys.pressed(KeyCode::KeyN) {
        turn.write(TurnRequest::NextTurn);
    }
}

/// The creatures as turns see them.
type Turners<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut TurnMoves,
        &'static mut Position,
        &'static DisplayName,
        &'static RosterOrder,
        &'static TokenId,
    ),
>;

/// Takes `action` for `who` from its economy, in its turn; the reason in words if it can't.
pub(crate) fn take_action(
    turn: &Turn,
    who: Entity,
    name: &str,
    actions: &mut Actions,
    options: &TurnOptions,
    action: Action,
) -> Result<crate::rules::economy::Slot, String> {
    if let Some(why) = turn.not_yours(who, name) {
        return Err(why);
    }
    actions.0.take(action, options).map_err(|e| format!("{name}: {e}"))
}

#[allow(clippy::too_many_arguments)]
fn apply_turn_requests(
    mut commands: Commands,
    mut requests: MessageReader<TurnRequest>,
    mut turn: ResMut<Turn>,
    mut movers: Turners,
    mut fighters: Query<(&mut Actions, &mut Combatant, &AbilityModifiers)>,
    mut select: MessageWriter<SelectToken>,
    mut started: MessageWriter<TurnStarted>,
    mut notice: ResMut<Notice>,
    mut session: Option<ResMut<Session>>,
    pending: (Res<super::reactions::Reactions>, Query<(), With<Secret>>),
) {
    let (pending, secrets) = pending;
    let name_of = |movers: &Turners, e: Entity| movers.get(e).map_or_else(|_| "?".to_owned(), |m| m.3.0.clone());
    for request in requests.read() {
        let changes_turn = matches!(request, TurnRequest::NextTurn | TurnRequest::StartTurn(_) | TurnRequest::Delay);
        if changes_turn && pending.waiting() {
            notice.0 = Some(("Answer the reaction first: the turn can't change while it waits".into(), true));
            continue;
        }
        let result: Result<String, String> = match request {
            TurnRequest::NextTurn => {
                let Some(session) = session.as_deref_mut() else { continue };
                // The first turn rolls initiative for every creature, in the roster's order.
                if session.initiative.entries.is_empty()
                    && let Err(error) = roll_initiative(session, &movers, &fighters, &secrets)
                {
                    notice.0 = Some((error, true));
                    continue;
                }
                let Some(id) = session.initiative.pass_turn().map(|e| e.id.clone()) else { continue };
                turn.round = session.initiative.round;
                let Some(next) = movers.iter().find_map(|m| (m.5.0 == id).then_some(m.0)) else { continue };
                select.write(SelectToken(Some(id)));
                Ok(start_turn(&mut turn, next, &mut movers, &mut started))
            }
            TurnRequest::StartTurn(entity) => {
                turn.round = turn.round.max(1);
                Ok(start_turn(&mut turn, *entity, &mut movers, &mut started))
            }
            TurnRequest::Delay => delay(&mut turn, &mut movers, &fighters, session.as_deref_mut(), &mut started),
            TurnRequest::Join(entity) => {
                let Some(session) = session.as_deref_mut() else { continue };
                let (Ok(m), Ok((_, _, abilities))) = (movers.get(*entity), fighters.get(*entity)) else { continue };
                match session.initiative.join(&m.5.0, abilities.0.dex, &mut session.dice) {
                    Ok(roll) => {
                        let total = roll.total;
                        let secret = secrets.contains(*entity);
                        session.initiative.set_hidden(&m.5.0, secret);
                        session.log.entries.push(crate::rules::dice::LogEntry {
                            who: m.3.0.clone(),
                            reason: "initiative".into(),
                            roll,
                            hidden: secret,
                        });
                        Ok(format!("{} joins the fight with initiative {total}", m.3.0))
                    }
                    Err(error) => Err(error.to_string()),
                }
            }
            TurnRequest::Leave(entity) => {
                let Some(session) = session.as_deref_mut() else { continue };
                let Ok(m) = movers.get(*entity) else { continue };
                session.initiative.remove(&m.5.0);
                if turn.active == Some(*entity) {
                    turn.active = None;
                }
                Ok(format!("{} leaves the initiative order", m.3.0))
            }
            TurnRequest::Secret(entity, on) => {
                if *on {
                    commands.entity(*entity).insert(Secret);
                } else {
                    commands.entity(*entity).remove::<Secret>();
                }
                if let (Some(session), Ok(m)) = (session.as_deref_mut(), movers.get(*entity)) {
                    session.initiative.set_hidden(&m.5.0, *on);
                }
                let name = name_of(&movers, *entity);
                Ok(if *on {
                    format!("{name} is kept from the players")
                } else {
                    format!("{name} is shown to the players")
                })
            }
            TurnRequest::Undo(entity) => {
                let Ok((_, mut m, mut position, name, ..)) = movers.get_mut(*entity) else { continue };
                let Some(last) = m.turn.undo() else { continue };
                position.0 = last.from;
                if last.dashed
                    && let Ok((mut actions, ..)) = fighters.get_mut(*entity)
                {
                    actions.0.refund(Action::Dash);
                }
                Ok(format!("Took back {}'s move to {}: {} ft left", name.0, last.to, m.turn.left()))
            }
            TurnRequest::Act(entity, action) => {
                let name = name_of(&movers, *entity);
                let Ok((mut actions, mut combatant, _)) = fighters.get_mut(*entity) else { continue };
                let options = combatant.sheet.turn.clone();
                if !matches!(action, Action::Dash | Action::Disengage | Action::Dodge | Action::UseAnObject) {
                    notice.0 = Some((format!("{} has its own button on the card", action.name()), true));
                    continue;
                }
                take_action(&turn, *entity, &name, &mut actions, &options, *action).map(|slot| {
                    let by = if slot == crate::rules::economy::Slot::BonusAction { " as a bonus action" } else { "" };
                    match action {
                        Action::Dash => {
                            let left = movers.get_mut(*entity).map_or(0, |(_, mut m, ..)| {
                                m.turn.dash();
                                m.turn.left()
                            });
                            format!("{name} takes the Dash action{by}: {left} ft left")
                        }
                        Action::Dodge => {
                            combatant.dodging = true;
                            format!("{name} takes the Dodge action{by}: attacks against it have disadvantage")
                        }
                        Action::Disengage => {
                            format!("{name} takes the Disengage action{by}: its movement provokes no opportunity attacks this turn")
                        }
                        other => format!("{name} takes the {} action{by}", other.name()),
                    }
                })
            }
            TurnRequest::Interact(entity) => {
                let name = name_of(&movers, *entity);
                let Ok((mut actions, combatant, _)) = fighters.get_mut(*entity) else { continue };
                match turn.not_yours(*entity, &name) {
                    Some(why) => Err(why),
                    None => match actions.0.interact(&combatant.sheet.turn) {
                        Ok(None) => Ok(format!("{name} interacts with an object (its free interaction)")),
                        Ok(Some(_)) => Ok(format!("{name} uses an object with its action")),
                        Err(error) => Err(format!("{name}: {error}")),
                    },
                }
            }
            TurnRequest::Ready(entity, readied) => {
                let name = name_of(&movers, *entity);
                let Ok((mut actions, ..)) = fighters.get_mut(*entity) else { continue };
                match turn.not_yours(*entity, &name) {
                    Some(why) => Err(why),
                    None => {
                        let words = readied.describe(|id| {
                            movers.iter().find(|m| m.5.0 == id).map_or_else(|| id.to_owned(), |m| m.3.0.clone())
                        });
                        actions
                            .0
                            .ready(readied.clone())
                            .map(|()| format!("{name} readies: {words}"))
                            .map_err(|e| format!("{name}: {e}"))
                    }
                }
            }
        };
        notice.0 = Some(match result {
            Ok(text) => (text, false),
            Err(text) => (text, true),
        });
    }
}

/// Rolls initiative for every creature, in the roster's order, hiding the entries of those kept
/// from the players.
fn roll_initiative(
    session: &mut Session,
    movers: &Turners,
    fighters: &Query<(&mut Actions, &mut Combatant, &AbilityModifiers)>,
    secrets: &Query<(), With<Secret>>,
) -> Result<(), String> {
    let mut roster: Vec<(RosterOrder, Entity)> = movers.iter().map(|m| (*m.4, m.0)).collect();
    roster.sort();
    let participants: Vec<(String, i8)> = roster
        .iter()
        .filter_map(|(_, e)| Some((movers.get(*e).ok()?.5.0.clone(), fighters.get(*e).map_or(0, |f| f.2.0.dex))))
        .collect();
    session
        .roll_initiative(&participants, |id| movers.iter().find(|m| m.5.0 == id).map(|m| m.3.0.clone()))
        .map_err(|e| e.to_string())?;
    // The rolls of creatures kept from the players are the DM's, and so are their places.
    let first = session.log.entries.len() - participants.len();
    for ((_, entity), entry) in roster.iter().zip(&mut session.log.entries[first..]) {
        if secrets.contains(*entity)
            && let Ok(m) = movers.get(*entity)
        {
            entry.hidden = true;
            session.initiative.set_hidden(&m.5.0, true);
        }
    }
    Ok(())
}

/// The creature whose turn it is delays: only before it has moved or acted.
fn delay(
    turn: &mut Turn,
    movers: &mut Turners,
    fighters: &Query<(&mut Actions, &mut Combatant, &AbilityModifiers)>,
    session: Option<&mut Session>,
    started: &mut MessageWriter<TurnStarted>,
) -> Result<String, String> {
    let (Some(session), Some(active)) = (session, turn.active) else {
        return Err("no fight runs: Next turn rolls initiative".into());
    };
    let name = movers.get(active).map_or_else(|_| "?".to_owned(), |m| m.3.0.clone());
    let in_order = movers.get(active).is_ok_and(|m| session.initiative.current().is_some_and(|e| e.id == m.5.0));
    if !in_order {
        return Err(format!("{name}'s turn was started by hand, outside the initiative order: it can't delay"));
    }
    let moved = movers.get(active).is_ok_and(|m| !m.1.turn.moves.is_empty() || m.1.turn.spent > 0);
    let acted = fighters.get(active).is_ok_and(|f| !f.0.0.taken.is_empty());
    if moved || acted {
        return Err(format!("{name} has already moved or acted this turn: it can't delay now"));
    }
    let Some(next) = session.initiative.delay().map(|e| e.id.clone()) else {
        return Err(format!("{name} is last in the round: nobody to wait for"));
    };
    let Some(entity) = movers.iter().find_map(|m| (m.5.0 == next).then_some(m.0)) else {
        return Err("the next creature is gone".into());
    };
    let text = start_turn(turn, entity, movers, started);
    Ok(format!("{name} delays. {text}"))
}

/// Gives `entity` its turn: its movement resets (the rest, in [`begin_turns`]).
fn start_turn(
    turn: &mut Turn,
    entity: Entity,
    movers: &mut Turners,
    started: &mut MessageWriter<TurnStarted>,
) -> String {
    turn.active = Some(entity);
    turn.movers.clear();
    started.write(TurnStarted(entity));
    match movers.get_mut(entity) {
        Ok((_, mut m, _, name, ..)) => {
            m.turn = TurnMovement::new(m.turn.speed);
            format!("Round {}: {}'s turn, {} ft of movement", turn.round, name.0, m.turn.speed)
        }
        Err(_) => String::new(),
    }
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
