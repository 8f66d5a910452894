//! `battlemap query FILE QUERY ...`: rules questions answered in JSON on stdout. Each answer is a
//! `Serialize` type below, so its fields are the JSON's (documented in `docs/cli.md`).
//!
//! Every question is asked of one view of the board, the scenario's [`Field`]
//! ([`Scenario::field`]): the same view the map builds from its live tokens, so the command line
//! and the map give one answer.

use std::path::PathBuf;

use clap::builder::TypedValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use super::{ArgError, fail, parse_pair, say_json};
use crate::rules::area::{
    AreaError, CoveredCell, MAX_AREA_FEET, MIN_AREA_FEET, Shape, ShapeKind, Volume, adjusted_targets, covered_cells,
    degrees_toward, estimated_targets,
};
use crate::rules::distance::{DiagonalParity, range_feet, rule_name};
use crate::rules::economy::{Economy, Left};
use crate::rules::fight::resolve::RollError;
use crate::rules::fight::{Field, Fighter};
use crate::rules::lattice::{self, Point, Segment};
use crate::rules::movement::{Fit, MoveError, Step, TurnMovement};
use crate::rules::siege::SiegeError;
use crate::rules::sight::{Blocker, Cover, CoverContext, CoverDegree, From as CoverFrom};
use crate::rules::{Cell, Grid};
use crate::scenario::{Scenario, TokenKind};

#[derive(Args, Debug)]
pub(super) struct QueryArgs {
    /// The scenario to ask about
    file: PathBuf,
    #[command(subcommand)]
    question: Question,
}

#[derive(Subcommand, Debug)]
enum Question {
    /// Every token: id, name, kind, side, size, anchor and the cells of its space
    Tokens,
    /// The range in feet between two tokens: nearest cell to nearest cell, or their difference in
    /// height if that is more
    Distance { a: String, b: String },
    /// The cheapest path for a token to a cell with a fresh turn's movement, or why not
    Path {
        id: String,
        /// The cell for the token's anchor: x,y on squares, q,r on hexes
        #[arg(long, value_name = "X,Y", allow_hyphen_values = true, value_parser = parse_pair)]
        to: (i32, i32),
        /// Take the Dash action too
        #[arg(long)]
        dash: bool,
    },
    /// Every cell the token can end its move in this turn
    Reach {
        id: String,
        /// Take the Dash action too
        #[arg(long)]
        dash: bool,
    },
    /// Whether A has line of sight to B and sees B, with a clear line and the light A sees B in
    Los { a: String, b: String },
    /// The fog of war: the cells some creature of the party sees, and those none sees
    Fog,
    /// The experience points of the fight (DMG "Experience Points"): the enemies defeated (at 0
    /// hit points or dead), their total, and each party member's share, with the levels gained
    Xp {
        /// Count every enemy as defeated: what the whole fight is worth
        #[arg(long)]
        all: bool,
        /// Count the allies (side `Ally`) as party members: NPCs who gave substantial help
        #[arg(long)]
        allies_helped: bool,
    },
    /// The light at a cell: the scene's, or the lights that reach it, and what it obscures
    Light {
        /// The cell: x,y on squares, q,r on hexes
        #[arg(allow_hyphen_values = true, value_parser = parse_pair)]
        cell: (i32, i32),
    },
    /// The cover B has against A, with every line of the ruling
    Cover { a: String, b: String },
    /// The cover B has against an area whose point of origin is POINT
    CoverFrom {
        /// X,Y: a grid intersection on squares; Q,R a hex's centre or Q,R@N its corner N (0 to 5)
        #[arg(allow_hyphen_values = true, value_parser = parse_point)]
        origin: PointArg,
        b: String,
    },
    /// The cells an area covers by at least half, and the tokens inside
    Aoe(AreaArgs),
    /// Every pair that flanks TARGET, and where each hostile creature's allies would flank it
    Flanking { target: String },
    /// The arc of A's that a token or a cell (X,Y) is in, under the facing rule
    Arc {
        a: String,
        /// A token's id, or a cell X,Y (Q,R on hexes)
        #[arg(allow_hyphen_values = true)]
        target: String,
    },
    /// The whole ruling on A attacking B, and with --roll the attack and damage rolled
    Attack(fight::AttackArgs),
    /// The creatures an area holds with their cover from its origin, and their saving throws
    Saves(fight::SavesArgs),
    /// The cells where MOVER walking --path provokes opportunity attacks, and from whom
    Provokes(fight::ProvokesArgs),
    /// A siege weapon's state, who can work it, its crew, and what it can hit once aimed
    Siege { id: String },
    /// A creature's lasting effects: source, duration, rounds left, save, in force or waiting
    Effects { id: String },
    /// Run the initiative tracker over the scene's creatures: each roll and each effect's end
    Advance(effects::AdvanceArgs),
}

