//! Edits to a scenario as the map editor makes them: painting terrain with a brush or a
//! rectangle, resizing the map, switching between squares and hexes, and adding (a plain token
//! or an SRD monster), placing, duplicating, changing and deleting tokens. Each gives the edited
//! scenario, checked as a file would be, or the reason it can't be made; nothing here imports
//! Bevy.

use super::{MAX_MAP_SIDE, Scenario, Token, TokenKind, monsters};
use crate::rules::creature::{Direction, Side};
use crate::rules::objects::OBJECT_IMMUNITIES;
use crate::rules::{Cell, Grid, Size, TerrainMap};

/// Why an edit can't be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The edited scene fails the check a saved file would (`battlemap check`'s first sentence).
    #[error("{0}")]
    Invalid(String),
    #[error("the legend has no terrain number {terrain}")]
    NoSuchTerrain { terrain: usize },
    #[error("a map is from 1 to {MAX_MAP_SIDE} cells a side")]
    MapSide,
    #[error("there is no room near {name} for a copy")]
    NoRoom { name: String },
    #[error("no token has the id {id:?}")]
    NoSuchToken { id: String },
    /// Only a creature has a player to sit at the table.
    #[error("{name} is an object: only a creature's player takes a seat")]
    NotACreature { name: String },
    /// Terrain that blocks movement isn't painted under a token.
    #[error("{name} stands at {at}: no {terrain} under it")]
    StandsThere { name: String, at: Cell, terrain: String },
    /// The stat block can't be had: no monster of that name (with the nearest names, as
    /// `scenario::monsters::find` words it), or the bestiary's asset is damaged.
    #[error("{0}")]
    NoSuchMonster(String),
}

/// The largest brush, in cells from its centre.
pub const MAX_BRUSH: u32 = 10;

/// The scenario checked as a file would be: written in the canonical form and read back, so an
/// edit is refused with the same sentence `battlemap check` would give the saved file.
pub fn checked(candidate: &Scenario) -> Result<Scenario, EditError> {
    Scenario::from_ron("the edited scene", &candidate.to_ron()).map_err(|errors| {
        EditError::Invalid(errors.0.first().map_or_else(|| "the edit is not valid".to_owned(), |e| e.message.clone()))
    })
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
    pub refused: Option<EditError>,
}

