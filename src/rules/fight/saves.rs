//! Saving throws against an area of effect: the creatures inside with their cover from the point
//! of origin, and one call that rolls every save against a DC and works out the damage.
//!
//! DMG "Areas of Effect" and "Cover" (002_ce573f1e51986339.txt): cover is traced from the area's
//! point of origin; half and three-quarters cover add +2 and +5 to Dexterity saving throws, and a
//! creature with total cover from the origin isn't affected (PHB "Cover": "A target with total
//! cover can't be targeted directly by an attack or a spell, although some spells can reach such a
//! target by including it in an area of effect" — the wall between it and the origin stops it).
//! PHB "Damage Rolls": the damage of an effect that hits several targets at once is rolled once
//! for all of them; "Saving Throws": half damage on a success where the effect says so.

use serde::Serialize;

use super::{Field, Fighter};
use crate::rules::advantage::Sources;
use crate::rules::area::Volume;
use crate::rules::conditions::Condition;
use crate::rules::creature::Ability;
use crate::rules::dice::{DiceError, DiceRoll, Notation, RollMode, SeededDice};
use crate::rules::health::{Adjusted, DamageType};
use crate::rules::lattice::Point;
use crate::rules::modifiers::D20;
use crate::rules::siege::{Shelter, area_shelter};
use crate::rules::sight::{CoverContext, CoverDegree, From};

/// A creature an area holds, with its cover from the point of origin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InArea {
    pub id: String,
    pub name: String,
    pub cover: CoverDegree,
    /// Why the area doesn't affect it, if so (written as a sentence in the command line's JSON).
    #[serde(rename = "sheltered")]
    pub unaffected: Option<Unaffected>,
}

/// Why a creature in an area is not affected by it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unaffected {
    /// Walls give it total cover from the point of origin.
    BehindWalls,
    /// Siege equipment gives it total cover (a ram's roof against oil from above, a siege tower
    /// against an area from outside it).
    Sheltered(Shelter),
}

impl std::fmt::Display for Unaffected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unaffected::BehindWalls => write!(f, "total cover from the point of origin"),
            Unaffected::Sheltered(Shelter::SiegeTower { target, tower }) => {
                write!(f, "total cover: {target} is inside {tower}, and the point of origin outside it")
            }
            Unaffected::Sheltered(shelter) => write!(f, "total cover from above ({shelter})"),
        }
    }
}

impl Serialize for Unaffected {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The creatures the area holds ([`Field::in_area`]; objects and the dead left out), in the
/// field's order, each with its cover from `origin`: total, and unaffected, behind walls or
/// sheltered in a siege tower the origin is outside of (`rules::siege::area_shelter`, the same
/// shelter as from an attack).
pub fn creatures_in_area(field: &Field, area: &Volume, origin: Point) -> Vec<InArea> {
    let board = field.sight_board();
    let from_origin = CoverContext::new(&board, From::Origin(origin));
    field
        .in_area(area)
        .filter(|f| !f.is_object && f.health.life != crate::rules::health::Life::Dead)
        .map(|f| {
            let cover = from_origin.cover(Some(&f.id), &f.cells);
            let unaffected = if cover.total {
                Some(Unaffected::BehindWalls)
            } else {
                area_shelter(field, f, origin).map(Unaffected::Sheltered)
            };
            let degree = if unaffected.is_some() { CoverDegree::Total } else { cover.degree };
            InArea { id: f.id.clone(), name: f.name().to_owned(), cover: degree, unaffected }
        })
        .collect()
}

/// What an area makes its creatures do: a saving throw of `ability` against `dc`, and damage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SaveEffect {
    pub ability: Ability,
    pub dc: i32,
    /// Damage dice, if it deals damage.
    pub damage: Option<Notation>,
    pub damage_type: DamageType,
    /// A success takes half the damage (rounded down) rather than none.
    pub half_on_success: bool,
}

