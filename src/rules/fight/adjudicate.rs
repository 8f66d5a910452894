//! The attack adjudicator: may this attacker make this attack at this target, and if so against
//! what AC and with which advantages and disadvantages, every one named. Also who flanks whom.
//!
//! PHB "Making an Attack" (ranged attacks at long range and in close combat, unseen attackers and
//! targets), appendix A (conditions); PHB "Squeezing into a Smaller Space"
//! (004_ebe0798b5689cc3b.txt); DMG "Optional Rule: Flanking", "Optional Rule: Facing", "Cover",
//! "Advantage and Disadvantage" (002_ce573f1e51986339.txt); conventions, "Flanking", "Facing",
//! "Cover".

use std::collections::HashSet;

use serde::Serialize;

use super::{CLOSE_FEET, Field, Fighter, Unseen};
use crate::rules::Cell;
use crate::rules::advantage::Sources;
use crate::rules::conditions::{Condition, attacked_sources};
use crate::rules::creature::{Attack, AttackKind, Trait};
use crate::rules::facing::{Arc, shield_counts};
use crate::rules::flanking::{cells_that_flank_with, flanking_cells_of};
use crate::rules::health::Life;
use crate::rules::modifiers::D20;
use crate::rules::siege::{Shelter, Siege, SiegeKind, Step, ram_crew};
use crate::rules::sight::{Cover, CoverDegree};

/// A shield's bonus to AC (PHB "Armor": a shield raises AC by 2). A scenario's AC includes it;
/// under the facing rule an attack from outside the shield's arcs doesn't meet it.
pub const SHIELD_BONUS: i32 = 2;

/// Why an attack can't be made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Refusal {
    #[error("{attacker} has no attack named {attack:?}; its attacks are {}", attacks.join(", "))]
    NoSuchAttack { attacker: String, attack: String, attacks: Vec<String> },
    #[error("{attacker} has no attacks in the scenario")]
    NoAttacks { attacker: String },
    #[error("a creature doesn't attack itself here")]
    Itself,
    /// Objects and the dead make no attacks; incapacitated creatures take no actions.
    #[error("{attacker} can't attack: {why}")]
    CannotAct { attacker: String, why: String },
    #[error("out of reach: {distance} ft away, and the reach is {reach} ft")]
    OutOfReach { distance: u32, reach: u32 },
    #[error("out of range: {distance} ft away, and the attack reaches {range} ft")]
    OutOfRange { distance: u32, range: u32 },
    #[error("{target} has total cover: walls block every line to it, so it can't be targeted")]
    TotalCover { target: String },
    /// The facing rule: "A creature can normally target only creatures in its front or side arcs".
    #[error("{target} is in the attacker's rear arc: a creature can target only its front and side arcs")]
    InRearArc { target: String },
    /// Within a mangonel's or trebuchet's minimum range.
    #[error("too close: {distance} ft away, and it can't hit targets within {min_range} ft")]
    TooClose { distance: u32, min_range: u32 },
    /// A ram's attack: "one object".
    #[error("{target} is not an object: it hits only objects")]
    NotAnObject { target: String },
    /// A siege weapon not yet loaded and aimed.
    #[error("{weapon} is {state}: {next} it first")]
    NotReady { weapon: String, state: String, next: String },
    /// A ram without "a minimum of four Medium creatures to operate" it.
    #[error("{weapon} needs four Medium creatures to work it: {crew}")]
    TooFewCrew { weapon: String, crew: String },
    /// Total cover from siege equipment: inside a siege tower, or under a ram's gallery roof.
    #[error("{}", sheltered(.0))]
    Sheltered(Shelter),
}

/// A target sheltered by siege equipment, in words.
fn sheltered(shelter: &Shelter) -> String {
    match shelter {
        Shelter::SiegeTower { target, .. } => format!("{target} has total cover: {shelter}"),
        Shelter::RamRoof { target, .. } => {
            format!("{target} has total cover: the attack comes from above, and {shelter}")
        }
    }
}

/// Two creatures that flank an enemy, and the cells of their spaces that do it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlankingPair {
    pub a: String,
    pub b: String,
    pub a_cell: Cell,
    pub b_cell: Cell,
}

/// The AC an attack must meet, part by part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ArmorClass {
    /// The target's AC as its sheet gives it (shield included).
    pub base: i32,
    /// Half cover +2, three-quarters +5.
    pub cover: i32,
    /// −2 when the target's shield is on the far side under the facing rule.
    pub shield: i32,
    pub total: i32,
}

