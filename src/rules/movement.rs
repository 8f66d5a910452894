//! Moving on the grid: the cost of each step, where a creature can end its move this turn, and
//! the cheapest path there.
//!
//! PHB "Variant: Playing on a Grid" (entering a square, difficult terrain, corners) and
//! "Squeezing into a Smaller Space" (004_ebe0798b5689cc3b.txt); DMG "Optional Rule: Diagonals"
//! (002_ce573f1e51986339.txt); conventions, "Movement". The calls this module makes where the
//! rules are silent are listed in `docs/rules.md`, "Movement".

use serde::{Deserialize, Serialize};

use super::creature::Side;
use super::distance::{DiagonalParity, DiagonalRule, FEET_PER_CELL};
use super::grid::{Cell, Grid, HEX_STEPS, SQUARE_STEPS};
use super::size::{Footprint, Size, may_share_a_cell};
use super::terrain::TerrainMap;

/// The creature that moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mover {
    pub size: Size,
    /// The side of a larger Gargantuan square space, as in the scenario.
    pub square_side: Option<u32>,
    pub side: Side,
    /// Crawling (prone) costs 1 extra foot per foot.
    pub crawling: bool,
}

/// Another creature or object on the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occupant {
    pub id: String,
    pub cells: Vec<Cell>,
    pub side: Side,
    pub size: Size,
    /// Objects fill their space: nothing moves through them.
    pub is_object: bool,
}

/// The board as movement sees it: terrain, the diagonal rule, and everyone else's spaces.
#[derive(Clone, Copy, Debug)]
pub struct Board<'a> {
    pub map: &'a TerrainMap,
    pub rule: DiagonalRule,
    pub others: &'a [Occupant],
}

/// Why a creature cannot end its move in a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum MoveError {
    /// The space would leave the map.
    #[error("off the map")]
    OffMap,
    /// The space (even squeezed) holds terrain that blocks movement.
    #[error("blocked: {terrain} at {at}")]
    Blocked { terrain: String, at: Cell },
    /// Another creature or object is there, and the mover can't end its move in its space.
    #[error("occupied by {by}: a creature can't end its move in another's space")]
    Occupied { by: String },
    /// It can be reached, but costs more movement than is left.
    #[error("not enough movement: it costs {needed} ft and {left} ft are left")]
    NotEnoughMovement { needed: u32, left: u32 },
    /// No way there at all (walls, hostile creatures or objects in the way).
    #[error("no way there: walls, objects or hostile creatures are in the way")]
    NoPath,
}

/// How a creature's space fits at an anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fit {
    /// Its whole space fits.
    Full,
    /// Only the space of a creature one size smaller fits: it squeezes (PHB "Squeezing into a
    /// Smaller Space"): 1 extra foot per foot, disadvantage on attacks and Dexterity saves,
    /// attacks against it have advantage.
    Squeezing,
}

/// One step of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The anchor after the step.
    pub to: Cell,
    /// Feet this step costs.
    pub cost: u32,
    pub diagonal: bool,
    pub difficult: bool,
    pub squeezing: bool,
}

/// The cheapest way to a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Path {
    pub start: Cell,
    #[serde(deserialize_with = "super::bounded::at_most::<_, _, MAX_MOVES>")]
    pub steps: Vec<Step>,
    /// Total feet.
    pub cost: u32,
    /// The diagonal count after the path, to carry into the rest of the turn.
    pub parity: DiagonalParity,
    /// How the space fits at the end.
    pub fit: Fit,
}

impl Path {
    /// Every anchor along the path, the start included.
    pub fn cells(&self) -> Vec<Cell> {
        std::iter::once(self.start).chain(self.steps.iter().map(|s| s.to)).collect()
    }

    /// The same path with every step costing `factor` times its feet (a grappler dragging what it
    /// holds: PHB "Moving a Grappled Creature").
    pub fn costing(mut self, factor: u32) -> Path {
        for step in &mut self.steps {
            step.cost = step.cost.saturating_mul(factor);
        }
        self.cost = self.cost.saturating_mul(factor);
        self
    }

    /// The path cut after its first `steps` steps: the part walked before an interruption, and
    /// the rest, each with its cost and the diagonal count after it under `rule`.
    pub fn split_at(&self, steps: usize, rule: DiagonalRule) -> (Path, Path) {
        let k = steps.min(self.steps.len());
        let (done, rest) = self.steps.split_at(k);
        let fit = |steps: &[Step], start: Fit| {
            steps.last().map_or(start, |s| if s.squeezing { Fit::Squeezing } else { Fit::Full })
        };
        // Each diagonal flips the count under the alternating rule; the rest's diagonals undo it.
        let flips = rule == DiagonalRule::Alternating && rest.iter().filter(|s| s.diagonal).count() % 2 == 1;
        let middle = DiagonalParity(self.parity.0 ^ flips);
        let first = Path {
            start: self.start,
            steps: done.to_vec(),
            cost: done.iter().map(|s| s.cost).sum(),
            parity: middle,
            fit: fit(done, Fit::Full),
        };
        let second = Path {
            start: first.steps.last().map_or(self.start, |s| s.to),
            steps: rest.to_vec(),
            cost: rest.iter().map(|s| s.cost).sum(),
            parity: self.parity,
            fit: self.fit,
        };
        (first, second)
    }
}

/// A cell the creature can end its move in, and what it costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Reachable {
    pub cell: Cell,
    pub cost: u32,
    pub fit: Fit,
}

/// Everything the creature can reach from `start` with `budget` feet this turn.
pub struct Reach {
    grid: Grid,
    start: Cell,
    search: Search,
}

/// What a neighbour anchor is like for the mover (computed once per anchor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AnchorInfo {
    /// `None`: the space can't be there at all (off the map, blocking terrain).
    fit: Option<Fit>,
    /// Something the mover may not pass through is in the space (an object, a hostile creature
    /// less than two sizes apart).
    impassable: bool,
    /// Difficult terrain or another creature's space in the space.
    difficult: bool,
    /// The mover may end its move here.
    can_end: bool,
}

/// The search state: dense arrays over the box of anchors within reach.
struct Search {
    origin: Cell,
    width: i32,
    height: i32,
    parities: usize,
    cost: Vec<u32>,
    previous: Vec<u32>,
    info: Vec<Option<AnchorInfo>>,
}

