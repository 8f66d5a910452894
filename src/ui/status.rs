//! The bottom bar: scenario name, grid kind, rule options, the cell under the cursor, the grid
//! toggle, undo and redo, the map editor, and opening and saving scenario files.

use bevy_egui::egui::{self, Color32, RichText};

use super::PanelRequest;
use crate::app::core::messages::PanelName;
use crate::app::core::requests::FogBrush;
use crate::rules::{Cell, Grid};
use crate::scenario::RuleOptions;

/// The colour of a refusal or a failure.
const ERROR: Color32 = Color32::from_rgb(230, 90, 80);

/// What the bottom bar shows.
#[derive(Clone, Debug, PartialEq)]
pub struct StatusView {
    pub scenario_name: String,
    /// The file the scenario came from, or a note that it is built in.
    pub source: String,
    pub grid: Grid,
    pub rules: RuleOptions,
    pub grid_visible: bool,
    /// The cell under the cursor and its terrain, if the cursor is on the map.
    pub hovered: Option<(Cell, String)>,
    /// The last message for the user, and whether it reports an error.
    pub message: Option<(String, bool)>,
    /// What the user must not miss (a game not restored, rolls lost), until dismissed.
    pub pinned: Vec<String>,
    pub ruler_active: bool,
    pub sight_overlay: bool,
    pub template_active: bool,
    /// The panels open over the map.
    pub open_panels: Vec<PanelName>,
    pub chase_open: bool,
    /// A chase waits while the map is played.
    pub chase_paused: bool,
    /// The round and whose turn it is, once turns have started.
    pub turn: Option<(u32, String)>,
    /// The DM's view is up (else the players').
    pub dm: bool,
    /// The DM's fog brush in hand, if any.
    pub fog_brush: Option<FogBrush>,
    /// The map editor is open.
    pub editing: bool,
    /// Steps there are to undo and to redo.
    pub undo: usize,
    pub redo: usize,
    /// Whether an undo and a redo would go back now (`History::can_restore`, which `Ctrl+Z` asks
    /// too: a step is there and none is under way).
    pub can_undo: bool,
    pub can_redo: bool,
}

/// The text the user is typing into the bar, kept between frames.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusEdit {
    pub open_path: String,
    /// The switch to the DM's view waits for its confirmation.
    pub confirming_dm: bool,
    /// The editor was asked for in the players' view: it opens with the DM's view.
    pub then_edit: bool,
}

