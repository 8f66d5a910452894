//! The map editor's panel: the tool (paint, rectangle, tokens), the terrain and brush, the map's
//! size and grid, adding tokens, and the selected token's statistics in a form whose refusals
//! are shown in it.

use bevy_egui::egui::{self, Color32, RichText};

use super::PanelRequest;
use super::style::egui_color;
use crate::app::core::requests::{EditRequest, EditTool};
use crate::rules::creature::{Direction, ShieldSide, Side, Skill};
use crate::rules::{Grid, HexOrientation, Size};
use crate::scenario::edit::MAX_BRUSH;
use crate::scenario::{Background, CELL_PX, MAX_MAP_SIDE, MAX_OFFSET_PX, Token, TokenKind};

/// One terrain of the legend, as the palette shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainChoice {
    pub glyph: char,
    pub name: String,
    pub color: [u8; 3],
    pub blocks: String,
}

/// What the editor's panel shows.
#[derive(Clone, Debug, PartialEq)]
pub struct EditorView {
    pub tool: EditTool,
    pub terrains: Vec<TerrainChoice>,
    pub terrain: usize,
    pub brush: u32,
    pub width: u32,
    pub height: u32,
    pub grid: Grid,
    /// The token the next click on the map adds, if Add was pressed.
    pub placing: Option<TokenKind>,
    /// The selected token as the scene holds it.
    pub selected: Option<Token>,
    /// Why the last edit was refused.
    pub refusal: Option<String>,
    /// The map image under the grid, as the scene has it.
    pub background: Option<Background>,
}

/// What the user is typing into the editor, kept between frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditorEdit {
    /// The size fields, before Resize.
    pub size: Option<(u32, u32)>,
    /// The form's copy of the selected token, and the token as it was when the form took it (a
    /// change in play, or another edit, gives the form the new token).
    pub form: Option<Token>,
    pub taken_from: Option<Token>,
    /// A grid switch waiting for its confirmation.
    pub confirm_grid: Option<Grid>,
    /// The map image's fields, before Apply.
    pub background: Option<Background>,
}

/// Draws the editor's panel and returns what the user asked for.
pub fn editor_panel(ui: &mut egui::Ui, view: &EditorView, edit: &mut EditorEdit) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    let mut ask = |request: EditRequest| requests.push(PanelRequest::Edit(request));
    ui.horizontal(|ui| {
        if ui.button("Done").on_hover_text("Back to play (Ctrl+E)").clicked() {
            ask(EditRequest::Close);
        }
    });
    ui.horizontal(|ui| {
        for (tool, label, hover) in [
            (EditTool::Paint, "Paint", "Drag on the map to paint with the brush"),
            (EditTool::Rectangle, "Rectangle", "Drag out a rectangle to fill"),
            (EditTool::Tokens, "Tokens", "Drag tokens anywhere they fit; click one to edit it"),
        ] {
            if ui.selectable_label(view.tool == tool, label).on_hover_text(hover).clicked() && view.tool != tool {
                ask(EditTool::into_request(tool));
            }
        }
    });
    if view.tool != EditTool::Tokens {
        terrain_palette(ui, view, &mut ask);
    }
    ui.separator();
    map_size(ui, view, edit, &mut ask);
    map_image(ui, view, edit, &mut ask);
    ui.separator();
    ui.horizontal(|ui| {
        for (kind, label) in [(TokenKind::Creature, "Add creature"), (TokenKind::Object, "Add object")] {
            let placing = view.placing == Some(kind);
            if ui.selectable_label(placing, label).on_hover_text("Then click a cell of the map").clicked() {
                ask(EditRequest::Add(kind));
            }
        }
    });
    if let Some(refusal) = &view.refusal {
        ui.label(RichText::new(refusal).color(Color32::from_rgb(230, 90, 80)));
    }
    match &view.selected {
        Some(token) => token_form(ui, token, view.grid, edit, &mut ask),
        None => {
            edit.form = None;
            edit.taken_from = None;
            ui.label("Select a token (in the list or on the map) to edit it.");
        }
    }
    requests
}

impl EditTool {
    fn into_request(self) -> EditRequest {
        EditRequest::Tool(self)
    }
}

