//! The panels that float over the map (issue 39): each a window that can be moved, resized,
//! collapsed to its title and closed, opened again from the bar's *Panels* menu or its key. Where
//! each one is, whether it is open or collapsed, is kept in a small settings file beside the
//! user's configuration (`$XDG_CONFIG_HOME/battlemap/panels.json`), not in the scenario. The map
//! is drawn under the whole window; *Fit map* frames it in the largest part the panels leave
//! ([`largest_free`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui;
use serde::{Deserialize, Serialize};

use crate::app::core::messages::{PanelName, TableView, Toggle};
use crate::app::core::options::LaunchOptions;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelLayout>()
        .add_systems(Startup, read_settings)
        .add_systems(Update, toggle_panels.in_set(crate::app::core::schedule::AppSystems::Apply));
}

/// The largest settings file read (a few hundred bytes are written).
const MAX_SETTINGS_BYTES: u64 = 64 * 1024;

/// Where a panel was, as the settings file keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PanelPlace {
    pub open: bool,
    pub collapsed: bool,
    /// Its top left corner, in logical pixels.
    pub at: [f32; 2],
    /// Its size, title bar included (when open: collapsed, it is its title).
    pub size: [f32; 2],
}

/// The settings file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    panels: BTreeMap<PanelName, PanelPlace>,
}

/// Which panels are open over the map, where each was last, and whether the table view hides
/// them.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct PanelLayout {
    pub open: BTreeSet<PanelName>,
    /// The places read from the settings file (each panel's first place this run).
    pub saved: BTreeMap<PanelName, PanelPlace>,
    /// Every panel hidden but the initiative strip and the active creature's turn card.
    pub table_view: bool,
    /// The settings file, if there is a place for one.
    pub file: Option<PathBuf>,
    /// What was last written to it.
    written: Option<Settings>,
}

impl Default for PanelLayout {
    fn default() -> Self {
        Self {
            open: BTreeSet::from([PanelName::Roster, PanelName::Card, PanelName::Initiative]),
            saved: BTreeMap::new(),
            table_view: false,
            file: None,
            written: None,
        }
    }
}

impl PanelLayout {
    pub fn is_open(&self, name: PanelName) -> bool {
        self.open.contains(&name)
    }

    pub fn set_open(&mut self, name: PanelName, open: bool) {
        if open {
            self.open.insert(name);
        } else {
            self.open.remove(&name);
        }
    }

    /// Writes where the panels are to the settings file, if it changed (`places`: every panel's
    /// place now, the closed ones' as last seen).
    pub fn remember(&mut self, places: BTreeMap<PanelName, PanelPlace>) {
        let settings = Settings { panels: places };
        if self.written.as_ref() == Some(&settings) {
            return;
        }
        if let Some(file) = &self.file {
            let written = file
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| serde_json::to_string_pretty(&settings).map_err(std::io::Error::other))
                .and_then(|text| crate::files::write_atomically(file, &text));
            if let Err(error) = written {
                warn!("the panels' places could not be kept in {}: {error}", file.display());
            }
        }
        self.written = Some(settings);
    }
}

/// The settings file in the user's configuration directory `config`.
pub fn settings_file(config: &Path) -> PathBuf {
    config.join("panels.json")
}

/// Reads the panels' places from the settings file; a file that can't be read is left alone and
/// the panels start where they always do.
fn read_settings(options: Option<Res<LaunchOptions>>, mut layout: ResMut<PanelLayout>) {
    let Some(file) = options.and_then(|o| o.config_directory.as_deref().map(settings_file)) else { return };
    layout.file = Some(file.clone());
    let Some(settings) = read(&file) else { return };
    layout.open = settings.panels.iter().filter(|(_, p)| p.open).map(|(name, _)| *name).collect();
    layout.saved = settings.panels.clone();
    layout.written = Some(settings);
}

