//! The real window under Xvfb with software Vulkan: every sample scenario is drawn and its
//! screenshot checked, xdotool plays with the mouse and the keys, and a game killed with SIGKILL
//! comes back when the app starts again.
//!
//! Needs `Xvfb`, `xdotool` and a Vulkan driver (Mesa's lavapipe): without them the tests fail
//! with a sentence saying what to install (`scripts/test` installs them where missing).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{root, sample_scenes, scratch};

/// An X server for the test; stopped when dropped.
struct Display {
    name: String,
    server: Child,
}

impl Drop for Display {
    /// Stops Xvfb with SIGTERM, so that it removes its socket and lock file (a SIGKILL leaves them
    /// behind and the display number looks taken to the next run).
    fn drop(&mut self) {
        let terminated = Command::new("kill").args(["-TERM", &self.server.id().to_string()]).status();
        if !terminated.is_ok_and(|s| s.success()) {
            let _ = self.server.kill();
        }
        let _ = self.server.wait();
    }
}

/// Whether display `number` is taken: its socket exists and the server in its lock file lives.
/// A dead server's socket and lock are removed, so the number can be used again.
fn display_taken(number: u32) -> bool {
    let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
    let lock = PathBuf::from(format!("/tmp/.X{number}-lock"));
    if !socket.exists() && !lock.exists() {
        return false;
    }
    let pid = std::fs::read_to_string(&lock).ok().and_then(|text| text.trim().parse::<u32>().ok());
    let alive = pid.is_some_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
    if !alive {
        let _ = std::fs::remove_file(&socket);
        let _ = std::fs::remove_file(&lock);
    }
    alive
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Starts Xvfb on a free display; fails, saying what to install, where the tools are missing.
fn start_display(number: u32) -> Display {
    let vulkan = std::fs::read_dir("/usr/share/vulkan/icd.d")
        .is_ok_and(|d| d.flatten().any(|e| e.file_name().to_string_lossy().ends_with(".json")));
    let missing: Vec<&str> = [("Xvfb", "xvfb"), ("xdotool", "xdotool")]
        .into_iter()
        .filter(|(program, _)| !have(program))
        .map(|(_, package)| package)
        .chain((!vulkan).then_some("mesa-vulkan-drivers"))
        .collect();
    assert!(
        missing.is_empty(),
        "the real-window tests need {}: install them with `apt-get install {} libvulkan1` (scripts/test does)",
        missing.join(" and "),
        missing.join(" ")
    );
    // Each test starts at its own number, 10 apart: tests running at once don't race for one.
    let number = (number..number + 10).find(|n| !display_taken(*n)).expect("a free X display number");
    let name = format!(":{number}");
    let server = Command::new("Xvfb")
        .args([&name, "-screen", "0", "1400x900x24", "-nolisten", "tcp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb starts");
    let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
    let deadline = Instant::now() + Duration::from_secs(20);
    while !socket.exists() {
        assert!(Instant::now() < deadline, "Xvfb did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let display = Display { name, server };
    let _ = std::fs::remove_dir_all(config_dir(&display));
    display
}

/// The app on `display`, with no autosave unless `args` name a `--session` file (a test's game
/// must not be restored by the next test, nor write beside the sample scenes).
fn app(display: &Display, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_battlemap"));
    command.args(args);
    if !args.contains(&"--session") {
        command.arg("--no-autosave");
    }
    // Each display its own configuration (emptied when it starts): the panels' places one test
    // leaves must not move another's, nor come from the user's own.
    command.current_dir(root()).env("DISPLAY", &display.name).env_remove("WAYLAND_DISPLAY");
    command.env("XDG_CONFIG_HOME", config_dir(display));
    command
}

/// The configuration directory of the apps on `display`.
fn config_dir(display: &Display) -> PathBuf {
    out_dir().join(format!("config{}", display.name.replace(':', "-")))
}

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    dir
}

fn read_state(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// Waits until the state file satisfies `ready`, or panics after `seconds`.
fn wait_for_state(path: &Path, seconds: u64, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        if let Some(state) = read_state(path).filter(|s| ready(s)) {
            return state;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}; last state: {}", brief(read_state(path)));
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until the app is ready, says its map no longer moves by itself (`settling`: frames can
/// be slow on a busy machine, so half a second without a change proves nothing alone), and its map
/// has stayed where it is for half a second.
fn wait_for_settled_map(path: &Path) -> Value {
    let still = |s: &Value| s["ready"] == true && s["settling"] == false && s["cell_centers"].is_object();
    let mut previous = wait_for_state(path, 120, "the map", still);
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let now = wait_for_state(path, 30, "the map", still);
        if now["cell_centers"] == previous["cell_centers"] {
            return now;
        }
        previous = now;
    }
}

fn pixel(image: &image::RgbImage, at: &Value) -> [u8; 3] {
    let x = at[0].as_f64().expect("x").round() as u32;
    let y = at[1].as_f64().expect("y").round() as u32;
    image.get_pixel(x.min(image.width() - 1), y.min(image.height() - 1)).0
}

fn close(a: [u8; 3], b: [u8; 3], tolerance: i32) -> bool {
    a.iter().zip(b).all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= tolerance)
}

/// The pixels within `radius` of a window point (a square patch).
fn patch(image: &image::RgbImage, at: &Value, radius: i32) -> Vec<[u8; 3]> {
    let (x, y) = (at[0].as_f64().expect("x").round() as i32, at[1].as_f64().expect("y").round() as i32);
    let (w, h) = (image.width() as i32, image.height() as i32);
    (-radius..=radius)
        .flat_map(|dy| (-radius..=radius).map(move |dx| (x + dx, y + dy)))
        .filter(|&(x, y)| (0..w).contains(&x) && (0..h).contains(&y))
        .map(|(x, y)| image.get_pixel(x as u32, y as u32).0)
        .collect()
}

/// The mean colour of some pixels, and the standard deviation of their brightness.
fn mean_and_spread(pixels: &[[u8; 3]]) -> ([u8; 3], f64) {
    let n = pixels.len().max(1) as f64;
    let mean = [0, 1, 2].map(|i| (pixels.iter().map(|p| f64::from(p[i])).sum::<f64>() / n).round() as u8);
    let brightness: Vec<f64> = pixels.iter().map(|p| p.iter().map(|&c| f64::from(c)).sum::<f64>() / 3.0).collect();
    let average = brightness.iter().sum::<f64>() / n;
    let spread = (brightness.iter().map(|b| (b - average).powi(2)).sum::<f64>() / n).sqrt();
    (mean, spread)
}

/// How many pixels within half a token's disc are the light, nearly grey ink of an icon (no
/// side's colour is that light and grey).
fn icon_ink(image: &image::RgbImage, token: &Value) -> usize {
    let radius = (token["radius_px"].as_f64().expect("radius") * 0.5) as i32;
    let ink = |p: &&[u8; 3]| {
        let (low, high) = (p.iter().min().copied().unwrap_or(0), p.iter().max().copied().unwrap_or(0));
        low > 140 && high - low < 45
    };
    patch(image, &token["screen"], radius).iter().filter(ink).count()
}

#[test]
fn every_sample_scene_is_drawn_in_a_real_window() {
    let display = start_display(90);
    for scene in sample_scenes() {
        let stem = scene.file_stem().and_then(|s| s.to_str()).expect("name").to_owned();
        let png = out_dir().join(format!("{stem}.png"));
        let state_file = out_dir().join(format!("{stem}.json"));
        let _ = std::fs::remove_file(&png);
        let output = app(
            &display,
            &[
                scene.to_str().expect("utf-8"),
                "--screenshot",
                png.to_str().expect("utf-8"),
                "--frames",
                "20",
                "--no-fog",
                "--state-file",
                state_file.to_str().expect("utf-8"),
                "--window",
                "1280x800",
            ],
        )
        .output()
        .expect("the app runs");
        assert!(output.status.success(), "{stem}: {}", String::from_utf8_lossy(&output.stderr));
        let image = image::open(&png).unwrap_or_else(|e| panic!("{stem}: no screenshot: {e}")).to_rgb8();
        assert_eq!((image.width(), image.height()), (1280, 800), "{stem}");
        let state = read_state(&state_file).expect("state written");

        // The tokens are drawn where the app says, in their side's colour (a point of each disc
        // beside its initials; labels of crowded neighbours may cover a few).
        let discs: Vec<&Value> = state["tokens"]
            .as_array()
            .expect("tokens")
            .iter()
            .filter(|t| t["tiny"] == false && t["fill"].is_array())
            .collect();
        assert!(!discs.is_empty(), "{stem}: tokens on screen");
        let coloured = discs
            .iter()
            .filter(|t| {
                let rgb: Vec<u8> =
                    t["rgb"].as_array().expect("rgb").iter().map(|v| v.as_u64().expect("u8") as u8).collect();
                close(pixel(&image, &t["fill"]), [rgb[0], rgb[1], rgb[2]], 12)
            })
            .count();
        assert!(4 * coloured >= 3 * discs.len(), "{stem}: only {coloured} of {} discs show their colour", discs.len());

        // Issue 39: a name under a token is drawn at 11 pixels or more, or not at all.
        let tokens = state["tokens"].as_array().expect("tokens");
        let small: Vec<String> = tokens
            .iter()
            .filter(|t| t["name_px"].as_f64().is_some_and(|px| px < 10.9))
            .map(|t| format!("{} at {:.1} px", t["id"], t["name_px"]))
            .collect();
        assert!(small.is_empty(), "{stem}: names too small to read from across a table: {small:?}");
        // ... and no two names drawn run into each other (the siege's Gate, Ram and Soldiers).
        let rects: Vec<(&Value, Vec<f64>)> = tokens
            .iter()
            .filter_map(|t| Some((&t["id"], t["name_rect"].as_array()?.iter().filter_map(Value::as_f64).collect())))
            .collect();
        assert!(!rects.is_empty(), "{stem}: some names are drawn");
        for (i, (a, r)) in rects.iter().enumerate() {
            for (b, q) in &rects[i + 1..] {
                let apart = r[2] <= q[0] + 1.0 || q[2] <= r[0] + 1.0 || r[3] <= q[1] + 1.0 || q[3] <= r[1] + 1.0;
                assert!(apart, "{stem}: the names of {a} and {b} overlap: {r:?} and {q:?}");
            }
        }

        // The map fills the free part of the window: along one axis it spans it, margins aside.
        let view = state["map_view"].as_array().expect("map view");
        let [x0, y0, x1, y1] = [0, 1, 2, 3].map(|i| view[i].as_f64().expect("number") as u32);
        let background = [24, 26, 30];
        let middle_row = (y0 + y1) / 2;
        let middle_col = (x0 + x1) / 2;
        let covered_x = (x0..x1).filter(|&x| !close(image.get_pixel(x, middle_row).0, background, 4)).count() as f64;
        let covered_y = (y0..y1).filter(|&y| !close(image.get_pixel(middle_col, y).0, background, 4)).count() as f64;
        let fill = (covered_x / f64::from(x1 - x0)).max(covered_y / f64::from(y1 - y0));
        assert!(fill > 0.85, "{stem}: the map covers only {fill:.2} of the view");

        // Known cells show their terrain's tile where the app says they are: around a floor's or
        // a wall's middle, the tile's average colour, give or take its texture; and the floor is
        // textured (its pixels vary), not a flat colour.
        let samples = state["terrain_samples"].as_array().expect("samples");
        let scenario = battlemap::scenario::Scenario::load(&scene).expect("a valid sample");
        for kind in ["floor", "wall"] {
            let on_map = scenario.map.cells().any(|c| scenario.map.terrain(c).is_some_and(|t| t.name == kind));
            assert!(!on_map || samples.iter().any(|s| s["terrain"] == kind), "{stem}: no {kind} sample");
        }
        for sample in samples.iter().filter(|s| s["terrain"] == "floor" || s["terrain"] == "wall") {
            let want: Vec<u8> =
                sample["rgb"].as_array().expect("rgb").iter().map(|v| v.as_u64().expect("u8") as u8).collect();
            let (mean, spread) = mean_and_spread(&patch(&image, &sample["screen"], 5));
            assert!(
                close(mean, [want[0], want[1], want[2]], 30),
                "{stem}: {} at {} is {mean:?} on average, want about {want:?}",
                sample["terrain"],
                sample["screen"]
            );
            if sample["terrain"] == "floor" {
                assert!(spread > 2.5, "{stem}: the floor at {} is flat colour (spread {spread:.1})", sample["screen"]);
            }
        }
        for sample in samples {
            assert!(!close(pixel(&image, &sample["screen"]), background, 4), "{stem}: {sample} is drawn");
        }

        // The pictures: the castle's ram and gate show their icons; the tavern's Brom shows his
        // portrait (its middle is the picture's, not his side's blue).
        if stem == "castle_siege" {
            for id in ["ram", "gate", "ballista", "cauldron"] {
                let drawn = token(&state, id);
                assert_eq!(drawn["picture"], "icon", "{stem}: {id} has its icon");
                let ink = icon_ink(&image, drawn);
                assert!(ink > 12, "{stem}: {id}'s icon is drawn ({ink} pixels of ink)");
            }
            assert_eq!(token(&state, "sergeant")["picture"], Value::Null, "{stem}: a creature with no picture");
        }
        if stem == "tavern_brawl" {
            let brom = token(&state, "brom");
            assert_eq!(brom["picture"], "portrait", "{stem}: Brom names a portrait");
            let portrait = image::open(root().join("scenes/tokens/dwarf.png")).expect("the portrait").to_rgb8();
            let middle: Vec<[u8; 3]> = portrait
                .enumerate_pixels()
                .filter(|p| p.0.abs_diff(128) < 60 && p.1.abs_diff(128) < 60)
                .map(|p| p.2.0)
                .collect();
            let radius = (brom["radius_px"].as_f64().expect("radius") * 0.45) as i32;
            let (drawn, spread) = mean_and_spread(&patch(&image, &brom["screen"], radius));
            let (want, _) = mean_and_spread(&middle);
            let side: Vec<u8> =
                brom["rgb"].as_array().expect("rgb").iter().map(|v| v.as_u64().expect("u8") as u8).collect();
            assert!(close(drawn, want, 60), "{stem}: Brom's portrait is {drawn:?} on average, the picture's {want:?}");
            assert!(!close(drawn, [side[0], side[1], side[2]], 60), "{stem}: Brom's disc is his side's colour");
            assert!(spread > 10.0, "{stem}: Brom's disc shows a picture, not a flat colour ({spread:.1})");
            assert_eq!(token(&state, "captain")["picture"], Value::Null, "{stem}: the captain keeps his initials");
        }
    }
}

#[test]
fn clicking_a_token_selects_it() {
    let display = start_display(140);
    let (running, state_file, state) = open_tavern(&display, "click-state");
    assert!(
        state["tokens"].as_array().is_some_and(|t| t.iter().all(|t| t["screen"].is_array())),
        "every token on screen"
    );
    // Idle, the app draws nothing: it redraws on input only. Its last frames after the map
    // settled may still run (slowly, when the machine is busy), so the quietest of a few 3-s
    // windows counts.
    let ticks = || -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", running.0.id())).expect("the app runs");
        let fields: Vec<&str> = stat.rsplit(')').next().expect("stat").split_whitespace().collect();
        fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime")
    };
    let mut windows = Vec::new();
    for _ in 0..5 {
        let before = ticks();
        std::thread::sleep(Duration::from_secs(3));
        windows.push(ticks() - before);
        if windows.last().is_some_and(|&t| t < 30) {
            break;
        }
    }
    let idle = windows.iter().min().copied().unwrap_or(u64::MAX);
    assert!(idle < 30, "the idle app used {windows:?} ticks of CPU in successive 3-s windows");
    let lia =
        state["tokens"].as_array().expect("tokens").iter().find(|t| t["id"] == "lia").expect("Lia")["screen"].clone();
    let click = |at: &Value| {
        click_at(&display, &state_file, (at[0].as_f64().expect("x"), at[1].as_f64().expect("y")));
    };
    click(&lia);
    wait_for_state(&state_file, 30, "Lia to be selected", |s| s["selected"] == "lia");
    let floor =
        state["terrain_samples"].as_array().expect("samples").iter().find(|s| s["terrain"] == "floor").expect("floor")
            ["screen"]
            .clone();
    click(&floor);
    wait_for_state(&state_file, 30, "the selection to clear", |s| s["selected"].is_null());
}

/// Moves the mouse to `at` on the map and waits until the map has it there (so a click lands
/// where it is meant to, however slow the frame), then clicks.
fn click_at(display: &Display, state_file: &Path, at: (f64, f64)) {
    move_on_map(display, state_file, at);
    // A moment for the hover to settle (a busy machine runs tests side by side).
    std::thread::sleep(Duration::from_millis(200));
    xdotool(display, &["click", "1"]);
}

/// Moves the mouse to `at` on a panel, waits until the app has seen the cursor there, then clicks.
fn click_panel_at(display: &Display, state_file: &Path, at: (f64, f64)) {
    move_to(display, state_file, at);
    std::thread::sleep(Duration::from_millis(200));
    xdotool(display, &["click", "1"]);
}

/// The parts of a state worth reading when a wait fails (the whole state is long).
fn brief(state: Option<Value>) -> String {
    let Some(state) = state else { return "none".into() };
    let keys = [
        "notice",
        "selected",
        "active",
        "prompt",
        "drag",
        "cursor",
        "pointer_on_map",
        "settling",
        "cell_centers",
        "map_view",
        "buttons",
        "attack",
        "attack_card",
    ];
    let mut parts: Vec<String> = keys.iter().map(|k| format!("{k}: {}", state[*k])).collect();
    let log = state["log"].as_array().map(|l| l.iter().rev().take(3).cloned().collect::<Vec<_>>()).unwrap_or_default();
    parts.push(format!("log (newest first): {log:?}"));
    parts.join("\n")
}

/// Clicks the button `name` (`ui::BUTTON_TARGETS`) once it stays where it is drawn: a new egui
/// window moves after its first frame, so the mouse goes to the reported place and the click waits
/// until the app, having seen the cursor there, still reports the button under it.
fn click_button(display: &Display, state_file: &Path, name: &str) {
    for _ in 0..10 {
        let state = wait_for_state(state_file, 30, name, |s| s["buttons"][name].is_array());
        let at = button(&state, name);
        move_to(display, state_file, at);
        let now = read_state(state_file).unwrap_or_default();
        if now["buttons"][name].is_array() {
            let there = button(&now, name);
            if (there.0 - at.0).abs() <= 1.5 && (there.1 - at.1).abs() <= 1.5 {
                xdotool(display, &["click", "1"]);
                return;
            }
        }
    }
    panic!("the button {name} never stayed in place");
}

/// Moves the mouse to `at` and waits until the app reports the cursor there.
fn move_to(display: &Display, state_file: &Path, at: (f64, f64)) {
    let [x, y] = self::at(at);
    xdotool(display, &["mousemove", &x, &y]);
    wait_for_state(state_file, 30, "the cursor to arrive", |s| near(&s["cursor"], at));
}

/// Moves the cursor to `at` on the map, and waits until the map has it (no panel over it): a
/// press there is the map's.
fn move_on_map(display: &Display, state_file: &Path, at: (f64, f64)) {
    move_to(display, state_file, at);
    wait_for_state(state_file, 30, "the map to have the pointer", |s| near(&s["pointer_on_map"], at));
}

/// Whether a state file's point is within a pixel and a half of `at`.
fn near(point: &Value, at: (f64, f64)) -> bool {
    point.as_array().is_some_and(|c| {
        let (cx, cy) = (c[0].as_f64().unwrap_or(-1e9), c[1].as_f64().unwrap_or(-1e9));
        (cx - at.0).abs() <= 1.5 && (cy - at.1).abs() <= 1.5
    })
}

/// Runs xdotool on the test's display.
fn xdotool(display: &Display, args: &[&str]) {
    let status = Command::new("xdotool").args(args).env("DISPLAY", &display.name).status().expect("xdotool runs");
    assert!(status.success(), "xdotool {args:?}");
}

/// A screen position as xdotool's arguments.
fn at(p: (f64, f64)) -> [String; 2] {
    [p.0.round().to_string(), p.1.round().to_string()]
}

/// Opens the tavern with a state file named `name`, and waits for its map to settle.
fn open_tavern(display: &Display, name: &str) -> (Running, PathBuf, Value) {
    open_scene(display, "scenes/tavern_brawl.ron", name, None)
}

/// Opens `scene` at 1280x800 with a state file named `name` (and the dice's `seed`), and waits for
/// its map to settle.
fn open_scene(display: &Display, scene: &str, name: &str, seed: Option<&str>) -> (Running, PathBuf, Value) {
    let state_file = out_dir().join(format!("{name}.json"));
    let _ = std::fs::remove_file(&state_file);
    let mut args = vec![scene, "--state-file", state_file.to_str().expect("utf-8"), "--window", "1280x800"];
    args.extend(seed.map(|seed| ["--seed", seed]).into_iter().flatten());
    let running = Running::start(display, &args);
    let state = wait_for_settled_map(&state_file);
    (running, state_file, state)
}

/// The app running in the background, killed when dropped.
struct Running(Child);

impl Running {
    fn start(display: &Display, args: &[&str]) -> Self {
        Self(app(display, args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("the app starts"))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The screen position of a cell's centre, from the state file's affine map.
fn cell_on_screen(state: &Value, x: i32, y: i32) -> (f64, f64) {
    let map = &state["cell_centers"];
    let get = |key: &str, i: usize| map[key][i].as_f64().expect("number");
    let (x, y) = (f64::from(x), f64::from(y));
    (
        get("origin", 0) + x * get("per_x", 0) + y * get("per_y", 0),
        get("origin", 1) + x * get("per_x", 1) + y * get("per_y", 1),
    )
}

/// Where the button `name` (`ui::BUTTON_TARGETS`) was drawn.
fn button(state: &Value, name: &str) -> (f64, f64) {
    let at = &state["buttons"][name];
    match (at[0].as_f64(), at[1].as_f64()) {
        (Some(x), Some(y)) => (x, y),
        _ => panic!("the button {name} is not on screen: {}", state["buttons"]),
    }
}

fn token<'a>(state: &'a Value, id: &str) -> &'a Value {
    state["tokens"].as_array().expect("tokens").iter().find(|t| t["id"] == id).unwrap_or_else(|| panic!("{id}"))
}

#[test]
fn dragging_a_token_moves_it_and_spends_movement() {
    let display = start_display(190);
    let (_running, state_file, state) = open_tavern(&display, "drag-state");
    // Each phase waits for the app to report it, so a slow frame can't merge the steps.
    let xdotool = |args: &[&str]| xdotool(&display, args);
    let drag = |id: &str, from: (f64, f64), to: (f64, f64), to_cell: [i32; 2]| {
        move_on_map(&display, &state_file, from);
        xdotool(&["mousedown", "1"]);
        wait_for_state(&state_file, 30, "the drag to start", |s| s["drag"]["id"] == id);
        move_to(&display, &state_file, ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0));
        move_to(&display, &state_file, to);
        wait_for_state(&state_file, 30, "the drag to reach its target", |s| {
            s["drag"]["target"] == serde_json::json!(to_cell)
        });
        xdotool(&["mouseup", "1"]);
        wait_for_state(&state_file, 30, "the drop", |s| s["drag"].is_null());
    };
    // Lia (Small, speed 25) from (7, 4) three squares south to (7, 7): 15 ft.
    assert_eq!(token(&state, "lia")["anchor"], serde_json::json!([7, 4]));
    drag("lia", cell_on_screen(&state, 7, 4), cell_on_screen(&state, 7, 7), [7, 7]);
    let moved =
        wait_for_state(&state_file, 30, "Lia to move", |s| token(s, "lia")["anchor"] == serde_json::json!([7, 7]));
    assert_eq!(token(&moved, "lia")["movement_left"], 10);
    // Dropped on a table: she snaps back, and the reason is shown.
    drag("lia", cell_on_screen(&moved, 7, 7), cell_on_screen(&moved, 8, 7), [8, 7]);
    let refused = wait_for_state(&state_file, 30, "the refusal", |s| {
        s["notice"].as_str().is_some_and(|n| n.contains("can't move"))
    });
    assert_eq!(token(&refused, "lia")["anchor"], serde_json::json!([7, 7]));
    assert!(refused["notice"].as_str().is_some_and(|n| n.contains("blocked: table")), "{}", refused["notice"]);
    // Issue 39, item 1: Ctrl+Z takes the move back, and every health bar is still drawn filled
    // (an undo respawns the tokens; their bars were left clear over their dark backs), after a
    // Redo too.
    xdotool(&["search", "--name", "battlemap", "windowfocus", "--sync"]);
    let clear = |t: &&Value| !t["health_bar"].is_null() && t["health_bar"]["fill_alpha"].as_f64() < Some(0.5);
    for (keys, at) in [("ctrl+z", [7, 4]), ("ctrl+y", [7, 7])] {
        xdotool(&["key", keys]);
        let after = wait_for_state(&state_file, 30, "the move undone or redone", |s| {
            token(s, "lia")["anchor"] == serde_json::json!(at)
        });
        std::thread::sleep(Duration::from_millis(500));
        let after = read_state(&state_file).unwrap_or(after);
        let clear: Vec<&Value> =
            after["tokens"].as_array().expect("tokens").iter().filter(clear).map(|t| &t["id"]).collect();
        assert!(clear.is_empty(), "after {keys}, the health bars of {clear:?} are drawn clear");
    }
}

#[test]
fn hovering_shows_cover_and_the_template_covers_cells() {
    let display = start_display(240);
    let (_running, state_file, state) = open_tavern(&display, "cover-state");
    let xdotool = |args: &[&str]| xdotool(&display, args);
    // Select the bandit captain, then hover Brom: no one stands between them.
    click_at(&display, &state_file, cell_on_screen(&state, 14, 5));
    wait_for_state(&state_file, 30, "the captain to be selected", |s| s["selected"] == "captain");
    move_to(&display, &state_file, cell_on_screen(&state, 3, 5));
    let hovered = wait_for_state(&state_file, 30, "the cover preview", |s| s["cover_preview"]["target"] == "Brom");
    assert_eq!(hovered["cover_preview"]["degree"], "none");
    // The hovered token's name is drawn, big enough to read (issue 39).
    let named = wait_for_state(&state_file, 30, "Brom's name", |s| token(s, "brom")["name_px"].is_number());
    assert!(token(&named, "brom")["name_px"].as_f64() >= Some(10.9), "{}", token(&named, "brom"));
    // The template tool (T, with the window focused): a 20-ft sphere centred on the intersection
    // (8, 4) covers 52 squares, Lia and Sera among the creatures inside.
    let window = Command::new("xdotool")
        .args(["search", "--name", "battlemap"])
        .env("DISPLAY", &display.name)
        .output()
        .expect("xdotool runs");
    let window = String::from_utf8_lossy(&window.stdout).lines().next().unwrap_or_default().to_owned();
    xdotool(&["windowfocus", &window]);
    xdotool(&["key", "t"]);
    wait_for_state(&state_file, 30, "the template tool", |s| s["template"].is_object());
    let corner = cell_on_screen(&state, 8, 4);
    let half = state["cell_centers"]["per_x"][0].as_f64().expect("cell width") / 2.0;
    click_at(&display, &state_file, (corner.0 - half, corner.1 - half));
    let placed = wait_for_state(&state_file, 30, "the template to be placed", |s| s["template"]["placed"] == true);
    assert_eq!(placed["template"]["cells"], 52);
    let inside = placed["template"]["inside"].as_array().expect("inside");
    assert!(inside.contains(&serde_json::json!("Lia")) && inside.contains(&serde_json::json!("Sera")), "{inside:?}");
}

/// A hotseat turn with the mouse: open the market chase's setup with C, start it, take the
/// first participant's turn (Dash, run, end) and see the screen handed to the next participant.
/// With seed 7 that is Brom, whose player sits at the east edge (issue 30): his cards are drawn
/// there, turned a quarter, and the mouse clicks their buttons where they are drawn.
#[test]
fn a_hotseat_chase_turn_with_the_mouse() {
    let display = start_display(300);
    let (_running, state_file, state) = open_scene(&display, "scenes/market_chase.ron", "chase-state", Some("7"));
    assert!(state["notice"].as_str().is_some_and(|n| n.contains("has a chase")), "{}", state["notice"]);
    xdotool(&display, &["search", "--name", "battlemap", "windowfocus", "--sync"]);
    xdotool(&display, &["key", "c"]);
    // A button's place once it has stayed put for a moment: egui windows size themselves over
    // their first frames, and a slow frame could otherwise send the click to where it was.
    let target = |_: &Value, name: &str| -> (f64, f64) {
        let mut previous = None;
        loop {
            let state = wait_for_state(&state_file, 30, name, |s| s["chase"]["targets"][name].is_array());
            let at = &state["chase"]["targets"][name];
            let here = (at[0].as_f64().expect("x"), at[1].as_f64().expect("y"));
            if previous == Some(here) {
                return here;
            }
            previous = Some(here);
            std::thread::sleep(Duration::from_millis(300));
        }
    };
    let click = |p: (f64, f64)| click_panel_at(&display, &state_file, p);
    let setup =
        wait_for_state(&state_file, 30, "the setup window", |s| s["chase"]["targets"]["chase.start"].is_array());
    click(target(&setup, "chase.start"));
    let handover =
        wait_for_state(&state_file, 30, "the hand-over card", |s| s["chase"]["targets"]["chase.begin"].is_array());
    assert_eq!(handover["chase"]["stage"], "handover");
    let first = handover["chase"]["next"].as_str().expect("someone is next").to_owned();
    assert_eq!(first, "brom");
    let begin = target(&handover, "chase.begin");
    assert!(begin.0 > 1280.0 - 200.0, "the hand-over card is against the east edge: {begin:?}");
    click(begin);
    let turn = wait_for_state(&state_file, 30, "the turn card", |s| s["chase"]["targets"]["chase.dash"].is_array());
    assert_eq!(turn["chase"]["acting"], first.as_str());
    let position = |s: &Value| {
        s["chase"]["participants"]
            .as_array()
            .expect("participants")
            .iter()
            .find(|p| p["id"] == first.as_str())
            .expect("acting")["position"]
            .as_i64()
            .expect("feet")
    };
    let start = position(&turn);
    let speed = turn["chase"]["movement_left"].as_u64().expect("movement");
    click(target(&turn, "chase.dash"));
    let dashed =
        wait_for_state(&state_file, 30, "the Dash", |s| s["chase"]["movement_left"].as_u64() == Some(2 * speed));
    click(target(&dashed, "chase.move_all"));
    let moved = wait_for_state(&state_file, 30, "the run", |s| s["chase"]["movement_left"] == 0);
    assert_eq!(position(&moved) - start, 2 * speed as i64, "a dashing quarry runs twice its speed");
    click(target(&moved, "chase.end"));
    let next = wait_for_state(&state_file, 30, "the next hand-over", |s| {
        s["chase"]["stage"] == "handover" && s["chase"]["acting"].is_null()
    });
    assert_ne!(next["chase"]["next"], first.as_str(), "the screen passes on");
    assert!(next["chase"]["events"].as_u64() > moved["chase"]["events"].as_u64(), "the complication roll is logged");
    let _ = Command::new("import")
        .args(["-window", "root", out_dir().join("chase.png").to_str().expect("utf-8")])
        .env("DISPLAY", &display.name)
        .status();
}

/// A fight with the mouse: select Lia, pick her shortbow (key 2), hover a thug to read the attack
/// card, and click him until an arrow lands: his hit points drop by the logged damage and the
/// health bar drawn over his token shrinks to match.
#[test]
fn attacking_with_the_mouse_drops_the_health_bar() {
    let display = start_display(330);
    let (_running, state_file, state) = open_tavern(&display, "fight-state");
    let screen = |state: &Value, id: &str| {
        let at = &token(state, id)["screen"];
        (at[0].as_f64().expect("x"), at[1].as_f64().expect("y"))
    };
    let bar = |state: &Value| {
        let bar = &token(state, "thug-1")["health_bar"];
        (bar["fill_px"].as_f64().expect("fill"), bar["full_px"].as_f64().expect("full"))
    };
    let (fill, full) = bar(&state);
    assert!(full > 10.0 && (fill - full).abs() < 0.5, "a full bar at the start: {fill} of {full}");
    // The DM's view, behind its confirmation: it shows a monster's exact bar (the players see
    // healthy, bloodied or down), and Start turn on the card while a fight runs.
    click_button(&display, &state_file, "status.dm_view");
    click_button(&display, &state_file, "dm.confirm");
    wait_for_state(&state_file, 30, "the DM's view", |s| s["buttons"]["status.dm_view"].is_null());
    // The banner takes a strip of the window: the map is framed again.
    std::thread::sleep(Duration::from_millis(500));
    let state = wait_for_settled_map(&state_file);
    click_at(&display, &state_file, screen(&state, "lia"));
    wait_for_state(&state_file, 30, "Lia to be selected", |s| s["selected"] == "lia");
    xdotool(&display, &["search", "--name", "battlemap", "windowfocus", "--sync"]);
    xdotool(&display, &["key", "2"]);
    wait_for_state(&state_file, 30, "the shortbow to be picked", |s| s["attack"] == "Shortbow");
    move_to(&display, &state_file, screen(&state, "thug-1"));
    let card = wait_for_state(&state_file, 30, "the attack card", |s| s["attack_card"].is_object());
    let lines: Vec<&str> =
        card["attack_card"]["lines"].as_array().expect("lines").iter().filter_map(Value::as_str).collect();
    assert_eq!(card["attack_card"]["allowed"], true, "{lines:?}");
    assert!(lines[0].starts_with("Shortbow vs Thug: range 80/320 ft"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("AC to beat: 11")), "{lines:?}");
    // One Attack action a turn: after a miss, the card's Start turn gives Lia her next turn.
    let mut last = card;
    for _ in 0..12 {
        let logged = last["log"].as_array().map_or(0, Vec::len);
        xdotool(&display, &["click", "1"]);
        last = wait_for_state(&state_file, 30, "the attack to be rolled", |s| {
            s["log"].as_array().is_some_and(|l| l.len() > logged)
        });
        if token(&last, "thug-1")["hp"] != 32 {
            break;
        }
        click_button(&display, &state_file, "card.start_turn");
        wait_for_state(&state_file, 30, "Lia's next turn", |s| s["active"] == "lia");
        move_to(&display, &state_file, screen(&state, "thug-1"));
        last = wait_for_state(&state_file, 30, "the attack card", |s| s["attack_card"]["allowed"] == true);
    }
    let hp = token(&last, "thug-1")["hp"].as_i64().expect("hp");
    assert!(hp < 32, "an arrow landed in twelve tries: {:#?}", last["log"]);
    let log: Vec<&str> = last["log"].as_array().expect("log").iter().filter_map(Value::as_str).collect();
    let damage = log.iter().rev().find(|l| l.contains("Shortbow damage to Thug")).expect("the damage roll is logged");
    let dealt: i64 = damage
        .split(": ")
        .find_map(|part| {
            part.split_whitespace().next().and_then(|n| n.parse().ok()).filter(|_| part.contains("piercing"))
        })
        .expect("the damage dealt");
    assert_eq!(32 - hp, dealt, "{damage}");
    let drawn = wait_for_state(&state_file, 30, "the bar to shrink", |s| bar(s).0 < bar(s).1 - 0.5);
    let (fill, full) = bar(&drawn);
    assert!((fill / full - hp as f64 / 32.0).abs() < 0.03, "the bar shows {hp}/32: {fill} of {full} px");
}

/// An opportunity attack with the mouse: Brom steps beside a thug, starts his turn from his card,
/// and is dragged away: the path preview marks where he provokes and from whom, the drop stops him
/// there with the prompt, "Opportunity attack" is clicked, the attack is in the log, and the move
/// goes on.
#[test]
fn dragging_past_an_enemy_asks_for_the_opportunity_attack() {
    let display = start_display(250);
    let (_running, state_file, state) = open_scene(&display, "scenes/tavern_brawl.ron", "reaction-state", Some("5"));
    let drag = |from: (i32, i32), to: (i32, i32), before_drop: &dyn Fn(&Value)| {
        move_on_map(&display, &state_file, cell_on_screen(&state, from.0, from.1));
        xdotool(&display, &["mousedown", "1"]);
        wait_for_state(&state_file, 30, "the drag to start", |s| s["drag"]["id"] == "brom");
        let (a, b) = (cell_on_screen(&state, from.0, from.1), cell_on_screen(&state, to.0, to.1));
        move_to(&display, &state_file, ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0));
        move_to(&display, &state_file, b);
        let there = wait_for_state(&state_file, 30, "the drag to reach its target", |s| {
            s["drag"]["target"] == serde_json::json!([to.0, to.1])
        });
        before_drop(&there);
        xdotool(&display, &["mouseup", "1"]);
        wait_for_state(&state_file, 30, "the drop", |s| s["drag"].is_null());
    };
    drag((3, 5), (5, 7), &|_| {});
    wait_for_state(&state_file, 30, "Brom beside the thug", |s| {
        token(s, "brom")["anchor"] == serde_json::json!([5, 7]) && s["selected"] == "brom"
    });
    click_button(&display, &state_file, "card.start_turn");
    wait_for_state(&state_file, 30, "Brom's turn", |s| s["active"] == "brom");
    drag((5, 7), (2, 7), &|s: &Value| {
        let provokes = &s["drag"]["provokes"];
        assert_eq!(provokes, &serde_json::json!([{ "reactor": "thug-1", "at": [5, 7] }]), "the preview marks it");
    });
    let asked = wait_for_state(&state_file, 30, "the prompt", |s| s["prompt"] == "opportunity");
    assert_eq!(token(&asked, "brom")["anchor"], serde_json::json!([5, 7]), "stopped before leaving the cell");
    click_button(&display, &state_file, "prompt.yes");
    let done = wait_for_state(&state_file, 30, "the move to go on", |s| {
        s["prompt"].is_null() && token(s, "brom")["anchor"] == serde_json::json!([2, 7])
    });
    let log: Vec<&str> = done["log"].as_array().expect("log").iter().filter_map(Value::as_str).collect();
    assert!(log.iter().any(|l| l.contains("Mace opportunity attack on Brom")), "{log:#?}");
    assert_eq!(done["selected"], "brom", "the creature whose turn it is stays selected after the prompt");
    // And its keys work at once: `1` picks its first attack.
    xdotool(&display, &["search", "--name", "battlemap", "windowfocus", "--sync"]);
    xdotool(&display, &["key", "1"]);
    wait_for_state(&state_file, 30, "Brom's longsword to be picked by its key", |s| s["attack"] == "Longsword");
}

/// `--frame-times` (the frame-time benchmark of docs/performance.md) draws frames, drags a token
/// through the mouse input meanwhile, prints its figures as JSON and exits; a part can be left
/// out of the picture, and the render passes' own figures can be added.
#[test]
fn the_frame_time_benchmark_times_frames_while_dragging() {
    let display = start_display(360);
    let tavern = root().join("scenes/tavern_brawl.ron");
    let run = |extra: &[&str]| -> Value {
        let mut args = vec![tavern.to_str().expect("utf-8"), "--frame-times", "6", "--window", "1280x800"];
        args.extend_from_slice(extra);
        let output = app(&display, &args).stderr(Stdio::null()).output().expect("the app runs");
        assert!(output.status.success(), "the benchmark exits cleanly: {output:?}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let line = stdout.lines().rev().find(|l| l.starts_with('{')).expect("a line of figures");
        serde_json::from_str(line).expect("the figures are JSON")
    };
    let dragged = run(&["--drag"]);
    assert_eq!(dragged["frames"], 6, "{dragged}");
    let (median, p95) = (dragged["median_ms"].as_f64().expect("median"), dragged["p95_ms"].as_f64().expect("p95"));
    assert!(median > 0.0 && p95 >= median, "{dragged}");
    assert!(dragged["first_picture_ms"].as_f64().is_some_and(|t| t > 0.0), "the first picture is timed: {dragged}");
    let tavern_ids = ["brom", "lia", "sera", "thug-1", "thug-2", "captain", "gorm", "barkeep", "rat-1", "rat-2", "keg"];
    let id = dragged["dragging"].as_str().unwrap_or_else(|| panic!("a token is being dragged: {dragged}"));
    assert!(tavern_ids.contains(&id), "{id} is a token of the tavern");
    assert_eq!(dragged["passes"], Value::Null, "passes are measured only when asked: {dragged}");
    let plain = run(&["--hide", "labels,panels", "--passes"]);
    assert_eq!(plain["dragging"], Value::Null, "{plain}");
    assert_eq!(plain["hidden"], serde_json::json!(["labels", "panels"]), "{plain}");
    // The terrain's tiles are blended (their hex corners are clear), so its pass is the
    // transparent one; it shades the map's pixels, and the copy to the window takes time.
    let terrain = &plain["passes"]["main_transparent_pass_2d"];
    assert!(terrain["fragments"].as_f64().is_some_and(|f| f > 10_000.0), "{plain}");
    assert!(plain["passes"]["upscaling"]["gpu_ms"].as_f64().is_some_and(|t| t > 0.0), "{plain}");
}

/// The editor with the mouse: `Ctrl+E` asks for the DM's view first (issue 39) and opens with it,
/// a stroke of the brush paints a wall across the floor, `Ctrl+S` saves, and the file reads back
/// with the wall.
#[test]
fn a_wall_is_painted_with_the_mouse_and_saved() {
    let display = start_display(400);
    let file = scratch("window-editor").join("tavern.ron");
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &file).expect("copy");
    let (_running, state_file, _) = open_scene(&display, file.to_str().expect("utf-8"), "editor-state", None);
    xdotool(&display, &["search", "--name", "battlemap", "windowfocus", "--sync"]);
    xdotool(&display, &["key", "ctrl+e"]);
    click_button(&display, &state_file, "dm.confirm");
    wait_for_state(&state_file, 30, "the editor to open", |s| s["editing"] == true);
    // The editor's panel is wider than the roster: the map is framed again.
    let state = wait_for_settled_map(&state_file);
    move_on_map(&display, &state_file, cell_on_screen(&state, 6, 5));
    xdotool(&display, &["mousedown", "1"]);
    wait_for_state(&state_file, 30, "the stroke to start", |s| s["stroke"] == serde_json::json!([6, 5]));
    for x in [7, 8, 9] {
        move_to(&display, &state_file, cell_on_screen(&state, x, 5));
    }
    xdotool(&display, &["mouseup", "1"]);
    xdotool(&display, &["key", "ctrl+s"]);
    wait_for_state(&state_file, 30, "the save", |s| s["notice"].as_str().is_some_and(|n| n.starts_with("Saved ")));
    let saved = battlemap::scenario::Scenario::load(&file).expect("the saved file loads");
    for x in 6..=9 {
        let terrain = saved.map.terrain(battlemap::rules::Cell::new(x, 5)).map(|t| t.name.clone());
        assert_eq!(terrain.as_deref(), Some("wall"), "({x}, 5)");
    }
    assert_eq!(saved.map.terrain(battlemap::rules::Cell::new(10, 5)).map(|t| t.name.as_str()), Some("floor"));
    assert_eq!(saved.tokens.len(), 11, "every token is saved");
}

/// A siege weapon worked with the mouse (DMG "Siege Equipment"): a soldier of the ram's crew is
/// selected, "Ram at..." on his card picks the ram, hovering the gate shows the ram's ruling, and
/// the click strikes it: the strike is in the log, and the soldier's action is spent.
#[test]
fn the_ram_is_swung_at_the_gate_with_the_mouse() {
    let display = start_display(380);
    let (_running, state_file, state) = open_scene(&display, "scenes/castle_siege.ron", "siege-state", Some("5"));
    click_at(&display, &state_file, cell_on_screen(&state, 12, 6));
    wait_for_state(&state_file, 30, "the soldier selected", |s| s["selected"] == "soldier-1");
    click_button(&display, &state_file, "card.siege");
    move_to(&display, &state_file, cell_on_screen(&state, 13, 4));
    let card = wait_for_state(&state_file, 30, "the ram's ruling on the gate", |s| s["attack_card"]["allowed"] == true);
    let lines: Vec<&str> =
        card["attack_card"]["lines"].as_array().expect("lines").iter().filter_map(Value::as_str).collect();
    assert!(lines[0].starts_with("Ram vs Gate"), "{lines:?}");
    click_at(&display, &state_file, cell_on_screen(&state, 13, 4));
    let done = wait_for_state(&state_file, 30, "the strike in the log", |s| {
        s["log"]
            .as_array()
            .is_some_and(|log| log.iter().any(|l| l.as_str().is_some_and(|l| l.contains("Ram attack on Gate"))))
    });
    let log: Vec<&str> = done["log"].as_array().expect("log").iter().filter_map(Value::as_str).collect();
    assert!(log[0].starts_with("Soldier's ram rolled 1d20+8"), "{log:#?}");
}

/// Drags the token `id` from the cell `from` to the cell `to` with the left button, each phase
/// waiting for the app to report it.
fn drag_token(display: &Display, state_file: &Path, state: &Value, id: &str, from: (i32, i32), to: (i32, i32)) {
    let (a, b) = (cell_on_screen(state, from.0, from.1), cell_on_screen(state, to.0, to.1));
    move_on_map(display, state_file, a);
    xdotool(display, &["mousedown", "1"]);
    wait_for_state(state_file, 30, "the drag to start", |s| s["drag"]["id"] == id);
    move_to(display, state_file, ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0));
    move_to(display, state_file, b);
    wait_for_state(state_file, 30, "the drag to reach its target", |s| {
        s["drag"]["target"] == serde_json::json!([to.0, to.1])
    });
    xdotool(display, &["mouseup", "1"]);
    wait_for_state(state_file, 30, "the drop", |s| s["drag"].is_null());
}

/// What of a state must come back after a kill: each token's place, hit points, state, conditions
/// and movement left, whose turn it is, the round and the initiative, the roll log, the dice's
/// position and the reaction prompt.
fn game_of(state: &Value) -> Value {
    let mut tokens: Vec<Value> = state["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .map(|t| {
            let keep = ["id", "anchor", "hp", "max_hp", "life", "conditions", "movement_left"];
            Value::Object(keep.iter().map(|k| ((*k).to_owned(), t[*k].clone())).collect())
        })
        .collect();
    // In id order: the entities, and so the order of the state file's tokens, are new.
    tokens.sort_by_key(|t| t["id"].as_str().map(str::to_owned));
    serde_json::json!({
        "tokens": tokens,
        "active": state["active"],
        "round": state["round"],
        "initiative": state["initiative"],
        "log": state["log"],
        "dice_position": state["dice_position"],
        "prompt": state["prompt"],
    })
}

