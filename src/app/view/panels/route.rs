//! Where the panels' requests go: each becomes the message of the feature that applies it.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::app::core::messages::*;
use crate::app::core::requests::ChaseRequest;
use crate::app::core::tokens::TokenIndex;
use crate::ui::{FightAction, InitiativeAction, PanelRequest, SiegeAction, TurnAction};

/// The messages the panels send.
#[derive(SystemParam)]
pub(super) struct Requests<'w> {
    index: Res<'w, TokenIndex>,
    select: MessageWriter<'w, SelectToken>,
    open: MessageWriter<'w, OpenScenario>,
    fit: MessageWriter<'w, FitMap>,
    toggles: MessageWriter<'w, Toggle>,
    turns: MessageWriter<'w, TurnRequest>,
    fight: MessageWriter<'w, FightRequest>,
    answers: MessageWriter<'w, ReactionAnswer>,
    siege: MessageWriter<'w, SiegeRequest>,
    dice: MessageWriter<'w, DiceRequest>,
    chase: MessageWriter<'w, ChaseMessage>,
    template: MessageWriter<'w, TemplateRequest>,
    audience: MessageWriter<'w, AudienceRequest>,
    history: MessageWriter<'w, HistoryRequest>,
    edits: MessageWriter<'w, EditMessage>,
    save: MessageWriter<'w, SaveScenario>,
    effects: MessageWriter<'w, EffectRequest>,
    fog_brush: MessageWriter<'w, PickFogBrush>,
    dismiss: MessageWriter<'w, DismissPinned>,
    table_view: MessageWriter<'w, TableView>,
}

/// What the routing needs to know of the screen now.
pub(super) struct Context {
    pub selected: Option<Entity>,
    pub grid_visible: bool,
    /// An opportunity attack is the prompt up (else a readied action).
    pub opportunity_prompt: bool,
}