fn terrain_palette(ui: &mut egui::Ui, view: &EditorView, ask: &mut impl FnMut(EditRequest)) {
    ui.label("Terrain:");
    ui.horizontal_wrapped(|ui| {
        for (i, terrain) in view.terrains.iter().enumerate() {
            let swatch =
                RichText::new(format!("■ {} {}", terrain.glyph, terrain.name)).color(egui_color(terrain.color));
            let chosen = ui.selectable_label(view.terrain == i, swatch).on_hover_text(&terrain.blocks);
            if chosen.clicked() {
                ask(EditRequest::Terrain(i));
            }
        }
    });
    if view.tool == EditTool::Paint {
        let mut brush = view.brush;
        let slider = egui::Slider::new(&mut brush, 1..=MAX_BRUSH).text("brush size");
        if ui.add(slider).on_hover_text("1 is one cell; 2 adds the ring around it, and so on").changed() {
            ask(EditRequest::Brush(brush));
        }
    }
}

fn map_size(ui: &mut egui::Ui, view: &EditorView, edit: &mut EditorEdit, ask: &mut impl FnMut(EditRequest)) {
    let (width, height) = edit.size.get_or_insert((view.width, view.height));
    ui.horizontal(|ui| {
        ui.label("Size:");
        let side = 1..=MAX_MAP_SIDE as u32;
        ui.add(egui::DragValue::new(width).range(side.clone()).suffix(" wide"));
        ui.add(egui::DragValue::new(height).range(side).suffix(" high"));
        let changed = (*width, *height) != (view.width, view.height);
        if ui.add_enabled(changed, egui::Button::new("Resize")).clicked() {
            ask(EditRequest::Resize { width: *width, height: *height });
        }
    });
    if (*width, *height) != (view.width, view.height) && ui.small_button("Keep the size").clicked() {
        edit.size = None;
    }
    ui.horizontal(|ui| {
        ui.label("Grid:");
        for (grid, label) in [
            (Grid::Square, "Squares"),
            (Grid::Hex(HexOrientation::PointyTop), "Hexes, pointy-top"),
            (Grid::Hex(HexOrientation::FlatTop), "Hexes, flat-top"),
        ] {
            if ui.selectable_label(view.grid == grid, label).clicked() && view.grid != grid {
                edit.confirm_grid = Some(grid);
            }
        }
    });
    if let Some(grid) = edit.confirm_grid {
        ui.label(
            RichText::new(
                "Each token keeps its row and column. Facings the new grid lacks turn, and creatures larger \
                 than Medium cover a different space: the switch is refused if they would then overlap.",
            )
            .color(Color32::from_rgb(230, 180, 80)),
        );
        ui.horizontal(|ui| {
            if ui.button("Switch the grid").clicked() {
                ask(EditRequest::SwitchGrid(grid));
                edit.confirm_grid = None;
            }
            if ui.button("Cancel").clicked() {
                edit.confirm_grid = None;
            }
        });
    }
}

/// The map image under the grid: its file, its pixels per cell and the image pixel on the map's
/// north-west corner, typed in to line the grid up with the drawn one; Apply checks and keeps
/// them with the scene.
fn map_image(ui: &mut egui::Ui, view: &EditorView, edit: &mut EditorEdit, ask: &mut impl FnMut(EditRequest)) {
    let form = edit.background.get_or_insert_with(|| {
        view.background.clone().unwrap_or(Background { image: String::new(), cell_px: 70.0, offset: (0.0, 0.0) })
    });
    ui.horizontal(|ui| {
        ui.label("Map image:");
        ui.add(egui::TextEdit::singleline(&mut form.image).hint_text("maps/harrowgate.png").desired_width(150.0));
    });
    ui.horizontal(|ui| {
        ui.add(egui::DragValue::new(&mut form.cell_px).range(CELL_PX).speed(0.25).suffix(" px a cell"));
        let offset = -MAX_OFFSET_PX..=MAX_OFFSET_PX;
        ui.add(egui::DragValue::new(&mut form.offset.0).range(offset.clone()).speed(0.5).prefix("x "));
        ui.add(egui::DragValue::new(&mut form.offset.1).range(offset).speed(0.5).prefix("y "));
    });
    let removed = ui
        .horizontal(|ui| {
            let changed = view.background.as_ref() != Some(form);
            let apply = ui.add_enabled(changed && !form.image.trim().is_empty(), egui::Button::new("Apply image"));
            if apply.on_hover_text("Cell size and offset in the image's pixels; B fades or hides the tiles").clicked() {
                ask(EditRequest::Background(Some(form.clone())));
            }
            let removed = view.background.is_some() && ui.button("Remove image").clicked();
            if removed {
                ask(EditRequest::Background(None));
            }
            removed
        })
        .inner;
    if removed {
        edit.background = None;
    }
}

