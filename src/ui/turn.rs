//! A creature's turn on its card (what is left of its action, bonus action, movement, reaction and
//! object interaction, with a button per action, and the Help and Ready forms), the reaction
//! prompt over the map, and the initiative tracker.

use bevy_egui::egui::{self, Color32, RichText};

use super::PanelRequest;
use super::roster::MovementView;
use crate::rules::creature::Side;
use crate::rules::economy::{Action, Left, Readied, Response, Trigger};

/// What the card shows of a creature's turn.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnView {
    /// A fight runs (someone's turn has started).
    pub fight_runs: bool,
    /// It is this creature's turn.
    pub active: bool,
    pub left: Left,
    pub movement: MovementView,
    pub attacks_per_action: u8,
    pub bonus_actions: Vec<Action>,
    /// Its readied action, in words, and whether the DM fires it by hand (a spell or words, not
    /// an attack at a creature that moves).
    pub readied: Option<String>,
    pub fires_by_hand: bool,
    /// The DM's view: Start turn is offered while a fight runs too.
    pub dm: bool,
    /// Friends it could help, and enemies within 5 ft of it: `(id, name)`.
    pub allies: Vec<(String, String)>,
    pub enemies_near: Vec<(String, String)>,
    /// Every other creature, for a readied action's trigger.
    pub others: Vec<(String, String)>,
    /// Its attacks' names, for a readied attack.
    pub attacks: Vec<String>,
    pub hidden: bool,
}

/// What the card asks of the creature's turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnAction {
    /// Dash, Disengage, Dodge, Use an Object.
    Act(Action),
    Interact,
    Help {
        ally: String,
        target: String,
    },
    Hide,
    Search,
    Ready(Readied),
    /// The DM fires the readied spell or words now (its reaction).
    FireReadied,
    Undo,
    StartTurn,
}

/// The Help and Ready forms' choices, kept between frames.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnEdit {
    pub help_ally: Option<String>,
    pub help_target: Option<String>,
    /// The readied response: an attack's name, or `None` for the text below.
    pub ready_attack: Option<String>,
    pub ready_text: String,
    /// The text names a spell, held with concentration.
    pub ready_spell: bool,
    /// The trigger: a creature's id, `None` for any enemy.
    pub ready_trigger: Option<String>,
    /// A trigger in the player's words instead (the DM fires it by hand).
    pub ready_when: String,
}

/// What is left of the turn, each part marked `+` (left) or `-` (spent), its rule in `tip` when
/// it has one.
fn marks(ui: &mut egui::Ui, view: &TurnView, tip: impl Fn(egui::Response, &str)) {
    let l = view.left;
    let m = view.movement;
    let mut mark = |label: &str, available: bool, words: &str| {
        let (symbol, color) = if available { ("+", Color32::from_rgb(120, 210, 120)) } else { ("-", Color32::GRAY) };
        tip(ui.label(RichText::new(format!("{symbol} {label}")).color(color)), words);
    };
    let action =
        if l.attacks_left > 0 { format!("Action ({} attacks left)", l.attacks_left) } else { "Action".to_owned() };
    mark(&action, l.action || l.attacks_left > 0, "One action a turn");
    if !view.bonus_actions.is_empty() {
        let can: Vec<&str> = view.bonus_actions.iter().map(|a| a.name()).collect();
        mark("Bonus action", l.bonus_action, &format!("As a bonus action: {}", can.join(", ")));
    }
    let dashed = if m.dashes > 0 { ", Dashed" } else { "" };
    mark(&format!("Movement {} of {} ft{dashed}", m.left, m.allowance), m.left > 0, "Split it around actions");
    mark("Reaction", l.reaction, "One a round, back at the start of its turn");
    mark("Object", l.object_interaction, "One free object interaction a turn");
}

/// Whether `action` can be taken now: with the action, or as a bonus action it may spend so.
fn can_take(view: &TurnView, action: Action) -> bool {
    view.left.action || (view.bonus_actions.contains(&action) && view.left.bonus_action)
}

