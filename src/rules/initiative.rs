//! The initiative order: who acts when, round after round. The battle map's turns and the
//! chase's rounds are to share it (issue: chases).
//!
//! PHB "Combat": each participant rolls a Dexterity check for initiative and acts in order from
//! the highest; DMG "Tracking Initiative". Being a Dexterity check, the roll has what the
//! creature's ability checks have: disadvantage while poisoned, frightened or exhausted (PHB
//! appendix A, `conditions::Rolling::sources`). Ties: the higher Dexterity modifier goes
//! first, then a roll-off from the session's dice (a project call, recorded in docs/rules.md).

use serde::{Deserialize, Serialize};

use super::advantage::Sources;
use super::conditions::Rolling;
use super::dice::{DiceError, DiceRoll, RollMode, SeededDice};
use super::modifiers::D20;

/// A creature about to roll initiative: its id, its Dexterity modifier, and what its conditions
/// and exhaustion give its Dexterity check (PHB "Initiative": "a Dexterity check"; appendix A,
/// "Poisoned" and "Exhaustion": disadvantage on ability checks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roller {
    pub id: String,
    pub dex: i8,
    /// Why the check has advantage or disadvantage ([`Rolling::sources`]).
    pub sources: Sources,
}

impl Roller {
    /// The creature `id` with Dexterity modifier `dex`, and what its conditions, exhaustion and
    /// effects give its Dexterity check ([`Rolling::sources`]).
    pub fn new(id: &str, dex: i8, rolling: Rolling) -> Self {
        Self { id: id.to_owned(), dex, sources: rolling.sources(D20::INITIATIVE) }
    }
}

/// One participant's place in the order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    /// The initiative result (d20 + Dexterity modifier).
    pub initiative: i32,
    pub dex: i8,
    /// The roll-off that settles a tie with the same modifier.
    pub tiebreak: i32,
    /// Kept from the players (DMG "Tracking Initiative", "Hidden List"): only the DM's view shows
    /// it.
    pub hidden: bool,
}

/// The most entries an order read back from a file may have: more than a scenario of the
/// largest size can hold tokens.
pub const MAX_ENTRIES: usize = 100_000;

/// The order of a fight or a chase, and whose turn it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeOrder {
    /// Highest first; one per participant, so no more than a board has tokens.
    #[serde(deserialize_with = "super::bounded::at_most::<_, _, MAX_ENTRIES>")]
    pub entries: Vec<Entry>,
    /// The index of the participant whose turn it is; `None` before the first turn.
    pub current: Option<usize>,
    /// Starts at 1 with the first turn.
    pub round: u32,
}

impl InitiativeOrder {
    /// Rolls initiative (d20 + Dexterity modifier, with the check's advantage or disadvantage) for
    /// each participant, in the order given, and sorts them; also returns each participant's roll,
    /// for the log.
    pub fn roll(participants: &[Roller], dice: &mut SeededDice) -> Result<(Self, Vec<DiceRoll>), DiceError> {
        let mut order = Self::default();
        let rolls = participants.iter().map(|roller| order.join(roller, dice)).collect::<Result<_, _>>()?;
        Ok((order, rolls))
    }

    /// Sorts from the highest; a stable sort, so entries that tie on everything (a creature that
    /// delayed behind another) keep their order.
    fn sort(&mut self) {
        let current_id = self.current.map(|i| self.entries[i].id.clone());
        self.entries
            .sort_by(|a, b| b.initiative.cmp(&a.initiative).then(b.dex.cmp(&a.dex)).then(b.tiebreak.cmp(&a.tiebreak)));
        self.current = current_id.and_then(|id| self.entries.iter().position(|e| e.id == id));
    }

