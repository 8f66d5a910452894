//! Tokens as entities: spawned with their components from the scenario, found by id through
//! [`TokenIndex`], and read back as the rules' [`Fighter`]s through one conversion
//! ([`TokenDataItem::fighter`]), so every feature asks the same [`Field`] the command line
//! asks.

use std::collections::HashMap;

use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::components::*;
use super::layout::{BoardLayout, MapLayout, PIXELS_PER_UNIT};
use super::messages::{ScenarioChanged, SelectToken, TerrainEdited};
use super::schedule::AppSystems;
use super::state::{LoadedScenario, Selection};
use crate::rules::fight::{Field, Fighter};
use crate::rules::movement::TurnMovement;
use crate::rules::{Cell, Footprint, Grid, TerrainMap};
use crate::scenario::{RuleOptions, Scenario, Token, TokenKind};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TokenIndex>()
        .add_systems(
            Update,
            (
                set_layout.run_if(on_message::<ScenarioChanged>.or_eager(on_message::<TerrainEdited>)),
                spawn_tokens.run_if(on_message::<ScenarioChanged>),
                index_tokens,
            )
                .chain()
                .in_set(AppSystems::Build),
        )
        .add_systems(Update, apply_selection.after(AppSystems::Build).before(AppSystems::Pointer));
}

/// Selects the token asked for by id (or clears the selection).
fn apply_selection(mut requests: MessageReader<SelectToken>, index: Res<TokenIndex>, mut selection: ResMut<Selection>) {
    for SelectToken(id) in requests.read() {
        selection.0 = id.as_deref().and_then(|id| index.entity(id));
    }
}

/// Every token's entity by its id.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct TokenIndex(HashMap<String, Entity>);

impl TokenIndex {
    /// The entity of the token with this id.
    pub fn entity(&self, id: &str) -> Option<Entity> {
        self.0.get(id).copied()
    }

    /// Rebuilds the index from every token in `world` (after the map is rebuilt).
    pub fn rebuild(world: &mut World) {
        let mut query = world.query::<(Entity, &TokenId)>();
        let index = query.iter(world).map(|(e, id)| (id.0.clone(), e)).collect();
        world.insert_resource(TokenIndex(index));
    }
}

/// Keeps [`TokenIndex`] up to date when tokens come and go.
fn index_tokens(
    added: Query<(), Added<TokenId>>,
    mut removed: RemovedComponents<TokenId>,
    tokens: Query<(Entity, &TokenId)>,
    mut index: ResMut<TokenIndex>,
) {
    if added.is_empty() && removed.read().count() == 0 {
        return;
    }
    index.0 = tokens.iter().map(|(e, id)| (id.0.clone(), e)).collect();
}

/// The board's place in the world, from the map.
fn set_layout(mut commands: Commands, loaded: Res<LoadedScenario>) {
    commands.insert_resource(MapLayout(BoardLayout::of(&loaded.scenario.map)));
}

/// The tokens of the loaded scenario, spawned anew (the old ones despawned with their looks).
pub fn spawn_tokens(mut commands: Commands, loaded: Res<LoadedScenario>, old: Query<Entity, With<TokenMarker>>) {
    for entity in &old {
        commands.entity(entity).despawn();
    }
    spawn_all(&mut commands, &loaded.scenario);
}

