//! Exact points on the grid lattice and the straight line between two of them: which cells it
//! passes through, and the first one that blocks it.
//!
//! Conventions ("Lines"): a line is blocked when it meets the interior of the region that the
//! blocking cells cover together. Grazing a wall's outer face does not block; running along the
//! seam between two blocking cells does; passing strictly through a vertex pinched between two
//! diagonally touching blocking squares does; a line that only starts or ends at such a vertex does
//! not. Cells off the map block.
//!
//! All of it is integer arithmetic. Square points are in half units (so corners, edge midpoints and
//! centres are lattice points); hex points are in sixths of the axial basis `(q, r)`, where hex
//! centres, corners and edge midpoints are all integer. Every test used (orientation, crossings,
//! insideness) is preserved by the linear map from the axial basis to the screen, so the answers
//! are exact on both hex orientations.

use serde::Serialize;

use super::grid::{Cell, Grid, HexOrientation};

/// A cell's centre and corners in grid units, from their exact lattice points (defined here, on
/// the lattice, so that the grid's file needs nothing of this one).
impl Grid {
    /// The centre of `cell` in grid units, x east and y south.
    /// Squares: `(x + 0.5, y + 0.5)`. Hexes: adjacent centres 1 unit apart, with hex `(0, 0)`
    /// centred at the origin. (From the exact lattice point, [`centre`].)
    pub fn center(self, cell: Cell) -> (f64, f64) {
        centre(self, cell).to_units(self)
    }

    /// The corners of `cell` in grid units, in order around it ([`corners`]).
    pub fn corners(self, cell: Cell) -> Vec<(f64, f64)> {
        corners(self, cell).into_iter().map(|p| p.to_units(self)).collect()
    }
}

/// A point of the lattice: `(x, y)` in half units on squares, `(q, r)` in sixths on hexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Point {
    pub a: i64,
    pub b: i64,
}

/// Half units per square; sixths per hex.
const SQUARE_SCALE: i64 = 2;
const HEX_SCALE: i64 = 6;

/// A hex's corners from its centre, in thirds of the axial basis, in order around it.
const HEX_CORNERS: [(i64, i64); 6] = [(1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2)];

impl Point {
    pub const fn new(a: i64, b: i64) -> Self {
        Self { a, b }
    }

    /// The grid intersection with integer coordinates `(x, y)` on squares (a square's corner).
    pub fn square_corner(x: i32, y: i32) -> Self {
        Self::new(i64::from(x) * SQUARE_SCALE, i64::from(y) * SQUARE_SCALE)
    }

    /// The point in grid units (x east, y south), for drawing.
    pub fn to_units(self, grid: Grid) -> (f64, f64) {
        match grid {
            Grid::Square => (self.a as f64 / SQUARE_SCALE as f64, self.b as f64 / SQUARE_SCALE as f64),
            Grid::Hex(o) => units_of_axial(o, self.a as f64 / HEX_SCALE as f64, self.b as f64 / HEX_SCALE as f64),
        }
    }
}

/// Fractional axial `(q, r)` in grid units (x east, y south).
fn units_of_axial(orientation: HexOrientation, q: f64, r: f64) -> (f64, f64) {
    let s = 3.0_f64.sqrt() / 2.0;
    match orientation {
        HexOrientation::PointyTop => (q + r / 2.0, r * s),
        HexOrientation::FlatTop => (q * s, r + q / 2.0),
    }
}

/// A cell's corners in order around it, 4 on squares and 6 on hexes, held without allocating:
/// it reads as a slice.
#[derive(Clone, Copy, Debug)]
pub struct Ring {
    points: [Point; 6],
    len: usize,
}

impl std::ops::Deref for Ring {
    type Target = [Point];

    fn deref(&self) -> &[Point] {
        &self.points[..self.len]
    }
}

