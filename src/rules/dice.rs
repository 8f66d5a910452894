//! Dice in standard notation (`2d6+3`, `4d6kh3`, `d20`, `d100`), parsed by the `tyche` crate and
//! rolled with the session's one seeded generator, so that a game replays.
//!
//! DMG "Dice Rolling" and "Advantage and Disadvantage" (002_ce573f1e51986339.txt): with
//! advantage or disadvantage the roll is made twice and the higher or the lower result used.

use chacha20::ChaCha12Rng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};
use tyche::dice::DieRoll;
use tyche::dice::roller::Roller;
use tyche::expr::Describe;

/// The longest notation accepted.
pub const MAX_NOTATION: usize = 200;

/// The most dice in one set, and the most sides a die may have (tyche keeps both in a byte).
pub const MAX_DICE: u32 = 255;
pub const MAX_SIDES: u32 = 255;

/// The most dice one roll may be expected to throw, rerolls and explosions included.
pub const MAX_EXPECTED_DICE: f64 = 2000.0;

/// The most dice one roll may throw: past this the roll is refused (an exploding roll that keeps
/// exploding, however unlikely, stops here).
pub const MAX_ROLLED_DICE: u32 = 100_000;

/// The largest total, and the smallest, that notation may reach at any step of its sum: far past
/// any damage or check in the game, and far enough inside `i32` that totals can be doubled and
/// added without overflowing.
pub const MAX_TOTAL: i64 = 1_000_000;

/// Whether a roll is made once, or twice keeping the higher or the lower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollMode {
    #[default]
    Normal,
    Advantage,
    Disadvantage,
}

/// Why a roll can't be made. `text` is the notation as given; `why` the `tyche` crate's own
/// words for what it couldn't read or roll.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    #[error("write dice such as 2d6+3, 4d6kh3 or d20")]
    Empty,
    #[error("the notation is {length} characters long; dice are written in at most {MAX_NOTATION}")]
    TooLong { length: usize },
    #[error("{text:?} is not dice notation: {why}")]
    NotNotation { text: String, why: String },
    #[error("{count} dice in one set: a set has at most {MAX_DICE} dice (write 200d6+55d6 for more)")]
    TooManyInASet { count: u64 },
    #[error("a d{sides}: a die has at most {MAX_SIDES} sides")]
    TooManySides { sides: u64 },
    #[error("{text:?} has dice with no sides: a die has at least one")]
    NoSides { text: String },
    #[error(
        "{text:?} rerolls or explodes again and again on {percent}% of a d{sides}'s faces; a repeated reroll or \
         explosion may be met by at most half of them"
    )]
    RunsAway { text: String, percent: u32, sides: u8 },
    #[error("{text:?} would throw about {expected} dice; a roll may throw at most {MAX_EXPECTED_DICE:.0}")]
    TooManyExpected { text: String, expected: u64 },
    #[error("{text:?} threw {thrown} dice; a roll may throw at most {MAX_ROLLED_DICE}")]
    TooManyThrown { text: String, thrown: u32 },
    #[error("{text:?} raises each d{sides} to at least {min}, more than it has faces: a minimum is at most {sides}")]
    MinimumPastFaces { text: String, min: u8, sides: u8 },
    #[error("{text:?} has {value} after a modifier (kh, kl, min, max, r or x): it is at most {MAX_SIDES}")]
    ModifierTooLarge { text: String, value: u64 },
    #[error("{text:?} keeps {keep} of {count} dice: it can keep at most the {count} it rolls")]
    KeepsMoreThanRolled { text: String, keep: u8, count: u8 },
    #[error("{text:?} caps each die at 0: a maximum is at least 1")]
    MaximumZero { text: String },
    #[error("{text:?} {}; dice notation stays within ±{MAX_TOTAL} at every step", reach(*low, *high))]
    TotalOutOfRange { text: String, low: i64, high: i64 },
    #[error("{text:?} divides by something that can be 0")]
    DividesByZero { text: String },
    #[error("can't roll {text:?}: {why}")]
    CantRoll { text: String, why: String },
    #[error("can't total {text:?}: it divides by 0")]
    CantTotal { text: String },
    #[error("{table} is not rolled on")]
    NotRolledOn { table: String },
}

