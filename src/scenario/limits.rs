//! The values a number written in a scenario may take, by the field it is written under, and
//! user text as messages quote it: shared by the parser's errors (`raw`) and validation.

use super::MAX_MAP_SIDE;
use crate::rules::light::MAX_LIGHT_FEET;
use crate::rules::size::MAX_SQUARE_SIDE;
use crate::rules::text::escaped;

/// How far from the map's origin a position may be written, in cells, before it is refused
/// outright (the map is at most [`MAX_MAP_SIDE`] cells a side).
const MAX_COORDINATE: i64 = 2 * MAX_MAP_SIDE as i64;

/// How far along a chase's route a place may be set, in feet.
pub(super) const MAX_ROUTE_FEET: i64 = 100_000;

/// The values a number written in a scenario may take, and what it is.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limit {
    pub(super) low: i64,
    pub(super) high: i64,
    pub(super) what: &'static str,
}

impl Limit {
    pub(super) fn sentence(self) -> String {
        format!("{} must be from {} to {}", self.what, self.low, self.high)
    }

    pub(super) fn holds(self, value: i64) -> bool {
        (self.low..=self.high).contains(&value)
    }
}

/// The limit of a number by the field it is written under: one table, for validation and for
/// the parser's "out of range" errors alike.
pub(super) fn limit_of(field: &str) -> Option<Limit> {
    const SKILLS_AND_SAVES: [&str; 24] = [
        "Acrobatics",
        "AnimalHandling",
        "Arcana",
        "Athletics",
        "Deception",
        "History",
        "Insight",
        "Intimidation",
        "Investigation",
        "Medicine",
        "Nature",
        "Perception",
        "Performance",
        "Persuasion",
        "Religion",
        "SleightOfHand",
        "Stealth",
        "Survival",
        "Str",
        "Dex",
        "Con",
        "Int",
        "Wis",
        "Cha",
    ];
    let (low, high, what) = match field {
        "at" => (-MAX_COORDINATE, MAX_COORDINATE, "a position's column and row (the map is at most 500 by 500)"),
        "pours_on" => {
            (-MAX_COORDINATE, MAX_COORDINATE, "the column and row a cauldron pours on (the map is at most 500 by 500)")
        }
        "speed" => (0, 1000, "speed in feet"),
        "ac" => (0, 50, "Armor Class"),
        "hp" | "max_hp" => (0, 100_000, "hit points"),
        "exhaustion" => (0, 5, "exhaustion"),
        "temp_hp" => (0, 100_000, "temporary hit points"),
        "successes" | "failures" => (0, 3, "death saves"),
        "space" => (4, i64::from(MAX_SQUARE_SIDE), "a Gargantuan space's side in squares"),
        "str" | "dex" | "con" | "int" | "wis" | "cha" => (-5, 10, "an ability modifier"),
        "bonus" => (-20, 30, "an attack bonus"),
        "range" | "long_range" => (0, 10_000, "a range in feet"),
        "sight" => (1, MAX_ROUTE_FEET, "sight in feet"),
        "catch_within" => (5, 1000, "the catching distance in feet (a pursuer stops 5 ft behind its quarry)"),
        "start" => (-MAX_ROUTE_FEET, MAX_ROUTE_FEET, "a place along the route in feet"),
        "dc" => (1, 30, "a DC"),
        "attacks_per_action" => (1, 8, "attacks per Attack action"),
        "feet" | "min_move" => (0, 1000, "feet"),
        "threshold" => (0, 1000, "a damage threshold"),
        "elevation" => (0, 1000, "an elevation in feet"),
        "darkvision" => (0, i64::from(MAX_LIGHT_FEET), "darkvision in feet"),
        "xp" => (0, 10_000_000, "experience points"),
        "bright" | "dim" => (0, i64::from(MAX_LIGHT_FEET), "a light's reach in feet"),
        "min_range" => (0, 10_000, "a range in feet"),
        skill if SKILLS_AND_SAVES.contains(&skill) => (-5, 20, "a skill or saving throw bonus"),
        _ => return None,
    };
    Some(Limit { low, high, what })
}

/// User text for a message: escaped (`rules::text`: no control or bidirectional character reaches
/// the terminal), and cut short when long, so a message stays one short line.
pub(super) fn quoted(text: &str) -> String {
    const LONGEST: usize = 40;
    let written = if text.chars().count() <= LONGEST {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(LONGEST).collect();
        format!("{head:?}… ({} characters)", text.chars().count())
    };
    escaped(&written).into_owned()
}
