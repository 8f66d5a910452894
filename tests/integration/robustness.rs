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
    let shortsword = "(name: \"Shortsword\", bonus: 6, damage: \"1d6+4\"";
    let text = tavern_with(shortsword, "(name: \"Boom\", bonus: 5, damage: \"255d255x>1x>1x>1\"");
    refused_with(&text, "may be met by at most half");
    let text = tavern_with(shortsword, "(name: \"Huge\", bonus: 2147483647, damage: \"1d6\"");
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
        (&["mob", "--bonus", "-2147483648", "--ac", "15", "--attackers", "4"], "write a whole number from -20 to 30"),
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

fn scene(name: &str) -> String {
    std::fs::read_to_string(root().join("scenes").join(name)).expect("a sample scene")
}

/// Issue 29: a cauldron's `pours_on` far off the map overflowed while it was measured; it is now
/// bounded first, and the message names `pours_on`, on squares and on hexes.
#[test]
fn a_cauldron_pouring_far_off_the_map_is_refused_by_name() {
    let castle = scene("castle_siege.ron");
    for grid in ["grid: Square", "grid: Hex(PointyTop)", "grid: Hex(FlatTop)"] {
        for far in ["(2147483647, 6)", "(15, -2147483648)", "(1001, 6)"] {
            let text =
                castle.replacen("grid: Square", grid, 1).replacen("pours_on: (15, 6)", &format!("pours_on: {far}"), 1);
            let all = refusals(&text);
            assert!(
                all.iter().any(|e| e.contains("`pours_on` is") && e.contains("the column and row a cauldron pours on")),
                "{grid} {far}: {all:#?}"
            );
            assert!(!all.iter().any(|e| e.contains("`at` is")), "{grid} {far}: {all:#?}");
        }
    }
}

/// Issue 29: damage that can't be totalled (`1d6+2147483647`, `1d6/0`, `2147483647*2`) failed only
/// when rolled; `check` refuses it, in attacks and in a chase table.
#[test]
fn damage_that_cannot_be_totalled_is_refused_when_checked() {
    let shortsword = "damage: \"1d6+4\"";
    for (dice, says) in [
        ("1d6+2147483647", "has the number 2147483647"),
        ("1d6/0", "divides by something that can be 0"),
        ("2147483647*2", "stays within"),
        ("4d6kh300", "after a modifier"),
    ] {
        refused_with(&tavern_with(shortsword, &format!("damage: \"{dice}\"")), says);
        let table = format!(
            "table: Custom((name: \"Bad\", rows: [(roll: \"1-20\", text: \"Embers.\", always: [Damage(dice: \"{dice}\", \
             kind: \"fire\")])])),"
        );
        refused_with(&scene("market_chase.ron").replacen("table: Urban,", &table, 1), says);
    }
    // A scene `check` accepts rolls every attack it has.
    let (code, out, err) =
        battlemap(&["query", "scenes/tavern_brawl.ron", "attack", "brom", "thug-1", "--roll", "--seed", "9"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"damage\""), "{out}");
}

/// Issue 29: text of the file reached the terminal raw (an ESC sequence, a forged `file:1:1:`
/// line): a chase table's name, a row's text, an attacker, a kind of damage and an escape
/// factor's name are refused unless plain, and a message shows them escaped.
#[test]
fn text_that_would_reach_the_terminal_raw_is_refused() {
    let market = scene("market_chase.ron");
    let row = |name: &str, text: &str, attacker: &str, kind: &str| {
        format!(
            "table: Custom((name: \"{name}\", rows: [(roll: \"1-20\", text: \"{text}\", always: \
             [OpportunityAttack(attacker: \"{attacker}\", bonus: 3, dice: \"1d6\", kind: \"{kind}\", min_move: 0)])])),"
        )
    };
    let escape = "\\u{1b}[31mred";
    let forged = "x\\nforged.ron:1:1: fine";
    for (table, says) in [
        (row(escape, "Embers.", "a guard", "piercing"), "the table's name"),
        (row("Market", forged, "a guard", "piercing"), "a row's text"),
        (row("Market", "Embers.", escape, "piercing"), "an attacker"),
        (row("Market", "Embers.", "a guard", forged), "a kind of damage"),
    ] {
        let all = refusals(&market.replacen("table: Urban,", &table, 1));
        assert!(all.iter().any(|e| e.contains(says) && e.contains("must be plain text")), "{says}: {all:#?}");
        assert!(all.iter().all(|e| !e.contains('\u{1b}') && e.lines().count() == 1), "{all:#?}");
    }
    let factor = format!("escape_factors: [Other(name: \"{escape}\", advantage: true), ");
    refused_with(&market.replacen("escape_factors: [", &factor, 1), "an escape factor's name");
}

