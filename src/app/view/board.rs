//! The map: the scenario's terrain, square or hex, with its grid lines and the cells tinted over
//! it (a drag's reach, the sight overlay, the area template, arcs and flanking cells), drawn as one
//! quad by `terrain.wgsl` from textures of one texel per cell. Its cost per frame doesn't grow
//! with the map: a tilemap's quad per cell cost software rendering 50 ms a frame on a 200×200
//! map, and the reach as a blended mesh over its cells several more (docs/performance.md).

use bevy::asset::{RenderAssetUsages, load_internal_asset, uuid_handle};
use bevy::image::Image;
use bevy::mesh::MeshVertexBufferLayoutRef;
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, Extent3d, RenderPipelineDescriptor, ShaderType, SpecializedMeshPipelineError, TextureDimension,
    TextureFormat,
};
use bevy::shader::ShaderRef;
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dKey, Material2dPlugin};

use crate::app::core::layout::{BoardLayout, MapLayout};
use crate::app::core::messages::{ScenarioChanged, TerrainEdited, Toggle};
use crate::app::core::pointer::toggle_key;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{CellShades, GridVisible, LoadedScenario};
use crate::rules::terrain::{Terrain, TerrainKind};
use crate::rules::{Grid, HexOrientation};

pub(super) fn plugin(app: &mut App) {
    load_internal_asset!(app, TERRAIN_SHADER, "terrain.wgsl", Shader::from_wgsl);
    app.add_plugins(Material2dPlugin::<TerrainMaterial>::default())
        .add_systems(
            Update,
            (
                build_board
                    .run_if(on_message::<ScenarioChanged>.or_eager(on_message::<TerrainEdited>))
                    .in_set(AppSystems::Build),
                toggle_key(KeyCode::KeyG, Toggle::GridLines).in_set(AppSystems::Input),
                show_grid_lines.in_set(AppSystems::Show),
            ),
        )
        // After every system of the frame that sets shades.
        .add_systems(PostUpdate, show_cell_shades);
}

const TERRAIN_SHADER: Handle<Shader> = uuid_handle!("5d0f6a52-6c1e-4a8e-9a57-2f3c1b7e9d41");

/// Marks the entity that draws the terrain.
#[derive(Component)]
pub struct BoardTerrain;

/// The terrain's material: the grid, the map's size, whether lines are drawn, and the colour of
/// every cell.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
#[bind_group_data(TerrainShaderKey)]
pub struct TerrainMaterial {
    /// The grid, which picks the shader's version (not sent to the shader).
    shader: TerrainShaderKey,
    #[uniform(0)]
    params: TerrainParams,
    /// One texel per cell, at (column, row) of the map's storage.
    #[texture(1)]
    cells: Handle<Image>,
    /// The cell shades ([`CellShades`]), one texel per cell like `cells`: the layers' colours
    /// composited in order, premultiplied by their alpha (linear RGB), and the alpha.
    #[texture(2, filterable = false)]
    shades: Handle<Image>,
}

#[derive(ShaderType, Clone, Copy, Debug)]
struct TerrainParams {
    columns: u32,
    rows: u32,
    /// 1.0 draws the grid lines.
    lines: f32,
    /// 1.0 when some cell is shaded ([`CellShades`]).
    shaded: f32,
}

/// The grid the terrain's shader is compiled for. Software rendering runs both sides of a branch
/// for every pixel, so the shader has one version per grid instead of a branch on it
/// (docs/performance.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TerrainShaderKey {
    /// 0: squares, 1: pointy-top hexes, 2: flat-top hexes.
    grid: u32,
}

impl From<&TerrainMaterial> for TerrainShaderKey {
    fn from(material: &TerrainMaterial) -> Self {
        material.shader
    }
}

