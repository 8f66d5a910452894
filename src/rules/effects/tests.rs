//! Effects over turns: durations, repeated saves, combining, concentration and grapples.

use super::*;

fn frightened(dc: i32) -> Effect {
    Effect {
        conditions: vec![Condition::Frightened],
        save: Some(RepeatedSave { ability: Ability::Wis, dc, at: TurnPoint::End, successes: 1 }),
        ..Effect::new("frightened", Source::Creature("ghoul".into()), Duration::Minutes(1))
    }
}

/// A timed duration counts down at the start of its source's turns: "1 round" given in the
/// ghoul's turn ends at the start of its next turn, not at the target's.
#[test]
fn rounds_count_down_at_the_start_of_the_sources_turn() {
    let mut effects = Effects::default();
    effects.give(Effect::new("dazed", Source::Creature("ghoul".into()), Duration::Rounds(1))).expect("valid");
    assert_eq!(effects.at_turn("brom", "brom", TurnPoint::Start).0, vec![]);
    assert_eq!(effects.at_turn("brom", "brom", TurnPoint::End).0, vec![]);
    let (ended, _) = effects.at_turn("brom", "ghoul", TurnPoint::Start);
    assert_eq!(ended, vec![EffectEvent::Ended { name: "dazed".into(), reason: EndReason::TimeUp }]);
}

/// "Until the start of its next turn" ends at the creature's own start; "until the end of the
/// source's next turn" at the end of the source's next turn, not the one it was given in.
#[test]
fn turn_bound_durations_end_where_they_say() {
    let mut effects = Effects::default();
    effects.give(Effect::new("dodge-like", Source::Dm, Duration::StartOfOwnNextTurn)).expect("valid");
    effects
        .give(Effect::new("marked", Source::Creature("ghoul".into()), Duration::EndOfSourcesNextTurn))
        .expect("valid");
    assert!(effects.at_turn("brom", "ghoul", TurnPoint::End).0.is_empty(), "the turn it was given in");
    let (ended, _) = effects.at_turn("brom", "brom", TurnPoint::Start);
    assert_eq!(ended.len(), 1);
    assert!(effects.at_turn("brom", "ghoul", TurnPoint::Start).0.is_empty());
    let (ended, _) = effects.at_turn("brom", "ghoul", TurnPoint::End);
    assert_eq!(ended, vec![EffectEvent::Ended { name: "marked".into(), reason: EndReason::TimeUp }]);
    assert!(effects.is_empty());
}

/// A repeated save comes due at the end of the creature's own turn, and a success ends it.
#[test]
fn a_repeated_save_is_due_at_its_point_and_a_success_ends_it() {
    let mut effects = Effects::default();
    let (id, _) = effects.give(frightened(13)).expect("valid");
    assert!(effects.at_turn("brom", "brom", TurnPoint::Start).1.is_empty());
    assert!(effects.at_turn("brom", "ghoul", TurnPoint::End).1.is_empty(), "not at another's turn");
    let (_, due) = effects.at_turn("brom", "brom", TurnPoint::End);
    assert_eq!(due, vec![Due::Save { effect: id, name: "frightened".into(), save: frightened(13).save.unwrap() }]);
    assert_eq!(effects.save_rolled(id, false), None);
    assert_eq!(
        effects.save_rolled(id, true),
        Some(EffectEvent::Ended { name: "frightened".into(), reason: EndReason::Saved })
    );
}

/// DMG "Combining Game Effects": two same-named effects don't add; the more potent applies and
/// the other waits; equal ones, the most recent; when the stronger ends, the other applies.
#[test]
fn same_named_effects_do_not_stack() {
    let mut effects = Effects::default();
    let (weak, event) = effects.give(frightened(12)).expect("valid");
    assert_eq!(event, EffectEvent::Given { name: "frightened".into() });
    let (strong, event) = effects.give(frightened(15)).expect("valid");
    assert_eq!(event, EffectEvent::Given { name: "frightened".into() });
    assert_eq!(effects.applying().map(|l| l.id).collect::<Vec<_>>(), vec![strong]);
    let (_, event) = effects.give(frightened(11)).expect("valid");
    assert_eq!(event, EffectEvent::Waiting { name: "frightened".into() });
    let (_, due) = effects.at_turn("brom", "brom", TurnPoint::End);
    assert_eq!(due.len(), 1, "one save, the strongest's: {due:?}");
    effects.end(strong, EndReason::Removed);
    assert_eq!(effects.applying().map(|l| l.id).collect::<Vec<_>>(), vec![weak]);
    let (later, _) = effects.give(frightened(12)).expect("valid");
    assert_eq!(effects.applying().map(|l| l.id).collect::<Vec<_>>(), vec![later], "equals: the most recent");
}