/// Everything the rules say about one attack before it is rolled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Adjudication {
    pub attacker: String,
    pub target: String,
    pub attack: Attack,
    pub kind: AttackKind,
    /// The attack's reach or range in words (`reach 5 ft`, `range 80/320 ft`).
    pub reach: String,
    pub distance: u32,
    /// Whether the attacker can see the target, and why not.
    pub sees_target: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unseen_because: Option<String>,
    /// The cover ruling, line by line (the command line writes it as `query cover` does).
    #[serde(skip)]
    pub cover: Cover,
    /// Where the target stands in the attacker's arcs, and the attacker in the target's (facing).
    pub target_in_arc: Option<Arc>,
    pub attacker_in_arc: Option<Arc>,
    pub flanking: Option<FlankingPair>,
    pub sources: Sources,
    pub ac: ArmorClass,
    /// Why a hit is a critical hit whatever the d20 shows, if it is.
    pub automatic_critical: Option<String>,
    /// `None` when the attack may be made.
    pub refusal: Option<Refusal>,
}

impl Adjudication {
    pub fn allowed(&self) -> bool {
        self.refusal.is_none()
    }

    /// The ruling in a few words: `Shortbow: range 80/320 ft, 45 ft · AC 13 (half cover) ·
    /// advantage: flanking with Lia`, or why it can't be made.
    pub fn summary(&self) -> String {
        if let Some(refusal) = &self.refusal {
            return format!("{}: {refusal}", self.attack.name);
        }
        let mut ac = format!("AC {}", self.ac.total);
        let parts: Vec<String> = [
            (self.ac.cover != 0).then(|| format!("{:+} cover", self.ac.cover)),
            (self.ac.shield != 0).then(|| "shield out of its arc".to_owned()),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !parts.is_empty() {
            ac = format!("{ac} ({})", parts.join(", "));
        }
        if self.attack.indirect && self.cover.degree != CoverDegree::None {
            ac = format!("{ac} (the high arc passes over {})", self.cover.degree.name());
        }
        let mut text = format!("{}: {}, {} ft · {ac}", self.attack.name, self.reach, self.distance);
        if !self.sources.is_empty() {
            text = format!("{text} · {}", self.sources.describe());
        }
        text
    }
}

/// Why a creature can't flank an enemy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CantFlank {
    /// An object, or dead.
    CannotFight {
        who: String,
    },
    NotHostile {
        who: String,
        enemy: String,
    },
    Incapacitated {
        who: String,
        by: Condition,
    },
    CannotSee {
        who: String,
        enemy: String,
        why: String,
    },
}

impl std::fmt::Display for CantFlank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CantFlank::CannotFight { who } => write!(f, "{who} can't fight"),
            CantFlank::NotHostile { who, enemy } => write!(f, "{who} is not hostile to {enemy}"),
            CantFlank::Incapacitated { who, by } => write!(f, "{who} is {} (incapacitated)", by.name()),
            CantFlank::CannotSee { who, enemy, why } => write!(f, "{who} can't see {enemy}: {why}"),
        }
    }
}

