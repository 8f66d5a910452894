//! A small label beside the cursor: a drag's running cost, or the ruler's measure.

use bevy_egui::egui::{self, Color32, RichText};

/// Shows `text` just below and right of `at` (screen points), red when it reports a problem.
pub(crate) fn cursor_label(ctx: &egui::Context, at: egui::Pos2, text: &str, problem: bool) {
    egui::Area::new(egui::Id::new("cursor-label"))
        .fixed_pos(at + egui::vec2(18.0, 14.0))
        .order(egui::Order::Tooltip)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let color = if problem { Color32::from_rgb(240, 110, 100) } else { Color32::WHITE };
                ui.add(
                    egui::Label::new(RichText::new(text).color(color).strong()).wrap_mode(egui::TextWrapMode::Extend),
                );
            });
        });
}
