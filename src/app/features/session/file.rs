//! The autosave: the game in progress written atomically to a session file beside its scenario
//! (`NAME.session.json`) after every change, with the dice's seed and position and how many rolls
//! the game made; the rolls themselves are appended to the roll log's journal
//! (`NAME.session.rolls.jsonl`, [`super::journal`]) first. Both are read back on the next start.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::journal::{self, Journal, JournalEnd, journal_path};
use crate::app::core::dice::{Dice, RollRecord};
use crate::app::core::history::{History, SavedFog, SavedReactions, Snapshot, TokenState, TurnState};
use crate::app::core::messages::{SaveScenario, ScenarioChanged};
use crate::app::core::notice::{Notice, Said};
use crate::app::core::options::LaunchOptions;
use crate::app::core::pointer::MapKeys;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::LoadedScenario;
use crate::files::write_atomically;
use crate::rules::chase::Chases;
use crate::rules::dice::SeededDice;
use crate::rules::initiative::InitiativeOrder;
use crate::rules::log::{LogEntry, RollLog};
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

/// The version of the session file's layout: 2 keeps the roll log in its journal; 1 kept it in
/// the session file, and is still read.
const FORMAT: u32 = 2;

/// The most rolls a game may have made: far past an evening's, or a campaign's (a roll is about
/// 200 bytes, so its journal stays under [`journal::MAX_JOURNAL_BYTES`], and a session file of
/// format 1 under [`MAX_SESSION_BYTES`]).
const MAX_LOG: usize = 300_000;

/// The largest session file read, in bytes (one of format 1 holds its roll log).
const MAX_SESSION_BYTES: u64 = 128 * 1024 * 1024;

/// The most steps, offers or readied actions a saved reaction prompt may hold.
const MAX_PROMPT: usize = 10_000;

/// A digest of a scenario's text (64-bit FNV-1a: the same on every build, unlike std's hasher).
pub fn digest(text: &str) -> u64 {
    journal::digest_on(journal::EMPTY_DIGEST, text.as_bytes())
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
    /// The roll log's journal beside the session file.
    journal: Option<Journal>,
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
    /// The dice's seed (the roll log's too).
    pub seed: u64,
    /// How far the dice's generator is into its stream.
    pub dice_position: u128,
    /// How many rolls the game made: the first `rolls` lines of its journal.
    pub rolls: usize,
    /// The digest of those lines ([`journal::digest_on`]): another game's journal, or a damaged
    /// one, is not taken for this game's.
    pub log_digest: u64,
    /// A chase in progress, and whether the screen waits to be handed over.
    #[serde(default)]
    pub chase: Option<Chases>,
    #[serde(default)]
    pub awaiting_handover: bool,
    /// The reaction prompts waiting when it was written.
    #[serde(default, skip_serializing_if = "SavedReactions::is_empty")]
    pub reactions: SavedReactions,
    /// The fog of war: the cells the party explored and the DM's marks.
    #[serde(default, skip_serializing_if = "SavedFog::is_empty")]
    pub fog: SavedFog,
}

/// A session file read back and checked.
#[derive(Debug)]
pub struct Saved {
    pub file: SessionFile,
    /// The game it holds.
    pub snapshot: Snapshot,
    /// The roll log a session file of format 1 held itself (a later one's is in its journal).
    pub inline_log: Option<RollLog>,
}

impl SessionFile {
    /// The session file of `snapshot`, played from the scenario file `source` whose text had
    /// `digest`, with the dice as they are and the journal's rolls up to `journal`.
    pub fn new(
        snapshot: &Snapshot,
        source: Option<&Path>,
        digest: u64,
        dice: &SeededDice,
        journal: &JournalEnd,
    ) -> Self {
        Self {
            format: FORMAT,
            scenario_file: source.map(Path::to_path_buf),
            scenario_digest: digest,
            board: snapshot.board.to_ron(),
            tokens: snapshot.tokens.clone(),
            turn: snapshot.turn.clone(),
            initiative: snapshot.initiative.clone(),
            seed: dice.seed,
            dice_position: dice.position(),
            rolls: journal.rolls,
            log_digest: journal.digest,
            chase: snapshot.chase.clone(),
            awaiting_handover: snapshot.awaiting_handover,
            reactions: snapshot.reactions.clone(),
            fog: snapshot.fog.clone(),
        }
    }

