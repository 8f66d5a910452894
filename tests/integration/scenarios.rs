//! Scenario files: the samples load, and bad files are refused with a position and a sentence.

use battlemap::rules::{Cell, Size};
use battlemap::scenario::{Scenario, ScenarioErrors};

use super::{sample_scenes, scratch};

#[test]
fn every_sample_scene_loads() {
    let scenes = sample_scenes();
    assert!(scenes.len() >= 3, "ship at least three scenes");
    for scene in scenes {
        let scenario = Scenario::load(&scene).unwrap_or_else(|e| panic!("{e}"));
        assert!(!scenario.tokens.is_empty(), "{}", scene.display());
    }
}

#[test]
fn the_samples_cover_both_grids_and_every_size() {
    let scenarios: Vec<Scenario> = sample_scenes().iter().map(|p| Scenario::load(p).expect("valid")).collect();
    let grids: std::collections::HashSet<_> = scenarios.iter().map(|s| s.grid).collect();
    assert_eq!(grids.len(), 3, "square, pointy-top and flat-top");
    for size in Size::ALL {
        assert!(scenarios.iter().any(|s| s.tokens.iter().any(|t| t.size == size)), "{size:?}");
    }
}

#[test]
fn the_built_in_scenario_is_the_tavern() {
    let built_in = Scenario::built_in();
    let file = Scenario::load(&super::root().join("scenes/tavern_brawl.ron")).expect("valid");
    assert_eq!(built_in, file);
}

const GOOD: &str = r######"Scenario(
    name: "Test",
    grid: Square,
    map: [
        "#####",
        "#...#",
        "#...#",
        "#####",
    ],
    creatures: [
        (id: "a", name: "Ann", side: Party, size: Medium, at: (1, 1), speed: 30, ac: 12, hp: 10),
        (id: "b", name: "Bob", side: Enemy, size: Medium, at: (3, 2), speed: 30, ac: 12, hp: 10),
    ],
)"######;

fn errors(text: &str) -> ScenarioErrors {
    Scenario::from_ron("test.ron", text).expect_err("the scenario should be refused")
}

/// The single error's `file:line:column: message`.
fn only_error(text: &str) -> String {
    let errors = errors(text);
    assert_eq!(errors.0.len(), 1, "{errors}");
    errors.0[0].to_string()
}

#[test]
fn a_good_scenario_loads_with_its_tokens() {
    let scenario = Scenario::from_ron("test.ron", GOOD).expect("valid");
    assert_eq!(scenario.map.width(), 5);
    assert_eq!(scenario.tokens[1].anchor, Cell::new(3, 2));
}

#[test]
fn unknown_fields_are_named_with_their_position() {
    let text = GOOD.replace(
        "speed: 30, ac: 12, hp: 10),\n        (id: \"b\"",
        "speed: 30, ac: 12, hp: 10, colour: 3),\n        (id: \"b\"",
    );
    let error = only_error(&text);
    assert!(error.starts_with("test.ron:11:"), "{error}");
    assert!(error.contains("unknown field `colour` in Creature"), "{error}");
    let typo = GOOD.replace(
        "speed: 30, ac: 12, hp: 10),\n        (id: \"b\"",
        "speed: 30, ac: 12, hp: 10, atacks: []),\n        (id: \"b\"",
    );
    let error = only_error(&typo);
    assert!(error.contains("unknown field `atacks` in Creature: did you mean `attacks`?"), "{error}");
}

#[test]
fn wrong_types_are_refused_with_their_position() {
    let error = only_error(
        &GOOD.replace("ac: 12, hp: 10),\n        (id: \"b\"", "ac: \"twelve\", hp: 10),\n        (id: \"b\""),
    );
    assert!(error.starts_with("test.ron:11:"), "{error}");
    assert!(error.contains("expected integer"), "{error}");
}

#[test]
fn unknown_legend_characters_point_at_the_character() {
    let error = only_error(&GOOD.replace("\"#...#\",\n        \"#####\"", "\"#.X.#\",\n        \"#####\""));
    assert!(error.starts_with("test.ron:7:12:"), "{error}");
    assert!(error.contains("'X'") && error.contains("not in the legend"), "{error}");
}

#[test]
fn ragged_rows_are_refused() {
    let error = only_error(&GOOD.replace("\"#...#\",\n        \"#####\"", "\"#....#\",\n        \"#####\""));
    assert!(error.starts_with("test.ron:7:9:"), "{error}");
    assert!(error.contains("row 3 of the map has 6 cells but row 1 has 5"), "{error}");
}

#[test]
fn tokens_off_the_map_or_in_walls_are_refused() {
    let error = only_error(&GOOD.replace("at: (3, 2)", "at: (7, 2)"));
    assert!(error.starts_with("test.ron:12:63:"), "{error}");
    assert!(error.contains("off the map"), "{error}");
    let error = only_error(&GOOD.replace("at: (3, 2)", "at: (4, 2)"));
    assert!(error.contains("inside wall"), "{error}");
    // A Large creature whose space reaches into the wall.
    let error = only_error(&GOOD.replace("size: Medium, at: (3, 2)", "size: Large, at: (3, 1)"));
    assert!(error.contains("inside wall at (4, 1)"), "{error}");
}

