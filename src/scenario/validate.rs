//! Turns a parsed [`RawScenario`] into a [`Scenario`], or explains every problem found.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::error::{ScenarioError, ScenarioErrors};
use super::limits::{limit_of, quoted};
use super::locate::Locations;
use super::raw::{RawBackground, RawChase, RawChaseTable, RawCreature, RawObject, RawScenario, RawTerrain};
use super::{Background, CELL_PX, ChaseSetup, MAX_IMAGE_PATH, MAX_MAP_SIDE, MAX_OFFSET_PX, Scenario, Token, TokenKind};
use crate::rules::chase::{ChaseRules, ComplicationTable, DEFAULT_CATCH_FEET, EscapeFactor, TableSource};
use crate::rules::conditions::{Condition, Conditions};
use crate::rules::creature::Direction;
use crate::rules::dice::Notation;
use crate::rules::distance::{DiagonalRule, range_feet};
use crate::rules::economy::TurnOptions;
use crate::rules::effects::MAX_EFFECTS;
use crate::rules::health::{DEATH_SAVES_TO_END, DamageType, Defenses};
use crate::rules::light::LightSource;
use crate::rules::objects::{OBJECT_IMMUNITIES, Substance, table_hit_points};
use crate::rules::siege::{Crewing, POUR_REACH, Siege, SiegeKind, pour_cells};
use crate::rules::size::{TINY_PER_CELL, may_share_a_cell};
use crate::rules::terrain::{DEFAULT_LEGEND, Terrain, TerrainKind};
use crate::rules::text::unprintable;
use crate::rules::{Cell, Grid, Size, TerrainMap};

/// The most lights fixed to one map.
const MAX_LAMPS: usize = 256;

/// At most this many problems are reported for one file.
const MAX_REPORTED: usize = 50;

/// The most entries a legend may have (beyond the default ones it may redefine).
pub(super) const MAX_LEGEND: usize = 256;

/// The longest name (of the scenario, a creature, an object, a terrain, a chase), in characters.
pub(super) const MAX_NAME: usize = 100;

/// A name for a message: as written when it is a valid name, else [`quoted`].
fn shown(name: &str) -> String {
    if name.chars().count() <= MAX_NAME && !name.chars().any(unprintable) { name.to_owned() } else { quoted(name) }
}

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

    /// Records a problem at `path` if `value` is outside the limit of `field` ([`limit_of`]).
    fn bound(&mut self, who: &str, field: &str, value: i64, path: String) {
        if let Some(limit) = limit_of(field).filter(|l| !l.holds(value)) {
            self.add(&path, format!("{who}: `{field}` is {value}, but {}", limit.sentence()));
        }
    }
}

pub(super) fn validate(file: &str, text: &str, raw: RawScenario) -> Result<Scenario, ScenarioErrors> {
    let mut problems = Problems { file, locations: Locations::of(text), list: Vec::new() };
    if raw.name.trim().is_empty() {
        problems.add("name", "the scenario needs a name".to_owned());
    }
    check_name(&raw.name, "name", "the scenario's name", &mut problems);
    let legend = legend(&raw, &mut problems);
    let map = terrain_map(&raw, &legend, &mut problems);
    let tokens = tokens(&raw, &mut problems);
    if let Some(map) = &map {
        check_placement(raw.grid, map, &tokens, &mut problems);
    }
    let chase = raw.chase.as_ref().and_then(|c| chase(c, &raw.name, &tokens, &mut problems));
    let background = raw.background.as_ref().map(|b| background(b, &mut problems));
    let lights = lamps(&raw, map.as_ref(), &mut problems);
    for (path, token) in &tokens {
        if let Some(image) = &token.image {
            check_image_path(image, &format!("{path}.image"), &mut problems);
        }
        check_effects(path, token, &tokens, &mut problems);
    }
    match (map, problems.list.is_empty()) {
        (Some(map), true) => Ok(Scenario {
            header: leading_comments(text),
            name: raw.name.trim().to_owned(),
            grid: raw.grid,
            rules: raw.rules,
            map,
            glyphs: legend.iter().map(|(glyph, _)| *glyph).collect(),
            tokens: tokens.into_iter().map(|(_, token)| token).collect(),
            chase,
            background,
            light: raw.light,
            lights,
            light_cache: Default::default(),
        }),
        _ => Err(ScenarioErrors(problems.list)),
    }
}

