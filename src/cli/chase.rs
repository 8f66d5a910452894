//! `battlemap chase FILE [--seed N] [--rounds M] [--json]`: plays the scene's chase with the
//! simple policy of `rules::chase::policy` and prints the round-by-round log. Same seed, same log.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::{Seed, fail, say, say_json};
use crate::rules::chase::{Chase, Chases, Event, policy};
use crate::rules::dice::SeededDice;
use crate::scenario::Scenario;

#[derive(Args, Debug)]
pub(super) struct ChaseArgs {
    /// A scenario with a `chase` section
    file: PathBuf,
    #[command(flatten)]
    seed: Seed,
    /// Stop after this many rounds of every chase
    #[arg(long, value_name = "M", default_value_t = 20, allow_negative_numbers = true,
          value_parser = crate::cli::whole::<u32>(1, 1000))]
    rounds: u32,
    /// Answer in JSON
    #[arg(long)]
    json: bool,
}

/// The whole chase, for `--json`: each chase with its events as data (`kind`, tagged by
/// `event`), and each chase's log in words.
#[derive(Serialize)]
struct ChaseAnswer<'a> {
    scenario: &'a str,
    seed: u64,
    rounds: u32,
    over: bool,
    outcome: String,
    chases: &'a [Chase],
    logs: Vec<Vec<String>>,
}

pub(super) fn run(args: &ChaseArgs) -> u8 {
    let scenario = match Scenario::load(&args.file) {
        Ok(scenario) => scenario,
        Err(errors) => return fail(errors),
    };
    let Some(setup) = &scenario.chase else {
        return fail(format_args!(
            "{}: the scenario has no `chase` section (see docs/scenario-format.md)",
            args.file.display()
        ));
    };
    let seed = args.seed.or_clock();
    let mut dice = SeededDice::new(seed);
    let entrants = scenario.chase_entrants(&setup.quarry, &setup.pursuers, &setup.start);
    let played = Chase::start(&setup.name, setup.rules.clone(), entrants, None, &mut dice)
        .map(Chases::new)
        .and_then(|mut chases| policy::play(&mut chases, args.rounds, &mut dice).map(|()| chases));
    let chases = match played {
        Ok(chases) => chases,
        Err(error) => return fail(format_args!("{}: {error}", args.file.display())),
    };
    let outcome = if chases.is_over() {
        chases.chases.iter().filter_map(Chase::outcome).collect::<Vec<_>>().join(" ")
    } else {
        format!("After {} rounds the chase goes on.", args.rounds)
    };
    if args.json {
        say_json(&ChaseAnswer {
            scenario: &scenario.name,
            seed,
            rounds: args.rounds,
            over: chases.is_over(),
            outcome,
            chases: &chases.chases,
            logs: chases.chases.iter().map(|c| c.events.iter().map(|e| line(c, e)).collect()).collect(),
        });
    } else {
        say(format_args!("{} (seed {seed})", setup.name));
        for (index, chase) in chases.chases.iter().enumerate() {
            if chases.chases.len() > 1 {
                say(format_args!("\n== Chase {}: {}", index + 1, chase.name));
            }
            for event in &chase.events {
                say(line(chase, event));
            }
        }
        if !chases.is_over() {
            say(format_args!("\n{outcome}"));
        }
    }
    0
}

/// An event as one line: the round, the sentence, and the dice behind it.
fn line(chase: &Chase, event: &Event) -> String {
    let dice = event.roll.as_ref().map_or(String::new(), |entry| {
        let details: Vec<String> = entry.roll.evaluations.iter().map(|e| e.detail.clone()).collect();
        format!("  [{}: {}]", entry.roll.notation, details.join(" | "))
    });
    format!("R{:<2} {}{dice}", event.round, chase.describe(event))
}
