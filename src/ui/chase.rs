//! The chase panels: the setup window (who flees, who pursues, which table) and the hotseat chase
//! screen (the track, the hand-over card, the active participant's turn card, the log and the
//! DM's overrides). Functions of a view model that return [`ChaseRequest`]s.

use std::collections::BTreeMap;

use bevy_egui::egui::{self, Color32, RichText, Stroke, Vec2};

use crate::app::core::requests::ChaseRequest;
use crate::rules::chase::{EscapeFactor, Resolution, Role};
use crate::rules::creature::Side;
use crate::rules::sight::CoverDegree;
use crate::scenario::TableEdge;

use super::style::{egui_color, side_color};

/// The size of the turn card's buttons: big enough to hit from across a table.
const BIG: Vec2 = Vec2::new(210.0, 46.0);
const BIG_TEXT: f32 = 20.0;

/// The complication table a drafted chase uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableChoice {
    #[default]
    Urban,
    Wilderness,
    /// The table the scenario file gives.
    Scene,
}

/// The chase being set up, edited in the setup window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChaseDraft {
    pub roles: BTreeMap<String, Role>,
    pub table: TableChoice,
    /// The scene's own table's name, if it has one.
    pub scene_table: Option<String>,
    pub sight: Option<u32>,
    pub factors: Vec<EscapeFactor>,
}

/// A creature that can join the chase, for the setup window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub id: String,
    pub name: String,
    pub side: Side,
    pub selected_on_map: bool,
}

/// The setup window: roles, table, sight and escape factors; Start when there is a quarry and a
/// pursuer.
pub fn chase_setup(
    ui: &mut egui::Ui,
    candidates: &[Candidate],
    draft: &mut ChaseDraft,
) -> (Vec<ChaseRequest>, Targets) {
    let mut requests = Vec::new();
    let mut targets = Targets::new();
    ui.label("Pick the quarry and the pursuers. Distances start from the map.");
    egui::Grid::new("chase-roles").striped(true).show(ui, |ui| {
        for candidate in candidates {
            let name = RichText::new(&candidate.name).color(egui_color(side_color(candidate.side)));
            ui.label(if candidate.selected_on_map { name.strong().underline() } else { name });
            let current = draft.roles.get(&candidate.id).copied();
            for (label, role) in [("—", None), ("Quarry", Some(Role::Quarry)), ("Pursuer", Some(Role::Pursuer))] {
                if ui.selectable_label(current == role, label).clicked() {
                    match role {
                        Some(role) => draft.roles.insert(candidate.id.clone(), role),
                        None => draft.roles.remove(&candidate.id),
                    };
                }
            }
            ui.end_row();
        }
    });
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("Complications:");
        ui.selectable_value(&mut draft.table, TableChoice::Urban, "Urban");
        ui.selectable_value(&mut draft.table, TableChoice::Wilderness, "Wilderness");
        if let Some(name) = &draft.scene_table {
            ui.selectable_value(&mut draft.table, TableChoice::Scene, name.as_str());
        }
    });
    ui.horizontal(|ui| {
        let mut limited = draft.sight.is_some();
        ui.checkbox(&mut limited, "Lead pursuer sees at most");
        let mut feet = draft.sight.unwrap_or(60);
        ui.add_enabled(limited, egui::DragValue::new(&mut feet).range(5..=1000).speed(5).suffix(" ft"));
        draft.sight = limited.then_some(feet);
    });
    ui.label("Escape factors:");
    for factor in EscapeFactor::table() {
        let mut on = draft.factors.contains(&factor);
        let mark = if factor.gives_advantage() { "advantage" } else { "disadvantage" };
        if ui.checkbox(&mut on, format!("Quarry has {} ({mark})", factor.name())).changed() {
            if on {
                draft.factors.push(factor);
            } else {
                draft.factors.retain(|f| *f != factor);
            }
        }
    }
    ui.separator();
    let quarry = draft.roles.values().filter(|r| **r == Role::Quarry).count();
    let pursuers = draft.roles.len() - quarry;
    let ready = quarry > 0 && pursuers > 0;
    ui.horizontal(|ui| {
        let start = ui.add_enabled(ready, egui::Button::new(RichText::new("Start chase").size(18.0)));
        target(&mut targets, "chase.start", &start);
        if start.clicked() {
            requests.push(ChaseRequest::Start);
        }
        if !ready {
            ui.label("A chase needs a quarry and at least one pursuer.");
        } else {
            ui.label(format!("{quarry} quarry, {pursuers} pursuing"));
        }
    });
    (requests, targets)
}

