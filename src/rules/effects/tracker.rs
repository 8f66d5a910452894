//! The tracker's side of effects: at a point of a creature's turn, it rolls what comes due
//! (repeated saves, damage each turn) through the session's dice, deals damage through the one
//! damage rule (`fight::take_damage`, after the creature's defenses), asks for concentration saves
//! after damage, and ends what concentration, incapacitation and grapples end; at dawn (a long
//! rest) it advances diseases. The map's initiative tracker and `battlemap query … advance` both
//! run it.
//!
//! A [`Tracker`] keeps an index of which creatures each creature's turns concern (its own
//! effects, and those it is the source of), so a turn costs what the effects in force ask, not
//! creatures × effects.

use std::collections::HashMap;

use serde::Serialize;

use super::diseases::Disease;
use super::madness::{self, MadnessKind};
use super::poisons::Poison;
use super::{
    Cure, Due, Duration, Effect, EffectError, EffectEvent, Effects, EndReason, Source, TurnPoint, concentration_broken,
    concentration_dc,
};
use crate::rules::conditions::{Condition, Conditions, Rolling};
use crate::rules::creature::{Ability, Sheet};
use crate::rules::dice::{DiceError, DiceRoll, Evaluation, RollMode, SeededDice};
use crate::rules::fight::{defenses_now, set_exhaustion, take_damage};
use crate::rules::health::{DamageTaken, DamageType, Defenses, Health, Life};
use crate::rules::log::{LogEntry, RollReason};
use crate::rules::modifiers::{D20, RollModifiers};

/// A creature as the tracker sees it: what it reads and what it changes.
#[derive(Clone, Debug, PartialEq)]
pub struct Subject {
    pub id: String,
    pub name: String,
    pub sheet: Sheet,
    pub effects: Effects,
    pub health: Health,
    pub defenses: Defenses,
    pub conditions: Conditions,
    pub exhaustion: u8,
    /// Kept from the players: its rolls are the DM's.
    pub hidden: bool,
}

/// One thing the tracker did, in order, for the log and the map.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Tracked {
    Roll {
        entry: LogEntry,
    },
    Effect {
        who: String,
        #[serde(flatten)]
        event: EffectEvent,
    },
    Damaged {
        who: String,
        amount: i32,
        life: Life,
    },
    Exhaustion {
        who: String,
        level: u8,
    },
}

impl Tracked {
    /// Its line in the roll log: the roll, or what happened to an effect (damage and exhaustion
    /// are told by their rolls and the creature's card).
    pub fn log_entry(&self, hidden: bool) -> Option<LogEntry> {
        match self {
            Tracked::Roll { entry } => Some(entry.clone()),
            Tracked::Effect { who, event } => Some(LogEntry::event(who, event.reason(), hidden)),
            Tracked::Damaged { .. } | Tracked::Exhaustion { .. } => None,
        }
    }
}

impl EffectEvent {
    /// The log's reason for this event.
    pub fn reason(&self) -> RollReason {
        match self {
            EffectEvent::Given { name } => RollReason::EffectBegan { effect: name.clone(), waiting: false },
            EffectEvent::Waiting { name } => RollReason::EffectBegan { effect: name.clone(), waiting: true },
            EffectEvent::Ended { name, reason } => {
                RollReason::EffectEnded { effect: name.clone(), reason: reason.clone() }
            }
            EffectEvent::Woke { name } => RollReason::EffectWoke { effect: name.clone() },
            EffectEvent::Immune { name, because } => {
                RollReason::EffectImmune { effect: name.clone(), because: *because }
            }
        }
    }
}

impl Subject {
    /// Its saving throw of `ability` against `dc`, for `effect`: failed without a roll when its
    /// conditions say so (PHB appendix A: paralyzed, petrified, stunned and unconscious creatures
    /// fail Strength and Dexterity saves), else d20 + its save bonus + what its effects add, with
    /// what its conditions, exhaustion and effects give the roll ([`Rolling::sources`]). Returns
    /// whether it succeeded, and the log's line.
    fn save(
        &self,
        ability: Ability,
        dc: i32,
        effect: &str,
        dice: &mut SeededDice,
    ) -> Result<(bool, Tracked), DiceError> {
        if let Some(because) = self.conditions.auto_fail_by(ability) {
            let reason = RollReason::EffectSaveFailed { effect: effect.to_owned(), ability, dc, because };
            return Ok((false, Tracked::Roll { entry: LogEntry::event(&self.name, reason, self.hidden) }));
        }
        let roll = self.roll_save(ability, dice)?;
        let success = roll.total >= dc;
        let reason = RollReason::EffectSave { effect: effect.to_owned(), ability, dc, success };
        Ok((success, Tracked::Roll { entry: LogEntry::new(&self.name, reason, roll, self.hidden) }))
    }

    /// Rolls its saving throw of `ability` (no automatic failure: a Constitution save).
    fn roll_save(&self, ability: Ability, dice: &mut SeededDice) -> Result<DiceRoll, DiceError> {
        let modifiers = self.effects.modifiers();
        let rolling = self.rolling(&modifiers);
        let roll = D20::Save(Some(ability));
        let bonus = i32::from(self.sheet.save_bonus(ability)) + rolling.bonus(roll);
        dice.roll(&format!("1d20{bonus:+}"), rolling.sources(roll).mode())
    }

    fn rolling<'a>(&'a self, modifiers: &'a RollModifiers) -> Rolling<'a> {
        Rolling { who: &self.name, conditions: &self.conditions, exhaustion: self.exhaustion, effects: modifiers }
    }