/// The conditions follow the effects: given while one applies, taken off when none does; a
/// condition set by hand stays.
#[test]
fn conditions_follow_the_effects() {
    let mut effects = Effects::default();
    let mut conditions = Conditions::new([Condition::Prone]);
    let (a, _) = effects.give(frightened(12)).expect("valid");
    let (b, _) = effects.give(frightened(13)).expect("valid");
    effects.update_conditions(&mut conditions);
    assert!(conditions.has(Condition::Frightened) && conditions.has(Condition::Prone));
    effects.end(b, EndReason::Saved);
    effects.update_conditions(&mut conditions);
    assert!(conditions.has(Condition::Frightened), "the other still frightens");
    effects.end(a, EndReason::Saved);
    effects.update_conditions(&mut conditions);
    assert!(!conditions.has(Condition::Frightened));
    assert!(conditions.has(Condition::Prone));
}

/// PHB "Concentration": DC 10 or half the damage, whichever is higher; incapacitated or dead
/// ends it; ending it ends what it kept up.
#[test]
fn concentration_saves_and_ends() {
    assert_eq!(concentration_dc(7), 10);
    assert_eq!(concentration_dc(22), 11);
    assert_eq!(concentration_dc(45), 22);
    assert!(concentration_broken(&Conditions::new([Condition::Stunned]), false));
    assert!(concentration_broken(&Conditions::default(), true));
    assert!(!concentration_broken(&Conditions::new([Condition::Prone]), false));
    let mut effects = Effects::default();
    let held = Effect {
        conditions: vec![Condition::Restrained],
        ..Effect::new("entangled", Source::Creature("druid".into()), Duration::Concentration)
    };
    effects.give(held).expect("valid");
    effects.give(Effect::new("blessed", Source::Creature("cleric".into()), Duration::Concentration)).expect("valid");
    assert_eq!(effects.held_by("druid").count(), 1);
    let ended = effects.concentration_ended("druid");
    assert_eq!(ended, vec![EffectEvent::Ended { name: "entangled".into(), reason: EndReason::ConcentrationEnded }]);
    assert_eq!(effects.list.len(), 1);
    assert_eq!(Effect::new("x", Source::Dm, Duration::Concentration).validate(), Err(EffectError::NeedsCreatureSource));
}

/// PHB "Grappling": the grapple ends when the grappler is incapacitated or the grappled is out
/// of its reach; dragging costs double unless the grappled is two or more sizes smaller.
#[test]
fn grapples_end_and_drag_as_the_phb_says() {
    assert_eq!(grapple_holds(false, 5, 5), Ok(()));
    assert_eq!(grapple_holds(true, 5, 5), Err(EndReason::GrapplerIncapacitated));
    assert_eq!(grapple_holds(false, 10, 5), Err(EndReason::OutOfReach));
    assert_eq!(grapple_holds(false, 10, 10), Ok(()));
    assert_eq!(drag_factor(Size::Medium, Size::Medium), 2);
    assert_eq!(drag_factor(Size::Large, Size::Medium), 2);
    assert_eq!(drag_factor(Size::Huge, Size::Medium), 1);
    assert_eq!(drag_factor(Size::Medium, Size::Tiny), 1);
    let mut held = Effects::default();
    let grapple = Effect {
        grapple_reach: Some(5),
        ..Effect::new("grappled", Source::Creature("ogre".into()), Duration::UntilRemoved)
    };
    held.give(grapple).expect("valid");
    let free = Effects::default();
    assert_eq!(drag_cost("ogre", Size::Large, [(Size::Medium, &held), (Size::Tiny, &free)]), 2);
    assert_eq!(drag_cost("ogre", Size::Huge, [(Size::Medium, &held)]), 1, "two sizes smaller");
    assert_eq!(drag_cost("troll", Size::Large, [(Size::Medium, &held)]), 1, "it holds no one");
}

/// Bad effects are refused with a reason; a creature holds at most [`MAX_EFFECTS`].
#[test]
fn bad_effects_are_refused() {
    let mut effect = frightened(31);
    assert_eq!(effect.validate(), Err(EffectError::Dc(31)));
    effect = Effect::new("", Source::Dm, Duration::Rounds(1));
    assert_eq!(effect.validate(), Err(EffectError::NoName));
    effect = Effect::new("x", Source::Dm, Duration::Hours(u32::MAX));
    assert!(matches!(effect.validate(), Err(EffectError::TooLong(_))));
    effect = Effect::new("x", Source::Dm, Duration::UntilSaved);
    assert_eq!(effect.validate(), Err(EffectError::UntilSavedWithoutSave));
    effect = Effect {
        damage: Some(TurnDamage {
            dice: "1d6+".into(),
            kind: DamageType::Fire,
            at: TurnPoint::Start,
            on_failed_save: false,
        }),
        ..Effect::new("x", Source::Dm, Duration::Rounds(1))
    };
    assert!(matches!(effect.validate(), Err(EffectError::Dice(_))));
    let mut effects = Effects::default();
    for _ in 0..MAX_EFFECTS {
        effects.give(Effect::new("x", Source::Dm, Duration::Rounds(1))).expect("room");
    }
    assert_eq!(effects.give(Effect::new("x", Source::Dm, Duration::Rounds(1))), Err(EffectError::TooMany));
}

