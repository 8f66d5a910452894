//! Light and darkness: a scene's light, the lights on the map and those creatures carry, and
//! darkvision, as the System Reference Document 5.1 gives them ("Vision and Light", CC-BY-4.0;
//! the chapter only links the rule, docs/rules.md credits it):
//!
//! - "Bright light lets most creatures see normally." "Dim light … creates a lightly obscured
//!   area": disadvantage on Wisdom (Perception) checks that rely on sight.
//! - "Darkness creates a heavily obscured area": "a creature effectively suffers from the blinded
//!   condition when trying to see something in that area."
//! - Darkvision: "Within a specified range, a creature with darkvision can see in dim light as if
//!   it were bright light and in darkness as if it were dim light."
//! - A torch "sheds bright light in a 20-foot radius and dim light for an additional 20 feet".
//!
//! Light reaches the cells a line from its source reaches (walls and other terrain that blocks
//! sight cast shadows: the sight sweep), and the brightest light on a cell counts.

use serde::{Deserialize, Serialize};

use crate::rules::distance::{DiagonalRule, range_feet};
use crate::rules::{Cell, TerrainMap, sight, sweep};

/// The most feet a light may reach, or darkvision see, as a scenario may give them.
pub const MAX_LIGHT_FEET: u32 = 1000;

/// How much light a place has (SRD "Vision and Light").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum LightLevel {
    /// Heavily obscured: a creature trying to see something there is effectively blinded.
    Dark,
    /// Lightly obscured: disadvantage on Perception checks that rely on sight.
    Dim,
    #[default]
    Bright,
}

impl LightLevel {
    pub fn name(self) -> &'static str {
        match self {
            LightLevel::Dark => "darkness",
            LightLevel::Dim => "dim light",
            LightLevel::Bright => "bright light",
        }
    }

    /// What the light does to seeing into it, in words.
    pub fn obscures(self) -> &'static str {
        match self {
            LightLevel::Dark => "heavily obscured: no one sees into it without darkvision or light",
            LightLevel::Dim => "lightly obscured: disadvantage on Perception checks that rely on sight",
            LightLevel::Bright => "not obscured",
        }
    }

    /// One step brighter (darkvision's dim as bright and darkness as dim).
    fn step_up(self) -> Self {
        match self {
            LightLevel::Dark => LightLevel::Dim,
            LightLevel::Dim | LightLevel::Bright => LightLevel::Bright,
        }
    }
}

/// A light: bright light out to `bright` feet and dim light for `dim` feet beyond (a torch is
/// 20/20, a lantern 30/30, a candle 5/5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightSource {
    pub bright: u32,
    pub dim: u32,
}

impl LightSource {
    /// The light it sheds `feet` from its source.
    pub fn at(self, feet: u32) -> Option<LightLevel> {
        if feet <= self.bright && self.bright > 0 {
            Some(LightLevel::Bright)
        } else if feet <= self.bright.saturating_add(self.dim) {
            Some(LightLevel::Dim)
        } else {
            None
        }
    }
}

/// The light of every cell of a map (storage order, as `TerrainMap::cells`): the scene's own,
/// brightened by each light in `lights` (the cells of its source's space, and the light) on the
/// cells a line from that space reaches.
pub fn light_map(map: &TerrainMap, ambient: LightLevel, lights: &[(&[Cell], LightSource)]) -> Vec<LightLevel> {
    let mut levels = vec![ambient; map.cells().count()];
    if ambient == LightLevel::Bright {
        return levels;
    }
    let grid = map.grid();
    let blocks: Vec<bool> = map.terrains().map(|t| t.blocks_sight).collect();
    for &(space, light) in lights {
        if space.is_empty() || light.at(0).is_none() {
            continue;
        }
        // Lines only as far as the light goes (a cell more, for the corners of a big space).
        let cells = light.bright.saturating_add(light.dim) / 5 + 2;
        let reached = sweep::seen_cells_within(map, &blocks, &sight::space_corners(grid, space), cells);
        for ((cell, reached), level) in map.cells().zip(reached).zip(levels.iter_mut()) {
            if !reached && !space.contains(&cell) {
                continue;
            }
            // Light spreads in a radius: every step 5 ft, as an area's spread (DMG "Areas of Effect").
            let feet = range_feet(grid, DiagonalRule::Standard, space, &[cell]).unwrap_or(u32::MAX);
            if let Some(lit) = light.at(feet) {
                *level = (*level).max(lit);
            }
        }
    }
    levels
}

/// The light a viewer sees a place in: darkvision within its range sees dim light as bright and
/// darkness as dim (SRD "Darkvision").
pub fn perceived(level: LightLevel, feet_away: u32, darkvision: u32) -> LightLevel {
    if darkvision > 0 && feet_away <= darkvision { level.step_up() } else { level }
}

