//! The command line: `battlemap [FILE] [window options]`, `battlemap check`, `battlemap query`.
//! Documented in `docs/cli.md`; every answer is also available on the map.

mod chase;
mod dice;
mod query;

use std::io::Write;
use std::path::PathBuf;

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
  battlemap chase FILE [--seed N] [--rounds M] [--json]
      Play the scene's chase (DMG \"Chases\") with a simple policy and print its log.
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
        Some("roll") => match dice::parse_roll(&args[1..]) {
            Ok((notation, mode, seed, json)) => Command::Run(Box::new(move || dice::roll(&notation, mode, seed, json))),
            Err(message) => usage_error(message),
        },
        Some("table") => {
            let args = args[1..].to_vec();
            Command::Run(Box::new(move || dice::table(&args)))
        }
        Some("mob") => {
            let args = args[1..].to_vec();
            Command::Run(Box::new(move || dice::mob(&args)))
        }
        Some("chase") => match chase::ChaseCommand::parse(&args[1..]) {
            Ok(command) => Command::Run(Box::new(move || command.run())),
            Err(message) => usage_error(message),
        },
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
                if let Some(chase) = &scenario.chase {
                    println!(
                        "  chase {:?}: {} quarry, {} pursuers, {}",
                        chase.name,
                        chase.quarry.len(),
                        chase.pursuers.len(),
                        chase.rules.table.name
                    );
                }
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
