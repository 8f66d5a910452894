//! The panels as functions, driven by egui_kittest without a window.

use battlemap::app::core::requests::{SaveSettings, TemplateSettings};
use battlemap::rules::conditions::{Condition, Conditions};
use battlemap::rules::creature::{Abilities, Side};
use battlemap::rules::economy::{Action, Economy, Readied, Response, Trigger, TurnOptions};
use battlemap::rules::health::{DeathSaves, Health};
use battlemap::rules::siege::Step;
use battlemap::rules::{Cell, Grid, Size};
use battlemap::scenario::{RuleOptions, TokenKind};
use battlemap::ui::{
    DiceEdit, DiceView, EntryView, FightAction, FightEdit, FightView, InitiativeAction, InitiativeView, InsideView,
    MovementView, NearbyWeapon, PanelRequest, PromptView, RosterView, ShapeKind, SiegeAction, SiegeView, StatusEdit,
    StatusView, TemplateView, TokenDetails, TokenRow, TurnAction, TurnEdit, TurnView, WeaponCard, card_panel,
    dice_panel, fight_section, initiative_panel, reaction_prompt, roster_panel, siege_section, status_bar,
    template_panel, turn_section,
};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

fn row(id: &str, name: &str, side: Side) -> TokenRow {
    TokenRow {
        id: id.into(),
        name: name.into(),
        kind: TokenKind::Creature,
        side,
        size: Size::Medium,
        hp: "7/12".into(),
        ac: 15,
        speed: 30,
        initiative: (side == Side::Party).then_some(17),
    }
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
            seat: None,
            dm: false,
            turn: Some(turn_view()),
            secret: None,
            inspiration: Some(false),
            experience: None,
            exhaustion: 0,
            fight: Some(fight_view()),
            siege: SiegeView::default(),
            effects: None,
            stat_block: None,
        }),
    }
}

/// The roster's list, then the selected creature's card (two panels in the app), with what they
/// ask for.
fn roster_and_card(ui: &mut bevy_egui::egui::Ui, view: &RosterView) -> Vec<PanelRequest> {
    let list = bevy_egui::egui::vec2(ui.available_width(), 200.0);
    let mut asked = ui.allocate_ui(list, |ui| roster_panel(ui, view)).inner;
    asked.extend(card_panel(ui, view, &mut FightEdit::default(), &mut TurnEdit::default()));
    asked
}

/// The roster panel with `selected` picked, collecting what it asks for.
fn roster_harness(selected: Option<&str>) -> Harness<'static, Vec<PanelRequest>> {
    let view = roster(selected);
    Harness::new_ui_state(
        move |ui, requests: &mut Vec<PanelRequest>| {
            requests.extend(roster_and_card(ui, &view));
        },
        Vec::new(),
    )
}

fn turn_view() -> TurnView {
    TurnView {
        fight_runs: false,
        active: true,
        left: Economy::default().left(&TurnOptions::default(), &Default::default()),
        movement: MovementView { speed: 30, left: 20, allowance: 30, dashes: 0, moves: 1, active: true },
        attacks_per_action: 1,
        bonus_actions: Vec::new(),
        readied: None,
        fires_by_hand: false,
        dm: false,
        allies: vec![("lia".into(), "Lia".into())],
        enemies_near: vec![("thug".into(), "Thug".into())],
        others: vec![("lia".into(), "Lia".into()), ("thug".into(), "Thug".into())],
        attacks: vec!["Longsword".into()],
        hidden: false,
    }
}

fn fight_view() -> FightView {
    FightView {
        exact_hp: true,
        health: Health::new(7, 12, true, DeathSaves::default()),
        max_hp: 12,
        conditions: Conditions::default(),
        exhaustion: 0,
        attacks: vec![
            ("Longsword".into(), "+5 to hit, 1d8+3 slashing, reach 5 ft".into()),
            ("Handaxe".into(), "+5 to hit, 1d6+3 slashing, range 20/60 ft".into()),
        ],
        picked: None,
        dodging: false,
        prone: false,
        defenses: String::new(),
        turns: true,
        shield: None,
        arcs: None,
    }
}

/// The fight on the card: picking an attack, damage and healing, conditions, turning, death saves.
#[test]
fn the_card_runs_the_fight() {
    let run = |view: FightView, click: &[&str]| {
        let mut harness = Harness::new_ui_state(
            move |ui, (edit, requests): &mut (FightEdit, Vec<PanelRequest>)| {
                requests.extend(fight_section(ui, "brom", &view, edit));
            },
            (FightEdit::default(), Vec::new()),
        );
        harness.run();
        for label in click {
            harness.get_by_label(label).click();
            harness.run();
        }
        harness
            .state()
            .1
            .iter()
            .map(|r| match r {
                PanelRequest::Fight { id, action } if id == "brom" => action.clone(),
                other => panic!("{other:?}"),
            })
            .collect::<Vec<_>>()
    };
    let actions =
        run(fight_view(), &["2. Handaxe: +5 to hit, 1d6+3 slashing, range 20/60 ft", "Damage", "Heal", "Turn ]"]);
    assert_eq!(
        actions,
        [
            FightAction::PickAttack(Some("Handaxe".into())),
            FightAction::Damage(5),
            FightAction::Heal(5),
            FightAction::Turn { clockwise: true }
        ]
    );
    let picked = FightView { picked: Some("Handaxe".into()), ..fight_view() };
    assert_eq!(
        run(picked, &["2. Handaxe: +5 to hit, 1d6+3 slashing, range 20/60 ft"]),
        [FightAction::PickAttack(None)],
        "a second click puts it down"
    );
    assert_eq!(run(fight_view(), &["Conditions (0)", "prone"]), [FightAction::Condition(Condition::Prone, true)]);
    let dying =
        FightView { health: Health::new(0, 12, true, DeathSaves { successes: 1, failures: 2 }), ..fight_view() };
    assert_eq!(run(dying, &["Roll death save", "Stabilize"]), [FightAction::DeathSave, FightAction::Stabilize]);
}

#[test]
fn clicking_a_name_asks_to_select_it() {
    let mut harness = roster_harness(None);
    harness.get_by_label("Thug").click();
    harness.run();
    assert!(harness.state().contains(&PanelRequest::Select("thug".into())), "{:?}", harness.state());
    assert_eq!(harness.get_all_by_label("7/12").count(), 2, "both rows show their hit points");
    assert!(harness.query_by_label("17").is_some() && harness.query_by_label("—").is_some(), "initiative, once rolled");
}

#[test]
fn the_selected_creature_shows_its_card() {
    let mut harness = roster_harness(Some("brom"));
    harness.run();
    assert!(harness.query_by_label("HP 7 / 12").is_some());
    assert!(harness.query_by_label("(3, 5)").is_some());
    assert!(harness.query_by_label("Str").is_some() && harness.query_by_label("+3").is_some());
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
        pinned: Vec::new(),
        ruler_active: false,
        sight_overlay: false,
        template_active: false,
        open_panels: Vec::new(),
        chase_open: false,
        chase_paused: false,
        turn: Some((2, "Brom".into())),
        dm: false,
        fog_brush: None,
        editing: false,
        undo: 3,
        redo: 0,
        can_undo: true,
        can_redo: false,
    }
}

#[test]
fn the_status_bar_shows_the_rules_and_toggles_the_grid() {
    let mut harness = Harness::new_ui_state(
        |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| requests.extend(status_bar(ui, &status(), edit)),
        (StatusEdit::default(), Vec::new()),
    );
    harness.run();
    assert!(harness.query_by_label("Flanking on · Facing off").is_some());
    assert!(harness.query_by_label("Round 2: Brom's turn").is_some());
    harness.get_by_label("Diagonals: every square 5 ft").click();
    harness.run();
    harness.get_by_label("Ruler (R)").click();
    harness.run();
    assert_eq!(harness.state().1, vec![PanelRequest::ToggleDiagonals, PanelRequest::ToggleRuler]);
    harness.state_mut().1.clear();
    assert!(harness.query_by_label("square (x, y) (4, 2): floor").is_some());
    harness.get_by_label("Grid (G)").click();
    harness.run();
    assert!(harness.state().1.contains(&PanelRequest::ShowGrid(false)), "{:?}", harness.state().1);
}

