//! The ruler: click to drop waypoints, see each leg and the total in feet under the scene's
//! diagonal rule, with the diagonal count carried across waypoints (DMG "Optional Rule:
//! Diagonals"). `R` or the bar's button switches it on and off; a right click clears it.

use bevy::prelude::*;

use super::AppSystems;
use super::board::Board;
use super::input::{PointerOnMap, toggle_key};
use super::state::{LoadedScenario, Toggle};
use crate::rules::Cell;
use crate::rules::distance::{DiagonalParity, RulerMeasure, measure};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Ruler>().add_systems(
        Update,
        (
            (toggle_key(KeyCode::KeyR, Toggle::Ruler), place_waypoints).in_set(AppSystems::Input),
            toggle_ruler.in_set(AppSystems::Apply),
            draw_ruler.in_set(AppSystems::Show),
        ),
    );
}

/// The ruler switches on and off, and off when the template tool switches (one tool at a time).
fn toggle_ruler(mut toggles: MessageReader<Toggle>, mut ruler: ResMut<Ruler>) {
    for toggle in toggles.read() {
        match toggle {
            Toggle::Ruler => {
                ruler.active = !ruler.active;
                ruler.waypoints.clear();
            }
            Toggle::Template => ruler.active = false,
            _ => {}
        }
    }
}

/// The ruler tool's state.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Ruler {
    pub active: bool,
    pub waypoints: Vec<Cell>,
}

impl Ruler {
    /// The waypoints and then the cell under the cursor, measured.
    pub(super) fn measure(&self, loaded: &LoadedScenario, cursor: Option<Cell>) -> Option<RulerMeasure> {
        let mut points = self.waypoints.clone();
        points.extend(cursor);
        (points.len() >= 2)
            .then(|| measure(loaded.scenario.grid, loaded.scenario.rules.diagonals, &points, DiagonalParity::default()))
    }
}

fn place_waypoints(buttons: Res<ButtonInput<MouseButton>>, pointer: Res<PointerOnMap>, mut ruler: ResMut<Ruler>) {
    if !ruler.active {
        return;
    }
    if let Some(cell) = pointer.cell.filter(|_| buttons.just_pressed(MouseButton::Left))
        && ruler.waypoints.last() != Some(&cell)
    {
        ruler.waypoints.push(cell);
    }
    if pointer.screen.is_some() && buttons.just_pressed(MouseButton::Right) {
        ruler.waypoints.clear();
    }
}

fn draw_ruler(mut gizmos: Gizmos, ruler: Res<Ruler>, pointer: Res<PointerOnMap>, board: Option<Res<Board>>) {
    let Some(board) = board.filter(|_| ruler.active) else { return };
    let layout = board.0;
    let color = Color::srgb(1.0, 0.45, 0.85);
    let points: Vec<Vec2> = ruler.waypoints.iter().chain(pointer.cell.iter()).map(|&c| layout.world(c)).collect();
    gizmos.linestrip_2d(points.iter().copied(), color);
    for point in ruler.waypoints.iter().map(|&c| layout.world(c)) {
        gizmos.circle_2d(point, 6.0, color);
    }
}
