//! One participant's turn in a chase: the complication waiting for it, Dash and movement, an
//! attack or a spell at someone in range, and the end of the turn (the Constitution check for a
//! Dash beyond the free ones, the complication roll for the next participant, the round's end).
//!
//! DMG "Running the Chase", "Dashing", "Spells and Attacks", "Chase Complications"
//! (000_8c43542ae10d17a7.txt); PHB "Dash" (004_ebe0798b5689cc3b.txt).

use serde::Serialize;

use super::complication::{Alternative, Effect};
use super::{Chase, ChaseError, Entrant, EventKind, Pending, Role, Status};
use crate::rules::attack::Outcome;
use crate::rules::conditions::attacked_sources;
use crate::rules::creature::{Ability, Attack, Side};
use crate::rules::dice::{RollMode, SeededDice};
use crate::rules::log::{AttackOccasion, ChaseTestFor, RollReason};
use crate::rules::modifiers::D20;
use crate::rules::sight::CoverDegree;

/// The turn in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Turn {
    pub id: String,
    /// The complication this participant must face before it acts.
    pub complication: Option<Pending>,
    pub action_used: bool,
    pub dashed: bool,
    /// This Dash was beyond the free ones: a DC 10 Constitution check at the end of the turn.
    pub extra_dash: bool,
    pub moved: u32,
    /// Movement spent on complications: difficult terrain, standing up, razorvine.
    pub lost: u32,
    pub blinded: bool,
    /// Attacks from outside the chase that wait for the end of the turn (the guard).
    pub deferred: Vec<Effect>,
}

/// How the affected participant meets its complication.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Resolution {
    /// The participant who rolled or the one affected spends inspiration: nothing happens.
    Negate { by: String },
    /// Makes the test, with the check of its choice (an index into the options).
    Attempt { option: usize },
    /// Takes the row's way round the test (a coin for the beggar, 10 feet for the razorvine).
    Alternative,
}

impl Chase {
    /// Whether the round is done: no turn in progress and the last in order has had its turn.
    pub fn round_done(&self) -> bool {
        self.turn.is_none() && self.order.current.is_none_or(|c| c + 1 >= self.order.entries.len())
    }

    /// Whether the turn in progress is the last of the round (the escape checks follow it).
    pub fn last_turn_of_round(&self) -> bool {
        self.turn.is_some() && self.order.current.is_some_and(|c| c + 1 >= self.order.entries.len())
    }

    /// Begins the next participant's turn; a complication waiting for it must be resolved first.
    pub fn begin_turn(&mut self, _dice: &mut SeededDice) -> Result<(), ChaseError> {
        if self.turn.is_some() {
            return Err(ChaseError::TurnInProgress);
        }
        if self.is_over() {
            return Err(ChaseError::Over);
        }
        let id = self.order.pass_turn().map(|e| e.id.clone()).ok_or(ChaseError::Over)?;
        let complication = self.pending.iter().position(|p| p.affected == id).map(|i| self.pending.remove(i));
        let p = self.participant(&id).ok_or_else(|| ChaseError::UnknownParticipant(id.clone()))?;
        let (position, restrained) = (p.position, p.restrained);
        self.note(EventKind::TurnBegins { id: id.clone(), position, restrained });
        if let Some(pending) = &complication {
            self.note(EventKind::ComplicationWaits {
                id: id.clone(),
                roller: pending.roller.clone(),
                d20: pending.d20,
                text: pending.complication.text.clone(),
            });
        }
        self.turn = Some(Turn {
            id,
            complication,
            action_used: false,
            dashed: false,
            extra_dash: false,
            moved: 0,
            lost: 0,
            blinded: false,
            deferred: Vec::new(),
        });
        Ok(())
    }

    fn turn_ref(&self) -> Result<&Turn, ChaseError> {
        self.turn.as_ref().ok_or(ChaseError::NoTurn)
    }

    fn turn_mut(&mut self) -> Result<&mut Turn, ChaseError> {
        self.turn.as_mut().ok_or(ChaseError::NoTurn)
    }

