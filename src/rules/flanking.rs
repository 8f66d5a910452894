//! Flanking geometry: the ring of cells around a space, and whether two cells of it flank the
//! creature in that space, on squares and on hexes.
//!
//! DMG "Optional Rule: Flanking" (002_ce573f1e51986339.txt). "Flanking on Squares": "When a
//! creature and at least one of its allies are adjacent to an enemy and on opposite sides or
//! corners of the enemy's space, they flank that enemy ... When in doubt about whether two
//! creatures flank an enemy on a grid, trace an imaginary line between the centers of the
//! creatures' spaces. If the line passes through opposite sides or corners of the enemy's space,
//! the enemy is flanked." "Flanking on Hexes": "On hexes, count around the enemy from one
//! creature to its ally. Against a Medium or smaller creature, the allies flank if there are 2
//! hexes between them. Against a Large creature, the allies flank if there are 4 hexes between
//! them. Against a Huge creature, they must have 5 hexes between them. Against a Gargantuan
//! creature, they must have at least 6 hexes between them." "A Large or larger creature is
//! flanking as long as at least one square or hex of its space qualifies for flanking."
//!
//! Conventions ("Flanking"): on squares the line runs between the centres of the two qualifying
//! cells; on hexes the hexes between the two, counted the shorter way round the ring, must number
//! at least floor((ring − 2) / 2): 2, 3, 5 and 6 around spaces of 1, 3, 7 and 12 hexes (rings of
//! 6, 9, 12 and 15; the Large case is 3 one way and 4 the other, the DMG's "4 hexes").
//!
//! Only geometry lives here: who is an ally, who can see the enemy and who is incapacitated is the
//! caller's business. Everything is integer arithmetic on the lattice of `lattice.rs`.

use std::collections::HashSet;

use super::grid::{Cell, Grid, HEX_STEPS, HexOrientation, SQUARE_STEPS};
use super::lattice::{self, Ratio};

/// On hexes, the fewest hexes that must lie between two flankers, counted the shorter way round a
/// ring of `ring_len` hexes: floor((ring_len − 2) / 2), so 2, 3, 5 and 6 for rings of 6, 9, 12 and
/// 15 (conventions, "Flanking": an even split of the ring, as even as an odd ring allows).
pub fn hexes_between_needed(ring_len: usize) -> usize {
    ring_len.saturating_sub(2) / 2
}

/// The neighbours of `cell` (8 on squares, 6 on hexes) that exist as `i32` coordinates.
fn neighbours(grid: Grid, cell: Cell) -> impl Iterator<Item = Cell> {
    let steps: &[(i32, i32)] = if grid.is_hex() { &HEX_STEPS } else { &SQUARE_STEPS };
    steps.iter().filter_map(move |&(dx, dy)| Some(Cell::new(cell.x.checked_add(dx)?, cell.y.checked_add(dy)?)))
}

/// A lattice vector pointing east on screen: the ring starts at the smallest angle from it.
fn east(grid: Grid) -> (i128, i128) {
    match grid {
        Grid::Square | Grid::Hex(HexOrientation::PointyTop) => (1, 0),
        // Flat-top: screen (x, y) = (q·√3/2, r + q/2), so east is q = 2, r = −1 (scaled).
        Grid::Hex(HexOrientation::FlatTop) => (2, -1),
    }
}

fn cross(a: (i128, i128), b: (i128, i128)) -> i128 {
    a.0 * b.1 - a.1 * b.0
}

