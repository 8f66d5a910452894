//! The command line, parsed by clap: `battlemap [FILE]` opens the map; `check`, `fmt`, `roll`,
//! `table`, `mob`, `chase` and `query` answer without a window. Documented in `docs/cli.md`; every answer
//! is also available on the map.

mod chase;
mod dice;
pub mod query;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::app::LaunchOptions;
use crate::app::SessionPlace;
use crate::scenario::{MAX_FILE_BYTES, MAX_MAP_SIDE, Scenario};

/// The exit code for a problem with the input (invalid scenario, unknown query, bad arguments).
pub const EXIT_INVALID: u8 = 2;

/// The exit code of `battlemap fmt --check` when a file is not in canonical form.
pub const EXIT_NOT_CANONICAL: u8 = 1;

#[derive(Parser, Debug)]
#[command(
    name = "battlemap",
    version,
    about = "A D&D 5e battle map: the DMG chapter 8 grid rules on squares and hexes",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    map: MapArgs,
}

/// Opening the map window.
#[derive(Args, Debug)]
struct MapArgs {
    /// The scenario to open (the built-in tavern brawl if not given)
    file: Option<PathBuf>,
    /// Render --frames frames, save a PNG of the window here, and exit
    #[arg(long, value_name = "PATH")]
    screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = whole::<u32>(1, 100_000))]
    frames: u32,
    /// Write the app's state as JSON here whenever it changes (for tests that drive the window)
    #[arg(long, value_name = "PATH")]
    state_file: Option<PathBuf>,
    /// The window's size in logical pixels
    #[arg(long, value_name = "WxH", default_value = "1280x800", value_parser = parse_window)]
    window: (u32, u32),
    /// Draw frames continuously, time this many after a warm-up, print the median and 95th
    /// percentile frame time as JSON, and exit
    #[arg(long, value_name = "N", value_parser = whole::<u32>(1, 100_000))]
    frame_times: Option<u32>,
    /// With --frame-times: keep dragging the token nearest the middle of the view meanwhile
    #[arg(long, requires = "frame_times")]
    drag: bool,
    /// With --frame-times: leave these parts out of the picture, to see what each costs
    #[arg(long, value_name = "PART", value_delimiter = ',', requires = "frame_times")]
    hide: Vec<crate::app::Part>,
    /// With --frame-times: also report each render pass's time on the renderer and the pixels
    /// it shaded (its queries slow the frame a little)
    #[arg(long, requires = "frame_times")]
    passes: bool,
    /// Autosave the game in progress to this file (default: NAME.session.json beside the
    /// scenario) and restore it from there on the next start
    #[arg(long, value_name = "PATH", conflicts_with = "no_autosave")]
    session: Option<PathBuf>,
    /// Neither restore nor autosave the game in progress
    #[arg(long)]
    no_autosave: bool,
    /// No fog of war: the players' view shows the whole map, not only what the party sees
    #[arg(long)]
    no_fog: bool,
    #[command(flatten)]
    seed: Seed,
}

/// The seed of a generator, parsed the same way by every command.
#[derive(Args, Debug, Clone, Copy)]
struct Seed {
    /// The dice's seed (from the clock if not given; it is printed, so the rolls replay)
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_seed)]
    seed: Option<u64>,
}

impl Seed {
    fn or_clock(self) -> u64 {
        self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
        })
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate scenarios: exit 0 when all are valid, 2 otherwise
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Rewrite scenarios in canonical form (as the app saves them), keeping their meaning
    Fmt {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Write nothing: name the files that aren't canonical and exit 1 if there are any
        #[arg(long)]
        check: bool,
        /// Rewrite read-only files too (they stay read-only)
        #[arg(long, conflicts_with = "check")]
        force: bool,
    },
    /// Roll dice in standard notation (2d6+3, 4d6kh3, d20, d100) with a seeded generator
    Roll(dice::RollArgs),
    /// List the DMG's tables, print one, or roll on it
    Table(dice::TableArgs),
    /// How many of a mob's attacks hit (DMG "Handling Mobs")
    Mob(dice::MobArgs),
    /// Play the scene's chase (DMG "Chases") with a simple policy and print its log
    Chase(chase::ChaseArgs),
    /// Answer a rules question about a scenario, in JSON
    Query(query::QueryArgs),
}

