//! Sight and cover on the map: with a creature selected, hovering another shows the cover ruling's
//! lines (clear and blocked in their own colours) and its label; the sight overlay shades every
//! cell the selected creature can't see.

use bevy::prelude::*;

use super::AppSystems;
use super::board::{Board, CellShades, ShadeLayer};
use super::fight::{AttackMode, FightTokens, fighters};
use super::input::{PointerOnMap, toggle_key, token_under};
use super::movement::{TokenSpaces, occupants};
use super::state::{LoadedScenario, Selection, Toggle};
use super::tokens::TokenDisc;
use crate::rules::Cell;
use crate::rules::fight::adjudicate::attack_cover;
use crate::rules::lattice::Point;
use crate::rules::sight::{Cover, SightBoard, line_of_sight, unseen_cells};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CoverPreview>().init_resource::<SightOverlay>().add_systems(
        Update,
        (
            toggle_key(KeyCode::KeyV, Toggle::SightOverlay).in_set(AppSystems::Input),
            toggle_overlay.in_set(AppSystems::Apply),
            (preview_cover, draw_cover_lines, shade_unseen).chain().in_set(AppSystems::Show),
        ),
    );
}

fn toggle_overlay(mut toggles: MessageReader<Toggle>, mut overlay: ResMut<SightOverlay>) {
    for _ in toggles.read().filter(|t| **t == Toggle::SightOverlay) {
        overlay.toggle();
    }
}

/// The cover ruling between the selected creature and the one under the cursor.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub(crate) struct CoverPreview(pub Option<Preview>);

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Preview {
    pub attacker: Entity,
    pub target: Entity,
    pub target_name: String,
    pub ruling: Cover,
    pub sight: bool,
}

impl Preview {
    /// The label shown beside the cursor.
    pub(crate) fn label(&self) -> String {
        let sight = if self.sight { "" } else { " · no line of sight" };
        format!("{}: {}{sight}", self.target_name, self.ruling.degree.label())
    }
}

/// Whether the sight overlay is on, and the cells it shades for whom.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub(crate) struct SightOverlay {
    pub on: bool,
    shown_for: Option<(Entity, Cell, Option<crate::rules::creature::Direction>)>,
}

impl SightOverlay {
    pub(crate) fn toggle(&mut self) {
        self.on = !self.on;
        self.shown_for = None;
    }
}

#[allow(clippy::too_many_arguments)]
fn preview_cover(
    selection: Res<Selection>,
    pointer: Res<PointerOnMap>,
    board: Option<Res<Board>>,
    loaded: Res<LoadedScenario>,
    tokens: TokenSpaces,
    fight: (Res<AttackMode>, FightTokens),
    discs: Query<(Entity, &TokenDisc)>,
    names: Query<&super::components::DisplayName>,
    mut preview: ResMut<CoverPreview>,
) {
    let (mode, fight_tokens) = fight;
    let (Some(board), Some(selected), Some(world)) = (board, selection.0, pointer.world) else {
        if preview.0.is_some() {
            preview.0 = None;
        }
        return;
    };
    // A siege weapon the selected creature fires shoots from its own space.
    let attacker = mode.weapon.filter(|_| mode.attacker == Some(selected)).unwrap_or(selected);
    let layout = board.0;
    let candidates = discs.iter().filter_map(|(e, disc)| {
        let (_, _, position, size, ..) = tokens.get(e).ok()?;
        Some((e, disc, crate::rules::Footprint::of(layout.grid, size.size, size.square_side).at(position.0).collect()))
    });
    let target = token_under(world, pointer.cell, candidates).filter(|t| *t != attacker && *t != selected);
    let Some(target) = target else {
        if preview.0.is_some() {
            preview.0 = None;
        }
        return;
    };
    if preview.0.as_ref().is_some_and(|p| p.attacker == attacker && p.target == target) {
        return;
    }
    let all = fighters(&loaded, &fight_tokens);
    let field = all.field(&loaded);
    let (Some(from), Some(to)) = (all.of(attacker), all.of(target)) else { return };
    let ruling = attack_cover(&field, from, to);
    let sight = line_of_sight(&field.sight_board(), &from.cells, &to.cells).is_some();
    let target_name = names.get(target).map_or_else(|_| to.name().to_owned(), |n| n.0.clone());
    preview.0 = Some(Preview { attacker, target, target_name, ruling, sight });
}