/// A creature's effects: each valid (`Effect::validate`), at most [`MAX_EFFECTS`] of them, and a
/// creature source that is a creature of the scene.
fn check_effects(path: &str, token: &Token, tokens: &[(String, Token)], problems: &mut Problems) {
    let is_creature = |id: &str| tokens.iter().any(|(_, t)| t.id == id && t.kind == TokenKind::Creature);
    for (field, problem) in effect_problems(&token.name, &token.effects, is_creature) {
        problems.add(&format!("{path}{field}"), problem);
    }
}

/// What is wrong with the effects a creature named `name` carries, each with the field it is in
/// (`.effects[2].source`): more than [`MAX_EFFECTS`], an effect that isn't valid
/// (`Effect::validate`), a creature source that `is_creature` doesn't know. The one rule for a
/// scenario's effects and a session file's.
pub fn effect_problems(
    name: &str,
    effects: &[crate::rules::effects::Effect],
    is_creature: impl Fn(&str) -> bool,
) -> Vec<(String, String)> {
    if effects.len() > MAX_EFFECTS {
        let problem =
            format!("{} has {} effects; a creature carries at most {MAX_EFFECTS}", quoted(name), effects.len());
        return vec![(".effects".to_owned(), problem)];
    }
    let mut problems = Vec::new();
    for (i, effect) in effects.iter().enumerate() {
        let at = format!(".effects[{i}]");
        if let Err(error) = effect.validate() {
            problems.push((at.clone(), format!("the effect {}: {error}", quoted(&effect.name))));
        }
        if let Some(source) = effect.source_creature()
            && !is_creature(source)
        {
            let problem = format!(
                "the effect {} comes from {}, but no creature has that id",
                quoted(&effect.name),
                quoted(source)
            );
            problems.push((format!("{at}.source"), problem));
        }
    }
    problems
}

/// A map image under the grid: a sound path, a cell size of [`CELL_PX`] and an offset within
/// [`MAX_OFFSET_PX`].
/// A light's reaches, each from 0 to [`MAX_LIGHT_FEET`].
fn check_light(who: &str, light: Option<LightSource>, path: &str, problems: &mut Problems) {
    if let Some(light) = light {
        problems.bound(who, "bright", i64::from(light.bright), path.to_owned());
        problems.bound(who, "dim", i64::from(light.dim), path.to_owned());
    }
}

/// The lights fixed to the map: each on a cell of the map, at most [`MAX_LAMPS`] of them.
fn lamps(raw: &RawScenario, map: Option<&TerrainMap>, problems: &mut Problems) -> Vec<(Cell, LightSource)> {
    if raw.lights.len() > MAX_LAMPS {
        problems.add("lights", format!("{} lights: a scene has at most {MAX_LAMPS}", raw.lights.len()));
        return Vec::new();
    }
    let mut lamps = Vec::new();
    for (i, lamp) in raw.lights.iter().enumerate() {
        let path = format!("lights[{i}]");
        let light = LightSource { bright: lamp.bright, dim: lamp.dim, sunlight: lamp.sunlight };
        check_light("a light", Some(light), &path, problems);
        let cell = Cell::new(lamp.at.0, lamp.at.1);
        let near = [lamp.at.0, lamp.at.1].iter().all(|&v| limit_of("at").is_some_and(|l| l.holds(i64::from(v))));
        if !near || map.is_some_and(|m| !m.contains(cell)) {
            problems.add(&format!("{path}.at"), format!("the light at {},{} is not on the map", lamp.at.0, lamp.at.1));
        }
        lamps.push((cell, light));
    }
    lamps
}

fn background(raw: &RawBackground, problems: &mut Problems) -> Background {
    check_image_path(&raw.image, "background.image", problems);
    if !raw.cell_px.is_finite() || !CELL_PX.contains(&raw.cell_px) {
        problems.add(
            "background.cell_px",
            format!(
                "the map image's `cell_px` is {}, but it must be from {} to {} pixels a cell",
                raw.cell_px,
                CELL_PX.start(),
                CELL_PX.end()
            ),
        );
    }
    let (x, y) = raw.offset;
    if ![x, y].iter().all(|v| v.is_finite() && v.abs() <= MAX_OFFSET_PX) {
        problems.add(
            "background.offset",
            format!("the map image's `offset` is ({x}, {y}), but each must be within {MAX_OFFSET_PX} pixels"),
        );
    }
    Background { image: raw.image.clone(), cell_px: raw.cell_px, offset: raw.offset }
}

/// An image's path: not empty, at most [`MAX_IMAGE_PATH`] bytes, plain (`rules::text`). Whether
/// the file is there and is a picture is for `check`'s warnings and the app's notices: the
/// scenario stays playable without it.
fn check_image_path(path_text: &str, path: &str, problems: &mut Problems) {
    if path_text.trim().is_empty() {
        problems.add(path, "an image's path is empty: name a file, or leave `image` out".to_owned());
    } else if path_text.len() > MAX_IMAGE_PATH {
        problems.add(path, format!("an image's path is {} bytes; at most {MAX_IMAGE_PATH}", path_text.len()));
    } else if path_text.chars().any(unprintable) {
        problems.add(path, format!("the image path {} has a control character", quoted(path_text)));
    }
}

