//! Finds where a value sits in RON text, so validation errors can say `line:column`.
//!
//! serde gives no positions, so this skims the (already parsed, hence well-formed) text once
//! and records the start of every value under a path such as `creatures[2].at`, `map[3]` or
//! `legend.'T'`.

use std::collections::HashMap;

/// The start of each value in a RON document, by path.
pub(super) struct Locations {
    starts: HashMap<String, (usize, usize)>,
}

impl Locations {
    pub(super) fn of(text: &str) -> Self {
        let mut skim = Skim { chars: text.chars().collect(), at: 0, line: 1, col: 1, starts: HashMap::new() };
        skim.value(String::new());
        Self { starts: skim.starts }
    }

    /// The 1-based line and column where the value at `path` starts.
    pub(super) fn get(&self, path: &str) -> Option<(usize, usize)> {
        self.starts.get(path).copied()
    }

    /// The value at `path` or, failing that, the nearest enclosing value that was found.
    pub(super) fn nearest(&self, path: &str) -> Option<(usize, usize)> {
        let mut path = path;
        loop {
            if let Some(p) = self.get(path) {
                return Some(p);
            }
            path = &path[..path.rfind(['.', '['])?];
        }
    }
}

struct Skim {
    chars: Vec<char>,
    at: usize,
    line: usize,
    col: usize,
    starts: HashMap<String, (usize, usize)>,
}

impl Skim {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn skip_blank(&mut self) {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    while !matches!(self.peek(), None | Some('\n')) {
                        self.bump();
                    }
                }
                (Some('/'), Some('*')) => {
                    self.bump();
                    self.bump();
                    let mut depth = 1;
                    while depth > 0 {
                        match (self.bump(), self.peek()) {
                            (None, _) => return,
                            (Some('*'), Some('/')) => {
                                self.bump();
                                depth -= 1;
                            }
                            (Some('/'), Some('*')) => {
                                self.bump();
                                depth += 1;
                            }
                            _ => {}
                        }
                    }
                }
                _ => return,
            }
        }
    }

    fn is_word(c: char) -> bool {
        c.is_alphanumeric() || matches!(c, '_' | '-' | '+' | '.')
    }

    fn value(&mut self, path: String) {
        self.skip_blank();
        self.starts.insert(path.clone(), (self.line, self.col));
        match self.peek() {
            Some('"') => self.quoted('"'),
            Some('\'') => self.quoted('\''),
            Some('r') if matches!(self.peek_at(1), Some('#' | '"')) => self.raw_string(),
            Some('(') => self.group(&path, ')'),
            Some('[') => self.group(&path, ']'),
            Some('{') => self.map(&path),
            Some(c) if Self::is_word(c) => {
                while self.peek().is_some_and(Self::is_word) {
                    self.bump();
                }
                self.skip_blank();
                if self.peek() == Some('(') {
                    self.group(&path, ')');
                }
            }
            _ => {
                self.bump();
            }
        }
    }

    fn quoted(&mut self, quote: char) {
        self.bump();
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                c if c == quote => return,
                _ => {}
            }
        }
    }

    fn raw_string(&mut self) {
        self.bump();
        let mut hashes = 0;
        while self.peek() == Some('#') {
            self.bump();
            hashes += 1;
        }
        self.bump();
        'outer: while let Some(c) = self.bump() {
            if c == '"' {
                for i in 0..hashes {
                    if self.peek_at(i) != Some('#') {
                        continue 'outer;
                    }
                }
                for _ in 0..hashes {
                    self.bump();
                }
                return;
            }
        }
    }

    /// A struct, tuple or list: `name: value` fields or positional items until `close`.
    fn group(&mut self, path: &str, close: char) {
        self.bump();
        let mut index = 0;
        loop {
            self.skip_blank();
            match self.peek() {
                None => return,
                Some(c) if c == close => {
                    self.bump();
                    return;
                }
                Some(',') => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            if let Some(field) = self.field_name() {
                self.value(if path.is_empty() { field } else { format!("{path}.{field}") });
            } else {
                self.value(format!("{path}[{index}]"));
                index += 1;
            }
        }
    }

    /// Consumes `name:` if the next thing is a field name (and not, say, `Wall` or `Hex(...)`).
    fn field_name(&mut self) -> Option<String> {
        let mut end = self.at;
        while self.chars.get(end).is_some_and(|&c| c.is_alphanumeric() || c == '_') {
            end += 1;
        }
        if end == self.at {
            return None;
        }
        let mut after = end;
        while self.chars.get(after).is_some_and(|c| c.is_whitespace()) {
            after += 1;
        }
        if self.chars.get(after) != Some(&':') || self.chars.get(after + 1) == Some(&':') {
            return None;
        }
        let name: String = self.chars[self.at..end].iter().collect();
        while self.at <= after {
            self.bump();
        }
        Some(name)
    }

    /// A map: `key: value` entries, recorded under `path.key` with the key as written.
    fn map(&mut self, path: &str) {
        self.bump();
        loop {
            self.skip_blank();
            match self.peek() {
                None => return,
                Some('}') => {
                    self.bump();
                    return;
                }
                Some(',') => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let key_start = self.at;
            self.value(format!("{path}.#key"));
            let key: String = self.chars[key_start..self.at].iter().collect();
            let key_position = self.starts.remove(&format!("{path}.#key"));
            self.skip_blank();
            if self.peek() == Some(':') {
                self.bump();
            }
            let entry = format!("{path}.{}", key.trim());
            self.value(entry.clone());
            if let Some(p) = key_position {
                self.starts.insert(entry, p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fields_items_and_map_entries() {
        let text = "Scenario(\n  name: \"A\", // a comment: with colon\n  legend: { 'T': Wall },\n  map: [\n    \"..\",\n    \"#.\",\n  ],\n  creatures: [ (id: \"a\", at: (1, 2)), (id: \"b\", at: (0, 0)) ],\n)";
        let locations = Locations::of(text);
        assert_eq!(locations.get("name"), Some((2, 9)));
        assert_eq!(locations.get("legend.'T'"), Some((3, 13)));
        assert_eq!(locations.get("map[1]"), Some((6, 5)));
        assert_eq!(locations.get("creatures[1].at"), Some((8, 53)));
        assert_eq!(locations.nearest("creatures[1].at[9]"), Some((8, 53)));
    }
}
