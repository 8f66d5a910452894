//! Scenario errors: where in the file, and a sentence saying what is wrong.

use std::fmt;

/// One problem in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub file: String,
    /// 1-based line and column, when the problem has a place in the file.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl ScenarioError {
    pub fn at(file: &str, position: Option<(usize, usize)>, message: impl Into<String>) -> Self {
        Self { file: file.to_owned(), position, message: message.into() }
    }

    pub fn whole_file(file: &str, message: impl Into<String>) -> Self {
        Self::at(file, None, message)
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Every problem found in one file (at least one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioErrors(pub Vec<ScenarioError>);

impl ScenarioErrors {
    pub fn one(error: ScenarioError) -> Self {
        Self(vec![error])
    }
}

impl fmt::Display for ScenarioErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioErrors {}
