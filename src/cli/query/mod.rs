//! `battlemap query FILE QUERY ...`: rules questions answered in JSON on stdout. Each answer is a
//! `Serialize` type below, so its fields are the JSON's (documented in `docs/cli.md`).

use std::path::PathBuf;

use clap::builder::TypedValueParser;
use clap::{Args, Subcommand, ValueEnum};
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use super::{fail, parse_pair, say_json};
use crate::rules::area::{
    CoveredCell, MAX_AREA_FEET, MIN_AREA_FEET, Shape, ShapeKind, adjusted_targets, covered_cells, degrees_toward,
    estimated_targets, holders,
};
use crate::rules::conditions::speed;
use crate::rules::distance::{DiagonalParity, range_feet, rule_name};
use crate::rules::economy::{Economy, Left};
use crate::rules::lattice::{self, Point, Segment};
use crate::rules::movement::{Board, Fit, MoveError, Occupant, Step, TurnMovement, reach, why_not};
use crate::rules::sight::{Blocker, Cover, CoverDegree, From as CoverFrom, SightBoard, cover, line_of_sight};
use crate::rules::{Cell, Grid};
use crate::scenario::{Scenario, Token, TokenKind};

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
    /// The range in feet between two tokens, nearest cell to nearest cell
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
    /// Whether A has line of sight to B, and a clear line if so
    Los { a: String, b: String },
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
}

#[derive(Args, Debug)]
struct AreaArgs {
    #[arg(value_parser = shape_parser())]
    shape: ShapeKind,
    /// The radius (sphere, cylinder, circle), side (cube, square) or length (cone, line)
    #[arg(value_parser = clap::value_parser!(u32).range(i64::from(MIN_AREA_FEET)..=i64::from(MAX_AREA_FEET)))]
    feet: u32,
    /// The point of origin (see cover-from for how points are written)
    #[arg(long, value_name = "POINT", allow_hyphen_values = true, value_parser = parse_point)]
    origin: PointArg,
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
    #[arg(long, value_name = "FEET", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(i64::from(MIN_AREA_FEET)..=i64::from(MAX_AREA_FEET)))]
    width: u32,
    /// Add (bunched) or subtract (spread) the DMG's optional 1d3 to the table's estimate
    #[arg(long)]
    adjust: Option<Bunching>,
    /// The seed of that 1d3, and of the saves' dice
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
}

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

fn parse_point(text: &str) -> Result<PointArg, String> {
    let (cell, corner) = match text.split_once('@') {
        Some((cell, corner)) => {
            (cell, Some(corner.parse::<usize>().map_err(|_| format!("{corner:?} after @ is not a whole number"))?))
        }
        None => (text, None),
    };
    Ok(PointArg { cell: parse_pair(cell)?, corner })
}

fn parse_angle(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|d| d.is_finite() && d.abs() <= 3600.0)
        .ok_or_else(|| "an angle is a number of degrees from -3600 to 3600".to_owned())
}

