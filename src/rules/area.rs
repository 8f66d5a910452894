//! Areas of effect on squares and hexes: which cells a sphere, cylinder, circle, cube, square,
//! cone or line covers, and the quick estimate of the Targets in Areas of Effect table.
//!
//! DMG "Areas of Effect" under Using Miniatures: "Choose an intersection of squares or hexes as
//! the point of origin of an area of effect... If an area of effect is circular and covers at
//! least half a square, it affects that square"; DMG "Adjudicating Areas of Effect", table Targets
//! in Areas of Effect (002_ce573f1e51986339.txt). Conventions, "Areas of effect": the half-a-cell
//! rule applies to every shape, ties count as in (tolerance 1e-9 of a cell).

use serde::{Deserialize, Serialize};

use super::distance::FEET_PER_CELL;
use std::collections::HashSet;

use super::grid::Cell;
use super::terrain::TerrainMap;

/// A shape and its size in feet.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Shape {
    Sphere {
        radius: u32,
    },
    Cylinder {
        radius: u32,
    },
    Circle {
        radius: u32,
    },
    /// A cube (or square) with a corner at the origin, its diagonal along the direction; or, with
    /// `face`, with the middle of one face at the origin, extending along the direction.
    Cube {
        side: u32,
        face: bool,
    },
    Square {
        side: u32,
        face: bool,
    },
    /// An isosceles triangle: apex at the origin, as long as it is wide at its far end.
    Cone {
        length: u32,
    },
    /// A rectangle from the origin along the direction.
    Line {
        length: u32,
        width: u32,
    },
}

/// The shapes an area can take, without their sizes (the template panel's and the command
/// line's choice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    #[default]
    Sphere,
    Cylinder,
    Circle,
    Cube,
    Square,
    Cone,
    Line,
}

impl ShapeKind {
    pub const ALL: [ShapeKind; 7] = [
        ShapeKind::Sphere,
        ShapeKind::Cylinder,
        ShapeKind::Circle,
        ShapeKind::Cube,
        ShapeKind::Square,
        ShapeKind::Cone,
        ShapeKind::Line,
    ];

    /// The name written on the command line: `sphere`, `cone`, ...
    pub fn id(self) -> &'static str {
        match self {
            ShapeKind::Sphere => "sphere",
            ShapeKind::Cylinder => "cylinder",
            ShapeKind::Circle => "circle",
            ShapeKind::Cube => "cube",
            ShapeKind::Square => "square",
            ShapeKind::Cone => "cone",
            ShapeKind::Line => "line",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::Sphere => "Sphere",
            ShapeKind::Cylinder => "Cylinder",
            ShapeKind::Circle => "Circle",
            ShapeKind::Cube => "Cube",
            ShapeKind::Square => "Square",
            ShapeKind::Cone => "Cone",
            ShapeKind::Line => "Line",
        }
    }

    /// What its size measures.
    pub fn size_name(self) -> &'static str {
        match self {
            ShapeKind::Sphere | ShapeKind::Cylinder | ShapeKind::Circle => "radius",
            ShapeKind::Cube | ShapeKind::Square => "side",
            ShapeKind::Cone | ShapeKind::Line => "length",
        }
    }

    /// Whether it points somewhere.
    pub fn has_direction(self) -> bool {
        !matches!(self, ShapeKind::Sphere | ShapeKind::Cylinder | ShapeKind::Circle)
    }
}

impl Shape {
    /// The shape of `kind` with its size in feet; `face` matters to cubes and squares (the middle
    /// of a side at the origin instead of a corner), `width` to lines.
    pub fn new(kind: ShapeKind, feet: u32, face: bool, width: u32) -> Self {
        match kind {
            ShapeKind::Sphere => Shape::Sphere { radius: feet },
            ShapeKind::Cylinder => Shape::Cylinder { radius: feet },
            ShapeKind::Circle => Shape::Circle { radius: feet },
            ShapeKind::Cube => Shape::Cube { side: feet, face },
            ShapeKind::Square => Shape::Square { side: feet, face },
            ShapeKind::Cone => Shape::Cone { length: feet },
            ShapeKind::Line => Shape::Line { length: feet, width },
        }
    }
}

