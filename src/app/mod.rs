//! The Bevy application: the live game state as ECS components, one plugin per feature.
//!
//! Data flows one way: a scenario file becomes a [`state::LoadedScenario`] resource, which the
//! [`board`] and [`tokens`] plugins turn into entities; the mouse and the panels send messages
//! ([`state::OpenScenario`], [`state::SelectToken`]) that systems apply to the state; the rules in
//! [`crate::rules`] are called with plain data taken from the components.

pub mod board;
mod camera;
mod capture;
pub mod chase;
pub mod components;
pub mod dice;
mod highlight;
mod input;
pub mod layout;
pub mod movement;
pub mod panels;
mod ruler;
pub mod sight;
pub mod state;
pub mod template;
mod tokens;

use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy::winit::WinitSettings;
use bevy_ecs_tilemap::TilemapPlugin;
use bevy_egui::EguiPlugin;

use crate::cli::{EXIT_INVALID, MapOptions};
use crate::scenario::Scenario;

/// Opens the battle map window. A scenario file that does not load is reported on stderr and
/// the window does not open.
pub fn run(options: MapOptions) -> ExitCode {
    let loaded = match &options.scenario {
        Some(path) => match Scenario::load(path) {
            Ok(scenario) => state::LoadedScenario::from_file(scenario, path.clone()),
            Err(errors) => {
                eprintln!("{errors}");
                return ExitCode::from(EXIT_INVALID);
            }
        },
        None => state::LoadedScenario::built_in(Scenario::built_in()),
    };
    let title = format!("battlemap: {}", loaded.scenario.name);
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
    .add_plugins((EguiPlugin::default(), TilemapPlugin))
    .insert_resource(if options.screenshot.is_some() {
        WinitSettings::continuous()
    } else {
        WinitSettings::desktop_app()
    })
    .insert_resource(ClearColor(Color::srgb_u8(24, 26, 30)))
    .insert_resource(loaded)
    .insert_resource(LaunchOptions(options.clone()));
    app.add_plugins(plugin);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Every feature of the map window.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        headless_plugin,
        camera::plugin,
        input::plugin,
        ruler::plugin,
        movement::drag_plugin,
        sight::plugin,
        template::plugin,
        highlight::plugin,
        panels::plugin,
        chase::plugin,
        capture::plugin,
    ));
}

/// The parts of the app that need no window or GPU: the state, the board and the tokens.
/// Headless tests add this to `MinimalPlugins`.
pub fn headless_plugin(app: &mut App) {
    app.add_plugins((
        state::plugin,
        board::plugin,
        tokens::plugin,
        movement::plugin,
        dice::plugin,
        chase::logic_plugin,
    ));
}

/// The command-line options the window was opened with.
#[derive(Resource, Clone, Debug, Default, Deref)]
pub struct LaunchOptions(pub MapOptions);
