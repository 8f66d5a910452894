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
/// 20/20, a lantern 30/30, a candle 5/5). `sunlight` when it is the sun's (daylight through a
/// grate or a window), which harms what has Sunlight Sensitivity ([`SceneLight::in_sunlight`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightSource {
    pub bright: u32,
    pub dim: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sunlight: bool,
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

impl Inputs {
    fn of(map: &TerrainMap, rule: DiagonalRule, ambient: LightLevel, lamps: Vec<Lamp>) -> Self {
        Self {
            ambient,
            rule,
            grid: map.grid(),
            size: (map.width(), map.height()),
            blocks: map.terrains().map(|t| t.blocks_sight).collect(),
            lamps,
        }
    }

    /// Whether these are the inputs of `map` with these lights.
    fn are(&self, map: &TerrainMap, rule: DiagonalRule, ambient: LightLevel, lamps: &[Lamp]) -> bool {
        self.ambient == ambient
            && self.rule == rule
            && self.grid == map.grid()
            && self.size == (map.width(), map.height())
            && self.lamps == lamps
            && self.blocks.iter().copied().eq(map.terrains().map(|t| t.blocks_sight))
    }
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
        let inputs = Inputs::of(map, rule, ambient, lamps);
        let mut ground = vec![ambient; map.cells().count()];
        brighten(map, &inputs, &inputs.lamps, &mut ground);
        Self { inputs, ground }
    }

    /// This light with `more` lamps lit besides (the lights creatures carry, over the scene's
    /// fixed ones): only the new lamps are swept.
    pub fn with(&self, map: &TerrainMap, more: Vec<Lamp>) -> Self {
        let mut inputs = self.inputs.clone();
        let mut ground = self.ground.clone();
        brighten(map, &inputs, &more, &mut ground);
        inputs.lamps.extend(more);
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

    /// The light on `cell`, `elevation` feet above the ground: the ground's at 0; higher up, each
    /// lamp's by the one distance to that height, where a line from the lamp's space reaches the
    /// cell. Off the map, darkness's own level: the scene's.
    pub fn at(&self, map: &TerrainMap, cell: Cell, elevation: u32) -> LightLevel {
        let Some(index) = map.index_of(cell) else { return self.inputs.ambient };
        if elevation == 0 {
            return self.ground[index];
        }
        self.inputs
            .lamps
            .iter()
            .filter_map(|lamp| self.lamp_light(map, lamp, cell, elevation))
            .fold(self.inputs.ambient, LightLevel::max)
    }

    /// Which cells of the map are in sunlight on the ground (storage order; empty when no light of
    /// the sun is lit): [`Self::in_sunlight`].
    pub fn sunlit(&self, map: &TerrainMap) -> Vec<bool> {
        if !self.inputs.lamps.iter().any(|lamp| lamp.light.sunlight) {
            return Vec::new();
        }
        map.cells().map(|cell| self.in_sunlight(map, cell, 0)).collect()
    }

    /// Whether `cell`, `elevation` feet above the ground, is in sunlight: a light of the sun
    /// reaches it, bright or dim (SRD monsters' "Sunlight Sensitivity": "While in sunlight, the
    /// kobold has disadvantage on attack rolls, as well as on Wisdom (Perception) checks that rely
    /// on sight"; docs/rules.md, "Sunlight").
    pub fn in_sunlight(&self, map: &TerrainMap, cell: Cell, elevation: u32) -> bool {
        map.contains(cell)
            && self
                .inputs
                .lamps
                .iter()
                .any(|lamp| lamp.light.sunlight && self.lamp_light(map, lamp, cell, elevation).is_some())
    }

    /// The light `lamp` sheds on `cell` at `elevation`: within its radius by the one distance,
    /// where a line from its space reaches the cell.
    fn lamp_light(&self, map: &TerrainMap, lamp: &Lamp, cell: Cell, elevation: u32) -> Option<LightLevel> {
        let here = [cell];
        let spot = Spot { cells: &here, elevation };
        let feet = range_between(self.inputs.grid, self.inputs.rule, lamp.spot(), spot)?;
        let lit = lamp.light.at(feet)?;
        let board = SightBoard { map, tokens: &[] };
        (lamp.cells.contains(&cell) || sight::line_of_sight(&board, &lamp.cells, &here).is_some()).then_some(lit)
    }
}