    /// The acting participant's id, once its complication is dealt with.
    fn ready_to_act(&self) -> Result<String, ChaseError> {
        let turn = self.turn_ref()?;
        if turn.complication.is_some() {
            return Err(ChaseError::ComplicationFirst);
        }
        Ok(turn.id.clone())
    }

    /// The speed of the acting participant this turn: its speed, halved while blinded.
    pub fn turn_speed(&self) -> u32 {
        let Some(turn) = &self.turn else { return 0 };
        let speed = self.participant(&turn.id).map_or(0, super::Participant::speed);
        if turn.blinded { speed / 2 } else { speed }
    }

    /// Feet the acting participant can still move: its speed, twice with Dash (PHB "Dash": the
    /// increase equals its speed after modifiers), less what it moved and what complications cost.
    pub fn movement_left(&self) -> u32 {
        let Some(turn) = &self.turn else { return 0 };
        let allowance = self.turn_speed() * if turn.dashed { 2 } else { 1 };
        allowance.saturating_sub(turn.moved.saturating_add(turn.lost))
    }

    /// Meets the complication waiting for the acting participant.
    pub fn resolve_complication(&mut self, resolution: Resolution, dice: &mut SeededDice) -> Result<(), ChaseError> {
        let turn = self.turn_ref()?;
        let pending =
            turn.complication.clone().ok_or_else(|| ChaseError::Refused("no complication waits".to_owned()))?;
        let id = turn.id.clone();
        let complication = &pending.complication;
        let failed = match resolution {
            Resolution::Negate { by } => {
                if by != pending.roller && by != pending.affected {
                    return Err(ChaseError::Refused(
                        "only the participant who rolled the complication or the one it affects can negate it"
                            .to_owned(),
                    ));
                }
                let p = self.participant_mut(&by)?;
                if !p.inspiration {
                    return Err(ChaseError::Refused(format!("{} has no inspiration to spend", p.name())));
                }
                p.inspiration = false;
                self.note(EventKind::Negated { by });
                self.turn_mut()?.complication = None;
                return Ok(());
            }
            Resolution::Alternative => match complication.alternative {
                Some(Alternative::TossCoin) => {
                    self.note(EventKind::CoinTossed { id: id.clone() });
                    false
                }
                Some(Alternative::SpendMovement { feet }) => {
                    let turn = self.turn_mut()?;
                    turn.lost = turn.lost.saturating_add(feet);
                    self.note(EventKind::WentRound { id: id.clone(), feet });
                    false
                }
                None => return Err(ChaseError::Refused("this complication offers no way round".to_owned())),
            },
            Resolution::Attempt { option } => match &complication.test {
                Some(test) => !self.test(&id, test, option, ChaseTestFor::Complication, dice)?,
                None => false,
            },
        };
        self.turn_mut()?.complication = None;
        let effects: Vec<Effect> = complication
            .always
            .iter()
            .chain(if failed { complication.on_fail.iter() } else { [].iter() })
            .cloned()
            .collect();
        if !failed && complication.test.is_some() && complication.always.is_empty() {
            self.note(EventKind::Unimpeded { id: id.clone() });
        }
        for effect in effects {
            self.apply(&id, &effect, dice)?;
        }
        self.update_sight();
        Ok(())
    }

