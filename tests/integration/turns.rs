//! Turns and reactions without a window: the action economy, opportunity attacks that interrupt a
//! move (and the move going on, or stopping), readied actions after their trigger, and initiative.

use bevy::prelude::*;

use battlemap::app::core::components::{Actions, HitPoints, OutOfView, Position, TurnMoves};
use battlemap::app::core::dice::RollRecord;
use battlemap::app::core::layout::MapLayout;
use battlemap::app::core::messages::{
    AttackHow, AttackRequest, AudienceRequest, FightRequest, MoveToken, ReactionAnswer, SelectToken, TurnRequest,
};
use battlemap::app::core::notice::{CantDelay, NotNow, Said};
use battlemap::app::core::pointer::PointerOnMap;
use battlemap::app::core::state::{Reactions, Selection};
use battlemap::app::core::turns::Turns;
use battlemap::app::features::fight::AttackPreview;
use battlemap::rules::Cell;
use battlemap::rules::conditions::Condition;
use battlemap::rules::dice::RollMode;
use battlemap::rules::economy::{Action, Economy, EconomyError, Readied, Response, Trigger};
use battlemap::rules::fight::StandError;
use battlemap::rules::fight::actions::CantTurn;
use battlemap::rules::log::{AttackOccasion, LogEntry, RollReason};

use super::headless::{app_with, entity_of, notice, said};

fn send(app: &mut App, message: impl Message) {
    app.world_mut().write_message(message);
    app.update();
}

fn at(app: &App, entity: Entity) -> Cell {
    app.world().get::<Position>(entity).expect("a position").0
}

fn log(app: &App) -> Vec<LogEntry> {
    app.world().resource::<RollRecord>().0.entries.clone()
}

/// The tavern with Brom placed beside the thug at (6, 8) before the fight, and Brom's turn begun:
/// walking west from (5, 7) leaves the thug's reach at once.
fn brom_beside_the_thug() -> (App, Entity, Entity) {
    let mut app = app_with("scenes/tavern_brawl.ron");
    let (brom, thug) = (entity_of(&mut app, "brom"), entity_of(&mut app, "thug-1"));
    send(&mut app, MoveToken::new(brom, Cell::new(5, 7)));
    assert_eq!(at(&app, brom), Cell::new(5, 7));
    send(&mut app, TurnRequest::StartTurn(brom));
    (app, brom, thug)
}

