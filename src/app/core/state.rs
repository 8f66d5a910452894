//! The shared resources of the app's state: the loaded scenario, the selection, the audience, the
//! attack picked, the reactions waiting, the cells shaded on the map; and the systems that load a
//! scenario and keep the map redrawing after a change.

use std::collections::VecDeque;
use std::path::PathBuf;

use bevy::prelude::*;

use super::messages::{OpenScenario, ScenarioChanged, Toggle};
use super::mode::AppMode;
use super::notice::{Notice, Said, Tiles};
use super::schedule::AppSystems;
use crate::rules::Cell;
use crate::rules::creature::Side;
use crate::rules::fight::opportunity::{Moving, Provocation};
use crate::rules::movement::Path;
use crate::scenario::{DEFAULT_SCENARIO_NAME, Scenario};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<GridVisible>()
        .init_resource::<TerrainShown>()
        .init_resource::<RedrawFrames>()
        .init_resource::<Audience>()
        .init_resource::<AttackMode>()
        .init_resource::<Reactions>()
        .init_resource::<CellShades>()
        .init_resource::<StepUnderWay>()
        .add_systems(Startup, announce_first_scenario)
        .add_systems(PreUpdate, open_scenarios)
        .add_systems(Update, (toggle_diagonal_rule, toggle_grid_lines, toggle_terrain_shown).in_set(AppSystems::Apply))
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

/// The selected token, if any.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection(pub Option<Entity>);

/// Whether grid lines are drawn.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridVisible(pub bool);

impl Default for GridVisible {
    fn default() -> Self {
        Self(true)
    }
}

/// How the terrain's tiles show: drawn, faded over a map image under the grid, or hidden (their
/// rules apply all the same).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TerrainShown {
    #[default]
    Shown,
    Faded,
    Hidden,
}

impl TerrainShown {
    /// The next one of the toggle: shown, faded, hidden, shown.
    pub fn next(self) -> Self {
        match self {
            Self::Shown => Self::Faded,
            Self::Faded => Self::Hidden,
            Self::Hidden => Self::Shown,
        }
    }

    /// The notice that says it.
    pub fn said(self) -> Said {
        Said::TerrainTiles(match self {
            Self::Shown => Tiles::Shown,
            Self::Faded => Tiles::Faded,
            Self::Hidden => Tiles::Hidden,
        })
    }
}

/// How many more frames to draw without input: spawning a map takes a frame or two to show, and
/// the app otherwise redraws only on input.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct RedrawFrames(pub u32);

impl RedrawFrames {
    /// Draws at least `frames` more frames.
    pub fn at_least(&mut self, frames: u32) {
        self.0 = self.0.max(frames);
    }
}

/// Who is looking at the screen: the players' view (the default) or the DM's view behind a
/// deliberate switch.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Audience {
    /// The DM's view is up.
    pub dm: bool,
}

impl Audience {
    /// Whether this audience sees a creature's exact hit points: the DM always; the players those
    /// of player characters and of their party.
    pub fn sees_hit_points(self, pc: bool, side: Side) -> bool {
        self.dm || pc || side == Side::Party
    }

    /// Whether this audience sees the creature at all: the players don't see a creature kept
    /// from them, nor a creature hostile to the party hidden by the Hide action (their own and
    /// their friends' hiding places they know).
    pub fn sees(self, secret: bool, hidden: bool, side: Side) -> bool {
        self.dm || !(secret || (hidden && Side::Party.is_hostile_to(side)))
    }
}

/// The attack the selected creature has picked on its card: a click on a target makes it. Only
/// the fight feature writes it.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackMode {
    pub attacker: Option<Entity>,
    pub attack: Option<String>,
    /// The siege weapon the attacker crews and fires instead of its own attacks.
    pub weapon: Option<Entity>,
}

impl AttackMode {
    /// The attack picked by `attacker`, if it is the one picking.
    pub fn picked_by(&self, attacker: Option<Entity>) -> Option<&str> {
        self.attack.as_deref().filter(|_| attacker.is_some() && self.attacker == attacker)
    }
}

/// The reactions waiting for an answer (the reactions feature writes it; moves and turns wait for
/// it).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Reactions {
    /// A move stopped where it provokes opportunity attacks.
    pub interrupted: Option<Interrupted>,
    /// Readied actions a finished move set off, to offer in turn.
    pub readied: VecDeque<ReadiedOffer>,
}

