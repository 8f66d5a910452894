//! `battlemap roll`, `battlemap table` and `battlemap mob`: dice, the DM's tables and the mob
//! calculator, each rolled from a seeded generator whose seed is printed so the roll replays.

use clap::Args;
use serde::Serialize;

use super::{Seed, fail, say, say_json};
use crate::rules::dice::{DiceRoll, RollMode, SeededDice};
use crate::rules::tables::{self, TableRoll};

#[derive(Args, Debug)]
pub(super) struct RollArgs {
    /// Dice notation, such as 2d6+3, 4d6kh3 or d20
    #[arg(allow_hyphen_values = true)]
    notation: String,
    /// Roll twice and keep the higher
    #[arg(long, conflicts_with = "dis")]
    adv: bool,
    /// Roll twice and keep the lower
    #[arg(long)]
    dis: bool,
    #[command(flatten)]
    seed: Seed,
    /// Answer in JSON
    #[arg(long)]
    json: bool,
}

/// A roll and the seed that replays it.
#[derive(Serialize)]
struct Seeded<T> {
    seed: u64,
    roll: T,
}

/// `battlemap roll`: rolls with a seeded generator and says the seed, so the roll replays.
pub(super) fn roll(args: &RollArgs) -> u8 {
    let mode = match (args.adv, args.dis) {
        (true, _) => RollMode::Advantage,
        (_, true) => RollMode::Disadvantage,
        _ => RollMode::Normal,
    };
    let seed = args.seed.or_clock();
    let roll: DiceRoll = match SeededDice::new(seed).roll(&args.notation, mode) {
        Ok(roll) => roll,
        Err(error) => return fail(format_args!("battlemap: {error}")),
    };
    if args.json {
        say_json(&Seeded { seed, roll });
    } else {
        let details: Vec<String> = roll.evaluations.iter().map(|e| format!("{} = {}", e.detail, e.total)).collect();
        let how = match mode {
            RollMode::Normal => "",
            RollMode::Advantage => " with advantage (higher)",
            RollMode::Disadvantage => " with disadvantage (lower)",
        };
        say(format_args!("{}{how}: {} → {} (seed {seed})", roll.notation, details.join(" | "), roll.total));
    }
    0
}

#[derive(Args, Debug)]
pub(super) struct TableArgs {
    /// A table's id (urban-chase-complications) or name ("Typical DCs"); all are listed without it
    name: Option<String>,
    /// Roll on the table (chase complications, madness)
    #[arg(long, requires = "name")]
    roll: bool,
    #[command(flatten)]
    seed: Seed,
    /// Answer in JSON
    #[arg(long)]
    json: bool,
}

/// `battlemap table [NAME] [--roll] [--seed N] [--json]`: lists the tables, prints one, or rolls
/// on it with a seeded generator.
pub(super) fn table(args: &TableArgs) -> u8 {
    let tables = match tables::all() {
        Ok(tables) => tables,
        Err(error) => return fail(error),
    };
    let Some(name) = &args.name else {
        for t in &tables {
            say(format_args!("{:<32} {}", t.id, t.name));
        }
        return 0;
    };
    let Some(table) = tables::find(&tables, name) else {
        return fail(format_args!("battlemap: no table is called {name:?}; `battlemap table` lists them"));
    };
    if args.roll {
        let seed = args.seed.or_clock();
        let roll: TableRoll = match table.roll(&mut SeededDice::new(seed)) {
            Ok(roll) => roll,
            Err(error) => return fail(format_args!("battlemap: {error}")),
        };
        if args.json {
            say_json(&Seeded { seed, roll });
        } else {
            say(format_args!(
                "{} (d{} = {}, seed {seed}): {}",
                roll.table,
                roll.die,
                roll.result,
                roll.row.join(" | ")
            ));
        }
    } else if args.json {
        say_json(table);
    } else {
        say(format_args!("{} ({})", table.name, table.source));
        say(table.columns.join(" | "));
        for row in &table.rows {
            say(row.join(" | "));
        }
    }
    0
}

