//! The app's state without a window: tokens become entities, selection and scenario loading work.

use bevy::prelude::*;

use battlemap::app::core::components::{
    Allegiance, Combatant, HitPoints, Position, Size as SizeComponent, TokenId, TurnMoves, Vitals,
};
use battlemap::app::core::dice::{Dice, RollRecord};
use battlemap::app::core::messages::{AttackHow, AttackRequest, FightRequest, OpenScenario, SelectToken};
use battlemap::app::core::notice::{Notice, Said};
use battlemap::app::core::state::{LoadedScenario, Selection};
use battlemap::rules::conditions::Condition;
use battlemap::rules::creature::Side;
use battlemap::rules::dice::SeededDice;
use battlemap::rules::health::Life;
use battlemap::rules::log::{AttackOccasion, LogEntry, RollLog, RollReason};
use battlemap::rules::{Cell, Size};
use battlemap::scenario::Scenario;

use super::{root, scratch};

/// The headless app on a sample scene, its dice seeded so every run rolls the same.
pub(super) fn app_with(path: &str) -> App {
    let path = root().join(path);
    let scenario = Scenario::load(&path).expect("valid sample");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(LoadedScenario::from_file(scenario, path))
        .insert_resource(battlemap::app::LaunchOptions { seed: Some(2026), ..Default::default() })
        .add_plugins(battlemap::app::headless_plugin);
    app.update();
    app.update();
    app
}

/// What the app said last.
pub(super) fn said(app: &App) -> Option<Said> {
    app.world().resource::<Notice>().0.clone()
}

/// What the app keeps on screen until it is dismissed.
pub(super) fn pinned(app: &App) -> Vec<Said> {
    app.world().resource::<battlemap::app::core::notice::Pinned>().0.clone()
}

/// What the app said last, in words (for failing assertions' messages).
pub(super) fn notice(app: &App) -> String {
    said(app).as_ref().map(battlemap::ui::words::said).unwrap_or_default()
}

/// The session's dice seeded anew, with an empty roll log.
pub(super) fn reseed(app: &mut App, seed: u64) {
    app.world_mut().insert_resource(Dice(SeededDice::new(seed)));
    app.world_mut().insert_resource(RollRecord(RollLog { seed, entries: Vec::new() }));
}

/// The roll log's entries.
pub(super) fn log_entries(app: &App) -> Vec<LogEntry> {
    app.world().resource::<RollRecord>().0.entries.clone()
}

fn token_ids(app: &mut App) -> Vec<String> {
    let mut query = app.world_mut().query::<&TokenId>();
    let mut ids: Vec<String> = query.iter(app.world()).map(|t| t.0.clone()).collect();
    ids.sort();
    ids
}

#[test]
fn every_token_becomes_an_entity_with_its_components() {
    let mut app = app_with("scenes/tavern_brawl.ron");
    let scenario = app.world().resource::<LoadedScenario>().scenario.clone();
    assert_eq!(token_ids(&mut app).len(), scenario.tokens.len());
    let mut query = app.world_mut().query::<(&TokenId, &Position, &SizeComponent, &Allegiance, &HitPoints)>();
    let (_, position, size, side, hit_points) =
        query.iter(app.world()).find(|(id, ..)| id.0 == "gorm").expect("Gorm is on the map");
    assert_eq!(position.0, Cell::new(15, 2));
    assert_eq!(size.size, Size::Large);
    assert_eq!(side.0, Side::Ally);
    assert_eq!((hit_points.0.hp, hit_points.0.max_hp), (59, 59));
}

#[test]
fn selecting_by_id_and_clearing() {
    let mut app = app_with("scenes/tavern_brawl.ron");
    app.world_mut().write_message(SelectToken(Some("lia".into())));
    app.update();
    let selected = app.world().resource::<Selection>().0.expect("selected");
    assert_eq!(app.world().get::<TokenId>(selected).map(|t| t.0.as_str()), Some("lia"));
    app.world_mut().write_message(SelectToken(Some("nobody".into())));
    app.update();
    assert_eq!(app.world().resource::<Selection>().0, None);
}

