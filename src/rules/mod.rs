//! The rules of the game as plain Rust over plain data: no Bevy here (a test checks it).
//!
//! Every function cites the rule it implements, from `../shared/rules/` (DMG chapter 8 and
//! the PHB grid variant) and the geometric calls of `../shared/conventions.md`, which
//! `docs/rules.md` restates and extends.

pub mod ability;
pub mod advantage;
pub mod area;
pub mod attack;
pub mod bounded;
pub mod calculators;
pub mod chase;
pub mod conditions;
pub mod creature;
pub mod dice;
pub mod distance;
pub mod economy;
pub mod effects;
pub mod experience;
pub mod facing;
pub mod fight;
pub mod flanking;
pub mod grid;
pub mod health;
pub mod initiative;
pub mod lattice;
pub mod light;
pub mod log;
pub mod modifiers;
pub mod movement;
pub mod objects;
#[cfg(test)]
pub(crate) mod picture;
pub mod siege;
pub mod sight;
pub mod size;
pub mod sweep;
pub mod tables;
pub mod terrain;
pub mod text;
pub mod visibility;

pub use grid::{Cell, Grid, HexOrientation};
pub use size::{Footprint, Size};
pub use terrain::{Terrain, TerrainMap};
