//! The template panel: pick an area's shape and size, see who is inside with their cover from
//! the origin, and roll their saving throws.

use bevy_egui::egui::{self, RichText};

use super::PanelRequest;
use crate::app::core::requests::{SaveSettings, TemplateSettings};
pub use crate::rules::area::ShapeKind;
use crate::rules::area::{MAX_AREA_FEET, MIN_AREA_FEET};
use crate::rules::creature::Ability;
use crate::rules::health::DamageType;

/// A creature inside the area, with its cover from the point of origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InsideView {
    pub name: String,
    pub cover: String,
    /// Total cover from a wall: the area doesn't reach it.
    pub sheltered: bool,
}

/// What the template panel shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TemplateView {
    pub settings: TemplateSettings,
    /// The creatures and objects with any cell in the area.
    pub inside: Vec<String>,
    /// The creatures it holds, with their cover from the origin.
    pub creatures: Vec<InsideView>,
    pub saves: SaveSettings,
    /// The origin is fixed (clicked), so saves can be rolled.
    pub fixed: bool,
    pub cells: usize,
    /// The Targets in Areas of Effect estimate.
    pub estimate: u32,
    pub placed: bool,
}

/// Draws the template panel; returns the new settings when the user changes them.
pub fn template_panel(ui: &mut egui::Ui, view: &TemplateView) -> Vec<PanelRequest> {
    let mut settings = view.settings;
    ui.horizontal_wrapped(|ui| {
        for kind in ShapeKind::ALL {
            ui.selectable_value(&mut settings.kind, kind, kind.name());
        }
    });
    ui.horizontal(|ui| {
        ui.add(egui::DragValue::new(&mut settings.feet).range(MIN_AREA_FEET..=MAX_AREA_FEET).speed(5.0).suffix(" ft"));
        ui.label(settings.kind.size_name());
    });
    match settings.kind {
        ShapeKind::Cube | ShapeKind::Square => {
            ui.checkbox(&mut settings.face, "Origin on a face (else a corner)");
        }
        ShapeKind::Line => {
            ui.horizontal(|ui| {
                ui.label("Width");
                ui.add(egui::DragValue::new(&mut settings.width).range(MIN_AREA_FEET..=100).speed(5.0).suffix(" ft"));
            });
        }
        _ => {}
    }
    settings.feet = settings.feet.div_ceil(5) * 5;
    let help = if settings.kind.has_direction() {
        "Click to place the origin at an intersection, move to aim, click to fix; Q/E turn it; right-click clears."
    } else {
        "Click to place the centre at an intersection; right-click clears."
    };
    ui.label(RichText::new(help).weak().small());
    if view.placed {
        ui.label(format!("{} cells; the table estimates {} targets.", view.cells, view.estimate));
        if view.inside.is_empty() {
            ui.label(RichText::new("Nobody inside.").italics());
        } else {
            ui.label(format!("Inside: {}", view.inside.join(", ")));
        }
    }
    let mut requests = Vec::new();
    if view.placed && !view.creatures.is_empty() {
        requests.extend(saves_section(ui, view));
    }
    if settings != view.settings {
        requests.push(PanelRequest::SetTemplate(settings));
    }
    requests
}

/// The creatures inside with their cover from the origin, and the saving throw to roll.
fn saves_section(ui: &mut egui::Ui, view: &TemplateView) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    let mut saves = view.saves.clone();
    egui::Grid::new("inside").num_columns(2).spacing([12.0, 2.0]).show(ui, |ui| {
        for creature in &view.creatures {
            ui.label(&creature.name);
            let cover = if creature.sheltered { "total cover: unaffected".to_owned() } else { creature.cover.clone() };
            ui.label(RichText::new(cover).weak());
            ui.end_row();
        }
    });
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("save-ability").selected_text(saves.ability.name()).show_ui(ui, |ui| {
            for ability in Ability::ALL {
                ui.selectable_value(&mut saves.ability, ability, ability.name());
            }
        });
        ui.label("DC");
        ui.add(egui::DragValue::new(&mut saves.dc).range(1..=40));
    });
    ui.horizontal(|ui| {
        ui.label("Damage");
        ui.add(egui::TextEdit::singleline(&mut saves.damage).desired_width(60.0));
        egui::ComboBox::from_id_salt("save-type").selected_text(saves.damage_type.name()).show_ui(ui, |ui| {
            for kind in DamageType::ALL {
                ui.selectable_value(&mut saves.damage_type, kind, kind.name());
            }
        });
    });
    ui.checkbox(&mut saves.half_on_success, "Half damage on a success");
    let roll = ui
        .add_enabled(view.fixed, egui::Button::new("Roll saves"))
        .on_hover_text("Every creature inside saves; cover from the origin adds to Dexterity saves");
    if roll.clicked() {
        requests.push(PanelRequest::RollSaves);
    }
    if saves != view.saves {
        requests.push(PanelRequest::SetSaves(saves));
    }
    requests
}
