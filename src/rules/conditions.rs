//! The fourteen conditions and the six levels of exhaustion, as data whose effects the attack
//! adjudicator, saving throws and movement read.
//!
//! PHB appendix A, "Conditions" (the shared rules text names them without quoting the appendix;
//! the effects below are the appendix's); DMG "Using and Tracking Conditions"
//! (002_ce573f1e51986339.txt): conditions are applied on the fly and tracked per creature.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::ability::Ability;
use super::advantage::Sources;
use super::modifiers::{D20, RollModifiers};

/// A condition of PHB appendix A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Condition {
    Blinded,
    Charmed,
    Deafened,
    Frightened,
    Grappled,
    Incapacitated,
    Invisible,
    Paralyzed,
    Petrified,
    Poisoned,
    Prone,
    Restrained,
    Stunned,
    Unconscious,
}

impl Condition {
    pub const ALL: [Condition; 14] = [
        Condition::Blinded,
        Condition::Charmed,
        Condition::Deafened,
        Condition::Frightened,
        Condition::Grappled,
        Condition::Incapacitated,
        Condition::Invisible,
        Condition::Paralyzed,
        Condition::Petrified,
        Condition::Poisoned,
        Condition::Prone,
        Condition::Restrained,
        Condition::Stunned,
        Condition::Unconscious,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Condition::Blinded => "blinded",
            Condition::Charmed => "charmed",
            Condition::Deafened => "deafened",
            Condition::Frightened => "frightened",
            Condition::Grappled => "grappled",
            Condition::Incapacitated => "incapacitated",
            Condition::Invisible => "invisible",
            Condition::Paralyzed => "paralyzed",
            Condition::Petrified => "petrified",
            Condition::Poisoned => "poisoned",
            Condition::Prone => "prone",
            Condition::Restrained => "restrained",
            Condition::Stunned => "stunned",
            Condition::Unconscious => "unconscious",
        }
    }

    /// The condition's effects, as PHB appendix A states them (for a tooltip).
    pub fn effects(self) -> &'static str {
        match self {
            Condition::Blinded => {
                "Can't see; fails any ability check that requires sight. Attack rolls against it have advantage, \
                 and its attack rolls have disadvantage."
            }
            Condition::Charmed => {
                "Can't attack the charmer or target it with harmful abilities or magical effects. The charmer has \
                 advantage on ability checks to interact socially with it."
            }
            Condition::Deafened => "Can't hear; fails any ability check that requires hearing.",
            Condition::Frightened => {
                "Disadvantage on ability checks and attack rolls while the source of its fear is within line of \
                 sight; can't willingly move closer to the source of its fear."
            }
            Condition::Grappled => {
                "Its speed becomes 0, and it can't benefit from any bonus to its speed. Ends if the grappler is \
                 incapacitated or it is moved out of the grappler's reach."
            }
            Condition::Incapacitated => "Can't take actions or reactions.",
            Condition::Invisible => {
                "Impossible to see without special senses; heavily obscured for hiding. Attack rolls against it have \
                 disadvantage, and its attack rolls have advantage."
            }
            Condition::Paralyzed => {
                "Incapacitated; can't move or speak. Automatically fails Strength and Dexterity saving throws. \
                 Attack rolls against it have advantage; any attack that hits it is a critical hit if the attacker \
                 is within 5 feet."
            }
            Condition::Petrified => {
                "Transformed into stone: incapacitated, can't move or speak, unaware of its surroundings. Attack \
                 rolls against it have advantage; automatically fails Strength and Dexterity saving throws; \
                 resistance to all damage; immune to poison and disease."
            }
            Condition::Poisoned => "Disadvantage on attack rolls and ability checks.",
            Condition::Prone => {
                "Its only movement option is to crawl (1 extra foot per foot) unless it stands up, which costs half \
                 its speed. Disadvantage on its attack rolls. An attack roll against it has advantage if the \
                 attacker is within 5 feet, otherwise disadvantage."
            }
            Condition::Restrained => {
                "Its speed becomes 0. Attack rolls against it have advantage, and its attack rolls have \
                 disadvantage. Disadvantage on Dexterity saving throws."
            }
            Condition::Stunned => {
                "Incapacitated; can't move; can speak only falteringly. Automatically fails Strength and Dexterity \
                 saving throws. Attack rolls against it have advantage."
            }
            Condition::Unconscious => {
                "Incapacitated; can't move or speak; unaware of its surroundings; drops what it's holding and falls \
                 prone. Automatically fails Strength and Dexterity saving throws. Attack rolls against it have \
                 advantage; any attack that hits it is a critical hit if the attacker is within 5 feet."
            }
        }
    }

    /// Whether this condition includes the incapacitated condition (PHB appendix A: paralyzed,
    /// petrified, stunned and unconscious creatures are incapacitated).
    fn incapacitates(self) -> bool {
        matches!(
            self,
            Condition::Incapacitated
                | Condition::Paralyzed
                | Condition::Petrified
                | Condition::Stunned
                | Condition::Unconscious
        )
    }

    /// Whether this condition makes the creature's speed 0 (grappled, restrained) or keeps it
    /// from moving (paralyzed, petrified, stunned, unconscious).
    fn stops_movement(self) -> bool {
        matches!(
            self,
            Condition::Grappled
                | Condition::Restrained
                | Condition::Paralyzed
                | Condition::Petrified
                | Condition::Stunned
                | Condition::Unconscious
        )
    }

    /// Whether the creature automatically fails Strength and Dexterity saving throws.
    fn fails_str_and_dex_saves(self) -> bool {
        matches!(self, Condition::Paralyzed | Condition::Petrified | Condition::Stunned | Condition::Unconscious)
    }
}

