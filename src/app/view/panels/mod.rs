//! The egui pass: builds the panels' view models from the ECS (`views`), draws them with
//! [`crate::ui`], and sends each request to the feature that applies it (`route`). The chase's
//! screens (`chase`) and the siege part of the card (`siege_card`) have their own files.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::app::core::dice::{RollRecord, Tables};
use crate::app::core::history::History;
use crate::app::core::messages::{ShowCard, Toggle};
use crate::app::core::mode::AppMode;
use crate::app::core::notice::{Notice, Pinned};
use crate::app::core::options::{LaunchOptions, Part};
use crate::app::core::pointer::{MapViewRect, PointerOnMap, toggle_key};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{
    AttackMode, Audience, FogBrushInHand, GridVisible, LoadedScenario, Reactions, Selection,
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
    DiceEdit, EditorEdit, FightEdit, PanelRequest, RosterView, StatusEdit, StatusView, TurnEdit, cursor_label,
    dice_panel, dm_banner, editor_panel, initiative_panel, legend_panel, reaction_prompt, roster_panel,
    seated_turn_card, status_bar, template_panel,
};

mod chase;
mod route;
pub mod siege_card;
mod views;

use views::{Roster, RosterContext};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DicePanelOpen>()
        .init_resource::<ButtonTargets>()
        .init_resource::<CollapsedPanels>()
        .add_plugins(siege_card::plugin)
        .add_systems(
            Update,
            (
                toggle_key(KeyCode::KeyD, Toggle::DicePanel).in_set(AppSystems::Input),
                (toggle_dice_panel, unfold_the_card).in_set(AppSystems::Apply),
            ),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                finger_sized_panels.before(MapPanels),
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

/// Which side panels are folded to a strip, so the map gets the window (at 1280×800 the roster
/// and the initiative tracker open would leave it a third).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CollapsedPanels {
    pub roster: bool,
    pub initiative: bool,
    pub dice: bool,
    /// The map's legend is open (it starts folded).
    pub legend: bool,
}

/// A folded panel: a narrow strip with a button that opens it again, and the panel's name down
/// it. Returns whether the button was pressed.
fn strip(root: &mut egui::Ui, id: &'static str, left: bool, name: &str) -> bool {
    let panel = if left { egui::Panel::left(id) } else { egui::Panel::right(id) };
    panel
        .resizable(false)
        .exact_size(30.0)
        .show(root, |ui| {
            let open = ui.button(if left { "»" } else { "«" }).on_hover_text(format!("Show the {name}")).clicked();
            for letter in name.chars().filter(|c| !c.is_whitespace()) {
                ui.label(egui::RichText::new(letter.to_uppercase().to_string()).weak());
            }
            open
        })
        .inner
}

/// A small button drawn at the top right of a panel, `from_right` points in from its edge,
/// taking no room from the panel's rows: whether it was clicked.
fn corner_button(ui: &mut egui::Ui, from_right: f32, text: &str, hover: &str) -> bool {
    let top_right = ui.max_rect().right_top();
    let galley = ui.painter().layout_no_wrap(text.to_owned(), egui::FontId::proportional(13.0), egui::Color32::GRAY);
    let size = galley.size() + egui::vec2(10.0, 4.0);
    let rect = egui::Rect::from_min_size(top_right + egui::vec2(-from_right - size.x, 0.0), size);
    let response = ui.interact(rect, ui.id().with(("corner", text)), egui::Sense::click()).on_hover_text(hover);
    let visuals = ui.style().interact(&response);
    ui.painter().rect_filled(rect, 3.0, visuals.weak_bg_fill);
    ui.painter().galley(rect.min + egui::vec2(5.0, 2.0), galley, visuals.text_color());
    response.clicked()
}

/// The button that folds a panel to a strip, at its top right.
fn fold_button(ui: &mut egui::Ui, name: &str) -> bool {
    corner_button(ui, 0.0, "—", &format!("Fold the {name} to a strip"))
}

