//! The egui pass: builds the panels' view models from the ECS, draws them with [`crate::ui`],
//! and turns the user's requests into messages.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::audience::{Audience, OutOfView};
use super::camera::{FitMap, MapViewRect};
use super::chase::{ChaseMessage, ChaseMode};
use super::components::*;
use super::dice::{DiceRequest, Inspiration, Session};
use super::editor::{EditMessage, Editor};
use super::fight::map::AttackPreview;
use super::fight::{AttackMode, FightRequest};
use super::input::PointerOnMap;
use super::input::toggle_key;
use super::movement::{Dragging, TurnMoves};
use super::reactions::{ReactionAnswer, Reactions};
use super::ruler::Ruler;
use super::session::file::SaveScenario;
use super::session::{History, HistoryRequest};
use super::siege::{SiegeCard, SiegeRequest};
use super::sight::{CoverPreview, SightOverlay};
use super::state::{GridVisible, LoadedScenario, Notice, OpenScenario, SelectToken, Selection, Toggle};
use super::template::TemplateTool;
use super::turns::{Turn, TurnRequest};
use crate::rules::economy::Response;
use crate::ui::chase::ChaseRequest;
use crate::ui::{
    DiceEdit, DiceView, EditorEdit, EditorView, EntryView, FightAction, FightEdit, FightView, InitiativeAction,
    InitiativeView, MovementView, PanelRequest, PromptView, RosterView, SiegeAction, SiegeView, StatusEdit, StatusView,
    TerrainChoice, TokenDetails, TokenRow, TurnAction, TurnEdit, TurnView, cursor_label, dice_panel, dm_banner,
    editor_panel, initiative_panel, reaction_prompt, roster_panel, status_bar, template_panel,
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StatusEditState>()
        .init_resource::<DicePanelOpen>()
        .init_resource::<ButtonTargets>()
        .add_systems(
            Update,
            (
                toggle_key(KeyCode::KeyD, Toggle::DicePanel).in_set(super::AppSystems::Input),
                toggle_dice_panel.in_set(super::AppSystems::Apply),
            ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            draw_panels.in_set(MapPanels).run_if(|o: Option<Res<super::LaunchOptions>>| {
                !o.is_some_and(|o| super::benchmark::hidden(&o, super::benchmark::Part::Panels))
            }),
        )
        .add_systems(
            PreUpdate,
            drop_repeated_modifier_events
                .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        );
}

/// Drawing the panels: bevy_egui's shader replaced by `egui.wgsl`, which reads egui's textures
/// as stored and converts colours more cheaply (only where there is a renderer; added after
/// bevy_egui's plugin, which installs its own shader at the same handle).
pub(super) fn render_plugin(app: &mut App) {
    bevy::asset::load_internal_asset!(app, bevy_egui::render::EGUI_SHADER_HANDLE, "egui.wgsl", Shader::from_wgsl);
    app.add_systems(
        PostUpdate,
        read_egui_textures_as_stored
            .after(bevy_egui::EguiPostUpdateSet::PostProcessOutput)
            .run_if(resource_changed::<bevy_egui::EguiManagedTextures>),
    );
}

/// Gives each of egui's textures (the font atlas) a view that reads its bytes as they are stored,
/// gamma-encoded (`Rgba8Unorm`), instead of decoding them to linear light as its `Rgba8UnormSrgb`
/// format would. egui multiplies colours in gamma space, so `egui.wgsl` no longer encodes what the
/// sampler decoded, and software rendering samples an 8-bit texture without the sRGB curve on
/// each of the four texels it filters: 1.7 ms of the tavern's frame (docs/performance.md). Text
/// sampled at its texels' centres is drawn exactly as before; where a sample falls between texels
/// (italic text, the small discs), they are blended as stored. The app gives egui no images of its
/// own; one would need the same view, or the shader would take its linear texels for gamma.
fn read_egui_textures_as_stored(textures: Res<bevy_egui::EguiManagedTextures>, mut images: ResMut<Assets<Image>>) {
    use bevy::render::render_resource::{TextureFormat, TextureViewDescriptor};
    for texture in textures.0.values() {
        let without_view = images.get(&texture.handle).is_some_and(|image| image.texture_view_descriptor.is_none());
        if without_view && let Some(mut image) = images.get_mut(&texture.handle) {
            image.texture_descriptor.view_formats = &[TextureFormat::Rgba8Unorm];
            image.texture_view_descriptor =
                Some(TextureViewDescriptor { format: Some(TextureFormat::Rgba8Unorm), ..default() });
        }
    }
}

/// The map's panels in the egui pass: screens drawn over them come after.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MapPanels;

/// bevy_egui reports the keyboard modifiers to egui every frame, and egui answers any input
/// event by asking for another frame at once: the app would redraw forever. egui keeps the
/// modifiers between frames, so only changes are passed on, and the app idles until input.
fn drop_repeated_modifier_events(
    mut inputs: Query<&mut bevy_egui::EguiInput>,
    mut last: Local<Option<egui::Modifiers>>,
) {
    for mut input in &mut inputs {
        input.events.retain(|event| match event {
            egui::Event::ModifiersChanged(modifiers) if *last == Some(*modifiers) => false,
            egui::Event::ModifiersChanged(modifiers) => {
                *last = Some(*modifiers);
                true
            }
            egui::Event::WindowFocused(_) => {
                // egui forgets the modifiers when focus changes; pass the next report on.
                *last = None;
                true
            }
            _ => true,
        });
    }
}

#[derive(Resource, Default)]
struct StatusEditState(StatusEdit);

/// Where the buttons the state file reports were drawn in the last frame (`ui::BUTTON_TARGETS`).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub(crate) struct ButtonTargets(pub Vec<(String, [f32; 2])>);

type TokenQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static TokenId,
        &'static DisplayName,
        &'static Kind,
        &'static Allegiance,
        &'static CreatureSize,
        (&'static Vitals, &'static HitPoints, &'static Combatant),
        &'static Position,
        &'static AbilityModifiers,
        Option<&'static Facing>,
        Option<&'static Shield>,
        Has<PlayerCharacter>,
        &'static RosterOrder,
        (Option<&'static TurnMoves>, Option<&'static Actions>, Option<&'static Inspiration>),
        (Has<Secret>, Has<OutOfView>),
    ),
>;

/// What the panels need beyond the tokens to build the roster.
struct RosterContext<'a> {
    selection: Selection,
    rules: crate::rules::fight::FightRules,
    grid: crate::rules::Grid,
    turn: &'a Turn,
    session: Option<&'a Session>,
    picked: Option<&'a str>,
    audience: Audience,
    siege: &'a SiegeView,
}

/// The roster's view model: every token the audience sees, in scenario order, and the selected
/// one in detail.
fn roster_view(tokens: &TokenQuery, cx: &RosterContext) -> RosterView {
    let mut rows: Vec<_> = tokens.iter().filter(|t| !t.14.1).collect();
    rows.sort_by_key(|row| *row.12);
    let selected = cx.selection.0.and_then(|e| tokens.get(e).ok()).filter(|t| !t.14.1).map(|t| {
        let (entity, id, _, _, _, size, (vitals, hit_points, combatant), position, abilities, facing, shield, pc, ..) =
            t;
        let (moves, actions, inspiration) = t.13;
        let exact_hp = cx.audience.sees_hit_points(pc, t.4.0);
        let mut fight =
            fight_view(vitals, hit_points, combatant, facing.filter(|_| cx.rules.facing), shield, cx.picked, exact_hp);
        if cx.siege.weapon.is_some() {
            // A siege weapon fires through its crew, from a creature's card.
            fight.attacks.clear();
        }
        TokenDetails {
            fight: Some(fight),
            siege: cx.siege.clone(),
            id: id.0.clone(),
            anchor: position.0,
            cells: crate::rules::Footprint::of(cx.grid, size.size, size.square_side).len(),
            abilities: abilities.0,
            facing: facing.map(|f| f.0),
            shield: shield.map(|s| s.0),
            player_character: pc,
            turn: moves.zip(actions).map(|(m, a)| turn_view(tokens, cx, entity, m, a, combatant)),
            secret: cx.audience.dm.then_some(t.14.0),
            inspiration: inspiration.map(|i| i.has),
            exhaustion: vitals.exhaustion,
        }
    });
    RosterView {
        rows: rows
            .into_iter()
            .map(|(_, id, name, kind, side, size, (vitals, hit_points, _), _, _, _, _, pc, ..)| TokenRow {
                id: id.0.clone(),
                name: name.0.clone(),
                kind: kind.0,
                side: side.0,
                size: size.size,
                hp: if cx.audience.sees_hit_points(pc, side.0) {
                    format!("{}/{}", hit_points.0.hp, hit_points.0.max_hp)
                } else {
                    hit_points.0.outward().word().to_owned()
                },
                ac: vitals.ac,
                speed: vitals.speed,
                initiative: cx
                    .session
                    .and_then(|s| s.initiative.entries.iter().find(|e| e.id == id.0))
                    .filter(|e| cx.audience.dm || !e.hidden)
                    .map(|e| e.initiative),
            })
            .collect(),
        selected,
    }
}

/// The card's view of a creature's turn: what is left, its actions, and who it could help.
fn turn_view(
    tokens: &TokenQuery,
    cx: &RosterContext,
    entity: Entity,
    moves: &TurnMoves,
    actions: &Actions,
    combatant: &Combatant,
) -> TurnView {
    let me = tokens.get(entity).ok();
    let cells_of = |position: &Position, size: &CreatureSize| -> Vec<crate::rules::Cell> {
        crate::rules::Footprint::of(cx.grid, size.size, size.square_side).at(position.0).collect()
    };
    let my_cells = me.map(|t| cells_of(t.7, t.5)).unwrap_or_default();
    let my_side = me.map_or(crate::rules::creature::Side::Neutral, |t| t.4.0);
    let others: Vec<_> =
        tokens.iter().filter(|t| t.0 != entity && !t.14.1 && t.3.0 == crate::scenario::TokenKind::Creature).collect();
    let allies = others
        .iter()
        .filter(|t| !t.4.0.is_hostile_to(my_side) && my_side != crate::rules::creature::Side::Neutral)
        .map(|t| (t.1.0.clone(), t.2.0.clone()))
        .collect();
    let enemies_near = others
        .iter()
        .filter(|t| t.4.0.is_hostile_to(my_side))
        .filter(|t| {
            crate::rules::distance::range_feet(cx.grid, cx.rules.diagonals, &my_cells, &cells_of(t.7, t.5))
                .is_some_and(|feet| feet <= crate::rules::fight::actions::HELP_FEET)
        })
        .map(|t| (t.1.0.clone(), t.2.0.clone()))
        .collect();
    let economy = &actions.0;
    let name_of = |id: &str| tokens.iter().find(|t| t.1.0 == id).map_or_else(|| id.to_owned(), |t| t.2.0.clone());
    TurnView {
        fight_runs: cx.turn.fight_runs(),
        active: cx.turn.active == Some(entity),
        left: economy.left(&combatant.sheet.turn),
        movement: MovementView {
            speed: moves.turn.speed,
            left: moves.turn.left(),
            allowance: moves.turn.allowance(),
            dashes: moves.turn.dashes,
            moves: moves.turn.moves.len(),
            active: cx.turn.active == Some(entity),
        },
        attacks_per_action: combatant.sheet.turn.attacks(),
        bonus_actions: combatant.sheet.turn.bonus_actions.clone(),
        readied: economy.readied.as_ref().map(|r| r.describe(name_of)),
        fires_by_hand: economy.readied.as_ref().is_some_and(|r| !matches!(r.response, Response::Attack(_))),
        dm: cx.audience.dm,
        allies,
        enemies_near,
        others: others.iter().map(|t| (t.1.0.clone(), t.2.0.clone())).collect(),
        attacks: combatant.sheet.attacks.iter().map(|a| a.name.clone()).collect(),
        hidden: combatant.hidden.is_some(),
    }
}

/// The card's view of a creature's fight.
fn fight_view(
    vitals: &Vitals,
    hit_points: &HitPoints,
    combatant: &Combatant,
    facing: Option<&Facing>,
    shield: Option<&Shield>,
    picked: Option<&str>,
    exact_hp: bool,
) -> FightView {
    let conditions = combatant.conditions.clone();
    FightView {
        exact_hp,
        health: hit_points.0,
        max_hp: crate::rules::conditions::exhausted_max_hp(hit_points.0.max_hp, vitals.exhaustion),
        prone: conditions.has(crate::rules::conditions::Condition::Prone),
        conditions,
        exhaustion: vitals.exhaustion,
        attacks: combatant
            .sheet
            .attacks
            .iter()
            .map(|a| {
                (a.name.clone(), format!("{:+} to hit, {} {}, {}", a.bonus, a.damage, a.damage_type, a.reach_words()))
            })
            .collect(),
        picked: picked.map(str::to_owned),
        dodging: combatant.dodging,
        defenses: combatant.defenses.describe(),
        turns: facing.is_some(),
        shield: shield.map(|s| s.0),
        arcs: (!combatant.arcs.is_standard()).then(|| {
            let a = combatant.arcs;
            format!("Arcs: left counts as {}, right as {}, rear as {}", a.left.name(), a.right.name(), a.rear.name())
        }),
    }
}

/// Whether the dice and tables panel is shown (off at start: the map comes first).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DicePanelOpen(pub bool);

fn toggle_dice_panel(mut toggles: MessageReader<Toggle>, mut open: ResMut<DicePanelOpen>) {
    for _ in toggles.read().filter(|t| **t == Toggle::DicePanel) {
        open.0 = !open.0;
    }
}

/// What the panels read.
#[derive(bevy::ecs::system::SystemParam)]
struct Seen<'w> {
    selection: Res<'w, Selection>,
    pointer: Res<'w, PointerOnMap>,
    notice: ResMut<'w, Notice>,
    turn: Res<'w, Turn>,
    dragging: Res<'w, Dragging>,
    cover_preview: Res<'w, CoverPreview>,
    chase: Res<'w, ChaseMode>,
    reactions: Res<'w, Reactions>,
    audience: ResMut<'w, Audience>,
}

