//! Hit points: damage by type against resistances, vulnerabilities and immunities, healing,
//! temporary hit points, dropping to 0 (a monster dies, a player character falls unconscious and
//! makes death saving throws), and "bloodied".
//!
//! PHB chapter 9 "Damage and Healing" (resistance and vulnerability, temporary hit points,
//! dropping to 0, instant death, death saving throws, "Monsters and Death"; the shared rules text
//! names these without quoting them); DMG "Tracking Monster Hit Points"
//! (002_ce573f1e51986339.txt): a monster taken to half its hit points is "bloodied".

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

/// The damage types (PHB chapter 9, "Damage Types").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DamageType {
    Acid,
    Bludgeoning,
    Cold,
    Fire,
    Force,
    Lightning,
    Necrotic,
    Piercing,
    Poison,
    Psychic,
    Radiant,
    Slashing,
    Thunder,
}

impl DamageType {
    pub const ALL: [DamageType; 13] = [
        DamageType::Acid,
        DamageType::Bludgeoning,
        DamageType::Cold,
        DamageType::Fire,
        DamageType::Force,
        DamageType::Lightning,
        DamageType::Necrotic,
        DamageType::Piercing,
        DamageType::Poison,
        DamageType::Psychic,
        DamageType::Radiant,
        DamageType::Slashing,
        DamageType::Thunder,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DamageType::Acid => "acid",
            DamageType::Bludgeoning => "bludgeoning",
            DamageType::Cold => "cold",
            DamageType::Fire => "fire",
            DamageType::Force => "force",
            DamageType::Lightning => "lightning",
            DamageType::Necrotic => "necrotic",
            DamageType::Piercing => "piercing",
            DamageType::Poison => "poison",
            DamageType::Psychic => "psychic",
            DamageType::Radiant => "radiant",
            DamageType::Slashing => "slashing",
            DamageType::Thunder => "thunder",
        }
    }

    /// The type a name gives, in any case (`"Fire"`, `"fire"`).
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(text.trim()))
    }

    /// Every type's name, for messages.
    pub fn names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }
}

impl std::fmt::Display for DamageType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Resistances, vulnerabilities and immunities to damage types.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Defenses {
    pub resistances: BTreeSet<DamageType>,
    pub vulnerabilities: BTreeSet<DamageType>,
    pub immunities: BTreeSet<DamageType>,
    /// An object's damage threshold (DMG "Damage Threshold"): damage from one attack or effect
    /// below it is superficial and takes no hit points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<i32>,
}

/// Damage after a creature's defenses, and which of them changed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Adjusted {
    pub amount: i32,
    /// "resistance", "vulnerability", "resistance and vulnerability", "immunity" or "damage
    /// threshold".
    pub by: Option<&'static str>,
}

impl Defenses {
    pub fn is_empty(&self) -> bool {
        self.resistances.is_empty()
            && self.vulnerabilities.is_empty()
            && self.immunities.is_empty()
            && self.threshold.is_none()
    }

    /// PHB "Damage Resistance and Vulnerability": immunity takes none of the damage; resistance
    /// halves it (rounded down), vulnerability doubles it, both applied after every other
    /// modifier, resistance first; several of the same kind count as one. Then an object's damage
    /// threshold (DMG "Damage Threshold"): the damage taken from one attack or effect, if below
    /// the threshold, is superficial and takes nothing (call: compared after resistance and
    /// vulnerability, since the threshold is on "damage ... it takes").
    pub fn apply(&self, amount: i32, kind: DamageType) -> Adjusted {
        let amount = amount.max(0);
        if self.immunities.contains(&kind) {
            return Adjusted { amount: 0, by: Some("immunity") };
        }
        let (resists, vulnerable) = (self.resistances.contains(&kind), self.vulnerabilities.contains(&kind));
        let halved = if resists { amount / 2 } else { amount };
        let doubled = if vulnerable { halved.saturating_mul(2) } else { halved };
        if self.threshold.is_some_and(|threshold| doubled < threshold) {
            return Adjusted { amount: 0, by: Some("damage threshold") };
        }
        let by = match (resists, vulnerable) {
            (true, true) => Some("resistance and vulnerability"),
            (true, false) => Some("resistance"),
            (false, true) => Some("vulnerability"),
            (false, false) => None,
        };
        Adjusted { amount: doubled, by }
    }

