//! The roll log in words: each [`LogEntry`] as the DM reads it and as the players do, and each
//! [`RollReason`] as the phrase after "for".

use crate::rules::dice::RollMode;
use crate::rules::effects::EndReason;
use crate::rules::log::{AttackOccasion, ChaseTestFor, LogEntry, RollReason};

/// The line as the DM sees it: who rolled what, with which mode, for what, every die, the total.
pub fn log_line(entry: &LogEntry) -> String {
    let roll = &entry.roll;
    if !entry.rolled() {
        return format!("{}: {}", entry.who, roll_reason(&entry.reason));
    }
    let details: Vec<String> = roll.evaluations.iter().map(|e| format!("{} = {}", e.detail, e.total)).collect();
    let mode = match roll.mode {
        RollMode::Normal => "",
        RollMode::Advantage => " with advantage",
        RollMode::Disadvantage => " with disadvantage",
    };
    let reason = roll_reason(&entry.reason);
    let reason = if reason.is_empty() { reason } else { format!(" for {reason}") };
    // One throw is its total; of two (advantage, disadvantage) the line says which is kept.
    let kept = if details.len() > 1 { format!(", keeps {}", roll.total) } else { String::new() };
    format!("{} rolled {}{mode}{reason}: {}{kept}", entry.who, roll.notation, details.join(" | "))
}

/// The line as the players see it: a roll behind the DM's screen shows only that it was made.
pub fn players_log_line(entry: &LogEntry) -> String {
    if entry.hidden { "The DM rolled.".to_owned() } else { log_line(entry) }
}

/// An attack's kind, as in "opportunity attack".
pub fn attack_occasion(how: AttackOccasion) -> &'static str {
    match how {
        AttackOccasion::Attack => "attack",
        AttackOccasion::Opportunity => "opportunity attack",
        AttackOccasion::Readied => "readied attack",
    }
}

/// Why an effect ended, in words.
pub fn end_reason(reason: &EndReason) -> &'static str {
    match reason {
        EndReason::TimeUp => "its time is up",
        EndReason::Saved => "the saving throw succeeded",
        EndReason::ConcentrationEnded => "its source stopped concentrating",
        EndReason::GrapplerIncapacitated => "the grappler is incapacitated",
        EndReason::OutOfReach => "out of the grappler's reach",
        EndReason::Damaged => "damage ended it",
        EndReason::Removed => "the DM ended it",
        EndReason::Cured => "cured",
        EndReason::Died => "the creature died",
    }
}

