//! Edits to a scenario as the map editor makes them: painting terrain with a brush or a
//! rectangle, resizing the map, switching between squares and hexes, and adding, placing,
//! duplicating, changing and deleting tokens. Each gives the edited scenario, checked as a file
//! would be, or the reason it can't be made; nothing here imports Bevy.

use super::{MAX_MAP_SIDE, Scenario, Token, TokenKind};
use crate::rules::creature::{Abilities, Direction, Side};
use crate::rules::health::Defenses;
use crate::rules::objects::OBJECT_IMMUNITIES;
use crate::rules::{Cell, Grid, Size, TerrainMap};

/// Why an edit can't be made, in a sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EditError(pub String);

/// The largest brush, in cells from its centre.
pub const MAX_BRUSH: u32 = 10;

/// The scenario checked as a file would be: written in the canonical form and read back, so an
/// edit is refused with the same sentence `battlemap check` would give the saved file.
pub fn checked(candidate: &Scenario) -> Result<Scenario, EditError> {
    Scenario::from_ron("the edited scene", &candidate.to_ron())
        .map_err(|errors| EditError(errors.0.first().map_or_else(|| "the edit is not valid".to_owned(), |e| e.message.clone())))
}

/// The cells a brush of `size` (1: one cell) covers around `center`: within `size - 1` steps on
/// the grid (a square block on squares, a hexagon on hexes).
pub fn brush(grid: Grid, center: Cell, size: u32) -> Vec<Cell> {
    let reach = size.clamp(1, MAX_BRUSH) as i32 - 1;
    let mut cells = Vec::new();
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let within = match grid {
                Grid::Square => true,
                Grid::Hex(_) => (dx + dy).abs() <= reach,
            };
            if within {
                cells.push(Cell::new(center.x + dx, center.y + dy));
            }
        }
    }
    cells
}

/// The cells a stroke of the mouse passes from `a` to `b` (both included), so a quick stroke
/// leaves no gaps.
pub fn stroke(grid: Grid, a: Cell, b: Cell) -> Vec<Cell> {
    if grid.is_hex() {
        return crate::rules::grid::hex_line(a, b);
    }
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let steps = dx.abs().max(dy.abs()).max(1);
    (0..=steps)
        .map(|i| {
            let along = |d: i32| (f64::from(d) * f64::from(i) / f64::from(steps)).round() as i32;
            Cell::new(a.x + along(dx), a.y + along(dy))
        })
        .collect()
}

/// The cells of the rectangle of rows and columns (as the map is written) between two corners.
pub fn rectangle(map: &TerrainMap, a: Cell, b: Cell) -> Vec<Cell> {
    let grid = map.grid();
    let ((ac, ar), (bc, br)) = (grid.to_storage(a), grid.to_storage(b));
    let clamp_col = |c: i32| c.clamp(0, map.width() as i32 - 1);
    let clamp_row = |r: i32| r.clamp(0, map.height() as i32 - 1);
    let (c0, c1) = (clamp_col(ac.min(bc)), clamp_col(ac.max(bc)));
    let (r0, r1) = (clamp_row(ar.min(br)), clamp_row(ar.max(br)));
    (r0..=r1).flat_map(|row| (c0..=c1).map(move |col| grid.from_storage(col, row))).collect()
}

/// What a paint stroke did: cells changed, and the first cell left alone because a token stands
/// there and the terrain would block it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Painted {
    pub changed: usize,
    pub refused: Option<String>,
}

/// Paints `cells` (those on the map) with palette entry `terrain`; a terrain that blocks movement
/// is not painted under a token's space (the token would stand inside it).
pub fn paint(scenario: &mut Scenario, cells: &[Cell], terrain: usize) -> Result<Painted, EditError> {
    let palette = scenario.map.palette();
    let Some(chosen) = palette.get(terrain) else {
        return Err(EditError(format!("the legend has no terrain number {terrain}")));
    };
    let blocks = chosen.blocks_movement;
    let name = chosen.name.clone();
    let mut painted = Painted::default();
    for &cell in cells {
        if scenario.map.terrain_index(cell).is_none_or(|t| t == terrain) {
            continue;
        }
        let standing = blocks
            .then(|| scenario.tokens.iter().find(|t| !t.holds_creatures() && t.cells(scenario.grid).contains(&cell)))
            .flatten();
        if let Some(token) = standing {
            painted.refused.get_or_insert_with(|| format!("{} stands at {cell}: no {name} under it", token.name));
            continue;
        }
        scenario.map.set(cell, terrain);
        painted.changed += 1;
    }
    Ok(painted)
}

