//! Effects that last on a creature: what gave them, what they do, how long they last and what
//! ends them, as the initiative tracker advances them. DMG chapter 8 "Combining Game Effects"
//! (same-named effects don't add: the most potent applies), PHB chapter 10 "Concentration",
//! PHB chapter 9 "Grappling"; the chapter's Poisons, Diseases and Madness (`poisons`, `diseases`,
//! `madness`, their details from the System Reference Document 5.1, CC-BY-4.0).
//!
//! Plain data: the tracker (the map's or `query advance`) says when a turn starts or ends, rolls
//! what comes due through its dice and applies damage through the damage rules.

pub mod diseases;
pub mod madness;
pub mod poisons;
pub mod tracker;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::conditions::{Condition, Conditions};
use super::creature::Ability;
use super::dice::{DiceError, Notation};
use super::health::DamageType;
use super::modifiers::{Change, ModifierError, RollKind, RollModifier, RollModifiers};
use super::size::Size;
use super::text::{self, TextError};

/// The most effects one creature carries at once (a scenario or a session can't hold more).
pub const MAX_EFFECTS: usize = 64;
/// The longest timed duration, in rounds: a year of game time.
pub const MAX_ROUNDS: u32 = 10 * 60 * 24 * 366;
/// Rounds in a minute and in an hour (PHB chapter 9, "The Order of Combat": a round is 6 seconds).
pub const ROUNDS_PER_MINUTE: u32 = 10;
pub const ROUNDS_PER_HOUR: u32 = 600;

/// Where an effect came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    /// A creature, by its scenario id: a spell, a grapple, a monster's ability.
    Creature(String),
    Poison(poisons::Poison),
    Disease(diseases::Disease),
    Madness(madness::MadnessKind),
    /// The DM, by hand.
    Dm,
}

/// How long an effect lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Duration {
    Rounds(u32),
    Minutes(u32),
    Hours(u32),
    /// Until the end of the source's next turn (a creature source; else the creature's own).
    EndOfSourcesNextTurn,
    /// Until the start of the affected creature's next turn.
    StartOfOwnNextTurn,
    /// Until a repeated save succeeds (the effect's `save`).
    UntilSaved,
    /// While the source concentrates (PHB "Concentration").
    Concentration,
    /// Until the DM (or a cure) removes it.
    UntilRemoved,
}

impl Duration {
    /// The rounds a timed duration lasts; `None` for the others.
    pub fn rounds(self) -> Option<u32> {
        match self {
            Duration::Rounds(n) => Some(n),
            Duration::Minutes(n) => Some(n.saturating_mul(ROUNDS_PER_MINUTE)),
            Duration::Hours(n) => Some(n.saturating_mul(ROUNDS_PER_HOUR)),
            _ => None,
        }
    }
}

/// A point of a turn at which a save or damage comes due.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnPoint {
    Start,
    #[default]
    End,
}

/// A saving throw the creature repeats at a point of each of its turns; `successes` of them end
/// the effect (one, but burnt othur fumes needs three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepeatedSave {
    pub ability: Ability,
    pub dc: i32,
    #[serde(default)]
    pub at: TurnPoint,
    #[serde(default = "one")]
    pub successes: u8,
}

fn one() -> u8 {
    1
}

/// Damage the creature takes at a point of each of its turns while the effect is in force, or
/// only when it fails the effect's repeated save there (burnt othur fumes: "on each successive
/// failed save, the character takes 3 (1d6) poison damage").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnDamage {
    pub dice: String,
    pub kind: DamageType,
    #[serde(default)]
    pub at: TurnPoint,
    /// Only on a failed repeated save at the same point of the turn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub on_failed_save: bool,
}

