//! Chase complications as data: what each row of a d20 table asks (a check or a save, its DC,
//! the choices it allows) and what it does, so that the Urban and Wilderness tables of the DMG
//! and a scenario's own table are played by the same code.
//!
//! DMG "Chase Complications", "Urban Chase Complications", "Wilderness Chase Complications" and
//! "Designing Your Own Chase Tables" (000_8c43542ae10d17a7.txt, 002_ce573f1e51986339.txt).

use serde::{Deserialize, Serialize};

pub use crate::rules::creature::CheckKind;
use crate::rules::creature::{Ability, Skill};
use crate::rules::dice::{DiceError, Notation};
use crate::rules::tables::{self, RangeError, parse_range};

/// A check (any one of `options`, the participant's choice) or a saving throw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Test {
    Check { dc: i32, options: Vec<CheckKind> },
    Save { dc: i32, ability: Ability },
}

impl Test {
    pub fn dc(&self) -> i32 {
        match self {
            Test::Check { dc, .. } | Test::Save { dc, .. } => *dc,
        }
    }

    pub fn name(&self) -> String {
        match self {
            Test::Check { dc, options } => {
                let names: Vec<String> = options.iter().map(|o| o.name()).collect();
                format!("DC {dc} {} check", names.join(" or "))
            }
            Test::Save { dc, ability } => format!("DC {dc} {} saving throw", ability.name()),
        }
    }
}

/// A way round the test that the row offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Alternative {
    /// Toss a coin: the test succeeds automatically (urban 8, the beggar).
    TossCoin,
    /// Spend this much movement instead of making the test (wilderness 9, the razorvine).
    SpendMovement { feet: u32 },
}

impl Alternative {
    pub fn name(self) -> String {
        match self {
            Alternative::TossCoin => "Toss a coin".to_owned(),
            Alternative::SpendMovement { feet } => format!("Use {feet} ft of movement"),
        }
    }
}

/// What a complication does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Effect {
    /// "counts as N feet of difficult terrain": N extra feet of movement spent (PHB "Difficult
    /// Terrain": every foot costs 1 extra foot).
    DifficultTerrain {
        feet: u32,
    },
    /// Falls prone: standing up costs half its speed (PHB "Being Prone").
    Prone,
    Damage {
        dice: String,
        kind: String,
    },
    /// Blinded until the end of its turn, with its speed halved (wilderness 5).
    Blinded,
    /// Caught in a net and restrained (wilderness 7; PHB "Net": an action and a DC 10 Strength
    /// check free it).
    Restrained,
    /// Falls `distance` × 5 feet, takes 1d6 bludgeoning per 10 feet fallen, lands prone
    /// (wilderness 6; PHB "Falling").
    Fall {
        distance: String,
    },
    /// Someone outside the chase attacks it: at once, or at the end of its turn if it moved at
    /// least `min_move` feet (urban 9, the guard; wilderness 3, the swarm).
    OpportunityAttack {
        attacker: String,
        bonus: i32,
        dice: String,
        kind: String,
        min_move: u32,
    },
    /// A creature of the area chases after it (wilderness 10): the scene's local creature joins.
    LocalCreature,
}

/// One row of a complication table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Complication")]
pub struct Complication {
    /// The d20 results of the row: `5` or `11-20`.
    pub roll: String,
    pub text: String,
    #[serde(default)]
    pub test: Option<Test>,
    #[serde(default)]
    pub alternative: Option<Alternative>,
    /// Effects on a failed test.
    #[serde(default)]
    pub on_fail: Vec<Effect>,
    /// Effects with no test to avoid them.
    #[serde(default)]
    pub always: Vec<Effect>,
}

impl Complication {
    /// "No complication": nothing to test and nothing happens.
    pub fn is_none(&self) -> bool {
        self.test.is_none() && self.on_fail.is_empty() && self.always.is_empty()
    }
}

/// Where a chase's complication table comes from: one of the DMG's, or the scene's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableSource {
    Urban,
    Wilderness,
    Custom,
}

/// The most feet a row may cost or ask for.
pub const MAX_FEET: u32 = 1000;

/// The largest attack bonus a row's attacker may have, either way.
pub const MAX_BONUS: i32 = 30;