/// A question alone, as its words after `query FILE` (for [`ask`]).
#[derive(Parser, Debug)]
#[command(name = "query")]
struct Asked {
    #[command(subcommand)]
    question: Question,
}

#[derive(Args, Debug)]
struct AreaArgs {
    #[arg(value_parser = shape_parser())]
    shape: ShapeKind,
    /// The radius (sphere, cylinder, circle), side (cube, square) or length (cone, line)
    #[arg(value_parser = crate::cli::whole::<u32>(MIN_AREA_FEET as i64, MAX_AREA_FEET as i64))]
    feet: u32,
    /// The point of origin (see cover-from for how points are written)
    #[arg(long, value_name = "POINT", allow_hyphen_values = true, value_parser = parse_point)]
    origin: PointArg,
    /// How high the point of origin is above the ground, in feet
    #[arg(long, value_name = "FEET", default_value_t = 0, allow_negative_numbers = true,
          value_parser = crate::cli::whole::<u32>(0, MAX_HEIGHT as i64))]
    height: u32,
    /// Aim toward this point
    #[arg(long, value_name = "POINT", conflicts_with = "angle", allow_hyphen_values = true, value_parser = parse_point)]
    toward: Option<PointArg>,
    /// Aim this many degrees clockwise from east
    #[arg(long, value_name = "DEG", allow_hyphen_values = true, value_parser = parse_angle)]
    angle: Option<f64>,
    /// Cubes and squares: the middle of a side at the origin instead of a corner
    #[arg(long)]
    face: bool,
    /// A line's width in feet
    #[arg(long, value_name = "FEET", default_value_t = 5, allow_negative_numbers = true,
          value_parser = crate::cli::whole::<u32>(MIN_AREA_FEET as i64, MAX_AREA_FEET as i64))]
    width: u32,
    /// Add (bunched) or subtract (spread) the DMG's optional 1d3 to the table's estimate
    #[arg(long)]
    adjust: Option<Bunching>,
    /// The seed of that 1d3, and of the saves' dice
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true, value_parser = crate::cli::parse_seed)]
    seed: u64,
}

/// The highest point of origin an area may have, in feet (as high as a scenario's elevations go).
const MAX_HEIGHT: u32 = 10_000;

