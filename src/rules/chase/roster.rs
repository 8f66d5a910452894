//! The running participants of each pursuit as indices sorted by their place on the route, kept
//! up to date as one moves or leaves: the nearest quarry of a pursuer, the lead pursuer and who is
//! close enough to catch found without hashing ids or sorting anything during a turn (issue 14:
//! chases of hundreds).
//!
//! DMG "Beginning a Chase": "Track the distance between them, and designate the pursuer closest
//! to the quarry as the lead"; "Ending a Chase": "when the pursuers are close enough to their
//! quarry to catch it" (000_8c43542ae10d17a7.txt). The rules themselves stay in
//! [`super::Chase`]; this is only where they look.

use std::collections::HashMap;

use super::{Participant, Pursuit, Role};
use crate::rules::initiative::InitiativeOrder;

/// A running participant's spot in one pursuit: its place on the route in feet, and its id's rank
/// among the chase's ids, so that equally placed creatures sort in the order of their ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Spot {
    pub feet: i32,
    pub rank: u32,
    /// Its index in the chase's participants.
    pub who: usize,
}

/// A participant's place in one pursuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Membership {
    /// The pursuit's index in the chase's pursuits.
    pub pursuit: usize,
    pub role: Role,
    /// Where its id first comes in that pursuit's list of its role.
    pub slot: usize,
}

/// One pursuit, by indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Field {
    /// The quarry in the pursuit's order (ids not in the chase left out).
    pub quarry: Vec<usize>,
    /// The running quarry, sorted by (feet, rank).
    pub quarry_spots: Vec<Spot>,
    /// The running pursuers, sorted by (feet, rank).
    pub pursuer_spots: Vec<Spot>,
}

impl Field {
    fn spots_mut(&mut self, role: Role) -> &mut Vec<Spot> {
        match role {
            Role::Quarry => &mut self.quarry_spots,
            Role::Pursuer => &mut self.pursuer_spots,
        }
    }

    /// Whether the pursuit still runs: a running quarry and a running pursuer.
    pub(super) fn live(&self) -> bool {
        !self.quarry_spots.is_empty() && !self.pursuer_spots.is_empty()
    }

    /// The running quarry nearest to a place and its distance in feet; among equally near ones
    /// the first id in order (the rule of [`super::Chase::distances`]). Two binary searches.
    pub(super) fn nearest_quarry(&self, at: i32) -> Option<(u32, usize)> {
        let spots = &self.quarry_spots;
        let above = spots.partition_point(|s| s.feet < at);
        // The first (smallest rank) of the nearest place at or above, and of the nearest below.
        let up = spots.get(above).map(|s| (s.feet.abs_diff(at), s.rank, s.who));
        let down = above.checked_sub(1).and_then(|last| {
            let place = spots.get(last)?.feet;
            let first = spots.get(spots.partition_point(|s| s.feet < place))?;
            Some((place.abs_diff(at), first.rank, first.who))
        });
        up.into_iter().chain(down).min().map(|(feet, _, who)| (feet, who))
    }

    /// The place of the first running quarry strictly ahead of `feet`, if any.
    pub(super) fn quarry_ahead(&self, feet: i32) -> Option<i32> {
        let first = self.quarry_spots.partition_point(|s| s.feet <= feet);
        self.quarry_spots.get(first).map(|s| s.feet)
    }

    /// The running pursuers with a running quarry within `reach` feet, and their distance to the
    /// nearest one, in one walk along both sorted lists; `each` gets (pursuer, feet to its
    /// nearest quarry).
    fn walk_pursuers(&self, mut each: impl FnMut(&Spot, u32)) {
        let quarry = &self.quarry_spots;
        let mut next = 0;
        for pursuer in &self.pursuer_spots {
            // `next`: the first quarry at or above the pursuer's place; pursuers come in order of
            // place, so it only moves forward.
            while quarry.get(next).is_some_and(|q| q.feet < pursuer.feet) {
                next += 1;
            }
            let up = quarry.get(next).map(|q| q.feet.abs_diff(pursuer.feet));
            let down = next.checked_sub(1).and_then(|i| quarry.get(i)).map(|q| q.feet.abs_diff(pursuer.feet));
            if let Some(feet) = up.into_iter().chain(down).min() {
                each(pursuer, feet);
            }
        }
    }

