//! The map's legend: each terrain on the map with its swatch and what it does under the rules,
//! the shades of the scene's light, and each kind of icon on the map with what it stands for.

use bevy_egui::egui;

/// What the legend lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LegendView {
    pub terrains: Vec<LegendTerrain>,
    pub lights: Vec<LegendLight>,
    pub icons: Vec<LegendIcon>,
}

/// A shade of light over the map (dim light, darkness, sunlight): its colour over the ground
/// (RGBA) and what it does.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendLight {
    pub name: String,
    pub shade: [u8; 4],
    pub meaning: String,
}

/// A terrain on the map: its name, its tile (or, without one, its tile's colour) and its rule in
/// a few words.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendTerrain {
    pub name: String,
    pub color: [u8; 3],
    pub tile: Option<TileSwatch>,
    pub rule: String,
}

/// A terrain's tile as its swatch shows it: the part `uv` of a texture egui knows (the tile
/// atlas's square tiles, `app::view::board::swatch_strip`), multiplied by `tint` (white, or a
/// plain tile's colour).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileSwatch {
    pub texture: egui::TextureId,
    pub uv: egui::Rect,
    pub tint: egui::Color32,
}

/// The side of a terrain's swatch, in points.
const SWATCH: f32 = 16.0;

/// A terrain's rule as the legend words it: the rule's parts (`Terrain::rule_summary`), but a
/// part that only repeats the terrain's name (the built-in "difficult terrain" is difficult
/// terrain) says what it does instead, so no row reads "Difficult terrain  difficult terrain".
pub fn legend_rule(name: &str, parts: &[&str]) -> String {
    let name = name.trim();
    parts
        .iter()
        .map(|&part| if part.eq_ignore_ascii_case(name) { what_it_does(part) } else { part })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What one of `Terrain::rule_summary`'s parts does, in other words (PHB "Difficult Terrain",
/// DMG "Cover", SRD "Vision and Light").
fn what_it_does(part: &str) -> &str {
    match part {
        "difficult terrain" => "each foot of movement costs 2 feet",
        "blocks movement" => "no one moves into it",
        "blocks sight" => "no one sees through it",
        "heavily obscured" => "no one sees into it",
        "gives cover" => "half or three-quarters cover behind it",
        "three-quarters cover" => "+5 AC and Dex saves behind it",
        "open ground" => "nothing in the way",
        other => other,
    }
}

/// A kind of icon on the map: what it shows and what that means.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendIcon {
    pub name: String,
    pub meaning: String,
}

