//! The chase-round scheduler on the map's side: the setup (who flees, who pursues), the chase
//! played with the session's dice from the screens' requests, each participant's [`ChaseState`]
//! kept from the rules' engine, its rolls copied to the roll log, and what it did carried back
//! to the map when it ends. The screens themselves are drawn by the view.
//!
//! The chase is [`crate::rules::chase`]; its initiative order takes the map's for creatures that
//! have one (DMG "Beginning a Chase").

use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::app::core::chase::ChaseRun;
use crate::app::core::components::{ChaseState, Combatant, DisplayName, HitPoints, Inspiration, Position, Vitals};
use crate::app::core::dice::{Dice, RollRecord};
use crate::app::core::messages::{ChaseMessage, ScenarioChanged};
use crate::app::core::mode::AppMode;
use crate::app::core::notice::{Notice, Said};
use crate::app::core::pointer::MapKeys;
use crate::app::core::requests::ChaseRequest;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::LoadedScenario;
use crate::app::core::tokens::TokenIndex;
use crate::app::core::turns::Turns;
use crate::rules::chase::{
    Chase, ChaseError, ChaseRules, Chases, ComplicationTable, DEFAULT_CATCH_FEET, Role, TableSource,
};
use crate::rules::fight::{heal, set_exhaustion, take_damage};
use crate::rules::initiative::InitiativeOrder;
use crate::scenario::Scenario;
use crate::ui::chase::{ChaseDraft, ChaseEdit, TableChoice, Targets};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<ChaseScreens>().add_systems(
        Update,
        (
            chase_key.in_set(AppSystems::Input),
            (reset_on_new_scenario, apply_chase_messages).chain().in_set(AppSystems::Apply),
            (follow_the_chase, keep_chase_states).chain().in_set(AppSystems::Follow),
        ),
    );
}

/// The chase's screens: the setup's draft, whether it is open, whether a running chase's screen
/// is put away for the map, what is typed on the chase screen, the last refusal, and where the
/// main buttons were drawn.
#[derive(Resource, Default)]
pub struct ChaseScreens {
    pub draft: ChaseDraft,
    pub setup_open: bool,
    /// The chase waits while the map is played (*Back to the map*); `C` shows it again.
    pub hidden: bool,
    pub edit: ChaseEdit,
    /// The last refusal, shown on the chase screen.
    pub error: Option<ChaseError>,
    /// Where the chase screen's main buttons are, for tests that click them.
    pub targets: Targets,
}

impl ChaseScreens {
    /// The draft a scene's own chase gives, or an empty one.
    fn draft_from(scenario: &Scenario) -> ChaseDraft {
        let Some(setup) = &scenario.chase else { return ChaseDraft::default() };
        let roles = setup
            .quarry
            .iter()
            .map(|id| (id.clone(), Role::Quarry))
            .chain(setup.pursuers.iter().map(|id| (id.clone(), Role::Pursuer)))
            .collect();
        let table = match setup.table_source {
            TableSource::Urban => TableChoice::Urban,
            TableSource::Wilderness => TableChoice::Wilderness,
            TableSource::Custom => TableChoice::Scene,
        };
        ChaseDraft {
            roles,
            table,
            scene_table: (table == TableChoice::Scene).then(|| setup.rules.table.name.clone()),
            sight: setup.rules.sight_feet,
            factors: setup.rules.escape_factors.clone(),
        }
    }
}

/// A new scenario drops any chase and drafts the scene's own, if it has one.
fn reset_on_new_scenario(
    mut changed: MessageReader<ScenarioChanged>,
    loaded: Res<LoadedScenario>,
    mut screens: ResMut<ChaseScreens>,
    mut run: ResMut<ChaseRun>,
    mut notice: ResMut<Notice>,
) {
    if changed.read().count() == 0 {
        return;
    }
    *screens = ChaseScreens { draft: ChaseScreens::draft_from(&loaded.scenario), ..ChaseScreens::default() };
    *run = ChaseRun::default();
    if let Some(chase) = &loaded.scenario.chase {
        notice.say(Said::SceneHasChase { name: chase.name.clone() });
    }
}

