//! What the app tells the user, as data: every outcome and refusal a request can have is a
//! [`Said`], with the names and numbers it needs; `ui::words` renders it in English at the edge,
//! and tests assert on the variant.

use std::path::PathBuf;

use bevy::prelude::*;

use crate::rules::Cell;
use crate::rules::chase::ChaseError;
use crate::rules::conditions::Condition;
use crate::rules::creature::Direction;
use crate::rules::dice::DiceError;
use crate::rules::economy::{Action, EconomyError};
use crate::rules::fight::StandError;
use crate::rules::fight::actions::{CantHelp, CantTurn};
use crate::rules::fight::adjudicate::Refusal;
use crate::rules::fight::resolve::{AttackRoll, RollError};
use crate::rules::health::{DamageTaken, DeathSave, Life};
use crate::rules::log::AttackOccasion;
use crate::rules::movement::MoveError;
use crate::rules::siege::{PushError, SiegeError};
use crate::scenario::ScenarioErrors;
use crate::scenario::edit::EditError;

/// The last thing the app has to tell the user (the status bar shows it, red when it is a
/// refusal).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Notice(pub Option<Said>);

impl Notice {
    /// Tells the user `said`, in place of what was said before.
    pub fn say(&mut self, said: Said) {
        self.0 = Some(said);
    }

    /// Whether the last thing said is a refusal or a failure.
    pub fn is_refusal(&self) -> bool {
        self.0.as_ref().is_some_and(Said::is_refusal)
    }
}

/// What the user must not miss, kept on screen until dismissed whatever is said after it: a game
/// that was not restored, rolls that did not come back, an autosave that failed or went
/// elsewhere. All of a start's are kept, in the order they came.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Pinned(pub Vec<Said>);

impl Pinned {
    /// Keeps `said` on screen (once: the same words again add nothing).
    pub fn pin(&mut self, said: Said) {
        if !self.0.contains(&said) {
            self.0.push(said);
        }
    }
}

/// Why a dragged token can't go where the cursor is.
#[derive(Clone, Debug, PartialEq)]
pub enum DragRefusal {
    Move(Option<MoveError>),
    Push(PushError),
    /// Neither a creature nor a siege weapon: it doesn't move.
    Unmovable,
}

/// Why a move, an action or an attack was refused before the rules were asked.
#[derive(Clone, Debug, PartialEq)]
pub enum NotNow {
    /// A reaction prompt waits for its answer.
    ReactionWaiting,
    /// Out of its turn a creature acts only with its reaction.
    NotItsTurn { who: String },
    /// Its action economy has nothing left for it, or it is incapacitated.
    Spent { who: String, error: EconomyError },
}

/// A creature's saving throw against an area, in a few words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveLine {
    pub name: String,
    pub success: bool,
    /// The damage it took.
    pub taken: i32,
    /// Why it didn't roll, in words (unaffected, fails automatically).
    pub note: Option<String>,
    pub rolled: bool,
}

/// Why a siege weapon can't be worked.
#[derive(Clone, Debug, PartialEq)]
pub enum CantWork {
    Siege(Box<SiegeError>),
    NotNow(NotNow),
    /// Firing needs a target: the fire button, then a click on it.
    NeedsTarget,
    NoAttack,
    NoSuchWeapon,
}

/// Why a siege weapon can't be pushed.
#[derive(Clone, Debug, PartialEq)]
pub enum CantPush {
    /// The rules refuse the push (`rules::siege::plan_push`).
    Push(PushError),
    /// While a fight runs, one of its pushers must be the creature whose turn it is.
    NotTheirTurn,
}

/// Why the creature whose turn it is can't delay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CantDelay {
    NoFight,
    StartedByHand { who: String },
    AlreadyActed { who: String },
    Last { who: String },
    NextIsGone,
}

/// What an edit of the editor did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edited {
    Filled {
        cells: usize,
        refused: Option<EditError>,
    },
    Added {
        id: String,
    },
    /// A creature from the SRD bestiary, by the name it got (a sticker's letter for a twin).
    AddedMonster {
        id: String,
        name: String,
    },
    Placed {
        id: String,
        anchor: Cell,
    },
    Resized {
        width: u32,
        height: u32,
    },
    Grid {
        name: &'static str,
        warnings: Vec<String>,
    },
    Duplicated {
        copy: String,
        of: String,
    },
    Deleted {
        id: String,
        warning: Option<String>,
    },
    /// The map image under the grid was set or aligned (`on`), or taken away.
    Background {
        on: bool,
    },
    Changed {
        name: String,
    },
    /// A creature's player took a seat at the table, or left it (issue 30).
    Seated {
        name: String,
        seat: Option<crate::scenario::TableEdge>,
    },
}

/// How the terrain's tiles are drawn (`core::state::TerrainShown`, told): with their art, faded
/// over the map image, or hidden (their grid lines and their rules kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiles {
    Shown,
    Faded,
    Hidden,
}

