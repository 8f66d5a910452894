//! Siege weapons on the map: a creature beside a weapon works it from its card (load, aim, fill:
//! each an action), fires it at a clicked target through the attack adjudicator and the roll log,
//! or tips a cauldron on the square below; and the card of a selected weapon (state, crew this
//! round, pushers). Every ruling comes from `rules::siege` and `rules::fight`; this plugin is the
//! only writer of [`SiegeWeapon`](super::components::SiegeWeapon).

use bevy::prelude::*;

use super::AppSystems;
use super::board::Board;
use super::components::Position;
use super::components::{Actions, Combatant, DisplayName, HitPoints, SiegeWeapon, Vitals};
use super::dice::{Inspiration, Session};
use super::fight::{AttackMode, FightTokens, Fighters, apply_saves, fighters, make_attack};
use super::layout::BoardLayout;
use super::movement::{MoveToken, TokenSpaces, TurnMoves, occupants};
use super::state::{LoadedScenario, Notice, Selection};
use super::turns::{Turn, take_action};
use crate::rules::distance::DiagonalParity;
use crate::rules::economy::Action;
use crate::rules::fight::Fighter;
use crate::rules::fight::saves::roll_saves;
use crate::rules::movement::{self, Mover, Path, Step as PathStep, fit_at};
use crate::rules::siege::{CREW_REACH, Siege, SiegeKind, Step, in_pour, may_crew, push, ram_crew};
use crate::rules::{Cell, Footprint};
use crate::ui::{NearbyWeapon, SiegeView, WeaponCard, capitalized};

/// Siege requests and the siege card, without a window (headless tests add this).
pub(super) fn plugin(app: &mut App) {
    app.add_message::<SiegeRequest>().init_resource::<SiegeCard>().add_systems(
        Update,
        ((apply_siege_requests, apply_pushes).in_set(AppSystems::Apply), build_card.in_set(AppSystems::Show)),
    );
}

/// What the card and the map ask of a siege weapon: `operator` spends its action on `weapon`.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum SiegeRequest {
    /// A load or aim action (a cauldron's fill).
    Work { operator: Entity, weapon: Entity, step: Step },
    /// Pick the weapon to fire (or put it down): the next click on a target fires it.
    PickTarget { operator: Entity, weapon: Entity },
    /// Fire at `target` (a ram strikes it).
    Fire { operator: Entity, weapon: Entity, target: Entity },
    /// Tip a cauldron on the square below it.
    Tip { operator: Entity, weapon: Entity },
}

/// The siege part of the selected token's card, rebuilt when what it shows may have changed.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SiegeCard(pub SiegeView);

/// The creature and the weapon of a request, as the rules read them.
fn pair(all: &Fighters, operator: Entity, weapon: Entity) -> Result<(&Fighter, &Fighter), String> {
    all.of(operator).zip(all.of(weapon)).ok_or_else(|| "no such creature or weapon".to_owned())
}

/// Whether `operator` may take `step` on `weapon` now: beside it, able to act, and the step the
/// weapon needs next.
fn may_take(
    all: &Fighters,
    loaded: &LoadedScenario,
    operator: Entity,
    weapon: Entity,
    step: Step,
) -> Result<Siege, String> {
    let (op, w) = pair(all, operator, weapon)?;
    let siege = may_crew(&all.field(loaded), op, w).map_err(|e| e.to_string())?;
    siege.crewing.check(siege.kind, step).map_err(|e| e.to_string())?;
    Ok(siege)
}

/// The past tense of a step's word, for the crew list: `loaded`, `tipped`, `rammed`.
fn past(verb: &str) -> String {
    match verb {
        "tip" => "tipped".to_owned(),
        "ram" => "rammed".to_owned(),
        "fire" => "fired".to_owned(),
        _ => format!("{verb}ed"),
    }
}