impl Serialize for CantFlank {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Why `who` can't flank `enemy`, or `None` if it may (conventions, "Flanking": "A creature
/// can't flank an enemy it can't see, nor while incapacitated").
pub fn cannot_flank_because(field: &Field, who: &Fighter, enemy: &Fighter) -> Option<CantFlank> {
    let (name, enemy_name) = (who.name().to_owned(), enemy.name().to_owned());
    if who.is_object || who.health.life == Life::Dead {
        return Some(CantFlank::CannotFight { who: name });
    }
    if !who.side.is_hostile_to(enemy.side) {
        return Some(CantFlank::NotHostile { who: name, enemy: enemy_name });
    }
    if let Some(by) = who.conditions.incapacitated_by() {
        return Some(CantFlank::Incapacitated { who: name, by });
    }
    let why = field.unseen_because(who, enemy)?.describe(who.name(), enemy.name());
    Some(CantFlank::CannotSee { who: name, enemy: enemy_name, why })
}

/// Whether `who` may flank `enemy` now: able to ([`cannot_flank_because`]) and adjacent to it by
/// the one distance, so not from a wall walk above it (docs/rules.md, "Elevation").
fn flanks(field: &Field, who: &Fighter, enemy: &Fighter) -> bool {
    field.adjacent(who, enemy) && cannot_flank_because(field, who, enemy).is_none()
}

/// The cells around `enemy` from which a creature would flank it together with `partner`: none
/// unless `partner` itself could flank it there ([`flanks`]).
pub fn partner_cells(field: &Field, enemy: &Fighter, partner: &Fighter) -> Vec<Cell> {
    if !flanks(field, partner, enemy) {
        return Vec::new();
    }
    cells_that_flank_with(field.grid(), &enemy.cells, &partner.cells)
}

/// Whether `a` and `b` are allies against `enemy`: two different creatures, friends to each
/// other, both hostile to it.
fn allies_against(a: &Fighter, b: &Fighter, enemy: &Fighter) -> bool {
    a.id != b.id
        && !a.side.is_hostile_to(b.side)
        && a.side.is_hostile_to(enemy.side)
        && b.side.is_hostile_to(enemy.side)
}

/// Every pair that flanks `enemy` (each pair once), with the cells that do it.
pub fn flanking_pairs(field: &Field, enemy: &Fighter) -> Vec<FlankingPair> {
    let able: Vec<&Fighter> = field.fighters.iter().filter(|f| flanks(field, f, enemy)).collect();
    let mut pairs = Vec::new();
    for (i, a) in able.iter().enumerate() {
        for b in &able[i + 1..] {
            if !allies_against(a, b, enemy) {
                continue;
            }
            if let Some((a_cell, b_cell)) = flanking_cells_of(field.grid(), &enemy.cells, &a.cells, &b.cells) {
                pairs.push(FlankingPair { a: a.id.clone(), b: b.id.clone(), a_cell, b_cell });
            }
        }
    }
    pairs
}

/// The ally with whom `attacker` flanks `target`, if the flanking rule is on and one does.
pub fn flanking_partner(field: &Field, attacker: &Fighter, target: &Fighter) -> Option<FlankingPair> {
    if !field.rules.flanking || !flanks(field, attacker, target) {
        return None;
    }
    field.fighters.iter().filter(|ally| allies_against(attacker, ally, target) && flanks(field, ally, target)).find_map(
        |ally| {
            let (a_cell, b_cell) = flanking_cells_of(field.grid(), &target.cells, &attacker.cells, &ally.cells)?;
            Some(FlankingPair { a: attacker.id.clone(), b: ally.id.clone(), a_cell, b_cell })
        },
    )
}

/// Where a friend of `me` could stand to flank `enemy`: the free cells around it from which a
/// creature would flank it together with `me` or with an ally of `me` able to flank it (the map's
/// shading when a creature is selected and an enemy hovered). Empty unless the flanking rule is on
/// and `enemy` is hostile to `me`.
pub fn where_to_flank(field: &Field, me: &Fighter, enemy: &Fighter) -> Vec<Cell> {
    if !field.rules.flanking || !me.side.is_hostile_to(enemy.side) {
        return Vec::new();
    }
    let occupied: HashSet<Cell> = field.fighters.iter().flat_map(|f| f.cells.iter().copied()).collect();
    let mut cells: Vec<Cell> = Vec::new();
    let partners = field.fighters.iter().filter(|f| !f.is_object && !f.side.is_hostile_to(me.side));
    for partner in partners {
        for cell in partner_cells(field, enemy, partner) {
            if !occupied.contains(&cell) && !cells.contains(&cell) {
                cells.push(cell);
            }
        }
    }
    cells
}

/// Finds the attack named `name` (any case), or the first.
pub fn pick_attack<'a>(attacker: &'a Fighter, name: Option<&str>) -> Result<&'a Attack, Refusal> {
    let attacks = &attacker.sheet.attacks;
    match name {
        None => attacks.first().ok_or_else(|| Refusal::NoAttacks { attacker: attacker.name().to_owned() }),
        Some(name) => {
            attacks.iter().find(|a| a.name.eq_ignore_ascii_case(name.trim())).ok_or_else(|| Refusal::NoSuchAttack {
                attacker: attacker.name().to_owned(),
                attack: name.to_owned(),
                attacks: attacks.iter().map(|a| a.name.clone()).collect(),
            })
        }
    }
}

