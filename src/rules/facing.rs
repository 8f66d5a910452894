//! Facing and arcs: which of a creature's front, side and rear arcs holds a cell or a space, and
//! whether a shield counts against an attack from there.
//!
//! DMG "Optional Rule: Facing" (002_ce573f1e51986339.txt): "Each creature has a front arc (the
//! direction it faces), left and right side arcs, and a rear arc." "On squares, you pick one side
//! of a creature's space as the direction it is facing. Draw a diagonal line outward from each
//! corner of this side to determine the squares in its front arc. The opposite side of the space
//! determines its rear arc in the same way. The remaining spaces to either side of the creature
//! form its side arcs." "On hexes, ... Pick one side of the creature's space and create a wedge
//! shape expanding out from there for the front arc, and another on the opposite side of the
//! creature for the rear arc." "If more than half of a square or hex lies in one arc, it is in
//! that arc. If it is split exactly down the middle, use this rule: if half of it lies in the
//! front arc, it's in that arc. If half of it is in a side arc and the rear arc, it's in the side
//! arc."
//!
//! Conventions ("Facing"): the arcs are wedges from the centre of the creature's space through
//! the corners of the side it faces (on hexes, for several hexes, the 60° wedge centred on the
//! facing direction); a cell belongs to the arc holding more than half of its surface, ties going
//! front over side and side over rear.
//!
//! The geometry runs in lattice coordinates (`lattice.rs`: half units on squares, sixths of the
//! axial basis on hexes), scaled by the number of cells of the facer's space so that its centre is
//! a lattice point too. The map from there to the screen is linear with a positive determinant, so
//! it keeps which side of a ray a point lies on and the ratios of areas: the wedge rays run along
//! exact integer directions (a cell's corner directions), and only the clipped areas are floats.

use serde::{Deserialize, Serialize};

use super::area::{V, clip_by, polygon_area};
use super::creature::{Direction, ShieldSide};
use super::grid::{Cell, Grid};
use super::lattice::{self, Point};

/// Shares closer than this (of a cell's surface) are a tie (conventions, "Lines": an epsilon no
/// larger than 1e-9).
pub const TIE_TOLERANCE: f64 = 1e-9;

/// A creature's arcs (DMG "Optional Rule: Facing").
///
/// In JSON they are `front`, `left`, `right`, `rear`; a scene file may also write them as its
/// other enums are written (`Front`, `Left`, `Right`, `Rear`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arc {
    #[serde(alias = "Front")]
    Front,
    #[serde(alias = "Left")]
    Left,
    #[serde(alias = "Right")]
    Right,
    #[serde(alias = "Rear")]
    Rear,
}

impl Arc {
    pub const ALL: [Arc; 4] = [Arc::Front, Arc::Left, Arc::Right, Arc::Rear];

    /// The arcs in the order a tie between them is broken (DMG "Optional Rule: Facing": "if half
    /// of it lies in the front arc, it's in that arc. If half of it is in a side arc and the rear
    /// arc, it's in the side arc"; a left/right tie, which the wedges never make, goes left).
    pub const TIE_ORDER: [Arc; 4] = [Arc::Front, Arc::Left, Arc::Right, Arc::Rear];

    pub fn name(self) -> &'static str {
        match self {
            Arc::Front => "front",
            Arc::Left => "left side",
            Arc::Right => "right side",
            Arc::Rear => "rear",
        }
    }
}

/// What each of the geometric arcs counts as: a custom layout (an ochre jelly: all front; a hydra:
/// three front and one rear). The front region always counts as front.
///
/// DMG "Optional Rule: Facing": "Feel free to determine that not all creatures have every type of
/// arc. For example, an amorphous ochre jelly could treat all of its arcs as front ones, while a
/// hydra might have three front arcs and one rear one."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ArcLayout {
    pub left: Arc,
    pub right: Arc,
    pub rear: Arc,
}

impl Default for ArcLayout {
    fn default() -> Self {
        Self::STANDARD
    }
}

impl ArcLayout {
    /// Front, left side, right side and rear, as the DMG draws them.
    pub const STANDARD: Self = Self { left: Arc::Left, right: Arc::Right, rear: Arc::Rear };
    /// Every arc a front arc (the DMG's ochre jelly).
    pub const ALL_FRONT: Self = Self { left: Arc::Front, right: Arc::Front, rear: Arc::Front };
    /// Three front arcs and one rear one (the DMG's hydra): the sides count as front.
    pub const THREE_FRONT_ONE_REAR: Self = Self { left: Arc::Front, right: Arc::Front, rear: Arc::Rear };

