//! Golden tests of the fight rules, each citing the rule it checks: flanking with who may flank,
//! facing in attacks, every advantage and disadvantage source and their cancelling, the AC with
//! cover and shields, critical hits (the DMG's goblin), and saves against an area from its origin.

use super::adjudicate::{Refusal, adjudicate, flanking_pairs, pick_attack};
use super::resolve::{roll_attack, roll_damage};
use super::saves::{SaveEffect, Unaffected, creatures_in_area, roll_saves};
use super::*;
use crate::rules::Footprint;
use crate::rules::HexOrientation;
use crate::rules::area::{Shape, Volume, covered_cells};
use crate::rules::attack::Outcome;
use crate::rules::creature::{Abilities, Ability, Attack, Trait};
use crate::rules::dice::{Notation, RollMode, SeededDice};
use crate::rules::health::{DamageType, DeathSaves};
use crate::rules::lattice::Point;
use crate::rules::terrain::{Terrain, TerrainKind};

/// A map from rows: `.` floor, `#` wall, `=` low wall, `*` fog (blocks sight only).
pub(crate) fn map(grid: Grid, rows: &[&str]) -> TerrainMap {
    let palette = vec![
        Terrain::standard(TerrainKind::Floor),
        Terrain::standard(TerrainKind::Wall),
        Terrain::standard(TerrainKind::LowObstacle),
        Terrain::standard(TerrainKind::Obscuring),
    ];
    let mut map = TerrainMap::filled(grid, rows[0].len() as u32, rows.len() as u32, palette);
    for (row, text) in rows.iter().enumerate() {
        for (col, c) in text.chars().enumerate() {
            let index = match c {
                '#' => 1,
                '=' => 2,
                '*' => 3,
                _ => 0,
            };
            map.set(grid.from_storage(col as i32, row as i32), index);
        }
    }
    map
}

pub(crate) fn sword() -> Attack {
    Attack {
        name: "Sword".into(),
        bonus: 4,
        damage: "1d8+2".into(),
        damage_type: "slashing".into(),
        range: 5,
        long_range: None,
        kind: None,
        ..Attack::default()
    }
}

pub(crate) fn bow() -> Attack {
    Attack {
        name: "Bow".into(),
        bonus: 4,
        damage: "1d6+2".into(),
        damage_type: "piercing".into(),
        range: 80,
        long_range: Some(320),
        kind: None,
        ..Attack::default()
    }
}

/// A Medium creature with AC 12, 20 hit points, a sword and a bow.
pub(crate) fn fighter(id: &str, side: Side, at: (i32, i32)) -> Fighter {
    sized(id, side, at, Size::Medium, Grid::Square)
}

pub(crate) fn sized(id: &str, side: Side, at: (i32, i32), size: Size, grid: Grid) -> Fighter {
    Fighter {
        id: id.into(),
        sheet: Sheet {
            name: id.into(),
            speed: 30,
            ac: 12,
            hp: 20,
            abilities: Abilities { dex: 2, ..Abilities::default() },
            attacks: vec![sword(), bow()],
            ..Sheet::default()
        },
        anchor: Cell::new(at.0, at.1),
        cells: Footprint::of(grid, size, None).at(Cell::new(at.0, at.1)).collect(),
        side,
        size,
        square_side: None,
        is_object: false,
        conditions: Conditions::default(),
        facing: None,
        arcs: ArcLayout::default(),
        shield: None,
        squeezing: false,
        dodging: false,
        helped_against: None,
        health: Health::new(20, 20, false, DeathSaves::default()),
        defenses: Defenses::default(),
        hidden: None,
        elevation: 0,
        siege: None,
        average_damage: false,
        player_character: false,
    }
}

const RULES: FightRules = FightRules { diagonals: DiagonalRule::Standard, flanking: true, facing: true };

fn open(w: usize, h: usize) -> TerrainMap {
    let row = ".".repeat(w);
    let rows: Vec<&str> = (0..h).map(|_| row.as_str()).collect();
    map(Grid::Square, &rows)
}

/// The ruling of `a` attacking `b` with the named attack.
fn ruling(map: &TerrainMap, fighters: &[Fighter], a: &str, b: &str, attack: &str) -> adjudicate::Adjudication {
    let field = Field::new(map, fighters, RULES);
    let (a, b) = (field.fighter(a).unwrap(), field.fighter(b).unwrap());
    adjudicate(&field, a, b, pick_attack(a, Some(attack)).unwrap())
}

fn has(list: &[String], words: &str) -> bool {
    list.iter().any(|s| s.contains(words))
}

/// DMG "Flanking on Squares": "they flank that enemy, and each of them has advantage on melee
/// attack rolls against that enemy." Ranged attacks don't flank on squares.
#[test]
fn allies_on_opposite_sides_flank_for_melee_attacks_on_squares() {
    let map = open(9, 9);
    let fighters = [
        fighter("orc", Side::Enemy, (4, 4)),
        fighter("ann", Side::Party, (3, 4)),
        fighter("bo", Side::Party, (5, 4)),
        fighter("cy", Side::Ally, (4, 3)),
    ];
    let melee = ruling(&map, &fighters, "ann", "orc", "Sword");
    let pair = melee.flanking.clone().expect("ann and bo flank the orc");
    assert_eq!(
        (pair.a.as_str(), pair.b.as_str(), pair.a_cell, pair.b_cell),
        ("ann", "bo", Cell::new(3, 4), Cell::new(5, 4))
    );
    assert!(has(&melee.sources.advantages, "flanking orc with bo"));
    assert_eq!(melee.sources.mode(), RollMode::Advantage);
    let ranged = ruling(&map, &fighters, "ann", "orc", "Bow");
    assert_eq!(ranged.flanking, None, "squares: melee attack rolls only");
    assert!(has(&ranged.sources.disadvantages, "hostile creature within 5 ft (orc)"));
    let at_right_angles = ruling(&map, &fighters, "cy", "orc", "Sword");
    assert_eq!(at_right_angles.flanking, None, "cy (north) and ann (west) are at right angles");
    let field = Field::new(&map, &fighters, RULES);
    let pairs = flanking_pairs(&field, field.fighter("orc").unwrap());
    assert_eq!(pairs.len(), 1, "{pairs:?}");
}

