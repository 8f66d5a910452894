//! One answer per question: the command line and the map ask the same view of the board
//! (`Scenario::field`, built from the scenario's tokens or from the app's components), so cover,
//! sight, distance, reach, flanking and areas agree everywhere. Regression tests of issue 26: a
//! creature inside a siege tower, and a guard on a wall walk 20 ft up.

use bevy::prelude::*;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use serde_json::Value;

use battlemap::app::core::state::LoadedScenario;
use battlemap::app::core::tokens::TokenData;
use battlemap::cli::query::ask;
use battlemap::rules::fight::Fighter;
use battlemap::scenario::Scenario;

/// The headless app on a scenario given as text.
fn app_on(scenario: &Scenario) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LoadedScenario::built_in(scenario.clone()))
        .insert_resource(battlemap::app::LaunchOptions { seed: Some(26), ..Default::default() })
        .add_plugins(battlemap::app::headless_plugin);
    app.update();
    app.update();
    app
}

/// The fighters the map builds from its components: the app's one conversion.
fn map_fighters(app: &mut App) -> Vec<Fighter> {
    let map = app.world().resource::<LoadedScenario>().scenario.map.clone();
    let mut query = app.world_mut().query::<TokenData>();
    query.iter(app.world()).map(|t| t.fighter(&map)).collect()
}

fn asked(scenario: &Scenario, words: &[&str]) -> Value {
    ask(scenario, words).unwrap_or_else(|e| panic!("{words:?}: {e}"))
}

/// A siege tower with a creature inside it, an archer outside, a wall between neither.
const TOWER: &str = r#"Scenario(
    name: "The tower",
    grid: Square,
    map: [
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
    ],
    creatures: [
        (id: "inside", name: "Lia", side: Party, size: Medium, at: (3, 3), speed: 30, ac: 14, hp: 20),
        (id: "archer", name: "Archer", side: Enemy, size: Medium, at: (12, 3), speed: 30, ac: 13, hp: 16,
         attacks: [(name: "Longbow", bonus: 4, damage: "1d8+2", damage_type: "piercing", range: 150, long_range: 600)]),
    ],
    objects: [
        (id: "tower", name: "Siege tower", siege: SiegeTower, side: Party, at: (2, 2)),
    ],
)"#;

/// DMG "Siege Tower": creatures inside "have total cover from attacks outside the tower". The
/// command line's `cover`, its `attack` and the map all say so; `los` agrees with the attack's sight.
#[test]
fn a_creature_in_a_siege_tower_has_total_cover_in_every_answer() {
    let scenario = Scenario::from_ron("tower.ron", TOWER).expect("a valid scene");
    let cover = asked(&scenario, &["cover", "archer", "inside"]);
    assert_eq!((cover["degree"].as_str(), cover["total"].as_bool()), (Some("total"), Some(true)), "{cover}");
    assert!(cover["sheltered"].as_str().is_some_and(|s| s.contains("inside Siege tower")), "{cover}");
    let attack = asked(&scenario, &["attack", "archer", "inside"]);
    assert_eq!(attack["allowed"], false);
    assert_eq!(attack["refusal"]["reason"], "sheltered", "{}", attack["refusal"]);
    assert_eq!(attack["cover"]["degree"], cover["degree"]);
    assert_eq!(attack["cover"]["total"], cover["total"]);
    let sight = asked(&scenario, &["los", "archer", "inside"]);
    assert_eq!(sight["sees"], attack["sees_target"]);
    // The map: its Field from the app's components.
    let mut app = app_on(&scenario);
    let fighters = map_fighters(&mut app);
    let field = scenario.field(&fighters);
    let (archer, inside) = (field.fighter("archer").expect("archer"), field.fighter("inside").expect("inside"));
    let on_the_map = field.cover(archer, inside, false);
    assert_eq!(on_the_map.degree, battlemap::rules::sight::CoverDegree::Total);
    assert!(on_the_map.sheltered.is_some());
    // From inside, the tower's cover is one way: it shoots out.
    assert_eq!(asked(&scenario, &["cover", "inside", "archer"])["degree"], "none");
    // An area from outside the tower is kept out as an attack is (docs/rules.md, "Siege
    // equipment"); one from inside it reaches Lia.
    let lia_in = |origin: &str| {
        let saves = asked(&scenario, &["saves", "sphere", "30", "--origin", origin, "--dc", "12"]);
        let creatures = saves["creatures"].as_array().cloned().unwrap_or_default();
        creatures.into_iter().find(|c| c["id"] == "inside").unwrap_or_else(|| panic!("Lia in the area: {saves}"))
    };
    let outside = lia_in("8,3");
    assert!(outside["sheltered"].as_str().is_some_and(|s| s.contains("inside Siege tower")), "{outside}");
    assert_eq!(outside["cover"], "total");
    assert_eq!(lia_in("4,4")["sheltered"], Value::Null, "an origin inside the tower");
}

