//! The tokens' looks on the map: a tinted footprint covering the whole space, a disc coloured by
//! side, a name label and initials, the fight's bar and badge (`looks`), each token put where its
//! [`Position`] says (or under the cursor while it is dragged).

use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use bevy::sprite::Anchor;

use super::looks::{self, FacingNotch};
use super::pictures::{IconAtlas, Portraits, object_icon};
use crate::app::core::components::*;
use crate::app::core::layout::{BoardLayout, MapLayout};
use crate::app::core::notice::Notice;
use crate::app::core::pointer::{MapCamera, PointerOnMap};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::LoadedScenario;
use crate::app::core::state::Selection;
use crate::app::features::movement::Dragging;
use crate::rules::{Cell, Grid};
use crate::scenario::TokenKind;
use crate::ui::style::token_color;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DiscImage>()
        .add_systems(
            Update,
            (
                // After an undo's, a redo's or an edit's respawn (`Follow`), so that the tokens it
                // spawns are dressed in the same frame, before `looks::update` reads their bars.
                dress_tokens.after(AppSystems::Follow).before(AppSystems::Show),
                place_tokens.in_set(AppSystems::Show),
            ),
        )
        .add_systems(
            PostUpdate,
            (hide_unreadable_labels, make_room_for_names)
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
}

/// Marks a piece of a token's label (the name, its backing, the initials) with the font size it
/// is drawn at, in world units: shown only while the text is big enough on screen to read, as map
/// tools do (a zoomed-out big map would draw hundreds of unreadable labels each frame).
#[derive(Component, Clone, Copy, Debug)]
pub struct ZoomLabel {
    pub font_size: f32,
}

/// The smallest text, in screen pixels, worth drawing: every sample map fitted to the window
/// keeps its names (the dungeon corridor's Tiny bat, the smallest, at 3.8 pixels); a 200×200
/// map (under 1 pixel) drops them.
const READABLE_PIXELS: f32 = 3.5;

