//! Chases from the outside: `battlemap chase` replaying by seed against a snapshot of its log,
//! and the scene's `chase` section validated like the rest of the file.

use serde_json::Value;

use super::cli::battlemap;
use super::{root, scratch};

/// The log of `battlemap chase scenes/forest_chase.ron --seed 7`, against its insta snapshot
/// (`tests/integration/snapshots/`). A deliberate change of the rules or the policy is reviewed
/// with `cargo insta review`, or accepted with `INSTA_UPDATE=always cargo test chase`.
#[test]
fn a_seeded_chase_log_matches_its_snapshot() {
    let (code, out, err) = battlemap(&["chase", "scenes/forest_chase.ron", "--seed", "7"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rolls initiative") && out.contains("The chase is over"), "{out}");
    insta::assert_snapshot!("forest_chase_seed7", out);
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

/// DMG "Designing Your Own Chase Tables": a scene's own table is played like the DMG's, and one
/// that leaves a d20 result uncovered is refused with its place in the file.
#[test]
fn a_scene_can_bring_its_own_complication_table() {
    let text = std::fs::read_to_string(root().join("scenes/market_chase.ron")).expect("reads");
    let sewer = r#"Custom((
            name: "Sewer Chase Complications",
            rows: [
                (roll: "1-3", text: "Slick stones. Make a DC 12 Dexterity saving throw or fall prone.",
                 test: Save(dc: 12, ability: Dex), on_fail: [Prone]),
                (roll: "4", text: "Rats swarm over you.",
                 always: [OpportunityAttack(attacker: "rats", bonus: 2, dice: "2d4", kind: "piercing", min_move: 0)]),
                (roll: "5-20", text: "No complication."),
            ],
        ))"#;
    let dir = scratch("chase-custom");
    let file = dir.join("sewer.ron");
    std::fs::write(&file, text.replace("table: Urban", &format!("table: {sewer}"))).expect("writes");
    let (code, out, err) =
        battlemap(&["chase", file.to_str().expect("utf-8"), "--seed", "2", "--json", "--rounds", "4"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["chases"][0]["rules"]["table"]["name"], "Sewer Chase Complications");
    let rolls = answer["chases"][0]["events"].as_array().expect("events").iter();
    assert!(rolls.filter(|e| e["kind"]["event"] == "complication_roll").count() >= 2, "{answer}");
    let log = answer["logs"][0].as_array().expect("the log in words");
    assert!(log.iter().any(|l| l.as_str().is_some_and(|l| l.contains("on the Sewer Chase Complications"))), "{log:?}");

    let gap = sewer.replace(r#"roll: "4""#, r#"roll: "6""#);
    std::fs::write(&file, text.replace("table: Urban", &format!("table: {gap}"))).expect("writes");
    let (code, _, err) = battlemap(&["check", file.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(err.contains("the row \"6\" should start at 4"), "{err}");
    let line = text.lines().position(|l| l.contains("table: Urban")).map(|i| i + 1).expect("the table line");
    assert!(err.contains(&format!("sewer.ron:{line}:")), "{err}");
}
