//! Reactions on the map: a paid-for move is walked and stops where it provokes an opportunity
//! attack, before the mover leaves the cell; the reactor answers (attack or let it go) and the
//! move goes on unless the mover dropped to 0 hit points or its speed became 0. When a move
//! ends, the readied actions it sets off are offered, one by one (they happen after their
//! trigger).
//!
//! PHB "Opportunity Attacks", "Ready" (004_ebe0798b5689cc3b.txt); DMG "Adjudicating Reaction
//! Timing" (002_ce573f1e51986339.txt). The rulings come from `rules::fight::opportunity` and
//! `rules::economy`; the attacks are made by the fight feature ([`AttackRequest`]).

use std::collections::VecDeque;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::app::core::components::{Actions, LastingEffects, Position, TurnMoves};
use crate::app::core::messages::{AttackHow, AttackRequest, ReactionAnswer, ScenarioChanged, Walk};
use crate::app::core::notice::{Notice, Said};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{Interrupted, Reactions, ReadiedOffer, RedrawFrames};
use crate::app::core::tokens::{Battlefield, Fighters, TokenIndex};
use crate::app::core::turns::Turns;
use crate::rules::economy::Response;
use crate::rules::fight::opportunity::{Moving, Provocation, provocations};
use crate::rules::health::Life;
use crate::rules::movement::{Fit, Path};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            forget_reactions.run_if(on_message::<ScenarioChanged>).in_set(AppSystems::Build),
            answer.in_set(AppSystems::Apply),
            walk.in_set(AppSystems::Resolve),
            go_on_after_attacks.in_set(AppSystems::Follow),
        ),
    );
}

/// A new scenario drops whatever reaction was waiting. (A snapshot put back, by undo or from the
/// autosave, puts back its own prompts: none for a step undone, those waiting in a game restored.)
fn forget_reactions(mut reactions: ResMut<Reactions>) {
    if reactions.waiting() {
        *reactions = Reactions::default();
    }
}

/// What walking changes.
#[derive(SystemParam)]
struct Walker<'w, 's> {
    tokens: ParamSet<'w, 's, (Battlefield<'w, 's>, Query<'w, 's, (&'static mut Position, &'static mut TurnMoves)>)>,
    /// Who holds whom in a grapple: a grappler drags what it holds along.
    holds: Query<'w, 's, (Entity, &'static LastingEffects)>,
    actions: Query<'w, 's, &'static Actions>,
    reactions: ResMut<'w, Reactions>,
    turns: ResMut<'w, Turns>,
    notice: ResMut<'w, Notice>,
    redraw: ResMut<'w, RedrawFrames>,
}

impl Walker<'_, '_> {
    /// The opportunity attacks `mover` provokes walking `path` as the board stands (while a fight
    /// runs): from reactors with their reaction, none already offered one at the first cell.
    fn provoked(
        &mut self,
        fighters: &Fighters,
        mover: Entity,
        path: &Path,
        moving: Moving,
        skip: &[String],
    ) -> Vec<Provocation> {
        let Some(me) = fighters.get(mover).filter(|_| self.turns.fight_runs()) else { return Vec::new() };
        // The creatures it drags along in a grapple stay beside it: they aren't left behind.
        let mut skip = skip.to_vec();
        skip.extend(self.held_by(fighters, mover).into_iter().filter_map(|e| Some(fighters.get(e)?.id.clone())));
        let battlefield = self.tokens.p0();
        let field = fighters.field(battlefield.scenario());
        let has_reaction = |id: &str| {
            fighters.entity_of(id).and_then(|e| self.actions.get(e).ok()).is_some_and(|a| !a.0.reaction_used)
        };
        provocations(&field, &me.id, &path.cells(), moving, has_reaction, &skip)
    }

    /// Walks `path` until the first opportunity attack it provokes (while a fight runs), or to
    /// its end; returns what to tell.
    fn go(&mut self, mover: Entity, path: Path, dashed: bool, moving: Moving, skip: &[String]) -> Said {
        self.redraw.at_least(3);
        if !self.turns.movers.contains(&mover) {
            self.turns.movers.push(mover);
        }
        let fighters = self.tokens.p0().fighters();
        let found = self.provoked(&fighters, mover, &path, moving, skip);
        let Some(first) = found.first() else {
            let said = self.step(mover, &path, dashed, moving);
            self.offer_readied(&fighters, mover);
            return if moving == Moving::Forced && self.turns.fight_runs() {
                Said::ByTheDm(Box::new(said))
            } else {
                said
            };
        };
        let (done, rest) = path.split_at(first.step, self.tokens.p0().scenario().rules.diagonals);
        if let Ok((_, mut moves)) = self.tokens.p1().get_mut(mover)
            && dashed
        {
            // The Dash paid for the whole move, wherever it stops.
            moves.turn.dash();
        }
        self.step(mover, &done, false, moving);
        if let Ok((_, mut moves)) = self.tokens.p1().get_mut(mover) {
            // A move an attack interrupted can't be taken back.
            moves.turn.moves.clear();
        }
        let offers: VecDeque<Provocation> = found.iter().filter(|p| p.step == first.step).cloned().collect();
        let said = Said::LeavingReach {
            mover: fighters.get(mover).map_or("?", |f| f.name()).to_owned(),
            reactors: offers.iter().map(|p| p.reactor_name.clone()).collect(),
            at: first.at,
        };
        let offered = offers.iter().map(|p| p.reactor.clone()).collect();
        self.reactions.interrupted =
            Some(Interrupted { mover, rest, moving, offers, offered, told: Vec::new(), striking: false });
        said
    }