fn draw_cover_lines(mut gizmos: Gizmos, preview: Res<CoverPreview>, board: Option<Res<Board>>) {
    let (Some(preview), Some(board)) = (preview.0.as_ref(), board) else { return };
    let layout = board.0;
    let world = |p: Point| layout.world_point(p.to_units(layout.grid));
    let clear = Color::srgb(0.3, 0.95, 0.45);
    let blocked = Color::srgb(1.0, 0.3, 0.25);
    for line in &preview.ruling.lines {
        let color = if line.blocked_by.is_some() { blocked } else { clear };
        gizmos.line_2d(world(line.from), world(line.to), color);
        if let Some(cell) = line.blocked_by.as_ref().map(|b| match b {
            crate::rules::sight::Blocker::Terrain { cell, .. }
            | crate::rules::sight::Blocker::Creature { cell, .. }
            | crate::rules::sight::Blocker::MapEdge { cell } => *cell,
        }) {
            gizmos.lineloop_2d(layout.corners(cell), blocked);
        }
    }
    gizmos.circle_2d(world(preview.ruling.corner), 5.0, Color::WHITE);
}

#[allow(clippy::too_many_arguments)]
fn shade_unseen(
    mut overlay: ResMut<SightOverlay>,
    selection: Res<Selection>,
    board: Option<Res<Board>>,
    loaded: Res<LoadedScenario>,
    tokens: TokenSpaces,
    facings: Query<(&super::components::Facing, &super::components::Combatant)>,
    mut shades: ResMut<CellShades>,
) {
    let Some(board) = board else { return };
    let layout = board.0;
    let facing_of = |e: Entity| facings.get(e).ok().filter(|_| loaded.scenario.rules.facing);
    let wanted = selection
        .0
        .filter(|_| overlay.on)
        .and_then(|e| tokens.get(e).ok().map(|t| (e, t.2.0, facing_of(e).map(|(f, _)| f.0))));
    // Shown for the right creature, or nothing shown when nothing should be.
    let up_to_date = wanted == overlay.shown_for && (wanted.is_some() || shades.layer(ShadeLayer::Unseen).is_empty());
    if up_to_date {
        return;
    }
    overlay.shown_for = wanted;
    shades.set(ShadeLayer::Unseen, Vec::new());
    let Some((viewer, ..)) = wanted else { return };
    let everyone = occupants(&layout, &tokens);
    let Some(id) = tokens.get(viewer).ok().map(|t| t.1.0.clone()) else { return };
    let from = everyone.iter().find(|o| o.id == id).map(|o| o.cells.clone()).unwrap_or_default();
    let sight_board = SightBoard { map: &loaded.scenario.map, tokens: &everyone };
    let mut unseen = unseen_cells(&sight_board, &from);
    // Under the facing rule it can't see into its rear arc (DMG "Optional Rule: Facing").
    if let Some((facing, combatant)) = facing_of(viewer) {
        let facer = crate::rules::facing::Facer { cells: &from, facing: facing.0, layout: combatant.arcs };
        let map = &loaded.scenario.map;
        let hidden: std::collections::HashSet<Cell> = unseen.iter().copied().collect();
        let behind = map.cells().filter(|c| {
            !hidden.contains(c)
                && crate::rules::facing::arc_of_cell(layout.grid, &facer, *c) == Some(crate::rules::facing::Arc::Rear)
        });
        unseen.extend(behind.collect::<Vec<_>>());
    }
    let shade = Color::srgba(0.02, 0.02, 0.06, 0.62);
    shades.set(ShadeLayer::Unseen, unseen.into_iter().map(|c| (c, shade)).collect());
}
