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
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(-20..=30))]
    bonus: i32,
    /// The target's Armor Class
    #[arg(long, value_parser = clap::value_parser!(i32).range(0..=50))]
    ac: i32,
    /// How many attack
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
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
    } else if attackers_per_hit == 0 {
        say(format_args!("They need a {roll_needed} on the d20: no mob of them can hit (roll individually instead)."));
    } else {
        say(format_args!(
            "They need {roll_needed} or higher: one hit for every {attackers_per_hit} attackers, so {hits} hits from {}.",
            args.attackers
        ));
    }
    0
}
