//! Grid kinds and cell coordinates: squares `(x, y)` and hexes in axial `(q, r)`.
//!
//! Conventions ("Grids and coordinates"): on squares x grows to the east and y to the south,
//! and cell `(x, y)` covers `[x, x+1] × [y, y+1]` in grid units (1 unit = 5 ft). On hexes a
//! cell is the axial coordinate `(q, r)` of Red Blob Games' guide and adjacent centres are
//! 1 unit apart. Hex maps are written as rectangles of rows ("odd-r" offset rows for
//! pointy-top hexes, "odd-q" offset columns for flat-top ones); [`Grid::to_storage`] and
//! [`Grid::from_storage`] convert between those rectangles and axial coordinates.

use hexx::{Hex, OffsetHexMode};
use serde::{Deserialize, Serialize};

/// One cell of the map: `(x, y)` on squares, axial `(q, r)` on hexes. In JSON, `[x, y]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Cell {
    pub x: i32,
    pub y: i32,
}

impl From<[i32; 2]> for Cell {
    fn from([x, y]: [i32; 2]) -> Self {
        Self::new(x, y)
    }
}

impl From<Cell> for [i32; 2] {
    fn from(cell: Cell) -> Self {
        [cell.x, cell.y]
    }
}

impl Cell {
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// This cell as a `hexx` axial coordinate (`q = x`, `r = y`).
    pub const fn hex(self) -> Hex {
        Hex::new(self.x, self.y)
    }

    pub const fn from_hex(hex: Hex) -> Self {
        Self::new(hex.x, hex.y)
    }

