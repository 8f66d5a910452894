//! The mouse, a finger and the keyboard on the map: the cell under the pointer, what a click or a
//! tap picks (a token to select, or the target of a picked attack), a long press (a token's card),
//! Esc, scenario files dropped on the window, and [`MapKeys`], how every feature reads its own
//! keys. A tool that wants the left button (the ruler, the template) claims it in
//! [`PointerClaim`]. A finger is the left button ([`super::touch`]).

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::{FileDragAndDrop, PrimaryWindow};

use super::components::{OutOfView, Position, Size, TokenDisc, TokenId};
use super::layout::MapLayout;
use super::messages::{AttackHow, AttackRequest, OpenScenario, SelectToken, ShowCard, Toggle};
use super::schedule::AppSystems;
use super::state::{AttackMode, Selection};
use super::touch::{Fingers, LongPress};
use crate::rules::Cell;

pub(super) fn plugin(app: &mut App) {
    // The buttons and keys as Bevy's input plugin keeps them (headless apps get them empty, and
    // tests can press them).
    app.init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<PointerOnMap>()
        .init_resource::<PointerClaim>()
        .init_resource::<MapViewRect>()
        .init_resource::<PanelsOverMap>();
}

/// Reading the mouse, the fingers and the window: only where there is one.
pub(crate) fn window_plugin(app: &mut App) {
    app.add_plugins(super::touch::window_plugin).add_systems(
        Update,
        (
            (track_pointer, click_tokens, open_cards).chain().in_set(AppSystems::Pointer),
            (escape_key, dropped_files).in_set(AppSystems::Input),
        ),
    );
}

/// Marks the camera that looks at the map.
#[derive(Component)]
pub struct MapCamera;

/// The largest part of the window the panels leave free, in logical pixels (y down): where *Fit
/// map* frames the map (which is drawn under the whole window, the panels floating over it).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct MapViewRect(pub Option<Rect>);

/// What covers the map, in logical pixels (y down): the bars and the panels open.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PanelsOverMap(pub Vec<Rect>);

/// The tool that has the map's left button, if one has: clicks then neither select nor attack.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointerClaim(pub Option<Tool>);

/// A map tool that takes the left button while it is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Ruler,
    Template,
    /// The DM's fog brush.
    FogBrush,
}

impl PointerClaim {
    /// `tool` takes the button (`on`), or gives it back if it has it.
    pub fn set(claim: &mut ResMut<Self>, tool: Tool, on: bool) {
        let wanted = match (on, claim.0) {
            (true, _) => Some(tool),
            (false, Some(held)) if held == tool => None,
            (false, held) => held,
        };
        if claim.0 != wanted {
            claim.0 = wanted;
        }
    }
}

/// The keyboard as the map sees it: a key counts only while no panel's text field has it.
#[derive(SystemParam)]
pub struct MapKeys<'w> {
    keys: Option<Res<'w, ButtonInput<KeyCode>>>,
    egui: Option<Res<'w, bevy_egui::input::EguiWantsInput>>,
}

impl MapKeys<'_> {
    fn free(&self) -> Option<&ButtonInput<KeyCode>> {
        self.keys.as_deref().filter(|_| !self.egui.as_ref().is_some_and(|e| e.wants_any_keyboard_input()))
    }

    /// Whether `key` was just pressed.
    pub fn pressed(&self, key: KeyCode) -> bool {
        self.free().is_some_and(|k| k.just_pressed(key))
    }

    /// Whether `key` is held down, or was let go in this frame (a quick `Ctrl+E` can press and
    /// release both keys between two frames, since the app draws only on input).
    fn held_or_just_released(&self, key: KeyCode) -> bool {
        self.free().is_some_and(|k| k.pressed(key) || k.just_released(key))
    }

    /// Whether Ctrl is held.
    pub fn control(&self) -> bool {
        self.held_or_just_released(KeyCode::ControlLeft) || self.held_or_just_released(KeyCode::ControlRight)
    }

    /// Whether Shift is held.
    pub fn shift(&self) -> bool {
        self.held_or_just_released(KeyCode::ShiftLeft) || self.held_or_just_released(KeyCode::ShiftRight)
    }
}

/// A system that sends `toggle` when `key` is pressed (without Ctrl): each feature adds one for
/// its key.
pub fn toggle_key(key: KeyCode, toggle: Toggle) -> impl FnMut(MapKeys, MessageWriter<Toggle>) {
    move |keys, mut toggles| {
        if keys.pressed(key) && !keys.control() {
            toggles.write(toggle);
        }
    }
}

/// Where the pointer is on the map, if it is over the map and not over a panel.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct PointerOnMap {
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
    /// The press was taken back ([`Fingers::cancelled`]): its release drops a drag where it
    /// began and clears nothing.
    pub cancelled: bool,
    /// The target a finger tapped with an attack picked: its ruling is shown, and a second tap on
    /// it makes the attack (a finger has no hover).
    pub aimed: Option<Entity>,
}

