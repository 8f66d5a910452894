//! The canonical text of a scenario ([`Scenario::to_ron`]): what Save and `battlemap fmt` write.
//!
//! The text reads back as the same [`Scenario`] and is written the same way again. It is laid out
//! as the sample scenes are: a field a line, the legend an entry a line, the map as rows of
//! characters, a creature or object an entry with its attacks a line each. Fields at their
//! default are left out, and an object's `ac`, `hp` and `size` when its `substance`, `durability`
//! or siege stat block gives them. Only the `//` comment lines above `Scenario(` are kept
//! ([`Scenario::header`]); the format is described in `docs/scenario-format.md`, "Canonical form".

use std::fmt::Write as _;

use serde::Serialize;

use super::{ChaseSetup, Scenario, Token, TokenKind};
use crate::rules::chase::{Complication, ComplicationTable, DEFAULT_CATCH_FEET, TableSource};
use crate::rules::conditions::Condition;
use crate::rules::creature::{Abilities, Attack, Side};
use crate::rules::facing::ArcLayout;
use crate::rules::health::{DamageType, DeathSaves};
use crate::rules::light::LightLevel;
use crate::rules::objects::{OBJECT_IMMUNITIES, Substance, table_hit_points};
use crate::rules::siege::{Crewing, Readiness, Siege};
use crate::rules::terrain::{DEFAULT_LEGEND, Terrain, TerrainKind};

/// Lines are filled up to this many characters before a field goes on the next line.
const WIDTH: usize = 120;

/// One level of indentation.
const INDENT: &str = "    ";

impl Scenario {
    /// The scenario as canonical RON text: `Scenario::from_ron(file, &s.to_ron())` gives back `s`,
    /// and writing that again gives the same text.
    ///
    /// That holds for every scenario the loader makes, and for the app's edits of one that keep
    /// it so (`glyphs` parallel to the map's palette, a creature dying at 0 hit points
    /// unconscious, the chase's local creature's sheet that of its token). What a file can't say
    /// isn't written: an object's conditions, attacks beyond its siege weapon's or `hidden`, and a
    /// weapon's crewing part of the way through a step (written as the last whole step).
    pub fn to_ron(&self) -> String {
        let mut out = String::new();
        for comment in &self.header {
            for line in comment.lines() {
                let _ = writeln!(out, "//{line}");
            }
        }
        out.push_str("Scenario(\n");
        let _ = writeln!(out, "{INDENT}name: {},", string(&self.name));
        let _ = writeln!(out, "{INDENT}grid: {},", ron_value(&self.grid));
        let rules = self.rules;
        let _ = writeln!(
            out,
            "{INDENT}rules: (diagonals: {}, flanking: {}, facing: {}, monster_damage: {}),",
            ron_value(&rules.diagonals),
            rules.flanking,
            rules.facing,
            ron_value(&rules.monster_damage)
        );
        self.write_legend(&mut out);
        self.write_map(&mut out);
        let creatures: Vec<String> =
            self.tokens.iter().filter(|t| t.kind == TokenKind::Creature).map(|t| entry(2, creature(t))).collect();
        list(&mut out, "creatures", &creatures);
        let objects: Vec<String> =
            self.tokens.iter().filter(|t| t.kind == TokenKind::Object).map(|t| entry(2, object(t))).collect();
        list(&mut out, "objects", &objects);
        if let Some(chase) = &self.chase {
            self.write_chase(&mut out, chase);
        }
        if self.light != LightLevel::Bright {
            let _ = writeln!(out, "{INDENT}light: {},", ron_value(&self.light));
        }
        let lamps: Vec<String> = self
            .lights
            .iter()
            .map(|(cell, light)| {
                let sun = if light.sunlight { ", sunlight: true" } else { "" };
                format!(
                    "{INDENT}{INDENT}(at: ({}, {}), bright: {}, dim: {}{sun})",
                    cell.x, cell.y, light.bright, light.dim
                )
            })
            .collect();
        list(&mut out, "lights", &lamps);
        if let Some(background) = &self.background {
            let (x, y) = background.offset;
            let _ = writeln!(
                out,
                "{INDENT}background: (image: {}, cell_px: {}, offset: ({x}, {y})),",
                string(&background.image),
                background.cell_px
            );
        }
        out.push_str(")\n");
        out
    }

    /// Every palette entry that isn't a default terrain at its default character.
    fn write_legend(&self, out: &mut String) {
        let entries: Vec<String> = self
            .map
            .palette()
            .iter()
            .zip(&self.glyphs)
            .filter(|&(terrain, glyph)| !DEFAULT_LEGEND.contains(&(*glyph, terrain.kind)) || !is_standard(terrain))
            .map(|(terrain, glyph)| format!("{INDENT}{INDENT}{}: {},", ron_value(glyph), legend_terrain(terrain)))
            .collect();
        if !entries.is_empty() {
            let _ = writeln!(out, "{INDENT}legend: {{");
            for entry in entries {
                let _ = writeln!(out, "{entry}");
            }
            let _ = writeln!(out, "{INDENT}}},");
        }
    }

    /// The map's rows as written: row `r`, column `c` is the cell `grid.from_storage(c, r)`.
    fn write_map(&self, out: &mut String) {
        let _ = writeln!(out, "{INDENT}map: [");
        for row in 0..self.map.height() as i32 {
            let text: String = (0..self.map.width() as i32)
                .map(|col| {
                    let cell = self.grid.from_storage(col, row);
                    self.map.terrain_index(cell).and_then(|i| self.glyphs.get(i)).copied().unwrap_or('?')
                })
                .collect();
            let _ = writeln!(out, "{INDENT}{INDENT}{},", string(&text));
        }
        let _ = writeln!(out, "{INDENT}],");
    }