#[test]
fn opening_a_bad_file_keeps_the_scenario_and_a_good_one_replaces_it() {
    let mut app = app_with("scenes/tavern_brawl.ron");
    let before = token_ids(&mut app);
    let dir = scratch("headless-open");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Scenario(name: \"Bad\", grid: Square, map: [\"..\"], creatures: [(id: \"x\")])")
        .expect("write");
    app.world_mut().write_message(OpenScenario { path: Some(bad) });
    app.update();
    app.update();
    assert_eq!(token_ids(&mut app), before);
    let kept = matches!(said(&app), Some(Said::KeptScenario(errors)) if errors.0[0].to_string().contains("bad.ron:1:"));
    assert!(kept, "{}", notice(&app));

    app.world_mut().write_message(OpenScenario { path: Some(root().join("scenes/hex_skirmish.ron")) });
    app.update();
    app.update();
    assert!(token_ids(&mut app).contains(&"giant".to_owned()));
    assert_eq!(app.world().resource::<LoadedScenario>().scenario.name, "Skirmish at Crowfield");
}

pub(super) fn entity_of(app: &mut App, id: &str) -> Entity {
    let mut query = app.world_mut().query::<(Entity, &TokenId)>();
    query.iter(app.world()).find(|(_, t)| t.0 == id).map_or_else(|| panic!("{id}"), |(e, _)| e)
}

#[test]
fn moving_spends_movement_and_undo_takes_it_back() {
    use battlemap::app::core::messages::{MoveToken, TurnRequest};
    use battlemap::rules::movement::MoveError;
    let mut app = app_with("scenes/tavern_brawl.ron");
    let lia = entity_of(&mut app, "lia");
    assert_eq!(app.world().get::<TurnMoves>(lia).map(|m| m.turn.left()), Some(25));
    app.world_mut().write_message(MoveToken::new(lia, Cell::new(7, 7)));
    app.update();
    assert_eq!(app.world().get::<Position>(lia).map(|p| p.0), Some(Cell::new(7, 7)));
    assert_eq!(app.world().get::<TurnMoves>(lia).map(|m| m.turn.left()), Some(10));

    // Into a table: refused, with the reason, and Lia stays.
    app.world_mut().write_message(MoveToken::new(lia, Cell::new(8, 7)));
    app.update();
    assert_eq!(app.world().get::<Position>(lia).map(|p| p.0), Some(Cell::new(7, 7)));
    let blocked = matches!(
        said(&app),
        Some(Said::CantMoveTo { why: Some(MoveError::Blocked { terrain, at }), .. }) if terrain == "table" && at == Cell::new(8, 7)
    );
    assert!(blocked, "{}", notice(&app));

    // 15 ft away with 10 left: outside a fight no turn counts it, and no Dash is taken (in a
    // fight it would be: turns.rs).
    app.world_mut().write_message(MoveToken::new(lia, Cell::new(4, 7)));
    app.update();
    assert_eq!(app.world().get::<Position>(lia).map(|p| p.0), Some(Cell::new(4, 7)));
    let moves = app.world().get::<TurnMoves>(lia).cloned().expect("moves");
    assert_eq!((moves.turn.dashes, moves.turn.moves.len()), (0, 2));

    app.world_mut().write_message(TurnRequest::Undo(lia));
    app.update();
    let moves = app.world().get::<TurnMoves>(lia).cloned().expect("moves");
    assert_eq!((moves.turn.dashes, moves.turn.left(), moves.turn.moves.len()), (0, 10, 1));
    assert_eq!(app.world().get::<Position>(lia).map(|p| p.0), Some(Cell::new(7, 7)));

    // A new turn resets the movement.
    app.world_mut().write_message(TurnRequest::StartTurn(lia));
    app.update();
    assert_eq!(app.world().get::<TurnMoves>(lia).map(|m| m.turn.left()), Some(25));
}

