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
use crate::app::core::history::MAX_TOKENS;
use crate::app::core::history::{History, SavedFog, SavedReactions, Snapshot, TokenState, TurnState};
use crate::app::core::messages::{DismissPinned, SaveScenario, ScenarioChanged};
use crate::app::core::notice::{Notice, Pinned, Said};
use crate::app::core::options::LaunchOptions;
use crate::app::core::pointer::MapKeys;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::LoadedScenario;
use crate::files::write_atomically;
use crate::rules::bounded::at_most_entries;
use crate::rules::chase::Chases;
use crate::rules::dice::SeededDice;
use crate::rules::initiative::InitiativeOrder;
use crate::rules::log::{LogEntry, RollLog};
use crate::scenario::{MAX_FILE_BYTES, Scenario, ScenarioErrors, TokenKind, effect_problems};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Autosave>()
        .add_systems(Update, save_key.in_set(AppSystems::Input))
        .add_systems(Update, dismiss_pinned.in_set(AppSystems::Follow))
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

/// The most rolls a game may have made ([`crate::rules::log::MAX_ROLLS`]: its journal stays
/// under [`journal::MAX_JOURNAL_BYTES`], and a session file of format 1 under
/// [`MAX_SESSION_BYTES`]).
const MAX_LOG: usize = crate::rules::log::MAX_ROLLS;

/// The largest number a saved turn may hold for a total rolled (initiative, a Stealth check):
/// far past any a d20 and a bonus reach.
const MAX_TOTAL: u32 = 1000;

/// The largest session file read, in bytes (one of format 1 holds its roll log).
const MAX_SESSION_BYTES: u64 = 128 * 1024 * 1024;

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
    /// Where the game is autosaved: the session file's place, or another when that can't be
    /// used.
    pub path: Option<PathBuf>,
    /// The session file's place for the scenario open.
    asked: Option<PathBuf>,
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
    #[serde(deserialize_with = "at_most_entries::<_, _, _, MAX_TOKENS>")]
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

/// A session file as format 1 wrote it: the roll log in place of its count and digest.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FormatOne {
    /// 1, read to be known.
    #[serde(rename = "format")]
    _one: u32,
    scenario_file: Option<PathBuf>,
    scenario_digest: u64,
    board: String,
    #[serde(deserialize_with = "at_most_entries::<_, _, _, MAX_TOKENS>")]
    tokens: BTreeMap<String, TokenState>,
    turn: TurnState,
    initiative: InitiativeOrder,
    seed: u64,
    dice_position: u128,
    log: RollLog,
    #[serde(default)]
    chase: Option<Chases>,
    #[serde(default)]
    awaiting_handover: bool,
    #[serde(default)]
    reactions: SavedReactions,
    #[serde(default)]
    fog: SavedFog,
}

impl FormatOne {
    /// The session file it is now, and its log.
    fn now(self) -> (SessionFile, RollLog) {
        let file = SessionFile {
            format: FORMAT,
            scenario_file: self.scenario_file,
            scenario_digest: self.scenario_digest,
            board: self.board,
            tokens: self.tokens,
            turn: self.turn,
            initiative: self.initiative,
            seed: self.seed,
            dice_position: self.dice_position,
            rolls: self.log.entries.len(),
            log_digest: journal::EMPTY_DIGEST,
            chase: self.chase,
            awaiting_handover: self.awaiting_handover,
            reactions: self.reactions,
            fog: self.fog,
        };
        (file, self.log)
    }
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

