//! What a scene costs that a file's size doesn't bound (issue 37, 23): the light of a big dark
//! scene full of lamps, asked once and then again (`Scenario::field` keeps it until a light
//! changes), the fog of war over it, and a round of the initiative tracker over many creatures
//! with effects. Budgets: light and fog on 300×300 with 256 lamps of 1,000 ft under 100 ms; a
//! round of 1,500 creatures with an effect each under 100 ms.
//! `cargo bench --bench scene_cost`; the figures go in docs/performance.md.

#[expect(dead_code, reason = "the scenes are built from scenario text; they share only the timing")]
mod common;

use std::time::Duration;

use battlemap::rules::dice::SeededDice;
use battlemap::rules::effects::TurnPoint;
use battlemap::rules::effects::tracker::Tracker;
use battlemap::scenario::Scenario;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A `side`×`side` dark scene, walls one cell in `walls` (0: none), with `lamps` lamps of 1,000 ft
/// and `lit` creatures carrying torches, all drawn from `seed`; one party member without
/// darkvision in the middle.
fn dark_scene(side: usize, walls: f64, lamps: usize, lit: usize, seed: u64) -> Scenario {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rows: Vec<Vec<char>> =
        (0..side).map(|_| (0..side).map(|_| if rng.random_bool(walls) { '#' } else { '.' }).collect()).collect();
    let mid = side / 2;
    rows[mid][mid] = '.';
    let mut taken = std::collections::HashSet::from([(mid, mid)]);
    let mut free = |rng: &mut StdRng, rows: &mut Vec<Vec<char>>| loop {
        let (x, y) = (rng.random_range(0..side), rng.random_range(0..side));
        if taken.insert((x, y)) {
            rows[y][x] = '.';
            break (x, y);
        }
    };
    let lamps: Vec<String> = (0..lamps)
        .map(|_| {
            let (x, y) = free(&mut rng, &mut rows);
            format!("(at: ({x}, {y}), bright: 500, dim: 500)")
        })
        .collect();
    let mut creatures = vec![format!(
        "(id: \"pc\", name: \"PC\", side: Party, size: Medium, at: ({mid}, {mid}), speed: 30, ac: 12, hp: 10)"
    )];
    for i in 0..lit {
        let (x, y) = free(&mut rng, &mut rows);
        creatures.push(format!(
            "(id: \"c{i}\", name: \"C{i}\", side: Enemy, size: Medium, at: ({x}, {y}), speed: 30, ac: 12, hp: 10, \
             light: (bright: 20, dim: 20))"
        ));
    }
    let map: Vec<String> = rows.iter().map(|r| format!("\"{}\"", r.iter().collect::<String>())).collect();
    let text = format!(
        "Scenario(name: \"Lamps\", grid: Square, light: Dark, map: [{}], creatures: [{}], lights: [{}])",
        map.join(","),
        creatures.join(","),
        lamps.join(",")
    );
    Scenario::from_ron("lamps.ron", &text).unwrap_or_else(|e| panic!("{e}"))
}

/// `creatures` creatures on an open map, each with one effect (burning at the start of its turn,
/// a save at its end), as the tracker sees them.
fn crowd(creatures: usize, effects_each: usize) -> Tracker {
    let side = (creatures as f64).sqrt().ceil() as usize + 1;
    let map: Vec<String> = (0..side).map(|_| format!("\"{}\"", ".".repeat(side))).collect();
    let effects: Vec<String> = (0..effects_each)
        .map(|e| {
            format!(
                "(name: \"burning {e}\", damage: (dice: \"1\", kind: fire, at: Start), duration: Hours(1), \
                 save: (ability: Dex, dc: 30, at: End))"
            )
        })
        .collect();
    let list: Vec<String> = (0..creatures)
        .map(|i| {
            format!(
                "(id: \"c{i}\", name: \"C{i}\", side: Enemy, size: Medium, at: ({}, {}), speed: 30, ac: 12, hp: 100000, \
                 effects: [{}])",
                i % side,
                i / side,
                effects.join(",")
            )
        })
        .collect();
    let text =
        format!("Scenario(name: \"Crowd\", grid: Square, map: [{}], creatures: [{}])", map.join(","), list.join(","));
    let scenario = Scenario::from_ron("crowd.ron", &text).unwrap_or_else(|e| panic!("{e}"));
    Tracker::new(scenario.tokens.iter().map(battlemap::scenario::Token::subject).collect())
}

/// One round: the start and the end of every creature's turn.
fn round(tracker: &mut Tracker, order: &[String], dice: &mut SeededDice) -> usize {
    let mut events = 0;
    for whose in order {
        for point in [TurnPoint::Start, TurnPoint::End] {
            events += tracker.at_turn(whose, point, dice).expect("rolls").len();
        }
    }
    events
}

fn main() {
    // `cargo bench --bench scene_cost -- WORDS`: only the cases whose name holds WORDS.
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-')).unwrap_or_default();
    println!("scene costs (median of repeated runs)");
    for (side, walls, lamps, lit) in
        [(300, 0.0, 256, 0), (300, 0.01, 256, 0), (300, 0.2, 256, 0), (100, 0.0, 0, 400), (500, 0.0, 0, 100)]
    {
        let what = format!("{side}×{side}, {}% walls, {lamps} lamps of 1000 ft, {lit} torches", walls * 100.0);
        if !what.contains(&only) {
            continue;
        }
        let scenario = dark_scene(side, walls, lamps, lit, 11);
        let fighters = scenario.fighters();
        // The light computed anew each time: a fresh copy of the scene has an empty cache.
        let first = common::median_time(Duration::from_secs(2), 3, || {
            let fresh = scenario.clone();
            fresh.light_cache.clear();
            fresh.field(&fighters).light_at(battlemap::rules::Cell::new(1, 1))
        });
        scenario.field(&fighters);
        let again = common::median_time(Duration::from_secs(1), 5, || {
            scenario.field(&fighters).light_at(battlemap::rules::Cell::new(1, 1))
        });
        let fog = common::median_time(Duration::from_secs(2), 3, || scenario.field(&fighters).party_sight());
        println!(
            "{:<64} light first {:>8.2} ms, again {:>6.3} ms, fog {:>7.2} ms",
            what,
            ms(first),
            ms(again),
            ms(fog)
        );
    }
    for (creatures, effects_each) in [(600, 1), (1500, 1), (40, 64)] {
        let what = format!("tracker: {creatures} creatures × {effects_each} effects");
        if !what.contains(&only) {
            continue;
        }
        let mut tracker = crowd(creatures, effects_each);
        let order: Vec<String> = tracker.subjects.iter().map(|s| s.id.clone()).collect();
        let mut dice = SeededDice::new(1);
        let events = round(&mut tracker, &order, &mut dice);
        let time = common::median_time(Duration::from_secs(2), 3, || round(&mut tracker, &order, &mut dice));
        println!("{what:<64} {:>8.2} ms a round, {events} events", ms(time));
    }
}

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}
