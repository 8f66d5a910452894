//! A touch screen without a mouse, headless: Bevy's touch messages go to the app with a window
//! entity and the map camera but no renderer, on squares (the tavern) and hexes (the skirmish).
//! One finger taps and drags a token with the same previews as the mouse, two fingers pan and
//! pinch, a held finger opens a card, and an attack is a tap to see the ruling and a second tap
//! to make it.

use std::time::Duration;

use bevy::camera::RenderTargetInfo;
use bevy::input::touch::{TouchInput, TouchPhase};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::window::PrimaryWindow;

use battlemap::app::core::components::{Position, TokenId};
use battlemap::app::core::layout::MapLayout;
use battlemap::app::core::messages::{FightRequest, ShowCard, TurnRequest};
use battlemap::app::core::pointer::MapCamera;
use battlemap::app::core::state::{CellShades, LoadedScenario, Reactions, Selection, ShadeLayer};
use battlemap::app::features::fight::AttackPreview;
use battlemap::app::features::movement::{Dragging, Preview};
use battlemap::rules::Cell;
use battlemap::scenario::Scenario;
use battlemap::ui::words::drag_path;

use super::headless::{entity_of, log_entries};
use super::root;

/// Each frame is 50 ms long, so a held finger's time is counted in frames.
const FRAME: Duration = Duration::from_millis(50);

/// The app with its input (pointer, fingers, camera) on a window entity, on a sample scene.
fn touch_app(path: &str) -> App {
    let path = root().join(path);
    let scenario = Scenario::load(&path).expect("valid sample");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::input::InputPlugin, WindowPlugin::default(), TransformPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME))
        .insert_resource(LoadedScenario::from_file(scenario, path))
        .insert_resource(battlemap::app::LaunchOptions { seed: Some(2026), ..Default::default() })
        .init_resource::<CardsShown>()
        .add_plugins((battlemap::app::headless_plugin, battlemap::app::input_plugin))
        .add_systems(PostUpdate, (project_the_map_camera, count_cards_shown));
    for _ in 0..3 {
        app.update();
    }
    app
}

/// What the renderer's camera system would do: the map camera's projection for its viewport.
fn project_the_map_camera(
    window: Single<&Window, With<PrimaryWindow>>,
    mut cameras: Query<(&mut Camera, &mut Projection), With<MapCamera>>,
) {
    let full = UVec2::new(window.physical_width(), window.physical_height());
    for (mut camera, mut projection) in &mut cameras {
        let size = camera.viewport.as_ref().map_or(full, |v| v.physical_size).as_vec2();
        projection.update(size.x, size.y);
        camera.computed.clip_from_view = projection.get_clip_from_view();
        camera.computed.target_info =
            Some(RenderTargetInfo { physical_size: full, scale_factor: window.scale_factor() });
    }
}

#[derive(Resource, Default)]
struct CardsShown(usize);

fn count_cards_shown(mut shown: MessageReader<ShowCard>, mut count: ResMut<CardsShown>) {
    count.0 += shown.read().count();
}

/// Where `cell`'s centre is on the window, as the map camera shows it.
fn on_screen(app: &mut App, cell: Cell) -> Vec2 {
    let world = app.world().resource::<MapLayout>().0.world(cell);
    let mut cameras = app.world_mut().query_filtered::<(&Camera, &GlobalTransform), With<MapCamera>>();
    let (camera, transform) = cameras.single(app.world()).expect("one map camera");
    camera.world_to_viewport(transform, world.extend(0.0)).expect("the cell is in view")
}

/// One finger's message, as the window sends it.
fn finger(app: &mut App, id: u64, phase: TouchPhase, position: Vec2) {
    let window = app.world_mut().query_filtered::<Entity, With<PrimaryWindow>>().single(app.world()).expect("a window");
    app.world_mut().write_message(TouchInput { phase, position, window, force: None, id });
}

fn frame(app: &mut App) {
    app.update();
}

/// A quick tap at `at`: down and up within one frame.
fn tap(app: &mut App, at: Vec2) {
    finger(app, 1, TouchPhase::Started, at);
    finger(app, 1, TouchPhase::Ended, at);
    frame(app);
    frame(app);
}

/// A finger put down at `from`, slid to `to` over a few frames, and `before_lifting` asked
/// while it is still down there.
fn slide(app: &mut App, from: Vec2, to: Vec2, before_lifting: impl FnOnce(&mut App)) {
    finger(app, 1, TouchPhase::Started, from);
    frame(app);
    for step in 1..=4 {
        finger(app, 1, TouchPhase::Moved, from.lerp(to, step as f32 / 4.0));
        frame(app);
    }
    before_lifting(app);
    finger(app, 1, TouchPhase::Ended, to);
    frame(app);
    frame(app);
}

