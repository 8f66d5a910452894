//! Turns a parsed [`RawScenario`] into a [`Scenario`], or explains every problem found.

use std::collections::{HashMap, HashSet};

use super::error::{ScenarioError, ScenarioErrors};
use super::locate::Locations;
use super::raw::{RawChase, RawChaseTable, RawCreature, RawObject, RawScenario, RawTerrain};
use super::{ChaseSetup, MAX_MAP_SIDE, Scenario, Token, TokenKind};
use crate::rules::chase::{ChaseRules, ComplicationTable, DEFAULT_CATCH_FEET};
use crate::rules::creature::{Abilities, Direction};
use crate::rules::size::{MAX_SQUARE_SIDE, TINY_PER_CELL};
use crate::rules::terrain::{DEFAULT_LEGEND, Terrain, TerrainKind};
use crate::rules::{Cell, Grid, Size, TerrainMap};

/// At most this many problems are reported for one file.
const MAX_REPORTED: usize = 50;

struct Problems<'a> {
    file: &'a str,
    locations: Locations,
    list: Vec<ScenarioError>,
}

impl Problems<'_> {
    /// Records a problem at the value `path` (or the nearest enclosing value), moved `shift`
    /// columns right (to point inside a map row).
    fn add_shifted(&mut self, path: &str, shift: usize, message: String) {
        if self.list.len() < MAX_REPORTED {
            let position = self.locations.nearest(path).map(|(line, col)| (line, col + shift));
            self.list.push(ScenarioError::at(self.file, position, message));
        }
    }

    fn add(&mut self, path: &str, message: String) {
        self.add_shifted(path, 0, message);
    }
}

pub(super) fn validate(file: &str, text: &str, raw: RawScenario) -> Result<Scenario, ScenarioErrors> {
    let mut problems = Problems { file, locations: Locations::of(text), list: Vec::new() };
    if raw.name.trim().is_empty() {
        problems.add("name", "the scenario needs a name".to_owned());
    }
    let legend = legend(&raw, &mut problems);
    let map = terrain_map(&raw, &legend, &mut problems);
    let tokens = tokens(&raw, &mut problems);
    if let Some(map) = &map {
        check_placement(raw.grid, map, &tokens, &mut problems);
    }
    let chase = raw.chase.as_ref().and_then(|c| chase(c, &raw.name, &tokens, &mut problems));
    match (map, problems.list.is_empty()) {
        (Some(map), true) => Ok(Scenario {
            name: raw.name.trim().to_owned(),
            grid: raw.grid,
            rules: raw.rules,
            map,
            tokens: tokens.into_iter().map(|(_, token)| token).collect(),
            chase,
        }),
        _ => Err(ScenarioErrors(problems.list)),
    }
}

/// The default legend with the scenario's own entries over it: character → terrain.
fn legend(raw: &RawScenario, problems: &mut Problems) -> Vec<(char, Terrain)> {
    let mut legend: Vec<(char, Terrain)> =
        DEFAULT_LEGEND.iter().map(|&(c, kind)| (c, Terrain::standard(kind))).collect();
    for (&glyph, entry) in &raw.legend {
        let path = format!("legend.'{glyph}'");
        if glyph.is_whitespace() || glyph == '"' || glyph == '\\' {
            problems.add(
                &path,
                format!("{glyph:?} cannot stand for terrain: use a visible character other than a quote or backslash"),
            );
            continue;
        }
        let terrain = match entry {
            RawTerrain::Floor => Terrain::standard(TerrainKind::Floor),
            RawTerrain::Difficult => Terrain::standard(TerrainKind::Difficult),
            RawTerrain::Wall => Terrain::standard(TerrainKind::Wall),
            RawTerrain::LowObstacle => Terrain::standard(TerrainKind::LowObstacle),
            RawTerrain::Obscuring => Terrain::standard(TerrainKind::Obscuring),
            RawTerrain::Water => Terrain::standard(TerrainKind::Water),
            RawTerrain::Rubble => Terrain::standard(TerrainKind::Rubble),
            RawTerrain::ArrowSlit => Terrain::standard(TerrainKind::ArrowSlit),
            RawTerrain::Custom { name, blocks_movement, blocks_sight, blocks_cover, difficult, color } => {
                let color = match color.as_deref().map(parse_color) {
                    Some(Some(rgb)) => Some(rgb),
                    Some(None) => {
                        problems.add(&path, format!("the colour of `{name}` must be written \"#rrggbb\""));
                        None
                    }
                    None => None,
                };
                Terrain {
                    kind: TerrainKind::Custom,
                    name: name.clone(),
                    blocks_movement: *blocks_movement,
                    blocks_sight: *blocks_sight,
                    blocks_cover: *blocks_cover,
                    difficult: *difficult,
                    color,
                }
            }
        };
        legend.retain(|(c, _)| *c != glyph);
        legend.push((glyph, terrain));
    }
    legend
}

