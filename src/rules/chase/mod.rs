//! Chases: quarry and pursuers on a route measured in feet, taking turns in their own initiative
//! order, dashing, meeting complications and trying to escape.
//!
//! DMG "Chases" through "Role Reversal" (000_8c43542ae10d17a7.txt, 002_ce573f1e51986339.txt)
//! and PHB "Dash" (004_ebe0798b5689cc3b.txt). Everything here is plain data and deterministic
//! under the session's [`SeededDice`]; every roll is an [`Event`] carrying its [`LogEntry`].
//!
//! The route is one line: everyone runs the same way ("they are all assumed to be moving in the
//! same direction at the same time"), so a position is feet along it and the quarry is ahead.
//! One [`Chase`] has one initiative order and one or more [`Pursuit`]s run at the same time (a
//! role reversal adds one); a split quarry makes separate chases, held by [`Chases`].

pub mod complication;
pub mod escape;
mod event;
pub mod policy;
mod roster;
mod turn;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use serde::Serialize;

pub use complication::{
    Alternative, CheckKind, Complication, ComplicationError, ComplicationTable, Effect, TableSource, Test,
};
pub use escape::EscapeFactor;
pub use event::{Event, EventKind};
pub use turn::{Resolution, Turn};

use super::advantage::Sources;
use super::conditions::{Condition, Conditions, Rolling, speed};
use super::creature::Sheet;
use super::dice::{DiceError, DiceRoll, Evaluation, Notation, RollMode, SeededDice};
use super::initiative::{InitiativeOrder, Roller};
use super::log::{ChaseTestFor, LogEntry, RollReason};
use super::modifiers::D20;
use roster::Roster;

/// Feet within which a pursuer catches its quarry unless the scene says otherwise: next to it,
/// where it can grab it (a project call, docs/rules.md).
pub const DEFAULT_CATCH_FEET: u32 = 5;

/// How far behind the creature it chases the local creature of wilderness row 10 starts (a
/// project call, docs/rules.md).
pub const LOCAL_CREATURE_BEHIND_FEET: i32 = 30;

/// Which way a participant runs in a pursuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Role {
    Quarry,
    Pursuer,
}

/// Whether a participant is still running, and if not, why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Status {
    Running,
    /// A pursuer came close enough to catch it.
    Caught,
    /// It beat the pursuers' passive Perception while out of the lead pursuer's sight.
    Escaped,
    /// Exhaustion level 5: speed 0 (DMG "Dashing").
    DroppedOut,
    /// It stopped, or the DM stopped it.
    GaveUp,
    /// Dropped to 0 hit points.
    Down,
    /// Its pursuits are over: nobody left to chase or to flee.
    Finished,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Caught => "caught",
            Status::Escaped => "escaped",
            Status::DroppedOut => "dropped out (exhaustion 5)",
            Status::GaveUp => "gave up",
            Status::Down => "down (0 hit points)",
            Status::Finished => "nobody left to chase or to flee",
        }
    }
}

/// One creature in a chase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Participant {
    pub id: String,
    pub sheet: Sheet,
    pub hp: i32,
    pub inspiration: bool,
    pub exhaustion: u8,
    /// Feet along the route.
    pub position: i32,
    /// Dash actions taken during the chase.
    pub dashes: u32,
    pub restrained: bool,
    pub status: Status,
    /// The conditions it came from the map with (a poisoned creature has disadvantage on its
    /// checks, initiative included). A net's hold is `restrained`.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
}

impl Participant {
    pub fn name(&self) -> &str {
        if self.sheet.name.is_empty() { &self.id } else { &self.sheet.name }
    }

    /// Dashes it can take without a Constitution check: 3 + its Constitution modifier (DMG
    /// "Dashing"), never fewer than none.
    pub fn free_dashes(&self) -> u32 {
        (3 + i32::from(self.sheet.abilities.con)).max(0) as u32
    }

    pub fn free_dashes_left(&self) -> u32 {
        self.free_dashes().saturating_sub(self.dashes)
    }

    /// Its speed now, as on the map (`conditions::speed`, PHB appendix A): 0 while grappled,
    /// restrained (a net's hold too), paralyzed, petrified, stunned or unconscious, or at
    /// exhaustion 5; halved at exhaustion 2 to 4.
    pub fn speed(&self) -> u32 {
        speed(self.sheet.speed, &self.conditions_now(), self.exhaustion).feet
    }

    /// Its own state as its d20 rolls read it, with `conditions` (its [`Self::conditions_now`]).
    pub fn rolling<'a>(&'a self, conditions: &'a Conditions) -> Rolling<'a> {
        Rolling { who: self.name(), conditions, exhaustion: self.exhaustion, effects: &self.sheet.effects }
    }

    /// Passive Wisdom (Perception), 5 lower with disadvantage on its ability checks (poisoned,
    /// exhaustion 1 and more): disadvantage counts as -5 on a passive score (PHB "Passive
    /// Checks"); with its effects' bonus on checks that rely on sight.
    pub fn passive_perception(&self) -> i32 {
        let conditions = self.conditions_now();
        let rolling = self.rolling(&conditions);
        self.sheet.passive_perception()
            + rolling.sources(D20::PERCEPTION).passive_bonus()
            + rolling.bonus(D20::PERCEPTION)
    }

    /// Its conditions now: those it came with, and restrained while a net holds it.
    pub fn conditions_now(&self) -> Conditions {
        let mut conditions = self.conditions.clone();
        if self.restrained {
            conditions.set(Condition::Restrained, true);
        }
        conditions
    }