fn anchor(app: &mut App, id: &str) -> Cell {
    let mut tokens = app.world_mut().query::<(&TokenId, &Position)>();
    tokens.iter(app.world()).find(|(t, _)| t.0 == id).map(|(_, p)| p.0).expect("the token is on the map")
}

fn token_on_screen(app: &mut App, id: &str) -> Vec2 {
    let cell = anchor(app, id);
    on_screen(app, cell)
}

fn selected(app: &mut App) -> Option<String> {
    let entity = app.world().resource::<Selection>().0?;
    app.world().get::<TokenId>(entity).map(|id| id.0.clone())
}

/// A tap selects, a tap on empty floor clears; a finger drags Brom with the path and reach
/// shown, then, on his turn, past a thug: the preview marks the opportunity attack and the drop
/// stops him there with the prompt, as the mouse's drag does (the window test
/// `dragging_past_an_enemy_asks_for_the_opportunity_attack`).
#[test]
fn on_squares_a_finger_taps_and_drags_with_the_mouses_previews() {
    let mut app = touch_app("scenes/tavern_brawl.ron");
    let brom = on_screen(&mut app, Cell::new(3, 5));
    tap(&mut app, brom);
    assert_eq!(selected(&mut app).as_deref(), Some("brom"), "a tap selects");
    let floor = on_screen(&mut app, Cell::new(9, 6));
    tap(&mut app, floor);
    assert_eq!(selected(&mut app), None, "a tap on the floor clears the selection");

    let to = on_screen(&mut app, Cell::new(5, 7));
    slide(&mut app, brom, to, |app| {
        let drag = app.world().resource::<Dragging>().0.clone().expect("the finger drags Brom");
        assert_eq!(drag.target, Cell::new(5, 7));
        let Preview::Path { path, .. } = &drag.preview else { panic!("a path preview: {:?}", drag.preview) };
        assert_eq!(path.cells().last(), Some(&Cell::new(5, 7)), "{path:?}");
        assert!(!app.world().resource::<CellShades>().layer(ShadeLayer::Reach).is_empty(), "the reach is shaded");
    });
    assert_eq!(anchor(&mut app, "brom"), Cell::new(5, 7), "the drop moves him");

    let brom_entity = entity_of(&mut app, "brom");
    app.world_mut().write_message(TurnRequest::StartTurn(brom_entity));
    frame(&mut app);
    let (from, to) = (on_screen(&mut app, Cell::new(5, 7)), on_screen(&mut app, Cell::new(2, 7)));
    slide(&mut app, from, to, |app| {
        let drag = app.world().resource::<Dragging>().0.clone().expect("the finger drags Brom");
        let reactors: Vec<Cell> = drag.provokes.iter().map(|p| p.at).collect();
        assert_eq!(reactors, [Cell::new(5, 7)], "the preview marks where he provokes");
    });
    assert!(app.world().resource::<Reactions>().waiting(), "the drop asks for the opportunity attack");
    assert_eq!(anchor(&mut app, "brom"), Cell::new(5, 7), "stopped before leaving the cell");
}

/// Outside a fight a drag beyond the speed takes no Dash and its reach has one shade; in a fight
/// the same drag says that the drop takes the Dash action.
#[test]
fn a_drag_says_when_the_drop_takes_the_dash() {
    let mut app = touch_app("scenes/tavern_brawl.ron");
    let label = |app: &mut App| {
        let drag = app.world().resource::<Dragging>().0.clone().expect("the finger drags Brom");
        let Preview::Path { path, dash } = &drag.preview else { panic!("a path preview: {:?}", drag.preview) };
        drag_path(path.cost, *dash, false)
    };
    let (west, east) = (Cell::new(3, 5), Cell::new(9, 5));
    let (from, to) = (on_screen(&mut app, west), on_screen(&mut app, east));
    slide(&mut app, from, to, |app| {
        assert_eq!(label(app), "30 ft", "no fight: 30 ft of Brom's 25 and no Dash");
        let reach = app.world().resource::<CellShades>().layer(ShadeLayer::Reach).to_vec();
        assert!(reach.windows(2).all(|w| w[0].1 == w[1].1), "no amber cells outside a fight");
    });
    assert_eq!(anchor(&mut app, "brom"), east, "the drop moves him");
    let brom = entity_of(&mut app, "brom");
    app.world_mut().write_message(TurnRequest::StartTurn(brom));
    frame(&mut app);
    let (from, to) = (on_screen(&mut app, east), on_screen(&mut app, west));
    slide(&mut app, from, to, |app| assert_eq!(label(app), "30 ft · the drop takes the Dash action"));
}

