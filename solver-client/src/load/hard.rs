//! The hard 15-puzzle boards of a load run (`--hard`): the 80-move board and Korf's instances,
//! each with its known optimal length.

use std::collections::HashSet;
use std::num::ParseIntError;

use solver_core::{Board4, BoardError};

/// Korf's 100 instances, with their optimal lengths (`id length cells...` per line).
const KORF100: &str = solver_core::benchmarks::KORF100;

/// The 80-move board (one of the two hardest 15-puzzle positions), solved to the standard goal.
const EIGHTY: [u8; 16] = [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1];

/// The Korf instances `korf` stands for: the harder half, from about 0.05 s to 0.8 s of one core
/// each with the 6-6-3 databases (0.3 M to 5.7 M nodes).
const KORF_SUBSET: [usize; 12] = [3, 10, 15, 22, 33, 54, 59, 60, 63, 66, 82, 88];

/// What is wrong with `--hard` (or the stored instances).
#[derive(Debug, thiserror::Error)]
pub(crate) enum HardError {
    /// `korfN` with N not 1 to 100.
    #[error("Korf's instances are numbered 1 to 100, not {0}")]
    NoInstance(usize),
    /// A line of the stored file that is not numbers.
    #[error("korf100.txt: bad line {line:?}")]
    BadLine {
        /// The line.
        line: String,
        /// Why.
        source: ParseIntError,
    },
    /// A stored instance that is not a board.
    #[error("korf100.txt, instance {id}: {source}")]
    BadBoard {
        /// The instance.
        id: usize,
        /// Why.
        source: BoardError,
    },
    /// A name that is no board.
    #[error(
        "--hard: {0:?} is not a board: use 80, korf (a subset of Korf's 100) or korfN (instance N)"
    )]
    NotABoard(String),
    /// Nothing named.
    #[error("--hard names no board")]
    NoBoard,
}

/// A hard 15-puzzle board with its known optimal length.
#[derive(Debug, Clone)]
pub(crate) struct Hard {
    /// `80` or `korfN`.
    pub(crate) name: String,
    /// The board, solved to the standard goal.
    pub(crate) board: Board4,
    /// Its optimal length.
    pub(crate) length: usize,
}

/// The hard boards named by `--hard`: a comma-separated list of `80`, `korf` (a built-in subset
/// of Korf's 100) and `korfN` (instance N, 1 to 100).
pub(crate) fn hard_boards(spec: &str) -> Result<Vec<Hard>, HardError> {
    let korf = |id: usize| -> Result<Hard, HardError> {
        let line = KORF100
            .lines()
            .filter(|l| !l.starts_with('#'))
            .find(|l| l.split_whitespace().next() == Some(id.to_string().as_str()))
            .ok_or(HardError::NoInstance(id))?;
        let numbers: Vec<usize> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|source| HardError::BadLine {
                line: line.to_owned(),
                source,
            })?;
        let board =
            Board4::from_cells(&numbers[2..].iter().map(|&n| n as u64).collect::<Vec<u64>>())
                .map_err(|source| HardError::BadBoard { id, source })?;
        Ok(Hard {
            name: format!("korf{id}"),
            board,
            length: numbers[1],
        })
    };
    let mut boards = Vec::new();
    for token in spec.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        match token {
            "80" => boards.push(Hard {
                name: "80".to_owned(),
                board: Board4::from_cells(&EIGHTY).expect("the 80-move board is valid"),
                length: 80,
            }),
            "korf" => {
                for id in KORF_SUBSET {
                    boards.push(korf(id)?);
                }
            }
            other => match other.strip_prefix("korf").map(str::parse::<usize>) {
                Some(Ok(id)) => boards.push(korf(id)?),
                _ => return Err(HardError::NotABoard(other.to_owned())),
            },
        }
    }
    if boards.is_empty() {
        return Err(HardError::NoBoard);
    }
    let mut seen = HashSet::new();
    boards.retain(|b| seen.insert(b.name.clone()));
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_boards_are_named_and_deduplicated() {
        let boards = hard_boards("80, korf, korf3, korf100").unwrap();
        assert_eq!(boards[0].name, "80");
        assert_eq!(boards.len(), 1 + KORF_SUBSET.len() + 1);
        assert_eq!(boards.last().unwrap().name, "korf100");
        assert!(hard_boards("korf101").is_err());
        assert!(hard_boards("eighty").is_err());
        assert!(hard_boards(",").is_err());
    }
}
