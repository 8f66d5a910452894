//! The roll log: who rolled what and why, every die, and whether the players see it. Why a roll
//! was made is data ([`RollReason`]), told in words by `ui::log::roll_reason`.

use serde::{Deserialize, Serialize};

use super::advantage::Sources;
use super::attack::Outcome;
use super::creature::Ability;
use super::dice::DiceRoll;
use super::health::{DamageType, DeathSave};

/// One line of the roll log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    pub who: String,
    /// Why it was rolled; a session saved before reasons were data reads its words back as
    /// [`RollReason::Typed`].
    #[serde(deserialize_with = "reason_then_or_now")]
    pub reason: RollReason,
    pub roll: DiceRoll,
    /// Rolled behind the DM's screen: players see only that the DM rolled.
    pub hidden: bool,
}

/// The most rolls a game may have made: far past an evening's, or a campaign's (a roll is about
/// 200 bytes written). A log read back with more is refused as it is read.
pub const MAX_ROLLS: usize = 300_000;

/// Every roll of a session, in order, with the seed that replays them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollLog {
    pub seed: u64,
    #[serde(deserialize_with = "super::bounded::at_most::<_, _, MAX_ROLLS>")]
    pub entries: Vec<LogEntry>,
}

/// How an attack was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackOccasion {
    /// With the Attack action, a siege weapon's, or in a chase.
    Attack,
    /// As a reaction to a creature leaving the reach (PHB "Opportunity Attacks").
    Opportunity,
    /// The reaction a Ready action held (PHB "Ready").
    Readied,
}

/// What a chase's check or saving throw is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChaseTestFor {
    /// To avoid a complication (DMG "Chase Complications").
    Complication,
    /// To break free of a net or a grab.
    BreakingFree,
    /// A Constitution check to Dash beyond the free ones (DMG "Dashing").
    ExtraDash,
}

/// Why a roll was made: the reason the log gives for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "for", rename_all = "snake_case")]
pub enum RollReason {
    /// A roll from the dice panel, with what the DM typed it was for (maybe nothing), and whether
    /// inspiration gave it advantage.
    Typed {
        what: String,
        inspired: bool,
    },
    Initiative,
    /// An attack roll: with which attack (an outside attacker in a chase names none), how, on
    /// whom, what it did, and what gave it advantage or disadvantage.
    Attack {
        attack: Option<String>,
        how: AttackOccasion,
        target: String,
        outcome: Outcome,
        sources: Sources,
    },
    /// A damage roll: of what (an attack, or a type of damage), to whom, whether a critical hit,
    /// and what it dealt after the target's defenses, of which type.
    Damage {
        of: String,
        to: Option<String>,
        critical: bool,
        dealt: Option<(i32, DamageType)>,
    },
    /// The damage of an area: the DM's template, or a cauldron's boiling oil.
    AreaDamage {
        boiling_oil: bool,
        kind: DamageType,
    },
    Save {
        ability: Ability,
        dc: i32,
        success: bool,
    },
    /// A repeated save against a lasting effect (`rules::effects`), or a save at a disease's
    /// dawn.
    EffectSave {
        effect: String,
        ability: Ability,
        dc: i32,
        success: bool,
    },
    /// Not a roll: a lasting effect began (or waits behind a more potent one of its name), or
    /// ended, and why. Its entry throws no dice ([`LogEntry::event`]).
    EffectBegan {
        effect: String,
        waiting: bool,
    },
    EffectEnded {
        effect: String,
        reason: super::effects::EndReason,
    },
    /// Not a roll: damage woke the creature from the effect's sleep; the rest of it lasts.
    EffectWoke {
        effect: String,
    },
    /// Not a roll: the creature is immune (a petrified creature to poison and disease).
    EffectImmune {
        effect: String,
        because: super::conditions::Condition,
    },
    /// Not a roll: a saving throw against an effect fails without a roll (PHB appendix A:
    /// paralyzed, petrified, stunned and unconscious creatures fail Strength and Dexterity saves).
    EffectSaveFailed {
        effect: String,
        ability: Ability,
        dc: i32,
        because: super::conditions::Condition,
    },
    /// A Constitution save to keep concentrating after damage (PHB "Concentration").
    Concentration {
        dc: i32,
        kept: bool,
    },
    /// A death saving throw and its result (PHB "Death Saving Throws").
    DeathSave {
        result: Option<DeathSave>,
    },
    /// Dexterity (Stealth) to hide (PHB "Hide").
    Hide {
        hidden: bool,
    },
    /// Wisdom (Perception) to search, and how many hidden creatures it found (PHB "Search").
    Search {
        found: usize,
    },
    /// A roll on a table, by its name.
    Table {
        name: String,
    },
    /// A chase's check or saving throw (`label`, such as "Dexterity (Acrobatics) check").
    ChaseTest {
        purpose: ChaseTestFor,
        dc: i32,
        label: String,
    },
    /// A quarry's Dexterity (Stealth) to escape (DMG "Escaping").
    Escape,
    /// How far a creature falls, in 5-ft steps, and then the falling damage (PHB "Falling").
    FallDistance,
    FallingDamage,
}

/// The reason as this version writes it, or the words an older one wrote.
#[derive(Deserialize)]
#[serde(untagged)]
enum StoredReason {
    Now(RollReason),
    Then(String),
}

fn reason_then_or_now<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<RollReason, D::Error> {
    Ok(match StoredReason::deserialize(deserializer)? {
        StoredReason::Now(reason) => reason,
        StoredReason::Then(what) => RollReason::Typed { what, inspired: false },
    })
}

impl LogEntry {
    pub fn new(who: &str, reason: RollReason, roll: DiceRoll, hidden: bool) -> Self {
        Self { who: who.to_owned(), reason, roll, hidden }
    }

    /// A line of the log that throws no dice: what happened to `who`'s effects.
    pub fn event(who: &str, reason: RollReason, hidden: bool) -> Self {
        let roll = DiceRoll { notation: String::new(), mode: Default::default(), evaluations: Vec::new(), total: 0 };
        Self::new(who, reason, roll, hidden)
    }

    /// Whether this line threw dice (not an [`LogEntry::event`]).
    pub fn rolled(&self) -> bool {
        !self.roll.evaluations.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{RollMode, SeededDice};

    #[test]
    fn a_log_reads_back_its_reasons_and_an_older_log_its_words() {
        let roll = SeededDice::new(2).roll("1d20+2", RollMode::Advantage).expect("valid");
        let entry =
            LogEntry::new("Thug", RollReason::Save { ability: Ability::Dex, dc: 13, success: true }, roll, false);
        let log = RollLog { seed: 2, entries: vec![entry] };
        let text = ron::to_string(&log).expect("writes");
        assert_eq!(ron::from_str::<RollLog>(&text).expect("reads"), log);
        let json = serde_json::to_string(&log).expect("writes");
        assert_eq!(serde_json::from_str::<RollLog>(&json).expect("reads"), log);
        let older = text.replace(&ron::to_string(&log.entries[0].reason).expect("writes"), "\"initiative\"");
        let read = ron::from_str::<RollLog>(&older).expect("an older log reads");
        assert_eq!(read.entries[0].reason, RollReason::Typed { what: "initiative".into(), inspired: false });
    }
}
