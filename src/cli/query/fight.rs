//! The fight queries: `flanking`, `arc`, `attack`, `saves` and `provokes`, answered by `rules::fight` and
//! `rules::facing` from the scenario's [`Field`](crate::rules::fight::Field) (documented in `docs/cli.md`).

use clap::Args;
use clap::builder::TypedValueParser;
use serde::Serialize;

use super::{AreaArgs, Board, CoverAnswer, QueryError, area, point_cell};
use crate::cli::ArgError;
use crate::rules::Cell;
use crate::rules::creature::{Ability, Direction};
use crate::rules::dice::{Notation, SeededDice};
use crate::rules::facing::{Arc, ArcLayout, ArcShares, arc_of_space, space_shares};
use crate::rules::fight::adjudicate::{
    Adjudication, CantFlank, FlankingPair, adjudicate, cannot_flank_because, flanking_pairs, partner_cells, pick_attack,
};
use crate::rules::fight::opportunity::{Moving, Provocation, provocations};
use crate::rules::fight::resolve::{Aftermath, AttackRoll, roll_attack};
use crate::rules::fight::saves::{InArea, SaveEffect, SavesRolled, creatures_in_area, roll_saves};
use crate::rules::fight::take_damage;
use crate::rules::health::{DamageType, Health};

#[derive(Serialize)]
pub(super) struct FlankingAnswer {
    target: String,
    /// Whether the scene plays with the optional flanking rule; the geometry is answered anyway.
    rule_in_play: bool,
    /// Every pair that flanks the target now.
    pairs: Vec<FlankingPair>,
    /// Every creature hostile to the target: whether it can flank, and where an ally of it would
    /// have to stand to flank with it.
    creatures: Vec<FlankerAnswer>,
}

#[derive(Serialize)]
struct FlankerAnswer {
    id: String,
    can_flank: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    why_not: Option<CantFlank>,
    /// The cells around the target from which an ally would flank it with this creature.
    partner_cells: Vec<Cell>,
}

pub(super) fn flanking(board: &Board, target: &str) -> Result<FlankingAnswer, QueryError> {
    let field = board.field();
    let enemy = board.fighter(target)?;
    let creatures = board
        .fighters
        .iter()
        .filter(|f| !f.is_object && f.side.is_hostile_to(enemy.side))
        .map(|f| {
            let why_not = cannot_flank_because(&field, f, enemy);
            FlankerAnswer {
                id: f.id.clone(),
                can_flank: why_not.is_none(),
                why_not,
                partner_cells: partner_cells(&field, enemy, f),
            }
        })
        .collect();
    Ok(FlankingAnswer {
        target: enemy.id.clone(),
        rule_in_play: field.rules.flanking,
        pairs: flanking_pairs(&field, enemy),
        creatures,
    })
}

#[derive(Serialize)]
pub(super) struct ArcAnswer {
    of: String,
    /// Whether the scene plays with the optional facing rule; the geometry is answered anyway.
    rule_in_play: bool,
    facing: Direction,
    layout: ArcLayout,
    /// The token asked about, or the cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<String>,
    cells: Vec<Cell>,
    /// The share of the target's surface in each geometric arc (before the layout).
    shares: ArcShares,
    /// The arc it is in, after the layout; null for a cell of A's own space.
    arc: Option<Arc>,
}

pub(super) fn arc(board: &Board, of: &str, target: &str) -> Result<ArcAnswer, QueryError> {
    let facer_fighter = board.fighter(of)?;
    let facing = facer_fighter
        .facing
        .filter(|_| !facer_fighter.is_object)
        .ok_or_else(|| QueryError::FacesNoWay { name: facer_fighter.name().to_owned() })?;
    let facer = crate::rules::facing::Facer { cells: &facer_fighter.cells, facing, layout: facer_fighter.arcs };
    // An id never holds a comma, so `X,Y` is a cell, refused with its own reason.
    let (name, cells) = match crate::cli::parse_pair(target) {
        Ok(pair) => (None, vec![point_cell(board.scenario, pair)?]),
        Err(error) if target.contains(',') => {
            return Err(QueryError::Arguments(format!("the cell {target:?}: {error}")));
        }
        Err(_) => {
            let t = board.fighter(target)?;
            (Some(t.id.clone()), t.cells.clone())
        }
    };
    let grid = board.grid();
    Ok(ArcAnswer {
        of: facer_fighter.id.clone(),
        rule_in_play: board.scenario.rules.facing,
        facing,
        layout: facer_fighter.arcs,
        target: name,
        shares: space_shares(grid, &facer, &cells).unwrap_or(ArcShares::NONE),
        arc: arc_of_space(grid, &facer, &cells),
        cells,
    })
}

