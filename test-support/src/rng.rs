//! One small seeded generator, so that every test and benchmark run draws the same boards, and
//! the random walks built on it.

use solver_core::{Board, Move};

/// A 64-bit linear congruential generator (Knuth's MMIX constants), read from its high bits,
/// whose low bits are poor.
#[derive(Debug, Clone)]
pub struct Lcg(u64);

impl Lcg {
    /// A generator whose sequence `seed` fixes.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 31 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.bits() % n as u64).expect("below n")
    }
}

/// The board `steps` random legal moves away from `from` (a move off the board is drawn again).
#[must_use]
pub fn walk<const W: usize>(from: Board<W>, steps: usize, rng: &mut Lcg) -> Board<W> {
    let mut board = from;
    for _ in 0..steps {
        loop {
            if let Some(next) = board.apply(Move::ALL[rng.below(4)]) {
                board = next;
                break;
            }
        }
    }
    board
}

/// The board reached by the moves `choices` name (`c % 4` in [`Move::ALL`]), each one off the
/// board skipped: a walk proptest can shrink.
#[must_use]
pub fn walk_choices<const W: usize>(from: Board<W>, choices: &[u8]) -> Board<W> {
    choices.iter().fold(from, |b, &c| {
        b.apply(Move::ALL[c as usize % 4]).unwrap_or(b)
    })
}

/// A walk that never undoes its last move: `choices` pick among the other legal moves, so the
/// board ends up farther away than a plain random walk takes it, where ties between optimal
/// paths are common.
#[must_use]
pub fn forward_walk<const W: usize>(from: Board<W>, choices: &[u8]) -> Board<W> {
    let mut board = from;
    let mut last: Option<Move> = None;
    for &c in choices {
        let options: Vec<(Move, Board<W>)> = Move::ALL
            .iter()
            .filter(|&&m| Some(m.reverse()) != last)
            .filter_map(|&m| board.apply(m).map(|b| (m, b)))
            .collect();
        let (m, b) = options[c as usize % options.len()];
        (board, last) = (b, Some(m));
    }
    board
}

#[cfg(test)]
mod tests {
    use solver_core::Board3;

    use super::*;

    #[test]
    fn the_sequence_is_fixed_by_the_seed() {
        let (mut a, mut b) = (Lcg::new(7), Lcg::new(7));
        let first: Vec<u64> = (0..5).map(|_| a.bits()).collect();
        assert_eq!(first, (0..5).map(|_| b.bits()).collect::<Vec<_>>());
        assert!(first.iter().all(|&x| x < 1 << 31));
        let mut c = Lcg::new(8);
        assert_ne!(first, (0..5).map(|_| c.bits()).collect::<Vec<_>>());
    }

    #[test]
    fn walks_take_legal_moves_only() {
        let mut rng = Lcg::new(3);
        let board = walk(Board3::goal(), 1, &mut rng);
        assert!(board.can_reach(&Board3::goal()));
        assert_ne!(board, Board3::goal());
        assert_eq!(walk_choices(Board3::goal(), &[0, 0, 0]).blank(), 8);
        // From the goal (blank bottom-right) only left and up are legal; a forward walk never
        // steps back, so two moves never return.
        for c in 0..4 {
            assert_ne!(forward_walk(Board3::goal(), &[c, c]), Board3::goal());
        }
    }
}
