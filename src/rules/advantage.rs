//! Advantage and disadvantage with their sources named: any number of each cancel to neither.
//!
//! DMG "Advantage and Disadvantage" (002_ce573f1e51986339.txt): "If circumstances cause a roll to
//! have both advantage and disadvantage, you consider it to have neither of them, and you roll
//! one d20. This is true even if multiple circumstances impose disadvantage and only one grants
//! advantage or vice versa." Conventions, "Advantage and disadvantage": every roll lists its
//! sources.

use serde::Serialize;

use super::dice::RollMode;

/// The reasons a roll has advantage and disadvantage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Sources {
    pub advantages: Vec<String>,
    pub disadvantages: Vec<String>,
}

impl Sources {
    pub fn advantage(&mut self, source: impl Into<String>) {
        self.advantages.push(source.into());
    }

    pub fn disadvantage(&mut self, source: impl Into<String>) {
        self.disadvantages.push(source.into());
    }

    /// Adds every source of `other`, each on its side.
    pub fn merge(&mut self, other: Sources) {
        self.advantages.extend(other.advantages);
        self.disadvantages.extend(other.disadvantages);
    }

    /// Adds `source` on the side `mode` names (nothing for a normal roll).
    pub fn add(&mut self, mode: RollMode, source: impl Into<String>) {
        match mode {
            RollMode::Advantage => self.advantage(source),
            RollMode::Disadvantage => self.disadvantage(source),
            RollMode::Normal => {}
        }
    }

    /// How the d20 is rolled: advantage or disadvantage if only one side has a source, else once.
    pub fn mode(&self) -> RollMode {
        match (self.advantages.is_empty(), self.disadvantages.is_empty()) {
            (false, true) => RollMode::Advantage,
            (true, false) => RollMode::Disadvantage,
            _ => RollMode::Normal,
        }
    }

    /// What the roll's advantage or disadvantage does to a passive score instead (PHB "Passive
    /// Checks": "If the character has advantage on the check, add 5. For disadvantage, subtract
    /// 5.").
    pub fn passive_bonus(&self) -> i32 {
        match self.mode() {
            RollMode::Advantage => 5,
            RollMode::Disadvantage => -5,
            RollMode::Normal => 0,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.advantages.is_empty() && self.disadvantages.is_empty()
    }

    /// Every source in words: `advantage: target restrained; disadvantage: long range`.
    pub fn describe(&self) -> String {
        let side = |name: &str, list: &[String]| (!list.is_empty()).then(|| format!("{name}: {}", list.join(", ")));
        [side("advantage", &self.advantages), side("disadvantage", &self.disadvantages)]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DMG: "This is true even if multiple circumstances impose disadvantage and only one grants
    /// advantage or vice versa. In such a situation, you have neither advantage nor disadvantage."
    #[test]
    fn any_number_of_each_cancel_to_neither() {
        let mut sources = Sources::default();
        assert_eq!(sources.mode(), RollMode::Normal);
        sources.advantage("flanking");
        sources.advantage("target restrained");
        assert_eq!(sources.mode(), RollMode::Advantage, "two advantages are one");
        sources.disadvantage("long range");
        assert_eq!(sources.mode(), RollMode::Normal, "two against one cancel");
        assert_eq!(sources.describe(), "advantage: flanking, target restrained; disadvantage: long range");
        let mut only_bad = Sources::default();
        only_bad.add(RollMode::Disadvantage, "exhaustion");
        only_bad.add(RollMode::Normal, "nothing");
        assert_eq!(
            (only_bad.mode(), only_bad.describe().as_str()),
            (RollMode::Disadvantage, "disadvantage: exhaustion")
        );
        assert_eq!((only_bad.passive_bonus(), sources.passive_bonus(), Sources::default().passive_bonus()), (-5, 0, 0));
    }
}