/// The corners of a cell, in order around it.
pub fn ring(grid: Grid, cell: Cell) -> Ring {
    let (x, y) = (i64::from(cell.x), i64::from(cell.y));
    match grid {
        Grid::Square => {
            let s = SQUARE_SCALE;
            let (x, y) = (x * s, y * s);
            let origin = Point::new(x, y);
            Ring {
                points: [origin, Point::new(x + s, y), Point::new(x + s, y + s), Point::new(x, y + s), origin, origin],
                len: 4,
            }
        }
        Grid::Hex(_) => {
            Ring { points: HEX_CORNERS.map(|(a, b)| Point::new(x * HEX_SCALE + 2 * a, y * HEX_SCALE + 2 * b)), len: 6 }
        }
    }
}

/// The corners of a cell, in order around it, as a list.
pub fn corners(grid: Grid, cell: Cell) -> Vec<Point> {
    ring(grid, cell).to_vec()
}

/// The centre of a cell.
pub fn centre(grid: Grid, cell: Cell) -> Point {
    let (x, y) = (i64::from(cell.x), i64::from(cell.y));
    match grid {
        Grid::Square => Point::new(x * SQUARE_SCALE + 1, y * SQUARE_SCALE + 1),
        Grid::Hex(_) => Point::new(x * HEX_SCALE, y * HEX_SCALE),
    }
}

/// The cells whose closed region holds `p`: the one cell around a point inside it, the two on
/// either side of an edge, the cells round a vertex (4 on squares, 3 on hexes). Exact.
pub fn cells_touching(grid: Grid, p: Point) -> Vec<Cell> {
    // A cell reaches at most one cell's width from its centre along each lattice axis.
    let (scale, below, above) = match grid {
        Grid::Square => (SQUARE_SCALE, 1, 0),
        Grid::Hex(_) => (HEX_SCALE, 1, 1),
    };
    let (a, b) = (p.a.div_euclid(scale), p.b.div_euclid(scale));
    let mut cells = Vec::new();
    for x in a - below..=a + above {
        for y in b - below..=b + above {
            let (Ok(x), Ok(y)) = (i32::try_from(x), i32::try_from(y)) else { continue };
            let cell = Cell::new(x, y);
            if in_closed_cell(grid, cell, p) {
                cells.push(cell);
            }
        }
    }
    cells
}

/// Whether `p` is inside the cell or on its edge: on one side (or on the line) of every edge of
/// the convex ring.
fn in_closed_cell(grid: Grid, cell: Cell, p: Point) -> bool {
    let ring = ring(grid, cell);
    let (mut left, mut right) = (false, false);
    for i in 0..ring.len() {
        let (u, v) = (ring[i], ring[(i + 1) % ring.len()]);
        let cross = (v.a - u.a) * (p.b - u.b) - (v.b - u.b) * (p.a - u.a);
        left |= cross > 0;
        right |= cross < 0;
    }
    !(left && right)
}

/// An exact fraction `n / d` (`d > 0`): a parameter along a line, or a place along an edge.
///
/// Its terms are sums of products of lattice differences (cross and dot products), below 2^60 in
/// magnitude for points on any map the scenarios allow (coordinates below 2^13 half units or
/// sixths), so comparing two ratios, which multiplies a term of each, stays below 2^120 and
/// fits in i128 without reducing them first.
#[derive(Clone, Copy, Debug)]
pub struct Ratio {
    n: i128,
    d: i128,
}

impl Ratio {
    pub const ZERO: Self = Self { n: 0, d: 1 };
    pub const ONE: Self = Self { n: 1, d: 1 };

    /// `n / d`; `d` must not be 0 (callers divide by lengths and cross products known to be non-zero).
    pub fn new(n: i64, d: i64) -> Self {
        Self::wide(i128::from(n), i128::from(d))
    }

    pub(crate) fn wide(n: i128, d: i128) -> Self {
        debug_assert!(d != 0, "a ratio over 0");
        if d < 0 { Self { n: -n, d: -d } } else { Self { n, d } }
    }

