//! The DM's tables of DMG chapter 8 (002_ce573f1e51986339.txt), kept as RON data in
//! `assets/tables/` (written from the rules text by `tools/tables_from_rules.py`), loaded and
//! validated here: every rollable table covers its die from 1 to its last face without gaps.

use serde::{Deserialize, Serialize};

use super::dice::{DiceError, RollMode, SeededDice};

/// Every table file, compiled in so the binary works from any folder.
const TABLE_FILES: [(&str, &str); 22] = [
    ("ability-checks", include_str!("../../assets/tables/ability-checks.ron")),
    ("conversation-reaction", include_str!("../../assets/tables/conversation-reaction.ron")),
    ("creature-size-and-space", include_str!("../../assets/tables/creature-size-and-space.ron")),
    ("damage-severity-and-level", include_str!("../../assets/tables/damage-severity-and-level.ron")),
    ("dc-hostile-creatures-reaction", include_str!("../../assets/tables/dc-hostile-creatures-reaction.ron")),
    ("dc-indifferent-creatures-reaction", include_str!("../../assets/tables/dc-indifferent-creatures-reaction.ron")),
    ("escape-factors", include_str!("../../assets/tables/escape-factors.ron")),
    ("improvising-damage", include_str!("../../assets/tables/improvising-damage.ron")),
    ("indefinite-madness", include_str!("../../assets/tables/indefinite-madness.ron")),
    ("long-term-madness", include_str!("../../assets/tables/long-term-madness.ron")),
    ("map-travel-pace", include_str!("../../assets/tables/map-travel-pace.ron")),
    ("mob-attacks", include_str!("../../assets/tables/mob-attacks.ron")),
    ("object-armor-class", include_str!("../../assets/tables/object-armor-class.ron")),
    ("object-hit-points", include_str!("../../assets/tables/object-hit-points.ron")),
    ("poisons", include_str!("../../assets/tables/poisons.ron")),
    ("saving-throws", include_str!("../../assets/tables/saving-throws.ron")),
    ("short-term-madness", include_str!("../../assets/tables/short-term-madness.ron")),
    ("targets-in-areas-of-effect", include_str!("../../assets/tables/targets-in-areas-of-effect.ron")),
    ("tracking-dcs", include_str!("../../assets/tables/tracking-dcs.ron")),
    ("typical-dcs", include_str!("../../assets/tables/typical-dcs.ron")),
    ("urban-chase-complications", include_str!("../../assets/tables/urban-chase-complications.ron")),
    ("wilderness-chase-complications", include_str!("../../assets/tables/wilderness-chase-complications.ron")),
];

/// What a table is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableKind {
    /// Rows to read.
    Reference,
    /// Rolled on: the first column holds the die's ranges.
    Random,
    /// Looked up by a die result worked out elsewhere (Mob Attacks: the d20 roll needed).
    Lookup,
}

/// One table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Table")]
pub struct Table {
    pub id: String,
    pub name: String,
    pub source: String,
    pub kind: TableKind,
    /// The die of a Random or Lookup table (20 or 100).
    #[serde(default)]
    pub die: Option<u32>,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// A roll on a table: the die, the result and the row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableRoll {
    pub table: String,
    pub die: u32,
    pub result: u32,
    pub row: Vec<String>,
}

/// Reads a range written in a table's first column: `5`, `1-5`, `01-20`, `00` (100), `96-00`.
pub fn parse_range(text: &str, die: u32) -> Option<(u32, u32)> {
    let face = |t: &str| -> Option<u32> {
        let n: u32 = t.trim().parse().ok()?;
        Some(if n == 0 && die == 100 { 100 } else { n })
    };
    match text.split_once(['-', '–']) {
        Some((low, high)) => Some((face(low)?, face(high)?)),
        None => face(text).map(|n| (n, n)),
    }
}

/// Why rows' ranges don't cover a die, as [`check_ranges`] finds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum RangeError {
    /// A row's range is not a result or range of the die (`5`, `11-20`, `96-00`).
    #[error("{text:?} is not a result or range of a d{die}, such as 5 or 11-20")]
    NotARange { text: String, die: u32 },
    /// A row does not start at `next`, the number after the row before it, or it runs backwards
    /// or past the die's last face.
    #[error("the row {text:?} should start at {next}: rows run from 1 to {die} in order")]
    OutOfOrder { text: String, next: u32, die: u32 },
    /// The last row stops at `last`, short of the die's last face.
    #[error("the rows stop at {last}: they must reach {die}")]
    StopsShort { last: u32, die: u32 },
}

