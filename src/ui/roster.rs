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
    /// A player character's experience points, when its scenario gives them.
    pub experience: Option<u32>,
    /// Its exhaustion level (0 to 5; a chase's dashes can raise it).
    pub exhaustion: u8,
    /// Its fight: hit points, conditions, attacks (creatures and objects alike).
    pub fight: Option<FightView>,
    /// Siege equipment: the selected weapon's state, or the weapons beside the selected creature.
    pub siege: SiegeView,
    /// A creature's lasting effects.
    pub effects: Option<super::effects::EffectsView>,
    /// The SRD 5.1 stat block it was made from, in the DM's view only (the players see none of a
    /// monster's numbers).
    pub stat_block: Option<super::stat_block::StatBlockView>,
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

/// Draws the list of creatures and objects into `ui` (its own panel: however long a name, the
/// panel keeps its width, the name cut with an ellipsis and shown whole on hover) and returns
/// what the user asked for.
pub fn roster_panel(ui: &mut egui::Ui, view: &RosterView) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    let selected_id = view.selected.as_ref().map(|d| d.id.as_str());
    // Only the rows in sight are laid out (a big map's roster has hundreds).
    let row_height = ui.text_style_height(&egui::TextStyle::Body).max(ui.spacing().interact_size.y);
    let width = ui.available_width();
    // The numbers' columns take what they need; the name, what is left.
    let numbers = [("Init", 34.0), ("HP", 62.0), ("AC", 26.0), ("Speed", 44.0)];
    let name_width = (width - numbers.iter().map(|(_, w)| w + 6.0).sum::<f32>() - 20.0).max(60.0);
    let cell = |ui: &mut egui::Ui, width: f32, add: &mut dyn FnMut(&mut egui::Ui)| {
        ui.allocate_ui_with_layout(
            egui::vec2(width, row_height),
            egui::Layout::left_to_right(egui::Align::Center),
            |ui| {
                ui.set_width(width);
                add(ui);
            },
        );
    };
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 6.0;
        cell(ui, name_width + 20.0, &mut |ui| {
            ui.label(RichText::new("Name").strong());
        });
        for (header, w) in numbers {
            cell(ui, w, &mut |ui| {
                ui.label(RichText::new(header).strong());
            });
        }
    });
    egui::ScrollArea::vertical().id_salt("roster-rows").auto_shrink([false, false]).show_rows(
        ui,
        row_height,
        view.rows.len(),
        |ui, range| {
            for row in &view.rows[range.start.min(view.rows.len())..range.end.min(view.rows.len())] {
                let color = egui_color(token_color(row.side, row.kind));
                let is_selected = selected_id == Some(row.id.as_str());
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 6.0;
                    let mut clicked = false;
                    cell(ui, name_width + 20.0, &mut |ui| {
                        side_dot(ui, color);
                        let name =
                            egui::Button::selectable(is_selected, RichText::new(&row.name).color(color)).truncate();
                        let hover = format!(
                            "{}\n{} · {} {} · id {}",
                            row.name,
                            row.side.name(),
                            row.size.name(),
                            kind_name(row.kind),
                            row.id
                        );
                        clicked = ui.add_sized(egui::vec2(name_width, row_height), name).on_hover_text(hover).clicked();
                    });
                    if clicked {
                        requests.push(if is_selected {
                            PanelRequest::ClearSelection
                        } else {
                            PanelRequest::Select(row.id.clone())
                        });
                    }
                    let speed =
                        if row.kind == TokenKind::Object { "—".to_owned() } else { format!("{} ft", row.speed) };
                    let initiative = row.initiative.map_or_else(|| "—".to_owned(), |i| i.to_string());
                    for (text, (_, w)) in
                        [initiative, row.hp.clone(), row.ac.to_string(), speed].into_iter().zip(numbers)
                    {
                        cell(ui, w, &mut |ui| {
                            ui.add(egui::Label::new(text.as_str()).truncate());
                        });
                    }
                });
            }
        },
    );
    if view.rows.is_empty() {
        ui.label(RichText::new("No creature or object on the map.").italics());
    }
    requests
}

/// Draws the selected token's card into `ui` (its own panel) and returns what the user asked
/// for; a hint when nothing is selected.
pub fn card_panel(
    ui: &mut egui::Ui,
    view: &RosterView,
    edit: &mut FightEdit,
    turn_edit: &mut TurnEdit,
) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    match (&view.selected, view.selected.as_ref().and_then(|d| view.rows.iter().find(|r| r.id == d.id))) {
        (Some(details), Some(row)) => selected_card(ui, row, details, edit, turn_edit, &mut requests),
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
        if ui.small_button("Deselect").on_hover_text("Clear the selection (Esc)").clicked() {
            requests.push(PanelRequest::ClearSelection);
        }
        let name = RichText::new(&row.name).heading().color(egui_color(token_color(row.side, row.kind)));
        ui.add(egui::Label::new(name).truncate());
    });
    let pc = if details.player_character { ", player character" } else { "" };
    ui.label(format!("{} {} {}{pc}", row.side.name(), row.size.name(), kind_name(row.kind)));
    // The numbers in two short rows, each a key and its value (a card of a fixed height keeps the
    // turn and the fight in sight).
    super::row(ui, |ui| {
        let mut pair = |key: &str, value: String| {
            ui.label(RichText::new(key).weak());
            ui.label(value);
        };
        pair("AC", row.ac.to_string());
        if row.kind == TokenKind::Creature {
            pair("Speed", format!("{} ft", row.speed));
        }
        pair("at", details.anchor.to_string());
        pair("Space", format!("{} cell{}", details.cells, if details.cells == 1 { "" } else { "s" }));
        if let Some(facing) = details.facing {
            pair("Facing", format!("{facing:?}"));
        }
        if let Some(edge) = details.seat.filter(|_| !details.dm) {
            pair("Seat", super::words::seat_words(edge).to_owned());
        }
    });
    if row.kind == TokenKind::Creature {
        let a = details.abilities;
        super::row(ui, |ui| {
            for (key, value) in
                [("Str", a.str), ("Dex", a.dex), ("Con", a.con), ("Int", a.int), ("Wis", a.wis), ("Cha", a.cha)]
            {
                ui.label(RichText::new(key).weak());
                ui.label(format!("{value:+}"));
            }
        });
    }
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
    if let Some(xp) = details.experience.filter(|_| details.player_character) {
        ui.label(experience_words(xp));
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
    // The book's numbers last, for the DM to look up: the card's own lines are the creature's.
    if let Some(stat_block) = details.stat_block.as_ref().filter(|_| details.dm) {
        super::stat_block::stat_block_section(ui, stat_block);
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

/// A character's experience points and the level they give (SRD 5.1 "Character Advancement"):
/// "XP 2,680: level 3 (level 4 at 2,700)".
fn experience_words(xp: u32) -> String {
    use crate::rules::experience::{level_for, next_level_at};
    let level = level_for(xp);
    let next = next_level_at(level)
        .map_or_else(String::new, |at| format!(" (level {} at {})", level + 1, super::stat_block::grouped(at)));
    format!("XP {}: level {level}{next}", super::stat_block::grouped(xp))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SRD 5.1 "Character Advancement": 2,700 XP is 4th level; 355,000 the 20th, with none after.
    #[test]
    fn a_characters_experience_is_worded_with_its_level_and_the_next() {
        assert_eq!(experience_words(2_680), "XP 2,680: level 3 (level 4 at 2,700)");
        assert_eq!(experience_words(2_730), "XP 2,730: level 4 (level 5 at 6,500)");
        assert_eq!(experience_words(400_000), "XP 400,000: level 20");
    }
}
