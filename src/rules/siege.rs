//! Siege equipment: the seven weapons' statistics, crewing them action by action across turns,
//! the ram's crew, pushing a weapon, the cauldron's pour, and the shelter a ram's gallery and a
//! siege tower give.
//!
//! DMG "Siege Equipment" with the stat blocks of the ballista, cannon, suspended cauldron,
//! mangonel and ram (000_8c43542ae10d17a7.txt); the siege tower and the trebuchet from
//! `../shared/rules/README.md`. The calls the rules leave open are in `docs/rules.md`, "Siege
//! equipment".

use serde::{Deserialize, Serialize};

use super::area::Volume;
use super::creature::{Ability, Attack, AttackKind};
use super::dice::Notation;
use super::distance::DiagonalParity;
use super::fight::saves::{InArea, SaveEffect, Unaffected};
use super::fight::{Field, Fighter};
use super::health::{DamageType, Life};
use super::lattice::{Point, cells_touching};
use super::movement::{self, MoveError, Occupant, Path, fit_at};
use super::sight::CoverDegree;
use super::{Cell, Footprint, Grid, Size};

/// The seven siege weapons of the DMG.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SiegeKind {
    Ballista,
    Cannon,
    Cauldron,
    Mangonel,
    Ram,
    SiegeTower,
    Trebuchet,
}

/// A siege weapon's stat block, less its attack or effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub name: &'static str,
    pub size: Size,
    pub ac: i32,
    pub hp: i32,
    /// Actions to load it (to fill a cauldron).
    pub load_actions: u8,
    /// Actions to aim it.
    pub aim_actions: u8,
}

/// Within this distance in feet a creature can crew or push a weapon (it must be beside it).
pub const CREW_REACH: u32 = 5;

/// How far from a cauldron's space the square "directly below it" may be, in feet: beside it, or
/// past the 5-ft parapet it hangs over (call; the map is seen from above).
pub const POUR_REACH: u32 = 10;

/// The ram's crew: "a minimum of four Medium creatures", in [`crew_weight`] units.
pub const RAM_CREW: u32 = 4 * crew_weight(Size::Medium);

impl SiegeKind {
    pub const ALL: [SiegeKind; 7] = [
        SiegeKind::Ballista,
        SiegeKind::Cannon,
        SiegeKind::Cauldron,
        SiegeKind::Mangonel,
        SiegeKind::Ram,
        SiegeKind::SiegeTower,
        SiegeKind::Trebuchet,
    ];

    /// Its stat block: every one is an object "immune to poison and psychic damage".
    pub fn stats(self) -> Stats {
        let (name, size, ac, hp, load_actions, aim_actions) = match self {
            SiegeKind::Ballista => ("ballista", Size::Large, 15, 50, 1, 1),
            SiegeKind::Cannon => ("cannon", Size::Large, 19, 75, 1, 1),
            SiegeKind::Cauldron => ("suspended cauldron", Size::Large, 19, 20, 3, 0),
            SiegeKind::Mangonel => ("mangonel", Size::Large, 15, 100, 2, 2),
            SiegeKind::Ram => ("ram", Size::Large, 15, 100, 0, 0),
            SiegeKind::SiegeTower => ("siege tower", Size::Gargantuan, 15, 200, 0, 0),
            SiegeKind::Trebuchet => ("trebuchet", Size::Huge, 15, 150, 2, 2),
        };
        Stats { name, size, ac, hp, load_actions, aim_actions }
    }

