//! Experience points (DMG "Experience Points", 002_ce573f1e51986339.txt): the XP a monster is
//! worth by its challenge rating (SRD 5.1 "Experience Points by Challenge Rating"), the total of
//! the monsters defeated divided evenly among the party members (NPCs who gave substantial help
//! counted as members), and a character's level by its XP (SRD 5.1 "Character Advancement").

use serde::Serialize;

/// SRD 5.1 "Experience Points by Challenge Rating": challenge ratings 0, 1/8, 1/4, 1/2, then 1
/// to 30, and the XP each is worth (CR 0 is 10 XP, or 0 for a creature with no attacks; the
/// stat block says which).
const XP_BY_CHALLENGE: [(&str, u32); 34] = [
    ("0", 10),
    ("1/8", 25),
    ("1/4", 50),
    ("1/2", 100),
    ("1", 200),
    ("2", 450),
    ("3", 700),
    ("4", 1_100),
    ("5", 1_800),
    ("6", 2_300),
    ("7", 2_900),
    ("8", 3_900),
    ("9", 5_000),
    ("10", 5_900),
    ("11", 7_200),
    ("12", 8_400),
    ("13", 10_000),
    ("14", 11_500),
    ("15", 13_000),
    ("16", 15_000),
    ("17", 18_000),
    ("18", 20_000),
    ("19", 22_000),
    ("20", 25_000),
    ("21", 33_000),
    ("22", 41_000),
    ("23", 50_000),
    ("24", 62_000),
    ("25", 75_000),
    ("26", 90_000),
    ("27", 105_000),
    ("28", 120_000),
    ("29", 135_000),
    ("30", 155_000),
];

/// The XP a monster of challenge rating `cr` ("1/4", "5") is worth.
pub fn xp_for_challenge(cr: &str) -> Option<u32> {
    XP_BY_CHALLENGE.iter().find(|(c, _)| *c == cr.trim()).map(|(_, xp)| *xp)
}

/// SRD 5.1 "Character Advancement": the XP each level from 1 to 20 starts at.
pub const LEVEL_THRESHOLDS: [u32; 20] = [
    0, 300, 900, 2_700, 6_500, 14_000, 23_000, 34_000, 48_000, 64_000, 85_000, 100_000, 120_000, 140_000, 165_000,
    195_000, 225_000, 265_000, 305_000, 355_000,
];

/// The level a character with `xp` experience points has reached (1 to 20).
pub fn level_for(xp: u32) -> u8 {
    LEVEL_THRESHOLDS.iter().filter(|&&t| xp >= t).count() as u8
}

/// The XP at which a character of `level` reaches the next, if there is one.
pub fn next_level_at(level: u8) -> Option<u32> {
    LEVEL_THRESHOLDS.get(usize::from(level)).copied()
}

/// A creature in the reckoning: its id, name, what it is worth (a monster) or has (a party
/// member), and whether it counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub id: String,
    pub name: String,
    pub xp: u32,
}

/// The XP of a fight: the monsters defeated and their total, the party members it is divided
/// among, each one's share (rounded down) and what is left over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Award {
    pub defeated: Vec<Entry>,
    pub total: u32,
    pub members: Vec<Entry>,
    pub share: u32,
    pub left_over: u32,
    /// Each member's XP after the award, and its level then, where a level is gained.
    pub level_ups: Vec<LevelUp>,
}

/// A member who reaches a new level with the award.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LevelUp {
    pub id: String,
    pub xp: u32,
    pub level: u8,
}

/// DMG "Experience Points": "they divide the total XP value of the monsters evenly among
/// themselves. If the party received substantial assistance from one or more NPCs, count those
/// NPCs as party members" (the caller puts them in `members`). The total saturates rather than
/// overflows; with no member nothing is shared.
pub fn award(defeated: Vec<Entry>, members: Vec<Entry>) -> Award {
    let total = defeated.iter().fold(0u32, |sum, d| sum.saturating_add(d.xp));
    let count = u32::try_from(members.len()).unwrap_or(u32::MAX);
    let share = total.checked_div(count).unwrap_or(0);
    let left_over = total.checked_rem(count).unwrap_or(total);
    let level_ups = members
        .iter()
        .filter_map(|m| {
            let after = m.xp.saturating_add(share);
            (level_for(after) > level_for(m.xp)).then(|| LevelUp {
                id: m.id.clone(),
                xp: after,
                level: level_for(after),
            })
        })
        .collect();
    Award { defeated, total, members, share, left_over, level_ups }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, xp: u32) -> Entry {
        Entry { id: id.into(), name: id.into(), xp }
    }

    /// DMG "Tracking Monster Hit Points"' three ogres (CR 2, 450 XP each) defeated by a party of
    /// four: 1,350 XP, 337 each with 2 left over; with an NPC who helped counted, 270 each.
    #[test]
    fn three_ogres_are_divided_evenly_among_the_party_and_helping_npcs() {
        let ogres: Vec<Entry> = ["krag", "thod", "mur"].map(|id| entry(id, xp_for_challenge("2").unwrap())).into();
        let party: Vec<Entry> = ["ann", "bo", "cy", "di"].map(|id| entry(id, 0)).into();
        let award4 = award(ogres.clone(), party.clone());
        assert_eq!((award4.total, award4.share, award4.left_over), (1_350, 337, 2));
        assert_eq!(
            award4.level_ups.iter().map(|l| (l.id.as_str(), l.level)).collect::<Vec<_>>(),
            [("ann", 2), ("bo", 2), ("cy", 2), ("di", 2)]
        );
        let mut helped = party;
        helped.push(entry("guide", 0));
        assert_eq!(award(ogres, helped).share, 270);
    }

    /// SRD 5.1 tables: CR 1/4 is 50 XP, CR 17 is 18,000; 300 XP is 2nd level, 355,000 the 20th.
    #[test]
    fn the_tables_are_the_srds() {
        assert_eq!(
            (xp_for_challenge("1/4"), xp_for_challenge("17"), xp_for_challenge("31")),
            (Some(50), Some(18_000), None)
        );
        assert_eq!(
            (level_for(0), level_for(299), level_for(300), level_for(355_000), level_for(u32::MAX)),
            (1, 1, 2, 20, 20)
        );
        assert_eq!((next_level_at(1), next_level_at(20)), (Some(300), None));
        assert_eq!(award(vec![entry("x", 100)], Vec::new()).share, 0);
    }
}
