//! Scenario files: RON parsed into raw structs, then validated into a [`Scenario`].
//!
//! The format is documented in `docs/scenario-format.md`. Errors carry `file:line:column` and a
//! plain sentence; nothing here panics on user input and nothing here imports Bevy.

pub mod edit;
mod error;
mod limits;
mod locate;
pub mod monsters;
mod raw;
mod validate;
mod write;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use error::{ScenarioError, ScenarioErrors};
pub use raw::{DamageMode, DiagonalRule, RuleOptions};
pub use validate::effect_problems;

use crate::rules::chase::{ChaseRules, Entrant, Role, TableSource};
use crate::rules::conditions::Conditions;
use crate::rules::creature::{Abilities, Ability, Attack, Direction, Sheet, ShieldSide, Side, Skill};
use crate::rules::economy::TurnOptions;
use crate::rules::facing::ArcLayout;
use crate::rules::fight::{Field, FightRules, Fighter};
use crate::rules::health::{DeathSaves, Defenses, Health};
use crate::rules::light::{LightCache, LightLevel, LightSource};
use crate::rules::movement::Mover;
use crate::rules::objects::{Durability, Substance};
use crate::rules::siege::{Siege, holds_creatures};
use crate::rules::{Cell, Footprint, Grid, Size, TerrainMap};

/// The largest scenario file read, in bytes: larger files are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The largest map side, in cells, that a scenario may have.
pub const MAX_MAP_SIDE: usize = 500;

/// The scenario compiled into the binary, opened when no file is given.
pub const DEFAULT_SCENARIO: &str = include_str!("../../scenes/tavern_brawl.ron");
pub const DEFAULT_SCENARIO_NAME: &str = "scenes/tavern_brawl.ron (built in)";

/// A validated scenario: everything on the map when play starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The `//` comment lines above `Scenario(` in the file, each the text after its `//`; the
    /// canonical writer ([`Scenario::to_ron`]) puts them back. Other comments are not kept.
    pub header: Vec<String>,
    pub name: String,
    pub grid: Grid,
    pub rules: RuleOptions,
    pub map: TerrainMap,
    /// The character that stands for each terrain of `map.palette()`, index by index: the default
    /// legend's (with the file's entries for those characters in their places), then the file's
    /// new characters in the file's order.
    pub glyphs: Vec<char>,
    pub tokens: Vec<Token>,
    pub chase: Option<ChaseSetup>,
    /// A map image under the grid, as DMs use maps drawn elsewhere.
    pub background: Option<Background>,
    /// The scene's own light where no light reaches (a dungeon is dark, a tavern at night dim).
    pub light: LightLevel,
    /// Lights fixed to cells of the map (a sconce, a brazier), each with its light.
    pub lights: Vec<(Cell, LightSource)>,
    /// The scene's light as last computed ([`Scenario::field`] computes it once per change of the
    /// lights); no part of the scene's meaning.
    pub light_cache: LightCache,
}

/// A map image under the grid (`background: (image: "maps/harrowgate.png", cell_px: 70,
/// offset: (x, y))`): the file relative to the scenario's, how many of its pixels a cell spans,
/// and the image pixel where the map's north-west corner falls.
#[derive(Clone, Debug, PartialEq)]
pub struct Background {
    pub image: String,
    pub cell_px: f32,
    pub offset: (f32, f32),
}

/// The pixels per cell a map image may have.
pub const CELL_PX: std::ops::RangeInclusive<f32> = 8.0..=1024.0;
/// How far from its corner a map image's grid may start, in its pixels.
pub const MAX_OFFSET_PX: f32 = 100_000.0;
/// The longest image path a scenario may give.
pub const MAX_IMAGE_PATH: usize = 512;

/// The icon an object shows (siege equipment shows its kind's): the pictures of the icon atlas
/// (`assets/icons/icons.png`, game-icons.net, CC BY 3.0) that aren't siege weapons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ObjectIcon {
    Gate,
    WallSection,
    Barrel,
    Crate,
}

/// An edge of the table, the map being a screen laid flat on it (issue 30, "Seats around the
/// table"): where a player sits, so that the cards meant for that player's creature face them.
/// The south edge is the screen's bottom, as the map is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TableEdge {
    South,
    North,
    East,
    West,
}

