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