/// A step's totals in words: one number, or a range.
fn reach(low: i64, high: i64) -> String {
    if low == high { format!("has the number {low}") } else { format!("could total from {low} to {high}") }
}

impl Serialize for DiceError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// One evaluation of the notation: every die shown, and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evaluation {
    /// tyche's description, such as `2d6[4, 2] + 3`.
    pub detail: String,
    pub total: i32,
}

/// A finished roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRoll {
    pub notation: String,
    pub mode: RollMode,
    /// One evaluation, or two with advantage or disadvantage.
    pub evaluations: Vec<Evaluation>,
    /// The result that counts.
    pub total: i32,
}

/// Dice notation that is valid and bounded: at most [`MAX_DICE`] dice of at most [`MAX_SIDES`]
/// sides in a set, every die with at least one side, and rerolls or explosions that stop soon
/// (a repeated one may be met by at most half the faces, and the dice a roll is expected to throw
/// stay under [`MAX_EXPECTED_DICE`]). Scenarios, tables and the roller all check dice here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notation {
    text: String,
    expr: tyche::Expr,
}

impl Notation {
    pub fn parse(text: &str) -> Result<Self, DiceError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(DiceError::Empty);
        }
        if text.chars().count() > MAX_NOTATION {
            return Err(DiceError::TooLong { length: text.chars().count() });
        }
        check_sizes(text)?;
        let expr: tyche::Expr =
            text.parse().map_err(|e| DiceError::NotNotation { text: text.to_owned(), why: short(&e) })?;
        let mut expected = 0.0;
        check_dice(&expr, text, &mut expected)?;
        if expected > MAX_EXPECTED_DICE {
            return Err(DiceError::TooManyExpected { text: text.to_owned(), expected: expected.round() as u64 });
        }
        totals(&expr, text)?;
        Ok(Self { text: text.to_owned(), expr })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether this is a d20 test (an ability check, attack roll or saving throw): one d20, with
    /// or without numbers added, as `1d20+5` or `d20-1`. Inspiration gives advantage only to these
    /// (DMG "Inspiration").
    pub fn is_d20_test(&self) -> bool {
        fn d20s(expr: &tyche::Expr) -> Option<u32> {
            use tyche::Expr;
            match expr {
                Expr::Num(_) => Some(0),
                Expr::Dice(dice) => (dice.count == 1 && dice.sides == 20 && dice.modifiers.is_empty()).then_some(1),
                Expr::Add(a, b) | Expr::Sub(a, b) => Some(d20s(a)? + d20s(b)?),
                _ => None,
            }
        }
        d20s(&self.expr) == Some(1)
    }

    /// The plain dice and numbers the notation adds up, as signed terms, if it is such a sum
    /// (`2d6+1d4-1`), else `None` (keep/drop, rerolls, products).
    fn terms(&self) -> Option<Vec<Term>> {
        fn walk(expr: &tyche::Expr, sign: i64, out: &mut Vec<Term>) -> Option<()> {
            use tyche::Expr;
            match expr {
                Expr::Num(n) => out.push(Term::Number(sign * i64::from(*n))),
                Expr::Dice(d) if d.modifiers.is_empty() => {
                    out.push(Term::Dice { sign, count: d.count, sides: d.sides });
                }
                Expr::Neg(x) => walk(x, -sign, out)?,
                Expr::Add(a, b) => {
                    walk(a, sign, out)?;
                    walk(b, sign, out)?;
                }
                Expr::Sub(a, b) => {
                    walk(a, sign, out)?;
                    walk(b, -sign, out)?;
                }
                _ => return None,
            }
            Some(())
        }
        let mut terms = Vec::new();
        walk(&self.expr, 1, &mut terms)?;
        Some(terms)
    }

    /// The average result, rounded down, as monster stat blocks give it ("5 (1d6 + 2)"), for plain
    /// sums of dice and numbers; `None` for other notation.
    pub fn average(&self) -> Option<i32> {
        let twice: i64 = self
            .terms()?
            .iter()
            .map(|t| match *t {
                Term::Number(n) => 2 * n,
                Term::Dice { sign, count, sides } => sign * i64::from(count) * (i64::from(sides) + 1),
            })
            .sum();
        i32::try_from(twice.div_euclid(2)).ok()
    }

    /// Only the dice of a plain sum, numbers left out (`2d6+1d4+3` → `2d6+1d4`): what a critical
    /// hit adds to average damage (DMG "Monsters and Critical Hits"). `None` for other notation
    /// or when there are no dice.
    pub fn dice_only(&self) -> Option<Notation> {
        let mut text = String::new();
        for term in self.terms()? {
            if let Term::Dice { sign, count, sides } = term {
                let op = if sign < 0 {
                    "-"
                } else if text.is_empty() {
                    ""
                } else {
                    "+"
                };
                text.push_str(&format!("{op}{count}d{sides}"));
            }
        }
        if text.is_empty() { None } else { Notation::parse(&text).ok() }
    }
}