    pub fn name(self) -> &'static str {
        self.stats().name
    }

    /// Whether it attacks or pours: every one but the siege tower.
    pub fn is_weapon(self) -> bool {
        self != SiegeKind::SiegeTower
    }

    /// Its attack, as a creature's attack is written: the bolt, ball, stone or ram.
    pub fn attack(self) -> Option<Attack> {
        let shot = |name: &str, bonus, damage: &str, damage_type: &str, range, long_range| Attack {
            name: name.to_owned(),
            bonus,
            damage: damage.to_owned(),
            damage_type: damage_type.to_owned(),
            range,
            long_range: Some(long_range),
            kind: Some(AttackKind::Ranged),
            ..Attack::default()
        };
        let stone = |attack: Attack| Attack { min_range: Some(60), indirect: true, ..attack };
        Some(match self {
            SiegeKind::Ballista => shot("Bolt", 6, "3d10", "piercing", 120, 480),
            SiegeKind::Cannon => shot("Cannon ball", 6, "8d10", "bludgeoning", 600, 2400),
            SiegeKind::Mangonel => stone(shot("Mangonel stone", 5, "5d10", "bludgeoning", 200, 800)),
            SiegeKind::Trebuchet => stone(shot("Trebuchet stone", 5, "8d10", "bludgeoning", 300, 1200)),
            SiegeKind::Ram => Attack {
                name: "Ram".to_owned(),
                bonus: 8,
                damage: "3d10".to_owned(),
                damage_type: "bludgeoning".to_owned(),
                range: 5,
                kind: Some(AttackKind::Melee),
                objects_only: true,
                ..Attack::default()
            },
            SiegeKind::Cauldron | SiegeKind::SiegeTower => return None,
        })
    }

    /// The cauldron's boiling oil: "a DC 15 Dexterity saving throw, taking 10 (3d6) fire damage on
    /// a failed save, or half as much damage on a successful one".
    pub fn pour(self) -> Option<SaveEffect> {
        (self == SiegeKind::Cauldron).then(|| SaveEffect {
            ability: Ability::Dex,
            dc: 15,
            damage: Notation::parse("3d6").ok(),
            damage_type: DamageType::Fire,
            half_on_success: true,
        })
    }

    /// The word for a step of this weapon: a cauldron is filled and tipped, a ram rammed.
    pub fn verb(self, step: Step) -> &'static str {
        match (self, step) {
            (SiegeKind::Cauldron, Step::Load) => "fill",
            (SiegeKind::Cauldron, Step::Fire) => "tip",
            (SiegeKind::Ram, Step::Fire) => "ram",
            (_, Step::Load) => "load",
            (_, Step::Aim) => "aim",
            (_, Step::Fire) => "fire",
        }
    }

    /// The actions each step takes, in order, such as `load 2, aim 2, fire 1`.
    pub fn sequence(self) -> String {
        let stats = self.stats();
        let steps = [(Step::Load, stats.load_actions), (Step::Aim, stats.aim_actions), (Step::Fire, 1)];
        if !self.is_weapon() {
            return "nothing: it carries creatures".to_owned();
        }
        steps
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(step, n)| format!("{} {n}", self.verb(step)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A step of working a weapon, each an action of one creature (DMG: "It takes one action to load
/// the weapon, one action to aim it, and one action to fire it").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Load it, or fill a cauldron.
    Load,
    Aim,
    /// Fire it, tip a cauldron, swing a ram.
    Fire,
}

/// How far a weapon is readied, as a scenario may start it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Readiness {
    #[default]
    Unloaded,
    /// Loaded (a cauldron: full), not aimed.
    Loaded,
    /// Loaded and aimed: it fires with one more action.
    Aimed,
}

/// The actions spent so far on loading and on aiming one weapon, by any of its crew over any
/// number of turns; firing empties it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crewing {
    pub loaded: u8,
    pub aimed: u8,
}

/// Why a step can't be taken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum SiegeError {
    #[error("{weapon} is not a weapon: nothing is loaded, aimed or fired on it")]
    NotAWeapon { weapon: String },
    #[error("{weapon} has no such step as \"{step}\": it takes {sequence}")]
    NoSuchStep { weapon: String, step: &'static str, sequence: String },
    #[error("{weapon} can't {step} now: it is {state}; next it must {next}")]
    OutOfOrder { weapon: String, step: &'static str, state: String, next: &'static str },
    #[error("{who} is {distance} ft from {weapon}: its crew must be within {CREW_REACH} ft of it")]
    TooFar { who: String, weapon: String, distance: u32 },
    #[error("{who} can't work {weapon}: {why}")]
    CannotAct { who: String, weapon: String, why: String },
    #[error("{weapon} is not siege equipment")]
    NotSiege { weapon: String },
    #[error("{weapon} is destroyed")]
    Destroyed { weapon: String },
    #[error("{weapon} pours on no square: the scenario gives it no `pours_on`")]
    NowhereToPour { weapon: String },
}