/// One participant on the track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackRow {
    pub id: String,
    pub name: String,
    pub side: Side,
    pub roles: Vec<Role>,
    /// Feet along the route.
    pub position: i32,
    pub running: bool,
    pub status: String,
    pub lead: bool,
    /// For a pursuer: feet to the nearest quarry creature it chases.
    pub distance: Option<u32>,
    pub out_of_sight: bool,
    pub acting: bool,
    /// Hit points as the audience may see them: `7/12`, or for a monster in the players' view a word.
    pub hp: String,
    pub exhaustion: u8,
    pub free_dashes_left: u32,
    pub inspiration: bool,
}

/// The complication waiting for the active participant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComplicationCard {
    pub roller: String,
    pub d20: u32,
    pub table: String,
    pub text: String,
    /// The test, such as "DC 10 Dexterity saving throw", if there is one.
    pub test: Option<String>,
    /// The checks it may choose between.
    pub options: Vec<String>,
    pub alternative: Option<String>,
    /// Who can spend inspiration to negate it: (id, name).
    pub negators: Vec<(String, String)>,
}

/// An attack the active participant can make, and who is in range of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackChoice {
    pub index: usize,
    pub name: String,
    /// (id, name, feet away, hostile): the others are offered only at the DM's [`ChaseEdit::any_target`].
    pub targets: Vec<(String, String, u32, bool)>,
}

/// The active participant's turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnCard {
    pub id: String,
    pub name: String,
    pub side: Side,
    pub roles: Vec<Role>,
    pub movement_left: u32,
    pub speed: u32,
    pub action_used: bool,
    pub dashed: bool,
    pub free_dashes_left: u32,
    pub free_dashes: u32,
    pub exhaustion: u8,
    pub restrained: bool,
    pub blinded: bool,
    pub complication: Option<ComplicationCard>,
    pub attacks: Vec<AttackChoice>,
    pub last_of_round: bool,
}

/// What the chase screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChaseStage {
    /// Between turns: pass the screen to this participant.
    Handover {
        name: String,
        side: Side,
        roles: Vec<Role>,
        complication: bool,
    },
    Turn(Box<TurnCard>),
    Over {
        outcome: String,
    },
}

/// The chase screen's view model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChaseView {
    pub title: String,
    pub round: u32,
    pub stage: ChaseStage,
    /// The seat at the table of the player the hand-over or turn card is for (issue 30): the card
    /// is drawn against that edge, facing it.
    pub seat: Option<TableEdge>,
    pub track: Vec<TrackRow>,
    /// The chase's log, oldest first.
    pub log: Vec<String>,
    /// Other chases after a split: (name, over).
    pub other_chases: Vec<(String, bool)>,
    pub escape_note: String,
}

/// What the user is typing on the chase screen, kept between frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChaseEdit {
    pub move_feet: u32,
    pub cover: Option<CoverDegree>,
    pub forced_roll: String,
    pub split_quarry: Vec<String>,
    pub split_pursuers: Vec<String>,
    /// The DM's override: turn cards offer every participant in range, not only the hostile ones.
    pub any_target: bool,
    /// *End chase* waits for its confirmation.
    pub confirm_end: bool,
}

/// Where the widgets a test clicks ended up on screen: (name, centre).
pub(crate) type Targets = Vec<(String, [f32; 2])>;

fn big_button(ui: &mut egui::Ui, text: &str, enabled: bool) -> egui::Response {
    ui.add_enabled(enabled, egui::Button::new(RichText::new(text).size(BIG_TEXT)).min_size(BIG))
}

fn target(targets: &mut Targets, name: &str, response: &egui::Response) {
    let c = response.rect.center();
    targets.push((name.to_owned(), [c.x, c.y]));
}

fn role_text(roles: &[Role]) -> &'static str {
    match roles {
        [Role::Quarry] => "quarry",
        [Role::Pursuer] => "pursuer",
        [] => "",
        _ => "quarry and pursuer",
    }
}

/// The share of the screen's height a north or south card's band takes, and of its width an east
/// or west card's: fixed, not the card's own size, so that the rest of the screen stays where it
/// is while hand-over and turn cards of different sizes come and go.
const CARD_BAND: f32 = 0.42;
const SIDE_BAND: f32 = 0.3;

