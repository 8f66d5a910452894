//! The app's notices in words: every [`Said`] rendered as the sentence the status bar shows, and
//! the small labels beside the cursor. The one place the app's outcomes and refusals become
//! English.

use crate::app::core::components::CrewStep;
use crate::app::core::dice::{LogLoss, Mended};
use crate::app::core::notice::{CantDelay, CantPush, CantWork, DragRefusal, Edited, NotNow, Said, SaveLine, Tiles};
use crate::rules::economy::{Action, Slot};
use crate::rules::fight::StandError;
use crate::rules::fight::actions::CantTurn;
use crate::rules::log::AttackOccasion;
use crate::rules::sight::CoverDegree;

/// Why a restored roll log came back short, naming its journal `file`.
fn log_loss(file: &std::path::Path, why: &LogLoss) -> String {
    let file = file.display();
    match why {
        LogLoss::Missing => format!("{file} is missing"),
        LogLoss::NotAFile => format!("{file} is not a regular file (a directory, a pipe or a device)"),
        LogLoss::Unreadable(error) => format!("cannot read {file}: {error}"),
        LogLoss::TooLarge { limit } => format!("{file} is larger than a roll log may be ({} MiB)", limit >> 20),
        LogLoss::BadLine { line, error } => format!("{file}:{line} is not a roll: {error}"),
        LogLoss::EndsEarly => format!("{file} ends before the game's last roll"),
        LogLoss::OtherGame => format!("{file} holds other rolls than the game's"),
    }
}

/// " (kept as F)" when `file` was moved `aside`; " (it is still at F)" when it couldn't be.
fn kept_as(file: &std::path::Path, aside: Option<&std::path::Path>) -> String {
    match aside {
        Some(aside) => format!(" (kept as {})", aside.display()),
        None => format!(" (it is still at {})", file.display()),
    }
}

/// " (kept as A and B)": the files a set kept aside was moved to.
fn kept_list(kept: &[std::path::PathBuf]) -> String {
    let names: Vec<String> = kept.iter().map(|p| p.display().to_string()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => format!(" (kept as {one})"),
        [rest @ .., last] => format!(" (kept as {} and {last})", rest.join(", ")),
    }
}

