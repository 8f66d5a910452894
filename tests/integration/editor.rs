//! The map editor without a window: painting, adding (monsters from the bestiary too), changing,
//! placing, duplicating, deleting and resizing through its messages, each refusal with its
//! reason, undo, and Save.

use bevy::prelude::*;

use battlemap::app::SessionPlace;
use battlemap::app::core::components::{Position, TokenId, TurnMoves};
use battlemap::app::core::messages::{
    AudienceRequest, EditMessage, EditorAsksForDmView, HistoryRequest, SaveScenario, Toggle,
};
use battlemap::app::core::mode::AppMode;
use battlemap::app::core::notice::{Edited, Said};
use battlemap::app::core::requests::{EditRequest, EditTool};
use battlemap::app::core::state::LoadedScenario;
use battlemap::app::features::editor::Editor;
use battlemap::app::features::session::capture;
use battlemap::rules::Cell;
use battlemap::rules::size::Size;
use battlemap::scenario::edit::EditError;
use battlemap::scenario::{Scenario, TokenKind};

use super::headless::{entity_of, notice, said};
use super::{root, scratch};

/// The headless app on `file`, with no autosave.
fn app_on(file: &std::path::Path) -> App {
    super::session::app_on(file, SessionPlace::Off, 3)
}

fn send<M: Message>(app: &mut App, message: M) {
    app.world_mut().write_message(message);
    app.update();
    app.update();
}

fn refusal(app: &App) -> Option<EditError> {
    app.world().resource::<Editor>().refusal.clone()
}

/// The scene check's sentence behind a refused edit (`battlemap check`'s words for the saved file).
fn invalid(app: &App) -> Option<String> {
    match refusal(app) {
        Some(EditError::Invalid(sentence)) => Some(sentence),
        _ => None,
    }
}

fn terrain_name(app: &App, cell: Cell) -> String {
    let map = &app.world().resource::<LoadedScenario>().scenario.map;
    map.terrain(cell).map(|t| t.name.clone()).unwrap_or_default()
}

fn ids(app: &mut App) -> Vec<String> {
    let mut query = app.world_mut().query::<&TokenId>();
    let mut ids: Vec<String> = query.iter(app.world()).map(|t| t.0.clone()).collect();
    ids.sort();
    ids
}

