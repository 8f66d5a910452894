//! The fight in the window: the keys (`A` and `1`–`9` pick an attack, `[` and `]` turn, `H` shows
//! the arcs), the attack card beside the cursor, and the shading of the cells from which an ally
//! would flank the hovered enemy and of the selected creature's arcs.

use bevy::prelude::*;

use super::{AttackMode, FightRequest, FightTokens, fighters};
use crate::app::AppSystems;
use crate::app::board::{Board, CellShades, ShadeLayer};
use crate::app::components::{DisplayName, Facing, Position};
use crate::app::input::{MapKeys, PointerOnMap, token_under};
use crate::app::state::{LoadedScenario, Selection};
use crate::app::tokens::TokenDisc;
use crate::rules::Cell;
use crate::rules::facing::{Arc, arc_of_cell};
use crate::rules::fight::adjudicate::where_to_flank;
use crate::ui::attack_card;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<AttackPreview>().init_resource::<ArcsShown>().add_systems(
        Update,
        (
            fight_keys.in_set(AppSystems::Input),
            (preview_attack, shade_fight_cells, super::looks::update).chain().in_set(AppSystems::Show),
        ),
    );
}

/// The attack card beside the cursor: the ruling on the picked attack against the hovered token.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub(crate) struct AttackPreview(pub Option<AttackCard>);

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AttackCard {
    pub target: Entity,
    pub lines: Vec<String>,
    pub allowed: bool,
}

/// Whether the selected creature's arcs are shaded (`H`).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ArcsShown(pub bool);

/// The digit keys that pick an attack by its place on the card.
const DIGITS: [KeyCode; 9] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

fn fight_keys(
    keys: MapKeys,
    selection: Res<Selection>,
    mode: Res<AttackMode>,
    combatants: Query<&crate::app::components::Combatant>,
    mut arcs: ResMut<ArcsShown>,
    mut requests: MessageWriter<FightRequest>,
) {
    if keys.pressed(KeyCode::KeyH) {
        arcs.0 = !arcs.0;
    }
    let Some(attacker) = selection.0 else { return };
    if keys.pressed(KeyCode::BracketLeft) || keys.pressed(KeyCode::BracketRight) {
        requests.write(FightRequest::Turn { target: attacker, clockwise: keys.pressed(KeyCode::BracketRight) });
    }
    let Ok(combatant) = combatants.get(attacker) else { return };
    let names: Vec<&str> = combatant.sheet.attacks.iter().map(|a| a.name.as_str()).collect();
    let picked = mode.picked_by(Some(attacker));
    let choice = if keys.pressed(KeyCode::KeyA) {
        // Cycle: none, the first, the second, ..., none.
        let next = picked.and_then(|p| names.iter().position(|n| *n == p)).map_or(0, |i| i + 1);
        Some(names.get(next).map(|n| (*n).to_owned()))
    } else {
        DIGITS.iter().position(|k| keys.pressed(*k)).and_then(|i| names.get(i)).map(|n| Some((*n).to_owned()))
    };
    if let Some(attack) = choice {
        requests.write(FightRequest::PickAttack { attacker, attack });
    }
}

/// The token under the pointer, other than `except`.
fn hovered(
    pointer: &PointerOnMap,
    board: &Board,
    discs: &Query<(Entity, &TokenDisc, &Position, &crate::app::components::CreatureSize)>,
    except: Option<Entity>,
) -> Option<Entity> {
    let world = pointer.world?;
    let grid = board.0.grid;
    let candidates = discs.iter().filter(|(e, ..)| Some(*e) != except).map(|(e, disc, position, size)| {
        (e, disc, crate::rules::Footprint::of(grid, size.size, size.square_side).at(position.0).collect())
    });
    token_under(world, pointer.cell, candidates)
}