/// On hexes: a finger drags Kael to a cell his reach shades, and he goes there.
#[test]
fn on_hexes_a_finger_drags_a_token_along_its_path() {
    let mut app = touch_app("scenes/hex_skirmish.ron");
    let start = anchor(&mut app, "kael");
    let from = on_screen(&mut app, start);
    finger(&mut app, 1, TouchPhase::Started, from);
    frame(&mut app);
    frame(&mut app);
    assert!(app.world().resource::<Dragging>().0.is_some(), "the finger grabbed Kael");
    let grid = app.world().resource::<LoadedScenario>().scenario.grid;
    let reach: Vec<Cell> = app.world().resource::<CellShades>().layer(ShadeLayer::Reach).iter().map(|s| s.0).collect();
    let target = *reach
        .iter()
        .filter(|&&c| grid.steps_between(start, c) == 3)
        .min_by_key(|c| (c.x, c.y))
        .expect("a cell three hexes away in reach");
    let to = on_screen(&mut app, target);
    for step in 1..=4 {
        finger(&mut app, 1, TouchPhase::Moved, from.lerp(to, step as f32 / 4.0));
        frame(&mut app);
    }
    let drag = app.world().resource::<Dragging>().0.clone().expect("still dragging");
    let Preview::Path { path, .. } = &drag.preview else { panic!("a path preview: {:?}", drag.preview) };
    let cells = path.cells();
    assert_eq!((cells.first(), cells.last()), (Some(&start), Some(&target)), "{path:?}");
    finger(&mut app, 1, TouchPhase::Ended, to);
    frame(&mut app);
    frame(&mut app);
    assert_eq!(anchor(&mut app, "kael"), target);
}

fn camera_view(app: &mut App) -> (Vec2, f32) {
    let mut cameras = app.world_mut().query_filtered::<(&Transform, &Projection), With<MapCamera>>();
    let (transform, projection) = cameras.single(app.world()).expect("one map camera");
    let Projection::Orthographic(ortho) = projection else { panic!("an orthographic camera") };
    (transform.translation.truncate(), ortho.scale)
}

/// Two fingers: spreading them zooms in around their midpoint (the cell under it stays there),
/// moving them together pans, and a token under the first finger is not moved by either.
#[test]
fn two_fingers_pinch_to_zoom_and_pan_on_squares_and_hexes() {
    for (scene, token) in [("scenes/tavern_brawl.ron", "brom"), ("scenes/hex_skirmish.ron", "kael")] {
        let mut app = touch_app(scene);
        let cell = anchor(&mut app, token);
        let first = on_screen(&mut app, cell);
        let second = first + Vec2::new(120.0, 0.0);
        let middle = (first + second) / 2.0;
        let world_at_middle = {
            let mut cameras = app.world_mut().query_filtered::<(&Camera, &GlobalTransform), With<MapCamera>>();
            let (camera, transform) = cameras.single(app.world()).expect("one map camera");
            camera.viewport_to_world_2d(transform, middle).expect("in view")
        };
        let (_, scale) = camera_view(&mut app);
        finger(&mut app, 1, TouchPhase::Started, first);
        frame(&mut app);
        finger(&mut app, 2, TouchPhase::Started, second);
        frame(&mut app);
        // Spread from 120 px to 240 px apart, about the same midpoint.
        for step in 1..=4 {
            let half = 60.0 + 15.0 * step as f32;
            finger(&mut app, 1, TouchPhase::Moved, middle - Vec2::X * half);
            finger(&mut app, 2, TouchPhase::Moved, middle + Vec2::X * half);
            frame(&mut app);
        }
        let (_, zoomed) = camera_view(&mut app);
        assert!((zoomed - scale / 2.0).abs() < scale * 1e-3, "{scene}: twice as close: {scale} → {zoomed}");
        let mut cameras = app.world_mut().query_filtered::<(&Camera, &GlobalTransform), With<MapCamera>>();
        let (camera, transform) = cameras.single(app.world()).expect("one map camera");
        let now_at_middle = camera.viewport_to_world_2d(transform, middle).expect("in view");
        assert!(now_at_middle.distance(world_at_middle) < 0.5, "{scene}: the midpoint stays put");

        // Both fingers move 100 px right: the map follows them.
        let (before, _) = camera_view(&mut app);
        for step in 1..=4 {
            let shift = Vec2::X * 25.0 * step as f32;
            finger(&mut app, 1, TouchPhase::Moved, middle - Vec2::X * 120.0 + shift);
            finger(&mut app, 2, TouchPhase::Moved, middle + Vec2::X * 120.0 + shift);
            frame(&mut app);
        }
        let (after, _) = camera_view(&mut app);
        assert!((before.x - after.x - 100.0 * zoomed).abs() < 1e-2, "{scene}: panned by 100 px: {before} → {after}");
        finger(&mut app, 1, TouchPhase::Ended, middle);
        finger(&mut app, 2, TouchPhase::Ended, middle);
        frame(&mut app);
        frame(&mut app);
        assert_eq!(anchor(&mut app, token), cell, "{scene}: the first finger's token stays where it was");
        assert!(app.world().resource::<Dragging>().0.is_none(), "{scene}: no drag is left over");
    }
}

