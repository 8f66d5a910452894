//! The panels' view models, built from the ECS: the roster and the selected token's card, its
//! turn, the initiative tracker, the reaction prompt, the editor and the dice panel.

use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::app::core::components::*;
use crate::app::core::dice::RollRecord;
use crate::app::core::history::History;
use crate::app::core::state::{Audience, Reactions, Selection};
use crate::app::core::tokens::TokenIndex;
use crate::app::core::turns::Turns;
use crate::app::features::editor::Editor;
use crate::rules::creature::Side;
use crate::rules::economy::Response;
use crate::rules::fight::FightRules;
use crate::rules::fight::actions::help_targets;
use crate::rules::fight::opportunity::Provocation;
use crate::rules::health::Health;
use crate::rules::{Footprint, Grid};
use crate::scenario::{Scenario, TokenKind};
use crate::ui::effects::{EffectRow, EffectsView};
use crate::ui::log::{log_line, players_log_line};
use crate::ui::{
    DiceView, EditorView, EntryView, FightView, InitiativeView, MovementView, PromptView, RosterView, SiegeView,
    StatBlockView, TerrainChoice, TokenDetails, TokenRow, TurnView, stat_block_view,
};

/// What the panels read of a token.
#[derive(QueryData)]
pub(super) struct RosterToken {
    pub entity: Entity,
    pub id: &'static TokenId,
    pub name: &'static DisplayName,
    pub kind: &'static Kind,
    pub side: &'static Allegiance,
    pub size: &'static Size,
    pub vitals: &'static Vitals,
    pub hit_points: &'static HitPoints,
    pub combatant: &'static Combatant,
    pub position: &'static Position,
    pub abilities: &'static AbilityModifiers,
    pub facing: Option<&'static Facing>,
    pub shield: Option<&'static Shield>,
    pub seat: Option<&'static Seat>,
    pub pc: Has<PlayerCharacter>,
    pub order: &'static RosterOrder,
    pub moves: Option<&'static TurnMoves>,
    pub actions: Option<&'static Actions>,
    pub inspiration: Option<&'static Inspiration>,
    pub secret: Has<Secret>,
    pub out_of_view: Has<OutOfView>,
    pub effects: Option<&'static LastingEffects>,
    pub coated: Option<&'static CoatedWeapon>,
}

/// Every token as the panels read it, and found by id.
#[derive(SystemParam)]
pub(super) struct Roster<'w, 's> {
    query: Query<'w, 's, RosterToken>,
    index: Res<'w, TokenIndex>,
}

impl<'w, 's> Roster<'w, 's> {
    pub(super) fn iter(&self) -> impl Iterator<Item = RosterTokenItem<'_, 's>> {
        self.query.iter()
    }

    pub(super) fn get(&self, entity: Entity) -> Result<RosterTokenItem<'_, 's>, bevy::ecs::query::QueryEntityError> {
        self.query.get(entity)
    }

    /// The token with this id.
    pub(super) fn by_id(&self, id: &str) -> Option<RosterTokenItem<'_, 's>> {
        self.index.entity(id).and_then(|e| self.query.get(e).ok())
    }
}

/// What the panels need beyond the tokens to build the roster.
pub(super) struct RosterContext<'a> {
    pub selection: Selection,
    pub rules: FightRules,
    pub grid: Grid,
    pub turns: &'a Turns,
    pub picked: Option<&'a str>,
    pub audience: Audience,
    pub siege: &'a SiegeView,
    /// The creatures the selected one could help against (enemies within 5 ft by the one distance).
    pub help_targets: Vec<(String, String)>,
    /// The scene as it stands: the SRD stat block each creature was made from.
    pub scenario: &'a Scenario,
}

/// A token's name as the audience may read it: "a hidden creature" when it doesn't see it.
pub(super) fn seen_name(name: &str, out_of_view: bool) -> String {
    if out_of_view { "a hidden creature".to_owned() } else { name.to_owned() }
}