    /// The running pursuers whose nearest running quarry is within `reach` feet.
    pub(super) fn pursuers_within(&self, reach: u32) -> Vec<usize> {
        let mut near = Vec::new();
        self.walk_pursuers(|pursuer, feet| {
            if feet <= reach {
                near.push(pursuer.who);
            }
        });
        near
    }

    /// The running pursuer with the least `key` among those closest to a running quarry.
    pub(super) fn closest_pursuer<K: Ord>(&self, mut key: impl FnMut(usize) -> K) -> Option<usize> {
        let mut best: Option<(u32, K, usize)> = None;
        self.walk_pursuers(|pursuer, feet| {
            if best.as_ref().is_none_or(|(least, _, _)| feet <= *least) {
                let key = key(pursuer.who);
                if best.as_ref().is_none_or(|b| (feet, &key) < (b.0, &b.1)) {
                    best = Some((feet, key, pursuer.who));
                }
            }
        });
        best.map(|(_, _, who)| who)
    }
}

/// Every pursuit of a chase by participant indices, with each participant's memberships and the
/// rank of its id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Roster {
    /// For each participant: its id's place among the chase's ids sorted.
    pub rank: Vec<u32>,
    /// For each participant: the pursuits it is in.
    pub member_of: Vec<Vec<Membership>>,
    /// For each pursuit, in the chase's order.
    pub fields: Vec<Field>,
    /// For each participant: its place in the initiative order when the roster was built
    /// (`usize::MAX` outside it). Leaving the order keeps the others' order; joining it comes with
    /// a new roster.
    pub initiative: Vec<usize>,
    /// Participants in no pursuit.
    pub strays: usize,
}

impl Roster {
    /// Builds the roster of `participants` and `pursuits`, with `index` giving each id's
    /// participant.
    pub(super) fn build(
        participants: &[Participant],
        pursuits: &[Pursuit],
        order: &InitiativeOrder,
        index: &HashMap<String, usize>,
    ) -> Self {
        let mut by_id: Vec<usize> = (0..participants.len()).collect();
        by_id.sort_by(|&a, &b| participants[a].id.cmp(&participants[b].id));
        let mut rank = vec![0; participants.len()];
        for (r, &who) in by_id.iter().enumerate() {
            rank[who] = u32::try_from(r).unwrap_or(u32::MAX);
        }
        let find = |id: &String| index.get(id).copied().filter(|&i| participants.get(i).is_some_and(|p| p.id == *id));
        let mut initiative = vec![usize::MAX; participants.len()];
        for (place, entry) in order.entries.iter().enumerate() {
            if let Some(who) = find(&entry.id) {
                initiative[who] = place;
            }
        }
        let mut roster =
            Roster { rank, member_of: vec![Vec::new(); participants.len()], fields: Vec::new(), initiative, strays: 0 };
        for (k, pursuit) in pursuits.iter().enumerate() {
            let mut field = Field { quarry: pursuit.quarry.iter().filter_map(find).collect(), ..Field::default() };
            for (role, ids) in [(Role::Quarry, &pursuit.quarry), (Role::Pursuer, &pursuit.pursuers)] {
                for (slot, who) in ids.iter().enumerate().filter_map(|(slot, id)| Some((slot, find(id)?))) {
                    let memberships = &mut roster.member_of[who];
                    if memberships.iter().any(|m| m.pursuit == k && m.role == role) {
                        continue;
                    }
                    memberships.push(Membership { pursuit: k, role, slot });
                    let p = &participants[who];
                    if p.is_running() {
                        field.spots_mut(role).push(Spot { feet: p.position, rank: roster.rank[who], who });
                    }
                }
            }
            field.quarry_spots.sort_unstable();
            field.pursuer_spots.sort_unstable();
            roster.fields.push(field);
        }
        roster.strays = roster.member_of.iter().filter(|m| m.is_empty()).count();
        roster
    }

