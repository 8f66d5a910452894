//! A creature's turn in a fight: its one action, one bonus action, one free object interaction and
//! one reaction a round, the actions it may take, readied actions, and when reactions happen.
//!
//! PHB "Actions in Combat" (Attack, Dash, Disengage, Dodge, Help, Hide; 004_ebe0798b5689cc3b.txt);
//! DMG "Adjudicating Reaction Timing" (000_8c43542ae10d17a7.txt, 002_ce573f1e51986339.txt). The
//! calls the rules leave open are in `docs/rules.md`, "Turns and reactions". An incapacitated
//! creature "can't take actions or reactions" (PHB appendix A, "Incapacitated"; a bonus action is
//! an action too): every part of the economy refuses it ([`able_to_act`]).

use serde::{Deserialize, Serialize};

use super::conditions::{Condition, Conditions};

/// The actions every creature can take on its turn (PHB "Actions in Combat").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Action {
    Attack,
    Dash,
    Disengage,
    Dodge,
    Help,
    Hide,
    Ready,
    Search,
    UseAnObject,
}

impl Action {
    pub const ALL: [Action; 9] = [
        Action::Attack,
        Action::Dash,
        Action::Disengage,
        Action::Dodge,
        Action::Help,
        Action::Hide,
        Action::Ready,
        Action::Search,
        Action::UseAnObject,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Action::Attack => "Attack",
            Action::Dash => "Dash",
            Action::Disengage => "Disengage",
            Action::Dodge => "Dodge",
            Action::Help => "Help",
            Action::Hide => "Hide",
            Action::Ready => "Ready",
            Action::Search => "Search",
            Action::UseAnObject => "Use an Object",
        }
    }

    /// What it does, for the card's tooltip.
    pub fn effect(self) -> &'static str {
        match self {
            Action::Attack => "Make the creature's attacks (more than one with Extra Attack or Multiattack)",
            Action::Dash => "Extra movement equal to the speed, this turn",
            Action::Disengage => "Movement doesn't provoke opportunity attacks for the rest of the turn",
            Action::Dodge => {
                "Until the start of the next turn: attacks against it have disadvantage (if it sees the attacker), \
                 advantage on Dexterity saves"
            }
            Action::Help => "An ally's next attack on a creature within 5 ft of the helper has advantage",
            Action::Hide => "A Dexterity (Stealth) check to hide, out of sight of the enemies",
            Action::Ready => "Name a trigger and an action: it fires as a reaction after the trigger",
            Action::Search => "A Wisdom (Perception) check to find hidden creatures",
            Action::UseAnObject => "A second object interaction, or an object that needs an action",
        }
    }
}

/// What paid for an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    Action,
    BonusAction,
}

/// What a creature's sheet gives its turns beyond the common actions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnOptions {
    /// Attacks one Attack action makes (Extra Attack, Multiattack): at least 1.
    pub attacks_per_action: u8,
    /// Actions it may take as a bonus action (a rogue's Cunning Action: Dash, Disengage, Hide).
    pub bonus_actions: Vec<Action>,
}

impl TurnOptions {
    pub fn attacks(&self) -> u8 {
        self.attacks_per_action.max(1)
    }

    /// Whether it has anything to spend a bonus action on (PHB "Bonus Actions").
    pub fn has_bonus_actions(&self) -> bool {
        !self.bonus_actions.is_empty()
    }
}

/// Why a part of the turn can't be spent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum EconomyError {
    #[error("the action is spent this turn (on {spent_on}); {action} can't be taken")]
    ActionSpent { action: String, spent_on: String },
    #[error("no attack is left this turn (the Attack action is spent)")]
    NoAttacksLeft,
    #[error("the reaction is spent until the start of its next turn")]
    ReactionSpent,
    #[error("nothing is readied")]
    NothingReadied,
    /// Incapacitated, or a condition that includes it (paralyzed, petrified, stunned,
    /// unconscious): no actions, bonus actions or reactions.
    #[error("it is {} (incapacitated): it can't take actions, bonus actions or reactions", .condition.name())]
    Incapacitated { condition: Condition },
}

