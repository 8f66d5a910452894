//! Line of sight and cover between spaces, with the explanation of every cover ruling.
//!
//! DMG "Line of Sight" and "Cover" under Using Miniatures (002_ce573f1e51986339.txt, also
//! 003_a4a9f162bdf68765.txt); conventions, "Line of sight" and "Cover". Lines are exact
//! (`lattice.rs`).

use serde::Serialize;

use super::grid::{Cell, Grid};
use super::lattice::{Hit, Point, Ratio, Segment, corners, first_blocker, first_hit};
use super::movement::Occupant;
use super::siege::Shelter;
use super::size::Size;
use super::sweep;
use super::terrain::TerrainMap;
use super::visibility::{clear_line, clear_line_along_sides};

/// The board as sight and cover see it.
#[derive(Clone, Copy, Debug)]
pub struct SightBoard<'a> {
    pub map: &'a TerrainMap,
    /// Every creature and object on the map (their spaces block cover lines).
    pub tokens: &'a [Occupant],
}

/// How much cover a target has (DMG "Cover").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CoverDegree {
    None,
    Half,
    ThreeQuarters,
    Total,
}

impl CoverDegree {
    /// The bonus to AC and Dexterity saving throws; `None` for total cover (it can't be targeted).
    pub fn bonus(self) -> Option<i32> {
        match self {
            CoverDegree::None => Some(0),
            CoverDegree::Half => Some(2),
            CoverDegree::ThreeQuarters => Some(5),
            CoverDegree::Total => None,
        }
    }

    /// Its name alone: `no cover`, `half cover`, `three-quarters cover`, `total cover`.
    pub fn name(self) -> &'static str {
        self.label().split(':').next().unwrap_or_default()
    }

    /// The ruling in words, as the map shows it.
    pub fn label(self) -> &'static str {
        match self {
            CoverDegree::None => "no cover",
            CoverDegree::Half => "half cover: +2 AC and Dex saves",
            CoverDegree::ThreeQuarters => "three-quarters cover: +5 AC and Dex saves",
            CoverDegree::Total => "total cover: can't be targeted directly",
        }
    }

    /// The degree for a number of blocked lines out of 4 (squares) or 6 (hexes).
    fn from_blocked(grid: Grid, blocked: usize) -> Self {
        match (grid, blocked) {
            (_, 0) => CoverDegree::None,
            (Grid::Square, 1..=2) | (Grid::Hex(_), 1..=3) => CoverDegree::Half,
            _ => CoverDegree::ThreeQuarters,
        }
    }
}

/// What stopped a line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Blocker {
    Terrain { name: String, cell: Cell },
    Creature { id: String, cell: Cell },
    MapEdge { cell: Cell },
}

/// One line of a cover ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CoverLine {
    pub from: Point,
    pub to: Point,
    pub blocked_by: Option<Blocker>,
}

/// A cover ruling and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cover {
    pub degree: CoverDegree,
    /// The corner (or point of origin) the attacker chose.
    pub corner: Point,
    /// The cell of the target's space the lines run to.
    pub target_cell: Cell,
    /// The lines from the corner to the target cell's corners.
    pub lines: Vec<CoverLine>,
    /// Total cover: opaque cells (walls) stop every line from every corner of the attacker's space
    /// (or the point of origin) to every point of the target's space, or siege equipment shelters
    /// the target ([`Cover::sheltered`]).
    pub total: bool,
    /// Total cover from siege equipment rather than walls (a siege tower around the target, a
    /// ram's roof over it): `rules::siege::shelter`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheltered: Option<Shelter>,
}

/// Where the lines start: a creature's space (any corner of it) or an area's point of origin.
#[derive(Clone, Copy, Debug)]
pub enum From<'a> {
    Space { cells: &'a [Cell], id: Option<&'a str> },
    Origin(Point),
}

impl SightBoard<'_> {
    fn grid(&self) -> Grid {
        self.map.grid()
    }

    fn sight_blocked(&self, cell: Cell) -> bool {
        self.map.terrain(cell).is_none_or(|t| t.blocks_sight)
    }
}

pub(crate) fn space_corners(grid: Grid, cells: &[Cell]) -> Vec<Point> {
    let mut points: Vec<Point> = cells.iter().flat_map(|&c| corners(grid, c)).collect();
    points.sort();
    points.dedup();
    points
}