    /// What its conditions, exhaustion and effects give its d20 `roll` (PHB appendix A:
    /// disadvantage on checks while poisoned and from exhaustion 1; on saves from exhaustion 3
    /// and on Dexterity saves while restrained; on attack rolls while poisoned, frightened,
    /// prone, restrained or from exhaustion 3): `conditions::Rolling::sources`.
    pub fn sources(&self, roll: D20) -> Sources {
        self.rolling(&self.conditions_now()).sources(roll)
    }

    pub fn is_running(&self) -> bool {
        self.status == Status::Running
    }
}

/// A quarry and the pursuers after it, with the distances between them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Pursuit {
    pub quarry: Vec<String>,
    pub pursuers: Vec<String>,
}

/// A creature entering a chase: its sheet, its side, where it starts on the route, and the
/// conditions it has on the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub id: String,
    pub sheet: Sheet,
    pub role: Role,
    pub position: i32,
    pub conditions: Conditions,
}

/// The scene's settings for a chase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ChaseRules {
    pub table: ComplicationTable,
    /// How far along the route the lead pursuer can see: a quarry farther ahead is out of its
    /// sight. `None`: in sight unless the DM says otherwise or the lead pursuer is blinded.
    pub sight_feet: Option<u32>,
    pub catch_feet: u32,
    pub escape_factors: Vec<EscapeFactor>,
    /// The creature that wilderness row 10 sends after someone (the DM's choice, from the scene).
    pub local_creature: Option<(String, Sheet)>,
}

impl Default for ChaseRules {
    fn default() -> Self {
        Self {
            table: ComplicationTable::urban(),
            sight_feet: None,
            catch_feet: DEFAULT_CATCH_FEET,
            escape_factors: Vec::new(),
            local_creature: None,
        }
    }
}

/// A complication rolled at the end of someone's turn, waiting for the next participant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Pending {
    pub roller: String,
    pub affected: String,
    pub d20: u32,
    pub complication: Complication,
}

/// Why a chase request can't be done, in a sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum ChaseError {
    /// The chase's complication table fails [`ComplicationTable::validate`]: `table` is its name.
    #[error("{table}: {error}")]
    BadTable { table: String, error: ComplicationError },
    /// Two entrants of [`Chase::start`] share an id.
    #[error("a creature is entered twice")]
    EnteredTwice,
    /// [`Chase::start`] was given no quarry or no pursuer.
    #[error("a chase needs a quarry and at least one pursuer")]
    NeedsBothSides,
    /// The newcomer of [`Chase::join_pursuing`] (by id) is a participant already.
    #[error("{0} is already in the chase")]
    AlreadyIn(String),
    /// The newcomer of [`Chase::join_pursuing`] is given no quarry, or one not running here.
    #[error("the newcomer must chase someone running in this chase")]
    NoQuarryForNewcomer,
    #[error("{0:?} is not in this chase")]
    UnknownParticipant(String),
    #[error("nobody's turn has begun")]
    NoTurn,
    #[error("finish the current turn first")]
    TurnInProgress,
    #[error("resolve the complication first")]
    ComplicationFirst,
    #[error("the action of this turn is used")]
    ActionUsed,
    #[error("{0}")]
    Refused(String),
    #[error("the chase is over")]
    Over,
    #[error("{0}")]
    Dice(#[from] DiceError),
    /// Both are running in the chase, so neither may make an opportunity attack on the other
    /// ([`Chase::may_opportunity_attack`]): their names.
    #[error(
        "{attacker} and {target} are both in the chase, moving the same way at the same time: no opportunity attacks"
    )]
    NoOpportunityAttacks { attacker: String, target: String },
}

/// Why chases read back from a saved session can't be played, as [`Chases::checked`] finds it:
/// chases are named by their names, participants by their ids.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SavedChaseError {
    /// The list of chases is empty, or the active one is past its end.
    #[error("a saved chase has no chase to play")]
    NoChase,
    /// Two participants of the chase share an id.
    #[error("{chase:?} names a participant twice")]
    ParticipantTwice { chase: String },
    /// A pursuit, the initiative order, a complication waiting, the turn or the quarry out of
    /// sight names an id that is not one of the chase's participants.
    #[error("{id:?} is not a participant of {chase:?}")]
    NotAParticipant { chase: String, id: String },
    /// The current turn is past the initiative order's entries, or the round past any a chase
    /// reaches.
    #[error("the turn of {chase:?} is past its initiative order")]
    TurnPastOrder { chase: String },
    /// The chase's complication table fails [`ComplicationTable::validate`].
    #[error("the table of {chase:?}: {error}")]
    BadTable { chase: String, error: ComplicationError },
    /// A complication waiting or an effect deferred is not a row of the chase's table.
    #[error("a complication waiting in {chase:?} is not a row of its table")]
    ComplicationNotInTable { chase: String },
    /// A participant's place, dashes, exhaustion, hit points or sheet is out of bounds.
    #[error("{id:?} holds numbers a chase can't reach")]
    ParticipantOutOfBounds { id: String },
    /// The turn's movement, the forced rolls or the local creature's sheet is out of bounds.
    #[error("{chase:?} holds numbers a chase can't reach")]
    ChaseOutOfBounds { chase: String },
}