/// The tokens the pointer can pick: those the audience sees, by their discs where drawn and their
/// spaces.
#[derive(SystemParam)]
pub struct Pickable<'w, 's> {
    tokens: Query<'w, 's, (Entity, Option<&'static TokenDisc>, &'static Position, &'static Size), Without<OutOfView>>,
    layout: Option<Res<'w, MapLayout>>,
}

impl Pickable<'_, '_> {
    /// The token drawn under the pointer, other than `except`.
    pub fn under(&self, pointer: &PointerOnMap, except: Option<Entity>) -> Option<Entity> {
        let (world, layout) = (pointer.world?, self.layout.as_deref()?);
        let candidates = self
            .tokens
            .iter()
            .filter(|(e, ..)| Some(*e) != except)
            .map(|(e, disc, position, size)| (e, disc, size.cells(layout.0.grid, position.0)));
        token_under(world, pointer.cell, candidates)
    }
}

/// The token drawn under a world point: a disc that holds the point (the nearest centre wins, so
/// Tiny creatures sharing a cell can each be picked), else a token whose space holds the cell (a
/// token not drawn, as in a headless app, by its space alone).
pub fn token_under<'a>(
    world: Vec2,
    cell: Option<Cell>,
    tokens: impl Iterator<Item = (Entity, Option<&'a TokenDisc>, Vec<Cell>)>,
) -> Option<Entity> {
    let mut best: Option<(Entity, f32, bool)> = None;
    for (entity, disc, cells) in tokens {
        let distance = disc.map_or(f32::MAX, |d| d.center.distance(world));
        let on_disc = disc.is_some_and(|d| distance <= d.radius);
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

/// Where the pointer is: the last finger's place while the mouse has not moved since, else the
/// cursor's.
fn track_pointer(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<MapCamera>>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    layout: Option<Res<MapLayout>>,
    fingers: Res<Fingers>,
    mut pointer: ResMut<PointerOnMap>,
) {
    let over_panel = egui_input.is_some_and(|e| e.is_pointer_over_area() || e.is_using_pointer());
    // The map is under the whole window: what is over a panel or a bar is egui's.
    let screen = fingers.at.or(window.cursor_position()).filter(|_| !over_panel);
    let (camera, transform) = *camera;
    let world = screen.and_then(|p| camera.viewport_to_world_2d(transform, p).ok());
    let cell = world.zip(layout.as_deref()).and_then(|(w, l)| l.0.cell_at(w));
    let cancelled = fingers.cancelled && fingers.in_use();
    let new = PointerOnMap { screen, world, cell, cancelled, ..*pointer };
    if new != *pointer {
        *pointer = new;
    }
}

/// A press of the left button picks what is under it: with an attack picked, another token is
/// its target (the attack is made; a finger's first tap only aims it, showing the ruling, and a
/// second tap on it makes it); else a token is selected (a drag may follow), or empty ground
/// pressed (a drag pans; a click clears the selection). A tool's claim keeps clicks to it.
#[allow(clippy::too_many_arguments)]
fn click_tokens(
    buttons: Res<ButtonInput<MouseButton>>,
    fingers: Res<Fingers>,
    claim: Res<PointerClaim>,
    mut pointer: ResMut<PointerOnMap>,
    pickable: Pickable,
    ids: Query<&TokenId>,
    picked: (Res<AttackMode>, Res<Selection>),
    mut select: MessageWriter<SelectToken>,
    mut attacks: MessageWriter<AttackRequest>,
) {
    let (mode, selection) = picked;
    if claim.0.is_some() {
        return;
    }
    if buttons.just_pressed(MouseButton::Left) {
        let Some(screen) = pointer.screen else { return };
        let attacker = selection.0.filter(|&a| mode.picked_by(Some(a)).is_some());
        match pickable.under(&pointer, None) {
            // With an attack picked, a finger's first tap on another token aims at it.
            Some(target)
                if attacker.is_some_and(|a| a != target) && fingers.in_use() && pointer.aimed != Some(target) =>
            {
                pointer.aimed = Some(target);
                pointer.pressed_on_ground = false;
                pointer.pressed_token = None;
            }
            // With an attack picked, a click on another token attacks it.
            Some(target) if attacker.is_some_and(|a| a != target) => {
                pointer.aimed = None;
                if let (Some(operator), Some(attack)) = (attacker, mode.attack.clone()) {
                    let (shooter, how) = match mode.weapon {
                        Some(weapon) => (weapon, AttackHow::Crewed { operator }),
                        None => (operator, AttackHow::Action),
                    };
                    attacks.write(AttackRequest { attacker: shooter, target, attack, how });
                }
                pointer.pressed_on_ground = false;
                pointer.pressed_token = None;
            }
            Some(entity) => {
                select.write(SelectToken(ids.get(entity).ok().map(|id| id.0.clone())));
                pointer.aimed = None;
                pointer.pressed_on_ground = false;
                pointer.pressed_token = Some(entity);
            }
            None => {
                pointer.aimed = None;
                pointer.pressed_on_ground = true;
                pointer.pressed_at = Some(screen);
            }
        }
    }
    if buttons.just_released(MouseButton::Left) {
        let was_click = pointer.pressed_at.zip(pointer.screen).is_some_and(|(down, up)| down.distance(up) < 5.0);
        if pointer.pressed_on_ground && was_click && !pointer.cancelled {
            select.write(SelectToken(None));
        }
        pointer.pressed_on_ground = false;
        pointer.pressed_token = None;
        pointer.pressed_at = None;
    }
}

/// A finger held on a token selects it and opens its card.
fn open_cards(
    mut long_presses: MessageReader<LongPress>,
    pointer: Res<PointerOnMap>,
    pickable: Pickable,
    ids: Query<&TokenId>,
    mut select: MessageWriter<SelectToken>,
    mut cards: MessageWriter<ShowCard>,
) {
    if long_presses.read().count() == 0 {
        return;
    }
    if let Some(id) = pickable.under(&pointer, None).and_then(|e| ids.get(e).ok()) {
        select.write(SelectToken(Some(id.0.clone())));
        cards.write(ShowCard);
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
