//! Distance and range on the grid, and the ruler's measure along waypoints.
//!
//! PHB "Variant: Playing on a Grid" (004_ebe0798b5689cc3b.txt): every square is 5 feet, even
//! diagonally; ranges count "from a square adjacent to one of them" to "the space of the other",
//! by the shortest route. DMG "Optional Rule: Diagonals" (002_ce573f1e51986339.txt): the first
//! diagonal counts 5 feet, the second 10, and so on, "even if you move horizontally or vertically
//! between different bits of diagonal movement". Conventions, "Distance and range".

use serde::{Deserialize, Serialize};

use super::grid::{Cell, Grid};

/// Feet in one cell.
pub const FEET_PER_CELL: u32 = 5;

/// How diagonal steps on squares are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DiagonalRule {
    /// PHB "Variant: Playing on a Grid": every square counts 5 feet, diagonals included.
    #[default]
    Standard,
    /// DMG "Optional Rule: Diagonals": the first diagonal 5 feet, the second 10, and so on.
    Alternating,
}

impl DiagonalRule {
    pub fn name(self) -> &'static str {
        match self {
            DiagonalRule::Standard => "every square 5 ft",
            DiagonalRule::Alternating => "diagonals 5/10 ft",
        }
    }

    /// The other rule (for the panel's switch).
    pub fn toggled(self) -> Self {
        match self {
            DiagonalRule::Standard => DiagonalRule::Alternating,
            DiagonalRule::Alternating => DiagonalRule::Standard,
        }
    }
}

/// Counts diagonal steps through a turn under the optional rule: odd-numbered diagonals cost
/// 5 feet, even-numbered ones 10. `false` means an even number of diagonals so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiagonalParity(pub bool);

impl DiagonalParity {
    /// The base cost of `diagonals` diagonal steps taken from this parity, and the parity after.
    pub fn diagonals(self, rule: DiagonalRule, diagonals: u32) -> (u32, Self) {
        match rule {
            DiagonalRule::Standard => (FEET_PER_CELL * diagonals, self),
            DiagonalRule::Alternating => {
                let tens = if self.0 { diagonals.div_ceil(2) } else { diagonals / 2 };
                (FEET_PER_CELL * (diagonals + tens), Self(self.0 ^ (diagonals % 2 == 1)))
            }
        }
    }
}

/// The distance in feet from one cell to another by the shortest route on an empty grid,
/// counting diagonals from `parity` (a fresh count for ranges).
pub fn leg_feet(grid: Grid, rule: DiagonalRule, a: Cell, b: Cell, parity: DiagonalParity) -> (u32, DiagonalParity) {
    match grid {
        Grid::Hex(_) => (FEET_PER_CELL * grid.steps_between(a, b), parity),
        Grid::Square => {
            let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
            let (diagonals, straight) = (dx.min(dy), dx.max(dy) - dx.min(dy));
            let (diagonal_feet, after) = parity.diagonals(rule, diagonals);
            (diagonal_feet + FEET_PER_CELL * straight, after)
        }
    }
}

/// The distance in feet between two cells (a fresh diagonal count).
pub fn feet_between(grid: Grid, rule: DiagonalRule, a: Cell, b: Cell) -> u32 {
    leg_feet(grid, rule, a, b, DiagonalParity::default()).0
}

/// How steps are counted on `grid` under `rule`, in words: the diagonal rule means nothing on
/// hexes.
pub fn rule_name(grid: Grid, rule: DiagonalRule) -> &'static str {
    if grid.is_hex() { "every hex 5 ft" } else { rule.name() }
}

/// The range in feet between two spaces on the map: from the nearest cell of one to the nearest
/// cell of the other (conventions, "Distance and range"). `None` if either space is empty.
/// Between creatures and objects, [`range_between`] adds their heights.
pub fn range_feet(grid: Grid, rule: DiagonalRule, a: &[Cell], b: &[Cell]) -> Option<u32> {
    a.iter().flat_map(|&p| b.iter().map(move |&q| feet_between(grid, rule, p, q))).min()
}

/// Where a creature or object is, for ranges: the cells of its space and its feet above the
/// ground (a wall walk, a tower's top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot<'a> {
    pub cells: &'a [Cell],
    pub elevation: u32,
}

/// The range in feet between two creatures or objects: the larger of their range on the map and
/// their difference in height (docs/rules.md, "Elevation": height counts like a straight step of
/// the grid, so a guard on a wall walk 20 ft up is 20 ft from a creature at the wall's foot).
/// The one distance between creatures that every rule measures with: reach, opportunity attacks,
/// flanking, Help, ranges, areas and the command line's `distance`. `None` if a space is empty.
pub fn range_between(grid: Grid, rule: DiagonalRule, a: Spot, b: Spot) -> Option<u32> {
    range_feet(grid, rule, a.cells, b.cells).map(|across| across.max(a.elevation.abs_diff(b.elevation)))
}

/// The ruler's measure along waypoints: each leg's feet, and the total, with the diagonal count
/// carried from leg to leg (and from `parity`, the turn's count so far).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulerMeasure {
    pub legs: Vec<u32>,
    pub total: u32,
    pub parity: DiagonalParity,
}