    /// Deals `rolled` damage of `kind` through the damage rules: its defenses now (a petrified
    /// creature's resistance and poison immunity included), then `fight::take_damage`, which
    /// knocks a creature dropped to 0 unconscious. Returns the damage after defenses and what it
    /// did.
    fn take(&mut self, rolled: i32, kind: DamageType) -> (i32, DamageTaken) {
        let amount = defenses_now(&self.defenses, &self.conditions).apply(rolled, kind).amount;
        (amount, take_damage(&mut self.health, &mut self.conditions, amount, false))
    }

    /// Whether a poison or disease in its system is suspended: a petrified creature's (PHB
    /// appendix A, "Petrified": "a poison or disease already in its system is suspended, not
    /// neutralized").
    fn suspends(&self, source: &Source) -> bool {
        matches!(source, Source::Poison(_) | Source::Disease(_)) && self.conditions.has(Condition::Petrified)
    }
}

fn events(who: &str, events: impl IntoIterator<Item = EffectEvent>, out: &mut Vec<Tracked>) {
    out.extend(events.into_iter().map(|event| Tracked::Effect { who: who.to_owned(), event }));
}

/// The creatures of a scene and their effects, as the tracker runs them.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    pub subjects: Vec<Subject>,
    /// For each creature's id, the creatures with effects that its turns time or its state ends:
    /// its own effects of no creature source, and every effect it is the source of. Built when
    /// effects are given; an effect that ended leaves an entry that concerns nothing.
    concerned: HashMap<String, Vec<usize>>,
    indexed: bool,
}

impl Tracker {
    pub fn new(subjects: Vec<Subject>) -> Self {
        Self { subjects, concerned: HashMap::new(), indexed: false }
    }

    fn index(&mut self) {
        if self.indexed {
            return;
        }
        self.concerned.clear();
        for (i, subject) in self.subjects.iter().enumerate() {
            for lasting in &subject.effects.list {
                let key = lasting.effect.source_creature().unwrap_or(&subject.id);
                let list = self.concerned.entry(key.to_owned()).or_default();
                if list.last() != Some(&i) {
                    list.push(i);
                }
            }
        }
        self.indexed = true;
    }

    fn position(&self, id: &str) -> Option<usize> {
        self.subjects.iter().position(|s| s.id == id)
    }

    /// The creatures `id`'s turns and state concern.
    fn concerned_by(&mut self, id: &str) -> Vec<usize> {
        self.index();
        self.concerned.get(id).cloned().unwrap_or_default()
    }

    /// At `point` of the turn of the creature `whose`: the effects its turns time advance (its
    /// own, and those it is the source of, on anyone), and its own saves and damage are rolled,
    /// a save before its effect's damage (which may be due only on a failure). A disease counted
    /// in hours passes a round at the start of its own turn. Then what follows: concentration
    /// saves after damage, concentration and grapples ended by incapacitation or death,
    /// conditions brought in step.
    pub fn at_turn(&mut self, whose: &str, point: TurnPoint, dice: &mut SeededDice) -> Result<Vec<Tracked>, DiceError> {
        let mut touched = self.concerned_by(whose);
        if let Some(own) = self.position(whose).filter(|i| !touched.contains(i)) {
            touched.push(own);
        }
        let mut out = Vec::new();
        let mut damaged: Vec<(usize, i32)> = Vec::new();
        for &i in &touched {
            let subject = &mut self.subjects[i];
            let (ended, due) = subject.effects.at_turn(&subject.id, whose, point);
            events(&subject.name, ended, &mut out);
            if subject.id == whose && point == TurnPoint::Start {
                out.extend(incubate(subject));
            }
            let mut failed: Vec<u32> = Vec::new();
            for due in due {
                let effect = match &due {
                    Due::Save { effect, .. } | Due::Damage { effect, .. } => *effect,
                };
                if subject.effects.get(effect).is_none_or(|l| subject.suspends(&l.effect.source)) {
                    continue;
                }
                match due {
                    Due::Save { effect, name, save } => {
                        let (success, line) = subject.save(save.ability, save.dc, &name, dice)?;
                        out.push(line);
                        if !success {
                            failed.push(effect);
                        }
                        events(&subject.name, subject.effects.save_rolled(effect, success), &mut out);
                    }
                    Due::Damage { effect, name, damage } => {
                        if damage.on_failed_save && !failed.contains(&effect) {
                            continue;
                        }
                        let roll = dice.roll(&damage.dice, RollMode::Normal)?;
                        let (amount, taken) = subject.take(roll.total, damage.kind);
                        let reason = RollReason::Damage {
                            of: name,
                            to: Some(subject.name.clone()),
                            critical: false,
                            dealt: Some((amount, damage.kind)),
                        };
                        out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
                        if taken.amount > 0 {
                            out.push(Tracked::Damaged {
                                who: subject.name.clone(),
                                amount: taken.amount,
                                life: taken.life,
                            });
                            damaged.push((i, taken.amount));
                        }
                    }
                }
            }
        }
        for (index, amount) in damaged {
            out.extend(self.took_damage(index, amount, dice)?);
        }
        out.extend(self.follow_up_of(touched));
        Ok(out)
    }

