//! Creature sizes and the space (footprint of cells) each takes on squares and hexes.
//!
//! DMG "Creature Size on Squares and Hexes", table Creature Size and Space
//! (002_ce573f1e51986339.txt): Tiny 4 per square or hex, Small and Medium 1, Large 2×2 or
//! 3 hexes, Huge 3×3 or 7 hexes, Gargantuan 4×4 "or more" or 12 hexes "or more".
//! Conventions ("Grids and coordinates"): the anchor is the north-west cell on squares; on hexes
//! Large is the 3 hexes around one vertex (anchor, `(q+1, r)`, `(q, r+1)`), Huge the anchor and
//! its 6 neighbours, Gargantuan the 12 hexes nearest the Large vertex.

use serde::{Deserialize, Serialize};

use super::grid::{Cell, Grid};

/// The six size categories, smallest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Size {
    Tiny,
    Small,
    Medium,
    Large,
    Huge,
    Gargantuan,
}

/// How many Tiny creatures can share one cell (Creature Size and Space: "4 per square").
pub const TINY_PER_CELL: usize = 4;

/// Whether creatures of these sizes may all stand in one cell: one creature alone, or Tiny ones,
/// at most [`TINY_PER_CELL`] of them (table Creature Size and Space).
pub fn may_share_a_cell(sizes: impl IntoIterator<Item = Size>) -> bool {
    let sizes: Vec<Size> = sizes.into_iter().collect();
    sizes.len() <= 1 || (sizes.len() <= TINY_PER_CELL && sizes.iter().all(|&s| s == Size::Tiny))
}

/// The largest square side a scenario may give a Gargantuan creature ("16 squares or more").
pub const MAX_SQUARE_SIDE: u32 = 20;

/// The 12 hexes of a Gargantuan space, relative to its anchor: the 3 around the vertex shared by
/// `(0,0)`, `(1,0)`, `(0,1)`, the 3 beyond their outer edges, then the next 6 (a test checks that
/// these are exactly the 12 hex centres nearest that vertex).
const GARGANTUAN_HEXES: [(i32, i32); 12] =
    [(0, 0), (1, 0), (0, 1), (1, -1), (-1, 1), (1, 1), (-1, 0), (2, 0), (0, -1), (2, -1), (-1, 2), (0, 2)];

impl Size {
    pub const ALL: [Size; 6] = [Size::Tiny, Size::Small, Size::Medium, Size::Large, Size::Huge, Size::Gargantuan];

    pub fn name(self) -> &'static str {
        match self {
            Size::Tiny => "Tiny",
            Size::Small => "Small",
            Size::Medium => "Medium",
            Size::Large => "Large",
            Size::Huge => "Huge",
            Size::Gargantuan => "Gargantuan",
        }
    }

    /// The side, in squares, of the standard square space.
    pub fn square_side(self) -> u32 {
        match self {
            Size::Tiny | Size::Small | Size::Medium => 1,
            Size::Large => 2,
            Size::Huge => 3,
            Size::Gargantuan => 4,
        }
    }

    /// The number of hexes of the space on a hex grid.
    pub fn hex_count(self) -> usize {
        match self {
            Size::Tiny | Size::Small | Size::Medium => 1,
            Size::Large => 3,
            Size::Huge => 7,
            Size::Gargantuan => 12,
        }
    }
}

/// The shape of a space relative to its anchor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Footprint {
    offsets: Vec<Cell>,
}

impl Footprint {
    /// The footprint of a creature of `size` on `grid`. `square_side` overrides the side of a
    /// Gargantuan creature's square space ("or more"); it is ignored for other sizes and on hexes.
    pub fn of(grid: Grid, size: Size, square_side: Option<u32>) -> Self {
        let offsets = match grid {
            Grid::Square => {
                let side = match (size, square_side) {
                    (Size::Gargantuan, Some(side)) => side.clamp(4, MAX_SQUARE_SIDE),
                    _ => size.square_side(),
                } as i32;
                (0..side).flat_map(|y| (0..side).map(move |x| Cell::new(x, y))).collect()
            }
            Grid::Hex(_) => match size {
                Size::Tiny | Size::Small | Size::Medium => vec![Cell::new(0, 0)],
                Size::Large => vec![Cell::new(0, 0), Cell::new(1, 0), Cell::new(0, 1)],
                Size::Huge => std::iter::once(Cell::new(0, 0)).chain(grid.neighbours(Cell::new(0, 0))).collect(),
                Size::Gargantuan => GARGANTUAN_HEXES.iter().map(|&(q, r)| Cell::new(q, r)).collect(),
            },
        };
        Self { offsets }
    }

