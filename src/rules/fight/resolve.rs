//! Rolling an adjudicated attack: the d20 with its advantage or disadvantage, hit, miss or
//! critical hit, and the damage after the target's defenses.
//!
//! PHB "Attack Rolls", "Rolling 1 or 20", "Critical Hits", "Damage Resistance and
//! Vulnerability"; DMG "Monsters and Critical Hits" (002_ce573f1e51986339.txt): with average
//! damage, a critical hit adds all the damage dice rolled to the average.

use serde::Serialize;

use super::adjudicate::{Adjudication, Refusal};
use super::{Fighter, take_damage};
use crate::rules::attack::{Outcome, critical_dice};
use crate::rules::conditions::Conditions;
use crate::rules::dice::{DiceError, DiceRoll, Notation, RollMode, SeededDice};
use crate::rules::health::{Adjusted, DamageTaken, DamageType, Defenses, Health};

/// Why an attack wasn't rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(untagged)]
pub enum RollError {
    #[error("{0}")]
    Refused(Refusal),
    #[error("{0}")]
    Dice(#[from] DiceError),
    #[error("{kind:?} is not a damage type; the types are {}", DamageType::names())]
    NotADamageType { kind: String },
}

/// The damage of a hit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DamageRoll {
    /// The dice rolled (none for average damage on a normal hit).
    pub roll: Option<DiceRoll>,
    /// The average the damage started from, when the attacker deals average damage.
    pub average: Option<i32>,
    /// The damage before the target's defenses.
    pub rolled: i32,
    pub kind: DamageType,
    /// After resistance, vulnerability or immunity.
    pub dealt: Adjusted,
}

/// A rolled attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttackRoll {
    pub roll: DiceRoll,
    /// The d20 that counted.
    pub natural: i32,
    pub total: i32,
    pub ac: i32,
    pub outcome: Outcome,
    pub damage: Option<DamageRoll>,
    /// The attack's damage besides, each of its type (`Attack::extra_damage`), on a hit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<DamageRoll>,
}

impl AttackRoll {
    /// In words: `17 vs AC 13: hit, 7 slashing damage`, and `plus 5 fire` for each extra damage.
    pub fn describe(&self) -> String {
        let words = |d: &DamageRoll, noun: &str| {
            let by = d.dealt.by.map_or_else(String::new, |by| format!(" ({} before {by})", d.rolled));
            format!("{} {}{noun}{by}", d.dealt.amount, d.kind)
        };
        let damage = self.damage.as_ref().map_or_else(String::new, |d| {
            let extra: String = self.extra.iter().map(|e| format!(" plus {}", words(e, ""))).collect();
            format!(", {}{extra}", words(d, " damage"))
        });
        format!("{} vs AC {}: {}{damage}", self.total, self.ac, self.outcome.word())
    }

    /// The damage the target takes, after its defenses: the first and every extra.
    pub fn dealt(&self) -> Option<i32> {
        let first = self.damage.as_ref()?.dealt.amount;
        Some(self.extra.iter().fold(first, |sum, e| sum.saturating_add(e.dealt.amount)))
    }
}

