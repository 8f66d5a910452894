//! The actions with a ruling on the board: Help, Hide and Search.
//!
//! PHB "Help", "Hide" (004_ebe0798b5689cc3b.txt) and chapter 7's hiding rules as the PHB sums them
//! up there ("Unseen Attackers and Targets"); the calls are in `docs/rules.md`, "Turns and
//! reactions".

use serde::Serialize;

use super::{Field, Fighter};
use crate::rules::Grid;
use crate::rules::advantage::Sources;
use crate::rules::conditions::Conditions;
use crate::rules::creature::Direction;
use crate::rules::economy::{Economy, EconomyError};
use crate::rules::facing::turned;
use crate::rules::modifiers::D20;

/// The Help action's reach: the target must be within 5 ft of the helper.
pub const HELP_FEET: u32 = 5;

/// Why a creature can't take the Help action for an ally against a target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum CantHelp {
    #[error("{helper} can't act")]
    CannotAct { helper: String },
    #[error("{ally} is not an ally of {helper}")]
    NotAnAlly { ally: String, helper: String },
    #[error("{target} is not an enemy of {ally}")]
    NotAnEnemy { target: String, ally: String },
    #[error("{target} is {feet} ft from {helper}: Help needs it within 5 ft")]
    TooFar { target: String, helper: String, feet: u32 },
}

/// Why `helper` can't help `ally` attack `target`, or `None` if it can (PHB "Help": "you can aid
/// a friendly creature in attacking a creature within 5 feet of you").
pub fn cannot_help_because(field: &Field, helper: &Fighter, ally: &Fighter, target: &Fighter) -> Option<CantHelp> {
    let name = |f: &Fighter| f.name().to_owned();
    if !helper.can_act() {
        return Some(CantHelp::CannotAct { helper: name(helper) });
    }
    if ally.id == helper.id || ally.is_object || helper.side.is_hostile_to(ally.side) {
        return Some(CantHelp::NotAnAlly { ally: name(ally), helper: name(helper) });
    }
    if target.id == ally.id || !ally.side.is_hostile_to(target.side) {
        return Some(CantHelp::NotAnEnemy { target: name(target), ally: name(ally) });
    }
    let feet = field.feet_between(helper, target);
    (feet > HELP_FEET).then(|| CantHelp::TooFar { target: name(target), helper: name(helper), feet })
}

/// The creatures `helper` could help against now: its enemies within 5 ft by the one distance
/// (the card offers them).
pub fn help_targets<'a>(field: &'a Field, helper: &'a Fighter) -> impl Iterator<Item = &'a Fighter> + 'a {
    field.fighters.iter().filter(move |f| {
        !f.is_object && f.side.is_hostile_to(helper.side) && field.feet_between(helper, f) <= HELP_FEET
    })
}

/// What turning to face another way costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnCost {
    /// In its own turn: nothing.
    Free,
    /// Out of its turn: its reaction.
    Reaction,
}

/// Why a creature can't turn to face another way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum CantTurn {
    /// Out of its turn, nobody else has moved yet.
    #[error("out of its turn it turns only as a reaction when another creature moves")]
    NobodyMoved,
    #[error("{0}")]
    NoReaction(EconomyError),
}

/// A creature turns to the next facing clockwise or counterclockwise (DMG "Optional Rule:
/// Facing": "Whenever a creature ends its move, it can change its facing", and "A creature can
/// also change its facing as a reaction when any other creature moves"): free in its own turn
/// (`in_its_turn`; call: at any point of it, since it may end a move anywhere); out of it, only
/// after another creature has moved (`another_moved`), spending its reaction from `economy`,
/// which an incapacitated creature (by its `conditions`) doesn't have (PHB appendix A,
/// "Incapacitated"). Returns the new facing and what it cost.
pub fn turn_to_face(
    grid: Grid,
    facing: Direction,
    clockwise: bool,
    in_its_turn: bool,
    another_moved: bool,
    economy: &mut Economy,
    conditions: &Conditions,
) -> Result<(Direction, TurnCost), CantTurn> {
    let cost = if in_its_turn {
        TurnCost::Free
    } else {
        if !another_moved {
            return Err(CantTurn::NobodyMoved);
        }
        economy.react(conditions).map_err(CantTurn::NoReaction)?;
        TurnCost::Reaction
    };
    Ok((turned(grid, facing, clockwise), cost))
}

/// How a Hide attempt went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum HideOutcome {
    /// Hidden: the Stealth total meets every enemy's passive Perception.
    Hidden { stealth: i32, against: i32 },
    /// Seen: the total falls short of `against`, the passive Perception of `noticed_by`.
    Noticed { stealth: i32, against: i32, noticed_by: String },
}