/// DMG "Optional Rule: Flanking": "A creature can't flank an enemy that it can't see. A creature
/// also can't flank while it is incapacitated." Under the facing rule a creature can't see into its
/// rear arc.
#[test]
fn an_ally_that_cant_see_or_is_incapacitated_doesnt_flank() {
    let map = open(9, 9);
    let base =
        [fighter("orc", Side::Enemy, (4, 4)), fighter("ann", Side::Party, (3, 4)), fighter("bo", Side::Party, (5, 4))];
    let flanks = |change: &dyn Fn(&mut Fighter)| {
        let mut fighters = base.clone();
        change(&mut fighters[2]);
        ruling(&map, &fighters, "ann", "orc", "Sword").flanking.is_some()
    };
    assert!(flanks(&|_| {}));
    assert!(!flanks(&|bo| bo.conditions.set(Condition::Blinded, true)), "blinded");
    assert!(!flanks(&|bo| bo.conditions.set(Condition::Stunned, true)), "stunned: incapacitated");
    assert!(!flanks(&|bo| bo.facing = Some(Direction::East)), "the orc is in bo's rear arc");
    assert!(flanks(&|bo| bo.facing = Some(Direction::West)));
    assert!(!flanks(&|bo| bo.side = Side::Neutral), "a neutral is nobody's ally");
    assert!(!flanks(&|bo| bo.health = Health::new(0, 20, false, DeathSaves::default())), "the dead");
}

/// DMG "Flanking on Hexes": around a Medium enemy "the allies flank if there are 2 hexes between
/// them", and on hexes flanking gives advantage on attack rolls, ranged ones too.
#[test]
fn allies_on_opposite_hexes_flank_for_any_attack() {
    let grid = Grid::Hex(HexOrientation::PointyTop);
    let map = map(grid, &["........"; 8]);
    let hex = |id: &str, side, q, r| sized(id, side, (q, r), Size::Medium, grid);
    let fighters = [hex("orc", Side::Enemy, 3, 3), hex("ann", Side::Party, 2, 3), hex("bo", Side::Party, 4, 3)];
    let ranged = ruling(&map, &fighters, "ann", "orc", "Bow");
    assert!(ranged.flanking.is_some());
    assert!(has(&ranged.sources.advantages, "flanking"));
    assert!(has(&ranged.sources.disadvantages, "within 5 ft"));
    assert_eq!(ranged.sources.mode(), RollMode::Normal, "one of each cancels");
    let short = [hex("orc", Side::Enemy, 3, 3), hex("ann", Side::Party, 2, 3), hex("bo", Side::Party, 4, 2)];
    assert_eq!(ruling(&map, &short, "ann", "orc", "Sword").flanking, None, "one hex between them");
}

/// DMG "Optional Rule: Facing": "A creature can normally target only creatures in its front or
/// side arcs. It can't see into its rear arc. This means an attacker in the creature's rear arc
/// makes attack rolls against it with advantage."
#[test]
fn rear_arcs_refuse_targets_and_give_advantage() {
    let map = open(9, 9);
    let mut orc = fighter("orc", Side::Enemy, (4, 4));
    orc.facing = Some(Direction::North);
    let mut ann = fighter("ann", Side::Party, (4, 5));
    ann.facing = Some(Direction::North);
    let behind = ruling(&map, &[orc.clone(), ann.clone()], "ann", "orc", "Sword");
    assert_eq!((behind.attacker_in_arc, behind.target_in_arc), (Some(Arc::Rear), Some(Arc::Front)));
    assert!(has(&behind.sources.advantages, "in orc's rear arc"));
    assert!(behind.allowed());
    let back_turned = ruling(&map, &[orc.clone(), ann.clone()], "orc", "ann", "Sword");
    assert_eq!(back_turned.refusal, Some(Refusal::InRearArc { target: "ann".into() }));
    ann.arcs = ArcLayout::ALL_FRONT;
    orc.arcs = ArcLayout::ALL_FRONT;
    let jelly = ruling(&map, &[orc, ann], "orc", "ann", "Sword");
    assert!(jelly.allowed(), "an ochre jelly's arcs are all front");
    assert!(!has(&jelly.sources.advantages, "rear arc"));
}

/// DMG "Optional Rule: Facing": "Shields apply their bonus to AC only against attacks from the
/// front arc or the same side arc as the shield."
#[test]
fn a_shield_counts_from_the_front_and_its_own_side() {
    let map = open(9, 9);
    let mut orc = fighter("orc", Side::Enemy, (4, 4));
    orc.facing = Some(Direction::North);
    orc.shield = Some(ShieldSide::Left);
    let ac_from = |at: (i32, i32)| {
        let fighters = [orc.clone(), fighter("ann", Side::Party, at)];
        ruling(&map, &fighters, "ann", "orc", "Sword").ac
    };
    assert_eq!(ac_from((4, 3)).total, 12, "front");
    assert_eq!(ac_from((3, 4)).total, 12, "left: west, facing north");
    let right = ac_from((5, 4));
    assert_eq!((right.shield, right.total), (-2, 10), "right side: no shield");
    assert_eq!(ac_from((4, 5)).total, 10, "rear");
}

/// PHB "Ranged Attacks": disadvantage beyond normal range, no attack beyond long range; a melee
/// attack needs its reach.
#[test]
fn reach_and_range() {
    let map = open(100, 3);
    let fighters = [
        fighter("ann", Side::Party, (0, 1)),
        fighter("orc", Side::Enemy, (20, 1)),
        fighter("far", Side::Enemy, (70, 1)),
    ];
    let near = ruling(&map, &fighters, "ann", "orc", "Bow");
    assert_eq!((near.distance, near.sources.mode()), (100, RollMode::Disadvantage));
    assert!(has(&near.sources.disadvantages, "long range: 100 ft is beyond 80 ft"));
    let sword = ruling(&map, &fighters, "ann", "orc", "Sword");
    assert_eq!(sword.refusal, Some(Refusal::OutOfReach { distance: 100, reach: 5 }));
    let beyond = ruling(&map, &fighters, "ann", "far", "Bow");
    assert_eq!(beyond.refusal, Some(Refusal::OutOfRange { distance: 350, range: 320 }));
    let mut nearer = fighters.clone();
    nearer[2].cells = vec![Cell::new(64, 1)];
    assert!(ruling(&map, &nearer, "ann", "far", "Bow").allowed(), "320 ft: the end of long range");
}

/// DMG "Cover": half cover +2 AC; total cover: can't be targeted. Conventions: only walls give
/// total cover; a low wall at most three-quarters.
#[test]
fn cover_raises_the_ac_and_walls_refuse() {
    let low = map(Grid::Square, &[".....", ".=...", ".....", "....."]);
    let fighters = [fighter("ann", Side::Party, (0, 1)), fighter("orc", Side::Enemy, (2, 1))];
    let r = ruling(&low, &fighters, "ann", "orc", "Bow");
    assert!(r.ac.cover >= 2 && r.allowed(), "{:?}", r.ac);
    let walled = map(Grid::Square, &[".#...", ".#...", ".#...", ".#..."]);
    let r = ruling(&walled, &fighters, "ann", "orc", "Bow");
    assert_eq!(r.refusal, Some(Refusal::TotalCover { target: "orc".into() }));
}