/// Rolls the attack the adjudication allowed: the d20 with its sources' mode, then the damage of
/// a hit (every die twice on a critical hit, or the average plus every die for a creature that
/// deals average damage), then the target's defenses.
pub fn roll_attack(
    ruling: &Adjudication,
    defenses: &Defenses,
    average_damage: bool,
    dice: &mut SeededDice,
) -> Result<AttackRoll, RollError> {
    if let Some(refusal) = &ruling.refusal {
        return Err(RollError::Refused(refusal.clone()));
    }
    let attack = &ruling.attack;
    let roll = dice.roll(&format!("1d20{:+}", attack.bonus), ruling.sources.mode()).map_err(RollError::Dice)?;
    let natural = roll.total - attack.bonus;
    let mut outcome = Outcome::of(natural, roll.total, ruling.ac.total);
    if outcome == Outcome::Hit && ruling.automatic_critical.is_some() {
        outcome = Outcome::Critical;
    }
    let critical = outcome == Outcome::Critical;
    let mut damage_of = |dice_text: &str, type_name: &str| -> Result<DamageRoll, RollError> {
        let kind =
            DamageType::parse(type_name).ok_or_else(|| RollError::NotADamageType { kind: type_name.to_owned() })?;
        let notation = Notation::parse(dice_text).map_err(RollError::Dice)?;
        roll_damage(&notation, critical, average_damage, kind, defenses, dice)
    };
    let (damage, extra) = if outcome.hits() {
        let first = damage_of(&attack.damage, &attack.damage_type)?;
        let extra = attack.extra_damage.iter().map(|e| damage_of(&e.dice, &e.damage_type)).collect::<Result<_, _>>()?;
        (Some(first), extra)
    } else {
        (None, Vec::new())
    };
    Ok(AttackRoll { natural, total: roll.total, ac: ruling.ac.total, roll, outcome, damage, extra })
}

/// What a rolled attack changes, besides the roll: the damage the target takes, the Help it used
/// up (PHB "Help": the advantage is for the ally's next attack roll against the target), and the
/// hiding place it gave away (PHB "Unseen Attackers and Targets": "If you are hidden ... you give
/// away your location when the attack hits or misses"). The map and `query attack --roll` apply
/// the same aftermath.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Aftermath {
    /// The damage after the target's defenses, on a hit.
    pub damage: Option<i32>,
    pub critical: bool,
    /// The attacker had an ally's Help against this target: it is used up.
    pub help_used: bool,
    /// The attacker was hidden: it no longer is.
    pub revealed: bool,
}

impl Aftermath {
    /// The aftermath of `attacker`'s `roll` under `ruling`.
    pub fn of(ruling: &Adjudication, attacker: &Fighter, roll: &AttackRoll) -> Self {
        Self {
            damage: roll.dealt(),
            critical: roll.outcome == Outcome::Critical,
            help_used: attacker.helped_against.as_deref() == Some(ruling.target.as_str()),
            revealed: attacker.hidden.is_some(),
        }
    }

    /// Deals the damage to the target's hit points and conditions, and says what it did.
    pub fn harm(&self, health: &mut Health, conditions: &mut Conditions) -> Option<DamageTaken> {
        self.damage.map(|amount| take_damage(health, conditions, amount, self.critical))
    }

    /// Clears what the attack used up of the attacker: the Help it had, its hiding place.
    pub fn settle(&self, helped_against: &mut Option<String>, hidden: &mut Option<i32>) {
        if self.help_used {
            *helped_against = None;
        }
        if self.revealed {
            *hidden = None;
        }
    }
}

/// Rolls (or averages) the damage of a hit and applies the target's defenses.
pub fn roll_damage(
    notation: &Notation,
    critical: bool,
    average_damage: bool,
    kind: DamageType,
    defenses: &Defenses,
    dice: &mut SeededDice,
) -> Result<DamageRoll, RollError> {
    let average = notation.average().filter(|_| average_damage);
    let (roll, rolled) = match (average, critical) {
        (Some(average), false) => (None, average),
        (Some(average), true) => match notation.dice_only() {
            Some(dice_only) => {
                let roll = dice.roll_notation(&dice_only, RollMode::Normal).map_err(RollError::Dice)?;
                let total = average + roll.total;
                (Some(roll), total)
            }
            None => (None, average),
        },
        (None, _) => {
            let text = if critical { critical_dice(notation.as_str()) } else { notation.as_str().to_owned() };
            let roll = dice.roll(&text, RollMode::Normal).map_err(RollError::Dice)?;
            let total = roll.total;
            (Some(roll), total)
        }
    };
    let rolled = rolled.max(0);
    Ok(DamageRoll { roll, average, rolled, kind, dealt: defenses.apply(rolled, kind) })
}
