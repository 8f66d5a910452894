//! The mouse and keyboard on the map: the cell under the cursor, clicking a token to select it
//! (or, with an attack picked, to attack it),
//! Esc to clear the selection, and scenario files dropped on the window. [`MapKeys`] is how every
//! feature plugin reads its own keys.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::{FileDragAndDrop, PrimaryWindow};

use super::AppSystems;
use super::board::Board;
use super::camera::{MapCamera, MapViewRect};
use super::components::{CreatureSize, Position, TokenId};
use super::fight::{AttackMode, FightRequest};
use super::siege::SiegeRequest;
use super::state::{OpenScenario, SelectToken, Selection, Toggle};
use super::tokens::TokenDisc;
use crate::rules::{Cell, Footprint};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PointerOnMap>().add_systems(
        Update,
        (
            (track_pointer, click_tokens).chain().in_set(AppSystems::Pointer),
            (escape_key, dropped_files).in_set(AppSystems::Input),
        ),
    );
}

/// The keyboard as the map sees it: a key counts only while no panel's text field has it.
#[derive(SystemParam)]
pub(super) struct MapKeys<'w> {
    keys: Option<Res<'w, ButtonInput<KeyCode>>>,
    egui: Option<Res<'w, bevy_egui::input::EguiWantsInput>>,
}

impl MapKeys<'_> {
    fn free(&self) -> Option<&ButtonInput<KeyCode>> {
        self.keys.as_deref().filter(|_| !self.egui.as_ref().is_some_and(|e| e.wants_any_keyboard_input()))
    }

    /// Whether `key` was just pressed.
    pub(super) fn pressed(&self, key: KeyCode) -> bool {
        self.free().is_some_and(|k| k.just_pressed(key))
    }

    /// Whether `key` is held down, or was let go in this frame (a quick `Ctrl+E` can press and
    /// release both keys between two frames, since the app draws only on input).
    fn held_or_just_released(&self, key: KeyCode) -> bool {
        self.free().is_some_and(|k| k.pressed(key) || k.just_released(key))
    }

    /// Whether Ctrl is held.
    pub(super) fn control(&self) -> bool {
        self.held_or_just_released(KeyCode::ControlLeft) || self.held_or_just_released(KeyCode::ControlRight)
    }

    /// Whether Shift is held.
    pub(super) fn shift(&self) -> bool {
        self.held_or_just_released(KeyCode::ShiftLeft) || self.held_or_just_released(KeyCode::ShiftRight)
    }
}

/// Where the pointer is on the map, if it is over the map and not over a panel.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct PointerOnMap {
    /// Window position, logical pixels, y down.
    pub screen: Option<Vec2>,
    pub world: Option<Vec2>,
    /// The map cell under the pointer.
    pub cell: Option<Cell>,
    /// The left button went down on empty ground (so a drag pans the map).
    pub pressed_on_ground: bool,
    /// The token the left button went down on (a drag moves it).
    pub pressed_token: Option<Entity>,
    pressed_at: Option<Vec2>,
}

fn track_pointer(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<MapCamera>>,
    view: Res<MapViewRect>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    board: Option<Res<Board>>,
    mut pointer: ResMut<PointerOnMap>,
) {
    let over_panel = egui_input.is_some_and(|e| e.is_pointer_over_area() || e.is_using_pointer());
    let screen = window.cursor_position().filter(|p| !over_panel && view.0.is_none_or(|r| r.contains(*p)));
    let (camera, transform) = *camera;
    let world = screen.and_then(|p| camera.viewport_to_world_2d(transform, p).ok());
    let cell = world.zip(board.as_deref()).and_then(|(w, b)| b.0.cell_at(w));
    let new = PointerOnMap { screen, world, cell, ..*pointer };
    if new != *pointer {
        *pointer = new;
    }
}

