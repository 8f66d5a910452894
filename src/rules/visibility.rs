//! Exact visibility: a clear line from a point to *any* point of a space (conventions, "Line of
//! sight" and "Total cover"), found without sampling.
//!
//! A line from a point `P` that reaches a space first enters it through a side of one of its
//! cells that faces `P`, so it is enough to look along those sides. Along one side, whether the
//! line from `P` is blocked changes only where a line from `P` through a blocker's vertex crosses
//! the side. The sweep starts at one end of the side; while the line is blocked, the blocking
//! cell's shadow on the side (the part of the side hidden behind that cell, clipped to the near
//! side of the side's line) is skipped, and the line to the first point past it is tried. That
//! point is always on the way from `P` to a lattice point, so every line stays exact
//! ([`Segment`]).

use super::grid::{Cell, Grid};
use super::lattice::{Hit, Point, Ratio, Segment, centre, first_hit, hex_across, ring};

/// A clear line from one of `starts` to some point of the space `cells`, if there is one: each
/// start's view along the space's sides, exactly. (The sweep of a side begins at a corner of the
/// space, where a space in plain sight is seen at once.)
pub fn clear_line(grid: Grid, starts: &[Point], cells: &[Cell], blocks: &impl Fn(Cell) -> bool) -> Option<Segment> {
    let walk = |line: Segment| first_hit(grid, line, blocks);
    starts.iter().find_map(|&start| clear_line_along_sides(grid, start, cells, &walk))
}

/// The exact search from one start: a clear line to a point of one of the space's sides that face
/// `start` (or the empty line, when `start` is in the space). `walk` finds what first stops a line
/// (`lattice::first_hit`, or a caller's memo of it).
pub fn clear_line_along_sides(
    grid: Grid,
    start: Point,
    cells: &[Cell],
    walk: &impl Fn(Segment) -> Option<Hit>,
) -> Option<Segment> {
    let Some(sides) = facing_sides(grid, start, cells) else {
        return Some(Segment::between(start, start));
    };
    // The facing sides chain end to start, turning one way as seen from `start`; a blocker that
    // hides the rest of one side carries on to the next, so a space hidden behind one blocker
    // costs one walk.
    let mut carried = None;
    let mut previous_end = None;
    for side in &sides {
        let carry = carried.take().filter(|_| previous_end == Some(side.u));
        match side.sweep(grid, carry, walk) {
            Sweep::Seen(line) => return Some(line),
            Sweep::HiddenBehind(cell) => carried = Some(cell),
            Sweep::Hidden => {}
        }
        previous_end = Some(side.v);
    }
    None
}

/// The sides of the space (not shared by two of its cells) whose line has `start` strictly on the
/// outer side, each cell's in the order they chain end to start; `None` when `start` is in the
/// space (no side of one of its cells faces it).
fn facing_sides(grid: Grid, start: Point, cells: &[Cell]) -> Option<Vec<SideView>> {
    let mut sides = Vec::with_capacity(3 * cells.len());
    for &cell in cells {
        let ring = ring(grid, cell);
        let inside = centre(grid, cell);
        let n = ring.len();
        let faces = |i: usize| {
            let (u, v) = (ring[i % n], ring[(i + 1) % n]);
            let (h_start, h_inside) = (height(u, v, start), height(u, v, inside));
            h_start != 0 && h_start.signum() != h_inside.signum()
        };
        let mut facing = [false; 6];
        for (i, f) in facing.iter_mut().enumerate().take(n) {
            *f = faces(i);
        }
        if !facing.contains(&true) {
            return None;
        }
        // Begin after a side that does not face `start`, so the chain runs unbroken.
        let first = (0..n).find(|&i| !facing[(i + n - 1) % n]).unwrap_or(0);
        for i in (first..first + n).map(|i| i % n) {
            if facing[i] && !cells.contains(&across(grid, cell, i)) {
                sides.push(SideView::new(start, ring[i], ring[(i + 1) % n]));
            }
        }
    }
    Some(sides)
}

