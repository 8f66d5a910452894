//! Terrain kinds, what each blocks, and the map of terrain over a grid.
//!
//! Conventions ("What blocks what"): each terrain says whether it blocks movement, sight and
//! cover lines, and whether it is difficult terrain. PHB "Difficult Terrain" and DMG "Line of
//! Sight" (a stone wall, a thick curtain, a dense cloud of fog block vision).

use serde::{Deserialize, Serialize};

use super::grid::{Cell, Grid};

/// The built-in kinds of terrain; `Custom` carries its own properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TerrainKind {
    Floor,
    Difficult,
    Wall,
    LowObstacle,
    Obscuring,
    Water,
    Rubble,
    /// A wall pierced by an arrow slit: it blocks movement and cover lines but not sight, so it
    /// never gives total cover (DMG "Cover": "the target is behind an arrow slit").
    ArrowSlit,
    Custom,
}

/// One kind of terrain and what it does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Terrain {
    pub kind: TerrainKind,
    /// The name shown to players ("floor", "crates", "dense fog").
    pub name: String,
    pub blocks_movement: bool,
    pub blocks_sight: bool,
    pub blocks_cover: bool,
    pub difficult: bool,
    /// A colour the scenario asked for, as RGB; `None` uses the kind's own.
    pub color: Option<[u8; 3]>,
    /// The tile art the scenario asked for; `None` picks it from the kind ([`Terrain::art`]).
    pub art: Option<TileArt>,
}

/// The pictures a terrain's cells can be drawn with: the columns of the terrain tile atlas
/// (`assets/tiles/terrain.png`, made by `scripts/tiles.py`), in its order. What a cell does is its
/// terrain's properties; the art only shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TileArt {
    Flagstones,
    Wall,
    RoughGround,
    Crates,
    Foliage,
    Water,
    Rubble,
    ArrowSlit,
    Planks,
    Grass,
    Trees,
    Parapet,
    Hearth,
    Barrels,
    Reeds,
    /// Neutral grey stone, drawn tinted by the terrain's colour.
    Plain,
}

impl TileArt {
    pub const ALL: [TileArt; 16] = [
        TileArt::Flagstones,
        TileArt::Wall,
        TileArt::RoughGround,
        TileArt::Crates,
        TileArt::Foliage,
        TileArt::Water,
        TileArt::Rubble,
        TileArt::ArrowSlit,
        TileArt::Planks,
        TileArt::Grass,
        TileArt::Trees,
        TileArt::Parapet,
        TileArt::Hearth,
        TileArt::Barrels,
        TileArt::Reeds,
        TileArt::Plain,
    ];

    /// Its column in the tile atlas.
    pub fn column(self) -> u32 {
        self as u32
    }
}

impl Terrain {
    /// The standard properties of a built-in kind (conventions, "What blocks what").
    pub fn standard(kind: TerrainKind) -> Self {
        let (name, blocks_movement, blocks_sight, blocks_cover, difficult) = match kind {
            TerrainKind::Floor => ("floor", false, false, false, false),
            TerrainKind::Difficult => ("difficult terrain", false, false, false, true),
            TerrainKind::Wall => ("wall", true, true, true, false),
            TerrainKind::LowObstacle => ("low obstacle", true, false, true, false),
            TerrainKind::Obscuring => ("obscuring", false, true, false, false),
            TerrainKind::Water => ("water", false, false, false, true),
            TerrainKind::Rubble => ("rubble", false, false, false, true),
            TerrainKind::ArrowSlit => ("arrow slit", true, false, true, false),
            TerrainKind::Custom => ("custom", false, false, false, false),
        };
        Self {
            kind,
            name: name.to_owned(),
            blocks_movement,
            blocks_sight,
            blocks_cover,
            difficult,
            color: None,
            art: None,
        }
    }

