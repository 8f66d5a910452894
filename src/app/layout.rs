//! Where cells are in Bevy's world: grid units (y south) scaled to pixels, with y up.

use bevy::math::{Rect, Vec2};

use crate::rules::{Cell, Grid, HexOrientation, TerrainMap};

/// World pixels per grid unit (one 5-ft cell at zoom 1).
pub const PIXELS_PER_UNIT: f32 = 64.0;

const SQRT3_2: f32 = 0.866_025_4;

/// The map's place in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardLayout {
    pub grid: Grid,
    pub width: u32,
    pub height: u32,
}

impl BoardLayout {
    pub fn of(map: &TerrainMap) -> Self {
        Self { grid: map.grid(), width: map.width(), height: map.height() }
    }

    /// A point in grid units (x east, y south) in world coordinates.
    pub fn world_point(&self, (x, y): (f64, f64)) -> Vec2 {
        Vec2::new(x as f32, -(y as f32)) * PIXELS_PER_UNIT
    }

    /// The centre of `cell` in world coordinates.
    pub fn world(&self, cell: Cell) -> Vec2 {
        self.world_point(self.grid.center(cell))
    }

    /// The corners of `cell` in world coordinates.
    pub fn corners(&self, cell: Cell) -> Vec<Vec2> {
        self.grid.corners(cell).into_iter().map(|p| self.world_point(p)).collect()
    }

    /// The cell whose area holds the world point, if that cell is on the map.
    pub fn cell_at(&self, world: Vec2) -> Option<Cell> {
        let (x, y) = (world.x / PIXELS_PER_UNIT, -world.y / PIXELS_PER_UNIT);
        let cell = match self.grid {
            Grid::Square => Cell::new(x.floor() as i32, y.floor() as i32),
            Grid::Hex(HexOrientation::PointyTop) => {
                let r = y / SQRT3_2;
                Cell::from_hex(hexx::Hex::round([x - r / 2.0, r]))
            }
            Grid::Hex(HexOrientation::FlatTop) => {
                let q = x / SQRT3_2;
                Cell::from_hex(hexx::Hex::round([q, y - q / 2.0]))
            }
        };
        let (col, row) = self.grid.to_storage(cell);
        (col >= 0 && row >= 0 && (col as u32) < self.width && (row as u32) < self.height).then_some(cell)
    }

    /// The rectangle that holds every cell of the map.
    pub fn bounds(&self) -> Rect {
        let mut rect = Rect { min: Vec2::splat(f32::MAX), max: Vec2::splat(f32::MIN) };
        let edge_cells = (0..self.width as i32)
            .flat_map(|c| [(c, 0), (c, self.height as i32 - 1)])
            .chain((0..self.height as i32).flat_map(|r| [(0, r), (self.width as i32 - 1, r)]));
        for (col, row) in edge_cells {
            for corner in self.corners(self.grid.from_storage(col, row)) {
                rect = rect.union_point(corner);
            }
        }
        rect
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::terrain::{Terrain, TerrainKind};

    fn layout(grid: Grid) -> BoardLayout {
        BoardLayout::of(&TerrainMap::filled(grid, 7, 5, vec![Terrain::standard(TerrainKind::Floor)]))
    }

    #[test]
    fn a_cells_centre_and_its_inner_points_map_back_to_it() {
        for grid in [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)] {
            let layout = layout(grid);
            for col in 0..7 {
                for row in 0..5 {
                    let cell = grid.from_storage(col, row);
                    let centre = layout.world(cell);
                    assert_eq!(layout.cell_at(centre), Some(cell));
                    for corner in layout.corners(cell) {
                        let inside = centre.lerp(corner, 0.9);
                        assert_eq!(layout.cell_at(inside), Some(cell), "{grid:?} {cell}");
                    }
                }
            }
            assert_eq!(layout.cell_at(Vec2::new(-1000.0, 0.0)), None);
        }
    }

    #[test]
    fn bounds_hold_every_corner() {
        for grid in [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)] {
            let layout = layout(grid);
            let bounds = layout.bounds();
            for col in 0..7 {
                for row in 0..5 {
                    for corner in layout.corners(grid.from_storage(col, row)) {
                        assert!(bounds.inflate(1e-3).contains(corner));
                    }
                }
            }
        }
        assert_eq!(layout(Grid::Square).bounds().size(), Vec2::new(7.0, 5.0) * PIXELS_PER_UNIT);
    }
}
