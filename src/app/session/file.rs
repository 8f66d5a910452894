//! The autosave: the game in progress written atomically to a session file beside its scenario
//! (`NAME.session.json`) after every change, with the roll log and the dice's seed and position,
//! and read back on the next start.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::{History, Snapshot, TokenState, TurnState};
use crate::app::LaunchOptions;
use crate::app::dice::Session;
use crate::app::state::{LoadedScenario, Notice, ScenarioChanged};
use crate::files::write_atomically;
use crate::rules::chase::Chases;
use crate::rules::dice::RollLog;
use crate::rules::initiative::InitiativeOrder;
use crate::scenario::{MAX_FILE_BYTES, Scenario};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Autosave>()
        .add_message::<SaveScenario>()
        .add_systems(Update, save_key.in_set(crate::app::AppSystems::Input))
        .add_systems(Last, save_scenarios.after(super::record_changes).before(write_autosave))
        .add_systems(
            Update,
            find_session_file
                .run_if(on_message::<ScenarioChanged>)
                .after(super::forget_history)
                .in_set(crate::app::AppSystems::Build),
        )
        .add_systems(Last, write_autosave.after(super::record_changes));
}

/// The version of the session file's layout.
const FORMAT: u32 = 1;

/// The most roll log entries a session file may hold.
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

/// Where the game is autosaved, if anywhere.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SessionPlace {
    /// No autosave (screenshots, benchmarks, tests that drive the window).
    #[default]
    Off,
    /// Beside the scenario file (the built-in scene's in the user's state directory).
    Beside,
    /// In this file, whatever scenario is open.
    At(PathBuf),
}

impl SessionPlace {
    /// The session file for a scenario from `source` (`None`: the built-in one).
    pub fn file_for(&self, source: Option<&Path>) -> Option<PathBuf> {
        match self {
            SessionPlace::Off => None,
            SessionPlace::At(path) => Some(path.clone()),
            SessionPlace::Beside => match source {
                Some(path) => Some(path.with_extension("session.json")),
                None => state_directory().map(|dir| dir.join("built-in.session.json")),
            },
        }
    }
}

/// `$XDG_STATE_HOME/battlemap`, else `~/.local/state/battlemap`.
fn state_directory() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/state")))?;
    Some(base.join("battlemap"))
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
    pub fn new(snapshot: &Snapshot, source: Option<&Path>, digest: u64, session: &Session) -> Self {
        Self {
            format: FORMAT,
            scenario_file: source.map(Path::to_path_buf),
            scenario_digest: digest,
            board: snapshot.board.to_ron(),
            tokens: snapshot.tokens.clone(),
            turn: snapshot.turn.clone(),
            initiative: snapshot.initiative.clone(),
            seed: session.dice.seed,
            dice_position: session.dice.position(),
            log: session.log.clone(),
            chase: snapshot.chase.clone(),
            awaiting_handover: snapshot.awaiting_handover,
        }
    }

    /// Reads and checks a session file: the board is validated as a scenario, and every id it
    /// names is one of the board's.
    pub fn load(path: &Path) -> Result<(Self, Snapshot), String> {
        use std::io::Read;
        let file = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut text = String::new();
        file.take(MAX_SESSION_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if text.len() as u64 > MAX_SESSION_BYTES {
            return Err(format!("{} is too large to be a session file", path.display()));
        }
        let saved: SessionFile =
            serde_json::from_str(&text).map_err(|e| format!("{}:{}:{}: {e}", path.display(), e.line(), e.column()))?;
        if saved.format != FORMAT {
            return Err(format!("{} is a session file of another version ({})", path.display(), saved.format));
        }
        if saved.board.len() as u64 > MAX_FILE_BYTES {
            return Err(format!("the board of {} is larger than a scenario may be", path.display()));
        }
        let board = Scenario::from_ron(&format!("{} (board)", path.display()), &saved.board)
            .map_err(|e| e.0.first().map_or_else(|| "the board is not valid".to_owned(), ToString::to_string))?;
        saved.check(&board).map_err(|e| format!("{}: {e}", path.display()))?;
        let chase =
            saved.chase.clone().map(Chases::checked).transpose().map_err(|e| format!("{}: {e}", path.display()))?;
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
    fn check(&self, board: &Scenario) -> Result<(), String> {
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
            return Err(format!("{id:?} is not a token of the board"));
        }
        if self.initiative.current.is_some_and(|i| i >= self.initiative.entries.len()) {
            return Err("the initiative's current turn is past its last entry".to_owned());
        }
        if self.initiative.round.max(self.turn.round) > 1_000_000 {
            return Err("the round is past any a fight reaches".to_owned());
        }
        if self.log.entries.len() > MAX_LOG {
            return Err(format!("the roll log has more than {MAX_LOG} entries"));
        }
        if self.dice_position >= 1 << 68 {
            return Err("the dice's position is past the generator's stream".to_owned());
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
                return Err(format!("{id:?}'s turn holds numbers play can't reach"));
            }
        }
        Ok(())
    }
}