/// Draws the legend: a row per terrain, its tile and its rule ("Table: blocks movement, gives
/// cover"), then a row per icon.
pub fn legend_panel(ui: &mut egui::Ui, view: &LegendView) {
    for terrain in &view.terrains {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(SWATCH, SWATCH), egui::Sense::hover());
            if let Some(tile) = terrain.tile {
                ui.painter().image(tile.texture, rect, tile.uv, tile.tint);
            } else {
                let [r, g, b] = terrain.color;
                ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgb(r, g, b));
            }
            ui.label(egui::RichText::new(super::capitalized(&terrain.name)).strong());
            ui.label(&terrain.rule);
        });
    }
    if !view.lights.is_empty() {
        ui.add_space(4.0);
    }
    for light in &view.lights {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(SWATCH, SWATCH), egui::Sense::hover());
            // The shade over a plain floor's colour, as the map draws it.
            ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgb(150, 130, 100));
            let [r, g, b, a] = light.shade;
            ui.painter().rect_filled(rect, 2.0, egui::Color32::from_rgba_unmultiplied(r, g, b, a));
            ui.label(egui::RichText::new(super::capitalized(&light.name)).strong());
            ui.label(&light.meaning);
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

    /// Each terrain is named with its rule, each shade of light with what it does, and each icon
    /// with its meaning.
    #[test]
    fn the_legend_names_each_terrain_light_and_icon_with_its_rule() {
        let view = LegendView {
            terrains: vec![LegendTerrain {
                name: "table".into(),
                color: [140, 98, 58],
                tile: None,
                rule: "blocks movement, gives cover".into(),
            }],
            lights: vec![LegendLight {
                name: "sunlight".into(),
                shade: [255, 217, 77, 71],
                meaning: "Sunlight Sensitivity: disadvantage on attacks".into(),
            }],
            icons: vec![LegendIcon { name: "ram".into(), meaning: "siege weapon (DMG \"Siege Equipment\")".into() }],
        };
        let harness = Harness::new_ui(|ui| legend_panel(ui, &view));
        harness.get_by_label("Sunlight");
        harness.get_by_label("Sunlight Sensitivity: disadvantage on attacks");
        harness.get_by_label("Table");
        harness.get_by_label("blocks movement, gives cover");
        harness.get_by_label("Ram");
        harness.get_by_label("siege weapon (DMG \"Siege Equipment\")");
    }

    /// Issue 39 (12): the built-in difficult terrain doesn't read "Difficult terrain  difficult
    /// terrain": its rule says what difficult terrain does. Water, also difficult, keeps the
    /// words, and a custom terrain named after a rule ("open ground") is explained too.
    #[test]
    fn a_terrain_named_after_its_rule_does_not_repeat_it() {
        assert_eq!(legend_rule("difficult terrain", &["difficult terrain"]), "each foot of movement costs 2 feet");
        assert_eq!(legend_rule("Difficult Terrain ", &["difficult terrain"]), "each foot of movement costs 2 feet");
        assert_eq!(legend_rule("water", &["difficult terrain"]), "difficult terrain");
        assert_eq!(legend_rule("open ground", &["open ground"]), "nothing in the way");
        assert_eq!(
            legend_rule("blocks movement", &["blocks movement", "gives cover"]),
            "no one moves into it, gives cover"
        );
        let terrain = |name: &str| LegendTerrain {
            name: name.into(),
            color: [120, 110, 100],
            tile: None,
            rule: legend_rule(name, &["difficult terrain"]),
        };
        let view =
            LegendView { terrains: vec![terrain("difficult terrain"), terrain("water")], ..LegendView::default() };
        let harness = Harness::new_ui(|ui| legend_panel(ui, &view));
        harness.get_by_label("Difficult terrain");
        harness.get_by_label("each foot of movement costs 2 feet");
        harness.get_by_label("Water");
        // The one row that says "difficult terrain" is the water's.
        assert_eq!(harness.query_all_by_label("difficult terrain").count(), 1);
    }

    /// A terrain with a tile shows it: its swatch is drawn from its column of the texture; one
    /// without (the atlas unread) keeps its colour, and both are named.
    #[test]
    fn a_swatch_shows_the_terrains_tile() {
        let tile = TileSwatch {
            texture: egui::TextureId::User(7),
            uv: egui::Rect::from_min_max(egui::pos2(8.0 / 17.0, 0.0), egui::pos2(9.0 / 17.0, 1.0)),
            tint: egui::Color32::WHITE,
        };
        let view = LegendView {
            terrains: vec![
                LegendTerrain {
                    name: "table".into(),
                    color: [140, 98, 58],
                    tile: Some(tile),
                    rule: "gives cover".into(),
                },
                LegendTerrain { name: "floor".into(), color: [128, 120, 110], tile: None, rule: "open ground".into() },
            ],
            ..LegendView::default()
        };
        let mut harness = Harness::new_ui(|ui| legend_panel(ui, &view));
        harness.run();
        let shapes = harness.output().shapes.clone();
        let images: Vec<_> = shapes
            .iter()
            .filter_map(|clipped| match &clipped.shape {
                egui::epaint::Shape::Mesh(mesh) if mesh.texture_id == tile.texture => Some(mesh.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(images.len(), 1, "the table's tile, once");
        let us: Vec<f32> = images[0].vertices.iter().map(|v| v.uv.x).collect();
        assert!(us.iter().all(|u| (8.0 / 17.0 - 1e-4..=9.0 / 17.0 + 1e-4).contains(u)), "its column: {us:?}");
        harness.get_by_label("Table");
        harness.get_by_label("Floor");
    }
}