/// The shapes by the names `ShapeKind::id` gives them.
fn shape_parser() -> impl TypedValueParser<Value = ShapeKind> {
    clap::builder::PossibleValuesParser::new(ShapeKind::ALL.map(ShapeKind::id))
        .map(|id| ShapeKind::ALL.into_iter().find(|kind| kind.id() == id).unwrap_or_default())
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Bunching {
    Bunched,
    Spread,
}

/// A point as written: `X,Y`, or `Q,R@N` for a hex's corner.
#[derive(Clone, Copy, Debug)]
struct PointArg {
    cell: (i32, i32),
    corner: Option<usize>,
}

fn parse_point(text: &str) -> Result<PointArg, ArgError> {
    let (cell, corner) = match text.split_once('@') {
        Some((cell, corner)) => {
            let n = corner.parse::<usize>().map_err(|_| ArgError::NotACorner(corner.to_owned()))?;
            (cell, Some(n))
        }
        None => (text, None),
    };
    Ok(PointArg { cell: parse_pair(cell)?, corner })
}

fn parse_angle(text: &str) -> Result<f64, ArgError> {
    text.parse::<f64>().ok().filter(|d| d.is_finite() && d.abs() <= 3600.0).ok_or(ArgError::NotAnAngle)
}

/// Why a question about a valid scenario can't be answered.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum QueryError {
    #[error("no token has the id {id:?}; the ids are {ids}")]
    NoSuchToken { id: String, ids: String },
    #[error("on squares a point is a grid intersection X,Y, without @N")]
    CornerOnSquares,
    #[error("the point {x},{y} is off the map: intersections run from 0,0 to {width},{height}")]
    PointOffMap { x: i32, y: i32, width: u32, height: u32 },
    #[error("a hex has corners 0 to 5, not {0}")]
    NoSuchCorner(usize),
    #[error(
        "the hex {x},{y} is not on the map (nor, for a corner, is any hex that shares it); a point is a hex's centre or corner"
    )]
    HexOffMap { x: i32, y: i32 },
    #[error("the cell {x},{y} is not on the map ({width} × {height} cells)")]
    CellOffMap { x: i32, y: i32, width: u32, height: u32 },
    #[error("{0}")]
    Area(#[from] AreaError),
    #[error("{0}")]
    Roll(#[from] RollError),
    #[error("{0}")]
    Siege(#[from] SiegeError),
    #[error("{0}")]
    Attack(crate::rules::fight::adjudicate::Refusal),
    #[error("{name} faces no way: give it `facing` in the scene")]
    FacesNoWay { name: String },
    #[error("{id} is not siege equipment: give an object `siege: Ballista` (or another kind)")]
    NotSiege { id: String },
    #[error("the path has {0} cells; at most {MAX_PATH_CELLS} are taken", MAX_PATH_CELLS = fight::MAX_PATH_CELLS)]
    PathTooLong(usize),
    #[error("the path steps from {from} to {to}, which is not a neighbouring cell")]
    NotAStep { from: Cell, to: Cell },
    #[error("the path leaves the map at {0}")]
    PathOffMap(Cell),
    #[error("{0}")]
    Arguments(String),
    #[error("{id} is an object: only creatures carry effects")]
    NotACreature { id: String },
    #[error("{0}")]
    Dice(crate::rules::dice::DiceError),
}

/// Loads the scenario, prints the answer, and returns the exit code.
pub(super) fn run(args: &QueryArgs) -> u8 {
    let scenario = match Scenario::load(&args.file) {
        Ok(s) => s,
        Err(errors) => return fail(errors),
    };
    match answer(&scenario, &args.question) {
        Ok(answer) => {
            say_json(&answer);
            0
        }
        Err(error) => fail(format_args!("{}: {error}", args.file.display())),
    }
}

/// Answers a question, written as its words after `query FILE` (`["cover", "archer", "guard"]`),
/// about a scenario already loaded, as the JSON `battlemap query` prints: for tests that ask many
/// questions without starting the binary for each.
pub fn ask(scenario: &Scenario, words: &[&str]) -> Result<serde_json::Value, QueryError> {
    let asked = Asked::try_parse_from(std::iter::once("query").chain(words.iter().copied()))
        .map_err(|e| QueryError::Arguments(e.to_string()))?;
    let answer = answer(scenario, &asked.question)?;
    serde_json::to_value(answer).map_err(|e| QueryError::Arguments(e.to_string()))
}

/// The answer to a question about the scenario.
fn answer(scenario: &Scenario, question: &Question) -> Result<Answer, QueryError> {
    let board = Board::of(scenario);
    Ok(match question {
        Question::Tokens => Answer::Tokens(tokens(&board)),
        Question::Distance { a, b } => Answer::Distance(distance(&board, a, b)?),
        Question::Path { id, to, dash } => Answer::Path(path(&board, id, Cell::new(to.0, to.1), *dash)?),
        Question::Reach { id, dash } => Answer::Reach(reach_cells(&board, id, *dash)?),
        Question::Los { a, b } => Answer::Sight(sight(&board, a, b)?),
        Question::Light { cell } => Answer::Light(light(&board, *cell)?),
        Question::Fog => Answer::Fog(fog(&board)),
        Question::Xp { all, allies_helped } => Answer::Xp(experience(&board, *all, *allies_helped)),
        Question::Cover { a, b } => Answer::Cover(cover_between(&board, a, b)?),
        Question::CoverFrom { origin, b } => Answer::Cover(cover_from(&board, *origin, b)?),
        Question::Aoe(area_args) => Answer::Area(area(&board, area_args)?.answer),
        Question::Flanking { target } => Answer::Flanking(fight::flanking(&board, target)?),
        Question::Arc { a, target } => Answer::Arc(fight::arc(&board, a, target)?),
        Question::Attack(attack_args) => Answer::Attack(Box::new(fight::attack(&board, attack_args)?)),
        Question::Saves(saves_args) => Answer::Saves(fight::saves(&board, saves_args)?),
        Question::Provokes(provokes_args) => Answer::Provokes(fight::provokes(&board, provokes_args)?),
        Question::Siege { id } => Answer::Siege(Box::new(siege::siege(&board, id)?)),
        Question::Effects { id } => Answer::Effects(effects::effects(&board, id)?),
        Question::Advance(advance_args) => Answer::Advance(effects::advance(&board, advance_args)?),
    })
}

/// The scenario and its fighters, from which every question builds the one [`Field`].
struct Board<'a> {
    scenario: &'a Scenario,
    fighters: Vec<Fighter>,
}

impl<'a> Board<'a> {
    fn of(scenario: &'a Scenario) -> Self {
        Self { scenario, fighters: scenario.fighters() }
    }

    fn field(&self) -> Field<'_> {
        self.scenario.field(&self.fighters)
    }

    fn grid(&self) -> Grid {
        self.scenario.grid
    }

    /// The fighter with this id, or a refusal naming the ids there are.
    fn fighter(&self, id: &str) -> Result<&Fighter, QueryError> {
        self.fighters.iter().find(|f| f.id == id).ok_or_else(|| QueryError::NoSuchToken {
            id: id.to_owned(),
            ids: self.fighters.iter().map(|f| f.id.as_str()).collect::<Vec<_>>().join(", "),
        })
    }
}