/// Draws the turn part of the card of creature `id`.
pub fn turn_section(ui: &mut egui::Ui, id: &str, view: &TurnView, edit: &mut TurnEdit) -> Vec<PanelRequest> {
    let mut actions = Vec::new();
    ui.separator();
    let heading = match (view.fight_runs, view.active) {
        (_, true) => "Its turn".to_owned(),
        (true, false) => "Waiting for its turn (it can still react)".to_owned(),
        (false, false) => "Turn (no fight yet: N rolls initiative)".to_owned(),
    };
    super::row(ui, |ui| {
        ui.label(RichText::new(heading).strong());
        // First, where a card of a fixed height shows it without scrolling.
        if !view.fight_runs || view.dm {
            let label = if view.active { "Restart turn" } else { "Start turn" };
            let button =
                ui.small_button(label).on_hover_text("Start this creature's turn now (outside the initiative order)");
            super::remember(&button, "card.start_turn");
            if button.clicked() {
                actions.push(TurnAction::StartTurn);
            }
        }
    });
    let l = view.left;
    let m = view.movement;
    super::row(ui, |ui| {
        marks(ui, view, |response, words| {
            response.on_hover_text(words);
        });
    });
    if l.disengaged {
        ui.label(RichText::new("Disengaged: its movement provokes no opportunity attacks this turn").weak());
    }
    if view.hidden {
        ui.label(RichText::new("Hidden from its enemies (attacking gives it away)").weak());
    }
    if let Some(readied) = &view.readied {
        super::row(ui, |ui| {
            ui.label(RichText::new(format!("Readied: {readied}")).color(Color32::from_rgb(230, 200, 120)));
            let fire = ui
                .add_enabled(view.fires_by_hand && view.left.reaction, egui::Button::new("Fire"))
                .on_hover_text("The trigger came: it happens now, with its reaction")
                .on_disabled_hover_text("A readied attack fires when its trigger moves; or the reaction is spent");
            if fire.clicked() {
                actions.push(TurnAction::FireReadied);
            }
        });
    }
    let can_act = !view.fight_runs || view.active;
    let why_not = "Not its turn: out of its turn a creature acts only with its reaction";
    ui.add_enabled_ui(can_act, |ui| {
        super::row(ui, |ui| {
            for action in [Action::Dash, Action::Disengage, Action::Dodge, Action::UseAnObject] {
                let button = ui
                    .add_enabled(can_take(view, action), egui::Button::new(action.name()))
                    .on_hover_text(action.effect())
                    .on_disabled_hover_text(if can_act { "The action is spent" } else { why_not });
                if button.clicked() {
                    actions.push(TurnAction::Act(action));
                }
            }
            for (action, request) in [(Action::Hide, TurnAction::Hide), (Action::Search, TurnAction::Search)] {
                if ui
                    .add_enabled(can_take(view, action), egui::Button::new(action.name()))
                    .on_hover_text(action.effect())
                    .clicked()
                {
                    actions.push(request);
                }
            }
            if ui
                .add_enabled(l.object_interaction || l.action, egui::Button::new("Interact"))
                .on_hover_text("Draw a weapon, open a door: one free interaction, then the action")
                .clicked()
            {
                actions.push(TurnAction::Interact);
            }
        });
        super::row(ui, |ui| {
            let undo = ui
                .add_enabled(m.moves > 0, egui::Button::new("Undo move"))
                .on_hover_text("Take back the last move this turn (Ctrl+Z takes back any change)");
            if undo.clicked() {
                actions.push(TurnAction::Undo);
            }
        });
        if l.action {
            help_form(ui, view, edit, &mut actions);
            ready_form(ui, view, edit, &mut actions);
        }
    });
    let drag = if view.fight_runs {
        "Drag the token to move it: blue cells cost movement, amber ones take the Dash action."
    } else {
        "Drag the token to move it (no fight: as far as the terrain allows; blue, a turn's move)."
    };
    ui.label(RichText::new(drag).weak().small());
    actions.into_iter().map(|action| PanelRequest::Turn { id: id.to_owned(), action }).collect()
}

