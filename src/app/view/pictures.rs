//! The map's pictures: the icon atlas (siege weapons, objects, conditions; game-icons.net, CC BY
//! 3.0, rasterized by `scripts/icons/build.mjs`), creatures' portraits cropped to their discs, and
//! the map image a scenario puts under the grid. Every file a scenario names goes through
//! [`crate::pictures`]' limits; one that can't be shown is a notice, and the token keeps its disc.

use std::collections::HashMap;
use std::path::PathBuf;

use bevy::asset::RenderAssetUsages;
use bevy::image::{Image, ImageSampler};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::sprite::Anchor;

use crate::app::core::layout::{BoardLayout, PIXELS_PER_UNIT};
use crate::app::core::messages::ScenarioChanged;
use crate::app::core::notice::{Notice, Said};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{LoadedScenario, TerrainShown};
use crate::pictures::{self, PictureError};
use crate::rules::conditions::Condition;
use crate::rules::siege::SiegeKind;
use crate::scenario::{Background, ObjectIcon};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Portraits>().add_systems(Startup, load_icon_atlas).add_systems(
        Update,
        (
            fade_tiles_over_a_map_image.run_if(on_message::<ScenarioChanged>),
            show_background.run_if(on_message::<ScenarioChanged>.or_eager(resource_changed::<LoadedScenario>)),
        )
            .chain()
            .in_set(AppSystems::Build),
    );
}

/// The icon atlas: 128-pixel white glyphs, eight to a row, in the order of `assets/icons/icons.txt`.
const ICONS_PNG: &[u8] = include_bytes!("../../../assets/icons/icons.png");
const ICON_CELL: u32 = 128;
const ICON_COLUMNS: u32 = 8;
const ICON_ROWS: u32 = 4;

/// The atlas's first condition icon; the conditions follow in [`Condition::ALL`]'s order.
const FIRST_CONDITION: usize = 11;

/// The icon atlas as a texture and its layout, for sprites.
#[derive(Resource, Clone, Debug)]
pub struct IconAtlas {
    pub image: Handle<Image>,
    pub layout: Handle<TextureAtlasLayout>,
}

impl IconAtlas {
    /// A sprite of icon `index`, `side` world pixels square, tinted `color`.
    pub fn sprite(&self, index: usize, side: f32, color: Color) -> Sprite {
        Sprite {
            image: self.image.clone(),
            texture_atlas: Some(TextureAtlas { layout: self.layout.clone(), index }),
            custom_size: Some(Vec2::splat(side)),
            color,
            ..default()
        }
    }
}

/// The icon of a piece of siege equipment, or of an object that names one.
pub fn object_icon(siege: Option<SiegeKind>, icon: Option<ObjectIcon>) -> Option<usize> {
    if let Some(icon) = icon {
        return Some(match icon {
            ObjectIcon::Gate => 7,
            ObjectIcon::WallSection => 8,
            ObjectIcon::Barrel => 9,
            ObjectIcon::Crate => 10,
        });
    }
    Some(match siege? {
        SiegeKind::Ram => 0,
        SiegeKind::Ballista => 1,
        SiegeKind::Cannon => 2,
        SiegeKind::Mangonel => 3,
        SiegeKind::Trebuchet => 4,
        SiegeKind::Cauldron => 5,
        SiegeKind::SiegeTower => 6,
    })
}

/// A condition's icon.
pub fn condition_icon(condition: Condition) -> usize {
    FIRST_CONDITION + Condition::ALL.iter().position(|c| *c == condition).unwrap_or(0)
}

/// Exhaustion's icon (after the fourteen conditions).
pub const EXHAUSTION_ICON: usize = FIRST_CONDITION + 14;

/// Decodes the icon atlas into an image, with mipmaps so the glyphs stay smooth when drawn small.
fn icon_atlas_image() -> Option<Image> {
    let atlas = image::load_from_memory_with_format(ICONS_PNG, image::ImageFormat::Png).ok()?.to_rgba8();
    Some(with_mipmaps(&atlas))
}

