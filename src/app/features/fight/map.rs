//! The fight on the map: the keys (`A` and `1`–`9` pick an attack, `[` and `]` turn, `H` shows
//! the arcs), the ruling on the picked attack against the hovered token (the card beside the
//! cursor), and the shading of the cells from which an ally would flank the hovered enemy and of
//! the selected creature's arcs.

use bevy::prelude::*;

use crate::app::core::components::{Actions, Combatant, Facing};
use crate::app::core::messages::FightRequest;
use crate::app::core::notice::NotNow;
use crate::app::core::pointer::{MapKeys, Pickable, PointerOnMap};
use crate::app::core::state::{AttackMode, CellShades, LoadedScenario, Selection, ShadeLayer};
use crate::app::core::tokens::Battlefield;
use crate::app::core::turns::Turns;
use crate::rules::Cell;
use crate::rules::facing::{Arc, arc_of_cell};
use crate::rules::fight::adjudicate::{Adjudication, Refusal, adjudicate, pick_attack, where_to_flank};

/// The ruling on the picked attack against the hovered token, for the card beside the cursor.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct AttackPreview(pub Option<AttackCard>);

#[derive(Clone, Debug, PartialEq)]
pub struct AttackCard {
    pub target: Entity,
    /// Who shoots (the creature, or the siege weapon it crews) and who is shot at, by name.
    pub shooter: String,
    pub target_name: String,
    pub ruling: Result<Adjudication, Refusal>,
    /// Why the click would be refused now (not its turn, no attack left), by the rule that
    /// refuses it ([`Turns::may_attack`]).
    pub now: Result<(), NotNow>,
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

pub(super) fn fight_keys(
    keys: MapKeys,
    selection: Res<Selection>,
    mode: Res<AttackMode>,
    combatants: Query<&Combatant>,
    mut arcs: ResMut<ArcsShown>,
    mut requests: MessageWriter<FightRequest>,
) {
    if keys.pressed(KeyCode::KeyH) && !keys.control() {
        arcs.0 = !arcs.0;
    }
    let Some(attacker) = selection.0 else { return };
    if keys.pressed(KeyCode::BracketLeft) || keys.pressed(KeyCode::BracketRight) {
        requests.write(FightRequest::Turn { target: attacker, clockwise: keys.pressed(KeyCode::BracketRight) });
    }
    let Ok(combatant) = combatants.get(attacker) else { return };
    let names: Vec<&str> = combatant.sheet.attacks.iter().map(|a| a.name.as_str()).collect();
    let picked = mode.picked_by(Some(attacker));
    let choice = if keys.pressed(KeyCode::KeyA) && !keys.control() {
        // Cycle: none, the first, the second, ..., none.
        let next = picked.and_then(|p| names.iter().position(|n| *n == p)).map_or(0, |i| i + 1);
        Some(names.get(next).map(|n| (*n).to_owned()))
    } else {
        DIGITS.iter().position(|k| keys.pressed(*k)).and_then(|i| names.get(i)).map(|n| Some((*n).to_owned()))
    };
    if let Some(attack) = choice {
        requests.write(FightRequest::PickAttack { attacker, attack, weapon: None });
    }
}

pub(super) fn preview_attack(
    mode: Res<AttackMode>,
    selection: Res<Selection>,
    pointer: Res<PointerOnMap>,
    pickable: Pickable,
    battlefield: Battlefield,
    turns: Res<Turns>,
    actions: Query<&Actions>,
    mut preview: ResMut<AttackPreview>,
) {
    let card = (|| {
        let attacker = selection.0?;
        let attack = mode.picked_by(Some(attacker))?;
        let target = pickable.under(&pointer, Some(attacker))?;
        // A crewed siege weapon fires in the attacker's stead.
        let shooter = mode.weapon.unwrap_or(attacker);
        let fighters = battlefield.fighters();
        let field = fighters.field(battlefield.scenario());
        let (a, t) = (fighters.get(shooter)?, fighters.get(target)?);
        let ruling = pick_attack(a, Some(attack)).map(|chosen| adjudicate(&field, a, t, chosen));
        // A crew's shot is paid with the crew's Use an Object, asked on the click.
        let now = match (mode.weapon, actions.get(attacker)) {
            (None, Ok(spent)) => turns.may_attack(attacker, a.name(), &spent.0, &a.sheet.turn, &a.conditions),
            _ => Ok(()),
        };
        Some(AttackCard { target, shooter: a.name().to_owned(), target_name: t.name().to_owned(), ruling, now })
    })();
    if preview.0 != card {
        preview.0 = card;
    }
}

/// What the shading was drawn for.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct ShadeKey {
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
pub(super) fn shade_fight_cells(
    selection: Res<Selection>,
    pointer: Res<PointerOnMap>,
    pickable: Pickable,
    loaded: Res<LoadedScenario>,
    arcs: Res<ArcsShown>,
    battlefield: Battlefield,
    mut shades: ResMut<CellShades>,
    mut drawn: Local<Option<ShadeKey>>,
) {
    let token = |e: Entity| battlefield.tokens.get(e).ok();
    let selected = selection.0.and_then(|e| token(e).map(|t| (e, t.position.0, t.facing.copied())));
    let target = pickable.under(&pointer, selection.0);
    let key = ShadeKey { selected, hovered: target.and_then(|e| token(e).map(|t| (e, t.position.0))), arcs: arcs.0 };
    if drawn.as_ref() == Some(&key) {
        return;
    }
    CellShades::clear(&mut shades, ShadeLayer::Flanking);
    CellShades::clear(&mut shades, ShadeLayer::Arcs);
    *drawn = Some(key.clone());
    let Some((me, ..)) = key.selected else { return };
    let fighters = battlefield.fighters();
    let field = fighters.field(&loaded.scenario);
    let Some(me) = fighters.get(me) else { return };
    let grid = loaded.scenario.grid;
    if let Some(enemy) = target.and_then(|e| fighters.get(e)) {
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