    fn write_chase(&self, out: &mut String, chase: &ChaseSetup) {
        let inner = format!("{INDENT}{INDENT}");
        let _ = writeln!(out, "{INDENT}chase: (");
        if chase.name != format!("Chase: {}", self.name) {
            let _ = writeln!(out, "{inner}name: {},", string(&chase.name));
        }
        match chase.table_source {
            TableSource::Urban => {
                let _ = writeln!(out, "{inner}table: Urban,");
            }
            TableSource::Wilderness => {
                let _ = writeln!(out, "{inner}table: Wilderness,");
            }
            TableSource::Custom => write_table(out, &chase.rules.table),
        }
        let ids = |ids: &[String]| ids.iter().map(|id| string(id)).collect::<Vec<_>>().join(", ");
        let _ = writeln!(out, "{inner}quarry: [{}],", ids(&chase.quarry));
        let _ = writeln!(out, "{inner}pursuers: [{}],", ids(&chase.pursuers));
        if !chase.start.is_empty() {
            let places: Vec<String> = chase.start.iter().map(|(id, feet)| format!("{}: {feet}", string(id))).collect();
            let _ = writeln!(out, "{inner}start: {{{}}},", places.join(", "));
        }
        if let Some(sight) = chase.rules.sight_feet {
            let _ = writeln!(out, "{inner}sight: {sight},");
        }
        if chase.rules.catch_feet != DEFAULT_CATCH_FEET {
            let _ = writeln!(out, "{inner}catch_within: {},", chase.rules.catch_feet);
        }
        if !chase.rules.escape_factors.is_empty() {
            let _ = writeln!(out, "{inner}escape_factors: {},", ron_list(&chase.rules.escape_factors));
        }
        if let Some((id, _)) = &chase.rules.local_creature {
            let _ = writeln!(out, "{inner}local_creature: {},", string(id));
        }
        let _ = writeln!(out, "{INDENT}),");
    }
}

/// `table: Custom((name: ..., rows: [...])),` with a row a line (or more, when long).
fn write_table(out: &mut String, table: &ComplicationTable) {
    let inner = INDENT.repeat(3);
    let _ = writeln!(out, "{INDENT}{INDENT}table: Custom((");
    let _ = writeln!(out, "{inner}name: {},", string(&table.name));
    let _ = writeln!(out, "{inner}rows: [");
    for row in &table.rows {
        let _ = writeln!(out, "{},", entry(4, complication(row)));
    }
    let _ = writeln!(out, "{inner}],");
    let _ = writeln!(out, "{INDENT}{INDENT})),");
}

fn complication(row: &Complication) -> Vec<Field> {
    let mut fields = vec![Field::new("roll", string(&row.roll)), Field::new("text", string(&row.text))];
    if let Some(test) = &row.test {
        fields.push(Field::new("test", ron_value(test)));
    }
    if let Some(alternative) = &row.alternative {
        fields.push(Field::new("alternative", ron_value(alternative)));
    }
    if !row.on_fail.is_empty() {
        fields.push(Field::new("on_fail", ron_list(&row.on_fail)));
    }
    if !row.always.is_empty() {
        fields.push(Field::new("always", ron_list(&row.always)));
    }
    fields
}

/// `name: [...]` with an entry a line, or nothing when there are none.
fn list(out: &mut String, name: &str, entries: &[String]) {
    if entries.is_empty() {
        return;
    }
    let _ = writeln!(out, "{INDENT}{name}: [");
    for entry in entries {
        let _ = writeln!(out, "{entry},");
    }
    let _ = writeln!(out, "{INDENT}],");
}

/// Whether a terrain is its kind's standard one (written by the kind's name).
fn is_standard(terrain: &Terrain) -> bool {
    terrain.kind != TerrainKind::Custom && *terrain == Terrain::standard(terrain.kind)
}

/// A legend entry's terrain: the built-in name, or `Custom(...)` with the flags that are set.
fn legend_terrain(terrain: &Terrain) -> String {
    if is_standard(terrain) {
        return ron_value(&terrain.kind);
    }
    let mut fields = vec![format!("name: {}", string(&terrain.name))];
    for (flag, set) in [
        ("blocks_movement", terrain.blocks_movement),
        ("blocks_sight", terrain.blocks_sight),
        ("blocks_cover", terrain.blocks_cover),
        ("difficult", terrain.difficult),
    ] {
        if set {
            fields.push(format!("{flag}: true"));
        }
    }
    if let Some([r, g, b]) = terrain.color {
        fields.push(format!("color: \"#{r:02x}{g:02x}{b:02x}\""));
    }
    if let Some(art) = terrain.art {
        fields.push(format!("art: {}", ron_value(&art)));
    }
    format!("Custom({})", fields.join(", "))
}

/// A field of an entry: `name: value`, or a block of lines (attacks) that starts a line of its
/// own and ends it.
struct Field {
    text: String,
    block: bool,
}

impl Field {
    fn new(name: &str, value: String) -> Self {
        Self { text: format!("{name}: {value}"), block: false }
    }

    /// Several lines: the first at the entry's hanging indent, the others as given after it.
    fn block(text: String) -> Self {
        Self { text, block: true }
    }
}

/// `(field, field, ...)` at `depth` indents, filled up to [`WIDTH`], continuation lines hanging
/// one column in (under the first field); a block field gets lines of its own.
fn entry(depth: usize, fields: Vec<Field>) -> String {
    let indent = INDENT.repeat(depth);
    let hang = format!("{indent} ");
    let mut lines = vec![format!("{indent}(")];
    // Whether the last line has a field yet, and whether the next field must start a new line.
    let (mut empty, mut new_line) = (true, false);
    for field in fields {
        let last = lines.len() - 1;
        let fits = lines[last].chars().count() + 2 + field.text.lines().next().unwrap_or_default().chars().count();
        if empty {
            // The first field goes right after the parenthesis.
        } else if !new_line && !field.block && fits <= WIDTH {
            lines[last].push_str(", ");
        } else {
            lines[last].push(',');
            lines.push(hang.clone());
        }
        let mut text = field.text.lines();
        let last = lines.len() - 1;
        lines[last].push_str(text.next().unwrap_or_default());
        lines.extend(text.map(|rest| format!("{hang}{rest}")));
        (empty, new_line) = (false, field.block);
    }
    let last = lines.len() - 1;
    lines[last].push(')');
    lines.join("\n")
}