    /// The arc that the geometric region `region` counts as for this creature.
    pub fn counts_as(self, region: Arc) -> Arc {
        match region {
            Arc::Front => Arc::Front,
            Arc::Left => self.left,
            Arc::Right => self.right,
            Arc::Rear => self.rear,
        }
    }

    pub fn is_standard(self) -> bool {
        self == Self::STANDARD
    }
}

/// The creature whose arcs are asked about.
#[derive(Clone, Copy, Debug)]
pub struct Facer<'a> {
    pub cells: &'a [Cell],
    pub facing: Direction,
    pub layout: ArcLayout,
}

/// The share of a cell's (or a space's) surface in each geometric arc, summing to 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ArcShares {
    pub front: f64,
    pub left: f64,
    pub right: f64,
    pub rear: f64,
}

impl ArcShares {
    /// No surface in any arc: what a facer without a space gives.
    pub const NONE: Self = Self { front: 0.0, left: 0.0, right: 0.0, rear: 0.0 };

    /// The share in one geometric arc.
    pub fn of(self, arc: Arc) -> f64 {
        match arc {
            Arc::Front => self.front,
            Arc::Left => self.left,
            Arc::Right => self.right,
            Arc::Rear => self.rear,
        }
    }

    pub fn total(self) -> f64 {
        self.front + self.left + self.right + self.rear
    }

    /// The geometric arc that holds the most, ties (within [`TIE_TOLERANCE`]) broken by
    /// [`Arc::TIE_ORDER`]: front over side, side over rear, left over right (DMG "Optional Rule:
    /// Facing"). None when nothing is held at all.
    pub fn majority(self) -> Option<Arc> {
        let most = Arc::ALL.into_iter().map(|arc| self.of(arc)).fold(0.0, f64::max);
        if most <= 0.0 {
            return None;
        }
        Arc::TIE_ORDER.into_iter().find(|&arc| self.of(arc) >= most - TIE_TOLERANCE)
    }

    fn add(self, other: Self) -> Self {
        Self {
            front: self.front + other.front,
            left: self.left + other.left,
            right: self.right + other.right,
            rear: self.rear + other.rear,
        }
    }

    fn scaled(self, factor: f64) -> Self {
        Self {
            front: self.front * factor,
            left: self.left * factor,
            right: self.right * factor,
            rear: self.rear * factor,
        }
    }
}

/// The facing the arcs are drawn for: `facing` if a creature can face it on `grid`, else the
/// grid's first facing, as [`turned`] snaps. (Scenes refuse such facings; every direction a hex
/// grid doesn't allow lies exactly between two it does, so there is no nearer one to pick.)
pub fn allowed_facing(grid: Grid, facing: Direction) -> Direction {
    let allowed = Direction::facings(grid);
    if allowed.contains(&facing) { facing } else { allowed[0] }
}

/// The next facing clockwise (or counterclockwise) on this grid, for a "turn" control: cycles
/// through [`Direction::facings`] (listed clockwise); a facing not allowed on the grid snaps to
/// the first allowed one.
pub fn turned(grid: Grid, facing: Direction, clockwise: bool) -> Direction {
    let allowed = Direction::facings(grid);
    let n = allowed.len();
    match allowed.iter().position(|&f| f == facing) {
        Some(i) if clockwise => allowed[(i + 1) % n],
        Some(i) => allowed[(i + n - 1) % n],
        None => allowed[0],
    }
}

/// Whether a shield on `side` counts against an attack from `attacker_arc` (the arc of the target
/// that the attacker stands in): front, or the shield's own side. DMG "Optional Rule: Facing":
/// "Shields apply their bonus to AC only against attacks from the front arc or the same side arc
/// as the shield."
pub fn shield_counts(side: ShieldSide, attacker_arc: Arc) -> bool {
    match attacker_arc {
        Arc::Front => true,
        Arc::Left => side == ShieldSide::Left,
        Arc::Right => side == ShieldSide::Right,
        Arc::Rear => false,
    }
}

