//! A fight on the grid: the creatures as the fight rules read them, who can see whom, and what
//! damage and healing do to hit points and conditions. The attack adjudicator, attack rolls and
//! saving throws against areas live in the submodules.
//!
//! DMG chapter 8 "Using Miniatures" (flanking, facing, cover), "Tracking Monster Hit Points",
//! "Using and Tracking Conditions", "Monsters and Critical Hits" (002_ce573f1e51986339.txt); PHB
//! "Making an Attack" and "Squeezing into a Smaller Space" (004_ebe0798b5689cc3b.txt).

pub mod actions;
pub mod adjudicate;
pub mod opportunity;
pub mod resolve;
pub mod saves;

use serde::{Deserialize, Serialize};

use super::advantage::Sources;
use super::area::Volume;
use super::conditions::{Condition, Conditions, DEATH_BY_EXHAUSTION, Rolling, exhausted_max_hp, speed, standing_cost};
use super::creature::{Direction, Sheet, ShieldSide, Side, Trait};
use super::distance::DiagonalParity;
use super::distance::{DiagonalRule, Spot, range_between};
use super::facing::{Arc, ArcLayout, Facer, arc_of_cell, arc_of_space};
use super::health::{DamageTaken, DamageType, DeathSave, Defenses, Health, Life};
use super::lattice::Segment;
use super::light::{self, Lamp, LightCache, LightLevel, LightSource, SceneLight};
use super::modifiers::D20;
use super::movement::{self, MoveError, Mover, Occupant, Path, Reach};
use super::siege::{Siege, holds_creatures, shelter};
use super::sight::{Cover, CoverContext, From, SightBoard, line_of_sight, unseen_flags};
use super::{Cell, Grid, Size, TerrainMap};

/// Within this many feet (by [`Field::feet_between`]), creatures are adjacent: a prone target
/// gives advantage, a paralyzed or unconscious one takes critical hits (PHB appendix A), and
/// allies flank (conventions, "Flanking").
pub const CLOSE_FEET: u32 = 5;

/// The optional rules and settings a fight is played with (a scene's `rules`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FightRules {
    pub diagonals: DiagonalRule,
    pub flanking: bool,
    pub facing: bool,
}

/// Whether monsters roll their damage or deal their average (DMG "Monsters and Critical Hits").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DamageMode {
    #[default]
    Rolled,
    /// The average, as stat blocks print it; a critical hit adds every damage die rolled.
    Average,
}

/// A creature or object in a fight: its sheet, where it is, and its state now.
#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    pub id: String,
    /// Name, AC, abilities, saves, attacks and exhaustion.
    pub sheet: Sheet,
    /// The anchor of its space (the north-west square, or the anchor hex) and the space's cells.
    pub anchor: Cell,
    pub cells: Vec<Cell>,
    pub side: Side,
    pub size: Size,
    /// The side of a larger Gargantuan creature's square space, as its scenario gives it.
    pub square_side: Option<u32>,
    pub is_object: bool,
    pub conditions: Conditions,
    pub facing: Option<Direction>,
    pub arcs: ArcLayout,
    pub shield: Option<ShieldSide>,
    /// In a space only one size smaller fits (PHB "Squeezing into a Smaller Space").
    pub squeezing: bool,
    /// Took the Dodge action (PHB "Dodge"), until the start of its next turn.
    pub dodging: bool,
    /// An ally's Help: its next attack roll against this creature has advantage (PHB "Help").
    pub helped_against: Option<String>,
    pub health: Health,
    pub defenses: Defenses,
    /// Deals average damage instead of rolling.
    pub average_damage: bool,
    /// A player's creature (the scene's `pc: true`): it sees for the party whatever its side.
    pub player_character: bool,
    /// Hidden (PHB "Hide"), with the Dexterity (Stealth) total it hid with: hostile creatures
    /// don't see it until they find it or it gives itself away.
    pub hidden: Option<i32>,
    /// Feet above the ground (on a wall walk, a tower's top): a higher attacker attacks from
    /// above. Ranges stay measured on the map.
    pub elevation: u32,
    /// A siege weapon's kind and state; `None` for creatures and other objects.
    pub siege: Option<Siege>,
}

impl Fighter {
    pub fn name(&self) -> &str {
        &self.sheet.name
    }