    /// The tile its cells are drawn with: the one the scenario named; else a custom terrain with
    /// a colour is plain stone in that colour; else the picture of what it does (a wall's blocks,
    /// a low obstacle's crates, obscuring foliage, rough difficult ground, flagstones).
    pub fn art(&self) -> TileArt {
        if let Some(art) = self.art {
            return art;
        }
        match self.kind {
            TerrainKind::Floor => TileArt::Flagstones,
            TerrainKind::Difficult => TileArt::RoughGround,
            TerrainKind::Wall => TileArt::Wall,
            TerrainKind::LowObstacle => TileArt::Crates,
            TerrainKind::Obscuring => TileArt::Foliage,
            TerrainKind::Water => TileArt::Water,
            TerrainKind::Rubble => TileArt::Rubble,
            TerrainKind::ArrowSlit => TileArt::ArrowSlit,
            TerrainKind::Custom if self.color.is_some() => TileArt::Plain,
            TerrainKind::Custom => match (self.blocks_movement, self.blocks_sight, self.difficult) {
                (true, true, _) => TileArt::Wall,
                (true, false, _) => TileArt::Crates,
                (false, true, _) => TileArt::Foliage,
                (false, false, true) => TileArt::RoughGround,
                (false, false, false) => TileArt::Flagstones,
            },
        }
    }

    /// What it does under the rules, in a few words, for the map's legend ("blocks movement,
    /// half cover"): PHB "Difficult Terrain", DMG "Cover" and "Line of Sight" as the conventions
    /// apply them.
    pub fn rule_summary(&self) -> Vec<&'static str> {
        let mut parts = Vec::new();
        if self.blocks_movement {
            parts.push("blocks movement");
        }
        if self.difficult {
            parts.push("difficult terrain");
        }
        if self.blocks_sight {
            parts.push(if self.blocks_cover { "blocks sight" } else { "heavily obscured" });
        }
        if self.blocks_cover && !self.blocks_sight {
            parts.push(if self.kind == TerrainKind::ArrowSlit { "three-quarters cover" } else { "gives cover" });
        }
        if parts.is_empty() {
            parts.push("open ground");
        }
        parts
    }

    /// Opaque cells give total cover (conventions, "Total cover"): they block both sight and cover
    /// lines (a wall, a pillar, a closed door). A low obstacle conceals nothing, so it gives at
    /// most three-quarters cover, however many lines it blocks.
    pub fn is_opaque(&self) -> bool {
        self.blocks_sight && self.blocks_cover
    }
}

/// The legend every scenario starts with: `.` floor, `#` wall, `%` difficult terrain,
/// `=` low obstacle, `*` obscuring, `~` water, `^` rubble, `!` arrow slit.
pub const DEFAULT_LEGEND: [(char, TerrainKind); 8] = [
    ('.', TerrainKind::Floor),
    ('#', TerrainKind::Wall),
    ('%', TerrainKind::Difficult),
    ('=', TerrainKind::LowObstacle),
    ('*', TerrainKind::Obscuring),
    ('~', TerrainKind::Water),
    ('^', TerrainKind::Rubble),
    ('!', TerrainKind::ArrowSlit),
];

/// The terrain of every cell of a rectangular map (rows of cells, in the grid's storage layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainMap {
    grid: Grid,
    width: u32,
    height: u32,
    /// The terrains in use; `cells` index into it.
    palette: Vec<Terrain>,
    cells: Vec<u16>,
}

impl TerrainMap {
    /// A map of `width × height` cells, all of `palette[0]`.
    ///
    /// # Panics
    /// Never on scenario input: the scenario validator bounds the size and the palette first.
    pub fn filled(grid: Grid, width: u32, height: u32, palette: Vec<Terrain>) -> Self {
        assert!(!palette.is_empty() && palette.len() <= usize::from(u16::MAX));
        Self { grid, width, height, palette, cells: vec![0; width as usize * height as usize] }
    }

