//! The card's effects: each effect on the creature with its source, duration, save and whether it
//! is in force or waits behind a more potent one of its name (DMG "Combining Game Effects"), what
//! it does to rolls, with an end button and the cures that end it; and, in the DM's view, what
//! gives effects: a poison (a dose, or coating the creature's weapon), a disease, a madness, a
//! plain effect (a condition, disadvantage on a kind of roll, a save), and the long rest's dawn.

use bevy_egui::egui::{self, RichText};

use super::PanelRequest;
use crate::app::core::requests::EffectAction;
use crate::rules::conditions::Condition;
use crate::rules::creature::Ability;
use crate::rules::effects::diseases::Disease;
use crate::rules::effects::madness::MadnessKind;
use crate::rules::effects::poisons::Poison;
use crate::rules::effects::{Cure, Duration, Effect, RepeatedSave, Source, TurnPoint};
use crate::rules::modifiers::{Change, RollKind, RollModifier};

/// One effect as the card lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EffectRow {
    pub id: u32,
    pub name: String,
    /// Where it came from, in words ("Ghoul", "poison: Serpent venom", "the DM").
    pub source: String,
    /// How long it lasts and what is left, in words.
    pub duration: String,
    pub save: Option<String>,
    pub conditions: Vec<&'static str>,
    pub note: String,
    /// Applies now; else it waits behind a more potent one of its name.
    pub in_force: bool,
    /// Kept from the players (only the DM's view lists it).
    pub secret: bool,
    /// What it does to d20 rolls, in words (`disadvantage on ability checks`).
    pub modifiers: Vec<String>,
    /// The cures that end it (`rules::effects::Cure::ends`): the DM's view offers each.
    pub cures: Vec<Cure>,
}

/// The card's effects section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EffectsView {
    pub rows: Vec<EffectRow>,
    /// The poison on the creature's weapon.
    pub coated: Option<&'static str>,
    /// The DM's view: the controls that give and end effects.
    pub dm: bool,
}

/// What the DM is typing for a plain effect, kept between frames.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectsEdit {
    pub name: String,
    pub condition: Option<Condition>,
    /// The rolls it gives disadvantage on, if any.
    pub disadvantage: Option<RollKind>,
    pub rounds: u32,
    pub save: Option<Ability>,
    pub dc: i32,
    pub poison: Poison,
    pub disease: Disease,
}

impl Default for EffectsEdit {
    fn default() -> Self {
        Self {
            name: String::new(),
            condition: Some(Condition::Frightened),
            disadvantage: None,
            rounds: 10,
            save: Some(Ability::Wis),
            dc: 13,
            poison: Poison::SerpentVenom,
            disease: Disease::SewerPlague,
        }
    }
}

/// The badge the map shows for an effect: its name (cut to 12 characters) and, for a timed one
/// of under 100 rounds, the rounds left.
pub fn badge(name: &str, rounds_left: Option<u32>) -> String {
    let short: String = name.chars().take(12).collect();
    match rounds_left {
        Some(rounds) if rounds < 100 => format!("{short} {rounds}r"),
        _ => short,
    }
}

/// A duration in words, with the rounds left of a timed one.
pub fn duration_words(duration: Duration, rounds_left: Option<u32>) -> String {
    let left = |n: u32| match n {
        1 => "1 round left".to_owned(),
        n => format!("{n} rounds left"),
    };
    match (duration, rounds_left) {
        (Duration::Rounds(_) | Duration::Minutes(_) | Duration::Hours(_), Some(n)) if n < 600 => left(n),
        (Duration::Rounds(_) | Duration::Minutes(_) | Duration::Hours(_), Some(n)) => {
            format!("{} hours left", n.div_ceil(600))
        }
        (Duration::EndOfSourcesNextTurn, _) => "until the end of its source's next turn".to_owned(),
        (Duration::StartOfOwnNextTurn, _) => "until the start of its next turn".to_owned(),
        (Duration::UntilSaved, _) => "until a save succeeds".to_owned(),
        (Duration::Concentration, _) => "while its source concentrates".to_owned(),
        _ => "until removed".to_owned(),
    }
}