/// Whether a creature with `conditions` may spend any part of its turn or round: not while
/// incapacitated (PHB appendix A, "Incapacitated": "can't take actions or reactions"; paralyzed,
/// petrified, stunned and unconscious creatures are incapacitated). Every method of [`Economy`]
/// that spends an action, a bonus action, the object interaction or the reaction asks it first.
pub fn able_to_act(conditions: &Conditions) -> Result<(), EconomyError> {
    match conditions.incapacitated_by() {
        Some(condition) => Err(EconomyError::Incapacitated { condition }),
        None => Ok(()),
    }
}

/// A trigger for a readied action (PHB "Ready": "the perceivable circumstance that will trigger
/// your reaction").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// When this creature (by id) moves, or any creature hostile to the readier when `None`.
    Moves(Option<String>),
    /// Anything else, in the player's words: the DM fires it.
    Other(String),
}

/// What fires when the trigger comes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Response {
    /// One attack (by name) at the creature that triggered it.
    Attack(String),
    /// A spell, cast now and held with concentration until it is released (PHB "Ready").
    Spell(String),
    Other(String),
}

/// A readied action, waiting for its trigger until the start of the creature's next turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Readied {
    pub trigger: Trigger,
    pub response: Response,
}

impl Readied {
    /// Whether `mover` (hostile or not to the readier, by `hostile`) moving sets it off.
    pub fn triggered_by_move(&self, mover: &str, hostile: bool) -> bool {
        match &self.trigger {
            Trigger::Moves(Some(who)) => who == mover,
            Trigger::Moves(None) => hostile,
            Trigger::Other(_) => false,
        }
    }

    /// In words, naming the trigger's creature by `name_of`.
    pub fn describe(&self, name_of: impl Fn(&str) -> String) -> String {
        let response = match &self.response {
            Response::Attack(attack) => format!("attack with {attack}"),
            Response::Spell(spell) => format!("cast {spell} (holding concentration)"),
            Response::Other(text) => text.clone(),
        };
        let trigger = match &self.trigger {
            Trigger::Moves(Some(who)) => format!("when {} moves", name_of(who)),
            Trigger::Moves(None) => "when an enemy moves".to_owned(),
            Trigger::Other(text) => format!("when {text}"),
        };
        format!("{response}, {trigger}")
    }
}

/// When a reaction happens against its trigger (DMG "Adjudicating Reaction Timing": follow the
/// reaction's own timing; without one, after the trigger finishes, as in the Ready action).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// Before the trigger finishes: an opportunity attack resolves before the mover leaves the
    /// cell.
    Interrupts,
    /// After the trigger finishes: a readied action fires after the move ends.
    AfterTrigger,
}

/// The reactions the app knows, and their timing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reaction {
    OpportunityAttack,
    ReadiedAction,
    /// Turning to face another way when another creature moves (DMG "Optional Rule: Facing").
    Turn,
}

impl Reaction {
    pub fn timing(self) -> Timing {
        match self {
            Reaction::OpportunityAttack => Timing::Interrupts,
            Reaction::ReadiedAction | Reaction::Turn => Timing::AfterTrigger,
        }
    }
}

/// What is spent of one creature's turn and round: the action, bonus action, free object
/// interaction and reaction, the Attack action's attacks left, Disengage, and a readied action.
/// Movement is [`super::movement::TurnMovement`].
/// The most actions a turn's record keeps (a turn takes a handful).
pub const MAX_TAKEN: usize = 100;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Economy {
    /// What it took this turn and what paid for each, in order.
    #[serde(deserialize_with = "super::bounded::at_most::<_, _, MAX_TAKEN>")]
    pub taken: Vec<(Action, Slot)>,
    pub attacks_left: u8,
    pub object_interaction_used: bool,
    pub reaction_used: bool,
    /// Took Disengage: its movement provokes no opportunity attack for the rest of the turn.
    pub disengaged: bool,
    pub readied: Option<Readied>,
}

impl Economy {
    /// The start of the creature's turn: everything is back, the reaction too, and an unfired
    /// readied action is lost (PHB "Ready": "until the start of your next turn").
    pub fn start_turn(&mut self) {
        *self = Self::default();
    }

    fn spent(&self, slot: Slot) -> Option<Action> {
        self.taken.iter().find(|(_, s)| *s == slot).map(|(a, _)| *a)
    }