/// Draws the bar into `ui` and returns what the user asked for.
pub fn status_bar(ui: &mut egui::Ui, view: &StatusView, edit: &mut StatusEdit) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    for (index, text) in view.pinned.iter().enumerate() {
        ui.horizontal(|ui| {
            let dismiss = ui.button("Dismiss").on_hover_text("I have read this: take it off the screen");
            if index == 0 {
                super::remember(&dismiss, "pinned.dismiss");
            }
            if dismiss.clicked() {
                requests.push(PanelRequest::DismissPinned(index));
            }
            ui.add(egui::Label::new(RichText::new(text).color(ERROR).strong()).wrap());
        });
    }
    if !view.pinned.is_empty() {
        ui.separator();
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(&view.scenario_name).strong()).on_hover_text(&view.source);
        ui.separator();
        ui.label(grid_label(view.grid));
        ui.separator();
        if view.grid.is_hex() {
            ui.label(optional_rules_label(view.rules));
        } else {
            let switch = ui.button(format!("Diagonals: {}", view.rules.diagonals.name()));
            if switch
                .on_hover_text("Switch between the PHB's 5 ft per square and the DMG's optional 5/10 ft diagonals")
                .clicked()
            {
                requests.push(PanelRequest::ToggleDiagonals);
            }
            ui.label(optional_rules_label(view.rules));
        }
        ui.separator();
        match &view.turn {
            Some((round, name)) => ui.label(format!("Round {round}: {name}'s turn")),
            None => ui.label("No turn yet"),
        };
        if ui.button("Next turn (N)").clicked() {
            requests.push(PanelRequest::NextTurn);
        }
        let mut ruler = view.ruler_active;
        if ui
            .toggle_value(&mut ruler, "Ruler (R)")
            .on_hover_text("Click to drop waypoints; right-click clears")
            .changed()
        {
            requests.push(PanelRequest::ToggleRuler);
        }
        panels_menu(ui, view, &mut requests);
        let mut chase = view.chase_open;
        let (label, hover) = if view.chase_paused {
            ("Chase (C): paused", "A chase waits: show its screen again")
        } else {
            ("Chase (C)", "Set up a chase between creatures of the map")
        };
        if ui.toggle_value(&mut chase, label).on_hover_text(hover).changed() {
            requests.push(PanelRequest::ToggleChase);
        }
        let mut template = view.template_active;
        if ui.toggle_value(&mut template, "Template (T)").on_hover_text("Place an area of effect").changed() {
            requests.push(PanelRequest::ToggleTemplate);
        }
        let mut editing = view.editing;
        if ui
            .toggle_value(&mut editing, "Edit map (Ctrl+E)")
            .on_hover_text("Paint terrain, resize the map, add and change tokens")
            .changed()
        {
            requests.push(PanelRequest::ToggleEditor);
        }
        let mut sight = view.sight_overlay;
        let toggle = ui.toggle_value(&mut sight, "Sight (V)");
        if toggle.on_hover_text("Shade what the selected creature can't see").changed() {
            requests.push(PanelRequest::ToggleSight);
        }
        ui.separator();
        let undo = ui.add_enabled(view.can_undo, egui::Button::new("Undo"));
        if undo.on_hover_text(format!("Ctrl+Z: take back the last change ({} to undo)", view.undo)).clicked() {
            requests.push(PanelRequest::Undo);
        }
        let redo = ui.add_enabled(view.can_redo, egui::Button::new("Redo"));
        if redo.on_hover_text(format!("Ctrl+Shift+Z: do again what was undone ({} to redo)", view.redo)).clicked() {
            requests.push(PanelRequest::Redo);
        }
        ui.separator();
        let mut grid_visible = view.grid_visible;
        if ui.checkbox(&mut grid_visible, "Grid (G)").changed() {
            requests.push(PanelRequest::ShowGrid(grid_visible));
        }
        if ui.button("Fit map (F)").clicked() {
            requests.push(PanelRequest::FitMap);
        }
        ui.separator();
        if view.dm {
            if ui.button("Players' view").on_hover_text("Hide the DM's secrets again").clicked() {
                requests.push(PanelRequest::Audience(false));
            }
            ui.label("Fog brush:");
            for brush in FogBrush::ALL {
                let mut on = view.fog_brush == Some(brush);
                let hover = match brush {
                    FogBrush::Reveal => "Drag over cells to show them to the players, whatever the party sees",
                    FogBrush::Hide => "Drag over cells to keep them dark to the players, whatever the party sees",
                    FogBrush::Clear => "Drag over cells to give them back to the party's sight",
                };
                if ui.toggle_value(&mut on, brush.name()).on_hover_text(hover).changed() {
                    requests.push(PanelRequest::FogBrush(on.then_some(brush)));
                }
            }
        } else {
            let switch =
                ui.button("DM's view...").on_hover_text("Show monsters' hit points, hidden rolls and creatures");
            super::remember(&switch, "status.dm_view");
            if switch.clicked() {
                edit.confirming_dm = true;
            }
        }
        ui.separator();
        ui.label(match &view.hovered {
            Some((cell, terrain)) => format!("{} {cell}: {terrain}", coordinate_name(view.grid)),
            None => "cursor off the map".to_owned(),
        });
    });
    ui.horizontal(|ui| {
        ui.label("File:");
        let field =
            ui.add(egui::TextEdit::singleline(&mut edit.open_path).hint_text("scenes/name.ron").desired_width(260.0));
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let typed = !edit.open_path.trim().is_empty();
        if (ui.button("Open").on_hover_text("Open the file typed here").clicked() || entered) && typed {
            requests.push(PanelRequest::Open(edit.open_path.trim().to_owned()));
        }
        let save_as = ui.add_enabled(typed, egui::Button::new("Save as"));
        if save_as.on_hover_text("Write the scene as it stands to the file typed here").clicked() {
            requests.push(PanelRequest::SaveAs(edit.open_path.trim().to_owned()));
        }
        if ui.button("Save").on_hover_text(format!("Write the scene as it stands to {}", view.source)).clicked() {
            requests.push(PanelRequest::Save);
        }
        if ui.button("Reload").on_hover_text("Read the current file again: the scene starts afresh").clicked() {
            requests.push(PanelRequest::Reload);
        }
        if let Some((message, is_error)) = &view.message {
            let color = if *is_error { ERROR } else { Color32::from_rgb(120, 200, 120) };
            ui.label(RichText::new(message).color(color));
        }
    });
    if edit.confirming_dm && !view.dm {
        egui::Window::new("Show the DM's view?")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ui.ctx(), |ui| {
                ui.label("Monsters' hit points, hidden rolls, hidden initiative and hidden creatures");
                ui.label("will be on this screen. Make sure the players look away.");
                if edit.then_edit {
                    ui.label("The map editor opens in the DM's view.");
                }
                ui.horizontal(|ui| {
                    let show = ui.button(RichText::new("Show the DM's view").strong());
                    super::remember(&show, "dm.confirm");
                    let cancel = ui.button("Cancel").clicked();
                    if show.clicked() {
                        requests.push(PanelRequest::Audience(true));
                        if edit.then_edit {
                            requests.push(PanelRequest::ToggleEditor);
                        }
                    }
                    if show.clicked() || cancel {
                        edit.confirming_dm = false;
                        edit.then_edit = false;
                    }
                });
            });
    }
    requests
}

