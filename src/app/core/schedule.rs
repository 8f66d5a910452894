//! The order of the app's work in each frame, configured once (the bevy_new_2d pattern): every
//! feature puts its systems in one of these sets, never after another feature's system.

use bevy::prelude::*;

/// The steps of a frame, run in this order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AppSystems {
    /// What a new scenario needs: the layout, the tokens' entities.
    Build,
    /// Where the cursor is, what a click hit.
    Pointer,
    /// Keys and drags turned into messages.
    Input,
    /// Requests applied to the state: turns, moves planned and paid, cards' buttons, edits.
    Apply,
    /// What the requests set going: walks, attacks, saving throws.
    Resolve,
    /// What follows from them: a move going on after its opportunity attacks, a weapon's crew
    /// step recorded, speeds after new conditions, undo.
    Follow,
    /// The state shown: overlays, shades, previews.
    Show,
}

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::Build,
            AppSystems::Pointer,
            AppSystems::Input,
            AppSystems::Apply,
            AppSystems::Resolve,
            AppSystems::Follow,
            AppSystems::Show,
        )
            .chain(),
    );
}
