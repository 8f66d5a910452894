//! The chapter's three sample diseases (DMG chapter 8, "Diseases", "Sample Diseases": cackle
//! fever, sewer plague, sight rot; the chapter links their details, which are those of the
//! System Reference Document 5.1, "Diseases", CC-BY-4.0): incubation, symptoms, the save at the
//! end of each long rest, and recovery. The tracker's "long rest / dawn" advances them.

use serde::{Deserialize, Serialize};

use super::{Duration, Effect, Source};

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

    /// The disease just caught: `incubation` long rests until the symptoms (cackle fever's 1d4
    /// hours show by the next dawn; sewer plague's 1d4 days are rolled by the caller; sight rot's
    /// one day).
    pub fn caught(self, incubation: u8) -> Effect {
        let course = Course { disease: self, incubating: incubation.max(1), dc: self.dc(), failures: 0, penalty: 0 };
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
    /// The end of a long rest (a dawn), with the creature's Constitution save total if it made
    /// one (`save` is only read once the symptoms have shown) and a d6 for cackle fever's DC drop
    /// (SRD 5.1, each disease's paragraph). Changes the course; says what happened.
    pub fn dawn(&mut self, save: i32, d6: i32) -> Dawn {
        let mut dawn = Dawn::default();
        if self.incubating > 0 {
            self.incubating -= 1;
            if self.incubating == 0 {
                dawn.symptoms = true;
                match self.disease {
                    Disease::CackleFever | Disease::SewerPlague => dawn.exhaustion = 1,
                    Disease::SightRot => self.penalty = -1,
                }
            }
            return dawn;
        }
        let success = save >= self.dc;
        match self.disease {
            Disease::CackleFever => {
                if success {
                    self.dc -= d6.clamp(1, 6);
                    if self.dc <= 0 {
                        dawn.recovered = true;
                        dawn.exhaustion = -1;
                    }
                } else {
                    self.failures = self.failures.saturating_add(1);
                    dawn.madness = self.failures == 3;
                }
            }
            Disease::SewerPlague => {
                dawn.exhaustion = if success { -1 } else { 1 };
            }
            Disease::SightRot => {
                if self.penalty > -5 {
                    self.penalty -= 1;
                }
                dawn.blinded = self.penalty <= -5;
            }
        }
        dawn
    }

    /// Whether this dawn calls for a save (the symptoms have shown; sight rot has none: only
    /// eyebright ointment or magic cure it).
    pub fn saves_at_dawn(&self) -> bool {
        self.incubating == 0 && self.disease != Disease::SightRot
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