/// A creature's fields. One made from a stat block writes its id, its stat block and its place,
/// then only what differs from the stat block's creature (a field the stat block fills and the
/// creature has at its default is written so: `darkvision: 0`); `fmt` and Save keep the
/// reference.
fn creature(t: &Token) -> Vec<Field> {
    let mut own = creature_fields(t);
    let Some(name) = &t.monster else { return own };
    let Ok(monster) = super::monsters::find(name) else {
        // The stat block can't be read (a damaged asset): every field, and the reference kept.
        own.insert(1, Field::new("monster", string(name)));
        return own;
    };
    let theirs = creature_fields(&super::monsters::token(monster, &t.id, t.anchor));
    let key = |f: &Field| f.text.split_once(':').map_or(f.text.clone(), |(k, _)| k.to_owned());
    let mut fields = vec![Field::new("id", string(&t.id)), Field::new("monster", string(name))];
    for field in &theirs {
        let name = key(field);
        if !own.iter().any(|f| key(f) == name)
            && let Some(empty) = at_default(&name)
        {
            fields.push(Field::new(&name, empty.to_owned()));
        }
    }
    let cleared = fields.split_off(2);
    for field in own {
        let kept = key(&field) == "at" || !theirs.iter().any(|b| b.text == field.text);
        if key(&field) != "id" && kept {
            fields.push(field);
        }
    }
    fields.extend(cleared);
    fields
}

/// How a creature's field left at its default is written, for the fields a stat block fills.
fn at_default(field: &str) -> Option<&'static str> {
    Some(match field {
        "abilities" => "()",
        "skills" | "saves" => "{}",
        "attacks" | "resistances" | "vulnerabilities" | "immunities" | "bonus_actions" => "[]",
        "darkvision" => "0",
        "traits" | "condition_immunities" => "[]",
        "attacks_per_action" => "1",
        _ => return None,
    })
}

/// A creature's fields in the order of the file format, those at their default left out.
fn creature_fields(t: &Token) -> Vec<Field> {
    let mut f = vec![
        Field::new("id", string(&t.id)),
        Field::new("name", string(&t.name)),
        Field::new("side", ron_value(&t.side)),
        Field::new("size", ron_value(&t.size)),
    ];
    if let Some(side) = t.square_side {
        f.push(Field::new("space", side.to_string()));
    }
    f.push(Field::new("at", format!("({}, {})", t.anchor.x, t.anchor.y)));
    f.push(Field::new("speed", t.speed.to_string()));
    f.push(Field::new("ac", t.ac.to_string()));
    f.push(Field::new("hp", t.hp.to_string()));
    if t.max_hp != t.hp {
        f.push(Field::new("max_hp", t.max_hp.to_string()));
    }
    if t.abilities != Abilities::default() {
        f.push(Field::new("abilities", abilities(t.abilities)));
    }
    if let Some(facing) = t.facing {
        f.push(Field::new("facing", ron_value(&facing)));
    }
    if let Some(shield) = t.shield {
        f.push(Field::new("shield", ron_value(&shield)));
    }
    if t.player_character {
        f.push(Field::new("pc", "true".to_owned()));
    }
    if let Some(seat) = t.seat {
        f.push(Field::new("seat", ron_value(&seat)));
    }
    if !t.skills.is_empty() {
        let skills: Vec<String> = t.skills.iter().map(|(s, b)| format!("{}: {b}", ron_value(s))).collect();
        f.push(Field::new("skills", format!("{{{}}}", skills.join(", "))));
    }
    if !t.saves.is_empty() {
        let saves: Vec<String> = t.saves.iter().map(|(a, b)| format!("{}: {b}", ron_value(a))).collect();
        f.push(Field::new("saves", format!("{{{}}}", saves.join(", "))));
    }
    if t.tracker {
        f.push(Field::new("tracker", "true".to_owned()));
    }
    if !t.attacks.is_empty() {
        f.push(Field::block(attacks(&t.attacks)));
    }
    if t.inspiration {
        f.push(Field::new("inspiration", "true".to_owned()));
    }
    if t.exhaustion != 0 {
        f.push(Field::new("exhaustion", t.exhaustion.to_string()));
    }
    if !t.conditions.is_empty() {
        let conditions: Vec<Condition> = t.conditions.iter().collect();
        f.push(Field::new("conditions", ron_list(&conditions)));
    }
    damage_lists(&mut f, &t.defenses.resistances, &t.defenses.vulnerabilities, t.defenses.immunities.iter().copied());
    if t.arcs != ArcLayout::STANDARD {
        f.push(Field::new("arcs", arcs(t.arcs)));
    }
    if t.temp_hp != 0 {
        f.push(Field::new("temp_hp", t.temp_hp.to_string()));
    }
    if t.makes_death_saves != t.player_character {
        f.push(Field::new("makes_death_saves", t.makes_death_saves.to_string()));
    }
    if t.death_saves != DeathSaves::default() {
        f.push(Field::new("death_saves", death_saves(t.death_saves)));
    }
    if let Some(average) = t.average_damage {
        f.push(Field::new("average_damage", average.to_string()));
    }
    if t.turn.attacks_per_action != 1 {
        f.push(Field::new("attacks_per_action", t.turn.attacks_per_action.to_string()));
    }
    if !t.turn.bonus_actions.is_empty() {
        f.push(Field::new("bonus_actions", ron_list(&t.turn.bonus_actions)));
    }
    if t.hidden {
        f.push(Field::new("hidden", "true".to_owned()));
    }
    if t.elevation != 0 {
        f.push(Field::new("elevation", t.elevation.to_string()));
    }
    if t.darkvision != 0 {
        f.push(Field::new("darkvision", t.darkvision.to_string()));
    }
    if let Some(xp) = t.xp {
        f.push(Field::new("xp", xp.to_string()));
    }
    if !t.condition_immunities.is_empty() {
        let immune: Vec<Condition> = t.condition_immunities.iter().copied().collect();
        f.push(Field::new("condition_immunities", ron_list(&immune)));
    }
    if !t.traits.is_empty() {
        f.push(Field::new("traits", ron_list(&t.traits.iter().collect::<Vec<_>>())));
    }
    if let Some(light) = t.light {
        f.push(Field::new("light", ron_value(&light)));
    }
    if let Some(image) = &t.image {
        f.push(Field::new("image", string(image)));
    }
    if !t.effects.is_empty() {
        f.push(Field::new("effects", ron_list(&t.effects)));
    }
    f
}