/// The whole chase screen: the title, the track across the whole width, the log and the DM's
/// overrides, and over them the stage's card against its player's edge (`view.seat`; the bottom
/// without one), facing it. The screen leaves the card a band of fixed depth on that side; east
/// and west cards stand beside the part under the track.
pub fn chase_screen(ui: &mut egui::Ui, view: &ChaseView, edit: &mut ChaseEdit) -> (Vec<ChaseRequest>, Targets) {
    let mut requests = Vec::new();
    let mut targets = Targets::new();
    let seat = view.seat.filter(|_| !matches!(view.stage, ChaseStage::Over { .. }));
    let edge = seat.unwrap_or(TableEdge::South);
    let room = ui.available_rect_before_wrap();
    if edge == TableEdge::North {
        ui.add_space(room.height() * CARD_BAND);
    }
    header(ui, view, edit, &mut requests, &mut targets);
    ui.label(RichText::new(&view.escape_note).italics());
    track(ui, &view.track);
    ui.separator();
    let under_track = ui.available_rect_before_wrap();
    let mut rest = under_track;
    match edge {
        TableEdge::South => rest.max.y = (room.bottom() - room.height() * CARD_BAND).max(rest.top()),
        TableEdge::North => {}
        TableEdge::East => rest.max.x -= room.width() * SIDE_BAND,
        TableEdge::West => rest.min.x += room.width() * SIDE_BAND,
    }
    ui.scope_builder(egui::UiBuilder::new().max_rect(rest), |ui| {
        log_and_overrides(ui, view, seat, edit, &mut requests);
    });
    targets.extend(stage_card(ui.ctx(), view, edge, under_track, edit, &mut requests));
    if edit.confirm_end {
        confirm_end(ui.ctx(), edit, &mut requests, &mut targets);
    }
    (requests, targets)
}

/// The title, the round, the other chases, and the ways back: *Back to the map* (the chase
/// waits) and *End chase...* (asked first).
fn header(
    ui: &mut egui::Ui,
    view: &ChaseView,
    edit: &mut ChaseEdit,
    requests: &mut Vec<ChaseRequest>,
    targets: &mut Targets,
) {
    ui.horizontal(|ui| {
        ui.heading(RichText::new(&view.title).size(26.0).strong());
        ui.label(RichText::new(format!("Round {}", view.round.max(1))).size(20.0));
        for (name, over) in &view.other_chases {
            ui.label(format!("· also: {name}{}", if *over { " (over)" } else { "" }));
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let back = ui.button(RichText::new("Back to the map").size(16.0));
            target(targets, "chase.return", &back);
            if back.on_hover_text("The chase waits: C, or Chase in the bar, brings it back").clicked() {
                requests.push(ChaseRequest::ReturnToMap);
            }
            if !matches!(view.stage, ChaseStage::Over { .. }) {
                let end = ui.button(RichText::new("End chase...").size(16.0));
                target(targets, "chase.end_chase", &end);
                if end.on_hover_text("End the chase: what it did goes back to the map").clicked() {
                    edit.confirm_end = true;
                }
            }
        });
    });
}

/// Under the track: where a seated player's card went, the chase log (scrolling inside the room
/// it has, the newest line in sight) and the DM's overrides.
fn log_and_overrides(
    ui: &mut egui::Ui,
    view: &ChaseView,
    seat: Option<TableEdge>,
    edit: &mut ChaseEdit,
    requests: &mut Vec<ChaseRequest>,
) {
    if let Some(edge) = seat {
        let whose = match &view.stage {
            ChaseStage::Handover { name, .. } => name.as_str(),
            ChaseStage::Turn(turn) => turn.name.as_str(),
            ChaseStage::Over { .. } => "",
        };
        let words = format!("{whose}'s card faces {}.", super::words::seat_words(edge));
        ui.label(RichText::new(words).italics().size(16.0));
    }
    ui.columns(2, |columns| {
        let (left, right) = columns.split_at_mut(1);
        let log = &mut left[0];
        log.label(RichText::new("Chase log").strong());
        let height = log.available_height();
        egui::ScrollArea::vertical().id_salt("chase-log").max_height(height).stick_to_bottom(true).show(log, |ui| {
            for line in &view.log {
                ui.label(line);
            }
        });
        let side = &mut right[0];
        let height = side.available_height();
        egui::ScrollArea::vertical()
            .id_salt("chase-dm")
            .max_height(height)
            .show(side, |ui| dm_controls(ui, view, edit, requests));
    });
}

