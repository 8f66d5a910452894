//! The map editor, beside play (`Ctrl+E` or *Edit map*): paint terrain with a brush or fill a
//! rectangle with the mouse, resize the map, switch the grid, and add, place, duplicate, change
//! and delete tokens. Every edit but a brush stroke is checked as a saved file would be
//! (`scenario::edit`; a stroke only never paints blocking terrain under a token), refused with
//! the reason, and is a step to undo.

use bevy::prelude::*;

use super::AppSystems;
use super::components::{CreatureSize, Position, TokenId};
use super::fight::AttackMode;
use super::input::{MapKeys, PointerOnMap};
use super::movement::Dragging;
use super::reactions::Reactions;
use super::session::{History, Snapshot};
use super::state::{LoadedScenario, Notice, RedrawFrames, SelectToken};
use super::tokens::TokenDisc;
use crate::rules::{Cell, Footprint};
use crate::scenario::edit::{self, EditError};
use crate::ui::{EditRequest, EditTool};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Editor>()
        .add_message::<EditMessage>()
        .add_message::<TerrainEdited>()
        .add_systems(Update, (editor_key.in_set(AppSystems::Input), apply_edit_messages.in_set(AppSystems::Apply)));
}

/// The mouse in the editor, for the window.
pub(super) fn mouse_plugin(app: &mut App) {
    app.add_systems(Update, edit_with_mouse.run_if(editing).after(editor_key).in_set(AppSystems::Input));
}

/// Whether the editor is open.
pub fn editing(editor: Res<Editor>) -> bool {
    editor.on
}

/// The editor's state: open or not, the tool, the terrain and brush, a token to add.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Editor {
    pub on: bool,
    pub tool: EditTool,
    /// The palette index painted.
    pub terrain: usize,
    pub brush: u32,
    /// The next click on the map adds this.
    pub placing: Option<crate::scenario::TokenKind>,
    /// Why the last edit was refused (shown in the panel until the next edit).
    pub refusal: Option<String>,
    /// A stroke of the mouse under way: one step to undo when it ends.
    pub stroke: Option<Stroke>,
}

impl Default for Editor {
    fn default() -> Self {
        // The default legend's second entry is the wall.
        Self { on: false, tool: EditTool::Paint, terrain: 1, brush: 1, placing: None, refusal: None, stroke: None }
    }
}

/// A press of the left button on the map, until it is released.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stroke {
    pub start: Cell,
    pub last: Cell,
    /// The token being dragged and the cell it was grabbed by, relative to its anchor.
    pub grabbed: Option<(Entity, (i32, i32))>,
}

/// An edit asked for in the panel, or made with the mouse.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum EditMessage {
    Panel(EditRequest),
    /// Open or close the editor.
    Toggle,
    /// Add a creature or an object here.
    AddAt(crate::scenario::TokenKind, Cell),
    /// Move a token's anchor here.
    Place {
        id: String,
        anchor: Cell,
    },
    /// Fill the rectangle between two corners with a terrain (a palette index).
    Fill(Cell, Cell, usize),
}

/// The terrain was painted: the board is drawn again.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct TerrainEdited;

/// `Ctrl+E` opens and closes the editor.
fn editor_key(keys: MapKeys, mut messages: MessageWriter<EditMessage>) {
    if keys.control() && keys.pressed(KeyCode::KeyE) {
        messages.write(EditMessage::Toggle);
    }
}