    pub fn action_used(&self) -> bool {
        self.spent(Slot::Action).is_some()
    }

    pub fn bonus_action_used(&self) -> bool {
        self.spent(Slot::BonusAction).is_some()
    }

    /// What would pay for `action` now: the bonus action when the sheet allows it there (keeping
    /// the action for something else), else the action; nothing while `conditions` incapacitate.
    /// An Attack as a bonus action comes only after the Attack action this turn (**call**: PHB
    /// "Two-Weapon Fighting": "When you take the Attack action and attack with a light melee
    /// weapon ..., you can use a bonus action to attack"; so do the Martial Arts and Polearm
    /// Master attacks), so the first attack of a turn takes the Attack action.
    pub fn can_take(
        &self,
        action: Action,
        options: &TurnOptions,
        conditions: &Conditions,
    ) -> Result<Slot, EconomyError> {
        able_to_act(conditions)?;
        let after_attack = action != Action::Attack || self.taken.contains(&(Action::Attack, Slot::Action));
        if options.bonus_actions.contains(&action) && !self.bonus_action_used() && after_attack {
            return Ok(Slot::BonusAction);
        }
        match self.spent(Slot::Action) {
            None => Ok(Slot::Action),
            Some(spent) => {
                Err(EconomyError::ActionSpent { action: action.name().to_owned(), spent_on: spent.name().to_owned() })
            }
        }
    }

    /// Takes `action`; the Attack action makes its first attack at once (the rest wait in
    /// `attacks_left`), Disengage marks the turn. An Attack taken as a bonus action is one attack:
    /// Extra Attack and Multiattack multiply the Attack action only (PHB "Extra Attack": "whenever
    /// you take the Attack action on your turn"; "Bonus Actions").
    pub fn take(
        &mut self,
        action: Action,
        options: &TurnOptions,
        conditions: &Conditions,
    ) -> Result<Slot, EconomyError> {
        let slot = self.can_take(action, options, conditions)?;
        self.taken.push((action, slot));
        match (action, slot) {
            (Action::Attack, Slot::Action) => self.attacks_left = options.attacks() - 1,
            // Its one attack is the one made now; the Attack action's, if any wait, still wait.
            (Action::Attack, Slot::BonusAction) => {}
            (Action::Disengage, _) => self.disengaged = true,
            _ => {}
        }
        Ok(slot)
    }

    /// Whether one more attack may be made now, spending nothing: one left of the Attack action
    /// taken, else a new Attack (the action, or the bonus action's after it). [`Economy::attack`]
    /// asks it first, and the attack card asks it before the click.
    pub fn can_attack(&self, options: &TurnOptions, conditions: &Conditions) -> Result<(), EconomyError> {
        able_to_act(conditions)?;
        if self.attacks_left > 0 {
            return Ok(());
        }
        match self.can_take(Action::Attack, options, conditions) {
            Ok(_) => Ok(()),
            Err(_) if self.took(Action::Attack) => Err(EconomyError::NoAttacksLeft),
            Err(error) => Err(error),
        }
    }

    /// One attack: the next of the Attack action taken, or the first of a new one.
    pub fn attack(&mut self, options: &TurnOptions, conditions: &Conditions) -> Result<(), EconomyError> {
        self.can_attack(options, conditions)?;
        if self.attacks_left > 0 {
            self.attacks_left -= 1;
            return Ok(());
        }
        self.take(Action::Attack, options, conditions).map(drop)
    }

    /// Whether `action` was taken this turn.
    pub fn took(&self, action: Action) -> bool {
        self.taken.iter().any(|(a, _)| *a == action)
    }

    /// Gives back the last `action` taken (a Dash taken for a move that was taken back).
    pub fn refund(&mut self, action: Action) {
        if let Some(i) = self.taken.iter().rposition(|(a, _)| *a == action) {
            self.taken.remove(i);
            if action == Action::Disengage {
                self.disengaged = self.took(Action::Disengage);
            }
        }
    }

