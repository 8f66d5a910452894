//! Gizmo highlights: the outline of the cell under the cursor and of the selected token's space,
//! and the double ring of the creature whose turn it is.

use bevy::prelude::*;

use crate::app::core::components::{OutOfView, Position, Size, TokenDisc};
use crate::app::core::layout::MapLayout;
use crate::app::core::pointer::PointerOnMap;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::Selection;
use crate::app::core::turns::Turns;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw_highlights.in_set(AppSystems::Show));
}

const SELECTED: Color = Color::srgb(1.0, 0.84, 0.2);
/// The creature whose turn it is.
const ACTIVE: Color = Color::srgb(0.3, 0.95, 0.55);

fn draw_highlights(
    mut gizmos: Gizmos,
    layout: Option<Res<MapLayout>>,
    pointer: Res<PointerOnMap>,
    selection: Res<Selection>,
    turns: Res<Turns>,
    tokens: Query<(&Position, &Size, &TokenDisc), Without<OutOfView>>,
) {
    let Some(layout) = layout else { return };
    let layout = layout.0;
    if let Some(cell) = pointer.cell {
        gizmos.lineloop_2d(layout.corners(cell), Color::srgba(1.0, 1.0, 1.0, 0.7));
    }
    if let Some((_, _, disc)) = turns.active.and_then(|e| tokens.get(e).ok()) {
        for extra in [7.0, 10.0] {
            gizmos.circle_2d(disc.center, disc.radius + extra, ACTIVE).resolution(64);
        }
    }
    let Some((position, size, disc)) = selection.0.and_then(|e| tokens.get(e).ok()) else { return };
    for cell in size.cells(layout.grid, position.0) {
        gizmos.lineloop_2d(layout.corners(cell), SELECTED);
    }
    gizmos.circle_2d(disc.center, disc.radius + 4.0, SELECTED).resolution(64);
}