const UNSEEN: u32 = u32::MAX;

impl Search {
    fn anchor_index(&self, cell: Cell) -> Option<usize> {
        let (x, y) = (cell.x - self.origin.x, cell.y - self.origin.y);
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (y * self.width + x) as usize)
    }

    fn cell_of(&self, anchor: usize) -> Cell {
        let anchor = anchor as i32;
        Cell::new(self.origin.x + anchor % self.width, self.origin.y + anchor / self.width)
    }
}

/// The mover's space, whole and squeezed (when one size smaller takes less room: not so for
/// Tiny to Medium creatures, which take one cell).
struct Shapes {
    full: Footprint,
    squeezed: Option<Footprint>,
}

impl Shapes {
    fn of(grid: Grid, mover: &Mover) -> Self {
        let full = Footprint::of(grid, mover.size, mover.square_side);
        let smaller = Footprint::of(grid, smaller(mover.size), None);
        let squeezed = (smaller.len() < full.len()).then_some(smaller);
        Self { full, squeezed }
    }

    fn footprint(&self, fit: Fit) -> &Footprint {
        match (fit, &self.squeezed) {
            (Fit::Squeezing, Some(squeezed)) => squeezed,
            _ => &self.full,
        }
    }
}

fn smaller(size: Size) -> Size {
    match size {
        Size::Tiny | Size::Small => Size::Tiny,
        Size::Medium => Size::Small,
        Size::Large => Size::Medium,
        Size::Huge => Size::Large,
        Size::Gargantuan => Size::Huge,
    }
}

fn size_rank(size: Size) -> i32 {
    Size::ALL.iter().position(|s| *s == size).unwrap_or(0) as i32
}

impl Board<'_> {
    fn grid(&self) -> Grid {
        self.map.grid()
    }

    /// Whether every cell of the footprint at `anchor` is on the map and free of terrain that
    /// blocks movement.
    fn open(&self, footprint: &Footprint, anchor: Cell) -> bool {
        footprint.at(anchor).all(|c| self.map.terrain(c).is_some_and(|t| !t.blocks_movement))
    }

    /// How the mover's space fits at `anchor`, if at all.
    fn fit(&self, shapes: &Shapes, anchor: Cell) -> Option<Fit> {
        if self.open(&shapes.full, anchor) {
            Some(Fit::Full)
        } else if shapes.squeezed.as_ref().is_some_and(|s| self.open(s, anchor)) {
            Some(Fit::Squeezing)
        } else {
            None
        }
    }

    fn anchor_info(&self, mover: &Mover, shapes: &Shapes, anchor: Cell, occupancy: &Occupancy) -> AnchorInfo {
        let Some(fit) = self.fit(shapes, anchor) else {
            return AnchorInfo { fit: None, impassable: true, difficult: false, can_end: false };
        };
        let mut impassable = false;
        let mut difficult = false;
        let mut can_end = true;
        for cell in shapes.footprint(fit).at(anchor) {
            if self.map.terrain(cell).is_some_and(|t| t.difficult) {
                difficult = true;
            }
            let here = occupancy.at(cell);
            if here.is_empty() {
                continue;
            }
            difficult = true;
            let sizes = here.iter().map(|&i| self.others[i].size).chain([mover.size]);
            if !may_share_a_cell(sizes) {
                can_end = false;
            }
            for &i in here {
                let other = &self.others[i];
                let hostile = other.side.is_hostile_to(mover.side);
                if other.is_object || (hostile && (size_rank(other.size) - size_rank(mover.size)).abs() < 2) {
                    impassable = true;
                }
            }
        }
        AnchorInfo { fit: Some(fit), impassable, difficult, can_end: can_end && !impassable }
    }
}

/// How the mover's space fits at `anchor` among the terrain of `map` (squeezing when only the
/// space of a creature one size smaller fits), if at all.
pub fn fit_at(map: &TerrainMap, mover: &Mover, anchor: Cell) -> Option<Fit> {
    let board = Board { map, rule: DiagonalRule::Standard, others: &[] };
    board.fit(&Shapes::of(map.grid(), mover), anchor)
}