/// Something the app tells the user.
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    // Scenario files, saving and the autosave.
    ReloadedBuiltIn,
    Opened(PathBuf),
    /// A file that didn't load: the current scenario stays.
    KeptScenario(ScenarioErrors),
    Saved(PathBuf),
    CouldNotSave {
        path: PathBuf,
        error: String,
    },
    BuiltInHasNoFile,
    /// The map has no recorded state yet (a save or an edit in its first frame).
    MapNotReady,
    RestoredAutosave,
    /// The game was restored, but its roll log only in part (`kept` of its `rolls`); the damaged
    /// journal `file` was moved `aside`, if it was there to move.
    RollLogCut {
        file: PathBuf,
        kept: usize,
        rolls: usize,
        why: super::dice::LogLoss,
        aside: Option<PathBuf>,
    },
    /// The roll log came back whole, but its journal `file` was not as written (`how`): it was
    /// moved `aside` and is written anew.
    RollLogMended {
        file: PathBuf,
        rolls: usize,
        how: super::dice::Mended,
        aside: Option<PathBuf>,
    },
    /// The journal held `rolls` rolls past the session file's (made after the last autosave, as
    /// a kill leaves it): they are not restored; the journal holding them was moved `aside`.
    RollsPastTheAutosave {
        rolls: usize,
        aside: PathBuf,
    },
    /// The session file was not restored (`error`); the files `kept` aside hold it.
    AutosaveNotRestored {
        error: String,
        kept: Vec<PathBuf>,
    },
    /// The session file's place is a symbolic `link` to `target`, which isn't there (or links
    /// in a loop): the link (and the journal beside it) were `kept` aside.
    SessionLinkBroken {
        link: PathBuf,
        target: PathBuf,
        kept: Vec<PathBuf>,
    },
    /// A game autosaved before at the session file's place of a file saved as: `kept` aside.
    EarlierAutosaveKept {
        kept: Vec<PathBuf>,
    },
    /// A roll log's journal with no session file beside it, moved `aside` before the new game's
    /// is written.
    JournalWithoutGame {
        file: PathBuf,
        aside: PathBuf,
    },
    /// What is at the session file's place `asked` couldn't be kept aside (`error`): the game is
    /// autosaved `now` there instead (`None`: nowhere).
    AutosaveElsewhere {
        asked: PathBuf,
        now: Option<PathBuf>,
        error: String,
    },
    AutosaveFailed {
        path: PathBuf,
        error: String,
    },
    Screenshot(String),
    /// A picture the scenario names that can't be shown: the token keeps its disc, the map its
    /// tiles.
    PictureNotShown {
        error: crate::pictures::PictureError,
        background: bool,
    },
    SceneHasChase {
        name: String,
    },
    /// How the terrain's tiles are drawn now (`B`, or the editor opening over hidden tiles).
    TerrainTiles(Tiles),

    // Undo, redo and the editor.
    FinishTheStepFirst,
    NothingTo {
        redo: bool,
    },
    Undid {
        redo: bool,
        left: usize,
    },
    EditorOpen,
    BackToPlay,
    EditRefused(EditError),
    Edited(Edited),

    // Moves and reactions.
    CantMove {
        who: String,
        why: NotNow,
    },
    CantMoveTo {
        who: String,
        to: Cell,
        why: Option<MoveError>,
    },
    Stays {
        who: String,
        at: Cell,
    },
    Moved {
        who: String,
        feet: u32,
        dashed: bool,
        squeezing: bool,
        left: u32,
    },
    /// Moved by the DM or another force, not with its own movement.
    MovedBy {
        who: String,
        feet: u32,
    },
    /// The DM moved a creature out of its turn while a fight runs.
    ByTheDm(Box<Said>),
    LeavingReach {
        mover: String,
        reactors: Vec<String>,
        at: Cell,
    },
    LetsGo {
        reactor: String,
        mover: String,
    },
    HoldsReadied {
        who: String,
    },
    ReleasesSpell {
        who: String,
        spell: String,
    },
    ReadiedFires {
        who: String,
        what: String,
    },
    ReadiedAttackWaits {
        who: String,
    },
    NothingReadied {
        who: String,
    },
    Gone {
        who: String,
    },
    DropsAndStops {
        who: String,
    },
    SpeedZeroStops {
        who: String,
    },
    AnswerTheReactionFirst,
    /// Several things at once, told in order.
    Several(Vec<Said>),

    // Turns and actions.
    TurnWaitsForReaction,
    TurnStarts {
        round: u32,
        who: String,
        speed: u32,
    },
    Delays {
        who: String,
        then: Box<Said>,
    },
    CantDelay(CantDelay),
    Joins {
        who: String,
        initiative: i32,
    },
    LeavesOrder {
        who: String,
    },
    KeptFromPlayers {
        who: String,
        kept: bool,
    },
    MoveTakenBack {
        who: String,
        to: Cell,
        left: u32,
    },
    HasItsOwnButton(Action),
    NotNow(NotNow),
    Acts {
        who: String,
        action: Action,
        bonus: bool,
        left: u32,
    },
    Interacts {
        who: String,
        with_action: bool,
    },
    Readies {
        who: String,
        words: String,
    },

    // Effects that last.
    /// What happened to a creature's effect, as the log says it.
    Effect {
        who: String,
        reason: Box<crate::rules::log::RollReason>,
    },
    /// A weapon coated with a poison, or wiped.
    Coated {
        poison: Option<crate::rules::effects::poisons::Poison>,
    },
    EffectRefused(crate::rules::effects::EffectError),

    // Dice.
    Dice(DiceError),
    InspirationGiven {
        who: String,
    },
    InspirationSpent {
        who: String,
    },

    // The fight.
    AttackPicked {
        who: String,
        attack: String,
    },
    WeaponFiresThroughCrew {
        weapon: String,
    },
    /// The attack was allowed but its dice couldn't be rolled (bad notation or damage type).
    AttackNotRolled {
        who: String,
        error: RollError,
    },
    CantAttack {
        who: String,
        why: Refusal,
    },
    CantAttackNow {
        who: String,
        why: NotNow,
    },
    Attacked {
        attacker: String,
        target: String,
        attack: String,
        how: AttackOccasion,
        roll: Box<AttackRoll>,
        taken: Option<DamageTaken>,
        revealed: bool,
    },
    Damaged {
        who: String,
        taken: DamageTaken,
    },
    Healed {
        who: String,
        regained: i32,
    },
    TempHp {
        who: String,
        now: i32,
    },
    ConditionSet {
        who: String,
        condition: Condition,
        on: bool,
    },
    ImmuneToCondition {
        who: String,
        condition: Condition,
    },
    Exhaustion {
        who: String,
        level: u8,
    },
    NotDying {
        who: String,
    },
    DeathSaved {
        who: String,
        save: Option<DeathSave>,
        successes: u8,
        failures: u8,
        life: Life,
    },
    Stabilized {
        who: String,
    },
    FacesNoWay {
        who: String,
    },
    CantTurn {
        who: String,
        why: CantTurn,
    },
    Turned {
        who: String,
        facing: Direction,
        reaction: bool,
    },
    Dodging {
        who: String,
        on: bool,
    },
    CantStand {
        who: String,
        why: StandError,
    },
    StoodUp {
        who: String,
        cost: u32,
    },
    CantHelp {
        who: String,
        why: CantHelp,
    },
    Helps {
        helper: String,
        ally: String,
        target: String,
    },
    CantHide {
        who: String,
        seen_by: Vec<String>,
    },
    /// Hidden; the Stealth total shown for a player character.
    Hides {
        who: String,
        stealth: Option<i32>,
    },
    /// Noticed; the numbers shown for a player character.
    FailsToHide {
        who: String,
        noticed_by: String,
        numbers: Option<(i32, i32)>,
    },
    Searched {
        who: String,
        found: Vec<String>,
    },
    SavesRolled {
        lines: Vec<SaveLine>,
    },

    // Siege weapons.
    CantWork {
        who: String,
        weapon: String,
        why: CantWork,
    },
    Worked {
        who: String,
        weapon: String,
        verb: &'static str,
        state: String,
    },
    LetsGoOf {
        who: String,
        weapon: String,
    },
    Mans {
        who: String,
        weapon: String,
    },
    Tipped {
        who: String,
        weapon: String,
        lines: Vec<SaveLine>,
    },
    CantPush {
        weapon: String,
        to: Cell,
        why: CantPush,
    },
    DmMovedWeapon {
        weapon: String,
        to: Cell,
    },
    Pushed {
        pushers: Vec<String>,
        weapon: String,
        feet: u32,
        each: u32,
    },

    // Chases.
    Chase(ChaseError),
}

