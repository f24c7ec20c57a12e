//! The load tool's Solitaire cases: a random start, and an end that is half the time a short walk
//! away (reachable: the answer is checked against the walk) and half the time random (mostly
//! unreachable: the search explores everything within 8 moves).

use solver_core::solitaire::{self, DEFAULT_MAX_MOVES, Position, Square, Step};

use super::query::Pair;
use crate::family::Query;
use crate::load::cases::{LoadCase, Rng};

/// The next Solitaire case of a stream.
pub(crate) fn case(rng: &mut Rng) -> LoadCase {
    let start = random_position(rng);
    if rng.below(2) == 0 {
        let moves = 1 + rng.below(DEFAULT_MAX_MOVES as usize);
        let end = walk(start, moves, rng);
        LoadCase {
            query: query(start, end),
            exact: None,
            at_most: Some(moves),
        }
    } else {
        LoadCase {
            query: query(start, random_position(rng)),
            exact: None,
            at_most: None,
        }
    }
}

/// Reach `end` from `start` within the default limit?
fn query(start: Position, end: Position) -> Query {
    Query::Solitaire(Pair {
        start,
        end,
        max_moves: DEFAULT_MAX_MOVES,
    })
}

fn square(index: usize) -> Square {
    Square::new((index / 8 + 1) as u32, (index % 8 + 1) as u32).expect("0..64 is on the board")
}

fn random_position(rng: &mut Rng) -> Position {
    let mut squares = Vec::with_capacity(4);
    while squares.len() < 4 {
        let s = rng.below(64);
        if !squares.contains(&s) {
            squares.push(s);
        }
    }
    let squares: Vec<Square> = squares.into_iter().map(square).collect();
    Position::new(&squares).expect("four distinct squares")
}

/// `moves` random legal moves (steps or jumps) from `start`.
fn walk(start: Position, moves: usize, rng: &mut Rng) -> Position {
    const DIRECTIONS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
    let mut position = start;
    for _ in 0..moves {
        let pieces = position.squares();
        // Every position has a legal move (four pieces cannot block all directions of all of
        // them), so this ends; legality is decided by the library's own replay.
        loop {
            let piece = pieces[rng.below(4)];
            let (dr, dc) = DIRECTIONS[rng.below(4)];
            let reach = 1 + rng.below(2) as i32;
            let (row, col) = (
                piece.row() as i32 + dr * reach,
                piece.col() as i32 + dc * reach,
            );
            if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
                continue;
            }
            let step = Step {
                from: piece,
                to: Square::new(row as u32, col as u32).expect("checked to be on the board"),
            };
            if let Ok(next) = solitaire::replay(&position, &[step]) {
                position = next;
                break;
            }
        }
    }
    position
}