/// One chase: participants on one route, one initiative order, pursuits run at the same time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Chase {
    pub name: String,
    pub rules: ChaseRules,
    pub participants: Vec<Participant>,
    pub pursuits: Vec<Pursuit>,
    /// The chase's own order: the mechanism the battle map uses too.
    pub order: InitiativeOrder,
    pub turn: Option<Turn>,
    pub pending: Vec<Pending>,
    /// Quarry creatures that have been out of their lead pursuer's sight this round.
    pub out_of_sight: BTreeSet<String>,
    pub events: Vec<Event>,
    /// Results the DM set for the next rolls, used in order instead of dice.
    pub forced_rolls: VecDeque<i32>,
    /// Every participant's name by id, kept after it leaves or splits off (for the log).
    pub names: BTreeMap<String, String>,
    /// Where each participant is in `participants`, by id: lookups stay constant-time in chases
    /// of hundreds.
    #[serde(skip)]
    index: HashMap<String, usize>,
    /// The pursuits by participant index, running participants sorted by place: kept up to date
    /// by the methods that move participants, take them out or change the pursuits.
    #[serde(skip)]
    roster: Roster,
}

impl Chase {
    /// Starts a chase (DMG "Beginning a Chase"): at least one quarry and one pursuer;
    /// participants already in `existing` keep their initiative, the others roll it.
    pub fn start(
        name: &str,
        rules: ChaseRules,
        entrants: Vec<Entrant>,
        existing: Option<&InitiativeOrder>,
        dice: &mut SeededDice,
    ) -> Result<Self, ChaseError> {
        rules.table.validate().map_err(|error| ChaseError::BadTable { table: rules.table.name.clone(), error })?;
        let ids: BTreeSet<&str> = entrants.iter().map(|e| e.id.as_str()).collect();
        if ids.len() != entrants.len() {
            return Err(ChaseError::EnteredTwice);
        }
        let of_role = |role| -> Vec<String> {
            entrants.iter().filter(|e| e.role == role).map(|e| e.id.clone()).collect::<Vec<_>>()
        };
        let (quarry, pursuers) = (of_role(Role::Quarry), of_role(Role::Pursuer));
        if quarry.is_empty() || pursuers.is_empty() {
            return Err(ChaseError::NeedsBothSides);
        }
        let mut chase = Chase {
            name: name.to_owned(),
            rules,
            participants: Vec::new(),
            pursuits: vec![Pursuit { quarry, pursuers }],
            order: InitiativeOrder::default(),
            turn: None,
            pending: Vec::new(),
            out_of_sight: BTreeSet::new(),
            events: Vec::new(),
            forced_rolls: VecDeque::new(),
            names: BTreeMap::new(),
            index: HashMap::new(),
            roster: Roster::default(),
        };
        chase.note(EventKind::Begins { name: name.to_owned() });
        for entrant in entrants {
            chase.enter(entrant, existing, dice)?;
        }
        chase.relink();
        chase.update_sight();
        Ok(chase)
    }

    /// Adds a participant, with its initiative from `existing` or rolled.
    fn enter(
        &mut self,
        entrant: Entrant,
        existing: Option<&InitiativeOrder>,
        dice: &mut SeededDice,
    ) -> Result<(), ChaseError> {
        let Entrant { id, sheet, position, conditions, .. } = entrant;
        let participant = Participant {
            id: id.clone(),
            hp: sheet.hp,
            inspiration: sheet.inspiration,
            exhaustion: sheet.exhaustion.min(5),
            position,
            dashes: 0,
            restrained: false,
            status: Status::Running,
            sheet,
            conditions,
        };
        let name = participant.name().to_owned();
        // Initiative is a Dexterity check: what hampers its checks hampers it.
        let conditions = participant.conditions_now();
        let roller = Roller::new(&id, participant.sheet.abilities.dex, participant.rolling(&conditions));
        self.names.insert(id.clone(), name.clone());
        self.index.insert(id.clone(), self.participants.len());
        self.participants.push(participant);
        match existing.and_then(|order| order.entry(&id)) {
            Some(entry) => {
                self.order.insert(entry.clone());
                self.note(EventKind::KeepsInitiative { id, initiative: entry.initiative });
            }
            None => {
                let roll = self.order.join(&roller, dice)?;
                self.record(EventKind::RollsInitiative { id, total: roll.total }, &name, RollReason::Initiative, roll);
            }
        }
        Ok(())
    }

    /// The checks of [`Chases::checked`] on one chase.
    fn check_saved(&self) -> Result<(), SavedChaseError> {
        const FAR: u32 = 10_000_000;
        let chase = || self.name.clone();
        let ids: BTreeSet<&str> = self.participants.iter().map(|p| p.id.as_str()).collect();
        if ids.len() != self.participants.len() {
            return Err(SavedChaseError::ParticipantTwice { chase: chase() });
        }
        let turn = self
            .turn
            .iter()
            .flat_map(|t| std::iter::once(&t.id).chain(t.complication.iter().flat_map(|c| [&c.roller, &c.affected])));
        let named = self
            .pursuits
            .iter()
            .flat_map(|p| p.quarry.iter().chain(&p.pursuers))
            .chain(self.order.entries.iter().map(|e| &e.id))
            .chain(self.pending.iter().flat_map(|p| [&p.roller, &p.affected]))
            .chain(&self.out_of_sight)
            .chain(turn);
        for id in named {
            if !ids.contains(id.as_str()) {
                return Err(SavedChaseError::NotAParticipant { chase: chase(), id: id.clone() });
            }
        }
        if self.order.current.is_some_and(|i| i >= self.order.entries.len()) || self.order.round > 1_000_000 {
            return Err(SavedChaseError::TurnPastOrder { chase: chase() });
        }
        self.rules.table.validate().map_err(|error| SavedChaseError::BadTable { chase: chase(), error })?;
        // Complications waiting and effects deferred are the table's own rows.
        let rows = &self.rules.table.rows;
        let pending = self
            .pending
            .iter()
            .map(|p| &p.complication)
            .chain(self.turn.iter().flat_map(|t| &t.complication).map(|p| &p.complication));
        let effects = self.turn.iter().flat_map(|t| &t.deferred);
        if pending.clone().any(|c| !rows.contains(c))
            || effects.clone().any(|e| !rows.iter().any(|r| r.on_fail.contains(e) || r.always.contains(e)))
        {
            return Err(SavedChaseError::ComplicationNotInTable { chase: chase() });
        }
        let turn_far = self.turn.as_ref().is_some_and(|t| t.moved > 100_000 || t.lost > 100_000);
        let forced_far = self.forced_rolls.iter().any(|r| !(-1000..=1000).contains(r));
        let sheet_far = |s: &Sheet| {
            s.speed > 10_000
                || !(0..=50).contains(&s.ac)
                || s.attacks.iter().any(|a| !(-20..=30).contains(&a.bonus) || Notation::parse(&a.damage).is_err())
        };
        let wild = self.participants.iter().find(|p| {
            p.position.unsigned_abs() > FAR
                || p.dashes > 10_000
                || p.exhaustion > 6
                || !(0..=100_000).contains(&p.hp)
                || sheet_far(&p.sheet)
        });
        if let Some(p) = wild {
            return Err(SavedChaseError::ParticipantOutOfBounds { id: p.id.clone() });
        }
        if turn_far || forced_far || self.rules.local_creature.as_ref().is_some_and(|(_, s)| sheet_far(s)) {
            return Err(SavedChaseError::ChaseOutOfBounds { chase: chase() });
        }
        Ok(())
    }

