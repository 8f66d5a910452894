//! Plain data about creatures that several rules read: side, ability modifiers, facing and shield.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

pub use super::ability::{Abilities, Ability, Skill};
use super::conditions::Condition;
use super::grid::{Grid, HexOrientation};
use super::modifiers::RollModifiers;

/// Which side a token fights on. Party and Ally are friends; both are hostile to Enemy;
/// Neutral is hostile to no one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    Party,
    Ally,
    Enemy,
    Neutral,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Party => "Party",
            Side::Ally => "Ally",
            Side::Enemy => "Enemy",
            Side::Neutral => "Neutral",
        }
    }

    /// Whether creatures of these sides are allies: the same side, or the party and its allies.
    pub fn is_allied_with(self, other: Side) -> bool {
        let friendly = |s: Side| matches!(s, Side::Party | Side::Ally);
        self == other || (friendly(self) && friendly(other))
    }

    /// Whether creatures of these sides are hostile to each other.
    pub fn is_hostile_to(self, other: Side) -> bool {
        let friendly = |s: Side| matches!(s, Side::Party | Side::Ally);
        (friendly(self) && other == Side::Enemy) || (self == Side::Enemy && friendly(other))
    }
}

/// An attack or an attack-roll spell: to hit, damage, and its reach or range in feet (normal,
/// and long with disadvantage; PHB "Making an Attack", "Ranged Attacks", "Melee Attacks").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Attack")]
pub struct Attack {
    pub name: String,
    pub bonus: i32,
    /// Dice notation, such as `1d6+2`.
    pub damage: String,
    /// One of the damage types (`rules::health::DamageType`), checked when a scenario loads.
    #[serde(default = "piercing")]
    pub damage_type: String,
    /// A melee attack's reach, or a ranged attack's normal range, in feet: 5 for most melee
    /// weapons, 10 for a glaive or a long-limbed monster.
    #[serde(default = "five_feet")]
    pub range: u32,
    /// Long range in feet, beyond which it can't reach.
    #[serde(default)]
    pub long_range: Option<u32>,
    /// Melee or ranged, weapon or spell: ranged when a long range is given, else melee, unless
    /// written.
    #[serde(default)]
    pub kind: Option<AttackKind>,
    /// The distance in feet within which it can't hit (a mangonel's or trebuchet's stone, DMG
    /// "Siege Equipment": "can't hit targets within 60 feet of it").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_range: Option<u32>,
    /// Hurled in a high arc that "can hit targets behind cover" (DMG "Mangonel"): cover adds
    /// nothing to the target's AC and walls don't stop it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub indirect: bool,
    /// It can target only objects (DMG "Ram": "one object").
    #[serde(default, skip_serializing_if = "is_false")]
    pub objects_only: bool,
    /// Damage a hit deals besides, each of its own type (SRD adult red dragon's Bite: "plus 7
    /// (2d6) fire damage"), doubled on a critical hit as the first is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_damage: Vec<ExtraDamage>,
}

/// Dice of damage of one type, dealt with an attack's first damage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Damage")]
pub struct ExtraDamage {
    pub dice: String,
    pub damage_type: String,
}

fn is_false(flag: &bool) -> bool {
    !flag
}

/// How an attack is made (PHB "Making an Attack": melee or ranged; weapon or spell).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AttackKind {
    Melee,
    Ranged,
    MeleeSpell,
    RangedSpell,
}

impl AttackKind {
    pub fn is_melee(self) -> bool {
        matches!(self, AttackKind::Melee | AttackKind::MeleeSpell)
    }

    /// A weapon attack, made with Strength or Dexterity (PHB "Attack Rolls": "Ability Modifier").
    pub fn is_weapon(self) -> bool {
        matches!(self, AttackKind::Melee | AttackKind::Ranged)
    }

    pub fn name(self) -> &'static str {
        match self {
            AttackKind::Melee => "melee weapon attack",
            AttackKind::Ranged => "ranged weapon attack",
            AttackKind::MeleeSpell => "melee spell attack",
            AttackKind::RangedSpell => "ranged spell attack",
        }
    }
}

