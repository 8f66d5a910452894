//! The autosave: the game in progress written atomically to a session file beside its scenario
//! (`NAME.session.json`) after every change, with the roll log and the dice's seed and position,
//! and read back on the next start.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::app::core::dice::{Dice, RollRecord};
use crate::app::core::history::{History, Snapshot, TokenState, TurnState};
use crate::app::core::messages::{SaveScenario, ScenarioChanged};
use crate::app::core::notice::{Notice, Said};
use crate::app::core::options::LaunchOptions;
use crate::app::core::pointer::MapKeys;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::LoadedScenario;
use crate::files::write_atomically;
use crate::rules::chase::Chases;
use crate::rules::initiative::InitiativeOrder;
use crate::rules::log::RollLog;
use crate::scenario::{MAX_FILE_BYTES, Scenario, ScenarioErrors};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Autosave>()
        .add_systems(Update, save_key.in_set(AppSystems::Input))
        .add_systems(Last, save_scenarios.after(super::record_changes).before(write_autosave))
        .add_systems(
            Update,
            find_session_file
                .run_if(on_message::<ScenarioChanged>)
                .after(super::forget_history)
                .in_set(AppSystems::Build),
        )
        .add_systems(Last, write_autosave.after(super::record_changes));
}

/// The version of the session file's layout.
const FORMAT: u32 = 1;

/// The most roll log entries a session file may hold: far past an evening's, or a campaign's
/// (a roll is about 200 bytes, so the log alone stays under [`MAX_SESSION_BYTES`]).
const MAX_LOG: usize = 300_000;

/// The largest session file read, in bytes.
const MAX_SESSION_BYTES: u64 = 128 * 1024 * 1024;

/// A digest of a scenario's text (64-bit FNV-1a: the same on every build, unlike std's hasher).
pub fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}

/// The text of the scenario a game is played on, for its digest.
fn scenario_text(source: Option<&Path>) -> Option<String> {
    match source {
        Some(path) => std::fs::read_to_string(path).ok(),
        None => Some(crate::scenario::DEFAULT_SCENARIO.to_owned()),
    }
}

/// The autosave's file and what it last wrote.
#[derive(Resource, Default)]
pub struct Autosave {
    pub path: Option<PathBuf>,
    /// The roll log's length and the dice's position when last written.
    written_dice: (usize, u128),
    /// The digest of the scenario's text when the game began.
    pub digest: u64,
    /// The last write failed with this (shown once).
    pub error: Option<String>,
}

/// The session file: the board as canonical scenario text, then what the scenario can't hold.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SessionFile {
    pub format: u32,
    /// The scenario file it was played from (`None`: the built-in one), and a digest of that
    /// file's text when the game began: a game is restored only on the scenario it was played on.
    pub scenario_file: Option<PathBuf>,
    pub scenario_digest: u64,
    /// The board: the scenario as it stands now.
    pub board: String,
    pub tokens: BTreeMap<String, TokenState>,
    pub turn: TurnState,
    pub initiative: InitiativeOrder,
    pub seed: u64,
    /// How far the dice's generator is into its stream.
    pub dice_position: u128,
    pub log: RollLog,
    /// A chase in progress, and whether the screen waits to be handed over.
    #[serde(default)]
    pub chase: Option<Chases>,
    #[serde(default)]
    pub awaiting_handover: bool,
}

impl SessionFile {
    pub fn new(snapshot: &Snapshot, source: Option<&Path>, digest: u64, dice: &Dice, log: &RollRecord) -> Self {
        Self {
            format: FORMAT,
            scenario_file: source.map(Path::to_path_buf),
            scenario_digest: digest,
            board: snapshot.board.to_ron(),
            tokens: snapshot.tokens.clone(),
            turn: snapshot.turn.clone(),
            initiative: snapshot.initiative.clone(),
            seed: dice.0.seed,
            dice_position: dice.0.position(),
            log: log.0.clone(),
            chase: snapshot.chase.clone(),
            awaiting_handover: snapshot.awaiting_handover,
        }
    }

