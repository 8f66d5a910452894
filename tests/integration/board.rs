//! The terrain's tilemap without a window: a tile entity per cell, each showing its terrain's
//! art and tint, after loading, after an edit, after an undo and after a restored session.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::{TileColor, TileStorage, TileTextureIndex};

use battlemap::app::SessionPlace;
use battlemap::app::core::layout::BoardLayout;
use battlemap::app::core::messages::{EditMessage, HistoryRequest, Toggle};
use battlemap::app::core::state::{LoadedScenario, TerrainShown};
use battlemap::app::view::board::{BoardTerrain, TilemapPlacement, terrain_tiles_plugin, tile_index, tile_tint};
use battlemap::rules::Cell;
use battlemap::scenario::Scenario;

use super::{root, scratch};

/// The headless app on a copy of `scene`, with the terrain's tiles kept.
fn app_on(scene: &str, name: &str) -> App {
    let file = scratch(name).join("scene.ron");
    std::fs::copy(root().join(scene), &file).expect("copy");
    let scenario = Scenario::load(&file).expect("valid");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LoadedScenario::from_file(scenario, file))
        .insert_resource(battlemap::app::LaunchOptions {
            seed: Some(27),
            session: SessionPlace::Off,
            ..Default::default()
        })
        .add_plugins((battlemap::app::headless_plugin, terrain_tiles_plugin));
    for _ in 0..3 {
        app.update();
    }
    app
}

fn send<M: Message>(app: &mut App, message: M) {
    app.world_mut().write_message(message);
    app.update();
    app.update();
}

/// Checks every cell's tile against the terrain the rules have there: one tile per cell, none
/// more, each with its terrain's art and tint.
fn tiles_match_the_terrain(app: &mut App, why: &str) {
    let scenario = app.world().resource::<LoadedScenario>().scenario.clone();
    let shown = *app.world().resource::<TerrainShown>();
    let map = &scenario.map;
    let layout = BoardLayout::of(map);
    let placement = TilemapPlacement::of(&layout);
    let mut tilemaps = app.world_mut().query_filtered::<&TileStorage, With<BoardTerrain>>();
    let storages: Vec<TileStorage> = tilemaps.iter(app.world()).cloned().collect();
    assert_eq!(storages.len(), 1, "{why}: one terrain tilemap");
    let storage = &storages[0];
    assert_eq!(storage.iter().flatten().count(), map.cells().count(), "{why}: a tile per cell");
    for cell in map.cells() {
        let terrain = map.terrain(cell).expect("on the map");
        let tile = storage.get(&placement.tile(&layout, cell).expect("a tile place")).expect("a tile");
        let index = app.world().get::<TileTextureIndex>(tile).expect("an index");
        let color = app.world().get::<TileColor>(tile).expect("a tint");
        assert_eq!(*index, tile_index(terrain), "{why}: {cell:?} ({})", terrain.name);
        assert_eq!(color.0, tile_tint(terrain, shown), "{why}: {cell:?} ({})", terrain.name);
    }
}

/// On both grids: the tiles are the terrain after loading; a painted wall shows as wall tiles;
/// undo puts the floor's tiles back; fading the tiles over a map image fades every one.
#[test]
fn the_tiles_follow_the_terrain_through_load_edit_and_undo() {
    for (scene, painted) in [("scenes/tavern_brawl.ron", Cell::new(7, 5)), ("scenes/hex_skirmish.ron", Cell::new(5, 2))]
    {
        let mut app = app_on(scene, "tiles");
        tiles_match_the_terrain(&mut app, "loaded");
        let before = app.world().resource::<LoadedScenario>().scenario.map.terrain(painted).cloned();
        send(&mut app, Toggle::Editor);
        send(&mut app, EditMessage::Fill(painted, painted, 1));
        let now = app.world().resource::<LoadedScenario>().scenario.map.terrain(painted).cloned();
        assert_eq!(now.map(|t| t.name), Some("wall".to_owned()), "{scene}: the wall is painted");
        tiles_match_the_terrain(&mut app, "after painting a wall");
        send(&mut app, HistoryRequest::Undo);
        let undone = app.world().resource::<LoadedScenario>().scenario.map.terrain(painted).cloned();
        assert_eq!(undone, before, "{scene}: undo puts the terrain back");
        tiles_match_the_terrain(&mut app, "after undo");
        send(&mut app, Toggle::TerrainTiles);
        assert_eq!(*app.world().resource::<TerrainShown>(), TerrainShown::Faded);
        tiles_match_the_terrain(&mut app, "faded");
    }
}
