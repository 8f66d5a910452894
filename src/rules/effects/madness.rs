//! Madness (DMG chapter 8, "Madness Effects"): short-term madness for 1d10 minutes, long-term
//! for 1d10 × 10 hours, indefinite until cured, each an effect from its table, with what its row
//! does to the rules. Curing it ("Curing Madness") is [`super::Cure`].

use serde::{Deserialize, Serialize};

use super::{Duration, Effect, Source};
use crate::rules::ability::Ability;
use crate::rules::conditions::Condition;
use crate::rules::dice::{DiceError, RollMode, SeededDice};
use crate::rules::modifiers::{Change, RollKind, RollModifier};
use crate::rules::tables::{self, TableRoll};

/// The three kinds of madness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MadnessKind {
    ShortTerm,
    LongTerm,
    Indefinite,
}

impl MadnessKind {
    pub fn name(self) -> &'static str {
        match self {
            MadnessKind::ShortTerm => "short-term madness",
            MadnessKind::LongTerm => "long-term madness",
            MadnessKind::Indefinite => "indefinite madness",
        }
    }
}

/// A madness rolled: the table's roll, the duration's roll, the d4 of long-term 56–65 (blinded or
/// deafened), and the effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Madness {
    pub table: TableRoll,
    pub duration: Option<crate::rules::dice::DiceRoll>,
    pub d4: Option<crate::rules::dice::DiceRoll>,
    pub effect: Effect,
}

/// What a row of a madness table does to the rules, by its d100 result (DMG "Madness Effects"):
/// the conditions it imposes, what it does to d20 rolls, and whether damage ends it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct RowEffects {
    conditions: Vec<Condition>,
    modifiers: Vec<RollModifier>,
    ends_on_damage: bool,
}

fn disadvantage(on: RollKind, abilities: &[Ability]) -> RollModifier {
    RollModifier { on, abilities: abilities.to_vec(), sight: false, change: Change::Disadvantage }
}

/// Short-term 01–20 paralyzed ("the effect ends if the character takes any damage"), 21–30
/// incapacitated, 31–40 frightened, 61–70 disadvantage on ability checks, 81–90 stunned, 91–100
/// unconscious; long-term 11–20 disadvantage on ability checks, 21–30 on Wisdom and Charisma
/// checks, 56–65 blinded (25%) or deafened (75%), read on a d4 (`d4`: 1 blinded, 2–4 deafened),
/// 66–75 disadvantage on attack rolls, ability checks and saving throws that involve Strength or
/// Dexterity, 96–100 unconscious. Long-term 46–55's disadvantages hold only "while more than 30
/// feet from" the lucky charm, which the map doesn't place: the note says so, and the DM gives
/// them as an effect when the charm is away (a call, docs/rules.md).
fn row_effects(kind: MadnessKind, result: u32, d4: Option<i32>) -> RowEffects {
    use MadnessKind::{LongTerm, ShortTerm};
    let conditions = |list: &[Condition]| RowEffects { conditions: list.to_vec(), ..RowEffects::default() };
    let modifiers = |list: Vec<RollModifier>| RowEffects { modifiers: list, ..RowEffects::default() };
    let strength_or_dexterity = [Ability::Str, Ability::Dex];
    match (kind, result) {
        (ShortTerm, 1..=20) => RowEffects { ends_on_damage: true, ..conditions(&[Condition::Paralyzed]) },
        (ShortTerm, 21..=30) => conditions(&[Condition::Incapacitated]),
        (ShortTerm, 31..=40) => conditions(&[Condition::Frightened]),
        (ShortTerm, 61..=70) | (LongTerm, 11..=20) => modifiers(vec![disadvantage(RollKind::Checks, &[])]),
        (ShortTerm, 81..=90) => conditions(&[Condition::Stunned]),
        (ShortTerm, 91..=100) | (LongTerm, 96..=100) => conditions(&[Condition::Unconscious]),
        (LongTerm, 21..=30) => modifiers(vec![disadvantage(RollKind::Checks, &[Ability::Wis, Ability::Cha])]),
        (LongTerm, 56..=65) if d4 == Some(1) => conditions(&[Condition::Blinded]),
        (LongTerm, 56..=65) => conditions(&[Condition::Deafened]),
        (LongTerm, 66..=75) => modifiers(vec![
            disadvantage(RollKind::Attacks, &strength_or_dexterity),
            disadvantage(RollKind::Checks, &strength_or_dexterity),
            disadvantage(RollKind::Saves, &strength_or_dexterity),
        ]),
        _ => RowEffects::default(),
    }
}

