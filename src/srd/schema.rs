//! The shape of the SRD 5.1 assets (`assets/srd/*.ron`, written by `scripts/srd.py` from 5e-bits'
//! 5e-database): a monster's whole stat block and a spell, as plain data. Names of abilities,
//! skills, sizes and conditions are the rules' own; damage types are lowercase words
//! (`rules::health::DamageType`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::ability::{Ability, Skill};
use crate::rules::conditions::Condition;
use crate::rules::creature::AttackKind;
use crate::rules::size::Size;

/// `assets/srd/monsters.ron`: where the data comes from, and every monster, sorted by index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bestiary {
    pub source: String,
    pub monsters: Vec<Monster>,
}

/// `assets/srd/spells.ron`: where the data comes from, and every spell, sorted by index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spellbook {
    pub source: String,
    pub spells: Vec<Spell>,
}

/// A monster's stat block (SRD 5.1 "Monsters").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Monster {
    /// The dataset's id: lowercase words joined by `-` ("adult-red-dragon").
    pub index: String,
    pub name: String,
    pub size: Size,
    /// Its type and subtype: "humanoid (goblinoid)".
    pub kind: String,
    pub alignment: String,
    pub ac: i32,
    /// What the AC comes from ("natural armor", "leather armor, shield"), or empty.
    pub ac_from: String,
    /// Its average hit points.
    pub hp: i32,
    /// Its hit points as dice ("7d10+21").
    pub hit_dice: String,
    pub speed: Speeds,
    pub scores: Scores,
    /// Saving throw bonuses where it is proficient.
    pub saves: BTreeMap<Ability, i8>,
    /// Skill bonuses where it is proficient.
    pub skills: BTreeMap<Skill, i8>,
    /// Damage types (lowercase) it is vulnerable, resistant or immune to, whatever the source.
    pub vulnerabilities: Vec<String>,
    pub resistances: Vec<String>,
    pub immunities: Vec<String>,
    /// The defences the types above don't say, as the book words them ("bludgeoning, piercing,
    /// and slashing from nonmagical attacks that aren't silvered").
    pub defense_notes: Vec<String>,
    pub condition_immunities: Vec<Condition>,
    /// Immune to exhaustion (not one of the rules' conditions).
    pub exhaustion_immune: bool,
    pub senses: Senses,
    pub languages: String,
    /// Challenge rating as written: "0", "1/8", "1/4", "1/2", "1" … "30".
    pub cr: String,
    pub xp: u32,
    pub proficiency: u8,
    /// Special traits, each with its text.
    pub traits: Vec<Text>,
    /// Every action with its text, as the book lists them.
    pub actions: Vec<Text>,
    /// The actions that are attack rolls, parsed.
    pub attacks: Vec<Attack>,
    pub multiattack: Option<Multiattack>,
    /// The actions that call for a saving throw (breath weapons, gazes), parsed.
    pub save_actions: Vec<SaveAction>,
    pub reactions: Vec<Text>,
    /// Legendary actions it may take per round (0 without any).
    pub legendary_per_round: u8,
    pub legendary: Vec<Text>,
}

/// Speeds in feet, 0 for none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Speeds {
    pub walk: u32,
    pub fly: u32,
    pub swim: u32,
    pub climb: u32,
    pub burrow: u32,
    /// It can hover.
    pub hover: bool,
}

/// The six ability scores (not modifiers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scores {
    pub str: u8,
    pub dex: u8,
    pub con: u8,
    pub int: u8,
    pub wis: u8,
    pub cha: u8,
}

/// Senses' ranges in feet (0 without), and passive Perception.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Senses {
    pub darkvision: u32,
    pub blindsight: u32,
    pub tremorsense: u32,
    pub truesight: u32,
    pub passive_perception: i32,
}

/// A named entry and its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub name: String,
    pub text: String,
}

/// An attack roll action: "Melee Weapon Attack: +4 to hit, reach 5 ft., one target. Hit: 5
/// (1d6 + 2) slashing damage."
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    pub name: String,
    pub kind: AttackKind,
    pub bonus: i32,
    /// Reach (melee) or normal range (ranged), in feet.
    pub range: u32,
    /// A ranged attack's long range in feet.
    pub long_range: Option<u32>,
    /// The first damage: dice ("1d6+2"; "1" for a flat 1), and its type.
    pub damage: String,
    pub damage_type: String,
    /// Damage besides ("plus 7 (2d6) fire damage").
    pub extra: Vec<Damage>,
}

/// Dice of damage of a type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Damage {
    pub dice: String,
    pub damage_type: String,
}

/// Multiattack: its text, and the attacks its Attack action makes, by name, where the text names
/// them ("two with its scimitar": `[("Scimitar", 2)]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Multiattack {
    pub text: String,
    pub attacks: Vec<(String, u8)>,
}

/// An action that calls for a saving throw: a breath weapon, a gaze.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveAction {
    pub name: String,
    pub dc: i32,
    pub ability: Ability,
    /// Its damage, if any.
    pub damage: Vec<Damage>,
    /// Half damage on a success.
    pub half: bool,
    /// The area it fills, if the text gives one.
    pub area: Option<Area>,
    /// The lowest d6 that recharges it ("Recharge 5–6": 5).
    pub recharge: Option<u8>,
    /// Uses as written ("3/Day"), if limited so.
    pub per_day: Option<String>,
    /// Conditions a failed save gives, where the text says so.
    pub conditions: Vec<Condition>,
}

/// An area of effect as a stat block or spell gives it: its shape and size in feet (a line also
/// its width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    pub shape: AreaShape,
    /// A sphere's, cylinder's radius; a cone's or line's length; a cube's side.
    pub size: u32,
    /// A line's width (0 for other shapes).
    pub width: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AreaShape {
    Sphere,
    Cylinder,
    Cone,
    Cube,
    Line,
}

/// A spell (SRD 5.1 "Spells").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    pub index: String,
    pub name: String,
    /// 0 for a cantrip.
    pub level: u8,
    pub school: String,
    pub casting_time: String,
    /// The range as written ("150 feet", "Self (15-foot cone)", "Touch").
    pub range: String,
    /// The range in feet, where it is a distance (Self 0, Touch 5).
    pub range_feet: Option<u32>,
    pub components: String,
    pub duration: String,
    pub concentration: bool,
    pub ritual: bool,
    pub area: Option<Area>,
    /// The saving throw it calls for, and whether a success halves the damage.
    pub save: Option<Ability>,
    pub half: bool,
    /// A spell attack: `RangedSpell` or `MeleeSpell`.
    pub attack: Option<AttackKind>,
    pub damage_type: Option<String>,
    /// Damage by the slot it is cast with (levelled spells), from its own level up.
    pub damage_by_slot: BTreeMap<u8, String>,
    /// Damage by the caster's level (cantrips): the dice from that level on.
    pub damage_by_level: BTreeMap<u8, String>,
    /// Conditions a failed save gives, where the text says so.
    pub conditions: Vec<Condition>,
    /// The target repeats the save at the end of each of its turns.
    pub repeat_save: bool,
    pub classes: Vec<String>,
    /// Its whole text, paragraphs joined by blank lines, "At Higher Levels" included.
    pub text: String,
}
