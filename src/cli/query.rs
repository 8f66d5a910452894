//! `battlemap query FILE QUERY ...`: rules questions answered in JSON on stdout.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::EXIT_INVALID;
use crate::scenario::{Scenario, Token};

/// One rules question about one scenario.
pub(super) struct Query {
    file: PathBuf,
    question: Question,
}

enum Question {
    Tokens,
}

impl Query {
    pub fn parse(args: &[String]) -> Result<Self, String> {
        let [file, question, rest @ ..] = args else {
            return Err("query needs a FILE and a QUERY (for instance: query scenes/tavern_brawl.ron tokens)".into());
        };
        let question = match (question.as_str(), rest) {
            ("tokens", []) => Question::Tokens,
            ("tokens", extra) => return Err(format!("`tokens` takes no arguments, but got {extra:?}")),
            (other, _) => return Err(format!("unknown query {other:?}; the queries are: tokens")),
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
        let answer = match self.question {
            Question::Tokens => tokens(&scenario),
        };
        println!("{}", serde_json::to_string_pretty(&answer).expect("JSON values always serialise"));
        0
    }
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
