//! Reach on a 200×200 map with 20% walls and 300 creatures, square (both diagonal rules) and
//! hex, against `pathfinding::dijkstra_all` (squares, standard rule) and `hexx`'s
//! `field_of_movement` (hexes) on the same graph. `cargo bench --bench movement`; the figures go
//! in docs/performance.md.

mod common;

use std::time::Duration;

use battlemap::rules::creature::Side;
use battlemap::rules::distance::{DiagonalParity, DiagonalRule};
use battlemap::rules::movement::{self, Board, Mover, Occupant};
use battlemap::rules::{Cell, Grid, HexOrientation, Size, TerrainMap};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const SIDE: u32 = 200;

struct Scene {
    map: TerrainMap,
    others: Vec<Occupant>,
    start: Cell,
}

/// A seeded map: 20% walls, 300 Medium creatures (half of them hostile), the mover in the middle.
fn scene(grid: Grid) -> Scene {
    let mut rng = StdRng::seed_from_u64(7);
    let start = grid.from_storage(SIDE as i32 / 2, SIDE as i32 / 2);
    let (map, cells) = common::walled_map(grid, SIDE, start, &mut rng);
    let mut others = Vec::new();
    while others.len() < 300 {
        let cell = cells[rng.random_range(0..cells.len())];
        let free = map.terrain(cell).is_some_and(|t| !t.blocks_movement) && cell != start;
        if free && !others.iter().any(|o: &Occupant| o.cells[0] == cell) {
            let side = if others.len() % 2 == 0 { Side::Enemy } else { Side::Ally };
            others.push(Occupant {
                id: format!("c{}", others.len()),
                cells: vec![cell],
                side,
                size: Size::Medium,
                is_object: false,
            });
        }
    }
    Scene { map, others, start }
}

/// Runs `f` repeatedly for about a second and returns the median time of one run.
fn time<T>(f: impl FnMut() -> T) -> Duration {
    common::median_time(Duration::from_secs(1), 10, f)
}

fn report(name: &str, duration: Duration, cells: usize) {
    println!("{name:<58} {:>10.1} µs   {cells:>6} cells", duration.as_secs_f64() * 1e6);
}

fn main() {
    let mover = Mover { size: Size::Medium, square_side: None, side: Side::Party, crawling: false };
    let square = scene(Grid::Square);
    for budget in [60, 240] {
        for rule in [DiagonalRule::Standard, DiagonalRule::Alternating] {
            let board = Board { map: &square.map, rule, others: &square.others };
            let cells = movement::reach(&board, &mover, square.start, budget, DiagonalParity::default()).cells().len();
            let t =
                time(|| movement::reach(&board, &mover, square.start, budget, DiagonalParity::default()).cells().len());
            report(&format!("battlemap reach, square, {budget} ft, {rule:?}"), t, cells);
        }
        // The peer: the same graph (standard rule, walls and corners, hostile creatures block,
        // allies cost double), bounded like ours to cells within budget/5 steps of the start.
        let radius = (budget / 5) as i32;
        let board = Board { map: &square.map, rule: DiagonalRule::Standard, others: &square.others };
        let occupied: std::collections::HashMap<Cell, Side> =
            square.others.iter().map(|o| (o.cells[0], o.side)).collect();
        let blocked = |c: Cell| board.map.terrain(c).is_none_or(|t| t.blocks_movement);
        let successors = |&c: &Cell| -> Vec<(Cell, u32)> {
            battlemap::rules::grid::SQUARE_STEPS
                .iter()
                .filter_map(|&(dx, dy)| {
                    let n = c.offset(dx, dy);
                    let far = (n.x - square.start.x).abs() > radius || (n.y - square.start.y).abs() > radius;
                    if far
                        || blocked(n)
                        || (dx != 0 && dy != 0 && (blocked(c.offset(dx, 0)) || blocked(c.offset(0, dy))))
                    {
                        return None;
                    }
                    match occupied.get(&n) {
                        Some(Side::Enemy) => None,
                        Some(_) => Some((n, 10)),
                        None => Some((n, 5)),
                    }
                })
                .collect()
        };
        let peer = pathfinding::prelude::dijkstra_all(&square.start, successors);
        let within = peer.values().filter(|(_, cost)| *cost <= budget).count();
        let t = time(|| pathfinding::prelude::dijkstra_all(&square.start, successors).len());
        report(&format!("pathfinding::dijkstra_all, square, {budget} ft box"), t, within);
    }
    for orientation in [HexOrientation::PointyTop] {
        let grid = Grid::Hex(orientation);
        let hex = scene(grid);
        for budget in [60, 240] {
            let board = Board { map: &hex.map, rule: DiagonalRule::Standard, others: &hex.others };
            let cells = movement::reach(&board, &mover, hex.start, budget, DiagonalParity::default()).cells().len();
            let t =
                time(|| movement::reach(&board, &mover, hex.start, budget, DiagonalParity::default()).cells().len());
            report(&format!("battlemap reach, hex, {budget} ft"), t, cells);
            // hexx: cost per hex is 1 + the returned extra; walls and hostile creatures are None.
            let occupied: std::collections::HashMap<Cell, Side> =
                hex.others.iter().map(|o| (o.cells[0], o.side)).collect();
            let cost = |h: hexx::Hex| -> Option<u32> {
                let c = Cell::from_hex(h);
                if hex.map.terrain(c).is_none_or(|t| t.blocks_movement) {
                    return None;
                }
                match occupied.get(&c) {
                    Some(Side::Enemy) => None,
                    Some(_) => Some(1),
                    None => Some(0),
                }
            };
            let steps = budget / 5;
            let field = hexx::algorithms::field_of_movement(hex.start.hex(), steps, cost).len();
            let t = time(|| hexx::algorithms::field_of_movement(hex.start.hex(), steps, cost).len());
            report(&format!("hexx::field_of_movement, hex, {budget} ft"), t, field);
        }
    }
}