/// Each condition's effect on attack rolls (PHB appendix A), as attacker and as target.
#[test]
fn conditions_give_advantage_and_disadvantage() {
    let map = open(9, 9);
    let cases: [(Condition, bool, RollMode); 12] = [
        (Condition::Blinded, true, RollMode::Disadvantage),
        (Condition::Frightened, true, RollMode::Disadvantage),
        (Condition::Poisoned, true, RollMode::Disadvantage),
        (Condition::Prone, true, RollMode::Disadvantage),
        (Condition::Restrained, true, RollMode::Disadvantage),
        (Condition::Invisible, true, RollMode::Advantage),
        (Condition::Blinded, false, RollMode::Advantage),
        (Condition::Invisible, false, RollMode::Disadvantage),
        (Condition::Paralyzed, false, RollMode::Advantage),
        (Condition::Restrained, false, RollMode::Advantage),
        (Condition::Stunned, false, RollMode::Advantage),
        (Condition::Unconscious, false, RollMode::Advantage),
    ];
    for (condition, on_attacker, mode) in cases {
        let mut fighters = [fighter("ann", Side::Party, (3, 4)), fighter("orc", Side::Enemy, (4, 4))];
        fighters[usize::from(!on_attacker)].conditions.set(condition, true);
        let r = ruling(&map, &fighters, "ann", "orc", "Sword");
        assert_eq!(
            r.sources.mode(),
            mode,
            "{condition:?} on the {}: {}",
            if on_attacker { "attacker" } else { "target" },
            r.sources.describe()
        );
    }
}

/// PHB appendix A, "Prone": "An attack roll against the creature has advantage if the attacker is
/// within 5 feet of the creature. Otherwise, the attack roll has disadvantage." "Paralyzed" and
/// "Unconscious": "Any attack that hits the creature is a critical hit if the attacker is within 5
/// feet."
#[test]
fn prone_and_unconscious_targets_depend_on_distance() {
    let map = open(12, 3);
    let mut fighters =
        [fighter("ann", Side::Party, (0, 1)), fighter("orc", Side::Enemy, (1, 1)), fighter("elf", Side::Party, (6, 1))];
    fighters[1].conditions.set(Condition::Prone, true);
    assert_eq!(ruling(&map, &fighters, "ann", "orc", "Sword").sources.mode(), RollMode::Advantage);
    assert_eq!(ruling(&map, &fighters, "elf", "orc", "Bow").sources.mode(), RollMode::Disadvantage);
    fighters[1].conditions.set(Condition::Unconscious, true);
    let close = ruling(&map, &fighters, "ann", "orc", "Sword");
    assert!(close.automatic_critical.is_some());
    assert_eq!(close.sources.advantages, vec!["orc is unconscious".to_owned()], "named once");
    let far = ruling(&map, &fighters, "elf", "orc", "Bow");
    assert_eq!(far.automatic_critical, None);
    assert_eq!(far.sources.mode(), RollMode::Normal, "unconscious (advantage) and prone beyond 5 ft cancel");
}

/// PHB "Squeezing into a Smaller Space", "Dodge", "Help", appendix A "Exhaustion"; DMG: any number
/// of advantages and disadvantages cancel to neither.
#[test]
fn squeezing_dodge_help_exhaustion_and_cancelling() {
    let map = open(9, 9);
    let pair = || [fighter("ann", Side::Party, (3, 4)), fighter("orc", Side::Enemy, (4, 4))];
    let mode_with = |change: &dyn Fn(&mut [Fighter; 2])| {
        let mut fighters = pair();
        change(&mut fighters);
        ruling(&map, &fighters, "ann", "orc", "Sword").sources
    };
    assert_eq!(mode_with(&|f| f[0].squeezing = true).mode(), RollMode::Disadvantage);
    assert_eq!(mode_with(&|f| f[1].squeezing = true).mode(), RollMode::Advantage);
    assert_eq!(mode_with(&|f| f[1].dodging = true).mode(), RollMode::Disadvantage);
    assert_eq!(
        mode_with(&|f| {
            f[1].dodging = true;
            f[1].conditions.set(Condition::Restrained, true);
        })
        .disadvantages,
        Vec::<String>::new(),
        "Dodge is lost when speed drops to 0"
    );
    assert_eq!(
        mode_with(&|f| {
            f[1].dodging = true;
            f[1].sheet.exhaustion = 5;
        })
        .disadvantages,
        Vec::<String>::new(),
        "exhaustion 5 makes the speed 0 too"
    );
    assert_eq!(mode_with(&|f| f[0].helped_against = Some("orc".into())).mode(), RollMode::Advantage);
    assert_eq!(mode_with(&|f| f[0].sheet.exhaustion = 3).mode(), RollMode::Disadvantage);
    assert_eq!(mode_with(&|f| f[0].sheet.exhaustion = 2).mode(), RollMode::Normal);
    let many = mode_with(&|f| {
        f[1].conditions.set(Condition::Restrained, true);
        f[1].conditions.set(Condition::Blinded, true);
        f[0].conditions.set(Condition::Poisoned, true);
    });
    assert_eq!((many.advantages.len(), many.disadvantages.len(), many.mode()), (2, 1, RollMode::Normal));
}

/// PHB "Unseen Attackers and Targets": fog between them: neither sees the other, so disadvantage
/// (can't see the target) and advantage (the target can't see the attacker) cancel.
#[test]
fn fog_between_cancels_out() {
    let fog = map(Grid::Square, &["..*..", "..*..", "..*..", "..*.."]);
    let fighters = [fighter("ann", Side::Party, (0, 1)), fighter("orc", Side::Enemy, (4, 1))];
    let r = ruling(&fog, &fighters, "ann", "orc", "Bow");
    assert!(!r.sees_target && r.allowed(), "an unseen target may still be attacked");
    assert!(has(&r.sources.disadvantages, "can't see the target"));
    assert!(has(&r.sources.advantages, "unseen attacker"));
    assert_eq!(r.sources.mode(), RollMode::Normal);
}

#[test]
fn attackers_that_cant_act_are_refused() {
    let map = open(9, 9);
    let mut fighters = [fighter("ann", Side::Party, (3, 4)), fighter("orc", Side::Enemy, (4, 4))];
    fighters[0].conditions.set(Condition::Stunned, true);
    let r = ruling(&map, &fighters, "ann", "orc", "Sword");
    assert!(matches!(r.refusal, Some(Refusal::CannotAct { .. })), "{:?}", r.refusal);
    assert!(pick_attack(&fighters[0], Some("Lance")).is_err_and(|e| e.to_string().contains("Sword, Bow")));
}