/// The conditions a creature has, in a fixed order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Conditions(BTreeSet<Condition>);

impl Conditions {
    /// No condition at all.
    pub const NONE: Conditions = Conditions(BTreeSet::new());

    /// The conditions given, each as [`Conditions::set`] gives it (unconscious brings prone).
    pub fn new(conditions: impl IntoIterator<Item = Condition>) -> Self {
        let mut all = Self::default();
        for condition in conditions {
            all.set(condition, true);
        }
        all
    }

    /// Exactly the conditions given, without the prone that falling unconscious brings (what an
    /// effect lists).
    pub fn exactly(conditions: impl IntoIterator<Item = Condition>) -> Self {
        Self(conditions.into_iter().collect())
    }

    /// Whether the creature has `condition`, given or included in another (a paralyzed creature is
    /// incapacitated).
    pub fn has(&self, condition: Condition) -> bool {
        self.0.contains(&condition)
            || (condition == Condition::Incapacitated && self.0.iter().any(|c| c.incapacitates()))
    }

    /// Whether `condition` itself was given (not only included in another).
    pub fn has_exactly(&self, condition: Condition) -> bool {
        self.0.contains(&condition)
    }

    /// Gives or removes a condition. A creature that falls unconscious also falls prone (PHB
    /// appendix A, "Unconscious").
    pub fn set(&mut self, condition: Condition, on: bool) {
        if on {
            self.0.insert(condition);
            if condition == Condition::Unconscious {
                self.0.insert(Condition::Prone);
            }
        } else {
            self.0.remove(&condition);
        }
    }

    /// The conditions given, in order.
    pub fn iter(&self) -> impl Iterator<Item = Condition> + '_ {
        self.0.iter().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The condition that makes the creature incapacitated, if any.
    pub fn incapacitated_by(&self) -> Option<Condition> {
        self.0.iter().copied().find(|c| c.incapacitates())
    }

    /// The condition that keeps the creature from seeing, if any: blinded, or unaware of its
    /// surroundings (unconscious, petrified: PHB appendix A).
    pub fn blinding(&self) -> Option<Condition> {
        [Condition::Blinded, Condition::Unconscious, Condition::Petrified].into_iter().find(|&c| self.has(c))
    }

    /// Whether the creature sees nothing at all.
    pub fn cannot_see(&self) -> bool {
        self.blinding().is_some()
    }