/// The hexes or squares adjacent to a space (not in it), in order around it (clockwise on screen,
/// starting anywhere fixed, e.g. the smallest angle from east around the space's centre). Squares:
/// the 8-neighbour ring (4n+4 cells for n×n). Hexes: rings of 6, 9, 12, 15 for 1/3/7/12-hex
/// spaces.
///
/// The order is exact: cells are sorted by the angle of their centre around the space's centre
/// (the mean of its cells' centres), clockwise from east, by integer cross products; cells on
/// one ray from the centre (only around odd-shaped spaces) go nearest first.
pub fn ring(grid: Grid, space: &[Cell]) -> Vec<Cell> {
    let Some((ca, cb, n)) = super::facing::scaled_space_centre(grid, space) else {
        return Vec::new();
    };
    let inside: HashSet<Cell> = space.iter().copied().collect();
    let mut seen = HashSet::new();
    let around: Vec<Cell> =
        space.iter().flat_map(|&c| neighbours(grid, c)).filter(|c| !inside.contains(c) && seen.insert(*c)).collect();
    let east = east(grid);
    let offset = |c: Cell| {
        let p = lattice::centre(grid, c);
        (i128::from(p.a) * n - ca, i128::from(p.b) * n - cb)
    };
    // 0 for angles in [0°, 180°) clockwise from east, 1 for [180°, 360°).
    let half = |v: (i128, i128)| {
        let side = cross(east, v);
        let ahead = east.0 * v.0 + east.1 * v.1;
        if side > 0 || (side == 0 && ahead >= 0) { 0 } else { 1 }
    };
    let mut keyed: Vec<((i128, i128), Cell)> = around.into_iter().map(|c| (offset(c), c)).collect();
    keyed.sort_by(|&(u, a), &(v, b)| {
        half(u)
            .cmp(&half(v))
            .then_with(|| 0.cmp(&cross(u, v)))
            .then_with(|| (u.0 * u.0 + u.1 * u.1).cmp(&(v.0 * v.0 + v.1 * v.1)))
            .then_with(|| a.cmp(&b))
    });
    keyed.into_iter().map(|(_, c)| c).collect()
}

/// The enemy's space as flanking sees it: the ring around it and, on squares, the rectangle its
/// cells cover.
struct Surroundings {
    grid: Grid,
    ring: Vec<Cell>,
    rectangle: Rectangle,
}

/// An axis-aligned rectangle in half units: `[x0, x1] × [y0, y1]`.
#[derive(Clone, Copy, Debug)]
struct Rectangle {
    x0: i64,
    x1: i64,
    y0: i64,
    y1: i64,
}

impl Surroundings {
    fn new(grid: Grid, enemy: &[Cell]) -> Self {
        let rectangle = Rectangle {
            x0: enemy.iter().map(|c| i64::from(c.x)).min().unwrap_or(0) * 2,
            x1: (enemy.iter().map(|c| i64::from(c.x)).max().unwrap_or(-1) + 1) * 2,
            y0: enemy.iter().map(|c| i64::from(c.y)).min().unwrap_or(0) * 2,
            y1: (enemy.iter().map(|c| i64::from(c.y)).max().unwrap_or(-1) + 1) * 2,
        };
        Self { grid, ring: ring(grid, enemy), rectangle }
    }

    fn flank(&self, a: Cell, b: Cell) -> bool {
        if a == b {
            return false;
        }
        let (Some(i), Some(j)) = (self.ring.iter().position(|&c| c == a), self.ring.iter().position(|&c| c == b))
        else {
            return false;
        };
        match self.grid {
            Grid::Square => crosses_opposite_sides(self.rectangle, a, b),
            Grid::Hex(_) => {
                let n = self.ring.len();
                let apart = i.abs_diff(j);
                let between = apart.min(n - apart) - 1;
                between >= hexes_between_needed(n)
            }
        }
    }
}

/// Which side lines of the rectangle a point lies on.
#[derive(Clone, Copy, Debug, Default)]
struct OnSides {
    west: bool,
    east: bool,
    north: bool,
    south: bool,
}

