//! The command line: `battlemap [FILE] [window options]`, `battlemap check`, `battlemap query`.
//! Documented in `docs/cli.md`; every answer is also available on the map.

mod query;

use std::io::Write;
use std::path::PathBuf;

use crate::rules::dice::{RollMode, SeededDice};
use crate::scenario::Scenario;

/// The exit code for a problem with the input (invalid scenario, unknown query, bad arguments).
pub const EXIT_INVALID: u8 = 2;

/// What the window should do, from the command line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapOptions {
    /// The scenario to open; `None` opens the built-in one.
    pub scenario: Option<PathBuf>,
    /// Save a PNG of the window here after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    pub frames: u32,
    /// Write the app's state (selection, where cells and tokens are on screen) here as JSON
    /// whenever it changes: for tests that drive the window.
    pub state_file: Option<PathBuf>,
    /// The window's size in logical pixels.
    pub window: (u32, u32),
    /// The seed of the session's dice (from the clock if not given).
    pub seed: Option<u64>,
}

/// What to do after reading the arguments.
pub enum Command {
    /// A headless command: run it, and exit with its code.
    Run(Box<dyn FnOnce() -> u8>),
    /// Open the battle map window.
    OpenMap(MapOptions),
}

const USAGE: &str = "\
battlemap: a D&D 5e battle map (DMG chapter 8 grid rules on squares and hexes)

Usage:
  battlemap [FILE] [--screenshot PATH [--frames N]] [--state-file PATH] [--window WxH] [--seed N]
      Open the battle map with a scenario (the built-in tavern brawl if no FILE).
      --screenshot PATH  render N frames (default 5), save a PNG of the window, exit
  battlemap check FILE...
      Validate scenarios; exit 0 when all are valid, 2 otherwise.
  battlemap roll NOTATION [--adv|--dis] [--seed N] [--json]
      Roll dice (2d6+3, 4d6kh3, d20, d100) with a seeded generator; the seed is printed.
  battlemap table [NAME] [--roll] [--seed N] [--json]
      List the DMG's tables, print one, or roll on it.
  battlemap mob --bonus B --ac AC --attackers N [--json]
      How many of a mob's attacks hit (DMG \"Handling Mobs\").
  battlemap query FILE QUERY
      Answer a rules question in JSON. Queries:
        tokens                     every token's id, size, side and the cells of its space
        distance A B               the range in feet between two tokens
        path ID --to X,Y [--dash]  the cheapest path to a cell, or why not
        reach ID [--dash]          every cell the token can end its move in
        los A B                    whether A has line of sight to B
        cover A B                  the cover B has against A, with every line
        cover-from X,Y B           the cover B has against an area from a point
        aoe SHAPE FEET --origin X,Y [--toward X,Y | --angle DEG] [--face] [--width FEET]
                                   [--adjust bunched|spread [--seed N]]   the cells and tokens an area covers
  battlemap --help | --version
";

fn usage_error(message: String) -> Command {
    Command::Run(Box::new(move || {
        eprintln!("battlemap: {message}\n\n{USAGE}");
        EXIT_INVALID
    }))
}

fn print_and_exit(text: &'static str) -> Command {
    Command::Run(Box::new(move || {
        print!("{text}");
        0
    }))
}

/// Reads the arguments (without the program name).
pub fn parse(args: &[String]) -> Command {
    match args.first().map(String::as_str) {
        Some("--help" | "-h" | "help") => print_and_exit(USAGE),
        Some("--version" | "-V") => print_and_exit(concat!("battlemap ", env!("CARGO_PKG_VERSION"), "\n")),
        Some("check") => {
            let files: Vec<PathBuf> = args[1..].iter().map(PathBuf::from).collect();
            if files.is_empty() {
                return usage_error("check needs at least one FILE".into());
            }
            Command::Run(Box::new(move || check(&files)))
        }
        Some("roll") => match parse_roll(&args[1..]) {
            Ok((notation, mode, seed, json)) => Command::Run(Box::new(move || roll(&notation, mode, seed, json))),
            Err(message) => usage_error(message),
        },
        Some("table") => {
            let args = args[1..].to_vec();
            Command::Run(Box::new(move || table(&args)))
        }
        Some("mob") => {
            let args = args[1..].to_vec();
            Command::Run(Box::new(move || mob(&args)))
        }
        Some("query") => match query::Query::parse(&args[1..]) {
            Ok(query) => Command::Run(Box::new(move || query.run())),
            Err(message) => usage_error(message),
        },
        _ => match parse_map_options(args) {
            Ok(options) => Command::OpenMap(options),
            Err(message) => usage_error(message),
        },
    }
}

fn parse_map_options(args: &[String]) -> Result<MapOptions, String> {
    let mut options = MapOptions { frames: 5, window: (1280, 800), ..MapOptions::default() };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--screenshot" => options.screenshot = Some(value("--screenshot")?.into()),
            "--frames" => {
                let text = value("--frames")?;
                options.frames = text
                    .parse()
                    .ok()
                    .filter(|n| (1..=100_000).contains(n))
                    .ok_or_else(|| format!("--frames takes a number of frames from 1 to 100000, not {text:?}"))?;
            }
            "--state-file" => options.state_file = Some(value("--state-file")?.into()),
            "--seed" => {
                let text = value("--seed")?;
                options.seed = Some(text.parse().map_err(|_| format!("--seed takes a whole number, not {text:?}"))?);
            }
            "--window" => {
                let text = value("--window")?;
                options.window = text
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                    .filter(|&(w, h)| (320..=8192).contains(&w) && (240..=8192).contains(&h))
                    .ok_or_else(|| format!("--window takes WIDTHxHEIGHT such as 1280x800, not {text:?}"))?;
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            file if options.scenario.is_none() => options.scenario = Some(file.into()),
            extra => return Err(format!("unexpected argument {extra:?}: give one scenario FILE")),
        }
    }
    Ok(options)
}

/// Reads `roll NOTATION [--adv|--dis] [--seed N] [--json]`.
fn parse_roll(args: &[String]) -> Result<(String, RollMode, Option<u64>, bool), String> {
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
fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// `battlemap check FILE...`: every problem of every file on stderr, a line per valid file on
/// stdout; 0 when all are valid, [`EXIT_INVALID`] otherwise.
pub fn check(files: &[PathBuf]) -> u8 {
    let mut all_valid = true;
    for file in files {
        match Scenario::load(file) {
            Ok(scenario) => {
                println!(
                    "{}: ok: {:?}, {} grid, {} by {} cells, {} tokens",
                    file.display(),
                    scenario.name,
                    scenario.grid.name(),
                    scenario.map.width(),
                    scenario.map.height(),
                    scenario.tokens.len()
                );
            }
            Err(errors) => {
                all_valid = false;
                eprintln!("{errors}");
            }
        }
    }
    let _ = std::io::stdout().flush();
    if all_valid { 0 } else { EXIT_INVALID }
}
