//! The map editor, beside play (`Ctrl+E` or *Edit map*, in the DM's view only: asked for in the
//! players' view, it asks for the DM's view first): paint terrain with a brush or fill a
//! rectangle with the mouse, resize the map, switch the grid, and add (a plain token, or a
//! monster picked in the panel's SRD bestiary: each click places one), place, duplicate, change
//! and delete tokens. Every edit but a brush stroke is checked as a saved file would be
//! (`scenario::edit`; a stroke only never paints blocking terrain under a token), refused with
//! the reason, and is a step to undo. A rectangle being dragged out is shaded; the editor draws
//! the terrain it edits, faded, when its tiles were hidden over a map image.

use bevy::prelude::*;

use crate::app::core::components::{Position, TokenId};
use crate::app::core::history::{History, Snapshot};
use crate::app::core::messages::{
    AudienceRequest, EditMessage, EditorAsksForDmView, SelectToken, TerrainEdited, Toggle,
};
use crate::app::core::mode::AppMode;
use crate::app::core::notice::{Edited, Notice, Said};
use crate::app::core::pointer::{MapKeys, Pickable, PointerOnMap};
use crate::app::core::requests::{EditRequest, EditTool};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{
    Audience, CellShades, LoadedScenario, Reactions, RedrawFrames, ShadeLayer, StepUnderWay, TerrainShown,
};
use crate::rules::Cell;
use crate::scenario::edit::{self, EditError};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Editor>()
        .init_resource::<TilesHiddenInPlay>()
        .add_systems(
            Update,
            (
                editor_key.in_set(AppSystems::Input),
                edit_with_mouse.run_if(in_state(AppMode::Edit)).after(editor_key).in_set(AppSystems::Input),
                (open_or_close, apply_edit_messages).chain().in_set(AppSystems::Apply),
                shade_the_rectangle.run_if(resource_changed::<Editor>).in_set(AppSystems::Show),
            ),
        )
        .add_systems(OnEnter(AppMode::Edit), open_the_editor)
        .add_systems(OnExit(AppMode::Edit), leave_the_editor);
}

/// The shade of the cells of a rectangle being dragged out (the overlays draw its outline).
const RECTANGLE_SHADE: Color = Color::srgba(0.6, 0.4, 1.0, 0.4);

/// The terrain's tiles were hidden when the editor opened: it shows them faded meanwhile (the
/// terrain it edits, over the map image) and hides them again when it closes.
#[derive(Resource, Default)]
struct TilesHiddenInPlay(bool);

/// The editor's state: the tool, the terrain and brush, a token to add.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Editor {
    pub tool: EditTool,
    /// The palette index painted.
    pub terrain: usize,
    pub brush: u32,
    /// The next click on the map adds this.
    pub placing: Option<crate::scenario::TokenKind>,
    /// The SRD stat block (its index) picked in the panel's bestiary: each click on the map
    /// places one, until it is put down.
    pub monster: Option<String>,
    /// Why the last edit was refused (shown in the panel until the next edit).
    pub refusal: Option<EditError>,
    /// A stroke of the mouse under way: one step to undo when it ends.
    pub stroke: Option<Stroke>,
}