/// A guard on a wall walk 20 ft up, a hero at the wall's foot, an orc beside the hero and a
/// lookout of the hero's on the wall walk above the orc.
const WALL: &str = r##"Scenario(
    name: "The wall",
    grid: Square,
    rules: (diagonals: Standard, flanking: true, facing: false, monster_damage: Rolled),
    legend: {
        'w': Custom(name: "wall walk, 20 ft up", color: "#8d8478"),
    },
    map: [
        "wwwwwwww",
        "........",
        "........",
        "........",
        "........",
    ],
    creatures: [
        (id: "guard", name: "Guard", side: Enemy, size: Medium, at: (5, 0), speed: 30, ac: 16, hp: 11, elevation: 20,
         attacks: [(name: "Spear", bonus: 3, damage: "1d6+1", damage_type: "piercing")]),
        (id: "hero", name: "Hero", side: Party, size: Medium, at: (5, 1), speed: 30, ac: 15, hp: 30,
         attacks: [(name: "Sword", bonus: 5, damage: "1d8+3", damage_type: "slashing")]),
        (id: "orc", name: "Orc", side: Enemy, size: Medium, at: (2, 1), speed: 30, ac: 13, hp: 15,
         attacks: [(name: "Greataxe", bonus: 5, damage: "1d12+3", damage_type: "slashing")]),
        (id: "fighter", name: "Fighter", side: Party, size: Medium, at: (2, 2), speed: 30, ac: 16, hp: 28,
         attacks: [(name: "Sword", bonus: 5, damage: "1d8+3", damage_type: "slashing")]),
        (id: "lookout", name: "Lookout", side: Party, size: Medium, at: (2, 0), speed: 30, ac: 13, hp: 12, elevation: 20,
         attacks: [(name: "Dagger", bonus: 4, damage: "1d4+2", damage_type: "piercing")]),
    ],
)"##;

/// docs/rules.md, "Elevation": the guard 20 ft up is 20 ft from the hero at its foot, so its spear
/// doesn't reach, the hero walking off provokes nothing from it, the lookout above the orc
/// doesn't flank it, and a 5-ft sphere at the wall's foot doesn't catch it.
#[test]
fn a_guard_20_ft_up_is_20_ft_away_for_every_rule() {
    let scenario = Scenario::from_ron("wall.ron", WALL).expect("a valid scene");
    let distance = asked(&scenario, &["distance", "guard", "hero"]);
    assert_eq!((distance["feet"].as_u64(), distance["across"].as_u64()), (Some(20), Some(5)), "{distance}");
    let attack = asked(&scenario, &["attack", "guard", "hero"]);
    assert_eq!(attack["refusal"]["reason"], "out_of_reach", "{}", attack["refusal"]);
    assert_eq!(attack["distance"], 20);
    let provokes = asked(&scenario, &["provokes", "hero", "--path", "6,1", "7,1"]);
    assert_eq!(provokes["provocations"], Value::Array(Vec::new()), "{provokes}");
    let walk_on = asked(&scenario, &["provokes", "fighter", "--path", "3,2", "4,3"]);
    assert_eq!(walk_on["provocations"][0]["reactor"], "orc", "the orc on the ground still strikes: {walk_on}");
    let flanking = asked(&scenario, &["flanking", "orc"]);
    assert_eq!(flanking["pairs"], Value::Array(Vec::new()), "the lookout is 20 ft above the orc: {flanking}");
    let lookout = flanking["creatures"].as_array().and_then(|c| c.iter().find(|c| c["id"] == "lookout")).cloned();
    assert_eq!(lookout.map(|l| l["partner_cells"].clone()), Some(Value::Array(Vec::new())));
    let sphere = asked(&scenario, &["aoe", "sphere", "5", "--origin", "6,1"]);
    let caught: Vec<&str> = sphere["tokens"].as_array().expect("tokens").iter().filter_map(Value::as_str).collect();
    assert!(caught.contains(&"hero") && !caught.contains(&"guard"), "{sphere}");
    let high = asked(&scenario, &["aoe", "sphere", "20", "--origin", "6,1"]);
    assert!(
        high["tokens"].as_array().expect("tokens").iter().any(|t| t == "guard"),
        "a 20-ft sphere reaches up: {high}"
    );
    let saves = asked(&scenario, &["saves", "sphere", "5", "--origin", "6,1", "--dc", "12"]);
    let saving: Vec<&str> =
        saves["creatures"].as_array().expect("creatures").iter().filter_map(|c| c["id"].as_str()).collect();
    assert_eq!(saving, ["hero"], "{saves}");
    // The map's board agrees: the same distance and no flanking pair.
    let mut app = app_on(&scenario);
    let fighters = map_fighters(&mut app);
    let field = scenario.field(&fighters);
    let (guard, hero, orc) =
        (field.fighter("guard").unwrap(), field.fighter("hero").unwrap(), field.fighter("orc").unwrap());
    assert_eq!(field.feet_between(guard, hero), 20);
    assert!(battlemap::rules::fight::adjudicate::flanking_pairs(&field, orc).is_empty());
}