    /// The cells of the space whose anchor is `anchor`.
    pub fn at(&self, anchor: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.offsets.iter().map(move |o| anchor.offset(o.x, o.y))
    }

    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::HexOrientation;
    use std::collections::HashSet;

    const HEXES: [Grid; 2] = [Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)];

    /// Table Creature Size and Space: Tiny, "4 per square"; nobody else shares.
    #[test]
    fn only_up_to_four_tiny_creatures_share_a_cell() {
        assert!(may_share_a_cell([Size::Tiny; 4]));
        assert!(!may_share_a_cell([Size::Tiny; 5]));
        assert!(!may_share_a_cell([Size::Tiny, Size::Small]));
        assert!(may_share_a_cell([Size::Medium]), "one creature alone");
    }

    #[test]
    fn square_spaces_follow_the_creature_size_and_space_table() {
        let expected = [1, 1, 1, 4, 9, 16];
        for (size, cells) in Size::ALL.into_iter().zip(expected) {
            assert_eq!(Footprint::of(Grid::Square, size, None).len(), cells, "{size:?}");
        }
        assert_eq!(Footprint::of(Grid::Square, Size::Gargantuan, Some(6)).len(), 36);
        assert_eq!(Footprint::of(Grid::Square, Size::Huge, Some(6)).len(), 9, "only Gargantuan grows");
    }

    #[test]
    fn hex_spaces_follow_the_creature_size_and_space_table() {
        for grid in HEXES {
            for size in Size::ALL {
                let cells: HashSet<Cell> = Footprint::of(grid, size, None).at(Cell::new(3, -2)).collect();
                assert_eq!(cells.len(), size.hex_count(), "{size:?}");
            }
        }
    }

    /// Conventions: the rings of hexes around the 1, 3, 7 and 12-hex spaces hold 6, 9, 12 and 15.
    #[test]
    fn rings_around_hex_spaces_have_the_conventional_sizes() {
        let grid = HEXES[0];
        for (size, ring) in [(Size::Medium, 6), (Size::Large, 9), (Size::Huge, 12), (Size::Gargantuan, 15)] {
            let space: HashSet<Cell> = Footprint::of(grid, size, None).at(Cell::new(0, 0)).collect();
            let around: HashSet<Cell> =
                space.iter().flat_map(|&c| grid.neighbours(c)).filter(|c| !space.contains(c)).collect();
            assert_eq!(around.len(), ring, "{size:?}");
        }
    }

    /// The Large and Gargantuan hex spaces are the 3 and 12 hex centres nearest the vertex shared
    /// by the anchor, its east neighbour and its south-east neighbour, with a clear gap after.
    #[test]
    fn large_and_gargantuan_hexes_are_nearest_their_vertex() {
        for grid in HEXES {
            let centres = [Cell::new(0, 0), Cell::new(1, 0), Cell::new(0, 1)].map(|c| grid.center(c));
            let vx = centres.iter().map(|c| c.0).sum::<f64>() / 3.0;
            let vy = centres.iter().map(|c| c.1).sum::<f64>() / 3.0;
            let mut by_distance: Vec<(f64, Cell)> = (-4..5)
                .flat_map(|q| (-4..5).map(move |r| Cell::new(q, r)))
                .map(|c| {
                    let (x, y) = grid.center(c);
                    ((x - vx).hypot(y - vy), c)
                })
                .collect();
            by_distance.sort_by(|a, b| a.0.total_cmp(&b.0));
            for (size, n) in [(Size::Large, 3), (Size::Gargantuan, 12)] {
                let nearest: HashSet<Cell> = by_distance[..n].iter().map(|p| p.1).collect();
                let space: HashSet<Cell> = Footprint::of(grid, size, None).at(Cell::new(0, 0)).collect();
                assert_eq!(nearest, space, "{size:?}");
                assert!(by_distance[n].0 - by_distance[n - 1].0 > 0.1, "no tie at the cut");
            }
        }
    }
}
