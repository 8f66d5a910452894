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
    Scenario::from_ron(if text.contains("Three ogres") { "ogres.ron" } else { "test.ron" }, text)
        .expect_err("the scenario should be refused")
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
    assert!(error.contains("unknown field `colour` in a creature"), "{error}");
    let typo = GOOD.replace(
        "speed: 30, ac: 12, hp: 10),\n        (id: \"b\"",
        "speed: 30, ac: 12, hp: 10, atacks: []),\n        (id: \"b\"",
    );
    let error = only_error(&typo);
    assert!(error.contains("unknown field `atacks` in a creature: did you mean `attacks`?"), "{error}");
}

#[test]
fn wrong_types_are_refused_with_their_position() {
    let error = only_error(
        &GOOD.replace("ac: 12, hp: 10),\n        (id: \"b\"", "ac: \"twelve\", hp: 10),\n        (id: \"b\""),
    );
    assert!(error.starts_with("test.ron:11:"), "{error}");
    assert!(error.contains("`ac` takes a whole number"), "{error}");
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

/// A scene with room for siege equipment: `OBJECTS` is replaced by the objects under test.
const SIEGE_FIELD: &str = r######"Scenario(
    name: "Field",
    grid: Square,
    map: [
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
    ],
    creatures: [
        (id: "a", name: "Ann", side: Party, size: Medium, at: (0, 0), speed: 30, ac: 12, hp: 10),
    ],
    objects: [
        OBJECTS
    ],
)"######;

fn siege_field(objects: &str) -> String {
    SIEGE_FIELD.replace("OBJECTS", objects)
}

/// Objects take their AC from their substance and their hit points from the DMG's tables, siege
/// equipment its stat block, and every object is immune to poison and psychic damage (DMG
/// "Statistics for Objects", "Siege Equipment").
#[test]
fn objects_and_siege_equipment_take_the_dmg_tables() {
    let text = siege_field(
        r#"(id: "door", name: "Door", size: Medium, at: (2, 0), substance: Wood, durability: Resilient, threshold: 5,
            vulnerabilities: ["fire"]),
           (id: "b", name: "Ballista", siege: Ballista, at: (4, 2), state: Aimed),
           (id: "pot", name: "Pot", siege: Cauldron, at: (7, 0), elevation: 20, pours_on: (7, 2)),"#,
    );
    let scenario = Scenario::from_ron("test.ron", &text).expect("valid");
    let door = scenario.token("door").expect("door");
    assert_eq!((door.ac, door.hp), (15, 18), "wood 15; a resilient Medium object 18 (4d8)");
    assert_eq!(door.defenses.threshold, Some(5));
    assert!(door.defenses.immunities.contains(&battlemap::rules::health::DamageType::Poison));
    assert!(door.defenses.immunities.contains(&battlemap::rules::health::DamageType::Psychic));
    let ballista = scenario.token("b").expect("ballista");
    assert_eq!((ballista.size, ballista.ac, ballista.hp), (Size::Large, 15, 50));
    assert_eq!(ballista.attacks[0].name, "Bolt");
    assert!(ballista.siege.expect("siege").crewing.can_fire(battlemap::rules::siege::SiegeKind::Ballista));
    let pot = scenario.token("pot").expect("cauldron");
    assert_eq!((pot.elevation, pot.siege.and_then(|s| s.pours_on)), (20, Some(Cell::new(7, 2))));
}