    /// Whether it sees for the party in the fog of war: a creature of the `Party` side, or one the
    /// DM marks as a player's (a player character on another side: a charmed or disguised hero).
    pub fn sees_for_party(&self) -> bool {
        !self.is_object && (self.side == Side::Party || self.player_character)
    }

    /// Where it is, for ranges: its space and its height.
    pub fn spot(&self) -> Spot<'_> {
        Spot { cells: &self.cells, elevation: self.elevation }
    }

    /// It as the creature that moves: a prone creature crawls (PHB "Being Prone").
    pub fn mover(&self) -> Mover {
        Mover {
            size: self.size,
            square_side: self.square_side,
            side: self.side,
            crawling: self.conditions.has(Condition::Prone),
        }
    }

    /// Whether a creature placed where it stands on `map` is squeezing: only the space of a
    /// creature one size smaller fits there (PHB "Squeezing into a Smaller Space"). Objects don't
    /// squeeze. The scenario's tokens and the app's both take their `squeezing` from it.
    pub fn squeezes_on(&self, map: &TerrainMap) -> bool {
        !self.is_object && movement::fit_at(map, &self.mover(), self.anchor) == Some(movement::Fit::Squeezing)
    }

    /// Its walking speed now, after its conditions and exhaustion (PHB appendix A).
    pub fn speed_now(&self) -> u32 {
        speed(self.sheet.speed, &self.conditions, self.sheet.exhaustion).feet
    }

    /// Its own state as its d20 rolls read it: conditions, exhaustion and its effects' modifiers.
    pub fn rolling(&self) -> Rolling<'_> {
        Rolling {
            who: self.name(),
            conditions: &self.conditions,
            exhaustion: self.sheet.exhaustion,
            effects: &self.sheet.effects,
        }
    }

    /// What its conditions, exhaustion and effects give its ability check `check` (Hide's
    /// Stealth, Search's Perception, initiative): [`Rolling::sources`].
    pub fn check_sources(&self, check: D20) -> Sources {
        self.rolling().sources(check)
    }

    /// Its passive Wisdom (Perception) now: its sheet's, 5 higher with advantage on its checks and
    /// 5 lower with disadvantage (PHB "Passive Checks"), so 5 lower while poisoned or exhausted,
    /// and with its effects' bonus on checks that rely on sight (sight rot's penalty).
    pub fn passive_perception(&self) -> i32 {
        self.sheet.passive_perception()
            + self.check_sources(D20::PERCEPTION).passive_bonus()
            + self.rolling().bonus(D20::PERCEPTION)
    }

    /// Able to act: not an object, not dead, not incapacitated. (A siege weapon acts through its
    /// crew: see `rules::siege`.)
    pub fn can_act(&self) -> bool {
        !self.is_object && self.health.life != Life::Dead && !self.conditions.has(Condition::Incapacitated)
    }

    /// Its arcs, when the facing rule is on and it faces somewhere.
    pub fn facer(&self, rules: FightRules) -> Option<Facer<'_>> {
        let facing = self.facing.filter(|_| rules.facing && !self.is_object)?;
        Some(Facer { cells: &self.cells, facing, layout: self.arcs })
    }

    /// Its defenses now ([`defenses_now`]).
    pub fn defenses_now(&self) -> Defenses {
        defenses_now(&self.defenses, &self.conditions)
    }

    /// Whether it keeps the Dodge action's benefit: dodging, not incapacitated, and its speed not
    /// 0 (PHB "Dodge").
    pub fn keeps_dodging(&self) -> bool {
        self.dodging
            && !self.conditions.has(Condition::Incapacitated)
            && speed(self.sheet.speed, &self.conditions, self.sheet.exhaustion).feet > 0
    }
}

/// The fight's board: terrain, every fighter, and the rules in play.
pub struct Field<'a> {
    pub map: &'a TerrainMap,
    pub fighters: &'a [Fighter],
    pub rules: FightRules,
    occupants: Vec<Occupant>,
    /// The scene's light, when it is not in bright light throughout.
    light: Option<Lighting>,
}

/// A lit field's light: the light of the lamps fixed to the map, and the scene's light with the
/// lights its fighters carry over it.
#[derive(Clone)]
struct Lighting {
    base: std::sync::Arc<SceneLight>,
    scene: std::sync::Arc<SceneLight>,
}

