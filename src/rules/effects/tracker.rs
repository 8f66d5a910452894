//! The tracker's side of effects: at a point of a creature's turn, it rolls what comes due for
//! every creature (repeated saves, damage each turn) through the session's dice, applies damage
//! through the damage rules, asks for concentration saves after damage, and ends what
//! concentration, incapacitation and grapples end; at dawn (a long rest) it advances diseases.
//! The map's initiative tracker and `battlemap query … advance` both call it.

use serde::Serialize;

use super::diseases::Disease;
use super::madness::{self, MadnessKind};
use super::poisons::Poison;
use super::{
    Due, Duration, Effect, EffectError, EffectEvent, Effects, EndReason, TurnPoint, concentration_broken,
    concentration_dc,
};
use crate::rules::conditions::{Condition, Conditions, saving_throw_sources};
use crate::rules::creature::{Ability, Sheet};
use crate::rules::dice::{DiceError, DiceRoll, Evaluation, RollMode, SeededDice};
use crate::rules::fight::{set_exhaustion, take_damage};
use crate::rules::health::{DamageType, Defenses, Health, Life};
use crate::rules::log::{LogEntry, RollReason};

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
        }
    }
}

impl Subject {
    /// The bonus and the roll mode of its saving throw of `ability`, with what the conditions and
    /// exhaustion give it (`conditions::saving_throw_sources`).
    fn save(&self, ability: Ability) -> (i32, RollMode) {
        let sources = saving_throw_sources(&self.name, &self.conditions, self.exhaustion, Some(ability));
        (i32::from(self.sheet.save_bonus(ability)), sources.mode())
    }

    fn roll_save(&self, ability: Ability, dice: &mut SeededDice) -> Result<DiceRoll, DiceError> {
        let (bonus, mode) = self.save(ability);
        dice.roll(&format!("1d20{bonus:+}"), mode)
    }

    /// Whether it keeps concentration on something (an effect on anyone lasts while it does).
    fn concentrates(&self, all: &[Subject]) -> bool {
        all.iter().any(|s| s.effects.held_by(&self.id).next().is_some())
    }
}

fn events(who: &str, events: Vec<EffectEvent>, out: &mut Vec<Tracked>) {
    out.extend(events.into_iter().map(|event| Tracked::Effect { who: who.to_owned(), event }));
}

/// At `point` of the turn of the creature `whose`: every creature's effects advance (durations
/// timed by `whose`'s turns count down), and `whose`'s own saves and damage are rolled. Then
/// what follows: concentration saves after damage, concentration and grapples ended by
/// incapacitation or death, conditions brought in step.
pub fn at_turn(
    subjects: &mut [Subject],
    whose: &str,
    point: TurnPoint,
    dice: &mut SeededDice,
) -> Result<Vec<Tracked>, DiceError> {
    let mut out = Vec::new();
    let mut damaged: Vec<(usize, i32)> = Vec::new();
    for (index, subject) in subjects.iter_mut().enumerate() {
        let (ended, due) = subject.effects.at_turn(&subject.id, whose, point);
        events(&subject.name, ended, &mut out);
        for due in due {
            match due {
                Due::Save { effect, name, save } => {
                    let roll = subject.roll_save(save.ability, dice)?;
                    let success = roll.total >= save.dc;
                    let reason = RollReason::EffectSave { effect: name, ability: save.ability, dc: save.dc, success };
                    out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
                    let ended = subject.effects.save_rolled(effect, success);
                    events(&subject.name, ended.into_iter().collect(), &mut out);
                }
                Due::Damage { name, damage, .. } => {
                    let roll = dice.roll(&damage.dice, RollMode::Normal)?;
                    let amount = subject.defenses.apply(roll.total, damage.kind).amount;
                    let reason = RollReason::Damage {
                        of: name,
                        to: Some(subject.name.clone()),
                        critical: false,
                        dealt: Some((amount, damage.kind)),
                    };
                    out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
                    let taken = subject.health.take_damage(amount, false);
                    if taken.amount > 0 {
                        out.push(Tracked::Damaged {
                            who: subject.name.clone(),
                            amount: taken.amount,
                            life: taken.life,
                        });
                        damaged.push((index, taken.amount));
                    }
                }
            }
        }
    }
    for (index, amount) in damaged {
        out.extend(took_damage(subjects, index, amount, dice)?);
    }
    out.extend(follow_up(subjects));
    Ok(out)
}

