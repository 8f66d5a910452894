//! The chase's screens, drawn over the map: the setup window (who flees, who pursues), and the
//! hotseat chase screen that takes the whole window while the chase runs; their requests go to the
//! chase feature as [`ChaseMessage`]s.

use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::core::chase::ChaseRun;
use crate::app::core::components::{
    Allegiance, ChaseState, DisplayName, HitPoints, Kind, PlayerCharacter, RosterOrder, Seat, TokenId,
};
use crate::app::core::messages::ChaseMessage;
use crate::app::core::requests::ChaseRequest;
use crate::app::core::state::{Audience, Selection};
use crate::app::features::chase::ChaseScreens;
use crate::rules::chase::{Chase, Chases, Participant, Status, Test};
use crate::rules::creature::Side;
use crate::rules::fight::set_exhaustion;
use crate::rules::health::Health;
use crate::scenario::TokenKind;
use crate::ui::chase::{
    AttackChoice, Candidate, ChaseStage, ChaseView, ComplicationCard, TrackRow, TurnCard, chase_screen, chase_setup,
};

/// A token as the chase's setup lists it.
#[derive(QueryData)]
pub(super) struct ChaseCandidate {
    entity: Entity,
    id: &'static TokenId,
    name: &'static DisplayName,
    side: &'static Allegiance,
    kind: &'static Kind,
    order: &'static RosterOrder,
    chase: Option<&'static ChaseState>,
    seat: Option<&'static Seat>,
    pc: Has<PlayerCharacter>,
    hit_points: &'static HitPoints,
}

/// Draws the chase's screen while a chase runs (unless it waits for the map), or its setup window
/// while it is open.
pub(super) fn draw_chase(
    mut contexts: EguiContexts,
    mut screens: ResMut<ChaseScreens>,
    run: Res<ChaseRun>,
    tokens: Query<ChaseCandidate>,
    selection: Res<Selection>,
    audience: Res<Audience>,
    mut messages: MessageWriter<ChaseMessage>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Drawing changes only the screens' own fields (what is typed, where buttons are), not the
    // chase: it doesn't count as a change for the undo history.
    let mode = screens.bypass_change_detection();
    let mut requests = Vec::new();
    if let Some(chases) = run.chases.as_ref().filter(|_| !mode.hidden) {
        let sides = tokens.iter().map(|t| (t.id.0.clone(), t.side.0)).collect();
        let seats = tokens.iter().filter_map(|t| Some((t.id.0.clone(), t.seat?.0))).collect();
        let track = track(&tokens, chases.active, *audience);
        let view = chase_view(chases, run.awaiting_handover, (&sides, &seats), track);
        let screen = ctx.content_rect();
        egui::Area::new("chase-screen".into()).order(egui::Order::Foreground).fixed_pos(screen.min).show(ctx, |ui| {
            egui::Frame::new().fill(ui.visuals().panel_fill).inner_margin(16.0).show(ui, |ui| {
                ui.set_min_size(screen.size() - egui::vec2(32.0, 32.0));
                ui.set_max_width(screen.width() - 32.0);
                if let Some(error) = &mode.error {
                    ui.colored_label(egui::Color32::from_rgb(240, 110, 100), error.to_string());
                }
                let (asked, targets) = chase_screen(ui, &view, &mut mode.edit);
                requests = asked;
                mode.targets = targets;
            });
        });
    } else if mode.setup_open {
        let mut candidates: Vec<(usize, Candidate)> = tokens
            .iter()
            .filter(|t| t.kind.0 == TokenKind::Creature)
            .map(|ChaseCandidateItem { id, name, side, order, entity, .. }| {
                let candidate = Candidate {
                    id: id.0.clone(),
                    name: name.0.clone(),
                    side: side.0,
                    selected_on_map: selection.0 == Some(entity),
                };
                (order.0, candidate)
            })
            .collect();
        candidates.sort_by_key(|(order, _)| *order);
        let candidates: Vec<Candidate> = candidates.into_iter().map(|(_, c)| c).collect();
        let mut open = true;
        let draft = &mut mode.draft;
        let shown = egui::Window::new("Chase setup")
            .open(&mut open)
            .default_pos(egui::pos2(420.0, 80.0))
            .resizable(false)
            .show(ctx, |ui| chase_setup(ui, &candidates, draft));
        mode.targets.clear();
        if let Some((asked, targets)) = shown.and_then(|s| s.inner) {
            requests = asked;
            mode.targets = targets;
        }
        if !open {
            requests.push(ChaseRequest::ToggleSetup);
        }
    }
    messages.write_batch(requests.into_iter().map(ChaseMessage));
    Ok(())
}

