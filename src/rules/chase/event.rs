//! What happens in a chase, as data: each event names its participants by id and carries its
//! numbers, so tests and scripts read meaning; [`Chase::describe`] tells it in words for the log.

use serde::Serialize;

use super::{Chase, Status};
use crate::rules::advantage::Sources;
use crate::rules::attack::Outcome;
use crate::rules::log::LogEntry;

/// One event of the chase, in the round it happened, with the roll behind it if there was one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Event {
    pub round: u32,
    pub kind: EventKind,
    pub roll: Option<LogEntry>,
}

/// Everything that can happen in a chase. Ids are participants' (or, for an attacker from
/// outside the chase, its name as the complication gives it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    Begins {
        name: String,
    },
    KeepsInitiative {
        id: String,
        initiative: i32,
    },
    RollsInitiative {
        id: String,
        total: i32,
    },
    TurnBegins {
        id: String,
        position: i32,
        restrained: bool,
    },
    /// A complication rolled by `roller` waits for `id`, whose turn begins.
    ComplicationWaits {
        id: String,
        roller: String,
        d20: u32,
        text: String,
    },
    /// Inspiration spent to negate the complication.
    Negated {
        by: String,
    },
    CoinTossed {
        id: String,
    },
    WentRound {
        id: String,
        feet: u32,
    },
    /// An ability check or a saving throw (`label`, such as "Dexterity (Acrobatics) check").
    Test {
        id: String,
        dc: i32,
        label: String,
        sources: Sources,
        total: i32,
        passed: bool,
    },
    Unimpeded {
        id: String,
    },
    DifficultTerrain {
        id: String,
        feet: u32,
    },
    Damage {
        id: String,
        amount: i32,
        kind: String,
        from_fall: bool,
    },
    Blinded {
        id: String,
    },
    Restrained {
        id: String,
    },
    Falls {
        id: String,
        feet: i32,
    },
    Prone {
        id: String,
        stand: u32,
    },
    /// An attacker from outside waits to see how far `id` moves this turn.
    Watches {
        attacker: String,
        id: String,
        min_move: u32,
    },
    LetsGo {
        attacker: String,
        id: String,
        moved: u32,
    },
    /// Wilderness 10 with no local creature in the scene: the DM chooses one.
    NoLocalCreature {
        id: String,
    },
    /// Both are in the chase: no opportunity attacks between participants.
    NoOpportunityAttack {
        attacker: String,
        target: String,
    },
    OutsideAttack {
        attacker: String,
        target: String,
        sources: Sources,
        total: i32,
        ac: i32,
        outcome: Outcome,
    },
    /// A Dash: the `dash`-th of the chase, beyond the `free` ones when `dash > free`.
    Dash {
        id: String,
        dash: u32,
        free: u32,
    },
    Moves {
        id: String,
        feet: u32,
        to: i32,
    },
    Attack {
        attacker: String,
        target: String,
        attack: String,
        distance: u32,
        sources: Sources,
        total: i32,
        ac: i32,
        cover_bonus: i32,
        outcome: Outcome,
    },
    BreaksFree {
        id: String,
    },
    Exhaustion {
        id: String,
        level: u8,
    },
    /// The d20 at the end of `roller`'s turn; a complication for `affected`, if any.
    ComplicationRoll {
        roller: String,
        d20: u32,
        affected: Option<String>,
    },
    Catches {
        pursuer: String,
        quarry: String,
    },
    Leaves {
        id: String,
        status: Status,
    },
    LosesSight {
        lead: String,
        quarry: String,
        blinded: bool,
    },
    NeverOutOfSight {
        quarry: String,
        lead: String,
    },
    Escape {
        quarry: String,
        sources: Sources,
        total: i32,
        watcher: String,
        passive: i32,
        escaped: bool,
    },
    Joins {
        id: String,
        quarry: Vec<String>,
    },
    Reverses {
        fleeing: Vec<String>,
    },
    SplitOff {
        quarry: Vec<String>,
        followers: Vec<String>,
    },
    SeparateChase,
    DmOutOfSight {
        id: String,
    },
    DmPlaces {
        id: String,
        feet: i32,
    },
    DmExhaustion {
        id: String,
        level: u8,
    },
    DmNextRoll {
        total: i32,
    },
    Over,
}

