//! Reactions on the map: a paid-for move is walked and stops where it provokes an opportunity
//! attack, before the mover leaves the cell; the reactor answers (attack or let it go) and the
//! move goes on unless the mover dropped to 0 hit points or its speed became 0. When a move
//! ends, the readied actions it sets off are offered, one by one (they happen after their
//! trigger).
//!
//! PHB "Opportunity Attacks", "Ready" (004_ebe0798b5689cc3b.txt); DMG "Adjudicating Reaction
//! Timing" (002_ce573f1e51986339.txt). The rulings come from `rules::fight::opportunity` and
//! `rules::economy`.

use std::collections::VecDeque;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::AppSystems;
use super::components::*;
use super::dice::{Inspiration, Session};
use super::fight::{FightTokens, Fighters, fighters, make_attack};
use super::movement::{TurnMoves, Walk};
use super::state::{LoadedScenario, Notice, RedrawFrames};
use super::turns::Turn;
use crate::rules::conditions::speed;
use crate::rules::economy::{Economy, Reaction, Response};
use crate::rules::fight::opportunity::{Moving, Provocation, provocations};
use crate::rules::health::Life;
use crate::rules::movement::{Fit, Path};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Reactions>().add_message::<ReactionAnswer>().add_systems(
        Update,
        (
            forget_reactions.run_if(on_message::<super::state::ScenarioChanged>).in_set(AppSystems::Build),
            (walk, answer).chain().in_set(AppSystems::Apply),
        ),
    );
}

/// A new scenario drops whatever reaction was waiting.
fn forget_reactions(mut reactions: ResMut<Reactions>) {
    *reactions = Reactions::default();
}

/// The reactions waiting for an answer.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Reactions {
    /// A move stopped where it provokes opportunity attacks.
    pub interrupted: Option<Interrupted>,
    /// Readied actions a finished move set off, to offer in turn.
    pub readied: VecDeque<ReadiedOffer>,
}

impl Reactions {
    /// Whether a prompt is up: moves wait for it.
    pub fn waiting(&self) -> bool {
        self.interrupted.is_some() || !self.readied.is_empty()
    }
}

/// A move stopped for opportunity attacks.
#[derive(Clone, Debug, PartialEq)]
pub struct Interrupted {
    pub mover: Entity,
    /// The rest of the path, from the cell where it stopped.
    pub rest: Path,
    pub moving: Moving,
    /// The opportunity attacks to offer here, first first.
    pub offers: VecDeque<Provocation>,
    /// The reactors offered one here (they don't get a second offer for leaving this cell).
    pub offered: Vec<String>,
}

/// A readied action set off by `trigger`'s move.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadiedOffer {
    pub reactor: Entity,
    pub trigger: Entity,
}

/// The answer to the prompt on top.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReactionAnswer {
    /// The reactor makes the opportunity attack, or lets the mover go.
    Opportunity { attack: bool },
    /// The readied action fires, or is held (it stays readied).
    Readied { fire: bool },
    /// The DM fires this creature's readied spell or words by hand (a trigger in the player's
    /// words, which the app can't see).
    FireByHand(Entity),
}

/// How a creature is moving: the DM's moves are not its own movement; Disengage stops
/// opportunity attacks.
pub(crate) fn moving(by_dm: bool, economy: &Economy) -> Moving {
    match (by_dm, economy.disengaged) {
        (true, _) => Moving::Forced,
        (false, true) => Moving::Disengaged,
        (false, false) => Moving::Walking,
    }
}

/// The opportunity attacks `mover` would provoke along `path`, as the board stands.
pub(crate) fn provocations_on(
    loaded: &LoadedScenario,
    all: &Fighters,
    mover: Entity,
    path: &Path,
    moving: Moving,
    has_reaction: impl Fn(Entity) -> bool,
    skip: &[String],
) -> Vec<Provocation> {
    let Some(me) = all.of(mover) else { return Vec::new() };
    let field = all.field(loaded);
    let ready = |id: &str| all.entity_of(id).is_some_and(&has_reaction);
    provocations(&field, &me.id, &path.cells(), moving, ready, skip)
}