/// An object's fields in the order of the file format: `ac`, `hp` and `size` only where its
/// substance, durability or siege stat block doesn't give them, and its immunities without the
/// poison and psychic every object has.
fn object(t: &Token) -> Vec<Field> {
    let stats = t.siege.map(|s| s.kind.stats());
    let mut f = vec![Field::new("id", string(&t.id)), Field::new("name", string(&t.name))];
    if t.side != Side::Neutral {
        f.push(Field::new("side", ron_value(&t.side)));
    }
    if stats.is_none_or(|s| s.size != t.size) {
        f.push(Field::new("size", ron_value(&t.size)));
    }
    if let Some(side) = t.square_side {
        f.push(Field::new("space", side.to_string()));
    }
    f.push(Field::new("at", format!("({}, {})", t.anchor.x, t.anchor.y)));
    let given_ac = t.substance.map(Substance::armor_class).or(stats.map(|s| s.ac));
    if given_ac != Some(t.ac) {
        f.push(Field::new("ac", t.ac.to_string()));
    }
    let given_hp = match t.durability {
        Some(durability) => table_hit_points(t.size, durability).ok(),
        None => stats.map(|s| s.hp),
    };
    if given_hp != Some(t.hp) {
        f.push(Field::new("hp", t.hp.to_string()));
    }
    if t.max_hp != t.hp {
        f.push(Field::new("max_hp", t.max_hp.to_string()));
    }
    if let Some(facing) = t.facing {
        f.push(Field::new("facing", ron_value(&facing)));
    }
    if let Some(substance) = t.substance {
        f.push(Field::new("substance", ron_value(&substance)));
    }
    if let Some(durability) = t.durability {
        f.push(Field::new("durability", ron_value(&durability)));
    }
    if let Some(threshold) = t.defenses.threshold {
        f.push(Field::new("threshold", threshold.to_string()));
    }
    let immunities = t.defenses.immunities.iter().copied().filter(|d| !OBJECT_IMMUNITIES.contains(d));
    damage_lists(&mut f, &t.defenses.resistances, &t.defenses.vulnerabilities, immunities);
    if t.elevation != 0 {
        f.push(Field::new("elevation", t.elevation.to_string()));
    }
    if let Some(light) = t.light {
        f.push(Field::new("light", ron_value(&light)));
    }
    if let Some(siege) = t.siege {
        f.push(Field::new("siege", ron_value(&siege.kind)));
        if let Some(state) = readiness(siege) {
            f.push(Field::new("state", ron_value(&state)));
        }
        if let Some(cell) = siege.pours_on {
            f.push(Field::new("pours_on", format!("({}, {})", cell.x, cell.y)));
        }
    }
    if let Some(image) = &t.image {
        f.push(Field::new("image", string(image)));
    }
    if let Some(icon) = t.icon {
        f.push(Field::new("icon", ron_value(&icon)));
    }
    f
}

/// The `state` a weapon's crewing starts from, or `None` when unloaded (the default). Crewing
/// part of the way through loading or aiming is written as the last whole step reached (a file
/// can't say "loading, 1 of 2 actions").
fn readiness(siege: Siege) -> Option<Readiness> {
    let ready = |state| Crewing::ready(siege.kind, state);
    match siege.crewing {
        _ if !siege.kind.is_weapon() => None,
        crewing if crewing == Crewing::default() => None,
        crewing if crewing == ready(Readiness::Loaded) => Some(Readiness::Loaded),
        crewing if crewing == ready(Readiness::Aimed) => Some(Readiness::Aimed),
        crewing if crewing.loaded < siege.kind.stats().load_actions => None,
        _ => Some(Readiness::Loaded),
    }
}

fn damage_lists(
    fields: &mut Vec<Field>,
    resistances: &std::collections::BTreeSet<DamageType>,
    vulnerabilities: &std::collections::BTreeSet<DamageType>,
    immunities: impl Iterator<Item = DamageType>,
) {
    let names = |types: Vec<DamageType>| -> String {
        let names: Vec<String> = types.iter().map(|d| string(d.name())).collect();
        format!("[{}]", names.join(", "))
    };
    let immunities: Vec<DamageType> = immunities.collect();
    for (field, types) in [
        ("resistances", resistances.iter().copied().collect::<Vec<_>>()),
        ("vulnerabilities", vulnerabilities.iter().copied().collect()),
        ("immunities", immunities),
    ] {
        if !types.is_empty() {
            fields.push(Field::new(field, names(types)));
        }
    }
}

/// `(str: 3, dex: 1)`: the modifiers that aren't 0.
fn abilities(a: Abilities) -> String {
    let modifiers = [("str", a.str), ("dex", a.dex), ("con", a.con), ("int", a.int), ("wis", a.wis), ("cha", a.cha)];
    let written: Vec<String> =
        modifiers.iter().filter(|(_, m)| *m != 0).map(|(name, m)| format!("{name}: {m}")).collect();
    format!("({})", written.join(", "))
}