#[allow(clippy::too_many_arguments)]
fn preview_attack(
    mode: Res<AttackMode>,
    selection: Res<Selection>,
    pointer: Res<PointerOnMap>,
    board: Option<Res<Board>>,
    loaded: Res<LoadedScenario>,
    tokens: FightTokens,
    discs: Query<(Entity, &TokenDisc, &Position, &crate::app::components::CreatureSize)>,
    names: Query<&DisplayName>,
    mut preview: ResMut<AttackPreview>,
) {
    let card = (|| {
        let attacker = selection.0?;
        let attack = mode.picked_by(Some(attacker))?;
        let target = hovered(&pointer, board.as_deref()?, &discs, Some(attacker))?;
        let name = |e: Entity| names.get(e).map_or_else(|_| "?".to_owned(), |n| n.0.clone());
        // A crewed siege weapon fires in the attacker's stead.
        let shooter = mode.weapon.unwrap_or(attacker);
        let (lines, allowed) = match fighters(&loaded, &tokens).ruling(&loaded, shooter, target, attack) {
            Ok(ruling) => attack_card(&ruling, &name(shooter), &name(target)),
            Err(why) => (vec![why], false),
        };
        Some(AttackCard { target, lines, allowed })
    })();
    if preview.0 != card {
        preview.0 = card;
    }
}

/// What the shading was drawn for.
#[derive(Clone, Debug, Default, PartialEq)]
struct ShadeKey {
    selected: Option<(Entity, Cell, Option<Facing>)>,
    hovered: Option<(Entity, Cell)>,
    arcs: bool,
}

const FLANK_SHADE: Color = Color::srgba(0.2, 0.95, 0.45, 0.42);
const FRONT_SHADE: Color = Color::srgba(0.25, 0.65, 1.0, 0.3);
const SIDE_SHADE: Color = Color::srgba(1.0, 0.85, 0.1, 0.3);
const REAR_SHADE: Color = Color::srgba(0.95, 0.15, 0.15, 0.34);
/// How far around the selected creature its arcs are shaded, in steps.
const ARC_RADIUS: u32 = 8;

/// Shades, when a creature is selected: the cells from which it or an ally of it would flank the
/// hovered enemy (with the flanking rule), and its arcs (with `H` and the facing rule).
#[allow(clippy::too_many_arguments)]
fn shade_fight_cells(
    selection: Res<Selection>,
    pointer: Res<PointerOnMap>,
    board: Option<Res<Board>>,
    loaded: Res<LoadedScenario>,
    arcs: Res<ArcsShown>,
    tokens: FightTokens,
    discs: Query<(Entity, &TokenDisc, &Position, &crate::app::components::CreatureSize)>,
    mut shades: ResMut<CellShades>,
    mut drawn: Local<Option<ShadeKey>>,
) {
    let Some(board) = board else { return };
    let layout = board.0;
    let selected = selection.0.and_then(|e| tokens.get(e).ok().map(|t| (e, t.2.0, t.10.copied())));
    let target = hovered(&pointer, &board, &discs, selection.0);
    let key = ShadeKey { selected, hovered: target.and_then(|e| discs.get(e).ok().map(|d| (e, d.2.0))), arcs: arcs.0 };
    if drawn.as_ref() == Some(&key) {
        return;
    }
    for layer in [ShadeLayer::Flanking, ShadeLayer::Arcs] {
        if !shades.layer(layer).is_empty() {
            shades.set(layer, Vec::new());
        }
    }
    *drawn = Some(key.clone());
    let Some((me, ..)) = key.selected else { return };
    let all = fighters(&loaded, &tokens);
    let field = all.field(&loaded);
    let Some(me) = all.of(me) else { return };
    let grid = layout.grid;
    if let Some(enemy) = target.and_then(|e| all.of(e)) {
        let cells: Vec<(Cell, Color)> =
            where_to_flank(&field, me, enemy).into_iter().map(|c| (c, FLANK_SHADE)).collect();
        if !cells.is_empty() {
            shades.set(ShadeLayer::Flanking, cells);
        }
    }
    if let Some(facer) = me.facer(field.rules).filter(|_| key.arcs) {
        let within = |cell: Cell| me.cells.iter().any(|&c| grid.steps_between(c, cell) <= ARC_RADIUS);
        let arcs = loaded.scenario.map.cells().filter(|&c| within(c)).filter_map(|cell| {
            let shade = match arc_of_cell(grid, &facer, cell)? {
                Arc::Front => FRONT_SHADE,
                Arc::Left | Arc::Right => SIDE_SHADE,
                Arc::Rear => REAR_SHADE,
            };
            Some((cell, shade))
        });
        shades.set(ShadeLayer::Arcs, arcs.collect());
    }
}