/// What the user must not miss is above the bar, every one of them, each with its Dismiss, while
/// the last notice is still said in the bar (issue 38, item 5).
#[test]
fn pinned_notices_are_all_shown_above_the_bar_until_dismissed() {
    let view = StatusView {
        pinned: vec!["The autosave was not restored".into(), "The roll log came back with 2 of 9 rolls".into()],
        message: Some(("A picture can't be shown".into(), true)),
        ..status()
    };
    let mut harness = Harness::new_ui_state(
        move |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| requests.extend(status_bar(ui, &view, edit)),
        (StatusEdit::default(), Vec::new()),
    );
    harness.run();
    for text in
        ["The autosave was not restored", "The roll log came back with 2 of 9 rolls", "A picture can't be shown"]
    {
        assert!(harness.query_by_label(text).is_some(), "{text}");
    }
    let dismiss: Vec<_> = harness.get_all_by_label("Dismiss").collect();
    assert_eq!(dismiss.len(), 2);
    dismiss[1].click();
    harness.run();
    assert_eq!(harness.state().1, vec![PanelRequest::DismissPinned(1)]);
}

/// On a touch screen the panels' buttons are a finger's height (issue 30, "Touch"), and a tap on
/// one still asks for what it says; with the mouse's style they are smaller.
#[test]
fn the_buttons_are_finger_sized_for_a_touch_screen() {
    use battlemap::ui::style::{FINGER_HEIGHT, finger_sized};
    for fingers in [false, true] {
        let mut harness = Harness::new_ui_state(
            move |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| {
                if fingers {
                    finger_sized(ui.style_mut());
                }
                requests.extend(status_bar(ui, &status(), edit));
            },
            (StatusEdit::default(), Vec::new()),
        );
        harness.run();
        let heights: Vec<f32> = ["Next turn (N)", "Ruler (R)", "Fit map (F)", "Open", "Save"]
            .iter()
            .map(|label| harness.get_by_label(label).rect().height())
            .collect();
        if fingers {
            assert!(heights.iter().all(|&h| h >= FINGER_HEIGHT), "{heights:?}");
        } else {
            assert!(heights.iter().all(|&h| h < FINGER_HEIGHT * 0.75), "{heights:?}");
        }
        harness.get_by_label("Next turn (N)").click();
        harness.run();
        assert_eq!(harness.state().1, vec![PanelRequest::NextTurn]);
    }
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

#[test]
fn the_card_shows_movement_and_sends_turn_actions() {
    let mut harness = roster_harness(Some("brom"));
    harness.run();
    assert!(harness.query_by_label("+ Movement 20 of 30 ft").is_some());
    for label in ["+ Action", "+ Reaction", "+ Object"] {
        assert!(harness.query_by_label(label).is_some(), "{label}");
    }
    assert!(harness.query_by_label("+ Bonus action").is_none(), "nothing to spend a bonus action on");
    for button in ["Dash", "Disengage", "Undo move", "Restart turn"] {
        harness.get_by_label(button).click();
        harness.run();
    }
    let turn = |action| PanelRequest::Turn { id: "brom".into(), action };
    assert_eq!(
        harness.state(),
        &vec![
            turn(TurnAction::Act(Action::Dash)),
            turn(TurnAction::Act(Action::Disengage)),
            turn(TurnAction::Undo),
            turn(TurnAction::StartTurn)
        ]
    );
}

/// The turn section: spent parts greyed, the action buttons off out of the creature's turn, and
/// the Help and Ready forms.
#[test]
fn the_turn_section_spends_what_is_left_and_fills_help_and_ready() {
    let run = |view: TurnView, edit: TurnEdit| {
        let mut harness = Harness::new_ui_state(
            move |ui, (edit, requests): &mut (TurnEdit, Vec<PanelRequest>)| {
                requests.extend(turn_section(ui, "brom", &view, edit));
            },
            (edit, Vec::new()),
        );
        harness.run();
        harness
    };
    let mut spent = Economy::default();
    spent.take(Action::Dash, &TurnOptions::default(), &Conditions::NONE).expect("free");
    spent.react(&Conditions::NONE).expect("free");
    let view =
        TurnView { fight_runs: true, left: spent.left(&TurnOptions::default(), &Default::default()), ..turn_view() };
    let harness = run(view, TurnEdit::default());
    assert!(harness.query_by_label("- Action").is_some() && harness.query_by_label("- Reaction").is_some());
    assert!(harness.get_by_label("Disengage").accesskit_node().is_disabled(), "the action is spent");

    let waiting = TurnView { fight_runs: true, active: false, ..turn_view() };
    let harness = run(waiting, TurnEdit::default());
    assert!(harness.query_by_label("Waiting for its turn (it can still react)").is_some());
    assert!(harness.get_by_label("Dash").accesskit_node().is_disabled(), "not its turn");

    let chosen = TurnEdit {
        help_ally: Some("lia".into()),
        help_target: Some("thug".into()),
        ready_attack: Some("Longsword".into()),
        ready_trigger: Some("thug".into()),
        ..TurnEdit::default()
    };
    let mut harness = run(TurnView { fight_runs: true, ..turn_view() }, chosen);
    harness.get_by_label("Help").click();
    harness.run();
    harness.get_by_label("Ready").click();
    harness.run();
    let spell = TurnEdit {
        ready_text: "bless".into(),
        ready_spell: true,
        ready_when: "the door opens".into(),
        ..TurnEdit::default()
    };
    let mut words = run(TurnView { fight_runs: true, ..turn_view() }, spell);
    words.get_by_label("Ready").click();
    words.run();
    let readied =
        Readied { trigger: Trigger::Other("the door opens".into()), response: Response::Spell("bless".into()) };
    assert_eq!(words.state().1, vec![PanelRequest::Turn { id: "brom".into(), action: TurnAction::Ready(readied) }]);
    let holding = TurnView { readied: Some("cast bless".into()), fires_by_hand: true, ..turn_view() };
    let mut fire = run(holding, TurnEdit::default());
    fire.get_by_label("Fire").click();
    fire.run();
    assert_eq!(fire.state().1, vec![PanelRequest::Turn { id: "brom".into(), action: TurnAction::FireReadied }]);
    let players = run(TurnView { fight_runs: true, ..turn_view() }, TurnEdit::default());
    assert!(players.query_by_label("Restart turn").is_none(), "in a fight only the DM starts turns by hand");

    assert_eq!(
        harness.state().1,
        vec![
            PanelRequest::Turn {
                id: "brom".into(),
                action: TurnAction::Help { ally: "lia".into(), target: "thug".into() }
            },
            PanelRequest::Turn {
                id: "brom".into(),
                action: TurnAction::Ready(Readied {
                    trigger: Trigger::Moves(Some("thug".into())),
                    response: Response::Attack("Longsword".into())
                })
            },
        ]
    );
}

#[test]
fn the_reaction_prompt_answers_with_its_buttons() {
    let view = PromptView {
        title: "Opportunity attack?".into(),
        lines: vec!["Lia is leaving Thug's reach (5 ft) at (5, 7).".into()],
        yes: "Opportunity attack".into(),
        no: "Let it go".into(),
        seat: None,
    };
    for (button, answer) in [("Opportunity attack", true), ("Let it go", false)] {
        let view = view.clone();
        let mut harness = Harness::builder().with_size(bevy_egui::egui::Vec2::new(600.0, 400.0)).build_ui_state(
            move |ui, answers: &mut Vec<bool>| {
                answers.extend(reaction_prompt(ui.ctx(), &view, ui.ctx().content_rect()));
            },
            Vec::new(),
        );
        harness.run();
        assert!(harness.query_by_label("Lia is leaving Thug's reach (5 ft) at (5, 7).").is_some());
        harness.get_by_label(button).click();
        harness.run();
        assert_eq!(harness.state(), &vec![answer]);
    }
}

/// One screen, two audiences: each secret the players' view keeps (hidden initiative entries,
/// hidden rolls, monsters' hit points), shown in the DM's view; the switch asks first.
#[test]
fn the_players_view_keeps_each_secret() {
    let entry = |id: &str, name: &str, hidden: bool, current: bool| EntryView {
        id: id.into(),
        name: name.into(),
        side: if id == "lia" { Side::Party } else { Side::Enemy },
        initiative: 15,
        current,
        hidden,
    };
    let order = |dm: bool| InitiativeView {
        round: 2,
        entries: vec![entry("lia", "Lia", false, true), entry("lurker", "Lurker", true, false)],
        absent: vec![("rat".into(), "Rat".into())],
        dm,
    };
    for dm in [false, true] {
        let view = order(dm);
        let mut harness = Harness::new_ui_state(
            move |ui, (adding, requests): &mut (Option<String>, Vec<PanelRequest>)| {
                requests.extend(initiative_panel(ui, &view, adding));
            },
            (None, Vec::new()),
        );
        harness.run();
        assert!(harness.query_by_label("Round 2").is_some() && harness.query_by_label("Lia").is_some());
        assert_eq!(harness.query_by_label("Lurker").is_some(), dm, "a hidden entry only in the DM's view");
        assert_eq!(harness.query_by_label("Add").is_some(), dm, "the DM's controls");
        harness.get_by_label("Delay").click();
        harness.run();
        assert_eq!(harness.state().1, vec![PanelRequest::Initiative(InitiativeAction::Delay)]);
    }

    let log = vec![("The DM: 1d20 = 17 (ambush)".to_owned(), "The DM rolled.".to_owned(), true)];
    for dm in [false, true] {
        let view = DiceView { seed: 1, log: log.clone(), dm, roller: "the DM".into(), inspired: false };
        let tables = Vec::new();
        let harness = Harness::builder().with_size(bevy_egui::egui::Vec2::new(420.0, 900.0)).build_ui_state(
            move |ui, edit: &mut DiceEdit| {
                dice_panel(ui, &view, &tables, edit);
            },
            DiceEdit::default(),
        );
        let (full, player) = ("(hidden) The DM: 1d20 = 17 (ambush)", "The DM rolled.");
        assert_eq!(harness.query_by_label(full).is_some(), dm);
        assert_eq!(harness.query_by_label(player).is_some(), !dm);
    }

    for exact_hp in [false, true] {
        let view = FightView { exact_hp, health: Health::new(5, 12, false, DeathSaves::default()), ..fight_view() };
        let harness = Harness::new_ui_state(
            move |ui, edit: &mut FightEdit| {
                fight_section(ui, "thug", &view, edit);
            },
            FightEdit::default(),
        );
        assert_eq!(harness.query_by_label("HP: bloodied").is_some(), !exact_hp, "only the state for players");
        assert_eq!(harness.query_by_label("HP 5 / 12 · bloodied").is_some(), exact_hp);
    }

    let mut harness = Harness::new_ui_state(
        |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| {
            requests.extend(status_bar(ui, &status(), edit));
        },
        (StatusEdit::default(), Vec::new()),
    );
    harness.get_by_label("DM's view...").click();
    harness.run();
    assert!(harness.state().1.is_empty(), "not at once: a confirmation first");
    harness.get_by_label("Show the DM's view").click();
    harness.run();
    assert_eq!(harness.state().1, vec![PanelRequest::Audience(true)]);
}

#[test]
fn the_template_panel_changes_the_shape_and_lists_who_is_inside() {
    let view = TemplateView {
        settings: TemplateSettings::default(),
        inside: vec!["Lia".into(), "Sera".into()],
        cells: 52,
        estimate: 4,
        placed: true,
        ..TemplateView::default()
    };
    let mut harness = Harness::new_ui_state(
        |ui, requests: &mut Vec<PanelRequest>| requests.extend(template_panel(ui, &view)),
        Vec::new(),
    );
    harness.run();
    assert!(harness.query_by_label("Inside: Lia, Sera").is_some());
    assert!(harness.query_by_label("52 cells; the table estimates 4 targets.").is_some());
    harness.get_by_label("Cone").click();
    harness.run();
    let cone = TemplateSettings { kind: ShapeKind::Cone, ..TemplateSettings::default() };
    assert!(harness.state().contains(&PanelRequest::SetTemplate(cone)), "{:?}", harness.state());
}

/// Issue 5: rolling on a table from the panel.
#[test]
fn rolling_on_a_table_from_the_panel() {
    let tables = battlemap::rules::tables::all().expect("tables load");
    let view = DiceView { seed: 1, log: Vec::new(), dm: true, roller: "the DM".into(), inspired: false };
    let mut harness = Harness::builder().with_size(bevy_egui::egui::Vec2::new(420.0, 1000.0)).build_ui_state(
        |ui, (edit, requests): &mut (DiceEdit, Vec<PanelRequest>)| {
            requests.extend(dice_panel(ui, &view, &tables, edit));
        },
        (DiceEdit::default(), Vec::new()),
    );
    harness.run();
    harness.state_mut().0.search = "madness".into();
    harness.run();
    assert!(harness.query_by_label("Poisons").is_none(), "the search narrows the list");
    harness.get_by_label("Short-Term Madness").click();
    harness.run();
    harness.get_by_label("Roll d100").click();
    harness.run();
    assert!(
        harness.state().1.contains(&PanelRequest::RollTable { id: "short-term-madness".into(), hidden: false }),
        "{:?}",
        harness.state().1
    );
    // The roller rolls the notation typed, as the DM, hidden when asked.
    harness.state_mut().0.hidden = true;
    harness.get_by_label("Roll as the DM").click();
    harness.run();
    assert!(harness.state().1.contains(&PanelRequest::Roll {
        notation: "d20".into(),
        mode: battlemap::rules::dice::RollMode::Normal,
        hidden: true,
        reason: String::new(),
    }));
}

#[test]
fn the_card_awards_inspiration() {
    let mut harness = roster_harness(Some("brom"));
    harness.run();
    assert!(harness.query_by_label("Inspiration: no").is_some());
    harness.get_by_label("Award").click();
    harness.run();
    assert!(harness.state().contains(&PanelRequest::Inspiration { id: "brom".into(), give: true }));
}

#[test]
fn the_calculators_roll_improvised_damage_and_judge_automatic_success() {
    let tables = battlemap::rules::tables::all().expect("tables load");
    let view = DiceView { seed: 1, log: Vec::new(), dm: true, roller: "the DM".into(), inspired: false };
    let mut harness = Harness::builder().with_size(bevy_egui::egui::Vec2::new(520.0, 1800.0)).build_ui_state(
        |ui, (edit, requests): &mut (DiceEdit, Vec<PanelRequest>)| {
            requests.extend(dice_panel(ui, &view, &tables, edit));
        },
        (DiceEdit::default(), Vec::new()),
    );
    harness.run();
    // Level 1, dangerous: 2d10 (DMG table Damage Severity and Level).
    harness.get_by_label("Roll 2d10").click();
    harness.run();
    assert!(harness.state().1.contains(&PanelRequest::Roll {
        notation: "2d10".into(),
        mode: battlemap::rules::dice::RollMode::Normal,
        hidden: false,
        reason: "dangerous damage at level 1".into(),
    }));
    // DC 15 with Strength 20: the fighter kicks in the door.
    assert!(harness.query_by_label("Succeeds without a roll.").is_some());
    assert!(harness.query_by_label_contains("666 / 1000 / 1333 ft a minute").is_some());
    assert!(harness.query_by_label("About 2 targets; ±1d3 if bunched or spread.").is_some());
}

mod chase {
    use battlemap::app::core::requests::ChaseRequest;
    use battlemap::rules::chase::{Resolution, Role};
    use battlemap::rules::creature::Side;
    use battlemap::ui::chase::{
        Candidate, ChaseDraft, ChaseEdit, ChaseStage, ChaseView, ComplicationCard, TrackRow, TurnCard, chase_screen,
        chase_setup,
    };
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    fn candidates() -> Vec<Candidate> {
        [("lia", "Lia", Side::Party), ("nim", "Nim", Side::Enemy)]
            .into_iter()
            .map(|(id, name, side)| Candidate { id: id.into(), name: name.into(), side, selected_on_map: false })
            .collect()
    }

    #[test]
    fn setup_picks_roles_and_starts_only_with_both_sides() {
        let mut harness = Harness::new_ui_state(
            |ui, (draft, requests): &mut (ChaseDraft, Vec<ChaseRequest>)| {
                requests.extend(chase_setup(ui, &candidates(), draft).0);
            },
            (ChaseDraft::default(), Vec::new()),
        );
        harness.get_by_label("Start chase").click();
        harness.run();
        assert!(harness.state().1.is_empty(), "no quarry yet: Start is disabled");
        assert!(harness.query_by_label("A chase needs a quarry and at least one pursuer.").is_some());
        harness.get_all_by_label("Quarry").nth(1).expect("Nim's Quarry").click();
        harness.run();
        harness.get_all_by_label("Pursuer").next().expect("Lia's Pursuer").click();
        harness.run();
        harness.get_by_label("Wilderness").click();
        harness.run();
        harness.get_by_label("Start chase").click();
        harness.run();
        let (draft, requests) = harness.state();
        assert_eq!(draft.roles.get("nim"), Some(&Role::Quarry));
        assert_eq!(draft.roles.get("lia"), Some(&Role::Pursuer));
        assert_eq!(draft.table, battlemap::ui::chase::TableChoice::Wilderness);
        assert_eq!(requests, &vec![ChaseRequest::Start]);
    }

    fn track() -> Vec<TrackRow> {
        let row = |id: &str, name: &str, side, role, position, lead| TrackRow {
            id: id.into(),
            name: name.into(),
            side,
            roles: vec![role],
            position,
            running: true,
            status: "running".into(),
            lead,
            distance: (role == Role::Pursuer).then_some(40),
            out_of_sight: false,
            acting: id == "lia",
            hp: "18/18".into(),
            exhaustion: 0,
            free_dashes_left: 4,
            inspiration: true,
        };
        vec![
            row("nim", "Nim", Side::Enemy, Role::Quarry, 40, false),
            row("lia", "Lia", Side::Party, Role::Pursuer, 0, true),
        ]
    }

    pub(super) fn view(stage: ChaseStage) -> ChaseView {
        ChaseView {
            title: "Stop, thief!".into(),
            round: 2,
            stage,
            seat: None,
            track: track(),
            log: vec!["R1 Nim dashes.".into()],
            other_chases: Vec::new(),
            escape_note: String::new(),
        }
    }

    fn run(view: ChaseView) -> Harness<'static, Vec<ChaseRequest>> {
        Harness::new_ui_state(
            move |ui, requests: &mut Vec<ChaseRequest>| {
                let mut edit = ChaseEdit::default();
                requests.extend(chase_screen(ui, &view, &mut edit).0);
            },
            Vec::new(),
        )
    }

    pub(super) fn turn(complication: Option<ComplicationCard>) -> TurnCard {
        TurnCard {
            id: "lia".into(),
            name: "Lia".into(),
            side: Side::Party,
            roles: vec![Role::Pursuer],
            movement_left: 25,
            speed: 25,
            action_used: false,
            dashed: false,
            free_dashes_left: 4,
            free_dashes: 4,
            exhaustion: 0,
            restrained: false,
            blinded: false,
            complication,
            attacks: Vec::new(),
            last_of_round: true,
        }
    }

    #[test]
    fn the_hand_over_card_starts_the_next_turn() {
        let stage = ChaseStage::Handover {
            name: "Lia".into(),
            side: Side::Party,
            roles: vec![Role::Pursuer],
            complication: true,
        };
        let mut harness = run(view(stage));
        assert!(harness.query_by_label("A complication waits for you.").is_some());
        assert!(harness.query_by_label_contains("Dash").is_none(), "the turn's buttons wait behind the card");
        harness.get_by_label("Lia: start my turn").click();
        harness.run();
        assert_eq!(harness.state(), &vec![ChaseRequest::BeginTurn]);
    }

    #[test]
    fn the_turn_card_dashes_moves_and_ends() {
        let mut harness = run(view(ChaseStage::Turn(Box::new(turn(None)))));
        assert!(harness.query_by_label("Movement left: 25 ft").is_some());
        harness.get_by_label("Dash (4 of 4 free left)").click();
        harness.run();
        harness.get_by_label("Move 25 ft").click();
        harness.run();
        harness.get_by_label("End turn (then escape checks)").click();
        harness.run();
        assert_eq!(harness.state(), &vec![ChaseRequest::Dash, ChaseRequest::Move(25), ChaseRequest::EndTurn]);
    }

    #[test]
    fn a_complication_is_rolled_with_the_chosen_check_or_negated() {
        let card = ComplicationCard {
            roller: "Nim".into(),
            d20: 2,
            table: "Urban Chase Complications".into(),
            text: "A crowd blocks your way.".into(),
            test: Some("DC 10 Strength (Athletics) or Dexterity (Acrobatics) check".into()),
            options: vec!["Strength (Athletics)".into(), "Dexterity (Acrobatics)".into()],
            alternative: None,
            negators: vec![("lia".into(), "Lia".into())],
        };
        let mut harness = run(view(ChaseStage::Turn(Box::new(turn(Some(card))))));
        assert!(harness.query_by_label("Dash (4 of 4 free left)").is_none(), "the complication comes first");
        harness.get_by_label("Roll Dexterity (Acrobatics)").click();
        harness.run();
        harness.get_by_label("Lia spends inspiration").click();
        harness.run();
        assert_eq!(
            harness.state(),
            &vec![
                ChaseRequest::Resolve(Resolution::Attempt { option: 1 }),
                ChaseRequest::Resolve(Resolution::Negate { by: "lia".into() })
            ]
        );
    }

    /// Issue 39, item 3: *Back to the map* only leaves the screen (the chase waits); *End
    /// chase...* asks first, and only its Yes ends the chase.
    #[test]
    fn back_to_the_map_keeps_the_chase_and_ending_it_asks_first() {
        let view = view(ChaseStage::Turn(Box::new(turn(None))));
        let mut harness = Harness::new_ui_state(
            move |ui, (edit, requests): &mut (ChaseEdit, Vec<ChaseRequest>)| {
                requests.extend(chase_screen(ui, &view, edit).0);
            },
            (ChaseEdit::default(), Vec::new()),
        );
        harness.get_by_label("Back to the map").click();
        harness.run();
        assert_eq!(harness.state().1, vec![ChaseRequest::ReturnToMap]);
        harness.state_mut().1.clear();
        harness.get_by_label("End chase...").click();
        harness.run();
        assert!(harness.query_by_label("End the chase?").is_some(), "it asks");
        assert!(harness.state().1.is_empty(), "nothing ends before the answer");
        harness.get_by_label("No, keep it").click();
        harness.run();
        assert!(harness.query_by_label("End the chase?").is_none() && harness.state().1.is_empty());
        harness.get_by_label("End chase...").click();
        harness.run();
        harness.get_by_label("Yes, end the chase").click();
        harness.run();
        assert_eq!(harness.state().1, vec![ChaseRequest::EndChase]);
        assert!(harness.query_by_label("End the chase?").is_none());
    }
}