    /// Rebuilds the index and the roster after participants leave the list (a split) or the
    /// pursuits change (a newcomer, a role reversal).
    fn relink(&mut self) {
        self.index = self.participants.iter().enumerate().map(|(i, p)| (p.id.clone(), i)).collect();
        self.roster = Roster::build(&self.participants, &self.pursuits, &self.order, &self.index);
    }

    /// Puts a participant at `feet` on the route, keeping the roster in step.
    fn place(&mut self, who: usize, feet: i32) {
        let Some(p) = self.participants.get_mut(who) else { return };
        let from = std::mem::replace(&mut p.position, feet);
        self.roster.moved(who, from, feet);
    }

    fn position_of(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied().filter(|&i| self.participants.get(i).is_some_and(|p| p.id == id))
    }

    pub fn participant(&self, id: &str) -> Option<&Participant> {
        self.position_of(id).map(|i| &self.participants[i])
    }

    fn participant_mut(&mut self, id: &str) -> Result<&mut Participant, ChaseError> {
        let i = self.position_of(id).ok_or_else(|| ChaseError::UnknownParticipant(id.to_owned()))?;
        Ok(&mut self.participants[i])
    }

    /// A participant's name (it stays known after a split), or what it was called otherwise.
    fn name_of(&self, id: &str) -> String {
        self.names.get(id).cloned().unwrap_or_else(|| id.to_owned())
    }

    fn running(&self, id: &str) -> bool {
        self.participant(id).is_some_and(Participant::is_running)
    }

    /// The roles `id` plays: quarry in some pursuits, pursuer in others.
    pub fn roles(&self, id: &str) -> Vec<Role> {
        let mut roles = Vec::new();
        if self.pursuits.iter().any(|p| p.quarry.iter().any(|q| q == id)) {
            roles.push(Role::Quarry);
        }
        if self.pursuits.iter().any(|p| p.pursuers.iter().any(|q| q == id)) {
            roles.push(Role::Pursuer);
        }
        roles
    }

    /// Whether a pursuit still runs: a running quarry and a running pursuer.
    pub fn pursuit_live(&self, pursuit: &Pursuit) -> bool {
        pursuit.quarry.iter().any(|q| self.running(q)) && pursuit.pursuers.iter().any(|p| self.running(p))
    }

    pub fn is_over(&self) -> bool {
        !self.roster.fields.iter().any(roster::Field::live)
    }

    /// Feet between two participants along the route.
    pub fn distance(&self, a: &str, b: &str) -> Option<u32> {
        Some(self.participant(a)?.position.abs_diff(self.participant(b)?.position))
    }

    /// For each running pursuer of a pursuit: the nearest running quarry creature and its
    /// distance in feet (the first id in order among equally near ones). The quarry's places are
    /// sorted once, so each pursuer looks at its two neighbours only.
    pub fn distances(&self, pursuit: &Pursuit) -> Vec<(String, String, u32)> {
        let mut quarry: Vec<(i32, &String)> = pursuit
            .quarry
            .iter()
            .filter_map(|q| self.participant(q).filter(|p| p.is_running()).map(|p| (p.position, q)))
            .collect();
        quarry.sort();
        pursuit
            .pursuers
            .iter()
            .filter_map(|p| self.participant(p).filter(|p| p.is_running()))
            .filter_map(|pursuer| {
                let at = pursuer.position;
                let above = quarry.partition_point(|(place, _)| *place < at);
                // The first (smallest id) of the nearest place at or above, and of the nearest below.
                let up = quarry.get(above).map(|&(place, id)| (place.abs_diff(at), id));
                let down = above.checked_sub(1).map(|last| {
                    let place = quarry[last].0;
                    let first = quarry.partition_point(|(p, _)| *p < place);
                    (place.abs_diff(at), quarry[first].1)
                });
                let (feet, id) = up.into_iter().chain(down).min()?;
                Some((pursuer.id.clone(), id.clone(), feet))
            })
            .collect()
    }