/// The whole ruling on `attacker` making `attack` against `target`.
pub fn adjudicate(field: &Field, attacker: &Fighter, target: &Fighter, attack: &Attack) -> Adjudication {
    let grid = field.grid();
    let kind = attack.kind();
    let distance = field.feet_between(attacker, target);
    let cover = field.cover(attacker, target, attack.indirect);
    let unseen = field.unseen_because(attacker, target);
    let target_in_arc = field.arc_of(attacker, target);
    let attacker_in_arc = field.arc_of(target, attacker);
    let flanking = flanking_partner(field, attacker, target).filter(|_| kind.is_melee() || grid.is_hex());
    let sources = sources(field, attacker, target, attack, distance, unseen, &flanking);
    let shield = match (target.shield, attacker_in_arc) {
        (Some(side), Some(arc)) if !shield_counts(side, arc) => -SHIELD_BONUS,
        _ => 0,
    };
    // A high arc "can hit targets behind cover" (DMG "Mangonel"): cover adds nothing.
    let cover_bonus = if attack.indirect { 0 } else { cover.degree.bonus().unwrap_or(0) };
    let ac =
        ArmorClass { base: target.sheet.ac, cover: cover_bonus, shield, total: target.sheet.ac + cover_bonus + shield };
    let automatic_critical = [Condition::Paralyzed, Condition::Unconscious]
        .into_iter()
        .find(|&c| target.conditions.has(c) && distance <= CLOSE_FEET)
        .map(|c| format!("{} is {} and within 5 ft: a hit is a critical hit", target.name(), c.name()));
    let refusal = refusal(field, attacker, target, attack, distance, &cover, target_in_arc);
    Adjudication {
        attacker: attacker.id.clone(),
        target: target.id.clone(),
        attack: attack.clone(),
        kind,
        reach: attack.reach_words(),
        distance,
        sees_target: unseen.is_none(),
        unseen_because: unseen.map(|why| why.describe(attacker.name(), target.name())),
        cover,
        target_in_arc,
        attacker_in_arc,
        flanking,
        sources,
        ac,
        automatic_critical,
        refusal,
    }
}

fn refusal(
    field: &Field,
    attacker: &Fighter,
    target: &Fighter,
    attack: &Attack,
    distance: u32,
    cover: &Cover,
    target_in_arc: Option<Arc>,
) -> Option<Refusal> {
    if attacker.id == target.id {
        return Some(Refusal::Itself);
    }
    if let Some(siege) = attacker.siege {
        if let Some(refusal) = siege_refusal(field, attacker, siege) {
            return Some(refusal);
        }
    } else {
        let why_not_act = if attacker.is_object {
            Some("an object makes no attacks".to_owned())
        } else if attacker.health.life == Life::Dead {
            Some("it is dead".to_owned())
        } else {
            attacker.conditions.incapacitated_by().map(|c| format!("it is {} (incapacitated: no actions)", c.name()))
        };
        if let Some(why) = why_not_act {
            return Some(Refusal::CannotAct { attacker: attacker.name().to_owned(), why });
        }
    }
    if attack.objects_only && !target.is_object {
        return Some(Refusal::NotAnObject { target: target.name().to_owned() });
    }
    if attack.kind().is_melee() && distance > attack.range {
        return Some(Refusal::OutOfReach { distance, reach: attack.range });
    }
    if !attack.kind().is_melee() && distance > attack.farthest() {
        return Some(Refusal::OutOfRange { distance, range: attack.farthest() });
    }
    if let Some(min_range) = attack.min_range.filter(|&min| distance <= min) {
        return Some(Refusal::TooClose { distance, min_range });
    }
    if target_in_arc == Some(Arc::Rear) {
        return Some(Refusal::InRearArc { target: target.name().to_owned() });
    }
    if let Some(shelter) = &cover.sheltered {
        return Some(Refusal::Sheltered(shelter.clone()));
    }
    (cover.total && !attack.indirect).then(|| Refusal::TotalCover { target: target.name().to_owned() })
}

/// Why a siege weapon can't fire now: destroyed, not loaded and aimed, or a ram short of crew.
fn siege_refusal(field: &Field, weapon: &Fighter, siege: Siege) -> Option<Refusal> {
    let name = format!("the {}", siege.kind.name());
    if weapon.health.life == Life::Dead {
        return Some(Refusal::CannotAct { attacker: weapon.name().to_owned(), why: "it is destroyed".to_owned() });
    }
    if let Some(next) = siege.crewing.next_step(siege.kind).filter(|&step| step != Step::Fire) {
        let state = siege.crewing.state(siege.kind);
        return Some(Refusal::NotReady { weapon: name, state, next: siege.kind.verb(next).to_owned() });
    }
    if siege.kind == SiegeKind::Ram {
        let crew = ram_crew(field, weapon);
        if !crew.enough() {
            let name_of = |id: &str| field.fighter(id).map_or(id.to_owned(), |f| f.name().to_owned());
            return Some(Refusal::TooFewCrew { weapon: name, crew: crew.describe(name_of) });
        }
    }
    None
}

