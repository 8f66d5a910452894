//! Creatures that name an SRD 5.1 stat block (`monster: "ogre"`): the token the stat block makes,
//! which the scenario's own fields then override (`validate`), and back (`write`: only what
//! differs from the stat block is written).

use crate::rules::Cell;
use crate::rules::creature::Trait;
use crate::rules::economy::TurnOptions;
use crate::rules::health::Defenses;
use crate::srd::Monster;

use super::Token;

/// The creature `monster`'s stat block makes, with this id at this place: an enemy with its
/// name, size, AC, average hit points, walking speed (or its fastest, if it doesn't walk),
/// modifiers, proficient saves and skills, attacks (Multiattack as attacks per action), damage
/// defences, darkvision, and the traits the rules apply (Nimble Escape and Cunning Action as bonus
/// actions, Sunlight Sensitivity).
pub fn token(monster: &Monster, id: &str, anchor: Cell) -> Token {
    let speed = &monster.speed;
    let mut token = Token::new_creature(id, &monster.name, anchor);
    token.monster = Some(monster.index.clone());
    token.size = monster.size;
    token.speed =
        if speed.walk > 0 { speed.walk } else { speed.fly.max(speed.swim).max(speed.climb).max(speed.burrow) };
    token.ac = monster.ac;
    (token.hp, token.max_hp) = (monster.hp, monster.hp);
    token.abilities = monster.abilities();
    token.saves = monster.saves.clone();
    token.skills = monster.skills.clone();
    token.attacks = monster.rule_attacks();
    token.defenses = Defenses {
        resistances: Monster::damage_types(&monster.resistances),
        vulnerabilities: Monster::damage_types(&monster.vulnerabilities),
        immunities: Monster::damage_types(&monster.immunities),
        threshold: None,
    };
    token.turn =
        TurnOptions { attacks_per_action: monster.attacks_per_action(), bonus_actions: monster.bonus_actions() };
    token.darkvision = monster.senses.darkvision;
    token.xp = Some(monster.xp);
    token.condition_immunities = monster.condition_immunities.iter().copied().collect();
    token.traits = Trait::ALL.into_iter().filter(|t| monster.has_trait(t.name())).collect();
    token
}

/// The stat block `name` names, or why not: the bestiary's asset is damaged, or there is no such
/// monster (with the nearest names).
pub fn find(name: &str) -> Result<&'static Monster, String> {
    let bestiary = crate::srd::bestiary().map_err(str::to_owned)?;
    bestiary.monster(name).ok_or_else(|| {
        let nearest = bestiary.nearest(name);
        let names: Vec<String> = nearest.iter().map(|n| format!("`{n}`")).collect();
        // A long name from a damaged file is cut, as every name a message quotes.
        let name = if name.chars().count() <= 40 { format!("`{name}`") } else { super::limits::quoted(name) };
        match names.as_slice() {
            [] => format!("no monster {name} in the SRD bestiary"),
            [one] => format!("no monster {name} in the SRD bestiary; did you mean {one}?"),
            [rest @ .., last] => {
                format!("no monster {name} in the SRD bestiary; did you mean {} or {last}?", rest.join(", "))
            }
        }
    })
}