    /// Every defense in words, such as `resists fire; immune to poison`.
    pub fn describe(&self) -> String {
        let list = |set: &BTreeSet<DamageType>| set.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
        [("resists", &self.resistances), ("vulnerable to", &self.vulnerabilities), ("immune to", &self.immunities)]
            .into_iter()
            .filter(|(_, set)| !set.is_empty())
            .map(|(word, set)| format!("{word} {}", list(set)))
            .chain(self.threshold.map(|t| format!("damage threshold {t}")))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Successes and failures of death saving throws (PHB "Death Saving Throws").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeathSaves {
    pub successes: u8,
    pub failures: u8,
}

/// Three of either ends the saving throws.
pub const DEATH_SAVES_TO_END: u8 = 3;

/// A creature's hit points as the players' view tells them: healthy, bloodied, down or dead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outward {
    Healthy,
    Bloodied,
    Down,
    Dead,
}

impl Outward {
    pub fn word(self) -> &'static str {
        match self {
            Outward::Healthy => "healthy",
            Outward::Bloodied => "bloodied",
            Outward::Down => "down",
            Outward::Dead => "dead",
        }
    }
}

/// Whether a creature is up, dying, stable or dead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Life {
    /// Above 0 hit points.
    Up,
    /// At 0 hit points, unconscious and making death saving throws.
    Dying,
    /// At 0 hit points, unconscious, no longer making death saving throws.
    Stable,
    Dead,
}

impl Life {
    pub fn word(self) -> &'static str {
        match self {
            Life::Up => "up",
            Life::Dying => "dying",
            Life::Stable => "stable",
            Life::Dead => "dead",
        }
    }
}

/// A creature's hit points and what follows from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Health {
    pub hp: i32,
    pub max_hp: i32,
    pub temp_hp: i32,
    /// Whether it makes death saving throws at 0 hit points (player characters); if not, it dies
    /// there (PHB "Monsters and Death": "Most DMs have a monster die the instant it drops to 0
    /// hit points").
    pub makes_death_saves: bool,
    pub death_saves: DeathSaves,
    pub life: Life,
    /// Exhaustion of level 4 or more halves the hit point maximum (PHB appendix A,
    /// "Exhaustion"): set by `fight::set_exhaustion`, read by everything that measures against
    /// the maximum ([`Health::max_now`]).
    #[serde(skip_serializing_if = "is_false")]
    pub max_halved: bool,
}

fn is_false(flag: &bool) -> bool {
    !flag
}

/// What one instance of damage did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DamageTaken {
    /// The damage after defenses.
    pub amount: i32,
    /// How much the temporary hit points took.
    pub absorbed: i32,
    /// Hit points lost.
    pub lost: i32,
    pub life_before: Life,
    pub life: Life,
    /// Death saving throw failures it caused (damage at 0 hit points: 1, or 2 from a critical hit).
    pub failures: u8,
    /// Killed outright: damage at 0 hit points of at least the hit point maximum, or damage left
    /// over on dropping to 0 of at least the maximum (PHB "Instant Death").
    pub instant_death: bool,
}

impl DamageTaken {
    /// In words, after the creature's name: `takes 7 damage (2 to temporary hit points): dying`.
    pub fn describe(&self) -> String {
        let absorbed =
            if self.absorbed > 0 { format!(" ({} to temporary hit points)", self.absorbed) } else { String::new() };
        let fate = match (self.life_before, self.life) {
            (_, Life::Dead) if self.instant_death => ": killed outright".to_owned(),
            (before, after) if before != after => format!(": {}", after.word()),
            _ if self.failures > 0 => {
                format!(": {} death save failure{}", self.failures, if self.failures > 1 { "s" } else { "" })
            }
            _ => String::new(),
        };
        format!("takes {} damage{absorbed}{fate}", self.amount)
    }
}