    /// Does what one complication effect says to `id`, whose turn it is.
    fn apply(&mut self, id: &str, effect: &Effect, dice: &mut SeededDice) -> Result<(), ChaseError> {
        let name = self.name_of(id);
        match effect {
            Effect::DifficultTerrain { feet } => {
                let turn = self.turn_mut()?;
                turn.lost = turn.lost.saturating_add(*feet);
                self.note(EventKind::DifficultTerrain { id: id.to_owned(), feet: *feet });
            }
            Effect::Prone => self.fall_prone(id),
            Effect::Damage { dice: notation, kind } => {
                let roll = self.roll(notation, RollMode::Normal, dice)?;
                let amount = roll.total.max(0);
                let event = EventKind::Damage { id: id.to_owned(), amount, kind: kind.clone(), from_fall: false };
                let reason = RollReason::Damage { of: kind.clone(), to: None, critical: false, dealt: None };
                self.record(event, &name, reason, roll);
                self.hurt(id, amount);
            }
            Effect::Blinded => {
                self.turn_mut()?.blinded = true;
                self.note(EventKind::Blinded { id: id.to_owned() });
            }
            Effect::Restrained => {
                self.participant_mut(id)?.restrained = true;
                self.note(EventKind::Restrained { id: id.to_owned() });
            }
            Effect::Fall { distance } => {
                let roll = self.roll(distance, RollMode::Normal, dice)?;
                let feet = roll.total.max(0).saturating_mul(5);
                self.record(EventKind::Falls { id: id.to_owned(), feet }, &name, RollReason::FallDistance, roll);
                // PHB "Falling": 1d6 bludgeoning for every 10 feet, to a maximum of 20d6.
                let d6 = (feet / 10).min(20);
                if d6 > 0 {
                    let roll = self.roll(&format!("{d6}d6"), RollMode::Normal, dice)?;
                    let amount = roll.total.max(0);
                    let kind = "bludgeoning".to_owned();
                    let event = EventKind::Damage { id: id.to_owned(), amount, kind, from_fall: true };
                    self.record(event, &name, RollReason::FallingDamage, roll);
                    self.hurt(id, amount);
                }
                self.fall_prone(id);
            }
            Effect::OpportunityAttack { min_move: 0, .. } => self.outside_attack(id, effect, dice)?,
            Effect::OpportunityAttack { attacker, min_move, .. } => {
                self.note(EventKind::Watches { attacker: attacker.clone(), id: id.to_owned(), min_move: *min_move });
                self.turn_mut()?.deferred.push(effect.clone());
            }
            Effect::LocalCreature => match self.rules.local_creature.take() {
                Some((local, sheet)) => {
                    let position = self
                        .participant(id)
                        .map_or(0, |p| p.position)
                        .saturating_sub(super::LOCAL_CREATURE_BEHIND_FEET);
                    let entrant =
                        Entrant { id: local, sheet, role: Role::Pursuer, position, conditions: Default::default() };
                    self.join_pursuing(entrant, &[id.to_owned()], dice)?;
                }
                None => self.note(EventKind::NoLocalCreature { id: id.to_owned() }),
            },
        }
        Ok(())
    }

    fn fall_prone(&mut self, id: &str) {
        let stand = self.turn_speed() / 2;
        if let Some(turn) = &mut self.turn {
            turn.lost += stand;
        }
        self.note(EventKind::Prone { id: id.to_owned(), stand });
    }

    fn hurt(&mut self, id: &str, damage: i32) {
        let Ok(p) = self.participant_mut(id) else { return };
        p.hp = (p.hp - damage).max(0);
        if p.hp == 0 {
            self.leave(id, Status::Down);
            self.finish_idle();
        }
    }

    /// An attack from a creature outside the chase (allowed: DMG "Spells and Attacks").
    fn outside_attack(&mut self, id: &str, effect: &Effect, dice: &mut SeededDice) -> Result<(), ChaseError> {
        let Effect::OpportunityAttack { attacker, bonus, dice: damage, kind, .. } = effect else { return Ok(()) };
        if self.may_opportunity_attack(attacker, id).is_err() {
            self.note(EventKind::NoOpportunityAttack { attacker: attacker.clone(), target: id.to_owned() });
            return Ok(());
        }
        let (name, ac, conditions) =
            self.participant(id).map(|p| (p.name().to_owned(), p.sheet.ac, p.conditions_now())).unwrap_or_default();
        let sources = attacked_sources(&name, &conditions);
        let roll = self.roll(&format!("1d20{bonus:+}"), sources.mode(), dice)?;
        let outcome = Outcome::of(roll.total - bonus, roll.total, ac);
        let (target, total) = (id.to_owned(), roll.total);
        let reason = RollReason::Attack {
            attack: None,
            how: AttackOccasion::Opportunity,
            target: name,
            outcome,
            sources: sources.clone(),
        };
        let event = EventKind::OutsideAttack { attacker: attacker.clone(), target, sources, total, ac, outcome };
        self.record(event, attacker, reason, roll);
        self.damage(attacker, id, outcome, damage, kind, kind.to_owned(), dice)
    }