    /// Gives `effect` to the creature at `index` (`in_fight`: during a fight's turns; else its
    /// first round begins at its clock's first turn). A creature concentrates on one thing at a
    /// time (PHB "Concentration": "you lose concentration on a spell if you cast another spell
    /// that requires concentration"): an effect kept up by its source's concentration ends the
    /// effects of another name that source kept up, on every creature.
    pub fn give(&mut self, index: usize, effect: Effect, in_fight: bool) -> Result<Vec<Tracked>, EffectError> {
        let mut out = Vec::new();
        let Some(subject) = self.subjects.get_mut(index) else { return Ok(out) };
        let caster =
            (effect.duration == Duration::Concentration).then(|| effect.source_creature().map(str::to_owned)).flatten();
        let name = effect.name.clone();
        let (_, event) =
            if in_fight { subject.effects.give(effect)? } else { subject.effects.give_before_fight(effect)? };
        events(&subject.name, [event], &mut out);
        self.indexed = false;
        let mut touched = vec![index];
        if let Some(caster) = caster {
            for i in self.concerned_by(&caster) {
                let other = &mut self.subjects[i];
                let ended = other.effects.end_where(
                    |l| {
                        l.effect.duration == Duration::Concentration
                            && l.effect.source_creature() == Some(caster.as_str())
                            && !l.effect.name.eq_ignore_ascii_case(&name)
                    },
                    EndReason::ConcentrationEnded,
                );
                events(&other.name, ended, &mut out);
                touched.push(i);
            }
        }
        out.extend(self.follow_up_of(touched));
        Ok(out)
    }

    /// Whether the creature at `index` keeps concentration on something (an effect on anyone
    /// lasts while it does).
    fn concentrates(&mut self, index: usize) -> bool {
        let id = self.subjects[index].id.clone();
        self.concerned_by(&id).into_iter().any(|i| self.subjects[i].effects.held_by(&id).next().is_some())
    }

    /// Ends every concentration effect the creature at `index` keeps up, on everyone.
    fn end_concentration(&mut self, index: usize, out: &mut Vec<Tracked>) -> Vec<usize> {
        let caster = self.subjects[index].id.clone();
        let concerned = self.concerned_by(&caster);
        for &i in &concerned {
            let other = &mut self.subjects[i];
            events(&other.name, other.effects.concentration_ended(&caster), out);
        }
        concerned
    }

    /// The creature at `index` took `amount` damage (from anything): what ends on damage ends,
    /// a sleeper wakes, and if it concentrates it saves to keep it (PHB "Concentration":
    /// Constitution, DC 10 or half the damage, whichever is higher; one save per source of
    /// damage); a creature the damage left incapacitated or dead loses it without a save.
    pub fn took_damage(&mut self, index: usize, amount: i32, dice: &mut SeededDice) -> Result<Vec<Tracked>, DiceError> {
        let mut out = Vec::new();
        let Some(subject) = self.subjects.get_mut(index) else { return Ok(out) };
        events(&subject.name, subject.effects.damaged(), &mut out);
        if amount <= 0 || !self.concentrates(index) {
            return Ok(out);
        }
        let subject = &self.subjects[index];
        if concentration_broken(&subject.conditions, subject.health.life == Life::Dead) {
            self.end_concentration(index, &mut out);
            return Ok(out);
        }
        let dc = concentration_dc(amount);
        let roll = subject.roll_save(Ability::Con, dice)?;
        let kept = roll.total >= dc;
        let reason = RollReason::Concentration { dc, kept };
        out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
        if !kept {
            self.end_concentration(index, &mut out);
        }
        Ok(out)
    }

    /// What follows any change, for every creature: see [`Tracker::follow_up_of`].
    pub fn follow_up(&mut self) -> Vec<Tracked> {
        self.follow_up_of((0..self.subjects.len()).collect())
    }

    /// What follows a change to the creatures at `touched`: each one's conditions follow its
    /// effects; one that is incapacitated or dead loses its concentration, and a grapple whose
    /// grappler is incapacitated ends (reach is the map's to check: it knows where everyone
    /// stands); the creatures that changed follow in turn.
    fn follow_up_of(&mut self, mut touched: Vec<usize>) -> Vec<Tracked> {
        let mut out = Vec::new();
        touched.sort_unstable();
        touched.dedup();
        for &i in &touched {
            let subject = &mut self.subjects[i];
            subject.effects.update_conditions_but(&mut subject.conditions, &subject.sheet.condition_immunities);
        }
        let broken: Vec<usize> = touched
            .iter()
            .copied()
            .filter(|&i| {
                let s = &self.subjects[i];
                concentration_broken(&s.conditions, s.health.life == Life::Dead)
            })
            .collect();
        for caster_index in broken {
            let caster = self.subjects[caster_index].id.clone();
            for i in self.concerned_by(&caster) {
                let other = &mut self.subjects[i];
                let mut ended = other.effects.concentration_ended(&caster);
                let held: Vec<u32> =
                    other.effects.grapples().filter(|(_, by, _)| *by == caster).map(|(id, ..)| id).collect();
                ended.extend(held.into_iter().filter_map(|id| other.effects.end(id, EndReason::GrapplerIncapacitated)));
                if !ended.is_empty() {
                    events(&other.name, ended, &mut out);
                    other.effects.update_conditions_but(&mut other.conditions, &other.sheet.condition_immunities);
                }
            }
        }
        out
    }

    /// A long rest ends at dawn: timed effects lose 8 hours; each disease advances (SRD 5.1, the
    /// save "at the end of each long rest"), gaining or losing exhaustion, recovering, or bringing
    /// cackle fever's madness. A petrified creature's diseases are suspended.
    pub fn dawn(&mut self, dice: &mut SeededDice) -> Result<Vec<Tracked>, DiceError> {
        let mut out = Vec::new();
        for subject in &mut self.subjects {
            events(&subject.name, subject.effects.pass_time(LONG_REST_ROUNDS), &mut out);
            let diseased: Vec<u32> = subject
                .effects
                .list
                .iter()
                .filter(|l| l.effect.disease.is_some() && !subject.suspends(&l.effect.source))
                .map(|l| l.id)
                .collect();
            for id in diseased {
                out.extend(disease_dawn(subject, id, dice)?);
            }
        }
        self.indexed = false;
        out.extend(self.follow_up());
        Ok(out)
    }