/// A death saving throw's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeathSave {
    Success,
    Failure,
    /// A 1: two failures.
    TwoFailures,
    /// A 20: the creature regains 1 hit point.
    RegainOne,
}

impl DeathSave {
    pub fn word(self) -> &'static str {
        match self {
            DeathSave::Success => "success",
            DeathSave::Failure => "failure",
            DeathSave::TwoFailures => "a 1, two failures",
            DeathSave::RegainOne => "a 20, back with 1 hit point",
        }
    }
}

impl Health {
    /// Hit points as a scenario gives them: at 0 a creature is dead, or dying if it makes death
    /// saves (stable if the scenario says three successes).
    pub fn new(hp: i32, max_hp: i32, makes_death_saves: bool, death_saves: DeathSaves) -> Self {
        let hp = hp.clamp(0, max_hp.max(0));
        let life = match (hp, makes_death_saves) {
            (1.., _) => Life::Up,
            (_, false) => Life::Dead,
            _ if death_saves.failures >= DEATH_SAVES_TO_END => Life::Dead,
            _ if death_saves.successes >= DEATH_SAVES_TO_END => Life::Stable,
            _ => Life::Dying,
        };
        let death_saves = if life == Life::Dying { death_saves } else { DeathSaves::default() };
        Self { hp, max_hp: max_hp.max(0), temp_hp: 0, makes_death_saves, death_saves, life, max_halved: false }
    }

    /// The hit point maximum now: halved (rounded down) while exhaustion of level 4 or more
    /// halves it. Instant death, bloodied, healing and the health bar measure against it.
    pub fn max_now(&self) -> i32 {
        if self.max_halved { self.max_hp / 2 } else { self.max_hp }
    }

    /// The death saves to write in a scenario for this creature, so that [`Health::new`] gives
    /// its life back: its tally while dying, three successes when stable, three failures when a
    /// creature that makes death saves is dead at 0 hit points, none otherwise.
    pub fn death_saves_to_write(&self) -> DeathSaves {
        match self.life {
            Life::Dying => self.death_saves,
            Life::Stable => DeathSaves { successes: DEATH_SAVES_TO_END, failures: 0 },
            Life::Dead if self.makes_death_saves && self.hp == 0 => {
                DeathSaves { successes: 0, failures: DEATH_SAVES_TO_END }
            }
            Life::Up | Life::Dead => DeathSaves::default(),
        }
    }

    /// DMG "Tracking Monster Hit Points": "You can describe a monster taken to half its hit
    /// points as bloodied" (at half or below, and still up).
    pub fn bloodied(&self) -> bool {
        self.life == Life::Up && self.hp.saturating_mul(2) <= self.max_now()
    }

    /// What the players are told of a monster's hit points (DMG "Tracking Monster Hit Points": the
    /// DM describes its state rather than its number).
    pub fn outward(&self) -> Outward {
        match self.life {
            Life::Dead => Outward::Dead,
            Life::Dying | Life::Stable => Outward::Down,
            Life::Up if self.hp == 0 => Outward::Down,
            Life::Up if self.bloodied() => Outward::Bloodied,
            Life::Up => Outward::Healthy,
        }
    }

