//! One screen, two audiences: the players' view (the default) and the DM's view behind a
//! deliberate switch. The players' view doesn't draw creatures kept from them (a scene's hidden
//! creature, or a monster that hid), shows monsters' hit points only as healthy, bloodied or down,
//! hides hidden rolls ("The DM rolled.") and hidden initiative entries, and doesn't draw, list or
//! let anyone pick a creature outside the party's sight (the fog of war, [`PartySight`]) or an
//! object where the party never looked; the DM's view shows everything under a banner.

use bevy::ecs::query::QueryData;
use bevy::prelude::*;

use crate::app::core::components::{Allegiance, Combatant, Kind, OutOfView, Position, Secret, Size, TokenId};
use crate::app::core::messages::AudienceRequest;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{Audience, LoadedScenario, PartySight};
use crate::rules::creature::Side;
use crate::scenario::TokenKind;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, (switch_audience.in_set(AppSystems::Apply), show_to_audience.in_set(AppSystems::Show)));
}

fn switch_audience(mut requests: MessageReader<AudienceRequest>, mut audience: ResMut<Audience>) {
    for request in requests.read() {
        if audience.dm != request.dm {
            audience.dm = request.dm;
        }
    }
}

/// A token as the audience sees it, or doesn't.
#[derive(QueryData)]
#[query_data(mutable)]
struct Shown {
    entity: Entity,
    combatant: &'static Combatant,
    secret: Has<Secret>,
    side: &'static Allegiance,
    out_of_view: Has<OutOfView>,
    visibility: &'static mut Visibility,
    position: &'static Position,
    size: &'static Size,
    kind: &'static Kind,
}

/// Keeps [`OutOfView`] and the tokens' visibility up to date with the audience.
fn show_to_audience(
    mut commands: Commands,
    audience: Res<Audience>,
    party_sight: Res<PartySight>,
    loaded: Res<LoadedScenario>,
    mut tokens: Query<Shown, With<TokenId>>,
) {
    let (grid, map) = (loaded.scenario.grid, &loaded.scenario.map);
    for mut token in &mut tokens {
        let space = token.size.cells(grid, token.position.0);
        let in_fog = match token.kind.0 {
            TokenKind::Creature => token.side.0 != Side::Party && !party_sight.sees_any(map, &space),
            // An object is part of the scenery: shown where the party has looked, as the terrain.
            TokenKind::Object => !party_sight.explored_any(map, &space),
        };
        let sees =
            audience.sees(token.secret, token.combatant.hidden.is_some(), token.side.0) && (audience.dm || !in_fog);
        if sees != token.out_of_view {
            continue;
        }
        if sees {
            commands.entity(token.entity).remove::<OutOfView>();
            *token.visibility = Visibility::Inherited;
        } else {
            commands.entity(token.entity).insert(OutOfView);
            *token.visibility = Visibility::Hidden;
        }
    }
}