impl Attack {
    /// Its kind as written, else ranged when it has a long range and melee when not.
    pub fn kind(&self) -> AttackKind {
        self.kind.unwrap_or(if self.long_range.is_some() { AttackKind::Ranged } else { AttackKind::Melee })
    }

    /// The farthest it reaches, in feet: its long range, else its range or reach.
    pub fn farthest(&self) -> u32 {
        self.long_range.unwrap_or(self.range).max(self.range)
    }

    /// Its reach or range in words: `reach 5 ft`, `range 80/320 ft`.
    pub fn reach_words(&self) -> String {
        let words = match (self.kind().is_melee(), self.long_range) {
            (true, _) => format!("reach {} ft", self.range),
            (false, Some(long)) => format!("range {}/{long} ft", self.range),
            (false, None) => format!("range {} ft", self.range),
        };
        match self.min_range {
            Some(min) => format!("{words} (not within {min} ft)"),
            None => words,
        }
    }
}

fn piercing() -> String {
    "piercing".to_owned()
}

fn five_feet() -> u32 {
    5
}

/// What the rules beyond the map need of a creature: its numbers, skills and saves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    pub name: String,
    pub speed: u32,
    pub ac: i32,
    pub hp: i32,
    pub abilities: Abilities,
    /// Skill bonuses where they differ from the ability modifier (proficiency included).
    pub skills: BTreeMap<Skill, i8>,
    /// Saving throw bonuses where they differ from the ability modifier.
    pub saves: BTreeMap<Ability, i8>,
    /// A ranger, or proficient in Survival (DMG "Escape Factors").
    pub tracker: bool,
    pub attacks: Vec<Attack>,
    pub inspiration: bool,
    /// Levels of exhaustion it starts with.
    pub exhaustion: u8,
    /// Attacks per Attack action and the actions it may take as a bonus action.
    pub turn: crate::rules::economy::TurnOptions,
    /// Darkvision's range in feet, 0 without (SRD "Darkvision").
    #[serde(default)]
    pub darkvision: u32,
    /// The special traits the rules apply (SRD monsters' stat blocks).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub traits: BTreeSet<Trait>,
    /// The conditions it can't be given (a stat block's "Condition Immunities": a ghoul is never
    /// charmed); the DM's hand and the effects both pass it by.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub condition_immunities: BTreeSet<Condition>,
    /// The light it carries (a torch: 20/20), if any.
    #[serde(default)]
    pub light: Option<crate::rules::light::LightSource>,
    /// What its effects in force do to its d20 rolls (`effects::hampered` sets it from them).
    #[serde(default, skip_serializing_if = "RollModifiers::is_empty")]
    pub effects: RollModifiers,
}

/// A monster's special trait that changes a roll the rules make (SRD 5.1 stat blocks;
/// docs/rules.md, "Traits that play").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Trait {
    /// "While in sunlight, [it] has disadvantage on attack rolls, as well as on Wisdom
    /// (Perception) checks that rely on sight" (the kobold's, the drow's).
    SunlightSensitivity,
    /// "[It] has advantage on an attack roll against a creature if at least one of [its] allies is
    /// within 5 feet of the creature and the ally isn't incapacitated" (the kobold's, the wolf's).
    PackTactics,
}

impl Trait {
    pub const ALL: [Trait; 2] = [Trait::SunlightSensitivity, Trait::PackTactics];

    /// Its name in a stat block.
    pub fn name(self) -> &'static str {
        match self {
            Trait::SunlightSensitivity => "Sunlight Sensitivity",
            Trait::PackTactics => "Pack Tactics",
        }
    }
}

/// An ability check, with or without a skill (PHB "Ability Checks", "Skills").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CheckKind {
    Skill(Skill),
    Ability(Ability),
}

impl CheckKind {
    pub fn name(self) -> String {
        match self {
            CheckKind::Skill(skill) => format!("{} ({})", skill.ability().name(), skill.name()),
            CheckKind::Ability(ability) => ability.name().to_owned(),
        }
    }

    /// The ability the check is made with.
    pub fn ability(self) -> Ability {
        match self {
            CheckKind::Skill(skill) => skill.ability(),
            CheckKind::Ability(ability) => ability,
        }
    }
}