/// The name of the token with this id as the audience may read it.
pub(super) fn name_in_view(tokens: &Roster, id: &str, name: &str) -> String {
    seen_name(name, tokens.by_id(id).is_some_and(|t| t.out_of_view))
}

/// The name of the token with this id, or the id.
fn name_of(tokens: &Roster, id: &str) -> String {
    tokens.by_id(id).map_or_else(|| id.to_owned(), |t| t.name.0.clone())
}

/// A creature's effects as its card lists them: the players' view leaves out the DM's secret
/// ones.
pub(super) fn effects_view(
    tokens: &Roster,
    effects: &crate::rules::effects::Effects,
    coated: Option<crate::rules::effects::poisons::Poison>,
    dm: bool,
) -> EffectsView {
    use crate::rules::effects::Cure;
    use crate::ui::effects::{duration_words, save_words, source_words};
    let rows = effects
        .list
        .iter()
        .filter(|l| dm || !l.effect.secret)
        .map(|l| EffectRow {
            id: l.id,
            name: l.effect.name.clone(),
            source: source_words(&l.effect.source, |id| name_of(tokens, id)),
            duration: duration_words(l.effect.duration, l.rounds_left),
            save: l.effect.save.as_ref().map(save_words),
            conditions: l.effect.conditions.iter().map(|c| c.name()).collect(),
            note: l.effect.note.clone(),
            in_force: effects.in_force(l),
            secret: l.effect.secret,
            modifiers: l.effect.roll_modifiers().map(|m| m.describe()).collect(),
            cures: [Cure::LesserRestoration, Cure::GreaterRestoration]
                .into_iter()
                .filter(|c| c.ends(&l.effect))
                .collect(),
        })
        .collect();
    EffectsView { rows, coated: coated.map(crate::rules::effects::poisons::Poison::name), dm }
}

/// The enemies `who` could help an ally against, as the card lists them: the rules' Help reach.
pub(super) fn help_targets_of(
    scenario: &Scenario,
    fighters: &crate::app::core::tokens::Fighters,
    who: Entity,
) -> Vec<(String, String)> {
    let field = fighters.field(scenario);
    let Some(me) = fighters.get(who) else { return Vec::new() };
    help_targets(&field, me).map(|f| (f.id.clone(), f.name().to_owned())).collect()
}

/// Hit points as the roster and the chase track tell them to `audience`: numbers, or a word (DMG).
pub(super) fn hit_points_text(audience: Audience, pc: bool, side: Side, health: &Health) -> String {
    if audience.sees_hit_points(pc, side) {
        format!("{}/{}", health.hp, health.max_hp)
    } else {
        health.outward().word().to_owned()
    }
}

