//! The app's modes: playing on the map, editing it, or a chase taking the screen. Features run
//! their systems in the mode they belong to (`run_if(in_state(...))`) and tidy up on entering one
//! (`OnEnter`), instead of asking each other what is open.

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    if !app.is_plugin_added::<bevy::state::app::StatesPlugin>() {
        app.add_plugins(bevy::state::app::StatesPlugin);
    }
    app.init_state::<AppMode>();
}

/// What the screen is for now.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AppMode {
    /// The battle map: moves, attacks, turns, tools.
    #[default]
    Play,
    /// The map editor, beside play (`Ctrl+E`).
    Edit,
    /// A chase runs: its screen takes the window until it goes back to the map.
    Chase,
}