    /// Reads and checks a session file: the board is validated as a scenario, and every id it
    /// names is one of the board's.
    pub fn load(path: &Path) -> Result<(Self, Snapshot), SessionError> {
        use std::io::Read;
        let file = path.to_path_buf();
        let unreadable = |e: std::io::Error| SessionError::Unreadable { file: file.clone(), error: e.to_string() };
        // Looked at before it is opened: opening a FIFO with no writer waits forever.
        if !std::fs::metadata(path).map_err(unreadable)?.is_file() {
            let error = "it is not a regular file (a directory, a pipe or a device)".to_owned();
            return Err(SessionError::Unreadable { file, error });
        }
        let mut text = String::new();
        std::fs::File::open(path)
            .map_err(unreadable)?
            .take(MAX_SESSION_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(unreadable)?;
        if text.len() as u64 > MAX_SESSION_BYTES {
            return Err(SessionError::TooLarge { file });
        }
        let saved: SessionFile = serde_json::from_str(&text).map_err(|e| SessionError::NotJson {
            file: file.clone(),
            line: e.line(),
            column: e.column(),
            error: e.to_string(),
        })?;
        if saved.format != FORMAT {
            return Err(SessionError::OtherVersion { file, format: saved.format });
        }
        if saved.board.len() as u64 > MAX_FILE_BYTES {
            return Err(SessionError::BoardTooLarge { file });
        }
        let board =
            Scenario::from_ron(&format!("{} (board)", path.display()), &saved.board).map_err(SessionError::Board)?;
        saved.check(&board).map_err(|why| SessionError::Unplayable { file: file.clone(), why })?;
        let chase = saved
            .chase
            .clone()
            .map(Chases::checked)
            .transpose()
            .map_err(|why| SessionError::Unplayable { file, why: Unplayable::Chase(Box::new(why)) })?;
        let snapshot = Snapshot {
            board,
            tokens: saved.tokens.clone(),
            turn: saved.turn.clone(),
            initiative: saved.initiative.clone(),
            chase,
            awaiting_handover: saved.awaiting_handover,
        };
        Ok((saved, snapshot))
    }

    /// Every id is a token of the board, and the rounds, the log, the dice's position and each
    /// token's turn (movement, its moves, actions, a weapon's round) within bounds play keeps to.
    fn check(&self, board: &Scenario) -> Result<(), Unplayable> {
        let known = |id: &String| board.token(id).is_some();
        let unknown = self
            .tokens
            .keys()
            .chain(self.turn.active.iter())
            .chain(&self.turn.movers)
            .chain(self.initiative.entries.iter().map(|e| &e.id))
            .chain(self.tokens.values().flat_map(|s| s.helped_by.iter().chain(s.helped_against.iter())))
            .find(|id| !known(id));
        if let Some(id) = unknown {
            return Err(Unplayable::UnknownToken(id.clone()));
        }
        if self.initiative.current.is_some_and(|i| i >= self.initiative.entries.len()) {
            return Err(Unplayable::CurrentPastTheOrder);
        }
        if self.initiative.round.max(self.turn.round) > 1_000_000 {
            return Err(Unplayable::RoundTooFar);
        }
        if self.log.entries.len() > MAX_LOG {
            return Err(Unplayable::LogTooLong);
        }
        if self.dice_position >= 1 << 68 {
            return Err(Unplayable::DicePastTheirStream);
        }
        for (id, state) in &self.tokens {
            let movement = state.movement.as_ref();
            let far_cell = |c: crate::rules::Cell| c.x.unsigned_abs() > 1000 || c.y.unsigned_abs() > 1000;
            let far = movement.is_some_and(|m| {
                m.speed > 10_000
                    || m.dashes > 100
                    || m.spent > 1_000_000
                    || m.moves.len() > 10_000
                    || m.moves.iter().any(|r| far_cell(r.from) || far_cell(r.to) || r.cost > 100_000)
            });
            if far || state.economy.taken.len() > 100 || state.siege_round > 1_000_000 {
                return Err(Unplayable::TurnOutOfBounds(id.clone()));
            }
        }
        Ok(())
    }
}

/// Why a session file can't be restored.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    #[error("cannot read {}: {error}", file.display())]
    Unreadable { file: PathBuf, error: String },
    #[error("{} is too large to be a session file", file.display())]
    TooLarge { file: PathBuf },
    #[error("{}:{line}:{column}: {error}", file.display())]
    NotJson { file: PathBuf, line: usize, column: usize, error: String },
    #[error("{} is a session file of another version ({format})", file.display())]
    OtherVersion { file: PathBuf, format: u32 },
    #[error("the board of {} is larger than a scenario may be", file.display())]
    BoardTooLarge { file: PathBuf },
    #[error("{}", .0.0.first().map_or_else(|| "the board is not valid".to_owned(), ToString::to_string))]
    Board(ScenarioErrors),
    #[error("{}: {why}", file.display())]
    Unplayable { file: PathBuf, why: Unplayable },
    #[error("{} holds a game of another scenario, or of this one before it was changed", file.display())]
    OtherScenario { file: PathBuf },
}

/// What in a session file play can't go on from.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Unplayable {
    #[error("{0:?} is not a token of the board")]
    UnknownToken(String),
    #[error("the initiative's current turn is past its last entry")]
    CurrentPastTheOrder,
    #[error("the round is past any a fight reaches")]
    RoundTooFar,
    #[error("the roll log has more than {MAX_LOG} entries")]
    LogTooLong,
    #[error("the dice's position is past the generator's stream")]
    DicePastTheirStream,
    #[error("{0:?}'s turn holds numbers play can't reach")]
    TurnOutOfBounds(String),
    #[error("{0}")]
    Chase(Box<crate::rules::chase::SavedChaseError>),
}