    /// The free interaction with one object; a second needs the Use an Object action. An
    /// incapacitated creature has neither (call, docs/rules.md "Turns and reactions": the free
    /// interaction goes with the turn's activity, PHB "Interacting with Objects Around You").
    pub fn interact(&mut self, options: &TurnOptions, conditions: &Conditions) -> Result<Option<Slot>, EconomyError> {
        able_to_act(conditions)?;
        if !self.object_interaction_used {
            self.object_interaction_used = true;
            return Ok(None);
        }
        self.take(Action::UseAnObject, options, conditions).map(Some)
    }

    /// Spends the reaction.
    pub fn react(&mut self, conditions: &Conditions) -> Result<(), EconomyError> {
        able_to_act(conditions)?;
        if self.reaction_used {
            return Err(EconomyError::ReactionSpent);
        }
        self.reaction_used = true;
        Ok(())
    }

    /// The Ready action: spends the action and waits for the trigger.
    pub fn ready(&mut self, readied: Readied, conditions: &Conditions) -> Result<(), EconomyError> {
        // Ready is never a bonus action.
        self.take(Action::Ready, &TurnOptions::default(), conditions)?;
        self.readied = Some(readied);
        Ok(())
    }

    /// Fires the readied action with the reaction; returns it.
    pub fn fire_readied(&mut self, conditions: &Conditions) -> Result<Readied, EconomyError> {
        if self.readied.is_none() {
            return Err(EconomyError::NothingReadied);
        }
        self.react(conditions)?;
        self.readied.take().ok_or(EconomyError::NothingReadied)
    }

    /// What is left that the creature may spend now, for the card and the command line: nothing
    /// while `conditions` incapacitate it ([`able_to_act`]: no action, bonus action, reaction or
    /// object interaction).
    pub fn left(&self, options: &TurnOptions, conditions: &Conditions) -> Left {
        let able = able_to_act(conditions).is_ok();
        Left {
            action: able && !self.action_used(),
            attacks_left: if able { self.attacks_left } else { 0 },
            bonus_action: able && options.has_bonus_actions() && !self.bonus_action_used(),
            object_interaction: able && !self.object_interaction_used,
            reaction: able && !self.reaction_used,
            disengaged: self.disengaged,
        }
    }
}