/// A scripted round under a fixed seed: Lia readies a shortbow shot for when the thug moves; Brom
/// walks away from the thug, which interrupts him with an opportunity attack before he leaves
/// his cell, and the move goes on; on the thug's turn its reaction is back, it moves, and Lia's
/// readied shot comes after the move. The same seed plays the same round.
#[test]
fn a_scripted_round_with_an_opportunity_attack_and_a_readied_action() {
    let play = || {
        let (mut app, brom, thug) = brom_beside_the_thug();
        let lia = entity_of(&mut app, "lia");
        send(&mut app, TurnRequest::StartTurn(lia));
        let readied =
            Readied { trigger: Trigger::Moves(Some("thug-1".into())), response: Response::Attack("Shortbow".into()) };
        send(&mut app, TurnRequest::Ready(lia, readied.clone()));
        assert_eq!(app.world().get::<Actions>(lia).and_then(|a| a.0.readied.clone()), Some(readied));

        send(&mut app, TurnRequest::StartTurn(brom));
        let hp_before = app.world().get::<HitPoints>(brom).expect("hp").0.hp;
        send(&mut app, MoveToken::new(brom, Cell::new(2, 7)));
        let waiting = app.world().resource::<Reactions>().interrupted.clone().expect("the move is interrupted");
        assert_eq!(at(&app, brom), Cell::new(5, 7), "the attack comes before he leaves the cell");
        assert_eq!(waiting.offers.front().map(|o| o.reactor.as_str()), Some("thug-1"));
        send(&mut app, MoveToken::new(brom, Cell::new(3, 5)));
        assert!(matches!(said(&app), Some(Said::CantMove { why: NotNow::ReactionWaiting, .. })), "{}", notice(&app));

        let logged = log(&app).len();
        send(&mut app, ReactionAnswer::Opportunity { attack: true });
        assert_eq!(at(&app, brom), Cell::new(2, 7), "the move goes on after the attack");
        assert!(app.world().resource::<Reactions>().interrupted.is_none());
        assert!(app.world().get::<Actions>(thug).is_some_and(|a| a.0.reaction_used), "one reaction a round");
        let new = app.world().resource::<RollRecord>().0.entries[logged..].to_vec();
        assert!(
            matches!(&new[0].reason, RollReason::Attack { attack: Some(a), how: AttackOccasion::Opportunity, target, .. }
                if a == "Mace" && target == "Brom"),
            "{new:?}"
        );
        let damage: i32 = new
            .iter()
            .filter(|e| matches!(&e.reason, RollReason::Damage { to: Some(to), .. } if to == "Brom"))
            .map(|e| e.roll.total)
            .sum();
        assert_eq!(app.world().get::<HitPoints>(brom).expect("hp").0.hp, hp_before - damage);
        assert_eq!(app.world().get::<TurnMoves>(brom).map(|m| m.turn.spent), Some(15), "the whole walk paid");
        let undoable = app.world().get::<TurnMoves>(brom).map(|m| m.turn.moves.len());
        assert_eq!(undoable, Some(0), "a move an attack interrupted can't be taken back, not even its rest");

        send(&mut app, TurnRequest::StartTurn(thug));
        assert!(app.world().get::<Actions>(thug).is_some_and(|a| !a.0.reaction_used), "restored at its turn");
        send(&mut app, MoveToken::new(thug, Cell::new(9, 8)));
        assert_eq!(at(&app, thug), Cell::new(9, 8), "the readied shot waits for the move to finish");
        let offer = app.world().resource::<Reactions>().readied.front().cloned().expect("Lia's readied shot");
        assert_eq!((offer.reactor, offer.trigger), (lia, thug));
        let logged = log(&app).len();
        send(&mut app, ReactionAnswer::Readied { fire: true });
        assert!(
            matches!(&log(&app)[logged].reason, RollReason::Attack { attack: Some(a), how: AttackOccasion::Readied, target, .. }
                if a == "Shortbow" && target == "Thug"),
            "{:?}",
            &log(&app)[logged..]
        );
        let lia_turn = app.world().get::<Actions>(lia).expect("actions").0.clone();
        assert!(lia_turn.reaction_used && lia_turn.readied.is_none(), "spent when it fires");
        log(&app)
    };
    assert_eq!(play(), play(), "the same seed replays the same round");
}

/// After a reaction prompt is answered, the creature whose turn it is stays selected (so the
/// number keys and `A` act for it at once).
#[test]
fn the_mover_stays_selected_after_a_reaction_is_answered() {
    let (mut app, brom, _) = brom_beside_the_thug();
    send(&mut app, SelectToken(Some("brom".into())));
    assert_eq!(app.world().resource::<Selection>().0, Some(brom));
    send(&mut app, MoveToken::new(brom, Cell::new(2, 7)));
    assert!(app.world().resource::<Reactions>().interrupted.is_some(), "the thug's opportunity attack waits");
    send(&mut app, ReactionAnswer::Opportunity { attack: true });
    app.update();
    assert_eq!(app.world().resource::<Selection>().0, Some(brom), "still Brom's turn, still Brom selected");
}

/// PHB "Dash": the action, once a turn; a second Dash is refused with the reason, and the drag's
/// Dash (a move that needs it) is refused too once the action is spent.
#[test]
fn a_second_dash_is_refused() {
    let (mut app, brom, _) = brom_beside_the_thug();
    send(&mut app, TurnRequest::Act(brom, Action::Dash));
    send(&mut app, TurnRequest::Act(brom, Action::Dash));
    let spent_on_dash = |said: Option<Said>| matches!(said, Some(Said::NotNow(NotNow::Spent { error: EconomyError::ActionSpent { spent_on, .. }, .. })) if spent_on == "Dash");
    assert!(spent_on_dash(said(&app)), "{}", notice(&app));
    assert_eq!(app.world().get::<TurnMoves>(brom).map(|m| (m.turn.dashes, m.turn.left())), Some((1, 50)));
    send(&mut app, TurnRequest::Act(brom, Action::Dodge));
    assert!(spent_on_dash(said(&app)), "{}", notice(&app));
}