/// What an effect is, as a scenario writes it and a session keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    pub name: String,
    #[serde(default = "dm", skip_serializing_if = "is_dm")]
    pub source: Source,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Damage each turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<TurnDamage>,
    /// A penalty to attack rolls and to ability checks that rely on sight (sight rot's): the same
    /// as `modifiers` of a `Bonus` on both.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub penalty: i32,
    /// What it does to d20 rolls: advantage, disadvantage or a bonus on attack rolls, ability
    /// checks or saving throws (`rules::modifiers`; a madness's "disadvantage on ability checks").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<RollModifier>,
    /// What else it does, in the DM's words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    pub duration: Duration,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<RepeatedSave>,
    /// Kept from the players: the players' view neither badges nor lists it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub secret: bool,
    /// A grapple: the source holds the creature, within its reach in feet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grapple_reach: Option<u32>,
    /// A disease's course, for a disease's effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disease: Option<diseases::Course>,
    /// Taking damage ends it (a short-term madness's paralysis).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ends_on_damage: bool,
    /// Taking damage wakes the creature: the effect's unconsciousness ends, the rest of it lasts
    /// (drow poison, essence of ether, oil of taggit: "the creature wakes up if it takes damage",
    /// still poisoned).
    #[serde(default, skip_serializing_if = "is_false")]
    pub wakes_on_damage: bool,
}

fn dm() -> Source {
    Source::Dm
}