pub fn measure(grid: Grid, rule: DiagonalRule, waypoints: &[Cell], parity: DiagonalParity) -> RulerMeasure {
    let mut measure = RulerMeasure { legs: Vec::new(), total: 0, parity };
    for pair in waypoints.windows(2) {
        let (feet, after) = leg_feet(grid, rule, pair[0], pair[1], measure.parity);
        measure.legs.push(feet);
        measure.total += feet;
        measure.parity = after;
    }
    measure
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::HexOrientation;
    use DiagonalRule::*;

    /// DMG "Optional Rule: Diagonals": one square diagonally (5 feet), three straight (15), another
    /// diagonally (10): 30 feet.
    #[test]
    fn the_dmg_example_costs_30_feet() {
        let path = [Cell::new(0, 0), Cell::new(1, 1), Cell::new(4, 1), Cell::new(5, 2)];
        let m = measure(Grid::Square, Alternating, &path, DiagonalParity::default());
        assert_eq!(m.legs, vec![5, 15, 10]);
        assert_eq!(m.total, 30);
    }

    #[test]
    fn diagonals_alternate_5_and_10_feet() {
        let cumulative: Vec<u32> =
            (1..=5).map(|n| feet_between(Grid::Square, Alternating, Cell::new(0, 0), Cell::new(n, n))).collect();
        assert_eq!(cumulative, vec![5, 15, 20, 30, 35]);
        let standard: Vec<u32> =
            (1..=5).map(|n| feet_between(Grid::Square, Standard, Cell::new(0, 0), Cell::new(n, -n))).collect();
        assert_eq!(standard, vec![5, 10, 15, 20, 25]);
    }

    #[test]
    fn four_diagonals_split_by_a_waypoint_cost_30_feet() {
        let path = [Cell::new(0, 0), Cell::new(2, 2), Cell::new(4, 4)];
        let m = measure(Grid::Square, Alternating, &path, DiagonalParity::default());
        assert_eq!(m.legs, vec![15, 15]);
        assert_eq!(m.total, 30);
        // One diagonal already taken this turn: the next one costs 10.
        let m = measure(Grid::Square, Alternating, &path[..2], DiagonalParity(true));
        assert_eq!(m.total, 15);
        let m = measure(Grid::Square, Alternating, &[Cell::new(0, 0), Cell::new(1, 1)], DiagonalParity(true));
        assert_eq!((m.total, m.parity), (10, DiagonalParity(false)));
    }

    /// PHB "Ranges": count from a square adjacent to one and stop in the space of the other.
    #[test]
    fn ranges_run_between_the_nearest_cells_of_large_and_huge_spaces() {
        use crate::rules::{Footprint, Size};
        let large: Vec<Cell> = Footprint::of(Grid::Square, Size::Large, None).at(Cell::new(0, 0)).collect();
        let huge: Vec<Cell> = Footprint::of(Grid::Square, Size::Huge, None).at(Cell::new(2, 0)).collect();
        assert_eq!(range_feet(Grid::Square, Standard, &large, &huge), Some(5), "adjacent spaces are 5 ft apart");
        let huge_far: Vec<Cell> = Footprint::of(Grid::Square, Size::Huge, None).at(Cell::new(6, 4)).collect();
        // Nearest cells (1, 1) and (6, 4): 5 squares east, 3 south.
        assert_eq!(range_feet(Grid::Square, Standard, &large, &huge_far), Some(25));
        assert_eq!(range_feet(Grid::Square, Alternating, &large, &huge_far), Some(30));
        let medium = [Cell::new(0, 0)];
        assert_eq!(range_feet(Grid::Square, Standard, &medium, &medium), Some(0));
        assert_eq!(range_feet(Grid::Square, Standard, &medium, &[]), None);
    }

    /// docs/rules.md, "Elevation": a guard 20 ft up on a wall walk, beside a hero at the wall's
    /// foot, is 20 ft from it; 30 ft along the ground still counts 30.
    #[test]
    fn height_counts_like_a_straight_step() {
        let (guard, hero, far) = ([Cell::new(2, 1)], [Cell::new(2, 2)], [Cell::new(8, 2)]);
        let range = |a: (&[Cell], u32), b: (&[Cell], u32)| {
            let spot = |(cells, elevation)| Spot { cells, elevation };
            range_between(Grid::Square, Standard, spot(a), spot(b))
        };
        assert_eq!(range((&guard, 20), (&hero, 0)), Some(20));
        assert_eq!(range((&hero, 0), (&guard, 20)), Some(20), "the same both ways");
        assert_eq!(range((&guard, 0), (&hero, 0)), Some(5));
        assert_eq!(range((&guard, 20), (&far, 0)), Some(30), "farther along the ground than up");
        assert_eq!(range((&guard, 20), (&[], 0)), None);
    }

    #[test]
    fn hex_distance_is_five_feet_a_hex_whatever_the_rule() {
        for grid in [Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)] {
            for rule in [Standard, Alternating] {
                assert_eq!(feet_between(grid, rule, Cell::new(0, 0), Cell::new(3, -1)), 15);
            }
        }
    }
}
