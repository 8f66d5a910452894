//! Golden tests of siege equipment (DMG "Siege Equipment", 000_8c43542ae10d17a7.txt; the siege
//! tower and trebuchet from `../shared/rules/README.md`): each weapon's actions, the ram's crew,
//! minimum range, indirect fire, the cauldron's pour, shelter, pushing and damage thresholds.

use super::*;
use crate::rules::creature::Side;
use crate::rules::dice::SeededDice;
use crate::rules::distance::DiagonalRule;
use crate::rules::fight::adjudicate::{Adjudication, Refusal, adjudicate, pick_attack};
use crate::rules::fight::resolve::roll_attack;
use crate::rules::fight::saves::{Unaffected, creatures_in_area, roll_saves};
use crate::rules::fight::tests::{fighter, map, sized};
use crate::rules::fight::{FightRules, Fighter};
use crate::rules::health::{Defenses, Health};
use crate::rules::objects::OBJECT_IMMUNITIES;
use crate::rules::sight::CoverDegree;
use crate::rules::{Grid, TerrainMap};

const RULES: FightRules = FightRules { diagonals: DiagonalRule::Standard, flanking: false, facing: false };

fn open(w: usize, h: usize) -> TerrainMap {
    let row = ".".repeat(w);
    let rows: Vec<&str> = (0..h).map(|_| row.as_str()).collect();
    map(Grid::Square, &rows)
}

/// A siege weapon of `kind` at `at`, readied as `readiness`, with its stat block.
fn weapon(id: &str, kind: SiegeKind, side: Side, at: (i32, i32), readiness: Readiness) -> Fighter {
    let stats = kind.stats();
    let mut w = sized(id, side, at, stats.size, Grid::Square);
    w.is_object = true;
    w.sheet.name = stats.name.to_owned();
    w.sheet.ac = stats.ac;
    w.sheet.attacks = kind.attack().into_iter().collect();
    w.health = Health::new(stats.hp, stats.hp, false, Default::default());
    w.defenses = Defenses { immunities: OBJECT_IMMUNITIES.into(), ..Defenses::default() };
    w.siege = Some(Siege { kind, crewing: Crewing::ready(kind, readiness), pours_on: None });
    w
}

/// A plain object (a gate) with AC 15, 50 hit points and a damage threshold.
fn gate(id: &str, at: (i32, i32), threshold: Option<i32>) -> Fighter {
    let mut g = sized(id, Side::Neutral, at, Size::Large, Grid::Square);
    g.is_object = true;
    g.sheet.ac = 15;
    g.sheet.attacks.clear();
    g.health = Health::new(50, 50, false, Default::default());
    g.defenses = Defenses { immunities: OBJECT_IMMUNITIES.into(), threshold, ..Defenses::default() };
    g
}

fn ruling(map: &TerrainMap, fighters: &[Fighter], a: &str, b: &str) -> Adjudication {
    let field = Field::new(map, fighters, RULES);
    let (a, b) = (field.fighter(a).unwrap(), field.fighter(b).unwrap());
    // A weapon's one attack, or a creature's bow (the last of its sword and bow).
    let attack = a.sheet.attacks.last().map(|attack| attack.name.clone());
    adjudicate(&field, a, b, pick_attack(a, attack.as_deref()).unwrap())
}

/// Spends `steps` in order and returns the state after each.
fn run(kind: SiegeKind, steps: &[Step]) -> Vec<String> {
    let mut crewing = Crewing::default();
    steps
        .iter()
        .map(|&step| {
            crewing.spend(kind, step).unwrap_or_else(|e| panic!("{kind:?} {step:?}: {e}"));
            crewing.state(kind)
        })
        .collect()
}

/// DMG "Ballista", "Cannon": "one action to load the weapon, one action to aim it, and one action
/// to fire it"; "Mangonel" and the trebuchet: two to load, two to aim, one to fire; "Cauldron,
/// Suspended": "three actions to fill a cauldron and one action to tip it".
#[test]
fn each_weapon_takes_its_actions_in_order_and_firing_empties_it() {
    use Step::*;
    for kind in [SiegeKind::Ballista, SiegeKind::Cannon] {
        assert_eq!(run(kind, &[Load, Aim, Fire]), ["loaded", "aimed", "unloaded"], "{kind:?}");
        assert_eq!(kind.sequence(), "load 1, aim 1, fire 1");
    }
    for kind in [SiegeKind::Mangonel, SiegeKind::Trebuchet] {
        assert_eq!(
            run(kind, &[Load, Load, Aim, Aim, Fire]),
            ["loading (1 of 2 actions)", "loaded", "aiming (1 of 2 actions)", "aimed", "unloaded"],
            "{kind:?}"
        );
    }
    assert_eq!(
        run(SiegeKind::Cauldron, &[Load, Load, Load, Fire]),
        ["filling (1 of 3 actions)", "filling (2 of 3 actions)", "full", "empty"]
    );
    assert_eq!(SiegeKind::Cauldron.sequence(), "fill 3, tip 1");
    assert_eq!(run(SiegeKind::Ram, &[Fire, Fire]), ["ready", "ready"], "a ram needs no loading");
}