pub(super) fn hide_unreadable_labels(
    camera: Query<&Projection, With<MapCamera>>,
    mut labels: Query<(&ZoomLabel, &mut Visibility), Without<NameLabel>>,
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

/// Marks the pieces of a token's name label (the text and its backing): the label's size, and
/// how far below the disc's centre its middle is, in world units.
#[derive(Component, Clone, Copy, Debug)]
pub struct NameLabel {
    pub size: Vec2,
    pub below: f32,
}

/// Where a token's name label would be: its rectangle in the world.
fn name_rect(disc: &TokenDisc, label: &NameLabel) -> Rect {
    Rect::from_center_size(disc.center - Vec2::Y * label.below, label.size)
}

/// The smallest name under a token drawn unasked, in screen pixels (issue 39: a table reads the
/// map from across the table). A smaller one is hidden; hovered or selected, it is drawn at this
/// size.
pub const NAME_PIXELS: f32 = 11.0;

/// How far a hovered or selected token's name is lifted above the tokens' layers.
const FORCED_LIFT: f32 = 5.0;

/// Which tokens' names are drawn so that no two run into each other: the selected token's and
/// the hovered one's always, then the player characters', then the others' in the roster's
/// order, each only where it overlaps no name already placed. Each is drawn at [`NAME_PIXELS`]
/// or more (grown if the zoom draws it smaller; unasked, to twice its size at most). The roster
/// names everyone.
pub(super) fn make_room_for_names(
    camera: Query<Ref<Projection>, With<MapCamera>>,
    selection: Res<Selection>,
    pointer: Res<PointerOnMap>,
    tokens: Query<(Entity, &TokenDisc, &RosterOrder, Has<PlayerCharacter>, &Children), Without<OutOfView>>,
    moved: Query<(), Or<(Changed<TokenDisc>, Changed<OutOfView>)>>,
    mut labels: Query<(&NameLabel, &ZoomLabel, &mut Visibility, &mut Transform)>,
    mut hovered_before: Local<Option<Entity>>,
) {
    let Ok(projection) = camera.single() else { return };
    let Projection::Orthographic(ortho) = &*projection else { return };
    let hovered = pointer.world.and_then(|world| {
        tokens
            .iter()
            .filter(|(_, disc, ..)| disc.center.distance(world) <= disc.radius)
            .min_by(|a, b| a.1.center.distance(world).total_cmp(&b.1.center.distance(world)))
            .map(|(entity, ..)| entity)
    });
    let unchanged =
        !projection.is_changed() && !selection.is_changed() && moved.is_empty() && hovered == *hovered_before;
    if unchanged {
        return;
    }
    *hovered_before = hovered;
    let mut order: Vec<_> = tokens.iter().collect();
    order.sort_by_key(|&(entity, _, roster, pc, _)| {
        let forced = Some(entity) == selection.0 || Some(entity) == hovered;
        (!forced, !pc, *roster)
    });
    // A name goes where it covers no other name and no other token's disc.
    let discs: Vec<(Entity, Rect)> = order
        .iter()
        .map(|(entity, disc, ..)| (*entity, Rect::from_center_half_size(disc.center, Vec2::splat(disc.radius * 0.9))))
        .collect();
    let mut placed: Vec<Rect> = Vec::new();
    for (entity, disc, _, _, children) in order {
        let forced = Some(entity) == selection.0 || Some(entity) == hovered;
        let Some((label, font)) =
            children.iter().find_map(|c| labels.get(c).ok().map(|(label, zoom, ..)| (*label, zoom.font_size)))
        else {
            continue;
        };
        let on_screen = font / ortho.scale;
        // Grown about its own middle to be read: up to twice its size unasked (beyond, a name
        // would dwarf its token), as much as it takes when hovered or selected.
        let grow = (NAME_PIXELS / on_screen.max(f32::EPSILON)).max(1.0);
        let readable = grow <= 2.0;
        let mut rect = name_rect(disc, &label);
        rect = Rect::from_center_size(rect.center(), rect.size() * grow);
        let covers = |other: &Rect| !other.intersect(rect).is_empty();
        let room = !placed.iter().any(covers) && !discs.iter().any(|(e, d)| *e != entity && covers(d));
        let shown = forced || (readable && room);
        if shown {
            placed.push(rect);
        }
        for child in children.iter() {
            if let Ok((_, _, mut visibility, mut transform)) = labels.get_mut(child) {
                visibility.set_if_neq(if shown { Visibility::Inherited } else { Visibility::Hidden });
                let scale = Vec3::new(grow, grow, 1.0);
                if transform.scale != scale {
                    transform.scale = scale;
                }
                // Asked for, it is drawn over every other token (their bars and discs).
                let z = transform.translation.z.fract() + if forced { FORCED_LIFT } else { 0.0 };
                if transform.translation.z != z {
                    transform.translation.z = z;
                }
            }
        }
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

const TOKEN_Z: f32 = 10.0;
/// How far a token's place in the scenario lifts it above the ones before, at most: less than
/// the gap between the layers of a token's look (footprint, disc, label, bar), so each layer of
/// every token sorts together and is drawn in one batch, while overlapping tokens keep a fixed
/// order.
const ORDER_LIFT: f32 = 0.04;

/// What a new token's look is built from.
#[derive(QueryData)]
struct Dressed {
    entity: Entity,
    name: &'static DisplayName,
    side: &'static Allegiance,
    kind: &'static Kind,
    size: &'static Size,
    position: &'static Position,
    disc: &'static TokenDisc,
    facing: Option<&'static Facing>,
    order: &'static RosterOrder,
    art: Option<&'static TokenArt>,
    siege: Option<&'static SiegeWeapon>,
}

/// What a token's picture is made from: the icon atlas, the portraits read so far, the scenario
/// (whose file the pictures' paths start from) and the notice a failure is said in.
#[derive(bevy::ecs::system::SystemParam)]
struct PictureSources<'w> {
    icons: Option<Res<'w, IconAtlas>>,
    portraits: ResMut<'w, Portraits>,
    loaded: Res<'w, LoadedScenario>,
    notice: ResMut<'w, Notice>,
}

/// Builds the look of every token spawned this frame (a new scenario, an undo, an edit).
#[allow(clippy::too_many_arguments)]
fn dress_tokens(
    mut commands: Commands,
    new: Query<Dressed, Added<TokenMarker>>,
    all: Query<(), With<TokenMarker>>,
    layout: Option<Res<MapLayout>>,
    mut transforms: Query<&mut Transform, With<TokenMarker>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut images: ResMut<Assets<Image>>,
    mut shared_disc: ResMut<DiscImage>,
    mut shared: Local<SharedLooks>,
    mut sources: PictureSources,
) {
    let Some(layout) = layout.filter(|_| !new.is_empty()) else { return };
    if shared_disc.0 == Handle::default() {
        shared_disc.0 = images.add(disc_image());
    }
    if shared.grid != Some(layout.0.grid) {
        *shared = SharedLooks { grid: Some(layout.0.grid), ..SharedLooks::default() };
    }
    let count = all.iter().count().max(1) as f32;
    for DressedItem { entity, name, side, kind, size, position, disc, facing, order, art, siege } in &new {
        if let Ok(mut transform) = transforms.get_mut(entity) {
            transform.translation.z = TOKEN_Z + ORDER_LIFT * order.0 as f32 / count;
        }
        let cells = size.cells(layout.0.grid, position.0);
        let portrait = art
            .and_then(|a| a.image.as_deref())
            .and_then(|image| sources.portraits.get(&sources.loaded, image, &mut images, &mut sources.notice));
        let icon = object_icon(siege.map(|s| s.siege.kind), art.and_then(|a| a.icon));
        let picture = match (portrait, icon, sources.icons.as_deref()) {
            (Some(portrait), ..) => Picture::Portrait(portrait),
            (None, Some(index), Some(atlas)) => Picture::Icon(atlas.sprite(index, 1.0, ICON_INK)),
            _ => Picture::Initials,
        };
        let token =
            Look { name: &name.0, side: side.0, kind: kind.0, size: size.size, facing: facing.map(|f| f.0), picture };
        let looks = Looks {
            layout: &layout.0,
            meshes: &mut meshes,
            materials: &mut materials,
            disc_image: &shared_disc.0,
            shared: &mut shared,
        };
        spawn_visuals(&mut commands, entity, &token, &cells, *disc, looks);
    }
}

/// What a token looks like: its name, side, kind, size, facing and picture.
struct Look<'a> {
    name: &'a str,
    side: crate::rules::creature::Side,
    kind: TokenKind,
    size: crate::rules::Size,
    facing: Option<crate::rules::creature::Direction>,
    picture: Picture,
}

/// What the middle of a token's disc shows.
enum Picture {
    /// Its portrait, cropped to the disc inside a ring of its side's colour.
    Portrait(Handle<Image>),
    /// An object's icon (a sprite of the icon atlas, resized when drawn).
    Icon(Sprite),
    /// The first letters of its name.
    Initials,
}

/// How much of the coloured disc a portrait or icon covers (its radius's share): the rest is the
/// ring in the side's colour.
pub const PICTURE_SHARE: f32 = 0.76;

/// The colour of an object's icon on its disc.
const ICON_INK: Color = Color::srgb(0.96, 0.93, 0.84);

/// Marks a token's portrait or icon sprite.
#[derive(Component)]
pub struct TokenPicture;

/// Puts each token where its [`Position`] says (its look was built at its home anchor), or
/// under the cursor while it is dragged.
fn place_tokens(
    layout: Option<Res<MapLayout>>,
    dragging: Res<Dragging>,
    pointer: Res<PointerOnMap>,
    mut tokens: Query<(Entity, &Position, &mut Transform, &mut TokenDisc), With<TokenMarker>>,
) {
    let Some(layout) = layout else { return };
    let layout = layout.0;
    for (entity, position, mut transform, mut disc) in &mut tokens {
        let shift = layout.world(position.0) - layout.world(disc.home_anchor);
        let center = disc.home_center + shift;
        if disc.center != center {
            disc.center = center;
        }
        let mut offset = shift;
        if let (Some(drag), Some(world)) = (dragging.0.as_ref().filter(|d| d.entity == entity), pointer.world) {
            let grabbed = layout.world(position.0.offset(drag.grab.0, drag.grab.1));
            offset = shift + (world - grabbed);
        }
        if transform.translation.truncate() != offset {
            transform.translation = offset.extend(transform.translation.z);
        }
    }
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
/// colour, shared between the tokens of a grid.
#[derive(Default)]
struct SharedLooks {
    grid: Option<Grid>,
    meshes: std::collections::HashMap<Vec<(i32, i32)>, Handle<Mesh>>,
    materials: std::collections::HashMap<[u8; 3], Handle<ColorMaterial>>,
}

fn spawn_visuals(commands: &mut Commands, root: Entity, token: &Look, cells: &[Cell], disc: TokenDisc, looks: Looks) {
    let Looks { layout, meshes, materials, disc_image, shared } = looks;
    let [r, g, b] = token_color(token.side, token.kind);
    let color = Color::srgb_u8(r, g, b);
    if token.size != crate::rules::Size::Tiny {
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
            FacingNotch,
            Mesh2d(meshes.add(Triangle2d::new(tip, side(0.42), side(-0.42)))),
            MeshMaterial2d(materials.add(Color::srgb_u8(240, 236, 220))),
            Transform::from_translation(disc.center.extend(0.7)).with_rotation(Quat::from_rotation_z(angle)),
            ChildOf(root),
        ));
    }
    looks::spawn(commands, root, disc);
    // The picture leaves a ring of the side's colour around it.
    let picture_radius = PICTURE_SHARE * (disc.radius - outline);
    match &token.picture {
        Picture::Portrait(image) => {
            commands.spawn((
                TokenPicture,
                Sprite { image: image.clone(), custom_size: Some(Vec2::splat(2.0 * picture_radius)), ..default() },
                Transform::from_translation(disc.center.extend(0.3)),
                ChildOf(root),
            ));
        }
        Picture::Icon(sprite) => {
            commands.spawn((
                round(picture_radius, Color::srgba(0.07, 0.07, 0.09, 0.55)),
                Transform::from_translation(disc.center.extend(0.25)),
                ChildOf(root),
            ));
            commands.spawn((
                TokenPicture,
                Sprite { custom_size: Some(Vec2::splat(1.45 * picture_radius)), ..sprite.clone() },
                Transform::from_translation(disc.center.extend(0.3)),
                ChildOf(root),
            ));
        }
        Picture::Initials => {}
    }
    let font_size = if token.size == crate::rules::Size::Tiny { 9.0 } else { 13.0 };
    let label_y = disc.center.y - disc.radius - font_size * 0.75;
    let width = token.name.chars().count() as f32 * font_size * 0.62 + 8.0;
    let name_label = (
        ZoomLabel { font_size },
        NameLabel { size: Vec2::new(width, font_size * 1.35), below: disc.center.y - label_y },
    );
    commands.spawn((
        name_label,
        Sprite::from_color(Color::srgba(0.05, 0.05, 0.07, 0.78), Vec2::new(width, font_size * 1.35)),
        Transform::from_translation(Vec3::new(disc.center.x, label_y, 0.3)),
        ChildOf(root),
    ));
    commands.spawn((
        name_label,
        Text2d::new(token.name.to_owned()),
        TextFont::from_font_size(font_size),
        TextColor(Color::WHITE),
        Anchor::CENTER,
        Transform::from_translation(Vec3::new(disc.center.x, label_y, 0.4)),
        ChildOf(root),
    ));
    if !matches!(token.picture, Picture::Initials) {
        return;
    }
    let initials: String = initials(token.name);
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
        let camera = world.spawn((MapCamera, Projection::Orthographic(OrthographicProjection::default_2d()))).id();
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
