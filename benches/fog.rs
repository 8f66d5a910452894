//! The fog of war's update (issue 30: at most 5 ms a frame): what four party members see on a
//! 200×200 map with 20% walls (`Field::party_sight`, the union of their sight sweeps), on squares
//! and on pointy-top hexes, in daylight and in a dark scene where two carry torches and two have
//! darkvision. The scene is built from scenario text, as the map and the command line build it.
//! `cargo bench --bench fog`; the figures go in docs/performance.md.

#[expect(dead_code, reason = "the fog builds its map from scenario text; it shares only the timing")]
mod common;

use std::time::Duration;

use battlemap::rules::{Grid, HexOrientation};
use battlemap::scenario::Scenario;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const SIDE: usize = 200;

/// A 200×200 scene with 20% walls drawn from `seed` and four party members near the middle (on
/// open floor); in the dark, two carry torches and two have darkvision.
fn scene(grid: &str, dark: bool, seed: u64) -> Scenario {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rows: Vec<Vec<char>> =
        (0..SIDE).map(|_| (0..SIDE).map(|_| if rng.random_bool(0.2) { '#' } else { '.' }).collect()).collect();
    let places = [(100, 100), (104, 100), (100, 104), (96, 98)];
    let mut creatures = String::new();
    for (i, &(col, row)) in places.iter().enumerate() {
        rows[row][col] = '.';
        let senses = match (dark, i % 2) {
            (false, _) => String::new(),
            (true, 0) => ", light: (bright: 20, dim: 20)".to_owned(),
            (true, _) => ", darkvision: 60".to_owned(),
        };
        // Axial coordinates on hexes.
        let kind = if grid == "Square" { Grid::Square } else { Grid::Hex(HexOrientation::PointyTop) };
        let at = kind.from_storage(col as i32, row as i32);
        creatures.push_str(&format!(
            "(id: \"pc{i}\", name: \"PC {i}\", side: Party, size: Medium, at: ({}, {}), speed: 30, ac: 12, hp: 10{senses}),",
            at.x, at.y
        ));
    }
    let map: Vec<String> = rows.iter().map(|r| format!("\"{}\"", r.iter().collect::<String>())).collect();
    let light = if dark { "light: Dark," } else { "" };
    let text =
        format!("Scenario(name: \"Fog\", grid: {grid}, {light} map: [{}], creatures: [{creatures}])", map.join(","));
    Scenario::from_ron("fog.ron", &text).unwrap_or_else(|e| panic!("{e}"))
}

fn main() {
    println!("fog of war: four party members on a {SIDE}×{SIDE} map with 20% walls (median of repeated runs)");
    for grid in ["Square", "Hex(PointyTop)"] {
        for dark in [false, true] {
            let scenario = scene(grid, dark, 7);
            let fighters = scenario.fighters();
            let seen = scenario.field(&fighters).party_sight();
            let time = common::median_time(Duration::from_secs(2), 5, || scenario.field(&fighters).party_sight());
            let lit = if dark { "dark, 2 torches, 2 darkvision" } else { "daylight" };
            println!(
                "{:<60} {:>8.2} ms   {} cells seen",
                format!("party sight, {grid}, {lit}"),
                time.as_secs_f64() * 1e3,
                seen.iter().filter(|&&s| s).count()
            );
        }
    }
}
