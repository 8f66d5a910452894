//! Cover and line of sight on a 200×200 map with 20% walls and 300 creatures: cover from one
//! attacker to every creature, a cover map of every cell, and the sight overlay (line of sight to
//! every cell: the sweep, and the per-cell rule it replaced) against `doryen-fov`'s shadowcasting
//! field of view on the same map; then the sight overlay on a 200×200 pointy-top hex map with 20%
//! walls. `cargo bench --bench sight`; the figures go in docs/performance.md.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use battlemap::rules::creature::Side;
use battlemap::rules::lattice;
use battlemap::rules::movement::Occupant;
use battlemap::rules::sight::{
    CoverContext, From, SightBoard, cover_map, line_of_sight, unseen_cells, unseen_cells_per_cell,
};
use battlemap::rules::sweep::seen_cells;
use battlemap::rules::{Cell, Grid, HexOrientation, Size};
use doryen_fov::{FovAlgorithm, FovRecursiveShadowCasting, FovRestrictive, MapData};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const SIDE: u32 = 200;

fn time<T>(f: impl FnMut() -> T) -> Duration {
    common::median_time(Duration::from_secs(2), 5, f)
}

/// One run, for the slow reference where the repeated samples of [`time`] would take minutes.
fn once<T>(f: impl FnOnce() -> T) -> Duration {
    let t = Instant::now();
    black_box(f());
    t.elapsed()
}

fn report(name: &str, duration: Duration, note: &str) {
    println!("{name:<60} {:>10.2} ms   {note}", duration.as_secs_f64() * 1e3);
}

fn main() {
    let mut rng = StdRng::seed_from_u64(11);
    let me = Cell::new(100, 100);
    let (map, cells) = common::walled_map(Grid::Square, SIDE, me, &mut rng);
    let mut tokens =
        vec![Occupant { id: "me".into(), cells: vec![me], side: Side::Party, size: Size::Medium, is_object: false }];
    while tokens.len() < 301 {
        let cell = cells[rng.random_range(0..cells.len())];
        if map.terrain(cell).is_some_and(|t| !t.blocks_movement) && !tokens.iter().any(|t| t.cells[0] == cell) {
            tokens.push(Occupant {
                id: format!("c{}", tokens.len()),
                cells: vec![cell],
                side: Side::Enemy,
                size: Size::Medium,
                is_object: false,
            });
        }
    }
    let board = SightBoard { map: &map, tokens: &tokens };
    let from = From::Space { cells: &tokens[0].cells, id: Some("me") };

    let degrees = |rulings: &[battlemap::rules::sight::Cover]| {
        let mut counts = [0; 4];
        for r in rulings {
            counts[r.degree as usize] += 1;
        }
        format!("none {}, half {}, three-quarters {}, total {}", counts[0], counts[1], counts[2], counts[3])
    };
    let all = |board: &SightBoard| {
        let context = CoverContext::new(board, from);
        tokens[1..].iter().map(|t| context.cover(Some(&t.id), &t.cells)).collect::<Vec<_>>()
    };
    let rulings = all(&board);
    report("cover, one attacker to 300 creatures", time(|| all(&board)), &degrees(&rulings));

    let floor: Vec<Cell> =
        cells.iter().copied().filter(|&c| map.terrain(c).is_some_and(|t| !t.blocks_movement) && c != me).collect();
    let map_rulings = cover_map(&board, from, &floor);
    report(
        &format!("cover map, every floor cell ({}), both cores", floor.len()),
        time(|| cover_map(&board, from, &floor)),
        &degrees(&map_rulings),
    );
    let one_core = |board: &SightBoard| {
        let context = CoverContext::new(board, from);
        floor.iter().map(|&c| context.cover(None, &[c])).collect::<Vec<_>>()
    };
    report("cover map, every floor cell, one core", time(|| one_core(&board)), "");

    let sight = |board: &SightBoard| cells.len() - unseen_cells(board, &tokens[0].cells).len();
    let seen = sight(&board);
    let swept = time(|| sight(&board));
    report("sight overlay: line of sight to every cell (sweep, unseen_cells)", swept, &format!("{seen} cells seen"));
    let blocks: Vec<bool> = map.terrains().map(|t| t.blocks_sight).collect();
    let corners = lattice::corners(Grid::Square, me);
    report("  of which the sweep itself (sweep::seen_cells)", time(|| seen_cells(&map, &blocks, &corners)), "");
    let per_cell = |board: &SightBoard| cells.len() - unseen_cells_per_cell(board, &tokens[0].cells).len();
    let seen_per_cell = per_cell(&board);
    let reference = time(|| per_cell(&board));
    report(
        "sight overlay, the per-cell rule (unseen_cells_per_cell)",
        reference,
        &format!("{seen_per_cell} cells seen; sweep {:.0}x faster", reference.as_secs_f64() / swept.as_secs_f64()),
    );
    let one_by_one =
        |board: &SightBoard| cells.iter().filter(|&&c| line_of_sight(board, &tokens[0].cells, &[c]).is_some()).count();
    report("line of sight to every cell, one query each", time(|| one_by_one(&board)), "");

    let mut data = MapData::new(SIDE as usize, SIDE as usize);
    for &cell in &cells {
        data.set_transparent(cell.x as usize, cell.y as usize, map.terrain(cell).is_some_and(|t| !t.blocks_sight));
    }
    for (name, mut algorithm) in [
        ("doryen-fov restrictive shadowcasting", Box::new(FovRestrictive::new()) as Box<dyn FovAlgorithm>),
        ("doryen-fov recursive shadowcasting", Box::new(FovRecursiveShadowCasting::new())),
    ] {
        let mut run = || {
            data.clear_fov();
            algorithm.compute_fov(&mut data, me.x as usize, me.y as usize, 0, true);
            cells.iter().filter(|c| data.is_in_fov(c.x as usize, c.y as usize)).count()
        };
        let seen = run();
        let peer = time(&mut run);
        report(
            &format!("field of view to every cell ({name})"),
            peer,
            &format!("{seen} cells seen; the sweep takes {:.1}x as long", swept.as_secs_f64() / peer.as_secs_f64()),
        );
    }

    // The same density of walls on a pointy-top hex map (doryen-fov has no hexes).
    let grid = Grid::Hex(HexOrientation::PointyTop);
    let me = grid.from_storage(SIDE as i32 / 2, SIDE as i32 / 2);
    let (hexes, hex_cells) = common::walled_map(grid, SIDE, me, &mut rng);
    let viewer = [me];
    let board = SightBoard { map: &hexes, tokens: &[] };
    let sight = |board: &SightBoard| hex_cells.len() - unseen_cells(board, &viewer).len();
    let seen = sight(&board);
    let swept = time(|| sight(&board));
    report("sight overlay, pointy-top hexes (sweep, unseen_cells)", swept, &format!("{seen} cells seen"));
    let blocks: Vec<bool> = hexes.terrains().map(|t| t.blocks_sight).collect();
    let corners = lattice::corners(grid, me);
    report("  of which the sweep itself (sweep::seen_cells)", time(|| seen_cells(&hexes, &blocks, &corners)), "");
    let mut seen_per_cell = 0;
    let reference = once(|| seen_per_cell = hex_cells.len() - unseen_cells_per_cell(&board, &viewer).len());
    report(
        "sight overlay, pointy-top hexes, the per-cell rule (one run)",
        reference,
        &format!("{seen_per_cell} cells seen; sweep {:.0}x faster", reference.as_secs_f64() / swept.as_secs_f64()),
    );
}
