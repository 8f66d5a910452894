//! Cards that face a player's seat around the table (issue 30, "Seats around the table"): the
//! map is often a screen laid flat with the players on its sides, so a card meant for one player
//! is drawn near that player's edge and turned to face it (180° for the north edge, 90° for east
//! and west).
//!
//! egui lays out and hit-tests only upright widgets (its layer transforms translate and scale),
//! so [`facing_card`] lays the card out upright in its own [`egui::Area`], then turns the shapes
//! of that layer onto the place the player sees (text by its angle, every other shape tessellated
//! into a mesh whose vertices are turned). The layer is moved far off the screen for egui's hit
//! tests ([`LAYOUT_OFFSET`]), so no pointer reaches the card's widgets unless [`turn_pointer`]
//! sends it there: before each pass, a pointer over a turned card is turned back into the card's
//! layout, where its buttons are. A turned card holds buttons, labels and sliders; a popup or a
//! tooltip of its widgets would open upright, away from it, so it has none.

use std::f32::consts::FRAC_PI_2;

use bevy_egui::egui::{self, Pos2, Rect, Vec2, emath::TSTransform, epaint};

use crate::scenario::TableEdge;

/// How far from the table's edge a card is drawn, in points.
const EDGE_GAP: f32 = 12.0;

/// Where a turned card's layer lies for egui's hit tests: far below the screen, so only the
/// pointer positions [`turn_pointer`] maps there reach its widgets. The cards of one pass lie
/// one, two, three... such offsets down, so that two shown at once don't overlap there.
const LAYOUT_OFFSET: Vec2 = Vec2::new(0.0, 100_000.0);

/// Turns clockwise on the screen (y down), in quarter turns, that make a card read upright from
/// `edge`: none for the south edge (the screen's bottom), half a turn for the north, a quarter
/// turn counter-clockwise for the east (its lines run up along that edge) and clockwise for the
/// west.
pub fn quarter_turns(edge: TableEdge) -> u8 {
    match edge {
        TableEdge::South => 0,
        TableEdge::West => 1,
        TableEdge::North => 2,
        TableEdge::East => 3,
    }
}

/// A card as laid out (where egui has its widgets) and as drawn: turned clockwise by
/// `quarter_turns` about its centre, and moved so that centre is at `drawn_centre`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turned {
    pub quarter_turns: u8,
    pub layout_centre: Pos2,
    pub drawn_centre: Pos2,
}

impl Turned {
    /// Where a point of the layout is drawn.
    pub fn to_screen(&self, at: Pos2) -> Pos2 {
        self.drawn_centre + turn(at - self.layout_centre, self.quarter_turns)
    }

    /// The point of the layout drawn at `at`.
    pub fn to_layout(&self, at: Pos2) -> Pos2 {
        self.layout_centre + turn(at - self.drawn_centre, 4 - self.quarter_turns % 4)
    }

    /// Where a rectangle of the layout is drawn (a quarter turn keeps it a rectangle).
    pub fn rect_to_screen(&self, rect: Rect) -> Rect {
        Rect::from_two_pos(self.to_screen(rect.min), self.to_screen(rect.max))
    }

    /// The turn, in radians clockwise.
    pub fn angle(&self) -> f32 {
        f32::from(self.quarter_turns % 4) * FRAC_PI_2
    }
}

/// `v` turned clockwise on the screen by `quarter_turns` quarter turns, exactly (an infinite
/// clip rectangle stays infinite).
fn turn(v: Vec2, quarter_turns: u8) -> Vec2 {
    match quarter_turns % 4 {
        0 => v,
        1 => Vec2::new(-v.y, v.x),
        2 => -v,
        _ => Vec2::new(v.y, -v.x),
    }
}

/// A turned card as [`turn_pointer`] reads it: its layout, where its layer lies for egui, and
/// where it is drawn.
#[derive(Clone, Copy, Debug)]
struct Placed {
    layout: Rect,
    offset: Vec2,
    drawn: Rect,
    turned: Turned,
}

/// The cards turned in a pass, with that pass's number.
type PlacedCards = (u64, Vec<Placed>);

fn placed_id() -> egui::Id {
    egui::Id::new("seat-turned-cards")
}

