//! Moving tokens on the map: dragging with the cheapest path and its running cost, the reachable
//! cells (move, and Dash in a second shade), dropping to move or snapping back with the reason,
//! movement left per turn, Dash, undo, and the turn that resets it.

use bevy::prelude::*;

use super::AppSystems;
use super::board::{Board, CellShades, ShadeLayer};
use super::components::*;
use super::fight::{FightTokens, fighters};
use super::input::{MapKeys, PointerOnMap};
use super::layout::BoardLayout;
use super::state::{LoadedScenario, Notice, RedrawFrames, ScenarioChanged};
use super::tokens::{TokenDisc, TokenMarker};
use super::turns::Turn;
use crate::rules::economy::Action;
use crate::rules::fight::opportunity::{Moving, Provocation};
use crate::rules::movement::{self, Mover, Occupant, Path, TurnMovement};
use crate::rules::{Cell, Footprint};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Dragging>()
        .init_resource::<PointerOnMap>()
        .add_message::<MoveToken>()
        .add_message::<Walk>()
        .add_systems(
            Update,
            (
                (give_turn_movement.run_if(on_message::<ScenarioChanged>), apply_moves)
                    .chain()
                    .in_set(AppSystems::Apply)
                    .before(super::reactions::walk),
                place_tokens.in_set(AppSystems::Show),
            ),
        );
}

/// The mouse side of movement, for the window: dragging and its preview.
pub(super) fn drag_plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            drag_tokens.run_if(not(super::editor::editing)).in_set(AppSystems::Input),
            draw_drag_path.in_set(AppSystems::Show),
        ),
    );
}

/// A creature's movement this turn, with the moves it made (for undo).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct TurnMoves {
    pub turn: TurnMovement,
    /// Prone: every foot of movement costs 1 extra foot (PHB "Being Prone").
    pub crawling: bool,
}

/// Asks to move a token's anchor to a cell, paying from its movement (taking a Dash if only a
/// Dash reaches it).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct MoveToken {
    pub entity: Entity,
    pub to: Cell,
    /// The DM moves a creature out of its turn (Shift held on the drag): logged, and it provokes
    /// nothing (it isn't the creature using its movement).
    pub by_dm: bool,
}

impl MoveToken {
    pub fn new(entity: Entity, to: Cell) -> Self {
        Self { entity, to, by_dm: false }
    }
}

/// A planned move, paid for, to walk: the walk may stop for opportunity attacks on the way.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    pub entity: Entity,
    pub path: Path,
    /// The move needed a Dash, taken for it.
    pub dashed: bool,
    pub moving: Moving,
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
    /// The opportunity attacks that path would provoke.
    pub provokes: Vec<Provocation>,
    /// Shift held: the DM moves a creature out of its turn.
    pub by_dm: bool,
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
    (
        Entity,
        &'static TokenId,
        &'static Position,
        &'static CreatureSize,
        &'static Allegiance,
        &'static Kind,
        Has<OpenSpace>,
    ),
>;

