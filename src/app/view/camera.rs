//! The cameras: the map's, drawn only in the part of the window the panels leave free, and the
//! panels' over the whole window. Pan the map by dragging (right or middle button anywhere, left
//! button or a finger on empty ground, two fingers anywhere), zoom with the wheel around the
//! cursor or by pinching two fingers, arrow keys and +/- too, and fit the map to the view.

use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, Viewport};
use bevy::core_pipeline::core_2d::{AlphaMask2d, Opaque2d, Transparent2d, extract_core_2d_camera_phases};
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::render::camera::{ExtractedCamera, sort_cameras};
use bevy::render::render_phase::{ViewBinnedRenderPhases, ViewSortedRenderPhases};
use bevy::render::view::RetainedViewEntity;
use bevy::render::{Extract, ExtractSchedule, Render, RenderApp, RenderSystems};
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiGlobalSettings, PrimaryEguiContext};

use crate::app::core::layout::MapLayout;
use crate::app::core::messages::{FitMap, ScenarioChanged};
use crate::app::core::pointer::{MapCamera, MapViewRect, PointerOnMap};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::RedrawFrames;
use crate::app::core::touch::PanZoom;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<AutoFit>()
        .init_resource::<FittedView>()
        .add_systems(Startup, spawn_cameras)
        .add_systems(
            Update,
            (
                request_fit_on_new_scenario.run_if(on_message::<ScenarioChanged>),
                (zoom_with_wheel, pan_with_drag, pan_and_zoom_with_keys, pan_and_zoom_with_fingers),
                fit_map,
            )
                .chain()
                .in_set(AppSystems::Apply),
        )
        .add_systems(
            PostUpdate,
            fit_viewport_to_map_area
                .after(bevy_egui::EguiPostUpdateSet::EndPass)
                .before(bevy::camera::CameraUpdateSystems)
                .before(TransformSystems::Propagate),
        );
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .add_systems(Render, copy_panels_without_blending.after(sort_cameras).in_set(RenderSystems::CreateViews))
            .add_systems(ExtractSchedule, drop_the_panel_cameras_map_phases.after(extract_core_2d_camera_phases));
    }
}

/// Whether the view still frames the whole map as last fitted: then it is fitted again when the
/// free area changes (the panels take their size, the window is resized). Panning or zooming by
/// hand turns it off; fitting turns it on.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutoFit(pub bool);

impl Default for AutoFit {
    fn default() -> Self {
        Self(true)
    }
}

/// The free area the map was last fitted to.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct FittedView(pub Option<Rect>);

const MIN_SCALE: f32 = 0.05;
const MAX_SCALE: f32 = 20.0;

/// The cameras: the map's, drawing only inside the part of the window the panels leave free (its
/// viewport), and over it the panels' camera, which draws egui across the whole window and alone
/// copies the picture to the window. No multisampling: under software rendering it doubles the
/// cost of every frame (docs/performance.md); discs are smooth by their image instead.
///
/// The map camera renders into the window's intermediate texture, shared by cameras with the same
/// target and format, and leaves it there ([`CameraOutputMode::Skip`]); the panels' camera keeps
/// what is there (no clear), draws egui over it, and copies the whole of it to the window in one
/// pass. So the map is never drawn under the panels, nothing has to hide it there, and the window
/// gets one full-window copy a frame, without blending ([`copy_panels_without_blending`]).
fn spawn_cameras(mut commands: Commands, egui: Option<ResMut<EguiGlobalSettings>>) {
    if let Some(mut egui) = egui {
        egui.auto_create_primary_context = false;
    }
    commands.spawn((Camera2d, MapCamera, Msaa::Off, Camera { output_mode: CameraOutputMode::Skip, ..default() }));
    commands.spawn((
        Camera2d,
        PanelCamera,
        PrimaryEguiContext,
        Msaa::Off,
        Camera {
            order: PANEL_CAMERA_ORDER,
            clear_color: ClearColorConfig::None,
            output_mode: CameraOutputMode::Write { blend_state: None, clear_color: ClearColorConfig::None },
            ..default()
        },
        RenderLayers::layer(PANEL_LAYER),
    ));
}

/// The camera that draws the panels: it sees no entity of the map (its render layer holds none).
#[derive(Component)]
struct PanelCamera;