    /// Reads and checks a session file: the board is validated as a scenario, and every id it
    /// names is one of the board's. The roll log comes with a session file of format 1
    /// ([`Saved::inline_log`]); a later one only names its rolls, which [`journal::read`] reads
    /// from the journal.
    pub fn load(path: &Path) -> Result<Saved, SessionError> {
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
        let not_json = |e: serde_json::Error| SessionError::NotJson {
            file: file.clone(),
            line: e.line(),
            column: e.column(),
            error: e.to_string(),
        };
        /// The version alone, whatever else the file holds.
        #[derive(Deserialize)]
        struct Version {
            format: u32,
        }
        let (saved, inline_log) = match serde_json::from_str::<Version>(&text).map_err(not_json)?.format {
            FORMAT => (serde_json::from_str::<SessionFile>(&text).map_err(not_json)?, None),
            1 => {
                // Format 1: the same, with the log in place of its count and digest (which a
                // journal needs, and an inline log doesn't).
                let mut value: serde_json::Value = serde_json::from_str(&text).map_err(not_json)?;
                let log = value.as_object_mut().and_then(|o| o.remove("log")).unwrap_or_default();
                let log: Option<RollLog> = serde_json::from_value(log).map_err(not_json)?;
                let rolls = log.as_ref().map_or(0, |l| l.entries.len());
                if let Some(fields) = value.as_object_mut() {
                    fields.insert("format".into(), FORMAT.into());
                    fields.insert("rolls".into(), rolls.into());
                    fields.insert("log_digest".into(), journal::EMPTY_DIGEST.into());
                }
                let saved = serde_json::from_value::<SessionFile>(value).map_err(not_json)?;
                let log = log.ok_or_else(|| not_json(serde::de::Error::missing_field("log")))?;
                (saved, Some(log))
            }
            format => return Err(SessionError::OtherVersion { file, format }),
        };
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
            reactions: saved.reactions.clone(),
            fog: saved.fog.clone(),
        };
        Ok(Saved { file: saved, snapshot, inline_log })
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
            .chain(self.reactions.ids())
            .find(|id| !known(id));
        if let Some(id) = unknown {
            return Err(Unplayable::UnknownToken(id.clone()));
        }
        self.fog.on(&board.map)?;
        if self.initiative.current.is_some_and(|i| i >= self.initiative.entries.len()) {
            return Err(Unplayable::CurrentPastTheOrder);
        }
        if self.initiative.round.max(self.turn.round) > 1_000_000 {
            return Err(Unplayable::RoundTooFar);
        }
        if self.rolls > MAX_LOG {
            return Err(Unplayable::LogTooLong);
        }
        if self.dice_position >= 1 << 68 {
            return Err(Unplayable::DicePastTheirStream);
        }
        let far_cell = |c: crate::rules::Cell| c.x.unsigned_abs() > 1000 || c.y.unsigned_abs() > 1000;
        if let Some(stopped) = &self.reactions.interrupted {
            let path = &stopped.rest;
            let far = stopped.offers.len().max(stopped.offered.len()).max(path.steps.len()) > MAX_PROMPT
                || path.cost > 100_000
                || path.cells().into_iter().any(far_cell)
                || stopped.offers.iter().any(|o| far_cell(o.at) || far_cell(o.leaving_to));
            if far {
                return Err(Unplayable::PromptOutOfBounds);
            }
        }
        if self.reactions.readied.len() > MAX_PROMPT {
            return Err(Unplayable::PromptOutOfBounds);
        }
        for (id, state) in &self.tokens {
            let movement = state.movement.as_ref();
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
    #[error("the reaction prompt waiting holds numbers play can't reach")]
    PromptOutOfBounds,
    #[error("the dice's position is past the generator's stream")]
    DicePastTheirStream,
    #[error("{0:?}'s turn holds numbers play can't reach")]
    TurnOutOfBounds(String),
    #[error("{0}")]
    Chase(Box<crate::rules::chase::SavedChaseError>),
    #[error("{0}")]
    Fog(#[from] crate::app::core::history::FogMisfit),
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
                    // The game goes on in another session file: its journal is written anew.
                    autosave.journal = autosave.path.as_deref().map(|p| Journal::new(journal_path(p)));
                    loaded.source = Some(path);
                    history.unsaved = true;
                }
            }
            Err(e) => notice.say(Said::CouldNotSave { path, error: e.to_string() }),
        }
    }
}

