//! Golden stat blocks and spells against the SRD 5.1's own numbers, and the assets whole.

use super::*;
use crate::rules::ability::Skill;
use crate::rules::conditions::Condition;
use crate::rules::creature::AttackKind;
use crate::rules::size::Size;

fn monster(index: &str) -> &'static Monster {
    bestiary().expect("the bestiary reads").monster(index).unwrap_or_else(|| panic!("{index}"))
}

fn spell(index: &str) -> &'static Spell {
    spellbook().expect("the spells read").spell(index).unwrap_or_else(|| panic!("{index}"))
}

fn attack<'a>(m: &'a Monster, name: &str) -> &'a schema::Attack {
    m.attacks.iter().find(|a| a.name == name).unwrap_or_else(|| panic!("{} has no {name}", m.name))
}

/// SRD 5.1 "Goblin": Small humanoid (goblinoid), AC 15 (leather armor, shield), 7 (2d6) hit
/// points, speed 30 ft., Stealth +6, darkvision 60 ft., passive Perception 9, CR 1/4 (50 XP);
/// Nimble Escape; Scimitar +4, reach 5 ft., 1d6 + 2 slashing; Shortbow +4, range 80/320 ft.,
/// 1d6 + 2 piercing.
#[test]
fn the_goblin_is_the_srds() {
    let goblin = monster("goblin");
    assert_eq!((goblin.size, goblin.ac, goblin.hp, goblin.hit_dice.as_str()), (Size::Small, 15, 7, "2d6"));
    assert_eq!(goblin.ac_from, "leather armor, shield");
    assert_eq!((goblin.speed.walk, goblin.senses.darkvision, goblin.senses.passive_perception), (30, 60, 9));
    assert_eq!(goblin.skills.get(&Skill::Stealth), Some(&6));
    assert_eq!((goblin.cr.as_str(), goblin.xp), ("1/4", 50));
    let scimitar = attack(goblin, "Scimitar");
    assert_eq!((scimitar.kind, scimitar.bonus, scimitar.range), (AttackKind::Melee, 4, 5));
    assert_eq!((scimitar.damage.as_str(), scimitar.damage_type.as_str()), ("1d6+2", "slashing"));
    let shortbow = attack(goblin, "Shortbow");
    assert_eq!(
        (shortbow.kind, shortbow.bonus, shortbow.range, shortbow.long_range),
        (AttackKind::Ranged, 4, 80, Some(320))
    );
    assert_eq!((shortbow.damage.as_str(), shortbow.damage_type.as_str()), ("1d6+2", "piercing"));
    assert!(goblin.has_trait("Nimble Escape"));
    assert_eq!(goblin.bonus_actions(), [Action::Disengage, Action::Hide]);
    assert_eq!(goblin.abilities().dex, 2);
}

/// SRD 5.1 "Ogre" (and DMG "Tracking Monster Hit Points": three ogres of 59 hit points): Large,
/// AC 11 (hide armor), 59 (7d10 + 21) hit points, Greatclub +6, reach 5 ft., 2d8 + 4 bludgeoning;
/// Javelin +6, reach 5 ft. or range 30/120 ft.
#[test]
fn the_ogre_is_the_srds() {
    let ogre = monster("Ogre");
    assert_eq!((ogre.size, ogre.ac, ogre.hp, ogre.hit_dice.as_str()), (Size::Large, 11, 59, "7d10+21"));
    let club = attack(ogre, "Greatclub");
    assert_eq!(
        (club.bonus, club.range, club.damage.as_str(), club.damage_type.as_str()),
        (6, 5, "2d8+4", "bludgeoning")
    );
    let thrown = attack(ogre, "Javelin (thrown)");
    assert_eq!((thrown.kind, thrown.range, thrown.long_range), (AttackKind::Ranged, 30, Some(120)));
    assert_eq!((ogre.cr.as_str(), ogre.xp), ("2", 450));
}

/// SRD 5.1 "Adult Red Dragon": Huge, fly 80 ft.; Multiattack (Frightful Presence, then a bite and
/// two claws); Bite +14, reach 10 ft., 2d10 + 8 piercing plus 2d6 fire; Fire Breath (Recharge
/// 5–6): 60-foot cone, DC 21 Dexterity, 63 (18d6) fire damage, half as much on a success.
#[test]
fn the_adult_red_dragon_is_the_srds() {
    let dragon = monster("adult red dragon");
    assert_eq!((dragon.size, dragon.speed.fly, dragon.speed.walk), (Size::Huge, 80, 40));
    let multi = dragon.multiattack.as_ref().expect("Multiattack");
    assert_eq!(multi.attacks, [("Bite".to_owned(), 1), ("Claw".to_owned(), 2)]);
    assert_eq!(dragon.attacks_per_action(), 3);
    let bite = attack(dragon, "Bite");
    assert_eq!((bite.bonus, bite.range, bite.damage.as_str()), (14, 10, "2d10+8"));
    assert_eq!(bite.extra, [schema::Damage { dice: "2d6".into(), damage_type: "fire".into() }]);
    let breath = dragon.save_actions.iter().find(|s| s.name.starts_with("Fire Breath")).expect("Fire Breath");
    assert_eq!(
        (breath.dc, breath.ability, breath.half, breath.recharge),
        (21, crate::rules::ability::Ability::Dex, true, Some(5))
    );
    assert_eq!(breath.damage, [schema::Damage { dice: "18d6".into(), damage_type: "fire".into() }]);
    assert_eq!(breath.area, Some(Area { shape: AreaShape::Cone, size: 60, width: 0 }));
    assert_eq!(dragon.legendary_per_round, 3);
    assert!(dragon.immunities.contains(&"fire".to_owned()));
}