/// The attack card says before the click what the click would be refused for: after the Attack
/// action's one attack, no attack is left, in the refusal's own words (`Turns::may_attack`).
#[test]
fn the_attack_card_says_no_attack_is_left_before_the_click() {
    let (mut app, brom, thug) = brom_beside_the_thug();
    send(&mut app, SelectToken(Some("brom".into())));
    send(&mut app, FightRequest::PickAttack { attacker: brom, attack: Some("Longsword".into()), weapon: None });
    let cell = at(&app, thug);
    let world = app.world().resource::<MapLayout>().0.world(cell);
    let mut pointer = app.world_mut().resource_mut::<PointerOnMap>();
    (pointer.world, pointer.cell) = (Some(world), Some(cell));
    app.update();
    let card = |app: &App| {
        let card = app.world().resource::<AttackPreview>().0.clone().expect("the card on the thug");
        battlemap::ui::attack_card_lines(&card.shooter, &card.target_name, &card.ruling, &card.now)
    };
    let (lines, allowed) = card(&app);
    assert!(allowed && lines.last().is_some_and(|l| l == "Click to attack"), "{lines:?}");
    let swing = AttackRequest { attacker: brom, target: thug, attack: "Longsword".into(), how: AttackHow::Action };
    send(&mut app, swing.clone());
    let (lines, allowed) = card(&app);
    let no_attack_left = "Brom can't attack: no attack is left this turn (the Attack action is spent)";
    assert!(!allowed && lines.last().is_some_and(|l| l == no_attack_left), "{lines:?}");
    send(&mut app, swing);
    assert_eq!(notice(&app), no_attack_left, "the click is refused as the card said");
}

/// Outside a fight there is no turn and no action to spend: a drop beyond the creature's speed
/// goes where the terrain lets it and takes no Dash, and so does a longer one after it.
#[test]
fn outside_a_fight_a_long_move_takes_no_dash() {
    let mut app = app_with("scenes/tavern_brawl.ron");
    let lia = entity_of(&mut app, "lia");
    for to in [Cell::new(7, 7), Cell::new(4, 7), Cell::new(10, 7)] {
        send(&mut app, MoveToken::new(lia, to));
        assert_eq!(at(&app, lia), to, "{}", notice(&app));
    }
    assert_eq!(app.world().get::<Actions>(lia).map(|a| a.0.clone()), Some(Economy::default()), "no Dash");
    assert_eq!(app.world().get::<TurnMoves>(lia).map(|m| m.turn.dashes), Some(0));
}

/// PHB "Disengage": the move away provokes nothing.
#[test]
fn disengage_stops_opportunity_attacks() {
    let (mut app, brom, _) = brom_beside_the_thug();
    send(&mut app, TurnRequest::Act(brom, Action::Disengage));
    send(&mut app, MoveToken::new(brom, Cell::new(2, 7)));
    assert!(app.world().resource::<Reactions>().interrupted.is_none());
    assert_eq!(at(&app, brom), Cell::new(2, 7));
}

/// The move stops where it was interrupted when the mover is dropped to 0 hit points or its
/// speed becomes 0 before it goes on.
#[test]
fn a_dropped_or_grappled_mover_stops() {
    for stop in [
        FightRequest::Damage { target: Entity::PLACEHOLDER, amount: 40 },
        FightRequest::Condition { target: Entity::PLACEHOLDER, condition: Condition::Grappled, on: true },
    ] {
        let (mut app, brom, _) = brom_beside_the_thug();
        send(&mut app, MoveToken::new(brom, Cell::new(2, 7)));
        assert!(app.world().resource::<Reactions>().interrupted.is_some());
        let stop = match stop.clone() {
            FightRequest::Damage { amount, .. } => FightRequest::Damage { target: brom, amount },
            FightRequest::Condition { condition, on, .. } => FightRequest::Condition { target: brom, condition, on },
            other => other,
        };
        send(&mut app, stop);
        send(&mut app, ReactionAnswer::Opportunity { attack: false });
        assert_eq!(at(&app, brom), Cell::new(5, 7), "{}", notice(&app));
        assert!(app.world().resource::<Reactions>().interrupted.is_none());
        let stopped = match said(&app) {
            Some(Said::Several(all)) => {
                matches!(all.last(), Some(Said::DropsAndStops { .. } | Said::SpeedZeroStops { .. }))
            }
            _ => false,
        };
        assert!(stopped, "{}", notice(&app));
    }
}

