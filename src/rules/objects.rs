//! Objects' statistics: Armor Class by substance, hit points by size and fragility, and the
//! damage types every object is immune to.
//!
//! DMG "Objects", "Statistics for Objects" (002_ce573f1e51986339.txt): tables Object Armor Class
//! and Object Hit Points, "Huge and Gargantuan Objects", "Objects and Damage Types" and "Damage
//! Threshold" (the threshold itself is applied by `rules::health::Defenses::apply`).

use serde::{Deserialize, Serialize};

use super::Size;
use super::health::DamageType;

/// What an object is made of (table Object Armor Class).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Substance {
    /// Cloth, paper, rope.
    Cloth,
    /// Crystal, glass, ice.
    Glass,
    /// Wood, bone.
    Wood,
    Stone,
    /// Iron, steel.
    Iron,
    Mithral,
    Adamantine,
}

impl Substance {
    pub const ALL: [Substance; 7] = [
        Substance::Cloth,
        Substance::Glass,
        Substance::Wood,
        Substance::Stone,
        Substance::Iron,
        Substance::Mithral,
        Substance::Adamantine,
    ];

    /// Its Armor Class (table Object Armor Class).
    pub fn armor_class(self) -> i32 {
        match self {
            Substance::Cloth => 11,
            Substance::Glass => 13,
            Substance::Wood => 15,
            Substance::Stone => 17,
            Substance::Iron => 19,
            Substance::Mithral => 21,
            Substance::Adamantine => 23,
        }
    }
}

/// Whether an object breaks easily (table Object Hit Points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Durability {
    Fragile,
    Resilient,
}

/// Why the table gives no hit points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the Object Hit Points table stops at Large: give a {0} object its `hp`, or divide it into Large or smaller sections, each its own object (DMG \"Huge and Gargantuan Objects\")"
)]
pub struct NoTableHitPoints(pub &'static str);

/// An object's hit points from the table Object Hit Points: the average of its dice (Tiny 1d4 or
/// 2d4, Small 1d6 or 3d6, Medium 1d8 or 4d8, Large 1d10 or 5d10). Huge and Gargantuan objects
/// have none: the DMG tracks them in Large or smaller sections.
pub fn table_hit_points(size: Size, durability: Durability) -> Result<i32, NoTableHitPoints> {
    let fragile = durability == Durability::Fragile;
    Ok(match size {
        Size::Tiny => {
            if fragile {
                2
            } else {
                5
            }
        }
        Size::Small => {
            if fragile {
                3
            } else {
                10
            }
        }
        Size::Medium => {
            if fragile {
                4
            } else {
                18
            }
        }
        Size::Large => {
            if fragile {
                5
            } else {
                27
            }
        }
        Size::Huge | Size::Gargantuan => return Err(NoTableHitPoints(size.name())),
    })
}

/// "Objects are immune to poison and psychic damage" (DMG "Objects and Damage Types").
pub const OBJECT_IMMUNITIES: [DamageType; 2] = [DamageType::Poison, DamageType::Psychic];

#[cfg(test)]
mod tests {
    use super::*;

    /// DMG table Object Armor Class, row by row.
    #[test]
    fn armor_class_follows_the_table() {
        let table: Vec<i32> = Substance::ALL.iter().map(|s| s.armor_class()).collect();
        assert_eq!(table, [11, 13, 15, 17, 19, 21, 23]);
    }

    /// DMG table Object Hit Points: the printed averages, "2 (1d4)" to "27 (5d10)".
    #[test]
    fn hit_points_follow_the_table() {
        let rows = [(Size::Tiny, 2, 5), (Size::Small, 3, 10), (Size::Medium, 4, 18), (Size::Large, 5, 27)];
        for (size, fragile, resilient) in rows {
            assert_eq!(table_hit_points(size, Durability::Fragile), Ok(fragile));
            assert_eq!(table_hit_points(size, Durability::Resilient), Ok(resilient));
        }
        assert!(table_hit_points(Size::Huge, Durability::Resilient).unwrap_err().to_string().contains("sections"));
        assert!(table_hit_points(Size::Gargantuan, Durability::Fragile).is_err());
    }
}