impl Said {
    /// Whether it tells of a refusal or a failure (the status bar shows it in red).
    pub fn is_refusal(&self) -> bool {
        match self {
            Said::KeptScenario(_)
            | Said::PictureNotShown { .. }
            | Said::CouldNotSave { .. }
            | Said::BuiltInHasNoFile
            | Said::MapNotReady
            | Said::AutosaveNotRestored { .. }
            | Said::RollLogCut { .. }
            | Said::RollLogMended { .. }
            | Said::SessionLinkBroken { .. }
            | Said::AutosaveElsewhere { .. }
            | Said::AutosaveFailed { .. }
            | Said::FinishTheStepFirst
            | Said::EditRefused(_)
            | Said::CantMove { .. }
            | Said::CantMoveTo { .. }
            | Said::AnswerTheReactionFirst
            | Said::TurnWaitsForReaction
            | Said::CantDelay(_)
            | Said::HasItsOwnButton(_)
            | Said::NotNow(_)
            | Said::Dice(_)
            | Said::EffectRefused(_)
            | Said::WeaponFiresThroughCrew { .. }
            | Said::CantAttack { .. }
            | Said::ImmuneToCondition { .. }
            | Said::CantAttackNow { .. }
            | Said::NotDying { .. }
            | Said::FacesNoWay { .. }
            | Said::CantTurn { .. }
            | Said::CantStand { .. }
            | Said::CantHelp { .. }
            | Said::CantHide { .. }
            | Said::CantWork { .. }
            | Said::CantPush { .. }
            | Said::Chase(_) => true,
            Said::Several(all) => all.last().is_some_and(Said::is_refusal),
            _ => false,
        }
    }
}
