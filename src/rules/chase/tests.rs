//! Tests of the chase rules, each citing the DMG text it checks. Rolls the test needs to control
//! are set with `force_next_roll`, the DM's override.

use super::roster::Roster;
use super::*;
use crate::rules::attack::Outcome;
use crate::rules::creature::{Abilities, Ability, Attack, Side, Skill};
use crate::rules::initiative::Entry;
use crate::rules::sight::CoverDegree;
use crate::rules::tables::RangeError;

fn sheet(name: &str, speed: u32, con: i8) -> Sheet {
    Sheet {
        name: name.to_owned(),
        speed,
        ac: 12,
        hp: 20,
        abilities: Abilities { con, ..Abilities::default() },
        ..Sheet::default()
    }
}

fn entrant(id: &str, role: Role, position: i32) -> Entrant {
    Entrant { id: id.to_owned(), sheet: sheet(id, 30, 0), role, position, conditions: Default::default() }
}

/// Starts a chase whose initiative is the order the entrants are given in.
fn start(entrants: Vec<Entrant>, rules: ChaseRules) -> (Chase, SeededDice) {
    let mut existing = InitiativeOrder::default();
    for (i, e) in entrants.iter().enumerate() {
        existing.insert(Entry { id: e.id.clone(), initiative: 20 - i as i32, ..Entry::default() });
    }
    let mut dice = SeededDice::new(11);
    let chase = Chase::start("test", rules, entrants, Some(&existing), &mut dice).expect("a valid chase");
    (chase, dice)
}

/// A thief 40 ft ahead of a guard, thief first in initiative.
fn thief_and_guard(rules: ChaseRules) -> (Chase, SeededDice) {
    start(vec![entrant("thief", Role::Quarry, 40), entrant("guard", Role::Pursuer, 0)], rules)
}

/// Begins the thief's turn facing row `d20` of `table`, rolled by the guard.
fn facing(table: ComplicationTable, d20: u32) -> (Chase, SeededDice) {
    let complication = table.row(d20).expect("a row").clone();
    let (mut chase, mut dice) = thief_and_guard(ChaseRules { table, ..ChaseRules::default() });
    chase.pending.push(Pending { roller: "guard".into(), affected: "thief".into(), d20, complication });
    chase.begin_turn(&mut dice).expect("the thief's turn");
    (chase, dice)
}

/// Meets the complication with a forced test result, and returns the turn.
fn attempt(chase: &mut Chase, dice: &mut SeededDice, test_total: i32, option: usize) -> Turn {
    chase.force_next_roll(test_total);
    chase.resolve_complication(Resolution::Attempt { option }, dice).expect("resolves");
    chase.turn.clone().expect("still its turn")
}

/// Whether the chase logged an event of this kind.
fn has(chase: &Chase, kind: impl Fn(&EventKind) -> bool) -> bool {
    chase.events.iter().any(|e| kind(&e.kind))
}

fn thief(chase: &Chase) -> &Participant {
    chase.participant("thief").expect("thief")
}

#[test]
fn both_dmg_tables_validate_with_twenty_results() {
    for table in [ComplicationTable::urban(), ComplicationTable::wilderness()] {
        table.validate().unwrap_or_else(|e| panic!("{}: {e}", table.name));
        assert!((1..=10).all(|d| !table.row(d).expect("row").is_none()), "{}", table.name);
        assert!((11..=20).all(|d| table.row(d).expect("row").is_none()), "{}", table.name);
        assert!(table.rows.iter().all(|r| !r.text.is_empty()), "the text comes from the rules");
    }
}

/// Urban 1, 2 and 4: "On a failed check, the obstacle counts as 10 feet of difficult terrain";
/// the check meets its DC exactly or fails one short.
#[test]
fn urban_obstacles_cost_ten_feet_on_a_failure_only() {
    for (row, dc) in [(1, 15), (2, 10), (4, 10)] {
        let (mut chase, mut dice) = facing(ComplicationTable::urban(), row);
        assert_eq!(attempt(&mut chase, &mut dice, dc, 0).lost, 0, "row {row}: meets DC {dc}");
        let (mut chase, mut dice) = facing(ComplicationTable::urban(), row);
        assert_eq!(attempt(&mut chase, &mut dice, dc - 1, 0).lost, 10, "row {row}: fails");
        assert_eq!(chase.movement_left(), 20);
    }
    // Row 4's second choice is an Intelligence check.
    let (mut chase, mut dice) = facing(ComplicationTable::urban(), 4);
    attempt(&mut chase, &mut dice, 3, 1);
    assert!(has(
        &chase,
        |k| matches!(k, EventKind::Test { dc: 10, label, passed: false, .. } if label == "Intelligence check")
    ));
}

/// Urban 3 and 5: "you fall prone"; standing up costs half the speed (PHB "Being Prone").
#[test]
fn urban_barrier_and_slippery_ground_knock_prone() {
    for row in [3, 5] {
        let (mut chase, mut dice) = facing(ComplicationTable::urban(), row);
        assert_eq!(attempt(&mut chase, &mut dice, 9, 0).lost, 15, "row {row}");
        let (mut chase, mut dice) = facing(ComplicationTable::urban(), row);
        assert_eq!(attempt(&mut chase, &mut dice, 10, 0).lost, 0, "row {row}");
    }
    let (chase, _) = facing(ComplicationTable::urban(), 3);
    assert_eq!(
        chase.turn.and_then(|t| t.complication).and_then(|c| c.complication.test).map(|t| t.name()),
        Some("DC 10 Strength saving throw".to_owned())
    );
}

/// Urban 6 and 7: bitten or beaten, and slowed.
#[test]
fn urban_dogs_and_brawl_deal_damage_and_slow() {
    let (mut chase, mut dice) = facing(ComplicationTable::urban(), 6);
    chase.force_next_roll(9);
    chase.force_next_roll(3);
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("resolves");
    assert_eq!((thief(&chase).hp, chase.turn.as_ref().map(|t| t.lost)), (17, Some(5)));
    let (mut chase, mut dice) = facing(ComplicationTable::urban(), 7);
    chase.force_next_roll(14);
    chase.force_next_roll(6);
    chase.resolve_complication(Resolution::Attempt { option: 2 }, &mut dice).expect("resolves");
    assert_eq!((thief(&chase).hp, chase.turn.as_ref().map(|t| t.lost)), (14, Some(10)));
    let intimidation =
        |k: &EventKind| matches!(k, EventKind::Test { label, .. } if label == "Charisma (Intimidation) check");
    assert!(has(&chase, intimidation), "the third choice");
}