/// Draws `add_contents` in a card of its own facing `edge`: laid out upright, then turned and
/// drawn against that edge of `within`, centred along it. Gives what `add_contents` gave, and the
/// card's turn (to say where one of its widgets is drawn).
pub fn facing_card<R>(
    ctx: &egui::Context,
    id: egui::Id,
    edge: TableEdge,
    within: Rect,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> (R, Turned) {
    let quarter_turns = quarter_turns(edge);
    let upright_or_upside_down = quarter_turns.is_multiple_of(2);
    let along_edge = if upright_or_upside_down { within.width() } else { within.height() };
    let shown = egui::Area::new(id)
        .order(egui::Order::Foreground)
        .fixed_pos(ctx.content_rect().min)
        .fade_in(false)
        .show(ctx, |ui| {
            ui.set_max_width((along_edge - 2.0 * EDGE_GAP).max(160.0));
            egui::Frame::window(ui.style()).inner_margin(14.0).show(ui, add_contents).inner
        });
    let layout = shown.response.rect;
    let drawn_size = if upright_or_upside_down { layout.size() } else { Vec2::new(layout.height(), layout.width()) };
    let pixels = ctx.pixels_per_point();
    // Both centres on the pixel grid: what egui placed on a pixel stays on one once turned.
    let on_pixel = |p: Pos2| Pos2::new((p.x * pixels).round() / pixels, (p.y * pixels).round() / pixels);
    let turned = Turned {
        quarter_turns,
        layout_centre: on_pixel(layout.center()),
        drawn_centre: on_pixel(against(edge, drawn_size, within)),
    };
    let pass = ctx.cumulative_pass_nr();
    let placed_before = ctx
        .data(|data| data.get_temp::<PlacedCards>(placed_id()))
        .filter(|(nr, _)| *nr == pass)
        .map_or(0, |(_, cards)| cards.len());
    let offset = LAYOUT_OFFSET * (placed_before + 1) as f32;
    let layer = shown.response.layer_id;
    turn_layer(ctx, layer, &turned, offset);
    ctx.set_transform_layer(layer, TSTransform::from_translation(offset));
    // Above the screen it is drawn over (the chase screen), whichever was pressed last.
    ctx.move_to_top(layer);
    let placed = Placed { layout, offset, drawn: turned.rect_to_screen(layout), turned };
    ctx.data_mut(|data| {
        let (nr, cards) = data.get_temp_mut_or_default::<PlacedCards>(placed_id());
        if *nr != pass {
            *nr = pass;
            cards.clear();
        }
        cards.push(placed);
    });
    (shown.inner, turned)
}

/// Draws `add_contents` in a card against the bottom edge of `within`, centred along it: a card
/// for the south seat needs no turn, so it is a plain area, hit where it is drawn. Like a turned
/// card, it stays above the screen it is drawn over.
pub fn upright_card<R>(
    ctx: &egui::Context,
    id: egui::Id,
    within: Rect,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let shown = egui::Area::new(id)
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::CENTER_BOTTOM)
        .fixed_pos(Pos2::new(within.center().x, within.bottom() - EDGE_GAP))
        .fade_in(false)
        .show(ctx, |ui| {
            ui.set_max_width((within.width() - 2.0 * EDGE_GAP).max(160.0));
            egui::Frame::window(ui.style()).inner_margin(14.0).show(ui, add_contents).inner
        });
    ctx.move_to_top(shown.response.layer_id);
    shown.inner
}

/// The centre of a card of `size` (as drawn) against `edge` of `within`, centred along it.
fn against(edge: TableEdge, size: Vec2, within: Rect) -> Pos2 {
    let centre = within.center();
    match edge {
        TableEdge::South => Pos2::new(centre.x, within.bottom() - EDGE_GAP - size.y / 2.0),
        TableEdge::North => Pos2::new(centre.x, within.top() + EDGE_GAP + size.y / 2.0),
        TableEdge::East => Pos2::new(within.right() - EDGE_GAP - size.x / 2.0, centre.y),
        TableEdge::West => Pos2::new(within.left() + EDGE_GAP + size.x / 2.0, centre.y),
    }
}

/// Turns every shape of `layer` (and its clip rectangle) from the layout onto its drawn place,
/// less the layer's `offset`, which egui adds back when it paints.
fn turn_layer(ctx: &egui::Context, layer: egui::LayerId, turned: &Turned, offset: Vec2) {
    // Text keeps its shape and turns by its angle, so the font atlas is never read here.
    let options = ctx.tessellation_options(|options| *options);
    let mut tessellator = epaint::Tessellator::new(ctx.pixels_per_point(), options, [1, 1], Vec::new());
    ctx.graphics_mut(|graphics| {
        let Some(list) = graphics.get_mut(layer) else { return };
        for index in 0..list.next_idx().0 {
            list.mutate_shape(egui::layers::ShapeIdx(index), |clipped| {
                clipped.clip_rect = turned.rect_to_screen(clipped.clip_rect).translate(-offset);
                turn_shape(&mut clipped.shape, turned, &mut tessellator);
                clipped.shape.translate(-offset);
            });
        }
    });
}

