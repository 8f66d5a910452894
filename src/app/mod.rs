//! The Bevy application: the live game state as ECS components, one plugin per feature.
//!
//! Data flows one way: a scenario file becomes a [`state::LoadedScenario`] resource, which the
//! [`board`] and [`tokens`] plugins turn into entities; the mouse and the panels send messages
//! ([`state::OpenScenario`], [`state::SelectToken`]) that systems apply to the state; the rules in
//! [`crate::rules`] are called with plain data taken from the components.

pub mod audience;
pub mod benchmark;
pub mod board;
mod camera;
mod capture;
pub mod chase;
pub mod components;
pub mod dice;
pub mod editor;
pub mod fight;
mod highlight;
mod input;
pub mod layout;
mod memory;
pub mod movement;
pub mod panels;
pub mod reactions;
mod ruler;
mod schedules;
pub mod session;
pub mod siege;
pub mod sight;
pub mod state;
pub mod template;
mod tokens;
pub mod turns;

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy::winit::WinitSettings;
use bevy_egui::EguiPlugin;

use crate::scenario::Scenario;
pub use benchmark::FrameBenchmark;

/// Opens the battle map window on a scenario loaded from its file, or on the built-in one.
pub fn run(scenario: Option<(Scenario, PathBuf)>, options: LaunchOptions) -> ExitCode {
    let loaded = match scenario {
        Some((scenario, path)) => state::LoadedScenario::from_file(scenario, path),
        None => state::LoadedScenario::built_in(Scenario::built_in()),
    };
    let title = format!("battlemap: {}", loaded.scenario.name);
    memory::keep_freed_memory();
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
    app.add_plugins((plugin, schedules::SingleThreadedSchedules));
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Every feature of the map window.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((
        headless_plugin,
        board::render_plugin,
        panels::render_plugin,
        camera::plugin,
        input::plugin,
        ruler::plugin,
        (movement::drag_plugin, editor::mouse_plugin),
        sight::plugin,
        template::plugin,
        highlight::plugin,
        panels::plugin,
        fight::map::plugin,
        chase::plugin,
        capture::plugin,
        benchmark::plugin,
    ));
}

/// The order of the app's work in each frame, configured here once (the bevy_new_2d pattern):
/// build what a new scenario needs, find the pointer, turn the mouse and the keys into messages,
/// apply the messages to the state, then show the state. Each feature plugin puts its systems in
/// these sets.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum AppSystems {
    Build,
    Pointer,
    Input,
    Apply,
    Show,
}

/// The parts of the app that need no window or GPU: the state, the board and the tokens.
/// Headless tests add this to `MinimalPlugins`.
pub fn headless_plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (AppSystems::Build, AppSystems::Pointer, AppSystems::Input, AppSystems::Apply, AppSystems::Show).chain(),
    );
    app.add_plugins((
        state::plugin,
        board::plugin,
        tokens::plugin,
        movement::plugin,
        turns::plugin,
        reactions::plugin,
        audience::plugin,
        dice::plugin,
        fight::plugin,
        siege::plugin,
        chase::logic_plugin,
        session::plugin,
        editor::plugin,
    ));
}

/// How the window was asked to open (from the command line).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct LaunchOptions {
    /// Save a PNG of the window here after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    pub frames: u32,
    /// Write the app's state (selection, where cells and tokens are on screen) here as JSON
    /// whenever it changes: for tests that drive the window.
    pub state_file: Option<PathBuf>,
    /// The window's size in logical pixels.
    pub window: (u32, u32),
    /// The seed of the session's dice (from the clock if not given).
    pub seed: Option<u64>,
    /// Time frames drawn continuously, print the figures and exit (`--frame-times`).
    pub frame_times: Option<FrameBenchmark>,
    /// When the program started, for the time to the first picture.
    pub started: Option<std::time::Instant>,
    /// Where the game in progress is autosaved and restored from.
    pub session: session::file::SessionPlace,
}