impl TableEdge {
    pub const ALL: [Self; 4] = [Self::South, Self::North, Self::East, Self::West];
}

/// The chase a scene can start: its rules, who flees and who pursues, and set starting places.
#[derive(Clone, Debug, PartialEq)]
pub struct ChaseSetup {
    pub name: String,
    pub rules: ChaseRules,
    /// Which table `rules.table` is, as the scene chose it.
    pub table_source: TableSource,
    pub quarry: Vec<String>,
    pub pursuers: Vec<String>,
    /// Feet along the route, for the participants the scene places itself.
    pub start: BTreeMap<String, i32>,
}

/// Whether a token is a creature or an object (a barrel, a siege engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    Creature,
    Object,
}

/// A creature or object on the map.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub id: String,
    /// The SRD stat block it was made from, as the scenario names it (`monster: "ogre"`): its
    /// fields are the stat block's unless the scenario writes them (`scenario::monsters`).
    pub monster: Option<String>,
    pub name: String,
    pub kind: TokenKind,
    pub side: Side,
    pub size: Size,
    /// The side of a Gargantuan creature's square space when larger than 4.
    pub square_side: Option<u32>,
    /// The north-west cell of its space on squares; the anchor hex on hexes.
    pub anchor: Cell,
    pub speed: u32,
    pub ac: i32,
    pub hp: i32,
    pub max_hp: i32,
    pub abilities: Abilities,
    pub facing: Option<Direction>,
    pub shield: Option<ShieldSide>,
    pub player_character: bool,
    /// The edge of the table its player sits at (creatures only).
    pub seat: Option<TableEdge>,
    pub skills: BTreeMap<Skill, i8>,
    pub saves: BTreeMap<Ability, i8>,
    pub tracker: bool,
    pub attacks: Vec<Attack>,
    pub inspiration: bool,
    pub exhaustion: u8,
    pub conditions: Conditions,
    pub defenses: Defenses,
    /// A custom arc layout (DMG "Optional Rule: Facing": an ochre jelly all front, a hydra three
    /// front and one rear).
    pub arcs: ArcLayout,
    pub temp_hp: i32,
    /// Makes death saving throws at 0 hit points: player characters, and any creature the
    /// scenario says.
    pub makes_death_saves: bool,
    /// The death saves so far, for a creature that starts dying.
    pub death_saves: DeathSaves,
    /// Deals average damage (`None`: as the scene's `monster_damage` rule says for monsters).
    pub average_damage: Option<bool>,
    /// Attacks per Attack action, and the actions it may take as a bonus action.
    pub turn: TurnOptions,
    /// Hidden from the players when the scene opens: not drawn in the players' view, and its
    /// initiative entry hidden.
    pub hidden: bool,
    /// Feet above the ground (a wall walk): attacks from higher up come from above.
    pub elevation: u32,
    /// A siege weapon's kind, readiness and the square a cauldron pours on.
    pub siege: Option<Siege>,
    /// Darkvision's range in feet (0: none).
    pub darkvision: u32,
    /// The special traits the rules apply (Sunlight Sensitivity, Pack Tactics).
    pub traits: std::collections::BTreeSet<crate::rules::creature::Trait>,
    /// Experience points: a monster's worth when defeated, a party member's own (DMG
    /// "Experience Points").
    pub xp: Option<u32>,
    /// The conditions it can't be given (a stat block's "Condition Immunities").
    pub condition_immunities: std::collections::BTreeSet<crate::rules::conditions::Condition>,
    /// The light it carries or sheds (a torch-bearer, a brazier).
    pub light: Option<LightSource>,
    /// A picture for the token, relative to the scenario file (a creature's portrait).
    pub image: Option<String>,
    /// An object's icon.
    pub icon: Option<ObjectIcon>,
    /// Effects that last on a creature (`rules::effects`), as the scene opens.
    pub effects: Vec<crate::rules::effects::Effect>,
    /// What an object is made of, when its file says (the table its AC may come from).
    pub substance: Option<Substance>,
    /// Whether an object is fragile or resilient, when its file says (the table its hit points
    /// may come from).
    pub durability: Option<Durability>,
}

