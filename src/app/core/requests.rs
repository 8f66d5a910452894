//! What the panels ask of the features, beyond a plain message: the chase screen's, the editor's
//! and the template's requests and settings. The panels of `src/ui` return them; the features
//! apply them. They live here, in the app's vocabulary, so that the panels import the app's core
//! and the core imports nothing above it.

use crate::rules::Grid;
use crate::rules::area::{Shape, ShapeKind};
use crate::rules::chase::Resolution;
use crate::rules::creature::Ability;
use crate::rules::health::DamageType;
use crate::rules::sight::CoverDegree;
use crate::scenario::{Token, TokenKind};

/// What the card asks of a creature's lasting effects (`rules::effects`).
#[derive(Clone, Debug, PartialEq)]
pub enum EffectAction {
    /// End this effect (the card's end button).
    End(u32),
    /// Give this effect.
    Give(Box<crate::rules::effects::Effect>),
    /// Expose the creature to a poison now (a dose, a cloud, a touch).
    Poison(crate::rules::effects::poisons::Poison),
    /// Coat the creature's weapon with a poison, or wipe it off.
    Coat(Option<crate::rules::effects::poisons::Poison>),
    /// The creature catches a disease.
    Disease(crate::rules::effects::diseases::Disease),
    /// Roll a madness of this kind for the creature.
    Madness(crate::rules::effects::madness::MadnessKind),
    /// End this effect with this magic, if it ends it (`rules::effects::Cure::ends`).
    Cure { effect: u32, cure: crate::rules::effects::Cure },
    /// A long rest ends at dawn for everyone: timed effects run on, diseases advance.
    Dawn,
}

/// Something the user asked for on a chase panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChaseRequest {
    /// Open or close the setup window; while a chase runs, show or hide its screen.
    ToggleSetup,
    /// Start the chase as drafted.
    Start,
    /// The participant shown on the hand-over card takes the screen: its turn begins.
    BeginTurn,
    Resolve(Resolution),
    Dash,
    /// Move this many feet (as far as it can if more).
    Move(u32),
    Attack {
        target: String,
        attack: usize,
        cover: CoverDegree,
    },
    BreakFree,
    /// This participant gives up the chase.
    GiveUp(String),
    EndTurn,
    /// The DM's overrides.
    SetPosition(String, i32),
    SetExhaustion(String, u8),
    ForceRoll(i32),
    OutOfSight(String),
    /// Quarry creatures break away, followed by these pursuers (DMG "Splitting Up").
    Split {
        quarry: Vec<String>,
        pursuers: Vec<String>,
    },
    /// The quarry turns on its pursuers (DMG "Role Reversal").
    Reverse,
    /// Leave the chase screen for the map: the chase waits, and `ToggleSetup` (`C`) shows it
    /// again. A chase that is over ends, as with `EndChase`.
    ReturnToMap,
    /// End the chase (asked on the screen first): what it did goes back to the map.
    EndChase,
}

/// What a click or a drag on the map does in the editor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EditTool {
    /// Paint the cells under the brush.
    #[default]
    Paint,
    /// Fill the rectangle dragged out.
    Rectangle,
    /// Select and drag tokens to place them; with Add, a click places a new one.
    Tokens,
}

/// An editor request.
#[derive(Clone, Debug, PartialEq)]
pub enum EditRequest {
    Tool(EditTool),
    Terrain(usize),
    Brush(u32),
    Resize {
        width: u32,
        height: u32,
    },
    SwitchGrid(Grid),
    /// The next click on the map adds a creature or an object there.
    Add(TokenKind),
    /// Pick the SRD stat block (its index) that each click on the map then places, or none.
    PickMonster(Option<String>),
    Duplicate(String),
    Delete(String),
    /// Replace the token with the same id by this one (the form's Apply).
    Update(Box<Token>),
    /// Put this map image under the grid, aligned so (`None` takes it away).
    Background(Option<crate::scenario::Background>),
    /// Seat the player of creature `id` at this edge of the table, or at none (issue 30).
    Seat {
        id: String,
        seat: Option<crate::scenario::TableEdge>,
    },
    /// Leave the editor.
    Close,
}

/// The template's shape and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TemplateSettings {
    pub kind: ShapeKind,
    pub feet: u32,
    /// Cubes and squares: the middle of a side at the origin instead of a corner.
    pub face: bool,
    /// Lines: the width in feet.
    pub width: u32,
}

impl Default for TemplateSettings {
    fn default() -> Self {
        Self { kind: ShapeKind::Sphere, feet: 20, face: false, width: 5 }
    }
}

impl TemplateSettings {
    pub fn shape(self) -> Shape {
        Shape::new(self.kind, self.feet, self.face, self.width)
    }
}

/// The saving throw an area asks for (the template's "Roll saves").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveSettings {
    pub ability: Ability,
    pub dc: i32,
    /// Damage dice, or empty for none.
    pub damage: String,
    pub damage_type: DamageType,
    pub half_on_success: bool,
}

impl Default for SaveSettings {
    fn default() -> Self {
        Self {
            ability: Ability::Dex,
            dc: 15,
            damage: "8d6".into(),
            damage_type: DamageType::Fire,
            half_on_success: true,
        }
    }
}

/// The DM's fog brush (in the DM's view): what a stroke does to the players' view of the cells it
/// covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FogBrush {
    /// Shown to the players whatever the party sees: a map handed over, a scrying.
    Reveal,
    /// Kept dark to the players whatever the party sees.
    Hide,
    /// Back to the party's own sight.
    Clear,
}

impl FogBrush {
    pub const ALL: [FogBrush; 3] = [FogBrush::Reveal, FogBrush::Hide, FogBrush::Clear];

    pub fn name(self) -> &'static str {
        match self {
            FogBrush::Reveal => "Reveal",
            FogBrush::Hide => "Hide",
            FogBrush::Clear => "Clear",
        }
    }
}
