//! What the benchmarks share: the seeded map with 20% walls they all run on, and the median of
//! repeated timings.

use std::hint::black_box;
use std::time::{Duration, Instant};

use battlemap::rules::terrain::{Terrain, TerrainKind};
use battlemap::rules::{Cell, Grid, TerrainMap};
use rand::RngExt;
use rand::rngs::StdRng;

/// A `side` by `side` map on `grid` where each cell but `keep` is a wall one time in five,
/// drawn from `rng`; with the map's cells in storage order.
pub(crate) fn walled_map(grid: Grid, side: u32, keep: Cell, rng: &mut StdRng) -> (TerrainMap, Vec<Cell>) {
    let palette = vec![Terrain::standard(TerrainKind::Floor), Terrain::standard(TerrainKind::Wall)];
    let mut map = TerrainMap::filled(grid, side, side, palette);
    let cells: Vec<Cell> = map.cells().collect();
    for &cell in &cells {
        if cell != keep && rng.random_bool(0.2) {
            map.set(cell, 1);
        }
    }
    (map, cells)
}

/// The median time of `f`, run for at least `least` and at least `samples` times.
pub(crate) fn median_time<T>(least: Duration, samples: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut times = Vec::new();
    let started = Instant::now();
    while started.elapsed() < least || times.len() < samples {
        let t = Instant::now();
        black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}