#[test]
fn overlapping_spaces_are_refused_but_tiny_creatures_share() {
    let error = only_error(&GOOD.replace("size: Medium, at: (3, 2)", "size: Large, at: (1, 1)"));
    assert!(error.contains("Bob's space overlaps Ann's at (1, 1)"), "{error}");
    let tiny = |n: usize| {
        let rats: String = (0..n)
            .map(|i| format!("(id: \"rat{i}\", name: \"Rat\", side: Neutral, size: Tiny, at: (2, 2), speed: 20, ac: 10, hp: 1),\n"))
            .collect();
        GOOD.replace("    ],\n)", &format!("{rats}    ],\n)"))
    };
    assert!(Scenario::from_ron("t.ron", &tiny(4)).is_ok());
    assert!(only_error(&tiny(5)).contains("fifth Tiny creature"));
}

#[test]
fn duplicate_ids_are_refused() {
    let error = only_error(&GOOD.replace("id: \"b\"", "id: \"a\""));
    assert!(error.starts_with("test.ron:12:14:"), "{error}");
    assert!(error.contains("used twice"), "{error}");
}

#[test]
fn facings_must_name_a_side_of_the_space() {
    let error =
        only_error(&GOOD.replace("hp: 10),\n        (id: \"b\"", "hp: 10, facing: NorthEast),\n        (id: \"b\""));
    assert!(error.contains("cannot face NorthEast on a square grid"), "{error}");
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = GOOD.replace("id: \"b\"", "id: \"a\"").replace("at: (1, 1)", "at: (9, 9)");
    assert_eq!(errors(&text).0.len(), 2);
}

#[test]
fn absurd_maps_are_refused_before_allocation() {
    let wide = format!("Scenario(name: \"Wide\", grid: Square, map: [\"{}\"])", ".".repeat(100_000));
    let error = only_error(&wide);
    assert!(error.contains("100000 by 1 cells; the largest allowed is 500 by 500"), "{error}");
    let tall = format!("Scenario(name: \"Tall\", grid: Square, map: [{}])", "\".\",".repeat(100_000));
    assert!(only_error(&tall).contains("1 by 100000 cells"));
    let dir = scratch("huge-file");
    let path = dir.join("huge.ron");
    std::fs::write(&path, " ".repeat(5 * 1024 * 1024)).expect("write");
    let error = Scenario::load(&path).expect_err("refused").to_string();
    assert!(error.contains("the file is larger than 4194304 bytes"), "{error}");
}

#[test]
fn gargantuan_spaces_can_be_larger_on_squares_only() {
    let big = GOOD
        .replace("\"#...#\",\n        \"#...#\",", "\"#.........#\",\n        \"#.........#\",\n        \"#.........#\",\n        \"#.........#\",\n        \"#.........#\",\n        \"#.........#\",")
        .replace("\"#####\"", "\"###########\"")
        .replace("size: Medium, at: (3, 2)", "size: Gargantuan, space: 5, at: (5, 1)");
    let scenario = Scenario::from_ron("t.ron", &big).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scenario.tokens[1].cells(scenario.grid).len(), 25);
    let error = only_error(&big.replace("space: 5", "space: 50"));
    assert!(error.contains("`space` is 50, but a Gargantuan space's side in squares must be from 4 to 20"), "{error}");
}

#[test]
fn hex_positions_are_axial() {
    let text = r#"Scenario(name: "Hex", grid: Hex(PointyTop), map: ["....", "....", "...."],
        creatures: [(id: "ogre", name: "Ogre", side: Enemy, size: Large, at: (0, 0), speed: 40, ac: 11, hp: 59)])"#;
    let scenario = Scenario::from_ron("hex.ron", text).unwrap_or_else(|e| panic!("{e}"));
    let cells = scenario.tokens[0].cells(scenario.grid);
    assert_eq!(cells, vec![Cell::new(0, 0), Cell::new(1, 0), Cell::new(0, 1)]);
    // Axial (-1, 2) is the first hex of the third row; (-1, 1) is off the map.
    assert!(
        Scenario::from_ron("hex.ron", &text.replace("size: Large, at: (0, 0)", "size: Medium, at: (-1, 2)")).is_ok()
    );
    assert!(only_error(&text.replace("size: Large, at: (0, 0)", "size: Medium, at: (-1, 1)")).contains("off the map"));
}

#[test]
fn broken_syntax_gives_a_position() {
    let error = only_error("Scenario(\n  name: \"x\",\n  grid: Square\n  map: [],\n)");
    assert!(error.starts_with("test.ron:4:"), "{error}");
}
