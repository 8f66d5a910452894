//! The sight sweep: every cell that some corner of a viewer's space sees, for the whole map in
//! one pass per corner, exactly as the per-cell rule (`sight::unseen_cells_per_cell`) decides it.
//!
//! DMG "Line of Sight" under Using Miniatures (002_ce573f1e51986339.txt): a corner of the
//! viewer's space and *any* point of the cell joined by a line no sight-blocking cell blocks;
//! conventions, "Lines" (grazing a face is clear; a seam between two blocking cells and a pinch
//! between two diagonally touching blocking squares block; the map's edge seals it) and "Line of
//! sight".
//!
//! From one corner `P`, every ray is clear up to some point and blocked beyond (a line's clear
//! part only grows back towards `P`), and a cell is seen when a ray is clear up to a point of it.
//! The sweep follows the rays through the cells in order of distance from `P` (a cell's centre is
//! nearer to `P` than that of any cell a ray from `P` passes into from it, as neighbouring cells
//! are mirror images across their shared side), so every ray that reaches a cell is known before
//! the cell is looked at. Each cell holds the set of rays that cross its interior and are clear
//! where they enter it: intervals of directions with open or closed ends, and single directions,
//! compared exactly by cross products of lattice vectors (all less than a half turn wide). A
//! cell that does not block passes each ray on through the side it leaves by; a ray that leaves
//! through a vertex (a direction towards a lattice point) passes that vertex alone: it touches
//! every cell there, is stopped by a pinch, then enters a cell or runs along a side, where a seam
//! stops it. Rays along the sides at `P` are followed the same way. So the sweep visits only the
//! cells a ray reaches, each once, and needs no sampling: the rays between two vertex directions
//! cross the same cells, so an open interval stands for all of them.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::grid::{Cell, Grid};
use super::lattice::{Point, centre, ring};
use super::terrain::TerrainMap;

/// A direction from the start corner: a lattice vector (half units or sixths).
type Dir = (i64, i64);

fn cross(a: Dir, b: Dir) -> i64 {
    a.0 * b.1 - a.1 * b.0
}

fn dot(a: Dir, b: Dir) -> i64 {
    a.0 * b.0 + a.1 * b.1
}

fn sub(a: Point, b: Point) -> Dir {
    (a.a - b.a, a.b - b.b)
}

/// The order of two directions that lie within less than a half turn of each other (the rays
/// through one cell, or one cell's corner): turning the positive way from `a` reaches `b`.
fn order(a: Dir, b: Dir) -> Ordering {
    0.cmp(&cross(a, b))
}

/// A set of directions between `lo` and `hi` (in [`order`]), each end in or out of it.
#[derive(Clone, Copy, Debug)]
struct Span {
    lo: Dir,
    hi: Dir,
    lo_in: bool,
    hi_in: bool,
}

impl Span {
    /// The directions strictly between `a` and `b`.
    fn between(a: Dir, b: Dir) -> Self {
        let (lo, hi) = if order(a, b) == Ordering::Greater { (b, a) } else { (a, b) };
        Self { lo, hi, lo_in: false, hi_in: false }
    }

    /// The one direction `d`.
    fn ray(d: Dir) -> Self {
        Self { lo: d, hi: d, lo_in: true, hi_in: true }
    }

    fn is_empty(&self) -> bool {
        match order(self.lo, self.hi) {
            Ordering::Less => false,
            Ordering::Equal => !(self.lo_in && self.hi_in),
            Ordering::Greater => true,
        }
    }

    fn contains(&self, d: Dir) -> bool {
        let above = match order(self.lo, d) {
            Ordering::Less => true,
            Ordering::Equal => self.lo_in,
            Ordering::Greater => false,
        };
        let below = match order(d, self.hi) {
            Ordering::Less => true,
            Ordering::Equal => self.hi_in,
            Ordering::Greater => false,
        };
        above && below
    }