/// The render layer of [`PanelCamera`], on which nothing is drawn but egui.
const PANEL_LAYER: usize = 1;

/// The order of [`PanelCamera`]: after the map's.
const PANEL_CAMERA_ORDER: isize = 1;

/// The panels' camera copies its picture to the window without blending. Bevy blends the copy of
/// any camera but a window's first over what is there, but the map camera copies nothing, and a
/// blend (even one that replaces) reads every pixel of the window first under software rendering:
/// 2 ms a frame (docs/performance.md). So in the render world it counts as the window's first.
fn copy_panels_without_blending(mut cameras: Query<&mut ExtractedCamera>) {
    for mut camera in &mut cameras {
        if camera.order == PANEL_CAMERA_ORDER {
            camera.sorted_camera_index_for_target = 0;
        }
    }
}

/// The panels' camera draws egui alone, in bevy_egui's own pass, but as a 2D camera it would also
/// get the 2D passes for meshes and sprites: with nothing on its render layer they would draw
/// nothing, yet each frame the transparent one would still begin a render pass and clear the
/// window's depth texture. Without its phases, neither pass nor depth texture is made for it.
fn drop_the_panel_cameras_map_phases(
    panel_cameras: Extract<Query<Entity, With<PanelCamera>>>,
    mut transparent: ResMut<ViewSortedRenderPhases<Transparent2d>>,
    mut opaque: ResMut<ViewBinnedRenderPhases<Opaque2d>>,
    mut alpha_mask: ResMut<ViewBinnedRenderPhases<AlphaMask2d>>,
) {
    for camera in &panel_cameras {
        let view = RetainedViewEntity::new(camera.into(), None, 0);
        transparent.remove(&view);
        opaque.remove(&view);
        alpha_mask.remove(&view);
    }
}

/// The part of the window the map is drawn in, in logical pixels: the part the panels leave free,
/// or the whole window while that is too small to use.
fn map_area(view: &MapViewRect, window: &Window) -> Rect {
    let window_rect = Rect::new(0.0, 0.0, window.width(), window.height());
    view.0.filter(|r| r.width() > 50.0 && r.height() > 50.0).unwrap_or(window_rect)
}

/// Keeps the map camera's viewport on [`map_area`], moving the camera with it so that the map
/// stays where it was on screen when a panel changes size.
fn fit_viewport_to_map_area(
    view: Res<MapViewRect>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Camera, &mut Transform, &Projection), With<MapCamera>>,
    mut last: Local<Option<Rect>>,
) {
    let area = map_area(&view, &window);
    if *last == Some(area) {
        return;
    }
    let (mut camera, mut transform, projection) = camera.into_inner();
    if let (Some(old), Projection::Orthographic(ortho)) = (*last, projection) {
        let moved = area.center() - old.center();
        transform.translation += Vec3::new(moved.x, -moved.y, 0.0) * ortho.scale;
    }
    *last = Some(area);
    let scale = window.scale_factor();
    let full = UVec2::new(window.physical_width(), window.physical_height());
    let position = (area.min * scale).round().as_uvec2().min(full);
    let size = ((area.max * scale).round().as_uvec2().min(full)).saturating_sub(position);
    camera.viewport = (size.cmpgt(UVec2::ZERO).all() && size != full).then(|| Viewport {
        physical_position: position,
        physical_size: size,
        ..default()
    });
}

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
    view: Res<MapViewRect>,
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
    let center = map_area(&view, &window).center();
    let from_center = Vec2::new(cursor.x - center.x, center.y - cursor.y);
    let shift = from_center * (old - new);
    transform.translation += shift.extend(0.0);
    ortho.scale = new;
    auto_fit.0 = false;
}

