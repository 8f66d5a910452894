//! The map: the scenario's terrain, square or hex, with its grid lines, drawn as one quad by
//! `terrain.wgsl` from a texture of one texel per cell. Its cost per frame doesn't grow with the
//! map: a tilemap's quad per cell cost software rendering 50 ms a frame on a 200×200 map
//! (docs/performance.md).

use bevy::asset::{RenderAssetUsages, load_internal_asset, uuid_handle};
use bevy::image::Image;
use bevy::prelude::*;
use bevy::render::render_resource::{AsBindGroup, Extent3d, ShaderType, TextureDimension, TextureFormat};
use bevy::shader::ShaderRef;
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dPlugin};

use super::AppSystems;
use super::input::toggle_key;
use super::layout::BoardLayout;
use super::state::{GridVisible, LoadedScenario, ScenarioChanged, Toggle};
use crate::rules::terrain::{Terrain, TerrainKind};
use crate::rules::{Grid, HexOrientation};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            build_board.run_if(on_message::<ScenarioChanged>).in_set(AppSystems::Build),
            toggle_key(KeyCode::KeyG, Toggle::GridLines).in_set(AppSystems::Input),
            toggle_grid_lines.in_set(AppSystems::Apply),
            show_grid_lines.in_set(AppSystems::Show),
        ),
    );
}

fn toggle_grid_lines(mut toggles: MessageReader<Toggle>, mut visible: ResMut<GridVisible>) {
    for _ in toggles.read().filter(|t| **t == Toggle::GridLines) {
        visible.0 = !visible.0;
    }
}

/// The board's layout in the world, for every system that maps cells to pixels.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Board(pub BoardLayout);

/// Drawing the terrain: its shader and material (only where there is a renderer).
pub(super) fn render_plugin(app: &mut App) {
    load_internal_asset!(app, TERRAIN_SHADER, "terrain.wgsl", Shader::from_wgsl);
    app.add_plugins(Material2dPlugin::<TerrainMaterial>::default());
}

const TERRAIN_SHADER: Handle<Shader> = uuid_handle!("5d0f6a52-6c1e-4a8e-9a57-2f3c1b7e9d41");

/// Marks the entity that draws the terrain.
#[derive(Component)]
pub(crate) struct BoardTerrain;

/// The terrain's material: the grid, the map's size, whether lines are drawn, and the colour of
/// every cell.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub(crate) struct TerrainMaterial {
    #[uniform(0)]
    params: TerrainParams,
    /// One texel per cell, at (column, row) of the map's storage.
    #[texture(1)]
    cells: Handle<Image>,
}

#[derive(ShaderType, Clone, Copy, Debug)]
struct TerrainParams {
    /// 0: squares, 1: pointy-top hexes, 2: flat-top hexes (`terrain.wgsl`).
    grid: u32,
    columns: u32,
    rows: u32,
    /// 1.0 draws the grid lines.
    lines: f32,
}

impl Material2d for TerrainMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Handle(TERRAIN_SHADER)
    }

    /// Opaque: nothing under the terrain shows through, so nothing is blended.
    fn alpha_mode(&self) -> AlphaMode2d {
        AlphaMode2d::Opaque
    }
}

/// The terrain's colours, a texel per cell in storage order.
fn cell_colors(map: &crate::rules::TerrainMap) -> Image {
    let (width, height) = (map.width().max(1), map.height().max(1));
    let mut data = vec![255; (4 * width * height) as usize];
    for cell in map.cells() {
        let (col, row) = map.grid().to_storage(cell);
        let [r, g, b] = map.terrain(cell).map_or([255, 0, 255], terrain_color);
        let i = 4 * (row as usize * width as usize + col as usize);
        data[i..i + 3].copy_from_slice(&[r, g, b]);
    }
    Image::new(
        Extent3d { width, height, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

/// The colour of a terrain on the map, as sRGB.
pub(crate) fn terrain_color(terrain: &Terrain) -> [u8; 3] {
    if let Some(rgb) = terrain.color {
        return rgb;
    }
    match terrain.kind {
        TerrainKind::Floor => [201, 190, 162],
        TerrainKind::Difficult => [150, 134, 84],
        TerrainKind::Wall => [52, 50, 58],
        TerrainKind::LowObstacle => [128, 98, 68],
        TerrainKind::Obscuring => [164, 170, 188],
        TerrainKind::Water => [72, 120, 172],
        TerrainKind::Rubble => [138, 126, 112],
        TerrainKind::ArrowSlit => [96, 90, 104],
        TerrainKind::Custom => match (terrain.blocks_movement, terrain.blocks_sight, terrain.difficult) {
            (true, true, _) => [70, 66, 72],
            (true, false, _) => [128, 98, 68],
            (false, true, _) => [164, 170, 188],
            (false, false, true) => [150, 134, 84],
            (false, false, false) => [201, 190, 162],
        },
    }
}

fn build_board(
    mut commands: Commands,
    loaded: Res<LoadedScenario>,
    old: Query<Entity, With<BoardTerrain>>,
    assets: Option<(ResMut<Assets<Image>>, ResMut<Assets<Mesh>>, ResMut<Assets<TerrainMaterial>>)>,
    grid_visible: Res<GridVisible>,
) {
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let map = &loaded.scenario.map;
    let layout = BoardLayout::of(map);
    commands.insert_resource(Board(layout));
    let Some((mut images, mut meshes, mut materials)) = assets else { return };
    let grid = match layout.grid {
        Grid::Square => 0,
        Grid::Hex(HexOrientation::PointyTop) => 1,
        Grid::Hex(HexOrientation::FlatTop) => 2,
    };
    let params = TerrainParams {
        grid,
        columns: layout.width,
        rows: layout.height,
        lines: if grid_visible.0 { 1.0 } else { 0.0 },
    };
    let bounds = layout.bounds();
    commands.spawn((
        BoardTerrain,
        Mesh2d(meshes.add(Rectangle::from_size(bounds.size()))),
        MeshMaterial2d(materials.add(TerrainMaterial { params, cells: images.add(cell_colors(map)) })),
        Transform::from_translation(bounds.center().extend(0.0)),
    ));
}

fn show_grid_lines(
    grid_visible: Res<GridVisible>,
    terrain: Query<&MeshMaterial2d<TerrainMaterial>, With<BoardTerrain>>,
    materials: Option<ResMut<Assets<TerrainMaterial>>>,
) {
    let Some(mut materials) = materials.filter(|_| grid_visible.is_changed()) else { return };
    for handle in &terrain {
        if let Some(mut material) = materials.get_mut(&handle.0) {
            material.params.lines = if grid_visible.0 { 1.0 } else { 0.0 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::TerrainMap;

    /// Each cell's colour is at its (column, row) of storage, on every grid.
    #[test]
    fn the_colour_texture_holds_each_cell_at_its_storage_place() {
        let grids = [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)];
        for grid in grids {
            let terrains = vec![Terrain::standard(TerrainKind::Floor), Terrain::standard(TerrainKind::Wall)];
            let mut map = TerrainMap::filled(grid, 5, 4, terrains);
            let wall = grid.from_storage(3, 2);
            map.set(wall, 1);
            let image = cell_colors(&map);
            let data = image.data.as_deref().expect("pixels");
            let at = |col: usize, row: usize| &data[4 * (row * 5 + col)..4 * (row * 5 + col) + 3];
            assert_eq!(at(3, 2), terrain_color(&Terrain::standard(TerrainKind::Wall)), "{grid:?}");
            assert_eq!(at(2, 3), terrain_color(&Terrain::standard(TerrainKind::Floor)), "{grid:?}");
        }
    }
}