/// ` (advantage: ...; disadvantage: ...)`, or nothing.
fn sources_text(sources: &Sources) -> String {
    if sources.is_empty() { String::new() } else { format!(" ({})", sources.describe()) }
}

impl Chase {
    /// The event in words, as the log tells it.
    pub fn describe(&self, event: &Event) -> String {
        let name = |id: &str| self.name_of(id);
        let names = |ids: &[String]| ids.iter().map(|id| self.name_of(id)).collect::<Vec<_>>().join(" and ");
        let table = &self.rules.table.name;
        match &event.kind {
            EventKind::Begins { name } => {
                let stop = if name.ends_with(['.', '!', '?']) { "" } else { "." };
                format!("The chase begins: {name}{stop}")
            }
            EventKind::KeepsInitiative { id, initiative } => {
                format!("{} keeps its initiative, {initiative}.", name(id))
            }
            EventKind::RollsInitiative { id, total } => format!("{} rolls initiative: {total}.", name(id)),
            EventKind::TurnBegins { id, position, restrained } => {
                let net = if *restrained {
                    " It is restrained by a net: its action and a DC 10 Strength check free it."
                } else {
                    ""
                };
                format!("Round {}: {}'s turn, at {position} ft.{net}", event.round, name(id))
            }
            EventKind::ComplicationWaits { id, roller, d20, text } => {
                format!("Complication for {} ({} rolled {d20} on the {table}): {text}", name(id), name(roller))
            }
            EventKind::Negated { by } => format!("{} spends inspiration: the complication is negated.", name(by)),
            EventKind::CoinTossed { id } => format!("{} tosses the beggar a coin and slips past.", name(id)),
            EventKind::WentRound { id, feet } => format!("{} spends {feet} ft of movement to go round.", name(id)),
            EventKind::Test { id, dc, label, sources, total, passed } => format!(
                "{} makes a DC {dc} {label}{}: {total} — {}.",
                name(id),
                sources_text(sources),
                if *passed { "success" } else { "failure" }
            ),
            EventKind::Unimpeded { id } => format!("{} gets past unimpeded.", name(id)),
            EventKind::DifficultTerrain { id, feet } => {
                format!("{} struggles through {feet} ft of difficult terrain: {feet} ft of movement lost.", name(id))
            }
            EventKind::Damage { id, amount, kind, from_fall } => {
                let fall = if *from_fall { " from the fall" } else { "" };
                format!("{} takes {amount} {kind} damage{fall}.", name(id))
            }
            EventKind::Blinded { id } => {
                format!("{} is blinded until the end of its turn; its speed is halved.", name(id))
            }
            EventKind::Restrained { id } => {
                format!("{} is caught in a net and restrained: speed 0 until freed.", name(id))
            }
            EventKind::Falls { id, feet } => format!("{} falls {feet} ft.", name(id)),
            EventKind::Prone { id, stand } => {
                format!("{} falls prone; standing up costs {stand} ft, half its speed.", name(id))
            }
            EventKind::Watches { attacker, id, min_move } => {
                format!("{attacker} watches {}: moving {min_move} ft or more this turn draws an attack.", name(id))
            }
            EventKind::LetsGo { attacker, id, moved } => {
                format!("{} moved only {moved} ft: {attacker} lets it go.", name(id))
            }
            EventKind::NoLocalCreature { id } => {
                format!("A creature of the area chases after {}: the DM chooses it.", name(id))
            }
            EventKind::NoOpportunityAttack { attacker, target } => format!(
                "{} and {} are both in the chase, moving the same way at the same time: no opportunity attacks",
                name(attacker),
                name(target)
            ),
            EventKind::OutsideAttack { attacker, target, sources, total, ac, outcome } => format!(
                "{attacker} makes an opportunity attack on {}{}: {total} against AC {ac} — {}.",
                name(target),
                sources_text(sources),
                outcome.word()
            ),
            EventKind::Dash { id, dash, free } if dash > free => format!(
                "{} dashes beyond its {free} free dashes: a DC 10 Constitution check at the end of its turn, or a \
                 level of exhaustion.",
                name(id)
            ),
            EventKind::Dash { id, dash, free } => format!("{} dashes (free dash {dash} of {free}).", name(id)),
            EventKind::Moves { id, feet, to } => format!("{} moves {feet} ft, to {to} ft.", name(id)),
            EventKind::Attack { attacker, target, attack, distance, sources, total, ac, cover_bonus, outcome } => {
                let cover = if *cover_bonus > 0 { format!(" with cover +{cover_bonus}") } else { String::new() };
                format!(
                    "{} attacks {} with {attack} at {distance} ft{}: {total} against AC {ac}{cover} — {}.",
                    name(attacker),
                    name(target),
                    sources_text(sources),
                    outcome.word()
                )
            }
            EventKind::BreaksFree { id } => format!("{} tears free of the net.", name(id)),
            EventKind::Exhaustion { id, level } => format!("{} gains a level of exhaustion: now {level}.", name(id)),
            EventKind::ComplicationRoll { roller, d20, affected: Some(affected) } => format!(
                "{} rolls {d20} on the {table}: a complication for {}, next in initiative.",
                name(roller),
                name(affected)
            ),
            EventKind::ComplicationRoll { roller, d20, affected: None } => {
                format!("{} rolls {d20} on the {table}: no complication.", name(roller))
            }
            EventKind::Catches { pursuer, quarry } => format!("{} catches {}.", name(pursuer), name(quarry)),
            EventKind::Leaves { id, status } => format!("{} is out of the chase: {}.", name(id), status.name()),
            EventKind::LosesSight { lead, quarry, blinded } => {
                let why = if *blinded { "blinded" } else { "too far to see" };
                format!("{} loses sight of {} ({why}).", name(lead), name(quarry))
            }
            EventKind::NeverOutOfSight { quarry, lead } => format!(
                "{} was never out of {}'s sight this round: the escape check fails automatically.",
                name(quarry),
                name(lead)
            ),
            EventKind::Escape { quarry, sources, total, watcher, passive, escaped } => format!(
                "{} tries to escape: Dexterity (Stealth) {total}{} against {}'s passive Perception {passive} — {}.",
                name(quarry),
                sources_text(sources),
                name(watcher),
                if *escaped { "escapes" } else { "still pursued" }
            ),
            EventKind::Joins { id, quarry } => format!("{} joins the chase after {}.", name(id), names(quarry)),
            EventKind::Reverses { fleeing } => format!("The roles reverse: {} now flee.", names(fleeing)),
            EventKind::SplitOff { quarry, followers } => {
                let follow = if followers.is_empty() {
                    ": nobody follows".to_owned()
                } else {
                    format!(", followed by {}", names(followers))
                };
                format!("{} split off{follow}.", names(quarry))
            }
            EventKind::SeparateChase => "A separate chase begins.".to_owned(),
            EventKind::DmOutOfSight { id } => format!("The DM rules {} out of the lead pursuer's sight.", name(id)),
            EventKind::DmPlaces { id, feet } => format!("The DM puts {} at {feet} ft.", name(id)),
            EventKind::DmExhaustion { id, level } => format!("The DM sets {}'s exhaustion to {level}.", name(id)),
            EventKind::DmNextRoll { total } => format!("The DM sets the next roll to {total}."),
            EventKind::Over => self.outcome().unwrap_or_else(|| "The chase is over.".to_owned()),
        }
    }
}
