//! Effects that last, from a scenario file through `check`, `fmt` and `query … effects` and
//! `query … advance` (issue 28).

use serde_json::Value;

use super::cli::battlemap;
use super::{root, scratch};

const CRYPT: &str = "scenes/haunted_crypt.ron";

/// `query … effects` lists a creature's effects with their source, duration and save.
#[test]
fn query_lists_a_creatures_effects() {
    let (code, out, err) = battlemap(&["query", CRYPT, "effects", "vex"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    let effect = &answer["effects"][0];
    assert_eq!(effect["name"], "frightened");
    assert_eq!(effect["source"], "ghoul");
    assert_eq!(effect["rounds_left"], 10, "a minute is ten rounds");
    assert_eq!(effect["in_force"], true);
    assert_eq!(effect["save"], "DC 10 Wisdom at the end of each turn");
    let (code, _, err) = battlemap(&["query", CRYPT, "effects", "nobody"]);
    assert_eq!(code, 2);
    assert!(err.contains("no token has the id"), "{err}");
}

/// `query … advance` runs the tracker headless: the same seed gives the same story; each save
/// against an effect and each ending is printed; the diseases advance at the dawns.
#[test]
fn advance_prints_each_roll_and_ending_and_replays_from_its_seed() {
    let args = ["query", CRYPT, "advance", "--rounds", "3", "--dawns", "2", "--seed", "28"];
    let (code, out, err) = battlemap(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(battlemap(&args).1, out, "the seed replays the story");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    let events = answer["events"].as_array().expect("events");
    let saves_against =
        |name: &str| events.iter().filter(|e| e["kind"] == "roll" && e["entry"]["reason"]["effect"] == name).count();
    assert!(saves_against("frightened") >= 1, "Vex saves at the end of her turns: {out}");
    assert!(saves_against("Sewer plague") >= 1, "Orla saves at a dawn after the symptoms: {out}");
    let ended = |name: &str| events.iter().any(|e| e["event"] == "ended" && e["name"] == name);
    assert!(ended("burning"), "two rounds of burning run out");
    assert!(
        events.iter().any(|e| e["kind"] == "exhaustion" && e["who"] == "Orla"),
        "the plague's symptoms bring exhaustion"
    );
    let (code, _, err) = battlemap(&["query", CRYPT, "advance", "--rounds", "101"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("101"), "{err}");
}

/// `check` refuses a bad effect at its place in the file with a sentence; `fmt` keeps effects.
#[test]
fn check_refuses_bad_effects_and_fmt_keeps_good_ones() {
    let dir = scratch("effects-check");
    let text = std::fs::read_to_string(root().join(CRYPT)).expect("the crypt");
    for (from, to, says) in [
        ("dc: 10", "dc: 31", "a save DC of 31: DCs run from 1 to 30"),
        ("Creature(\"ghoul\")", "Creature(\"lich\")", "comes from \"lich\", but no creature has that id"),
        ("duration: Minutes(1)", "duration: UntilSaved, penalty: 99", "a penalty of 99"),
        ("dice: \"1d6\"", "dice: \"1d6+\"", "the damage"),
        ("duration: Rounds(2)", "duration: Rounds(2), mood: 3", "mood"),
    ] {
        assert!(text.contains(from), "{from}");
        let file = dir.join("bad.ron");
        std::fs::write(&file, text.replacen(from, to, 1)).expect("write");
        let (code, _, err) = battlemap(&["check", file.to_str().expect("utf-8")]);
        assert_eq!(code, 2, "{to}: {err}");
        assert!(err.contains(says), "{to}: {err}");
        assert!(err.contains("bad.ron:"), "{to}: the file and its place: {err}");
    }
    let file = dir.join("crypt.ron");
    std::fs::write(&file, &text).expect("write");
    let (code, _, err) = battlemap(&["fmt", file.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = battlemap(&["query", file.to_str().expect("utf-8"), "effects", "orla"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Sewer plague"), "{out}");
    let (_, ghoul, _) = battlemap(&["query", file.to_str().expect("utf-8"), "effects", "ghoul"]);
    assert!(ghoul.contains("\"secret\": true") && ghoul.contains("restrained"), "{ghoul}");
}