    /// The creature at `index` is exposed to `poison` (a coated weapon's hit, a dose, a cloud): a
    /// Constitution save against its DC, then its damage (halved on a success where it says so)
    /// through the damage rules, and the effect it leaves, its hours rolled where they are dice
    /// (SRD 5.1, "Poisons"; DMG "Poisons"). A petrified creature is immune.
    pub fn expose(&mut self, index: usize, poison: Poison, dice: &mut SeededDice) -> Result<Vec<Tracked>, DiceError> {
        let mut out = Vec::new();
        let Some(subject) = self.subjects.get_mut(index) else { return Ok(out) };
        if subject.conditions.has(Condition::Petrified) {
            let event = EffectEvent::Immune { name: poison.name().to_owned(), because: Condition::Petrified };
            events(&subject.name, [event], &mut out);
            return Ok(out);
        }
        // A Constitution save: no condition fails it without a roll.
        let roll = subject.roll_save(Ability::Con, dice)?;
        let total = roll.total;
        let effect = poison.name().to_owned();
        let reason =
            RollReason::EffectSave { effect, ability: Ability::Con, dc: poison.dc(), success: total >= poison.dc() };
        out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
        let exposure = poison.exposure(total);
        let mut damaged = 0;
        if let Some((notation, halved)) = exposure.damage {
            let roll = dice.roll(notation, RollMode::Normal)?;
            let rolled = if halved { roll.total / 2 } else { roll.total };
            let (amount, taken) = subject.take(rolled, DamageType::Poison);
            let reason = RollReason::Damage {
                of: poison.name().to_owned(),
                to: Some(subject.name.clone()),
                critical: false,
                dealt: Some((amount, DamageType::Poison)),
            };
            out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
            if taken.amount > 0 {
                out.push(Tracked::Damaged { who: subject.name.clone(), amount: taken.amount, life: taken.life });
                damaged = taken.amount;
            }
        }
        if let Some(mut effect) = exposure.effect {
            if let Some(hours) = exposure.hours {
                let roll = dice.roll(hours, RollMode::Normal)?;
                effect.duration = Duration::Hours(roll.total.max(1) as u32);
                let reason = RollReason::Table { name: format!("{}: hours poisoned", poison.name()) };
                out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
            }
            if let Ok((_, event)) = subject.effects.give(effect) {
                events(&subject.name, [event], &mut out);
                self.indexed = false;
            }
        }
        if damaged > 0 {
            out.extend(self.took_damage(index, damaged, dice)?);
        }
        out.extend(self.follow_up_of(vec![index]));
        Ok(out)
    }

    /// The creature at `index` catches `disease`, its incubation rolled (SRD 5.1: cackle fever's
    /// 1d4 hours, sewer plague's 1d4 days, sight rot's one day). A petrified creature is immune.
    pub fn infect(&mut self, index: usize, disease: Disease, dice: &mut SeededDice) -> Result<Vec<Tracked>, DiceError> {
        let mut out = Vec::new();
        let Some(subject) = self.subjects.get_mut(index) else { return Ok(out) };
        if subject.conditions.has(Condition::Petrified) {
            let event = EffectEvent::Immune { name: disease.name().to_owned(), because: Condition::Petrified };
            events(&subject.name, [event], &mut out);
            return Ok(out);
        }
        let (effect, roll) = disease.catch(dice)?;
        if let Some(roll) = roll {
            let reason = RollReason::Table { name: format!("{}: incubation", disease.name()) };
            out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
        }
        if let Ok((_, event)) = subject.effects.give(effect) {
            events(&subject.name, [event], &mut out);
            self.indexed = false;
        }
        out.extend(self.follow_up_of(vec![index]));
        Ok(out)
    }

    /// The creature at `index` goes mad: a madness of `kind` rolled on its table ("Madness
    /// Effects").
    pub fn madden(
        &mut self,
        index: usize,
        kind: MadnessKind,
        dice: &mut SeededDice,
    ) -> Result<Vec<Tracked>, DiceError> {
        let mut out = Vec::new();
        let Some(subject) = self.subjects.get_mut(index) else { return Ok(out) };
        out.extend(give_madness(subject, kind, dice)?);
        self.indexed = false;
        out.extend(self.follow_up_of(vec![index]));
        Ok(out)
    }

    /// Ends the effect `id` of the creature at `index`: by the DM's hand, or with a cure that
    /// ends it ([`Cure::ends`]: nothing happens if it doesn't).
    pub fn end(&mut self, index: usize, id: u32, cure: Option<Cure>) -> Vec<Tracked> {
        let mut out = Vec::new();
        let Some(subject) = self.subjects.get_mut(index) else { return out };
        let ended = match cure {
            Some(cure) => subject.effects.cure(id, cure),
            None => subject.effects.end(id, EndReason::Removed),
        };
        events(&subject.name, ended, &mut out);
        out.extend(self.follow_up_of(vec![index]));
        out
    }
}

/// A round has passed for a disease counted in hours (the start of its creature's turn): its
/// symptoms may show.
fn incubate(subject: &mut Subject) -> Vec<Tracked> {
    let mut out = Vec::new();
    let suspended = subject.conditions.has(Condition::Petrified);
    let mut exhaustion = 0;
    for lasting in subject.effects.list.iter_mut().filter(|_| !suspended) {
        if let Some(dawn) = lasting.effect.disease.as_mut().and_then(|course| course.pass_rounds(1)) {
            exhaustion += dawn.exhaustion;
            if let Some(course) = lasting.effect.disease {
                lasting.effect.penalty = course.penalty;
            }
        }
    }
    if exhaustion != 0 {
        out.push(add_exhaustion(subject, exhaustion));
    }
    out
}