    /// The condition that keeps the creature from moving, if any.
    pub fn immobilized_by(&self) -> Option<Condition> {
        self.0.iter().copied().find(|c| c.stops_movement())
    }

    /// The condition that makes the creature fail a saving throw of `ability` automatically.
    pub fn auto_fail_by(&self, ability: Ability) -> Option<Condition> {
        matches!(ability, Ability::Str | Ability::Dex)
            .then(|| self.0.iter().copied().find(|c| c.fails_str_and_dex_saves()))
            .flatten()
    }
}

/// The level of exhaustion past which a creature dies (PHB appendix A, "Exhaustion": level 6).
pub const DEATH_BY_EXHAUSTION: u8 = 6;

/// The effects of each level of exhaustion (PHB appendix A): they are cumulative.
pub const EXHAUSTION_EFFECTS: [&str; 6] = [
    "disadvantage on ability checks",
    "speed halved",
    "disadvantage on attack rolls and saving throws",
    "hit point maximum halved",
    "speed reduced to 0",
    "death",
];

/// Every effect of exhaustion at `level`, in words (level 3: the first three).
pub fn exhaustion_effects(level: u8) -> &'static [&'static str] {
    &EXHAUSTION_EFFECTS[..usize::from(level.min(DEATH_BY_EXHAUSTION))]
}

/// The level of exhaustion from which a creature has disadvantage on ability checks (PHB
/// appendix A, "Exhaustion": level 1).
pub const EXHAUSTION_HAMPERS_CHECKS: u8 = 1;

/// The level of exhaustion from which a creature has disadvantage on attack rolls and saving
/// throws (PHB appendix A, "Exhaustion": level 3).
pub const EXHAUSTION_HAMPERS_SAVES: u8 = 3;

/// A creature's own state as its d20 rolls read it: its conditions, its exhaustion and what its
/// effects in force do to rolls (`rules::modifiers`), with its name for the sources.
#[derive(Clone, Copy, Debug)]
pub struct Rolling<'a> {
    pub who: &'a str,
    pub conditions: &'a Conditions,
    pub exhaustion: u8,
    pub effects: &'a RollModifiers,
}

impl Rolling<'_> {
    /// What the creature's own state gives its `roll`, every source named. The one definition:
    ///
    /// - **ability checks** (a skill's, initiative's Dexterity check, Hide's Stealth, Search's
    ///   Perception, a chase's checks; a passive score through [`Sources::passive_bonus`]):
    ///   disadvantage while poisoned (PHB appendix A, "Poisoned") or frightened ("Frightened"; the
    ///   source of the fear is not tracked, docs/rules.md), and from exhaustion level 1
    ///   ("Exhaustion");
    /// - **saving throws** (`None`: a death saving throw, of no ability): disadvantage from
    ///   exhaustion level 3, and on Dexterity saving throws while restrained ("Restrained").
    ///   Poisoned gives saving throws nothing; the automatic failures of paralyzed, petrified,
    ///   stunned and unconscious creatures are [`Conditions::auto_fail_by`];
    /// - **attack rolls**: disadvantage while frightened, poisoned, prone or restrained, and from
    ///   exhaustion level 3;
    ///
    /// and, for each, the advantages and disadvantages of its effects ([`RollModifiers::sources`]).
    pub fn sources(&self, roll: D20) -> Sources {
        let mut sources = Sources::default();
        let who = self.who;
        let hampering: &[Condition] = match roll {
            D20::Check { .. } => &[Condition::Frightened, Condition::Poisoned],
            D20::Attack { .. } => {
                &[Condition::Frightened, Condition::Poisoned, Condition::Prone, Condition::Restrained]
            }
            D20::Save(Some(Ability::Dex)) => &[Condition::Restrained],
            D20::Save(_) => &[],
        };
        for &condition in hampering {
            if self.conditions.has(condition) {
                sources.disadvantage(format!("{who} is {}", condition.name()));
            }
        }
        let from = if matches!(roll, D20::Check { .. }) { EXHAUSTION_HAMPERS_CHECKS } else { EXHAUSTION_HAMPERS_SAVES };
        if self.exhaustion >= from {
            sources.disadvantage(format!("{who} has exhaustion {}", self.exhaustion));
        }
        sources.merge(self.effects.sources(who, roll));
        sources
    }

    /// The bonus (a penalty when negative) its effects give `roll` ([`RollModifiers::bonus`]).
    pub fn bonus(&self, roll: D20) -> i32 {
        self.effects.bonus(roll)
    }
}

