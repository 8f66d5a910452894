//! The bottom layer of the app, which every feature and the view may import and which imports
//! none of them: the components, the messages, the shared resources, the app's modes, the pointer
//! and keys, and the grid↔world layout.

pub mod chase;
pub mod components;
pub mod dice;
pub mod history;
pub mod layout;
pub mod messages;
pub mod mode;
pub mod notice;
pub mod options;
pub mod pointer;
pub mod requests;
pub mod schedule;
pub mod state;
pub mod tokens;
pub mod touch;
pub mod turns;

use bevy::prelude::*;

/// The shared vocabulary's resources, messages and systems (no window needed).
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<notice::Notice>().init_resource::<notice::Pinned>();
    app.add_plugins((
        schedule::plugin,
        mode::plugin,
        messages::plugin,
        state::plugin,
        tokens::plugin,
        pointer::plugin,
        touch::plugin,
        dice::plugin,
        turns::plugin,
        history::plugin,
        chase::plugin,
    ));
}