/// DMG "Monsters and Critical Hits": "if a goblin normally deals 5 (1d6 + 2) slashing damage on a
/// hit and scores a critical hit, it deals 1d6 + 5 slashing damage."
#[test]
fn the_dmg_goblin_deals_average_damage_and_adds_the_dice_on_a_critical() {
    let scimitar = Notation::parse("1d6+2").unwrap();
    let none = Defenses::default();
    let mut dice = SeededDice::new(7);
    let hit = roll_damage(&scimitar, false, true, DamageType::Slashing, &none, &mut dice).unwrap();
    assert_eq!((hit.rolled, hit.average, hit.roll), (5, Some(5), None));
    for seed in 0..20 {
        let mut dice = SeededDice::new(seed);
        let crit = roll_damage(&scimitar, true, true, DamageType::Slashing, &none, &mut dice).unwrap();
        let roll = crit.roll.expect("the dice are rolled");
        assert_eq!(roll.notation, "1d6");
        assert_eq!(crit.rolled, 5 + roll.total);
        assert!((6..=11).contains(&crit.rolled));
    }
    let mut dice = SeededDice::new(3);
    let rolled = roll_damage(&scimitar, true, false, DamageType::Slashing, &none, &mut dice).unwrap();
    assert_eq!(rolled.roll.unwrap().notation, "2d6+2", "rolled damage: every die twice");
}

/// PHB "Rolling 1 or 20", "Critical Hits", "Damage Resistance and Vulnerability": rolled with
/// fixed seeds, each outcome checked against its d20.
#[test]
fn rolled_attacks_hit_miss_and_crit_by_the_d20() {
    let map = open(9, 9);
    let mut fighters = [fighter("ann", Side::Party, (3, 4)), fighter("orc", Side::Enemy, (4, 4))];
    fighters[1].defenses.resistances.insert(DamageType::Slashing);
    let r = ruling(&map, &fighters, "ann", "orc", "Sword");
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let mut dice = SeededDice::new(seed);
        let rolled = roll_attack(&r, &fighters[1].defenses, false, &mut dice).unwrap();
        assert_eq!(rolled.total, rolled.natural + 4);
        let expected = match rolled.natural {
            20 => Outcome::Critical,
            1 => Outcome::Miss,
            n if n + 4 >= 12 => Outcome::Hit,
            _ => Outcome::Miss,
        };
        assert_eq!(rolled.outcome, expected);
        if let Some(d) = &rolled.damage {
            assert_eq!(d.dealt.amount, d.rolled / 2, "resistance halves, rounded down");
            assert_eq!(
                d.roll.as_ref().unwrap().notation,
                if expected == Outcome::Critical { "2d8+2" } else { "1d8+2" }
            );
        }
        seen.insert(format!("{expected:?}"));
    }
    assert_eq!(seen.len(), 3, "two hundred seeds show all three outcomes");
    fighters[1].conditions.set(Condition::Paralyzed, true);
    let paralyzed = ruling(&map, &fighters, "ann", "orc", "Sword");
    for seed in 0..50 {
        let rolled = roll_attack(&paralyzed, &Defenses::default(), false, &mut SeededDice::new(seed)).unwrap();
        assert_ne!(rolled.outcome, Outcome::Hit, "every hit within 5 ft is a critical hit");
    }
}

/// DMG "Cover": the lines run from the area's point of origin; half cover gives +2 to Dexterity
/// saves and total cover from a wall keeps a creature out. PHB appendix A: a paralyzed creature
/// fails Dexterity saves.
#[test]
fn saves_against_an_area_take_cover_from_its_origin() {
    let rows = ["..........", "..........", "....=.#...", "......#...", "......#...", ".........."];
    let map = map(Grid::Square, &rows);
    let mut fighters = [
        fighter("open", Side::Party, (2, 2)),
        fighter("low", Side::Party, (5, 2)),
        fighter("walled", Side::Party, (7, 3)),
        fighter("stiff", Side::Enemy, (3, 4)),
    ];
    fighters[3].conditions.set(Condition::Paralyzed, true);
    fighters[0].defenses.resistances.insert(DamageType::Fire);
    let field = Field::new(&map, &fighters, RULES);
    let origin = Point::square_corner(4, 3);
    let cells = covered_cells(&map, Shape::Sphere { radius: 20 }, origin.to_units(Grid::Square), 0.0).unwrap();
    let inside = creatures_in_area(&field, &Volume::of(&cells, Shape::Sphere { radius: 20 }, 0), origin);
    let ids: Vec<&str> = inside.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["open", "low", "walled", "stiff"]);
    let low = inside.iter().find(|c| c.id == "low").unwrap();
    assert!(low.cover >= crate::rules::sight::CoverDegree::Half && low.unaffected.is_none());
    let walled = inside.iter().find(|c| c.id == "walled").unwrap();
    assert_eq!(walled.unaffected, Some(Unaffected::BehindWalls), "behind the wall");
    let fireball = SaveEffect {
        ability: Ability::Dex,
        dc: 15,
        damage: Some(Notation::parse("8d6").unwrap()),
        damage_type: DamageType::Fire,
        half_on_success: true,
    };
    let rolled = roll_saves(&field, &inside, &fireball, &mut SeededDice::new(11)).unwrap();
    let full = rolled.damage_roll.as_ref().unwrap().total;
    for r in &rolled.results {
        let taken = r.damage.as_ref().map_or(0, |d| d.amount);
        match r.id.as_str() {
            "walled" => assert_eq!((r.success, taken), (true, 0)),
            "stiff" => assert_eq!((r.roll.is_none(), r.success, taken), (true, false, full), "fails automatically"),
            "low" => {
                assert_eq!(r.cover_bonus, 2);
                assert_eq!(r.roll.as_ref().unwrap().notation, "1d20+4", "Dex +2 and half cover +2");
                assert_eq!(taken, if r.success { full / 2 } else { full });
            }
            _ => {
                let before = if r.success { full / 2 } else { full };
                assert_eq!(taken, before / 2, "resists fire");
            }
        }
    }
}

/// PHB "Falling Unconscious": a dying creature is unconscious; healing brings it to.
#[test]
fn dropping_to_zero_knocks_out_and_healing_wakes() {
    let mut health = Health::new(3, 20, true, DeathSaves::default());
    let mut conditions = Conditions::default();
    take_damage(&mut health, &mut conditions, 5, false);
    assert!(conditions.has(Condition::Unconscious) && conditions.has(Condition::Prone));
    assert_eq!(heal(&mut health, &mut conditions, 4), 4);
    assert!(!conditions.has(Condition::Unconscious) && conditions.has(Condition::Prone), "wakes up prone");
}