    fn spot(&self, who: usize, feet: i32) -> Spot {
        Spot { feet, rank: self.rank.get(who).copied().unwrap_or(u32::MAX), who }
    }

    /// A running participant moved from `from` to `to` feet.
    pub(super) fn moved(&mut self, who: usize, from: i32, to: i32) {
        let (old, new) = (self.spot(who, from), self.spot(who, to));
        for m in self.member_of.get(who).into_iter().flatten() {
            let Some(field) = self.fields.get_mut(m.pursuit) else { continue };
            let spots = field.spots_mut(m.role);
            if let Ok(at) = spots.binary_search(&old) {
                spots.remove(at);
                let at = spots.binary_search(&new).unwrap_or_else(|at| at);
                spots.insert(at, new);
            }
        }
    }

    /// A participant at `feet` stopped running.
    pub(super) fn stopped(&mut self, who: usize, feet: i32) {
        let old = self.spot(who, feet);
        for m in self.member_of.get(who).into_iter().flatten() {
            let Some(field) = self.fields.get_mut(m.pursuit) else { continue };
            let spots = field.spots_mut(m.role);
            if let Ok(at) = spots.binary_search(&old) {
                spots.remove(at);
            }
        }
    }

    /// The pursuits `who` is in with `role`.
    pub(super) fn pursuits_as(&self, who: usize, role: Role) -> impl Iterator<Item = &Membership> {
        self.member_of.get(who).into_iter().flatten().filter(move |m| m.role == role)
    }

