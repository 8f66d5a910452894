//! The terrain's tilemap without a window: a tile entity per cell, each showing its terrain's
//! art and tint, after loading, after an edit, after an undo and after a restored session.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::{TileColor, TileStorage, TileTextureIndex};

use battlemap::app::SessionPlace;
use battlemap::app::core::layout::BoardLayout;
use battlemap::app::core::messages::{EditMessage, HistoryRequest, Toggle};
use battlemap::app::core::state::{CellShades, LoadedScenario, ShadeLayer, TerrainShown};
use battlemap::app::view::board::{
    BoardTerrain, TilemapPlacement, cell_tint, terrain_tiles_plugin, tile_index, tile_tint,
};
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
            no_fog: true,
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
    tiles_match(app, &[], why);
}

/// Checks every cell's tile against its terrain, with the shade of the `shaded` cells mixed in.
fn tiles_match(app: &mut App, shaded: &[(Cell, Color)], why: &str) {
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
        let shade = shaded.iter().find(|(c, _)| *c == cell).map(|(_, shade)| *shade);
        assert_eq!(color.0, cell_tint(terrain, shown, shade), "{why}: {cell:?} ({})", terrain.name);
        if shade.is_some() {
            assert_ne!(color.0, tile_tint(terrain, shown), "{why}: {cell:?} is shaded");
        }
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

/// On both grids: a shade (here an area template's) is mixed into its cells' tiles and only
/// theirs; a changed shade changes them; when it goes, the tiles get their own tint back, also
/// after the terrain under it was repainted.
#[test]
fn the_shades_tint_their_cells_tiles_and_leave_them() {
    for (scene, cells) in [
        ("scenes/tavern_brawl.ron", [Cell::new(3, 3), Cell::new(4, 3)]),
        ("scenes/hex_skirmish.ron", [Cell::new(2, 2), Cell::new(3, 2)]),
    ] {
        let mut app = app_on(scene, "shades");
        let set = |app: &mut App, shaded: Vec<(Cell, Color)>| {
            app.world_mut().resource_mut::<CellShades>().set(ShadeLayer::Area, shaded);
            app.update();
        };
        let amber = Color::srgba(1.0, 0.7, 0.2, 0.4);
        let shaded: Vec<(Cell, Color)> = cells.iter().map(|c| (*c, amber)).collect();
        set(&mut app, shaded.clone());
        tiles_match(&mut app, &shaded, "amber");
        let dark = Color::srgba(0.0, 0.0, 0.0, 0.5);
        let shaded = vec![(cells[0], dark)];
        set(&mut app, shaded.clone());
        tiles_match(&mut app, &shaded, "one cell darkened, the other no longer shaded");
        send(&mut app, Toggle::Editor);
        send(&mut app, EditMessage::Fill(cells[0], cells[0], 1));
        tiles_match(&mut app, &shaded, "the shaded cell painted a wall");
        set(&mut app, Vec::new());
        tiles_match_the_terrain(&mut app, "no shade");
    }
}