/// PHB "Death Saving Throws": a 20 regains 1 hit point, and the creature comes to (still prone).
#[test]
fn a_natural_20_on_a_death_save_wakes_the_creature() {
    let mut health = Health::new(0, 20, true, DeathSaves::default());
    let mut conditions = Conditions::new([Condition::Unconscious]);
    assert!(conditions.has(Condition::Prone), "unconscious brings prone, even as written in a scene");
    assert_eq!(death_save(&mut health, &mut conditions, 9), Some(DeathSave::Failure));
    assert!(conditions.has(Condition::Unconscious));
    assert_eq!(death_save(&mut health, &mut conditions, 20), Some(DeathSave::RegainOne));
    assert_eq!(health.hp, 1);
    assert!(!conditions.has(Condition::Unconscious) && conditions.has(Condition::Prone));
    assert_eq!(death_save(&mut health, &mut conditions, 20), None, "only a dying creature saves");
}

/// PHB appendix A, "Petrified": resistance to all damage, immunity to poison.
#[test]
fn a_petrified_creature_resists_everything() {
    let mut statue = fighter("statue", Side::Enemy, (0, 0));
    assert_eq!(statue.defenses_now().apply(9, DamageType::Fire).amount, 9);
    statue.conditions.set(Condition::Petrified, true);
    assert_eq!(statue.defenses_now().apply(9, DamageType::Fire).amount, 4);
    assert_eq!(statue.defenses_now().apply(9, DamageType::Poison).amount, 0);
}

/// The map's shading: where a friend of the selected creature could stand to flank the hovered
/// enemy, with it or with an ally already beside the enemy; only allies that may flank count.
#[test]
fn where_to_stand_to_flank_an_enemy() {
    let map = open(9, 9);
    let mut fighters =
        [fighter("orc", Side::Enemy, (4, 4)), fighter("ann", Side::Party, (3, 4)), fighter("cy", Side::Ally, (4, 3))];
    let cells = |fighters: &[Fighter], rules: FightRules| {
        let field = Field::new(&map, fighters, rules);
        adjudicate::where_to_flank(&field, &fighters[1], &fighters[0])
    };
    assert_eq!(cells(&fighters, RULES), [Cell::new(5, 4), Cell::new(4, 5)], "across from ann, across from cy");
    assert_eq!(cells(&fighters, FightRules { flanking: false, ..RULES }), [], "only under the flanking rule");
    fighters[2].conditions.set(Condition::Stunned, true);
    assert_eq!(cells(&fighters, RULES), [Cell::new(5, 4)], "a stunned ally flanks no one");
    let field = Field::new(&map, &fighters, RULES);
    assert_eq!(adjudicate::where_to_flank(&field, &fighters[0], &fighters[0]), [], "not against its own side");
}

/// SRD 5.1 appendix PH-A, "Exhaustion": level 4 halves the hit point maximum, so healing stops
/// there; level 6 is death, and no level is higher.
#[test]
fn exhaustion_caps_healing_from_level_4_and_kills_at_level_6() {
    let mut health = Health::new(5, 20, true, DeathSaves::default());
    let mut conditions = Conditions::default();
    set_exhaustion(&mut health, 3);
    assert_eq!(heal(&mut health, &mut conditions, 30), 15, "up to the full 20 below level 4");
    set_exhaustion(&mut health, 4);
    assert_eq!(health.hp, 10, "brought down to the halved maximum");
    health.hp = 5;
    assert_eq!(heal(&mut health, &mut conditions, 30), 5, "up to half of 20 at level 4");
    assert_eq!(health.hp, 10);
    assert_eq!(set_exhaustion(&mut health, 5), 5);
    assert_eq!(health.life, Life::Up, "level 5 leaves it alive");
    assert_eq!(set_exhaustion(&mut health, 9), 6, "no level above 6");
    assert_eq!(health.life, Life::Dead, "level 6: death");
}

/// SRD 5.1 appendix PH-A, "Exhaustion": "Hit point maximum halved" at level 4. Everything
/// measured against the maximum reads the halved one: bloodied (DMG "Tracking Monster Hit
/// Points": half its hit points), instant death (PHB "Instant Death": "damage equals or exceeds
/// your hit point maximum"), and damage at 0 hit points.
#[test]
fn exhaustion_4_halves_the_maximum_that_bloodied_and_instant_death_read() {
    let mut orc = Health::new(15, 30, false, DeathSaves::default());
    assert!(orc.bloodied(), "15 of 30");
    set_exhaustion(&mut orc, 4);
    assert!(!orc.bloodied(), "15 of 15 is not bloodied");
    orc.hp = 7;
    assert!(orc.bloodied(), "7 of 15");
    let mut brom = Health::new(5, 30, true, DeathSaves::default());
    set_exhaustion(&mut brom, 4);
    let mut conditions = Conditions::default();
    let taken = take_damage(&mut brom, &mut conditions, 5 + 15, false);
    assert!(taken.instant_death && brom.life == Life::Dead, "15 left over is the halved maximum");
    let mut lia = Health::new(0, 30, true, DeathSaves::default());
    set_exhaustion(&mut lia, 4);
    assert!(
        take_damage(&mut lia, &mut conditions, 15, false).instant_death,
        "at 0, damage of the halved maximum kills"
    );
    let mut fresh = Health::new(0, 30, true, DeathSaves::default());
    assert!(!take_damage(&mut fresh, &mut conditions, 15, false).instant_death, "without exhaustion, 15 of 30 doesn't");
}

/// SRD 5.1 appendix PH-A, "Prone", and PHB "Being Prone": standing up costs half the creature's
/// speed as it is now (exhaustion 2 halves it), from the movement it has left.
#[test]
fn standing_up_costs_half_the_speed_now() {
    let mut conditions = Conditions::new([Condition::Prone]);
    assert_eq!(stand_up(&mut conditions, 30, 0, 10), Err(StandError::NotEnoughMovement { cost: 15, left: 10 }));
    assert!(conditions.has(Condition::Prone), "a refused stand changes nothing");
    assert_eq!(stand_up(&mut conditions, 30, 2, 10), Ok(7), "speed 15 at exhaustion 2: 7 ft, rounded down");
    assert!(!conditions.has(Condition::Prone));
    assert_eq!(stand_up(&mut conditions, 30, 0, 30), Err(StandError::NotProne));
}

