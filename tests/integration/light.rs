//! Light and darkness (issue 30; SRD 5.1 "Vision and Light"): a dark scene with a torch-bearer
//! and a darkvision elf. The attack adjudicator gives an unseen attacker advantage in the dark and
//! not in the torchlight, `los` and `light` say why, and `check` refuses bad lights.

use battlemap::cli::query::ask;
use battlemap::scenario::Scenario;
use serde_json::Value;

/// A dark hall 14 cells long: Tam (no darkvision) carries a torch at 1,2; Ela the elf (darkvision
/// 60 ft) stands beside him; one goblin in the torchlight at 5,2, another in the dark at 12,2, a
/// brazier lights the far corner.
const HALL: &str = r#"Scenario(
    name: "Dark hall",
    grid: Square,
    light: Dark,
    map: ["..............", "..............", ".............."],
    creatures: [
        (id: "tam", name: "Tam", side: Party, size: Medium, at: (1, 1), speed: 30, ac: 12, hp: 20, light: (bright: 20, dim: 20),
         attacks: [(name: "Sword", bonus: 4, damage: "1d8+2")]),
        (id: "ela", name: "Ela", side: Party, size: Medium, at: (1, 2), speed: 30, ac: 12, hp: 20, darkvision: 60,
         attacks: [(name: "Bow", bonus: 5, damage: "1d8+3", range: 80, long_range: 320)]),
        (id: "near", name: "Goblin", side: Enemy, size: Small, at: (5, 1), speed: 30, ac: 15, hp: 7,
         attacks: [(name: "Shortbow", bonus: 4, damage: "1d6+2", range: 80, long_range: 320)]),
        (id: "far", name: "Goblin", side: Enemy, size: Small, at: (12, 1), speed: 30, ac: 15, hp: 7,
         attacks: [(name: "Shortbow", bonus: 4, damage: "1d6+2", range: 80, long_range: 320)]),
    ],
    lights: [(at: (9, 0), bright: 0, dim: 5)],
)"#;

fn hall() -> Scenario {
    Scenario::from_ron("hall.ron", HALL).expect("the hall is valid")
}

fn asked(scenario: &Scenario, words: &[&str]) -> Value {
    ask(scenario, words).unwrap_or_else(|e| panic!("{words:?}: {e}"))
}

/// The whole ruling on an attack, as text (its advantages are named in it).
fn advantages(scenario: &Scenario, attacker: &str, target: &str) -> String {
    asked(scenario, &["attack", attacker, target]).to_string()
}

#[test]
fn an_attacker_in_the_dark_is_unseen_and_one_in_the_torchlight_is_not() {
    let dark = hall();
    // The far goblin shoots from the dark at Tam, who has no darkvision: unseen attacker.
    let far = advantages(&dark, "far", "tam");
    assert!(far.contains("unseen attacker: Goblin is in darkness as Tam sees it"), "{far}");
    // The near goblin stands in Tam's torchlight: Tam sees it.
    let near = advantages(&dark, "near", "tam");
    assert!(!near.contains("unseen attacker"), "{near}");
    // Ela sees the far goblin's darkness as dim light (55 ft, within her 60): not unseen.
    let at_ela = advantages(&dark, "far", "ela");
    assert!(!at_ela.contains("unseen attacker"), "{at_ela}");
    // The same hall in daylight: no one is unseen.
    let day = Scenario::from_ron("day.ron", &HALL.replace("light: Dark,\n", "")).expect("valid");
    assert!(!advantages(&day, "far", "tam").contains("unseen attacker"));
}

