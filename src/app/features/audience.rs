//! One screen, two audiences: the players' view (the default) and the DM's view behind a
//! deliberate switch. The players' view doesn't draw creatures kept from them (a scene's hidden
//! creature, or a monster that hid), shows monsters' hit points only as healthy, bloodied or down,
//! hides hidden rolls ("The DM rolled.") and hidden initiative entries; the DM's view shows
//! everything under a banner.

use bevy::ecs::query::QueryData;
use bevy::prelude::*;

use crate::app::core::components::{Allegiance, Combatant, OutOfView, Secret, TokenId};
use crate::app::core::messages::AudienceRequest;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::Audience;

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
}

/// Keeps [`OutOfView`] and the tokens' visibility up to date with the audience.
fn show_to_audience(mut commands: Commands, audience: Res<Audience>, mut tokens: Query<Shown, With<TokenId>>) {
    for mut token in &mut tokens {
        let sees = audience.sees(token.secret, token.combatant.hidden.is_some(), token.side.0);
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