impl Token {
    /// A creature with plain statistics to fill in: a Medium enemy, speed 30, AC 10, 10 hit
    /// points, every modifier +0, no attack.
    pub fn new_creature(id: &str, name: &str, anchor: Cell) -> Self {
        Token {
            id: id.to_owned(),
            monster: None,
            name: name.to_owned(),
            kind: TokenKind::Creature,
            side: Side::Enemy,
            size: Size::Medium,
            square_side: None,
            anchor,
            speed: 30,
            ac: 10,
            hp: 10,
            max_hp: 10,
            abilities: Abilities::default(),
            facing: None,
            shield: None,
            player_character: false,
            seat: None,
            skills: Default::default(),
            saves: Default::default(),
            tracker: false,
            attacks: Vec::new(),
            inspiration: false,
            exhaustion: 0,
            conditions: Default::default(),
            defenses: Defenses::default(),
            arcs: Default::default(),
            temp_hp: 0,
            makes_death_saves: false,
            death_saves: Default::default(),
            average_damage: None,
            turn: TurnOptions { attacks_per_action: 1, bonus_actions: Vec::new() },
            hidden: false,
            elevation: 0,
            darkvision: 0,
            traits: Default::default(),
            xp: None,
            condition_immunities: Default::default(),
            light: None,
            siege: None,
            substance: None,
            durability: None,
            image: None,
            icon: None,
            effects: Vec::new(),
        }
    }

    pub fn footprint(&self, grid: Grid) -> Footprint {
        Footprint::of(grid, self.size, self.square_side)
    }

    /// What the rules beyond the map read of it.
    pub fn sheet(&self) -> Sheet {
        Sheet {
            name: self.name.clone(),
            speed: self.speed,
            ac: self.ac,
            hp: self.hp,
            abilities: self.abilities,
            skills: self.skills.clone(),
            saves: self.saves.clone(),
            tracker: self.tracker,
            attacks: self.attacks.clone(),
            inspiration: self.inspiration,
            exhaustion: self.exhaustion,
            turn: self.turn.clone(),
            darkvision: self.darkvision,
            traits: self.traits.clone(),
            condition_immunities: self.condition_immunities.clone(),
            light: self.light,
            effects: Default::default(),
        }
    }

    /// The cells of the token's space.
    pub fn cells(&self, grid: Grid) -> Vec<Cell> {
        self.footprint(grid).at(self.anchor).collect()
    }

    /// Its hit points as the scenario gives them (dead at exhaustion 6).
    pub fn health(&self) -> Health {
        let mut health = Health::new(self.hp, self.max_hp, self.makes_death_saves, self.death_saves);
        health.give_temp_hp(self.temp_hp);
        crate::rules::fight::set_exhaustion(&mut health, self.exhaustion);
        health
    }

    /// Whether it deals average damage under the scene's rules: as it says, else monsters (not
    /// player characters) when the scene's `monster_damage` is `Average`.
    pub fn deals_average_damage(&self, rules: RuleOptions) -> bool {
        self.average_damage.unwrap_or(!self.player_character && rules.monster_damage == DamageMode::Average)
    }
}