/// Spends `step` on the weapon's component and notes who did it this round; returns its state.
fn record(tokens: &mut FightTokens, weapon: Entity, round: u32, who: &str, step: Step) -> String {
    let Ok(mut token) = tokens.get_mut(weapon) else { return String::new() };
    let Some(w) = token.6.as_mut() else { return String::new() };
    let kind = w.siege.kind;
    // The step was checked before it was paid for, so it can't be refused here.
    let _ = w.siege.crewing.spend(kind, step);
    if w.round != round {
        w.round = round;
        w.crew_this_round.clear();
    }
    w.crew_this_round.push(format!("{who} {}", past(kind.verb(step))));
    w.siege.crewing.state(kind)
}

#[allow(clippy::too_many_arguments)]
fn apply_siege_requests(
    mut requests: MessageReader<SiegeRequest>,
    loaded: Res<LoadedScenario>,
    mut tokens: FightTokens,
    names: Query<&DisplayName>,
    mut inspiration: Query<&mut Inspiration>,
    session: Option<ResMut<Session>>,
    mut mode: ResMut<AttackMode>,
    mut notice: ResMut<Notice>,
    mut actions: Query<&mut Actions>,
    turn: Res<Turn>,
) {
    let Some(mut session) = session else { return };
    let name = |e: Entity| names.get(e).map_or_else(|_| "?".to_owned(), |n| n.0.clone());
    for request in requests.read() {
        let (SiegeRequest::Work { operator, weapon, .. }
        | SiegeRequest::PickTarget { operator, weapon }
        | SiegeRequest::Fire { operator, weapon, .. }
        | SiegeRequest::Tip { operator, weapon }) = *request;
        let who = name(operator);
        let weapon_name = name(weapon);
        let options = tokens.get(operator).map(|t| t.9.sheet.turn.clone()).unwrap_or_default();
        let mut pay = || -> Result<(), String> {
            let mut spent = actions.get_mut(operator).map_err(|_| "no such creature".to_owned())?;
            take_action(&turn, operator, &who, &mut spent, &options, Action::UseAnObject).map(|_| ())
        };
        let all = fighters(&loaded, &tokens);
        let result: Result<String, String> = match *request {
            SiegeRequest::Work { step: Step::Fire, .. } => {
                Err("firing needs a target: use the weapon's fire button, then click the target".to_owned())
            }
            SiegeRequest::Work { step, .. } => may_take(&all, &loaded, operator, weapon, step).and_then(|siege| {
                pay()?;
                let state = record(&mut tokens, weapon, turn.round, &who, step);
                Ok(format!("{who} takes an action to {} {weapon_name}: it is {state}", siege.kind.verb(step)))
            }),
            SiegeRequest::PickTarget { .. } if mode.weapon == Some(weapon) && mode.attacker == Some(operator) => {
                *mode = AttackMode::default();
                Ok(format!("{who} lets go of {weapon_name}"))
            }
            SiegeRequest::PickTarget { .. } => may_take(&all, &loaded, operator, weapon, Step::Fire).and_then(|_| {
                let attack = all.of(weapon).and_then(|w| w.sheet.attacks.first()).ok_or("it has no attack")?;
                *mode =
                    AttackMode { attacker: Some(operator), attack: Some(attack.name.clone()), weapon: Some(weapon) };
                Ok(format!("{who} mans {weapon_name}: hover a target to see the ruling, click to fire"))
            }),
            SiegeRequest::Fire { target, .. } => {
                may_take(&all, &loaded, operator, weapon, Step::Fire).and_then(|siege| {
                    let attack =
                        all.of(weapon).and_then(|w| w.sheet.attacks.first()).ok_or("it has no attack")?.name.clone();
                    let crewed_name =
                        |e: Entity| if e == weapon { format!("{who}'s {}", siege.kind.name()) } else { name(e) };
                    let text = make_attack(
                        &loaded,
                        &mut tokens,
                        &mut session,
                        &mut inspiration,
                        &crewed_name,
                        weapon,
                        target,
                        &attack,
                        "attack",
                        pay,
                    )?;
                    record(&mut tokens, weapon, turn.round, &who, Step::Fire);
                    *mode = AttackMode::default();
                    Ok(text)
                })
            }
            SiegeRequest::Tip { .. } => may_take(&all, &loaded, operator, weapon, Step::Fire).and_then(|siege| {
                let field = all.field(&loaded);
                let cauldron = all.of(weapon).ok_or("no such weapon")?;
                let effect = siege.kind.pour().ok_or_else(|| format!("{weapon_name} doesn't pour"))?;
                let (_, inside) = in_pour(&field, cauldron).map_err(|e| e.to_string())?;
                pay()?;
                let rolled = roll_saves(&field, &inside, &effect, &mut session.dice).map_err(|e| e.to_string())?;
                let source = format!("{who}'s {}", siege.kind.name());
                let summary = apply_saves(&all, &mut tokens, &mut session, &rolled, &effect, &source, "boiling oil");
                record(&mut tokens, weapon, turn.round, &who, Step::Fire);
                let outcome = if summary.is_empty() { "nobody is below".to_owned() } else { summary };
                Ok(format!("{who} tips {weapon_name}: {outcome}"))
            }),
        };
        notice.0 = Some(match result {
            Ok(text) => (text, false),
            Err(why) => (format!("{who} can't work {weapon_name}: {why}"), true),
        });
    }
}

