//! Siege equipment in the headless app (DMG "Siege Equipment", "Objects"): a scripted, seeded
//! siege round on `scenes/castle_siege.ron` driven by the same messages as the card and the map,
//! whose log and notices are a snapshot.

use bevy::prelude::*;

use battlemap::app::core::components::{Combatant, CrewStep, HitPoints, SiegeWeapon};
use battlemap::app::core::messages::{AttackHow, AttackRequest, SiegeRequest, TurnRequest};
use battlemap::app::core::notice::{CantPush, CantWork, NotNow, Said};
use battlemap::rules::log::RollReason;
use battlemap::rules::movement::MoveError;
use battlemap::rules::siege::{PushError, SiegeError, Step};
use battlemap::ui::log::log_line;

use super::headless::{app_with, entity_of, log_entries, notice, said};

/// The script's driver: each step on its creature's own turn, with the notice it gave.
struct Siege {
    app: App,
    notices: Vec<String>,
}

impl Siege {
    fn turn(&mut self, id: &str) {
        let entity = entity_of(&mut self.app, id);
        self.app.world_mut().write_message(TurnRequest::StartTurn(entity));
        self.app.update();
    }

    /// Sends a message and gives what the app said, noting its words for the snapshot.
    fn send(&mut self, request: impl Message) -> Said {
        self.app.world_mut().write_message(request);
        self.app.update();
        let said = said(&self.app).expect("a notice");
        let text = notice(&self.app);
        self.notices.push(format!("{}{text}", if said.is_refusal() { "REFUSED: " } else { "" }));
        said
    }

    /// `operator` fires `weapon` at `target` (the weapon's one attack): the click on the target
    /// after the card's fire button.
    fn fire(&mut self, operator: Entity, weapon: Entity, target: Entity) -> Said {
        let attack = self.app.world().get::<Combatant>(weapon).expect("a weapon").sheet.attacks[0].name.clone();
        self.send(AttackRequest { attacker: weapon, target, attack, how: AttackHow::Crewed { operator } })
    }

    fn e(&mut self, id: &str) -> Entity {
        entity_of(&mut self.app, id)
    }

    fn hp(&mut self, id: &str) -> i32 {
        let entity = self.e(id);
        self.app.world().get::<HitPoints>(entity).expect("hit points").0.hp
    }

    fn weapon(&mut self, id: &str) -> SiegeWeapon {
        let entity = self.e(id);
        self.app.world().get::<SiegeWeapon>(entity).expect("a siege weapon").clone()
    }
}