impl Crewing {
    /// The crewing of a weapon that starts `readiness`.
    pub fn ready(kind: SiegeKind, readiness: Readiness) -> Self {
        let stats = kind.stats();
        match readiness {
            Readiness::Unloaded => Crewing::default(),
            Readiness::Loaded => Crewing { loaded: stats.load_actions, aimed: 0 },
            Readiness::Aimed => Crewing { loaded: stats.load_actions, aimed: stats.aim_actions },
        }
    }

    /// The step it needs next: load until loaded, then aim until aimed, then fire (a ram only
    /// fires; a siege tower has none).
    pub fn next_step(&self, kind: SiegeKind) -> Option<Step> {
        let stats = kind.stats();
        if !kind.is_weapon() {
            None
        } else if self.loaded < stats.load_actions {
            Some(Step::Load)
        } else if self.aimed < stats.aim_actions {
            Some(Step::Aim)
        } else {
            Some(Step::Fire)
        }
    }

    /// Whether it may fire now.
    pub fn can_fire(&self, kind: SiegeKind) -> bool {
        self.next_step(kind) == Some(Step::Fire)
    }

    /// Its state in words: `unloaded`, `loading (1 of 2 actions)`, `loaded`, `aiming (1 of 2
    /// actions)`, `aimed`; a cauldron `empty`, `filling (2 of 3 actions)`, `full`; a ram `ready`.
    pub fn state(&self, kind: SiegeKind) -> String {
        let stats = kind.stats();
        let cauldron = kind == SiegeKind::Cauldron;
        match self.next_step(kind) {
            None => "carrying creatures".to_owned(),
            Some(Step::Load) if self.loaded == 0 => (if cauldron { "empty" } else { "unloaded" }).to_owned(),
            Some(Step::Load) => format!(
                "{} ({} of {} actions)",
                if cauldron { "filling" } else { "loading" },
                self.loaded,
                stats.load_actions
            ),
            Some(Step::Aim) if self.aimed == 0 => "loaded".to_owned(),
            Some(Step::Aim) => format!("aiming ({} of {} actions)", self.aimed, stats.aim_actions),
            Some(Step::Fire) if kind == SiegeKind::Ram => "ready".to_owned(),
            Some(Step::Fire) if cauldron => "full".to_owned(),
            Some(Step::Fire) => "aimed".to_owned(),
        }
    }

    /// Whether `step` is the one it needs now, and why not.
    pub fn check(&self, kind: SiegeKind, step: Step) -> Result<(), SiegeError> {
        let weapon = format!("the {}", kind.name());
        let stats = kind.stats();
        let Some(next) = self.next_step(kind) else { return Err(SiegeError::NotAWeapon { weapon }) };
        let exists = match step {
            Step::Load => stats.load_actions > 0,
            Step::Aim => stats.aim_actions > 0,
            Step::Fire => true,
        };
        if !exists {
            return Err(SiegeError::NoSuchStep { weapon, step: kind.verb(step), sequence: kind.sequence() });
        }
        if next != step {
            return Err(SiegeError::OutOfOrder {
                weapon,
                step: kind.verb(step),
                state: self.state(kind),
                next: kind.verb(next),
            });
        }
        Ok(())
    }

    /// Spends one action on `step`: a load or aim action counts towards it; firing empties the
    /// weapon, which must then be loaded and aimed again.
    pub fn spend(&mut self, kind: SiegeKind, step: Step) -> Result<(), SiegeError> {
        self.check(kind, step)?;
        match step {
            Step::Load => self.loaded += 1,
            Step::Aim => self.aimed += 1,
            Step::Fire => *self = Crewing::default(),
        }
        Ok(())
    }
}

/// A siege weapon on the map: what it is, how far it is readied, and where a cauldron pours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Siege {
    pub kind: SiegeKind,
    pub crewing: Crewing,
    /// The north-west cell of the 10-foot square "directly below" a cauldron.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pours_on: Option<Cell>,
}