/// Why an area can't be placed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum AreaError {
    /// Sizes run from 5 to 1,000 feet.
    #[error("an area's size must be {MIN_AREA_FEET} to {MAX_AREA_FEET} ft, not {0} ft")]
    BadSize(u32),
    /// A line's width runs from 5 to 1,000 feet.
    #[error("a line's width must be {MIN_AREA_FEET} to {MAX_AREA_FEET} ft, not {0} ft")]
    BadWidth(u32),
    /// The direction is not a number.
    #[error("an area's direction must be a number of degrees")]
    BadDirection,
}

/// The smallest and largest size of an area (and width of a line), in feet.
pub const MIN_AREA_FEET: u32 = FEET_PER_CELL;
pub const MAX_AREA_FEET: u32 = 1000;

/// A cell in an area, and how much of it the area covers (0.5 to 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CoveredCell {
    pub cell: Cell,
    pub fraction: f64,
}

/// A point or vector in the plane, as `(x, y)`.
pub(crate) type V = (f64, f64);

fn sub(a: V, b: V) -> V {
    (a.0 - b.0, a.1 - b.1)
}

fn cross(a: V, b: V) -> f64 {
    a.0 * b.1 - a.1 * b.0
}

fn dot(a: V, b: V) -> f64 {
    a.0 * b.0 + a.1 * b.1
}

/// The (unsigned) area of a simple polygon, its points in order around it.
pub(crate) fn polygon_area(points: &[V]) -> f64 {
    let n = points.len();
    (0..n).map(|i| cross(points[i], points[(i + 1) % n])).sum::<f64>().abs() / 2.0
}

/// Clips `subject` by the convex polygon `clip` (Sutherland–Hodgman); both in any consistent
/// orientation.
fn clip(subject: &[V], clip: &[V]) -> Vec<V> {
    let orientation = if polygon_signed(clip) >= 0.0 { 1.0 } else { -1.0 };
    let mut output = subject.to_vec();
    for i in 0..clip.len() {
        let (a, b) = (clip[i], clip[(i + 1) % clip.len()]);
        output = clip_half_plane(&output, a, b, orientation);
        if output.is_empty() {
            break;
        }
    }
    output
}

/// The part of the convex polygon `subject` on one side of the line through `a` and `b`: where
/// `orientation × cross(b − a, p − a) ≥ 0` (with a tolerance of 1e-12), so `orientation` 1 keeps
/// the side that `cross` calls positive and -1 the other. One step of Sutherland–Hodgman.
fn clip_half_plane(subject: &[V], a: V, b: V, orientation: f64) -> Vec<V> {
    clip_by(subject, 1e-12, |p| orientation * cross(sub(b, a), sub(p, a)))
}

/// The part of the convex polygon `subject` where the affine function `side` is at least
/// `-tolerance`: one step of Sutherland–Hodgman, a new point where `side` changes sign along an
/// edge (at `side(p) / (side(p) − side(q))` of the way from `p` to `q`).
pub(crate) fn clip_by(subject: &[V], tolerance: f64, side: impl Fn(V) -> f64) -> Vec<V> {
    let mut output = Vec::with_capacity(subject.len() + 2);
    for j in 0..subject.len() {
        let (p, q) = (subject[j], subject[(j + 1) % subject.len()]);
        let (at_p, at_q) = (side(p), side(q));
        let (p_in, q_in) = (at_p >= -tolerance, at_q >= -tolerance);
        if p_in {
            output.push(p);
        }
        if p_in != q_in {
            let denom = at_p - at_q;
            if denom.abs() > 1e-15 {
                let s = at_p / denom;
                let d = sub(q, p);
                output.push((p.0 + d.0 * s, p.1 + d.1 * s));
            }
        }
    }
    output
}

fn polygon_signed(points: &[V]) -> f64 {
    let n = points.len();
    (0..n).map(|i| cross(points[i], points[(i + 1) % n])).sum::<f64>() / 2.0
}

