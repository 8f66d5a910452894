//! Moving tokens on the map: dragging with the cheapest path and its running cost, the reachable
//! cells (move, and Dash in a second shade), dropping to move or snapping back with the reason,
//! movement left per turn, Dash, undo, and the turn that resets it.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use super::AppSystems;
use super::board::Board;
use super::components::*;
use super::input::{MapKeys, PointerOnMap};
use super::layout::BoardLayout;
use super::state::{LoadedScenario, Notice, RedrawFrames, ScenarioChanged, SelectToken, Selection};
use super::tokens::{TokenDisc, TokenMarker};
use crate::rules::movement::{self, Fit, Mover, Occupant, Path, TurnMovement};
use crate::rules::{Cell, Footprint};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Dragging>()
        .init_resource::<PointerOnMap>()
        .init_resource::<Turn>()
        .add_message::<MoveToken>()
        .add_message::<TurnRequest>()
        .add_systems(
            Update,
            (
                turn_keys.in_set(AppSystems::Input),
                (
                    give_turn_movement.run_if(on_message::<ScenarioChanged>),
                    apply_turn_requests,
                    apply_moves,
                    place_tokens,
                )
                    .chain()
                    .in_set(AppSystems::Apply),
            ),
        );
}

/// The mouse side of movement, for the window: dragging and its preview.
pub(super) fn drag_plugin(app: &mut App) {
    app.add_systems(Update, (drag_tokens.in_set(AppSystems::Input), draw_drag_path.in_set(AppSystems::Show)));
}

/// `N` gives the next creature its turn; `Ctrl+Z` takes back the selected creature's last move.
fn turn_keys(keys: MapKeys, selection: Res<Selection>, mut turn: MessageWriter<TurnRequest>) {
    if let Some(entity) = selection.0.filter(|_| keys.control() && keys.pressed(KeyCode::KeyZ)) {
        turn.write(TurnRequest::Undo(entity));
    }
    if keys.pressed(KeyCode::KeyN) {
        turn.write(TurnRequest::NextTurn);
    }
}

/// A creature's movement this turn, with the moves it made (for undo).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct TurnMoves {
    pub turn: TurnMovement,
    /// Prone: every foot of movement costs 1 extra foot (PHB "Being Prone").
    pub crawling: bool,
}

/// Whose turn it is: creatures take turns in the roster's order (the initiative tracker will
/// order them later); a new turn resets that creature's movement.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    pub round: u32,
    pub active: Option<Entity>,
}

/// Asks to move a token's anchor to a cell, paying from its movement (taking a Dash if only a
/// Dash reaches it).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct MoveToken {
    pub entity: Entity,
    pub to: Cell,
}

/// Turn actions from the panels and the keyboard.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnRequest {
    /// The next creature in the roster starts its turn.
    NextTurn,
    /// This creature starts its turn now (its movement resets).
    StartTurn(Entity),
    Dash(Entity),
    /// Take back the last move of this turn.
    Undo(Entity),
}

/// The drag in progress, if any.
#[derive(Resource, Clone, Debug, Default)]
pub(crate) struct Dragging(pub Option<Drag>);

#[derive(Clone, Debug)]
pub(crate) struct Drag {
    pub entity: Entity,
    /// The cursor's cell minus the anchor when the drag began: a Large token drags by the square
    /// it was grabbed at.
    pub grab: (i32, i32),
    /// The anchor under the cursor now.
    pub target: Cell,
    /// What reaches it, if anything.
    pub preview: Result<(Path, bool), String>,
}

fn give_turn_movement(
    mut commands: Commands,
    tokens: Query<(Entity, &Vitals, &Kind), Added<TokenMarker>>,
    mut turn: ResMut<Turn>,
) {
    *turn = Turn::default();
    for (entity, vitals, kind) in &tokens {
        if kind.0 == crate::scenario::TokenKind::Creature {
            commands.entity(entity).insert(TurnMoves { turn: TurnMovement::new(vitals.speed), crawling: false });
        }
    }
}

