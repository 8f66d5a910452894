//! The cameras: the map's, drawn under the whole window, and the panels' over it. Pan the map by dragging (right or middle button anywhere, left
//! button or a finger on empty ground, two fingers anywhere), zoom with the wheel around the
//! cursor or by pinching two fingers, arrow keys and +/- too, and fit the map to the view.

use bevy::camera::CameraOutputMode;
use bevy::camera::visibility::RenderLayers;
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
        .init_resource::<MapSettling>()
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
        );
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .add_systems(Render, copy_panels_without_blending.after(sort_cameras).in_set(RenderSystems::CreateViews))
            .add_systems(ExtractSchedule, drop_the_panel_cameras_map_phases.after(extract_core_2d_camera_phases));
    }
}

/// Whether the view still frames the whole map as last fitted: then it is fitted again when the
/// window is resized, and once the panels have their places if it was fitted before they had
/// them. Panels opened, closed or moved later don't move the map (a card that comes with a
/// selection would make it jump); *Fit map* fits it to where they are then. Panning or zooming by
/// hand turns it off; fitting turns it on.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutoFit(pub bool);

impl Default for AutoFit {
    fn default() -> Self {
        Self(true)
    }
}

/// The window's size when the map was last fitted, and whether the panels' free part was known
/// then.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct FittedView(pub Option<(Vec2, bool)>);

/// Whether the map may still move by itself: a fit asked for is redone while the panels come to
/// rest (`fit_frames_left`), or the part they leave is not yet published (`view_pending`). The
/// state file says so, so that a test presses on the map only once it is still.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapSettling {
    pub fit_frames_left: u8,
    pub view_pending: bool,
}

impl MapSettling {
    pub fn settling(self) -> bool {
        self.fit_frames_left > 0 || self.view_pending
    }
}

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

/// The window, in logical pixels: the map camera draws under all of it, its translation the
/// world point at its middle.
fn window_area(window: &Window) -> Rect {
    Rect::new(0.0, 0.0, window.width(), window.height())
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
    let center = window_area(&window).center();
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
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<MapCamera>>,
    mut auto_fit: ResMut<AutoFit>,
) {
    let (mut transform, mut projection) = camera.into_inner();
    let Some(ortho) = orthographic(&mut projection) else { return };
    let center = window_area(&window).center();
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
    mut settling: ResMut<MapSettling>,
    mut fitted_in: Local<Option<Rect>>,
) {
    // A fit asked for while a panel is still coming to rest (its first frames only measure it)
    // is made again with the part it leaves, for a few frames after the ask; frames go on till
    // then.
    let mut frames_left = settling.fit_frames_left;
    let settled_since = frames_left > 0 && *fitted_in != view.0;
    frames_left = frames_left.saturating_sub(1);
    let asked = requests.read().count() > 0 || settled_since;
    if asked {
        frames_left = if settled_since { frames_left } else { 10 };
        *fitted_in = view.0;
    }
    if frames_left > 0 {
        redraw.at_least(1);
    }
    if settling.fit_frames_left != frames_left {
        settling.fit_frames_left = frames_left;
    }
    let now = (window_area(&window).size(), view.0.is_some());
    let stale = auto_fit.0 && fitted_for.0.is_none_or(|(size, known)| size != now.0 || (!known && now.1));
    if !(asked || stale) {
        return;
    }
    let Some(board) = board else { return };
    let whole = window_area(&window);
    // The largest part the panels leave, unless it is too small to use.
    let free = view.0.filter(|r| r.width() > 120.0 && r.height() > 120.0).unwrap_or(whole);
    let bounds = board.0.bounds();
    let margin = 24.0;
    let scale = (bounds.width() / (free.width() - 2.0 * margin).max(1.0))
        .max(bounds.height() / (free.height() - 2.0 * margin).max(1.0))
        .clamp(MIN_SCALE, MAX_SCALE);
    let (mut transform, mut projection) = camera.into_inner();
    let Some(ortho) = orthographic(&mut projection) else { return };
    ortho.scale = scale;
    // The map's middle at the free part's middle: the camera looks at the window's.
    let off = free.center() - whole.center();
    let middle = bounds.center() - Vec2::new(off.x, -off.y) * scale;
    transform.translation = middle.extend(transform.translation.z);
    auto_fit.0 = true;
    fitted_for.0 = Some(now);
    redraw.at_least(3);
}
