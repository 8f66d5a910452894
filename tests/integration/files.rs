//! Writing files all or nothing: a writer killed with SIGKILL at any moment leaves the old text
//! or the new, never a torn file.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use battlemap::files::write_atomically;
use battlemap::scenario::Scenario;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::scratch;

/// Tells [`atomic_writer_child`] which file to write over and over.
const CHILD_FILE: &str = "BATTLEMAP_ATOMIC_WRITER_FILE";

/// The full name of the child test, as the test binary's filter takes it.
const CHILD_TEST: &str = "files::atomic_writer_child";

/// What the child prints once it has written the file and starts its loop (the test harness may
/// print the test's name on the same line before it).
const WRITING: &str = "the atomic writer is writing";

/// Two canonical scenario texts on a 200 by 200 map (about 45 KB each), different all through,
/// so that a write takes long enough to be caught half done.
fn two_texts() -> [String; 2] {
    let scene = |name: &str, inside: char| {
        let side = 200;
        let mut rows = vec!["#".repeat(side)];
        for row in 1..side - 1 {
            let middle: String =
                (1..side - 1).map(|col| if (row * 7 + col * 3) % 11 == 0 { '%' } else { inside }).collect();
            rows.push(format!("#{middle}#"));
        }
        rows.push("#".repeat(side));
        let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
        let text = format!(
            "Scenario(name: \"{name}\", grid: Square, map: [{}], creatures: [(id: \"a\", name: \"Ann\", side: Party, \
             size: Medium, at: (1, 1), speed: 30, ac: 12, hp: 10)])",
            rows.join(",\n")
        );
        Scenario::from_ron(name, &text).unwrap_or_else(|e| panic!("{e}")).to_ron()
    };
    [scene("First", '.'), scene("Second", '~')]
}

/// Not a test of its own: the child process of [`a_killed_writer_never_leaves_a_torn_file`],
/// which runs this test binary with `--exact files::atomic_writer_child --ignored` and
/// [`CHILD_FILE`] set. It writes the two texts in turn until it is killed. Ignored so that a
/// plain test run skips it (without the variable it returns at once anyway).
#[test]
#[ignore = "the child process of a_killed_writer_never_leaves_a_torn_file, which runs it"]
fn atomic_writer_child() {
    let Some(path) = std::env::var_os(CHILD_FILE) else { return };
    let path = std::path::PathBuf::from(path);
    let texts = two_texts();
    write_atomically(&path, &texts[1]).expect("writes");
    println!("{WRITING}");
    for text in texts.iter().cycle() {
        write_atomically(&path, text).expect("writes");
    }
}

/// 100 times: start a child writing the two texts in turn with `write_atomically`, kill it with
/// SIGKILL at a random moment (seeded), and read the file: it loads, and it is exactly one of the
/// two texts. Temporary files the killed writers leave are allowed; the next write steps over
/// them.
#[test]
fn a_killed_writer_never_leaves_a_torn_file() {
    const KILLS: usize = 100;
    let dir = scratch("killed-writer");
    let path = dir.join("scene.ron");
    let texts = two_texts();
    assert!(texts[0].len() > 40_000 && texts[1].len() > 40_000);
    write_atomically(&path, &texts[0]).expect("writes");
    let program = std::env::current_exe().expect("the test binary");
    let mut rng = StdRng::seed_from_u64(16);
    let started = Instant::now();
    let mut seen = [0; 2];
    for kill in 0..KILLS {
        let mut child = Command::new(&program)
            .args(["--exact", CHILD_TEST, "--ignored", "--nocapture", "--test-threads", "1"])
            .env(CHILD_FILE, &path)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the child starts");
        let output = child.stdout.take().expect("the child's output");
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let writing = BufReader::new(output).lines().map_while(Result::ok).any(|line| line.contains(WRITING));
            let _ = sender.send(writing);
        });
        if receiver.recv_timeout(Duration::from_secs(30)) != Ok(true) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the child didn't start writing (kill {kill})");
        }
        std::thread::sleep(Duration::from_micros(rng.random_range(0..15_000)));
        let _ = child.kill();
        let _ = child.wait();
        let text = std::fs::read_to_string(&path).expect("the file is there");
        let which = texts.iter().position(|t| *t == text);
        let Some(which) = which else {
            panic!("kill {kill} left a torn file of {} bytes", text.len());
        };
        seen[which] += 1;
        let scenario = Scenario::load(&path).unwrap_or_else(|e| panic!("kill {kill}: {e}"));
        assert_eq!(scenario.map.width(), 200);
    }
    assert!(seen.iter().all(|&n| n > 0), "the kills fell on both texts: {seen:?}");
    write_atomically(&path, &texts[0]).expect("writes past the leftovers");
    assert_eq!(std::fs::read_to_string(&path).expect("reads"), texts[0]);
    let leftovers = std::fs::read_dir(&dir).expect("lists").count() - 1;
    eprintln!("{KILLS} kills in {:?}: {seen:?}, {leftovers} temporary files left", started.elapsed());
}