    /// The part of the span strictly between `open.lo` and `open.hi`.
    fn clip(&self, open: Span) -> Self {
        let (lo, lo_in) = match order(self.lo, open.lo) {
            Ordering::Greater => (self.lo, self.lo_in),
            _ => (open.lo, false),
        };
        let (hi, hi_in) = match order(self.hi, open.hi) {
            Ordering::Less => (self.hi, self.hi_in),
            _ => (open.hi, false),
        };
        Self { lo, hi, lo_in, hi_in }
    }
}

/// Sorts the spans and joins those that overlap or meet at a direction one of them holds.
fn normalise(spans: &mut Vec<Span>) {
    spans.sort_by(|x, y| order(x.lo, y.lo).then(y.lo_in.cmp(&x.lo_in)));
    let mut last = 0;
    for i in 1..spans.len() {
        let (a, b) = (spans[last], spans[i]);
        let joined = match order(b.lo, a.hi) {
            Ordering::Less => true,
            Ordering::Equal => a.hi_in || b.lo_in,
            Ordering::Greater => false,
        };
        if joined {
            match order(b.hi, a.hi) {
                Ordering::Greater => (spans[last].hi, spans[last].hi_in) = (b.hi, b.hi_in),
                Ordering::Equal => spans[last].hi_in |= b.hi_in,
                Ordering::Less => {}
            }
        } else {
            last += 1;
            spans[last] = b;
        }
    }
    spans.truncate(last + 1);
}

/// The cells that meet at a vertex, each with the index of that vertex in its ring of corners:
/// 4 on squares, 3 on hexes (none if the point is no vertex).
#[derive(Clone, Copy)]
struct Around {
    cells: [(Cell, usize); 4],
    len: usize,
}

impl std::ops::Deref for Around {
    type Target = [(Cell, usize)];

    fn deref(&self) -> &[(Cell, usize)] {
        &self.cells[..self.len]
    }
}

/// What a ray finds just past a vertex it goes through.
enum Onward {
    /// The interior of this cell.
    Cell(Cell),
    /// The side from the vertex to this corner, between these two cells.
    Side(Point, Cell, Cell),
}

/// Limit on the vertices one ray passes along sides: a ray along sides runs along a grid line,
/// and the map's edge stops it long before.
const MAX_VERTICES: usize = 1 << 16;

/// The sweep's state for one map; [`Sweep::run`] adds what one start corner sees.
struct Sweep<'a> {
    grid: Grid,
    map: &'a TerrainMap,
    /// Per map cell (storage order): it blocks sight.
    blocks: &'a [bool],
    /// The lattice points per cell side (2 or 6) and a cell's corners from its origin.
    scale: i64,
    offsets: Vec<Point>,
    seen: Vec<bool>,
    /// The cells seen, in the order they were first seen (storage indices).
    seen_list: Vec<usize>,
    /// Per map cell: its place in `sets` during a run, or `u32::MAX`.
    slot: Vec<u32>,
    /// The rays reaching each cell the run has reached, and whether the cell was looked at.
    sets: Vec<(Vec<Span>, bool)>,
    touched: Vec<usize>,
    queue: BinaryHeap<Reverse<(i64, Cell)>>,
    start: Point,
    /// The farthest a run goes, as a squared distance in lattice units (`None`: the whole map).
    limit: Option<i64>,
}

impl<'a> Sweep<'a> {
    fn new(map: &'a TerrainMap, blocks: &'a [bool]) -> Self {
        let grid = map.grid();
        let size = map.width() as usize * map.height() as usize;
        let scale = match grid {
            Grid::Square => 2,
            Grid::Hex(_) => 6,
        };
        // Cell (x, y)'s corners are these plus `scale · (x, y)` (its top-left corner on squares,
        // its centre on hexes).
        let offsets = ring(grid, Cell::new(0, 0)).to_vec();
        Self {
            grid,
            map,
            blocks,
            scale,
            offsets,
            seen: vec![false; size],
            seen_list: Vec::new(),
            slot: vec![u32::MAX; size],
            sets: Vec::new(),
            touched: Vec::new(),
            queue: BinaryHeap::new(),
            start: Point::new(0, 0),
            limit: None,
        }
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        let (col, row) = self.grid.to_storage(cell);
        let (width, height) = (self.map.width(), self.map.height());
        (col >= 0 && row >= 0 && (col as u32) < width && (row as u32) < height)
            .then(|| row as usize * width as usize + col as usize)
    }