/// The side of each creature on the map, so a participant keeps its token's colour.
type Sides = std::collections::HashMap<String, Side>;

/// The seat at the table of each creature whose player has one (issue 30).
type Seats = std::collections::HashMap<String, crate::scenario::TableEdge>;

fn side_of(sides: &Sides, id: &str) -> Side {
    sides.get(id).copied().unwrap_or(Side::Neutral)
}

/// The track of the chase shown: each creature in it, from its [`ChaseState`], front runner first.
fn track(tokens: &Query<ChaseCandidate>, shown: usize, audience: Audience) -> Vec<TrackRow> {
    let mut rows: Vec<TrackRow> = tokens
        .iter()
        .filter_map(|t| Some((t.chase.filter(|c| c.chase == shown)?, t)))
        .map(|(c, t)| TrackRow {
            id: t.id.0.clone(),
            name: t.name.0.clone(),
            side: t.side.0,
            roles: c.roles.clone(),
            position: c.position,
            running: c.status == Status::Running,
            status: c.status.name().to_owned(),
            lead: c.lead,
            distance: c.distance,
            out_of_sight: c.out_of_sight,
            acting: c.acting,
            hp: chase_hit_points(audience, t.pc, t.side.0, &t.hit_points.0, c),
            exhaustion: c.exhaustion,
            free_dashes_left: c.free_dashes_left,
            inspiration: c.inspiration,
        })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.position));
    rows
}

/// Track hit points by the roster's rule: the chase's count against the map's maximum (not `c.max_hp`).
fn chase_hit_points(audience: Audience, pc: bool, side: Side, map: &Health, c: &ChaseState) -> String {
    let mut now = Health::new(c.hp, map.max_hp, map.makes_death_saves, map.death_saves);
    set_exhaustion(&mut now, c.exhaustion);
    super::views::hit_points_text(audience, pc, side, &now)
}

/// The chase screen's view model: the chase shown, its stage (with the seat of the player its card
/// is for), its track and its log.
fn chase_view(
    chases: &Chases,
    awaiting_handover: bool,
    (sides, seats): (&Sides, &Seats),
    track: Vec<TrackRow>,
) -> ChaseView {
    let chase = chases.active();
    let (stage, card_for) = if chases.is_over() {
        let outcome = chases.chases.iter().filter_map(Chase::outcome).collect::<Vec<_>>().join(" ");
        (ChaseStage::Over { outcome }, None)
    } else if let Some(turn) = chase.turn.as_ref().filter(|_| !awaiting_handover) {
        (ChaseStage::Turn(Box::new(turn_card(chase, turn, sides))), Some(turn.id.clone()))
    } else {
        let (index, id) = chases.next_up().unwrap_or((chases.active, String::new()));
        let next_chase = &chases.chases[index];
        let stage = ChaseStage::Handover {
            name: next_chase.participant(&id).map_or(id.clone(), |p| p.name().to_owned()),
            side: side_of(sides, &id),
            roles: next_chase.roles(&id),
            complication: next_chase.pending.iter().any(|p| p.affected == id),
        };
        (stage, Some(id))
    };
    // Between turns, the round the next turn is played in (the next one after a round's last turn).
    let round = match &stage {
        ChaseStage::Handover { .. } => {
            chases.next_up().map_or(chase.order.round, |(i, _)| chases.chases[i].order.upcoming_round())
        }
        _ => chase.order.round,
    };
    let sight = chase
        .rules
        .sight_feet
        .map_or("the lead pursuer sees the quarry unless the DM rules otherwise".to_owned(), |s| {
            format!("the lead pursuer loses sight beyond {s} ft")
        });
    ChaseView {
        title: chase.name.clone(),
        round,
        stage,
        seat: card_for.and_then(|id| seats.get(&id).copied()),
        track,
        log: chase
            .events
            .iter()
            .map(|e| {
                let text = chase.describe(e);
                if e.round == 0 { text } else { format!("R{} {text}", e.round) }
            })
            .collect(),
        other_chases: chases
            .chases
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != chases.active)
            .map(|(_, c)| (c.name.clone(), c.is_over()))
            .collect(),
        escape_note: format!(
            "{}; escape checks at the end of each round; no opportunity attacks between participants.",
            crate::ui::capitalized(&sight)
        ),
    }
}