/// A clear line of sight from a corner of `from` to any point of `to`, if there is one
/// (conventions, "Line of sight"), found exactly ([`clear_line`]).
pub fn line_of_sight(board: &SightBoard, from: &[Cell], to: &[Cell]) -> Option<Segment> {
    let grid = board.grid();
    clear_line(grid, &space_corners(grid, from), to, &|c| board.sight_blocked(c))
}

/// The cover `target` has against an attack or effect from `from`, with its explanation.
pub fn cover(board: &SightBoard, from: From, target_id: Option<&str>, target: &[Cell]) -> Cover {
    CoverContext::new(board, from).cover(target_id, target)
}

/// What blocks what, cell by cell, for many cover rulings from one attacker: built once, then
/// each ruling only walks its lines.
pub struct CoverContext<'a> {
    board: &'a SightBoard<'a>,
    starts: Vec<Point>,
    /// Per map cell (storage order): the index of the creature whose space blocks cover lines
    /// there, if any (all but the attacker's and Tiny ones).
    creature_at: Vec<Option<u32>>,
    /// Per map cell: blocks cover lines by its terrain; is opaque (blocks sight and cover lines).
    covering: Vec<bool>,
    walls: Vec<bool>,
    /// What walls stop of the lines from each start: the total-cover test shares lines between
    /// neighbouring targets.
    wall_lines: LineMemo<'a>,
}

/// The first blocker of the lines from each start to each lattice point of a square map,
/// remembered: neighbouring cells share corners and side middles, so many rulings from one
/// attacker, or many cells seen from one viewer, walk the same lines. Hex maps walk every line.
struct LineMemo<'a> {
    map: &'a TerrainMap,
    starts: Vec<Point>,
    /// Lattice points a column and a row (half units, the map's edges included).
    size: (i64, i64),
    /// Per start and point: 0 unknown, 1 clear, 2 + k stopped inside the cell of storage index k.
    /// (Seams and pinches are walked again.)
    hits: Vec<std::cell::Cell<u32>>,
}

impl<'a> LineMemo<'a> {
    fn new(map: &'a TerrainMap, starts: Vec<Point>) -> Self {
        let size = (2 * i64::from(map.width()) + 1, 2 * i64::from(map.height()) + 1);
        let len = if map.grid() == Grid::Square { starts.len() * (size.0 * size.1) as usize } else { 0 };
        Self { map, starts, size, hits: vec![std::cell::Cell::new(0); len] }
    }

    /// What first stops `line`, with `blocks`; remembered when it runs from start `i` to a lattice
    /// point of the map.
    fn walk(&self, i: usize, line: Segment, blocks: &impl Fn(Cell) -> bool) -> Option<Hit> {
        let grid = self.map.grid();
        let (w, h) = self.size;
        let to = line.through;
        let slot = (!self.hits.is_empty()
            && line.end == Ratio::ONE
            && line.from == self.starts[i]
            && (0..w).contains(&to.a)
            && (0..h).contains(&to.b))
        .then(|| (i as i64 * w * h + to.a * h + to.b) as usize);
        if let Some(k) = slot {
            match self.hits[k].get() {
                0 => {}
                1 => return None,
                stored => {
                    let width = self.map.width() as i32;
                    let index = (stored - 2) as i32;
                    return Some(Hit::Interior(grid.from_storage(index % width, index / width)));
                }
            }
        }
        let hit = first_hit(grid, line, blocks);
        if let Some(k) = slot {
            let stored = match hit {
                None => 1,
                Some(Hit::Interior(cell)) => storage_index(self.map, cell).map_or(0, |s| s as u32 + 2),
                Some(_) => 0,
            };
            self.hits[k].set(stored);
        }
        hit
    }

    /// A clear line from one of the starts to any point of `cells`, exactly.
    fn clear_line(&self, cells: &[Cell], blocks: &impl Fn(Cell) -> bool) -> Option<Segment> {
        let grid = self.map.grid();
        (0..self.starts.len())
            .find_map(|i| clear_line_along_sides(grid, self.starts[i], cells, &|line| self.walk(i, line, blocks)))
    }
}