    /// The lead pursuer: the running pursuer closest to the quarry; a tie goes to the one first
    /// in initiative (DMG "Beginning a Chase": "designate the pursuer closest to the quarry as the
    /// lead").
    pub fn lead(&self, pursuit: &Pursuit) -> Option<String> {
        let places: HashMap<&str, usize> =
            self.order.entries.iter().enumerate().map(|(i, e)| (e.id.as_str(), i)).collect();
        let place = |id: &str| places.get(id).copied().unwrap_or(usize::MAX);
        self.distances(pursuit).into_iter().min_by_key(|(p, _, feet)| (*feet, place(p))).map(|(p, _, _)| p)
    }

    /// The lead pursuer of the `k`th pursuit, as [`Chase::lead`] finds it, by participant index:
    /// the closest pursuers from one walk along the roster, and on a tie the first of them in
    /// initiative order (then the first in the pursuit's list).
    fn lead_at(&self, k: usize) -> Option<usize> {
        let roster = &self.roster;
        let place = |who: usize| roster.initiative.get(who).copied().unwrap_or(usize::MAX);
        // Places are distinct; only pursuers out of the order (none while the books are straight)
        // fall back on the pursuit's list.
        let key = |who: usize| match place(who) {
            usize::MAX => (usize::MAX, roster.pursuer_slot(who, k)),
            place => (place, 0),
        };
        roster.fields.get(k)?.closest_pursuer(key)
    }

    /// Feet from a running pursuer to the nearest running quarry of each pursuit it is in (`None`
    /// where no quarry runs), as [`Chase::distances`] gives them.
    pub(super) fn pursuer_distances(&self, id: &str) -> Vec<Option<u32>> {
        let Some(who) = self.position_of(id) else { return Vec::new() };
        let at = self.participants[who].position;
        self.roster
            .pursuits_as(who, Role::Pursuer)
            .map(|m| self.roster.fields.get(m.pursuit).and_then(|f| f.nearest_quarry(at)).map(|(feet, _)| feet))
            .collect()
    }

    /// Chase participants can't make opportunity attacks against each other; creatures outside
    /// the chase can (DMG "Spells and Attacks"). Refused with [`ChaseError::NoOpportunityAttacks`]
    /// when both are running in the chase.
    pub fn may_opportunity_attack(&self, attacker: &str, target: &str) -> Result<(), ChaseError> {
        let inside = |id: &str| self.participant(id).is_some_and(Participant::is_running);
        if inside(attacker) && inside(target) {
            return Err(ChaseError::NoOpportunityAttacks {
                attacker: self.name_of(attacker),
                target: self.name_of(target),
            });
        }
        Ok(())
    }

    fn note(&mut self, kind: EventKind) {
        self.events.push(Event { round: self.order.round, kind, roll: None });
    }

    fn record(&mut self, kind: EventKind, who: &str, reason: RollReason, roll: DiceRoll) {
        let entry = LogEntry::new(who, reason, roll, false);
        self.events.push(Event { round: self.order.round, kind, roll: Some(entry) });
    }

    /// Rolls for `who` (or takes the DM's result), without recording it.
    fn roll(&mut self, notation: &str, mode: RollMode, dice: &mut SeededDice) -> Result<DiceRoll, ChaseError> {
        match self.forced_rolls.pop_front() {
            Some(total) => Ok(DiceRoll {
                notation: notation.to_owned(),
                mode,
                evaluations: vec![Evaluation { detail: "set by the DM".to_owned(), total }],
                total,
            }),
            None => Ok(dice.roll(notation, mode)?),
        }
    }

    /// A d20 test for `id`: an ability check (with a skill or not) or a saving throw, with what
    /// its conditions, exhaustion and effects give it ([`Participant::sources`]: poisoned,
    /// exhaustion from level 1 on checks; exhaustion from level 3, restrained on
    /// Dexterity saves). Returns whether it met the DC.
    fn test(
        &mut self,
        id: &str,
        test: &Test,
        option: usize,
        purpose: ChaseTestFor,
        dice: &mut SeededDice,
    ) -> Result<bool, ChaseError> {
        let p = self.participant(id).ok_or_else(|| ChaseError::UnknownParticipant(id.to_owned()))?;
        let (bonus, label, is_save, ability) = match test {
            Test::Check { options, .. } => {
                let kind = *options
                    .get(option)
                    .or(options.first())
                    .ok_or_else(|| ChaseError::Refused("the check names no ability or skill".to_owned()))?;
                (p.sheet.check_bonus(kind), format!("{} check", kind.name()), false, kind.ability())
            }
            Test::Save { ability, .. } => {
                (p.sheet.save_bonus(*ability), format!("{} saving throw", ability.name()), true, *ability)
            }
        };
        let roll = if is_save { D20::Save(Some(ability)) } else { D20::check(ability) };
        let sources = p.sources(roll);
        let bonus = i32::from(bonus) + p.sheet.effects.bonus(roll);
        let name = p.name().to_owned();
        let dc = test.dc();
        let roll = self.roll(&format!("1d20{bonus:+}"), sources.mode(), dice)?;
        let passed = roll.total >= dc;
        let reason = RollReason::ChaseTest { purpose, dc, label: label.clone() };
        let total = roll.total;
        self.record(EventKind::Test { id: id.to_owned(), dc, label, sources, total, passed }, &name, reason, roll);
        Ok(passed)
    }