/// The turn card of creature `id` (`name`) when it is its turn, drawn against the edge of
/// `within` where its player sits and facing it (issue 30): what is left of its turn, its
/// actions as big buttons, Undo move and End turn. The Help and Ready forms stay on the DM's card
/// (their choices open popups, which a turned card can't turn).
pub fn seated_turn_card(
    ctx: &egui::Context,
    id: &str,
    name: &str,
    view: &TurnView,
    edge: crate::scenario::TableEdge,
    within: egui::Rect,
) -> Vec<PanelRequest> {
    let card = egui::Id::new("seated-turn-card");
    let ((actions, end), _) = super::seat::facing_card(ctx, card, edge, within, |ui| {
        let mut actions = Vec::new();
        ui.label(RichText::new(format!("{name}'s turn")).size(22.0).strong());
        ui.horizontal_wrapped(|ui| marks(ui, view, |_, _| {}));
        let big = |text: &str| egui::Button::new(RichText::new(text).size(18.0)).min_size(egui::vec2(0.0, 40.0));
        ui.horizontal_wrapped(|ui| {
            for action in [Action::Dash, Action::Disengage, Action::Dodge, Action::UseAnObject] {
                if ui.add_enabled(can_take(view, action), big(action.name())).clicked() {
                    actions.push(TurnAction::Act(action));
                }
            }
            for (action, request) in [(Action::Hide, TurnAction::Hide), (Action::Search, TurnAction::Search)] {
                if ui.add_enabled(can_take(view, action), big(action.name())).clicked() {
                    actions.push(request);
                }
            }
            let l = view.left;
            if ui.add_enabled(l.object_interaction || l.action, big("Interact")).clicked() {
                actions.push(TurnAction::Interact);
            }
        });
        ui.horizontal(|ui| {
            if ui.add_enabled(view.movement.moves > 0, big("Undo move")).clicked() {
                actions.push(TurnAction::Undo);
            }
            let end = ui.add(big("End turn")).clicked();
            (actions, end)
        })
        .inner
    });
    let mut requests: Vec<PanelRequest> =
        actions.into_iter().map(|action| PanelRequest::Turn { id: id.to_owned(), action }).collect();
    if end {
        requests.push(PanelRequest::NextTurn);
    }
    requests
}

/// A combo box over `(id, name)` choices.
fn pick(ui: &mut egui::Ui, salt: &str, choice: &mut Option<String>, options: &[(String, String)], none: &str) {
    let shown = choice
        .as_ref()
        .and_then(|c| options.iter().find(|(id, _)| id == c))
        .map_or(none, |(_, name)| name.as_str())
        .to_owned();
    egui::ComboBox::from_id_salt(salt).selected_text(shown).show_ui(ui, |ui| {
        ui.selectable_value(choice, None, none);
        for (id, name) in options {
            ui.selectable_value(choice, Some(id.clone()), name);
        }
    });
}

fn help_form(ui: &mut egui::Ui, view: &TurnView, edit: &mut TurnEdit, actions: &mut Vec<TurnAction>) {
    if view.allies.is_empty() || view.enemies_near.is_empty() {
        return;
    }
    // Short rows: the side panel keeps its width whatever creature is selected.
    super::row(ui, |ui| {
        ui.label("Help:");
        pick(ui, "help-ally", &mut edit.help_ally, &view.allies, "(ally)");
    });
    super::row(ui, |ui| {
        ui.label("against");
        pick(ui, "help-target", &mut edit.help_target, &view.enemies_near, "(enemy within 5 ft)");
        let ready = edit.help_ally.clone().zip(edit.help_target.clone());
        if ui.add_enabled(ready.is_some(), egui::Button::new("Help")).on_hover_text(Action::Help.effect()).clicked()
            && let Some((ally, target)) = ready
        {
            actions.push(TurnAction::Help { ally, target });
        }
    });
}