    /// The creatures `mover` holds in a grapple.
    fn held_by(&self, fighters: &Fighters, mover: Entity) -> Vec<Entity> {
        let Some(grappler) = fighters.get(mover).map(|f| f.id.as_str()) else { return Vec::new() };
        self.holds
            .iter()
            .filter(|(_, effects)| effects.0.grapples().any(|(_, by, _)| by == grappler))
            .map(|(entity, _)| entity)
            .collect()
    }

    /// A grappler that walked `path` drags each creature it holds into the last cell it left, so
    /// they stay together (PHB "Moving a Grappled Creature"; the walk already cost it double).
    fn drag_along(&mut self, mover: Entity, path: &Path) {
        let cells = path.cells();
        let Some(&behind) = cells.len().checked_sub(2).and_then(|i| cells.get(i)) else { return };
        let fighters = self.tokens.p0().fighters();
        let held = self.held_by(&fighters, mover);
        let mut positions = self.tokens.p1();
        for entity in held {
            if let Ok((mut position, _)) = positions.get_mut(entity) {
                position.0 = behind;
            }
        }
    }

    /// Moves along `path`, paying for it with the creature's movement unless something else moves
    /// it (the DM); says how far it went.
    fn step(&mut self, mover: Entity, path: &Path, dashed: bool, moving: Moving) -> Said {
        let who = self.tokens.p0().name(mover);
        let mut movers = self.tokens.p1();
        let Ok((mut position, mut moves)) = movers.get_mut(mover) else { return Said::Gone { who } };
        if path.steps.is_empty() {
            return Said::Stays { who, at: position.0 };
        }
        let to = path.steps.last().map_or(position.0, |s| s.to);
        if moving == Moving::Forced {
            position.0 = to;
            return Said::MovedBy { who, feet: path.cost };
        }
        moves.turn.take_move(position.0, path, dashed);
        position.0 = to;
        let said = Said::Moved {
            who,
            feet: path.cost,
            dashed,
            squeezing: path.fit == Fit::Squeezing,
            left: moves.turn.left(),
        };
        self.drag_along(mover, path);
        said
    }

    /// After `mover`'s move: every readied action its move sets off, from creatures with their
    /// reaction (DMG "Adjudicating Reaction Timing": after the trigger finishes).
    fn offer_readied(&mut self, fighters: &Fighters, mover: Entity) {
        let Some(me) = fighters.get(mover) else { return };
        for (entity, fighter) in fighters.iter() {
            let Ok(actions) = self.actions.get(entity) else { continue };
            let set_off =
                actions.0.readied.as_ref().is_some_and(|r| {
                    entity != mover && r.triggered_by_move(&me.id, fighter.side.is_hostile_to(me.side))
                });
            if set_off && !actions.0.reaction_used && fighter.can_act() {
                self.reactions.readied.push_back(ReadiedOffer { reactor: entity, trigger: mover });
            }
        }
    }