    /// The numerator and the (positive) denominator.
    pub fn parts(self) -> (i128, i128) {
        (self.n, self.d)
    }

    pub fn to_f64(self) -> f64 {
        self.n as f64 / self.d as f64
    }
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Self) -> bool {
        self.n * other.d == other.n * self.d
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.n * other.d).cmp(&(other.n * self.d))
    }
}

/// A straight line from `from` towards the lattice point `through`, stopping at `end` of the way
/// (`end` = 1 stops at `through`). Lines between two lattice points have `end` = 1; the exact
/// sight test also draws lines to points between lattice points, which always lie on the way to
/// one, so every line stays exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub from: Point,
    pub through: Point,
    pub end: Ratio,
}

impl Segment {
    pub fn between(from: Point, to: Point) -> Self {
        Self { from, through: to, end: Ratio::ONE }
    }

    /// The far end, in lattice units (half units or sixths), as floats.
    fn end_lattice(&self) -> (f64, f64) {
        let t = self.end.to_f64();
        let along = |p: i64, q: i64| p as f64 + t * (q - p) as f64;
        (along(self.from.a, self.through.a), along(self.from.b, self.through.b))
    }

    /// The far end in grid units (x east, y south), for drawing and JSON.
    pub fn end_units(&self, grid: Grid) -> (f64, f64) {
        let (a, b) = self.end_lattice();
        match grid {
            Grid::Square => (a / SQUARE_SCALE as f64, b / SQUARE_SCALE as f64),
            Grid::Hex(o) => units_of_axial(o, a / HEX_SCALE as f64, b / HEX_SCALE as f64),
        }
    }
}

/// What stops a line: it crosses a blocking cell's interior, runs along the seam between two
/// blocking cells, or passes through a pinch between two (conventions, "Lines").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    Interior(Cell),
    Seam(Cell, Cell),
    Pinch(Cell, Cell),
}

impl Hit {
    /// The cell named for the hit (the first of a seam's or a pinch's two).
    pub fn cell(self) -> Cell {
        match self {
            Hit::Interior(c) | Hit::Seam(c, _) | Hit::Pinch(c, _) => c,
        }
    }

    /// Every blocking cell that makes the hit.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        let (first, second) = match self {
            Hit::Interior(c) => (c, None),
            Hit::Seam(a, b) | Hit::Pinch(a, b) => (a, Some(b)),
        };
        std::iter::once(first).chain(second)
    }
}

/// The first cell (from `from`) that blocks the line `from`–`to`, if any.
pub fn first_blocker(grid: Grid, from: Point, to: Point, blocks: &impl Fn(Cell) -> bool) -> Option<Cell> {
    first_hit(grid, Segment::between(from, to), blocks).map(Hit::cell)
}

/// What first stops the segment (from its start), if anything does.
pub fn first_hit(grid: Grid, segment: Segment, blocks: &impl Fn(Cell) -> bool) -> Option<Hit> {
    if segment.from == segment.through || segment.end <= Ratio::ZERO {
        return None;
    }
    match grid {
        Grid::Square => square_first_hit(segment, blocks),
        Grid::Hex(_) => hex_first_hit(segment, blocks),
    }
}

/// The cells around the vertex `(kx, ky)` (in cells): a pinch if one diagonal blocks and the
/// other does not.
fn pinch(kx: i32, ky: i32, blocks: &impl Fn(Cell) -> bool) -> Option<Hit> {
    let [nw, ne, sw, se] = [(kx - 1, ky - 1), (kx, ky - 1), (kx - 1, ky), (kx, ky)].map(|(x, y)| Cell::new(x, y));
    let [bnw, bne, bsw, bse] = [nw, ne, sw, se].map(blocks);
    if bnw && bse && !bne && !bsw {
        Some(Hit::Pinch(nw, se))
    } else if bne && bsw && !bnw && !bse {
        Some(Hit::Pinch(ne, sw))
    } else {
        None
    }
}

