//! Where cells are in Bevy's world: grid units (y south) scaled to pixels, with y up. Hexes go
//! through one `hexx::HexLayout`; points the rules give in grid units are only scaled and flipped.
//! This file is the only place that turns grid units into world positions and back.

use std::collections::HashMap;

use bevy::math::{Rect, Vec2};
use bevy::prelude::Resource;
use hexx::HexLayout;

use crate::rules::lattice::{self, Point};
use crate::rules::{Cell, Grid, TerrainMap};

/// The board's layout in the world, for every system that maps cells to pixels (set when a
/// scenario is loaded or the map changes size).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct MapLayout(pub BoardLayout);

/// World pixels per grid unit (one 5-ft cell at zoom 1).
pub(crate) const PIXELS_PER_UNIT: f32 = 64.0;

/// The hexes of a hex grid in world pixels, y up: adjacent centres [`PIXELS_PER_UNIT`] apart.
fn hex_layout(grid: Grid) -> Option<HexLayout> {
    let Grid::Hex(orientation) = grid else { return None };
    let mut layout = HexLayout::new(orientation.to_hexx()).with_hex_size(PIXELS_PER_UNIT / 3.0_f32.sqrt());
    layout.invert_y();
    Some(layout)
}

/// The size of a cell's bounding box in world pixels.
pub(crate) fn cell_size(grid: Grid) -> Vec2 {
    hex_layout(grid).map_or(Vec2::splat(PIXELS_PER_UNIT), |hexes| Vec2::from_array(hexes.rect_size().abs().to_array()))
}

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

    /// A world point in grid units (x east, y south): the inverse of [`Self::world_point`].
    pub fn units(&self, world: Vec2) -> (f64, f64) {
        (f64::from(world.x) / f64::from(PIXELS_PER_UNIT), -f64::from(world.y) / f64::from(PIXELS_PER_UNIT))
    }

    /// A length in feet as world units (5 ft a cell).
    pub fn feet(&self, feet: u32) -> f32 {
        feet as f32 / crate::rules::distance::FEET_PER_CELL as f32 * PIXELS_PER_UNIT
    }

    /// The grid intersection nearest a world point: a square's corner, or a corner of the hex
    /// under it (the area template's point of origin).
    pub fn nearest_intersection(&self, world: Vec2) -> Option<Point> {
        let units = self.units(world);
        match self.grid {
            Grid::Square => Some(Point::square_corner(units.0.round() as i32, units.1.round() as i32)),
            Grid::Hex(_) => {
                let cell = self.cell_at(world)?;
                lattice::corners(self.grid, cell).into_iter().min_by(|a, b| {
                    let d = |p: &Point| {
                        let (x, y) = p.to_units(self.grid);
                        (x - units.0).powi(2) + (y - units.1).powi(2)
                    };
                    d(a).total_cmp(&d(b))
                })
            }
        }
    }

    /// The middle of a space in world coordinates: the average of its cells' centres.
    pub fn middle(&self, cells: &[Cell]) -> Vec2 {
        let sum: Vec2 = cells.iter().map(|&c| self.world(c)).sum();
        sum / cells.len().max(1) as f32
    }

    fn hexes(&self) -> Option<HexLayout> {
        hex_layout(self.grid)
    }

    /// The centre of `cell` in world coordinates.
    pub fn world(&self, cell: Cell) -> Vec2 {
        match self.hexes() {
            Some(hexes) => Vec2::from_array(hexes.hex_to_world_pos(cell.hex()).to_array()),
            None => self.world_point(self.grid.center(cell)),
        }
    }

    pub fn cell_size(&self) -> Vec2 {
        cell_size(self.grid)
    }

    /// The corners of `cell` in world coordinates.
    pub fn corners(&self, cell: Cell) -> Vec<Vec2> {
        self.grid.corners(cell).into_iter().map(|p| self.world_point(p)).collect()
    }

    /// The outline of a set of cells, in world coordinates: each side of one of them that no
    /// other of them shares (the editor's rectangle, square or ragged on hexes).
    pub fn outline(&self, cells: &[Cell]) -> Vec<(Vec2, Vec2)> {
        let mut sides: HashMap<(Point, Point), u32> = HashMap::new();
        for &cell in cells {
            let ring = lattice::corners(self.grid, cell);
            for (i, &a) in ring.iter().enumerate() {
                let b = ring[(i + 1) % ring.len()];
                *sides.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
        let world = |p: Point| self.world_point(p.to_units(self.grid));
        sides.into_iter().filter(|(_, n)| *n == 1).map(|((a, b), _)| (world(a), world(b))).collect()
    }

    /// The cell whose area holds the world point, if that cell is on the map.
    pub fn cell_at(&self, world: Vec2) -> Option<Cell> {
        let cell = match self.hexes() {
            Some(hexes) => Cell::from_hex(hexes.world_pos_to_hex(Vec2::from_array(world.to_array()))),
            None => Cell::new((world.x / PIXELS_PER_UNIT).floor() as i32, (-world.y / PIXELS_PER_UNIT).floor() as i32),
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
    use crate::rules::HexOrientation;
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

    /// The app's hexx layout and the rules' grid units put every cell at the same place.
    #[test]
    fn the_world_agrees_with_the_rules_grid_units() {
        for grid in [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)] {
            let layout = layout(grid);
            for col in 0..7 {
                for row in 0..5 {
                    let cell = grid.from_storage(col, row);
                    let (world, rules) = (layout.world(cell), layout.world_point(grid.center(cell)));
                    assert!(world.distance(rules) < 1e-3, "{grid:?} {cell}: {world} and {rules}");
                }
            }
        }
        let pointy = layout(Grid::Hex(HexOrientation::PointyTop)).cell_size();
        assert!((pointy - Vec2::new(64.0, 128.0 / 3.0_f32.sqrt())).length() < 1e-3, "{pointy}");
    }

    /// A rectangle's outline is the sides between its cells and the rest: on squares its four
    /// sides cut into cell edges; on every grid a closed line, each side with a cell of the
    /// rectangle on one hand only.
    #[test]
    fn a_rectangles_outline_is_the_sides_it_shares_with_nothing() {
        for grid in [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)] {
            let layout = layout(grid);
            let cells: Vec<Cell> = (1..3).flat_map(|row| (2..5).map(move |col| grid.from_storage(col, row))).collect();
            let outline = layout.outline(&cells);
            if grid == Grid::Square {
                assert_eq!(outline.len(), 10);
                assert!(outline.iter().all(|(a, b)| (a.distance(*b) - PIXELS_PER_UNIT).abs() < 1e-3));
            }
            let key = |p: Vec2| ((p.x * 8.0).round() as i64, (p.y * 8.0).round() as i64);
            let mut ends: HashMap<(i64, i64), u32> = HashMap::new();
            for &(a, b) in &outline {
                *ends.entry(key(a)).or_default() += 1;
                *ends.entry(key(b)).or_default() += 1;
                let (middle, across) = ((a + b) / 2.0, (b - a).perp().normalize() * 2.0);
                let inside = |p: Vec2| layout.cell_at(p).is_some_and(|c| cells.contains(&c));
                assert!(inside(middle + across) != inside(middle - across), "{grid:?}: {a} to {b}");
            }
            assert!(ends.values().all(|n| *n == 2), "{grid:?}: a closed line");
            assert_eq!(layout.outline(&cells[..1]).len(), layout.corners(cells[0]).len());
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
