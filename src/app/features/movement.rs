//! Moving tokens on the map: dragging with the cheapest path and its running cost, the reachable
//! cells (move, and Dash in a second shade), the opportunity attacks the path would provoke, and
//! dropping to move or snapping back with the reason. A drop becomes a [`MoveToken`]; this feature
//! plans and pays for it and hands it to the walk ([`Walk`]) of the reactions feature. A siege
//! weapon's drag previews its push (`rules::siege::plan_push`); the siege feature applies it.

use bevy::prelude::*;

use crate::app::core::components::{Actions, LastingEffects, TurnMoves};
use crate::app::core::messages::{MoveToken, Walk};
use crate::app::core::mode::AppMode;
use crate::app::core::notice::{DragRefusal, NotNow, Notice, Said};
use crate::app::core::pointer::{MapKeys, PointerOnMap};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{CellShades, Reactions, RedrawFrames, ShadeLayer, StepUnderWay};
use crate::app::core::tokens::{Battlefield, Fighters};
use crate::app::core::turns::Turns;
use crate::rules::Cell;
use crate::rules::economy::{Action, Slot};
use crate::rules::effects::drag_cost;
use crate::rules::fight::Fighter;
use crate::rules::fight::opportunity::{Moving, Provocation, provocations};
use crate::rules::movement::{Path, Reachable, TurnMovement};
use crate::rules::siege::plan_push;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Dragging>()
        .add_systems(Update, apply_moves.in_set(AppSystems::Apply))
        .add_systems(Update, drag_tokens.run_if(in_state(AppMode::Play)).in_set(AppSystems::Input))
        .add_systems(OnExit(AppMode::Play), drop_the_drag);
}

/// The drag in progress, if any.
#[derive(Resource, Clone, Debug, Default)]
pub struct Dragging(pub Option<Drag>);

#[derive(Clone, Debug)]
pub struct Drag {
    pub entity: Entity,
    /// The cursor's cell minus the anchor when the drag began: a Large token drags by the square
    /// it was grabbed at.
    pub grab: (i32, i32),
    /// The anchor under the cursor now.
    pub target: Cell,
    /// What reaches it, if anything: the path and the Dash it takes.
    pub preview: Preview,
    /// The opportunity attacks that path would provoke.
    pub provokes: Vec<Provocation>,
    /// Shift held: the DM moves a creature out of its turn.
    pub by_dm: bool,
}

/// A drag's preview: where the drop would go.
#[derive(Clone, Debug, PartialEq)]
pub enum Preview {
    /// Not worked out yet (the drag has just begun).
    Pending,
    /// The path to the cell under the cursor, and what pays for the Dash it takes (in a fight
    /// only: outside one there is no turn and no action to spend).
    Path { path: Path, dash: Option<Slot> },
    /// Why the token can't go there.
    Refused(DragRefusal),
}

/// How far a move no turn counts goes (the DM's out of a creature's turn, and any outside a
/// fight): as far as the terrain lets it (the map's side is at most 500 cells, so 5000 ft crosses
/// any map).
const DM_FEET: u32 = 5000;

/// How a creature is moving: the DM's moves are not its own movement; Disengage stops
/// opportunity attacks (PHB "Opportunity Attacks").
fn moving(by_dm: bool, disengaged: bool) -> Moving {
    match (by_dm, disengaged) {
        (true, _) => Moving::Forced,
        (false, true) => Moving::Disengaged,
        (false, false) => Moving::Walking,
    }
}

/// The cheapest way for `mover` to `to`: the DM's `by_dm` move and, outside a fight, the
/// creature's own as far as the terrain lets it (no turn to count it against); in a fight, within
/// what is left of its turn, else with the Dash that `dash` would pay for; else why not.
#[allow(clippy::too_many_arguments)]
fn plan(
    fighters: &Fighters,
    battlefield: &Battlefield,
    mover: &Fighter,
    moves: &TurnMoves,
    dash: Option<Slot>,
    in_fight: bool,
    by_dm: bool,
    to: Cell,
    holds: &Query<&LastingEffects>,
) -> Preview {
    let field = fighters.field(battlefield.scenario());
    let turn = if by_dm { TurnMovement::new(DM_FEET) } else { moves.turn.clone() };
    let dash = dash.filter(|_| in_fight && !by_dm);
    let budget = match dash {
        _ if !in_fight && !by_dm => DM_FEET,
        Some(_) => turn.left_with_dash(),
        None => turn.left(),
    };
    // A grappler dragging what it holds pays double (the DM's moves are not its movement).
    let factor = if by_dm { 1 } else { drag_cost_of(fighters, mover, holds) };
    match field.path(mover, to, budget / factor, turn.parity).map(|path| path.costing(factor)) {
        Ok(path) => {
            let dash = dash.filter(|_| path.cost > turn.left());
            Preview::Path { path, dash }
        }
        Err(why) => Preview::Refused(DragRefusal::Move(why)),
    }
}

