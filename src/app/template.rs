//! The area template on the map: the origin snaps to the nearest grid intersection, the
//! direction follows the cursor until fixed, and the covered cells are shaded with the creatures
//! inside listed in the panel.

use bevy::prelude::*;

use super::AppSystems;
use super::board::{Board, CellShades, ShadeLayer};
use super::input::{MapKeys, PointerOnMap, toggle_key};
use super::layout::BoardLayout;
use super::movement::{TokenSpaces, occupants};
use super::state::{LoadedScenario, Toggle};
use crate::rules::Grid;
use crate::rules::area::{covered_cells, degrees_toward, estimated_targets, holders};
use crate::rules::lattice::{self, Point};
use crate::ui::{TemplateSettings, TemplateView};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TemplateTool>().add_systems(
        Update,
        (
            (toggle_key(KeyCode::KeyT, Toggle::Template), place_template).in_set(AppSystems::Input),
            toggle_template.in_set(AppSystems::Apply),
            (cover_template, draw_template).chain().in_set(AppSystems::Show),
        ),
    );
}

/// The template tool switches on and off, and off when the ruler switches (one tool at a time).
fn toggle_template(mut toggles: MessageReader<Toggle>, mut tool: ResMut<TemplateTool>) {
    for toggle in toggles.read() {
        match toggle {
            Toggle::Template => tool.toggle(),
            Toggle::Ruler => tool.active = false,
            _ => {}
        }
    }
}

/// The template tool's state.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub(crate) struct TemplateTool {
    pub active: bool,
    pub settings: TemplateSettings,
    /// The fixed origin, once clicked.
    pub origin: Option<Point>,
    /// The direction, degrees clockwise from east, and whether it is fixed.
    pub degrees: f64,
    pub aimed: bool,
    /// What the template covers now (for the panel).
    pub view: TemplateView,
    /// The saving throw it asks for.
    pub saves: crate::ui::SaveSettings,
    /// The cells it covers now, with how much of each.
    pub covered: Vec<crate::rules::area::CoveredCell>,
    /// The origin and direction the shading was built for.
    shaded_for: Option<(Point, i64, TemplateSettings)>,
}

impl TemplateTool {
    pub(crate) fn toggle(&mut self) {
        self.active = !self.active;
        self.clear();
    }

    pub(crate) fn clear(&mut self) {
        self.origin = None;
        self.aimed = false;
    }
}

/// The grid intersection nearest a world point: a square's corner, or a hex's corner.
pub(crate) fn nearest_intersection(layout: &BoardLayout, world: Vec2) -> Option<Point> {
    let units = (
        f64::from(world.x) / f64::from(super::layout::PIXELS_PER_UNIT),
        -f64::from(world.y) / f64::from(super::layout::PIXELS_PER_UNIT),
    );
    match layout.grid {
        Grid::Square => Some(Point::square_corner(units.0.round() as i32, units.1.round() as i32)),
        Grid::Hex(_) => {
            let cell = layout.cell_at(world)?;
            lattice::corners(layout.grid, cell).into_iter().min_by(|a, b| {
                let d = |p: &Point| {
                    let (x, y) = p.to_units(layout.grid);
                    (x - units.0).powi(2) + (y - units.1).powi(2)
                };
                d(a).total_cmp(&d(b))
            })
        }
    }
}

fn place_template(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: MapKeys,
    pointer: Res<PointerOnMap>,
    board: Option<Res<Board>>,
    mut tool: ResMut<TemplateTool>,
) {
    let Some(board) = board.filter(|_| tool.active) else { return };
    let layout = board.0;
    let cursor = pointer.world.and_then(|w| nearest_intersection(&layout, w));
    if buttons.just_pressed(MouseButton::Right) && pointer.screen.is_some() {
        tool.clear();
    }
    if buttons.just_pressed(MouseButton::Left) && pointer.screen.is_some() {
        match (tool.origin, tool.aimed || !tool.settings.kind.has_direction()) {
            (None, _) | (Some(_), true) => {
                tool.origin = cursor;
                tool.aimed = false;
            }
            (Some(_), false) => tool.aimed = true,
        }
    }
    // Ctrl+E opens the editor: only a bare Q or E turns the template.
    if tool.aimed && !keys.control() {
        if keys.pressed(KeyCode::KeyQ) {
            tool.degrees -= 15.0;
        }
        if keys.pressed(KeyCode::KeyE) {
            tool.degrees += 15.0;
        }
    } else if let (Some(origin), Some(world)) = (tool.origin, pointer.world) {
        let from = origin.to_units(layout.grid);
        let to = (
            f64::from(world.x) / f64::from(super::layout::PIXELS_PER_UNIT),
            -f64::from(world.y) / f64::from(super::layout::PIXELS_PER_UNIT),
        );
        if (to.0 - from.0).hypot(to.1 - from.1) > 0.25 {
            let degrees = degrees_toward(from, to);
            if (degrees - tool.degrees).abs() > 1e-6 {
                tool.degrees = degrees;
            }
        }
    }
}

