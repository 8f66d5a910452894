//! One screen, two audiences: the players' view (the default) and the DM's view behind a
//! deliberate switch. The players' view doesn't draw creatures kept from them (a scene's hidden
//! creature, or a monster that hid), shows monsters' hit points only as healthy, bloodied or down,
//! hides hidden rolls ("The DM rolled.") and hidden initiative entries; the DM's view shows
//! everything under a banner.

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

/// Keeps [`OutOfView`] and the tokens' visibility up to date with the audience.
fn show_to_audience(
    mut commands: Commands,
    audience: Res<Audience>,
    mut tokens: Query<(Entity, &Combatant, Has<Secret>, &Allegiance, Has<OutOfView>, &mut Visibility), With<TokenId>>,
) {
    for (entity, combatant, secret, side, out, mut visibility) in &mut tokens {
        let sees = audience.sees(secret, combatant.hidden.is_some(), side.0);
        if sees != out {
            continue;
        }
        if sees {
            commands.entity(entity).remove::<OutOfView>();
            *visibility = Visibility::Inherited;
        } else {
            commands.entity(entity).insert(OutOfView);
            *visibility = Visibility::Hidden;
        }
    }
}