/// What walking and answering change.
#[derive(SystemParam)]
pub(crate) struct Walker<'w, 's> {
    loaded: Res<'w, LoadedScenario>,
    tokens: ParamSet<
        'w,
        's,
        (FightTokens<'w, 's>, Query<'w, 's, (&'static mut Position, &'static mut TurnMoves, &'static DisplayName)>),
    >,
    actions: Query<'w, 's, &'static mut Actions>,
    reactions: ResMut<'w, Reactions>,
    turn: ResMut<'w, Turn>,
    notice: ResMut<'w, Notice>,
    redraw: ResMut<'w, RedrawFrames>,
}

impl Walker<'_, '_> {
    /// Walks `path` until the first opportunity attack it provokes (while a fight runs), or to
    /// its end.
    fn go(&mut self, mover: Entity, path: Path, dashed: bool, moving: Moving, skip: &[String]) {
        self.redraw.0 = self.redraw.0.max(3);
        if !self.turn.movers.contains(&mover) {
            self.turn.movers.push(mover);
        }
        let all = fighters(&self.loaded, &self.tokens.p0());
        let found = if self.turn.fight_runs() {
            let actions = &self.actions;
            let has_reaction = |e: Entity| actions.get(e).is_ok_and(|a| !a.0.reaction_used);
            provocations_on(&self.loaded, &all, mover, &path, moving, has_reaction, skip)
        } else {
            Vec::new()
        };
        let Some(first) = found.first() else {
            let mut text = self.step(mover, &path, dashed, moving);
            if moving == Moving::Forced && self.turn.fight_runs() {
                text = format!("The DM moves a creature out of its turn: {text}");
            }
            self.notice.0 = Some((text, false));
            self.offer_readied(&all, mover);
            return;
        };
        let (done, rest) = path.split_at(first.step, self.loaded.scenario.rules.diagonals);
        if let Ok((_, mut moves, _)) = self.tokens.p1().get_mut(mover)
            && dashed
        {
            // The Dash paid for the whole move, wherever it stops.
            moves.turn.dash();
        }
        self.step(mover, &done, false, moving);
        if let Ok((_, mut moves, _)) = self.tokens.p1().get_mut(mover) {
            // A move an attack interrupted can't be taken back.
            moves.turn.moves.clear();
        }
        let offers: VecDeque<Provocation> = found.iter().filter(|p| p.step == first.step).cloned().collect();
        let name = all.of(mover).map_or("?", |f| f.name()).to_owned();
        let who: Vec<&str> = offers.iter().map(|p| p.reactor_name.as_str()).collect();
        self.notice.0 = Some((
            format!(
                "{name} is leaving the reach of {} at {}: an opportunity attack may interrupt",
                who.join(" and "),
                first.at
            ),
            false,
        ));
        let offered = offers.iter().map(|p| p.reactor.clone()).collect();
        self.reactions.interrupted = Some(Interrupted { mover, rest, moving, offers, offered });
    }

    /// Moves along `path`, paying for it with the creature's movement unless something else moves
    /// it (the DM); returns the notice.
    fn step(&mut self, mover: Entity, path: &Path, dashed: bool, moving: Moving) -> String {
        let mut movers = self.tokens.p1();
        let Ok((mut position, mut moves, name)) = movers.get_mut(mover) else { return String::new() };
        if path.steps.is_empty() {
            return format!("{} stays at {}", name.0, position.0);
        }
        let to = path.steps.last().map_or(position.0, |s| s.to);
        if moving == Moving::Forced {
            position.0 = to;
            return format!("{} moved {} ft, not with its own movement", name.0, path.cost);
        }
        moves.turn.take_move(position.0, path, dashed);
        position.0 = to;
        let squeezing = if path.fit == Fit::Squeezing { ", squeezing" } else { "" };
        let dash = if dashed { " with a Dash" } else { "" };
        format!("{} moved {} ft{dash}{squeezing}; {} ft left", name.0, path.cost, moves.turn.left())
    }

    /// After `mover`'s move: every readied action its move sets off, from creatures with their
    /// reaction (DMG "Adjudicating Reaction Timing": after the trigger finishes).
    fn offer_readied(&mut self, all: &Fighters, mover: Entity) {
        let Some(me) = all.of(mover) else { return };
        for (entity, fighter) in all.entities.iter().zip(&all.list) {
            let Ok(actions) = self.actions.get(*entity) else { continue };
            let set_off =
                actions.0.readied.as_ref().is_some_and(|r| {
                    *entity != mover && r.triggered_by_move(&me.id, fighter.side.is_hostile_to(me.side))
                });
            if set_off && !actions.0.reaction_used && fighter.can_act() {
                self.reactions.readied.push_back(ReadiedOffer { reactor: *entity, trigger: mover });
            }
        }
    }
}

/// Walks the moves that [`super::movement`] planned and paid for.
pub(crate) fn walk(mut walks: MessageReader<Walk>, mut walker: Walker) {
    for w in walks.read() {
        walker.go(w.entity, w.path.clone(), w.dashed, w.moving, &[]);
    }
}

/// The prompts' answers: an opportunity attack made or let go (then the move goes on), a readied
/// action fired or held, or fired by the DM's hand. Offers that went stale (the readied action
/// lost at its creature's turn, the reaction spent) are dropped first, so no prompt sticks.
fn answer(
    mut answers: MessageReader<ReactionAnswer>,
    mut walker: Walker,
    mut session: Option<ResMut<Session>>,
    names: Query<&DisplayName>,
    mut inspiration: Query<&'static mut Inspiration>,
) {
    let actions = &walker.actions;
    let live = |o: &ReadiedOffer| actions.get(o.reactor).is_ok_and(|a| a.0.readied.is_some() && !a.0.reaction_used);
    if !walker.reactions.readied.iter().all(live) {
        walker.reactions.readied.retain(live);
    }
    let name = |e: Entity| names.get(e).map_or_else(|_| "?".to_owned(), |n| n.0.clone());
    for answer in answers.read() {
        let Some(session) = session.as_deref_mut() else { return };
        let mut reacting = Reacting { session, inspiration: &mut inspiration, name: &name };
        match *answer {
            ReactionAnswer::Opportunity { attack } => {
                let Some(interrupted) = walker.reactions.interrupted.as_mut() else { continue };
                let mover = interrupted.mover;
                let text = match interrupted.offers.pop_front() {
                    Some(offer) if attack => {
                        walker.strike(&mut reacting, &offer.reactor, mover, &offer.attack, Reaction::OpportunityAttack)
                    }
                    Some(offer) => format!("{} lets {} go", offer.reactor_name, name(mover)),
                    None => String::new(),
                };
                if walker.reactions.interrupted.as_ref().is_some_and(|i| !i.offers.is_empty()) {
                    walker.notice.0 = Some((text, false));
                } else {
                    walker.go_on(text);
                }
            }
            ReactionAnswer::Readied { fire } => {
                let Some(offer) = walker.reactions.readied.pop_front() else { continue };
                let text = if fire {
                    walker.fire(&mut reacting, offer.reactor, Some(offer.trigger))
                } else {
                    format!("{} holds the readied action", name(offer.reactor))
                };
                walker.notice.0 = Some((text, false));
            }
            ReactionAnswer::FireByHand(reactor) => {
                let text = walker.fire(&mut reacting, reactor, None);
                walker.notice.0 = Some((text, false));
            }
        }
        walker.redraw.0 = walker.redraw.0.max(3);
    }
}

/// What a reaction's attack rolls and logs with.
struct Reacting<'a, 'w, 's, F: Fn(Entity) -> String> {
    session: &'a mut Session,
    inspiration: &'a mut Query<'w, 's, &'static mut Inspiration>,
    name: &'a F,
}

impl Walker<'_, '_> {
    /// `reactor` (by id) attacks `target` with `attack` as its reaction: an opportunity attack, or
    /// its readied attack (which spends the readied action). Returns the notice.
    fn strike<F: Fn(Entity) -> String>(
        &mut self,
        with: &mut Reacting<'_, '_, '_, F>,
        reactor: &str,
        target: Entity,
        attack: &str,
        reaction: Reaction,
    ) -> String {
        let all = fighters(&self.loaded, &self.tokens.p0());
        let Some(reactor) = all.entity_of(reactor) else { return format!("{reactor} is gone") };
        let who = (with.name)(reactor);
        let actions = &mut self.actions;
        let pay = || {
            let mut a = actions.get_mut(reactor).map_err(|_| "no such creature".to_owned())?;
            let paid = match reaction {
                Reaction::ReadiedAction => a.0.fire_readied().map(drop),
                Reaction::OpportunityAttack | Reaction::Turn => a.0.react(),
            };
            paid.map_err(|e| format!("{who}: {e}"))
        };
        let how = if reaction == Reaction::ReadiedAction { "readied attack" } else { "opportunity attack" };
        let mut tokens = self.tokens.p0();
        let made = make_attack(
            &self.loaded,
            &mut tokens,
            with.session,
            with.inspiration,
            with.name,
            reactor,
            target,
            attack,
            how,
            pay,
        );
        match made {
            Ok(text) | Err(text) => text,
        }
    }

