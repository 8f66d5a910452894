//! A fuzz-style test: the sample scenes mutated (bytes, lines, numbers, extreme values) for a
//! bounded number of inputs, each run through the validator and, when valid, through every query
//! and a few rounds of its chase. No input may panic; every refusal names a position; a scene
//! the validator accepts never fails later.
//!
//! `BATTLEMAP_FUZZ_INPUTS=N cargo test --lib fuzz` runs N inputs (400 by default);
//! `docs/performance.md` records the longer runs.

use std::panic::{AssertUnwindSafe, catch_unwind};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::*;
use crate::rules::chase::{Chase, Chases, policy};
use crate::rules::dice::SeededDice;

const EXTREMES: [&str; 12] = [
    "2147483647",
    "-2147483648",
    "4294967295",
    "99999999999",
    "-1",
    "0",
    "255",
    "65536",
    "1e308",
    "NaN",
    "\"\\u{7}\"",
    "9223372036854775807",
];

/// Fields added since the first fuzzing pass, whose numbers are mutated more often.
const NEWER_FIELDS: [&str; 6] = ["pours_on", "effects", "siege", "elevation", "dc", "rounds"];

/// One mutation of `text`, chosen by `rng`.
fn mutate(text: &str, rng: &mut StdRng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let lines: Vec<&str> = text.lines().collect();
    match rng.random_range(0..12) {
        // A number on a line with one of the newer fields replaced by an extreme value.
        10 | 11 => {
            let mut line_start = 0;
            let mut spans = Vec::new();
            for line in text.split_inclusive('\n') {
                if NEWER_FIELDS.iter().any(|field| line.contains(field)) {
                    spans.extend(number_spans(line).into_iter().map(|(a, b)| (line_start + a, line_start + b)));
                }
                line_start += line.len();
            }
            if spans.is_empty() {
                return text.to_owned();
            }
            let (start, end) = spans[rng.random_range(0..spans.len())];
            let value = EXTREMES[rng.random_range(0..EXTREMES.len())];
            format!("{}{value}{}", &text[..start], &text[end..])
        }
        // A character replaced by a printable one, or by a control character.
        0 => {
            let at = rng.random_range(0..chars.len());
            chars[at] = if rng.random_bool(0.8) {
                char::from(rng.random_range(0x20u8..0x7f))
            } else {
                char::from(rng.random_range(0u8..0x20))
            };
            chars.into_iter().collect()
        }
        // A run of characters deleted.
        1 => {
            let at = rng.random_range(0..chars.len());
            let len = rng.random_range(1..8).min(chars.len() - at);
            chars.drain(at..at + len);
            chars.into_iter().collect()
        }
        // A line deleted, or repeated.
        2 | 3 => {
            let at = rng.random_range(0..lines.len());
            let mut out: Vec<&str> = lines.clone();
            if rng.random_bool(0.5) {
                out.remove(at);
            } else {
                out.insert(at, lines[at]);
            }
            out.join("\n")
        }
        // A number replaced by an extreme value, or moved a little.
        4..=8 => {
            let numbers: Vec<(usize, usize)> = number_spans(text);
            if numbers.is_empty() {
                return text.to_owned();
            }
            let (start, end) = numbers[rng.random_range(0..numbers.len())];
            let value = if rng.random_bool(0.4) {
                EXTREMES[rng.random_range(0..EXTREMES.len())].to_owned()
            } else {
                let old: i64 = text[start..end].parse().unwrap_or(0);
                old.saturating_add(rng.random_range(-6..7)).to_string()
            };
            format!("{}{value}{}", &text[..start], &text[end..])
        }
        // Two lines swapped.
        _ => {
            let (a, b) = (rng.random_range(0..lines.len()), rng.random_range(0..lines.len()));
            let mut out = lines.clone();
            out.swap(a, b);
            out.join("\n")
        }
    }
}