/// While a fight runs only the creature whose turn it is moves; the DM's move (Shift) is allowed,
/// logged in the notice, and provokes nothing.
#[test]
fn only_the_creature_whose_turn_it_is_moves() {
    let (mut app, _, thug) = brom_beside_the_thug();
    send(&mut app, MoveToken::new(thug, Cell::new(7, 8)));
    assert_eq!(at(&app, thug), Cell::new(6, 8));
    let not_its_turn =
        matches!(said(&app), Some(Said::CantMove { why: NotNow::NotItsTurn { who }, .. }) if who == "Thug");
    assert!(not_its_turn, "{}", notice(&app));
    send(&mut app, MoveToken { by_dm: true, ..MoveToken::new(thug, Cell::new(7, 8)) });
    assert_eq!(at(&app, thug), Cell::new(7, 8));
    let by_the_dm = match said(&app) {
        Some(Said::ByTheDm(inner)) => matches!(*inner, Said::MovedBy { ref who, feet: 5 } if who == "Thug"),
        _ => false,
    };
    assert!(by_the_dm, "{}", notice(&app));
    assert!(app.world().resource::<Reactions>().interrupted.is_none());
}

/// Initiative in a running fight: delaying before acting, a creature joining and leaving, and an
/// entry kept from the players.
#[test]
fn initiative_delays_joins_leaves_and_hides() {
    let mut app = app_with("scenes/tavern_brawl.ron");
    send(&mut app, TurnRequest::NextTurn);
    let order = |app: &App| -> Vec<String> {
        app.world().resource::<Turns>().order.entries.iter().map(|e| e.id.clone()).collect()
    };
    let before = order(&app);
    let (first, second) = (entity_of(&mut app, &before[0]), entity_of(&mut app, &before[1]));
    send(&mut app, TurnRequest::Delay);
    assert_eq!(app.world().resource::<Turns>().active, Some(second), "the next one acts now");
    assert_eq!(order(&app)[1], before[0], "the delayer acts right after it");
    send(&mut app, TurnRequest::NextTurn);
    assert_eq!(app.world().resource::<Turns>().active, Some(first));
    send(&mut app, TurnRequest::Act(first, Action::Dodge));
    send(&mut app, TurnRequest::Delay);
    assert!(matches!(said(&app), Some(Said::CantDelay(CantDelay::AlreadyActed { .. }))), "{}", notice(&app));

    let captain = entity_of(&mut app, "captain");
    send(&mut app, TurnRequest::Leave(captain));
    assert!(!order(&app).contains(&"captain".to_owned()));
    send(&mut app, TurnRequest::Join(captain));
    assert!(order(&app).contains(&"captain".to_owned()));
    assert!(log(&app).last().is_some_and(|l| l.reason == RollReason::Initiative));
    send(&mut app, TurnRequest::Secret(captain, true));
    let hidden = app.world().resource::<Turns>().order.entry("captain").is_some_and(|e| e.hidden);
    assert!(hidden, "kept from the players");
    app.update();
    assert!(app.world().get::<OutOfView>(captain).is_some(), "not drawn for the players");
    send(&mut app, AudienceRequest { dm: true });
    app.update();
    assert!(app.world().get::<OutOfView>(captain).is_none(), "the DM sees it");
}

