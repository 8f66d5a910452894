//! Fights on the map: attacks picked on the creature card and made by clicking a target, the
//! attack card beside the cursor, damage, healing, conditions, death saves and facing, and what
//! the tokens show of them (health bar, "bloodied", condition badges, the facing notch).
//!
//! Every ruling comes from `rules::fight`: this module only builds its [`Fighter`]s from the
//! components, calls it, logs the rolls in the session's log and writes the results back.

use bevy::prelude::*;

use super::AppSystems;
use super::components::*;
use super::dice::{Inspiration, Session};
use super::movement::TurnMoves;
use super::state::{LoadedScenario, Notice, Selection};
use super::turns::{Turn, take_action};
use crate::rules::Footprint;
use crate::rules::conditions::{Condition, DEATH_BY_EXHAUSTION, speed, standing_cost};
use crate::rules::creature::Skill;
use crate::rules::dice::{DiceRoll, Evaluation, LogEntry, RollMode};
use crate::rules::economy::Action;
use crate::rules::facing::turned;
use crate::rules::fight::actions::{HideOutcome, cannot_help_because, hide, search, seen_by};
use crate::rules::fight::adjudicate::{Adjudication, adjudicate, pick_attack};
use crate::rules::fight::resolve::roll_attack;
use crate::rules::fight::saves::{SaveEffect, SavesRolled, creatures_in_area, roll_saves};
use crate::rules::fight::{Field, Fighter, death_save, heal, take_damage};
use crate::rules::health::Life;
use crate::rules::lattice::Point;
use crate::rules::movement::{Fit, Mover, fit_at};
use crate::scenario::TokenKind;

pub(super) mod looks;
pub(super) mod map;

/// The state and requests of a fight, without a window (headless tests add this).
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AttackMode>().add_message::<FightRequest>().add_systems(
        Update,
        (forget_attack_of_others, apply_fight_requests, sync_movement).chain().in_set(AppSystems::Apply),
    );
}

/// The attack the selected creature has picked on its card: a click on a target makes it.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackMode {
    pub attacker: Option<Entity>,
    pub attack: Option<String>,
    /// The siege weapon the attacker crews and fires instead of its own attacks.
    pub weapon: Option<Entity>,
}

impl AttackMode {
    /// The attack picked by `attacker`, if it is the one picking.
    pub fn picked_by(&self, attacker: Option<Entity>) -> Option<&str> {
        self.attack.as_deref().filter(|_| attacker.is_some() && self.attacker == attacker)
    }
}

/// What the card, the keys and the mouse ask of the fight.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum FightRequest {
    /// Pick one of the attacker's attacks (or none) for the next click on a target.
    PickAttack {
        attacker: Entity,
        attack: Option<String>,
    },
    /// Make the attack against the target: adjudicate, roll, apply, log.
    Attack {
        attacker: Entity,
        target: Entity,
        attack: String,
    },
    /// Damage as the DM types it (already after resistances).
    Damage {
        target: Entity,
        amount: i32,
    },
    Heal {
        target: Entity,
        amount: i32,
    },
    TempHp {
        target: Entity,
        amount: i32,
    },
    Condition {
        target: Entity,
        condition: Condition,
        on: bool,
    },
    Exhaustion {
        target: Entity,
        level: u8,
    },
    DeathSave {
        target: Entity,
    },
    Stabilize {
        target: Entity,
    },
    /// Turn to face the next side clockwise or counter-clockwise (DMG "Optional Rule: Facing").
    Turn {
        target: Entity,
        clockwise: bool,
    },
    Dodge {
        target: Entity,
        on: bool,
    },
    /// Stand up from prone: half the speed (PHB "Being Prone").
    StandUp {
        target: Entity,
    },
    /// The Help action: `ally`'s next attack on `target` (within 5 ft of the helper) has advantage.
    Help {
        helper: Entity,
        ally: Entity,
        target: Entity,
    },
    /// The Hide action: a Dexterity (Stealth) check against the enemies' passive Perception.
    Hide {
        who: Entity,
    },
    /// The Search action: a Wisdom (Perception) check that finds hidden enemies.
    Search {
        who: Entity,
    },
    /// Every creature in `cells` saves against `effect`, with cover from `origin`.
    RollSaves {
        cells: Vec<crate::rules::area::CoveredCell>,
        origin: Point,
        effect: SaveEffect,
    },
}

