//! The template panel: pick an area's shape and size, and see who is inside.

use bevy_egui::egui::{self, RichText};

use super::PanelRequest;
pub use crate::rules::area::ShapeKind;
use crate::rules::area::{MAX_AREA_FEET, MIN_AREA_FEET, Shape};

/// The template's shape and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TemplateSettings {
    pub kind: ShapeKind,
    pub feet: u32,
    /// Cubes and squares: the middle of a side at the origin instead of a corner.
    pub face: bool,
    /// Lines: the width in feet.
    pub width: u32,
}

impl Default for TemplateSettings {
    fn default() -> Self {
        Self { kind: ShapeKind::Sphere, feet: 20, face: false, width: 5 }
    }
}

impl TemplateSettings {
    pub fn shape(self) -> Shape {
        Shape::new(self.kind, self.feet, self.face, self.width)
    }
}

/// What the template panel shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TemplateView {
    pub settings: TemplateSettings,
    /// The creatures and objects with any cell in the area.
    pub inside: Vec<String>,
    pub cells: usize,
    /// The Targets in Areas of Effect estimate.
    pub estimate: u32,
    pub placed: bool,
}

/// Draws the template panel; returns the new settings when the user changes them.
pub fn template_panel(ui: &mut egui::Ui, view: &TemplateView) -> Vec<PanelRequest> {
    let mut settings = view.settings;
    ui.heading("Area template");
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
    if settings != view.settings { vec![PanelRequest::SetTemplate(settings)] } else { Vec::new() }
}
