//! The scenario file as written: serde structs that refuse unknown fields, before validation.

use std::collections::BTreeMap;

use ron::extensions::Extensions;
use serde::{Deserialize, Serialize};

use super::error::{ScenarioError, ScenarioErrors};
use super::limits::{Limit, limit_of, quoted};
use crate::rules::chase::{ComplicationTable, EscapeFactor};
use crate::rules::conditions::Condition;
use crate::rules::creature::{Abilities, Ability, Attack, Direction, ShieldSide, Side, Skill};
pub use crate::rules::distance::DiagonalRule;
use crate::rules::economy::Action;
use crate::rules::facing::ArcLayout;
pub use crate::rules::fight::DamageMode;
use crate::rules::health::DeathSaves;
use crate::rules::light::{LightLevel, LightSource};
use crate::rules::objects::{Durability, Substance};
use crate::rules::siege::{Readiness, SiegeKind};
use crate::rules::terrain::TileArt;
use crate::rules::{Grid, Size};
use crate::scenario::{ObjectIcon, TableEdge};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scenario")]
pub(super) struct RawScenario {
    pub name: String,
    pub grid: Grid,
    #[serde(default)]
    pub rules: RuleOptions,
    #[serde(default)]
    pub legend: Legend,
    pub map: Vec<String>,
    #[serde(default)]
    pub creatures: Vec<RawCreature>,
    #[serde(default)]
    pub objects: Vec<RawObject>,
    #[serde(default)]
    pub chase: Option<RawChase>,
    /// A map image under the grid.
    #[serde(default)]
    pub background: Option<RawBackground>,
    /// The scene's light where no light reaches.
    #[serde(default)]
    pub light: LightLevel,
    /// Lights fixed to cells of the map.
    #[serde(default)]
    pub lights: Vec<RawLamp>,
}

/// A light fixed to a cell of the map (a sconce, a brazier): bright light out to `bright` feet
/// and dim light `dim` feet beyond.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Light")]
pub(super) struct RawLamp {
    pub at: (i32, i32),
    pub bright: u32,
    #[serde(default)]
    pub dim: u32,
    /// The sun's light (through a grate, a window), not a flame's.
    #[serde(default)]
    pub sunlight: bool,
}