/// Every token as the rules see it: its id, space, side and size (a siege tower left out:
/// creatures stand in its space).
pub(crate) fn occupants(layout: &BoardLayout, tokens: &TokenSpaces) -> Vec<Occupant> {
    tokens
        .iter()
        .filter(|(.., open)| !open)
        .map(|(_, id, position, size, side, kind, _)| Occupant {
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
    let (_, mover_id, position, size, side, ..) = tokens.get(mover).ok()?;
    let others = occupants(layout, tokens).into_iter().filter(|o| o.id != mover_id.0).collect();
    let mover_rules = Mover { size: size.size, square_side: size.square_side, side: side.0, crawling: false };
    Some((mover_rules, position.0, others))
}

/// The cheapest way to `to` within the turn's movement, else with a Dash (`true`) if it `can_dash`,
/// else why not.
pub(crate) fn plan_move(
    loaded: &LoadedScenario,
    layout: &BoardLayout,
    tokens: &TokenSpaces,
    moves: &TurnMoves,
    can_dash: bool,
    mover: Entity,
    to: Cell,
) -> Result<(Path, bool), String> {
    let (mut rules_mover, start, others) = movement_view(layout, tokens, mover).ok_or("no such creature")?;
    rules_mover.crawling = moves.crawling;
    let board = movement::Board { map: &loaded.scenario.map, rule: loaded.scenario.rules.diagonals, others: &others };
    let turn = &moves.turn;
    let budget = if can_dash { turn.left_with_dash() } else { turn.left() };
    let reach = movement::reach(&board, &rules_mover, start, budget, turn.parity);
    match reach.path(to) {
        Some(path) if path.cost <= turn.left() => Ok((path, false)),
        Some(path) => Ok((path, true)),
        None => Err(movement::why_not(&board, &rules_mover, start, to, budget, turn.parity)
            .map_or_else(|| "unreachable".to_owned(), |e| e.to_string())),
    }
}

/// Plans each move asked for and pays for it (a Dash from the action economy if the move needs
/// one), then hands it to the walk ([`super::reactions::walk`]), which may stop it for reactions.
/// While a fight runs only the creature whose turn it is moves, unless the DM moves another.
#[allow(clippy::too_many_arguments)]
fn apply_moves(
    mut requests: MessageReader<MoveToken>,
    loaded: Res<LoadedScenario>,
    board: Option<Res<Board>>,
    tokens: TokenSpaces,
    mut moves: Query<(&TurnMoves, &mut Actions, &Combatant, &DisplayName)>,
    turn: Res<Turn>,
    pending: Res<super::reactions::Reactions>,
    mut walks: MessageWriter<Walk>,
    mut notice: ResMut<Notice>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let Some(board) = board else { return };
    for request in requests.read() {
        redraw.0 = redraw.0.max(3);
        let Ok((current, mut actions, combatant, name)) = moves.get_mut(request.entity) else { continue };
        let refuse = |why: String| Some((format!("{} can't move: {why}", name.0), true));
        if pending.waiting() {
            notice.0 = refuse("a reaction is waiting for an answer".into());
            continue;
        }
        if let Some(why) = turn.not_yours(request.entity, &name.0).filter(|_| !request.by_dm) {
            notice.0 = refuse(format!("{why} (hold Shift to move it as the DM)"));
            continue;
        }
        let options = &combatant.sheet.turn;
        let can_dash = !request.by_dm && actions.0.can_take(Action::Dash, options).is_ok();
        let budget = if request.by_dm { dm_budget(current) } else { current.clone() };
        match plan_move(&loaded, &board.0, &tokens, &budget, can_dash, request.entity, request.to) {
            Ok((path, _)) if path.steps.is_empty() => {}
            Ok((path, dashed)) => {
                if dashed && let Err(error) = actions.0.take(Action::Dash, options) {
                    notice.0 = refuse(error.to_string());
                    continue;
                }
                let moving = super::reactions::moving(request.by_dm, &actions.0);
                walks.write(Walk { entity: request.entity, path, dashed, moving });
            }
            Err(reason) => notice.0 = Some((format!("{} can't move to {}: {reason}", name.0, request.to), true)),
        }
    }
}

/// What the DM may move a creature by out of its turn: not its own movement, so as far as the
/// terrain lets it go (the map's side is at most 500 cells, so 5000 ft crosses any map).
fn dm_budget(moves: &TurnMoves) -> TurnMoves {
    TurnMoves { turn: TurnMovement::new(5000), crawling: moves.crawling }
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

/// The shade of a reachable cell, and of one only a Dash reaches.
const MOVE_SHADE: Color = Color::srgba(0.25, 0.75, 1.0, 0.30);
const DASH_SHADE: Color = Color::srgba(1.0, 0.75, 0.2, 0.22);

/// Starts, updates and ends drags: the reach overlay and the path preview (with the opportunity
/// attacks it would provoke) while dragging, a [`MoveToken`] on the drop. While a fight runs only
/// the creature whose turn it is can be dragged, unless Shift is held (the DM).
#[allow(clippy::too_many_arguments)]
pub(super) fn drag_tokens(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: MapKeys,
    pointer: Res<PointerOnMap>,
    loaded: Res<LoadedScenario>,
    board: Option<Res<Board>>,
    tokens: TokenSpaces,
    fight: (FightTokens, Query<(&TurnMoves, &Actions)>, Res<Turn>, Res<super::reactions::Reactions>),
    mut dragging: ResMut<Dragging>,
    mut shades: ResMut<CellShades>,
    mut moves: MessageWriter<MoveToken>,
    mut notice: ResMut<Notice>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let (fight_tokens, turn_moves, turn, pending) = fight;
    let Some(board) = board else { return };
    let layout = board.0;
    let pushed = pointer.pressed_token.filter(|&e| fight_tokens.get(e).is_ok_and(|t| t.6.is_some()));
    if buttons.just_pressed(MouseButton::Left) && dragging.0.is_none() {
        // A siege weapon is pushed by its crew (`siege::plan_push`), with no reach of its own.
        if let Some((weapon, cell)) = pushed.zip(pointer.cell)
            && let Ok((_, _, position, ..)) = tokens.get(weapon)
        {
            let anchor = position.0;
            dragging.0 = Some(Drag {
                entity: weapon,
                grab: (cell.x - anchor.x, cell.y - anchor.y),
                target: anchor,
                preview: Err(String::new()),
                provokes: Vec::new(),
                by_dm: keys.shift(),
            });
        }
        let grabbed =
            pointer.pressed_token.zip(pointer.cell).and_then(|(e, cell)| Some((e, cell, turn_moves.get(e).ok()?)));
        if let Some((entity, cell, (moves, actions))) = grabbed {
            let Ok((_, _, position, ..)) = tokens.get(entity) else { return };
            let by_dm = keys.shift();
            if turn.fight_runs() && turn.active != Some(entity) && !by_dm || pending.waiting() {
                if pending.waiting() {
                    notice.0 = Some(("Answer the reaction first".to_owned(), true));
                }
                return;
            }
            let anchor = position.0;
            dragging.0 = Some(Drag {
                entity,
                grab: (cell.x - anchor.x, cell.y - anchor.y),
                target: anchor,
                preview: Err(String::new()),
                provokes: Vec::new(),
                by_dm,
            });
            let options = fight_tokens.get(entity).map(|t| t.9.sheet.turn.clone()).unwrap_or_default();
            let can_dash = actions.0.can_take(Action::Dash, &options).is_ok();
            if let Some((mover, start, others)) = movement_view(&layout, &tokens, entity) {
                let board_view = movement::Board {
                    map: &loaded.scenario.map,
                    rule: loaded.scenario.rules.diagonals,
                    others: &others,
                };
                let turn = &moves.turn;
                let mover = Mover { crawling: moves.crawling, ..mover };
                let budget = if can_dash { turn.left_with_dash() } else { turn.left() };
                let reach = movement::reach(&board_view, &mover, start, budget, turn.parity);
                let shade = |r: &movement::Reachable| if r.cost > turn.left() { DASH_SHADE } else { MOVE_SHADE };
                let cells =
                    reach.cells().into_iter().filter(|r| r.cell != start).map(|r| (r.cell, shade(&r))).collect();
                shades.set(ShadeLayer::Reach, cells);
            }
        }
    }
    let Some(drag) = dragging.0.as_mut() else { return };
    if let Some(cell) = pointer.cell {
        let target = cell.offset(-drag.grab.0, -drag.grab.1);
        if target != drag.target || drag.preview == Err(String::new()) {
            drag.target = target;
            drag.preview = match (turn_moves.get(drag.entity), fight_tokens.get(drag.entity)) {
                (Ok((moves, actions)), Ok(t)) => {
                    let can_dash = !drag.by_dm && actions.0.can_take(Action::Dash, &t.9.sheet.turn).is_ok();
                    let budget = if drag.by_dm { dm_budget(moves) } else { moves.clone() };
                    plan_move(&loaded, &layout, &tokens, &budget, can_dash, drag.entity, target)
                }
                (Err(_), Ok(t)) if t.6.is_some() => {
                    let all = fighters(&loaded, &fight_tokens);
                    let feet_left = |e: Entity| turn_moves.get(e).map_or(0, |(m, _)| m.turn.left());
                    super::siege::plan_push(&loaded, &layout, &tokens, &all, feet_left, drag.entity, target, drag.by_dm)
                        .map(|push| (push.path, false))
                }
                _ => Err("this token does not move".to_owned()),
            };
            drag.provokes = match (&drag.preview, turn_moves.get(drag.entity)) {
                (Ok((path, _)), Ok((_, actions))) if turn.fight_runs() => {
                    let moving = super::reactions::moving(drag.by_dm, &actions.0);
                    let all = fighters(&loaded, &fight_tokens);
                    let has_reaction = |e: Entity| turn_moves.get(e).is_ok_and(|(_, a)| !a.0.reaction_used);
                    super::reactions::provocations_on(&loaded, &all, drag.entity, path, moving, has_reaction, &[])
                }
                _ => Vec::new(),
            };
        }
    }
    if !buttons.pressed(MouseButton::Left) {
        let finished = dragging.0.take().expect("a drag is in progress");
        if !shades.layer(ShadeLayer::Reach).is_empty() {
            shades.set(ShadeLayer::Reach, Vec::new());
        }
        let at_start = tokens.get(finished.entity).is_ok_and(|(_, _, p, ..)| p.0 == finished.target);
        if !at_start {
            moves.write(MoveToken { entity: finished.entity, to: finished.target, by_dm: finished.by_dm });
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
    reactors: Query<(&TokenId, &Position, &CreatureSize), Without<super::audience::OutOfView>>,
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
    // Where the move would provoke an opportunity attack: a red ring, and a line to the reactor.
    for provocation in &drag.provokes {
        let at = centre(provocation.at);
        let red = Color::srgb(1.0, 0.25, 0.2);
        gizmos.circle_2d(at, 0.3 * super::layout::PIXELS_PER_UNIT, red);
        gizmos.circle_2d(at, 0.34 * super::layout::PIXELS_PER_UNIT, red);
        if let Some(reactor) = reactors.iter().find(|(id, ..)| id.0 == provocation.reactor) {
            let cells: Vec<Vec2> = Footprint::of(layout.grid, reactor.2.size, reactor.2.square_side)
                .at(reactor.1.0)
                .map(|c| layout.world(c))
                .collect();
            let to = cells.iter().sum::<Vec2>() / cells.len().max(1) as f32;
            gizmos.line_2d(at, to, red);
        }
    }
}