/// The lamps fixed to the map (on the ground).
fn fixed_lamps(fixed: &[(Cell, LightSource)]) -> Vec<Lamp> {
    fixed.iter().map(|&(cell, light)| Lamp { cells: vec![cell], elevation: 0, light }).collect()
}

/// The lights `fighters` carry (at their height).
fn carried_lamps(fighters: &[Fighter]) -> Vec<Lamp> {
    fighters
        .iter()
        .filter_map(|f| Some(Lamp { cells: f.cells.clone(), elevation: f.elevation, light: f.sheet.light? }))
        .collect()
}

impl<'a> Field<'a> {
    pub fn new(map: &'a TerrainMap, fighters: &'a [Fighter], rules: FightRules) -> Self {
        let occupants = fighters
            .iter()
            .filter(|f| !f.siege.is_some_and(|s| holds_creatures(s.kind)))
            .map(|f| Occupant {
                id: f.id.clone(),
                cells: f.cells.clone(),
                side: f.side,
                size: f.size,
                is_object: f.is_object,
            })
            .collect();
        Self { map, fighters, rules, occupants, light: None }
    }

    /// This field lit as a scene is: `ambient` where no light reaches, brightened by the `lamps`
    /// on the map and the lights its creatures and objects carry (`rules::light`). In bright
    /// light no one is hidden by darkness, and nothing is computed.
    pub fn in_light(self, ambient: LightLevel, lamps: &[(Cell, LightSource)]) -> Self {
        self.lit(ambient, lamps, None)
    }

    /// As [`Self::in_light`], the scene's light taken from `cache` when nothing it depends on
    /// changed since it was computed (`Scenario::field`: once per change of the lights, not once
    /// per question).
    pub fn in_light_kept(self, ambient: LightLevel, lamps: &[(Cell, LightSource)], cache: &LightCache) -> Self {
        self.lit(ambient, lamps, Some(cache))
    }

    fn lit(mut self, ambient: LightLevel, fixed: &[(Cell, LightSource)], cache: Option<&LightCache>) -> Self {
        // In a bright scene only a light of the sun changes anything (Sunlight Sensitivity).
        if ambient == LightLevel::Bright && !fixed.iter().any(|(_, l)| l.sunlight) {
            return self;
        }
        let (map, rule) = (self.map, self.rules.diagonals);
        let (fixed, carried) = (fixed_lamps(fixed), carried_lamps(self.fighters));
        let (base, scene) = match cache {
            Some(cache) => cache.get(map, rule, ambient, fixed, carried),
            None => {
                let base = std::sync::Arc::new(SceneLight::new(map, rule, ambient, fixed));
                let scene = std::sync::Arc::new(base.with(map, carried));
                (base, scene)
            }
        };
        self.light = Some(Lighting { base, scene });
        self
    }

    /// The same board with `fighters` on it instead (a mover further along its path): the same
    /// terrain, rules and light, the lights they carry lit again over the fixed lamps' light only
    /// if one moved.
    pub fn with_fighters<'b>(&'b self, fighters: &'b [Fighter]) -> Field<'b> {
        let mut field = Field::new(self.map, fighters, self.rules);
        field.light = self.light.as_ref().map(|lighting| {
            let carried = carried_lamps(fighters);
            let fixed = lighting.base.lamps().len();
            if lighting.scene.lamps().get(fixed..) == Some(&carried[..]) {
                lighting.clone()
            } else {
                let scene = std::sync::Arc::new(lighting.base.with(self.map, carried));
                Lighting { base: std::sync::Arc::clone(&lighting.base), scene }
            }
        });
        field
    }

    /// The light on the ground of every cell of the map (storage order), or `None` in a bright
    /// scene.
    pub fn light_levels(&self) -> Option<&[LightLevel]> {
        self.light.as_ref().map(|l| l.scene.ground())
    }

    /// Which cells are in sunlight on the ground (storage order; empty when the sun lights none):
    /// `SceneLight::sunlit`.
    pub fn sunlit_cells(&self) -> Vec<bool> {
        self.light.as_ref().map(|l| l.scene.sunlit(self.map)).unwrap_or_default()
    }

