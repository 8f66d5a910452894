//! Opportunity attacks along a path: where a move leaves a hostile creature's reach, and who may
//! strike there.
//!
//! PHB "Opportunity Attacks" (a hostile creature that you can see, leaving its reach, its
//! reaction, one melee attack; Disengage; moving without using your movement), "Disengage"
//! (004_ebe0798b5689cc3b.txt); DMG "Adjudicating Reaction Timing": the opportunity attack
//! interrupts its trigger (002_ce573f1e51986339.txt).

use serde::{Deserialize, Serialize};

use super::{Field, Fighter};
use crate::rules::Cell;
use crate::rules::creature::{Attack, AttackKind};
use crate::rules::distance::{Spot, range_between};

/// How the creature is moving.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Moving {
    /// With its own movement: it provokes.
    #[default]
    Walking,
    /// After the Disengage action: it provokes nothing for the rest of the turn.
    Disengaged,
    /// Moved by something else (shoved, teleported, pushed by the DM): it provokes nothing.
    Forced,
}

/// One opportunity attack a move provokes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provocation {
    /// The index in the path's anchors of the cell the mover is leaving: the attack resolves
    /// there, before it leaves.
    pub step: usize,
    /// The mover's anchor there.
    pub at: Cell,
    /// The anchor it would step to, out of reach.
    pub leaving_to: Cell,
    pub reactor: String,
    pub reactor_name: String,
    /// The reactor's longest melee reach, and the attack that has it.
    pub reach: u32,
    pub attack: String,
}

/// The melee weapon attack with the longest reach (the first listed among equals): the reach that
/// matters for opportunity attacks, and the attack it makes. A creature without one provokes
/// nothing here (the app doesn't improvise unarmed strikes).
pub fn longest_reach(fighter: &Fighter) -> Option<&Attack> {
    fighter
        .sheet
        .attacks
        .iter()
        .filter(|a| a.kind() == AttackKind::Melee)
        .fold(None, |best: Option<&Attack>, a| if best.is_some_and(|b| b.range >= a.range) { best } else { Some(a) })
}

