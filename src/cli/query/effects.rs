//! `query FILE effects ID` and `query FILE advance --rounds N --seed S`: a creature's lasting
//! effects, and the initiative tracker run headless over the scene's creatures, printing each
//! roll and each effect that begins or ends (`rules::effects::tracker`, as the map runs it).

use clap::Args;
use serde::Serialize;

use super::{Board, QueryError};
use crate::rules::conditions::Rolling;
use crate::rules::dice::SeededDice;
use crate::rules::effects::tracker::{Subject, Tracked, Tracker};
use crate::rules::effects::{Duration, Effects, Lasting, TurnPoint};
use crate::rules::initiative::{InitiativeOrder, Roller};
use crate::rules::log::LogEntry;
use crate::scenario::TokenKind;

/// The most rounds and dawns one `advance` runs.
pub(super) const MAX_ROUNDS: u32 = 100;
pub(super) const MAX_DAWNS: u32 = 30;
/// The most events one `advance` tells: past them it stops, and says where (a scene of many
/// creatures with many effects would otherwise print without bound).
pub(super) const MAX_EVENTS: usize = 50_000;

#[derive(Args, Debug)]
pub(super) struct AdvanceArgs {
    /// Rounds of initiative to run
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = crate::cli::whole::<u32>(0, MAX_ROUNDS as i64))]
    rounds: u32,
    /// Long rests (dawns) to pass after the rounds, advancing diseases
    #[arg(long, default_value_t = 0, allow_negative_numbers = true,
          value_parser = crate::cli::whole::<u32>(0, MAX_DAWNS as i64))]
    dawns: u32,
    /// The seed of the dice (initiative, saves, damage)
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true, value_parser = crate::cli::parse_seed)]
    seed: u64,
}

/// One effect as the card lists it.
#[derive(Serialize)]
pub(super) struct EffectAnswer {
    id: u32,
    name: String,
    source: String,
    duration: Duration,
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds_left: Option<u32>,
    /// In force, or waiting behind a more potent one of its name (DMG "Combining Game Effects").
    in_force: bool,
    conditions: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    save: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    note: String,
    secret: bool,
}

#[derive(Serialize)]
pub(super) struct EffectsAnswer {
    id: String,
    name: String,
    effects: Vec<EffectAnswer>,
}

#[derive(Serialize)]
pub(super) struct AdvanceAnswer {
    seed: u64,
    /// The initiative order rolled, highest first.
    order: Vec<String>,
    /// What happened, in order: rolls (with their reasons), effects given and ended, damage.
    events: Vec<Tracked>,
    /// Each creature's effects afterwards.
    after: Vec<EffectsAnswer>,
    /// Why the story stops before the rounds and dawns asked, if it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    cut_short: Option<String>,
}

fn effect_answer(effects: &Effects, lasting: &Lasting) -> EffectAnswer {
    let effect = &lasting.effect;
    EffectAnswer {
        id: lasting.id,
        name: effect.name.clone(),
        source: crate::ui::effects::source_words(&effect.source, str::to_owned),
        duration: effect.duration,
        rounds_left: lasting.rounds_left,
        in_force: effects.in_force(lasting),
        conditions: effect.conditions.iter().map(|c| c.name()).collect(),
        save: effect.save.as_ref().map(crate::ui::effects::save_words),
        note: effect.note.clone(),
        secret: effect.secret,
    }
}

fn effects_answer(subject: &Subject) -> EffectsAnswer {
    EffectsAnswer {
        id: subject.id.clone(),
        name: subject.name.clone(),
        effects: subject.effects.list.iter().map(|l| effect_answer(&subject.effects, l)).collect(),
    }
}

/// The scene's creatures as the tracker sees them.
fn subjects(board: &Board) -> Vec<Subject> {
    board
        .scenario
        .tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Creature)
        .map(crate::scenario::Token::subject)
        .collect()
}

pub(super) fn effects(board: &Board, id: &str) -> Result<EffectsAnswer, QueryError> {
    board.fighter(id)?;
    let all = subjects(board);
    let subject = all.iter().find(|s| s.id == id).ok_or_else(|| QueryError::NotACreature { id: id.to_owned() })?;
    Ok(effects_answer(subject))
}

pub(super) fn advance(board: &Board, args: &AdvanceArgs) -> Result<AdvanceAnswer, QueryError> {
    let mut dice = SeededDice::new(args.seed);
    let all = subjects(board);
    let participants: Vec<Roller> = all
        .iter()
        .map(|s| {
            let dex = s.sheet.abilities.modifier(crate::rules::creature::Ability::Dex);
            let effects = s.effects.modifiers();
            let rolling =
                Rolling { who: &s.name, conditions: &s.conditions, exhaustion: s.exhaustion, effects: &effects };
            Roller::new(&s.id, dex, rolling)
        })
        .collect();
    let (order, rolls) = InitiativeOrder::roll(&participants, &mut dice).map_err(QueryError::Dice)?;
    let mut events: Vec<Tracked> = participants
        .iter()
        .zip(rolls)
        .map(|(Roller { id, .. }, roll)| {
            let name = all.iter().find(|s| &s.id == id).map_or(id.as_str(), |s| s.name.as_str());
            let hidden = all.iter().any(|s| &s.id == id && s.hidden);
            Tracked::Roll { entry: LogEntry::new(name, crate::rules::log::RollReason::Initiative, roll, hidden) }
        })
        .collect();
    let order: Vec<String> = order.entries.iter().map(|e| e.id.clone()).collect();
    let mut tracker = Tracker::new(all);
    events.extend(tracker.follow_up());
    let mut cut_short = None;
    let steps = (0..args.rounds)
        .flat_map(|round| {
            order.iter().flat_map(move |whose| [TurnPoint::Start, TurnPoint::End].map(|p| (round, Some((whose, p)))))
        })
        .chain((0..args.dawns).map(|dawn| (dawn, None)));
    for (n, step) in steps {
        if events.len() >= MAX_EVENTS {
            let at = step.map_or_else(|| format!("before dawn {}", n + 1), |_| format!("in round {}", n + 1));
            cut_short = Some(format!("stopped {at}, after {} events: ask for fewer rounds or dawns", events.len()));
            break;
        }
        events.extend(
            match step {
                Some((whose, point)) => tracker.at_turn(whose, point, &mut dice),
                None => tracker.dawn(&mut dice),
            }
            .map_err(QueryError::Dice)?,
        );
    }
    let after = tracker.subjects.iter().map(effects_answer).collect();
    Ok(AdvanceAnswer { seed: args.seed, order, events, after, cut_short })
}
