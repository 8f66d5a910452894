//! `--screenshot PATH --frames N` (save a PNG of the window after N frames, then exit), `F12`
//! (save one now), and
//! `--state-file PATH` (the app's state as JSON, rewritten when it changes, for tests that drive
//! the window with the mouse).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::{PrimaryWindow, RequestRedraw};
use serde_json::json;

use super::board::terrain_color;
use super::camera::{AutoFit, FittedView, MapSettling};
use super::looks::{HealthBar, HealthFill};
use super::panels::ButtonTargets;
use crate::app::core::chase::ChaseRun;
use crate::app::core::components::{
    Allegiance, Combatant, HitPoints, Kind, Position, Size, TokenDisc, TokenId, TurnMoves,
};
use crate::app::core::dice::{Dice, RollRecord};
use crate::app::core::layout::{BoardLayout, MapLayout};
use crate::app::core::mode::AppMode;
use crate::app::core::notice::{Notice, Pinned, Said};
use crate::app::core::options::LaunchOptions;
use crate::app::core::pointer::{MapCamera, MapKeys, MapViewRect, PanelsOverMap, PointerOnMap};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{AttackMode, LoadedScenario, Reactions, Selection};
use crate::app::core::turns::Turns;
use crate::app::features::chase::ChaseScreens;
use crate::app::features::editor::Editor;
use crate::app::features::fight::AttackPreview;
use crate::app::features::movement::Dragging;
use crate::app::features::sight::CoverPreview;
use crate::app::features::template::TemplateTool;
use crate::rules::{Cell, TerrainMap};
use bevy::ecs::query::QueryData;
use std::collections::HashSet;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Last, (take_screenshot, write_state_file))
        .add_systems(Update, screenshot_key.in_set(AppSystems::Input));
}

/// `F12` saves a PNG of the window as `battlemap-N.png` in the working directory.
fn screenshot_key(keys: MapKeys, mut commands: Commands, mut taken: Local<u32>, mut notice: ResMut<Notice>) {
    if keys.pressed(KeyCode::F12) {
        *taken += 1;
        let path = format!("battlemap-{}.png", *taken);
        notice.say(Said::Screenshot(path.clone()));
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
    }
}

/// Frames drawn so far.
#[derive(Default)]
struct FrameCounter(u32);

fn take_screenshot(
    mut commands: Commands,
    options: Res<LaunchOptions>,
    mut frames: Local<FrameCounter>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(path) = options.screenshot.clone() else { return };
    frames.0 += 1;
    redraw.write(RequestRedraw);
    if frames.0 == options.frames {
        let mut save = save_to_disk(path);
        commands.spawn(Screenshot::primary_window()).observe(
            move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                save(captured);
                exit.write(AppExit::Success);
            },
        );
    }
}

/// What the state file reports of the fight.
#[derive(bevy::ecs::system::SystemParam)]
struct FightSeen<'w, 's> {
    mode: Res<'w, AttackMode>,
    preview: Res<'w, AttackPreview>,
    log: Res<'w, RollRecord>,
    dice: Res<'w, Dice>,
    fills: Query<'w, 's, (&'static Sprite, &'static GlobalTransform, &'static ChildOf), With<HealthFill>>,
    bars: Query<'w, 's, (&'static HealthBar, &'static ChildOf)>,
    pictures: Query<'w, 's, &'static Sprite, With<super::tokens::TokenPicture>>,
    names: Query<
        'w,
        's,
        (&'static super::tokens::ZoomLabel, &'static super::tokens::NameLabel, &'static Transform, &'static Visibility),
        (With<super::tokens::NameLabel>, With<Text2d>),
    >,
}

/// A token as the state file reports it.
#[derive(QueryData)]
struct CapturedToken {
    entity: Entity,
    id: &'static TokenId,
    disc: &'static TokenDisc,
    position: &'static Position,
    size: &'static Size,
    side: &'static Allegiance,
    kind: &'static Kind,
    moves: Option<&'static TurnMoves>,
    hit_points: Option<&'static HitPoints>,
    combatant: Option<&'static Combatant>,
    children: Option<&'static Children>,
}

/// Where world points show in the window: the map camera, under the whole window but the
/// panels and bars over it.
#[derive(bevy::ecs::system::SystemParam)]
struct Screen<'w, 's> {
    window: Single<'w, 's, &'static Window, With<PrimaryWindow>>,
    camera: Single<'w, 's, (&'static Camera, &'static GlobalTransform), With<MapCamera>>,
    view: Res<'w, MapViewRect>,
    covers: Res<'w, PanelsOverMap>,
    pointer: Res<'w, PointerOnMap>,
}

impl Screen<'_, '_> {
    /// The window point of a world point, anywhere.
    fn anywhere(&self, world: Vec2) -> Option<Vec2> {
        let (camera, transform) = *self.camera;
        camera.world_to_viewport(transform, world.extend(0.0)).ok()
    }

