//! The components that hold a token's live state.

use bevy::prelude::*;

use crate::rules::conditions::Conditions;
use crate::rules::creature::{Abilities, Direction, Sheet, ShieldSide, Side};
use crate::rules::facing::ArcLayout;
use crate::rules::health::{Defenses, Health};
use crate::rules::{Cell, Size};
use crate::scenario::TokenKind;

/// The scenario's id of a creature or object.
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TokenId(pub String);

#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub(crate) struct DisplayName(pub String);

/// The anchor cell of the token's space (north-west square, or anchor hex).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position(pub Cell);

/// The size category and, for a large Gargantuan creature on squares, its side in squares.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreatureSize {
    pub size: Size,
    pub square_side: Option<u32>,
}

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allegiance(pub Side);

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kind(pub TokenKind);

/// Armor Class, walking speed and exhaustion level.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vitals {
    pub ac: i32,
    pub speed: u32,
    /// Exhaustion lasts until a rest (PHB appendix A), so a chase's exhaustion comes back with it.
    pub exhaustion: u8,
}

/// Hit points, temporary hit points, death saves and whether it lives (`rules::health`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitPoints(pub Health);

/// What the fight rules read of a creature besides its place and hit points: its sheet (attacks,
/// saves), conditions, defenses, arcs, and the Dodge and Help it has now.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Combatant {
    pub sheet: Sheet,
    pub conditions: Conditions,
    pub defenses: Defenses,
    pub arcs: ArcLayout,
    pub dodging: bool,
    /// An ally's Help: the next attack against this target has advantage.
    pub helped_against: Option<String>,
    /// Who gave that Help: it lasts until the helper's next turn (PHB "Help").
    pub helped_by: Option<Entity>,
    pub average_damage: bool,
    /// Hidden by the Hide action, with its Stealth total (PHB "Hide").
    pub hidden: Option<i32>,
    /// Feet above the ground: attacks from higher up come from above.
    pub elevation: u32,
}

/// A token whose space creatures stand in (a siege tower): not an obstacle to movement or sight.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenSpace;

/// A siege weapon or siege tower (`rules::siege`): its kind, how far it is readied, and who
/// worked it this round. Only the siege plugin writes it.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct SiegeWeapon {
    pub siege: crate::rules::siege::Siege,
    /// The round the crew below worked it in.
    pub round: u32,
    /// What each creature did to it this round, such as `Brom loaded it`.
    pub crew_this_round: Vec<String>,
}

/// What is spent of a creature's turn and round: action, bonus action, object interaction,
/// reaction, Disengage and a readied action (`rules::economy`).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct Actions(pub crate::rules::economy::Economy);

/// Kept from the players: the players' view doesn't draw it (the scene's `hidden`, or the DM's
/// switch on the initiative tracker).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Secret;

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AbilityModifiers(pub Abilities);

/// The side of its space a creature faces (DMG "Optional Rule: Facing").
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facing(pub Direction);

/// The arm a creature carries its shield on.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shield(pub ShieldSide);

/// A player character (who can earn inspiration).
#[derive(Component, Clone, Copy, Debug, Default)]
pub(crate) struct PlayerCharacter;

/// Where the token stands in the scenario's list (the order of the roster).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct RosterOrder(pub usize);
