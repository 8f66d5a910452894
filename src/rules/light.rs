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

use std::sync::{Arc, Mutex};

use crate::rules::distance::{DiagonalRule, Spot, range_between};
use crate::rules::sight::SightBoard;
use crate::rules::{Cell, Grid, TerrainMap, sight, sweep};

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

/// A light on the map: the space of what sheds it (a lamp's cell, a torch-bearer's space), its
/// height above the ground, and its light.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lamp {
    pub cells: Vec<Cell>,
    pub elevation: u32,
    pub light: LightSource,
}

impl Lamp {
    fn spot(&self) -> Spot<'_> {
        Spot { cells: &self.cells, elevation: self.elevation }
    }
}

/// What a scene's light depends on: its own light, the rule that measures its distances, where
/// the map blocks sight, and its lamps.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Inputs {
    ambient: LightLevel,
    rule: DiagonalRule,
    grid: Grid,
    size: (u32, u32),
    blocks: Vec<bool>,
    lamps: Vec<Lamp>,
}

/// The light of a scene: on the ground of every cell of its map (storage order, as
/// `TerrainMap::cells`), and, for anything above the ground, at its height ([`SceneLight::at`]).
///
/// A light reaches the cells a line from a corner of its source's space reaches (the sight rule:
/// walls cast shadows, creatures don't), and lights a cell when the one distance from its source
/// to the cell (`distance::range_between`: nearest cell to nearest cell under the scene's diagonal
/// rule, or the difference in height if that is more) is within its radius, as every "within N
/// feet" is measured (docs/rules.md, "Light and darkness"). The brightest light on a cell counts.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneLight {
    inputs: Inputs,
    ground: Vec<LightLevel>,
}

impl SceneLight {
    /// The light of `map` lit by `lamps`, `ambient` where none reaches, distances under `rule`.
    pub fn new(map: &TerrainMap, rule: DiagonalRule, ambient: LightLevel, lamps: Vec<Lamp>) -> Self {
        let inputs = Inputs {
            ambient,
            rule,
            grid: map.grid(),
            size: (map.width(), map.height()),
            blocks: map.terrains().map(|t| t.blocks_sight).collect(),
            lamps,
        };
        let ground = ground_light(map, &inputs);
        Self { inputs, ground }
    }

    /// The light on the ground of every cell (storage order).
    pub fn ground(&self) -> &[LightLevel] {
        &self.ground
    }

    pub fn ambient(&self) -> LightLevel {
        self.inputs.ambient
    }

    pub fn lamps(&self) -> &[Lamp] {
        &self.inputs.lamps
    }

    /// Whether it was computed for these inputs.
    fn is_for(&self, map: &TerrainMap, rule: DiagonalRule, ambient: LightLevel, lamps: &[Lamp]) -> bool {
        let i = &self.inputs;
        i.ambient == ambient
            && i.rule == rule
            && i.grid == map.grid()
            && i.size == (map.width(), map.height())
            && i.lamps == lamps
            && i.blocks.iter().copied().eq(map.terrains().map(|t| t.blocks_sight))
    }

    /// The light on `cell`, `elevation` feet above the ground: the ground's at 0; higher up, each
    /// lamp's by the one distance to that height, where a line from the lamp's space reaches the
    /// cell. Off the map, darkness's own level: the scene's.
    pub fn at(&self, map: &TerrainMap, cell: Cell, elevation: u32) -> LightLevel {
        let Some(index) = map.index_of(cell) else { return self.inputs.ambient };
        if elevation == 0 {
            return self.ground[index];
        }
        let board = SightBoard { map, tokens: &[] };
        let here = [cell];
        let spot = Spot { cells: &here, elevation };
        self.inputs
            .lamps
            .iter()
            .filter_map(|lamp| {
                let feet = range_between(self.inputs.grid, self.inputs.rule, lamp.spot(), spot)?;
                let lit = lamp.light.at(feet)?;
                (lamp.cells.contains(&cell) || sight::line_of_sight(&board, &lamp.cells, &here).is_some())
                    .then_some(lit)
            })
            .fold(self.inputs.ambient, LightLevel::max)
    }
}

