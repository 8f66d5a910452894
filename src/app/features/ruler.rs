//! The ruler: click to drop waypoints, see each leg and the total in feet under the scene's
//! diagonal rule, with the diagonal count carried across waypoints (DMG "Optional Rule:
//! Diagonals"). `R` or the bar's button switches it on and off (it takes the left button while
//! on); a right click clears it.

use bevy::prelude::*;

use crate::app::core::messages::Toggle;
use crate::app::core::pointer::{PointerClaim, PointerOnMap, Tool, toggle_key};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::LoadedScenario;
use crate::rules::Cell;
use crate::rules::distance::{DiagonalParity, RulerMeasure, measure};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Ruler>().add_systems(
        Update,
        (
            (toggle_key(KeyCode::KeyR, Toggle::Ruler), place_waypoints).in_set(AppSystems::Input),
            toggle_ruler.in_set(AppSystems::Apply),
        ),
    );
}

/// The ruler switches on and off, and off when the template tool switches (one tool at a time).
fn toggle_ruler(mut toggles: MessageReader<Toggle>, mut ruler: ResMut<Ruler>, mut claim: ResMut<PointerClaim>) {
    for toggle in toggles.read() {
        match toggle {
            Toggle::Ruler => {
                ruler.active = !ruler.active;
                ruler.waypoints.clear();
            }
            Toggle::Template => ruler.active = false,
            _ => continue,
        }
        PointerClaim::set(&mut claim, Tool::Ruler, ruler.active);
    }
}

/// The ruler tool's state.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ruler {
    pub active: bool,
    pub waypoints: Vec<Cell>,
}

impl Ruler {
    /// The waypoints and then the cell under the cursor, measured.
    pub(crate) fn measure(&self, loaded: &LoadedScenario, cursor: Option<Cell>) -> Option<RulerMeasure> {
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