    /// The light on the ground at `cell` (bright off a lit scene's map, and everywhere in a bright
    /// scene).
    pub fn light_at(&self, cell: Cell) -> LightLevel {
        match &self.light {
            Some(lighting) if self.map.contains(cell) => lighting.scene.at(self.map, cell, 0),
            _ => LightLevel::Bright,
        }
    }

    /// `viewer`'s Wisdom (Perception) sources when it looks for `target`: its own
    /// ([`Fighter::check_sources`]), and disadvantage when `target` is in dim light as it sees it
    /// (SRD "Vision and Light": a lightly obscured area gives "disadvantage on Wisdom
    /// (Perception) checks that rely on sight"), or when `viewer` is sensitive to the sunlight it
    /// stands in ([`Self::sunlight_hampers`]). Darkness hides the target outright.
    pub fn perception_sources(&self, viewer: &Fighter, target: &Fighter) -> Sources {
        let mut sources = viewer.check_sources(D20::PERCEPTION);
        if self.light_seen(viewer, target) == LightLevel::Dim {
            sources.disadvantage(format!("{} is in dim light as {} sees it", target.name(), viewer.name()));
        }
        if let Some(why) = self.sunlight_hampers(viewer) {
            sources.disadvantage(why);
        }
        sources
    }

    /// Why `fighter`'s attack rolls and its Perception by sight have disadvantage, if it has
    /// Sunlight Sensitivity and stands in sunlight: a light of the sun reaches a cell of its
    /// space at its height (`SceneLight::in_sunlight`; SRD kobold, "Sunlight Sensitivity").
    pub fn sunlight_hampers(&self, fighter: &Fighter) -> Option<String> {
        let sensitive = fighter.sheet.traits.contains(&Trait::SunlightSensitivity);
        let lighting = self.light.as_ref().filter(|_| sensitive)?;
        let sunlit = fighter.cells.iter().any(|&cell| lighting.scene.in_sunlight(self.map, cell, fighter.elevation));
        sunlit.then(|| format!("{} is in sunlight (Sunlight Sensitivity)", fighter.name()))
    }

    /// `viewer`'s passive Wisdom (Perception) against `target` (PHB "Passive Checks": 5 lower
    /// with disadvantage, 5 higher with advantage), the light counted
    /// ([`Self::perception_sources`]), with its effects' bonus on sight checks.
    pub fn passive_perception_against(&self, viewer: &Fighter, target: &Fighter) -> i32 {
        viewer.sheet.passive_perception()
            + self.perception_sources(viewer, target).passive_bonus()
            + viewer.rolling().bonus(D20::PERCEPTION)
    }

    /// The light `viewer` sees `target` in: the best lit of the cells of its space at its height,
    /// darkvision counted within its range by the one distance (height included).
    pub fn light_seen(&self, viewer: &Fighter, target: &Fighter) -> LightLevel {
        self.light_seen_at(viewer, &target.cells, target.elevation)
    }

    /// The light `viewer` sees the cells of `space` in, `elevation` feet above the ground.
    pub fn light_seen_at(&self, viewer: &Fighter, space: &[Cell], elevation: u32) -> LightLevel {
        let Some(lighting) = &self.light else { return LightLevel::Bright };
        space
            .iter()
            .map(|&cell| {
                let level = lighting.scene.at(self.map, cell, elevation);
                let here = [cell];
                let feet =
                    range_between(self.grid(), self.rules.diagonals, viewer.spot(), Spot { cells: &here, elevation })
                        .unwrap_or(u32::MAX);
                light::perceived(level, feet, viewer.sheet.darkvision)
            })
            .max()
            .unwrap_or(LightLevel::Dark)
    }

    pub fn grid(&self) -> Grid {
        self.map.grid()
    }

