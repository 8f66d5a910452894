//! `--screenshot PATH --frames N` (save a PNG of the window after N frames, then exit), `F12`
//! (save one now), and
//! `--state-file PATH` (the app's state as JSON, rewritten when it changes, for tests that drive
//! the window with the mouse).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::{PrimaryWindow, RequestRedraw};
use serde_json::json;

use super::board::terrain_color;
use super::camera::{AutoFit, FittedView};
use super::looks::{HealthBar, HealthFill};
use super::panels::ButtonTargets;
use crate::app::core::chase::ChaseRun;
use crate::app::core::components::{
    Allegiance, Combatant, HitPoints, Kind, Position, Size, TokenDisc, TokenId, TurnMoves,
};
use crate::app::core::dice::RollRecord;
use crate::app::core::layout::MapLayout;
use crate::app::core::mode::AppMode;
use crate::app::core::notice::{Notice, Said};
use crate::app::core::options::LaunchOptions;
use crate::app::core::pointer::{MapCamera, MapKeys, MapViewRect};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{AttackMode, LoadedScenario, Reactions, Selection};
use crate::app::core::turns::Turns;
use crate::app::features::chase::ChaseScreens;
use crate::app::features::editor::Editor;
use crate::app::features::fight::AttackPreview;
use crate::app::features::movement::Dragging;
use crate::app::features::sight::CoverPreview;
use crate::app::features::template::TemplateTool;
use crate::rules::Cell;

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
    hit_points: Query<'w, 's, &'static HitPoints>,
    combatants: Query<'w, 's, &'static Combatant>,
    fills: Query<'w, 's, (&'static Sprite, &'static GlobalTransform, &'static ChildOf), With<HealthFill>>,
    bars: Query<'w, 's, (&'static HealthBar, &'static ChildOf)>,
}

