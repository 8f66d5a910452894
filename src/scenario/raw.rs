//! The scenario file as written: serde structs that refuse unknown fields, before validation.

use std::collections::BTreeMap;

use ron::extensions::Extensions;
use serde::{Deserialize, Serialize};

use super::error::{ScenarioError, ScenarioErrors};
use crate::rules::chase::{ComplicationTable, EscapeFactor};
use crate::rules::creature::{Abilities, Ability, Attack, Direction, ShieldSide, Side, Skill};
pub use crate::rules::distance::DiagonalRule;
use crate::rules::{Grid, Size};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scenario")]
pub(super) struct RawScenario {
    pub name: String,
    pub grid: Grid,
    #[serde(default)]
    pub rules: RuleOptions,
    #[serde(default)]
    pub legend: BTreeMap<char, RawTerrain>,
    pub map: Vec<String>,
    #[serde(default)]
    pub creatures: Vec<RawCreature>,
    #[serde(default)]
    pub objects: Vec<RawObject>,
    #[serde(default)]
    pub chase: Option<RawChase>,
}

/// A chase the scene can start (DMG "Chases"): who flees, who pursues, on which table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Chase")]
pub(super) struct RawChase {
    #[serde(default)]
    pub name: Option<String>,
    pub table: RawChaseTable,
    pub quarry: Vec<String>,
    pub pursuers: Vec<String>,
    /// Feet along the route for some participants; the others are placed from the map.
    #[serde(default)]
    pub start: BTreeMap<String, i32>,
    #[serde(default)]
    pub sight: Option<u32>,
    #[serde(default)]
    pub catch_within: Option<u32>,
    #[serde(default)]
    pub escape_factors: Vec<EscapeFactor>,
    #[serde(default)]
    pub local_creature: Option<String>,
}

/// The complication table: one of the DMG's, or the scene's own.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) enum RawChaseTable {
    Urban,
    Wilderness,
    Custom(ComplicationTable),
}

/// The optional rules a scene switches on (DMG "Using Miniatures").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RuleOptions {
    pub diagonals: DiagonalRule,
    pub flanking: bool,
    pub facing: bool,
}

/// A legend entry: a built-in kind, or a terrain described in full.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) enum RawTerrain {
    Floor,
    Difficult,
    Wall,
    LowObstacle,
    Obscuring,
    Water,
    Rubble,
    ArrowSlit,
    Custom {
        name: String,
        #[serde(default)]
        blocks_movement: bool,
        #[serde(default)]
        blocks_sight: bool,
        #[serde(default)]
        blocks_cover: bool,
        #[serde(default)]
        difficult: bool,
        #[serde(default)]
        color: Option<String>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Creature")]
pub(super) struct RawCreature {
    pub id: String,
    pub name: String,
    pub side: Side,
    pub size: Size,
    #[serde(default)]
    pub space: Option<u32>,
    pub at: (i32, i32),
    pub speed: u32,
    pub ac: i32,
    pub hp: i32,
    #[serde(default)]
    pub max_hp: Option<i32>,
    #[serde(default)]
    pub abilities: Abilities,
    #[serde(default)]
    pub facing: Option<Direction>,
    #[serde(default)]
    pub shield: Option<ShieldSide>,
    #[serde(default)]
    pub pc: bool,
    #[serde(default)]
    pub skills: BTreeMap<Skill, i8>,
    #[serde(default)]
    pub saves: BTreeMap<Ability, i8>,
    #[serde(default)]
    pub tracker: bool,
    #[serde(default)]
    pub attacks: Vec<Attack>,
    #[serde(default)]
    pub inspiration: bool,
    #[serde(default)]
    pub exhaustion: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Object")]
pub(super) struct RawObject {
    pub id: String,
    pub name: String,
    #[serde(default = "neutral")]
    pub side: Side,
    pub size: Size,
    #[serde(default)]
    pub space: Option<u32>,
    pub at: (i32, i32),
    pub ac: i32,
    pub hp: i32,
    #[serde(default)]
    pub max_hp: Option<i32>,
    #[serde(default)]
    pub facing: Option<Direction>,
}

fn neutral() -> Side {
    Side::Neutral
}

/// Parses the text with `Option` fields written without `Some(...)`.
pub(super) fn parse(file: &str, text: &str) -> Result<RawScenario, ScenarioErrors> {
    let options = ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME);
    options.from_str(text).map_err(|e| {
        let start = e.span.start;
        let position = (start.line > 0).then_some((start.line, start.col.max(1)));
        ScenarioErrors::one(ScenarioError::at(file, position, plain_sentence(&e.code)))
    })
}

/// RON's error, as a sentence a DM can act on.
fn plain_sentence(code: &ron::Error) -> String {
    use ron::Error as E;
    match code {
        E::NoSuchStructField { expected, found, outer } => format!(
            "unknown field `{found}`{}; the fields allowed here are {}",
            outer.as_ref().map(|o| format!(" in {o}")).unwrap_or_default(),
            list(expected)
        ),
        E::MissingStructField { field, outer } => format!(
            "the field `{field}` is missing{}",
            outer.as_ref().map(|o| format!(" from {o}")).unwrap_or_default()
        ),
        E::NoSuchEnumVariant { expected, found, outer } => format!(
            "`{found}` is not one of {}{}",
            list(expected),
            outer.as_ref().map(|o| format!(" (for {o})")).unwrap_or_default()
        ),
        E::DuplicateStructField { field, .. } => format!("the field `{field}` is given twice"),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => format!("{}{}", first.to_lowercase(), chars.as_str()),
                None => "the file is not valid RON".to_owned(),
            }
        }
    }
}

fn list(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}