/// PHB "Being Prone": "You can't stand up if you don't have enough movement left or if your speed
/// is 0." Grappled, unconscious (which brings prone) and exhaustion 5 make the speed 0: the
/// creature stays prone, and stands for nothing no more.
#[test]
fn a_creature_whose_speed_is_0_cant_stand_up() {
    for (given, exhaustion) in [
        (vec![Condition::Prone, Condition::Grappled], 0),
        (vec![Condition::Unconscious], 0),
        (vec![Condition::Prone], 5),
    ] {
        let mut conditions = Conditions::new(given.clone());
        let stood = stand_up(&mut conditions, 30, exhaustion, 30);
        assert!(
            matches!(stood, Err(StandError::SpeedZero { why: Some(_) })),
            "{given:?}, exhaustion {exhaustion}: {stood:?}"
        );
        assert!(conditions.has(Condition::Prone), "{given:?}: still prone");
    }
    let mut grappled = Conditions::new([Condition::Prone, Condition::Grappled]);
    let why = stand_up(&mut grappled, 30, 0, 30).expect_err("speed 0");
    assert_eq!(why.to_string(), "its speed is 0 (grappled: speed 0), so it can't stand up");
    let mut slow = Conditions::new([Condition::Prone]);
    assert_eq!(stand_up(&mut slow, 0, 0, 0), Err(StandError::SpeedZero { why: None }), "a sheet's speed of 0");
}

/// PHB "Death Saving Throws" (a saving throw, of no ability) and appendix A, "Exhaustion": level 3
/// gives saving throws disadvantage, death saves too; poison doesn't touch saving throws.
#[test]
fn exhaustion_3_gives_death_saves_disadvantage() {
    use crate::rules::conditions::{NO_EFFECTS, Rolling};
    use crate::rules::modifiers::D20;
    let death_save = |conditions, exhaustion| {
        Rolling { who: "Brom", conditions, exhaustion, effects: NO_EFFECTS }.sources(D20::Save(None)).mode()
    };
    let none = Conditions::default();
    assert_eq!(death_save(&none, 3), RollMode::Disadvantage);
    assert_eq!(death_save(&none, 2), RollMode::Normal);
    let poisoned = Conditions::new([Condition::Poisoned, Condition::Unconscious]);
    assert_eq!(death_save(&poisoned, 0), RollMode::Normal);
}

/// PHB "Help" (the advantage is for the ally's next attack roll against that target) and
/// "Unseen Attackers and Targets" ("you give away your location when the attack hits or
/// misses"): the aftermath of an attack uses up the Help against its target and the hiding place,
/// whatever the roll.
#[test]
fn an_attack_uses_up_the_help_against_its_target_and_reveals_a_hidden_attacker() {
    let map = open(9, 9);
    let mut fighters = [fighter("ann", Side::Party, (3, 4)), fighter("orc", Side::Enemy, (4, 4))];
    fighters[0].helped_against = Some("orc".into());
    fighters[0].hidden = Some(17);
    let r = ruling(&map, &fighters, "ann", "orc", "Sword");
    for seed in 0..20 {
        let roll = roll_attack(&r, &fighters[1].defenses, false, &mut SeededDice::new(seed)).unwrap();
        let after = resolve::Aftermath::of(&r, &fighters[0], &roll);
        assert!(after.help_used && after.revealed, "seed {seed}: {}", roll.describe());
        assert_eq!(after.damage.is_some(), roll.outcome != Outcome::Miss);
        let (mut helped, mut hidden) = (fighters[0].helped_against.clone(), fighters[0].hidden);
        after.settle(&mut helped, &mut hidden);
        assert_eq!((helped, hidden), (None, None));
        let (mut health, mut conditions) = (fighters[1].health, fighters[1].conditions.clone());
        let taken = after.harm(&mut health, &mut conditions);
        assert_eq!(20 - health.hp, taken.map_or(0, |t| t.amount.min(20)));
    }
    fighters[0].helped_against = Some("someone else".into());
    let r = ruling(&map, &fighters, "ann", "orc", "Sword");
    let roll = roll_attack(&r, &fighters[1].defenses, false, &mut SeededDice::new(1)).unwrap();
    assert!(!resolve::Aftermath::of(&r, &fighters[0], &roll).help_used, "Help against another target stays");
}

/// SRD 5.1 appendix PH-A, "Blinded" ("can't see"), and DMG "Optional Rule: Facing" ("It can't
/// see into its rear arc"): the sight overlay's unseen cells.
#[test]
fn a_blinded_creature_sees_no_cell_and_a_facing_one_not_its_rear() {
    let map = open(9, 9);
    let mut fighters = [fighter("ann", Side::Party, (4, 4))];
    let unseen = |fighters: &[Fighter]| Field::new(&map, fighters, RULES).unseen_cells(&fighters[0]);
    assert!(unseen(&fighters).is_empty(), "in the open, without a facing, it sees every cell");
    fighters[0].facing = Some(Direction::North);
    let behind = unseen(&fighters);
    assert!(behind.contains(&Cell::new(4, 8)) && !behind.contains(&Cell::new(4, 0)), "south is behind it");
    assert!(!behind.contains(&Cell::new(4, 4)), "never its own space");
    fighters[0].conditions.set(Condition::Blinded, true);
    assert_eq!(unseen(&fighters).len(), 80, "every cell but its own");
}

/// The one distance with heights (docs/rules.md, "Elevation"): a guard on a wall walk 20 ft above
/// the cell beside a creature is 20 ft from it, so it isn't adjacent, doesn't flank, isn't left
/// behind by a step (PHB "Opportunity Attacks": leaving its reach), and a 5-ft sphere on the
/// ground doesn't reach it while a 20-ft one does (DMG "Areas of Effect").
#[test]
fn a_guard_twenty_feet_up_is_twenty_feet_away_for_every_rule() {
    let map = open(9, 9);
    let mut fighters = [
        fighter("orc", Side::Enemy, (4, 4)),
        fighter("guard", Side::Party, (3, 4)),
        fighter("ann", Side::Party, (5, 4)),
    ];
    let pairs = |fighters: &[Fighter]| {
        let field = Field::new(&map, fighters, RULES);
        flanking_pairs(&field, &fighters[0]).len()
    };
    assert_eq!(pairs(&fighters), 1, "on the ground, the guard and ann flank the orc");
    fighters[1].elevation = 20;
    let field = Field::new(&map, &fighters, RULES);
    let (orc, guard) = (&fighters[0], &fighters[1]);
    assert_eq!(field.feet_between(orc, guard), 20);
    assert!(!field.adjacent(orc, guard));
    assert_eq!(pairs(&fighters), 0, "from 20 ft up, no flanking");
    assert!(adjudicate::partner_cells(&field, orc, guard).is_empty());
    let away = [Cell::new(4, 4), Cell::new(4, 5), Cell::new(4, 6)];
    let struck = opportunity::provocations(&field, "orc", &away, opportunity::Moving::Walking, |_| true, &[]);
    assert_eq!(struck.iter().map(|p| p.reactor.as_str()).collect::<Vec<_>>(), ["ann"], "only ann, on the ground");
    let at_guard = Point::square_corner(3, 4).to_units(Grid::Square);
    let holds = |radius: u32| {
        let shape = Shape::Sphere { radius };
        let cells = covered_cells(&map, shape, at_guard, 0.0).unwrap();
        let volume = Volume::of(&cells, shape, 0);
        field.in_area(&volume).any(|f| f.id == "guard")
    };
    assert!(!holds(5), "a 5-ft sphere on the ground stops 5 ft up");
    assert!(holds(20), "a 20-ft sphere reaches 20 ft up");
}

