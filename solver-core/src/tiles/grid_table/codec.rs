//! Boards as packed states and their perfect ranks within one parity class.
//!
//! A state packs the tiles 4 bits per cell (cell `i` in bits `4i..4i+4`, the blank 0) with the
//! blank's cell beside them. Its rank is `n ·` the Lehmer code of the tiles read row-major with
//! the blank skipped, without its last two digits, `+ blank`. The last digit is always 0, and the
//! one before it (0 or 1) is fixed by the class, since the blank's cell and the class together fix
//! the parity of that sequence. So the `n · (n-1)!/2` boards of a class get the ranks
//! `0..n·(n-1)!/2`.
//!
//! The hot functions are generic over the cell count `N`, so that the divisions of unranking are
//! by constants. A horizontal move leaves the tiles' sequence alone and changes only the blank's
//! cell, the rank's lowest digit: its board's entry sits beside the board's own, mostly in the
//! same cache line, and the build and the walk get its rank without ranking again.

use crate::tiles::grid::Grid;
use crate::tiles::moves::Move;

/// The most cells a complete table covers (3×4 and 2×6: 239,500,800 boards per class).
pub(crate) const MAX_CELLS: usize = 12;
/// Marks a move that would take the blank off the board.
pub(crate) const NONE: u8 = u8::MAX;

/// A board as the tables see it: tiles packed 4 bits per cell, and the blank's cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct State {
    pub(crate) cells: u64,
    pub(crate) blank: usize,
}

impl State {
    /// Packs `cells` (tiles, 0 for the blank).
    pub(crate) fn pack(cells: &[u8]) -> Self {
        let packed = cells
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &t)| acc | (u64::from(t) << (4 * i)));
        let blank = cells.iter().position(|&t| t == 0).unwrap_or(0);
        Self {
            cells: packed,
            blank,
        }
    }

    /// The tiles of the first `n` cells.
    #[cfg(test)]
    pub(crate) fn unpack(self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| ((self.cells >> (4 * i)) & 0xF) as u8)
            .collect()
    }

    /// The state after the blank moves to `to` (a neighbour of its cell).
    #[inline]
    pub(crate) fn slide(self, to: usize) -> Self {
        let tile = (self.cells >> (4 * to)) & 0xF;
        Self {
            cells: (self.cells & !(0xF << (4 * to))) | (tile << (4 * self.blank)),
            blank: to,
        }
    }
}

/// `(n-1)!/2`: the boards of a class with the blank on one cell.
pub(crate) const fn block(n: usize) -> usize {
    let mut f = 1;
    let mut k = 2;
    while k < n {
        f *= k;
        k += 1;
    }
    f / 2
}

/// What ranking needs to know of a shape and a class: where moves take the blank, and the parity
/// the tiles' sequence has for each blank cell.
#[derive(Debug, Clone)]
pub(crate) struct Codec {
    /// The blank's cell after each move (`[cell][move]`, [`Move::ALL`] order), or [`NONE`].
    pub(crate) neighbours: [[u8; 4]; MAX_CELLS],
    /// Bit `b`: the parity of the tiles' sequence (its inversions) with the blank on cell `b`.
    sequence_parity: u16,
}

impl Codec {
    /// The codec of `grid` (at most [`MAX_CELLS`] cells) for the class whose invariant
    /// ([`Grid::parity`]) is `class`.
    pub(crate) fn new(grid: Grid, class: bool) -> Self {
        let n = grid.cells();
        debug_assert!(n <= MAX_CELLS);
        let mut neighbours = [[NONE; 4]; MAX_CELLS];
        let mut sequence_parity = 0u16;
        for (cell, row) in neighbours.iter_mut().enumerate().take(n) {
            for (m, slot) in row.iter_mut().enumerate() {
                if let Some(to) = grid.neighbour(cell, Move::ALL[m]) {
                    *slot = to as u8;
                }
            }
            // The invariant is inversions(board) + row + col; the blank (0) is inverted with every
            // tile before it, so inversions(board) = inversions(sequence) + cell.
            let (r, c) = (cell / grid.cols(), cell % grid.cols());
            let parity = u16::from(class) ^ ((cell + r + c) % 2) as u16;
            sequence_parity |= parity << cell;
        }
        Self {
            neighbours,
            sequence_parity,
        }
    }