#[test]
fn los_and_light_say_why() {
    let dark = hall();
    let los = asked(&dark, &["los", "tam", "far"]);
    assert_eq!(los["line_of_sight"], true, "{los}");
    assert_eq!(los["sees"], false, "{los}");
    assert_eq!(los["light"], "darkness", "{los}");
    assert_eq!(asked(&dark, &["los", "ela", "far"])["light"], "dim light");
    assert_eq!(asked(&dark, &["los", "tam", "near"])["light"], "bright light", "20 ft from the torch");
    for (cell, light) in [("2,1", "bright light"), ("6,1", "dim light"), ("11,1", "darkness"), ("10,1", "dim light")] {
        let answer = asked(&dark, &["light", cell]);
        assert_eq!(answer["light"], light, "{cell}: {answer}");
        assert_eq!(answer["scene"], "darkness");
    }
    assert!(asked(&dark, &["light", "11,1"])["obscured"].as_str().is_some_and(|s| s.starts_with("heavily obscured")));
}

/// Issue 37 (7, 8): `light`, `los` and the attack adjudicator measure a light's radius and
/// darkvision's range by the one distance (docs/rules.md, "Elevation"): the scene's diagonal rule,
/// and heights. Under the 5/10 rule a goblin four diagonals from Tam's torch is 30 ft away (by
/// `query distance`), in its dim light, not its bright light; 45 ft away it is in the dark. A
/// guard 100 ft up a tower with darkvision 60 ft sees the dark at the tower's foot as darkness, and
/// a torch 100 ft up lights nothing on the ground.
#[test]
fn light_and_darkvision_use_the_one_distance() {
    let tower = r#"Scenario(
    name: "Tower",
    grid: Square,
    rules: (diagonals: Alternating),
    light: Dark,
    map: ["..........", "..........", "..........", "..........", "..........", "..........", "..........", ".........."],
    creatures: [
        (id: "tam", name: "Tam", side: Party, size: Medium, at: (0, 0), speed: 30, ac: 12, hp: 20, light: (bright: 20, dim: 20)),
        (id: "rat", name: "Rat", side: Enemy, size: Tiny, at: (4, 4), speed: 20, ac: 10, hp: 1),
        (id: "bat", name: "Bat", side: Enemy, size: Tiny, at: (6, 6), speed: 20, ac: 10, hp: 1),
        (id: "guard", name: "Guard", side: Enemy, size: Medium, at: (9, 0), speed: 30, ac: 12, hp: 20, darkvision: 60, elevation: 100,
         light: (bright: 20, dim: 20)),
        (id: "thief", name: "Thief", side: Party, size: Medium, at: (9, 1), speed: 30, ac: 12, hp: 20,
         attacks: [(name: "Shortbow", bonus: 4, damage: "1d6+2", range: 80, long_range: 320)]),
    ],
)"#;
    let scene = Scenario::from_ron("tower.ron", tower).expect("valid");
    assert_eq!(asked(&scene, &["distance", "tam", "rat"])["feet"], 30, "5 + 10 + 5 + 10");
    assert_eq!(
        asked(&scene, &["light", "4,4"])["light"],
        "dim light",
        "30 ft: beyond the torch's 20 ft of bright light"
    );
    assert_eq!(asked(&scene, &["light", "3,3"])["light"], "bright light", "20 ft");
    assert_eq!(asked(&scene, &["light", "6,6"])["light"], "darkness", "45 ft: beyond its 40 ft");
    assert_eq!(asked(&scene, &["los", "tam", "rat"])["light"], "dim light");
    assert_eq!(asked(&scene, &["los", "tam", "bat"])["sees"], false);
    // The guard's torch, 100 ft up, doesn't reach the ground; its darkvision doesn't either.
    assert_eq!(asked(&scene, &["light", "9,1"])["light"], "darkness");
    assert_eq!(asked(&scene, &["distance", "guard", "thief"])["feet"], 100);
    let los = asked(&scene, &["los", "guard", "thief"]);
    assert_eq!((los["light"].as_str(), los["sees"].as_bool()), (Some("darkness"), Some(false)), "{los}");
    let from_below = asked(&scene, &["los", "thief", "guard"]);
    assert_eq!(from_below["sees"], true, "the guard is in its own torchlight, up there: {from_below}");
    assert!(advantages(&scene, "thief", "guard").contains("unseen attacker: Thief is in darkness as Guard sees it"));
}