impl<'a> CoverContext<'a> {
    pub fn new(board: &'a SightBoard<'a>, from: From) -> Self {
        let grid = board.grid();
        let map = board.map;
        let (starts, attacker_id) = match from {
            From::Space { cells, id } => (space_corners(grid, cells), id),
            From::Origin(point) => (vec![point], None),
        };
        let size = map.width() as usize * map.height() as usize;
        let mut creature_at = vec![None; size];
        for (i, token) in board.tokens.iter().enumerate() {
            if token.size == Size::Tiny || Some(token.id.as_str()) == attacker_id {
                continue;
            }
            for &cell in &token.cells {
                if let Some(k) = storage_index(map, cell) {
                    creature_at[k] = Some(i as u32);
                }
            }
        }
        let mut covering = vec![false; size];
        let mut walls = vec![false; size];
        for cell in map.cells() {
            if let (Some(k), Some(t)) = (storage_index(map, cell), map.terrain(cell)) {
                covering[k] = t.blocks_cover;
                walls[k] = t.is_opaque();
            }
        }
        let wall_lines = LineMemo::new(map, starts.clone());
        Self { board, starts, creature_at, covering, walls, wall_lines }
    }

    /// The cover ruling for a target (whose own space never blocks its lines).
    pub fn cover(&self, target_id: Option<&str>, target: &[Cell]) -> Cover {
        let grid = self.board.grid();
        let map = self.board.map;
        let target_index = target_id.and_then(|id| self.board.tokens.iter().position(|t| t.id == id)).map(|i| i as u32);
        let blocks = |c: Cell| match storage_index(map, c) {
            None => true,
            Some(k) => self.covering[k] || self.creature_at[k].is_some_and(|i| Some(i) != target_index),
        };
        let walls = |c: Cell| storage_index(map, c).is_none_or(|k| self.walls[k]);
        // Total cover first: walls stop every line from every corner to any point of the target.
        let total = self.wall_lines.clear_line(target, &walls).is_none();
        let mut best: Option<(usize, Point, Cell)> = None;
        if total {
            best = self.starts.first().zip(target.first()).map(|(&p, &c)| (corners(grid, c).len(), p, c));
        } else {
            'choice: for &corner in &self.starts {
                for &cell in target {
                    let mut blocked = 0;
                    for end in corners(grid, cell) {
                        if first_blocker(grid, corner, end, &blocks).is_some() {
                            blocked += 1;
                            if best.is_some_and(|(b, ..)| blocked >= b) {
                                break;
                            }
                        }
                    }
                    if best.is_none_or(|(b, ..)| blocked < b) {
                        best = Some((blocked, corner, cell));
                        if blocked == 0 {
                            break 'choice;
                        }
                    }
                }
            }
        }
        let Some((blocked, corner, target_cell)) = best else {
            return Cover {
                degree: CoverDegree::None,
                corner: Point::new(0, 0),
                target_cell: Cell::new(0, 0),
                lines: Vec::new(),
                total: false,
                sheltered: None,
            };
        };
        let explain = |c: Cell| match (map.terrain(c), storage_index(map, c).and_then(|k| self.creature_at[k])) {
            (None, _) => Blocker::MapEdge { cell: c },
            (Some(t), _) if t.blocks_cover => Blocker::Terrain { name: t.name.clone(), cell: c },
            (_, Some(i)) => Blocker::Creature { id: self.board.tokens[i as usize].id.clone(), cell: c },
            (Some(t), None) => Blocker::Terrain { name: t.name.clone(), cell: c },
        };
        let lines = corners(grid, target_cell)
            .into_iter()
            .map(|end| CoverLine {
                from: corner,
                to: end,
                blocked_by: first_blocker(grid, corner, end, &blocks).map(explain),
            })
            .collect();
        let degree = if total { CoverDegree::Total } else { CoverDegree::from_blocked(grid, blocked) };
        Cover { degree, corner, target_cell, lines, total, sheltered: None }
    }
}

/// The cells of the map that a viewer whose space is `from` can't see: no line of sight to any
/// point of them (the map's sight overlay; conventions, "Line of sight"). Found by the sight
/// sweep ([`sweep::seen_cells`]), one pass over the map per corner of the space; the same cells
/// as [`unseen_cells_per_cell`].
pub fn unseen_cells(board: &SightBoard, from: &[Cell]) -> Vec<Cell> {
    let flags = unseen_flags(board, from, None);
    board.map.cells().zip(flags).filter(|&(_, unseen)| unseen).map(|(c, _)| c).collect()
}