/// The `//` comment lines before `Scenario(`, each the text after its `//` (blank lines between
/// them are skipped; the first other line ends them).
fn leading_comments(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim_start)
        .filter(|line| !line.trim_end().is_empty())
        .map_while(|line| line.strip_prefix("//"))
        .map(|comment| comment.trim_end_matches('\r').to_owned())
        .collect()
}

/// The default legend with the scenario's own entries over it: character → terrain. An entry for
/// a default character takes that character's place; new characters follow in the file's order
/// (so the palette, and the glyph of each of its entries, is the same after a round trip through
/// [`Scenario::to_ron`]).
fn legend(raw: &RawScenario, problems: &mut Problems) -> Vec<(char, Terrain)> {
    let mut legend: Vec<(char, Terrain)> =
        DEFAULT_LEGEND.iter().map(|&(c, kind)| (c, Terrain::standard(kind))).collect();
    if raw.legend.0.len() > MAX_LEGEND {
        problems
            .add("legend", format!("the legend has {} entries; a legend has at most {MAX_LEGEND}", raw.legend.0.len()));
        return legend;
    }
    let mut seen = HashSet::new();
    for (glyph, entry) in &raw.legend.0 {
        let glyph = *glyph;
        let path = format!("legend.'{glyph}'");
        if !seen.insert(glyph) {
            problems.add(&path, format!("{glyph:?} is in the legend twice: give each character one terrain"));
            continue;
        }
        if glyph.is_whitespace() || glyph.is_control() || glyph == '"' || glyph == '\\' {
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
            RawTerrain::Custom { name, blocks_movement, blocks_sight, blocks_cover, difficult, color, art } => {
                check_name(name, &path, "a terrain's name", problems);
                let color = match color.as_deref().map(parse_color) {
                    Some(Some(rgb)) => Some(rgb),
                    Some(None) => {
                        problems.add(&path, format!("the colour of {} must be written \"#rrggbb\"", quoted(name)));
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
                    art: *art,
                }
            }
        };
        match legend.iter_mut().find(|(c, _)| *c == glyph) {
            Some(default) => default.1 = terrain,
            None => legend.push((glyph, terrain)),
        }
    }
    legend
}

/// A name is plain text (`rules::text`: no control or bidirectional character) of at most
/// [`MAX_NAME`] characters (it is shown on the map and printed on the terminal).
fn check_name(name: &str, path: &str, what: &str, problems: &mut Problems) {
    if name.chars().any(unprintable) {
        problems.add(path, format!("{what} {} holds control characters: write plain text", quoted(name)));
    } else if name.chars().count() > MAX_NAME {
        problems.add(path, format!("{what} {} is longer than {MAX_NAME} characters", quoted(name)));
    }
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
    let index: HashMap<char, usize> = legend.iter().enumerate().map(|(i, (c, _))| (*c, i)).collect();
    let mut map = TerrainMap::filled(raw.grid, width as u32, height as u32, palette);
    for (row, text) in raw.map.iter().enumerate() {
        for (col, glyph) in text.chars().enumerate() {
            match index.get(&glyph).copied() {
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
    let creatures: Vec<(String, Token)> = raw
        .creatures
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let path = format!("creatures[{i}]");
            check_required(&path, c, problems);
            let monster = stat_block(&path, c, problems);
            let token = creature(c, monster);
            check_creature_extras(&path, c, &token, problems);
            (path, token)
        })
        .collect();
    let objects: Vec<(String, Token)> = raw
        .objects
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let path = format!("objects[{i}]");
            let token = object(&path, o, problems);
            (path, token)
        })
        .collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut tokens = Vec::new();
    for (path, token) in creatures.into_iter().chain(objects) {
        check_token(raw.grid, &path, &token, problems);
        if !seen.insert(token.id.clone()) {
            problems.add(
                &format!("{path}.id"),
                format!("the id {} is used twice: every creature and object needs its own", quoted(&token.id)),
            );
        }
        tokens.push((path, token));
    }
    tokens
}

/// The stat block a creature names, if it names one it has; a name not in the bestiary is a
/// problem, with the nearest names.
fn stat_block(path: &str, c: &RawCreature, problems: &mut Problems) -> Option<&'static crate::srd::Monster> {
    let name = c.monster.as_deref()?;
    super::monsters::find(name).map_err(|why| problems.add(&format!("{path}.monster"), why)).ok()
}

