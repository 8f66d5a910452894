//! `--frame-times N`: draws frames continuously, times N of them after a warm-up, prints the
//! median and 95th percentile frame time as JSON, and exits (docs/performance.md). With `--drag`
//! a token is dragged around a circle meanwhile, through the same mouse input a user gives, so
//! every frame plans a new path and redraws its preview. The report also says how long the
//! first picture took from the start of the program.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::diagnostic::DiagnosticsStore;
use bevy::input::ButtonState;
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::window::{PrimaryWindow, RequestRedraw};
use serde_json::json;

use super::board::{BoardShades, choose_terrain_detail};
use super::tokens::{ZoomLabel, hide_unreadable_labels};
use crate::app::core::components::{OutOfView, TokenDisc, TokenId, TokenMarker, TurnMoves};
use crate::app::core::layout::PIXELS_PER_UNIT;
use crate::app::core::options::{LaunchOptions, Part};
use crate::app::core::pointer::{MapCamera, MapViewRect};
use crate::app::core::state::{GridVisible, LoadedScenario, TerrainShown};
use crate::app::features::movement::Dragging;

/// Frames drawn before timing starts: the first ones compile shaders and fit the map.
const WARM_UP: u32 = 30;
/// The frame of the warm-up at which the drag's button goes down.
const PRESS_AT: u32 = 10;
/// The radius of the drag's circle, in cells, and the turn between frames: the cursor reaches
/// another cell almost every frame, so every frame plans a new path.
const DRAG_RADIUS: f32 = 3.0;
const DRAG_STEP: f32 = 0.37;

pub(super) fn plugin(app: &mut App) {
    let passes =
        app.world().get_resource::<LaunchOptions>().and_then(|o| o.frame_times.as_ref()).is_some_and(|b| b.passes);
    if passes {
        app.add_plugins(bevy::render::diagnostic::RenderDiagnosticsPlugin);
    }
    app.init_resource::<FirstPicture>()
        .add_systems(First, (drive_drag, time_frames, watch_for_first_picture).chain())
        .add_systems(
            PostUpdate,
            hide_parts
                .after(hide_unreadable_labels)
                .after(choose_terrain_detail)
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
}

/// When the first frame with something drawn in it was captured, from the program's start: the
/// first frames are empty while the renderer compiles its shaders. (It comes within the warm-up;
/// if nothing is ever drawn, as with every part hidden, the report says null.)
#[derive(Resource, Clone, Debug, Default)]
struct FirstPicture(Arc<Mutex<Option<Duration>>>);

/// Until the first picture is seen, captures every frame and looks for more than one colour.
fn watch_for_first_picture(
    options: Res<LaunchOptions>,
    first: Res<FirstPicture>,
    mut frame: Local<u32>,
    mut commands: Commands,
) {
    let (Some(_), Some(started)) = (&options.frame_times, options.started) else { return };
    *frame += 1;
    if *frame >= WARM_UP || first.0.lock().is_ok_and(|f| f.is_some()) {
        return;
    }
    let first = first.0.clone();
    commands.spawn(Screenshot::primary_window()).observe(move |captured: On<ScreenshotCaptured>| {
        let pixels = captured.image.data.as_deref().unwrap_or_default();
        let drawn = pixels.chunks_exact(4).any(|p| p[..3] != pixels[..3]);
        if let Ok(mut first) = first.lock()
            && drawn
            && first.is_none()
        {
            *first = Some(started.elapsed());
        }
    });
}

fn hide_parts(
    options: Res<LaunchOptions>,
    mut terrain: ResMut<TerrainShown>,
    mut grid: ResMut<GridVisible>,
    mut visibility: ParamSet<(
        Query<&mut Visibility, With<BoardShades>>,
        Query<&mut Visibility, With<TokenMarker>>,
        Query<&mut Visibility, With<ZoomLabel>>,
    )>,
    mut gizmos: ResMut<GizmoConfigStore>,
) {
    let hide = |mut v: Mut<Visibility>| {
        v.set_if_neq(Visibility::Hidden);
    };
    if options.hides(Part::Terrain) {
        terrain.set_if_neq(TerrainShown::Hidden);
        // Hidden tiles would still draw their grid lines.
        grid.set_if_neq(GridVisible(false));
        visibility.p0().iter_mut().for_each(hide);
    }
    if options.hides(Part::Tokens) {
        visibility.p1().iter_mut().for_each(hide);
    }
    if options.hides(Part::Labels) {
        visibility.p2().iter_mut().for_each(hide);
    }
    if options.hides(Part::Gizmos) {
        gizmos.config_mut::<DefaultGizmoConfigGroup>().0.enabled = false;
    }
}

/// The run so far.
#[derive(Default)]
struct Timing {
    frame: u32,
    last: Option<Instant>,
    times: Vec<Duration>,
    /// The process's processor time when timing began.
    cpu_at_start: Option<Duration>,
}

/// The processor time this process has used (all its threads, Mesa's rasteriser included), where
/// the system says it (`/proc/self/stat` on Linux): less disturbed by other work on the machine
/// than the wall clock.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn time_frames(
    options: Res<LaunchOptions>,
    first_picture: Res<FirstPicture>,
    loaded: Res<LoadedScenario>,
    dragging: Res<Dragging>,
    ids: Query<&TokenId>,
    diagnostics: Option<Res<DiagnosticsStore>>,
    mut timing: Local<Timing>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(benchmark) = &options.frame_times else { return };
    redraw.write(RequestRedraw);
    let now = Instant::now();
    timing.frame += 1;
    if timing.frame == WARM_UP {
        timing.cpu_at_start = cpu_time();
    }
    if timing.frame > WARM_UP
        && let Some(last) = timing.last
    {
        timing.times.push(now - last);
    }
    timing.last = Some(now);
    let first_picture = first_picture.0.lock().ok().and_then(|f| *f);
    if timing.times.len() as u32 >= benchmark.frames {
        let mut ms: Vec<f64> = timing.times.iter().map(|t| t.as_secs_f64() * 1000.0).collect();
        ms.sort_by(f64::total_cmp);
        let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
        let cpu = cpu_time().zip(timing.cpu_at_start).map(|(now, start)| (now - start).as_secs_f64() * 1000.0);
        let report = json!({
            "scene": loaded.scenario.name,
            "frames": ms.len(),
            "drag": benchmark.drag,
            // The token being dragged when timing ended: proof the drag really went on.
            "dragging": dragging.0.as_ref().and_then(|d| ids.get(d.entity).ok()).map(|id| &id.0),
            "hidden": benchmark.hide,
            "median_ms": round(at(0.5)),
            "p95_ms": round(at(0.95)),
            "max_ms": round(at(1.0)),
            "fps_at_median": round(1000.0 / at(0.5)),
            "cpu_ms_per_frame": cpu.map(|c| round(c / ms.len() as f64)),
            "first_picture_ms": first_picture.map(|f| round(f.as_secs_f64() * 1000.0)),
            "passes": benchmark.passes.then(|| diagnostics.as_deref().map(render_passes)),
        });
        println!("{report}");
        exit.write(AppExit::Success);
    }
}

