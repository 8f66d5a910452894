//! The map's legend: each terrain on the map with its swatch and what it does under the rules,
//! and each kind of icon on the map with what it stands for.

use bevy_egui::egui;

/// What the legend lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LegendView {
    pub terrains: Vec<LegendTerrain>,
    pub icons: Vec<LegendIcon>,
}

/// A terrain on the map: its name, its tile's colour and its rule in a few words.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendTerrain {
    pub name: String,
    pub color: [u8; 3],
    pub rule: String,
}

/// A kind of icon on the map: what it shows and what that means.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendIcon {
    pub name: String,
    pub meaning: String,
}

/// Draws the legend: a row per terrain ("Table: blocks movement, gives cover"), then a row per
/// icon.
pub fn legend_panel(ui: &mut egui::Ui, view: &LegendView) {
    for terrain in &view.terrains {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            let [r, g, b] = terrain.color;
            ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgb(r, g, b));
            ui.label(egui::RichText::new(super::capitalized(&terrain.name)).strong());
            ui.label(&terrain.rule);
        });
    }
    if !view.icons.is_empty() {
        ui.add_space(4.0);
    }
    for icon in &view.icons {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(super::capitalized(&icon.name)).strong());
            ui.label(&icon.meaning);
        });
    }
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::*;

    /// Each terrain is named with its rule, and each icon with its meaning.
    #[test]
    fn the_legend_names_each_terrain_and_icon_with_its_rule() {
        let view = LegendView {
            terrains: vec![LegendTerrain {
                name: "table".into(),
                color: [140, 98, 58],
                rule: "blocks movement, gives cover".into(),
            }],
            icons: vec![LegendIcon { name: "ram".into(), meaning: "siege weapon (DMG \"Siege Equipment\")".into() }],
        };
        let harness = Harness::new_ui(|ui| legend_panel(ui, &view));
        harness.get_by_label("Table");
        harness.get_by_label("blocks movement, gives cover");
        harness.get_by_label("Ram");
        harness.get_by_label("siege weapon (DMG \"Siege Equipment\")");
    }
}