/// The mouse in the editor: painting, a rectangle, dragging a token, or adding one.
#[allow(clippy::too_many_arguments)]
fn edit_with_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    mut pointer: ResMut<PointerOnMap>,
    mut editor: ResMut<Editor>,
    mut loaded: ResMut<LoadedScenario>,
    tokens: Query<(Entity, &TokenId, &Position, &CreatureSize, &TokenDisc)>,
    mut messages: MessageWriter<EditMessage>,
    mut painted: MessageWriter<TerrainEdited>,
    mut notice: ResMut<Notice>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let cell = pointer.cell;
    if buttons.just_pressed(MouseButton::Left)
        && let Some(cell) = cell
    {
        if let Some(kind) = editor.placing.take() {
            messages.write(EditMessage::AddAt(kind, cell));
            pointer.pressed_on_ground = false;
            return;
        }
        // The token under the cursor, picked as a click picks it (a quick click's release may come
        // in the same frame as its press, so this doesn't wait for the input plugin's record).
        let grid = loaded.scenario.grid;
        let candidates = tokens.iter().map(|(e, _, position, size, disc)| {
            (e, disc, Footprint::of(grid, size.size, size.square_side).at(position.0).collect())
        });
        let under = pointer.world.and_then(|world| super::input::token_under(world, Some(cell), candidates));
        let anchor = |e: Entity| tokens.get(e).ok().map(|t| t.2.0);
        let grabbed = match editor.tool {
            EditTool::Tokens => under.zip(under.and_then(anchor)).map(|(e, a)| (e, (cell.x - a.x, cell.y - a.y))),
            // A press on a token selects it, with every tool.
            EditTool::Paint | EditTool::Rectangle if under.is_some() => return,
            // The press paints: it doesn't pan the map.
            EditTool::Paint | EditTool::Rectangle => {
                pointer.pressed_on_ground = false;
                pointer.pressed_token = None;
                None
            }
        };
        if editor.tool != EditTool::Tokens || grabbed.is_some() {
            editor.stroke = Some(Stroke { start: cell, last: cell, grabbed });
            if editor.tool == EditTool::Paint {
                paint(&mut editor, &mut loaded, &[cell], &mut painted, &mut notice);
            }
        }
    }
    let Some(stroke) = editor.stroke else { return };
    if buttons.pressed(MouseButton::Left) {
        if let Some(cell) = cell.filter(|c| *c != stroke.last) {
            if editor.tool == EditTool::Paint {
                let cells = edit::stroke(loaded.scenario.grid, stroke.last, cell);
                paint(&mut editor, &mut loaded, &cells, &mut painted, &mut notice);
            }
            if let Some(stroke) = editor.stroke.as_mut() {
                stroke.last = cell;
            }
            redraw.0 = redraw.0.max(1);
        }
        return;
    }
    editor.stroke = None;
    let end = cell.unwrap_or(stroke.last);
    match (editor.tool, stroke.grabbed) {
        (EditTool::Rectangle, _) => {
            messages.write(EditMessage::Fill(stroke.start, end, editor.terrain));
        }
        (EditTool::Tokens, Some((entity, (dx, dy)))) => {
            if let Ok((_, id, position, ..)) = tokens.get(entity) {
                let anchor = Cell::new(end.x - dx, end.y - dy);
                if anchor != position.0 {
                    messages.write(EditMessage::Place { id: id.0.clone(), anchor });
                }
            }
        }
        _ => {}
    }
    redraw.0 = redraw.0.max(2);
}

/// Paints `centres` with the brush.
fn paint(
    editor: &mut Editor,
    loaded: &mut LoadedScenario,
    centres: &[Cell],
    painted: &mut MessageWriter<TerrainEdited>,
    notice: &mut Notice,
) {
    let grid = loaded.scenario.grid;
    let cells: Vec<Cell> = centres.iter().flat_map(|&c| edit::brush(grid, c, editor.brush)).collect();
    match edit::paint(&mut loaded.scenario, &cells, editor.terrain) {
        Ok(done) => {
            if done.changed > 0 {
                painted.write(TerrainEdited);
            }
            if let Some(refused) = done.refused {
                editor.refusal = Some(refused.clone());
                notice.0 = Some((refused, true));
            }
        }
        Err(EditError(e)) => editor.refusal = Some(e),
    }
}

/// Applies the editor's requests: each edit is made on the scene as it stands now and put on the
/// map as a step to undo, or refused with its reason.
fn apply_edit_messages(
    mut messages: MessageReader<EditMessage>,
    mut editor: ResMut<Editor>,
    mut history: ResMut<History>,
    mut notice: ResMut<Notice>,
    mut select: MessageWriter<SelectToken>,
    mut attack_mode: ResMut<AttackMode>,
    loaded: Res<LoadedScenario>,
    busy: (ResMut<Dragging>, Res<Reactions>),
) {
    let (mut dragging, reactions) = busy;
    for message in messages.read() {
        let request = match message {
            EditMessage::Toggle | EditMessage::Panel(EditRequest::Close) => {
                editor.on = !editor.on && !matches!(message, EditMessage::Panel(EditRequest::Close));
                editor.stroke = None;
                editor.placing = None;
                editor.refusal = None;
                *attack_mode = AttackMode::default();
                // A drag of play doesn't go on in the editor, nor one of the editor in play.
                dragging.0 = None;
                let text = if editor.on { "Map editor: Ctrl+E or Done goes back to play" } else { "Back to play" };
                notice.0 = Some((text.to_owned(), false));
                continue;
            }
            EditMessage::Panel(EditRequest::Tool(tool)) => {
                editor.tool = *tool;
                editor.placing = None;
                continue;
            }
            EditMessage::Panel(EditRequest::Terrain(terrain)) => {
                editor.terrain = *terrain;
                continue;
            }
            EditMessage::Panel(EditRequest::Brush(size)) => {
                editor.brush = (*size).clamp(1, edit::MAX_BRUSH);
                continue;
            }
            EditMessage::Panel(EditRequest::Add(kind)) => {
                editor.placing = if editor.placing == Some(*kind) { None } else { Some(*kind) };
                continue;
            }
            other => other,
        };
        if super::session::step_under_way(&dragging, &reactions, Some(&editor)) {
            notice.0 = Some(("Finish the move and its reactions first, then edit".to_owned(), true));
            continue;
        }
        let Some(mut snapshot) = history.latest().cloned() else {
            notice.0 = Some(("The map is not ready yet: try the edit again".to_owned(), true));
            continue;
        };
        // The terrain painted since the last step is in the scene already.
        snapshot.board.map = loaded.scenario.map.clone();
        match edited(&mut snapshot, request) {
            Ok((text, select_id)) => {
                editor.refusal = None;
                history.apply_edit(snapshot, text);
                if let Some(id) = select_id {
                    select.write(SelectToken(Some(id)));
                }
            }
            Err(EditError(reason)) => {
                notice.0 = Some((format!("Refused: {reason}"), true));
                editor.refusal = Some(reason);
            }
        }
    }
}