fn ready_form(ui: &mut egui::Ui, view: &TurnView, edit: &mut TurnEdit, actions: &mut Vec<TurnAction>) {
    super::row(ui, |ui| {
        ui.label("Ready:");
        let attacks: Vec<(String, String)> = view.attacks.iter().map(|a| (a.clone(), a.clone())).collect();
        pick(ui, "ready-attack", &mut edit.ready_attack, &attacks, "(something else)");
        if edit.ready_attack.is_none() {
            ui.add(egui::TextEdit::singleline(&mut edit.ready_text).hint_text("what it does").desired_width(100.0));
            ui.checkbox(&mut edit.ready_spell, "spell").on_hover_text("Cast now, held with concentration");
        }
    });
    super::row(ui, |ui| {
        ui.label("when");
        pick(ui, "ready-trigger", &mut edit.ready_trigger, &view.others, "an enemy moves");
        if edit.ready_trigger.is_some() {
            ui.label("moves");
        }
    });
    super::row(ui, |ui| {
        ui.label("or when");
        ui.add(egui::TextEdit::singleline(&mut edit.ready_when).hint_text("the door opens").desired_width(150.0));
        let text = edit.ready_text.trim().to_owned();
        let response = match (&edit.ready_attack, text.is_empty(), edit.ready_spell) {
            (Some(attack), ..) => Some(Response::Attack(attack.clone())),
            (None, true, _) => None,
            (None, false, true) => Some(Response::Spell(text)),
            (None, false, false) => Some(Response::Other(text)),
        };
        let when = edit.ready_when.trim();
        let trigger =
            if when.is_empty() { Trigger::Moves(edit.ready_trigger.clone()) } else { Trigger::Other(when.to_owned()) };
        // An attack fires at the creature whose move sets it off: it needs a move as its trigger.
        let fits = !(matches!(response, Some(Response::Attack(_))) && matches!(trigger, Trigger::Other(_)));
        let button = ui
            .add_enabled(response.is_some() && fits, egui::Button::new("Ready"))
            .on_hover_text(Action::Ready.effect())
            .on_disabled_hover_text("Say what it does; a readied attack waits for a creature to move");
        if button.clicked()
            && let Some(response) = response
        {
            actions.push(TurnAction::Ready(Readied { trigger, response }));
        }
    });
}

/// The reaction waiting for an answer, as the prompt shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptView {
    pub title: String,
    pub lines: Vec<String>,
    pub yes: String,
    pub no: String,
    /// The seat at the table of the reactor's player (issue 30): the prompt faces that edge.
    pub seat: Option<crate::scenario::TableEdge>,
}

/// The prompt over the map, at the top; for a seated reactor, against its player's edge of
/// `within` and facing it. Returns the answer when a button is clicked.
pub fn reaction_prompt(ctx: &egui::Context, view: &PromptView, within: egui::Rect) -> Option<bool> {
    if let Some(edge) = view.seat {
        let card = egui::Id::new("reaction-prompt-seated");
        let (answer, turned) = super::seat::facing_card(ctx, card, edge, within, |ui| {
            ui.label(RichText::new(&view.title).strong().size(18.0));
            prompt_body(ui, view)
        });
        super::remembered_on_turned(ctx, &["prompt.yes", "prompt.no"], &turned);
        return answer;
    }
    egui::Window::new(RichText::new(&view.title).strong())
        .id(egui::Id::new("reaction-prompt"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 48.0])
        .show(ctx, |ui| prompt_body(ui, view))
        .and_then(|shown| shown.inner)
        .flatten()
}

/// The prompt's lines and its two buttons; the answer when one is clicked.
fn prompt_body(ui: &mut egui::Ui, view: &PromptView) -> Option<bool> {
    let mut answer = None;
    for line in &view.lines {
        ui.label(line);
    }
    ui.add_space(6.0);
    super::row(ui, |ui| {
        let yes = ui.button(RichText::new(&view.yes).strong());
        super::remember(&yes, "prompt.yes");
        if yes.clicked() {
            answer = Some(true);
        }
        let no = ui.button(&view.no);
        super::remember(&no, "prompt.no");
        if no.clicked() {
            answer = Some(false);
        }
    });
    answer
}

/// One place in the initiative tracker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryView {
    pub id: String,
    pub name: String,
    pub side: Side,
    pub initiative: i32,
    pub current: bool,
    /// Kept from the players.
    pub hidden: bool,
}

/// The initiative tracker's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InitiativeView {
    pub round: u32,
    pub entries: Vec<EntryView>,
    /// Creatures on the map not in the order: `(id, name)`.
    pub absent: Vec<(String, String)>,
    /// The DM's view: hidden entries shown (marked), and the DM's controls.
    pub dm: bool,
}

/// An entry's name in its side's colour, on the panel's own background (readable: a coloured
/// background under a coloured name was not); the current one bold, a hidden one italic.
fn entry_name(entry: &EntryView, color: Color32) -> RichText {
    let mut name = RichText::new(&entry.name).color(color);
    if entry.current {
        name = name.strong();
    }
    if entry.hidden {
        name = name.italics();
    }
    name
}