    /// Fires `reactor`'s readied action with its reaction: its attack at `trigger` (the creature
    /// whose move set it off), or its spell or words (which the DM may also fire by hand).
    fn fire<F: Fn(Entity) -> String>(
        &mut self,
        with: &mut Reacting<'_, '_, '_, F>,
        reactor: Entity,
        trigger: Option<Entity>,
    ) -> String {
        let who = (with.name)(reactor);
        let Some(readied) = self.actions.get(reactor).ok().and_then(|a| a.0.readied.clone()) else {
            return format!("{who} has nothing readied");
        };
        match (&readied.response, trigger) {
            (Response::Attack(attack), Some(target)) => {
                let id =
                    fighters(&self.loaded, &self.tokens.p0()).of(reactor).map(|f| f.id.clone()).unwrap_or_default();
                self.strike(with, &id, target, attack, Reaction::ReadiedAction)
            }
            (Response::Attack(_), None) => format!("{who}'s readied attack fires when its trigger moves"),
            (Response::Spell(what) | Response::Other(what), _) => {
                match self.actions.get_mut(reactor).map(|mut a| a.0.fire_readied()) {
                    Ok(Ok(_)) if matches!(readied.response, Response::Spell(_)) => {
                        format!("{who} releases {what}, its readied spell")
                    }
                    Ok(Ok(_)) => format!("{who}'s readied action fires: {what}"),
                    Ok(Err(e)) => format!("{who}: {e}"),
                    Err(_) => format!("{who} is gone"),
                }
            }
        }
    }

