//! The components that hold a token's live state.

use bevy::prelude::*;

use crate::rules::creature::{Abilities, Direction, ShieldSide, Side};
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

/// Hit points, Armor Class, walking speed and exhaustion level.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vitals {
    pub hp: i32,
    pub max_hp: i32,
    pub ac: i32,
    pub speed: u32,
    /// Exhaustion lasts until a rest (PHB appendix A), so a chase's exhaustion comes back with it.
    pub exhaustion: u8,
}

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