    /// The window point of a world point shown on the map: in the window, under no panel.
    fn on_map(&self, world: Vec2) -> Option<Vec2> {
        let window = Rect::new(0.0, 0.0, self.window.width(), self.window.height());
        self.anywhere(world).filter(|p| window.contains(*p) && !self.covers.0.iter().any(|c| c.contains(*p)))
    }
}

/// What the state file reports of the tools and the mode.
#[derive(bevy::ecs::system::SystemParam)]
struct ToolsSeen<'w> {
    dragging: Res<'w, Dragging>,
    cover_preview: Res<'w, CoverPreview>,
    template: Res<'w, TemplateTool>,
    editor: Res<'w, Editor>,
    mode: Res<'w, State<AppMode>>,
    fit: Res<'w, AutoFit>,
    fitted: Res<'w, FittedView>,
    settling: Res<'w, MapSettling>,
}

/// Writes the app's state as JSON to `--state-file` whenever it changes, all at once.
#[allow(clippy::too_many_arguments)]
fn write_state_file(
    options: Res<LaunchOptions>,
    loaded: Res<LoadedScenario>,
    board: Option<Res<MapLayout>>,
    selection: Res<Selection>,
    screen: Screen,
    tokens: Query<CapturedToken>,
    notices: (Res<Notice>, Res<Pinned>),
    tools: ToolsSeen,
    chase: (Res<ChaseScreens>, Res<ChaseRun>),
    fight: FightSeen,
    turns: (Res<Turns>, Res<Reactions>, Res<ButtonTargets>),
    mut last_written: Local<String>,
) {
    let (Some(path), Some(board)) = (&options.state_file, board) else { return };
    let (notice, pinned) = notices;
    let layout = board.0;
    let grid = layout.grid;
    let occupied: HashSet<Cell> = tokens.iter().flat_map(|t| t.size.cells(grid, t.position.0)).collect();
    let selected = selection.0.and_then(|e| tokens.get(e).ok()).map(|t| t.id.0.clone());
    // Cell centres on screen are affine in the cell's coordinates (squares and axial hexes alike).
    let screen_of = |cell: Cell| screen.anywhere(layout.world(cell));
    let cell_centers = screen_of(Cell::new(0, 0)).zip(screen_of(Cell::new(1, 0))).zip(screen_of(Cell::new(0, 1))).map(
        |((o, x), y)| json!({ "origin": [o.x, o.y], "per_x": [x.x - o.x, x.y - o.y], "per_y": [y.x - o.x, y.y - o.y] }),
    );
    let view = screen.view.0;
    let state = json!({
        // Ready once the panels have their size and the map is framed in what they leave.
        "ready": view.is_some() && (tools.fitted.0.is_some_and(|(_, known)| known) || !tools.fit.0),
        // Whether the map may still move by itself (a fit redone as the panels come to rest).
        "settling": tools.settling.settling(),
        "cell_centers": cell_centers,
        "notice": notice.0.as_ref().map(crate::ui::words::said),
        "pinned": pinned.0.iter().map(crate::ui::words::said).collect::<Vec<_>>(),
        "chase": chase_json(&chase.0, &chase.1),
        "cover_preview": tools.cover_preview.0.as_ref().map(|p| json!({ "target": p.target_name, "degree": p.ruling.degree, "label": crate::ui::words::cover_label(p.ruling.degree, p.sight, &p.target_name) })),
        "template": tools.template.active.then(|| json!({ "cells": tools.template.view.cells, "inside": tools.template.view.inside, "placed": tools.template.origin.is_some() })),
        "drag": tools.dragging.0.as_ref().and_then(|d| {
            let id = tokens.get(d.entity).ok()?.id.0.clone();
            let provokes: Vec<_> = d.provokes.iter().map(|p| json!({ "reactor": p.reactor, "at": [p.at.x, p.at.y] })).collect();
            Some(json!({ "id": id, "target": [d.target.x, d.target.y], "provokes": provokes }))
        }),
        "active": turns.0.active.and_then(|e| tokens.get(e).ok()).map(|t| t.id.0.clone()),
        "round": turns.0.round(),
        "initiative": turns.0.order,
        "prompt": if turns.1.interrupted.is_some() { Some("opportunity") } else if turns.1.readied.is_empty() { None } else { Some("readied") },
        "buttons": turns.2.0.iter().map(|(name, at)| (name.clone(), json!(at))).collect::<serde_json::Map<_, _>>(),
        "attack": fight.mode.attack,
        "attack_card": fight.preview.0.as_ref().map(|c| {
            let (lines, allowed) = crate::ui::attack_card_lines(&c.shooter, &c.target_name, &c.ruling, &c.now);
            json!({ "lines": lines, "allowed": allowed })
        }),
        "log": fight.log.0.entries.iter().map(crate::ui::log::log_line).collect::<Vec<_>>(),
        // How far the dice's generator is (a decimal string: JSON numbers stop at 2^64).
        "dice_position": fight.dice.0.position().to_string(),
        "scenario": loaded.scenario.name,
        "editing": *tools.mode.get() == AppMode::Edit,
        "stroke": tools.editor.stroke.map(|s| [s.start.x, s.start.y]),
        "grid": grid.name(),
        "window": [screen.window.width(), screen.window.height()],
        "cursor": screen.window.cursor_position().map(|p| [p.x, p.y]),
        // The pointer as the map sees it: none while it is over a panel or a bar.
        "pointer_on_map": screen.pointer.screen.map(|p| [p.x, p.y]),
        "map_view": view.map(|r| [r.min.x, r.min.y, r.max.x, r.max.y]),
        // The panels and bars over the map, and the share of the window they leave it.
        "panels": screen.covers.0.iter().map(|r| [r.min.x, r.min.y, r.max.x, r.max.y]).collect::<Vec<_>>(),
        "map_share": crate::app::view::panels::floating::uncovered_share(
            Rect::new(0.0, 0.0, screen.window.width(), screen.window.height()),
            &screen.covers.0,
        ),
        "selected": selected,
        "tokens": tokens.iter().map(|t| token_json(&t, &screen, &fight)).collect::<Vec<_>>(),
        "terrain_samples": terrain_samples(&loaded.scenario.map, layout, &occupied, &screen),
    })
    .to_string();
    if *last_written != state {
        // Write the whole file at once, so a reader never sees half of it; unlike a save
        // (`files::write_atomically`), not flushed to the disk: it is rewritten at every change.
        let temporary = path.with_extension("tmp");
        if std::fs::write(&temporary, &state).and_then(|()| std::fs::rename(&temporary, path)).is_ok() {
            *last_written = state;
        }
    }
}