/// On a new scenario, finds its session file and restores the game saved there with its roll log;
/// reading the same scenario again (Reload) starts it afresh, and the autosave then overwrites the
/// old game. A journal that can't give the whole log gives what it can: the game comes back, the
/// journal is kept aside, and the next autosave writes the rolls kept.
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
    autosave.journal = autosave.path.as_deref().map(|p| Journal::new(journal_path(p)));
    autosave.written_dice = (usize::MAX, 0);
    autosave.digest = scenario_text(loaded.source.as_deref()).map_or(0, |text| digest(&text));
    let Some(path) = autosave.path.clone().filter(|p| !reloaded && p.exists()) else { return };
    let restored = SessionFile::load(&path).and_then(|saved| {
        if saved.file.scenario_digest == autosave.digest {
            Ok(saved)
        } else {
            Err(SessionError::OtherScenario { file: path.clone() })
        }
    });
    let journal_file = journal_path(&path);
    match restored {
        Ok(Saved { file, snapshot, inline_log }) => {
            let (log, cut) = match inline_log {
                // Format 1: the first autosave writes its journal.
                Some(log) => (log, None),
                None => {
                    let back = journal::read(&journal_file, file.rolls, file.log_digest);
                    let cut = match back.loss {
                        None => {
                            let last = back.entries.last().cloned();
                            autosave.journal = Some(Journal::resume(journal_file, back.end, last));
                            None
                        }
                        Some(why) => {
                            warn!("the roll log of {}: {why:?}", path.display());
                            let aside = keep_aside(&journal_file, "jsonl.old");
                            let kept = back.entries.len();
                            Some(Said::RollLogCut { file: journal_file, kept, rolls: file.rolls, why, aside })
                        }
                    };
                    (RollLog { seed: file.seed, entries: back.entries }, cut)
                }
            };
            history.resume(snapshot, file.seed, file.dice_position, log, cut);
        }
        Err(e) => {
            // Kept aside, not overwritten by the new game's autosave; its journal with it.
            let kept = keep_aside(&path, "json.old");
            keep_aside(&journal_file, "jsonl.old");
            warn!("{e}");
            notice.say(Said::AutosaveNotRestored { error: e.to_string(), kept });
        }
    }
}

/// Renames `path`, if there is anything there, with the extension `old`; says where it went.
fn keep_aside(path: &Path, old: &str) -> Option<PathBuf> {
    let aside = path.with_extension(old);
    std::fs::symlink_metadata(path).ok()?;
    std::fs::rename(path, &aside).ok().map(|()| aside)
}

/// Writes the game to the session file `path` and its rolls to `journal`: first the rolls the
/// journal lacks, appended and flushed to the disk, then the session file naming how many rolls
/// there are and the dice's position, written atomically. So a kill at any moment leaves the
/// last session file whole, and every roll it names in the journal (rolls past them are left out
/// when it is read back). A roll costs an append of its line and the session file, whatever the
/// length of the log (docs/performance.md).
pub fn write_game(
    path: &Path,
    journal: &mut Journal,
    snapshot: &Snapshot,
    source: Option<&Path>,
    digest: u64,
    dice: &SeededDice,
    log: &[LogEntry],
) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let end = journal.write(log)?;
    let file = SessionFile::new(snapshot, source, digest, dice, &end);
    let text = serde_json::to_string(&file).map_err(std::io::Error::other)?;
    write_atomically(path, &text)
}

/// Writes the session file and the journal after a change or a roll: the game as it stands, the
/// middle of a step included while a reaction prompt waits.
fn write_autosave(
    mut autosave: ResMut<Autosave>,
    mut history: ResMut<History>,
    rolls: (Res<Dice>, Res<RollRecord>),
    loaded: Res<LoadedScenario>,
    mut notice: ResMut<Notice>,
) {
    let (dice, log) = rolls;
    let Some(path) = autosave.path.clone() else { return };
    let Some(current) = history.waiting.as_ref().or(history.current.as_ref()) else { return };
    let written_dice = (log.0.entries.len(), dice.0.position());
    if !history.unsaved && written_dice == autosave.written_dice {
        return;
    }
    let digest = autosave.digest;
    let journal_file = journal_path(&path);
    let journal = match &mut autosave.journal {
        Some(journal) if journal.path() == journal_file => journal,
        slot => slot.insert(Journal::new(journal_file)),
    };
    let written = write_game(&path, journal, current, loaded.source.as_deref(), digest, &dice.0, &log.0.entries);
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
