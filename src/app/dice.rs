//! Dice in the app: the session's one seeded generator, the roll log, the DM's tables, and
//! inspiration (DMG "Inspiration": spending it gives advantage on one ability check, attack roll
//! or saving throw, so it waits for the next d20 roll).

use bevy::prelude::*;

use super::LaunchOptions;
use super::components::{DisplayName, PlayerCharacter};
use super::state::Notice;
use crate::rules::advantage::Sources;
use crate::rules::dice::{LogEntry, Notation, RollLog, RollMode, SeededDice};
use crate::rules::initiative::InitiativeOrder;
use crate::rules::tables::{self, Table};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<DiceRequest>()
        .add_systems(Startup, start_session)
        .add_systems(Update, (give_inspiration_slots, apply_dice_requests).chain().in_set(super::AppSystems::Apply));
}

/// The session's dice, its log, and the tables.
#[derive(Resource)]
pub struct Session {
    pub dice: SeededDice,
    pub log: RollLog,
    pub tables: Vec<Table>,
    /// The initiative order of the fight (empty until the first turn).
    pub initiative: InitiativeOrder,
}

impl Session {
    pub fn new(seed: u64) -> Self {
        let tables = tables::all().unwrap_or_else(|e| {
            error!("{e}");
            Vec::new()
        });
        Self {
            dice: SeededDice::new(seed),
            log: RollLog { seed, entries: Vec::new() },
            tables,
            initiative: InitiativeOrder::default(),
        }
    }

    /// Rolls initiative for every participant (`(id, Dexterity modifier)`), logging each roll
    /// under the name `name_of` gives.
    pub fn roll_initiative(
        &mut self,
        participants: &[(String, i8)],
        name_of: impl Fn(&str) -> Option<String>,
    ) -> Result<(), crate::rules::dice::DiceError> {
        let (order, rolls) = InitiativeOrder::roll(participants, &mut self.dice)?;
        self.initiative = order;
        for ((id, _), roll) in participants.iter().zip(rolls) {
            let who = name_of(id).unwrap_or_else(|| id.clone());
            self.log.entries.push(LogEntry { who, reason: "initiative".into(), roll, hidden: false });
        }
        Ok(())
    }
}

/// A player character's inspiration: whether it has it, and whether it was spent on the next roll.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inspiration {
    pub has: bool,
    pub spent_on_next_roll: bool,
}

/// Rolls and inspiration asked for in the panels.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum DiceRequest {
    Roll { roller: Option<Entity>, notation: String, mode: RollMode, hidden: bool, reason: String },
    RollTable { id: String, hidden: bool },
    Inspiration { entity: Entity, give: bool },
}

fn start_session(mut commands: Commands, options: Option<Res<LaunchOptions>>) {
    let seed = options.and_then(|o| o.seed).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    });
    commands.insert_resource(Session::new(seed));
}

/// Player characters get inspiration slots, filled where the scenario says they have it.
fn give_inspiration_slots(
    mut commands: Commands,
    pcs: Query<(Entity, &super::components::TokenId), (With<PlayerCharacter>, Without<Inspiration>)>,
    loaded: Option<Res<super::state::LoadedScenario>>,
) {
    for (pc, id) in &pcs {
        let has = loaded.as_ref().and_then(|l| l.scenario.token(&id.0)).is_some_and(|t| t.inspiration);
        commands.entity(pc).insert(Inspiration { has, ..Inspiration::default() });
    }
}

fn apply_dice_requests(
    mut requests: MessageReader<DiceRequest>,
    session: Option<ResMut<Session>>,
    mut inspiration: Query<&mut Inspiration>,
    names: Query<&DisplayName>,
    mut notice: ResMut<Notice>,
) {
    let Some(mut session) = session else { return };
    for request in requests.read() {
        match request {
            DiceRequest::Roll { roller, notation, mode, hidden, reason } => {
                let notation = match Notation::parse(notation) {
                    Ok(notation) => notation,
                    Err(error) => {
                        notice.0 = Some((error.to_string(), true));
                        continue;
                    }
                };
                // Inspiration waits for the next d20 test: a damage roll doesn't use it.
                let inspired = notation.is_d20_test()
                    && roller.and_then(|e| inspiration.get(e).ok()).is_some_and(|i| i.spent_on_next_roll);
                let mut sources = Sources::default();
                sources.add(*mode, "asked for");
                if inspired {
                    sources.advantage("inspiration");
                }
                match session.dice.roll_notation(&notation, sources.mode()) {
                    Ok(roll) => {
                        if let Some(mut i) = roller.and_then(|e| inspiration.get_mut(e).ok()).filter(|_| inspired) {
                            i.spent_on_next_roll = false;
                        }
                        let who =
                            roller.and_then(|e| names.get(e).ok()).map_or_else(|| "The DM".to_owned(), |n| n.0.clone());
                        let reason = match (inspired, reason.is_empty()) {
                            (true, true) => "inspiration".to_owned(),
                            (true, false) => format!("{reason}, with inspiration"),
                            (false, _) => reason.clone(),
                        };
                        session.log.entries.push(LogEntry { who, reason, roll, hidden: *hidden });
                    }
                    Err(error) => notice.0 = Some((error.to_string(), true)),
                }
            }
            DiceRequest::RollTable { id, hidden } => {
                let Some(table) = tables::find(&session.tables, id).cloned() else { continue };
                match table.roll(&mut session.dice) {
                    Ok(result) => {
                        let roll = crate::rules::dice::DiceRoll {
                            notation: format!("1d{}", result.die),
                            mode: RollMode::Normal,
                            evaluations: vec![crate::rules::dice::Evaluation {
                                detail: format!("{}: {}", table.name, result.row.join(" | ")),
                                total: result.result as i32,
                            }],
                            total: result.result as i32,
                        };
                        session.log.entries.push(LogEntry {
                            who: "The DM".into(),
                            reason: table.name.clone(),
                            roll,
                            hidden: *hidden,
                        });
                    }
                    Err(error) => notice.0 = Some((error.to_string(), true)),
                }
            }
            DiceRequest::Inspiration { entity, give } => {
                let Ok(mut i) = inspiration.get_mut(*entity) else { continue };
                let name = names.get(*entity).map_or_else(|_| "They".to_owned(), |n| n.0.clone());
                if *give {
                    i.has = true;
                    notice.0 = Some((format!("{name} has inspiration"), false));
                } else if i.has {
                    i.has = false;
                    i.spent_on_next_roll = true;
                    let text =
                        format!("{name} spends inspiration: advantage on the next ability check, attack roll or save");
                    notice.0 = Some((text, false));
                }
            }
        }
    }
}
