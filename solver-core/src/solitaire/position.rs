//! Squares and validated positions of four identical pieces on the 8×8 board.

use std::fmt;

/// Pieces on the board.
pub const PIECES: usize = 4;
/// Rows and columns of the board.
pub(crate) const SIDE: u32 = 8;
/// Number of positions: C(64, 4).
pub const POSITIONS: usize = 635_376;

/// A square of the board, 1-based as on the board: rows 1 (top) to 8, columns 1 (left) to 8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `row`, `col` (both 1..=8).
    ///
    /// ```
    /// use solver_core::solitaire::Square;
    /// assert_eq!(Square::new(4, 5).unwrap().col(), 5);
    /// assert!(Square::new(9, 1).is_err());
    /// ```
    ///
    /// # Errors
    /// [`PositionError::OffBoard`] when a coordinate is outside 1..=8.
    pub fn new(row: u32, col: u32) -> Result<Self, PositionError> {
        if (1..=SIDE).contains(&row) && (1..=SIDE).contains(&col) {
            Ok(Self(((row - 1) * SIDE + col - 1) as u8))
        } else {
            Err(PositionError::OffBoard { row, col })
        }
    }

    /// Row, 1..=8.
    #[must_use]
    pub fn row(self) -> u32 {
        u32::from(self.0) / SIDE + 1
    }

    /// Column, 1..=8.
    #[must_use]
    pub fn col(self) -> u32 {
        u32::from(self.0) % SIDE + 1
    }

    /// Index 0..64, row-major.
    pub(crate) fn index(self) -> u32 {
        u32::from(self.0)
    }

    pub(crate) fn from_index(index: u32) -> Self {
        debug_assert!(index < 64);
        Self(index as u8)
    }
}

impl fmt::Display for Square {
    /// `row col`, as the judges write squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.row(), self.col())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row(), self.col())
    }
}

/// Why squares do not make a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A row or column outside 1..=8.
    #[error("square ({row}, {col}) is off the board: rows and columns are 1..=8")]
    OffBoard {
        /// The row given.
        row: u32,
        /// The column given.
        col: u32,
    },
    /// Not exactly four pieces.
    #[error("expected {PIECES} pieces, found {found}")]
    WrongCount {
        /// Pieces given.
        found: usize,
    },
    /// Two pieces on one square.
    #[error("two pieces on square ({}, {})", square.row(), square.col())]
    Duplicate {
        /// The square given twice.
        square: Square,
    },
}

/// Four identical pieces on distinct squares. Their order does not matter: positions with the
/// same squares are equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Occupied squares, bit `i` for square index `i`; always exactly four bits.
    bits: u64,
}

impl Position {
    /// Validates four distinct squares, in any order.
    ///
    /// ```
    /// use solver_core::solitaire::{Position, Square};
    /// let sq = |r, c| Square::new(r, c).unwrap();
    /// let a = Position::new(&[sq(4, 4), sq(4, 5), sq(5, 4), sq(6, 5)]).unwrap();
    /// let b = Position::new(&[sq(6, 5), sq(5, 4), sq(4, 5), sq(4, 4)]).unwrap();
    /// assert_eq!(a, b);
    /// assert!(Position::new(&[sq(1, 1), sq(1, 1), sq(2, 2), sq(3, 3)]).is_err());
    /// ```
    ///
    /// # Errors
    /// [`PositionError`] for a count other than four or a repeated square.
    pub fn new(squares: &[Square]) -> Result<Self, PositionError> {
        if squares.len() != PIECES {
            return Err(PositionError::WrongCount {
                found: squares.len(),
            });
        }
        let mut bits = 0u64;
        for &square in squares {
            let bit = 1u64 << square.index();
            if bits & bit != 0 {
                return Err(PositionError::Duplicate { square });
            }
            bits |= bit;
        }
        Ok(Self { bits })
    }