/// How many times a line to one cell may cost what a sweep costs per cell of a light's reach,
/// for [`brighten`] to look for lines cell by cell rather than sweep (measured: docs/performance.md,
/// "Scene costs").
const LINES_PER_SWEPT_CELL: usize = 8;

/// Brightens `ground` with each of `lamps` on the cells a line from its space reaches, within its
/// radius by the one distance. Only cells not yet in bright light are looked at, and only those
/// a lamp would light better: a lamp with no cell that blocks sight anywhere near reaches every
/// cell in its reach (no lines at all); one that would light few cells better (counted on a
/// sample) looks for a line to each (`sight::line_of_sight`); the others sweep their reach
/// (`sweep::seen_list_within`) and look at the cells the sweep saw. All three give the same
/// cells: the sight rule's (a property test checks it).
fn brighten(map: &TerrainMap, inputs: &Inputs, lamps: &[Lamp], ground: &mut [LightLevel]) {
    if inputs.ambient == LightLevel::Bright {
        return;
    }
    let grid = map.grid();
    let blockers = Blockers::of(map, &inputs.blocks);
    let board = SightBoard { map, tokens: &[] };
    let width = (map.width() as usize).max(1);
    let cell_at = |i: usize| grid.from_storage((i % width) as i32, (i / width) as i32);
    // The cells not yet in bright light (storage order): the only ones a lamp can light better.
    let mut unlit: Vec<usize> = (0..ground.len()).filter(|&i| ground[i] != LightLevel::Bright).collect();
    for lamp in lamps {
        let space = &lamp.cells[..];
        if unlit.is_empty() {
            break;
        }
        if space.is_empty() || lamp.light.at(lamp.elevation).is_none() {
            continue;
        }
        // The cells within its reach: a step is at least 5 ft whatever the rule.
        let steps = lamp.light.bright.saturating_add(lamp.light.dim) / 5 + 1;
        let reach = blockers.reach(grid, space, steps);
        // The light `lamp` sheds on the cell at `i`, if it is better than the cell has.
        let better = |i: usize, ground: &[LightLevel]| {
            let here = [cell_at(i)];
            let feet = range_between(grid, inputs.rule, lamp.spot(), Spot { cells: &here, elevation: 0 })?;
            lamp.light.at(feet).filter(|lit| *lit > ground[i])
        };
        let near: Vec<usize> = unlit.iter().copied().filter(|&i| reach.holds(i % width, i / width)).collect();
        let clear = blockers.none_in(grid, &reach);
        let mut changed = false;
        // How many of the cells near it it would light better: counted on a sample.
        let step = (near.len() / 256).max(1);
        let sampled = near.iter().step_by(step).filter(|&&i| better(i, ground).is_some()).count();
        if clear || sampled * step * LINES_PER_SWEPT_CELL < reach.area() {
            for i in near {
                let Some(lit) = better(i, ground) else { continue };
                let cell = cell_at(i);
                if clear || space.contains(&cell) || sight::line_of_sight(&board, space, &[cell]).is_some() {
                    ground[i] = lit;
                    changed = true;
                }
            }
        } else {
            // The sweep's reach is in cells from a corner of the space, not steps: a cell `steps`
            // steps away is that many cells off on hexes, up to √2 times as many on squares (a
            // diagonal step), with a cell to spare.
            let cells = if grid.is_hex() { steps + 1 } else { steps.saturating_mul(3) / 2 + 2 };
            let corners = sight::space_corners(grid, space);
            let seen = sweep::seen_list_within(map, &inputs.blocks, &corners, cells);
            let own = space.iter().filter_map(|&c| map.index_of(c));
            for i in seen.into_iter().chain(own) {
                if let Some(lit) = better(i, ground) {
                    ground[i] = lit;
                    changed = true;
                }
            }
        }
        if changed {
            unlit.retain(|&i| ground[i] != LightLevel::Bright);
        }
    }
}