/// The cell a line starting at `start` (half units) enters first along one axis, moving `sign`.
fn first_cell(start: i64, sign: i64) -> i64 {
    if start.rem_euclid(SQUARE_SCALE) == 0 && sign < 0 {
        start.div_euclid(SQUARE_SCALE) - 1
    } else {
        start.div_euclid(SQUARE_SCALE)
    }
}

/// Walks the segment cell by cell (an integer DDA: no division in the loop), stopping at the
/// first blocker: cells whose interior it crosses, seams it runs along, pinches it passes through.
fn square_first_hit(segment: Segment, blocks: &impl Fn(Cell) -> bool) -> Option<Hit> {
    let s = SQUARE_SCALE;
    let (p, q, end) = (segment.from, segment.through, segment.end);
    let (dx, dy) = (q.a - p.a, q.b - p.b);
    let (sx, sy) = (dx.signum(), dy.signum());
    // Whether a grid line `offset` half units from the start, along an axis the line moves
    // `delta` on, is crossed strictly before the segment ends.
    // Most lines end at `through` (end = 1): compare in i64 then, as the inner loop runs often.
    let whole = end == Ratio::ONE;
    let before_end = |offset: i64, delta: i64| {
        if whole {
            offset.abs() < delta.abs()
        } else {
            i128::from(offset.abs()) * end.d < end.n * i128::from(delta.abs())
        }
    };
    let cell = |x: i64, y: i64| Cell::new(x as i32, y as i32);
    // Along a grid line or through the middle of a row or column.
    if dx == 0 || dy == 0 {
        let (along_x, fixed, start, delta) = if dy == 0 { (true, p.b, p.a, dx) } else { (false, p.a, p.b, dy) };
        let sign = delta.signum();
        let on_line = fixed.rem_euclid(s) == 0;
        let side = fixed.div_euclid(s);
        let at = |i: i64, j: i64| if along_x { cell(i, j) } else { cell(j, i) };
        let mut i = first_cell(start, sign);
        let mut next = if sign > 0 { (i + 1) * s } else { i * s };
        loop {
            if on_line {
                if blocks(at(i, side - 1)) && blocks(at(i, side)) {
                    return Some(Hit::Seam(at(i, side), at(i, side - 1)));
                }
            } else if blocks(at(i, side)) {
                return Some(Hit::Interior(at(i, side)));
            }
            if !before_end(next - start, delta) {
                return None;
            }
            if on_line {
                let (kx, ky) = if along_x { (next / s, side) } else { (side, next / s) };
                if let Some(hit) = pinch(kx as i32, ky as i32, blocks) {
                    return Some(hit);
                }
            }
            i += sign;
            next += sign * s;
        }
    }
    let (mut cx, mut cy) = (first_cell(p.a, sx), first_cell(p.b, sy));
    let (mut nx, mut ny) = (if sx > 0 { (cx + 1) * s } else { cx * s }, if sy > 0 { (cy + 1) * s } else { cy * s });
    let (adx, ady) = (dx.abs(), dy.abs());
    loop {
        if blocks(cell(cx, cy)) {
            return Some(Hit::Interior(cell(cx, cy)));
        }
        let x_ahead = before_end(nx - p.a, dx);
        let y_ahead = before_end(ny - p.b, dy);
        // Compare the parameters of the next crossings: |nx - px| / |dx| against |ny - py| / |dy|.
        let (tx, ty) = ((nx - p.a).abs() * ady, (ny - p.b).abs() * adx);
        match (x_ahead, y_ahead) {
            (false, false) => return None,
            (true, false) => {
                if tx >= ty {
                    return None;
                }
                cx += sx;
                nx += sx * s;
            }
            (false, true) => {
                if ty >= tx {
                    return None;
                }
                cy += sy;
                ny += sy * s;
            }
            (true, true) if tx < ty => {
                cx += sx;
                nx += sx * s;
            }
            (true, true) if ty < tx => {
                cy += sy;
                ny += sy * s;
            }
            (true, true) => {
                // Through the vertex (nx, ny).
                if let Some(hit) = pinch((nx / s) as i32, (ny / s) as i32, blocks) {
                    return Some(hit);
                }
                cx += sx;
                cy += sy;
                nx += sx * s;
                ny += sy * s;
            }
        }
    }
}