/// The map tools the panels show.
#[derive(bevy::ecs::system::SystemParam)]
struct Tools<'w> {
    dice_open: Res<'w, DicePanelOpen>,
    template: ResMut<'w, TemplateTool>,
    sight_overlay: Res<'w, SightOverlay>,
    ruler: Res<'w, Ruler>,
    grid_visible: Res<'w, GridVisible>,
    editor: Res<'w, Editor>,
    history: Res<'w, History>,
}

/// Where the panels' requests go.
#[derive(bevy::ecs::system::SystemParam)]
struct Requests<'w> {
    dice: MessageWriter<'w, DiceRequest>,
    turn_requests: MessageWriter<'w, TurnRequest>,
    select: MessageWriter<'w, SelectToken>,
    open: MessageWriter<'w, OpenScenario>,
    fit: MessageWriter<'w, FitMap>,
    chase: MessageWriter<'w, ChaseMessage>,
    toggles: MessageWriter<'w, Toggle>,
    fight: MessageWriter<'w, FightRequest>,
    answers: MessageWriter<'w, ReactionAnswer>,
    siege: MessageWriter<'w, SiegeRequest>,
    history: MessageWriter<'w, HistoryRequest>,
    edits: MessageWriter<'w, EditMessage>,
    save: MessageWriter<'w, SaveScenario>,
}

