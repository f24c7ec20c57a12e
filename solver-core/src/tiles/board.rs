//! The validated sliding-tile board and the moves of its blank.
//!
//! One generic type serves the 3×3 and the 4×4 puzzle: `Board<3>` and `Board<4>`. A board can
//! only be made through validation, so every `Board` holds each tile exactly once and the rest of
//! the crate trusts it.

use std::fmt;
use std::str::FromStr;

use super::grid::Grid;
pub use super::moves::{Move, MoveParseError, format_moves, parse_moves};

/// Why a list of tokens is not a valid board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not exactly `width × width` tokens.
    #[error("expected {expected} tiles, found {found}")]
    WrongCount {
        /// Cells on the board.
        expected: usize,
        /// Tokens given.
        found: usize,
    },
    /// A token that is not a number or a blank mark.
    #[error("token {} ({token:?}) is not a tile: expected 1..={max}, or x, X or 0 for the blank", index + 1)]
    BadToken {
        /// Zero-based position of the token.
        index: usize,
        /// The token as given.
        token: String,
        /// The largest tile number.
        max: u32,
    },
    /// A number larger than the largest tile.
    #[error("tile {value} (token {}) is out of range: expected 1..={max}, or 0 for the blank", index + 1)]
    OutOfRange {
        /// Zero-based position of the token.
        index: usize,
        /// The number given.
        value: u64,
        /// The largest tile number.
        max: u32,
    },
    /// A tile (or the blank) given twice, which leaves another one missing.
    #[error("{} appears twice (cells {} and {}), so {} is missing", tile_name(*tile), first + 1, second + 1, tile_name(*missing))]
    Duplicate {
        /// The repeated tile (0 = the blank).
        tile: u8,
        /// Zero-based cell of its first occurrence.
        first: usize,
        /// Zero-based cell of its second occurrence.
        second: usize,
        /// A tile that therefore does not appear (0 = the blank).
        missing: u8,
    },
}

fn tile_name(tile: u8) -> String {
    if tile == 0 {
        "the blank".to_owned()
    } else {
        format!("tile {tile}")
    }
}

/// A move that cannot be made while replaying a move string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {} ('{mv}') would take the blank off the board from row {}, column {}", index + 1, row + 1, col + 1)]
pub struct ReplayError {
    /// Zero-based index of the illegal move.
    pub index: usize,
    /// The move.
    pub mv: Move,
    /// Zero-based row of the blank before the move.
    pub row: usize,
    /// Zero-based column of the blank before the move.
    pub col: usize,
}

/// A validated `W × W` sliding-tile board (`W` is 3 or 4): every tile `1..W²` and the blank (0)
/// exactly once, row-major from the top-left cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board<const W: usize> {
    cells: [u8; 16],
}

/// The 8-puzzle board.
pub type Board3 = Board<3>;
/// The 15-puzzle board.
pub type Board4 = Board<4>;

impl<const W: usize> Board<W> {
    /// Number of cells.
    pub const CELLS: usize = {
        assert!(W == 3 || W == 4, "only 3×3 and 4×4 boards exist");
        W * W
    };

    /// The standard goal: tiles in order, blank in the bottom-right cell.
    ///
    /// ```
    /// use solver_core::Board3;
    /// assert_eq!(Board3::goal().to_string(), "1 2 3\n4 5 6\n7 8 0");
    /// ```
    #[must_use]
    pub fn goal() -> Self {
        let mut cells = [0u8; 16];
        for (i, c) in cells.iter_mut().enumerate().take(Self::CELLS - 1) {
            *c = u8::try_from(i + 1).expect("at most 15 tiles");
        }
        Self { cells }
    }

    /// The canonical board with the blank at `blank`: tiles `1..W²` fill the other cells in order.
    /// Every board is one relabelling away from the canonical board with its blank cell.
    #[must_use]
    pub fn canonical(blank: usize) -> Self {
        let mut cells = [0u8; 16];
        let mut next = 1;
        for (i, c) in cells.iter_mut().enumerate().take(Self::CELLS) {
            if i != blank {
                *c = next;
                next += 1;
            }
        }
        Self { cells }
    }

    /// The board of `W²` cells already validated (a [`GridBoard`](super::grid_board::GridBoard)'s).
    pub(crate) fn from_valid(valid: &[u8]) -> Self {
        debug_assert_eq!(valid.len(), Self::CELLS);
        let mut cells = [0u8; 16];
        cells[..Self::CELLS].copy_from_slice(valid);
        Self { cells }
    }

