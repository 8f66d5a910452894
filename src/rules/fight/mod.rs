//! A fight on the grid: the creatures as the fight rules read them, who can see whom, and what
//! damage and healing do to hit points and conditions. The attack adjudicator, attack rolls and
//! saving throws against areas live in the submodules.
//!
//! DMG chapter 8 "Using Miniatures" (flanking, facing, cover), "Tracking Monster Hit Points",
//! "Using and Tracking Conditions", "Monsters and Critical Hits" (002_ce573f1e51986339.txt); PHB
//! "Making an Attack" and "Squeezing into a Smaller Space" (004_ebe0798b5689cc3b.txt).

pub mod actions;
pub mod adjudicate;
pub mod opportunity;
pub mod resolve;
pub mod saves;

use serde::{Deserialize, Serialize};

use super::conditions::{Condition, Conditions, exhausted_max_hp, speed};
use super::creature::{Direction, Sheet, ShieldSide, Side};
use super::distance::{DiagonalRule, range_feet};
use super::facing::{Arc, ArcLayout, Facer, arc_of_space};
use super::health::{DamageTaken, DamageType, DeathSave, Defenses, Health, Life};
use super::movement::Occupant;
use super::siege::{Siege, holds_creatures};
use super::sight::{SightBoard, line_of_sight};
use super::{Cell, Grid, Size, TerrainMap};

/// The optional rules and settings a fight is played with (a scene's `rules`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FightRules {
    pub diagonals: DiagonalRule,
    pub flanking: bool,
    pub facing: bool,
}

/// Whether monsters roll their damage or deal their average (DMG "Monsters and Critical Hits").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DamageMode {
    #[default]
    Rolled,
    /// The average, as stat blocks print it; a critical hit adds every damage die rolled.
    Average,
}

/// A creature or object in a fight: its sheet, where it is, and its state now.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    pub id: String,
    /// Name, AC, abilities, saves, attacks and exhaustion.
    pub sheet: Sheet,
    pub cells: Vec<Cell>,
    pub side: Side,
    pub size: Size,
    pub is_object: bool,
    pub conditions: Conditions,
    pub facing: Option<Direction>,
    pub arcs: ArcLayout,
    pub shield: Option<ShieldSide>,
    /// In a space only one size smaller fits (PHB "Squeezing into a Smaller Space").
    pub squeezing: bool,
    /// Took the Dodge action (PHB "Dodge"), until the start of its next turn.
    pub dodging: bool,
    /// An ally's Help: its next attack roll against this creature has advantage (PHB "Help").
    pub helped_against: Option<String>,
    pub health: Health,
    pub defenses: Defenses,
    /// Deals average damage instead of rolling.
    pub average_damage: bool,
    /// Hidden (PHB "Hide"), with the Dexterity (Stealth) total it hid with: hostile creatures
    /// don't see it until they find it or it gives itself away.
    pub hidden: Option<i32>,
    /// Feet above the ground (on a wall walk, a tower's top): a higher attacker attacks from
    /// above. Ranges stay measured on the map.
    pub elevation: u32,
    /// A siege weapon's kind and state; `None` for creatures and other objects.
    pub siege: Option<Siege>,
}

impl Fighter {
    pub fn name(&self) -> &str {
        &self.sheet.name
    }

    /// Able to act: not an object, not dead, not incapacitated. (A siege weapon acts through its
    /// crew: see `rules::siege`.)
    pub fn can_act(&self) -> bool {
        !self.is_object && self.health.life != Life::Dead && !self.conditions.has(Condition::Incapacitated)
    }

    /// Its arcs, when the facing rule is on and it faces somewhere.
    pub fn facer(&self, rules: FightRules) -> Option<Facer<'_>> {
        let facing = self.facing.filter(|_| rules.facing && !self.is_object)?;
        Some(Facer { cells: &self.cells, facing, layout: self.arcs })
    }

    /// The hit point maximum its exhaustion leaves it (PHB appendix A: halved from level 4).
    pub fn max_hp(&self) -> i32 {
        exhausted_max_hp(self.health.max_hp, self.sheet.exhaustion)
    }

    /// Its defenses now: a petrified creature also resists all damage and is immune to poison
    /// (PHB appendix A, "Petrified").
    pub fn defenses_now(&self) -> Defenses {
        let mut defenses = self.defenses.clone();
        if self.conditions.has(Condition::Petrified) {
            defenses.resistances.extend(DamageType::ALL);
            defenses.immunities.insert(DamageType::Poison);
        }
        defenses
    }

    /// Whether it keeps the Dodge action's benefit: dodging, not incapacitated, and its speed not
    /// 0 (PHB "Dodge").
    pub fn keeps_dodging(&self) -> bool {
        self.dodging
            && !self.conditions.has(Condition::Incapacitated)
            && speed(self.sheet.speed, &self.conditions, self.sheet.exhaustion).feet > 0
    }
}

/// The fight's board: terrain, every fighter, and the rules in play.
pub struct Field<'a> {
    pub map: &'a TerrainMap,
    pub fighters: &'a [Fighter],
    pub rules: FightRules,
    occupants: Vec<Occupant>,
}

impl<'a> Field<'a> {
    pub fn new(map: &'a TerrainMap, fighters: &'a [Fighter], rules: FightRules) -> Self {
        let occupants = fighters
            .iter()
            .filter(|f| !f.siege.is_some_and(|s| holds_creatures(s.kind)))
            .map(|f| Occupant {
                id: f.id.clone(),
                cells: f.cells.clone(),
                side: f.side,
                size: f.size,
                is_object: f.is_object,
            })
            .collect();
        Self { map, fighters, rules, occupants }
    }