/// Asks to write the scene as it stands now (terrain, tokens where they stand, hit points,
/// conditions) as a scenario file: to its own file, or (Save as) to `path`, which the app then
/// goes on with.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct SaveScenario {
    pub path: Option<PathBuf>,
}

/// `Ctrl+S` saves the scene to its file.
fn save_key(keys: crate::app::input::MapKeys, mut save: MessageWriter<SaveScenario>) {
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
                notice.0 = Some(("The built-in scene has no file: type a path and press Save as".to_owned(), true));
                continue;
            }
        };
        let Some(board) = history.current.as_ref().map(|c| c.board.to_ron()) else {
            notice.0 = Some(("The map is not ready yet: save again in a moment".to_owned(), true));
            continue;
        };
        match write_atomically(&path, &board) {
            Ok(()) => {
                notice.0 = Some((format!("Saved {}", path.display()), false));
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
            Err(e) => notice.0 = Some((format!("Could not save {}: {e}", path.display()), true)),
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
            Err(format!("{} holds a game of another scenario, or of this one before it was changed", path.display()))
        }
    });
    match restored {
        Ok((saved, snapshot)) => history.resume(snapshot, saved.seed, saved.dice_position, saved.log),
        Err(e) => {
            // Kept aside, not overwritten by the new game's autosave.
            let aside = path.with_extension("json.old");
            let kept =
                std::fs::rename(&path, &aside).map_or(String::new(), |()| format!(" (kept as {})", aside.display()));
            warn!("{e}");
            notice.0 = Some((format!("The autosave was not restored, the scene starts afresh: {e}{kept}"), true));
        }
    }
}

/// Writes the session file after a change or a roll.
fn write_autosave(
    mut autosave: ResMut<Autosave>,
    mut history: ResMut<History>,
    session: Option<Res<Session>>,
    loaded: Res<LoadedScenario>,
    mut notice: ResMut<Notice>,
) {
    let (Some(path), Some(session), Some(current)) = (autosave.path.clone(), session, history.current.as_ref()) else {
        return;
    };
    let dice = (session.log.entries.len(), session.dice.position());
    if !history.unsaved && dice == autosave.written_dice {
        return;
    }
    let file = SessionFile::new(current, loaded.source.as_deref(), autosave.digest, &session);
    let written = serde_json::to_string(&file).map_err(|e| e.to_string()).and_then(|text| {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        write_atomically(&path, &text).map_err(|e| e.to_string())
    });
    history.unsaved = false;
    autosave.written_dice = dice;
    match written {
        Ok(()) => autosave.error = None,
        Err(e) if autosave.error.as_ref() != Some(&e) => {
            warn!("autosave to {}: {e}", path.display());
            notice.0 = Some((format!("The game could not be autosaved to {}: {e}", path.display()), true));
            autosave.error = Some(e);
        }
        Err(_) => {}
    }
}