/// The roster's view model: every token the audience sees, in scenario order, and the selected
/// one in detail.
pub(super) fn roster_view(tokens: &Roster, cx: &RosterContext) -> RosterView {
    let mut rows: Vec<_> = tokens.iter().filter(|t| !t.out_of_view).collect();
    rows.sort_by_key(|row| *row.order);
    let selected = cx.selection.0.and_then(|e| tokens.get(e).ok()).filter(|t| !t.out_of_view).map(|t| {
        let exact_hp = cx.audience.sees_hit_points(t.pc, t.side.0);
        let mut fight = fight_view(&t, cx.rules.facing, cx.picked, exact_hp);
        if cx.siege.weapon.is_some() {
            // A siege weapon fires through its crew, from a creature's card.
            fight.attacks.clear();
        }
        TokenDetails {
            fight: Some(fight),
            siege: cx.siege.clone(),
            id: t.id.0.clone(),
            anchor: t.position.0,
            cells: Footprint::of(cx.grid, t.size.size, t.size.square_side).len(),
            abilities: t.abilities.0,
            facing: t.facing.map(|f| f.0),
            shield: t.shield.map(|s| s.0),
            player_character: t.pc,
            seat: t.seat.map(|s| s.0),
            dm: cx.audience.dm,
            turn: t.moves.zip(t.actions).map(|(m, a)| turn_view(tokens, cx, &t, m, a)),
            secret: cx.audience.dm.then_some(t.secret),
            inspiration: t.inspiration.map(|i| i.has),
            experience: cx.scenario.token(&t.id.0).and_then(|token| token.xp),
            exhaustion: t.vitals.exhaustion,
            effects: t.effects.map(|e| effects_view(tokens, &e.0, t.coated.map(|c| c.0), cx.audience.dm)),
            stat_block: if cx.audience.dm { stat_block_of(cx.scenario, &t) } else { None },
        }
    });
    RosterView {
        rows: rows
            .into_iter()
            .map(|t| TokenRow {
                id: t.id.0.clone(),
                name: t.name.0.clone(),
                kind: t.kind.0,
                side: t.side.0,
                size: t.size.size,
                hp: hit_points_text(cx.audience, t.pc, t.side.0, &t.hit_points.0),
                ac: t.vitals.ac,
                speed: t.vitals.speed,
                initiative: cx
                    .turns
                    .order
                    .entries
                    .iter()
                    .find(|e| e.id == t.id.0)
                    .filter(|e| cx.audience.dm || !e.hidden)
                    .map(|e| e.initiative),
            })
            .collect(),
        selected,
    }
}

/// The SRD 5.1 stat block the creature was made from (the scene's `monster`), as the DM's card
/// shows it: the book's lines, and whether the creature's own numbers, which the card shows above
/// them, differ from the book's (the scene changed them, or named it "Goblin A").
fn stat_block_of(scenario: &Scenario, t: &RosterTokenItem) -> Option<StatBlockView> {
    let name = scenario.token(&t.id.0)?.monster.as_deref()?;
    let monster = crate::srd::bestiary().ok()?.monster(name)?;
    let book = crate::scenario::monsters::token(monster, &t.id.0, t.position.0);
    let overridden = t.name.0 != book.name
        || t.size.size != book.size
        || t.vitals.ac != book.ac
        || t.vitals.speed != book.speed
        || t.hit_points.0.max_hp != book.max_hp
        || t.abilities.0 != book.abilities;
    Some(StatBlockView { overridden, ..stat_block_view(monster) })
}

/// The creature whose turn it is, if its player has a seat at the table (issue 30) and the
/// audience sees it: its id, name, seat and turn, for the card that faces its player.
pub(super) fn seated_turn(
    tokens: &Roster,
    cx: &RosterContext,
) -> Option<(String, String, crate::scenario::TableEdge, TurnView)> {
    let active = tokens.get(cx.turns.active?).ok().filter(|t| !t.out_of_view)?;
    let seat = active.seat?.0;
    let turn = turn_view(tokens, cx, &active, active.moves?, active.actions?);
    Some((active.id.0.clone(), active.name.0.clone(), seat, turn))
}

/// The active creature's turn card for the table view: at its player's seat, or at the south
/// edge (the screen's bottom) if it has none.
pub(super) fn active_turn(
    tokens: &Roster,
    cx: &RosterContext,
) -> Option<(String, String, crate::scenario::TableEdge, TurnView)> {
    let active = tokens.get(cx.turns.active?).ok().filter(|t| !t.out_of_view)?;
    let seat = active.seat.map_or(crate::scenario::TableEdge::South, |s| s.0);
    let turn = turn_view(tokens, cx, &active, active.moves?, active.actions?);
    Some((active.id.0.clone(), active.name.0.clone(), seat, turn))
}