#[test]
fn the_editor_paints_places_changes_and_saves_the_scene() {
    let dir = scratch("editor");
    let file = dir.join("tavern.ron");
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &file).expect("copy");
    let mut app = app_on(&file);
    send(&mut app, AudienceRequest { dm: true });
    send(&mut app, Toggle::Editor);
    assert_eq!(app.world().resource::<State<AppMode>>().get(), &AppMode::Edit);

    // A wall across open floor, then one over Brom: refused there, with the reason.
    let wall = 1;
    send(&mut app, EditMessage::Fill(Cell::new(6, 5), Cell::new(8, 5), wall));
    assert_eq!(terrain_name(&app, Cell::new(7, 5)), "wall");
    send(&mut app, EditMessage::Fill(Cell::new(3, 5), Cell::new(3, 5), wall));
    assert_eq!(terrain_name(&app, Cell::new(3, 5)), "floor");
    let refused = matches!(
        said(&app),
        Some(Said::Edited(Edited::Filled { cells: 0, refused: Some(EditError::StandsThere { name, at, .. }) }))
            if name == "Brom" && at == Cell::new(3, 5)
    );
    assert!(refused, "{}", notice(&app));

    // A new creature, filled in with the form; a bad form is refused with the validator's words.
    send(&mut app, EditMessage::AddAt(TokenKind::Creature, Cell::new(10, 10)));
    assert!(ids(&mut app).contains(&"creature-1".to_owned()));
    let added = capture(app.world_mut()).board.token("creature-1").cloned().expect("added");
    let mut boss = added.clone();
    boss.name = "Goblin boss".into();
    boss.hp = 21;
    boss.max_hp = 21;
    boss.size = Size::Small;
    send(&mut app, EditMessage::Panel(EditRequest::Update(Box::new(boss))));
    assert_eq!(refusal(&app), None);
    let mut bad = capture(app.world_mut()).board.token("creature-1").cloned().expect("there");
    bad.max_hp = 5;
    send(&mut app, EditMessage::Panel(EditRequest::Update(Box::new(bad))));
    let reason = invalid(&app).expect("refused by the scene check");
    assert!(reason.contains("max_hp must be at least hp"), "{reason}");

    // Changing a creature's speed is a step like any other: undo goes back past it and redo
    // comes again (the movement of its turn follows the speed both ways).
    let mut quick = capture(app.world_mut()).board.token("brom").cloned().expect("Brom");
    let stale = quick.clone();
    quick.speed = 35;
    send(&mut app, EditMessage::Panel(EditRequest::Update(Box::new(quick))));
    let speed = |app: &mut App| {
        let brom = entity_of(app, "brom");
        app.world().get::<TurnMoves>(brom).map(|m| m.turn.speed)
    };
    assert_eq!(speed(&mut app), Some(35));
    send(&mut app, HistoryRequest::Undo);
    assert_eq!(speed(&mut app), Some(25));
    send(&mut app, HistoryRequest::Redo);
    assert_eq!(speed(&mut app), Some(35));
    send(&mut app, HistoryRequest::Undo);
    assert_eq!(speed(&mut app), Some(25));

    // Placing anywhere it fits, never inside the hearth.
    send(&mut app, EditMessage::Place { id: "brom".into(), anchor: Cell::new(1, 1) });
    assert!(invalid(&app).is_some_and(|r| r.contains("inside hearth")), "{:?}", refusal(&app));
    send(&mut app, EditMessage::Place { id: "brom".into(), anchor: Cell::new(2, 3) });
    let brom = entity_of(&mut app, "brom");
    assert_eq!(app.world().get::<Position>(brom).map(|p| p.0), Some(Cell::new(2, 3)));
    // The form sets only its own fields: a form taken before the move doesn't move Brom back.
    let mut renamed = stale;
    renamed.name = "Brom Ironfist".into();
    send(&mut app, EditMessage::Panel(EditRequest::Update(Box::new(renamed))));
    let board = capture(app.world_mut()).board;
    let brom_now = board.token("brom").expect("Brom");
    assert_eq!((brom_now.name.as_str(), brom_now.anchor, brom_now.speed), ("Brom Ironfist", Cell::new(2, 3), 25));

    // Duplicate, delete, resize (and a resize that would drop tokens off the map).
    send(&mut app, EditMessage::Panel(EditRequest::Duplicate("thug-1".into())));
    assert!(ids(&mut app).contains(&"thug-1-1".to_owned()));
    send(&mut app, EditMessage::Panel(EditRequest::Delete("rat-2".into())));
    assert!(!ids(&mut app).contains(&"rat-2".to_owned()));
    send(&mut app, EditMessage::Panel(EditRequest::Resize { width: 5, height: 5 }));
    assert!(invalid(&app).is_some_and(|r| r.contains("off the map")), "{:?}", refusal(&app));
    send(&mut app, EditMessage::Panel(EditRequest::Resize { width: 24, height: 14 }));
    let map = app.world().resource::<LoadedScenario>().scenario.map.clone();
    assert_eq!((map.width(), map.height()), (24, 14));

    // Undo takes the resize and the deletion back, redo does them again.
    send(&mut app, HistoryRequest::Undo);
    send(&mut app, HistoryRequest::Undo);
    assert!(ids(&mut app).contains(&"rat-2".to_owned()));
    assert_eq!(app.world().resource::<LoadedScenario>().scenario.map.width(), 20);
    send(&mut app, HistoryRequest::Redo);
    send(&mut app, HistoryRequest::Redo);
    assert!(!ids(&mut app).contains(&"rat-2".to_owned()));

    // Save as: the file reads back as the scene on the map, and the app goes on with it.
    let saved = dir.join("tavern-edited.ron");
    send(&mut app, SaveScenario { path: Some(saved.clone()) });
    let reread = Scenario::load(&saved).expect("the saved scene loads");
    assert_eq!(reread, capture(app.world_mut()).board);
    assert_eq!(reread.token("creature-1").map(|t| t.name.as_str()), Some("Goblin boss"));
    assert_eq!(reread.map.terrain(Cell::new(7, 5)).map(|t| t.name.as_str()), Some("wall"));
    assert_eq!(app.world().resource::<LoadedScenario>().source.as_deref(), Some(saved.as_path()));
    let text = std::fs::read_to_string(&saved).expect("text");
    assert!(text.contains("\"#hh......%%.......b#....\""), "the map rows stay rows:\n{text}");
    // Save writes the same file again; the original was never touched.
    send(&mut app, SaveScenario { path: None });
    assert_eq!(std::fs::read_to_string(&saved).expect("text"), text);
    let original = std::fs::read_to_string(root().join("scenes/tavern_brawl.ron")).expect("original");
    assert_eq!(std::fs::read_to_string(&file).expect("copy"), original);
}