fn is_dm(source: &Source) -> bool {
    *source == Source::Dm
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The highest order number a saved effect may have (far past any game's; counting on from it
/// never overflows).
const MAX_ORDER: u64 = 1 << 40;

/// Why effects read back from a session can't be played on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SavedEffectError {
    #[error("{0} effects: a creature carries at most {MAX_EFFECTS}")]
    TooMany(usize),
    #[error("the effect {name:?}: {why}")]
    Effect { name: String, why: EffectError },
    #[error("the effect {name:?} shares its number with another, or is numbered past any game's")]
    Numbering { name: String },
    #[error("the effect {name:?} has more rounds left or more saves made than it can")]
    Progress { name: String },
}

/// The most roll modifiers one effect may give.
pub const MAX_MODIFIERS: usize = 12;

/// Why an effect can't be given. Each names the field and the range it must be in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EffectError {
    #[error("an effect needs a name")]
    NoName,
    #[error("the `{what}`: {error}")]
    Text { what: &'static str, error: TextError },
    #[error("the save's `dc` is {0}: DCs run from 1 to 30")]
    Dc(i32),
    #[error("a duration of {0} rounds: at most {MAX_ROUNDS} (a year)")]
    TooLong(u64),
    #[error("`penalty` is {0}: from -20 to 20")]
    Penalty(i32),
    #[error("the damage {0}")]
    Dice(DiceError),
    #[error("\"until saved\" needs a repeated save")]
    UntilSavedWithoutSave,
    #[error("damage `on_failed_save` needs a repeated save at the same point of the turn (`at`)")]
    DamageOnFailedSaveWithoutSave,
    #[error("the save's `successes` is {0}: from 1 to 10")]
    Successes(u8),
    #[error("a concentration or grapple effect needs a creature as its source")]
    NeedsCreatureSource,
    #[error("`grapple_reach` is {0} ft: from 0 to 1000")]
    Reach(u32),
    #[error("a creature carries at most {MAX_EFFECTS} effects")]
    TooMany,
    #[error("`modifiers` holds {0}: at most {MAX_MODIFIERS}")]
    TooManyModifiers(usize),
    #[error("`modifiers[{index}]`: {error}")]
    Modifier { index: usize, error: ModifierError },
    #[error("`disease`: {0}")]
    Course(diseases::CourseError),
}

impl Effect {
    /// An effect with only a name, a source and a duration.
    pub fn new(name: &str, source: Source, duration: Duration) -> Self {
        Self {
            name: name.to_owned(),
            source,
            conditions: Vec::new(),
            damage: None,
            penalty: 0,
            note: String::new(),
            duration,
            save: None,
            secret: false,
            grapple_reach: None,
            disease: None,
            ends_on_damage: false,
            wakes_on_damage: false,
            modifiers: Vec::new(),
        }
    }

    /// Checks what a file, a session or a user gave: plain, bounded names and notes; every number
    /// within its range (DCs, successes, penalties, reaches, durations, modifiers, a disease's
    /// course); damage that always rolls.
    pub fn validate(&self) -> Result<(), EffectError> {
        let name = self.name.trim();
        if name.is_empty() {
            return Err(EffectError::NoName);
        }
        text::plain(&self.name, 60).map_err(|error| EffectError::Text { what: "name", error })?;
        text::plain(&self.note, 500).map_err(|error| EffectError::Text { what: "note", error })?;
        if let Some(save) = self.save {
            if !(1..=30).contains(&save.dc) {
                return Err(EffectError::Dc(save.dc));
            }
            if !(1..=10).contains(&save.successes) {
                return Err(EffectError::Successes(save.successes));
            }
        } else if self.duration == Duration::UntilSaved {
            return Err(EffectError::UntilSavedWithoutSave);
        }
        let rounds = match self.duration {
            Duration::Rounds(n) => Some(u64::from(n)),
            Duration::Minutes(n) => Some(u64::from(n) * u64::from(ROUNDS_PER_MINUTE)),
            Duration::Hours(n) => Some(u64::from(n) * u64::from(ROUNDS_PER_HOUR)),
            _ => None,
        };
        if let Some(rounds) = rounds.filter(|r| *r > u64::from(MAX_ROUNDS)) {
            return Err(EffectError::TooLong(rounds));
        }
        if !(-20..=20).contains(&self.penalty) {
            return Err(EffectError::Penalty(self.penalty));
        }
        if let Some(damage) = &self.damage {
            Notation::parse(&damage.dice).map_err(EffectError::Dice)?;
            if damage.on_failed_save && self.save.is_none_or(|save| save.at != damage.at) {
                return Err(EffectError::DamageOnFailedSaveWithoutSave);
            }
        }
        let by_creature = matches!(self.source, Source::Creature(_));
        if (self.duration == Duration::Concentration || self.grapple_reach.is_some()) && !by_creature {
            return Err(EffectError::NeedsCreatureSource);
        }
        if let Some(reach) = self.grapple_reach.filter(|r| *r > 1000) {
            return Err(EffectError::Reach(reach));
        }
        if self.modifiers.len() > MAX_MODIFIERS {
            return Err(EffectError::TooManyModifiers(self.modifiers.len()));
        }
        for (index, modifier) in self.modifiers.iter().enumerate() {
            modifier.validate().map_err(|error| EffectError::Modifier { index, error })?;
        }
        if let Some(course) = &self.disease {
            course.validate().map_err(EffectError::Course)?;
        }
        Ok(())
    }

    /// What it does to d20 rolls: its `modifiers`, and its `penalty` on attack rolls and on
    /// ability checks that rely on sight.
    pub fn roll_modifiers(&self) -> impl Iterator<Item = RollModifier> + '_ {
        let penalty = (self.penalty != 0).then_some(self.penalty).into_iter().flat_map(|p| {
            [
                RollModifier { on: RollKind::Attacks, abilities: Vec::new(), sight: false, change: Change::Bonus(p) },
                RollModifier { on: RollKind::Checks, abilities: Vec::new(), sight: true, change: Change::Bonus(p) },
            ]
        });
        self.modifiers.iter().cloned().chain(penalty)
    }

    /// The creature that gave it, if a creature did.
    pub fn source_creature(&self) -> Option<&str> {
        match &self.source {
            Source::Creature(id) => Some(id),
            _ => None,
        }
    }

    /// How potent it is, to choose among same-named effects (DMG "Combining Game Effects": "the
    /// most potent one ... applies"). A project call, in docs/rules.md: the harder save first,
    /// then the more damage each turn (its average), then the bigger penalty, then the more
    /// conditions.
    pub fn potency(&self) -> (i32, i32, u32, usize) {
        let dc = self.save.map_or(0, |s| s.dc);
        let damage = self.damage.as_ref().and_then(|d| Notation::parse(&d.dice).ok()?.average()).unwrap_or(0);
        (dc, damage, self.penalty.unsigned_abs(), self.conditions.len())
    }
}

