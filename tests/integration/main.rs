//! The integration tests, in one binary so Bevy is linked once.

mod architecture;
mod autosave;
mod board;
mod chase;
mod cli;
mod editor;
mod effects;
mod files;
mod headless;
mod light;
mod one_answer;
mod panels;
mod robustness;
mod scenarios;
mod session;
mod siege;
mod touch;
mod turns;
mod window;

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every sample scenario shipped in `scenes/`.
pub fn sample_scenes() -> Vec<PathBuf> {
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(root().join("scenes"))
        .expect("scenes/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    scenes.sort();
    scenes
}

/// A scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("battlemap-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
