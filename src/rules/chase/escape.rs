//! The Escape Factors table: what gives the quarry's escape check advantage or disadvantage.
//!
//! DMG "Ending a Chase" and "Escape Factors" (000_8c43542ae10d17a7.txt): "If one or more
//! factors give the quarry both advantage and disadvantage on its check, the quarry has neither."

use serde::{Deserialize, Serialize};

use super::Chase;
use crate::rules::advantage::Sources;
use crate::rules::dice::RollMode;
use crate::rules::modifiers::D20;

/// A factor of the scene, chosen by the DM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EscapeFactor {
    /// Quarry has many things to hide behind: advantage.
    ManyThingsToHideBehind,
    /// Quarry is in a very crowded or noisy area: advantage.
    CrowdedOrNoisy,
    /// Quarry has few things to hide behind: disadvantage.
    FewThingsToHideBehind,
    /// Quarry is in an uncrowded or quiet area: disadvantage.
    UncrowdedOrQuiet,
    /// Another factor at the DM's discretion (a *faerie fire* on the quarry: disadvantage).
    Other { name: String, advantage: bool },
}

impl EscapeFactor {
    /// The factors of the table, for a picker.
    pub fn table() -> [EscapeFactor; 4] {
        [
            EscapeFactor::ManyThingsToHideBehind,
            EscapeFactor::CrowdedOrNoisy,
            EscapeFactor::FewThingsToHideBehind,
            EscapeFactor::UncrowdedOrQuiet,
        ]
    }

    pub fn name(&self) -> String {
        match self {
            EscapeFactor::ManyThingsToHideBehind => "many things to hide behind".to_owned(),
            EscapeFactor::CrowdedOrNoisy => "a very crowded or noisy area".to_owned(),
            EscapeFactor::FewThingsToHideBehind => "few things to hide behind".to_owned(),
            EscapeFactor::UncrowdedOrQuiet => "an uncrowded or quiet area".to_owned(),
            EscapeFactor::Other { name, .. } => name.clone(),
        }
    }

    pub fn gives_advantage(&self) -> bool {
        match self {
            EscapeFactor::ManyThingsToHideBehind | EscapeFactor::CrowdedOrNoisy => true,
            EscapeFactor::FewThingsToHideBehind | EscapeFactor::UncrowdedOrQuiet => false,
            EscapeFactor::Other { advantage, .. } => *advantage,
        }
    }
}

impl Chase {
    /// The advantages and disadvantages of `quarry`'s escape check with `lead` as the lead
    /// pursuer: the scene's factors, a ranger or Survival-proficient lead pursuer, and what the
    /// quarry's conditions and exhaustion give its checks (`Participant::sources`: poisoned,
    /// exhaustion from level 1).
    pub fn escape_sources(&self, quarry: &str, lead: &str) -> Sources {
        let mut sources = Sources::default();
        for factor in &self.rules.escape_factors {
            let mode = if factor.gives_advantage() { RollMode::Advantage } else { RollMode::Disadvantage };
            sources.add(mode, factor.name());
        }
        if self.participant(lead).is_some_and(|p| p.sheet.tracker) {
            sources.disadvantage("the lead pursuer is a ranger or proficient in Survival");
        }
        if let Some(p) = self.participant(quarry) {
            sources.merge(p.sources(D20::STEALTH));
        }
        sources
    }
}