/// The crossings of a line with the grid lines `coordinate = k·SCALE` strictly inside it, in the
/// order the line meets them: a lazy arithmetic sequence of parameters `t`.
#[cfg(test)]
struct Crossings {
    start: i64,
    delta: i64,
    /// The next grid line's coordinate, if the line still has to cross it.
    next: Option<i64>,
}

#[cfg(test)]
impl Crossings {
    fn new(start: i64, delta: i64) -> Self {
        let next = match delta.signum() {
            1 => Some((start.div_euclid(SQUARE_SCALE) + 1) * SQUARE_SCALE),
            -1 => Some((start + SQUARE_SCALE - 1).div_euclid(SQUARE_SCALE) * SQUARE_SCALE - SQUARE_SCALE),
            _ => None,
        };
        let mut crossings = Self { start, delta, next };
        crossings.check();
        crossings
    }

    /// Drops the next line if the segment ends before (or at) it.
    fn check(&mut self) {
        if let Some(line) = self.next {
            let end = self.start + self.delta;
            if (self.delta > 0 && line >= end) || (self.delta < 0 && line <= end) {
                self.next = None;
            }
        }
    }

    fn t(&self) -> Option<Ratio> {
        self.next.map(|line| Ratio::new(line - self.start, self.delta))
    }

    fn advance(&mut self) {
        self.next = self.next.map(|line| line + SQUARE_SCALE * self.delta.signum());
        self.check();
    }
}

/// The first, slower walk with exact fractions: kept to check the fast one against.
#[cfg(test)]
fn square_first_blocker_reference(p: Point, q: Point, blocks: &impl Fn(Cell) -> bool) -> Option<Cell> {
    let (dx, dy) = (q.a - p.a, q.b - p.b);
    let (mut xs, mut ys) = (Crossings::new(p.a, dx), Crossings::new(p.b, dy));
    let s = SQUARE_SCALE;
    let cell_of = |n: i64, d: i64| n.div_euclid(d * s) as i32;
    let on_line = |n: i64, d: i64| n.rem_euclid(d * s) == 0;
    let mut previous = Ratio::new(0, 1);
    loop {
        let t = match (xs.t(), ys.t()) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => Ratio::new(1, 1),
        };
        let last = xs.next.is_none() && ys.next.is_none();
        // The piece between `previous` and `t`: where is its middle?
        // Coordinates stay below a few thousand half units, so these products fit in i64.
        let (num, den) = ((previous.n * t.d + t.n * previous.d) as i64, (2 * previous.d * t.d) as i64);
        let mx = p.a * den + dx * num;
        let my = p.b * den + dy * num;
        let (cx, cy) = (cell_of(mx, den), cell_of(my, den));
        match (on_line(mx, den), on_line(my, den)) {
            (false, false) => {
                if blocks(Cell::new(cx, cy)) {
                    return Some(Cell::new(cx, cy));
                }
            }
            // Along a vertical grid line: blocked where both sides block (the seam).
            (true, false) => {
                if blocks(Cell::new(cx - 1, cy)) && blocks(Cell::new(cx, cy)) {
                    return Some(Cell::new(cx, cy));
                }
            }
            (false, true) => {
                if blocks(Cell::new(cx, cy - 1)) && blocks(Cell::new(cx, cy)) {
                    return Some(Cell::new(cx, cy));
                }
            }
            (true, true) => {}
        }
        if last {
            return None;
        }
        // The crossing at `t`: if it is a vertex, is it a pinch?
        let (d, n) = (t.d as i64, t.n as i64);
        let (vx, vy) = (p.a * d + dx * n, p.b * d + dy * n);
        if on_line(vx, d) && on_line(vy, d) {
            let (kx, ky) = (cell_of(vx, d), cell_of(vy, d));
            let [nw, ne, sw, se] =
                [(kx - 1, ky - 1), (kx, ky - 1), (kx - 1, ky), (kx, ky)].map(|(x, y)| blocks(Cell::new(x, y)));
            if (nw && se && !ne && !sw) || (ne && sw && !nw && !se) {
                return Some(if nw { Cell::new(kx - 1, ky - 1) } else { Cell::new(kx, ky - 1) });
            }
        }
        if xs.t().is_some_and(|a| a == t) {
            xs.advance();
        }
        if ys.t().is_some_and(|b| b == t) {
            ys.advance();
        }
        previous = t;
    }
}