    /// The rank of `state` (a board of this codec's class with `N` cells).
    #[inline]
    pub(crate) fn rank<const N: usize>(&self, state: State) -> usize {
        let low = (1u64 << (4 * state.blank)) - 1;
        let sequence = (state.cells & low) | ((state.cells >> 4) & !low);
        let mut seen = 0u32;
        let mut rank = 0usize;
        for i in 0..N - 3 {
            let v = ((sequence >> (4 * i)) & 0xF) as u32;
            let smaller_before = (seen & ((1 << v) - 1)).count_ones();
            // The smaller tiles still to come: a digit of radix N - 1 - i.
            rank = rank * (N - 1 - i) + (v - 1 - smaller_before) as usize;
            seen |= 1 << v;
        }
        rank * N + state.blank
    }

    /// The state of rank `rank` (below `N · block(N)`).
    #[inline]
    pub(crate) fn unrank<const N: usize>(&self, rank: usize) -> State {
        let blank = rank % N;
        let mut rest = rank / N;
        let mut digits = [0usize; N];
        for i in (0..N - 3).rev() {
            digits[i] = rest % (N - 1 - i);
            rest /= N - 1 - i;
        }
        // The tiles not placed yet, in increasing order, 4 bits each.
        let mut left = (0..N - 1).fold(0u64, |acc, i| acc | ((i as u64 + 1) << (4 * i)));
        let mut sequence = 0u64;
        let mut inversions = 0usize;
        for (i, &k) in digits.iter().enumerate().take(N - 3) {
            inversions += k;
            sequence |= ((left >> (4 * k)) & 0xF) << (4 * i);
            let below = (1u64 << (4 * k)) - 1;
            left = (left & below) | ((left >> 4) & !below);
        }
        // The last two tiles: in increasing order unless that gives the wrong parity.
        let (a, b) = (left & 0xF, (left >> 4) & 0xF);
        let wanted = usize::from((self.sequence_parity >> blank) & 1 == 1);
        let (x, y) = if inversions % 2 == wanted {
            (a, b)
        } else {
            (b, a)
        };
        sequence |= (x << (4 * (N - 3))) | (y << (4 * (N - 2)));
        let low = (1u64 << (4 * blank)) - 1;
        State {
            cells: (sequence & low) | ((sequence & !low) << 4),
            blank,
        }
    }

    /// The rank after the blank of `state` (ranked `rank`) moves to `to`, one of its neighbours.
    #[inline(always)]
    pub(crate) fn rank_after<const N: usize>(
        &self,
        state: State,
        rank: usize,
        to: usize,
    ) -> (State, usize) {
        let next = state.slide(to);
        let next_rank = if to + 1 == state.blank || state.blank + 1 == to {
            // Horizontal (cells one apart are in one row on a board at least 2 wide, as both are
            // neighbours): the sequence is unchanged, only the blank's cell differs.
            rank + to - state.blank
        } else {
            self.rank::<N>(next)
        };
        (next, next_rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<const N: usize>(rows: usize, cols: usize) {
        let grid = Grid::new(rows, cols).unwrap();
        for class in [false, true] {
            let codec = Codec::new(grid, class);
            let size = N * block(N);
            let step = (size / 50_000).max(1);
            for rank in (0..size).step_by(step) {
                let state = codec.unrank::<N>(rank);
                let cells = state.unpack(N);
                assert_eq!(grid.parity(&cells), class, "{rows}x{cols} rank {rank}");
                assert_eq!(State::pack(&cells), state);
                assert_eq!(codec.rank::<N>(state), rank);
                for &to in &codec.neighbours[state.blank] {
                    if to != NONE {
                        let (next, r) = codec.rank_after::<N>(state, rank, usize::from(to));
                        assert_eq!(codec.rank::<N>(next), r);
                        assert_eq!(codec.unrank::<N>(r), next);
                    }
                }
            }
        }
    }

    #[test]
    fn ranks_are_perfect_within_a_class() {
        round_trip::<4>(2, 2);
        round_trip::<6>(2, 3);
        round_trip::<6>(3, 2);
        round_trip::<8>(4, 2);
        round_trip::<9>(3, 3);
        round_trip::<10>(2, 5);
        round_trip::<12>(3, 4);
        round_trip::<12>(6, 2);
    }
}