/// The stage's card over the screen against `edge`: upright at the bottom for the south seat (or
/// none), else turned to face its seat; east and west cards beside the part under the track, so
/// that the track keeps the width. Gives where its buttons are drawn.
fn stage_card(
    ctx: &egui::Context,
    view: &ChaseView,
    edge: TableEdge,
    under_track: egui::Rect,
    edit: &mut ChaseEdit,
    requests: &mut Vec<ChaseRequest>,
) -> Targets {
    let screen = ctx.content_rect();
    let mut targets = Targets::new();
    if edge == TableEdge::South {
        let id = egui::Id::new("chase-card-upright");
        super::seat::upright_card(ctx, id, screen, |ui| card(ui, view, edit, requests, &mut targets));
        return targets;
    }
    let within = match edge {
        TableEdge::East | TableEdge::West => {
            egui::Rect::from_min_max(egui::pos2(screen.left(), under_track.top()), screen.max)
        }
        _ => screen,
    };
    let id = egui::Id::new("chase-card");
    let ((), turned) =
        super::seat::facing_card(ctx, id, edge, within, |ui| card(ui, view, edit, requests, &mut targets));
    let on_screen = |(name, [x, y]): (String, [f32; 2])| {
        let at = turned.to_screen(egui::pos2(x, y));
        (name, [at.x, at.y])
    };
    targets.into_iter().map(on_screen).collect()
}

/// Asks before the chase ends, in a modal over the screen and its cards: *Yes* ends it; *No*, a
/// click beside it or Escape keeps it.
fn confirm_end(ctx: &egui::Context, edit: &mut ChaseEdit, requests: &mut Vec<ChaseRequest>, targets: &mut Targets) {
    let id = egui::Id::new("chase-end-confirm");
    // Above the cards turned to their seats, which are in the foreground too.
    let area = egui::Modal::default_area(id).order(egui::Order::Tooltip);
    let shown = egui::Modal::new(id).area(area).show(ctx, |ui| {
        ui.heading("End the chase?");
        ui.label("Hit points, exhaustion and inspiration go back to the map. Back to the map keeps the chase.");
        ui.horizontal(|ui| {
            let yes = ui.button(RichText::new("Yes, end the chase").strong());
            target(targets, "chase.end_confirm", &yes);
            if yes.clicked() {
                requests.push(ChaseRequest::EndChase);
                edit.confirm_end = false;
            }
            if ui.button("No, keep it").clicked() {
                edit.confirm_end = false;
            }
        });
    });
    if shown.should_close() {
        edit.confirm_end = false;
    }
}

/// The card of the chase's stage: the hand-over, the turn, or the outcome.
fn card(
    ui: &mut egui::Ui,
    view: &ChaseView,
    edit: &mut ChaseEdit,
    requests: &mut Vec<ChaseRequest>,
    targets: &mut Targets,
) {
    match &view.stage {
        ChaseStage::Handover { name, side, roles, complication } => {
            ui.add_space(12.0);
            ui.label(RichText::new(format!("Round {}", view.round.max(1))).size(16.0));
            ui.label(RichText::new("Pass the screen to").size(18.0));
            ui.label(
                RichText::new(format!("{name} ({})", role_text(roles)))
                    .size(32.0)
                    .strong()
                    .color(egui_color(side_color(*side))),
            );
            if *complication {
                ui.label(
                    RichText::new("A complication waits for you.").size(18.0).color(Color32::from_rgb(230, 160, 60)),
                );
            }
            ui.add_space(8.0);
            let begin = big_button(ui, &format!("{name}: start my turn"), true);
            target(targets, "chase.begin", &begin);
            if begin.clicked() {
                requests.push(ChaseRequest::BeginTurn);
            }
        }
        ChaseStage::Turn(turn) => turn_card(ui, turn, edit, requests, targets),
        ChaseStage::Over { outcome } => {
            ui.add_space(12.0);
            ui.label(RichText::new(outcome).size(24.0).strong());
            let back = big_button(ui, "Back to the map", true);
            target(targets, "chase.return_big", &back);
            if back.clicked() {
                requests.push(ChaseRequest::ReturnToMap);
            }
        }
    }
}