/// A step out of order is refused with the step it needs, and a refused step changes nothing.
#[test]
fn steps_out_of_order_are_refused() {
    let mut ballista = Crewing::default();
    let aim = ballista.spend(SiegeKind::Ballista, Step::Aim).unwrap_err();
    assert_eq!(aim.to_string(), "the ballista can't aim now: it is unloaded; next it must load");
    assert!(matches!(ballista.spend(SiegeKind::Ballista, Step::Fire), Err(SiegeError::OutOfOrder { .. })));
    assert_eq!(ballista, Crewing::default());
    ballista.spend(SiegeKind::Ballista, Step::Load).unwrap();
    let again = ballista.spend(SiegeKind::Ballista, Step::Load).unwrap_err();
    assert!(again.to_string().contains("it is loaded; next it must aim"), "{again}");
    let ram = Crewing::default().check(SiegeKind::Ram, Step::Load).unwrap_err();
    assert!(matches!(ram, SiegeError::NoSuchStep { .. }), "{ram}");
    let tip = Crewing::default().check(SiegeKind::Cauldron, Step::Aim).unwrap_err();
    assert_eq!(tip.to_string(), "the suspended cauldron has no such step as \"aim\": it takes fill 3, tip 1");
    assert!(matches!(Crewing::default().check(SiegeKind::SiegeTower, Step::Load), Err(SiegeError::NotAWeapon { .. })));
}

/// The stat blocks: sizes, AC, hit points, and the attacks' numbers.
#[test]
fn stat_blocks_match_the_dmg() {
    let table: Vec<(Size, i32, i32)> =
        SiegeKind::ALL.iter().map(|k| (k.stats().size, k.stats().ac, k.stats().hp)).collect();
    assert_eq!(
        table,
        [
            (Size::Large, 15, 50),
            (Size::Large, 19, 75),
            (Size::Large, 19, 20),
            (Size::Large, 15, 100),
            (Size::Large, 15, 100),
            (Size::Gargantuan, 15, 200),
            (Size::Huge, 15, 150),
        ]
    );
    let bolt = SiegeKind::Ballista.attack().unwrap();
    assert_eq!((bolt.bonus, bolt.damage.as_str(), bolt.range, bolt.long_range), (6, "3d10", 120, Some(480)));
    let stone = SiegeKind::Trebuchet.attack().unwrap();
    assert_eq!((stone.damage.as_str(), stone.min_range, stone.indirect), ("8d10", Some(60), true));
    assert_eq!(stone.reach_words(), "range 300/1200 ft (not within 60 ft)");
    let ram = SiegeKind::Ram.attack().unwrap();
    assert!(ram.objects_only && ram.kind().is_melee() && ram.bonus == 8);
    let oil = SiegeKind::Cauldron.pour().unwrap();
    assert_eq!((oil.dc, oil.damage_type, oil.half_on_success), (15, DamageType::Fire, true));
    assert!(SiegeKind::SiegeTower.attack().is_none() && SiegeKind::Ballista.pour().is_none());
}

