//! The chapter's fourteen sample poisons (DMG chapter 8, "Poisons": their names, types and
//! prices are in its Poisons table; the chapter only links their effects, which are those of the
//! System Reference Document 5.1, "Poisons", CC-BY-4.0) and how each is delivered (DMG
//! "Poisons": contact, ingested, inhaled, injury).

use serde::{Deserialize, Serialize};

use super::{Duration, Effect, RepeatedSave, Source, TurnDamage, TurnPoint};
use crate::rules::conditions::Condition;
use crate::rules::creature::Ability;
use crate::rules::health::DamageType;

/// A sample poison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Poison {
    AssassinsBlood,
    BurntOthurFumes,
    CarrionCrawlerMucus,
    DrowPoison,
    EssenceOfEther,
    Malice,
    MidnightTears,
    OilOfTaggit,
    PaleTincture,
    PurpleWormPoison,
    SerpentVenom,
    Torpor,
    TruthSerum,
    WyvernPoison,
}

/// How a poison reaches a creature (DMG "Poisons").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Delivery {
    /// Smeared on an object; a creature that touches it with bare skin.
    Contact,
    /// A whole dose swallowed.
    Ingested,
    /// A powder or gas: creatures in a 5-foot cube.
    Inhaled,
    /// On a weapon or ammunition: a creature that takes piercing or slashing damage from it.
    Injury,
}

/// What a failed (or successful) save against a poison does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exposure {
    /// Poison damage to roll, and whether halved (a success where the poison deals half).
    pub damage: Option<(&'static str, bool)>,
    /// The effect it leaves, if any.
    pub effect: Option<Effect>,
    /// Dice of hours the effect lasts, rolled when it is given (torpor's "4d6 hours"); `None`
    /// when its duration is fixed.
    pub hours: Option<&'static str>,
}

impl Poison {
    pub const ALL: [Poison; 14] = [
        Poison::AssassinsBlood,
        Poison::BurntOthurFumes,
        Poison::CarrionCrawlerMucus,
        Poison::DrowPoison,
        Poison::EssenceOfEther,
        Poison::Malice,
        Poison::MidnightTears,
        Poison::OilOfTaggit,
        Poison::PaleTincture,
        Poison::PurpleWormPoison,
        Poison::SerpentVenom,
        Poison::Torpor,
        Poison::TruthSerum,
        Poison::WyvernPoison,
    ];