/// A creature without a stat block writes its name, side, size, speed, AC and hit points.
fn check_required(path: &str, c: &RawCreature, problems: &mut Problems) {
    let missing: Vec<&str> = [
        ("name", c.name.is_none()),
        ("side", c.side.is_none()),
        ("size", c.size.is_none()),
        ("speed", c.speed.is_none()),
        ("ac", c.ac.is_none()),
        ("hp", c.hp.is_none()),
    ]
    .into_iter()
    .filter_map(|(field, missing)| missing.then_some(field))
    .collect();
    if c.monster.is_none() && !missing.is_empty() {
        let fields: Vec<String> = missing.iter().map(|f| format!("`{f}`")).collect();
        problems.add(
            path,
            format!(
                "the creature {} needs {} (or a `monster:` from the SRD bestiary, which gives them)",
                quoted(&c.id),
                fields.join(", ")
            ),
        );
    }
}

/// The creature: its stat block's (if it names one), with every field it writes instead.
fn creature(c: &RawCreature, monster: Option<&crate::srd::Monster>) -> Token {
    let anchor = Cell::new(c.at.0, c.at.1);
    let mut t = match monster {
        Some(monster) => super::monsters::token(monster, &c.id, anchor),
        None => Token::new_creature(&c.id, &c.id, anchor),
    };
    // A named stat block not found keeps the name as written (the problem is reported).
    t.monster = c.monster.clone();
    let hp = c.hp.unwrap_or(t.hp);
    let max_hp = c.max_hp.or(c.hp).unwrap_or(t.max_hp);
    Token {
        name: c.name.clone().unwrap_or(t.name),
        side: c.side.unwrap_or(t.side),
        size: c.size.unwrap_or(t.size),
        square_side: c.space,
        speed: c.speed.unwrap_or(t.speed),
        ac: c.ac.unwrap_or(t.ac),
        hp,
        max_hp,
        abilities: c.abilities.unwrap_or(t.abilities),
        facing: c.facing,
        shield: c.shield,
        player_character: c.pc,
        seat: c.seat,
        skills: c.skills.clone().unwrap_or(t.skills),
        saves: c.saves.clone().unwrap_or(t.saves),
        tracker: c.tracker,
        attacks: c.attacks.clone().unwrap_or(t.attacks),
        inspiration: c.inspiration,
        exhaustion: c.exhaustion,
        conditions: dying_unconscious(c, hp),
        defenses: Defenses {
            resistances: c.resistances.as_deref().map_or(t.defenses.resistances, damage_types),
            vulnerabilities: c.vulnerabilities.as_deref().map_or(t.defenses.vulnerabilities, damage_types),
            immunities: c.immunities.as_deref().map_or(t.defenses.immunities, damage_types),
            threshold: None,
        },
        arcs: c.arcs.unwrap_or_default(),
        temp_hp: c.temp_hp,
        makes_death_saves: c.makes_death_saves.unwrap_or(c.pc),
        death_saves: c.death_saves.unwrap_or_default(),
        average_damage: c.average_damage,
        turn: TurnOptions {
            attacks_per_action: c.attacks_per_action.unwrap_or(t.turn.attacks_per_action),
            bonus_actions: c.bonus_actions.clone().unwrap_or(t.turn.bonus_actions),
        },
        hidden: c.hidden,
        elevation: c.elevation,
        darkvision: c.darkvision.unwrap_or(t.darkvision),
        traits: c.traits.as_ref().map_or(t.traits, |list| list.iter().copied().collect()),
        xp: c.xp.or(t.xp),
        condition_immunities: c
            .condition_immunities
            .as_ref()
            .map_or(t.condition_immunities, |l| l.iter().copied().collect()),
        light: c.light,
        image: c.image.clone(),
        effects: c.effects.clone(),
        ..t
    }
}

/// The creature's conditions, with unconscious (and prone) added when it starts at 0 hit points
/// making death saves (PHB "Falling Unconscious").
fn dying_unconscious(c: &RawCreature, hp: i32) -> Conditions {
    let mut conditions = Conditions::new(c.conditions.iter().copied());
    let dead = c.death_saves.is_some_and(|d| d.failures >= DEATH_SAVES_TO_END);
    if hp == 0 && c.makes_death_saves.unwrap_or(c.pc) && !dead {
        conditions.set(Condition::Unconscious, true);
    }
    conditions
}

/// The damage types named (names that aren't types are reported by [`check_creature_extras`]).
fn damage_types(names: &[String]) -> BTreeSet<DamageType> {
    names.iter().filter_map(|n| DamageType::parse(n)).collect()
}

