//! The map editor's panel: the tool (paint, rectangle, tokens), the terrain and brush, the map's
//! size and grid, adding tokens (plain ones, or monsters found in the SRD bestiary, with a short
//! stat block), and the selected token's statistics in a form whose refusals are shown in it.

use bevy_egui::egui::{self, Color32, RichText};

use super::PanelRequest;
use super::stat_block::{grouped, senses, speeds};
use super::style::egui_color;
use crate::app::core::requests::{EditRequest, EditTool};
use crate::rules::creature::{Direction, ShieldSide, Side, Skill};
use crate::rules::{Grid, HexOrientation, Size};
use crate::scenario::edit::MAX_BRUSH;
use crate::scenario::{Background, CELL_PX, MAX_MAP_SIDE, MAX_OFFSET_PX, Token, TokenKind};
use crate::srd::Monster;
use crate::srd::schema::Text;

/// The most monsters the bestiary lists at once: more words narrow the search.
const MAX_FOUND: usize = 30;

/// The words before the bestiary's search box (its label for a screen reader, and for tests).
const SEARCH_LABEL: &str = "Bestiary:";

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
    /// The SRD stat block (its index) each click on the map places, if one is picked.
    pub monster: Option<String>,
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
    /// The bestiary's search: words of a monster's name, type or challenge rating.
    pub search: String,
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
    ui.horizontal(|ui| {
        for (kind, label) in [(TokenKind::Creature, "Add creature"), (TokenKind::Object, "Add object")] {
            let placing = view.placing == Some(kind);
            if ui.selectable_label(placing, label).on_hover_text("Then click a cell of the map").clicked() {
                ask(EditRequest::Add(kind));
            }
        }
    });
    bestiary_section(ui, view.monster.as_deref(), &mut edit.search, &mut ask);
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
    // The map's size and picture last: set once, while tokens are placed again and again.
    ui.separator();
    map_size(ui, view, edit, &mut ask);
    map_image(ui, view, edit, &mut ask);
    requests
}

impl EditTool {
    fn into_request(self) -> EditRequest {
        EditRequest::Tool(self)
    }
}

/// The SRD bestiary: a search by words of a monster's name, type or challenge rating, the
/// monsters found (a row each: name, type, CR; at most [`MAX_FOUND`]), and the picked one's stat
/// block in short. With a monster picked, each click on the map places one
/// (`scenario::edit::add_monster`); its row again, or Put down, ends that.
fn bestiary_section(ui: &mut egui::Ui, picked: Option<&str>, search: &mut String, ask: &mut impl FnMut(EditRequest)) {
    ui.horizontal(|ui| {
        let label = ui.label(SEARCH_LABEL);
        let field = egui::TextEdit::singleline(search).hint_text("name, type or CR").desired_width(150.0);
        ui.add(field).labelled_by(label.id).on_hover_text("Every word must match: \"dragon red\", \"undead 1/4\"");
    });
    let words = search.trim();
    if words.is_empty() && picked.is_none() {
        return;
    }
    let bestiary = match crate::srd::bestiary() {
        Ok(bestiary) => bestiary,
        Err(why) => {
            ui.label(RichText::new(why).color(Color32::from_rgb(230, 90, 80)));
            return;
        }
    };
    if !words.is_empty() {
        let mut found = bestiary.search(words);
        let shown: Vec<&Monster> = found.by_ref().take(MAX_FOUND).collect();
        let more = found.count();
        if shown.is_empty() {
            ui.label("No monster has every word.");
        }
        egui::ScrollArea::vertical().id_salt("bestiary-found").max_height(200.0).show(ui, |ui| {
            egui::Grid::new("bestiary-found-rows").num_columns(3).striped(true).show(ui, |ui| {
                for monster in &shown {
                    let chosen = picked == Some(monster.index.as_str());
                    let row = ui.selectable_label(chosen, monster.name.as_str());
                    if row.on_hover_text("Pick it, then click the map to place it").clicked() {
                        ask(EditRequest::PickMonster((!chosen).then(|| monster.index.clone())));
                    }
                    ui.label(monster.kind.as_str());
                    ui.label(format!("CR {}", monster.cr));
                    ui.end_row();
                }
            });
        });
        if more > 0 {
            ui.label(format!("{more} more: add a word to narrow the search"));
        }
    }
    if let Some(monster) = picked.and_then(|index| bestiary.monster(index)) {
        stat_block(ui, monster, ask);
    }
}

