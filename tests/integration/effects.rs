//! Effects that last, from a scenario file through `check`, `fmt` and `query … effects` and
//! `query … advance` (issue 28).

use serde_json::Value;

use super::cli::battlemap;
use super::{root, scratch};

const CRYPT: &str = "scenes/haunted_crypt.ron";

/// `query … effects` lists a creature's effects with their source, duration and save.
#[test]
fn query_lists_a_creatures_effects() {
    let (code, out, err) = battlemap(&["query", CRYPT, "effects", "vex"]);
    assert_eq!(code, 0, "{err}");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    let effect = &answer["effects"][0];
    assert_eq!(effect["name"], "frightened");
    assert_eq!(effect["source"], "ghoul");
    assert_eq!(effect["rounds_left"], 10, "a minute is ten rounds");
    assert_eq!(effect["in_force"], true);
    assert_eq!(effect["save"], "DC 10 Wisdom save at the end of each of its turns");
    let (code, _, err) = battlemap(&["query", CRYPT, "effects", "nobody"]);
    assert_eq!(code, 2);
    assert!(err.contains("no token has the id"), "{err}");
}

/// `query … advance` runs the tracker headless: the same seed gives the same story; each save
/// against an effect and each ending is printed; the diseases advance at the dawns.
#[test]
fn advance_prints_each_roll_and_ending_and_replays_from_its_seed() {
    let args = ["query", CRYPT, "advance", "--rounds", "3", "--dawns", "2", "--seed", "28"];
    let (code, out, err) = battlemap(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(battlemap(&args).1, out, "the seed replays the story");
    let answer: Value = serde_json::from_str(&out).expect("JSON");
    let events = answer["events"].as_array().expect("events");
    let saves_against =
        |name: &str| events.iter().filter(|e| e["kind"] == "roll" && e["entry"]["reason"]["effect"] == name).count();
    assert!(saves_against("frightened") >= 1, "Vex saves at the end of her turns: {out}");
    assert!(saves_against("Sewer plague") >= 1, "Orla saves at a dawn after the symptoms: {out}");
    let ended = |name: &str| events.iter().any(|e| e["event"] == "ended" && e["name"] == name);
    assert!(ended("burning"), "two rounds of burning run out");
    assert!(
        events.iter().any(|e| e["kind"] == "exhaustion" && e["who"] == "Orla"),
        "the plague's symptoms bring exhaustion"
    );
    let (code, _, err) = battlemap(&["query", CRYPT, "advance", "--rounds", "101"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("101"), "{err}");
}

/// `check` refuses a bad effect at its place in the file with a sentence; `fmt` keeps effects.
#[test]
fn check_refuses_bad_effects_and_fmt_keeps_good_ones() {
    let dir = scratch("effects-check");
    let text = std::fs::read_to_string(root().join(CRYPT)).expect("the crypt");
    for (from, to, says) in [
        ("dc: 10", "dc: 31", "the save's `dc` is 31: DCs run from 1 to 30"),
        ("Creature(\"ghoul\")", "Creature(\"lich\")", "comes from \"lich\", but no creature has that id"),
        ("duration: Minutes(1)", "duration: UntilSaved, penalty: 99", "`penalty` is 99: from -20 to 20"),
        ("dice: \"1d6\"", "dice: \"1d6+\"", "the damage"),
        ("duration: Rounds(2)", "duration: Rounds(2), mood: 3", "mood"),
    ] {
        assert!(text.contains(from), "{from}");
        let file = dir.join("bad.ron");
        std::fs::write(&file, text.replacen(from, to, 1)).expect("write");
        let (code, _, err) = battlemap(&["check", file.to_str().expect("utf-8")]);
        assert_eq!(code, 2, "{to}: {err}");
        assert!(err.contains(says), "{to}: {err}");
        assert!(err.contains("bad.ron:"), "{to}: the file and its place: {err}");
    }
    let file = dir.join("crypt.ron");
    std::fs::write(&file, &text).expect("write");
    let (code, _, err) = battlemap(&["fmt", file.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = battlemap(&["query", file.to_str().expect("utf-8"), "effects", "orla"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Sewer plague"), "{out}");
    let (_, ghoul, _) = battlemap(&["query", file.to_str().expect("utf-8"), "effects", "ghoul"]);
    assert!(ghoul.contains("\"secret\": true") && ghoul.contains("restrained"), "{ghoul}");
}

mod on_the_map {
    use bevy::prelude::*;

    use battlemap::app::core::components::{Combatant, HitPoints, LastingEffects};
    use battlemap::app::core::dice::RollRecord;
    use battlemap::app::core::messages::{AttackHow, AttackRequest, EffectRequest, FightRequest, TurnRequest};
    use battlemap::app::core::requests::EffectAction;
    use battlemap::app::core::state::LoadedScenario;
    use battlemap::rules::conditions::Condition;
    use battlemap::rules::creature::Ability;
    use battlemap::rules::effects::poisons::Poison;
    use battlemap::rules::effects::{Duration, EndReason, RepeatedSave, Source, TurnPoint};
    use battlemap::rules::log::{LogEntry, RollReason};
    use battlemap::scenario::Scenario;

    use super::super::headless::entity_of;
    use super::super::{root, scratch};

    fn send(app: &mut App, message: impl Message) {
        app.world_mut().write_message(message);
        app.update();
    }

    fn give(app: &mut App, to: Entity, effect: battlemap::rules::effects::Effect) {
        send(app, EffectRequest { target: Some(to), action: EffectAction::Give(Box::new(effect)) });
    }

    fn log(app: &App) -> Vec<LogEntry> {
        app.world().resource::<RollRecord>().0.entries.clone()
    }

    fn ended(app: &App, effect: &str, reason: EndReason) -> bool {
        log(app).iter().any(|e| e.reason == RollReason::EffectEnded { effect: effect.into(), reason: reason.clone() })
    }

    fn conditions(app: &App, who: Entity) -> battlemap::rules::conditions::Conditions {
        app.world().get::<Combatant>(who).expect("a creature").conditions.clone()
    }

    /// The wight's grapple: Orla held within its 5-ft reach.
    fn held_by_the_wight() -> battlemap::rules::effects::Effect {
        battlemap::rules::effects::Effect {
            conditions: vec![Condition::Grappled],
            grapple_reach: Some(5),
            ..battlemap::rules::effects::Effect::new(
                "grappled",
                Source::Creature("wight".into()),
                Duration::UntilRemoved,
            )
        }
    }

    /// The crypt with the wight beside Orla, on the app without a window, seeded.
    fn crypt(seed: u64) -> App {
        let text = std::fs::read_to_string(root().join(super::CRYPT)).expect("the crypt");
        let file = scratch("effects-map").join(format!("crypt-{seed}.ron"));
        // The wight beside Orla; Vex sure to make her Wisdom saves (her fear ends at the first).
        let text = text.replace("at: (10, 5)", "at: (4, 5)").replacen(
            "wis: 1), pc: true",
            "wis: 1), saves: {Wis: 9}, pc: true",
            1,
        );
        std::fs::write(&file, text).expect("write");
        let scenario = Scenario::load(&file).expect("valid");
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .insert_resource(LoadedScenario::from_file(scenario, file))
            .insert_resource(battlemap::app::LaunchOptions { seed: Some(seed), ..Default::default() })
            .add_plugins(battlemap::app::headless_plugin);
        app.update();
        app.update();
        app
    }

    /// A scripted, seeded fight of three rounds on the map's own systems: Vex's repeated save
    /// ends "frightened"; damage to Pip calls for a concentration save; the grapple on Orla ends
    /// when the wight holding her is stunned; Orla's blade coated with serpent venom delivers it
    /// on a hit; two "blessed" don't add.
    #[test]
    fn three_rounds_run_the_effects() {
        let mut app = crypt(28);
        let [vex, orla, pip, wight] = ["vex", "orla", "pip", "wight"].map(|id| entity_of(&mut app, id));
        assert!(conditions(&app, vex).has(Condition::Frightened), "the scene's effect frightens Vex");
        give(&mut app, orla, held_by_the_wight());
        assert!(conditions(&app, orla).has(Condition::Grappled));
        let blessed = |dc| battlemap::rules::effects::Effect {
            save: Some(RepeatedSave { ability: Ability::Cha, dc, at: TurnPoint::End, successes: 1 }),
            ..battlemap::rules::effects::Effect::new("blessed", Source::Dm, Duration::Minutes(1))
        };
        give(&mut app, vex, blessed(30));
        give(&mut app, vex, blessed(12));
        let lasting = app.world().get::<LastingEffects>(vex).expect("effects").0.clone();
        assert_eq!(lasting.list.iter().filter(|l| l.effect.name == "blessed").count(), 2);
        assert_eq!(lasting.applying().filter(|l| l.effect.name == "blessed").count(), 1, "they don't add");
        assert!(
            log(&app).iter().any(|e| e.reason == RollReason::EffectBegan { effect: "blessed".into(), waiting: true })
        );
        send(&mut app, EffectRequest { target: Some(orla), action: EffectAction::Coat(Some(Poison::SerpentVenom)) });
        for round in 1..=3 {
            send(&mut app, TurnRequest::StartTurn(orla));
            if app.world().get::<battlemap::app::core::components::CoatedWeapon>(orla).is_some() {
                let attack =
                    AttackRequest { attacker: orla, target: wight, attack: "Longsword".into(), how: AttackHow::Action };
                send(&mut app, attack);
            }
            if round == 1 {
                send(&mut app, FightRequest::Damage { target: pip, amount: 6 });
            }
            if round == 2 {
                send(&mut app, FightRequest::Condition { target: wight, condition: Condition::Stunned, on: true });
            }
            for who in [vex, pip, wight] {
                send(&mut app, TurnRequest::StartTurn(who));
            }
        }
        let lines: Vec<String> = log(&app).iter().map(battlemap::ui::log::log_line).collect();
        assert!(ended(&app, "frightened", EndReason::Saved), "{lines:#?}");
        assert!(!conditions(&app, vex).has(Condition::Frightened));
        assert!(
            log(&app).iter().any(|e| e.who == "Pip" && matches!(e.reason, RollReason::Concentration { dc: 10, .. })),
            "{lines:#?}"
        );
        assert!(ended(&app, "grappled", EndReason::GrapplerIncapacitated), "{lines:#?}");
        assert!(!conditions(&app, orla).has(Condition::Grappled));
        let venom =
            log(&app).iter().any(|e| matches!(&e.reason, RollReason::Damage { of, .. } if of == "Serpent venom"));
        assert!(venom, "a hit delivered the venom: {lines:#?}");
        assert!(app.world().get::<HitPoints>(wight).expect("hp").0.hp < 45);
        assert!(lines.iter().any(|l| l.contains("frightened ends: the saving throw succeeded")), "{lines:#?}");
    }

    /// The wight grappling Orla walks two squares east: each foot costs it two (PHB "Moving a
    /// Grappled Creature"), Orla is dragged into the last square it left, and the grapple holds;
    /// the DM then pushes Orla away and the grapple ends out of reach.
    #[test]
    fn a_grappler_drags_what_it_holds_at_half_speed() {
        use battlemap::app::core::components::{Position, TurnMoves};
        use battlemap::app::core::messages::MoveToken;
        use battlemap::rules::Cell;
        let mut app = crypt(9);
        let [orla, wight] = ["orla", "wight"].map(|id| entity_of(&mut app, id));
        give(&mut app, orla, held_by_the_wight());
        send(&mut app, TurnRequest::StartTurn(wight));
        send(&mut app, MoveToken::new(wight, Cell::new(6, 5)));
        app.update();
        let at = |app: &App, e: Entity| app.world().get::<Position>(e).expect("placed").0;
        let said =
            app.world().resource::<battlemap::app::core::notice::Notice>().0.as_ref().map(battlemap::ui::words::said);
        assert_eq!(at(&app, wight), Cell::new(6, 5), "{said:?}");
        assert_eq!(at(&app, orla), Cell::new(5, 5), "dragged into the square the wight left last");
        let left = app.world().get::<TurnMoves>(wight).expect("moves").turn.left();
        assert_eq!(left, 10, "10 ft of walking cost 20 of its 30");
        assert!(conditions(&app, orla).has(Condition::Grappled), "still held");
        send(&mut app, MoveToken { entity: orla, to: Cell::new(3, 6), by_dm: true });
        app.update();
        assert!(ended(&app, "grappled", EndReason::OutOfReach), "{:#?}", log(&app));
        assert!(!conditions(&app, orla).has(Condition::Grappled));
    }

    /// A dawn advances Orla's sewer plague through the card's button; a madness rolled from the
    /// card is cured by lesser restoration.
    #[test]
    fn dawns_advance_diseases_and_madness_is_rolled_and_cured() {
        let mut app = crypt(3);
        let [orla, vex] = ["orla", "vex"].map(|id| entity_of(&mut app, id));
        let exhaustion =
            |app: &App| app.world().get::<battlemap::app::core::components::Vitals>(orla).expect("vitals").exhaustion;
        send(&mut app, EffectRequest { target: None, action: EffectAction::Dawn });
        assert_eq!(exhaustion(&app), 1, "the symptoms: one level of exhaustion");
        for _ in 0..2 {
            send(&mut app, EffectRequest { target: None, action: EffectAction::Dawn });
        }
        let saves = log(&app)
            .iter()
            .filter(|e| matches!(&e.reason, RollReason::EffectSave { effect, .. } if effect == "Sewer plague"))
            .count();
        assert!(saves >= 1, "a save at the end of each long rest after the symptoms");
        send(
            &mut app,
            EffectRequest {
                target: Some(vex),
                action: EffectAction::Madness(battlemap::rules::effects::madness::MadnessKind::ShortTerm),
            },
        );
        let mad = |app: &App| {
            app.world()
                .get::<LastingEffects>(vex)
                .expect("effects")
                .0
                .list
                .iter()
                .any(|l| l.effect.name == "short-term madness")
        };
        assert!(mad(&app));
        let madness = app
            .world()
            .get::<LastingEffects>(vex)
            .expect("effects")
            .0
            .list
            .iter()
            .find(|l| l.effect.name == "short-term madness")
            .expect("mad")
            .id;
        send(
            &mut app,
            EffectRequest {
                target: Some(vex),
                action: EffectAction::Cure {
                    effect: madness,
                    cure: battlemap::rules::effects::Cure::LesserRestoration,
                },
            },
        );
        assert!(!mad(&app));
        assert!(ended(&app, "short-term madness", EndReason::Cured));
        let impossible = battlemap::rules::effects::Effect {
            save: Some(RepeatedSave { ability: Ability::Wis, dc: 31, at: TurnPoint::End, successes: 1 }),
            ..battlemap::rules::effects::Effect::new("doom", Source::Dm, Duration::Rounds(1))
        };
        give(&mut app, vex, impossible);
        let said = app.world().resource::<battlemap::app::core::notice::Notice>().0.clone();
        assert!(
            matches!(said, Some(battlemap::app::core::notice::Said::EffectRefused(_))),
            "a DC of 31 is refused with a notice: {said:?}"
        );
        assert!(
            app.world().get::<LastingEffects>(vex).expect("effects").0.list.iter().all(|l| l.effect.name != "doom")
        );
    }
}