/// DMG "Ram": "It takes a minimum of four Medium creatures to operate a ram." Call: sizes count
/// as carrying capacity (a Large creature as two Medium, a Tiny as half), Small as Medium; the
/// crew is within 5 ft of the ram, able to act, and not hostile to its side.
#[test]
fn a_ram_needs_four_medium_creatures_worth_of_crew() {
    let map = open(12, 8);
    let ram = weapon("ram", SiegeKind::Ram, Side::Party, (4, 3), Readiness::Unloaded);
    let door = gate("door", (6, 3), None);
    let crew = |who: Vec<Fighter>| {
        let mut all = vec![ram.clone(), door.clone()];
        all.extend(who);
        ruling(&map, &all, "ram", "door")
    };
    let medium = |id: &str, at| fighter(id, Side::Party, at);
    let three = crew(vec![medium("a", (3, 3)), medium("b", (3, 4)), medium("c", (4, 2))]);
    let Some(Refusal::TooFewCrew { crew: words, .. }) = &three.refusal else { panic!("{:?}", three.refusal) };
    assert_eq!(words, "3 Medium creatures of the 4 Medium needed (a, b, c)");
    assert!(crew(vec![medium("a", (3, 3)), medium("b", (3, 4)), medium("c", (4, 2)), medium("d", (5, 2))]).allowed());
    let ogres = vec![
        sized("o1", Side::Party, (2, 3), Size::Large, Grid::Square),
        sized("o2", Side::Ally, (4, 5), Size::Large, Grid::Square),
    ];
    assert!(crew(ogres).allowed(), "two Large creatures count as four Medium");
    let mut stunned = medium("d", (5, 2));
    stunned.conditions.set(crate::rules::conditions::Condition::Stunned, true);
    let with_stunned = crew(vec![medium("a", (3, 3)), medium("b", (3, 4)), medium("c", (4, 2)), stunned]);
    assert!(matches!(with_stunned.refusal, Some(Refusal::TooFewCrew { .. })), "a stunned creature can't work it");
    let enemy = fighter("e", Side::Enemy, (5, 2));
    let with_enemy = crew(vec![medium("a", (3, 3)), medium("b", (3, 4)), medium("c", (4, 2)), enemy]);
    assert!(matches!(with_enemy.refusal, Some(Refusal::TooFewCrew { .. })), "an enemy isn't crew");
    let far = crew(vec![medium("a", (3, 3)), medium("b", (3, 4)), medium("c", (4, 2)), medium("d", (0, 0))]);
    assert!(matches!(far.refusal, Some(Refusal::TooFewCrew { .. })), "crew stands within 5 ft");
    assert_eq!(crew_weight(Size::Tiny) + crew_weight(Size::Small), 3, "a Tiny creature is half a Medium one");
}

/// DMG "Ram": "one object". A crewed ram can't target a creature.
#[test]
fn a_ram_hits_only_objects() {
    let map = open(12, 8);
    let mut all = vec![
        weapon("ram", SiegeKind::Ram, Side::Party, (4, 3), Readiness::Unloaded),
        fighter("orc", Side::Enemy, (6, 3)),
    ];
    all.extend(
        ["a", "b", "c", "d"].iter().zip([(3, 3), (3, 4), (4, 2), (5, 2)]).map(|(id, at)| fighter(id, Side::Party, at)),
    );
    let refused = ruling(&map, &all, "ram", "orc");
    assert_eq!(refused.refusal, Some(Refusal::NotAnObject { target: "orc".into() }));
}

/// A weapon fires only when loaded and aimed.
#[test]
fn a_weapon_fires_only_when_loaded_and_aimed() {
    let map = open(40, 5);
    let target = fighter("orc", Side::Enemy, (30, 2));
    for (readiness, next) in [(Readiness::Unloaded, "load"), (Readiness::Loaded, "aim")] {
        let all = [weapon("b", SiegeKind::Ballista, Side::Party, (0, 2), readiness), target.clone()];
        let Some(Refusal::NotReady { next: said, .. }) = ruling(&map, &all, "b", "orc").refusal else {
            panic!("{readiness:?} fired")
        };
        assert_eq!(said, next);
    }
    let aimed = [weapon("b", SiegeKind::Ballista, Side::Party, (0, 2), Readiness::Aimed), target.clone()];
    let shot = ruling(&map, &aimed, "b", "orc");
    assert!(shot.allowed(), "{:?}", shot.refusal);
    let mut wrecked = aimed.clone();
    wrecked[0].health = Health::new(0, 50, false, Default::default());
    assert!(matches!(ruling(&map, &wrecked, "b", "orc").refusal, Some(Refusal::CannotAct { .. })));
}