/// The signed area of the intersection of the disk of radius `r` at the origin with the
/// triangle (origin, a, b).
fn disk_triangle(a: V, b: V, r: f64) -> f64 {
    let d = sub(b, a);
    let aa = dot(d, d);
    if aa < 1e-18 {
        return 0.0;
    }
    let bb = dot(a, d);
    let cc = dot(a, a) - r * r;
    let disc = bb * bb - aa * cc;
    let mut ts = vec![0.0];
    if disc > 0.0 {
        let s = disc.sqrt();
        for t in [(-bb - s) / aa, (-bb + s) / aa] {
            if t > 0.0 && t < 1.0 {
                ts.push(t);
            }
        }
    }
    ts.push(1.0);
    let at = |t: f64| (a.0 + d.0 * t, a.1 + d.1 * t);
    ts.windows(2)
        .map(|w| {
            let (p, q) = (at(w[0]), at(w[1]));
            let mid = at((w[0] + w[1]) / 2.0);
            if dot(mid, mid) <= r * r { cross(p, q) / 2.0 } else { r * r * cross(p, q).atan2(dot(p, q)) / 2.0 }
        })
        .sum()
}

/// The area of `polygon` inside the disk of radius `r` centred at `c`.
fn disk_polygon(polygon: &[V], c: V, r: f64) -> f64 {
    let n = polygon.len();
    (0..n).map(|i| disk_triangle(sub(polygon[i], c), sub(polygon[(i + 1) % n], c), r)).sum::<f64>().abs()
}

/// The region of an area, in grid units.
enum Region {
    Disk { centre: V, radius: f64 },
    Polygon(Vec<V>),
}

impl Shape {
    /// How far above and below its point of origin it reaches, in feet (call: docs/rules.md,
    /// "Areas of effect"): a sphere or cylinder its radius, a cube its side, a cone half its
    /// length (its far end is as wide as it is long), a line half its width; a circle or a square
    /// lies on its origin's level.
    pub fn vertical_reach(self) -> u32 {
        match self {
            Shape::Sphere { radius } | Shape::Cylinder { radius } => radius,
            Shape::Cube { side, .. } => side,
            Shape::Cone { length } => length / 2,
            Shape::Line { width, .. } => width / 2,
            Shape::Circle { .. } | Shape::Square { .. } => 0,
        }
    }

    /// The size that limits it, in feet.
    fn feet(self) -> u32 {
        match self {
            Shape::Sphere { radius } | Shape::Cylinder { radius } | Shape::Circle { radius } => radius,
            Shape::Cube { side, .. } | Shape::Square { side, .. } => side,
            Shape::Cone { length } | Shape::Line { length, .. } => length,
        }
    }

    /// Its region from `origin` (grid units), pointing `degrees` clockwise from east (y south).
    fn region(self, origin: V, degrees: f64) -> Region {
        let cell = f64::from(FEET_PER_CELL);
        let (ux, uy) = (degrees.to_radians().cos(), degrees.to_radians().sin());
        let along = |d: f64, across: f64| (origin.0 + ux * d - uy * across, origin.1 + uy * d + ux * across);
        match self {
            Shape::Sphere { radius } | Shape::Cylinder { radius } | Shape::Circle { radius } => {
                Region::Disk { centre: origin, radius: f64::from(radius) / cell }
            }
            Shape::Cube { side, face } | Shape::Square { side, face } => {
                let s = f64::from(side) / cell;
                if face {
                    Region::Polygon(vec![
                        along(0.0, -s / 2.0),
                        along(s, -s / 2.0),
                        along(s, s / 2.0),
                        along(0.0, s / 2.0),
                    ])
                } else {
                    // A corner at the origin, the diagonal along the direction.
                    let h = s / std::f64::consts::SQRT_2;
                    Region::Polygon(vec![origin, along(h, -h), along(2.0 * h, 0.0), along(h, h)])
                }
            }
            Shape::Cone { length } => {
                let l = f64::from(length) / cell;
                Region::Polygon(vec![origin, along(l, -l / 2.0), along(l, l / 2.0)])
            }
            Shape::Line { length, width } => {
                let (l, w) = (f64::from(length) / cell, f64::from(width) / cell);
                Region::Polygon(vec![along(0.0, -w / 2.0), along(l, -w / 2.0), along(l, w / 2.0), along(0.0, w / 2.0)])
            }
        }
    }
}