fn draw_panels(
    mut contexts: EguiContexts,
    tokens: TokenQuery,
    seen: Seen,
    tools: Tools,
    loaded: Res<LoadedScenario>,
    mut edit: ResMut<StatusEditState>,
    mut dice_edit: Local<DiceEdit>,
    mut fight_edit: Local<FightEdit>,
    mut turn_edit: Local<(TurnEdit, Option<String>)>,
    mut editor_edit: Local<EditorEdit>,
    fight_seen: (Res<AttackMode>, Res<AttackPreview>, Res<SiegeCard>),
    session: Option<Res<Session>>,
    mut view_rect: ResMut<MapViewRect>,
    mut button_targets: ResMut<ButtonTargets>,
    out: Requests,
) -> Result {
    let Seen {
        selection,
        pointer,
        mut notice,
        turn,
        dragging,
        cover_preview,
        chase: chase_mode,
        reactions,
        mut audience,
    } = seen;
    let (attack_mode, attack_preview, siege_card) = fight_seen;
    let Tools { dice_open, mut template, sight_overlay, ruler, grid_visible, editor, history } = tools;
    let Requests {
        mut dice,
        mut turn_requests,
        mut select,
        mut open,
        mut fit,
        mut chase,
        mut toggles,
        mut fight,
        mut answers,
        mut siege,
        history: mut undo,
        mut edits,
        mut save,
    } = out;
    let ctx = contexts.ctx_mut()?;
    let loaded = &*loaded;
    let scenario = &loaded.scenario;
    let picked = attack_mode.picked_by(selection.0);
    let cx = RosterContext {
        selection: *selection,
        rules: scenario.fight_rules(),
        grid: scenario.grid,
        turn: &turn,
        session: session.as_deref(),
        picked,
        audience: *audience,
        siege: &siege_card.0,
    };
    let roster = roster_view(&tokens, &cx);
    let active_name = turn.active.and_then(|e| tokens.get(e).ok()).map(|t| seen_name(&t.2.0, t.14.1));
    let status = StatusView {
        scenario_name: scenario.name.clone(),
        source: loaded.source_name(),
        grid: scenario.grid,
        rules: scenario.rules,
        grid_visible: grid_visible.0,
        hovered: pointer.cell.map(|c| (c, scenario.map.terrain(c).map_or_else(String::new, |t| t.name.clone()))),
        message: notice.0.clone(),
        ruler_active: ruler.active,
        sight_overlay: sight_overlay.on,
        template_active: template.active,
        dice_open: dice_open.0,
        chase_open: chase_mode.setup_open,
        turn: active_name.map(|name| (turn.round, name)),
        dm: audience.dm,
        editing: editor.on,
        undo: history.undo.len(),
        redo: history.redo.len(),
    };
    let entity_of = |id: &str| tokens.iter().find(|t| t.1.0 == id).map(|t| t.0);
    let mut root = egui::Ui::new(
        ctx.clone(),
        "battlemap-root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    // The side and bottom panels have no fill: the map camera doesn't draw under them, so the
    // window's clear colour is their background, and software rendering shades no extra pixels.
    root.style_mut().visuals.panel_fill = egui::Color32::TRANSPARENT;
    let mut requests = egui::Panel::bottom("status").show(&mut root, |ui| status_bar(ui, &status, &mut edit.0)).inner;
    if audience.dm {
        let banner = egui::Frame::new().fill(egui::Color32::from_rgb(150, 30, 30)).inner_margin(6.0);
        requests.extend(egui::Panel::top("dm-banner").frame(banner).show(&mut root, dm_banner).inner);
    }
    if let Some(session) = session.as_deref().filter(|s| !s.initiative.entries.is_empty()) {
        let view = initiative_view(&tokens, session, &turn, *audience);
        let (_, adding) = &mut *turn_edit;
        requests.extend(
            egui::Panel::right("initiative")
                .resizable(true)
                .default_size(200.0)
                .show(&mut root, |ui| initiative_panel(ui, &view, adding))
                .inner,
        );
    }
    if let Some(session) = session.as_deref().filter(|_| dice_open.0) {
        let roller = selection.0.filter(|e| tokens.get(*e).is_ok());
        // The players' view never receives a hidden roll's full line.
        let log = session
            .log
            .entries
            .iter()
            .map(|e| (if audience.dm { e.full_text() } else { e.player_text() }, e.player_text(), e.hidden))
            .collect();
        let view = DiceView {
            seed: session.log.seed,
            log,
            dm: audience.dm,
            roller: roller.and_then(|e| tokens.get(e).ok()).map_or_else(|| "the DM".to_owned(), |t| t.2.0.clone()),
            inspired: roller
                .and_then(|e| tokens.get(e).ok())
                .and_then(|t| t.13.2)
                .is_some_and(|i| i.spent_on_next_roll),
        };
        requests.extend(
            egui::Panel::right("dice")
                .resizable(true)
                .default_size(320.0)
                .show(&mut root, |ui| dice_panel(ui, &view, &session.tables, &mut dice_edit))
                .inner,
        );
    }
    requests.extend(
        egui::Panel::left("roster")
            .resizable(true)
            .default_size(390.0)
            .show(&mut root, |ui| {
                let mut requests = Vec::new();
                if editor.on {
                    let view =
                        editor_view(&editor, &history, scenario, roster.selected.as_ref().map(|s| s.id.as_str()));
                    egui::ScrollArea::vertical()
                        .id_salt("editor")
                        .max_height(ui.available_height() * 0.7)
                        .show(ui, |ui| requests.extend(editor_panel(ui, &view, &mut editor_edit)));
                    ui.separator();
                    // The list selects the token to edit; the card is play's.
                    let list = RosterView { rows: roster.rows.clone(), selected: None };
                    requests.extend(roster_panel(ui, &list, &mut fight_edit, &mut turn_edit.0));
                    return requests;
                }
                if template.active {
                    requests.extend(template_panel(ui, &template.view));
                    ui.separator();
                }
                requests.extend(roster_panel(ui, &roster, &mut fight_edit, &mut turn_edit.0));
                requests
            })
            .inner,
    );
    if let Some(at) = pointer.screen {
        let at = egui::pos2(at.x, at.y);
        if let Some(card) = &attack_preview.0 {
            cursor_label(ctx, at, &card.lines.join("\n"), !card.allowed);
        } else if let Some(drag) = &dragging.0 {
            match &drag.preview {
                Ok((path, dash)) => {
                    let dash = if *dash { " · Dash" } else { "" };
                    let squeeze = if path.fit == crate::rules::movement::Fit::Squeezing { " · squeezing" } else { "" };
                    let mut text = format!("{} ft{dash}{squeeze}", path.cost);
                    for p in &drag.provokes {
                        let from = name_in_view(&tokens, &p.reactor, &p.reactor_name);
                        text.push_str(&format!("\nProvokes an opportunity attack from {from} at {}", p.at));
                    }
                    cursor_label(ctx, at, &text, false);
                }
                Err(reason) if !reason.is_empty() => cursor_label(ctx, at, reason, true),
                Err(_) => {}
            }
        } else if let Some(preview) = cover_preview.0.as_ref().filter(|_| !ruler.active) {
            cursor_label(ctx, at, &preview.label(), false);
        } else if let Some(measure) = ruler.active.then(|| ruler.measure(loaded, pointer.cell)).flatten() {
            let legs: Vec<String> = measure.legs.iter().map(ToString::to_string).collect();
            let detail = if legs.len() > 1 { format!(" ({})", legs.join(" + ")) } else { String::new() };
            cursor_label(ctx, at, &format!("{} ft{detail}", measure.total), false);
        }
    }
    if let Some(prompt) = prompt_view(&reactions, &tokens)
        && let Some(yes) = reaction_prompt(ctx, &prompt)
    {
        requests.push(PanelRequest::Answer(yes));
    }
    let drawn = crate::ui::take_button_targets(ctx);
    if button_targets.0 != drawn {
        button_targets.0 = drawn;
    }
    let free = root.available_rect_before_wrap();
    let free = Some(Rect::new(free.min.x, free.min.y, free.max.x, free.max.y));
    if view_rect.0 != free {
        view_rect.0 = free;
    }
    for request in requests {
        match request {
            PanelRequest::Select(id) => {
                select.write(SelectToken(Some(id)));
            }
            PanelRequest::ClearSelection => {
                select.write(SelectToken(None));
            }
            PanelRequest::ShowGrid(on) => {
                if on != grid_visible.0 {
                    toggles.write(Toggle::GridLines);
                }
            }
            PanelRequest::Open(path) => {
                open.write(OpenScenario { path: Some(path.into()) });
            }
            PanelRequest::Reload => {
                open.write(OpenScenario { path: None });
            }
            PanelRequest::FitMap => {
                fit.write(FitMap);
            }
            PanelRequest::Turn { id, action } => {
                let Some(entity) = entity_of(&id) else { continue };
                match turn_request(entity, action, &entity_of) {
                    Routed::Turn(request) => {
                        turn_requests.write(request);
                    }
                    Routed::Fight(request) => {
                        fight.write(request);
                    }
                    Routed::Answer(answer) => {
                        answers.write(answer);
                    }
                }
            }
            PanelRequest::Initiative(action) => {
                let request = match action {
                    InitiativeAction::Delay => Some(TurnRequest::Delay),
                    InitiativeAction::Join(id) => entity_of(&id).map(TurnRequest::Join),
                    InitiativeAction::Leave(id) => entity_of(&id).map(TurnRequest::Leave),
                    InitiativeAction::Secret(id, on) => entity_of(&id).map(|e| TurnRequest::Secret(e, on)),
                };
                turn_requests.write_batch(request);
            }
            PanelRequest::Answer(yes) => {
                answers.write(if reactions.interrupted.is_some() {
                    ReactionAnswer::Opportunity { attack: yes }
                } else {
                    ReactionAnswer::Readied { fire: yes }
                });
            }
            PanelRequest::Audience(dm) => audience.dm = dm,
            PanelRequest::NextTurn => {
                turn_requests.write(TurnRequest::NextTurn);
            }
            PanelRequest::ToggleDiagonals => {
                toggles.write(Toggle::Diagonals);
            }
            PanelRequest::ToggleSight => {
                toggles.write(Toggle::SightOverlay);
            }
            PanelRequest::ToggleDice => {
                toggles.write(Toggle::DicePanel);
            }
            PanelRequest::ToggleChase => {
                chase.write(ChaseMessage(ChaseRequest::ToggleSetup));
            }
            PanelRequest::ToggleTemplate => {
                toggles.write(Toggle::Template);
            }
            PanelRequest::SetTemplate(settings) => template.settings = settings,
            PanelRequest::SetSaves(saves) => template.saves = saves,
            PanelRequest::RollSaves => {
                let saves = &template.saves;
                let damage = if saves.damage.trim().is_empty() {
                    Ok(None)
                } else {
                    crate::rules::dice::Notation::parse(&saves.damage).map(Some)
                };
                match (damage, template.origin) {
                    (Ok(damage), Some(origin)) => {
                        let effect = crate::rules::fight::saves::SaveEffect {
                            ability: saves.ability,
                            dc: saves.dc,
                            damage,
                            damage_type: saves.damage_type,
                            half_on_success: saves.half_on_success,
                        };
                        fight.write(FightRequest::RollSaves { cells: template.covered.clone(), origin, effect });
                    }
                    (Err(error), _) => notice.0 = Some((error.to_string(), true)),
                    (_, None) => {}
                }
            }
            PanelRequest::Roll { notation, mode, hidden, reason } => {
                dice.write(DiceRequest::Roll { roller: selection.0, notation, mode, hidden, reason });
            }
            PanelRequest::RollTable { id, hidden } => {
                dice.write(DiceRequest::RollTable { id, hidden });
            }
            PanelRequest::Inspiration { id, give } => {
                dice.write_batch(entity_of(&id).map(|entity| DiceRequest::Inspiration { entity, give }));
            }
            PanelRequest::Siege { operator, weapon, action } => {
                if let (Some(operator), Some(weapon)) = (entity_of(&operator), entity_of(&weapon)) {
                    siege.write(match action {
                        SiegeAction::Work(step) => SiegeRequest::Work { operator, weapon, step },
                        SiegeAction::PickTarget => SiegeRequest::PickTarget { operator, weapon },
                        SiegeAction::Tip => SiegeRequest::Tip { operator, weapon },
                    });
                }
            }
            PanelRequest::Fight { id, action } => {
                fight.write_batch(entity_of(&id).map(|entity| fight_request(entity, action)));
            }
            PanelRequest::ToggleRuler => {
                toggles.write(Toggle::Ruler);
            }
            PanelRequest::Undo => {
                undo.write(HistoryRequest::Undo);
            }
            PanelRequest::Redo => {
                undo.write(HistoryRequest::Redo);
            }
            PanelRequest::Save => {
                save.write(SaveScenario { path: None });
            }
            PanelRequest::SaveAs(path) => {
                save.write(SaveScenario { path: Some(path.into()) });
            }
            PanelRequest::ToggleEditor => {
                edits.write(EditMessage::Toggle);
            }
            PanelRequest::Edit(request) => {
                edits.write(EditMessage::Panel(request));
            }
        }
    }
    Ok(())
}

/// The editor panel's view: the legend as a palette, the map's size and grid, and the selected
/// token as the scene holds it now.
fn editor_view(
    editor: &Editor,
    history: &History,
    scenario: &crate::scenario::Scenario,
    selected: Option<&str>,
) -> EditorView {
    let palette = scenario.map.palette();
    let terrains = palette
        .iter()
        .zip(&scenario.glyphs)
        .map(|(terrain, glyph)| {
            let blocks: Vec<&str> = [
                (terrain.blocks_movement, "blocks movement"),
                (terrain.blocks_sight, "blocks sight"),
                (terrain.blocks_cover, "gives cover"),
                (terrain.difficult, "difficult terrain"),
            ]
            .into_iter()
            .filter_map(|(on, words)| on.then_some(words))
            .collect();
            TerrainChoice {
                glyph: *glyph,
                name: terrain.name.clone(),
                color: super::board::terrain_color(terrain),
                blocks: if blocks.is_empty() { "open ground".to_owned() } else { blocks.join(", ") },
            }
        })
        .collect();
    let board = history.current.as_ref().map_or(scenario, |c| &c.board);
    EditorView {
        tool: editor.tool,
        terrains,
        terrain: editor.terrain,
        brush: editor.brush,
        width: scenario.map.width(),
        height: scenario.map.height(),
        grid: scenario.grid,
        placing: editor.placing,
        selected: selected.and_then(|id| board.token(id)).cloned(),
        refusal: editor.refusal.clone(),
    }
}

/// Where a card's turn action goes: the turn, the fight (the actions with a ruling on the board:
/// Help, Hide, Search), or the reactions (firing a readied action by hand).
enum Routed {
    Turn(TurnRequest),
    Fight(FightRequest),
    Answer(ReactionAnswer),
}

/// The message for a card's turn action on `entity`.
fn turn_request(entity: Entity, action: TurnAction, entity_of: &impl Fn(&str) -> Option<Entity>) -> Routed {
    match action {
        TurnAction::Act(action) => Routed::Turn(TurnRequest::Act(entity, action)),
        TurnAction::Interact => Routed::Turn(TurnRequest::Interact(entity)),
        TurnAction::Ready(readied) => Routed::Turn(TurnRequest::Ready(entity, readied)),
        TurnAction::Undo => Routed::Turn(TurnRequest::Undo(entity)),
        TurnAction::StartTurn => Routed::Turn(TurnRequest::StartTurn(entity)),
        TurnAction::Hide => Routed::Fight(FightRequest::Hide { who: entity }),
        TurnAction::Search => Routed::Fight(FightRequest::Search { who: entity }),
        TurnAction::Help { ally, target } => Routed::Fight(FightRequest::Help {
            helper: entity,
            ally: entity_of(&ally).unwrap_or(Entity::PLACEHOLDER),
            target: entity_of(&target).unwrap_or(Entity::PLACEHOLDER),
        }),
        TurnAction::FireReadied => Routed::Answer(ReactionAnswer::FireByHand(entity)),
    }
}

/// The initiative tracker's view: the order with names, whose turn it is, and who isn't in it.
fn initiative_view(tokens: &TokenQuery, session: &Session, turn: &Turn, audience: Audience) -> InitiativeView {
    let order = &session.initiative;
    let by_id = |id: &str| tokens.iter().find(|t| t.1.0 == id);
    InitiativeView {
        round: order.round,
        entries: order
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let token = by_id(&e.id);
                EntryView {
                    id: e.id.clone(),
                    name: token.map_or_else(|| e.id.clone(), |t| t.2.0.clone()),
                    side: token.map_or(crate::rules::creature::Side::Neutral, |t| t.4.0),
                    initiative: e.initiative,
                    current: order.current == Some(i) && token.is_some_and(|t| turn.active == Some(t.0)),
                    hidden: e.hidden,
                }
            })
            .collect(),
        absent: tokens
            .iter()
            .filter(|t| t.13.0.is_some() && order.entry(&t.1.0).is_none())
            .map(|t| (t.1.0.clone(), t.2.0.clone()))
            .collect(),
        dm: audience.dm,
    }
}

