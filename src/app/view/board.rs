//! The map: the scenario's terrain as a bevy_ecs_tilemap tilemap, square or hex, each cell a tile
//! entity drawn with its terrain's art from the tile atlas (`assets/tiles/terrain.png`, made by
//! `scripts/tiles.py`). The cell shades (a drag's reach, the sight overlay, the area template,
//! arcs and flanking cells) are mixed into the shaded cells' tiles' colour, and kept as well in a
//! second, sparse tilemap, a tile per shaded cell, drawn only where the terrain's tiles are not
//! (the overview of a big map, terrain hidden over a map image). A hidden terrain's tiles draw
//! their grid lines alone, over the map image, while the grid is on. One system keeps the terrain's
//! tiles in step with the rules' terrain (load, edits, undo, a restored autosave); another the
//! shades with [`CellShades`], touching only the cells that change.

use std::collections::HashMap;

use bevy::asset::RenderAssetUsages;
use bevy::image::{Image, ImageSampler};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;

use crate::app::core::layout::{BoardLayout, MapLayout, cell_size};
use crate::app::core::messages::{ScenarioChanged, TerrainEdited, Toggle};
use crate::app::core::pointer::{MapCamera, toggle_key};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{CellShades, GridVisible, LoadedScenario, TerrainShown};
use crate::rules::terrain::{Terrain, TileArt};
use crate::rules::{Cell, Grid, HexOrientation, TerrainMap};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((TilemapPlugin, terrain_tiles_plugin)).add_systems(
        Update,
        (
            toggle_key(KeyCode::KeyG, Toggle::GridLines).in_set(AppSystems::Input),
            toggle_key(KeyCode::KeyB, Toggle::TerrainTiles).in_set(AppSystems::Input),
        ),
    );
}