/// A rectangle of a map's storage holding a lamp's reach: columns `c0..c1`, rows `r0..r1`, before
/// they are clamped to the map.
struct Reach {
    c0: i64,
    c1: i64,
    r0: i64,
    r1: i64,
    width: usize,
    height: usize,
}

impl Reach {
    /// The rectangle clamped to the map.
    fn on_map(&self) -> (usize, usize, usize, usize) {
        let clamp = |v: i64, most: usize| v.clamp(0, most as i64) as usize;
        (
            clamp(self.c0, self.width),
            clamp(self.c1, self.width),
            clamp(self.r0, self.height),
            clamp(self.r1, self.height),
        )
    }

    fn holds(&self, col: usize, row: usize) -> bool {
        let (c0, c1, r0, r1) = self.on_map();
        (c0..c1).contains(&col) && (r0..r1).contains(&row)
    }

    fn area(&self) -> usize {
        let (c0, c1, r0, r1) = self.on_map();
        (c1 - c0) * (r1 - r0)
    }
}

/// Where the map blocks sight, summed over rectangles of its storage (a summed-area table), to
/// tell at once whether any cell near a lamp casts a shadow.
struct Blockers {
    width: usize,
    height: usize,
    /// `sums[row * (width + 1) + col]`: the blocking cells above and left of (col, row).
    sums: Vec<u32>,
}

impl Blockers {
    fn of(map: &TerrainMap, blocks: &[bool]) -> Self {
        let (width, height) = (map.width() as usize, map.height() as usize);
        let mut sums = vec![0u32; (width + 1) * (height + 1)];
        for row in 0..height {
            let mut line = 0;
            for col in 0..width {
                line += u32::from(blocks.get(row * width + col).copied().unwrap_or(true));
                sums[(row + 1) * (width + 1) + col + 1] = sums[row * (width + 1) + col + 1] + line;
            }
        }
        Self { width, height, sums }
    }

    /// The storage rectangle holding every cell within `cells` steps of `space`: a step changes a
    /// row or a column by at most one, on squares and hexes alike, and a step more covers a
    /// space's corners.
    fn reach(&self, grid: Grid, space: &[Cell], cells: u32) -> Reach {
        let reach = i64::from(cells) + 1;
        let storage: Vec<(i64, i64)> =
            space.iter().map(|&c| grid.to_storage(c)).map(|(c, r)| (i64::from(c), i64::from(r))).collect();
        let lo = |f: fn(&(i64, i64)) -> i64| storage.iter().map(f).min().unwrap_or(0) - reach;
        let hi = |f: fn(&(i64, i64)) -> i64| storage.iter().map(f).max().unwrap_or(0) + reach + 1;
        Reach {
            c0: lo(|p| p.0),
            c1: hi(|p| p.0),
            r0: lo(|p| p.1),
            r1: hi(|p| p.1),
            width: self.width,
            height: self.height,
        }
    }

    /// Whether no cell blocks sight in or near `reach`, so that every line from the lamp's corners
    /// to a cell in it is clear. On squares a line between two points of the rectangle stays in
    /// it, and the map's edge is straight. On hexes the rectangle's sides zigzag, so a line may
    /// clip a hex just outside (two more columns and rows are looked at), and so does the map's
    /// edge, which may block a line that hugs it: the reach must stay off it.
    fn none_in(&self, grid: Grid, reach: &Reach) -> bool {
        let margin = if grid.is_hex() { 2 } else { 0 };
        let (c0, c1, r0, r1) = (reach.c0 - margin, reach.c1 + margin, reach.r0 - margin, reach.r1 + margin);
        let (w, h) = (self.width as i64, self.height as i64);
        if grid.is_hex() && (c0 < 0 || r0 < 0 || c1 > w || r1 > h) {
            return false;
        }
        let clamp = |v: i64, most: i64| v.clamp(0, most) as usize;
        let (c0, c1, r0, r1) = (clamp(c0, w), clamp(c1, w), clamp(r0, h), clamp(r1, h));
        let at = |col: usize, row: usize| self.sums[row * (self.width + 1) + col];
        at(c1, r1) + at(c0, r0) == at(c0, r1) + at(c1, r0)
    }
}