/// A map image under the grid: the file, its pixels per cell, and where the map's first cell's
/// corner falls on it, in the image's pixels.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Background")]
pub(super) struct RawBackground {
    pub image: String,
    pub cell_px: f32,
    #[serde(default)]
    pub offset: (f32, f32),
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
    /// Whether monsters (creatures other than player characters) roll damage or deal their
    /// average (DMG "Monsters and Critical Hits").
    pub monster_damage: DamageMode,
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
        /// The tile its cells are drawn with (`Planks`, `Grass`...).
        #[serde(default)]
        art: Option<TileArt>,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Creature")]
pub(super) struct RawCreature {
    pub id: String,
    /// An SRD stat block its other fields override (`scenario::monsters`): then none of the
    /// fields below is needed but `at`.
    #[serde(default)]
    pub monster: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub side: Option<Side>,
    #[serde(default)]
    pub size: Option<Size>,
    #[serde(default)]
    pub space: Option<u32>,
    pub at: (i32, i32),
    #[serde(default)]
    pub speed: Option<u32>,
    #[serde(default)]
    pub ac: Option<i32>,
    #[serde(default)]
    pub hp: Option<i32>,
    #[serde(default)]
    pub max_hp: Option<i32>,
    #[serde(default)]
    pub abilities: Option<Abilities>,
    #[serde(default)]
    pub facing: Option<Direction>,
    #[serde(default)]
    pub shield: Option<ShieldSide>,
    #[serde(default)]
    pub pc: bool,
    /// The edge of the table its player sits at.
    #[serde(default)]
    pub seat: Option<TableEdge>,
    #[serde(default)]
    pub skills: Option<BTreeMap<Skill, i8>>,
    #[serde(default)]
    pub saves: Option<BTreeMap<Ability, i8>>,
    #[serde(default)]
    pub tracker: bool,
    #[serde(default)]
    pub attacks: Option<Vec<Attack>>,
    #[serde(default)]
    pub inspiration: bool,
    #[serde(default)]
    pub exhaustion: u8,
    #[serde(default)]
    pub conditions: Vec<Condition>,
    #[serde(default)]
    pub resistances: Option<Vec<String>>,
    #[serde(default)]
    pub vulnerabilities: Option<Vec<String>>,
    #[serde(default)]
    pub immunities: Option<Vec<String>>,
    #[serde(default)]
    pub arcs: Option<ArcLayout>,
    #[serde(default)]
    pub temp_hp: i32,
    #[serde(default)]
    pub makes_death_saves: Option<bool>,
    #[serde(default)]
    pub death_saves: Option<DeathSaves>,
    #[serde(default)]
    pub average_damage: Option<bool>,
    #[serde(default)]
    pub attacks_per_action: Option<u8>,
    #[serde(default)]
    pub bonus_actions: Option<Vec<Action>>,
    #[serde(default)]
    pub hidden: bool,
    /// Feet above the ground (on a wall walk).
    #[serde(default)]
    pub elevation: u32,
    /// Darkvision's range in feet.
    #[serde(default)]
    pub darkvision: Option<u32>,
    /// The conditions it can't be given (`[Charmed, Poisoned]`).
    #[serde(default)]
    pub condition_immunities: Option<Vec<Condition>>,
    /// Experience points: a monster's worth, a party member's own.
    #[serde(default)]
    pub xp: Option<u32>,
    /// The special traits the rules apply (`[SunlightSensitivity, PackTactics]`).
    #[serde(default)]
    pub traits: Option<Vec<crate::rules::creature::Trait>>,
    /// The light it carries (a torch: `(bright: 20, dim: 20)`).
    #[serde(default)]
    pub light: Option<LightSource>,
    /// A portrait, relative to the scenario file.
    #[serde(default)]
    pub image: Option<String>,
    /// Effects that last on it when the scene opens (`rules::effects`).
    #[serde(default)]
    pub effects: Vec<crate::rules::effects::Effect>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Object")]
pub(super) struct RawObject {
    pub id: String,
    pub name: String,
    #[serde(default = "neutral")]
    pub side: Side,
    /// Required, except for siege equipment (its stat block gives it).
    #[serde(default)]
    pub size: Option<Size>,
    #[serde(default)]
    pub space: Option<u32>,
    pub at: (i32, i32),
    /// Required unless `substance` or `siege` gives it.
    #[serde(default)]
    pub ac: Option<i32>,
    /// Required unless `durability` or `siege` gives it.
    #[serde(default)]
    pub hp: Option<i32>,
    #[serde(default)]
    pub max_hp: Option<i32>,
    #[serde(default)]
    pub facing: Option<Direction>,
    /// What it is made of: its AC from the DMG's Object Armor Class table.
    #[serde(default)]
    pub substance: Option<Substance>,
    /// Fragile or resilient: its hit points from the Object Hit Points table.
    #[serde(default)]
    pub durability: Option<Durability>,
    /// Its damage threshold (DMG "Damage Threshold").
    #[serde(default)]
    pub threshold: Option<i32>,
    #[serde(default)]
    pub resistances: Vec<String>,
    #[serde(default)]
    pub vulnerabilities: Vec<String>,
    /// Besides poison and psychic, which every object is immune to.
    #[serde(default)]
    pub immunities: Vec<String>,
    #[serde(default)]
    pub elevation: u32,
    /// The light it sheds (a brazier).
    #[serde(default)]
    pub light: Option<LightSource>,
    /// A siege weapon or siege tower (DMG "Siege Equipment").
    #[serde(default)]
    pub siege: Option<SiegeKind>,
    /// How far a siege weapon starts readied.
    #[serde(default)]
    pub state: Option<Readiness>,
    /// A cauldron's 10-foot square "directly below it": its north-west cell.
    #[serde(default)]
    pub pours_on: Option<(i32, i32)>,
    /// A picture, relative to the scenario file.
    #[serde(default)]
    pub image: Option<String>,
    /// An icon (siege equipment has its kind's).
    #[serde(default)]
    pub icon: Option<ObjectIcon>,
}

fn neutral() -> Side {
    Side::Neutral
}

/// The legend's entries as written, in order and with any repeats, for validation to judge.
#[derive(Debug, Default)]
pub(super) struct Legend(pub Vec<(char, RawTerrain)>);

impl<'de> Deserialize<'de> for Legend {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = Legend;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map from characters to terrain, such as { 'T': Wall }")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Legend, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Legend(entries))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

/// Parses the text with `Option` fields written without `Some(...)`.
pub(super) fn parse(file: &str, text: &str) -> Result<RawScenario, ScenarioErrors> {
    let options = ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME);
    options.from_str(text).map_err(|e| {
        let start = e.span.start;
        let position = (start.line > 0).then_some((start.line, start.col.max(1)));
        let place = position.map(|(line, col)| Place::of(text, line, col)).unwrap_or_default();
        ScenarioErrors::one(ScenarioError::at(file, position, plain_sentence(&e.code, &place)))
    })
}

/// Where in the text a parse error is: the field whose value it is in, the field that holds that
/// one (`save` for a `successes`), and the text around it.
#[derive(Debug, Default)]
struct Place<'a> {
    field: Option<String>,
    parent: Option<String>,
    before: &'a str,
    after: &'a str,
}

impl<'a> Place<'a> {
    fn of(text: &'a str, line: usize, col: usize) -> Self {
        let line_start: usize = text.split_inclusive('\n').take(line - 1).map(str::len).sum();
        let offset =
            text[line_start.min(text.len())..].char_indices().nth(col - 1).map_or(text.len(), |(i, _)| line_start + i);
        let (before, after) = text.split_at(offset);
        let field = field_before(before);
        // The field that holds this one: the name before the `(` still open here.
        let mut depth = 0i32;
        let open = before.char_indices().rev().find(|&(_, c)| {
            match c {
                ')' | ']' | '}' => depth += 1,
                '(' | '[' | '{' if depth > 0 => depth -= 1,
                '(' | '[' | '{' => return true,
                _ => {}
            }
            false
        });
        let parent = open.and_then(|(i, _)| field_before(&before[..i]));
        Self { field, parent, before, after }
    }
}

/// The name of the field whose value ends `before` (the last `name:` in it), if any.
fn field_before(before: &str) -> Option<String> {
    let colon = before.rfind(':')?;
    if before[colon..].contains([')', ']', '}']) {
        return None;
    }
    let name = before[..colon].trim_end();
    let start = name.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    let name = &name[start..];
    (!name.is_empty() && name.len() <= 40).then(|| name.to_owned())
}

/// The limit of a number by its field and the field that holds it: a repeated save's
/// `successes` are not death saves, nor a disease's `failures`.
fn limit_in(parent: Option<&str>, field: &str) -> Option<Limit> {
    match (parent, field) {
        (Some("save"), "successes") => Some(Limit { low: 1, high: 10, what: "the successes that end an effect" }),
        (Some("disease"), "failures") => Some(Limit { low: 0, high: 3, what: "a disease's failed saves" }),
        (Some("disease"), "incubating") => Some(Limit { low: 0, high: 30, what: "a disease's dawns of incubation" }),
        (Some("disease"), "incubating_rounds") => {
            Some(Limit { low: 0, high: 14_400, what: "a disease's rounds of incubation (a day)" })
        }
        (Some("disease"), "penalty") => Some(Limit { low: -5, high: 0, what: "sight rot's penalty" }),
        (_, "penalty") => Some(Limit { low: -20, high: 20, what: "a penalty" }),
        (_, "grapple_reach") => Some(Limit { low: 0, high: 1000, what: "a grapple's reach in feet" }),
        _ => limit_of(field),
    }
}

/// The names this file's structs go by, in the words a message gives them.
const RAW_NAMES: [(&str, &str); 6] = [
    ("Scenario", "the scenario"),
    ("Light", "a light"),
    ("Background", "the background"),
    ("Chase", "the chase"),
    ("Creature", "a creature"),
    ("Object", "an object"),
];

/// The built-in terrains of a legend, which take nothing in parentheses.
const BUILT_IN_TERRAINS: [&str; 8] =
    ["Floor", "Wall", "Difficult", "LowObstacle", "Obscuring", "Water", "Rubble", "ArrowSlit"];

/// "expected comma" where a DM wrote something the grammar doesn't take there: a number with a
/// fraction, or parentheses after a name that takes none.
fn unexpected(place: &Place) -> Option<String> {
    let field = place.field.as_deref();
    if place.after.starts_with('.') && place.before.ends_with(|c: char| c.is_ascii_digit()) {
        let whole = place.before.trim_end_matches(|c: char| c.is_ascii_digit());
        let number = &place.before[whole.len()..];
        let fraction: String = place.after.chars().take(12).take_while(|c| *c == '.' || c.is_ascii_digit()).collect();
        let what = field.map_or_else(|| "this value".to_owned(), |f| format!("`{f}`"));
        return Some(format!("{what} takes whole numbers, not {number}{fraction}"));
    }
    if place.after.starts_with('(') {
        let word = place.before.trim_end();
        let start = word.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        let word = &word[start..];
        if BUILT_IN_TERRAINS.contains(&word) {
            return Some(format!(
                "`{word}` is a built-in terrain and takes nothing in (parentheses): for other art or rules write \
                 `Custom(name: \"...\", art: ...)` (docs/scenario-format.md, `legend`)"
            ));
        }
        if !word.is_empty() {
            return Some(format!("`{word}` takes nothing in (parentheses) here"));
        }
    }
    None
}

/// What a value of the kind RON expected looks like, for "`field` takes …".
fn takes(code: &ron::Error) -> Option<&'static str> {
    use ron::Error as E;
    Some(match code {
        E::ExpectedBoolean => "true or false",
        E::ExpectedInteger | E::InvalidIntegerDigit { .. } => "a whole number, such as 30",
        E::ExpectedFloat | E::FloatUnderscore => "a number, such as 1.5",
        E::ExpectedChar => "one character in 'single quotes'",
        E::ExpectedArray => "a list in [brackets]",
        E::ExpectedMap => "a map in {braces}",
        E::ExpectedOption => "a value, or None",
        E::ExpectedUnit => "()",
        E::ExpectedIdentifier => "a name, such as Square or Party (without quotes)",
        E::ExpectedStructLike | E::ExpectedNamedStructLike(_) => "a value in (parentheses)",
        _ => return None,
    })
}