/// One effect on a creature and where it stands: the rounds left of a timed duration, the
/// successes toward its end, when it was given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lasting {
    pub id: u32,
    pub effect: Effect,
    /// Rounds left of a timed duration.
    pub rounds_left: Option<u32>,
    /// Successful repeated saves so far.
    pub successes: u8,
    /// The order it was given in (later is more recent).
    pub given: u64,
    /// For "until the end of the source's next turn": that turn has started.
    pub source_turn_started: bool,
    /// Given outside a fight (a scene's effect, one the DM gave between fights): its first round
    /// begins at the first start of its clock's turn, which doesn't count it down, so "1d6 fire
    /// for two rounds" burns twice (docs/rules.md, "Effects that last").
    #[serde(default, skip_serializing_if = "is_false")]
    pub before_first_round: bool,
}

/// Why an effect ended: the log says it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Its time ran out.
    TimeUp,
    /// The creature succeeded on its repeated save (`successes` of them).
    Saved,
    /// The source stopped concentrating, with why.
    ConcentrationEnded,
    /// The grappler is incapacitated (PHB "Escaping a Grapple").
    GrapplerIncapacitated,
    /// The grappled creature is no longer within the grappler's reach (PHB "Escaping a
    /// Grapple": "an effect removes the grappled creature from the reach").
    OutOfReach,
    /// The creature took damage.
    Damaged,
    /// The DM ended it.
    Removed,
    /// The creature recovered from the disease, or the madness was cured.
    Cured,
    /// The creature died.
    Died,
}

/// What happens to a creature's effects: the log and the map show each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EffectEvent {
    Given {
        name: String,
    },
    /// A same-named effect in force already: the new one waits (or the old one now does).
    Waiting {
        name: String,
    },
    Ended {
        name: String,
        reason: EndReason,
    },
    /// Damage woke the creature from the effect's sleep; the rest of the effect lasts.
    Woke {
        name: String,
    },
    /// The creature is immune: a petrified creature to poison and disease (PHB appendix A,
    /// "Petrified").
    Immune {
        name: String,
        because: Condition,
    },
}

/// What comes due at a point of a turn, for the tracker to roll, in order: an effect's damage
/// each turn, its save, then its damage on a failed save (due only if that save fails).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Due {
    Save { effect: u32, name: String, save: RepeatedSave },
    Damage { effect: u32, name: String, damage: TurnDamage },
}

/// The effects on one creature, and the conditions they gave it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effects {
    /// Read with its bound: a session file listing more is refused as it is read.
    #[serde(deserialize_with = "super::bounded::at_most::<_, _, MAX_EFFECTS>")]
    pub list: Vec<Lasting>,
    /// The conditions the effects set on the creature, to take off when they end.
    #[serde(default)]
    pub given_conditions: Conditions,
    next_id: u32,
    #[serde(default)]
    next_given: u64,
}