/// Two fingers: the map follows their midpoint and their spread, so the world point under the
/// midpoint stays under it.
fn pan_and_zoom_with_fingers(
    mut gestures: MessageReader<PanZoom>,
    view: Res<MapViewRect>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<MapCamera>>,
    mut auto_fit: ResMut<AutoFit>,
) {
    let (mut transform, mut projection) = camera.into_inner();
    let Some(ortho) = orthographic(&mut projection) else { return };
    let center = map_area(&view, &window).center();
    for gesture in gestures.read() {
        transform.translation.x -= gesture.pan.x * ortho.scale;
        transform.translation.y += gesture.pan.y * ortho.scale;
        let (old, new) = (ortho.scale, (ortho.scale / gesture.zoom.max(f32::EPSILON)).clamp(MIN_SCALE, MAX_SCALE));
        let from_center = Vec2::new(gesture.around.x - center.x, center.y - gesture.around.y);
        transform.translation += (from_center * (old - new)).extend(0.0);
        ortho.scale = new;
        auto_fit.0 = false;
    }
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
    board: Option<Res<MapLayout>>,
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
    let free = map_area(&view, &window);
    let bounds = board.0.bounds();
    let margin = 24.0;
    let scale = (bounds.width() / (free.width() - 2.0 * margin).max(1.0))
        .max(bounds.height() / (free.height() - 2.0 * margin).max(1.0))
        .clamp(MIN_SCALE, MAX_SCALE);
    let (mut transform, mut projection) = camera.into_inner();
    let Some(ortho) = orthographic(&mut projection) else { return };
    ortho.scale = scale;
    transform.translation = bounds.center().extend(transform.translation.z);
    auto_fit.0 = true;
    fitted_for.0 = view.0;
    redraw.at_least(3);
}

#[cfg(test)]
mod tests {
    use bevy::window::WindowResolution;

    use super::*;

    /// The world point a window pixel shows, as the map camera's projection maps it: the
    /// camera's translation is the world point at the middle of its viewport.
    fn world_at(world: &World, camera: Entity, pixel: Vec2, area: Rect) -> Vec2 {
        let transform = world.get::<Transform>(camera).expect("the camera has a transform");
        let Some(Projection::Orthographic(ortho)) = world.get::<Projection>(camera) else {
            panic!("the camera is orthographic")
        };
        let from_centre = pixel - area.center();
        transform.translation.truncate() + Vec2::new(from_centre.x, -from_centre.y) * ortho.scale
    }

    /// The map camera draws only in the part of the window the panels leave free, in physical
    /// pixels; when a panel widens, the viewport follows and the map stays where it was on
    /// screen; while the free part is too small to use, the map takes the whole window.
    #[test]
    fn the_viewport_is_the_free_part_and_the_map_stays_put_when_it_changes() {
        let mut world = World::new();
        world.spawn((Window { resolution: WindowResolution::new(1280, 800), ..default() }, PrimaryWindow));
        let mut projection = OrthographicProjection::default_2d();
        projection.scale = 2.0;
        let camera = world
            .spawn((
                Camera::default(),
                MapCamera,
                Transform::from_xyz(100.0, -40.0, 0.0),
                Projection::Orthographic(projection),
            ))
            .id();
        // One system throughout: it remembers the area it last applied.
        let system = world.register_system(fit_viewport_to_map_area);
        let apply = |world: &mut World, free: Option<Rect>| {
            world.insert_resource(MapViewRect(free));
            world.run_system(system).expect("the system runs");
            world.get::<Camera>(camera).expect("the camera").viewport.clone()
        };

        let first = Rect::new(408.0, 0.0, 1280.0, 735.0);
        let viewport = apply(&mut world, Some(first)).expect("a viewport");
        assert_eq!((viewport.physical_position, viewport.physical_size), (UVec2::new(408, 0), UVec2::new(872, 735)));
        let pixel = Vec2::new(900.0, 300.0);
        let shown = world_at(&world, camera, pixel, first);

        let wider = Rect::new(520.0, 0.0, 1280.0, 735.0);
        let viewport = apply(&mut world, Some(wider)).expect("a viewport");
        assert_eq!((viewport.physical_position, viewport.physical_size), (UVec2::new(520, 0), UVec2::new(760, 735)));
        assert!(world_at(&world, camera, pixel, wider).distance(shown) < 1e-3, "the map did not move on screen");

        let narrow = Rect::new(1250.0, 0.0, 1280.0, 735.0);
        assert!(apply(&mut world, Some(narrow)).is_none(), "too narrow: the map takes the whole window");
        let whole = Rect::new(0.0, 0.0, 1280.0, 800.0);
        assert!(world_at(&world, camera, pixel, whole).distance(shown) < 1e-3, "the map did not move on screen");
    }
}