/// The settings in `file`, if it holds them (at most [`MAX_SETTINGS_BYTES`] are read, and only a
/// regular file; every number must be finite and within reach of a screen).
fn read(file: &Path) -> Option<Settings> {
    use std::io::Read;
    if !std::fs::metadata(file).ok()?.is_file() {
        return None;
    }
    let mut text = String::new();
    std::fs::File::open(file).ok()?.take(MAX_SETTINGS_BYTES).read_to_string(&mut text).ok()?;
    let settings: Settings = serde_json::from_str(&text).ok()?;
    let sound = |v: f32| v.is_finite() && v.abs() <= 100_000.0;
    settings.panels.values().all(|p| p.at.into_iter().chain(p.size).all(sound)).then_some(settings)
}

/// Opens or closes the panels the keys and the bar ask for; switches the table view.
fn toggle_panels(
    mut toggles: MessageReader<Toggle>,
    mut table: MessageReader<TableView>,
    mut layout: ResMut<PanelLayout>,
) {
    for TableView(on) in table.read() {
        layout.table_view = *on;
    }
    for toggle in toggles.read() {
        if let Toggle::Panel(name) = *toggle {
            let open = !layout.is_open(name);
            layout.set_open(name, open);
            if open {
                layout.table_view = false;
            }
        }
    }
}

/// Where a panel starts on a window of `screen` (logical pixels) when the settings file has no
/// place for it: the roster and the card down the left, the initiative at the top right, the dice
/// below it, the legend beside the roster. Small, so that with the roster, a card, the
/// initiative and the dice open at 1280×800 the map keeps more than 60% of the window.
pub fn default_place(name: PanelName, screen: egui::Rect) -> (egui::Pos2, egui::Vec2) {
    let margin = 6.0;
    let (left, top, right) = (screen.min.x + margin, screen.min.y + margin, screen.max.x - margin);
    match name {
        PanelName::Roster => (egui::pos2(left, top), egui::vec2(280.0, 190.0)),
        // Down to the bar, on a window tall enough.
        PanelName::Card => {
            (egui::pos2(left, top + 236.0), egui::vec2(280.0, (screen.height() - 380.0).clamp(200.0, 420.0)))
        }
        PanelName::Initiative => (egui::pos2(right - 216.0, top), egui::vec2(200.0, 170.0)),
        PanelName::Dice => (egui::pos2(right - 316.0, top + 220.0), egui::vec2(300.0, 260.0)),
        PanelName::Legend => (egui::pos2(left + 300.0, top), egui::vec2(260.0, 300.0)),
    }
}

/// A panel's window over the map: its title `title`, where it is (the settings file's place, or
/// its default one), kept inside `within`; `None` if it is closed, or closed now by its ×.
/// `contents` draws what it holds, scrolled within the panel's size (a long card, a wide row of
/// buttons never widen it) unless it scrolls itself (the roster's rows); `drawn` records it once
/// it is drawn at its own size.
pub fn floating<R>(
    ctx: &egui::Context,
    name: PanelName,
    title: impl Into<egui::WidgetText>,
    layout: &mut PanelLayout,
    within: egui::Rect,
    drawn: &mut BTreeSet<PanelName>,
    contents: impl FnOnce(&mut egui::Ui) -> R,
) -> Option<R> {
    if !layout.is_open(name) {
        return None;
    }
    let (at, size) =
        layout.saved.get(&name).map_or_else(|| default_place(name, within), |p| (p.at.into(), p.size.into()));
    let collapsed = layout.saved.get(&name).is_some_and(|p| p.collapsed);
    let mut open = true;
    let shown = egui::Window::new(title)
        .id(window_id(name))
        .open(&mut open)
        .default_pos(at)
        .default_size(size)
        .default_open(!collapsed)
        .resizable(true)
        .collapsible(true)
        .constrain_to(within)
        .scroll([false, name != PanelName::Roster])
        .show(ctx, |ui| {
            // A window's first frame only measures its contents: its size is not yet its own.
            if !ui.is_sizing_pass() {
                drawn.insert(name);
            }
            contents(ui)
        });
    if !open {
        layout.set_open(name, false);
    }
    shown.and_then(|shown| shown.inner)
}