#[derive(Args, Debug)]
pub(super) struct AttackArgs {
    /// The attacker's id
    pub(super) a: String,
    /// The target's id
    pub(super) b: String,
    /// The attack's name (any case); the attacker's first attack if not given
    #[arg(long, value_name = "NAME")]
    pub(super) with: Option<String>,
    /// Roll the attack and its damage, and apply the damage
    #[arg(long)]
    pub(super) roll: bool,
    /// The dice's seed
    #[arg(long, value_name = "N", default_value_t = 0, requires = "roll", allow_negative_numbers = true,
          value_parser = crate::cli::parse_seed)]
    pub(super) seed: u64,
}

#[derive(Serialize)]
pub(super) struct AttackAnswer {
    #[serde(flatten)]
    ruling: Adjudication,
    cover: CoverAnswer,
    allowed: bool,
    summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    rolled: Option<RolledAttack>,
}

#[derive(Serialize)]
struct RolledAttack {
    seed: u64,
    #[serde(flatten)]
    roll: AttackRoll,
    description: String,
    /// What the attack changed besides the target's hit points: the attacker's Help used up, its
    /// hiding place given away (the map applies the same).
    aftermath: Aftermath,
    hp_before: i32,
    /// The target after the damage.
    health: Health,
}

pub(super) fn attack(board: &Board, args: &AttackArgs) -> Result<AttackAnswer, QueryError> {
    let field = board.field();
    let attacker = board.fighter(&args.a)?;
    let target = board.fighter(&args.b)?;
    let chosen = pick_attack(attacker, args.with.as_deref()).map_err(QueryError::Attack)?;
    let ruling = adjudicate(&field, attacker, target, chosen);
    let rolled = if args.roll && ruling.allowed() {
        let mut dice = SeededDice::new(args.seed);
        let roll = roll_attack(&ruling, &target.defenses_now(), attacker.average_damage, &mut dice)?;
        let aftermath = Aftermath::of(&ruling, attacker, &roll);
        let (mut health, mut conditions) = (target.health, target.conditions.clone());
        aftermath.harm(&mut health, &mut conditions);
        Some(RolledAttack {
            seed: args.seed,
            description: roll.describe(),
            roll,
            aftermath,
            hp_before: target.health.hp,
            health,
        })
    } else {
        None
    };
    let cover = CoverAnswer {
        from: Some(attacker.id.clone()),
        ..CoverAnswer::of(board.grid(), ruling.cover.clone(), &target.id)
    };
    Ok(AttackAnswer { allowed: ruling.allowed(), summary: ruling.summary(), cover, ruling, rolled })
}

/// The abilities by the names `Ability::id` gives them.
fn ability_parser() -> impl TypedValueParser<Value = Ability> {
    clap::builder::PossibleValuesParser::new(Ability::ALL.map(Ability::id))
        .map(|id| Ability::ALL.into_iter().find(|a| a.id() == id).unwrap_or(Ability::Dex))
}

#[derive(Args, Debug)]
pub(super) struct SavesArgs {
    #[command(flatten)]
    pub(super) area: AreaArgs,
    /// The saving throw's ability
    #[arg(long, default_value = "dex", value_parser = ability_parser())]
    pub(super) ability: Ability,
    /// The saving throw's DC
    #[arg(long, value_name = "DC", allow_negative_numbers = true, value_parser = crate::cli::whole::<i32>(1, 40))]
    pub(super) dc: i32,
    /// The damage dice, such as 8d6
    #[arg(long, value_name = "DICE", value_parser = parse_notation)]
    pub(super) damage: Option<Notation>,
    /// The damage's type
    #[arg(long = "type", value_name = "TYPE", default_value = "fire", value_parser = parse_damage_type)]
    pub(super) damage_type: DamageType,
    /// A success takes half the damage instead of none
    #[arg(long)]
    pub(super) half: bool,
    /// Roll the saves (and the damage, once) with --seed, and apply the damage
    #[arg(long)]
    pub(super) roll: bool,
}

fn parse_notation(text: &str) -> Result<Notation, ArgError> {
    Notation::parse(text).map_err(ArgError::Notation)
}