/// The light a viewer sees a space in: the best lit of its cells as the viewer sees them (a
/// creature partly in the light can be seen).
pub fn space_seen_in(
    map: &TerrainMap,
    levels: &[LightLevel],
    viewer: &[Cell],
    darkvision: u32,
    space: &[Cell],
) -> LightLevel {
    let grid = map.grid();
    space
        .iter()
        .filter_map(|&cell| {
            let level = *levels.get(map.index_of(cell)?)?;
            let feet = range_feet(grid, DiagonalRule::Standard, viewer, &[cell]).unwrap_or(u32::MAX);
            Some(perceived(level, feet, darkvision))
        })
        .max()
        .unwrap_or(LightLevel::Dark)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Grid;
    use crate::rules::grid::HexOrientation;
    use crate::rules::terrain::{Terrain, TerrainKind};

    /// An open floor, with walls (palette index 1) to set.
    fn open(grid: Grid, width: u32, height: u32) -> TerrainMap {
        let palette = vec![Terrain::standard(TerrainKind::Floor), Terrain::standard(TerrainKind::Wall)];
        TerrainMap::filled(grid, width, height, palette)
    }

    /// SRD "Light": a torch "sheds bright light in a 20-foot radius and dim light for an additional
    /// 20 feet".
    #[test]
    fn a_torch_lights_twenty_feet_brightly_and_twenty_more_dimly() {
        for grid in [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)] {
            // A big open map, the torch in its middle, cells counted east along its axis (q on
            // hexes: each step one hex further).
            let map = open(grid, 25, 25);
            let centre = grid.from_storage(5, 12);
            let torch = [centre];
            let levels = light_map(&map, LightLevel::Dark, &[(&torch, LightSource { bright: 20, dim: 20 })]);
            let along = |x: i32| {
                let cell = Cell::new(centre.x + x, centre.y);
                levels[map.index_of(cell).expect("on the map")]
            };
            assert_eq!(along(0), LightLevel::Bright, "{grid:?}");
            assert_eq!(along(4), LightLevel::Bright, "{grid:?}: 20 ft");
            assert_eq!(along(5), LightLevel::Dim, "{grid:?}: 25 ft");
            assert_eq!(along(8), LightLevel::Dim, "{grid:?}: 40 ft");
            assert_eq!(along(9), LightLevel::Dark, "{grid:?}: 45 ft");
        }
    }

    #[test]
    fn walls_cast_shadows_and_the_brightest_light_counts() {
        let mut map = open(Grid::Square, 9, 3);
        for y in 0..3 {
            map.set(Cell::new(3, y), 1);
        }
        let torch = [Cell::new(1, 1)];
        let candle = [Cell::new(6, 1)];
        let lights =
            [(&torch[..], LightSource { bright: 20, dim: 20 }), (&candle[..], LightSource { bright: 5, dim: 5 })];
        let levels = light_map(&map, LightLevel::Dim, &lights);
        let at = |x, y| levels[map.index_of(Cell::new(x, y)).expect("on the map")];
        assert_eq!(at(2, 1), LightLevel::Bright);
        assert_eq!(at(4, 1), LightLevel::Dim, "behind the wall the torch doesn't reach: the scene's dim light");
        assert_eq!(at(7, 1), LightLevel::Bright, "the candle's bright 5 ft");
        assert_eq!(at(8, 1), LightLevel::Dim);
        // In daylight nothing changes.
        assert!(light_map(&map, LightLevel::Bright, &lights).iter().all(|&l| l == LightLevel::Bright));
    }

    /// SRD "Darkvision": dim as bright and darkness as dim, within its range only.
    #[test]
    fn darkvision_sees_one_step_brighter_within_its_range() {
        assert_eq!(perceived(LightLevel::Dark, 60, 60), LightLevel::Dim);
        assert_eq!(perceived(LightLevel::Dim, 10, 60), LightLevel::Bright);
        assert_eq!(perceived(LightLevel::Dark, 65, 60), LightLevel::Dark);
        assert_eq!(perceived(LightLevel::Dark, 0, 0), LightLevel::Dark);
        assert_eq!(perceived(LightLevel::Bright, 5, 0), LightLevel::Bright);
    }

    #[test]
    fn a_space_is_seen_in_its_best_lit_cell() {
        let map = open(Grid::Square, 10, 1);
        let lamp = [Cell::new(0, 0)];
        let levels = light_map(&map, LightLevel::Dark, &[(&lamp, LightSource { bright: 5, dim: 0 })]);
        let viewer = [Cell::new(9, 0)];
        assert_eq!(space_seen_in(&map, &levels, &viewer, 0, &[Cell::new(1, 0), Cell::new(2, 0)]), LightLevel::Bright);
        assert_eq!(space_seen_in(&map, &levels, &viewer, 0, &[Cell::new(2, 0), Cell::new(3, 0)]), LightLevel::Dark);
        assert_eq!(space_seen_in(&map, &levels, &viewer, 30, &[Cell::new(3, 0)]), LightLevel::Dim);
    }
}