impl Default for Editor {
    fn default() -> Self {
        // The default legend's second entry is the wall.
        Self { tool: EditTool::Paint, terrain: 1, brush: 1, placing: None, monster: None, refusal: None, stroke: None }
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

/// `Ctrl+E` opens and closes the editor.
fn editor_key(keys: MapKeys, mut toggles: MessageWriter<Toggle>) {
    if keys.control() && keys.pressed(KeyCode::KeyE) {
        toggles.write(Toggle::Editor);
    }
}

/// Opens or closes the editor (its key, the bar's button, the panel's Done). It opens in the DM's
/// view only (the fog of the players' view would black out what is painted): asked for in the
/// players' view, it asks for the DM's view first; the players' view back closes it.
fn open_or_close(
    mut toggles: MessageReader<Toggle>,
    mut done: MessageReader<EditMessage>,
    mut switches: MessageReader<AudienceRequest>,
    audience: Res<Audience>,
    mode: Res<State<AppMode>>,
    mut next: ResMut<NextState<AppMode>>,
    mut ask: MessageWriter<EditorAsksForDmView>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let toggled = toggles.read().filter(|t| **t == Toggle::Editor).count() % 2 == 1;
    let closed = done.read().any(|m| *m == EditMessage::Panel(EditRequest::Close));
    // The audience as this frame's switches leave it (the confirmation sends both at once).
    let dm = switches.read().last().map_or(audience.dm, |s| s.dm);
    match mode.get() {
        AppMode::Play if toggled && dm => next.set(AppMode::Edit),
        AppMode::Play if toggled => {
            ask.write(EditorAsksForDmView);
            redraw.at_least(2);
        }
        AppMode::Edit if toggled || closed || !dm => next.set(AppMode::Play),
        _ => {}
    }
}

/// The editor opens, with the terrain it edits in sight: hidden tiles come back faded.
fn open_the_editor(mut shown: ResMut<TerrainShown>, mut hidden: ResMut<TilesHiddenInPlay>, mut notice: ResMut<Notice>) {
    hidden.0 = *shown == TerrainShown::Hidden;
    if hidden.0 {
        *shown = TerrainShown::Faded;
        notice.say(Said::Several(vec![Said::EditorOpen, shown.said()]));
    } else {
        notice.say(Said::EditorOpen);
    }
}

/// Going back to play drops the tool's half-made things, and hides the tiles again if the editor
/// showed them.
fn leave_the_editor(
    mut editor: ResMut<Editor>,
    mut step: ResMut<StepUnderWay>,
    mut notice: ResMut<Notice>,
    mut shown: ResMut<TerrainShown>,
    mut hidden: ResMut<TilesHiddenInPlay>,
) {
    editor.stroke = None;
    editor.placing = None;
    editor.monster = None;
    editor.refusal = None;
    step.stroke = false;
    if std::mem::take(&mut hidden.0) && *shown == TerrainShown::Faded {
        *shown = TerrainShown::Hidden;
    }
    notice.say(Said::BackToPlay);
}

/// The cells a rectangle being dragged out will fill, shaded until the button is released.
fn shade_the_rectangle(editor: Res<Editor>, loaded: Res<LoadedScenario>, mut shades: ResMut<CellShades>) {
    let cells = match editor.stroke {
        Some(stroke) if editor.tool == EditTool::Rectangle => {
            edit::rectangle(&loaded.scenario.map, stroke.start, stroke.last)
        }
        _ => Vec::new(),
    };
    let wanted: Vec<(Cell, Color)> = cells.into_iter().map(|cell| (cell, RECTANGLE_SHADE)).collect();
    if shades.layer(ShadeLayer::Fill) != wanted.as_slice() {
        shades.set(ShadeLayer::Fill, wanted);
    }
}

/// The mouse in the editor: painting, a rectangle, dragging a token, or adding one (a monster
/// picked in the bestiary stays picked, so that each click places another).
#[allow(clippy::too_many_arguments)]
fn edit_with_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    mut pointer: ResMut<PointerOnMap>,
    mut editor: ResMut<Editor>,
    mut step: ResMut<StepUnderWay>,
    mut loaded: ResMut<LoadedScenario>,
    pickable: Pickable,
    tokens: Query<(&TokenId, &Position)>,
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
        if let Some(monster) = editor.monster.clone() {
            messages.write(EditMessage::AddMonsterAt(monster, cell));
            pointer.pressed_on_ground = false;
            return;
        }
        // The token under the cursor, picked as a click picks it (a quick click's release may come
        // in the same frame as its press, so this doesn't wait for the pointer's record).
        let under = pickable.under(&pointer, None);
        let anchor = |e: Entity| tokens.get(e).ok().map(|t| t.1.0);
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
            step.stroke = true;
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
            redraw.at_least(1);
        }
        return;
    }
    editor.stroke = None;
    step.stroke = false;
    let end = cell.unwrap_or(stroke.last);
    // A press taken back (a second finger came to pan) fills no rectangle and moves no token.
    let grabbed = stroke.grabbed.filter(|_| !pointer.cancelled);
    match (editor.tool, grabbed) {
        (EditTool::Rectangle, _) if pointer.cancelled => {}
        (EditTool::Rectangle, _) => {
            messages.write(EditMessage::Fill(stroke.start, end, editor.terrain));
        }
        (EditTool::Tokens, Some((entity, (dx, dy)))) => {
            if let Ok((id, position)) = tokens.get(entity) {
                let anchor = Cell::new(end.x - dx, end.y - dy);
                if anchor != position.0 {
                    messages.write(EditMessage::Place { id: id.0.clone(), anchor });
                }
            }
        }
        _ => {}
    }
    redraw.at_least(2);
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
                notice.say(Said::EditRefused(refused));
            }
        }
        Err(error) => editor.refusal = Some(error),
    }
}