/// `Ctrl+S` saves the scene to its file.
fn save_key(keys: MapKeys, mut save: MessageWriter<SaveScenario>) {
    if keys.control() && keys.pressed(KeyCode::KeyS) {
        save.write(SaveScenario { path: None });
    }
}

fn save_scenarios(
    mut requests: MessageReader<SaveScenario>,
    mut history: ResMut<History>,
    mut loaded: ResMut<LoadedScenario>,
    mut autosave: ResMut<Autosave>,
    options: Option<Res<LaunchOptions>>,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        let path = match (&request.path, &loaded.source) {
            (Some(path), _) if path.extension().is_none() => path.with_extension("ron"),
            (Some(path), _) | (None, Some(path)) => path.clone(),
            (None, None) => {
                notice.say(Said::BuiltInHasNoFile);
                continue;
            }
        };
        let Some(board) = history.current.as_ref().map(|c| c.board.to_ron()) else {
            notice.say(Said::MapNotReady);
            continue;
        };
        match write_atomically(&path, &board) {
            Ok(()) => {
                notice.say(Said::Saved(path.clone()));
                // The game goes on from the file as saved: the autosave belongs to it now.
                autosave.digest = digest(&board);
                history.unsaved = true;
                if request.path.is_some() && loaded.source.as_ref() != Some(&path) {
                    let place = options.as_ref().map(|o| o.session.clone()).unwrap_or_default();
                    autosave.path = place.file_for(Some(&path));
                    loaded.source = Some(path);
                    history.unsaved = true;
                }
            }
            Err(e) => notice.say(Said::CouldNotSave { path, error: e.to_string() }),
        }
    }
}

/// On a new scenario, finds its session file and restores the game saved there; reading the same
/// scenario again (Reload) starts it afresh, and the autosave then overwrites the old game.
fn find_session_file(
    options: Option<Res<LaunchOptions>>,
    loaded: Res<LoadedScenario>,
    mut autosave: ResMut<Autosave>,
    mut history: ResMut<History>,
    mut notice: ResMut<Notice>,
) {
    let place = options.map(|o| o.session.clone()).unwrap_or_default();
    let path = place.file_for(loaded.source.as_deref());
    let reloaded = path.is_some() && path == autosave.path;
    autosave.path = path;
    autosave.written_dice = (usize::MAX, 0);
    autosave.digest = scenario_text(loaded.source.as_deref()).map_or(0, |text| digest(&text));
    let Some(path) = autosave.path.clone().filter(|p| !reloaded && p.exists()) else { return };
    let restored = SessionFile::load(&path).and_then(|(saved, snapshot)| {
        if saved.scenario_digest == autosave.digest {
            Ok((saved, snapshot))
        } else {
            Err(SessionError::OtherScenario { file: path.clone() })
        }
    });
    match restored {
        Ok((saved, snapshot)) => history.resume(snapshot, saved.seed, saved.dice_position, saved.log),
        Err(e) => {
            // Kept aside, not overwritten by the new game's autosave.
            let aside = path.with_extension("json.old");
            let kept = std::fs::rename(&path, &aside).ok().map(|()| aside);
            warn!("{e}");
            notice.say(Said::AutosaveNotRestored { error: e.to_string(), kept });
        }
    }
}

/// Writes the session file after a change or a roll.
fn write_autosave(
    mut autosave: ResMut<Autosave>,
    mut history: ResMut<History>,
    rolls: (Res<Dice>, Res<RollRecord>),
    loaded: Res<LoadedScenario>,
    mut notice: ResMut<Notice>,
) {
    let (dice, log) = rolls;
    let (Some(path), Some(current)) = (autosave.path.clone(), history.current.as_ref()) else {
        return;
    };
    let written_dice = (log.0.entries.len(), dice.0.position());
    if !history.unsaved && written_dice == autosave.written_dice {
        return;
    }
    let file = SessionFile::new(current, loaded.source.as_deref(), autosave.digest, &dice, &log);
    let written = serde_json::to_string(&file).map_err(std::io::Error::other).and_then(|text| {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        write_atomically(&path, &text)
    });
    history.unsaved = false;
    autosave.written_dice = written_dice;
    // The operating system's words for the failure, said once until it changes.
    match written.map_err(|e| e.to_string()) {
        Ok(()) => autosave.error = None,
        Err(e) if autosave.error.as_ref() != Some(&e) => {
            warn!("autosave to {}: {e}", path.display());
            notice.say(Said::AutosaveFailed { path: path.clone(), error: e.clone() });
            autosave.error = Some(e);
        }
        Err(_) => {}
    }
}