mod dark_sight {
    use std::collections::HashSet;

    use super::*;
    use crate::rules::sight::unseen_cells;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// In a dark scene a viewer's sight sweep stops where nothing can be lit for it
        /// (`Field::sight_reach`), and still finds exactly the cells of the plain definition:
        /// unseen when no line reaches them (the whole map's sweep) or when they are dark as it
        /// sees them (SRD "Vision and Light"), on squares and hexes, with walls, a lamp far off,
        /// a torch, darkvision and a Large viewer.
        #[test]
        fn the_bounded_sweep_in_the_dark_sees_what_the_whole_one_does(
            hex in any::<bool>(),
            walls in proptest::collection::vec((0i32..40, 0i32..40), 0..160),
            viewer in (5i32..35, 5i32..35),
            large in any::<bool>(),
            darkvision in prop_oneof![Just(0u32), Just(30), Just(60)],
            torch in any::<bool>(),
            lamp in (0i32..40, 0i32..40),
        ) {
            let grid = if hex { Grid::Hex(HexOrientation::PointyTop) } else { Grid::Square };
            let mut rows = vec![vec!['.'; 40]; 40];
            for (col, row) in walls {
                rows[row as usize][col as usize] = '#';
            }
            let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let mut map = map(grid, &rows);
            let at = grid.from_storage(viewer.0, viewer.1);
            let size = if large { Size::Large } else { Size::Medium };
            let mut me = sized("me", Side::Party, (at.x, at.y), size, grid);
            for &cell in &me.cells {
                map.set(cell, 0);
            }
            me.sheet.darkvision = darkvision;
            me.sheet.light = torch.then_some(LightSource { bright: 20, dim: 20, sunlight: false });
            let fighters = [me];
            let lamps = [(grid.from_storage(lamp.0, lamp.1), LightSource { bright: 10, dim: 10, sunlight: false })];
            let field = Field::new(&map, &fighters, FightRules { facing: false, ..RULES }).in_light(LightLevel::Dark, &lamps);
            let me = &fighters[0];
            let mut bounded = field.unseen_cells(me);
            bounded.sort();
            let no_line: HashSet<Cell> = unseen_cells(&field.sight_board(), &me.cells).into_iter().collect();
            let mut plain: Vec<Cell> = map
                .cells()
                .filter(|c| !me.cells.contains(c))
                .filter(|c| no_line.contains(c) || field.light_seen_at(me, &[*c], 0) == LightLevel::Dark)
                .collect();
            plain.sort();
            prop_assert_eq!(bounded, plain);
        }
    }
}

/// The fog of war's party (issue 30): the `Party` side, and a creature the DM marks as a player's
/// (`pc: true`) on any other side; never an object.
#[test]
fn a_player_character_of_another_side_sees_for_the_party() {
    let map = map(Grid::Square, &["....#....", "....#...."]);
    let mut fighters = [fighter("ann", Side::Party, (0, 0)), fighter("bo", Side::Ally, (8, 0))];
    let beyond_the_wall = map.index_of(Cell::new(7, 1)).expect("on the map");
    let seen = |fighters: &[Fighter]| Field::new(&map, fighters, FightRules::default()).party_sight()[beyond_the_wall];
    assert!(!seen(&fighters), "the wall hides it from Ann, and Bo is an ally, not a player");
    fighters[1].player_character = true;
    assert!(seen(&fighters), "Bo is a player's creature");
    fighters[1].is_object = true;
    assert!(!seen(&fighters), "an object sees for no one");
}

/// SRD 5.1 "Sight Rot": "a -1 penalty to attack rolls and ability checks that rely on sight": a
/// watcher whose sight rot is at -2 has a passive Perception 2 lower, against a hider too, and its
/// attacks 2 lower; its Stealth, which doesn't rely on sight, is untouched.
#[test]
fn sight_rot_lowers_attacks_and_the_checks_that_rely_on_sight() {
    use crate::rules::effects::diseases::Disease;
    use crate::rules::effects::{Effects, hampered};
    use crate::rules::modifiers::D20;
    let mut effects = Effects::default();
    let mut rot = Disease::SightRot.caught(1);
    rot.penalty = -2;
    effects.give(rot).expect("valid");
    let mut watcher = fighter("thug", Side::Enemy, (6, 2));
    let (passive, bonus) = (watcher.passive_perception(), watcher.sheet.attacks[0].bonus);
    hampered(&mut watcher.sheet, &effects);
    assert_eq!(watcher.passive_perception(), passive - 2);
    assert_eq!(watcher.sheet.attacks[0].bonus, bonus - 2);
    assert_eq!(watcher.rolling().bonus(D20::STEALTH), 0);
    assert_eq!(watcher.rolling().bonus(D20::PERCEPTION), -2);
    let fighters = vec![fighter("lia", Side::Party, (2, 2)), watcher];
    let map = map(Grid::Square, &["........"; 5]);
    let field = Field::new(&map, &fighters, RULES);
    assert_eq!(field.passive_perception_against(&fighters[1], &fighters[0]), passive - 2);
}

/// Issue 39 (the tavern's top-left "notch"): the wall behind a hearth, and the room's corner
/// beside it, are hidden from the room by the hearth, but the players see the walls and the hearth
/// meet there, so the fog shows them; the walls' far side, deeper in, stays unseen.
#[test]
fn a_wall_behind_a_hearth_shows_with_the_walls_seen_beside_it() {
    // The hearth: two cells that block sight against the north wall.
    let map = map(Grid::Square, &["######", "###..#", "#....#", "######", "######"]);
    let fighters = [fighter("ann", Side::Party, (3, 2))];
    let seen = Field::new(&map, &fighters, FightRules::default()).party_sight();
    let at = |x, y| seen[map.index_of(Cell::new(x, y)).expect("on the map")];
    for (x, y) in [(0, 0), (1, 0), (2, 0)] {
        assert!(at(x, y), "the wall ({x}, {y}) behind the hearth shows");
    }
    assert!(!at(2, 4), "the far side of the thick wall, deep in, doesn't");
}