/// The enemies that see `hider` clearly now: it can't hide from them (PHB "Unseen Attackers and
/// Targets": you can't hide from a creature that can see you).
pub fn seen_by<'a>(field: &'a Field, hider: &Fighter) -> Vec<&'a Fighter> {
    enemies_of(field, hider).filter(|e| field.sees(e, hider)).collect()
}

fn enemies_of<'a>(field: &'a Field, me: &Fighter) -> impl Iterator<Item = &'a Fighter> {
    let side = me.side;
    field.fighters.iter().filter(move |f| f.can_act() && f.side.is_hostile_to(side))
}

/// Hiding with a Dexterity (Stealth) total of `stealth` (rolled with [`Fighter::check_sources`]):
/// hidden when it meets the passive Wisdom (Perception) of every enemy able to notice it (a
/// passive score works as a DC; [`Field::passive_perception_against`], 5 lower for a poisoned or
/// exhausted enemy, or one that sees the hider in dim light: SRD "Vision and Light"). An enemy
/// that sees the hider in darkness doesn't see it at all, so it may hide ([`seen_by`]).
pub fn hide(field: &Field, hider: &Fighter, stealth: i32) -> HideOutcome {
    let passive = |e: &Fighter| field.passive_perception_against(e, hider);
    let sharpest = enemies_of(field, hider).max_by_key(|e| passive(e));
    match sharpest {
        Some(e) if stealth < passive(e) => {
            HideOutcome::Noticed { stealth, against: passive(e), noticed_by: e.name().to_owned() }
        }
        _ => HideOutcome::Hidden { stealth, against: sharpest.map_or(0, passive) },
    }
}

/// One Wisdom (Perception) check of the Search action, and the hidden enemies it is rolled
/// against: all those the searcher looks for with the same advantage or disadvantage.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchCheck<'a> {
    /// What the check has: the searcher's own sources ([`Fighter::check_sources`]) and, against
    /// enemies in dim light as it sees them, disadvantage ([`Field::perception_sources`]).
    pub sources: Sources,
    pub against: Vec<&'a Fighter>,
}

impl<'a> SearchCheck<'a> {
    /// The enemies a Perception total of `perception` finds: those whose Stealth total it beats
    /// (a contest: PHB "Contests", a tie leaves things as they were, so a hidden creature stays
    /// hidden).
    pub fn found(&self, perception: i32) -> Vec<&'a Fighter> {
        self.against.iter().copied().filter(|f| f.hidden.is_some_and(|stealth| perception > stealth)).collect()
    }
}

