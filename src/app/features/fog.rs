//! The fog of war: the cells the party sees, by the map's one sight rule (`Field::unseen_cells`,
//! light and darkvision counted), kept in [`PartySight`] after every move, turn and edit, and
//! shaded on the board: in the players' view a cell seen before but not now is dimmed, one never
//! seen is dark; the DM's view tints what the party doesn't see, lightly. The audience feature
//! keeps creatures outside the party's sight out of the players' view.

use std::collections::HashSet;

use bevy::prelude::*;

use crate::app::core::messages::ScenarioChanged;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{Audience, CellShades, PartySight, ShadeLayer};
use crate::app::core::tokens::Battlefield;
use crate::rules::Cell;
use crate::rules::creature::Side;
use crate::rules::fight::Fighter;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PartySight>().init_resource::<SightKey>().add_systems(
        Update,
        (
            forget_explored.run_if(on_message::<ScenarioChanged>).in_set(AppSystems::Build),
            (follow_party_sight, shade_fog).chain().in_set(AppSystems::Follow),
        ),
    );
}

/// What the party's sight was last found for: each fighter's place and state as the rules read
/// it, and the map's terrain (so a move, a turn, a condition, a light or an edit finds it again).
#[derive(Resource, Default, PartialEq)]
struct SightKey(Option<(Vec<Fighter>, Vec<Option<usize>>)>, bool);

/// Whether a fighter sees for the party: a creature of the `Party` side (the players' own).
pub fn sees_for_party(fighter: &Fighter) -> bool {
    !fighter.is_object && fighter.side == Side::Party
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
    let now = SightKey(Some((fighters.list.clone(), terrain)), true);
    if *key == now {
        return;
    }
    *key = now;
    let visible = party_sees(&fighters.list, &fighters.field(battlefield.scenario()));
    sight.explored.extend(visible.iter().copied());
    sight.visible = visible;
}

/// The cells some creature of the party sees (its own space included).
pub fn party_sees(fighters: &[Fighter], field: &crate::rules::fight::Field) -> HashSet<Cell> {
    let mut visible = HashSet::new();
    for member in fighters.iter().filter(|f| sees_for_party(f)) {
        let unseen: HashSet<Cell> = field.unseen_cells(member).into_iter().collect();
        visible.extend(field.map.cells().filter(|c| !unseen.contains(c)));
    }
    visible
}

/// Shades the fog on the board for the audience.
fn shade_fog(
    sight: Res<PartySight>,
    audience: Res<Audience>,
    battlefield: Battlefield,
    mut shades: ResMut<CellShades>,
    mut shown: Local<Option<(bool, usize, usize)>>,
) {
    let now = (audience.dm, sight.visible.len(), sight.explored.len());
    if *shown == Some(now) && !sight.is_changed() {
        return;
    }
    *shown = Some(now);
    let map = &battlefield.scenario().map;
    let (dimmed, dark) = if audience.dm {
        (Color::srgba(0.1, 0.1, 0.3, 0.22), Color::srgba(0.1, 0.1, 0.3, 0.3))
    } else {
        (Color::srgba(0.02, 0.02, 0.05, 0.55), Color::srgba(0.0, 0.0, 0.0, 0.94))
    };
    let fog: Vec<(Cell, Color)> = map
        .cells()
        .filter(|c| !sight.visible.contains(c))
        .map(|c| (c, if sight.explored.contains(&c) { dimmed } else { dark }))
        .collect();
    if shades.layer(ShadeLayer::Fog) != fog.as_slice() {
        shades.set(ShadeLayer::Fog, fog);
    }
}