#[test]
fn next_turn_rolls_initiative_then_follows_it() {
    use battlemap::app::core::messages::TurnRequest;
    use battlemap::app::core::turns::Turns;
    let mut app = app_with("scenes/tavern_brawl.ron");
    reseed(&mut app, 21);
    app.world_mut().write_message(TurnRequest::NextTurn);
    app.update();
    app.update();
    let order: Vec<String> = app.world().resource::<Turns>().order.entries.iter().map(|e| e.id.clone()).collect();
    assert_eq!(order.len(), 10, "every creature, not the keg");
    assert_eq!(log_entries(&app).iter().filter(|e| e.reason == RollReason::Initiative).count(), 10);
    let first = entity_of(&mut app, &order[0]);
    assert_eq!(app.world().resource::<Turns>().active, Some(first));
    assert_eq!(app.world().resource::<Turns>().round(), 1);
    assert_eq!(app.world().resource::<Selection>().0, Some(first));
    app.world_mut().write_message(TurnRequest::NextTurn);
    app.update();
    let second = entity_of(&mut app, &order[1]);
    assert_eq!(app.world().resource::<Turns>().active, Some(second));
}

#[test]
fn the_diagonal_count_carries_across_moves_in_a_turn() {
    use battlemap::app::core::messages::MoveToken;
    // The Sunken Gallery uses the optional rule: Pip's first diagonal costs 5 ft, the second 10,
    // even in a separate move.
    let mut app = app_with("scenes/dungeon_corridor.ron");
    let pip = entity_of(&mut app, "pip");
    app.world_mut().write_message(MoveToken::new(pip, Cell::new(10, 6)));
    app.update();
    assert_eq!(app.world().get::<TurnMoves>(pip).map(|m| m.turn.spent), Some(5));
    app.world_mut().write_message(MoveToken::new(pip, Cell::new(11, 5)));
    app.update();
    assert_eq!(app.world().get::<TurnMoves>(pip).map(|m| m.turn.spent), Some(15));
}

#[test]
fn rolls_go_to_the_log_and_inspiration_gives_advantage() {
    use battlemap::app::core::components::Inspiration;
    use battlemap::app::core::messages::DiceRequest;
    use battlemap::rules::dice::RollMode;
    let mut app = app_with("scenes/tavern_brawl.ron");
    reseed(&mut app, 5);
    app.update();
    let brom = entity_of(&mut app, "brom");
    assert_eq!(
        app.world().get::<Inspiration>(brom),
        Some(&Inspiration::default()),
        "player characters can hold inspiration"
    );
    app.world_mut().write_message(DiceRequest::Inspiration { entity: brom, give: true });
    app.update();
    app.world_mut().write_message(DiceRequest::Inspiration { entity: brom, give: false });
    app.update();
    let roll = |app: &mut App, notation: &str, hidden: bool| {
        app.world_mut().write_message(DiceRequest::Roll {
            roller: Some(brom),
            notation: notation.into(),
            mode: RollMode::Normal,
            hidden,
            reason: "attack on the thug".into(),
        });
        app.update();
        log_entries(app).last().cloned().expect("logged")
    };
    // DMG "Inspiration": advantage on one ability check, attack roll or saving throw, so a damage
    // roll leaves it for the next d20.
    let damage = roll(&mut app, "2d6+3", false);
    let typed = |inspired| RollReason::Typed { what: "attack on the thug".into(), inspired };
    assert_eq!((damage.roll.mode, &damage.reason), (RollMode::Normal, &typed(false)));
    let first = roll(&mut app, "d20+3", false);
    assert_eq!(first.roll.mode, RollMode::Advantage, "spent inspiration");
    assert_eq!(first.who, "Brom");
    assert_eq!(first.reason, typed(true));
    let second = roll(&mut app, "d20+3", true);
    assert_eq!(second.roll.mode, RollMode::Normal, "only the next roll");
    assert!(second.hidden, "rolled as the DM");
    app.world_mut().write_message(DiceRequest::RollTable { id: "urban-chase-complications".into(), hidden: false });
    app.update();
    let table = log_entries(&app).last().cloned().expect("logged");
    assert!(matches!(&table.reason, RollReason::Table { name } if name == "Urban Chase Complications"), "{table:?}");
}

