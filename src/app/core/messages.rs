//! The messages features and panels send each other: every request a key, a click or a panel's
//! button makes, and what happened that another feature follows up.

use std::path::PathBuf;

use bevy::prelude::*;

use super::requests::{ChaseRequest, EditRequest, FogBrush, SaveSettings, TemplateSettings};
use crate::rules::Cell;
use crate::rules::conditions::Condition;
use crate::rules::economy::{Action, Readied};
use crate::rules::fight::opportunity::Moving;
use crate::rules::fight::saves::{InArea, SaveEffect};
use crate::rules::movement::Path;
use crate::rules::siege::Step;
use crate::scenario::TokenKind;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<OpenScenario>()
        .add_message::<SelectToken>()
        .add_message::<Toggle>()
        .add_message::<ScenarioChanged>()
        .add_message::<TerrainEdited>()
        .add_message::<Restored>()
        .add_message::<bevy::window::RequestRedraw>()
        .add_message::<MoveToken>()
        .add_message::<Walk>()
        .add_message::<TurnRequest>()
        .add_message::<TurnStarted>()
        .add_message::<TurnEnded>()
        .add_message::<EffectRequest>()
        .add_message::<FightRequest>()
        .add_message::<AttackRequest>()
        .add_message::<AttackMade>()
        .add_message::<SavesRequest>()
        .add_message::<SiegeRequest>()
        .add_message::<DiceRequest>()
        .add_message::<ChaseMessage>()
        .add_message::<HistoryRequest>()
        .add_message::<DismissPinned>()
        .add_message::<TableView>()
        .add_message::<EditMessage>()
        .add_message::<SaveScenario>()
        .add_message::<ReactionAnswer>()
        .add_message::<TemplateRequest>()
        .add_message::<AudienceRequest>()
        .add_message::<FitMap>()
        .add_message::<ShowCard>()
        .add_message::<PickFogBrush>()
        .add_message::<EditorAsksForDmView>();
}

/// Asks to open a scenario file, or (`path: None`) to read the current one again.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct OpenScenario {
    pub path: Option<PathBuf>,
}

/// Asks to select the token with this id, or to clear the selection.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct SelectToken(pub Option<String>);

/// Switches a map tool or panel on or off. Its key and its button in the panels send the same
/// message; the feature that owns the tool applies it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toggle {
    GridLines,
    /// The terrain's tiles over a map image: shown, faded, hidden.
    TerrainTiles,
    /// The optional diagonal rule (DMG "Optional Rule: Diagonals") for this session.
    Diagonals,
    Ruler,
    SightOverlay,
    Template,
    /// Open or close one of the panels floating over the map.
    Panel(PanelName),
    /// The map editor.
    Editor,
}

/// Hide every panel but the initiative strip and the active creature's turn card (`true`), so
/// the players see a map, or show them again.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableView(pub bool);

/// The panels that float over the map, each opened and closed from the bar or its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PanelName {
    /// Every creature and object (`P`).
    Roster,
    /// The selected creature's card (`K`).
    Card,
    /// The initiative order (`I`).
    Initiative,
    /// The dice, the roll log and the DM's tables (`D`).
    Dice,
    /// What each terrain and icon of the map means (`L`).
    Legend,
}

impl PanelName {
    pub const ALL: [PanelName; 5] =
        [PanelName::Roster, PanelName::Card, PanelName::Initiative, PanelName::Dice, PanelName::Legend];

    /// The key that opens and closes it.
    pub fn key(self) -> KeyCode {
        match self {
            PanelName::Roster => KeyCode::KeyP,
            PanelName::Card => KeyCode::KeyK,
            PanelName::Initiative => KeyCode::KeyI,
            PanelName::Dice => KeyCode::KeyD,
            PanelName::Legend => KeyCode::KeyL,
        }
    }
}

/// Sent when a scenario has been loaded (at start and after every successful open), so the board
/// and the tokens are built again.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ScenarioChanged;

/// The terrain changed (painted, or put back by undo): the board is drawn again.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct TerrainEdited;

/// The map was rebuilt from a snapshot (undo, redo, the autosave): what waited on the old state
/// (a reaction prompt, a picked attack) is dropped.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct Restored;