/// The components a fighter is built from, and those a fight changes.
pub(crate) type FightTokens<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static TokenId,
        &'static Position,
        &'static CreatureSize,
        &'static Allegiance,
        &'static Kind,
        Option<&'static mut SiegeWeapon>,
        &'static mut Vitals,
        &'static mut HitPoints,
        &'static mut Combatant,
        Option<&'static mut Facing>,
        Option<&'static Shield>,
    ),
>;

/// Every token as the fight rules read it, with its entity, in the query's order.
pub(crate) struct Fighters {
    pub entities: Vec<Entity>,
    pub list: Vec<Fighter>,
}

impl Fighters {
    /// The fighter of `entity`.
    pub(crate) fn of(&self, entity: Entity) -> Option<&Fighter> {
        self.entities.iter().position(|e| *e == entity).map(|i| &self.list[i])
    }

    /// The entity of the fighter with this id.
    pub(crate) fn entity_of(&self, id: &str) -> Option<Entity> {
        self.list.iter().position(|f| f.id == id).map(|i| self.entities[i])
    }

    /// The fight's board: the scenario's terrain and rules, and these fighters.
    pub(crate) fn field<'a>(&'a self, loaded: &'a LoadedScenario) -> Field<'a> {
        Field::new(&loaded.scenario.map, &self.list, loaded.scenario.fight_rules())
    }

    /// The ruling on `attacker` making `attack` against `target` as the board stands, or why
    /// there is none (no such creature or attack).
    pub(crate) fn ruling(
        &self,
        loaded: &LoadedScenario,
        attacker: Entity,
        target: Entity,
        attack: &str,
    ) -> Result<Adjudication, String> {
        let (Some(a), Some(t)) = (self.of(attacker), self.of(target)) else { return Err("no such creature".into()) };
        let chosen = pick_attack(a, Some(attack)).map_err(|e| e.to_string())?;
        Ok(adjudicate(&self.field(loaded), a, t, chosen))
    }
}

/// Every token as the fight rules read it.
pub(crate) fn fighters(loaded: &LoadedScenario, tokens: &FightTokens) -> Fighters {
    let map = &loaded.scenario.map;
    let grid = loaded.scenario.grid;
    let (entities, list) = tokens
        .iter()
        .map(|(entity, id, position, size, side, kind, siege, vitals, hit_points, combatant, facing, shield)| {
            let mover = Mover { size: size.size, square_side: size.square_side, side: side.0, crawling: false };
            let is_object = kind.0 == TokenKind::Object;
            let mut sheet = combatant.sheet.clone();
            (sheet.ac, sheet.speed, sheet.exhaustion) = (vitals.ac, vitals.speed, vitals.exhaustion);
            let fighter = Fighter {
                id: id.0.clone(),
                sheet,
                cells: Footprint::of(grid, size.size, size.square_side).at(position.0).collect(),
                side: side.0,
                size: size.size,
                is_object,
                conditions: combatant.conditions.clone(),
                facing: facing.map(|f| f.0),
                arcs: combatant.arcs,
                shield: shield.map(|s| s.0),
                squeezing: !is_object && fit_at(map, &mover, position.0) == Some(Fit::Squeezing),
                dodging: combatant.dodging,
                helped_against: combatant.helped_against.clone(),
                health: hit_points.0,
                defenses: combatant.defenses.clone(),
                hidden: combatant.hidden,
                average_damage: combatant.average_damage,
                elevation: combatant.elevation,
                siege: siege.map(|w| w.siege),
            };
            (entity, fighter)
        })
        .unzip();
    Fighters { entities, list }
}

/// A picked attack belongs to the selected creature: selecting another puts it down.
fn forget_attack_of_others(selection: Res<Selection>, mut mode: ResMut<AttackMode>) {
    if mode.attacker.is_some() && mode.attacker != selection.0 {
        *mode = AttackMode::default();
    }
}