/// The sentence for a notice.
pub fn said(notice: &Said) -> String {
    match notice {
        Said::ReloadedBuiltIn => "Reloaded the built-in scenario".to_owned(),
        Said::Opened(path) => format!("Opened {}", path.display()),
        Said::KeptScenario(errors) => {
            let count = errors.0.len();
            let more = if count > 1 { format!(" (and {} more problems)", count - 1) } else { String::new() };
            let first = errors.0.first().map(ToString::to_string).unwrap_or_default();
            format!("Kept the current scenario: {first}{more}")
        }
        Said::Saved(path) => format!("Saved {}", path.display()),
        Said::CouldNotSave { path, error } => format!("Could not save {}: {error}", path.display()),
        Said::BuiltInHasNoFile => "The built-in scene has no file: type a path and press Save as".to_owned(),
        Said::MapNotReady => "The map is not ready yet: try again in a moment".to_owned(),
        Said::RestoredAutosave => {
            "Restored the game in progress from its autosave (Reload in the bar starts the scene afresh)".to_owned()
        }
        Said::RollLogCut { file, kept, rolls, why, aside } => {
            let aside = aside.as_ref().map_or_else(String::new, |p| format!(" (kept as {})", p.display()));
            format!(
                "The roll log came back with {kept} of the game's {rolls} rolls: {}{aside}; the dice go on where they were",
                log_loss(file, why)
            )
        }
        Said::RollLogMended { file, rolls, how, aside } => {
            let how = match how {
                Mended::LineEnds => "its lines end as on Windows",
                Mended::Unverified => {
                    "it is not as the autosave wrote it (edited, or another game's): they are kept as they read"
                }
            };
            format!(
                "The roll log came back with all {rolls} rolls, but {how}{}; it is written anew",
                kept_as(file, aside.as_deref())
            )
        }
        Said::RollsPastTheAutosave { rolls, aside } => {
            let rolls = if *rolls == 1 { "1 roll".to_owned() } else { format!("{rolls} rolls") };
            format!(
                "{rolls} made after the last autosave did not come back; the roll log holding them is kept as {}",
                aside.display()
            )
        }
        Said::AutosaveNotRestored { error, kept } => {
            format!("The autosave was not restored, the scene starts afresh: {error}{}", kept_list(kept))
        }
        Said::SessionLinkBroken { link, target, kept } => format!(
            "The autosave was not restored, the scene starts afresh: {} links to {}, which isn't there{}; the game is autosaved to {} now",
            link.display(),
            target.display(),
            kept_list(kept),
            link.display()
        ),
        Said::EarlierAutosaveKept { kept } => {
            format!("A game autosaved there before is kept aside{}", kept_list(kept))
        }
        Said::JournalWithoutGame { file, aside } => {
            format!("A roll log with no game beside it, {}, is kept as {}", file.display(), aside.display())
        }
        Said::AutosaveElsewhere { asked, now: Some(now), error } => format!(
            "{} could not be kept aside ({error}): the game is autosaved to {} instead",
            asked.display(),
            now.display()
        ),
        Said::AutosaveElsewhere { asked, now: None, error } => format!(
            "{} could not be kept aside ({error}), and there is no other place: the game is not autosaved",
            asked.display()
        ),
        Said::AutosaveFailed { path, error } => {
            format!("The game could not be autosaved to {}: {error}", path.display())
        }
        Said::Screenshot(path) => format!("Saved the window as {path}"),
        Said::PictureNotShown { error, background: false } => format!("{error}: the token keeps its disc"),
        Said::PictureNotShown { error, background: true } => format!("{error}: the map is drawn without it"),
        Said::SceneHasChase { name } => format!("This scene has a chase, {name:?}: press C to set it up and start it."),
        Said::TerrainTiles(Tiles::Shown) => "Terrain: tiles shown".to_owned(),
        Said::TerrainTiles(Tiles::Faded) => "Terrain: tiles faded".to_owned(),
        Said::TerrainTiles(Tiles::Hidden) => "Terrain: tiles hidden, their rules still apply".to_owned(),
        Said::FinishTheStepFirst => "Finish the move, its reactions or the stroke first".to_owned(),
        Said::NothingTo { redo } => if *redo { "Nothing to redo" } else { "Nothing to undo" }.to_owned(),
        Said::Undid { redo, left } => {
            let word = if *redo { "Redid" } else { "Undid" };
            format!("{word} the last change ({left} more; the dice and the roll log stay as rolled)")
        }
        Said::EditorOpen => "Map editor: Ctrl+E or Done goes back to play".to_owned(),
        Said::BackToPlay => "Back to play".to_owned(),
        Said::EditRefused(error) => format!("Refused: {error}"),
        Said::Edited(edited) => edited_words(edited),
        Said::CantMove { who, why } => format!("{who} can't move: {}", not_now(why, false)),
        Said::CantMoveTo { who, to, why } => {
            let why = why.as_ref().map_or_else(|| "unreachable".to_owned(), ToString::to_string);
            format!("{who} can't move to {to}: {why}")
        }
        Said::Stays { who, at } => format!("{who} stays at {at}"),
        Said::Moved { who, feet, dashed, squeezing, left } => {
            let dash = if *dashed { " with a Dash" } else { "" };
            let squeezing = if *squeezing { ", squeezing" } else { "" };
            format!("{who} moved {feet} ft{dash}{squeezing}; {left} ft left")
        }
        Said::MovedBy { who, feet } => format!("{who} moved {feet} ft, not with its own movement"),
        Said::ByTheDm(what) => format!("The DM moves a creature out of its turn: {}", said(what)),
        Said::LeavingReach { mover, reactors, at } => {
            format!(
                "{mover} is leaving the reach of {} at {at}: an opportunity attack may interrupt",
                reactors.join(" and ")
            )
        }
        Said::LetsGo { reactor, mover } => format!("{reactor} lets {mover} go"),
        Said::HoldsReadied { who } => format!("{who} holds the readied action"),
        Said::ReleasesSpell { who, spell } => format!("{who} releases {spell}, its readied spell"),
        Said::ReadiedFires { who, what } => format!("{who}'s readied action fires: {what}"),
        Said::ReadiedAttackWaits { who } => format!("{who}'s readied attack fires when its trigger moves"),
        Said::NothingReadied { who } => format!("{who} has nothing readied"),
        Said::Gone { who } => format!("{who} is gone"),
        Said::DropsAndStops { who } => format!("{who} drops and stops"),
        Said::SpeedZeroStops { who } => format!("{who}'s speed is 0: it stops"),
        Said::AnswerTheReactionFirst => "Answer the reaction first".to_owned(),
        Said::Several(all) => all.iter().map(said).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(". "),
        Said::TurnWaitsForReaction => "Answer the reaction first: the turn can't change while it waits".to_owned(),
        Said::TurnStarts { round, who, speed } => format!("Round {round}: {who}'s turn, {speed} ft of movement"),
        Said::Delays { who, then } => format!("{who} delays. {}", said(then)),
        Said::CantDelay(why) => cant_delay(why),
        Said::Joins { who, initiative } => format!("{who} joins the fight with initiative {initiative}"),
        Said::LeavesOrder { who } => format!("{who} leaves the initiative order"),
        Said::KeptFromPlayers { who, kept } => {
            if *kept {
                format!("{who} is kept from the players")
            } else {
                format!("{who} is shown to the players")
            }
        }
        Said::MoveTakenBack { who, to, left } => format!("Took back {who}'s move to {to}: {left} ft left"),
        Said::HasItsOwnButton(action) => format!("{} has its own button on the card", action.name()),
        Said::NotNow(why) => not_now(why, true),
        Said::Acts { who, action, bonus, left } => acts(who, *action, *bonus, *left),
        Said::Interacts { who, with_action } => {
            if *with_action {
                format!("{who} uses an object with its action")
            } else {
                format!("{who} interacts with an object (its free interaction)")
            }
        }
        Said::Readies { who, words } => format!("{who} readies: {words}"),
        Said::Dice(error) => error.to_string(),
        Said::Effect { who, reason } => format!("{who}: {}", crate::ui::log::roll_reason(reason)),
        Said::Coated { poison: Some(poison) } => {
            format!("the weapon is coated with {}: its next hit delivers it", poison.name().to_lowercase())
        }
        Said::Coated { poison: None } => "the poison is wiped off the weapon".to_owned(),
        Said::EffectRefused(error) => format!("that effect can't be given: {error}"),
        Said::InspirationGiven { who } => format!("{who} has inspiration"),
        Said::InspirationSpent { who } => {
            format!("{who} spends inspiration: advantage on the next ability check, attack roll or save")
        }
        Said::AttackPicked { who, attack } => {
            format!("{who}: {attack} picked. Hover a target to see the ruling, click to attack")
        }
        Said::WeaponFiresThroughCrew { weapon } => format!(
            "{weapon} can't attack alone: a siege weapon fires through its crew: select a creature beside it and use its card"
        ),
        Said::CantAttack { who, why } => format!("{who} can't attack: {why}"),
        Said::AttackNotRolled { who, error } => format!("{who}'s attack can't be rolled: {error}"),
        Said::CantAttackNow { who, why } => format!("{who} can't attack: {}", not_now(why, false)),
        Said::Attacked { attacker, target, attack, how, roll, taken, revealed } => {
            let mut text = match how {
                AttackOccasion::Attack => format!("{attacker} attacks {target} with {attack}: {}", roll.describe()),
                AttackOccasion::Opportunity => {
                    format!("{attacker}'s opportunity attack on {target} with {attack}: {}", roll.describe())
                }
                AttackOccasion::Readied => {
                    format!("{attacker}'s readied attack on {target} with {attack}: {}", roll.describe())
                }
            };
            if let Some(taken) = taken {
                text = format!("{text}; {target} {}", taken.describe());
            }
            if *revealed {
                text = format!("{text}; {attacker} is no longer hidden");
            }
            text
        }
        Said::Damaged { who, taken } => format!("{who} {}", taken.describe()),
        Said::Healed { who, regained } => format!("{who} regains {regained} hit points"),
        Said::TempHp { who, now } => format!("{who} has {now} temporary hit points"),
        Said::ConditionSet { who, condition, on } => {
            format!("{who} {} {}", if *on { "is now" } else { "is no longer" }, condition.name())
        }
        Said::ImmuneToCondition { who, condition } => {
            format!("{who} is immune to being {} (its stat block's condition immunities)", condition.name())
        }
        Said::Exhaustion { who, level } => format!("{who} has exhaustion {level}"),
        Said::NotDying { who } => format!("{who} isn't dying"),
        Said::DeathSaved { who, save, successes, failures, life } => {
            let said = save.map_or("", |s| s.word());
            format!("{who}: {said} ({successes} successes, {failures} failures; {})", life.word())
        }
        Said::Stabilized { who } => format!("{who} is stable"),
        Said::FacesNoWay { who } => format!("{who} faces no way (give it `facing` in the scene)"),
        Said::CantTurn { who, why } => match why {
            CantTurn::NobodyMoved => {
                format!("{who} can turn out of its turn only as a reaction when another creature moves")
            }
            CantTurn::NoReaction(error) => format!("{who} can't turn: {error}"),
        },
        Said::Turned { who, facing, reaction } => {
            let how = if *reaction { " (its reaction)" } else { "" };
            format!("{who} faces {facing:?}{how}")
        }
        Said::Dodging { who, on } => {
            if *on {
                format!("{who} takes the Dodge action")
            } else {
                format!("{who} stops dodging")
            }
        }
        Said::CantStand { who, why } => match why {
            StandError::NotEnoughMovement { cost, left } => {
                format!("{who} needs {cost} ft to stand and has {left} ft left")
            }
            StandError::NotProne => format!("{who} isn't prone"),
            StandError::SpeedZero { .. } => format!("{who} stays prone: {why}"),
        },
        Said::StoodUp { who, cost } => format!("{who} stands up for {cost} ft"),
        Said::CantHelp { who, why } => format!("{who} can't help: {why}"),
        Said::Helps { helper, ally, target } => {
            format!("{helper} helps {ally}: its next attack on {target} has advantage")
        }
        Said::CantHide { who, seen_by } => format!("{who} can't hide: {} can see it clearly", seen_by.join(", ")),
        Said::Hides { who, stealth } => match stealth {
            Some(stealth) => format!("{who} hides (Stealth {stealth})"),
            None => format!("{who} hides"),
        },
        Said::FailsToHide { who, noticed_by, numbers } => match numbers {
            Some((stealth, against)) => {
                format!("{who} fails to hide: Stealth {stealth} against {noticed_by}'s passive Perception {against}")
            }
            None => format!("{who} fails to hide from {noticed_by}"),
        },
        Said::Searched { who, found } => {
            if found.is_empty() {
                format!("{who} searches and finds no one")
            } else {
                format!("{who} searches and finds {}", found.join(", "))
            }
        }
        Said::SavesRolled { lines } => {
            if lines.is_empty() {
                "No creature is inside".to_owned()
            } else {
                save_lines(lines)
            }
        }
        Said::CantWork { who, weapon, why } => format!("{who} can't work {weapon}: {}", cant_work(why)),
        Said::Worked { who, weapon, verb, state } => format!("{who} takes an action to {verb} {weapon}: it is {state}"),
        Said::LetsGoOf { who, weapon } => format!("{who} lets go of {weapon}"),
        Said::Mans { who, weapon } => format!("{who} mans {weapon}: hover a target to see the ruling, click to fire"),
        Said::Tipped { who, weapon, lines } => {
            let outcome = if lines.is_empty() { "nobody is below".to_owned() } else { save_lines(lines) };
            format!("{who} tips {weapon}: {outcome}")
        }
        Said::CantPush { weapon, to, why } => cant_push(weapon, *to, why),
        Said::DmMovedWeapon { weapon, to } => format!("The DM moves {weapon} to {to}"),
        Said::Pushed { pushers, weapon, feet, each } => {
            format!("{} push {weapon} {feet} ft (each pays {each} ft)", pushers.join(", "))
        }
        Said::Chase(error) => error.to_string(),
    }
}

