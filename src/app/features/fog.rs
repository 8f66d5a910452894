//! The fog of war: the cells the party sees, by the map's one sight rule (`Field::unseen_cells`,
//! light and darkvision counted), kept in [`PartySight`] after every move, turn and edit, and
//! shaded on the board: in the players' view a cell seen before but not now is dimmed, one never
//! seen is dark; the DM's view tints what the party doesn't see, lightly. The audience feature
//! keeps creatures outside the party's sight out of the players' view.

use bevy::prelude::*;

use crate::app::core::messages::ScenarioChanged;
use crate::app::core::options::LaunchOptions;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{Audience, CellShades, PartySight, ShadeLayer};
use crate::app::core::tokens::Battlefield;
use crate::rules::Cell;
use crate::rules::fight::Fighter;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PartySight>().init_resource::<SightKey>().add_systems(
        Update,
        (
            forget_explored.run_if(on_message::<ScenarioChanged>).in_set(AppSystems::Build),
            (follow_party_sight, shade_fog).chain().in_set(AppSystems::Follow).run_if(fog_is_on),
        ),
    );
}

/// What the party's sight was last found for: each fighter's place and state as the rules read
/// it, and the map's terrain (so a move, a turn, a condition, a light or an edit finds it again).
#[derive(Resource, Default, PartialEq)]
struct SightKey(Option<(Vec<Fighter>, Vec<Option<usize>>)>);

/// Whether the fog of war is drawn (`--no-fog` leaves it out).
fn fog_is_on(launch: Option<Res<LaunchOptions>>) -> bool {
    !launch.is_some_and(|l| l.no_fog)
}

fn forget_explored(mut sight: ResMut<PartySight>, mut key: ResMut<SightKey>) {
    *sight = PartySight::default();
    *key = SightKey::default();
}

/// Finds what the party sees when anything that could change it has changed.
fn follow_party_sight(battlefield: Battlefield, mut key: ResMut<SightKey>, mut sight: ResMut<PartySight>) {
    let fighters = battlefield.fighters();
    let map = &battlefield.scenario().map;
    let terrain: Vec<Option<usize>> = map.cells().map(|c| map.terrain_index(c)).collect();
    let now = SightKey(Some((fighters.list.clone(), terrain)));
    if *key == now {
        return;
    }
    *key = now;
    let visible = fighters.field(battlefield.scenario()).party_sight();
    if sight.explored.len() != visible.len() {
        sight.explored = vec![false; visible.len()];
    }
    for (explored, &seen) in sight.explored.iter_mut().zip(&visible) {
        *explored |= seen;
    }
    sight.visible = visible;
}

/// Shades the fog on the board for the audience.
fn shade_fog(
    sight: Res<PartySight>,
    audience: Res<Audience>,
    battlefield: Battlefield,
    mut shades: ResMut<CellShades>,
) {
    if !sight.is_changed() && !audience.is_changed() {
        return;
    }
    let map = &battlefield.scenario().map;
    let (dimmed, dark) = if audience.dm {
        (Color::srgba(0.1, 0.1, 0.3, 0.22), Color::srgba(0.1, 0.1, 0.3, 0.3))
    } else {
        (Color::srgba(0.02, 0.02, 0.05, 0.55), Color::srgba(0.0, 0.0, 0.0, 0.94))
    };
    let fog: Vec<(Cell, Color)> = map
        .cells()
        .zip(sight.visible.iter().zip(&sight.explored))
        .filter(|(_, (visible, _))| !**visible)
        .map(|(c, (_, explored))| (c, if *explored { dimmed } else { dark }))
        .collect();
    if shades.layer(ShadeLayer::Fog) != fog.as_slice() {
        shades.set(ShadeLayer::Fog, fog);
    }
}
