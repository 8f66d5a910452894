//! How lasting effects change d20 rolls: advantage, disadvantage or a bonus (a penalty when
//! negative) on attack rolls, ability checks or saving throws, of some abilities only or of every
//! one, and for checks, maybe only those that rely on sight. DMG chapter 8, "Madness Effects"
//! ("disadvantage on ability checks"; "disadvantage on Wisdom and Charisma checks"); System
//! Reference Document 5.1 "Sight Rot" ("a −1 penalty to attack rolls and ability checks that rely
//! on sight"). Effects carry them as data (`effects::Effect::modifiers`); every roll reads them
//! through [`RollModifiers`], beside what conditions and exhaustion give
//! (`conditions::Rolling::sources`).

use serde::{Deserialize, Serialize};

use super::ability::Ability;
use super::advantage::Sources;

/// The kind of d20 roll a modifier changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RollKind {
    Attacks,
    Checks,
    Saves,
}

impl RollKind {
    pub fn name(self) -> &'static str {
        match self {
            RollKind::Attacks => "attack rolls",
            RollKind::Checks => "ability checks",
            RollKind::Saves => "saving throws",
        }
    }
}

/// What a modifier does to the roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Change {
    Advantage,
    Disadvantage,
    /// Added to the total (a penalty when negative), from −20 to 20.
    Bonus(i32),
}

/// The largest bonus or penalty one modifier may give.
pub const MAX_BONUS: i32 = 20;

/// One way an effect changes a kind of roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollModifier {
    pub on: RollKind,
    /// Only rolls of these abilities; every roll of its kind when empty. An attack roll "involves"
    /// Strength or Dexterity when it is a weapon attack (a call: docs/rules.md, "Effects that
    /// last").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<Ability>,
    /// Only ability checks that rely on sight.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sight: bool,
    pub change: Change,
}

fn is_false(flag: &bool) -> bool {
    !flag
}

/// Why a modifier can't be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModifierError {
    #[error("a bonus of {0}: from -{MAX_BONUS} to {MAX_BONUS}")]
    Bonus(i32),
    #[error("`sight` is for ability checks only, not {0}")]
    SightOnlyForChecks(&'static str),
}

impl RollModifier {
    /// Checks what a file or a user gave.
    pub fn validate(&self) -> Result<(), ModifierError> {
        if let Change::Bonus(n) = self.change
            && !(-MAX_BONUS..=MAX_BONUS).contains(&n)
        {
            return Err(ModifierError::Bonus(n));
        }
        if self.sight && self.on != RollKind::Checks {
            return Err(ModifierError::SightOnlyForChecks(self.on.name()));
        }
        Ok(())
    }

    /// Whether it changes `roll`.
    pub fn applies(&self, roll: D20) -> bool {
        let of = |ability: Ability| self.abilities.is_empty() || self.abilities.contains(&ability);
        match (self.on, roll) {
            (RollKind::Attacks, D20::Attack { weapon }) => {
                self.abilities.is_empty() || (weapon && (of(Ability::Str) || of(Ability::Dex)))
            }
            (RollKind::Checks, D20::Check { ability, sight }) => of(ability) && (sight || !self.sight),
            (RollKind::Saves, D20::Save(ability)) => ability.map_or(self.abilities.is_empty(), of),
            _ => false,
        }
    }

    /// In words: `disadvantage on Wisdom and Charisma checks`, `-1 to ability checks that rely on
    /// sight`.
    pub fn describe(&self) -> String {
        let change = match self.change {
            Change::Advantage => "advantage on".to_owned(),
            Change::Disadvantage => "disadvantage on".to_owned(),
            Change::Bonus(n) => format!("{n:+} to"),
        };
        let rolls = match (self.on, self.abilities.as_slice()) {
            (kind, []) => kind.name().to_owned(),
            (kind, abilities) => {
                let names: Vec<&str> = abilities.iter().map(|a| a.name()).collect();
                let what = match kind {
                    RollKind::Attacks => "attack rolls",
                    RollKind::Checks => "checks",
                    RollKind::Saves => "saving throws",
                };
                format!("{} {what}", names.join(" and "))
            }
        };
        let sight = if self.sight { " that rely on sight" } else { "" };
        format!("{change} {rolls}{sight}")
    }
}

/// A d20 roll, as the modifiers ask of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum D20 {
    /// An attack roll: a weapon attack (it involves Strength or Dexterity) or a spell attack.
    Attack { weapon: bool },
    /// An ability check of `ability`; `sight`: one that relies on sight.
    Check { ability: Ability, sight: bool },
    /// A saving throw of `ability`; `None`: a death saving throw, of no ability.
    Save(Option<Ability>),
}

impl D20 {
    /// A Wisdom (Perception) check to spot a creature, and a passive Perception against a hider:
    /// they rely on sight (SRD 5.1 "Vision and Light": "Wisdom (Perception) checks that rely on
    /// sight").
    pub const PERCEPTION: D20 = D20::Check { ability: Ability::Wis, sight: true };
    /// A Dexterity (Stealth) check: Hide's, a chase's escape.
    pub const STEALTH: D20 = D20::Check { ability: Ability::Dex, sight: false };
    /// Initiative: a Dexterity check (PHB "Initiative").
    pub const INITIATIVE: D20 = D20::Check { ability: Ability::Dex, sight: false };