/// The centre of a space (the mean of its cells' centres) times the number of its cells, so that
/// it is a lattice point, and that number; None for no cells. A square space's centre, the shared
/// vertex of a Large or Gargantuan hex space, the anchor's centre of a Huge one.
pub(crate) fn scaled_space_centre(grid: Grid, cells: &[Cell]) -> Option<(i128, i128, i128)> {
    if cells.is_empty() {
        return None;
    }
    let (a, b) = cells
        .iter()
        .map(|&c| lattice::centre(grid, c))
        .fold((0_i128, 0_i128), |(a, b), p| (a + i128::from(p.a), b + i128::from(p.b)));
    Some((a, b, cells.len() as i128))
}

/// The four rays bounding the arcs, as lattice directions, clockwise on screen from the front
/// arc's left edge: front is between the first two, then the right side, the rear, the left side.
/// Squares: θ−45°, θ+45°, θ+135°, θ+225°; hexes: θ−30°, θ+30°, θ+150°, θ+210°. Each is the
/// direction from a cell's centre to one of its corners: for one cell, the rays through the
/// corners of the side it faces and of the opposite side.
fn arc_rays(grid: Grid, facing: Direction) -> [(i128, i128); 4] {
    let theta = allowed_facing(grid, facing).degrees(grid);
    let half = if grid.is_hex() { 30.0 } else { 45.0 };
    let origin = Cell::new(0, 0);
    let centre = lattice::centre(grid, origin);
    let corners = lattice::ring(grid, origin);
    let directions = corners.iter().map(|p| Point::new(p.a - centre.a, p.b - centre.b));
    let nearest = |degrees: f64| {
        let off = |p: &Point| {
            let (x, y) = p.to_units(grid);
            let diff = (y.atan2(x).to_degrees() - degrees).rem_euclid(360.0);
            diff.min(360.0 - diff)
        };
        let best = directions.clone().min_by(|p, q| off(p).total_cmp(&off(q))).unwrap_or(centre);
        (i128::from(best.a), i128::from(best.b))
    };
    [theta - half, theta + half, theta + 180.0 - half, theta + 180.0 + half].map(nearest)
}

fn cross(u: (i128, i128), v: (i128, i128)) -> i128 {
    u.0 * v.1 - u.1 * v.0
}

/// The share of a cell's surface in each geometric arc of `facer` (before its layout). A cell of
/// the facer's own space is split around its centre like any other; a facer without cells has no
/// arcs ([`ArcShares::NONE`]).
///
/// The cell is clipped by each arc's two half-planes (every wedge is under 180°, so convex). Its
/// corners are taken relative to its own centre, in lattice units times the facer's cell count:
/// small exact integers however far the cell lies; the apex is an exact integer offset, and the
/// line through it along ray `u` is `cross(u, p) = cross(u, apex)`, a constant computed exactly
/// (it is small whenever the line passes near the cell). A cell split along a ray is split exactly.
pub fn arc_shares(grid: Grid, facer: &Facer, cell: Cell) -> ArcShares {
    let Some((sum_a, sum_b, n)) = scaled_space_centre(grid, facer.cells) else {
        return ArcShares::NONE;
    };
    let centre = lattice::centre(grid, cell);
    let (centre_a, centre_b) = (i128::from(centre.a) * n, i128::from(centre.b) * n);
    let apex = (sum_a - centre_a, sum_b - centre_b);
    let polygon: Vec<V> = lattice::ring(grid, cell)
        .iter()
        .map(|p| ((i128::from(p.a) * n - centre_a) as f64, (i128::from(p.b) * n - centre_b) as f64))
        .collect();
    let whole = polygon_area(&polygon);
    if whole <= 0.0 {
        return ArcShares::NONE;
    }
    let rays = arc_rays(grid, facer.facing);
    // The wedge from ray `from` clockwise to ray `to`: cross(from, p − apex) ≥ 0 and
    // cross(to, p − apex) ≤ 0.
    let share = |from: (i128, i128), to: (i128, i128)| {
        let (from_k, to_k) = (cross(from, apex) as f64, cross(to, apex) as f64);
        let (from, to) = ((from.0 as f64, from.1 as f64), (to.0 as f64, to.1 as f64));
        let past_from = clip_by(&polygon, 0.0, |p| from.0 * p.1 - from.1 * p.0 - from_k);
        let inside = clip_by(&past_from, 0.0, |p| to_k - (to.0 * p.1 - to.1 * p.0));
        if inside.len() < 3 { 0.0 } else { polygon_area(&inside) / whole }
    };
    ArcShares {
        front: share(rays[0], rays[1]),
        right: share(rays[1], rays[2]),
        rear: share(rays[2], rays[3]),
        left: share(rays[3], rays[0]),
    }
}