/// A monster's stat block in short, as the DM checks it before placing it (SRD 5.1 "Monsters"):
/// size, type and alignment, AC and what it comes from, hit points with their dice, speeds, the
/// six scores with their modifiers, senses, challenge with its XP, and the names of its traits
/// and actions (each one's text on hover).
fn stat_block(ui: &mut egui::Ui, monster: &Monster, ask: &mut impl FnMut(EditRequest)) {
    let name = &monster.name;
    ui.separator();
    ui.horizontal(|ui| {
        ui.label(RichText::new(name.as_str()).strong());
        if ui.small_button("Put down").on_hover_text("Clicks on the map go back to the tool").clicked() {
            ask(EditRequest::PickMonster(None));
        }
    });
    // DMG "Tracking Monster Hit Points": twins are told apart by a letter.
    ui.label(format!("Each click on the map places one; twins get a letter ({name} A, {name} B)."));
    ui.label(format!("{} {}, {}", monster.size.name(), monster.kind, monster.alignment));
    let armour = if monster.ac_from.is_empty() { String::new() } else { format!(" ({})", monster.ac_from) };
    ui.label(format!("AC {}{armour}", monster.ac));
    let dice = if monster.hit_dice.is_empty() { String::new() } else { format!(" ({})", monster.hit_dice) };
    ui.label(format!("Hit points {}{dice}", monster.hp));
    ui.label(format!("Speed {}", speeds(monster)));
    let s = monster.scores;
    egui::Grid::new("stat-block-scores").num_columns(6).show(ui, |ui| {
        for ability in ["STR", "DEX", "CON", "INT", "WIS", "CHA"] {
            ui.label(RichText::new(ability).strong());
        }
        ui.end_row();
        for score in [s.str, s.dex, s.con, s.int, s.wis, s.cha] {
            ui.label(format!("{score} ({:+})", crate::srd::modifier(score)));
        }
        ui.end_row();
    });
    ui.label(format!("Senses {}", senses(monster)));
    ui.label(format!("Challenge {} ({} XP)", monster.cr, grouped(monster.xp)));
    names(ui, "Traits", &monster.traits);
    names(ui, "Actions", &monster.actions);
}

/// One line naming a stat block's entries ("Actions: Greatclub, Javelin"), their texts on hover;
/// nothing without any.
fn names(ui: &mut egui::Ui, what: &str, entries: &[Text]) {
    if entries.is_empty() {
        return;
    }
    let list: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    let texts: Vec<String> = entries.iter().map(|e| format!("{}. {}", e.name, e.text)).collect();
    ui.label(format!("{what}: {}", list.join(", "))).on_hover_text(texts.join("\n\n"));
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

#[cfg(test)]
mod tests {
    use bevy_egui::egui::accesskit::Role;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::*;

    fn view() -> EditorView {
        EditorView {
            tool: EditTool::Tokens,
            terrains: Vec::new(),
            terrain: 0,
            brush: 1,
            width: 12,
            height: 8,
            grid: Grid::Square,
            placing: None,
            monster: None,
            selected: None,
            refusal: None,
            background: None,
        }
    }

    /// The panel's view (which the app changes after a request), what is typed, what it asked.
    type State = (EditorView, EditorEdit, Vec<PanelRequest>);

    fn harness() -> Harness<'static, State> {
        Harness::builder().with_size(egui::vec2(480.0, 1200.0)).build_ui_state(
            |ui, (view, edit, requests): &mut State| requests.extend(editor_panel(ui, view, edit)),
            (view(), EditorEdit::default(), Vec::new()),
        )
    }

    /// Typing "ogre" lists the Ogre (and the Ogre Zombie); picking it asks for it, and, picked, its
    /// stat block shows AC 11, its 59 hit points with their dice and its Greatclub. Its row again
    /// puts it down.
    #[test]
    fn the_bestiary_finds_an_ogre_and_shows_its_stat_block() {
        let mut harness = harness();
        harness.run();
        assert!(harness.query_by_role_and_label(Role::Button, "Ogre").is_none(), "nothing listed before a word");
        harness.get_by_label(SEARCH_LABEL).focus();
        harness.run();
        harness.get_by_label(SEARCH_LABEL).type_text("ogre");
        harness.run();
        assert_eq!(harness.state().1.search, "ogre", "the search is kept with what is typed");
        harness.get_by_role_and_label(Role::Button, "Ogre Zombie");
        harness.get_by_label("giant");
        assert!(harness.query_by_role_and_label(Role::Button, "Goblin").is_none());
        assert!(harness.state().2.is_empty(), "typing asks for nothing");

        harness.get_by_role_and_label(Role::Button, "Ogre").click();
        harness.run();
        assert_eq!(harness.state().2, vec![PanelRequest::Edit(EditRequest::PickMonster(Some("ogre".into())))]);

        // The app picks it: the panel shows its stat block.
        harness.state_mut().0.monster = Some("ogre".into());
        harness.state_mut().2.clear();
        harness.run();
        harness.get_by_label("Large giant, chaotic evil");
        harness.get_by_label_contains("AC 11");
        harness.get_by_label_contains("59 (7d10+21)");
        harness.get_by_label_contains("Greatclub");
        harness.get_by_label("19 (+4)");
        harness.get_by_label("Challenge 2 (450 XP)");
        assert!(harness.state().2.is_empty());

        harness.get_by_role_and_label(Role::Button, "Ogre").click();
        harness.run();
        assert_eq!(harness.state().2, vec![PanelRequest::Edit(EditRequest::PickMonster(None))]);
        harness.state_mut().2.clear();
        harness.get_by_label("Put down").click();
        harness.run();
        assert_eq!(harness.state().2, vec![PanelRequest::Edit(EditRequest::PickMonster(None))]);
    }

    /// At most thirty monsters are listed; the rest are counted.
    #[test]
    fn a_broad_search_lists_thirty_and_counts_the_rest() {
        let mut harness = harness();
        harness.state_mut().1.search = "dragon".into();
        harness.run();
        let found = crate::srd::bestiary().expect("the bestiary").search("dragon").count();
        assert!(found > MAX_FOUND, "{found} dragons");
        let more = format!("{} more: add a word to narrow the search", found - MAX_FOUND);
        harness.get_by_label(&more);
        harness.state_mut().1.search = "dragon red adult".into();
        harness.run();
        harness.get_by_role_and_label(Role::Button, "Adult Red Dragon");
        assert!(harness.query_by_label_contains("more: add a word").is_none());
    }
}