/// Loads the scenario, prints the answer, and returns the exit code.
pub(super) fn run(args: &QueryArgs) -> u8 {
    let scenario = match Scenario::load(&args.file) {
        Ok(s) => s,
        Err(errors) => return fail(errors),
    };
    let answer: Result<Answer, String> = match &args.question {
        Question::Tokens => Ok(Answer::Tokens(tokens(&scenario))),
        Question::Distance { a, b } => distance(&scenario, a, b).map(Answer::Distance),
        Question::Path { id, to, dash } => path(&scenario, id, Cell::new(to.0, to.1), *dash).map(Answer::Path),
        Question::Reach { id, dash } => reach_cells(&scenario, id, *dash).map(Answer::Reach),
        Question::Los { a, b } => sight(&scenario, a, b).map(Answer::Sight),
        Question::Cover { a, b } => cover_between(&scenario, a, b).map(Answer::Cover),
        Question::CoverFrom { origin, b } => cover_from(&scenario, *origin, b).map(Answer::Cover),
        Question::Aoe(area_args) => area(&scenario, area_args).map(|shown| Answer::Area(shown.answer)),
        Question::Flanking { target } => fight::flanking(&scenario, target).map(Answer::Flanking),
        Question::Arc { a, target } => fight::arc(&scenario, a, target).map(Answer::Arc),
        Question::Attack(attack_args) => fight::attack(&scenario, attack_args).map(|a| Answer::Attack(Box::new(a))),
        Question::Saves(saves_args) => fight::saves(&scenario, saves_args).map(Answer::Saves),
        Question::Provokes(provokes_args) => fight::provokes(&scenario, provokes_args).map(Answer::Provokes),
        Question::Siege { id } => siege::siege(&scenario, id).map(|a| Answer::Siege(Box::new(a))),
    };
    match answer {
        Ok(answer) => {
            say_json(&answer);
            0
        }
        Err(message) => fail(format_args!("{}: {message}", args.file.display())),
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
    Cover(CoverAnswer),
    Area(AreaAnswer),
    Flanking(fight::FlankingAnswer),
    Arc(fight::ArcAnswer),
    Attack(Box<fight::AttackAnswer>),
    Saves(fight::SavesAnswer),
    Provokes(fight::ProvokesAnswer),
    Siege(Box<siege::SiegeAnswer>),
}

/// A point in grid units (x east, y south), rounded to thousandths.
type Units = [f64; 2];

fn units((x, y): (f64, f64)) -> Units {
    let round = |v: f64| (v * 1000.0).round() / 1000.0;
    [round(x), round(y)]
}

fn token<'a>(scenario: &'a Scenario, id: &str) -> Result<&'a Token, String> {
    scenario.token(id).ok_or_else(|| {
        let ids: Vec<&str> = scenario.tokens.iter().map(|t| t.id.as_str()).collect();
        format!("no token has the id {id:?}; the ids are {}", ids.join(", "))
    })
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

fn tokens(scenario: &Scenario) -> TokensAnswer {
    TokensAnswer {
        scenario: scenario.name.clone(),
        grid: scenario.grid.name(),
        tokens: scenario
            .tokens
            .iter()
            .map(|t| TokenAnswer {
                id: t.id.clone(),
                name: t.name.clone(),
                kind: t.kind,
                side: t.side.name(),
                size: t.size.name(),
                anchor: t.anchor,
                cells: t.cells(scenario.grid),
                turn: (t.kind == TokenKind::Creature).then(|| TurnAnswer {
                    left: Economy::default().left(&t.turn),
                    movement: speed(t.speed, &t.conditions, t.exhaustion).feet,
                    attacks_per_action: t.turn.attacks(),
                    bonus_actions: t.turn.bonus_actions.iter().map(|a| a.name()).collect(),
                }),
            })
            .collect(),
    }
}

#[derive(Serialize)]
struct DistanceAnswer {
    from: String,
    to: String,
    feet: u32,
    /// How steps are counted: `every square 5 ft`, `diagonals 5/10 ft` or `every hex 5 ft`.
    diagonals: &'static str,
}

fn distance(scenario: &Scenario, from: &str, to: &str) -> Result<DistanceAnswer, String> {
    let (a, b) = (token(scenario, from)?, token(scenario, to)?);
    let (grid, rule) = (scenario.grid, scenario.rules.diagonals);
    let feet = range_feet(grid, rule, &a.cells(grid), &b.cells(grid)).ok_or("a token has no space")?;
    Ok(DistanceAnswer { from: a.id.clone(), to: b.id.clone(), feet, diagonals: rule_name(grid, rule) })
}