/// The id of a panel's window.
pub fn window_id(name: PanelName) -> egui::Id {
    egui::Id::new(("panel", name))
}

/// Every panel's place now: an open one's as egui has it this frame (`drawn` holds those
/// drawn), a closed one's as last seen.
pub fn places(
    ctx: &egui::Context,
    layout: &PanelLayout,
    drawn: &BTreeSet<PanelName>,
    last: &BTreeMap<PanelName, PanelPlace>,
) -> BTreeMap<PanelName, PanelPlace> {
    PanelName::ALL
        .into_iter()
        .filter_map(|name| {
            let open = layout.is_open(name);
            let id = window_id(name);
            let rect = ctx.memory(|m| m.area_rect(id));
            let collapsed =
                !egui::collapsing_header::CollapsingState::load_with_default_open(ctx, id.with("collapsing"), true)
                    .is_open();
            let last = last.get(&name).or(layout.saved.get(&name));
            let place = match rect {
                // Collapsed, a window is its title: its size is the one it opens to.
                Some(rect) if open && drawn.contains(&name) => {
                    let size = if collapsed {
                        last.map_or([rect.width(), rect.height()], |l| l.size)
                    } else {
                        [rect.width(), rect.height()]
                    };
                    PanelPlace { open, collapsed, at: [rect.min.x, rect.min.y], size }
                }
                _ => PanelPlace { open, ..*last? },
            };
            Some((name, place))
        })
        .collect()
}

/// The largest part of `screen` no rectangle of `covers` overlaps, for framing a map whose
/// bounds are `map` in it: of the free rectangles with edges on the screen's and the covers'
/// edges, the one in which the map is drawn largest (not the one of largest area: a tall strip
/// suits a tall map). `None` when nothing of the screen is free.
pub fn largest_free(screen: Rect, covers: &[Rect], map: Vec2) -> Option<Rect> {
    let covers: Vec<Rect> = covers.iter().map(|c| c.intersect(screen)).filter(|c| !c.is_empty()).collect();
    let edges = |lo: f32, hi: f32, of: fn(&Rect) -> [f32; 2]| {
        let mut edges: Vec<f32> =
            std::iter::once(lo).chain(std::iter::once(hi)).chain(covers.iter().flat_map(of)).collect();
        edges.sort_by(f32::total_cmp);
        edges.dedup();
        edges
    };
    let xs = edges(screen.min.x, screen.max.x, |r| [r.min.x, r.max.x]);
    let ys = edges(screen.min.y, screen.max.y, |r| [r.min.y, r.max.y]);
    let map = map.max(Vec2::splat(1.0));
    let shown = |r: &Rect| (r.width() / map.x).min(r.height() / map.y);
    let mut best: Option<Rect> = None;
    for (i, &x0) in xs.iter().enumerate() {
        for &x1 in &xs[i + 1..] {
            for (j, &y0) in ys.iter().enumerate() {
                for &y1 in &ys[j + 1..] {
                    let candidate = Rect::new(x0, y0, x1, y1);
                    let overlaps = |c: &Rect| c.min.x < x1 && c.max.x > x0 && c.min.y < y1 && c.max.y > y0;
                    if covers.iter().any(overlaps) {
                        // Taller ones with these sides overlap too.
                        break;
                    }
                    if best.is_none_or(|b| shown(&candidate) > shown(&b)) {
                        best = Some(candidate);
                    }
                }
            }
        }
    }
    best
}