/// A creature's name, or "a hidden creature" when the audience doesn't see it.
fn seen_name(name: &str, out_of_view: bool) -> String {
    if out_of_view { "a hidden creature".to_owned() } else { name.to_owned() }
}

/// The name of the token with this id as the audience may read it.
fn name_in_view(tokens: &TokenQuery, id: &str, name: &str) -> String {
    seen_name(name, tokens.iter().any(|t| t.1.0 == id && t.14.1))
}

/// The reaction prompt for what waits: an opportunity attack first, then readied actions. A
/// reactor the audience doesn't see is "a hidden creature".
fn prompt_view(reactions: &Reactions, tokens: &TokenQuery) -> Option<PromptView> {
    let name = |e: Entity| tokens.get(e).map_or_else(|_| "?".to_owned(), |t| seen_name(&t.2.0, t.14.1));
    if let Some(interrupted) = &reactions.interrupted {
        let offer = interrupted.offers.front()?;
        let reactor = name_in_view(tokens, &offer.reactor, &offer.reactor_name);
        return Some(PromptView {
            title: "Opportunity attack?".into(),
            lines: vec![
                format!(
                    "{} is leaving {reactor}'s reach ({} ft) at {}.",
                    name(interrupted.mover),
                    offer.reach,
                    offer.at
                ),
                format!("{reactor} may strike with {}, using its reaction; the move waits.", offer.attack),
            ],
            yes: "Opportunity attack".into(),
            no: "Let it go".into(),
        });
    }
    let offer = reactions.readied.front()?;
    let readied = tokens.get(offer.reactor).ok().and_then(|t| t.13.1).and_then(|a| a.0.readied.clone())?;
    let name_of = |id: &str| tokens.iter().find(|t| t.1.0 == id).map_or_else(|| id.to_owned(), |t| t.2.0.clone());
    Some(PromptView {
        title: "Readied action".into(),
        lines: vec![
            format!("{} has moved.", name(offer.trigger)),
            format!("{} readied: {}.", name(offer.reactor), readied.describe(name_of)),
        ],
        yes: "Fire".into(),
        no: "Hold".into(),
    })
}

