//! `battlemap chase FILE [--seed N] [--rounds M] [--json]`: plays the scene's chase with the
//! simple policy of `rules::chase::policy` and prints the round-by-round log. Same seed, same log.

use std::path::PathBuf;

use super::EXIT_INVALID;
use crate::rules::chase::{Chase, Chases, Event, policy};
use crate::rules::dice::SeededDice;
use crate::scenario::Scenario;

/// Rounds played when `--rounds` is not given.
pub const DEFAULT_ROUNDS: u32 = 20;

pub(super) struct ChaseCommand {
    file: PathBuf,
    seed: Option<u64>,
    rounds: u32,
    json: bool,
}

impl ChaseCommand {
    pub(super) fn parse(args: &[String]) -> Result<Self, String> {
        let (mut file, mut seed, mut rounds, mut json) = (None, None, DEFAULT_ROUNDS, false);
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--json" => json = true,
                "--seed" => {
                    let text = args.next().ok_or("--seed needs a number")?;
                    seed = Some(text.parse().map_err(|_| format!("--seed takes a whole number, not {text:?}"))?);
                }
                "--rounds" => {
                    let text = args.next().ok_or("--rounds needs a number")?;
                    rounds = text
                        .parse()
                        .ok()
                        .filter(|r| (1..=1000).contains(r))
                        .ok_or_else(|| format!("--rounds takes a whole number from 1 to 1000, not {text:?}"))?;
                }
                text if file.is_none() && !text.starts_with("--") => file = Some(PathBuf::from(text)),
                extra => return Err(format!("unexpected argument {extra:?}: chase takes one FILE")),
            }
        }
        Ok(Self { file: file.ok_or("chase needs a scenario FILE with a `chase` section")?, seed, rounds, json })
    }

    pub(super) fn run(self) -> u8 {
        let scenario = match Scenario::load(&self.file) {
            Ok(scenario) => scenario,
            Err(errors) => {
                eprintln!("{errors}");
                return EXIT_INVALID;
            }
        };
        let Some(setup) = &scenario.chase else {
            eprintln!("{}: the scenario has no `chase` section (see docs/scenario-format.md)", self.file.display());
            return EXIT_INVALID;
        };
        let seed = self.seed.unwrap_or_else(super::dice::clock_seed);
        let mut dice = SeededDice::new(seed);
        let entrants = scenario.chase_entrants(&setup.quarry, &setup.pursuers, &setup.start);
        let played = Chase::start(&setup.name, setup.rules.clone(), entrants, None, &mut dice)
            .map(Chases::new)
            .and_then(|mut chases| policy::play(&mut chases, self.rounds, &mut dice).map(|()| chases));
        let chases = match played {
            Ok(chases) => chases,
            Err(error) => {
                eprintln!("{}: {error}", self.file.display());
                return EXIT_INVALID;
            }
        };
        let outcome = if chases.is_over() {
            chases.chases.iter().filter_map(Chase::outcome).collect::<Vec<_>>().join(" ")
        } else {
            format!("After {} rounds the chase goes on.", self.rounds)
        };
        if self.json {
            let answer = serde_json::json!({
                "scenario": scenario.name,
                "seed": seed,
                "rounds": self.rounds,
                "over": chases.is_over(),
                "outcome": outcome,
                "chases": chases.chases,
            });
            println!("{}", serde_json::to_string_pretty(&answer).expect("JSON values always serialise"));
        } else {
            println!("{} (seed {seed})", setup.name);
            for (index, chase) in chases.chases.iter().enumerate() {
                if chases.chases.len() > 1 {
                    println!("\n== Chase {}: {}", index + 1, chase.name);
                }
                for event in &chase.events {
                    println!("{}", line(event));
                }
            }
            if !chases.is_over() {
                println!("\n{outcome}");
            }
        }
        0
    }
}

/// An event as one line: the round, the sentence, and the dice behind it.
pub fn line(event: &Event) -> String {
    let dice = event.roll.as_ref().map_or(String::new(), |entry| {
        let details: Vec<String> = entry.roll.evaluations.iter().map(|e| e.detail.clone()).collect();
        format!("  [{}: {}]", entry.roll.notation, details.join(" | "))
    });
    format!("R{:<2} {}{dice}", event.round, event.text)
}