/// One siege round and the start of the next: the ram's crew strikes the gate (its damage
/// threshold of 15 stops a small blow), the cauldron is tipped on the square before the gate (the
/// knight in it saves, the ram's crew under the gallery roof is sheltered), the ballista and the
/// mangonel are aimed over several creatures' actions, a step out of order is refused, then the
/// ballista fires at the archer in the field and the mangonel lobs a stone over the wall at the
/// sergeant in the courtyard. The same seed replays the same log.
#[test]
fn a_scripted_siege_round() {
    let play = || {
        let mut s = Siege { app: app_with("scenes/castle_siege.ron"), notices: Vec::new() };
        let (ram, gate, cauldron, ballista, mangonel) =
            (s.e("ram"), s.e("gate"), s.e("cauldron"), s.e("ballista"), s.e("mangonel"));
        let (soldier, oil_guard, bolt_guard) = (s.e("soldier-1"), s.e("oil-guard"), s.e("bolt-guard"));
        let (engineer_1, engineer_2, wren, sergeant) =
            (s.e("engineer-1"), s.e("engineer-2"), s.e("wren"), s.e("sergeant"));

        s.turn("soldier-1");
        let gate_before = s.hp("gate");
        let said = s.fire(soldier, ram, gate);
        assert!(matches!(said, Said::Attacked { .. }), "{said:?}");
        let said = s.send(SiegeRequest::Work { operator: soldier, weapon: ram, step: Step::Load });
        let no_such_step = matches!(&said, Said::CantWork { why: CantWork::Siege(e), .. } if matches!(**e, SiegeError::NoSuchStep { .. }));
        assert!(no_such_step, "{said:?}");
        // The rest of the crew takes turns at it: every soldier's blow is logged, and the gate
        // loses only what passes its threshold.
        for id in ["soldier-2", "soldier-3", "soldier-4"] {
            s.turn(id);
            let operator = s.e(id);
            s.fire(operator, ram, gate);
        }
        let log = log_entries(&s.app);
        let mut dealt = 0;
        for damage in &log {
            let RollReason::Damage { of, to: Some(to), dealt: Some((amount, _)), .. } = &damage.reason else {
                continue;
            };
            if (of.as_str(), to.as_str()) != ("Ram", "Gate") {
                continue;
            }
            let (amount, rolled) = (*amount, damage.roll.total);
            assert_eq!(amount, if rolled < 15 { 0 } else { rolled }, "the gate's threshold: {damage:?}");
            dealt += amount;
        }
        assert_eq!(gate_before - s.hp("gate"), dealt, "{log:#?}");

        s.turn("oil-guard");
        let soldiers_before = (s.hp("soldier-3"), s.hp("soldier-4"));
        let said = s.send(SiegeRequest::Tip { operator: oil_guard, weapon: cauldron });
        let Said::Tipped { lines, .. } = &said else { panic!("{said:?}") };
        assert!(lines.iter().any(|l| l.name == "Sir Aldric" && l.note.is_none()), "the knight saves: {lines:?}");
        let sheltered = lines.iter().filter(|l| l.note.as_deref().is_some_and(|n| n.contains("gallery roof")));
        assert_eq!(sheltered.count(), 2, "two of the ram's crew are under the oil, and its roof: {lines:?}");
        assert_eq!((s.hp("soldier-3"), s.hp("soldier-4")), soldiers_before, "sheltered under the ram's roof");
        assert_eq!(s.weapon("cauldron").siege.crewing.state(battlemap::rules::siege::SiegeKind::Cauldron), "empty");

        s.turn("bolt-guard");
        let said = s.send(SiegeRequest::Work { operator: bolt_guard, weapon: ballista, step: Step::Aim });
        assert!(matches!(&said, Said::Worked { state, .. } if state == "aimed"), "{said:?}");
        let said = s.fire(bolt_guard, ballista, wren);
        let spent = matches!(said, Said::CantWork { why: CantWork::NotNow(NotNow::Spent { .. }), .. });
        assert!(spent, "one action a turn: {said:?}");

        s.turn("engineer-1");
        s.send(SiegeRequest::Work { operator: engineer_1, weapon: mangonel, step: Step::Aim });
        s.turn("engineer-2");
        let said = s.send(SiegeRequest::Work { operator: engineer_2, weapon: mangonel, step: Step::Aim });
        assert!(matches!(&said, Said::Worked { state, .. } if state == "aimed"), "two creatures' actions: {said:?}");
        let crew = s.weapon("mangonel").crew_this_round;
        let aimed = CrewStep { who: "Engineer".into(), step: Step::Aim };
        assert_eq!(crew, [aimed.clone(), aimed]);

        s.turn("bolt-guard");
        let said = s.fire(bolt_guard, ballista, wren);
        let shot = matches!(&said, Said::Attacked { attacker, target, attack, .. }
            if attacker == "Ballista guard's ballista" && target == "Wren" && attack == "Bolt");
        assert!(shot, "{said:?}");
        assert_eq!(s.weapon("ballista").siege.crewing, Default::default(), "firing empties it");

        s.turn("engineer-1");
        let said = s.fire(engineer_1, mangonel, sergeant);
        assert!(matches!(said, Said::Attacked { .. }), "the stone flies over the wall: {said:?}");
        let log: Vec<String> = log_entries(&s.app).iter().map(log_line).collect();
        let stone = log.iter().find(|l| l.contains("Mangonel stone attack on Sergeant")).expect("logged");
        assert!(!stone.contains("cover"), "the high arc ignores the wall: {stone}");
        format!("NOTICES\n{}\n\nLOG\n{}", s.notices.join("\n"), log.join("\n"))
    };
    let first = play();
    insta::assert_snapshot!("castle_siege_round_seed2026", first);
    assert_eq!(first, play(), "the same seed replays the same siege");
}