    pub fn fighter(&self, id: &str) -> Option<&'a Fighter> {
        self.fighters.iter().find(|f| f.id == id)
    }

    /// Everyone but `mover` as movement sees them: the board `mover` moves on.
    pub fn others_than(&self, mover: &str) -> Vec<Occupant> {
        self.occupants.iter().filter(|o| o.id != mover).cloned().collect()
    }

    /// Every cell `mover` can put its anchor on with `budget` feet, the turn's diagonals counted
    /// from `parity` (`rules::movement::reach` on this board).
    pub fn reach(&self, mover: &Fighter, budget: u32, parity: DiagonalParity) -> Reach {
        let others = self.others_than(&mover.id);
        let board = movement::Board { map: self.map, rule: self.rules.diagonals, others: &others };
        movement::reach(&board, &mover.mover(), mover.anchor, budget, parity)
    }

    /// The cheapest path for `mover`'s anchor to `to` within `budget` feet, or why there is none
    /// (`None`: out of reach for no other reason).
    pub fn path(
        &self,
        mover: &Fighter,
        to: Cell,
        budget: u32,
        parity: DiagonalParity,
    ) -> Result<Path, Option<MoveError>> {
        let others = self.others_than(&mover.id);
        let board = movement::Board { map: self.map, rule: self.rules.diagonals, others: &others };
        let me = mover.mover();
        movement::reach(&board, &me, mover.anchor, budget, parity)
            .path(to)
            .ok_or_else(|| movement::why_not(&board, &me, mover.anchor, to, budget, parity))
    }

    /// Every fighter on another map of the same place (the terrain an attacker leans over).
    pub fn sight_board_on<'m>(&'m self, map: &'m TerrainMap) -> SightBoard<'m> {
        SightBoard { map, tokens: &self.occupants }
    }

    /// Every fighter as sight and cover see them (a siege tower left out: what is inside it is
    /// sheltered by `rules::siege::shelter`, and creatures stand in its space).
    pub fn sight_board(&self) -> SightBoard<'_> {
        SightBoard { map: self.map, tokens: &self.occupants }
    }

    /// The range in feet between two fighters: the one distance of `rules::distance::range_between`
    /// (nearest cell to nearest cell, or their difference in height if that is more).
    pub fn feet_between(&self, a: &Fighter, b: &Fighter) -> u32 {
        range_between(self.grid(), self.rules.diagonals, a.spot(), b.spot()).unwrap_or(u32::MAX)
    }

    /// Whether two fighters are adjacent: within 5 ft by [`Self::feet_between`], so never across a
    /// height of more than 5 ft.
    pub fn adjacent(&self, a: &Fighter, b: &Fighter) -> bool {
        self.feet_between(a, b) <= CLOSE_FEET
    }

    /// A clear line of sight from a corner of `viewer`'s space to a point of `target`'s, through
    /// terrain (creatures never block sight), if there is one (conventions, "Line of sight").
    pub fn line_of_sight(&self, viewer: &Fighter, target: &Fighter) -> Option<Segment> {
        line_of_sight(&self.sight_board(), &viewer.cells, &target.cells)
    }

    /// The cover `target` has against `attacker` (DMG "Cover", from the attacker's best corner),
    /// the one ruling the adjudicator, the command line's `cover` and the map's preview all give.
    /// Shooting down from higher up, an attacker sees over the low walls and parapets nearer to it
    /// than to the target: they give the target no cover (call: docs/rules.md, "Elevation"). Siege
    /// equipment can give total cover besides the walls ([`shelter`]): inside a siege tower, or
    /// under a ram's roof against an attack from above (`indirect`: a stone's high arc comes down).
    pub fn cover(&self, attacker: &Fighter, target: &Fighter, indirect: bool) -> Cover {
        let grid = self.grid();
        let leaned_over = (attacker.elevation > target.elevation).then(|| {
            let steps = |cell: Cell, space: &[Cell]| space.iter().map(|&c| grid.steps_between(c, cell)).min();
            let nearer = self.map.cells().filter(|&cell| {
                self.map.terrain(cell).is_some_and(|t| t.blocks_cover && !t.blocks_sight)
                    && steps(cell, &attacker.cells) < steps(cell, &target.cells)
            });
            self.map.leaning_over(nearer.collect::<Vec<_>>())
        });
        let board = leaned_over.as_ref().map_or_else(|| self.sight_board(), |map| self.sight_board_on(map));
        let mut cover = CoverContext::new(&board, From::Space { cells: &attacker.cells, id: Some(&attacker.id) })
            .cover(Some(&target.id), &target.cells);
        cover.sheltered = shelter(self, attacker, target, indirect);
        if cover.sheltered.is_some() {
            cover.degree = super::sight::CoverDegree::Total;
            cover.total = true;
        }
        cover
    }

    /// The cells of the map `viewer` can't see (the map's sight overlay): every cell when it can't
    /// see at all (blinded, unconscious, petrified: PHB appendix A), else those no line of sight
    /// reaches, and under the facing rule its rear arc too (DMG "Optional Rule: Facing": "It can't
    /// see into its rear arc"). Its own space is never among them.
    pub fn unseen_cells(&self, viewer: &Fighter) -> Vec<Cell> {
        let unseen = self.unseen_mask(viewer);
        self.map.cells().zip(unseen).filter(|&(_, unseen)| unseen).map(|(c, _)| c).collect()
    }

    /// [`Self::unseen_cells`] as a flag per map cell (storage order).
    fn unseen_mask(&self, viewer: &Fighter) -> Vec<bool> {
        let own = |cell: Cell| viewer.cells.contains(&cell);
        if viewer.conditions.cannot_see() {
            return self.map.cells().map(|c| !own(c)).collect();
        }
        let levels = self.light_levels();
        let within = levels.map(|levels| self.sight_reach(viewer, levels));
        let mut unseen = unseen_flags(&self.sight_board(), &viewer.cells, within);
        if let Some(levels) = levels {
            // Cells in darkness as the viewer sees them are unseen too (SRD "Vision and Light"):
            // only a dark cell can be, and only darkvision needs its distance.
            for ((cell, level), unseen) in self.map.cells().zip(levels).zip(unseen.iter_mut()) {
                if *level == LightLevel::Dark
                    && !*unseen
                    && !own(cell)
                    && self.light_seen_at(viewer, &[cell], 0) == LightLevel::Dark
                {
                    *unseen = true;
                }
            }
        }
        if let Some(facer) = viewer.facer(self.rules) {
            for (cell, unseen) in self.map.cells().zip(unseen.iter_mut()) {
                if !*unseen && arc_of_cell(self.grid(), &facer, cell) == Some(Arc::Rear) {
                    *unseen = true;
                }
            }
        }
        unseen
    }

    /// How far, in cells, the sight sweep need look for `viewer` in a lit field: past the farthest
    /// cell not in darkness and past its darkvision, everything is dark to it, unseen whatever
    /// the lines. Steps are counted from its space; a centre `n` steps away is at most `2n` cells
    /// from any corner of it, plus the space's own width, and a cell more for the corners.
    fn sight_reach(&self, viewer: &Fighter, levels: &[LightLevel]) -> u32 {
        let grid = self.grid();
        let steps = |cell: Cell| viewer.cells.iter().map(|&v| grid.steps_between(v, cell)).min().unwrap_or(0);
        let lit = self.map.cells().zip(levels).filter(|(_, l)| **l != LightLevel::Dark).map(|(c, _)| steps(c)).max();
        let far = lit.unwrap_or(0).max(viewer.sheet.darkvision / 5 + 1);
        let width = viewer
            .cells
            .iter()
            .map(|&c| viewer.cells.iter().map(|&d| grid.steps_between(c, d)).max().unwrap_or(0))
            .max();
        far.saturating_mul(2).saturating_add(width.unwrap_or(0)).saturating_add(2)
    }

    /// Every creature and object an area holds: any cell of its space in the area, and its
    /// height within the area's (docs/rules.md, "Areas of effect"). The one definition the
    /// template, saving throws, the cauldron's pour and the command line's `aoe` use.
    pub fn in_area<'v>(&'v self, area: &'v Volume) -> impl Iterator<Item = &'a Fighter> + 'v {
        self.fighters.iter().filter(move |f| area.holds(&f.cells, f.elevation))
    }

    /// Where `other` stands in `of`'s arcs, under the facing rule.
    pub fn arc_of(&self, of: &Fighter, other: &Fighter) -> Option<Arc> {
        of.facer(self.rules).and_then(|facer| arc_of_space(self.grid(), &facer, &other.cells))
    }

    /// Why `viewer` can't see `target`, or `None` if it can: blinded, unaware (unconscious or
    /// petrified), the target invisible, the target in its rear arc (DMG "Optional Rule: Facing":
    /// "It can't see into its rear arc"), or no line of sight (conventions, "Line of sight").
    pub fn unseen_because(&self, viewer: &Fighter, target: &Fighter) -> Option<Unseen> {
        if let Some(c) = viewer.conditions.blinding() {
            return Some(Unseen::ViewerIs(c));
        }
        if target.conditions.has(Condition::Invisible) {
            return Some(Unseen::Invisible);
        }
        if target.hidden.is_some() && viewer.side.is_hostile_to(target.side) {
            return Some(Unseen::Hidden);
        }
        if self.arc_of(viewer, target) == Some(Arc::Rear) {
            return Some(Unseen::RearArc);
        }
        if self.line_of_sight(viewer, target).is_none() {
            return Some(Unseen::NoLineOfSight);
        }
        if self.light_seen(viewer, target) == LightLevel::Dark {
            return Some(Unseen::InDarkness);
        }
        None
    }

    /// Per map cell (storage order): whether some creature of the party (the `Party` side) sees
    /// it, by [`Self::unseen_cells`] (terrain, facing, light and darkvision counted), or stands in
    /// it. The fog of war of the players' view. On squares, a wall's corner cell joins the two
    /// walls seen beside it (a room's corner is hidden behind its own walls, which the players
    /// see meeting there: docs/rules.md, "The fog of war").
    pub fn party_sight(&self) -> Vec<bool> {
        let mut seen = vec![false; self.map.cells().count()];
        for member in self.fighters.iter().filter(|f| f.sees_for_party()) {
            for (seen, unseen) in seen.iter_mut().zip(self.unseen_mask(member)) {
                *seen |= !unseen;
            }
        }
        if self.map.grid() == Grid::Square {
            self.show_wall_corners(&mut seen);
        }
        seen
    }

    /// Marks as seen each cell that blocks sight with a seen sight-blocking neighbour along each
    /// axis, [`WALL_CORNER_PASSES`] times over (a corner behind a hearth is two such steps in).
    fn show_wall_corners(&self, seen: &mut [bool]) {
        let blocks = |cell: Cell| self.map.terrain(cell).is_some_and(|t| t.blocks_sight);
        for _ in 0..WALL_CORNER_PASSES {
            let wall_seen = |cell: Cell| blocks(cell) && self.map.index_of(cell).is_some_and(|i| seen[i]);
            let corners: Vec<usize> = self
                .map
                .cells()
                .filter(|&cell| blocks(cell) && self.map.index_of(cell).is_some_and(|i| !seen[i]))
                .filter(|&cell| {
                    let beside = |dx: i32, dy: i32| wall_seen(cell.offset(dx, dy));
                    (beside(-1, 0) || beside(1, 0)) && (beside(0, -1) || beside(0, 1))
                })
                .filter_map(|cell| self.map.index_of(cell))
                .collect();
            if corners.is_empty() {
                break;
            }
            for i in corners {
                seen[i] = true;
            }
        }
    }

    pub fn sees(&self, viewer: &Fighter, target: &Fighter) -> bool {
        self.unseen_because(viewer, target).is_none()
    }
}