/// DMG "Mangonel": "range 200/800 ft. (can't hit targets within 60 feet of it)". Call: "within
/// 60 feet" includes 60 ft, as "within 5 feet" does for melee.
#[test]
fn stones_cant_hit_targets_within_sixty_feet() {
    let map = open(200, 5);
    let at = |x: i32| {
        let all = [
            weapon("m", SiegeKind::Mangonel, Side::Party, (0, 2), Readiness::Aimed),
            fighter("orc", Side::Enemy, (x, 2)),
        ];
        ruling(&map, &all, "m", "orc")
    };
    // The mangonel's space is columns 0 and 1: a target in column x is (x - 1) squares away.
    assert_eq!(at(13).refusal, Some(Refusal::TooClose { distance: 60, min_range: 60 }));
    assert!(at(14).allowed(), "65 ft");
    let long = at(45);
    assert_eq!(long.distance, 220);
    assert!(long.sources.disadvantages.iter().any(|s| s.contains("long range")), "beyond 200 ft: disadvantage");
    let ballista =
        [weapon("b", SiegeKind::Ballista, Side::Party, (0, 2), Readiness::Aimed), fighter("orc", Side::Enemy, (4, 2))];
    assert!(ruling(&map, &ballista, "b", "orc").allowed(), "a ballista has no minimum range");
}

/// DMG "Mangonel": "This payload can hit targets behind cover." A target behind a wall has total
/// cover from a ballista; a mangonel's stone falls on it, against its bare AC.
#[test]
fn a_high_arc_ignores_cover() {
    let map = map(
        Grid::Square,
        &[
            "..............................",
            "..........................#...",
            "..........................#...",
            "..........................#...",
            "..........................#...",
            "..............................",
        ],
    );
    let behind_wall = fighter("orc", Side::Enemy, (28, 2));
    let ballista = [weapon("b", SiegeKind::Ballista, Side::Party, (0, 2), Readiness::Aimed), behind_wall.clone()];
    let shot = ruling(&map, &ballista, "b", "orc");
    assert!(shot.cover.degree != CoverDegree::None || shot.cover.total, "the wall covers the orc");
    assert!(!shot.allowed() || shot.ac.cover > 0, "the bolt meets the cover: {}", shot.summary());
    let stone = [weapon("m", SiegeKind::Mangonel, Side::Party, (0, 2), Readiness::Aimed), behind_wall];
    let lobbed = ruling(&map, &stone, "m", "orc");
    assert!(lobbed.allowed(), "{:?}", lobbed.refusal);
    assert_eq!((lobbed.ac.cover, lobbed.ac.total), (0, 12));
    assert!(lobbed.summary().contains("the high arc passes over"), "{}", lobbed.summary());
}

/// DMG "Cauldron, Suspended": "pours boiling oil onto a 10-foot-square area directly below it. Any
/// creature in the area must make a DC 15 Dexterity saving throw, taking 10 (3d6) fire damage on a
/// failed save, or half as much damage on a successful one." A creature with part of its space in
/// the square is in the area; one beside it is not; a ram's crew is under its roof.
#[test]
fn the_cauldron_pours_on_creatures_even_half_in_its_square() {
    let map = open(12, 10);
    let mut cauldron = weapon("pot", SiegeKind::Cauldron, Side::Enemy, (4, 0), Readiness::Aimed);
    cauldron.elevation = 20;
    cauldron.siege.as_mut().unwrap().pours_on = Some(Cell::new(4, 2));
    let half_in = sized("ogre", Side::Party, (5, 3), Size::Large, Grid::Square); // (5..6, 3..4): one cell in
    let beside = fighter("lia", Side::Party, (6, 2));
    let under = fighter("brom", Side::Party, (4, 2));
    let all = [cauldron, half_in, beside, under];
    let field = Field::new(&map, &all, RULES);
    let (cells, inside) = in_pour(&field, field.fighter("pot").unwrap()).unwrap();
    assert_eq!(cells, [Cell::new(4, 2), Cell::new(5, 2), Cell::new(4, 3), Cell::new(5, 3)]);
    let ids: Vec<&str> = inside.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids, ["ogre", "brom"]);
    assert!(inside.iter().all(|a| a.cover == CoverDegree::None && a.unaffected.is_none()));
    let effect = SiegeKind::Cauldron.pour().unwrap();
    let mut dice = SeededDice::new(7);
    let rolled = roll_saves(&field, &inside, &effect, &mut dice).unwrap();
    let full = rolled.damage_roll.as_ref().unwrap().total;
    assert!((3..=18).contains(&full));
    for result in &rolled.results {
        let taken = result.damage.as_ref().unwrap().amount;
        assert_eq!(taken, if result.success { full / 2 } else { full }, "{}", result.name);
    }
    let mut no_square = all.clone();
    no_square[0].siege.as_mut().unwrap().pours_on = None;
    let field = Field::new(&map, &no_square, RULES);
    assert!(matches!(in_pour(&field, &no_square[0]), Err(SiegeError::NowhereToPour { .. })));
}