    /// Cells off the map block (conventions: the map's edge seals it).
    fn blocks(&self, cell: Cell) -> bool {
        self.index(cell).is_none_or(|k| self.blocks.get(k).copied().unwrap_or(true))
    }

    fn mark(&mut self, cell: Cell) {
        if let Some(k) = self.index(cell) {
            self.see(k);
        }
    }

    fn see(&mut self, k: usize) {
        if !self.seen[k] {
            self.seen[k] = true;
            self.seen_list.push(k);
        }
    }

    /// The cells around the lattice point `v`.
    fn around(&self, v: Point) -> Around {
        let mut around = Around { cells: [(Cell::new(0, 0), 0); 4], len: 0 };
        for (i, o) in self.offsets.iter().enumerate() {
            let (a, b) = (v.a - o.a, v.b - o.b);
            if a.rem_euclid(self.scale) == 0 && b.rem_euclid(self.scale) == 0 && around.len < 4 {
                let cell = Cell::new((a / self.scale) as i32, (b / self.scale) as i32);
                around.cells[around.len] = (cell, i);
                around.len += 1;
            }
        }
        around
    }

    /// The cell across side `i` (from corner `i` to corner `i + 1`) of `cell`.
    fn across(&self, cell: Cell, i: usize) -> Cell {
        match self.grid {
            Grid::Square => {
                let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][i % 4];
                cell.offset(dx, dy)
            }
            Grid::Hex(_) => super::lattice::hex_across(cell, i),
        }
    }

    /// The squared distance from the start to the cell's centre, in lattice units (the axial
    /// basis's metric on hexes).
    fn distance(&self, cell: Cell) -> i64 {
        let (a, b) = sub(centre(self.grid, cell), self.start);
        match self.grid {
            Grid::Square => a * a + b * b,
            Grid::Hex(_) => a * a + a * b + b * b,
        }
    }

    /// Rays `span` reach `cell`, crossing into its interior clear: it is seen, and looked at
    /// later (cells off the map block, and are no part of the answer).
    fn add(&mut self, cell: Cell, span: Span) {
        if span.is_empty() {
            return;
        }
        let Some(k) = self.index(cell) else { return };
        self.see(k);
        if self.slot[k] == u32::MAX {
            self.slot[k] = self.touched.len() as u32;
            if self.sets.len() <= self.touched.len() {
                self.sets.push((Vec::new(), false));
            }
            let fresh = &mut self.sets[self.touched.len()];
            fresh.0.clear();
            fresh.1 = false;
            self.touched.push(k);
            self.queue.push(Reverse((self.distance(cell), cell)));
        }
        let distance = self.distance(cell);
        let set = &mut self.sets[self.slot[k] as usize];
        debug_assert!(!set.1, "rays reached {cell} after it was looked at");
        if set.1 {
            // Never on a grid: the order of distances rules it out. Look at the cell again.
            set.1 = false;
            self.queue.push(Reverse((distance, cell)));
        }
        set.0.push(span);
    }

    /// A pinch at the vertex `v` (squares only): the two cells of one diagonal block and neither
    /// of the other does.
    fn pinched(&self, v: Point) -> bool {
        if self.grid != Grid::Square {
            return false;
        }
        let (x, y) = ((v.a / 2) as i32, (v.b / 2) as i32);
        let [nw, ne, sw, se] =
            [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)].map(|(x, y)| self.blocks(Cell::new(x, y)));
        (nw && se && !ne && !sw) || (ne && sw && !nw && !se)
    }

    /// What the ray in direction `d` meets just past the vertex `v`.
    fn onward(&self, v: Point, d: Dir, around: &Around) -> Option<Onward> {
        for &(cell, i) in around.iter() {
            let ring = ring(self.grid, cell);
            let n = ring.len();
            let (before, after) = (ring[(i + n - 1) % n], ring[(i + 1) % n]);
            let (eb, ea) = (sub(before, v), sub(after, v));
            if cross(eb, d) == 0 && dot(eb, d) > 0 {
                return Some(Onward::Side(before, cell, self.across(cell, (i + n - 1) % n)));
            }
            let turn = cross(eb, ea).signum();
            if cross(eb, d).signum() == turn && cross(d, ea).signum() == turn {
                return Some(Onward::Cell(cell));
            }
        }
        None
    }

    /// The ray in direction `d` reaches the vertex `v` clear (from the start itself, if `at_start`):
    /// it touches every cell there; unless a pinch stops it, it goes on into a cell, or along
    /// sides until a seam stops it or it enters a cell.
    fn through_vertex(&mut self, mut v: Point, d: Dir, mut at_start: bool) {
        for _ in 0..MAX_VERTICES {
            let around = self.around(v);
            for &(cell, _) in around.iter() {
                self.mark(cell);
            }
            // A line that starts at a pinch is not blocked by it.
            if !at_start && self.pinched(v) {
                return;
            }
            at_start = false;
            match self.onward(v, d, &around) {
                Some(Onward::Cell(cell)) => return self.add(cell, Span::ray(d)),
                Some(Onward::Side(to, a, b)) => {
                    if self.blocks(a) && self.blocks(b) {
                        return;
                    }
                    v = to;
                }
                None => return,
            }
        }
    }

    /// Passes the rays that reached `cell` on to the cells beyond it.
    fn look_at(&mut self, cell: Cell) {
        let Some(k) = self.index(cell) else { return };
        let slot = self.slot[k] as usize;
        self.sets[slot].1 = true;
        if self.blocks.get(k).copied().unwrap_or(true) {
            return;
        }
        let mut spans = std::mem::take(&mut self.sets[slot].0);
        normalise(&mut spans);
        let p = self.start;
        let ring = ring(self.grid, cell);
        let n = ring.len();
        let inside = cross(sub(ring[1], ring[0]), sub(centre(self.grid, cell), ring[0])).signum();
        // A side the rays leave by: the start strictly on the cell's side of it.
        let mut back = [false; 6];
        for (i, b) in back.iter_mut().enumerate().take(n) {
            let h = cross(sub(ring[(i + 1) % n], ring[i]), sub(p, ring[i]));
            *b = h != 0 && h.signum() == inside;
        }
        for i in (0..n).filter(|&i| back[i]) {
            let side = Span::between(sub(ring[i], p), sub(ring[(i + 1) % n], p));
            let next = self.across(cell, i);
            for span in &spans {
                self.add(next, span.clip(side));
            }
        }
        for i in (0..n).filter(|&i| back[i] && back[(i + n - 1) % n]) {
            let d = sub(ring[i], p);
            if spans.iter().any(|s| s.contains(d)) {
                self.through_vertex(ring[i], d, false);
            }
        }
        spans.clear();
        self.sets[slot].0 = spans;
    }

    /// Adds what the corner `start` sees.
    fn run(&mut self, start: Point) {
        self.start = start;
        let around = self.around(start);
        for &(cell, i) in around.iter() {
            self.mark(cell);
            let ring = ring(self.grid, cell);
            let n = ring.len();
            let (before, after) = (sub(ring[(i + n - 1) % n], start), sub(ring[(i + 1) % n], start));
            if !self.blocks(cell) {
                self.add(cell, Span::between(before, after));
            }
            // Along the side from the start to the corner before it (each side at the start is
            // the one before it of exactly one cell there).
            self.through_vertex(start, before, true);
        }
        // Cells are looked at nearest first, so stopping past the limit changes nothing nearer.
        while let Some(Reverse((distance, cell))) = self.queue.pop() {
            if self.limit.is_some_and(|limit| distance > limit) {
                self.queue.clear();
                break;
            }
            self.look_at(cell);
        }
        for &k in &self.touched {
            self.slot[k] = u32::MAX;
        }
        self.touched.clear();
    }
}

