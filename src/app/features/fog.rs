//! The fog of war: the cells the party sees, by the map's one sight rule (`Field::unseen_cells`,
//! light and darkvision counted), kept in [`PartySight`] after every move, turn and edit, and
//! shaded on the board: in the players' view a cell seen before but not now is dimmed, one never
//! seen is dark; the DM's view tints what the party doesn't see, lightly. Dim light and darkness
//! are shaded under the fog. The audience feature keeps creatures outside the party's sight out
//! of the players' view. In the DM's view, the fog
//! brush reveals cells to the players or hides them whatever the party sees, or gives them back
//! to the party's sight; each stroke is a step to undo, the DM's view tints both marks in colours
//! of their own, and the explored cells and the marks are autosaved with the game.

use bevy::prelude::*;

use crate::app::core::components::{
    Allegiance, Combatant, Facing, HitPoints, Kind, LastingEffects, PlayerCharacter, Position, RosterOrder, Shield,
    SiegeWeapon, Size, TokenMarker, Vitals,
};
use crate::app::core::messages::{PickFogBrush, Restored, ScenarioChanged};
use crate::app::core::options::LaunchOptions;
use crate::app::core::pointer::{PointerClaim, PointerOnMap, Tool};
use crate::app::core::requests::FogBrush;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{
    Audience, CellShades, FogBrushInHand, FogMark, LoadedScenario, PartySight, RedrawFrames, ShadeLayer, StepUnderWay,
};
use crate::app::core::tokens::Battlefield;
use crate::rules::Cell;
use crate::rules::fight::Fighter;
use crate::rules::light::{LightLevel, LightSource};
use crate::scenario::{RuleOptions, edit};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PartySight>().init_resource::<SightKey>().init_resource::<FogBrushInHand>().add_systems(
        Update,
        (
            forget_explored.run_if(on_message::<ScenarioChanged>).in_set(AppSystems::Build),
            find_sight_again.run_if(on_message::<Restored>).in_set(AppSystems::Build),
            pick_brush.in_set(AppSystems::Apply),
            brush_strokes.in_set(AppSystems::Input),
            (follow_party_sight, shade_fog).chain().in_set(AppSystems::Follow).run_if(fog_is_on),
        ),
    );
}

/// The shades of dim light (lightly obscured) and of darkness (heavily obscured: the party sees
/// a dark cell only by darkvision), over the terrain (SRD "Vision and Light").
// The shades blend in linear light: an opacity `a` leaves about (1 - a)^(1/2.2) of the ground's
// brightness as the eye sees it.
/// Dim light: a cold blue dusk, about two thirds as bright, told apart from darkness by its hue
/// too.
pub const DIM_LIGHT: Color = Color::srgba(0.05, 0.12, 0.45, 0.62);
/// Darkness: about a third as bright, and nearly black in its hue.
pub const DARKNESS: Color = Color::srgba(0.0, 0.0, 0.04, 0.88);
/// Sunlight (Sunlight Sensitivity): a warm gold over the ground.
pub const SUNLIGHT: Color = Color::srgba(1.0, 0.85, 0.3, 0.28);

/// The DM's view of the DM's marks, over whatever the party sees: a cell revealed to the players
/// (pale gold: lit for them) and one hidden from them (crimson), each stronger than the DM's fog.
const REVEALED_BY_DM: Color = Color::srgba(1.0, 0.88, 0.35, 0.45);
const HIDDEN_BY_DM: Color = Color::srgba(0.75, 0.0, 0.2, 0.6);

/// The brush covers a cell and its neighbours (a 3-cell square, or a hex and its ring).
const BRUSH_SIZE: u32 = 2;

/// What the party's sight was last found for: each fighter's place and state as the rules read
/// it, the map's terrain, and the scene's light, lamps and rules (so a move, a turn, a condition,
/// a light, an edit or a switch of the diagonal rule finds it again).
#[derive(Resource, Default, PartialEq)]
struct SightKey(Option<(Vec<Fighter>, Vec<Option<usize>>, SceneLightKey)>);

