//! The siege query: a siege weapon's state, who can work it, what it can hit once aimed, a ram's
//! crew, a cauldron's square, and who could push it, answered by `rules::siege` from the scenario
//! as written (documented in `docs/cli.md`).

use serde::Serialize;

use super::{Board, QueryError};
use crate::rules::Cell;
use crate::rules::creature::Attack;
use crate::rules::fight::Fighter;
use crate::rules::fight::adjudicate::{adjudicate, pick_attack};
use crate::rules::fight::saves::{InArea, SaveEffect};
use crate::rules::health::Defenses;
use crate::rules::siege::{
    CREW_REACH, Crew, Crewing, Push, Readiness, SiegeError, SiegeKind, Step, in_pour, may_crew, push, ram_crew,
};

#[derive(Serialize)]
pub(super) struct SiegeAnswer {
    id: String,
    name: String,
    kind: SiegeKind,
    ac: i32,
    hp: i32,
    max_hp: i32,
    defenses: Defenses,
    /// `unloaded`, `loading (1 of 2 actions)`, `loaded`, `aimed`, `empty`, `full`, `ready`...
    state: String,
    /// The actions each step takes: `load 2, aim 2, fire 1`.
    sequence: String,
    /// The step it needs next (`load`, `aim`, `fire`), in its own word (`fill`, `tip`, `ram`).
    #[serde(skip_serializing_if = "Option::is_none")]
    next_step: Option<&'static str>,
    /// It fires (tips, rams) with one more action.
    can_fire_now: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    attack: Option<Attack>,
    /// The creatures within 5 ft and whether each could spend its action on the next step.
    crew: Vec<CrewMember>,
    /// A ram's operators against the four Medium creatures it needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    ram_crew: Option<Crew>,
    /// Who could push it, and how far with a fresh turn's movement.
    push: Push,
    /// Every other token with the ruling on a shot at it once the weapon is aimed (a ram's
    /// strike; nothing for a cauldron or a tower).
    targets: Vec<TargetAnswer>,
    /// A cauldron's square and the creatures under it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pour: Option<PourAnswer>,
}

#[derive(Serialize)]
struct CrewMember {
    id: String,
    can_work: bool,
    /// The refusal in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    why_not: Option<String>,
}

#[derive(Serialize)]
struct TargetAnswer {
    id: String,
    allowed: bool,
    summary: String,
}

#[derive(Serialize)]
struct PourAnswer {
    cells: Vec<Cell>,
    effect: SaveEffect,
    creatures: Vec<InArea>,
}

pub(super) fn siege(board: &Board, id: &str) -> Result<SiegeAnswer, QueryError> {
    let weapon = board.fighter(id)?;
    let id = weapon.id.clone();
    let Some(siege) = weapon.siege else { return Err(QueryError::NotSiege { id }) };
    let kind = siege.kind;
    let field = board.field();
    let next = siege.crewing.next_step(kind);
    let crew = field
        .fighters
        .iter()
        .filter(|f| !f.is_object && f.id != id && field.feet_between(f, weapon) <= CREW_REACH)
        .map(|f| {
            let why_not = may_crew(&field, f, weapon).err().as_ref().map(SiegeError::to_string);
            CrewMember { id: f.id.clone(), can_work: why_not.is_none(), why_not }
        })
        .collect();
    let pour = match in_pour(&field, weapon) {
        Ok((cells, creatures)) => kind.pour().map(|effect| PourAnswer { cells, effect, creatures }),
        Err(_) => None,
    };
    let mut answer = SiegeAnswer {
        id: id.clone(),
        name: weapon.name().to_owned(),
        kind,
        ac: weapon.sheet.ac,
        hp: weapon.health.hp,
        max_hp: weapon.health.max_hp,
        defenses: weapon.defenses.clone(),
        state: siege.crewing.state(kind),
        sequence: kind.sequence(),
        next_step: next.map(|step| kind.verb(step)),
        can_fire_now: next == Some(Step::Fire),
        attack: weapon.sheet.attacks.first().cloned(),
        crew,
        ram_crew: (kind == SiegeKind::Ram).then(|| ram_crew(&field, weapon)),
        push: push(&field, weapon, kind, Fighter::speed_now),
        targets: Vec::new(),
        pour,
    };
    // The rulings once aimed: the same board with this weapon readied.
    let mut aimed: Vec<Fighter> = board.fighters.clone();
    let Some(index) = aimed.iter().position(|f| f.id == id) else { return Ok(answer) };
    if let Some(readied) = aimed[index].siege.as_mut() {
        readied.crewing = Crewing::ready(kind, Readiness::Aimed);
    }
    let field = board.scenario.field(&aimed);
    let weapon = &aimed[index];
    if let Ok(attack) = pick_attack(weapon, None) {
        answer.targets = aimed
            .iter()
            .filter(|f| f.id != id)
            .map(|target| {
                let ruling = adjudicate(&field, weapon, target, attack);
                TargetAnswer { id: target.id.clone(), allowed: ruling.allowed(), summary: ruling.summary() }
            })
            .collect();
    }
    Ok(answer)
}
