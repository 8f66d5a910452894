//! Gizmo overlays: the outline of the cell under the cursor and of the selected token's space, and
//! the double ring of the creature whose turn it is.

use bevy::prelude::*;

use super::board::Board;
use super::components::{CreatureSize, Position};
use super::input::PointerOnMap;
use super::state::Selection;
use super::tokens::TokenDisc;
use crate::rules::Footprint;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw_highlights.in_set(super::AppSystems::Show));
}

const SELECTED: Color = Color::srgb(1.0, 0.84, 0.2);
/// The creature whose turn it is.
const ACTIVE: Color = Color::srgb(0.3, 0.95, 0.55);

fn draw_highlights(
    mut gizmos: Gizmos,
    board: Option<Res<Board>>,
    pointer: Res<PointerOnMap>,
    selection: Res<Selection>,
    turn: Res<super::turns::Turn>,
    tokens: Query<(&Position, &CreatureSize, &TokenDisc), Without<super::audience::OutOfView>>,
) {
    let Some(board) = board else { return };
    let layout = board.0;
    if let Some(cell) = pointer.cell {
        gizmos.lineloop_2d(layout.corners(cell), Color::srgba(1.0, 1.0, 1.0, 0.7));
    }
    if let Some((_, _, disc)) = turn.active.and_then(|e| tokens.get(e).ok()) {
        for extra in [7.0, 10.0] {
            gizmos.circle_2d(disc.center, disc.radius + extra, ACTIVE).resolution(64);
        }
    }
    let Some((position, size, disc)) = selection.0.and_then(|e| tokens.get(e).ok()) else { return };
    for cell in Footprint::of(layout.grid, size.size, size.square_side).at(position.0) {
        gizmos.lineloop_2d(layout.corners(cell), SELECTED);
    }
    gizmos.circle_2d(disc.center, disc.radius + 4.0, SELECTED).resolution(64);
}