/// Finds every cell `mover` can end its move in from `start`, spending at most `budget` feet,
/// with the diagonal count of the turn so far in `parity`.
///
/// Dijkstra over (anchor, diagonal parity). Each step enters an adjacent cell (8 on squares,
/// 6 on hexes) and costs its base (5 ft; 5 or 10 for a diagonal under the optional rule) times
/// 1 + difficult + squeezing + crawling. A step is taken only if the movement left pays for all of
/// it. Ties are broken the same way every time: anchors are settled in order of cost, then of
/// their index (row by row), and neighbours are tried straight steps first (east, south, west,
/// north, then south-east, south-west, north-west, north-east; on hexes in hexx's order); a path
/// keeps the first predecessor that reached its cheapest cost.
pub fn reach(board: &Board, mover: &Mover, start: Cell, budget: u32, parity: DiagonalParity) -> Reach {
    let grid = board.grid();
    let radius = i32::try_from(budget / FEET_PER_CELL).unwrap_or(i32::MAX / 4).saturating_add(1).min(i32::MAX / 4);
    let parities = if grid == Grid::Square && board.rule == DiagonalRule::Alternating { 2 } else { 1 };
    // Anchors within `radius` steps of the start, and on the map.
    let map_box = CellBox::around_map(board.map);
    let wanted = CellBox { origin: start.offset(-radius, -radius), width: 2 * radius + 1, height: 2 * radius + 1 };
    let anchor_box = wanted.intersect(&map_box);
    let anchors = anchor_box.len();
    let mut search = Search {
        origin: anchor_box.origin,
        width: anchor_box.width,
        height: anchor_box.height,
        parities,
        cost: vec![UNSEEN; anchors * parities],
        previous: vec![UNSEEN; anchors * parities],
        info: vec![None; anchors],
    };
    // Who stands where, for every cell a space anchored in the box can cover.
    let mut cell_box = anchor_box;
    cell_box.grow(Footprint::of(grid, mover.size, mover.square_side).len().isqrt() as i32 + 2);
    let occupancy = Occupancy::of(board.others, cell_box);

    let Some(start_anchor) = search.anchor_index(start) else {
        return Reach { grid, start, search };
    };
    let start_state = start_anchor * parities + usize::from(parities == 2 && parity.0);
    search.cost[start_state] = 0;
    let shapes = Shapes::of(grid, mover);
    let steps: &[(i32, i32)] = match grid {
        Grid::Square => &SQUARE_STEPS,
        Grid::Hex(_) => &HEX_STEPS,
    };
    // Dial's bucket queue: every cost is a multiple of 5 ft and a step costs at most 40 ft (a
    // 10-ft diagonal, difficult, squeezing and crawling), so a ring of 9 buckets holds every
    // pending cost. Within a bucket, states are settled in index order.
    const RING: usize = 9;
    let mut ring: [Vec<u32>; RING] = Default::default();
    ring[0].push(start_state as u32);
    let mut pending = 1usize;
    let mut units = 0u32;
    let info_at = |search: &mut Search, anchor: usize, cell: Cell| -> AnchorInfo {
        *search.info[anchor].get_or_insert_with(|| board.anchor_info(mover, &shapes, cell, &occupancy))
    };
    while pending > 0 {
        let mut bucket = std::mem::take(&mut ring[units as usize % RING]);
        pending -= bucket.len();
        bucket.sort_unstable();
        bucket.dedup();
        let cost = units * FEET_PER_CELL;
        for state in bucket {
            let state = state as usize;
            if search.cost[state] != cost {
                continue;
            }
            let anchor = state / parities;
            let odd = parities == 2 && state % 2 == 1;
            let here = search.cell_of(anchor);
            for &(dx, dy) in steps {
                let next = here.offset(dx, dy);
                let Some(next_anchor) = search.anchor_index(next) else { continue };
                let info = info_at(&mut search, next_anchor, next);
                let Some(fit) = info.fit.filter(|_| !info.impassable) else { continue };
                let diagonal = grid == Grid::Square && dx != 0 && dy != 0;
                if diagonal {
                    // The corner rule: the space, moved along each axis alone, must fit as it
                    // does after the step. Creatures do not count; objects do, as they fill
                    // their space like terrain (PHB "Corners").
                    let sides = [here.offset(dx, 0), here.offset(0, dy)];
                    let clear = sides.iter().all(|&side| {
                        let side_fit = search.anchor_index(side).and_then(|a| info_at(&mut search, a, side).fit);
                        matches!((fit, side_fit), (Fit::Full, Some(Fit::Full)) | (Fit::Squeezing, Some(_)))
                            && !shapes.footprint(fit).at(side).any(|c| occupancy.holds_object(c, board.others))
                    });
                    if !clear {
                        continue;
                    }
                }
                let extras = StepExtras {
                    difficult: info.difficult,
                    squeezing: fit == Fit::Squeezing,
                    crawling: mover.crawling,
                };
                let (step, after) = step_cost(board.rule, DiagonalParity(odd), diagonal, extras);
                let total = cost + step;
                if total > budget {
                    continue;
                }
                let next_state = next_anchor * parities + usize::from(parities == 2 && after.0);
                if total < search.cost[next_state] {
                    search.cost[next_state] = total;
                    search.previous[next_state] = state as u32;
                    ring[(total / FEET_PER_CELL) as usize % RING].push(next_state as u32);
                    pending += 1;
                }
            }
        }
        units += 1;
    }
    Reach { grid, start, search }
}

/// What makes a step cost more: each adds 1 extra foot per foot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepExtras {
    pub difficult: bool,
    pub squeezing: bool,
    pub crawling: bool,
}

/// The cost of one step and the diagonal count after it: base × (1 + difficult + squeezing +
/// crawling), where the base is 5 ft, or 5/10 ft for a diagonal under the optional rule.
pub fn step_cost(
    rule: DiagonalRule,
    parity: DiagonalParity,
    diagonal: bool,
    extras: StepExtras,
) -> (u32, DiagonalParity) {
    let (base, after) = if diagonal { parity.diagonals(rule, 1) } else { (FEET_PER_CELL, parity) };
    let multiplier = 1 + u32::from(extras.difficult) + u32::from(extras.squeezing) + u32::from(extras.crawling);
    (base * multiplier, after)
}

/// Who stands where: indices into the board's others, for every cell of a box.
struct Occupancy {
    cells: CellBox,
    lists: Vec<Vec<usize>>,
}

impl Occupancy {
    fn of(others: &[Occupant], cells: CellBox) -> Self {
        let mut lists = vec![Vec::new(); cells.len()];
        for (i, other) in others.iter().enumerate() {
            for cell in &other.cells {
                if let Some(k) = cells.index(*cell) {
                    lists[k].push(i);
                }
            }
        }
        Self { cells, lists }
    }

    fn at(&self, cell: Cell) -> &[usize] {
        self.cells.index(cell).map_or(&[], |k| self.lists[k].as_slice())
    }

    /// Whether an object fills `cell`.
    fn holds_object(&self, cell: Cell, others: &[Occupant]) -> bool {
        self.at(cell).iter().any(|&i| others[i].is_object)
    }
}

/// A rectangle of cells, for indexing.
#[derive(Clone, Copy)]
struct CellBox {
    origin: Cell,
    width: i32,
    height: i32,
}

impl CellBox {
    /// The smallest box that holds every cell of the map.
    fn around_map(map: &TerrainMap) -> Self {
        let (w, h) = (map.width() as i32, map.height() as i32);
        let border = (0..w).flat_map(|c| [(c, 0), (c, h - 1)]).chain((0..h).flat_map(|r| [(0, r), (w - 1, r)]));
        let cells: Vec<Cell> = border.map(|(c, r)| map.grid().from_storage(c, r)).collect();
        let min_x = cells.iter().map(|c| c.x).min().unwrap_or(0);
        let min_y = cells.iter().map(|c| c.y).min().unwrap_or(0);
        let max_x = cells.iter().map(|c| c.x).max().unwrap_or(-1);
        let max_y = cells.iter().map(|c| c.y).max().unwrap_or(-1);
        Self { origin: Cell::new(min_x, min_y), width: max_x - min_x + 1, height: max_y - min_y + 1 }
    }

