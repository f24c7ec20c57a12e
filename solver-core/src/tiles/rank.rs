//! Perfect ranks of permutations, the indices of the exhaustive tables.

/// `FACT[n] = n!`.
pub(crate) const FACT: [u32; 10] = [1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362_880];

/// Rank of a 3×3 board packed 4 bits per cell (cell `i` in bits `4i..4i+4`, tiles 1..8, blank 0
/// at cell `blank`) among the boards of its class (those one sequence of moves apart):
/// `0..9!/2`.
///
/// Fixing the blank's cell fixes the parity of the tiles' sequence (read row-major, blank
/// skipped) within a class, since every move flips both the permutation's parity and the
/// blank's colour on the chessboard. The rank is `blank · 8!/2` plus the Lehmer code of that
/// sequence without its last two digits: the last is always 0, and the one before it only tells
/// apart two sequences of opposite parity, so halving leaves a perfect index.
#[inline]
pub(crate) fn rank9_class(packed: u64, blank: usize) -> u32 {
    // Drop the blank's nibble: the tiles' sequence, 8 nibbles of 1..=8.
    let low = (1u64 << (4 * blank)) - 1;
    let tiles = (packed & low) | ((packed >> 4) & !low);
    let mut seen = 0u32;
    let mut rank = 0u32;
    for i in 0..6 {
        let v = ((tiles >> (4 * i)) & 0xF) as u32;
        let smaller_before = (seen & ((1 << v) - 1)).count_ones();
        // `v - 1 - smaller_before` counts the smaller tiles still to come: a digit of radix 8 - i.
        rank = rank * (8 - i) + (v - 1 - smaller_before);
        seen |= 1 << v;
    }
    // `rank` now counts in units of 2! = 2 (the two dropped digits), so it is already halved.
    blank as u32 * (FACT[8] / 2) + rank
}

/// Packs 9 cells, 4 bits each.
#[inline]
pub(crate) fn pack9(cells: &[u8]) -> u64 {
    cells
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &v)| acc | (u64::from(v) << (4 * i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board of one class gets a distinct rank below 9!/2, and both classes are covered.
    #[test]
    fn class_rank_is_perfect() {
        let mut seen = [vec![false; 181_440], vec![false; 181_440]];
        let mut perm: Vec<u8> = (0..9).collect();
        let mut count = 0;
        permute(&mut perm, 0, &mut |p| {
            let blank = p.iter().position(|&v| v == 0).unwrap();
            let class = (inversions(p) + blank / 3 + blank % 3) % 2;
            let r = rank9_class(pack9(p), blank) as usize;
            assert!(!seen[class][r], "rank {r} repeated");
            seen[class][r] = true;
            count += 1;
        });
        assert_eq!(count, 362_880);
        assert!(seen.iter().all(|s| s.iter().all(|&b| b)));
    }

    fn inversions(p: &[u8]) -> usize {
        (0..p.len())
            .map(|i| (i + 1..p.len()).filter(|&j| p[i] > p[j]).count())
            .sum()
    }

    fn permute(p: &mut Vec<u8>, k: usize, f: &mut impl FnMut(&[u8])) {
        if k == p.len() {
            f(p);
            return;
        }
        for i in k..p.len() {
            p.swap(k, i);
            permute(p, k + 1, f);
            p.swap(k, i);
        }
    }
}