impl Reactions {
    /// Whether a prompt is up: moves wait for it.
    pub fn waiting(&self) -> bool {
        self.interrupted.is_some() || !self.readied.is_empty()
    }
}

/// A move stopped for opportunity attacks.
#[derive(Clone, Debug, PartialEq)]
pub struct Interrupted {
    pub mover: Entity,
    /// The rest of the path, from the cell where it stopped.
    pub rest: Path,
    pub moving: Moving,
    /// The opportunity attacks to offer here, first first.
    pub offers: VecDeque<Provocation>,
    /// The reactors offered one here (they don't get a second offer for leaving this cell).
    pub offered: Vec<String>,
    /// What the answers said so far, to tell with what comes of the move.
    pub told: Vec<Said>,
    /// An opportunity attack was asked for this frame: the move goes on once it is made.
    pub striking: bool,
}

/// A readied action set off by `trigger`'s move.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadiedOffer {
    pub reactor: Entity,
    pub trigger: Entity,
}

/// Cells tinted over the terrain, each with its colour (translucent), in layers one over the
/// other ([`ShadeLayer`]). Features set their own layer; the board draws them under the tokens.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct CellShades([Vec<(Cell, Color)>; ShadeLayer::COUNT]);

/// The layers of [`CellShades`], from the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShadeLayer {
    /// The selected creature's arcs (front, sides, rear) under the facing rule.
    Arcs,
    /// The cells the selected creature can't see (the sight overlay).
    Unseen,
    /// The cells the token being dragged can reach.
    Reach,
    /// The cells from which the selected creature or an ally would flank the hovered enemy.
    Flanking,
    /// The cells the area template covers.
    Area,
    /// The scene's light: dim light shaded, darkness darker (what darkvision sees of it).
    Light,
    /// The fog of war: what the party doesn't see now (dimmed) or never saw (dark).
    Fog,
    /// The rectangle the editor's fill tool is dragging out.
    Fill,
}

impl ShadeLayer {
    pub const COUNT: usize = 8;
}

/// What the party sees (the fog of war), per map cell in storage order: the cells some creature
/// of the party sees now (`Field::party_sight`), every cell seen since the scene began, and the
/// DM's marks. Written by the fog feature (the session restores the explored cells and the marks);
/// the audience and the board read it. Empty until first found.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PartySight {
    pub visible: Vec<bool>,
    pub explored: Vec<bool>,
    /// The DM's hand on the fog: a cell revealed to the players or hidden from them whatever the
    /// party sees (empty, or `None` for a cell: the party's sight decides).
    pub marks: Vec<Option<FogMark>>,
    /// The light of each cell as the scene is lit (empty in a bright scene).
    pub light: Vec<crate::rules::light::LightLevel>,
    /// Whether each cell is in sunlight (empty where the sun lights none).
    pub sunlit: Vec<bool>,
}

/// What the DM's fog brush left on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FogMark {
    Revealed,
    Hidden,
}

impl PartySight {
    /// Whether the players see the cell with this index now: revealed by the DM, or seen by the
    /// party and not hidden by the DM (everything, before the party's sight is first found).
    pub fn shown(&self, index: usize) -> bool {
        match self.marks.get(index).copied().flatten() {
            Some(FogMark::Revealed) => true,
            Some(FogMark::Hidden) => false,
            None => self.visible.get(index).copied().unwrap_or(self.visible.is_empty()),
        }
    }

    /// Whether the players have seen the cell with this index: explored, or revealed.
    pub fn explored(&self, index: usize) -> bool {
        self.explored.get(index).copied().unwrap_or(false) || self.marks.get(index) == Some(&Some(FogMark::Revealed))
    }

    /// Whether the players have seen any cell of `space`, now or before (everything, before the
    /// party's sight is first found).
    pub fn explored_any(&self, map: &crate::rules::TerrainMap, space: &[Cell]) -> bool {
        self.visible.is_empty()
            || space.iter().any(|&c| {
                map.index_of(c).is_some_and(|i| {
                    self.shown(i) || (self.explored(i) && self.marks.get(i) != Some(&Some(FogMark::Hidden)))
                })
            })
    }

    /// Whether the players see any cell of `space` now (everything, before it is first found).
    pub fn sees_any(&self, map: &crate::rules::TerrainMap, space: &[Cell]) -> bool {
        self.visible.is_empty() || space.iter().any(|&c| map.index_of(c).is_some_and(|i| self.shown(i)))
    }
}

/// The DM's fog brush in hand, if any (the fog feature keeps it; the status bar shows it).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FogBrushInHand(pub Option<crate::app::core::requests::FogBrush>);

