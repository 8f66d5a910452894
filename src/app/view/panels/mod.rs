//! The egui pass: builds the panels' view models from the ECS (`views`), draws them with
//! [`crate::ui`], and sends each request to the feature that applies it (`route`). The chase's
//! screens (`chase`) and the siege part of the card (`siege_card`) have their own files.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::app::core::dice::{RollRecord, Tables};
use crate::app::core::history::History;
use std::collections::{BTreeMap, BTreeSet};

use crate::app::core::layout::MapLayout;
use crate::app::core::messages::{EditorAsksForDmView, PanelName, ShowCard, Toggle};
use crate::app::core::mode::AppMode;
use crate::app::core::notice::{Notice, Pinned};
use crate::app::core::options::{LaunchOptions, Part};
use crate::app::core::pointer::{MapViewRect, PanelsOverMap, PointerOnMap, toggle_key};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{
    AttackMode, Audience, FogBrushInHand, GridVisible, LoadedScenario, Reactions, Selection, StepUnderWay,
};
use crate::app::core::tokens::Battlefield;
use crate::app::core::touch::Fingers;
use crate::app::core::turns::Turns;
use crate::app::features::chase::ChaseScreens;
use crate::app::features::editor::Editor;
use crate::app::features::fight::AttackPreview;
use crate::app::features::movement::{Dragging, Preview};
use crate::app::features::ruler::Ruler;
use crate::app::features::sight::{CoverPreview, SightOverlay};
use crate::app::features::template::TemplateTool;
use crate::ui::{
    DiceEdit, EditorEdit, FightEdit, PanelRequest, RosterView, StatusEdit, StatusView, TurnEdit, card_panel,
    cursor_label, dice_panel, dm_banner, editor_panel, initiative_panel, legend_panel, reaction_prompt, roster_panel,
    seated_turn_card, status_bar, template_panel,
};

mod chase;
pub mod floating;
mod route;
pub mod siege_card;
mod views;

use floating::{PanelLayout, floating};
use views::{Roster, RosterContext};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ButtonTargets>()
        .init_resource::<LegendSwatches>()
        .add_plugins((siege_card::plugin, floating::plugin))
        .add_systems(Update, open_the_card.in_set(AppSystems::Apply));
    for name in PanelName::ALL {
        app.add_systems(Update, toggle_key(name.key(), Toggle::Panel(name)).in_set(AppSystems::Input));
    }
    app.add_systems(
        EguiPrimaryContextPass,
        (
            (finger_sized_panels, make_legend_swatches).before(MapPanels),
            draw_panels
                .in_set(MapPanels)
                .run_if(|o: Option<Res<LaunchOptions>>| !o.is_some_and(|o| o.hides(Part::Panels))),
            chase::draw_chase.after(MapPanels),
        ),
    )
    .add_systems(
        PreUpdate,
        (drop_repeated_modifier_events, turn_pointer_to_seated_cards)
            .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    );
    render_plugin(app);
}