    /// After the last opportunity attack at a cell: the move goes on along its path, unless the
    /// mover dropped to 0 hit points or its speed became 0.
    fn go_on(&mut self) {
        let Some(it) = self.reactions.interrupted.take() else { return };
        let fighters = self.tokens.p0().fighters();
        let stopped = fighters.get(it.mover).and_then(|f| {
            let who = f.name().to_owned();
            if f.health.hp == 0 || f.health.life != Life::Up {
                Some(Said::DropsAndStops { who })
            } else if f.speed_now() == 0 {
                Some(Said::SpeedZeroStops { who })
            } else {
                None
            }
        });
        let mut told = it.told;
        match stopped {
            Some(why) => {
                told.push(why);
                self.offer_readied(&fighters, it.mover);
            }
            None => {
                told.push(self.go(it.mover, it.rest, false, it.moving, &it.offered));
                if let Ok((_, mut moves)) = self.tokens.p1().get_mut(it.mover) {
                    // Nor can the rest of it, once the attack is known.
                    moves.turn.moves.clear();
                }
            }
        }
        self.notice.say(Said::Several(told));
    }
}

/// Walks the moves that the movement feature planned and paid for.
fn walk(mut walks: MessageReader<Walk>, mut walker: Walker) {
    for w in walks.read() {
        let said = walker.go(w.entity, w.path.clone(), w.dashed, w.moving, &[]);
        walker.notice.say(said);
    }
}

/// The prompts' answers: an opportunity attack made (by the fight feature) or let go, a readied
/// action fired or held, or fired by the DM's hand. Offers that went stale (the readied action
/// lost at its creature's turn, the reaction spent) are dropped first, so no prompt sticks.
fn answer(
    mut answers: MessageReader<ReactionAnswer>,
    mut reactions: ResMut<Reactions>,
    mut actions: Query<&mut Actions>,
    battlefield: Battlefield,
    index: Res<TokenIndex>,
    mut attacks: MessageWriter<AttackRequest>,
    mut notice: ResMut<Notice>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let live = |o: &ReadiedOffer| actions.get(o.reactor).is_ok_and(|a| a.0.readied.is_some() && !a.0.reaction_used);
    if !reactions.readied.iter().all(live) {
        reactions.readied.retain(live);
    }
    for answer in answers.read() {
        redraw.at_least(3);
        match *answer {
            ReactionAnswer::Opportunity { attack } => {
                let Some(interrupted) = reactions.interrupted.as_mut() else { continue };
                let Some(offer) = interrupted.offers.pop_front() else { continue };
                let reactor = index.entity(&offer.reactor);
                match reactor.filter(|_| attack) {
                    Some(reactor) => {
                        attacks.write(AttackRequest {
                            attacker: reactor,
                            target: interrupted.mover,
                            attack: offer.attack.clone(),
                            how: AttackHow::Opportunity,
                        });
                        interrupted.striking = true;
                    }
                    None => interrupted.told.push(Said::LetsGo {
                        reactor: offer.reactor_name.clone(),
                        mover: battlefield.name(interrupted.mover),
                    }),
                }
            }
            ReactionAnswer::Readied { fire } => {
                let Some(offer) = reactions.readied.pop_front() else { continue };
                if fire {
                    notice_fire(
                        &mut actions,
                        &battlefield,
                        offer.reactor,
                        Some(offer.trigger),
                        &mut attacks,
                        &mut notice,
                    );
                } else {
                    notice.say(Said::HoldsReadied { who: battlefield.name(offer.reactor) });
                }
            }
            ReactionAnswer::FireByHand(reactor) => {
                notice_fire(&mut actions, &battlefield, reactor, None, &mut attacks, &mut notice);
            }
        }
    }
}

/// Fires `reactor`'s readied action with its reaction: its attack at `trigger` (the creature
/// whose move set it off; the fight feature makes it), or its spell or words (which the DM may
/// also fire by hand).
fn notice_fire(
    actions: &mut Query<&mut Actions>,
    battlefield: &Battlefield,
    reactor: Entity,
    trigger: Option<Entity>,
    attacks: &mut MessageWriter<AttackRequest>,
    notice: &mut Notice,
) {
    let who = battlefield.name(reactor);
    let Some(readied) = actions.get(reactor).ok().and_then(|a| a.0.readied.clone()) else {
        notice.say(Said::NothingReadied { who });
        return;
    };
    match (&readied.response, trigger) {
        (Response::Attack(attack), Some(target)) => {
            attacks.write(AttackRequest { attacker: reactor, target, attack: attack.clone(), how: AttackHow::Readied });
        }
        (Response::Attack(_), None) => notice.say(Said::ReadiedAttackWaits { who }),
        (Response::Spell(what) | Response::Other(what), _) => {
            let conditions =
                battlefield.tokens.get(reactor).map(|t| t.combatant.conditions.clone()).unwrap_or_default();
            let said = match actions.get_mut(reactor).map(|mut a| a.0.fire_readied(&conditions)) {
                Ok(Ok(_)) if matches!(readied.response, Response::Spell(_)) => {
                    Said::ReleasesSpell { who, spell: what.clone() }
                }
                Ok(Ok(_)) => Said::ReadiedFires { who, what: what.clone() },
                Ok(Err(error)) => Said::NotNow(crate::app::core::notice::NotNow::Spent { who, error }),
                Err(_) => Said::Gone { who },
            };
            notice.say(said);
        }
    }
}

/// Once the answers at a cell are in (and the opportunity attacks made), the move goes on; what
/// the attacks said comes first.
fn go_on_after_attacks(mut walker: Walker) {
    let Some(interrupted) = walker.reactions.interrupted.as_mut() else { return };
    if interrupted.striking {
        interrupted.striking = false;
        if let Some(said) = walker.notice.0.take() {
            interrupted.told.push(said);
        }
    }
    let waiting = walker.reactions.interrupted.as_ref().is_some_and(|i| !i.offers.is_empty());
    let answered = walker.reactions.interrupted.as_ref().is_some_and(|i| !i.told.is_empty());
    if waiting {
        if let Some(last) = walker.reactions.interrupted.as_ref().and_then(|i| i.told.last().cloned()) {
            walker.notice.say(last);
        }
    } else if answered {
        walker.go_on();
    }
}