/// A monster picked in the panel's bestiary is placed where the map is clicked, and again at each
/// click: the stat block's creature, twins told apart by a letter (DMG "Tracking Monster Hit
/// Points"). A monster the bestiary lacks is refused; choosing a tool puts the pick down.
#[test]
fn the_editor_places_monsters_picked_in_the_bestiary() {
    use battlemap::app::core::pointer::PointerOnMap;
    let file = scratch("editor-bestiary").join("tavern.ron");
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &file).expect("copy");
    let mut app = app_on(&file);
    send(&mut app, AudienceRequest { dm: true });
    send(&mut app, Toggle::Editor);
    send(&mut app, EditMessage::Panel(EditRequest::PickMonster(Some("goblin".into()))));
    assert_eq!(app.world().resource::<Editor>().monster.as_deref(), Some("goblin"));

    // A click on open floor places one.
    app.world_mut().resource_mut::<PointerOnMap>().cell = Some(Cell::new(2, 2));
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().press(MouseButton::Left);
    app.update();
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().clear();
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().release(MouseButton::Left);
    app.update();
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().clear();
    app.update();
    let board = capture(app.world_mut()).board;
    let goblin = board.token("goblin-1").expect("placed by the click");
    assert_eq!((goblin.name.as_str(), goblin.hp, goblin.ac, goblin.anchor), ("Goblin", 7, 15, Cell::new(2, 2)));
    assert_eq!(app.world().resource::<Editor>().monster.as_deref(), Some("goblin"), "still picked");

    // A second one makes twins: Goblin A and Goblin B.
    send(&mut app, EditMessage::AddMonsterAt("goblin".into(), Cell::new(3, 2)));
    let board = capture(app.world_mut()).board;
    let names: Vec<&str> =
        ["goblin-1", "goblin-2"].iter().filter_map(|id| board.token(id)).map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Goblin A", "Goblin B"]);
    assert_eq!(notice(&app), "Added Goblin B (goblin-2) from the SRD bestiary");

    send(&mut app, EditMessage::AddMonsterAt("orge".into(), Cell::new(4, 2)));
    assert!(matches!(refusal(&app), Some(EditError::NoSuchMonster(_))), "{:?}", refusal(&app));
    send(&mut app, EditMessage::Panel(EditRequest::Tool(EditTool::Tokens)));
    assert_eq!(app.world().resource::<Editor>().monster, None);
}

