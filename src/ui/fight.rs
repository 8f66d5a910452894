//! The fight on the creature card (hit points with damage and healing, temporary hit points,
//! conditions with their effects, death saves, exhaustion, facing, Dodge, the attacks to pick)
//! and the attack card beside the cursor.

use bevy_egui::egui::{self, RichText};

use super::PanelRequest;
use crate::app::core::notice::{NotNow, Said};
use crate::rules::conditions::{Condition, Conditions, exhaustion_effects};
use crate::rules::creature::ShieldSide;
use crate::rules::dice::RollMode;
use crate::rules::facing::Arc;
use crate::rules::fight::adjudicate::Adjudication;
use crate::rules::health::{Health, Life};
use crate::rules::sight::CoverDegree;

/// What the card shows of a creature's fight.
#[derive(Clone, Debug, PartialEq)]
pub struct FightView {
    /// The audience sees its exact hit points (else healthy, bloodied or down).
    pub exact_hp: bool,
    pub health: Health,
    /// The maximum its exhaustion leaves it.
    pub max_hp: i32,
    pub conditions: Conditions,
    pub exhaustion: u8,
    /// Each attack's name and its numbers in words.
    pub attacks: Vec<(String, String)>,
    /// The attack picked for the next click on a target.
    pub picked: Option<String>,
    pub dodging: bool,
    pub prone: bool,
    /// Resistances, vulnerabilities and immunities in words (empty if none).
    pub defenses: String,
    /// Whether it faces a side (and so can turn), and the facing rule is on.
    pub turns: bool,
    pub shield: Option<ShieldSide>,
    /// A custom arc layout, in words.
    pub arcs: Option<String>,
}

/// What the card asks of the fight for the selected creature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FightAction {
    PickAttack(Option<String>),
    Damage(i32),
    Heal(i32),
    TempHp(i32),
    Condition(Condition, bool),
    Exhaustion(u8),
    DeathSave,
    Stabilize,
    Turn { clockwise: bool },
    Dodge(bool),
    StandUp,
}

/// The amount typed for damage, healing and temporary hit points, and the effect being given.
#[derive(Clone, Debug, PartialEq)]
pub struct FightEdit {
    pub amount: i32,
    pub effects: super::effects::EffectsEdit,
}

impl Default for FightEdit {
    fn default() -> Self {
        Self { amount: 5, effects: Default::default() }
    }
}

/// Draws the fight part of the creature card for the creature `id`.
pub fn fight_section(ui: &mut egui::Ui, id: &str, view: &FightView, edit: &mut FightEdit) -> Vec<PanelRequest> {
    let mut actions = Vec::new();
    let health = &view.health;
    ui.separator();
    super::row(ui, |ui| {
        if !view.exact_hp {
            ui.label(RichText::new(format!("HP: {}", health.outward().word())).strong())
                .on_hover_text("The players' view: the DM's view shows the number");
            return;
        }
        let bloodied = if health.bloodied() { " · bloodied" } else { "" };
        let temp = if health.temp_hp > 0 { format!(" + {} temp", health.temp_hp) } else { String::new() };
        let state = if health.life == Life::Up { String::new() } else { format!(" · {}", health.life.word()) };
        ui.label(RichText::new(format!("HP {} / {}{temp}{bloodied}{state}", health.hp, view.max_hp)).strong());
    });
    super::row(ui, |ui| {
        ui.add(egui::DragValue::new(&mut edit.amount).range(0..=9999).speed(0.2)).on_hover_text("Hit points");
        if ui.button("Damage").on_hover_text("Take this damage (after resistances)").clicked() {
            actions.push(FightAction::Damage(edit.amount));
        }
        if ui.button("Heal").on_hover_text("Regain this many hit points").clicked() {
            actions.push(FightAction::Heal(edit.amount));
        }
        if ui.button("Temp HP").on_hover_text("Temporary hit points (the higher of the two stays)").clicked() {
            actions.push(FightAction::TempHp(edit.amount));
        }
    });
    if health.life == Life::Dying {
        super::row(ui, |ui| {
            let saves = health.death_saves;
            ui.label(format!("Death saves: {} succeeded, {} failed", saves.successes, saves.failures));
            if ui.button("Roll death save").on_hover_text("d20: 10+ succeeds, 1 fails twice, 20 regains 1 HP").clicked()
            {
                actions.push(FightAction::DeathSave);
            }
            if ui.button("Stabilize").on_hover_text("A successful Medicine check, or spare the dying").clicked() {
                actions.push(FightAction::Stabilize);
            }
        });
    }
    if !view.defenses.is_empty() {
        ui.label(RichText::new(&view.defenses).weak());
    }
    if !view.attacks.is_empty() {
        ui.label(RichText::new("Attacks (pick one, then click a target; A or 1–9)").weak());
        for (i, (name, words)) in view.attacks.iter().enumerate() {
            let picked = view.picked.as_deref() == Some(name.as_str());
            let text = format!("{}. {name}: {words}", i + 1);
            if ui.selectable_label(picked, text).clicked() {
                actions.push(FightAction::PickAttack(if picked { None } else { Some(name.clone()) }));
            }
        }
    }
    super::row(ui, |ui| {
        if view.turns {
            if ui.button("Turn [").on_hover_text("Turn to face the next side counter-clockwise").clicked() {
                actions.push(FightAction::Turn { clockwise: false });
            }
            if ui.button("Turn ]").on_hover_text("Turn to face the next side clockwise").clicked() {
                actions.push(FightAction::Turn { clockwise: true });
            }
        }
        // Dodge is an action, on the turn part of the card; here the DM can end it early.
        if view.dodging
            && ui.button("Stop dodging").on_hover_text("It lost the benefit (incapacitated, speed 0)").clicked()
        {
            actions.push(FightAction::Dodge(false));
        }
        if view.prone && ui.button("Stand up").on_hover_text("Costs half its speed").clicked() {
            actions.push(FightAction::StandUp);
        }
    });
    if let Some(shield) = view.shield {
        let side = if shield == ShieldSide::Left { "left" } else { "right" };
        ui.label(RichText::new(format!("Shield on the {side} arm: counts from the front and {side} arcs")).weak());
    }
    if let Some(arcs) = &view.arcs {
        ui.label(RichText::new(arcs).weak());
    }
    egui::CollapsingHeader::new(format!("Conditions ({})", view.conditions.iter().count())).id_salt("conditions").show(
        ui,
        |ui| {
            egui::Grid::new("conditions").num_columns(3).show(ui, |ui| {
                for (i, condition) in Condition::ALL.into_iter().enumerate() {
                    let mut on = view.conditions.has(condition);
                    let given = view.conditions.iter().any(|c| c == condition);
                    let response = ui.add_enabled(given || !on, egui::Checkbox::new(&mut on, condition.name()));
                    if response.on_hover_text(condition.effects()).changed() {
                        actions.push(FightAction::Condition(condition, on));
                    }
                    if i % 3 == 2 {
                        ui.end_row();
                    }
                }
            });
            super::row(ui, |ui| {
                ui.label(format!("Exhaustion {}", view.exhaustion));
                if ui.add_enabled(view.exhaustion > 0, egui::Button::new("−")).clicked() {
                    actions.push(FightAction::Exhaustion(view.exhaustion - 1));
                }
                let effects = exhaustion_effects(view.exhaustion + 1).join("; ");
                if ui.add_enabled(view.exhaustion < 6, egui::Button::new("+")).on_hover_text(effects).clicked() {
                    actions.push(FightAction::Exhaustion(view.exhaustion + 1));
                }
            });
        },
    );
    actions.into_iter().map(|action| PanelRequest::Fight { id: id.to_owned(), action }).collect()
}