/// The chase without a window: the scene's drafted chase starts from the map, a turn is taken
/// through the same messages the chase screen sends, its rolls reach the session's roll log, going
/// back to the map keeps it waiting, and ending it carries the hit points home.
#[test]
fn a_chase_runs_on_messages_and_returns_to_the_map() {
    use battlemap::app::core::chase::ChaseRun;
    use battlemap::app::core::components::ChaseState;
    use battlemap::app::core::messages::ChaseMessage;
    use battlemap::app::core::mode::AppMode;
    use battlemap::app::core::requests::ChaseRequest;
    use battlemap::app::features::chase::ChaseScreens;

    let mut app = app_with("scenes/market_chase.ron");
    let send = |app: &mut App, request: ChaseRequest| {
        app.world_mut().write_message(ChaseMessage(request));
        app.update();
    };
    assert_eq!(app.world().resource::<ChaseScreens>().draft.roles.len(), 4, "the scene's chase is drafted");
    let rolls_before = log_entries(&app).len();
    send(&mut app, ChaseRequest::Start);
    let run = app.world().resource::<ChaseRun>();
    let chase = run.chases.as_ref().expect("the chase runs").active();
    assert!(run.awaiting_handover);
    // Distances from the map: the cutpurse at (19, 9), Lia at (4, 9): 15 squares, 75 ft.
    assert_eq!(chase.distance("lia", "cutpurse"), Some(75));
    assert_eq!(log_entries(&app).len() - rolls_before, 4, "four initiative rolls in the roll log");
    app.update();
    assert_eq!(app.world().resource::<State<AppMode>>().get(), &AppMode::Chase, "the chase takes the screen");
    let lia = entity_of(&mut app, "lia");
    let state = app.world().get::<ChaseState>(lia).cloned().expect("Lia's place in the chase");
    assert_eq!((state.position, state.chase), (-75, 0), "{state:?}");
    // The chase screen's track reads each creature's ChaseState: the engine's numbers, once.
    let cutpurse = entity_of(&mut app, "cutpurse");
    let run = app.world().resource::<ChaseRun>();
    let chase = run.chases.as_ref().expect("the chase runs").active();
    let lias = chase.participant("lia").expect("in the chase");
    assert_eq!((state.hp, state.exhaustion, state.inspiration), (lias.hp, lias.exhaustion, lias.inspiration));
    assert_eq!(state.lead, chase.lead(&chase.pursuits[0]).as_deref() == Some("lia"), "{state:?}");
    assert_eq!(state.distance, Some(75), "75 ft behind the cutpurse");
    let cutpurse = app.world().get::<ChaseState>(cutpurse).cloned().expect("in the chase");
    assert!(!cutpurse.lead && cutpurse.distance.is_none(), "the quarry leads no pursuit: {cutpurse:?}");

    send(&mut app, ChaseRequest::BeginTurn);
    let acting = {
        let chase = app.world().resource::<ChaseRun>().chases.as_ref().expect("runs").active();
        chase.turn.as_ref().expect("a turn").id.clone()
    };
    let complication = app
        .world()
        .resource::<ChaseRun>()
        .chases
        .as_ref()
        .and_then(|c| c.active().turn.as_ref())
        .map(|t| t.complication.is_some());
    assert_eq!(complication, Some(false), "complications come from the turns before: none waits for the first");
    send(&mut app, ChaseRequest::Dash);
    send(&mut app, ChaseRequest::Move(1000));
    send(&mut app, ChaseRequest::EndTurn);
    assert_eq!(app.world().resource::<ChaseScreens>().error, None);
    let run = app.world().resource::<ChaseRun>();
    let chase = run.chases.as_ref().expect("runs").active();
    assert_eq!(chase.participant(&acting).map(|p| p.dashes), Some(1));
    assert!(run.awaiting_handover, "the screen is handed on");
    let complication_roll = log_entries(&app)
        .iter()
        .any(|e| matches!(&e.reason, RollReason::Table { name } if name.contains("Chase Complications")));
    assert!(complication_roll, "the end-of-turn d20 is in the roll log");

    // A hurt participant comes back to the map hurt, and a tired one tired: exhaustion lasts
    // until a long rest (PHB appendix A, "Exhaustion").
    if let Some(chases) = app.world_mut().resource_mut::<ChaseRun>().chases.as_mut() {
        chases.active_mut().participants.iter_mut().filter(|p| p.id == "brom").for_each(|p| p.hp = 9);
    }
    send(&mut app, ChaseRequest::SetExhaustion("lia".into(), 2));
    // Back to the map keeps the chase (issue 39, item 3): the map is played, C shows it again.
    send(&mut app, ChaseRequest::ReturnToMap);
    app.update();
    assert!(app.world().resource::<ChaseRun>().chases.is_some(), "the chase waits");
    assert!(app.world().resource::<ChaseScreens>().hidden);
    assert_eq!(app.world().resource::<State<AppMode>>().get(), &AppMode::Play, "the map is played");
    send(&mut app, ChaseRequest::ToggleSetup);
    app.update();
    assert_eq!(app.world().resource::<State<AppMode>>().get(), &AppMode::Chase, "C shows it again");
    assert!(!app.world().resource::<ChaseScreens>().setup_open, "not the setup");
    send(&mut app, ChaseRequest::EndChase);
    assert!(app.world().resource::<ChaseRun>().chases.is_none());
    app.update();
    assert_eq!(app.world().resource::<State<AppMode>>().get(), &AppMode::Play, "back to the map");
    assert!(app.world().get::<ChaseState>(lia).is_none(), "out of the chase");
    let mut query = app.world_mut().query::<(&TokenId, &Vitals, &HitPoints)>();
    let vitals: std::collections::HashMap<String, (Vitals, HitPoints)> =
        query.iter(app.world()).map(|(id, v, h)| (id.0.clone(), (*v, *h))).collect();
    let vitals: std::collections::HashMap<String, Vitals> = vitals
        .into_iter()
        .map(|(id, (v, h))| {
            if id == "brom" {
                assert_eq!(h.0.hp, 9, "the chase's damage comes back");
            }
            (id, v)
        })
        .collect();
    assert_eq!((vitals["lia"].exhaustion, vitals["brom"].exhaustion), (2, 0));
}