impl Scenario {
    /// Parses and validates scenario text; `file` names it in error messages. A UTF-8 byte-order
    /// mark at the start is skipped.
    pub fn from_ron(file: &str, text: &str) -> Result<Self, ScenarioErrors> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let raw = raw::parse(file, text)?;
        validate::validate(file, text, raw)
    }

    /// The pictures the scenario names that won't show (missing, not an image, too large), each
    /// a warning at its place in `text`, the file at `file`: the scene plays without them.
    pub fn picture_warnings(&self, file: &Path, text: &str) -> Vec<ScenarioError> {
        let locations = locate::Locations::of(text.strip_prefix('\u{feff}').unwrap_or(text));
        let name = file.display().to_string();
        let (mut creatures, mut objects) = (0, 0);
        let mut named = Vec::new();
        for token in &self.tokens {
            let counter = if token.kind == TokenKind::Creature { &mut creatures } else { &mut objects };
            let list = if token.kind == TokenKind::Creature { "creatures" } else { "objects" };
            if let Some(image) = &token.image {
                named.push((format!("{list}[{counter}].image"), image.as_str()));
            }
            *counter += 1;
        }
        if let Some(background) = &self.background {
            named.push(("background.image".to_owned(), background.image.as_str()));
        }
        // Each file is read once, however many tokens name it.
        let mut probed: std::collections::HashMap<PathBuf, Option<crate::pictures::PictureError>> = Default::default();
        named
            .into_iter()
            .filter_map(|(path, image)| {
                let picture = crate::pictures::resolve(Some(file), image);
                let error = probed
                    .entry(picture)
                    .or_insert_with_key(|picture| crate::pictures::probe(picture).err())
                    .clone()?;
                Some(ScenarioError::at(
                    &name,
                    locations.nearest(&path),
                    format!("warning: {error}; the scene plays without it"),
                ))
            })
            .collect()
    }

    /// Reads, parses and validates a scenario file, reading at most [`MAX_FILE_BYTES`] (a larger
    /// file, or an endless one such as `/dev/zero` or a pipe, is refused).
    pub fn load(path: &Path) -> Result<Self, ScenarioErrors> {
        Self::load_with_text(path).map(|(scenario, _)| scenario)
    }

    /// As [`Scenario::load`], with the text as read (for `battlemap fmt`, which compares it with
    /// the canonical text).
    pub fn load_with_text(path: &Path) -> Result<(Self, String), ScenarioErrors> {
        use std::io::Read;
        let file = path.display().to_string();
        let fail = |message: String| ScenarioErrors::one(ScenarioError::whole_file(&file, message));
        // Looked at before it is opened: opening a FIFO with no writer waits forever.
        let kind = std::fs::metadata(path).map_err(|e| fail(format!("cannot read the file: {e}")))?.file_type();
        if !kind.is_file() {
            let what = if kind.is_dir() { "a directory" } else { "not a regular file (a pipe, a socket or a device)" };
            return Err(fail(format!("this is {what}: name a scenario file")));
        }
        let reader = std::fs::File::open(path).map_err(|e| fail(format!("cannot read the file: {e}")))?;
        let mut bytes = Vec::new();
        reader
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| fail(format!("cannot read the file: {e}")))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(fail(format!("the file is larger than {MAX_FILE_BYTES} bytes, the most a scenario may be")));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            // The text before the first bad byte is valid, so its lines and characters place it.
            let before = std::str::from_utf8(&e.as_bytes()[..e.utf8_error().valid_up_to()]).unwrap_or_default();
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
            let message = "the file is not UTF-8 text: this byte isn't UTF-8 (save the file as UTF-8)";
            ScenarioErrors::one(ScenarioError::at(&file, Some((line, column)), message))
        })?;
        let scenario = Self::from_ron(&file, &text)?;
        Ok((scenario, text))
    }

    /// The built-in default scenario.
    pub fn built_in() -> Self {
        Self::from_ron(DEFAULT_SCENARIO_NAME, DEFAULT_SCENARIO)
            .expect("the built-in scenario is valid (a test loads it)")
    }

    pub fn token(&self, id: &str) -> Option<&Token> {
        self.tokens.iter().find(|t| t.id == id)
    }

    /// The entrants of a chase between these creatures. Participants without a place in `start`
    /// are placed from the map: each quarry creature at 0 ft and each pursuer behind it by its
    /// range to the nearest quarry creature (DMG "Beginning a Chase": "determine the starting
    /// distance between the quarry and the pursuers").
    pub fn chase_entrants(
        &self,
        quarry: &[String],
        pursuers: &[String],
        start: &BTreeMap<String, i32>,
    ) -> Vec<Entrant> {
        let fighters = self.fighters();
        let field = self.field(&fighters);
        let quarry_fighters: Vec<&Fighter> = quarry.iter().filter_map(|id| field.fighter(id)).collect();
        let nearest = |token: &Token| -> i32 {
            let Some(me) = field.fighter(&token.id) else { return 0 };
            let feet = quarry_fighters.iter().map(|q| field.feet_between(me, q)).min();
            feet.map_or(0, |f| i32::try_from(f).unwrap_or(i32::MAX))
        };
        let roles = quarry.iter().map(|id| (id, Role::Quarry)).chain(pursuers.iter().map(|id| (id, Role::Pursuer)));
        roles
            .filter_map(|(id, role)| {
                let token = self.token(id)?;
                let position = start.get(id).copied().unwrap_or(match role {
                    Role::Quarry => 0,
                    Role::Pursuer => -nearest(token),
                });
                let conditions = token.conditions.clone();
                Some(Entrant { id: id.clone(), sheet: token.sheet(), role, position, conditions })
            })
            .collect()
    }

    /// The optional rules of a fight in this scene.
    pub fn fight_rules(&self) -> FightRules {
        FightRules { diagonals: self.rules.diagonals, flanking: self.rules.flanking, facing: self.rules.facing }
    }

    /// Every token as the fight rules read it, where the scenario places it.
    pub fn fighters(&self) -> Vec<Fighter> {
        self.tokens.iter().map(|t| t.fighter(self)).collect()
    }

    /// The rules' view of this board with `fighters` on it: the scenario's own
    /// ([`Scenario::fighters`]) for the command line, the live ones for the map. Every question
    /// of sight, cover, distance, movement, areas, flanking and attacks asks this one view.
    pub fn field<'a>(&'a self, fighters: &'a [Fighter]) -> Field<'a> {
        Field::new(&self.map, fighters, self.fight_rules()).in_light_kept(self.light, &self.lights, &self.light_cache)
    }
}