/// A move that needs a Dash and is interrupted at its first cell keeps the Dash's movement: the
/// rest of the walk is paid from it.
#[test]
fn a_dashed_move_interrupted_at_once_keeps_its_dash() {
    let (mut app, brom, _) = brom_beside_the_thug();
    send(&mut app, MoveToken::new(brom, Cell::new(3, 1)));
    assert!(app.world().resource::<Reactions>().interrupted.is_some(), "{}", notice(&app));
    send(&mut app, ReactionAnswer::Opportunity { attack: false });
    assert_eq!(at(&app, brom), Cell::new(3, 1), "{}", notice(&app));
    let turn = app.world().get::<TurnMoves>(brom).expect("moves").turn.clone();
    assert_eq!((turn.dashes, turn.spent, turn.left()), (1, 30, 20));
}

/// A readied spell, with a trigger in the player's words, fired by the DM's hand: it takes the
/// reaction; and the turn can't pass while a reaction waits.
#[test]
fn the_dm_fires_a_readied_spell_and_turns_wait_for_reactions() {
    let (mut app, brom, thug) = brom_beside_the_thug();
    let lia = entity_of(&mut app, "lia");
    send(&mut app, TurnRequest::StartTurn(lia));
    let bless = Readied { trigger: Trigger::Other("the door opens".into()), response: Response::Spell("bless".into()) };
    send(&mut app, TurnRequest::Ready(lia, bless));
    send(&mut app, ReactionAnswer::FireByHand(lia));
    assert!(matches!(said(&app), Some(Said::ReleasesSpell { spell, .. }) if spell == "bless"), "{}", notice(&app));
    assert!(app.world().get::<Actions>(lia).is_some_and(|a| a.0.reaction_used && a.0.readied.is_none()));

    send(&mut app, TurnRequest::StartTurn(brom));
    send(&mut app, MoveToken::new(brom, Cell::new(2, 7)));
    send(&mut app, TurnRequest::StartTurn(thug));
    assert_eq!(said(&app), Some(Said::TurnWaitsForReaction), "{}", notice(&app));
    assert_eq!(app.world().resource::<Turns>().active, Some(brom));
}

/// Help, Hide and Search from the app: Help marks the ally's next attack; Hide is refused in plain
/// sight and rolled out of it (the roll logged); Search rolls Perception and, beating the Stealth
/// total, finds the hider.
#[test]
fn help_hide_and_search_spend_the_action_and_rule_on_the_board() {
    use battlemap::app::core::components::Combatant;
    let (mut app, brom, thug) = brom_beside_the_thug();
    let lia = entity_of(&mut app, "lia");
    send(&mut app, FightRequest::Help { helper: brom, ally: lia, target: thug });
    let lia_fight = app.world().get::<Combatant>(lia).expect("combatant").clone();
    assert_eq!(lia_fight.helped_against.as_deref(), Some("thug-1"), "{}", notice(&app));
    assert!(app.world().get::<Actions>(brom).is_some_and(|a| a.0.action_used()), "Help is his action");

    send(&mut app, TurnRequest::StartTurn(lia));
    send(&mut app, FightRequest::Hide { who: lia });
    assert!(matches!(said(&app), Some(Said::CantHide { .. })), "in plain sight: {}", notice(&app));
    for enemy in ["thug-1", "thug-2", "captain"] {
        let target = entity_of(&mut app, enemy);
        send(&mut app, FightRequest::Condition { target, condition: Condition::Blinded, on: true });
    }
    send(&mut app, FightRequest::Hide { who: lia });
    assert!(log(&app).last().is_some_and(|l| matches!(l.reason, RollReason::Hide { .. })), "{:?}", log(&app));
    let hidden = app.world().get::<Combatant>(lia).and_then(|c| c.hidden);
    let hid = matches!(said(&app), Some(Said::Hides { who, .. }) if who == "Lia");
    assert_eq!(hidden.is_some(), hid, "{}", notice(&app));

    send(&mut app, FightRequest::Condition { target: thug, condition: Condition::Blinded, on: false });
    send(&mut app, TurnRequest::StartTurn(thug));
    send(&mut app, FightRequest::Search { who: thug });
    let search = app.world().resource::<RollRecord>().0.entries.last().cloned().expect("the search roll");
    assert!(matches!(search.reason, RollReason::Search { .. }), "{search:?}");
    let found = hidden.is_some_and(|stealth| search.roll.total > stealth);
    assert_eq!(app.world().get::<Combatant>(lia).and_then(|c| c.hidden).is_none(), hidden.is_none() || found);
}