impl Sheet {
    /// The bonus to an ability check: the skill's bonus, or the ability's modifier.
    pub fn check_bonus(&self, kind: CheckKind) -> i8 {
        match kind {
            CheckKind::Skill(skill) => self.skill_bonus(skill),
            CheckKind::Ability(ability) => self.abilities.modifier(ability),
        }
    }

    pub fn skill_bonus(&self, skill: Skill) -> i8 {
        self.skills.get(&skill).copied().unwrap_or_else(|| self.abilities.modifier(skill.ability()))
    }

    pub fn save_bonus(&self, ability: Ability) -> i8 {
        self.saves.get(&ability).copied().unwrap_or_else(|| self.abilities.modifier(ability))
    }

    /// Passive Wisdom (Perception): 10 + the Perception bonus (PHB "Passive Checks").
    pub fn passive_perception(&self) -> i32 {
        10 + i32::from(self.skill_bonus(Skill::Perception))
    }
}

/// A compass direction, y south: facings and directions of areas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    North,
    NorthEast,
    East,
    SouthEast,
    South,
    SouthWest,
    West,
    NorthWest,
}

impl Direction {
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// The directions a creature can face on `grid`: one per side of its space (DMG "Optional
    /// Rule: Facing"): the 4 sides of a square, the 6 sides of a hex.
    pub fn facings(grid: Grid) -> &'static [Direction] {
        use Direction::*;
        match grid {
            Grid::Square => &[North, East, South, West],
            Grid::Hex(HexOrientation::PointyTop) => &[NorthEast, East, SouthEast, SouthWest, West, NorthWest],
            Grid::Hex(HexOrientation::FlatTop) => &[North, NorthEast, SouthEast, South, SouthWest, NorthWest],
        }
    }

    /// The angle of the direction in degrees, clockwise from east with y south; on hexes the
    /// diagonal directions point at the hex's sides (60° apart), on squares at 45°.
    pub fn degrees(self, grid: Grid) -> f64 {
        use Direction::*;
        let hex_pointy = matches!(grid, Grid::Hex(HexOrientation::PointyTop));
        let hex_flat = matches!(grid, Grid::Hex(HexOrientation::FlatTop));
        match self {
            East => 0.0,
            SouthEast if hex_pointy => 60.0,
            SouthEast if hex_flat => 30.0,
            SouthEast => 45.0,
            South => 90.0,
            SouthWest if hex_pointy => 120.0,
            SouthWest if hex_flat => 150.0,
            SouthWest => 135.0,
            West => 180.0,
            NorthWest if hex_pointy => 240.0,
            NorthWest if hex_flat => 210.0,
            NorthWest => 225.0,
            North => 270.0,
            NorthEast if hex_pointy => 300.0,
            NorthEast if hex_flat => 330.0,
            NorthEast => 315.0,
        }
    }
}

/// The arm a creature carries its shield on (DMG "Optional Rule: Facing").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ShieldSide {
    Left,
    Right,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostility_is_symmetric_and_neutrals_are_nobodys_foe() {
        let sides = [Side::Party, Side::Ally, Side::Enemy, Side::Neutral];
        for a in sides {
            for b in sides {
                assert_eq!(a.is_hostile_to(b), b.is_hostile_to(a));
            }
            assert!(!a.is_hostile_to(Side::Neutral));
        }
        assert!(Side::Party.is_hostile_to(Side::Enemy));
        assert!(!Side::Party.is_hostile_to(Side::Ally));
    }

    #[test]
    fn each_grid_has_one_facing_per_side_of_a_cell() {
        assert_eq!(Direction::facings(Grid::Square).len(), 4);
        for o in [HexOrientation::PointyTop, HexOrientation::FlatTop] {
            let grid = Grid::Hex(o);
            let facings = Direction::facings(grid);
            assert_eq!(facings.len(), 6);
            let mut angles: Vec<f64> = facings.iter().map(|d| d.degrees(grid)).collect();
            angles.sort_by(f64::total_cmp);
            for pair in angles.windows(2) {
                assert_eq!(pair[1] - pair[0], 60.0, "{o:?}");
            }
        }
    }
}