/// Urban 8: "You succeed automatically if you toss the beggar a coin."
#[test]
fn urban_beggar_takes_a_coin_or_five_feet() {
    let (mut chase, mut dice) = facing(ComplicationTable::urban(), 8);
    chase.resolve_complication(Resolution::Alternative, &mut dice).expect("a coin");
    assert_eq!(chase.turn.as_ref().map(|t| t.lost), Some(0));
    assert!(
        chase.events.iter().all(|e| e.roll.is_none() || matches!(e.kind, EventKind::RollsInitiative { .. })),
        "no roll"
    );
    assert!(has(&chase, |k| matches!(k, EventKind::CoinTossed { id } if id == "thief")));
    let (mut chase, mut dice) = facing(ComplicationTable::urban(), 8);
    assert_eq!(attempt(&mut chase, &mut dice, 9, 0).lost, 5);
}

/// Urban 9: "If you move 20 feet or more on your turn, the guard makes an opportunity attack
/// against you with a spear (+3 to hit; 1d6 + 1 piercing damage on a hit)."
#[test]
fn urban_guard_attacks_only_after_twenty_feet() {
    let (mut chase, mut dice) = facing(ComplicationTable::urban(), 9);
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("resolves");
    chase.move_by(15).expect("moves");
    chase.end_turn(&mut dice).expect("ends");
    assert_eq!(thief(&chase).hp, 20);
    assert!(has(&chase, |k| matches!(k, EventKind::LetsGo { moved: 15, .. })));

    let (mut chase, mut dice) = facing(ComplicationTable::urban(), 9);
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("resolves");
    chase.move_by(20).expect("moves");
    chase.force_next_roll(12); // meets AC 12
    chase.force_next_roll(5);
    chase.end_turn(&mut dice).expect("ends");
    assert_eq!(thief(&chase).hp, 15);
}

/// Urban 10: "On a failed save, you collide with something hard and take 1d4 bludgeoning damage."
#[test]
fn urban_sharp_turn_hurts_on_a_failed_save() {
    let (mut chase, mut dice) = facing(ComplicationTable::urban(), 10);
    chase.force_next_roll(2);
    chase.force_next_roll(4);
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("resolves");
    assert_eq!(thief(&chase).hp, 16);
    assert_eq!(chase.movement_left(), 30, "no movement lost");
}

/// Wilderness 1, 2 and 4: brush (5 ft), uneven ground and a stream (10 ft).
#[test]
fn wilderness_ground_costs_its_feet() {
    for (row, feet) in [(1, 5), (2, 10), (4, 10)] {
        let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), row);
        assert_eq!(attempt(&mut chase, &mut dice, 9, 0).lost, feet, "row {row}");
        let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), row);
        assert_eq!(attempt(&mut chase, &mut dice, 10, 0).lost, 0, "row {row}");
    }
}

/// Wilderness 3: "The swarm makes an opportunity attack against you (+3 to hit; 4d4 piercing
/// damage on a hit)": no test, at once.
#[test]
fn wilderness_swarm_attacks_at_once() {
    let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), 3);
    chase.force_next_roll(11); // misses AC 12
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("resolves");
    assert_eq!(thief(&chase).hp, 20);
    let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), 3);
    chase.force_next_roll(15);
    chase.force_next_roll(10);
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("resolves");
    assert_eq!(thief(&chase).hp, 10);
    assert!(chase.events.iter().any(|e| e.roll.as_ref().is_some_and(|r| r.who == "a swarm of insects")));
}

/// Wilderness 5: blinded until the end of the turn, speed halved; a blinded lead pursuer loses
/// sight of the quarry.
#[test]
fn wilderness_blowing_sand_blinds_and_halves_speed() {
    let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), 5);
    attempt(&mut chase, &mut dice, 9, 0);
    assert_eq!(chase.movement_left(), 15);
    chase.dash().expect("dash");
    assert_eq!(chase.movement_left(), 30, "Dash adds the halved speed");

    let complication = ComplicationTable::wilderness().row(5).expect("row").clone();
    let (mut chase, mut dice) =
        thief_and_guard(ChaseRules { table: ComplicationTable::wilderness(), ..ChaseRules::default() });
    chase.pending.push(Pending { roller: "thief".into(), affected: "guard".into(), d20: 5, complication });
    chase.begin_turn(&mut dice).expect("thief");
    chase.force_next_roll(20); // no complication of its own over the one set up
    chase.end_turn(&mut dice).expect("thief ends");
    chase.begin_turn(&mut dice).expect("guard");
    assert!(!chase.out_of_sight.contains("thief"));
    attempt(&mut chase, &mut dice, 2, 0);
    assert!(chase.out_of_sight.contains("thief"), "the blinded lead pursuer loses sight");
}

/// Wilderness 6: "you fall 1d4 × 5 feet, taking 1d6 bludgeoning damage per 10 feet fallen as
/// normal, and land prone."
#[test]
fn wilderness_sudden_drop_falls_and_lands_prone() {
    let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), 6);
    for total in [3, 3, 4] {
        chase.force_next_roll(total); // the save, 1d4 = 3 (15 ft), 1d6 = 4
    }
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("resolves");
    assert_eq!(thief(&chase).hp, 16);
    assert_eq!(chase.turn.as_ref().map(|t| t.lost), Some(15), "prone: half speed to stand");
    assert!(has(&chase, |k| matches!(k, EventKind::Falls { id, feet: 15 } if id == "thief")));
    assert!(has(&chase, |k| matches!(k, EventKind::Damage { amount: 4, from_fall: true, .. })));
}

/// Wilderness 7: restrained in a net; speed 0; the action and a DC 10 Strength check free it.
#[test]
fn wilderness_snare_restrains_until_broken() {
    let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), 7);
    attempt(&mut chase, &mut dice, 14, 0);
    assert!(thief(&chase).restrained);
    assert_eq!(chase.movement_left(), 0);
    assert!(chase.dash().is_err());
    chase.force_next_roll(10);
    assert_eq!(chase.break_free(&mut dice), Ok(true));
    assert_eq!(chase.movement_left(), 30, "free, it moves; the action is spent");
    assert_eq!(chase.dash(), Err(ChaseError::ActionUsed));
}

/// Wilderness 8: 1d4 bludgeoning and 1d4 piercing.
#[test]
fn wilderness_stampede_deals_two_kinds_of_damage() {
    let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), 8);
    for total in [5, 2, 3] {
        chase.force_next_roll(total);
    }
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("resolves");
    assert_eq!(thief(&chase).hp, 15);
    let kinds: Vec<(i32, String)> = chase
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Damage { amount, kind, .. } => Some((*amount, kind.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, [(2, "bludgeoning".to_owned()), (3, "piercing".to_owned())]);
}

/// Wilderness 9: "Make a DC 15 Dexterity saving throw or use 10 feet of movement (your choice)".
#[test]
fn wilderness_razorvine_costs_ten_feet_or_a_save() {
    let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), 9);
    chase.resolve_complication(Resolution::Alternative, &mut dice).expect("goes round");
    assert_eq!((chase.movement_left(), thief(&chase).hp), (20, 20));
    let (mut chase, mut dice) = facing(ComplicationTable::wilderness(), 9);
    chase.force_next_roll(14);
    chase.force_next_roll(7);
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("saves");
    assert_eq!((chase.movement_left(), thief(&chase).hp), (30, 13));
}