/// The cell across side `i` of `cell` (the side from corner `i` to corner `i + 1`).
fn across(grid: Grid, cell: Cell, i: usize) -> Cell {
    match grid {
        Grid::Square => {
            let (dx, dy) = [(0, -1), (1, 0), (0, 1), (-1, 0)][i % 4];
            cell.offset(dx, dy)
        }
        Grid::Hex(_) => hex_across(cell, i),
    }
}

// Lattice coordinates stay below 2^13 on any map a scenario allows (and within the command
// line's bounds), so differences, cross and dot products of them fit in i64; ratios of them are
// compared in i128 ([`Ratio`]).

fn diff(a: Point, b: Point) -> (i64, i64) {
    (a.a - b.a, a.b - b.b)
}

fn cross(a: (i64, i64), b: (i64, i64)) -> i64 {
    a.0 * b.1 - a.1 * b.0
}

fn dot(a: (i64, i64), b: (i64, i64)) -> i64 {
    a.0 * b.0 + a.1 * b.1
}

/// Twice the signed area of `u`, `v`, `x`: positive on one side of the line `u`–`v`, negative on
/// the other, 0 on it.
fn height(u: Point, v: Point, x: Point) -> i64 {
    cross(diff(v, u), diff(x, u))
}

/// Upper bound on the sweep's steps: each step moves strictly along the side, past a vertex of
/// one of the finitely many cells near it, so this is never reached on a real map.
const MAX_STEPS: usize = 4096;

/// What a sweep along a side found.
enum Sweep {
    Seen(Segment),
    /// Hidden to its end, with this cell's shadow reaching past it.
    HiddenBehind(Cell),
    Hidden,
}

/// What a blocking cell hides of a side, past the current point.
enum ShadowEnd {
    /// It hides the rest of the side.
    Beyond,
    /// It hides the side up to the point `t` along it, which the segment reaches.
    At(Ratio, Segment),
    /// It hides nothing past the current point.
    Behind,
}

/// One side `u`–`v` of the target's space, as seen from `p`; points along it are `u + t (v - u)`.
struct SideView {
    p: Point,
    u: Point,
    v: Point,
    /// `height` of `p`: never 0, as `p` is strictly outside the side's line.
    h_p: i64,
    /// The sign of turning from `u` to `v` as seen from `p`.
    turn: i64,
}

impl SideView {
    fn new(p: Point, u: Point, v: Point) -> Self {
        Self { p, u, v, h_p: height(u, v, p), turn: cross(diff(u, p), diff(v, p)).signum() }
    }

    /// Sweeps the side from `u` to `v`: the first clear line to it, if any. `carried` is a cell
    /// whose shadow is known to cover `u` (it hid the rest of the side before, which ends at `u`).
    fn sweep(&self, grid: Grid, carried: Option<Cell>, walk: &impl Fn(Segment) -> Option<Hit>) -> Sweep {
        let (mut at, mut line) = (Ratio::ZERO, Segment::between(self.p, self.u));
        let mut carried = carried.map(Hit::Interior);
        for _ in 0..MAX_STEPS {
            let Some(hit) = carried.take().or_else(|| walk(line)) else { return Sweep::Seen(line) };
            let direction = diff(line.through, self.p);
            let mut next: Option<(Ratio, Segment)> = None;
            for cell in Hit::cells(hit) {
                match self.shadow_end(grid, cell, direction, at) {
                    ShadowEnd::Beyond => return Sweep::HiddenBehind(cell),
                    ShadowEnd::At(t, to) if t > at && next.is_none_or(|(best, _)| t > best) => next = Some((t, to)),
                    _ => {}
                }
            }
            // A line through a seam or a pinch is hidden on both sides by the cells that make it,
            // and a line through a cell's interior by that cell, so the sweep always moves on.
            let Some(step) = next else {
                debug_assert!(false, "the sweep along {:?}-{:?} from {:?} stopped at {hit:?}", self.u, self.v, self.p);
                return Sweep::Hidden;
            };
            (at, line) = step;
        }
        Sweep::Hidden
    }