/// Per map cell (storage order, as `TerrainMap::cells`): whether a line from one of `starts` (lattice
/// points, the corners of a viewer's space) reaches some point of it without being blocked
/// (conventions, "Lines"), where `blocks` says per cell (storage order) whether it blocks sight
/// and cells off the map block. Exact, and the same answer as the per-cell rule.
pub fn seen_cells(map: &TerrainMap, blocks: &[bool], starts: &[Point]) -> Vec<bool> {
    let mut sweep = Sweep::new(map, blocks);
    for &start in starts {
        sweep.run(start);
    }
    sweep.seen
}

/// As [`seen_cells`], for the cells whose centres are within `cells` cells of a start: a light's
/// reach. Cells farther are not looked at (some may still be marked seen).
pub fn seen_cells_within(map: &TerrainMap, blocks: &[bool], starts: &[Point], cells: u32) -> Vec<bool> {
    within(map, blocks, starts, cells).seen
}

/// As [`seen_cells_within`], the cells seen listed (storage indices, each once, in no useful
/// order): a light's sweep then looks only at them.
pub fn seen_list_within(map: &TerrainMap, blocks: &[bool], starts: &[Point], cells: u32) -> Vec<usize> {
    within(map, blocks, starts, cells).seen_list
}

fn within<'a>(map: &'a TerrainMap, blocks: &'a [bool], starts: &[Point], cells: u32) -> Sweep<'a> {
    let mut sweep = Sweep::new(map, blocks);
    let reach = sweep.scale * i64::from(cells);
    sweep.limit = Some(reach * reach);
    for &start in starts {
        sweep.run(start);
    }
    sweep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::HexOrientation;
    use crate::rules::sight::{SightBoard, unseen_cells, unseen_cells_per_cell};
    use crate::rules::size::{Footprint, Size};
    use crate::rules::terrain::{Terrain, TerrainKind};
    use crate::rules::visibility::clear_line;

    const GRIDS: [Grid; 3] = [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)];

    /// A map of rows: `.` floor, `#` wall, `=` low obstacle (blocks cover lines, not sight), `*`
    /// obscuring (blocks sight only).
    fn map(grid: Grid, rows: &[&str]) -> TerrainMap {
        let kinds = [TerrainKind::Floor, TerrainKind::Wall, TerrainKind::LowObstacle, TerrainKind::Obscuring];
        let mut map =
            TerrainMap::filled(grid, rows[0].len() as u32, rows.len() as u32, kinds.map(Terrain::standard).to_vec());
        for (row, text) in rows.iter().enumerate() {
            for (col, glyph) in text.chars().enumerate() {
                map.set(grid.from_storage(col as i32, row as i32), ".#=*".find(glyph).unwrap_or(0));
            }
        }
        map
    }

    fn blocking(map: &TerrainMap) -> Vec<bool> {
        map.terrains().map(|t| t.blocks_sight).collect()
    }

    /// The cells seen from the one point `start`, by the sweep and by the per-cell rule.
    fn both(map: &TerrainMap, start: Point) -> (Vec<Cell>, Vec<Cell>) {
        let blocks = blocking(map);
        let swept: Vec<Cell> =
            map.cells().zip(seen_cells(map, &blocks, &[start])).filter(|&(_, s)| s).map(|(c, _)| c).collect();
        let wall = |c: Cell| map.terrain(c).is_none_or(|t| t.blocks_sight);
        let one_by_one: Vec<Cell> =
            map.cells().filter(|&c| clear_line(map.grid(), &[start], &[c], &wall).is_some()).collect();
        (swept, one_by_one)
    }

    #[test]
    fn an_empty_map_is_all_seen_from_anywhere() {
        for grid in GRIDS {
            let map = map(grid, &["......"; 5]);
            for cell in map.cells() {
                for start in ring(grid, cell).iter() {
                    let (swept, one_by_one) = both(&map, *start);
                    assert_eq!(swept, one_by_one, "{grid:?} from {start:?}");
                    if grid == Grid::Square {
                        assert_eq!(swept.len(), 30, "from {start:?}");
                    }
                }
            }
        }
    }

    /// From the corner (1, 1), the ray through the vertices (3, 2) and (5, 3) grazes the wall
    /// (3, 1) above it and the wall (4, 3) below it: every ray beside it is stopped, yet that one
    /// ray goes on and sees the cells along it, and no others, beyond.
    #[test]
    fn a_slit_of_no_width_between_two_wall_corners_is_seen_through() {
        let map =
            map(Grid::Square, &["..........", "...#......", "..........", "....#.....", "..........", ".........."]);
        let (swept, one_by_one) = both(&map, Point::square_corner(1, 1));
        assert_eq!(swept, one_by_one);
        // Every other ray towards these cells enters one of the two walls.
        for x in 5..10 {
            let y = 1 + (x - 1) / 2;
            assert!(swept.contains(&Cell::new(x, y)), "({x}, {y}) on the ray");
        }
        assert!(swept.contains(&Cell::new(9, 4)), "touched at its corner (9, 5)");
        assert!(!swept.contains(&Cell::new(9, 3)) && !swept.contains(&Cell::new(7, 5)), "beside the ray");
    }

    /// A pinch between two diagonally touching walls stops the line through it, not one ending
    /// there: the cells at the pinch are seen, the ones beyond only past its sides.
    #[test]
    fn a_pinch_stops_the_ray_through_it() {
        let map = map(Grid::Square, &["......", ".#....", "#.....", "......"]);
        let (swept, one_by_one) = both(&map, Point::square_corner(0, 1));
        assert_eq!(swept, one_by_one);
        // From (0, 1) through the pinch at (1, 2) between (1, 1) and (0, 2).
        for c in [Cell::new(1, 1), Cell::new(0, 2), Cell::new(1, 2)] {
            assert!(swept.contains(&c), "{c} at the pinch");
        }
        assert!(!swept.contains(&Cell::new(1, 3)), "beyond the pinch");
    }

    /// Along the seam between two walls the ray stops; along one wall's face it goes on.
    #[test]
    fn a_seam_stops_the_ray_along_it_and_a_face_does_not() {
        let face = map(Grid::Square, &["......", "..#...", "......"]);
        let (swept, one_by_one) = both(&face, Point::square_corner(0, 1));
        assert_eq!(swept, one_by_one);
        assert!(swept.contains(&Cell::new(5, 0)), "past the wall's face");
        let seam = map(Grid::Square, &["......", "..#...", "..#...", "######"]);
        let (swept, one_by_one) = both(&seam, Point::square_corner(0, 2));
        assert_eq!(swept, one_by_one);
        assert!(!swept.contains(&Cell::new(4, 1)) && !swept.contains(&Cell::new(4, 2)), "behind the seam");
        assert!(swept.contains(&Cell::new(2, 1)), "the walls themselves");
    }

    /// The map's edge seals it: a ray along the border of the map, between a wall and the edge,
    /// runs along a seam.
    #[test]
    fn the_map_edge_seals_rays_along_it() {
        let map = map(Grid::Square, &["..#...", "..#...", "......"]);
        let (swept, one_by_one) = both(&map, Point::square_corner(0, 0));
        assert_eq!(swept, one_by_one);
        assert!(!swept.contains(&Cell::new(3, 0)));
        assert!(swept.contains(&Cell::new(3, 2)));
    }

    /// On hexes a ray can run along a hex side after crossing a hex through its centre; the seam
    /// of two wall hexes stops it there, a single wall hex does not.
    #[test]
    fn hex_rays_along_sides_stop_at_seams() {
        for grid in GRIDS[1..].iter().copied() {
            for rows in [&["......", "..#...", "......", "......"], &["......", "..##..", "......", "......"]] {
                let map = map(grid, rows);
                for cell in map.cells() {
                    for start in ring(grid, cell).iter() {
                        let (swept, one_by_one) = both(&map, *start);
                        assert_eq!(swept, one_by_one, "{grid:?} from {start:?}");
                    }
                }
            }
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use proptest::test_runner::RngSeed;

        fn config(cases: u32) -> ProptestConfig {
            ProptestConfig { cases, rng_seed: RngSeed::Fixed(14), ..ProptestConfig::default() }
        }

        /// A random map: `width × height` glyphs, walls crowded in (so walls touch diagonally and
        /// pinch), some fog and low obstacles.
        fn glyphs(cells: usize) -> impl Strategy<Value = Vec<char>> {
            proptest::collection::vec(
                prop_oneof![6 => Just('.'), 3 => Just('#'), 1 => Just('='), 1 => Just('*')],
                cells,
            )
        }

        /// A viewer of `size` at the `pick`-th place of the map where its space fits (the map's
        /// edge included), or Medium at the `pick`-th cell when none fits.
        fn viewer(map: &TerrainMap, size: Size, pick: usize) -> Vec<Cell> {
            let grid = map.grid();
            let footprint = Footprint::of(grid, size, None);
            let fits: Vec<Vec<Cell>> = map
                .cells()
                .map(|anchor| footprint.at(anchor).collect::<Vec<_>>())
                .filter(|space| space.iter().all(|&c| map.contains(c)))
                .collect();
            if fits.is_empty() {
                let cells: Vec<Cell> = map.cells().collect();
                return vec![cells[pick % cells.len()]];
            }
            fits[pick % fits.len()].clone()
        }

        fn check(
            grid: usize,
            width: usize,
            height: usize,
            glyphs: &[char],
            size: usize,
            pick: usize,
        ) -> Result<(), TestCaseError> {
            let grid = GRIDS[grid];
            let rows: Vec<String> = glyphs.chunks(width).take(height).map(|r| r.iter().collect()).collect();
            let text: Vec<&str> = rows.iter().map(String::as_str).collect();
            let map = map(grid, &text);
            let size = [Size::Medium, Size::Large, Size::Huge, Size::Small][size];
            let from = viewer(&map, size, pick);
            let board = SightBoard { map: &map, tokens: &[] };
            prop_assert_eq!(
                unseen_cells(&board, &from),
                unseen_cells_per_cell(&board, &from),
                "{:?} viewer {:?} on\n{}",
                grid,
                from,
                rows.join("\n")
            );
            Ok(())
        }

        proptest! {
            #![proptest_config(config(4000))]

            /// The sweep sees exactly the cells the per-cell rule sees, on small crowded maps of
            /// every grid, from viewers of every size anywhere (the map's edge included).
            #[test]
            fn the_sweep_matches_the_per_cell_rule(
                grid in 0usize..3, width in 1usize..10, height in 1usize..10, glyphs in glyphs(81),
                size in 0usize..4, pick in 0usize..1000,
            ) {
                check(grid, width, height, &glyphs, size, pick)?;
            }
        }

        proptest! {
            #![proptest_config(config(300))]

            /// The same on larger maps with fewer walls, where rays run far and graze many corners.
            #[test]
            fn the_sweep_matches_the_per_cell_rule_on_open_maps(
                grid in 0usize..3, width in 10usize..24, height in 10usize..24,
                glyphs in proptest::collection::vec(prop_oneof![24 => Just('.'), 3 => Just('#'), 1 => Just('*')], 24 * 24),
                size in 0usize..3, pick in 0usize..1000,
            ) {
                check(grid, width, height, &glyphs, size, pick)?;
            }
        }
    }
}