/// Drawing the panels: bevy_egui's shader replaced by `egui.wgsl`, which reads egui's textures
/// as stored and converts colours more cheaply (only where there is a renderer; added after
/// bevy_egui's plugin, which installs its own shader at the same handle).
fn render_plugin(app: &mut App) {
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
/// (italic text, the small discs), they are blended as stored. The one image of the app's own
/// that egui draws, the legend's swatches (`board::swatch_strip`), is stored `Rgba8Unorm` for the
/// same reason: the shader would take linear texels for gamma.
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

/// The legend's swatches: the tile atlas's square tiles in a strip (`board::swatch_strip`), made
/// once and given to egui, which keeps the image.
#[derive(Resource, Default)]
pub(crate) struct LegendSwatches {
    image: Option<Handle<Image>>,
    texture: Option<egui::TextureId>,
}

fn make_legend_swatches(
    mut swatches: ResMut<LegendSwatches>,
    mut images: ResMut<Assets<Image>>,
    mut contexts: EguiContexts,
) {
    if swatches.image.is_some() {
        return;
    }
    let Some(strip) = super::board::swatch_strip() else { return };
    let image = images.add(strip);
    swatches.texture = Some(contexts.add_image(bevy_egui::EguiTextureHandle::Strong(image.clone())));
    swatches.image = Some(image);
}

/// Once a finger has touched the screen, the panels' buttons grow to a finger's size (and stay so).
fn finger_sized_panels(fingers: Res<Fingers>, mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if fingers.touched && !*done {
        contexts.ctx_mut()?.all_styles_mut(crate::ui::style::finger_sized);
        *done = true;
    }
    Ok(())
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

/// The pointer over a card turned to a player's seat goes to the card's widgets, where egui laid
/// them out upright (`ui::seat`).
fn turn_pointer_to_seated_cards(mut contexts: Query<(&mut bevy_egui::EguiContext, &mut bevy_egui::EguiInput)>) {
    for (mut context, mut input) in &mut contexts {
        crate::ui::seat::turn_pointer(context.get_mut(), &mut input.0);
    }
}

/// Where the buttons the state file reports were drawn in the last frame (`ui::BUTTON_TARGETS`).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct ButtonTargets(pub Vec<(String, [f32; 2])>);

/// A long press opened a token's card: the card's panel opens if it was closed.
fn open_the_card(mut asked: MessageReader<ShowCard>, mut layout: ResMut<PanelLayout>) {
    if asked.read().count() > 0 && !layout.is_open(PanelName::Card) {
        layout.set_open(PanelName::Card, true);
        layout.table_view = false;
    }
}

/// What the panels read of the state.
#[derive(SystemParam)]
struct Seen<'w, 's> {
    loaded: Res<'w, LoadedScenario>,
    battlefield: Battlefield<'w, 's>,
    selection: Res<'w, Selection>,
    pointer: Res<'w, PointerOnMap>,
    notice: Res<'w, Notice>,
    pinned: Res<'w, Pinned>,
    turns: Res<'w, Turns>,
    reactions: Res<'w, Reactions>,
    audience: Res<'w, Audience>,
    log: Res<'w, RollRecord>,
    tables: Res<'w, Tables>,
    mode: Res<'w, State<AppMode>>,
}

/// The tools and previews the panels show.
#[derive(SystemParam)]
struct Tools<'w> {
    template: Res<'w, TemplateTool>,
    sight_overlay: Res<'w, SightOverlay>,
    ruler: Res<'w, Ruler>,
    grid_visible: Res<'w, GridVisible>,
    editor: Res<'w, Editor>,
    history: Res<'w, History>,
    chase: Res<'w, ChaseScreens>,
    dragging: Res<'w, Dragging>,
    cover_preview: Res<'w, CoverPreview>,
    attack_mode: Res<'w, AttackMode>,
    attack_preview: Res<'w, AttackPreview>,
    siege_card: Res<'w, siege_card::SiegeCard>,
    fog_brush: Res<'w, FogBrushInHand>,
    legend_swatches: Res<'w, LegendSwatches>,
    step: Res<'w, StepUnderWay>,
}

/// What is typed into the panels, kept between frames.
#[derive(Default)]
struct Typed {
    status: StatusEdit,
    dice: DiceEdit,
    fight: FightEdit,
    turn: TurnEdit,
    adding: Option<String>,
    editor: EditorEdit,
}

/// What `draw_panels` writes besides the requests: the map's free part, the buttons' places,
/// the panels' layout.
#[derive(SystemParam)]
struct Drawn<'w> {
    free: ResMut<'w, MapViewRect>,
    settling: ResMut<'w, super::camera::MapSettling>,
    covers: ResMut<'w, PanelsOverMap>,
    button_targets: ResMut<'w, ButtonTargets>,
    layout: ResMut<'w, PanelLayout>,
    board: Option<Res<'w, MapLayout>>,
    mouse: Res<'w, ButtonInput<MouseButton>>,
}