    /// A new arrival rolls initiative and takes its place (DMG "Role Reversal": new participants
    /// join with initiative), with the advantage or disadvantage of its Dexterity check. The
    /// current turn stays with whoever has it. Returns the roll.
    pub fn join(&mut self, roller: &Roller, dice: &mut SeededDice) -> Result<DiceRoll, DiceError> {
        let Roller { id, dex, sources } = roller;
        let (id, dex) = (id.as_str(), *dex);
        let notation = format!("1d20{dex:+}");
        let roll = dice.roll(&notation, sources.mode())?;
        let initiative = roll.total;
        // The roll-off that settles a tie of initiative and Dexterity.
        let tiebreak = dice.roll("1d100", RollMode::Normal)?.total;
        self.entries.retain(|e| e.id != id);
        self.entries.push(Entry { id: id.to_owned(), initiative, dex, tiebreak, hidden: false });
        self.sort();
        Ok(roll)
    }

    /// Takes in a participant with the initiative it already has, from another order (DMG
    /// "Beginning a Chase": only participants not already in initiative order roll it).
    pub fn insert(&mut self, entry: Entry) {
        self.entries.retain(|e| e.id != entry.id);
        self.entries.push(entry);
        self.sort();
    }

    /// A participant's place, if it has one.
    pub fn entry(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// Sets a participant's initiative by hand (the DM's override).
    pub fn set(&mut self, id: &str, initiative: i32) {
        if let Some(e) = self.entries.iter_mut().find(|e| e.id == id) {
            e.initiative = initiative;
        }
        self.sort();
    }

    /// Takes a participant out (dropped out, gave up); if it was its turn, the turn passes to
    /// whoever comes next.
    pub fn remove(&mut self, id: &str) {
        let Some(index) = self.entries.iter().position(|e| e.id == id) else { return };
        self.entries.remove(index);
        self.current = match self.current {
            _ if self.entries.is_empty() => None,
            Some(c) if c > index => Some(c - 1),
            // It was the leaver's turn: point at the one before, so `pass_turn` gives the one after.
            // At the head of the order that is the last one, with the round wound back by one
            // because `pass_turn` will count it again when it wraps.
            Some(c) if c == index && index == 0 => {
                self.round = self.round.saturating_sub(1);
                Some(self.entries.len() - 1)
            }
            Some(c) if c == index => Some(index - 1),
            other => other,
        };
    }

    /// The index of whoever acts next, and whether a new round starts with it.
    fn next_index(&self) -> (usize, bool) {
        match self.current {
            Some(c) if c + 1 < self.entries.len() => (c + 1, false),
            _ => (0, true),
        }
    }

    /// Who acts next, without passing the turn: for the hand-over between turns.
    pub fn upcoming(&self) -> Option<&Entry> {
        self.entries.get(self.next_index().0)
    }

    /// The round the next turn is played in: this one, or the next after the round's last turn
    /// (1 before the first turn).
    pub fn upcoming_round(&self) -> u32 {
        self.round + u32::from(self.next_index().1)
    }

    /// Passes the turn to the next participant, starting a new round after the last; returns who.
    pub fn pass_turn(&mut self) -> Option<&Entry> {
        if self.entries.is_empty() {
            return None;
        }
        let (next, new_round) = self.next_index();
        if new_round {
            self.round += 1;
        }
        self.current = Some(next);
        self.entries.get(next)
    }

    /// The creature whose turn it is waits: it takes its place right behind the next one (same
    /// initiative), and the turn passes to that one, in the same round. Returns who acts now, or
    /// `None` when nobody comes after it this round.
    pub fn delay(&mut self) -> Option<&Entry> {
        let c = self.current?;
        if c + 1 >= self.entries.len() {
            return None;
        }
        let ahead = &self.entries[c + 1];
        let (initiative, dex, tiebreak) = (ahead.initiative, ahead.dex, ahead.tiebreak);
        let delayer = &mut self.entries[c];
        (delayer.initiative, delayer.dex, delayer.tiebreak) = (initiative, dex, tiebreak);
        self.entries.swap(c, c + 1);
        self.entries.get(c)
    }

    /// Shows or hides an entry from the players.
    pub fn set_hidden(&mut self, id: &str, hidden: bool) {
        if let Some(e) = self.entries.iter_mut().find(|e| e.id == id) {
            e.hidden = hidden;
        }
    }

    /// Whose turn it is.
    pub fn current(&self) -> Option<&Entry> {
        self.current.and_then(|c| self.entries.get(c))
    }

    /// The participant after `id` in the order (wrapping round): who a chase complication affects.
    pub fn after(&self, id: &str) -> Option<&Entry> {
        let index = self.entries.iter().position(|e| e.id == id)?;
        (self.entries.len() > 1).then(|| &self.entries[(index + 1) % self.entries.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::conditions::{Condition, Conditions, NO_EFFECTS};

    fn roller(id: &str, name: &str, dex: i8, conditions: &Conditions, exhaustion: u8) -> Roller {
        Roller::new(id, dex, Rolling { who: name, conditions, exhaustion, effects: NO_EFFECTS })
    }

    /// A creature with no condition and no exhaustion.
    fn plain(id: &str, dex: i8) -> Roller {
        roller(id, id, dex, &Conditions::default(), 0)
    }

    fn party() -> Vec<Roller> {
        [("brom", 0), ("lia", 4), ("sera", 0), ("thug", 0)].iter().map(|(id, dex)| plain(id, *dex)).collect()
    }

    /// PHB "Initiative": initiative is a Dexterity check; appendix A: a poisoned creature, and one
    /// with exhaustion (level 1 on), has disadvantage on ability checks. The roll takes it.
    #[test]
    fn poison_and_exhaustion_give_initiative_disadvantage() {
        let poisoned = roller("thug", "Thug", 2, &Conditions::new([Condition::Poisoned]), 0);
        let exhausted = roller("lia", "Lia", 4, &Conditions::default(), 1);
        let prone = roller("brom", "Brom", 0, &Conditions::new([Condition::Prone]), 0);
        let mut order = InitiativeOrder::default();
        let mut dice = SeededDice::new(9);
        assert_eq!(order.join(&poisoned, &mut dice).expect("rolls").mode, RollMode::Disadvantage);
        assert_eq!(poisoned.sources.describe(), "disadvantage: Thug is poisoned");
        assert_eq!(order.join(&exhausted, &mut dice).expect("rolls").mode, RollMode::Disadvantage);
        assert_eq!(order.join(&prone, &mut dice).expect("rolls").mode, RollMode::Normal, "prone: no ability check");
        let (_, rolls) = InitiativeOrder::roll(&[poisoned, plain("sera", 0)], &mut dice).expect("rolls");
        assert_eq!(rolls.iter().map(|r| r.mode).collect::<Vec<_>>(), [RollMode::Disadvantage, RollMode::Normal]);
    }

    #[test]
    fn the_order_runs_from_the_highest_and_replays_by_seed() {
        let order = InitiativeOrder::roll(&party(), &mut SeededDice::new(8)).expect("rolls").0;
        assert_eq!(order, InitiativeOrder::roll(&party(), &mut SeededDice::new(8)).expect("rolls").0);
        assert!(order.entries.windows(2).all(|w| w[0].initiative >= w[1].initiative));
        let lia = order.entries.iter().find(|e| e.id == "lia").expect("lia");
        assert!((5..=24).contains(&lia.initiative), "d20 + 4");
    }

    #[test]
    fn ties_go_to_the_higher_dexterity_then_the_roll_off() {
        let mut order = InitiativeOrder::roll(&party(), &mut SeededDice::new(1)).expect("rolls").0;
        for id in ["brom", "lia", "sera", "thug"] {
            order.set(id, 12);
        }
        assert_eq!(order.entries[0].id, "lia", "Dex +4 wins the tie");
        let rest: Vec<(i8, i32)> = order.entries[1..].iter().map(|e| (e.dex, e.tiebreak)).collect();
        assert!(rest.iter().all(|(_, roll)| (1..=100).contains(roll)), "a d100 roll-off: {rest:?}");
        assert!(rest.windows(2).all(|w| w[0] >= w[1]), "then the higher Dexterity, then the roll-off: {rest:?}");
    }

    #[test]
    fn turns_go_round_and_rounds_count() {
        let mut order = InitiativeOrder::roll(&party(), &mut SeededDice::new(2)).expect("rolls").0;
        let first = order.pass_turn().map(|e| e.id.clone());
        assert_eq!(order.round, 1);
        for _ in 0..3 {
            order.pass_turn();
        }
        assert_eq!(order.pass_turn().map(|e| e.id.clone()), first);
        assert_eq!(order.round, 2);
    }

    /// Between turns the round to come is the next one only after the round's last turn.
    #[test]
    fn the_upcoming_round_turns_over_after_the_last_turn() {
        let mut order = InitiativeOrder::roll(&party(), &mut SeededDice::new(2)).expect("rolls").0;
        assert_eq!((order.round, order.upcoming_round()), (0, 1), "before the first turn");
        for _ in 0..3 {
            order.pass_turn();
            assert_eq!(order.upcoming_round(), 1);
        }
        order.pass_turn();
        assert_eq!((order.round, order.upcoming_round()), (1, 2), "the last of round 1 has acted");
        order.pass_turn();
        assert_eq!((order.round, order.upcoming_round()), (2, 2), "round 2 is played");
    }

    #[test]
    fn the_first_in_order_leaving_keeps_the_round() {
        let mut order = InitiativeOrder::roll(&party(), &mut SeededDice::new(4)).expect("rolls").0;
        let first = order.pass_turn().map(|e| e.id.clone()).expect("first");
        let second = order.after(&first).map(|e| e.id.clone()).expect("second");
        order.remove(&first);
        assert_eq!(order.pass_turn().map(|e| e.id.clone()), Some(second));
        assert_eq!(order.round, 1);
    }

    #[test]
    fn a_delayer_acts_right_after_the_next_one_and_stays_there() {
        let mut dice = SeededDice::new(5);
        let mut order = InitiativeOrder::roll(&party(), &mut dice).expect("rolls").0;
        let ids = |o: &InitiativeOrder| o.entries.iter().map(|e| e.id.clone()).collect::<Vec<_>>();
        let before = ids(&order);
        order.pass_turn();
        let now = order.delay().map(|e| e.id.clone());
        assert_eq!(now.as_ref(), Some(&before[1]), "the next one acts now");
        assert_eq!(order.round, 1);
        assert_eq!(order.pass_turn().map(|e| e.id.clone()).as_ref(), Some(&before[0]), "then the delayer");
        order.join(&plain("wolf", 2), &mut dice).expect("joins");
        let after = ids(&order);
        let at = |id: &str| after.iter().position(|e| e == id).expect("there");
        assert_eq!(at(&before[0]), at(&before[1]) + 1, "a later sort keeps the delayer behind: {after:?}");
        while order.current().is_some_and(|e| e.id != *after.last().expect("someone")) {
            order.pass_turn();
        }
        assert!(order.delay().is_none(), "the last of the round has nobody to wait for");
    }

    #[test]
    fn arrivals_join_and_leavers_hand_on_the_turn() {
        let mut dice = SeededDice::new(3);
        let mut order = InitiativeOrder::roll(&party(), &mut dice).expect("rolls").0;
        order.pass_turn();
        let acting = order.current().map(|e| e.id.clone()).expect("someone acts");
        order.join(&plain("wolf", 2), &mut dice).expect("joins");
        assert_eq!(order.entries.len(), 5);
        assert_eq!(order.current().map(|e| e.id.clone()), Some(acting.clone()), "the turn stays");
        let after = order.after(&acting).map(|e| e.id.clone()).expect("someone after");
        order.remove(&acting);
        assert_eq!(order.entries.len(), 4);
        assert_eq!(order.pass_turn().map(|e| e.id.clone()), Some(after), "the next one still comes next");
    }
}