/// The share of a whole space's surface in each geometric arc, over its cells outside the
/// facer's space (every cell has the same area); None if no such cell is left.
pub fn space_shares(grid: Grid, facer: &Facer, cells: &[Cell]) -> Option<ArcShares> {
    if facer.cells.is_empty() {
        return None;
    }
    let outside: Vec<Cell> = cells.iter().copied().filter(|c| !facer.cells.contains(c)).collect();
    if outside.is_empty() {
        return None;
    }
    let sum = outside.iter().fold(ArcShares::NONE, |sum, &c| sum.add(arc_shares(grid, facer, c)));
    Some(sum.scaled(1.0 / outside.len() as f64))
}

/// The arc that holds `cell` (after the custom layout), or None for a cell of the facer's own
/// space (or an empty facer). DMG "Optional Rule: Facing": "If more than half of a square or hex
/// lies in one arc, it is in that arc", ties front over side over rear ([`ArcShares::majority`]).
pub fn arc_of_cell(grid: Grid, facer: &Facer, cell: Cell) -> Option<Arc> {
    if facer.cells.contains(&cell) {
        return None;
    }
    arc_shares(grid, facer, cell).majority().map(|region| facer.layout.counts_as(region))
}

/// The arc that holds a whole space (another creature): the majority of its whole surface, same
/// tie-breaks, after the custom layout; None if it overlaps the facer's own space entirely or is
/// empty. Cells it shares with the facer's space (Tiny creatures) are left out.
pub fn arc_of_space(grid: Grid, facer: &Facer, cells: &[Cell]) -> Option<Arc> {
    space_shares(grid, facer, cells)?.majority().map(|region| facer.layout.counts_as(region))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::HexOrientation;
    use crate::rules::picture::picture;
    use crate::rules::size::{Footprint, Size};

    const POINTY: Grid = Grid::Hex(HexOrientation::PointyTop);
    const FLAT: Grid = Grid::Hex(HexOrientation::FlatTop);
    const GRIDS: [Grid; 3] = [Grid::Square, POINTY, FLAT];

    fn space(grid: Grid, size: Size, anchor: Cell) -> Vec<Cell> {
        Footprint::of(grid, size, None).at(anchor).collect()
    }

    fn letter(arc: Option<Arc>) -> char {
        match arc {
            Some(Arc::Front) => 'F',
            Some(Arc::Left) => 'L',
            Some(Arc::Right) => 'R',
            Some(Arc::Rear) => 'B',
            None => '#',
        }
    }

    /// The arcs of every cell of a `cols` × `rows` map: `F` front, `L` left side, `R` right side,
    /// `B` rear (behind), `#` the creature's own space.
    fn arcs_picture(grid: Grid, facer: &Facer, cols: i32, rows: i32) -> Vec<String> {
        picture(grid, cols, rows, |cell| letter(arc_of_cell(grid, facer, cell)))
    }

    fn facer(cells: &[Cell], facing: Direction) -> Facer<'_> {
        Facer { cells, facing, layout: ArcLayout::STANDARD }
    }

    /// Square (x, y) turned 90° clockwise on screen about the origin.
    fn square_turn(c: Cell) -> Cell {
        Cell::new(-c.y - 1, c.x)
    }

    /// Hex (q, r) turned 60° clockwise on screen about hex (0, 0) (Red Blob Games' "rotate right").
    fn hex_turn(c: Cell) -> Cell {
        Cell::new(-c.y, c.x + c.y)
    }

    fn turn(grid: Grid, c: Cell) -> Cell {
        if grid.is_hex() { hex_turn(c) } else { square_turn(c) }
    }

    /// DMG "Optional Rule: Facing": "Draw a diagonal line outward from each corner of this side to
    /// determine the squares in its front arc." A Medium creature at (3, 3) facing North: the
    /// diagonal squares are split exactly down the middle; "if half of it lies in the front arc,
    /// it's in that arc" (NE, NW: front), "If half of it is in a side arc and the rear arc, it's
    /// in the side arc" (SE, SW). Left and right as the creature sees them: West is its left.
    #[test]
    fn a_medium_creature_facing_north_on_squares() {
        let me = [Cell::new(3, 3)];
        let north = facer(&me, Direction::North);
        let expected = ["FFFFFFF", "LFFFFFR", "LLFFFRR", "LLL#RRR", "LLLBRRR", "LLBBBRR", "LBBBBBR"];
        assert_eq!(arcs_picture(Grid::Square, &north, 7, 7), expected);
        let diagonal = arc_shares(Grid::Square, &north, Cell::new(4, 2));
        assert_eq!((diagonal.front, diagonal.right), (0.5, 0.5), "split exactly down the middle");
        let behind = arc_shares(Grid::Square, &north, Cell::new(2, 4));
        assert_eq!((behind.left, behind.rear), (0.5, 0.5));
    }

    /// East, South and West are the North picture turned: the map turned 90° clockwise with the
    /// creature turned the same way.
    #[test]
    fn the_other_square_facings_are_turns_of_north() {
        let me = [Cell::new(0, 0)];
        let north = arcs_picture_around(Grid::Square, &facer(&me, Direction::North));
        let east_cells: Vec<Cell> = me.iter().map(|&c| square_turn(c)).collect();
        let east = facer(&east_cells, Direction::East);
        for y in -3..4 {
            for x in -3..4 {
                let cell = Cell::new(x, y);
                assert_eq!(arc_of_cell(Grid::Square, &east, square_turn(cell)), north[&cell], "{cell}");
            }
        }
        let me = [Cell::new(3, 3)];
        let east = ["LLLLLLF", "BLLLLFF", "BBLLFFF", "BBB#FFF", "BBRRFFF", "BRRRRFF", "RRRRRRF"];
        assert_eq!(arcs_picture(Grid::Square, &facer(&me, Direction::East), 7, 7), east);
        let south = ["RBBBBBL", "RRBBBLL", "RRRBLLL", "RRR#LLL", "RRFFFLL", "RFFFFFL", "FFFFFFF"];
        assert_eq!(arcs_picture(Grid::Square, &facer(&me, Direction::South), 7, 7), south);
        let west = ["FRRRRRR", "FFRRRRB", "FFFRRBB", "FFF#BBB", "FFFLLBB", "FFLLLLB", "FLLLLLL"];
        assert_eq!(arcs_picture(Grid::Square, &facer(&me, Direction::West), 7, 7), west);
    }

    fn arcs_picture_around(grid: Grid, facer: &Facer) -> std::collections::HashMap<Cell, Option<Arc>> {
        (-3..4).flat_map(|y| (-3..4).map(move |x| Cell::new(x, y))).map(|c| (c, arc_of_cell(grid, facer, c))).collect()
    }

    /// A Large (2×2) and a Huge (3×3) creature facing East: the rays from the space's centre
    /// through the corners of its east side run diagonally outward from those corners.
    #[test]
    fn large_and_huge_creatures_facing_east_on_squares() {
        let large = space(Grid::Square, Size::Large, Cell::new(3, 3));
        assert_eq!(
            arcs_picture(Grid::Square, &facer(&large, Direction::East), 8, 8),
            ["LLLLLLLF", "BLLLLLFF", "BBLLLFFF", "BBB##FFF", "BBB##FFF", "BBRRRFFF", "BRRRRRFF", "RRRRRRRF",]
        );
        let huge = space(Grid::Square, Size::Huge, Cell::new(3, 3));
        assert_eq!(
            arcs_picture(Grid::Square, &facer(&huge, Direction::East), 9, 9),
            [
                "LLLLLLLLF",
                "BLLLLLLFF",
                "BBLLLLFFF",
                "BBB###FFF",
                "BBB###FFF",
                "BBB###FFF",
                "BBRRRRFFF",
                "BRRRRRRFF",
                "RRRRRRRRF",
            ]
        );
    }

    /// DMG "Optional Rule: Facing", on hexes: "Pick one side of the creature's space and create a
    /// wedge shape expanding out from there for the front arc, and another on the opposite side".
    /// For one hex the 60° wedge runs along the edges between the faced neighbour and the two
    /// beside it: of the six neighbours, 1 is in front, 2 on each side and 1 behind, for every
    /// facing on both orientations.
    #[test]
    fn a_medium_creature_on_hexes_in_each_of_its_six_facings() {
        for grid in [POINTY, FLAT] {
            let me = [Cell::new(0, 0)];
            for &facing in Direction::facings(grid) {
                let who = facer(&me, facing);
                let theta = facing.degrees(grid);
                for n in grid.neighbours(me[0]) {
                    let (x, y) = grid.center(n);
                    let off = (y.atan2(x).to_degrees() - theta).rem_euclid(360.0).round() as i32 % 360;
                    let expected = match off {
                        0 => Arc::Front,
                        60 | 120 => Arc::Right,
                        180 => Arc::Rear,
                        _ => Arc::Left,
                    };
                    assert_eq!(arc_of_cell(grid, &who, n), Some(expected), "{grid:?} {facing:?} {n}");
                }
            }
        }
    }

    /// The 60° wedges of a Medium creature on pointy-top hexes, facing East and NorthWest, and on
    /// flat-top hexes facing North. Beyond the neighbours, a hex on a ray is split in half and the
    /// tie-breaks decide (front over side, side over rear).
    #[test]
    fn medium_hex_pictures() {
        let pointy_me = [POINTY.from_storage(3, 3)];
        assert_eq!(
            arcs_picture(POINTY, &facer(&pointy_me, Direction::East), 7, 7),
            [
                "L L L L L L L",
                " L L L L L L F",
                "B B L L L F F",
                " B B B # F F F",
                "B B R R R F F",
                " R R R R R R F",
                "R R R R R R R",
            ]
        );
        assert_eq!(
            arcs_picture(POINTY, &facer(&pointy_me, Direction::NorthWest), 7, 7),
            [
                "F F F F R R R",
                " F F F F R R R",
                "L L F F R R R",
                " L L L # R R R",
                "L L L L B R R",
                " L L L L B B R",
                "L L L L B B B",
            ]
        );
        let flat_me = [FLAT.from_storage(3, 3)];
        assert_eq!(
            arcs_picture(FLAT, &facer(&flat_me, Direction::North), 7, 7),
            [
                "L   F   F   R",
                "  F   F   F",
                "L   F   F   R",
                "  L   F   R",
                "L   F   F   R",
                "  L   F   R",
                "L   L   R   R",
                "  L   #   R",
                "L   L   R   R",
                "  L   B   R",
                "L   L   R   R",
                "  L   B   R",
                "L   B   B   R",
                "  L   B   R",
            ]
        );
    }

    /// A Large (3-hex) and a Huge (7-hex) creature: the 60° wedge from the space's centre (the
    /// shared vertex of the 3 hexes; the anchor's centre of the 7) centred on the facing.
    #[test]
    fn large_and_huge_hex_pictures() {
        let large = space(POINTY, Size::Large, POINTY.from_storage(3, 3));
        assert_eq!(
            arcs_picture(POINTY, &facer(&large, Direction::East), 8, 7),
            [
                "L L L L L L L L",
                " L L L L L L L F",
                "B B L L L L F F",
                " B B B # # F F F",
                "B B B R # F F F",
                " B R R R R R F F",
                "R R R R R R R R",
            ]
        );
        let huge = space(FLAT, Size::Huge, FLAT.from_storage(3, 3));
        assert_eq!(
            arcs_picture(FLAT, &facer(&huge, Direction::South), 7, 7),
            [
                "R   B   B   L",
                "  R   B   L",
                "R   B   B   L",
                "  R   B   L",
                "R   R   L   L",
                "  R   #   L",
                "R   #   #   L",
                "  R   #   L",
                "R   #   #   L",
                "  R   #   L",
                "R   F   F   L",
                "  R   F   L",
                "R   F   F   L",
                "  F   F   F",
            ]
        );
    }

    /// DMG: "an amorphous ochre jelly could treat all of its arcs as front ones, while a hydra
    /// might have three front arcs and one rear one."
    #[test]
    fn custom_layouts_for_an_ochre_jelly_and_a_hydra() {
        let me = [Cell::new(3, 3)];
        let jelly = Facer { cells: &me, facing: Direction::North, layout: ArcLayout::ALL_FRONT };
        let all_front: Vec<String> = (0..7).map(|y| if y == 3 { "FFF#FFF".into() } else { "FFFFFFF".into() }).collect();
        assert_eq!(arcs_picture(Grid::Square, &jelly, 7, 7), all_front);
        let hydra = Facer { cells: &me, facing: Direction::North, layout: ArcLayout::THREE_FRONT_ONE_REAR };
        assert_eq!(
            arcs_picture(Grid::Square, &hydra, 7, 7),
            ["FFFFFFF", "FFFFFFF", "FFFFFFF", "FFF#FFF", "FFFBFFF", "FFBBBFF", "FBBBBBF"]
        );
        assert!(ArcLayout::default().is_standard());
        assert!(!ArcLayout::THREE_FRONT_ONE_REAR.is_standard());
        assert_eq!(ArcLayout::ALL_FRONT.counts_as(Arc::Rear), Arc::Front);
    }

    /// A Large target standing across two arcs of a Medium creature at (3, 3) facing North: the
    /// whole space's surface decides, with the DMG's tie-breaks. At (4, 1)–(5, 2) one square is in
    /// front, one on the right side and two are split between them: exactly half in front, "if
    /// half of it lies in the front arc, it's in that arc". One square further east only half a
    /// square of four is in front: the right side. At (1, 4)–(2, 5), half on the left side and half
    /// behind: "If half of it is in a side arc and the rear arc, it's in the side arc."
    #[test]
    fn a_large_target_across_two_arcs() {
        let me = [Cell::new(3, 3)];
        let north = facer(&me, Direction::North);
        let shares = |anchor: Cell| {
            let target = space(Grid::Square, Size::Large, anchor);
            (space_shares(Grid::Square, &north, &target).expect("outside"), arc_of_space(Grid::Square, &north, &target))
        };
        let (split, arc) = shares(Cell::new(4, 1));
        assert_eq!((split.front, split.right, arc), (0.5, 0.5, Some(Arc::Front)));
        let (east, arc) = shares(Cell::new(5, 1));
        assert_eq!((east.front, east.right, arc), (0.125, 0.875, Some(Arc::Right)));
        let (behind, arc) = shares(Cell::new(1, 4));
        assert_eq!((behind.left, behind.rear, arc), (0.5, 0.5, Some(Arc::Left)));
        // Through a hydra's eyes the sides are front too.
        let hydra = Facer { layout: ArcLayout::THREE_FRONT_ONE_REAR, ..north };
        assert_eq!(
            arc_of_space(Grid::Square, &hydra, &space(Grid::Square, Size::Large, Cell::new(5, 1))),
            Some(Arc::Front)
        );
    }

    #[test]
    fn the_facer_s_own_space_and_empty_inputs_have_no_arc() {
        let me = [Cell::new(0, 0)];
        let who = facer(&me, Direction::North);
        assert_eq!(arc_of_cell(Grid::Square, &who, Cell::new(0, 0)), None);
        assert_eq!(arc_of_space(Grid::Square, &who, &[]), None);
        assert_eq!(arc_of_space(Grid::Square, &who, &me), None);
        let nobody = facer(&[], Direction::North);
        assert_eq!(arc_of_cell(Grid::Square, &nobody, Cell::new(1, 1)), None);
        assert_eq!(arc_shares(Grid::Square, &nobody, Cell::new(1, 1)), ArcShares::NONE);
        assert_eq!(arc_of_space(POINTY, &nobody, &me), None);
        // Far away and at the edge of the integers: an answer, no panic.
        for grid in GRIDS {
            for far in [Cell::new(i32::MAX, i32::MIN), Cell::new(100_000, -3)] {
                assert!(arc_of_cell(grid, &who, far).is_some(), "{grid:?} {far}");
            }
        }
        // A facing the grid doesn't allow is drawn as the grid's first.
        let odd = facer(&me, Direction::North);
        let first = facer(&me, Direction::facings(POINTY)[0]);
        for n in POINTY.neighbours(me[0]) {
            assert_eq!(arc_of_cell(POINTY, &odd, n), arc_of_cell(POINTY, &first, n));
        }
    }

    /// DMG: "a fighter with a shield on the left arm can use it only against attacks from the
    /// front and left arcs."
    #[test]
    fn shields_count_from_the_front_and_their_own_side() {
        let left: Vec<Arc> = Arc::ALL.into_iter().filter(|&a| shield_counts(ShieldSide::Left, a)).collect();
        assert_eq!(left, [Arc::Front, Arc::Left]);
        let right: Vec<Arc> = Arc::ALL.into_iter().filter(|&a| shield_counts(ShieldSide::Right, a)).collect();
        assert_eq!(right, [Arc::Front, Arc::Right]);
    }

    #[test]
    fn turning_cycles_through_the_grid_s_facings_clockwise() {
        for grid in GRIDS {
            let facings = Direction::facings(grid);
            let step = 360.0 / facings.len() as f64;
            for &f in facings {
                let next = turned(grid, f, true);
                assert_eq!((next.degrees(grid) - f.degrees(grid)).rem_euclid(360.0), step, "{grid:?} {f:?}");
                assert_eq!(turned(grid, next, false), f);
            }
        }
        assert_eq!(turned(Grid::Square, Direction::North, true), Direction::East);
        assert_eq!(turned(Grid::Square, Direction::North, false), Direction::West);
        assert_eq!(turned(Grid::Square, Direction::NorthEast, true), Direction::North, "snaps");
        assert_eq!(turned(POINTY, Direction::North, false), Direction::NorthEast, "snaps");
    }

    #[test]
    fn arcs_read_and_write_as_words() {
        assert_eq!(serde_json::to_string(&Arc::Rear).expect("json"), "\"rear\"");
        assert_eq!(Arc::Right.name(), "right side");
        let options = ron::Options::default();
        let layout: ArcLayout = options.from_str("(left: Front, right: front)").expect("ron");
        assert_eq!(layout, ArcLayout { left: Arc::Front, right: Arc::Front, rear: Arc::Rear });
        assert!(options.from_str::<ArcLayout>("(back: Front)").is_err());
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn grid_of(i: usize) -> Grid {
            GRIDS[i % 3]
        }

        prop_compose! {
            fn a_case()(g in 0usize..3, size in 0usize..6, facing in 0usize..6, ax in -6i32..6, ay in -6i32..6, cx in -9i32..9, cy in -9i32..9)
                -> (Grid, Vec<Cell>, Direction, Cell) {
                let grid = grid_of(g);
                let cells = space(grid, Size::ALL[size], Cell::new(ax, ay));
                let facings = Direction::facings(grid);
                (grid, cells, facings[facing % facings.len()], Cell::new(cx, cy))
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn shares_sum_to_one((grid, cells, facing, cell) in a_case()) {
                let shares = arc_shares(grid, &facer(&cells, facing), cell);
                prop_assert!((shares.total() - 1.0).abs() <= 1e-9, "{shares:?}");
                prop_assert!(Arc::ALL.iter().all(|&a| shares.of(a) >= -1e-12));
            }

            /// Turning the board and the creature by the grid's own turn (90° on squares, 60° on
            /// hexes) turns the arcs with them.
            #[test]
            fn arcs_turn_with_the_board((grid, cells, facing, cell) in a_case(), turns in 1usize..6) {
                let mut turned_cells = cells.clone();
                let mut turned_cell = cell;
                let mut turned_facing = facing;
                for _ in 0..turns {
                    turned_cells = turned_cells.iter().map(|&c| turn(grid, c)).collect();
                    turned_cell = turn(grid, turned_cell);
                    turned_facing = turned(grid, turned_facing, true);
                }
                let before = arc_of_cell(grid, &facer(&cells, facing), cell);
                let after = arc_of_cell(grid, &facer(&turned_cells, turned_facing), turned_cell);
                prop_assert_eq!(before, after);
            }

            #[test]
            fn a_cell_and_a_one_cell_space_agree((grid, cells, facing, cell) in a_case(), layout in 0usize..3) {
                let layout = [ArcLayout::STANDARD, ArcLayout::ALL_FRONT, ArcLayout::THREE_FRONT_ONE_REAR][layout];
                let who = Facer { cells: &cells, facing, layout };
                prop_assert_eq!(arc_of_cell(grid, &who, cell), arc_of_space(grid, &who, &[cell]));
            }
        }
    }
}