/// The ground light of every cell: the scene's own, brightened by each lamp on the cells a line
/// from its space reaches, within its radius by the one distance.
fn ground_light(map: &TerrainMap, inputs: &Inputs) -> Vec<LightLevel> {
    let mut levels = vec![inputs.ambient; map.cells().count()];
    if inputs.ambient == LightLevel::Bright {
        return levels;
    }
    let grid = map.grid();
    for lamp in &inputs.lamps {
        let space = &lamp.cells[..];
        if space.is_empty() || lamp.light.at(lamp.elevation).is_none() {
            continue;
        }
        // Lines only as far as the light goes (a cell more, for the corners of a big space): a
        // step is at least 5 ft whatever the rule.
        let cells = lamp.light.bright.saturating_add(lamp.light.dim) / 5 + 2;
        let reached = sweep::seen_cells_within(map, &inputs.blocks, &sight::space_corners(grid, space), cells);
        for ((cell, reached), level) in map.cells().zip(reached).zip(levels.iter_mut()) {
            if (!reached && !space.contains(&cell)) || *level == LightLevel::Bright {
                continue;
            }
            let here = [cell];
            let feet = range_between(grid, inputs.rule, lamp.spot(), Spot { cells: &here, elevation: 0 });
            if let Some(lit) = feet.and_then(|feet| lamp.light.at(feet)) {
                *level = (*level).max(lit);
            }
        }
    }
    levels
}

/// The last scene light computed, kept until what it depends on changes: the map and the command
/// line ask one scene many questions (`Scenario::field`), and its light is computed once.
#[derive(Default)]
pub struct LightCache(Mutex<Option<Arc<SceneLight>>>);

impl LightCache {
    /// The light of `map` with these inputs: the one kept if it was computed for them, else
    /// computed now and kept.
    pub fn get(&self, map: &TerrainMap, rule: DiagonalRule, ambient: LightLevel, lamps: Vec<Lamp>) -> Arc<SceneLight> {
        let mut kept = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(light) = kept.as_ref().filter(|l| l.is_for(map, rule, ambient, &lamps)) {
            return Arc::clone(light);
        }
        let light = Arc::new(SceneLight::new(map, rule, ambient, lamps));
        *kept = Some(Arc::clone(&light));
        light
    }
}

impl Clone for LightCache {
    fn clone(&self) -> Self {
        let kept = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        Self(Mutex::new(kept.clone()))
    }
}

/// A cache holds nothing of a scene's meaning: any two are equal.
impl PartialEq for LightCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for LightCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LightCache")
    }
}