/// DMG "Ram": "Because of the gallery roof, these operators have total cover against attacks from
/// above." From above: an attacker higher up (a wall walk), a stone's high arc, the cauldron's oil.
#[test]
fn a_rams_crew_is_sheltered_from_above() {
    let map = open(12, 10);
    let ram = weapon("ram", SiegeKind::Ram, Side::Party, (4, 4), Readiness::Unloaded);
    let crew = fighter("brom", Side::Party, (4, 6));
    let mut archer = fighter("archer", Side::Enemy, (4, 0));
    archer.elevation = 20;
    let ground = fighter("thug", Side::Enemy, (8, 6));
    let mut cauldron = weapon("pot", SiegeKind::Cauldron, Side::Enemy, (2, 0), Readiness::Aimed);
    cauldron.elevation = 20;
    cauldron.siege.as_mut().unwrap().pours_on = Some(Cell::new(3, 6));
    let all = [ram, crew, archer, ground, cauldron];
    let from_wall = ruling(&map, &all, "archer", "brom");
    let Some(Refusal::Sheltered(why)) = &from_wall.refusal else { panic!("{:?}", from_wall.refusal) };
    assert_eq!(why, &Shelter::RamRoof { target: "brom".into(), ram: "ram".into() });
    assert!(ruling(&map, &all, "thug", "brom").allowed(), "level with it, the roof doesn't help");
    let field = Field::new(&map, &all, RULES);
    let (_, inside) = in_pour(&field, field.fighter("pot").unwrap()).unwrap();
    assert_eq!(inside.len(), 1);
    assert!(matches!(&inside[0].unaffected, Some(Unaffected::Sheltered(Shelter::RamRoof { .. }))));
}

/// The siege tower: "Medium or smaller creatures inside ... have total cover from attacks outside
/// the tower." Creatures stand in its space; from inside they attack out.
#[test]
fn creatures_inside_a_siege_tower_have_total_cover_from_outside() {
    let map = open(16, 10);
    let tower = weapon("tower", SiegeKind::SiegeTower, Side::Party, (2, 2), Readiness::Unloaded);
    let inside = fighter("lia", Side::Party, (3, 3));
    let also_inside = fighter("orc", Side::Enemy, (4, 4));
    let outside = fighter("thug", Side::Enemy, (10, 3));
    let all = [tower, inside, also_inside, outside];
    let shot = ruling(&map, &all, "thug", "lia");
    let Some(Refusal::Sheltered(why)) = &shot.refusal else { panic!("{:?}", shot.refusal) };
    assert!(matches!(why, Shelter::SiegeTower { tower, .. } if tower == "siege tower"), "{why}");
    assert!(ruling(&map, &all, "orc", "lia").allowed(), "inside the same tower");
    assert!(ruling(&map, &all, "lia", "thug").allowed(), "out of it, the tower's cover is one way");
}

/// The siege tower shelters "Medium or smaller creatures inside": a Large creature inside it has
/// no shelter. **Call** (docs/rules.md, "Siege equipment"): the creatures it shelters are
/// sheltered from an area of effect as from an attack, when the area's point of origin is outside
/// the tower (its outer edge included), and from a cauldron's oil poured from outside it.
#[test]
fn a_tower_shelters_only_medium_or_smaller_creatures_from_attacks_and_areas_outside() {
    let map = open(16, 10);
    let tower = weapon("tower", SiegeKind::SiegeTower, Side::Party, (2, 2), Readiness::Unloaded);
    let lia = fighter("lia", Side::Party, (3, 3));
    let ogre = sized("ogre", Side::Party, (4, 4), Size::Large, Grid::Square);
    let thug = fighter("thug", Side::Enemy, (10, 3));
    let mut cauldron = weapon("pot", SiegeKind::Cauldron, Side::Enemy, (6, 0), Readiness::Aimed);
    cauldron.siege.as_mut().unwrap().pours_on = Some(Cell::new(2, 2));
    let all = [tower, lia, ogre, thug, cauldron];
    assert!(matches!(ruling(&map, &all, "thug", "lia").refusal, Some(Refusal::Sheltered(_))));
    let at_ogre = ruling(&map, &all, "thug", "ogre");
    assert!(at_ogre.allowed(), "a Large creature in the tower: {:?}", at_ogre.refusal);
    let field = Field::new(&map, &all, RULES);
    let everywhere = Volume::column(map.cells(), 0, 0);
    let from = |origin: Point| creatures_in_area(&field, &everywhere, origin);
    let sheltered = |inside: &[InArea], id: &str| {
        let entry = inside.iter().find(|a| a.id == id).unwrap_or_else(|| panic!("{id} in the area"));
        matches!(&entry.unaffected, Some(Unaffected::Sheltered(Shelter::SiegeTower { .. })))
    };
    let outside = from(Point::square_corner(10, 3));
    assert!(sheltered(&outside, "lia"), "from outside the tower: {outside:?}");
    assert_eq!(outside.iter().find(|a| a.id == "lia").map(|a| a.cover), Some(CoverDegree::Total));
    let why = outside.iter().find(|a| a.id == "lia").and_then(|a| a.unaffected.clone()).expect("sheltered");
    assert_eq!(why.to_string(), "total cover: lia is inside siege tower, and the point of origin outside it");
    assert!(!sheltered(&outside, "ogre") && !sheltered(&outside, "thug"), "too big, and outside");
    assert!(sheltered(&from(Point::square_corner(2, 4)), "lia"), "the tower's outer edge is outside it");
    assert!(!sheltered(&from(Point::square_corner(3, 4)), "lia"), "a point inside the tower");
    let (_, oiled) = in_pour(&field, field.fighter("pot").unwrap()).unwrap();
    assert!(sheltered(&oiled, "lia"), "the oil poured from outside: {oiled:?}");
    let effect = SaveEffect {
        ability: Ability::Dex,
        dc: 15,
        damage: Some("3d6".parse().unwrap()),
        damage_type: DamageType::Fire,
        half_on_success: true,
    };
    let saves = roll_saves(&field, &outside, &effect, &mut SeededDice::new(3)).unwrap();
    let lia = saves.results.iter().find(|r| r.id == "lia").unwrap();
    assert!(lia.success && lia.roll.is_none() && lia.damage.is_none(), "{lia:?}");
}