/// What a scene can get wrong about objects and siege equipment is refused, each with a sentence.
#[test]
fn bad_objects_and_siege_equipment_are_refused() {
    let cases = [
        (r#"(id: "x", name: "X", at: (2, 2), ac: 10, hp: 5),"#, "an object needs a `size`"),
        (r#"(id: "x", name: "X", size: Small, at: (2, 2), hp: 5),"#, "give the object an `ac`, or a `substance`"),
        (r#"(id: "x", name: "X", size: Small, at: (2, 2), ac: 10),"#, "give the object its `hp`"),
        (r#"(id: "x", name: "X", size: Huge, at: (2, 2), substance: Stone, durability: Fragile),"#, "stops at Large"),
        (r#"(id: "x", name: "X", siege: Ram, size: Huge, at: (2, 2)),"#, "a ram is Large, not Huge"),
        (r#"(id: "x", name: "X", siege: Cauldron, at: (2, 2)),"#, "a cauldron needs `pours_on`"),
        (r#"(id: "x", name: "X", siege: Cauldron, at: (2, 2), pours_on: (7, 3)),"#, "must be below its spout"),
        (r#"(id: "x", name: "X", siege: Ballista, at: (2, 2), pours_on: (2, 4)),"#, "only a cauldron"),
        (r#"(id: "x", name: "X", size: Small, at: (2, 2), ac: 10, hp: 5, state: Loaded),"#, "only a siege weapon"),
        (r#"(id: "x", name: "X", siege: SiegeTower, at: (2, 2), state: Aimed),"#, "only a siege weapon"),
        (r#"(id: "x", name: "X", size: Small, at: (2, 2), ac: 10, hp: 5, threshold: 5000),"#, "a damage threshold"),
        (r#"(id: "x", name: "X", size: Small, at: (2, 2), ac: 10, hp: 5, immunities: ["wood"]),"#, "not a damage type"),
    ];
    for (object, expected) in cases {
        let error = only_error(&siege_field(object));
        assert!(error.starts_with("test.ron:"), "{error}");
        assert!(error.contains(expected), "{object}: {error}");
    }
}

/// Creatures stand inside a siege tower's space, but not inside other objects.
#[test]
fn creatures_may_stand_inside_a_siege_tower() {
    let inside = siege_field(r#"(id: "t", name: "Tower", siege: SiegeTower, at: (0, 0)),"#);
    Scenario::from_ron("test.ron", &inside).expect("Ann stands inside the tower");
    let in_ballista = siege_field(r#"(id: "b", name: "Ballista", siege: Ballista, at: (0, 0)),"#);
    assert!(only_error(&in_ballista).contains("overlaps"));
}

/// The rows of a file's `map: [...]`, as written.
fn map_rows(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| !l.trim_start().starts_with("map: ["))
        .skip(1)
        .take_while(|l| l.trim() != "],")
        .map(str::trim)
        .collect()
}

/// The canonical writer (`Scenario::to_ron`, what Save and `battlemap fmt` write): every sample
/// reads back as the same scenario, is written the same way twice, and keeps its map's rows and
/// its leading comments.
#[test]
fn every_sample_scene_round_trips_through_the_canonical_writer() {
    for scene in sample_scenes() {
        let original = std::fs::read_to_string(&scene).expect("reads");
        let scenario = Scenario::load(&scene).unwrap_or_else(|e| panic!("{e}"));
        let written = scenario.to_ron();
        let again = Scenario::from_ron("written.ron", &written).unwrap_or_else(|e| panic!("{e}\n{written}"));
        assert_eq!(again, scenario, "{}:\n{written}", scene.display());
        assert_eq!(again.to_ron(), written, "{}: written twice the same way", scene.display());
        let rows = map_rows(&original);
        assert_eq!(rows.len(), scenario.map.height() as usize, "{}", scene.display());
        assert_eq!(map_rows(&written), rows, "{}: the map is written as its rows", scene.display());
        let comments: Vec<&str> = original.lines().take_while(|l| l.starts_with("//")).collect();
        assert!(!comments.is_empty() && written.starts_with(&(comments.join("\n") + "\nScenario(\n")), "{written}");
    }
}

/// Random edits of the samples, as the app makes them (a token moved to a free place, hit points
/// changed, odd names, conditions toggled, comments added): the canonical text always reads back
/// as the edited scenario, and is written the same way again.
mod round_trip_properties {
    use std::sync::LazyLock;

    use battlemap::rules::conditions::Condition;
    use battlemap::rules::health::{DEATH_SAVES_TO_END, DeathSaves};
    use battlemap::scenario::{Scenario, TokenKind};
    use proptest::prelude::*;
    use proptest::test_runner::RngSeed;

    static SAMPLES: LazyLock<Vec<Scenario>> = LazyLock::new(|| {
        super::sample_scenes().iter().map(|p| Scenario::load(p).unwrap_or_else(|e| panic!("{e}"))).collect()
    });

    /// Characters a name may hold that a writer could get wrong: quotes, backslashes, RON's own
    /// punctuation, comment starts, accents (precomposed and combining), emoji, invisible ones
    /// (not the bidirectional ones, which no text may hold: `rules::text`).
    const ODD: [&str; 20] = [
        "\"", "\\", "'", "é", "e\u{301}", "\u{301}", "🐉", "\u{200b}", "\u{2060}", "//", "/*", "*/", "r#\"", "(", ")",
        "{", "]", ",", ":", " ",
    ];

    fn odd_name(seed: u32) -> String {
        let length = 1 + seed as usize % 12;
        let name: String = (0..length).map(|i| ODD[(seed as usize / 7 + i * 13) % ODD.len()]).collect();
        name.chars().take(100).collect()
    }

    /// One edit of `scenario`, chosen by `what` with `a` and `b` as its dice.
    fn edit(scenario: &mut Scenario, what: u8, a: u32, b: u32) {
        let n = scenario.tokens.len();
        let i = a as usize % n;
        match what {
            0 => move_to_a_free_place(scenario, i, b as usize),
            1 => {
                let token = &mut scenario.tokens[i];
                token.hp = (b % (token.max_hp as u32 + 1)) as i32;
            }
            2 => scenario.tokens[i].name = odd_name(b),
            3 => {
                let name = odd_name(b).trim().to_owned();
                if !name.is_empty() {
                    scenario.name = name;
                }
            }
            4 if scenario.tokens[i].kind == TokenKind::Creature => {
                let condition = Condition::ALL[b as usize % Condition::ALL.len()];
                let on = !scenario.tokens[i].conditions.has(condition);
                scenario.tokens[i].conditions.set(condition, on);
            }
            _ => scenario.header.push(odd_name(b)),
        }
        settle(scenario);
    }

    /// Moves token `i` to the first place from the `pick`-th cell on where its whole space is on
    /// open ground and clear of every other token (a cauldron stays over its square).
    fn move_to_a_free_place(scenario: &mut Scenario, i: usize, pick: usize) {
        if scenario.tokens[i].siege.is_some_and(|s| s.pours_on.is_some()) {
            return;
        }
        let grid = scenario.grid;
        let taken: Vec<_> =
            scenario.tokens.iter().enumerate().filter(|&(j, _)| j != i).flat_map(|(_, t)| t.cells(grid)).collect();
        let cells: Vec<_> = scenario.map.cells().collect();
        let footprint = scenario.tokens[i].footprint(grid);
        let free = (0..cells.len()).map(|k| cells[(pick + k) % cells.len()]).find(|&anchor| {
            footprint
                .at(anchor)
                .all(|c| scenario.map.terrain(c).is_some_and(|t| !t.blocks_movement) && !taken.contains(&c))
        });
        if let Some(anchor) = free {
            scenario.tokens[i].anchor = anchor;
        }
    }

    /// What validation would make of the edited scenario: a creature dying at 0 hit points is
    /// unconscious (and so prone), death saves count only at 0, and the chase's local creature
    /// is read from its token.
    fn settle(scenario: &mut Scenario) {
        for token in &mut scenario.tokens {
            if token.kind != TokenKind::Creature {
                continue;
            }
            if token.hp != 0 {
                token.death_saves = DeathSaves::default();
            }
            let dying = token.hp == 0 && token.makes_death_saves && token.death_saves.failures < DEATH_SAVES_TO_END;
            if dying || token.conditions.has(Condition::Unconscious) {
                token.conditions.set(Condition::Unconscious, true);
            }
        }
        let sheets: Vec<_> = scenario.tokens.iter().map(|t| (t.id.clone(), t.sheet())).collect();
        if let Some((id, sheet)) = scenario.chase.as_mut().and_then(|c| c.rules.local_creature.as_mut())
            && let Some((_, new)) = sheets.iter().find(|(token, _)| token == id)
        {
            *sheet = new.clone();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, rng_seed: RngSeed::Fixed(16), ..ProptestConfig::default() })]

        #[test]
        fn edited_samples_round_trip(
            sample in 0usize..64,
            edits in proptest::collection::vec((0u8..6, any::<u32>(), any::<u32>()), 1..12),
        ) {
            let mut scenario = SAMPLES[sample % SAMPLES.len()].clone();
            for (what, a, b) in edits {
                edit(&mut scenario, what, a, b);
            }
            let written = scenario.to_ron();
            let again = Scenario::from_ron("edited.ron", &written);
            prop_assert_eq!(again.as_ref().ok(), Some(&scenario), "{:?}\n{}", again.as_ref().err(), written);
            prop_assert_eq!(again.map(|s| s.to_ron()).ok(), Some(written));
        }
    }
}

/// `scripts/big_map.py` (docs/performance.md: the frame-time and sight benchmarks' big maps)
/// writes valid scenarios: 200×200 on squares and pointy-top hexes, 300 creatures, a fifth of
/// the cells walls, the same file every run.
#[test]
fn the_big_map_script_writes_scenarios_that_load() {
    use battlemap::rules::{Grid, HexOrientation};
    let script = super::root().join("scripts/big_map.py");
    let write = |grid: &str| -> String {
        let output = std::process::Command::new("python3").arg(&script).arg(grid).output().unwrap_or_else(|e| {
            panic!("the big-map test needs python3 ({e}): install it with `apt-get install python3`")
        });
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).expect("utf-8")
    };
    for (name, grid) in [("square", Grid::Square), ("hex", Grid::Hex(HexOrientation::PointyTop))] {
        let text = write(name);
        assert_eq!(text, write(name), "{name}: seeded, the same file every run");
        let file = scratch("big-map").join(format!("big-{name}.ron"));
        std::fs::write(&file, &text).expect("write");
        let scenario = Scenario::load(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(scenario.grid, grid);
        assert_eq!((scenario.map.width(), scenario.map.height()), (200, 200), "{name}");
        assert_eq!(scenario.tokens.len(), 300, "{name}");
        let walls =
            scenario.map.cells().filter(|&c| scenario.map.terrain(c).is_some_and(|t| t.blocks_movement)).count();
        assert!((7_000..9_000).contains(&walls), "{name}: about a fifth of 40,000 cells are walls, not {walls}");
    }
}

/// Issue 40: a creature may name its SRD stat block, and every field it writes overrides the
/// stat block's. DMG "Tracking Monster Hit Points": three ogres of 59 hit points, Krag, Thod and
/// Mur; Thod is written down to 40. Saved, each keeps its reference and writes only what differs.
const OGRES: &str = r######"Scenario(
    name: "Three ogres",
    grid: Square,
    map: [
        "..........",
        "..........",
        "..........",
        "..........",
    ],
    creatures: [
        (id: "ann", name: "Ann", side: Party, size: Medium, at: (0, 0), speed: 30, ac: 16, hp: 30, pc: true),
        (id: "krag", monster: "ogre", at: (2, 0)),
        (id: "thod", monster: "Ogre", name: "Thod (the one with the scar)", at: (5, 0), hp: 40, darkvision: 0),
        (id: "mur", monster: "ogre", name: "Mur", at: (2, 2), attacks: [(name: "Fist", bonus: 6, damage: "1d4+4")]),
    ],
)"######;

#[test]
fn a_creature_takes_its_stat_block_from_the_bestiary_and_overrides_it() {
    let scenario = Scenario::from_ron("ogres.ron", OGRES).unwrap_or_else(|e| panic!("{e}"));
    let token = |id: &str| scenario.token(id).unwrap_or_else(|| panic!("{id}"));
    let krag = token("krag");
    assert_eq!((krag.name.as_str(), krag.size, krag.ac, krag.hp, krag.max_hp), ("Ogre", Size::Large, 11, 59, 59));
    assert_eq!((krag.speed, krag.darkvision, krag.side), (40, 60, battlemap::rules::creature::Side::Enemy));
    assert_eq!(krag.abilities.str, 4);
    let club = krag.attacks.iter().find(|a| a.name == "Greatclub").expect("a greatclub");
    assert_eq!((club.bonus, club.damage.as_str(), club.damage_type.as_str()), (6, "2d8+4", "bludgeoning"));
    let thod = token("thod");
    assert_eq!(
        (thod.name.as_str(), thod.hp, thod.max_hp, thod.darkvision),
        ("Thod (the one with the scar)", 40, 40, 0)
    );
    assert_eq!(thod.ac, 11, "what it doesn't write is the ogre's");
    let mur = token("mur");
    assert_eq!(mur.attacks.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["Fist"]);
    // Saved: the references stay, and only the overrides are written.
    let saved = scenario.to_ron();
    assert!(saved.contains("(id: \"krag\", monster: \"ogre\", at: (2, 0))"), "{saved}");
    assert!(saved.contains("monster: \"Ogre\", name: \"Thod (the one with the scar)\", at: (5, 0), hp: 40"), "{saved}");
    assert!(saved.contains("darkvision: 0"), "{saved}");
    assert!(!saved.contains("Greatclub"), "the stat block's attacks are not copied: {saved}");
    let again = Scenario::from_ron("ogres.ron", &saved).unwrap_or_else(|e| panic!("{e}\n{saved}"));
    assert_eq!(again.tokens, scenario.tokens);
}

#[test]
fn an_unknown_monster_is_named_with_the_nearest_and_its_place() {
    let text = OGRES.replace("(id: \"krag\", monster: \"ogre\"", "(id: \"krag\", monster: \"orge\"");
    let error = only_error(&text);
    assert!(error.starts_with("ogres.ron:12:"), "{error}");
    assert!(error.contains("no monster `orge` in the SRD bestiary; did you mean `ogre`"), "{error}");
    // Without a stat block, the fields it would give are needed.
    let bare = OGRES.replace("(id: \"krag\", monster: \"ogre\", at: (2, 0))", "(id: \"krag\", at: (2, 0), hp: 5)");
    let error = only_error(&bare);
    assert!(error.contains("the creature \"krag\" needs `name`, `side`, `size`, `speed`, `ac`"), "{error}");
    assert!(error.contains("or a `monster:` from the SRD bestiary"), "{error}");
}

/// A stat block's name as long as a damaged file makes it is refused at once, quoted short.
#[test]
fn a_huge_monster_name_is_refused_quickly_and_quoted_short() {
    let long = "orge".repeat(100_000);
    let text = OGRES.replace("(id: \"krag\", monster: \"ogre\"", &format!("(id: \"krag\", monster: \"{long}\""));
    let error = only_error(&text);
    assert!(error.contains("no monster \"orgeorge"), "{}", &error[..error.len().min(300)]);
    assert!(error.len() < 300, "{} characters", error.len());
}