    pub const fn offset(self, dx: i32, dy: i32) -> Self {
        Self::new(self.x + dx, self.y + dy)
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Which way hexes point; a scenario says `Hex(PointyTop)` or `Hex(FlatTop)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HexOrientation {
    /// Pointy-top hexes sit in horizontal rows; odd rows are shoved half a hex east.
    PointyTop,
    /// Flat-top hexes sit in vertical columns; odd columns are shoved half a hex south.
    FlatTop,
}

impl HexOrientation {
    pub fn to_hexx(self) -> hexx::HexOrientation {
        match self {
            Self::PointyTop => hexx::HexOrientation::Pointy,
            Self::FlatTop => hexx::HexOrientation::Flat,
        }
    }
}

/// The kind of grid a map is drawn on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Grid {
    Square,
    Hex(HexOrientation),
}

impl Grid {
    /// A short name for panels and JSON: `square`, `hex-pointy-top`, `hex-flat-top`.
    pub fn name(self) -> &'static str {
        match self {
            Grid::Square => "square",
            Grid::Hex(HexOrientation::PointyTop) => "hex-pointy-top",
            Grid::Hex(HexOrientation::FlatTop) => "hex-flat-top",
        }
    }

    pub fn is_hex(self) -> bool {
        matches!(self, Grid::Hex(_))
    }

    /// The `(column, row)` of `cell` in the rectangle a map is written and stored as.
    /// On squares this is the cell itself.
    pub fn to_storage(self, cell: Cell) -> (i32, i32) {
        match self {
            Grid::Square => (cell.x, cell.y),
            Grid::Hex(o) => {
                let [col, row] = cell.hex().to_offset_coordinates(OffsetHexMode::Odd, o.to_hexx());
                (col, row)
            }
        }
    }

    /// The cell at `(column, row)` of the map's rectangle; the inverse of [`Grid::to_storage`].
    pub fn from_storage(self, col: i32, row: i32) -> Cell {
        match self {
            Grid::Square => Cell::new(col, row),
            Grid::Hex(o) => Cell::from_hex(Hex::from_offset_coordinates([col, row], OffsetHexMode::Odd, o.to_hexx())),
        }
    }

    /// The cells that share a side (or, on squares, a corner) with `cell`: 8 on squares, 6 on hexes.
    pub fn neighbours(self, cell: Cell) -> Vec<Cell> {
        match self {
            Grid::Square => SQUARE_STEPS.iter().map(|&(dx, dy)| cell.offset(dx, dy)).collect(),
            Grid::Hex(_) => HEX_STEPS.iter().map(|&(dq, dr)| cell.offset(dq, dr)).collect(),
        }
    }

    /// The number of steps between two cells: Chebyshev on squares (PHB "Variant: Playing on a
    /// Grid", every square 5 ft), the axial distance on hexes.
    pub fn steps_between(self, a: Cell, b: Cell) -> u32 {
        match self {
            Grid::Square => a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)),
            Grid::Hex(_) => a.hex().unsigned_distance_to(b.hex()),
        }
    }
}

/// The hexes on the straight line from `a` to `b`, both included (Red Blob Games' line drawing,
/// through `hexx`).
pub fn hex_line(a: Cell, b: Cell) -> Vec<Cell> {
    a.hex().line_to(b.hex()).map(Cell::from_hex).collect()
}

/// The hex that holds fractional axial coordinates `(q, r)` (cube rounding, through `hexx`).
pub fn hex_round(q: f64, r: f64) -> Cell {
    Cell::from_hex(Hex::round([q as f32, r as f32]))
}

/// The six steps from a hex, in hexx's order of its edge directions.
pub const HEX_STEPS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// The eight steps from a square, straight ones first.
pub const SQUARE_STEPS: [(i32, i32); 8] = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_steps_are_hexx_neighbours() {
        let ours: Vec<Hex> = HEX_STEPS.iter().map(|&(q, r)| Hex::new(q, r)).collect();
        assert_eq!(ours, Hex::ZERO.all_neighbors().to_vec());
    }

    #[test]
    fn storage_round_trips_on_every_grid() {
        for grid in [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)] {
            for col in -5..6 {
                for row in -5..6 {
                    let cell = grid.from_storage(col, row);
                    assert_eq!(grid.to_storage(cell), (col, row), "{grid:?} {col},{row}");
                }
            }
        }
    }

    #[test]
    fn odd_rows_are_shoved_east_on_pointy_top_maps() {
        let grid = Grid::Hex(HexOrientation::PointyTop);
        let (x0, y0) = grid.center(grid.from_storage(0, 0));
        let (x1, y1) = grid.center(grid.from_storage(0, 1));
        assert!((x1 - x0 - 0.5).abs() < 1e-12);
        assert!(y1 > y0);
    }

    #[test]
    fn odd_columns_are_shoved_south_on_flat_top_maps() {
        let grid = Grid::Hex(HexOrientation::FlatTop);
        let (x0, y0) = grid.center(grid.from_storage(0, 0));
        let (x1, y1) = grid.center(grid.from_storage(1, 0));
        assert!((y1 - y0 - 0.5).abs() < 1e-12);
        assert!(x1 > x0);
    }

    #[test]
    fn adjacent_hex_centres_are_one_unit_apart() {
        for orientation in [HexOrientation::PointyTop, HexOrientation::FlatTop] {
            let grid = Grid::Hex(orientation);
            let origin = Cell::new(2, -3);
            let (cx, cy) = grid.center(origin);
            for n in grid.neighbours(origin) {
                let (nx, ny) = grid.center(n);
                assert!(((nx - cx).hypot(ny - cy) - 1.0).abs() < 1e-12);
            }
            // Each hex corner is shared by the two neighbours beside it.
            for (px, py) in grid.corners(origin) {
                let near = grid
                    .neighbours(origin)
                    .into_iter()
                    .filter(|&n| grid.corners(n).iter().any(|&(x, y)| (x - px).hypot(y - py) < 1e-9))
                    .count();
                assert_eq!(near, 2);
            }
        }
    }

    /// Red Blob Games' hexagon test cases (cube `(q, r, s)` written as axial `(q, r)`).
    #[test]
    fn red_blob_games_hex_tests_pass_through_our_api() {
        let hex = Grid::Hex(HexOrientation::PointyTop);
        // hex_distance(Hex(3, -7, 4), Hex(0, 0, 0)) == 7
        assert_eq!(hex.steps_between(Cell::new(3, -7), Cell::new(0, 0)), 7);
        // hex_neighbor(Hex(1, -2, 1), 2) == Hex(1, -3, 2), among the six directions.
        let mut around = hex.neighbours(Cell::new(1, -2));
        around.sort();
        let mut expected: Vec<Cell> = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
            .iter()
            .map(|&(q, r)| Cell::new(1 + q, -2 + r))
            .collect();
        expected.sort();
        assert_eq!(around, expected);
        assert!(around.contains(&Cell::new(1, -3)));
        // hex_linedraw(Hex(0, 0, 0), Hex(1, -5, 4))
        assert_eq!(
            hex_line(Cell::new(0, 0), Cell::new(1, -5)),
            [(0, 0), (0, -1), (0, -2), (1, -3), (1, -4), (1, -5)].map(|(q, r)| Cell::new(q, r))
        );
        // hex_round: lerp(0, (10, -20), 0.5) is (5, -10); a = (0,0), b = (1,-1), c = (0,-1).
        assert_eq!(hex_round(5.0, -10.0), Cell::new(5, -10));
        assert_eq!(hex_round(0.499, -0.499), Cell::new(0, 0));
        assert_eq!(hex_round(0.501, -0.501), Cell::new(1, -1));
        assert_eq!(hex_round(0.4 * 0.0 + 0.3 * 1.0 + 0.3 * 0.0, 0.4 * 0.0 + -0.3 + -0.3), Cell::new(0, 0));
        assert_eq!(hex_round(0.3 * 0.0 + 0.3 * 1.0 + 0.4 * 0.0, 0.3 * 0.0 + -0.3 + -0.4), Cell::new(0, -1));
    }

    #[test]
    fn steps_are_chebyshev_on_squares_and_axial_on_hexes() {
        assert_eq!(Grid::Square.steps_between(Cell::new(0, 0), Cell::new(3, -5)), 5);
        let hex = Grid::Hex(HexOrientation::PointyTop);
        assert_eq!(hex.steps_between(Cell::new(0, 0), Cell::new(3, -5)), 5);
        assert_eq!(hex.steps_between(Cell::new(0, 0), Cell::new(3, 2)), 5);
    }
}