/// A small room for a scripted fight: Ana and Bo flank the goblin (flanking and facing on).
const FIGHT_ROOM: &str = r#"Scenario(
    name: "Fight room",
    grid: Square,
    rules: (flanking: true, facing: true),
    map: [".......", ".......", ".......", "......."],
    creatures: [
        (id: "ana", name: "Ana", side: Party, size: Medium, at: (1, 1), speed: 30, ac: 15, hp: 20, pc: true,
         facing: East, attacks: [(name: "Spear", bonus: 5, damage: "1d6+3", damage_type: "piercing")]),
        (id: "bo", name: "Bo", side: Party, size: Medium, at: (3, 1), speed: 30, ac: 12, hp: 6, pc: true,
         facing: West, attacks: [(name: "Club", bonus: 4, damage: "1d4+2", damage_type: "bludgeoning")]),
        (id: "goblin", name: "Goblin", side: Enemy, size: Small, at: (2, 1), speed: 30, ac: 13, hp: 40,
         facing: East, resistances: ["piercing"],
         attacks: [(name: "Scimitar", bonus: 6, damage: "1d6+4", damage_type: "slashing")]),
    ],
)
"#;

fn hp(app: &mut App, id: &str) -> battlemap::rules::health::Health {
    let entity = entity_of(app, id);
    app.world().get::<HitPoints>(entity).expect("hit points").0
}