/// Gives `effect` to the creature at `index`. A creature concentrates on one thing at a time
/// (PHB "Concentration": "you lose concentration on a spell if you cast another spell that
/// requires concentration"): an effect kept up by its source's concentration ends the effects
/// of another name that source kept up, on every creature.
pub fn give(subjects: &mut [Subject], index: usize, effect: Effect) -> Result<Vec<Tracked>, EffectError> {
    let mut out = Vec::new();
    let Some(subject) = subjects.get_mut(index) else { return Ok(out) };
    let caster =
        (effect.duration == Duration::Concentration).then(|| effect.source_creature().map(str::to_owned)).flatten();
    let name = effect.name.clone();
    let (_, event) = subject.effects.give(effect)?;
    events(&subject.name.clone(), vec![event], &mut out);
    if let Some(caster) = caster {
        for other in subjects.iter_mut() {
            let ended = other.effects.end_where(
                |l| {
                    l.effect.duration == Duration::Concentration
                        && l.effect.source_creature() == Some(caster.as_str())
                        && !l.effect.name.eq_ignore_ascii_case(&name)
                },
                EndReason::ConcentrationEnded,
            );
            events(&other.name, ended, &mut out);
        }
    }
    out.extend(follow_up(subjects));
    Ok(out)
}

/// A creature took `amount` damage (from anything): what ends on damage ends, and if it
/// concentrates, it saves to keep it (PHB "Concentration": Constitution, DC 10 or half the
/// damage, whichever is higher; one save per source of damage).
pub fn took_damage(
    subjects: &mut [Subject],
    index: usize,
    amount: i32,
    dice: &mut SeededDice,
) -> Result<Vec<Tracked>, DiceError> {
    let mut out = Vec::new();
    let Some(subject) = subjects.get_mut(index) else { return Ok(out) };
    let ended = subject.effects.damaged();
    events(&subject.name, ended, &mut out);
    if amount <= 0 || !subjects[index].concentrates(subjects) {
        return Ok(out);
    }
    let subject = &subjects[index];
    let dc = concentration_dc(amount);
    let roll = subject.roll_save(Ability::Con, dice)?;
    let kept = roll.total >= dc;
    let reason = RollReason::Concentration { dc, kept };
    out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
    if !kept {
        let caster = subject.id.clone();
        for other in subjects.iter_mut() {
            let ended = other.effects.concentration_ended(&caster);
            events(&other.name, ended, &mut out);
        }
    }
    Ok(out)
}

/// What follows any change: a creature that is incapacitated or dead loses its concentration; a
/// grapple whose grappler is incapacitated ends (reach is the map's to check: it knows where
/// everyone stands); each creature's conditions follow its effects.
pub fn follow_up(subjects: &mut [Subject]) -> Vec<Tracked> {
    let mut out = Vec::new();
    let broken: Vec<String> = subjects
        .iter()
        .filter(|s| concentration_broken(&s.conditions, s.health.life == Life::Dead))
        .map(|s| s.id.clone())
        .collect();
    for caster in &broken {
        for other in subjects.iter_mut() {
            let ended = other.effects.concentration_ended(caster);
            events(&other.name, ended, &mut out);
            let held: Vec<u32> =
                other.effects.grapples().filter(|(_, by, _)| by == caster).map(|(id, ..)| id).collect();
            for id in held {
                let ended = other.effects.end(id, EndReason::GrapplerIncapacitated);
                events(&other.name, ended.into_iter().collect(), &mut out);
            }
        }
    }
    for subject in subjects.iter_mut() {
        subject.effects.update_conditions(&mut subject.conditions);
    }
    out
}

/// Rounds in a long rest: 8 hours (PHB "Long Rest").
pub const LONG_REST_ROUNDS: u32 = 8 * super::ROUNDS_PER_HOUR;

/// A long rest ends at dawn: timed effects lose 8 hours; each disease advances (SRD 5.1, the
/// save "at the end of each long rest"), gaining or losing exhaustion, recovering, or bringing
/// cackle fever's madness.
pub fn dawn(subjects: &mut [Subject], dice: &mut SeededDice) -> Result<Vec<Tracked>, DiceError> {
    let mut out = Vec::new();
    for subject in subjects.iter_mut() {
        let ended = subject.effects.pass_time(LONG_REST_ROUNDS);
        events(&subject.name, ended, &mut out);
        let diseased: Vec<u32> =
            subject.effects.list.iter().filter(|l| l.effect.disease.is_some()).map(|l| l.id).collect();
        for id in diseased {
            out.extend(disease_dawn(subject, id, dice)?);
        }
    }
    out.extend(follow_up(subjects));
    Ok(out)
}

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