/// Pushing a siege weapon (a call on DMG "Siege Equipment": weapons "require creatures to move
/// them"): dropping the ram two squares on moves it with its four soldiers walking alongside, each
/// paying twice the ram's 10 ft; farther than half their movement is refused and moves nothing; a
/// weapon short of crew doesn't move; while a fight runs, it moves on a pusher's turn.
#[test]
fn the_crew_pushes_the_ram() {
    use battlemap::app::core::components::{Position, TurnMoves};
    use battlemap::app::core::messages::MoveToken;
    use battlemap::rules::Cell;
    let mut s = Siege { app: app_with("scenes/castle_siege.ron"), notices: Vec::new() };
    let ram = s.e("ram");
    let at = |s: &mut Siege, id: &str| {
        let entity = s.e(id);
        s.app.world().get::<Position>(entity).expect("position").0
    };
    let left = |s: &mut Siege, id: &str| {
        let entity = s.e(id);
        s.app.world().get::<TurnMoves>(entity).expect("movement").turn.left()
    };
    let push = |s: &mut Siege, to: Cell| s.send(MoveToken { entity: ram, to, by_dm: false });
    let too_far = |said: &Said, feet: u32| matches!(said, Said::CantPush { why: CantPush::Push(PushError::NoPath { feet: f, .. }), .. } if *f == feet);
    let said = push(&mut s, Cell::new(13, 10));
    assert!(too_far(&said, 15), "20 ft is beyond half of 30 ft: {said:?}");
    assert_eq!(at(&mut s, "ram"), Cell::new(13, 6), "nothing moved");
    let said = push(&mut s, Cell::new(13, 8));
    assert!(matches!(said, Said::Pushed { feet: 10, each: 20, .. }), "{said:?}");
    assert_eq!(at(&mut s, "ram"), Cell::new(13, 8));
    for (id, to) in [("soldier-1", (12, 8)), ("soldier-2", (12, 9)), ("soldier-3", (15, 8)), ("soldier-4", (15, 9))] {
        assert_eq!(at(&mut s, id), Cell::new(to.0, to.1), "{id} walks alongside");
        assert_eq!(left(&mut s, id), 10, "{id} paid 20 ft for 10 ft of pushing");
    }
    let said = push(&mut s, Cell::new(13, 9));
    let short = matches!(
        &said,
        Said::CantPush {
            why: CantPush::Push(PushError::NoPath { feet: 5, why: Some(MoveError::NotEnoughMovement { .. }) }),
            ..
        }
    );
    assert!(short, "10 ft left each: 5 ft, and the low wall makes it 10: {said:?}");
    // In a fight, on Wren's turn the ram stays; on a soldier's it moves.
    s.turn("wren");
    let said = push(&mut s, Cell::new(12, 8));
    assert!(matches!(said, Said::CantPush { why: CantPush::NotTheirTurn, .. }), "{said:?}");
    s.turn("soldier-3");
    let said = push(&mut s, Cell::new(12, 8));
    assert!(matches!(said, Said::Pushed { .. }), "a fresh turn's 30 ft: {said:?}");
    assert_eq!(at(&mut s, "soldier-3"), Cell::new(14, 8));
    // A ballista with one guard beside it: too few to push.
    let ballista = s.e("ballista");
    let said = s.send(MoveToken { entity: ballista, to: Cell::new(18, 3), by_dm: false });
    assert!(matches!(said, Said::CantPush { why: CantPush::Push(PushError::TooFew { .. }), .. }), "{said:?}");
    // The DM moves it anyway, alone.
    s.app.world_mut().write_message(MoveToken { entity: ballista, to: Cell::new(18, 3), by_dm: true });
    s.app.update();
    let ballista_at = s.app.world().get::<Position>(ballista).expect("position").0;
    assert_eq!(ballista_at, Cell::new(18, 3));
}

/// The card's view model follows the board: a selected ram shows its state and its crew of four,
/// and after a soldier's strike the crew of the round; a selected soldier lists the ram beside it
/// with its next step.
#[test]
fn the_siege_card_follows_the_weapon() {
    use battlemap::app::core::messages::SelectToken;
    use battlemap::app::view::panels::siege_card::{SiegeCard, plugin as siege_card};
    let mut s = Siege { app: app_with("scenes/castle_siege.ron"), notices: Vec::new() };
    s.app.add_plugins(siege_card);
    let card = |s: &mut Siege, id: &str| {
        s.app.world_mut().write_message(SelectToken(Some(id.into())));
        s.app.update();
        s.app.world().resource::<SiegeCard>().0.clone()
    };
    let ram = card(&mut s, "ram").weapon.expect("the ram's card");
    assert_eq!((ram.kind.as_str(), ram.state.as_str()), ("Ram", "ready"));
    assert!(ram.ram_crew.as_deref().is_some_and(|c| c.starts_with("4 Medium creatures of the 4")), "{ram:?}");
    assert!(ram.push.ends_with("it can go 15 ft"), "{}", ram.push);
    assert!(ram.crew_this_round.is_empty());
    let soldier = card(&mut s, "soldier-1");
    assert_eq!(soldier.nearby.len(), 1, "{soldier:?}");
    let (ram_row, next) = (&soldier.nearby[0], soldier.nearby[0].next.clone());
    assert_eq!((ram_row.id.as_str(), next.map(|(_, verb)| verb)), ("ram", Some("ram".to_owned())));
    assert!(ram_row.why_not.is_none());
    s.turn("soldier-1");
    let (operator, weapon, target) = (s.e("soldier-1"), s.e("ram"), s.e("gate"));
    s.fire(operator, weapon, target);
    let ram = card(&mut s, "ram").weapon.expect("the ram's card");
    assert_eq!(ram.crew_this_round, ["Soldier rammed"]);
}