impl Effects {
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Effects read back from a saved session, checked as a scenario's are and where each
    /// stands: at most [`MAX_EFFECTS`], each valid ([`Effect::validate`]), no two with one id,
    /// rounds left within [`MAX_ROUNDS`], successes within the save's. The numbers the next
    /// effect will take are set past the ones there (a file written before they were kept has
    /// none). A creature source is the caller's to check (it needs the board).
    pub fn checked(mut self) -> Result<Self, SavedEffectError> {
        if self.list.len() > MAX_EFFECTS {
            return Err(SavedEffectError::TooMany(self.list.len()));
        }
        let mut ids = BTreeSet::new();
        for lasting in &self.list {
            let name = || lasting.effect.name.clone();
            lasting.effect.validate().map_err(|why| SavedEffectError::Effect { name: name(), why })?;
            if !ids.insert(lasting.id) || lasting.given > MAX_ORDER {
                return Err(SavedEffectError::Numbering { name: name() });
            }
            let needed = lasting.effect.save.map_or(0, |s| s.successes);
            if lasting.rounds_left.is_some_and(|r| r > MAX_ROUNDS) || lasting.successes > needed {
                return Err(SavedEffectError::Progress { name: name() });
            }
        }
        let past = self.list.iter().map(|l| l.given + 1).max().unwrap_or(0);
        self.next_given = self.next_given.clamp(past, MAX_ORDER + 1);
        while ids.contains(&self.next_id) {
            self.next_id = self.next_id.wrapping_add(1);
        }
        Ok(self)
    }

    /// Gives `effect`: it applies unless a same-named one in force is more potent, then it
    /// waits while their durations overlap (DMG "Combining Game Effects").
    pub fn give(&mut self, effect: Effect) -> Result<(u32, EffectEvent), EffectError> {
        self.give_at(effect, true)
    }

    /// As [`Effects::give`], outside a fight: its first round begins at its clock's first turn.
    pub fn give_before_fight(&mut self, effect: Effect) -> Result<(u32, EffectEvent), EffectError> {
        self.give_at(effect, false)
    }

    fn give_at(&mut self, effect: Effect, in_fight: bool) -> Result<(u32, EffectEvent), EffectError> {
        effect.validate()?;
        if self.list.len() >= MAX_EFFECTS {
            return Err(EffectError::TooMany);
        }
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        let given = self.next_given;
        self.next_given += 1;
        let name = effect.name.clone();
        let rounds_left = effect.duration.rounds();
        let before_first_round = !in_fight && rounds_left.is_some();
        self.list.push(Lasting {
            id,
            effect,
            rounds_left,
            successes: 0,
            given,
            source_turn_started: false,
            before_first_round,
        });
        let event = if self.in_force_id(&name) == Some(id) {
            EffectEvent::Given { name }
        } else {
            EffectEvent::Waiting { name }
        };
        Ok((id, event))
    }

    /// The effect in force among those named `name`: the most potent, the most recent of equals.
    fn in_force_id(&self, name: &str) -> Option<u32> {
        let named = || self.list.iter().filter(|l| l.effect.name.eq_ignore_ascii_case(name));
        let mut first_two = named().take(2);
        match (first_two.next(), first_two.next()) {
            (Some(only), None) => Some(only.id),
            _ => named().max_by_key(|l| (l.effect.potency(), l.given)).map(|l| l.id),
        }
    }

    /// Whether this effect applies now (none more potent of its name).
    pub fn in_force(&self, lasting: &Lasting) -> bool {
        self.in_force_id(&lasting.effect.name) == Some(lasting.id)
    }

    /// The effects that apply now, in the order given.
    pub fn applying(&self) -> impl Iterator<Item = &Lasting> {
        self.list.iter().filter(|l| self.in_force(l))
    }

    pub fn get(&self, id: u32) -> Option<&Lasting> {
        self.list.iter().find(|l| l.id == id)
    }

    /// The conditions the effects in force give, as they list them: the prone that falling
    /// unconscious brings is the creature's, not the effect's, so it stays when the creature
    /// wakes (PHB appendix A, "Unconscious").
    pub fn conditions(&self) -> Conditions {
        Conditions::exactly(self.applying().flat_map(|l| l.effect.conditions.iter().copied()))
    }

    /// What the effects in force do to d20 rolls, each modifier with its effect's name.
    pub fn modifiers(&self) -> RollModifiers {
        RollModifiers(
            self.applying().flat_map(|l| l.effect.roll_modifiers().map(|m| (l.effect.name.clone(), m))).collect(),
        )
    }