/// What `who`'s conditions give attack rolls against it (PHB appendix A): advantage while it is
/// blinded, paralyzed, petrified, restrained, stunned or unconscious. (Prone depends on the
/// attacker's distance: the adjudicator's and a chase's own.) The one definition the map's
/// attacks and a chase's read.
pub fn attacked_sources(who: &str, conditions: &Conditions) -> Sources {
    let mut sources = Sources::default();
    for condition in [
        Condition::Blinded,
        Condition::Paralyzed,
        Condition::Petrified,
        Condition::Restrained,
        Condition::Stunned,
        Condition::Unconscious,
    ] {
        if conditions.has(condition) {
            sources.advantage(format!("{who} is {}", condition.name()));
        }
    }
    sources
}

/// No effect changes the roll: for a creature without effects (an object, a chase's newcomer).
pub const NO_EFFECTS: &RollModifiers = &RollModifiers(Vec::new());

/// A creature's speed after its conditions and exhaustion, and why it changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Speed {
    pub feet: u32,
    /// Why the speed is not the creature's own, if it isn't.
    pub reason: Option<String>,
}

/// The speed a creature with `base` feet of walking speed has now: 0 while a condition stops it
/// or at exhaustion 5, halved (rounded down to whole feet) at exhaustion 2.
pub fn speed(base: u32, conditions: &Conditions, exhaustion: u8) -> Speed {
    if let Some(condition) = conditions.immobilized_by() {
        return Speed { feet: 0, reason: Some(format!("{}: speed 0", condition.name())) };
    }
    match exhaustion {
        5.. => Speed { feet: 0, reason: Some(format!("exhaustion {exhaustion}: speed 0")) },
        2.. => Speed { feet: base / 2, reason: Some(format!("exhaustion {exhaustion}: speed halved")) },
        _ => Speed { feet: base, reason: None },
    }
}

/// The hit point maximum at `level` of exhaustion: halved (rounded down) from level 4.
pub fn exhausted_max_hp(max_hp: i32, level: u8) -> i32 {
    if level >= 4 { max_hp / 2 } else { max_hp }
}