/// The movement a token has at the start of its turn, with or without a Dash.
fn budget(token: &Token, dash: bool) -> u32 {
    let mut turn = TurnMovement::new(token.speed);
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

fn board<'a>(scenario: &'a Scenario, others: &'a [Occupant]) -> Board<'a> {
    Board { map: &scenario.map, rule: scenario.rules.diagonals, others }
}

fn path(scenario: &Scenario, id: &str, to: Cell, dash: bool) -> Result<PathAnswer, String> {
    let mover = token(scenario, id)?;
    let others = scenario.occupants_except(id);
    let board = board(scenario, &others);
    let budget = budget(mover, dash);
    let found = reach(&board, &mover.mover(), mover.anchor, budget, DiagonalParity::default()).path(to);
    let mut answer = PathAnswer {
        id: id.to_owned(),
        budget,
        reachable: found.is_some(),
        cost: None,
        cells: None,
        steps: None,
        squeezing_at_end: None,
        why: None,
        explanation: None,
    };
    match found {
        Some(path) => {
            answer.cost = Some(path.cost);
            answer.cells = Some(path.cells());
            answer.squeezing_at_end = Some(path.fit == Fit::Squeezing);
            answer.steps = Some(path.steps);
        }
        None => {
            let reason = why_not(&board, &mover.mover(), mover.anchor, to, budget, DiagonalParity::default());
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

fn reach_cells(scenario: &Scenario, id: &str, dash: bool) -> Result<ReachAnswer, String> {
    let mover = token(scenario, id)?;
    let others = scenario.occupants_except(id);
    let budget = budget(mover, dash);
    let reach = reach(&board(scenario, &others), &mover.mover(), mover.anchor, budget, DiagonalParity::default());
    let cells = reach
        .cells()
        .iter()
        .map(|r| ReachCell { cell: r.cell, cost: r.cost, squeezing: r.fit == Fit::Squeezing })
        .collect();
    Ok(ReachAnswer { id: id.to_owned(), budget, dash, cells })
}

/// Resolves a written point on the scenario's grid, refusing one off the map.
fn point(scenario: &Scenario, written: PointArg) -> Result<Point, String> {
    let grid = scenario.grid;
    let (x, y) = written.cell;
    match (grid, written.corner) {
        (Grid::Square, Some(_)) => Err("on squares a point is a grid intersection X,Y, without @N".into()),
        (Grid::Square, None) => {
            let (w, h) = (scenario.map.width() as i32, scenario.map.height() as i32);
            if (0..=w).contains(&x) && (0..=h).contains(&y) {
                Ok(Point::square_corner(x, y))
            } else {
                Err(format!("the point {x},{y} is off the map: intersections run from 0,0 to {w},{h}"))
            }
        }
        (Grid::Hex(_), Some(n)) if n > 5 => Err(format!("a hex has corners 0 to 5, not {n}")),
        (Grid::Hex(_), corner) => {
            let cell = Cell::new(x, y);
            if !scenario.map.contains(cell) {
                return Err(format!("the hex {x},{y} is not on the map; a point is a hex's centre or corner"));
            }
            Ok(match corner {
                Some(n) => lattice::corners(grid, cell)[n],
                None => lattice::centre(grid, cell),
            })
        }
    }
}

/// A cell as written, refusing one off the map.
fn point_cell(scenario: &Scenario, (x, y): (i32, i32)) -> Result<Cell, String> {
    let cell = Cell::new(x, y);
    if scenario.map.contains(cell) {
        Ok(cell)
    } else {
        let (w, h) = (scenario.map.width(), scenario.map.height());
        Err(format!("the cell {x},{y} is not on the map ({w} × {h} cells)"))
    }
}

#[derive(Serialize)]
struct SightAnswer {
    from: String,
    to: String,
    /// A clear line between the spaces (terrain and creatures only).
    line_of_sight: bool,
    line: Option<LineAnswer>,
    /// Whether A sees B: a line, and A not blinded or unconscious, B not invisible, and under the
    /// facing rule B not in A's rear arc.
    sees: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    unseen_because: Option<String>,
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

fn sight_board(scenario: &Scenario) -> Vec<Occupant> {
    scenario.tokens.iter().map(|t| t.occupant(scenario.grid)).collect()
}

fn sight(scenario: &Scenario, from: &str, to: &str) -> Result<SightAnswer, String> {
    let (a, b) = (token(scenario, from)?, token(scenario, to)?);
    let tokens = sight_board(scenario);
    let board = SightBoard { map: &scenario.map, tokens: &tokens };
    let line = line_of_sight(&board, &a.cells(scenario.grid), &b.cells(scenario.grid));
    let fighters = scenario.fighters();
    let field = crate::rules::fight::Field::new(&scenario.map, &fighters, scenario.fight_rules());
    let (viewer, seen) = (field.fighter(&a.id), field.fighter(&b.id));
    let unseen = viewer.zip(seen).and_then(|(v, s)| Some(field.unseen_because(v, s)?.describe(v.name(), s.name())));
    Ok(SightAnswer {
        from: a.id.clone(),
        to: b.id.clone(),
        line_of_sight: line.is_some(),
        line: line.map(|l| LineAnswer::of(scenario.grid, &l)),
        sees: unseen.is_none(),
        unseen_because: unseen,
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
        }
    }
}

fn cover_between(scenario: &Scenario, from: &str, to: &str) -> Result<CoverAnswer, String> {
    let (a, b) = (token(scenario, from)?, token(scenario, to)?);
    let tokens = sight_board(scenario);
    let board = SightBoard { map: &scenario.map, tokens: &tokens };
    let cells = a.cells(scenario.grid);
    let ruling =
        cover(&board, CoverFrom::Space { cells: &cells, id: Some(&a.id) }, Some(&b.id), &b.cells(scenario.grid));
    Ok(CoverAnswer { from: Some(a.id.clone()), ..CoverAnswer::of(scenario.grid, ruling, &b.id) })
}

fn cover_from(scenario: &Scenario, origin: PointArg, to: &str) -> Result<CoverAnswer, String> {
    let origin = point(scenario, origin)?;
    let b = token(scenario, to)?;
    let tokens = sight_board(scenario);
    let board = SightBoard { map: &scenario.map, tokens: &tokens };
    let ruling = cover(&board, CoverFrom::Origin(origin), Some(&b.id), &b.cells(scenario.grid));
    Ok(CoverAnswer {
        origin: Some(units(origin.to_units(scenario.grid))),
        ..CoverAnswer::of(scenario.grid, ruling, &b.id)
    })
}

#[derive(Serialize)]
struct AreaAnswer {
    shape: Shape,
    origin: Units,
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

/// An area's answer, and the cells it covers with how much of each.
struct ShownArea {
    covered: Vec<CoveredCell>,
    answer: AreaAnswer,
}

fn area(scenario: &Scenario, args: &AreaArgs) -> Result<ShownArea, String> {
    let grid = scenario.grid;
    let shape = Shape::new(args.shape, args.feet, args.face, args.width);
    let origin = point(scenario, args.origin)?.to_units(grid);
    let degrees = match (args.toward, args.angle) {
        (Some(toward), _) => degrees_toward(origin, point(scenario, toward)?.to_units(grid)),
        (None, angle) => angle.unwrap_or(0.0),
    };
    let cells = covered_cells(&scenario.map, shape, origin, degrees).map_err(|e| e.to_string())?;
    let occupants = sight_board(scenario);
    let estimate = estimated_targets(shape.table_area(), args.feet);
    let adjusted = args.adjust.map(|bunching| {
        let roll_1d3 = rand::rngs::StdRng::seed_from_u64(args.seed).random_range(1..=3u32);
        let bunched = matches!(bunching, Bunching::Bunched);
        Adjusted { seed: args.seed, roll_1d3, bunched, targets: adjusted_targets(estimate, roll_1d3, bunched) }
    });
    let answer = AreaAnswer {
        shape,
        origin: units(origin),
        degrees: (degrees * 1000.0).round() / 1000.0,
        cells: cells.iter().map(|c| c.cell).collect(),
        tokens: holders(&cells, &occupants).into_iter().map(|o| o.id.clone()).collect(),
        estimate,
        adjusted,
    };
    Ok(ShownArea { covered: cells, answer })
}

mod fight;
#[cfg(test)]
mod fuzz;
mod siege;