fn fight(app: &mut App, request: FightRequest) {
    app.world_mut().write_message(request);
    app.update();
}

fn log_len(app: &App) -> usize {
    app.world().resource::<RollRecord>().0.entries.len()
}

/// One attack: the log gains the attack roll and, on a hit, the damage roll, and the target loses
/// exactly the damage dealt (to 0 at most). Returns whether it hit.
fn attack(app: &mut App, attacker: &str, target: &str, with: &str) -> bool {
    let (a, t) = (entity_of(app, attacker), entity_of(app, target));
    // Each attack on its attacker's own turn: one Attack action a turn.
    app.world_mut().write_message(battlemap::app::core::messages::TurnRequest::StartTurn(a));
    app.update();
    let before = (log_len(app), hp(app, target));
    app.world_mut().write_message(AttackRequest {
        attacker: a,
        target: t,
        attack: with.into(),
        how: AttackHow::Action,
    });
    app.update();
    let log = log_entries(app)[before.0..].to_vec();
    let after = hp(app, target);
    assert!(!log.is_empty(), "{attacker}'s attack is logged");
    let RollReason::Attack { attack: Some(attack), how: AttackOccasion::Attack, outcome, .. } = &log[0].reason else {
        panic!("an attack roll first: {:?}", log[0])
    };
    assert_eq!(attack, with);
    let hit = outcome.hits();
    if hit {
        assert_eq!(log.len(), 2, "a hit logs its damage roll");
        let RollReason::Damage { dealt: Some((amount, _)), .. } = log[1].reason else {
            panic!("then the damage: {:?}", log[1])
        };
        assert_eq!(before.1.hp - after.hp, amount.min(before.1.hp), "{:?}", log[1]);
    } else {
        assert_eq!((log.len(), after.hp), (1, before.1.hp), "a miss deals nothing");
    }
    hit
}