/// One lane per participant on a shared axis of feet, the lead pursuer ringed in gold.
fn track(ui: &mut egui::Ui, rows: &[TrackRow]) {
    let running: Vec<&TrackRow> = rows.iter().collect();
    let (low, high) = running.iter().fold((i32::MAX, i32::MIN), |(lo, hi), r| (lo.min(r.position), hi.max(r.position)));
    let (low, high) = if low > high { (0, 60) } else { (low - 10, (high + 10).max(low + 50)) };
    let lane = 30.0;
    let label_width = 170.0;
    let info_width = 250.0;
    let width = ui.available_width();
    let (rect, _) = ui.allocate_exact_size(Vec2::new(width, lane * rows.len() as f32 + 24.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let axis_left = rect.left() + label_width;
    let axis_right = (rect.right() - info_width).max(axis_left + 50.0);
    let x_of = |feet: i32| axis_left + (axis_right - axis_left) * (feet - low) as f32 / (high - low).max(1) as f32;
    let text_color = ui.visuals().text_color();
    let faint = ui.visuals().weak_text_color();
    let step = [10, 30, 60, 120, 300].into_iter().find(|s| (high - low) / s <= 12).unwrap_or(600);
    let mut tick = low.div_euclid(step) * step;
    let bottom = rect.bottom() - 12.0;
    while tick <= high {
        if tick >= low {
            let x = x_of(tick);
            painter.line_segment(
                [egui::pos2(x, rect.top()), egui::pos2(x, bottom)],
                Stroke::new(1.0, faint.gamma_multiply(0.3)),
            );
            painter.text(
                egui::pos2(x, bottom + 6.0),
                egui::Align2::CENTER_CENTER,
                format!("{tick} ft"),
                egui::FontId::proportional(11.0),
                faint,
            );
        }
        tick += step;
    }
    for (i, row) in rows.iter().enumerate() {
        let y = rect.top() + lane * (i as f32 + 0.5);
        let color = egui_color(side_color(row.side));
        let shade = if row.running { color } else { color.gamma_multiply(0.35) };
        if row.acting {
            painter.rect_filled(
                egui::Rect::from_min_max(
                    egui::pos2(rect.left(), y - lane / 2.0),
                    egui::pos2(rect.right(), y + lane / 2.0),
                ),
                4.0,
                Color32::from_rgba_unmultiplied(255, 255, 255, 18),
            );
        }
        let name = format!("{}{}", row.name, if row.acting { " ▶" } else { "" });
        painter.text(
            egui::pos2(rect.left() + 4.0, y),
            egui::Align2::LEFT_CENTER,
            name,
            egui::FontId::proportional(15.0),
            if row.running { text_color } else { faint },
        );
        painter.line_segment(
            [egui::pos2(axis_left, y), egui::pos2(axis_right, y)],
            Stroke::new(1.0, faint.gamma_multiply(0.5)),
        );
        let at = egui::pos2(x_of(row.position), y);
        if row.roles.contains(&Role::Quarry) {
            painter.add(egui::Shape::convex_polygon(
                vec![at + Vec2::new(10.0, 0.0), at + Vec2::new(-6.0, -9.0), at + Vec2::new(-6.0, 9.0)],
                shade,
                Stroke::new(1.5, Color32::WHITE),
            ));
        } else {
            painter.circle(at, 8.0, shade, Stroke::new(1.5, Color32::WHITE));
        }
        if row.lead {
            painter.circle_stroke(at, 12.5, Stroke::new(3.0, Color32::GOLD));
        }
        let mut info = format!("{} ft", row.position);
        if let Some(feet) = row.distance {
            info.push_str(&format!(" · {feet} ft behind"));
        }
        if row.lead {
            info.push_str(" · LEAD");
        }
        if row.out_of_sight {
            info.push_str(" · out of sight");
        }
        if !row.running {
            info = row.status.clone();
        }
        let detail = format!(
            "  HP {} · exh {} · free dashes {}{}",
            row.hp,
            row.exhaustion,
            row.free_dashes_left,
            if row.inspiration { " · ★" } else { "" }
        );
        painter.text(
            egui::pos2(axis_right + 16.0, y - 6.0),
            egui::Align2::LEFT_CENTER,
            info,
            egui::FontId::proportional(13.0),
            if row.lead { Color32::GOLD } else { text_color },
        );
        painter.text(
            egui::pos2(axis_right + 16.0, y + 8.0),
            egui::Align2::LEFT_CENTER,
            detail,
            egui::FontId::proportional(11.0),
            faint,
        );
    }
}

fn turn_card(
    ui: &mut egui::Ui,
    turn: &TurnCard,
    edit: &mut ChaseEdit,
    requests: &mut Vec<ChaseRequest>,
    targets: &mut Targets,
) {
    ui.label(
        RichText::new(format!("{}'s turn ({})", turn.name, role_text(&turn.roles)))
            .size(24.0)
            .strong()
            .color(egui_color(side_color(turn.side))),
    );
    if let Some(c) = &turn.complication {
        egui::Frame::group(ui.style()).fill(Color32::from_rgb(70, 48, 20)).show(ui, |ui| {
            ui.label(RichText::new(format!("Complication: {} rolled {} on the {}", c.roller, c.d20, c.table)).strong());
            ui.label(&c.text);
            ui.horizontal_wrapped(|ui| {
                if c.options.is_empty() {
                    let roll = big_button(ui, if c.test.is_some() { "Roll" } else { "Resolve" }, true);
                    target(targets, "chase.resolve", &roll);
                    if roll.clicked() {
                        requests.push(ChaseRequest::Resolve(Resolution::Attempt { option: 0 }));
                    }
                }
                for (i, option) in c.options.iter().enumerate() {
                    let roll = big_button(ui, &format!("Roll {option}"), true);
                    target(targets, &format!("chase.resolve.{i}"), &roll);
                    if roll.clicked() {
                        requests.push(ChaseRequest::Resolve(Resolution::Attempt { option: i }));
                    }
                }
                if let Some(alternative) = &c.alternative
                    && big_button(ui, alternative, true).clicked()
                {
                    requests.push(ChaseRequest::Resolve(Resolution::Alternative));
                }
                for (id, name) in &c.negators {
                    if big_button(ui, &format!("{name} spends inspiration"), true).clicked() {
                        requests.push(ChaseRequest::Resolve(Resolution::Negate { by: id.clone() }));
                    }
                }
            });
        });
        return;
    }
    let mut notes = vec![format!("Speed {} ft", turn.speed)];
    if turn.exhaustion > 0 {
        notes.push(format!("exhaustion {}", turn.exhaustion));
    }
    if turn.blinded {
        notes.push("blinded: speed halved".to_owned());
    }
    if turn.restrained {
        notes.push("restrained in a net".to_owned());
    }
    ui.label(RichText::new(notes.join(" · ")).size(16.0));
    ui.label(RichText::new(format!("Movement left: {} ft", turn.movement_left)).size(22.0));
    ui.horizontal_wrapped(|ui| {
        let dash_text = if turn.free_dashes_left > 0 {
            format!("Dash ({} of {} free left)", turn.free_dashes_left, turn.free_dashes)
        } else {
            "Dash (Con check DC 10)".to_owned()
        };
        let dash = big_button(ui, &dash_text, !turn.action_used && !turn.restrained);
        target(targets, "chase.dash", &dash);
        if dash.clicked() {
            requests.push(ChaseRequest::Dash);
        }
        let run = big_button(ui, &format!("Move {} ft", turn.movement_left), turn.movement_left > 0);
        target(targets, "chase.move_all", &run);
        if run.clicked() {
            requests.push(ChaseRequest::Move(turn.movement_left));
        }
        if turn.restrained && big_button(ui, "Break free (Str DC 10)", !turn.action_used).clicked() {
            requests.push(ChaseRequest::BreakFree);
        }
    });
    ui.horizontal(|ui| {
        edit.move_feet = edit.move_feet.min(turn.movement_left);
        ui.add(egui::Slider::new(&mut edit.move_feet, 0..=turn.movement_left.max(1)).step_by(5.0).suffix(" ft"));
        if ui.add_enabled(edit.move_feet > 0, egui::Button::new("Move this far")).clicked() {
            requests.push(ChaseRequest::Move(edit.move_feet));
        }
    });
    if !turn.attacks.is_empty() {
        // Choices laid out in the card, not a popup: a card turned to a seat can't turn a popup.
        ui.horizontal_wrapped(|ui| {
            ui.label("Attack or cast; the target's cover:");
            let cover = edit.cover.get_or_insert(CoverDegree::None);
            for degree in [CoverDegree::None, CoverDegree::Half, CoverDegree::ThreeQuarters] {
                ui.selectable_value(cover, degree, cover_name(degree));
            }
        });
        for attack in &turn.attacks {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(&attack.name).strong());
                let offered: Vec<_> = attack.targets.iter().filter(|t| t.3 || edit.any_target).collect();
                if offered.is_empty() {
                    ui.label("nobody in range");
                }
                for (id, name, feet, _) in offered {
                    let button = ui.add_enabled(!turn.action_used, egui::Button::new(format!("{name} ({feet} ft)")));
                    if button.clicked() {
                        requests.push(ChaseRequest::Attack {
                            target: id.clone(),
                            attack: attack.index,
                            cover: edit.cover.unwrap_or(CoverDegree::None),
                        });
                    }
                }
            });
        }
    }
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        let end_text = if turn.last_of_round { "End turn (then escape checks)" } else { "End turn" };
        let end = big_button(ui, end_text, true);
        target(targets, "chase.end", &end);
        if end.clicked() {
            requests.push(ChaseRequest::EndTurn);
        }
        if ui.button(RichText::new("Give up the chase").size(16.0)).clicked() {
            requests.push(ChaseRequest::GiveUp(turn.id.clone()));
        }
    });
}