/// How far into a mass of walls [`Field::party_sight`] shows corners: a pocket behind a hearth
/// or a pillar, not the shape of the walls beyond (which would tell the players of rooms).
const WALL_CORNER_PASSES: usize = 3;

/// Why one creature can't see another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unseen {
    /// The viewer is blinded, unconscious or petrified.
    ViewerIs(Condition),
    /// The target is invisible.
    Invisible,
    /// The target is hidden from its enemies (PHB "Hide").
    Hidden,
    /// The target is in the viewer's rear arc (facing rule).
    RearArc,
    /// Every line from the viewer's corners to the target's space is blocked by something that
    /// blocks sight (conventions, "Line of sight").
    NoLineOfSight,
    /// The target is in darkness as the viewer sees it (SRD "Vision and Light": darkness is
    /// heavily obscured; darkvision sees it as dim light within its range).
    InDarkness,
}

impl Unseen {
    /// In words, naming the viewer and the target.
    pub fn describe(self, viewer: &str, target: &str) -> String {
        match self {
            Unseen::ViewerIs(c) => format!("{viewer} is {}", c.name()),
            Unseen::Invisible => format!("{target} is invisible"),
            Unseen::Hidden => format!("{target} is hidden"),
            Unseen::RearArc => format!("{target} is in {viewer}'s rear arc"),
            Unseen::NoLineOfSight => format!("no line of sight from {viewer} to {target}"),
            Unseen::InDarkness => format!("{target} is in darkness as {viewer} sees it"),
        }
    }
}

