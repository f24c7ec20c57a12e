//! The moves of a piece: a step to an empty orthogonal neighbour, or a jump over one adjacent
//! piece onto the empty square right behind it. Every move can be undone by a move (the reverse
//! step, or the reverse jump over the same piece), so the predecessors of a position are its
//! successors and one generator serves both directions of the search.

/// No square in that direction.
const OFF: u8 = u8::MAX;

/// `NEXT[dir][sq]`: the square one step from `sq` in direction `dir` (N, W, E, S), or `OFF`.
const NEXT: [[u8; 64]; 4] = {
    let mut table = [[OFF; 64]; 4];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = (sq / 8, sq % 8);
        if row > 0 {
            table[0][sq] = (sq - 8) as u8;
        }
        if col > 0 {
            table[1][sq] = (sq - 1) as u8;
        }
        if col < 7 {
            table[2][sq] = (sq + 1) as u8;
        }
        if row < 7 {
            table[3][sq] = (sq + 8) as u8;
        }
        sq += 1;
    }
    table
};

/// Calls `visit` with every position one move from `occupied` (bit `i` = a piece on square `i`).
#[inline]
pub(crate) fn for_each_successor(occupied: u64, mut visit: impl FnMut(u64)) {
    let mut pieces = occupied;
    while pieces != 0 {
        let from = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        let without = occupied & !(1u64 << from);
        for next in &NEXT {
            let over = next[from];
            if over == OFF {
                continue;
            }
            let over_bit = 1u64 << over;
            if occupied & over_bit == 0 {
                visit(without | over_bit);
                continue;
            }
            let land = next[over as usize];
            if land != OFF && occupied & (1u64 << land) == 0 {
                visit(without | (1u64 << land));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn successors(bits: u64) -> Vec<u64> {
        let mut out = Vec::new();
        for_each_successor(bits, |b| out.push(b));
        out
    }

    #[test]
    fn corner_piece_steps_and_jumps() {
        // Pieces at (1,1) and (1,2): (1,1) can step down or jump right over (1,2) to (1,3).
        let bits = 0b11 | (1 << 63) | (1 << 62);
        let next = successors(bits);
        let from_corner: Vec<u64> = next.iter().copied().filter(|b| b & 1 == 0).collect();
        assert_eq!(from_corner.len(), 2);
        assert!(from_corner.contains(&(0b110 | (1 << 63) | (1 << 62))));
        assert!(from_corner.contains(&(0b10 | (1 << 8) | (1 << 63) | (1 << 62))));
    }

    #[test]
    fn no_jump_onto_a_piece_nor_over_two() {
        // Row 1: pieces at columns 1, 2, 3, 4. The piece at column 1 can neither jump over
        // column 2 (column 3 is taken) nor over two pieces; it can only step down.
        let bits = 0b1111;
        let next = successors(bits);
        let from_first: Vec<u64> = next.iter().copied().filter(|b| b & 1 == 0).collect();
        assert_eq!(from_first, vec![0b1110 | (1 << 8)]);
        // Every successor keeps four pieces and is undone by a successor of its own.
        for &n in &next {
            assert_eq!(n.count_ones(), 4);
            assert!(successors(n).contains(&bits));
        }
    }
}