#[test]
fn lights_and_darkvision_are_checked_and_kept() {
    let refused = |text: &str, says: &str| {
        let errors = Scenario::from_ron("bad.ron", text).expect_err("refused");
        assert!(errors.0.iter().any(|e| e.to_string().contains(says) && e.position.is_some()), "{says}: {errors}");
    };
    refused(&HALL.replace("darkvision: 60", "darkvision: 5000"), "`darkvision` is 5000");
    refused(&HALL.replace("light: (bright: 20, dim: 20)", "light: (bright: 20, dim: 99999)"), "`dim` is 99999");
    refused(&HALL.replace("lights: [(at: (9, 0)", "lights: [(at: (40, 0)"), "the light at 40,0 is not on the map");
    refused(&HALL.replace("lights: [(at: (9, 0)", "lights: [(at: (2147483647, 0)"), "is not on the map");
    refused(&HALL.replace("light: Dark,", "light: Gloomy,"), "`Gloomy` is not one of `Dark`, `Dim`, `Bright`");
    // The canonical text keeps every light.
    let written = hall().to_ron();
    let reread = Scenario::from_ron("again.ron", &written).expect("reads back");
    assert_eq!(reread, hall());
    for kept in ["light: Dark,", "darkvision: 60", "light: (bright: 20, dim: 20)", "(at: (9, 0), bright: 0, dim: 5)"] {
        assert!(written.contains(kept), "{kept} in {written}");
    }
}

fn send(app: &mut bevy::prelude::App, message: impl bevy::prelude::Message) {
    app.world_mut().write_message(message);
    app.update();
    app.update();
}

