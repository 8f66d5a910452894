//! The game in progress as one value (`core::history::Snapshot`): captured after every change, for
//! undo and redo (`Ctrl+Z`, `Ctrl+Shift+Z`) and for the autosave, and put back on the map by
//! [`restore`]. The autosave ([`file`]) writes it atomically beside the scenario with the dice's
//! position, appends each new roll to the roll log's journal ([`journal`]), and the next start
//! restores both. While a reaction prompt waits, the game as it stands is autosaved with the
//! prompt, though the step to undo ends only when the prompt is answered.

use std::collections::BTreeMap;

use bevy::ecs::query::QueryData;
use bevy::prelude::*;

use crate::app::core::chase::ChaseRun;
use crate::app::core::components::*;
use crate::app::core::dice::{Dice, RollRecord};
use crate::app::core::history::{
    History, Pending, SavedFog, SavedInterruption, SavedReactions, SavedReadied, Snapshot, TokenState, TurnState,
};
use crate::app::core::layout::{BoardLayout, MapLayout};
use crate::app::core::messages::{HistoryRequest, Restored, ScenarioChanged, TerrainEdited};
use crate::app::core::notice::{Notice, Said};
use crate::app::core::pointer::MapKeys;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{
    Interrupted, LoadedScenario, PartySight, Reactions, ReadiedOffer, RedrawFrames, Selection, StepUnderWay,
};
use crate::app::core::tokens::{TokenIndex, spawn_all};
use crate::app::core::turns::Turns;
use crate::rules::conditions::{Condition, speed};
use crate::rules::movement::TurnMovement;
use crate::scenario::TokenKind;

pub mod file;
pub mod journal;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            forget_history.run_if(on_message::<ScenarioChanged>).in_set(AppSystems::Build),
            history_keys.in_set(AppSystems::Input),
            (choose_restore, restore_pending).chain().in_set(AppSystems::Follow),
        ),
    )
    .add_systems(Last, (notice_changes, record_changes).chain());
    file::plugin(app);
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

/// Picks the snapshot an undo or a redo goes back to; refused while a step is under way.
fn choose_restore(
    mut requests: MessageReader<HistoryRequest>,
    mut history: ResMut<History>,
    busy: (Res<StepUnderWay>, Res<Reactions>),
    mut notice: ResMut<Notice>,
) {
    let (step, reactions) = busy;
    for request in requests.read() {
        let (redo, under_way) = (*request == HistoryRequest::Redo, step.any(&reactions));
        // The bar's buttons are enabled by the same question.
        if !history.can_restore(redo, under_way) {
            notice.say(if under_way { Said::FinishTheStepFirst } else { Said::NothingTo { redo } });
            continue;
        }
        let popped = if redo { history.redo.pop() } else { history.undo.pop() };
        let Some(snapshot) = popped else { continue };
        // Two requests in one frame: the second starts from the first's snapshot.
        if let Some(current) = history.take_latest() {
            if redo { history.undo.push(current) } else { history.redo.push(current) }
        }
        let left = if redo { history.redo.len() } else { history.undo.len() };
        history.pending = Some(Pending { snapshot, dice: None, said: Some(Said::Undid { redo, left }) });
    }
}

/// Puts a chosen snapshot on the map.
fn restore_pending(world: &mut World) {
    let Some(pending) = world.resource_mut::<History>().pending.take() else { return };
    restore(world, &pending.snapshot);
    if let Some((seed, position, log)) = pending.dice {
        world.resource_mut::<Dice>().0 = crate::rules::dice::SeededDice::resume(seed, position);
        world.resource_mut::<RollRecord>().0 = log;
    }
    if let Some(said) = pending.said {
        world.resource_mut::<Notice>().say(said);
    }
    let mut history = world.resource_mut::<History>();
    history.settling = true;
    history.unsaved = true;
}

/// The components a snapshot reads of a token.
#[derive(QueryData)]
struct Captured {
    entity: Entity,
    id: &'static TokenId,
    position: &'static Position,
    vitals: &'static Vitals,
    hit_points: &'static HitPoints,
    combatant: &'static Combatant,
    facing: Option<&'static Facing>,
    inspiration: Option<&'static Inspiration>,
    secret: Has<Secret>,
    siege: Option<&'static SiegeWeapon>,
    actions: Option<&'static Actions>,
    moves: Option<&'static TurnMoves>,
    effects: Option<&'static LastingEffects>,
    coated: Option<&'static CoatedWeapon>,
}