/// Wilderness 10: a creature of the area chases the affected participant: a pursuer becomes a
/// quarry (DMG "Role Reversal"), with the newcomer rolling initiative.
#[test]
fn wilderness_local_creature_joins_and_reverses_a_role() {
    let complication = ComplicationTable::wilderness().row(10).expect("row").clone();
    let wolf = sheet("Wolf", 40, 1);
    let rules = ChaseRules {
        table: ComplicationTable::wilderness(),
        local_creature: Some(("wolf".into(), wolf)),
        ..ChaseRules::default()
    };
    let (mut chase, mut dice) = thief_and_guard(rules);
    chase.pending.push(Pending { roller: "thief".into(), affected: "guard".into(), d20: 10, complication });
    chase.begin_turn(&mut dice).expect("thief");
    chase.force_next_roll(20); // no complication of its own over the one set up
    chase.end_turn(&mut dice).expect("thief ends");
    chase.begin_turn(&mut dice).expect("guard");
    chase.resolve_complication(Resolution::Attempt { option: 0 }, &mut dice).expect("resolves");
    assert_eq!(chase.roles("guard"), vec![Role::Quarry, Role::Pursuer]);
    assert_eq!(chase.pursuits[1], Pursuit { quarry: vec!["guard".into()], pursuers: vec!["wolf".into()] });
    assert!(chase.order.entry("wolf").is_some(), "the wolf rolled initiative");
    assert_eq!(chase.participant("wolf").map(|w| w.position), Some(-LOCAL_CREATURE_BEHIND_FEET));
}

/// "The participant who rolled the die or the participant affected by the complication can spend
/// inspiration to negate the complication."
#[test]
fn inspiration_of_either_participant_negates() {
    let (mut chase, mut dice) = facing(ComplicationTable::urban(), 7);
    assert!(chase.resolve_complication(Resolution::Negate { by: "thief".into() }, &mut dice).is_err(), "none to spend");
    chase.participants.iter_mut().for_each(|p| p.inspiration = p.id == "guard");
    chase.resolve_complication(Resolution::Negate { by: "guard".into() }, &mut dice).expect("the roller spends it");
    assert!(chase.turn.as_ref().is_some_and(|t| t.complication.is_none() && t.lost == 0));
    assert!(!chase.participant("guard").expect("guard").inspiration);
    assert_eq!(thief(&chase).hp, 20);
}

/// "It affects the next chase participant in the initiative order, not the participant who
/// rolled the die", wrapping from the last to the first.
#[test]
fn a_complication_falls_on_the_next_in_initiative() {
    let (mut chase, mut dice) = start(
        vec![entrant("a", Role::Quarry, 60), entrant("b", Role::Pursuer, 0), entrant("c", Role::Pursuer, 10)],
        ChaseRules::default(),
    );
    for (roller, affected) in [("a", "b"), ("b", "c"), ("c", "a")] {
        chase.begin_turn(&mut dice).expect("turn");
        assert_eq!(chase.turn.as_ref().map(|t| t.id.as_str()), Some(roller));
        if let Some(t) = chase.turn.as_mut() {
            t.complication = None;
        }
        chase.force_next_roll(1);
        chase.end_turn(&mut dice).expect("ends");
        let pending = chase.pending.iter().find(|p| p.roller == roller).expect("a complication");
        assert_eq!(pending.affected, affected);
        assert_eq!(pending.complication.roll, "1");
    }
    chase.begin_turn(&mut dice).expect("a again");
    assert_eq!(chase.turn.as_ref().and_then(|t| t.complication.as_ref()).map(|p| p.roller.as_str()), Some("c"));
}

/// "a participant can freely use the Dash action a number of times equal to 3 + its
/// Constitution modifier. Each additional Dash action ... requires ... a DC 10 Constitution
/// check at the end of its turn or gain one level of exhaustion."
#[test]
fn dashes_are_free_up_to_three_plus_con_then_need_a_check() {
    let mut runner = entrant("thief", Role::Quarry, 400);
    runner.sheet.abilities.con = 1;
    let (mut chase, mut dice) = start(vec![runner, entrant("guard", Role::Pursuer, 0)], ChaseRules::default());
    assert_eq!(thief(&chase).free_dashes(), 4);
    for dash in 1..=5 {
        chase.begin_turn(&mut dice).expect("thief");
        chase.dash().expect("dash");
        assert_eq!(chase.turn.as_ref().map(|t| t.extra_dash), Some(dash == 5), "dash {dash}");
        if dash == 5 {
            chase.force_next_roll(10); // meets DC 10
        }
        chase.force_next_roll(20); // no complication
        chase.end_turn(&mut dice).expect("ends");
        assert_eq!(thief(&chase).exhaustion, 0, "dash {dash}");
        chase.begin_turn(&mut dice).expect("guard");
        chase.force_next_roll(20);
        chase.end_turn(&mut dice).expect("ends");
    }
    chase.begin_turn(&mut dice).expect("thief");
    chase.dash().expect("a sixth dash");
    chase.force_next_roll(9); // one short
    chase.force_next_roll(20);
    chase.end_turn(&mut dice).expect("ends");
    assert_eq!(thief(&chase).exhaustion, 1);
    assert!(has(&chase, |k| matches!(k, EventKind::Exhaustion { id, level: 1 } if id == "thief")));

    let mut frail = entrant("frail", Role::Quarry, 400);
    frail.sheet.abilities.con = -4;
    let (chase, _) = start(vec![frail, entrant("guard", Role::Pursuer, 0)], ChaseRules::default());
    assert_eq!(chase.participant("frail").map(Participant::free_dashes), Some(0));
}

/// "A participant drops out of the chase if its exhaustion reaches level 5, since its speed
/// becomes 0"; exhaustion 2 halves speed.
#[test]
fn exhaustion_five_drops_a_participant_out() {
    let mut tired = entrant("guard", Role::Pursuer, 0);
    tired.sheet.abilities.con = -3;
    tired.sheet.exhaustion = 4;
    let (mut chase, mut dice) = start(
        vec![entrant("thief", Role::Quarry, 400), tired, entrant("hound", Role::Pursuer, 0)],
        ChaseRules::default(),
    );
    assert_eq!(chase.participant("guard").map(Participant::speed), Some(15), "halved from level 2");
    chase.begin_turn(&mut dice).expect("thief");
    chase.force_next_roll(20);
    chase.end_turn(&mut dice).expect("ends");
    chase.begin_turn(&mut dice).expect("guard");
    chase.dash().expect("a dash beyond none free");
    chase.force_next_roll(5);
    chase.end_turn(&mut dice).expect("ends");
    let guard = chase.participant("guard").expect("guard");
    assert_eq!((guard.exhaustion, guard.status, guard.speed()), (5, Status::DroppedOut, 0));
    assert!(chase.order.entry("guard").is_none(), "out of the initiative order");
    assert!(!chase.is_over(), "the hound still runs");
    chase.begin_turn(&mut dice).expect("the hound is next");
    assert_eq!(chase.turn.as_ref().map(|t| t.id.as_str()), Some("hound"));
}