/// Draws the panels and sends what the user asked for.
fn draw_panels(
    mut contexts: EguiContexts,
    tokens: Roster,
    seen: Seen,
    tools: Tools,
    mut typed: Local<Typed>,
    mut drawn: Drawn,
    mut last_places: Local<BTreeMap<PanelName, floating::PanelPlace>>,
    mut last_covers: Local<Option<Vec<Rect>>>,
    mut requests: route::Requests,
    mut editor_asks: MessageReader<EditorAsksForDmView>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    // The editor asked for in the players' view: the DM's view's confirmation, then the editor.
    if editor_asks.read().count() > 0 {
        typed.status.confirming_dm = true;
        typed.status.then_edit = true;
    }
    let screen = ctx.viewport_rect();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "battlemap-root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(screen),
    );
    let layout = &mut *drawn.layout;
    let mut asked = bars(&mut root, &tokens, &seen, &tools, &mut typed, layout);
    // The map's room: the window but the bars. The panels float over it, a seated player's card
    // is drawn against its edge (issue 30).
    let map_room = root.available_rect_before_wrap();
    let mut shown = BTreeSet::new();
    if layout.table_view {
        asked.extend(table_view(&ctx, &tokens, &seen, &tools, map_room));
    } else {
        asked.extend(floating_panels(&ctx, &tokens, &seen, &tools, &mut typed, layout, map_room, &mut shown));
    }
    draw_cursor_label(&ctx, &tokens, &seen, &tools);
    // Its player's turn card has no Help form: no creature to help against is looked for.
    if *seen.mode.get() == AppMode::Play
        && !layout.table_view
        && let Some((id, name, seat, turn)) = views::seated_turn(&tokens, &roster_context(&seen, &tools, None))
    {
        asked.extend(seated_turn_card(&ctx, &id, &name, &turn, seat, map_room));
    }
    if let Some(prompt) = views::prompt_view(&seen.reactions, &tokens)
        && let Some(yes) = reaction_prompt(&ctx, &prompt, map_room)
    {
        asked.push(PanelRequest::Answer(yes));
    }
    let targets = crate::ui::take_button_targets(&ctx);
    if drawn.button_targets.0 != targets {
        drawn.button_targets.0 = targets;
    }
    // What covers the map: the bars and the panels open (not the cards that come and go).
    let to_rect = |r: egui::Rect| Rect::new(r.min.x, r.min.y, r.max.x, r.max.y);
    let mut covers: Vec<Rect> = [
        Rect::new(screen.min.x, map_room.max.y, screen.max.x, screen.max.y),
        Rect::new(screen.min.x, screen.min.y, screen.max.x, map_room.min.y),
    ]
    .into_iter()
    .filter(|r| !r.is_empty())
    .collect();
    let windows = PanelName::ALL.iter().filter(|n| shown.contains(*n)).map(|n| floating::window_id(*n));
    let editing = *seen.mode.get() == AppMode::Edit && !layout.table_view;
    let others = [
        (editing, EDITOR_WINDOW),
        (tools.template.active && !layout.table_view, TEMPLATE_WINDOW),
        (layout.table_view, INITIATIVE_STRIP),
    ];
    let others = others.into_iter().filter(|(shown, _)| *shown).map(|(_, id)| egui::Id::new(id));
    for id in windows.chain(others) {
        if let Some(rect) = ctx.memory(|m| m.area_rect(id)) {
            covers.push(to_rect(rect));
        }
    }
    if drawn.covers.0 != covers {
        drawn.covers.0.clone_from(&covers);
    }
    let map_size = drawn.board.as_ref().map_or(Vec2::ONE, |b| b.0.bounds().size());
    let free = floating::largest_free(to_rect(screen), &covers, map_size);
    // Published once the panels have come to rest: the same two frames running (a window's
    // first frame only measures it), and none of them being dragged.
    let settled = *last_covers == Some(covers.clone()) && !drawn.mouse.pressed(MouseButton::Left);
    if drawn.free.0 != free {
        if settled {
            drawn.free.0 = free;
        }
        // Frames go on until it is published and the map fitted to it (the app redraws on input
        // only, and *Fit map* fits to the part published, a frame later).
        ctx.request_repaint();
    }
    let pending = drawn.free.0 != free;
    if drawn.settling.view_pending != pending {
        drawn.settling.view_pending = pending;
    }
    *last_covers = Some(covers.clone());
    if !drawn.mouse.pressed(MouseButton::Left) {
        let places = floating::places(&ctx, layout, &shown, &last_places);
        if *last_places != places {
            layout.remember(places.clone());
            *last_places = places;
        }
    }
    let cx = route::Context {
        selected: seen.selection.0,
        grid_visible: tools.grid_visible.0,
        opportunity_prompt: seen.reactions.interrupted.is_some(),
    };
    for request in asked {
        requests.send(request, &cx);
    }
    Ok(())
}