/// The state of the map now.
pub fn capture(world: &mut World) -> Snapshot {
    let mut board = world.resource::<LoadedScenario>().scenario.clone();
    let mut tokens = BTreeMap::new();
    let mut query = world.query::<Captured>();
    let ids: BTreeMap<Entity, String> = query.iter(world).map(|t| (t.entity, t.id.0.clone())).collect();
    for CapturedItem {
        id,
        position,
        vitals,
        hit_points,
        combatant,
        facing,
        inspiration,
        secret,
        siege,
        actions,
        moves,
        effects,
        coated,
        ..
    } in query.iter(world)
    {
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
        token.death_saves = health.death_saves_to_write();
        token.conditions = combatant.conditions.clone();
        token.facing = facing.map(|f| f.0).or(token.facing);
        if let Some(inspiration) = inspiration {
            token.inspiration = inspiration.has;
        }
        token.hidden = secret;
        if let Some(weapon) = siege {
            token.siege = Some(weapon.siege);
        }
        if let Some(effects) = effects {
            token.effects = effects.0.list.iter().map(|l| l.effect.clone()).collect();
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
                effects: effects.map(|e| e.0.clone()),
                coated: coated.map(|c| c.0),
            },
        );
    }
    let name_of = |entity: Entity| ids.get(&entity).cloned();
    let turns = world.resource::<Turns>();
    let turn = TurnState {
        round: turns.round(),
        active: turns.active.and_then(name_of),
        movers: turns.movers.iter().filter_map(|e| name_of(*e)).collect(),
    };
    let initiative = turns.order.clone();
    let run = world.resource::<ChaseRun>();
    let (chase, awaiting_handover) = (run.chases.clone(), run.awaiting_handover);
    let reactions = saved_reactions(world.resource::<Reactions>(), name_of);
    let fog = SavedFog::of(world.resource::<PartySight>(), &world.resource::<LoadedScenario>().scenario.map);
    // The board keeps the static parts as loaded; the creatures' places are the live ones.
    board.tokens.retain(|t| tokens.contains_key(&t.id));
    // The scene's chase keeps its own copy of the local creature's sheet: as it is now.
    if let Some((id, sheet)) = board.chase.as_mut().and_then(|c| c.rules.local_creature.as_mut())
        && let Some(token) = board.tokens.iter().find(|t| t.id == *id)
    {
        *sheet = token.sheet();
    }
    Snapshot { board, tokens, turn, initiative, chase, awaiting_handover, reactions, fog }
}

/// The prompts waiting, by id (a prompt naming a token that is gone is left out).
fn saved_reactions(reactions: &Reactions, name_of: impl Fn(Entity) -> Option<String>) -> SavedReactions {
    let interrupted = reactions.interrupted.as_ref().and_then(|i| {
        Some(SavedInterruption {
            mover: name_of(i.mover)?,
            rest: i.rest.clone(),
            moving: i.moving,
            offers: i.offers.iter().cloned().collect(),
            offered: i.offered.clone(),
        })
    });
    let readied = reactions
        .readied
        .iter()
        .filter_map(|r| Some(SavedReadied { reactor: name_of(r.reactor)?, trigger: name_of(r.trigger)? }))
        .collect();
    SavedReactions { interrupted, readied }
}

/// The prompts of `saved` on the map as it is now (one naming a token that is gone, or a stopped
/// move with no attack left to offer, is dropped: the move ends where it stopped).
fn waiting_reactions(saved: &SavedReactions, index: &TokenIndex) -> Reactions {
    let interrupted = saved.interrupted.as_ref().filter(|i| !i.offers.is_empty()).and_then(|i| {
        Some(Interrupted {
            mover: index.entity(&i.mover)?,
            rest: i.rest.clone(),
            moving: i.moving,
            offers: i.offers.iter().cloned().collect(),
            offered: i.offered.clone(),
            told: Vec::new(),
            striking: false,
        })
    });
    let readied = saved
        .readied
        .iter()
        .filter_map(|r| Some(ReadiedOffer { reactor: index.entity(&r.reactor)?, trigger: index.entity(&r.trigger)? }))
        .collect();
    Reactions { interrupted, readied }
}