/// A term of a plain sum of dice.
enum Term {
    Number(i64),
    Dice { sign: i64, count: u8, sides: u8 },
}

/// Notation is written as its text (in JSON answers and saved files).
impl Serialize for Notation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl std::str::FromStr for Notation {
    type Err = DiceError;

    fn from_str(text: &str) -> Result<Self, DiceError> {
        Self::parse(text)
    }
}

/// Refuses a count or a number of sides over the limits before the parser sees it, so the
/// sentence names the limit.
fn check_sizes(text: &str) -> Result<(), DiceError> {
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> u64 { text[range].parse::<u64>().unwrap_or(u64::MAX) };
    for (i, &b) in bytes.iter().enumerate() {
        // A modifier's number follows its letters or its comparison (`kh3`, `min2`, `r<3`).
        let starts_number = b.is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit());
        if starts_number
            && i > 0
            && (bytes[i - 1].is_ascii_alphabetic() && bytes[i - 1] != b'd' || b"<>=".contains(&bytes[i - 1]))
        {
            let end = (i..bytes.len()).take_while(|&j| bytes[j].is_ascii_digit()).last().unwrap_or(i);
            let value = number(i..end + 1);
            if value > u64::from(MAX_SIDES) {
                return Err(DiceError::ModifierTooLarge { text: text.to_owned(), value });
            }
        }
        if b != b'd' {
            continue;
        }
        let count_start = (0..i).rev().take_while(|&j| bytes[j].is_ascii_digit()).last();
        if let Some(start) = count_start {
            let count = number(start..i);
            if count > u64::from(MAX_DICE) {
                return Err(DiceError::TooManyInASet { count });
            }
        }
        let sides_end = (i + 1..bytes.len()).take_while(|&j| bytes[j].is_ascii_digit()).last();
        if let Some(end) = sides_end {
            let sides = number(i + 1..end + 1);
            if sides > u64::from(MAX_SIDES) {
                return Err(DiceError::TooManySides { sides });
            }
        }
    }
    Ok(())
}