impl CellShades {
    /// The cells of `layer`.
    pub fn layer(&self, layer: ShadeLayer) -> &[(Cell, Color)] {
        &self.0[layer as usize]
    }

    /// Replaces the cells of `layer`.
    pub fn set(&mut self, layer: ShadeLayer, cells: Vec<(Cell, Color)>) {
        self.0[layer as usize] = cells;
    }

    /// Empties `layer`, touching the resource only if it held something.
    pub fn clear(shades: &mut ResMut<Self>, layer: ShadeLayer) {
        if !shades.layer(layer).is_empty() {
            shades.set(layer, Vec::new());
        }
    }

    /// Every layer's cells, from the bottom.
    pub fn layers(&self) -> impl Iterator<Item = &(Cell, Color)> {
        self.0.iter().flatten()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Vec::is_empty)
    }
}

/// A step under way that ends as one change: a drag, a move waiting for its reactions, a stroke of
/// the editor's brush or of the DM's fog brush. Nothing is recorded, undone or edited meanwhile.
/// Each feature sets its own part.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepUnderWay {
    pub drag: bool,
    pub stroke: bool,
    pub fog: bool,
}

impl StepUnderWay {
    /// Whether a drag or a stroke is under way (no step is recorded meanwhile).
    pub fn held(&self) -> bool {
        self.drag || self.stroke || self.fog
    }

    /// Whether any step is under way, the reactions waiting included.
    pub fn any(&self, reactions: &Reactions) -> bool {
        self.held() || reactions.waiting()
    }
}

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
                notice.say(Said::ReloadedBuiltIn);
                changed.write(ScenarioChanged);
                continue;
            }
        };
        match Scenario::load(&path) {
            Ok(scenario) => {
                notice.say(Said::Opened(path.clone()));
                *loaded = LoadedScenario::from_file(scenario, path);
                selection.0 = None;
                changed.write(ScenarioChanged);
            }
            Err(errors) => {
                warn!("{errors}");
                notice.say(Said::KeptScenario(errors));
            }
        }
        redraw.at_least(3);
    }
}

/// Switches between the standard and the optional diagonal rule.
fn toggle_diagonal_rule(mut toggles: MessageReader<Toggle>, mut loaded: ResMut<LoadedScenario>) {
    for _ in toggles.read().filter(|t| **t == Toggle::Diagonals) {
        let rules = &mut loaded.scenario.rules;
        rules.diagonals = rules.diagonals.toggled();
    }
}

fn toggle_grid_lines(mut toggles: MessageReader<Toggle>, mut visible: ResMut<GridVisible>) {
    for _ in toggles.read().filter(|t| **t == Toggle::GridLines) {
        visible.0 = !visible.0;
    }
}

/// `B`: the next way of drawing the tiles, said. The editor shows the terrain it edits: there the
/// toggle goes between shown and faded.
fn toggle_terrain_shown(
    mut toggles: MessageReader<Toggle>,
    mut shown: ResMut<TerrainShown>,
    mode: Res<State<AppMode>>,
    mut notice: ResMut<Notice>,
) {
    for _ in toggles.read().filter(|t| **t == Toggle::TerrainTiles) {
        let next = match shown.next() {
            TerrainShown::Hidden if *mode.get() == AppMode::Edit => TerrainShown::Shown,
            next => next,
        };
        *shown = next;
        notice.say(next.said());
    }
}

fn keep_redrawing(mut frames: ResMut<RedrawFrames>, mut redraw: MessageWriter<bevy::window::RequestRedraw>) {
    if frames.0 > 0 {
        frames.0 -= 1;
        redraw.write(bevy::window::RequestRedraw);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_players_see_numbers_for_their_own_and_hidden_enemies_not_at_all() {
        let players = Audience::default();
        let dm = Audience { dm: true };
        assert!(players.sees_hit_points(true, Side::Party) && players.sees_hit_points(false, Side::Party));
        assert!(!players.sees_hit_points(false, Side::Enemy) && !players.sees_hit_points(false, Side::Ally));
        assert!(dm.sees_hit_points(false, Side::Enemy));
        assert!(!players.sees(false, true, Side::Enemy), "a hidden enemy isn't drawn for them");
        assert!(players.sees(false, true, Side::Party) && players.sees(false, true, Side::Ally), "their own hiding");
        assert!(!players.sees(true, false, Side::Ally), "a creature kept from them");
        assert!(dm.sees(true, true, Side::Enemy));
    }
}