/// [`unseen_cells`] as a flag per map cell (storage order). With `within`, lines are looked
/// along only as far as that many cells from the space's corners ([`sweep::seen_cells_within`]),
/// and farther cells may be flagged unseen: for a viewer in a dark scene, who sees nothing beyond
/// the farthest lit cell and its darkvision.
pub fn unseen_flags(board: &SightBoard, from: &[Cell], within: Option<u32>) -> Vec<bool> {
    let map = board.map;
    let blocks: Vec<bool> = map.terrains().map(|t| t.blocks_sight).collect();
    let corners = space_corners(board.grid(), from);
    let seen = match within {
        Some(cells) => sweep::seen_cells_within(map, &blocks, &corners, cells),
        None => sweep::seen_cells(map, &blocks, &corners),
    };
    let mut unseen: Vec<bool> = seen.into_iter().map(|seen| !seen).collect();
    for i in from.iter().filter_map(|&c| map.index_of(c)) {
        unseen[i] = false;
    }
    unseen
}

/// The same cells as [`unseen_cells`], cell by cell: the exact search of [`clear_line`] for each
/// cell of the map on its own, lines shared between neighbouring cells walked once. The reference
/// the sweep is checked against.
pub fn unseen_cells_per_cell(board: &SightBoard, from: &[Cell]) -> Vec<Cell> {
    let lines = LineMemo::new(board.map, space_corners(board.grid(), from));
    let blocks = |c: Cell| board.sight_blocked(c);
    board.map.cells().filter(|c| !from.contains(c) && lines.clear_line(&[*c], &blocks).is_none()).collect()
}

/// The cover of a Medium creature standing in each of `cells`, against `from`: a cover map of the
/// whole battlefield for one attacker (the DM's planning; `benches/sight.rs` times it). The cells
/// are shared out between the machine's cores, each with its own [`CoverContext`].
pub fn cover_map(board: &SightBoard, from: From, cells: &[Cell]) -> Vec<Cover> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(8);
    let chunk = cells.len().div_ceil(threads).max(64);
    if cells.len() <= chunk {
        let context = CoverContext::new(board, from);
        return cells.iter().map(|&c| context.cover(None, &[c])).collect();
    }
    std::thread::scope(|scope| {
        let parts: Vec<_> = cells
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let context = CoverContext::new(board, from);
                    part.iter().map(|&c| context.cover(None, &[c])).collect::<Vec<_>>()
                })
            })
            .collect();
        parts.into_iter().flat_map(|p| p.join().expect("a cover worker finishes")).collect()
    })
}