/// "If the quarry is never out of the lead pursuer's sight, the check fails automatically.
/// Otherwise, if the result of the quarry's check is greater than the highest passive score,
/// that quarry escapes."
#[test]
fn escape_needs_being_out_of_sight_and_beating_the_highest_passive() {
    /// Plays a round with no complications, setting the escape check's result if one is rolled.
    fn play_round(chase: &mut Chase, dice: &mut SeededDice, escape_roll: i32) {
        for _ in 0..chase.order.entries.len() {
            chase.begin_turn(dice).expect("turn");
            chase.force_next_roll(20);
            if chase.last_turn_of_round() {
                chase.force_next_roll(escape_roll);
            }
            chase.end_turn(dice).expect("ends");
        }
    }
    // Always in sight: no roll, however lucky.
    let (mut chase, mut dice) = thief_and_guard(ChaseRules::default());
    play_round(&mut chase, &mut dice, 30);
    assert_eq!(thief(&chase).status, Status::Running);
    assert!(has(&chase, |k| matches!(k, EventKind::NeverOutOfSight { quarry, .. } if quarry == "thief")));
    assert_eq!(chase.forced_rolls, [30], "the escape roll was never made");

    // Out of sight (60 ft of sight, 70 ft ahead): passive 12 is the highest.
    let sighted = || {
        let mut watcher = entrant("watcher", Role::Pursuer, 0);
        watcher.sheet.skills.insert(Skill::Perception, 2);
        let rules = ChaseRules { sight_feet: Some(60), ..ChaseRules::default() };
        start(vec![entrant("thief", Role::Quarry, 70), watcher, entrant("guard", Role::Pursuer, 0)], rules)
    };
    let (mut chase, mut dice) = sighted();
    assert!(chase.out_of_sight.contains("thief"));
    play_round(&mut chase, &mut dice, 12);
    assert_eq!(thief(&chase).status, Status::Running, "12 is not greater than 12");
    let (mut chase, mut dice) = sighted();
    play_round(&mut chase, &mut dice, 13);
    assert_eq!(thief(&chase).status, Status::Escaped);
    assert!(chase.is_over());
}

/// PHB appendix A, "Poisoned": "disadvantage on attack rolls and ability checks", in a chase as on
/// the map: on initiative (PHB "Initiative": a Dexterity check; DMG "Beginning a Chase":
/// participants not already in initiative order roll it), on a complication's check, on the
/// escape check, and as 5 off a pursuer's passive Perception (PHB "Passive Checks").
#[test]
fn poison_hampers_initiative_and_every_check_of_a_chase() {
    let poisoned = |id: &str, role, position| Entrant {
        conditions: Conditions::new([Condition::Poisoned]),
        ..entrant(id, role, position)
    };
    let entrants = vec![
        poisoned("thief", Role::Quarry, 40),
        poisoned("guard", Role::Pursuer, 0),
        entrant("dog", Role::Pursuer, -10),
    ];
    let chase = Chase::start("t", ChaseRules::default(), entrants, None, &mut SeededDice::new(4)).expect("starts");
    let modes: Vec<(&str, RollMode)> = chase
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RollsInitiative { id, .. } => Some((id.as_str(), e.roll.as_ref()?.roll.mode)),
            _ => None,
        })
        .collect();
    assert_eq!(
        modes,
        [("thief", RollMode::Disadvantage), ("guard", RollMode::Disadvantage), ("dog", RollMode::Normal)]
    );
    let passive = |id: &str| chase.participant(id).expect("there").passive_perception();
    assert_eq!(passive("guard"), passive("dog") - 5);
    let escape = chase.escape_sources("thief", "guard");
    assert_eq!(escape.describe(), "disadvantage: thief is poisoned");

    let row = ComplicationTable::urban().row(2).expect("a row").clone();
    let (mut chase, mut dice) =
        start(vec![poisoned("thief", Role::Quarry, 40), entrant("guard", Role::Pursuer, 0)], ChaseRules::default());
    chase.pending.push(Pending { roller: "guard".into(), affected: "thief".into(), d20: 2, complication: row });
    chase.begin_turn(&mut dice).expect("the thief's turn");
    attempt(&mut chase, &mut dice, 12, 0);
    let sources = chase.events.iter().find_map(|e| match &e.kind {
        EventKind::Test { sources, .. } => Some(sources.clone()),
        _ => None,
    });
    assert_eq!(sources.map(|s| s.mode()), Some(RollMode::Disadvantage), "the complication's check");
}

/// Escape Factors: "If one or more factors give the quarry both advantage and disadvantage on
/// its check, the quarry has neither"; a ranger or Survival-proficient lead pursuer gives
/// disadvantage.
#[test]
fn escape_factors_cancel() {
    use EscapeFactor::*;
    let mode = |factors: Vec<EscapeFactor>, tracker: bool| {
        let mut guard = entrant("guard", Role::Pursuer, 0);
        guard.sheet.tracker = tracker;
        let rules = ChaseRules { escape_factors: factors, ..ChaseRules::default() };
        let (chase, _) = start(vec![entrant("thief", Role::Quarry, 40), guard], rules);
        chase.escape_sources("thief", "guard").mode()
    };
    assert_eq!(mode(vec![ManyThingsToHideBehind], false), RollMode::Advantage);
    assert_eq!(mode(vec![ManyThingsToHideBehind, CrowdedOrNoisy], false), RollMode::Advantage);
    assert_eq!(mode(vec![UncrowdedOrQuiet], false), RollMode::Disadvantage);
    assert_eq!(mode(vec![ManyThingsToHideBehind, UncrowdedOrQuiet], false), RollMode::Normal);
    assert_eq!(mode(vec![ManyThingsToHideBehind, CrowdedOrNoisy, FewThingsToHideBehind], false), RollMode::Normal);
    assert_eq!(mode(vec![], true), RollMode::Disadvantage, "a ranger leads");
    assert_eq!(mode(vec![CrowdedOrNoisy], true), RollMode::Normal);
}

/// The lead pursuer is the closest, and can change; a pursuer reaching its quarry catches it.
#[test]
fn the_lead_changes_and_a_close_pursuer_catches() {
    let (mut chase, mut dice) = start(
        vec![entrant("near", Role::Pursuer, 10), entrant("far", Role::Pursuer, 0), entrant("thief", Role::Quarry, 60)],
        ChaseRules::default(),
    );
    let pursuit = chase.pursuits[0].clone();
    assert_eq!(chase.lead(&pursuit).as_deref(), Some("near"));
    chase.begin_turn(&mut dice).expect("near");
    chase.force_next_roll(20);
    chase.end_turn(&mut dice).expect("near waits");
    chase.begin_turn(&mut dice).expect("far");
    chase.dash().expect("dash");
    assert_eq!(chase.move_by(60), Ok(55), "stops next to the thief");
    assert_eq!(chase.lead(&pursuit).as_deref(), None, "the thief is caught");
    assert_eq!(thief(&chase).status, Status::Caught);
    assert!(chase.is_over());
    assert!(chase.outcome().is_some_and(|o| o.contains("thief caught")));
}

