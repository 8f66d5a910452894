//! Colours shared by the map and the panels, so a token and its row look alike, and the panels'
//! finger-sized style for a touch screen.

use crate::rules::creature::Side;
use crate::scenario::TokenKind;

/// The colour of a side's tokens and labels, as sRGB.
pub(crate) fn side_color(side: Side) -> [u8; 3] {
    match side {
        Side::Party => [52, 116, 214],
        Side::Ally => [46, 158, 96],
        Side::Enemy => [200, 56, 48],
        Side::Neutral => [196, 160, 60],
    }
}

/// The colour of a token: its side's, greyed for objects.
pub(crate) fn token_color(side: Side, kind: TokenKind) -> [u8; 3] {
    let c = side_color(side);
    match kind {
        TokenKind::Creature => c,
        TokenKind::Object => c.map(|v| ((u16::from(v) + 2 * 128) / 3) as u8),
    }
}

pub(crate) fn egui_color(rgb: [u8; 3]) -> bevy_egui::egui::Color32 {
    bevy_egui::egui::Color32::from_rgb(rgb[0], rgb[1], rgb[2])
}

/// The least height of a button or field on a touch screen, in points: a fingertip is about
/// 9 mm wide, and on a 27-inch 1080p screen laid on the table (81 px to the inch) that is 29 px;
/// 40 leaves room for a finger that lands off-centre (issue 30, "Touch").
pub const FINGER_HEIGHT: f32 = 40.0;

/// The panels' style for fingers: buttons, fields and checkboxes at least [`FINGER_HEIGHT`] tall,
/// with more room between them, so a tap lands on the button meant.
pub fn finger_sized(style: &mut bevy_egui::egui::Style) {
    let spacing = &mut style.spacing;
    spacing.interact_size.y = spacing.interact_size.y.max(FINGER_HEIGHT);
    spacing.button_padding = bevy_egui::egui::vec2(12.0, 10.0);
    spacing.item_spacing = bevy_egui::egui::vec2(10.0, 8.0);
    spacing.icon_width = spacing.icon_width.max(24.0);
    spacing.icon_spacing = spacing.icon_spacing.max(8.0);
}