type SceneLightKey = (LightLevel, Vec<(Cell, LightSource)>, RuleOptions);

/// A token whose part of a `Fighter` (`TokenData`) changed since the fog last looked.
#[rustfmt::skip]
type TokenChanged = Or<(
    Changed<Position>, Changed<Size>, Changed<Allegiance>, Changed<Kind>, Changed<Vitals>, Changed<HitPoints>,
    Changed<Combatant>, Changed<Facing>, Changed<Shield>, Changed<SiegeWeapon>, Changed<LastingEffects>,
    Changed<PlayerCharacter>, Changed<RosterOrder>,
)>;

/// Whether the fog of war is drawn (`--no-fog` leaves it out).
fn fog_is_on(launch: Option<Res<LaunchOptions>>) -> bool {
    !launch.is_some_and(|l| l.no_fog)
}

fn forget_explored(mut sight: ResMut<PartySight>, mut key: ResMut<SightKey>) {
    *sight = PartySight::default();
    *key = SightKey::default();
}

/// The map was rebuilt from a snapshot (with its explored cells and marks): the party's sight is
/// found again.
fn find_sight_again(mut key: ResMut<SightKey>) {
    *key = SightKey::default();
}

/// Picks up or puts down the DM's brush: only in the DM's view, and put down when the players'
/// view comes back. While in hand it has the map's left button.
fn pick_brush(
    mut picks: MessageReader<PickFogBrush>,
    audience: Res<Audience>,
    mut hand: ResMut<FogBrushInHand>,
    mut claim: ResMut<PointerClaim>,
) {
    let mut wanted = hand.0;
    for pick in picks.read() {
        wanted = pick.0;
    }
    if !audience.dm {
        wanted = None;
    }
    if hand.0 != wanted {
        hand.0 = wanted;
        PointerClaim::set(&mut claim, Tool::FogBrush, wanted.is_some());
    }
}

/// A stroke of the brush: every cell it passes over, with its neighbours, is marked. From its
/// first mark until the button is let go (or the brush put down) it is a step under way: one
/// step to undo when it ends, as a stroke of the editor's brush.
fn brush_strokes(
    hand: Res<FogBrushInHand>,
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerOnMap>,
    loaded: Res<LoadedScenario>,
    mut sight: ResMut<PartySight>,
    mut step: ResMut<StepUnderWay>,
    mut last: Local<Option<Cell>>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let held = hand.0.is_some() && buttons.pressed(MouseButton::Left);
    if step.fog && !held {
        step.fog = false;
    }
    let (Some(brush), Some(cell)) = (hand.0, pointer.cell.filter(|_| held)) else {
        *last = None;
        return;
    };
    if !step.fog {
        step.fog = true;
    }
    if *last == Some(cell) {
        return;
    }
    let map = &loaded.scenario.map;
    let grid = map.grid();
    let count = map.cells().count();
    let mark = match brush {
        FogBrush::Reveal => Some(FogMark::Revealed),
        FogBrush::Hide => Some(FogMark::Hidden),
        FogBrush::Clear => None,
    };
    let centres = last.map_or_else(|| vec![cell], |from| edit::stroke(grid, from, cell));
    let cells = centres.into_iter().flat_map(|c| edit::brush(grid, c, BRUSH_SIZE));
    let indices: Vec<usize> = cells.filter_map(|c| map.index_of(c)).collect();
    if sight.marks.len() != count || indices.iter().any(|&i| sight.marks[i] != mark) {
        let marks = &mut sight.marks;
        marks.resize(count, None);
        for i in indices {
            marks[i] = mark;
        }
        redraw.at_least(2);
    }
    *last = Some(cell);
}