/// "Chase participants can't normally make opportunity attacks against each other ... However,
/// participants can still be the targets of opportunity attacks from creatures not participating."
#[test]
fn no_opportunity_attacks_between_participants() {
    let (chase, _) = thief_and_guard(ChaseRules::default());
    let refused = chase.may_opportunity_attack("guard", "thief");
    assert_eq!(refused, Err(ChaseError::NoOpportunityAttacks { attacker: "guard".into(), target: "thief".into() }));
    assert_eq!(
        refused.map_err(|e| e.to_string()),
        Err("guard and thief are both in the chase, moving the same way at the same time: no opportunity attacks"
            .to_owned())
    );
    assert!(chase.may_opportunity_attack("thug", "thief").is_ok());
}

/// A chase that can't begin, or a newcomer that can't join, is refused with its reason, in the
/// sentence the DM reads.
#[test]
fn a_chase_refused_says_why() {
    let mut dice = SeededDice::new(1);
    let pair = || vec![entrant("thief", Role::Quarry, 40), entrant("guard", Role::Pursuer, 0)];
    let mut table = ComplicationTable::urban();
    table.rows.pop();
    let rules = ChaseRules { table, ..ChaseRules::default() };
    let refused = Chase::start("t", rules, pair(), None, &mut dice).expect_err("the rows stop at 10");
    let short = ComplicationError::Ranges(RangeError::StopsShort { last: 10, die: 20 });
    assert_eq!(refused, ChaseError::BadTable { table: "Urban Chase Complications".into(), error: short });
    assert_eq!(refused.to_string(), "Urban Chase Complications: the rows stop at 10: they must reach 20");
    let twice = vec![entrant("thief", Role::Quarry, 40), entrant("thief", Role::Pursuer, 0)];
    assert_eq!(Chase::start("t", ChaseRules::default(), twice, None, &mut dice), Err(ChaseError::EnteredTwice));
    let alone = vec![entrant("thief", Role::Quarry, 40)];
    assert_eq!(Chase::start("t", ChaseRules::default(), alone, None, &mut dice), Err(ChaseError::NeedsBothSides));

    let (mut chase, mut dice) = thief_and_guard(ChaseRules::default());
    let again = chase.join_pursuing(entrant("guard", Role::Pursuer, 0), &["thief".into()], &mut dice);
    assert_eq!(again, Err(ChaseError::AlreadyIn("guard".into())));
    assert_eq!(again.map_err(|e| e.to_string()), Err("guard is already in the chase".to_owned()));
    let nobody = chase.join_pursuing(entrant("thug", Role::Pursuer, 0), &[], &mut dice);
    assert_eq!(nobody, Err(ChaseError::NoQuarryForNewcomer));
}

/// DMG "Designing Your Own Chase Tables": a row that can't be played is refused, named by its d20
/// results.
#[test]
fn a_broken_complication_table_names_the_row() {
    fn with_first_row(change: impl FnOnce(&mut Complication)) -> Result<(), ComplicationError> {
        let mut table = ComplicationTable::urban();
        change(&mut table.rows[0]);
        table.validate()
    }
    let roll = || "1".to_owned();
    assert_eq!(
        with_first_row(|row| row.test = Some(Test::Check { dc: 10, options: Vec::new() })),
        Err(ComplicationError::CheckWithoutOptions { roll: roll() })
    );
    let impossible = with_first_row(|row| row.test = Some(Test::Save { dc: 31, ability: Ability::Dex }));
    assert_eq!(impossible, Err(ComplicationError::DcOutOfRange { roll: roll(), dc: 31 }));
    assert_eq!(impossible.map_err(|e| e.to_string()), Err("the row \"1\" has DC 31: DCs run from 1 to 30".to_owned()));
    assert_eq!(
        with_first_row(|row| row.alternative = Some(Alternative::SpendMovement { feet: 1001 })),
        Err(ComplicationError::AlternativeTooFar { roll: roll(), feet: 1001 })
    );
    assert_eq!(
        with_first_row(|row| row.on_fail = vec![Effect::DifficultTerrain { feet: 2000 }]),
        Err(ComplicationError::EffectTooFar { roll: roll(), feet: 2000 })
    );
    let fall = with_first_row(|row| row.always = vec![Effect::Fall { distance: "lots".into() }]);
    assert!(matches!(&fall, Err(ComplicationError::Dice { roll, .. }) if roll == "1"), "{fall:?}");
    let attack = Effect::OpportunityAttack {
        attacker: "a guard".into(),
        bonus: 31,
        dice: "1d6".into(),
        kind: "piercing".into(),
        min_move: 0,
    };
    let strong = with_first_row(|row| row.always = vec![attack]);
    assert_eq!(strong, Err(ComplicationError::BonusOutOfRange { roll: roll(), bonus: 31 }));
    assert_eq!(
        strong.map_err(|e| e.to_string()),
        Err("the row \"1\" has an attack bonus of 31: from -30 to +30".to_owned())
    );
}

/// A saved chase read back is refused, with its reason, when it names a stranger, holds numbers
/// play never reaches or its table broke; an untouched one is played on.
#[test]
fn a_saved_chase_is_refused_with_its_reason() {
    fn refusal(chase: &Chase, change: impl FnOnce(&mut Chase)) -> Option<SavedChaseError> {
        let mut saved = chase.clone();
        change(&mut saved);
        Chases::new(saved).checked().err()
    }
    let (chase, _) = thief_and_guard(ChaseRules::default());
    assert_eq!(Chases { chases: Vec::new(), active: 0 }.checked(), Err(SavedChaseError::NoChase));
    let stranger = refusal(&chase, |c| {
        c.out_of_sight.insert("ghost".into());
    });
    assert_eq!(stranger, Some(SavedChaseError::NotAParticipant { chase: "test".into(), id: "ghost".into() }));
    assert_eq!(stranger.map(|e| e.to_string()).as_deref(), Some("\"ghost\" is not a participant of \"test\""));
    let far = refusal(&chase, |c| c.participants[0].position = i32::MAX);
    assert_eq!(far, Some(SavedChaseError::ParticipantOutOfBounds { id: "thief".into() }));
    assert_eq!(far.map(|e| e.to_string()).as_deref(), Some("\"thief\" holds numbers a chase can't reach"));
    let forced = refusal(&chase, |c| c.forced_rolls.push_back(5000));
    assert_eq!(forced, Some(SavedChaseError::ChaseOutOfBounds { chase: "test".into() }));
    let table = refusal(&chase, |c| c.rules.table.rows[0].test = Some(Test::Save { dc: 0, ability: Ability::Dex }));
    let dc = ComplicationError::DcOutOfRange { roll: "1".into(), dc: 0 };
    assert_eq!(table, Some(SavedChaseError::BadTable { chase: "test".into(), error: dc }));
    assert_eq!(
        table.map(|e| e.to_string()).as_deref(),
        Some("the table of \"test\": the row \"1\" has DC 0: DCs run from 1 to 30")
    );
    assert_eq!(refusal(&chase, |_| {}), None);
}