/// Runs the command line (the arguments of this process) and returns its exit code.
pub fn main() -> ExitCode {
    let started = std::time::Instant::now();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let words: Vec<String> = std::env::args().skip(1).collect();
            if error.kind() == clap::error::ErrorKind::ArgumentConflict
                && let Some(sentence) = map_option_before_command(&words)
            {
                return ExitCode::from(fail(sentence));
            }
            return clap_said(&error);
        }
    };
    let code = match cli.command {
        None => return open_map(cli.map, started),
        Some(Command::Check { files }) => check(&files),
        Some(Command::Fmt { files, check, force }) => format_files(&files, check, force),
        Some(Command::Roll(args)) => dice::roll(&args),
        Some(Command::Table(args)) => dice::table(&args),
        Some(Command::Mob(args)) => dice::mob(&args),
        Some(Command::Chase(args)) => chase::run(&args),
        Some(Command::Query(args)) => query::run(&args),
    };
    ExitCode::from(code)
}

fn open_map(args: MapArgs, started: std::time::Instant) -> ExitCode {
    let scenario = match &args.file {
        Some(path) => match Scenario::load(path) {
            Ok(scenario) => Some((scenario, path.clone())),
            Err(errors) => return ExitCode::from(fail(errors)),
        },
        None => None,
    };
    // A screenshot or a benchmark shows the scene as written and leaves no autosave behind.
    let one_shot = args.screenshot.is_some() || args.frame_times.is_some();
    let options = LaunchOptions {
        screenshot: args.screenshot,
        frames: args.frames,
        state_file: args.state_file,
        window: args.window,
        seed: args.seed.seed,
        frame_times: args.frame_times.map(|frames| crate::app::FrameBenchmark {
            frames,
            drag: args.drag,
            hide: args.hide,
            passes: args.passes,
        }),
        started: Some(started),
        session: match (args.session, args.no_autosave || one_shot) {
            (_, true) => SessionPlace::Off,
            (Some(path), false) => SessionPlace::At(path),
            (None, false) => SessionPlace::Beside,
        },
        no_fog: args.no_fog,
        state_directory: LaunchOptions::user_state_directory(),
        // A screenshot or a benchmark shows the panels where they start.
        config_directory: if one_shot { None } else { LaunchOptions::user_config_directory() },
    };
    crate::app::run(scenario, options)
}

/// Prints what clap has to say (help, a version, or why the arguments can't be read) as clap
/// would, but escaped line by line: clap quotes a bad argument raw, and an argument can hold a
/// terminal's escape sequence. Returns clap's exit code.
fn clap_said(error: &clap::Error) -> ExitCode {
    let text = error.render().to_string();
    let escaped: Vec<_> = text.split('\n').map(crate::rules::text::escaped).collect();
    let text = escaped.join("\n");
    if error.use_stderr() {
        let _ = write!(std::io::stderr().lock(), "{text}");
    } else {
        let _ = write!(std::io::stdout().lock(), "{text}");
    }
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(EXIT_INVALID))
}

/// A parser of a whole number from `low` to `high`, with one sentence for any number out of range
/// however far (clap's own says "number too large to fit in target type" past the type's limit).
pub(crate) fn whole<T>(low: i64, high: i64) -> impl Fn(&str) -> Result<T, ArgError> + Clone + Send + Sync + 'static
where
    T: TryFrom<i64> + Clone + Send + Sync + 'static,
{
    move |text: &str| {
        text.trim()
            .parse::<i64>()
            .ok()
            .filter(|n| (low..=high).contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or(ArgError::NotInRange { low, high })
    }
}

/// Why an argument on the command line can't be read (clap prints it after the argument's name).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    #[error("write WIDTHxHEIGHT such as 1280x800, from 320x240 to 8192x8192")]
    NotAWindow,
    #[error("write two whole numbers as X,Y, such as 3,4")]
    NotAPair,
    #[error("{0:?} is not a whole number")]
    NotANumber(String),
    #[error("{x},{y} is far off any map: columns and rows run from -{MAX_COORDINATE} to {MAX_COORDINATE}")]
    FarOff { x: i64, y: i64 },
    #[error("a seed is a whole number from 0 to {max}", max = u64::MAX)]
    NotASeed,
    #[error("{0:?} after @ is not a whole number")]
    NotACorner(String),
    #[error("an angle is a number of degrees from -3600 to 3600")]
    NotAnAngle,
    #[error("{0}")]
    Notation(crate::rules::dice::DiceError),
    #[error("{0:?} is not a damage type; the types are {types}", types = crate::rules::health::DamageType::names())]
    NotADamageType(String),
    #[error("write a whole number from {low} to {high}")]
    NotInRange { low: i64, high: i64 },
}