/// The card's view of a creature's turn: what is left, its actions, and who it could help.
fn turn_view(
    tokens: &Roster,
    cx: &RosterContext,
    me: &RosterTokenItem,
    moves: &TurnMoves,
    actions: &Actions,
) -> TurnView {
    let entity = me.entity;
    let others: Vec<_> =
        tokens.iter().filter(|t| t.entity != entity && !t.out_of_view && t.kind.0 == TokenKind::Creature).collect();
    let allies = others
        .iter()
        .filter(|t| !t.side.0.is_hostile_to(me.side.0) && me.side.0 != Side::Neutral)
        .map(|t| (t.id.0.clone(), t.name.0.clone()))
        .collect();
    let economy = &actions.0;
    let sheet = &me.combatant.sheet;
    let active = cx.turns.active == Some(entity);
    TurnView {
        fight_runs: cx.turns.fight_runs(),
        active,
        left: economy.left(&sheet.turn, &me.combatant.conditions),
        movement: MovementView {
            speed: moves.turn.speed,
            left: moves.turn.left(),
            allowance: moves.turn.allowance(),
            dashes: moves.turn.dashes,
            moves: moves.turn.moves.len(),
            active,
        },
        attacks_per_action: sheet.turn.attacks(),
        bonus_actions: sheet.turn.bonus_actions.clone(),
        readied: economy.readied.as_ref().map(|r| r.describe(|id| name_of(tokens, id))),
        fires_by_hand: economy.readied.as_ref().is_some_and(|r| !matches!(r.response, Response::Attack(_))),
        dm: cx.audience.dm,
        allies,
        enemies_near: cx.help_targets.iter().filter(|(id, _)| others.iter().any(|t| &t.id.0 == id)).cloned().collect(),
        others: others.iter().map(|t| (t.id.0.clone(), t.name.0.clone())).collect(),
        attacks: sheet.attacks.iter().map(|a| a.name.clone()).collect(),
        hidden: me.combatant.hidden.is_some(),
    }
}

/// The card's view of a creature's fight.
fn fight_view(t: &RosterTokenItem, facing_rule: bool, picked: Option<&str>, exact_hp: bool) -> FightView {
    let combatant = t.combatant;
    let conditions = combatant.conditions.clone();
    let health = t.hit_points.0;
    FightView {
        exact_hp,
        health,
        max_hp: health.max_now(),
        prone: conditions.has(crate::rules::conditions::Condition::Prone),
        conditions,
        exhaustion: t.vitals.exhaustion,
        attacks: combatant
            .sheet
            .attacks
            .iter()
            .map(|a| {
                (a.name.clone(), format!("{:+} to hit, {} {}, {}", a.bonus, a.damage, a.damage_type, a.reach_words()))
            })
            .collect(),
        picked: picked.map(str::to_owned),
        dodging: combatant.dodging,
        defenses: combatant.defenses.describe(),
        turns: t.facing.is_some() && facing_rule,
        shield: t.shield.map(|s| s.0),
        arcs: (!combatant.arcs.is_standard()).then(|| {
            let a = combatant.arcs;
            format!("Arcs: left counts as {}, right as {}, rear as {}", a.left.name(), a.right.name(), a.rear.name())
        }),
    }
}

/// The initiative tracker's view: the order with names, whose turn it is, and who isn't in it.
pub(super) fn initiative_view(tokens: &Roster, turns: &Turns, audience: Audience) -> InitiativeView {
    let order = &turns.order;
    InitiativeView {
        round: order.round,
        entries: order
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let token = tokens.by_id(&e.id);
                EntryView {
                    id: e.id.clone(),
                    name: token.as_ref().map_or_else(|| e.id.clone(), |t| t.name.0.clone()),
                    side: token.as_ref().map_or(Side::Neutral, |t| t.side.0),
                    initiative: e.initiative,
                    current: order.current == Some(i) && token.is_some_and(|t| turns.active == Some(t.entity)),
                    hidden: e.hidden,
                }
            })
            .collect(),
        absent: tokens
            .iter()
            .filter(|t| t.moves.is_some() && order.entry(&t.id.0).is_none())
            .map(|t| (t.id.0.clone(), t.name.0.clone()))
            .collect(),
        dm: audience.dm,
    }
}