/// A roll the log shows without dice: average damage.
fn fixed_roll(what: &str, total: i32) -> DiceRoll {
    DiceRoll {
        notation: what.to_owned(),
        mode: RollMode::Normal,
        evaluations: vec![Evaluation { detail: what.to_owned(), total }],
        total,
    }
}

/// Makes `attacker`'s `attack` against `target`: adjudicates it, pays for it with `pay` (the
/// Attack action, or a reaction) once it may be made, rolls the attack and its damage into the
/// log (`how` names it there: "attack", "opportunity attack", "readied attack"), applies the
/// damage, and returns the notice, or why the attack wasn't made. Attacking gives a hidden
/// attacker away (PHB "Unseen Attackers and Targets").
#[allow(clippy::too_many_arguments)]
pub(crate) fn make_attack(
    loaded: &LoadedScenario,
    tokens: &mut FightTokens,
    session: &mut Session,
    inspiration: &mut Query<&mut Inspiration>,
    name: &impl Fn(Entity) -> String,
    attacker: Entity,
    target: Entity,
    attack: &str,
    how: &str,
    pay: impl FnOnce() -> Result<(), String>,
) -> Result<String, String> {
    let all = fighters(loaded, tokens);
    let mut ruling = all.ruling(loaded, attacker, target, attack)?;
    if let Some(refusal) = &ruling.refusal {
        return Err(format!("{} can't attack: {refusal}", name(attacker)));
    }
    pay()?;
    let inspired = inspiration.get(attacker).is_ok_and(|i| i.spent_on_next_roll);
    if inspired {
        ruling.sources.advantage("inspiration");
    }
    let (Some(target_fighter), Some(attacker_fighter)) = (all.of(target), all.of(attacker)) else {
        return Err("no such creature".into());
    };
    let roll = roll_attack(&ruling, &target_fighter.defenses_now(), attacker_fighter.average_damage, &mut session.dice)
        .map_err(|e| e.to_string())?;
    if inspired && let Ok(mut i) = inspiration.get_mut(attacker) {
        i.spent_on_next_roll = false;
    }
    let who = name(attacker);
    let victim = name(target);
    let why = |what: &str| {
        if ruling.sources.is_empty() { what.to_owned() } else { format!("{what}; {}", ruling.sources.describe()) }
    };
    session.log.entries.push(LogEntry {
        who: who.clone(),
        reason: why(&format!("{} {how} on {victim}: {}", ruling.attack.name, roll.outcome.word())),
        roll: roll.roll.clone(),
        hidden: false,
    });
    let mut text = match how {
        "attack" => format!("{who} attacks {victim} with {}: {}", ruling.attack.name, roll.describe()),
        _ => format!("{who}'s {how} on {victim} with {}: {}", ruling.attack.name, roll.describe()),
    };
    if let Some(damage) = &roll.damage {
        let critical = roll.outcome == crate::rules::attack::Outcome::Critical;
        let dice_roll = damage.roll.clone().map_or_else(
            || fixed_roll(&format!("average {}", damage.rolled), damage.rolled),
            |mut r| {
                if let Some(average) = damage.average {
                    r.notation = format!("{average} + {}", r.notation);
                    r.total = damage.rolled;
                }
                r
            },
        );
        let crit = if critical { ", critical hit" } else { "" };
        session.log.entries.push(LogEntry {
            who: who.clone(),
            reason: format!("{} damage to {victim}{crit}: {} {}", ruling.attack.name, damage.dealt.amount, damage.kind),
            roll: dice_roll,
            hidden: false,
        });
        if let Ok((.., mut hit_points, mut combatant, _, _)) = tokens.get_mut(target) {
            let combatant = &mut *combatant;
            let taken = take_damage(&mut hit_points.0, &mut combatant.conditions, damage.dealt.amount, critical);
            text = format!("{text}; {victim} {}", taken.describe());
        }
    }
    if let Ok((.., mut combatant, _, _)) = tokens.get_mut(attacker) {
        if combatant.helped_against.as_deref() == Some(ruling.target.as_str()) {
            combatant.helped_against = None;
            combatant.helped_by = None;
        }
        if combatant.hidden.take().is_some() {
            text = format!("{text}; {who} is no longer hidden");
        }
    }
    Ok(text)
}