    /// Brings `conditions` in step with the effects: sets what they give now, takes off what
    /// they gave and no longer do. Conditions the DM set by hand and no effect gave stay.
    pub fn update_conditions(&mut self, conditions: &mut Conditions) {
        self.update_conditions_but(conditions, &BTreeSet::new());
    }

    /// As [`Self::update_conditions`], giving none of the conditions the creature is `immune`
    /// to (its stat block's "Condition Immunities").
    pub fn update_conditions_but(&mut self, conditions: &mut Conditions, immune: &BTreeSet<Condition>) {
        let now = self.conditions();
        for condition in Condition::ALL {
            let gave = self.given_conditions.has_exactly(condition);
            let gives = now.has_exactly(condition) && !immune.contains(&condition);
            if gives && !conditions.has_exactly(condition) {
                conditions.set(condition, true);
            } else if gave && !gives {
                conditions.set(condition, false);
            }
        }
        self.given_conditions = now;
    }

    /// Ends the effect `id`, for `reason`.
    pub fn end(&mut self, id: u32, reason: EndReason) -> Option<EffectEvent> {
        let at = self.list.iter().position(|l| l.id == id)?;
        let lasting = self.list.remove(at);
        Some(EffectEvent::Ended { name: lasting.effect.name, reason })
    }

    /// Ends every effect `which` picks, for `reason`.
    pub fn end_where(&mut self, which: impl Fn(&Lasting) -> bool, reason: EndReason) -> Vec<EffectEvent> {
        let ids: Vec<u32> = self.list.iter().filter(|l| which(l)).map(|l| l.id).collect();
        ids.into_iter().filter_map(|id| self.end(id, reason.clone())).collect()
    }

    /// At `point` of the turn of the creature `whose` (a scenario id), for this creature (`me`):
    /// timed durations count down at the start of their clock's turn (the source creature's, else
    /// this creature's own), so "1 round" lasts until the start of the source's next turn; the
    /// effects that last until the start of this creature's next turn, or the end of the
    /// source's next turn, end there. Returns what ended, and the saves and damage now due for
    /// the effects in force (at this creature's own turn only), for the tracker to roll.
    pub fn at_turn(&mut self, me: &str, whose: &str, point: TurnPoint) -> (Vec<EffectEvent>, Vec<Due>) {
        let mut ended = Vec::new();
        let mut over = Vec::new();
        for lasting in &mut self.list {
            let clock = lasting.effect.source_creature().unwrap_or(me);
            let own = whose == me;
            match (lasting.effect.duration, point) {
                (Duration::StartOfOwnNextTurn, TurnPoint::Start) if own => over.push(lasting.id),
                (Duration::EndOfSourcesNextTurn, TurnPoint::Start) if clock == whose => {
                    lasting.source_turn_started = true;
                }
                (Duration::EndOfSourcesNextTurn, TurnPoint::End) if clock == whose && lasting.source_turn_started => {
                    over.push(lasting.id);
                }
                (_, TurnPoint::Start) if clock == whose && lasting.before_first_round => {
                    lasting.before_first_round = false;
                }
                (_, TurnPoint::Start) if clock == whose => {
                    if let Some(left) = lasting.rounds_left.as_mut() {
                        *left = left.saturating_sub(1);
                        if *left == 0 {
                            over.push(lasting.id);
                        }
                    }
                }
                _ => {}
            }
        }
        for id in over {
            ended.extend(self.end(id, EndReason::TimeUp));
        }
        let mut due = Vec::new();
        if whose == me {
            for lasting in self.applying() {
                let damage = |on_failed_save: bool| {
                    let damage =
                        lasting.effect.damage.as_ref().filter(|d| d.at == point && d.on_failed_save == on_failed_save);
                    damage.map(|d| Due::Damage {
                        effect: lasting.id,
                        name: lasting.effect.name.clone(),
                        damage: d.clone(),
                    })
                };
                due.extend(damage(false));
                if let Some(save) = lasting.effect.save.filter(|s| s.at == point) {
                    due.push(Due::Save { effect: lasting.id, name: lasting.effect.name.clone(), save });
                }
                due.extend(damage(true));
            }
        }
        (ended, due)
    }