/// Facing as a reaction (DMG "Optional Rule: Facing"): out of its turn Brom turns only after
/// another creature has moved, and only once (his reaction); Dodge ends when his turn starts.
#[test]
fn turning_out_of_turn_takes_the_reaction_and_dodge_ends_at_the_next_turn() {
    use battlemap::app::core::components::{Combatant, Facing};
    let (mut app, brom, _) = brom_beside_the_thug();
    send(&mut app, TurnRequest::Act(brom, Action::Dodge));
    assert!(app.world().get::<Combatant>(brom).is_some_and(|c| c.dodging));
    let lia = entity_of(&mut app, "lia");
    send(&mut app, TurnRequest::StartTurn(lia));
    let facing = |app: &App| app.world().get::<Facing>(brom).map(|f| f.0);
    let before = facing(&app);
    send(&mut app, FightRequest::Turn { target: brom, clockwise: true });
    assert!(matches!(said(&app), Some(Said::CantTurn { why: CantTurn::NobodyMoved, .. })), "{}", notice(&app));
    assert_eq!(facing(&app), before);
    send(&mut app, MoveToken::new(lia, Cell::new(7, 5)));
    send(&mut app, FightRequest::Turn { target: brom, clockwise: true });
    assert_ne!(facing(&app), before, "{}", notice(&app));
    assert!(app.world().get::<Actions>(brom).is_some_and(|a| a.0.reaction_used));
    send(&mut app, FightRequest::Turn { target: brom, clockwise: true });
    let spent =
        matches!(said(&app), Some(Said::CantTurn { why: CantTurn::NoReaction(EconomyError::ReactionSpent), .. }));
    assert!(spent, "{}", notice(&app));
    send(&mut app, TurnRequest::StartTurn(brom));
    assert!(app.world().get::<Combatant>(brom).is_some_and(|c| !c.dodging), "Dodge lasts until its next turn");
}

/// PHB appendix A, "Incapacitated": "can't take actions or reactions" (a stunned creature is
/// incapacitated). On the map, Brom stunned in his own turn is refused Dash, Disengage, Dodge, Use
/// an Object, the free object interaction, Ready, Hide and Search with the typed refusal, and
/// spends nothing; out of his turn he can't turn to face as a reaction.
#[test]
fn an_incapacitated_creature_is_refused_its_actions_and_reactions() {
    let (mut app, brom, _) = brom_beside_the_thug();
    send(&mut app, FightRequest::Condition { target: brom, condition: Condition::Stunned, on: true });
    let stunned = EconomyError::Incapacitated { condition: Condition::Stunned };
    let refused = |app: &App| matches!(said(app), Some(Said::NotNow(NotNow::Spent { error, .. })) if error == stunned);
    for action in [Action::Dash, Action::Disengage, Action::Dodge, Action::UseAnObject] {
        send(&mut app, TurnRequest::Act(brom, action));
        assert!(refused(&app), "{action:?}: {}", notice(&app));
    }
    send(&mut app, TurnRequest::Interact(brom));
    assert!(refused(&app), "the object interaction: {}", notice(&app));
    let readied = Readied { trigger: Trigger::Moves(None), response: Response::Other("duck".into()) };
    send(&mut app, TurnRequest::Ready(brom, readied));
    assert!(refused(&app), "Ready: {}", notice(&app));
    for enemy in ["thug-1", "thug-2", "captain"] {
        let target = entity_of(&mut app, enemy);
        send(&mut app, FightRequest::Condition { target, condition: Condition::Blinded, on: true });
    }
    send(&mut app, FightRequest::Hide { who: brom });
    assert!(refused(&app), "Hide, unseen: {}", notice(&app));
    send(&mut app, FightRequest::Search { who: brom });
    assert!(refused(&app), "Search: {}", notice(&app));
    assert_eq!(app.world().get::<Actions>(brom).map(|a| a.0.clone()), Some(Economy::default()), "nothing spent");
    assert!(app.world().get::<battlemap::app::core::components::Combatant>(brom).is_some_and(|c| !c.dodging));

    let lia = entity_of(&mut app, "lia");
    send(&mut app, TurnRequest::StartTurn(lia));
    send(&mut app, MoveToken::new(lia, Cell::new(7, 5)));
    send(&mut app, FightRequest::Turn { target: brom, clockwise: true });
    let no_reaction =
        matches!(said(&app), Some(Said::CantTurn { why: CantTurn::NoReaction(error), .. }) if error == stunned);
    assert!(no_reaction, "{}", notice(&app));
}

