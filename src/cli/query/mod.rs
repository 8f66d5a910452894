//! `battlemap query FILE QUERY ...`: rules questions answered in JSON on stdout.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::EXIT_INVALID;
use crate::rules::area::{Shape, adjusted_targets, covered_cells, degrees_toward, estimated_targets};
use crate::rules::distance::{DiagonalParity, range_feet};
use crate::rules::lattice::{self, Point};
use crate::rules::movement::{Board, TurnMovement, reach, why_not};
use crate::rules::sight::{Cover, From as CoverFrom, SightBoard, cover, line_of_sight};
use crate::rules::{Cell, Grid};
use crate::scenario::{Scenario, Token};

/// One rules question about one scenario.
pub(super) struct Query {
    file: PathBuf,
    question: Question,
}

enum Question {
    Tokens,
    Distance { from: String, to: String },
    Path { id: String, to: Cell, dash: bool },
    Reach { id: String, dash: bool },
    Sight { from: String, to: String },
    Cover { from: String, to: String },
    CoverFrom { origin: String, to: String },
    Area { shape: String, feet: u32, origin: String, aim: Aim, face: bool, width: u32, adjust: Option<(bool, u64)> },
}

/// Which way an area points.
enum Aim {
    Toward(String),
    Degrees(f64),
}

const QUERIES: &str = "tokens, distance A B, path ID --to X,Y [--dash], reach ID [--dash], los A B, cover A B, \
cover-from X,Y B, aoe SHAPE FEET --origin X,Y [--toward X,Y | --angle DEG] [--face] [--width FEET] \
[--adjust bunched|spread [--seed N]]";

/// Reads `X,Y` (a cell: `x,y` on squares, `q,r` on hexes).
fn parse_cell(text: &str) -> Result<Cell, String> {
    text.split_once(',')
        .and_then(|(x, y)| Some(Cell::new(x.trim().parse().ok()?, y.trim().parse().ok()?)))
        .ok_or_else(|| format!("expected a cell as X,Y (such as 3,4), not {text:?}"))
}

fn parse_area(shape: &str, feet: &str, options: &[&str]) -> Result<Question, String> {
    let feet: u32 = feet.parse().map_err(|_| format!("the area's size is a number of feet, not {feet:?}"))?;
    let (mut origin, mut aim, mut face, mut width) = (None, Aim::Degrees(0.0), false, 5);
    let (mut bunching, mut seed) = (None, 0u64);
    let mut options = options.iter();
    while let Some(option) = options.next() {
        let mut value = || options.next().copied().ok_or_else(|| format!("{option} needs a value"));
        match *option {
            "--origin" => origin = Some(value()?.to_owned()),
            "--toward" => aim = Aim::Toward(value()?.to_owned()),
            "--angle" => {
                let text = value()?;
                aim = Aim::Degrees(text.parse().map_err(|_| format!("--angle takes degrees, not {text:?}"))?);
            }
            "--face" => face = true,
            "--width" => {
                let text = value()?;
                width = text.parse().map_err(|_| format!("--width takes feet, not {text:?}"))?;
            }
            "--adjust" => {
                bunching = Some(match value()? {
                    "bunched" => true,
                    "spread" => false,
                    other => return Err(format!("--adjust takes bunched or spread, not {other:?}")),
                });
            }
            "--seed" => {
                let text = value()?;
                seed = text.parse().map_err(|_| format!("--seed takes a whole number, not {text:?}"))?;
            }
            other => return Err(format!("unknown option {other} for aoe")),
        }
    }
    let origin = origin.ok_or("aoe needs --origin X,Y")?;
    Ok(Question::Area { shape: shape.to_owned(), feet, origin, aim, face, width, adjust: bunching.map(|b| (b, seed)) })
}