/// SRD 5.1 "Fireball": 3rd-level evocation, range 150 feet, a 20-foot-radius sphere, Dexterity
/// save, 8d6 fire, half on a success, 1d6 more per slot above 3rd. "Lightning Bolt": a line 100
/// feet long and 5 feet wide. "Hold Person": Wisdom save or paralyzed, repeated at the end of each
/// of its turns, concentration.
#[test]
fn fireball_lightning_bolt_and_hold_person_are_the_srds() {
    let fireball = spell("fireball");
    assert_eq!(
        (fireball.level, fireball.range_feet, fireball.save, fireball.half),
        (3, Some(150), Some(crate::rules::ability::Ability::Dex), true)
    );
    assert_eq!(fireball.area, Some(Area { shape: AreaShape::Sphere, size: 20, width: 0 }));
    assert_eq!(fireball.damage_type.as_deref(), Some("fire"));
    assert_eq!(fireball.damage_by_slot.get(&3).map(String::as_str), Some("8d6"));
    assert_eq!(fireball.damage_by_slot.get(&4).map(String::as_str), Some("9d6"));
    let bolt = spell("Lightning Bolt");
    assert_eq!(bolt.area, Some(Area { shape: AreaShape::Line, size: 100, width: 5 }));
    let hold = spell("hold-person");
    assert_eq!(
        (hold.save, hold.conditions.as_slice()),
        (Some(crate::rules::ability::Ability::Wis), &[Condition::Paralyzed][..])
    );
    assert!(hold.repeat_save && hold.concentration);
}

/// The assets hold the SRD's 334 monsters and 319 spells, sorted (lookups search them in
/// halves), each monster with numbers the rules can take.
#[test]
fn every_monster_and_spell_is_read() {
    let bestiary = bestiary().expect("the bestiary reads");
    let spells = spellbook().expect("the spells read");
    assert_eq!((bestiary.monsters.len(), spells.spells.len()), (334, 319));
    assert!(bestiary.monsters.windows(2).all(|w| w[0].index < w[1].index));
    assert!(spells.spells.windows(2).all(|w| w[0].index < w[1].index));
    for m in &bestiary.monsters {
        assert!(m.ac > 0 && m.hp > 0, "{}", m.index);
        assert!(m.challenge() >= 0.0 && m.challenge() <= 30.0, "{}", m.index);
        for a in &m.attacks {
            crate::rules::dice::Notation::parse(&a.damage).unwrap_or_else(|e| panic!("{} {}: {e:?}", m.index, a.name));
            assert!(DamageType::parse(&a.damage_type).is_some(), "{} {}", m.index, a.name);
        }
    }
    assert!(bestiary.source.contains("CC-BY-4.0"), "{}", bestiary.source);
}

/// A name not in the bestiary gets the nearest names; a search finds by name, type and CR.
#[test]
fn a_misspelt_monster_gets_the_nearest_names_and_search_finds_by_words() {
    let bestiary = bestiary().expect("reads");
    assert_eq!(bestiary.nearest("orge").first(), Some(&"ogre"));
    assert!(bestiary.nearest("zzzzzzzz").is_empty());
    // A name longer than any could be is not compared with every name (a damaged file's).
    assert!(bestiary.nearest(&"ogre".repeat(250_000)).is_empty());
    let red: Vec<&str> = bestiary.search("red dragon").map(|m| m.index.as_str()).collect();
    assert!(red.contains(&"adult-red-dragon") && red.contains(&"red-dragon-wyrmling"), "{red:?}");
    let quarter: Vec<&str> = bestiary.search("goblinoid 1/4").map(|m| m.index.as_str()).collect();
    assert_eq!(quarter, ["goblin"]);
}

/// A damaged asset is an error in words at its line and column, not a panic.
#[test]
fn a_damaged_asset_is_an_error_in_words() {
    let error = parse::<Bestiary>("Bestiary(source: \"x\", monsters: [(index: 3)])", "monsters.ron").unwrap_err();
    assert!(error.starts_with("monsters.ron:1:"), "{error}");
    assert!(error.contains("run scripts/srd.py again"), "{error}");
}