    /// Rolls the damage of an attack that hit (every die twice on a critical) and deals it.
    fn damage(
        &mut self,
        attacker: &str,
        target: &str,
        outcome: Outcome,
        notation: &str,
        kind: &str,
        of: String,
        dice: &mut SeededDice,
    ) -> Result<(), ChaseError> {
        if !outcome.hits() {
            return Ok(());
        }
        let roll = self.roll(&outcome.damage_dice(notation), RollMode::Normal, dice)?;
        let amount = roll.total.max(0);
        let event = EventKind::Damage { id: target.to_owned(), amount, kind: kind.to_owned(), from_fall: false };
        let to = Some(self.name_of(target));
        let reason = RollReason::Damage { of, to, critical: outcome == Outcome::Critical, dealt: None };
        self.record(event, attacker, reason, roll);
        self.hurt(target, amount);
        Ok(())
    }

    /// The Dash action: free while dashes remain, otherwise a DC 10 Constitution check at the end
    /// of the turn (DMG "Dashing").
    pub fn dash(&mut self) -> Result<(), ChaseError> {
        let id = self.ready_to_act()?;
        if self.turn_ref()?.action_used {
            return Err(ChaseError::ActionUsed);
        }
        let p = self.participant_mut(&id)?;
        if p.restrained {
            return Err(ChaseError::Refused(format!("{} is restrained: its speed is 0", p.name())));
        }
        p.dashes += 1;
        let (dash, free) = (p.dashes, p.free_dashes());
        let turn = self.turn_mut()?;
        turn.action_used = true;
        turn.dashed = true;
        turn.extra_dash = dash > free;
        self.note(EventKind::Dash { id, dash, free });
        Ok(())
    }

    /// Moves the acting participant up to `feet` forward along the route; a pursuer stops next to
    /// its quarry (a space is not shared). Returns the feet moved.
    pub fn move_by(&mut self, feet: u32) -> Result<u32, ChaseError> {
        let id = self.ready_to_act()?;
        let left = self.movement_left();
        let who = self.position_of(&id).ok_or_else(|| ChaseError::UnknownParticipant(id.clone()))?;
        let from = self.participants[who].position;
        let mut to = from.saturating_add(i32::try_from(feet.min(left)).unwrap_or(i32::MAX));
        // The nearest running quarry ahead in each pursuit it is a pursuer of.
        for m in self.roster.pursuits_as(who, Role::Pursuer) {
            if let Some(ahead) = self.roster.fields.get(m.pursuit).and_then(|f| f.quarry_ahead(from)) {
                to = to.min(ahead.saturating_sub(5));
            }
        }
        let to = to.max(from);
        let moved = to.abs_diff(from);
        self.place(who, to);
        let turn = self.turn_mut()?;
        turn.moved = turn.moved.saturating_add(moved);
        self.note(EventKind::Moves { id, feet: moved, to });
        self.check_catches();
        self.update_sight();
        Ok(moved)
    }

    /// The participants the acting one could attack with `attack`: running, within its long range.
    pub fn targets_in_range(&self, attack: &Attack) -> Vec<String> {
        let Some(turn) = &self.turn else { return Vec::new() };
        let reach = attack.long_range.unwrap_or(attack.range).max(attack.range);
        self.participants
            .iter()
            .filter(|p| p.is_running() && p.id != turn.id)
            .filter(|p| self.distance(&turn.id, &p.id).is_some_and(|d| d <= reach))
            .map(|p| p.id.clone())
            .collect()
    }

