//! The chase mode: the setup window over the map (who flees, who pursues), and the hotseat chase
//! screen that takes the whole window while the chase runs and returns to the map when it ends.
//!
//! The chase is [`crate::rules::chase`] played with the session's dice; its initiative order
//! takes the map's for creatures that have one (DMG "Beginning a Chase"), and every roll goes to
//! the session's roll log.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use serde_json::json;

use super::AppSystems;
use super::components::{Allegiance, Combatant, DisplayName, HitPoints, Kind, Position, RosterOrder, TokenId, Vitals};
use super::dice::{Inspiration, Session};
use super::input::MapKeys;
use super::state::{LoadedScenario, Notice, ScenarioChanged, Selection};
use crate::rules::chase::{
    Chase, ChaseError, ChaseRules, Chases, ComplicationTable, DEFAULT_CATCH_FEET, Participant, Role, TableSource, Test,
};
use crate::rules::creature::Side;
use crate::rules::fight::{heal, take_damage};
use crate::scenario::{Scenario, TokenKind};
use crate::ui::chase::{
    AttackChoice, Candidate, ChaseDraft, ChaseEdit, ChaseRequest, ChaseStage, ChaseView, ComplicationCard, TableChoice,
    Targets, TrackRow, TurnCard, chase_screen, chase_setup,
};

/// The chase's state and the systems that apply requests to it: no window needed.
pub(super) fn logic_plugin(app: &mut App) {
    app.init_resource::<ChaseMode>().add_message::<ChaseMessage>().add_systems(
        Update,
        (
            chase_key.in_set(AppSystems::Input),
            (reset_on_new_scenario, apply_chase_messages).chain().in_set(AppSystems::Apply),
        ),
    );
}

/// The setup window and the chase screen, drawn in the egui pass.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw_chase.after(super::panels::MapPanels));
}

/// A request for the chase: from its screens, the status bar's Chase button or the `C` key.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ChaseMessage(pub ChaseRequest);

/// The chase being set up or played.
#[derive(Resource, Default)]
pub struct ChaseMode {
    pub draft: ChaseDraft,
    pub setup_open: bool,
    pub chases: Option<Chases>,
    /// Between turns, until the next participant takes the screen.
    pub awaiting_handover: bool,
    pub edit: ChaseEdit,
    /// The last refusal, shown on the chase screen.
    pub error: Option<String>,
    /// How many events of each chase are already in the session's roll log.
    logged: Vec<usize>,
    /// Where the chase screen's main buttons are, for tests that click them.
    pub targets: Targets,
}

impl ChaseMode {
    /// Puts back the chases of an undone or restored step; their events are in the log already.
    pub(super) fn restore_chases(&mut self, chases: Option<Chases>, awaiting_handover: bool) {
        self.logged = chases.iter().flat_map(|c| &c.chases).map(|c| c.events.len()).collect();
        self.chases = chases;
        self.awaiting_handover = awaiting_handover;
    }

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

    /// What the state file reports of the chase.
    pub fn state_json(&self) -> serde_json::Value {
        let targets: serde_json::Map<_, _> = self.targets.iter().map(|(name, at)| (name.clone(), json!(at))).collect();
        let Some(chases) = &self.chases else {
            return json!({ "setup_open": self.setup_open, "running": false, "targets": targets, "error": self.error });
        };
        let chase = chases.active();
        let stage = match () {
            _ if chases.is_over() => "over",
            _ if self.awaiting_handover => "handover",
            _ => "turn",
        };
        json!({
            "setup_open": self.setup_open,
            "running": true,
            "stage": stage,
            "chases": chases.chases.len(),
            "round": chase.order.round,
            "acting": chase.turn.as_ref().map(|t| t.id.clone()),
            "next": chases.next_up().map(|(_, id)| id),
            "movement_left": chase.movement_left(),
            "events": chase.events.len(),
            "participants": chase.participants.iter().map(|p| json!({
                "id": p.id, "position": p.position, "status": p.status, "dashes": p.dashes, "exhaustion": p.exhaustion, "hp": p.hp,
            })).collect::<Vec<_>>(),
            "error": self.error,
            "targets": targets,
        })
    }
}