    /// A repeated save was rolled for effect `id`: a success counts toward its end.
    pub fn save_rolled(&mut self, id: u32, success: bool) -> Option<EffectEvent> {
        let lasting = self.list.iter_mut().find(|l| l.id == id)?;
        let needed = lasting.effect.save?.successes;
        if !success {
            return None;
        }
        lasting.successes = lasting.successes.saturating_add(1);
        (lasting.successes >= needed).then_some(()).and_then(|_| self.end(id, EndReason::Saved))
    }

    /// The creature took damage: the effects that end on damage end, and those that put it to
    /// sleep wake it (their unconsciousness ends; the rest lasts).
    pub fn damaged(&mut self) -> Vec<EffectEvent> {
        let mut events = self.end_where(|l| l.effect.ends_on_damage, EndReason::Damaged);
        for lasting in self.list.iter_mut().filter(|l| l.effect.wakes_on_damage) {
            lasting.effect.wakes_on_damage = false;
            lasting.effect.conditions.retain(|&c| c != Condition::Unconscious);
            events.push(EffectEvent::Woke { name: lasting.effect.name.clone() });
        }
        events
    }

    /// Time passes out of combat (a rest, a march): timed durations lose `rounds`.
    pub fn pass_time(&mut self, rounds: u32) -> Vec<EffectEvent> {
        let mut over = Vec::new();
        for lasting in &mut self.list {
            if let Some(left) = lasting.rounds_left.as_mut() {
                *left = left.saturating_sub(rounds);
                if *left == 0 {
                    over.push(lasting.id);
                }
            }
        }
        over.into_iter().filter_map(|id| self.end(id, EndReason::TimeUp)).collect()
    }

    /// The concentration effects `caster` keeps up on this creature.
    pub fn held_by(&self, caster: &str) -> impl Iterator<Item = &Lasting> {
        self.list
            .iter()
            .filter(move |l| l.effect.duration == Duration::Concentration && l.effect.source_creature() == Some(caster))
    }

    /// Ends what `caster`'s concentration kept up on this creature (PHB "Concentration").
    pub fn concentration_ended(&mut self, caster: &str) -> Vec<EffectEvent> {
        self.end_where(
            |l| l.effect.duration == Duration::Concentration && l.effect.source_creature() == Some(caster),
            EndReason::ConcentrationEnded,
        )
    }

    /// The grapples on this creature, with their grappler and reach.
    pub fn grapples(&self) -> impl Iterator<Item = (u32, &str, u32)> {
        self.list.iter().filter_map(|l| Some((l.id, l.effect.source_creature()?, l.effect.grapple_reach?)))
    }
}

/// The magic that ends an affliction: lesser restoration ("You touch a creature and can end
/// either one disease or one condition afflicting it. The condition can be blinded, deafened,
/// paralyzed, or poisoned", SRD 5.1; and "a lesser restoration spell can rid a character of a
/// short-term or long-term madness", DMG "Curing Madness") and greater restoration ("one effect
/// that charmed or petrified the target", SRD 5.1; "A greater restoration spell or more powerful
/// magic is required to rid a character of indefinite madness", DMG). Each ends one effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cure {
    LesserRestoration,
    GreaterRestoration,
}