/// Every name in these lists is a damage type.
fn check_damage_types(path: &str, who: &str, lists: [(&str, &[String]); 3], problems: &mut Problems) {
    for (field, names) in lists {
        for (i, name) in names.iter().enumerate() {
            if DamageType::parse(name).is_none() {
                problems.add(
                    &format!("{path}.{field}[{i}]"),
                    format!("{who}: {} is not a damage type; the types are {}", quoted(name), DamageType::names()),
                );
            }
        }
    }
}

/// What only a creature has: damage types, temporary hit points and death saves.
fn check_creature_extras(path: &str, c: &RawCreature, t: &Token, problems: &mut Problems) {
    let who = shown(if t.name.is_empty() { &c.id } else { &t.name });
    let lists =
        [("resistances", &c.resistances), ("vulnerabilities", &c.vulnerabilities), ("immunities", &c.immunities)];
    let written = lists.map(|(field, list)| (field, list.as_deref().unwrap_or_default()));
    check_damage_types(path, &who, written, problems);
    problems.bound(&who, "elevation", i64::from(c.elevation), format!("{path}.elevation"));
    problems.bound(&who, "darkvision", i64::from(t.darkvision), format!("{path}.darkvision"));
    if let Some(xp) = c.xp {
        problems.bound(&who, "xp", i64::from(xp), format!("{path}.xp"));
    }
    if let Some(immune) = t.conditions.iter().find(|c| t.condition_immunities.contains(c)) {
        problems.add(
            &format!("{path}.conditions"),
            format!("{who} is immune to being {} (its condition immunities): it can't start so", immune.name()),
        );
    }
    check_light(&who, c.light, &format!("{path}.light"), problems);
    problems.bound(&who, "temp_hp", i64::from(c.temp_hp), format!("{path}.temp_hp"));
    if let Some(attacks) = c.attacks_per_action {
        problems.bound(&who, "attacks_per_action", i64::from(attacks), format!("{path}.attacks_per_action"));
    }
    if let Some(saves) = c.death_saves {
        for (field, value) in [("successes", saves.successes), ("failures", saves.failures)] {
            problems.bound(&who, field, i64::from(value), format!("{path}.death_saves.{field}"));
        }
        if t.hp != 0 || !c.makes_death_saves.unwrap_or(c.pc) {
            problems.add(
                &format!("{path}.death_saves"),
                format!(
                    "{who}: death saves count only for a creature at 0 hit points that makes them (a player \
                     character, or `makes_death_saves: true`)"
                ),
            );
        }
    }
}

/// An object: its AC from `ac`, else its substance, else its siege stat block; its hit points
/// likewise from `hp`, its durability or its stat block (DMG "Statistics for Objects", "Siege
/// Equipment"); immune to poison and psychic damage besides what it lists.
fn object(path: &str, o: &RawObject, problems: &mut Problems) -> Token {
    let who = shown(if o.name.is_empty() { &o.id } else { &o.name });
    let stats = o.siege.map(SiegeKind::stats);
    let size = match (o.size, stats) {
        (Some(size), Some(stats)) if size != stats.size => {
            problems.add(
                &format!("{path}.size"),
                format!("{who}: a {} is {}, not {}", stats.name, stats.size.name(), size.name()),
            );
            size
        }
        (Some(size), _) => size,
        (None, Some(stats)) => stats.size,
        (None, None) => {
            problems.add(&format!("{path}.size"), format!("{who}: an object needs a `size`"));
            Size::Medium
        }
    };
    let ac = o.ac.or(o.substance.map(Substance::armor_class)).or(stats.map(|s| s.ac)).unwrap_or_else(|| {
        problems.add(
            &format!("{path}.ac"),
            format!("{who}: give the object an `ac`, or a `substance` (Cloth, Glass, Wood, Stone, Iron, Mithral, Adamantine)"),
        );
        0
    });
    let table_hp = o.durability.map(|d| table_hit_points(size, d));
    let hp = match (o.hp, table_hp, stats) {
        (Some(hp), _, _) => hp,
        (None, Some(Ok(hp)), _) => hp,
        (None, Some(Err(e)), _) => {
            problems.add(&format!("{path}.durability"), format!("{who}: {e}"));
            0
        }
        (None, None, Some(stats)) => stats.hp,
        (None, None, None) => {
            problems.add(
                &format!("{path}.hp"),
                format!(
                    "{who}: give the object its `hp`, or a `durability` (Fragile or Resilient) for the DMG's table"
                ),
            );
            0
        }
    };
    check_object_extras(path, &who, o, problems);
    let mut immunities = damage_types(&o.immunities);
    immunities.extend(OBJECT_IMMUNITIES);
    let siege = o.siege.map(|kind| Siege {
        kind,
        crewing: Crewing::ready(kind, o.state.unwrap_or_default()),
        pours_on: o.pours_on.map(|(x, y)| Cell::new(x, y)),
    });
    // Plain statistics but what an object has of its own (`Token::new_creature`'s defaults).
    Token {
        kind: TokenKind::Object,
        side: o.side,
        size,
        square_side: o.space,
        speed: 0,
        ac,
        hp,
        max_hp: o.max_hp.unwrap_or(hp),
        facing: o.facing,
        attacks: o.siege.and_then(SiegeKind::attack).into_iter().collect(),
        defenses: Defenses {
            resistances: damage_types(&o.resistances),
            vulnerabilities: damage_types(&o.vulnerabilities),
            immunities,
            threshold: o.threshold,
        },
        turn: TurnOptions::default(),
        elevation: o.elevation,
        light: o.light,
        siege,
        substance: o.substance,
        durability: o.durability,
        image: o.image.clone(),
        icon: o.icon,
        ..Token::new_creature(&o.id, &o.name, Cell::new(o.at.0, o.at.1))
    }
}