/// PHB "Initiative": a Dexterity check; appendix A: a poisoned creature, and one with exhaustion,
/// has disadvantage on ability checks. On the map the first Next turn rolls theirs with
/// disadvantage, and everyone else's normally.
#[test]
fn poisoned_and_exhausted_creatures_roll_initiative_with_disadvantage() {
    let mut app = app_with("scenes/tavern_brawl.ron");
    let (brom, lia) = (entity_of(&mut app, "brom"), entity_of(&mut app, "lia"));
    send(&mut app, FightRequest::Condition { target: brom, condition: Condition::Poisoned, on: true });
    send(&mut app, FightRequest::Exhaustion { target: lia, level: 1 });
    send(&mut app, TurnRequest::NextTurn);
    let rolls: Vec<(String, RollMode)> =
        log(&app).iter().filter(|e| e.reason == RollReason::Initiative).map(|e| (e.who.clone(), e.roll.mode)).collect();
    assert_eq!(rolls.len(), 10, "{rolls:?}");
    for (who, mode) in &rolls {
        let hampered = who == "Brom" || who == "Lia";
        assert_eq!(*mode, if hampered { RollMode::Disadvantage } else { RollMode::Normal }, "{who}");
    }
}

/// PHB appendix A, "Exhaustion": level 3 gives saving throws disadvantage, a death saving throw
/// too; "Poisoned": disadvantage on ability checks, Search's Wisdom (Perception) too.
#[test]
fn exhaustion_hampers_death_saves_and_poison_the_search() {
    let (mut app, brom, thug) = brom_beside_the_thug();
    send(&mut app, FightRequest::Exhaustion { target: brom, level: 3 });
    send(&mut app, FightRequest::Damage { target: brom, amount: 40 });
    send(&mut app, FightRequest::DeathSave { target: brom });
    let save = log(&app).last().cloned().expect("the death save");
    assert!(matches!(save.reason, RollReason::DeathSave { .. }), "{save:?}");
    assert_eq!(save.roll.mode, RollMode::Disadvantage);
    send(&mut app, FightRequest::Condition { target: thug, condition: Condition::Poisoned, on: true });
    send(&mut app, TurnRequest::StartTurn(thug));
    send(&mut app, FightRequest::Search { who: thug });
    let search = log(&app).last().cloned().expect("the search roll");
    assert!(matches!(search.reason, RollReason::Search { .. }), "{search:?}");
    assert_eq!(search.roll.mode, RollMode::Disadvantage);
}

/// PHB "Being Prone": "You can't stand up if you don't have enough movement left or if your speed
/// is 0": grappled, Brom stays prone, his movement untouched.
#[test]
fn a_creature_with_speed_0_stays_prone() {
    let (mut app, brom, _) = brom_beside_the_thug();
    for condition in [Condition::Prone, Condition::Grappled] {
        send(&mut app, FightRequest::Condition { target: brom, condition, on: true });
    }
    send(&mut app, FightRequest::StandUp { target: brom });
    let stays = matches!(said(&app), Some(Said::CantStand { why: StandError::SpeedZero { .. }, .. }));
    assert!(stays, "{}", notice(&app));
    let conditions = app.world().get::<battlemap::app::core::components::Combatant>(brom).map(|c| c.conditions.clone());
    assert!(conditions.is_some_and(|c| c.has(Condition::Prone)));
}