fn cross(ax: i128, ay: i128, bx: i128, by: i128) -> i128 {
    ax * by - ay * bx
}

/// The hex across side `i` (from corner `i` to corner `i + 1`) of `cell`.
pub(crate) fn hex_across(cell: Cell, i: usize) -> Cell {
    let (a, b) = (HEX_CORNERS[i % 6], HEX_CORNERS[(i + 1) % 6]);
    Cell::new(cell.x + ((a.0 + b.0) / 3) as i32, cell.y + ((a.1 + b.1) / 3) as i32)
}

/// Every hex the segment could touch: the hexes of points sampled along it at most half a unit
/// apart, and their neighbours. Hexes that don't touch each other are more than half a unit
/// apart (a side's length, 1/√3), so a hex the segment meets is one of these.
fn hexes_near(segment: Segment) -> Vec<Cell> {
    let from = (segment.from.a as f64 / HEX_SCALE as f64, segment.from.b as f64 / HEX_SCALE as f64);
    let (a, b) = segment.end_lattice();
    let to = (a / HEX_SCALE as f64, b / HEX_SCALE as f64);
    let (dq, dr) = (to.0 - from.0, to.1 - from.1);
    let length = (dq * dq + dq * dr + dr * dr).sqrt();
    let samples = (2.0 * length).ceil() as usize + 1;
    let mut hexes = Vec::with_capacity(samples * 7);
    for i in 0..=samples {
        let t = i as f64 / samples as f64;
        let hex = super::grid::hex_round(from.0 + t * dq, from.1 + t * dr);
        hexes.push(hex);
        hexes.extend(super::grid::HEX_STEPS.iter().map(|&(q, r)| hex.offset(q, r)));
    }
    hexes.sort_unstable();
    hexes.dedup();
    hexes
}