    /// Reads and checks a session file before any of it is used: every list is bounded as it is
    /// read, the board is validated as a scenario, and everything else by the same rules
    /// ([`Self::check`]). The roll log comes with a session file of format 1
    /// ([`Saved::inline_log`]); a later one only names its rolls, which [`journal::read`] reads
    /// from the journal. A UTF-8 byte-order mark at its start is skipped, as a scenario's is.
    pub fn load(path: &Path) -> Result<Saved, SessionError> {
        use std::io::Read;
        let file = path.to_path_buf();
        let unreadable = |e: std::io::Error| SessionError::Unreadable { file: file.clone(), error: e.to_string() };
        // Looked at before it is opened: opening a FIFO with no writer waits forever.
        if !std::fs::metadata(path).map_err(unreadable)?.is_file() {
            let error = "it is not a regular file (a directory, a pipe or a device)".to_owned();
            return Err(SessionError::Unreadable { file, error });
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(unreadable)?
            .take(MAX_SESSION_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        if bytes.len() as u64 > MAX_SESSION_BYTES {
            return Err(SessionError::TooLarge { file });
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let error = format!("byte {} is not UTF-8 text", e.utf8_error().valid_up_to() + 1);
            SessionError::Unreadable { file: file.clone(), error }
        })?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let not_json = |e: serde_json::Error| SessionError::not_json(&file, &e);
        /// The version alone, whatever else the file holds.
        #[derive(Deserialize)]
        struct Version {
            format: u32,
        }
        let (mut saved, inline_log) = match serde_json::from_str::<Version>(text).map_err(not_json)?.format {
            FORMAT => (serde_json::from_str::<SessionFile>(text).map_err(not_json)?, None),
            1 => {
                let (saved, log) = serde_json::from_str::<FormatOne>(text).map_err(not_json)?.now();
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

    /// Everything but the board (which is a scenario, and checked as one) by the rules play
    /// keeps to: every id is a token of the board, one initiative entry per token; the rounds,
    /// the log, the dice's position, each token's turn (movement, its moves, actions, a Stealth
    /// total, a weapon's crewing and round) and the prompts within bounds; each creature's
    /// effects checked as a scenario's are (`scenario::effect_problems`) and where they stand
    /// (`Effects::checked`, which also sets the numbers the next effect takes).
    fn check(&mut self, board: &Scenario) -> Result<(), Unplayable> {
        let known = |id: &String| board.token(id).is_some();
        let unknown = self
            .tokens
            .keys()
            .chain(self.turn.active.iter())
            .chain(&self.turn.movers)
            .chain(self.initiative.entries.iter().map(|e| &e.id))
            .chain(self.tokens.values().flat_map(|s| s.helped_by.iter().chain(s.helped_against.iter())))
            .chain(self.tokens.values().flat_map(|s| s.crew_this_round.iter().map(|c| &c.who)))
            .chain(self.reactions.ids())
            .find(|id| !known(id));
        if let Some(id) = unknown {
            return Err(Unplayable::UnknownToken(id.clone()));
        }
        let mut placed = std::collections::BTreeSet::new();
        if let Some(twice) = self.initiative.entries.iter().find(|e| !placed.insert(&e.id)) {
            return Err(Unplayable::InitiativeTwice(twice.id.clone()));
        }
        let far_total = |n: i32| n.unsigned_abs() > MAX_TOTAL;
        if self.initiative.entries.iter().any(|e| far_total(e.initiative) || far_total(e.tiebreak)) {
            return Err(Unplayable::InitiativeOutOfBounds);
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
            let far = path.cost > 100_000
                || path.cells().into_iter().any(far_cell)
                || stopped.offers.iter().any(|o| far_cell(o.at) || far_cell(o.leaving_to));
            if far {
                return Err(Unplayable::PromptOutOfBounds);
            }
        }
        let is_creature = |id: &str| board.token(id).is_some_and(|t| t.kind == TokenKind::Creature);
        for (id, state) in &mut self.tokens {
            let Some(token) = board.token(id) else { continue };
            let movement = state.movement.as_ref();
            let far = movement.is_some_and(|m| {
                m.speed > 10_000
                    || m.dashes > 100
                    || m.spent > 1_000_000
                    || m.moves.iter().any(|r| far_cell(r.from) || far_cell(r.to) || r.cost > 100_000)
            });
            let crewing = match (state.crewing, &token.siege) {
                (None, _) => true,
                (Some(crewing), Some(siege)) => {
                    let stats = siege.kind.stats();
                    crewing.loaded <= stats.load_actions && crewing.aimed <= stats.aim_actions
                }
                (Some(_), None) => false,
            };
            if far || !crewing || state.stealth.is_some_and(far_total) || state.siege_round > 1_000_000 {
                return Err(Unplayable::TurnOutOfBounds(id.clone()));
            }
            if let Some(effects) = state.effects.take() {
                let why = |why: String| Unplayable::Effects { id: id.clone(), why };
                if token.kind != TokenKind::Creature && !effects.is_empty() {
                    return Err(why("only a creature carries effects".to_owned()));
                }
                let effects = effects.checked().map_err(|e| why(e.to_string()))?;
                let list: Vec<_> = effects.list.iter().map(|l| l.effect.clone()).collect();
                if let Some((_, problem)) = effect_problems(&token.name, &list, is_creature).into_iter().next() {
                    return Err(why(problem));
                }
                state.effects = Some(effects);
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

impl SessionError {
    /// A file that isn't the JSON of a session file, where and why (the position said once).
    fn not_json(file: &Path, e: &serde_json::Error) -> Self {
        let said = e.to_string();
        let position = format!(" at line {} column {}", e.line(), e.column());
        let error = said.strip_suffix(&position).unwrap_or(&said).to_owned();
        SessionError::NotJson { file: file.to_path_buf(), line: e.line(), column: e.column(), error }
    }
}

/// What in a session file play can't go on from.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Unplayable {
    #[error("{0:?} is not a token of the board")]
    UnknownToken(String),
    #[error("{0:?} has two places in the initiative")]
    InitiativeTwice(String),
    #[error("the initiative holds numbers no roll reaches")]
    InitiativeOutOfBounds,
    #[error("{id:?}'s effects: {why}")]
    Effects { id: String, why: String },
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

/// Takes the notices the user dismissed off the screen.
fn dismiss_pinned(mut dismissed: MessageReader<DismissPinned>, mut pinned: ResMut<Pinned>) {
    let mut gone: Vec<usize> = dismissed.read().map(|d| d.0).collect();
    gone.sort_unstable();
    gone.dedup();
    for index in gone.into_iter().rev() {
        if index < pinned.0.len() {
            pinned.0.remove(index);
        }
    }
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
    said: (ResMut<Notice>, ResMut<Pinned>),
) {
    let (mut notice, mut pinned) = said;
    let options = options.map(|o| o.clone()).unwrap_or_default();
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
                    // The game goes on in that file's session file, its journal written anew: a
                    // game autosaved there before is kept aside, not written over.
                    let asked = options.session.file_for(Some(&path), options.state_directory.as_deref());
                    autosave.go_to(asked.clone());
                    if let Some(asked) = asked {
                        let kept = autosave.set_aside(&[&asked, &journal_path(&asked)], &options, &mut pinned);
                        if !kept.is_empty() {
                            pinned.pin(Said::EarlierAutosaveKept { kept });
                        }
                    }
                    loaded.source = Some(path);
                }
            }
            Err(e) => notice.say(Said::CouldNotSave { path, error: e.to_string() }),
        }
    }
}

/// On a new scenario, finds its session file and restores the game saved there with its roll
/// log; reading the same scenario again (Reload) starts it afresh, and the autosave then
/// overwrites the old game. Nothing there is ever written over unread: a session file that
/// doesn't load and its journal, a link to nowhere in its place, a journal with no session file,
/// a journal that can't give the whole log or holds more, are each kept aside first
/// ([`keep_aside`]), and the game is autosaved elsewhere if they can't be. What can't be restored
/// is pinned on the screen ([`Pinned`]).
fn find_session_file(
    options: Option<Res<LaunchOptions>>,
    loaded: Res<LoadedScenario>,
    mut autosave: ResMut<Autosave>,
    mut history: ResMut<History>,
    mut pinned: ResMut<Pinned>,
) {
    let options = options.map(|o| o.clone()).unwrap_or_default();
    let asked = options.session.file_for(loaded.source.as_deref(), options.state_directory.as_deref());
    autosave.written_dice = (usize::MAX, 0);
    autosave.digest = scenario_text(loaded.source.as_deref()).map_or(0, |text| digest(&text));
    if asked.is_some() && asked == autosave.asked {
        // Reloaded: the game starts afresh where it was autosaved.
        autosave.journal = autosave.path.as_deref().map(|p| Journal::new(journal_path(p)));
        return;
    }
    autosave.go_to(asked.clone());
    let Some(path) = asked else { return };
    let journal_file = journal_path(&path);
    let set = [path.as_path(), journal_file.as_path()];
    if let Some(target) = broken_link(&path) {
        let kept = autosave.set_aside(&set, &options, &mut pinned);
        pinned.pin(Said::SessionLinkBroken { link: path, target, kept });
        return;
    }
    if std::fs::symlink_metadata(&path).is_err() {
        // No game to restore. A journal without its session file (one the user deleted to start
        // afresh) still holds rolls: it is kept, not written over (an empty one holds nothing).
        if std::fs::symlink_metadata(&journal_file).is_ok_and(|m| !m.is_file() || m.len() > 0) {
            let kept = autosave.set_aside(&set[1..], &options, &mut pinned);
            if let Some(aside) = kept.into_iter().next() {
                pinned.pin(Said::JournalWithoutGame { file: journal_file, aside });
            }
        }
        return;
    }
    let restored = SessionFile::load(&path).and_then(|saved| {
        if saved.file.scenario_digest == autosave.digest {
            Ok(saved)
        } else {
            Err(SessionError::OtherScenario { file: path.clone() })
        }
    });
    let Saved { file, snapshot, inline_log } = match restored {
        Ok(saved) => saved,
        Err(e) => {
            warn!("{e}");
            let kept = autosave.set_aside(&set, &options, &mut pinned);
            pinned.pin(Said::AutosaveNotRestored { error: e.to_string(), kept });
            return;
        }
    };
    let mut also = None;
    let entries = match inline_log {
        // Format 1 kept its log inside: the first autosave writes its journal (a file there now
        // is not the game's, and is kept aside first).
        Some(log) => {
            if std::fs::symlink_metadata(&journal_file).is_ok()
                && let Some(aside) = autosave.set_aside(&set[1..], &options, &mut pinned).into_iter().next()
            {
                pinned.pin(Said::JournalWithoutGame { file: journal_file, aside });
            }
            log.entries
        }
        None => {
            let back = journal::read(&journal_file, file.rolls, file.log_digest);
            if back.loss.is_none() && back.mended.is_none() && back.past == 0 {
                // Writing goes on after the game's last roll (a torn line after it is cut off).
                let last = back.entries.last().cloned();
                autosave.journal = Some(Journal::resume(journal_file, back.end, last));
            } else {
                // The journal is written anew: what is there now is kept aside first.
                let aside = autosave.set_aside(&set[1..], &options, &mut pinned).into_iter().next();
                let rolls = file.rolls;
                match (back.loss, back.mended) {
                    (Some(why), _) => {
                        warn!("the roll log of {}: {why:?}", path.display());
                        let kept = back.entries.len();
                        pinned.pin(Said::RollLogCut { file: journal_file, kept, rolls, why, aside });
                    }
                    (None, Some(how)) => pinned.pin(Said::RollLogMended { file: journal_file, rolls, how, aside }),
                    (None, None) => also = aside.map(|aside| Said::RollsPastTheAutosave { rolls: back.past, aside }),
                }
            }
            back.entries
        }
    };
    let log = RollLog { seed: file.seed, entries };
    history.resume(snapshot, file.seed, file.dice_position, log, also);
}

/// The most sets of files kept aside beside one session file's place.
const MAX_KEPT: u32 = 1000;

/// Moves each of `files` that is there (a session file and its journal: a set) aside under the
/// same free name: `NAME.old`, else `NAME.old2`, `NAME.old3`, ..., the first number that no file
/// of the set has (whatever is there: a file, a directory, a link), so that nothing kept before
/// is ever replaced. Returns where they went, and why one couldn't go.
pub fn keep_aside(files: &[&Path]) -> (Vec<PathBuf>, Option<std::io::Error>) {
    let aside = |file: &Path, n: u32| {
        let mut name = file.as_os_str().to_owned();
        name.push(if n == 1 { ".old".to_owned() } else { format!(".old{n}") });
        PathBuf::from(name)
    };
    let there = |file: &Path| std::fs::symlink_metadata(file).is_ok();
    let Some(n) = (1..=MAX_KEPT).find(|&n| !files.iter().any(|f| there(&aside(f, n)))) else {
        let error = std::io::Error::other(format!("{MAX_KEPT} earlier ones are kept aside there already"));
        return (Vec::new(), Some(error));
    };
    let mut kept = Vec::new();
    for file in files.iter().filter(|f| there(f)) {
        let to = aside(file, n);
        match std::fs::rename(file, &to) {
            Ok(()) => kept.push(to),
            Err(error) => return (kept, Some(error)),
        }
    }
    (kept, None)
}

/// Where the symbolic link at `path` points, if it leads to nothing (a missing file, or a loop
/// of links).
fn broken_link(path: &Path) -> Option<PathBuf> {
    let link = std::fs::symlink_metadata(path).ok()?;
    if !link.file_type().is_symlink() || std::fs::metadata(path).is_ok() {
        return None;
    }
    Some(std::fs::read_link(path).unwrap_or_default())
}

/// A free session file in the user's state directory `state` for a game whose own place
/// `asked` can't be used: named after it, with a digest of its whole path (short, whatever the
/// length of the name asked for), and numbered past any there (with its journal).
fn elsewhere(state: Option<&Path>, asked: &Path) -> Option<PathBuf> {
    let state = state?;
    let name = asked.file_name()?.to_string_lossy().into_owned();
    let stem: String = name.strip_suffix(".session.json").unwrap_or(&name).chars().take(60).collect();
    let tag = digest(&asked.to_string_lossy());
    let free = |p: &Path| std::fs::symlink_metadata(p).is_err();
    (1..=MAX_KEPT)
        .map(|n| if n == 1 { format!("{stem}-{tag:016x}") } else { format!("{stem}-{tag:016x}-{n}") })
        .map(|name| state.join(format!("{name}.session.json")))
        .find(|file| free(file) && free(&journal_path(file)))
}

impl Autosave {
    /// The game is autosaved to `asked` (`None`: not at all), its journal written anew.
    fn go_to(&mut self, asked: Option<PathBuf>) {
        self.journal = asked.as_deref().map(|p| Journal::new(journal_path(p)));
        self.path.clone_from(&asked);
        self.asked = asked;
    }

    /// Keeps `files` aside ([`keep_aside`]) before the autosave writes where they are; if they
    /// can't be, the game is autosaved elsewhere ([`elsewhere`]) and that is pinned on screen.
    /// Returns where they went.
    fn set_aside(&mut self, files: &[&Path], options: &LaunchOptions, pinned: &mut Pinned) -> Vec<PathBuf> {
        let (kept, failed) = keep_aside(files);
        if let Some(error) = failed {
            let asked = files.first().map_or_else(PathBuf::new, |f| f.to_path_buf());
            warn!("{} could not be kept aside: {error}", asked.display());
            let now = elsewhere(options.state_directory.as_deref(), &asked);
            self.journal = now.as_deref().map(|p| Journal::new(journal_path(p)));
            self.path.clone_from(&now);
            pinned.pin(Said::AutosaveElsewhere { asked, now, error: error.to_string() });
        }
        kept
    }
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
    mut pinned: ResMut<Pinned>,
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
            pinned.pin(Said::AutosaveFailed { path: path.clone(), error: e.clone() });
            autosave.error = Some(e);
        }
        Err(_) => {}
    }
}