/// Issue 39, item 3: a chase waiting for the map says so in the bar, whose button brings it back.
#[test]
fn a_waiting_chase_is_said_in_the_bar() {
    let view = StatusView { chase_paused: true, ..status() };
    let mut harness = Harness::new_ui_state(
        move |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| requests.extend(status_bar(ui, &view, edit)),
        (StatusEdit::default(), Vec::new()),
    );
    harness.get_by_label("Chase (C): paused").click();
    harness.run();
    assert_eq!(harness.state().1, vec![PanelRequest::ToggleChase]);
}

/// Seats around the table (issue 30): the cards meant for a seated player are drawn against that
/// player's edge, turned to face it, and their buttons answer where they are drawn.
mod seats {
    use std::f32::consts::{FRAC_PI_2, PI, TAU};

    use super::roster_and_card;
    use battlemap::app::core::requests::{ChaseRequest, EditRequest};
    use battlemap::rules::chase::Role;
    use battlemap::rules::creature::Side;
    use battlemap::scenario::TableEdge;
    use battlemap::ui::chase::{ChaseEdit, ChaseStage, chase_screen};
    use battlemap::ui::{PanelRequest, PromptView, TurnAction, reaction_prompt, seated_turn_card};
    use bevy_egui::egui::{self, Pos2, Rect, epaint};
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    const SCREEN: egui::Vec2 = egui::Vec2::new(1000.0, 700.0);