/// Spawns every token of `scenario` with its components, in the scenario's order.
pub fn spawn_all(commands: &mut Commands, scenario: &Scenario) {
    let layout = BoardLayout::of(&scenario.map);
    let mut tiny_in_cell: HashMap<Cell, usize> = HashMap::default();
    for (order, token) in scenario.tokens.iter().enumerate() {
        let tiny_index = (token.size == crate::rules::Size::Tiny).then(|| {
            let n = tiny_in_cell.entry(token.anchor).or_default();
            *n += 1;
            *n - 1
        });
        let center = disc_center(&layout, &token.cells(scenario.grid), tiny_index);
        let disc = TokenDisc {
            center,
            radius: disc_radius(scenario.grid, token.size, token.square_side) * PIXELS_PER_UNIT,
            home_anchor: token.anchor,
            home_center: center,
        };
        let mut entity = commands.spawn((
            TokenMarker,
            components(token, scenario.rules),
            RosterOrder(order),
            disc,
            Transform::default(),
            Visibility::default(),
        ));
        if let Some(facing) = token.facing {
            entity.insert(Facing(facing));
        }
        if let Some(shield) = token.shield {
            entity.insert(Shield(shield));
        }
        if let Some(edge) = token.seat {
            entity.insert(Seat(edge));
        }
        if token.player_character {
            entity.insert((PlayerCharacter, Inspiration { has: token.inspiration, spent_on_next_roll: false }));
        }
        if token.hidden {
            entity.insert(Secret);
        }
        if let Some(siege) = token.siege {
            entity.insert(SiegeWeapon { siege, round: 0, crew_this_round: Vec::new() });
        }
        if token.holds_creatures() {
            entity.insert(OpenSpace);
        }
        if token.image.is_some() || token.icon.is_some() {
            entity.insert(TokenArt { image: token.image.clone(), icon: token.icon });
        }
        if token.kind == TokenKind::Creature {
            let (effects, conditions) = token.lasting_effects();
            let speed = crate::rules::conditions::speed(token.speed, &conditions, token.exhaustion).feet;
            let crawling = conditions.has(crate::rules::conditions::Condition::Prone);
            entity.insert((TurnMoves { turn: TurnMovement::new(speed), crawling }, LastingEffects(effects)));
        }
    }
}

fn components(token: &Token, rules: RuleOptions) -> impl Bundle {
    (
        TokenId(token.id.clone()),
        DisplayName(token.name.clone()),
        Position(token.anchor),
        Size { size: token.size, square_side: token.square_side },
        Allegiance(token.side),
        Kind(token.kind),
        Vitals { ac: token.ac, speed: token.speed, exhaustion: token.exhaustion },
        HitPoints(token.health()),
        Combatant {
            sheet: token.sheet(),
            conditions: token.lasting_effects().1,
            defenses: token.defenses.clone(),
            arcs: token.arcs,
            dodging: false,
            helped_against: None,
            helped_by: None,
            average_damage: token.deals_average_damage(rules),
            hidden: None,
            elevation: token.elevation,
        },
        Actions::default(),
        AbilityModifiers(token.abilities),
    )
}

/// The radius of a token's disc, in grid units, by the space it covers.
fn disc_radius(grid: Grid, size: crate::rules::Size, square_side: Option<u32>) -> f32 {
    use crate::rules::Size as S;
    match (grid, size) {
        (_, S::Tiny) => 0.22,
        (Grid::Square, _) => 0.42 * Footprint::of(grid, size, square_side).len().isqrt() as f32,
        (Grid::Hex(_), S::Small | S::Medium) => 0.42,
        (Grid::Hex(_), S::Large) => 0.7,
        (Grid::Hex(_), S::Huge) => 1.2,
        (Grid::Hex(_), S::Gargantuan) => 1.45,
    }
}

/// The centre of a token's disc: the middle of its space; Tiny creatures sharing a cell take a
/// quarter each (`tiny_index` is their place among the Tiny ones in that cell).
pub fn disc_center(layout: &BoardLayout, cells: &[Cell], tiny_index: Option<usize>) -> Vec2 {
    let center = layout.middle(cells);
    match tiny_index {
        Some(i) => {
            let quarter = [Vec2::new(-1.0, 1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, -1.0)];
            center + quarter[i % 4] * 0.24 * PIXELS_PER_UNIT
        }
        None => center,
    }
}

/// What the rules read of a token: the components of [`Fighter`].
#[derive(QueryData)]
pub struct TokenData {
    pub entity: Entity,
    pub id: &'static TokenId,
    pub name: &'static DisplayName,
    pub position: &'static Position,
    pub size: &'static Size,
    pub side: &'static Allegiance,
    pub kind: &'static Kind,
    pub vitals: &'static Vitals,
    pub hit_points: &'static HitPoints,
    pub combatant: &'static Combatant,
    pub facing: Option<&'static Facing>,
    pub shield: Option<&'static Shield>,
    pub siege: Option<&'static SiegeWeapon>,
    pub pc: Has<PlayerCharacter>,
    pub order: &'static RosterOrder,
    pub effects: Option<&'static LastingEffects>,
}