/// The token drawn under a world point: a disc that holds the point (the nearest centre wins, so
/// Tiny creatures sharing a cell can each be picked), else a token whose space holds the cell.
pub(super) fn token_under<'a>(
    world: Vec2,
    cell: Option<Cell>,
    tokens: impl Iterator<Item = (Entity, &'a TokenDisc, Vec<Cell>)>,
) -> Option<Entity> {
    let mut best: Option<(Entity, f32, bool)> = None;
    for (entity, disc, cells) in tokens {
        let distance = disc.center.distance(world);
        let on_disc = distance <= disc.radius;
        let in_space = cell.is_some_and(|c| cells.contains(&c));
        if !on_disc && !in_space {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, d, was_on_disc)) => (on_disc && !was_on_disc) || (on_disc == was_on_disc && distance < d),
        };
        if better {
            best = Some((entity, distance, on_disc));
        }
    }
    best.map(|(e, _, _)| e)
}

fn click_tokens(
    buttons: Res<ButtonInput<MouseButton>>,
    ruler: Res<super::ruler::Ruler>,
    template: Res<super::template::TemplateTool>,
    mut pointer: ResMut<PointerOnMap>,
    board: Option<Res<Board>>,
    tokens: Query<(Entity, &TokenId, &TokenDisc, &Position, &CreatureSize), Without<super::audience::OutOfView>>,
    attacking: (Res<AttackMode>, Res<Selection>),
    mut select: MessageWriter<SelectToken>,
    requests: (MessageWriter<FightRequest>, MessageWriter<SiegeRequest>),
) {
    let (mode, selection) = attacking;
    let (mut fight, mut siege) = requests;
    let Some(board) = board else { return };
    let grid = board.0.grid;
    if ruler.active || template.active {
        return;
    }
    if buttons.just_pressed(MouseButton::Left) {
        let Some((screen, world)) = pointer.screen.zip(pointer.world) else { return };
        let candidates = tokens.iter().map(|(e, _, disc, position, size)| {
            let cells = Footprint::of(grid, size.size, size.square_side).at(position.0).collect();
            (e, disc, cells)
        });
        let picked = mode.picked_by(selection.0).zip(selection.0);
        match token_under(world, pointer.cell, candidates) {
            // With an attack picked, a click on another token attacks it.
            Some(target) if picked.is_some_and(|(_, attacker)| attacker != target) => {
                match (picked, mode.weapon) {
                    (Some((_, operator)), Some(weapon)) => {
                        siege.write(SiegeRequest::Fire { operator, weapon, target });
                    }
                    (Some((attack, attacker)), None) => {
                        fight.write(FightRequest::Attack { attacker, target, attack: attack.to_owned() });
                    }
                    (None, _) => {}
                }
                pointer.pressed_on_ground = false;
                pointer.pressed_token = None;
            }
            Some(entity) => {
                let id = tokens.get(entity).map(|(_, id, ..)| id.0.clone()).ok();
                select.write(SelectToken(id));
                pointer.pressed_on_ground = false;
                pointer.pressed_token = Some(entity);
            }
            None => {
                pointer.pressed_on_ground = true;
                pointer.pressed_at = Some(screen);
            }
        }
    }
    if buttons.just_released(MouseButton::Left) {
        let was_click = pointer.pressed_at.zip(pointer.screen).is_some_and(|(down, up)| down.distance(up) < 5.0);
        if pointer.pressed_on_ground && was_click {
            select.write(SelectToken(None));
        }
        pointer.pressed_on_ground = false;
        pointer.pressed_token = None;
        pointer.pressed_at = None;
    }
}

/// A system that sends `toggle` when `key` is pressed: each tool's plugin adds one for its key.
pub(crate) fn toggle_key(key: KeyCode, toggle: Toggle) -> impl FnMut(MapKeys, MessageWriter<Toggle>) {
    move |keys, mut toggles| {
        if keys.pressed(key) {
            toggles.write(toggle);
        }
    }
}

/// `Esc` clears the selection.
fn escape_key(keys: MapKeys, mut select: MessageWriter<SelectToken>) {
    if keys.pressed(KeyCode::Escape) {
        select.write(SelectToken(None));
    }
}

fn dropped_files(mut drops: MessageReader<FileDragAndDrop>, mut open: MessageWriter<OpenScenario>) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            open.write(OpenScenario { path: Some(path_buf.clone()) });
        }
    }
}