/// A new scenario drops any chase and drafts the scene's own, if it has one.
fn reset_on_new_scenario(
    mut changed: MessageReader<ScenarioChanged>,
    loaded: Res<LoadedScenario>,
    mut mode: ResMut<ChaseMode>,
    mut notice: ResMut<Notice>,
) {
    if changed.read().count() == 0 {
        return;
    }
    *mode = ChaseMode { draft: ChaseMode::draft_from(&loaded.scenario), ..ChaseMode::default() };
    if let Some(chase) = &loaded.scenario.chase {
        notice.0 =
            Some((format!("This scene has a chase, {:?}: press C to set it up and start it.", chase.name), false));
    }
}

/// `C` opens or closes the chase setup.
fn chase_key(keys: MapKeys, mut messages: MessageWriter<ChaseMessage>) {
    if keys.pressed(KeyCode::KeyC) {
        messages.write(ChaseMessage(ChaseRequest::ToggleSetup));
    }
}

/// Applies the chase requests with the session's dice, and copies new rolls to the roll log.
fn apply_chase_messages(
    mut messages: MessageReader<ChaseMessage>,
    mut mode: ResMut<ChaseMode>,
    session: Option<ResMut<Session>>,
    loaded: Res<LoadedScenario>,
    mut tokens: ChaseTokens,
    mut notice: ResMut<Notice>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let Some(mut session) = session else { return };
    // Only a request or a new event changes the chase (the undo history watches it).
    let unlogged = |mode: &ChaseMode| {
        mode.chases.as_ref().is_some_and(|c| {
            c.chases.len() != mode.logged.len() || c.chases.iter().zip(&mode.logged).any(|(c, n)| c.events.len() > *n)
        })
    };
    if messages.is_empty() && !unlogged(&mode) {
        return;
    }
    let mode = &mut *mode;
    for ChaseMessage(request) in messages.read() {
        let result = apply(request.clone(), mode, &mut session, &loaded.scenario, &mut tokens);
        mode.error = result.err().map(|e| e.to_string());
        if let Some(error) = mode.error.as_ref().filter(|_| mode.chases.is_none()) {
            notice.0 = Some((error.clone(), true));
        }
        redraw.write(bevy::window::RequestRedraw);
    }
    if let Some(chases) = &mode.chases {
        copy_rolls_to_log(chases, &mut mode.logged, &mut session);
    }
}

