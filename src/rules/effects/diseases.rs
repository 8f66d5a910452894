//! The chapter's three sample diseases (DMG chapter 8, "Diseases", "Sample Diseases": cackle
//! fever, sewer plague, sight rot; the chapter links their details, which are those of the
//! System Reference Document 5.1, "Diseases", CC-BY-4.0): incubation, symptoms, the save at the
//! end of each long rest, and recovery. The tracker's "long rest / dawn" advances them.

use serde::{Deserialize, Serialize};

use super::{Duration, Effect, Source};
use crate::rules::dice::{DiceError, DiceRoll, RollMode, SeededDice};

/// A sample disease.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Disease {
    CackleFever,
    SewerPlague,
    SightRot,
}

/// Where a disease stands on a creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Course {
    pub disease: Disease,
    /// Long rests (dawns) until the symptoms show; 0 once they have.
    #[serde(default)]
    pub incubating: u8,
    /// Rounds until the symptoms show, for a disease whose incubation is counted in hours
    /// (cackle fever: "1d4 hours after infection"); 0 once they have, or for one counted in days.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub incubating_rounds: u32,
    /// The DC of the save at the end of a long rest (cackle fever's drops as the creature
    /// recovers).
    pub dc: i32,
    /// Failed saves at the end of long rests (cackle fever: three bring indefinite madness).
    #[serde(default)]
    pub failures: u8,
    /// Sight rot's penalty to attack rolls and sight checks (from −1 to −5).
    #[serde(default)]
    pub penalty: i32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The most dawns a disease incubates (sewer plague's 1d4 days, with room to spare).
pub const MAX_INCUBATION_DAWNS: u8 = 30;
/// The most rounds a disease counted in hours incubates: a day.
pub const MAX_INCUBATION_ROUNDS: u32 = 24 * super::ROUNDS_PER_HOUR;
/// The failed saves that bring cackle fever's madness: no more are counted.
pub const MADDENING_FAILURES: u8 = 3;
/// Sight rot's worst penalty: at it the creature is blinded.
pub const WORST_PENALTY: i32 = -5;

/// Why a disease's course can't be taken as written. Each names its field and its range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CourseError {
    #[error("`incubating` is {0} dawns: from 0 to {MAX_INCUBATION_DAWNS}")]
    Incubating(u8),
    #[error("`incubating_rounds` is {0}: from 0 to {MAX_INCUBATION_ROUNDS} (a day)")]
    IncubatingRounds(u32),
    #[error("`dc` is {0}: DCs run from 1 to 30")]
    Dc(i32),
    #[error("`failures` is {0}: from 0 to {MADDENING_FAILURES}")]
    Failures(u8),
    #[error("`penalty` is {0}: from {WORST_PENALTY} to 0")]
    Penalty(i32),
}

/// What a long rest did to a diseased creature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Dawn {
    /// The symptoms showed this dawn.
    pub symptoms: bool,
    /// Levels of exhaustion gained (negative: lost).
    pub exhaustion: i8,
    /// The creature recovered: the disease ends.
    pub recovered: bool,
    /// Cackle fever's third failure: a random indefinite madness (SRD "Cackle Fever").
    pub madness: bool,
    /// Sight rot reached −5: the creature is blinded until magic restores its sight.
    pub blinded: bool,
}

impl Disease {
    pub const ALL: [Disease; 3] = [Disease::CackleFever, Disease::SewerPlague, Disease::SightRot];

    pub fn name(self) -> &'static str {
        match self {
            Disease::CackleFever => "Cackle fever",
            Disease::SewerPlague => "Sewer plague",
            Disease::SightRot => "Sight rot",
        }
    }

    /// The disease named `name` (any case, `_` for spaces).
    pub fn named(name: &str) -> Option<Disease> {
        let simple = |s: &str| s.to_lowercase().replace(['_', '-'], " ");
        Disease::ALL.into_iter().find(|d| simple(d.name()) == simple(name.trim()))
    }

    /// The DC of the Constitution save to resist infection, and then at the end of each long rest.
    pub fn dc(self) -> i32 {
        match self {
            Disease::CackleFever => 13,
            Disease::SewerPlague => 11,
            Disease::SightRot => 15,
        }
    }

    /// The disease just caught, its incubation rolled with `dice` (SRD 5.1: cackle fever's
    /// symptoms "1d4 hours after infection", sewer plague's "1d4 days", sight rot's "after 1
    /// day"); the roll is returned for the log.
    pub fn catch(self, dice: &mut SeededDice) -> Result<(Effect, Option<DiceRoll>), DiceError> {
        if self == Disease::SightRot {
            return Ok((self.caught(1), None));
        }
        let roll = dice.roll("1d4", RollMode::Normal)?;
        let n = roll.total.clamp(1, 4) as u8;
        let effect = if self == Disease::CackleFever { self.caught_hours_ago(u32::from(n)) } else { self.caught(n) };
        Ok((effect, Some(roll)))
    }

    /// The disease just caught, `incubation` long rests (dawns) before the symptoms show.
    pub fn caught(self, incubation: u8) -> Effect {
        let incubating = incubation.clamp(1, MAX_INCUBATION_DAWNS);
        self.with_course(Course {
            disease: self,
            incubating,
            incubating_rounds: 0,
            dc: self.dc(),
            failures: 0,
            penalty: 0,
        })
    }

    /// The disease just caught, its symptoms `hours` hours away.
    pub fn caught_hours_ago(self, hours: u32) -> Effect {
        let rounds = hours.saturating_mul(super::ROUNDS_PER_HOUR).clamp(1, MAX_INCUBATION_ROUNDS);
        self.with_course(Course {
            disease: self,
            incubating: 0,
            incubating_rounds: rounds,
            dc: self.dc(),
            failures: 0,
            penalty: 0,
        })
    }

    fn with_course(self, course: Course) -> Effect {
        Effect {
            note: self.symptoms().to_owned(),
            disease: Some(course),
            ..Effect::new(self.name(), Source::Disease(self), Duration::UntilRemoved)
        }
    }

    /// What the symptoms do (SRD 5.1).
    pub fn symptoms(self) -> &'static str {
        match self {
            Disease::CackleFever => {
                "fever and disorientation: one level of exhaustion that can't be removed until cured; great stress \
                 calls for a DC 13 Constitution save or 5 (1d10) psychic damage and mad laughter (incapacitated) for \
                 1 minute"
            }
            Disease::SewerPlague => {
                "fatigue and cramps: one level of exhaustion; half the hit points from Hit Dice, none from a long rest"
            }
            Disease::SightRot => "blurry vision: a penalty to attack rolls and ability checks that rely on sight",
        }
    }
}