#[derive(Args, Debug)]
pub(super) struct MobArgs {
    /// The attackers' attack bonus
    #[arg(long, allow_hyphen_values = true, value_parser = crate::cli::whole::<i32>(-20, 30))]
    bonus: i32,
    /// The target's Armor Class
    #[arg(long, allow_negative_numbers = true, value_parser = crate::cli::whole::<i32>(0, 50))]
    ac: i32,
    /// How many attack
    #[arg(long, allow_negative_numbers = true, value_parser = crate::cli::whole::<u32>(1, 10_000))]
    attackers: u32,
    /// Answer in JSON
    #[arg(long)]
    json: bool,
}

/// A mob's attack, by the Mob Attacks table.
#[derive(Serialize)]
struct MobAnswer {
    roll_needed: i32,
    attackers_per_hit: u32,
    hits: u32,
}

/// `battlemap mob --bonus B --ac AC --attackers N [--json]`: DMG "Handling Mobs".
pub(super) fn mob(args: &MobArgs) -> u8 {
    let tables = match tables::all() {
        Ok(tables) => tables,
        Err(error) => return fail(error),
    };
    let Some((roll_needed, attackers_per_hit, hits)) = tables::mob_hits(&tables, args.bonus, args.ac, args.attackers)
    else {
        return fail("battlemap: the Mob Attacks table is missing");
    };
    if args.json {
        say_json(&MobAnswer { roll_needed, attackers_per_hit, hits });
    } else {
        say(mob_sentence(roll_needed, attackers_per_hit, hits, args.attackers));
    }
    0
}

/// The mob's attack in words, as the Mob Attacks table reads (its columns: the d20 roll needed,
/// and the attackers needed for one to hit): `They need 14 or higher on the d20: 1 in 3 attackers
/// hits, so 2 of the 8 hit.` (the DMG's eight orcs). `attackers_per_hit` 0: none can hit.
fn mob_sentence(roll_needed: i32, attackers_per_hit: u32, hits: u32, attackers: u32) -> String {
    if attackers_per_hit == 0 {
        return format!("They need a {roll_needed} on the d20: no mob of them can hit (roll individually instead).");
    }
    let need = match roll_needed {
        ..=1 => "They hit on any roll of the d20".to_owned(),
        20 => "They need a 20 on the d20".to_owned(),
        n => format!("They need {n} or higher on the d20"),
    };
    let rate = match attackers_per_hit {
        1 => "every attacker hits".to_owned(),
        n => format!("1 in {n} attackers hits"),
    };
    let outcome = match (hits, attackers) {
        (0, 1) => "so the one attacker misses".to_owned(),
        (_, 1) => "so the one attacker hits".to_owned(),
        (0, n) => format!("so none of the {n} hits"),
        (1, n) => format!("so 1 of the {n} hits"),
        (h, n) => format!("so {h} of the {n} hit"),
    };
    format!("{need}: {rate}, {outcome}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DMG "Handling Mobs", table Mob Attacks ("d20 Roll Needed", "Attackers Needed for One to
    /// Hit"): eight orcs needing 14 make two groups of three, one hit each; a roll of 20 needs
    /// 20 attackers for one to hit.
    #[test]
    fn the_mob_sentence_reads_as_the_table() {
        assert_eq!(
            mob_sentence(14, 3, 2, 8),
            "They need 14 or higher on the d20: 1 in 3 attackers hits, so 2 of the 8 hit."
        );
        assert_eq!(
            mob_sentence(20, 20, 1, 20),
            "They need a 20 on the d20: 1 in 20 attackers hits, so 1 of the 20 hits."
        );
        assert_eq!(
            mob_sentence(20, 20, 0, 19),
            "They need a 20 on the d20: 1 in 20 attackers hits, so none of the 19 hits."
        );
        assert_eq!(
            mob_sentence(-2, 1, 3, 3),
            "They hit on any roll of the d20: every attacker hits, so 3 of the 3 hit."
        );
        assert_eq!(
            mob_sentence(19, 10, 0, 1),
            "They need 19 or higher on the d20: 1 in 10 attackers hits, so the one attacker misses."
        );
        assert!(mob_sentence(21, 0, 0, 5).contains("no mob of them can hit"));
    }
}