impl Token {
    /// Whether creatures stand inside its space (a siege tower).
    pub fn holds_creatures(&self) -> bool {
        self.siege.is_some_and(|s| holds_creatures(s.kind))
    }

    /// This token in a fight, as the scenario places it: squeezing if only a smaller space fits
    /// there.
    pub fn fighter(&self, scenario: &Scenario) -> Fighter {
        let (effects, conditions) = self.lasting_effects();
        let mut sheet = self.sheet();
        crate::rules::effects::hampered(&mut sheet, &effects);
        let mut fighter = Fighter {
            id: self.id.clone(),
            sheet,
            anchor: self.anchor,
            cells: self.cells(scenario.grid),
            side: self.side,
            size: self.size,
            square_side: self.square_side,
            is_object: self.kind == TokenKind::Object,
            conditions,
            facing: self.facing,
            arcs: self.arcs,
            shield: self.shield,
            squeezing: false,
            dodging: false,
            helped_against: None,
            health: self.health(),
            defenses: self.defenses.clone(),
            hidden: None,
            average_damage: self.deals_average_damage(scenario.rules),
            player_character: self.player_character,
            elevation: self.elevation,
            siege: self.siege,
        };
        fighter.squeezing = fighter.squeezes_on(&scenario.map);
        fighter
    }

    /// Its effects as the scene opens (each valid: `check` refused the file otherwise; one a
    /// creature can't take is left out), and its conditions with theirs. Given before the fight:
    /// each timed one's first round begins at its clock's first turn.
    pub fn lasting_effects(&self) -> (crate::rules::effects::Effects, Conditions) {
        let mut effects = crate::rules::effects::Effects::default();
        for effect in &self.effects {
            let _ = effects.give_before_fight(effect.clone());
        }
        let mut conditions = self.conditions.clone();
        effects.update_conditions_but(&mut conditions, &self.condition_immunities);
        (effects, conditions)
    }

    /// This creature as the effects' tracker sees it.
    pub fn subject(&self) -> crate::rules::effects::tracker::Subject {
        let (effects, conditions) = self.lasting_effects();
        crate::rules::effects::tracker::Subject {
            id: self.id.clone(),
            name: self.name.clone(),
            sheet: self.sheet(),
            effects,
            health: self.health(),
            defenses: self.defenses.clone(),
            conditions,
            exhaustion: self.exhaustion,
            hidden: self.hidden,
        }
    }

    /// This token as the creature that moves.
    pub fn mover(&self) -> Mover {
        Mover { size: self.size, square_side: self.square_side, side: self.side, crawling: false }
    }
}
