//! The area template on the map: the origin snaps to the nearest grid intersection, the
//! direction follows the cursor until fixed, the covered cells are shaded and the creatures inside
//! listed in the panel; *Roll saves* has every creature inside save (the fight feature rolls).

use bevy::prelude::*;

use crate::app::core::layout::MapLayout;
use crate::app::core::messages::{SaveSource, SavesRequest, TemplateRequest, Toggle};
use crate::app::core::notice::{Notice, Said};
use crate::app::core::pointer::{MapKeys, PointerClaim, PointerOnMap, Tool, toggle_key};
use crate::app::core::requests::{SaveSettings, TemplateSettings};
use crate::app::core::schedule::AppSystems;
use crate::app::core::state::{CellShades, ShadeLayer};
use crate::app::core::tokens::Battlefield;
use crate::rules::area::{CoveredCell, Volume, covered_cells, degrees_toward, estimated_targets};
use crate::rules::dice::Notation;
use crate::rules::fight::saves::{SaveEffect, creatures_in_area};
use crate::rules::lattice::Point;
use crate::ui::{InsideView, TemplateView};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<TemplateTool>().add_systems(
        Update,
        (
            (toggle_key(KeyCode::KeyT, Toggle::Template), place_template).in_set(AppSystems::Input),
            (toggle_template, apply_template_requests).in_set(AppSystems::Apply),
            cover_template.in_set(AppSystems::Show),
        ),
    );
}

/// The template tool switches on and off, and off when the ruler switches (one tool at a time).
fn toggle_template(
    mut toggles: MessageReader<Toggle>,
    mut tool: ResMut<TemplateTool>,
    mut claim: ResMut<PointerClaim>,
) {
    for toggle in toggles.read() {
        match toggle {
            Toggle::Template => tool.toggle(),
            Toggle::Ruler => tool.active = false,
            _ => continue,
        }
        PointerClaim::set(&mut claim, Tool::Template, tool.active);
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
    pub saves: SaveSettings,
    /// The cells it covers now, with how much of each.
    pub covered: Vec<CoveredCell>,
    /// The origin and direction the shading was built for.
    shaded_for: Option<(Point, i64, TemplateSettings)>,
}

impl TemplateTool {
    fn toggle(&mut self) {
        self.active = !self.active;
        self.clear();
    }

    fn clear(&mut self) {
        self.origin = None;
        self.aimed = false;
    }

    /// The space the template fills now, from the ground up as its shape reaches.
    fn volume(&self) -> Volume {
        Volume::of(&self.covered, self.settings.shape(), 0)
    }
}

/// The panel's requests: the shape and size, the saving throw, and rolling it.
fn apply_template_requests(
    mut requests: MessageReader<TemplateRequest>,
    mut tool: ResMut<TemplateTool>,
    battlefield: Battlefield,
    mut saves: MessageWriter<SavesRequest>,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        match request {
            TemplateRequest::Settings(settings) => tool.settings = *settings,
            TemplateRequest::Saves(settings) => tool.saves = settings.clone(),
            TemplateRequest::RollSaves => {
                let Some(origin) = tool.origin else { continue };
                let asked = &tool.saves;
                let damage =
                    if asked.damage.trim().is_empty() { Ok(None) } else { Notation::parse(&asked.damage).map(Some) };
                let damage = match damage {
                    Ok(damage) => damage,
                    Err(error) => {
                        notice.say(Said::Dice(error));
                        continue;
                    }
                };
                let effect = SaveEffect {
                    ability: asked.ability,
                    dc: asked.dc,
                    damage,
                    damage_type: asked.damage_type,
                    half_on_success: asked.half_on_success,
                };
                let fighters = battlefield.fighters();
                let inside = creatures_in_area(&fighters.field(battlefield.scenario()), &tool.volume(), origin);
                saves.write(SavesRequest { inside, effect, source: SaveSource::Template });
            }
        }
    }
}

fn place_template(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: MapKeys,
    pointer: Res<PointerOnMap>,
    layout: Option<Res<MapLayout>>,
    mut tool: ResMut<TemplateTool>,
) {
    let Some(layout) = layout.filter(|_| tool.active) else { return };
    let layout = layout.0;
    let cursor = pointer.world.and_then(|w| layout.nearest_intersection(w));
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
        let to = layout.units(world);
        if (to.0 - from.0).hypot(to.1 - from.1) > 0.25 {
            let degrees = degrees_toward(from, to);
            if (degrees - tool.degrees).abs() > 1e-6 {
                tool.degrees = degrees;
            }
        }
    }
}

/// The origin the template is drawn from: fixed, or following the cursor.
pub(crate) fn shown_origin(tool: &TemplateTool, layout: &MapLayout, pointer: &PointerOnMap) -> Option<Point> {
    tool.origin.or_else(|| pointer.world.and_then(|w| layout.0.nearest_intersection(w)))
}

/// Works out what the template covers when its origin, direction or settings change: the cells
/// (shaded), the tokens and creatures inside with their cover (the panel).
fn cover_template(
    mut tool: ResMut<TemplateTool>,
    pointer: Res<PointerOnMap>,
    layout: Option<Res<MapLayout>>,
    battlefield: Battlefield,
    mut shades: ResMut<CellShades>,
) {
    let Some(layout) = layout else { return };
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
    CellShades::clear(&mut shades, ShadeLayer::Area);
    let Some(origin) = origin else {
        tool.view = TemplateView { settings: tool.settings, saves: tool.saves.clone(), ..TemplateView::default() };
        tool.covered.clear();
        return;
    };
    let shape = tool.settings.shape();
    let scenario = battlefield.scenario();
    tool.covered =
        covered_cells(&scenario.map, shape, origin.to_units(layout.0.grid), tool.degrees).unwrap_or_default();
    let volume = tool.volume();
    let fighters = battlefield.fighters();
    let field = fighters.field(scenario);
    let touched: Vec<String> = field.in_area(&volume).map(|f| f.name().to_owned()).collect();
    let creatures = creatures_in_area(&field, &volume, origin)
        .into_iter()
        .map(|c| InsideView { name: c.name, cover: c.cover.label().to_owned(), sheltered: c.unaffected.is_some() })
        .collect();
    tool.view = TemplateView {
        settings: tool.settings,
        creatures,
        saves: tool.saves.clone(),
        fixed: tool.origin.is_some(),
        inside: touched,
        cells: tool.covered.len(),
        estimate: estimated_targets(shape.table_area(), tool.settings.feet),
        placed: true,
    };
    let color = Color::srgba(1.0, 0.45, 0.1, 0.38);
    let cells = tool.covered.iter().map(|c| (c.cell, color)).collect();
    shades.set(ShadeLayer::Area, cells);
}