/// The smallest and largest totals `expr` can reach, refused when some step of the sum could pass
/// ±[`MAX_TOTAL`] or divide by 0, so that a roll of checked notation always totals. A set of
/// dice that explodes is taken to total at most 65,535 (a set expected to throw at most 2,000
/// dice passes it about never; if it did, the total is still summed wide and brought within
/// `i32`, [`total_of`]).
fn totals(expr: &tyche::Expr, text: &str) -> Result<(i64, i64), DiceError> {
    use tyche::Expr;
    use tyche::dice::modifier::Modifier;
    let (low, high) = match expr {
        Expr::Num(n) => (i64::from(*n), i64::from(*n)),
        Expr::Dice(dice) => {
            let count = i64::from(dice.count);
            let keeps = dice.modifiers.iter().any(|m| matches!(m, Modifier::KeepHigh(_) | Modifier::KeepLow(_)));
            let explodes = dice.modifiers.iter().any(|m| matches!(m, Modifier::Explode { .. }));
            let high = if explodes { i64::from(u16::MAX) } else { count * i64::from(dice.sides) };
            (if keeps { 0 } else { count }, high)
        }
        Expr::Neg(x) => {
            let (low, high) = totals(x, text)?;
            (-high, -low)
        }
        Expr::Add(a, b) => {
            let ((al, ah), (bl, bh)) = (totals(a, text)?, totals(b, text)?);
            (al + bl, ah + bh)
        }
        Expr::Sub(a, b) => {
            let ((al, ah), (bl, bh)) = (totals(a, text)?, totals(b, text)?);
            (al - bh, ah - bl)
        }
        Expr::Mul(a, b) => {
            let ((al, ah), (bl, bh)) = (totals(a, text)?, totals(b, text)?);
            let products = [al * bl, al * bh, ah * bl, ah * bh];
            (products.into_iter().min().unwrap_or(0), products.into_iter().max().unwrap_or(0))
        }
        Expr::DivDown(a, b) | Expr::DivUp(a, b) => {
            let ((al, ah), (bl, bh)) = (totals(a, text)?, totals(b, text)?);
            if bl <= 0 && bh >= 0 {
                return Err(DiceError::DividesByZero { text: text.to_owned() });
            }
            // A quotient by a whole number other than 0 is no larger than what is divided.
            let most = al.abs().max(ah.abs());
            (-most, most)
        }
        _ => {
            let why = "it uses an operation whose totals battlemap can't bound".to_owned();
            return Err(DiceError::NotNotation { text: text.to_owned(), why });
        }
    };
    if low < -MAX_TOTAL || high > MAX_TOTAL {
        return Err(DiceError::TotalOutOfRange { text: text.to_owned(), low, high });
    }
    Ok((low, high))
}

/// Checks every set of dice in the expression, adding the dice it is expected to throw.
fn check_dice(expr: &tyche::Expr, text: &str, expected: &mut f64) -> Result<(), DiceError> {
    use tyche::Expr;
    use tyche::dice::modifier::Modifier;
    match expr {
        Expr::Dice(dice) => {
            if dice.sides == 0 {
                return Err(DiceError::NoSides { text: text.to_owned() });
            }
            let mut thrown = f64::from(dice.count);
            for modifier in &dice.modifiers {
                let (cond, recurse) = match *modifier {
                    Modifier::Reroll { cond, recurse } => (Some(cond), recurse),
                    Modifier::Explode { cond, recurse } => (cond, recurse),
                    Modifier::Min(min) if min > dice.sides => {
                        return Err(DiceError::MinimumPastFaces { text: text.to_owned(), min, sides: dice.sides });
                    }
                    Modifier::Max(0) => return Err(DiceError::MaximumZero { text: text.to_owned() }),
                    Modifier::KeepHigh(keep) | Modifier::KeepLow(keep) if keep > dice.count => {
                        return Err(DiceError::KeepsMoreThanRolled { text: text.to_owned(), keep, count: dice.count });
                    }
                    _ => continue,
                };
                let met = (1..=dice.sides).filter(|&face| cond.map_or(face == dice.sides, |c| c.check(face))).count()
                    as f64
                    / f64::from(dice.sides);
                if recurse && met > 0.5 {
                    let percent = (met * 100.0).round() as u32;
                    return Err(DiceError::RunsAway { text: text.to_owned(), percent, sides: dice.sides });
                }
                thrown *= if recurse { 1.0 / (1.0 - met) } else { 1.0 + met };
            }
            *expected += thrown;
            Ok(())
        }
        Expr::Neg(x) => check_dice(x, text, expected),
        Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) | Expr::DivDown(a, b) | Expr::DivUp(a, b) => {
            check_dice(a, text, expected)?;
            check_dice(b, text, expected)
        }
        _ => Ok(()),
    }
}

