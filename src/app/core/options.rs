//! How the window was asked to open (from the command line): screenshots, the state file for
//! tests, the window's size, the dice's seed, timing runs and where the game is autosaved.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

/// How the window was asked to open.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct LaunchOptions {
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
    /// Time frames drawn continuously, print the figures and exit (`--frame-times`).
    pub frame_times: Option<FrameBenchmark>,
    /// When the program started, for the time to the first picture.
    pub started: Option<std::time::Instant>,
    /// Where the game in progress is autosaved and restored from.
    pub session: SessionPlace,
    /// The user's state directory ([`LaunchOptions::user_state_directory`]): where the built-in scene's game is
    /// autosaved, and any game whose own session file's place can't be used.
    pub state_directory: Option<PathBuf>,
    /// The user's configuration directory ([`LaunchOptions::user_config_directory`]): where the
    /// panels' places are kept.
    pub config_directory: Option<PathBuf>,
    /// No fog of war: the players' view shows the whole map (`--no-fog`).
    pub no_fog: bool,
}

/// What `--frame-times` measures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameBenchmark {
    /// Frames timed after the warm-up.
    pub frames: u32,
    /// Keep a token's drag going while timing.
    pub drag: bool,
    /// Parts of the picture left out, to see what each costs.
    pub hide: Vec<Part>,
    /// Report each render pass's time on the renderer and the pixels it shaded.
    pub passes: bool,
}

/// A part of the picture `--hide` can leave out of a timing run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// The terrain and its grid lines.
    Terrain,
    /// Every token with its disc, space, bar and labels.
    Tokens,
    /// The tokens' name labels (with their backing) and initials.
    Labels,
    /// The gizmo overlays: highlights, drag path, cover lines.
    Gizmos,
    /// The egui panels.
    Panels,
}

impl LaunchOptions {
    /// The user's configuration directory: `$XDG_CONFIG_HOME/battlemap`, else
    /// `~/.config/battlemap`.
    pub fn user_config_directory() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
        Some(base.join("battlemap"))
    }

    /// The user's state directory: `$XDG_STATE_HOME/battlemap`, else `~/.local/state/battlemap`.
    pub fn user_state_directory() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_STATE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/state")))?;
        Some(base.join("battlemap"))
    }

    /// Whether a timing run leaves `part` out.
    pub fn hides(&self, part: Part) -> bool {
        self.frame_times.as_ref().is_some_and(|b| b.hide.contains(&part))
    }
}

/// Where the game is autosaved, if anywhere.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SessionPlace {
    /// No autosave (screenshots, benchmarks, tests that drive the window).
    #[default]
    Off,
    /// Beside the scenario file (the built-in scene's in the user's state directory).
    Beside,
    /// In this file, whatever scenario is open.
    At(PathBuf),
}

impl SessionPlace {
    /// The session file for a scenario from `source` (`None`: the built-in one, whose game is
    /// kept in the user's state directory `state`).
    pub fn file_for(&self, source: Option<&Path>, state: Option<&Path>) -> Option<PathBuf> {
        match self {
            SessionPlace::Off => None,
            SessionPlace::At(path) => Some(path.clone()),
            SessionPlace::Beside => match source {
                Some(path) => Some(path.with_extension("session.json")),
                None => state.map(|dir| dir.join("built-in.session.json")),
            },
        }
    }
}