/// How much a creature counts towards a crew, in halves of a Medium creature. Call: as carrying
/// capacity (PHB "Size and Strength": doubled for each size above Medium, halved for Tiny), with
/// Small counting as Medium.
pub const fn crew_weight(size: Size) -> u32 {
    match size {
        Size::Tiny => 1,
        Size::Small | Size::Medium => 2,
        Size::Large => 4,
        Size::Huge => 8,
        Size::Gargantuan => 16,
    }
}

/// The crew a weapon needs to be pushed: a ram its four Medium operators, any other as many
/// Medium creatures as its size holds (Large 2, Huge 4, Gargantuan 8). A call: the DMG says only
/// that siege weapons "require creatures to move them".
pub fn push_needed(kind: SiegeKind) -> u32 {
    let by_size = crew_weight(kind.stats().size);
    if kind == SiegeKind::Ram { by_size.max(RAM_CREW) } else { by_size }
}

/// Crew strength (in halves of a Medium creature) in words: `3 Medium creatures`, `2½`.
pub fn in_medium_creatures(strength: u32) -> String {
    let whole = strength / 2;
    let half = if strength % 2 == 1 { "½" } else { "" };
    let plural = if strength == 2 { "" } else { "s" };
    format!("{whole}{half} Medium creature{plural}")
}

/// The creatures working a weapon: those within 5 ft of it that can act and aren't hostile to its
/// side, and what they add up to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Crew {
    pub members: Vec<String>,
    /// In halves of a Medium creature ([`crew_weight`]).
    pub strength: u32,
    pub needed: u32,
}

impl Crew {
    pub fn enough(&self) -> bool {
        self.strength >= self.needed
    }

    /// `2 Medium creatures of the 4 needed (Brom, Gorm)`.
    pub fn describe(&self, name_of: impl Fn(&str) -> String) -> String {
        let names: Vec<String> = self.members.iter().map(|id| name_of(id)).collect();
        let who = if names.is_empty() { "nobody".to_owned() } else { names.join(", ") };
        format!(
            "{} of the {} needed ({who})",
            in_medium_creatures(self.strength),
            in_medium_creatures(self.needed).trim_end_matches(" creatures").trim_end_matches(" creature")
        )
    }
}

/// The creatures beside `weapon` that can act and aren't hostile to its side.
pub fn crew_of(field: &Field, weapon: &Fighter, needed: u32) -> Crew {
    let members: Vec<&Fighter> = field
        .fighters
        .iter()
        .filter(|f| f.can_act() && !f.side.is_hostile_to(weapon.side))
        .filter(|f| field.feet_between(f, weapon) <= CREW_REACH)
        .collect();
    Crew {
        strength: members.iter().map(|f| crew_weight(f.size)).sum(),
        members: members.iter().map(|f| f.id.clone()).collect(),
        needed,
    }
}

/// The ram's operators: "It takes a minimum of four Medium creatures to operate a ram".
pub fn ram_crew(field: &Field, ram: &Fighter) -> Crew {
    crew_of(field, ram, RAM_CREW)
}

/// Who can push `weapon` now and how far: enough crew beside it, each paying 2 ft of its movement
/// a foot (call: pushing a weapon is moving a heavy load, at half speed), so the weapon goes as
/// far as half the least movement any of them has left (rounded down to 5 ft).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Push {
    pub crew: Crew,
    pub feet: u32,
}

pub fn push(field: &Field, weapon: &Fighter, kind: SiegeKind, feet_left: impl Fn(&Fighter) -> u32) -> Push {
    let crew = crew_of(field, weapon, push_needed(kind));
    let least = crew.members.iter().filter_map(|id| field.fighter(id)).map(feet_left).min().unwrap_or(0);
    let feet = if crew.enough() { least / 2 / 5 * 5 } else { 0 };
    Push { crew, feet }
}

/// How far the DM may move a weapon without crew: across any map (the map's side is at most
/// 500 cells).
pub const DM_PUSH_FEET: u32 = 5000;

/// A push of a siege weapon: its path, and where each pusher's anchor goes (they walk with it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushPlan {
    pub path: Path,
    /// Each pusher by id, its anchor now and after the push.
    pub pushers: Vec<(String, Cell, Cell)>,
}