fn parse_damage_type(text: &str) -> Result<DamageType, ArgError> {
    DamageType::parse(text).ok_or_else(|| ArgError::NotADamageType(text.to_owned()))
}

#[derive(Serialize)]
pub(super) struct SavesAnswer {
    effect: SaveEffect,
    cells: Vec<Cell>,
    /// The creatures inside with their cover from the point of origin.
    creatures: Vec<InArea>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rolled: Option<RolledSaves>,
}

#[derive(Serialize)]
struct RolledSaves {
    seed: u64,
    #[serde(flatten)]
    saves: SavesRolled,
    /// Each creature's hit points and state after the damage.
    after: Vec<AfterSave>,
}

#[derive(Serialize)]
struct AfterSave {
    id: String,
    health: Health,
}

pub(super) fn saves(board: &Board, args: &SavesArgs) -> Result<SavesAnswer, QueryError> {
    let shown = area(board, &args.area)?;
    let field = board.field();
    let inside = creatures_in_area(&field, &shown.volume, shown.origin);
    let effect = SaveEffect {
        ability: args.ability,
        dc: args.dc,
        damage: args.damage.clone(),
        damage_type: args.damage_type,
        half_on_success: args.half,
    };
    let rolled = if args.roll {
        let mut dice = SeededDice::new(args.area.seed);
        let saves = roll_saves(&field, &inside, &effect, &mut dice).map_err(|e| QueryError::Roll(e.into()))?;
        let after = saves
            .results
            .iter()
            .filter_map(|result| {
                let who = field.fighter(&result.id)?;
                let (mut health, mut conditions) = (who.health, who.conditions.clone());
                if let Some(damage) = &result.damage {
                    take_damage(&mut health, &mut conditions, damage.amount, false);
                }
                Some(AfterSave { id: who.id.clone(), health })
            })
            .collect();
        Some(RolledSaves { seed: args.area.seed, saves, after })
    } else {
        None
    };
    Ok(SavesAnswer { effect, cells: shown.answer.cells, creatures: inside, rolled })
}

/// The longest path `provokes` takes, in cells.
pub(super) const MAX_PATH_CELLS: usize = 400;

#[derive(Args, Debug)]
pub(super) struct ProvokesArgs {
    /// The creature that moves
    pub(super) mover: String,
    /// The cells its anchor walks through, each next to the one before (its own cell first, or
    /// left out)
    #[arg(long, value_name = "X,Y", num_args = 1.., required = true, allow_hyphen_values = true,
          value_parser = crate::cli::parse_pair)]
    pub(super) path: Vec<(i32, i32)>,
    /// The mover took the Disengage action: its movement provokes nothing (write it before --path,
    /// which takes every value after it)
    #[arg(long)]
    pub(super) disengage: bool,
}

#[derive(Serialize)]
pub(super) struct ProvokesAnswer {
    mover: String,
    /// The anchors walked, the start first.
    path: Vec<Cell>,
    disengaged: bool,
    /// Each opportunity attack, in the order the move meets them: the cell it is leaving when it
    /// happens (before it leaves), who strikes, its reach and the attack it makes.
    provocations: Vec<Provocation>,
}

/// Where walking `path` provokes opportunity attacks and from whom, at the start of a round
/// (every creature has its reaction).
pub(super) fn provokes(board: &Board, args: &ProvokesArgs) -> Result<ProvokesAnswer, QueryError> {
    let mover = board.fighter(&args.mover)?;
    if args.path.len() > MAX_PATH_CELLS {
        return Err(QueryError::PathTooLong(args.path.len()));
    }
    let mut cells: Vec<Cell> = vec![mover.anchor];
    for &(x, y) in &args.path {
        let cell = Cell::new(x, y);
        let last = *cells.last().unwrap_or(&mover.anchor);
        if cell == last && cells.len() == 1 {
            continue;
        }
        if board.grid().steps_between(last, cell) != 1 {
            return Err(QueryError::NotAStep { from: last, to: cell });
        }
        if !board.scenario.map.contains(cell) {
            return Err(QueryError::PathOffMap(cell));
        }
        cells.push(cell);
    }
    let moving = if args.disengage { Moving::Disengaged } else { Moving::Walking };
    let provocations = provocations(&board.field(), &mover.id, &cells, moving, |_| true, &[]);
    Ok(ProvokesAnswer { mover: mover.id.clone(), path: cells, disengaged: args.disengage, provocations })
}