/// How much of `screen` the rectangles `covers` leave uncovered, from 0 to 1 (their overlaps
/// counted once).
pub fn uncovered_share(screen: Rect, covers: &[Rect]) -> f32 {
    let covers: Vec<Rect> = covers.iter().map(|c| c.intersect(screen)).filter(|c| !c.is_empty()).collect();
    let mut xs: Vec<f32> = covers.iter().flat_map(|r| [r.min.x, r.max.x]).collect();
    xs.sort_by(f32::total_cmp);
    xs.dedup();
    let mut covered = 0.0;
    for pair in xs.windows(2) {
        let (x0, x1) = (pair[0], pair[1]);
        let mut spans: Vec<(f32, f32)> =
            covers.iter().filter(|r| r.min.x <= x0 && r.max.x >= x1).map(|r| (r.min.y, r.max.y)).collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (mut length, mut reach) = (0.0, f32::NEG_INFINITY);
        for (y0, y1) in spans {
            let start = y0.max(reach);
            if y1 > start {
                length += y1 - start;
            }
            reach = reach.max(y1);
        }
        covered += (x1 - x0) * length;
    }
    let area = screen.width() * screen.height();
    if area <= 0.0 { 0.0 } else { (1.0 - covered / area).clamp(0.0, 1.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The free part a fit uses: the biggest room for the map's shape between the panels.
    #[test]
    fn the_map_is_framed_in_the_largest_free_part() {
        let screen = Rect::new(0.0, 0.0, 1280.0, 800.0);
        assert_eq!(largest_free(screen, &[], Vec2::new(10.0, 10.0)), Some(screen));
        let roster = Rect::new(0.0, 0.0, 300.0, 600.0);
        let dice = Rect::new(980.0, 200.0, 1280.0, 740.0);
        let bar = Rect::new(0.0, 740.0, 1280.0, 800.0);
        let covers = [roster, dice, bar];
        // A square map: the middle column, between the roster and the dice, above the bar.
        assert_eq!(largest_free(screen, &covers, Vec2::new(1.0, 1.0)), Some(Rect::new(300.0, 0.0, 980.0, 740.0)));
        // A wide, short one: the band above the dice, right of the roster.
        assert_eq!(largest_free(screen, &covers, Vec2::new(5.0, 1.0)), Some(Rect::new(300.0, 0.0, 1280.0, 200.0)));
        for map in [Vec2::ONE, Vec2::new(5.0, 1.0), Vec2::new(1.0, 7.0)] {
            let free = largest_free(screen, &covers, map).expect("free");
            assert!(covers.iter().all(|c| c.intersect(free).is_empty()), "{free:?} overlaps none");
        }
        assert_eq!(largest_free(screen, &[screen], Vec2::ONE), None);
    }

    #[test]
    fn the_uncovered_share_counts_overlaps_once() {
        let screen = Rect::new(0.0, 0.0, 100.0, 100.0);
        assert_eq!(uncovered_share(screen, &[]), 1.0);
        let a = Rect::new(0.0, 0.0, 50.0, 50.0);
        let b = Rect::new(25.0, 25.0, 75.0, 75.0);
        // 2500 + 2500 - 625 covered.
        assert!((uncovered_share(screen, &[a, b]) - (1.0 - 4375.0 / 10000.0)).abs() < 1e-6);
        // Off the screen counts for nothing.
        assert_eq!(uncovered_share(screen, &[Rect::new(200.0, 0.0, 300.0, 100.0)]), 1.0);
    }

    /// The settings file: read back as written; one with numbers out of reach, or not a regular
    /// file, is not used.
    #[test]
    fn the_panels_places_are_read_back_and_a_bad_file_is_left_alone() {
        let dir = std::env::temp_dir().join(format!("battlemap-panels-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let file = settings_file(&dir);
        let mut layout = PanelLayout { file: Some(file.clone()), ..PanelLayout::default() };
        let place = PanelPlace { open: true, collapsed: true, at: [10.0, 20.0], size: [300.0, 200.0] };
        layout.remember(BTreeMap::from([(PanelName::Dice, place)]));
        assert_eq!(read(&file).expect("written").panels[&PanelName::Dice], place);
        std::fs::write(
            &file,
            r#"{"panels": {"dice": {"open": true, "collapsed": false, "at": [1e30, 0], "size": [1, 1]}}}"#,
        )
        .expect("write");
        assert_eq!(read(&file), None);
        std::fs::remove_file(&file).expect("remove");
        std::fs::create_dir(&file).expect("a directory");
        assert_eq!(read(&file), None);
    }
}
