//! The egui panels, as functions of a view model that return the user's requests.
//!
//! Nothing here touches the ECS: the app builds the view models from components, calls these
//! functions inside its egui pass and turns the returned [`PanelRequest`]s into messages. Tests
//! drive the same functions with egui_kittest, without a window.

use bevy_egui::egui;

use crate::app::core::requests::{EditRequest, SaveSettings, TemplateSettings};

pub mod chase;
mod cursor;
mod dice;
mod editor;
pub mod effects;
mod fight;
mod legend;
pub mod log;
mod roster;
pub mod seat;
mod siege;
mod stat_block;
mod status;
pub mod style;
mod template;
mod turn;
pub mod words;

pub(crate) use cursor::cursor_label;
pub use dice::{DiceEdit, DiceView, dice_panel};
pub use editor::{EditorEdit, EditorView, TerrainChoice, editor_panel};
pub use fight::{FightAction, FightEdit, FightView, attack_card, attack_card_lines, fight_section};
pub use legend::{LegendIcon, LegendLight, LegendTerrain, LegendView, TileSwatch, legend_panel, legend_rule};
pub use roster::{MovementView, RosterView, TokenDetails, TokenRow, card_panel, roster_panel};
pub(crate) use siege::capitalized;
pub use siege::{NearbyWeapon, SiegeAction, SiegeView, WeaponCard, siege_section};
pub use stat_block::{StatBlockView, stat_block_view};
pub use status::{StatusEdit, StatusView, dm_banner, panel_title, status_bar};
pub use template::{InsideView, ShapeKind, TemplateView, template_panel};
pub use turn::{
    EntryView, InitiativeAction, InitiativeView, PromptView, TurnAction, TurnEdit, TurnView, initiative_panel,
    initiative_strip, reaction_prompt, seated_turn_card, turn_section,
};

/// The buttons whose place on screen the state file reports, for tests that click them.
pub const BUTTON_TARGETS: [&str; 10] = [
    "card.start_turn",
    "prompt.yes",
    "prompt.no",
    "status.dm_view",
    "dm.confirm",
    "card.siege",
    "pinned.dismiss",
    "status.panels",
    "panels.table_view",
    "table.show_panels",
];

/// A row of widgets in a panel of fixed width: each kept whole (a button's words are neither cut
/// nor wrapped), going on to the next line where the panel ends.
pub(crate) fn row<R>(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui) -> R) -> egui::InnerResponse<R> {
    ui.horizontal_wrapped(|ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        add(ui)
    })
}

/// Remembers where the button `name` (one of [`BUTTON_TARGETS`]) is drawn this frame.
/// Only a button in sight is remembered (one scrolled out of a panel can't be clicked).
pub(crate) fn remember(response: &egui::Response, name: &'static str) {
    if !response.interact_rect.is_positive() {
        return;
    }
    let at = response.interact_rect.center();
    response.ctx.data_mut(|d| d.insert_temp(egui::Id::new(("button-target", name)), [at.x, at.y]));
}

/// Moves the remembered places of `names`, laid out in a card turned to a seat, to where the card
/// draws them.
pub(crate) fn remembered_on_turned(ctx: &egui::Context, names: &[&'static str], turned: &seat::Turned) {
    ctx.data_mut(|d| {
        for name in names {
            let id = egui::Id::new(("button-target", *name));
            if let Some([x, y]) = d.get_temp::<[f32; 2]>(id) {
                let at = turned.to_screen(egui::pos2(x, y));
                d.insert_temp(id, [at.x, at.y]);
            }
        }
    });
}

/// Where each remembered button was drawn this frame, forgetting them for the next.
pub fn take_button_targets(ctx: &egui::Context) -> Vec<(String, [f32; 2])> {
    ctx.data_mut(|d| {
        BUTTON_TARGETS
            .iter()
            .filter_map(|name| {
                let id = egui::Id::new(("button-target", *name));
                let at = d.get_temp::<[f32; 2]>(id);
                d.remove::<[f32; 2]>(id);
                at.map(|at| ((*name).to_owned(), at))
            })
            .collect()
    })
}

/// Something the user asked for in a panel.
#[derive(Clone, Debug, PartialEq)]
pub enum PanelRequest {
    /// Select the token with this id.
    Select(String),
    ClearSelection,
    ShowGrid(bool),
    /// Open the scenario file at this path (the current one stays if it is invalid).
    Open(String),
    /// Read the current scenario file again.
    Reload,
    /// Write the scene as it stands to its file.
    Save,
    /// Write the scene as it stands to this file, and go on with that file.
    SaveAs(String),
    /// Take the pinned notice with this index off the screen.
    DismissPinned(usize),
    /// Take back the last change, or do again the last one taken back.
    Undo,
    Redo,
    /// Open or close the map editor.
    ToggleEditor,
    /// A request of the map editor's panel.
    Edit(EditRequest),
    /// Frame the whole map in the view.
    FitMap,
    /// The next creature in the initiative order starts its turn.
    NextTurn,
    /// Something for the turn of the creature with this id (its card's action buttons).
    Turn {
        id: String,
        action: TurnAction,
    },
    /// The initiative tracker's controls.
    Initiative(InitiativeAction),
    /// The answer to the reaction prompt: yes (attack, fire) or no (let it go, hold).
    Answer(bool),
    /// Show the DM's view (`true`: after the confirmation) or the players' view.
    Audience(bool),
    /// Switch between the standard and the optional diagonal rule.
    ToggleDiagonals,
    /// Switch the ruler on or off.
    ToggleRuler,
    /// Pick up the DM's fog brush, or put it down.
    FogBrush(Option<crate::app::core::requests::FogBrush>),
    /// Switch the shading of what the selected creature can't see.
    ToggleSight,
    /// Switch the area template tool on or off.
    ToggleTemplate,
    /// Change the template's shape or size.
    SetTemplate(TemplateSettings),
    /// Change the saving throw the template asks for.
    SetSaves(SaveSettings),
    /// Every creature in the template saves (and takes its damage).
    RollSaves,
    /// Roll dice as the selected creature (or the DM), public or hidden.
    Roll {
        notation: String,
        mode: crate::rules::dice::RollMode,
        hidden: bool,
        reason: String,
    },
    /// Roll on one of the DM's tables.
    RollTable {
        id: String,
        hidden: bool,
    },
    /// Open or close one of the panels over the map.
    TogglePanel(crate::app::core::messages::PanelName),
    /// Hide every panel but the initiative and the turn card (`true`), or show them again.
    TableView(bool),
    /// Show or hide the chase setup window.
    ToggleChase,
    /// Something for the fight of the creature with this id (card buttons and toggles).
    Fight {
        id: String,
        action: FightAction,
    },
    /// Work a siege weapon: the creature `operator` spends its action on `weapon`.
    Siege {
        operator: String,
        weapon: String,
        action: SiegeAction,
    },
    /// Give or spend a player character's inspiration.
    Inspiration {
        id: String,
        give: bool,
    },
    /// Something for the lasting effects of the creature with this id (none: everyone's, a dawn).
    Effect {
        id: Option<String>,
        action: crate::app::core::requests::EffectAction,
    },
}