/// Takes `action` (Hide or Search) from `who`'s turn and rolls the check it calls for:
/// Dexterity (Stealth) to hide, Wisdom (Perception) to search (PHB "Hide", "Search").
fn check_for_action(
    turn: &Turn,
    actions: &mut Query<&mut Actions>,
    who: Entity,
    fighter: &Fighter,
    action: Action,
    dice: &mut crate::rules::dice::SeededDice,
) -> Result<DiceRoll, String> {
    let mut economy = actions.get_mut(who).map_err(|_| "no such creature".to_owned())?;
    take_action(turn, who, fighter.name(), &mut economy, &fighter.sheet.turn, action)?;
    let skill = if action == Action::Hide { Skill::Stealth } else { Skill::Perception };
    let bonus = fighter.sheet.skill_bonus(skill);
    dice.roll(&format!("1d20{bonus:+}"), RollMode::Normal).map_err(|e| e.to_string())
}

#[allow(clippy::too_many_arguments)]
fn apply_fight_requests(
    mut requests: MessageReader<FightRequest>,
    loaded: Res<LoadedScenario>,
    mut tokens: FightTokens,
    names: Query<&DisplayName>,
    mut inspiration: Query<&mut Inspiration>,
    mut moves: Query<&mut TurnMoves>,
    session: Option<ResMut<Session>>,
    mut mode: ResMut<AttackMode>,
    mut notice: ResMut<Notice>,
    mut actions: Query<&mut Actions>,
    turn: Res<Turn>,
    pcs: Query<(), With<PlayerCharacter>>,
) {
    let Some(mut session) = session else { return };
    let name = |e: Entity| names.get(e).map_or_else(|_| "?".to_owned(), |n| n.0.clone());
    let grid = loaded.scenario.grid;
    for request in requests.read() {
        match request {
            FightRequest::PickAttack { attacker, attack } => {
                *mode = AttackMode { attacker: Some(*attacker), attack: attack.clone(), weapon: None };
                if let Some(attack) = attack {
                    let text = format!(
                        "{}: {attack} picked. Hover a target to see the ruling, click to attack",
                        name(*attacker)
                    );
                    notice.0 = Some((text, false));
                }
            }
            FightRequest::Attack { attacker, target, attack } => {
                let who = name(*attacker);
                if tokens.get(*attacker).is_ok_and(|t| t.6.is_some()) {
                    let why = "a siege weapon fires through its crew: select a creature beside it and use its card";
                    notice.0 = Some((format!("{who} can't attack alone: {why}"), true));
                    continue;
                }
                let options = tokens.get(*attacker).map(|t| t.9.sheet.turn.clone()).unwrap_or_default();
                let pay = || {
                    let mut actions = actions.get_mut(*attacker).map_err(|_| "no such creature".to_owned())?;
                    if let Some(why) = turn.not_yours(*attacker, &who) {
                        return Err(format!("{who} can't attack: {why}"));
                    }
                    actions.0.attack(&options).map_err(|e| format!("{who} can't attack: {e}"))
                };
                let result = make_attack(
                    &loaded,
                    &mut tokens,
                    &mut session,
                    &mut inspiration,
                    &name,
                    *attacker,
                    *target,
                    attack,
                    "attack",
                    pay,
                );
                notice.0 = Some(match result {
                    Ok(text) => (text, false),
                    Err(text) => (text, true),
                });
            }
            FightRequest::Damage { target, amount } => {
                let Ok((.., mut hit_points, mut combatant, _, _)) = tokens.get_mut(*target) else { continue };
                let taken = take_damage(&mut hit_points.0, &mut combatant.conditions, *amount, false);
                notice.0 = Some((format!("{} {}", name(*target), taken.describe()), false));
            }
            FightRequest::Heal { target, amount } => {
                let Ok((.., vitals, mut hit_points, mut combatant, _, _)) = tokens.get_mut(*target) else { continue };
                let max = crate::rules::conditions::exhausted_max_hp(hit_points.0.max_hp, vitals.exhaustion);
                let regained = heal(&mut hit_points.0, &mut combatant.conditions, *amount, max);
                notice.0 = Some((format!("{} regains {regained} hit points", name(*target)), false));
            }
            FightRequest::TempHp { target, amount } => {
                let Ok((.., mut hit_points, _, _, _)) = tokens.get_mut(*target) else { continue };
                hit_points.0.give_temp_hp(*amount);
                notice.0 =
                    Some((format!("{} has {} temporary hit points", name(*target), hit_points.0.temp_hp), false));
            }
            FightRequest::Condition { target, condition, on } => {
                let Ok((.., mut combatant, _, _)) = tokens.get_mut(*target) else { continue };
                combatant.conditions.set(*condition, *on);
                let now = if *on { "is now" } else { "is no longer" };
                notice.0 = Some((format!("{} {now} {}", name(*target), condition.name()), false));
            }
            FightRequest::Exhaustion { target, level } => {
                let Ok((.., mut vitals, mut hit_points, _, _, _)) = tokens.get_mut(*target) else { continue };
                vitals.exhaustion = (*level).min(DEATH_BY_EXHAUSTION);
                if vitals.exhaustion >= DEATH_BY_EXHAUSTION {
                    hit_points.0.life = Life::Dead;
                }
                notice.0 = Some((format!("{} has exhaustion {}", name(*target), vitals.exhaustion), false));
            }
            FightRequest::DeathSave { target } => {
                let Ok((.., mut hit_points, mut combatant, _, _)) = tokens.get_mut(*target) else { continue };
                if hit_points.0.life != Life::Dying {
                    notice.0 = Some((format!("{} isn't dying", name(*target)), true));
                    continue;
                }
                let Ok(roll) = session.dice.roll("1d20", RollMode::Normal) else { continue };
                let result = death_save(&mut hit_points.0, &mut combatant.conditions, roll.total);
                let said = result.map_or("", |r| r.word());
                let tally = hit_points.0.death_saves;
                session.log.entries.push(LogEntry {
                    who: name(*target),
                    reason: format!("death saving throw: {said}"),
                    roll,
                    hidden: false,
                });
                notice.0 = Some((
                    format!(
                        "{}: {said} ({} successes, {} failures; {})",
                        name(*target),
                        tally.successes,
                        tally.failures,
                        hit_points.0.life.word()
                    ),
                    false,
                ));
            }
            FightRequest::Stabilize { target } => {
                let Ok((.., mut hit_points, _, _, _)) = tokens.get_mut(*target) else { continue };
                if hit_points.0.stabilize() {
                    notice.0 = Some((format!("{} is stable", name(*target)), false));
                }
            }
            FightRequest::Turn { target, clockwise } => {
                let who = name(*target);
                let Ok((.., Some(mut facing), _)) = tokens.get_mut(*target) else {
                    notice.0 = Some((format!("{who} faces no way (give it `facing` in the scene)"), true));
                    continue;
                };
                // Out of its turn, a creature turns only as its reaction, when another creature
                // has moved (DMG "Optional Rule: Facing").
                let mut how = "";
                if turn.not_yours(*target, &who).is_some() {
                    if !turn.movers.iter().any(|m| m != target) {
                        let text =
                            format!("{who} can turn out of its turn only as a reaction when another creature moves");
                        notice.0 = Some((text, true));
                        continue;
                    }
                    let reacted = match actions.get_mut(*target) {
                        Ok(mut a) => a.0.react().map_err(|e| e.to_string()),
                        Err(_) => Err("no such creature".to_owned()),
                    };
                    if let Err(error) = reacted {
                        notice.0 = Some((format!("{who} can't turn: {error}"), true));
                        continue;
                    }
                    how = " (its reaction)";
                }
                facing.0 = turned(grid, facing.0, *clockwise);
                notice.0 = Some((format!("{who} faces {:?}{how}", facing.0), false));
            }
            FightRequest::Dodge { target, on } => {
                let Ok((.., mut combatant, _, _)) = tokens.get_mut(*target) else { continue };
                combatant.dodging = *on;
                let text = if *on { "takes the Dodge action" } else { "stops dodging" };
                notice.0 = Some((format!("{} {text}", name(*target)), false));
            }
            FightRequest::StandUp { target } => {
                let Ok((.., vitals, _, mut combatant, _, _)) = tokens.get_mut(*target) else { continue };
                if !combatant.conditions.has(Condition::Prone) {
                    continue;
                }
                let cost = standing_cost(speed(vitals.speed, &combatant.conditions, vitals.exhaustion).feet);
                let Ok(mut m) = moves.get_mut(*target) else { continue };
                if m.turn.left() < cost {
                    notice.0 = Some((
                        format!("{} needs {cost} ft to stand and has {} ft left", name(*target), m.turn.left()),
                        true,
                    ));
                    continue;
                }
                m.turn.spent += cost;
                combatant.conditions.set(Condition::Prone, false);
                notice.0 = Some((format!("{} stands up for {cost} ft", name(*target)), false));
            }
            FightRequest::Help { helper, ally, target } => {
                let all = fighters(&loaded, &tokens);
                let field = all.field(&loaded);
                let (Some(h), Some(a), Some(t)) = (all.of(*helper), all.of(*ally), all.of(*target)) else { continue };
                let who = name(*helper);
                if let Some(why) = cannot_help_because(&field, h, a, t) {
                    notice.0 = Some((format!("{who} can't help: {why}"), true));
                    continue;
                }
                let Ok(mut economy) = actions.get_mut(*helper) else { continue };
                if let Err(why) = take_action(&turn, *helper, &who, &mut economy, &h.sheet.turn, Action::Help) {
                    notice.0 = Some((why, true));
                    continue;
                }
                let (target_id, target_name, ally_name) = (t.id.clone(), t.name().to_owned(), a.name().to_owned());
                if let Ok((.., mut combatant, _, _)) = tokens.get_mut(*ally) {
                    combatant.helped_against = Some(target_id);
                    combatant.helped_by = Some(*helper);
                }
                let text = format!("{who} helps {ally_name}: its next attack on {target_name} has advantage");
                notice.0 = Some((text, false));
            }
            FightRequest::Hide { who } => {
                let all = fighters(&loaded, &tokens);
                let field = all.field(&loaded);
                let Some(hider) = all.of(*who) else { continue };
                let hider_name = hider.name().to_owned();
                let seen: Vec<&str> = seen_by(&field, hider).iter().map(|f| f.name()).collect();
                if !seen.is_empty() {
                    let text = format!("{hider_name} can't hide: {} can see it clearly", seen.join(", "));
                    notice.0 = Some((text, true));
                    continue;
                }
                let roll = match check_for_action(&turn, &mut actions, *who, hider, Action::Hide, &mut session.dice) {
                    Ok(roll) => roll,
                    Err(why) => {
                        notice.0 = Some((why, true));
                        continue;
                    }
                };
                let outcome = hide(&field, hider, roll.total);
                let pc = pcs.contains(*who);
                // A monster's Stealth total is the DM's: the players read only the outcome.
                let (word, text) = match &outcome {
                    HideOutcome::Hidden { stealth, .. } if pc => {
                        ("hidden", format!("{hider_name} hides (Stealth {stealth})"))
                    }
                    HideOutcome::Hidden { .. } => ("hidden", format!("{hider_name} hides")),
                    HideOutcome::Noticed { stealth, against, noticed_by } if pc => (
                        "noticed",
                        format!(
                            "{hider_name} fails to hide: Stealth {stealth} against {noticed_by}'s passive Perception {against}"
                        ),
                    ),
                    HideOutcome::Noticed { noticed_by, .. } => {
                        ("noticed", format!("{hider_name} fails to hide from {noticed_by}"))
                    }
                };
                session.log.entries.push(LogEntry {
                    who: hider_name,
                    reason: format!("Dexterity (Stealth) to hide: {word}"),
                    roll,
                    hidden: !pc,
                });
                if let (HideOutcome::Hidden { stealth, .. }, Ok((.., mut combatant, _, _))) =
                    (outcome, tokens.get_mut(*who))
                {
                    combatant.hidden = Some(stealth);
                }
                notice.0 = Some((text, false));
            }
            FightRequest::Search { who } => {
                let all = fighters(&loaded, &tokens);
                let field = all.field(&loaded);
                let Some(searcher) = all.of(*who) else { continue };
                let searcher_name = searcher.name().to_owned();
                let roll =
                    match check_for_action(&turn, &mut actions, *who, searcher, Action::Search, &mut session.dice) {
                        Ok(roll) => roll,
                        Err(why) => {
                            notice.0 = Some((why, true));
                            continue;
                        }
                    };
                let found: Vec<(String, String)> =
                    search(&field, searcher, roll.total).iter().map(|f| (f.id.clone(), f.name().to_owned())).collect();
                session.log.entries.push(LogEntry {
                    who: searcher_name.clone(),
                    reason: format!("Wisdom (Perception) to search: {} found", found.len()),
                    roll,
                    hidden: false,
                });
                for (id, _) in &found {
                    if let Some(entity) = all.entity_of(id)
                        && let Ok((.., mut combatant, _, _)) = tokens.get_mut(entity)
                    {
                        combatant.hidden = None;
                    }
                }
                let names: Vec<&str> = found.iter().map(|(_, n)| n.as_str()).collect();
                let text = if names.is_empty() {
                    format!("{searcher_name} searches and finds no one")
                } else {
                    format!("{searcher_name} searches and finds {}", names.join(", "))
                };
                notice.0 = Some((text, false));
            }
            FightRequest::RollSaves { cells, origin, effect } => {
                let all = fighters(&loaded, &tokens);
                let field = all.field(&loaded);
                let inside = creatures_in_area(&field, cells, *origin);
                let rolled = match roll_saves(&field, &inside, effect, &mut session.dice) {
                    Ok(rolled) => rolled,
                    Err(error) => {
                        notice.0 = Some((error.to_string(), true));
                        continue;
                    }
                };
                let summary = apply_saves(&all, &mut tokens, &mut session, &rolled, effect, "The DM", "area damage");
                let text = if summary.is_empty() { "No creature is inside".to_owned() } else { summary };
                notice.0 = Some((text, false));
            }
        }
    }
}