/// The reaction prompt for what waits: an opportunity attack first, then readied actions. A
/// reactor the audience doesn't see is "a hidden creature".
pub(super) fn prompt_view(reactions: &Reactions, tokens: &Roster) -> Option<PromptView> {
    let name = |e: Entity| tokens.get(e).map_or_else(|_| "?".to_owned(), |t| seen_name(&t.name.0, t.out_of_view));
    if let Some(interrupted) = &reactions.interrupted {
        let offer: &Provocation = interrupted.offers.front()?;
        let reactor = name_in_view(tokens, &offer.reactor, &offer.reactor_name);
        let seat = tokens.by_id(&offer.reactor).and_then(|t| t.seat).map(|s| s.0);
        return Some(PromptView {
            title: "Opportunity attack?".into(),
            lines: vec![
                format!(
                    "{} is leaving {reactor}'s reach ({} ft) at {}.",
                    name(interrupted.mover),
                    offer.reach,
                    offer.at
                ),
                format!("{reactor} may strike with {}, using its reaction; the move waits.", offer.attack),
            ],
            yes: "Opportunity attack".into(),
            no: "Let it go".into(),
            seat,
        });
    }
    let offer = reactions.readied.front()?;
    let readied = tokens.get(offer.reactor).ok().and_then(|t| t.actions).and_then(|a| a.0.readied.clone())?;
    Some(PromptView {
        title: "Readied action".into(),
        lines: vec![
            format!("{} has moved.", name(offer.trigger)),
            format!("{} readied: {}.", name(offer.reactor), readied.describe(|id| name_of(tokens, id))),
        ],
        yes: "Fire".into(),
        no: "Hold".into(),
        seat: tokens.get(offer.reactor).ok().and_then(|t| t.seat).map(|s| s.0),
    })
}

/// The editor panel's view: the legend as a palette, the map's size and grid, the monster picked
/// in the bestiary, and the selected token as the scene holds it now.
pub(super) fn editor_view(
    editor: &Editor,
    history: &History,
    scenario: &Scenario,
    selected: Option<&str>,
) -> EditorView {
    let palette = scenario.map.palette();
    let terrains = palette
        .iter()
        .zip(&scenario.glyphs)
        .map(|(terrain, glyph)| TerrainChoice {
            glyph: *glyph,
            name: terrain.name.clone(),
            color: super::super::board::terrain_color(terrain),
            blocks: terrain.rule_summary().join(", "),
        })
        .collect();
    let board = history.current.as_ref().map_or(scenario, |c| &c.board);
    EditorView {
        tool: editor.tool,
        terrains,
        terrain: editor.terrain,
        brush: editor.brush,
        width: scenario.map.width(),
        height: scenario.map.height(),
        grid: scenario.grid,
        placing: editor.placing,
        monster: editor.monster.clone(),
        selected: selected.and_then(|id| board.token(id)).cloned(),
        refusal: editor.refusal.as_ref().map(ToString::to_string),
        background: board.background.clone(),
    }
}

/// The dice panel's view: the log as the audience may read it, who rolls, and whether its
/// inspiration waits for the roll.
pub(super) fn dice_view(log: &RollRecord, tokens: &Roster, roller: Option<Entity>, audience: Audience) -> DiceView {
    let roller = roller.and_then(|e| tokens.get(e).ok());
    DiceView {
        seed: log.0.seed,
        // The players' view never receives a hidden roll's full line.
        log: log
            .0
            .entries
            .iter()
            .map(|e| (if audience.dm { log_line(e) } else { players_log_line(e) }, players_log_line(e), e.hidden))
            .collect(),
        dm: audience.dm,
        roller: roller.as_ref().map_or_else(|| "the DM".to_owned(), |t| t.name.0.clone()),
        inspired: roller.and_then(|t| t.inspiration).is_some_and(|i| i.spent_on_next_roll),
    }
}