/// The cells of `map` that the area covers by at least half (conventions), with the share of
/// each, in the map's row order. `origin` is in grid units (a grid intersection, or a point the
/// area's rules allow), `degrees` the direction clockwise from east.
pub fn covered_cells(map: &TerrainMap, shape: Shape, origin: V, degrees: f64) -> Result<Vec<CoveredCell>, AreaError> {
    let feet = shape.feet();
    if !(MIN_AREA_FEET..=MAX_AREA_FEET).contains(&feet) {
        return Err(AreaError::BadSize(feet));
    }
    if let Shape::Line { width, .. } = shape
        && !(MIN_AREA_FEET..=MAX_AREA_FEET).contains(&width)
    {
        return Err(AreaError::BadWidth(width));
    }
    if !degrees.is_finite() {
        return Err(AreaError::BadDirection);
    }
    let grid = map.grid();
    let region = shape.region(origin, degrees);
    let (min, max) = match &region {
        Region::Disk { centre, radius } => {
            ((centre.0 - radius, centre.1 - radius), (centre.0 + radius, centre.1 + radius))
        }
        Region::Polygon(points) => points.iter().fold(((f64::MAX, f64::MAX), (f64::MIN, f64::MIN)), |(lo, hi), p| {
            ((lo.0.min(p.0), lo.1.min(p.1)), (hi.0.max(p.0), hi.1.max(p.1)))
        }),
    };
    let mut cells = Vec::new();
    for cell in map.cells() {
        let (cx, cy) = grid.center(cell);
        if cx < min.0 - 1.0 || cx > max.0 + 1.0 || cy < min.1 - 1.0 || cy > max.1 + 1.0 {
            continue;
        }
        let polygon = grid.corners(cell);
        let whole = polygon_area(&polygon);
        let covered = match &region {
            Region::Disk { centre, radius } => disk_polygon(&polygon, *centre, *radius),
            Region::Polygon(points) => polygon_area(&clip(&polygon, points)),
        };
        let fraction = (covered / whole).min(1.0);
        if fraction >= 0.5 - 1e-9 {
            cells.push(CoveredCell { cell, fraction });
        }
    }
    Ok(cells)
}

/// An area in space: the cells it covers and the heights it spans, in feet above the ground.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Volume {
    pub cells: HashSet<Cell>,
    pub lowest: u32,
    pub highest: u32,
}

impl Volume {
    /// The area `shape` covers at `cells`, from an origin `origin_elevation` feet up, reaching
    /// [`Shape::vertical_reach`] above and below it.
    pub fn of(cells: &[CoveredCell], shape: Shape, origin_elevation: u32) -> Self {
        let reach = shape.vertical_reach();
        Self::column(
            cells.iter().map(|c| c.cell),
            origin_elevation.saturating_sub(reach),
            origin_elevation.saturating_add(reach),
        )
    }

    /// The cells from `lowest` to `highest` feet up (a cauldron's oil falling to the ground).
    pub fn column(cells: impl IntoIterator<Item = Cell>, lowest: u32, highest: u32) -> Self {
        Self { cells: cells.into_iter().collect(), lowest, highest }
    }

    /// Whether a creature or object with this space, standing `elevation` feet up, is in it: any
    /// cell of its space covered, and its height within the area's (docs/rules.md, "Areas of
    /// effect").
    pub fn holds(&self, space: &[Cell], elevation: u32) -> bool {
        (self.lowest..=self.highest).contains(&elevation) && space.iter().any(|c| self.cells.contains(c))
    }
}

/// The direction, in degrees clockwise from east (y south), from one point toward another.
pub fn degrees_toward(from: V, to: V) -> f64 {
    (to.1 - from.1).atan2(to.0 - from.0).to_degrees()
}

/// The kinds of area in the Targets in Areas of Effect table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TableArea {
    Cone,
    CubeOrSquare,
    Cylinder,
    Line,
    SphereOrCircle,
}

