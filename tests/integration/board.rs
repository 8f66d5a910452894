//! The terrain's tilemap without a window: a tile entity per cell, each showing its terrain's
//! art and tint, after loading, after an edit, after an undo and after a restored session; the
//! grid lines over a map image; the editor's rectangle shaded while it is dragged out.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::{TileColor, TilePos, TileStorage, TileTextureIndex, TilemapTexture};

use battlemap::app::SessionPlace;
use battlemap::app::core::layout::BoardLayout;
use battlemap::app::core::messages::{AudienceRequest, EditMessage, HistoryRequest, Toggle};
use battlemap::app::core::notice::{Said, Tiles};
use battlemap::app::core::pointer::PointerOnMap;
use battlemap::app::core::requests::EditTool;
use battlemap::app::core::state::{CellShades, LoadedScenario, ShadeLayer, TerrainShown};
use battlemap::app::features::editor::Editor;
use battlemap::app::view::board::{
    BoardShades, BoardTerrain, TileTextures, TilemapPlacement, cell_tint, terrain_tiles_plugin, tile_index, tile_tint,
};
use battlemap::rules::Cell;
use battlemap::scenario::Scenario;

use super::headless::said;
use super::{root, scratch};

/// The headless app on a copy of `scene`, with the terrain's tiles kept (and their textures: the
/// images are kept as assets without a renderer).
fn app_on(scene: &str, name: &str) -> App {
    let file = scratch(name).join("scene.ron");
    std::fs::copy(root().join(scene), &file).expect("copy");
    let scenario = Scenario::load(&file).expect("valid");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(Assets::<Image>::default())
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

/// The terrain tilemap's texture, and whether it is drawn.
fn terrain_drawn(app: &mut App) -> (Handle<Image>, bool) {
    let mut query = app.world_mut().query_filtered::<(&TilemapTexture, &Visibility), With<BoardTerrain>>();
    let (texture, visibility) = query.single(app.world()).expect("one terrain tilemap");
    let TilemapTexture::Single(texture) = texture else { panic!("one texture") };
    (texture.clone(), *visibility != Visibility::Hidden)
}

/// Issue 39, item 10: a map image hides nothing of the grid. With the tiles hidden by `B` and the
/// grid on, the terrain's tiles draw their grid lines alone (over the image); with the grid off,
/// nothing. Each press of `B` says what it switched to.
#[test]
fn hidden_tiles_keep_their_grid_lines_and_b_says_what_it_did() {
    for scene in ["scenes/tavern_brawl.ron", "scenes/hex_skirmish.ron"] {
        let mut app = app_on(scene, "grid-lines");
        let textures = app.world().resource::<TileTextures>();
        let (lined, lines) = (textures.lined.clone(), textures.lines.clone());
        assert!(lines != lined && lines != textures.plain, "{scene}: a texture of the lines alone");
        assert_eq!(terrain_drawn(&mut app), (lined.clone(), true), "{scene}: the tiles' art, lined");
        for (shown, tiles) in [(TerrainShown::Faded, Tiles::Faded), (TerrainShown::Hidden, Tiles::Hidden)] {
            send(&mut app, Toggle::TerrainTiles);
            assert_eq!(*app.world().resource::<TerrainShown>(), shown, "{scene}");
            assert_eq!(said(&app), Some(Said::TerrainTiles(tiles)), "{scene}: B says it");
        }
        assert_eq!(terrain_drawn(&mut app), (lines.clone(), true), "{scene}: hidden, the grid lines stay");
        tiles_match_the_terrain(&mut app, "hidden");
        send(&mut app, Toggle::GridLines);
        assert!(!terrain_drawn(&mut app).1, "{scene}: hidden without the grid: nothing of the terrain");
        send(&mut app, Toggle::GridLines);
        assert_eq!(terrain_drawn(&mut app), (lines, true), "{scene}: the grid back");
        send(&mut app, Toggle::TerrainTiles);
        assert_eq!(said(&app), Some(Said::TerrainTiles(Tiles::Shown)), "{scene}");
        assert_eq!(terrain_drawn(&mut app), (lined, true), "{scene}: shown again with their art");
    }
}

/// The editor shows what it edits over a map image: tiles hidden in play come back faded while
/// it is open (`B` there goes between shown and faded), a wall painted among them, and are hidden
/// again back in play.
#[test]
fn the_editor_shows_hidden_tiles_faded_and_hides_them_after() {
    let mut app = app_on("scenes/tavern_brawl.ron", "edit-hidden");
    send(&mut app, Toggle::TerrainTiles);
    send(&mut app, Toggle::TerrainTiles);
    assert_eq!(*app.world().resource::<TerrainShown>(), TerrainShown::Hidden);
    // The editor opens in the DM's view.
    send(&mut app, AudienceRequest { dm: true });
    send(&mut app, Toggle::Editor);
    assert_eq!(*app.world().resource::<TerrainShown>(), TerrainShown::Faded, "faded in the editor");
    assert_eq!(said(&app), Some(Said::Several(vec![Said::EditorOpen, Said::TerrainTiles(Tiles::Faded)])));
    let lined = app.world().resource::<TileTextures>().lined.clone();
    assert_eq!(terrain_drawn(&mut app), (lined, true), "the terrain's art");
    send(&mut app, EditMessage::Fill(Cell::new(7, 5), Cell::new(7, 5), 1));
    tiles_match_the_terrain(&mut app, "a wall painted among the faded tiles");
    send(&mut app, Toggle::TerrainTiles);
    assert_eq!(*app.world().resource::<TerrainShown>(), TerrainShown::Shown, "not hidden in the editor");
    send(&mut app, Toggle::TerrainTiles);
    assert_eq!(*app.world().resource::<TerrainShown>(), TerrainShown::Faded);
    send(&mut app, Toggle::Editor);
    assert_eq!(*app.world().resource::<TerrainShown>(), TerrainShown::Hidden, "hidden again in play");
}

/// The cells of the shades' tilemap.
fn shaded_cells(app: &mut App) -> Vec<Cell> {
    let layout = BoardLayout::of(&app.world().resource::<LoadedScenario>().scenario.map);
    let placement = TilemapPlacement::of(&layout);
    let mut query = app.world_mut().query_filtered::<&TileStorage, With<BoardShades>>();
    let storage = query.single(app.world()).expect("the shades' tilemap").clone();
    let mut cells: Vec<Cell> = storage
        .iter()
        .flatten()
        .filter_map(|tile| app.world().get::<TilePos>(*tile))
        .map(|position| placement.cell(&layout, *position))
        .collect();
    cells.sort_by_key(|c| (c.y, c.x));
    cells
}

/// The rectangle fill shows its rectangle while it is dragged out: its cells shaded (a shade tile
/// each, over the tiles or over the map image), nothing filled yet; released, it is filled and
/// the shade goes.
#[test]
fn the_rectangle_is_shaded_while_it_is_dragged_out() {
    let mut app = app_on("scenes/tavern_brawl.ron", "rectangle");
    send(&mut app, AudienceRequest { dm: true });
    send(&mut app, Toggle::Editor);
    app.world_mut().resource_mut::<Editor>().tool = EditTool::Rectangle;
    let point = |app: &mut App, cell: Cell| app.world_mut().resource_mut::<PointerOnMap>().cell = Some(cell);
    let terrain = |app: &App, cell: Cell| {
        let map = &app.world().resource::<LoadedScenario>().scenario.map;
        map.terrain(cell).map(|t| t.name.clone()).unwrap_or_default()
    };
    point(&mut app, Cell::new(5, 5));
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().press(MouseButton::Left);
    app.update();
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().clear_just_pressed(MouseButton::Left);
    point(&mut app, Cell::new(7, 6));
    app.update();
    app.update();
    let rectangle: Vec<Cell> = (5..=6).flat_map(|y| (5..=7).map(move |x| Cell::new(x, y))).collect();
    assert_eq!(shaded_cells(&mut app), rectangle, "the rectangle's six cells, shaded while dragged");
    assert!(rectangle.iter().all(|c| terrain(&app, *c) == "floor"), "nothing filled yet");
    app.world_mut().resource_mut::<ButtonInput<MouseButton>>().release(MouseButton::Left);
    app.update();
    app.update();
    assert!(rectangle.iter().all(|c| terrain(&app, *c) == "wall"), "filled on release");
    assert_eq!(shaded_cells(&mut app), Vec::<Cell>::new(), "and no longer shaded");
}