fn turn_shape(shape: &mut egui::Shape, turned: &Turned, tessellator: &mut epaint::Tessellator) {
    match shape {
        egui::Shape::Noop | egui::Shape::Callback(_) => {}
        egui::Shape::Vec(shapes) => {
            for shape in shapes {
                turn_shape(shape, turned, tessellator);
            }
        }
        egui::Shape::Text(text) => {
            // Turning about its own corner, moved to where that corner is drawn, turns it about
            // the card's centre.
            text.pos = turned.to_screen(text.pos);
            text.angle += turned.angle();
        }
        egui::Shape::Mesh(mesh) => turn_mesh(std::sync::Arc::make_mut(mesh), turned),
        other => {
            let mut mesh = epaint::Mesh::with_texture(other.texture_id());
            tessellator.tessellate_shape(std::mem::replace(other, egui::Shape::Noop), &mut mesh);
            turn_mesh(&mut mesh, turned);
            *other = egui::Shape::mesh(mesh);
        }
    }
}

fn turn_mesh(mesh: &mut epaint::Mesh, turned: &Turned) {
    for vertex in &mut mesh.vertices {
        vertex.pos = turned.to_screen(vertex.pos);
    }
}

/// Sends the pointer over a turned card to the card's layout, where egui finds its widgets: the
/// pointer and touch positions of `input` over a card drawn in the last pass, and those of a press
/// that began on one until it is released. Call it on each pass's input before the pass (the app
/// does in `PreUpdate`, tests on the harness's input).
pub fn turn_pointer(ctx: &egui::Context, input: &mut egui::RawInput) {
    let pass = ctx.cumulative_pass_nr();
    let cards = ctx
        .data(|data| data.get_temp::<PlacedCards>(placed_id()))
        .filter(|(nr, _)| nr + 1 == pass)
        .map(|(_, cards)| cards)
        .unwrap_or_default();
    if cards.is_empty() {
        return;
    }
    let on_card = |at: Pos2| cards.iter().rev().find(|card| card.drawn.contains(at)).copied();
    // A press that began on a card, as egui has the pointer now (in the card's layer).
    let mut held = ctx
        .input(|input| input.pointer.any_down().then(|| input.pointer.latest_pos()).flatten())
        .and_then(|at| cards.iter().rev().find(|card| card.layout.translate(card.offset).contains(at)).copied());
    for event in &mut input.events {
        let (at, pressed) = match event {
            egui::Event::PointerMoved(at) => (at, None),
            egui::Event::PointerButton { pos, pressed, .. } => (pos, Some(*pressed)),
            egui::Event::Touch { pos, .. } => (pos, None),
            _ => continue,
        };
        let card = held.or_else(|| on_card(*at));
        if let Some(card) = card {
            *at = card.turned.to_layout(*at) + card.offset;
        }
        match pressed {
            Some(true) => held = card,
            Some(false) => held = None,
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_turn_is_exact_and_undone() {
        let turned =
            Turned { quarter_turns: 1, layout_centre: Pos2::new(100.0, 50.0), drawn_centre: Pos2::new(20.0, 300.0) };
        // The layout's right goes down the screen, its top to the right: read from the west.
        assert_eq!(turned.to_screen(Pos2::new(110.0, 50.0)), Pos2::new(20.0, 310.0));
        assert_eq!(turned.to_screen(Pos2::new(100.0, 40.0)), Pos2::new(30.0, 300.0));
        for quarter_turns in 0..4 {
            let turned = Turned { quarter_turns, ..turned };
            let at = Pos2::new(37.0, -12.5);
            assert_eq!(turned.to_layout(turned.to_screen(at)), at, "{quarter_turns}");
        }
        let everything = Turned { quarter_turns: 3, ..turned }.rect_to_screen(Rect::EVERYTHING);
        assert_eq!(everything, Rect::EVERYTHING, "an unbounded clip stays unbounded");
        let east = Turned { quarter_turns: quarter_turns(TableEdge::East), ..turned };
        assert_eq!(east.to_screen(Pos2::new(110.0, 50.0)), Pos2::new(20.0, 290.0), "lines run up the east edge");
    }
}
