//! The map camera: pan by dragging (right or middle button anywhere, left on empty ground),
//! zoom with the wheel around the cursor, arrow keys and +/- too, and fit the map to the view.

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::board::Board;
use super::input::PointerOnMap;
use super::state::{RedrawFrames, ScenarioChanged};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MapViewRect>()
        .init_resource::<AutoFit>()
        .init_resource::<FittedView>()
        .add_message::<FitMap>()
        .add_systems(Startup, spawn_camera)
        .add_systems(
            Update,
            (
                request_fit_on_new_scenario.run_if(on_message::<ScenarioChanged>),
                (zoom_with_wheel, pan_with_drag, pan_and_zoom_with_keys),
                fit_map,
            )
                .chain()
                .in_set(super::AppSystems::Apply),
        )
        .add_systems(PostUpdate, cover_the_panels.before(TransformSystems::Propagate));
}

/// The part of the window not covered by panels, in logical pixels (y down).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct MapViewRect(pub Option<Rect>);

/// Asks to frame the whole map in the view.
#[derive(Message, Clone, Copy, Debug, Default)]
pub(super) struct FitMap;

/// Whether the view still frames the whole map as last fitted: then it is fitted again when the
/// free area changes (the panels take their size, the window is resized). Panning or zooming by
/// hand turns it off; fitting turns it on.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AutoFit(pub bool);

impl Default for AutoFit {
    fn default() -> Self {
        Self(true)
    }
}

/// The free area the map was last fitted to.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct FittedView(pub Option<Rect>);

/// Marks the camera that looks at the map.
#[derive(Component)]
pub(super) struct MapCamera;

const MIN_SCALE: f32 = 0.05;
const MAX_SCALE: f32 = 20.0;

/// The map's camera, with covers for the panels. No multisampling: under software rendering it
/// doubles the cost of every frame (docs/performance.md); discs are smooth by their image instead.
fn spawn_camera(
    mut commands: Commands,
    meshes: Option<ResMut<Assets<Mesh>>>,
    materials: Option<ResMut<Assets<ColorMaterial>>>,
    clear: Res<ClearColor>,
) {
    let camera = commands.spawn((Camera2d, MapCamera, Msaa::Off)).id();
    let (Some(mut meshes), Some(mut materials)) = (meshes, materials) else { return };
    let mesh = meshes.add(Rectangle::new(1.0, 1.0));
    let material = materials.add(ColorMaterial::from_color(clear.0));
    for _ in 0..4 {
        commands.spawn((
            PanelCover,
            Mesh2d(mesh.clone()),
            MeshMaterial2d(material.clone()),
            Transform::default(),
            Visibility::Hidden,
            ChildOf(camera),
        ));
    }
}

/// One of four opaque rectangles that the map camera draws where the panels are (left, right,
/// above and below the free part of the window): the panels then need no background of their
/// own, and the map under them is hidden by a cheap opaque fill instead of egui's shading of a
/// panel's every pixel, the most costly part of a frame under software rendering
/// (docs/performance.md).
#[derive(Component)]
struct PanelCover;

/// Puts the covers over the parts of the window outside the map's view, in the camera's frame.
fn cover_the_panels(
    view: Res<MapViewRect>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<&Projection, With<MapCamera>>,
    mut covers: Query<(&mut Transform, &mut Visibility), With<PanelCover>>,
) {
    let Projection::Orthographic(ortho) = *camera else { return };
    let (w, h) = (window.width(), window.height());
    let bands = match view.0 {
        Some(v) => [
            Rect::new(0.0, 0.0, v.min.x, h),
            Rect::new(v.max.x, 0.0, w, h),
            Rect::new(v.min.x, 0.0, v.max.x, v.min.y),
            Rect::new(v.min.x, v.max.y, v.max.x, h),
        ],
        None => [Rect::default(); 4],
    };
    for ((mut transform, mut visibility), band) in covers.iter_mut().zip(bands) {
        let shown = band.width() > 0.0 && band.height() > 0.0;
        visibility.set_if_neq(if shown { Visibility::Inherited } else { Visibility::Hidden });
        let center = band.center() - Vec2::new(w, h) / 2.0;
        let wanted = Transform::from_xyz(center.x * ortho.scale, -center.y * ortho.scale, COVER_Z)
            .with_scale((band.size() * ortho.scale).extend(1.0));
        transform.set_if_neq(wanted);
    }
}

/// The covers' depth in the camera's frame: in front of everything the map draws.
const COVER_Z: f32 = 900.0;

fn request_fit_on_new_scenario(mut fit: MessageWriter<FitMap>) {
    fit.write(FitMap);
}

fn orthographic(projection: &mut Projection) -> Option<&mut OrthographicProjection> {
    match projection {
        Projection::Orthographic(o) => Some(o),
        _ => None,
    }
}