/// `C` opens or closes the chase setup, or shows or hides a running chase's screen.
fn chase_key(keys: MapKeys, mut messages: MessageWriter<ChaseMessage>) {
    if keys.pressed(KeyCode::KeyC) && !keys.control() {
        messages.write(ChaseMessage(ChaseRequest::ToggleSetup));
    }
}

/// What a chase reads of a creature on the map, and gives back to it.
#[derive(QueryData)]
#[query_data(mutable)]
struct ChaseToken {
    position: &'static Position,
    vitals: &'static mut Vitals,
    hit_points: &'static mut HitPoints,
    combatant: &'static mut Combatant,
    inspiration: Option<&'static mut Inspiration>,
}

/// The creatures on the map a chase reads and gives back to, found by id.
#[derive(SystemParam)]
struct ChaseTokens<'w, 's> {
    index: Res<'w, TokenIndex>,
    tokens: Query<'w, 's, ChaseToken>,
}

/// Applies the chase requests with the session's dice, and copies new rolls to the roll log.
#[allow(clippy::too_many_arguments)]
fn apply_chase_messages(
    mut messages: MessageReader<ChaseMessage>,
    mut screens: ResMut<ChaseScreens>,
    mut run: ResMut<ChaseRun>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<RollRecord>,
    loaded: Res<LoadedScenario>,
    turns: Res<Turns>,
    mut tokens: ChaseTokens,
    mut notice: ResMut<Notice>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    // Only a request or a new event changes the chase (the undo history watches it).
    let unlogged = |run: &ChaseRun| {
        run.chases.as_ref().is_some_and(|c| {
            c.chases.len() != run.logged.len() || c.chases.iter().zip(&run.logged).any(|(c, n)| c.events.len() > *n)
        })
    };
    if messages.is_empty() && !unlogged(&run) {
        return;
    }
    for ChaseMessage(request) in messages.read() {
        let result =
            apply(request.clone(), &mut screens, &mut run, &mut dice, &loaded.scenario, &turns.order, &mut tokens);
        screens.error = result.err();
        if let Some(error) = screens.error.as_ref().filter(|_| run.chases.is_none()) {
            notice.say(Said::Chase(error.clone()));
        }
        redraw.write(bevy::window::RequestRedraw);
    }
    let ChaseRun { chases, logged, .. } = &mut *run;
    if let Some(chases) = chases {
        logged.resize(chases.chases.len(), 0);
        for (chase, done) in chases.chases.iter().zip(logged.iter_mut()) {
            log.0.entries.extend(chase.events[*done..].iter().filter_map(|e| e.roll.clone()));
            *done = chase.events.len();
        }
    }
}

fn apply(
    request: ChaseRequest,
    screens: &mut ChaseScreens,
    run: &mut ChaseRun,
    dice: &mut Dice,
    scenario: &Scenario,
    map_order: &InitiativeOrder,
    tokens: &mut ChaseTokens,
) -> Result<(), ChaseError> {
    let dice = &mut dice.0;
    match request {
        ChaseRequest::Start => {
            let chase = start(&screens.draft, scenario, tokens, map_order, dice)?;
            run.chases = Some(Chases::new(chase));
            run.logged.clear();
            run.awaiting_handover = true;
            screens.setup_open = false;
            screens.hidden = false;
            screens.edit = ChaseEdit::default();
            return Ok(());
        }
        ChaseRequest::ToggleSetup => {
            if run.chases.is_some() {
                screens.hidden = !screens.hidden;
            } else {
                screens.setup_open = !screens.setup_open;
            }
            return Ok(());
        }
        _ => {}
    }
    let Some(chases) = &mut run.chases else { return Ok(()) };
    match request {
        ChaseRequest::ReturnToMap if !chases.is_over() => {
            screens.hidden = true;
            screens.targets.clear();
        }
        ChaseRequest::ReturnToMap | ChaseRequest::EndChase => {
            carry_back(chases, tokens);
            run.chases = None;
            screens.hidden = false;
            screens.targets.clear();
        }
        ChaseRequest::Split { quarry, pursuers } => {
            let active = chases.active;
            chases.split(active, &quarry, &pursuers)?;
        }
        ChaseRequest::BeginTurn => {
            chases.begin_turn(dice)?;
            run.awaiting_handover = false;
            screens.edit.move_feet = 0;
        }
        request => {
            if play(request, chases.active_mut(), dice)? {
                run.awaiting_handover = true;
            }
        }
    }
    Ok(())
}