/// Logs the damage roll (as `who`, for `what`) and every save, deals each creature its damage, and
/// returns the outcome in a few words: `Brom fails (12), Lia saves (6)`.
pub(crate) fn apply_saves(
    all: &Fighters,
    tokens: &mut FightTokens,
    session: &mut Session,
    rolled: &SavesRolled,
    effect: &SaveEffect,
    who: &str,
    what: &str,
) -> String {
    if let Some(roll) = &rolled.damage_roll {
        let reason = format!("{what} ({})", effect.damage_type);
        session.log.entries.push(LogEntry { who: who.to_owned(), reason, roll: roll.clone(), hidden: false });
    }
    let mut summary = Vec::new();
    for result in &rolled.results {
        let Some(entity) = all.entity_of(&result.id) else { continue };
        let verdict = if result.success { "saves" } else { "fails" };
        if let Some(roll) = &result.roll {
            let reason = format!("{} save DC {}: {verdict}", effect.ability.name(), effect.dc);
            session.log.entries.push(LogEntry { who: result.name.clone(), reason, roll: roll.clone(), hidden: false });
        }
        let taken = result.damage.as_ref().map_or(0, |d| d.amount);
        if let Ok((.., mut hit_points, mut combatant, _, _)) = tokens.get_mut(entity)
            && taken > 0
        {
            take_damage(&mut hit_points.0, &mut combatant.conditions, taken, false);
        }
        summary.push(match (&result.note, &result.roll) {
            (Some(note), None) if result.success => format!("{} {note}", result.name),
            (Some(note), None) => format!("{} fails ({taken}: {note})", result.name),
            _ => format!("{} {verdict} ({taken})", result.name),
        });
    }
    summary.join(", ")
}

/// Movement follows the conditions (PHB appendix A; "Being Prone"): the turn's speed is what the
/// conditions and exhaustion leave (0 while grappled or restrained), and a prone creature crawls.
fn sync_movement(mut tokens: Query<(&Vitals, &Combatant, &mut TurnMoves), Or<(Changed<Combatant>, Changed<Vitals>)>>) {
    for (vitals, combatant, mut moves) in &mut tokens {
        let feet = speed(vitals.speed, &combatant.conditions, vitals.exhaustion).feet;
        let crawling = combatant.conditions.has(Condition::Prone);
        if moves.turn.speed != feet || moves.crawling != crawling {
            moves.turn.speed = feet;
            moves.crawling = crawling;
        }
    }
}