/// Pushing: enough crew beside the weapon, and it goes half as far as the slowest has left.
#[test]
fn a_weapon_moves_only_with_enough_pushers() {
    let map = open(12, 10);
    let ballista = weapon("b", SiegeKind::Ballista, Side::Party, (4, 4), Readiness::Unloaded);
    let mut all = vec![ballista, fighter("a", Side::Party, (3, 4))];
    let feet_left = |f: &Fighter| if f.id == "a" { 30 } else { 25 };
    let field = Field::new(&map, &all, RULES);
    let alone = push(&field, field.fighter("b").unwrap(), SiegeKind::Ballista, feet_left);
    assert_eq!((alone.crew.strength, alone.crew.needed, alone.feet), (2, 4, 0));
    all.push(fighter("c", Side::Party, (6, 5)));
    let field = Field::new(&map, &all, RULES);
    let two = push(&field, field.fighter("b").unwrap(), SiegeKind::Ballista, feet_left);
    assert_eq!((two.crew.members.len(), two.feet), (2, 10), "half of 25 ft, rounded down to 5 ft");
    assert_eq!(push_needed(SiegeKind::Ram), RAM_CREW);
    assert_eq!(push_needed(SiegeKind::SiegeTower), 16, "eight Medium creatures push a Gargantuan tower");
}

/// DMG "Damage Threshold": the ram's 3d10 against a gate with threshold 20 does nothing below 20.
/// Every object is immune to poison and psychic damage.
#[test]
fn a_gate_shrugs_off_blows_below_its_threshold() {
    let map = open(12, 8);
    let mut all =
        vec![weapon("ram", SiegeKind::Ram, Side::Party, (4, 3), Readiness::Unloaded), gate("gate", (6, 3), Some(20))];
    all.extend(
        ["a", "b", "c", "d"].iter().zip([(3, 3), (3, 4), (4, 2), (5, 2)]).map(|(id, at)| fighter(id, Side::Party, at)),
    );
    let shot = ruling(&map, &all, "ram", "gate");
    assert!(shot.allowed(), "{:?}", shot.refusal);
    let defenses = all[1].defenses.clone();
    let (mut below, mut above) = (0, 0);
    for seed in 0..200 {
        let roll = roll_attack(&shot, &defenses, false, &mut SeededDice::new(seed)).unwrap();
        if let Some(damage) = roll.damage {
            if damage.rolled < 20 {
                assert_eq!((damage.dealt.amount, damage.dealt.by), (0, Some("damage threshold")), "seed {seed}");
                below += 1;
            } else {
                assert_eq!(damage.dealt.amount, damage.rolled, "seed {seed}");
                above += 1;
            }
        }
    }
    assert!(below > 0 && above > 0, "both sides of the threshold were rolled: {below} below, {above} above");
    assert_eq!(defenses.apply(40, DamageType::Poison).amount, 0);
    assert_eq!(defenses.apply(40, DamageType::Psychic).amount, 0);
}