    /// Deals `amount` (already after defenses); `critical` for a critical hit (two death save
    /// failures at 0 hit points). Temporary hit points take it first (PHB "Temporary Hit Points").
    pub fn take_damage(&mut self, amount: i32, critical: bool) -> DamageTaken {
        let amount = amount.max(0);
        let life_before = self.life;
        let absorbed = amount.min(self.temp_hp);
        self.temp_hp -= absorbed;
        let rest = amount - absorbed;
        let mut taken =
            DamageTaken { amount, absorbed, lost: 0, life_before, life: self.life, failures: 0, instant_death: false };
        if rest == 0 || self.life == Life::Dead {
            return taken;
        }
        if self.hp > 0 {
            taken.lost = rest.min(self.hp);
            let left_over = rest - self.hp;
            self.hp = (self.hp - rest).max(0);
            if self.hp == 0 {
                if !self.makes_death_saves {
                    self.life = Life::Dead;
                } else if left_over >= self.max_now() {
                    self.life = Life::Dead;
                    taken.instant_death = true;
                } else {
                    self.life = Life::Dying;
                    self.death_saves = DeathSaves::default();
                }
            }
        } else if rest >= self.max_now() {
            self.life = Life::Dead;
            taken.instant_death = true;
        } else {
            // PHB "Damage at 0 Hit Points": a death saving throw failure, two from a critical hit;
            // a stable creature starts dying again.
            self.life = Life::Dying;
            taken.failures = if critical { 2 } else { 1 };
            self.add_failures(taken.failures);
        }
        taken.life = self.life;
        taken
    }

    fn add_failures(&mut self, failures: u8) {
        self.death_saves.failures = (self.death_saves.failures + failures).min(DEATH_SAVES_TO_END);
        if self.death_saves.failures >= DEATH_SAVES_TO_END {
            self.life = Life::Dead;
            self.death_saves = DeathSaves::default();
        }
    }

    /// Regains hit points up to the maximum now ([`Health::max_now`]: exhaustion may have halved
    /// it); a creature at 0 comes to (its death saves reset). The dead regain nothing.
    pub fn heal(&mut self, amount: i32) -> i32 {
        if self.life == Life::Dead || amount <= 0 {
            return 0;
        }
        let before = self.hp;
        self.hp = self.hp.saturating_add(amount).min(self.max_now().max(1)).max(self.hp);
        if self.hp > 0 {
            self.life = Life::Up;
            self.death_saves = DeathSaves::default();
        }
        self.hp - before
    }

    /// Temporary hit points don't stack: the creature keeps the larger (PHB "Temporary Hit
    /// Points").
    pub fn give_temp_hp(&mut self, amount: i32) {
        self.temp_hp = self.temp_hp.max(amount.max(0));
    }

    /// A death saving throw with the d20 showing `natural` (PHB "Death Saving Throws"): 10 or
    /// higher succeeds, lower fails; a 1 is two failures, a 20 regains 1 hit point; three
    /// successes make the creature stable, three failures kill it. `None` unless it is dying.
    pub fn death_save(&mut self, natural: i32) -> Option<DeathSave> {
        if self.life != Life::Dying {
            return None;
        }
        let result = match natural {
            20.. => DeathSave::RegainOne,
            10.. => DeathSave::Success,
            2.. => DeathSave::Failure,
            _ => DeathSave::TwoFailures,
        };
        match result {
            DeathSave::RegainOne => {
                self.heal(1);
            }
            DeathSave::Success => {
                self.death_saves.successes += 1;
                if self.death_saves.successes >= DEATH_SAVES_TO_END {
                    self.stabilize();
                }
            }
            DeathSave::Failure => self.add_failures(1),
            DeathSave::TwoFailures => self.add_failures(2),
        }
        Some(result)
    }

