//! The command line: `check` and `query`, run as a user would.

use std::process::Command;

use serde_json::Value;

use super::{root, sample_scenes, scratch};

pub(crate) fn battlemap(args: &[&str]) -> (i32, String, String) {
    let output =
        Command::new(env!("CARGO_BIN_EXE_battlemap")).args(args).current_dir(root()).output().expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn check_accepts_every_sample() {
    let scenes: Vec<String> = sample_scenes().iter().map(|p| p.display().to_string()).collect();
    let args: Vec<&str> = std::iter::once("check").chain(scenes.iter().map(String::as_str)).collect();
    let (code, out, err) = battlemap(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().filter(|l| l.contains(": ok: ")).count(), scenes.len(), "{out}");
    assert!(!err.contains("warning"), "every sample's pictures are there: {err}");
}

/// A picture that won't show is a warning at its place in the file, not an error: a missing
/// portrait, a file that isn't an image, a map image over 4096 pixels wide; the scene is valid.
#[test]
fn check_warns_of_pictures_that_will_not_show() {
    let dir = scratch("cli-pictures");
    std::fs::create_dir_all(dir.join("tokens")).expect("dir");
    for name in ["not-an-image.png", "huge.png", "ogre.png"] {
        std::fs::copy(root().join("scenes/tokens").join(name), dir.join("tokens").join(name)).expect("copy");
    }
    let scene = dir.join("pictures.ron");
    let text = r#"Scenario(
    name: "Pictures",
    grid: Square,
    map: ["....", "...."],
    creatures: [
        (id: "a", name: "A", side: Party, size: Medium, at: (0, 0), speed: 30, ac: 10, hp: 5,
         image: "tokens/nobody.png"),
        (id: "b", name: "B", side: Enemy, size: Medium, at: (2, 0), speed: 30, ac: 10, hp: 5,
         image: "tokens/ogre.png"),
    ],
    objects: [(id: "c", name: "Crate", size: Small, at: (3, 1), ac: 11, hp: 5, image: "tokens/not-an-image.png")],
    background: (image: "tokens/huge.png", cell_px: 70),
)"#;
    std::fs::write(&scene, text).expect("write");
    let path = scene.to_str().expect("utf-8");
    let (code, out, err) = battlemap(&["check", path]);
    assert_eq!(code, 0, "warnings don't fail the check: {err}");
    assert!(out.contains(": ok: "), "{out}");
    let warnings: Vec<&str> = err.lines().collect();
    assert_eq!(warnings.len(), 3, "{err}");
    assert!(
        warnings[0].starts_with(&format!("{path}:7:17: warning: ")) && warnings[0].contains("nobody.png is not there"),
        "{err}"
    );
    assert!(
        warnings[1].starts_with(&format!("{path}:11:87: warning: ")) && warnings[1].contains("not a PNG or JPEG"),
        "{err}"
    );
    assert!(warnings[2].starts_with(&format!("{path}:12:25: warning: ")) && warnings[2].contains("4097×16"), "{err}");
}

