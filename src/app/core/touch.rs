//! Fingers on the map, for a touch screen laid on the table: one finger is the left button (a tap
//! selects, a drag moves a token with the same previews as the mouse's), two fingers pan and pinch
//! the view, and a finger held still opens the token's card. [`Gesture`] reads the fingers and
//! says what they do; [`read_fingers`] turns that into the pointer's button and position, and into
//! [`PanZoom`] and [`LongPress`] messages.

use bevy::input::InputSystems;
use bevy::input::touch::Touches;
use bevy::prelude::*;
use bevy::window::CursorMoved;

use super::state::RedrawFrames;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Fingers>().add_message::<PanZoom>().add_message::<LongPress>();
}

/// Reading the fingers: only where there is a window (or a test's stand-in for one).
pub(super) fn window_plugin(app: &mut App) {
    app.add_systems(PreUpdate, read_fingers.after(InputSystems));
}

/// How far a finger may stray and still tap or hold, in logical pixels.
const SLOP: f32 = 10.0;

/// How long a finger is held still to open a card, in seconds.
pub const LONG_PRESS_SECONDS: f64 = 0.6;

/// Two fingers moved the view: pan by `pan` (screen pixels, y down), then zoom by `zoom` (above 1
/// zooms in) keeping the point `around` (a screen position) where it is.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct PanZoom {
    pub pan: Vec2,
    pub zoom: f32,
    pub around: Vec2,
}

/// A finger held still at this screen position: the card of the token there opens.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct LongPress(pub Vec2);

/// What the fingers did in one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FingerEvent {
    /// One finger went down here: the left button is pressed.
    Press(Vec2),
    /// The pressing finger moved here.
    Move(Vec2),
    /// It was lifted: the left button is released.
    Release,
    /// The press is taken back (a second finger came, or the finger was held): the button is
    /// released, but nothing the press began (a drag, a click) is done.
    Cancel,
    LongPress(Vec2),
    PanZoom(PanZoom),
}

/// What the fingers on the screen are doing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Gesture {
    #[default]
    None,
    /// One finger pressing, since `since` (seconds); `still` while it has stayed near `start`;
    /// `held` once it has been held long enough to open a card.
    Press { id: u64, start: Vec2, since: f64, still: bool, held: bool },
    /// Two fingers moving the view: their midpoint and distance apart last frame.
    Pinch { a: u64, b: u64, middle: Vec2, span: f32 },
    /// The gesture is over, but fingers are still down: nothing happens until all are lifted.
    Spent,
}

impl Gesture {
    /// The next state, from the fingers down now and those lifted since the last frame (a quick
    /// tap can be both down and lifted between two frames: it is among the lifted only), at
    /// `now` seconds; and what happened.
    pub fn step(&mut self, down: &[(u64, Vec2)], lifted: &[(u64, Vec2)], now: f64) -> Vec<FingerEvent> {
        let mut events = Vec::new();
        let position = |id: u64| down.iter().find(|(i, _)| *i == id).map(|(_, p)| *p);
        match *self {
            Gesture::None => match (down, lifted) {
                ([(id, at)], _) => {
                    events.push(FingerEvent::Press(*at));
                    *self = Gesture::Press { id: *id, start: *at, since: now, still: true, held: false };
                }
                ([first, second, ..], _) => *self = pinch(*first, *second),
                ([], [(_, at), ..]) => events.extend([FingerEvent::Press(*at), FingerEvent::Release]),
                ([], []) => {}
            },
            Gesture::Press { id, start, since, still, held } => match position(id) {
                Some(at) if down.len() > 1 => {
                    if !held {
                        events.push(FingerEvent::Cancel);
                    }
                    let other = down.iter().find(|(i, _)| *i != id).copied();
                    *self = other.map_or(Gesture::Spent, |other| pinch((id, at), other));
                }
                Some(at) => {
                    let still = still && at.distance(start) <= SLOP;
                    if !held {
                        events.push(FingerEvent::Move(at));
                    }
                    let now_held = held || (still && now - since >= LONG_PRESS_SECONDS);
                    if now_held && !held {
                        events.extend([FingerEvent::Cancel, FingerEvent::LongPress(start)]);
                    }
                    *self = Gesture::Press { id, start, since, still, held: now_held };
                }
                None => {
                    if !held {
                        if let Some((_, at)) = lifted.iter().find(|(i, _)| *i == id) {
                            events.push(FingerEvent::Move(*at));
                        }
                        events.push(FingerEvent::Release);
                    }
                    *self = if down.is_empty() { Gesture::None } else { Gesture::Spent };
                }
            },
            Gesture::Pinch { a, b, middle, span } => match (position(a), position(b)) {
                (Some(pa), Some(pb)) => {
                    let (new_middle, new_span) = ((pa + pb) / 2.0, pa.distance(pb));
                    let zoom = if span > 1.0 && new_span > 1.0 { new_span / span } else { 1.0 };
                    if new_middle != middle || zoom != 1.0 {
                        events.push(FingerEvent::PanZoom(PanZoom {
                            pan: new_middle - middle,
                            zoom,
                            around: new_middle,
                        }));
                    }
                    *self = Gesture::Pinch { a, b, middle: new_middle, span: new_span };
                }
                _ => *self = if down.is_empty() { Gesture::None } else { Gesture::Spent },
            },
            Gesture::Spent => {
                if down.is_empty() {
                    *self = Gesture::None;
                }
            }
        }
        events
    }
}

fn pinch((a, pa): (u64, Vec2), (b, pb): (u64, Vec2)) -> Gesture {
    Gesture::Pinch { a, b, middle: (pa + pb) / 2.0, span: pa.distance(pb) }
}