impl TokenDataItem<'_, '_> {
    /// This token as the fight rules read it: the one conversion from components to the rules
    /// (the command line's is `scenario::Token::fighter`, from the scene's text; both squeeze by
    /// `Fighter::squeezes_on`).
    pub fn fighter(&self, map: &TerrainMap) -> Fighter {
        let grid = map.grid();
        let is_object = self.kind.0 == TokenKind::Object;
        let mut sheet = self.combatant.sheet.clone();
        (sheet.ac, sheet.speed, sheet.exhaustion) = (self.vitals.ac, self.vitals.speed, self.vitals.exhaustion);
        if let Some(effects) = self.effects {
            crate::rules::effects::hampered(&mut sheet, &effects.0);
        }
        let mut fighter = Fighter {
            id: self.id.0.clone(),
            sheet,
            anchor: self.position.0,
            cells: self.size.cells(grid, self.position.0),
            side: self.side.0,
            size: self.size.size,
            square_side: self.size.square_side,
            is_object,
            conditions: self.combatant.conditions.clone(),
            facing: self.facing.map(|f| f.0),
            arcs: self.combatant.arcs,
            shield: self.shield.map(|s| s.0),
            squeezing: false,
            dodging: self.combatant.dodging,
            helped_against: self.combatant.helped_against.clone(),
            health: self.hit_points.0,
            defenses: self.combatant.defenses.clone(),
            hidden: self.combatant.hidden,
            average_damage: self.combatant.average_damage,
            player_character: self.pc,
            elevation: self.combatant.elevation,
            siege: self.siege.map(|w| w.siege),
        };
        fighter.squeezing = fighter.squeezes_on(map);
        fighter
    }
}

/// Every token as the fight rules read it, with its entity, in the query's order.
pub struct Fighters {
    pub entities: Vec<Entity>,
    pub list: Vec<Fighter>,
}

impl Fighters {
    /// The fighter of `entity`.
    pub fn get(&self, entity: Entity) -> Option<&Fighter> {
        self.entities.iter().position(|e| *e == entity).map(|i| &self.list[i])
    }

    /// The entity of the fighter with this id.
    pub fn entity_of(&self, id: &str) -> Option<Entity> {
        self.list.iter().position(|f| f.id == id).map(|i| self.entities[i])
    }

    /// Each fighter with its entity.
    pub fn iter(&self) -> impl Iterator<Item = (Entity, &Fighter)> {
        self.entities.iter().copied().zip(&self.list)
    }
}

/// The board as the rules see it: the loaded scenario and every token, for the features that ask
/// the rules a question ([`Battlefield::fighters`], then `Fighters::field`).
#[derive(SystemParam)]
pub struct Battlefield<'w, 's> {
    pub loaded: Res<'w, LoadedScenario>,
    pub tokens: Query<'w, 's, TokenData>,
}

impl Battlefield<'_, '_> {
    /// Every token as the fight rules read it.
    pub fn fighters(&self) -> Fighters {
        let map = &self.loaded.scenario.map;
        // In the scenario's order, whatever components each token has (the query's order follows
        // them), so every rule sees the tokens, and the dice roll for them, in the same order.
        let mut tokens: Vec<_> = self.tokens.iter().collect();
        tokens.sort_by_key(|t| *t.order);
        let (entities, list) = tokens.into_iter().map(|t| (t.entity, t.fighter(map))).unzip();
        Fighters { entities, list }
    }

    pub fn scenario(&self) -> &Scenario {
        &self.loaded.scenario
    }

    /// The name of a token, or `?` for one that is gone.
    pub fn name(&self, entity: Entity) -> String {
        self.tokens.get(entity).map_or_else(|_| "?".to_owned(), |t| t.name.0.clone())
    }
}

impl Fighters {
    /// The fight's board: the scenario's terrain and rules, and these fighters.
    pub fn field<'a>(&'a self, scenario: &'a Scenario) -> Field<'a> {
        scenario.field(&self.list)
    }
}
