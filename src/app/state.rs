//! The loaded scenario, the selection and the user's messages, and the systems that apply
//! requests to them.

use std::path::PathBuf;

use bevy::prelude::*;

use super::AppSystems;
use super::components::TokenId;
use crate::scenario::{DEFAULT_SCENARIO_NAME, Scenario};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<GridVisible>()
        .init_resource::<Notice>()
        .init_resource::<RedrawFrames>()
        .add_message::<OpenScenario>()
        .add_message::<SelectToken>()
        .add_message::<Toggle>()
        .add_message::<ScenarioChanged>()
        .add_message::<bevy::window::RequestRedraw>()
        .add_systems(Startup, announce_first_scenario)
        .add_systems(PreUpdate, (open_scenarios, apply_selection).chain())
        .add_systems(Update, toggle_diagonal_rule.in_set(AppSystems::Apply))
        .add_systems(Last, keep_redrawing);
}

/// The scenario being played and the file it came from.
#[derive(Resource, Clone, Debug)]
pub struct LoadedScenario {
    pub scenario: Scenario,
    /// `None` for the built-in scenario.
    pub source: Option<PathBuf>,
}

impl LoadedScenario {
    pub fn from_file(scenario: Scenario, path: PathBuf) -> Self {
        Self { scenario, source: Some(path) }
    }

    pub fn built_in(scenario: Scenario) -> Self {
        Self { scenario, source: None }
    }

    pub fn source_name(&self) -> String {
        self.source.as_ref().map_or_else(|| DEFAULT_SCENARIO_NAME.to_owned(), |p| p.display().to_string())
    }
}

/// Switches a map tool or panel on or off. Its key and its button in the panels send the same
/// message; the plugin that owns the tool applies it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Toggle {
    GridLines,
    /// The optional diagonal rule (DMG "Optional Rule: Diagonals") for this session.
    Diagonals,
    Ruler,
    SightOverlay,
    Template,
    DicePanel,
}

/// Switches between the standard and the optional diagonal rule.
fn toggle_diagonal_rule(mut toggles: MessageReader<Toggle>, mut loaded: ResMut<LoadedScenario>) {
    for _ in toggles.read().filter(|t| **t == Toggle::Diagonals) {
        let rules = &mut loaded.scenario.rules;
        rules.diagonals = rules.diagonals.toggled();
    }
}

/// The selected token, if any.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection(pub Option<Entity>);

/// Whether grid lines are drawn.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GridVisible(pub bool);

impl Default for GridVisible {
    fn default() -> Self {
        Self(true)
    }
}

/// The last thing the app has to tell the user, and whether it is an error.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Notice(pub Option<(String, bool)>);

/// How many more frames to draw without input: spawning a map takes a frame or two to show, and
/// the app otherwise redraws only on input.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub(crate) struct RedrawFrames(pub u32);

/// Asks to open a scenario file, or (`path: None`) to read the current one again.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct OpenScenario {
    pub path: Option<PathBuf>,
}

/// Asks to select the token with this id, or to clear the selection.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct SelectToken(pub Option<String>);

/// Sent when a scenario has been loaded (at start and after every successful open), so the board
/// and the tokens are built again.
#[derive(Message, Clone, Copy, Debug, Default)]
pub(crate) struct ScenarioChanged;

fn announce_first_scenario(mut changed: MessageWriter<ScenarioChanged>) {
    changed.write(ScenarioChanged);
}

/// Loads requested files; a file that does not load leaves the current scenario as it was.
fn open_scenarios(
    mut requests: MessageReader<OpenScenario>,
    mut loaded: ResMut<LoadedScenario>,
    mut notice: ResMut<Notice>,
    mut selection: ResMut<Selection>,
    mut changed: MessageWriter<ScenarioChanged>,
    mut redraw: ResMut<RedrawFrames>,
) {
    for request in requests.read() {
        let path = match (&request.path, &loaded.source) {
            (Some(path), _) | (None, Some(path)) => path.clone(),
            (None, None) => {
                *loaded = LoadedScenario::built_in(Scenario::built_in());
                selection.0 = None;
                notice.0 = Some(("Reloaded the built-in scenario".to_owned(), false));
                changed.write(ScenarioChanged);
                continue;
            }
        };
        match Scenario::load(&path) {
            Ok(scenario) => {
                notice.0 = Some((format!("Opened {}", path.display()), false));
                *loaded = LoadedScenario::from_file(scenario, path);
                selection.0 = None;
                changed.write(ScenarioChanged);
            }
            Err(errors) => {
                let count = errors.0.len();
                let more = if count > 1 { format!(" (and {} more problems)", count - 1) } else { String::new() };
                warn!("{errors}");
                notice.0 = Some((format!("Kept the current scenario: {}{more}", errors.0[0]), true));
            }
        }
        redraw.0 = redraw.0.max(3);
    }
}

fn apply_selection(
    mut requests: MessageReader<SelectToken>,
    tokens: Query<(Entity, &TokenId)>,
    mut selection: ResMut<Selection>,
) {
    for SelectToken(id) in requests.read() {
        selection.0 = id.as_ref().and_then(|id| tokens.iter().find(|(_, t)| &t.0 == id).map(|(e, _)| e));
    }
}

fn keep_redrawing(mut frames: ResMut<RedrawFrames>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    if frames.0 > 0 {
        frames.0 -= 1;
        redraw.write(bevy::window::RequestRedraw);
    }
}