impl Query {
    pub fn parse(args: &[String]) -> Result<Self, String> {
        let [file, question, rest @ ..] = args else {
            return Err(format!("query needs a FILE and a QUERY; the queries are: {QUERIES}"));
        };
        let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
        let question = match (question.as_str(), rest.as_slice()) {
            ("tokens", []) => Question::Tokens,
            ("distance", [from, to]) => Question::Distance { from: (*from).into(), to: (*to).into() },
            ("path", [id, "--to", cell]) => Question::Path { id: (*id).into(), to: parse_cell(cell)?, dash: false },
            ("path", [id, "--to", cell, "--dash"] | [id, "--dash", "--to", cell]) => {
                Question::Path { id: (*id).into(), to: parse_cell(cell)?, dash: true }
            }
            ("reach", [id]) => Question::Reach { id: (*id).into(), dash: false },
            ("reach", [id, "--dash"]) => Question::Reach { id: (*id).into(), dash: true },
            ("los", [from, to]) => Question::Sight { from: (*from).into(), to: (*to).into() },
            ("cover", [from, to]) => Question::Cover { from: (*from).into(), to: (*to).into() },
            ("cover-from", [origin, to]) => Question::CoverFrom { origin: (*origin).into(), to: (*to).into() },
            ("aoe", [shape, feet, options @ ..]) => parse_area(shape, feet, options)?,
            (known @ ("tokens" | "distance" | "path" | "reach" | "los" | "cover" | "cover-from" | "aoe"), extra) => {
                return Err(format!("wrong arguments for `{known}`: {extra:?}; the queries are: {QUERIES}"));
            }
            (other, _) => return Err(format!("unknown query {other:?}; the queries are: {QUERIES}")),
        };
        Ok(Self { file: file.into(), question })
    }

    /// Loads the scenario, prints the answer, and returns the exit code.
    pub fn run(self) -> u8 {
        let scenario = match Scenario::load(&self.file) {
            Ok(s) => s,
            Err(errors) => {
                eprintln!("{errors}");
                return EXIT_INVALID;
            }
        };
        let answer = match &self.question {
            Question::Tokens => Ok(tokens(&scenario)),
            Question::Distance { from, to } => distance(&scenario, from, to),
            Question::Path { id, to, dash } => path(&scenario, id, *to, *dash),
            Question::Reach { id, dash } => reach_cells(&scenario, id, *dash),
            Question::Sight { from, to } => sight(&scenario, from, to),
            Question::Cover { from, to } => cover_between(&scenario, from, to),
            Question::CoverFrom { origin, to } => cover_from(&scenario, origin, to),
            Question::Area { shape, feet, origin, aim, face, width, adjust } => {
                area(&scenario, shape, *feet, origin, aim, *face, *width, *adjust)
            }
        };
        match answer {
            Ok(answer) => {
                println!("{}", serde_json::to_string_pretty(&answer).expect("JSON values always serialise"));
                0
            }
            Err(message) => {
                eprintln!("{}: {message}", self.file.display());
                EXIT_INVALID
            }
        }
    }
}

fn token<'a>(scenario: &'a Scenario, id: &str) -> Result<&'a Token, String> {
    scenario.token(id).ok_or_else(|| {
        let ids: Vec<&str> = scenario.tokens.iter().map(|t| t.id.as_str()).collect();
        format!("no token has the id {id:?}; the ids are {}", ids.join(", "))
    })
}

/// Every token: id, name, kind, side, size, anchor and the cells of its space.
pub fn tokens(scenario: &Scenario) -> Value {
    let token = |t: &Token| {
        json!({
            "id": t.id,
            "name": t.name,
            "kind": t.kind,
            "side": t.side.name(),
            "size": t.size.name(),
            "anchor": [t.anchor.x, t.anchor.y],
            "cells": t.cells(scenario.grid).iter().map(|c| [c.x, c.y]).collect::<Vec<_>>(),
        })
    };
    json!({
        "scenario": scenario.name,
        "grid": scenario.grid.name(),
        "tokens": scenario.tokens.iter().map(token).collect::<Vec<_>>(),
    })
}

/// The range between two tokens: nearest cell to nearest cell.
fn distance(scenario: &Scenario, from: &str, to: &str) -> Result<Value, String> {
    let (a, b) = (token(scenario, from)?, token(scenario, to)?);
    let feet = range_feet(scenario.grid, scenario.rules.diagonals, &a.cells(scenario.grid), &b.cells(scenario.grid))
        .ok_or("a token has no space")?;
    Ok(json!({ "from": a.id, "to": b.id, "feet": feet, "diagonals": scenario.rules.diagonals.name() }))
}

/// The movement a token has at the start of its turn, with or without a Dash.
fn turn(token: &Token, dash: bool) -> TurnMovement {
    TurnMovement { dashes: u32::from(dash), ..TurnMovement::new(token.speed) }
}

