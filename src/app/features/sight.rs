//! Sight and cover on the map: with a creature selected, hovering another gives the cover ruling
//! (the one `Field::cover` gives every asker) for the view to draw with its label; the sight
//! overlay (`V`) shades every cell the selected creature can't see (`Field::unseen_cells`).

use bevy::prelude::*;

use crate::app::core::components::{Combatant, Facing, Position};
use crate::app::core::messages::Toggle;
use crate::app::core::pointer::{Pickable, PointerOnMap, toggle_key};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{AttackMode, CellShades, Selection, ShadeLayer};
use crate::app::core::tokens::Battlefield;
use crate::rules::Cell;
use crate::rules::conditions::Conditions;
use crate::rules::creature::Direction;
use crate::rules::sight::Cover;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<CoverPreview>().init_resource::<SightOverlay>().add_systems(
        Update,
        (
            toggle_key(KeyCode::KeyV, Toggle::SightOverlay).in_set(AppSystems::Input),
            toggle_overlay.in_set(AppSystems::Apply),
            (preview_cover, shade_unseen).in_set(AppSystems::Show),
        ),
    );
}

fn toggle_overlay(mut toggles: MessageReader<Toggle>, mut overlay: ResMut<SightOverlay>) {
    for _ in toggles.read().filter(|t| **t == Toggle::SightOverlay) {
        overlay.on = !overlay.on;
        overlay.shown_for = None;
    }
}

/// The cover ruling between the selected creature and the one under the cursor.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub(crate) struct CoverPreview(pub Option<Preview>);

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Preview {
    pub attacker: Entity,
    pub target: Entity,
    pub target_name: String,
    pub ruling: Cover,
    /// A clear line of sight between them.
    pub sight: bool,
}

/// Whether the sight overlay is on, and for whom (where it stood, how it faced, what it could see
/// with) it was shaded.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub(crate) struct SightOverlay {
    pub on: bool,
    shown_for: Option<(Entity, Cell, Option<Direction>, Conditions)>,
}

fn preview_cover(
    selection: Res<Selection>,
    pointer: Res<PointerOnMap>,
    pickable: Pickable,
    mode: Res<AttackMode>,
    battlefield: Battlefield,
    mut preview: ResMut<CoverPreview>,
) {
    let Some(selected) = selection.0.filter(|_| pointer.world.is_some()) else {
        if preview.0.is_some() {
            preview.0 = None;
        }
        return;
    };
    // A siege weapon the selected creature fires shoots from its own space.
    let attacker = mode.weapon.filter(|_| mode.attacker == Some(selected)).unwrap_or(selected);
    let target = pickable.under(&pointer, None).filter(|t| *t != attacker && *t != selected);
    let Some(target) = target else {
        if preview.0.is_some() {
            preview.0 = None;
        }
        return;
    };
    if preview.0.as_ref().is_some_and(|p| p.attacker == attacker && p.target == target) {
        return;
    }
    let fighters = battlefield.fighters();
    let field = fighters.field(battlefield.scenario());
    let (Some(from), Some(to)) = (fighters.get(attacker), fighters.get(target)) else { return };
    let ruling = field.cover(from, to, false);
    let sight = field.line_of_sight(from, to).is_some();
    preview.0 = Some(Preview { attacker, target, target_name: to.name().to_owned(), ruling, sight });
}

fn shade_unseen(
    mut overlay: ResMut<SightOverlay>,
    selection: Res<Selection>,
    viewers: Query<(&Position, Option<&Facing>, &Combatant)>,
    battlefield: Battlefield,
    mut shades: ResMut<CellShades>,
) {
    let wanted = selection.0.filter(|_| overlay.on).and_then(|e| {
        let (position, facing, combatant) = viewers.get(e).ok()?;
        Some((e, position.0, facing.map(|f| f.0), combatant.conditions.clone()))
    });
    // Shown for the right creature, or nothing shown when nothing should be.
    let up_to_date = wanted == overlay.shown_for && (wanted.is_some() || shades.layer(ShadeLayer::Unseen).is_empty());
    if up_to_date {
        return;
    }
    overlay.shown_for.clone_from(&wanted);
    CellShades::clear(&mut shades, ShadeLayer::Unseen);
    let Some((viewer, ..)) = wanted else { return };
    let fighters = battlefield.fighters();
    let Some(me) = fighters.get(viewer) else { return };
    let unseen = fighters.field(battlefield.scenario()).unseen_cells(me);
    let shade = Color::srgba(0.02, 0.02, 0.06, 0.62);
    shades.set(ShadeLayer::Unseen, unseen.into_iter().map(|c| (c, shade)).collect());
}