/// Every opportunity attack the mover `mover` provokes walking through `anchors` (its anchor at
/// each step, the start first), in the order they happen: one per reactor at most (its one
/// reaction), from hostile creatures that can act, have a melee attack and their reaction
/// (`has_reaction`), and see the mover when it leaves their reach. `skip` names reactors already
/// offered the attack at the first cell (the move goes on after they let it go).
pub fn provocations(
    field: &Field,
    mover: &str,
    anchors: &[Cell],
    moving: Moving,
    has_reaction: impl Fn(&str) -> bool,
    skip: &[String],
) -> Vec<Provocation> {
    let Some(me) = field.fighter(mover) else { return Vec::new() };
    let (Some(&start), Moving::Walking) = (anchors.first(), moving) else { return Vec::new() };
    let reactors: Vec<(&Fighter, &Attack)> = field
        .fighters
        .iter()
        .filter(|f| f.id != me.id && f.side.is_hostile_to(me.side) && f.can_act() && has_reaction(&f.id))
        .filter_map(|f| Some((f, longest_reach(f)?)))
        .collect();
    let cells_at = |anchor: Cell| -> Vec<Cell> {
        me.cells.iter().map(|c| c.offset(anchor.x - start.x, anchor.y - start.y)).collect()
    };
    let mut found: Vec<Provocation> = Vec::new();
    for (step, pair) in anchors.windows(2).enumerate() {
        let (here, there) = (cells_at(pair[0]), cells_at(pair[1]));
        // The one distance, heights included: a guard on a wall walk above the path reaches no one.
        let within = |cells: &[Cell], reactor: &Fighter, reach: u32| {
            let mover = Spot { cells, elevation: me.elevation };
            range_between(field.grid(), field.rules.diagonals, mover, reactor.spot()).is_some_and(|feet| feet <= reach)
        };
        // Struck already on this path, or let the mover go at this very cell.
        let asked = |id: &String| found.iter().any(|p| &p.reactor == id) || (step == 0 && skip.contains(id));
        let leaving: Vec<&(&Fighter, &Attack)> = reactors
            .iter()
            .filter(|(r, _)| !asked(&r.id))
            .filter(|(r, a)| within(&here, r, a.range) && !within(&there, r, a.range))
            .collect();
        if leaving.is_empty() {
            continue;
        }
        // Whether each sees the mover where the mover is now: the board with the mover moved there.
        let mut moved: Vec<Fighter> = field.fighters.to_vec();
        if let Some(m) = moved.iter_mut().find(|f| f.id == me.id) {
            m.cells = here.clone();
        }
        let now = field.with_fighters(&moved);
        let Some(target) = now.fighter(&me.id) else { continue };
        for (reactor, attack) in leaving {
            if now.fighter(&reactor.id).is_some_and(|viewer| now.sees(viewer, target)) {
                found.push(Provocation {
                    step,
                    at: pair[0],
                    leaving_to: pair[1],
                    reactor: reactor.id.clone(),
                    reactor_name: reactor.name().to_owned(),
                    reach: attack.range,
                    attack: attack.name.clone(),
                });
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Grid;
    use crate::rules::HexOrientation;
    use crate::rules::conditions::Condition;
    use crate::rules::creature::Side;
    use crate::rules::fight::FightRules;
    use crate::rules::fight::tests::{fighter, map, sword};

    fn cells(points: &[(i32, i32)]) -> Vec<Cell> {
        points.iter().map(|&(x, y)| Cell::new(x, y)).collect()
    }

    /// Lia at (2, 2) beside a thug (5-ft sword) at (3, 2) and an ogre with a 10-ft greatclub at
    /// (3, 3); she walks west.
    fn board() -> Vec<Fighter> {
        let mut ogre = fighter("ogre", Side::Enemy, (3, 3));
        ogre.sheet.attacks = vec![Attack { name: "Greatclub".into(), range: 10, ..sword() }];
        vec![fighter("lia", Side::Party, (2, 2)), fighter("thug", Side::Enemy, (3, 2)), ogre]
    }

    fn who(found: &[Provocation]) -> Vec<(usize, &str)> {
        found.iter().map(|p| (p.step, p.reactor.as_str())).collect()
    }

    #[test]
    fn leaving_reach_provokes_and_a_10_ft_reach_provokes_one_step_later() {
        let map = map(Grid::Square, &["........"; 8]);
        let fighters = board();
        let field = Field::new(&map, &fighters, FightRules::default());
        let path = cells(&[(2, 2), (1, 2), (0, 2)]);
        let found = provocations(&field, "lia", &path, Moving::Walking, |_| true, &[]);
        assert_eq!(who(&found), vec![(0, "thug"), (1, "ogre")], "PHB 'Opportunity Attacks': leaving the reach");
        assert_eq!((found[1].at, found[1].leaving_to, found[1].reach), (Cell::new(1, 2), Cell::new(0, 2), 10));
        assert_eq!(found[1].attack, "Greatclub");
        let along = cells(&[(2, 2), (2, 3), (2, 4)]);
        assert_eq!(
            who(&provocations(&field, "lia", &along, Moving::Walking, |_| true, &[])),
            vec![(1, "thug")],
            "moving within the ogre's reach provokes nothing from it"
        );
    }

    #[test]
    fn disengage_forced_moves_spent_reactions_and_blindness_provoke_nothing() {
        let map = map(Grid::Square, &["........"; 8]);
        let mut fighters = board();
        let path = cells(&[(2, 2), (1, 2), (0, 2)]);
        let field = Field::new(&map, &fighters, FightRules::default());
        for moving in [Moving::Disengaged, Moving::Forced] {
            assert!(provocations(&field, "lia", &path, moving, |_| true, &[]).is_empty(), "{moving:?}");
        }
        let found = provocations(&field, "lia", &path, Moving::Walking, |id| id != "thug", &[]);
        assert_eq!(who(&found), vec![(1, "ogre")], "no reaction, no opportunity attack");
        let skipped = provocations(&field, "lia", &path, Moving::Walking, |_| true, &["thug".to_owned()]);
        assert_eq!(who(&skipped), vec![(1, "ogre")], "the thug let it go at the first cell");
        fighters[1].conditions.set(Condition::Blinded, true);
        fighters[2].conditions.set(Condition::Stunned, true);
        let field = Field::new(&map, &fighters, FightRules::default());
        assert!(
            provocations(&field, "lia", &path, Moving::Walking, |_| true, &[]).is_empty(),
            "a blinded thug can't see her leave; a stunned ogre can't react"
        );
        fighters[1].conditions.set(Condition::Blinded, false);
        fighters[1].side = Side::Party;
        let field = Field::new(&map, &fighters, FightRules::default());
        assert!(provocations(&field, "lia", &path, Moving::Walking, |_| true, &[]).is_empty(), "allies don't strike");
    }

    #[test]
    fn on_hexes_leaving_the_ring_provokes() {
        let grid = Grid::Hex(HexOrientation::PointyTop);
        let map = map(grid, &["........"; 8]);
        let fighters = vec![fighter("lia", Side::Party, (3, 3)), fighter("thug", Side::Enemy, (4, 3))];
        let field = Field::new(&map, &fighters, FightRules::default());
        let path = cells(&[(3, 3), (3, 4), (2, 4)]);
        assert_eq!(who(&provocations(&field, "lia", &path, Moving::Walking, |_| true, &[])), vec![(1, "thug")]);
    }

    /// PHB "Opportunity Attacks": "when a hostile creature that you can see moves out of your
    /// reach". In darkness a thug without darkvision doesn't see Lia leave (SRD "Vision and
    /// Light": darkness is heavily obscured): no attack. With a torch in her hand she is lit, and
    /// the thug strikes; the ogre's darkvision sees her in the dark.
    #[test]
    fn in_darkness_an_unseen_mover_provokes_nothing() {
        use crate::rules::light::{LightLevel, LightSource};
        let map = map(Grid::Square, &["........"; 8]);
        let mut fighters = board();
        let path = cells(&[(2, 2), (1, 2), (0, 2)]);
        let rules = FightRules::default();
        let dark = Field::new(&map, &fighters, rules).in_light(LightLevel::Dark, &[]);
        assert!(provocations(&dark, "lia", &path, Moving::Walking, |_| true, &[]).is_empty());
        fighters[2].sheet.darkvision = 60;
        let dark = Field::new(&map, &fighters, rules).in_light(LightLevel::Dark, &[]);
        assert_eq!(who(&provocations(&dark, "lia", &path, Moving::Walking, |_| true, &[])), vec![(1, "ogre")]);
        fighters[2].sheet.darkvision = 0;
        fighters[0].sheet.light = Some(LightSource { bright: 20, dim: 20, sunlight: false });
        let torchlit = Field::new(&map, &fighters, rules).in_light(LightLevel::Dark, &[]);
        let found = provocations(&torchlit, "lia", &path, Moving::Walking, |_| true, &[]);
        assert_eq!(who(&found), vec![(0, "thug"), (1, "ogre")], "her torch lights her as she goes");
    }
}