/// A guard pursuing at 0 ft with a shortbow (+4, 1d6+2) of these ranges.
fn archer(range: u32, long_range: u32) -> Entrant {
    let mut archer = entrant("guard", Role::Pursuer, 0);
    archer.sheet.attacks.push(Attack {
        name: "Shortbow".into(),
        bonus: 4,
        damage: "1d6+2".into(),
        damage_type: "piercing".into(),
        range,
        long_range: Some(long_range),
        kind: None,
        ..Attack::default()
    });
    archer
}

/// "A chase participant can make attacks and cast spells against other creatures within range.
/// Apply the normal rules for cover": long range gives disadvantage, cover adds to AC.
#[test]
fn attacks_need_range_and_count_cover() {
    let archer = archer(30, 50);
    let (mut chase, mut dice) = start(vec![archer, entrant("thief", Role::Quarry, 40)], ChaseRules::default());
    chase.begin_turn(&mut dice).expect("guard");
    assert_eq!(chase.targets_in_range(&chase.participant("guard").expect("g").sheet.attacks[0]), vec!["thief"]);
    chase.force_next_roll(13); // AC 12 + half cover 2 = 14: a miss
    assert_eq!(chase.attack("thief", 0, CoverDegree::Half, &mut dice), Ok(false));
    let attack = chase.events.iter().rev().find(|e| e.roll.is_some()).expect("the attack");
    let EventKind::Attack { sources, ac, cover_bonus, outcome, distance, .. } = &attack.kind else {
        panic!("an attack: {:?}", attack.kind)
    };
    assert_eq!((*ac, *cover_bonus, *outcome, *distance), (14, 2, Outcome::Miss, 40));
    assert_eq!(sources.disadvantages, ["long range"]);
    assert!(chase.describe(attack).contains("with Shortbow at 40 ft (disadvantage: long range): 13 against AC 14"));
    assert_eq!(chase.attack("thief", 0, CoverDegree::None, &mut dice), Err(ChaseError::ActionUsed));
    chase.set_position("thief", 80).expect("DM moves the thief");
    if let Some(turn) = chase.turn.as_mut() {
        turn.action_used = false;
    }
    assert!(matches!(chase.attack("thief", 0, CoverDegree::None, &mut dice), Err(ChaseError::Refused(_))));
}

/// Brom's javelin reaches Tamsin, Lia and Nim the cutpurse, but only Nim is his foe (the card offers
/// the others only when the DM asks). Without sides, a pursuer's foe is its quarry.
#[test]
fn only_hostile_participants_are_foes() {
    let mut brom = entrant("brom", Role::Pursuer, 0);
    brom.sheet.attacks.push(Attack { name: "Javelin".into(), range: 30, long_range: Some(120), ..Attack::default() });
    let others = [("tamsin", Role::Pursuer, 10), ("lia", Role::Pursuer, 20), ("nim", Role::Quarry, 40)];
    let entrants = std::iter::once(brom).chain(others.map(|(id, role, at)| entrant(id, role, at))).collect();
    let (mut chase, mut dice) = start(entrants, ChaseRules::default());
    chase.begin_turn(&mut dice).expect("Brom's turn");
    let javelin = chase.participant("brom").expect("Brom").sheet.attacks[0].clone();
    let mut reached = chase.targets_in_range(&javelin);
    reached.sort();
    assert_eq!(reached, ["lia", "nim", "tamsin"], "the DM may still pick any of them");
    let sides = |id: &str| match id {
        "nim" => Side::Enemy,
        "tamsin" => Side::Ally,
        _ => Side::Party,
    };
    let foes = |side_of: fn(&str) -> Side| -> Vec<String> {
        chase.targets_in_range(&javelin).into_iter().filter(|id| chase.hostile("brom", id, side_of)).collect()
    };
    assert_eq!(foes(sides), ["nim"], "not Tamsin (an ally) nor Lia (the party)");
    assert_eq!(foes(|_| Side::Neutral), ["nim"], "without sides, the one he pursues");
    assert!(chase.hostile("nim", "lia", sides) && !chase.hostile("lia", "tamsin", sides));
}

/// PHB appendix A, "Restrained": "The creature's attack rolls have disadvantage." A guard caught
/// in a net shoots with disadvantage; freed, it doesn't.
#[test]
fn a_restrained_attacker_has_disadvantage() {
    let archer = archer(80, 320);
    for restrained in [true, false] {
        let (mut chase, mut dice) =
            start(vec![archer.clone(), entrant("thief", Role::Quarry, 20)], ChaseRules::default());
        chase.participant_mut("guard").expect("guard").restrained = restrained;
        chase.begin_turn(&mut dice).expect("guard");
        chase.attack("thief", 0, CoverDegree::None, &mut dice).expect("in range");
        let attack = chase
            .events
            .iter()
            .find_map(|e| {
                e.roll
                    .as_ref()
                    .filter(|r| matches!(&r.reason, RollReason::Attack { attack: Some(a), .. } if a == "Shortbow"))
            })
            .expect("the attack roll");
        let expected = if restrained { RollMode::Disadvantage } else { RollMode::Normal };
        assert_eq!(attack.roll.mode, expected, "restrained: {restrained}");
    }
}

/// Issue 37 (3): a participant's speed is its speed on the map (PHB appendix A): 0 while
/// grappled, restrained, paralyzed, stunned, unconscious or petrified, halved at exhaustion 2; and
/// a poisoned attacker has disadvantage ("Poisoned": "disadvantage on attack rolls"), as on the
/// map.
#[test]
fn a_participants_conditions_set_its_speed_and_its_attack_rolls() {
    let with = |conditions: &[Condition], exhaustion: u8| {
        let mut thief =
            Entrant { conditions: Conditions::new(conditions.iter().copied()), ..entrant("thief", Role::Quarry, 40) };
        thief.sheet.exhaustion = exhaustion;
        let (chase, _) = start(vec![thief, entrant("guard", Role::Pursuer, 0)], ChaseRules::default());
        chase.participant("thief").expect("there").speed()
    };
    assert_eq!(with(&[], 0), 30);
    for stop in [
        Condition::Grappled,
        Condition::Restrained,
        Condition::Paralyzed,
        Condition::Stunned,
        Condition::Unconscious,
        Condition::Petrified,
    ] {
        assert_eq!(with(&[stop], 0), 0, "{stop:?}");
    }
    assert_eq!(with(&[Condition::Prone, Condition::Poisoned], 0), 30);
    assert_eq!(with(&[], 2), 15, "exhaustion 2 halves it");
    let (mut chase, mut dice) = start(
        vec![
            Entrant { conditions: Conditions::new([Condition::Poisoned]), ..archer(80, 320) },
            entrant("thief", Role::Quarry, 20),
        ],
        ChaseRules::default(),
    );
    chase.begin_turn(&mut dice).expect("guard");
    chase.attack("thief", 0, CoverDegree::None, &mut dice).expect("in range");
    let attack = chase
        .events
        .iter()
        .find_map(|e| e.roll.as_ref().filter(|r| matches!(&r.reason, RollReason::Attack { .. })))
        .expect("the attack roll");
    assert_eq!(attack.roll.mode, RollMode::Disadvantage);
    assert!(
        matches!(&attack.reason, RollReason::Attack { sources, .. } if sources.describe() == "disadvantage: guard is poisoned")
    );
}