/// Every answer a query gives.
#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    Tokens(TokensAnswer),
    Distance(DistanceAnswer),
    Path(PathAnswer),
    Reach(ReachAnswer),
    Sight(SightAnswer),
    Light(LightAnswer),
    Fog(FogAnswer),
    Xp(crate::rules::experience::Award),
    Cover(CoverAnswer),
    Area(AreaAnswer),
    Flanking(fight::FlankingAnswer),
    Arc(fight::ArcAnswer),
    Attack(Box<fight::AttackAnswer>),
    Saves(fight::SavesAnswer),
    Provokes(fight::ProvokesAnswer),
    Siege(Box<siege::SiegeAnswer>),
    Effects(effects::EffectsAnswer),
    Advance(effects::AdvanceAnswer),
}

/// A point in grid units (x east, y south), rounded to thousandths.
type Units = [f64; 2];

fn units((x, y): (f64, f64)) -> Units {
    let round = |v: f64| (v * 1000.0).round() / 1000.0;
    [round(x), round(y)]
}

#[derive(Serialize)]
struct TokensAnswer {
    scenario: String,
    grid: &'static str,
    tokens: Vec<TokenAnswer>,
}

#[derive(Serialize)]
struct TokenAnswer {
    id: String,
    name: String,
    kind: TokenKind,
    side: &'static str,
    size: &'static str,
    anchor: Cell,
    cells: Vec<Cell>,
    /// A creature's turn as it starts: what it has to spend.
    #[serde(skip_serializing_if = "Option::is_none")]
    turn: Option<TurnAnswer>,
}

/// A creature's turn at its start (PHB "Actions in Combat"; `rules::economy`).
#[derive(Serialize)]
struct TurnAnswer {
    #[serde(flatten)]
    left: Left,
    /// Feet of movement, after its conditions and exhaustion.
    movement: u32,
    attacks_per_action: u8,
    /// The actions it may take as a bonus action.
    bonus_actions: Vec<&'static str>,
}