/// The movement it costs a prone creature to stand up: half its speed (PHB appendix A, "Prone";
/// PHB "Being Prone"), rounded down to whole feet.
pub fn standing_cost(speed: u32) -> u32 {
    speed / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PHB appendix A: "A paralyzed creature is incapacitated"; likewise petrified, stunned and
    /// unconscious. "An unconscious creature ... falls prone."
    #[test]
    fn some_conditions_include_others() {
        let mut c = Conditions::default();
        assert!(!c.has(Condition::Incapacitated));
        c.set(Condition::Stunned, true);
        assert!(c.has(Condition::Incapacitated));
        assert_eq!(c.incapacitated_by(), Some(Condition::Stunned));
        c.set(Condition::Stunned, false);
        c.set(Condition::Unconscious, true);
        assert!(c.has(Condition::Prone), "falls prone");
        c.set(Condition::Unconscious, false);
        assert!(c.has(Condition::Prone), "and stays prone on waking");
        assert!(!c.has(Condition::Incapacitated));
    }

    /// PHB appendix A, "Grappled" and "Restrained": speed 0; "Exhaustion": level 2 halves speed,
    /// level 5 makes it 0.
    #[test]
    fn speed_after_conditions_and_exhaustion() {
        let none = Conditions::default();
        assert_eq!(speed(30, &none, 0).feet, 30);
        assert_eq!(speed(30, &none, 1).feet, 30);
        assert_eq!(speed(25, &none, 2), Speed { feet: 12, reason: Some("exhaustion 2: speed halved".into()) });
        assert_eq!(speed(30, &none, 5).feet, 0);
        for stop in [Condition::Grappled, Condition::Restrained, Condition::Paralyzed, Condition::Unconscious] {
            let s = speed(30, &Conditions::new([stop]), 0);
            assert_eq!(s.feet, 0, "{stop:?}");
            assert!(s.reason.is_some_and(|r| r.contains(stop.name())));
        }
        for free in [Condition::Prone, Condition::Poisoned, Condition::Blinded, Condition::Frightened] {
            assert_eq!(speed(30, &Conditions::new([free]), 0).feet, 30, "{free:?}");
        }
    }

    #[test]
    fn paralyzed_stunned_and_unconscious_fail_strength_and_dexterity_saves() {
        let c = Conditions::new([Condition::Paralyzed]);
        assert_eq!(c.auto_fail_by(Ability::Dex), Some(Condition::Paralyzed));
        assert_eq!(c.auto_fail_by(Ability::Str), Some(Condition::Paralyzed));
        assert_eq!(c.auto_fail_by(Ability::Wis), None);
        assert_eq!(Conditions::new([Condition::Restrained]).auto_fail_by(Ability::Dex), None);
    }

    #[test]
    fn exhaustion_is_cumulative() {
        assert!(exhaustion_effects(0).is_empty());
        assert_eq!(exhaustion_effects(3).len(), 3);
        assert_eq!(exhaustion_effects(9).last(), Some(&"death"));
        assert_eq!(exhausted_max_hp(31, 3), 31);
        assert_eq!(exhausted_max_hp(31, 4), 15);
        assert_eq!(standing_cost(25), 12);
    }

    /// PHB appendix A, "Poisoned": "disadvantage on attack rolls and ability checks"; "Exhaustion":
    /// level 1 "disadvantage on ability checks", level 3 "disadvantage on attack rolls and saving
    /// throws". Initiative, Hide, Search and a chase's checks read the first; every saving throw,
    /// death saves included, the second.
    #[test]
    fn poison_and_exhaustion_hamper_checks_and_exhaustion_3_saves() {
        use crate::rules::dice::RollMode;
        let none = Conditions::default();
        let poisoned = Conditions::new([Condition::Poisoned]);
        let lia = |conditions, exhaustion| Rolling { who: "Lia", conditions, exhaustion, effects: NO_EFFECTS };
        let check = D20::check(Ability::Dex);
        assert_eq!(lia(&none, 0).sources(check).mode(), RollMode::Normal);
        assert_eq!(lia(&poisoned, 0).sources(check).describe(), "disadvantage: Lia is poisoned");
        assert_eq!(lia(&none, 1).sources(check).describe(), "disadvantage: Lia has exhaustion 1");
        let frightened = Conditions::new([Condition::Frightened]);
        assert_eq!(lia(&frightened, 0).sources(check).mode(), RollMode::Disadvantage);
        assert_eq!(lia(&poisoned, 2).sources(D20::Save(Some(Ability::Con))).mode(), RollMode::Normal);
        assert_eq!(lia(&none, 3).sources(D20::Save(None)).describe(), "disadvantage: Lia has exhaustion 3");
        let restrained = Conditions::new([Condition::Restrained]);
        assert_eq!(lia(&restrained, 0).sources(D20::Save(Some(Ability::Dex))).mode(), RollMode::Disadvantage);
        assert_eq!(lia(&restrained, 0).sources(D20::Save(Some(Ability::Wis))).mode(), RollMode::Normal);
        assert_eq!(lia(&poisoned, 0).sources(D20::Attack { weapon: true }).mode(), RollMode::Disadvantage);
        assert_eq!(lia(&none, 2).sources(D20::Attack { weapon: true }).mode(), RollMode::Normal);
        assert_eq!(lia(&none, 3).sources(D20::Attack { weapon: false }).mode(), RollMode::Disadvantage);
    }

    #[test]
    fn every_condition_has_a_name_and_its_effects() {
        for c in Condition::ALL {
            assert!(!c.name().is_empty() && c.effects().len() > 20, "{c:?}");
        }
    }
}