/// Three rounds of a scripted fight on messages alone, with the session's seed: every attack is
/// logged with its reasons, hit points fall by exactly the logged damage, resistance halves the
/// spear, the goblin knocked prone gives Ana advantage and stands up for half its speed, and the
/// same seed replays the same fight.
#[test]
fn three_rounds_of_a_scripted_fight() {
    let dir = scratch("headless-fight");
    let file = dir.join("room.ron");
    std::fs::write(&file, FIGHT_ROOM).expect("write");
    let play = || {
        let scenario = Scenario::load(&file).expect("valid");
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .insert_resource(LoadedScenario::from_file(scenario, file.clone()))
            .insert_resource(battlemap::app::LaunchOptions { seed: Some(7), ..Default::default() })
            .add_plugins(battlemap::app::headless_plugin);
        app.update();
        app.update();
        let goblin = entity_of(&mut app, "goblin");
        for round in 1..=3 {
            if round == 2 {
                fight(&mut app, FightRequest::Condition { target: goblin, condition: Condition::Prone, on: true });
            }
            let before = log_len(&app);
            let bo_up = hp(&mut app, "bo").life == Life::Up;
            attack(&mut app, "ana", "goblin", "Spear");
            let RollReason::Attack { sources, .. } = &log_entries(&app)[before].reason else { panic!("an attack") };
            let reason = &sources.advantages;
            // Ana is behind the goblin (it faces east, towards Bo), and flanks it with Bo while
            // Bo is up (an unconscious ally is incapacitated and doesn't flank).
            assert!(reason.iter().any(|s| s == "in Goblin's rear arc"), "{reason:?}");
            assert_eq!(reason.iter().any(|s| s == "flanking Goblin with Bo"), bo_up, "{reason:?}");
            if round == 2 {
                assert!(reason.iter().any(|s| s == "Goblin is prone, and the attacker within 5 ft"), "{reason:?}");
                fight(&mut app, FightRequest::StandUp { target: goblin });
                let combatant = app.world().get::<Combatant>(goblin).expect("combatant");
                assert!(!combatant.conditions.has(Condition::Prone), "it stood up");
                let left = app.world().get::<TurnMoves>(goblin).expect("movement").turn.left();
                assert_eq!(left, 15, "standing costs half its speed");
            }
            if hp(&mut app, "bo").life == Life::Up {
                attack(&mut app, "bo", "goblin", "Club");
            }
            if hp(&mut app, "goblin").life == Life::Up {
                attack(&mut app, "goblin", "bo", "Scimitar");
            }
        }
        let bo = hp(&mut app, "bo");
        let bo_entity = entity_of(&mut app, "bo");
        let conditions = app.world().get::<Combatant>(bo_entity).expect("combatant").conditions.clone();
        // A player character at 0 is dying (unconscious and prone) or, after three failed death
        // saves or a blow as big as its maximum, dead; above 0 it is up.
        assert_eq!(bo.life != Life::Up, bo.hp == 0, "{bo:?}");
        if bo.life == Life::Dying {
            assert!(conditions.has(Condition::Unconscious) && conditions.has(Condition::Prone));
        }
        if bo.life == Life::Up {
            assert!(!conditions.has(Condition::Unconscious));
        }
        let log: Vec<String> = log_entries(&app).iter().map(battlemap::ui::log::log_line).collect();
        (log, bo, hp(&mut app, "goblin"))
    };
    let first = play();
    assert!(first.0.len() >= 8, "three rounds of attacks: {:#?}", first.0);
    assert!(first.2.hp < 40, "the goblin was hurt: {:#?}", first.0);
    assert_eq!(first, play(), "the same seed replays the same fight");
}

/// Damage, healing, temporary hit points and death saves from the card's requests.
#[test]
fn hit_points_and_death_saves_follow_the_rules() {
    let mut app = app_with("scenes/tavern_brawl.ron");
    let brom = entity_of(&mut app, "brom");
    fight(&mut app, FightRequest::TempHp { target: brom, amount: 5 });
    fight(&mut app, FightRequest::Damage { target: brom, amount: 8 });
    assert_eq!((hp(&mut app, "brom").hp, hp(&mut app, "brom").temp_hp), (28, 0), "temporary hit points first");
    fight(&mut app, FightRequest::Damage { target: brom, amount: 30 });
    assert_eq!(hp(&mut app, "brom").life, Life::Dying);
    let before = log_len(&app);
    fight(&mut app, FightRequest::DeathSave { target: brom });
    let entry = log_entries(&app)[before].clone();
    assert!(matches!(entry.reason, RollReason::DeathSave { result: Some(_) }), "{entry:?}");
    let saves = hp(&mut app, "brom").death_saves;
    match entry.roll.total {
        20 => assert_eq!(hp(&mut app, "brom").hp, 1),
        10..=19 => assert_eq!((saves.successes, saves.failures), (1, 0)),
        2..=9 => assert_eq!((saves.successes, saves.failures), (0, 1)),
        _ => assert_eq!((saves.successes, saves.failures), (0, 2)),
    }
    fight(&mut app, FightRequest::Heal { target: brom, amount: 4 });
    let combatant = app.world().get::<Combatant>(brom).expect("combatant").clone();
    assert!(!combatant.conditions.has(Condition::Unconscious) && combatant.conditions.has(Condition::Prone));
    // A monster at 0 dies.
    let thug = entity_of(&mut app, "thug-1");
    fight(&mut app, FightRequest::Damage { target: thug, amount: 40 });
    assert_eq!(hp(&mut app, "thug-1").life, Life::Dead);
    // Restrained: speed 0 for its turns.
    fight(&mut app, FightRequest::Condition { target: brom, condition: Condition::Restrained, on: true });
    assert_eq!(app.world().get::<TurnMoves>(brom).expect("moves").turn.speed, 0);
}

