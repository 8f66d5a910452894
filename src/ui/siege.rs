//! Siege equipment on the card: a selected weapon's state, crew and what it needs next, and for a
//! selected creature the weapons beside it, with a button for each one's next step.

use bevy_egui::egui::{self, RichText};

use super::PanelRequest;
use crate::rules::siege::Step;

/// What the card shows of siege equipment for the selected token.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SiegeView {
    /// The selected token is siege equipment: its card.
    pub weapon: Option<WeaponCard>,
    /// The weapons within 5 ft of the selected creature.
    pub nearby: Vec<NearbyWeapon>,
}

/// A siege weapon's (or tower's) own card.
#[derive(Clone, Debug, PartialEq)]
pub struct WeaponCard {
    /// `Ballista`.
    pub kind: String,
    /// `loaded`, `aiming (1 of 2 actions)`, `full`...
    pub state: String,
    /// The actions each step takes: `load 2, aim 2, fire 1`.
    pub sequence: String,
    /// Its attack or effect in words.
    pub payload: Option<String>,
    /// What each creature did to it this round.
    pub crew_this_round: Vec<String>,
    /// A ram's operators against the four Medium creatures it needs.
    pub ram_crew: Option<String>,
    /// Who could push it now, and how far.
    pub push: String,
}

/// A weapon the selected creature could work.
#[derive(Clone, Debug, PartialEq)]
pub struct NearbyWeapon {
    pub id: String,
    pub name: String,
    pub state: String,
    /// Its next step and the word for it (`load`, `aim`, `fire`, `fill`, `tip`, `ram`).
    pub next: Option<(Step, String)>,
    /// Firing waits for a click on a target (the weapon picked for it).
    pub picked: bool,
    /// Why the selected creature can't work it now, if it can't.
    pub why_not: Option<String>,
}

/// What the card asks of a siege weapon for the selected creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiegeAction {
    /// Spend the action on loading or aiming (filling a cauldron).
    Work(Step),
    /// Pick the weapon to fire: the next click on a target fires it (again: put it down).
    PickTarget,
    /// Tip the cauldron on the square below it.
    Tip,
}

/// Draws the siege part of the card for the token `id`.
pub fn siege_section(ui: &mut egui::Ui, id: &str, view: &SiegeView) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    if let Some(card) = &view.weapon {
        ui.separator();
        ui.label(RichText::new(format!("{}: {}", card.kind, card.state)).strong());
        ui.label(RichText::new(format!("Steps: {} (actions of creatures within 5 ft)", card.sequence)).weak());
        if let Some(payload) = &card.payload {
            ui.label(payload);
        }
        if let Some(crew) = &card.ram_crew {
            ui.label(format!("Crew: {crew}"));
        }
        ui.label(RichText::new(format!("Pushing: {}", card.push)).weak());
        if card.crew_this_round.is_empty() {
            ui.label(RichText::new("No crew has worked it this round").weak());
        } else {
            ui.label(format!("This round: {}", card.crew_this_round.join("; ")));
        }
    }
    if !view.nearby.is_empty() {
        ui.separator();
        ui.label(RichText::new("Siege weapons within 5 ft (each step is an action)").weak());
    }
    for weapon in &view.nearby {
        super::row(ui, |ui| {
            ui.label(format!("{} ({}):", weapon.name, weapon.state));
            let Some((step, verb)) = &weapon.next else { return };
            let action = match step {
                Step::Fire if verb == "tip" => SiegeAction::Tip,
                Step::Fire => SiegeAction::PickTarget,
                step => SiegeAction::Work(*step),
            };
            let label = match action {
                SiegeAction::PickTarget => format!("{} at...", capitalized(verb)),
                _ => capitalized(verb),
            };
            let enabled = weapon.why_not.is_none();
            let button = if action == SiegeAction::PickTarget {
                ui.add_enabled(enabled, egui::Button::selectable(weapon.picked, label))
            } else {
                ui.add_enabled(enabled, egui::Button::new(label))
            };
            let tip = match (&weapon.why_not, action) {
                (Some(why), _) => why.clone(),
                (None, SiegeAction::PickTarget) => {
                    "Then click the target: the shot goes through the attack rules".into()
                }
                (None, SiegeAction::Tip) => "Every creature in the square below makes a DC 15 Dexterity save".into(),
                (None, SiegeAction::Work(_)) => "Spends this creature's action".into(),
            };
            if weapon.id == view.nearby[0].id {
                super::remember(&button, "card.siege");
            }
            if button.on_hover_text(tip).on_disabled_hover_text(weapon.why_not.clone().unwrap_or_default()).clicked() {
                requests.push(PanelRequest::Siege { operator: id.to_owned(), weapon: weapon.id.clone(), action });
            }
        });
    }
    requests
}

/// `word` with its first letter in upper case: `Ballista`.
pub(crate) fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}