fn parse_color(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 || !hex.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// Builds the terrain map from the rows, checking its size before allocating anything.
fn terrain_map(raw: &RawScenario, legend: &[(char, Terrain)], problems: &mut Problems) -> Option<TerrainMap> {
    let height = raw.map.len();
    let Some(first) = raw.map.first() else {
        problems.add("map", "the map has no rows".to_owned());
        return None;
    };
    let width = first.chars().count();
    if height > MAX_MAP_SIDE || width > MAX_MAP_SIDE {
        problems.add(
            "map",
            format!("the map is {width} by {height} cells; the largest allowed is {MAX_MAP_SIDE} by {MAX_MAP_SIDE}"),
        );
        return None;
    }
    if width == 0 {
        problems.add("map[0]", "the first row of the map is empty".to_owned());
        return None;
    }
    let mut ok = true;
    for (row, text) in raw.map.iter().enumerate() {
        let len = text.chars().count();
        if len != width {
            problems.add(
                &format!("map[{row}]"),
                format!(
                    "row {} of the map has {len} cells but row 1 has {width}: every row must be as long as the first",
                    row + 1
                ),
            );
            ok = false;
        }
    }
    let palette: Vec<Terrain> = legend.iter().map(|(_, t)| t.clone()).collect();
    let mut map = TerrainMap::filled(raw.grid, width as u32, height as u32, palette);
    for (row, text) in raw.map.iter().enumerate() {
        for (col, glyph) in text.chars().enumerate() {
            match legend.iter().position(|(c, _)| *c == glyph) {
                Some(index) => {
                    map.set(raw.grid.from_storage(col as i32, row as i32), index);
                }
                None => {
                    let known: String = legend.iter().map(|(c, _)| *c).collect();
                    problems.add_shifted(
                        &format!("map[{row}]"),
                        col + 1,
                        format!(
                            "{glyph:?} (row {}, column {}) is not in the legend; the legend has {known:?}",
                            row + 1,
                            col + 1
                        ),
                    );
                    ok = false;
                }
            }
        }
    }
    ok.then_some(map)
}

/// Checks each creature and object on its own, and the ids together.
fn tokens(raw: &RawScenario, problems: &mut Problems) -> Vec<(String, Token)> {
    let creatures = raw.creatures.iter().enumerate().map(|(i, c)| (format!("creatures[{i}]"), creature(c)));
    let objects = raw.objects.iter().enumerate().map(|(i, o)| (format!("objects[{i}]"), object(o)));
    let mut seen: HashSet<String> = HashSet::new();
    let mut tokens = Vec::new();
    for (path, token) in creatures.chain(objects) {
        check_token(raw.grid, &path, &token, problems);
        if !seen.insert(token.id.clone()) {
            problems.add(
                &format!("{path}.id"),
                format!("the id {:?} is used twice: every creature and object needs its own", token.id),
            );
        }
        tokens.push((path, token));
    }
    tokens
}

fn creature(c: &RawCreature) -> Token {
    Token {
        id: c.id.clone(),
        name: c.name.clone(),
        kind: TokenKind::Creature,
        side: c.side,
        size: c.size,
        square_side: c.space,
        anchor: Cell::new(c.at.0, c.at.1),
        speed: c.speed,
        ac: c.ac,
        hp: c.hp,
        max_hp: c.max_hp.unwrap_or(c.hp),
        abilities: c.abilities,
        facing: c.facing,
        shield: c.shield,
        player_character: c.pc,
        skills: c.skills.clone(),
        saves: c.saves.clone(),
        tracker: c.tracker,
        attacks: c.attacks.clone(),
        inspiration: c.inspiration,
        exhaustion: c.exhaustion,
    }
}

fn object(o: &RawObject) -> Token {
    Token {
        id: o.id.clone(),
        name: o.name.clone(),
        kind: TokenKind::Object,
        side: o.side,
        size: o.size,
        square_side: o.space,
        anchor: Cell::new(o.at.0, o.at.1),
        speed: 0,
        ac: o.ac,
        hp: o.hp,
        max_hp: o.max_hp.unwrap_or(o.hp),
        abilities: Abilities::default(),
        facing: o.facing,
        shield: None,
        player_character: false,
        skills: Default::default(),
        saves: Default::default(),
        tracker: false,
        attacks: Vec::new(),
        inspiration: false,
        exhaustion: 0,
    }
}

fn check_token(grid: Grid, path: &str, token: &Token, problems: &mut Problems) {
    let who = if token.name.is_empty() { token.id.clone() } else { token.name.clone() };
    if token.id.is_empty() || !token.id.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_')) {
        problems.add(
            &format!("{path}.id"),
            format!("the id {:?} must be letters, digits, '-' or '_' (it is typed on the command line)", token.id),
        );
    }
    if let Some(side) = token.square_side {
        if token.size != Size::Gargantuan || grid.is_hex() {
            problems.add(
                &format!("{path}.space"),
                format!("{who}: `space` sets a larger square space for a Gargantuan creature on squares only"),
            );
        } else if !(4..=MAX_SQUARE_SIDE).contains(&side) {
            problems.add(
                &format!("{path}.space"),
                format!("{who}: a Gargantuan space is 4 to {MAX_SQUARE_SIDE} squares wide, not {side}"),
            );
        }
    }
    let limits: [(&str, i64, i64, i64); 3] = [
        ("speed", i64::from(token.speed), 0, 1000),
        ("ac", i64::from(token.ac), 0, 50),
        ("hp", i64::from(token.hp), 0, 100_000),
    ];
    for (field, value, low, high) in limits {
        if !(low..=high).contains(&value) {
            problems.add(
                &format!("{path}.{field}"),
                format!("{who}: {field} must be between {low} and {high}, not {value}"),
            );
        }
    }
    if token.max_hp < token.hp || token.max_hp > 100_000 {
        problems.add(
            &format!("{path}.max_hp"),
            format!("{who}: max_hp must be at least hp ({}) and at most 100000", token.hp),
        );
    }
    if token.exhaustion > 5 {
        problems.add(
            &format!("{path}.exhaustion"),
            format!("{who}: exhaustion runs from 0 to 5, not {}", token.exhaustion),
        );
    }
    if token.skills.values().chain(token.saves.values()).any(|b| !(-5..=20).contains(b)) {
        problems.add(&format!("{path}.skills"), format!("{who}: skill and save bonuses run from -5 to +20"));
    }
    for (i, attack) in token.attacks.iter().enumerate() {
        if let Err(e) =
            crate::rules::dice::SeededDice::new(0).roll(&attack.damage, crate::rules::dice::RollMode::Normal)
        {
            problems.add(&format!("{path}.attacks[{i}].damage"), format!("{who}'s {}: {e}", attack.name));
        }
        if attack.long_range.is_some_and(|long| long < attack.range) {
            problems.add(
                &format!("{path}.attacks[{i}].long_range"),
                format!("{who}'s {}: the long range must be at least the normal range", attack.name),
            );
        }
    }
    let a = token.abilities;
    if [a.str, a.dex, a.con, a.int, a.wis, a.cha].iter().any(|m| !(-5..=10).contains(m)) {
        problems.add(&format!("{path}.abilities"), format!("{who}: ability modifiers run from -5 to +10"));
    }
    if let Some(facing) = token.facing {
        let allowed = Direction::facings(grid);
        if !allowed.contains(&facing) {
            let names: Vec<String> = allowed.iter().map(|d| format!("{d:?}")).collect();
            problems.add(
                &format!("{path}.facing"),
                format!(
                    "{who} cannot face {facing:?} on a {} grid; a creature faces a side of its space: {}",
                    grid.name(),
                    names.join(", ")
                ),
            );
        }
    }
}