/// A creature's defenses with its conditions: a petrified creature also resists all damage and is
/// immune to poison (PHB appendix A, "Petrified"). Attacks, areas and effects all read them.
pub fn defenses_now(defenses: &Defenses, conditions: &Conditions) -> Defenses {
    let mut defenses = defenses.clone();
    if conditions.has(Condition::Petrified) {
        defenses.resistances.extend(DamageType::ALL);
        defenses.immunities.insert(DamageType::Poison);
    }
    defenses
}

/// Deals damage already adjusted for defenses, and updates the conditions that follow: a creature
/// dropped to 0 and dying falls unconscious (and prone); one that dies keeps its conditions.
pub fn take_damage(health: &mut Health, conditions: &mut Conditions, amount: i32, critical: bool) -> DamageTaken {
    let taken = health.take_damage(amount, critical);
    if matches!(taken.life, Life::Dying | Life::Stable) {
        conditions.set(Condition::Unconscious, true);
    }
    taken
}

/// A death saving throw with the d20 showing `natural`; a 20 brings the creature back with 1 hit
/// point, no longer unconscious (PHB "Death Saving Throws").
pub fn death_save(health: &mut Health, conditions: &mut Conditions, natural: i32) -> Option<DeathSave> {
    let save = health.death_save(natural)?;
    if health.life == Life::Up {
        conditions.set(Condition::Unconscious, false);
    }
    Some(save)
}