/// Effects read back from a session are checked as a scenario's are, and where each stands:
/// a bad DC, a duplicate id, more successes than the save needs and more than [`MAX_EFFECTS`]
/// are refused (as the list is read, for the last); numbers to come are set past those there.
#[test]
fn saved_effects_are_checked_before_they_are_played_on() {
    let mut effects = Effects::default();
    effects.give(frightened(13)).expect("valid");
    effects.give(Effect::new("burning", Source::Dm, Duration::Rounds(3))).expect("valid");
    let json = |e: &Effects| serde_json::to_value(e).expect("json");
    let back = |v: serde_json::Value| serde_json::from_value::<Effects>(v).expect("reads").checked();
    assert_eq!(back(json(&effects)), Ok(effects.clone()));

    let mut bad = json(&effects);
    bad["list"][0]["effect"]["save"]["dc"] = 2147483647.into();
    assert!(matches!(back(bad), Err(SavedEffectError::Effect { why: EffectError::Dc(2147483647), .. })));
    let mut twin = json(&effects);
    twin["list"][1]["id"] = twin["list"][0]["id"].clone();
    assert!(matches!(back(twin), Err(SavedEffectError::Numbering { .. })));
    let mut saved_too_often = json(&effects);
    saved_too_often["list"][0]["successes"] = 2.into();
    assert!(matches!(back(saved_too_often), Err(SavedEffectError::Progress { .. })));

    // The numbers to come: past those there, whatever the file said.
    let mut behind = json(&effects);
    behind["next_id"] = 0.into();
    behind["next_given"] = u64::MAX.into();
    let mut mended = back(behind).expect("mended");
    let (id, _) = mended.give(Effect::new("dazed", Source::Dm, Duration::Rounds(1))).expect("room");
    assert!(id > 1 && mended.list.iter().filter(|l| l.id == id).count() == 1, "a new id: {id}");

    // A hundred effects: refused at the sixty-fifth, before the rest are read.
    let mut many = json(&effects);
    let one = many["list"][1].clone();
    many["list"] = serde_json::Value::Array(vec![one; 100]);
    let error = serde_json::from_value::<Effects>(many).expect_err("too many");
    assert!(error.to_string().contains(&format!("at most {MAX_EFFECTS}")), "{error}");
}

/// Time out of combat: a minute is ten rounds; a rest runs timed effects out.
#[test]
fn time_passing_runs_timed_effects_out() {
    let mut effects = Effects::default();
    effects.give(Effect::new("poisoned", Source::Dm, Duration::Hours(1))).expect("valid");
    effects.give(Effect::new("cursed", Source::Dm, Duration::UntilRemoved)).expect("valid");
    assert!(effects.pass_time(599).is_empty());
    assert_eq!(effects.pass_time(1).len(), 1);
    assert_eq!(effects.list.len(), 1);
}

/// Sight rot's penalty (SRD 5.1) comes off every attack's bonus while it is in force; no effect,
/// no change.
#[test]
fn a_penalty_comes_off_the_attack_bonus() {
    use crate::rules::creature::{Attack, Sheet};
    let attack = Attack { name: "Rapier".into(), bonus: 5, damage: "1d8+3".into(), ..Attack::default() };
    let mut sheet = Sheet { attacks: vec![attack], ..Sheet::default() };
    hampered(&mut sheet, &Effects::default());
    assert_eq!(sheet.attacks[0].bonus, 5);
    let mut effects = Effects::default();
    effects
        .give(Effect { penalty: -2, ..Effect::new("Sight rot", Source::Dm, Duration::UntilRemoved) })
        .expect("valid");
    hampered(&mut sheet, &effects);
    assert_eq!(sheet.attacks[0].bonus, 3);
}

/// A stat block's "Condition Immunities": an effect that would frighten a creature immune to
/// being frightened gives it nothing, and another creature still is.
#[test]
fn an_effect_gives_no_condition_the_creature_is_immune_to() {
    let mut effects = Effects::default();
    effects.give(frightened(12)).expect("valid");
    let immune = BTreeSet::from([Condition::Frightened]);
    let mut conditions = Conditions::default();
    effects.update_conditions_but(&mut conditions, &immune);
    assert!(!conditions.has(Condition::Frightened));
    effects.update_conditions(&mut conditions);
    assert!(conditions.has(Condition::Frightened));
}