/// The last scene light computed, and its fixed part (the scene's lamps, without the lights its
/// creatures carry), each kept until what it depends on changes: the map and the command line ask
/// one scene many questions (`Scenario::field`), and a torch-bearer's move sweeps only the carried
/// lights again.
#[derive(Default)]
pub struct LightCache(Mutex<Kept>);

#[derive(Clone, Default)]
struct Kept {
    fixed: Option<Arc<SceneLight>>,
    all: Option<Arc<SceneLight>>,
}

impl LightCache {
    /// The light of `map` with its `fixed` lamps and the `carried` lights: the one kept if it was
    /// computed for them, else computed now (over the kept fixed part when that still holds) and
    /// kept.
    /// Returns the fixed part and the whole light.
    pub fn get(
        &self,
        map: &TerrainMap,
        rule: DiagonalRule,
        ambient: LightLevel,
        fixed: Vec<Lamp>,
        carried: Vec<Lamp>,
    ) -> (Arc<SceneLight>, Arc<SceneLight>) {
        let mut kept = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let reused = kept.fixed.clone().filter(|l| l.inputs.are(map, rule, ambient, &fixed));
        let base = reused.clone().unwrap_or_else(|| Arc::new(SceneLight::new(map, rule, ambient, fixed)));
        // The whole light holds while the fixed part does and the carried lights are where they were.
        let whole = reused.and(kept.all.clone()).filter(|l| l.lamps().get(base.lamps().len()..) == Some(&carried[..]));
        let light = whole.unwrap_or_else(|| Arc::new(base.with(map, carried)));
        *kept = Kept { fixed: Some(Arc::clone(&base)), all: Some(Arc::clone(&light)) };
        (base, light)
    }