impl PushPlan {
    /// The walk of a pusher from its anchor `from`, alongside the weapon: the weapon's steps
    /// shifted to its place, each paying twice the weapon's cost (call: pushing is moving a heavy
    /// load, at half speed).
    pub fn walk_of(&self, from: Cell) -> Path {
        let (dx, dy) = (from.x - self.path.start.x, from.y - self.path.start.y);
        let steps = self
            .path
            .steps
            .iter()
            .map(|step| movement::Step { to: step.to.offset(dx, dy), cost: step.cost * 2, ..*step })
            .collect();
        Path { start: from, steps, cost: self.path.cost.saturating_mul(2), ..self.path.clone() }
    }
}

/// Why a siege weapon can't be pushed there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PushError {
    #[error("{weapon} is not siege equipment")]
    NotSiege { weapon: String },
    /// Too few creatures beside it, its crew in words.
    #[error("too few to push it: {crew}")]
    TooFew { crew: String },
    #[error("{} (its pushers can move it {feet} ft)", why.as_ref().map_or_else(|| "out of reach".to_owned(), ToString::to_string))]
    NoPath { why: Option<MoveError>, feet: u32 },
    #[error("{pusher} can't walk alongside it to {at}")]
    Blocked { pusher: String, at: Cell },
}

/// Plans pushing `weapon` so that its anchor ends on `to` ([`push`]): enough crew beside it, a
/// path for its space within half the least movement any of them has left (`feet_left`), and
/// room for each pusher to walk alongside, shifted as the weapon is. The DM (`by_dm`) moves it
/// without crew, as far as the terrain lets it go.
pub fn plan_push(
    field: &Field,
    weapon: &Fighter,
    to: Cell,
    feet_left: impl Fn(&Fighter) -> u32,
    by_dm: bool,
) -> Result<PushPlan, PushError> {
    let siege = weapon.siege.ok_or_else(|| PushError::NotSiege { weapon: weapon.name().to_owned() })?;
    let crew = push(field, weapon, siege.kind, &feet_left);
    let name_of = |id: &str| field.fighter(id).map_or_else(|| id.to_owned(), |f| f.name().to_owned());
    if !by_dm && !crew.crew.enough() {
        return Err(PushError::TooFew { crew: crew.crew.describe(name_of) });
    }
    let walking: Vec<&str> = if by_dm { Vec::new() } else { crew.crew.members.iter().map(String::as_str).collect() };
    let others: Vec<Occupant> =
        field.others_than(&weapon.id).into_iter().filter(|o| !walking.contains(&o.id.as_str())).collect();
    let board = movement::Board { map: field.map, rule: field.rules.diagonals, others: &others };
    let mover = weapon.mover();
    let budget = if by_dm { DM_PUSH_FEET } else { crew.feet };
    let start = weapon.anchor;
    let parity = DiagonalParity::default();
    let path = movement::reach(&board, &mover, start, budget, parity).path(to).ok_or_else(|| PushError::NoPath {
        why: movement::why_not(&board, &mover, start, to, budget, parity),
        feet: budget,
    })?;
    let (dx, dy) = (to.x - start.x, to.y - start.y);
    let grid = field.grid();
    let mut taken: Vec<Cell> = others.iter().flat_map(|o| o.cells.iter().copied()).collect();
    taken.extend(Footprint::of(grid, weapon.size, weapon.square_side).at(to));
    let mut pushers = Vec::new();
    for id in walking {
        let Some(pusher) = field.fighter(id) else { continue };
        let there = pusher.anchor.offset(dx, dy);
        let cells: Vec<Cell> = Footprint::of(grid, pusher.size, pusher.square_side).at(there).collect();
        if fit_at(field.map, &pusher.mover(), there).is_none() || cells.iter().any(|c| taken.contains(c)) {
            return Err(PushError::Blocked { pusher: pusher.name().to_owned(), at: there });
        }
        taken.extend(cells);
        pushers.push((id.to_owned(), pusher.anchor, there));
    }
    Ok(PushPlan { path, pushers })
}