/// The attack card for a ruling, or for an attack the attacker doesn't have (its refusal alone);
/// `now` is why the click would be refused now (not its turn, no attack left).
pub fn attack_card_lines(
    attacker: &str,
    target: &str,
    ruling: &Result<Adjudication, crate::rules::fight::adjudicate::Refusal>,
    now: &Result<(), NotNow>,
) -> (Vec<String>, bool) {
    match ruling {
        Ok(ruling) => attack_card(ruling, attacker, target, now),
        Err(refusal) => (vec![refusal.to_string()], false),
    }
}

/// The attack card's lines and whether the attack may be made: the attack and its reach or range,
/// cover, the arcs, the flanking pair, every advantage and disadvantage, the AC to beat, and the
/// click's refusal when it would be refused `now`, in the notice's words.
pub fn attack_card(
    ruling: &Adjudication,
    attacker: &str,
    target: &str,
    now: &Result<(), NotNow>,
) -> (Vec<String>, bool) {
    let mut lines = vec![format!("{} vs {target}: {}, {} ft away", ruling.attack.name, ruling.reach, ruling.distance)];
    if let Some(refusal) = &ruling.refusal {
        lines.push(format!("Can't attack: {refusal}"));
        return (lines, false);
    }
    let cover = ruling.cover.degree;
    lines.push(match cover.bonus() {
        _ if ruling.attack.indirect && cover != CoverDegree::None => {
            format!("Cover: {}, which the high arc passes over (+0 AC)", cover.name())
        }
        Some(0) | None => format!("Cover: {}", cover.label()),
        Some(bonus) => format!("Cover: {} (+{bonus} AC)", cover.label()),
    });
    let arc = |a: Option<Arc>| a.map(Arc::name);
    if let (Some(t), Some(a)) = (arc(ruling.target_in_arc), arc(ruling.attacker_in_arc)) {
        lines.push(format!("Arcs: {target} in {attacker}'s {t}; {attacker} in {target}'s {a}"));
    } else if let Some(a) = arc(ruling.attacker_in_arc) {
        lines.push(format!("Arcs: {attacker} in {target}'s {a}"));
    }
    if let Some(why) = &ruling.unseen_because {
        lines.push(format!("Unseen: {why}"));
    }
    for source in &ruling.sources.advantages {
        lines.push(format!("Advantage: {source}"));
    }
    for source in &ruling.sources.disadvantages {
        lines.push(format!("Disadvantage: {source}"));
    }
    let mode = ruling.sources.mode();
    if !ruling.sources.is_empty() {
        let word = match mode {
            RollMode::Advantage => "with advantage",
            RollMode::Disadvantage => "with disadvantage",
            RollMode::Normal => "normally (they cancel)",
        };
        lines.push(format!("Roll: {word}"));
    }
    let ac = ruling.ac;
    let mut parts = Vec::new();
    if ac.cover != 0 {
        parts.push(format!("{:+} cover", ac.cover));
    }
    if ac.shield != 0 {
        parts.push(format!("{:+} shield out of its arc", ac.shield));
    }
    if parts.is_empty() {
        lines.push(format!("AC to beat: {}", ac.total));
    } else {
        lines.push(format!("AC to beat: {} ({} base {})", ac.total, ac.base, parts.join(" ")));
    }
    if let Some(why) = &ruling.automatic_critical {
        lines.push(format!("A hit is a critical hit: {why}"));
    }
    if let Err(why) = now {
        lines.push(super::words::said(&Said::CantAttackNow { who: attacker.to_owned(), why: why.clone() }));
        return (lines, false);
    }
    lines.push("Click to attack".to_owned());
    (lines, true)
}