    /// Forgets the light kept: the next question computes it.
    pub fn clear(&self) {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Kept::default();
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
        Lamp { cells: vec![cell], elevation: 0, light: LightSource { bright, dim, sunlight: false } }
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

    /// The cache computes a scene's light once, and again when a lamp moves or a wall changes;
    /// a carried light that moves is lit again over the fixed lamps' light, which is kept.
    #[test]
    fn the_cache_recomputes_only_when_the_light_would_change() {
        let mut map = open(Grid::Square, 10, 3);
        let cache = LightCache::default();
        let lamps = || vec![lamp(Cell::new(0, 1), 20, 0)];
        let get = |map: &TerrainMap, fixed, carried| {
            cache.get(map, DiagonalRule::Standard, LightLevel::Dark, fixed, carried).1
        };
        let first = get(&map, lamps(), Vec::new());
        let again = get(&map, lamps(), Vec::new());
        assert!(Arc::ptr_eq(&first, &again), "kept");
        let moved = get(&map, vec![lamp(Cell::new(1, 1), 20, 0)], Vec::new());
        assert!(!Arc::ptr_eq(&first, &moved));
        map.set(Cell::new(2, 0), 1);
        let walled = get(&map, vec![lamp(Cell::new(1, 1), 20, 0)], Vec::new());
        assert!(!Arc::ptr_eq(&moved, &walled), "a wall casts a new shadow");
        map.set(Cell::new(2, 0), 0);
        let cleared = get(&map, vec![lamp(Cell::new(1, 1), 20, 0)], Vec::new());
        assert_eq!(cleared.ground(), moved.ground());
        let torch = |x| vec![lamp(Cell::new(x, 0), 5, 0)];
        let carried = get(&map, lamps(), torch(8));
        let whole = SceneLight::new(&map, DiagonalRule::Standard, LightLevel::Dark, [lamps(), torch(8)].concat());
        assert_eq!(carried.ground(), whole.ground(), "the carried light over the fixed one is the whole light");
        let fixed_part = cache.0.lock().expect("kept").fixed.clone().expect("the fixed part");
        let walked = get(&map, lamps(), torch(9));
        let kept = cache.0.lock().expect("kept").fixed.clone().expect("the fixed part");
        assert!(Arc::ptr_eq(&fixed_part, &kept), "the fixed lamps' light is kept when a torch moves");
        assert_eq!(walked.at(&map, Cell::new(9, 0), 0), LightLevel::Bright);
    }

    /// A long light's diagonal reach: 35 squares along the diagonal is 175 ft under the standard
    /// rule, in the dim light of a lamp of 0/175 ft, though its centre is 49 cells from the lamp's
    /// corner (the sweep measures its reach in cells, not steps). One wall off the diagonal, in
    /// its reach, makes the lamp sweep.
    #[test]
    fn a_long_light_reaches_along_the_diagonal() {
        let mut map = open(Grid::Square, 40, 40);
        map.set(Cell::new(0, 30), 1);
        let light = dark(&map, DiagonalRule::Standard, vec![lamp(Cell::new(1, 1), 0, 175)]);
        assert_eq!(light.at(&map, Cell::new(36, 36), 0), LightLevel::Dim);
        assert_eq!(light.at(&map, Cell::new(36, 30), 0), LightLevel::Dim);
        assert_eq!(light.at(&map, Cell::new(37, 37), 0), LightLevel::Dark, "180 ft");
    }

    /// The three ways a lamp finds the cells it reaches (no blocker near, a line to each cell, a
    /// sweep of its reach) agree with the sweep alone, on random maps crowded or sparse with walls,
    /// squares and hexes, many lamps of every size.
    #[test]
    fn every_way_to_light_a_cell_agrees_with_the_sweep() {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        for seed in 0..60u64 {
            let mut rng = StdRng::seed_from_u64(seed);
            let grid = [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)]
                [seed as usize % 3];
            let (w, h) = (rng.random_range(4..40u32), rng.random_range(4..40u32));
            let mut map = open(grid, w, h);
            let walls = [0.0, 0.02, 0.1, 0.3][seed as usize % 4];
            let cells: Vec<Cell> = map.cells().collect();
            for &cell in &cells {
                if rng.random_bool(walls) {
                    map.set(cell, 1);
                }
            }
            let lamps: Vec<Lamp> = (0..rng.random_range(1..12))
                .map(|_| {
                    let cell = cells[rng.random_range(0..cells.len())];
                    let (bright, dim) = (rng.random_range(0..24) * 5, rng.random_range(0..24) * 5);
                    Lamp {
                        cells: vec![cell],
                        elevation: [0, 0, 10][rng.random_range(0..3)],
                        light: LightSource { bright, dim, sunlight: false },
                    }
                })
                .collect();
            let rule = [DiagonalRule::Standard, DiagonalRule::Alternating][seed as usize % 2];
            let light = SceneLight::new(&map, rule, LightLevel::Dark, lamps.clone());
            let blocks: Vec<bool> = map.terrains().map(|t| t.blocks_sight).collect();
            let mut plain = vec![LightLevel::Dark; cells.len()];
            for lamp in &lamps {
                let seen = sweep::seen_cells(&map, &blocks, &sight::space_corners(grid, &lamp.cells));
                for (i, &cell) in cells.iter().enumerate() {
                    let here = [cell];
                    let feet = range_between(grid, rule, lamp.spot(), Spot { cells: &here, elevation: 0 });
                    if let Some(lit) =
                        feet.and_then(|f| lamp.light.at(f)).filter(|_| seen[i] || lamp.cells.contains(&cell))
                    {
                        plain[i] = plain[i].max(lit);
                    }
                }
            }
            assert_eq!(light.ground(), &plain[..], "seed {seed}, {grid:?}, {walls} walls");
        }
    }
}