/// Crewing: a creature beside the weapon that can act; not one far away, dead or an object.
#[test]
fn only_a_creature_beside_it_can_crew_a_weapon() {
    let map = open(12, 8);
    let all = [
        weapon("b", SiegeKind::Ballista, Side::Party, (4, 3), Readiness::Unloaded),
        fighter("near", Side::Party, (6, 3)),
        fighter("far", Side::Party, (9, 3)),
        gate("door", (0, 0), None),
    ];
    let field = Field::new(&map, &all, RULES);
    let b = field.fighter("b").unwrap();
    assert!(may_crew(&field, field.fighter("near").unwrap(), b).is_ok());
    let far = may_crew(&field, field.fighter("far").unwrap(), b).unwrap_err();
    assert_eq!(far.to_string(), "far is 20 ft from the ballista: its crew must be within 5 ft of it");
    assert!(matches!(may_crew(&field, field.fighter("door").unwrap(), b), Err(SiegeError::CannotAct { .. })));
    assert!(matches!(may_crew(&field, b, field.fighter("door").unwrap()), Err(SiegeError::NotSiege { .. })));
    let mut wrecked = all.clone();
    wrecked[0].health = Health::new(0, 50, false, Default::default());
    let field = Field::new(&map, &wrecked, RULES);
    let refused = may_crew(&field, field.fighter("near").unwrap(), field.fighter("b").unwrap()).unwrap_err();
    assert_eq!(refused.to_string(), "the ballista is destroyed");
}

/// Call: a difference in elevation counts like a straight run of the grid, so the ram at the foot
/// of the wall can't reach a cauldron 20 ft up, nor can a soldier below crew it.
#[test]
fn height_counts_in_reach_and_crewing() {
    let map = open(12, 8);
    let mut cauldron = weapon("pot", SiegeKind::Cauldron, Side::Enemy, (6, 1), Readiness::Aimed);
    cauldron.elevation = 20;
    let mut all = vec![weapon("ram", SiegeKind::Ram, Side::Party, (4, 3), Readiness::Unloaded), cauldron];
    all.extend(
        ["a", "b", "c", "d"].iter().zip([(3, 3), (3, 4), (4, 5), (5, 5)]).map(|(id, at)| fighter(id, Side::Party, at)),
    );
    let strike = ruling(&map, &all, "ram", "pot");
    assert_eq!(strike.refusal, Some(Refusal::OutOfReach { distance: 20, reach: 5 }));
    let field = Field::new(&map, &all, RULES);
    let below = fighter("e", Side::Enemy, (8, 2));
    let with_guard = [all[1].clone(), below];
    let field_below = Field::new(&map, &with_guard, RULES);
    let refused = may_crew(&field_below, &with_guard[1], &with_guard[0]).unwrap_err();
    assert!(matches!(refused, SiegeError::TooFar { distance: 20, .. }), "{refused}");
    assert_eq!(field.feet_between(&all[0], &all[2]), 5, "on the same level, the map's range");
}

/// Call: an attacker higher than its target sees over the parapet nearer to it than to the target,
/// which gives the target below no cover, even on a slant; the same parapet still covers the
/// defender from the ground.
#[test]
fn a_defender_shoots_down_over_its_own_parapet() {
    let map = map(Grid::Square, &["........", "........", "========", "........", "........", "........"]);
    let mut archer = fighter("archer", Side::Enemy, (3, 1));
    archer.elevation = 20;
    let below = fighter("wren", Side::Party, (3, 5));
    let all = [archer, below];
    let down = ruling(&map, &all, "archer", "wren");
    assert_eq!((down.cover.degree, down.ac.cover), (CoverDegree::None, 0), "{}", down.summary());
    let mut slant = all.clone();
    slant[1].cells = vec![Cell::new(0, 5)];
    let across = ruling(&map, &slant, "archer", "wren");
    assert_eq!(across.ac.cover, 0, "a slanting shot crosses several parapet cells: {}", across.summary());
    let up = ruling(&map, &all, "wren", "archer");
    assert!(up.ac.cover > 0, "the parapet covers the archer: {}", up.summary());
    let mut level = all.clone();
    level[0].elevation = 0;
    assert!(ruling(&map, &level, "archer", "wren").ac.cover > 0, "on the level, the wall covers both");
}