/// One token: its place, disc and colour on screen, hit points and health bar as drawn.
fn token_json(token: &CapturedTokenItem, screen: &Screen, fight: &FightSeen) -> serde_json::Value {
    let entity = token.entity;
    let health = token.hit_points.map(|h| h.0);
    // The health bar as drawn: the fill sprite's left end, width and opacity, against the bar's.
    let bar = fight.fills.iter().find(|f| f.2.parent() == entity).and_then(|(sprite, at, _)| {
        let full = fight.bars.iter().find(|b| b.1.parent() == entity)?.0.width;
        let left = at.translation().truncate();
        let fill = sprite.custom_size.map_or(0.0, |s| s.x);
        let (l, f, r) =
            (screen.on_map(left)?, screen.on_map(left + Vec2::X * fill)?, screen.on_map(left + Vec2::X * full)?);
        let alpha = sprite.color.alpha();
        Some(json!({ "left": [l.x, l.y], "fill_px": f.x - l.x, "full_px": r.x - l.x, "fill_alpha": alpha }))
    });
    let conditions: Vec<&str> = token
        .combatant
        .map(|c| c.conditions.iter().map(crate::rules::conditions::Condition::name).collect())
        .unwrap_or_default();
    let disc = token.disc;
    // The picture on the disc, as drawn: an icon of the atlas, or a portrait.
    let picture = token
        .children
        .into_iter()
        .flatten()
        .find_map(|c| fight.pictures.get(*c).ok())
        .map(|sprite| if sprite.texture_atlas.is_some() { "icon" } else { "portrait" });
    // The name under the disc, if it is drawn: its font's height and its backing's corners on
    // screen.
    let name = token.children.into_iter().flatten().find_map(|c| fight.names.get(*c).ok()).and_then(
        |(zoom, label, transform, visibility)| {
            let height = zoom.font_size * transform.scale.y;
            let (a, b) = (screen.anywhere(disc.center)?, screen.anywhere(disc.center + Vec2::Y * height)?);
            let half = label.size * transform.scale.truncate() / 2.0;
            let middle = disc.center - Vec2::Y * label.below;
            let (p, q) = (screen.anywhere(middle - half)?, screen.anywhere(middle + half)?);
            let rect = [p.x.min(q.x), p.y.min(q.y), p.x.max(q.x), p.y.max(q.y)];
            (*visibility != Visibility::Hidden).then(|| (a.distance(b), rect))
        },
    );
    let (name_px, name_rect) = (name.map(|n| n.0), name.map(|n| n.1));
    let radius_px = screen
        .anywhere(disc.center)
        .zip(screen.anywhere(disc.center + Vec2::X * disc.radius))
        .map(|(c, e)| e.distance(c));
    json!({
        "picture": picture,
        "radius_px": radius_px,
        "name_px": name_px,
        "name_rect": name_rect,
        "hp": health.map(|h| h.hp),
        "max_hp": health.map(|h| h.max_hp),
        "life": health.map(|h| h.life),
        "conditions": conditions,
        "health_bar": bar,
        "id": token.id.0,
        "anchor": [token.position.0.x, token.position.0.y],
        "screen": screen.on_map(disc.center).map(|p| [p.x, p.y]),
        // A point of the disc left of the initials, where its side's colour shows: in the ring of the side's colour that a portrait or icon leaves.
        "fill": screen.on_map(disc.center - Vec2::new(ring_middle(disc.radius), 0.0)).map(|p| [p.x, p.y]),
        "rgb": crate::ui::style::token_color(token.side.0, token.kind.0),
        "tiny": token.size.size == crate::rules::Size::Tiny,
        "movement_left": token.moves.map(|m| m.turn.left()),
    })
}