/// The fingers as the map reads them.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Fingers {
    pub gesture: Gesture,
    /// Where the last finger touched, while the mouse has not moved since: the pointer's place
    /// (so a tapped target stays under the pointer, its ruling shown, until the next tap).
    pub at: Option<Vec2>,
    /// A finger has touched the screen: the panels take finger-sized buttons.
    pub touched: bool,
    /// The finger's press was taken back (a second finger came, or it was held to open a card):
    /// its release drops a drag where it began and clears nothing.
    pub cancelled: bool,
}

impl Fingers {
    /// Whether the pointer is a finger's (and so the last press was a finger's).
    pub fn in_use(&self) -> bool {
        self.at.is_some()
    }
}

/// Turns the fingers' gesture into the pointer's left button and place, and into the view's pan
/// and zoom and a card's opening. Runs after Bevy has read the frame's touches.
#[allow(clippy::too_many_arguments)]
pub fn read_fingers(
    touches: Option<Res<Touches>>,
    time: Res<Time>,
    mut cursor: MessageReader<CursorMoved>,
    mut fingers: ResMut<Fingers>,
    mut buttons: ResMut<ButtonInput<MouseButton>>,
    mut view: MessageWriter<PanZoom>,
    mut long_presses: MessageWriter<LongPress>,
    mut redraw: ResMut<RedrawFrames>,
) {
    let Some(touches) = touches else { return };
    let down: Vec<(u64, Vec2)> = touches.iter().map(|t| (t.id(), t.position())).collect();
    let lifted: Vec<(u64, Vec2)> =
        touches.iter_just_released().chain(touches.iter_just_canceled()).map(|t| (t.id(), t.position())).collect();
    if down.is_empty() && lifted.is_empty() {
        if fingers.gesture == Gesture::None && cursor.read().count() > 0 && fingers.at.is_some() {
            fingers.at = None;
        }
        if fingers.gesture == Gesture::None {
            return;
        }
    }
    cursor.clear();
    let mut gesture = fingers.gesture;
    let events = gesture.step(&down, &lifted, time.elapsed_secs_f64());
    if fingers.gesture != gesture {
        fingers.gesture = gesture;
    }
    for event in events {
        match event {
            FingerEvent::Press(at) => {
                fingers.at = Some(at);
                fingers.touched = true;
                fingers.cancelled = false;
                buttons.press(MouseButton::Left);
            }
            FingerEvent::Move(at) => {
                if fingers.at != Some(at) {
                    fingers.at = Some(at);
                }
            }
            FingerEvent::Release | FingerEvent::Cancel => {
                if event == FingerEvent::Cancel {
                    fingers.cancelled = true;
                }
                buttons.release(MouseButton::Left);
            }
            FingerEvent::LongPress(at) => {
                long_presses.write(LongPress(at));
            }
            FingerEvent::PanZoom(pan_zoom) => {
                view.write(pan_zoom);
            }
        }
    }
    // A finger held still sends nothing: draw on, so that the long press is seen in time.
    if !down.is_empty() {
        redraw.at_least(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(steps: &[(&[(u64, Vec2)], &[(u64, Vec2)], f64)]) -> Vec<FingerEvent> {
        let mut gesture = Gesture::None;
        steps.iter().flat_map(|(down, lifted, now)| gesture.step(down, lifted, *now)).collect()
    }

    #[test]
    fn a_tap_presses_and_releases_even_within_one_frame() {
        let at = Vec2::new(100.0, 50.0);
        assert_eq!(
            run(&[(&[(1, at)], &[], 0.0), (&[], &[(1, at)], 0.1)]),
            [FingerEvent::Press(at), FingerEvent::Move(at), FingerEvent::Release]
        );
        assert_eq!(run(&[(&[], &[(1, at)], 0.0)]), [FingerEvent::Press(at), FingerEvent::Release]);
    }

    #[test]
    fn a_drag_moves_the_press_and_a_second_finger_takes_it_back_to_pinch() {
        let (a, b) = (Vec2::new(100.0, 100.0), Vec2::new(200.0, 100.0));
        let events = run(&[
            (&[(1, a)], &[], 0.0),
            (&[(1, a + Vec2::X * 30.0)], &[], 0.1),
            (&[(1, a + Vec2::X * 30.0), (2, b)], &[], 0.2),
            (&[(1, a), (2, b + Vec2::X * 30.0)], &[], 0.3),
        ]);
        assert_eq!(events[..3], [FingerEvent::Press(a), FingerEvent::Move(a + Vec2::X * 30.0), FingerEvent::Cancel]);
        let FingerEvent::PanZoom(pz) = events[3] else { panic!("a pan and zoom: {events:?}") };
        assert!((pz.zoom - 130.0 / 70.0).abs() < 1e-4, "the fingers spread from 70 to 130 px: {pz:?}");
        assert_eq!(pz.around, (a + b + Vec2::X * 30.0) / 2.0);
    }

    #[test]
    fn a_finger_held_still_opens_the_card_once_and_a_moving_one_never() {
        let at = Vec2::new(10.0, 10.0);
        let held =
            run(&[(&[(1, at)], &[], 0.0), (&[(1, at)], &[], 0.7), (&[(1, at)], &[], 0.9), (&[], &[(1, at)], 1.0)]);
        assert_eq!(
            held,
            [FingerEvent::Press(at), FingerEvent::Move(at), FingerEvent::Cancel, FingerEvent::LongPress(at),]
        );
        let away = at + Vec2::X * 40.0;
        let moved = run(&[(&[(1, at)], &[], 0.0), (&[(1, away)], &[], 0.3), (&[(1, away)], &[], 1.0)]);
        assert!(!moved.iter().any(|e| matches!(e, FingerEvent::LongPress(_))), "{moved:?}");
    }
}