type ChaseTokens<'w, 's> = Query<
    'w,
    's,
    (
        &'static TokenId,
        &'static DisplayName,
        &'static Allegiance,
        &'static Kind,
        &'static Position,
        (&'static mut Vitals, &'static mut HitPoints, &'static mut Combatant),
        Option<&'static mut Inspiration>,
        &'static RosterOrder,
        Entity,
    ),
>;

fn draw_chase(
    mut contexts: EguiContexts,
    mut mode: ResMut<ChaseMode>,
    tokens: Query<(&TokenId, &DisplayName, &Allegiance, &Kind, &RosterOrder, Entity)>,
    selection: Res<Selection>,
    mut messages: MessageWriter<ChaseMessage>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Drawing changes only the screens' own fields (what is typed, where buttons are), not the
    // chase: it doesn't count as a change for the undo history.
    let mode = mode.bypass_change_detection();
    let mut requests = Vec::new();
    if let Some(chases) = &mode.chases {
        let sides = tokens.iter().map(|t| (t.0.0.clone(), t.2.0)).collect();
        let view = chase_view(chases, mode, &sides);
        let screen = ctx.content_rect();
        egui::Area::new("chase-screen".into()).order(egui::Order::Foreground).fixed_pos(screen.min).show(ctx, |ui| {
            egui::Frame::new().fill(ui.visuals().panel_fill).inner_margin(16.0).show(ui, |ui| {
                ui.set_min_size(screen.size() - egui::vec2(32.0, 32.0));
                ui.set_max_width(screen.width() - 32.0);
                if let Some(error) = &mode.error {
                    ui.colored_label(egui::Color32::from_rgb(240, 110, 100), error);
                }
                let (asked, targets) = chase_screen(ui, &view, &mut mode.edit);
                requests = asked;
                mode.targets = targets;
            });
        });
    } else if mode.setup_open {
        let mut candidates: Vec<(usize, Candidate)> = tokens
            .iter()
            .filter(|t| t.3.0 == TokenKind::Creature)
            .map(|(id, name, side, _, order, entity)| {
                let candidate = Candidate {
                    id: id.0.clone(),
                    name: name.0.clone(),
                    side: side.0,
                    selected_on_map: selection.0 == Some(entity),
                };
                (order.0, candidate)
            })
            .collect();
        candidates.sort_by_key(|(order, _)| *order);
        let candidates: Vec<Candidate> = candidates.into_iter().map(|(_, c)| c).collect();
        let mut open = true;
        let draft = &mut mode.draft;
        let shown = egui::Window::new("Chase setup")
            .open(&mut open)
            .default_pos(egui::pos2(420.0, 80.0))
            .resizable(false)
            .show(ctx, |ui| chase_setup(ui, &candidates, draft));
        mode.targets.clear();
        if let Some((asked, targets)) = shown.and_then(|s| s.inner) {
            requests = asked;
            mode.targets = targets;
        }
        if !open {
            requests.push(ChaseRequest::ToggleSetup);
        }
    }
    messages.write_batch(requests.into_iter().map(ChaseMessage));
    Ok(())
}

/// Copies the rolls of new chase events into the session's roll log.
fn copy_rolls_to_log(chases: &Chases, logged: &mut Vec<usize>, session: &mut Session) {
    logged.resize(chases.chases.len(), 0);
    for (chase, done) in chases.chases.iter().zip(logged.iter_mut()) {
        session.log.entries.extend(chase.events[*done..].iter().filter_map(|e| e.roll.clone()));
        *done = chase.events.len();
    }
}

fn apply(
    request: ChaseRequest,
    mode: &mut ChaseMode,
    session: &mut Session,
    scenario: &Scenario,
    tokens: &mut ChaseTokens,
) -> Result<(), ChaseError> {
    let dice = &mut session.dice;
    if let ChaseRequest::Start = request {
        let chase = start(mode, scenario, tokens, &session.initiative, dice)?;
        mode.chases = Some(Chases::new(chase));
        mode.logged.clear();
        mode.setup_open = false;
        mode.awaiting_handover = true;
        mode.edit = ChaseEdit::default();
        return Ok(());
    }
    if let ChaseRequest::ToggleSetup = request {
        mode.setup_open = !mode.setup_open && mode.chases.is_none();
        return Ok(());
    }
    let Some(chases) = &mut mode.chases else { return Ok(()) };
    if let ChaseRequest::ReturnToMap = request {
        carry_back(chases, tokens);
        mode.chases = None;
        mode.targets.clear();
        return Ok(());
    }
    if let ChaseRequest::Split { quarry, pursuers } = &request {
        let active = chases.active;
        chases.split(active, quarry, pursuers)?;
        return Ok(());
    }
    if let ChaseRequest::BeginTurn = request {
        chases.begin_turn(dice)?;
        mode.awaiting_handover = false;
        mode.edit.move_feet = 0;
        return Ok(());
    }
    let chase = chases.active_mut();
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
                mode.awaiting_handover = true;
            }
        }
        ChaseRequest::EndTurn => {
            chase.end_turn(dice)?;
            mode.awaiting_handover = true;
        }
        ChaseRequest::SetPosition(id, feet) => chase.set_position(&id, feet)?,
        ChaseRequest::SetExhaustion(id, level) => chase.set_exhaustion(&id, level)?,
        ChaseRequest::ForceRoll(total) => chase.force_next_roll(total),
        ChaseRequest::OutOfSight(id) => chase.mark_out_of_sight(&id)?,
        ChaseRequest::Reverse => chase.reverse()?,
        _ => {}
    }
    Ok(())
}

