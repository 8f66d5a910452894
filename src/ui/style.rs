//! Colours shared by the map and the panels, so a token and its row look alike.

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