/// The selected token's statistics; Apply sends them, Revert takes the scene's back.
fn token_form(ui: &mut egui::Ui, token: &Token, grid: Grid, edit: &mut EditorEdit, ask: &mut impl FnMut(EditRequest)) {
    if edit.taken_from.as_ref() != Some(token) {
        edit.form = Some(token.clone());
        edit.taken_from = Some(token.clone());
    }
    let Some(form) = edit.form.as_mut() else { return };
    ui.separator();
    // The buttons come first, so a long form needs no scrolling to apply.
    let changed = form != token;
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("{} ({})", token.name, token.id)).strong());
        if ui.add_enabled(changed, egui::Button::new(RichText::new("Apply").strong())).clicked() {
            ask(EditRequest::Update(Box::new(form.clone())));
        }
        if ui.add_enabled(changed, egui::Button::new("Revert")).clicked() {
            *form = token.clone();
        }
        if ui.button("Duplicate").clicked() {
            ask(EditRequest::Duplicate(token.id.clone()));
        }
        if ui.button("Delete").clicked() {
            ask(EditRequest::Delete(token.id.clone()));
        }
    });
    egui::Grid::new("token-form").num_columns(2).striped(true).show(ui, |ui| {
        ui.label("Name");
        ui.text_edit_singleline(&mut form.name);
        ui.end_row();
        ui.label("Side");
        choose(ui, "side", &mut form.side, &[Side::Party, Side::Ally, Side::Neutral, Side::Enemy], |s| {
            s.name().to_owned()
        });
        ui.end_row();
        ui.label("Size");
        let sizes = [Size::Tiny, Size::Small, Size::Medium, Size::Large, Size::Huge, Size::Gargantuan];
        choose(ui, "size", &mut form.size, &sizes, |s| s.name().to_owned());
        ui.end_row();
        number(ui, "Speed (ft)", &mut form.speed, 0..=1000);
        number(ui, "AC", &mut form.ac, 0..=50);
        number(ui, "Hit points", &mut form.hp, 0..=100_000);
        number(ui, "Maximum", &mut form.max_hp, 0..=100_000);
        number(ui, "Temporary", &mut form.temp_hp, 0..=100_000);
        number(ui, "Elevation (ft)", &mut form.elevation, 0..=1000);
        if form.kind == TokenKind::Creature {
            let a = &mut form.abilities;
            for (label, value) in [
                ("Str", &mut a.str),
                ("Dex", &mut a.dex),
                ("Con", &mut a.con),
                ("Int", &mut a.int),
                ("Wis", &mut a.wis),
                ("Cha", &mut a.cha),
            ] {
                number(ui, &format!("{label} modifier"), value, -5..=10);
            }
            for skill in [Skill::Perception, Skill::Stealth] {
                ui.label(format!("{} bonus", skill.name()));
                let mut bonus = form.skills.get(&skill).copied().unwrap_or(form.abilities.modifier(skill.ability()));
                if ui.add(egui::DragValue::new(&mut bonus).range(-5..=20)).changed() {
                    form.skills.insert(skill, bonus);
                }
                ui.end_row();
            }
            ui.label("Passive Perception");
            ui.label(form.sheet().passive_perception().to_string());
            ui.end_row();
            number(ui, "Exhaustion", &mut form.exhaustion, 0..=5);
            ui.label("Facing");
            let mut facings: Vec<Option<Direction>> = vec![None];
            facings.extend(Direction::facings(grid).iter().copied().map(Some));
            choose(ui, "facing", &mut form.facing, &facings, |f| f.map_or("none".to_owned(), |d| format!("{d:?}")));
            ui.end_row();
            ui.label("Shield");
            let shields = [None, Some(ShieldSide::Left), Some(ShieldSide::Right)];
            choose(ui, "shield", &mut form.shield, &shields, |s| s.map_or("none".to_owned(), |s| format!("{s:?} arm")));
            ui.end_row();
            ui.label("Player character");
            ui.checkbox(&mut form.player_character, "");
            ui.end_row();
            if form.player_character {
                ui.label("Inspiration");
                ui.checkbox(&mut form.inspiration, "");
                ui.end_row();
            }
        }
        ui.label("Hidden from players");
        ui.checkbox(&mut form.hidden, "");
        ui.end_row();
    });
}

fn number<T: egui::emath::Numeric>(ui: &mut egui::Ui, label: &str, value: &mut T, range: std::ops::RangeInclusive<T>) {
    ui.label(label);
    ui.add(egui::DragValue::new(value).range(range));
    ui.end_row();
}

fn choose<T: Clone + PartialEq>(
    ui: &mut egui::Ui,
    id: &str,
    value: &mut T,
    options: &[T],
    name: impl Fn(&T) -> String,
) {
    egui::ComboBox::from_id_salt(("form", id)).selected_text(name(value)).show_ui(ui, |ui| {
        for option in options {
            ui.selectable_value(value, option.clone(), name(option));
        }
    });
}
