//! Where the blank goes: for each cell of a square board and each move, the blank's next cell,
//! as a table the searches index instead of testing the board's edges at every node.

use super::board::Move;

/// Marks a direction with no neighbour in [`neighbour_table`].
pub(crate) const NO_NEIGHBOUR: u8 = u8::MAX;

/// For a `width`-wide board, the blank's cell after each move from each cell (`[cell][move]`,
/// moves in [`Move::ALL`] order), or [`NO_NEIGHBOUR`] where the move leaves the board. Cells
/// past `width²` are unused.
pub(crate) const fn neighbour_table(width: usize) -> [[u8; 4]; 16] {
    let mut table = [[NO_NEIGHBOUR; 4]; 16];
    let mut cell = 0;
    while cell < width * width {
        let mut m = 0;
        while m < 4 {
            if let Some(to) = Move::ALL[m].target(cell, width) {
                table[cell][m] = to as u8;
            }
            m += 1;
        }
        cell += 1;
    }
    table
}