    /// Whether `a` and `b` are foes, to be offered as each other's targets: their sides (`side_of`) are
    /// hostile ([`Side::is_hostile_to`]), or one pursues the other (as a sideless local creature does).
    pub fn hostile(&self, a: &str, b: &str, side_of: impl Fn(&str) -> Side) -> bool {
        let pursues = |p: &str, q: &str| {
            self.pursuits.iter().any(|s| s.pursuers.iter().any(|x| x == p) && s.quarry.iter().any(|x| x == q))
        };
        side_of(a).is_hostile_to(side_of(b)) || pursues(a, b) || pursues(b, a)
    }

    /// An attack or attack-roll spell at another participant within range, with the normal rules:
    /// disadvantage at long range, the target's cover added to its AC, total cover refused (DMG
    /// "Spells and Attacks"; PHB "Ranged Attacks", "Cover"). Uses the action.
    pub fn attack(
        &mut self,
        target: &str,
        attack_index: usize,
        cover: CoverDegree,
        dice: &mut SeededDice,
    ) -> Result<bool, ChaseError> {
        let id = self.ready_to_act()?;
        if self.turn_ref()?.action_used {
            return Err(ChaseError::ActionUsed);
        }
        let attacker = self.participant(&id).ok_or_else(|| ChaseError::UnknownParticipant(id.clone()))?;
        let attack = attacker
            .sheet
            .attacks
            .get(attack_index)
            .cloned()
            .ok_or_else(|| ChaseError::Refused(format!("{} has no such attack", attacker.name())))?;
        // PHB appendix A: poisoned, frightened, prone, restrained (a net's hold), exhaustion 3
        // and the attacker's effects, as on the map (`conditions::Rolling::sources`).
        let mut sources = attacker.sources(D20::Attack { weapon: attack.kind().is_weapon() });
        let (target_name, ac, target_conditions) = self
            .participant(target)
            .filter(|p| p.is_running())
            .map(|p| (p.name().to_owned(), p.sheet.ac, p.conditions_now()))
            .ok_or_else(|| ChaseError::UnknownParticipant(target.to_owned()))?;
        let Some(cover_bonus) = cover.bonus() else {
            return Err(ChaseError::Refused(format!("{target_name} has total cover: it can't be targeted")));
        };
        let distance = self.distance(&id, target).unwrap_or(u32::MAX);
        let long = attack.long_range.unwrap_or(attack.range).max(attack.range);
        if distance > long {
            return Err(ChaseError::Refused(format!(
                "{target_name} is {distance} ft away, beyond {}'s range of {long} ft",
                attack.name
            )));
        }
        if distance > attack.range {
            sources.disadvantage("long range");
        }
        if self.turn_ref()?.blinded {
            sources.disadvantage("blinded");
        }
        // The target's state (PHB appendix A): restrained by a net, and the rest as on the map.
        sources.merge(attacked_sources(&target_name, &target_conditions));
        let name = self.name_of(&id);
        let roll = self.roll(&format!("1d20{:+}", attack.bonus), sources.mode(), dice)?;
        let target_ac = ac + cover_bonus;
        let outcome = Outcome::of(roll.total - attack.bonus, roll.total, target_ac);
        let reason = RollReason::Attack {
            attack: Some(attack.name.clone()),
            how: AttackOccasion::Attack,
            target: target_name.clone(),
            outcome,
            sources: sources.clone(),
        };
        let event = EventKind::Attack {
            attacker: id.clone(),
            target: target.to_owned(),
            attack: attack.name.clone(),
            distance,
            sources,
            total: roll.total,
            ac: target_ac,
            cover_bonus,
            outcome,
        };
        self.record(event, &name, reason, roll);
        self.turn_mut()?.action_used = true;
        self.damage(&name, target, outcome, &attack.damage, &attack.damage_type, attack.name.clone(), dice)?;
        Ok(outcome.hits())
    }