    /// The occupied squares in row-major order.
    #[must_use]
    pub fn squares(&self) -> [Square; PIECES] {
        let mut out = [Square(0); PIECES];
        let mut bits = self.bits;
        for slot in &mut out {
            *slot = Square::from_index(bits.trailing_zeros());
            bits &= bits - 1;
        }
        out
    }

    pub(crate) fn bits(self) -> u64 {
        self.bits
    }

    pub(crate) fn from_bits(bits: u64) -> Self {
        debug_assert_eq!(bits.count_ones() as usize, PIECES);
        Self { bits }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.squares()).finish()
    }
}

impl fmt::Display for Position {
    /// `r1 c1 r2 c2 r3 c3 r4 c4`, as the judges write positions.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, square) in self.squares().iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{square}")?;
        }
        Ok(())
    }
}

/// `BINOMIAL[k][n] = C(n, k)` for k ≤ 4, n ≤ 64.
const BINOMIAL: [[u32; 65]; PIECES + 1] = {
    let mut table = [[0u32; 65]; PIECES + 1];
    let mut n = 0;
    while n <= 64 {
        table[0][n] = 1;
        let mut k = 1;
        while k <= PIECES {
            if n > 0 {
                table[k][n] = table[k][n - 1] + table[k - 1][n - 1];
            }
            k += 1;
        }
        n += 1;
    }
    table
};

/// Perfect rank of an occupancy of four squares in `0..POSITIONS` (the combinatorial number
/// system: sorted squares `s0 < s1 < s2 < s3` rank as `C(s0,1) + C(s1,2) + C(s2,3) + C(s3,4)`).
#[inline]
pub(crate) fn rank(bits: u64) -> u32 {
    let mut b = bits;
    let s0 = b.trailing_zeros() as usize;
    b &= b - 1;
    let s1 = b.trailing_zeros() as usize;
    b &= b - 1;
    let s2 = b.trailing_zeros() as usize;
    b &= b - 1;
    let s3 = b.trailing_zeros() as usize;
    BINOMIAL[1][s0] + BINOMIAL[2][s1] + BINOMIAL[3][s2] + BINOMIAL[4][s3]
}

/// The occupancy of rank `r` (inverse of [`rank`]).
pub(crate) fn unrank(mut r: u32) -> u64 {
    let mut bits = 0u64;
    let mut n = 64;
    for k in (1..=PIECES).rev() {
        n -= 1;
        while BINOMIAL[k][n] > r {
            n -= 1;
        }
        r -= BINOMIAL[k][n];
        bits |= 1 << n;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection() {
        let mut seen = vec![false; POSITIONS];
        for a in 0..64 {
            for b in a + 1..64 {
                for c in b + 1..64 {
                    for d in c + 1..64 {
                        let bits = (1u64 << a) | (1 << b) | (1 << c) | (1 << d);
                        let r = rank(bits) as usize;
                        assert!(!seen[r]);
                        seen[r] = true;
                        assert_eq!(unrank(r as u32), bits);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn errors_name_the_square() {
        assert_eq!(
            Square::new(0, 3).unwrap_err().to_string(),
            "square (0, 3) is off the board: rows and columns are 1..=8"
        );
        let sq = |r, c| Square::new(r, c).unwrap();
        let e = Position::new(&[sq(1, 1), sq(2, 2), sq(1, 1), sq(3, 3)]).unwrap_err();
        assert_eq!(e.to_string(), "two pieces on square (1, 1)");
        let e = Position::new(&[sq(1, 1)]).unwrap_err();
        assert_eq!(e.to_string(), "expected 4 pieces, found 1");
    }

    #[test]
    fn display_is_judge_order() {
        let sq = |r, c| Square::new(r, c).unwrap();
        let p = Position::new(&[sq(6, 5), sq(4, 4), sq(5, 4), sq(4, 5)]).unwrap();
        assert_eq!(p.to_string(), "4 4 4 5 5 4 6 5");
    }
}