fn tokens(board: &Board) -> TokensAnswer {
    let scenario = board.scenario;
    TokensAnswer {
        scenario: scenario.name.clone(),
        grid: scenario.grid.name(),
        tokens: board
            .fighters
            .iter()
            .map(|f| TokenAnswer {
                id: f.id.clone(),
                name: f.name().to_owned(),
                kind: if f.is_object { TokenKind::Object } else { TokenKind::Creature },
                side: f.side.name(),
                size: f.size.name(),
                anchor: f.anchor,
                cells: f.cells.clone(),
                turn: (!f.is_object).then(|| TurnAnswer {
                    left: Economy::default().left(&f.sheet.turn, &f.conditions),
                    movement: f.speed_now(),
                    attacks_per_action: f.sheet.turn.attacks(),
                    bonus_actions: f.sheet.turn.bonus_actions.iter().map(|a| a.name()).collect(),
                }),
            })
            .collect(),
    }
}

#[derive(Serialize)]
struct DistanceAnswer {
    from: String,
    to: String,
    /// The range: the larger of `across` and `height`.
    feet: u32,
    /// Nearest cell to nearest cell on the map.
    across: u32,
    /// The difference in their heights above the ground.
    height: u32,
    /// How steps are counted: `every square 5 ft`, `diagonals 5/10 ft` or `every hex 5 ft`.
    diagonals: &'static str,
}

fn distance(board: &Board, from: &str, to: &str) -> Result<DistanceAnswer, QueryError> {
    let (a, b) = (board.fighter(from)?, board.fighter(to)?);
    let field = board.field();
    let rule = field.rules.diagonals;
    Ok(DistanceAnswer {
        from: a.id.clone(),
        to: b.id.clone(),
        feet: field.feet_between(a, b),
        across: range_feet(board.grid(), rule, &a.cells, &b.cells).unwrap_or(0),
        height: a.elevation.abs_diff(b.elevation),
        diagonals: rule_name(board.grid(), rule),
    })
}

/// The movement a creature has at the start of its turn (after its conditions and exhaustion),
/// with or without a Dash.
fn budget(mover: &Fighter, dash: bool) -> u32 {
    let mut turn = TurnMovement::new(mover.speed_now());
    if dash {
        turn.dash();
    }
    turn.left()
}

#[derive(Serialize)]
struct PathAnswer {
    id: String,
    budget: u32,
    reachable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<Vec<Cell>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<Step>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    squeezing_at_end: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<MoveError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    explanation: Option<String>,
}

fn path(board: &Board, id: &str, to: Cell, dash: bool) -> Result<PathAnswer, QueryError> {
    let mover = board.fighter(id)?;
    let budget = budget(mover, dash);
    let found = board.field().path(mover, to, budget, DiagonalParity::default());
    let mut answer = PathAnswer {
        id: mover.id.clone(),
        budget,
        reachable: found.is_ok(),
        cost: None,
        cells: None,
        steps: None,
        squeezing_at_end: None,
        why: None,
        explanation: None,
    };
    match found {
        Ok(path) => {
            answer.cost = Some(path.cost);
            answer.cells = Some(path.cells());
            answer.squeezing_at_end = Some(path.fit == Fit::Squeezing);
            answer.steps = Some(path.steps);
        }
        Err(reason) => {
            answer.explanation = reason.as_ref().map(ToString::to_string);
            answer.why = reason;
        }
    }
    Ok(answer)
}

#[derive(Serialize)]
struct ReachAnswer {
    id: String,
    budget: u32,
    dash: bool,
    cells: Vec<ReachCell>,
}

#[derive(Serialize)]
struct ReachCell {
    cell: Cell,
    cost: u32,
    squeezing: bool,
}