/// What a roll was for, in words (empty for a dice-panel roll the DM gave no reason).
pub fn roll_reason(reason: &RollReason) -> String {
    match reason {
        RollReason::Typed { what, inspired: false } => what.clone(),
        RollReason::Typed { what, inspired: true } if what.is_empty() => "inspiration".to_owned(),
        RollReason::Typed { what, inspired: true } => format!("{what}, with inspiration"),
        RollReason::Initiative => "initiative".to_owned(),
        RollReason::Attack { attack, how, target, outcome, sources } => {
            let with = attack.as_ref().map_or_else(String::new, |a| format!("{a} "));
            let what = format!("{with}{} on {target}: {}", attack_occasion(*how), outcome.word());
            if sources.is_empty() { what } else { format!("{what}; {}", sources.describe()) }
        }
        RollReason::Damage { of, to, critical, dealt } => {
            let to = to.as_ref().map_or_else(String::new, |to| format!(" to {to}"));
            let critical = if *critical { ", critical hit" } else { "" };
            let dealt = dealt.map_or_else(String::new, |(amount, kind)| format!(": {amount} {kind}"));
            format!("{of} damage{to}{critical}{dealt}")
        }
        RollReason::AreaDamage { boiling_oil: true, kind } => format!("boiling oil ({kind})"),
        RollReason::AreaDamage { boiling_oil: false, kind } => format!("area damage ({kind})"),
        RollReason::Save { ability, dc, success } => {
            format!("{} save DC {dc}: {}", ability.name(), if *success { "saves" } else { "fails" })
        }
        RollReason::EffectSave { effect, ability, dc, success } => {
            format!("{} save DC {dc} against {effect}: {}", ability.name(), if *success { "saves" } else { "fails" })
        }
        RollReason::EffectBegan { effect, waiting: false } => format!("{effect} begins"),
        RollReason::EffectBegan { effect, waiting: true } => {
            format!("{effect} waits: a more potent {effect} is in force (they don't add)")
        }
        RollReason::EffectEnded { effect, reason } => format!("{effect} ends: {}", end_reason(reason)),
        RollReason::EffectWoke { effect } => format!("damage wakes it from {effect}, which lasts"),
        RollReason::EffectImmune { effect, because } => {
            format!("{effect}: no effect, {} creatures are immune", because.name())
        }
        RollReason::EffectSaveFailed { effect, ability, dc, because } => {
            format!("{} save DC {dc} against {effect}: fails automatically ({})", ability.name(), because.name())
        }
        RollReason::Concentration { dc, kept } => {
            format!("Constitution save DC {dc} to keep concentrating: {}", if *kept { "keeps it" } else { "loses it" })
        }
        RollReason::DeathSave { result } => format!("death saving throw: {}", result.map_or("", |r| r.word())),
        RollReason::Hide { hidden } => {
            format!("Dexterity (Stealth) to hide: {}", if *hidden { "hidden" } else { "noticed" })
        }
        RollReason::Search { found } => format!("Wisdom (Perception) to search: {found} found"),
        RollReason::Table { name } => name.clone(),
        RollReason::ChaseTest { purpose, dc, label } => {
            let purpose = match purpose {
                ChaseTestFor::Complication => "complication",
                ChaseTestFor::BreakingFree => "breaking free of the net",
                ChaseTestFor::ExtraDash => "Dash beyond the free ones",
            };
            format!("{purpose}: DC {dc} {label}")
        }
        RollReason::Escape => "escape: Dexterity (Stealth)".to_owned(),
        RollReason::FallDistance => "fall distance (×5 ft)".to_owned(),
        RollReason::FallingDamage => "falling damage".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::attack::Outcome;
    use crate::rules::dice::SeededDice;
    use crate::rules::health::DamageType;

    #[test]
    fn hidden_rolls_show_players_only_that_the_dm_rolled() {
        let roll = SeededDice::new(2).roll("1d20+2", RollMode::Advantage).expect("valid");
        let reason = RollReason::Attack {
            attack: Some("Spear".into()),
            how: AttackOccasion::Opportunity,
            target: "Brom".into(),
            outcome: Outcome::Hit,
            sources: Default::default(),
        };
        let mut entry = LogEntry::new("Thug", reason, roll, true);
        assert_eq!(players_log_line(&entry), "The DM rolled.");
        let line = log_line(&entry);
        assert!(
            line.starts_with("Thug rolled 1d20+2 with advantage for Spear opportunity attack on Brom: hit: "),
            "{line}"
        );
        entry.hidden = false;
        assert_eq!(players_log_line(&entry), line);
    }

    #[test]
    fn a_critical_hits_damage_names_its_target_and_what_it_dealt() {
        let reason = RollReason::Damage {
            of: "Ram".into(),
            to: Some("Gate".into()),
            critical: true,
            dealt: Some((0, DamageType::Bludgeoning)),
        };
        assert_eq!(roll_reason(&reason), "Ram damage to Gate, critical hit: 0 bludgeoning");
        let typed = RollReason::Typed { what: String::new(), inspired: false };
        let roll = SeededDice::new(1).roll("1d4", RollMode::Normal).expect("valid");
        assert!(!log_line(&LogEntry::new("The DM", typed, roll, false)).contains(" for "));
    }
}