/// "If a pursuit splits into several smaller chases, resolve each chase separately. Run a round
/// of one chase, then a round of the next, and so on, tracking the distances for each."
#[test]
fn a_split_quarry_makes_chases_that_take_rounds_in_turn() {
    let (chase, mut dice) = start(
        vec![
            entrant("thief", Role::Quarry, 50),
            entrant("lookout", Role::Quarry, 40),
            entrant("guard", Role::Pursuer, 0),
            entrant("hound", Role::Pursuer, 10),
        ],
        ChaseRules::default(),
    );
    let mut chases = Chases::new(chase);
    assert!(chases.split(0, &["thief".into(), "lookout".into()], &[]).is_err(), "someone must stay");
    let second = chases.split(0, &["lookout".into()], &["hound".into()]).expect("splits");
    assert_eq!(chases.chases.len(), 2);
    assert_eq!(chases.chases[0].participants.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), ["thief", "guard"]);
    assert_eq!(
        chases.chases[second].distances(&chases.chases[second].pursuits[0]),
        [("hound".into(), "lookout".into(), 30)]
    );
    assert_eq!(chases.chases[second].order.entry("lookout").map(|e| e.initiative), Some(19), "keeps its initiative");
    let mut acted = Vec::new();
    for _ in 0..8 {
        chases.begin_turn(&mut dice).expect("turn");
        let chase = chases.active_mut();
        acted.push(chase.turn.as_ref().map(|t| t.id.clone()).unwrap_or_default());
        if let Some(t) = chase.turn.as_mut() {
            t.complication = None;
        }
        chase.force_next_roll(20);
        chase.end_turn(&mut dice).expect("ends");
    }
    assert_eq!(acted, ["thief", "guard", "lookout", "hound", "thief", "guard", "lookout", "hound"]);
}

/// Role reversal: "The outnumbered characters might decide to flee with the thieves in pursuit."
#[test]
fn roles_reverse_and_the_route_turns_round() {
    let (mut chase, _) = thief_and_guard(ChaseRules::default());
    chase.reverse().expect("reverses");
    assert_eq!(chase.pursuits[0], Pursuit { quarry: vec!["guard".into()], pursuers: vec!["thief".into()] });
    let guard = chase.participant("guard").expect("guard").position;
    assert!(guard > thief(&chase).position, "the new quarry is ahead");
    assert_eq!(chase.distance("guard", "thief"), Some(40));
}

/// A seeded chase played by the policy replays exactly, another seed plays another chase, and a
/// chase that ended says how for every quarry.
#[test]
fn the_policy_replays_by_seed() {
    let play = |seed| {
        let (chase, _) = start(
            vec![
                entrant("thief", Role::Quarry, 60),
                entrant("guard", Role::Pursuer, 0),
                entrant("hound", Role::Pursuer, 10),
            ],
            ChaseRules { sight_feet: Some(50), ..ChaseRules::default() },
        );
        let mut chases = Chases::new(chase);
        policy::play(&mut chases, 10, &mut SeededDice::new(seed)).expect("plays");
        chases
    };
    assert_eq!(play(3), play(3));
    assert_ne!(play(3).chases[0].events, play(4).chases[0].events);
    for seed in 0..8 {
        let chases = play(seed);
        let chase = &chases.chases[0];
        assert_eq!(chase.is_over(), chase.outcome().is_some(), "seed {seed}");
        if let Some(outcome) = chase.outcome() {
            assert!(outcome.contains("thief"), "seed {seed}: {outcome}");
        }
    }
}

/// Checks the roster against the chase's reference rules, which look at every participant by id:
/// each lead ("designate the pursuer closest to the quarry as the lead"), each pursuer's distance
/// to its nearest quarry, whether the chase is over, and the roster itself against one built
/// afresh (the initiative places only need to keep the order's order).
fn assert_roster_follows(chase: &Chase, context: &str) {
    for (k, pursuit) in chase.pursuits.iter().enumerate() {
        let lead = chase.lead_at(k).map(|who| chase.participants[who].id.clone());
        assert_eq!(lead, chase.lead(pursuit), "{context}: lead of pursuit {k}");
    }
    for p in chase.participants.iter().filter(|p| p.is_running()) {
        let expected: Vec<Option<u32>> = chase
            .pursuits
            .iter()
            .filter(|pursuit| pursuit.pursuers.contains(&p.id))
            .map(|pursuit| chase.distances(pursuit).iter().find(|(id, _, _)| *id == p.id).map(|(_, _, feet)| *feet))
            .collect();
        assert_eq!(chase.pursuer_distances(&p.id), expected, "{context}: distances of {}", p.id);
    }
    assert_eq!(chase.is_over(), !chase.pursuits.iter().any(|p| chase.pursuit_live(p)), "{context}: over");
    let fresh = Roster::build(&chase.participants, &chase.pursuits, &chase.order, &chase.index);
    let roster = &chase.roster;
    assert_eq!(
        (&roster.rank, &roster.member_of, &roster.fields, roster.strays),
        (&fresh.rank, &fresh.member_of, &fresh.fields, fresh.strays),
        "{context}: the roster as built afresh"
    );
    let places: Vec<usize> =
        chase.order.entries.iter().filter_map(|e| chase.position_of(&e.id)).map(|who| roster.initiative[who]).collect();
    assert!(places.windows(2).all(|w| w[0] < w[1]), "{context}: initiative places in the order's order");
}

