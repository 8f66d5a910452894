//! The feature plugins: each owns one part of play, imports only the bottom layer (`core`), the
//! rules, the scenario and the panels' types, and never another feature; what one needs from
//! another goes through a message or a component of `core`.

pub mod audience;
pub mod chase;
pub mod dice;
pub mod editor;
pub mod effects;
pub mod fight;
pub mod fog;
pub mod movement;
pub mod reactions;
pub mod ruler;
pub mod session;
pub mod siege;
pub mod sight;
pub mod template;
pub mod turns;

use bevy::prelude::*;

/// Every feature: the app's play, without a window or a renderer (headless tests add these).
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((
        movement::plugin,
        reactions::plugin,
        turns::plugin,
        fight::plugin,
        siege::plugin,
        dice::plugin,
        audience::plugin,
        chase::plugin,
        editor::plugin,
        session::plugin,
        template::plugin,
        ruler::plugin,
        sight::plugin,
        effects::plugin,
        fog::plugin,
    ));
}