/// The id of the map editor's window.
const EDITOR_WINDOW: &str = "map-editor-window";
/// The id of the area template's window.
const TEMPLATE_WINDOW: &str = "template-window";
/// The id of the table view's initiative strip.
const INITIATIVE_STRIP: &str = "initiative-strip";

/// The bottom bar (or, in the table view, only the button that leaves it) and the DM's banner.
fn bars(
    root: &mut egui::Ui,
    tokens: &Roster,
    seen: &Seen,
    tools: &Tools,
    typed: &mut Typed,
    layout: &PanelLayout,
) -> Vec<PanelRequest> {
    let bar = egui::Frame::side_top_panel(root.style()).fill(root.visuals().panel_fill);
    let mut asked = if layout.table_view {
        egui::Area::new("table-view-corner".into())
            .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-8.0, -8.0))
            .show(root.ctx(), |ui| {
                let show = ui.button("Show panels").on_hover_text("Leave the table view: the panels come back");
                crate::ui::remember(&show, "table.show_panels");
                if show.clicked() { vec![PanelRequest::TableView(false)] } else { Vec::new() }
            })
            .inner
    } else {
        let status = status_view(tokens, seen, tools, layout);
        egui::Panel::bottom("status").frame(bar).show(root, |ui| status_bar(ui, &status, &mut typed.status)).inner
    };
    if seen.audience.dm {
        let banner = egui::Frame::new().fill(egui::Color32::from_rgb(150, 30, 30)).inner_margin(6.0);
        asked.extend(egui::Panel::top("dm-banner").frame(banner).show(root, dm_banner).inner);
    }
    asked
}

/// The table view: the initiative as a strip across the top, and the active creature's turn
/// card at its seat's edge (the bottom's, if its player has no seat).
fn table_view(ctx: &egui::Context, tokens: &Roster, seen: &Seen, tools: &Tools, room: egui::Rect) -> Vec<PanelRequest> {
    let mut asked = Vec::new();
    if !seen.turns.order.entries.is_empty() {
        let view = views::initiative_view(tokens, &seen.turns, *seen.audience);
        egui::Area::new(egui::Id::new(INITIATIVE_STRIP)).fixed_pos(room.min + egui::vec2(8.0, 8.0)).show(ctx, |ui| {
            egui::Frame::window(ui.style()).show(ui, |ui| crate::ui::initiative_strip(ui, &view));
        });
    }
    if *seen.mode.get() == AppMode::Play
        && let Some((id, name, seat, turn)) = views::active_turn(tokens, &roster_context(seen, tools, None))
    {
        asked.extend(seated_turn_card(ctx, &id, &name, &turn, seat, room));
    }
    asked
}

