//! The six abilities and the skills under them (PHB chapter 7, "Using Ability Scores"): plain
//! names that checks, saving throws and the effects that change them read.

use serde::{Deserialize, Serialize};

/// The six ability modifiers (not scores), as the rules' checks and saves use them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Abilities {
    pub str: i8,
    pub dex: i8,
    pub con: i8,
    pub int: i8,
    pub wis: i8,
    pub cha: i8,
}

/// The six abilities, for checks and saving throws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Ability {
    Str,
    Dex,
    Con,
    Int,
    Wis,
    Cha,
}

impl Ability {
    pub const ALL: [Ability; 6] = [Ability::Str, Ability::Dex, Ability::Con, Ability::Int, Ability::Wis, Ability::Cha];

    /// The three-letter abbreviation, as the command line writes it: `str`, `dex`, ...
    pub fn id(self) -> &'static str {
        match self {
            Ability::Str => "str",
            Ability::Dex => "dex",
            Ability::Con => "con",
            Ability::Int => "int",
            Ability::Wis => "wis",
            Ability::Cha => "cha",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Ability::Str => "Strength",
            Ability::Dex => "Dexterity",
            Ability::Con => "Constitution",
            Ability::Int => "Intelligence",
            Ability::Wis => "Wisdom",
            Ability::Cha => "Charisma",
        }
    }
}

impl Abilities {
    /// The modifier of one ability.
    pub fn modifier(&self, ability: Ability) -> i8 {
        match ability {
            Ability::Str => self.str,
            Ability::Dex => self.dex,
            Ability::Con => self.con,
            Ability::Int => self.int,
            Ability::Wis => self.wis,
            Ability::Cha => self.cha,
        }
    }
}

/// The skills (PHB chapter 7), each under its ability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Skill {
    Acrobatics,
    AnimalHandling,
    Arcana,
    Athletics,
    Deception,
    History,
    Insight,
    Intimidation,
    Investigation,
    Medicine,
    Nature,
    Perception,
    Performance,
    Persuasion,
    Religion,
    SleightOfHand,
    Stealth,
    Survival,
}

impl Skill {
    pub fn ability(self) -> Ability {
        use Skill::*;
        match self {
            Athletics => Ability::Str,
            Acrobatics | SleightOfHand | Stealth => Ability::Dex,
            Arcana | History | Investigation | Nature | Religion => Ability::Int,
            AnimalHandling | Insight | Medicine | Perception | Survival => Ability::Wis,
            Deception | Intimidation | Performance | Persuasion => Ability::Cha,
        }
    }

    pub fn name(self) -> &'static str {
        use Skill::*;
        match self {
            Acrobatics => "Acrobatics",
            AnimalHandling => "Animal Handling",
            Arcana => "Arcana",
            Athletics => "Athletics",
            Deception => "Deception",
            History => "History",
            Insight => "Insight",
            Intimidation => "Intimidation",
            Investigation => "Investigation",
            Medicine => "Medicine",
            Nature => "Nature",
            Perception => "Perception",
            Performance => "Performance",
            Persuasion => "Persuasion",
            Religion => "Religion",
            SleightOfHand => "Sleight of Hand",
            Stealth => "Stealth",
            Survival => "Survival",
        }
    }
}