/// Reads `WIDTHxHEIGHT`, each within what a screen can be.
fn parse_window(text: &str) -> Result<(u32, u32), ArgError> {
    text.split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .filter(|&(w, h)| (320..=8192).contains(&w) && (240..=8192).contains(&h))
        .ok_or(ArgError::NotAWindow)
}

/// Why `battlemap --session x.json check T` is refused, in words: the options before the
/// command open the map window, and the command takes none of them.
fn map_option_before_command(words: &[String]) -> Option<String> {
    use clap::CommandFactory;
    let commands: Vec<String> = Cli::command().get_subcommands().map(|c| c.get_name().to_owned()).collect();
    let at = words.iter().position(|w| commands.contains(w))?;
    let option = words[..at].iter().find(|w| w.starts_with("--"))?;
    let option = option.split('=').next().unwrap_or(option);
    let option = if option.chars().any(char::is_control) { format!("{option:?}") } else { option.to_owned() };
    Some(format!(
        "{option} is an option of the map window (battlemap FILE {option} …); `{command}` doesn't take it: write \
         `battlemap {command} …` without it (see `battlemap {command} --help`)",
        command = words[at]
    ))
}

/// Reads a seed: any whole number a `u64` holds (a negative one is named as out of range, not
/// taken for a flag).
pub(crate) fn parse_seed(text: &str) -> Result<u64, ArgError> {
    text.trim().parse().map_err(|_| ArgError::NotASeed)
}

/// The furthest a cell or point on the command line may be from the map's origin, in cells: no
/// map is larger than 500 by 500.
const MAX_COORDINATE: i32 = 2 * MAX_MAP_SIDE as i32;

/// Reads `X,Y`: a cell (`x,y` on squares, `q,r` on hexes) or a grid point, near enough to a map.
fn parse_pair(text: &str) -> Result<(i32, i32), ArgError> {
    let (x, y) = text.split_once(',').ok_or(ArgError::NotAPair)?;
    let number = |n: &str| n.trim().parse::<i64>().map_err(|_| ArgError::NotANumber(n.to_owned()));
    let (x, y) = (number(x)?, number(y)?);
    let near = |n: i64| (-i64::from(MAX_COORDINATE)..=i64::from(MAX_COORDINATE)).contains(&n);
    if !(near(x) && near(y)) {
        return Err(ArgError::FarOff { x, y });
    }
    Ok((x as i32, y as i32))
}