/// One creature's save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SaveResult {
    pub id: String,
    pub name: String,
    /// The creature's save bonus, and the cover bonus on a Dexterity save.
    pub bonus: i32,
    pub cover_bonus: i32,
    pub sources: Sources,
    /// The roll; `None` when it fails automatically or is sheltered.
    pub roll: Option<DiceRoll>,
    pub success: bool,
    /// Why it failed without rolling (PHB appendix A: paralyzed, petrified, stunned and
    /// unconscious creatures fail Strength and Dexterity saves), or why it is unaffected.
    pub note: Option<SaveNote>,
    /// The damage it takes after halving and its defenses.
    pub damage: Option<Adjusted>,
}

/// Why a creature's save wasn't rolled (written as a sentence in the command line's JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveNote {
    Unaffected(Unaffected),
    /// It fails Strength and Dexterity saves while it has this condition.
    FailsAutomatically {
        name: String,
        condition: Condition,
    },
}

impl std::fmt::Display for SaveNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveNote::Unaffected(why) => write!(f, "unaffected: {why}"),
            SaveNote::FailsAutomatically { name, condition } => {
                write!(f, "{name} is {}: fails automatically", condition.name())
            }
        }
    }
}

impl Serialize for SaveNote {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Every save, and the one damage roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SavesRolled {
    pub damage_roll: Option<DiceRoll>,
    pub results: Vec<SaveResult>,
}

/// The advantages and disadvantages on `who`'s saving throw of `ability`: what its conditions,
/// exhaustion and effects give every saving throw ([`Rolling::sources`]: exhaustion 3,
/// restrained on Dexterity), then squeezing and the Dodge action on Dexterity saves.
pub fn save_sources(who: &Fighter, ability: Ability) -> Sources {
    let name = who.name();
    let mut s = who.rolling().sources(D20::Save(Some(ability)));
    let dex = ability == Ability::Dex;
    if dex && who.squeezing {
        s.disadvantage(format!("{name} is squeezing"));
    }
    if dex && who.keeps_dodging() {
        s.advantage(format!("{name} is dodging"));
    }
    s
}

/// Rolls the damage once, then every creature's save in order, and works out what each takes.
pub fn roll_saves(
    field: &Field,
    inside: &[InArea],
    effect: &SaveEffect,
    dice: &mut SeededDice,
) -> Result<SavesRolled, DiceError> {
    let damage_roll = effect.damage.as_ref().map(|n| dice.roll_notation(n, RollMode::Normal)).transpose()?;
    let full = damage_roll.as_ref().map(|r| r.total.max(0));
    let mut results = Vec::new();
    for entry in inside {
        let Some(who) = field.fighter(&entry.id) else { continue };
        let cover_bonus = if effect.ability == Ability::Dex { entry.cover.bonus().unwrap_or(0) } else { 0 };
        let bonus =
            i32::from(who.sheet.save_bonus(effect.ability)) + who.rolling().bonus(D20::Save(Some(effect.ability)));
        let sources = save_sources(who, effect.ability);
        let mut result = SaveResult {
            id: who.id.clone(),
            name: who.name().to_owned(),
            bonus,
            cover_bonus,
            sources,
            roll: None,
            success: false,
            note: None,
            damage: None,
        };
        if let Some(why) = &entry.unaffected {
            result.success = true;
            result.note = Some(SaveNote::Unaffected(why.clone()));
            results.push(result);
            continue;
        }
        match who.conditions.auto_fail_by(effect.ability) {
            Some(condition) => {
                result.note = Some(SaveNote::FailsAutomatically { name: who.name().to_owned(), condition });
            }
            None => {
                let roll = dice.roll(&format!("1d20{:+}", bonus + cover_bonus), result.sources.mode())?;
                result.success = roll.total >= effect.dc;
                result.roll = Some(roll);
            }
        }
        result.damage = full.map(|full| {
            let taken = match (result.success, effect.half_on_success) {
                (false, _) => full,
                (true, true) => full / 2,
                (true, false) => 0,
            };
            who.defenses_now().apply(taken, effect.damage_type)
        });
        results.push(result);
    }
    Ok(SavesRolled { damage_roll, results })
}