    /// A check of `ability` that doesn't rely on sight.
    pub fn check(ability: Ability) -> D20 {
        D20::Check { ability, sight: false }
    }
}

/// The modifiers of a creature's effects in force, each with the name of its effect.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RollModifiers(pub Vec<(String, RollModifier)>);

impl RollModifiers {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The advantages and disadvantages the effects give `who`'s `roll`, each named by its
    /// effect (`Lia's long-term madness`).
    pub fn sources(&self, who: &str, roll: D20) -> Sources {
        let mut sources = Sources::default();
        for (effect, modifier) in self.0.iter().filter(|(_, m)| m.applies(roll)) {
            match modifier.change {
                Change::Advantage => sources.advantage(format!("{who}'s {effect}")),
                Change::Disadvantage => sources.disadvantage(format!("{who}'s {effect}")),
                Change::Bonus(_) => {}
            }
        }
        sources
    }

    /// The bonus (a penalty when negative) the effects give `roll`: different effects add up
    /// (DMG "Combining Game Effects": only effects of the same name don't), within ±20.
    pub fn bonus(&self, roll: D20) -> i32 {
        let total: i32 = self
            .0
            .iter()
            .filter(|(_, m)| m.applies(roll))
            .map(|(_, m)| match m.change {
                Change::Bonus(n) => n.clamp(-MAX_BONUS, MAX_BONUS),
                Change::Advantage | Change::Disadvantage => 0,
            })
            .sum();
        total.clamp(-MAX_BONUS, MAX_BONUS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::RollMode;

    fn modifier(on: RollKind, abilities: &[Ability], sight: bool, change: Change) -> RollModifier {
        RollModifier { on, abilities: abilities.to_vec(), sight, change }
    }

    /// DMG "Madness Effects", long-term 21–30: "disadvantage on Wisdom and Charisma checks"; 66–75:
    /// "disadvantage on attack rolls, ability checks, and saving throws that involve Strength or
    /// Dexterity". SRD 5.1 "Sight Rot": "a -1 penalty to attack rolls and ability checks that rely
    /// on sight".
    #[test]
    fn modifiers_change_the_rolls_they_name() {
        let paranoia = modifier(RollKind::Checks, &[Ability::Wis, Ability::Cha], false, Change::Disadvantage);
        assert!(paranoia.applies(D20::PERCEPTION));
        assert!(paranoia.applies(D20::check(Ability::Cha)));
        assert!(!paranoia.applies(D20::STEALTH));
        assert!(!paranoia.applies(D20::Save(Some(Ability::Wis))));
        assert_eq!(paranoia.describe(), "disadvantage on Wisdom and Charisma checks");
        let tremors = modifier(RollKind::Attacks, &[Ability::Str, Ability::Dex], false, Change::Disadvantage);
        assert!(tremors.applies(D20::Attack { weapon: true }));
        assert!(!tremors.applies(D20::Attack { weapon: false }), "a spell attack involves neither");
        let rot = modifier(RollKind::Checks, &[], true, Change::Bonus(-2));
        assert!(rot.applies(D20::PERCEPTION) && !rot.applies(D20::check(Ability::Wis)));
        assert_eq!(rot.describe(), "-2 to ability checks that rely on sight");
        let all = RollModifiers(vec![
            ("long-term madness".into(), paranoia),
            ("Sight rot".into(), rot.clone()),
            ("bane".into(), modifier(RollKind::Checks, &[], false, Change::Bonus(-3))),
        ]);
        assert_eq!(all.sources("Lia", D20::PERCEPTION).mode(), RollMode::Disadvantage);
        assert_eq!(all.sources("Lia", D20::PERCEPTION).describe(), "disadvantage: Lia's long-term madness");
        assert_eq!(all.bonus(D20::PERCEPTION), -5, "different effects add");
        assert_eq!(all.bonus(D20::STEALTH), -3);
        let death = modifier(RollKind::Saves, &[], false, Change::Disadvantage);
        assert!(death.applies(D20::Save(None)), "a death saving throw is a saving throw");
        assert!(!modifier(RollKind::Saves, &[Ability::Dex], false, Change::Disadvantage).applies(D20::Save(None)));
    }

    #[test]
    fn bounds_are_checked() {
        assert_eq!(
            modifier(RollKind::Attacks, &[], false, Change::Bonus(i32::MIN)).validate(),
            Err(ModifierError::Bonus(i32::MIN))
        );
        assert_eq!(
            modifier(RollKind::Saves, &[], true, Change::Disadvantage).validate(),
            Err(ModifierError::SightOnlyForChecks("saving throws"))
        );
        assert_eq!(modifier(RollKind::Checks, &[], true, Change::Bonus(-20)).validate(), Ok(()));
        let many = RollModifiers(vec![("a".into(), modifier(RollKind::Checks, &[], false, Change::Bonus(20))); 3]);
        assert_eq!(many.bonus(D20::STEALTH), 20);
    }
}
