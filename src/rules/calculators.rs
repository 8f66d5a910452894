//! The DM's calculators beside the tables: improvised damage by severity and level, the
//! automatic-success variant, and travel at special speeds (DMG chapter 8,
//! 002_ce573f1e51986339.txt). Mob attacks and the targets-in-an-area estimate live with their
//! tables (`tables.rs`, `area.rs`).

use serde::Serialize;

use super::tables::{Table, find};

/// How bad an improvised hazard is (DMG table Damage Severity and Level).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Severity {
    Setback,
    Dangerous,
    Deadly,
}

impl Severity {
    pub const ALL: [Severity; 3] = [Severity::Setback, Severity::Dangerous, Severity::Deadly];

    pub fn name(self) -> &'static str {
        match self {
            Severity::Setback => "Setback",
            Severity::Dangerous => "Dangerous",
            Severity::Deadly => "Deadly",
        }
    }
}

/// The damage dice for a hazard of `severity` against characters of `level`, read from the
/// Damage Severity and Level table (1st–4th: 1d10, 2d10, 4d10 ... 17th–20th: 10d10, 18d10, 24d10).
pub fn improvised_damage(tables: &[Table], level: u32, severity: Severity) -> Option<String> {
    let table = find(tables, "damage-severity-and-level")?;
    let column = 1 + Severity::ALL.iter().position(|s| *s == severity)?;
    table
        .rows
        .iter()
        .find(|row| {
            let digits: Vec<u32> = row[0].split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
            matches!(digits.as_slice(), [low, high] if (*low..=*high).contains(&level))
        })
        .map(|row| row[column].clone())
}

/// DMG "Variant: Automatic Success": a character succeeds without rolling on an ability check
/// whose DC is at most the ability score minus 5 (or at most the score itself, with the
/// proficiency option, when the character is proficient). Not for contests, saves or attacks.
pub fn automatic_success(dc: i32, ability_score: i32, proficient_option: bool) -> bool {
    if proficient_option { dc <= ability_score } else { dc <= ability_score - 5 }
}

/// Travel at a speed that doesn't tire (DMG "Special Travel Pace"): slow, normal and fast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TravelRates {
    /// Feet in 1 minute (speed × 10), rounded down.
    pub feet_per_minute: [u32; 3],
    /// Miles in 1 hour (speed ÷ 10), rounded to the nearest mile.
    pub miles_per_hour: [u32; 3],
    /// Miles in a day of `hours`: the hourly rate times the hours (the DMG's phantom steed covers
    /// 7 × 8 = 56 miles at a slow pace).
    pub miles_per_day: [u32; 3],
}

/// The rates for `speed` feet over `hours` of travel: normal, fast (one-third more) and slow
/// (two-thirds), in the order slow, normal, fast. The DMG's phantom steed (100 ft) covers 666,
/// 1,000 or 1,333 feet a minute and 7, 10 or 13 miles an hour.
pub fn special_travel(speed: u32, hours: u32) -> TravelRates {
    // Thirds of the normal rate: slow 2/3, normal 3/3, fast 4/3.
    let thirds = [2u64, 3, 4];
    let speed = u64::from(speed);
    let feet = thirds.map(|t| (speed * 10 * t / 3) as u32);
    let round = |numerator: u64, denominator: u64| ((2 * numerator + denominator) / (2 * denominator)) as u32;
    let hour = thirds.map(|t| round(speed * t, 30));
    let day = hour.map(|miles| miles.saturating_mul(hours));
    TravelRates { feet_per_minute: feet, miles_per_hour: hour, miles_per_day: day }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tables::all;

    #[test]
    fn improvised_damage_follows_the_severity_table() {
        let tables = all().expect("tables");
        assert_eq!(improvised_damage(&tables, 1, Severity::Setback).as_deref(), Some("1d10"));
        assert_eq!(improvised_damage(&tables, 7, Severity::Deadly).as_deref(), Some("10d10"));
        assert_eq!(improvised_damage(&tables, 16, Severity::Dangerous).as_deref(), Some("10d10"));
        assert_eq!(improvised_damage(&tables, 20, Severity::Deadly).as_deref(), Some("24d10"));
        assert_eq!(improvised_damage(&tables, 21, Severity::Deadly), None);
    }

    /// DMG: a fighter with Strength 20 kicks in a DC 15 door; with Strength 10 she must roll.
    #[test]
    fn the_fighter_batters_down_the_door() {
        assert!(automatic_success(15, 20, false));
        assert!(!automatic_success(15, 10, false));
        assert!(!automatic_success(16, 20, false));
        assert!(automatic_success(18, 20, true), "with the proficiency option");
    }

    /// DMG: wind walk (300 ft): 2,000, 3,000 or 4,000 ft a minute; 20, 30 or 40 miles an hour;
    /// 160, 240 or 320 miles in 8 hours. Phantom steed (100 ft): 666, 1,000 or 1,333 ft a
    /// minute; 7, 10 or 13 miles an hour.
    #[test]
    fn the_dmg_special_travel_examples() {
        let wind = special_travel(300, 8);
        assert_eq!(wind.feet_per_minute, [2000, 3000, 4000]);
        assert_eq!(wind.miles_per_hour, [20, 30, 40]);
        assert_eq!(wind.miles_per_day, [160, 240, 320]);
        let steed = special_travel(100, 8);
        assert_eq!(steed.feet_per_minute, [666, 1000, 1333]);
        assert_eq!(steed.miles_per_hour, [7, 10, 13]);
        assert_eq!(steed.miles_per_day, [56, 80, 104], "the hourly rate times 8 hours");
    }
}
