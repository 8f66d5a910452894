//! Inputs that once crashed, hung or ran out of memory (issue 10's fuzzing pass): each is now a
//! clear refusal with its place, or a correct answer. The fuzz-style test over mutated scenes is
//! `cli::query::fuzz` in the library's tests.

use std::io::Read;
use std::process::{Command, Stdio};

use battlemap::scenario::Scenario;

use super::cli::battlemap;
use super::{root, scratch};

fn tavern() -> String {
    std::fs::read_to_string(root().join("scenes/tavern_brawl.ron")).expect("the tavern")
}

/// The tavern with one replacement, which must be found.
fn tavern_with(old: &str, new: &str) -> String {
    let text = tavern();
    assert!(text.contains(old), "{old}");
    text.replacen(old, new, 1)
}

/// Every problem, each as `file:line:column: sentence`.
fn refusals(text: &str) -> Vec<String> {
    let errors = Scenario::from_ron("t.ron", text).expect_err("refused");
    errors.0.iter().inspect(|e| assert!(e.position.is_some(), "{e} has no position")).map(ToString::to_string).collect()
}

fn refused_with(text: &str, says: &str) {
    let all = refusals(text);
    assert!(all.iter().any(|e| e.contains(says)), "expected {says:?} in {all:#?}");
}

#[test]
fn positions_near_the_integer_limits_are_refused_before_any_arithmetic() {
    // A Large creature and an object at the edge of i32.
    let gorm = "size: Large, at: (15, 2)";
    refused_with(&tavern_with(gorm, "size: Large, at: (2147483647, 0)"), "`at` is 2147483647, but a position's");
    refused_with(&tavern_with("at: (18, 10)", "at: (2147483647, 0)"), "`at` is 2147483647");
    // Hexes convert to offset rows, which overflowed at ±2^31.
    let hex = std::fs::read_to_string(root().join("scenes/hex_skirmish.ron")).expect("hex");
    let ogre = hex.find("at: (13, 3)").expect("the ogre");
    let far = format!("{}at: (-2147483648, 3){}", &hex[..ogre], &hex[ogre + "at: (13, 3)".len()..]);
    refused_with(&far, "`at` is -2147483648");
    // Beyond i32, the parser's "out of bounds" names the field and its range.
    refused_with(
        &tavern_with("speed: 25, ac: 18", "speed: 99999999999, ac: 18"),
        "`speed` is out of range: speed in feet must be from 0 to 1000",
    );
}

#[test]
fn legends_are_bounded_and_keys_unique() {
    let glyphs: String =
        (0..60_000u32).filter_map(|i| char::from_u32(0x4e00 + i)).map(|c| format!("'{c}': Wall, ")).collect();
    refused_with(&tavern_with("legend: {", &format!("legend: {{ {glyphs}")), "a legend has at most 256");
    refused_with(&tavern_with("legend: {", "legend: { 'x': Wall, 'x': Floor,"), "'x' is in the legend twice");
}

#[test]
fn text_is_read_as_written_and_names_are_printable() {
    let with_bom = format!("\u{feff}{}", tavern());
    assert!(Scenario::from_ron("bom.ron", &with_bom).is_ok(), "a UTF-8 byte-order mark is skipped");
    refused_with(&tavern_with("name: \"Brom\"", "name: \"Br\\u{1b}[31mom\""), "holds control characters");
    refused_with(&tavern_with("grid: Square", "grid: Squ-are"), "is not a name this file knows");
    refused_with(&tavern_with("name: \"Brom\"", "name: Brom"), "`name` is text: write it in \"quotes\"");
}

#[test]
fn dice_that_could_roll_forever_are_refused_when_checked() {
    let shortsword = "(name: \"Shortsword\", bonus: 6, damage: \"1d6+4\",";
    let text = tavern_with(shortsword, "(name: \"Boom\", bonus: 5, damage: \"255d255x>1x>1x>1\",");
    refused_with(&text, "may be met by at most half");
    let text = tavern_with(shortsword, "(name: \"Huge\", bonus: 2147483647, damage: \"1d6\",");
    refused_with(&text, "`bonus` is 2147483647, but an attack bonus must be from -20 to 30");
}

#[test]
fn check_refuses_what_the_chase_would() {
    let market = std::fs::read_to_string(root().join("scenes/market_chase.ron")).expect("market");
    let twice = market.replacen("quarry: [\"cutpurse\"]", "quarry: [\"cutpurse\", \"cutpurse\"]", 1);
    refused_with(&twice, "is in `quarry` twice");
    refused_with(&market.replacen("table: Urban,", "table: Urban, catch_within: 3,", 1), "`catch_within` is 3");
    let far = market.replacen("table: Urban,", "table: Urban, start: {\"cutpurse\": 2147483647},", 1);
    refused_with(&far, "`start` is 2147483647");
    let sideless = "table: Custom((name: \"Bad\", rows: [(roll: \"1-20\", text: \"Embers.\", \
                    always: [Damage(dice: \"d0\", kind: \"fire\")])])),";
    refused_with(&market.replacen("table: Urban,", sideless, 1), "has dice with no sides");
}