/// The panels floating over the map: the roster, the selected creature's card, the initiative,
/// the dice, the legend; the map editor and the area template while they are in use.
#[allow(clippy::too_many_arguments)]
fn floating_panels(
    ctx: &egui::Context,
    tokens: &Roster,
    seen: &Seen,
    tools: &Tools,
    typed: &mut Typed,
    layout: &mut PanelLayout,
    room: egui::Rect,
    shown: &mut BTreeSet<PanelName>,
) -> Vec<PanelRequest> {
    let scenario = &seen.loaded.scenario;
    let editing = *seen.mode.get() == AppMode::Edit;
    let roster = roster(tokens, seen, tools);
    let mut asked = Vec::new();
    let title = |name: PanelName| crate::ui::panel_title(name);
    let list = RosterView { rows: roster.rows.clone(), selected: if editing { None } else { roster.selected.clone() } };
    let (fight, turn) = (&mut typed.fight, &mut typed.turn);
    if let Some(more) =
        floating(ctx, PanelName::Roster, title(PanelName::Roster), layout, room, shown, |ui| roster_panel(ui, &list))
    {
        asked.extend(more);
    }
    if !editing
        && roster.selected.is_some()
        && let Some(more) = floating(ctx, PanelName::Card, title(PanelName::Card), layout, room, shown, |ui| {
            card_panel(ui, &roster, fight, turn)
        })
    {
        asked.extend(more);
    }
    if !seen.turns.order.entries.is_empty() {
        let view = views::initiative_view(tokens, &seen.turns, *seen.audience);
        let adding = &mut typed.adding;
        if let Some(more) =
            floating(ctx, PanelName::Initiative, title(PanelName::Initiative), layout, room, shown, |ui| {
                initiative_panel(ui, &view, adding)
            })
        {
            asked.extend(more);
        }
    }
    let roller = seen.selection.0.filter(|e| tokens.get(*e).is_ok());
    let dice = &mut typed.dice;
    if let Some(more) = floating(ctx, PanelName::Dice, title(PanelName::Dice), layout, room, shown, |ui| {
        let view = views::dice_view(&seen.log, tokens, roller, *seen.audience);
        dice_panel(ui, &view, &seen.tables.0, dice)
    }) {
        asked.extend(more);
    }
    floating(ctx, PanelName::Legend, title(PanelName::Legend), layout, room, shown, |ui| {
        // Built only while it is open: it reads every cell of the map.
        let legend = views::legend_view(scenario, tokens, tools.legend_swatches.texture);
        legend_panel(ui, &legend);
    });
    if editing {
        let selected = roster.selected.as_ref().map(|s| s.id.as_str());
        let view = views::editor_view(&tools.editor, &tools.history, scenario, selected);
        let mut open = true;
        let shown = egui::Window::new("Map editor")
            .id(egui::Id::new(EDITOR_WINDOW))
            .open(&mut open)
            .default_pos(room.min + egui::vec2(6.0, 236.0))
            .default_size(egui::vec2(280.0, 420.0))
            .constrain_to(room)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| editor_panel(ui, &view, &mut typed.editor)).inner
            });
        asked.extend(shown.and_then(|s| s.inner).unwrap_or_default());
        if !open {
            asked.push(PanelRequest::ToggleEditor);
        }
    }
    if tools.template.active {
        let mut open = true;
        let shown = egui::Window::new("Area template")
            .id(egui::Id::new(TEMPLATE_WINDOW))
            .open(&mut open)
            // In the bottom right corner: the map's middle is where templates are placed.
            .pivot(egui::Align2::RIGHT_BOTTOM)
            .default_pos(room.right_bottom() - egui::vec2(6.0, 6.0))
            .default_width(280.0)
            .resizable(false)
            .constrain_to(room)
            .show(ctx, |ui| template_panel(ui, &tools.template.view));
        asked.extend(shown.and_then(|s| s.inner).unwrap_or_default());
        if !open {
            asked.push(PanelRequest::ToggleTemplate);
        }
    }
    asked
}

/// The roster with the selected creature's card.
fn roster(tokens: &Roster, seen: &Seen, tools: &Tools) -> RosterView {
    views::roster_view(tokens, &roster_context(seen, tools, seen.selection.0))
}

/// What the cards need beyond the tokens, for the card of `card_of` (the selected creature's, or
/// the seated turn card's).
fn roster_context<'a>(seen: &'a Seen, tools: &'a Tools, card_of: Option<Entity>) -> RosterContext<'a> {
    let scenario = &seen.loaded.scenario;
    let help_targets =
        card_of.map(|e| views::help_targets_of(scenario, &seen.battlefield.fighters(), e)).unwrap_or_default();
    RosterContext {
        selection: *seen.selection,
        rules: scenario.fight_rules(),
        grid: scenario.grid,
        turns: &seen.turns,
        picked: tools.attack_mode.picked_by(seen.selection.0),
        audience: *seen.audience,
        siege: &tools.siege_card.0,
        help_targets,
        scenario,
    }
}