/// Cells with no token on or beside them, two of each terrain, where the map's own colour shows.
fn terrain_samples(
    map: &TerrainMap,
    layout: BoardLayout,
    occupied: &HashSet<Cell>,
    screen: &Screen,
) -> Vec<serde_json::Value> {
    let grid = layout.grid;
    let mut samples = Vec::new();
    for (index, terrain) in map.palette().iter().enumerate() {
        let clear = map.cells().filter(|&c| {
            map.terrain_index(c) == Some(index)
                && !occupied.contains(&c)
                && grid.neighbours(c).iter().all(|n| !occupied.contains(n))
        });
        for (cell, at) in clear.filter_map(|c| screen.on_map(layout.world(c)).map(|p| (c, p))).take(2) {
            samples.push(json!({
                "terrain": terrain.name,
                "cell": [cell.x, cell.y],
                "screen": [at.x, at.y],
                "rgb": terrain_color(terrain),
            }));
        }
    }
    samples
}

/// What the state file reports of the chase: the setup, the stage, each participant, the buttons.
fn chase_json(screens: &ChaseScreens, run: &ChaseRun) -> serde_json::Value {
    let targets: serde_json::Map<_, _> = screens.targets.iter().map(|(name, at)| (name.clone(), json!(at))).collect();
    let error = screens.error.as_ref().map(ToString::to_string);
    let Some(chases) = &run.chases else {
        return json!({ "setup_open": screens.setup_open, "running": false, "targets": targets, "error": error });
    };
    let chase = chases.active();
    let stage = match () {
        _ if chases.is_over() => "over",
        _ if run.awaiting_handover => "handover",
        _ => "turn",
    };
    json!({
        "setup_open": screens.setup_open,
        "running": true,
        "hidden": screens.hidden,
        "stage": stage,
        "chases": chases.chases.len(),
        "round": chase.order.round,
        "acting": chase.turn.as_ref().map(|t| t.id.clone()),
        "next": chases.next_up().map(|(_, id)| id),
        "movement_left": chase.movement_left(),
        "events": chase.events.len(),
        "participants": chase.participants.iter().map(|p| json!({
            "id": p.id, "position": p.position, "status": p.status, "dashes": p.dashes, "exhaustion": p.exhaustion, "hp": p.hp,
        })).collect::<Vec<_>>(),
        "error": error,
        "targets": targets,
    })
}

/// How far from a disc's centre the middle of its coloured ring is (between a picture's edge and
/// the dark outline).
fn ring_middle(radius: f32) -> f32 {
    (1.0 + super::tokens::PICTURE_SHARE) / 2.0 * (radius - 3.0)
}