    /// Takes a participant out of the chase. The one whose turn it is leaves the order when its
    /// turn ends; the others at once, and a complication waiting for them lapses.
    fn leave(&mut self, id: &str, status: Status) {
        let Some(who) = self.position_of(id) else { return };
        let p = &mut self.participants[who];
        if !p.is_running() {
            return;
        }
        p.status = status;
        let feet = p.position;
        self.roster.stopped(who, feet);
        self.note(EventKind::Leaves { id: id.to_owned(), status });
        if self.turn.as_ref().is_none_or(|t| t.id != id) {
            self.order.remove(id);
        }
        self.pending.retain(|pending| pending.affected != id);
    }

    /// Quarry within catching distance of a running pursuer of theirs are caught (DMG "Ending a
    /// Chase": the pursuers are close enough to catch it).
    fn check_catches(&mut self) {
        let mut caught: Vec<(usize, usize)> = Vec::new();
        for (k, field) in self.roster.fields.iter().enumerate() {
            // The pursuers that can catch, in the pursuit's order, each with its nearest quarry.
            let mut near = field.pursuers_within(self.rules.catch_feet);
            near.sort_by_key(|&who| self.roster.pursuer_slot(who, k));
            for pursuer in near {
                let Some(at) = self.participants.get(pursuer).map(|p| p.position) else { continue };
                if let Some((_, quarry)) = field.nearest_quarry(at)
                    && !caught.iter().any(|(q, _)| *q == quarry)
                {
                    caught.push((quarry, pursuer));
                }
            }
        }
        let id = |who: usize| self.participants.get(who).map(|p| p.id.clone()).unwrap_or_default();
        let caught: Vec<(String, String)> = caught.into_iter().map(|(q, p)| (id(q), id(p))).collect();
        for (quarry, pursuer) in caught {
            if self.running(&quarry) {
                self.note(EventKind::Catches { pursuer, quarry: quarry.clone() });
                self.leave(&quarry, Status::Caught);
            }
        }
        self.finish_idle();
    }

    /// Participants left with no live pursuit stop running.
    fn finish_idle(&mut self) {
        let live: Vec<bool> = self.roster.fields.iter().map(roster::Field::live).collect();
        if self.roster.strays == 0 && live.iter().all(|&live| live) {
            return;
        }
        let busy = |who: usize| {
            self.roster.member_of.get(who).is_some_and(|m| m.iter().any(|m| live.get(m.pursuit) == Some(&true)))
        };
        let idle: Vec<String> = self
            .participants
            .iter()
            .enumerate()
            .filter(|&(who, p)| p.is_running() && !busy(who))
            .map(|(_, p)| p.id.clone())
            .collect();
        for id in idle {
            self.leave(&id, Status::Finished);
        }
    }

    /// Notes each quarry creature now out of its lead pursuer's sight: farther than the scene's
    /// sight, or the lead pursuer blinded.
    fn update_sight(&mut self) {
        let mut out = Vec::new();
        // With no sight limit only a blinded lead loses sight: no lead to look for otherwise.
        if self.rules.sight_feet.is_none() && !self.turn.as_ref().is_some_and(|t| t.blinded) {
            return;
        }
        for (k, field) in self.roster.fields.iter().enumerate() {
            let Some(lead) = self.lead_at(k).and_then(|who| self.participants.get(who)) else { continue };
            let blinded = self.turn.as_ref().is_some_and(|t| t.id == lead.id && t.blinded);
            if self.rules.sight_feet.is_none() && !blinded {
                continue;
            }
            for quarry in field.quarry.iter().filter_map(|&who| self.participants.get(who)).filter(|q| q.is_running()) {
                let far = self.rules.sight_feet.is_some_and(|sight| lead.position.abs_diff(quarry.position) > sight);
                if (far || blinded) && !self.out_of_sight.contains(&quarry.id) {
                    out.push(EventKind::LosesSight { lead: lead.id.clone(), quarry: quarry.id.clone(), blinded });
                }
            }
        }
        for event in out {
            if let EventKind::LosesSight { quarry, .. } = &event {
                self.out_of_sight.insert(quarry.clone());
            }
            self.note(event);
        }
    }

    /// The DM marks a quarry creature out of the lead pursuer's sight this round (around a corner,
    /// into a crowd).
    pub fn mark_out_of_sight(&mut self, quarry: &str) -> Result<(), ChaseError> {
        self.participant_mut(quarry)?;
        if self.out_of_sight.insert(quarry.to_owned()) {
            self.note(EventKind::DmOutOfSight { id: quarry.to_owned() });
        }
        Ok(())
    }

    /// The DM sets a participant's place on the route.
    pub fn set_position(&mut self, id: &str, feet: i32) -> Result<(), ChaseError> {
        let who = self.position_of(id).ok_or_else(|| ChaseError::UnknownParticipant(id.to_owned()))?;
        self.place(who, feet);
        self.note(EventKind::DmPlaces { id: id.to_owned(), feet });
        self.check_catches();
        self.update_sight();
        Ok(())
    }

    /// The DM sets a participant's exhaustion (level 5 drops it out).
    pub fn set_exhaustion(&mut self, id: &str, level: u8) -> Result<(), ChaseError> {
        let p = self.participant_mut(id)?;
        p.exhaustion = level.min(6);
        self.note(EventKind::DmExhaustion { id: id.to_owned(), level: level.min(6) });
        if level >= 5 {
            self.leave(id, Status::DroppedOut);
            self.finish_idle();
        }
        Ok(())
    }

    /// The DM sets the result of the next roll the chase makes.
    pub fn force_next_roll(&mut self, total: i32) {
        self.forced_rolls.push_back(total);
        self.note(EventKind::DmNextRoll { total });
    }

    /// A participant stops chasing or fleeing (DMG "Ending a Chase": one side stops).
    pub fn give_up(&mut self, id: &str) -> Result<(), ChaseError> {
        if !self.running(id) {
            return Err(ChaseError::UnknownParticipant(id.to_owned()));
        }
        self.leave(id, Status::GaveUp);
        self.finish_idle();
        Ok(())
    }