/// The fight message for a card's action on `entity`.
fn fight_request(entity: Entity, action: FightAction) -> FightRequest {
    match action {
        FightAction::PickAttack(attack) => FightRequest::PickAttack { attacker: entity, attack },
        FightAction::Damage(amount) => FightRequest::Damage { target: entity, amount },
        FightAction::Heal(amount) => FightRequest::Heal { target: entity, amount },
        FightAction::TempHp(amount) => FightRequest::TempHp { target: entity, amount },
        FightAction::Condition(condition, on) => FightRequest::Condition { target: entity, condition, on },
        FightAction::Exhaustion(level) => FightRequest::Exhaustion { target: entity, level },
        FightAction::DeathSave => FightRequest::DeathSave { target: entity },
        FightAction::Stabilize => FightRequest::Stabilize { target: entity },
        FightAction::Turn { clockwise } => FightRequest::Turn { target: entity, clockwise },
        FightAction::Dodge(on) => FightRequest::Dodge { target: entity, on },
        FightAction::StandUp => FightRequest::StandUp { target: entity },
    }
}

#[cfg(test)]
mod tests {
    /// The exact sRGB curves, in f64.
    fn linear_from_gamma(x: f64) -> f64 {
        if x < 0.04045 { x / 12.92 } else { ((x + 0.055) / 1.055).powf(2.4) }
    }

