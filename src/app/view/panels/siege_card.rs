//! The siege part of the selected token's card: a weapon's state, crew this round and pushers, or
//! the weapons a creature stands beside and whether it may work them (`rules::siege`).

use bevy::prelude::*;

use crate::app::core::components::{Combatant, HitPoints, Position, SiegeWeapon, TurnMoves, Vitals};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{AttackMode, LoadedScenario, Selection};
use crate::app::core::tokens::Battlefield;
use crate::app::core::turns::Turns;
use crate::rules::fight::Fighter;
use crate::rules::siege::{CREW_REACH, Siege, SiegeKind, may_crew, push, ram_crew};
use crate::ui::{NearbyWeapon, SiegeView, WeaponCard, capitalized};

/// The card's builder (no window needed: headless tests add it too).
pub fn plugin(app: &mut App) {
    app.init_resource::<SiegeCard>().add_systems(Update, build_card.in_set(AppSystems::Show));
}

/// The siege part of the selected token's card, rebuilt when what it shows may have changed.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SiegeCard(pub SiegeView);

/// The payload of a weapon in words: `Bolt: +6 to hit, range 120/480 ft, 3d10 piercing`.
fn payload_words(w: &Fighter, siege: Siege) -> Option<String> {
    if let Some(attack) = w.sheet.attacks.first() {
        let only = if attack.objects_only { ", objects only" } else { "" };
        let arc = if attack.indirect { ", high arc over cover" } else { "" };
        return Some(format!(
            "{}: {:+} to hit, {}, {} {}{only}{arc}",
            attack.name,
            attack.bonus,
            attack.reach_words(),
            attack.damage,
            attack.damage_type
        ));
    }
    let effect = siege.kind.pour()?;
    let square = siege.pours_on.map_or_else(|| "no square set".to_owned(), |c| format!("the 10-ft square at {c}"));
    let dice = effect.damage.as_ref().map_or("", |n| n.as_str());
    Some(format!(
        "Boiling oil on {square}: DC {} Dexterity save, {dice} {}, half on a success",
        effect.dc, effect.damage_type
    ))
}

/// The tokens whose change the siege card shows: place, numbers, hit points, conditions, siege
/// state, movement.
type ChangedTokens<'w, 's> = Query<
    'w,
    's,
    (),
    Or<(
        Changed<Position>,
        Changed<Vitals>,
        Changed<HitPoints>,
        Changed<Combatant>,
        Changed<SiegeWeapon>,
        Changed<TurnMoves>,
    )>,
>;

#[allow(clippy::too_many_arguments)]
fn build_card(
    selection: Res<Selection>,
    loaded: Res<LoadedScenario>,
    battlefield: Battlefield,
    changed: ChangedTokens,
    weapons: Query<&SiegeWeapon>,
    moves: Query<&TurnMoves>,
    mode: Res<AttackMode>,
    turns: Res<Turns>,
    mut card: ResMut<SiegeCard>,
) {
    // Rebuilt only when the selection, the board or a token the card reads has changed.
    let stale = selection.is_changed() || loaded.is_changed() || mode.is_changed() || turns.is_changed();
    if !stale && changed.is_empty() {
        return;
    }
    let view = selection.0.and_then(|selected| {
        let fighters = battlefield.fighters();
        let field = fighters.field(&loaded.scenario);
        let me = fighters.get(selected)?;
        let name_of = |id: &str| field.fighter(id).map_or_else(|| id.to_owned(), |f| f.name().to_owned());
        let mut view = SiegeView::default();
        if let Some(siege) = me.siege {
            let kind = siege.kind;
            let feet_left =
                |f: &Fighter| fighters.entity_of(&f.id).and_then(|e| moves.get(e).ok()).map_or(0, |m| m.turn.left());
            let pushers = push(&field, me, kind, feet_left);
            let crew_words = pushers.crew.describe(name_of);
            let component = weapons.get(selected).ok();
            view.weapon = Some(WeaponCard {
                kind: capitalized(kind.name()),
                state: siege.crewing.state(kind),
                sequence: kind.sequence(),
                payload: payload_words(me, siege),
                crew_this_round: component
                    .filter(|w| w.round == turns.round())
                    .map(|w| w.crew_this_round.iter().map(|c| crate::ui::words::crew_step(kind, c)).collect())
                    .unwrap_or_default(),
                ram_crew: (kind == SiegeKind::Ram).then(|| ram_crew(&field, me).describe(name_of)),
                push: if pushers.crew.enough() {
                    format!("{crew_words}: it can go {} ft", pushers.feet)
                } else {
                    format!("{crew_words}: too few to move it")
                },
            });
        } else if !me.is_object {
            view.nearby = fighters
                .iter()
                .filter(|(_, w)| w.siege.is_some_and(|s| s.kind.is_weapon()))
                .filter(|(_, w)| field.feet_between(me, w) <= CREW_REACH)
                .filter_map(|(entity, w)| {
                    let siege = w.siege?;
                    let next = siege.crewing.next_step(siege.kind);
                    Some(NearbyWeapon {
                        id: w.id.clone(),
                        name: w.name().to_owned(),
                        state: siege.crewing.state(siege.kind),
                        next: next.map(|step| (step, siege.kind.verb(step).to_owned())),
                        picked: mode.weapon == Some(entity) && mode.attacker == Some(selected),
                        why_not: may_crew(&field, me, w).err().map(|e| e.to_string()),
                    })
                })
                .collect();
        }
        Some(view)
    });
    let view = view.unwrap_or_default();
    if card.0 != view {
        card.0 = view;
    }
}