/// Adds `levels` of exhaustion (negative: takes them away), through `fight::set_exhaustion`.
fn add_exhaustion(subject: &mut Subject, levels: i8) -> Tracked {
    let level = (i16::from(subject.exhaustion) + i16::from(levels)).clamp(0, 6) as u8;
    subject.exhaustion = set_exhaustion(&mut subject.health, level);
    Tracked::Exhaustion { who: subject.name.clone(), level: subject.exhaustion }
}

/// Rounds in a long rest: 8 hours (PHB "Long Rest").
pub const LONG_REST_ROUNDS: u32 = 8 * super::ROUNDS_PER_HOUR;

/// A roll on a table as the log shows it: the die and what it gave.
fn table_roll(roll: &crate::rules::tables::TableRoll) -> DiceRoll {
    let total = i32::try_from(roll.result).unwrap_or(i32::MAX);
    DiceRoll {
        notation: format!("1d{}", roll.die),
        mode: RollMode::Normal,
        evaluations: vec![Evaluation { detail: format!("1d{}[{}]", roll.die, roll.result), total }],
        total,
    }
}

/// A madness of `kind` rolled and given: the table's roll, its duration's and the d4 of
/// long-term 56–65 in the log.
fn give_madness(subject: &mut Subject, kind: MadnessKind, dice: &mut SeededDice) -> Result<Vec<Tracked>, DiceError> {
    let mut out = Vec::new();
    let mad = madness::roll(kind, dice)?;
    let table = RollReason::Table { name: mad.table.table.clone() };
    out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, table, table_roll(&mad.table), subject.hidden) });
    for (roll, what) in [(mad.duration, "duration"), (mad.d4, "blinded on a 1, else deafened")] {
        if let Some(roll) = roll {
            let reason = RollReason::Table { name: format!("{}: {what}", kind.name()) };
            out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
        }
    }
    if let Ok((_, event)) = subject.effects.give(mad.effect) {
        events(&subject.name, [event], &mut out);
    }
    Ok(out)
}