/// A push of a siege weapon: its path, and where each pusher's anchor goes (they walk with it).
pub(crate) struct PushPlan {
    pub path: Path,
    /// Each pusher, its anchor now and after the push.
    pub pushers: Vec<(Entity, Cell, Cell)>,
}

/// How far the DM may move a weapon without crew: across any map.
const DM_PUSH_FEET: u32 = 5000;

/// Plans pushing `weapon` to `to` (`rules::siege::push`): enough crew beside it, a path for its
/// space within half the least movement any of them has left (`feet_left`), and room for each
/// pusher to walk alongside, shifted as the weapon is. The DM (`by_dm`) moves it without crew.
#[allow(clippy::too_many_arguments)]
pub(crate) fn plan_push(
    loaded: &LoadedScenario,
    layout: &BoardLayout,
    tokens: &TokenSpaces,
    all: &Fighters,
    feet_left: impl Fn(Entity) -> u32,
    weapon: Entity,
    to: Cell,
    by_dm: bool,
) -> Result<PushPlan, String> {
    let field = all.field(loaded);
    let w = all.of(weapon).ok_or("no such weapon")?;
    let siege = w.siege.ok_or("not siege equipment")?;
    let crew = push(&field, w, siege.kind, |f| all.entity_of(&f.id).map_or(0, &feet_left));
    let name_of = |id: &str| field.fighter(id).map_or_else(|| id.to_owned(), |f| f.name().to_owned());
    if !by_dm && !crew.crew.enough() {
        return Err(format!("too few to push it: {}", crew.crew.describe(name_of)));
    }
    let walking: Vec<&str> = if by_dm { Vec::new() } else { crew.crew.members.iter().map(String::as_str).collect() };
    let others: Vec<_> =
        occupants(layout, tokens).into_iter().filter(|o| o.id != w.id && !walking.contains(&o.id.as_str())).collect();
    let board = movement::Board { map: &loaded.scenario.map, rule: loaded.scenario.rules.diagonals, others: &others };
    let (_, _, position, size, side, ..) = tokens.get(weapon).map_err(|_| "no such weapon")?;
    let mover = Mover { size: size.size, square_side: size.square_side, side: side.0, crawling: false };
    let budget = if by_dm { DM_PUSH_FEET } else { crew.feet };
    let start = position.0;
    let path = movement::reach(&board, &mover, start, budget, DiagonalParity::default()).path(to).ok_or_else(|| {
        let why = movement::why_not(&board, &mover, start, to, budget, DiagonalParity::default())
            .map_or_else(|| "out of reach".to_owned(), |e| e.to_string());
        format!("{why} (its pushers can move it {budget} ft)")
    })?;
    let shift = (to.x - start.x, to.y - start.y);
    let mut taken: Vec<Cell> = others.iter().flat_map(|o| o.cells.iter().copied()).collect();
    taken.extend(Footprint::of(layout.grid, size.size, size.square_side).at(to));
    let mut pushers = Vec::new();
    for id in walking {
        let entity = all.entity_of(id).ok_or("no such pusher")?;
        let (_, _, at, size, side, ..) = tokens.get(entity).map_err(|_| "no such pusher")?;
        let there = at.0.offset(shift.0, shift.1);
        let cells: Vec<Cell> = Footprint::of(layout.grid, size.size, size.square_side).at(there).collect();
        let pusher = Mover { size: size.size, square_side: size.square_side, side: side.0, crawling: false };
        if fit_at(&loaded.scenario.map, &pusher, there).is_none() || cells.iter().any(|c| taken.contains(c)) {
            return Err(format!("{} can't walk alongside it to {there}", name_of(id)));
        }
        taken.extend(cells);
        pushers.push((entity, at.0, there));
    }
    Ok(PushPlan { path, pushers })
}