/// Rolls a madness of `kind` on its table and for its duration, with the session's dice.
pub fn roll(kind: MadnessKind, dice: &mut SeededDice) -> Result<Madness, DiceError> {
    let all = tables::all().map_err(|e| DiceError::NotRolledOn { table: e.to_string() })?;
    let id = match kind {
        MadnessKind::ShortTerm => "short-term-madness",
        MadnessKind::LongTerm => "long-term-madness",
        MadnessKind::Indefinite => "indefinite-madness",
    };
    let table = tables::find(&all, id).ok_or_else(|| DiceError::NotRolledOn { table: id.to_owned() })?;
    let rolled = table.roll(dice)?;
    let (duration_roll, duration) = match kind {
        MadnessKind::ShortTerm => {
            let roll = dice.roll("1d10", RollMode::Normal)?;
            let minutes = roll.total.max(1) as u32;
            (Some(roll), Duration::Minutes(minutes))
        }
        MadnessKind::LongTerm => {
            let roll = dice.roll("1d10*10", RollMode::Normal)?;
            let hours = roll.total.max(1) as u32;
            (Some(roll), Duration::Hours(hours))
        }
        MadnessKind::Indefinite => (None, Duration::UntilRemoved),
    };
    // "Blinded (25%) or deafened (75%)": a d4, one face in four.
    let d4 = if kind == MadnessKind::LongTerm && (56..=65).contains(&rolled.result) {
        Some(dice.roll("1d4", RollMode::Normal)?)
    } else {
        None
    };
    let row = row_effects(kind, rolled.result, d4.as_ref().map(|r| r.total));
    let mut effect = Effect::new(kind.name(), Source::Madness(kind), duration);
    effect.note = rolled.row.get(1).cloned().unwrap_or_default();
    effect.conditions = row.conditions;
    effect.modifiers = row.modifiers;
    effect.ends_on_damage = row.ends_on_damage;
    Ok(Madness { table: rolled, duration: duration_roll, d4, effect })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Madness Effects": short-term lasts 1d10 minutes, long-term 1d10 × 10 hours, indefinite
    /// until cured; the table's row becomes the effect's note, with its conditions.
    #[test]
    fn each_madness_rolls_its_table_and_its_duration() {
        for seed in 0..40 {
            let short = roll(MadnessKind::ShortTerm, &mut SeededDice::new(seed)).expect("rolls");
            let Duration::Minutes(m) = short.effect.duration else { panic!("minutes") };
            assert!((1..=10).contains(&m));
            assert!(!short.effect.note.is_empty());
            if short.table.result <= 20 {
                assert_eq!(short.effect.conditions, vec![Condition::Paralyzed]);
                assert!(short.effect.ends_on_damage);
            }
            if (81..=90).contains(&short.table.result) {
                assert_eq!(short.effect.conditions, vec![Condition::Stunned]);
            }
            let long = roll(MadnessKind::LongTerm, &mut SeededDice::new(seed)).expect("rolls");
            let Duration::Hours(h) = long.effect.duration else { panic!("hours") };
            assert!(h % 10 == 0 && (10..=100).contains(&h));
            let lasting = roll(MadnessKind::Indefinite, &mut SeededDice::new(seed)).expect("rolls");
            assert_eq!(lasting.effect.duration, Duration::UntilRemoved);
            assert!(lasting.effect.note.starts_with('"'), "a flaw, quoted: {}", lasting.effect.note);
        }
    }

    /// DMG "Madness Effects": the rows that change rolls give their modifiers as data
    /// (short-term 61–70 and long-term 11–20 "disadvantage on ability checks", long-term 21–30 on
    /// Wisdom and Charisma checks, 66–75 on what involves Strength or Dexterity); long-term 56–65
    /// is blinded on a d4's 1 (25%), deafened on 2–4 (75%).
    #[test]
    fn the_rows_that_change_rolls_give_modifiers() {
        use crate::rules::modifiers::{D20, RollModifiers};
        let hallucinations = row_effects(MadnessKind::ShortTerm, 65, None);
        let on = |row: &RowEffects, roll: D20| {
            let all = RollModifiers(row.modifiers.iter().map(|m| ("madness".to_owned(), m.clone())).collect());
            all.sources("Brom", roll).mode()
        };
        assert_eq!(on(&hallucinations, D20::STEALTH), RollMode::Disadvantage);
        assert_eq!(on(&hallucinations, D20::Save(Some(Ability::Dex))), RollMode::Normal);
        assert_eq!(on(&row_effects(MadnessKind::LongTerm, 15, None), D20::PERCEPTION), RollMode::Disadvantage);
        let paranoia = row_effects(MadnessKind::LongTerm, 25, None);
        assert_eq!(on(&paranoia, D20::check(Ability::Cha)), RollMode::Disadvantage);
        assert_eq!(on(&paranoia, D20::check(Ability::Int)), RollMode::Normal);
        let tremors = row_effects(MadnessKind::LongTerm, 70, None);
        for roll in [D20::Attack { weapon: true }, D20::check(Ability::Str), D20::Save(Some(Ability::Dex))] {
            assert_eq!(on(&tremors, roll), RollMode::Disadvantage, "{roll:?}");
        }
        assert_eq!(on(&tremors, D20::Save(Some(Ability::Wis))), RollMode::Normal);
        assert_eq!(row_effects(MadnessKind::LongTerm, 56, Some(1)).conditions, vec![Condition::Blinded]);
        for d4 in 2..=4 {
            assert_eq!(row_effects(MadnessKind::LongTerm, 58, Some(d4)).conditions, vec![Condition::Deafened]);
        }
        assert!(row_effects(MadnessKind::LongTerm, 50, None).modifiers.is_empty(), "the lucky charm: the DM's");
        let mut blinded = 0;
        let mut rolled = 0;
        for seed in 0..4000 {
            let madness = roll(MadnessKind::LongTerm, &mut SeededDice::new(seed)).expect("rolls");
            if (56..=65).contains(&madness.table.result) {
                rolled += 1;
                let d4 = madness.d4.expect("a d4").total;
                assert_eq!(madness.effect.conditions.contains(&Condition::Blinded), d4 == 1);
                blinded += i32::from(d4 == 1);
            }
            assert_eq!(madness.effect.validate(), Ok(()));
        }
        let share = f64::from(blinded) / f64::from(rolled);
        assert!((0.18..0.32).contains(&share), "about a quarter blinded: {blinded} of {rolled}");
    }
}