    /// Every text drawn in the last frame: its words, where (its bounding box on the screen), and
    /// its angle (radians clockwise, in 0..2π).
    fn texts(harness: &Harness<'_, impl Sized>) -> Vec<(String, Rect, f32)> {
        fn walk(shape: &epaint::Shape, out: &mut Vec<(String, Rect, f32)>) {
            match shape {
                epaint::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
                epaint::Shape::Text(text) => {
                    out.push((text.galley.text().to_owned(), text.visual_bounding_rect(), text.angle.rem_euclid(TAU)));
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        for clipped in &harness.output().shapes {
            walk(&clipped.shape, &mut out);
        }
        out
    }

    fn text(harness: &Harness<'_, impl Sized>, words: &str) -> (Rect, f32) {
        let found = texts(harness).into_iter().find(|(t, ..)| t == words);
        let (_, rect, angle) = found.unwrap_or_else(|| panic!("{words:?} is drawn: {:?}", texts(harness)));
        (rect, angle)
    }

    /// A click at `at` on the screen, the pointer's way: each event goes through
    /// `ui::seat::turn_pointer` before its pass, as the app sends them.
    fn click_at<S>(harness: &mut Harness<'_, S>, at: Pos2) {
        let press = |pressed| egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        };
        for event in [egui::Event::PointerMoved(at), press(true), press(false)] {
            let ctx = harness.ctx.clone();
            harness.input_mut().events.push(event);
            battlemap::ui::seat::turn_pointer(&ctx, harness.input_mut());
            harness.step();
        }
        harness.run();
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-3
    }

    fn seated_handover(seat: TableEdge) -> Harness<'static, Vec<ChaseRequest>> {
        let stage = ChaseStage::Handover {
            name: "Lia".into(),
            side: Side::Party,
            roles: vec![Role::Pursuer],
            complication: false,
        };
        let view = battlemap::ui::chase::ChaseView { seat: Some(seat), ..super::chase::view(stage) };
        Harness::builder().with_size(SCREEN).build_ui_state(
            move |ui, requests: &mut Vec<ChaseRequest>| {
                requests.extend(chase_screen(ui, &view, &mut ChaseEdit::default()).0);
            },
            Vec::new(),
        )
    }

    /// Done when (issue 30): "a seated player's hand-over card faces its edge". Lia sits at the
    /// north edge: her card is turned half a turn, against the top of the screen, its button at
    /// the edge nearest her; the DM's side of the screen stays upright and says where it went.
    #[test]
    fn a_north_seated_hand_over_card_faces_the_top_edge_and_its_button_works() {
        let mut harness = seated_handover(TableEdge::North);
        let (heading, heading_angle) = text(&harness, "Pass the screen to");
        let (button, button_angle) = text(&harness, "Lia: start my turn");
        assert!(close(heading_angle, PI) && close(button_angle, PI), "{heading_angle} {button_angle}");
        assert!(
            button.bottom() < heading.top(),
            "read from the north, the button is nearest her: {button:?} {heading:?}"
        );
        assert!(button.top() < 100.0 && heading.bottom() < 250.0, "against the top: {button:?} {heading:?}");
        let middle = (button.center().x - SCREEN.x / 2.0).abs();
        assert!(middle < 150.0, "centred along the edge: {button:?}");
        let (note, note_angle) = text(&harness, "Lia's card faces the north edge.");
        assert!(close(note_angle, 0.0) && note.top() > heading.bottom(), "the DM's screen leaves the card its side");
        // The track's title and the log stay upright.
        assert!(close(text(&harness, "Chase log").1, 0.0));

        click_at(&mut harness, heading.center());
        assert!(harness.state().is_empty(), "the heading is no button");
        click_at(&mut harness, button.center());
        assert_eq!(harness.state(), &vec![ChaseRequest::BeginTurn]);
    }

    /// East and west: a quarter turn, against the side edge, lines running along it (up the east
    /// edge, down the west), and the button answers where it is drawn.
    #[test]
    fn an_east_or_west_seated_card_is_turned_a_quarter_against_its_side() {
        for (seat, angle) in [(TableEdge::East, 3.0 * FRAC_PI_2), (TableEdge::West, FRAC_PI_2)] {
            let mut harness = seated_handover(seat);
            let (heading, heading_angle) = text(&harness, "Pass the screen to");
            let (button, button_angle) = text(&harness, "Lia: start my turn");
            assert!(close(heading_angle, angle) && close(button_angle, angle), "{seat:?}: {heading_angle}");
            assert!(button.height() > 3.0 * button.width(), "{seat:?}: a line runs along the edge: {button:?}");
            let middle = (button.center().y - SCREEN.y / 2.0).abs();
            assert!(middle < 150.0, "{seat:?}: centred along the edge: {button:?}");
            match seat {
                // Read from the east, the card's top is toward the west, so its button is east.
                TableEdge::East => assert!(button.left() > SCREEN.x - 100.0 && heading.right() < button.left()),
                _ => assert!(button.right() < 100.0 && heading.left() > button.right()),
            }
            click_at(&mut harness, heading.center());
            assert!(harness.state().is_empty(), "{seat:?}: the heading is no button");
            click_at(&mut harness, button.center());
            assert_eq!(harness.state(), &vec![ChaseRequest::BeginTurn], "{seat:?}");
        }
    }

    /// The turn card of a seated player (south: upright, against the bottom) dashes, moves and
    /// ends its turn from where its buttons are drawn; the reported targets are those places.
    #[test]
    fn a_seated_chase_turn_card_answers_where_it_is_drawn() {
        let view = battlemap::ui::chase::ChaseView {
            seat: Some(TableEdge::South),
            ..super::chase::view(ChaseStage::Turn(Box::new(super::chase::turn(None))))
        };
        let mut harness = Harness::builder().with_size(SCREEN).build_ui_state(
            move |ui, (requests, targets): &mut (Vec<ChaseRequest>, Vec<(String, [f32; 2])>)| {
                let (asked, drawn) = chase_screen(ui, &view, &mut ChaseEdit::default());
                requests.extend(asked);
                *targets = drawn;
            },
            (Vec::new(), Vec::new()),
        );
        let (dash, angle) = text(&harness, "Dash (4 of 4 free left)");
        assert!(close(angle, 0.0) && dash.bottom() > SCREEN.y - 250.0, "upright against the bottom: {dash:?}");
        let target = |harness: &Harness<'_, (Vec<ChaseRequest>, Vec<(String, [f32; 2])>)>, name: &str| {
            let found = harness.state().1.iter().find(|(n, _)| n == name).map(|(_, [x, y])| Pos2::new(*x, *y));
            found.unwrap_or_else(|| panic!("{name} is reported"))
        };
        assert!(dash.expand(20.0).contains(target(&harness, "chase.dash")), "the target is where it is drawn");
        click_at(&mut harness, dash.center());
        let end = target(&harness, "chase.end");
        click_at(&mut harness, end);
        assert_eq!(harness.state().0, vec![ChaseRequest::Dash, ChaseRequest::EndTurn]);
    }