/// A long press opened a token's card: the roster, where the selected token's card is, unfolds.
fn unfold_the_card(mut asked: MessageReader<ShowCard>, mut collapsed: ResMut<CollapsedPanels>) {
    if asked.read().count() > 0 && collapsed.roster {
        collapsed.roster = false;
    }
}

/// Whether the dice and tables panel is shown (off at start: the map comes first).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DicePanelOpen(pub bool);

fn toggle_dice_panel(mut toggles: MessageReader<Toggle>, mut open: ResMut<DicePanelOpen>) {
    for _ in toggles.read().filter(|t| **t == Toggle::DicePanel) {
        open.0 = !open.0;
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
    dice_open: Res<'w, DicePanelOpen>,
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

/// Draws the panels and sends what the user asked for.
#[allow(clippy::too_many_arguments)]
fn draw_panels(
    mut contexts: EguiContexts,
    tokens: Roster,
    seen: Seen,
    tools: Tools,
    mut typed: Local<Typed>,
    mut view_rect: ResMut<MapViewRect>,
    mut button_targets: ResMut<ButtonTargets>,
    mut collapsed: ResMut<CollapsedPanels>,
    mut requests: route::Requests,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "battlemap-root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    // The side and bottom panels have no fill: the map camera doesn't draw under them, so the
    // window's clear colour is their background, and software rendering shades no extra pixels.
    root.style_mut().visuals.panel_fill = egui::Color32::TRANSPARENT;
    let mut asked = side_panels(&mut root, &tokens, &seen, &tools, &mut typed, &mut collapsed);
    // The map's room: a seated player's card is drawn against its edge of it (issue 30).
    let map_room = root.available_rect_before_wrap();
    draw_cursor_label(&ctx, &tokens, &seen, &tools);
    // Its player's turn card has no Help form: no creature to help against is looked for.
    if *seen.mode.get() == AppMode::Play
        && let Some((id, name, seat, turn)) = views::seated_turn(&tokens, &roster_context(&seen, &tools, None))
    {
        asked.extend(seated_turn_card(&ctx, &id, &name, &turn, seat, map_room));
    }
    if let Some(prompt) = views::prompt_view(&seen.reactions, &tokens)
        && let Some(yes) = reaction_prompt(&ctx, &prompt, map_room)
    {
        asked.push(PanelRequest::Answer(yes));
    }
    let drawn = crate::ui::take_button_targets(&ctx);
    if button_targets.0 != drawn {
        button_targets.0 = drawn;
    }
    let free = Some(Rect::new(map_room.min.x, map_room.min.y, map_room.max.x, map_room.max.y));
    if view_rect.0 != free {
        view_rect.0 = free;
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

/// The status bar, the DM's banner, the initiative tracker, the dice panel and the roster (or
/// the editor), with what each was asked.
fn side_panels(
    root: &mut egui::Ui,
    tokens: &Roster,
    seen: &Seen,
    tools: &Tools,
    typed: &mut Typed,
    collapsed: &mut CollapsedPanels,
) -> Vec<PanelRequest> {
    let scenario = &seen.loaded.scenario;
    let status = status_view(tokens, seen, tools);
    let mut asked = egui::Panel::bottom("status").show(root, |ui| status_bar(ui, &status, &mut typed.status)).inner;
    if seen.audience.dm {
        let banner = egui::Frame::new().fill(egui::Color32::from_rgb(150, 30, 30)).inner_margin(6.0);
        asked.extend(egui::Panel::top("dm-banner").frame(banner).show(root, dm_banner).inner);
    }
    if !seen.turns.order.entries.is_empty() && collapsed.initiative {
        collapsed.initiative = !strip(root, "initiative-strip", false, "initiative");
    } else if !seen.turns.order.entries.is_empty() {
        let view = views::initiative_view(tokens, &seen.turns, *seen.audience);
        let adding = &mut typed.adding;
        asked.extend(
            egui::Panel::right("initiative")
                .resizable(true)
                .default_size(200.0)
                .show(root, |ui| {
                    collapsed.initiative = fold_button(ui, "initiative");
                    initiative_panel(ui, &view, adding)
                })
                .inner,
        );
    }
    if tools.dice_open.0 && collapsed.dice {
        collapsed.dice = !strip(root, "dice-strip", false, "dice");
    } else if tools.dice_open.0 {
        let roller = seen.selection.0.filter(|e| tokens.get(*e).is_ok());
        let view = views::dice_view(&seen.log, tokens, roller, *seen.audience);
        asked.extend(
            egui::Panel::right("dice")
                .resizable(true)
                .default_size(320.0)
                .show(root, |ui| {
                    collapsed.dice = fold_button(ui, "dice");
                    dice_panel(ui, &view, &seen.tables.0, &mut typed.dice)
                })
                .inner,
        );
    }
    let roster = roster(tokens, seen, tools);
    let editing = *seen.mode.get() == AppMode::Edit;
    if collapsed.roster && !editing {
        collapsed.roster = !strip(root, "roster-strip", true, "roster");
        return asked;
    }
    // Only while it is open: it reads every cell of the map.
    let legend = collapsed.legend.then(|| views::legend_view(scenario, tokens));
    asked.extend(
        egui::Panel::left("roster")
            .resizable(true)
            .default_size(340.0)
            .show(root, |ui| {
                let mut asked = Vec::new();
                if !editing {
                    collapsed.roster = fold_button(ui, "roster");
                }
                let label = if collapsed.legend { "Hide legend" } else { "Legend" };
                if corner_button(ui, 30.0, label, "What each terrain and icon on the map means") {
                    collapsed.legend = !collapsed.legend;
                }
                if let Some(legend) = &legend {
                    ui.heading("Legend");
                    legend_panel(ui, legend);
                    ui.separator();
                }
                if editing {
                    let selected = roster.selected.as_ref().map(|s| s.id.as_str());
                    let view = views::editor_view(&tools.editor, &tools.history, scenario, selected);
                    egui::ScrollArea::vertical()
                        .id_salt("editor")
                        .max_height(ui.available_height() * 0.7)
                        .show(ui, |ui| asked.extend(editor_panel(ui, &view, &mut typed.editor)));
                    ui.separator();
                    // The list selects the token to edit; the card is play's.
                    let list = RosterView { rows: roster.rows.clone(), selected: None };
                    asked.extend(roster_panel(ui, &list, &mut typed.fight, &mut typed.turn));
                    return asked;
                }
                if tools.template.active {
                    asked.extend(template_panel(ui, &tools.template.view));
                    ui.separator();
                }
                asked.extend(roster_panel(ui, &roster, &mut typed.fight, &mut typed.turn));
                asked
            })
            .inner,
    );
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
    }
}

/// The status bar's view: the scene, the tools, the last notice, whose turn it is.
fn status_view(tokens: &Roster, seen: &Seen, tools: &Tools) -> StatusView {
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
        dice_open: tools.dice_open.0,
        chase_open: tools.chase.setup_open,
        turn: active_name.map(|name| (seen.turns.round(), name)),
        dm: seen.audience.dm,
        fog_brush: tools.fog_brush.0,
        editing: *seen.mode.get() == AppMode::Edit,
        undo: tools.history.undo.len(),
        redo: tools.history.redo.len(),
    }
}

/// The label beside the cursor: the attack card, a drag's cost (and the opportunity attacks it
/// provokes) or refusal, the cover ruling, or the ruler's measure.
fn draw_cursor_label(ctx: &egui::Context, tokens: &Roster, seen: &Seen, tools: &Tools) {
    let Some(at) = seen.pointer.screen else { return };
    let at = egui::pos2(at.x, at.y);
    if let Some(card) = &tools.attack_preview.0 {
        let (lines, allowed) = crate::ui::attack_card_lines(&card.shooter, &card.target_name, &card.ruling);
        cursor_label(ctx, at, &lines.join("\n"), !allowed);
    } else if let Some(drag) = &tools.dragging.0 {
        match &drag.preview {
            Preview::Path { path, dash } => {
                let dash = if *dash { " · Dash" } else { "" };
                let squeeze = if path.fit == crate::rules::movement::Fit::Squeezing { " · squeezing" } else { "" };
                let mut text = format!("{} ft{dash}{squeeze}", path.cost);
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