impl Cure {
    pub fn name(self) -> &'static str {
        match self {
            Cure::LesserRestoration => "lesser restoration",
            Cure::GreaterRestoration => "greater restoration",
        }
    }

    /// Whether it ends `effect`: lesser restoration a disease, a short- or long-term madness, or
    /// an effect that makes the creature blinded, deafened, paralyzed or poisoned (the whole
    /// effect: a call, docs/rules.md); greater restoration any madness, or an effect that charms
    /// or petrifies it.
    pub fn ends(self, effect: &Effect) -> bool {
        let gives = |list: &[Condition]| effect.conditions.iter().any(|c| list.contains(c));
        match (self, &effect.source) {
            (Cure::LesserRestoration, Source::Disease(_)) => true,
            (Cure::LesserRestoration, Source::Madness(kind)) => *kind != madness::MadnessKind::Indefinite,
            (Cure::GreaterRestoration, Source::Madness(_)) => true,
            (Cure::LesserRestoration, _) => {
                gives(&[Condition::Blinded, Condition::Deafened, Condition::Paralyzed, Condition::Poisoned])
            }
            (Cure::GreaterRestoration, _) => gives(&[Condition::Charmed, Condition::Petrified]),
        }
    }
}

impl Effects {
    /// Ends the one effect `id` with `cure`, if the cure ends it ([`Cure::ends`]).
    pub fn cure(&mut self, id: u32, cure: Cure) -> Option<EffectEvent> {
        self.get(id).filter(|l| cure.ends(&l.effect))?;
        self.end(id, EndReason::Cured)
    }
}

/// The DC of the Constitution save to keep concentrating after taking `damage`: 10 or half the
/// damage, whichever is higher (PHB chapter 10, "Concentration").
pub fn concentration_dc(damage: i32) -> i32 {
    (damage / 2).max(10)
}

/// Whether a creature's concentration ends without a save: incapacitated or dead (PHB
/// "Concentration": "You lose concentration on a spell if you are incapacitated or if you die").
pub fn concentration_broken(conditions: &Conditions, dead: bool) -> bool {
    dead || conditions.has(Condition::Incapacitated)
}

/// Whether a grapple holds: it ends when the grappler is incapacitated, or when the grappled
/// creature is no longer within its reach, forced movement included (PHB chapter 9, "Escaping a
/// Grapple"). `distance` is the rules' distance between the two, elevation included.
pub fn grapple_holds(grappler_incapacitated: bool, distance: u32, reach: u32) -> Result<(), EndReason> {
    if grappler_incapacitated {
        Err(EndReason::GrapplerIncapacitated)
    } else if distance > reach {
        Err(EndReason::OutOfReach)
    } else {
        Ok(())
    }
}

/// How many feet of movement each foot costs a grappler dragging what it holds: half speed,
/// unless the grappled creature is two or more sizes smaller (PHB chapter 9, "Moving a Grappled
/// Creature").
pub fn drag_factor(grappler: Size, grappled: Size) -> u32 {
    if (grappler as i32) - (grappled as i32) >= 2 { 1 } else { 2 }
}

/// A creature's sheet as its effects leave it: what they do to its d20 rolls in
/// `sheet.effects`, which its checks and saves read, and their bonus on attack rolls (sight rot's
/// "-1 penalty to attack rolls", SRD 5.1) added to each attack's bonus, which every attack roll
/// reads (the map's, the command line's and a chase's).
pub fn hampered(sheet: &mut crate::rules::creature::Sheet, effects: &Effects) {
    sheet.effects = effects.modifiers();
    for attack in &mut sheet.attacks {
        let roll = super::modifiers::D20::Attack { weapon: attack.kind().is_weapon() };
        attack.bonus = attack.bonus.saturating_add(sheet.effects.bonus(roll));
    }
}

/// What each foot of `grappler`'s movement costs while it drags the creatures it holds: the
/// largest [`drag_factor`] among them, 1 when it holds none. `creatures` gives each creature's
/// size and effects.
pub fn drag_cost<'a>(grappler: &str, size: Size, creatures: impl IntoIterator<Item = (Size, &'a Effects)>) -> u32 {
    creatures
        .into_iter()
        .filter(|(_, effects)| effects.grapples().any(|(_, by, _)| by == grappler))
        .map(|(held, _)| drag_factor(size, held))
        .max()
        .unwrap_or(1)
}

#[cfg(test)]
mod tests;
