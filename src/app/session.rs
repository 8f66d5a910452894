//! The game in progress as one value ([`Snapshot`]): captured after every change, for undo and
//! redo (`Ctrl+Z`, `Ctrl+Shift+Z`) and for the autosave, and put back on the map by [`restore`].
//! The autosave (`session_file`) writes it atomically beside the scenario, with the roll log and
//! the dice's position, and the next start restores it.

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::AppSystems;
use super::chase::ChaseMode;
use super::components::*;
use super::dice::{Inspiration, Session};
use super::fight::AttackMode;
use super::input::MapKeys;
use super::movement::{Dragging, TurnMoves};
use super::reactions::Reactions;
use super::state::{LoadedScenario, Notice, RedrawFrames, ScenarioChanged, Selection};
use super::turns::Turn;
use crate::rules::chase::Chases;
use crate::rules::conditions::{Condition, speed};
use crate::rules::economy::Economy;
use crate::rules::health::{DEATH_SAVES_TO_END, DeathSaves, Life};
use crate::rules::initiative::InitiativeOrder;
use crate::rules::movement::TurnMovement;
use crate::rules::siege::Crewing;
use crate::scenario::{Scenario, TokenKind};

pub mod file;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<History>()
        .add_message::<HistoryRequest>()
        .add_systems(
            Update,
            (
                forget_history.run_if(on_message::<ScenarioChanged>).in_set(AppSystems::Build),
                history_keys.in_set(AppSystems::Input),
                (choose_restore, restore_pending).chain().after(AppSystems::Apply).before(AppSystems::Show),
            ),
        )
        .add_systems(Last, (notice_changes, record_changes).chain());
    file::plugin(app);
}

/// The most steps kept to undo: a whole round of a big fight.
pub const MAX_UNDO: usize = 200;

/// Everything a change in play or in the editor can touch, by token id (entities change when the
/// map is rebuilt): the board as a scenario (terrain, and every token where it stands now with its
/// hit points, conditions and siege state), each token's turn, the initiative and the chase.
/// The dice and the roll log are not in it: undo never takes a roll back.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub board: Scenario,
    pub tokens: BTreeMap<String, TokenState>,
    pub turn: TurnState,
    pub initiative: InitiativeOrder,
    pub chase: Option<Chases>,
    pub awaiting_handover: bool,
}

/// What a token's entry in the scenario can't say: the turn it is in.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TokenState {
    pub economy: Economy,
    /// Movement this turn (creatures only).
    pub movement: Option<TurnMovement>,
    pub crawling: bool,
    pub dodging: bool,
    pub helped_against: Option<String>,
    pub helped_by: Option<String>,
    /// Hidden by the Hide action, with its Stealth total.
    pub stealth: Option<i32>,
    pub inspiration_spent: bool,
    /// A siege weapon's exact crewing (the scenario's `state` names only whole steps), the round
    /// and who worked it then.
    pub crewing: Option<Crewing>,
    pub siege_round: u32,
    pub crew_this_round: Vec<String>,
}

/// Whose turn it is, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TurnState {
    pub round: u32,
    pub active: Option<String>,
    pub movers: Vec<String>,
}

/// The snapshots to undo and redo, and the one the map shows now.
#[derive(Resource, Default)]
pub struct History {
    pub undo: Vec<Snapshot>,
    pub redo: Vec<Snapshot>,
    /// The state recorded last: what the map shows.
    pub current: Option<Snapshot>,
    /// A snapshot to put on the map after this frame's requests.
    pending: Option<Pending>,
    /// The map was just rebuilt from a snapshot: the next capture is taken as it is, not as a change.
    settling: bool,
    /// Something changed since the autosave last wrote.
    pub unsaved: bool,
    /// A component or resource a snapshot reads changed this frame.
    touched: bool,
}

struct Pending {
    snapshot: Snapshot,
    /// Also set the dice and the roll log (a session restored from its file).
    dice: Option<(u64, u128, crate::rules::dice::RollLog)>,
    notice: Option<String>,
}

impl History {
    /// Puts `snapshot` on the map as a new step (an edit): the state before it can be undone.
    pub fn apply_edit(&mut self, snapshot: Snapshot, notice: impl Into<String>) {
        if let Some(current) = self.take_latest() {
            self.push_undo(current);
        }
        self.redo.clear();
        self.pending = Some(Pending { snapshot, dice: None, notice: Some(notice.into()) });
    }

    /// The state the next step starts from: one waiting to be put on the map, else the one shown.
    pub fn latest(&self) -> Option<&Snapshot> {
        self.pending.as_ref().map(|p| &p.snapshot).or(self.current.as_ref())
    }

