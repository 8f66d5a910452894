//! One screen, two audiences: the players' view (the default) and the DM's view behind a
//! deliberate switch. The players' view doesn't draw creatures kept from them (a scene's hidden
//! creature, or a monster that hid), shows monsters' hit points only as healthy, bloodied or down,
//! hides hidden rolls ("The DM rolled.") and hidden initiative entries; the DM's view shows
//! everything under a banner.

use bevy::prelude::*;

use super::AppSystems;
use super::components::*;
use crate::rules::creature::Side;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Audience>().add_systems(Update, show_to_audience.in_set(AppSystems::Show));
}

/// Who is looking at the screen.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Audience {
    /// The DM's view is up.
    pub dm: bool,
}

impl Audience {
    /// Whether this audience sees a creature's exact hit points: the DM always; the players those
    /// of player characters and of their party.
    pub fn sees_hit_points(self, pc: bool, side: Side) -> bool {
        self.dm || pc || side == Side::Party
    }

    /// Whether this audience sees the creature at all: the players don't see a creature kept
    /// from them, nor a creature hostile to the party hidden by the Hide action (their own and
    /// their friends' hiding places they know).
    pub fn sees(self, secret: bool, hidden: bool, side: Side) -> bool {
        self.dm || !(secret || (hidden && Side::Party.is_hostile_to(side)))
    }
}

/// Marks a token the current audience doesn't see: not drawn, not picked, not listed.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct OutOfView;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_players_see_numbers_for_their_own_and_hidden_enemies_not_at_all() {
        let players = Audience::default();
        let dm = Audience { dm: true };
        assert!(players.sees_hit_points(true, Side::Party) && players.sees_hit_points(false, Side::Party));
        assert!(!players.sees_hit_points(false, Side::Enemy) && !players.sees_hit_points(false, Side::Ally));
        assert!(dm.sees_hit_points(false, Side::Enemy));
        assert!(!players.sees(false, true, Side::Enemy), "a hidden enemy isn't drawn for them");
        assert!(players.sees(false, true, Side::Party) && players.sees(false, true, Side::Ally), "their own hiding");
        assert!(!players.sees(true, false, Side::Ally), "a creature kept from them");
        assert!(dm.sees(true, true, Side::Enemy));
    }
}
