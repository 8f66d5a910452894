//! Fights on the map: attacks picked on the creature card and made by clicking a target, damage,
//! healing, conditions, death saves, facing, Dodge, standing up, Help, Hide and Search, saving
//! throws against areas, and the attack card beside the cursor.
//!
//! Every ruling comes from `rules::fight`: this feature reads the board through the one
//! conversion (`core::tokens`), asks the rules, logs the rolls and writes the outcome back.

use bevy::ecs::query::QueryData;
use bevy::prelude::*;

use crate::app::core::components::*;
use crate::app::core::mode::AppMode;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{AttackMode, Selection};
use crate::app::core::tokens::Battlefield;

mod attack;
mod map;
mod requests;

pub(crate) use map::ArcsShown;
pub use map::{AttackCard, AttackPreview};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<AttackPreview>()
        .init_resource::<ArcsShown>()
        .add_systems(
            Update,
            (
                map::fight_keys.in_set(AppSystems::Input),
                (forget_attack_of_others, requests::apply_fight_requests).chain().in_set(AppSystems::Apply),
                (attack::make_attacks, attack::roll_area_saves).in_set(AppSystems::Resolve),
                sync_movement.in_set(AppSystems::Follow),
                (map::preview_attack, map::shade_fight_cells).in_set(AppSystems::Show),
            ),
        )
        .add_systems(OnExit(AppMode::Play), put_the_attack_down)
        .add_systems(
            Update,
            put_the_attack_down.run_if(on_message::<crate::app::core::messages::Restored>).in_set(AppSystems::Build),
        );
}

/// The board, read (to ask the rules) or written (to apply what they said).
type Board<'w, 's> = ParamSet<'w, 's, (Battlefield<'static, 'static>, Query<'static, 'static, FightState>)>;

/// What a fight changes of a token.
#[derive(QueryData)]
#[query_data(mutable)]
pub(crate) struct FightState {
    pub name: &'static DisplayName,
    pub vitals: &'static mut Vitals,
    pub hit_points: &'static mut HitPoints,
    pub combatant: &'static mut Combatant,
    pub facing: Option<&'static mut Facing>,
    pub actions: &'static mut Actions,
    pub moves: Option<&'static mut TurnMoves>,
    pub inspiration: Option<&'static mut Inspiration>,
    pub pc: Has<PlayerCharacter>,
    pub effects: Option<&'static LastingEffects>,
}

/// A picked attack belongs to the selected creature: selecting another puts it down.
fn forget_attack_of_others(selection: Res<Selection>, mut mode: ResMut<AttackMode>) {
    if mode.attacker.is_some() && mode.attacker != selection.0 {
        *mode = AttackMode::default();
    }
}

/// Leaving play (the editor, a chase) or a step undone puts a picked attack down.
fn put_the_attack_down(mut mode: ResMut<AttackMode>) {
    if *mode != AttackMode::default() {
        *mode = AttackMode::default();
    }
}

/// Movement follows the conditions (PHB appendix A; "Being Prone"): the turn's speed is what the
/// conditions and exhaustion leave (0 while grappled or restrained), and a prone creature crawls.
fn sync_movement(mut tokens: Query<(&Vitals, &Combatant, &mut TurnMoves), Or<(Changed<Combatant>, Changed<Vitals>)>>) {
    for (vitals, combatant, mut moves) in &mut tokens {
        let feet = crate::rules::conditions::speed(vitals.speed, &combatant.conditions, vitals.exhaustion).feet;
        let crawling = combatant.conditions.has(crate::rules::conditions::Condition::Prone);
        if moves.turn.speed != feet || moves.crawling != crawling {
            moves.turn.speed = feet;
            moves.crawling = crawling;
        }
    }
}