/// Starts the drafted chase from the creatures as they stand on the map now.
fn start(
    mode: &ChaseMode,
    scenario: &Scenario,
    tokens: &ChaseTokens,
    map_order: &crate::rules::initiative::InitiativeOrder,
    dice: &mut crate::rules::dice::SeededDice,
) -> Result<Chase, ChaseError> {
    let mut live = scenario.clone();
    for token in &mut live.tokens {
        if let Some((.., position, (vitals, hit_points, _), inspiration, _, _)) =
            tokens.iter().find(|t| t.0.0 == token.id)
        {
            token.anchor = position.0;
            token.hp = hit_points.0.hp;
            token.exhaustion = vitals.exhaustion;
            token.inspiration = inspiration.is_some_and(|i| i.has);
        }
    }
    let draft = &mode.draft;
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

/// The chase's hit points, exhaustion and inspiration go back to the creatures on the map.
fn carry_back(chases: &Chases, tokens: &mut ChaseTokens) {
    for p in chases.chases.iter().flat_map(|c| &c.participants) {
        if let Some((.., (mut vitals, mut hit_points, mut combatant), inspiration, _, _)) =
            tokens.iter_mut().find(|t| t.0.0 == p.id)
        {
            // The chase's damage and healing, through the same rules as on the map.
            let change = p.hp - hit_points.0.hp;
            let (health, conditions) = (&mut hit_points.0, &mut combatant.conditions);
            if change < 0 {
                take_damage(health, conditions, -change, false);
            } else if change > 0 {
                let max_hp = health.max_hp;
                heal(health, conditions, change, max_hp);
            }
            vitals.exhaustion = p.exhaustion;
            if let Some(mut inspiration) = inspiration {
                inspiration.has = p.inspiration;
            }
        }
    }
}

/// The side of each creature on the map, so a participant keeps its token's colour.
type Sides = std::collections::HashMap<String, Side>;

fn side_of(sides: &Sides, id: &str) -> Side {
    sides.get(id).copied().unwrap_or(Side::Neutral)
}

/// The chase screen's view model.
fn chase_view(chases: &Chases, mode: &ChaseMode, sides: &Sides) -> ChaseView {
    let chase = chases.active();
    let leads: Vec<String> = chase.pursuits.iter().filter_map(|p| chase.lead(p)).collect();
    let distance_of = |id: &str| -> Option<u32> {
        chase.pursuits.iter().flat_map(|p| chase.distances(p)).filter(|(p, _, _)| p == id).map(|(_, _, d)| d).min()
    };
    let mut rows: Vec<&Participant> = chase.participants.iter().collect();
    rows.sort_by_key(|p| std::cmp::Reverse(p.position));
    let track = rows
        .into_iter()
        .map(|p| TrackRow {
            id: p.id.clone(),
            name: p.name().to_owned(),
            side: side_of(sides, &p.id),
            roles: chase.roles(&p.id),
            position: p.position,
            running: p.is_running(),
            status: p.status.name().to_owned(),
            lead: leads.contains(&p.id),
            distance: distance_of(&p.id),
            out_of_sight: chase.out_of_sight.contains(&p.id),
            acting: chase.turn.as_ref().is_some_and(|t| t.id == p.id),
            hp: p.hp,
            max_hp: p.sheet.hp.max(p.hp),
            exhaustion: p.exhaustion,
            free_dashes_left: p.free_dashes_left(),
            inspiration: p.inspiration,
        })
        .collect();
    let stage = if chases.is_over() {
        ChaseStage::Over { outcome: chases.chases.iter().filter_map(Chase::outcome).collect::<Vec<_>>().join(" ") }
    } else if let Some(turn) = chase.turn.as_ref().filter(|_| !mode.awaiting_handover) {
        ChaseStage::Turn(Box::new(turn_card(chase, turn, sides)))
    } else {
        let (index, id) = chases.next_up().unwrap_or((chases.active, String::new()));
        let next_chase = &chases.chases[index];
        ChaseStage::Handover {
            name: next_chase.participant(&id).map_or(id.clone(), |p| p.name().to_owned()),
            side: side_of(sides, &id),
            roles: next_chase.roles(&id),
            complication: next_chase.pending.iter().any(|p| p.affected == id),
        }
    };
    let sight = chase
        .rules
        .sight_feet
        .map_or("the lead pursuer sees the quarry unless the DM rules otherwise".to_owned(), |s| {
            format!("the lead pursuer loses sight beyond {s} ft")
        });
    ChaseView {
        title: chase.name.clone(),
        round: chase.order.round,
        stage,
        track,
        log: chase
            .events
            .iter()
            .map(|e| {
                let text = chase.describe(e);
                if e.round == 0 { text } else { format!("R{} {text}", e.round) }
            })
            .collect(),
        other_chases: chases
            .chases
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != chases.active)
            .map(|(_, c)| (c.name.clone(), c.is_over()))
            .collect(),
        escape_note: format!(
            "{}; escape checks at the end of each round; no opportunity attacks between participants.",
            capitalise(&sight)
        ),
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

fn turn_card(chase: &Chase, turn: &crate::rules::chase::Turn, sides: &Sides) -> TurnCard {
    let p = chase.participant(&turn.id);
    let complication = turn.complication.as_ref().map(|pending| {
        let c = &pending.complication;
        let options = match &c.test {
            Some(Test::Check { options, .. }) if options.len() > 1 => options.iter().map(|o| o.name()).collect(),
            _ => Vec::new(),
        };
        let negators = [&pending.affected, &pending.roller]
            .into_iter()
            .filter_map(|id| {
                chase.participant(id).filter(|p| p.inspiration).map(|p| (p.id.clone(), p.name().to_owned()))
            })
            .collect();
        ComplicationCard {
            roller: chase.participant(&pending.roller).map_or(pending.roller.clone(), |p| p.name().to_owned()),
            d20: pending.d20,
            table: chase.rules.table.name.clone(),
            text: c.text.clone(),
            test: c.test.as_ref().map(Test::name),
            options,
            alternative: c.alternative.map(super::super::rules::chase::complication::Alternative::name),
            negators,
        }
    });
    let attacks = p
        .map(|p| {
            p.sheet
                .attacks
                .iter()
                .enumerate()
                .map(|(index, attack)| AttackChoice {
                    index,
                    name: attack.name.clone(),
                    targets: chase
                        .targets_in_range(attack)
                        .into_iter()
                        .filter_map(|id| {
                            let target = chase.participant(&id)?;
                            Some((id.clone(), target.name().to_owned(), chase.distance(&turn.id, &id)?))
                        })
                        .collect(),
                })
                .collect()
        })
        .unwrap_or_default();
    TurnCard {
        id: turn.id.clone(),
        name: p.map_or(turn.id.clone(), |p| p.name().to_owned()),
        side: side_of(sides, &turn.id),
        roles: chase.roles(&turn.id),
        movement_left: chase.movement_left(),
        speed: chase.turn_speed(),
        action_used: turn.action_used,
        dashed: turn.dashed,
        free_dashes_left: p.map_or(0, Participant::free_dashes_left),
        free_dashes: p.map_or(0, Participant::free_dashes),
        exhaustion: p.map_or(0, |p| p.exhaustion),
        restrained: p.is_some_and(|p| p.restrained),
        blinded: turn.blinded,
        complication,
        attacks,
        last_of_round: chase.last_turn_of_round(),
    }
}