    pub fn grid(&self) -> Grid {
        self.map.grid()
    }

    pub fn fighter(&self, id: &str) -> Option<&'a Fighter> {
        self.fighters.iter().find(|f| f.id == id)
    }

    /// Every fighter on another map of the same place (the terrain an attacker leans over).
    pub fn sight_board_on<'m>(&'m self, map: &'m TerrainMap) -> SightBoard<'m> {
        SightBoard { map, tokens: &self.occupants }
    }

    /// Every fighter as sight and cover see them (a siege tower left out: what is inside it is
    /// sheltered by `rules::siege::shelter`, and creatures stand in its space).
    pub fn sight_board(&self) -> SightBoard<'_> {
        SightBoard { map: self.map, tokens: &self.occupants }
    }

    /// The range in feet between two fighters' spaces (nearest cell to nearest cell), or their
    /// difference in elevation if that is more (call: height counts like a straight step of the
    /// grid, so a creature on a wall 20 ft up is 20 ft from one at its foot).
    pub fn feet_between(&self, a: &Fighter, b: &Fighter) -> u32 {
        let across = range_feet(self.grid(), self.rules.diagonals, &a.cells, &b.cells).unwrap_or(u32::MAX);
        across.max(a.elevation.abs_diff(b.elevation))
    }

    /// Where `other` stands in `of`'s arcs, under the facing rule.
    pub fn arc_of(&self, of: &Fighter, other: &Fighter) -> Option<Arc> {
        of.facer(self.rules).and_then(|facer| arc_of_space(self.grid(), &facer, &other.cells))
    }

    /// Why `viewer` can't see `target`, or `None` if it can: blinded, unaware (unconscious or
    /// petrified), the target invisible, the target in its rear arc (DMG "Optional Rule: Facing":
    /// "It can't see into its rear arc"), or no line of sight (conventions, "Line of sight").
    pub fn unseen_because(&self, viewer: &Fighter, target: &Fighter) -> Option<Unseen> {
        if let Some(c) = [Condition::Blinded, Condition::Unconscious, Condition::Petrified]
            .into_iter()
            .find(|&c| viewer.conditions.has(c))
        {
            return Some(Unseen::ViewerIs(c));
        }
        if target.conditions.has(Condition::Invisible) {
            return Some(Unseen::Invisible);
        }
        if target.hidden.is_some() && viewer.side.is_hostile_to(target.side) {
            return Some(Unseen::Hidden);
        }
        if self.arc_of(viewer, target) == Some(Arc::Rear) {
            return Some(Unseen::RearArc);
        }
        if line_of_sight(&self.sight_board(), &viewer.cells, &target.cells).is_none() {
            return Some(Unseen::NoLineOfSight);
        }
        None
    }

    pub fn sees(&self, viewer: &Fighter, target: &Fighter) -> bool {
        self.unseen_because(viewer, target).is_none()
    }
}

/// Why one creature can't see another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unseen {
    /// The viewer is blinded, unconscious or petrified.
    ViewerIs(Condition),
    /// The target is invisible.
    Invisible,
    /// The target is hidden from its enemies (PHB "Hide").
    Hidden,
    /// The target is in the viewer's rear arc (facing rule).
    RearArc,
    /// Every line from the viewer's corners to the target's space is blocked by something that
    /// blocks sight (conventions, "Line of sight").
    NoLineOfSight,
}

impl Unseen {
    /// In words, naming the viewer and the target.
    pub fn describe(self, viewer: &str, target: &str) -> String {
        match self {
            Unseen::ViewerIs(c) => format!("{viewer} is {}", c.name()),
            Unseen::Invisible => format!("{target} is invisible"),
            Unseen::Hidden => format!("{target} is hidden"),
            Unseen::RearArc => format!("{target} is in {viewer}'s rear arc"),
            Unseen::NoLineOfSight => format!("no line of sight from {viewer} to {target}"),
        }
    }
}

/// Deals damage already adjusted for defenses, and updates the conditions that follow: a creature
/// dropped to 0 and dying falls unconscious (and prone); one that dies keeps its conditions.
pub fn take_damage(health: &mut Health, conditions: &mut Conditions, amount: i32, critical: bool) -> DamageTaken {
    let taken = health.take_damage(amount, critical);
    if matches!(taken.life, Life::Dying | Life::Stable) {
        conditions.set(Condition::Unconscious, true);
    }
    taken
}

/// A death saving throw with the d20 showing `natural`; a 20 brings the creature back with 1 hit
/// point, no longer unconscious (PHB "Death Saving Throws").
pub fn death_save(health: &mut Health, conditions: &mut Conditions, natural: i32) -> Option<DeathSave> {
    let save = health.death_save(natural)?;
    if health.life == Life::Up {
        conditions.set(Condition::Unconscious, false);
    }
    Some(save)
}

/// Heals up to `max_hp`; a creature at 0 that regains hit points is no longer unconscious (it
/// stays prone). Returns the hit points regained.
pub fn heal(health: &mut Health, conditions: &mut Conditions, amount: i32, max_hp: i32) -> i32 {
    let was_down = health.hp == 0;
    let regained = health.heal(amount, max_hp);
    if was_down && health.life == Life::Up {
        conditions.set(Condition::Unconscious, false);
    }
    regained
}

#[cfg(test)]
pub(crate) mod tests;