/// `(left: Front, right: Front)`: the arcs that differ from the standard layout.
fn arcs(layout: ArcLayout) -> String {
    let standard = ArcLayout::STANDARD;
    let written: Vec<String> = [
        ("left", layout.left, standard.left),
        ("right", layout.right, standard.right),
        ("rear", layout.rear, standard.rear),
    ]
    .iter()
    .filter(|(_, arc, default)| arc != default)
    // Written as the docs write arcs (`Front`); the file format takes both spellings.
    .map(|(name, arc, _)| format!("{name}: {arc:?}"))
    .collect();
    format!("({})", written.join(", "))
}

fn death_saves(saves: DeathSaves) -> String {
    let written: Vec<String> = [("successes", saves.successes), ("failures", saves.failures)]
        .iter()
        .filter(|(_, n)| *n != 0)
        .map(|(name, n)| format!("{name}: {n}"))
        .collect();
    format!("({})", written.join(", "))
}

/// `attacks: [(...),` then each further attack on a line of its own, under the first.
fn attacks(attacks: &[Attack]) -> String {
    const OPEN: &str = "attacks: [";
    let lines: Vec<String> = attacks.iter().map(attack).collect();
    let under = " ".repeat(OPEN.len());
    let mut text = format!("{OPEN}{}", lines.join(&format!(",\n{under}")));
    text.push(']');
    text
}

/// One attack, its fields at their defaults (`damage_type: "piercing"`, `range: 5`, no long or
/// minimum range, kind from the ranges) left out.
fn attack(a: &Attack) -> String {
    let mut fields = vec![
        format!("name: {}", string(&a.name)),
        format!("bonus: {}", a.bonus),
        format!("damage: {}", string(&a.damage)),
    ];
    if a.damage_type != "piercing" {
        fields.push(format!("damage_type: {}", string(&a.damage_type)));
    }
    if a.range != 5 {
        fields.push(format!("range: {}", a.range));
    }
    if let Some(long) = a.long_range {
        fields.push(format!("long_range: {long}"));
    }
    if let Some(kind) = a.kind {
        fields.push(format!("kind: {}", ron_value(&kind)));
    }
    if let Some(min) = a.min_range {
        fields.push(format!("min_range: {min}"));
    }
    if a.indirect {
        fields.push("indirect: true".to_owned());
    }
    if a.objects_only {
        fields.push("objects_only: true".to_owned());
    }
    if !a.extra_damage.is_empty() {
        fields.push(format!("extra_damage: {}", ron_value(&a.extra_damage)));
    }
    format!("({})", fields.join(", "))
}

/// A RON string literal: quotes, backslashes and characters that aren't printable escaped as Rust
/// escapes them (which RON reads), everything else (accents, other scripts) kept as UTF-8.
fn string(text: &str) -> String {
    format!("{text:?}")
}

/// A value as RON writes it on one line: an enum such as `Party`, `Hex(PointyTop)` or
/// `Save(dc: 12, ability: Dex)`.
fn ron_value<T: Serialize + ?Sized>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::new().compact_arrays(true).compact_structs(true).compact_maps(true);
    // Optional fields without `Some(...)`, as docs/scenario-format.md writes them and the reader
    // takes them (`implicit_some`).
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    // These are plain enums and structs of strings and numbers, which RON always writes.
    options.to_string_pretty(value, config).expect("plain data is always written as RON")
}