/// The legend: the terrains the map uses (in the palette's order), each with its tile from
/// `swatches` (the texture of `board::swatch_strip`, once egui has it), and the icons on it.
pub(super) fn legend_view(
    scenario: &Scenario,
    tokens: &Roster,
    swatches: Option<bevy_egui::egui::TextureId>,
) -> crate::ui::LegendView {
    use super::super::board::{swatch_tint, swatch_uv};
    use crate::ui::{LegendIcon, LegendTerrain, TileSwatch};
    use bevy_egui::egui;
    let map = &scenario.map;
    let mut used = vec![false; map.palette().len()];
    for cell in map.cells() {
        if let Some(i) = map.terrain_index(cell) {
            used[i] = true;
        }
    }
    let terrains = map
        .palette()
        .iter()
        .zip(used)
        .filter(|(_, used)| *used)
        .map(|(terrain, _)| LegendTerrain {
            name: terrain.name.clone(),
            color: super::super::board::terrain_color(terrain),
            tile: swatches.map(|texture| {
                let [left, right] = swatch_uv(terrain);
                let [r, g, b] = swatch_tint(terrain);
                TileSwatch {
                    texture,
                    uv: egui::Rect::from_min_max(egui::pos2(left, 0.0), egui::pos2(right, 1.0)),
                    tint: egui::Color32::from_rgb(r, g, b),
                }
            }),
            rule: crate::ui::legend_rule(&terrain.name, &terrain.rule_summary()),
        })
        .collect();
    let mut icons: Vec<LegendIcon> = Vec::new();
    let mut add = |name: String, meaning: String| {
        if !icons.iter().any(|i| i.name == name) {
            icons.push(LegendIcon { name, meaning });
        }
    };
    for token in &scenario.tokens {
        if let Some(siege) = token.siege {
            let stats = siege.kind.stats();
            let what = if siege.kind.is_weapon() { "siege weapon" } else { "siege equipment" };
            add(stats.name.to_owned(), format!("{what}, AC {}, {} hp (DMG \"Siege Equipment\")", stats.ac, stats.hp));
        } else if let Some(icon) = token.icon {
            add(
                crate::ui::words::object_icon_name(icon).to_owned(),
                "an object: it has AC and hit points (DMG \"Objects\")".to_owned(),
            );
        }
    }
    let mut conditions: Vec<crate::rules::conditions::Condition> =
        tokens.iter().flat_map(|t| t.combatant.conditions.iter().collect::<Vec<_>>()).collect();
    conditions.sort_by_key(|c| crate::rules::conditions::Condition::ALL.iter().position(|a| a == c));
    conditions.dedup();
    for condition in conditions {
        add(condition.name().to_owned(), "a condition: its icon sits on the token's disc (PHB Appendix A)".to_owned());
    }
    crate::ui::LegendView { terrains, lights: legend_lights(scenario), icons }
}

/// The shades of light the scene can show: none in a bright scene without sunlight; dim light and
/// darkness in a scene darker than bright or with lamps; sunlight where the sun is lit.
fn legend_lights(scenario: &Scenario) -> Vec<crate::ui::LegendLight> {
    use crate::app::features::fog::{DARKNESS, DIM_LIGHT, SUNLIGHT};
    use crate::rules::light::LightLevel;
    let shade = |color: Color| color.to_srgba().to_u8_array();
    let lit = scenario.light != LightLevel::Bright;
    let sun = scenario.lights.iter().any(|(_, light)| light.sunlight);
    let rows = [
        (lit, "dim light", DIM_LIGHT, LightLevel::Dim.obscures()),
        (lit, "darkness", DARKNESS, LightLevel::Dark.obscures()),
        (sun, "sunlight", SUNLIGHT, "Sunlight Sensitivity: disadvantage on attacks and on Perception by sight"),
    ];
    rows.into_iter()
        .filter(|row| row.0)
        .map(|(_, name, color, meaning)| crate::ui::LegendLight {
            name: name.to_owned(),
            shade: shade(color),
            meaning: meaning.to_owned(),
        })
        .collect()
}