/// The byte spans of the whole numbers in `text`.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = if i > 0 && bytes[i - 1] == b'-' { i - 1 } else { i };
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// Every query of the command line on a valid scenario, with arguments drawn from `rng` and
/// written as on the command line; then a few rounds of its chase. Errors the queries give for
/// their arguments are fine (they are refusals with a sentence); a chase that fails on a valid
/// scene is not, nor a siege weapon the `siege` query can't describe.
fn ask_everything(scenario: &Scenario, rng: &mut StdRng) -> Result<(), Box<dyn std::error::Error>> {
    let ids: Vec<String> = scenario.tokens.iter().map(|t| t.id.clone()).collect();
    let (w, h) = (scenario.map.width() as i32, scenario.map.height() as i32);
    let pick = |rng: &mut StdRng| ids.get(rng.random_range(0..ids.len().max(1))).cloned().unwrap_or_default();
    let (a, b) = (pick(rng), pick(rng));
    let cell = |rng: &mut StdRng| (rng.random_range(-3..w + 3), rng.random_range(-3..h + 3));
    let point = |rng: &mut StdRng| {
        let (x, y) = (rng.random_range(-2..w + 2), rng.random_range(-2..h + 2));
        match rng.random_bool(0.5).then(|| rng.random_range(0..7)) {
            Some(corner) => format!("{x},{y}@{corner}"),
            None => format!("{x},{y}"),
        }
    };
    let to = cell(rng);
    let to_text = format!("{},{}", to.0, to.1);
    // A refusal of the arguments is fine; dice of the scene that can't be rolled or totalled are
    // not (`check` refuses those).
    let ask_all = |questions: Vec<Vec<String>>| -> Result<(), String> {
        for words in questions {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            if let Err(error) = ask(scenario, &words)
                && let text = error.to_string()
                && (text.contains("can't total") || text.contains("can't roll"))
            {
                return Err(format!("{}: {text}", words.join(" ")));
            }
        }
        Ok(())
    };
    let owned = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<String>>();
    let mut questions = vec![
        owned(&["tokens"]),
        owned(&["distance", &a, &b]),
        owned(&["path", &a, "--to", &to_text]),
        owned(&["path", &a, "--to", &to_text, "--dash"]),
        owned(&["reach", &a, "--dash"]),
        owned(&["los", &a, &b]),
        owned(&["cover", &a, &b]),
        owned(&["cover-from", &point(rng), &b]),
        owned(&["flanking", &b]),
        owned(&["arc", &a, &b]),
        owned(&["arc", &a, &to_text]),
        owned(&["attack", &a, &b, "--roll", "--seed", &rng.random::<u64>().to_string()]),
    ];
    for shape in ["sphere", "cube", "cone", "line"] {
        let feet = (5 * rng.random_range(1..9)).to_string();
        let mut words = owned(&["aoe", shape, &feet, "--origin", &point(rng), "--adjust", "spread", "--seed", "1"]);
        if rng.random_bool(0.5) {
            words.extend(owned(&["--toward", &point(rng)]));
        } else {
            words.extend(owned(&["--angle", &rng.random_range(-720..720).to_string()]));
        }
        if rng.random_bool(0.5) {
            words.push("--face".to_owned());
        }
        questions.push(words);
    }
    let mut provokes = owned(&["provokes", &a]);
    if rng.random_bool(0.2) {
        provokes.push("--disengage".to_owned());
    }
    provokes.push("--path".to_owned());
    provokes.extend((0..rng.random_range(1..6)).map(|i| format!("{},{}", to.0 + i, to.1)));
    questions.push(provokes);
    let (feet, dc, seed) = (5 * rng.random_range(1..5), rng.random_range(1..30), rng.random::<u64>());
    questions.push(owned(&[
        "saves",
        "sphere",
        &feet.to_string(),
        "--origin",
        &point(rng),
        "--height",
        &rng.random_range(0..30).to_string(),
        "--seed",
        &seed.to_string(),
        "--dc",
        &dc.to_string(),
        "--damage",
        "8d6",
        "--type",
        "fire",
        "--half",
        "--roll",
    ]));
    for id in scenario.tokens.iter().filter(|t| !t.effects.is_empty()).map(|t| t.id.clone()) {
        questions.push(owned(&["effects", &id]));
    }
    questions.push(owned(&["advance", "--rounds", "2", "--dawns", "1", "--seed", &rng.random::<u64>().to_string()]));
    ask_all(questions)?;
    for token in scenario.tokens.iter().filter(|t| t.siege.is_some()) {
        ask(scenario, &["siege", &token.id])?;
    }
    if let Some(setup) = &scenario.chase {
        let mut dice = SeededDice::new(rng.random());
        let entrants = scenario.chase_entrants(&setup.quarry, &setup.pursuers, &setup.start);
        let mut chases = Chases::new(Chase::start(&setup.name, setup.rules.clone(), entrants, None, &mut dice)?);
        policy::play(&mut chases, 4, &mut dice)?;
    }
    Ok(())
}

#[test]
fn mutated_scenes_never_panic_and_every_refusal_has_a_place() {
    let inputs: usize = std::env::var("BATTLEMAP_FUZZ_INPUTS").ok().and_then(|n| n.parse().ok()).unwrap_or(400);
    let scenes_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut scenes: Vec<String> = std::fs::read_dir(&scenes_dir)
        .expect("scenes/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| std::fs::read_to_string(p).expect("a sample scene"))
        .collect();
    scenes.sort();
    let mut rng = StdRng::seed_from_u64(0x5eed);
    let (mut valid, mut refused) = (0, 0);
    for i in 0..inputs {
        let mut text = scenes[i % scenes.len()].clone();
        for _ in 0..rng.random_range(1..3) {
            text = mutate(&text, &mut rng);
        }
        let seed = rng.random::<u64>();
        let outcome = catch_unwind(AssertUnwindSafe(|| match Scenario::from_ron("fuzz.ron", &text) {
            Ok(scenario) => {
                ask_everything(&scenario, &mut StdRng::seed_from_u64(seed)).map(|()| true).map_err(|e| e.to_string())
            }
            Err(errors) => {
                for error in &errors.0 {
                    if error.position.is_none() || error.message.is_empty() || error.message.len() > 400 {
                        return Err(format!("a refusal without a place or a short sentence: {error}"));
                    }
                }
                Ok(false)
            }
        }));
        match outcome {
            Ok(Ok(true)) => valid += 1,
            Ok(Ok(false)) => refused += 1,
            Ok(Err(problem)) => panic!("input {i}: {problem}\n{text}"),
            Err(_) => panic!("input {i} panicked:\n{text}"),
        }
    }
    assert_eq!(valid + refused, inputs);
    assert!(valid > inputs / 10 && refused > inputs / 10, "both kinds were tried: {valid} valid, {refused} refused");
    eprintln!("{inputs} mutated scenes: {valid} valid and answered, {refused} refused with their place");
}