/// What only an object has: damage types, a threshold, and a siege weapon's state and square.
fn check_object_extras(path: &str, who: &str, o: &RawObject, problems: &mut Problems) {
    check_damage_types(
        path,
        who,
        [
            ("resistances", &o.resistances[..]),
            ("vulnerabilities", &o.vulnerabilities[..]),
            ("immunities", &o.immunities[..]),
        ],
        problems,
    );
    if let Some(threshold) = o.threshold {
        problems.bound(who, "threshold", i64::from(threshold), format!("{path}.threshold"));
    }
    problems.bound(who, "elevation", i64::from(o.elevation), format!("{path}.elevation"));
    check_light(who, o.light, &format!("{path}.light"), problems);
    if o.state.is_some() && !o.siege.is_some_and(SiegeKind::is_weapon) {
        problems.add(&format!("{path}.state"), format!("{who}: only a siege weapon has a `state`"));
    }
    match (o.siege, o.pours_on) {
        (Some(SiegeKind::Cauldron), None) => problems.add(
            &format!("{path}.pours_on"),
            format!("{who}: a cauldron needs `pours_on`, the north-west cell of the 10-foot square below it"),
        ),
        (Some(SiegeKind::Cauldron), Some((x, y))) => {
            problems.bound(who, "pours_on", i64::from(x), format!("{path}.pours_on"));
            problems.bound(who, "pours_on", i64::from(y), format!("{path}.pours_on"));
        }
        (_, Some(_)) => {
            problems.add(&format!("{path}.pours_on"), format!("{who}: only a cauldron (`siege: Cauldron`) pours"));
        }
        (_, None) => {}
    }
}