/// The index of a cell in the map's storage order, or `None` off the map.
fn storage_index(map: &TerrainMap, cell: Cell) -> Option<usize> {
    let (col, row) = map.grid().to_storage(cell);
    (col >= 0 && row >= 0 && (col as u32) < map.width() && (row as u32) < map.height())
        .then(|| row as usize * map.width() as usize + col as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::creature::Side;
    use crate::rules::grid::HexOrientation;
    use crate::rules::terrain::{Terrain, TerrainKind};

    /// `.` floor, `#` wall, `=` low obstacle, `*` fog, `!` arrow slit.
    fn map(grid: Grid, rows: &[&str]) -> TerrainMap {
        let kinds = [
            TerrainKind::Floor,
            TerrainKind::Wall,
            TerrainKind::LowObstacle,
            TerrainKind::Obscuring,
            TerrainKind::ArrowSlit,
        ];
        let mut map =
            TerrainMap::filled(grid, rows[0].len() as u32, rows.len() as u32, kinds.map(Terrain::standard).to_vec());
        for (row, text) in rows.iter().enumerate() {
            for (col, c) in text.chars().enumerate() {
                let i = ".#=*!".find(c).expect("known glyph");
                map.set(grid.from_storage(col as i32, row as i32), i);
            }
        }
        map
    }

    fn creature(id: &str, cells: &[(i32, i32)], size: Size) -> Occupant {
        Occupant {
            id: id.into(),
            cells: cells.iter().map(|&(x, y)| Cell::new(x, y)).collect(),
            side: Side::Enemy,
            size,
            is_object: false,
        }
    }

    fn cover_between(map: &TerrainMap, tokens: &[Occupant], attacker: &str, target: &str) -> Cover {
        let board = SightBoard { map, tokens };
        let a = tokens.iter().find(|t| t.id == attacker).expect("attacker");
        let t = tokens.iter().find(|t| t.id == target).expect("target");
        cover(&board, From::Space { cells: &a.cells, id: Some(attacker) }, Some(target), &t.cells)
    }

    #[test]
    fn an_empty_map_gives_no_cover_and_full_sight() {
        let map = map(Grid::Square, &["......", "......", "......"]);
        let tokens = [creature("a", &[(0, 0)], Size::Medium), creature("b", &[(5, 2)], Size::Medium)];
        assert_eq!(cover_between(&map, &tokens, "a", "b").degree, CoverDegree::None);
        let board = SightBoard { map: &map, tokens: &tokens };
        assert!(line_of_sight(&board, &tokens[0].cells, &tokens[1].cells).is_some());
    }

    /// A wall flush with the far side of the target gives no cover: the attacker picks a corner
    /// whose lines reach the target's four corners without entering the wall.
    #[test]
    fn a_wall_flush_with_the_far_side_gives_no_cover() {
        let map = map(Grid::Square, &[".....", ".....", "....#"]);
        let tokens = [creature("a", &[(0, 2)], Size::Medium), creature("b", &[(3, 2)], Size::Medium)];
        assert_eq!(cover_between(&map, &tokens, "a", "b").degree, CoverDegree::None);
    }

    #[test]
    fn a_creature_beside_the_lines_gives_none_and_one_between_gives_half() {
        let map = map(Grid::Square, &["......", "......", "......"]);
        let beside = [
            creature("a", &[(0, 1)], Size::Medium),
            creature("b", &[(5, 1)], Size::Medium),
            creature("c", &[(2, 0)], Size::Medium),
        ];
        assert_eq!(cover_between(&map, &beside, "a", "b").degree, CoverDegree::None);
        let between = [
            creature("a", &[(0, 1)], Size::Medium),
            creature("b", &[(5, 1)], Size::Medium),
            creature("c", &[(2, 1)], Size::Medium),
        ];
        let ruling = cover_between(&map, &between, "a", "b");
        assert_eq!(ruling.degree, CoverDegree::Half);
        assert!(ruling.lines.iter().any(|l| matches!(&l.blocked_by, Some(Blocker::Creature { id, .. }) if id == "c")));
        // A Tiny creature between gives nothing.
        let tiny = [
            creature("a", &[(0, 1)], Size::Medium),
            creature("b", &[(5, 1)], Size::Medium),
            creature("c", &[(2, 1)], Size::Tiny),
        ];
        assert_eq!(cover_between(&map, &tiny, "a", "b").degree, CoverDegree::None);
    }

    /// DMG: "If three or four of those lines are blocked but the attack can still physically reach
    /// the target (such as when the target is behind an arrow slit), the target has three-quarters
    /// cover."
    #[test]
    fn an_archer_behind_an_arrow_slit_has_three_quarters() {
        // The archer at (1,1) behind a wall, shooting through an arrow slit at (2,1).
        let slit = map(Grid::Square, &["..#......", "..!......", "..#......"]);
        let tokens = [creature("archer", &[(1, 1)], Size::Medium), creature("orc", &[(7, 1)], Size::Medium)];
        let ruling = cover_between(&slit, &tokens, "orc", "archer");
        assert_eq!(ruling.degree, CoverDegree::ThreeQuarters);
        assert!(!ruling.total);
    }

    /// Conventions, "Total cover": only opaque cells give it; a low wall (or crates, or a table)
    /// conceals nothing, so however many lines it blocks it gives three-quarters at most. The same
    /// gap closed by a wall gives total cover.
    #[test]
    fn a_low_wall_gives_three_quarters_and_a_wall_total_cover() {
        let tokens = [creature("archer", &[(1, 1)], Size::Medium), creature("orc", &[(7, 1)], Size::Medium)];
        let low_wall = map(Grid::Square, &["..#......", "..=......", "..#......"]);
        let ruling = cover_between(&low_wall, &tokens, "orc", "archer");
        assert_eq!((ruling.degree, ruling.total), (CoverDegree::ThreeQuarters, false));
        assert_eq!(ruling.lines.iter().filter(|l| l.blocked_by.is_some()).count(), 4);
        let wall = map(Grid::Square, &["..#......", "..#......", "..#......"]);
        let ruling = cover_between(&wall, &tokens, "orc", "archer");
        assert_eq!((ruling.degree, ruling.total), (CoverDegree::Total, true));
    }

    /// A pillar between two creatures in the open: lines graze its faces, so only half cover; a
    /// pillar filling a 1-wide corridor hides the target completely.
    #[test]
    fn a_pillar_in_the_open_gives_half_cover_and_one_in_a_corridor_total_cover() {
        let map = map(Grid::Square, &["...", ".#.", "..."]);
        let tokens = [creature("a", &[(1, 0)], Size::Medium), creature("b", &[(1, 2)], Size::Medium)];
        let ruling = cover_between(&map, &tokens, "a", "b");
        assert_eq!((ruling.degree, ruling.total), (CoverDegree::Half, false));
        let corridor = map_with_pillar();
        let tokens = [creature("a", &[(0, 1)], Size::Medium), creature("b", &[(4, 1)], Size::Medium)];
        let ruling = cover_between(&corridor, &tokens, "a", "b");
        assert_eq!((ruling.degree, ruling.total), (CoverDegree::Total, true));
        let board = SightBoard { map: &corridor, tokens: &tokens };
        assert_eq!(line_of_sight(&board, &tokens[0].cells, &tokens[1].cells), None);
    }

    fn map_with_pillar() -> TerrainMap {
        map(Grid::Square, &["#####", "..#..", "#####"])
    }

    #[test]
    fn fog_blocks_sight_but_not_cover_lines() {
        let map = map(Grid::Square, &["#####", "..*..", "#####"]);
        let tokens = [creature("a", &[(0, 1)], Size::Medium), creature("b", &[(4, 1)], Size::Medium)];
        let board = SightBoard { map: &map, tokens: &tokens };
        assert_eq!(line_of_sight(&board, &tokens[0].cells, &tokens[1].cells), None);
        assert_eq!(cover_between(&map, &tokens, "a", "b").degree, CoverDegree::None);
    }

    /// On hexes, 3 blocked lines of 6 give half cover and 4 three-quarters: found by scanning
    /// walls and creatures placed between two creatures, the ruling always agreeing with its
    /// own lines.
    #[test]
    fn hex_cover_with_three_and_four_blocked_lines() {
        let grid = Grid::Hex(HexOrientation::FlatTop);
        let rows = [".........", ".........", ".........", ".........", "........."];
        let a = grid.from_storage(1, 2);
        let mut seen = std::collections::BTreeMap::new();
        let cells: Vec<Cell> = (0..9).flat_map(|c| (0..5).map(move |r| grid.from_storage(c, r))).collect();
        for b in [grid.from_storage(7, 2), grid.from_storage(6, 1), grid.from_storage(5, 3), grid.from_storage(4, 2)] {
            for (i, &first) in cells.iter().enumerate() {
                for &second in &cells[i + 1..] {
                    if [a, b].contains(&first) || [a, b].contains(&second) {
                        continue;
                    }
                    let mut walls = map(grid, &rows);
                    walls.set(first, 2);
                    let tokens = [
                        creature("a", &[(a.x, a.y)], Size::Medium),
                        creature("b", &[(b.x, b.y)], Size::Medium),
                        creature("c", &[(second.x, second.y)], Size::Medium),
                    ];
                    let ruling = cover_between(&walls, &tokens, "a", "b");
                    if ruling.total {
                        continue;
                    }
                    let blocked = ruling.lines.iter().filter(|l| l.blocked_by.is_some()).count();
                    assert_eq!(ruling.degree, CoverDegree::from_blocked(grid, blocked));
                    seen.entry(blocked).or_insert(ruling.degree);
                }
            }
        }
        assert_eq!(seen.get(&3), Some(&CoverDegree::Half), "{seen:?}");
        assert_eq!(seen.get(&4), Some(&CoverDegree::ThreeQuarters), "{seen:?}");
    }

    #[test]
    fn the_cover_map_agrees_with_single_rulings() {
        let map = map(Grid::Square, &["..........", "...#......", "...#..=...", "......#...", ".........."]);
        let tokens = [creature("a", &[(0, 2)], Size::Medium), creature("c", &[(5, 1)], Size::Medium)];
        let board = SightBoard { map: &map, tokens: &tokens };
        let from = From::Space { cells: &tokens[0].cells, id: Some("a") };
        let cells: Vec<Cell> = map.cells().collect();
        let all = cover_map(&board, from, &cells);
        for (cell, ruling) in cells.iter().zip(&all) {
            assert_eq!(ruling, &cover(&board, from, None, &[*cell]), "{cell}");
        }
    }

    #[test]
    fn hex_cover_counts_six_lines() {
        let grid = Grid::Hex(HexOrientation::PointyTop);
        let map = map(grid, &[".......", ".......", "......."]);
        let a = creature("a", &[(0, 1)], Size::Medium);
        let b = creature("b", &[(5, 1)], Size::Medium);
        let between = creature("c", &[(3, 1)], Size::Medium);
        let tokens = [a.clone(), b.clone(), between];
        let ruling = cover_between(&map, &tokens, "a", "b");
        let blocked = ruling.lines.iter().filter(|l| l.blocked_by.is_some()).count();
        assert_eq!(ruling.lines.len(), 6);
        assert_eq!(ruling.degree, CoverDegree::from_blocked(grid, blocked));
        assert!(ruling.degree >= CoverDegree::Half, "{ruling:?}");
        assert_eq!(cover_between(&map, &[a, b], "a", "b").degree, CoverDegree::None);
        assert_eq!(CoverDegree::from_blocked(grid, 3), CoverDegree::Half);
        assert_eq!(CoverDegree::from_blocked(grid, 4), CoverDegree::ThreeQuarters);
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn rows() -> impl Strategy<Value = Vec<String>> {
            proptest::collection::vec(
                proptest::collection::vec(
                    prop_oneof![7 => Just('.'), 2 => Just('#'), 1 => Just('='), 1 => Just('*')],
                    8,
                ),
                6,
            )
            .prop_map(|rows| rows.into_iter().map(|r| r.into_iter().collect()).collect())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(96))]

            /// Adding a wall, or a creature, never lowers the cover a target has.
            #[test]
            fn adding_a_blocker_never_reduces_cover(rows in rows(), extra in 0usize..48, as_creature in any::<bool>(), hex in any::<bool>()) {
                let grid = if hex { Grid::Hex(HexOrientation::PointyTop) } else { Grid::Square };
                let text: Vec<&str> = rows.iter().map(String::as_str).collect();
                let mut map = map(grid, &text);
                let cells: Vec<Cell> = map.cells().collect();
                let (a, b) = (cells[0], cells[cells.len() - 1]);
                map.set(a, 0);
                map.set(b, 0);
                let tokens = vec![creature("a", &[(a.x, a.y)], Size::Medium), creature("b", &[(b.x, b.y)], Size::Medium)];
                let before = cover_between(&map, &tokens, "a", "b").degree;
                let spot = cells[extra % cells.len()];
                prop_assume!(spot != a && spot != b);
                let mut tokens_after = tokens.clone();
                if as_creature {
                    tokens_after.push(creature("c", &[(spot.x, spot.y)], Size::Medium));
                } else {
                    map.set(spot, 1);
                }
                let after = cover_between(&map, &tokens_after, "a", "b").degree;
                prop_assert!(after >= before, "{:?} then {:?}", before, after);
            }

            /// On an empty map there is no cover and always line of sight, on every grid (away from
            /// the map's edge, which seals it like a wall: on hexes its zigzag can give cover).
            #[test]
            fn an_empty_map_gives_sight_and_no_cover(ax in 1i32..7, ay in 1i32..5, bx in 1i32..7, by in 1i32..5, hex in 0usize..3) {
                let grid = [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)][hex];
                let map = map(grid, &["........"; 6]);
                let (a, b) = (grid.from_storage(ax, ay), grid.from_storage(bx, by));
                prop_assume!(a != b);
                let tokens = vec![creature("a", &[(a.x, a.y)], Size::Medium), creature("b", &[(b.x, b.y)], Size::Medium)];
                prop_assert_eq!(cover_between(&map, &tokens, "a", "b").degree, CoverDegree::None);
                let board = SightBoard { map: &map, tokens: &tokens };
                prop_assert!(line_of_sight(&board, &tokens[0].cells, &tokens[1].cells).is_some());
            }
        }
    }
}