/// The data of every token that movement needs.
pub(crate) type TokenSpaces<'w, 's> = Query<
    'w,
    's,
    (Entity, &'static TokenId, &'static Position, &'static CreatureSize, &'static Allegiance, &'static Kind),
>;

/// Every token as the rules see it: its id, space, side and size.
pub(crate) fn occupants(layout: &BoardLayout, tokens: &TokenSpaces) -> Vec<Occupant> {
    tokens
        .iter()
        .map(|(_, id, position, size, side, kind)| Occupant {
            id: id.0.clone(),
            cells: Footprint::of(layout.grid, size.size, size.square_side).at(position.0).collect(),
            side: side.0,
            size: size.size,
            is_object: kind.0 == crate::scenario::TokenKind::Object,
        })
        .collect()
}

/// The mover and everyone else, as the movement rules see them.
pub(crate) fn movement_view(
    layout: &BoardLayout,
    tokens: &TokenSpaces,
    mover: Entity,
) -> Option<(Mover, Cell, Vec<Occupant>)> {
    let (_, mover_id, position, size, side, _) = tokens.get(mover).ok()?;
    let others = occupants(layout, tokens).into_iter().filter(|o| o.id != mover_id.0).collect();
    let mover_rules = Mover { size: size.size, square_side: size.square_side, side: side.0, crawling: false };
    Some((mover_rules, position.0, others))
}

/// The cheapest way to `to` within the turn's movement, else with a Dash (`true`), else why not.
pub(crate) fn plan_move(
    loaded: &LoadedScenario,
    layout: &BoardLayout,
    tokens: &TokenSpaces,
    moves: &TurnMoves,
    mover: Entity,
    to: Cell,
) -> Result<(Path, bool), String> {
    let (mut rules_mover, start, others) = movement_view(layout, tokens, mover).ok_or("no such creature")?;
    rules_mover.crawling = moves.crawling;
    let board = movement::Board { map: &loaded.scenario.map, rule: loaded.scenario.rules.diagonals, others: &others };
    let turn = &moves.turn;
    let reach = movement::reach(&board, &rules_mover, start, turn.left_with_dash(), turn.parity);
    match reach.path(to) {
        Some(path) if path.cost <= turn.left() => Ok((path, false)),
        Some(path) => Ok((path, true)),
        None => Err(movement::why_not(&board, &rules_mover, start, to, turn.left_with_dash(), turn.parity)
            .map_or_else(|| "unreachable".to_owned(), |e| e.to_string())),
    }
}

#[allow(clippy::too_many_arguments)]
fn apply_moves(
    mut requests: MessageReader<MoveToken>,
    loaded: Res<LoadedScenario>,
    board: Option<Res<Board>>,
    mut queries: ParamSet<(TokenSpaces, Query<(&mut TurnMoves, &mut Position, &DisplayName)>)>,
    mut notice: ResMut<Notice>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let Some(board) = board else { return };
    for request in requests.read() {
        let Ok(current) = queries.p1().get(request.entity).map(|(m, ..)| m.clone()) else { continue };
        let plan = plan_move(&loaded, &board.0, &queries.p0(), &current, request.entity, request.to);
        let mut moves = queries.p1();
        let Ok((mut turn_moves, mut position, name)) = moves.get_mut(request.entity) else { continue };
        match plan {
            Ok((path, _)) if path.steps.is_empty() => {}
            Ok((path, needs_dash)) => {
                turn_moves.turn.take_move(position.0, &path, needs_dash);
                position.0 = request.to;
                let squeezing = if path.fit == Fit::Squeezing { ", squeezing" } else { "" };
                let dash = if needs_dash { " with a Dash" } else { "" };
                notice.0 = Some((
                    format!("{} moved {} ft{dash}{squeezing}; {} ft left", name.0, path.cost, turn_moves.turn.left()),
                    false,
                ));
            }
            Err(reason) => notice.0 = Some((format!("{} can't move to {}: {reason}", name.0, request.to), true)),
        }
        redraw.0 = redraw.0.max(3);
    }
}

#[allow(clippy::too_many_arguments)]
fn apply_turn_requests(
    mut requests: MessageReader<TurnRequest>,
    mut turn: ResMut<Turn>,
    mut moves: Query<(Entity, &mut TurnMoves, &mut Position, &DisplayName, &RosterOrder)>,
    abilities: Query<&AbilityModifiers>,
    mut select: MessageWriter<SelectToken>,
    ids: Query<&TokenId>,
    mut notice: ResMut<Notice>,
    mut session: Option<ResMut<super::dice::Session>>,
) {
    for request in requests.read() {
        match *request {
            TurnRequest::NextTurn => {
                let Some(session) = session.as_deref_mut() else { continue };
                // The first turn rolls initiative for every creature, in the roster's order.
                if session.initiative.entries.is_empty() {
                    let mut roster: Vec<(RosterOrder, Entity)> = moves.iter().map(|(e, .., o)| (*o, e)).collect();
                    roster.sort();
                    let participants: Vec<(String, i8)> = roster
                        .iter()
                        .filter_map(|(_, e)| {
                            Some((ids.get(*e).ok()?.0.clone(), abilities.get(*e).map_or(0, |a| a.0.dex)))
                        })
                        .collect();
                    if let Err(error) = session.roll_initiative(&participants, |id| {
                        roster
                            .iter()
                            .find_map(|(_, e)| (ids.get(*e).ok()?.0 == id).then_some(*e))
                            .and_then(|e| moves.get(e).ok())
                            .map(|m| m.3.0.clone())
                    }) {
                        notice.0 = Some((error.to_string(), true));
                        continue;
                    }
                }
                let Some(id) = session.initiative.pass_turn().map(|e| e.id.clone()) else { continue };
                turn.round = session.initiative.round;
                let Some(next) = moves.iter().find_map(|(e, ..)| (ids.get(e).ok()?.0 == id).then_some(e)) else {
                    continue;
                };
                start_turn(&mut turn, next, &mut moves, &mut notice);
                select.write(SelectToken(Some(id)));
            }
            TurnRequest::StartTurn(entity) => {
                if turn.round == 0 {
                    turn.round = 1;
                }
                start_turn(&mut turn, entity, &mut moves, &mut notice);
            }
            TurnRequest::Dash(entity) => {
                if let Ok((_, mut m, _, name, _)) = moves.get_mut(entity) {
                    m.turn.dash();
                    notice.0 = Some((format!("{} takes the Dash action: {} ft left", name.0, m.turn.left()), false));
                }
            }
            TurnRequest::Undo(entity) => {
                if let Ok((_, mut m, mut position, name, _)) = moves.get_mut(entity)
                    && let Some(last) = m.turn.undo()
                {
                    position.0 = last.from;
                    notice.0 =
                        Some((format!("Took back {}'s move to {}: {} ft left", name.0, last.to, m.turn.left()), false));
                }
            }
        }
    }
}

fn start_turn(
    turn: &mut Turn,
    entity: Entity,
    moves: &mut Query<(Entity, &mut TurnMoves, &mut Position, &DisplayName, &RosterOrder)>,
    notice: &mut Notice,
) {
    if let Ok((_, mut m, _, name, _)) = moves.get_mut(entity) {
        m.turn = TurnMovement::new(m.turn.speed);
        turn.active = Some(entity);
        notice.0 = Some((format!("Round {}: {}'s turn, {} ft of movement", turn.round, name.0, m.turn.speed), false));
    }
}

/// Puts each token where its [`Position`] says (its look was built at its home anchor), or
/// under the cursor while it is dragged.
fn place_tokens(
    board: Option<Res<Board>>,
    dragging: Res<Dragging>,
    pointer: Res<PointerOnMap>,
    mut tokens: Query<(Entity, &Position, &mut Transform, &mut TokenDisc), With<TokenMarker>>,
) {
    let Some(board) = board else { return };
    let layout = board.0;
    for (entity, position, mut transform, mut disc) in &mut tokens {
        let shift = layout.world(position.0) - layout.world(disc.home_anchor);
        let center = disc.home_center + shift;
        if disc.center != center {
            disc.center = center;
        }
        let mut offset = shift;
        if let (Some(drag), Some(world)) = (dragging.0.as_ref().filter(|d| d.entity == entity), pointer.world) {
            let grabbed = layout.world(position.0.offset(drag.grab.0, drag.grab.1));
            offset = shift + (world - grabbed);
        }
        if transform.translation.truncate() != offset {
            transform.translation = offset.extend(transform.translation.z);
        }
    }
}

/// An overlay shading `cells` over the map at height `z` (each cell in one of two colours, by its
/// flag): the reach, the sight shade and the area template all use it.
pub(crate) fn cell_shade(
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<ColorMaterial>,
    layout: &BoardLayout,
    cells: &[(Cell, bool)],
    colors: (Color, Color),
    z: f32,
) -> impl Bundle {
    (
        Mesh2d(meshes.add(cells_mesh(layout, cells, colors.0, colors.1))),
        MeshMaterial2d(
            materials.add(ColorMaterial { alpha_mode: bevy::sprite_render::AlphaMode2d::Blend, ..default() }),
        ),
        Transform::from_xyz(0.0, 0.0, z),
    )
}

/// A mesh filling `cells`, each in one of two colours.
fn cells_mesh(layout: &BoardLayout, cells: &[(Cell, bool)], first: Color, second: Color) -> Mesh {
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut colors: Vec<[f32; 4]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for &(cell, alternate) in cells {
        let color = if alternate { second } else { first }.to_linear().to_f32_array();
        let center = layout.world(cell);
        let base = positions.len() as u32;
        positions.push([center.x, center.y, 0.0]);
        colors.push(color);
        let corners = layout.corners(cell);
        let n = corners.len() as u32;
        for corner in corners {
            let p = center.lerp(corner, 0.97);
            positions.push([p.x, p.y, 0.0]);
            colors.push(color);
        }
        for i in 0..n {
            indices.extend_from_slice(&[base, base + 1 + (i + 1) % n, base + 1 + i]);
        }
    }
    let count = positions.len();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; count])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 0.0]; count])
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colors)
        .with_inserted_indices(Indices::U32(indices))
}