fn turn_card(chase: &Chase, turn: &crate::rules::chase::Turn, sides: &Sides) -> TurnCard {
    let p = chase.participant(&turn.id);
    let complication = turn.complication.as_ref().map(|pending| {
        let c = &pending.complication;
        let options = match &c.test {
            Some(Test::Check { options, .. }) if options.len() > 1 => options.iter().map(|o| o.name()).collect(),
            _ => Vec::new(),
        };
        let negators = [&pending.affected, &pending.roller]
            .into_iter()
            .filter_map(|id| {
                chase.participant(id).filter(|p| p.inspiration).map(|p| (p.id.clone(), p.name().to_owned()))
            })
            .collect();
        ComplicationCard {
            roller: chase.participant(&pending.roller).map_or(pending.roller.clone(), |p| p.name().to_owned()),
            d20: pending.d20,
            table: chase.rules.table.name.clone(),
            text: c.text.clone(),
            test: c.test.as_ref().map(Test::name),
            options,
            alternative: c.alternative.map(crate::rules::chase::complication::Alternative::name),
            negators,
        }
    });
    let attacks = p
        .map(|p| {
            p.sheet
                .attacks
                .iter()
                .enumerate()
                .map(|(index, attack)| AttackChoice {
                    index,
                    name: attack.name.clone(),
                    targets: chase
                        .targets_in_range(attack)
                        .into_iter()
                        .filter_map(|id| {
                            let target = chase.participant(&id)?;
                            let hostile = chase.hostile(&turn.id, &id, |who| side_of(sides, who));
                            Some((id.clone(), target.name().to_owned(), chase.distance(&turn.id, &id)?, hostile))
                        })
                        .collect(),
                })
                .collect()
        })
        .unwrap_or_default();
    TurnCard {
        id: turn.id.clone(),
        name: p.map_or(turn.id.clone(), |p| p.name().to_owned()),
        side: side_of(sides, &turn.id),
        roles: chase.roles(&turn.id),
        movement_left: chase.movement_left(),
        speed: chase.turn_speed(),
        action_used: turn.action_used,
        dashed: turn.dashed,
        free_dashes_left: p.map_or(0, Participant::free_dashes_left),
        free_dashes: p.map_or(0, Participant::free_dashes),
        exhaustion: p.map_or(0, |p| p.exhaustion),
        restrained: p.is_some_and(|p| p.restrained),
        blinded: turn.blinded,
        complication,
        attacks,
        last_of_round: chase.last_turn_of_round(),
    }
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;

    use super::super::views::hit_points_text;
    use super::*;
    use crate::rules::chase::Role;
    use crate::ui::chase::ChaseEdit;
    use crate::ui::{RosterView, TokenRow, roster_panel};

    /// Every text the roster and the chase screen draw for Nim (16 hit points) at `hp` in a chase.
    fn drawn(audience: Audience, hp: i32) -> Vec<String> {
        fn text(s: &egui::epaint::Shape) -> Option<String> {
            if let egui::epaint::Shape::Text(t) = s { Some(t.galley.text().to_owned()) } else { None }
        }
        let map = Health::new(16, 16, false, crate::rules::health::DeathSaves::default());
        let (roles, status, side) = (vec![Role::Quarry], Status::Running, Side::Enemy);
        let c = ChaseState {
            chase: 0,
            roles: roles.clone(),
            position: 40,
            status,
            lead: false,
            distance: None,
            free_dashes_left: 3,
            hp,
            max_hp: 16,
            exhaustion: 0,
            inspiration: false,
            out_of_sight: false,
            acting: false,
        };
        let track = vec![TrackRow {
            id: "nim".into(),
            name: "Nim".into(),
            side,
            roles,
            position: 40,
            running: true,
            status: "running".into(),
            lead: false,
            distance: None,
            out_of_sight: false,
            acting: false,
            hp: chase_hit_points(audience, false, side, &map, &c),
            exhaustion: 0,
            free_dashes_left: 3,
            inspiration: false,
        }];
        let row = TokenRow {
            id: "nim".into(),
            name: "Nim".into(),
            kind: TokenKind::Creature,
            side,
            size: crate::rules::Size::Medium,
            hp: hit_points_text(audience, false, side, &map),
            ac: 12,
            speed: 30,
            initiative: None,
        };
        let roster = RosterView { rows: vec![row], selected: None };
        let view = ChaseView {
            title: "Stop, thief!".into(),
            round: 1,
            stage: ChaseStage::Over { outcome: "".into() },
            seat: None,
            track,
            log: Vec::new(),
            other_chases: Vec::new(),
            escape_note: String::new(),
        };
        let mut harness = Harness::new_ui(move |ui| {
            let _ = roster_panel(ui, &roster);
            let _ = chase_screen(ui, &view, &mut ChaseEdit::default());
        });
        harness.run();
        harness.output().shapes.iter().filter_map(|c| text(&c.shape)).collect()
    }

    /// The players' view words a monster's hit points on the track as the roster does, and draws no 16.
    #[test]
    fn the_players_see_no_monster_hit_points_on_the_chase_screen() {
        for (hp, word) in [(16, "HP healthy"), (7, "HP bloodied")] {
            let texts = drawn(Audience { dm: false }, hp);
            assert!(texts.iter().any(|t| t.contains(word)), "{word}: {texts:?}");
            assert!(texts.iter().all(|t| !t.contains("16")), "Nim's hit points drawn: {texts:?}");
        }
        assert!(drawn(Audience { dm: true }, 7).iter().any(|t| t.contains("HP 7/16")), "the DM's view shows them");
    }

    /// Issue 39: the hand-over card's round is the round being played: after the round's last
    /// turn it is the next one, not the one just played.
    #[test]
    fn the_hand_over_after_a_round_names_the_next_round() {
        use crate::rules::chase::{ChaseRules, Entrant};
        use crate::rules::creature::Sheet;
        use crate::rules::dice::SeededDice;
        let entrant = |id: &str, role, position| Entrant {
            id: id.into(),
            sheet: Sheet { name: id.into(), speed: 30, hp: 10, ..Sheet::default() },
            role,
            position,
            conditions: Default::default(),
        };
        let mut dice = SeededDice::new(3);
        let entrants = vec![entrant("nim", Role::Quarry, 40), entrant("lia", Role::Pursuer, 0)];
        let chase = Chase::start("Stop, thief!", ChaseRules::default(), entrants, None, &mut dice).expect("starts");
        let mut chases = Chases::new(chase);
        let (sides, seats) = (Sides::new(), Seats::new());
        let view = |chases: &Chases, between: bool| chase_view(chases, between, (&sides, &seats), Vec::new());
        assert_eq!(view(&chases, true).round, 1, "before the first turn");
        for turn in 0..2 {
            chases.begin_turn(&mut dice).expect("a turn");
            assert_eq!(view(&chases, false).round, 1, "turn {turn}");
            // A 20 on the complication d20: no complication waits for the next turn.
            chases.active_mut().force_next_roll(20);
            chases.active_mut().end_turn(&mut dice).expect("ends");
            let expected = if turn == 0 { 1 } else { 2 };
            let between = view(&chases, true);
            assert!(matches!(between.stage, ChaseStage::Handover { .. }), "{:?}", between.stage);
            assert_eq!(between.round, expected, "the hand-over after turn {turn}");
        }
        chases.begin_turn(&mut dice).expect("round 2 begins");
        assert_eq!(view(&chases, false).round, 2);
    }
}