/// Checks that rows' ranges (as [`parse_range`] reads them) cover 1 to `die` in order, once each:
/// for the DM's tables and for chase complication tables alike.
pub fn check_ranges<'a>(ranges: impl IntoIterator<Item = &'a str>, die: u32) -> Result<(), RangeError> {
    let mut next = 1;
    for text in ranges {
        let (low, high) = parse_range(text, die).ok_or_else(|| RangeError::NotARange { text: text.to_owned(), die })?;
        if low != next || high < low || high > die {
            return Err(RangeError::OutOfOrder { text: text.to_owned(), next, die });
        }
        next = high + 1;
    }
    if next != die + 1 {
        return Err(RangeError::StopsShort { last: next - 1, die });
    }
    Ok(())
}

/// Why a table is not valid, as [`Table::validate`] finds it: each sentence starts with the
/// table's id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The table has no columns or no rows.
    #[error("{id}: a table needs columns and rows")]
    Empty { id: String },
    /// A row has a number of cells other than the table's `columns`.
    #[error("{id}: the row {row:?} has {} cells for {columns} columns", .row.len())]
    RowWidth { id: String, row: Vec<String>, columns: usize },
    /// A Random or Lookup table has no die.
    #[error("{id}: a die table needs its die")]
    NoDie { id: String },
    /// A die table's ranges don't run from 1 to its die's last face (see [`check_ranges`]).
    #[error("{id}: {error}")]
    Ranges { id: String, error: RangeError },
}

impl Table {
    /// Checks the table's shape, and for a die table that its ranges run from 1 to the die's
    /// last face without gaps or overlaps.
    pub fn validate(&self) -> Result<(), TableError> {
        if self.columns.is_empty() || self.rows.is_empty() {
            return Err(TableError::Empty { id: self.id.clone() });
        }
        if let Some(row) = self.rows.iter().find(|r| r.len() != self.columns.len()) {
            return Err(TableError::RowWidth { id: self.id.clone(), row: row.clone(), columns: self.columns.len() });
        }
        if self.kind == TableKind::Reference {
            return Ok(());
        }
        let die = self.die.ok_or_else(|| TableError::NoDie { id: self.id.clone() })?;
        check_ranges(self.rows.iter().map(|row| row[0].as_str()), die)
            .map_err(|error| TableError::Ranges { id: self.id.clone(), error })
    }

    /// The row a die result falls in.
    pub fn row_for(&self, result: u32) -> Option<&[String]> {
        let die = self.die?;
        self.rows
            .iter()
            .find(|r| parse_range(&r[0], die).is_some_and(|(low, high)| (low..=high).contains(&result)))
            .map(Vec::as_slice)
    }

    /// Rolls on a Random table with the session's dice.
    pub fn roll(&self, dice: &mut SeededDice) -> Result<TableRoll, DiceError> {
        let die = self
            .die
            .filter(|_| self.kind == TableKind::Random)
            .ok_or_else(|| DiceError::NotRolledOn { table: self.name.clone() })?;
        let result = dice.roll(&format!("1d{die}"), RollMode::Normal)?.total as u32;
        let row = self.row_for(result).map(<[String]>::to_vec).unwrap_or_default();
        Ok(TableRoll { table: self.name.clone(), die, result, row })
    }
}

/// Why the DM's tables can't be loaded, as [`all`] finds it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TablesError {
    /// A table file is not a [`Table`] written in RON.
    #[error("assets/tables/{file}.ron: {error}")]
    Unreadable { file: &'static str, error: Box<ron::error::SpannedError> },
    /// A table read but is not valid (see [`Table::validate`]).
    #[error("{0}")]
    Invalid(#[from] TableError),
}

/// Every table, loaded and validated.
pub fn all() -> Result<Vec<Table>, TablesError> {
    TABLE_FILES
        .iter()
        .map(|&(file, text)| -> Result<Table, TablesError> {
            let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
            let table: Table =
                options.from_str(text).map_err(|error| TablesError::Unreadable { file, error: Box::new(error) })?;
            table.validate()?;
            Ok(table)
        })
        .collect()
}

/// The table whose id or name matches `name` (case and spaces ignored).
pub fn find<'a>(tables: &'a [Table], name: &str) -> Option<&'a Table> {
    let key = |s: &str| s.to_lowercase().replace([' ', '-', '_'], "");
    tables.iter().find(|t| key(&t.id) == key(name) || key(&t.name) == key(name))
}