/// Whether `who` may spend its action on `weapon`'s next step: a creature that can act, within
/// 5 ft of a weapon that isn't destroyed (at 0 hit points).
pub fn may_crew(field: &Field, who: &Fighter, weapon: &Fighter) -> Result<Siege, SiegeError> {
    let Some(siege) = weapon.siege else { return Err(SiegeError::NotSiege { weapon: weapon.name().to_owned() }) };
    let name = format!("the {}", siege.kind.name());
    if weapon.health.life == Life::Dead {
        return Err(SiegeError::Destroyed { weapon: name });
    }
    if !who.can_act() {
        let why = if who.is_object {
            "an object takes no actions".to_owned()
        } else if who.health.life == Life::Dead {
            "it is dead".to_owned()
        } else {
            who.conditions.incapacitated_by().map_or("it can't act".to_owned(), |c| format!("it is {}", c.name()))
        };
        return Err(SiegeError::CannotAct { who: who.name().to_owned(), weapon: name, why });
    }
    let distance = field.feet_between(who, weapon);
    if distance > CREW_REACH {
        return Err(SiegeError::TooFar { who: who.name().to_owned(), weapon: name, distance });
    }
    Ok(siege)
}

/// Whether `who` may take `step` of `weapon`'s crewing now: it may crew it ([`may_crew`]) and the
/// step is the next one ([`Crewing::check`]). Returns the weapon's state before the step.
pub fn may_take(field: &Field, who: &Fighter, weapon: &Fighter, step: Step) -> Result<Siege, SiegeError> {
    let siege = may_crew(field, who, weapon)?;
    siege.crewing.check(siege.kind, step)?;
    Ok(siege)
}

/// The 10-foot square a cauldron pours on, as cells: the space of a Large creature at
/// `pours_on` (2×2 squares, or the 3 hexes round a vertex).
pub fn pour_cells(grid: Grid, pours_on: Cell) -> Vec<Cell> {
    Footprint::of(grid, Size::Large, None).at(pours_on).collect()
}

/// The creatures the cauldron's oil falls on: any in the square below it, from the ground up to
/// the cauldron's own height ([`Field::in_area`]; objects and the dead left out). The oil falls
/// from above, so walls give no cover from it; a ram's operators are sheltered by its gallery
/// roof, and the creatures a siege tower shelters by the tower, unless the cauldron is inside it.
pub fn in_pour(field: &Field, cauldron: &Fighter) -> Result<(Vec<Cell>, Vec<InArea>), SiegeError> {
    let weapon = format!("the {}", SiegeKind::Cauldron.name());
    let Some(pours_on) = cauldron.siege.and_then(|s| s.pours_on) else {
        return Err(SiegeError::NowhereToPour { weapon });
    };
    let cells = pour_cells(field.grid(), pours_on);
    let below = Volume::column(cells.iter().copied(), 0, cauldron.elevation);
    let inside = field
        .in_area(&below)
        .filter(|f| !f.is_object && f.health.life != Life::Dead)
        .map(|f| InArea {
            id: f.id.clone(),
            name: f.name().to_owned(),
            cover: CoverDegree::None,
            unaffected: under_ram_roof(field, f)
                .map(|ram| Shelter::roof(f, ram))
                .or_else(|| sheltered_in_tower(field, f, |tower| inside_tower(field, cauldron, tower)))
                .map(Unaffected::Sheltered),
        })
        .collect();
    Ok((cells, inside))
}

/// Total cover from siege equipment (DMG "Siege Equipment"), besides walls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Shelter {
    /// A Medium or smaller creature inside a siege tower, against an attacker or an area's point
    /// of origin outside it: "total cover from attacks outside the tower".
    SiegeTower { target: String, tower: String },
    /// Working a ram, under its gallery roof, against an attack from above.
    RamRoof { target: String, ram: String },
}

impl Shelter {
    fn roof(target: &Fighter, ram: &Fighter) -> Self {
        Shelter::RamRoof { target: target.name().to_owned(), ram: ram.name().to_owned() }
    }
}