fn check_token(grid: Grid, path: &str, token: &Token, problems: &mut Problems) {
    let who = shown(if token.name.is_empty() { &token.id } else { &token.name });
    if token.id.is_empty()
        || token.id.chars().count() > MAX_NAME
        || !token.id.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
    {
        problems.add(
            &format!("{path}.id"),
            format!(
                "the id {} must be up to {MAX_NAME} letters, digits, '-' or '_' (it is typed on the command line)",
                quoted(&token.id)
            ),
        );
    }
    check_name(&token.name, &format!("{path}.name"), "the name", problems);
    problems.bound(&who, "at", i64::from(token.anchor.x), format!("{path}.at"));
    problems.bound(&who, "at", i64::from(token.anchor.y), format!("{path}.at"));
    if let Some(side) = token.square_side {
        if token.size != Size::Gargantuan || grid.is_hex() {
            problems.add(
                &format!("{path}.space"),
                format!("{who}: `space` sets a larger square space for a Gargantuan creature on squares only"),
            );
        } else {
            problems.bound(&who, "space", i64::from(side), format!("{path}.space"));
        }
    }
    for (field, value) in [
        ("speed", i64::from(token.speed)),
        ("ac", i64::from(token.ac)),
        ("hp", i64::from(token.hp)),
        ("max_hp", i64::from(token.max_hp)),
        ("exhaustion", i64::from(token.exhaustion)),
    ] {
        problems.bound(&who, field, value, format!("{path}.{field}"));
    }
    let a = token.abilities;
    for (field, value) in
        [("str", a.str), ("dex", a.dex), ("con", a.con), ("int", a.int), ("wis", a.wis), ("cha", a.cha)]
    {
        problems.bound(&who, field, i64::from(value), format!("{path}.abilities.{field}"));
    }
    for (skill, bonus) in &token.skills {
        problems.bound(&who, &format!("{skill:?}"), i64::from(*bonus), format!("{path}.skills"));
    }
    for (ability, bonus) in &token.saves {
        problems.bound(&who, &format!("{ability:?}"), i64::from(*bonus), format!("{path}.saves"));
    }
    for (i, attack) in token.attacks.iter().enumerate() {
        let at = format!("{path}.attacks[{i}]");
        problems.bound(&who, "bonus", i64::from(attack.bonus), format!("{at}.bonus"));
        problems.bound(&who, "range", i64::from(attack.range), format!("{at}.range"));
        if let Some(long) = attack.long_range {
            problems.bound(&who, "long_range", i64::from(long), format!("{at}.long_range"));
        }
        if let Some(min) = attack.min_range {
            problems.bound(&who, "min_range", i64::from(min), format!("{at}.min_range"));
        }
        check_name(&attack.name, &format!("{at}.name"), "an attack's name", problems);
        if let Err(e) = Notation::parse(&attack.damage) {
            problems.add(&format!("{at}.damage"), format!("{who}'s {}: {e}", quoted(&attack.name)));
        }
        if DamageType::parse(&attack.damage_type).is_none() {
            problems.add(
                &format!("{at}.damage_type"),
                format!(
                    "{who}'s {}: {} is not a damage type; the types are {}",
                    quoted(&attack.name),
                    quoted(&attack.damage_type),
                    DamageType::names()
                ),
            );
        }
        for (j, extra) in attack.extra_damage.iter().enumerate() {
            let here = format!("{at}.extra_damage[{j}]");
            if let Err(e) = Notation::parse(&extra.dice) {
                problems.add(&format!("{here}.dice"), format!("{who}'s {}: {e}", quoted(&attack.name)));
            }
            if DamageType::parse(&extra.damage_type).is_none() {
                problems.add(
                    &format!("{here}.damage_type"),
                    format!("{who}'s {}: {} is not a damage type", quoted(&attack.name), quoted(&extra.damage_type)),
                );
            }
        }
        if attack.long_range.is_some_and(|long| long < attack.range) {
            problems.add(
                &format!("{at}.long_range"),
                format!("{who}'s {}: the long range must be at least the normal range", quoted(&attack.name)),
            );
        }
    }
    let pours_on = token.siege.and_then(|s| s.pours_on);
    let bounded =
        |cell: &Cell| [cell.x, cell.y].iter().all(|&v| limit_of("pours_on").is_some_and(|l| l.holds(i64::from(v))));
    if let Some(pours_on) = pours_on.filter(|cell| within_reach(token) && bounded(cell)) {
        let square = pour_cells(grid, pours_on);
        let near =
            range_feet(grid, DiagonalRule::Standard, &token.cells(grid), &square).is_some_and(|f| f <= POUR_REACH);
        if !near {
            problems.add(
                &format!("{path}.pours_on"),
                format!(
                    "{who}: the square it pours on must be below its spout, within {POUR_REACH} ft of its space (beside it, \
                     or past the parapet it hangs over)"
                ),
            );
        }
    }
    if token.max_hp < token.hp {
        problems.add(&format!("{path}.max_hp"), format!("{who}: max_hp must be at least hp ({})", token.hp));
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

/// Whether the token's anchor and space are valid, so that its cells can be worked out.
fn within_reach(token: &Token) -> bool {
    let holds = |field: &str, value: i64| limit_of(field).is_some_and(|l| l.holds(value));
    holds("at", i64::from(token.anchor.x))
        && holds("at", i64::from(token.anchor.y))
        && token.square_side.is_none_or(|side| holds("space", i64::from(side)))
}

/// Every space on the map, on open ground, and not overlapping another (Tiny ones may share a
/// cell, four at most: DMG table Creature Size and Space).
fn check_placement(grid: Grid, map: &TerrainMap, tokens: &[(String, Token)], problems: &mut Problems) {
    let mut occupants: HashMap<Cell, Vec<usize>> = HashMap::new();
    for (i, (path, token)) in tokens.iter().enumerate() {
        if !within_reach(token) {
            continue;
        }
        let at = format!("{path}.at");
        let cells = token.cells(grid);
        if let Some(off) = cells.iter().find(|c| !map.contains(**c)) {
            let (cols, rows) = (map.width(), map.height());
            problems.add(
                &at,
                format!(
                    "{} at {} is off the map: its space includes {off}, outside the {cols} by {rows} map",
                    shown(&token.name),
                    token.anchor
                ),
            );
            continue;
        }
        if let Some((cell, terrain)) =
            cells.iter().find_map(|c| map.terrain(*c).filter(|t| t.blocks_movement).map(|t| (c, t)))
        {
            let text = format!("{} at {} stands inside {} at {cell}", shown(&token.name), token.anchor, terrain.name);
            problems.add(&at, text);
            continue;
        }
        if token.holds_creatures() {
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
        if may_share_a_cell(here.iter().map(|&i| tokens[i].1.size)) {
            continue;
        }
        if here.iter().all(|&i| tokens[i].1.size == Size::Tiny) {
            let (path, token) = &tokens[here[TINY_PER_CELL]];
            problems.add(
                &format!("{path}.at"),
                format!(
                    "{} would be the fifth Tiny creature in {cell}: at most {TINY_PER_CELL} share a cell",
                    shown(&token.name)
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
                    format!("{}'s space overlaps {}'s at {cell}", shown(&token.name), shown(&tokens[first].1.name)),
                );
            }
        }
    }
}

/// Checks the scene's chase: its participants are creatures of the scene, each once and on one
/// side, its places and distances are bounded, its table covers the d20, and the local creature
/// waits outside the chase.
fn chase(raw: &RawChase, scene: &str, tokens: &[(String, Token)], problems: &mut Problems) -> Option<ChaseSetup> {
    let before = problems.list.len();
    let creature = |id: &str| tokens.iter().any(|(_, t)| t.id == id && t.kind == TokenKind::Creature);
    if let Some(name) = &raw.name {
        check_name(name, "chase.name", "the chase's name", problems);
    }
    for (field, ids) in [("quarry", &raw.quarry), ("pursuers", &raw.pursuers)] {
        if ids.is_empty() {
            problems.add(&format!("chase.{field}"), format!("a chase needs at least one creature in `{field}`"));
        }
        for (i, id) in ids.iter().enumerate() {
            let path = format!("chase.{field}[{i}]");
            if !creature(id) {
                problems.add(&path, format!("{} is not the id of a creature in this scene", quoted(id)));
            } else if ids[..i].contains(id) {
                problems.add(&path, format!("{} is in `{field}` twice: each creature runs once", quoted(id)));
            }
        }
    }
    if let Some(both) = raw.quarry.iter().find(|id| raw.pursuers.contains(id)) {
        problems.add("chase.pursuers", format!("{} can't be both quarry and pursuer", quoted(both)));
    }
    let in_chase = |id: &String| raw.quarry.contains(id) || raw.pursuers.contains(id);
    for (id, feet) in &raw.start {
        if !in_chase(id) {
            problems.add("chase.start", format!("{} has a start but is not in the chase", quoted(id)));
        }
        problems.bound(&shown(id), "start", i64::from(*feet), "chase.start".to_owned());
    }
    let (table, table_source) = match &raw.table {
        RawChaseTable::Urban => (ComplicationTable::urban(), TableSource::Urban),
        RawChaseTable::Wilderness => (ComplicationTable::wilderness(), TableSource::Wilderness),
        RawChaseTable::Custom(table) => {
            if let Err(e) = table.validate() {
                problems.add("chase.table", format!("the table {}: {e}", quoted(&table.name)));
            }
            (table.clone(), TableSource::Custom)
        }
    };
    for (i, factor) in raw.escape_factors.iter().enumerate() {
        if let EscapeFactor::Other { name, .. } = factor {
            check_name(name, &format!("chase.escape_factors[{i}]"), "an escape factor's name", problems);
        }
    }
    if let Some(sight) = raw.sight {
        problems.bound("the chase", "sight", i64::from(sight), "chase.sight".to_owned());
    }
    if let Some(feet) = raw.catch_within {
        problems.bound("the chase", "catch_within", i64::from(feet), "chase.catch_within".to_owned());
    }
    let local_creature = raw.local_creature.as_ref().and_then(|id| {
        let token = tokens.iter().map(|(_, t)| t).find(|t| t.id == *id && t.kind == TokenKind::Creature);
        match token {
            Some(_) if in_chase(id) => {
                problems.add(
                    "chase.local_creature",
                    format!("{} is already in the chase; the local creature joins later", quoted(id)),
                );
                None
            }
            Some(token) => Some((token.id.clone(), token.sheet())),
            None => {
                let text = format!("{} is not the id of a creature in this scene", quoted(id));
                problems.add("chase.local_creature", text);
                None
            }
        }
    });
    (problems.list.len() == before).then(|| ChaseSetup {
        name: raw.name.clone().unwrap_or_else(|| format!("Chase: {}", scene.trim())),
        table_source,
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