/// Issue 29: 4 MB of `\n` escapes took `check` over 30 s, and 200,000 `\u{301}` escapes `fmt`
/// (ron 0.12.0 rescanned the rest of a string at every escape; 0.12.3 doesn't). Each is timed
/// against a plain file of the same size read in the same run: at most ten times as long.
#[test]
fn escaped_strings_take_no_longer_than_plain_ones() {
    let dir = scratch("escapes");
    let time = |name: &str, body: &str, command: &str| {
        let path = dir.join(name);
        std::fs::write(&path, format!("Scenario(name: \"{body}\", grid: Square, map: [\".\"])")).expect("writes");
        let started = std::time::Instant::now();
        let (code, _, err) = battlemap(&[command, path.to_str().expect("utf-8")]);
        assert_eq!(code, 2, "{err}");
        started.elapsed()
    };
    for (escape, command) in [("\\n", "check"), ("\\u{301}", "fmt")] {
        let count = 3_000_000 / escape.len();
        let plain = time("plain.ron", &"a".repeat(count * escape.len()), command);
        let escaped = time("escaped.ron", &escape.repeat(count), command);
        assert!(
            escaped < plain * 10 + std::time::Duration::from_millis(500),
            "{command} on {count} {escape} escapes took {escaped:?}, a plain file of the same size {plain:?}"
        );
    }
}

