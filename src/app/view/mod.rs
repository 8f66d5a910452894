//! The view on top of the app: what the window shows of the state (the board, the tokens' looks,
//! the overlays, the cameras, the panels) and the window's own tools (screenshots, the state file
//! for tests, the frame-time benchmark). It may read every layer below; nothing below imports it.

pub mod benchmark;
pub mod board;
pub mod camera;
pub mod capture;
pub mod highlight;
pub mod looks;
pub(crate) mod memory;
pub mod overlays;
pub mod panels;
pub mod pictures;
pub mod schedules;
pub mod tokens;

use bevy::prelude::*;

/// Everything the window draws (its camera's pan and zoom come with the input, in
/// [`crate::app::input_plugin`]).
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((
        board::plugin,
        tokens::plugin,
        highlight::plugin,
        looks::plugin,
        overlays::plugin,
        panels::plugin,
        pictures::plugin,
        capture::plugin,
        benchmark::plugin,
    ));
}