/// The menu of the panels floating over the map, each opened and closed here or by its key, and
/// the table view, which hides them all but the initiative and the turn card.
fn panels_menu(ui: &mut egui::Ui, view: &StatusView, requests: &mut Vec<PanelRequest>) {
    let menu = ui.menu_button("Panels", |ui| {
        for name in PanelName::ALL {
            let mut open = view.open_panels.contains(&name);
            if ui.checkbox(&mut open, format!("{} ({})", panel_title(name), panel_key(name))).changed() {
                requests.push(PanelRequest::TogglePanel(name));
            }
        }
        ui.separator();
        let table = ui.button("Table view").on_hover_text(
            "The players see the map: every panel hidden but the initiative and the turn card (Show panels brings them back)",
        );
        super::remember(&table, "panels.table_view");
        if table.clicked() {
            requests.push(PanelRequest::TableView(true));
            ui.close();
        }
    });
    super::remember(&menu.response, "status.panels");
}

/// A panel's title, as its window shows it.
pub fn panel_title(name: PanelName) -> &'static str {
    match name {
        PanelName::Roster => "Creatures and objects",
        PanelName::Card => "Card",
        PanelName::Initiative => "Initiative",
        PanelName::Dice => "Dice and tables",
        PanelName::Legend => "Legend",
    }
}

/// The key that opens and closes a panel, as the bar names it.
fn panel_key(name: PanelName) -> &'static str {
    match name {
        PanelName::Roster => "P",
        PanelName::Card => "K",
        PanelName::Initiative => "I",
        PanelName::Dice => "D",
        PanelName::Legend => "L",
    }
}

/// The banner across the top of the map while the DM's view is up.
pub fn dm_banner(ui: &mut egui::Ui) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    ui.horizontal(|ui| {
        ui.label(
            RichText::new("DM'S VIEW: monster hit points, hidden rolls and hidden creatures are showing")
                .strong()
                .color(Color32::WHITE),
        );
        if ui.button("Back to the players' view").clicked() {
            requests.push(PanelRequest::Audience(false));
        }
    });
    requests
}

fn grid_label(grid: Grid) -> &'static str {
    match grid {
        Grid::Square => "Square grid, 5 ft squares",
        Grid::Hex(crate::rules::HexOrientation::PointyTop) => "Hex grid (pointy-top), 5 ft hexes",
        Grid::Hex(crate::rules::HexOrientation::FlatTop) => "Hex grid (flat-top), 5 ft hexes",
    }
}

fn coordinate_name(grid: Grid) -> &'static str {
    if grid.is_hex() { "hex (q, r)" } else { "square (x, y)" }
}

/// The optional rules in a few words: "Flanking on · Facing off" (the diagonal rule has its own
/// switch on squares).
pub(super) fn optional_rules_label(rules: RuleOptions) -> String {
    let on = |b: bool| if b { "on" } else { "off" };
    format!("Flanking {} · Facing {}", on(rules.flanking), on(rules.facing))
}