/// Chases of several quarry and pursuers played by the policy, with the DM moving creatures,
/// newcomers joining, the quarry splitting up and the roles reversing between turns (all drawn
/// from a seeded generator): after every turn and every change the roster agrees with the
/// reference rules.
#[test]
fn the_roster_follows_chases_of_many() {
    // Placings, newcomers, reversals, splits and turns played, over all the seeds.
    let mut done = [0; 5];
    for seed in 0..12u64 {
        let mut pick = SeededDice::new(1000 + seed);
        let mut below = |n: u32| pick.roll(&format!("1d{n}"), RollMode::Normal).map_or(0, |r| r.total - 1);
        let quarry = 2 + below(5);
        let pursuers = 2 + below(6);
        let mut entrants = Vec::new();
        for i in 0..quarry + pursuers {
            let role = if i < quarry { Role::Quarry } else { Role::Pursuer };
            let mut sheet = sheet(&format!("c{i}"), [20, 25, 30, 40][below(4) as usize], below(5) as i8 - 1);
            sheet.inspiration = below(3) == 0;
            let position = if role == Role::Quarry { 10 * below(8) + 20 } else { -5 * below(6) };
            entrants.push(Entrant { id: format!("c{i}"), sheet, role, position, conditions: Default::default() });
        }
        let sight_feet = [None, Some(40), Some(80)][below(3) as usize];
        let table = if below(2) == 0 { ComplicationTable::wilderness() } else { ComplicationTable::urban() };
        let rules = ChaseRules { table, sight_feet, ..ChaseRules::default() };
        let mut dice = SeededDice::new(seed);
        let chase = Chase::start("many", rules, entrants, None, &mut dice).expect("starts");
        assert_roster_follows(&chase, &format!("seed {seed}: start"));
        let mut chases = Chases::new(chase);
        let mut newcomers = 0;
        for turn in 0..120 {
            if chases.is_over() {
                break;
            }
            let context = format!("seed {seed}, turn {turn}");
            let index = chases.active;
            match below(16) {
                0 => {
                    let chase = chases.active_mut();
                    let running: Vec<String> =
                        chase.participants.iter().filter(|p| p.is_running()).map(|p| p.id.clone()).collect();
                    if let Some(id) = running.get(below(running.len() as u32) as usize) {
                        let feet = 5 * below(40) - 60;
                        chase.set_position(id, feet).expect("placed");
                        done[0] += 1;
                    }
                }
                1 => {
                    let chase = chases.active_mut();
                    let running: Vec<String> =
                        chase.participants.iter().filter(|p| p.is_running()).map(|p| p.id.clone()).collect();
                    if let Some(id) = running.get(below(running.len() as u32) as usize) {
                        newcomers += 1;
                        let id = id.clone();
                        let entrant = Entrant {
                            id: format!("n{newcomers}"),
                            sheet: sheet("newcomer", 30, 1),
                            role: Role::Pursuer,
                            position: -20,
                            conditions: Default::default(),
                        };
                        chase.join_pursuing(entrant, &[id], &mut dice).expect("joins");
                        done[1] += 1;
                    }
                }
                2 => {
                    done[2] += usize::from(chases.active_mut().reverse().is_ok());
                }
                3 | 4 => {
                    let chase = chases.active();
                    if chase.pursuits.len() == 1 {
                        let pursuit = &chase.pursuits[0];
                        let runs = |ids: &[String]| -> Vec<String> {
                            ids.iter().filter(|id| chase.running(id)).cloned().collect()
                        };
                        let (quarry, pursuers) = (runs(&pursuit.quarry), runs(&pursuit.pursuers));
                        if quarry.len() > 1 {
                            let split = chases.split(index, &quarry[..1], &pursuers[..pursuers.len().min(1)]);
                            done[3] += usize::from(split.is_ok());
                        }
                    }
                }
                _ => {}
            }
            for chase in &chases.chases {
                assert_roster_follows(chase, &format!("{context}, after the DM"));
            }
            if chases.is_over() {
                break;
            }
            chases.begin_turn(&mut dice).expect("a turn");
            policy::play_begun_turn(chases.active_mut(), &mut dice).expect("played");
            done[4] += 1;
            for chase in &chases.chases {
                assert_roster_follows(chase, &context);
            }
        }
    }
    assert!(done[..4].iter().all(|&n| n >= 2) && done[4] >= 200, "every change was tried: {done:?}");
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever the creatures and the dice, a played chase keeps its books straight: the
        /// order holds exactly the running participants, exhaustion stops at 5 with the
        /// participant out, caught quarry are within reach of a pursuer, the log agrees with the
        /// participants, and the same seed replays.
        #[test]
        fn played_chases_stay_consistent(
            seed in any::<u64>(),
            speeds in proptest::collection::vec(prop_oneof![Just(20u32), Just(25), Just(30), Just(40)], 3..6),
            cons in proptest::collection::vec(-3i8..=4, 6),
            head_start in 0i32..=120,
            wilderness in any::<bool>(),
        ) {
            let entrants: Vec<Entrant> = speeds
                .iter()
                .enumerate()
                .map(|(i, speed)| {
                    let role = if i == 0 { Role::Quarry } else { Role::Pursuer };
                    let mut sheet = sheet(&format!("c{i}"), *speed, cons[i]);
                    sheet.inspiration = i % 2 == 0;
                    let position = if i == 0 { head_start } else { -5 * i as i32 };
                    Entrant { id: format!("c{i}"), sheet, role, position, conditions: Default::default() }
                })
                .collect();
            let table = if wilderness { ComplicationTable::wilderness() } else { ComplicationTable::urban() };
            let rules = ChaseRules { table, sight_feet: Some(60), ..ChaseRules::default() };
            let play = || {
                let mut dice = SeededDice::new(seed);
                let chase = Chase::start("p", rules.clone(), entrants.clone(), None, &mut dice).expect("starts");
                let mut chases = Chases::new(chase);
                policy::play(&mut chases, 15, &mut dice).expect("plays");
                chases
            };
            let chases = play();
            prop_assert_eq!(&chases, &play());
            for chase in &chases.chases {
                let running: BTreeSet<&str> =
                    chase.participants.iter().filter(|p| p.is_running()).map(|p| p.id.as_str()).collect();
                let ordered: BTreeSet<&str> = chase.order.entries.iter().map(|e| e.id.as_str()).collect();
                prop_assert_eq!(running, ordered);
                for p in &chase.participants {
                    prop_assert!(p.exhaustion <= 5);
                    prop_assert_eq!(p.exhaustion == 5, p.status == Status::DroppedOut, "{}", p.id);
                }
                for caught in chase.participants.iter().filter(|p| p.status == Status::Caught) {
                    let near = chase.participants.iter().any(|p| {
                        chase.roles(&p.id) == [Role::Pursuer] && p.position.abs_diff(caught.position) <= chase.rules.catch_feet
                    });
                    prop_assert!(near, "{} was caught with no pursuer near", caught.id);
                }
                // The log agrees with the books: rounds never go back, every Dash is logged, and a
                // chase that ended leaves nobody running and says so last.
                prop_assert!(chase.events.windows(2).all(|w| w[0].round <= w[1].round));
                for p in &chase.participants {
                    let logged = chase.events.iter().filter(|e| matches!(&e.kind, EventKind::Dash { id, .. } if *id == p.id)).count();
                    prop_assert_eq!(logged, p.dashes as usize, "{}", p.id);
                }
                if chase.is_over() {
                    prop_assert!(chase.participants.iter().all(|p| !p.is_running()));
                    prop_assert_eq!(chase.events.last().map(|e| &e.kind), Some(&EventKind::Over));
                }
            }
        }
    }
}
