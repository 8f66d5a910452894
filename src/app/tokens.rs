//! Creatures and objects as entities: their components from the scenario, and their look on the
//! map: a tinted footprint covering the whole space, a disc coloured by side, and a name label.

use bevy::prelude::*;
use bevy::sprite::Anchor;

use super::components::*;
use super::layout::{BoardLayout, PIXELS_PER_UNIT};
use super::state::{LoadedScenario, ScenarioChanged};
use crate::rules::{Cell, Footprint, Grid, Size};
use crate::scenario::{RuleOptions, Token};
use crate::ui::style::token_color;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DiscImage>()
        .add_systems(Update, spawn_tokens.run_if(on_message::<ScenarioChanged>).in_set(super::AppSystems::Build))
        .add_systems(
            PostUpdate,
            hide_unreadable_labels.before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
}

/// Marks a piece of a token's label (the name, its backing, the initials) with the font size it
/// is drawn at, in world units: shown only while the text is big enough on screen to read, as map
/// tools do (a zoomed-out big map would draw hundreds of unreadable labels each frame).
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct ZoomLabel {
    pub font_size: f32,
}

/// The smallest text, in screen pixels, worth drawing: every sample map fitted to the window
/// keeps its names (the dungeon corridor's Tiny bat, the smallest, at 3.8 pixels); a 200×200
/// map (under 1 pixel) drops them.
const READABLE_PIXELS: f32 = 3.5;

pub(super) fn hide_unreadable_labels(
    camera: Query<&Projection, With<super::camera::MapCamera>>,
    mut labels: Query<(&ZoomLabel, &mut Visibility)>,
) {
    let Ok(Projection::Orthographic(projection)) = camera.single() else { return };
    for (label, mut visibility) in &mut labels {
        let shown = if label.font_size / projection.scale >= READABLE_PIXELS {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        visibility.set_if_neq(shown);
    }
}

/// One white disc with a soft edge, shared by every token's disc and outline (tinted sprites).
/// Its edge is smooth at every zoom without multisampling, which software rendering can't
/// afford (docs/performance.md); the sprites share one image, so they are drawn in a batch.
#[derive(Resource, Clone, Debug, Default)]
pub(super) struct DiscImage(pub Handle<Image>);

/// The disc image's side in pixels at its largest level.
const DISC_IMAGE_SIDE: u32 = 128;

/// A white disc filling a square image, with every mip level drawn exactly (each pixel's alpha
/// is how much of it the disc covers, from its distance to the edge), so it stays smooth when
/// drawn small.
pub(super) fn disc_image() -> Image {
    use bevy::asset::RenderAssetUsages;
    use bevy::image::{ImageSampler, ImageSamplerDescriptor};
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    let levels = DISC_IMAGE_SIDE.ilog2() + 1;
    let mut data = Vec::new();
    for level in 0..levels {
        let side = DISC_IMAGE_SIDE >> level;
        let radius = side as f32 / 2.0;
        for y in 0..side {
            for x in 0..side {
                let d = Vec2::new(x as f32 + 0.5 - radius, y as f32 + 0.5 - radius).length();
                let alpha = (radius - d + 0.5).clamp(0.0, 1.0);
                data.extend_from_slice(&[255, 255, 255, (alpha * 255.0).round() as u8]);
            }
        }
    }
    let first_level = data[..(4 * DISC_IMAGE_SIDE * DISC_IMAGE_SIDE) as usize].to_vec();
    let mut image = Image::new(
        Extent3d { width: DISC_IMAGE_SIDE, height: DISC_IMAGE_SIDE, depth_or_array_layers: 1 },
        TextureDimension::D2,
        first_level,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    );
    // Every level follows the first, as the GPU upload expects.
    image.data = Some(data);
    image.texture_descriptor.mip_level_count = levels;
    image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor::linear());
    image
}

/// Marks a token's root entity.
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct TokenMarker;

/// Where the token's disc is drawn and how big, in world units (for picking and overlays).
/// Its look is built around `home_anchor`; when the token moves, the whole token is translated.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub(super) struct TokenDisc {
    /// The disc's centre where the token stands now.
    pub center: Vec2,
    pub radius: f32,
    /// The anchor and disc centre the token's look was built at.
    pub home_anchor: Cell,
    pub home_center: Vec2,
}

