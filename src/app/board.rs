//! The map: the scenario's terrain as a bevy_ecs_tilemap tilemap, square or hex, with grid lines
//! drawn into the tile texture (so toggling them swaps one texture).

use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;

use super::AppSystems;
use super::input::toggle_key;
use super::layout::{BoardLayout, PIXELS_PER_UNIT};
use super::state::{GridVisible, LoadedScenario, ScenarioChanged, Toggle};
use crate::rules::terrain::{Terrain, TerrainKind};
use crate::rules::{Cell, Grid, HexOrientation};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TileTextures>().add_systems(
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

/// Marks the tilemap entity.
#[derive(Component)]
pub(crate) struct BoardTilemap;

/// The white tile textures that terrain colours tint: with and without grid lines.
#[derive(Resource, Default)]
pub(crate) struct TileTextures {
    pub plain: Handle<Image>,
    pub lined: Handle<Image>,
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

/// How the tilemap is laid out so that its tiles sit exactly on [`BoardLayout`]'s cells:
/// rows are stored top to bottom but bevy_ecs_tilemap counts them bottom to top.
pub(crate) struct TilemapPlacement {
    pub map_type: TilemapType,
    pub size: TilemapSize,
    pub grid_size: TilemapGridSize,
    /// The tilemap's translation.
    pub offset: Vec2,
}

impl TilemapPlacement {
    pub(crate) fn of(layout: &BoardLayout) -> Self {
        let size = TilemapSize { x: layout.width, y: layout.height };
        let flipped_parity_is_even = layout.height.is_multiple_of(2);
        let cell = layout.cell_size();
        let grid_size = TilemapGridSize { x: cell.x, y: cell.y };
        let map_type = match layout.grid {
            Grid::Square => TilemapType::Square,
            Grid::Hex(HexOrientation::PointyTop) => TilemapType::Hexagon(if flipped_parity_is_even {
                HexCoordSystem::RowEven
            } else {
                HexCoordSystem::RowOdd
            }),
            Grid::Hex(HexOrientation::FlatTop) => TilemapType::Hexagon(HexCoordSystem::ColumnEven),
        };
        let mut placement = Self { map_type, size, grid_size, offset: Vec2::ZERO };
        let origin = TilePos { x: 0, y: 0 };
        placement.offset = layout.world(placement.cell(layout, origin)) - placement.unplaced_center(origin);
        placement
    }

    /// The tile position of a cell of the map.
    pub(crate) fn tile(&self, layout: &BoardLayout, cell: Cell) -> TilePos {
        let (col, row) = layout.grid.to_storage(cell);
        TilePos { x: col as u32, y: self.size.y - 1 - row as u32 }
    }

    pub(crate) fn cell(&self, layout: &BoardLayout, tile: TilePos) -> Cell {
        layout.grid.from_storage(tile.x as i32, (self.size.y - 1 - tile.y) as i32)
    }

    /// The tile quad: the texture's whole pixel size (bevy_ecs_tilemap copies textures by it).
    fn tile_size(&self) -> TilemapTileSize {
        TilemapTileSize { x: self.grid_size.x.round(), y: self.grid_size.y.round() }
    }

    fn unplaced_center(&self, tile: TilePos) -> Vec2 {
        tile.center_in_world(&self.size, &self.grid_size, &self.tile_size(), &self.map_type, &TilemapAnchor::None)
    }

    /// Where bevy_ecs_tilemap draws the centre of `tile`, in the world (the tests check it
    /// against [`BoardLayout::world`]).
    #[cfg(test)]
    fn center(&self, tile: TilePos) -> Vec2 {
        self.unplaced_center(tile) + self.offset
    }
}

/// A white tile of the grid's shape (transparent outside it); `lined` darkens its edge.
pub(crate) fn tile_image(grid: Grid, lined: bool) -> Image {
    let size = super::layout::cell_size(grid).round();
    let (width, height) = (size.x as u32, size.y as u32);
    let normals: &[f32] = match grid {
        Grid::Square => &[0.0, 90.0],
        Grid::Hex(HexOrientation::PointyTop) => &[0.0, 60.0, 120.0],
        Grid::Hex(HexOrientation::FlatTop) => &[30.0, 90.0, 150.0],
    };
    let inradius = PIXELS_PER_UNIT / 2.0;
    let line = 1.6;
    let mut data = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            let p = Vec2::new(x as f32 + 0.5 - width as f32 / 2.0, y as f32 + 0.5 - height as f32 / 2.0);
            let reach =
                normals.iter().map(|deg| p.dot(Vec2::from_angle(deg.to_radians())).abs()).fold(0.0_f32, f32::max);
            let inside = inradius - reach;
            let alpha = (inside + 0.5).clamp(0.0, 1.0);
            let shade = if lined { 0.55 + 0.45 * ((inside - line) / 1.0).clamp(0.0, 1.0) } else { 1.0 };
            let v = (255.0 * shade) as u8;
            data.extend_from_slice(&[v, v, v, (255.0 * alpha) as u8]);
        }
    }
    Image::new(
        Extent3d { width, height, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

fn build_board(
    mut commands: Commands,
    loaded: Res<LoadedScenario>,
    old: Query<Entity, With<BoardTilemap>>,
    images: Option<ResMut<Assets<Image>>>,
    mut textures: ResMut<TileTextures>,
    grid_visible: Res<GridVisible>,
) {
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let map = &loaded.scenario.map;
    let layout = BoardLayout::of(map);
    if let Some(mut images) = images {
        *textures = TileTextures {
            plain: images.add(tile_image(layout.grid, false)),
            lined: images.add(tile_image(layout.grid, true)),
        };
    }
    let placement = TilemapPlacement::of(&layout);
    let tilemap = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(placement.size);
    for cell in map.cells() {
        let position = placement.tile(&layout, cell);
        let color = map.terrain(cell).map_or([255, 0, 255], terrain_color);
        let tile = commands
            .spawn((
                TileBundle {
                    position,
                    tilemap_id: TilemapId(tilemap),
                    color: TileColor(Color::srgb_u8(color[0], color[1], color[2])),
                    ..default()
                },
                ChildOf(tilemap),
            ))
            .id();
        storage.set(&position, tile);
    }
    let texture = if grid_visible.0 { textures.lined.clone() } else { textures.plain.clone() };
    commands.entity(tilemap).insert((
        TilemapBundle {
            grid_size: placement.grid_size,
            map_type: placement.map_type,
            size: placement.size,
            storage,
            texture: TilemapTexture::Single(texture),
            tile_size: placement.tile_size(),
            anchor: TilemapAnchor::None,
            transform: Transform::from_translation(placement.offset.extend(0.0)),
            ..default()
        },
        BoardTilemap,
    ));
    commands.insert_resource(Board(layout));
}

fn show_grid_lines(
    grid_visible: Res<GridVisible>,
    textures: Res<TileTextures>,
    mut tilemaps: Query<&mut TilemapTexture, With<BoardTilemap>>,
) {
    if !grid_visible.is_changed() {
        return;
    }
    for mut texture in &mut tilemaps {
        *texture = TilemapTexture::Single(if grid_visible.0 { textures.lined.clone() } else { textures.plain.clone() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::TerrainMap;

    /// bevy_ecs_tilemap must draw every tile exactly where the rules' layout puts its cell, on
    /// every grid and for odd and even heights (the row flip changes hex row parity).
    #[test]
    fn tiles_sit_on_their_cells() {
        let grids = [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)];
        for grid in grids {
            for (width, height) in [(5, 4), (6, 7), (1, 1)] {
                let map = TerrainMap::filled(grid, width, height, vec![Terrain::standard(TerrainKind::Floor)]);
                let layout = BoardLayout::of(&map);
                let placement = TilemapPlacement::of(&layout);
                for cell in map.cells() {
                    let tile = placement.tile(&layout, cell);
                    assert_eq!(placement.cell(&layout, tile), cell);
                    let drawn = placement.center(tile);
                    let wanted = layout.world(cell);
                    assert!(
                        drawn.distance(wanted) < 0.01,
                        "{grid:?} {width}x{height} {cell}: drawn {drawn}, wanted {wanted}"
                    );
                }
            }
        }
    }

    #[test]
    fn tile_textures_are_opaque_inside_and_lined_at_the_edge() {
        for grid in [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)] {
            let lined = tile_image(grid, true);
            let plain = tile_image(grid, false);
            let (w, h) = (lined.width(), lined.height());
            let pixel = |img: &Image, x: u32, y: u32| {
                let i = ((y * w + x) * 4) as usize;
                let data = img.data.as_ref().expect("image data");
                [data[i], data[i + 1], data[i + 2], data[i + 3]]
            };
            assert_eq!(pixel(&plain, w / 2, h / 2), [255, 255, 255, 255]);
            assert_eq!(pixel(&lined, w / 2, h / 2), [255, 255, 255, 255]);
            // Half way up the left edge: inside the shape on every grid, and on the line.
            let edge = pixel(&lined, 0, h / 2);
            assert!(edge[0] < 200, "{grid:?} {edge:?}");
        }
        // Hex corners are outside the hexagon.
        let hex = tile_image(Grid::Hex(HexOrientation::PointyTop), false);
        assert_eq!(hex.data.as_ref().expect("data")[3], 0);
    }
}