fn reach_cells(board: &Board, id: &str, dash: bool) -> Result<ReachAnswer, QueryError> {
    let mover = board.fighter(id)?;
    let budget = budget(mover, dash);
    let reach = board.field().reach(mover, budget, DiagonalParity::default());
    let cells = reach
        .cells()
        .iter()
        .map(|r| ReachCell { cell: r.cell, cost: r.cost, squeezing: r.fit == Fit::Squeezing })
        .collect();
    Ok(ReachAnswer { id: mover.id.clone(), budget, dash, cells })
}

/// Resolves a written point on the scenario's grid, refusing one off the map.
fn point(scenario: &Scenario, written: PointArg) -> Result<Point, QueryError> {
    let grid = scenario.grid;
    let (x, y) = written.cell;
    match (grid, written.corner) {
        (Grid::Square, Some(_)) => Err(QueryError::CornerOnSquares),
        (Grid::Square, None) => {
            let (w, h) = (scenario.map.width(), scenario.map.height());
            if (0..=w as i32).contains(&x) && (0..=h as i32).contains(&y) {
                Ok(Point::square_corner(x, y))
            } else {
                Err(QueryError::PointOffMap { x, y, width: w, height: h })
            }
        }
        (Grid::Hex(_), Some(n)) if n > 5 => Err(QueryError::NoSuchCorner(n)),
        (Grid::Hex(_), corner) => {
            let cell = Cell::new(x, y);
            let point = match corner {
                Some(n) => lattice::corners(grid, cell)[n],
                None => lattice::centre(grid, cell),
            };
            // A corner is on the map when any of the three hexes that share it is, whichever of
            // them it is named through.
            let sharing = std::iter::once(cell).chain(grid.neighbours(cell).into_iter().filter(|_| corner.is_some()));
            let on_map = sharing
                .filter(|&hex| scenario.map.contains(hex))
                .any(|hex| hex == cell || lattice::corners(grid, hex).contains(&point));
            if on_map { Ok(point) } else { Err(QueryError::HexOffMap { x, y }) }
        }
    }
}

/// A point that only gives a direction: anywhere within the bounds `parse_pair` keeps points in,
/// on the map or off it.
fn direction_point(scenario: &Scenario, written: PointArg) -> Result<Point, QueryError> {
    let grid = scenario.grid;
    let (x, y) = written.cell;
    match (grid, written.corner) {
        (Grid::Square, Some(_)) => Err(QueryError::CornerOnSquares),
        (Grid::Square, None) => Ok(Point::square_corner(x, y)),
        (Grid::Hex(_), Some(n)) if n > 5 => Err(QueryError::NoSuchCorner(n)),
        (Grid::Hex(_), Some(n)) => Ok(lattice::corners(grid, Cell::new(x, y))[n]),
        (Grid::Hex(_), None) => Ok(lattice::centre(grid, Cell::new(x, y))),
    }
}

/// A cell as written, refusing one off the map.
fn point_cell(scenario: &Scenario, (x, y): (i32, i32)) -> Result<Cell, QueryError> {
    let cell = Cell::new(x, y);
    if scenario.map.contains(cell) {
        Ok(cell)
    } else {
        Err(QueryError::CellOffMap { x, y, width: scenario.map.width(), height: scenario.map.height() })
    }
}

#[derive(Serialize)]
struct SightAnswer {
    from: String,
    to: String,
    /// A clear line between the spaces (terrain only: creatures never block sight).
    line_of_sight: bool,
    line: Option<LineAnswer>,
    /// Whether A sees B: a line, and A not blinded or unconscious, B not invisible, and under the
    /// facing rule B not in A's rear arc.
    sees: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    unseen_because: Option<String>,
    /// The light A sees B's space in, darkvision counted ("darkness", "dim light", "bright light").
    light: &'static str,
}

#[derive(Serialize)]
struct LightAnswer {
    cell: Cell,
    /// "darkness", "dim light" or "bright light".
    light: &'static str,
    /// What it does to seeing into it (SRD "Vision and Light").
    obscured: &'static str,
    /// The scene's own light, where no light reaches.
    scene: &'static str,
}