/// On hexes the same rules hold: the cauldron's square is a Large space (3 hexes round a vertex)
/// and a ram's crew stands in the hexes beside its 3.
#[test]
fn siege_rules_hold_on_hexes() {
    let grid = Grid::Hex(crate::rules::HexOrientation::PointyTop);
    let rows: Vec<String> = (0..10).map(|_| ".".repeat(12)).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let map = map(grid, &rows);
    let hexed = |mut f: Fighter, at: (i32, i32)| {
        f.cells = Footprint::of(grid, f.size, None).at(Cell::new(at.0, at.1)).collect();
        f
    };
    let mut cauldron = hexed(weapon("pot", SiegeKind::Cauldron, Side::Enemy, (0, 0), Readiness::Aimed), (4, 1));
    cauldron.siege.as_mut().unwrap().pours_on = Some(Cell::new(3, 4));
    let ram = hexed(weapon("ram", SiegeKind::Ram, Side::Party, (0, 0), Readiness::Unloaded), (4, 3));
    let door = hexed(gate("door", (0, 0), None), (6, 3));
    let crew: Vec<Fighter> = [(3, 3), (3, 4), (4, 5), (5, 4)]
        .iter()
        .enumerate()
        .map(|(i, &at)| hexed(fighter(&format!("c{i}"), Side::Party, (0, 0)), at))
        .collect();
    let mut all = vec![cauldron, ram, door];
    all.extend(crew);
    let field = Field::new(&map, &all, RULES);
    let (cells, inside) = in_pour(&field, field.fighter("pot").unwrap()).unwrap();
    assert_eq!(cells.len(), 3);
    assert_eq!(cells, [Cell::new(3, 4), Cell::new(4, 4), Cell::new(3, 5)]);
    assert_eq!(inside.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(), ["c1"], "the crew under the oil");
    assert!(inside.iter().all(|a| a.unaffected.is_some()), "and sheltered by the ram's roof");
    let crew = ram_crew(&field, field.fighter("ram").unwrap());
    assert_eq!((crew.members.len(), crew.enough()), (4, true), "{crew:?}");
    let strike = ruling(&map, &all, "ram", "door");
    assert!(strike.allowed(), "{:?} {}", strike.refusal, strike.distance);
}

/// DMG "Siege Equipment": the crew moves the weapon with it; pushing is half their movement
/// (call: docs/rules.md, "Siege equipment and objects", Pushing). The pushers walk alongside, paying twice the
/// weapon's cost; too few are refused; a pusher with no room to walk beside it blocks the push;
/// the DM moves a weapon without crew.
#[test]
fn a_push_moves_the_weapon_and_its_pushers_together() {
    let map = open(12, 10);
    let mut all = vec![
        weapon("b", SiegeKind::Ballista, Side::Party, (4, 4), Readiness::Unloaded),
        fighter("a", Side::Party, (3, 4)),
    ];
    let feet_left = |_: &Fighter| 30;
    let plan = |all: &[Fighter], to: Cell, by_dm: bool| {
        let field = Field::new(&map, all, RULES);
        plan_push(&field, field.fighter("b").unwrap(), to, feet_left, by_dm)
    };
    assert!(matches!(plan(&all, Cell::new(4, 2), false), Err(PushError::TooFew { .. })));
    let dm = plan(&all, Cell::new(8, 8), true).expect("the DM moves it alone");
    assert!(dm.pushers.is_empty());
    all.push(fighter("c", Side::Party, (6, 5)));
    let pushed = plan(&all, Cell::new(4, 2), false).expect("two Medium creatures push a Large ballista");
    assert_eq!(pushed.path.cost, 10);
    assert_eq!(
        pushed.pushers,
        [("a".to_owned(), Cell::new(3, 4), Cell::new(3, 2)), ("c".to_owned(), Cell::new(6, 5), Cell::new(6, 3))]
    );
    let walk = pushed.walk_of(Cell::new(3, 4));
    assert_eq!((walk.start, walk.cost, walk.steps.last().map(|s| s.to)), (Cell::new(3, 4), 20, Some(Cell::new(3, 2))));
    assert!(
        matches!(plan(&all, Cell::new(4, 0), false), Err(PushError::NoPath { feet: 15, .. })),
        "20 ft is beyond half of 30 ft"
    );
    all.push(fighter("x", Side::Enemy, (6, 3)));
    assert_eq!(
        plan(&all, Cell::new(4, 2), false),
        Err(PushError::Blocked { pusher: "c".into(), at: Cell::new(6, 3) }),
        "someone stands where c would walk"
    );
}
