//! `battlemap query FILE QUERY ...`: rules questions answered in JSON on stdout.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::EXIT_INVALID;
use crate::rules::distance::{DiagonalParity, range_feet};
use crate::rules::movement::{Board, TurnMovement, reach, why_not};
use crate::rules::Cell;
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
}

const QUERIES: &str = "tokens, distance A B, path ID --to X,Y [--dash], reach ID [--dash]";

/// Reads `X,Y` (a cell: `x,y` on squares, `q,r` on hexes).
fn parse_cell(text: &str) -> Result<Cell, String> {
    text.split_once(',')
        .and_then(|(x, y)| Some(Cell::new(x.trim().parse().ok()?, y.trim().parse().ok()?)))
        .ok_or_else(|| format!("expected a cell as X,Y (such as 3,4), not {text:?}"))
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
            (known @ ("tokens" | "distance" | "path" | "reach"), extra) => {
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