    /// A new arrival joins, rolling initiative, as a pursuer of `quarry` (DMG "Role Reversal":
    /// run both chases at the same time). Anyone can be its quarry, a pursuer included.
    pub fn join_pursuing(
        &mut self,
        entrant: Entrant,
        quarry: &[String],
        dice: &mut SeededDice,
    ) -> Result<(), ChaseError> {
        if self.participant(&entrant.id).is_some() {
            return Err(ChaseError::AlreadyIn(entrant.id));
        }
        if quarry.is_empty() || quarry.iter().any(|q| !self.running(q)) {
            return Err(ChaseError::NoQuarryForNewcomer);
        }
        let id = entrant.id.clone();
        self.enter(entrant, None, dice)?;
        self.note(EventKind::Joins { id: id.clone(), quarry: quarry.to_vec() });
        match self.pursuits.iter_mut().find(|p| p.quarry == quarry) {
            Some(pursuit) => pursuit.pursuers.push(id),
            None => self.pursuits.push(Pursuit { quarry: quarry.to_vec(), pursuers: vec![id] }),
        }
        self.relink();
        self.update_sight();
        Ok(())
    }

    /// The quarry turns on its pursuers (DMG "Role Reversal": "the outnumbered characters might
    /// decide to flee with the thieves in pursuit"): the sides swap and the route turns round.
    /// With several pursuits on the route, split them first.
    pub fn reverse(&mut self) -> Result<(), ChaseError> {
        if self.pursuits.len() != 1 {
            return Err(ChaseError::Refused(
                "the roles can swap only in a chase with one quarry group and its pursuers".to_owned(),
            ));
        }
        let pursuit = &mut self.pursuits[0];
        std::mem::swap(&mut pursuit.quarry, &mut pursuit.pursuers);
        for p in &mut self.participants {
            p.position = -p.position;
        }
        self.relink();
        self.out_of_sight.clear();
        self.note(EventKind::Reverses { fleeing: self.pursuits[0].quarry.clone() });
        self.check_catches();
        self.update_sight();
        Ok(())
    }

    /// End of a round (DMG "Ending a Chase"): each running quarry creature that has been out of
    /// its lead pursuer's sight makes a Dexterity (Stealth) check against the highest passive
    /// Wisdom (Perception) of its pursuers, and escapes on a higher result; one never out of
    /// sight fails automatically.
    fn end_round(&mut self, dice: &mut SeededDice) -> Result<(), ChaseError> {
        let pursuits = self.pursuits.clone();
        for (k, pursuit) in pursuits.iter().enumerate() {
            if !self.roster.fields.get(k).is_some_and(roster::Field::live) {
                continue;
            }
            let Some(lead) = self.lead_at(k).and_then(|who| self.participants.get(who)).map(|p| p.id.clone()) else {
                continue;
            };
            let Some((watcher, passive)) = pursuit
                .pursuers
                .iter()
                .filter_map(|id| self.participant(id).filter(|p| p.is_running()))
                .map(|p| (p.id.clone(), p.passive_perception()))
                .max_by_key(|(_, passive)| *passive)
            else {
                continue;
            };
            for quarry in &pursuit.quarry {
                if !self.running(quarry) {
                    continue;
                }
                let name = self.name_of(quarry);
                if !self.out_of_sight.contains(quarry) {
                    self.note(EventKind::NeverOutOfSight { quarry: quarry.clone(), lead: lead.clone() });
                    continue;
                }
                let sources = self.escape_sources(quarry, &lead);
                let bonus = self.participant(quarry).map_or(0, |p| {
                    i32::from(p.sheet.skill_bonus(super::creature::Skill::Stealth))
                        + p.sheet.effects.bonus(D20::STEALTH)
                });
                let roll = self.roll(&format!("1d20{bonus:+}"), sources.mode(), dice)?;
                let escaped = roll.total > passive;
                let event = EventKind::Escape {
                    quarry: quarry.clone(),
                    sources,
                    total: roll.total,
                    watcher: watcher.clone(),
                    passive,
                    escaped,
                };
                self.record(event, &name, RollReason::Escape, roll);
                if escaped {
                    self.leave(quarry, Status::Escaped);
                }
            }
        }
        self.out_of_sight.clear();
        self.finish_idle();
        self.update_sight();
        Ok(())
    }

    /// The chase's result once it is over, in a sentence.
    pub fn outcome(&self) -> Option<String> {
        if !self.is_over() {
            return None;
        }
        let list = |status: Status| -> Vec<String> {
            self.participants.iter().filter(|p| p.status == status).map(|p| p.name().to_owned()).collect()
        };
        let mut parts = Vec::new();
        for (status, verb) in [
            (Status::Caught, "caught"),
            (Status::Escaped, "escaped"),
            (Status::GaveUp, "gave up"),
            (Status::DroppedOut, "dropped out"),
            (Status::Down, "went down"),
        ] {
            let names = list(status);
            if !names.is_empty() {
                parts.push(format!("{} {verb}", names.join(", ")));
            }
        }
        Some(if parts.is_empty() {
            "The chase is over.".to_owned()
        } else {
            format!("The chase is over: {}.", parts.join("; "))
        })
    }
}

/// Several chases, after the quarry split up: a round of one, then a round of the next (DMG
/// "Splitting Up").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Chases {
    pub chases: Vec<Chase>,
    /// The chase whose round is being played.
    pub active: usize,
}