    fn intersect(&self, other: &Self) -> Self {
        let min_x = self.origin.x.max(other.origin.x);
        let min_y = self.origin.y.max(other.origin.y);
        let max_x = (self.origin.x + self.width).min(other.origin.x + other.width);
        let max_y = (self.origin.y + self.height).min(other.origin.y + other.height);
        Self { origin: Cell::new(min_x, min_y), width: (max_x - min_x).max(0), height: (max_y - min_y).max(0) }
    }

    fn grow(&mut self, by: i32) {
        self.origin = self.origin.offset(-by, -by);
        self.width += 2 * by;
        self.height += 2 * by;
    }

    fn len(&self) -> usize {
        (self.width * self.height) as usize
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        let (x, y) = (cell.x - self.origin.x, cell.y - self.origin.y);
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (y * self.width + x) as usize)
    }
}

impl Reach {
    /// The cheapest state at an anchor the mover may end in.
    fn best_state(&self, cell: Cell) -> Option<usize> {
        let anchor = self.search.anchor_index(cell)?;
        let info = self.search.info[anchor].filter(|i| i.can_end);
        if cell != self.start && info.is_none() {
            return None;
        }
        let p = self.search.parities;
        (anchor * p..anchor * p + p)
            .filter(|&s| self.search.cost[s] != UNSEEN)
            .min_by_key(|&s| (self.search.cost[s], s))
    }

    /// The cost to end in `cell`, if it can be reached.
    pub fn cost(&self, cell: Cell) -> Option<u32> {
        self.best_state(cell).map(|s| self.search.cost[s])
    }

    /// Every cell the creature can end its move in (its start included, at 0), in row order.
    pub fn cells(&self) -> Vec<Reachable> {
        (0..self.search.info.len())
            .map(|a| self.search.cell_of(a))
            .filter_map(|cell| {
                let state = self.best_state(cell)?;
                let fit = self.search.info[state / self.search.parities].and_then(|i| i.fit).unwrap_or(Fit::Full);
                Some(Reachable { cell, cost: self.search.cost[state], fit })
            })
            .collect()
    }

    /// The cheapest path to `cell`.
    pub fn path(&self, cell: Cell) -> Option<Path> {
        let end = self.best_state(cell)?;
        let p = self.search.parities;
        let mut states = vec![end];
        while let Some(&last) = states.last() {
            let previous = self.search.previous[last];
            if previous == UNSEEN {
                break;
            }
            states.push(previous as usize);
        }
        states.reverse();
        let mut steps = Vec::with_capacity(states.len().saturating_sub(1));
        for pair in states.windows(2) {
            let (from, to) = (self.search.cell_of(pair[0] / p), self.search.cell_of(pair[1] / p));
            let info = self.search.info[pair[1] / p].expect("a visited anchor has its info");
            steps.push(Step {
                to,
                cost: self.search.cost[pair[1]] - self.search.cost[pair[0]],
                diagonal: self.grid == Grid::Square && from.x != to.x && from.y != to.y,
                difficult: info.difficult,
                squeezing: info.fit == Some(Fit::Squeezing),
            });
        }
        let fit = if steps.is_empty() {
            Fit::Full
        } else {
            self.search.info[end / p].and_then(|i| i.fit).unwrap_or(Fit::Full)
        };
        Some(Path {
            start: self.start,
            steps,
            cost: self.search.cost[end],
            parity: DiagonalParity(p == 2 && end % 2 == 1),
            fit,
        })
    }
}

/// Why the mover can't end its move in `target` with `budget` feet, or `None` if it can.
pub fn why_not(
    board: &Board,
    mover: &Mover,
    start: Cell,
    target: Cell,
    budget: u32,
    parity: DiagonalParity,
) -> Option<MoveError> {
    let grid = board.grid();
    let shapes = Shapes::of(grid, mover);
    if !Footprint::of(grid, mover.size, mover.square_side).at(target).all(|c| board.map.contains(c)) {
        let squeezed_on_map = shapes.squeezed.as_ref().is_some_and(|s| s.at(target).all(|c| board.map.contains(c)));
        if !squeezed_on_map {
            return Some(MoveError::OffMap);
        }
    }
    if board.fit(&shapes, target).is_none() {
        let footprint = Footprint::of(grid, mover.size, mover.square_side);
        let (at, terrain) = footprint
            .at(target)
            .find_map(|c| board.map.terrain(c).filter(|t| t.blocks_movement).map(|t| (c, t.name.clone())))
            .unwrap_or((target, "the map's edge".to_owned()));
        return Some(MoveError::Blocked { terrain, at });
    }
    if target != start {
        let fit = board.fit(&shapes, target).unwrap_or(Fit::Full);
        let cells: Vec<Cell> = shapes.footprint(fit).at(target).collect();
        let in_the_way = |o: &&Occupant| o.cells.iter().any(|c| cells.contains(c));
        let blockers: Vec<&Occupant> = board.others.iter().filter(in_the_way).collect();
        let shared_ok = blockers.iter().all(|o| !o.is_object)
            && cells.iter().all(|c| {
                let here = board.others.iter().filter(|o| o.cells.contains(c)).map(|o| o.size);
                may_share_a_cell(here.chain([mover.size]))
            });
        if let Some(first) = blockers.first().filter(|_| !shared_ok) {
            return Some(MoveError::Occupied { by: first.id.clone() });
        }
    }
    let within = reach(board, mover, start, budget, parity);
    if within.cost(target).is_some() {
        return None;
    }
    // Look again with all the movement in the world to tell "too far" from "no way".
    let far = reach(board, mover, start, u32::MAX / 2, parity);
    Some(match far.cost(target) {
        Some(needed) => MoveError::NotEnoughMovement { needed, left: budget },
        None => MoveError::NoPath,
    })
}

/// Movement through one creature's turn: its speed, Dashes taken, feet spent, the diagonal
/// count carried between moves (DMG "Optional Rule: Diagonals"), and the moves made, newest last,
/// so that the last can be taken back (PHB "Breaking Up Your Move": movement can be split).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnMovement {
    pub speed: u32,
    /// Dash actions this turn (PHB "Dash": each adds the creature's current speed).
    pub dashes: u32,
    pub spent: u32,
    pub parity: DiagonalParity,
    #[serde(deserialize_with = "super::bounded::at_most::<_, _, MAX_MOVES>")]
    pub moves: Vec<MoveRecord>,
}