/// Every space on the map, on open ground, and not overlapping another (Tiny ones may share a
/// cell, four at most: DMG table Creature Size and Space).
fn check_placement(grid: Grid, map: &TerrainMap, tokens: &[(String, Token)], problems: &mut Problems) {
    let mut occupants: HashMap<Cell, Vec<usize>> = HashMap::new();
    for (i, (path, token)) in tokens.iter().enumerate() {
        let at = format!("{path}.at");
        let cells = token.cells(grid);
        if let Some(off) = cells.iter().find(|c| !map.contains(**c)) {
            let (cols, rows) = (map.width(), map.height());
            problems.add(
                &at,
                format!(
                    "{} at {} is off the map: its space includes {off}, outside the {cols} by {rows} map",
                    token.name, token.anchor
                ),
            );
            continue;
        }
        if let Some((cell, terrain)) =
            cells.iter().find_map(|c| map.terrain(*c).filter(|t| t.blocks_movement).map(|t| (c, t)))
        {
            problems.add(&at, format!("{} at {} stands inside {} at {cell}", token.name, token.anchor, terrain.name));
            continue;
        }
        for cell in cells {
            occupants.entry(cell).or_default().push(i);
        }
    }
    let mut reported: HashSet<(usize, usize)> = HashSet::new();
    let mut cells: Vec<_> = occupants.into_iter().filter(|(_, o)| o.len() > 1).collect();
    cells.sort();
    for (cell, here) in cells {
        let all_tiny = here.iter().all(|&i| tokens[i].1.size == Size::Tiny);
        if all_tiny && here.len() <= TINY_PER_CELL {
            continue;
        }
        if all_tiny {
            let (path, token) = &tokens[here[TINY_PER_CELL]];
            problems.add(
                &format!("{path}.at"),
                format!(
                    "{} would be the fifth Tiny creature in {cell}: at most {TINY_PER_CELL} share a cell",
                    token.name
                ),
            );
            continue;
        }
        let first = here[0];
        for &other in &here[1..] {
            if reported.insert((first, other)) {
                let (path, token) = &tokens[other];
                problems.add(
                    &format!("{path}.at"),
                    format!("{}'s space overlaps {}'s at {cell}", token.name, tokens[first].1.name),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_color;

    #[test]
    fn colours_are_hash_rrggbb() {
        assert_eq!(parse_color("#ff8000"), Some([255, 128, 0]));
        assert_eq!(parse_color("ff8000"), None);
        assert_eq!(parse_color("#ff80"), None);
        assert_eq!(parse_color("#gg0000"), None);
        assert_eq!(parse_color("#ééé"), None);
    }
}

/// Checks the scene's chase: its participants are creatures of the scene, each on one side, its
/// table covers the d20, and the local creature waits outside the chase.
fn chase(raw: &RawChase, scene: &str, tokens: &[(String, Token)], problems: &mut Problems) -> Option<ChaseSetup> {
    let before = problems.list.len();
    let creature = |id: &str| tokens.iter().any(|(_, t)| t.id == id && t.kind == TokenKind::Creature);
    for (field, ids) in [("quarry", &raw.quarry), ("pursuers", &raw.pursuers)] {
        if ids.is_empty() {
            problems.add(&format!("chase.{field}"), format!("a chase needs at least one creature in `{field}`"));
        }
        for (i, id) in ids.iter().enumerate() {
            if !creature(id) {
                problems
                    .add(&format!("chase.{field}[{i}]"), format!("{id:?} is not the id of a creature in this scene"));
            }
        }
    }
    if let Some(both) = raw.quarry.iter().find(|id| raw.pursuers.contains(id)) {
        problems.add("chase.pursuers", format!("{both:?} can't be both quarry and pursuer"));
    }
    let in_chase = |id: &String| raw.quarry.contains(id) || raw.pursuers.contains(id);
    for id in raw.start.keys() {
        if !in_chase(id) {
            problems.add("chase.start", format!("{id:?} has a start but is not in the chase"));
        }
    }
    let table = match &raw.table {
        RawChaseTable::Urban => ComplicationTable::urban(),
        RawChaseTable::Wilderness => ComplicationTable::wilderness(),
        RawChaseTable::Custom(table) => {
            if let Err(e) = table.validate() {
                problems.add("chase.table", format!("the table {:?}: {e}", table.name));
            }
            table.clone()
        }
    };
    if raw.sight == Some(0) {
        problems.add(
            "chase.sight",
            "sight is in feet and must be more than 0 (leave it out for always in sight)".to_owned(),
        );
    }
    let local_creature = raw.local_creature.as_ref().and_then(|id| {
        let token = tokens.iter().map(|(_, t)| t).find(|t| t.id == *id && t.kind == TokenKind::Creature);
        match token {
            Some(_) if in_chase(id) => {
                problems.add(
                    "chase.local_creature",
                    format!("{id:?} is already in the chase; the local creature joins later"),
                );
                None
            }
            Some(token) => Some((token.id.clone(), token.sheet())),
            None => {
                problems.add("chase.local_creature", format!("{id:?} is not the id of a creature in this scene"));
                None
            }
        }
    });
    (problems.list.len() == before).then(|| ChaseSetup {
        name: raw.name.clone().unwrap_or_else(|| format!("Chase: {}", scene.trim())),
        rules: ChaseRules {
            table,
            sight_feet: raw.sight,
            catch_feet: raw.catch_within.unwrap_or(DEFAULT_CATCH_FEET),
            escape_factors: raw.escape_factors.clone(),
            local_creature,
        },
        quarry: raw.quarry.clone(),
        pursuers: raw.pursuers.clone(),
        start: raw.start.clone(),
    })
}
