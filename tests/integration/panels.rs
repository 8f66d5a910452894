//! The panels as functions, driven by egui_kittest without a window.

use battlemap::rules::creature::{Abilities, Side};
use battlemap::rules::{Cell, Grid, Size};
use battlemap::scenario::{RuleOptions, TokenKind};
use battlemap::ui::{PanelRequest, RosterView, StatusEdit, StatusView, TokenDetails, TokenRow, roster_panel, status_bar};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn row(id: &str, name: &str, side: Side) -> TokenRow {
    TokenRow { id: id.into(), name: name.into(), kind: TokenKind::Creature, side, size: Size::Medium, hp: 7, max_hp: 12, ac: 15, speed: 30 }
}

fn roster(selected: Option<&str>) -> RosterView {
    RosterView {
        rows: vec![row("brom", "Brom", Side::Party), row("thug", "Thug", Side::Enemy)],
        selected: selected.map(|id| TokenDetails {
            id: id.into(),
            anchor: Cell::new(3, 5),
            cells: 1,
            abilities: Abilities { str: 3, ..Abilities::default() },
            facing: None,
            shield: None,
            player_character: true,
        }),
    }
}

#[test]
fn clicking_a_name_asks_to_select_it() {
    let mut harness = Harness::new_ui_state(
        |ui, requests: &mut Vec<PanelRequest>| requests.extend(roster_panel(ui, &roster(None))),
        Vec::new(),
    );
    harness.get_by_label("Thug").click();
    harness.run();
    assert!(harness.state().contains(&PanelRequest::Select("thug".into())), "{:?}", harness.state());
    assert_eq!(harness.get_all_by_label("7/12").count(), 2, "both rows show their hit points");
}

#[test]
fn the_selected_creature_shows_its_card() {
    let mut harness = Harness::new_ui_state(
        |ui, requests: &mut Vec<PanelRequest>| requests.extend(roster_panel(ui, &roster(Some("brom")))),
        Vec::new(),
    );
    harness.run();
    assert!(harness.query_by_label("7 of 12").is_some());
    assert!(harness.query_by_label("(3, 5)").is_some());
    assert!(harness.query_by_label("+3 +0 +0").is_some());
    // Clicking the selected name again clears the selection.
    harness.get_all_by_label("Brom").next().expect("the row").click();
    harness.run();
    assert!(harness.state().contains(&PanelRequest::ClearSelection), "{:?}", harness.state());
}

fn status() -> StatusView {
    StatusView {
        scenario_name: "Tavern".into(),
        source: "scenes/tavern_brawl.ron".into(),
        grid: Grid::Square,
        rules: RuleOptions { flanking: true, ..RuleOptions::default() },
        grid_visible: true,
        hovered: Some((Cell::new(4, 2), "floor".into())),
        message: None,
    }
}

#[test]
fn the_status_bar_shows_the_rules_and_toggles_the_grid() {
    let mut harness = Harness::new_ui_state(
        |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| requests.extend(status_bar(ui, &status(), edit)),
        (StatusEdit::default(), Vec::new()),
    );
    harness.run();
    assert!(harness.query_by_label("Diagonals: every square 5 ft · Flanking on · Facing off").is_some());
    assert!(harness.query_by_label("square (x, y) (4, 2): floor").is_some());
    harness.get_by_label("Grid (G)").click();
    harness.run();
    assert!(harness.state().1.contains(&PanelRequest::ShowGrid(false)), "{:?}", harness.state().1);
}

#[test]
fn typing_a_path_and_pressing_open_asks_for_it() {
    let mut harness = Harness::new_ui_state(
        |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| requests.extend(status_bar(ui, &status(), edit)),
        (StatusEdit::default(), Vec::new()),
    );
    harness.run();
    harness.get_by_label("Open").click();
    harness.run();
    assert!(harness.state().1.is_empty(), "nothing to open yet");
    harness.state_mut().0.open_path = "scenes/hex_skirmish.ron".into();
    harness.get_by_label("Open").click();
    harness.run();
    assert_eq!(harness.state().1, vec![PanelRequest::Open("scenes/hex_skirmish.ron".into())]);
}
