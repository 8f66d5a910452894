//! Test pictures: a rectangle of a map drawn as text, one character a cell, for golden tests.
//!
//! Squares: one line per row, north first. Pointy-top hexes: one line per row, odd rows shoved
//! half a hex east (a leading space), cells a space apart. Flat-top hexes: odd columns are shoved
//! half a hex south, so each row takes two lines, the even columns' hexes on the first and the odd
//! columns' on the second. Cells are the map's storage rectangle (`Grid::from_storage`).

use super::grid::{Cell, Grid, HexOrientation};

/// The `cols` × `rows` rectangle of storage cells drawn with `glyph`, trailing spaces trimmed.
pub(crate) fn picture(grid: Grid, cols: i32, rows: i32, glyph: impl Fn(Cell) -> char) -> Vec<String> {
    let at = |col: i32, row: i32| glyph(grid.from_storage(col, row));
    let lines: Vec<String> = match grid {
        Grid::Square => (0..rows).map(|row| (0..cols).map(|col| at(col, row)).collect()).collect(),
        Grid::Hex(HexOrientation::PointyTop) => (0..rows)
            .map(|row| {
                let cells: Vec<String> = (0..cols).map(|col| at(col, row).to_string()).collect();
                let indent = if row % 2 == 1 { " " } else { "" };
                format!("{indent}{}", cells.join(" "))
            })
            .collect(),
        Grid::Hex(HexOrientation::FlatTop) => (0..rows * 2)
            .map(|line| {
                let (row, shoved) = (line / 2, line % 2);
                let mut text = vec![' '; (cols.max(1) * 2) as usize];
                for col in (shoved..cols).step_by(2) {
                    text[(col * 2) as usize] = at(col, row);
                }
                text.into_iter().collect()
            })
            .collect(),
    };
    lines.into_iter().map(|line| line.trim_end().to_owned()).collect()
}