/// The terrain's tiles kept in step with the rules' terrain and the shades: the part of the board
/// that needs no GPU (headless tests add it to check the tile entities).
pub fn terrain_tiles_plugin(app: &mut App) {
    app.init_resource::<TileTextures>()
        .add_systems(
            Update,
            sync_terrain_tiles
                .run_if(
                    on_message::<ScenarioChanged>
                        .or_eager(on_message::<TerrainEdited>)
                        .or_eager(resource_changed::<TerrainShown>),
                )
                .in_set(AppSystems::Build),
        )
        .add_systems(Update, show_grid_lines.in_set(AppSystems::Show))
        // After every system of the frame that sets shades.
        .add_systems(
            PostUpdate,
            (show_cell_shades, shade_the_overview, choose_terrain_detail.before(shade_the_overview))
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
}

/// The terrain tile atlas: 17 columns (the [`TileArt`]s, then the white shade tile) of 74-pixel
/// cells, in rows of square, pointy-top and flat-top tiles, each with and without its grid line
/// (`scripts/tiles.py` documents it).
const ATLAS_PNG: &[u8] = include_bytes!("../../../assets/tiles/terrain.png");
const ATLAS_CELL: u32 = 74;
const ATLAS_COLUMNS: u32 = 17;
/// The column of the white tile the shades tint.
const SHADE_COLUMN: u32 = 16;

/// Marks the terrain's tilemap.
#[derive(Component)]
pub struct BoardTerrain;

/// Marks the terrain's overview: the map as one picture, a few pixels a cell in each tile's average
/// colour, drawn instead of the tiles while a cell is smaller on screen than
/// [`OVERVIEW_BELOW_PX`]. Software rendering pays for every tile's triangles however small they
/// are (docs/performance.md): a 200×200 map fitted to the window is 40,000 tiles of 4 pixels.
#[derive(Component)]
pub struct TerrainOverview;

/// The overview's pixels' cells (storage index + 1, 0 off the map), kept to paint the shades into
/// it: as tiles they were a quad of 4 pixels per shaded cell, paid every frame by lavapipe.
#[derive(Component)]
pub struct OverviewPixels {
    cells: Vec<u32>,
    width: u32,
    height: u32,
    alpha: u8,
}

/// The overview's pixels per cell.
const OVERVIEW_PX_PER_UNIT: f32 = 4.0;
/// Cells drawn smaller than this many screen pixels show the overview instead of their tiles.
pub const OVERVIEW_BELOW_PX: f32 = 10.0;

/// Marks the tilemap of the cell shades, drawn only while the terrain is hidden (over a map image).
#[derive(Component)]
pub struct BoardShades;

/// Marks a tile of [`BoardShades`]: its colour is the shade of its cell.
#[derive(Component)]
struct ShadeTile;

/// Tints a terrain's tile: white shows the art as drawn; the plain tile takes the terrain's
/// colour; over a map image under the grid the tiles are faded to a trace.
pub fn tile_tint(terrain: &Terrain, shown: TerrainShown) -> Color {
    let color = match (terrain.art(), terrain.color) {
        (TileArt::Plain, Some([r, g, b])) => Color::srgb_u8(r, g, b),
        _ => Color::WHITE,
    };
    color.with_alpha(if shown == TerrainShown::Faded { FADED_ALPHA } else { 1.0 })
}

/// How much of a faded tile shows over the map image under it.
const FADED_ALPHA: f32 = 0.3;

/// A terrain tile's colour with its cell's shade mixed in: the colour that, multiplying the
/// tile's art, gives at the art's average colour what the shade blended over the tile would
/// (premultiplied: `shade.a × shade + (1 − shade.a) × tile`), and keeps the art's grain in
/// proportion. Under software rendering that saves a second, blended layer over the map
/// (docs/performance.md). Very dark art can't be lightened that far: the factor stops at
/// [`MAX_SHADE_GAIN`].
pub fn shaded_tint(tint: Color, shade: Option<Color>, art_mean: [u8; 3]) -> Color {
    let Some(shade) = shade else { return tint };
    let [tr, tg, tb, tile_alpha] = tint.to_linear().to_f32_array();
    let [sr, sg, sb, a] = shade.to_linear().to_f32_array();
    let mean = Color::srgb_u8(art_mean[0], art_mean[1], art_mean[2]).to_linear().to_f32_array();
    let alpha = a + (1.0 - a) * tile_alpha;
    let mix = |tile: f32, shade: f32, mean: f32| {
        (((1.0 - a) * tile_alpha * tile + a * shade / mean.max(1e-3)) / alpha.max(1e-3)).min(MAX_SHADE_GAIN)
    };
    Color::linear_rgba(mix(tr, sr, mean[0]), mix(tg, sg, mean[1]), mix(tb, sb, mean[2]), alpha)
}

/// The most a shade may brighten a tile's art.
const MAX_SHADE_GAIN: f32 = 8.0;

/// A cell's tile colour: its terrain's tint with its shade, if any, mixed in.
pub fn cell_tint(terrain: &Terrain, shown: TerrainShown, shade: Option<Color>) -> Color {
    shaded_tint(tile_tint(terrain, shown), shade, art_colors()[terrain.art().column() as usize])
}

/// The tile a terrain's cells show: its art's column of the atlas.
pub fn tile_index(terrain: &Terrain) -> TileTextureIndex {
    TileTextureIndex(terrain.art().column())
}

/// The colour of a terrain's swatch (the editor's palette, the state file): its colour, or the
/// average colour of its tile's art.
pub fn terrain_color(terrain: &Terrain) -> [u8; 3] {
    terrain.color.unwrap_or_else(|| art_colors()[terrain.art().column() as usize])
}

/// The side of a swatch in [`swatch_strip`], in pixels: a legend swatch is 16 points, sharp up to
/// two pixels a point.
const SWATCH_PX: u32 = 32;

/// The legend's swatches: each art's square tile, without its grid line, cut from the atlas and
/// scaled to [`SWATCH_PX`], in a row in the atlas's column order (see [`swatch_uv`]). Stored as
/// `Rgba8Unorm`, its bytes gamma-encoded as the PNG's: egui's shader reads its textures as stored
/// (`panels::read_egui_textures_as_stored`, `egui.wgsl`). None if the atlas can't be read.
pub fn swatch_strip() -> Option<Image> {
    let strip = swatch_pixels(atlas()?);
    let mut image = Image::new(
        Extent3d { width: strip.width(), height: strip.height(), depth_or_array_layers: 1 },
        TextureDimension::D2,
        strip.into_raw(),
        TextureFormat::Rgba8Unorm,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::linear();
    Some(image)
}

/// The pixels of [`swatch_strip`].
fn swatch_pixels(atlas: &image::RgbaImage) -> image::RgbaImage {
    let side = tile_size(Grid::Square).x as u32;
    let inset = (ATLAS_CELL - side) / 2;
    let mut strip = image::RgbaImage::new(SWATCH_PX * ATLAS_COLUMNS, SWATCH_PX);
    for column in 0..ATLAS_COLUMNS {
        // Row 1: the square tiles without their grid line.
        let tile =
            image::imageops::crop_imm(atlas, column * ATLAS_CELL + inset, ATLAS_CELL + inset, side, side).to_image();
        let small = image::imageops::resize(&tile, SWATCH_PX, SWATCH_PX, image::imageops::FilterType::Triangle);
        image::imageops::replace(&mut strip, &small, i64::from(column * SWATCH_PX), 0);
    }
    strip
}

/// Where a terrain's swatch is in [`swatch_strip`]: its art's column, `[left, right]` as
/// fractions of the strip's width (the swatch spans its whole height).
pub fn swatch_uv(terrain: &Terrain) -> [f32; 2] {
    let column = terrain.art().column() as f32;
    let columns = ATLAS_COLUMNS as f32;
    [column / columns, (column + 1.0) / columns]
}

/// What a terrain's swatch is tinted with, as its tiles are ([`tile_tint`]): white shows the art
/// as drawn; the plain tile takes the terrain's colour.
pub fn swatch_tint(terrain: &Terrain) -> [u8; 3] {
    match (terrain.art(), terrain.color) {
        (TileArt::Plain, Some(rgb)) => rgb,
        _ => [255; 3],
    }
}

/// The average colour of each art's square tile in the atlas (grey if the atlas can't be read).
fn art_colors() -> &'static [[u8; 3]; TileArt::ALL.len()] {
    static COLORS: std::sync::OnceLock<[[u8; 3]; TileArt::ALL.len()]> = std::sync::OnceLock::new();
    COLORS.get_or_init(|| {
        let mut colors = [[128; 3]; TileArt::ALL.len()];
        let Some(atlas) = atlas() else { return colors };
        for (column, color) in colors.iter_mut().enumerate() {
            let (mut sum, mut count) = ([0u64; 3], 0u64);
            for y in ATLAS_CELL..2 * ATLAS_CELL {
                for x in column as u32 * ATLAS_CELL..(column as u32 + 1) * ATLAS_CELL {
                    let [r, g, b, a] = atlas.get_pixel(x, y).0;
                    if a == 255 {
                        for (s, v) in sum.iter_mut().zip([r, g, b]) {
                            *s += u64::from(v);
                        }
                        count += 1;
                    }
                }
            }
            if count > 0 {
                *color = sum.map(|s| (s / count) as u8);
            }
        }
        colors
    })
}

/// The atlas cut to the map's grid: one row of tiles of the cell's exact size, with and without
/// grid lines. The plain tiles show when the grid lines are off; `lines`, the grid line alone in
/// every column, when the terrain is hidden over a map image.
#[derive(Resource, Default)]
pub struct TileTextures {
    grid: Option<Grid>,
    pub lined: Handle<Image>,
    pub plain: Handle<Image>,
    pub lines: Handle<Image>,
}

/// The texture of the terrain's tiles: their art with or without its grid line, or, the terrain
/// hidden, the line alone (not drawn at all with the grid off: [`terrain_detail`]).
pub fn terrain_texture(textures: &TileTextures, grid_visible: bool, shown: TerrainShown) -> &Handle<Image> {
    match (shown, grid_visible) {
        (TerrainShown::Hidden, _) => &textures.lines,
        (_, true) => &textures.lined,
        (_, false) => &textures.plain,
    }
}

/// The pixel size of a tile of `grid`: its cell's bounding box, rounded.
fn tile_size(grid: Grid) -> TilemapTileSize {
    let size = cell_size(grid).round();
    TilemapTileSize { x: size.x, y: size.y }
}

/// The atlas's row of `grid`'s tiles with (`lined`) or without grid lines, each cut to the
/// tile's size about its centre.
fn atlas_row(atlas: &image::RgbaImage, grid: Grid, lined: bool) -> Image {
    let shape_row = match grid {
        Grid::Square => 0,
        Grid::Hex(HexOrientation::PointyTop) => 2,
        Grid::Hex(HexOrientation::FlatTop) => 4,
    };
    let row = shape_row + u32::from(!lined);
    let size = tile_size(grid);
    let (w, h) = (size.x as u32, size.y as u32);
    let (dx, dy) = ((ATLAS_CELL - w) / 2, (ATLAS_CELL - h) / 2);
    let mut data = Vec::with_capacity((4 * w * h * ATLAS_COLUMNS) as usize);
    for y in 0..h {
        for column in 0..ATLAS_COLUMNS {
            for x in 0..w {
                let (ax, ay) = (column * ATLAS_CELL + dx + x, row * ATLAS_CELL + dy + y);
                let pixel = atlas.get_pixel_checked(ax, ay).map_or([0; 4], |p| p.0);
                data.extend_from_slice(&pixel);
            }
        }
    }
    let mut image = Image::new(
        Extent3d { width: w * ATLAS_COLUMNS, height: h, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::linear();
    image
}

/// How much of the map image's light a grid line takes at its middle: about what the tiles' own
/// line (their art's sRGB colour times 0.65, `scripts/tiles.py`) takes from the art.
const LINE_ALPHA: f32 = 0.6;
/// How much the atlas's grid line darkens a tile where it is fullest.
const ATLAS_LINE_DARKENING: f32 = 0.35;

/// [`atlas_row`]'s row with every column the grid line alone, black, as much opaque as the line
/// darkens the plain tile (its lined pixel against its unlined one); clear elsewhere. The tiles
/// keep their indices when they show only their lines.
fn lines_row(atlas: &image::RgbaImage, grid: Grid) -> Image {
    let (mut lined, mut plain) = (atlas_row(atlas, grid, true), atlas_row(atlas, grid, false));
    let (lined, plain) = (lined.data.take().unwrap_or_default(), plain.data.take().unwrap_or_default());
    let size = tile_size(grid);
    let (w, h) = (size.x as u32, size.y as u32);
    let column = TileArt::Plain.column();
    let alpha = |x: u32, y: u32| {
        let i = (4 * (y * w * ATLAS_COLUMNS + column * w + x)) as usize;
        let (Some(&dark), Some(&light), Some(&shape)) = (lined.get(i), plain.get(i), plain.get(i + 3)) else {
            return 0;
        };
        let cover = ((1.0 - f32::from(dark) / f32::from(light.max(1))) / ATLAS_LINE_DARKENING).clamp(0.0, 1.0);
        (LINE_ALPHA * cover * f32::from(shape)).round() as u8
    };
    let data = (0..h)
        .flat_map(|y| (0..ATLAS_COLUMNS).flat_map(move |_| (0..w).map(move |x| (x, y))))
        .flat_map(|(x, y)| [0, 0, 0, alpha(x, y)])
        .collect();
    let mut image = Image::new(
        Extent3d { width: w * ATLAS_COLUMNS, height: h, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::linear();
    image
}

/// The atlas, decoded once.
fn atlas() -> Option<&'static image::RgbaImage> {
    static ATLAS: std::sync::OnceLock<Option<image::RgbaImage>> = std::sync::OnceLock::new();
    ATLAS
        .get_or_init(|| {
            image::load_from_memory_with_format(ATLAS_PNG, image::ImageFormat::Png).ok().map(|i| i.to_rgba8())
        })
        .as_ref()
}

/// How the tilemap is laid out so that its tiles sit exactly on [`BoardLayout`]'s cells:
/// rows are stored top to bottom but bevy_ecs_tilemap counts them bottom to top.
pub struct TilemapPlacement {
    pub map_type: TilemapType,
    pub size: TilemapSize,
    pub grid_size: TilemapGridSize,
    /// The tilemap's translation.
    pub offset: Vec2,
}

impl TilemapPlacement {
    pub fn of(layout: &BoardLayout) -> Self {
        let size = TilemapSize { x: layout.width.max(1), y: layout.height.max(1) };
        let flipped_parity_is_even = size.y.is_multiple_of(2);
        let cell = cell_size(layout.grid);
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
        placement.offset =
            layout.world(placement.cell(layout, origin)) - placement.unplaced_center(layout.grid, origin);
        placement
    }

    /// The tile position of a cell of the map, if it is on the map.
    pub fn tile(&self, layout: &BoardLayout, cell: Cell) -> Option<TilePos> {
        let (col, row) = layout.grid.to_storage(cell);
        let (col, row) = (u32::try_from(col).ok()?, u32::try_from(row).ok()?);
        (col < self.size.x && row < self.size.y).then(|| TilePos { x: col, y: self.size.y - 1 - row })
    }

    pub fn cell(&self, layout: &BoardLayout, tile: TilePos) -> Cell {
        layout.grid.from_storage(tile.x as i32, (self.size.y - 1 - tile.y) as i32)
    }

    fn unplaced_center(&self, grid: Grid, tile: TilePos) -> Vec2 {
        tile.center_in_world(&self.size, &self.grid_size, &tile_size(grid), &self.map_type, &TilemapAnchor::None)
    }

    /// Where bevy_ecs_tilemap draws the centre of `tile`, in the world (the tests check it
    /// against [`BoardLayout::world`]).
    pub fn center(&self, grid: Grid, tile: TilePos) -> Vec2 {
        self.unplaced_center(grid, tile) + self.offset
    }
}

/// A tile's flip, from its cell: the same art turned four ways so a floor doesn't repeat.
fn tile_flip(cell: Cell) -> TileFlip {
    let hash = (cell.x as u32).wrapping_mul(0x9E37_79B9) ^ (cell.y as u32).wrapping_mul(0x85EB_CA6B);
    let hash = hash ^ (hash >> 15);
    TileFlip { x: hash & 1 == 1, y: hash & 2 == 2, d: false }
}

/// The tilemaps' render settings: chunks of 64 by 64 tiles, each one mesh (a 200×200 map is 16
/// chunks), culled when off screen.
fn render_settings() -> TilemapRenderSettings {
    TilemapRenderSettings { render_chunk_size: UVec2::new(64, 64), y_sort: false }
}

/// Keeps the terrain's tiles in step with the rules' terrain: a new map (another grid or size)
/// gets new tilemaps; otherwise each cell whose terrain changed gets its tile's art and tint.
fn sync_terrain_tiles(
    mut commands: Commands,
    loaded: Res<LoadedScenario>,
    tilemaps: Query<(Entity, &TilemapSize, &TilemapType, &TileStorage), With<BoardTerrain>>,
    shades: Query<Entity, With<BoardShades>>,
    shade_tiles: Query<(&TilePos, &TileColor), With<ShadeTile>>,
    overviews: Query<Entity, With<TerrainOverview>>,
    mut tiles: Query<(&mut TileTextureIndex, &mut TileColor), Without<ShadeTile>>,
    mut textures: ResMut<TileTextures>,
    images: Option<ResMut<Assets<Image>>>,
    grid_visible: Res<GridVisible>,
    shown: Res<TerrainShown>,
) {
    let shown = *shown;
    let map = &loaded.scenario.map;
    let layout = BoardLayout::of(map);
    let placement = TilemapPlacement::of(&layout);
    for entity in &overviews {
        commands.entity(entity).despawn();
    }
    if let Some(mut images) = images {
        if textures.grid != Some(layout.grid)
            && let Some(atlas) = atlas()
        {
            *textures = TileTextures {
                grid: Some(layout.grid),
                lined: images.add(atlas_row(atlas, layout.grid, true)),
                plain: images.add(atlas_row(atlas, layout.grid, false)),
                lines: images.add(lines_row(atlas, layout.grid)),
            };
        }
        let (pixels, bounds) = overview_pixels(map, &layout, shown);
        let image = overview_image(map, &pixels, &[]);
        commands.spawn((
            TerrainOverview,
            pixels,
            Sprite { image: images.add(image), custom_size: Some(bounds.size()), ..default() },
            Transform::from_translation(bounds.center().extend(0.0)),
            Visibility::Hidden,
        ));
    }
    let same_map = tilemaps
        .single()
        .ok()
        .filter(|(_, size, map_type, ..)| **size == placement.size && **map_type == placement.map_type);
    if let Some((_, _, _, storage)) = same_map {
        let shaded: HashMap<TilePos, Color> =
            shade_tiles.iter().map(|(position, color)| (*position, color.0)).collect();
        for cell in map.cells() {
            let (Some(terrain), Some(position)) = (map.terrain(cell), placement.tile(&layout, cell)) else { continue };
            let Some(Ok((mut index, mut color))) = storage.get(&position).map(|tile| tiles.get_mut(tile)) else {
                continue;
            };
            index.set_if_neq(tile_index(terrain));
            let tint = cell_tint(terrain, shown, shaded.get(&position).copied());
            if color.0 != tint {
                color.0 = tint;
            }
        }
        return;
    }
    for (entity, ..) in &tilemaps {
        commands.entity(entity).despawn();
    }
    for entity in &shades {
        commands.entity(entity).despawn();
    }
    let texture = terrain_texture(&textures, grid_visible.0, shown).clone();
    spawn_terrain(&mut commands, map, &layout, &placement, texture.clone(), shown);
    commands
        .spawn((tilemap_bundle(&layout, &placement, TileStorage::empty(placement.size), texture, 0.5), BoardShades));
}

fn tilemap_bundle(
    layout: &BoardLayout,
    placement: &TilemapPlacement,
    storage: TileStorage,
    texture: Handle<Image>,
    z: f32,
) -> TilemapBundle {
    TilemapBundle {
        grid_size: placement.grid_size,
        map_type: placement.map_type,
        size: placement.size,
        storage,
        texture: TilemapTexture::Single(texture),
        tile_size: tile_size(layout.grid),
        anchor: TilemapAnchor::None,
        transform: Transform::from_translation(placement.offset.extend(z)),
        render_settings: render_settings(),
        ..default()
    }
}

/// The terrain's tilemap: a tile per cell.
fn spawn_terrain(
    commands: &mut Commands,
    map: &TerrainMap,
    layout: &BoardLayout,
    placement: &TilemapPlacement,
    texture: Handle<Image>,
    shown: TerrainShown,
) {
    let tilemap = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(placement.size);
    let tiles: Vec<(TilePos, TileBundle)> = map
        .cells()
        .filter_map(|cell| {
            let terrain = map.terrain(cell)?;
            let position = placement.tile(layout, cell)?;
            let bundle = TileBundle {
                position,
                tilemap_id: TilemapId(tilemap),
                texture_index: tile_index(terrain),
                color: TileColor(tile_tint(terrain, shown)),
                flip: tile_flip(cell),
                ..default()
            };
            Some((position, bundle))
        })
        .collect();
    for (position, bundle) in tiles {
        let tile = commands.spawn((bundle, ChildOf(tilemap))).id();
        storage.set(&position, tile);
    }
    commands.entity(tilemap).insert((tilemap_bundle(layout, placement, storage, texture, 0.0), BoardTerrain));
}

/// The map as one picture for [`TerrainOverview`]: [`OVERVIEW_PX_PER_UNIT`] pixels a grid unit,
/// each pixel's cell (found once: about 10 ms on 200×200), and where it goes.
fn overview_pixels(map: &TerrainMap, layout: &BoardLayout, shown: TerrainShown) -> (OverviewPixels, Rect) {
    let bounds = layout.bounds();
    let scale = OVERVIEW_PX_PER_UNIT / crate::app::core::layout::PIXELS_PER_UNIT;
    let (width, height) =
        ((bounds.width() * scale).ceil().max(1.0) as u32, (bounds.height() * scale).ceil().max(1.0) as u32);
    let alpha = if shown == TerrainShown::Faded { (FADED_ALPHA * 255.0) as u8 } else { 255 };
    let mut cells = Vec::with_capacity((width * height) as usize);
    for y in 0..height {
        for x in 0..width {
            let world = Vec2::new(bounds.min.x + (x as f32 + 0.5) / scale, bounds.max.y - (y as f32 + 0.5) / scale);
            cells.push(layout.cell_at(world).and_then(|c| map.index_of(c)).map_or(0, |i| i as u32 + 1));
        }
    }
    let size = Vec2::new(width as f32, height as f32) / scale;
    let corners = (Vec2::new(bounds.min.x, bounds.max.y - size.y), Vec2::new(bounds.min.x + size.x, bounds.max.y));
    (OverviewPixels { cells, width, height, alpha }, Rect::from_corners(corners.0, corners.1))
}

/// The overview's picture: each pixel its cell's swatch colour under its shade (`shades` by storage
/// index), clear off the map.
fn overview_image(map: &TerrainMap, pixels: &OverviewPixels, shades: &[Option<Color>]) -> Image {
    let colors: Vec<[u8; 4]> = map
        .cells()
        .enumerate()
        .map(|(i, cell)| {
            let [r, g, b] = map.terrain(cell).map_or([0; 3], terrain_color);
            let base = Color::srgba_u8(r, g, b, pixels.alpha);
            let Some(shade) = shades.get(i).copied().flatten() else { return base.to_srgba().to_u8_array() };
            let ([br, bg, bb, ba], [sr, sg, sb, a]) =
                (base.to_linear().to_f32_array(), shade.to_linear().to_f32_array());
            let alpha = a + (1.0 - a) * ba;
            let mix = |tile: f32, over: f32| (a * over + (1.0 - a) * ba * tile) / alpha.max(1e-3);
            Color::linear_rgba(mix(br, sr), mix(bg, sg), mix(bb, sb), alpha).to_srgba().to_u8_array()
        })
        .collect();
    let mut data = Vec::with_capacity(4 * pixels.cells.len());
    for &cell in &pixels.cells {
        data.extend_from_slice(&cell.checked_sub(1).map_or([0; 4], |i| colors[i as usize]));
    }
    let (width, height) = (pixels.width, pixels.height);
    let mut image = Image::new(
        Extent3d { width, height, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.sampler = ImageSampler::linear();
    image
}

/// Paints the shades into the overview, while it is shown, when they changed or it is new (a few
/// ms on 200×200, once per change, instead of a tile per shaded cell drawn every frame).
fn shade_the_overview(
    shades: Res<CellShades>,
    layout: Option<Res<MapLayout>>,
    loaded: Res<LoadedScenario>,
    overviews: Query<(Ref<OverviewPixels>, &Sprite, &Visibility)>,
    images: Option<ResMut<Assets<Image>>>,
    mut stale: Local<bool>,
) {
    *stale |= shades.is_changed() || overviews.iter().any(|(pixels, ..)| pixels.is_added());
    let (Some(board), Some(mut images)) = (layout, images) else { return };
    let map = &loaded.scenario.map;
    for (pixels, sprite, visibility) in &overviews {
        if !*stale || *visibility == Visibility::Hidden {
            continue;
        }
        *stale = false;
        let mut by_index = vec![None; map.cells().count()];
        for (cell, color) in shade_colors(&board.0, &shades) {
            if let Some(slot) = map.index_of(cell).and_then(|i| by_index.get_mut(i)) {
                *slot = Some(color);
            }
        }
        // RENDER_WORLD only: the main world has no pixels left to edit, so the image is replaced.
        let _ = images.insert(sprite.image.id(), overview_image(map, &pixels, &by_index));
    }
}

/// What the board draws of the terrain: its tiles (their art, or with the terrain hidden their
/// grid lines alone), its overview, the shade tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerrainDetail {
    pub tiles: bool,
    pub overview: bool,
    pub shades: bool,
}

/// The tiles while cells are big enough on screen, else the overview; a hidden terrain (over a
/// map image) keeps its tiles for their grid lines while the grid is on, and no overview; the
/// shade tiles only while the terrain is hidden (the tiles carry the shades in their colours, the
/// overview in its pixels).
pub fn terrain_detail(shown: TerrainShown, grid_visible: bool, small: bool) -> TerrainDetail {
    let art = shown != TerrainShown::Hidden;
    TerrainDetail { tiles: !small && (art || grid_visible), overview: small && art, shades: !art }
}

/// Shows and hides the terrain's layers as [`terrain_detail`] says.
pub(super) fn choose_terrain_detail(
    camera: Query<&Projection, With<MapCamera>>,
    shown: Res<TerrainShown>,
    grid_visible: Res<GridVisible>,
    mut tiles: Query<&mut Visibility, (With<BoardTerrain>, Without<TerrainOverview>, Without<BoardShades>)>,
    mut overviews: Query<&mut Visibility, (With<TerrainOverview>, Without<BoardShades>)>,
    mut shade_layers: Query<&mut Visibility, With<BoardShades>>,
) {
    let scale = match camera.single() {
        Ok(Projection::Orthographic(ortho)) => ortho.scale,
        _ => 1.0,
    };
    let small = crate::app::core::layout::PIXELS_PER_UNIT / scale < OVERVIEW_BELOW_PX;
    let detail = terrain_detail(*shown, grid_visible.0, small);
    let visible = |on: bool| if on { Visibility::Inherited } else { Visibility::Hidden };
    for mut visibility in &mut tiles {
        visibility.set_if_neq(visible(detail.tiles));
    }
    for mut visibility in &mut overviews {
        visibility.set_if_neq(visible(detail.overview));
    }
    for mut visibility in &mut shade_layers {
        visibility.set_if_neq(visible(detail.shades));
    }
}

/// The terrain's tiles with their grid lines or without, or the lines alone over a map image.
fn show_grid_lines(
    grid_visible: Res<GridVisible>,
    shown: Res<TerrainShown>,
    textures: Res<TileTextures>,
    mut tilemaps: Query<&mut TilemapTexture, With<BoardTerrain>>,
) {
    if !grid_visible.is_changed() && !shown.is_changed() && !textures.is_changed() {
        return;
    }
    let texture = terrain_texture(&textures, grid_visible.0, *shown);
    for mut shown in &mut tilemaps {
        if !matches!(&*shown, TilemapTexture::Single(t) if t == texture) {
            *shown = TilemapTexture::Single(texture.clone());
        }
    }
}

/// The colour and alpha the shades give each shaded cell: what alpha blending the layers one
/// over the other gives, as a straight (not premultiplied) colour for a tile's tint.
fn shade_colors(layout: &BoardLayout, shades: &CellShades) -> HashMap<Cell, Color> {
    let mut premultiplied: HashMap<Cell, [f32; 4]> = HashMap::new();
    for &(cell, color) in shades.layers() {
        let (col, row) = layout.grid.to_storage(cell);
        let inside = (0..layout.width as i32).contains(&col) && (0..layout.height as i32).contains(&row);
        if !inside {
            continue;
        }
        let [r, g, b, a] = color.to_linear().to_f32_array();
        let below = premultiplied.entry(cell).or_insert([0.0; 4]);
        for (below, over) in below.iter_mut().zip([r * a, g * a, b * a, a]) {
            *below = over + *below * (1.0 - a);
        }
    }
    premultiplied
        .into_iter()
        .filter(|(_, [.., a])| *a > 0.0)
        .map(|(cell, [r, g, b, a])| (cell, Color::linear_rgba(r / a, g / a, b / a, a)))
        .collect()
}

/// Brings the shades up to date when they change, in the terrain's tiles' colours and in the
/// shade tiles: a tile for each newly shaded cell, a new tint where the shade changed, and the
/// tiles of cells no longer shaded removed (their terrain tiles back to their own tint).
fn show_cell_shades(
    mut commands: Commands,
    shades: Res<CellShades>,
    layout: Option<Res<MapLayout>>,
    loaded: Res<LoadedScenario>,
    shown: Res<TerrainShown>,
    mut tilemaps: Query<(Entity, &mut TileStorage), With<BoardShades>>,
    terrain_tilemaps: Query<&TileStorage, (With<BoardTerrain>, Without<BoardShades>)>,
    mut shade_tiles: Query<(&TilePos, &mut TileColor), With<ShadeTile>>,
    mut terrain_tiles: Query<&mut TileColor, Without<ShadeTile>>,
) {
    let Some(board) = layout.filter(|_| shades.is_changed()) else { return };
    let Ok((tilemap, mut storage)) = tilemaps.single_mut() else { return };
    let layout = board.0;
    let placement = TilemapPlacement::of(&layout);
    let mut wanted: HashMap<TilePos, Color> = shade_colors(&layout, &shades)
        .into_iter()
        .filter_map(|(cell, color)| Some((placement.tile(&layout, cell)?, color)))
        .collect();
    let map = &loaded.scenario.map;
    let terrain_storage = terrain_tilemaps.single().ok();
    let mut tint_terrain = |position: TilePos, shade: Option<Color>| {
        let cell = placement.cell(&layout, position);
        let (Some(terrain), Some(tile)) = (map.terrain(cell), terrain_storage.and_then(|s| s.get(&position))) else {
            return;
        };
        if let Ok(mut color) = terrain_tiles.get_mut(tile) {
            let tint = cell_tint(terrain, *shown, shade);
            if color.0 != tint {
                color.0 = tint;
            }
        }
    };
    let shaded: Vec<Entity> = storage.iter().flatten().copied().collect();
    for tile in shaded {
        let Ok((&position, mut tint)) = shade_tiles.get_mut(tile) else { continue };
        match wanted.remove(&position) {
            Some(color) => {
                if tint.0 != color {
                    tint.0 = color;
                    tint_terrain(position, Some(color));
                }
            }
            None => {
                storage.remove(&position);
                commands.entity(tile).despawn();
                tint_terrain(position, None);
            }
        }
    }
    for (position, color) in wanted {
        tint_terrain(position, Some(color));
        let tile = commands
            .spawn((
                TileBundle {
                    position,
                    tilemap_id: TilemapId(tilemap),
                    texture_index: TileTextureIndex(SHADE_COLUMN),
                    color: TileColor(color),
                    ..default()
                },
                ShadeTile,
                ChildOf(tilemap),
            ))
            .id();
        storage.set(&position, tile);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::core::state::ShadeLayer;
    use crate::rules::terrain::TerrainKind;

    const GRIDS: [Grid; 3] = [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)];

    /// bevy_ecs_tilemap must draw every tile exactly where the rules' layout puts its cell, on
    /// every grid and for odd and even heights (the row flip changes hex row parity).
    #[test]
    fn tiles_sit_on_their_cells() {
        for grid in GRIDS {
            for (width, height) in [(5, 4), (6, 7), (1, 1)] {
                let map = TerrainMap::filled(grid, width, height, vec![Terrain::standard(TerrainKind::Floor)]);
                let layout = BoardLayout::of(&map);
                let placement = TilemapPlacement::of(&layout);
                for cell in map.cells() {
                    let tile = placement.tile(&layout, cell).expect("on the map");
                    assert_eq!(placement.cell(&layout, tile), cell);
                    let drawn = placement.center(grid, tile);
                    let wanted = layout.world(cell);
                    assert!(drawn.distance(wanted) < 0.01, "{grid:?} {width}x{height} {cell:?}: {drawn} vs {wanted}");
                }
            }
        }
    }

    /// The atlas is the size `scripts/tiles.py` documents, and each row cut for a grid holds a
    /// tile per column of the tile's size; a floor tile's pixels vary (it is textured).
    #[test]
    fn the_atlas_cuts_into_tiles_of_the_cell_size() {
        let atlas = atlas().expect("the atlas decodes");
        assert_eq!((atlas.width(), atlas.height()), (ATLAS_CELL * ATLAS_COLUMNS, ATLAS_CELL * 6));
        for grid in GRIDS {
            let size = tile_size(grid);
            let image = atlas_row(atlas, grid, true);
            assert_eq!(image.width(), size.x as u32 * ATLAS_COLUMNS, "{grid:?}");
            assert_eq!(image.height(), size.y as u32, "{grid:?}");
            let data = image.data.as_deref().expect("pixels");
            let width = image.width() as usize;
            let centre = |column: u32, dx: i32| {
                let x = (column as i32 * size.x as i32 + size.x as i32 / 2 + dx) as usize;
                let y = size.y as usize / 2;
                let i = 4 * (y * width + x);
                [data[i], data[i + 1], data[i + 2], data[i + 3]]
            };
            assert_eq!(centre(0, 0)[3], 255, "{grid:?}: a tile is opaque at its centre");
            let floor: Vec<[u8; 4]> = (-12..12).map(|dx| centre(TileArt::Flagstones.column(), dx)).collect();
            assert!(floor.windows(2).any(|w| w[0] != w[1]), "{grid:?}: the floor is textured: {floor:?}");
            assert_eq!(centre(SHADE_COLUMN, 0), [255; 4], "{grid:?}: the shade tile is white");
        }
    }

    /// Issue 39 (12): the legend's swatches are the tiles' art, not six near-identical average
    /// browns. The strip holds a swatch per column, each the art of its column (its average colour
    /// is that art's), the arts' swatches all different; a terrain's uv picks its art's column,
    /// and only a plain tile is tinted.
    #[test]
    fn the_legend_swatches_are_the_tiles() {
        let atlas = atlas().expect("the atlas decodes");
        let strip = swatch_pixels(atlas);
        assert_eq!((strip.width(), strip.height()), (SWATCH_PX * ATLAS_COLUMNS, SWATCH_PX));
        let swatch = |column: u32| -> Vec<[u8; 4]> {
            let x0 = column * SWATCH_PX;
            (0..SWATCH_PX)
                .flat_map(|y| (x0..x0 + SWATCH_PX).map(move |x| (x, y)))
                .map(|(x, y)| strip.get_pixel(x, y).0)
                .collect()
        };
        let mean = |pixels: &[[u8; 4]]| -> [f64; 3] {
            let n = pixels.len() as f64;
            [0, 1, 2].map(|i| pixels.iter().map(|p| f64::from(p[i])).sum::<f64>() / n)
        };
        let swatches: Vec<Vec<[u8; 4]>> = TileArt::ALL.iter().map(|art| swatch(art.column())).collect();
        for (art, pixels) in TileArt::ALL.iter().zip(&swatches) {
            assert!(pixels.iter().all(|p| p[3] > 200), "{art:?}: the swatch is the opaque square");
            let [r, g, b] = mean(pixels.as_slice());
            let want = art_colors()[art.column() as usize];
            let off = [r - f64::from(want[0]), g - f64::from(want[1]), b - f64::from(want[2])];
            assert!(
                off.iter().all(|d| d.abs() < 10.0),
                "{art:?}: the swatch is {r:.0},{g:.0},{b:.0}, the tile {want:?}"
            );
        }
        for (i, a) in swatches.iter().enumerate() {
            for (j, b) in swatches.iter().enumerate().skip(i + 1) {
                let differ = a
                    .iter()
                    .zip(b)
                    .map(|(p, q)| (0..3).map(|c| u64::from(p[c].abs_diff(q[c]))).sum::<u64>())
                    .sum::<u64>();
                assert!(differ > 3 * a.len() as u64, "{:?} and {:?} look the same", TileArt::ALL[i], TileArt::ALL[j]);
            }
        }
        let mut table = Terrain::standard(TerrainKind::Custom);
        table.art = Some(TileArt::Planks);
        let column = TileArt::Planks.column() as f32;
        assert_eq!(swatch_uv(&table), [column / 17.0, (column + 1.0) / 17.0]);
        assert_eq!(swatch_tint(&table), [255; 3]);
        let mut hedge = Terrain::standard(TerrainKind::Custom);
        hedge.color = Some([0, 255, 16]);
        assert_eq!(swatch_uv(&hedge)[0], TileArt::Plain.column() as f32 / 17.0);
        assert_eq!(swatch_tint(&hedge), [0, 255, 16]);
        assert!(swatch_strip().is_some_and(|i| i.texture_descriptor.format == TextureFormat::Rgba8Unorm));
    }

    /// The lines texture is the grid line alone, black, in every column: clear at a tile's middle,
    /// most of the way opaque on its edge, the same in each column.
    #[test]
    fn the_lines_texture_is_the_grid_line_alone() {
        let atlas = atlas().expect("the atlas decodes");
        for grid in GRIDS {
            let size = tile_size(grid);
            let (w, h) = (size.x as usize, size.y as usize);
            let image = lines_row(atlas, grid);
            assert_eq!((image.width() as usize, image.height() as usize), (w * ATLAS_COLUMNS as usize, h));
            let data = image.data.as_deref().expect("pixels");
            let pixel = |column: usize, x: usize, y: usize| {
                let i = 4 * (y * w * ATLAS_COLUMNS as usize + column * w + x);
                [data[i], data[i + 1], data[i + 2], data[i + 3]]
            };
            assert_eq!(pixel(0, w / 2, h / 2), [0; 4], "{grid:?}: clear inside");
            let strongest = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).map(|(x, y)| pixel(3, x, y)[3]).max();
            assert!(strongest >= Some((LINE_ALPHA * 255.0) as u8 - 2), "{grid:?}: {strongest:?}");
            for column in 0..ATLAS_COLUMNS as usize {
                for (x, y) in [(0, h / 2), (w / 2, 1), (w / 2, h / 2)] {
                    assert_eq!(pixel(column, x, y), pixel(0, x, y), "{grid:?}: column {column}");
                    assert_eq!(pixel(column, x, y)[..3], [0, 0, 0]);
                }
            }
        }
    }

    /// Hidden terrain keeps its tiles for the grid lines while the grid is on, and shows the shade
    /// tiles; the overview stands in for the art only.
    #[test]
    fn hidden_terrain_keeps_its_grid_lines() {
        let detail = |tiles, overview, shades| TerrainDetail { tiles, overview, shades };
        for shown in [TerrainShown::Shown, TerrainShown::Faded] {
            assert_eq!(terrain_detail(shown, true, false), detail(true, false, false));
            assert_eq!(terrain_detail(shown, false, false), detail(true, false, false));
            assert_eq!(terrain_detail(shown, true, true), detail(false, true, false));
        }
        assert_eq!(terrain_detail(TerrainShown::Hidden, true, false), detail(true, false, true));
        assert_eq!(terrain_detail(TerrainShown::Hidden, false, false), detail(false, false, true));
        assert_eq!(terrain_detail(TerrainShown::Hidden, true, true), detail(false, false, true));
    }

    /// Every terrain kind of the rules has a tile; a custom terrain with a colour is the plain
    /// tile tinted by it; art named in the scenario wins.
    #[test]
    fn each_terrain_has_its_tile() {
        for kind in [
            TerrainKind::Floor,
            TerrainKind::Difficult,
            TerrainKind::Wall,
            TerrainKind::LowObstacle,
            TerrainKind::Obscuring,
            TerrainKind::Water,
            TerrainKind::Rubble,
            TerrainKind::ArrowSlit,
        ] {
            let terrain = Terrain::standard(kind);
            assert_ne!(terrain.art(), TileArt::Plain, "{kind:?}");
            assert_eq!(tile_tint(&terrain, TerrainShown::Shown), Color::WHITE);
        }
        let mut hedge = Terrain::standard(TerrainKind::Custom);
        hedge.color = Some([0, 255, 16]);
        assert_eq!(tile_index(&hedge), TileTextureIndex(TileArt::Plain.column()));
        assert_eq!(tile_tint(&hedge, TerrainShown::Shown), Color::srgb_u8(0, 255, 16));
        assert_eq!(tile_tint(&hedge, TerrainShown::Faded), Color::srgb_u8(0, 255, 16).with_alpha(FADED_ALPHA));
        hedge.art = Some(TileArt::Foliage);
        assert_eq!(tile_index(&hedge), TileTextureIndex(TileArt::Foliage.column()));
        assert_eq!(tile_tint(&hedge, TerrainShown::Shown), Color::WHITE);
    }

    /// The mixed colour times the art's average colour is the shade blended over the tile there;
    /// half black halves the tile; no shade leaves the tint; a faded tile's alpha rises to the
    /// shade's coverage; very dark art is lightened no more than the cap.
    #[test]
    fn a_shade_mixed_into_a_tile_gives_the_blend_at_the_arts_average() {
        let close = |a: f32, b: f32| (a - b).abs() < 1e-4;
        let mean = [160, 140, 120];
        let linear_mean = Color::srgb_u8(160, 140, 120).to_linear().to_f32_array();
        let shade = Color::srgba(0.25, 0.75, 1.0, 0.3);
        let [sr, sg, sb, a] = shade.to_linear().to_f32_array();
        let mixed = shaded_tint(Color::WHITE, Some(shade), mean).to_linear().to_f32_array();
        for (i, s) in [sr, sg, sb].into_iter().enumerate() {
            assert!(close(mixed[i] * linear_mean[i], a * s + (1.0 - a) * linear_mean[i]), "channel {i}: {mixed:?}");
        }
        assert!(close(mixed[3], 1.0));
        let halved = shaded_tint(Color::WHITE, Some(Color::srgba(0.0, 0.0, 0.0, 0.5)), mean).to_linear();
        assert!([halved.red, halved.green, halved.blue].iter().all(|c| close(*c, 0.5)), "{halved:?}");
        assert_eq!(shaded_tint(Color::WHITE, None, mean), Color::WHITE);
        let faded = shaded_tint(Color::WHITE.with_alpha(FADED_ALPHA), Some(shade), mean).to_linear();
        assert!(close(faded.alpha, a + (1.0 - a) * FADED_ALPHA), "{faded:?}");
        let on_black = shaded_tint(Color::WHITE, Some(Color::srgba(1.0, 1.0, 1.0, 0.5)), [0, 0, 0]).to_linear();
        assert!(close(on_black.red, MAX_SHADE_GAIN), "{on_black:?}");
    }

    /// A known reach (two colours) over unseen cells, under an area: each shaded cell's tint holds
    /// the layers blended in order; no other cell is tinted; cells off the map are left out.
    #[test]
    fn the_shades_blend_their_layers_in_order() {
        let (blue, amber, dark) =
            (Color::srgba(0.25, 0.75, 1.0, 0.3), Color::srgba(1.0, 0.75, 0.2, 0.22), Color::srgba(0.0, 0.0, 0.0, 0.5));
        let white = Color::srgba(1.0, 1.0, 1.0, 0.5);
        let close = |a: Color, b: Color| {
            a.to_linear().to_f32_array().iter().zip(b.to_linear().to_f32_array()).all(|(x, y)| (x - y).abs() < 1e-5)
        };
        for grid in GRIDS {
            let layout = BoardLayout { grid, width: 5, height: 4 };
            let (near, far, hidden, inside) =
                (grid.from_storage(1, 1), grid.from_storage(4, 3), grid.from_storage(0, 2), grid.from_storage(2, 0));
            let mut shades = CellShades::default();
            shades.set(ShadeLayer::Area, vec![(inside, white), (grid.from_storage(7, 1), white)]);
            shades.set(ShadeLayer::Reach, vec![(near, blue), (far, amber), (inside, blue)]);
            shades.set(ShadeLayer::Unseen, vec![(far, dark), (hidden, dark)]);
            let colors = shade_colors(&layout, &shades);
            assert_eq!(colors.len(), 4, "{grid:?}: the four shaded cells on the map");
            assert!(close(colors[&near], blue), "{grid:?}");
            assert!(close(colors[&hidden], dark), "{grid:?}");
            // Amber over half black: alpha 0.22 + 0.5 × 0.78, and the colour amber's share of it.
            let [r, g, b, a] = amber.to_linear().to_f32_array();
            let alpha = a + 0.5 * (1.0 - a);
            assert!(close(colors[&far], Color::linear_rgba(r * a / alpha, g * a / alpha, b * a / alpha, alpha)));
            // Half white over the blue.
            let [r, g, b, a] = blue.to_linear().to_f32_array();
            let alpha = 0.5 + 0.5 * a;
            let mix = |c: f32| (0.5 + 0.5 * c * a) / alpha;
            assert!(close(colors[&inside], Color::linear_rgba(mix(r), mix(g), mix(b), alpha)), "{grid:?}");
        }
    }
}