fn path(scenario: &Scenario, id: &str, to: Cell, dash: bool) -> Result<Value, String> {
    let mover = token(scenario, id)?;
    let others = scenario.occupants_except(id);
    let board = Board { map: &scenario.map, rule: scenario.rules.diagonals, others: &others };
    let budget = turn(mover, dash).left();
    let start = mover.anchor;
    let found = reach(&board, &mover.mover(), start, budget, DiagonalParity::default()).path(to);
    Ok(match found {
        Some(path) => json!({
            "id": id,
            "budget": budget,
            "reachable": true,
            "cost": path.cost,
            "cells": path.cells().iter().map(|c| [c.x, c.y]).collect::<Vec<_>>(),
            "steps": path.steps,
            "squeezing_at_end": path.fit == crate::rules::movement::Fit::Squeezing,
        }),
        None => {
            let reason = why_not(&board, &mover.mover(), start, to, budget, DiagonalParity::default());
            json!({
                "id": id,
                "budget": budget,
                "reachable": false,
                "why": reason,
                "explanation": reason.map(|r| r.to_string()),
            })
        }
    })
}

fn reach_cells(scenario: &Scenario, id: &str, dash: bool) -> Result<Value, String> {
    let mover = token(scenario, id)?;
    let others = scenario.occupants_except(id);
    let board = Board { map: &scenario.map, rule: scenario.rules.diagonals, others: &others };
    let budget = turn(mover, dash).left();
    let reach = reach(&board, &mover.mover(), mover.anchor, budget, DiagonalParity::default());
    let cells: Vec<Value> = reach
        .cells()
        .iter()
        .map(|r| json!({ "cell": [r.cell.x, r.cell.y], "cost": r.cost, "squeezing": r.fit == crate::rules::movement::Fit::Squeezing }))
        .collect();
    Ok(json!({ "id": id, "budget": budget, "dash": dash, "cells": cells }))
}

/// A point of the grid: `X,Y` is a square's corner (a grid intersection) on squares; on hexes
/// `Q,R` is a hex's centre and `Q,R@N` its corner N (0 to 5, clockwise from the one shared with
/// `(q+1, r)` and `(q, r+1)`).
fn parse_point(grid: Grid, text: &str) -> Result<Point, String> {
    let (cell_text, corner) = match text.split_once('@') {
        Some((cell, corner)) => (
            cell,
            Some(
                corner
                    .parse::<usize>()
                    .ok()
                    .filter(|c| *c < 6)
                    .ok_or_else(|| format!("a hex corner is 0 to 5, not {corner:?}"))?,
            ),
        ),
        None => (text, None),
    };
    let cell = parse_cell(cell_text)?;
    match (grid, corner) {
        (Grid::Square, None) => Ok(Point::square_corner(cell.x, cell.y)),
        (Grid::Square, Some(_)) => Err("on squares a point is a grid intersection X,Y, without @".into()),
        (Grid::Hex(_), None) => Ok(lattice::centre(grid, cell)),
        (Grid::Hex(_), Some(n)) => Ok(lattice::corners(grid, cell)[n]),
    }
}