/// A random scene: walls, low obstacles, a wall walk, creatures at random heights, a barrel, and
/// sometimes a siege tower with a creature inside.
fn scene(walls: &[(u8, u8, u8)], placed: &[(u8, u8, bool)], tower: bool) -> Option<Scenario> {
    let (w, h) = (12usize, 9usize);
    let mut rows: Vec<Vec<char>> = vec![vec!['.'; w]; h];
    for &(x, y, kind) in walls {
        rows[usize::from(y) % h][usize::from(x) % w] = ['#', '=', 'w'][usize::from(kind) % 3];
    }
    if tower {
        for row in rows.iter_mut().skip(1).take(4) {
            for cell in row.iter_mut().skip(1).take(4) {
                *cell = '.';
            }
        }
    }
    let mut creatures = Vec::new();
    let mut taken: Vec<(usize, usize)> = Vec::new();
    for (i, &(x, y, high)) in placed.iter().enumerate() {
        let (x, y) = (usize::from(x) % w, usize::from(y) % h);
        if rows[y][x] != '.' && rows[y][x] != 'w'
            || taken.contains(&(x, y))
            || (tower && (1..5).contains(&x) && (1..5).contains(&y))
        {
            continue;
        }
        taken.push((x, y));
        let side = if i % 2 == 0 { "Party" } else { "Enemy" };
        let elevation = if high { 20 } else { 0 };
        creatures.push(format!(
            r#"(id: "c{i}", name: "C{i}", side: {side}, size: Medium, at: ({x}, {y}), speed: 30, ac: 13, hp: 10, elevation: {elevation},
             attacks: [(name: "Bow", bonus: 4, damage: "1d6+2", damage_type: "piercing", range: 150, long_range: 600)])"#
        ));
    }
    if tower {
        creatures.push(
            r#"(id: "rider", name: "Rider", side: Party, size: Medium, at: (2, 2), speed: 30, ac: 13, hp: 10,
             attacks: [(name: "Bow", bonus: 4, damage: "1d6+2", damage_type: "piercing", range: 150, long_range: 600)])"#
                .to_owned(),
        );
    }
    let objects = if tower {
        r#"(id: "tower", name: "Siege tower", siege: SiegeTower, side: Party, at: (1, 1))"#
    } else {
        r#"(id: "barrel", name: "Barrel", size: Small, at: (11, 8), substance: Wood)"#
    };
    let map: Vec<String> = rows.iter().map(|r| format!("        \"{}\",", r.iter().collect::<String>())).collect();
    let text = format!(
        "Scenario(\n    name: \"Random\",\n    grid: Square,\n    legend: {{ 'w': Custom(name: \"wall walk\", color: \"#8d8478\") }},\n    map: [\n{}\n    ],\n    creatures: [\n{}\n    ],\n    objects: [{objects}],\n)",
        map.join("\n"),
        creatures.join(",\n")
    );
    Scenario::from_ron("random.ron", &text).ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, rng_seed: RngSeed::Fixed(26), ..ProptestConfig::default() })]

    /// For every pair of a random scene with walls, objects, heights and a siege tower, `query
    /// cover` and `query los` agree with the cover and sight `query attack` rules with, and with
    /// what the map's `Field`, built from the app's components, gives.
    #[test]
    fn cover_and_sight_are_one_answer_everywhere(
        walls in proptest::collection::vec((0u8..12, 0u8..9, 0u8..3), 0..20),
        placed in proptest::collection::vec((0u8..12, 0u8..9, any::<bool>()), 2..6),
        tower in any::<bool>(),
    ) {
        let Some(scenario) = scene(&walls, &placed, tower) else { return Ok(()) };
        let mut app = app_on(&scenario);
        let fighters = map_fighters(&mut app);
        let field = scenario.field(&fighters);
        let ids: Vec<String> = scenario.tokens.iter().filter(|t| t.siege.is_none()).map(|t| t.id.clone()).collect();
        for a in &ids {
            for b in ids.iter().filter(|b| *b != a) {
                let cover = asked(&scenario, &["cover", a, b]);
                let attack = asked(&scenario, &["attack", a, b]);
                let sight = asked(&scenario, &["los", a, b]);
                prop_assert_eq!(&cover["degree"], &attack["cover"]["degree"], "{} on {}", a, b);
                prop_assert_eq!(&cover["total"], &attack["cover"]["total"], "{} on {}", a, b);
                prop_assert_eq!(&sight["sees"], &attack["sees_target"], "{} sees {}", a, b);
                let (fa, fb) = (field.fighter(a).expect("a"), field.fighter(b).expect("b"));
                let map_cover = serde_json::to_value(field.cover(fa, fb, false).degree).expect("json");
                prop_assert_eq!(&cover["degree"], &map_cover, "the map: {} on {}", a, b);
                prop_assert_eq!(sight["sees"].as_bool(), Some(field.sees(fa, fb)), "the map: {} sees {}", a, b);
                let distance = asked(&scenario, &["distance", a, b]);
                prop_assert_eq!(distance["feet"].as_u64(), Some(u64::from(field.feet_between(fa, fb))));
                prop_assert_eq!(&distance["feet"], &attack["distance"]);
            }
        }
    }
}