impl Material2d for TerrainMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Handle(TERRAIN_SHADER)
    }

    /// The grid's version of the shader: `SQUARES`, `POINTY_HEXES` or `FLAT_HEXES`.
    fn specialize(
        descriptor: &mut RenderPipelineDescriptor,
        _layout: &MeshVertexBufferLayoutRef,
        key: Material2dKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        let grid = match key.bind_group_data.grid {
            0 => "SQUARES",
            1 => "POINTY_HEXES",
            _ => "FLAT_HEXES",
        };
        if let Some(fragment) = descriptor.fragment.as_mut() {
            fragment.shader_defs.push(grid.into());
        }
        Ok(())
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
pub fn terrain_color(terrain: &Terrain) -> [u8; 3] {
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

/// The premultiplied colour and alpha the shades give each cell, in storage order (row by row):
/// what alpha blending the layers one over the other gives.
fn shade_texels(layout: &BoardLayout, shades: &CellShades) -> Vec<[f32; 4]> {
    let (width, height) = (layout.width.max(1) as usize, layout.height.max(1) as usize);
    let mut texels = vec![[0.0; 4]; width * height];
    for &(cell, color) in shades.layers() {
        let (col, row) = layout.grid.to_storage(cell);
        let (Ok(col), Ok(row)) = (usize::try_from(col), usize::try_from(row)) else { continue };
        if col >= width || row >= height {
            continue;
        }
        let [r, g, b, a] = color.to_linear().to_f32_array();
        for (below, over) in texels[row * width + col].iter_mut().zip([r * a, g * a, b * a, a]) {
            *below = over + *below * (1.0 - a);
        }
    }
    texels
}

/// The texture of [`shade_texels`].
fn shade_image(layout: &BoardLayout, shades: &CellShades) -> Image {
    let data = shade_texels(layout, shades).iter().flatten().flat_map(|v| v.to_le_bytes()).collect();
    Image::new(
        Extent3d { width: layout.width.max(1), height: layout.height.max(1), depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba32Float,
        RenderAssetUsages::RENDER_WORLD,
    )
}

fn build_board(
    mut commands: Commands,
    loaded: Res<LoadedScenario>,
    old: Query<Entity, With<BoardTerrain>>,
    assets: (ResMut<Assets<Image>>, ResMut<Assets<Mesh>>, ResMut<Assets<TerrainMaterial>>),
    grid_visible: Res<GridVisible>,
    shades: Res<CellShades>,
) {
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let map = &loaded.scenario.map;
    let layout = BoardLayout::of(map);
    let (mut images, mut meshes, mut materials) = assets;
    let grid = match layout.grid {
        Grid::Square => 0,
        Grid::Hex(HexOrientation::PointyTop) => 1,
        Grid::Hex(HexOrientation::FlatTop) => 2,
    };
    let params = TerrainParams {
        columns: layout.width,
        rows: layout.height,
        lines: if grid_visible.0 { 1.0 } else { 0.0 },
        shaded: if shades.is_empty() { 0.0 } else { 1.0 },
    };
    let bounds = layout.bounds();
    commands.spawn((
        BoardTerrain,
        Mesh2d(meshes.add(Rectangle::from_size(bounds.size()))),
        MeshMaterial2d(materials.add(TerrainMaterial {
            shader: TerrainShaderKey { grid },
            params,
            cells: images.add(cell_colors(map)),
            shades: images.add(shade_image(&layout, &shades)),
        })),
        Transform::from_translation(bounds.center().extend(0.0)),
    ));
}

fn show_grid_lines(
    grid_visible: Res<GridVisible>,
    terrain: Query<&MeshMaterial2d<TerrainMaterial>, With<BoardTerrain>>,
    mut materials: ResMut<Assets<TerrainMaterial>>,
) {
    if !grid_visible.is_changed() {
        return;
    }
    for handle in &terrain {
        if let Some(mut material) = materials.get_mut(&handle.0) {
            material.params.lines = if grid_visible.0 { 1.0 } else { 0.0 };
        }
    }
}

/// Redraws the cell shades into the terrain's material when they change.
fn show_cell_shades(
    shades: Res<CellShades>,
    layout: Option<Res<MapLayout>>,
    terrain: Query<&MeshMaterial2d<TerrainMaterial>, With<BoardTerrain>>,
    mut assets: (ResMut<Assets<Image>>, ResMut<Assets<TerrainMaterial>>),
) {
    let Some(board) = layout.filter(|_| shades.is_changed()) else { return };
    let (images, materials) = (&mut assets.0, &mut assets.1);
    for handle in &terrain {
        if let Some(mut material) = materials.get_mut(&handle.0) {
            material.shades = images.add(shade_image(&board.0, &shades));
            material.params.shaded = if shades.is_empty() { 0.0 } else { 1.0 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::core::state::ShadeLayer;
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

    /// A known reach (two colours) over unseen cells, under an area: each shaded cell's texel at
    /// its storage place holds the layers blended in order, premultiplied; every other texel is
    /// clear.
    #[test]
    fn the_shade_texture_holds_the_reach_over_the_unseen_cells() {
        let grids = [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)];
        let (blue, amber, dark) =
            (Color::srgba(0.25, 0.75, 1.0, 0.3), Color::srgba(1.0, 0.75, 0.2, 0.22), Color::srgba(0.0, 0.0, 0.0, 0.5));
        let white = Color::srgba(1.0, 1.0, 1.0, 0.5);
        for grid in grids {
            let layout = BoardLayout { grid, width: 5, height: 4 };
            let (near, far, hidden, inside) =
                (grid.from_storage(1, 1), grid.from_storage(4, 3), grid.from_storage(0, 2), grid.from_storage(2, 0));
            let mut shades = CellShades::default();
            shades.set(ShadeLayer::Area, vec![(inside, white), (grid.from_storage(7, 1), white)]);
            shades.set(ShadeLayer::Reach, vec![(near, blue), (far, amber), (inside, blue)]);
            shades.set(ShadeLayer::Unseen, vec![(far, dark), (hidden, dark)]);
            let texels = shade_texels(&layout, &shades);
            let at = |col: usize, row: usize| texels[row * 5 + col];
            let premultiplied = |c: Color| {
                let [r, g, b, a] = c.to_linear().to_f32_array();
                [r * a, g * a, b * a, a]
            };
            assert_eq!(at(1, 1), premultiplied(blue), "{grid:?}");
            assert_eq!(at(0, 2), premultiplied(dark), "{grid:?}");
            // Amber over half black: the amber, and half of the rest is black.
            let [r, g, b, a] = premultiplied(amber);
            let expected = [r, g, b, a + 0.5 * (1.0 - a)];
            let close =
                |texel: [f32; 4], expected: [f32; 4]| texel.iter().zip(expected).all(|(t, e)| (t - e).abs() < 1e-6);
            assert!(close(at(4, 3), expected), "{grid:?}: {:?}", at(4, 3));
            // Half white over the blue: half of each.
            let [r, g, b, a] = premultiplied(blue);
            assert!(close(at(2, 0), [0.5 + 0.5 * r, 0.5 + 0.5 * g, 0.5 + 0.5 * b, 0.5 + 0.5 * a]), "{grid:?}");
            // A cell off the map (column 7 of 5) is left out.
            let shaded = [(1, 1), (0, 2), (4, 3), (2, 0)];
            for (col, row) in (0..5).flat_map(|c| (0..4).map(move |r| (c, r))).filter(|p| !shaded.contains(p)) {
                assert_eq!(at(col, row), [0.0; 4], "{grid:?} {col},{row}");
            }
        }
    }
}