/// Whether the segment between the centres of squares `a` and `b` passes through two opposite
/// sides (or corners) of `rectangle`: it is clipped to the rectangle Liang–Barsky style with exact
/// rational parameters; the chord must be inside the rectangle's interior (not along a side), and
/// its entry and exit points must lie on opposite side lines, a corner lying on both its sides
/// (so opposite corners qualify, as does a corner and the side across from it).
fn crosses_opposite_sides(rectangle: Rectangle, a: Cell, b: Cell) -> bool {
    let centre = |c: Cell| (i64::from(c.x) * 2 + 1, i64::from(c.y) * 2 + 1);
    let (from, to) = (centre(a), centre(b));
    let delta = (to.0 - from.0, to.1 - from.1);
    let mut enter = Ratio::ZERO;
    let mut exit = Ratio::ONE;
    for (start, step, low, high) in
        [(from.0, delta.0, rectangle.x0, rectangle.x1), (from.1, delta.1, rectangle.y0, rectangle.y1)]
    {
        if step == 0 {
            if start < low || start > high {
                return false;
            }
            continue;
        }
        let (at_low, at_high) = (Ratio::new(low - start, step), Ratio::new(high - start, step));
        let (inward, outward) = if step > 0 { (at_low, at_high) } else { (at_high, at_low) };
        enter = enter.max(inward);
        exit = exit.min(outward);
    }
    if enter >= exit {
        return false;
    }
    // The chord's midpoint must be strictly inside (the chord is not along a side).
    let ((en, ed), (xn, xd)) = (enter.parts(), exit.parts());
    let (mid_n, mid_d) = (en * xd + xn * ed, 2 * ed * xd);
    let strictly_inside = |start: i64, step: i64, low: i64, high: i64| {
        let at = i128::from(start) * mid_d + mid_n * i128::from(step);
        i128::from(low) * mid_d < at && at < i128::from(high) * mid_d
    };
    if !strictly_inside(from.0, delta.0, rectangle.x0, rectangle.x1)
        || !strictly_inside(from.1, delta.1, rectangle.y0, rectangle.y1)
    {
        return false;
    }
    let sides_at = |t: Ratio| {
        let (n, d) = t.parts();
        let on =
            |start: i64, step: i64, line: i64| i128::from(start) * d + n * i128::from(step) == i128::from(line) * d;
        OnSides {
            west: on(from.0, delta.0, rectangle.x0),
            east: on(from.0, delta.0, rectangle.x1),
            north: on(from.1, delta.1, rectangle.y0),
            south: on(from.1, delta.1, rectangle.y1),
        }
    };
    let (entry, leaving) = (sides_at(enter), sides_at(exit));
    (entry.west && leaving.east)
        || (entry.east && leaving.west)
        || (entry.north && leaving.south)
        || (entry.south && leaving.north)
}

/// Whether a creature in cell `a` and one in cell `b` flank the space `enemy`: both on the ring
/// around it, and on squares the line between their centres passes through opposite sides or
/// corners of the enemy's space; on hexes at least [`hexes_between_needed`] hexes between them the
/// shorter way round the ring.
pub fn cells_flank(grid: Grid, enemy: &[Cell], a: Cell, b: Cell) -> bool {
    Surroundings::new(grid, enemy).flank(a, b)
}

/// The first pair of cells (one of each space) that flank the enemy: a Large or larger creature
/// flanks if any cell of its space qualifies (DMG "Optional Rule: Flanking"). Pairs are tried in
/// the order of `a`'s cells, then `b`'s.
pub fn flanking_cells_of(grid: Grid, enemy: &[Cell], a: &[Cell], b: &[Cell]) -> Option<(Cell, Cell)> {
    let around = Surroundings::new(grid, enemy);
    a.iter().flat_map(|&x| b.iter().map(move |&y| (x, y))).find(|&(x, y)| around.flank(x, y))
}