/// On hexes: every hex near the line is tested as a convex polygon (open interior), and shared
/// sides of two blocking hexes along the line count as inside (the seam).
fn hex_first_hit(segment: Segment, blocks: &impl Fn(Cell) -> bool) -> Option<Hit> {
    let (p, q, end) = (segment.from, segment.through, segment.end);
    let (dx, dy) = (i128::from(q.a - p.a), i128::from(q.b - p.b));
    let mut best: Option<(Ratio, Hit)> = None;
    let mut consider = |t: Ratio, hit: Hit| {
        if best.is_none_or(|(b, _)| t < b) {
            best = Some((t, hit));
        }
    };
    for cell in hexes_near(segment) {
        if !blocks(cell) {
            continue;
        }
        let corners = ring(Grid::Hex(HexOrientation::PointyTop), cell);
        // Corners run clockwise in the axial basis, so inside is where every side's cross product
        // is negative. Clip t ∈ [0, end] by each open half-plane.
        let (mut lo, mut hi) = (Ratio::ZERO, end);
        let (mut lo_open, mut hi_open) = (false, false);
        let mut empty = false;
        for i in 0..6 {
            let (a, b) = (corners[i], corners[(i + 1) % 6]);
            let (ex, ey) = (i128::from(b.a - a.a), i128::from(b.b - a.b));
            let f0 = cross(ex, ey, i128::from(p.a - a.a), i128::from(p.b - a.b));
            let slope = cross(ex, ey, dx, dy);
            if slope == 0 {
                if f0 >= 0 {
                    empty = true;
                    // Along this side: a seam if the hex across it blocks too.
                    let across = hex_across(cell, i);
                    if f0 == 0
                        && blocks(across)
                        && let Some(t) = overlap_start(segment, a, b)
                    {
                        consider(t, Hit::Seam(cell, across));
                    }
                }
                continue;
            }
            // f(t) = f0 + t·slope < 0.
            let t = Ratio::wide(-f0, slope);
            if slope > 0 {
                if t < hi || (t == hi && !hi_open) {
                    hi = t;
                    hi_open = true;
                }
            } else if lo < t || (t == lo && !lo_open) {
                lo = t;
                lo_open = true;
            }
        }
        if !empty && lo < hi {
            consider(lo, Hit::Interior(cell));
        }
    }
    best.map(|(_, hit)| hit)
}