    /// Uses the action to break out of a net: a DC 10 Strength check (PHB "Net").
    pub fn break_free(&mut self, dice: &mut SeededDice) -> Result<bool, ChaseError> {
        let id = self.ready_to_act()?;
        if self.turn_ref()?.action_used {
            return Err(ChaseError::ActionUsed);
        }
        if !self.participant(&id).is_some_and(|p| p.restrained) {
            return Err(ChaseError::Refused(format!("{} is not restrained", self.name_of(&id))));
        }
        let test = super::Test::Check { dc: 10, options: vec![super::CheckKind::Ability(Ability::Str)] };
        let free = self.test(&id, &test, 0, ChaseTestFor::BreakingFree, dice)?;
        self.turn_mut()?.action_used = true;
        if free {
            self.participant_mut(&id)?.restrained = false;
            self.note(EventKind::BreaksFree { id });
        }
        Ok(free)
    }

    /// Ends the acting participant's turn: the guard's attack if it moved far enough, the
    /// Constitution check for a Dash beyond the free ones, catches, the complication d20 for the
    /// next in initiative order, and at the end of the round the escape checks.
    pub fn end_turn(&mut self, dice: &mut SeededDice) -> Result<(), ChaseError> {
        let turn = self.turn_ref()?.clone();
        if turn.complication.is_some() {
            return Err(ChaseError::ComplicationFirst);
        }
        let id = turn.id.clone();
        let last_in_round = self.last_turn_of_round();
        for effect in &turn.deferred {
            if let Effect::OpportunityAttack { attacker, min_move, .. } = effect {
                if self.running(&id) && turn.moved >= *min_move {
                    self.outside_attack(&id, effect, dice)?;
                } else if self.running(&id) {
                    self.note(EventKind::LetsGo { attacker: attacker.clone(), id: id.clone(), moved: turn.moved });
                }
            }
        }
        if turn.extra_dash && self.running(&id) {
            let test = super::Test::Check { dc: 10, options: vec![super::CheckKind::Ability(Ability::Con)] };
            if !self.test(&id, &test, 0, ChaseTestFor::ExtraDash, dice)? {
                let p = self.participant_mut(&id)?;
                p.exhaustion += 1;
                let level = p.exhaustion;
                self.note(EventKind::Exhaustion { id: id.clone(), level });
                if level >= 5 {
                    self.leave(&id, Status::DroppedOut);
                }
            }
        }
        self.check_catches();
        self.update_sight();
        if self.running(&id) && !self.is_over() {
            self.roll_complication(&id, dice)?;
        }
        self.turn = None;
        if !self.running(&id) {
            self.order.remove(&id);
        }
        self.finish_idle();
        if last_in_round && !self.is_over() {
            self.end_round(dice)?;
        }
        if self.is_over() {
            self.note(EventKind::Over);
        }
        Ok(())
    }

    /// The d20 at the end of `id`'s turn; a complication falls on the next participant in
    /// initiative order (DMG "Chase Complications").
    fn roll_complication(&mut self, id: &str, dice: &mut SeededDice) -> Result<(), ChaseError> {
        let name = self.name_of(id);
        let roll = self.roll("1d20", RollMode::Normal, dice)?;
        let d20 = roll.total.clamp(1, 20) as u32;
        let row = self.rules.table.row(d20).cloned();
        let next = self.order.after(id).map(|e| e.id.clone()).filter(|next| next != id);
        match (row, next) {
            (Some(row), Some(next)) if !row.is_none() => {
                let event = EventKind::ComplicationRoll { roller: id.to_owned(), d20, affected: Some(next.clone()) };
                self.record(event, &name, RollReason::Table { name: self.rules.table.name.clone() }, roll);
                self.pending.retain(|p| p.affected != next);
                self.pending.push(Pending { roller: id.to_owned(), affected: next, d20, complication: row });
            }
            _ => {
                let event = EventKind::ComplicationRoll { roller: id.to_owned(), d20, affected: None };
                self.record(event, &name, RollReason::Table { name: self.rules.table.name.clone() }, roll);
            }
        }
        Ok(())
    }
}