    pub fn grid(&self) -> Grid {
        self.grid
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn palette(&self) -> &[Terrain] {
        &self.palette
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        let (col, row) = self.grid.to_storage(cell);
        let inside = col >= 0 && row >= 0 && (col as u32) < self.width && (row as u32) < self.height;
        inside.then(|| row as usize * self.width as usize + col as usize)
    }

    pub fn contains(&self, cell: Cell) -> bool {
        self.index(cell).is_some()
    }

    /// The place of `cell` in storage order (as [`Self::cells`] lists them), or `None` off the map.
    pub fn index_of(&self, cell: Cell) -> Option<usize> {
        self.index(cell)
    }

    /// The palette index of the terrain at `cell`, or `None` off the map.
    pub fn terrain_index(&self, cell: Cell) -> Option<usize> {
        self.index(cell).map(|i| usize::from(self.cells[i]))
    }

    /// The terrain at `cell`, or `None` off the map.
    pub fn terrain(&self, cell: Cell) -> Option<&Terrain> {
        self.terrain_index(cell).map(|i| &self.palette[i])
    }

    /// Sets the terrain of `cell` to `palette[terrain]`; returns false (and changes nothing) when
    /// the cell is off the map or the index is not in the palette.
    pub fn set(&mut self, cell: Cell, terrain: usize) -> bool {
        match (self.index(cell), u16::try_from(terrain)) {
            (Some(i), Ok(t)) if terrain < self.palette.len() => {
                self.cells[i] = t;
                true
            }
            _ => false,
        }
    }

    /// This map with the terrain of `cells` that gives cover without blocking sight (a low wall,
    /// a parapet) giving none: what an attacker shooting down from higher up sees over (call in
    /// `docs/rules.md`, "Siege equipment and objects", elevation).
    pub fn leaning_over(&self, cells: impl IntoIterator<Item = Cell>) -> TerrainMap {
        let mut map = self.clone();
        for cell in cells {
            let Some(terrain) = self.terrain(cell).filter(|t| t.blocks_cover && !t.blocks_sight) else { continue };
            let open = Terrain { blocks_cover: false, ..terrain.clone() };
            let index = match map.palette.iter().position(|t| *t == open) {
                Some(index) => index,
                None if map.palette.len() < usize::from(u16::MAX) => {
                    map.palette.push(open);
                    map.palette.len() - 1
                }
                None => continue,
            };
            map.set(cell, index);
        }
        map
    }

    /// Every cell's terrain, in storage order (as [`TerrainMap::cells`]).
    pub fn terrains(&self) -> impl Iterator<Item = &Terrain> + '_ {
        self.cells.iter().map(|&i| &self.palette[usize::from(i)])
    }

    /// Every cell of the map, row by row in storage order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height as i32)
            .flat_map(move |row| (0..self.width as i32).map(move |col| self.grid.from_storage(col, row)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::grid::HexOrientation;

    fn palette() -> Vec<Terrain> {
        vec![Terrain::standard(TerrainKind::Floor), Terrain::standard(TerrainKind::Wall)]
    }

    #[test]
    fn standard_kinds_block_what_the_conventions_say() {
        let wall = Terrain::standard(TerrainKind::Wall);
        assert!(wall.blocks_movement && wall.blocks_sight && wall.blocks_cover && wall.is_opaque());
        let low = Terrain::standard(TerrainKind::LowObstacle);
        assert!(low.blocks_movement && low.blocks_cover && !low.blocks_sight && !low.is_opaque());
        let fog = Terrain::standard(TerrainKind::Obscuring);
        assert!(fog.blocks_sight && !fog.blocks_movement && !fog.blocks_cover && !fog.is_opaque());
        for kind in [TerrainKind::Difficult, TerrainKind::Water, TerrainKind::Rubble] {
            assert!(Terrain::standard(kind).difficult);
        }
    }

    #[test]
    fn hex_maps_hold_their_rectangle_of_offset_cells() {
        let grid = Grid::Hex(HexOrientation::PointyTop);
        let mut map = TerrainMap::filled(grid, 4, 3, palette());
        assert_eq!(map.cells().count(), 12);
        assert!(map.cells().all(|c| map.contains(c)));
        // Row 2's first cell is axial (-1, 2).
        assert!(map.contains(Cell::new(-1, 2)));
        assert!(!map.contains(Cell::new(-1, 1)));
        assert!(map.set(Cell::new(-1, 2), 1));
        assert_eq!(map.terrain(Cell::new(-1, 2)).map(|t| t.kind), Some(TerrainKind::Wall));
        assert!(!map.set(Cell::new(9, 9), 1));
        assert!(!map.set(Cell::new(0, 0), 7), "no such terrain");
    }
}