    /// Its name as the Poisons table gives it.
    pub fn name(self) -> &'static str {
        match self {
            Poison::AssassinsBlood => "Assassin's blood",
            Poison::BurntOthurFumes => "Burnt othur fumes",
            Poison::CarrionCrawlerMucus => "Carrion crawler mucus",
            Poison::DrowPoison => "Drow poison",
            Poison::EssenceOfEther => "Essence of ether",
            Poison::Malice => "Malice",
            Poison::MidnightTears => "Midnight tears",
            Poison::OilOfTaggit => "Oil of taggit",
            Poison::PaleTincture => "Pale tincture",
            Poison::PurpleWormPoison => "Purple worm poison",
            Poison::SerpentVenom => "Serpent venom",
            Poison::Torpor => "Torpor",
            Poison::TruthSerum => "Truth serum",
            Poison::WyvernPoison => "Wyvern poison",
        }
    }

    /// The poison named `name` (any case, `_` for spaces, an apostrophe optional).
    pub fn named(name: &str) -> Option<Poison> {
        let simple = |s: &str| s.to_lowercase().replace(['_', '-'], " ").replace('\'', "");
        Poison::ALL.into_iter().find(|p| simple(p.name()) == simple(name.trim()))
    }

    /// Its type, from the Poisons table.
    pub fn delivery(self) -> Delivery {
        match self {
            Poison::AssassinsBlood
            | Poison::MidnightTears
            | Poison::PaleTincture
            | Poison::Torpor
            | Poison::TruthSerum => Delivery::Ingested,
            Poison::BurntOthurFumes | Poison::EssenceOfEther | Poison::Malice => Delivery::Inhaled,
            Poison::CarrionCrawlerMucus | Poison::OilOfTaggit => Delivery::Contact,
            Poison::DrowPoison | Poison::PurpleWormPoison | Poison::SerpentVenom | Poison::WyvernPoison => {
                Delivery::Injury
            }
        }
    }

    /// Its price per dose, in gold pieces, from the Poisons table.
    pub fn price_gp(self) -> u32 {
        match self {
            Poison::AssassinsBlood | Poison::TruthSerum => 150,
            Poison::BurntOthurFumes => 500,
            Poison::CarrionCrawlerMucus | Poison::DrowPoison | Poison::SerpentVenom => 200,
            Poison::EssenceOfEther => 300,
            Poison::Malice | Poison::PaleTincture => 250,
            Poison::MidnightTears => 1500,
            Poison::OilOfTaggit => 400,
            Poison::PurpleWormPoison => 2000,
            Poison::Torpor => 600,
            Poison::WyvernPoison => 1200,
        }
    }

    /// The DC of the Constitution saving throw against it (SRD 5.1).
    pub fn dc(self) -> i32 {
        match self {
            Poison::AssassinsBlood => 10,
            Poison::SerpentVenom | Poison::TruthSerum => 11,
            Poison::BurntOthurFumes | Poison::CarrionCrawlerMucus | Poison::DrowPoison | Poison::OilOfTaggit => 13,
            Poison::EssenceOfEther | Poison::Malice | Poison::Torpor | Poison::WyvernPoison => 15,
            Poison::PaleTincture => 16,
            Poison::MidnightTears => 17,
            Poison::PurpleWormPoison => 19,
        }
    }

    /// Whether a hit that deals `kind` damage delivers it from a coated weapon: an injury poison
    /// needs piercing or slashing damage (DMG "Injury"); a contact poison any touch.
    pub fn delivered_by_hit(self, kind: DamageType) -> bool {
        match self.delivery() {
            Delivery::Injury => matches!(kind, DamageType::Piercing | DamageType::Slashing),
            Delivery::Contact => true,
            Delivery::Ingested | Delivery::Inhaled => false,
        }
    }

    /// What the poison does to a creature whose Constitution save totalled `save` (SRD 5.1,
    /// "Poisons"). Midnight tears does nothing until midnight: it leaves an effect that the DM
    /// resolves then (its note says how).
    pub fn exposure(self, save: i32) -> Exposure {
        let failed = save < self.dc();
        let poisoned = |duration: Duration, also: &[Condition], note: &str| {
            let mut effect = Effect::new(self.name(), Source::Poison(self), duration);
            effect.conditions = [Condition::Poisoned].into_iter().chain(also.iter().copied()).collect();
            effect.note = note.to_owned();
            effect
        };
        let (damage, effect) = match self {
            Poison::AssassinsBlood => (Some(("1d12", !failed)), failed.then(|| poisoned(Duration::Hours(24), &[], ""))),
            Poison::BurntOthurFumes => {
                let effect = failed.then(|| {
                    let mut effect = poisoned(Duration::UntilSaved, &[], "1d6 poison damage on each failed save");
                    effect.conditions.clear();
                    effect.save =
                        Some(RepeatedSave { ability: Ability::Con, dc: 13, at: TurnPoint::Start, successes: 3 });
                    effect.damage = Some(TurnDamage {
                        dice: "1d6".to_owned(),
                        kind: DamageType::Poison,
                        at: TurnPoint::Start,
                        on_failed_save: true,
                    });
                    effect
                });
                (failed.then_some(("3d6", false)), effect)
            }
            Poison::CarrionCrawlerMucus => {
                let effect = failed.then(|| {
                    let mut effect = poisoned(Duration::Minutes(1), &[Condition::Paralyzed], "");
                    effect.save =
                        Some(RepeatedSave { ability: Ability::Con, dc: 13, at: TurnPoint::End, successes: 1 });
                    effect
                });
                (None, effect)
            }
            Poison::DrowPoison => {
                let effect = failed.then(|| {
                    let asleep = save <= self.dc() - 5;
                    let also: &[Condition] = if asleep { &[Condition::Unconscious] } else { &[] };
                    let mut effect = poisoned(
                        Duration::Hours(1),
                        also,
                        if asleep {
                            "unconscious while poisoned: wakes on damage or when another creature shakes it awake"
                        } else {
                            ""
                        },
                    );
                    effect.wakes_on_damage = asleep;
                    effect
                });
                (None, effect)
            }
            Poison::EssenceOfEther | Poison::OilOfTaggit => {
                let hours = if self == Poison::EssenceOfEther { 8 } else { 24 };
                let effect = failed.then(|| {
                    let wakes = if self == Poison::EssenceOfEther {
                        "unconscious while poisoned: wakes on damage or when another creature shakes it awake"
                    } else {
                        "unconscious while poisoned: wakes on damage"
                    };
                    let mut effect = poisoned(Duration::Hours(hours), &[Condition::Unconscious], wakes);
                    effect.wakes_on_damage = true;
                    effect
                });
                (None, effect)
            }
            Poison::Malice => (None, failed.then(|| poisoned(Duration::Hours(1), &[Condition::Blinded], ""))),
            Poison::MidnightTears => {
                let effect = Effect {
                    note: "no effect until midnight; then a DC 17 Constitution save, 9d6 poison damage on a \
                           failure, half on a success, unless neutralized"
                        .to_owned(),
                    ..Effect::new(self.name(), Source::Poison(self), Duration::UntilRemoved)
                };
                (None, Some(effect))
            }
            Poison::PaleTincture => {
                let effect = failed.then(|| {
                    poisoned(
                        Duration::UntilRemoved,
                        &[],
                        "repeats the DC 16 Constitution save every 24 hours, 1d6 poison damage on a failure; \
                         the damage can't be healed until the poison ends; seven successes end it",
                    )
                });
                (failed.then_some(("1d6", false)), effect)
            }
            Poison::PurpleWormPoison => (Some(("12d6", !failed)), None),
            Poison::SerpentVenom => (Some(("3d6", !failed)), None),
            Poison::WyvernPoison => (Some(("7d6", !failed)), None),
            Poison::Torpor => {
                let effect = failed.then(|| poisoned(Duration::Hours(4), &[Condition::Incapacitated], ""));
                return Exposure { damage: None, effect, hours: failed.then_some("4d6") };
            }
            Poison::TruthSerum => {
                let effect = failed.then(|| poisoned(Duration::Hours(1), &[], "can't knowingly speak a lie"));
                (None, effect)
            }
        };
        Exposure { damage, effect, hours: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DMG chapter 8, "Poisons" table: fourteen poisons with their types and prices.
    #[test]
    fn the_table_lists_fourteen_poisons_with_types_and_prices() {
        assert_eq!(Poison::ALL.len(), 14);
        assert_eq!(Poison::SerpentVenom.delivery(), Delivery::Injury);
        assert_eq!(Poison::SerpentVenom.price_gp(), 200);
        assert_eq!(Poison::MidnightTears.price_gp(), 1500);
        assert_eq!(Poison::Malice.delivery(), Delivery::Inhaled);
        assert_eq!(Poison::OilOfTaggit.delivery(), Delivery::Contact);
        assert_eq!(Poison::named("serpent_venom"), Some(Poison::SerpentVenom));
        assert_eq!(Poison::named("Assassins blood"), Some(Poison::AssassinsBlood));
        assert_eq!(Poison::named("hemlock"), None);
        let names: Vec<&str> = Poison::ALL.iter().map(|p| p.name()).collect();
        let table = crate::rules::tables::all().expect("tables");
        let rows = &crate::rules::tables::find(&table, "poisons").expect("the Poisons table").rows;
        for row in rows {
            assert!(names.contains(&row[0].as_str()), "{} is a poison here", row[0]);
        }
    }

    /// SRD 5.1 "Serpent Venom": DC 11 Constitution, 10 (3d6) poison damage on a failed save, half
    /// as much on a successful one; delivered by piercing or slashing damage (DMG "Injury").
    #[test]
    fn serpent_venom_deals_3d6_or_half() {
        assert_eq!(
            Poison::SerpentVenom.exposure(10),
            Exposure { damage: Some(("3d6", false)), effect: None, hours: None }
        );
        assert_eq!(
            Poison::SerpentVenom.exposure(11),
            Exposure { damage: Some(("3d6", true)), effect: None, hours: None }
        );
        assert!(Poison::SerpentVenom.delivered_by_hit(DamageType::Piercing));
        assert!(!Poison::SerpentVenom.delivered_by_hit(DamageType::Bludgeoning));
        assert!(!Poison::Malice.delivered_by_hit(DamageType::Piercing));
    }

    /// SRD 5.1 "Drow Poison": poisoned for 1 hour; failing by 5 or more, also unconscious, waking
    /// on damage. "Carrion Crawler Mucus": paralyzed, a save at the end of each turn ends it.
    #[test]
    fn drow_poison_and_mucus_leave_effects_that_end_as_the_srd_says() {
        let light = Poison::DrowPoison.exposure(9).effect.expect("poisoned");
        assert_eq!(light.conditions, vec![Condition::Poisoned]);
        assert_eq!(light.duration, Duration::Hours(1));
        let deep = Poison::DrowPoison.exposure(8).effect.expect("poisoned");
        assert!(deep.conditions.contains(&Condition::Unconscious) && deep.wakes_on_damage && !deep.ends_on_damage);
        assert!(Poison::DrowPoison.exposure(13).effect.is_none(), "a success");
        let mucus = Poison::CarrionCrawlerMucus.exposure(1).effect.expect("paralyzed");
        assert_eq!(mucus.save.map(|s| (s.dc, s.at)), Some((13, TurnPoint::End)));
        assert!(mucus.conditions.contains(&Condition::Paralyzed));
        let fumes = Poison::BurntOthurFumes.exposure(1).effect.expect("lasting");
        assert_eq!(fumes.save.map(|s| s.successes), Some(3));
        for poison in Poison::ALL {
            for save in [1, 30] {
                if let Some(effect) = poison.exposure(save).effect {
                    assert_eq!(effect.validate(), Ok(()), "{poison:?}");
                }
            }
        }
    }

    /// SRD 5.1 "Drow Poison": "The creature wakes up if it takes damage" — and stays poisoned for
    /// the hour; so for essence of ether (8 hours) and oil of taggit (24 hours).
    #[test]
    fn damage_wakes_the_sleeper_who_stays_poisoned() {
        use crate::rules::effects::{EffectEvent, Effects};
        for poison in [Poison::DrowPoison, Poison::EssenceOfEther, Poison::OilOfTaggit] {
            let mut effects = Effects::default();
            effects.give(poison.exposure(1).effect.expect("a sleep")).expect("valid");
            let mut conditions = crate::rules::conditions::Conditions::default();
            effects.update_conditions(&mut conditions);
            assert!(conditions.has(Condition::Unconscious), "{poison:?}");
            assert_eq!(effects.damaged(), vec![EffectEvent::Woke { name: poison.name().to_owned() }]);
            effects.update_conditions(&mut conditions);
            assert!(!conditions.has(Condition::Unconscious), "{poison:?}: awake");
            assert!(conditions.has(Condition::Poisoned), "{poison:?}: still poisoned");
            assert!(conditions.has(Condition::Prone), "{poison:?}: falling unconscious left it prone");
            assert_eq!(effects.list.len(), 1);
            assert_eq!(effects.damaged(), vec![], "once awake, damage changes nothing more");
        }
    }

    /// SRD 5.1 "Torpor": "poisoned for 4d6 hours": the hours are dice, rolled when it is given.
    #[test]
    fn torpor_lasts_4d6_hours() {
        let failed = Poison::Torpor.exposure(1);
        assert_eq!(failed.hours, Some("4d6"));
        assert!(failed.effect.is_some_and(|e| e.conditions.contains(&Condition::Incapacitated)));
        assert_eq!(Poison::Torpor.exposure(30).hours, None);
    }
}
