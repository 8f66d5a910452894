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
use crate::rules::economy::{Economy, Response};
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
            let mut text = self.step(mover, &path, dashed);
            if moving == Moving::Forced && self.turn.fight_runs() {
                text = format!("The DM moves a creature out of its turn: {text}");
            }
            self.notice.0 = Some((text, false));
            self.offer_readied(&all, mover);
            return;
        };
        let (done, rest) = path.split_at(first.step, self.loaded.scenario.rules.diagonals);
        self.step(mover, &done, dashed);
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

    /// Moves along `path`, paying for it; returns the notice.
    fn step(&mut self, mover: Entity, path: &Path, dashed: bool) -> String {
        let mut movers = self.tokens.p1();
        let Ok((mut position, mut moves, name)) = movers.get_mut(mover) else { return String::new() };
        if path.steps.is_empty() {
            return format!("{} stays at {}", name.0, position.0);
        }
        moves.turn.take_move(position.0, path, dashed);
        position.0 = path.steps.last().map_or(position.0, |s| s.to);
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
/// action fired or held.
fn answer(
    mut answers: MessageReader<ReactionAnswer>,
    mut walker: Walker,
    mut session: Option<ResMut<Session>>,
    names: Query<&DisplayName>,
    mut inspiration: Query<&mut Inspiration>,
) {
    let name = |e: Entity| names.get(e).map_or_else(|_| "?".to_owned(), |n| n.0.clone());
    for answer in answers.read() {
        let Some(session) = session.as_deref_mut() else { return };
        match *answer {
            ReactionAnswer::Opportunity { attack } => {
                let Some(interrupted) = walker.reactions.interrupted.as_mut() else { continue };
                let Some(offer) = interrupted.offers.pop_front() else { continue };
                let mover = interrupted.mover;
                let all = fighters(&walker.loaded, &walker.tokens.p0());
                let Some(reactor) = all.entity_of(&offer.reactor) else { continue };
                let text = if attack {
                    let actions = &mut walker.actions;
                    let pay = || match actions.get_mut(reactor) {
                        Ok(mut a) => a.0.react().map_err(|e| format!("{}: {e}", offer.reactor_name)),
                        Err(_) => Err("no such creature".into()),
                    };
                    let loaded = &*walker.loaded;
                    let mut tokens = walker.tokens.p0();
                    let how = "opportunity attack";
                    match make_attack(
                        loaded,
                        &mut tokens,
                        session,
                        &mut inspiration,
                        &name,
                        reactor,
                        mover,
                        &offer.attack,
                        how,
                        pay,
                    ) {
                        Ok(text) | Err(text) => text,
                    }
                } else {
                    format!("{} lets {} go", offer.reactor_name, name(mover))
                };
                let Some(interrupted) = walker.reactions.interrupted.as_ref() else { continue };
                if !interrupted.offers.is_empty() {
                    walker.notice.0 = Some((text, false));
                    continue;
                }
                let Some(it) = walker.reactions.interrupted.take() else { continue };
                let all = fighters(&walker.loaded, &walker.tokens.p0());
                let stopped = all.of(mover).and_then(|f| {
                    if f.health.hp == 0 || f.health.life != Life::Up {
                        Some(format!("{} drops and stops", f.name()))
                    } else if speed(f.sheet.speed, &f.conditions, f.sheet.exhaustion).feet == 0 {
                        Some(format!("{}'s speed is 0: it stops", f.name()))
                    } else {
                        None
                    }
                });
                match stopped {
                    Some(why) => {
                        walker.notice.0 = Some((format!("{text}. {why}"), false));
                        walker.offer_readied(&all, mover);
                    }
                    None => {
                        walker.go(it.mover, it.rest, false, it.moving, &it.offered);
                        let went = walker.notice.0.take().map_or_else(String::new, |n| n.0);
                        walker.notice.0 = Some((format!("{text}. {went}"), false));
                    }
                }
            }
            ReactionAnswer::Readied { fire } => {
                let Some(offer) = walker.reactions.readied.pop_front() else { continue };
                let who = name(offer.reactor);
                if !fire {
                    walker.notice.0 = Some((format!("{who} holds the readied action"), false));
                    continue;
                }
                let Some(readied) = walker.actions.get(offer.reactor).ok().and_then(|a| a.0.readied.clone()) else {
                    continue;
                };
                let text = match &readied.response {
                    Response::Attack(attack) => {
                        let actions = &mut walker.actions;
                        let pay = || match actions.get_mut(offer.reactor) {
                            Ok(mut a) => a.0.fire_readied().map(drop).map_err(|e| format!("{who}: {e}")),
                            Err(_) => Err("no such creature".into()),
                        };
                        let loaded = &*walker.loaded;
                        let mut tokens = walker.tokens.p0();
                        let how = "readied attack";
                        let target = offer.trigger;
                        match make_attack(
                            loaded,
                            &mut tokens,
                            session,
                            &mut inspiration,
                            &name,
                            offer.reactor,
                            target,
                            attack,
                            how,
                            pay,
                        ) {
                            Ok(text) | Err(text) => text,
                        }
                    }
                    Response::Spell(spell) => {
                        match walker.actions.get_mut(offer.reactor).map(|mut a| a.0.fire_readied()) {
                            Ok(Ok(_)) => format!("{who} releases {spell} (its readied spell)"),
                            Ok(Err(e)) => format!("{who}: {e}"),
                            Err(_) => continue,
                        }
                    }
                    Response::Other(what) => {
                        match walker.actions.get_mut(offer.reactor).map(|mut a| a.0.fire_readied()) {
                            Ok(Ok(_)) => format!("{who}'s readied action fires: {what}"),
                            Ok(Err(e)) => format!("{who}: {e}"),
                            Err(_) => continue,
                        }
                    }
                };
                walker.notice.0 = Some((text, false));
            }
        }
        walker.redraw.0 = walker.redraw.0.max(3);
    }
}