/// The fog of war on the map (issue 30): in the hall with Ela's darkvision cut to 30 ft (and Tam
/// fast enough to walk there and back in a turn), the far goblin is outside the party's sight:
/// not drawn for the players, drawn for the DM, and its cell dark; a chest in the dark beyond is
/// not drawn either. When Tam walks his torch toward them, they come into sight; when he walks
/// back, their cells stay explored (dimmed), the goblin leaves the players' view again and the
/// chest, part of the scenery, stays.
#[test]
fn the_fog_of_war_follows_the_party() {
    use battlemap::app::core::components::OutOfView;
    use battlemap::app::core::messages::{AudienceRequest, MoveToken};
    use battlemap::app::core::state::{CellShades, PartySight, ShadeLayer};
    use battlemap::rules::Cell;

    let dir = super::scratch("fog");
    let path = dir.join("hall.ron");
    let text = HALL
        .replace("darkvision: 60", "darkvision: 30")
        .replace("at: (1, 1), speed: 30", "at: (1, 1), speed: 60")
        .replace(
            "    lights: [",
            "    objects: [(id: \"chest\", name: \"Chest\", size: Small, at: (13, 2), ac: 11, hp: 10)],\n    lights: [",
        );
    std::fs::write(&path, text).expect("writes");
    let mut app = super::headless::app_with(path.to_str().expect("utf-8"));
    let (far, tam) = (super::headless::entity_of(&mut app, "far"), super::headless::entity_of(&mut app, "tam"));
    let map = app.world().resource::<battlemap::app::core::state::LoadedScenario>().scenario.map.clone();
    let index = |x, y| map.index_of(Cell::new(x, y)).expect("on the map");
    let fog_at = |app: &bevy::prelude::App, x, y| {
        app.world()
            .resource::<CellShades>()
            .layer(ShadeLayer::Fog)
            .iter()
            .find(|(c, _)| *c == Cell::new(x, y))
            .map(|(_, s)| *s)
    };
    app.update();
    let sight = app.world().resource::<PartySight>().clone();
    assert!(sight.visible[index(2, 1)] && !sight.visible[index(12, 1)], "the torchlight is seen, the far dark isn't");
    assert!(app.world().get::<OutOfView>(far).is_some(), "out of the party's sight: not drawn for the players");
    assert!(app.world().get::<OutOfView>(tam).is_none());
    let chest = super::headless::entity_of(&mut app, "chest");
    assert!(app.world().get::<OutOfView>(chest).is_some(), "an object where the party never looked is not drawn");
    let never_seen = fog_at(&app, 12, 1).expect("fogged");
    assert!(fog_at(&app, 2, 1).is_none(), "a seen cell is clear");
    // The light is shaded under the fog: Tam's torch is bright to 20 ft and dim to 40 ft.
    use bevy::color::Alpha;
    let light_at = |app: &bevy::prelude::App, x, y| {
        let shades = app.world().resource::<CellShades>();
        shades.layer(ShadeLayer::Light).iter().find(|(c, _)| *c == Cell::new(x, y)).map(|(_, s)| *s)
    };
    let (dim, darkness) = (light_at(&app, 7, 1).expect("dim light is shaded"), light_at(&app, 12, 1));
    assert!(light_at(&app, 3, 1).is_none(), "bright light is not shaded");
    assert!(darkness.is_some_and(|d| d.alpha() > dim.alpha()), "darkness is shaded darker than dim light");

    send(&mut app, AudienceRequest { dm: true });
    assert!(app.world().get::<OutOfView>(far).is_none(), "the DM sees it");
    assert_ne!(fog_at(&app, 12, 1), Some(never_seen), "the DM's fog is a light tint");
    send(&mut app, AudienceRequest { dm: false });

    send(&mut app, MoveToken::new(tam, Cell::new(7, 1)));
    assert!(app.world().resource::<PartySight>().visible[index(12, 1)], "25 ft from the torch: dim light");
    assert!(app.world().get::<OutOfView>(far).is_none(), "in the torchlight, drawn for the players");
    assert!(fog_at(&app, 12, 1).is_none());

    send(&mut app, MoveToken::new(tam, Cell::new(1, 1)));
    let sight = app.world().resource::<PartySight>().clone();
    assert!(!sight.visible[index(12, 1)] && sight.explored[index(12, 1)], "seen before, not now");
    let explored = fog_at(&app, 12, 1).expect("fogged again");
    assert_ne!(explored, never_seen, "an explored cell is dimmed, not dark");
    assert!(!sight.visible[index(13, 2)] && sight.explored[index(13, 2)]);
    assert!(app.world().get::<OutOfView>(chest).is_none(), "an object once seen stays drawn, as the terrain");
    assert!(app.world().get::<OutOfView>(far).is_some());
}