/// The most moves a turn's record keeps as a session file reads it back (a turn of 5-foot moves
/// at the fastest speeds is a few hundred).
pub const MAX_MOVES: usize = 10_000;

/// One move of a turn, enough to take it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    pub from: Cell,
    pub to: Cell,
    pub cost: u32,
    pub parity_before: DiagonalParity,
    /// The move needed a Dash, taken for it.
    pub dashed: bool,
}

impl TurnMovement {
    /// A fresh turn at `speed`.
    pub fn new(speed: u32) -> Self {
        Self { speed, ..Self::default() }
    }

    /// The Dash action: movement grows by the creature's speed.
    pub fn dash(&mut self) {
        self.dashes = self.dashes.saturating_add(1);
    }

    /// Moves along `path` from `from`, taking a Dash first if `dashed`, and remembers the move.
    pub fn take_move(&mut self, from: Cell, path: &Path, dashed: bool) {
        let to = path.steps.last().map_or(from, |s| s.to);
        self.moves.push(MoveRecord { from, to, cost: path.cost, parity_before: self.parity, dashed });
        if dashed {
            self.dash();
        }
        self.spend(path);
    }

    /// Takes back the last move (and the Dash taken for it); returns it.
    pub fn undo(&mut self) -> Option<MoveRecord> {
        let last = self.moves.pop()?;
        self.spent = self.spent.saturating_sub(last.cost);
        self.parity = last.parity_before;
        if last.dashed {
            self.dashes = self.dashes.saturating_sub(1);
        }
        Some(last)
    }

    /// Feet of movement this turn, Dashes included.
    pub fn allowance(&self) -> u32 {
        self.speed.saturating_mul(1 + self.dashes)
    }

    /// Feet left to move.
    pub fn left(&self) -> u32 {
        self.allowance().saturating_sub(self.spent)
    }

    /// Feet left if the creature took one more Dash.
    pub fn left_with_dash(&self) -> u32 {
        self.left().saturating_add(self.speed)
    }