/// Paints `cells` (those on the map) with palette entry `terrain`; a terrain that blocks movement
/// is not painted under a token's space, a siege tower's included (the token would stand inside
/// it, which a scene may not have).
pub fn paint(scenario: &mut Scenario, cells: &[Cell], terrain: usize) -> Result<Painted, EditError> {
    let palette = scenario.map.palette();
    let Some(chosen) = palette.get(terrain) else {
        return Err(EditError::NoSuchTerrain { terrain });
    };
    let blocks = chosen.blocks_movement;
    let name = chosen.name.clone();
    let mut painted = Painted::default();
    for &cell in cells {
        if scenario.map.terrain_index(cell).is_none_or(|t| t == terrain) {
            continue;
        }
        let standing =
            blocks.then(|| scenario.tokens.iter().find(|t| t.cells(scenario.grid).contains(&cell))).flatten();
        if let Some(token) = standing {
            painted.refused.get_or_insert_with(|| EditError::StandsThere {
                name: token.name.clone(),
                at: cell,
                terrain: name.clone(),
            });
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
        return Err(EditError::MapSide);
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
            warnings.push(format!(
                "{} faced {facing:?}, which a {} has no side for: now {turned:?}",
                token.name,
                grid.name()
            ));
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
    let mut token = Token::new_creature(&id, name, at);
    if kind == TokenKind::Object {
        (token.kind, token.side, token.speed) = (TokenKind::Object, Side::Neutral, 0);
    }
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

/// The creature of the SRD stat block `monster` (its index or name) at `at`, made as a scenario's
/// `monster:` makes it (`scenario::monsters::token`), facing as [`add`]'s when the scene uses
/// facing; gives the scenario and its id (`ogre-1`, `ogre-2`…).
///
/// Identical monsters are told apart as the DMG's "Tracking Monster Hit Points" does with
/// stickers: when a second creature of the same stat block and the same name is placed, the
/// first (untagged) becomes "Ogre A" and the new one "Ogre B"; the next ones take the first
/// letter free (C, D…). A creature renamed otherwise ("Grukk") is left alone.
pub fn add_monster(scenario: &Scenario, monster: &str, at: Cell) -> Result<(Scenario, String), EditError> {
    let stat_block = monsters::find(monster).map_err(EditError::NoSuchMonster)?;
    let id = free_id(scenario, &stat_block.index);
    let mut token = monsters::token(stat_block, &id, at);
    if scenario.rules.facing {
        token.facing = Some(Direction::facings(scenario.grid)[0]);
    }
    let mut edited = scenario.clone();
    tag_twins(&mut edited.tokens, &stat_block.index, &mut token);
    edited.tokens.push(token);
    Ok((checked(&edited)?, id))
}

/// Tags `new` and the creatures of its stat block (`index`) that bear its name untagged, when it
/// has a twin (DMG "Tracking Monster Hit Points"): each untagged twin, in the scene's order, and
/// then `new` take the first tag whose name no token bears.
fn tag_twins(tokens: &mut [Token], index: &str, new: &mut Token) {
    let base = new.name.clone();
    let of_the_block = |t: &Token| t.monster.as_deref().is_some_and(|m| crate::srd::index_of(m) == index);
    let twins: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|&(_, t)| of_the_block(t) && (t.name == base || tagged(&t.name, &base)))
        .map(|(i, _)| i)
        .collect();
    if twins.is_empty() {
        return;
    }
    let mut next = 0;
    let mut free_name = |tokens: &[Token]| loop {
        let name = format!("{base} {}", tag(next));
        next += 1;
        if !tokens.iter().any(|t| t.name == name) {
            return name;
        }
    };
    for i in twins {
        if tokens[i].name == base {
            let name = free_name(tokens);
            tokens[i].name = name;
        }
    }
    new.name = free_name(tokens);
}

/// The `n`th sticker's letters, counted from 0: A … Z, then AA, AB… (as a spreadsheet's
/// columns).
fn tag(n: usize) -> String {
    let mut letters = Vec::new();
    let mut n = n + 1;
    while n > 0 {
        n -= 1;
        letters.push(char::from(b'A' + (n % 26) as u8));
        n /= 26;
    }
    letters.iter().rev().collect()
}

/// Whether `name` is `base` with a sticker's letters ("Ogre B" of "Ogre").
fn tagged(name: &str, base: &str) -> bool {
    name.strip_prefix(base)
        .and_then(|rest| rest.strip_prefix(' '))
        .is_some_and(|letters| (1..=2).contains(&letters.len()) && letters.bytes().all(|b| b.is_ascii_uppercase()))
}

/// A copy of token `id`, with a new id, on the nearest place its space fits (within 4 cells).
pub fn duplicate(scenario: &Scenario, id: &str) -> Result<(Scenario, String), EditError> {
    let original = scenario.token(id).ok_or_else(|| unknown(id))?;
    let new_id = free_id(scenario, id);
    let grid = scenario.grid;
    let taken: std::collections::HashSet<Cell> =
        scenario.tokens.iter().filter(|t| !t.holds_creatures()).flat_map(|t| t.cells(grid)).collect();
    let footprint = original.footprint(grid);
    let mut places = brush(grid, original.anchor, 5);
    places.sort_by_key(|at| grid.steps_between(original.anchor, *at));
    // A cheap look for free ground first; the scene with the copy is then checked once.
    let free = places.into_iter().find(|&at| {
        footprint.at(at).all(|c| !taken.contains(&c) && scenario.map.terrain(c).is_some_and(|t| !t.blocks_movement))
    });
    let Some(at) = free else {
        return Err(EditError::NoRoom { name: original.name.clone() });
    };
    let mut copy = original.clone();
    copy.id = new_id.clone();
    copy.anchor = at;
    let mut edited = scenario.clone();
    edited.tokens.push(copy);
    Ok((checked(&edited)?, new_id))
}

/// Token `id` moved to `anchor`, wherever its space fits (no movement rules: the DM sets up).
pub fn place(scenario: &Scenario, id: &str, anchor: Cell) -> Result<Scenario, EditError> {
    let mut edited = scenario.clone();
    let token = edited.tokens.iter_mut().find(|t| t.id == id).ok_or_else(|| unknown(id))?;
    token.anchor = anchor;
    checked(&edited)
}

/// Puts a map image under the grid (or takes it away), checked as the file would be.
pub fn set_background(scenario: &Scenario, background: Option<super::Background>) -> Result<Scenario, EditError> {
    let mut edited = scenario.clone();
    edited.background = background;
    checked(&edited)
}

/// The statistics of the editor's form (`form`, a copy of token `form.id`) set on that token as
/// it is now: what the form doesn't show (its place, attacks, conditions, siege state, seat) stays
/// as play left it.
pub fn update(scenario: &Scenario, form: &Token) -> Result<Scenario, EditError> {
    let mut edited = scenario.clone();
    let token = edited.tokens.iter_mut().find(|t| t.id == form.id).ok_or_else(|| unknown(&form.id))?;
    token.name.clone_from(&form.name);
    token.side = form.side;
    token.size = form.size;
    token.speed = form.speed;
    token.ac = form.ac;
    token.hp = form.hp;
    token.max_hp = form.max_hp;
    token.temp_hp = form.temp_hp;
    token.elevation = form.elevation;
    token.abilities = form.abilities;
    token.skills.clone_from(&form.skills);
    token.exhaustion = form.exhaustion;
    token.facing = form.facing;
    token.shield = form.shield;
    token.player_character = form.player_character;
    token.inspiration = form.inspiration;
    token.hidden = form.hidden;
    checked(&edited)
}

/// Creature `id` seated at `seat`, the edge of the table its player sits at (issue 30), or at
/// none.
pub fn seat(scenario: &Scenario, id: &str, seat: Option<super::TableEdge>) -> Result<Scenario, EditError> {
    let mut edited = scenario.clone();
    let token = edited.tokens.iter_mut().find(|t| t.id == id).ok_or_else(|| unknown(id))?;
    if token.kind != TokenKind::Creature {
        return Err(EditError::NotACreature { name: token.name.clone() });
    }
    token.seat = seat;
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
    EditError::NoSuchToken { id: id.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::HexOrientation;

    const ROOM: &str = r#"Scenario(
    name: "Room",
    grid: Square,
    map: ["......", "......", "......", "......"],
    creatures: [
        (id: "a", name: "Ann", side: Party, size: Medium, at: (0, 0), speed: 30, ac: 12, hp: 9, facing: North),
        (id: "b", name: "Bo", side: Enemy, size: Large, at: (3, 1), speed: 30, ac: 12, hp: 9),
    ],
)"#;

    fn room() -> Scenario {
        Scenario::from_ron("room", ROOM).expect("valid")
    }

    #[test]
    fn a_brush_covers_its_steps_on_both_grids() {
        assert_eq!(brush(Grid::Square, Cell::new(0, 0), 1), vec![Cell::new(0, 0)]);
        assert_eq!(brush(Grid::Square, Cell::new(0, 0), 2).len(), 9);
        let hex = Grid::Hex(HexOrientation::PointyTop);
        assert_eq!(brush(hex, Cell::new(0, 0), 2).len(), 7, "a hex and its six neighbours");
        assert_eq!(brush(hex, Cell::new(0, 0), 3).len(), 19);
        assert!(brush(hex, Cell::new(0, 0), 2).iter().all(|c| hex.steps_between(Cell::new(0, 0), *c) <= 1));
        assert_eq!(brush(Grid::Square, Cell::new(0, 0), 1000).len(), (2 * MAX_BRUSH as usize - 1).pow(2));
    }

    #[test]
    fn a_quick_stroke_leaves_no_gaps() {
        for grid in [Grid::Square, Grid::Hex(HexOrientation::FlatTop)] {
            let cells = stroke(grid, Cell::new(0, 0), Cell::new(7, -3));
            assert_eq!(cells.first(), Some(&Cell::new(0, 0)));
            assert_eq!(cells.last(), Some(&Cell::new(7, -3)));
            for pair in cells.windows(2) {
                assert!(grid.steps_between(pair[0], pair[1]) <= 1, "{grid:?} {pair:?}");
            }
        }
    }

    #[test]
    fn a_rectangle_is_rows_and_columns_as_written_on_hexes_too() {
        let hex = Grid::Hex(HexOrientation::PointyTop);
        let map = TerrainMap::filled(
            hex,
            6,
            5,
            vec![crate::rules::terrain::Terrain::standard(crate::rules::terrain::TerrainKind::Floor)],
        );
        let cells = rectangle(&map, hex.from_storage(1, 1), hex.from_storage(3, 4));
        let mut storage: Vec<(i32, i32)> = cells.iter().map(|c| hex.to_storage(*c)).collect();
        storage.sort();
        let expected: Vec<(i32, i32)> = (1..=3).flat_map(|c| (1..=4).map(move |r| (c, r))).collect();
        assert_eq!(storage, expected);
        // Corners off the map are clamped to it.
        assert_eq!(rectangle(&map, hex.from_storage(-5, -5), hex.from_storage(50, 0)).len(), 6);
    }

    #[test]
    fn walls_are_not_painted_under_a_token() {
        let mut scene = room();
        let done = paint(&mut scene, &[Cell::new(0, 0), Cell::new(1, 0), Cell::new(9, 9)], 1).expect("painted");
        assert_eq!(done.changed, 1);
        let refused = done.refused.expect("refused under Ann");
        assert_eq!(refused, EditError::StandsThere { name: "Ann".into(), at: Cell::new(0, 0), terrain: "wall".into() });
        assert_eq!(refused.to_string(), "Ann stands at (0, 0): no wall under it");
        // Difficult terrain may be under a creature.
        assert_eq!(paint(&mut scene, &[Cell::new(0, 0)], 2).expect("painted").changed, 1);
        assert!(paint(&mut scene, &[Cell::new(0, 0)], 999).is_err());
        assert_eq!(checked(&scene).expect("still valid"), scene);
    }

    #[test]
    fn resizing_keeps_rows_and_refuses_to_drop_tokens() {
        let scene = room();
        let bigger = resize(&scene, 8, 6).expect("grown");
        assert_eq!((bigger.map.width(), bigger.map.height()), (8, 6));
        let error = resize(&scene, 4, 2).expect_err("Bo would fall off");
        assert!(error.to_string().contains("Bo at (3, 1) is off the map"), "{error}");
        assert!(resize(&scene, 0, 3).is_err() && resize(&scene, 501, 3).is_err());
    }

    #[test]
    fn switching_the_grid_keeps_rows_and_columns_and_says_what_changed() {
        let scene = room();
        let hex = Grid::Hex(HexOrientation::PointyTop);
        let (on_hexes, warnings) = switch_grid(&scene, hex).expect("fits on hexes");
        assert_eq!(on_hexes.grid, hex);
        for (before, after) in scene.tokens.iter().zip(&on_hexes.tokens) {
            assert_eq!(Grid::Square.to_storage(before.anchor), hex.to_storage(after.anchor));
        }
        assert!(warnings.iter().any(|w| w.contains("Ann faced North")), "{warnings:?}");
        assert!(warnings.iter().any(|w| w.contains("larger than Medium")), "{warnings:?}");
        let (back, _) = switch_grid(&on_hexes, Grid::Square).expect("back to squares");
        assert_eq!(back.tokens.iter().map(|t| t.anchor).collect::<Vec<_>>(), vec![Cell::new(0, 0), Cell::new(3, 1)]);
        assert_eq!(back.map, scene.map);
    }

    #[test]
    fn tokens_are_added_duplicated_placed_and_deleted() {
        let scene = room();
        let (scene, id) = add(&scene, TokenKind::Creature, Cell::new(5, 3)).expect("added");
        assert_eq!(id, "creature-1");
        let (scene, second) = add(&scene, TokenKind::Object, Cell::new(5, 0)).expect("added");
        assert_eq!(second, "object-1");
        assert!(scene.token("object-1").is_some_and(|t| t.defenses.immunities.len() == 2));
        let (scene, copy) = duplicate(&scene, "a").expect("copied");
        assert_eq!(copy, "a-1");
        let copied = scene.token("a-1").expect("there");
        assert_eq!(Grid::Square.steps_between(copied.anchor, Cell::new(0, 0)), 1);
        assert!(place(&scene, "b", Cell::new(0, 0)).expect_err("overlaps Ann").to_string().contains("overlaps"));
        let scene = place(&scene, "b", Cell::new(1, 2)).expect("placed");
        let (scene, warning) = delete(&scene, "a").expect("deleted");
        assert!(scene.token("a").is_none() && warning.is_none());
        assert!(delete(&scene, "a").is_err());
    }

    /// DMG "Tracking Monster Hit Points": three ogres, each with 59 hit points, told apart by
    /// stickers A, B and C.
    #[test]
    fn identical_monsters_are_tagged_as_the_dmg_tracks_them() {
        let scene = resize(&room(), 10, 4).expect("room for three ogres");
        let (scene, first) = add_monster(&scene, "ogre", Cell::new(5, 0)).expect("the first ogre");
        assert_eq!(first, "ogre-1");
        assert_eq!(scene.token("ogre-1").map(|t| t.name.as_str()), Some("Ogre"), "one ogre needs no sticker");
        let (scene, second) = add_monster(&scene, "Ogre", Cell::new(7, 0)).expect("the second ogre");
        let (scene, third) = add_monster(&scene, "ogre", Cell::new(5, 2)).expect("the third ogre");
        assert_eq!((second.as_str(), third.as_str()), ("ogre-2", "ogre-3"));
        let ogres: Vec<(&str, i32, i32, Option<&str>)> = scene
            .tokens
            .iter()
            .filter(|t| t.monster.is_some())
            .map(|t| (t.name.as_str(), t.hp, t.max_hp, t.monster.as_deref()))
            .collect();
        assert_eq!(
            ogres,
            [("Ogre A", 59, 59, Some("ogre")), ("Ogre B", 59, 59, Some("ogre")), ("Ogre C", 59, 59, Some("ogre"))]
        );
        assert!(scene.token("ogre-3").is_some_and(|t| t.size == Size::Large && t.ac == 11 && t.facing.is_none()));
        // Saved, a sticker is the one field written besides the stat block.
        let written = scene.to_ron().split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(written.contains(r#"(id: "ogre-2", monster: "ogre", name: "Ogre B", at: (7, 0))"#), "{written}");
    }

    /// A creature renamed otherwise keeps its name; the sticker taken is the first free one.
    #[test]
    fn a_renamed_monster_keeps_its_name() {
        let scene = resize(&room(), 10, 4).expect("room");
        let (scene, id) = add_monster(&scene, "goblin", Cell::new(5, 0)).expect("a goblin");
        let mut grukk = scene.token(&id).cloned().expect("added");
        grukk.name = "Grukk".into();
        let scene = update(&scene, &grukk).expect("renamed");
        let (scene, _) = add_monster(&scene, "goblin", Cell::new(6, 0)).expect("a second goblin");
        let names = |scene: &Scenario| -> Vec<String> {
            scene.tokens.iter().filter(|t| t.monster.is_some()).map(|t| t.name.clone()).collect()
        };
        assert_eq!(names(&scene), ["Grukk", "Goblin"], "Grukk is no twin of a goblin");
        let (scene, _) = add_monster(&scene, "goblin", Cell::new(7, 0)).expect("a third goblin");
        assert_eq!(names(&scene), ["Grukk", "Goblin A", "Goblin B"]);
        let (scene, _) = delete(&scene, "goblin-2").expect("Goblin A deleted");
        let (scene, _) = add_monster(&scene, "goblin", Cell::new(8, 0)).expect("a fourth goblin");
        assert_eq!(names(&scene), ["Grukk", "Goblin B", "Goblin A"], "the first sticker free");
    }

    /// A monster is refused where any creature would be (its space overlaps another, or leaves the
    /// map), and a monster the bestiary lacks is refused with the nearest names.
    #[test]
    fn a_monster_that_does_not_fit_is_refused() {
        let scene = room();
        let overlap = add_monster(&scene, "ogre", Cell::new(0, 0)).expect_err("on Ann");
        assert!(overlap.to_string().contains("overlaps"), "{overlap}");
        let refused = add(&scene, TokenKind::Creature, Cell::new(3, 1)).expect_err("on Bo, as add refuses");
        assert!(refused.to_string().contains("overlaps"), "{refused}");
        assert!(add_monster(&scene, "ogre", Cell::new(5, 3)).is_err(), "a Large space off the map's edge");
        let unknown = add_monster(&scene, "orge", Cell::new(1, 2)).expect_err("no such monster");
        assert!(matches!(&unknown, EditError::NoSuchMonster(_)), "{unknown:?}");
        assert!(unknown.to_string().contains("did you mean") && unknown.to_string().contains("`ogre`"), "{unknown}");
        assert_eq!(add_monster(&scene, "goblin", Cell::new(1, 2)).map(|(_, id)| id), Ok("goblin-1".to_owned()));
    }

    #[test]
    fn stickers_run_from_a_to_z_then_aa() {
        assert_eq!([0, 1, 25, 26, 27, 51, 52].map(tag), ["A", "B", "Z", "AA", "AB", "AZ", "BA"]);
        assert!(tagged("Ogre C", "Ogre") && tagged("Ogre AB", "Ogre"));
        assert!(!tagged("Ogre", "Ogre") && !tagged("Ogre Zombie", "Ogre") && !tagged("OgreA", "Ogre"));
    }

    #[test]
    fn a_creature_takes_a_seat_and_leaves_it() {
        let north = seat(&room(), "a", Some(super::super::TableEdge::North)).expect("seated");
        assert_eq!(north.token("a").and_then(|t| t.seat), Some(super::super::TableEdge::North));
        let written = north.to_ron().split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(written.contains("facing: North, seat: North)"), "{written}");
        let standing = seat(&north, "a", None).expect("unseated");
        assert_eq!(standing, room());
        let (with_crate, crate_id) = add(&room(), TokenKind::Object, Cell::new(5, 0)).expect("added");
        let refused = seat(&with_crate, &crate_id, Some(super::super::TableEdge::East)).expect_err("an object");
        assert_eq!(refused.to_string(), "New object is an object: only a creature's player takes a seat");
        assert!(seat(&room(), "nobody", None).is_err());
    }
}