/// A creature exposed to `poison` (a coated weapon's hit, a dose, a cloud): a Constitution save
/// against its DC, then its damage (halved on a success where it says so) through the damage
/// rules, and the effect it leaves (SRD 5.1, "Poisons"; DMG "Poisons").
pub fn expose(
    subjects: &mut [Subject],
    index: usize,
    poison: Poison,
    dice: &mut SeededDice,
) -> Result<Vec<Tracked>, DiceError> {
    let mut out = Vec::new();
    let Some(subject) = subjects.get_mut(index) else { return Ok(out) };
    let roll = subject.roll_save(Ability::Con, dice)?;
    let save = roll.total;
    let success = save >= poison.dc();
    let reason =
        RollReason::EffectSave { effect: poison.name().to_owned(), ability: Ability::Con, dc: poison.dc(), success };
    out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
    let exposure = poison.exposure(save);
    let mut damaged = 0;
    if let Some((notation, halved)) = exposure.damage {
        let roll = dice.roll(notation, RollMode::Normal)?;
        let rolled = if halved { roll.total / 2 } else { roll.total };
        let amount = subject.defenses.apply(rolled, DamageType::Poison).amount;
        let reason = RollReason::Damage {
            of: poison.name().to_owned(),
            to: Some(subject.name.clone()),
            critical: false,
            dealt: Some((amount, DamageType::Poison)),
        };
        out.push(Tracked::Roll { entry: LogEntry::new(&subject.name, reason, roll, subject.hidden) });
        let taken = take_damage(&mut subject.health, &mut subject.conditions, amount, false);
        if taken.amount > 0 {
            out.push(Tracked::Damaged { who: subject.name.clone(), amount: taken.amount, life: taken.life });
            damaged = taken.amount;
        }
    }
    if let Some(effect) = exposure.effect
        && let Ok((_, event)) = subject.effects.give(effect)
    {
        events(&subject.name, vec![event], &mut out);
    }
    if damaged > 0 {
        out.extend(took_damage(subjects, index, damaged, dice)?);
    }
    out.extend(follow_up(subjects));
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
    let d6 = if course.disease == Disease::CackleFever && course.incubating == 0 && save >= course.dc {
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
        let level = (i16::from(subject.exhaustion) + i16::from(dawn.exhaustion)).clamp(0, 6) as u8;
        subject.exhaustion = set_exhaustion(&mut subject.health, level);
        out.push(Tracked::Exhaustion { who: subject.name.clone(), level });
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
        let ended = subject.effects.end(id, EndReason::Cured);
        events(&subject.name, ended.into_iter().collect(), &mut out);
    }
    if dawn.madness {
        let mad = madness::roll(MadnessKind::Indefinite, dice)?;
        out.push(Tracked::Roll {
            entry: LogEntry::new(
                &subject.name,
                RollReason::Table { name: mad.table.table.clone() },
                table_roll(&mad.table),
                subject.hidden,
            ),
        });
        if let Ok((_, event)) = subject.effects.give(mad.effect) {
            events(&subject.name, vec![event], &mut out);
        }
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
        let burning = Effect {
            damage: Some(TurnDamage { dice: "1d6".into(), kind: DamageType::Fire, at: TurnPoint::Start }),
            ..Effect::new("burning", Source::Dm, Duration::Rounds(3))
        };
        all[2].effects.give(burning).expect("valid");
        for name in ["blessed", "blessed"] {
            all[0].effects.give(Effect::new(name, Source::Dm, Duration::Minutes(1))).expect("valid");
        }
        assert_eq!(all[0].effects.applying().filter(|l| l.effect.name == "blessed").count(), 1, "no stacking");
        follow_up(&mut all);
        assert!(all[0].conditions.has(Condition::Frightened));
        assert!(all[1].conditions.has(Condition::Restrained) && all[1].conditions.has(Condition::Grappled));
        let mut log = Vec::new();
        for round in 1..=3 {
            for whose in ["brom", "ghoul", "druid", "ogre"] {
                log.extend(at_turn(&mut all, whose, TurnPoint::Start, &mut dice).expect("rolls"));
                if round == 1 && whose == "ghoul" {
                    log.extend(expose(&mut all, 0, Poison::SerpentVenom, &mut dice).expect("rolls"));
                }
                if round == 2 && whose == "brom" {
                    all[3].conditions.set(Condition::Stunned, true);
                }
                log.extend(at_turn(&mut all, whose, TurnPoint::End, &mut dice).expect("rolls"));
            }
        }
        assert!(ended(&log, "frightened", EndReason::Saved), "{log:#?}");
        assert!(!all[0].conditions.has(Condition::Frightened));
        let concentration = log.iter().find_map(|t| match t {
            Tracked::Roll { entry } if matches!(entry.reason, RollReason::Concentration { .. }) => Some(entry),
            _ => None,
        });
        assert_eq!(concentration.map(|e| e.reason.clone()), Some(RollReason::Concentration { dc: 10, kept: false }));
        assert!(ended(&log, "entangled", EndReason::ConcentrationEnded));
        assert!(!all[1].conditions.has(Condition::Restrained));
        assert!(ended(&log, "grappled", EndReason::GrapplerIncapacitated));
        assert!(!all[1].conditions.has(Condition::Grappled));
        let venom = log.iter().any(|t| {
            matches!(t, Tracked::Roll { entry } if matches!(&entry.reason, RollReason::Damage { of, .. } if of == "Serpent venom"))
        });
        assert!(venom, "the venom's damage is rolled");
        assert!(all[0].health.hp < 40, "and dealt");
        assert!(ended(&log, "burning", EndReason::TimeUp));
    }

    /// SRD 5.1 "Sewer Plague" over three dawns: incubation (here one dawn), then a save each
    /// dawn trading exhaustion; recovery when a success brings it below 1.
    #[test]
    fn a_disease_advances_over_three_dawns() {
        let mut dice = SeededDice::new(3);
        let mut all = vec![subject("brom", 0, 30)];
        all[0].effects.give(Disease::SewerPlague.caught(1)).expect("valid");
        let first = dawn(&mut all, &mut dice).expect("rolls");
        assert_eq!(all[0].exhaustion, 1, "symptoms: {first:?}");
        let second = dawn(&mut all, &mut dice).expect("rolls");
        assert!(second.iter().any(|t| matches!(t, Tracked::Roll { .. })), "a save at the end of the rest");
        assert_eq!(all[0].exhaustion, 0, "a success takes the level away");
        assert!(ended(&second, "Sewer plague", EndReason::Cured));
        let third = dawn(&mut all, &mut dice).expect("rolls");
        assert!(third.is_empty(), "nothing left to advance: {third:?}");
        let mut sick = vec![subject("lia", 0, -30)];
        sick[0].effects.give(Disease::SewerPlague.caught(1)).expect("valid");
        for _ in 0..3 {
            dawn(&mut sick, &mut dice).expect("rolls");
        }
        assert_eq!(sick[0].exhaustion, 3, "one from the symptoms, one from each failure");
    }

    /// PHB "Concentration": a caster keeps up one thing at a time; a new concentration effect of
    /// another name ends the old one on everyone, one of the same name (a spell on two targets)
    /// doesn't.
    #[test]
    fn a_new_concentration_ends_the_old_one() {
        let mut all = vec![subject("pip", 0, 0), subject("ghoul", 0, 0), subject("wight", 0, 0)];
        let held = |name: &str| Effect {
            conditions: vec![Condition::Restrained],
            ..Effect::new(name, Source::Creature("pip".into()), Duration::Concentration)
        };
        give(&mut all, 1, held("held")).expect("valid");
        give(&mut all, 2, held("held")).expect("valid");
        assert_eq!(all[1].effects.list.len() + all[2].effects.list.len(), 2, "one spell on two targets");
        let out = give(&mut all, 2, held("slowed")).expect("valid");
        assert!(ended(&out, "held", EndReason::ConcentrationEnded));
        assert!(all[1].effects.is_empty() && !all[1].conditions.has(Condition::Restrained));
        assert_eq!(all[2].effects.list.iter().map(|l| l.effect.name.as_str()).collect::<Vec<_>>(), vec!["slowed"]);
    }

    /// "Madness Effects": a madness rolled is given as an effect; lesser restoration cures a
    /// short-term one.
    #[test]
    fn a_madness_is_rolled_and_cured() {
        let mut dice = SeededDice::new(5);
        let mut all = vec![subject("brom", 0, 0)];
        let mad = madness::roll(MadnessKind::ShortTerm, &mut dice).expect("rolls");
        all[0].effects.give(mad.effect).expect("valid");
        follow_up(&mut all);
        assert_eq!(all[0].effects.list.len(), 1);
        let cured = all[0].effects.end_where(
            |l| matches!(l.effect.source, Source::Madness(kind) if kind.cured_by(madness::Cure::LesserRestoration)),
            EndReason::Cured,
        );
        assert_eq!(cured.len(), 1);
        follow_up(&mut all);
        assert!(all[0].effects.is_empty());
        assert_eq!(all[0].conditions, Conditions::default());
    }
}