/// Each render pass Bevy measures (`RenderDiagnosticsPlugin`, with the renderer's timestamp and
/// pipeline-statistics queries), averaged over the last frames: `gpu_ms`, its time on the
/// renderer (under software rendering, Mesa's rasteriser threads), and `fragments`, the pixels
/// its shaders ran for. bevy_egui's pass and the present are not measured.
fn render_passes(store: &DiagnosticsStore) -> serde_json::Value {
    let mut passes = serde_json::Map::new();
    for diagnostic in store.iter() {
        let path = diagnostic.path().as_str();
        let Some((pass, measure)) = path.strip_prefix("render/").and_then(|p| p.rsplit_once('/')) else { continue };
        let (key, value) = match measure {
            "elapsed_gpu" => ("gpu_ms", diagnostic.average().map(round)),
            "fragment_shader_invocations" => ("fragments", diagnostic.average().map(f64::round)),
            _ => continue,
        };
        let entry = passes.entry(pass.to_string()).or_insert_with(|| json!({}));
        entry[key] = json!(value);
    }
    serde_json::Value::Object(passes)
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Presses the left button on the token nearest the middle of the view, then moves the cursor
/// around a circle about it, one step a frame, without letting go.
fn drive_drag(
    options: Res<LaunchOptions>,
    mut timing: Local<(u32, Option<Vec2>)>,
    window: Single<(Entity, &mut Window), With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<MapCamera>>,
    view: Res<MapViewRect>,
    tokens: Query<&TokenDisc, (With<TurnMoves>, Without<OutOfView>)>,
    mut buttons: MessageWriter<MouseButtonInput>,
) {
    if !options.frame_times.as_ref().is_some_and(|b| b.drag) {
        return;
    }
    let (frame, grabbed) = &mut *timing;
    *frame += 1;
    let (window_entity, mut window) = window.into_inner();
    let (camera, transform) = *camera;
    if *frame == PRESS_AT {
        let Some(view) = view.0 else { return };
        let on_screen = |d: &TokenDisc| camera.world_to_viewport(transform, d.center.extend(0.0)).ok();
        *grabbed = tokens
            .iter()
            .filter_map(|d| on_screen(d).filter(|p| view.contains(*p)))
            .min_by(|a, b| a.distance(view.center()).total_cmp(&b.distance(view.center())));
        if let Some(at) = *grabbed {
            window.set_cursor_position(Some(at));
            buttons.write(MouseButtonInput {
                button: MouseButton::Left,
                state: ButtonState::Pressed,
                window: window_entity,
            });
        }
    } else if *frame > PRESS_AT
        && let Some(at) = *grabbed
    {
        let scale = camera
            .world_to_viewport(transform, Vec3::new(PIXELS_PER_UNIT, 0.0, 0.0))
            .ok()
            .zip(camera.world_to_viewport(transform, Vec3::ZERO).ok());
        let cell_pixels = scale.map_or(40.0, |(a, b)| a.distance(b));
        let angle = (*frame - PRESS_AT) as f32 * DRAG_STEP;
        window.set_cursor_position(Some(at + DRAG_RADIUS * cell_pixels * Vec2::from_angle(angle)));
    }
}