/// The template's "Roll saves": one damage roll, each creature inside saves, and each loses what
/// its save leaves it; the rolls go to the log.
#[test]
fn an_area_rolls_saves_and_deals_its_damage() {
    use battlemap::app::core::messages::{SaveSource, SavesRequest};
    use battlemap::rules::area::{Shape, Volume, covered_cells};
    use battlemap::rules::creature::Ability;
    use battlemap::rules::dice::Notation;
    use battlemap::rules::fight::saves::{SaveEffect, creatures_in_area};
    use battlemap::rules::health::DamageType;
    use battlemap::rules::lattice::Point;
    let mut app = app_with("scenes/tavern_brawl.ron");
    // A 5-ft sphere on the corner (6, 8) touches the thug's square (6, 8) and nobody else's.
    let scenario = app.world().resource::<LoadedScenario>().scenario.clone();
    let map = &scenario.map;
    let origin = Point::square_corner(6, 8);
    let shape = Shape::Sphere { radius: 5 };
    let cells = covered_cells(map, shape, origin.to_units(map.grid()), 0.0).expect("cells");
    let fighters = scenario.fighters();
    let inside = creatures_in_area(&scenario.field(&fighters), &Volume::of(&cells, shape, 0), origin);
    let effect = SaveEffect {
        ability: Ability::Dex,
        dc: 30,
        damage: Notation::parse("4d6").ok(),
        damage_type: DamageType::Fire,
        half_on_success: true,
    };
    let before = log_len(&app);
    app.world_mut().write_message(SavesRequest { inside, effect, source: SaveSource::Template });
    app.update();
    let log = log_entries(&app)[before..].to_vec();
    assert_eq!(log.len(), 2, "the damage roll and the thug's save: {log:#?}");
    assert_eq!(log[1].reason, RollReason::Save { ability: Ability::Dex, dc: 30, success: false });
    assert_eq!(hp(&mut app, "thug-1").hp, (32 - log[0].roll.total).max(0), "a failed save takes it all");
    assert_eq!(hp(&mut app, "lia").hp, 18, "outside the area");
}

/// Issue 40: a stat block's "Condition Immunities" (SRD 5.1 "Zombie": poisoned) refuse what it is
/// immune to, saying why, and let the rest be given.
#[test]
fn a_monster_immune_to_a_condition_is_refused_it_with_the_reason() {
    let dir = scratch("immune");
    let file = dir.join("crypt.ron");
    let scene = r#"Scenario(
    name: "A zombie",
    grid: Square,
    map: ["......", "......"],
    creatures: [
        (id: "ann", monster: "knight", side: Party, at: (0, 0)),
        (id: "zombie", monster: "zombie", at: (3, 0)),
    ],
)"#;
    std::fs::write(&file, scene).expect("writes");
    let mut app = app_with(file.to_str().expect("utf-8"));
    let zombie = entity_of(&mut app, "zombie");
    fight(&mut app, FightRequest::Condition { target: zombie, condition: Condition::Poisoned, on: true });
    let combatant = app.world().get::<Combatant>(zombie).expect("combatant").clone();
    assert!(!combatant.conditions.has(Condition::Poisoned));
    assert_eq!(said(&app), Some(Said::ImmuneToCondition { who: "Zombie".into(), condition: Condition::Poisoned }));
    fight(&mut app, FightRequest::Condition { target: zombie, condition: Condition::Prone, on: true });
    assert!(app.world().get::<Combatant>(zombie).expect("combatant").conditions.has(Condition::Prone));
}