#[derive(Serialize)]
struct FogAnswer {
    /// The creatures that see for the party (the `Party` side).
    party: Vec<String>,
    /// The cells some of them sees (or stands in), and the cells none sees: what the players'
    /// view shows and what it leaves dark.
    seen: Vec<Cell>,
    unseen: Vec<Cell>,
}

fn fog(board: &Board) -> FogAnswer {
    let field = board.field();
    let sight = field.party_sight();
    let (seen, unseen): (Vec<(Cell, bool)>, Vec<(Cell, bool)>) =
        board.scenario.map.cells().zip(sight).partition(|&(_, seen)| seen);
    FogAnswer {
        party: field.fighters.iter().filter(|f| f.sees_for_party()).map(|f| f.id.clone()).collect(),
        seen: seen.into_iter().map(|(c, _)| c).collect(),
        unseen: unseen.into_iter().map(|(c, _)| c).collect(),
    }
}

/// DMG "Experience Points": the enemies defeated (dead or at 0 hit points; every one with
/// `all`), worth their `xp`, divided among the party's creatures (and the allies, when they
/// helped).
fn experience(board: &Board, all: bool, allies_helped: bool) -> crate::rules::experience::Award {
    use crate::rules::creature::Side;
    use crate::rules::experience::{Entry, award};
    let entry = |f: &Fighter| {
        let xp = board.scenario.token(&f.id).and_then(|t| t.xp).unwrap_or(0);
        Entry { id: f.id.clone(), name: f.name().to_owned(), xp }
    };
    let creatures = || board.fighters.iter().filter(|f| !f.is_object);
    let defeated = creatures().filter(|f| f.side == Side::Enemy && (all || f.health.hp <= 0)).map(entry).collect();
    let members =
        creatures().filter(|f| f.side == Side::Party || (allies_helped && f.side == Side::Ally)).map(entry).collect();
    award(defeated, members)
}

fn light(board: &Board, (x, y): (i32, i32)) -> Result<LightAnswer, QueryError> {
    let cell = point_cell(board.scenario, (x, y))?;
    let level = board.field().light_at(cell);
    Ok(LightAnswer { cell, light: level.name(), obscured: level.obscures(), scene: board.scenario.light.name() })
}

#[derive(Serialize)]
struct LineAnswer {
    from: Units,
    to: Units,
}

impl LineAnswer {
    fn of(grid: Grid, line: &Segment) -> Self {
        Self { from: units(line.from.to_units(grid)), to: units(line.end_units(grid)) }
    }
}

fn sight(board: &Board, from: &str, to: &str) -> Result<SightAnswer, QueryError> {
    let (a, b) = (board.fighter(from)?, board.fighter(to)?);
    let field = board.field();
    let line = field.line_of_sight(a, b);
    let unseen = field.unseen_because(a, b).map(|why| why.describe(a.name(), b.name()));
    Ok(SightAnswer {
        from: a.id.clone(),
        to: b.id.clone(),
        line_of_sight: line.is_some(),
        line: line.map(|l| LineAnswer::of(board.grid(), &l)),
        sees: unseen.is_none(),
        unseen_because: unseen,
        light: field.light_seen(a, b).name(),
    })
}

#[derive(Serialize)]
struct CoverAnswer {
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    origin: Option<Units>,
    to: String,
    degree: CoverDegree,
    label: &'static str,
    /// The bonus to AC and Dexterity saves; null for total cover.
    bonus: Option<i32>,
    corner: Units,
    target_cell: Cell,
    lines: Vec<CoverLineAnswer>,
    total: bool,
    /// Total cover from siege equipment (a siege tower around the target, a ram's roof), in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    sheltered: Option<String>,
}

#[derive(Serialize)]
struct CoverLineAnswer {
    from: Units,
    to: Units,
    blocked_by: Option<Blocker>,
}