    /// Validates `W²` numbers, row-major, 0 for the blank.
    ///
    /// ```
    /// use solver_core::Board3;
    /// assert!(Board3::from_cells(&[1u8, 2, 3, 4, 5, 6, 7, 8, 0]).is_ok());
    /// assert!(Board3::from_cells(&[1u8, 2, 3, 4, 5, 6, 7, 7, 0]).is_err());
    /// ```
    ///
    /// # Errors
    /// [`BoardError`] for a wrong count, a number out of range or a repeated tile.
    pub fn from_cells<T: Copy + Into<u64>>(values: &[T]) -> Result<Self, BoardError> {
        if values.len() != Self::CELLS {
            return Err(BoardError::WrongCount {
                expected: Self::CELLS,
                found: values.len(),
            });
        }
        let max = Self::CELLS as u64 - 1;
        let mut cells = [0u8; 16];
        let mut seen: [Option<usize>; 16] = [None; 16];
        for (index, value) in values.iter().map(|&v| v.into()).enumerate() {
            if value > max {
                return Err(BoardError::OutOfRange {
                    index,
                    value,
                    max: max as u32,
                });
            }
            let tile = value as u8;
            if let Some(first) = seen[tile as usize] {
                // With the right count, a repeated tile means another one is absent.
                let missing = (0..=max)
                    .find(|&t| !values.iter().any(|&v| v.into() == t))
                    .unwrap_or(0) as u8;
                return Err(BoardError::Duplicate {
                    tile,
                    first,
                    second: index,
                    missing,
                });
            }
            seen[tile as usize] = Some(index);
            cells[index] = tile;
        }
        Ok(Self { cells })
    }

    /// Parses `W²` tokens as the judges write them: numbers, with `x`, `X` or `0` for the blank.
    ///
    /// ```
    /// use solver_core::Board3;
    /// let board = Board3::from_tokens("2 3 4 1 5 x 7 6 8".split_whitespace()).unwrap();
    /// assert_eq!(board.blank(), 5);
    /// ```
    ///
    /// # Errors
    /// [`BoardError`] naming the first bad token, or a wrong count or repeated tile.
    pub fn from_tokens<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Result<Self, BoardError> {
        let max = Self::CELLS as u32 - 1;
        let values = tokens
            .into_iter()
            .enumerate()
            .map(|(index, token)| parse_token(index, token, max))
            .collect::<Result<Vec<u64>, _>>()?;
        Self::from_cells(&values)
    }

    /// The tiles, row-major, 0 for the blank.
    #[must_use]
    pub fn cells(&self) -> &[u8] {
        &self.cells[..Self::CELLS]
    }

    /// The blank's cell (row-major index).
    #[must_use]
    pub fn blank(&self) -> usize {
        self.cells()
            .iter()
            .position(|&t| t == 0)
            .expect("a validated board has a blank")
    }

    /// The board after `mv`, or `None` if the blank would leave the board.
    ///
    /// ```
    /// use solver_core::{Board3, Move};
    /// let goal = Board3::goal();
    /// assert!(goal.apply(Move::Down).is_none());
    /// assert_eq!(goal.apply(Move::Up).unwrap().blank(), 5);
    /// ```
    #[must_use]
    pub fn apply(&self, mv: Move) -> Option<Self> {
        let blank = self.blank();
        let to = mv.target(blank, W)?;
        let mut next = *self;
        next.cells.swap(blank, to);
        Some(next)
    }

    /// Replays `moves` from this board.
    ///
    /// ```
    /// use solver_core::{Board3, parse_moves};
    /// let start = Board3::goal().replay(&parse_moves("ul").unwrap()).unwrap();
    /// assert_eq!(start.replay(&parse_moves("rd").unwrap()).unwrap(), Board3::goal());
    /// ```
    ///
    /// # Errors
    /// [`ReplayError`] at the first move that would take the blank off the board.
    pub fn replay(&self, moves: &[Move]) -> Result<Self, ReplayError> {
        let mut board = *self;
        for (index, &mv) in moves.iter().enumerate() {
            let blank = board.blank();
            board = board.apply(mv).ok_or(ReplayError {
                index,
                mv,
                row: blank / W,
                col: blank % W,
            })?;
        }
        Ok(board)
    }

    /// The invariant that no move changes, as [`Grid::parity`] defines it for every shape (the
    /// one place the rule is written).
    #[must_use]
    pub fn parity(&self) -> bool {
        Grid::new(W, W)
            .expect("3×3 and 4×4 are shapes")
            .parity(self.cells())
    }

    /// Whether `target` can be reached from this board: exactly when both have the same
    /// [`parity`](Self::parity) (the two parity classes are each connected).
    ///
    /// ```
    /// use solver_core::Board3;
    /// let swapped = Board3::from_cells(&[2u8, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    /// assert!(!swapped.can_reach(&Board3::goal()));
    /// ```
    #[must_use]
    pub fn can_reach(&self, target: &Self) -> bool {
        self.parity() == target.parity()
    }

    /// Cells of each tile: `positions()[t]` is the cell of tile `t` (0 = the blank).
    #[must_use]
    pub fn positions(&self) -> [u8; 16] {
        let mut pos = [0u8; 16];
        for (cell, &tile) in self.cells().iter().enumerate() {
            pos[tile as usize] = cell as u8;
        }
        pos
    }

    /// Renames every tile: tile `t` becomes `map[t]`. `map` must be a permutation fixing 0.
    pub(crate) fn relabel(&self, map: &[u8; 16]) -> Self {
        let mut cells = [0u8; 16];
        for (c, &t) in cells.iter_mut().zip(self.cells()) {
            *c = map[t as usize];
        }
        Self { cells }
    }
}