#[test]
fn check_reports_bad_files_and_exits_2() {
    let dir = scratch("cli-check");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Scenario(\n  name: \"Bad\",\n  grid: Square,\n  map: [\"..\", \"...\"],\n  size: 3,\n)")
        .expect("write");
    let (code, out, err) = battlemap(&["check", "scenes/tavern_brawl.ron", bad.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(out.contains("tavern_brawl.ron: ok"), "{out}");
    assert!(err.contains("bad.ron:5:3: unknown field `size`"), "{err}");
    let (code, _, err) = battlemap(&["check", "no/such/file.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.ron: cannot read the file"), "{err}");
}

#[test]
fn a_bad_file_on_the_command_line_does_not_open_the_window() {
    let dir = scratch("cli-open-bad");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Scenario(name: \"Bad\", grid: Square, map: [\"..\", \"...\"])").expect("write");
    let (code, _, err) = battlemap(&[bad.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(err.contains("row 2 of the map has 3 cells but row 1 has 2"), "{err}");
}

#[test]
fn query_tokens_lists_every_space() {
    let (code, out, err) = battlemap(&["query", "scenes/hex_skirmish.ron", "tokens"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["grid"], "hex-pointy-top");
    let tokens = answer["tokens"].as_array().expect("a list");
    let find = |id: &str| tokens.iter().find(|t| t["id"] == id).unwrap_or_else(|| panic!("{id}"));
    let ogre = find("ogre");
    assert_eq!(ogre["size"], "Large");
    assert_eq!(ogre["side"], "Enemy");
    assert_eq!(ogre["cells"], serde_json::json!([[13, 3], [14, 3], [13, 4]]));
    assert_eq!(find("giant")["cells"].as_array().map(Vec::len), Some(7));
    assert_eq!(find("kael")["cells"], serde_json::json!([[0, 6]]));
}

#[test]
fn query_rejects_unknown_questions() {
    let (code, _, err) = battlemap(&["query", "scenes/tavern_brawl.ron", "weather"]);
    assert_eq!(code, 2);
    assert!(err.contains("unrecognized subcommand 'weather'"), "{err}");
    let (code, _, err) = battlemap(&["--frames", "zero"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'zero' for '--frames <N>'"), "{err}");
}

#[test]
fn query_distance_path_and_reach() {
    // Gorm (Large, at 15,2) and the captain (14,5): nearest cells (15,3) and (14,5), 2 squares.
    let (code, out, err) = battlemap(&["query", "scenes/tavern_brawl.ron", "distance", "gorm", "captain"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["feet"], 10);

    let (code, out, err) = battlemap(&["query", "scenes/tavern_brawl.ron", "path", "lia", "--to", "7,7"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["reachable"], true);
    assert_eq!(answer["cost"], 15);
    assert_eq!(answer["cells"].as_array().map(Vec::len), Some(4));

    let (_, out, _) = battlemap(&["query", "scenes/tavern_brawl.ron", "path", "lia", "--to", "8,7"]);
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["reachable"], false);
    assert_eq!(answer["why"]["reason"], "blocked");

    let (_, out, _) = battlemap(&["query", "scenes/tavern_brawl.ron", "path", "lia", "--to", "14,9"]);
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["why"]["reason"], "not_enough_movement");
    let needed = answer["why"]["needed"].clone();
    let (_, out, _) = battlemap(&["query", "scenes/tavern_brawl.ron", "path", "lia", "--to", "14,9", "--dash"]);
    let dashed: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!((dashed["reachable"].clone(), dashed["budget"].clone()), (Value::Bool(true), serde_json::json!(50)));
    assert_eq!(dashed["cost"], needed, "the Dash path costs what the refusal said was needed");
    assert!(needed.as_u64() > Some(25));

    let (code, out, err) = battlemap(&["query", "scenes/dungeon_corridor.ron", "reach", "pip"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    let cells = answer["cells"].as_array().expect("cells");
    assert!(cells.iter().any(|c| c["cell"] == serde_json::json!([9, 7]) && c["cost"] == 0));
    assert!(cells.iter().all(|c| c["cost"].as_u64().is_some_and(|f| f <= 25)));
    let (_, out, _) = battlemap(&["query", "scenes/dungeon_corridor.ron", "reach", "pip", "--dash"]);
    let dashed: Value = serde_json::from_str(&out).expect("JSON");
    assert!(dashed["cells"].as_array().map(Vec::len) > Some(cells.len()));

    let (code, _, err) = battlemap(&["query", "scenes/tavern_brawl.ron", "reach", "nobody"]);
    assert_eq!(code, 2);
    assert!(err.contains("no token has the id \"nobody\""), "{err}");
}

#[test]
fn query_los_cover_and_areas() {
    // Vex sees the ghoul down the corridor: the line grazes the walls and fog of row 3.
    let (code, out, err) = battlemap(&["query", "scenes/dungeon_corridor.ron", "los", "vex", "ghoul-1"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["line_of_sight"], true);

    // The captain (14,5) shoots at Brom (3,5) along row 5, which nothing crosses: no cover, four
    // clear lines from the captain's corner (14,5) to Brom's square.
    let (code, out, err) = battlemap(&["query", "scenes/tavern_brawl.ron", "cover", "captain", "brom"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!((answer["degree"].as_str(), answer["label"].as_str()), (Some("none"), Some("no cover")));
    assert_eq!(answer["corner"], serde_json::json!([14.0, 5.0]));
    assert_eq!(answer["target_cell"], serde_json::json!([3, 5]));
    let lines = answer["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|l| l["blocked_by"].is_null()), "{lines:?}");

    // Gorm (Large, at 15,2) behind the tables and Lia: all four lines blocked, yet tables and
    // creatures conceal nothing, so three-quarters cover, not total (conventions, "Total cover").
    let (_, out, _) = battlemap(&["query", "scenes/tavern_brawl.ron", "cover", "gorm", "brom"]);
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!((answer["degree"].as_str(), answer["bonus"].as_i64()), (Some("three_quarters"), Some(5)));
    assert_eq!(answer["total"], false);
    let blocked: Vec<&Value> = answer["lines"].as_array().expect("lines").iter().map(|l| &l["blocked_by"]).collect();
    assert!(blocked.iter().all(|b| !b.is_null()), "{blocked:?}");
    assert!(blocked.iter().any(|b| b["kind"] == "terrain" && b["cell"].is_array()), "cells are [x, y]: {blocked:?}");

    // Cover from a point of origin, the intersection (3, 1) north of Brom: nothing between.
    let (code, out, err) = battlemap(&["query", "scenes/tavern_brawl.ron", "cover-from", "3,1", "brom"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["origin"], serde_json::json!([3.0, 1.0]));
    assert_eq!((answer["degree"].as_str(), answer["total"].as_bool()), (Some("none"), Some(false)));
    assert_eq!(answer["target_cell"], serde_json::json!([3, 5]));

    // A 10-ft sphere on pointy-top hexes from a hex corner: 12 hexes, the giant among those inside.
    let (code, out, err) =
        battlemap(&["query", "scenes/hex_skirmish.ron", "aoe", "sphere", "10", "--origin", "14,6@0"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["cells"].as_array().map(Vec::len), Some(12));
    assert!(answer["tokens"].as_array().is_some_and(|t| t.contains(&serde_json::json!("giant"))));
    assert_eq!(answer["estimate"], 2);

    let (code, out, err) =
        battlemap(&["query", "scenes/tavern_brawl.ron", "aoe", "cone", "15", "--origin", "4,6", "--toward", "8,6"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["degrees"], 0.0);
    assert_eq!(answer["cells"], serde_json::json!([[5, 5], [6, 5], [5, 6], [6, 6]]));

    let adjusted = |seed: &str| {
        let args = [
            "query",
            "scenes/tavern_brawl.ron",
            "aoe",
            "cone",
            "15",
            "--origin",
            "4,6",
            "--adjust",
            "bunched",
            "--seed",
            seed,
        ];
        let (code, out, err) = battlemap(&args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Value>(&out).expect("JSON")["adjusted"].clone()
    };
    let first = adjusted("7");
    assert_eq!(first, adjusted("7"), "the same seed replays the same roll");
    let roll = first["roll_1d3"].as_u64().expect("a roll");
    assert!((1..=3).contains(&roll));
    assert_eq!(first["targets"].as_u64(), Some(2 + roll));

    let (code, _, err) = battlemap(&["query", "scenes/tavern_brawl.ron", "aoe", "blob", "15", "--origin", "4,6"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'blob' for '<SHAPE>'"), "{err}");
    let (code, _, err) =
        battlemap(&["query", "scenes/tavern_brawl.ron", "aoe", "line", "30", "--origin", "4,6", "--width", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value '0' for '--width <FEET>'"), "the width is named: {err}");
}

#[test]
fn roll_replays_by_seed_and_refuses_bad_notation() {
    let roll = |args: &[&str]| {
        let (code, out, err) = battlemap(args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Value>(&out).expect("JSON")
    };
    let first = roll(&["roll", "4d6kh3", "--seed", "9", "--json"]);
    assert_eq!(first, roll(&["roll", "4d6kh3", "--seed", "9", "--json"]));
    let total = first["roll"]["total"].as_i64().expect("a total");
    assert!((3..=18).contains(&total));
    let advantage = roll(&["roll", "d20", "--adv", "--seed", "3", "--json"]);
    assert_eq!(advantage["roll"]["evaluations"].as_array().map(Vec::len), Some(2));
    let (code, out, _) = battlemap(&["roll", "2d6+3", "--seed", "5"]);
    assert_eq!(code, 0);
    assert!(out.contains("(seed 5)"), "{out}");
    let (code, _, err) = battlemap(&["roll", "1000d6"]);
    assert_eq!(code, 2);
    assert!(err.contains("a set has at most 255 dice"), "{err}");
}

#[test]
fn tables_and_mobs() {
    let (code, out, err) = battlemap(&["table"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 22);
    let (code, out, _) = battlemap(&["table", "Typical DCs"]);
    assert_eq!(code, 0);
    assert!(out.contains("Nearly impossible | 30"), "{out}");
    let rolled = |seed: &str| {
        let (code, out, err) = battlemap(&["table", "urban-chase-complications", "--roll", "--seed", seed, "--json"]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Value>(&out).expect("JSON")
    };
    assert_eq!(rolled("12"), rolled("12"));
    assert!(rolled("12")["roll"]["result"].as_u64().is_some_and(|r| (1..=20).contains(&r)));
    let (code, _, err) = battlemap(&["table", "poisons", "--roll"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not rolled on"), "{err}");
    // DMG: eight orcs (+5) against AC 19: two hits.
    let (code, out, err) = battlemap(&["mob", "--bonus", "5", "--ac", "19", "--attackers", "8", "--json"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!((answer["roll_needed"].clone(), answer["hits"].clone()), (serde_json::json!(14), serde_json::json!(2)));
    // In words, as the Mob Attacks table reads: the d20 roll needed, the attackers for one hit.
    let (code, out, err) = battlemap(&["mob", "--bonus", "0", "--ac", "20", "--attackers", "20"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "They need a 20 on the d20: 1 in 20 attackers hits, so 1 of the 20 hits.");
    let (_, out, _) = battlemap(&["mob", "--bonus", "5", "--ac", "19", "--attackers", "8"]);
    assert_eq!(out.trim(), "They need 14 or higher on the d20: 1 in 3 attackers hits, so 2 of the 8 hit.");
}

/// A small square room for the fight queries: Ana and Bo flank the goblin east and west (DMG
/// "Flanking on Squares"), the goblin faces north with Bo in its rear arc, a wall hides Cid.
const FIGHT_ROOM: &str = r#"Scenario(
    name: "Fight room",
    grid: Square,
    rules: (flanking: true, facing: true, monster_damage: Average),
    map: [
        ".......",
        ".......",
        ".......",
        ".......",
        "...#...",
        ".......",
    ],
    creatures: [
        (id: "ana", name: "Ana", side: Party, size: Medium, at: (1, 1), speed: 30, ac: 15, hp: 20, pc: true,
         attacks: [(name: "Spear", bonus: 5, damage: "1d6+3", damage_type: "piercing")]),
        (id: "bo", name: "Bo", side: Party, size: Medium, at: (3, 1), speed: 30, ac: 15, hp: 20, pc: true,
         attacks: [(name: "Club", bonus: 4, damage: "1d4+2", damage_type: "bludgeoning")]),
        (id: "goblin", name: "Goblin", side: Enemy, size: Small, at: (2, 1), speed: 30, ac: 15, hp: 7,
         facing: East, resistances: ["piercing"],
         attacks: [(name: "Scimitar", bonus: 4, damage: "1d6+2", damage_type: "slashing")]),
        (id: "cid", name: "Cid", side: Enemy, size: Medium, at: (3, 5), speed: 30, ac: 12, hp: 11,
         attacks: [(name: "Dagger", bonus: 4, damage: "1d4+2", damage_type: "piercing")]),
    ],
)
"#;

#[test]
fn query_flanking_arcs_attacks_and_saves() {
    let dir = scratch("cli-fight");
    let file = dir.join("room.ron");
    std::fs::write(&file, FIGHT_ROOM).expect("write");
    let file = file.to_str().expect("utf-8");
    let ask = |args: &[&str]| {
        let mut all = vec!["query", file];
        all.extend_from_slice(args);
        let (code, out, err) = battlemap(&all);
        assert_eq!(code, 0, "{args:?}: {err}");
        serde_json::from_str::<Value>(&out).expect("JSON")
    };

    // Ana (1,1) and Bo (3,1) on opposite sides of the goblin (2,1).
    let flanking = ask(&["flanking", "goblin"]);
    assert_eq!(flanking["pairs"], serde_json::json!([{"a": "ana", "b": "bo", "a_cell": [1, 1], "b_cell": [3, 1]}]));
    let ana = &flanking["creatures"][0];
    assert_eq!((ana["id"].as_str(), ana["partner_cells"].clone()), (Some("ana"), serde_json::json!([[3, 1]])));

    // The goblin faces east: Bo is in its front arc, Ana behind it, the cell north of it at its left.
    assert_eq!(ask(&["arc", "goblin", "bo"])["arc"], "front");
    assert_eq!(ask(&["arc", "goblin", "ana"])["arc"], "rear");
    assert_eq!(ask(&["arc", "goblin", "2,0"])["arc"], "left");
    // It has a clear line to Ana but can't see into its rear arc.
    let los = ask(&["los", "goblin", "ana"]);
    assert_eq!((los["line_of_sight"].as_bool(), los["sees"].as_bool()), (Some(true), Some(false)));
    assert_eq!(los["unseen_because"], "Ana is in Goblin's rear arc");
    assert_eq!(ask(&["los", "goblin", "bo"])["sees"], true);

    // Ana attacks: flanking and the goblin's rear arc, both named; AC 15.
    let ruling = ask(&["attack", "ana", "goblin"]);
    assert_eq!(ruling["allowed"], true);
    let advantages: Vec<&str> =
        ruling["sources"]["advantages"].as_array().expect("list").iter().filter_map(Value::as_str).collect();
    assert!(advantages.iter().any(|s| s.contains("flanking Goblin with Bo")), "{advantages:?}");
    assert!(advantages.iter().any(|s| s.contains("rear arc")), "{advantages:?}");
    assert_eq!(ruling["ac"]["total"], 15);

    // Rolled: the same seed replays; the goblin resists piercing, so it loses half the damage.
    let rolled = ask(&["attack", "ana", "goblin", "--roll", "--seed", "4"]);
    assert_eq!(rolled, ask(&["attack", "ana", "goblin", "--roll", "--seed", "4"]));
    let roll = &rolled["rolled"];
    assert_eq!(roll["roll"]["mode"], "advantage");
    if let Some(damage) = roll["damage"].as_object() {
        let (rolled_damage, dealt) = (damage["rolled"].as_i64().expect("n"), damage["dealt"]["amount"].as_i64());
        assert_eq!(dealt, Some(rolled_damage / 2), "{damage:?}");
        assert_eq!(roll["health"]["hp"].as_i64(), Some((7 - rolled_damage / 2).max(0)));
    } else {
        assert_eq!(roll["health"]["hp"], 7, "a miss leaves the goblin as it was");
    }

    // The goblin's monster damage is the average (1d6+2 → 5), a wall hides Cid from Ana.
    let goblin = ask(&["attack", "goblin", "bo", "--roll", "--seed", "1"]);
    if goblin["rolled"]["outcome"] == "hit" {
        assert_eq!(goblin["rolled"]["damage"]["rolled"], 5);
    }
    let unseen = ask(&["attack", "ana", "cid"]);
    assert_eq!(unseen["allowed"], false);
    assert!(unseen["summary"].as_str().is_some_and(|s| s.contains("reach")), "{unseen}");

    // A 10-ft sphere of fire on the intersection 2,2 holds the three in row 1, not Cid; a Dex save
    // each against one damage roll, half on a success.
    let saves = ask(&["saves", "sphere", "10", "--origin", "2,2", "--dc", "15", "--damage", "8d6", "--half", "--roll"]);
    let inside: Vec<&str> =
        saves["creatures"].as_array().expect("list").iter().filter_map(|c| c["id"].as_str()).collect();
    assert_eq!(inside, ["ana", "bo", "goblin"]);
    let full = saves["rolled"]["damage_roll"]["total"].as_i64().expect("rolled once");
    for result in saves["rolled"]["results"].as_array().expect("results") {
        let taken = result["damage"]["amount"].as_i64().expect("damage");
        let expected = if result["success"] == true { full / 2 } else { full };
        assert_eq!(taken, expected, "{result}");
    }
    let (code, _, err) = battlemap(&["query", file, "saves", "sphere", "10", "--origin", "2,2", "--dc", "0"]);
    assert_eq!(code, 2, "a DC of 0 is refused");
    assert!(err.contains("--dc"), "{err}");
    let (code, _, err) = battlemap(&["query", file, "attack", "ana", "goblin", "--with", "Bow"]);
    assert_eq!(code, 2);
    assert!(err.contains("Spear"), "the attacks it has are named: {err}");
}

/// `query provokes`: where a walk provokes opportunity attacks and from whom, with Disengage, and
/// the path checked at the edge (neighbouring cells, on the map, bounded).
#[test]
fn query_provokes_and_the_turn_in_tokens() {
    let file = "scenes/tavern_brawl.ron";
    let (code, out, err) = battlemap(&["query", file, "provokes", "brom", "--path", "4,6", "5,7", "4,7", "3,7"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(answer["path"], serde_json::json!([[3, 5], [4, 6], [5, 7], [4, 7], [3, 7]]));
    let provocations = answer["provocations"].as_array().expect("a list");
    assert_eq!(provocations.len(), 1, "{out}");
    assert_eq!(provocations[0]["reactor"], "thug-1");
    assert_eq!(provocations[0]["at"], serde_json::json!([5, 7]), "the cell he is leaving");
    assert_eq!(provocations[0]["attack"], "Mace");

    let (_, out, _) =
        battlemap(&["query", file, "provokes", "brom", "--disengage", "--path", "4,6", "5,7", "4,7", "3,7"]);
    assert!(out.contains("\"provocations\": []"), "Disengage provokes nothing: {out}");

    let (code, _, err) = battlemap(&["query", file, "provokes", "brom", "--path", "4,6", "6,7"]);
    assert_eq!(code, 2);
    assert!(err.contains("steps from (4, 6) to (6, 7), which is not a neighbouring cell"), "{err}");
    let far: Vec<String> = (4..410).map(|x| format!("{x},5")).collect();
    let mut args = vec!["query", file, "provokes", "brom", "--path"];
    args.extend(far.iter().map(String::as_str));
    let (code, _, err) = battlemap(&args);
    assert!(code == 2 && err.contains("at most 400 are taken"), "{err}");

    let (code, out, err) = battlemap(&["query", file, "tokens"]);
    assert_eq!(code, 0, "{err}");
    let tokens: Value = serde_json::from_str(&out).expect("json");
    let brom = tokens["tokens"].as_array().expect("tokens").iter().find(|t| t["id"] == "brom").expect("brom");
    assert_eq!(brom["turn"]["action"], true);
    assert_eq!(brom["turn"]["reaction"], true);
    assert_eq!(brom["turn"]["movement"], 25);
    assert_eq!(brom["turn"]["bonus_action"], false, "nothing to spend a bonus action on");
    let keg = tokens["tokens"].as_array().expect("tokens").iter().find(|t| t["id"] == "keg").expect("keg");
    assert!(keg.get("turn").is_none(), "objects take no turns");
}

/// `query siege` and `query attack` with siege weapons and objects, on the castle-siege sample.
#[test]
fn query_siege_weapons_and_objects() {
    let ask = |args: &[&str]| {
        let mut all = vec!["query", "scenes/castle_siege.ron"];
        all.extend_from_slice(args);
        let (code, out, err) = battlemap(&all);
        (code, out, err)
    };
    let json = |args: &[&str]| {
        let (code, out, err) = ask(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        serde_json::from_str::<Value>(&out).expect("JSON")
    };
    let ram = json(&["siege", "ram"]);
    assert_eq!(
        (ram["kind"].as_str(), ram["state"].as_str(), ram["can_fire_now"].as_bool()),
        (Some("Ram"), Some("ready"), Some(true))
    );
    assert_eq!(ram["ram_crew"]["strength"], 8, "four Medium soldiers");
    let gate = ram["targets"].as_array().expect("targets").iter().find(|t| t["id"] == "gate").expect("the gate");
    assert_eq!(gate["allowed"], true, "{gate}");
    let cauldron = json(&["siege", "cauldron"]);
    assert_eq!(cauldron["next_step"], "tip");
    let under: Vec<&str> = cauldron["pour"]["creatures"]
        .as_array()
        .expect("creatures")
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(under, ["aldric", "soldier-3", "soldier-4"]);
    let ballista = json(&["siege", "ballista"]);
    assert_eq!((ballista["state"].as_str(), ballista["next_step"].as_str()), (Some("loaded"), Some("aim")));
    // The ballista as written (loaded, not aimed) can't fire yet.
    let refused = json(&["attack", "ballista", "wren"]);
    assert_eq!(refused["allowed"], false);
    assert_eq!(refused["refusal"]["reason"], "not_ready", "{refused}");
    // A mangonel's stone: too close under 65 ft; over the parapet with its high arc.
    let mangonel = json(&["siege", "mangonel"]);
    let target = |id: &str| mangonel["targets"].as_array().unwrap().iter().find(|t| t["id"] == id).cloned().unwrap();
    assert_eq!(target("engineer-1")["allowed"], false, "within 60 ft: {}", target("engineer-1"));
    assert!(target("archer-1")["summary"].as_str().unwrap().contains("high arc"), "{}", target("archer-1"));
    // Objects as targets: a spear's 1d6+1 never passes the gate's threshold of 15.
    let hits: Vec<Value> = (0..12)
        .map(|seed| json(&["attack", "soldier-1", "gate", "--roll", "--seed", &seed.to_string()]))
        .filter(|swing| !swing["rolled"]["damage"].is_null())
        .collect();
    assert!(!hits.is_empty(), "some of twelve seeded spear thrusts hit the gate");
    for swing in hits {
        let dealt = &swing["rolled"]["damage"]["dealt"];
        assert_eq!((dealt["amount"].as_i64(), dealt["by"].as_str()), (Some(0), Some("damage threshold")), "{swing}");
        assert_eq!(swing["rolled"]["health"]["hp"], 60, "the gate keeps its 60 hit points");
    }
    let (code, _, err) = ask(&["siege", "wren"]);
    assert_eq!(code, 2, "not siege equipment");
    assert!(err.contains("not siege equipment"), "{err}");
}

/// `battlemap fmt`: the first run rewrites a sample in canonical form, the second finds it
/// canonical and leaves its bytes alone; `--check` exits 1 before and 0 after, writing nothing;
/// the formatted file means the same (`query tokens` answers the same).
#[test]
fn fmt_rewrites_a_scene_once_and_keeps_its_meaning() {
    let dir = scratch("cli-fmt");
    let file = dir.join("castle.ron");
    // The sample, canonical itself, laid out by hand once more.
    let sample = std::fs::read_to_string(root().join("scenes/castle_siege.ron")).expect("reads");
    let original = sample.replacen("grid: Square,", "grid:   Square,", 1).into_bytes();
    std::fs::write(&file, &original).expect("writes");
    let path = file.to_str().expect("utf-8");

    let (code, out, err) = battlemap(&["fmt", "--check", path]);
    assert_eq!((code, out.trim()), (1, format!("{path} is not canonical").as_str()), "{err}");
    assert_eq!(std::fs::read(&file).expect("reads"), original, "--check writes nothing");

    let (code, out, err) = battlemap(&["fmt", path]);
    assert_eq!((code, out.trim()), (0, format!("formatted {path}").as_str()), "{err}");
    let formatted = std::fs::read(&file).expect("reads");
    assert_eq!(formatted, sample.as_bytes(), "the sample is canonical, so fmt gives it back");

    let (code, out, err) = battlemap(&["fmt", path]);
    assert_eq!((code, out.trim()), (0, format!("{path} is already canonical").as_str()), "{err}");
    assert_eq!(std::fs::read(&file).expect("reads"), formatted, "the second run changes nothing");
    let (code, out, err) = battlemap(&["fmt", "--check", path]);
    assert_eq!((code, out.trim()), (0, format!("{path} is already canonical").as_str()), "{err}");

    let tokens = |file: &str| -> Value {
        let (code, out, err) = battlemap(&["query", file, "tokens"]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).expect("JSON")
    };
    assert_eq!(tokens(path), tokens("scenes/castle_siege.ron"));
    let names: Vec<_> = std::fs::read_dir(&dir).expect("lists").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(names, ["castle.ron"], "no temporary file left");
}

/// An invalid file is reported as `check` reports it (`file:line:column`), exits 2 and is left
/// byte for byte; the valid files given with it are still formatted.
#[test]
fn fmt_leaves_a_bad_file_untouched() {
    let dir = scratch("cli-fmt-bad");
    let bad = dir.join("bad.ron");
    let broken = "// keep me\nScenario(\n  name: \"Bad\",\n  grid: Square,\n  size: 3,\n  map: [\"..\"],\n)";
    std::fs::write(&bad, broken).expect("writes");
    let good = dir.join("good.ron");
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &good).expect("copies");
    let (bad_path, good_path) = (bad.to_str().expect("utf-8"), good.to_str().expect("utf-8"));

    for args in [&["fmt", bad_path, good_path][..], &["fmt", "--check", bad_path]] {
        let (code, _, err) = battlemap(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(&format!("{bad_path}:5:3: unknown field `size`")), "{err}");
        assert_eq!(std::fs::read_to_string(&bad).expect("reads"), broken);
    }
    let (code, out, _) = battlemap(&["fmt", "--check", good_path]);
    assert_eq!((code, out.trim()), (0, format!("{good_path} is already canonical").as_str()));
    let (code, _, err) = battlemap(&["fmt", "no/such/file.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.ron: cannot read the file"), "{err}");
}

/// The sample scenes are in canonical form (issue 29): `battlemap fmt --check scenes/*.ron`
/// passes, so what the app saves and what ships read alike.
#[test]
fn the_sample_scenes_are_canonical() {
    let scenes: Vec<String> = sample_scenes().iter().map(|p| p.display().to_string()).collect();
    let mut args = vec!["fmt", "--check"];
    args.extend(scenes.iter().map(String::as_str));
    let (code, out, err) = battlemap(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().filter(|l| l.ends_with("is already canonical")).count(), scenes.len(), "{out}");
}

/// Issue 37 (17): PHB appendix A, "Incapacitated" (and "Stunned": incapacitated): "can't take
/// actions or reactions": `query tokens` says a stunned creature has no action, bonus action or
/// reaction to spend, as its card does.
#[test]
fn query_tokens_shows_no_action_for_an_incapacitated_creature() {
    let text = std::fs::read_to_string(root().join("scenes/tavern_brawl.ron")).expect("the tavern");
    let stunned = text.replacen("name: \"Brom\",", "name: \"Brom\", conditions: [Stunned],", 1);
    let scene = battlemap::scenario::Scenario::from_ron("stunned.ron", &stunned).expect("valid");
    let tokens = battlemap::cli::query::ask(&scene, &["tokens"]).expect("answers");
    let brom = tokens["tokens"].as_array().expect("tokens").iter().find(|t| t["id"] == "brom").expect("brom").clone();
    for part in ["action", "reaction", "bonus_action", "object_interaction"] {
        assert_eq!(brom["turn"][part], false, "{part}: {brom}");
    }
    assert_eq!(brom["turn"]["movement"], 0, "stunned: speed 0");
    let lia = tokens["tokens"].as_array().expect("tokens").iter().find(|t| t["id"] == "lia").expect("lia").clone();
    assert_eq!((lia["turn"]["action"].as_bool(), lia["turn"]["reaction"].as_bool()), (Some(true), Some(true)));
}

/// Issue 37 (12): effects given in a scene tick as many rounds as they last from the scene's
/// start: the crypt's wight burns "1d6 fire for two rounds" twice, then the burning ends.
#[test]
fn a_scenes_effect_lasts_all_its_rounds() {
    let (code, out, err) = battlemap(&["query", "scenes/haunted_crypt.ron", "advance", "--rounds", "4", "--seed", "3"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("json");
    let events = answer["events"].as_array().expect("events");
    let burns = events
        .iter()
        .filter(|e| {
            e["kind"] == "roll" && e["entry"]["reason"]["for"] == "damage" && e["entry"]["reason"]["of"] == "burning"
        })
        .count();
    assert_eq!(burns, 2, "two rounds, two burns: {out}");
    assert!(events.iter().any(|e| e["event"] == "ended" && e["name"] == "burning"));
}

/// Issue 37 (25): the map window where no display can be opened: one sentence saying what is
/// needed, exit status 1, no panic and no backtrace; with no display named, and with one that
/// isn't there.
#[test]
fn the_map_without_a_display_says_so() {
    for display in [None, Some(":1999")] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_battlemap"));
        command.args(["scenes/tavern_brawl.ron", "--no-autosave"]).current_dir(root()).env_remove("WAYLAND_DISPLAY");
        match display {
            Some(display) => command.env("DISPLAY", display),
            None => command.env_remove("DISPLAY"),
        };
        let output = command.output().expect("the binary runs");
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{display:?}: {err}");
        assert!(err.contains("no display could be opened") && err.contains("xvfb-run"), "{display:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("backtrace"), "{display:?}: {err}");
        assert_eq!(err.lines().count(), 1, "one sentence: {err}");
    }
}

/// Issue 40: an encounter made only of SRD stat blocks (`scenes/kobold_warren.ron`) answers on
/// the command line: a kobold beside Dame Orla with another kobold at her other side attacks with
/// Pack Tactics, one under the smoke hole's daylight with its Sunlight Sensitivity, and the
/// fight's XP (DMG "Experience Points": 4 kobolds… 200 XP among four) lifts Wren to 4th level.
#[test]
fn an_encounter_from_the_bestiary_answers_on_the_command_line() {
    let scene = root().join("scenes/kobold_warren.ron");
    let (code, out, err) = battlemap(&["query", scene.to_str().expect("utf-8"), "xp", "--all"]);
    assert_eq!(code, 0, "{err}");
    let xp: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        (xp["total"].as_u64(), xp["share"].as_u64(), xp["members"].as_array().map(Vec::len)),
        (Some(200), Some(50), Some(4))
    );
    assert_eq!(xp["level_ups"], serde_json::json!([{ "id": "wren", "xp": 2730, "level": 4 }]));
    // Nothing is defeated yet: nothing to share.
    let (_, out, _) = battlemap(&["query", scene.to_str().expect("utf-8"), "xp"]);
    assert_eq!(serde_json::from_str::<Value>(&out).expect("JSON")["total"], 0);
    // Two kobolds close in on Dame Orla (2, 2).
    let text = std::fs::read_to_string(&scene).expect("the scene");
    let closer = text
        .replace(
            "(id: \"kobold-1\", monster: \"kobold\", at: (9, 2))",
            "(id: \"kobold-1\", monster: \"kobold\", at: (3, 2))",
        )
        .replace(
            "(id: \"kobold-2\", monster: \"kobold\", at: (10, 4))",
            "(id: \"kobold-2\", monster: \"kobold\", at: (2, 3))",
        );
    assert_ne!(closer, text);
    let dir = scratch("warren");
    let file = dir.join("warren.ron");
    std::fs::write(&file, closer).expect("writes");
    let attack = |attacker: &str| -> Value {
        let (code, out, err) = battlemap(&["query", file.to_str().expect("utf-8"), "attack", attacker, "dame-orla"]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).expect("JSON")
    };
    let ruling = attack("kobold-1");
    assert_eq!(
        ruling["sources"]["advantages"],
        serde_json::json!(["Pack Tactics: Kobold is within 5 ft of Dame Orla"])
    );
    assert_eq!(ruling["attack"]["name"], "Dagger");
    assert!(ruling["refusal"].is_null(), "{ruling}");
    // The kobold under the smoke hole (9, 2): in sunlight, its sling at disadvantage.
    let (code, out, err) =
        battlemap(&["query", scene.to_str().expect("utf-8"), "attack", "kobold-1", "wren", "--with", "Sling"]);
    assert_eq!(code, 0, "{err}");
    let sling: Value = serde_json::from_str(&out).expect("JSON");
    let hampered = sling["sources"]["disadvantages"].as_array().expect("disadvantages");
    assert!(hampered.contains(&serde_json::json!("Kobold is in sunlight (Sunlight Sensitivity)")), "{sling}");
}