impl Chases {
    pub fn new(chase: Chase) -> Self {
        Self { chases: vec![chase], active: 0 }
    }

    /// Chases read back from a saved session: refused with a [`SavedChaseError`] unless every id
    /// they name is one of their participants', their table is valid and its rows are the
    /// complications waiting, and places, hit points, sheets, forced rolls and the turn's movement
    /// are within bounds; their indexes are then rebuilt.
    pub fn checked(mut self) -> Result<Self, SavedChaseError> {
        if self.chases.is_empty() || self.active >= self.chases.len() {
            return Err(SavedChaseError::NoChase);
        }
        for chase in &mut self.chases {
            chase.check_saved()?;
            chase.relink();
        }
        Ok(self)
    }

    pub fn is_over(&self) -> bool {
        self.chases.iter().all(Chase::is_over)
    }

    pub fn active(&self) -> &Chase {
        &self.chases[self.active.min(self.chases.len() - 1)]
    }

    pub fn active_mut(&mut self) -> &mut Chase {
        let index = self.active.min(self.chases.len() - 1);
        &mut self.chases[index]
    }

    /// Part of the quarry breaks away with the pursuers that follow it, making a separate chase
    /// with its own distances and the same initiative (DMG "Splitting Up"). Only between turns.
    pub fn split(&mut self, from: usize, quarry: &[String], pursuers: &[String]) -> Result<usize, ChaseError> {
        let chase = self.chases.get(from).ok_or_else(|| ChaseError::Refused(format!("there is no chase {from}")))?;
        if chase.turn.is_some() {
            return Err(ChaseError::TurnInProgress);
        }
        if chase.pursuits.len() != 1 {
            return Err(ChaseError::Refused("split a chase with one quarry group and its pursuers".to_owned()));
        }
        let pursuit = &chase.pursuits[0];
        if quarry.is_empty() || quarry.iter().any(|q| !pursuit.quarry.contains(q) || !chase.running(q)) {
            return Err(ChaseError::Refused("only running quarry creatures of this chase can split off".to_owned()));
        }
        if pursuers.iter().any(|p| !pursuit.pursuers.contains(p) || !chase.running(p)) {
            return Err(ChaseError::Refused("only running pursuers of this chase can follow them".to_owned()));
        }
        let staying = pursuit.quarry.iter().filter(|q| chase.running(q) && !quarry.contains(q)).count();
        if staying == 0 {
            return Err(ChaseError::Refused("at least one quarry creature must stay in the first chase".to_owned()));
        }
        let moving: Vec<String> = quarry.iter().chain(pursuers).cloned().collect();
        let chase = &mut self.chases[from];
        let mut order = InitiativeOrder { round: chase.order.round, ..InitiativeOrder::default() };
        for id in &moving {
            if let Some(entry) = chase.order.entry(id) {
                order.insert(entry.clone());
            }
            chase.order.remove(id);
        }
        let participants: Vec<Participant> =
            chase.participants.iter().filter(|p| moving.contains(&p.id)).cloned().collect();
        chase.participants.retain(|p| !moving.contains(&p.id));
        chase.pursuits[0].quarry.retain(|q| !quarry.contains(q));
        chase.pursuits[0].pursuers.retain(|p| !pursuers.contains(p));
        chase.relink();
        chase.pending.retain(|p| !moving.contains(&p.affected));
        let names: Vec<String> =
            participants.iter().filter(|p| quarry.contains(&p.id)).map(|p| p.name().to_owned()).collect();
        let name = format!("{} (after {})", chase.name, names.join(" and "));
        chase.note(EventKind::SplitOff { quarry: quarry.to_vec(), followers: pursuers.to_vec() });
        let mut new = Chase {
            name,
            rules: chase.rules.clone(),
            participants,
            pursuits: vec![Pursuit { quarry: quarry.to_vec(), pursuers: pursuers.to_vec() }],
            order,
            turn: None,
            pending: Vec::new(),
            out_of_sight: BTreeSet::new(),
            events: Vec::new(),
            forced_rolls: VecDeque::new(),
            names: chase.names.clone(),
            index: HashMap::new(),
            roster: Roster::default(),
        };
        new.relink();
        new.rules.local_creature = None;
        new.note(EventKind::SeparateChase);
        if pursuers.is_empty() {
            for q in quarry {
                new.leave(q, Status::Escaped);
            }
        }
        new.finish_idle();
        new.update_sight();
        chase.finish_idle();
        self.chases.push(new);
        Ok(self.chases.len() - 1)
    }

    /// The chase whose turn comes next: the active one until its round is done, then the next
    /// one still running.
    fn next_chase(&self) -> Option<usize> {
        let active = self.active();
        let round_done = active.is_over() || (active.order.current.is_some() && active.round_done());
        if !round_done {
            return Some(self.active);
        }
        let count = self.chases.len();
        (1..=count).map(|step| (self.active + step) % count).find(|&i| !self.chases[i].is_over())
    }

    /// Who takes the next turn, and in which chase: for the hand-over between turns.
    pub fn next_up(&self) -> Option<(usize, String)> {
        if self.is_over() {
            return None;
        }
        let index = self.next_chase()?;
        Some((index, self.chases[index].order.upcoming()?.id.clone()))
    }

    /// Begins the next turn: the next participant of the active chase, or, when its round is
    /// done, the first of the next chase still running.
    pub fn begin_turn(&mut self, dice: &mut SeededDice) -> Result<(), ChaseError> {
        if self.is_over() {
            return Err(ChaseError::Over);
        }
        self.active = self.next_chase().ok_or(ChaseError::Over)?;
        self.active_mut().begin_turn(dice)
    }
}