/// Asks to move a token's anchor to a cell, paying from its movement (taking a Dash if only a
/// Dash reaches it).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct MoveToken {
    pub entity: Entity,
    pub to: Cell,
    /// The DM moves a creature out of its turn (Shift held on the drag): logged, and it provokes
    /// nothing (it isn't the creature using its movement).
    pub by_dm: bool,
}

impl MoveToken {
    pub fn new(entity: Entity, to: Cell) -> Self {
        Self { entity, to, by_dm: false }
    }
}

/// A planned move, paid for, to walk: the walk may stop for opportunity attacks on the way.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    pub entity: Entity,
    pub path: Path,
    /// The move needed a Dash, taken for it.
    pub dashed: bool,
    pub moving: Moving,
}

/// Turn and initiative requests from the panels and the keyboard.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum TurnRequest {
    /// The next creature in the initiative order starts its turn (the first rolls initiative).
    NextTurn,
    /// This creature starts its turn now.
    StartTurn(Entity),
    /// The creature whose turn it is waits until after the next one (before it has done anything).
    Delay,
    /// A creature joins the fight: it rolls initiative and takes its place.
    Join(Entity),
    /// A creature leaves the initiative order.
    Leave(Entity),
    /// Keep a creature from the players (its token and its initiative entry), or show it.
    Secret(Entity, bool),
    /// Take back the last move of this turn.
    Undo(Entity),
    /// One of the actions without a target: Dash, Disengage, Dodge, Use an Object.
    Act(Entity, Action),
    /// The free object interaction (a second one takes the action).
    Interact(Entity),
    /// The Ready action: a trigger and what fires.
    Ready(Entity, Readied),
}

/// A creature's turn has just started.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnStarted(pub Entity);

/// A creature's turn has just ended (another's starts, or the fight moved on).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnEnded(pub Entity);

/// What the card asks of a creature's lasting effects, or (with no creature) of all of them.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct EffectRequest {
    pub target: Option<Entity>,
    pub action: super::requests::EffectAction,
}

/// What the card, the keys and the mouse ask of the fight.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum FightRequest {
    /// Pick one of the attacker's attacks (or none) for the next click on a target; with
    /// `weapon`, the siege weapon it crews fires instead.
    PickAttack {
        attacker: Entity,
        attack: Option<String>,
        weapon: Option<Entity>,
    },
    /// Damage as the DM types it (already after resistances).
    Damage {
        target: Entity,
        amount: i32,
    },
    Heal {
        target: Entity,
        amount: i32,
    },
    TempHp {
        target: Entity,
        amount: i32,
    },
    Condition {
        target: Entity,
        condition: Condition,
        on: bool,
    },
    Exhaustion {
        target: Entity,
        level: u8,
    },
    DeathSave {
        target: Entity,
    },
    Stabilize {
        target: Entity,
    },
    /// Turn to face the next side clockwise or counter-clockwise (DMG "Optional Rule: Facing").
    Turn {
        target: Entity,
        clockwise: bool,
    },
    Dodge {
        target: Entity,
        on: bool,
    },
    /// Stand up from prone: half the speed (PHB "Being Prone").
    StandUp {
        target: Entity,
    },
    /// The Help action: `ally`'s next attack on `target` (within 5 ft of the helper) has advantage.
    Help {
        helper: Entity,
        ally: Entity,
        target: Entity,
    },
    /// The Hide action: a Dexterity (Stealth) check against the enemies' passive Perception.
    Hide {
        who: Entity,
    },
    /// The Search action: a Wisdom (Perception) check that finds hidden enemies.
    Search {
        who: Entity,
    },
}

/// How an attack is made, and so what it spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackHow {
    /// With the Attack action, in the attacker's turn.
    Action,
    /// An opportunity attack: the reactor's reaction.
    Opportunity,
    /// A readied attack: the readied action, with the reaction.
    Readied,
    /// A siege weapon fired by `operator`, who spends its action (Use an Object).
    Crewed { operator: Entity },
}