/// The cells of the ring around `enemy` from which a creature would flank it together with a
/// partner whose space is `partner` (for the map's shading: where should an ally stand?), in ring
/// order. Excludes the partner's own cells.
pub fn cells_that_flank_with(grid: Grid, enemy: &[Cell], partner: &[Cell]) -> Vec<Cell> {
    let around = Surroundings::new(grid, enemy);
    around
        .ring
        .iter()
        .copied()
        .filter(|c| !partner.contains(c) && partner.iter().any(|&p| around.flank(*c, p)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::picture::picture;
    use crate::rules::size::{Footprint, Size};

    const POINTY: Grid = Grid::Hex(HexOrientation::PointyTop);
    const FLAT: Grid = Grid::Hex(HexOrientation::FlatTop);
    const HEXES: [Grid; 2] = [POINTY, FLAT];

    fn space(grid: Grid, size: Size, anchor: Cell) -> Vec<Cell> {
        Footprint::of(grid, size, None).at(anchor).collect()
    }

    fn c(x: i32, y: i32) -> Cell {
        Cell::new(x, y)
    }

    /// `E` the enemy, `A` the partner, `+` where a creature would flank with it, `o` the rest of
    /// the ring, `.` elsewhere.
    fn flank_picture(grid: Grid, enemy: &[Cell], partner: &[Cell], cols: i32, rows: i32) -> Vec<String> {
        let ring = ring(grid, enemy);
        let flanking = cells_that_flank_with(grid, enemy, partner);
        picture(grid, cols, rows, |cell| {
            if enemy.contains(&cell) {
                'E'
            } else if partner.contains(&cell) {
                'A'
            } else if flanking.contains(&cell) {
                '+'
            } else if ring.contains(&cell) {
                'o'
            } else {
                '.'
            }
        })
    }

    #[test]
    fn the_hexes_between_needed_follow_the_conventions() {
        let needed: Vec<usize> = [6, 9, 12, 15].into_iter().map(hexes_between_needed).collect();
        assert_eq!(needed, [2, 3, 5, 6]);
        assert_eq!(hexes_between_needed(0), 0);
    }

    #[test]
    fn rings_go_round_their_space_clockwise_from_east() {
        let cases = [
            (Grid::Square, Size::Medium, 8),
            (Grid::Square, Size::Large, 12),
            (Grid::Square, Size::Huge, 16),
            (Grid::Square, Size::Gargantuan, 20),
        ];
        let hex_cases = HEXES
            .into_iter()
            .flat_map(|g| [(g, Size::Medium, 6), (g, Size::Large, 9), (g, Size::Huge, 12), (g, Size::Gargantuan, 15)]);
        for (grid, size, len) in cases.into_iter().chain(hex_cases) {
            let enemy = space(grid, size, c(2, -1));
            let ring = ring(grid, &enemy);
            assert_eq!(ring.len(), len, "{grid:?} {size:?}");
            let n = enemy.len() as f64;
            let (cx, cy) =
                enemy.iter().map(|&e| grid.center(e)).fold((0.0, 0.0), |s, p| (s.0 + p.0 / n, s.1 + p.1 / n));
            let angles: Vec<f64> = ring
                .iter()
                .map(|&r| {
                    let (x, y) = grid.center(r);
                    (y - cy).atan2(x - cx).to_degrees().rem_euclid(360.0)
                })
                .collect();
            assert!(angles.windows(2).all(|w| w[0] < w[1]), "{grid:?} {size:?}: {angles:?}");
            for (i, &cell) in ring.iter().enumerate() {
                let next = ring[(i + 1) % ring.len()];
                assert!(neighbours(grid, cell).any(|x| x == next), "{grid:?} {size:?}: a closed loop");
            }
        }
        assert!(ring(Grid::Square, &[]).is_empty());
        assert_eq!(ring(Grid::Square, &[c(0, 0)])[0], c(1, 0), "starts east");
    }

    /// DMG "Flanking on Squares": "on opposite sides or corners of the enemy's space".
    #[test]
    fn squares_around_a_medium_enemy() {
        let enemy = [c(0, 0)];
        let flank = |a: Cell, b: Cell| cells_flank(Grid::Square, &enemy, a, b);
        assert!(flank(c(0, -1), c(0, 1)), "north and south");
        assert!(flank(c(-1, 0), c(1, 0)), "west and east");
        assert!(flank(c(-1, -1), c(1, 1)), "north-west and south-east corners");
        assert!(flank(c(1, -1), c(-1, 1)), "north-east and south-west corners");
        assert!(!flank(c(0, -1), c(1, 0)), "at right angles");
        assert!(!flank(c(0, -1), c(1, 1)), "a knight's move: north and south-east");
        assert!(!flank(c(-1, -1), c(0, 1)), "north-west and south");
        assert!(!flank(c(0, -2), c(0, 1)), "not adjacent");
        assert!(!flank(c(0, 0), c(0, 1)), "inside the enemy");
        assert!(!flank(c(0, 1), c(0, 1)), "one cell");
    }

    /// With a partner west of a Medium enemy, only the square east of it flanks; on hexes, only
    /// the opposite hex.
    #[test]
    fn where_to_stand_to_flank_with_a_partner() {
        let enemy = [c(2, 2)];
        assert_eq!(cells_that_flank_with(Grid::Square, &enemy, &[c(1, 2)]), [c(3, 2)]);
        assert_eq!(
            flank_picture(Grid::Square, &enemy, &[c(1, 2)], 5, 5),
            [".....", ".ooo.", ".AE+.", ".ooo.", "....."]
        );
        assert_eq!(
            flank_picture(Grid::Square, &enemy, &[c(1, 1)], 5, 5),
            [".....", ".Aoo.", ".oEo.", ".oo+.", "....."]
        );
        for grid in HEXES {
            let enemy = [c(0, 0)];
            for (dq, dr) in HEX_STEPS {
                assert_eq!(cells_that_flank_with(grid, &enemy, &[c(dq, dr)]), [c(-dq, -dr)], "{grid:?}");
            }
        }
    }

    /// DMG "Flanking on Squares" against a Large (2×2) enemy: a line between centres through the
    /// west and east sides flanks even when the two are not in the same row; from a corner square
    /// to a side square it crosses adjacent sides and does not.
    #[test]
    fn squares_around_a_large_enemy() {
        let enemy = space(Grid::Square, Size::Large, c(0, 0));
        let flank = |a: Cell, b: Cell| cells_flank(Grid::Square, &enemy, a, b);
        assert!(flank(c(-1, 0), c(2, 1)), "west and east, a row apart");
        assert!(flank(c(0, -1), c(1, 2)), "north and south, a column apart");
        assert!(flank(c(-1, -1), c(2, 2)), "opposite corners");
        assert!(!flank(c(-1, -1), c(2, 1)), "corner to side");
        assert!(!flank(c(-1, -1), c(1, 2)), "corner to side");
        assert!(!flank(c(-1, 0), c(2, 2)), "side to corner");
        let shifted = space(Grid::Square, Size::Large, c(1, 1));
        assert_eq!(
            flank_picture(Grid::Square, &shifted, &[c(0, 1)], 6, 6),
            ["oooo..", "AEE+..", "oEE+..", "oooo..", "......", "......"]
        );
        assert_eq!(
            flank_picture(Grid::Square, &shifted, &[c(0, 0)], 6, 6),
            ["Aooo..", "oEEo..", "oEEo..", "ooo+..", "......", "......"]
        );
    }

    /// "A Large or larger creature is flanking as long as at least one square or hex of its space
    /// qualifies for flanking."
    #[test]
    fn a_large_ally_flanks_with_one_qualifying_cell() {
        let enemy = [c(5, 5)];
        let large = space(Grid::Square, Size::Large, c(3, 4));
        assert_eq!(flanking_cells_of(Grid::Square, &enemy, &large, &[c(6, 5)]), Some((c(4, 5), c(6, 5))));
        assert_eq!(flanking_cells_of(Grid::Square, &enemy, &[c(6, 5)], &large), Some((c(6, 5), c(4, 5))));
        assert_eq!(flanking_cells_of(Grid::Square, &enemy, &large, &[c(6, 6)]), Some((c(4, 4), c(6, 6))));
        assert_eq!(flanking_cells_of(Grid::Square, &enemy, &large, &[c(5, 6)]), None, "south of the enemy");
        assert_eq!(flanking_cells_of(Grid::Square, &enemy, &[], &[c(6, 5)]), None);
        for grid in HEXES {
            let large = space(grid, Size::Large, c(1, 0));
            assert_eq!(flanking_cells_of(grid, &[c(0, 0)], &large, &[c(-1, 0)]), Some((c(1, 0), c(-1, 0))));
            assert_eq!(flanking_cells_of(grid, &[c(0, 0)], &large, &[c(-1, 1)]), None, "{grid:?}");
        }
    }

    #[test]
    fn squares_around_a_huge_enemy() {
        let enemy = space(Grid::Square, Size::Huge, c(0, 0));
        let flank = |a: Cell, b: Cell| cells_flank(Grid::Square, &enemy, a, b);
        assert!(flank(c(-1, 1), c(3, 1)));
        assert!(flank(c(-1, 0), c(3, 2)), "west and east, two rows apart");
        assert!(flank(c(1, -1), c(0, 3)));
        assert!(flank(c(-1, -1), c(3, 3)), "opposite corners");
        assert!(flank(c(3, -1), c(-1, 3)), "opposite corners");
        assert!(!flank(c(-1, -1), c(3, 2)), "corner to side");
        assert!(!flank(c(1, -1), c(3, 1)), "north and east");
        let cells = cells_that_flank_with(Grid::Square, &enemy, &[c(-1, 0)]);
        assert_eq!(cells, [c(3, 1), c(3, 2), c(3, 0)], "in ring order, from east");
    }

    /// DMG "Flanking on Hexes": "count around the enemy from one creature to its ally": with the
    /// needed number of hexes between them the two flank, with one fewer they don't, for every
    /// enemy size on both orientations.
    #[test]
    fn hexes_at_the_needed_split_and_one_short() {
        for grid in HEXES {
            for (size, needed) in [(Size::Medium, 2), (Size::Large, 3), (Size::Huge, 5), (Size::Gargantuan, 6)] {
                let enemy = space(grid, size, c(4, -2));
                let ring = ring(grid, &enemy);
                assert_eq!(hexes_between_needed(ring.len()), needed);
                for start in 0..ring.len() {
                    let at = |k: usize| ring[(start + k) % ring.len()];
                    assert!(cells_flank(grid, &enemy, at(0), at(needed + 1)), "{grid:?} {size:?}");
                    assert!(!cells_flank(grid, &enemy, at(0), at(needed)), "{grid:?} {size:?}");
                    // Counted the other way round.
                    let back = ring.len() - needed - 1;
                    assert!(cells_flank(grid, &enemy, at(0), at(back)), "{grid:?} {size:?}");
                    assert!(!cells_flank(grid, &enemy, at(0), at(back + 1)), "{grid:?} {size:?}");
                }
            }
            // Named hexes around a Medium enemy: opposite flank, two apart don't.
            assert!(cells_flank(grid, &[c(0, 0)], c(1, 0), c(-1, 0)));
            assert!(!cells_flank(grid, &[c(0, 0)], c(1, 0), c(-1, 1)));
            assert!(!cells_flank(grid, &[c(0, 0)], c(2, 0), c(-1, 0)), "not adjacent");
        }
    }

    /// Around a Large (3-hex) enemy the ring has 9 hexes: a partner has two hexes across it that
    /// split the ring 3 and 4 ("Against a Large creature, the allies flank if there are 4 hexes
    /// between them"); around a Huge one, the single opposite hex of 12.
    #[test]
    fn hex_pictures_of_where_to_flank() {
        let enemy = space(POINTY, Size::Large, POINTY.from_storage(2, 2));
        assert_eq!(
            flank_picture(POINTY, &enemy, &[POINTY.from_storage(1, 2)], 6, 5),
            [". . . . . .", " . o o o . .", ". A E E + .", " . o E + . .", ". . o o . ."]
        );
        let enemy = space(FLAT, Size::Huge, FLAT.from_storage(3, 3));
        assert_eq!(
            flank_picture(FLAT, &enemy, &[FLAT.from_storage(3, 1)], 7, 7),
            [
                ".   .   .   .",
                "  .   .   .",
                ".   .   .   .",
                "  .   A   .",
                ".   o   o   .",
                "  o   E   o",
                ".   E   E   .",
                "  o   E   o",
                ".   E   E   .",
                "  o   E   o",
                ".   o   o   .",
                "  .   +   .",
                ".   .   .   .",
                "  .   .   .",
            ]
        );
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        const GRIDS: [Grid; 3] = [Grid::Square, POINTY, FLAT];
        const SIZES: [Size; 4] = [Size::Medium, Size::Large, Size::Huge, Size::Gargantuan];

        /// The float check: the segment between the centres meets two opposite sides of the
        /// rectangle (closed, within 1e-9), and the middle of the chord between them is inside.
        fn float_flank(enemy: &[Cell], a: Cell, b: Cell) -> bool {
            let x0 = enemy.iter().map(|c| c.x).min().unwrap_or(0) as f64;
            let x1 = enemy.iter().map(|c| c.x).max().unwrap_or(0) as f64 + 1.0;
            let y0 = enemy.iter().map(|c| c.y).min().unwrap_or(0) as f64;
            let y1 = enemy.iter().map(|c| c.y).max().unwrap_or(0) as f64 + 1.0;
            let (ax, ay) = (a.x as f64 + 0.5, a.y as f64 + 0.5);
            let (bx, by) = (b.x as f64 + 0.5, b.y as f64 + 0.5);
            let eps = 1e-9;
            // Where the segment meets the vertical line x = at, if within [lo, hi] on y.
            let meets = |p0: f64, d: f64, q0: f64, e: f64, at: f64, lo: f64, hi: f64| {
                if d == 0.0 {
                    return None;
                }
                let t = (at - p0) / d;
                let q = q0 + t * e;
                ((-eps..=1.0 + eps).contains(&t) && q >= lo - eps && q <= hi + eps).then_some((at, q))
            };
            let (dx, dy) = (bx - ax, by - ay);
            let inside = |(x, y): (f64, f64)| x > x0 + eps && x < x1 - eps && y > y0 + eps && y < y1 - eps;
            let across = |p: Option<(f64, f64)>, q: Option<(f64, f64)>, swap: bool| match (p, q) {
                (Some(p), Some(q)) => {
                    let mid = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
                    inside(if swap { (mid.1, mid.0) } else { mid })
                }
                _ => false,
            };
            let west_east = across(meets(ax, dx, ay, dy, x0, y0, y1), meets(ax, dx, ay, dy, x1, y0, y1), false);
            let north_south = across(meets(ay, dy, ax, dx, y0, x0, x1), meets(ay, dy, ax, dx, y1, x0, x1), true);
            west_east || north_south
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn flanking_is_symmetric(g in 0usize..3, size in 0usize..4, ax in -3i32..6, ay in -3i32..6, bx in -3i32..6, by in -3i32..6) {
                let grid = GRIDS[g];
                let enemy = space(grid, SIZES[size], c(0, 0));
                prop_assert_eq!(cells_flank(grid, &enemy, c(ax, ay), c(bx, by)), cells_flank(grid, &enemy, c(bx, by), c(ax, ay)));
            }

            /// Square rule: the exact path agrees with a float check of "the segment crosses
            /// opposite sides", for any two squares of the ring around a 1×1 to 4×4 space.
            #[test]
            fn squares_exact_and_float_agree(side in 1u32..5, ax in -5i32..5, ay in -5i32..5, i in 0usize..64, j in 0usize..64) {
                let enemy = space(Grid::Square, SIZES[side as usize - 1], c(ax, ay));
                let ring = ring(Grid::Square, &enemy);
                let (a, b) = (ring[i % ring.len()], ring[j % ring.len()]);
                prop_assert_eq!(cells_flank(Grid::Square, &enemy, a, b), a != b && float_flank(&enemy, a, b), "{:?} {} {}", enemy, a, b);
            }
        }

        /// Hexes: every hex of the ring has as many flanking partners on it as the rule allows:
        /// the one opposite on an even ring, the two across it on an odd one.
        #[test]
        fn each_ring_hex_has_the_partners_the_rule_allows() {
            for grid in HEXES {
                for size in SIZES {
                    let enemy = space(grid, size, c(-3, 7));
                    let ring = ring(grid, &enemy);
                    let n = ring.len();
                    let expected = n - 2 * hexes_between_needed(n) - 1;
                    for &a in &ring {
                        let partners = ring.iter().filter(|&&b| cells_flank(grid, &enemy, a, b)).count();
                        assert_eq!(partners, expected, "{grid:?} {size:?} {a}");
                        assert_eq!(cells_that_flank_with(grid, &enemy, &[a]).len(), expected);
                    }
                }
            }
        }
    }
}