/// Rebuilds the map from `snapshot`: the board (the terrain redrawn if it differs), every token
/// spawned again from its entry, then each token's turn, whose turn it is, the initiative, the
/// chase and the reaction prompts it saved (a step to undo saves none: a prompt waiting is
/// dropped). The selection is kept by id; a picked attack is dropped.
pub fn restore(world: &mut World, snapshot: &Snapshot) {
    let terrain_changed = {
        let mut loaded = world.resource_mut::<LoadedScenario>();
        let changed = loaded.scenario.map != snapshot.board.map;
        loaded.scenario = snapshot.board.clone();
        changed
    };
    let selected = world.resource::<Selection>().0.and_then(|e| world.get::<TokenId>(e).map(|id| id.0.clone()));
    if terrain_changed {
        world.insert_resource(MapLayout(BoardLayout::of(&snapshot.board.map)));
        world.write_message(TerrainEdited);
    }
    respawn(world, snapshot);
    let index = world.resource::<TokenIndex>().clone();
    let entity_of = |id: &Option<String>| id.as_deref().and_then(|id| index.entity(id));
    for token in &snapshot.board.tokens {
        let Some(entity) = index.entity(&token.id) else { continue };
        let state = snapshot.tokens.get(&token.id).cloned().unwrap_or_default();
        let helped_by = entity_of(&state.helped_by);
        let mut entity = world.entity_mut(entity);
        entity.insert(Actions(state.economy));
        if token.kind == TokenKind::Creature {
            // The speed as the conditions and exhaustion give it now (the fight feature keeps it so).
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
        if let Some(effects) = state.effects {
            entity.insert(LastingEffects(effects));
        }
        if let Some(poison) = state.coated {
            entity.insert(CoatedWeapon(poison));
        }
        if let Some(mut weapon) = entity.get_mut::<SiegeWeapon>() {
            if let Some(crewing) = state.crewing {
                weapon.siege.crewing = crewing;
            }
            weapon.round = state.siege_round;
            weapon.crew_this_round = state.crew_this_round;
        }
    }
    let mut order = snapshot.initiative.clone();
    order.round = order.round.max(snapshot.turn.round);
    *world.resource_mut::<Turns>() = Turns {
        order,
        active: entity_of(&snapshot.turn.active),
        movers: snapshot.turn.movers.iter().filter_map(|id| index.entity(id)).collect(),
    };
    world.resource_mut::<ChaseRun>().restore(snapshot.chase.clone(), snapshot.awaiting_handover);
    *world.resource_mut::<Reactions>() = waiting_reactions(&snapshot.reactions, &index);
    world.resource_mut::<Selection>().0 = entity_of(&selected);
    // The fog as it was (the party's sight now is found again after `Restored`); a session file's
    // fog was checked against its board when read.
    if let Ok((explored, marks)) = snapshot.fog.on(&snapshot.board.map) {
        let mut sight = world.resource_mut::<PartySight>();
        sight.explored = explored;
        sight.marks = marks;
    }
    world.write_message(Restored);
    world.resource_mut::<RedrawFrames>().at_least(3);
}

/// Despawns every token and spawns the snapshot's, indexing them.
fn respawn(world: &mut World, snapshot: &Snapshot) {
    let old: Vec<Entity> = world.query_filtered::<Entity, With<TokenMarker>>().iter(world).collect();
    for entity in old {
        world.despawn(entity);
    }
    let mut commands = world.commands();
    spawn_all(&mut commands, &snapshot.board);
    world.flush();
    TokenIndex::rebuild(world);
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
    Changed<LastingEffects>,
    Changed<CoatedWeapon>,
    Added<Secret>,
)>;

/// Whether anything a snapshot reads changed this frame: a frame that changed nothing (a hover,
/// a redraw) takes no snapshot, so a big map pays nothing for undo while nothing happens.
fn notice_changes(
    changed: Query<(), Watched>,
    mut unhidden: RemovedComponents<Secret>,
    mut wiped: RemovedComponents<CoatedWeapon>,
    loaded: Res<LoadedScenario>,
    turns: Res<Turns>,
    chase: Res<ChaseRun>,
    step: Res<StepUnderWay>,
    fog: Res<PartySight>,
    mut history: ResMut<History>,
) {
    let resources =
        loaded.is_changed() || turns.is_changed() || chase.is_changed() || step.is_changed() || fog.is_changed();
    let touched = resources || !changed.is_empty() || unhidden.read().count() > 0 || wiped.read().count() > 0;
    if touched || history.current.is_none() {
        history.touched = true;
    }
}

/// Records the state after the frame's changes: a new state is a step to undo and is autosaved.
/// No step is recorded while a drag, a stroke (the editor's or the fog brush's) or a reaction
/// prompt is under way (the step ends with it); while only a prompt waits, the game as it stands
/// is kept aside for the autosave.
fn record_changes(world: &mut World) {
    let step = *world.resource::<StepUnderWay>();
    let prompt = world.resource::<Reactions>().waiting();
    let history = world.resource::<History>();
    // A prompt answered ends the step even if its answer changed nothing a snapshot reads.
    let answered = !prompt && history.waiting.is_some();
    if step.held() || history.pending.is_some() || !(history.touched || answered) {
        return;
    }
    world.resource_mut::<History>().touched = false;
    let snapshot = capture(world);
    let mut history = world.resource_mut::<History>();
    if prompt {
        if history.waiting.as_ref() != Some(&snapshot) {
            history.waiting = Some(snapshot);
            history.unsaved = true;
        }
        return;
    }
    if history.waiting.take().is_some() {
        // The autosave wrote the middle of the step: it writes the end of it too.
        history.unsaved = true;
    }
    if std::mem::take(&mut history.settling) {
        history.current = Some(snapshot);
        return;
    }
    if history.current.as_ref() == Some(&snapshot) {
        return;
    }
    if let Some(current) = history.current.as_mut().filter(|c| c.differs_in_explored_alone(&snapshot)) {
        *current = snapshot;
        history.unsaved = true;
        return;
    }
    if let Some(before) = history.current.replace(snapshot) {
        history.push_undo(before);
        history.redo.clear();
    }
    history.unsaved = true;
}