fn cover_name(cover: CoverDegree) -> &'static str {
    match cover {
        CoverDegree::None => "no cover",
        CoverDegree::Half => "half cover (+2 AC)",
        CoverDegree::ThreeQuarters => "three-quarters cover (+5 AC)",
        CoverDegree::Total => "total cover",
    }
}

/// The DM's overrides: places, exhaustion, sight, the next roll, splitting and role reversal.
fn dm_controls(ui: &mut egui::Ui, view: &ChaseView, edit: &mut ChaseEdit, requests: &mut Vec<ChaseRequest>) {
    egui::CollapsingHeader::new("DM overrides").default_open(false).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label("Next roll's result:");
            ui.add(egui::TextEdit::singleline(&mut edit.forced_roll).desired_width(50.0));
            let value = edit.forced_roll.trim().parse::<i32>().ok();
            if ui.add_enabled(value.is_some(), egui::Button::new("Set")).clicked()
                && let Some(value) = value
            {
                requests.push(ChaseRequest::ForceRoll(value));
                edit.forced_roll.clear();
            }
        });
        ui.checkbox(&mut edit.any_target, "Turn cards offer every participant in range as a target");
        egui::Grid::new("chase-dm").striped(true).show(ui, |ui| {
            for row in view.track.iter().filter(|r| r.running) {
                ui.label(&row.name);
                let mut feet = row.position;
                if ui.add(egui::DragValue::new(&mut feet).speed(5).suffix(" ft")).changed() {
                    requests.push(ChaseRequest::SetPosition(row.id.clone(), feet));
                }
                let mut level = row.exhaustion;
                if ui.add(egui::DragValue::new(&mut level).range(0..=5).prefix("exh ")).changed() {
                    requests.push(ChaseRequest::SetExhaustion(row.id.clone(), level));
                }
                if row.roles.contains(&Role::Quarry) && !row.out_of_sight && ui.small_button("out of sight").clicked() {
                    requests.push(ChaseRequest::OutOfSight(row.id.clone()));
                }
                if ui.small_button("gives up").clicked() {
                    requests.push(ChaseRequest::GiveUp(row.id.clone()));
                }
                ui.end_row();
            }
        });
        ui.separator();
        ui.label("Split up: quarry breaking away, and the pursuers that follow");
        ui.horizontal_wrapped(|ui| {
            for row in view.track.iter().filter(|r| r.running) {
                let list =
                    if row.roles.contains(&Role::Quarry) { &mut edit.split_quarry } else { &mut edit.split_pursuers };
                let mut on = list.contains(&row.id);
                if ui.checkbox(&mut on, &row.name).changed() {
                    if on {
                        list.push(row.id.clone());
                    } else {
                        list.retain(|id| *id != row.id);
                    }
                }
            }
        });
        ui.horizontal(|ui| {
            if ui.add_enabled(!edit.split_quarry.is_empty(), egui::Button::new("Split off")).clicked() {
                requests.push(ChaseRequest::Split {
                    quarry: std::mem::take(&mut edit.split_quarry),
                    pursuers: std::mem::take(&mut edit.split_pursuers),
                });
            }
            if ui.button("Reverse roles").on_hover_text("The quarry turns on its pursuers").clicked() {
                requests.push(ChaseRequest::Reverse);
            }
        });
    });
}
