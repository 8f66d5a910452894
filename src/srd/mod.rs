//! The System Reference Document 5.1's monsters and spells (by Wizards of the Coast, CC-BY-4.0),
//! from 5e-bits' 5e-database (MIT), as the project's own assets: `assets/srd/monsters.ron` and
//! `assets/srd/spells.ron`, written by `scripts/srd.py` and built into the binary. Each is read
//! the first time it is asked for, never at start-up, and checked like a scenario: a damaged
//! asset is an error in words, not a panic.

pub mod schema;

use std::collections::BTreeSet;
use std::sync::OnceLock;

pub use schema::{Area, AreaShape, Bestiary, Monster, Spell, Spellbook};

use crate::rules::ability::Abilities;
use crate::rules::creature::{Attack, ExtraDamage};
use crate::rules::economy::Action;
use crate::rules::health::DamageType;

const MONSTERS_RON: &str = include_str!("../../assets/srd/monsters.ron");
const SPELLS_RON: &str = include_str!("../../assets/srd/spells.ron");

/// The bestiary, read on first use; or why its asset can't be read.
pub fn bestiary() -> Result<&'static Bestiary, &'static str> {
    static BESTIARY: OnceLock<Result<Bestiary, String>> = OnceLock::new();
    BESTIARY.get_or_init(read_bestiary).as_ref().map_err(String::as_str)
}

/// The spells, read on first use; or why their asset can't be read.
pub fn spellbook() -> Result<&'static Spellbook, &'static str> {
    static SPELLS: OnceLock<Result<Spellbook, String>> = OnceLock::new();
    SPELLS.get_or_init(read_spellbook).as_ref().map_err(String::as_str)
}

/// Reads the bestiary's asset afresh (what its first use costs: `benches/bestiary.rs`).
pub fn read_bestiary() -> Result<Bestiary, String> {
    parse(MONSTERS_RON, "assets/srd/monsters.ron")
}

/// Reads the spells' asset afresh.
pub fn read_spellbook() -> Result<Spellbook, String> {
    parse(SPELLS_RON, "assets/srd/spells.ron")
}

/// Reads an asset, or says where and why it is damaged.
fn parse<T: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<T, String> {
    ron::from_str(text).map_err(|e| {
        format!(
            "{file}:{}:{}: the SRD asset is damaged ({}); run scripts/srd.py again",
            e.span.start.line, e.span.start.col, e.code
        )
    })
}

/// How a name is looked up: lowercase, words joined by `-` ("Adult Red Dragon" and
/// "adult red dragon" are `adult-red-dragon`).
pub fn index_of(name: &str) -> String {
    name.trim()
        .to_lowercase()
        .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

impl Bestiary {
    /// The monster with this index or name.
    pub fn monster(&self, name: &str) -> Option<&Monster> {
        let index = index_of(name);
        self.monsters.binary_search_by(|m| m.index.as_str().cmp(&index)).ok().map(|i| &self.monsters[i])
    }

    /// The monsters whose index is nearest `name`'s, for "did you mean …?" (at most three).
    pub fn nearest(&self, name: &str) -> Vec<&str> {
        nearest(&index_of(name), self.monsters.iter().map(|m| m.index.as_str()))
    }

    /// The monsters whose name, type or challenge rating has every word of `query` (a search
    /// box's: "dragon red", "undead 1/4"), in the bestiary's order.
    pub fn search<'a>(&'a self, query: &str) -> impl Iterator<Item = &'a Monster> + 'a {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        self.monsters.iter().filter(move |m| {
            let haystack = format!("{} {} cr {}", m.name.to_lowercase(), m.kind.to_lowercase(), m.cr);
            words.iter().all(|w| haystack.contains(w.as_str()) || *w == m.cr)
        })
    }
}

impl Spellbook {
    /// The spell with this index or name.
    pub fn spell(&self, name: &str) -> Option<&Spell> {
        let index = index_of(name);
        self.spells.binary_search_by(|s| s.index.as_str().cmp(&index)).ok().map(|i| &self.spells[i])
    }

    /// The spells whose index is nearest `name`'s (at most three).
    pub fn nearest(&self, name: &str) -> Vec<&str> {
        nearest(&index_of(name), self.spells.iter().map(|s| s.index.as_str()))
    }
}

/// The longest name looked for among the nearest: no SRD name is half as long, and a longer one
/// (from a damaged file) would cost its length times every name's.
const MAX_NAME_CHARS: usize = 64;