/// A request of the participant whose turn it is, or of the DM; whether its turn ended.
fn play(
    request: ChaseRequest,
    chase: &mut Chase,
    dice: &mut crate::rules::dice::SeededDice,
) -> Result<bool, ChaseError> {
    match request {
        ChaseRequest::Resolve(resolution) => chase.resolve_complication(resolution, dice)?,
        ChaseRequest::Dash => chase.dash()?,
        ChaseRequest::Move(feet) => {
            chase.move_by(feet)?;
        }
        ChaseRequest::Attack { target, attack, cover } => {
            chase.attack(&target, attack, cover, dice)?;
        }
        ChaseRequest::BreakFree => {
            chase.break_free(dice)?;
        }
        ChaseRequest::GiveUp(id) => {
            let acting = chase.turn.as_ref().is_some_and(|t| t.id == id);
            chase.give_up(&id)?;
            if acting {
                if let Some(turn) = chase.turn.as_mut() {
                    turn.complication = None;
                }
                chase.end_turn(dice)?;
                return Ok(true);
            }
        }
        ChaseRequest::EndTurn => {
            chase.end_turn(dice)?;
            return Ok(true);
        }
        ChaseRequest::SetPosition(id, feet) => chase.set_position(&id, feet)?,
        ChaseRequest::SetExhaustion(id, level) => chase.set_exhaustion(&id, level)?,
        ChaseRequest::ForceRoll(total) => chase.force_next_roll(total),
        ChaseRequest::OutOfSight(id) => chase.mark_out_of_sight(&id)?,
        ChaseRequest::Reverse => chase.reverse()?,
        _ => {}
    }
    Ok(false)
}

/// Starts the drafted chase from the creatures as they stand on the map now.
fn start(
    draft: &ChaseDraft,
    scenario: &Scenario,
    tokens: &ChaseTokens,
    map_order: &InitiativeOrder,
    dice: &mut crate::rules::dice::SeededDice,
) -> Result<Chase, ChaseError> {
    let mut live = scenario.clone();
    for token in &mut live.tokens {
        if let Some(now) = tokens.index.entity(&token.id).and_then(|e| tokens.tokens.get(e).ok()) {
            token.anchor = now.position.0;
            token.hp = now.hit_points.0.hp;
            token.exhaustion = now.vitals.exhaustion;
            token.inspiration = now.inspiration.is_some_and(|i| i.has);
            token.conditions = now.combatant.conditions.clone();
        }
    }
    let in_order = |role: Role| -> Vec<String> {
        live.tokens.iter().filter(|t| draft.roles.get(&t.id) == Some(&role)).map(|t| t.id.clone()).collect()
    };
    let (quarry, pursuers) = (in_order(Role::Quarry), in_order(Role::Pursuer));
    let scene = live.chase.as_ref().filter(|c| {
        let mut scene_ids: Vec<&String> = c.quarry.iter().chain(&c.pursuers).collect();
        scene_ids.sort();
        scene_ids == draft.roles.keys().collect::<Vec<_>>() && c.quarry.iter().all(|q| quarry.contains(q))
    });
    let table = match (draft.table, &live.chase) {
        (TableChoice::Wilderness, _) => ComplicationTable::wilderness(),
        (TableChoice::Scene, Some(setup)) => setup.rules.table.clone(),
        _ => ComplicationTable::urban(),
    };
    let local_creature = live
        .chase
        .as_ref()
        .and_then(|c| c.rules.local_creature.clone())
        .filter(|(id, _)| !draft.roles.contains_key(id));
    let rules = ChaseRules {
        table,
        sight_feet: draft.sight,
        catch_feet: live.chase.as_ref().map_or(DEFAULT_CATCH_FEET, |c| c.rules.catch_feet),
        escape_factors: draft.factors.clone(),
        local_creature,
    };
    let start = scene.map(|c| c.start.clone()).unwrap_or_default();
    let name = match scene {
        Some(setup) => setup.name.clone(),
        None => {
            let names: Vec<&str> = quarry.iter().filter_map(|id| live.token(id)).map(|t| t.name.as_str()).collect();
            format!("After {}", names.join(" and "))
        }
    };
    let entrants = live.chase_entrants(&quarry, &pursuers, &start);
    Chase::start(&name, rules, entrants, Some(map_order), dice)
}