    /// After the last opportunity attack at a cell: the move goes on along its path, unless the
    /// mover dropped to 0 hit points or its speed became 0.
    fn go_on(&mut self, text: String) {
        let Some(it) = self.reactions.interrupted.take() else { return };
        let all = fighters(&self.loaded, &self.tokens.p0());
        let stopped = all.of(it.mover).and_then(|f| {
            if f.health.hp == 0 || f.health.life != Life::Up {
                Some(format!("{} drops and stops", f.name()))
            } else if speed(f.sheet.speed, &f.conditions, f.sheet.exhaustion).feet == 0 {
                Some(format!("{}'s speed is 0: it stops", f.name()))
            } else {
                None
            }
        });
        let joined = |a: String, b: String| if a.is_empty() { b } else { format!("{a}. {b}") };
        match stopped {
            Some(why) => {
                self.notice.0 = Some((joined(text, why), false));
                self.offer_readied(&all, it.mover);
            }
            None => {
                self.go(it.mover, it.rest, false, it.moving, &it.offered);
                if let Ok((_, mut moves, _)) = self.tokens.p1().get_mut(it.mover) {
                    // Nor can the rest of it, once the attack is known.
                    moves.turn.moves.clear();
                }
                let went = self.notice.0.take().map_or_else(String::new, |n| n.0);
                self.notice.0 = Some((joined(text, went), false));
            }
        }
    }
}