const TOKEN_Z: f32 = 10.0;
/// How far a token's place in the scenario lifts it above the ones before, at most: less than
/// the gap between the layers of a token's look (footprint, disc, label, bar), so each layer of
/// every token sorts together and is drawn in one batch, while overlapping tokens keep a fixed
/// order.
const ORDER_LIFT: f32 = 0.04;

/// The radius of a token's disc, in grid units, by the space it covers.
fn disc_radius(grid: Grid, size: Size, square_side: Option<u32>) -> f32 {
    match (grid, size) {
        (_, Size::Tiny) => 0.22,
        (Grid::Square, _) => 0.42 * Footprint::of(grid, size, square_side).len().isqrt() as f32,
        (Grid::Hex(_), Size::Small | Size::Medium) => 0.42,
        (Grid::Hex(_), Size::Large) => 0.7,
        (Grid::Hex(_), Size::Huge) => 1.2,
        (Grid::Hex(_), Size::Gargantuan) => 1.45,
    }
}

/// The centre of a token's disc: the middle of its space; Tiny creatures sharing a cell take a
/// quarter each (`tiny_index` is their place among the Tiny ones in that cell).
pub(super) fn disc_center(layout: &BoardLayout, cells: &[Cell], tiny_index: Option<usize>) -> Vec2 {
    let sum: Vec2 = cells.iter().map(|&c| layout.world(c)).sum();
    let center = sum / cells.len().max(1) as f32;
    match tiny_index {
        Some(i) => {
            let quarter = [Vec2::new(-1.0, 1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, -1.0)];
            center + quarter[i % 4] * 0.24 * PIXELS_PER_UNIT
        }
        None => center,
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn spawn_tokens(
    mut commands: Commands,
    loaded: Res<LoadedScenario>,
    old: Query<Entity, With<TokenMarker>>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
    mut materials: Option<ResMut<Assets<ColorMaterial>>>,
    mut images: Option<ResMut<Assets<Image>>>,
    mut shared_disc: ResMut<DiscImage>,
) {
    if let Some(images) = images.as_deref_mut()
        && shared_disc.0 == Handle::default()
    {
        shared_disc.0 = images.add(disc_image());
    }
    for entity in &old {
        commands.entity(entity).despawn();
    }
    let scenario = &loaded.scenario;
    let layout = BoardLayout::of(&scenario.map);
    let mut tiny_in_cell: std::collections::HashMap<Cell, usize> = Default::default();
    let mut shared = SharedLooks::default();
    for (order, token) in scenario.tokens.iter().enumerate() {
        let cells = token.cells(scenario.grid);
        let tiny_index = (token.size == Size::Tiny).then(|| {
            let n = tiny_in_cell.entry(token.anchor).or_default();
            *n += 1;
            *n - 1
        });
        let center = disc_center(&layout, &cells, tiny_index);
        let disc = TokenDisc {
            center,
            radius: disc_radius(scenario.grid, token.size, token.square_side) * PIXELS_PER_UNIT,
            home_anchor: token.anchor,
            home_center: center,
        };
        let mut entity = commands.spawn((
            TokenMarker,
            components(token, scenario.rules),
            RosterOrder(order),
            disc,
            Transform::from_translation(Vec3::new(
                0.0,
                0.0,
                TOKEN_Z + ORDER_LIFT * order as f32 / scenario.tokens.len() as f32,
            )),
            Visibility::default(),
        ));
        if let Some(facing) = token.facing {
            entity.insert(Facing(facing));
        }
        if let Some(shield) = token.shield {
            entity.insert(Shield(shield));
        }
        if token.player_character {
            entity.insert(PlayerCharacter);
        }
        if token.hidden {
            entity.insert(Secret);
        }
        if let Some(siege) = token.siege {
            entity.insert(SiegeWeapon { siege, round: 0, crew_this_round: Vec::new() });
        }
        if token.holds_creatures() {
            entity.insert(OpenSpace);
        }
        if let (Some(meshes), Some(materials)) = (meshes.as_deref_mut(), materials.as_deref_mut()) {
            let root = entity.id();
            let looks = Looks { layout: &layout, meshes, materials, disc_image: &shared_disc.0, shared: &mut shared };
            spawn_visuals(&mut commands, root, token, &cells, disc, looks);
        }
    }
}

fn components(token: &Token, rules: RuleOptions) -> impl Bundle {
    (
        TokenId(token.id.clone()),
        DisplayName(token.name.clone()),
        Position(token.anchor),
        CreatureSize { size: token.size, square_side: token.square_side },
        Allegiance(token.side),
        Kind(token.kind),
        Vitals { ac: token.ac, speed: token.speed, exhaustion: token.exhaustion },
        HitPoints(token.health()),
        Combatant {
            sheet: token.sheet(),
            conditions: token.conditions.clone(),
            defenses: token.defenses.clone(),
            arcs: token.arcs,
            dodging: false,
            helped_against: None,
            helped_by: None,
            average_damage: token.deals_average_damage(rules),
            hidden: None,
            elevation: token.elevation,
        },
        Actions::default(),
        AbilityModifiers(token.abilities),
    )
}

/// What a token's look is made with.
struct Looks<'a> {
    layout: &'a BoardLayout,
    meshes: &'a mut Assets<Mesh>,
    materials: &'a mut Assets<ColorMaterial>,
    disc_image: &'a Handle<Image>,
    shared: &'a mut SharedLooks,
}

/// Footprint meshes by the shape of the space (cells relative to the first) and materials by
/// colour, shared between the tokens of a scenario.
#[derive(Default)]
struct SharedLooks {
    meshes: std::collections::HashMap<Vec<(i32, i32)>, Handle<Mesh>>,
    materials: std::collections::HashMap<[u8; 3], Handle<ColorMaterial>>,
}

fn spawn_visuals(commands: &mut Commands, root: Entity, token: &Token, cells: &[Cell], disc: TokenDisc, looks: Looks) {
    let Looks { layout, meshes, materials, disc_image, shared } = looks;
    let [r, g, b] = token_color(token.side, token.kind);
    let color = Color::srgb_u8(r, g, b);
    if token.size != Size::Tiny {
        // Spaces of the same shape share one mesh, and sides one material: drawn in one batch.
        let origin = layout.world(cells[0]);
        let shape: Vec<(i32, i32)> = cells.iter().map(|c| (c.x - cells[0].x, c.y - cells[0].y)).collect();
        let mesh = shared.meshes.entry(shape).or_insert_with(|| meshes.add(footprint_mesh(layout, cells, origin)));
        let material = shared.materials.entry([r, g, b]).or_insert_with(|| materials.add(color.with_alpha(0.32)));
        commands.spawn((
            Mesh2d(mesh.clone()),
            MeshMaterial2d(material.clone()),
            Transform::from_translation(origin.extend(0.0)),
            ChildOf(root),
        ));
    }
    let outline = 3.0;
    let round = |radius: f32, color: Color| Sprite {
        image: disc_image.clone(),
        color,
        custom_size: Some(Vec2::splat(2.0 * radius)),
        ..default()
    };
    commands.spawn((
        round(disc.radius, Color::srgb_u8(18, 18, 22)),
        Transform::from_translation(disc.center.extend(0.1)),
        ChildOf(root),
    ));
    commands.spawn((
        round(disc.radius - outline, color),
        Transform::from_translation(disc.center.extend(0.2)),
        ChildOf(root),
    ));
    if let Some(facing) = token.facing {
        // A notch on the disc's rim, drawn pointing east and turned the way the creature faces.
        let angle = -(facing.degrees(layout.grid) as f32).to_radians();
        let tip = Vec2::X * (disc.radius + 13.0);
        let side = |turn: f32| Vec2::from_angle(turn) * (disc.radius - 1.0);
        commands.spawn((
            super::fight::looks::FacingNotch,
            Mesh2d(meshes.add(Triangle2d::new(tip, side(0.42), side(-0.42)))),
            MeshMaterial2d(materials.add(Color::srgb_u8(240, 236, 220))),
            Transform::from_translation(disc.center.extend(0.7)).with_rotation(Quat::from_rotation_z(angle)),
            ChildOf(root),
        ));
    }
    super::fight::looks::spawn(commands, root, disc);
    let font_size = if token.size == Size::Tiny { 9.0 } else { 13.0 };
    let label_y = disc.center.y - disc.radius - font_size * 0.75;
    let width = token.name.chars().count() as f32 * font_size * 0.62 + 8.0;
    let name_label = ZoomLabel { font_size };
    commands.spawn((
        name_label,
        Sprite::from_color(Color::srgba(0.05, 0.05, 0.07, 0.78), Vec2::new(width, font_size * 1.35)),
        Transform::from_translation(Vec3::new(disc.center.x, label_y, 0.3)),
        ChildOf(root),
    ));
    commands.spawn((
        name_label,
        Text2d::new(token.name.clone()),
        TextFont::from_font_size(font_size),
        TextColor(Color::WHITE),
        Anchor::CENTER,
        Transform::from_translation(Vec3::new(disc.center.x, label_y, 0.4)),
        ChildOf(root),
    ));
    let initials: String = initials(&token.name);
    let initials_size = (disc.radius * 0.8).clamp(8.0, 40.0);
    commands.spawn((
        ZoomLabel { font_size: initials_size },
        Text2d::new(initials),
        TextFont::from_font_size(initials_size),
        TextColor(Color::WHITE),
        Anchor::CENTER,
        Transform::from_translation(disc.center.extend(0.4)),
        ChildOf(root),
    ));
}

/// One or two letters for the disc: the first letters of the first two words.
fn initials(name: &str) -> String {
    name.split_whitespace().take(2).filter_map(|w| w.chars().next()).flat_map(char::to_uppercase).collect()
}

/// A mesh of the token's cells, each slightly inset so the grid still shows between them.
/// The tinted space of a token: each cell a little inset, around `origin` (the first cell's
/// centre).
fn footprint_mesh(layout: &BoardLayout, cells: &[Cell], origin: Vec2) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for &cell in cells {
        let center = layout.world(cell) - origin;
        let base = positions.len() as u32;
        positions.push([center.x, center.y, 0.0]);
        let corners: Vec<Vec2> = layout.corners(cell).into_iter().map(|c| c - origin).collect();
        for corner in &corners {
            let p = center.lerp(*corner, 0.94);
            positions.push([p.x, p.y, 0.0]);
        }
        let n = corners.len() as u32;
        for i in 0..n {
            indices.extend_from_slice(&[base, base + 1 + (i + 1) % n, base + 1 + i]);
        }
    }
    let normals = vec![[0.0, 0.0, 1.0]; positions.len()];
    let uvs = vec![[0.0, 0.0]; positions.len()];
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initials_take_the_first_letters() {
        assert_eq!(initials("Bandit captain"), "BC");
        assert_eq!(initials("Brom"), "B");
        assert_eq!(initials("Gorm the bouncer"), "GT");
    }

    /// Labels are drawn while their letters are at least 3.5 screen pixels high, hidden below.
    #[test]
    fn labels_hide_when_too_small_to_read() {
        use bevy::ecs::system::RunSystemOnce;
        let mut world = World::new();
        let camera = world
            .spawn((super::super::camera::MapCamera, Projection::Orthographic(OrthographicProjection::default_2d())))
            .id();
        let name = world.spawn((ZoomLabel { font_size: 13.0 }, Visibility::Inherited)).id();
        let initials = world.spawn((ZoomLabel { font_size: 21.0 }, Visibility::Inherited)).id();
        let shown = |world: &mut World, scale: f32| {
            if let Some(mut projection) = world.get_mut::<Projection>(camera)
                && let Projection::Orthographic(ortho) = &mut *projection
            {
                ortho.scale = scale;
            }
            world.run_system_once(hide_unreadable_labels).expect("the system runs");
            [name, initials].map(|e| world.get::<Visibility>(e) == Some(&Visibility::Inherited))
        };
        assert_eq!(shown(&mut world, 1.0), [true, true]);
        assert_eq!(shown(&mut world, 4.0), [false, true], "13 / 4 is under 3.5 pixels, 21 / 4 is not");
        assert_eq!(shown(&mut world, 7.0), [false, false]);
        assert_eq!(shown(&mut world, 2.0), [true, true], "zooming back in shows them again");
    }

    /// The disc image is opaque inside, clear outside, soft only at its edge, at every level.
    #[test]
    fn the_disc_image_is_a_disc_at_every_level() {
        let image = disc_image();
        let data = image.data.as_deref().expect("the image has its pixels");
        let mut offset = 0;
        for level in 0..image.texture_descriptor.mip_level_count {
            let side = (DISC_IMAGE_SIDE >> level) as usize;
            let alpha = |x: usize, y: usize| data[offset + 4 * (y * side + x) + 3];
            if side >= 8 {
                assert_eq!(alpha(0, 0), 0, "a corner of level {level} is outside the disc");
            }
            if side >= 4 {
                assert_eq!(alpha(side / 2, side / 2), 255, "the middle of level {level} is inside");
                let soft = (0..side).filter(|&x| !matches!(alpha(x, side / 2), 0 | 255)).count();
                assert!(soft <= 4, "level {level}: only the edge is soft ({soft} soft pixels across)");
            }
            offset += 4 * side * side;
        }
        assert_eq!(offset, data.len(), "every level is there, and nothing more");
    }
}