impl Requests<'_> {
    /// Sends the message for one request.
    pub(super) fn send(&mut self, request: PanelRequest, cx: &Context) {
        let entity_of = |id: &str| self.index.entity(id);
        match request {
            PanelRequest::Select(id) => {
                self.select.write(SelectToken(Some(id)));
            }
            PanelRequest::ClearSelection => {
                self.select.write(SelectToken(None));
            }
            PanelRequest::ShowGrid(on) => {
                if on != cx.grid_visible {
                    self.toggles.write(Toggle::GridLines);
                }
            }
            PanelRequest::Open(path) => {
                self.open.write(OpenScenario { path: Some(path.into()) });
            }
            PanelRequest::Reload => {
                self.open.write(OpenScenario { path: None });
            }
            PanelRequest::DismissPinned(index) => {
                self.dismiss.write(DismissPinned(index));
            }
            PanelRequest::FitMap => {
                self.fit.write(FitMap);
            }
            PanelRequest::Turn { id, action } => {
                if let Some(entity) = entity_of(&id) {
                    self.turn_action(entity, action);
                }
            }
            PanelRequest::Initiative(action) => {
                let request = match action {
                    InitiativeAction::Delay => Some(TurnRequest::Delay),
                    InitiativeAction::Join(id) => entity_of(&id).map(TurnRequest::Join),
                    InitiativeAction::Leave(id) => entity_of(&id).map(TurnRequest::Leave),
                    InitiativeAction::Secret(id, on) => entity_of(&id).map(|e| TurnRequest::Secret(e, on)),
                };
                self.turns.write_batch(request);
            }
            PanelRequest::Answer(yes) => {
                self.answers.write(if cx.opportunity_prompt {
                    ReactionAnswer::Opportunity { attack: yes }
                } else {
                    ReactionAnswer::Readied { fire: yes }
                });
            }
            PanelRequest::Audience(dm) => {
                self.audience.write(AudienceRequest { dm });
            }
            PanelRequest::NextTurn => {
                self.turns.write(TurnRequest::NextTurn);
            }
            PanelRequest::ToggleDiagonals => self.toggle(Toggle::Diagonals),
            PanelRequest::ToggleSight => self.toggle(Toggle::SightOverlay),
            PanelRequest::TogglePanel(name) => self.toggle(Toggle::Panel(name)),
            PanelRequest::TableView(on) => {
                self.table_view.write(TableView(on));
            }
            PanelRequest::ToggleRuler => self.toggle(Toggle::Ruler),
            PanelRequest::FogBrush(brush) => {
                self.fog_brush.write(PickFogBrush(brush));
            }
            PanelRequest::ToggleTemplate => self.toggle(Toggle::Template),
            PanelRequest::ToggleEditor => self.toggle(Toggle::Editor),
            PanelRequest::ToggleChase => {
                self.chase.write(ChaseMessage(ChaseRequest::ToggleSetup));
            }
            PanelRequest::SetTemplate(settings) => {
                self.template.write(TemplateRequest::Settings(settings));
            }
            PanelRequest::SetSaves(saves) => {
                self.template.write(TemplateRequest::Saves(saves));
            }
            PanelRequest::RollSaves => {
                self.template.write(TemplateRequest::RollSaves);
            }
            PanelRequest::Roll { notation, mode, hidden, reason } => {
                self.dice.write(DiceRequest::Roll { roller: cx.selected, notation, mode, hidden, reason });
            }
            PanelRequest::RollTable { id, hidden } => {
                self.dice.write(DiceRequest::RollTable { id, hidden });
            }
            PanelRequest::Effect { id, action } => {
                let target = id.as_deref().and_then(entity_of);
                if id.is_none() || target.is_some() {
                    self.effects.write(EffectRequest { target, action });
                }
            }
            PanelRequest::Inspiration { id, give } => {
                self.dice.write_batch(entity_of(&id).map(|entity| DiceRequest::Inspiration { entity, give }));
            }
            PanelRequest::Siege { operator, weapon, action } => {
                if let (Some(operator), Some(weapon)) = (entity_of(&operator), entity_of(&weapon)) {
                    self.siege.write(match action {
                        SiegeAction::Work(step) => SiegeRequest::Work { operator, weapon, step },
                        SiegeAction::PickTarget => SiegeRequest::PickTarget { operator, weapon },
                        SiegeAction::Tip => SiegeRequest::Tip { operator, weapon },
                    });
                }
            }
            PanelRequest::Fight { id, action } => {
                self.fight.write_batch(entity_of(&id).map(|entity| fight_request(entity, action)));
            }
            PanelRequest::Undo => {
                self.history.write(HistoryRequest::Undo);
            }
            PanelRequest::Redo => {
                self.history.write(HistoryRequest::Redo);
            }
            PanelRequest::Save => {
                self.save.write(SaveScenario { path: None });
            }
            PanelRequest::SaveAs(path) => {
                self.save.write(SaveScenario { path: Some(path.into()) });
            }
            PanelRequest::Edit(request) => {
                self.edits.write(EditMessage::Panel(request));
            }
        }
    }

    fn toggle(&mut self, toggle: Toggle) {
        self.toggles.write(toggle);
    }

    /// A card's turn action goes to the turn, the fight (the actions with a ruling on the board:
    /// Help, Hide, Search), or the reactions (firing a readied action by hand).
    fn turn_action(&mut self, entity: Entity, action: TurnAction) {
        match action {
            TurnAction::Act(action) => {
                self.turns.write(TurnRequest::Act(entity, action));
            }
            TurnAction::Interact => {
                self.turns.write(TurnRequest::Interact(entity));
            }
            TurnAction::Ready(readied) => {
                self.turns.write(TurnRequest::Ready(entity, readied));
            }
            TurnAction::Undo => {
                self.turns.write(TurnRequest::Undo(entity));
            }
            TurnAction::StartTurn => {
                self.turns.write(TurnRequest::StartTurn(entity));
            }
            TurnAction::Hide => {
                self.fight.write(FightRequest::Hide { who: entity });
            }
            TurnAction::Search => {
                self.fight.write(FightRequest::Search { who: entity });
            }
            TurnAction::Help { ally, target } => {
                if let (Some(ally), Some(target)) = (self.index.entity(&ally), self.index.entity(&target)) {
                    self.fight.write(FightRequest::Help { helper: entity, ally, target });
                }
            }
            TurnAction::FireReadied => {
                self.answers.write(ReactionAnswer::FireByHand(entity));
            }
        }
    }
}

/// The fight message for a card's action on `entity`.
fn fight_request(entity: Entity, action: FightAction) -> FightRequest {
    match action {
        FightAction::PickAttack(attack) => FightRequest::PickAttack { attacker: entity, attack, weapon: None },
        FightAction::Damage(amount) => FightRequest::Damage { target: entity, amount },
        FightAction::Heal(amount) => FightRequest::Heal { target: entity, amount },
        FightAction::TempHp(amount) => FightRequest::TempHp { target: entity, amount },
        FightAction::Condition(condition, on) => FightRequest::Condition { target: entity, condition, on },
        FightAction::Exhaustion(level) => FightRequest::Exhaustion { target: entity, level },
        FightAction::DeathSave => FightRequest::DeathSave { target: entity },
        FightAction::Stabilize => FightRequest::Stabilize { target: entity },
        FightAction::Turn { clockwise } => FightRequest::Turn { target: entity, clockwise },
        FightAction::Dodge(on) => FightRequest::Dodge { target: entity, on },
        FightAction::StandUp => FightRequest::StandUp { target: entity },
    }
}