/// The (at most three) `names` nearest `wanted` by edit distance, within a third of its length
/// (or that start with it), nearest first; none for a name longer than any could be.
fn nearest<'a>(wanted: &str, names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    if wanted.chars().count() > MAX_NAME_CHARS {
        return Vec::new();
    }
    let most = wanted.chars().count().div_ceil(3).max(1);
    let mut scored: Vec<(usize, &str)> = names
        .filter_map(|name| {
            let distance = edit_distance(wanted, name);
            (distance <= most || (wanted.len() >= 3 && name.starts_with(wanted))).then_some((distance, name))
        })
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, name)| name).collect()
}

/// The edit distance between two short names, a swap of two letters side by side counting as
/// one edit ("orge" is one from "ogre"; optimal string alignment). Both are bounded: a
/// scenario's name is at most a few dozen characters (`scenario::limits`).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// An ability score's modifier (PHB "Ability Scores and Modifiers": (score − 10) / 2, rounded
/// down).
pub fn modifier(score: u8) -> i8 {
    ((i16::from(score) - 10).div_euclid(2)) as i8
}

impl Monster {
    /// Its six modifiers.
    pub fn abilities(&self) -> Abilities {
        let s = self.scores;
        Abilities {
            str: modifier(s.str),
            dex: modifier(s.dex),
            con: modifier(s.con),
            int: modifier(s.int),
            wis: modifier(s.wis),
            cha: modifier(s.cha),
        }
    }

    /// Its attacks as the rules make them (a thrown weapon's ranged use is its own attack).
    pub fn rule_attacks(&self) -> Vec<Attack> {
        self.attacks
            .iter()
            .map(|a| Attack {
                name: a.name.clone(),
                bonus: a.bonus,
                damage: a.damage.clone(),
                damage_type: a.damage_type.clone(),
                range: a.range,
                long_range: a.long_range,
                kind: Some(a.kind),
                min_range: None,
                indirect: false,
                objects_only: false,
                extra_damage: a
                    .extra
                    .iter()
                    .map(|d| ExtraDamage { dice: d.dice.clone(), damage_type: d.damage_type.clone() })
                    .collect(),
            })
            .collect()
    }

    /// Attacks its Attack action makes: Multiattack's count where every attack it names is one
    /// of its attacks (a dragon's Frightful Presence besides is the DM's), else one.
    pub fn attacks_per_action(&self) -> u8 {
        let Some(multi) = &self.multiattack else { return 1 };
        let known = |name: &str| self.attacks.iter().any(|a| a.name.eq_ignore_ascii_case(name));
        if multi.attacks.is_empty() || !multi.attacks.iter().all(|(name, _)| known(name)) {
            return 1;
        }
        multi.attacks.iter().map(|(_, n)| *n).sum::<u8>().max(1)
    }

    /// The actions a trait lets it take as a bonus action (SRD goblin "Nimble Escape": Disengage
    /// or Hide; "Cunning Action": Dash, Disengage or Hide).
    pub fn bonus_actions(&self) -> Vec<Action> {
        let granted: Vec<Action> = self
            .traits
            .iter()
            .flat_map(|t| match t.name.as_str() {
                "Nimble Escape" => vec![Action::Disengage, Action::Hide],
                "Cunning Action" => vec![Action::Dash, Action::Disengage, Action::Hide],
                _ => Vec::new(),
            })
            .collect();
        Action::ALL.into_iter().filter(|a| granted.contains(a)).collect()
    }

    /// Whether it has a trait named so ("Sunlight Sensitivity", "Pack Tactics").
    pub fn has_trait(&self, name: &str) -> bool {
        self.traits.iter().any(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// Its damage defences as the rules' types (the lists hold only types; what they can't say
    /// is in `defense_notes`).
    pub fn damage_types(list: &[String]) -> BTreeSet<DamageType> {
        list.iter().filter_map(|t| DamageType::parse(t)).collect()
    }

    /// Its challenge rating as a number (1/8 = 0.125).
    pub fn challenge(&self) -> f64 {
        match self.cr.split_once('/') {
            Some((n, d)) => n.parse::<f64>().unwrap_or(0.0) / d.parse::<f64>().unwrap_or(1.0),
            None => self.cr.parse().unwrap_or(0.0),
        }
    }
}

#[cfg(test)]
mod tests;
