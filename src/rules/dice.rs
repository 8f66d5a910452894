//! Dice in standard notation (`2d6+3`, `4d6kh3`, `d20`, `d100`), parsed by the `tyche` crate and
//! rolled with the session's one seeded generator, so that a game replays.
//!
//! DMG "Dice Rolling" and "Advantage and Disadvantage" (002_ce573f1e51986339.txt): with
//! advantage or disadvantage the roll is made twice and the higher or the lower result used.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use tyche::dice::DieRoll;
use tyche::dice::roller::Roller;
use tyche::expr::Describe;

/// The longest notation accepted (tyche already limits a set of dice to 255 dice of 255 sides).
pub const MAX_NOTATION: usize = 200;

/// Whether a roll is made once, or twice keeping the higher or the lower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RollMode {
    #[default]
    Normal,
    Advantage,
    Disadvantage,
}

/// Why a roll can't be made, in a sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiceError(pub String);

impl std::fmt::Display for DiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One evaluation of the notation: every die shown, and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    /// tyche's description, such as `2d6[4, 2] + 3`.
    pub detail: String,
    pub total: i32,
}

/// A finished roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiceRoll {
    pub notation: String,
    pub mode: RollMode,
    /// One evaluation, or two with advantage or disadvantage.
    pub evaluations: Vec<Evaluation>,
    /// The result that counts.
    pub total: i32,
}

/// The one generator of a session of play, with the seed it started from.
#[derive(Debug)]
pub struct SeededDice {
    pub seed: u64,
    rng: StdRng,
}

impl SeededDice {
    pub fn new(seed: u64) -> Self {
        Self { seed, rng: StdRng::seed_from_u64(seed) }
    }

    /// Rolls `notation`, twice with advantage or disadvantage.
    pub fn roll(&mut self, notation: &str, mode: RollMode) -> Result<DiceRoll, DiceError> {
        let notation = notation.trim();
        if notation.is_empty() {
            return Err(DiceError("write dice such as 2d6+3, 4d6kh3 or d20".into()));
        }
        if notation.len() > MAX_NOTATION {
            return Err(DiceError(format!("the notation is {} characters; at most {MAX_NOTATION}", notation.len())));
        }
        let expr: tyche::Expr =
            notation.parse().map_err(|e| DiceError(format!("{notation:?} is not dice notation: {e}")))?;
        if has_sideless_dice(&expr) {
            return Err(DiceError(format!("{notation:?} has dice with no sides: a die has at least one")));
        }
        let times = if mode == RollMode::Normal { 1 } else { 2 };
        let mut evaluations = Vec::with_capacity(times);
        for _ in 0..times {
            let evaled = expr.eval(self).map_err(|e| DiceError(format!("can't roll {notation:?}: {e}")))?;
            let total = evaled.calc().map_err(|e| DiceError(format!("can't total {notation:?}: {e}")))?;
            evaluations.push(Evaluation { detail: evaled.describe(Some(50)), total });
        }
        let totals = evaluations.iter().map(|e| e.total);
        let total = match mode {
            RollMode::Disadvantage => totals.min(),
            _ => totals.max(),
        }
        .unwrap_or_default();
        Ok(DiceRoll { notation: notation.to_owned(), mode, evaluations, total })
    }
}

/// Whether any set of dice in the expression has 0 sides.
fn has_sideless_dice(expr: &tyche::Expr) -> bool {
    use tyche::Expr;
    match expr {
        Expr::Dice(dice) => dice.sides == 0,
        Expr::Neg(x) => has_sideless_dice(x),
        Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) | Expr::DivDown(a, b) | Expr::DivUp(a, b) => {
            has_sideless_dice(a) || has_sideless_dice(b)
        }
        _ => false,
    }
}

impl Roller for SeededDice {
    fn roll_die(&mut self, sides: u8) -> DieRoll {
        // Sides are checked before rolling (`has_sideless_dice`).
        DieRoll::new(self.rng.random_range(1..=sides.max(1)))
    }
}

