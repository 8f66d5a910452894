//! `battlemap roll`, `battlemap table` and `battlemap mob`: dice, the DM's tables and the mob
//! calculator, each rolled from a seeded generator whose seed is printed so the roll replays.

use super::EXIT_INVALID;
use crate::rules::dice::{RollMode, SeededDice};

/// Reads `roll NOTATION [--adv|--dis] [--seed N] [--json]`.
pub(super) fn parse_roll(args: &[String]) -> Result<(String, RollMode, Option<u64>, bool), String> {
    let (mut notation, mut mode, mut seed, mut json) = (None, RollMode::Normal, None, false);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--adv" => mode = RollMode::Advantage,
            "--dis" => mode = RollMode::Disadvantage,
            "--json" => json = true,
            "--seed" => {
                let text = args.next().ok_or("--seed needs a number")?;
                seed = Some(text.parse().map_err(|_| format!("--seed takes a whole number, not {text:?}"))?);
            }
            text if notation.is_none() => notation = Some(text.to_owned()),
            extra => return Err(format!("unexpected argument {extra:?}: roll takes one NOTATION")),
        }
    }
    Ok((notation.ok_or("roll needs dice notation, such as 2d6+3")?, mode, seed, json))
}

/// `battlemap roll`: rolls with a seeded generator and says the seed, so the roll replays.
pub fn roll(notation: &str, mode: RollMode, seed: Option<u64>, json: bool) -> u8 {
    let seed = seed.unwrap_or_else(clock_seed);
    match SeededDice::new(seed).roll(notation, mode) {
        Ok(roll) if json => {
            let answer = serde_json::json!({ "seed": seed, "roll": roll });
            println!("{}", serde_json::to_string_pretty(&answer).expect("JSON values always serialise"));
            0
        }
        Ok(roll) => {
            let details: Vec<String> = roll.evaluations.iter().map(|e| format!("{} = {}", e.detail, e.total)).collect();
            let how = match mode {
                RollMode::Normal => "",
                RollMode::Advantage => " with advantage (higher)",
                RollMode::Disadvantage => " with disadvantage (lower)",
            };
            println!("{}{how}: {} → {} (seed {seed})", roll.notation, details.join(" | "), roll.total);
            0
        }
        Err(error) => {
            eprintln!("battlemap: {error}");
            EXIT_INVALID
        }
    }
}

/// Flags and values after a subcommand: `--name value` pairs and bare flags.
fn options(
    args: &[String],
    with_values: &[&str],
) -> Result<(Vec<String>, std::collections::HashMap<String, String>), String> {
    let (mut positional, mut named) = (Vec::new(), std::collections::HashMap::new());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if with_values.contains(&arg.as_str()) {
            let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
            named.insert(arg.clone(), value.clone());
        } else if arg.starts_with("--") {
            named.insert(arg.clone(), String::new());
        } else {
            positional.push(arg.clone());
        }
    }
    Ok((positional, named))
}

fn fail(message: impl std::fmt::Display) -> u8 {
    eprintln!("battlemap: {message}");
    EXIT_INVALID
}

/// `battlemap table [NAME] [--roll] [--seed N] [--json]`: lists the tables, prints one, or rolls
/// on it with a seeded generator.
pub fn table(args: &[String]) -> u8 {
    let (names, named) = match options(args, &["--seed"]) {
        Ok(parsed) => parsed,
        Err(message) => return fail(message),
    };
    let tables = match crate::rules::tables::all() {
        Ok(tables) => tables,
        Err(message) => return fail(message),
    };
    let json = named.contains_key("--json");
    let Some(name) = names.first() else {
        for t in &tables {
            println!("{:<32} {}", t.id, t.name);
        }
        return 0;
    };
    let Some(table) = crate::rules::tables::find(&tables, name) else {
        return fail(format!("no table is called {name:?}; `battlemap table` lists them"));
    };
    if named.contains_key("--roll") {
        let seed = match named.get("--seed").map(|s| s.parse::<u64>()) {
            Some(Ok(seed)) => seed,
            Some(Err(_)) => return fail("--seed takes a whole number"),
            None => clock_seed(),
        };
        return match table.roll(&mut SeededDice::new(seed)) {
            Ok(roll) if json => {
                println!("{}", serde_json::json!({ "seed": seed, "roll": roll }));
                0
            }
            Ok(roll) => {
                println!("{} (d{} = {}, seed {seed}): {}", roll.table, roll.die, roll.result, roll.row.join(" | "));
                0
            }
            Err(error) => fail(error),
        };
    }
    if json {
        println!("{}", serde_json::to_string_pretty(table).expect("tables serialise"));
    } else {
        println!("{} ({})", table.name, table.source);
        println!("{}", table.columns.join(" | "));
        for row in &table.rows {
            println!("{}", row.join(" | "));
        }
    }
    0
}

/// `battlemap mob --bonus B --ac AC --attackers N [--json]`: DMG "Handling Mobs".
pub fn mob(args: &[String]) -> u8 {
    let (_, named) = match options(args, &["--bonus", "--ac", "--attackers"]) {
        Ok(parsed) => parsed,
        Err(message) => return fail(message),
    };
    let number = |key: &str| named.get(key).and_then(|v| v.parse::<i32>().ok());
    let (Some(bonus), Some(ac), Some(attackers)) = (number("--bonus"), number("--ac"), number("--attackers")) else {
        return fail("mob needs --bonus B --ac AC --attackers N (whole numbers)");
    };
    let Ok(attackers) = u32::try_from(attackers) else { return fail("--attackers can't be negative") };
    let tables = match crate::rules::tables::all() {
        Ok(tables) => tables,
        Err(message) => return fail(message),
    };
    let Some((needed, per_hit, hits)) = crate::rules::tables::mob_hits(&tables, bonus, ac, attackers) else {
        return fail("the Mob Attacks table is missing");
    };
    if named.contains_key("--json") {
        println!("{}", serde_json::json!({ "roll_needed": needed, "attackers_per_hit": per_hit, "hits": hits }));
    } else if per_hit == 0 {
        println!("They need a {needed} on the d20: no mob of them can hit (roll individually instead).");
    } else {
        println!(
            "They need {needed} or higher: one hit for every {per_hit} attackers, so {hits} hits from {attackers}."
        );
    }
    0
}

/// A seed from the clock, for rolls asked for without one (it is printed with the roll).
pub(super) fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