/// Finds what the party sees when anything that could change it has changed. The key (every
/// fighter cloned, a terrain list of every cell) is built only when a token or the scenario did.
fn follow_party_sight(
    battlefield: Battlefield,
    changed: Query<(), (With<TokenMarker>, TokenChanged)>,
    mut gone: (RemovedComponents<TokenMarker>, RemovedComponents<LastingEffects>, RemovedComponents<PlayerCharacter>),
    mut key: ResMut<SightKey>,
    mut sight: ResMut<PartySight>,
) {
    let removed = gone.0.read().count() + gone.1.read().count() + gone.2.read().count() > 0;
    if key.0.is_some() && !battlefield.loaded.is_changed() && changed.is_empty() && !removed {
        return;
    }
    let fighters = battlefield.fighters();
    let scenario = battlefield.scenario();
    let map = &scenario.map;
    let terrain: Vec<Option<usize>> = map.cells().map(|c| map.terrain_index(c)).collect();
    let light = (scenario.light, scenario.lights.clone(), scenario.rules);
    let now = SightKey(Some((fighters.list.clone(), terrain, light)));
    if *key == now {
        return;
    }
    *key = now;
    let field = fighters.field(battlefield.scenario());
    let visible = field.party_sight();
    let lit = field.light_levels().map(<[LightLevel]>::to_vec).unwrap_or_default();
    if sight.light != lit {
        sight.light = lit;
    }
    let sunlit = field.sunlit_cells();
    if sight.sunlit != sunlit {
        sight.sunlit = sunlit;
    }
    if sight.explored.len() != visible.len() {
        sight.explored = vec![false; visible.len()];
    }
    for (explored, &seen) in sight.explored.iter_mut().zip(&visible) {
        *explored |= seen;
    }
    sight.visible = visible;
}

/// Shades the scene's light and the fog on the board for the audience.
fn shade_fog(
    sight: Res<PartySight>,
    audience: Res<Audience>,
    battlefield: Battlefield,
    mut shades: ResMut<CellShades>,
) {
    if !sight.is_changed() && !audience.is_changed() {
        return;
    }
    let map = &battlefield.scenario().map;
    let (dimmed, dark) = if audience.dm {
        (Color::srgba(0.1, 0.1, 0.3, 0.22), Color::srgba(0.1, 0.1, 0.3, 0.3))
    } else {
        (Color::srgba(0.02, 0.02, 0.05, 0.55), Color::srgba(0.0, 0.0, 0.0, 0.94))
    };
    let fog: Vec<(Cell, Color)> = map
        .cells()
        .enumerate()
        .filter_map(|(i, c)| {
            let mark = sight.marks.get(i).copied().flatten();
            let shade = match (audience.dm, mark) {
                (true, Some(FogMark::Revealed)) => REVEALED_BY_DM,
                (true, Some(FogMark::Hidden)) => HIDDEN_BY_DM,
                _ if sight.shown(i) => return None,
                (_, None) if sight.explored(i) => dimmed,
                _ => dark,
            };
            Some((c, shade))
        })
        .collect();
    // Dim light, darkness and sunlight, where the players see them (the fog covers the rest).
    let sunlit = |i: usize| sight.sunlit.get(i).copied().unwrap_or(false);
    let light: Vec<(Cell, Color)> = map
        .cells()
        .zip(&sight.light)
        .enumerate()
        .filter_map(|(i, (c, level))| match level {
            _ if sunlit(i) => Some((c, SUNLIGHT)),
            LightLevel::Bright => None,
            LightLevel::Dim => Some((c, DIM_LIGHT)),
            LightLevel::Dark => Some((c, DARKNESS)),
        })
        .collect();
    if shades.layer(ShadeLayer::Light) != light.as_slice() {
        shades.set(ShadeLayer::Light, light);
    }
    if shades.layer(ShadeLayer::Fog) != fog.as_slice() {
        shades.set(ShadeLayer::Fog, fog);
    }
}