impl Course {
    /// Checks what a file or a session gave: every number within its range.
    pub fn validate(&self) -> Result<(), CourseError> {
        if self.incubating > MAX_INCUBATION_DAWNS {
            return Err(CourseError::Incubating(self.incubating));
        }
        if self.incubating_rounds > MAX_INCUBATION_ROUNDS {
            return Err(CourseError::IncubatingRounds(self.incubating_rounds));
        }
        if !(1..=30).contains(&self.dc) {
            return Err(CourseError::Dc(self.dc));
        }
        if self.failures > MADDENING_FAILURES {
            return Err(CourseError::Failures(self.failures));
        }
        if !(WORST_PENALTY..=0).contains(&self.penalty) {
            return Err(CourseError::Penalty(self.penalty));
        }
        Ok(())
    }

    /// Whether the symptoms are still to show.
    pub fn incubates(&self) -> bool {
        self.incubating > 0 || self.incubating_rounds > 0
    }

    /// The symptoms show: what they do at once (SRD 5.1: cackle fever's and sewer plague's one
    /// level of exhaustion, sight rot's −1).
    fn symptoms(&mut self) -> Dawn {
        self.incubating = 0;
        self.incubating_rounds = 0;
        let mut dawn = Dawn { symptoms: true, ..Dawn::default() };
        match self.disease {
            Disease::CackleFever | Disease::SewerPlague => dawn.exhaustion = 1,
            Disease::SightRot => self.penalty = -1,
        }
        dawn
    }

    /// `rounds` of game time pass (a round of the creature's own turns): a disease counted in
    /// hours shows its symptoms when they are up. `None` if nothing happened.
    pub fn pass_rounds(&mut self, rounds: u32) -> Option<Dawn> {
        if self.incubating_rounds == 0 {
            return None;
        }
        self.incubating_rounds = self.incubating_rounds.saturating_sub(rounds);
        (self.incubating_rounds == 0).then(|| self.symptoms())
    }

    /// The end of a long rest (a dawn), with the creature's Constitution save total if it made
    /// one (`save` is only read once the symptoms have shown) and a d6 for cackle fever's DC drop
    /// (SRD 5.1, each disease's paragraph). Changes the course; says what happened. Symptoms
    /// counted in hours show during the rest (it lasts 8; cackle fever's take at most 4).
    pub fn dawn(&mut self, save: i32, d6: i32) -> Dawn {
        if self.incubating_rounds > 0 {
            return self.symptoms();
        }
        if self.incubating > 0 {
            self.incubating -= 1;
            return if self.incubating == 0 { self.symptoms() } else { Dawn::default() };
        }
        let mut dawn = Dawn::default();
        let success = save >= self.dc;
        match self.disease {
            Disease::CackleFever => {
                if success {
                    self.dc -= d6.clamp(1, 6);
                    if self.dc <= 0 {
                        dawn.recovered = true;
                        dawn.exhaustion = -1;
                    }
                } else if self.failures < MADDENING_FAILURES {
                    self.failures += 1;
                    dawn.madness = self.failures == MADDENING_FAILURES;
                }
            }
            Disease::SewerPlague => {
                dawn.exhaustion = if success { -1 } else { 1 };
            }
            Disease::SightRot => {
                if self.penalty > WORST_PENALTY {
                    self.penalty -= 1;
                }
                dawn.blinded = self.penalty <= WORST_PENALTY;
            }
        }
        dawn
    }

