//! Gizmo overlays of the tools: a drag's path with the opportunity attacks it would provoke, the
//! cover ruling's lines, the ruler's legs and the area template's origin and direction, the
//! outline of the rectangle the editor is filling, and in the DM's view of a lit scene the radii
//! of its lights.

use bevy::prelude::*;

use crate::app::core::components::{OutOfView, Position, Size};
use crate::app::core::layout::{MapLayout, PIXELS_PER_UNIT};
use crate::app::core::pointer::PointerOnMap;
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{Audience, CellShades, LoadedScenario, ShadeLayer};
use crate::app::core::tokens::TokenIndex;
use crate::app::features::movement::{Dragging, Preview};
use crate::app::features::ruler::Ruler;
use crate::app::features::sight::CoverPreview;
use crate::app::features::template::{TemplateTool, shown_origin};
use crate::rules::Cell;
use crate::rules::lattice::Point;
use crate::rules::light::LightLevel;
use crate::rules::sight::Blocker;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (draw_drag_path, draw_cover_lines, draw_ruler, draw_template, draw_light_radii, draw_fill_outline)
            .in_set(AppSystems::Show),
    );
}

/// The outline of the rectangle the editor's fill tool is dragging out, around its shaded cells
/// (worked out again only when the shades change).
fn draw_fill_outline(
    mut gizmos: Gizmos,
    shades: Res<CellShades>,
    layout: Option<Res<MapLayout>>,
    mut outline: Local<Vec<(Vec2, Vec2)>>,
) {
    let Some(layout) = layout else { return };
    if shades.is_changed() || layout.is_changed() {
        let cells: Vec<Cell> = shades.layer(ShadeLayer::Fill).iter().map(|(cell, _)| *cell).collect();
        *outline = layout.0.outline(&cells);
    }
    for &(a, b) in &*outline {
        gizmos.line_2d(a, b, Color::srgb(0.75, 0.6, 1.0));
    }
}

/// In the DM's view of a scene that is not brightly lit: each light's bright radius and the outer
/// edge of its dim light, around the lamp's cell or the space of the creature or object carrying
/// it, where it stands now (SRD "Vision and Light"; walls cast the shadows the shading shows).
fn draw_light_radii(
    mut gizmos: Gizmos,
    layout: Option<Res<MapLayout>>,
    loaded: Res<LoadedScenario>,
    audience: Res<Audience>,
    index: Res<TokenIndex>,
    places: Query<(&Position, &Size)>,
) {
    let scenario = &loaded.scenario;
    let Some(layout) = layout.filter(|_| audience.dm && scenario.light != LightLevel::Bright) else { return };
    let layout = layout.0;
    let carried = scenario.tokens.iter().filter_map(|token| {
        let (position, size) = places.get(index.entity(&token.id)?).ok()?;
        Some((layout.middle(&size.cells(layout.grid, position.0)), token.light?))
    });
    let lamps = scenario.lights.iter().map(|(cell, light)| (layout.world(*cell), *light));
    // One step between neighbouring centres is 5 ft.
    let step = layout.world(Cell::new(1, 0)).distance(layout.world(Cell::new(0, 0)));
    for (centre, light) in lamps.chain(carried) {
        let feet = |f: u32| (f as f32 / 5.0 + 0.5) * step;
        if light.bright > 0 {
            gizmos.circle_2d(centre, feet(light.bright), Color::srgba(1.0, 0.85, 0.4, 0.9));
        }
        gizmos.circle_2d(centre, feet(light.bright.saturating_add(light.dim)), Color::srgba(1.0, 0.7, 0.3, 0.45));
    }
}