/// The chase's hit points, exhaustion and inspiration go back to the creatures on the map, its
/// damage and healing through the same rules as on the map (healing up to the maximum the
/// creature's exhaustion leaves).
fn carry_back(chases: &Chases, tokens: &mut ChaseTokens) {
    for p in chases.chases.iter().flat_map(|c| &c.participants) {
        let Some(entity) = tokens.index.entity(&p.id) else { continue };
        if let Ok(mut now) = tokens.tokens.get_mut(entity) {
            now.vitals.exhaustion = set_exhaustion(&mut now.hit_points.0, p.exhaustion);
            let change = p.hp - now.hit_points.0.hp;
            let (health, conditions) = (&mut now.hit_points.0, &mut now.combatant.conditions);
            if change < 0 {
                take_damage(health, conditions, -change, false);
            } else if change > 0 {
                heal(health, conditions, change);
            }
            if let Some(inspiration) = now.inspiration.as_mut() {
                inspiration.has = p.inspiration;
            }
        }
    }
}

/// The chase takes the screen while it runs (also when a step undone or the autosave brings one
/// back), and gives it back to the map while it waits and when it ends.
fn follow_the_chase(
    run: Res<ChaseRun>,
    mut screens: ResMut<ChaseScreens>,
    mode: Res<State<AppMode>>,
    mut next: ResMut<NextState<AppMode>>,
) {
    if run.chases.is_none() && screens.hidden {
        screens.hidden = false;
    }
    let shown = run.chases.is_some() && !screens.hidden;
    match (shown, mode.get()) {
        (true, AppMode::Play | AppMode::Edit) => next.set(AppMode::Chase),
        (false, AppMode::Chase) => next.set(AppMode::Play),
        _ => {}
    }
}

/// Each creature in a running chase carries its [`ChaseState`] from the engine; the others none.
fn keep_chase_states(
    mut commands: Commands,
    run: Res<ChaseRun>,
    index: Res<TokenIndex>,
    carrying: Query<(Entity, &ChaseState)>,
    names: Query<&DisplayName>,
) {
    if !run.is_changed() {
        return;
    }
    let mut states: Vec<(Entity, ChaseState)> = Vec::new();
    for (i, chase) in run.chases.iter().flat_map(|c| c.chases.iter().enumerate()) {
        let leads: Vec<String> = chase.pursuits.iter().filter_map(|p| chase.lead(p)).collect();
        let distance_of = |id: &str| -> Option<u32> {
            let distances = chase.pursuits.iter().flat_map(|p| chase.distances(p));
            distances.filter(|(p, _, _)| p == id).map(|(_, _, d)| d).min()
        };
        for p in &chase.participants {
            let Some(entity) = index.entity(&p.id).filter(|e| names.contains(*e)) else { continue };
            states.push((
                entity,
                ChaseState {
                    chase: i,
                    roles: chase.roles(&p.id),
                    position: p.position,
                    status: p.status,
                    lead: leads.contains(&p.id),
                    distance: distance_of(&p.id),
                    free_dashes_left: p.free_dashes_left(),
                    hp: p.hp,
                    max_hp: p.sheet.hp.max(p.hp),
                    exhaustion: p.exhaustion,
                    inspiration: p.inspiration,
                    out_of_sight: chase.out_of_sight.contains(&p.id),
                    acting: chase.turn.as_ref().is_some_and(|t| t.id == p.id),
                },
            ));
        }
    }
    for (entity, old) in &carrying {
        match states.iter().position(|(e, _)| *e == entity) {
            Some(i) if states[i].1 == *old => {
                states.swap_remove(i);
            }
            Some(_) => {}
            None => {
                commands.entity(entity).remove::<ChaseState>();
            }
        }
    }
    for (entity, state) in states {
        commands.entity(entity).insert(state);
    }
}
