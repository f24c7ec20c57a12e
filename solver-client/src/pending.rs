//! TEMPORARY stand-in for solver_core::solitaire until it lands on main. Delete on merge.
#![allow(dead_code, unreachable_pub, missing_docs)]
pub(crate) mod solitaire {
    pub(crate) const DEFAULT_MAX_MOVES: u32 = 8;
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub(crate) struct Square(u32, u32);
    impl Square {
        pub(crate) fn new(row: u32, col: u32) -> Result<Self, String> {
            if (1..=8).contains(&row) && (1..=8).contains(&col) {
                Ok(Self(row, col))
            } else {
                Err(format!("square ({row}, {col}) is off the board"))
            }
        }
        pub(crate) fn row(self) -> u32 {
            self.0
        }
        pub(crate) fn col(self) -> u32 {
            self.1
        }
    }
    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
    pub(crate) struct Position([Square; 4]);
    impl Position {
        pub(crate) fn new(squares: &[Square]) -> Result<Self, String> {
            let mut s: Vec<Square> = squares.to_vec();
            s.sort();
            s.dedup();
            if s.len() != 4 || squares.len() != 4 {
                return Err("need 4 distinct squares".into());
            }
            Ok(Self([s[0], s[1], s[2], s[3]]))
        }
    }
}