/// Why a creature can't act now; with its name (`named`) where the sentence doesn't already
/// start with it.
fn not_now(why: &NotNow, named: bool) -> String {
    match why {
        NotNow::ReactionWaiting => "a reaction is waiting for an answer".to_owned(),
        NotNow::NotItsTurn { who } if named => {
            format!("it is not {who}'s turn: out of its turn a creature acts only with its reaction")
        }
        NotNow::NotItsTurn { who } => format!(
            "it is not {who}'s turn: out of its turn a creature acts only with its reaction (hold Shift to move it as the DM)"
        ),
        NotNow::Spent { who, error } if named => format!("{who}: {error}"),
        NotNow::Spent { error, .. } => error.to_string(),
    }
}

fn acts(who: &str, action: Action, bonus: bool, left: u32) -> String {
    let by = if bonus { " as a bonus action" } else { "" };
    match action {
        Action::Dash => format!("{who} takes the Dash action{by}: {left} ft left"),
        Action::Dodge => format!("{who} takes the Dodge action{by}: attacks against it have disadvantage"),
        Action::Disengage => {
            format!("{who} takes the Disengage action{by}: its movement provokes no opportunity attacks this turn")
        }
        other => format!("{who} takes the {} action{by}", other.name()),
    }
}

fn cant_delay(why: &CantDelay) -> String {
    match why {
        CantDelay::NoFight => "no fight runs: Next turn rolls initiative".to_owned(),
        CantDelay::StartedByHand { who } => {
            format!("{who}'s turn was started by hand, outside the initiative order: it can't delay")
        }
        CantDelay::AlreadyActed { who } => format!("{who} has already moved or acted this turn: it can't delay now"),
        CantDelay::Last { who } => format!("{who} is last in the round: nobody to wait for"),
        CantDelay::NextIsGone => "the next creature is gone".to_owned(),
    }
}