/// Pushes the siege weapons dropped by a drag (a [`MoveToken`] for a weapon): the weapon moves,
/// its pushers walk alongside, each paying twice the weapon's cost from its movement. While a
/// fight runs, one of the pushers must be the creature whose turn it is (or the DM moves it).
#[allow(clippy::too_many_arguments)]
fn apply_pushes(
    mut requests: MessageReader<MoveToken>,
    loaded: Res<LoadedScenario>,
    board: Option<Res<Board>>,
    mut spaces: ParamSet<(TokenSpaces, FightTokens, Query<&mut Position>)>,
    mut moves: Query<&mut TurnMoves>,
    names: Query<&DisplayName>,
    turn: Res<Turn>,
    mut notice: ResMut<Notice>,
) {
    let Some(board) = board else { return };
    let name = |e: Entity| names.get(e).map_or_else(|_| "?".to_owned(), |n| n.0.clone());
    for request in requests.read() {
        let all = fighters(&loaded, &spaces.p1());
        if all.of(request.entity).is_none_or(|w| w.siege.is_none()) {
            continue;
        }
        let feet_left = |e: Entity| moves.get(e).map_or(0, |m| m.turn.left());
        let planned =
            plan_push(&loaded, &board.0, &spaces.p0(), &all, feet_left, request.entity, request.to, request.by_dm);
        let plan = match planned {
            Ok(plan) if request.by_dm || !turn.fight_runs() => plan,
            Ok(plan) if plan.pushers.iter().any(|(e, ..)| turn.active == Some(*e)) => plan,
            Ok(_) => {
                let why = "push it on the turn of one of its pushers (or hold Shift to move it as the DM)";
                notice.0 = Some((format!("{} can't be pushed now: {why}", name(request.entity)), true));
                continue;
            }
            Err(why) => {
                notice.0 = Some((format!("{} can't be pushed to {}: {why}", name(request.entity), request.to), true));
                continue;
            }
        };
        let mut positions = spaces.p2();
        if let Ok(mut position) = positions.get_mut(request.entity) {
            position.0 = request.to;
        }
        let cost = plan.path.cost.saturating_mul(2);
        for &(pusher, from, there) in &plan.pushers {
            if let Ok(mut position) = positions.get_mut(pusher) {
                position.0 = there;
            }
            if let Ok(mut walked) = moves.get_mut(pusher) {
                let shift = (there.x - from.x, there.y - from.y);
                let steps = plan
                    .path
                    .steps
                    .iter()
                    .map(|step| PathStep { to: step.to.offset(shift.0, shift.1), cost: step.cost * 2, ..*step })
                    .collect();
                let path = Path { start: from, steps, cost, ..plan.path.clone() };
                walked.turn.take_move(from, &path, false);
            }
        }
        let who: Vec<String> = plan.pushers.iter().map(|(e, ..)| name(*e)).collect();
        let text = if who.is_empty() {
            format!("The DM moves {} to {}", name(request.entity), request.to)
        } else {
            format!("{} push {} {} ft (each pays {cost} ft)", who.join(", "), name(request.entity), plan.path.cost)
        };
        notice.0 = Some((text, false));
    }
}