/// `[a, b, c]` with each written by [`ron_value`].
fn ron_list<T: Serialize>(values: &[T]) -> String {
    let written: Vec<String> = values.iter().map(|v| ron_value(v)).collect();
    format!("[{}]", written.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Cell;
    use crate::rules::siege::SiegeKind;

    /// Loads `text`, writes it, and checks that the text reads back as the same scenario and is
    /// written again the same way; returns the scenario and its canonical text.
    fn round_trip(text: &str) -> (Scenario, String) {
        let scenario = Scenario::from_ron("test.ron", text).unwrap_or_else(|e| panic!("{e}"));
        let written = scenario.to_ron();
        let again = Scenario::from_ron("written.ron", &written).unwrap_or_else(|e| panic!("{e}\n{written}"));
        assert_eq!(again, scenario, "{written}");
        assert_eq!(again.to_ron(), written, "written twice the same way");
        (scenario, written)
    }

    /// A scene of `rows` with `legend`, `creatures` and `objects` (the text inside their brackets).
    fn scene(grid: &str, legend: &str, rows: &[&str], creatures: &str, objects: &str) -> String {
        scene_and(grid, legend, rows, creatures, objects, "")
    }

    /// [`scene`] with more fields after the objects.
    fn scene_and(grid: &str, legend: &str, rows: &[&str], creatures: &str, objects: &str, more: &str) -> String {
        let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
        format!(
            "Scenario(name: \"Test\", grid: {grid}, legend: {{{legend}}}, map: [{}], creatures: [{creatures}], \
             objects: [{objects}], {more})",
            rows.join(", ")
        )
    }

    /// The text with its lines joined by single spaces, to look for fields whatever the wrapping.
    fn flat(text: &str) -> String {
        text.lines().map(str::trim).collect::<Vec<_>>().join(" ")
    }

    const ROOM: [&str; 5] = ["########", "#......#", "#......#", "#......#", "########"];

    #[test]
    fn strings_are_escaped_and_read_back() {
        let creatures = r#"(id: "a", name: "Quoth \"the\" raven \\ o'clock", side: Party, size: Medium, at: (1, 1),
            speed: 30, ac: 12, hp: 10, attacks: [(name: "Élan ⚔ \\\"", bonus: 1, damage: "1d4")])"#;
        let text = scene("Square", r"'\'': Custom(name: 'n\u{301}ame'), 'é': Wall", &ROOM, creatures, "")
            .replace("'n\\u{301}ame'", "\"n\u{301}ame \u{200b}\"")
            .replace("name: \"Test\"", "name: \"Dragon's \u{1F409} \\\\ \\\"lair\\\"\"");
        let (scenario, written) = round_trip(&text);
        assert_eq!(scenario.name, "Dragon's \u{1F409} \\ \"lair\"");
        assert!(written.contains(r#"name: "Dragon's 🐉 \\ \"lair\"","#), "{written}");
        assert!(written.contains(r#"name: "Quoth \"the\" raven \\ o'clock""#), "{written}");
        assert!(written.contains(r#"(name: "Élan ⚔ \\\"", bonus: 1, damage: "1d4")"#), "{written}");
        assert!(written.contains(r"'\'': Custom(name: "), "{written}");
        assert!(written.contains("'é': Wall,"), "{written}");
        let escaped = r#"name: "n\u{301}ame \u{200b}""#;
        assert!(written.contains(escaped), "combining and invisible characters escaped: {written}");
    }

    #[test]
    fn a_legend_entry_for_a_default_glyph_keeps_its_place() {
        let legend = "'T': Wall, '#': Custom(name: \"hedge\", blocks_movement: true, color: \"#00Ff10\"), '.': Floor";
        let rows = ["########", "#..T...#", "#......#", "#......#", "########"];
        let (scenario, written) = round_trip(&scene("Square", legend, &rows, "", ""));
        assert_eq!(scenario.glyphs, ['.', '#', '%', '=', '*', '~', '^', '!', 'T']);
        assert_eq!(scenario.map.palette()[1].name, "hedge");
        assert_eq!(scenario.map.palette().len(), scenario.glyphs.len());
        let legend_lines: Vec<&str> =
            written.lines().skip_while(|l| !l.contains("legend")).skip(1).take_while(|l| l.trim() != "},").collect();
        assert_eq!(
            legend_lines,
            ["        '#': Custom(name: \"hedge\", blocks_movement: true, color: \"#00ff10\"),", "        'T': Wall,",],
            "{written}"
        );
        assert!(written.contains("        \"#..T...#\",\n"), "{written}");
    }

    #[test]
    fn hex_maps_are_written_as_their_rows() {
        let rows = ["..~~.#", ".#..%.", "^....=", "...*..", "#....~"];
        for grid in ["Hex(PointyTop)", "Hex(FlatTop)"] {
            let creatures = "(id: \"a\", name: \"A\", side: Party, size: Medium, at: (2, 2), speed: 30, ac: 10, hp: 5)";
            let (scenario, written) = round_trip(&scene(grid, "", &rows, creatures, ""));
            assert!(scenario.grid.is_hex());
            let map: Vec<&str> =
                written.lines().skip_while(|l| l.trim() != "map: [").skip(1).take_while(|l| l.trim() != "],").collect();
            let expected: Vec<String> = rows.iter().map(|r| format!("        \"{r}\",")).collect();
            assert_eq!(map, expected, "{grid}:\n{written}");
        }
    }

    #[test]
    fn objects_keep_their_substance_durability_and_threshold() {
        let objects = r#"(id: "door", name: "Door", size: Medium, at: (1, 1), substance: Wood, durability: Resilient,
                threshold: 5, immunities: ["fire"]),
            (id: "chest", name: "Chest", side: Party, size: Small, at: (2, 1), substance: Iron, ac: 12, hp: 7, max_hp: 9),
            (id: "statue", name: "Statue", size: Huge, at: (3, 1), durability: Fragile, hp: 40, ac: 17, resistances: ["cold"])"#;
        let (scenario, written) = round_trip(&scene("Square", "", &ROOM, "", objects));
        let written = flat(&written);
        let door = scenario.token("door").expect("the door");
        assert_eq!((door.ac, door.hp, door.defenses.threshold), (15, 18, Some(5)));
        assert!(
            written.contains(
                r#"(id: "door", name: "Door", size: Medium, at: (1, 1), substance: Wood, durability: Resilient, threshold: 5, immunities: ["fire"])"#
            ),
            "{written}"
        );
        assert!(
            written.contains(r#"(id: "chest", name: "Chest", side: Party, size: Small, at: (2, 1), ac: 12, hp: 7, max_hp: 9, substance: Iron)"#),
            "{written}"
        );
        assert!(
            written.contains(r#"(id: "statue", name: "Statue", size: Huge, at: (3, 1), ac: 17, hp: 40, durability: Fragile, resistances: ["cold"])"#),
            "{written}"
        );
        assert!(!written.contains("poison") && !written.contains("psychic"), "{written}");
    }

    #[test]
    fn siege_weapons_keep_their_state() {
        let rows = ["..........", "..........", "..........", "..........", "..........", ".........."];
        let objects = r#"(id: "ballista", name: "Ballista", side: Enemy, at: (0, 0), state: Loaded),
            (id: "mangonel", name: "Mangonel", at: (2, 0), state: Aimed, facing: North),
            (id: "cauldron", name: "Cauldron", at: (4, 0), state: Aimed, pours_on: (4, 2)),
            (id: "ram", name: "Ram", at: (6, 0), state: Aimed, hp: 90),
            (id: "tower", name: "Tower", at: (0, 2), size: Gargantuan)"#;
        let objects = objects.replace("(id: \"", "(siege: KIND, id: \"");
        let kinds = ["Ballista", "Mangonel", "Cauldron", "Ram", "SiegeTower"];
        let objects = kinds.iter().fold(objects, |text, kind| text.replacen("KIND", kind, 1));
        let (mut scenario, written) = round_trip(&scene("Square", "", &rows, "", &objects));
        for line in [
            r#"(id: "ballista", name: "Ballista", side: Enemy, at: (0, 0), siege: Ballista, state: Loaded)"#,
            r#"(id: "mangonel", name: "Mangonel", at: (2, 0), facing: North, siege: Mangonel, state: Aimed)"#,
            // A cauldron has nothing to aim: full is the same as aimed.
            r#"(id: "cauldron", name: "Cauldron", at: (4, 0), siege: Cauldron, state: Loaded, pours_on: (4, 2))"#,
            r#"(id: "ram", name: "Ram", at: (6, 0), hp: 90, siege: Ram)"#,
            r#"(id: "tower", name: "Tower", at: (0, 2), siege: SiegeTower)"#,
        ] {
            assert!(written.contains(line), "{line} in\n{written}");
        }
        // Part of the way through aiming: written as loaded, the last whole step.
        let mangonel = scenario.tokens.iter_mut().find(|t| t.id == "mangonel").expect("the mangonel");
        let siege = mangonel.siege.as_mut().expect("a siege weapon");
        siege.crewing = Crewing { loaded: 2, aimed: 1 };
        let reread = Scenario::from_ron("partial.ron", &scenario.to_ron()).expect("valid");
        let siege = reread.token("mangonel").and_then(|t| t.siege).expect("a siege weapon");
        assert_eq!(siege.crewing, Crewing::ready(SiegeKind::Mangonel, Readiness::Loaded));
        assert_eq!(siege.pours_on, None);
        assert_eq!(reread.token("cauldron").and_then(|t| t.siege).and_then(|s| s.pours_on), Some(Cell::new(4, 2)));
    }

    #[test]
    fn a_dying_creature_keeps_its_death_saves() {
        let creatures = r#"(id: "pc", name: "Pip", side: Party, size: Small, at: (1, 1), speed: 25, ac: 12, hp: 0,
                max_hp: 9, pc: true, death_saves: (successes: 1, failures: 2)),
            (id: "npc", name: "Guard", side: Ally, size: Medium, at: (2, 1), speed: 30, ac: 12, hp: 0,
                makes_death_saves: true, death_saves: (failures: 1)),
            (id: "dead", name: "Thug", side: Enemy, size: Medium, at: (3, 1), speed: 30, ac: 12, hp: 0)"#;
        let (scenario, written) = round_trip(&scene("Square", "", &ROOM, creatures, ""));
        let written = flat(&written);
        let pip = scenario.token("pc").expect("Pip");
        assert!(pip.conditions.has(Condition::Unconscious) && pip.conditions.has(Condition::Prone));
        assert!(
            written.contains(
                "hp: 0, max_hp: 9, pc: true, conditions: [Prone, Unconscious], death_saves: (successes: 1, failures: 2))"
            ),
            "{written}"
        );
        assert!(
            written.contains("conditions: [Prone, Unconscious], makes_death_saves: true, death_saves: (failures: 1))"),
            "{written}"
        );
        assert!(written.contains(
            r#"(id: "dead", name: "Thug", side: Enemy, size: Medium, at: (3, 1), speed: 30, ac: 12, hp: 0)"#
        ));
    }

    #[test]
    fn fields_at_their_default_are_left_out() {
        let creatures = r#"(id: "a", name: "Ann", side: Party, size: Medium, at: (1, 1), speed: 30, ac: 12, hp: 10,
                max_hp: 10, pc: false, skills: {}, saves: {}, tracker: false, attacks: [], inspiration: false,
                exhaustion: 0, conditions: [], resistances: [], arcs: (left: Left, right: Right, rear: Rear),
                temp_hp: 0, makes_death_saves: false, attacks_per_action: 1, bonus_actions: [], hidden: false,
                elevation: 0, abilities: (str: 0, dex: 0)),
            (id: "b", name: "Bob", side: Enemy, size: Medium, at: (3, 1), speed: 30, ac: 12, hp: 10, pc: true,
                makes_death_saves: true, abilities: (str: 2, cha: -1),
                attacks: [(name: "Spear", bonus: 3, damage: "1d6", damage_type: "piercing", range: 5, indirect: false)])"#;
        let objects = r#"(id: "keg", name: "Keg", side: Neutral, size: Small, at: (5, 1), ac: 11, hp: 10, max_hp: 10,
            elevation: 0, immunities: ["poison", "psychic"])"#;
        let legend = "'.': Floor, '#': Wall";
        let (_, written) = round_trip(&scene("Square", legend, &ROOM, creatures, objects));
        for default in [
            "pc: false",
            "skills",
            "saves",
            "tracker",
            "max_hp",
            "inspiration",
            "exhaustion",
            "conditions",
            "resistances",
            "immunities",
            "arcs",
            "temp_hp",
            "makes_death_saves",
            "attacks_per_action",
            "bonus_actions",
            "hidden",
            "elevation",
            "side: Neutral",
            "damage_type",
            "range",
            "indirect",
            "legend",
            "chase",
            "dex: 0",
            "abilities: ()",
        ] {
            assert!(!written.contains(default), "{default} in\n{written}");
        }
        assert!(written.contains("hp: 10,\n         abilities: (str: 2, cha: -1), pc: true,\n"), "{written}");
        assert!(written.contains("         attacks: [(name: \"Spear\", bonus: 3, damage: \"1d6\")])"), "{written}");
        assert!(
            written
                .contains("    rules: (diagonals: Standard, flanking: false, facing: false, monster_damage: Rolled),")
        );
    }

    #[test]
    fn attacks_go_a_line_each_and_long_entries_wrap() {
        let creatures = r#"(id: "a", name: "Ann", side: Party, size: Medium, at: (1, 1), speed: 30, ac: 12, hp: 10,
            abilities: (str: 1, dex: 2, con: 3, int: 4, wis: 5, cha: 6), facing: North, shield: Left, pc: true,
            skills: {Stealth: 5, Athletics: 2}, saves: {Dex: 4}, tracker: true, inspiration: true,
            attacks: [(name: "Sword", bonus: 5, damage: "1d8+3", damage_type: "slashing"),
                      (name: "Bow", bonus: 5, damage: "1d8+3", range: 150, long_range: 600)],
            exhaustion: 2, conditions: [Poisoned], vulnerabilities: ["cold"], arcs: (left: front),
            temp_hp: 4, average_damage: false, attacks_per_action: 2, bonus_actions: [Dash, Hide], hidden: true,
            elevation: 10)"#;
        let (_, written) = round_trip(&scene("Square", "", &ROOM, creatures, ""));
        let entry: Vec<&str> = written.lines().skip_while(|l| !l.contains("(id: \"a\"")).take(6).collect();
        assert_eq!(
            entry,
            [
                r#"        (id: "a", name: "Ann", side: Party, size: Medium, at: (1, 1), speed: 30, ac: 12, hp: 10,"#,
                r#"         abilities: (str: 1, dex: 2, con: 3, int: 4, wis: 5, cha: 6), facing: North, shield: Left, pc: true,"#,
                r#"         skills: {Athletics: 2, Stealth: 5}, saves: {Dex: 4}, tracker: true,"#,
                r#"         attacks: [(name: "Sword", bonus: 5, damage: "1d8+3", damage_type: "slashing"),"#,
                r#"                   (name: "Bow", bonus: 5, damage: "1d8+3", range: 150, long_range: 600)],"#,
                r#"         inspiration: true, exhaustion: 2, conditions: [Poisoned], vulnerabilities: ["cold"], arcs: (left: Front),"#,
            ],
            "{written}"
        );
        assert!(
            written.contains(
                "         temp_hp: 4, average_damage: false, attacks_per_action: 2, bonus_actions: [Dash, Hide], hidden: true,\n         elevation: 10),"
            ),
            "{written}"
        );
        assert!(written.lines().all(|l| l.chars().count() <= WIDTH), "{written}");
    }

    #[test]
    fn a_chase_with_its_own_table_round_trips() {
        let creatures = r#"(id: "a", name: "Ann", side: Party, size: Medium, at: (1, 1), speed: 30, ac: 12, hp: 10),
            (id: "b", name: "Bob", side: Enemy, size: Medium, at: (3, 1), speed: 30, ac: 12, hp: 10),
            (id: "c", name: "Cat", side: Neutral, size: Tiny, at: (5, 1), speed: 40, ac: 12, hp: 2)"#;
        let chase = r#"chase: (table: Custom((name: "Sewer \"Chase\"", rows: [
                (roll: "1-3", text: "Slick stones.", test: Save(dc: 12, ability: Dex), on_fail: [Prone]),
                (roll: "4", text: "Pipes.", test: Check(dc: 10, options: [Skill(Acrobatics), Ability(Int)]),
                 alternative: SpendMovement(feet: 10), on_fail: [DifficultTerrain(feet: 10)]),
                (roll: "5", text: "Rats.", always: [OpportunityAttack(attacker: "Ann's rats", bonus: 2, dice: "2d4",
                 kind: "piercing", min_move: 0), Damage(dice: "1d4", kind: "fire"), Fall(distance: "1d4")]),
                (roll: "6-20", text: "No complication.", alternative: TossCoin),
            ])), quarry: ["a"], pursuers: ["b"], start: {"b": -40, "a": 10}, catch_within: 10, sight: 60,
            escape_factors: [CrowdedOrNoisy, Other(name: "faerie fire", advantage: false)], local_creature: "c")"#;
        let (scenario, written) = round_trip(&scene_and("Square", "", &ROOM, creatures, "", chase));
        let chase = scenario.chase.as_ref().expect("a chase");
        assert_eq!(chase.name, "Chase: Test");
        assert_eq!(chase.table_source, TableSource::Custom);
        assert!(!written.contains("name: \"Chase: Test\""), "the default name is left out:\n{written}");
        assert!(written.contains("        start: {\"a\": 10, \"b\": -40},\n"), "{written}");
        assert!(written.contains("                (roll: \"1-3\", text: \"Slick stones.\", test: Save(dc: 12, ability: Dex), on_fail: [Prone]),\n"), "{written}");
    }

    /// Issue 30: a creature's seat at the table is kept, after `pc` as the format's table lists
    /// it, and left out when it has none.
    #[test]
    fn seats_around_the_table_round_trip() {
        let creatures = r#"(id: "a", name: "Ann", side: Party, size: Medium, at: (1, 1), speed: 30, ac: 12, hp: 10,
                seat: North, pc: true),
            (id: "b", name: "Bo", side: Party, size: Small, at: (2, 1), speed: 25, ac: 12, hp: 10, seat: West),
            (id: "c", name: "Cy", side: Enemy, size: Medium, at: (3, 1), speed: 30, ac: 12, hp: 10)"#;
        let (scenario, written) = round_trip(&scene("Square", "", &ROOM, creatures, ""));
        let seats: Vec<Option<super::super::TableEdge>> = scenario.tokens.iter().map(|t| t.seat).collect();
        use super::super::TableEdge::{North, West};
        assert_eq!(seats, [Some(North), Some(West), None]);
        let written = flat(&written);
        assert!(written.contains("hp: 10, pc: true, seat: North)"), "{written}");
        assert!(written.contains("hp: 10, seat: West)"), "{written}");
        assert_eq!(written.matches("seat").count(), 2, "{written}");
        let object = r#"(id: "keg", name: "Keg", size: Small, at: (5, 1), ac: 11, hp: 10, seat: South)"#;
        let error = Scenario::from_ron("keg.ron", &scene("Square", "", &ROOM, "", object)).expect_err("no seat");
        assert!(error.to_string().contains("unknown field `seat`"), "{error}");
        let bad = scene("Square", "", &ROOM, &creatures.replace("seat: West", "seat: Up"), "");
        let error = Scenario::from_ron("up.ron", &bad).expect_err("no such edge");
        assert!(error.to_string().contains("`Up` is not one of `South`, `North`, `East`, `West`"), "{error}");
    }

    #[test]
    fn the_leading_comments_are_kept() {
        let text = format!("// First line\n\n//second  \n   // third\n{}", scene("Square", "", &ROOM, "", ""));
        let text = text.replace("Scenario(name", "Scenario( // lost\n  name");
        let (scenario, written) = round_trip(&text);
        assert_eq!(scenario.header, [" First line", "second  ", " third"]);
        assert!(written.starts_with("// First line\n//second  \n// third\nScenario(\n"), "{written}");
        assert!(!written.contains("lost"));
    }
}