fn edited_words(edited: &Edited) -> String {
    match edited {
        Edited::Filled { cells, refused: Some(refused) } => format!("Filled {cells} cells ({refused})"),
        Edited::Filled { cells, refused: None } => format!("Filled {cells} cells"),
        Edited::Added { id } => format!("Added {id}: fill in its statistics in the editor"),
        Edited::AddedMonster { id, name } => format!("Added {name} ({id}) from the SRD bestiary"),
        Edited::Placed { id, anchor } => format!("Placed {id} at {anchor}"),
        Edited::Resized { width, height } => format!("The map is {width} by {height} cells"),
        Edited::Grid { name, warnings } => {
            let mut text = format!("The map is on a {name} grid");
            for warning in warnings {
                text.push_str(&format!("; {warning}"));
            }
            text
        }
        Edited::Duplicated { copy, of } => format!("Added {copy}, a copy of {of}"),
        Edited::Deleted { id, warning: Some(warning) } => format!("Deleted {id}; {warning}"),
        Edited::Deleted { id, warning: None } => format!("Deleted {id}"),
        Edited::Background { on: true } => "The map image under the grid is set".to_owned(),
        Edited::Background { on: false } => "The map image under the grid is taken away".to_owned(),
        Edited::Changed { name } => format!("Changed {name}"),
        Edited::Seated { name, seat: Some(edge) } => format!("{name}'s player sits at {}", seat_words(*edge)),
        Edited::Seated { name, seat: None } => format!("{name}'s player has no seat"),
    }
}