    /// Takes [`Self::latest`] out, to make a step from it.
    fn take_latest(&mut self) -> Option<Snapshot> {
        let current = self.current.take();
        self.pending.take().map(|p| p.snapshot).or(current)
    }

    fn push_undo(&mut self, snapshot: Snapshot) {
        self.undo.push(snapshot);
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
    }

    /// Restores a saved session: its snapshot, dice and log, as the state to start from.
    fn resume(&mut self, snapshot: Snapshot, seed: u64, position: u128, log: crate::rules::dice::RollLog) {
        *self = Self::default();
        let notice = "Restored the game in progress from its autosave (Reload in the bar starts the scene afresh)";
        self.pending = Some(Pending { snapshot, dice: Some((seed, position, log)), notice: Some(notice.to_owned()) });
    }
}

/// Undo and redo, from the keys and the bar.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryRequest {
    Undo,
    Redo,
}

/// `Ctrl+Z` undoes, `Ctrl+Shift+Z` (or `Ctrl+Y`) redoes.
fn history_keys(keys: MapKeys, mut requests: MessageWriter<HistoryRequest>) {
    if !keys.control() {
        return;
    }
    if keys.pressed(KeyCode::KeyY) || (keys.shift() && keys.pressed(KeyCode::KeyZ)) {
        requests.write(HistoryRequest::Redo);
    } else if keys.pressed(KeyCode::KeyZ) {
        requests.write(HistoryRequest::Undo);
    }
}

/// A new scenario starts a new history (and is autosaved as it starts).
fn forget_history(mut history: ResMut<History>) {
    *history = History { settling: true, unsaved: true, ..History::default() };
}

/// Whether a step is under way that ends as one change: a drag, a move waiting for its
/// reactions, or a stroke of the editor's brush. Nothing is recorded, undone or edited meanwhile.
pub(crate) fn step_under_way(
    dragging: &Dragging,
    reactions: &Reactions,
    editor: Option<&super::editor::Editor>,
) -> bool {
    dragging.0.is_some() || reactions.waiting() || editor.is_some_and(|e| e.stroke.is_some())
}

/// Picks the snapshot an undo or a redo goes back to; refused while a step is under way.
fn choose_restore(
    mut requests: MessageReader<HistoryRequest>,
    mut history: ResMut<History>,
    busy: (Res<Reactions>, Res<Dragging>, Option<Res<super::editor::Editor>>),
    mut notice: ResMut<Notice>,
) {
    let (reactions, dragging, editor) = busy;
    for request in requests.read() {
        if step_under_way(&dragging, &reactions, editor.as_deref()) {
            notice.0 = Some(("Finish the move, its reactions or the stroke first, then undo".to_owned(), true));
            continue;
        }
        let (popped, word) = match request {
            HistoryRequest::Undo => (history.undo.pop(), "Undid"),
            HistoryRequest::Redo => (history.redo.pop(), "Redid"),
        };
        let Some(snapshot) = popped else {
            let nothing = if *request == HistoryRequest::Undo { "Nothing to undo" } else { "Nothing to redo" };
            notice.0 = Some((nothing.to_owned(), false));
            continue;
        };
        // Two requests in one frame: the second starts from the first's snapshot.
        if let Some(current) = history.take_latest() {
            match request {
                HistoryRequest::Undo => history.redo.push(current),
                HistoryRequest::Redo => history.undo.push(current),
            }
        }
        let left = if *request == HistoryRequest::Undo { history.undo.len() } else { history.redo.len() };
        let text = format!("{word} the last change ({left} more; the dice and the roll log stay as rolled)");
        history.pending = Some(Pending { snapshot, dice: None, notice: Some(text) });
    }
}

/// Puts a chosen snapshot on the map.
fn restore_pending(world: &mut World) {
    let Some(pending) = world.resource_mut::<History>().pending.take() else { return };
    restore(world, &pending.snapshot);
    if let Some((seed, position, log)) = pending.dice
        && let Some(mut session) = world.get_resource_mut::<Session>()
    {
        session.dice = crate::rules::dice::SeededDice::resume(seed, position);
        session.log = log;
    }
    if let Some(text) = pending.notice {
        world.resource_mut::<Notice>().0 = Some((text, false));
    }
    let mut history = world.resource_mut::<History>();
    history.settling = true;
    history.unsaved = true;
}