/// Makes one edit on `snapshot`; gives the notice and a token to select.
fn edited(snapshot: &mut Snapshot, request: &EditMessage) -> Result<(String, Option<String>), EditError> {
    let board = &snapshot.board;
    let (scene, text, select) = match request {
        EditMessage::Fill(a, b, terrain) => {
            let mut scene = board.clone();
            let cells = edit::rectangle(&scene.map, *a, *b);
            let done = edit::paint(&mut scene, &cells, *terrain)?;
            let text = match done.refused {
                Some(refused) => format!("Filled {} cells ({refused})", done.changed),
                None => format!("Filled {} cells", done.changed),
            };
            (scene, text, None)
        }
        EditMessage::AddAt(kind, cell) => {
            let (scene, id) = edit::add(board, *kind, *cell)?;
            (scene, format!("Added {id}: fill in its statistics in the editor"), Some(id))
        }
        EditMessage::Place { id, anchor } => {
            (edit::place(board, id, *anchor)?, format!("Placed {id} at {anchor}"), None)
        }
        EditMessage::Panel(EditRequest::Resize { width, height }) => {
            (edit::resize(board, *width, *height)?, format!("The map is {width} by {height} cells"), None)
        }
        EditMessage::Panel(EditRequest::SwitchGrid(grid)) => {
            let (scene, warnings) = edit::switch_grid(board, *grid)?;
            let mut text = format!("The map is on a {} grid", grid.name());
            for warning in warnings {
                text.push_str(&format!("; {warning}"));
            }
            (scene, text, None)
        }
        EditMessage::Panel(EditRequest::Duplicate(id)) => {
            let (scene, copy) = edit::duplicate(board, id)?;
            if let Some(state) = snapshot.tokens.get(id).cloned() {
                snapshot.tokens.insert(copy.clone(), state);
            }
            (scene, format!("Added {copy}, a copy of {id}"), Some(copy))
        }
        EditMessage::Panel(EditRequest::Delete(id)) => {
            let (scene, warning) = edit::delete(board, id)?;
            forget(snapshot, id);
            let text = warning.map_or_else(|| format!("Deleted {id}"), |w| format!("Deleted {id}; {w}"));
            (scene, text, None)
        }
        EditMessage::Panel(EditRequest::Update(form)) => {
            let scene = edit::update(board, form)?;
            (scene, format!("Changed {}", form.name), None)
        }
        _ => return Err(EditError("not an edit".to_owned())),
    };
    snapshot.board = scene;
    Ok((text, select))
}

/// A deleted token leaves the turn, the initiative and its state behind.
fn forget(snapshot: &mut Snapshot, id: &str) {
    snapshot.tokens.remove(id);
    for state in snapshot.tokens.values_mut() {
        if state.helped_by.as_deref() == Some(id) {
            state.helped_by = None;
        }
        if state.helped_against.as_deref() == Some(id) {
            state.helped_against = None;
        }
    }
    let turn = &mut snapshot.turn;
    if turn.active.as_deref() == Some(id) {
        turn.active = None;
    }
    turn.movers.retain(|m| m != id);
    // As a creature leaving the fight: the turn passes on in the order.
    snapshot.initiative.remove(id);
}