fn point_json(grid: Grid, point: Point) -> Value {
    let (x, y) = point.to_units(grid);
    json!([round3(x), round3(y)])
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn sight_board(scenario: &Scenario) -> Vec<crate::rules::movement::Occupant> {
    scenario.tokens.iter().map(|t| t.occupant(scenario.grid)).collect()
}

fn sight(scenario: &Scenario, from: &str, to: &str) -> Result<Value, String> {
    let (a, b) = (token(scenario, from)?, token(scenario, to)?);
    let tokens = sight_board(scenario);
    let board = SightBoard { map: &scenario.map, tokens: &tokens };
    let line = line_of_sight(&board, &a.cells(scenario.grid), &b.cells(scenario.grid));
    Ok(json!({
        "from": a.id,
        "to": b.id,
        "line_of_sight": line.is_some(),
        "line": line.map(|(p, q)| json!({ "from": point_json(scenario.grid, p), "to": point_json(scenario.grid, q) })),
    }))
}

fn cover_json(scenario: &Scenario, ruling: &Cover) -> Value {
    let grid = scenario.grid;
    json!({
        "degree": ruling.degree,
        "label": ruling.degree.label(),
        "bonus": ruling.degree.bonus(),
        "corner": point_json(grid, ruling.corner),
        "target_cell": [ruling.target_cell.x, ruling.target_cell.y],
        "lines": ruling.lines.iter().map(|l| json!({
            "from": point_json(grid, l.from),
            "to": point_json(grid, l.to),
            "blocked_by": l.blocked_by,
        })).collect::<Vec<_>>(),
        "total": ruling.total,
    })
}

fn cover_between(scenario: &Scenario, from: &str, to: &str) -> Result<Value, String> {
    let (a, b) = (token(scenario, from)?, token(scenario, to)?);
    let tokens = sight_board(scenario);
    let board = SightBoard { map: &scenario.map, tokens: &tokens };
    let cells = a.cells(scenario.grid);
    let ruling =
        cover(&board, CoverFrom::Space { cells: &cells, id: Some(&a.id) }, Some(&b.id), &b.cells(scenario.grid));
    let mut answer = cover_json(scenario, &ruling);
    answer["from"] = json!(a.id);
    answer["to"] = json!(b.id);
    Ok(answer)
}

fn cover_from(scenario: &Scenario, origin: &str, to: &str) -> Result<Value, String> {
    let point = parse_point(scenario.grid, origin)?;
    let b = token(scenario, to)?;
    let tokens = sight_board(scenario);
    let board = SightBoard { map: &scenario.map, tokens: &tokens };
    let ruling = cover(&board, CoverFrom::Origin(point), Some(&b.id), &b.cells(scenario.grid));
    let mut answer = cover_json(scenario, &ruling);
    answer["origin"] = point_json(scenario.grid, point);
    answer["to"] = json!(b.id);
    Ok(answer)
}

#[allow(clippy::too_many_arguments)]
fn area(
    scenario: &Scenario,
    shape: &str,
    feet: u32,
    origin: &str,
    aim: &Aim,
    face: bool,
    width: u32,
    adjust: Option<(bool, u64)>,
) -> Result<Value, String> {
    let grid = scenario.grid;
    let shape = match shape {
        "sphere" => Shape::Sphere { radius: feet },
        "cylinder" => Shape::Cylinder { radius: feet },
        "circle" => Shape::Circle { radius: feet },
        "cube" => Shape::Cube { side: feet, face },
        "square" => Shape::Square { side: feet, face },
        "cone" => Shape::Cone { length: feet },
        "line" => Shape::Line { length: feet, width },
        other => {
            return Err(format!(
                "unknown shape {other:?}; the shapes are sphere, cylinder, circle, cube, square, cone, line"
            ));
        }
    };
    let origin_units = parse_point(grid, origin)?.to_units(grid);
    let degrees = match aim {
        Aim::Degrees(d) => *d,
        Aim::Toward(text) => degrees_toward(origin_units, parse_point(grid, text)?.to_units(grid)),
    };
    let cells = covered_cells(&scenario.map, shape, origin_units, degrees).map_err(|e| e.to_string())?;
    let inside: std::collections::HashSet<Cell> = cells.iter().map(|c| c.cell).collect();
    let touched: Vec<&str> = scenario
        .tokens
        .iter()
        .filter(|t| t.cells(grid).iter().any(|c| inside.contains(c)))
        .map(|t| t.id.as_str())
        .collect();
    Ok(json!({
        "shape": shape,
        "origin": [round3(origin_units.0), round3(origin_units.1)],
        "degrees": round3(degrees),
        "cells": cells.iter().map(|c| [c.cell.x, c.cell.y]).collect::<Vec<_>>(),
        "tokens": touched,
        "estimate": estimated_targets(shape.table_area(), feet),
        "adjusted": adjust.map(|(bunched, seed)| {
            // The DMG's optional 1d3, from a generator seeded on the command line so it replays.
            use rand::{RngExt, SeedableRng};
            let roll = rand::rngs::StdRng::seed_from_u64(seed).random_range(1..=3u32);
            let estimate = estimated_targets(shape.table_area(), feet);
            json!({ "seed": seed, "roll_1d3": roll, "bunched": bunched, "targets": adjusted_targets(estimate, roll, bunched) })
        }),
    }))
}