/// The one generator of a session of play, with the seed it started from.
///
/// It is ChaCha12 (rand's `StdRng` today, named here so that a saved position stays valid), so
/// a session saves its seed and its position in the stream and resumes exactly there.
#[derive(Debug)]
pub struct SeededDice {
    pub seed: u64,
    rng: ChaCha12Rng,
    /// Dice thrown by the roll under way.
    thrown: u32,
}

impl SeededDice {
    pub fn new(seed: u64) -> Self {
        Self { seed, rng: ChaCha12Rng::seed_from_u64(seed), thrown: 0 }
    }

    /// The generator of `seed`, `position` words into its stream (as [`Self::position`] gave).
    pub fn resume(seed: u64, position: u128) -> Self {
        let mut dice = Self::new(seed);
        dice.rng.set_word_pos(position);
        dice
    }

    /// How far into its stream the generator is, in 32-bit words.
    pub fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }

    /// Rolls `notation`, twice with advantage or disadvantage.
    pub fn roll(&mut self, notation: &str, mode: RollMode) -> Result<DiceRoll, DiceError> {
        let notation = Notation::parse(notation)?;
        self.roll_notation(&notation, mode)
    }

    /// Rolls checked notation, twice with advantage or disadvantage.
    pub fn roll_notation(&mut self, notation: &Notation, mode: RollMode) -> Result<DiceRoll, DiceError> {
        let text = notation.as_str();
        let times = if mode == RollMode::Normal { 1 } else { 2 };
        let mut evaluations = Vec::with_capacity(times);
        for _ in 0..times {
            self.thrown = 0;
            let evaled =
                notation.expr.eval(self).map_err(|e| DiceError::CantRoll { text: text.to_owned(), why: short(&e) })?;
            if self.thrown > MAX_ROLLED_DICE {
                return Err(DiceError::TooManyThrown { text: text.to_owned(), thrown: self.thrown });
            }
            let total = total_of(&evaled).ok_or_else(|| DiceError::CantTotal { text: text.to_owned() })?;
            evaluations.push(Evaluation { detail: evaled.describe(Some(50)), total });
        }
        let totals = evaluations.iter().map(|e| e.total);
        let total = match mode {
            RollMode::Disadvantage => totals.min(),
            _ => totals.max(),
        }
        .unwrap_or_default();
        Ok(DiceRoll { notation: text.to_owned(), mode, evaluations, total })
    }
}