    /// Where `who` first comes among pursuit `k`'s pursuers.
    pub(super) fn pursuer_slot(&self, who: usize, k: usize) -> usize {
        self.pursuits_as(who, Role::Pursuer).find(|m| m.pursuit == k).map_or(usize::MAX, |m| m.slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::chase::Status;
    use crate::rules::creature::Sheet;

    /// A small seeded generator (xorshift64*), so the random walks replay.
    struct Walk(u64);

    impl Walk {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
        }
    }

    fn participant(id: String, position: i32) -> Participant {
        Participant {
            id,
            sheet: Sheet::default(),
            hp: 1,
            inspiration: false,
            exhaustion: 0,
            position,
            dashes: 0,
            restrained: false,
            status: Status::Running,
            conditions: Default::default(),
        }
    }

    /// The brute-force answers: every running quarry looked at for every pursuer.
    fn scan_nearest(participants: &[Participant], pursuit: &Pursuit, at: i32) -> Option<(u32, String)> {
        pursuit
            .quarry
            .iter()
            .filter_map(|q| participants.iter().find(|p| p.id == *q && p.is_running()))
            .map(|q| (q.position.abs_diff(at), q.id.clone()))
            .min()
    }

    fn scan_distances(participants: &[Participant], pursuit: &Pursuit) -> Vec<(String, u32)> {
        let mut seen = Vec::new();
        for id in &pursuit.pursuers {
            let Some(p) = participants.iter().find(|p| p.id == *id && p.is_running()) else { continue };
            if let Some((feet, _)) = scan_nearest(participants, pursuit, p.position)
                && !seen.iter().any(|(seen_id, _)| seen_id == id)
            {
                seen.push((id.clone(), feet));
            }
        }
        seen
    }

    /// Random moves, departures and equal places: after each, the roster's nearest quarry,
    /// pursuers within reach, lead pursuer and first quarry ahead agree with a scan of everyone,
    /// and the incrementally kept roster equals one built afresh.
    #[test]
    fn the_roster_agrees_with_a_scan_of_everyone_on_random_moves() {
        for seed in 1..=20u64 {
            let mut walk = Walk(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let n = 2 + walk.below(40) as usize;
            let mut participants: Vec<Participant> = (0..n)
                .map(|i| participant(format!("c{}", walk.below(1000) * 100 + i as u64), 5 * walk.below(30) as i32 - 50))
                .collect();
            // Quarry and pursuers in a shuffled order, a quarry given twice, one id not in the chase.
            let mut ids: Vec<String> = participants.iter().map(|p| p.id.clone()).collect();
            for i in (1..ids.len()).rev() {
                ids.swap(i, walk.below(i as u64 + 1) as usize);
            }
            let cut = 1 + walk.below(n as u64 - 1) as usize;
            let mut quarry = ids[..cut].to_vec();
            quarry.push(quarry[0].clone());
            let mut pursuers = ids[cut..].to_vec();
            pursuers.push("stranger".to_owned());
            let pursuits = vec![Pursuit { quarry, pursuers }];
            let index: HashMap<String, usize> =
                participants.iter().enumerate().map(|(i, p)| (p.id.clone(), i)).collect();
            // An initiative order of some of them, in an order of its own.
            let mut order = InitiativeOrder::default();
            for id in ids.iter().rev().filter(|_| walk.below(5) != 0) {
                order.entries.push(crate::rules::initiative::Entry { id: id.clone(), ..Default::default() });
            }
            let place = |id: &str| order.entries.iter().position(|e| e.id == id).unwrap_or(usize::MAX);
            let mut roster = Roster::build(&participants, &pursuits, &order, &index);
            for _ in 0..300 {
                let who = walk.below(n as u64) as usize;
                if !participants[who].is_running() {
                    continue;
                }
                let from = participants[who].position;
                if walk.below(12) == 0 {
                    participants[who].status = Status::Caught;
                    roster.stopped(who, from);
                } else {
                    let to = from + 5 * (walk.below(13) as i32 - 4);
                    participants[who].position = to;
                    roster.moved(who, from, to);
                }
                let field = &roster.fields[0];
                let pursuit = &pursuits[0];
                for at in [from - 5, from, from + 5, -100, 200] {
                    let fast = field.nearest_quarry(at).map(|(feet, q)| (feet, participants[q].id.clone()));
                    assert_eq!(fast, scan_nearest(&participants, pursuit, at), "seed {seed}, at {at}");
                    let ahead = participants
                        .iter()
                        .filter(|p| p.is_running() && pursuit.quarry.contains(&p.id) && p.position > at)
                        .map(|p| p.position)
                        .min();
                    assert_eq!(field.quarry_ahead(at), ahead, "seed {seed}, ahead of {at}");
                }
                let distances = scan_distances(&participants, pursuit);
                let mut within: Vec<String> =
                    field.pursuers_within(5).into_iter().map(|i| participants[i].id.clone()).collect();
                let mut expected: Vec<String> =
                    distances.iter().filter(|(_, feet)| *feet <= 5).map(|(id, _)| id.clone()).collect();
                within.sort();
                expected.sort();
                assert_eq!(within, expected, "seed {seed}: pursuers within reach");
                // The lead's rule: the closest, then the first in initiative, then in the list.
                let lead = field.closest_pursuer(|who| (roster.initiative[who], roster.pursuer_slot(who, 0)));
                let expected = distances.iter().min_by_key(|(id, feet)| (*feet, place(id))).map(|(id, _)| id.clone());
                assert_eq!(lead.map(|who| participants[who].id.clone()), expected, "seed {seed}: lead");
                assert_eq!(field.live(), !distances.is_empty(), "seed {seed}: live");
                assert_eq!(
                    roster,
                    Roster::build(&participants, &pursuits, &order, &index),
                    "seed {seed}: as built afresh"
                );
            }
        }
    }
}