/// SRD kobold, "Sunlight Sensitivity": "While in sunlight, the kobold has disadvantage on attack
/// rolls, as well as on Wisdom (Perception) checks that rely on sight." Sunlight is a light of
/// the sun's (a grate's shaft, here 20 ft bright and 20 ft dim from (0, 0)); a torch's light is
/// not, and a wall's shadow keeps the sun off (docs/rules.md, "Sunlight").
#[test]
fn sunlight_sensitivity_hampers_attacks_and_sight_in_sunlight_only() {
    use crate::rules::light::{LightLevel, LightSource};
    let board = map(Grid::Square, &["......", "......", "......", "####..", "......"]);
    let sun = [(Cell::new(0, 0), LightSource { bright: 20, dim: 20, sunlight: true })];
    let torch = [(Cell::new(0, 0), LightSource { bright: 20, dim: 20, sunlight: false })];
    let mut fighters = vec![fighter("kobold", Side::Enemy, (3, 0)), fighter("ann", Side::Party, (4, 0))];
    fighters[0].sheet.traits.insert(Trait::SunlightSensitivity);
    let attack = |fighters: &[Fighter], lamps: &[(Cell, LightSource)], ambient: LightLevel| {
        let field = Field::new(&board, fighters, RULES).in_light(ambient, lamps);
        let (k, a) = (field.fighter("kobold").unwrap(), field.fighter("ann").unwrap());
        let ruling = adjudicate(&field, k, a, pick_attack(k, Some("Sword")).unwrap());
        (ruling.sources.disadvantages, field.passive_perception_against(k, a) - k.passive_perception())
    };
    let said = "kobold is in sunlight (Sunlight Sensitivity)";
    // 15 ft from the grate, Ann 20 ft, both in its bright light: in sunlight, in a bright scene
    // too.
    for ambient in [LightLevel::Dark, LightLevel::Bright] {
        let (disadvantages, passive) = attack(&fighters, &sun, ambient);
        assert!(has(&disadvantages, said), "{ambient:?}: {disadvantages:?}");
        assert_eq!(passive, -5, "{ambient:?}: its passive Perception is 5 lower");
    }
    // A torch's light is not the sun's.
    let (disadvantages, passive) = attack(&fighters, &torch, LightLevel::Dark);
    assert!(!has(&disadvantages, "sunlight"), "{disadvantages:?}");
    assert_eq!(passive, 0);
    // Behind the wall (row 3), the sun doesn't reach it.
    fighters[0].anchor = Cell::new(1, 4);
    fighters[0].cells = vec![fighters[0].anchor];
    fighters[1].anchor = Cell::new(2, 4);
    fighters[1].cells = vec![fighters[1].anchor];
    let (disadvantages, _) = attack(&fighters, &sun, LightLevel::Bright);
    assert!(!has(&disadvantages, "sunlight"), "{disadvantages:?}");
    // Without the trait, the sun harms no one.
    fighters[0].sheet.traits.clear();
    fighters[0].anchor = Cell::new(3, 0);
    fighters[0].cells = vec![fighters[0].anchor];
    let (disadvantages, _) = attack(&fighters, &sun, LightLevel::Dark);
    assert!(!has(&disadvantages, "sunlight"), "{disadvantages:?}");
}

/// SRD 5.1 "Adult Red Dragon", Bite: "Hit: 19 (2d10 + 8) piercing damage plus 7 (2d6) fire
/// damage." Each part of the damage meets the target's defenses by its own type: a fire-immune
/// target takes the piercing only; on average damage the two averages add up (19 + 7).
#[test]
fn extra_damage_of_another_type_is_dealt_with_the_first_and_meets_its_own_defenses() {
    use crate::rules::creature::ExtraDamage;
    use crate::rules::health::DamageType;
    let map = open(9, 9);
    let mut fighters = [fighter("dragon", Side::Enemy, (3, 4)), fighter("ann", Side::Party, (4, 4))];
    fighters[0].sheet.attacks = vec![Attack {
        name: "Bite".into(),
        bonus: 30,
        damage: "2d10+8".into(),
        damage_type: "piercing".into(),
        extra_damage: vec![ExtraDamage { dice: "2d6".into(), damage_type: "fire".into() }],
        ..sword()
    }];
    let r = ruling(&map, &fighters, "dragon", "ann", "Bite");
    let average = roll_attack(&r, &Defenses::default(), true, &mut SeededDice::new(3)).unwrap();
    assert_eq!(average.outcome, Outcome::Hit, "seed 3 rolls neither a 1 nor a 20");
    assert_eq!(average.dealt(), Some(26), "{}", average.describe());
    assert!(average.describe().ends_with("19 piercing damage plus 7 fire"), "{}", average.describe());
    let immune = Defenses { immunities: [DamageType::Fire].into(), ..Defenses::default() };
    for seed in 0..10 {
        let roll = roll_attack(&r, &immune, false, &mut SeededDice::new(seed)).unwrap();
        let first = roll.damage.as_ref().expect("+30 hits").dealt.amount;
        assert_eq!(roll.extra.len(), 1);
        assert_eq!(roll.dealt(), Some(first), "seed {seed}: the fire is stopped: {}", roll.describe());
        assert_eq!(resolve::Aftermath::of(&r, &fighters[0], &roll).damage, Some(first));
    }
}

/// SRD 5.1 "Kobold", Pack Tactics: "The kobold has advantage on an attack roll against a creature
/// if at least one of the kobold's allies is within 5 feet of the creature and the ally isn't
/// incapacitated." Flanking is off, so the advantage is the trait's alone.
#[test]
fn pack_tactics_needs_an_able_ally_within_5_feet_of_the_target() {
    let map = open(9, 9);
    let mut fighters = [
        fighter("kobold", Side::Enemy, (2, 4)),
        fighter("ann", Side::Party, (3, 4)),
        fighter("rat", Side::Enemy, (4, 5)),
    ];
    fighters[0].sheet.traits.insert(Trait::PackTactics);
    let rule = |fighters: &[Fighter]| {
        let field = Field::new(&map, fighters, FightRules { flanking: false, ..RULES });
        let (k, a) = (field.fighter("kobold").unwrap(), field.fighter("ann").unwrap());
        adjudicate(&field, k, a, pick_attack(k, Some("Sword")).unwrap()).sources
    };
    let with_rat = rule(&fighters);
    assert!(has(&with_rat.advantages, "Pack Tactics: rat is within 5 ft of ann"), "{with_rat:?}");
    // The rat incapacitated: no advantage.
    fighters[2].conditions.set(Condition::Incapacitated, true);
    assert!(!has(&rule(&fighters).advantages, "Pack Tactics"));
    // The rat able but 10 ft from Ann: none either.
    fighters[2].conditions.set(Condition::Incapacitated, false);
    fighters[2].anchor = Cell::new(5, 4);
    fighters[2].cells = vec![fighters[2].anchor];
    assert!(!has(&rule(&fighters).advantages, "Pack Tactics"));
    // Without the trait, an ally beside the target gives nothing.
    fighters[2].anchor = Cell::new(4, 5);
    fighters[2].cells = vec![fighters[2].anchor];
    fighters[0].sheet.traits.clear();
    assert!(rule(&fighters).advantages.is_empty());
}