/// Make an attack: adjudicate it, pay for it as `how` says, roll it and its damage into the log,
/// and apply its aftermath. The fight feature makes every attack: a click, an opportunity attack, a
/// readied attack, a siege weapon's shot.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct AttackRequest {
    /// The creature, or the siege weapon that fires.
    pub attacker: Entity,
    pub target: Entity,
    pub attack: String,
    pub how: AttackHow,
}

/// An attack was made (after [`AttackRequest`]): a crewed weapon's shot counts as its fire step.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackMade {
    pub attacker: Entity,
    pub target: Entity,
    pub how: AttackHow,
    /// It hit and dealt damage of this type (a coated weapon's poison may follow).
    pub dealt: Option<crate::rules::health::DamageType>,
}

/// Who or what makes an area's creatures save.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveSource {
    /// The DM, with the area template.
    Template,
    /// A creature tipping a cauldron (its crew step is already paid and recorded).
    Cauldron { operator: Entity, weapon: Entity },
}

/// The creatures `inside` an area (with their cover, or why they are unaffected) save against
/// `effect`; the fight feature rolls and deals the damage.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct SavesRequest {
    pub inside: Vec<InArea>,
    pub effect: SaveEffect,
    pub source: SaveSource,
}

/// What the card and the map ask of a siege weapon: `operator` spends its action on `weapon`.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum SiegeRequest {
    /// A load or aim action (a cauldron's fill).
    Work { operator: Entity, weapon: Entity, step: Step },
    /// Pick the weapon to fire (or put it down): the next click on a target fires it.
    PickTarget { operator: Entity, weapon: Entity },
    /// Tip a cauldron on the square below it.
    Tip { operator: Entity, weapon: Entity },
}

/// Rolls and inspiration asked for in the panels.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum DiceRequest {
    Roll { roller: Option<Entity>, notation: String, mode: crate::rules::dice::RollMode, hidden: bool, reason: String },
    RollTable { id: String, hidden: bool },
    Inspiration { entity: Entity, give: bool },
}

/// A request for the chase: from its screens, the status bar's Chase button or the `C` key.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ChaseMessage(pub ChaseRequest);

/// Undo and redo, from the keys and the bar.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryRequest {
    Undo,
    Redo,
}

/// Take a pinned notice off the screen (its index in `notice::Pinned`): the user has read it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct DismissPinned(pub usize);

/// An edit asked for in the panel, or made with the mouse.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum EditMessage {
    Panel(EditRequest),
    /// Add a creature or an object here.
    AddAt(TokenKind, Cell),
    /// Place the creature of the SRD stat block with this index here.
    AddMonsterAt(String, Cell),
    /// Move a token's anchor here.
    Place {
        id: String,
        anchor: Cell,
    },
    /// Fill the rectangle between two corners with a terrain (a palette index).
    Fill(Cell, Cell, usize),
}

/// Asks to write the scene as it stands now (terrain, tokens where they stand, hit points,
/// conditions) as a scenario file: to its own file, or (Save as) to `path`, which the app then
/// goes on with.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct SaveScenario {
    pub path: Option<PathBuf>,
}

/// The answer to the prompt on top.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReactionAnswer {
    /// The reactor makes the opportunity attack, or lets the mover go.
    Opportunity { attack: bool },
    /// The readied action fires, or is held (it stays readied).
    Readied { fire: bool },
    /// The DM fires this creature's readied spell or words by hand (a trigger in the player's
    /// words, which the app can't see).
    FireByHand(Entity),
}

/// The area template's panel: its shape and size, and the saving throw it asks for.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum TemplateRequest {
    Settings(TemplateSettings),
    Saves(SaveSettings),
    /// Every creature in the template saves (and takes its damage).
    RollSaves,
}

/// Show the DM's view (after its confirmation) or the players' view.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AudienceRequest {
    pub dm: bool,
}

/// The editor was asked for in the players' view: it opens only in the DM's view, so the panels
/// ask for the DM's view (the same confirmation as its button) and, once it is confirmed, ask for
/// the editor again, with the switch in the same frame.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EditorAsksForDmView;

/// Asks to frame the whole map in the view.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct FitMap;

/// Asks to show the selected token's card (a long press on a touch screen): its panel unfolds.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ShowCard;

/// Picks the DM's fog brush, or puts it down (`None`).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PickFogBrush(pub Option<FogBrush>);