/// The light a viewer sees a place in: darkvision within its range sees dim light as bright and
/// darkness as dim (SRD "Darkvision"). `feet_away` is the one distance, height included.
pub fn perceived(level: LightLevel, feet_away: u32, darkvision: u32) -> LightLevel {
    if darkvision > 0 && feet_away <= darkvision { level.step_up() } else { level }
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

    fn lamp(cell: Cell, bright: u32, dim: u32) -> Lamp {
        Lamp { cells: vec![cell], elevation: 0, light: LightSource { bright, dim } }
    }

    fn dark(map: &TerrainMap, rule: DiagonalRule, lamps: Vec<Lamp>) -> SceneLight {
        SceneLight::new(map, rule, LightLevel::Dark, lamps)
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
            let light = dark(&map, DiagonalRule::Standard, vec![lamp(centre, 20, 20)]);
            let along = |x: i32| light.at(&map, Cell::new(centre.x + x, centre.y), 0);
            assert_eq!(along(0), LightLevel::Bright, "{grid:?}");
            assert_eq!(along(4), LightLevel::Bright, "{grid:?}: 20 ft");
            assert_eq!(along(5), LightLevel::Dim, "{grid:?}: 25 ft");
            assert_eq!(along(8), LightLevel::Dim, "{grid:?}: 40 ft");
            assert_eq!(along(9), LightLevel::Dark, "{grid:?}: 45 ft");
        }
    }

    /// A light's radius is measured as every "within N feet" is (docs/rules.md, "Light and
    /// darkness"): under the DMG's optional diagonal rule ("Optional Rule: Diagonals": the second
    /// diagonal costs 10 feet), a rat four diagonals from a torch is 30 ft away, beyond its 20 ft
    /// of bright light; six diagonals are 45 ft, beyond its 40 ft of light. Under the standard
    /// rule, 20 and 30 ft. On hexes the rule changes nothing.
    #[test]
    fn a_lights_radius_follows_the_diagonal_rule() {
        let map = open(Grid::Square, 12, 12);
        let torch = || vec![lamp(Cell::new(0, 0), 20, 20)];
        let standard = dark(&map, DiagonalRule::Standard, torch());
        let alternating = dark(&map, DiagonalRule::Alternating, torch());
        let diagonal = |light: &SceneLight, n: i32| light.at(&map, Cell::new(n, n), 0);
        assert_eq!(diagonal(&standard, 4), LightLevel::Bright, "20 ft");
        assert_eq!(diagonal(&alternating, 4), LightLevel::Dim, "5 + 10 + 5 + 10 = 30 ft");
        assert_eq!(diagonal(&standard, 6), LightLevel::Dim, "30 ft");
        assert_eq!(diagonal(&alternating, 6), LightLevel::Dark, "45 ft");
        assert_eq!(diagonal(&alternating, 3), LightLevel::Bright, "20 ft");
        let hexes = open(Grid::Hex(HexOrientation::PointyTop), 12, 12);
        let hex_torch = || vec![lamp(Cell::new(0, 0), 20, 20)];
        assert_eq!(
            dark(&hexes, DiagonalRule::Alternating, hex_torch()).ground(),
            dark(&hexes, DiagonalRule::Standard, hex_torch()).ground()
        );
    }

    /// The one distance counts the height (docs/rules.md, "Elevation"): a torch 100 ft up lights
    /// nothing on the ground, and everything beside it up there; 15 ft up, the ground below is 15
    /// ft from it, in its bright light.
    #[test]
    fn a_lights_reach_counts_its_height() {
        let map = open(Grid::Square, 10, 10);
        let high = Lamp { elevation: 100, ..lamp(Cell::new(5, 5), 20, 20) };
        let light = dark(&map, DiagonalRule::Standard, vec![high]);
        assert!(light.ground().iter().all(|&l| l == LightLevel::Dark), "the ground is 100 ft below");
        assert_eq!(light.at(&map, Cell::new(6, 5), 100), LightLevel::Bright, "beside it, up there");
        assert_eq!(light.at(&map, Cell::new(6, 5), 75), LightLevel::Dim, "25 ft below it");
        let low = Lamp { elevation: 15, ..lamp(Cell::new(5, 5), 20, 20) };
        let light = dark(&map, DiagonalRule::Standard, vec![low]);
        assert_eq!(light.at(&map, Cell::new(5, 5), 0), LightLevel::Bright);
        assert_eq!(light.at(&map, Cell::new(9, 5), 0), LightLevel::Bright, "20 ft across");
        assert_eq!(light.at(&map, Cell::new(9, 9), 0), LightLevel::Bright);
    }

    #[test]
    fn walls_cast_shadows_and_the_brightest_light_counts() {
        let mut map = open(Grid::Square, 9, 3);
        for y in 0..3 {
            map.set(Cell::new(3, y), 1);
        }
        let lamps = vec![lamp(Cell::new(1, 1), 20, 20), lamp(Cell::new(6, 1), 5, 5)];
        let light = SceneLight::new(&map, DiagonalRule::Standard, LightLevel::Dim, lamps.clone());
        let at = |x, y| light.at(&map, Cell::new(x, y), 0);
        assert_eq!(at(2, 1), LightLevel::Bright);
        assert_eq!(at(4, 1), LightLevel::Dim, "behind the wall the torch doesn't reach: the scene's dim light");
        assert_eq!(at(7, 1), LightLevel::Bright, "the candle's bright 5 ft");
        assert_eq!(at(8, 1), LightLevel::Dim);
        assert_eq!(light.at(&map, Cell::new(4, 1), 10), LightLevel::Dim, "nor 10 ft up behind it");
        // In daylight nothing changes.
        let day = SceneLight::new(&map, DiagonalRule::Standard, LightLevel::Bright, lamps);
        assert!(day.ground().iter().all(|&l| l == LightLevel::Bright));
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

    /// The cache computes a scene's light once, and again when a lamp moves or a wall changes.
    #[test]
    fn the_cache_recomputes_only_when_the_light_would_change() {
        let mut map = open(Grid::Square, 10, 3);
        let cache = LightCache::default();
        let lamps = || vec![lamp(Cell::new(0, 1), 20, 0)];
        let first = cache.get(&map, DiagonalRule::Standard, LightLevel::Dark, lamps());
        let again = cache.get(&map, DiagonalRule::Standard, LightLevel::Dark, lamps());
        assert!(Arc::ptr_eq(&first, &again), "kept");
        let moved = cache.get(&map, DiagonalRule::Standard, LightLevel::Dark, vec![lamp(Cell::new(1, 1), 20, 0)]);
        assert!(!Arc::ptr_eq(&first, &moved));
        map.set(Cell::new(2, 0), 1);
        let walled = cache.get(&map, DiagonalRule::Standard, LightLevel::Dark, vec![lamp(Cell::new(1, 1), 20, 0)]);
        assert!(!Arc::ptr_eq(&moved, &walled), "a wall casts a new shadow");
        map.set(Cell::new(2, 0), 0);
        let cleared = cache.get(&map, DiagonalRule::Standard, LightLevel::Dark, vec![lamp(Cell::new(1, 1), 20, 0)]);
        assert_eq!(cleared.ground(), moved.ground());
    }
}