/// The DM's fog brush and the autosave (issue 30): in the DM's view a stroke of *Reveal* over the
/// far goblin shows it and its cells to the players, and one of *Hide* darkens a cell the party
/// sees; each is a step to undo (issue 39). The explored cells and both marks come back when the game is
/// started again from its autosave, and *Clear* gives a cell back to the party's sight.
#[test]
fn the_dm_brushes_the_fog_and_the_autosave_keeps_it() {
    use battlemap::app::SessionPlace;
    use battlemap::app::core::components::OutOfView;
    use battlemap::app::core::history::History;
    use battlemap::app::core::messages::{AudienceRequest, MoveToken, PickFogBrush};
    use battlemap::app::core::pointer::PointerOnMap;
    use battlemap::app::core::requests::FogBrush;
    use battlemap::app::core::state::{FogMark, LoadedScenario, PartySight};
    use battlemap::rules::Cell;
    use bevy::prelude::*;

    let path = super::scratch("fog-brush").join("hall.ron");
    let text =
        HALL.replace("darkvision: 60", "darkvision: 30").replace("at: (1, 1), speed: 30", "at: (1, 1), speed: 60");
    std::fs::write(&path, text).expect("writes");
    let start = |seed: u64| super::session::app_on(&path, SessionPlace::Beside, seed);
    let stroke = |app: &mut App, brush: FogBrush, cell: Cell| {
        send(app, PickFogBrush(Some(brush)));
        app.world_mut().resource_mut::<PointerOnMap>().cell = Some(cell);
        app.world_mut().resource_mut::<ButtonInput<MouseButton>>().press(MouseButton::Left);
        app.update();
        app.world_mut().resource_mut::<ButtonInput<MouseButton>>().release(MouseButton::Left);
        app.update();
        app.world_mut().resource_mut::<PointerOnMap>().cell = None;
    };

    let mut app = start(1);
    let map = app.world().resource::<LoadedScenario>().scenario.map.clone();
    let index = |x, y| map.index_of(Cell::new(x, y)).expect("on the map");
    let (far, tam) = (super::headless::entity_of(&mut app, "far"), super::headless::entity_of(&mut app, "tam"));
    send(&mut app, MoveToken::new(tam, Cell::new(7, 1)));
    send(&mut app, MoveToken::new(tam, Cell::new(1, 1)));
    let steps = app.world().resource::<History>().undo.len();
    assert!(app.world().get::<OutOfView>(far).is_some(), "the far goblin is out of the party's sight");
    let explored = app.world().resource::<PartySight>().explored.clone();
    assert!(explored[index(12, 1)], "the torch walked by lit it");

    send(&mut app, AudienceRequest { dm: true });
    stroke(&mut app, FogBrush::Reveal, Cell::new(12, 1));
    stroke(&mut app, FogBrush::Hide, Cell::new(3, 1));
    send(&mut app, AudienceRequest { dm: false });
    let sight = app.world().resource::<PartySight>().clone();
    assert!(sight.shown(index(13, 0)) && !sight.visible[index(13, 0)], "revealed with its neighbours, not seen now");
    assert!(!sight.shown(index(3, 1)) && sight.visible[index(3, 1)], "hidden though the party sees it");
    assert!(sight.shown(index(1, 0)) && !sight.shown(index(4, 2)), "the brush is three cells wide");
    assert!(app.world().get::<OutOfView>(far).is_none(), "the revealed goblin is shown to the players");
    assert_eq!(app.world().resource::<History>().undo.len(), steps + 2, "each stroke is a step to undo");
    stroke(&mut app, FogBrush::Reveal, Cell::new(9, 1));
    assert_eq!(
        app.world().resource::<PartySight>().marks[index(9, 1)],
        None,
        "the brush is put down in the players' view"
    );

    let mut again = start(2);
    again.update();
    let restored = again.world().resource::<PartySight>().clone();
    assert_eq!(restored.explored, sight.explored, "the explored cells come back with the autosave");
    assert_eq!(restored.marks, sight.marks, "and the DM's marks");
    assert_eq!(restored.marks[index(12, 1)], Some(FogMark::Revealed));
    let far = super::headless::entity_of(&mut again, "far");
    assert!(again.world().get::<OutOfView>(far).is_none());
    send(&mut again, AudienceRequest { dm: true });
    stroke(&mut again, FogBrush::Clear, Cell::new(3, 1));
    assert!(again.world().resource::<PartySight>().shown(index(3, 1)), "cleared: the party's sight again");
}