/// The path of a drag, as gizmo lines through the centres of the space at each step.
fn draw_drag_path(
    mut gizmos: Gizmos,
    layout: Option<Res<MapLayout>>,
    dragging: Res<Dragging>,
    sizes: Query<&Size>,
    index: Res<TokenIndex>,
    reactors: Query<(&Position, &Size), Without<OutOfView>>,
) {
    let (Some(layout), Some(drag)) = (layout, dragging.0.as_ref()) else { return };
    let Preview::Path { path, dash } = &drag.preview else { return };
    let Ok(size) = sizes.get(drag.entity) else { return };
    let layout = layout.0;
    let centre = |anchor: Cell| layout.middle(&size.cells(layout.grid, anchor));
    let color = if dash.is_some() { Color::srgb(1.0, 0.75, 0.2) } else { Color::srgb(0.35, 0.85, 1.0) };
    let points: Vec<Vec2> = path.cells().into_iter().map(centre).collect();
    gizmos.linestrip_2d(points.iter().copied(), color);
    for point in &points {
        gizmos.circle_2d(*point, 4.0, color);
    }
    // Where the move would provoke an opportunity attack: a red ring, and a line to the reactor.
    for provocation in &drag.provokes {
        let at = centre(provocation.at);
        let red = Color::srgb(1.0, 0.25, 0.2);
        gizmos.circle_2d(at, 0.3 * PIXELS_PER_UNIT, red);
        gizmos.circle_2d(at, 0.34 * PIXELS_PER_UNIT, red);
        if let Some((position, size)) = index.entity(&provocation.reactor).and_then(|e| reactors.get(e).ok()) {
            gizmos.line_2d(at, layout.middle(&size.cells(layout.grid, position.0)), red);
        }
    }
}

/// The cover ruling's lines, clear and blocked in their own colours, each blocker outlined.
fn draw_cover_lines(mut gizmos: Gizmos, preview: Res<CoverPreview>, layout: Option<Res<MapLayout>>) {
    let (Some(preview), Some(layout)) = (preview.0.as_ref(), layout) else { return };
    let layout = layout.0;
    let world = |p: Point| layout.world_point(p.to_units(layout.grid));
    let clear = Color::srgb(0.3, 0.95, 0.45);
    let blocked = Color::srgb(1.0, 0.3, 0.25);
    for line in &preview.ruling.lines {
        let color = if line.blocked_by.is_some() { blocked } else { clear };
        gizmos.line_2d(world(line.from), world(line.to), color);
        if let Some(cell) = line.blocked_by.as_ref().map(|b| match b {
            Blocker::Terrain { cell, .. } | Blocker::Creature { cell, .. } | Blocker::MapEdge { cell } => *cell,
        }) {
            gizmos.lineloop_2d(layout.corners(cell), blocked);
        }
    }
    gizmos.circle_2d(world(preview.ruling.corner), 5.0, Color::WHITE);
}

fn draw_ruler(mut gizmos: Gizmos, ruler: Res<Ruler>, pointer: Res<PointerOnMap>, layout: Option<Res<MapLayout>>) {
    let Some(layout) = layout.filter(|_| ruler.active) else { return };
    let layout = layout.0;
    let color = Color::srgb(1.0, 0.45, 0.85);
    let points: Vec<Vec2> = ruler.waypoints.iter().chain(pointer.cell.iter()).map(|&c| layout.world(c)).collect();
    gizmos.linestrip_2d(points.iter().copied(), color);
    for point in ruler.waypoints.iter().map(|&c| layout.world(c)) {
        gizmos.circle_2d(point, 6.0, color);
    }
}

fn draw_template(
    mut gizmos: Gizmos,
    tool: Res<TemplateTool>,
    pointer: Res<PointerOnMap>,
    layout: Option<Res<MapLayout>>,
) {
    let Some(layout) = layout.filter(|_| tool.active) else { return };
    let Some(origin) = shown_origin(&tool, &layout, &pointer) else { return };
    let layout = layout.0;
    let centre = layout.world_point(origin.to_units(layout.grid));
    let color = Color::srgb(1.0, 0.55, 0.15);
    gizmos.circle_2d(centre, 6.0, color);
    let reach = layout.feet(tool.settings.feet);
    if tool.settings.kind.has_direction() {
        let angle = -(tool.degrees as f32).to_radians();
        gizmos.line_2d(centre, centre + Vec2::from_angle(angle) * reach, color);
    } else {
        gizmos.circle_2d(centre, reach, color).resolution(96);
    }
}