/// Issue 30: the DM seats a creature's player at an edge of the table from its card, in play;
/// the creature's entity takes the `Seat`, the step undoes, and Save writes `seat` into the file.
/// An object has no player to seat.
#[test]
fn a_creature_is_seated_from_its_card_and_the_scene_keeps_it() {
    use battlemap::app::core::components::Seat;
    use battlemap::scenario::TableEdge;
    let dir = scratch("seats");
    let file = dir.join("tavern.ron");
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &file).expect("copy");
    let mut app = app_on(&file);
    let seat_of = |app: &mut App| {
        let lia = entity_of(app, "lia");
        app.world().get::<Seat>(lia).map(|s| s.0)
    };
    assert_eq!(seat_of(&mut app), None);
    let seat = |id: &str, seat| EditMessage::Panel(EditRequest::Seat { id: id.into(), seat });
    send(&mut app, seat("lia", Some(TableEdge::North)));
    assert_eq!(seat_of(&mut app), Some(TableEdge::North));
    assert_eq!(notice(&app), "Lia's player sits at the north edge");
    send(&mut app, seat("keg", Some(TableEdge::East)));
    assert_eq!(refusal(&app), Some(EditError::NotACreature { name: "Ale keg".into() }));

    send(&mut app, SaveScenario { path: None });
    let saved = std::fs::read_to_string(&file).expect("saved");
    let lia = saved.lines().skip_while(|l| !l.contains("(id: \"lia\"")).take(3).collect::<Vec<_>>().join(" ");
    assert!(lia.contains("pc: true, seat: North,"), "{lia}");
    assert_eq!(Scenario::load(&file).expect("loads").token("lia").and_then(|t| t.seat), Some(TableEdge::North));

    send(&mut app, HistoryRequest::Undo);
    assert_eq!(seat_of(&mut app), None, "a step to undo");
}

/// Issue 39, item 9: the editor opens in the DM's view only (in the players' view the fog blacked
/// out the cells behind a painted wall). Asked for in the players' view (`Ctrl+E` and *Edit map*
/// send the same toggle) it stays closed and asks for the DM's view, whose confirmation sends the
/// switch and the toggle together: then it opens. The players' view back closes it. Undo follows
/// `History::can_restore`, as the bar's button does: not while a stroke is under way.
#[test]
fn the_editor_asks_for_the_dms_view_and_undo_follows_the_history() {
    use battlemap::app::core::history::History;
    use battlemap::app::core::pointer::PointerOnMap;
    use battlemap::app::core::state::{Audience, Reactions, StepUnderWay};

    let file = scratch("editor-dm").join("tavern.ron");
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &file).expect("copy");
    let mut app = app_on(&file);
    let mode = |app: &App| *app.world().resource::<State<AppMode>>().get();
    let asked = |app: &mut App| app.world_mut().resource_mut::<Messages<EditorAsksForDmView>>().drain().count();
    let can_undo = |app: &App| {
        let world = app.world();
        let under_way = world.resource::<StepUnderWay>().any(world.resource::<Reactions>());
        world.resource::<History>().can_restore(false, under_way)
    };

    send(&mut app, Toggle::Editor);
    assert_eq!(mode(&app), AppMode::Play, "not in the players' view");
    assert_eq!(asked(&mut app), 1, "the DM's view is asked for");
    // The confirmation: the switch and the toggle in one frame.
    app.world_mut().write_message(AudienceRequest { dm: true });
    send(&mut app, Toggle::Editor);
    assert_eq!((mode(&app), app.world().resource::<Audience>().dm), (AppMode::Edit, true));
    assert_eq!(asked(&mut app), 0);

    // A wall, then a stroke of the brush held down: Undo waits for its end, as Ctrl+Z does.
    send(&mut app, EditMessage::Fill(Cell::new(6, 5), Cell::new(8, 5), 1));
    assert!(can_undo(&app));
    app.world_mut().resource_mut::<PointerOnMap>().cell = Some(Cell::new(9, 5));
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().press(MouseButton::Left);
    app.update();
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().clear();
    assert!(app.world().resource::<StepUnderWay>().stroke, "the stroke is under way");
    assert!(!can_undo(&app), "nothing to undo until the stroke ends");
    send(&mut app, HistoryRequest::Undo);
    assert_eq!(said(&app), Some(Said::FinishTheStepFirst));
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().release(MouseButton::Left);
    app.update();
    assert!(can_undo(&app), "the stroke is a step");
    assert_eq!(terrain_name(&app, Cell::new(9, 5)), "wall");
    send(&mut app, HistoryRequest::Undo);
    assert_eq!(terrain_name(&app, Cell::new(9, 5)), "floor", "Ctrl+Z takes the stroke back");

    send(&mut app, AudienceRequest { dm: false });
    assert_eq!(mode(&app), AppMode::Play, "the players' view back closes the editor");
}