    /// Whether this dawn calls for a save (the symptoms have shown; sight rot has none: only
    /// eyebright ointment or magic cure it).
    pub fn saves_at_dawn(&self) -> bool {
        !self.incubates() && self.disease != Disease::SightRot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SRD 5.1 "Sewer Plague": after incubation, one level of exhaustion; at the end of each long
    /// rest a DC 11 Constitution save: a failure adds a level, a success takes one away.
    #[test]
    fn sewer_plague_incubates_then_trades_exhaustion_each_dawn() {
        let effect = Disease::SewerPlague.caught(2);
        let mut course = effect.disease.expect("a course");
        assert_eq!(course.dawn(1, 1), Dawn::default(), "still incubating");
        assert_eq!(course.dawn(1, 1), Dawn { symptoms: true, exhaustion: 1, ..Dawn::default() });
        assert!(course.saves_at_dawn());
        assert_eq!(course.dawn(10, 1).exhaustion, 1, "failed DC 11");
        assert_eq!(course.dawn(11, 1).exhaustion, -1, "saved");
    }

    /// SRD 5.1 "Cackle Fever": "Symptoms manifest 1d4 hours after infection": counted in rounds
    /// (600 an hour), or shown during a long rest, with its level of exhaustion.
    #[test]
    fn cackle_fever_shows_its_symptoms_hours_after_infection() {
        for seed in 0..20 {
            let (effect, roll) = Disease::CackleFever.catch(&mut SeededDice::new(seed)).expect("rolls");
            let hours = roll.expect("1d4 hours rolled").total as u32;
            assert!((1..=4).contains(&hours));
            let mut course = effect.disease.expect("a course");
            assert_eq!((course.incubating, course.incubating_rounds), (0, hours * 600));
            assert_eq!(effect.validate(), Ok(()));
            assert_eq!(course.pass_rounds(hours * 600 - 1), None, "a round early");
            assert_eq!(course.pass_rounds(1), Some(Dawn { symptoms: true, exhaustion: 1, ..Dawn::default() }));
            assert!(course.saves_at_dawn());
        }
        let mut resting = Disease::CackleFever.caught_hours_ago(4).disease.expect("a course");
        assert_eq!(resting.dawn(0, 0).exhaustion, 1, "shown during the rest");
        let (plague, roll) = Disease::SewerPlague.catch(&mut SeededDice::new(1)).expect("rolls");
        let days = roll.expect("1d4 days").total as u8;
        assert_eq!(plague.disease.map(|c| (c.incubating, c.incubating_rounds)), Some((days, 0)));
        assert_eq!(Disease::SightRot.catch(&mut SeededDice::new(1)).expect("rolls").1, None, "one day, not rolled");
    }

    /// Every number of a course is bounded, each refusal naming its field and range.
    #[test]
    fn a_course_is_bounded() {
        let course = Disease::CackleFever.caught(1).disease.expect("a course");
        assert_eq!(Course { dc: i32::MIN, ..course }.validate(), Err(CourseError::Dc(i32::MIN)));
        assert_eq!(Course { penalty: i32::MIN, ..course }.validate(), Err(CourseError::Penalty(i32::MIN)));
        assert_eq!(Course { failures: 4, ..course }.validate(), Err(CourseError::Failures(4)));
        assert_eq!(CourseError::Penalty(-2147483648).to_string(), "`penalty` is -2147483648: from -5 to 0");
        let mut mad = Course { incubating: 0, failures: 3, ..course };
        assert!(!mad.dawn(0, 0).madness, "the madness came with the third failure");
        assert_eq!(mad.failures, 3);
    }

    /// SRD 5.1 "Cackle Fever": each successful save lowers the DC by 1d6; at 0 the creature
    /// recovers; three failures bring indefinite madness.
    #[test]
    fn cackle_fever_recovers_as_its_dc_falls_and_maddens_on_three_failures() {
        let mut course = Disease::CackleFever.caught(1).disease.expect("a course");
        assert!(course.dawn(0, 0).symptoms);
        assert!(!course.dawn(13, 6).recovered, "13 − 6 = 7");
        assert_eq!(course.dc, 7);
        assert!(!course.dawn(7, 6).recovered);
        assert_eq!(course.dc, 1);
        let last = course.dawn(1, 2);
        assert!(last.recovered && last.exhaustion == -1);
        let mut mad = Disease::CackleFever.caught(1).disease.expect("a course");
        mad.dawn(0, 0);
        assert!(!mad.dawn(0, 0).madness && !mad.dawn(0, 0).madness);
        assert!(mad.dawn(0, 0).madness, "the third failure");
    }

    /// SRD 5.1 "Sight Rot": −1 to attack rolls and sight checks once it shows, 1 worse at the end
    /// of each long rest, blinded at −5.
    #[test]
    fn sight_rot_worsens_each_dawn_to_blindness() {
        let mut course = Disease::SightRot.caught(1).disease.expect("a course");
        course.dawn(0, 0);
        assert_eq!(course.penalty, -1);
        assert!(!course.saves_at_dawn());
        for expected in [-2, -3, -4] {
            assert!(!course.dawn(30, 0).blinded);
            assert_eq!(course.penalty, expected);
        }
        assert!(course.dawn(30, 0).blinded);
        assert_eq!(course.penalty, -5);
    }
}