/// One line of the roll log: who rolled what and why, every die, and whether the players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogEntry {
    pub who: String,
    pub reason: String,
    pub roll: DiceRoll,
    /// Rolled behind the DM's screen: players see only that the DM rolled.
    pub hidden: bool,
}

impl LogEntry {
    /// The line as the DM sees it.
    pub fn full_text(&self) -> String {
        let details: Vec<String> =
            self.roll.evaluations.iter().map(|e| format!("{} = {}", e.detail, e.total)).collect();
        let mode = match self.roll.mode {
            RollMode::Normal => "",
            RollMode::Advantage => " with advantage",
            RollMode::Disadvantage => " with disadvantage",
        };
        let reason = if self.reason.is_empty() { String::new() } else { format!(" for {}", self.reason) };
        format!(
            "{} rolled {}{mode}{reason}: {} → {}",
            self.who,
            self.roll.notation,
            details.join(" | "),
            self.roll.total
        )
    }

    /// The line as the players see it.
    pub fn player_text(&self) -> String {
        if self.hidden { "The DM rolled.".to_owned() } else { self.full_text() }
    }
}

/// Every roll of a session, in order, with the seed that replays them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RollLog {
    pub seed: u64,
    pub entries: Vec<LogEntry>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_replays_the_same_rolls() {
        let rolls = |seed| {
            let mut dice = SeededDice::new(seed);
            (0..20).map(|_| dice.roll("4d6kh3", RollMode::Normal).expect("valid").total).collect::<Vec<_>>()
        };
        assert_eq!(rolls(42), rolls(42));
        assert_ne!(rolls(42), rolls(43));
        assert!(rolls(42).iter().all(|t| (3..=18).contains(t)));
    }

    #[test]
    fn standard_notation_rolls_within_its_range() {
        let mut dice = SeededDice::new(1);
        for (notation, low, high) in
            [("2d6+3", 5, 15), ("d20", 1, 20), ("1d20", 1, 20), ("d100", 1, 100), ("3d8-2", 1, 22)]
        {
            for _ in 0..50 {
                let roll = dice.roll(notation, RollMode::Normal).unwrap_or_else(|e| panic!("{notation}: {e}"));
                assert!((low..=high).contains(&roll.total), "{notation}: {}", roll.total);
            }
        }
    }

    /// DMG: "roll a second d20 when you make the roll. Use the higher of the two rolls if you
    /// have advantage, and use the lower roll if you have disadvantage."
    #[test]
    fn advantage_keeps_the_higher_and_disadvantage_the_lower() {
        let mut dice = SeededDice::new(7);
        for _ in 0..50 {
            let adv = dice.roll("d20+5", RollMode::Advantage).expect("valid");
            assert_eq!(adv.evaluations.len(), 2);
            assert_eq!(adv.total, adv.evaluations.iter().map(|e| e.total).max().unwrap_or_default());
            let dis = dice.roll("d20+5", RollMode::Disadvantage).expect("valid");
            assert_eq!(dis.total, dis.evaluations.iter().map(|e| e.total).min().unwrap_or_default());
        }
    }

    #[test]
    fn hidden_rolls_show_players_only_that_the_dm_rolled() {
        let roll = SeededDice::new(2).roll("1d20+2", RollMode::Advantage).expect("valid");
        let mut entry = LogEntry { who: "Thug".into(), reason: "attack on Brom".into(), roll, hidden: true };
        assert_eq!(entry.player_text(), "The DM rolled.");
        assert!(entry.full_text().starts_with("Thug rolled 1d20+2 with advantage for attack on Brom: "));
        entry.hidden = false;
        assert_eq!(entry.player_text(), entry.full_text());
    }

    #[test]
    fn bad_notation_is_a_sentence_not_a_panic() {
        let mut dice = SeededDice::new(0);
        for bad in ["", "2d", "abc", "1000d6", "d0", "2+3d0", "1d1x", "2d6+", &"1".repeat(500)] {
            let error = dice.roll(bad, RollMode::Normal).expect_err(bad);
            assert!(!error.0.is_empty(), "{bad}");
        }
    }
}