fn zoom_with_wheel(
    scroll: Res<AccumulatedMouseScroll>,
    pointer: Res<PointerOnMap>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<MapCamera>>,
    mut auto_fit: ResMut<AutoFit>,
) {
    let steps = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    let Some(cursor) = pointer.screen else { return };
    if steps == 0.0 {
        return;
    }
    let (mut transform, mut projection) = camera.into_inner();
    let Some(ortho) = orthographic(&mut projection) else { return };
    let old = ortho.scale;
    let new = (old * 0.85_f32.powf(steps)).clamp(MIN_SCALE, MAX_SCALE);
    // Keep the world point under the cursor where it is.
    let from_center = Vec2::new(cursor.x - window.width() / 2.0, window.height() / 2.0 - cursor.y);
    let shift = from_center * (old - new);
    transform.translation += shift.extend(0.0);
    ortho.scale = new;
    auto_fit.0 = false;
}

fn pan_with_drag(
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerOnMap>,
    mut last: Local<Option<Vec2>>,
    camera: Single<(&mut Transform, &Projection), With<MapCamera>>,
    mut auto_fit: ResMut<AutoFit>,
) {
    let dragging = buttons.pressed(MouseButton::Right)
        || buttons.pressed(MouseButton::Middle)
        || (buttons.pressed(MouseButton::Left) && pointer.pressed_on_ground);
    let Some(cursor) = pointer.screen.filter(|_| dragging) else {
        *last = None;
        return;
    };
    let (mut transform, projection) = camera.into_inner();
    let Projection::Orthographic(ortho) = projection else { return };
    if let Some(previous) = *last {
        let delta = cursor - previous;
        if delta != Vec2::ZERO {
            transform.translation.x -= delta.x * ortho.scale;
            transform.translation.y += delta.y * ortho.scale;
            auto_fit.0 = false;
        }
    }
    *last = Some(cursor);
}

fn pan_and_zoom_with_keys(
    keys: Res<ButtonInput<KeyCode>>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut fit: MessageWriter<FitMap>,
    camera: Single<(&mut Transform, &mut Projection), With<MapCamera>>,
    mut auto_fit: ResMut<AutoFit>,
) {
    if egui_input.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    let (mut transform, mut projection) = camera.into_inner();
    let Some(ortho) = orthographic(&mut projection) else { return };
    let step = 64.0 * ortho.scale;
    for (key, dir) in [
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
    ] {
        if keys.just_pressed(key) {
            transform.translation += (dir * step).extend(0.0);
            auto_fit.0 = false;
        }
    }
    if keys.just_pressed(KeyCode::Equal) || keys.just_pressed(KeyCode::NumpadAdd) {
        ortho.scale = (ortho.scale * 0.8).max(MIN_SCALE);
        auto_fit.0 = false;
    }
    if keys.just_pressed(KeyCode::Minus) || keys.just_pressed(KeyCode::NumpadSubtract) {
        ortho.scale = (ortho.scale * 1.25).min(MAX_SCALE);
        auto_fit.0 = false;
    }
    if keys.just_pressed(KeyCode::KeyF) {
        fit.write(FitMap);
    }
}

/// Frames the whole map inside the part of the window the panels leave free: when asked, and
/// when that part changes while [`AutoFit`] is on.
#[allow(clippy::too_many_arguments)]
fn fit_map(
    mut requests: MessageReader<FitMap>,
    board: Option<Res<Board>>,
    view: Res<MapViewRect>,
    mut auto_fit: ResMut<AutoFit>,
    mut fitted_for: ResMut<FittedView>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<MapCamera>>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let asked = requests.read().count() > 0;
    let stale = auto_fit.0 && fitted_for.0 != view.0;
    if !(asked || stale) {
        return;
    }
    let Some(board) = board else { return };
    let window_rect = Rect::new(0.0, 0.0, window.width(), window.height());
    let free = view.0.filter(|r| r.width() > 50.0 && r.height() > 50.0).unwrap_or(window_rect);
    let bounds = board.0.bounds();
    let margin = 24.0;
    let scale = (bounds.width() / (free.width() - 2.0 * margin).max(1.0))
        .max(bounds.height() / (free.height() - 2.0 * margin).max(1.0))
        .clamp(MIN_SCALE, MAX_SCALE);
    let (mut transform, mut projection) = camera.into_inner();
    let Some(ortho) = orthographic(&mut projection) else { return };
    ortho.scale = scale;
    let offset = free.center() - window_rect.center();
    let center = bounds.center() - Vec2::new(offset.x, -offset.y) * scale;
    transform.translation = center.extend(transform.translation.z);
    auto_fit.0 = true;
    fitted_for.0 = view.0;
    redraw.0 = redraw.0.max(3);
}