/// Each creature's save in a few words: `Brom fails (12), Lia saves (6)`.
fn save_lines(lines: &[SaveLine]) -> String {
    lines
        .iter()
        .map(|l| match (&l.note, l.rolled) {
            (Some(note), false) if l.success => format!("{} {note}", l.name),
            (Some(note), false) => format!("{} fails ({}: {note})", l.name, l.taken),
            _ => format!("{} {} ({})", l.name, if l.success { "saves" } else { "fails" }, l.taken),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn cant_work(why: &CantWork) -> String {
    match why {
        CantWork::Siege(error) => error.to_string(),
        CantWork::NotNow(why) => not_now(why, true),
        CantWork::NeedsTarget => {
            "firing needs a target: use the weapon's fire button, then click the target".to_owned()
        }
        CantWork::NoAttack => "it has no attack".to_owned(),
        CantWork::NoSuchWeapon => "no such creature or weapon".to_owned(),
    }
}

fn cant_push(weapon: &str, to: crate::rules::Cell, why: &CantPush) -> String {
    let reason = match why {
        CantPush::NotTheirTurn => {
            return format!(
                "{weapon} can't be pushed now: push it on the turn of one of its pushers (or hold Shift to move it as the DM)"
            );
        }
        CantPush::Push(error) => error.to_string(),
    };
    format!("{weapon} can't be pushed to {to}: {reason}")
}

/// The cover ruling beside the cursor: `Thug: half cover: +2 AC and Dex saves`.
pub fn cover_label(degree: CoverDegree, sight: bool, target: &str) -> String {
    let sight = if sight { "" } else { " · no line of sight" };
    format!("{target}: {}{sight}", degree.label())
}

/// One crew member's step on a siege weapon of `kind`, for the weapon's card: `Brom loaded`,
/// `Soldier rammed`.
pub fn crew_step(kind: crate::rules::siege::SiegeKind, step: &CrewStep) -> String {
    let past = match kind.verb(step.step) {
        "tip" => "tipped".to_owned(),
        "ram" => "rammed".to_owned(),
        "fire" => "fired".to_owned(),
        verb => format!("{verb}ed"),
    };
    format!("{} {past}", step.who)
}

/// A drag's path beside the cursor: its cost, the Dash the drop takes (in a fight), squeezing.
pub fn drag_path(feet: u32, dash: Option<Slot>, squeezing: bool) -> String {
    let dash = match dash {
        Some(Slot::Action) => " · the drop takes the Dash action",
        Some(Slot::BonusAction) => " · the drop takes the Dash (as a bonus action)",
        None => "",
    };
    let squeezing = if squeezing { " · squeezing" } else { "" };
    format!("{feet} ft{dash}{squeezing}")
}

/// Why a dragged token can't go where the cursor is, beside the cursor.
pub fn drag_refusal(why: &DragRefusal) -> String {
    match why {
        DragRefusal::Move(Some(error)) => error.to_string(),
        DragRefusal::Move(None) => "unreachable".to_owned(),
        DragRefusal::Push(error) => error.to_string(),
        DragRefusal::Unmovable => "this token does not move".to_owned(),
    }
}

/// An object icon's name, for the legend.
pub fn object_icon_name(icon: crate::scenario::ObjectIcon) -> &'static str {
    use crate::scenario::ObjectIcon;
    match icon {
        ObjectIcon::Gate => "gate",
        ObjectIcon::WallSection => "wall section",
        ObjectIcon::Barrel => "barrel",
        ObjectIcon::Crate => "crate",
    }
}

/// An edge of the table, as a seat is named: "the north edge".
pub fn seat_words(edge: crate::scenario::TableEdge) -> &'static str {
    use crate::scenario::TableEdge;
    match edge {
        TableEdge::South => "the south edge",
        TableEdge::North => "the north edge",
        TableEdge::East => "the east edge",
        TableEdge::West => "the west edge",
    }
}