    /// The chase screen drawn at `size` for `seat` at `stage`, with `log`.
    fn chase_at(
        size: egui::Vec2,
        seat: Option<TableEdge>,
        stage: ChaseStage,
        log: Option<Vec<String>>,
    ) -> Harness<'static> {
        let mut view = battlemap::ui::chase::ChaseView { seat, ..super::chase::view(stage) };
        if let Some(log) = log {
            view.log = log;
        }
        Harness::builder().with_size(size).build_ui(move |ui| {
            chase_screen(ui, &view, &mut ChaseEdit::default());
        })
    }

    fn handover() -> ChaseStage {
        ChaseStage::Handover { name: "Lia".into(), side: Side::Party, roles: vec![Role::Pursuer], complication: false }
    }

    /// Issue 39: the cards appear at their seat's edge without moving anything else: the track
    /// and the log stand where they stood, whichever card (hand-over or turn) is up.
    #[test]
    fn the_screen_stays_put_while_the_cards_change() {
        for seat in [None, Some(TableEdge::North), Some(TableEdge::South), Some(TableEdge::East)] {
            let places = |stage| {
                let harness = chase_at(SCREEN, seat, stage, None);
                ["Chase log", "Nim", "50 ft"].map(|words| text(&harness, words).0)
            };
            let turn = ChaseStage::Turn(Box::new(super::chase::turn(None)));
            assert_eq!(places(handover()), places(turn), "{seat:?}");
        }
    }

    /// Issue 39: the track spans the width whatever the seat; an east or west card stands beside
    /// the part under the track, not over it.
    #[test]
    fn the_track_spans_the_width_beside_a_side_seat() {
        for seat in [TableEdge::East, TableEdge::West] {
            let harness = chase_at(SCREEN, Some(seat), handover(), None);
            let (near, far) = (text(&harness, "-10 ft").0, text(&harness, "50 ft").0);
            assert!(near.center().x < 250.0 && far.center().x > SCREEN.x - 300.0, "{seat:?}: {near:?} {far:?}");
            for (words, rect, _) in texts(&harness).into_iter().filter(|(.., angle)| !close(*angle, 0.0)) {
                assert!(rect.top() > far.bottom(), "{seat:?}: {words:?} over the track: {rect:?}");
            }
        }
    }

    /// Issue 39: the chase log scrolls inside its box: fifty lines under a north player's turn
    /// card in a 600-point-high window keep the newest line and the DM's overrides in sight.
    #[test]
    fn a_long_chase_log_scrolls_inside_the_window() {
        let size = egui::Vec2::new(1000.0, 600.0);
        let log = (0..50).map(|i| format!("R{} line {i}", i / 10 + 1)).collect();
        let turn = ChaseStage::Turn(Box::new(super::chase::turn(None)));
        let harness = chase_at(size, Some(TableEdge::North), turn, Some(log));
        let on_screen = |words: &str| {
            let found = harness.output().shapes.iter().find_map(|clipped| match &clipped.shape {
                epaint::Shape::Text(t) if t.galley.text() == words => {
                    Some(t.visual_bounding_rect().intersect(clipped.clip_rect))
                }
                _ => None,
            });
            found.filter(|r| r.is_positive() && r.bottom() <= size.y)
        };
        assert!(on_screen("R5 line 49").is_some(), "the newest line is in sight");
        assert!(on_screen("DM overrides").is_some(), "the overrides are in the window");
    }

    /// A seated reactor's prompt faces its edge (north: half a turn, at the top of the map's
    /// room), its buttons answer where they are drawn, and the places reported are those.
    #[test]
    fn a_seated_reactors_prompt_faces_its_edge() {
        let view = PromptView {
            title: "Opportunity attack?".into(),
            lines: vec!["Lia is leaving Thug's reach (5 ft) at (5, 7).".into()],
            yes: "Opportunity attack".into(),
            no: "Let it go".into(),
            seat: Some(TableEdge::North),
        };
        type State = (Vec<bool>, Vec<(String, [f32; 2])>);
        let mut harness = Harness::builder().with_size(SCREEN).build_ui_state(
            move |ui, (answers, targets): &mut State| {
                let room = Rect::from_min_max(Pos2::new(300.0, 0.0), Pos2::new(1000.0, 650.0));
                answers.extend(reaction_prompt(ui.ctx(), &view, room));
                *targets = battlemap::ui::take_button_targets(ui.ctx());
            },
            (Vec::new(), Vec::new()),
        );
        let (title, angle) = text(&harness, "Opportunity attack?");
        assert!(close(angle, PI) && title.bottom() < 200.0, "{title:?} {angle}");
        assert!((title.center().x - 650.0).abs() < 150.0, "centred on the map's room: {title:?}");
        let (no, _) = text(&harness, "Let it go");
        let reported = harness.state().1.iter().find(|(n, _)| n == "prompt.no").map(|(_, [x, y])| Pos2::new(*x, *y));
        assert!(reported.is_some_and(|at| no.expand(8.0).contains(at)), "{reported:?} in {no:?}");
        click_at(&mut harness, no.center());
        assert_eq!(harness.state().0, vec![false]);
    }

    /// The turn card of a creature whose player sits west: a quarter turn against the west edge,
    /// its big buttons taking its actions and ending its turn.
    #[test]
    fn a_seated_creatures_turn_card_takes_its_actions() {
        let view = super::turn_view();
        let mut harness = Harness::builder().with_size(SCREEN).build_ui_state(
            move |ui, requests: &mut Vec<PanelRequest>| {
                let room = ui.ctx().content_rect();
                requests.extend(seated_turn_card(ui.ctx(), "brom", "Brom", &view, TableEdge::West, room));
            },
            Vec::new(),
        );
        let (heading, angle) = text(&harness, "Brom's turn");
        assert!(close(angle, FRAC_PI_2) && heading.right() < 350.0, "{heading:?} {angle}");
        let (dodge, _) = text(&harness, "Dodge");
        click_at(&mut harness, dodge.center());
        let (end, _) = text(&harness, "End turn");
        click_at(&mut harness, end.center());
        let dodge =
            PanelRequest::Turn { id: "brom".into(), action: TurnAction::Act(battlemap::rules::economy::Action::Dodge) };
        assert_eq!(harness.state(), &vec![dodge, PanelRequest::NextTurn]);
    }

    /// Two seated players' cards at once (Brom's turn at the west edge, Lia's prompt at the
    /// north): each button answers for its own card.
    #[test]
    fn two_turned_cards_at_once_keep_their_own_buttons() {
        let turn = super::turn_view();
        let prompt = PromptView {
            title: "Readied action".into(),
            lines: vec!["Thug has moved.".into()],
            yes: "Fire".into(),
            no: "Hold".into(),
            seat: Some(TableEdge::North),
        };
        let mut harness = Harness::builder().with_size(SCREEN).build_ui_state(
            move |ui, (requests, answers): &mut (Vec<PanelRequest>, Vec<bool>)| {
                let room = ui.ctx().content_rect();
                requests.extend(seated_turn_card(ui.ctx(), "brom", "Brom", &turn, TableEdge::West, room));
                answers.extend(reaction_prompt(ui.ctx(), &prompt, room));
            },
            (Vec::new(), Vec::new()),
        );
        let (hold, hold_angle) = text(&harness, "Hold");
        let (dash, dash_angle) = text(&harness, "Dash");
        assert!(close(hold_angle, PI) && close(dash_angle, FRAC_PI_2));
        click_at(&mut harness, hold.center());
        click_at(&mut harness, dash.center());
        let dash =
            PanelRequest::Turn { id: "brom".into(), action: TurnAction::Act(battlemap::rules::economy::Action::Dash) };
        assert_eq!(harness.state(), &(vec![dash], vec![false]));
    }

    /// The card shows the seat; the DM's view changes it there (an edit of the scene, saved with it).
    #[test]
    fn the_card_shows_the_seat_and_the_dm_changes_it() {
        let mut view = super::roster(Some("brom"));
        if let Some(details) = view.selected.as_mut() {
            details.seat = Some(TableEdge::East);
        }
        let players = view.clone();
        let harness = Harness::builder().with_size(egui::vec2(420.0, 900.0)).build_ui(move |ui| {
            roster_and_card(ui, &players);
        });
        assert!(harness.query_by_label("the east edge").is_some());
        assert!(harness.query_by_label("North").is_none(), "the players don't change seats");
        if let Some(details) = view.selected.as_mut() {
            details.dm = true;
        }
        let mut harness = Harness::builder().with_size(egui::vec2(420.0, 900.0)).build_ui_state(
            move |ui, requests: &mut Vec<PanelRequest>| {
                requests.extend(roster_and_card(ui, &view));
            },
            Vec::new(),
        );
        harness.get_by_label("East").click();
        harness.run();
        assert!(harness.state().is_empty(), "already there");
        harness.get_by_label("North").click();
        harness.run();
        harness.get_by_label("none").click();
        harness.run();
        let seat = |seat| PanelRequest::Edit(EditRequest::Seat { id: "brom".into(), seat });
        assert_eq!(harness.state(), &vec![seat(Some(TableEdge::North)), seat(None)]);
    }
}