/// The ally that gives `attacker` its Pack Tactics against `target`: one of its side within 5 ft
/// of the target and not incapacitated (SRD kobold, "Pack Tactics"; distance by the one measure,
/// as every "within N feet").
fn pack_tactics_ally<'a>(field: &Field<'a>, attacker: &Fighter, target: &Fighter) -> Option<&'a Fighter> {
    if !attacker.sheet.traits.contains(&Trait::PackTactics) {
        return None;
    }
    field.fighters.iter().find(|f| {
        f.id != attacker.id
            && f.id != target.id
            && f.side.is_allied_with(attacker.side)
            && f.can_act()
            && field.feet_between(f, target) <= CLOSE_FEET
    })
}

/// Every advantage and disadvantage on the attack roll, named (conventions, "Advantage and
/// disadvantage"). A state that several rules reach (an unconscious target is also prone and
/// can't see) is named once.
fn sources(
    field: &Field,
    attacker: &Fighter,
    target: &Fighter,
    attack: &Attack,
    distance: u32,
    unseen: Option<Unseen>,
    flanking: &Option<FlankingPair>,
) -> Sources {
    let mut s = Sources::default();
    let (a, t) = (attacker.name(), target.name());
    let kind = attack.kind();
    // The attacker's state (PHB appendix A; "Unseen Attackers and Targets"; "Squeezing").
    if let Some(why) = unseen {
        s.disadvantage(format!("can't see the target: {}", why.describe(a, t)));
    }
    // Frightened, poisoned, prone, restrained, exhaustion 3 and the attacker's effects.
    s.merge(attacker.rolling().sources(D20::Attack { weapon: kind.is_weapon() }));
    if attacker.squeezing {
        s.disadvantage(format!("{a} is squeezing"));
    }
    if let Some(why) = field.sunlight_hampers(attacker) {
        s.disadvantage(why);
    }
    // The attack (PHB "Ranged Attacks", "Ranged Attacks in Close Combat"; "Help"; flanking).
    if !kind.is_melee() {
        if distance > attack.range && distance <= attack.farthest() {
            s.disadvantage(format!("long range: {distance} ft is beyond {} ft", attack.range));
        }
        let threat = field.fighters.iter().find(|f| {
            f.id != attacker.id
                && f.side.is_hostile_to(attacker.side)
                && f.can_act()
                && field.feet_between(f, attacker) <= CLOSE_FEET
                && field.sees(f, attacker)
        });
        if let Some(threat) = threat {
            s.disadvantage(format!("ranged attack with a hostile creature within 5 ft ({})", threat.name()));
        }
    }
    if attacker.helped_against.as_deref() == Some(target.id.as_str()) {
        s.advantage(format!("an ally's Help against {t}"));
    }
    if let Some(pair) = flanking {
        let partner = field.fighter(&pair.b).map_or(pair.b.as_str(), Fighter::name);
        s.advantage(format!("flanking {t} with {partner}"));
    }
    if let Some(ally) = pack_tactics_ally(field, attacker, target) {
        s.advantage(format!("Pack Tactics: {} is within 5 ft of {t}", ally.name()));
    }
    // Whether the target sees the attacker: each reason once (an object sees nothing; it has no
    // chance of dodging either way, DMG "Armor Class" of objects).
    let seen = if target.is_object { None } else { field.unseen_because(target, attacker) };
    match seen {
        Some(Unseen::ViewerIs(_)) | None => {}
        Some(Unseen::Invisible) => s.advantage(format!("{a} is invisible")),
        Some(Unseen::Hidden) => s.advantage(format!("unseen attacker: {a} is hidden")),
        Some(Unseen::RearArc) => s.advantage(format!("in {t}'s rear arc")),
        Some(Unseen::NoLineOfSight) => s.advantage(format!("unseen attacker: no line of sight from {t} to {a}")),
        Some(Unseen::InDarkness) => s.advantage(format!("unseen attacker: {a} is in darkness as {t} sees it")),
    }
    // The target's state (PHB appendix A).
    s.merge(attacked_sources(t, &target.conditions));
    if target.conditions.has(Condition::Prone) {
        if distance > CLOSE_FEET {
            s.disadvantage(format!("{t} is prone, and the attacker beyond 5 ft"));
        } else if !target.conditions.has(Condition::Unconscious) {
            s.advantage(format!("{t} is prone, and the attacker within 5 ft"));
        }
    }
    if target.squeezing {
        s.advantage(format!("{t} is squeezing"));
    }
    if target.keeps_dodging() && field.sees(target, attacker) {
        s.disadvantage(format!("{t} is dodging"));
    }
    s
}