/// The map cut or grown to `width × height` (new cells are the legend's first terrain, floor);
/// refused if a token would fall off it.
pub fn resize(scenario: &Scenario, width: u32, height: u32) -> Result<Scenario, EditError> {
    let side = 1..=MAX_MAP_SIDE as u32;
    if !side.contains(&width) || !side.contains(&height) {
        return Err(EditError(format!("a map is from 1 to {MAX_MAP_SIDE} cells a side")));
    }
    let mut edited = scenario.clone();
    edited.map = remade(&scenario.map, scenario.grid, width, height);
    checked(&edited)
}

/// `map`'s rows and columns copied onto a `width × height` map of `grid`.
fn remade(map: &TerrainMap, grid: Grid, width: u32, height: u32) -> TerrainMap {
    let mut remade = TerrainMap::filled(grid, width, height, map.palette().to_vec());
    for row in 0..height.min(map.height()) as i32 {
        for col in 0..width.min(map.width()) as i32 {
            if let Some(terrain) = map.terrain_index(map.grid().from_storage(col, row)) {
                remade.set(grid.from_storage(col, row), terrain);
            }
        }
    }
    remade
}

/// The scene on another grid: the map's rows stay as written and each token keeps its row and
/// column; what the new grid can't keep is dropped and said in the warnings (facings a hex has
/// no side for, a Gargantuan creature's larger square space). Refused if spaces then overlap or
/// stand in walls (a Large creature covers three hexes, not four squares).
pub fn switch_grid(scenario: &Scenario, grid: Grid) -> Result<(Scenario, Vec<String>), EditError> {
    let old = scenario.grid;
    let mut edited = scenario.clone();
    edited.grid = grid;
    edited.map = remade(&scenario.map, grid, scenario.map.width(), scenario.map.height());
    let carry = |cell: Cell| {
        let (col, row) = old.to_storage(cell);
        grid.from_storage(col, row)
    };
    let mut warnings = Vec::new();
    for token in &mut edited.tokens {
        token.anchor = carry(token.anchor);
        if let Some(facing) = token.facing.filter(|f| !Direction::facings(grid).contains(f)) {
            let turned = Direction::facings(grid)[0];
            warnings.push(format!("{} faced {facing:?}, which a {} has no side for: now {turned:?}", token.name, grid.name()));
            token.facing = Some(turned);
        }
        if token.square_side.take().is_some() && grid.is_hex() {
            warnings.push(format!("{}'s larger square space is the Gargantuan hex space now", token.name));
        }
        if let Some(siege) = token.siege.as_mut() {
            siege.pours_on = siege.pours_on.map(carry);
        }
    }
    if old.is_hex() != grid.is_hex() && edited.tokens.iter().any(|t| t.size > Size::Medium) {
        warnings.push("creatures larger than Medium cover a different space on the new grid".to_owned());
    }
    Ok((checked(&edited)?, warnings))
}

/// A new token's id: `base-N` for the first N not taken.
fn free_id(scenario: &Scenario, base: &str) -> String {
    (1..).map(|n| format!("{base}-{n}")).find(|id| scenario.token(id).is_none()).unwrap_or_else(|| base.to_owned())
}