/// A finger held still on a token selects it and opens its card; a tap would only select.
#[test]
fn a_long_press_opens_the_tokens_card() {
    for (scene, token) in [("scenes/tavern_brawl.ron", "gorm"), ("scenes/hex_skirmish.ron", "ogre")] {
        let mut app = touch_app(scene);
        let cell = anchor(&mut app, token);
        let at = on_screen(&mut app, cell);
        finger(&mut app, 1, TouchPhase::Started, at);
        for _ in 0..6 {
            frame(&mut app);
        }
        assert_eq!(app.world().resource::<CardsShown>().0, 0, "{scene}: 0.3 s is not yet a long press");
        for _ in 0..8 {
            frame(&mut app);
        }
        finger(&mut app, 1, TouchPhase::Ended, at);
        frame(&mut app);
        assert_eq!(selected(&mut app).as_deref(), Some(token), "{scene}");
        assert_eq!(app.world().resource::<CardsShown>().0, 1, "{scene}: the card is shown once");
        assert!(app.world().resource::<Dragging>().0.is_none(), "{scene}: the hold dragged nothing");
        assert_eq!(anchor(&mut app, token), cell, "{scene}: and moved nothing");
    }
}

/// With an attack picked, the first tap on a target shows the ruling and rolls nothing; a second
/// tap on it makes the attack; a tap on another target aims anew.
#[test]
fn an_attack_is_a_tap_to_see_the_ruling_and_a_tap_to_make_it() {
    for (scene, attacker, attack, target, other) in [
        ("scenes/tavern_brawl.ron", "lia", "Shortbow", "thug-1", "thug-2"),
        ("scenes/hex_skirmish.ron", "wren", "Longbow", "goblin-1", "wolf"),
    ] {
        let mut app = touch_app(scene);
        let shooter = entity_of(&mut app, attacker);
        let at = token_on_screen(&mut app, attacker);
        tap(&mut app, at);
        assert_eq!(selected(&mut app).as_deref(), Some(attacker), "{scene}");
        app.world_mut().write_message(TurnRequest::StartTurn(shooter));
        app.world_mut().write_message(FightRequest::PickAttack {
            attacker: shooter,
            attack: Some(attack.into()),
            weapon: None,
        });
        frame(&mut app);
        let rolled = log_entries(&app).len();

        let other_at = token_on_screen(&mut app, other);
        tap(&mut app, other_at);
        let aimed = |app: &App| app.world().resource::<AttackPreview>().0.as_ref().map(|card| card.target);
        assert_eq!(aimed(&app), Some(entity_of(&mut app, other)), "{scene}: the ruling on {other} is shown");
        let target_at = token_on_screen(&mut app, target);
        tap(&mut app, target_at);
        assert_eq!(aimed(&app), Some(entity_of(&mut app, target)), "{scene}: a tap on {target} aims anew");
        let card = app.world().resource::<AttackPreview>().0.clone().expect("the card");
        assert!(card.ruling.is_ok(), "{scene}: {:?}", card.ruling);
        assert_eq!(log_entries(&app).len(), rolled, "{scene}: nothing is rolled on the first taps");
        assert_eq!(selected(&mut app).as_deref(), Some(attacker), "{scene}: the attacker stays selected");

        tap(&mut app, target_at);
        let log = log_entries(&app);
        assert!(log.len() > rolled, "{scene}: the second tap attacks");
        let line = format!("{:?}", log[rolled].reason);
        assert!(line.contains(attack), "{scene}: {line}");
    }
}