/// RON's error, as a sentence a DM can act on, from where it is (`place`: the field the error is
/// in, and the one that holds it). The sentence names fields as the file writes them, never the
/// program's own types.
fn plain_sentence(code: &ron::Error, place: &Place) -> String {
    use ron::Error as E;
    let field = place.field.as_deref();
    // The field that holds this one, for "missing from" and "(for ...)".
    let within = |field: Option<&str>| field.map(|f| format!("`{f}`"));
    match code {
        E::ExpectedComma if unexpected(place).is_some() => unexpected(place).unwrap_or_default(),
        E::ExpectedDifferentStructName { found, .. } if found.as_str() == "Some" => format!(
            "{} is given once: write its value alone, or in one `Some(...)`",
            within(field).unwrap_or_else(|| "this value".to_owned())
        ),
        E::ExpectedDifferentStructName { found, .. } => format!(
            "{} takes a value in (parentheses), not `{found}(...)`",
            within(field).unwrap_or_else(|| "this value".to_owned())
        ),
        E::IntegerOutOfBounds => match field {
            Some(field) => match limit_in(place.parent.as_deref(), field) {
                Some(limit) => format!("`{field}` is out of range: {}", limit.sentence()),
                None => format!("the number for `{field}` is too large or too small"),
            },
            None => "this number is too large or too small".to_owned(),
        },
        E::SuggestRawIdentifier(word) | E::InvalidIdentifier(word) => format!(
            "{} is not a name this file knows: write names with letters, digits and _, and text in \"quotes\"",
            quoted(word)
        ),
        E::ExpectedString => match field {
            Some(field) => format!("`{field}` is text: write it in \"quotes\""),
            None => "text is written in \"quotes\" here".to_owned(),
        },
        E::ExpectedStructLike if field.is_none() => {
            "the file must start with `Scenario(` (and end with `)`)".to_owned()
        }
        E::NoSuchStructField { expected, found, outer } => {
            // The file's own words for what holds the field: a creature, or the field's name.
            let own = outer.as_deref().and_then(|o| RAW_NAMES.iter().find(|(name, _)| *name == o)).map(|(_, w)| *w);
            let within = own
                .map(str::to_owned)
                .or_else(|| within(place.parent.as_deref()))
                .map(|o| format!(" in {o}"))
                .unwrap_or_default();
            let nearest = expected
                .iter()
                .min_by_key(|name| edit_distance(name, found))
                .filter(|name| edit_distance(name, found) <= name.chars().count().max(found.chars().count()) / 2);
            match (expected.len(), nearest) {
                (0..=12, _) => {
                    format!("unknown field `{found}`{within}; the fields allowed here are {}", list(expected))
                }
                (n, Some(name)) => format!(
                    "unknown field `{found}`{within}: did you mean `{name}`? (docs/scenario-format.md lists all {n})"
                ),
                (n, None) => format!("unknown field `{found}`{within}; docs/scenario-format.md lists the {n} fields"),
            }
        }
        E::MissingStructField { field: missing, .. } => format!(
            "the field `{missing}` is missing{}",
            within(place.parent.as_deref()).map(|o| format!(" from {o}")).unwrap_or_default()
        ),
        E::NoSuchEnumVariant { expected, found, .. } => format!(
            "`{found}` is not one of {}{}",
            list(expected),
            within(field).map(|o| format!(" (for {o})")).unwrap_or_default()
        ),
        E::DuplicateStructField { field, .. } => format!("the field `{field}` is given twice"),
        E::ExpectedDifferentLength { expected, found } => match field {
            Some(field) => format!("`{field}` takes {expected}, not {found} values"),
            None => format!("expected {expected} here, not {found} values"),
        },
        E::InvalidValueForType { expected, found } => match field {
            Some(field) => format!("`{field}` takes {expected}, not {found}"),
            None => format!("expected {expected} here, not {found}"),
        },
        expected if field.is_some() && takes(expected).is_some() => {
            format!("`{}` takes {}", field.unwrap_or_default(), takes(expected).unwrap_or_default())
        }
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

/// The Levenshtein distance between two words, for "did you mean" (short words only: fields).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().take(64).collect(), b.chars().take(64).collect());
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}