    /// Spends a path's cost and carries its diagonal count.
    pub fn spend(&mut self, path: &Path) {
        self.spent = self.spent.saturating_add(path.cost);
        self.parity = path.parity;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::HexOrientation;
    use crate::rules::terrain::{Terrain, TerrainKind};
    use DiagonalRule::*;

    /// A map from rows: `.` floor, `#` wall, `%` difficult.
    fn map(grid: Grid, rows: &[&str]) -> TerrainMap {
        let palette = vec![
            Terrain::standard(TerrainKind::Floor),
            Terrain::standard(TerrainKind::Wall),
            Terrain::standard(TerrainKind::Difficult),
        ];
        let mut map = TerrainMap::filled(grid, rows[0].len() as u32, rows.len() as u32, palette);
        for (row, text) in rows.iter().enumerate() {
            for (col, c) in text.chars().enumerate() {
                let index = match c {
                    '#' => 1,
                    '%' => 2,
                    _ => 0,
                };
                map.set(grid.from_storage(col as i32, row as i32), index);
            }
        }
        map
    }

    fn medium() -> Mover {
        Mover { size: Size::Medium, square_side: None, side: Side::Party, crawling: false }
    }

    fn open_rows(n: usize) -> Vec<String> {
        vec![".".repeat(n); n]
    }

    #[test]
    fn a_path_split_keeps_its_cost_and_diagonal_count() {
        let board = Board { map: &map(Grid::Square, &["......"; 6]), rule: Alternating, others: &[] };
        let path = reach(&board, &medium(), Cell::new(0, 0), 100, DiagonalParity::default())
            .path(Cell::new(3, 3))
            .expect("reachable");
        assert_eq!(path.cost, 20, "5 + 10 + 5");
        let (first, rest) = path.split_at(1, Alternating);
        assert_eq!((first.cost, first.parity, rest.start), (5, DiagonalParity(true), Cell::new(1, 1)));
        assert_eq!((rest.cost, rest.parity), (15, path.parity));
        let mut turn = TurnMovement::new(30);
        turn.spend(&first);
        let again = reach(&board, &medium(), rest.start, turn.left(), turn.parity).path(Cell::new(3, 3));
        assert_eq!(again.map(|p| p.cost), Some(rest.cost), "the rest costs the same walked on its own");
    }

    #[test]
    fn straight_and_diagonal_steps_cost_5_under_the_standard_rule() {
        let rows = open_rows(9);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let map = map(Grid::Square, &rows);
        let board = Board { map: &map, rule: Standard, others: &[] };
        let reach = reach(&board, &medium(), Cell::new(4, 4), 30, DiagonalParity::default());
        assert_eq!(reach.cost(Cell::new(7, 7)), Some(15));
        assert_eq!(reach.cost(Cell::new(4, 0)), Some(20));
        assert_eq!(reach.cost(Cell::new(4, 4)), Some(0));
    }

    /// The movement costs of the DMG's diagonal rule: 5, 15, 20, 30, 35 for 1 to 5 diagonals.
    #[test]
    fn diagonal_moves_alternate_5_and_10_feet() {
        let rows = open_rows(11);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let map = map(Grid::Square, &rows);
        let board = Board { map: &map, rule: Alternating, others: &[] };
        let reach = reach(&board, &medium(), Cell::new(0, 0), 100, DiagonalParity::default());
        let costs: Vec<Option<u32>> = (1..=5).map(|n| reach.cost(Cell::new(n, n))).collect();
        assert_eq!(costs, vec![Some(5), Some(15), Some(20), Some(30), Some(35)]);
        let path = reach.path(Cell::new(3, 3)).expect("reachable");
        assert_eq!(path.steps.iter().map(|s| s.cost).collect::<Vec<_>>(), vec![5, 10, 5]);
        assert_eq!(path.parity, DiagonalParity(true));
    }

    /// DMG: one diagonal (5), three straight (15), one diagonal (10) = 30 feet; the cheapest path
    /// to the same square costs the same.
    #[test]
    fn the_dmg_example_path_costs_30_feet() {
        let rows = open_rows(8);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let map = map(Grid::Square, &rows);
        let board = Board { map: &map, rule: Alternating, others: &[] };
        let reach = reach(&board, &medium(), Cell::new(0, 0), 60, DiagonalParity::default());
        assert_eq!(reach.cost(Cell::new(5, 2)), Some(30));
    }

    /// Conventions: a 10-ft diagonal into difficult terrain costs 20 ft; each extra adds 1 foot
    /// per foot.
    #[test]
    fn a_second_diagonal_into_difficult_terrain_costs_20_feet() {
        let difficult = StepExtras { difficult: true, ..StepExtras::default() };
        assert_eq!(step_cost(Alternating, DiagonalParity(true), true, difficult), (20, DiagonalParity(false)));
        assert_eq!(step_cost(Alternating, DiagonalParity(false), true, difficult), (10, DiagonalParity(true)));
        assert_eq!(step_cost(Standard, DiagonalParity(true), true, difficult), (10, DiagonalParity(true)));
        let everything = StepExtras { difficult: true, squeezing: true, crawling: true };
        assert_eq!(step_cost(Standard, DiagonalParity(false), false, everything), (20, DiagonalParity(false)));
        // Reach avoids paying 20 for a second diagonal into the difficult cell: 20 ft in all.
        let map = map(Grid::Square, &["....", "....", "..%.", "...."]);
        let board = Board { map: &map, rule: Alternating, others: &[] };
        let reach = reach(&board, &medium(), Cell::new(0, 0), 60, DiagonalParity::default());
        let path = reach.path(Cell::new(2, 2)).expect("reachable");
        assert_eq!(path.cost, 20);
        assert_eq!(path.steps.last().map(|s| (s.cost, s.difficult)), Some((10, true)));
        // With a diagonal already taken this turn, the first one costs 10.
        let reach = super::reach(&board, &medium(), Cell::new(0, 0), 60, DiagonalParity(true));
        assert_eq!(reach.cost(Cell::new(1, 1)), Some(10));
    }

    /// PHB "Entering a Square": "you must have at least 2 squares of movement left to enter a
    /// square of difficult terrain".
    #[test]
    fn entering_needs_movement_for_the_whole_cost() {
        let map = map(Grid::Square, &[".%."]);
        let board = Board { map: &map, rule: Standard, others: &[] };
        assert_eq!(reach(&board, &medium(), Cell::new(0, 0), 5, DiagonalParity::default()).cost(Cell::new(1, 0)), None);
        assert_eq!(
            reach(&board, &medium(), Cell::new(0, 0), 10, DiagonalParity::default()).cost(Cell::new(1, 0)),
            Some(10)
        );
        let error = why_not(&board, &medium(), Cell::new(0, 0), Cell::new(1, 0), 5, DiagonalParity::default());
        assert_eq!(error, Some(MoveError::NotEnoughMovement { needed: 10, left: 5 }));
    }

    /// PHB "Corners": diagonal movement can't cross the corner of a wall.
    #[test]
    fn diagonals_do_not_cut_wall_corners() {
        let map = map(Grid::Square, &["..", "#."]);
        let board = Board { map: &map, rule: Standard, others: &[] };
        let reach = reach(&board, &medium(), Cell::new(0, 0), 30, DiagonalParity::default());
        // (0,0) to (1,1) diagonally would cross the corner of the wall at (0,1): go round.
        assert_eq!(reach.cost(Cell::new(1, 1)), Some(10));
        assert_eq!(
            reach.path(Cell::new(1, 1)).map(|p| p.cells()),
            Some(vec![Cell::new(0, 0), Cell::new(1, 0), Cell::new(1, 1)])
        );
    }

    /// PHB "Corners": an object fills its space like terrain, so a diagonal can't cut a barrel's
    /// corner either (docs/rules.md, "Objects").
    #[test]
    fn diagonals_do_not_cut_the_corners_of_objects() {
        let map = map(Grid::Square, &["..", ".."]);
        let barrel = Occupant {
            id: "barrel".into(),
            cells: vec![Cell::new(0, 1)],
            side: Side::Neutral,
            size: Size::Medium,
            is_object: true,
        };
        let board = Board { map: &map, rule: Standard, others: std::slice::from_ref(&barrel) };
        let reach = reach(&board, &medium(), Cell::new(0, 0), 30, DiagonalParity::default());
        assert_eq!(reach.cost(Cell::new(1, 1)), Some(10));
        let creature = Occupant { is_object: false, side: Side::Ally, ..barrel };
        let board = Board { map: &map, rule: Standard, others: std::slice::from_ref(&creature) };
        let reach = super::reach(&board, &medium(), Cell::new(0, 0), 30, DiagonalParity::default());
        assert_eq!(reach.cost(Cell::new(1, 1)), Some(5), "a creature's corner may be cut");
    }

    /// PHB "Squeezing into a Smaller Space": a Large creature can squeeze through a 5-ft-wide
    /// passage, spending 1 extra foot for every foot.
    #[test]
    fn a_large_creature_squeezes_through_a_five_foot_corridor() {
        let map = map(Grid::Square, &["..#####..", ".........", "..#####.."]);
        let board = Board { map: &map, rule: Standard, others: &[] };
        let ogre = Mover { size: Size::Large, ..medium() };
        let reach = reach(&board, &ogre, Cell::new(0, 0), 100, DiagonalParity::default());
        let path = reach.path(Cell::new(7, 1)).expect("it squeezes through");
        let squeezed: Vec<bool> = path.steps.iter().map(|s| s.squeezing).collect();
        assert!(squeezed.iter().any(|s| *s) && !squeezed[squeezed.len() - 1]);
        assert!(path.steps.iter().filter(|s| s.squeezing).all(|s| s.cost == 10));
        assert_eq!(reach.cells().iter().find(|r| r.cell == Cell::new(3, 1)).map(|r| r.fit), Some(Fit::Squeezing));
        // A Medium creature in the same corridor does not squeeze.
        let reach = super::reach(&board, &medium(), Cell::new(0, 1), 100, DiagonalParity::default());
        assert_eq!(reach.cost(Cell::new(8, 1)), Some(40));
        // A Huge creature (3x3) can squeeze only through 10-ft gaps.
        let giant = Mover { size: Size::Huge, ..medium() };
        let reach = super::reach(&board, &giant, Cell::new(0, 0), 200, DiagonalParity::default());
        assert!(reach.cells().iter().all(|r| r.cell.x < 2), "no 10-ft gap: the giant stays west");
    }

    #[test]
    fn allies_are_difficult_terrain_hostiles_block_and_nobody_ends_in_another_space() {
        let map = map(Grid::Square, &["....."]);
        let ally = Occupant {
            id: "ally".into(),
            cells: vec![Cell::new(1, 0)],
            side: Side::Ally,
            size: Size::Medium,
            is_object: false,
        };
        let board = Board { map: &map, rule: Standard, others: std::slice::from_ref(&ally) };
        let reach = reach(&board, &medium(), Cell::new(0, 0), 30, DiagonalParity::default());
        assert_eq!(reach.cost(Cell::new(1, 0)), None, "can't end in the ally's space");
        assert_eq!(reach.cost(Cell::new(2, 0)), Some(15), "through the ally as difficult terrain");
        assert_eq!(
            why_not(&board, &medium(), Cell::new(0, 0), Cell::new(1, 0), 30, DiagonalParity::default()),
            Some(MoveError::Occupied { by: "ally".into() })
        );
        let foe = Occupant { side: Side::Enemy, id: "foe".into(), ..ally.clone() };
        let board = Board { map: &map, rule: Standard, others: std::slice::from_ref(&foe) };
        let blocked = super::reach(&board, &medium(), Cell::new(0, 0), 30, DiagonalParity::default());
        assert_eq!(blocked.cost(Cell::new(2, 0)), None, "a hostile Medium creature blocks a Medium one");
        let tiny = Mover { size: Size::Tiny, ..medium() };
        let slips = super::reach(&board, &tiny, Cell::new(0, 0), 30, DiagonalParity::default());
        assert_eq!(slips.cost(Cell::new(2, 0)), Some(15), "two sizes smaller slips through");
    }

    #[test]
    fn tiny_creatures_share_a_cell_up_to_four() {
        let map = map(Grid::Square, &[".."]);
        let rat = |i: usize| Occupant {
            id: format!("rat{i}"),
            cells: vec![Cell::new(1, 0)],
            side: Side::Neutral,
            size: Size::Tiny,
            is_object: false,
        };
        let tiny = Mover { size: Size::Tiny, ..medium() };
        let three: Vec<Occupant> = (0..3).map(rat).collect();
        let board = Board { map: &map, rule: Standard, others: &three };
        assert_eq!(
            reach(&board, &tiny, Cell::new(0, 0), 30, DiagonalParity::default()).cost(Cell::new(1, 0)),
            Some(10)
        );
        let four: Vec<Occupant> = (0..4).map(rat).collect();
        let board = Board { map: &map, rule: Standard, others: &four };
        assert_eq!(reach(&board, &tiny, Cell::new(0, 0), 30, DiagonalParity::default()).cost(Cell::new(1, 0)), None);
    }

    #[test]
    fn turn_movement_counts_dashes_and_carries_the_diagonal_count() {
        let mut turn = TurnMovement::new(30);
        assert_eq!((turn.left(), turn.left_with_dash()), (30, 60));
        turn.dash();
        let path =
            Path { start: Cell::new(0, 0), steps: Vec::new(), cost: 35, parity: DiagonalParity(true), fit: Fit::Full };
        turn.spend(&path);
        assert_eq!((turn.left(), turn.parity), (25, DiagonalParity(true)));
    }

    /// A move that needed a Dash takes it; undoing the move gives back the feet, the diagonal
    /// count and the Dash.
    #[test]
    fn undo_takes_back_the_move_and_its_dash() {
        let map = map(Grid::Square, &["........"]);
        let board = Board { map: &map, rule: Alternating, others: &[] };
        let mut turn = TurnMovement::new(15);
        let first = reach(&board, &medium(), Cell::new(0, 0), turn.left(), turn.parity).path(Cell::new(2, 0));
        turn.take_move(Cell::new(0, 0), &first.expect("reachable"), false);
        let far = reach(&board, &medium(), Cell::new(2, 0), turn.left_with_dash(), turn.parity).path(Cell::new(6, 0));
        turn.take_move(Cell::new(2, 0), &far.expect("reachable with a Dash"), true);
        assert_eq!((turn.dashes, turn.spent, turn.left(), turn.moves.len()), (1, 30, 0, 2));
        let undone = turn.undo().expect("a move to undo");
        assert_eq!((undone.from, undone.to, undone.dashed), (Cell::new(2, 0), Cell::new(6, 0), true));
        assert_eq!((turn.dashes, turn.spent, turn.left()), (0, 10, 5));
        assert!(turn.undo().is_some() && turn.undo().is_none());
        assert_eq!(turn, TurnMovement::new(15));
    }

    #[test]
    fn hex_reach_matches_hex_distance_on_an_empty_map() {
        for orientation in [HexOrientation::PointyTop, HexOrientation::FlatTop] {
            let grid = Grid::Hex(orientation);
            let rows = open_rows(15);
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let map = map(grid, &rows);
            let board = Board { map: &map, rule: Alternating, others: &[] };
            let start = grid.from_storage(7, 7);
            let reach = reach(&board, &medium(), start, 30, DiagonalParity::default());
            for cell in map.cells() {
                let steps = grid.steps_between(start, cell);
                assert_eq!(reach.cost(cell), (steps <= 6).then_some(5 * steps), "{cell}");
            }
        }
    }

    #[test]
    fn why_not_names_walls_and_the_map_edge() {
        let map = map(Grid::Square, &["..#", "..."]);
        let board = Board { map: &map, rule: Standard, others: &[] };
        assert_eq!(
            why_not(&board, &medium(), Cell::new(0, 0), Cell::new(5, 0), 30, DiagonalParity::default()),
            Some(MoveError::OffMap)
        );
        assert_eq!(
            why_not(&board, &medium(), Cell::new(0, 0), Cell::new(2, 0), 30, DiagonalParity::default()),
            Some(MoveError::Blocked { terrain: "wall".into(), at: Cell::new(2, 0) })
        );
        assert_eq!(why_not(&board, &medium(), Cell::new(0, 0), Cell::new(2, 1), 30, DiagonalParity::default()), None);
        let walled = tests::map(Grid::Square, &[".#."]);
        let board = Board { map: &walled, rule: Standard, others: &[] };
        assert_eq!(
            why_not(&board, &medium(), Cell::new(0, 0), Cell::new(2, 0), 30, DiagonalParity::default()),
            Some(MoveError::NoPath)
        );
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;
        use std::collections::HashMap;

        /// A small random square map: `.` floor, `#` wall, `%` difficult.
        fn small_map() -> impl Strategy<Value = Vec<String>> {
            (2usize..8, 2usize..8).prop_flat_map(|(w, h)| {
                proptest::collection::vec(
                    proptest::collection::vec(prop_oneof![6 => Just('.'), 2 => Just('#'), 2 => Just('%')], w),
                    h,
                )
                .prop_map(|rows| rows.into_iter().map(|r| r.into_iter().collect()).collect())
            })
        }

        /// An independent, slow search for Medium creatures: relax every (cell, parity) state until
        /// nothing changes, with the rules written out again.
        fn brute_force(
            map: &TerrainMap,
            rule: DiagonalRule,
            others: &[Occupant],
            start: Cell,
            budget: u32,
        ) -> HashMap<Cell, u32> {
            let occupant = |c: Cell| others.iter().find(|o| o.cells.contains(&c));
            let blocks =
                |c: Cell| map.terrain(c).is_none_or(|t| t.blocks_movement) || occupant(c).is_some_and(|o| o.is_object);
            let mut best: HashMap<(Cell, bool), u32> = HashMap::from([((start, false), 0)]);
            loop {
                let mut changed = false;
                let states: Vec<((Cell, bool), u32)> = best.iter().map(|(k, v)| (*k, *v)).collect();
                for ((cell, odd), cost) in states {
                    for (dx, dy) in SQUARE_STEPS {
                        let next = cell.offset(dx, dy);
                        let diagonal = dx != 0 && dy != 0;
                        if blocks(next) || (diagonal && (blocks(cell.offset(dx, 0)) || blocks(cell.offset(0, dy)))) {
                            continue;
                        }
                        if occupant(next).is_some_and(|o| o.is_object || o.side.is_hostile_to(Side::Party)) {
                            continue;
                        }
                        let base = match (diagonal, rule, odd) {
                            (true, Alternating, true) => 10,
                            _ => 5,
                        };
                        let difficult = map.terrain(next).is_some_and(|t| t.difficult) || occupant(next).is_some();
                        let total = cost + base * if difficult { 2 } else { 1 };
                        let parity = if diagonal && rule == Alternating { !odd } else { odd };
                        if total <= budget && best.get(&(next, parity)).is_none_or(|&b| total < b) {
                            best.insert((next, parity), total);
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            let mut ends: HashMap<Cell, u32> = HashMap::new();
            for ((cell, _), cost) in best {
                if cell == start || occupant(cell).is_none() {
                    let entry = ends.entry(cell).or_insert(cost);
                    *entry = (*entry).min(cost);
                }
            }
            ends
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(200))]

            #[test]
            fn reach_agrees_with_a_brute_force_search(
                rows in small_map(),
                budget in 0u32..60,
                alternating in any::<bool>(),
                seats in proptest::collection::vec((0usize..64, 0u8..3), 0..4),
            ) {
                let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
                let map = map(Grid::Square, &rows);
                let floor: Vec<Cell> = map.cells().filter(|&c| map.terrain(c).is_some_and(|t| !t.blocks_movement)).collect();
                prop_assume!(!floor.is_empty());
                let start = floor[0];
                let mut others: Vec<Occupant> = Vec::new();
                for (i, kind) in seats {
                    let cell = floor[i % floor.len()];
                    if cell != start && !others.iter().any(|o| o.cells[0] == cell) {
                        // An ally, a hostile creature or an object.
                        let side = if kind == 1 { Side::Enemy } else { Side::Ally };
                        others.push(Occupant { id: format!("o{i}"), cells: vec![cell], side, size: Size::Medium, is_object: kind == 2 });
                    }
                }
                let rule = if alternating { Alternating } else { Standard };
                let board = Board { map: &map, rule, others: &others };
                let fast = reach(&board, &medium(), start, budget, DiagonalParity::default());
                let slow = brute_force(&map, rule, &others, start, budget);
                for cell in map.cells() {
                    prop_assert_eq!(fast.cost(cell), slow.get(&cell).copied(), "cell {}", cell);
                }
            }

            #[test]
            fn costs_never_decrease_along_a_path(rows in small_map(), budget in 0u32..80, alternating in any::<bool>()) {
                let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
                let map = map(Grid::Square, &rows);
                let Some(start) = map.cells().find(|&c| map.terrain(c).is_some_and(|t| !t.blocks_movement)) else { return Ok(()) };
                let rule = if alternating { Alternating } else { Standard };
                let board = Board { map: &map, rule, others: &[] };
                let reach = reach(&board, &medium(), start, budget, DiagonalParity::default());
                for reachable in reach.cells() {
                    let path = reach.path(reachable.cell).expect("a reachable cell has a path");
                    let mut spent = 0;
                    for step in &path.steps {
                        prop_assert!(step.cost >= 5);
                        spent += step.cost;
                        prop_assert!(reach.cost(step.to).is_none_or(|c| c <= spent), "a step's cell is never cheaper by this path than its best");
                    }
                    prop_assert_eq!(spent, path.cost);
                    prop_assert_eq!(path.cost, reachable.cost);
                    prop_assert!(path.cost <= budget);
                }
            }

            #[test]
            fn reach_matches_the_distance_rules_on_empty_maps(budget in 0u32..60, hex in 0usize..3, alternating in any::<bool>()) {
                let grid = [Grid::Square, Grid::Hex(HexOrientation::PointyTop), Grid::Hex(HexOrientation::FlatTop)][hex];
                let rows = open_rows(25);
                let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
                let map = map(grid, &rows);
                let rule = if alternating { Alternating } else { Standard };
                let board = Board { map: &map, rule, others: &[] };
                let start = grid.from_storage(12, 12);
                let reach = reach(&board, &medium(), start, budget, DiagonalParity::default());
                for cell in map.cells() {
                    let feet = crate::rules::distance::feet_between(grid, rule, start, cell);
                    prop_assert_eq!(reach.cost(cell), (feet <= budget).then_some(feet), "cell {}", cell);
                }
            }
        }
    }
}