/// Heals up to the hit point maximum that exhaustion leaves (PHB appendix A: halved from level
/// 4; [`Health::max_now`]), on the map and in a chase alike; a creature at 0 that regains hit
/// points is no longer unconscious (it stays prone). Returns the hit points regained.
pub fn heal(health: &mut Health, conditions: &mut Conditions, amount: i32) -> i32 {
    let was_down = health.hp == 0;
    let regained = health.heal(amount);
    if was_down && health.life == Life::Up {
        conditions.set(Condition::Unconscious, false);
    }
    regained
}

/// Sets a creature's exhaustion to `level` (at most 6) and returns it: from level 4 its hit point
/// maximum is halved (its hit points brought down to it), and at level 6 it dies (PHB appendix A,
/// "Exhaustion").
pub fn set_exhaustion(health: &mut Health, level: u8) -> u8 {
    let level = level.min(DEATH_BY_EXHAUSTION);
    health.max_halved = exhausted_max_hp(health.max_hp, level) < health.max_hp;
    health.hp = health.hp.min(health.max_now());
    if level >= DEATH_BY_EXHAUSTION {
        health.life = Life::Dead;
    }
    level
}

/// Why a creature can't stand up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum StandError {
    #[error("it isn't prone")]
    NotProne,
    /// Its speed is 0 (`why`, when its conditions or exhaustion make it so: `conditions::speed`).
    #[error("its speed is 0{}, so it can't stand up", .why.as_ref().map_or_else(String::new, |why| format!(" ({why})")))]
    SpeedZero { why: Option<String> },
    /// Standing costs half its speed, and it has less movement left.
    #[error("it needs {cost} ft to stand and has {left} ft left")]
    NotEnoughMovement { cost: u32, left: u32 },
}

/// A prone creature stands up, paying half its speed now from `movement_left` (PHB "Being Prone":
/// "Standing up takes more effort; doing so costs an amount of movement equal to half your
/// speed. You can't stand up if you don't have enough movement left or if your speed is 0.").
/// So a creature whose speed is 0 (grappled, restrained, paralyzed, stunned, unconscious,
/// exhaustion 5, or a speed of 0 on its sheet) stays prone. Returns the feet it cost; the caller
/// spends them.
pub fn stand_up(
    conditions: &mut Conditions,
    base_speed: u32,
    exhaustion: u8,
    movement_left: u32,
) -> Result<u32, StandError> {
    if !conditions.has(Condition::Prone) {
        return Err(StandError::NotProne);
    }
    let now = speed(base_speed, conditions, exhaustion);
    if now.feet == 0 {
        return Err(StandError::SpeedZero { why: now.reason });
    }
    let cost = standing_cost(now.feet);
    if movement_left < cost {
        return Err(StandError::NotEnoughMovement { cost, left: movement_left });
    }
    conditions.set(Condition::Prone, false);
    Ok(cost)
}

#[cfg(test)]
pub(crate) mod tests;