/// The total of rolled notation, in whole numbers wide enough that no sum of checked notation
/// overflows (`tyche` totals a set of dice in 16 bits, which an exploding set of many dice can
/// pass: 255d255x<128 did about one roll in eight), brought within `i32`. `None` only for a
/// division by 0, which checked notation can't make.
fn total_of(evaled: &tyche::expr::Evaled) -> Option<i32> {
    fn walk(evaled: &tyche::expr::Evaled) -> Option<i64> {
        use tyche::expr::Evaled;
        Some(match evaled {
            Evaled::Num(n) => i64::from(*n),
            Evaled::Dice(rolled) => rolled.rolls.iter().filter(|r| r.is_kept()).map(|r| i64::from(r.val)).sum(),
            Evaled::Neg(x) => -walk(x)?,
            Evaled::Add(a, b) => walk(a)?.saturating_add(walk(b)?),
            Evaled::Sub(a, b) => walk(a)?.saturating_sub(walk(b)?),
            Evaled::Mul(a, b) => walk(a)?.saturating_mul(walk(b)?),
            // As `tyche` divides: `/` truncates, `\\` adds 1 to a quotient with a remainder.
            Evaled::DivDown(a, b) => walk(a)?.checked_div(walk(b)?)?,
            Evaled::DivUp(a, b) => {
                let (a, b) = (walk(a)?, walk(b)?);
                a.checked_div(b)? + i64::from(a.checked_rem(b)? != 0)
            }
            _ => return None,
        })
    }
    let total = walk(evaled)?;
    Some(total.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

/// A `tyche` error in a few words, printable: its own text can be the whole roll, thousands of
/// characters, and it quotes what it found raw (an escape character, a DEL), which is escaped
/// here (`rules::text`).
fn short(error: &impl std::fmt::Display) -> String {
    let text = error.to_string();
    let first: String = text.lines().next().unwrap_or_default().trim().chars().take(120).collect();
    crate::rules::text::escaped(&first).into_owned()
}

impl Roller for SeededDice {
    fn roll_die(&mut self, sides: u8) -> DieRoll {
        self.thrown = self.thrown.saturating_add(1);
        // Sides are checked before rolling (`Notation::parse`).
        DieRoll::new(self.rng.random_range(1..=sides.max(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_generator_rolls_on_as_the_original_would() {
        let mut original = SeededDice::new(99);
        for _ in 0..7 {
            original.roll("4d6kh3+d20", RollMode::Advantage).unwrap();
        }
        let mut resumed = SeededDice::resume(99, original.position());
        assert_ne!(original.position(), 0);
        for _ in 0..20 {
            assert_eq!(original.roll("3d8", RollMode::Normal), resumed.roll("3d8", RollMode::Normal));
        }
    }

    #[test]
    fn the_same_seed_replays_the_same_rolls() {
        let rolls = |seed| {
            let mut dice = SeededDice::new(seed);
            (0..20).map(|_| dice.roll("4d6kh3", RollMode::Normal).expect("valid").total).collect::<Vec<_>>()
        };
        assert_eq!(rolls(42), rolls(42));
        assert_ne!(rolls(42), rolls(43));
        assert!(rolls(42).iter().all(|t| (3..=18).contains(t)));
    }

    #[test]
    fn standard_notation_rolls_within_its_range() {
        let mut dice = SeededDice::new(1);
        for (notation, low, high) in
            [("2d6+3", 5, 15), ("d20", 1, 20), ("1d20", 1, 20), ("d100", 1, 100), ("3d8-2", 1, 22)]
        {
            for _ in 0..50 {
                let roll = dice.roll(notation, RollMode::Normal).unwrap_or_else(|e| panic!("{notation}: {e}"));
                assert!((low..=high).contains(&roll.total), "{notation}: {}", roll.total);
            }
        }
    }

    /// DMG: "roll a second d20 when you make the roll. Use the higher of the two rolls if you
    /// have advantage, and use the lower roll if you have disadvantage."
    #[test]
    fn advantage_keeps_the_higher_and_disadvantage_the_lower() {
        let mut dice = SeededDice::new(7);
        for _ in 0..50 {
            let adv = dice.roll("d20+5", RollMode::Advantage).expect("valid");
            assert_eq!(adv.evaluations.len(), 2);
            assert_eq!(adv.total, adv.evaluations.iter().map(|e| e.total).max().unwrap_or_default());
            let dis = dice.roll("d20+5", RollMode::Disadvantage).expect("valid");
            assert_eq!(dis.total, dis.evaluations.iter().map(|e| e.total).min().unwrap_or_default());
        }
    }

    #[test]
    fn bad_notation_is_a_sentence_not_a_panic() {
        let mut dice = SeededDice::new(0);
        for bad in ["", "2d", "abc", "1000d6", "d0", "2+3d0", "1d1x", "2d6+", &"1".repeat(500)] {
            let error = dice.roll(bad, RollMode::Normal).expect_err(bad);
            assert!(!error.to_string().is_empty(), "{bad}");
        }
    }

    /// DMG "Monsters and Critical Hits": "if a goblin normally deals 5 (1d6 + 2) slashing damage
    /// on a hit and scores a critical hit, it deals 1d6 + 5 slashing damage."
    #[test]
    fn average_damage_and_the_dice_a_critical_adds() {
        let scimitar = Notation::parse("1d6+2").unwrap();
        assert_eq!(scimitar.average(), Some(5));
        assert_eq!(scimitar.dice_only().map(|n| n.as_str().to_owned()), Some("1d6".to_owned()));
        let mixed = Notation::parse("2d6+1d4-1").unwrap();
        assert_eq!(mixed.average(), Some(7 + 2 - 1), "7 + 2.5 - 1 = 8.5, rounded down");
        assert_eq!(mixed.dice_only().unwrap().as_str(), "2d6+1d4");
        assert_eq!(Notation::parse("d8").unwrap().average(), Some(4));
        assert_eq!(Notation::parse("3").unwrap().dice_only(), None);
        assert_eq!(Notation::parse("4d6kh3").unwrap().average(), None, "not a plain sum");
    }

    #[test]
    fn only_a_single_d20_with_numbers_is_a_d20_test() {
        for (text, test) in [("d20", true), ("1d20+5", true), ("2+d20-1", true), ("2d20", false), ("1d20+1d4", false)] {
            assert_eq!(Notation::parse(text).map(|n| n.is_d20_test()), Ok(test), "{text}");
        }
        for damage in ["2d6+3", "1d8", "d20kh1", "-d20"] {
            assert_eq!(Notation::parse(damage).map(|n| n.is_d20_test()), Ok(false), "{damage}");
        }
    }

    /// The limits are named: 255 dice in a set, 255 sides, and no notation that could throw dice
    /// without end. Each refusal is quick and short.
    #[test]
    fn dice_beyond_the_limits_are_refused_with_the_limit() {
        let cases = [
            ("1000d6", "at most 255 dice"),
            ("2d1000", "at most 255 sides"),
            ("d0", "no sides"),
            ("255d255x>1x>1x>1", "at most half"),
            ("4d6rr<6", "at most half"),
            ("255d2x+255d2x+255d2x+255d2x", "at most 2000"),
            // Issue 29: a minimum above the faces answered 1020 for 4d6min255.
            ("4d6min255", "a minimum is at most 6"),
            ("4d6min7", "a minimum is at most 6"),
            ("2d8max0", "a maximum is at least 1"),
            // Issue 29: totals that only failed when rolled ("can't total … integer overflow").
            ("1d6+2147483647", "has the number 2147483647"),
            ("(1d6+499999)*2", "could total from 1000000 to 1000010"),
            ("2147483647*2", "stays within ±1000000"),
            ("1d6/0", "divides by something that can be 0"),
            ("1d20/(1d4-1)", "divides by something that can be 0"),
            ("(255d255)*(255d255)", "could total from 65025 to 4228250625"),
            ("-(1000*1001)", "stays within"),
            // Issue 29: "found h expected 'l'".
            ("4d6kh300", "has 300 after a modifier"),
            ("4d6kh5", "keeps 5 of 4 dice"),
            ("4d6r<999", "has 999 after a modifier"),
        ];
        for (bad, says) in cases {
            let error = Notation::parse(bad).expect_err(bad);
            assert!(error.to_string().contains(says), "{bad}: {error}");
            assert!(error.to_string().len() < 300, "{bad}: a short sentence");
        }
        // Great Weapon Fighting's reroll of 1s and 2s, and exploding dice, still roll.
        let mut dice = SeededDice::new(3);
        for good in [
            "2d6r<3",
            "2d6rr<3",
            "4d6x",
            "4d6xo",
            "d20+5",
            "8d6",
            "4d6kh3",
            "255d255",
            "4d6min6",
            "2d8max1",
            "1d6/2",
            "8d6/1d4",
            "d20-1000000",
            "1000000",
        ] {
            dice.roll(good, RollMode::Normal).unwrap_or_else(|e| panic!("{good}: {e}"));
        }
    }
}
