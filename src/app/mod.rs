//! The Bevy application: the live game state as ECS components, in three layers.
//!
//! - [`core`], the bottom layer: components, messages, shared resources, the app's modes, the
//!   pointer and keys, the grid↔world layout; it imports no feature and no view.
//! - [`features`]: one plugin per part of play (movement, fight, turns, reactions, siege, chase,
//!   editor, session, template, ruler, sight, dice, audience), each importing `core` and never
//!   another feature.
//! - [`view`], on top: the board, the tokens' looks, overlays, cameras, panels, capture and the
//!   benchmark.
//!
//! `tests/integration/architecture.rs` checks these arrows. The rules come from
//! [`crate::rules`], asked through one view of the board (`core::tokens`).

pub mod core;
pub mod features;
pub mod view;

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy::winit::WinitSettings;
use bevy_egui::EguiPlugin;

pub use self::core::options::{FrameBenchmark, LaunchOptions, Part, SessionPlace};
use self::core::state::LoadedScenario;
use crate::scenario::Scenario;

/// Opens the battle map window on a scenario loaded from its file, or on the built-in one.
pub fn run(scenario: Option<(Scenario, PathBuf)>, options: LaunchOptions) -> ExitCode {
    if let Some(sentence) = no_display() {
        eprintln!("{sentence}");
        return ExitCode::from(1);
    }
    say_when_no_display_opens();
    let loaded = match scenario {
        Some((scenario, path)) => LoadedScenario::from_file(scenario, path),
        None => LoadedScenario::built_in(Scenario::built_in()),
    };
    let title = format!("battlemap: {}", loaded.scenario.name);
    view::memory::keep_freed_memory();
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title,
                    resolution: WindowResolution::new(options.window.0, options.window.1)
                        .with_scale_factor_override(1.0),
                    ..default()
                }),
                ..default()
            })
            .set(bevy::log::LogPlugin { level: bevy::log::Level::WARN, ..default() }),
    )
    .add_plugins(EguiPlugin::default())
    .insert_resource(if options.screenshot.is_some() || options.frame_times.is_some() {
        WinitSettings::continuous()
    } else {
        WinitSettings::desktop_app()
    })
    .insert_resource(ClearColor(Color::srgb_u8(24, 26, 30)))
    .insert_resource(loaded)
    .insert_resource(options);
    app.add_plugins((plugin, view::schedules::SingleThreadedSchedules));
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// What to tell a user who starts the map where no display can be opened.
const NO_DISPLAY: &str = "battlemap: no display could be opened, and the map needs one: run it in a desktop session, \
     or under a virtual display (`xvfb-run battlemap FILE`); the command line (`battlemap check`, `query`, `roll` …) \
     needs none";

/// Why the map can't open a window here, if it can't: on Linux, neither an X display nor a
/// Wayland one is named.
fn no_display() -> Option<String> {
    let named = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
    (cfg!(target_os = "linux") && !named("DISPLAY") && !named("WAYLAND_DISPLAY"))
        .then(|| format!("{NO_DISPLAY} (neither DISPLAY nor WAYLAND_DISPLAY is set)"))
}

/// A display that is named but can't be opened makes the windowing library panic while the app
/// starts: the user is told so in one sentence and the program exits with 1, without a backtrace.
fn say_when_no_display_opens() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.contains("Failed to build event loop") {
            let named = ["DISPLAY", "WAYLAND_DISPLAY"]
                .into_iter()
                .filter_map(|var| Some(format!("{var}={}", std::env::var(var).ok().filter(|v| !v.is_empty())?)));
            let named: Vec<String> = named.map(|n| crate::rules::text::escaped(&n).into_owned()).collect();
            eprintln!("{NO_DISPLAY} ({} can't be opened)", named.join(", "));
            std::process::exit(1);
        }
        default(info);
    }));
}

/// Every part of the map window.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((headless_plugin, input_plugin, view::plugin));
}

/// What reads the window's input: the mouse, the fingers and the keys on the map, and the map
/// camera they pan and zoom. It needs a window entity but no renderer: touch tests add it to
/// the headless app with a window of their own.
pub fn input_plugin(app: &mut App) {
    app.add_plugins((core::pointer::window_plugin, view::camera::plugin));
}

/// The parts of the app that need no window or GPU: the shared state and every feature.
/// Headless tests add this to `MinimalPlugins`.
pub fn headless_plugin(app: &mut App) {
    app.add_plugins((core::plugin, features::plugin));
}