    /// `t` of a point on the side's line.
    fn t_on_line(&self, w: Point) -> Ratio {
        let e = diff(self.v, self.u);
        Ratio::new(dot(diff(w, self.u), e), dot(e, e))
    }

    /// How far past `at` the cell hides the side, given that the line from `p` in `direction`
    /// (towards the point `at`) is blocked by it. The hidden part is the cell's angular extent
    /// seen from `p`, clipped to the near side of the side's line; its far end is one of the
    /// cell's vertices on the near side, or where one of the cell's sides crosses the line.
    fn shadow_end(&self, grid: Grid, cell: Cell, direction: (i64, i64), at: Ratio) -> ShadowEnd {
        let ring = ring(grid, cell);
        let mut heights = [0; 6];
        for (h, &w) in heights.iter_mut().zip(ring.iter()) {
            *h = height(self.u, self.v, w);
        }
        let mut best: Option<(Ratio, Segment)> = None;
        let mut offer = |t: Ratio, line: Segment| {
            if best.is_none_or(|(b, _)| t > b) {
                best = Some((t, line));
            }
        };
        for (i, &w) in ring.iter().enumerate() {
            let h_w = heights[i];
            let near = h_w.signum() == self.h_p.signum();
            let onward = self.turn * cross(direction, diff(w, self.p)) > 0;
            if w != self.p && near && onward {
                // The line from p through w reaches the side's line only if w is nearer to it.
                if h_w.abs() >= self.h_p.abs() {
                    return ShadowEnd::Beyond;
                }
                let to_w = diff(w, self.p);
                let t = Ratio::new(cross(diff(self.p, self.u), to_w), cross(diff(self.v, self.u), to_w));
                let end = Ratio::new(self.h_p, self.h_p - h_w);
                offer(t, Segment { from: self.p, through: w, end });
            }
            // Where the cell meets the side's line: a vertex on it, or a side crossing it.
            let w2 = ring[(i + 1) % ring.len()];
            let h_w2 = heights[(i + 1) % ring.len()];
            let t = if h_w == 0 {
                Some(self.t_on_line(w))
            } else if h_w2 != 0 && h_w.signum() != h_w2.signum() {
                let e = diff(self.v, self.u);
                let numerator = (h_w - h_w2) * dot(diff(w, self.u), e) + h_w * dot(diff(w2, w), e);
                Some(Ratio::new(numerator, (h_w - h_w2) * dot(e, e)))
            } else {
                None
            };
            match t {
                Some(t) if t > Ratio::ONE => return ShadowEnd::Beyond,
                // Cells don't overlap, so a cell meets the side itself only at its ends.
                Some(t) if t == Ratio::ONE && at < Ratio::ONE => offer(t, Segment::between(self.p, self.v)),
                _ => {}
            }
        }
        match best {
            Some((t, _)) if t > Ratio::ONE => ShadowEnd::Beyond,
            Some((t, line)) => ShadowEnd::At(t, line),
            None => ShadowEnd::Behind,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::HexOrientation;
    use crate::rules::lattice::corners;
    use std::collections::HashSet;

    const GRIDS: [Grid; 3] = [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)];

    /// The line from `start` to the point `k / n` of the way along `u`–`v`: on the way to the
    /// lattice point `start + n (point - start)`.
    fn line_to_side(start: Point, u: Point, v: Point, k: i64, n: i64) -> Segment {
        let through = Point::new(
            start.a + n * (u.a - start.a) + k * (v.a - u.a),
            start.b + n * (u.b - start.b) + k * (v.b - u.b),
        );
        Segment { from: start, through, end: Ratio::new(1, n) }
    }

    /// Dense sampling: lines to `n + 1` points along every side of every cell, and to each centre.
    fn sampled_sides(grid: Grid, starts: &[Point], cells: &[Cell], blocks: &impl Fn(Cell) -> bool, n: i64) -> bool {
        starts.iter().any(|&start| {
            cells.iter().any(|&cell| {
                let ring = ring(grid, cell);
                let sides = (0..ring.len()).any(|i| {
                    let (u, v) = (ring[i], ring[(i + 1) % ring.len()]);
                    (0..=n).any(|k| first_hit(grid, line_to_side(start, u, v, k, n), blocks).is_none())
                });
                sides || first_hit(grid, Segment::between(start, centre(grid, cell)), blocks).is_none()
            })
        })
    }

    /// Where a segment ends, exactly: `from + end (through - from)` as numerators over a
    /// denominator.
    fn end_point(line: Segment) -> (i128, i128, i128) {
        let (n, d) = line.end.parts();
        let along = |p: i64, q: i64| i128::from(p) * d + n * i128::from(q - p);
        (along(line.from.a, line.through.a), along(line.from.b, line.through.b), d)
    }

    /// Whether the rational point lies in the closed cell.
    fn in_cell(grid: Grid, cell: Cell, (x, y, d): (i128, i128, i128)) -> bool {
        let ring = ring(grid, cell);
        let inside = centre(grid, cell);
        (0..ring.len()).all(|i| {
            let (u, v) = (ring[i], ring[(i + 1) % ring.len()]);
            let e = diff(v, u);
            let (ex, ey) = (i128::from(e.0), i128::from(e.1));
            let h = ex * (y - i128::from(u.b) * d) - ey * (x - i128::from(u.a) * d);
            h == 0 || h.signum() == i128::from(height(u, v, inside).signum())
        })
    }

    #[test]
    fn a_point_inside_the_space_sees_it() {
        for grid in GRIDS {
            let cell = Cell::new(2, 3);
            let wall = |c: Cell| c == cell;
            let walk = |line: Segment| first_hit(grid, line, &wall);
            assert!(clear_line_along_sides(grid, corners(grid, cell)[1], &[cell], &walk).is_some());
            assert!(clear_line_along_sides(grid, centre(grid, cell), &[cell], &walk).is_some());
        }
    }

    /// A map of rows: `#` wall, `A` the viewer, `B` the target; cells off the map block.
    fn slit_map(grid: Grid, rows: &[&str]) -> (HashSet<Cell>, Cell, Cell, impl Fn(Cell) -> bool) {
        let (mut walls, mut viewer, mut target) = (HashSet::new(), None, None);
        for (row, text) in rows.iter().enumerate() {
            for (col, glyph) in text.chars().enumerate() {
                let cell = grid.from_storage(col as i32, row as i32);
                match glyph {
                    '#' => {
                        walls.insert(cell);
                    }
                    'A' => viewer = Some(cell),
                    'B' => target = Some(cell),
                    _ => {}
                }
            }
        }
        let (width, height) = (rows[0].len() as i32, rows.len() as i32);
        let inside = walls.clone();
        let blocks = move |c: Cell| {
            let (col, row) = grid.to_storage(c);
            inside.contains(&c) || !(0..width).contains(&col) || !(0..height).contains(&row)
        };
        (walls, viewer.expect("an A"), target.expect("a B"), blocks)
    }

    /// Maps found by searching random ones (a search kept out of the suite): from every corner of
    /// A, walls hide every corner, side middle and centre of B, yet a thin sliver of one of B's
    /// sides is in sight. The sampled points miss it; the sweep finds it, its line is clear and
    /// ends on B, and dense sampling along B's sides confirms it.
    #[test]
    fn slivers_seen_between_walls_that_hide_every_sampled_point() {
        let maps: [(Grid, &[&str]); 3] = [
            (
                Grid::Square,
                &[
                    "....##.##.#.##",
                    "....#.#.A#...#",
                    "........##...#",
                    ".#.#....##...#",
                    "#.#........#..",
                    "#...##........",
                    "..#....#..##..",
                    "...#..........",
                    "....#.....#...",
                    ".......#.#.#..",
                    ".....#...#..#.",
                    "#.......#.....",
                    ".##..B#.....#.",
                    "..#.......#...",
                ],
            ),
            (
                Grid::Hex(HexOrientation::PointyTop),
                &[
                    "B#.....#.#..##",
                    "..............",
                    ".#.......##...",
                    "...#..#..#....",
                    "#....#...#...#",
                    "........#..##.",
                    ".#............",
                    "..............",
                    "........#...#.",
                    ".##.#.#.......",
                    "..#.....#A..#.",
                    "#......#....##",
                    "..............",
                    "#........#.###",
                ],
            ),
            (
                Grid::Hex(HexOrientation::FlatTop),
                &[
                    ".......#......",
                    ".#............",
                    "A.....#......#",
                    ".............#",
                    "..#...........",
                    ".......##..#..",
                    "......#.......",
                    "....#.........",
                    "..#...........",
                    "......#...#...",
                    "..........B.#.",
                    "...........#..",
                    "#...........#.",
                    "...#.....#....",
                ],
            ),
        ];
        for (grid, rows) in maps {
            let (_, viewer, target, blocks) = slit_map(grid, rows);
            let starts = corners(grid, viewer);
            // The corners, the middles of the sides and the centre: what the sight test once sampled.
            let ring = ring(grid, target);
            let middles = (0..ring.len()).map(|i| {
                let (p, q) = (ring[i], ring[(i + 1) % ring.len()]);
                Point::new((p.a + q.a) / 2, (p.b + q.b) / 2)
            });
            let points: Vec<Point> = ring.iter().copied().chain(middles).chain([centre(grid, target)]).collect();
            let sampled = starts
                .iter()
                .any(|&s| points.iter().any(|&p| first_hit(grid, Segment::between(s, p), &blocks).is_none()));
            assert!(!sampled, "{grid:?}: no sampled point is in sight");
            let line = clear_line(grid, &starts, &[target], &blocks).unwrap_or_else(|| panic!("{grid:?}: a sliver is"));
            assert_eq!(first_hit(grid, line, &blocks), None, "{grid:?}: {line:?}");
            assert!(in_cell(grid, target, end_point(line)), "{grid:?}: {line:?} ends on B");
            assert!(sampled_sides(grid, &starts, &[target], &blocks, 960), "{grid:?}: dense sampling agrees");
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]

            /// On random maps crowded with walls (so narrow slits abound), on both grids and both
            /// hex orientations, for one- and three-cell targets: whenever dense sampling finds a
            /// clear line, the exact search finds one; every line it finds is clear and ends in
            /// the target's space.
            #[test]
            fn the_exact_search_finds_every_line_dense_sampling_finds(
                grid in 0usize..3,
                walls in proptest::collection::hash_set((0i32..9, 0i32..9), 10..40),
                viewer in (0i32..9, 0i32..9),
                target in (0i32..9, 0i32..9),
                large in any::<bool>(),
            ) {
                let grid = GRIDS[grid];
                let at = |(c, r): (i32, i32)| grid.from_storage(c, r);
                let walls: HashSet<Cell> = walls.into_iter().map(at).collect();
                let (viewer, anchor) = (at(viewer), at(target));
                let cells: Vec<Cell> = if large && grid.is_hex() {
                    vec![anchor, anchor.offset(1, 0), anchor.offset(0, 1)]
                } else if large {
                    vec![anchor, anchor.offset(1, 0), anchor.offset(0, 1), anchor.offset(1, 1)]
                } else {
                    vec![anchor]
                };
                prop_assume!(!cells.contains(&viewer));
                let blocks = |c: Cell| walls.contains(&c) && c != viewer && !cells.contains(&c);
                let starts = corners(grid, viewer);
                let exact = clear_line(grid, &starts, &cells, &blocks);
                let dense = sampled_sides(grid, &starts, &cells, &blocks, 48);
                if dense {
                    prop_assert!(exact.is_some(), "dense sampling sees {cells:?} from {viewer}; the exact search doesn't");
                }
                if let Some(line) = exact {
                    prop_assert!(first_hit(grid, line, &blocks).is_none(), "{line:?} is blocked");
                    let end = end_point(line);
                    prop_assert!(cells.iter().any(|&c| in_cell(grid, c, end)), "{line:?} ends outside {cells:?}");
                }
            }
        }
    }
}