/// Prints a line of an answer. A reader that stops early (`battlemap table | head -1`) ends the
/// output quietly: the write fails and the rest is dropped.
fn say(text: impl std::fmt::Display) {
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// Prints an answer as pretty JSON.
fn say_json(answer: &impl serde::Serialize) {
    match serde_json::to_string_pretty(answer) {
        Ok(text) => say(text),
        Err(error) => {
            fail(format!("can't write the answer as JSON: {error}"));
        }
    }
}

/// Reports a problem on stderr and gives the exit code for bad input.
fn fail(message: impl std::fmt::Display) -> u8 {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
    EXIT_INVALID
}

/// `battlemap check FILE...`: every problem of every file on stderr, a line per valid file on
/// stdout, and a warning on stderr for each picture it names that won't show (the scene plays
/// without it); 0 when all are valid, [`EXIT_INVALID`] otherwise.
fn check(files: &[PathBuf]) -> u8 {
    let mut all_valid = true;
    for file in files {
        match Scenario::load_with_text(file) {
            Ok((scenario, text)) => {
                for warning in scenario.picture_warnings(file, &text) {
                    fail(warning);
                }
                say(format_args!(
                    "{}: ok: {:?}, {} grid, {} by {} cells, {} tokens",
                    file.display(),
                    scenario.name,
                    scenario.grid.name(),
                    scenario.map.width(),
                    scenario.map.height(),
                    scenario.tokens.len()
                ));
                if let Some(chase) = &scenario.chase {
                    say(format_args!(
                        "  chase {:?}: {} quarry, {} pursuers, {}",
                        chase.name,
                        chase.quarry.len(),
                        chase.pursuers.len(),
                        chase.rules.table.name
                    ));
                }
            }
            Err(errors) => {
                all_valid = false;
                fail(errors);
            }
        }
    }
    if all_valid { 0 } else { EXIT_INVALID }
}

/// `battlemap fmt [--check] FILE...`: each valid file rewritten in canonical form
/// ([`Scenario::to_ron`], with [`crate::files::write_atomically`]) when its text differs, a line
/// per file on stdout. An invalid file is reported as `check` reports it and left untouched.
/// With `check`, nothing is written and the files that aren't canonical are named. Exit status:
/// [`EXIT_INVALID`] if a file is invalid or can't be written, else [`EXIT_NOT_CANONICAL`] if
/// `check` found one that isn't canonical, else 0.
fn format_files(files: &[PathBuf], check: bool, force: bool) -> u8 {
    let (mut invalid, mut not_canonical) = (false, false);
    for file in files {
        let name = file.display().to_string();
        if !check && let Some(device) = device_path(file) {
            invalid = true;
            fail(format_args!(
                "{name}: this names {}, not a scenario file; fmt rewrites files by their own path",
                device.display()
            ));
            continue;
        }
        let (scenario, text) = match Scenario::load_with_text(file) {
            Ok(loaded) => loaded,
            Err(errors) => {
                invalid = true;
                fail(errors);
                continue;
            }
        };
        let canonical = scenario.to_ron();
        if canonical == text {
            say(format_args!("{name} is already canonical"));
            continue;
        }
        // A guard against a fault in the writer, and against writing what `check` would refuse:
        // the new text must fit the file limit and mean exactly what the old did.
        if canonical.len() as u64 > MAX_FILE_BYTES {
            invalid = true;
            fail(format_args!(
                "{name}: the canonical text would be {} bytes, past the {MAX_FILE_BYTES} a scenario may be; the file is \
                 left as it is",
                canonical.len()
            ));
            continue;
        }
        if Scenario::from_ron(&name, &canonical).as_ref() != Ok(&scenario) {
            invalid = true;
            fail(format_args!(
                "{name}: the canonical text would not read back as the same scenario (a fault in battlemap); \
                 the file is left as it is"
            ));
            continue;
        }
        if check {
            not_canonical = true;
            say(format_args!("{name} is not canonical"));
            continue;
        }
        let meta = std::fs::metadata(file);
        if !force && meta.as_ref().is_ok_and(|m| m.permissions().readonly()) {
            invalid = true;
            fail(format_args!(
                "{name}: the file is read-only, so fmt leaves it alone (--force rewrites it, keeping it read-only)"
            ));
            continue;
        }
        let links = meta.as_ref().map_or(1, links_to);
        let written = if links > 1 {
            crate::files::write_in_place(file, &canonical)
        } else {
            crate::files::write_atomically(file, &canonical)
        };
        match written {
            Ok(()) if links > 1 => say(format_args!(
                "formatted {name} in place: it has {links} hard links, and each of them now reads the new text"
            )),
            Ok(()) => say(format_args!("formatted {name}")),
            Err(error) => {
                invalid = true;
                fail(format_args!("{name}: cannot write the file: {error}"));
            }
        }
    }
    match (invalid, not_canonical) {
        (true, _) => EXIT_INVALID,
        (false, true) => EXIT_NOT_CANONICAL,
        (false, false) => 0,
    }
}

/// How many names the file has (hard links).
#[cfg(unix)]
fn links_to(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn links_to(_: &std::fs::Metadata) -> u64 {
    1
}

/// The device or process path `file` names, directly or through symbolic links (`/dev/stdin` is
/// a link to whatever file the shell redirected): rewriting it would rewrite that file.
fn device_path(file: &std::path::Path) -> Option<PathBuf> {
    let mut path = std::path::absolute(file).ok()?;
    for _ in 0..40 {
        if path.starts_with("/dev") || path.starts_with("/proc") {
            return Some(path);
        }
        let target = std::fs::read_link(&path).ok()?;
        path = path.parent().map_or(target.clone(), |parent| parent.join(&target));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn pairs_are_bounded_before_the_rules_see_them() {
        assert_eq!(parse_pair("3,-4"), Ok((3, -4)));
        assert!(matches!(parse_pair("-2147483648,0"), Err(ArgError::FarOff { .. })));
        assert!(parse_pair("99999999999999999999,0").is_err());
        assert!(parse_pair("3").is_err());
    }
}