fn disease_dawn(subject: &mut Subject, id: u32, dice: &mut SeededDice) -> Result<Vec<Tracked>, DiceError> {
    let mut out = Vec::new();
    let Some(mut course) = subject.effects.get(id).and_then(|l| l.effect.disease) else { return Ok(out) };
    let name = course.disease.name().to_owned();
    let mut save = 0;
    if course.saves_at_dawn() {
        let roll = subject.roll_save(Ability::Con, dice)?;
        save = roll.total;
        let reason = RollReason::EffectSave {
            effect: name.clone(),
            ability: Ability::Con,
            dc: course.dc,
            success: save >= course.dc,
        };
        out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
    }
    let d6 = if course.disease == Disease::CackleFever && course.saves_at_dawn() && save >= course.dc {
        let roll = dice.roll("1d6", RollMode::Normal)?;
        let total = roll.total;
        let reason = RollReason::Table { name: format!("{name}: the DC drops by 1d6") };
        out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
        total
    } else {
        0
    };
    let dawn = course.dawn(save, d6);
    if dawn.exhaustion != 0 {
        out.push(add_exhaustion(subject, dawn.exhaustion));
    }
    let recovered = dawn.recovered
        || (course.disease == Disease::SewerPlague && !dawn.symptoms && dawn.exhaustion < 0 && subject.exhaustion == 0);
    if let Some(lasting) = subject.effects.list.iter_mut().find(|l| l.id == id) {
        lasting.effect.disease = Some(course);
        lasting.effect.penalty = course.penalty;
        if dawn.blinded && !lasting.effect.conditions.contains(&Condition::Blinded) {
            lasting.effect.conditions.push(Condition::Blinded);
        }
    }
    if recovered {
        events(&subject.name, subject.effects.end(id, EndReason::Cured), &mut out);
    }
    if dawn.madness {
        out.extend(give_madness(subject, MadnessKind::Indefinite, dice)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::effects::{RepeatedSave, Source, TurnDamage};

    fn subject(id: &str, wis: i8, con: i8) -> Subject {
        let mut sheet = Sheet { name: id.to_owned(), ..Sheet::default() };
        sheet.saves.insert(Ability::Wis, wis);
        sheet.saves.insert(Ability::Con, con);
        Subject {
            id: id.to_owned(),
            name: id.to_owned(),
            sheet,
            effects: Effects::default(),
            health: Health::new(40, 40, false, Default::default()),
            defenses: Defenses::default(),
            conditions: Conditions::default(),
            exhaustion: 0,
            hidden: false,
        }
    }

    fn ended(out: &[Tracked], name: &str, reason: EndReason) -> bool {
        out.iter().any(|t| {
            matches!(t, Tracked::Effect { event: EffectEvent::Ended { name: n, reason: r }, .. } if n == name && *r == reason)
        })
    }

    fn rolls<'a>(
        out: &'a [Tracked],
        what: impl Fn(&RollReason) -> bool + 'a,
    ) -> impl Iterator<Item = &'a LogEntry> + 'a {
        out.iter().filter_map(move |t| match t {
            Tracked::Roll { entry } if what(&entry.reason) => Some(entry),
            _ => None,
        })
    }

    fn burning(dice: &str, at: TurnPoint, rounds: u32) -> Effect {
        Effect {
            damage: Some(TurnDamage { dice: dice.into(), kind: DamageType::Fire, at, on_failed_save: false }),
            ..Effect::new("burning", Source::Dm, Duration::Rounds(rounds))
        }
    }

    /// A scripted, seeded fight of three rounds: a repeated save ends "frightened"; damage at the
    /// start of the druid's turn calls for a concentration save (which it can't make), ending the
    /// entanglement it kept up; the grapple ends when the ogre is stunned; serpent venom from a
    /// blade is rolled as a save and damage; two "blessed" don't add.
    #[test]
    fn a_scripted_fight_runs_its_effects() {
        let mut dice = SeededDice::new(28);
        let mut all =
            vec![subject("brom", 30, 0), subject("ghoul", 0, 0), subject("druid", 0, -30), subject("ogre", 0, 0)];
        let frightened = Effect {
            conditions: vec![Condition::Frightened],
            save: Some(RepeatedSave { ability: Ability::Wis, dc: 12, at: TurnPoint::End, successes: 1 }),
            ..Effect::new("frightened", Source::Creature("ghoul".into()), Duration::Minutes(1))
        };
        all[0].effects.give(frightened).expect("valid");
        let entangled = Effect {
            conditions: vec![Condition::Restrained],
            ..Effect::new("entangled", Source::Creature("druid".into()), Duration::Concentration)
        };
        all[1].effects.give(entangled).expect("valid");
        let grappled = Effect {
            conditions: vec![Condition::Grappled],
            grapple_reach: Some(5),
            ..Effect::new("grappled", Source::Creature("ogre".into()), Duration::UntilRemoved)
        };
        all[1].effects.give(grappled).expect("valid");
        all[2].effects.give(burning("1d6", TurnPoint::Start, 3)).expect("valid");
        for name in ["blessed", "blessed"] {
            all[0].effects.give(Effect::new(name, Source::Dm, Duration::Minutes(1))).expect("valid");
        }
        assert_eq!(all[0].effects.applying().filter(|l| l.effect.name == "blessed").count(), 1, "no stacking");
        let mut tracker = Tracker::new(all);
        tracker.follow_up();
        assert!(tracker.subjects[0].conditions.has(Condition::Frightened));
        let ghoul = &tracker.subjects[1].conditions;
        assert!(ghoul.has(Condition::Restrained) && ghoul.has(Condition::Grappled));
        let mut log = Vec::new();
        for round in 1..=3 {
            for whose in ["brom", "ghoul", "druid", "ogre"] {
                log.extend(tracker.at_turn(whose, TurnPoint::Start, &mut dice).expect("rolls"));
                if round == 1 && whose == "ghoul" {
                    log.extend(tracker.expose(0, Poison::SerpentVenom, &mut dice).expect("rolls"));
                }
                if round == 2 && whose == "brom" {
                    tracker.subjects[3].conditions.set(Condition::Stunned, true);
                    log.extend(tracker.follow_up());
                }
                log.extend(tracker.at_turn(whose, TurnPoint::End, &mut dice).expect("rolls"));
            }
        }
        let all = &tracker.subjects;
        assert!(ended(&log, "frightened", EndReason::Saved), "{log:#?}");
        assert!(!all[0].conditions.has(Condition::Frightened));
        let concentration = rolls(&log, |r| matches!(r, RollReason::Concentration { .. })).next();
        assert_eq!(concentration.map(|e| e.reason.clone()), Some(RollReason::Concentration { dc: 10, kept: false }));
        assert!(ended(&log, "entangled", EndReason::ConcentrationEnded));
        assert!(!all[1].conditions.has(Condition::Restrained));
        assert!(ended(&log, "grappled", EndReason::GrapplerIncapacitated));
        assert!(!all[1].conditions.has(Condition::Grappled));
        assert_eq!(rolls(&log, |r| matches!(r, RollReason::Damage { of, .. } if of == "Serpent venom")).count(), 1);
        assert!(all[0].health.hp < 40, "the venom is dealt");
        assert!(ended(&log, "burning", EndReason::TimeUp));
    }

    /// Issue 37 (1): damage from an effect goes through the damage rule (`fight::take_damage`).
    /// PHB "Falling Unconscious": a creature dropped to 0 that doesn't die falls unconscious;
    /// "Concentration": it loses concentration when incapacitated, without a save. A druid who
    /// makes death saves, burning at 3 hit points while it keeps an entanglement up, drops to 0:
    /// dying, unconscious and prone, and the entanglement ends with no Constitution save rolled.
    #[test]
    fn damage_from_an_effect_knocks_out_and_ends_concentration_without_a_save() {
        let mut druid = subject("druid", 0, 30);
        druid.health = Health::new(3, 20, true, Default::default());
        druid.effects.give(burning("10", TurnPoint::Start, 3)).expect("valid");
        let mut ghoul = subject("ghoul", 0, 0);
        let entangled = Effect {
            conditions: vec![Condition::Restrained],
            ..Effect::new("entangled", Source::Creature("druid".into()), Duration::Concentration)
        };
        ghoul.effects.give(entangled).expect("valid");
        let mut tracker = Tracker::new(vec![druid, ghoul]);
        tracker.follow_up();
        let out = tracker.at_turn("druid", TurnPoint::Start, &mut SeededDice::new(1)).expect("rolls");
        let druid = &tracker.subjects[0];
        assert_eq!(druid.health.life, Life::Dying);
        assert!(druid.conditions.has(Condition::Unconscious) && druid.conditions.has(Condition::Prone));
        assert_eq!(rolls(&out, |r| matches!(r, RollReason::Concentration { .. })).count(), 0, "no save: {out:#?}");
        assert!(ended(&out, "entangled", EndReason::ConcentrationEnded));
        assert!(!tracker.subjects[1].conditions.has(Condition::Restrained));
        let mut fire = subject("efreet", 0, 0);
        fire.defenses.immunities.insert(DamageType::Fire);
        fire.effects.give(burning("10", TurnPoint::Start, 3)).expect("valid");
        let mut immune = Tracker::new(vec![fire]);
        immune.at_turn("efreet", TurnPoint::Start, &mut SeededDice::new(1)).expect("rolls");
        assert_eq!(immune.subjects[0].health.hp, 40, "its defenses apply");
    }

    /// SRD 5.1 "Burnt Othur Fumes": "must repeat the saving throw at the start of each of its
    /// turns. On each successive failed save, the character takes 3 (1d6) poison damage. After
    /// three successful saves, the poison ends." Damage only on a failure: a creature that always
    /// succeeds takes none, one that always fails takes it every turn.
    #[test]
    fn burnt_othur_fumes_burn_only_on_failed_saves() {
        for (con, damaged_turns) in [(30, 0), (-30, 4)] {
            let mut breather = subject("brom", 0, con);
            breather.effects.give(Poison::BurntOthurFumes.exposure(1).effect.expect("lasting")).expect("valid");
            let mut tracker = Tracker::new(vec![breather]);
            let mut dice = SeededDice::new(5);
            let mut log = Vec::new();
            for _ in 0..4 {
                log.extend(tracker.at_turn("brom", TurnPoint::Start, &mut dice).expect("rolls"));
            }
            let burns = rolls(&log, |r| matches!(r, RollReason::Damage { .. })).count();
            assert_eq!(burns, damaged_turns, "con {con}: {log:#?}");
            assert_eq!(ended(&log, "Burnt othur fumes", EndReason::Saved), con > 0, "three successes end it");
        }
    }

    /// Issue 37 (12): an effect given before the fight ticks as many times as its rounds: "1d6
    /// fire for two rounds" burns twice, then ends at the start of the third turn.
    #[test]
    fn an_effect_given_before_the_fight_keeps_its_first_round() {
        let mut brom = subject("brom", 0, 0);
        brom.effects.give_before_fight(burning("1d6", TurnPoint::Start, 2)).expect("valid");
        let mut tracker = Tracker::new(vec![brom]);
        let mut dice = SeededDice::new(2);
        let mut log = Vec::new();
        for _ in 0..3 {
            log.extend(tracker.at_turn("brom", TurnPoint::Start, &mut dice).expect("rolls"));
            log.extend(tracker.at_turn("brom", TurnPoint::End, &mut dice).expect("rolls"));
        }
        assert_eq!(rolls(&log, |r| matches!(r, RollReason::Damage { .. })).count(), 2);
        assert!(ended(&log, "burning", EndReason::TimeUp));
        let mut during = subject("lia", 0, 0);
        during.effects.give(burning("1d6", TurnPoint::Start, 2)).expect("valid");
        let mut tracker = Tracker::new(vec![during]);
        let mut log = Vec::new();
        for _ in 0..3 {
            log.extend(tracker.at_turn("lia", TurnPoint::Start, &mut dice).expect("rolls"));
        }
        assert_eq!(rolls(&log, |r| matches!(r, RollReason::Damage { .. })).count(), 1, "given in its own turn");
    }

    /// Issue 37 (14): PHB appendix A, "Paralyzed", "Stunned", "Unconscious": the creature
    /// "automatically fails Strength and Dexterity saving throws"; "Petrified": "immune to poison
    /// and disease, although a poison or disease already in its system is suspended".
    #[test]
    fn saves_fail_automatically_and_the_petrified_are_immune() {
        let web = Effect {
            conditions: vec![Condition::Restrained],
            save: Some(RepeatedSave { ability: Ability::Dex, dc: 1, at: TurnPoint::End, successes: 1 }),
            ..Effect::new("web", Source::Dm, Duration::UntilSaved)
        };
        let mut stuck = subject("brom", 0, 0);
        stuck.effects.give(web).expect("valid");
        stuck.conditions.set(Condition::Stunned, true);
        let mut tracker = Tracker::new(vec![stuck]);
        let out = tracker.at_turn("brom", TurnPoint::End, &mut SeededDice::new(1)).expect("rolls");
        let failed: Vec<&LogEntry> = rolls(&out, |r| matches!(r, RollReason::EffectSaveFailed { .. })).collect();
        assert_eq!(failed.len(), 1, "DC 1, yet it fails: {out:#?}");
        assert!(!failed[0].rolled());
        assert!(tracker.subjects[0].conditions.has(Condition::Restrained));
        let mut statue = subject("statue", 0, 0);
        statue.effects.give(Poison::BurntOthurFumes.exposure(1).effect.expect("lasting")).expect("valid");
        statue.conditions.set(Condition::Petrified, true);
        let mut tracker = Tracker::new(vec![statue]);
        let mut dice = SeededDice::new(3);
        let out = tracker.expose(0, Poison::SerpentVenom, &mut dice).expect("rolls");
        assert!(matches!(&out[..], [Tracked::Effect { event: EffectEvent::Immune { .. }, .. }]), "{out:#?}");
        assert!(matches!(
            &tracker.infect(0, Disease::SewerPlague, &mut dice).expect("rolls")[..],
            [Tracked::Effect { event: EffectEvent::Immune { .. }, .. }]
        ));
        let suspended = tracker.at_turn("statue", TurnPoint::Start, &mut dice).expect("rolls");
        assert!(suspended.is_empty(), "the fumes are suspended: {suspended:#?}");
        assert_eq!(tracker.subjects[0].health.hp, 40);
    }

    /// SRD 5.1 "Sewer Plague" over three dawns: incubation (here one dawn), then a save each
    /// dawn trading exhaustion; recovery when a success brings it below 1.
    #[test]
    fn a_disease_advances_over_three_dawns() {
        let mut dice = SeededDice::new(3);
        let mut healthy = subject("brom", 0, 30);
        healthy.effects.give(Disease::SewerPlague.caught(1)).expect("valid");
        let mut tracker = Tracker::new(vec![healthy]);
        let first = tracker.dawn(&mut dice).expect("rolls");
        assert_eq!(tracker.subjects[0].exhaustion, 1, "symptoms: {first:?}");
        let second = tracker.dawn(&mut dice).expect("rolls");
        assert!(second.iter().any(|t| matches!(t, Tracked::Roll { .. })), "a save at the end of the rest");
        assert_eq!(tracker.subjects[0].exhaustion, 0, "a success takes the level away");
        assert!(ended(&second, "Sewer plague", EndReason::Cured));
        let third = tracker.dawn(&mut dice).expect("rolls");
        assert!(third.is_empty(), "nothing left to advance: {third:?}");
        let mut sick = subject("lia", 0, -30);
        sick.effects.give(Disease::SewerPlague.caught(1)).expect("valid");
        let mut tracker = Tracker::new(vec![sick]);
        for _ in 0..3 {
            tracker.dawn(&mut dice).expect("rolls");
        }
        assert_eq!(tracker.subjects[0].exhaustion, 3, "one from the symptoms, one from each failure");
    }

    /// SRD 5.1 "Cackle Fever": "Symptoms manifest 1d4 hours after infection": rolled when caught,
    /// shown at the start of the creature's turn once that many rounds have passed.
    #[test]
    fn cackle_fever_shows_in_hours_not_at_dawn() {
        let mut dice = SeededDice::new(9);
        let mut tracker = Tracker::new(vec![subject("brom", 0, 0)]);
        let caught = tracker.infect(0, Disease::CackleFever, &mut dice).expect("rolls");
        let hours = rolls(&caught, |r| matches!(r, RollReason::Table { .. })).next().expect("1d4 hours").roll.total;
        let rounds = hours as u32 * 600;
        for _ in 0..rounds - 1 {
            tracker.at_turn("brom", TurnPoint::Start, &mut dice).expect("rolls");
        }
        assert_eq!(tracker.subjects[0].exhaustion, 0, "a round short");
        let shown = tracker.at_turn("brom", TurnPoint::Start, &mut dice).expect("rolls");
        assert_eq!(tracker.subjects[0].exhaustion, 1, "{shown:?}");
        assert!(shown.iter().any(|t| matches!(t, Tracked::Exhaustion { level: 1, .. })));
    }

    /// Torpor (SRD 5.1): "poisoned for 4d6 hours": rolled, and logged.
    #[test]
    fn torpor_rolls_its_hours() {
        let mut dice = SeededDice::new(4);
        let mut tracker = Tracker::new(vec![subject("brom", 0, -30)]);
        let out = tracker.expose(0, Poison::Torpor, &mut dice).expect("rolls");
        let hours = rolls(&out, |r| matches!(r, RollReason::Table { .. })).next().expect("4d6 hours").roll.total;
        assert!((4..=24).contains(&hours));
        let lasting = &tracker.subjects[0].effects.list[0];
        assert_eq!(lasting.effect.duration, Duration::Hours(hours as u32));
        assert_eq!(lasting.rounds_left, Some(hours as u32 * 600));
    }

    /// PHB "Concentration": a caster keeps up one thing at a time; a new concentration effect of
    /// another name ends the old one on everyone, one of the same name (a spell on two targets)
    /// doesn't.
    #[test]
    fn a_new_concentration_ends_the_old_one() {
        let mut tracker = Tracker::new(vec![subject("pip", 0, 0), subject("ghoul", 0, 0), subject("wight", 0, 0)]);
        let held = |name: &str| Effect {
            conditions: vec![Condition::Restrained],
            ..Effect::new(name, Source::Creature("pip".into()), Duration::Concentration)
        };
        tracker.give(1, held("held"), true).expect("valid");
        tracker.give(2, held("held"), true).expect("valid");
        let all = &tracker.subjects;
        assert_eq!(all[1].effects.list.len() + all[2].effects.list.len(), 2, "one spell on two targets");
        let out = tracker.give(2, held("slowed"), true).expect("valid");
        assert!(ended(&out, "held", EndReason::ConcentrationEnded));
        let all = &tracker.subjects;
        assert!(all[1].effects.is_empty() && !all[1].conditions.has(Condition::Restrained));
        assert_eq!(all[2].effects.list.iter().map(|l| l.effect.name.as_str()).collect::<Vec<_>>(), vec!["slowed"]);
    }

    /// "Madness Effects" and "Curing Madness": a madness is rolled and given; lesser restoration
    /// ends one short- or long-term madness (not every one), and no indefinite one.
    #[test]
    fn a_madness_is_rolled_and_lesser_restoration_cures_one() {
        let mut dice = SeededDice::new(5);
        let mut tracker = Tracker::new(vec![subject("brom", 0, 0)]);
        tracker.madden(0, MadnessKind::ShortTerm, &mut dice).expect("rolls");
        tracker.madden(0, MadnessKind::LongTerm, &mut dice).expect("rolls");
        tracker.madden(0, MadnessKind::Indefinite, &mut dice).expect("rolls");
        let ids: Vec<u32> = tracker.subjects[0].effects.list.iter().map(|l| l.id).collect();
        assert_eq!(ids.len(), 3);
        let cured = tracker.end(0, ids[1], Some(Cure::LesserRestoration));
        assert!(ended(&cured, "long-term madness", EndReason::Cured));
        assert_eq!(tracker.subjects[0].effects.list.len(), 2, "one madness, not all");
        assert!(tracker.end(0, ids[2], Some(Cure::LesserRestoration)).is_empty(), "indefinite: greater restoration");
        assert!(ended(&tracker.end(0, ids[2], Some(Cure::GreaterRestoration)), "indefinite madness", EndReason::Cured));
        tracker.end(0, ids[0], None);
        assert!(tracker.subjects[0].effects.is_empty());
        assert_eq!(tracker.subjects[0].conditions, Conditions::default());
    }
}