impl CoverAnswer {
    fn of(grid: Grid, ruling: Cover, to: &str) -> Self {
        Self {
            from: None,
            origin: None,
            to: to.to_owned(),
            degree: ruling.degree,
            label: ruling.degree.label(),
            bonus: ruling.degree.bonus(),
            corner: units(ruling.corner.to_units(grid)),
            target_cell: ruling.target_cell,
            lines: ruling
                .lines
                .into_iter()
                .map(|l| CoverLineAnswer {
                    from: units(l.from.to_units(grid)),
                    to: units(l.to.to_units(grid)),
                    blocked_by: l.blocked_by,
                })
                .collect(),
            total: ruling.total,
            sheltered: ruling.sheltered.map(|s| s.to_string()),
        }
    }
}

/// The cover B has against A: the ruling an attack of A's would get ([`Field::cover`]).
fn cover_between(board: &Board, from: &str, to: &str) -> Result<CoverAnswer, QueryError> {
    let (a, b) = (board.fighter(from)?, board.fighter(to)?);
    let ruling = board.field().cover(a, b, false);
    Ok(CoverAnswer { from: Some(a.id.clone()), ..CoverAnswer::of(board.grid(), ruling, &b.id) })
}

fn cover_from(board: &Board, origin: PointArg, to: &str) -> Result<CoverAnswer, QueryError> {
    let origin = point(board.scenario, origin)?;
    let b = board.fighter(to)?;
    let field = board.field();
    let sight_board = field.sight_board();
    let ruling = CoverContext::new(&sight_board, CoverFrom::Origin(origin)).cover(Some(&b.id), &b.cells);
    Ok(CoverAnswer {
        origin: Some(units(origin.to_units(board.grid()))),
        ..CoverAnswer::of(board.grid(), ruling, &b.id)
    })
}

#[derive(Serialize)]
struct AreaAnswer {
    shape: Shape,
    origin: Units,
    /// The point of origin's height above the ground, and the heights the area spans.
    height: u32,
    heights: [u32; 2],
    degrees: f64,
    cells: Vec<Cell>,
    tokens: Vec<String>,
    /// The Targets in Areas of Effect table's estimate.
    estimate: u32,
    adjusted: Option<Adjusted>,
}

/// The estimate with the DMG's optional 1d3, from a generator seeded on the command line.
#[derive(Serialize)]
struct Adjusted {
    seed: u64,
    roll_1d3: u32,
    bunched: bool,
    targets: u32,
}

/// An area's answer, the cells it covers with how much of each, and the space it fills.
struct ShownArea {
    origin: Point,
    volume: Volume,
    answer: AreaAnswer,
}

fn area(board: &Board, args: &AreaArgs) -> Result<ShownArea, QueryError> {
    let scenario = board.scenario;
    let grid = scenario.grid;
    let shape = Shape::new(args.shape, args.feet, args.face, args.width);
    let origin = point(scenario, args.origin)?;
    let from = origin.to_units(grid);
    let degrees = match (args.toward, args.angle) {
        (Some(toward), _) => degrees_toward(from, direction_point(scenario, toward)?.to_units(grid)),
        (None, angle) => angle.unwrap_or(0.0),
    };
    let cells: Vec<CoveredCell> = covered_cells(&scenario.map, shape, from, degrees)?;
    let volume = Volume::of(&cells, shape, args.height);
    let estimate = estimated_targets(shape.table_area(), args.feet);
    let adjusted = args.adjust.map(|bunching| {
        let roll_1d3 = rand::rngs::StdRng::seed_from_u64(args.seed).random_range(1..=3u32);
        let bunched = matches!(bunching, Bunching::Bunched);
        Adjusted { seed: args.seed, roll_1d3, bunched, targets: adjusted_targets(estimate, roll_1d3, bunched) }
    });
    let answer = AreaAnswer {
        shape,
        origin: units(from),
        height: args.height,
        heights: [volume.lowest, volume.highest],
        degrees: (degrees * 1000.0).round() / 1000.0,
        cells: cells.iter().map(|c| c.cell).collect(),
        tokens: board.field().in_area(&volume).map(|f| f.id.clone()).collect(),
        estimate,
        adjusted,
    };
    Ok(ShownArea { origin, volume, answer })
}

mod effects;
mod fight;
#[cfg(test)]
mod fuzz;
mod siege;
