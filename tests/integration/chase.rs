//! Chases from the outside: `battlemap chase` replaying by seed against a snapshot of its log,
//! and the scene's `chase` section validated like the rest of the file.

use serde_json::Value;

use super::cli::battlemap;
use super::{root, scratch};

/// The snapshot of `battlemap chase scenes/forest_chase.ron --seed 7`. A deliberate change of
/// the rules or the policy rewrites it with `BATTLEMAP_UPDATE_SNAPSHOTS=1 cargo test chase`.
const SNAPSHOT: &str = "tests/snapshots/forest_chase_seed7.txt";

#[test]
fn a_seeded_chase_log_matches_its_snapshot() {
    let (code, out, err) = battlemap(&["chase", "scenes/forest_chase.ron", "--seed", "7"]);
    assert_eq!(code, 0, "{err}");
    let path = root().join(SNAPSHOT);
    if std::env::var_os("BATTLEMAP_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &out).expect("writes the snapshot");
    }
    let expected = std::fs::read_to_string(&path).expect("the snapshot exists");
    assert_eq!(out, expected, "the log differs from {SNAPSHOT}");
    assert!(out.contains("rolls initiative") && out.contains("The chase is over"), "{out}");
}

#[test]
fn the_same_seed_gives_the_same_log_and_another_seed_another() {
    let log = |seed: &str| battlemap(&["chase", "scenes/market_chase.ron", "--seed", seed, "--rounds", "6"]).1;
    assert_eq!(log("3"), log("3"));
    assert_ne!(log("3"), log("4"));
}

#[test]
fn json_holds_every_event_with_its_roll() {
    let (code, out, err) = battlemap(&["chase", "scenes/market_chase.ron", "--seed", "5", "--json", "--rounds", "3"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["seed"], 5);
    let events = answer["chases"][0]["events"].as_array().expect("events");
    let rolls = events.iter().filter(|e| !e["roll"].is_null()).count();
    assert!(rolls >= 4, "initiative for four participants at least");
    let rounds = events.iter().filter_map(|e| e["round"].as_u64()).max().unwrap_or(0);
    assert!(rounds <= 3, "at most the rounds asked for");
    let participants = answer["chases"][0]["participants"].as_array().expect("participants");
    assert_eq!(participants.len(), 4);
}

#[test]
fn a_scene_without_a_chase_or_with_a_bad_one_is_refused() {
    let (code, _, err) = battlemap(&["chase", "scenes/tavern_brawl.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("has no `chase` section"), "{err}");

    let text = std::fs::read_to_string(root().join("scenes/market_chase.ron")).expect("reads");
    let bad = text
        .replace("quarry: [\"cutpurse\"]", "quarry: [\"cutpurse\", \"ghost\"]")
        .replace("table: Urban", "table: Urbane");
    let dir = scratch("chase-bad");
    let file = dir.join("bad_chase.ron");
    std::fs::write(&file, bad.replace("table: Urbane", "table: Urban")).expect("writes");
    let (code, _, err) = battlemap(&["check", file.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(err.contains("\"ghost\" is not the id of a creature in this scene"), "{err}");
    let line = text.lines().position(|l| l.contains("quarry: [")).map(|i| i + 1).expect("the quarry line");
    assert!(err.contains(&format!("bad_chase.ron:{line}:")), "points at the quarry: {err}");

    std::fs::write(&file, bad).expect("writes");
    let (code, _, err) = battlemap(&["check", file.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(err.contains("`Urbane` is not one of"), "{err}");
}

#[test]
fn the_sample_chases_check_with_their_tables() {
    let (code, out, err) = battlemap(&["check", "scenes/market_chase.ron", "scenes/forest_chase.ron"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("chase \"Stop, thief!\": 1 quarry, 3 pursuers, Urban Chase Complications"), "{out}");
    assert!(out.contains("Wilderness Chase Complications"), "{out}");
}