impl std::fmt::Display for Shelter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shelter::SiegeTower { target, tower } => {
                write!(f, "{target} is inside {tower}, and the attacker outside it")
            }
            Shelter::RamRoof { target, ram } => write!(f, "{target} works {ram}, under its gallery roof"),
        }
    }
}

/// The ram whose gallery roof covers `who`: a creature within 5 ft of a ram, not hostile to its
/// side ("Because of the gallery roof, these operators have total cover against attacks from
/// above").
fn under_ram_roof<'a>(field: &Field<'a>, who: &Fighter) -> Option<&'a Fighter> {
    if who.is_object {
        return None;
    }
    field
        .fighters
        .iter()
        .filter(|f| f.siege.is_some_and(|s| s.kind == SiegeKind::Ram) && f.health.life != Life::Dead)
        .find(|ram| !who.side.is_hostile_to(ram.side) && field.feet_between(who, ram) <= CREW_REACH)
}

/// The largest creature a siege tower shelters: "Medium or smaller creatures inside ... have
/// total cover from attacks outside the tower".
pub const TOWER_SHELTERS_UP_TO: Size = Size::Medium;

/// The siege tower `who` is inside (every cell of its space in the tower's), if any.
fn tower_holding<'a>(field: &Field<'a>, who: &Fighter) -> Option<&'a Fighter> {
    field.fighters.iter().find(|f| {
        f.siege.is_some_and(|s| s.kind == SiegeKind::SiegeTower)
            && f.id != who.id
            && who.cells.iter().all(|c| f.cells.contains(c))
    })
}

/// Whether `who` is inside `tower`.
fn inside_tower(field: &Field, who: &Fighter, tower: &Fighter) -> bool {
    tower_holding(field, who).is_some_and(|t| t.id == tower.id)
}

/// The shelter of the siege tower `who` is inside, if it is a creature of Medium size or smaller
/// ([`TOWER_SHELTERS_UP_TO`]; a larger one inside is not sheltered) and the attack or the area
/// comes from outside the tower (`from_inside` tells whether it comes from inside the tower).
fn sheltered_in_tower(field: &Field, who: &Fighter, from_inside: impl Fn(&Fighter) -> bool) -> Option<Shelter> {
    if who.is_object || who.size > TOWER_SHELTERS_UP_TO {
        return None;
    }
    let tower = tower_holding(field, who)?;
    (!from_inside(tower)).then(|| Shelter::SiegeTower { target: who.name().to_owned(), tower: tower.name().to_owned() })
}

/// The siege equipment that gives `target` total cover from `attacker`, if any: a Medium or
/// smaller creature inside a siege tower against an attacker outside it ("total cover from
/// attacks outside the tower"), or a ram's operator against an attack from above (an attacker
/// higher than it, or an `indirect` attack: a stone's high arc).
pub fn shelter(field: &Field, attacker: &Fighter, target: &Fighter, indirect: bool) -> Option<Shelter> {
    if let Some(tower) = sheltered_in_tower(field, target, |tower| inside_tower(field, attacker, tower)) {
        return Some(tower);
    }
    let from_above = indirect || attacker.elevation > target.elevation;
    if from_above {
        return under_ram_roof(field, target).map(|ram| Shelter::roof(target, ram));
    }
    None
}

/// The siege equipment that gives `who` total cover from an area of effect whose point of origin
/// is `origin`: a siege tower shelters it from an area as from an attack, when the origin is
/// outside the tower (call, docs/rules.md "Siege equipment": an origin on the tower's outer edge
/// is outside it; one inside the tower, or on the edge between two of its cells, is inside). The
/// saving throws of `fight::saves::creatures_in_area` read it.
pub fn area_shelter(field: &Field, who: &Fighter, origin: Point) -> Option<Shelter> {
    sheltered_in_tower(field, who, |tower| {
        cells_touching(field.grid(), origin).iter().all(|cell| tower.cells.contains(cell))
    })
}

/// Whether `kind`'s space is open to creatures: a siege tower's (they ride inside it).
pub fn holds_creatures(kind: SiegeKind) -> bool {
    kind == SiegeKind::SiegeTower
}

#[cfg(test)]
mod tests;