/// The state of the map now.
pub fn capture(world: &mut World) -> Snapshot {
    let loaded = world.resource::<LoadedScenario>().scenario.clone();
    let mut board = loaded;
    let mut tokens = BTreeMap::new();
    let mut query = world.query::<(
        Entity,
        &TokenId,
        &Position,
        &Vitals,
        &HitPoints,
        &Combatant,
        (
            Option<&Facing>,
            Option<&Inspiration>,
            Has<Secret>,
            Option<&SiegeWeapon>,
            Option<&Actions>,
            Option<&TurnMoves>,
        ),
    )>();
    let ids: BTreeMap<Entity, String> = query.iter(world).map(|(e, id, ..)| (e, id.0.clone())).collect();
    for (_, id, position, vitals, hit_points, combatant, extras) in query.iter(world) {
        let (facing, inspiration, secret, siege, actions, moves) = extras;
        let Some(token) = board.tokens.iter_mut().find(|t| t.id == id.0) else { continue };
        token.anchor = position.0;
        token.ac = vitals.ac;
        token.speed = vitals.speed;
        token.exhaustion = vitals.exhaustion;
        let health = hit_points.0;
        token.hp = health.hp;
        token.max_hp = health.max_hp;
        token.temp_hp = health.temp_hp;
        token.makes_death_saves = health.makes_death_saves;
        token.death_saves = match health.life {
            Life::Dying => health.death_saves,
            Life::Stable => DeathSaves { successes: DEATH_SAVES_TO_END, failures: 0 },
            Life::Dead if health.makes_death_saves => DeathSaves { successes: 0, failures: DEATH_SAVES_TO_END },
            _ => DeathSaves::default(),
        };
        token.conditions = combatant.conditions.clone();
        token.facing = facing.map(|f| f.0).or(token.facing);
        if let Some(inspiration) = inspiration {
            token.inspiration = inspiration.has;
        }
        token.hidden = secret;
        if let Some(weapon) = siege {
            token.siege = Some(weapon.siege);
        }
        let name_of = |entity: Option<Entity>| entity.and_then(|e| ids.get(&e).cloned());
        tokens.insert(
            id.0.clone(),
            TokenState {
                economy: actions.map(|a| a.0.clone()).unwrap_or_default(),
                movement: moves.map(|m| m.turn.clone()),
                crawling: moves.is_some_and(|m| m.crawling),
                dodging: combatant.dodging,
                helped_against: combatant.helped_against.clone(),
                helped_by: name_of(combatant.helped_by),
                stealth: combatant.hidden,
                inspiration_spent: inspiration.is_some_and(|i| i.spent_on_next_roll),
                crewing: siege.map(|s| s.siege.crewing),
                siege_round: siege.map_or(0, |s| s.round),
                crew_this_round: siege.map(|s| s.crew_this_round.clone()).unwrap_or_default(),
            },
        );
    }
    let name_of = |entity: Entity| ids.get(&entity).cloned();
    let turn = world.resource::<Turn>();
    let turn = TurnState {
        round: turn.round,
        active: turn.active.and_then(name_of),
        movers: turn.movers.iter().filter_map(|e| name_of(*e)).collect(),
    };
    let initiative = world.get_resource::<Session>().map(|s| s.initiative.clone()).unwrap_or_default();
    let (chase, awaiting_handover) =
        world.get_resource::<ChaseMode>().map_or((None, false), |m| (m.chases.clone(), m.awaiting_handover));
    // The board keeps the static parts as loaded; the creatures' places are the live ones.
    board.tokens.retain(|t| tokens.contains_key(&t.id));
    // The scene's chase keeps its own copy of the local creature's sheet: as it is now.
    if let Some((id, sheet)) = board.chase.as_mut().and_then(|c| c.rules.local_creature.as_mut())
        && let Some(token) = board.tokens.iter().find(|t| t.id == *id)
    {
        *sheet = token.sheet();
    }
    Snapshot { board, tokens, turn, initiative, chase, awaiting_handover }
}

