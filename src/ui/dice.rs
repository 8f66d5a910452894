//! The dice and tables panel: a roller for any notation (public or hidden), the roll log, the
//! DM's tables with a search and a Roll button on the rollable ones, and the mob calculator.

use bevy_egui::egui::{self, RichText};

use super::PanelRequest;
use super::template::ShapeKind;
use crate::app::core::requests::TemplateSettings;
use crate::rules::area::estimated_targets;
use crate::rules::calculators::{Severity, automatic_success, improvised_damage, special_travel};
use crate::rules::dice::RollMode;
use crate::rules::tables::{Table, TableKind, find, mob_hits};

/// What the dice panel shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DiceView {
    pub seed: u64,
    /// The log, newest last: the full line, the players' line ("The DM rolled." for a hidden
    /// roll), and whether it is hidden from players.
    pub log: Vec<(String, String, bool)>,
    /// The DM's view: hidden rolls in full. The players' view shows only the players' lines.
    pub dm: bool,
    /// Who rolls from the roller: the selected creature's name, or the DM.
    pub roller: String,
    /// The roller's creature spends inspiration on its next roll (advantage).
    pub inspired: bool,
}

/// What the user is typing and choosing in the panel, kept between frames.
#[derive(Clone, Debug, PartialEq)]
pub struct DiceEdit {
    pub notation: String,
    /// Why the roll is made ("attack on the ogre"), for the log.
    pub reason: String,
    pub mode: RollMode,
    pub hidden: bool,
    pub search: String,
    pub open_table: Option<String>,
    pub mob: (i32, i32, u32),
    /// Targets in an area: shape, size in feet.
    pub area: (ShapeKind, u32),
    /// Improvised damage: character level and severity.
    pub damage: (u32, Severity),
    /// Automatic success: DC, ability score, proficiency option.
    pub automatic: (i32, i32, bool),
    /// Special travel pace: speed in feet and hours a day.
    pub travel: (u32, u32),
}

impl Default for DiceEdit {
    fn default() -> Self {
        Self {
            notation: "d20".into(),
            reason: String::new(),
            mode: RollMode::Normal,
            hidden: false,
            search: String::new(),
            open_table: None,
            mob: (5, 19, 8),
            area: (ShapeKind::Cone, 15),
            damage: (1, Severity::Dangerous),
            automatic: (15, 20, false),
            travel: (100, 8),
        }
    }
}

/// Draws the dice panel and returns what the user asked for.
pub fn dice_panel(ui: &mut egui::Ui, view: &DiceView, tables: &[Table], edit: &mut DiceEdit) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    ui.heading("Dice");
    super::row(ui, |ui| {
        ui.add(egui::TextEdit::singleline(&mut edit.notation).desired_width(90.0).hint_text("2d6+3"));
        ui.selectable_value(&mut edit.mode, RollMode::Normal, "Normal");
        ui.selectable_value(&mut edit.mode, RollMode::Advantage, "Adv");
        ui.selectable_value(&mut edit.mode, RollMode::Disadvantage, "Dis");
    });
    ui.add(egui::TextEdit::singleline(&mut edit.reason).hint_text("what for (optional)").desired_width(240.0));
    super::row(ui, |ui| {
        ui.checkbox(&mut edit.hidden, "Hidden (DM)");
        if ui.button(format!("Roll as {}", view.roller)).clicked() {
            requests.push(PanelRequest::Roll {
                notation: edit.notation.clone(),
                mode: edit.mode,
                hidden: edit.hidden,
                reason: edit.reason.trim().to_owned(),
            });
        }
    });
    if view.inspired {
        ui.label(RichText::new("Inspiration spent: the next roll has advantage.").italics());
    }
    ui.separator();
    super::row(ui, |ui| {
        ui.label(RichText::new("Roll log").strong());
        ui.label(RichText::new(format!("seed {}", view.seed)).weak().small());
    });
    egui::ScrollArea::vertical().id_salt("roll-log").max_height(160.0).stick_to_bottom(true).show(ui, |ui| {
        for (full, player, hidden) in &view.log {
            let text = if view.dm { full } else { player };
            let text = if *hidden && view.dm { format!("(hidden) {text}") } else { text.clone() };
            ui.label(text);
        }
    });
    ui.separator();
    ui.heading("Tables");
    ui.add(egui::TextEdit::singleline(&mut edit.search).hint_text("search tables").desired_width(200.0));
    let key = edit.search.to_lowercase();
    egui::ScrollArea::vertical().id_salt("tables").max_height(120.0).show(ui, |ui| {
        for table in tables.iter().filter(|t| key.is_empty() || t.name.to_lowercase().contains(&key)) {
            let open = edit.open_table.as_deref() == Some(table.id.as_str());
            if ui.selectable_label(open, &table.name).clicked() {
                edit.open_table = if open { None } else { Some(table.id.clone()) };
            }
        }
    });
    if let Some(table) = edit.open_table.as_deref().and_then(|id| find(tables, id)) {
        super::row(ui, |ui| {
            ui.label(RichText::new(&table.name).strong());
            if table.kind == TableKind::Random && ui.button(format!("Roll d{}", table.die.unwrap_or(20))).clicked() {
                requests.push(PanelRequest::RollTable { id: table.id.clone(), hidden: edit.hidden });
            }
        });
        egui::ScrollArea::vertical().id_salt("table-rows").max_height(160.0).show(ui, |ui| {
            egui::Grid::new("table-grid").striped(true).show(ui, |ui| {
                for column in &table.columns {
                    ui.label(RichText::new(column).strong());
                }
                ui.end_row();
                for row in &table.rows {
                    for cell in row {
                        ui.add(egui::Label::new(cell).wrap());
                    }
                    ui.end_row();
                }
            });
        });
    }
    ui.separator();
    ui.label(RichText::new("Mob attacks").strong());
    super::row(ui, |ui| {
        ui.label("Bonus");
        ui.add(egui::DragValue::new(&mut edit.mob.0).range(-5..=20));
        ui.label("AC");
        ui.add(egui::DragValue::new(&mut edit.mob.1).range(0..=30));
        ui.label("Attackers");
        ui.add(egui::DragValue::new(&mut edit.mob.2).range(1..=100));
    });
    if let Some((needed, per_hit, hits)) = mob_hits(tables, edit.mob.0, edit.mob.1, edit.mob.2) {
        ui.label(if per_hit == 0 {
            format!("They need {needed}: none can hit; roll individually.")
        } else {
            format!("They need {needed}+: {hits} hits (one for every {per_hit}).")
        });
    }
    calculators(ui, tables, edit, &mut requests);
    requests
}