/// The origin the template is drawn from: fixed, or following the cursor.
fn shown_origin(tool: &TemplateTool, layout: &BoardLayout, pointer: &PointerOnMap) -> Option<Point> {
    tool.origin.or_else(|| pointer.world.and_then(|w| nearest_intersection(layout, w)))
}

#[allow(clippy::too_many_arguments)]
fn cover_template(
    mut tool: ResMut<TemplateTool>,
    pointer: Res<PointerOnMap>,
    board: Option<Res<Board>>,
    loaded: Res<LoadedScenario>,
    tokens: TokenSpaces,
    names: Query<&super::components::DisplayName>,
    fight_tokens: super::fight::FightTokens,
    mut shades: ResMut<CellShades>,
) {
    let Some(board) = board else { return };
    let layout = board.0;
    let origin = shown_origin(&tool, &layout, &pointer).filter(|_| tool.active);
    let key = origin.map(|o| (o, (tool.degrees * 1000.0).round() as i64, tool.settings));
    if key == tool.shaded_for {
        if tool.view.saves != tool.saves || tool.view.fixed != tool.origin.is_some() {
            tool.view.saves = tool.saves.clone();
            tool.view.fixed = tool.origin.is_some();
        }
        return;
    }
    tool.shaded_for = key;
    shades.set(ShadeLayer::Area, Vec::new());
    let Some(origin) = origin else {
        tool.view = TemplateView { settings: tool.settings, saves: tool.saves.clone(), ..TemplateView::default() };
        tool.covered.clear();
        return;
    };
    let shape = tool.settings.shape();
    let cells =
        covered_cells(&loaded.scenario.map, shape, origin.to_units(layout.grid), tool.degrees).unwrap_or_default();
    let everyone = occupants(&layout, &tokens);
    let name_of = |id: &str| {
        let entity = tokens.iter().find(|t| t.1.0 == id).map(|t| t.0);
        entity.and_then(|e| names.get(e).ok()).map_or_else(|| id.to_owned(), |n| n.0.clone())
    };
    let touched: Vec<String> = holders(&cells, &everyone).into_iter().map(|o| name_of(&o.id)).collect();
    let all = super::fight::fighters(&loaded, &fight_tokens);
    let field = all.field(&loaded);
    let creatures = crate::rules::fight::saves::creatures_in_area(&field, &cells, origin)
        .into_iter()
        .map(|c| crate::ui::InsideView {
            name: c.name,
            cover: c.cover.label().to_owned(),
            sheltered: c.sheltered.is_some(),
        })
        .collect();
    tool.view = TemplateView {
        settings: tool.settings,
        creatures,
        saves: tool.saves.clone(),
        fixed: tool.origin.is_some(),
        inside: touched,
        cells: cells.len(),
        estimate: estimated_targets(shape.table_area(), tool.settings.feet),
        placed: true,
    };
    tool.covered.clone_from(&cells);
    let color = Color::srgba(1.0, 0.45, 0.1, 0.38);
    shades.set(ShadeLayer::Area, cells.iter().map(|c| (c.cell, color)).collect());
}

fn draw_template(mut gizmos: Gizmos, tool: Res<TemplateTool>, pointer: Res<PointerOnMap>, board: Option<Res<Board>>) {
    let Some(board) = board.filter(|_| tool.active) else { return };
    let layout = board.0;
    let Some(origin) = shown_origin(&tool, &layout, &pointer) else { return };
    let centre = layout.world_point(origin.to_units(layout.grid));
    let color = Color::srgb(1.0, 0.55, 0.15);
    gizmos.circle_2d(centre, 6.0, color);
    if tool.settings.kind.has_direction() {
        let angle = -(tool.degrees as f32).to_radians();
        let reach = tool.settings.feet as f32 / 5.0 * super::layout::PIXELS_PER_UNIT;
        gizmos.line_2d(centre, centre + Vec2::from_angle(angle) * reach, color);
    } else {
        gizmos
            .circle_2d(centre, tool.settings.feet as f32 / 5.0 * super::layout::PIXELS_PER_UNIT, color)
            .resolution(96);
    }
}
