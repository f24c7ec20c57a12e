//! What every sliding board offers, whatever its size: the blank's moves. The oracle
//! ([`bfs`](super::bfs)), hints ([`hint`](super::hint)) and verdicts ([`verify`](super::verify))
//! work on any board through it: the fixed 3×3 and 4×4 [`Board`]s and [`GridBoard`]s alike.

use std::hash::Hash;

use super::board::{Board, Move};
use super::grid_board::GridBoard;

/// A board whose blank moves.
pub trait Slide: Clone + Eq + Hash {
    /// The board after `mv`, or `None` if the blank would leave the board.
    fn slide(&self, mv: Move) -> Option<Self>;
}

impl<const W: usize> Slide for Board<W> {
    fn slide(&self, mv: Move) -> Option<Self> {
        self.apply(mv)
    }
}

impl Slide for GridBoard {
    fn slide(&self, mv: Move) -> Option<Self> {
        self.apply(mv)
    }
}
