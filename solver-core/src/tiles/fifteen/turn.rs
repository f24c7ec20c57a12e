//! Any target brought to one of four goals: the board's rotation that carries the target's blank
//! to one cell of its class of cells under rotation, with the moves turned so that the first
//! answer found turns back into the lexicographically smallest.

use crate::tiles::board::{Board4, Move};

/// Where [`Turn::normalizing`] brings a target's blank: one cell of each class of cells under
/// the board's rotations (corners, centre cells, and two classes of edge cells).
pub(super) const HOMES: [usize; 4] = [STANDARD_HOME, 10, 13, 14];
/// The standard goal's blank cell, which the main databases serve.
pub(super) const STANDARD_HOME: usize = 15;

/// A rotation of the board that carries a target's blank to one of [`HOMES`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Turn {
    /// `cell[c]`: where cell `c` goes.
    pub(super) cell: [u8; 16],
    /// `moves[m]`: what move `m` becomes.
    pub(super) moves: [Move; 4],
    /// Where the blank cell it was made for goes.
    pub(super) home: usize,
}

impl Turn {
    /// The rotation taking cell `blank` to a cell of [`HOMES`]. Each class of cells under
    /// rotation holds exactly one of them, so there is exactly one.
    pub(super) fn normalizing(blank: usize) -> Self {
        // Cell (r, c) goes to the returned (row, col): quarter turns clockwise.
        type Rotation = fn(usize, usize) -> (usize, usize);
        let rotations: [Rotation; 4] = [
            |r, c| (r, c),
            |r, c| (c, 3 - r),
            |r, c| (3 - r, 3 - c),
            |r, c| (3 - c, r),
        ];
        let (rotate, home) = rotations
            .into_iter()
            .find_map(|rotate| {
                let (r, c) = rotate(blank / 4, blank % 4);
                HOMES.contains(&(r * 4 + c)).then_some((rotate, r * 4 + c))
            })
            .expect("every cell turns onto a home");
        let mut cell = [0u8; 16];
        for (c, slot) in cell.iter_mut().enumerate() {
            let (r2, c2) = rotate(c / 4, c % 4);
            *slot = (r2 * 4 + c2) as u8;
        }
        // A move from cell 5 (which has all four neighbours) shows where each direction goes.
        let moves = Move::ALL.map(|m| {
            let to = m.target(5, 4).expect("cell 5 is inside");
            let (from2, to2) = (cell[5] as usize, cell[to] as usize);
            *Move::ALL
                .iter()
                .find(|m2| m2.target(from2, 4) == Some(to2))
                .expect("rotations keep neighbours")
        });
        Self { cell, moves, home }
    }

    /// The order to search the turned moves in: the turned image of `d < l < r < u`, so that
    /// the first answer found turns back into the lexicographically smallest one.
    pub(super) fn order(&self) -> [Move; 4] {
        Move::ALL.map(|m| self.moves[m.index()])
    }

    pub(super) fn apply(&self, board: &Board4) -> Board4 {
        let mut cells = [0u8; 16];
        for (c, &tile) in board.cells().iter().enumerate() {
            cells[self.cell[c] as usize] = tile;
        }
        Board4::from_cells(&cells).expect("a rotation keeps a board valid")
    }

    pub(super) fn undo_move(&self, turned: Move) -> Move {
        Move::ALL[self
            .moves
            .iter()
            .position(|&m| m == turned)
            .expect("moves map onto moves")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_keep_moves_consistent() {
        let start: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
        for blank in 0..16 {
            let turn = Turn::normalizing(blank);
            assert!(HOMES.contains(&turn.home));
            assert_eq!(usize::from(turn.cell[blank]), turn.home);
            for m in Move::ALL {
                let direct = start.apply(m).map(|b| turn.apply(&b));
                let turned = turn.apply(&start).apply(turn.moves[m.index()]);
                assert_eq!(direct, turned);
                assert_eq!(turn.undo_move(turn.moves[m.index()]), m);
            }
        }
        assert_eq!(Turn::normalizing(0).home, 15);
        assert_eq!(Turn::normalizing(5).home, 10);
    }
}