/// The status bar's view: the scene, the tools, the last notice, whose turn it is.
fn status_view(tokens: &Roster, seen: &Seen, tools: &Tools, layout: &PanelLayout) -> StatusView {
    let scenario = &seen.loaded.scenario;
    let active_name =
        seen.turns.active.and_then(|e| tokens.get(e).ok()).map(|t| views::seen_name(&t.name.0, t.out_of_view));
    StatusView {
        scenario_name: scenario.name.clone(),
        source: seen.loaded.source_name(),
        grid: scenario.grid,
        rules: scenario.rules,
        grid_visible: tools.grid_visible.0,
        hovered: seen.pointer.cell.map(|c| (c, scenario.map.terrain(c).map_or_else(String::new, |t| t.name.clone()))),
        message: seen.notice.0.as_ref().map(|said| (crate::ui::words::said(said), said.is_refusal())),
        pinned: seen.pinned.0.iter().map(crate::ui::words::said).collect(),
        ruler_active: tools.ruler.active,
        sight_overlay: tools.sight_overlay.on,
        template_active: tools.template.active,
        open_panels: layout.open.iter().copied().collect(),
        chase_open: tools.chase.setup_open,
        chase_paused: tools.chase.hidden,
        turn: active_name.map(|name| (seen.turns.round(), name)),
        dm: seen.audience.dm,
        fog_brush: tools.fog_brush.0,
        editing: *seen.mode.get() == AppMode::Edit,
        undo: tools.history.undo.len(),
        redo: tools.history.redo.len(),
        can_undo: tools.history.can_restore(false, tools.step.any(&seen.reactions)),
        can_redo: tools.history.can_restore(true, tools.step.any(&seen.reactions)),
    }
}

/// The label beside the cursor: the attack card, a drag's cost (and the opportunity attacks it
/// provokes) or refusal, the cover ruling, or the ruler's measure.
fn draw_cursor_label(ctx: &egui::Context, tokens: &Roster, seen: &Seen, tools: &Tools) {
    let Some(at) = seen.pointer.screen else { return };
    let at = egui::pos2(at.x, at.y);
    if let Some(card) = &tools.attack_preview.0 {
        let (lines, allowed) = crate::ui::attack_card_lines(&card.shooter, &card.target_name, &card.ruling, &card.now);
        cursor_label(ctx, at, &lines.join("\n"), !allowed);
    } else if let Some(drag) = &tools.dragging.0 {
        match &drag.preview {
            Preview::Path { path, dash } => {
                let squeezing = path.fit == crate::rules::movement::Fit::Squeezing;
                let mut text = crate::ui::words::drag_path(path.cost, *dash, squeezing);
                for p in &drag.provokes {
                    let from = views::name_in_view(tokens, &p.reactor, &p.reactor_name);
                    text.push_str(&format!("\nProvokes an opportunity attack from {from} at {}", p.at));
                }
                cursor_label(ctx, at, &text, false);
            }
            Preview::Refused(why) => {
                cursor_label(ctx, at, &crate::ui::words::drag_refusal(why), true);
            }
            Preview::Pending => {}
        }
    } else if let Some(preview) = tools.cover_preview.0.as_ref().filter(|_| !tools.ruler.active) {
        let label = crate::ui::words::cover_label(preview.ruling.degree, preview.sight, &preview.target_name);
        cursor_label(ctx, at, &label, false);
    } else if let Some(measure) =
        tools.ruler.active.then(|| tools.ruler.measure(&seen.loaded, seen.pointer.cell)).flatten()
    {
        let legs: Vec<String> = measure.legs.iter().map(ToString::to_string).collect();
        let detail = if legs.len() > 1 { format!(" ({})", legs.join(" + ")) } else { String::new() };
        cursor_label(ctx, at, &format!("{} ft{detail}", measure.total), false);
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