    fn gamma_from_linear(x: f64) -> f64 {
        if x < 0.0031308 { x * 12.92 } else { 1.055 * x.powf(1.0 / 2.4) - 0.055 }
    }

    /// The coefficients of the cubic (`let p = ...`) in `egui.wgsl`.
    fn cubic() -> [f32; 4] {
        let line = include_str!("egui.wgsl").lines().find(|l| l.trim_start().starts_with("let p ="));
        let numbers: Vec<f32> = line
            .expect("a cubic")
            .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .filter_map(|t| t.parse().ok())
            .collect();
        numbers.try_into().expect("four coefficients")
    }

    /// The shader's cheaper conversion, in f32 as the shader computes it, gives every text and
    /// widget colour egui can draw (an 8-bit texel, read as stored, times an 8-bit vertex colour,
    /// both in gamma space) the same 8-bit sRGB output as the exact curve, give or take one level.
    #[test]
    fn the_egui_shader_converts_colours_within_one_level() {
        let p = cubic();
        let linear_from_gamma_fast = |x: f32| {
            if x < 0.04045 {
                return x / 12.92;
            }
            let y = (x + 0.055) / 1.055;
            let s = y.sqrt();
            let r = s.sqrt();
            y * y * s * (p[0] + r * (p[1] + r * (p[2] + r * p[3])))
        };
        let level = |linear: f64| (gamma_from_linear(linear).clamp(0.0, 1.0) * 255.0).round() as i32;
        for texel in 0..=255 {
            let texel = f64::from(texel) / 255.0;
            for vertex in 0..=255 {
                let vertex = f64::from(vertex) / 255.0;
                let exact = level(linear_from_gamma(texel * vertex));
                let fast = linear_from_gamma_fast(texel as f32 * vertex as f32);
                assert!((level(f64::from(fast)) - exact).abs() <= 1, "texel {texel}, vertex {vertex}");
            }
        }
    }
}