/// Issue 39, item 8: a stroke of the fog brush, press to release, is one step to undo however many
/// frames it is dragged over (nothing is undone while it is under way): Ctrl+Z takes the last
/// stroke back, Redo brings it again. In the DM's view both marks have a tint of their own,
/// clearly stronger than the DM's fog (a revealed cell was left clear, as a cell the party sees).
#[test]
fn every_fog_stroke_is_a_step_to_undo_and_both_marks_show_to_the_dm() {
    use battlemap::app::SessionPlace;
    use battlemap::app::core::history::History;
    use battlemap::app::core::messages::{AudienceRequest, HistoryRequest, PickFogBrush};
    use battlemap::app::core::notice::Said;
    use battlemap::app::core::pointer::PointerOnMap;
    use battlemap::app::core::requests::FogBrush;
    use battlemap::app::core::state::{CellShades, FogMark, LoadedScenario, PartySight, ShadeLayer};
    use battlemap::rules::Cell;
    use bevy::color::Alpha;
    use bevy::prelude::*;

    let path = super::scratch("fog-undo").join("hall.ron");
    std::fs::write(&path, HALL.replace("darkvision: 60", "darkvision: 30")).expect("writes");
    let mut app = super::session::app_on(&path, SessionPlace::Off, 1);
    let map = app.world().resource::<LoadedScenario>().scenario.map.clone();
    let mark = |app: &App, x, y| {
        let i = map.index_of(Cell::new(x, y)).expect("on the map");
        app.world().resource::<PartySight>().marks.get(i).copied().flatten()
    };
    let steps = |app: &App| app.world().resource::<History>().undo.len();
    let fog_at = |app: &App, x, y| {
        let shades = app.world().resource::<CellShades>();
        shades.layer(ShadeLayer::Fog).iter().find(|(c, _)| *c == Cell::new(x, y)).map(|(_, s)| *s)
    };
    let point = |app: &mut App, x, y| {
        app.world_mut().resource_mut::<PointerOnMap>().cell = Some(Cell::new(x, y));
        app.update();
    };
    let button = |app: &mut App, down: bool| {
        let mut buttons = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
        if down { buttons.press(MouseButton::Left) } else { buttons.release(MouseButton::Left) }
    };

    send(&mut app, AudienceRequest { dm: true });
    let (start, dm_fog) = (steps(&app), fog_at(&app, 12, 1).expect("the DM's fog over the far dark"));
    // Reveal, dragged over three frames.
    send(&mut app, PickFogBrush(Some(FogBrush::Reveal)));
    button(&mut app, true);
    for x in [11, 12, 13] {
        point(&mut app, x, 1);
    }
    send(&mut app, HistoryRequest::Undo);
    assert_eq!(super::headless::said(&app), Some(Said::FinishTheStepFirst), "no undo in the middle of a stroke");
    assert_eq!(steps(&app), start, "nothing is recorded until the button is let go");
    button(&mut app, false);
    app.update();
    assert_eq!((steps(&app), mark(&app, 12, 1)), (start + 1, Some(FogMark::Revealed)), "the stroke is one step");
    // Hide, over a cell the party sees.
    send(&mut app, PickFogBrush(Some(FogBrush::Hide)));
    button(&mut app, true);
    point(&mut app, 3, 1);
    button(&mut app, false);
    app.update();
    assert_eq!((steps(&app), mark(&app, 3, 1)), (start + 2, Some(FogMark::Hidden)));

    // The DM sees both marks, each in its own colour, clearly over the DM's fog.
    let revealed = fog_at(&app, 12, 1).expect("a revealed cell is tinted in the DM's view");
    let hidden = fog_at(&app, 3, 1).expect("a hidden cell is tinted in the DM's view");
    assert!(revealed != hidden && revealed != dm_fog && hidden != dm_fog, "{revealed:?} {hidden:?} {dm_fog:?}");
    for shade in [revealed, hidden] {
        assert!(shade.alpha() >= dm_fog.alpha() + 0.1, "{shade:?} stands out of the DM's fog {dm_fog:?}");
    }

    // Ctrl+Z takes the strokes back one at a time; Redo brings the last one again.
    send(&mut app, HistoryRequest::Undo);
    assert_eq!((mark(&app, 3, 1), mark(&app, 12, 1)), (None, Some(FogMark::Revealed)));
    send(&mut app, HistoryRequest::Undo);
    assert_eq!((mark(&app, 12, 1), steps(&app)), (None, start));
    assert_eq!(fog_at(&app, 12, 1), Some(dm_fog), "the DM's fog as it was");
    send(&mut app, HistoryRequest::Redo);
    assert_eq!(mark(&app, 12, 1), Some(FogMark::Revealed), "Redo brings the stroke back");
}
