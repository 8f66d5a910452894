//! The side panel: every creature and object with name, side, HP, AC, speed and size, and the
//! selected one in detail.

use bevy_egui::egui::{self, RichText};

use super::PanelRequest;
use super::fight::{FightEdit, FightView, fight_section};
use super::siege::{SiegeView, siege_section};
use super::style::{egui_color, token_color};
use super::turn::{InitiativeAction, TurnEdit, TurnView, turn_section};
use crate::app::core::requests::EditRequest;
use crate::rules::creature::{Abilities, Direction, ShieldSide, Side};
use crate::rules::{Cell, Size};
use crate::scenario::{TableEdge, TokenKind};

/// One row of the list.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenRow {
    pub id: String,
    pub name: String,
    pub kind: TokenKind,
    pub side: Side,
    pub size: Size,
    /// Hit points as the audience may see them: `7/12`, or for a monster in the players' view
    /// only `healthy`, `bloodied` or `down`.
    pub hp: String,
    pub ac: i32,
    pub speed: u32,
    /// Its initiative, once rolled.
    pub initiative: Option<i32>,
}

/// More about the selected token.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenDetails {
    pub id: String,
    pub anchor: Cell,
    pub cells: usize,
    pub abilities: Abilities,
    pub facing: Option<Direction>,
    pub shield: Option<ShieldSide>,
    pub player_character: bool,
    /// The edge of the table its player sits at (issue 30).
    pub seat: Option<TableEdge>,
    /// The DM's view: the seat is changed on the card.
    pub dm: bool,
    /// Its turn: movement, action economy and the actions (creatures only).
    pub turn: Option<TurnView>,
    /// In the DM's view, whether it is kept from the players (the switch on the card).
    pub secret: Option<bool>,
    /// A player character's inspiration: whether it has it.
    pub inspiration: Option<bool>,
    /// Its exhaustion level (0 to 5; a chase's dashes can raise it).
    pub exhaustion: u8,
    /// Its fight: hit points, conditions, attacks (creatures and objects alike).
    pub fight: Option<FightView>,
    /// Siege equipment: the selected weapon's state, or the weapons beside the selected creature.
    pub siege: SiegeView,
    /// A creature's lasting effects.
    pub effects: Option<super::effects::EffectsView>,
}

/// A creature's movement this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MovementView {
    pub speed: u32,
    /// Feet left, and the turn's allowance (speed times 1 + Dashes).
    pub left: u32,
    pub allowance: u32,
    pub dashes: u32,
    /// Moves made this turn (that undo can take back).
    pub moves: usize,
    /// It is this creature's turn.
    pub active: bool,
}

/// What the side panel shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RosterView {
    pub rows: Vec<TokenRow>,
    pub selected: Option<TokenDetails>,
}

/// Draws the roster into `ui` and returns what the user asked for.
pub fn roster_panel(
    ui: &mut egui::Ui,
    view: &RosterView,
    edit: &mut FightEdit,
    turn_edit: &mut TurnEdit,
) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    ui.heading("Creatures and objects");
    ui.add_space(4.0);
    let selected_id = view.selected.as_ref().map(|d| d.id.as_str());
    // Only the rows in sight are laid out (a big map's roster has hundreds); the header is laid
    // out with them, so it stays above the first row in sight.
    let row_height = ui.text_style_height(&egui::TextStyle::Body).max(ui.spacing().interact_size.y);
    let rows = view.rows.len() + 1;
    egui::ScrollArea::vertical().max_height(ui.available_height() * 0.6).show_rows(
        ui,
        row_height,
        rows,
        |ui, range| {
            egui::Grid::new("roster").striped(true).num_columns(7).spacing([10.0, 4.0]).show(ui, |ui| {
                for header in ["Name", "Side", "Init", "HP", "AC", "Speed", "Size"] {
                    ui.label(RichText::new(header).strong());
                }
                ui.end_row();
                let first = range.start.min(view.rows.len());
                let last = range.end.saturating_sub(1).clamp(first, view.rows.len());
                for row in &view.rows[first..last] {
                    let color = egui_color(token_color(row.side, row.kind));
                    let is_selected = selected_id == Some(row.id.as_str());
                    let label = RichText::new(&row.name).color(color);
                    let response = ui
                        .horizontal(|ui| {
                            side_dot(ui, color);
                            ui.selectable_label(is_selected, label)
                        })
                        .inner
                        .on_hover_text(format!("{} · {} · id {}", row.side.name(), kind_name(row.kind), row.id));
                    if response.clicked() {
                        requests.push(if is_selected {
                            PanelRequest::ClearSelection
                        } else {
                            PanelRequest::Select(row.id.clone())
                        });
                    }
                    ui.label(RichText::new(row.side.name()).color(color));
                    ui.label(row.initiative.map_or_else(|| "—".to_owned(), |i| i.to_string()));
                    ui.label(&row.hp);
                    ui.label(row.ac.to_string());
                    ui.label(if row.kind == TokenKind::Object {
                        "—".to_owned()
                    } else {
                        format!("{} ft", row.speed)
                    });
                    ui.label(row.size.name());
                    ui.end_row();
                }
            });
        },
    );
    ui.separator();
    match (&view.selected, view.selected.as_ref().and_then(|d| view.rows.iter().find(|r| r.id == d.id))) {
        (Some(details), Some(row)) => {
            egui::ScrollArea::vertical().id_salt("card").show(ui, |ui| {
                selected_card(ui, row, details, edit, turn_edit, &mut requests);
            });
        }
        _ => {
            ui.label(RichText::new("Click a token or a name to select it.").italics());
        }
    }
    requests
}

