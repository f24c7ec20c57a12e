//! The board's symmetries, and the classes of blank cells they leave.
//!
//! A symmetry maps cells to cells and moves to moves (the mirror left-right swaps `l` and `r`).
//! Applied to both boards of a question it keeps the distance, so one table answers every target
//! whose blank is on a cell that a symmetry maps to the table's blank cell: only the look-up is
//! mapped, never the order in which the walk tries moves.

use crate::tiles::grid::Grid;
use crate::tiles::moves::Move;

use super::codec::MAX_CELLS;

/// One symmetry of a shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Symmetry {
    /// Where each cell goes.
    pub(crate) cells: [u8; MAX_CELLS],
    /// Which move (index in [`Move::ALL`]) each move becomes.
    pub(crate) moves: [u8; 4],
}

/// The symmetries of `grid` (at most [`MAX_CELLS`] cells), the identity first: the mirrors and
/// the half turn, and for a square shape also the transpositions and quarter turns.
pub(crate) fn symmetries(grid: Grid) -> Vec<Symmetry> {
    let (rows, cols) = (grid.rows(), grid.cols());
    type Map = fn(usize, usize, usize, usize) -> (usize, usize);
    let mut maps: Vec<Map> = vec![
        |r, c, _, _| (r, c),
        |r, c, _, cols| (r, cols - 1 - c),
        |r, c, rows, _| (rows - 1 - r, c),
        |r, c, rows, cols| (rows - 1 - r, cols - 1 - c),
    ];
    if rows == cols {
        maps.extend_from_slice(&[
            (|r, c, _, _| (c, r)) as Map,
            |r, c, rows, cols| (cols - 1 - c, rows - 1 - r),
            |r, c, rows, _| (c, rows - 1 - r),
            |r, c, _, cols| (cols - 1 - c, r),
        ]);
    }
    maps.into_iter()
        .map(|map| {
            let mut cells = [0u8; MAX_CELLS];
            for (cell, to) in cells.iter_mut().enumerate().take(grid.cells()) {
                let (r, c) = map(cell / cols, cell % cols, rows, cols);
                *to = (r * cols + c) as u8;
            }
            // A move becomes the one that joins the images of any two cells it joins.
            let mut moves = [0u8; 4];
            for (m, image) in moves.iter_mut().enumerate() {
                let from = (0..grid.cells())
                    .find(|&cell| grid.neighbour(cell, Move::ALL[m]).is_some())
                    .expect("every move is possible somewhere on a 2x2 board or larger");
                let to = grid.neighbour(from, Move::ALL[m]).expect("found above");
                let (a, b) = (usize::from(cells[from]), usize::from(cells[to]));
                *image = (0..4)
                    .find(|&n| grid.neighbour(a, Move::ALL[n]) == Some(b))
                    .expect("a symmetry keeps neighbours neighbours")
                    as u8;
            }
            Symmetry { cells, moves }
        })
        .collect()
}

/// The representative of each class of blank cells: the smallest cell a symmetry maps it to.
/// Sorted, so a class's index is stable (3×4: 0, 1, 4, 5; 2×6: 0, 1, 2).
pub(crate) fn classes(grid: Grid) -> Vec<usize> {
    let symmetries = symmetries(grid);
    let mut reps: Vec<usize> = (0..grid.cells())
        .map(|cell| representative(&symmetries, cell))
        .collect();
    reps.sort_unstable();
    reps.dedup();
    reps
}

/// The smallest cell some symmetry maps `cell` to.
pub(crate) fn representative(symmetries: &[Symmetry], cell: usize) -> usize {
    symmetries
        .iter()
        .map(|s| usize::from(s.cells[cell]))
        .min()
        .unwrap_or(cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_keep_moves() {
        for (rows, cols) in [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3), (2, 6)] {
            let grid = Grid::new(rows, cols).unwrap();
            let all = symmetries(grid);
            assert_eq!(all.len(), if rows == cols { 8 } else { 4 });
            for s in &all {
                for cell in 0..grid.cells() {
                    for (m, &mv) in Move::ALL.iter().enumerate() {
                        let image = Move::ALL[usize::from(s.moves[m])];
                        assert_eq!(
                            grid.neighbour(cell, mv).map(|to| usize::from(s.cells[to])),
                            grid.neighbour(usize::from(s.cells[cell]), image),
                            "{rows}x{cols}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn blank_classes() {
        let classes_of = |rows, cols| classes(Grid::new(rows, cols).unwrap());
        assert_eq!(classes_of(3, 4), [0, 1, 4, 5]);
        assert_eq!(classes_of(4, 3), [0, 1, 3, 4]);
        assert_eq!(classes_of(2, 6), [0, 1, 2]);
        assert_eq!(classes_of(3, 3), [0, 1, 4]);
        assert_eq!(classes_of(2, 2), [0]);
        assert_eq!(classes_of(2, 5), [0, 1, 2]);
    }
}
