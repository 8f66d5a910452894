//! battlemap: a D&D 5e tactical battle map. The rules of DMG chapter 8 and the PHB grid variant
//! live in [`rules`] (plain Rust), scenario files in [`scenario`], the headless command line in
//! [`cli`], the egui panels in [`ui`] and the Bevy application in [`app`]; the SRD 5.1's
//! monsters and spells in [`srd`]; [`files`] writes files
//! all or nothing; [`pictures`] reads the images scenarios name, within limits.

pub mod app;
pub mod cli;
pub mod files;
pub mod pictures;
pub mod rules;
pub mod scenario;
pub mod srd;
pub mod ui;