/// Where an effect came from, in words (a creature by its name).
pub fn source_words(source: &Source, name_of: impl Fn(&str) -> String) -> String {
    match source {
        Source::Creature(id) => name_of(id),
        Source::Poison(poison) => format!("poison: {}", poison.name()),
        Source::Disease(disease) => format!("disease: {}", disease.name()),
        Source::Madness(kind) => kind.name().to_owned(),
        Source::Dm => "the DM".to_owned(),
    }
}

/// A repeated save in words.
pub fn save_words(save: &RepeatedSave) -> String {
    let at = match save.at {
        TurnPoint::Start => "start",
        TurnPoint::End => "end",
    };
    let times = if save.successes > 1 { format!(" ({} successes end it)", save.successes) } else { String::new() };
    format!("DC {} {} save at the {at} of each of its turns{times}", save.dc, save.ability.name())
}

/// `text` with its first letter in capitals.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// Draws the effects section of the card of the creature `id`.
pub fn effects_section(ui: &mut egui::Ui, id: &str, view: &EffectsView, edit: &mut EffectsEdit) -> Vec<PanelRequest> {
    let mut asked = Vec::new();
    let mut ask = |action| asked.push(PanelRequest::Effect { id: Some(id.to_owned()), action });
    ui.separator();
    ui.label(RichText::new("Effects").strong());
    if view.rows.is_empty() {
        ui.label(RichText::new("None lasting.").weak());
    }
    for row in &view.rows {
        super::row(ui, |ui| {
            let name = if row.in_force { RichText::new(&row.name).strong() } else { RichText::new(&row.name).weak() };
            ui.label(name);
            if !row.in_force {
                ui.label(RichText::new("waiting").italics())
                    .on_hover_text("A more potent effect of the same name is in force: they don't add");
            }
            if row.secret {
                ui.label(RichText::new("secret").italics()).on_hover_text("Kept from the players");
            }
            if view.dm && ui.small_button("End").on_hover_text("End this effect").clicked() {
                ask(EffectAction::End(row.id));
            }
        });
        let mut line = format!("from {}; {}", row.source, row.duration);
        if !row.conditions.is_empty() {
            line.push_str(&format!("; {}", row.conditions.join(", ")));
        }
        ui.label(RichText::new(line).small());
        if let Some(save) = &row.save {
            ui.label(RichText::new(save).small());
        }
        if !row.modifiers.is_empty() {
            ui.label(RichText::new(row.modifiers.join("; ")).small());
        }
        if !row.note.is_empty() {
            ui.label(RichText::new(&row.note).small().italics());
        }
        if view.dm && !row.cures.is_empty() {
            super::row(ui, |ui| {
                for &cure in &row.cures {
                    let hover = format!("Cast {} to end {}", cure.name(), row.name);
                    if ui.small_button(capitalized(cure.name())).on_hover_text(hover).clicked() {
                        ask(EffectAction::Cure { effect: row.id, cure });
                    }
                }
            });
        }
    }
    if let Some(poison) = view.coated {
        super::row(ui, |ui| {
            ui.label(format!("Weapon coated: {poison}"));
            if view.dm && ui.small_button("Wipe").clicked() {
                ask(EffectAction::Coat(None));
            }
        });
    }
    if !view.dm {
        return asked;
    }
    egui::CollapsingHeader::new("Give an effect").id_salt(("give", id)).show(ui, |ui| {
        super::row(ui, |ui| {
            ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut edit.name).desired_width(110.0).hint_text("frightened"));
        });
        super::row(ui, |ui| {
            egui::ComboBox::from_id_salt(("condition", id))
                .selected_text(edit.condition.map_or("no condition", Condition::name))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut edit.condition, None, "no condition");
                    for condition in Condition::ALL {
                        ui.selectable_value(&mut edit.condition, Some(condition), condition.name());
                    }
                });
            ui.add(egui::DragValue::new(&mut edit.rounds).range(1..=100).suffix(" rounds"));
        });
        super::row(ui, |ui| {
            ui.label("Disadvantage on");
            egui::ComboBox::from_id_salt(("disadvantage", id))
                .selected_text(edit.disadvantage.map_or("nothing", RollKind::name))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut edit.disadvantage, None, "nothing");
                    for kind in [RollKind::Attacks, RollKind::Checks, RollKind::Saves] {
                        ui.selectable_value(&mut edit.disadvantage, Some(kind), kind.name());
                    }
                });
        });
        super::row(ui, |ui| {
            egui::ComboBox::from_id_salt(("save", id))
                .selected_text(edit.save.map_or("no save", Ability::name))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut edit.save, None, "no save");
                    for ability in Ability::ALL {
                        ui.selectable_value(&mut edit.save, Some(ability), ability.name());
                    }
                });
            if edit.save.is_some() {
                ui.add(egui::DragValue::new(&mut edit.dc).range(1..=30).prefix("DC "));
            }
        });
        let name = edit.name.trim();
        let name = if name.is_empty() { edit.condition.map_or("effect", Condition::name) } else { name };
        if ui.button("Give").clicked() {
            let effect = Effect {
                conditions: edit.condition.into_iter().collect(),
                modifiers: edit
                    .disadvantage
                    .map(|on| RollModifier { on, abilities: Vec::new(), sight: false, change: Change::Disadvantage })
                    .into_iter()
                    .collect(),
                save: edit.save.map(|ability| RepeatedSave { ability, dc: edit.dc, at: TurnPoint::End, successes: 1 }),
                ..Effect::new(name, Source::Dm, Duration::Rounds(edit.rounds))
            };
            ask(EffectAction::Give(Box::new(effect)));
        }
    });
    egui::CollapsingHeader::new("Poison, disease, madness").id_salt(("afflict", id)).show(ui, |ui| {
        super::row(ui, |ui| {
            egui::ComboBox::from_id_salt(("poison", id)).selected_text(edit.poison.name()).show_ui(ui, |ui| {
                for poison in Poison::ALL {
                    ui.selectable_value(&mut edit.poison, poison, poison.name());
                }
            });
            if ui.button("Expose").on_hover_text("A dose, a cloud or a touch: the save now").clicked() {
                ask(EffectAction::Poison(edit.poison));
            }
            if ui.button("Coat weapon").on_hover_text("The creature's next hit delivers it").clicked() {
                ask(EffectAction::Coat(Some(edit.poison)));
            }
        });
        super::row(ui, |ui| {
            egui::ComboBox::from_id_salt(("disease", id)).selected_text(edit.disease.name()).show_ui(ui, |ui| {
                for disease in Disease::ALL {
                    ui.selectable_value(&mut edit.disease, disease, disease.name());
                }
            });
            if ui.button("Infect").clicked() {
                ask(EffectAction::Disease(edit.disease));
            }
        });
        super::row(ui, |ui| {
            ui.label("Madness:");
            for (kind, label) in [
                (MadnessKind::ShortTerm, "short"),
                (MadnessKind::LongTerm, "long"),
                (MadnessKind::Indefinite, "indefinite"),
            ] {
                if ui.small_button(label).on_hover_text(format!("Roll a {}", kind.name())).clicked() {
                    ask(EffectAction::Madness(kind));
                }
            }
        });
    });
    if ui
        .button("Long rest / dawn")
        .on_hover_text("For everyone: timed effects run 8 hours on; diseases advance")
        .clicked()
    {
        asked.push(PanelRequest::Effect { id: None, action: EffectAction::Dawn });
    }
    asked
}