/// The template lists the creatures inside with their cover from the origin and rolls their saves
/// once the origin is fixed.
#[test]
fn the_template_rolls_saves() {
    let inside =
        |name: &str, cover: &str, sheltered: bool| InsideView { name: name.into(), cover: cover.into(), sheltered };
    let view = |fixed: bool| TemplateView {
        inside: vec!["Lia".into(), "Thug".into()],
        creatures: vec![inside("Lia", "half cover", false), inside("Thug", "total cover", true)],
        cells: 12,
        estimate: 2,
        placed: true,
        fixed,
        ..TemplateView::default()
    };
    let run = |fixed: bool| {
        let shown = view(fixed);
        let mut harness = Harness::new_ui_state(
            move |ui, requests: &mut Vec<PanelRequest>| requests.extend(template_panel(ui, &shown)),
            Vec::new(),
        );
        harness.run();
        assert!(harness.query_by_label("half cover").is_some(), "cover from the origin");
        assert!(harness.query_by_label("total cover: unaffected").is_some());
        harness.get_by_label("Half damage on a success").click();
        harness.run();
        harness.get_by_label("Roll saves").click();
        harness.run();
        harness.state().clone()
    };
    let unhalved = SaveSettings { half_on_success: false, ..SaveSettings::default() };
    assert_eq!(run(true), [PanelRequest::SetSaves(unhalved.clone()), PanelRequest::RollSaves]);
    assert_eq!(run(false), [PanelRequest::SetSaves(unhalved)], "no roll before the origin is fixed");
}

