//! The SRD assets' costs: reading the bestiary and the spells (what their first use costs; the
//! app reads neither at start-up), and the editor's bestiary search per keystroke as a DM types
//! "adult red dragon" and "ogre" (the matching monsters, at most the 31 the panel looks at).
//! `cargo bench --bench bestiary`; the figures go in docs/performance.md.

// Not every bench uses every shared helper (the walled map is the rules' benches').
#[allow(dead_code)]
mod common;

use std::hint::black_box;
use std::time::Duration;

use battlemap::srd::{bestiary, read_bestiary, read_spellbook};

fn main() {
    let read = common::median_time(Duration::from_secs(3), 10, || read_bestiary().expect("reads").monsters.len());
    let spells = common::median_time(Duration::from_secs(3), 10, || read_spellbook().expect("reads").spells.len());
    println!("read the bestiary (334 monsters): {:.1} ms", read.as_secs_f64() * 1e3);
    println!("read the spells (319 spells): {:.1} ms", spells.as_secs_f64() * 1e3);
    let bestiary = bestiary().expect("reads");
    let mut worst = Duration::ZERO;
    for typed in ["adult red dragon", "ogre", "undead 1/4"] {
        for end in 1..=typed.len() {
            let query = &typed[..end];
            let time = common::median_time(Duration::from_millis(200), 20, || {
                black_box(bestiary.search(black_box(query)).take(31).count())
            });
            worst = worst.max(time);
        }
    }
    println!("bestiary search, the slowest keystroke: {:.3} ms", worst.as_secs_f64() * 1e3);
}