/// Where the segment (collinear with the side `a`–`b`) starts to overlap that side with positive
/// length, as a parameter along it.
fn overlap_start(segment: Segment, a: Point, b: Point) -> Option<Ratio> {
    let (p, q) = (segment.from, segment.through);
    let (dx, dy) = (i128::from(q.a - p.a), i128::from(q.b - p.b));
    let len2 = dx * dx + dy * dy;
    let project = |pt: Point| i128::from(pt.a - p.a) * dx + i128::from(pt.b - p.b) * dy;
    let (ta, tb) = (project(a), project(b));
    let lo = Ratio::wide(ta.min(tb).max(0), len2);
    let hi = Ratio::wide(ta.max(tb), len2).min(segment.end);
    (lo < hi).then_some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn walls(cells: &[(i32, i32)]) -> impl Fn(Cell) -> bool {
        let set: HashSet<Cell> = cells.iter().map(|&(x, y)| Cell::new(x, y)).collect();
        move |c| set.contains(&c)
    }

    fn sq(x: i32, y: i32) -> Point {
        Point::square_corner(x, y)
    }

    /// A point inside a cell touches it alone, one on an edge the two cells beside it, a vertex
    /// the 4 squares or 3 hexes round it.
    #[test]
    fn the_cells_a_point_touches() {
        let sorted = |mut cells: Vec<Cell>| {
            cells.sort_by_key(|c| (c.x, c.y));
            cells
        };
        let square = Grid::Square;
        assert_eq!(cells_touching(square, centre(square, Cell::new(2, 3))), [Cell::new(2, 3)]);
        assert_eq!(sorted(cells_touching(square, Point::new(4, 7))), [Cell::new(1, 3), Cell::new(2, 3)], "an edge");
        assert_eq!(cells_touching(square, Point::square_corner(2, 3)).len(), 4);
        for o in [HexOrientation::PointyTop, HexOrientation::FlatTop] {
            let hex = Grid::Hex(o);
            let cell = Cell::new(-2, 3);
            assert_eq!(cells_touching(hex, centre(hex, cell)), [cell]);
            for corner in corners(hex, cell) {
                let round = cells_touching(hex, corner);
                assert_eq!(round.len(), 3, "{corner:?}");
                assert!(round.contains(&cell));
            }
        }
    }

    #[test]
    fn grazing_a_wall_face_does_not_block_but_crossing_it_does() {
        let wall = walls(&[(2, 0)]);
        // Along the wall's south face, y = 1.
        assert_eq!(first_blocker(Grid::Square, sq(0, 1), sq(5, 1), &wall), None);
        // Through it.
        assert_eq!(first_blocker(Grid::Square, sq(0, 0), sq(5, 1), &wall), Some(Cell::new(2, 0)));
    }

    #[test]
    fn the_seam_between_two_walls_blocks() {
        let wall = walls(&[(2, 0), (2, 1)]);
        assert_eq!(first_blocker(Grid::Square, sq(0, 1), sq(5, 1), &wall), Some(Cell::new(2, 1)));
        // Along a corridor wall (one side only): clear.
        let corridor = walls(&[(0, 0), (1, 0), (2, 0), (3, 0)]);
        assert_eq!(first_blocker(Grid::Square, sq(0, 1), sq(4, 1), &corridor), None);
    }

    #[test]
    fn a_pinch_between_diagonal_walls_blocks_a_line_through_it_but_not_one_ending_there() {
        let pinch = walls(&[(1, 0), (0, 1)]);
        // From (0,0) to (2,2) through the vertex (1,1), between NE (1,0) and SW (0,1).
        assert!(first_blocker(Grid::Square, sq(0, 0), sq(2, 2), &pinch).is_some());
        assert_eq!(first_blocker(Grid::Square, sq(0, 0), sq(1, 1), &pinch), None);
        assert_eq!(first_blocker(Grid::Square, sq(1, 1), sq(2, 2), &pinch), None);
        // The other diagonal of the vertex is free: a line along it is clear.
        let other = walls(&[(0, 0), (1, 1)]);
        assert!(first_blocker(Grid::Square, sq(0, 2), sq(2, 0), &other).is_some());
        assert!(first_blocker(Grid::Square, sq(0, 0), sq(2, 2), &other).is_some(), "through both walls");
    }

    #[test]
    fn the_first_blocker_is_the_nearest_to_the_start() {
        let wall = walls(&[(5, 0), (2, 0)]);
        assert_eq!(first_blocker(Grid::Square, Point::new(1, 1), Point::new(15, 1), &wall), Some(Cell::new(2, 0)));
        assert_eq!(first_blocker(Grid::Square, Point::new(15, 1), Point::new(1, 1), &wall), Some(Cell::new(5, 0)));
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]
            /// The integer walk and the exact-fraction walk agree on every segment between lattice
            /// points (corners, side middles, centres) and every pattern of blocking squares.
            #[test]
            fn the_fast_walk_matches_the_exact_one(
                a in 0i64..17, b in 0i64..17, c in 0i64..17, d in 0i64..17,
                walls in proptest::collection::hash_set((0i32..8, 0i32..8), 0..24),
            ) {
                let blocks = |cell: Cell| walls.contains(&(cell.x, cell.y));
                let (p, q) = (Point::new(a, b), Point::new(c, d));
                prop_assume!(p != q);
                prop_assert_eq!(square_first_hit(Segment::between(p, q), &blocks).map(Hit::cell), square_first_blocker_reference(p, q, &blocks));
            }
        }
    }

    #[test]
    fn hex_lines_through_and_along_blocking_hexes() {
        let grid = Grid::Hex(HexOrientation::PointyTop);
        let centre = |q: i32, r: i32| centre(grid, Cell::new(q, r));
        let wall = walls(&[(1, 0)]);
        assert_eq!(first_blocker(grid, centre(0, 0), centre(2, 0), &wall), Some(Cell::new(1, 0)));
        assert_eq!(first_blocker(grid, centre(0, 0), centre(0, 2), &wall), None);
        // Along the side shared by (0,0) and (1,0)... from its one end to the other: a seam only if
        // both block.
        let side = [corners(grid, Cell::new(0, 0))[0], corners(grid, Cell::new(0, 0))[1]];
        assert_eq!(first_blocker(grid, side[0], side[1], &wall), None, "grazing one wall hex");
        let both = walls(&[(0, 0), (1, 0)]);
        assert!(first_blocker(grid, side[0], side[1], &both).is_some(), "the seam of two wall hexes");
    }
}