/// The siege part of the card: a weapon's own card shows its state, crew and pushers; a creature's
/// card has a button for each weapon beside it, the next step's word on it, disabled with the
/// reason when it can't work it.
#[test]
fn the_card_works_siege_weapons() {
    let view = SiegeView {
        weapon: None,
        nearby: vec![
            NearbyWeapon {
                id: "ballista".into(),
                name: "Ballista".into(),
                state: "loaded".into(),
                next: Some((Step::Aim, "aim".into())),
                picked: false,
                why_not: None,
            },
            NearbyWeapon {
                id: "mangonel".into(),
                name: "Mangonel".into(),
                state: "aimed".into(),
                next: Some((Step::Fire, "fire".into())),
                picked: false,
                why_not: None,
            },
            NearbyWeapon {
                id: "cauldron".into(),
                name: "Cauldron".into(),
                state: "full".into(),
                next: Some((Step::Fire, "tip".into())),
                picked: false,
                why_not: Some("it is 20 ft away".into()),
            },
        ],
    };
    let mut harness = Harness::new_ui_state(
        move |ui, requests: &mut Vec<PanelRequest>| requests.extend(siege_section(ui, "brom", &view)),
        Vec::new(),
    );
    harness.run();
    harness.get_by_label("Aim").click();
    harness.run();
    harness.get_by_label("Fire at...").click();
    harness.run();
    harness.get_by_label("Tip").click();
    harness.run();
    let asked = |weapon: &str, action| PanelRequest::Siege { operator: "brom".into(), weapon: weapon.into(), action };
    assert_eq!(
        harness.state(),
        &vec![asked("ballista", SiegeAction::Work(Step::Aim)), asked("mangonel", SiegeAction::PickTarget)],
        "the cauldron's button is disabled"
    );
    let card = SiegeView {
        weapon: Some(WeaponCard {
            kind: "Ram".into(),
            state: "ready".into(),
            sequence: "ram 1".into(),
            payload: Some("Ram: +8 to hit, reach 5 ft, 3d10 bludgeoning, objects only".into()),
            crew_this_round: vec!["Soldier rammed".into()],
            ram_crew: Some("3 Medium creatures of the 4 Medium needed (a, b, c)".into()),
            push: "too few to move it".into(),
        }),
        nearby: Vec::new(),
    };
    let mut harness = Harness::new_ui(move |ui| {
        siege_section(ui, "ram", &card);
    });
    harness.run();
    for text in
        ["Ram: ready", "Crew: 3 Medium creatures of the 4 Medium needed (a, b, c)", "This round: Soldier rammed"]
    {
        assert!(harness.query_by_label(text).is_some(), "{text} is on the card");
    }
}

#[test]
fn the_bar_undoes_redoes_saves_and_opens_the_editor() {
    let mut harness = Harness::new_ui_state(
        |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| requests.extend(status_bar(ui, &status(), edit)),
        (StatusEdit::default(), Vec::new()),
    );
    harness.run();
    harness.get_by_label("Undo").click();
    harness.run();
    // Nothing to redo: the button is there but does nothing.
    harness.get_by_label("Redo").click();
    harness.run();
    harness.get_by_label("Save").click();
    harness.run();
    harness.get_by_label("Save as").click();
    harness.run();
    harness.get_by_label("Edit map (Ctrl+E)").click();
    harness.run();
    assert_eq!(harness.state().1, vec![PanelRequest::Undo, PanelRequest::Save, PanelRequest::ToggleEditor]);
    harness.state_mut().1.clear();
    harness.state_mut().0.open_path = "scenes/mine.ron".into();
    harness.get_by_label("Save as").click();
    harness.run();
    assert_eq!(harness.state().1, vec![PanelRequest::SaveAs("scenes/mine.ron".into())]);
}

/// Issue 39, item 9: Undo and Redo are enabled by what the history can do now
/// (`History::can_restore`, which `Ctrl+Z` asks: nothing while a step is under way), not by the
/// steps counted; the editor asked for in the players' view waits for the DM's view's
/// confirmation, which sends the switch and the editor together.
#[test]
fn undo_follows_the_history_and_the_editor_waits_for_the_dms_view() {
    let view = StatusView { undo: 3, can_undo: false, ..status() };
    let mut harness = Harness::new_ui_state(
        move |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| requests.extend(status_bar(ui, &view, edit)),
        (StatusEdit::default(), Vec::new()),
    );
    harness.run();
    harness.get_by_label("Undo").click();
    harness.run();
    assert!(harness.state().1.is_empty(), "a step under way: Undo is not enabled, as Ctrl+Z is refused");

    let asked = StatusEdit { confirming_dm: true, then_edit: true, ..StatusEdit::default() };
    let mut harness = Harness::new_ui_state(
        |ui, (edit, requests): &mut (StatusEdit, Vec<PanelRequest>)| requests.extend(status_bar(ui, &status(), edit)),
        (asked, Vec::new()),
    );
    harness.run();
    assert!(harness.query_by_label("The map editor opens in the DM's view.").is_some());
    harness.get_by_label("Show the DM's view").click();
    harness.run();
    assert_eq!(harness.state().1, vec![PanelRequest::Audience(true), PanelRequest::ToggleEditor]);
    assert_eq!(harness.state().0, StatusEdit::default(), "the question is answered");
}

fn editor_view(selected: bool) -> battlemap::ui::EditorView {
    let scene = battlemap::scenario::Scenario::built_in();
    battlemap::ui::EditorView {
        tool: battlemap::app::core::requests::EditTool::Paint,
        terrains: vec![
            battlemap::ui::TerrainChoice {
                glyph: '.',
                name: "floor".into(),
                color: [200, 190, 160],
                blocks: "open ground".into(),
            },
            battlemap::ui::TerrainChoice {
                glyph: '#',
                name: "wall".into(),
                color: [50, 50, 60],
                blocks: "blocks movement".into(),
            },
        ],
        terrain: 1,
        brush: 1,
        width: 20,
        height: 13,
        grid: Grid::Square,
        placing: None,
        monster: None,
        selected: selected.then(|| scene.token("brom").cloned()).flatten(),
        refusal: Some("Brom stands at (3, 5): no wall under it".into()),
        background: None,
    }
}

type EditorState = (battlemap::ui::EditorEdit, Vec<PanelRequest>);

fn editor_harness(selected: bool) -> Harness<'static, EditorState> {
    Harness::new_ui_state(
        move |ui, (edit, requests): &mut EditorState| {
            requests.extend(battlemap::ui::editor_panel(ui, &editor_view(selected), edit));
        },
        (battlemap::ui::EditorEdit::default(), Vec::new()),
    )
}

#[test]
fn the_editor_picks_tools_terrain_and_a_grid_after_its_warning() {
    use battlemap::app::core::requests::{EditRequest, EditTool};
    let mut harness = editor_harness(false);
    harness.run();
    assert!(harness.query_by_label("Brom stands at (3, 5): no wall under it").is_some(), "the refusal is shown");
    harness.get_by_label("Rectangle").click();
    harness.run();
    harness.get_by_label("■ . floor").click();
    harness.run();
    harness.get_by_label("Add creature").click();
    harness.run();
    assert_eq!(
        harness.state().1,
        vec![
            PanelRequest::Edit(EditRequest::Tool(EditTool::Rectangle)),
            PanelRequest::Edit(EditRequest::Terrain(0)),
            PanelRequest::Edit(EditRequest::Add(TokenKind::Creature)),
        ]
    );
    harness.state_mut().1.clear();
    // Switching the grid asks first, with what may not carry over.
    harness.get_by_label("Hexes, flat-top").click();
    harness.run();
    assert!(harness.state().1.is_empty());
    harness.get_by_label("Switch the grid").click();
    harness.run();
    let flat = Grid::Hex(battlemap::rules::HexOrientation::FlatTop);
    assert_eq!(harness.state().1, vec![PanelRequest::Edit(EditRequest::SwitchGrid(flat))]);
}

/// The map image's numbers are typed in and applied with the scene: a cell of 70 image pixels,
/// its grid starting 35 pixels in.
#[test]
fn the_map_image_is_aligned_by_its_numbers() {
    use battlemap::app::core::requests::EditRequest;
    use battlemap::scenario::Background;
    let mut harness = editor_harness(false);
    harness.run();
    assert!(harness.get_by_label("Apply image").accesskit_node().is_disabled(), "no file named yet");
    let form = harness.state_mut().0.background.as_mut().expect("the image's fields");
    form.image = "maps/river_ford.png".into();
    form.cell_px = 70.0;
    form.offset = (35.0, 0.0);
    harness.run();
    harness.get_by_label("Apply image").click();
    harness.run();
    let wanted = Background { image: "maps/river_ford.png".into(), cell_px: 70.0, offset: (35.0, 0.0) };
    assert_eq!(harness.state().1, vec![PanelRequest::Edit(EditRequest::Background(Some(wanted)))]);
}