/// DMG "Handling Mobs": the minimum d20 roll is the target's AC minus the attack bonus; the Mob
/// Attacks table says how many attackers it takes for one to hit. Returns the roll needed, the
/// attackers per hit and the hits.
pub fn mob_hits(tables: &[Table], bonus: i32, ac: i32, attackers: u32) -> Option<(i32, u32, u32)> {
    let table = find(tables, "mob-attacks")?;
    let needed = ac - bonus;
    let per_hit: u32 = match needed {
        ..=1 => table.rows.first()?.get(1)?.parse().ok()?,
        21.. => return Some((needed, 0, 0)),
        n => table.row_for(n as u32)?.get(1)?.parse().ok()?,
    };
    Some((needed, per_hit, attackers / per_hit.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_loads_and_every_file_is_listed() {
        let tables = all().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tables.len(), 22);
        let files =
            std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/tables")).expect("assets/tables").count();
        assert_eq!(files, TABLE_FILES.len(), "a table file is missing from TABLE_FILES");
    }

    /// Row counts of the source's tables, and die tables covering 1–20 or 1–100.
    #[test]
    fn tables_match_the_source() {
        let tables = all().expect("valid");
        for (id, rows) in [
            ("typical-dcs", 6),
            ("ability-checks", 6),
            ("saving-throws", 6),
            ("object-armor-class", 7),
            ("object-hit-points", 4),
            ("improvising-damage", 6),
            ("damage-severity-and-level", 4),
            ("targets-in-areas-of-effect", 5),
            ("mob-attacks", 7),
            ("creature-size-and-space", 6),
            ("map-travel-pace", 4),
            ("tracking-dcs", 5),
            ("conversation-reaction", 3),
            ("dc-indifferent-creatures-reaction", 3),
            ("dc-hostile-creatures-reaction", 3),
            ("escape-factors", 5),
            ("urban-chase-complications", 11),
            ("wilderness-chase-complications", 11),
            ("short-term-madness", 10),
            ("long-term-madness", 12),
            ("indefinite-madness", 12),
            ("poisons", 14),
        ] {
            assert_eq!(find(&tables, id).map(|t| t.rows.len()), Some(rows), "{id}");
        }
        for id in ["urban-chase-complications", "wilderness-chase-complications"] {
            assert_eq!(find(&tables, id).and_then(|t| t.die), Some(20));
        }
        for id in ["short-term-madness", "long-term-madness", "indefinite-madness"] {
            assert_eq!(find(&tables, id).and_then(|t| t.die), Some(100));
        }
    }

    /// Issue 10: the three tables of the "Conversation Reaction" callout are read too, each found
    /// by its anchor and by its name.
    #[test]
    fn the_conversation_reaction_tables_are_found() {
        let tables = all().expect("valid");
        assert_eq!(tables.len(), 22);
        for (id, name, reaction) in [
            ("conversation-reaction", "Conversation Reaction: Friendly Creature", "Friendly Creature's Reaction"),
            (
                "dc-indifferent-creatures-reaction",
                "Conversation Reaction: Indifferent Creature",
                "Indifferent Creature's Reaction",
            ),
            ("dc-hostile-creatures-reaction", "Conversation Reaction: Hostile Creature", "Hostile Creature's Reaction"),
        ] {
            let table = find(&tables, id).unwrap_or_else(|| panic!("{id} is found"));
            assert_eq!(find(&tables, name).map(|t| &t.id), Some(&table.id), "{name}");
            assert_eq!(table.name, name);
            assert_eq!(table.kind, TableKind::Reference);
            assert_eq!(table.source, "DMG chapter 8, 3. Charisma Check");
            assert_eq!(table.columns, ["DC", reaction]);
            assert_eq!(table.rows.iter().map(|r| r[0].as_str()).collect::<Vec<_>>(), ["0", "10", "20"]);
        }
    }

    /// Issue 10: no text copied with a wrong encoding ("1Â½" for "1½", "knowâadopting" for
    /// "know—adopting"): none of the usual first characters of mis-decoded UTF-8, no replacement
    /// character, no C1 control character.
    #[test]
    fn no_table_has_encoding_damage() {
        let damaged = |c: char| matches!(c, 'Â' | 'Ã' | 'â' | '\u{FFFD}' | '\u{80}'..='\u{9F}');
        let tables = all().expect("valid");
        for table in &tables {
            let texts =
                [&table.name, &table.source].into_iter().chain(&table.columns).chain(table.rows.iter().flatten());
            for text in texts {
                assert!(!text.chars().any(damaged), "{}: {text:?}", table.id);
            }
        }
        let cell = |id: &str, row: usize, column: usize| find(&tables, id).expect(id).rows[row][column].clone();
        assert_eq!(cell("map-travel-pace", 3, 3), "1 hex/1½ hr., 5 hexes/day");
        assert!(cell("indefinite-madness", 2, 1).contains("someone else I know—adopting his or her style"));
        assert!(cell("wilderness-chase-complications", 5, 1).contains("you fall 1d4 × 5 feet"));
    }

    /// Issue 10: where 002 has typos in the chase complications, the rows read as the second copy
    /// of the chapter (000_8c43542ae10d17a7.txt) has them.
    #[test]
    fn chase_complications_read_as_the_dmg_writes_them() {
        let tables = all().expect("valid");
        let text = |id: &str, roll: &str| {
            find(&tables, id).and_then(|t| t.rows.iter().find(|r| r[0] == roll)).expect("row")[1].clone()
        };
        let guard = text("urban-chase-complications", "9");
        assert!(guard.contains("(see the Monster Manual for game statistics) mistakes"), "{guard}");
        let snare = text("wilderness-chase-complications", "7");
        assert!(snare.contains("See chapter 5, \"Equipment,\" of the Player's Handbook"), "{snare}");
    }

    /// Issue 10: a table's source is the section that owns it, not a sub-heading it happens to sit
    /// under.
    #[test]
    fn tables_name_the_section_that_owns_them() {
        let tables = all().expect("valid");
        let source = |id: &str| find(&tables, id).map(|t| t.source.as_str());
        assert_eq!(source("ability-checks"), Some("DMG chapter 8, Ability Checks"));
        assert_eq!(source("poisons"), Some("DMG chapter 8, Purchasing Poison"));
    }

    #[test]
    fn ranges_are_read_as_the_tables_write_them() {
        assert_eq!(parse_range("01-20", 100), Some((1, 20)));
        assert_eq!(parse_range("96-00", 100), Some((96, 100)));
        assert_eq!(parse_range("00", 100), Some((100, 100)));
        assert_eq!(parse_range("11-20", 20), Some((11, 20)));
        assert_eq!(parse_range("x", 20), None);
        let broken = Table {
            id: "t".into(),
            name: "T".into(),
            source: String::new(),
            kind: TableKind::Random,
            die: Some(20),
            columns: vec!["d20".into(), "x".into()],
            rows: vec![vec!["1-10".into(), "a".into()], vec!["12-20".into(), "b".into()]],
        };
        assert!(matches!(
            broken.validate(),
            Err(TableError::Ranges { error: RangeError::OutOfOrder { next: 11, die: 20, .. }, .. })
        ));
    }

    /// Each way a table fails is its own variant, and says it in the same sentence as before.
    #[test]
    fn a_broken_table_says_what_is_wrong() {
        let table = |die: Option<u32>, rows: &[&[&str]]| Table {
            id: "t".into(),
            name: "T".into(),
            source: String::new(),
            kind: TableKind::Random,
            die,
            columns: vec!["d20".into(), "x".into()],
            rows: rows.iter().map(|row| row.iter().map(|&cell| cell.to_owned()).collect()).collect(),
        };
        let said = |table: &Table| table.validate().map_err(|e| e.to_string());
        assert_eq!(said(&table(Some(20), &[])), Err("t: a table needs columns and rows".to_owned()));
        assert_eq!(
            said(&table(Some(20), &[&["1-20"]])),
            Err("t: the row [\"1-20\"] has 1 cells for 2 columns".to_owned())
        );
        assert_eq!(said(&table(None, &[&["1-20", "a"]])), Err("t: a die table needs its die".to_owned()));
        assert_eq!(
            table(Some(20), &[&["1-x", "a"]]).validate(),
            Err(TableError::Ranges { id: "t".into(), error: RangeError::NotARange { text: "1-x".into(), die: 20 } })
        );
        assert_eq!(
            said(&table(Some(20), &[&["1-x", "a"]])),
            Err("t: \"1-x\" is not a result or range of a d20, such as 5 or 11-20".to_owned())
        );
        assert_eq!(
            said(&table(Some(20), &[&["1-10", "a"], &["12-20", "b"]])),
            Err("t: the row \"12-20\" should start at 11: rows run from 1 to 20 in order".to_owned())
        );
        assert_eq!(check_ranges(["1-10"], 20), Err(RangeError::StopsShort { last: 10, die: 20 }));
        assert_eq!(
            said(&table(Some(20), &[&["1-10", "a"]])),
            Err("t: the rows stop at 10: they must reach 20".to_owned())
        );
    }

    /// DMG: eight orcs (+5) against a fighter with AC 19 need 14s; one in three hits: 2 hits.
    #[test]
    fn the_orc_mob_hits_twice() {
        let tables = all().expect("valid");
        assert_eq!(mob_hits(&tables, 5, 19, 8), Some((14, 3, 2)));
        assert_eq!(mob_hits(&tables, 10, 5, 4), Some((-5, 1, 4)));
        assert_eq!(mob_hits(&tables, 0, 25, 40), Some((25, 0, 0)));
    }

    #[test]
    fn rolling_on_a_table_replays_by_seed() {
        let tables = all().expect("valid");
        let madness = find(&tables, "Short-Term Madness").expect("found by name");
        let roll = |seed| madness.roll(&mut SeededDice::new(seed)).expect("rollable");
        assert_eq!(roll(4), roll(4));
        assert!((1..=100).contains(&roll(4).result));
        assert_eq!(roll(4).row.len(), 2);
        assert!(find(&tables, "poisons").expect("found").roll(&mut SeededDice::new(1)).is_err(), "a reference table");
    }
}