/// Waits until the autosave holds the game the state file shows: the session file names as many
/// rolls as the log shows, and the dice's position; its journal gives them all back; every token
/// stands where it is shown with its hit points; and a prompt is saved if one is up.
fn wait_for_autosave(session: &Path, state_file: &Path) -> Value {
    use battlemap::app::features::session::{file::SessionFile, journal};
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state = read_state(state_file).unwrap_or_default();
        let saved = SessionFile::load(session).ok().filter(|saved| {
            let file = &saved.file;
            let back = journal::read(&journal::journal_path(session), file.rolls, file.log_digest);
            let shown = |id: &str| state["tokens"].as_array().and_then(|t| t.iter().find(|t| t["id"] == id).cloned());
            back.loss.is_none()
                && state["log"].as_array().is_some_and(|log| log.len() == file.rolls)
                && state["dice_position"] == file.dice_position.to_string()
                && saved.snapshot.reactions.interrupted.is_some() == (state["prompt"] == "opportunity")
                && saved.snapshot.board.tokens.iter().all(|t| {
                    shown(&t.id).is_some_and(|s| {
                        s["anchor"] == serde_json::json!([t.anchor.x, t.anchor.y])
                            && (s["hp"].is_null() || s["hp"] == t.hp)
                    })
                })
        });
        if saved.is_some() {
            return state;
        }
        assert!(Instant::now() < deadline, "the autosave never caught up with {}", brief(Some(state)));
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Kills the app with SIGKILL, as the machine dying would (no handler runs, nothing is flushed),
/// and checks that it died of it.
fn kill_hard(mut running: Running) {
    use std::os::unix::process::ExitStatusExt;
    let child = &mut running.0;
    let killed = Command::new("kill").args(["-KILL", &child.id().to_string()]).status().expect("kill runs");
    assert!(killed.success(), "kill -9 {}", child.id());
    let status = child.wait().expect("the app is reaped");
    assert_eq!(status.signal(), Some(9), "the app died of SIGKILL: {status:?}");
}

/// Takes a screenshot with `F12` (into the app's working directory, `dir`) and copies it beside
/// the other screenshots as `name`.
fn screenshot_with_f12(display: &Display, state_file: &Path, dir: &Path, name: &str) -> image::RgbImage {
    let taken = dir.join("battlemap-1.png");
    let _ = std::fs::remove_file(&taken);
    xdotool(display, &["search", "--name", "battlemap", "windowfocus", "--sync"]);
    xdotool(display, &["key", "F12"]);
    wait_for_state(state_file, 30, "the screenshot", |s| {
        s["notice"].as_str().is_some_and(|n| n.contains("battlemap-1.png"))
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let image = loop {
        // Written once the frame is read back: a file not yet whole doesn't decode.
        if let Ok(image) = image::open(&taken) {
            break image.to_rgb8();
        }
        assert!(Instant::now() < deadline, "no screenshot at {}", taken.display());
        std::thread::sleep(Duration::from_millis(200));
    };
    std::fs::copy(&taken, out_dir().join(name)).expect("copied");
    image
}

/// Issue 29, "A game that survives the machine dying": a fight in a copy of the tavern with the
/// mouse and the keys (Brom dragged beside a thug, `N` rolls initiative and passes the turns to
/// his, his longsword picked with `1` and swung with a click), the app killed with SIGKILL once its
/// autosave caught up, and started again on the same scenario with another seed: the tokens,
/// hit points, turn, initiative, roll log and dice's position are as after the attack. Then
/// Brom is dragged out of the thug's reach, and the app killed while the opportunity attack's
/// prompt waits: started again, the prompt is up, Brom where the move stopped; answered, the
/// attack is rolled and the move goes on.
#[test]
fn a_game_killed_mid_fight_comes_back_as_after_its_last_action() {
    let display = start_display(420);
    let dir = scratch("window-killed");
    let scene = dir.join("tavern.ron");
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &scene).expect("copy");
    std::fs::create_dir_all(dir.join("tokens")).expect("a directory");
    for portrait in std::fs::read_dir(root().join("scenes/tokens")).expect("the portraits").flatten() {
        std::fs::copy(portrait.path(), dir.join("tokens").join(portrait.file_name())).expect("copy");
    }
    let session = dir.join("tavern.session.json");
    let state_file = out_dir().join("killed-state.json");
    let start = |seed: &str| -> (Running, Value) {
        let _ = std::fs::remove_file(&state_file);
        let args = [
            scene.to_str().expect("utf-8"),
            "--session",
            session.to_str().expect("utf-8"),
            "--state-file",
            state_file.to_str().expect("utf-8"),
            "--window",
            "1280x800",
            "--seed",
            seed,
        ];
        let mut command = app(&display, &args);
        // F12 saves its screenshots in the working directory: the game's own.
        command.current_dir(&dir);
        let running = Running(command.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("the app starts"));
        let state = wait_for_settled_map(&state_file);
        (running, state)
    };
    let key = |key: &str| {
        xdotool(&display, &["search", "--name", "battlemap", "windowfocus", "--sync"]);
        xdotool(&display, &["key", key]);
    };

    let (running, state) = start("5");
    assert!(state["log"].as_array().is_some_and(Vec::is_empty), "a new game");
    drag_token(&display, &state_file, &state, "brom", (3, 5), (5, 7));
    wait_for_state(&state_file, 30, "Brom beside the thug", |s| {
        token(s, "brom")["anchor"] == serde_json::json!([5, 7])
    });
    key("n");
    let rolled = wait_for_state(&state_file, 30, "initiative", |s| s["active"].is_string() && s["round"] == 1);
    let order: Vec<&str> = rolled["initiative"]["entries"]
        .as_array()
        .expect("the order")
        .iter()
        .filter_map(|e| e["id"].as_str())
        .collect();
    assert!(order.len() >= 2 && order.contains(&"brom"), "the fight's creatures rolled initiative: {order:?}");
    // The others pass their turns (`N` again) until Brom's, which selects him.
    for _ in 0..order.len() {
        let now = read_state(&state_file).unwrap_or_default();
        if now["active"] == "brom" {
            break;
        }
        let turn = now["active"].clone();
        key("n");
        wait_for_state(&state_file, 30, "the next turn", |s| s["active"] != turn);
    }
    wait_for_state(&state_file, 30, "Brom's turn", |s| s["active"] == "brom" && s["selected"] == "brom");
    // The initiative panel took a strip of the window: the map is framed again.
    let state = wait_for_settled_map(&state_file);
    key("1");
    wait_for_state(&state_file, 30, "the longsword to be picked", |s| s["attack"] == "Longsword");
    let thug = &token(&state, "thug-1")["screen"];
    move_on_map(&display, &state_file, (thug[0].as_f64().expect("x"), thug[1].as_f64().expect("y")));
    let card = wait_for_state(&state_file, 30, "the attack card", |s| s["attack_card"]["allowed"] == true);
    let logged = card["log"].as_array().map_or(0, Vec::len);
    xdotool(&display, &["click", "1"]);
    wait_for_state(&state_file, 30, "the attack to be rolled", |s| {
        s["log"].as_array().is_some_and(|l| l.len() > logged)
    });
    let attacked = wait_for_autosave(&session, &state_file);
    let log: Vec<&str> = attacked["log"].as_array().expect("log").iter().filter_map(Value::as_str).collect();
    assert!(log.iter().any(|l| l.contains("Longsword attack on Thug")), "{log:#?}");
    kill_hard(running);

    let (running, back) = start("6");
    assert!(back["notice"].as_str().is_some_and(|n| n.starts_with("Restored the game")), "{}", back["notice"]);
    assert_eq!(game_of(&back), game_of(&attacked), "the game as after the attack");
    let picture = screenshot_with_f12(&display, &state_file, &dir, "killed-restored.png");
    assert_eq!((picture.width(), picture.height()), (1280, 800));

    // Brom walks away from the thug: the prompt is up when the app dies.
    drag_token(&display, &state_file, &back, "brom", (5, 7), (2, 7));
    wait_for_state(&state_file, 30, "the prompt", |s| s["prompt"] == "opportunity");
    let asked = wait_for_autosave(&session, &state_file);
    assert_eq!(token(&asked, "brom")["anchor"], serde_json::json!([5, 7]), "stopped before leaving the cell");
    kill_hard(running);

    let (_running, again) = start("7");
    assert_eq!(game_of(&again), game_of(&asked), "the game as the prompt found it, the prompt up");
    screenshot_with_f12(&display, &state_file, &dir, "killed-prompt.png");
    let logged = again["log"].as_array().map_or(0, Vec::len);
    click_button(&display, &state_file, "prompt.yes");
    let done = wait_for_state(&state_file, 30, "the move to go on", |s| {
        s["prompt"].is_null() && token(s, "brom")["anchor"] == serde_json::json!([2, 7])
    });
    let log: Vec<&str> = done["log"].as_array().expect("log").iter().filter_map(Value::as_str).collect();
    assert!(log[logged..].iter().any(|l| l.contains("Mace opportunity attack on Brom")), "{log:#?}");
    wait_for_autosave(&session, &state_file);
}

/// What a start can't restore stays on screen (issue 38, item 5): a session file that doesn't
/// load is said on a notice above the bar, and a later notice of the same start (a portrait that
/// can't be shown) doesn't put it out; Dismiss takes it off.
#[test]
fn a_game_not_restored_stays_on_screen_until_dismissed() {
    let display = start_display(480);
    let dir = scratch("window-not-restored");
    let scene = dir.join("tavern.ron");
    // Without its portraits: the start says so after the autosave's notice.
    std::fs::copy(root().join("scenes/tavern_brawl.ron"), &scene).expect("copy");
    let session = dir.join("tavern.session.json");
    std::fs::write(&session, "{ not json").expect("a damaged session file");
    let state_file = out_dir().join("not-restored-state.json");
    let _ = std::fs::remove_file(&state_file);
    let args = [
        scene.to_str().expect("utf-8"),
        "--session",
        session.to_str().expect("utf-8"),
        "--state-file",
        state_file.to_str().expect("utf-8"),
        "--window",
        "1280x800",
    ];
    let mut command = app(&display, &args);
    command.current_dir(&dir);
    let _running = Running(command.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("the app starts"));
    wait_for_settled_map(&state_file);
    let state = wait_for_state(&state_file, 30, "the portraits' notice", |s| {
        s["notice"].as_str().is_some_and(|n| n.contains("the token keeps its disc"))
    });
    let pinned: Vec<&str> = state["pinned"].as_array().expect("pinned").iter().filter_map(Value::as_str).collect();
    assert_eq!(pinned.len(), 1, "{pinned:?}");
    assert!(pinned[0].starts_with("The autosave was not restored"), "{}", pinned[0]);
    assert!(pinned[0].contains("tavern.session.json.old"), "says where it is kept: {}", pinned[0]);
    assert_eq!(std::fs::read(dir.join("tavern.session.json.old")).expect("kept"), b"{ not json");
    screenshot_with_f12(&display, &state_file, &dir, "not-restored.png");
    click_button(&display, &state_file, "pinned.dismiss");
    wait_for_state(&state_file, 30, "the notice to go", |s| s["pinned"].as_array().is_some_and(Vec::is_empty));
}

/// The fog of war in the players' view (issue 30): a floor cell no creature of the party sees is
/// dark, one they see is lit, the cells chosen by `query fog`; and `--no-fog` shows the unseen one
/// lit. In the dungeon corridor, whose walls hide half of it, and in the tavern at night (the
/// tavern in the dark, Brom carrying a torch): in the tavern by day the party sees every floor
/// cell (`query scenes/tavern_brawl.ron fog` leaves only two corners of wall unseen).
#[test]
fn the_players_view_is_dark_where_the_party_cannot_see() {
    let night = scratch("tavern-at-night");
    let tavern = std::fs::read_to_string(root().join("scenes/tavern_brawl.ron")).expect("the tavern");
    let dark = tavern.replacen("    grid: Square,\n", "    grid: Square,\n    light: Dark,\n", 1).replacen(
        "at: (3, 5), speed: 25, ac: 18, hp: 31,",
        "at: (3, 5), speed: 25, ac: 18, hp: 31, light: (bright: 20, dim: 20),",
        1,
    );
    assert_ne!(dark, tavern, "the tavern is darkened and Brom carries a torch");
    std::fs::write(night.join("tavern_at_night.ron"), dark).expect("writes");
    #[cfg(unix)]
    std::os::unix::fs::symlink(root().join("scenes/tokens"), night.join("tokens")).expect("the portraits beside it");
    let display = start_display(460);
    for (scene, name) in
        [(root().join("scenes/dungeon_corridor.ron"), "corridor"), (night.join("tavern_at_night.ron"), "tavern")]
    {
        dark_where_the_party_cannot_see(&display, &scene, name);
    }
}

fn dark_where_the_party_cannot_see(display: &Display, scene: &Path, name: &str) {
    let path = scene.to_str().expect("utf-8");
    let (code, out, err) = super::cli::battlemap(&["query", path, "fog"]);
    assert_eq!(code, 0, "{err}");
    let fog: Value = serde_json::from_str(&out).expect("JSON");
    let scenario = battlemap::scenario::Scenario::load(scene).expect("valid");
    let floor = |list: &str| -> Vec<(i32, i32)> {
        fog[list]
            .as_array()
            .expect("cells")
            .iter()
            .map(|c| (c[0].as_i64().expect("x") as i32, c[1].as_i64().expect("y") as i32))
            .filter(|&(x, y)| {
                let cell = battlemap::rules::Cell::new(x, y);
                scenario.map.terrain(cell).is_some_and(|t| t.name == "floor")
                    && !scenario.tokens.iter().any(|t| t.cells(scenario.grid).contains(&cell))
            })
            .collect()
    };
    let (seen, unseen) = (floor("seen"), floor("unseen"));
    assert!(!seen.is_empty() && !unseen.is_empty(), "{name}: floor the party sees and floor it doesn't: {fog}");
    let shot = |fogged: bool| {
        let stem = format!("fog-{name}-{}", if fogged { "players" } else { "off" });
        let png = out_dir().join(format!("{stem}.png"));
        let state_file = out_dir().join(format!("{stem}.json"));
        let mut args = vec![
            path,
            "--screenshot",
            png.to_str().expect("utf-8"),
            "--frames",
            "20",
            "--state-file",
            state_file.to_str().expect("utf-8"),
            "--window",
            "1280x800",
        ];
        if !fogged {
            args.push("--no-fog");
        }
        let output = app(display, &args).output().expect("the app runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let image = image::open(&png).expect("a screenshot").to_rgb8();
        (image, read_state(&state_file).expect("state written"))
    };
    let brightness = |image: &image::RgbImage, state: &Value, (x, y): (i32, i32)| {
        let (sx, sy) = cell_on_screen(state, x, y);
        let (mean, _) = mean_and_spread(&patch(image, &serde_json::json!([sx, sy]), 4));
        mean.iter().map(|&v| u32::from(v)).sum::<u32>()
    };
    let (fogged, state) = shot(true);
    let (clear, clear_state) = shot(false);
    let dark = brightness(&fogged, &state, unseen[0]);
    let lit = brightness(&fogged, &state, seen[0]);
    let unfogged = brightness(&clear, &clear_state, unseen[0]);
    assert!(dark * 4 < lit, "{name}: unseen floor {:?} is {dark}, seen floor {:?} is {lit}", unseen[0], seen[0]);
    assert!(dark * 4 < unfogged, "{name}: without fog the same floor is {unfogged}, with it {dark}");
}

/// Issue 39, item 11: in the dark cellar, dim light is clearly told from bright light and from
/// darkness (darker than the one, a cold blue against the floor's browns, and brighter than the
/// other), and the sun through the grate shows warm gold where the kobolds' Sunlight Sensitivity
/// holds. Each floor cell's light is the rules' own (`Field::light_levels`, `sunlit_cells`), each
/// among the cells the party sees (the players' view fogs the rest).
#[test]
fn dim_light_darkness_and_sunlight_are_told_apart_on_the_map() {
    use battlemap::rules::light::LightLevel;
    let scene = root().join("scenes/dark_cellar.ron");
    let scenario = battlemap::scenario::Scenario::load(&scene).expect("valid");
    let fighters = scenario.fighters();
    let field = scenario.field(&fighters);
    let (levels, sunlit) = (field.light_levels().expect("a dark scene").to_vec(), field.sunlit_cells());
    // The players' view: only what the party sees is shown, in its light.
    let seen = field.party_sight();
    let occupied: Vec<battlemap::rules::Cell> = fighters.iter().flat_map(|f| f.cells.clone()).collect();
    // Floor cells, none under a token or its name (the cell below) nor a lamp, by their light.
    let lamps: Vec<battlemap::rules::Cell> = scenario.lights.iter().map(|(cell, _)| *cell).collect();
    let floor = |wanted: &dyn Fn(usize) -> bool| -> Vec<(i32, i32)> {
        scenario
            .map
            .cells()
            .enumerate()
            .filter(|&(i, cell)| {
                wanted(i)
                    && seen[i]
                    && scenario.map.terrain(cell).is_some_and(|t| t.name == "floor")
                    && !occupied.iter().any(|o| o.x == cell.x && (cell.y - o.y == 0 || cell.y - o.y == 1))
                    && !lamps.contains(&cell)
            })
            .map(|(_, c)| (c.x, c.y))
            .collect()
    };
    let sun = |i: usize| sunlit.get(i).copied().unwrap_or(false);
    let bright = floor(&|i| levels[i] == LightLevel::Bright && !sun(i));
    let dim = floor(&|i| levels[i] == LightLevel::Dim);
    let dark = floor(&|i| levels[i] == LightLevel::Dark);
    let sunny = floor(&sun);
    assert!(
        [&bright, &dim, &dark, &sunny].iter().all(|cells| !cells.is_empty()),
        "floor in each light: {bright:?} {dim:?} {dark:?} {sunny:?}"
    );
    let display = start_display(470);
    let png = out_dir().join("light-cellar.png");
    let state_file = out_dir().join("light-cellar.json");
    let path = scene.to_str().expect("utf-8");
    let args = [path, "--screenshot", png.to_str().expect("utf-8"), "--frames", "20"];
    let more = ["--state-file", state_file.to_str().expect("utf-8"), "--window", "1280x800"];
    let output = app(&display, &[&args[..], &more[..]].concat()).output().expect("the app runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let image = image::open(&png).expect("a screenshot").to_rgb8();
    let state = read_state(&state_file).expect("state written");
    // The mean colour of the middles of some cells.
    let mean = |cells: &[(i32, i32)]| -> [f64; 3] {
        let pixels: Vec<[u8; 3]> = cells
            .iter()
            .flat_map(|&(x, y)| {
                let (sx, sy) = cell_on_screen(&state, x, y);
                patch(&image, &serde_json::json!([sx, sy]), 3)
            })
            .collect();
        let (mean, _) = mean_and_spread(&pixels);
        mean.map(f64::from)
    };
    let sum = |c: [f64; 3]| c.iter().sum::<f64>();
    let warmth = |c: [f64; 3]| c[0] - c[2];
    let (b, d, k, s) = (mean(&bright), mean(&dim), mean(&dark), mean(&sunny));
    let said = format!("bright {b:?}, dim {d:?}, dark {k:?}, sunlight {s:?}");
    assert!(sum(b) > 1.3 * sum(d), "dim light is clearly darker than bright: {said}");
    assert!(sum(d) > 1.4 * sum(k), "and clearly brighter than darkness: {said}");
    assert!(warmth(d) + 20.0 < warmth(b), "dim light is a colder hue than bright light: {said}");
    assert!(warmth(s) > warmth(b) + 10.0, "sunlight is warmer than lamplight: {said}");
}

/// Issue 39: the map owns the window. With the roster, a creature's card, the initiative and the
/// dice open over the tavern at 1280×800, at least 60% of the window shows the map, *Fit map*
/// frames the map in the part the panels leave, and the panels come back where they were after
/// a restart (the settings file beside the user's configuration).
#[test]
fn the_panels_float_over_the_map_and_leave_it_the_window() {
    let display = start_display(390);
    let scene = "scenes/tavern_brawl.ron";
    let (running, state_file, state) = open_scene(&display, scene, "panels-state", Some("5"));
    let lia = token(&state, "lia")["screen"].clone();
    click_at(&display, &state_file, (lia[0].as_f64().expect("x"), lia[1].as_f64().expect("y")));
    wait_for_state(&state_file, 30, "Lia selected", |s| s["selected"] == "lia");
    xdotool(&display, &["search", "--name", "battlemap", "windowfocus", "--sync"]);
    xdotool(&display, &["key", "n"]);
    wait_for_state(&state_file, 30, "the initiative rolled", |s| s["active"].is_string());
    xdotool(&display, &["key", "d"]);
    // The bar and four panels over the map.
    let open = wait_for_state(&state_file, 30, "four panels over the map", |s| {
        s["panels"].as_array().is_some_and(|p| p.len() == 5)
    });
    let share = open["map_share"].as_f64().expect("share");
    assert!(share >= 0.6, "the map shows in {:.0}% of the window: {}", share * 100.0, open["panels"]);
    xdotool(&display, &["key", "f"]);
    // The map's part is free of every panel, and the map's corner cells are in it.
    let scenario = battlemap::scenario::Scenario::load(&root().join(scene)).expect("the tavern");
    let (w, h) = (scenario.map.width() as i32, scenario.map.height() as i32);
    let numbers = |v: &Value| -> Vec<f64> { v.as_array().expect("rect").iter().filter_map(Value::as_f64).collect() };
    let fitted = wait_for_state(&state_file, 30, "the map fitted to the part the panels leave", |s| {
        let view = numbers(&s["map_view"]);
        let free = |r: &Value| {
            let r = numbers(r);
            r[2] <= view[0] + 1.0 || view[2] <= r[0] + 1.0 || r[3] <= view[1] + 1.0 || view[3] <= r[1] + 1.0
        };
        let inside = [(0, 0), (w - 1, h - 1)].into_iter().all(|(x, y)| {
            let (sx, sy) = cell_on_screen(s, x, y);
            (view[0]..=view[2]).contains(&sx) && (view[1]..=view[3]).contains(&sy)
        });
        view.len() == 4 && s["panels"].as_array().is_some_and(|p| p.len() == 5 && p.iter().all(free)) && inside
    });
    let before = fitted["panels"].clone();
    drop(running);
    let settings = config_dir(&display).join("battlemap").join("panels.json");
    assert!(settings.is_file(), "{} is written", settings.display());
    let (_again, state_file, _) = open_scene(&display, scene, "panels-state", Some("5"));
    let again =
        wait_for_state(&state_file, 30, "the panels back", |s| s["panels"].as_array().is_some_and(|p| p.len() >= 3));
    // Without a selection and a fight the card and the initiative have nothing to show; the
    // roster and the dice are back where they were.
    let kept = |r: &Value| before.as_array().expect("panels").contains(r);
    let panels = again["panels"].as_array().expect("panels");
    assert_eq!(
        panels.iter().filter(|r| kept(r)).count(),
        3,
        "the bar, the roster and the dice as before: {panels:?} vs {before}"
    );
    // The Table view, from the bar's Panels menu: the players see the map; every panel and the
    // bar are hidden (no fight runs: no initiative strip, no turn card) but the corner's Show
    // panels, which brings them back.
    click_button(&display, &state_file, "status.panels");
    click_button(&display, &state_file, "panels.table_view");
    let table = wait_for_state(&state_file, 30, "the table view", |s| s["buttons"]["table.show_panels"].is_array());
    let share = table["map_share"].as_f64().expect("share");
    assert!(share > 0.95, "the table view leaves the map {:.0}% of the window: {}", share * 100.0, table["panels"]);
    click_button(&display, &state_file, "table.show_panels");
    wait_for_state(&state_file, 30, "the panels back from the table view", |s| {
        s["panels"].as_array().is_some_and(|p| p.len() == 3) && s["buttons"]["table.show_panels"].is_null()
    });
}