/// Applies the editor's requests: each edit is made on the scene as it stands now and put on the
/// map as a step to undo, or refused with its reason.
#[allow(clippy::too_many_arguments)]
fn apply_edit_messages(
    mut messages: MessageReader<EditMessage>,
    mut editor: ResMut<Editor>,
    mut history: ResMut<History>,
    mut notice: ResMut<Notice>,
    mut select: MessageWriter<SelectToken>,
    loaded: Res<LoadedScenario>,
    busy: (Res<StepUnderWay>, Res<Reactions>),
) {
    let (step, reactions) = busy;
    for message in messages.read() {
        match message {
            EditMessage::Panel(EditRequest::Close) => continue,
            EditMessage::Panel(EditRequest::Tool(tool)) => {
                editor.tool = *tool;
                editor.placing = None;
                editor.monster = None;
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
                editor.monster = None;
                continue;
            }
            EditMessage::Panel(EditRequest::PickMonster(monster)) => {
                editor.monster.clone_from(monster);
                editor.placing = None;
                continue;
            }
            _ => {}
        }
        if step.any(&reactions) {
            notice.say(Said::FinishTheStepFirst);
            continue;
        }
        let Some(mut snapshot) = history.latest().cloned() else {
            notice.say(Said::MapNotReady);
            continue;
        };
        // The terrain painted since the last step is in the scene already.
        snapshot.board.map = loaded.scenario.map.clone();
        match edited(&mut snapshot, message) {
            Ok(None) => {}
            Ok(Some((said, select_id))) => {
                editor.refusal = None;
                history.apply_edit(snapshot, Said::Edited(said));
                if let Some(id) = select_id {
                    select.write(SelectToken(Some(id)));
                }
            }
            Err(reason) => {
                notice.say(Said::EditRefused(reason.clone()));
                editor.refusal = Some(reason);
            }
        }
    }
}

/// What an edit did, and a token to select.
type Done = Option<(Edited, Option<String>)>;

/// Makes one edit on `snapshot`; gives what it did (nothing for a request that changes only the
/// editor's settings).
fn edited(snapshot: &mut Snapshot, request: &EditMessage) -> Result<Done, EditError> {
    let board = &snapshot.board;
    let (scene, said, select) = match request {
        EditMessage::Fill(a, b, terrain) => {
            let mut scene = board.clone();
            let cells = edit::rectangle(&scene.map, *a, *b);
            let done = edit::paint(&mut scene, &cells, *terrain)?;
            (scene, Edited::Filled { cells: done.changed, refused: done.refused }, None)
        }
        EditMessage::AddAt(kind, cell) => {
            let (scene, id) = edit::add(board, *kind, *cell)?;
            (scene, Edited::Added { id: id.clone() }, Some(id))
        }
        EditMessage::AddMonsterAt(monster, cell) => {
            let (scene, id) = edit::add_monster(board, monster, *cell)?;
            let name = scene.token(&id).map_or_else(|| id.clone(), |t| t.name.clone());
            (scene, Edited::AddedMonster { id: id.clone(), name }, Some(id))
        }
        EditMessage::Place { id, anchor } => {
            (edit::place(board, id, *anchor)?, Edited::Placed { id: id.clone(), anchor: *anchor }, None)
        }
        EditMessage::Panel(EditRequest::Resize { width, height }) => {
            (edit::resize(board, *width, *height)?, Edited::Resized { width: *width, height: *height }, None)
        }
        EditMessage::Panel(EditRequest::SwitchGrid(grid)) => {
            let (scene, warnings) = edit::switch_grid(board, *grid)?;
            (scene, Edited::Grid { name: grid.name(), warnings }, None)
        }
        EditMessage::Panel(EditRequest::Duplicate(id)) => {
            let (scene, copy) = edit::duplicate(board, id)?;
            if let Some(state) = snapshot.tokens.get(id).cloned() {
                snapshot.tokens.insert(copy.clone(), state);
            }
            (scene, Edited::Duplicated { copy: copy.clone(), of: id.clone() }, Some(copy))
        }
        EditMessage::Panel(EditRequest::Delete(id)) => {
            let (scene, warning) = edit::delete(board, id)?;
            forget(snapshot, id);
            (scene, Edited::Deleted { id: id.clone(), warning }, None)
        }
        EditMessage::Panel(EditRequest::Update(form)) => {
            (edit::update(board, form)?, Edited::Changed { name: form.name.clone() }, None)
        }
        EditMessage::Panel(EditRequest::Seat { id, seat }) => {
            let scene = edit::seat(board, id, *seat)?;
            let name = scene.token(id).map_or_else(|| id.clone(), |t| t.name.clone());
            (scene, Edited::Seated { name, seat: *seat }, None)
        }
        EditMessage::Panel(EditRequest::Background(background)) => {
            (edit::set_background(board, background.clone())?, Edited::Background { on: background.is_some() }, None)
        }
        _ => return Ok(None),
    };
    snapshot.board = scene;
    Ok(Some((said, select)))
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