/// A new creature (a Medium enemy with plain statistics, to fill in) or object (a Medium wooden
/// crate) at `at`; gives the scenario and its id.
pub fn add(scenario: &Scenario, kind: TokenKind, at: Cell) -> Result<(Scenario, String), EditError> {
    let (base, name) = match kind {
        TokenKind::Creature => ("creature", "New creature"),
        TokenKind::Object => ("object", "New object"),
    };
    let id = free_id(scenario, base);
    let mut token = Token {
        id: id.clone(),
        name: name.to_owned(),
        kind,
        side: if kind == TokenKind::Creature { Side::Enemy } else { Side::Neutral },
        size: Size::Medium,
        square_side: None,
        anchor: at,
        speed: if kind == TokenKind::Creature { 30 } else { 0 },
        ac: 10,
        hp: 10,
        max_hp: 10,
        abilities: Abilities::default(),
        facing: None,
        shield: None,
        player_character: false,
        skills: Default::default(),
        saves: Default::default(),
        tracker: false,
        attacks: Vec::new(),
        inspiration: false,
        exhaustion: 0,
        conditions: Default::default(),
        defenses: Defenses::default(),
        arcs: Default::default(),
        temp_hp: 0,
        makes_death_saves: false,
        death_saves: Default::default(),
        average_damage: None,
        turn: Default::default(),
        hidden: false,
        elevation: 0,
        siege: None,
        substance: None,
        durability: None,
    };
    if kind == TokenKind::Object {
        token.defenses.immunities.extend(OBJECT_IMMUNITIES);
    }
    if scenario.rules.facing && kind == TokenKind::Creature {
        token.facing = Some(Direction::facings(scenario.grid)[0]);
    }
    let mut edited = scenario.clone();
    edited.tokens.push(token);
    Ok((checked(&edited)?, id))
}

/// A copy of token `id`, with a new id, on the nearest place its space fits.
pub fn duplicate(scenario: &Scenario, id: &str) -> Result<(Scenario, String), EditError> {
    let original = scenario.token(id).ok_or_else(|| unknown(id))?;
    let new_id = free_id(scenario, id);
    for reach in 1..=4 {
        for at in brush(scenario.grid, original.anchor, reach + 1) {
            let mut copy = original.clone();
            copy.id = new_id.clone();
            copy.anchor = at;
            let mut edited = scenario.clone();
            edited.tokens.push(copy);
            if let Ok(edited) = checked(&edited) {
                return Ok((edited, new_id));
            }
        }
    }
    Err(EditError(format!("there is no room near {} for a copy", original.name)))
}

/// Token `id` moved to `anchor`, wherever its space fits (no movement rules: the DM sets up).
pub fn place(scenario: &Scenario, id: &str, anchor: Cell) -> Result<Scenario, EditError> {
    let mut edited = scenario.clone();
    let token = edited.tokens.iter_mut().find(|t| t.id == id).ok_or_else(|| unknown(id))?;
    token.anchor = anchor;
    checked(&edited)
}

/// Token `token.id` replaced by `token` (its statistics edited in the form).
pub fn update(scenario: &Scenario, token: Token) -> Result<Scenario, EditError> {
    let mut edited = scenario.clone();
    let slot = edited.tokens.iter_mut().find(|t| t.id == token.id).ok_or_else(|| unknown(&token.id))?;
    *slot = token;
    checked(&edited)
}

/// The scene without token `id`; the scene's chase forgets it too (and is dropped, with a
/// warning, if it has no quarry or no pursuer left).
pub fn delete(scenario: &Scenario, id: &str) -> Result<(Scenario, Option<String>), EditError> {
    let mut edited = scenario.clone();
    let before = edited.tokens.len();
    edited.tokens.retain(|t| t.id != id);
    if edited.tokens.len() == before {
        return Err(unknown(id));
    }
    let mut warning = None;
    if let Some(chase) = edited.chase.as_mut() {
        chase.quarry.retain(|q| q != id);
        chase.pursuers.retain(|p| p != id);
        chase.start.remove(id);
        if chase.rules.local_creature.as_ref().is_some_and(|(local, _)| local == id) {
            chase.rules.local_creature = None;
        }
        if chase.quarry.is_empty() || chase.pursuers.is_empty() {
            warning = Some(format!("the scene's chase {:?} had no one left on one side and was removed", chase.name));
            edited.chase = None;
        }
    }
    Ok((checked(&edited)?, warning))
}

fn unknown(id: &str) -> EditError {
    EditError(format!("no token has the id {id:?}"))
}
