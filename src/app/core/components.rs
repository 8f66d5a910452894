//! The components that hold a token's live state: the design's `Position`, `Size`, `Facing`,
//! `Shield`, `ChaseState` and `SiegeWeapon`, and the rest of what a creature or object is now.

use bevy::prelude::*;

use crate::rules::chase::{Role, Status};
use crate::rules::conditions::Conditions;
use crate::rules::creature::{Abilities, Direction, Sheet, ShieldSide, Side};
use crate::rules::economy::Economy;
use crate::rules::facing::ArcLayout;
use crate::rules::health::{Defenses, Health};
use crate::rules::movement::TurnMovement;
use crate::rules::{Cell, Footprint, Grid};
use crate::scenario::TokenKind;

/// Marks a token's root entity: a creature or an object of the scenario.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct TokenMarker;

/// The scenario's id of a creature or object.
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TokenId(pub String);

#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct DisplayName(pub String);

/// The anchor cell of the token's space (north-west square, or anchor hex).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position(pub Cell);

/// The size category and, for a large Gargantuan creature on squares, its side in squares.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub size: crate::rules::Size,
    pub square_side: Option<u32>,
}

impl Size {
    /// The cells of the space whose anchor is `anchor`.
    pub fn cells(self, grid: Grid, anchor: Cell) -> Vec<Cell> {
        Footprint::of(grid, self.size, self.square_side).at(anchor).collect()
    }
}

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allegiance(pub Side);

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind(pub TokenKind);

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

/// The effects that last on a creature (`rules::effects`): durations, repeated saves,
/// concentration, grapples, poisons, diseases, madness. The effects feature runs them.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct LastingEffects(pub crate::rules::effects::Effects);

/// The hit points with temporary ones the effects feature last saw on a creature: a drop is
/// damage, from whatever dealt it (a concentration save follows).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenHitPoints(pub i32);

/// A weapon coated with poison (DMG "Poisons"): the creature's next hit that delivers it (an
/// injury poison by piercing or slashing damage) exposes the target.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoatedWeapon(pub crate::rules::effects::poisons::Poison);

/// A token whose space creatures stand in (a siege tower): not an obstacle to movement or sight.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenSpace;

/// A siege weapon or siege tower (`rules::siege`): its kind, how far it is readied, and who
/// worked it this round. Only the siege feature writes it.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct SiegeWeapon {
    pub siege: crate::rules::siege::Siege,
    /// The round the crew below worked it in.
    pub round: u32,
    /// What each creature did to it this round, in order.
    pub crew_this_round: Vec<CrewStep>,
}

/// One crew member's step on a siege weapon: who (by name) took which step.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CrewStep {
    pub who: String,
    pub step: crate::rules::siege::Step,
}

impl CrewStep {
    /// Reads a round's crew steps, dropping the sentences an older version wrote in their place
    /// (they only told the round's story).
    pub fn read_then_or_now<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Self>, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Now(CrewStep),
            Then(#[allow(dead_code)] String),
        }
        /// The most steps a round's record keeps (a crew of any size takes a few).
        const MAX_STEPS: usize = 1000;
        let stored = crate::rules::bounded::at_most::<_, Stored, MAX_STEPS>(deserializer)?;
        Ok(stored.into_iter().filter_map(|s| if let Stored::Now(step) = s { Some(step) } else { None }).collect())
    }
}

/// What is spent of a creature's turn and round: action, bonus action, object interaction,
/// reaction, Disengage and a readied action (`rules::economy`).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct Actions(pub Economy);

/// A creature's movement this turn, with the moves it made (for undo).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct TurnMoves {
    pub turn: TurnMovement,
    /// Prone: every foot of movement costs 1 extra foot (PHB "Being Prone").
    pub crawling: bool,
}

/// A player character's inspiration: whether it has it, and whether it was spent on the next roll.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inspiration {
    pub has: bool,
    pub spent_on_next_roll: bool,
}

/// Kept from the players: the players' view doesn't draw it (the scene's `hidden`, or the DM's
/// switch on the initiative tracker).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Secret;

/// Marks a token the current audience doesn't see: not drawn, not picked, not listed.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct OutOfView;

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbilityModifiers(pub Abilities);

/// The side of its space a creature faces (DMG "Optional Rule: Facing").
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facing(pub Direction);

/// The arm a creature carries its shield on.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shield(pub ShieldSide);

/// The edge of the table its player sits at (issue 30): the cards meant for that player (the
/// chase's hand-over and turn cards, a reaction prompt, its turn card) face that edge.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat(pub crate::scenario::TableEdge);

/// The pictures a scenario gives a token: a portrait or picture file (as the scenario names it,
/// relative to its file) and an object's icon. Siege equipment shows its kind's icon without one.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct TokenArt {
    pub image: Option<String>,
    pub icon: Option<crate::scenario::ObjectIcon>,
}

/// A player character (who can earn inspiration).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct PlayerCharacter;

/// Where the token stands in the scenario's list (the order of the roster).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RosterOrder(pub usize);

/// Where the token's disc is drawn and how big, in world units (for picking and overlays).
/// Its look is built around `home_anchor`; when the token moves, the whole token is translated.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct TokenDisc {
    /// The disc's centre where the token stands now.
    pub center: Vec2,
    pub radius: f32,
    /// The anchor and disc centre the token's look was built at.
    pub home_anchor: Cell,
    pub home_center: Vec2,
}

/// A creature in a running chase (DMG "Chases"), as the chase-round scheduler's engine has it
/// now: written by the chase feature after every request, read by the chase screen's track and
/// the map's badge.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct ChaseState {
    /// Which of the running chases it is in (after a split there may be several).
    pub chase: usize,
    /// Quarry, pursuer, or both (a role reversal).
    pub roles: Vec<Role>,
    /// Its place on the track, in feet.
    pub position: i32,
    pub status: Status,
    /// The lead pursuer: the running pursuer nearest the quarry (DMG "Beginning a Chase").
    pub lead: bool,
    /// For a pursuer, the feet to the nearest quarry creature it chases.
    pub distance: Option<u32>,
    /// Dashes it may still take without a Constitution check.
    pub free_dashes_left: u32,
    /// Its hit points in the chase, and their maximum.
    pub hp: i32,
    pub max_hp: i32,
    /// Its exhaustion now (what the chase gave it comes back to the map with it).
    pub exhaustion: u8,
    pub inspiration: bool,
    /// Out of its lead pursuer's sight this round (a quarry's chance to escape).
    pub out_of_sight: bool,
    /// Whose turn it is in its chase.
    pub acting: bool,
}