impl Shape {
    pub fn table_area(self) -> TableArea {
        match self {
            Shape::Cone { .. } => TableArea::Cone,
            Shape::Cube { .. } | Shape::Square { .. } => TableArea::CubeOrSquare,
            Shape::Cylinder { .. } => TableArea::Cylinder,
            Shape::Line { .. } => TableArea::Line,
            Shape::Sphere { .. } | Shape::Circle { .. } => TableArea::SphereOrCircle,
        }
    }
}

/// DMG table Targets in Areas of Effect: cone size ÷ 10, cube or square size ÷ 5, cylinder
/// radius ÷ 5, line length ÷ 30, sphere or circle radius ÷ 5, each rounded up.
pub fn estimated_targets(area: TableArea, feet: u32) -> u32 {
    let divisor = match area {
        TableArea::Cone => 10,
        TableArea::Line => 30,
        TableArea::CubeOrSquare | TableArea::Cylinder | TableArea::SphereOrCircle => 5,
    };
    feet.div_ceil(divisor)
}

/// The DMG's optional adjustment: add (bunched up) or subtract (spread out) a 1d3 roll; at least 1.
pub fn adjusted_targets(estimate: u32, roll_1d3: u32, bunched: bool) -> u32 {
    let roll = roll_1d3.clamp(1, 3);
    if bunched { estimate + roll } else { estimate.saturating_sub(roll).max(1) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::{Grid, HexOrientation};
    use crate::rules::terrain::{Terrain, TerrainKind};

    fn open(grid: Grid, w: u32, h: u32) -> TerrainMap {
        TerrainMap::filled(grid, w, h, vec![Terrain::standard(TerrainKind::Floor)])
    }

    /// The cells as a picture: `#` in the area, `.` not, rows north to south.
    fn picture(map: &TerrainMap, cells: &[CoveredCell]) -> Vec<String> {
        (0..map.height() as i32)
            .map(|row| {
                (0..map.width() as i32)
                    .map(|col| {
                        let cell = map.grid().from_storage(col, row);
                        if cells.iter().any(|c| c.cell == cell) { '#' } else { '.' }
                    })
                    .collect()
            })
            .collect()
    }

    /// A 20-ft-radius sphere from the intersection at (5, 5): the squares at least half inside
    /// the circle of radius 4 squares.
    #[test]
    fn a_20_foot_sphere_from_an_intersection() {
        let map = open(Grid::Square, 10, 10);
        let cells = covered_cells(&map, Shape::Sphere { radius: 20 }, (5.0, 5.0), 0.0).expect("valid");
        assert_eq!(
            picture(&map, &cells),
            [
                "..........",
                "...####...",
                "..######..",
                ".########.",
                ".########.",
                ".########.",
                ".########.",
                "..######..",
                "...####...",
                "..........",
            ]
        );
        assert_eq!(cells.len(), 52);
    }

    /// A 15-ft cone: a triangle 3 squares long and 3 wide at its far end. Pointing east from
    /// (6, 6), the first column holds a quarter of each square beside the axis (out), the second
    /// three quarters (in), the third whole squares beside the axis (in) and quarters beyond (out).
    /// In each of the 8 directions it covers squares ahead of the origin only, the same number
    /// for the four straight directions and for the four diagonal ones.
    #[test]
    fn a_15_foot_cone_in_eight_directions() {
        let map = open(Grid::Square, 12, 12);
        let east = covered_cells(&map, Shape::Cone { length: 15 }, (6.0, 6.0), 0.0).expect("valid");
        assert_eq!(
            picture(&map, &east)[3..9].to_vec(),
            ["............", "............", ".......##...", ".......##...", "............", "............"]
        );
        let diagonal = covered_cells(&map, Shape::Cone { length: 15 }, (6.0, 6.0), 45.0).expect("valid");
        for step in 0..8 {
            let degrees = 45.0 * f64::from(step);
            let cells = covered_cells(&map, Shape::Cone { length: 15 }, (6.0, 6.0), degrees).expect("valid");
            let expected = if step % 2 == 0 { east.len() } else { diagonal.len() };
            assert_eq!(cells.len(), expected, "{degrees}°");
            let (ux, uy) = (degrees.to_radians().cos(), degrees.to_radians().sin());
            for c in &cells {
                let (cx, cy) = Grid::Square.center(c.cell);
                assert!((cx - 6.0) * ux + (cy - 6.0) * uy > 0.0, "cells lie ahead of the origin");
            }
        }
    }

    #[test]
    fn a_100_foot_line_covers_twenty_squares_along_its_row() {
        let map = open(Grid::Square, 30, 5);
        let cells = covered_cells(&map, Shape::Line { length: 100, width: 5 }, (2.0, 2.5), 0.0).expect("valid");
        assert_eq!(cells.len(), 20);
        assert!(cells.iter().all(|c| c.cell.y == 2 && (2..22).contains(&c.cell.x)));
        // Along a grid line, the 5-ft line covers half of two rows: both count (ties are in).
        let seam = covered_cells(&map, Shape::Line { length: 100, width: 5 }, (2.0, 2.0), 0.0).expect("valid");
        assert_eq!(seam.len(), 40);
    }

    #[test]
    fn cubes_from_a_corner_and_from_a_face() {
        let map = open(Grid::Square, 10, 10);
        let corner = covered_cells(&map, Shape::Cube { side: 10, face: false }, (3.0, 3.0), 45.0).expect("valid");
        assert_eq!(
            corner.iter().map(|c| c.cell).collect::<Vec<_>>(),
            [(3, 3), (4, 3), (3, 4), (4, 4)].map(|(x, y)| Cell::new(x, y))
        );
        let face = covered_cells(&map, Shape::Cube { side: 10, face: true }, (3.0, 4.0), 0.0).expect("valid");
        assert_eq!(
            face.iter().map(|c| c.cell).collect::<Vec<_>>(),
            [(3, 3), (4, 3), (3, 4), (4, 4)].map(|(x, y)| Cell::new(x, y))
        );
    }

    #[test]
    fn spheres_on_both_hex_orientations() {
        for orientation in [HexOrientation::PointyTop, HexOrientation::FlatTop] {
            let grid = Grid::Hex(orientation);
            let map = open(grid, 15, 15);
            // From the vertex shared by three hexes, a 5-ft radius covers those three at least half.
            let hexes = [Cell::new(3, 5), Cell::new(4, 5), Cell::new(3, 6)];
            let centres: Vec<V> = hexes.iter().map(|&h| grid.center(h)).collect();
            let vertex = (
                (centres[0].0 + centres[1].0 + centres[2].0) / 3.0,
                (centres[0].1 + centres[1].1 + centres[2].1) / 3.0,
            );
            let cells = covered_cells(&map, Shape::Sphere { radius: 5 }, vertex, 0.0).expect("valid");
            let mut got: Vec<Cell> = cells.iter().map(|c| c.cell).collect();
            got.sort();
            let mut want = hexes.to_vec();
            want.sort();
            assert_eq!(got, want, "{orientation:?}");
            // A 10-ft radius from the same vertex: the 12 hexes nearest it (centres at 0.58, 1.15
            // and 1.53 hexes; the next ones, at 2.08, lie mostly outside).
            assert_eq!(
                covered_cells(&map, Shape::Sphere { radius: 10 }, vertex, 0.0).expect("valid").len(),
                12,
                "{orientation:?}"
            );
        }
    }

    /// Cones, lines and cubes on hexes: from a hex's centre, turning by 60° (the grid's own
    /// symmetry there) covers as many hexes, on both orientations.
    #[test]
    fn cones_lines_and_cubes_turn_with_the_hex_grid() {
        for (orientation, start) in [(HexOrientation::PointyTop, 0.0), (HexOrientation::FlatTop, 30.0)] {
            let grid = Grid::Hex(orientation);
            let map = open(grid, 21, 21);
            let centre = grid.center(grid.from_storage(10, 10));
            for shape in
                [Shape::Cone { length: 15 }, Shape::Line { length: 30, width: 5 }, Shape::Cube { side: 10, face: true }]
            {
                let counts: Vec<usize> = (0..6)
                    .map(|k| covered_cells(&map, shape, centre, start + 60.0 * f64::from(k)).expect("valid").len())
                    .collect();
                assert!(counts[0] > 0, "{orientation:?} {shape:?}");
                assert!(counts.iter().all(|&n| n == counts[0]), "{orientation:?} {shape:?}: {counts:?}");
            }
        }
    }

    /// The heights an area spans (call: docs/rules.md, "Areas of effect"): a creature is in it
    /// when a cell of its space is covered and its elevation lies within the area's reach above
    /// and below the origin, never below the ground.
    #[test]
    fn an_area_reaches_as_high_as_its_shape_and_no_higher() {
        let reach = |shape: Shape| shape.vertical_reach();
        assert_eq!(reach(Shape::Sphere { radius: 20 }), 20);
        assert_eq!(reach(Shape::Cube { side: 10, face: false }), 10);
        assert_eq!(reach(Shape::Cone { length: 15 }), 7, "half its length, rounded down");
        assert_eq!(reach(Shape::Line { length: 100, width: 5 }), 2);
        assert_eq!(reach(Shape::Circle { radius: 30 }), 0, "a circle lies on its origin's level");
        let map = open(Grid::Square, 9, 9);
        let sphere = Shape::Sphere { radius: 10 };
        let cells = covered_cells(&map, sphere, (4.0, 4.0), 0.0).unwrap();
        let high = Volume::of(&cells, sphere, 30);
        assert_eq!((high.lowest, high.highest), (20, 40));
        let beside = [Cell::new(4, 4)];
        assert!(high.holds(&beside, 20) && high.holds(&beside, 40));
        assert!(!high.holds(&beside, 15) && !high.holds(&beside, 45));
        assert!(!high.holds(&[Cell::new(0, 0)], 30), "outside its cells at any height");
        let low = Volume::of(&cells, sphere, 5);
        assert_eq!((low.lowest, low.highest), (0, 15), "never below the ground");
        let pour = Volume::column([Cell::new(1, 1)], 0, u32::MAX);
        assert!(pour.holds(&[Cell::new(1, 1)], u32::MAX) && pour.holds(&[Cell::new(1, 1)], 0));
    }

    /// DMG examples: burning hands (15-ft cone) targets 2; lightning bolt (100-ft line) 4.
    #[test]
    fn the_targets_table_matches_the_dmg_examples() {
        assert_eq!(estimated_targets(TableArea::Cone, 15), 2);
        assert_eq!(estimated_targets(TableArea::Line, 100), 4);
        assert_eq!(estimated_targets(TableArea::SphereOrCircle, 20), 4);
        assert_eq!(estimated_targets(TableArea::CubeOrSquare, 10), 2);
        assert_eq!(adjusted_targets(2, 3, true), 5);
        assert_eq!(adjusted_targets(2, 3, false), 1);
    }

    #[test]
    fn absurd_sizes_are_refused() {
        let map = open(Grid::Square, 5, 5);
        assert_eq!(covered_cells(&map, Shape::Sphere { radius: 0 }, (1.0, 1.0), 0.0), Err(AreaError::BadSize(0)));
        assert!(covered_cells(&map, Shape::Line { length: 5000, width: 5 }, (1.0, 1.0), 0.0).is_err());
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]
            /// Moving the origin by whole cells moves the covered cells with it.
            #[test]
            fn areas_move_with_their_origin(kind in 0usize..4, feet in 1u32..5, angle in 0u32..8, dx in 0i32..4, dy in 0i32..4) {
                let map = open(Grid::Square, 30, 30);
                let feet = feet * 5;
                let shape = [Shape::Sphere { radius: feet }, Shape::Cone { length: feet }, Shape::Cube { side: feet, face: false }, Shape::Line { length: feet * 2, width: 5 }][kind];
                let degrees = 45.0 * f64::from(angle);
                let here = covered_cells(&map, shape, (12.0, 12.0), degrees).expect("valid");
                let there = covered_cells(&map, shape, (12.0 + f64::from(dx), 12.0 + f64::from(dy)), degrees).expect("valid");
                let moved: Vec<Cell> = here.iter().map(|c| c.cell.offset(dx, dy)).collect();
                let mut moved_sorted = moved.clone();
                moved_sorted.sort();
                let mut there_sorted: Vec<Cell> = there.iter().map(|c| c.cell).collect();
                there_sorted.sort();
                prop_assert_eq!(moved_sorted, there_sorted);
            }
        }
    }
}