/// What each foot of `mover`'s movement costs with the creatures it holds in a grapple.
fn drag_cost_of(fighters: &Fighters, mover: &Fighter, holds: &Query<&LastingEffects>) -> u32 {
    let held = fighters.entities.iter().zip(&fighters.list).filter_map(|(e, f)| Some((f.size, &holds.get(*e).ok()?.0)));
    drag_cost(&mover.id, mover.size, held)
}

/// Plans each move asked for and pays for it (a Dash from the action economy if the move needs
/// one, in a fight only), then hands it to the walk, which may stop it for reactions. While a fight
/// runs only the creature whose turn it is moves, unless the DM moves another. Siege weapons are
/// pushed by the siege feature.
fn apply_moves(
    mut requests: MessageReader<MoveToken>,
    battlefield: Battlefield,
    mut turn_of: Query<(&TurnMoves, &mut Actions)>,
    turns: Res<Turns>,
    reactions: Res<Reactions>,
    mut walks: MessageWriter<Walk>,
    mut notice: ResMut<Notice>,
    mut redraw: ResMut<RedrawFrames>,
    holds: Query<&LastingEffects>,
) {
    for request in requests.read() {
        redraw.at_least(3);
        let fighters = battlefield.fighters();
        let (Some(mover), Ok((moves, mut economy))) = (fighters.get(request.entity), turn_of.get_mut(request.entity))
        else {
            continue;
        };
        let who = mover.name().to_owned();
        if reactions.waiting() {
            notice.say(Said::CantMove { who, why: NotNow::ReactionWaiting });
            continue;
        }
        if !request.by_dm && !turns.its_turn(request.entity) {
            notice.say(Said::CantMove { who: who.clone(), why: NotNow::NotItsTurn { who } });
            continue;
        }
        let (options, conditions) = (&mover.sheet.turn, &mover.conditions);
        let dash = economy.0.can_take(Action::Dash, options, conditions).ok();
        let in_fight = turns.fight_runs();
        match plan(&fighters, &battlefield, mover, moves, dash, in_fight, request.by_dm, request.to, &holds) {
            Preview::Path { path, .. } if path.steps.is_empty() => {}
            Preview::Path { path, dash } => {
                if dash.is_some()
                    && let Err(error) = economy.0.take(Action::Dash, options, conditions)
                {
                    notice.say(Said::CantMove { who: who.clone(), why: NotNow::Spent { who, error } });
                    continue;
                }
                let moving = moving(request.by_dm, economy.0.disengaged);
                walks.write(Walk { entity: request.entity, path, dashed: dash.is_some(), moving });
            }
            Preview::Refused(DragRefusal::Move(why)) => notice.say(Said::CantMoveTo { who, to: request.to, why }),
            Preview::Refused(_) => {}
            Preview::Pending => {}
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
fn drag_tokens(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: MapKeys,
    pointer: Res<PointerOnMap>,
    battlefield: Battlefield,
    turn_of: Query<(&TurnMoves, &Actions)>,
    turns: Res<Turns>,
    reactions: Res<Reactions>,
    mut dragging: ResMut<Dragging>,
    mut step: ResMut<StepUnderWay>,
    mut shades: ResMut<CellShades>,
    mut moves: MessageWriter<MoveToken>,
    mut notice: ResMut<Notice>,
    mut redraw: ResMut<RedrawFrames>,
    holds: Query<&LastingEffects>,
) {
    if buttons.just_pressed(MouseButton::Left) && dragging.0.is_none() {
        let grabbed = pointer.pressed_token.zip(pointer.cell);
        let begun =
            grabbed.and_then(|(e, cell)| begin(&battlefield, &turn_of, &turns, &reactions, e, cell, keys.shift()));
        if let Some(drag) = begun {
            if drag.1 {
                let reach = reach_shades(&battlefield, &turn_of, &turns, drag.0.entity, &holds);
                shades.set(ShadeLayer::Reach, reach);
            }
            dragging.0 = Some(drag.0);
        } else if reactions.waiting() && pointer.pressed_token.is_some() {
            notice.say(Said::AnswerTheReactionFirst);
        }
    }
    let Some(drag) = dragging.0.as_mut() else { return };
    if let Some(cell) = pointer.cell {
        let target = cell.offset(-drag.grab.0, -drag.grab.1);
        if target != drag.target || drag.preview == Preview::Pending {
            drag.target = target;
            preview(&battlefield, &turn_of, &turns, drag, &holds);
        }
    }
    step.drag = true;
    // Frames go on while the button is held, so its release is seen at once (an app that redraws
    // on input may otherwise sleep through it).
    redraw.at_least(2);
    if !buttons.pressed(MouseButton::Left) {
        let Some(finished) = dragging.0.take() else { return };
        step.drag = false;
        CellShades::clear(&mut shades, ShadeLayer::Reach);
        let at_start = battlefield.tokens.get(finished.entity).is_ok_and(|t| t.position.0 == finished.target);
        // A press taken back (a second finger, a held finger) drops the token where it was.
        if !at_start && !pointer.cancelled {
            moves.write(MoveToken { entity: finished.entity, to: finished.target, by_dm: finished.by_dm });
        }
        redraw.at_least(3);
    }
}

/// A drag of `entity`, grabbed at `cell`, if it may be dragged now, and whether its reach is to
/// be shaded (a creature's; a siege weapon is pushed by its crew, with no reach of its own).
fn begin(
    battlefield: &Battlefield,
    turn_of: &Query<(&TurnMoves, &Actions)>,
    turns: &Turns,
    reactions: &Reactions,
    entity: Entity,
    cell: Cell,
    by_dm: bool,
) -> Option<(Drag, bool)> {
    let token = battlefield.tokens.get(entity).ok()?;
    let creature = turn_of.contains(entity);
    if !(creature || token.siege.is_some()) || reactions.waiting() {
        return None;
    }
    if creature && !by_dm && !turns.its_turn(entity) {
        return None;
    }
    let anchor = token.position.0;
    let drag = Drag {
        entity,
        grab: (cell.x - anchor.x, cell.y - anchor.y),
        target: anchor,
        preview: Preview::Pending,
        provokes: Vec::new(),
        by_dm,
    };
    Some((drag, creature))
}

/// The cells the dragged creature can reach this turn, shaded by whether they need a Dash; outside
/// a fight, where a drop goes as far as the terrain lets it, the cells a turn's move reaches.
fn reach_shades(
    battlefield: &Battlefield,
    turn_of: &Query<(&TurnMoves, &Actions)>,
    turns: &Turns,
    entity: Entity,
    holds: &Query<&LastingEffects>,
) -> Vec<(Cell, Color)> {
    let fighters = battlefield.fighters();
    let (Some(mover), Ok((moves, actions))) = (fighters.get(entity), turn_of.get(entity)) else { return Vec::new() };
    let can_dash = actions.0.can_take(Action::Dash, &mover.sheet.turn, &mover.conditions).is_ok();
    let fresh = TurnMovement { parity: moves.turn.parity, ..TurnMovement::new(moves.turn.speed) };
    let turn = if turns.fight_runs() { &moves.turn } else { &fresh };
    let budget = if can_dash && turns.fight_runs() { turn.left_with_dash() } else { turn.left() };
    let factor = drag_cost_of(&fighters, mover, holds);
    let reach = fighters.field(battlefield.scenario()).reach(mover, budget / factor, turn.parity);
    let shade = |r: &Reachable| if r.cost * factor > turn.left() { DASH_SHADE } else { MOVE_SHADE };
    reach.cells().into_iter().filter(|r| r.cell != mover.anchor).map(|r| (r.cell, shade(&r))).collect()
}

/// Works out where the drop would go, and what opportunity attacks the path would provoke.
fn preview(
    battlefield: &Battlefield,
    turn_of: &Query<(&TurnMoves, &Actions)>,
    turns: &Turns,
    drag: &mut Drag,
    holds: &Query<&LastingEffects>,
) {
    let fighters = battlefield.fighters();
    let Some(me) = fighters.get(drag.entity) else { return };
    let economy = turn_of.get(drag.entity).ok();
    drag.preview = match (economy, me.siege) {
        (Some((moves, actions)), _) => {
            let dash = actions.0.can_take(Action::Dash, &me.sheet.turn, &me.conditions).ok();
            plan(&fighters, battlefield, me, moves, dash, turns.fight_runs(), drag.by_dm, drag.target, holds)
        }
        (None, Some(_)) => {
            let field = fighters.field(battlefield.scenario());
            let feet_left = |f: &Fighter| {
                let entity = fighters.entity_of(&f.id);
                entity.and_then(|e| turn_of.get(e).ok()).map_or(0, |(m, _)| m.turn.left())
            };
            match plan_push(&field, me, drag.target, feet_left, drag.by_dm) {
                Ok(push) => Preview::Path { path: push.path, dash: None },
                Err(why) => Preview::Refused(DragRefusal::Push(why)),
            }
        }
        (None, None) => Preview::Refused(DragRefusal::Unmovable),
    };
    drag.provokes = match (&drag.preview, economy) {
        (Preview::Path { path, .. }, Some((_, actions))) if turns.fight_runs() => {
            let field = fighters.field(battlefield.scenario());
            let has_reaction = |id: &str| {
                let entity = fighters.entity_of(id);
                entity.and_then(|e| turn_of.get(e).ok()).is_some_and(|(_, a)| !a.0.reaction_used)
            };
            let how = moving(drag.by_dm, actions.0.disengaged);
            // What it drags along in a grapple stays beside it.
            let dragged: Vec<String> = fighters
                .entities
                .iter()
                .zip(&fighters.list)
                .filter(|(e, _)| holds.get(**e).is_ok_and(|h| h.0.grapples().any(|(_, by, _)| by == me.id)))
                .map(|(_, f)| f.id.clone())
                .collect();
            provocations(&field, &me.id, &path.cells(), how, has_reaction, &dragged)
        }
        _ => Vec::new(),
    };
}

/// Leaving play (the editor opens, a chase starts) drops a drag of play.
fn drop_the_drag(mut dragging: ResMut<Dragging>, mut step: ResMut<StepUnderWay>, mut shades: ResMut<CellShades>) {
    dragging.0 = None;
    step.drag = false;
    CellShades::clear(&mut shades, ShadeLayer::Reach);
}