/// The payload of a weapon in words: `Bolt: +6 to hit, range 120/480 ft, 3d10 piercing`.
fn payload_words(w: &Fighter, siege: Siege) -> Option<String> {
    if let Some(attack) = w.sheet.attacks.first() {
        let only = if attack.objects_only { ", objects only" } else { "" };
        let arc = if attack.indirect { ", high arc over cover" } else { "" };
        return Some(format!(
            "{}: {:+} to hit, {}, {} {}{only}{arc}",
            attack.name,
            attack.bonus,
            attack.reach_words(),
            attack.damage,
            attack.damage_type
        ));
    }
    let effect = siege.kind.pour()?;
    let square = siege.pours_on.map_or_else(|| "no square set".to_owned(), |c| format!("the 10-ft square at {c}"));
    let dice = effect.damage.as_ref().map_or("", |n| n.as_str());
    Some(format!(
        "Boiling oil on {square}: DC {} Dexterity save, {dice} {}, half on a success",
        effect.dc, effect.damage_type
    ))
}

/// The tokens whose change the siege card shows: place, numbers, hit points, conditions, siege
/// state, movement.
type ChangedTokens<'w, 's> = Query<
    'w,
    's,
    (),
    Or<(
        Changed<Position>,
        Changed<Vitals>,
        Changed<HitPoints>,
        Changed<Combatant>,
        Changed<SiegeWeapon>,
        Changed<TurnMoves>,
    )>,
>;

#[allow(clippy::too_many_arguments)]
fn build_card(
    selection: Res<Selection>,
    loaded: Res<LoadedScenario>,
    mut tokens: ParamSet<(FightTokens, ChangedTokens)>,
    moves: Query<&TurnMoves>,
    mode: Res<AttackMode>,
    turn: Res<Turn>,
    mut card: ResMut<SiegeCard>,
) {
    // Rebuilt only when the selection, the board or a token the card reads has changed.
    let stale = selection.is_changed() || loaded.is_changed() || mode.is_changed() || turn.is_changed();
    if !stale && tokens.p1().is_empty() {
        return;
    }
    let tokens = tokens.p0();
    let view = selection.0.and_then(|selected| {
        let all = fighters(&loaded, &tokens);
        let field = all.field(&loaded);
        let me = all.of(selected)?;
        let name_of = |id: &str| field.fighter(id).map_or_else(|| id.to_owned(), |f| f.name().to_owned());
        let mut view = SiegeView::default();
        if let Some(siege) = me.siege {
            let kind = siege.kind;
            let feet_left =
                |f: &Fighter| all.entity_of(&f.id).and_then(|e| moves.get(e).ok()).map_or(0, |m| m.turn.left());
            let pushers = push(&field, me, kind, feet_left);
            let crew_words = pushers.crew.describe(name_of);
            let component = tokens.get(selected).ok().and_then(|t| t.6.cloned());
            view.weapon = Some(WeaponCard {
                kind: capitalized(kind.name()),
                state: siege.crewing.state(kind),
                sequence: kind.sequence(),
                payload: payload_words(me, siege),
                crew_this_round: component
                    .filter(|w| w.round == turn.round)
                    .map(|w| w.crew_this_round)
                    .unwrap_or_default(),
                ram_crew: (kind == SiegeKind::Ram).then(|| ram_crew(&field, me).describe(name_of)),
                push: if pushers.crew.enough() {
                    format!("{crew_words}: it can go {} ft", pushers.feet)
                } else {
                    format!("{crew_words}: too few to move it")
                },
            });
        } else if !me.is_object {
            view.nearby = all
                .list
                .iter()
                .zip(&all.entities)
                .filter(|(w, _)| w.siege.is_some_and(|s| s.kind.is_weapon()))
                .filter(|(w, _)| field.feet_between(me, w) <= CREW_REACH)
                .filter_map(|(w, &entity)| {
                    let siege = w.siege?;
                    let next = siege.crewing.next_step(siege.kind);
                    Some(NearbyWeapon {
                        id: w.id.clone(),
                        name: w.name().to_owned(),
                        state: siege.crewing.state(siege.kind),
                        next: next.map(|step| (step, siege.kind.verb(step).to_owned())),
                        picked: mode.weapon == Some(entity) && mode.attacker == Some(selected),
                        why_not: may_crew(&field, me, w).err().map(|e| e.to_string()),
                    })
                })
                .collect();
        }
        Some(view)
    });
    let view = view.unwrap_or_default();
    if card.0 != view {
        card.0 = view;
    }
}