/// Targets in an area, improvised damage, automatic success and special travel pace.
fn calculators(ui: &mut egui::Ui, tables: &[Table], edit: &mut DiceEdit, requests: &mut Vec<PanelRequest>) {
    ui.separator();
    ui.label(RichText::new("Targets in an area").strong());
    super::row(ui, |ui| {
        egui::ComboBox::from_id_salt("area-kind").selected_text(edit.area.0.name()).show_ui(ui, |ui| {
            for kind in ShapeKind::ALL {
                ui.selectable_value(&mut edit.area.0, kind, kind.name());
            }
        });
        ui.add(egui::DragValue::new(&mut edit.area.1).range(5..=1000).speed(5.0).suffix(" ft"));
    });
    let settings = TemplateSettings { kind: edit.area.0, feet: edit.area.1, ..TemplateSettings::default() };
    let estimate = estimated_targets(settings.shape().table_area(), edit.area.1);
    super::row(ui, |ui| {
        ui.label(format!("About {estimate} targets; ±1d3 if bunched or spread."));
        if ui.small_button("Roll 1d3").clicked() {
            let reason = format!("targets in a {} ft {} (±1d3)", edit.area.1, edit.area.0.name().to_lowercase());
            requests.push(PanelRequest::Roll {
                notation: "1d3".into(),
                mode: RollMode::Normal,
                hidden: edit.hidden,
                reason,
            });
        }
    });
    ui.separator();
    ui.label(RichText::new("Improvised damage").strong());
    super::row(ui, |ui| {
        ui.label("Level");
        ui.add(egui::DragValue::new(&mut edit.damage.0).range(1..=20));
        for severity in Severity::ALL {
            ui.selectable_value(&mut edit.damage.1, severity, severity.name());
        }
    });
    if let Some(dice) = improvised_damage(tables, edit.damage.0, edit.damage.1)
        && ui.button(format!("Roll {dice}")).clicked()
    {
        let reason = format!("{} damage at level {}", edit.damage.1.name().to_lowercase(), edit.damage.0);
        requests.push(PanelRequest::Roll { notation: dice, mode: RollMode::Normal, hidden: edit.hidden, reason });
    }
    ui.separator();
    ui.label(RichText::new("Automatic success (variant)").strong());
    super::row(ui, |ui| {
        ui.label("DC");
        ui.add(egui::DragValue::new(&mut edit.automatic.0).range(0..=40));
        ui.label("Score");
        ui.add(egui::DragValue::new(&mut edit.automatic.1).range(1..=30));
        ui.checkbox(&mut edit.automatic.2, "Proficient option");
    });
    let (dc, score, proficient) = edit.automatic;
    ui.label(if automatic_success(dc, score, proficient) { "Succeeds without a roll." } else { "Roll the check." });
    ui.separator();
    ui.label(RichText::new("Special travel pace").strong());
    super::row(ui, |ui| {
        ui.label("Speed");
        ui.add(egui::DragValue::new(&mut edit.travel.0).range(5..=1000).speed(5.0).suffix(" ft"));
        ui.label("Hours");
        ui.add(egui::DragValue::new(&mut edit.travel.1).range(1..=24));
    });
    let rates = special_travel(edit.travel.0, edit.travel.1);
    let [slow, normal, fast] = rates.miles_per_hour;
    let [slow_day, normal_day, fast_day] = rates.miles_per_day;
    ui.label(format!(
        "Slow / normal / fast: {} / {} / {} ft a minute; {slow} / {normal} / {fast} miles an hour; {slow_day} / {normal_day} / {fast_day} miles a day.",
        rates.feet_per_minute[0], rates.feet_per_minute[1], rates.feet_per_minute[2]
    ));
}