/// Why a complication table can't be played, as [`ComplicationTable::validate`] finds it: each
/// sentence names the row by its d20 results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum ComplicationError {
    /// The rows don't cover 1 to 20 once each, in order.
    #[error("{0}")]
    Ranges(#[from] RangeError),
    /// A row's check lets the participant make it with no ability or skill.
    #[error("the row {roll:?} has a check with no ability or skill to make it")]
    CheckWithoutOptions { roll: String },
    /// A row's check or save has a DC outside 1 to 30.
    #[error("the row {roll:?} has DC {dc}: DCs run from 1 to 30")]
    DcOutOfRange { roll: String, dc: i32 },
    /// A row's way round the test spends more than [`MAX_FEET`] of movement.
    #[error("the row {roll:?} spends {feet} ft: at most {MAX_FEET}")]
    AlternativeTooFar { roll: String, feet: u32 },
    /// A row's damage, attack damage or fall is not dice notation a roll can make.
    #[error("the row {roll:?}: {error}")]
    Dice { roll: String, error: DiceError },
    /// A row's difficult terrain, or the movement after which its attacker strikes, is more than
    /// [`MAX_FEET`].
    #[error("the row {roll:?} has {feet} ft: at most {MAX_FEET}")]
    EffectTooFar { roll: String, feet: u32 },
    /// A row's attacker has an attack bonus beyond [`MAX_BONUS`] either way.
    #[error("the row {roll:?} has an attack bonus of {bonus}: from -{MAX_BONUS} to +{MAX_BONUS}")]
    BonusOutOfRange { roll: String, bonus: i32 },
    /// The table's name, a row's text, an attacker or a kind of damage holds control characters
    /// (which would reach the terminal and the log as they are) or is too long to show.
    #[error("{what} {text:?} must be plain text of at most {most} characters")]
    NotPlainText { what: &'static str, text: String, most: usize },
}

/// The longest name, attacker or kind of damage a table may give.
pub const MAX_TABLE_NAME: usize = 100;
/// The longest text a row may give.
pub const MAX_ROW_TEXT: usize = 1000;

/// Refuses text with control characters or longer than `most` characters; the message shows the
/// text escaped and cut short.
fn plain_text(what: &'static str, text: &str, most: usize) -> Result<(), ComplicationError> {
    if text.chars().any(crate::rules::text::unprintable) || text.chars().count() > most {
        let text = text.chars().take(40).collect();
        return Err(ComplicationError::NotPlainText { what, text, most });
    }
    Ok(())
}

/// A d20 table of complications.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "ComplicationTable")]
pub struct ComplicationTable {
    pub name: String,
    pub rows: Vec<Complication>,
}

impl ComplicationTable {
    /// The row for a d20 result.
    pub fn row(&self, d20: u32) -> Option<&Complication> {
        self.rows.iter().find(|row| parse_range(&row.roll, 20).is_some_and(|(low, high)| (low..=high).contains(&d20)))
    }

    /// Checks that the rows cover 1 to 20 once each, and that their dice and DCs make sense: a
    /// check names an ability or skill, DCs run from 1 to 30, feet are at most [`MAX_FEET`],
    /// attack bonuses at most [`MAX_BONUS`] either way, and dice are notation a roll can make.
    pub fn validate(&self) -> Result<(), ComplicationError> {
        plain_text("the table's name", &self.name, MAX_TABLE_NAME)?;
        tables::check_ranges(self.rows.iter().map(|row| row.roll.as_str()), 20)?;
        for row in &self.rows {
            let roll = || row.roll.clone();
            plain_text("a row's text", &row.text, MAX_ROW_TEXT)?;
            if let Some(Test::Check { options, .. }) = &row.test
                && options.is_empty()
            {
                return Err(ComplicationError::CheckWithoutOptions { roll: roll() });
            }
            if let Some(test) = &row.test
                && !(1..=30).contains(&test.dc())
            {
                return Err(ComplicationError::DcOutOfRange { roll: roll(), dc: test.dc() });
            }
            if let Some(Alternative::SpendMovement { feet }) = row.alternative
                && feet > MAX_FEET
            {
                return Err(ComplicationError::AlternativeTooFar { roll: roll(), feet });
            }
            for effect in row.on_fail.iter().chain(&row.always) {
                let (dice, feet, bonus) = match effect {
                    Effect::Damage { dice, .. } => (Some(dice), 0, 0),
                    Effect::OpportunityAttack { dice, bonus, min_move, .. } => (Some(dice), *min_move, *bonus),
                    Effect::Fall { distance } => (Some(distance), 0, 0),
                    Effect::DifficultTerrain { feet } => (None, *feet, 0),
                    _ => (None, 0, 0),
                };
                if let Effect::Damage { kind, .. } | Effect::OpportunityAttack { kind, .. } = effect {
                    plain_text("a kind of damage", kind, MAX_TABLE_NAME)?;
                }
                if let Effect::OpportunityAttack { attacker, .. } = effect {
                    plain_text("an attacker", attacker, MAX_TABLE_NAME)?;
                }
                if let Some(Err(error)) = dice.map(|d| Notation::parse(d)) {
                    return Err(ComplicationError::Dice { roll: roll(), error });
                }
                if feet > MAX_FEET {
                    return Err(ComplicationError::EffectTooFar { roll: roll(), feet });
                }
                if !(-MAX_BONUS..=MAX_BONUS).contains(&bonus) {
                    return Err(ComplicationError::BonusOutOfRange { roll: roll(), bonus });
                }
            }
        }
        Ok(())
    }

    /// The DMG's Urban Chase Complications.
    pub fn urban() -> Self {
        use Effect::*;
        let mut rows = effects_for("urban-chase-complications");
        let mut set = |i: usize, test: Option<Test>, on_fail: Vec<Effect>| {
            rows[i - 1].test = test;
            rows[i - 1].on_fail = on_fail;
        };
        set(1, check(15, &[Skill::Acrobatics]), vec![DifficultTerrain { feet: 10 }]);
        set(2, check(10, &[Skill::Athletics, Skill::Acrobatics]), vec![DifficultTerrain { feet: 10 }]);
        set(3, save(10, Ability::Str), vec![Prone]);
        let maze = vec![CheckKind::Skill(Skill::Acrobatics), CheckKind::Ability(Ability::Int)];
        set(4, Some(Test::Check { dc: 10, options: maze }), vec![DifficultTerrain { feet: 10 }]);
        set(5, save(10, Ability::Dex), vec![Prone]);
        set(6, check(10, &[Skill::Acrobatics]), vec![damage("1d4", "piercing"), DifficultTerrain { feet: 5 }]);
        let brawl = check(15, &[Skill::Athletics, Skill::Acrobatics, Skill::Intimidation]);
        set(7, brawl, vec![damage("2d4", "bludgeoning"), DifficultTerrain { feet: 10 }]);
        set(
            8,
            check(10, &[Skill::Athletics, Skill::Acrobatics, Skill::Intimidation]),
            vec![DifficultTerrain { feet: 5 }],
        );
        set(10, save(10, Ability::Dex), vec![damage("1d4", "bludgeoning")]);
        rows[7].alternative = Some(Alternative::TossCoin);
        rows[8].always = vec![OpportunityAttack {
            attacker: "an overzealous guard (spear)".to_owned(),
            bonus: 3,
            dice: "1d6+1".to_owned(),
            kind: "piercing".to_owned(),
            min_move: 20,
        }];
        Self { name: "Urban Chase Complications".to_owned(), rows }
    }

    /// The DMG's Wilderness Chase Complications.
    pub fn wilderness() -> Self {
        use Effect::*;
        let mut rows = effects_for("wilderness-chase-complications");
        let mut set = |i: usize, test: Option<Test>, on_fail: Vec<Effect>| {
            rows[i - 1].test = test;
            rows[i - 1].on_fail = on_fail;
        };
        set(1, check(10, &[Skill::Athletics, Skill::Acrobatics]), vec![DifficultTerrain { feet: 5 }]);
        set(2, check(10, &[Skill::Acrobatics]), vec![DifficultTerrain { feet: 10 }]);
        set(4, check(10, &[Skill::Athletics, Skill::Acrobatics]), vec![DifficultTerrain { feet: 10 }]);
        set(5, save(10, Ability::Con), vec![Blinded]);
        set(6, save(10, Ability::Dex), vec![Fall { distance: "1d4".to_owned() }]);
        set(7, save(15, Ability::Dex), vec![Restrained]);
        set(8, save(10, Ability::Dex), vec![damage("1d4", "bludgeoning"), damage("1d4", "piercing")]);
        set(9, save(15, Ability::Dex), vec![damage("1d10", "slashing")]);
        rows[8].alternative = Some(Alternative::SpendMovement { feet: 10 });
        rows[2].always = vec![OpportunityAttack {
            attacker: "a swarm of insects".to_owned(),
            bonus: 3,
            dice: "4d4".to_owned(),
            kind: "piercing".to_owned(),
            min_move: 0,
        }];
        rows[9].always = vec![LocalCreature];
        Self { name: "Wilderness Chase Complications".to_owned(), rows }
    }
}

fn check(dc: i32, skills: &[Skill]) -> Option<Test> {
    Some(Test::Check { dc, options: skills.iter().map(|&s| CheckKind::Skill(s)).collect() })
}

fn save(dc: i32, ability: Ability) -> Option<Test> {
    Some(Test::Save { dc, ability })
}

fn damage(dice: &str, kind: &str) -> Effect {
    Effect::Damage { dice: dice.to_owned(), kind: kind.to_owned() }
}

/// The eleven rows of a DMG chase table (1 to 10, then 11-20), with their text from the tables
/// module (written from the rules) and no effects yet: the caller writes each row's effects.
fn effects_for(table_id: &str) -> Vec<Complication> {
    let all = tables::all().unwrap_or_default();
    let text = |roll: &str| -> String {
        tables::find(&all, table_id)
            .and_then(|t| t.rows.iter().find(|r| r[0] == roll))
            .and_then(|r| r.get(1).cloned())
            .unwrap_or_default()
    };
    let rolls = (1..=10).map(|n| n.to_string()).chain(["11-20".to_owned()]);
    rolls
        .map(|roll| Complication {
            text: text(&roll),
            roll,
            test: None,
            alternative: None,
            on_fail: Vec::new(),
            always: Vec::new(),
        })
        .collect()
}