#[allow(clippy::too_many_arguments)]
fn write_state_file(
    options: Res<LaunchOptions>,
    loaded: Res<LoadedScenario>,
    board: Option<Res<MapLayout>>,
    selection: Res<Selection>,
    view: Res<MapViewRect>,
    fit: (Res<AutoFit>, Res<FittedView>),
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<MapCamera>>,
    tokens: Query<(Entity, &TokenId, &TokenDisc, &Position, &Size, &Allegiance, &Kind, Option<&TurnMoves>)>,
    notice: Res<Notice>,
    tools: (Res<Dragging>, Res<CoverPreview>, Res<TemplateTool>, Res<Editor>, Res<State<AppMode>>),
    chase: (Res<ChaseScreens>, Res<ChaseRun>),
    fight: FightSeen,
    turns: (Res<Turns>, Res<Reactions>, Res<ButtonTargets>),
    mut last_written: Local<String>,
) {
    let Some(path) = &options.state_file else { return };
    let (dragging, cover_preview, template, editor, mode) = tools;
    let Some(board) = board else { return };
    let (camera, camera_transform) = *camera;
    let on_screen = |world: Vec2| {
        camera
            .world_to_viewport(camera_transform, world.extend(0.0))
            .ok()
            .filter(|p| view.0.is_some_and(|r| r.contains(*p)))
    };
    let layout = board.0;
    let grid = layout.grid;
    let mut occupied: std::collections::HashSet<Cell> = Default::default();
    let mut token_entries = Vec::new();
    let mut selected = None;
    for (entity, id, disc, position, size, side, kind, moves) in &tokens {
        occupied.extend(size.cells(grid, position.0));
        if selection.0 == Some(entity) {
            selected = Some(id.0.clone());
        }
        let health = fight.hit_points.get(entity).ok().map(|h| h.0);
        // The health bar as drawn: the fill sprite's left end and width, against the bar's.
        let bar = fight.fills.iter().find(|f| f.2.parent() == entity).and_then(|(sprite, at, _)| {
            let full = fight.bars.iter().find(|b| b.1.parent() == entity)?.0.width;
            let left = at.translation().truncate();
            let fill = sprite.custom_size.map_or(0.0, |s| s.x);
            let (l, f, r) = (on_screen(left)?, on_screen(left + Vec2::X * fill)?, on_screen(left + Vec2::X * full)?);
            Some(json!({ "left": [l.x, l.y], "fill_px": f.x - l.x, "full_px": r.x - l.x }))
        });
        let conditions: Vec<&str> = fight
            .combatants
            .get(entity)
            .map(|c| c.conditions.iter().map(crate::rules::conditions::Condition::name).collect())
            .unwrap_or_default();
        token_entries.push(json!({
            "hp": health.map(|h| h.hp),
            "max_hp": health.map(|h| h.max_hp),
            "life": health.map(|h| h.life),
            "conditions": conditions,
            "health_bar": bar,
            "id": id.0,
            "anchor": [position.0.x, position.0.y],
            "screen": on_screen(disc.center).map(|p| [p.x, p.y]),
            // A point of the disc left of the initials, where its side's colour shows.
            "fill": on_screen(disc.center - Vec2::new(0.7 * (disc.radius - 3.0), 0.0)).map(|p| [p.x, p.y]),
            "rgb": crate::ui::style::token_color(side.0, kind.0),
            "tiny": size.size == crate::rules::Size::Tiny,
            "movement_left": moves.map(|m| m.turn.left()),
        }));
    }
    // Cells with no token on or beside them, two of each terrain, where the map's own colour shows.
    let map = &loaded.scenario.map;
    let mut samples = Vec::new();
    for (index, terrain) in map.palette().iter().enumerate() {
        let clear = map.cells().filter(|&c| {
            map.terrain_index(c) == Some(index)
                && !occupied.contains(&c)
                && grid.neighbours(c).iter().all(|n| !occupied.contains(n))
        });
        for cell in clear.filter_map(|c| on_screen(layout.world(c)).map(|p| (c, p))).take(2) {
            samples.push(json!({
                "terrain": terrain.name,
                "cell": [cell.0.x, cell.0.y],
                "screen": [cell.1.x, cell.1.y],
                "rgb": terrain_color(terrain),
            }));
        }
    }
    // Cell centres on screen are affine in the cell's coordinates (squares and axial hexes alike).
    let screen_of = |cell: Cell| camera.world_to_viewport(camera_transform, layout.world(cell).extend(0.0)).ok();
    let cell_centers = screen_of(Cell::new(0, 0)).zip(screen_of(Cell::new(1, 0))).zip(screen_of(Cell::new(0, 1))).map(
        |((o, x), y)| json!({ "origin": [o.x, o.y], "per_x": [x.x - o.x, x.y - o.y], "per_y": [y.x - o.x, y.y - o.y] }),
    );
    let state = json!({
        // Ready once the panels have their size and the map is framed in what they leave.
        "ready": view.0.is_some() && (fit.1.0 == view.0 || !fit.0.0),
        "cell_centers": cell_centers,
        "notice": notice.0.as_ref().map(crate::ui::words::said),
        "chase": chase_json(&chase.0, &chase.1),
        "cover_preview": cover_preview.0.as_ref().map(|p| json!({ "target": p.target_name, "degree": p.ruling.degree, "label": crate::ui::words::cover_label(p.ruling.degree, p.sight, &p.target_name) })),
        "template": template.active.then(|| json!({ "cells": template.view.cells, "inside": template.view.inside, "placed": template.origin.is_some() })),
        "drag": dragging.0.as_ref().and_then(|d| {
            let id = tokens.get(d.entity).ok()?.1.0.clone();
            let provokes: Vec<_> = d.provokes.iter().map(|p| json!({ "reactor": p.reactor, "at": [p.at.x, p.at.y] })).collect();
            Some(json!({ "id": id, "target": [d.target.x, d.target.y], "provokes": provokes }))
        }),
        "active": turns.0.active.and_then(|e| tokens.get(e).ok()).map(|t| t.1.0.clone()),
        "prompt": if turns.1.interrupted.is_some() { Some("opportunity") } else if turns.1.readied.is_empty() { None } else { Some("readied") },
        "buttons": turns.2.0.iter().map(|(name, at)| (name.clone(), json!(at))).collect::<serde_json::Map<_, _>>(),
        "attack": fight.mode.attack,
        "attack_card": fight.preview.0.as_ref().map(|c| {
            let (lines, allowed) = crate::ui::attack_card_lines(&c.shooter, &c.target_name, &c.ruling);
            json!({ "lines": lines, "allowed": allowed })
        }),
        "log": fight.log.0.entries.iter().map(crate::rules::dice::LogEntry::full_text).collect::<Vec<_>>(),
        "scenario": loaded.scenario.name,
        "editing": *mode.get() == AppMode::Edit,
        "stroke": editor.stroke.map(|s| [s.start.x, s.start.y]),
        "grid": grid.name(),
        "window": [window.width(), window.height()],
        "cursor": window.cursor_position().map(|p| [p.x, p.y]),
        "map_view": view.0.map(|r| [r.min.x, r.min.y, r.max.x, r.max.y]),
        "selected": selected,
        "tokens": token_entries,
        "terrain_samples": samples,
    })
    .to_string();
    if *last_written != state {
        // Write the whole file at once, so a reader never sees half of it.
        let temporary = path.with_extension("tmp");
        if std::fs::write(&temporary, &state).and_then(|()| std::fs::rename(&temporary, path)).is_ok() {
            *last_written = state;
        }
    }
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
