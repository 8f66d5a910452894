//! A monster's whole SRD 5.1 stat block as the book prints it, for the DM's card: its lines put
//! into the book's words, and the section that shows them, collapsed under its header.

use std::sync::Arc;

use bevy_egui::egui::{self, RichText};

use super::capitalized;
use crate::srd::schema::Text;
use crate::srd::{Monster, modifier};

/// The section's header on the card.
const HEADER: &str = "Stat block (SRD 5.1)";

/// The line under the header when the creature's own numbers are not the book's.
const NOT_THE_CREATURES_OWN: &str = "The book's numbers; this creature's own are above.";

/// The ways `Monster::defense_notes` begins, by the line each belongs to (`scripts/srd.py`).
const VULNERABLE: &str = "vulnerable to: ";
const RESISTANT: &str = "resistant to: ";
const IMMUNE: &str = "immune to: ";

/// A stat block in the words and order of the SRD 5.1 ("Monsters": "Statistics"), each line
/// already worded; a line with nothing to say is left out, as the book leaves it out.
#[derive(Clone, Debug, PartialEq)]
pub struct StatBlockView {
    /// The monster's name, as the block is headed.
    pub name: String,
    /// Size, type and alignment: "Large giant, chaotic evil".
    pub kind: String,
    /// Armor Class, Hit Points and Speed, each its name and its value: ("Armor Class", "11 (hide
    /// armor)"), ("Hit Points", "59 (7d10+21)"), ("Speed", "40 ft., fly 80 ft. (hover)").
    pub basics: Vec<(&'static str, String)>,
    /// The six ability scores with their modifiers: ("STR", "19 (+4)").
    pub scores: [(&'static str, String); 6],
    /// Saving Throws, Skills, the damage defences, Condition Immunities, Senses, Languages and
    /// Challenge, each only where the monster has something: ("Challenge", "17 (18,000 XP)").
    pub details: Vec<(&'static str, String)>,
    /// Special traits, each its name and text.
    pub traits: Vec<Text>,
    pub actions: Vec<Text>,
    pub reactions: Vec<Text>,
    /// What the book says before its legendary actions ("It can take 3 legendary actions, …"),
    /// for a monster that has them.
    pub legendary_intro: Option<String>,
    pub legendary: Vec<Text>,
    /// The creature's own numbers (the card's lines above the section) differ from the book's:
    /// the scenario changed them (40 hit points, another name).
    pub overridden: bool,
}

/// A monster's stat block in the book's words (SRD 5.1 "Monsters"), its creature's numbers taken
/// to be the book's (`overridden` false).
pub fn stat_block_view(monster: &Monster) -> StatBlockView {
    let armour = if monster.ac_from.is_empty() { String::new() } else { format!(" ({})", monster.ac_from) };
    let dice = if monster.hit_dice.is_empty() { String::new() } else { format!(" ({})", monster.hit_dice) };
    let basics = vec![
        ("Armor Class", format!("{}{armour}", monster.ac)),
        ("Hit Points", format!("{}{dice}", monster.hp)),
        ("Speed", speeds(monster)),
    ];
    let s = monster.scores;
    let scores = [("STR", s.str), ("DEX", s.dex), ("CON", s.con), ("INT", s.int), ("WIS", s.wis), ("CHA", s.cha)]
        .map(|(ability, score)| (ability, format!("{score} ({:+})", modifier(score))));
    let saves: Vec<String> =
        monster.saves.iter().map(|(ability, bonus)| format!("{} {bonus:+}", capitalized(ability.id()))).collect();
    let skills: Vec<String> =
        monster.skills.iter().map(|(skill, bonus)| format!("{} {bonus:+}", skill.name())).collect();
    let notes = &monster.defense_notes;
    let languages = if monster.languages.is_empty() { "—".to_owned() } else { monster.languages.clone() };
    let details = [
        ("Saving Throws", saves.join(", ")),
        ("Skills", skills.join(", ")),
        ("Damage Vulnerabilities", defences(&monster.vulnerabilities, notes, VULNERABLE)),
        ("Damage Resistances", defences(&monster.resistances, notes, RESISTANT)),
        ("Damage Immunities", defences(&monster.immunities, notes, IMMUNE)),
        ("Condition Immunities", condition_immunities(monster)),
        ("Senses", senses(monster)),
        ("Languages", languages),
        ("Challenge", format!("{} ({} XP)", monster.cr, grouped(monster.xp))),
    ]
    .into_iter()
    .filter(|(_, value)| !value.is_empty())
    .collect();
    let has_legendary = monster.legendary_per_round > 0 || !monster.legendary.is_empty();
    StatBlockView {
        name: monster.name.clone(),
        kind: kind_line(monster),
        basics,
        scores,
        details,
        traits: monster.traits.clone(),
        actions: monster.actions.clone(),
        reactions: monster.reactions.clone(),
        legendary_intro: has_legendary.then(|| legendary_intro(monster.legendary_per_round)),
        legendary: monster.legendary.clone(),
        overridden: false,
    }
}

/// Size, type and alignment as the book writes them under the name: "Huge dragon, chaotic evil".
fn kind_line(monster: &Monster) -> String {
    let kind = format!("{} {}", monster.size.name(), monster.kind);
    if monster.alignment.is_empty() { kind } else { format!("{kind}, {}", monster.alignment) }
}

/// Speeds as a stat block writes them: "40 ft., fly 80 ft. (hover)" (the walking speed always,
/// 0 ft. for a creature that doesn't walk; the others only where it has them).
pub(super) fn speeds(monster: &Monster) -> String {
    let speed = monster.speed;
    let mut parts = vec![format!("{} ft.", speed.walk)];
    for (mode, feet) in [("burrow", speed.burrow), ("climb", speed.climb), ("fly", speed.fly), ("swim", speed.swim)] {
        if feet > 0 {
            let hover = if mode == "fly" && speed.hover { " (hover)" } else { "" };
            parts.push(format!("{mode} {feet} ft.{hover}"));
        }
    }
    parts.join(", ")
}

/// Senses as a stat block writes them: "darkvision 60 ft., passive Perception 8".
pub(super) fn senses(monster: &Monster) -> String {
    let s = monster.senses;
    let ranges = [
        ("blindsight", s.blindsight),
        ("darkvision", s.darkvision),
        ("tremorsense", s.tremorsense),
        ("truesight", s.truesight),
    ];
    let mut parts: Vec<String> =
        ranges.into_iter().filter(|(_, feet)| *feet > 0).map(|(sense, feet)| format!("{sense} {feet} ft.")).collect();
    parts.push(format!("passive Perception {}", s.passive_perception));
    parts.join(", ")
}

/// A number with its thousands set apart, as a stat block prints XP: "5,900".
pub(super) fn grouped(n: u32) -> String {
    let digits = n.to_string();
    let mut text = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// One line of damage defences as the book writes it: the damage types, then what the types
/// can't say, after a semicolon ("lightning, thunder; bludgeoning, piercing, and slashing from
/// nonmagical weapons"). The notes are those that begin with `kind`; a note that begins with none
/// of the three is the resistances'.
fn defences(types: &[String], notes: &[String], kind: &str) -> String {
    let mut parts = Vec::new();
    if !types.is_empty() {
        parts.push(types.join(", "));
    }
    for note in notes {
        if let Some(words) = note.strip_prefix(kind) {
            parts.push(words.to_owned());
        } else if kind == RESISTANT && ![VULNERABLE, RESISTANT, IMMUNE].iter().any(|k| note.starts_with(*k)) {
            parts.push(note.clone());
        }
    }
    parts.join("; ")
}

/// The conditions a monster is immune to, exhaustion among them, in the book's alphabetical
/// order: "exhaustion, grappled, paralyzed".
fn condition_immunities(monster: &Monster) -> String {
    let mut names: Vec<&str> = monster.condition_immunities.iter().map(|c| c.name()).collect();
    if monster.exhaustion_immune {
        names.push("exhaustion");
    }
    names.sort_unstable();
    names.join(", ")
}

/// What the book says before a monster's legendary actions (SRD 5.1 "Legendary Creatures"),
/// "it" standing for the creature.
fn legendary_intro(per_round: u8) -> String {
    let actions = if per_round == 1 { "action" } else { "actions" };
    format!(
        "It can take {per_round} legendary {actions}, choosing from the options below. Only one legendary \
         action option can be used at a time and only at the end of another creature's turn. It regains \
         spent legendary actions at the start of its turn."
    )
}

/// The stat block's section of the DM's card: collapsed under [`HEADER`] until opened (egui
/// keeps it open or shut by its id, whichever creature is selected), then the block in the book's
/// order. Every line wraps within the card's width (issue 39: panels keep their size).
pub(super) fn stat_block_section(ui: &mut egui::Ui, view: &StatBlockView) {
    egui::CollapsingHeader::new(HEADER).id_salt("card-stat-block").default_open(false).show(ui, |ui| {
        if view.overridden {
            ui.add(egui::Label::new(RichText::new(NOT_THE_CREATURES_OWN).small().weak()).wrap());
        }
        ui.add(egui::Label::new(RichText::new(&view.name).strong().size(16.0)).wrap());
        ui.add(egui::Label::new(RichText::new(&view.kind).italics()).wrap());
        ui.separator();
        for (name, value) in &view.basics {
            named_line(ui, name, value, false);
        }
        ui.separator();
        scores_grid(ui, &view.scores);
        ui.separator();
        for (name, value) in &view.details {
            named_line(ui, name, value, false);
        }
        if !view.traits.is_empty() {
            ui.separator();
        }
        for entry in &view.traits {
            named_line(ui, &format!("{}.", entry.name), &entry.text, true);
        }
        entries(ui, "Actions", None, &view.actions);
        entries(ui, "Reactions", None, &view.reactions);
        entries(ui, "Legendary Actions", view.legendary_intro.as_deref(), &view.legendary);
    });
}

/// A part of the block under its own heading ("Actions"), with what the book says first, then
/// each entry; nothing without any.
fn entries(ui: &mut egui::Ui, heading: &str, intro: Option<&str>, list: &[Text]) {
    if list.is_empty() && intro.is_none() {
        return;
    }
    ui.add_space(4.0);
    ui.label(RichText::new(heading).strong().size(15.0));
    ui.separator();
    if let Some(intro) = intro {
        ui.add(egui::Label::new(intro).wrap());
    }
    for entry in list {
        named_line(ui, &format!("{}.", entry.name), &entry.text, true);
    }
}

/// A line that starts with its name in strong letters (italic too for a trait or an action, as
/// the book sets them), the rest after it, all wrapped within the card's width: "Armor Class 19
/// (natural armor)", "Fire Breath (Recharge 5–6). The dragon exhales fire …".
fn named_line(ui: &mut egui::Ui, name: &str, text: &str, italic: bool) {
    let job = name_and_text(ui, name, text, italic);
    ui.add(egui::Label::new(job).wrap());
}

/// The text of [`named_line`], laid out in `ui`'s style.
fn name_and_text(ui: &egui::Ui, name: &str, text: &str, italic: bool) -> egui::text::LayoutJob {
    let mut job = egui::text::LayoutJob::default();
    let (style, valign) = (ui.style(), ui.text_valign());
    let name = if italic { RichText::new(name).strong().italics() } else { RichText::new(name).strong() };
    name.append_to(&mut job, style, egui::FontSelection::Default, valign);
    RichText::new(format!(" {text}")).append_to(&mut job, style, egui::FontSelection::Default, valign);
    job
}

/// The six scores in a grid of as many columns as the card's width holds (six, three, two or
/// one): "STR 27 (+8)".
fn scores_grid(ui: &mut egui::Ui, scores: &[(&'static str, String); 6]) {
    let cells: Vec<Arc<egui::text::Galley>> = scores
        .iter()
        .map(|(ability, score)| {
            let job = name_and_text(ui, ability, score, false);
            ui.fonts_mut(|fonts| fonts.layout_job(job))
        })
        .collect();
    let widest = cells.iter().map(|cell| cell.size().x).fold(0.0, f32::max);
    let gap = ui.spacing().item_spacing.x;
    let width = ui.available_width();
    let fits = |n: usize| n as f32 * widest + (n - 1) as f32 * gap <= width;
    // A window's first frame measures its contents: the narrowest grid asks for the least room.
    let columns = if ui.is_sizing_pass() { 2 } else { [6, 3, 2].into_iter().find(|&n| fits(n)).unwrap_or(1) };
    egui::Grid::new("card-stat-block-scores").num_columns(columns).spacing([gap, 2.0]).show(ui, |ui| {
        for (i, cell) in cells.into_iter().enumerate() {
            ui.add(egui::Label::new(cell));
            if (i + 1) % columns == 0 {
                ui.end_row();
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::*;
    use crate::rules::Cell;
    use crate::rules::creature::Side;
    use crate::scenario::TokenKind;
    use crate::ui::{FightEdit, RosterView, SiegeView, TokenDetails, TokenRow, TurnEdit, card_panel};

    fn monster(name: &str) -> &'static Monster {
        crate::srd::bestiary().expect("the bestiary").monster(name).expect("in the SRD")
    }

    /// The card of a creature made from `monster`'s stat block, in the DM's view or the players'.
    fn card(monster: &Monster, dm: bool) -> RosterView {
        let view = stat_block_view(monster);
        RosterView {
            rows: vec![TokenRow {
                id: "dragon".into(),
                name: monster.name.clone(),
                kind: TokenKind::Creature,
                side: Side::Enemy,
                size: monster.size,
                hp: if dm { format!("{0}/{0}", monster.hp) } else { "healthy".into() },
                ac: monster.ac,
                speed: monster.speed.walk,
                initiative: None,
            }],
            selected: Some(TokenDetails {
                id: "dragon".into(),
                anchor: Cell::new(3, 5),
                cells: 9,
                abilities: monster.abilities(),
                facing: None,
                shield: None,
                player_character: false,
                seat: None,
                dm,
                turn: None,
                secret: dm.then_some(false),
                inspiration: None,
                experience: None,
                exhaustion: 0,
                fight: None,
                siege: SiegeView::default(),
                effects: None,
                stat_block: Some(view),
            }),
        }
    }

    /// The card in a window as wide as the app's (280 pixels), tall enough for the whole block.
    fn harness(view: RosterView) -> Harness<'static> {
        Harness::builder().with_size(egui::vec2(280.0, 3000.0)).build_ui(move |ui| {
            let _ = card_panel(ui, &view, &mut FightEdit::default(), &mut TurnEdit::default());
        })
    }

    /// The DM opens the adult red dragon's stat block on its card and reads it as the book prints
    /// it: AC, hit points, speeds, challenge, the trait and the breath weapon.
    #[test]
    fn the_dm_reads_the_adult_red_dragons_stat_block_on_its_card() {
        let dragon = monster("adult-red-dragon");
        let mut harness = harness(card(dragon, true));
        harness.run();
        harness.get_by_label(HEADER);
        assert!(harness.query_by_label("Armor Class 19 (natural armor)").is_none(), "collapsed at first");
        harness.get_by_label(HEADER).click();
        harness.run();
        harness.get_by_label("Huge dragon, chaotic evil");
        harness.get_by_label("Armor Class 19 (natural armor)");
        harness.get_by_label("Hit Points 256 (19d12+133)");
        harness.get_by_label("Speed 40 ft., climb 40 ft., fly 80 ft.");
        harness.get_by_label("STR 27 (+8)");
        harness.get_by_label("CHA 21 (+5)");
        harness.get_by_label("Saving Throws Dex +6, Con +13, Wis +7, Cha +11");
        harness.get_by_label("Skills Perception +13, Stealth +6");
        harness.get_by_label("Damage Immunities fire");
        harness.get_by_label("Senses blindsight 60 ft., darkvision 120 ft., passive Perception 23");
        harness.get_by_label("Languages Common, Draconic");
        harness.get_by_label("Challenge 17 (18,000 XP)");
        harness.get_by_label_contains("Legendary Resistance (3/Day). If the dragon fails a saving throw");
        harness.get_by_label_contains("Fire Breath (Recharge 5–6). The dragon exhales fire in a 60-foot cone.");
        harness.get_by_label_contains("It can take 3 legendary actions");
        harness.get_by_label_contains("Wing Attack (Costs 2 Actions).");
        assert!(harness.query_by_label_contains("Damage Resistances").is_none(), "a line only where it has something");
        assert!(harness.query_by_label("Reactions").is_none(), "no reactions, no heading");
        assert!(harness.query_by_label(NOT_THE_CREATURES_OWN).is_none(), "its own numbers are the book's");
    }

    /// A creature whose scenario changed its numbers says that the block is the book's.
    #[test]
    fn a_changed_creature_says_the_block_is_the_books() {
        let ogre = monster("ogre");
        let mut view = card(ogre, true);
        if let Some(details) = &mut view.selected {
            details.stat_block.as_mut().expect("a stat block").overridden = true;
        }
        let mut harness = harness(view);
        harness.run();
        harness.get_by_label(HEADER).click();
        harness.run();
        harness.get_by_label(NOT_THE_CREATURES_OWN);
        harness.get_by_label("Large giant, chaotic evil");
        harness.get_by_label("Armor Class 11 (hide armor)");
        harness.get_by_label("Hit Points 59 (7d10+21)");
        harness.get_by_label("STR 19 (+4)");
    }

    /// The players' view shows none of a monster's numbers: no stat block, even if one was given.
    #[test]
    fn the_players_see_no_stat_block() {
        let mut harness = harness(card(monster("adult-red-dragon"), false));
        harness.run();
        assert!(harness.query_by_label(HEADER).is_none());
        assert!(harness.query_by_label_contains("Armor Class").is_none());
        assert!(harness.query_by_label_contains("Challenge").is_none());
    }

    /// Issue 39: the open block's long texts wrap within the card; nothing is drawn past its
    /// 280 pixels.
    #[test]
    fn the_open_stat_block_never_widens_the_card() {
        let view = stat_block_view(monster("adult-red-dragon"));
        let mut harness = Harness::builder().with_size(egui::vec2(280.0, 3000.0)).build_ui(move |ui| {
            stat_block_section(ui, &view);
        });
        harness.run();
        harness.get_by_label(HEADER).click();
        harness.run();
        harness.get_by_label("Challenge 17 (18,000 XP)");
        let widest = harness.output().shapes.iter().map(|c| c.shape.visual_bounding_rect().max.x).fold(0.0, f32::max);
        assert!(widest <= 280.5, "something of the stat block is drawn at x = {widest}");
    }

    /// The lines between the scores and the traits, as the SRD 5.1 prints the air elemental's: a
    /// speed without walking, resistances with what the types can't say, condition immunities
    /// with exhaustion in the alphabet's order, and no saving throws or skills.
    #[test]
    fn the_details_read_as_the_book_prints_them() {
        let view = stat_block_view(monster("air elemental"));
        assert_eq!(view.basics[2], ("Speed", "0 ft., fly 90 ft. (hover)".to_owned()));
        let details: Vec<(&str, &str)> = view.details.iter().map(|(name, value)| (*name, value.as_str())).collect();
        assert_eq!(
            details,
            [
                (
                    "Damage Resistances",
                    "lightning, thunder; bludgeoning, piercing, and slashing from nonmagical weapons"
                ),
                ("Damage Immunities", "poison"),
                (
                    "Condition Immunities",
                    "exhaustion, grappled, paralyzed, petrified, poisoned, prone, restrained, unconscious"
                ),
                ("Senses", "darkvision 60 ft., passive Perception 10"),
                ("Languages", "Auran"),
                ("Challenge", "5 (1,800 XP)"),
            ]
        );
        assert_eq!(view.legendary_intro, None);
        let devil = stat_block_view(monster("barbed devil"));
        assert!(devil.details.contains(&(
            "Damage Resistances",
            "cold; bludgeoning, piercing, and slashing from nonmagical weapons that aren't silvered".to_owned()
        )));
        assert!(devil.details.contains(&("Damage Immunities", "fire, poison".to_owned())));
    }

    #[test]
    fn a_stat_block_writes_speeds_senses_and_xp_as_the_book_does() {
        assert_eq!(grouped(450), "450");
        assert_eq!(grouped(5900), "5,900");
        assert_eq!(grouped(155_000), "155,000");
        assert_eq!(grouped(1_000_000), "1,000,000");
        let dragon = monster("adult red dragon");
        assert_eq!(speeds(dragon), "40 ft., climb 40 ft., fly 80 ft.");
        assert_eq!(senses(dragon), "blindsight 60 ft., darkvision 120 ft., passive Perception 23");
        let ogre = monster("ogre");
        assert_eq!(senses(ogre), "darkvision 60 ft., passive Perception 8");
    }
}