    /// Becomes stable: no more death saving throws (three successes, or a successful Medicine
    /// check). Only a dying creature can.
    pub fn stabilize(&mut self) -> bool {
        if self.life != Life::Dying {
            return false;
        }
        self.life = Life::Stable;
        self.death_saves = DeathSaves::default();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pc(hp: i32, max: i32) -> Health {
        Health::new(hp, max, true, DeathSaves::default())
    }

    #[test]
    fn defenses_halve_double_or_stop_damage() {
        let mut d = Defenses::default();
        assert_eq!(d.apply(7, DamageType::Fire), Adjusted { amount: 7, by: None });
        d.resistances.insert(DamageType::Fire);
        assert_eq!(d.apply(7, DamageType::Fire).amount, 3, "rounded down");
        d.vulnerabilities.insert(DamageType::Fire);
        assert_eq!(d.apply(7, DamageType::Fire), Adjusted { amount: 6, by: Some("resistance and vulnerability") });
        d.immunities.insert(DamageType::Fire);
        assert_eq!(d.apply(7, DamageType::Fire).amount, 0);
        assert_eq!(d.apply(7, DamageType::Cold).amount, 7);
        assert_eq!(d.describe(), "resists fire; vulnerable to fire; immune to fire");
        assert_eq!(DamageType::parse(" Slashing"), Some(DamageType::Slashing));
        assert_eq!(DamageType::parse("sharp"), None);
    }

    /// DMG "Damage Threshold": "immunity to all damage unless it takes an amount of damage from a
    /// single attack or effect equal to or greater than its damage threshold, in which case it
    /// takes damage as normal".
    #[test]
    fn a_damage_threshold_stops_superficial_damage() {
        let gate = Defenses { threshold: Some(10), ..Defenses::default() };
        assert_eq!(gate.apply(9, DamageType::Bludgeoning), Adjusted { amount: 0, by: Some("damage threshold") });
        assert_eq!(gate.apply(10, DamageType::Bludgeoning), Adjusted { amount: 10, by: None }, "equal: all of it");
        assert_eq!(gate.apply(27, DamageType::Bludgeoning).amount, 27);
        let resisting = Defenses { resistances: [DamageType::Fire].into(), ..gate.clone() };
        assert_eq!(resisting.apply(19, DamageType::Fire).amount, 0, "halved to 9, then below 10");
        assert_eq!(resisting.apply(20, DamageType::Fire).amount, 10);
        assert_eq!(gate.describe(), "damage threshold 10");
    }

    /// PHB "Monsters and Death": a monster dies at 0 hit points.
    #[test]
    fn a_monster_dies_at_zero() {
        let mut ogre = Health::new(59, 59, false, DeathSaves::default());
        ogre.take_damage(58, false);
        assert_eq!((ogre.hp, ogre.life), (1, Life::Up));
        let taken = ogre.take_damage(10, false);
        assert_eq!((ogre.hp, ogre.life, taken.lost), (0, Life::Dead, 1));
        assert_eq!(ogre.heal(10), 0, "the dead regain nothing");
    }

    /// PHB "Falling Unconscious", "Damage at 0 Hit Points", "Instant Death".
    #[test]
    fn a_player_character_falls_unconscious_and_damage_at_zero_fails_death_saves() {
        let mut brom = pc(5, 31);
        let taken = brom.take_damage(8, false);
        assert_eq!((brom.hp, brom.life, taken.instant_death), (0, Life::Dying, false));
        brom.take_damage(2, false);
        assert_eq!(brom.death_saves.failures, 1);
        brom.take_damage(3, true);
        assert_eq!(brom.life, Life::Dead, "a critical is two failures: three in all");

        let mut lia = pc(6, 18);
        let taken = lia.take_damage(6 + 18, false);
        assert!(taken.instant_death && lia.life == Life::Dead, "damage left over equals the maximum");
        let mut sera = pc(0, 24);
        assert_eq!(sera.life, Life::Dying);
        assert!(sera.take_damage(24, false).instant_death, "at 0, damage of the maximum kills");
    }

    /// PHB "Death Saving Throws": three successes stable, three failures dead, 1 two failures,
    /// 20 regains 1 hit point; both tallies reset on regaining hit points or becoming stable.
    #[test]
    fn death_saving_throws() {
        let mut brom = pc(0, 31);
        assert_eq!(brom.death_save(12), Some(DeathSave::Success));
        assert_eq!(brom.death_save(3), Some(DeathSave::Failure));
        assert_eq!(brom.death_save(10), Some(DeathSave::Success));
        assert_eq!(brom.death_saves, DeathSaves { successes: 2, failures: 1 });
        assert_eq!(brom.death_save(19), Some(DeathSave::Success));
        assert_eq!((brom.life, brom.death_saves), (Life::Stable, DeathSaves::default()));
        assert_eq!(brom.death_save(15), None, "a stable creature rolls no more");
        brom.take_damage(1, false);
        assert_eq!((brom.life, brom.death_saves.failures), (Life::Dying, 1), "damage wakes the dying");

        let mut lia = pc(0, 18);
        lia.death_save(1);
        assert_eq!(lia.death_saves.failures, 2);
        lia.death_save(20);
        assert_eq!((lia.hp, lia.life, lia.death_saves), (1, Life::Up, DeathSaves::default()));

        let mut sera = pc(0, 24);
        sera.death_save(1);
        sera.death_save(9);
        assert_eq!(sera.life, Life::Dead);
    }

    /// PHB "Temporary Hit Points": they take damage first, don't stack, and healing doesn't
    /// restore them.
    #[test]
    fn temporary_hit_points_take_damage_first() {
        let mut brom = pc(20, 31);
        brom.give_temp_hp(5);
        brom.give_temp_hp(3);
        assert_eq!(brom.temp_hp, 5, "the larger is kept");
        let taken = brom.take_damage(8, false);
        assert_eq!((taken.absorbed, taken.lost, brom.hp, brom.temp_hp), (5, 3, 17, 0));
        assert_eq!(brom.heal(100), 14);
        assert_eq!(brom.temp_hp, 0);
    }

    /// DMG "Tracking Monster Hit Points": "a monster taken to half its hit points".
    #[test]
    fn bloodied_at_half() {
        let mut thug = Health::new(32, 32, false, DeathSaves::default());
        thug.take_damage(15, false);
        assert!(!thug.bloodied());
        thug.take_damage(1, false);
        assert!(thug.bloodied(), "16 of 32");
        thug.take_damage(16, false);
        assert!(!thug.bloodied(), "the dead aren't bloodied");
        let odd = Health::new(16, 31, false, DeathSaves::default());
        assert!(!odd.bloodied());
        assert!(Health::new(15, 31, false, DeathSaves::default()).bloodied());
    }

    #[test]
    fn a_scenario_can_start_a_creature_dying_or_stable() {
        let dying = Health::new(0, 10, true, DeathSaves { successes: 1, failures: 2 });
        assert_eq!((dying.life, dying.death_saves.failures), (Life::Dying, 2));
        assert_eq!(Health::new(0, 10, true, DeathSaves { successes: 3, failures: 0 }).life, Life::Stable);
        assert_eq!(Health::new(0, 10, false, DeathSaves::default()).life, Life::Dead);
        assert_eq!(Health::new(-5, 10, false, DeathSaves::default()).hp, 0);
    }

    /// Every life a creature at 0 hit points can have is written as death saves that read back as
    /// the same life (the autosave and Save go through them).
    #[test]
    fn death_saves_written_read_back_as_the_same_life() {
        let mut dying = Health::new(0, 10, true, DeathSaves { successes: 1, failures: 2 });
        let mut stable = Health::new(3, 10, true, DeathSaves::default());
        stable.take_damage(3, false);
        stable.stabilize();
        let dead = Health::new(0, 10, true, DeathSaves { successes: 0, failures: 3 });
        let monster = Health::new(0, 10, false, DeathSaves::default());
        let up = Health::new(4, 10, true, DeathSaves::default());
        dying.death_saves.successes = 2;
        for health in [dying, stable, dead, monster, up] {
            let back = Health::new(health.hp, health.max_hp, health.makes_death_saves, health.death_saves_to_write());
            assert_eq!((back.life, back.death_saves), (health.life, health.death_saves), "{health:?}");
        }
        assert_eq!(stable.life, Life::Stable);
    }
}