/// The Search action (PHB "Search"): a Wisdom (Perception) check that relies on sight against
/// each hidden enemy of `searcher`. The check is rolled once for each way it is rolled: an enemy
/// the searcher sees in dim light is looked for with disadvantage (SRD 5.1 "Vision and Light":
/// "disadvantage on Wisdom (Perception) checks that rely on sight"), one in bright light without
/// it. With no one hidden, one check with the searcher's own sources, against no one.
pub fn search<'a>(field: &'a Field, searcher: &Fighter) -> Vec<SearchCheck<'a>> {
    let mut checks: Vec<SearchCheck> = Vec::new();
    let hidden = field.fighters.iter().filter(|f| f.side.is_hostile_to(searcher.side) && f.hidden.is_some());
    for enemy in hidden {
        let sources = field.perception_sources(searcher, enemy);
        match checks.iter_mut().find(|c| c.sources.mode() == sources.mode()) {
            Some(check) => check.against.push(enemy),
            None => checks.push(SearchCheck { sources, against: vec![enemy] }),
        }
    }
    if checks.is_empty() {
        checks.push(SearchCheck { sources: searcher.check_sources(D20::PERCEPTION), against: Vec::new() });
    }
    checks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::creature::Side;
    use crate::rules::fight::FightRules;
    use crate::rules::fight::tests::{fighter, map};
    use crate::rules::{Cell, Grid, TerrainMap};

    fn open_map() -> TerrainMap {
        map(Grid::Square, &["............"; 12])
    }

    #[test]
    fn help_needs_an_ally_and_an_enemy_within_5_ft_of_the_helper() {
        let map = open_map();
        let fighters = vec![
            fighter("brom", Side::Party, (2, 2)),
            fighter("lia", Side::Party, (6, 2)),
            fighter("thug", Side::Enemy, (3, 2)),
            fighter("far", Side::Enemy, (9, 9)),
        ];
        let field = Field::new(&map, &fighters, Default::default());
        let f = |id: &str| field.fighter(id).expect("there");
        assert_eq!(cannot_help_because(&field, f("brom"), f("lia"), f("thug")), None);
        assert!(matches!(cannot_help_because(&field, f("brom"), f("lia"), f("far")), Some(CantHelp::TooFar { .. })));
        assert!(matches!(
            cannot_help_because(&field, f("brom"), f("thug"), f("lia")),
            Some(CantHelp::NotAnAlly { .. })
        ));
    }

    #[test]
    /// SRD "Vision and Light": in darkness (heavily obscured) a creature can hide from a watcher
    /// without darkvision, and in dim light (lightly obscured) the watcher's passive Perception is
    /// 5 lower (disadvantage on Perception that relies on sight); darkvision sees darkness as dim.
    fn darkness_lets_a_creature_hide_and_dim_light_lowers_passive_perception() {
        use crate::rules::light::{LightLevel, LightSource};
        let map = open_map();
        let mut fighters = vec![fighter("lia", Side::Party, (8, 2)), fighter("thug", Side::Enemy, (2, 2))];
        fighters[1].sheet.light = Some(LightSource { bright: 10, dim: 20, sunlight: false });
        let lit = |fighters: &[Fighter], lia: (i32, i32)| {
            let mut fighters = fighters.to_vec();
            fighters[0].anchor = Cell::new(lia.0, lia.1);
            fighters[0].cells = vec![fighters[0].anchor];
            fighters
        };
        let rules = FightRules { facing: false, ..Default::default() };
        // 40 ft from the thug's torch: dark, and the thug has no darkvision.
        let far = lit(&fighters, (10, 2));
        let field = Field::new(&map, &far, rules).in_light(LightLevel::Dark, &[]);
        assert!(seen_by(&field, &far[0]).is_empty(), "in darkness, unseen: it may hide");
        // 20 ft away: in the torch's dim light.
        let dim = lit(&fighters, (6, 2));
        let field = Field::new(&map, &dim, rules).in_light(LightLevel::Dark, &[]);
        let thug = &dim[1];
        let plain = thug.passive_perception();
        assert_eq!(field.passive_perception_against(thug, &dim[0]), plain - 5);
        assert_eq!(hide(&field, &dim[0], plain - 5), HideOutcome::Hidden { stealth: plain - 5, against: plain - 5 });
        // 5 ft away: bright light, the passive score as it is.
        let near = lit(&fighters, (3, 2));
        let field = Field::new(&map, &near, rules).in_light(LightLevel::Dark, &[]);
        assert_eq!(field.passive_perception_against(&near[1], &near[0]), plain);
        // With darkvision 60 ft the thug sees the dark 40 ft away as dim light.
        let mut far = far;
        far[1].sheet.darkvision = 60;
        let field = Field::new(&map, &far, rules).in_light(LightLevel::Dark, &[]);
        assert_eq!(seen_by(&field, &far[0]).len(), 1);
        assert_eq!(field.passive_perception_against(&far[1], &far[0]), plain - 5);
    }

    #[test]
    fn hiding_needs_to_be_unseen_and_beat_the_sharpest_passive_perception() {
        let map = open_map();
        let mut fighters = vec![fighter("lia", Side::Party, (2, 2)), fighter("thug", Side::Enemy, (6, 2))];
        fighters[1].sheet.skills.insert(crate::rules::creature::Skill::Perception, 3);
        let field = Field::new(&map, &fighters, Default::default());
        let (lia, thug) = (&fighters[0], &fighters[1]);
        assert_eq!(seen_by(&field, lia).len(), 1, "in the open, the thug sees her");
        assert_eq!(hide(&field, lia, 13), HideOutcome::Hidden { stealth: 13, against: 13 });
        assert!(matches!(hide(&field, lia, 12), HideOutcome::Noticed { against: 13, .. }));
        let mut hidden = fighters.clone();
        hidden[0].hidden = Some(13);
        let field = Field::new(&map, &hidden, Default::default());
        assert!(!field.sees(&hidden[1], &hidden[0]), "a hidden creature is unseen by its enemies");
        assert!(field.sees(&hidden[0], &hidden[1]));
        let checks = search(&field, thug);
        assert_eq!(checks.len(), 1);
        assert!(checks[0].found(13).is_empty(), "a tie leaves it hidden");
        assert_eq!(checks[0].found(14).len(), 1);
    }

    /// DMG "Optional Rule: Facing": a creature "can change its facing at the end of its move"
    /// and, as a reaction, when another creature moves; the next facing clockwise or
    /// counterclockwise on its grid (four on squares, six on hexes).
    #[test]
    fn turning_is_free_in_its_turn_and_a_reaction_out_of_it() {
        let mut economy = Economy::default();
        let turn = |economy: &mut Economy, in_turn, moved| {
            turn_to_face(Grid::Square, Direction::North, true, in_turn, moved, economy, &Conditions::NONE)
        };
        assert_eq!(turn(&mut economy, true, false), Ok((Direction::East, TurnCost::Free)));
        assert_eq!(turn(&mut economy, false, false), Err(CantTurn::NobodyMoved));
        assert!(!economy.reaction_used, "a refused turn spends nothing");
        assert_eq!(turn(&mut economy, false, true), Ok((Direction::East, TurnCost::Reaction)));
        assert!(economy.reaction_used);
        assert_eq!(turn(&mut economy, false, true), Err(CantTurn::NoReaction(EconomyError::ReactionSpent)));
        let hex = Grid::Hex(crate::rules::HexOrientation::PointyTop);
        let back = turn_to_face(hex, Direction::NorthEast, false, true, false, &mut economy, &Conditions::NONE);
        assert_eq!(back, Ok((Direction::NorthWest, TurnCost::Free)), "counterclockwise on pointy hexes");
    }

    /// PHB appendix A, "Incapacitated": no reactions, so no turning to face as one (DMG "Optional
    /// Rule: Facing"); a refused turn spends nothing.
    #[test]
    fn an_incapacitated_creature_doesnt_turn_as_a_reaction() {
        use crate::rules::conditions::Condition;
        let mut economy = Economy::default();
        let stunned = Conditions::new([Condition::Stunned]);
        let turned = turn_to_face(Grid::Square, Direction::North, true, false, true, &mut economy, &stunned);
        let refused = CantTurn::NoReaction(EconomyError::Incapacitated { condition: Condition::Stunned });
        assert_eq!(turned, Err(refused));
        assert!(!economy.reaction_used);
    }

    /// PHB appendix A, "Poisoned" and "Exhaustion": disadvantage on ability checks, so on Hide's
    /// Stealth and Search's Perception; a passive score with disadvantage is 5 lower (PHB
    /// "Passive Checks"), so a poisoned watcher is easier to hide from.
    #[test]
    fn poison_and_exhaustion_hamper_hide_and_search() {
        use crate::rules::conditions::Condition;
        use crate::rules::dice::RollMode;
        let map = open_map();
        let mut fighters = vec![fighter("lia", Side::Party, (2, 2)), fighter("thug", Side::Enemy, (6, 2))];
        fighters[1].sheet.skills.insert(crate::rules::creature::Skill::Perception, 3);
        fighters[1].conditions.set(Condition::Poisoned, true);
        fighters[0].sheet.exhaustion = 1;
        let field = Field::new(&map, &fighters, Default::default());
        let (lia, thug) = (&fighters[0], &fighters[1]);
        assert_eq!(lia.check_sources(D20::STEALTH).mode(), RollMode::Disadvantage, "her Stealth");
        assert_eq!(thug.check_sources(D20::PERCEPTION).mode(), RollMode::Disadvantage, "its Perception");
        assert_eq!(thug.passive_perception(), 8, "13, less 5 for disadvantage");
        assert_eq!(hide(&field, lia, 8), HideOutcome::Hidden { stealth: 8, against: 8 });
    }

    /// SRD 5.1 "Vision and Light": dim light "creates a lightly obscured area", where "creatures
    /// have disadvantage on Wisdom (Perception) checks that rely on sight". Searching for one
    /// hider in the thug's torchlight and one in its dim edge, the thug rolls twice: normally
    /// against the first, with disadvantage against the second.
    #[test]
    fn searching_in_dim_light_has_disadvantage() {
        use crate::rules::dice::RollMode;
        use crate::rules::light::{LightLevel, LightSource};
        let map = open_map();
        let mut fighters = vec![
            fighter("thug", Side::Enemy, (2, 2)),
            fighter("lia", Side::Party, (3, 2)),
            fighter("pip", Side::Party, (7, 2)),
        ];
        fighters[0].sheet.light = Some(LightSource { bright: 10, dim: 20, sunlight: false });
        fighters[1].hidden = Some(12);
        fighters[2].hidden = Some(12);
        let rules = FightRules { facing: false, ..Default::default() };
        let field = Field::new(&map, &fighters, rules).in_light(LightLevel::Dark, &[]);
        let checks = search(&field, &fighters[0]);
        let modes: Vec<(RollMode, Vec<&str>)> =
            checks.iter().map(|c| (c.sources.mode(), c.against.iter().map(|f| f.id.as_str()).collect())).collect();
        assert_eq!(modes, vec![(RollMode::Normal, vec!["lia"]), (RollMode::Disadvantage, vec!["pip"])]);
        assert_eq!(checks[1].sources.describe(), "disadvantage: pip is in dim light as thug sees it");
        let day = Field::new(&map, &fighters, rules);
        assert_eq!(search(&day, &fighters[0]).len(), 1, "in daylight one check");
    }
}