/// An endless device is refused before it is read; a file past the limit is read only up to it.
#[test]
fn check_reads_at_most_the_limit_from_endless_files() {
    let (code, _, err) = battlemap(&["check", "/dev/zero"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a regular file"), "{err}");
    let big = scratch("big-file").join("big.ron");
    std::fs::File::create(&big).expect("create").set_len(64 << 20).expect("a sparse 64 MiB file");
    let (code, _, err) = battlemap(&["check", big.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(err.contains("the file is larger than 4194304 bytes"), "{err}");
}

#[test]
fn command_line_numbers_are_bounded_at_the_edge() {
    let cases: [(&[&str], &str); 7] = [
        (&["query", "scenes/tavern_brawl.ron", "path", "lia", "--to", "-2147483648,0"], "far off any map"),
        (&["query", "scenes/hex_skirmish.ron", "cover-from", "2147483647,0", "ogre"], "far off any map"),
        (&["query", "scenes/hex_skirmish.ron", "cover-from", "400,400", "ogre"], "is not on the map"),
        (
            &["query", "scenes/tavern_brawl.ron", "cover-from", "1,2@3", "brom"],
            "on squares a point is a grid intersection",
        ),
        (
            &["query", "scenes/tavern_brawl.ron", "cover-from", "99,2", "brom"],
            "off the map: intersections run from 0,0 to 20,13",
        ),
        (&["mob", "--bonus", "-2147483648", "--ac", "15", "--attackers", "4"], "-2147483648 is not in -20..=30"),
        (
            &["query", "scenes/tavern_brawl.ron", "aoe", "cone", "15", "--origin", "4,6", "--angle", "NaN"],
            "an angle is a number",
        ),
    ];
    for (args, says) in cases {
        let (code, _, err) = battlemap(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn unknown_flags_and_extra_arguments_are_refused_and_help_comes_from_clap() {
    for args in [
        &["table", "--bogus"][..],
        &["mob", "--bonus", "5", "--ac", "19", "--attackers", "8", "--nonsense"],
        &["roll", "d20", "d6"],
        &["check"],
        &["query", "scenes/tavern_brawl.ron", "tokens", "extra"],
    ] {
        let (code, _, err) = battlemap(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("Usage:"), "{args:?}: {err}");
    }
    let (code, out, _) = battlemap(&["--help"]);
    assert_eq!(code, 0);
    for sub in ["check", "roll", "table", "mob", "chase", "query"] {
        assert!(out.contains(sub), "{sub} in {out}");
        let (code, help, _) = battlemap(&[sub, "--help"]);
        assert_eq!(code, 0, "{sub}");
        assert!(help.contains("Usage: battlemap ") && help.contains(sub), "{help}");
    }
    let (_, help, _) = battlemap(&["query", "x.ron", "aoe", "--help"]);
    assert!(help.contains("[possible values: sphere, cylinder, circle, cube, square, cone, line]"), "{help}");
}

/// Output to a reader that stops early (`battlemap ... | head -1`) ends quietly.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let dir = scratch("closed-pipe");
    let file = dir.join("open.ron");
    let rows = vec![format!("\"{}\"", ".".repeat(200)); 200].join(", ");
    std::fs::write(
        &file,
        format!(
            "Scenario(name: \"Open\", grid: Square, map: [{rows}], creatures: [(id: \"a\", name: \"A\", side: Party, \
             size: Medium, at: (100, 100), speed: 300, ac: 10, hp: 5)])"
        ),
    )
    .expect("writes");
    let mut child = Command::new(env!("CARGO_BIN_EXE_battlemap"))
        .args(["query", file.to_str().expect("utf-8"), "reach", "a", "--dash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut first = [0u8; 16];
    child.stdout.as_mut().expect("stdout").read_exact(&mut first).expect("the answer starts");
    drop(child.stdout.take());
    let status = child.wait().expect("ends");
    let mut err = String::new();
    child.stderr.as_mut().expect("stderr").read_to_string(&mut err).expect("reads");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(status.code(), Some(0), "{err}");
}

/// `check` and `fmt` on a FIFO with no writer, or on a directory, refuse at once with a sentence
/// (opening the FIFO would wait forever); each is given ten seconds before the test fails.
#[test]
fn pipes_and_directories_are_refused_up_front() {
    let dir = scratch("fifo");
    let fifo = dir.join("scene.ron");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo makes the test's pipe: install coreutils");
    for (command, path) in [("check", &fifo), ("fmt", &fifo), ("check", &dir)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_battlemap"))
            .args([command, path.to_str().expect("utf-8")])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let status = loop {
            if let Some(status) = child.try_wait().expect("waits") {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("`battlemap {command}` on {} still waits after 10 s", path.display());
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let mut err = String::new();
        child.stderr.take().expect("stderr").read_to_string(&mut err).expect("text");
        assert_eq!(status.code(), Some(2), "{command}: {err}");
        assert!(err.contains("name a scenario file"), "{command} {}: {err}", path.display());
    }
}