/// Rebuilds the map from `snapshot`: the board (terrain only if it differs), every token spawned
/// again from its entry, then each token's turn, whose turn it is, the initiative and the chase.
/// The selection is kept by id; a reaction prompt or a picked attack is dropped.
pub fn restore(world: &mut World, snapshot: &Snapshot) {
    let terrain_changed = {
        let mut loaded = world.resource_mut::<LoadedScenario>();
        let changed = loaded.scenario.map != snapshot.board.map;
        loaded.scenario = snapshot.board.clone();
        changed
    };
    let selected = world.resource::<Selection>().0.and_then(|e| world.get::<TokenId>(e).map(|id| id.0.clone()));
    if terrain_changed {
        run(world, super::board::build_board);
    }
    run(world, super::tokens::spawn_tokens);
    let mut query = world.query::<(Entity, &TokenId)>();
    let entities: BTreeMap<String, Entity> = query.iter(world).map(|(e, id)| (id.0.clone(), e)).collect();
    let entity_of = |id: &Option<String>| id.as_ref().and_then(|id| entities.get(id).copied());
    for token in &snapshot.board.tokens {
        let Some(&entity) = entities.get(&token.id) else { continue };
        let state = snapshot.tokens.get(&token.id).cloned().unwrap_or_default();
        let helped_by = entity_of(&state.helped_by);
        let mut entity = world.entity_mut(entity);
        entity.insert(Actions(state.economy));
        if token.kind == TokenKind::Creature {
            // The speed as the conditions and exhaustion give it now (the fight plugin keeps it so).
            let feet = speed(token.speed, &token.conditions, token.exhaustion).feet;
            let mut turn = state.movement.unwrap_or_else(|| TurnMovement::new(feet));
            turn.speed = feet;
            entity.insert(TurnMoves { turn, crawling: token.conditions.has(Condition::Prone) });
        }
        if token.player_character {
            entity.insert(Inspiration { has: token.inspiration, spent_on_next_roll: state.inspiration_spent });
        }
        if let Some(mut combatant) = entity.get_mut::<Combatant>() {
            combatant.dodging = state.dodging;
            combatant.helped_against = state.helped_against;
            combatant.helped_by = helped_by;
            combatant.hidden = state.stealth;
        }
        if let Some(mut weapon) = entity.get_mut::<SiegeWeapon>() {
            if let Some(crewing) = state.crewing {
                weapon.siege.crewing = crewing;
            }
            weapon.round = state.siege_round;
            weapon.crew_this_round = state.crew_this_round;
        }
    }
    *world.resource_mut::<Turn>() = Turn {
        round: snapshot.turn.round,
        active: entity_of(&snapshot.turn.active),
        movers: snapshot.turn.movers.iter().filter_map(|id| entities.get(id).copied()).collect(),
    };
    if let Some(mut session) = world.get_resource_mut::<Session>() {
        session.initiative = snapshot.initiative.clone();
    }
    if let Some(mut mode) = world.get_resource_mut::<ChaseMode>() {
        mode.restore_chases(snapshot.chase.clone(), snapshot.awaiting_handover);
    }
    world.resource_mut::<Selection>().0 = entity_of(&selected);
    *world.resource_mut::<Reactions>() = Reactions::default();
    if let Some(mut mode) = world.get_resource_mut::<AttackMode>() {
        *mode = AttackMode::default();
    }
    let mut redraw = world.resource_mut::<RedrawFrames>();
    redraw.0 = redraw.0.max(3);
}

/// Runs a system once on the world, with its commands applied.
fn run<M>(world: &mut World, system: impl IntoSystem<(), (), M> + 'static) {
    if let Err(e) = world.run_system_cached(system) {
        error!("rebuilding the map: {e}");
    }
}

/// The components and resources a snapshot reads.
type Watched = Or<(
    Changed<Position>,
    Changed<Vitals>,
    Changed<HitPoints>,
    Changed<Combatant>,
    Changed<Actions>,
    Changed<TurnMoves>,
    Changed<SiegeWeapon>,
    Changed<Facing>,
    Changed<Inspiration>,
    Added<Secret>,
)>;

/// Whether anything a snapshot reads changed this frame: a frame that changed nothing (a hover,
/// a redraw) takes no snapshot, so a big map pays nothing for undo while nothing happens.
#[allow(clippy::too_many_arguments)]
fn notice_changes(
    changed: Query<(), Watched>,
    mut unhidden: RemovedComponents<Secret>,
    loaded: Res<LoadedScenario>,
    turn: Res<Turn>,
    session: Option<Res<Session>>,
    chase: Option<Res<ChaseMode>>,
    editor: Option<Res<super::editor::Editor>>,
    mut history: ResMut<History>,
) {
    let resources = loaded.is_changed()
        || turn.is_changed()
        || session.is_some_and(|s| s.is_changed())
        || chase.is_some_and(|c| c.is_changed())
        || editor.is_some_and(|e| e.is_changed());
    let touched = resources || !changed.is_empty() || unhidden.read().count() > 0;
    if touched || history.current.is_none() {
        history.touched = true;
    }
}

/// Records the state after the frame's changes: a new state is a step to undo and is autosaved.
/// Nothing is recorded while a drag or a reaction prompt is under way (the step ends with it).
fn record_changes(world: &mut World) {
    let busy = step_under_way(
        world.resource::<Dragging>(),
        world.resource::<Reactions>(),
        world.get_resource::<super::editor::Editor>(),
    );
    let history = world.resource::<History>();
    if busy || history.pending.is_some() || !history.touched {
        return;
    }
    world.resource_mut::<History>().touched = false;
    let snapshot = capture(world);
    let mut history = world.resource_mut::<History>();
    if std::mem::take(&mut history.settling) {
        history.current = Some(snapshot);
        return;
    }
    if history.current.as_ref() == Some(&snapshot) {
        return;
    }
    if let Some(before) = history.current.replace(snapshot) {
        history.push_undo(before);
        history.redo.clear();
    }
    history.unsaved = true;
}
