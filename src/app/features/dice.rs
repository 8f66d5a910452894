//! Dice from the panels: rolls of any notation as a creature or the DM, public or hidden, rolls on
//! the DM's tables, and inspiration (DMG "Inspiration": spending it gives advantage on one ability
//! check, attack roll or saving throw, so it waits for the next d20 roll).

use bevy::prelude::*;

use crate::app::core::components::{DisplayName, Inspiration};
use crate::app::core::dice::{Rolls, Tables};
use crate::app::core::messages::DiceRequest;
use crate::app::core::notice::{Notice, Said};
use crate::app::core::schedule::AppSystems;
use crate::rules::advantage::Sources;
use crate::rules::dice::{DiceRoll, Evaluation, Notation, RollMode};
use crate::rules::log::RollReason;
use crate::rules::tables;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, apply_dice_requests.in_set(AppSystems::Apply));
}

fn apply_dice_requests(
    mut requests: MessageReader<DiceRequest>,
    mut rolls: Rolls,
    tables: Res<Tables>,
    mut inspiration: Query<&mut Inspiration>,
    names: Query<&DisplayName>,
    mut notice: ResMut<Notice>,
) {
    let name = |e: Entity| names.get(e).map_or_else(|_| "They".to_owned(), |n| n.0.clone());
    for request in requests.read() {
        let said = match request {
            DiceRequest::Roll { roller, notation, mode, hidden, reason } => {
                let roller = roller.filter(|e| names.contains(*e));
                let who = roller.map_or_else(|| "The DM".to_owned(), name);
                roll(&mut rolls, &mut inspiration, roller, &who, notation, *mode, *hidden, reason)
            }
            DiceRequest::RollTable { id, hidden } => roll_table(&mut rolls, &tables, id, *hidden),
            DiceRequest::Inspiration { entity, give } => {
                let Ok(mut i) = inspiration.get_mut(*entity) else { continue };
                let who = name(*entity);
                if *give {
                    i.has = true;
                    Some(Said::InspirationGiven { who })
                } else if i.has {
                    i.has = false;
                    i.spent_on_next_roll = true;
                    Some(Said::InspirationSpent { who })
                } else {
                    None
                }
            }
        };
        if let Some(said) = said {
            notice.say(said);
        }
    }
}

/// Rolls `notation` as `who` (with the roller's spent inspiration on a d20 test) into the log.
#[allow(clippy::too_many_arguments)]
fn roll(
    rolls: &mut Rolls,
    inspiration: &mut Query<&mut Inspiration>,
    roller: Option<Entity>,
    who: &str,
    notation: &str,
    mode: RollMode,
    hidden: bool,
    reason: &str,
) -> Option<Said> {
    let notation = match Notation::parse(notation) {
        Ok(notation) => notation,
        Err(error) => return Some(Said::Dice(error)),
    };
    // Inspiration waits for the next d20 test: a damage roll doesn't use it.
    let inspired =
        notation.is_d20_test() && roller.and_then(|e| inspiration.get(e).ok()).is_some_and(|i| i.spent_on_next_roll);
    let mut sources = Sources::default();
    sources.add(mode, "asked for");
    if inspired {
        sources.advantage("inspiration");
    }
    match rolls.dice.0.roll_notation(&notation, sources.mode()) {
        Ok(roll) => {
            if let Some(mut i) = roller.and_then(|e| inspiration.get_mut(e).ok()).filter(|_| inspired) {
                i.spent_on_next_roll = false;
            }
            rolls.write(who, RollReason::Typed { what: reason.to_owned(), inspired }, roll, hidden);
            None
        }
        Err(error) => Some(Said::Dice(error)),
    }
}

/// A roll on one of the DM's tables, written in the log with the row it gives.
fn roll_table(rolls: &mut Rolls, tables: &Tables, id: &str, hidden: bool) -> Option<Said> {
    let table = tables::find(&tables.0, id)?;
    match table.roll(&mut rolls.dice.0) {
        Ok(result) => {
            let total = result.result as i32;
            let roll = DiceRoll {
                notation: format!("1d{}", result.die),
                mode: RollMode::Normal,
                evaluations: vec![Evaluation { detail: format!("{}: {}", table.name, result.row.join(" | ")), total }],
                total,
            };
            rolls.write("The DM", RollReason::Table { name: table.name.clone() }, roll, hidden);
            None
        }
        Err(error) => Some(Said::Dice(error)),
    }
}