/// Issue 29: `fmt` could write what `check` then refuses, replaced a read-only file, broke hard
/// links, and `fmt /dev/stdin < x.ron` rewrote `x.ron`.
#[test]
fn fmt_writes_only_what_check_accepts_and_respects_the_file() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = scratch("fmt-files");
    let untidy = tavern().replacen("grid: Square", "grid:   Square", 1);
    let path = dir.join("tavern.ron");
    let name = path.to_str().expect("utf-8");

    // Read-only: refused unless --force, and still read-only after --force.
    std::fs::write(&path, &untidy).expect("writes");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let (code, _, err) = battlemap(&["fmt", name]);
    assert_eq!(code, 2);
    assert!(err.contains("read-only") && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).expect("reads"), untidy);
    let (code, out, err) = battlemap(&["fmt", "--force", name]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("formatted"), "{out}");
    assert_eq!(std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777, 0o444);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");

    // Permissions kept; a hard link sees the new text.
    std::fs::write(&path, &untidy).expect("writes");
    let link = dir.join("linked.ron");
    std::fs::hard_link(&path, &link).expect("a hard link");
    let inode = std::fs::metadata(&path).expect("meta").ino();
    let (code, out, err) = battlemap(&["fmt", name]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 hard links"), "{out}");
    assert_eq!(std::fs::metadata(&path).expect("meta").ino(), inode);
    assert_eq!(std::fs::read_to_string(&link).expect("reads"), std::fs::read_to_string(&path).expect("reads"));
    assert_ne!(std::fs::read_to_string(&link).expect("reads"), untidy);
    assert_eq!(std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777, 0o640);

    // /dev/stdin names the redirected file: refused, and the file is left alone.
    std::fs::remove_file(&link).expect("unlinks");
    std::fs::write(&path, &untidy).expect("writes");
    let output = Command::new(env!("CARGO_BIN_EXE_battlemap"))
        .args(["fmt", "/dev/stdin"])
        .stdin(std::fs::File::open(&path).expect("opens"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("not a scenario file"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).expect("reads"), untidy);

    // A file whose canonical text would be past the 4 MiB limit (many compact objects, each
    // written out in full) is refused and left as it is.
    let objects: String = (0..56_000)
        .map(|i| format!("(id:\"o{i}\",name:\"Rock\",size:Tiny,at:({},{}),ac:10,hp:1),", i % 400, i / 400 % 40))
        .collect();
    let big = format!(
        "Scenario(name:\"Rocks\",grid:Square,map:[{}],objects:[{objects}])",
        vec![format!("\"{}\"", ".".repeat(400)); 40].join(",")
    );
    assert!(big.len() < 4 << 20, "the input fits the limit: {} bytes", big.len());
    std::fs::write(&path, &big).expect("writes");
    let (code, _, err) = battlemap(&["check", name]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = battlemap(&["fmt", name]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("past the 4194304 a scenario may be"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).expect("reads"), big);
}

/// Issue 29: the command line's messages name the problem.
#[test]
fn command_line_messages_name_the_problem() {
    let cases: [(&[&str], &str); 9] = [
        (&["query", "scenes/tavern_brawl.ron", "arc", "brom", "1001,0"], "is far off any map"),
        (
            &["query", "scenes/tavern_brawl.ron", "saves", "sphere", "10", "--origin", "4,6", "--dc", "-1"],
            "invalid value '-1' for '--dc <DC>': write a whole number from 1 to 40",
        ),
        (&["roll", "d20", "--seed", "-1"], "a seed is a whole number from 0 to 18446744073709551615"),
        (&["mob", "--bonus", "5", "--ac", "-2147483648", "--attackers", "4"], "write a whole number from 0 to 50"),
        (&["--session", "x.json", "check", "scenes/tavern_brawl.ron"], "`check` doesn't take it"),
        (&["roll", "4d6kh300"], "has 300 after a modifier"),
        (&["roll", "4d6min255"], "a minimum is at most 6"),
        (&["query", "scenes/hex_skirmish.ron", "cover-from", "-1,9@7", "ogre"], "corners 0 to 5"),
        (&["query", "scenes/hex_skirmish.ron", "cover-from", "-1,0@3", "ogre"], "is not on the map"),
    ];
    for (args, says) in cases {
        let (code, _, err) = battlemap(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // Where a point only sets a direction, or a hex corner is shared with a hex on the map, it
    // is taken.
    let cone = ["query", "scenes/hex_skirmish.ron", "aoe", "cone", "30", "--origin", "3,3", "--toward", "-900,900"];
    let (code, out, err) = battlemap(&cone);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"cells\""), "{out}");
    // -1,0 is off the map; its corner 0 is corner 4 of 0,0, and gives the same answer.
    let cover = |point: &str| battlemap(&["query", "scenes/hex_skirmish.ron", "cover-from", point, "ogre"]);
    let (code, through_neighbour, err) = cover("-1,0@0");
    assert_eq!(code, 0, "a corner shared with 0,0 (on the map) is on the map: {err}");
    assert_eq!(through_neighbour, cover("0,0@4").1);
}

/// Issue 29: the parser's messages name the field and what it takes, and a file that isn't
/// UTF-8 is refused at the line and column of its first bad byte.
#[test]
fn parser_messages_name_the_field_and_its_place() {
    refused_with(&tavern_with("speed: 25, ac: 18", "speed: true, ac: 18"), "`speed` takes a whole number");
    let creature = "side: Party";
    refused_with(&tavern_with(creature, "side: \"Party\""), "`side` takes a name");
    let dir = scratch("not-utf8");
    let path = dir.join("latin1.ron");
    let mut bytes = tavern().into_bytes();
    let at = bytes.windows(6).position(|w| w == b"\"Brom\"").expect("Brom") + 3;
    bytes[at] = 0xf6;
    std::fs::write(&path, &bytes).expect("writes");
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let column = at - bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
    let (code, _, err) = battlemap(&["check", path.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(err.contains(&format!("latin1.ron:{line}:{column}: the file is not UTF-8")), "{err}");
}

fn crypt_with(old: &str, new: &str) -> String {
    let text = scene("haunted_crypt.ron");
    assert!(text.contains(old), "{old}");
    text.replacen(old, new, 1)
}

/// Issue 37 (19): numbers of an effect and of a disease's course that panicked later (the
/// absolute value of -2147483648, a course's penalty copied into its effect, cackle fever's DC)
/// are bounded when the file is checked, each message naming the field and its range.
#[test]
fn every_number_of_an_effect_is_bounded_by_name() {
    let frightened = "duration: Minutes(1),";
    refused_with(
        &crypt_with(frightened, "duration: Minutes(1), penalty: -2147483648,"),
        "`penalty` is -2147483648: from -20 to 20",
    );
    refused_with(
        &crypt_with("penalty: 0)", "penalty: -2147483648)"),
        "`disease`: `penalty` is -2147483648: from -5 to 0",
    );
    refused_with(&crypt_with("dc: 11,", "dc: -2147483648,"), "`disease`: `dc` is -2147483648: DCs run from 1 to 30");
    refused_with(&crypt_with("dc: 11,", "dc: 2147483647,"), "`dc` is 2147483647");
    refused_with(&crypt_with("incubating: 1,", "incubating: 200,"), "`incubating` is 200 dawns: from 0 to 30");
    let modifier = "duration: Minutes(1), modifiers: [(on: Checks, change: Bonus(-2147483648))],";
    refused_with(&crypt_with(frightened, modifier), "`modifiers[0]`: a bonus of -2147483648: from -20 to 20");
    refused_with(
        &crypt_with(frightened, "duration: Minutes(1), modifiers: [(on: Saves, sight: true, change: Disadvantage)],"),
        "`sight` is for ability checks only",
    );
}

/// Issue 37 (20): damage `check` accepts always rolls: an exploding set of 255 dice once failed
/// about one roll in eight, and `advance` then printed nothing.
#[test]
fn damage_check_accepts_always_rolls() {
    let text = crypt_with("dice: \"1d6\"", "dice: \"255d255x<128\"");
    assert!(Scenario::from_ron("t.ron", &text).is_ok(), "accepted");
    let file = scratch("exploding").join("crypt.ron");
    std::fs::write(&file, &text).expect("writes");
    for seed in ["1", "2", "3", "4", "5", "6", "7", "8"] {
        let (code, out, err) =
            battlemap(&["query", file.to_str().expect("utf-8"), "advance", "--rounds", "2", "--seed", seed]);
        assert_eq!(code, 0, "seed {seed}: {err}");
        assert!(out.contains("255d255x<128"), "seed {seed}: the burning is rolled");
    }
    let (code, _, err) = battlemap(&["roll", "1d6+", "--seed", "1"]);
    assert_eq!(code, 2);
    assert!(err.lines().count() == 1 && err.len() < 200, "one short sentence: {err}");
}

/// Issue 37 (21): one rule for every text a scenario holds: an effect's name or note, a
/// creature's name, with a control character (ESC, DEL, a C1 such as U+009B) or a
/// bidirectional override (U+202E) is refused; what is printed of bad text is escaped (the dice
/// parser's "found …", a picture's path).
#[test]
fn text_with_control_or_bidirectional_characters_is_refused_and_printed_escaped() {
    for bad in ["\\u{1b}[2J", "\\u{7f}", "\\u{9b}2J", "\\u{202e}"] {
        refused_with(&crypt_with("name: \"burning\"", &format!("name: \"burn{bad}ing\"")), "the `name`");
        refused_with(
            &crypt_with("duration: Rounds(2)", &format!("duration: Rounds(2), note: \"a{bad}\"")),
            "the `note`",
        );
        refused_with(&tavern_with("name: \"Brom\"", &format!("name: \"Br{bad}om\"")), "holds control characters");
    }
    let (code, _, err) = battlemap(&["roll", "1d6\u{1b}[31m\u{9b}"]);
    assert_eq!(code, 2);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{9b}') && err.contains("\\u{1b}"), "{err:?}");
    let file = scratch("bidi").join("t.ron");
    std::fs::write(&file, tavern_with("tokens/dwarf.png", "tokens/right\u{202e}gnp.exe")).expect("writes");
    let (code, _, err) = battlemap(&["check", file.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "a picture path is text like any other: {err}");
    assert!(!err.contains('\u{202e}'), "{err:?}");
}

/// Issue 37 (22): a picture that is a FIFO, a device or a link to standard input is a warning
/// at once (opening a FIFO waited forever); one cut short is a warning (only its header was
/// read); the scene plays without them.
#[test]
fn pictures_that_are_not_whole_files_are_warnings_at_once() {
    let dir = scratch("odd-pictures");
    let made = Command::new("mkfifo").arg(dir.join("pipe.png")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo makes the test's pipe: install coreutils");
    std::os::unix::fs::symlink("/dev/stdin", dir.join("stdin.png")).expect("a link");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.png")).expect("a link");
    let whole = std::fs::read(root().join("scenes/tokens/ogre.png")).expect("a portrait");
    std::fs::write(dir.join("cut.png"), &whole[..whole.len() / 3]).expect("writes");
    let mut text = tavern();
    for (portrait, picture) in
        [("dwarf", "pipe.png"), ("rogue", "stdin.png"), ("cleric", "zero.png"), ("ogre", "cut.png")]
    {
        let from = format!("\"tokens/{portrait}.png\"");
        assert!(text.contains(&from), "{from}");
        text = text.replacen(&from, &format!("\"{picture}\""), 1);
    }
    let file = dir.join("odd.ron");
    std::fs::write(&file, &text).expect("writes");
    let mut child = Command::new(env!("CARGO_BIN_EXE_battlemap"))
        .args(["check", file.to_str().expect("utf-8")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("`battlemap check` still waits on a picture after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("text");
    assert_eq!(status.code(), Some(0), "pictures are warnings: {err}");
    for (picture, says) in [
        ("pipe.png", "is not a regular file"),
        ("stdin.png", "is not a regular file"),
        ("zero.png", "is not a regular file"),
        ("cut.png", "is cut short or damaged"),
    ] {
        assert!(
            err.lines().any(|l| l.contains(picture) && l.contains(says) && l.contains("warning")),
            "{picture}: {err}"
        );
    }
}

/// Issue 37 (24): refusals a DM can act on: the field that holds a number names its range (a
/// save's `successes` are not death saves), no program type names, a fraction where a whole
/// number goes, parentheses after a built-in terrain, `Some(Some(...))`, an enormous number on the
/// command line; and `fmt` writes optional fields without `Some(...)`, as the docs do.
#[test]
fn refusals_name_the_fields_as_the_file_writes_them() {
    refused_with(
        &crypt_with("successes: 1)", "successes: 256)"),
        "`successes` is out of range: the successes that end an effect must be from 1 to 10",
    );
    refused_with(
        &crypt_with("failures: 0,", "failures: 256,"),
        "`failures` is out of range: a disease's failed saves must be from 0 to 3",
    );
    let save = "save: (ability: Wis, dc: 10, at: End, successes: 1)";
    refused_with(
        &crypt_with(save, "save: Some(Some((ability: Wis, dc: 10, at: End, successes: 1)))"),
        "`save` is given once",
    );
    refused_with(
        &tavern_with("name: \"Brom\",", "name: \"Brom\", seat: Up,"),
        "`Up` is not one of `South`, `North`, `East`, `West` (for `seat`)",
    );
    refused_with(
        &tavern_with("name: \"Brom\",", "name: \"Brom\", light: (dim: 20),"),
        "the field `bright` is missing from `light`",
    );
    refused_with(
        &tavern_with("grid: Square,", "grid: Square, legend: {'.': Floor(art: Grass)},"),
        "`Floor` is a built-in terrain and takes nothing in (parentheses)",
    );
    refused_with(&tavern_with("at: (18, 10)", "at: (0.5, 10)"), "`at` takes whole numbers, not 0.5");
    for text in [
        crypt_with(save, "save: Some(Some((ability: Wis, dc: 10, at: End, successes: 1)))"),
        tavern_with("name: \"Brom\",", "name: \"Brom\", seat: Up,"),
        tavern_with("name: \"Brom\",", "name: \"Brom\", light: (dim: 20),"),
        crypt_with("Disease(SewerPlague)", "Disease(Sewer)"),
    ] {
        for message in refusals(&text) {
            for rust in ["TableEdge", "TileArt", "LightSource", "RepeatedSave", "Source)", "Raw"] {
                assert!(!message.contains(rust), "{message}");
            }
        }
    }
    let (code, _, err) =
        battlemap(&["query", "scenes/haunted_crypt.ron", "advance", "--rounds", "18446744073709551616"]);
    assert_eq!(code, 2);
    assert!(err.contains("write a whole number from 0 to 100"), "{err}");
    let written = Scenario::from_ron("crypt.ron", &scene("haunted_crypt.ron")).expect("valid").to_ron();
    assert!(!written.contains("Some("), "{written}");
    let grappled = crypt_with("secret: true", "secret: true, grapple_reach: 5");
    let written = Scenario::from_ron("t.ron", &grappled).expect("valid").to_ron();
    assert!(written.contains("grapple_reach: 5") && !written.contains("Some("), "{written}");
}

/// Issue 37 (23): `advance` over a scene of many creatures with many effects stops after a bounded
/// story, and says where, instead of printing without bound.
#[test]
fn advance_stops_after_a_bounded_story() {
    let effects: Vec<String> = (0..64)
        .map(|e| format!("(name: \"curse {e}\", duration: Hours(1), save: (ability: Wis, dc: 30, at: End))"))
        .collect();
    let creatures: Vec<String> = (0..40)
        .map(|i| {
            format!(
                "(id: \"c{i}\", name: \"C{i}\", side: Enemy, size: Medium, at: ({}, {}), speed: 30, ac: 12, hp: 10, \
                 effects: [{}])",
                i % 8,
                i / 8,
                effects.join(",")
            )
        })
        .collect();
    let map = ["\"........\""; 6].join(",");
    let text = format!("Scenario(name: \"Cursed\", grid: Square, map: [{map}], creatures: [{}])", creatures.join(","));
    let file = scratch("cursed").join("cursed.ron");
    std::fs::write(&file, text).expect("writes");
    let (code, out, err) =
        battlemap(&["query", file.to_str().expect("utf-8"), "advance", "--rounds", "100", "--seed", "1"]);
    assert_eq!(code, 0, "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).expect("json");
    let events = answer["events"].as_array().expect("events").len();
    assert!((50_000..50_200).contains(&events), "{events} events: at most one turn past the bound");
    assert!(answer["cut_short"].as_str().is_some_and(|s| s.contains("stopped in round")), "{}", answer["cut_short"]);
}