#[test]
fn the_form_applies_the_statistics_typed_and_reverts() {
    use battlemap::app::core::requests::EditRequest;
    let mut harness = editor_harness(true);
    harness.run();
    assert!(harness.query_by_label("Brom (brom)").is_some());
    // Nothing changed yet: Apply does nothing.
    harness.get_by_label("Apply").click();
    harness.run();
    assert!(harness.state().1.is_empty());
    let form = harness.state_mut().0.form.as_mut().expect("the form holds Brom");
    form.name = "Brom the Bold".into();
    form.ac = 19;
    harness.run();
    harness.get_by_label("Apply").click();
    harness.run();
    let Some(PanelRequest::Edit(EditRequest::Update(token))) = harness.state().1.first().cloned() else {
        panic!("{:?}", harness.state().1)
    };
    assert_eq!((token.name.as_str(), token.ac, token.id.as_str()), ("Brom the Bold", 19, "brom"));
    harness.get_by_label("Revert").click();
    harness.run();
    assert_eq!(harness.state().0.form.as_ref().map(|f| f.name.as_str()), Some("Brom"));
    harness.get_by_label("Delete").click();
    harness.run();
    assert!(harness.state().1.contains(&PanelRequest::Edit(EditRequest::Delete("brom".into()))));
}

fn effects_view(dm: bool) -> battlemap::ui::effects::EffectsView {
    use battlemap::ui::effects::{EffectRow, EffectsView};
    let row = |id, name: &str, in_force, secret| EffectRow {
        id,
        name: name.into(),
        source: "Ghoul".into(),
        duration: "8 rounds left".into(),
        save: Some("DC 13 Wisdom save at the end of each of its turns".into()),
        conditions: vec!["frightened"],
        note: String::new(),
        in_force,
        secret,
        modifiers: if secret { vec!["disadvantage on ability checks".into()] } else { Vec::new() },
        cures: if secret { vec![battlemap::rules::effects::Cure::GreaterRestoration] } else { Vec::new() },
    };
    EffectsView {
        rows: vec![row(0, "frightened", true, false), row(1, "frightened", false, false), row(2, "cursed", true, true)],
        coated: Some("Serpent venom"),
        dm,
    }
}

/// The card's effects: each with its source, duration and save; the waiting one marked; in the
/// DM's view an end button for each that asks to end that one, and the dawn for everyone; the
/// players' view has no controls.
#[test]
fn the_card_lists_effects_and_ends_one() {
    use battlemap::app::core::requests::EffectAction;
    use battlemap::ui::effects::{EffectsEdit, effects_section};
    let view = effects_view(true);
    let mut harness = Harness::new_ui_state(
        move |ui, requests: &mut Vec<PanelRequest>| {
            requests.extend(effects_section(ui, "vex", &view, &mut EffectsEdit::default()));
        },
        Vec::new(),
    );
    harness.get_by_label("waiting");
    harness.get_by_label("secret");
    assert_eq!(harness.query_all_by_label("DC 13 Wisdom save at the end of each of its turns").count(), 3);
    assert_eq!(harness.query_all_by_label("from Ghoul; 8 rounds left; frightened").count(), 3);
    harness.get_by_label("Weapon coated: Serpent venom");
    let ends: Vec<_> = harness.query_all_by_label("End").collect();
    assert_eq!(ends.len(), 3, "an end button per effect");
    ends[1].click();
    harness.run();
    assert_eq!(
        harness.state().as_slice(),
        [PanelRequest::Effect { id: Some("vex".into()), action: EffectAction::End(1) }]
    );
    harness.state_mut().clear();
    harness.get_by_label("Long rest / dawn").click();
    harness.run();
    assert_eq!(harness.state().as_slice(), [PanelRequest::Effect { id: None, action: EffectAction::Dawn }]);
    // What the cursed effect does to rolls, and the one cure that ends it (issue 37: a cure ends
    // one effect, the one it is cast on).
    harness.get_by_label("disadvantage on ability checks");
    assert!(harness.query_by_label("Lesser restoration").is_none());
    harness.state_mut().clear();
    harness.get_by_label("Greater restoration").click();
    harness.run();
    let cure = battlemap::rules::effects::Cure::GreaterRestoration;
    assert_eq!(
        harness.state().as_slice(),
        [PanelRequest::Effect { id: Some("vex".into()), action: EffectAction::Cure { effect: 2, cure } }]
    );

    let players = effects_view(false);
    let harness = Harness::new_ui_state(
        move |ui, requests: &mut Vec<PanelRequest>| {
            requests.extend(effects_section(ui, "vex", &players, &mut EffectsEdit::default()));
        },
        Vec::new(),
    );
    assert_eq!(harness.query_all_by_label("End").count(), 0, "the players end nothing");
    assert!(harness.query_by_label("Greater restoration").is_none(), "nor cure");
    assert!(harness.query_by_label("Long rest / dawn").is_none());
}

/// Issue 39, item 4: every character the panels can print has a glyph in the font egui draws
/// them with (a missing one is drawn as a box: the roll log's "→" was). Every non-ASCII character
/// of a string in the code that puts things into words (`src/ui`, `src/app`, `src/rules`) is
/// checked, and a rendered roll-log line too.
#[test]
fn every_character_the_panels_print_has_a_glyph() {
    let ctx = bevy_egui::egui::Context::default();
    ctx.run_ui(Default::default(), |_| {}).textures_delta.clear();
    let font = bevy_egui::egui::FontId::proportional(14.0);
    let mut missing = std::collections::BTreeMap::<char, String>::new();
    // A character the font lacks is drawn as egui's replacement character, '◻'; `has_glyph`
    // can't tell one of the replacement's own face, so the glyphs drawn are compared.
    let drawn = |c: char| {
        let galley = ctx.fonts_mut(|f| f.layout_no_wrap(c.to_string(), font.clone(), bevy_egui::egui::Color32::WHITE));
        galley.rows[0].glyphs[0].uv_rect
    };
    let replacement = drawn('◻');
    let mut check = |text: &str, place: &str| {
        for c in text.chars().filter(|c| !c.is_ascii() && *c != '◻') {
            if drawn(c) == replacement {
                missing.entry(c).or_insert_with(|| place.to_owned());
            }
        }
    };
    for folder in ["src/ui", "src/app", "src/rules"] {
        for file in walk(&super::root().join(folder)) {
            let text = std::fs::read_to_string(&file).expect("source");
            for (number, line) in text.lines().enumerate() {
                let code = line.trim_start();
                // Only strings: comments may use any character.
                if code.starts_with("//") || !code.contains('"') {
                    continue;
                }
                let strings: String = code.split('"').skip(1).step_by(2).collect();
                check(&strings, &format!("{}:{}", file.display(), number + 1));
            }
        }
    }
    let roll = battlemap::rules::dice::SeededDice::new(1)
        .roll("1d20+5", battlemap::rules::dice::RollMode::Advantage)
        .expect("dice");
    let entry =
        battlemap::rules::log::LogEntry::new("Brom", battlemap::rules::log::RollReason::Initiative, roll, false);
    check(&battlemap::ui::log::log_line(&entry), "the roll log");
    assert!(missing.is_empty(), "characters the font can't draw: {missing:#?}");
}

/// Every `.rs` file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            files.push(path);
        }
    }
    files
}

/// Issue 39: a panel keeps its size. A creature's long name is cut in the roster (the whole of
/// it in the tooltip), and the roster's widest row stays within the panel's 280 pixels; with
/// seven creatures every row is drawn.
#[test]
fn a_long_name_is_cut_and_never_widens_the_roster() {
    let long = "Grimbold Thunderfist the Unbreakable, Warden of the Deepest Gate";
    let mut rows: Vec<TokenRow> =
        (0..6).map(|i| row(&format!("c{i}"), &format!("Creature {i}"), Side::Enemy)).collect();
    rows.insert(0, row("grimbold", long, Side::Party));
    let view = RosterView { rows, selected: None };
    let mut harness = Harness::builder().with_size(bevy_egui::egui::vec2(280.0, 260.0)).build_ui(move |ui| {
        let _ = roster_panel(ui, &view);
    });
    harness.run();
    let widest = harness.output().shapes.iter().map(|c| c.shape.visual_bounding_rect().max.x).fold(0.0, f32::max);
    assert!(widest <= 280.5, "something of the roster is drawn at x = {widest}");
    let galleys: Vec<_> = harness
        .output()
        .shapes
        .iter()
        .filter_map(|c| match &c.shape {
            bevy_egui::egui::epaint::Shape::Text(t) => Some(t.galley.clone()),
            _ => None,
        })
        .collect();
    let name = galleys.iter().find(|g| g.text() == long).expect("the long name's row");
    assert!(name.elided && name.rect.width() < 140.0, "the long name is cut: {:?}", name.rect);
    let texts: Vec<&str> = galleys.iter().map(|g| g.text()).collect();
    for i in 0..6 {
        assert!(texts.iter().any(|t| t == &format!("Creature {i}")), "row {i} drawn: {texts:?}");
    }
}
