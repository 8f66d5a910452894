//! The egui pass: builds the panels' view models from the ECS, draws them with [`crate::ui`],
//! and turns the user's requests into messages.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::camera::{FitMap, MapViewRect};
use super::components::*;
use super::input::PointerOnMap;
use super::state::{GridVisible, LoadedScenario, Notice, OpenScenario, SelectToken, Selection};
use crate::ui::{PanelRequest, RosterView, StatusEdit, StatusView, TokenDetails, TokenRow, roster_panel, status_bar};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StatusEditState>().add_systems(EguiPrimaryContextPass, draw_panels);
}

#[derive(Resource, Default)]
struct StatusEditState(StatusEdit);

type TokenQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static TokenId,
        &'static DisplayName,
        &'static Kind,
        &'static Allegiance,
        &'static CreatureSize,
        &'static Vitals,
        &'static Position,
        &'static AbilityModifiers,
        Option<&'static Facing>,
        Option<&'static Shield>,
        Has<PlayerCharacter>,
        &'static RosterOrder,
    ),
>;

/// The roster's view model: every token in scenario order, and the selected one in detail.
fn roster_view(tokens: &TokenQuery, selection: Selection, grid: crate::rules::Grid) -> RosterView {
    let mut rows: Vec<_> = tokens.iter().collect();
    rows.sort_by_key(|row| *row.12);
    let selected = selection.0.and_then(|e| tokens.get(e).ok()).map(
        |(_, id, _, _, _, size, _, position, abilities, facing, shield, pc, _)| TokenDetails {
            id: id.0.clone(),
            anchor: position.0,
            cells: crate::rules::Footprint::of(grid, size.size, size.square_side).len(),
            abilities: abilities.0,
            facing: facing.map(|f| f.0),
            shield: shield.map(|s| s.0),
            player_character: pc,
        },
    );
    RosterView {
        rows: rows
            .into_iter()
            .map(|(_, id, name, kind, side, size, vitals, ..)| TokenRow {
                id: id.0.clone(),
                name: name.0.clone(),
                kind: kind.0,
                side: side.0,
                size: size.size,
                hp: vitals.hp,
                max_hp: vitals.max_hp,
                ac: vitals.ac,
                speed: vitals.speed,
            })
            .collect(),
        selected,
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_panels(
    mut contexts: EguiContexts,
    tokens: TokenQuery,
    selection: Res<Selection>,
    loaded: Res<LoadedScenario>,
    pointer: Res<PointerOnMap>,
    notice: Res<Notice>,
    mut grid_visible: ResMut<GridVisible>,
    mut edit: ResMut<StatusEditState>,
    mut view_rect: ResMut<MapViewRect>,
    mut select: MessageWriter<SelectToken>,
    mut open: MessageWriter<OpenScenario>,
    mut fit: MessageWriter<FitMap>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let scenario = &loaded.scenario;
    let roster = roster_view(&tokens, *selection, scenario.grid);
    let status = StatusView {
        scenario_name: scenario.name.clone(),
        source: loaded.source_name(),
        grid: scenario.grid,
        rules: scenario.rules,
        grid_visible: grid_visible.0,
        hovered: pointer.cell.map(|c| (c, scenario.map.terrain(c).map_or_else(String::new, |t| t.name.clone()))),
        message: notice.0.clone(),
    };
    let mut root = egui::Ui::new(
        ctx.clone(),
        "battlemap-root".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let mut requests = egui::Panel::bottom("status").show(&mut root, |ui| status_bar(ui, &status, &mut edit.0)).inner;
    requests.extend(
        egui::Panel::left("roster")
            .resizable(true)
            .default_size(330.0)
            .show(&mut root, |ui| roster_panel(ui, &roster))
            .inner,
    );
    let free = root.available_rect_before_wrap();
    let free = Some(Rect::new(free.min.x, free.min.y, free.max.x, free.max.y));
    if view_rect.0 != free {
        view_rect.0 = free;
    }
    for request in requests {
        match request {
            PanelRequest::Select(id) => {
                select.write(SelectToken(Some(id)));
            }
            PanelRequest::ClearSelection => {
                select.write(SelectToken(None));
            }
            PanelRequest::ShowGrid(on) => grid_visible.0 = on,
            PanelRequest::Open(path) => {
                open.write(OpenScenario { path: Some(path.into()) });
            }
            PanelRequest::Reload => {
                open.write(OpenScenario { path: None });
            }
            PanelRequest::FitMap => {
                fit.write(FitMap);
            }
        }
    }
    Ok(())
}
