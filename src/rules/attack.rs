//! Attack rolls: a hit, a miss or a critical hit, and the damage dice a hit rolls.
//!
//! PHB "Making an Attack", "Rolling 1 or 20" and "Critical Hits" (004_ebe0798b5689cc3b.txt): a
//! natural 20 hits whatever the target's AC and is a critical hit, a natural 1 misses; a critical
//! hit rolls all of the attack's damage dice twice.

use serde::Serialize;

/// What an attack roll did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Miss,
    Hit,
    Critical,
}

impl Outcome {
    /// The outcome of a d20 showing `natural` for a `total` against `ac`.
    pub fn of(natural: i32, total: i32, ac: i32) -> Self {
        match natural {
            20 => Outcome::Critical,
            1 => Outcome::Miss,
            _ if total >= ac => Outcome::Hit,
            _ => Outcome::Miss,
        }
    }

    pub fn hits(self) -> bool {
        self != Outcome::Miss
    }

    pub fn word(self) -> &'static str {
        match self {
            Outcome::Miss => "miss",
            Outcome::Hit => "hit",
            Outcome::Critical => "critical hit",
        }
    }

    /// The damage dice this outcome rolls: every die twice on a critical hit.
    pub fn damage_dice(self, notation: &str) -> String {
        if self == Outcome::Critical { critical_dice(notation) } else { notation.to_owned() }
    }
}

/// Damage dice for a critical hit: every die twice, as `2d6+3` → `4d6+3` (the modifier once).
/// Notation it can't read stays as it is.
pub fn critical_dice(notation: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in notation.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if c == 'd' || c == 'D' {
            let count: u32 = if digits.is_empty() { 1 } else { digits.parse().unwrap_or(1) };
            out.push_str(&count.saturating_mul(2).to_string());
        } else {
            out.push_str(&digits);
        }
        digits.clear();
        out.push(c);
    }
    out.push_str(&digits);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PHB "Rolling 1 or 20": "If the d20 roll for an attack is a 20, the attack hits regardless of
    /// any modifiers or the target's AC... If the d20 roll for an attack is a 1, the attack misses
    /// regardless of any modifiers or the target's AC."
    #[test]
    fn twenty_always_hits_critically_and_one_always_misses() {
        assert_eq!(Outcome::of(20, 22, 30), Outcome::Critical);
        assert_eq!(Outcome::of(1, 31, 12), Outcome::Miss);
        assert_eq!(Outcome::of(12, 15, 15), Outcome::Hit, "meeting the AC hits");
        assert_eq!(Outcome::of(11, 14, 15), Outcome::Miss);
    }

    /// PHB "Critical Hits": "roll all of the attack's damage dice twice and add them together.
    /// Then add any relevant modifiers as normal."
    #[test]
    fn a_critical_doubles_the_dice_not_the_modifier() {
        assert_eq!(critical_dice("2d6+3"), "4d6+3");
        assert_eq!(critical_dice("d8+1d4-1"), "2d8+2d4-1");
        assert_eq!(Outcome::Hit.damage_dice("1d6+2"), "1d6+2");
        assert_eq!(Outcome::Critical.damage_dice("1d6+2"), "2d6+2");
    }
}