/// A small disc in the side's colour, like the token on the map.
fn side_dot(ui: &mut egui::Ui, color: egui::Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), 4.5, color);
}

fn kind_name(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Creature => "creature",
        TokenKind::Object => "object",
    }
}

fn selected_card(
    ui: &mut egui::Ui,
    row: &TokenRow,
    details: &TokenDetails,
    edit: &mut FightEdit,
    turn_edit: &mut TurnEdit,
    requests: &mut Vec<PanelRequest>,
) {
    ui.horizontal(|ui| {
        ui.heading(RichText::new(&row.name).color(egui_color(token_color(row.side, row.kind))));
        if ui.small_button("Deselect").on_hover_text("Clear the selection (Esc)").clicked() {
            requests.push(PanelRequest::ClearSelection);
        }
    });
    let pc = if details.player_character { ", player character" } else { "" };
    ui.label(format!("{} {} {}{pc}", row.side.name(), row.size.name(), kind_name(row.kind)));
    egui::Grid::new("selected").num_columns(2).spacing([12.0, 2.0]).show(ui, |ui| {
        let mut line = |key: &str, value: String| {
            ui.label(RichText::new(key).weak());
            ui.label(value);
            ui.end_row();
        };
        line("Armor Class", row.ac.to_string());
        if row.kind == TokenKind::Creature {
            line("Speed", format!("{} ft", row.speed));
        }
        line("Position", details.anchor.to_string());
        line("Space", format!("{} cell{}", details.cells, if details.cells == 1 { "" } else { "s" }));
        if let Some(facing) = details.facing {
            line("Facing", format!("{facing:?}"));
        }
        if let Some(edge) = details.seat.filter(|_| !details.dm) {
            line("Seat", super::words::seat_words(edge).to_owned());
        }
        if row.kind == TokenKind::Creature {
            let a = details.abilities;
            let m = |v: i8| format!("{v:+}");
            line("Str Dex Con", format!("{} {} {}", m(a.str), m(a.dex), m(a.con)));
            line("Int Wis Cha", format!("{} {} {}", m(a.int), m(a.wis), m(a.cha)));
        }
    });
    if details.dm && row.kind == TokenKind::Creature {
        seat_choice(ui, details, requests);
    }
    if let Some(secret) = details.secret {
        let mut kept = secret;
        let tip = "The players' view doesn't draw it or list it, nor its initiative";
        if ui.checkbox(&mut kept, "Kept from the players").on_hover_text(tip).changed() {
            requests.push(PanelRequest::Initiative(InitiativeAction::Secret(details.id.clone(), kept)));
        }
    }
    if let Some(has) = details.inspiration {
        ui.horizontal(|ui| {
            ui.label(if has { "Inspiration: yes" } else { "Inspiration: no" });
            if !has && ui.button("Award").on_hover_text("Give inspiration (DMG \"Inspiration\")").clicked() {
                requests.push(PanelRequest::Inspiration { id: details.id.clone(), give: true });
            }
            if has && ui.button("Spend").on_hover_text("Advantage on this creature's next roll").clicked() {
                requests.push(PanelRequest::Inspiration { id: details.id.clone(), give: false });
            }
        });
    }
    requests.extend(siege_section(ui, &details.id, &details.siege));
    if let Some(turn) = &details.turn {
        requests.extend(turn_section(ui, &details.id, turn, turn_edit));
    }
    if let Some(effects) = &details.effects {
        requests.extend(super::effects::effects_section(ui, &details.id, effects, &mut edit.effects));
    }
    if let Some(fight) = &details.fight {
        requests.extend(fight_section(ui, &details.id, fight, edit));
    }
}

/// The DM's choice of the edge of the table the creature's player sits at (issue 30): the cards
/// meant for that player face it.
fn seat_choice(ui: &mut egui::Ui, details: &TokenDetails, requests: &mut Vec<PanelRequest>) {
    ui.horizontal(|ui| {
        ui.label("Seat:")
            .on_hover_text("The edge of the table its player sits at: the cards meant for it face that edge");
        for seat in std::iter::once(None).chain(TableEdge::ALL.map(Some)) {
            let label = seat.map_or_else(|| "none".to_owned(), |edge| format!("{edge:?}"));
            if ui.selectable_label(details.seat == seat, label).clicked() && details.seat != seat {
                requests.push(PanelRequest::Edit(EditRequest::Seat { id: details.id.clone(), seat }));
            }
        }
    });
}