/// What is left of a turn, part by part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Left {
    pub action: bool,
    /// Attacks left of an Attack action already taken.
    pub attacks_left: u8,
    /// A bonus action, when the creature has something to spend one on.
    pub bonus_action: bool,
    pub object_interaction: bool,
    pub reaction: bool,
    pub disengaged: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No condition: free to act.
    const OK: Conditions = Conditions::NONE;

    fn rogue() -> TurnOptions {
        TurnOptions { attacks_per_action: 1, bonus_actions: vec![Action::Dash, Action::Disengage, Action::Hide] }
    }

    #[test]
    fn a_second_dash_is_refused() {
        let mut turn = Economy::default();
        assert_eq!(turn.take(Action::Dash, &TurnOptions::default(), &OK), Ok(Slot::Action));
        let second = turn.take(Action::Dash, &TurnOptions::default(), &OK);
        assert_eq!(
            second,
            Err(EconomyError::ActionSpent { action: "Dash".into(), spent_on: "Dash".into() }),
            "PHB 'Dash' spends the action"
        );
        assert_eq!(second.unwrap_err().to_string(), "the action is spent this turn (on Dash); Dash can't be taken");
    }

    #[test]
    fn a_bonus_action_dash_keeps_the_action_and_allows_a_second_dash() {
        let mut turn = Economy::default();
        assert_eq!(turn.take(Action::Dash, &rogue(), &OK), Ok(Slot::BonusAction));
        assert!(turn.left(&rogue(), &OK).action);
        assert_eq!(turn.take(Action::Dash, &rogue(), &OK), Ok(Slot::Action));
        assert!(turn.take(Action::Dash, &rogue(), &OK).is_err(), "two Dashes at most");
        assert!(!turn.left(&rogue(), &OK).bonus_action);
    }

    #[test]
    fn the_attack_action_makes_the_sheets_number_of_attacks() {
        let fighter = TurnOptions { attacks_per_action: 2, bonus_actions: Vec::new() };
        let mut turn = Economy::default();
        assert_eq!(turn.attack(&fighter, &OK), Ok(()));
        assert_eq!(turn.left(&fighter, &OK).attacks_left, 1);
        assert_eq!(turn.attack(&fighter, &OK), Ok(()));
        assert_eq!(turn.can_attack(&fighter, &OK), Err(EconomyError::NoAttacksLeft), "asked before the click");
        assert_eq!(turn.attack(&fighter, &OK), Err(EconomyError::NoAttacksLeft));
        let mut dodger = Economy::default();
        dodger.take(Action::Dodge, &fighter, &OK).expect("the action is free");
        assert!(matches!(dodger.attack(&fighter, &OK), Err(EconomyError::ActionSpent { .. })));
    }

    #[test]
    fn the_reaction_is_one_a_round_and_comes_back_at_the_start_of_the_turn() {
        let mut turn = Economy::default();
        assert_eq!(turn.react(&OK), Ok(()));
        assert_eq!(turn.react(&OK), Err(EconomyError::ReactionSpent));
        assert!(!turn.left(&TurnOptions::default(), &OK).reaction);
        turn.start_turn();
        assert_eq!(turn.react(&OK), Ok(()), "restored at the start of its turn");
    }

    #[test]
    fn one_free_object_interaction_then_the_action() {
        let mut turn = Economy::default();
        assert_eq!(turn.interact(&TurnOptions::default(), &OK), Ok(None));
        assert_eq!(turn.interact(&TurnOptions::default(), &OK), Ok(Some(Slot::Action)));
        assert!(turn.interact(&TurnOptions::default(), &OK).is_err());
    }

    #[test]
    fn a_readied_action_fires_once_with_the_reaction_and_is_lost_at_the_next_turn() {
        let readied = Readied { trigger: Trigger::Moves(None), response: Response::Attack("Longbow".into()) };
        let mut turn = Economy::default();
        turn.ready(readied.clone(), &OK).expect("the action is free");
        assert!(turn.action_used());
        assert!(readied.triggered_by_move("thug", true));
        assert!(!readied.triggered_by_move("lia", false), "an ally moving doesn't set it off");
        assert_eq!(turn.fire_readied(&OK), Ok(readied.clone()));
        assert_eq!(turn.fire_readied(&OK), Err(EconomyError::NothingReadied));
        let mut unfired = Economy::default();
        unfired.ready(readied, &OK).expect("ready");
        unfired.start_turn();
        assert_eq!(unfired.readied, None);
        let mut reacted = Economy::default();
        reacted
            .ready(
                Readied {
                    trigger: Trigger::Other("the door opens".into()),
                    response: Response::Other("shut it".into()),
                },
                &OK,
            )
            .expect("ready");
        reacted.react(&OK).expect("an opportunity attack first");
        assert_eq!(reacted.fire_readied(&OK), Err(EconomyError::ReactionSpent), "one reaction a round");
    }

    #[test]
    fn reaction_timing_follows_the_dmg() {
        assert_eq!(Reaction::OpportunityAttack.timing(), Timing::Interrupts);
        assert_eq!(Reaction::ReadiedAction.timing(), Timing::AfterTrigger);
        assert_eq!(Reaction::Turn.timing(), Timing::AfterTrigger);
    }

    /// PHB "Extra Attack" ("whenever you take the Attack action on your turn") and "Bonus
    /// Actions": a sheet of two attacks per Attack action that may also Attack as a bonus action
    /// makes 3 attacks in a turn, not 4: the bonus-action Attack is one attack.
    #[test]
    fn a_bonus_action_attack_is_one_attack() {
        let sheet = TurnOptions { attacks_per_action: 2, bonus_actions: vec![Action::Attack] };
        let mut turn = Economy::default();
        let mut made = 0;
        while turn.attack(&sheet, &OK).is_ok() {
            made += 1;
            assert!(made <= 4, "runs away");
        }
        assert_eq!(made, 3, "two with the action and one with the bonus action");
        assert_eq!(turn.taken, [(Action::Attack, Slot::Action), (Action::Attack, Slot::BonusAction)]);
        assert_eq!(turn.attack(&sheet, &OK), Err(EconomyError::NoAttacksLeft));
        let mut bonus_last = Economy::default();
        bonus_last
            .take(Action::Attack, &TurnOptions { bonus_actions: Vec::new(), ..sheet.clone() }, &OK)
            .expect("free");
        assert_eq!(bonus_last.attacks_left, 1, "the Attack action: two attacks");
        assert_eq!(bonus_last.take(Action::Attack, &sheet, &OK), Ok(Slot::BonusAction));
        assert_eq!(bonus_last.attacks_left, 1, "the bonus action's one attack is made now; the action's waits");
    }

    /// PHB "Two-Weapon Fighting": "When you take the Attack action and attack with a light melee
    /// weapon that you're holding in one hand, you can use a bonus action to attack". Without the
    /// Attack action this turn (the action spent on a Dash), no bonus-action attack.
    #[test]
    fn a_bonus_action_attack_needs_the_attack_action_first() {
        let two_weapons = TurnOptions { attacks_per_action: 1, bonus_actions: vec![Action::Attack] };
        let mut dasher = Economy::default();
        dasher.take(Action::Dash, &two_weapons, &OK).expect("the action is free");
        assert_eq!(
            dasher.attack(&two_weapons, &OK),
            Err(EconomyError::ActionSpent { action: "Attack".into(), spent_on: "Dash".into() })
        );
        assert!(!dasher.bonus_action_used(), "nothing spent");
        assert_eq!(Economy::default().can_take(Action::Attack, &two_weapons, &OK), Ok(Slot::Action));
        let mut fighter = Economy::default();
        assert_eq!(fighter.attack(&two_weapons, &OK), Ok(()), "the Attack action");
        assert_eq!(fighter.attack(&two_weapons, &OK), Ok(()), "then the off hand, a bonus action");
        assert_eq!(fighter.taken, [(Action::Attack, Slot::Action), (Action::Attack, Slot::BonusAction)]);
    }

    /// PHB appendix A, "Incapacitated": "can't take actions or reactions"; "Paralyzed",
    /// "Petrified", "Stunned", "Unconscious": each is incapacitated. No Dash, Disengage, Dodge,
    /// Use an Object, Ready, object interaction or reaction, as an action or a bonus action.
    #[test]
    fn an_incapacitated_creature_takes_no_action_bonus_action_or_reaction() {
        for condition in [
            Condition::Incapacitated,
            Condition::Paralyzed,
            Condition::Petrified,
            Condition::Stunned,
            Condition::Unconscious,
        ] {
            let out = Conditions::new([condition]);
            let refused = Err(EconomyError::Incapacitated { condition });
            let mut turn = Economy::default();
            for action in Action::ALL {
                assert_eq!(turn.take(action, &rogue(), &out), refused.clone().map(|()| Slot::Action), "{action:?}");
            }
            assert_eq!(turn.attack(&rogue(), &out), refused);
            assert_eq!(turn.interact(&rogue(), &out), refused.clone().map(|()| None));
            assert_eq!(turn.react(&out), refused);
            let readied = Readied { trigger: Trigger::Moves(None), response: Response::Other("duck".into()) };
            assert_eq!(turn.ready(readied.clone(), &out), refused);
            assert_eq!(turn, Economy::default(), "a refusal spends nothing");
            let left = turn.left(&rogue(), &out);
            assert!(!left.action && !left.bonus_action && !left.reaction && !left.object_interaction, "{left:?}");
            turn.ready(readied, &OK).expect("readied before it was stunned");
            assert_eq!(turn.fire_readied(&out).map(drop), refused, "the readied reaction waits");
            assert!(turn.readied.is_some() && !turn.reaction_used);
        }
        assert_eq!(
            EconomyError::Incapacitated { condition: Condition::Stunned }.to_string(),
            "it is stunned (incapacitated): it can't take actions, bonus actions or reactions"
        );
        assert_eq!(
            Economy::default().take(Action::Dash, &rogue(), &Conditions::new([Condition::Prone])),
            Ok(Slot::BonusAction)
        );
    }

    #[test]
    fn disengage_is_undone_with_its_refund() {
        let mut turn = Economy::default();
        turn.take(Action::Disengage, &TurnOptions::default(), &OK).expect("free");
        assert!(turn.disengaged);
        turn.refund(Action::Disengage);
        assert!(!turn.disengaged && !turn.action_used());
    }
}