/// An sRGB image of `pixels` with every mip level down to 1×1 (each a box filter of the one
/// above), sampled linearly.
fn with_mipmaps(pixels: &image::RgbaImage) -> Image {
    let (width, height) = pixels.dimensions();
    let mut data = pixels.as_raw().clone();
    let mut level = pixels.clone();
    let mut levels = 1;
    while level.width() > 1 && level.height() > 1 {
        level = image::imageops::resize(
            &level,
            (level.width() / 2).max(1),
            (level.height() / 2).max(1),
            image::imageops::FilterType::Triangle,
        );
        data.extend_from_slice(level.as_raw());
        levels += 1;
    }
    let mut image = Image::new(
        Extent3d { width, height, depth_or_array_layers: 1 },
        TextureDimension::D2,
        pixels.as_raw().clone(),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    image.data = Some(data);
    image.texture_descriptor.mip_level_count = levels;
    image.sampler = ImageSampler::linear();
    image
}

fn load_icon_atlas(
    mut commands: Commands,
    images: Option<ResMut<Assets<Image>>>,
    layouts: Option<ResMut<Assets<TextureAtlasLayout>>>,
) {
    let (Some(mut images), Some(mut layouts), Some(image)) = (images, layouts, icon_atlas_image()) else { return };
    let layout = TextureAtlasLayout::from_grid(UVec2::splat(ICON_CELL), ICON_COLUMNS, ICON_ROWS, None, None);
    commands.insert_resource(IconAtlas { image: images.add(image), layout: layouts.add(layout) });
}

/// The side of a portrait's image, in pixels.
const PORTRAIT_SIDE: u32 = 128;

/// The portraits and pictures read so far, by file: each read once; `None` for one that can't be
/// shown (said once in a notice).
#[derive(Resource, Default)]
pub struct Portraits(HashMap<PathBuf, Option<Handle<Image>>>);

impl Portraits {
    /// The portrait the scenario's `image` names, cropped to a disc: read the first time it is
    /// asked for; a failure is said in `notice` once.
    pub fn get(
        &mut self,
        loaded: &LoadedScenario,
        image: &str,
        images: &mut Assets<Image>,
        notice: &mut Notice,
    ) -> Option<Handle<Image>> {
        let path = pictures::resolve(loaded.source.as_deref(), image);
        self.0
            .entry(path.clone())
            .or_insert_with(|| match pictures::load(&path) {
                Ok(pixels) => Some(images.add(portrait_image(&pixels))),
                Err(error) => {
                    notice.say(Said::PictureNotShown { error, background: false });
                    None
                }
            })
            .clone()
    }
}

/// A picture as a token's portrait: its middle square, scaled to [`PORTRAIT_SIDE`], clear outside
/// the inscribed disc (soft at its edge).
pub fn portrait_image(pixels: &image::RgbaImage) -> Image {
    let (width, height) = pixels.dimensions();
    let side = width.min(height).max(1);
    let square = image::imageops::crop_imm(pixels, (width - side) / 2, (height - side) / 2, side, side).to_image();
    let mut disc =
        image::imageops::resize(&square, PORTRAIT_SIDE, PORTRAIT_SIDE, image::imageops::FilterType::Triangle);
    let radius = PORTRAIT_SIDE as f32 / 2.0;
    for (x, y, pixel) in disc.enumerate_pixels_mut() {
        let d = Vec2::new(x as f32 + 0.5 - radius, y as f32 + 0.5 - radius).length();
        let cover = (radius - d + 0.5).clamp(0.0, 1.0);
        pixel.0[3] = (f32::from(pixel.0[3]) * cover).round() as u8;
    }
    with_mipmaps(&disc)
}

/// A scene with a map image under the grid opens with its tiles faded over it (their rules still
/// apply); one without, with them shown.
fn fade_tiles_over_a_map_image(loaded: Res<LoadedScenario>, mut shown: ResMut<TerrainShown>) {
    shown.set_if_neq(if loaded.scenario.background.is_some() { TerrainShown::Faded } else { TerrainShown::Shown });
}

/// Marks the sprite of the map image under the grid.
#[derive(Component)]
pub struct MapImage;

/// Where a map image goes in the world: its top-left corner and its size, so that `cell_px` of
/// its pixels span a cell and its pixel `offset` falls on the map's north-west corner.
pub fn background_place(background: &Background, image_size: UVec2, map_corner: Vec2) -> (Vec2, Vec2) {
    let scale = PIXELS_PER_UNIT / background.cell_px;
    let (x, y) = background.offset;
    let top_left = map_corner + Vec2::new(-x, y) * scale;
    (top_left, image_size.as_vec2() * scale)
}

/// Puts the scenario's map image under the grid (again when the scenario or its alignment
/// changes); a file that can't be shown is a notice.
fn show_background(
    mut commands: Commands,
    loaded: Res<LoadedScenario>,
    old: Query<Entity, With<MapImage>>,
    images: Option<ResMut<Assets<Image>>>,
    mut notice: ResMut<Notice>,
    mut shown: Local<Option<(PathBuf, Result<(Handle<Image>, UVec2), PictureError>)>>,
) {
    let Some(mut images) = images else { return };
    let layout = BoardLayout::of(&loaded.scenario.map);
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let Some(background) = &loaded.scenario.background else { return };
    let path = pictures::resolve(loaded.source.as_deref(), &background.image);
    if shown.as_ref().is_none_or(|(p, _)| *p != path) {
        let result = pictures::load(&path).map(|pixels| {
            let size = UVec2::new(pixels.width(), pixels.height());
            (images.add(with_mipmaps(&pixels)), size)
        });
        if let Err(error) = &result {
            notice.say(Said::PictureNotShown { error: error.clone(), background: true });
        }
        *shown = Some((path, result));
    }
    let Some((_, Ok((image, size)))) = shown.as_ref() else { return };
    let bounds = layout.bounds();
    let corner = Vec2::new(bounds.min.x, bounds.max.y);
    let (top_left, world_size) = background_place(background, *size, corner);
    commands.spawn((
        MapImage,
        Sprite { image: image.clone(), custom_size: Some(world_size), ..default() },
        Anchor::TOP_LEFT,
        // Under the tiles (at 0), within the 2D camera's depth (which ends 0.1 below 0).
        Transform::from_translation(top_left.extend(-0.05)),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The atlas decodes at the size its script writes, with a glyph in the ram's cell and in
    /// the last condition's.
    #[test]
    fn the_icon_atlas_holds_its_icons() {
        let atlas = image::load_from_memory(ICONS_PNG).expect("the atlas decodes").to_rgba8();
        assert_eq!(atlas.dimensions(), (ICON_CELL * ICON_COLUMNS, ICON_CELL * ICON_ROWS));
        for index in [0, 7, EXHAUSTION_ICON] {
            let (cx, cy) = ((index as u32 % ICON_COLUMNS) * ICON_CELL, (index as u32 / ICON_COLUMNS) * ICON_CELL);
            let inked = (0..ICON_CELL)
                .flat_map(|y| (0..ICON_CELL).map(move |x| (x, y)))
                .filter(|&(x, y)| atlas.get_pixel(cx + x, cy + y).0[3] > 128)
                .count();
            assert!(inked > 500, "icon {index} has a glyph ({inked} pixels)");
        }
        assert_eq!(object_icon(Some(SiegeKind::Ram), None), Some(0));
        assert_eq!(object_icon(None, Some(ObjectIcon::Gate)), Some(7));
        assert_eq!(object_icon(None, None), None);
        assert_eq!(condition_icon(Condition::Blinded), 11);
        assert_eq!(condition_icon(Condition::Unconscious), 24);
    }

    /// A portrait is its middle square cropped to a disc: opaque in the middle, clear in the
    /// corners.
    #[test]
    fn a_portrait_is_cropped_to_a_disc() {
        let wide = image::RgbaImage::from_pixel(300, 200, image::Rgba([200, 40, 40, 255]));
        let image = portrait_image(&wide);
        assert_eq!((image.width(), image.height()), (PORTRAIT_SIDE, PORTRAIT_SIDE));
        let data = image.data.as_deref().expect("pixels");
        let alpha = |x: u32, y: u32| data[(4 * (y * PORTRAIT_SIDE + x) + 3) as usize];
        assert_eq!(alpha(PORTRAIT_SIDE / 2, PORTRAIT_SIDE / 2), 255);
        assert_eq!(alpha(0, 0), 0);
        assert_eq!(alpha(PORTRAIT_SIDE - 1, PORTRAIT_SIDE - 1), 0);
    }

    /// A portrait that can't be shown is said once, with its reason, and the token keeps its
    /// disc; one that loads is read once and shared.
    #[test]
    fn a_missing_or_broken_portrait_is_a_notice_and_no_picture() {
        let scene = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/tavern_brawl.ron");
        let loaded = LoadedScenario::from_file(crate::scenario::Scenario::built_in(), scene);
        let (mut portraits, mut images, mut notice) =
            (Portraits::default(), Assets::<Image>::default(), Notice::default());
        for (file, reason) in [("tokens/nobody.png", "is not there"), ("tokens/not-an-image.png", "not a PNG or JPEG")]
        {
            assert_eq!(portraits.get(&loaded, file, &mut images, &mut notice), None, "{file}");
            let said = notice.0.take().expect("a notice");
            assert!(matches!(said, Said::PictureNotShown { background: false, .. }), "{said:?}");
            assert!(crate::ui::words::said(&said).contains(reason), "{}", crate::ui::words::said(&said));
            assert_eq!(portraits.get(&loaded, file, &mut images, &mut notice), None);
            assert_eq!(notice.0, None, "{file}: said once");
        }
        let huge = portraits.get(&loaded, "tokens/huge.png", &mut images, &mut notice);
        assert!(huge.is_none() && notice.0.take().is_some(), "over 4096 pixels wide");
        let ogre = portraits.get(&loaded, "tokens/ogre.png", &mut images, &mut notice).expect("the ogre loads");
        assert_eq!(portraits.get(&loaded, "tokens/ogre.png", &mut images, &mut notice), Some(ogre.clone()));
        assert_eq!(images.len(), 1, "read once");
        assert_eq!(notice.0, None);
    }

    /// 70 image pixels to a cell are 64 world pixels; the offset's pixel lands on the map's corner.
    #[test]
    fn a_map_image_is_scaled_to_the_cells_and_shifted_by_its_offset() {
        let background = Background { image: "map.png".into(), cell_px: 70.0, offset: (35.0, 70.0) };
        let (top_left, size) = background_place(&background, UVec2::new(1400, 700), Vec2::ZERO);
        assert_eq!(size, Vec2::new(1280.0, 640.0));
        assert_eq!(top_left, Vec2::new(-32.0, 64.0));
    }
}