/// The mark before the current entry (a blank as wide before the others).
fn current_mark(ui: &mut egui::Ui, current: bool, height: f32) {
    let mark = RichText::new(if current { "▶" } else { "" }).color(Color32::from_rgb(250, 210, 90));
    ui.add_sized([12.0, height], egui::Label::new(mark));
}

/// The initiative as a strip across the top of the table view: the round, then each creature in
/// order with its initiative, the current one marked.
pub fn initiative_strip(ui: &mut egui::Ui, view: &InitiativeView) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("Round {}", view.round.max(1))).strong());
        for entry in view.entries.iter().filter(|e| view.dm || !e.hidden) {
            ui.separator();
            let color =
                super::style::egui_color(super::style::token_color(entry.side, crate::scenario::TokenKind::Creature));
            let name = entry_name(entry, color).size(if entry.current { 18.0 } else { 15.0 });
            current_mark(ui, entry.current, 20.0);
            ui.add(egui::Label::new(name).truncate());
            ui.label(RichText::new(entry.initiative.to_string()).weak());
        }
    });
}

/// Draws the initiative tracker: the order, the current creature highlighted, the round; in the
/// DM's view also hidden entries and add, remove, hide and delay.
pub fn initiative_panel(ui: &mut egui::Ui, view: &InitiativeView, adding: &mut Option<String>) -> Vec<PanelRequest> {
    let mut requests = Vec::new();
    if view.entries.is_empty() {
        ui.label(RichText::new("Not rolled yet: Next turn (N) rolls it for every creature.").weak());
    } else {
        ui.label(format!("Round {}", view.round.max(1)));
    }
    // Rows of a fixed width: the name takes what the number and the buttons leave, cut short
    // with an ellipsis (whole on hover) rather than widening the panel.
    let row_height = ui.spacing().interact_size.y;
    for entry in view.entries.iter().filter(|e| view.dm || !e.hidden) {
        let color =
            super::style::egui_color(super::style::token_color(entry.side, crate::scenario::TokenKind::Creature));
        let buttons = if view.dm { 90.0 } else { 0.0 } + if entry.current { 48.0 } else { 0.0 };
        ui.horizontal(|ui| {
            ui.add_sized([26.0, row_height], egui::Label::new(RichText::new(entry.initiative.to_string()).strong()));
            current_mark(ui, entry.current, row_height);
            let width = (ui.available_width() - buttons).max(40.0);
            let name = egui::Button::selectable(entry.current, entry_name(entry, color)).truncate();
            let response = ui.add_sized([width, row_height], name).on_hover_text(&entry.name);
            if response.clicked() {
                requests.push(PanelRequest::Select(entry.id.clone()));
            }
            {
                if view.dm {
                    let eye = if entry.hidden { "Reveal" } else { "Conceal" };
                    let tip = if entry.hidden { "Show it to the players" } else { "Keep it from the players" };
                    if ui.small_button(eye).on_hover_text(tip).clicked() {
                        requests
                            .push(PanelRequest::Initiative(InitiativeAction::Secret(entry.id.clone(), !entry.hidden)));
                    }
                    if ui.small_button("x").on_hover_text("Remove from the order").clicked() {
                        requests.push(PanelRequest::Initiative(InitiativeAction::Leave(entry.id.clone())));
                    }
                }
                if entry.current
                    && ui.small_button("Delay").on_hover_text("Act after the next creature, this round").clicked()
                {
                    requests.push(PanelRequest::Initiative(InitiativeAction::Delay));
                }
            }
        });
    }
    ui.horizontal(|ui| {
        if ui.button("Next turn").on_hover_text("N").clicked() {
            requests.push(PanelRequest::NextTurn);
        }
    });
    if view.dm && !view.entries.is_empty() && !view.absent.is_empty() {
        ui.horizontal(|ui| {
            pick(ui, "initiative-add", adding, &view.absent, "(creature)");
            if ui.add_enabled(adding.is_some(), egui::Button::new("Add")).on_hover_text("Roll its initiative").clicked()
                && let Some(id) = adding.take()
            {
                requests.push(PanelRequest::Initiative(InitiativeAction::Join(id)));
            }
        });
    }
    requests
}

/// What the tracker asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InitiativeAction {
    Delay,
    Join(String),
    Leave(String),
    /// Keep the creature from the players (`true`) or show it.
    Secret(String, bool),
}