fn parse_token(index: usize, token: &str, max: u32) -> Result<u64, BoardError> {
    if token.eq_ignore_ascii_case("x") {
        return Ok(0);
    }
    if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
        // Saturate very long numbers: they are out of range either way.
        let value = token.parse::<u64>().unwrap_or(u64::MAX);
        if value > u64::from(max) {
            return Err(BoardError::OutOfRange { index, value, max });
        }
        return Ok(value);
    }
    Err(BoardError::BadToken {
        index,
        token: token.to_owned(),
        max,
    })
}

impl<const W: usize> FromStr for Board<W> {
    type Err = BoardError;

    /// Whitespace-separated tokens; a 3×3 board may also be packed as 9 characters
    /// (`12X453786`), as HDU 3567 writes it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let tokens: Vec<&str> = s.split_whitespace().collect();
        if W == 3 && tokens.len() == 1 && tokens[0].len() == Self::CELLS && tokens[0].is_ascii() {
            let token = tokens[0];
            return Self::from_tokens((0..Self::CELLS).map(|i| &token[i..=i]));
        }
        Self::from_tokens(tokens)
    }
}

impl<const W: usize> fmt::Display for Board<W> {
    /// Rows of space-separated numbers, 0 for the blank, rows separated by newlines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (row, chunk) in self.cells().chunks(W).enumerate() {
            if row > 0 {
                writeln!(f)?;
            }
            for (i, tile) in chunk.iter().enumerate() {
                if i > 0 {
                    write!(f, " ")?;
                }
                write!(f, "{tile}")?;
            }
        }
        Ok(())
    }
}

impl<const W: usize> fmt::Debug for Board<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board<{W}>{:?}", self.cells())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_judge_tokens() {
        let b: Board3 = "2  3  4  1  5  x  7  6  8".parse().unwrap();
        assert_eq!(b.cells(), &[2, 3, 4, 1, 5, 0, 7, 6, 8]);
        let packed: Board3 = "12X453786".parse().unwrap();
        assert_eq!(packed.cells(), &[1, 2, 0, 4, 5, 3, 7, 8, 6]);
        let b4: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
        assert_eq!(b4.blank(), 3);
    }

    #[test]
    fn errors_name_the_problem() {
        let e = "1 2 3".parse::<Board3>().unwrap_err();
        assert_eq!(e.to_string(), "expected 9 tiles, found 3");
        let e = "1 2 3 4 5 6 7 y 0".parse::<Board3>().unwrap_err();
        assert!(e.to_string().contains("token 8 (\"y\")"), "{e}");
        let e = "1 2 3 4 5 6 7 9 0".parse::<Board3>().unwrap_err();
        assert!(
            e.to_string().contains("tile 9 (token 8) is out of range"),
            "{e}"
        );
        let e = "1 2 3 4 5 6 7 7 0".parse::<Board3>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "tile 7 appears twice (cells 7 and 8), so tile 8 is missing"
        );
        let e = "1 2 3 4 5 6 7 x 0".parse::<Board3>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "the blank appears twice (cells 8 and 9), so tile 8 is missing"
        );
        let e = "99999999999999999999999 2 3 4 5 6 7 8 0"
            .parse::<Board3>()
            .unwrap_err();
        assert!(matches!(e, BoardError::OutOfRange { index: 0, .. }));
        assert!("".parse::<Board4>().is_err());
    }

    #[test]
    fn replay_reports_the_first_illegal_move() {
        let e = Board3::goal()
            .replay(&parse_moves("uuu").unwrap())
            .unwrap_err();
        assert_eq!(e.index, 2);
        assert_eq!(
            e.to_string(),
            "move 3 ('u') would take the blank off the board from row 1, column 3"
        );
    }

    #[test]
    fn parity_matches_the_judges_rules() {
        // 3×3 to the standard goal: even number of inversions among the tiles.
        let b: Board3 = "2 3 4 1 5 x 7 6 8".parse().unwrap();
        assert!(b.can_reach(&Board3::goal()));
        // 4×4 to the standard goal: the UVa 10181 sample's second board is unsolvable.
        let b: Board4 = "13 1 2 4 5 0 3 7 9 6 10 12 15 8 11 14".parse().unwrap();
        assert!(!b.can_reach(&Board4::goal()));
        let b: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
        assert!(b.can_reach(&Board4::goal()));
    }

    #[test]
    fn move_order_is_letter_order() {
        let mut letters: Vec<char> = Move::ALL.iter().map(|m| m.letter()).collect();
        let sorted = {
            let mut s = letters.clone();
            s.sort_unstable();
            s
        };
        assert_eq!(letters, sorted);
        letters.dedup();
        assert_eq!(letters.len(), 4);
        for m in Move::ALL {
            assert_eq!(m.reverse().reverse(), m);
            assert_eq!(Move::from_letter(m.letter()), Some(m));
        }
    }
}