/// Marks the mesh that shades the reachable cells during a drag.
#[derive(Component)]
pub(crate) struct ReachOverlay;

const MOVE_SHADE: Color = Color::srgba(0.25, 0.75, 1.0, 0.30);
const DASH_SHADE: Color = Color::srgba(1.0, 0.75, 0.2, 0.22);

/// Starts, updates and ends drags: the reach overlay and the path preview while dragging, a
/// [`MoveToken`] on the drop.
#[allow(clippy::too_many_arguments)]
pub(super) fn drag_tokens(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    pointer: Res<PointerOnMap>,
    loaded: Res<LoadedScenario>,
    board: Option<Res<Board>>,
    tokens: TokenSpaces,
    turn_moves: Query<&TurnMoves>,
    mut dragging: ResMut<Dragging>,
    overlays: Query<Entity, With<ReachOverlay>>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
    mut materials: Option<ResMut<Assets<ColorMaterial>>>,
    mut moves: MessageWriter<MoveToken>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let Some(board) = board else { return };
    let layout = board.0;
    if buttons.just_pressed(MouseButton::Left) && dragging.0.is_none() {
        let grabbed =
            pointer.pressed_token.zip(pointer.cell).and_then(|(e, cell)| Some((e, cell, turn_moves.get(e).ok()?)));
        if let Some((entity, cell, moves)) = grabbed {
            let Ok((_, _, position, ..)) = tokens.get(entity) else { return };
            let anchor = position.0;
            dragging.0 = Some(Drag {
                entity,
                grab: (cell.x - anchor.x, cell.y - anchor.y),
                target: anchor,
                preview: Err(String::new()),
            });
            if let (Some(meshes), Some(materials), Some((mover, start, others))) =
                (meshes.as_deref_mut(), materials.as_deref_mut(), movement_view(&layout, &tokens, entity))
            {
                let board_view = movement::Board {
                    map: &loaded.scenario.map,
                    rule: loaded.scenario.rules.diagonals,
                    others: &others,
                };
                let turn = &moves.turn;
                let mover = Mover { crawling: moves.crawling, ..mover };
                let reach = movement::reach(&board_view, &mover, start, turn.left_with_dash(), turn.parity);
                let cells: Vec<(Cell, bool)> =
                    reach.cells().iter().filter(|r| r.cell != start).map(|r| (r.cell, r.cost > turn.left())).collect();
                commands.spawn((
                    ReachOverlay,
                    cell_shade(meshes, materials, &layout, &cells, (MOVE_SHADE, DASH_SHADE), 5.0),
                ));
            }
        }
    }
    let Some(drag) = dragging.0.as_mut() else { return };
    if let Some(cell) = pointer.cell {
        let target = cell.offset(-drag.grab.0, -drag.grab.1);
        if target != drag.target || drag.preview == Err(String::new()) {
            drag.target = target;
            drag.preview = match turn_moves.get(drag.entity) {
                Ok(moves) => plan_move(&loaded, &layout, &tokens, moves, drag.entity, target),
                Err(_) => Err("this token does not move".to_owned()),
            };
        }
    }
    if !buttons.pressed(MouseButton::Left) {
        let finished = dragging.0.take().expect("a drag is in progress");
        for overlay in &overlays {
            commands.entity(overlay).despawn();
        }
        let at_start = tokens.get(finished.entity).is_ok_and(|(_, _, p, ..)| p.0 == finished.target);
        if !at_start {
            moves.write(MoveToken { entity: finished.entity, to: finished.target });
        }
        redraw.0 = redraw.0.max(3);
    }
}

/// The path of a drag, as gizmo lines through the centres of the space at each step.
pub(super) fn draw_drag_path(
    mut gizmos: Gizmos,
    board: Option<Res<Board>>,
    dragging: Res<Dragging>,
    tokens: Query<&CreatureSize>,
) {
    let (Some(board), Some(drag)) = (board, dragging.0.as_ref()) else { return };
    let Ok((path, dash)) = &drag.preview else { return };
    let Ok(size) = tokens.get(drag.entity) else { return };
    let layout = board.0;
    let footprint = Footprint::of(layout.grid, size.size, size.square_side);
    let centre = |anchor: Cell| {
        let cells: Vec<Vec2> = footprint.at(anchor).map(|c| layout.world(c)).collect();
        cells.iter().sum::<Vec2>() / cells.len().max(1) as f32
    };
    let color = if *dash { Color::srgb(1.0, 0.75, 0.2) } else { Color::srgb(0.35, 0.85, 1.0) };
    let points: Vec<Vec2> = path.cells().into_iter().map(centre).collect();
    gizmos.linestrip_2d(points.iter().copied(), color);
    for point in &points {
        gizmos.circle_2d(*point, 4.0, color);
    }
}
