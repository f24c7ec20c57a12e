//! The cases a load run sends, per class: random ones from a seed, and the hard boards renamed
//! afresh each time. Every case carries what is needed to judge its reply without solving it
//! again: the known optimum of a hard board, the length of the walk that made an easy one, and
//! for a Solitaire end made by a walk of at most 8 moves, that walk's length.

use std::sync::Arc;

use solver_core::solitaire::{self, DEFAULT_MAX_MOVES, Position, Square, Step};
use solver_core::{Board, Board4, Move};

use super::class::Class;
use super::hard::Hard;
use crate::case::{Pair, Query};

/// Easy 15-puzzle boards are this many random moves from the goal.
const EASY_WALK: std::ops::RangeInclusive<usize> = 10..=30;

/// A small, fast, seedable generator (SplitMix64): load needs no cryptographic randomness.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        // The modulo bias is far below anything a load run can notice.
        (self.next_u64() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// One case as sent, with what its reply is checked against.
#[derive(Debug, Clone)]
pub(crate) struct LoadCase {
    /// The question, as any client case.
    pub(crate) query: Query,
    /// The optimal length, when known (the hard boards).
    pub(crate) exact: Option<usize>,
    /// An answer must exist and be at most this long (the walk that made the case); `None`: a
    /// random Solitaire end, which may be unreachable.
    pub(crate) at_most: Option<usize>,
}

/// Makes the cases of one stream.
#[derive(Debug)]
pub(crate) struct Generator {
    class: Class,
    rng: Rng,
    hard: Arc<[Hard]>,
    next_hard: usize,
}

impl Generator {
    /// The cases of stream `stream` of `class`; hard streams start at different boards.
    pub(crate) fn new(class: Class, seed: u64, stream: usize, hard: Arc<[Hard]>) -> Self {
        let next_hard = stream % hard.len().max(1);
        Self {
            class,
            rng: Rng::new(seed),
            hard,
            next_hard,
        }
    }

    pub(crate) fn next(&mut self) -> LoadCase {
        match self.class {
            Class::Eight => {
                let target = random_board::<3>(&mut self.rng);
                let mut start = random_board::<3>(&mut self.rng);
                if !start.can_reach(&target) {
                    start = swap_two_tiles(&start);
                }
                LoadCase {
                    query: Query::sliding(&start, &target),
                    exact: None,
                    // Every 8-puzzle board is within 31 moves of every other of its parity.
                    at_most: Some(31),
                }
            }
            Class::FifteenEasy => {
                let steps =
                    EASY_WALK.start() + self.rng.below(EASY_WALK.end() - EASY_WALK.start() + 1);
                LoadCase {
                    query: Query::sliding(
                        &walk(&Board4::goal(), steps, &mut self.rng),
                        &Board4::goal(),
                    ),
                    exact: None,
                    at_most: Some(steps),
                }
            }
            Class::FifteenHard => {
                let hard = &self.hard[self.next_hard];
                self.next_hard = (self.next_hard + 1) % self.hard.len();
                // A fresh renaming of the tiles for both boards: the same search (the server
                // renames the target back to the goal), but a key the cache has not seen.
                let mut names: Vec<u8> = (1..16).collect();
                self.rng.shuffle(&mut names);
                let rename = |board: &Board4| {
                    let cells: Vec<u8> = board
                        .cells()
                        .iter()
                        .map(|&t| if t == 0 { 0 } else { names[usize::from(t) - 1] })
                        .collect();
                    Board4::from_cells(&cells).expect("a renaming keeps a board valid")
                };
                LoadCase {
                    query: Query::sliding(&rename(&hard.board), &rename(&Board4::goal())),
                    exact: Some(hard.length),
                    at_most: Some(hard.length),
                }
            }
            Class::Solitaire => {
                let start = random_position(&mut self.rng);
                // Half the ends are a short walk away (reachable: the answer is checked), half
                // random (mostly unreachable: the search explores everything within 8 moves).
                if self.rng.below(2) == 0 {
                    let moves = 1 + self.rng.below(DEFAULT_MAX_MOVES as usize);
                    let end = solitaire_walk(start, moves, &mut self.rng);
                    LoadCase {
                        query: solitaire_query(start, end),
                        exact: None,
                        at_most: Some(moves),
                    }
                } else {
                    LoadCase {
                        query: solitaire_query(start, random_position(&mut self.rng)),
                        exact: None,
                        at_most: None,
                    }
                }
            }
        }
    }
}

/// Reach `end` from `start` within the default limit?
fn solitaire_query(start: Position, end: Position) -> Query {
    Query::Solitaire(Pair {
        start,
        end,
        max_moves: DEFAULT_MAX_MOVES,
    })
}

/// A uniformly random arrangement of the tiles and the blank.
fn random_board<const W: usize>(rng: &mut Rng) -> Board<W> {
    let mut cells: Vec<u8> = (0..(W * W) as u8).collect();
    rng.shuffle(&mut cells);
    Board::from_cells(&cells).expect("a permutation is a valid board")
}

/// The board with its first two tiles (not the blank) swapped: the other parity.
fn swap_two_tiles<const W: usize>(board: &Board<W>) -> Board<W> {
    let mut cells = board.cells().to_vec();
    let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
    cells.swap(tiles[0], tiles[1]);
    Board::from_cells(&cells).expect("a swap keeps a board valid")
}

/// `steps` random moves from `board`, never undoing the previous one.
fn walk<const W: usize>(board: &Board<W>, steps: usize, rng: &mut Rng) -> Board<W> {
    let mut board = *board;
    let mut last: Option<Move> = None;
    for _ in 0..steps {
        loop {
            let mv = Move::ALL[rng.below(4)];
            if last.is_some_and(|l| undoes(l, mv)) {
                continue;
            }
            if let Some(next) = board.apply(mv) {
                board = next;
                last = Some(mv);
                break;
            }
        }
    }
    board
}

fn undoes(a: Move, b: Move) -> bool {
    matches!(
        (a, b),
        (Move::Up, Move::Down)
            | (Move::Down, Move::Up)
            | (Move::Left, Move::Right)
            | (Move::Right, Move::Left)
    )
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

/// `moves` random legal Solitaire moves (steps or jumps) from `start`.
fn solitaire_walk(start: Position, moves: usize, rng: &mut Rng) -> Position {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::hard::hard_boards;

    #[test]
    fn generated_cases_are_well_formed() {
        let hard: Arc<[Hard]> = hard_boards("korf").unwrap().into();
        for class in Class::ALL {
            let mut generator = Generator::new(class, 7, 0, hard.clone());
            for _ in 0..200 {
                let case = generator.next();
                match &case.query {
                    Query::Sliding(sliding) => {
                        assert!(sliding.start.can_reach(&sliding.target));
                        assert!(case.at_most.is_some());
                    }
                    Query::Solitaire(pair) => {
                        if let Some(n) = case.at_most {
                            assert!((1..=8).contains(&n));
                            let solved = solitaire::solve(
                                &pair.start,
                                &pair.end,
                                8,
                                &solver_core::Stop::never(),
                            );
                            assert!(matches!(solved, Ok(Some(_))), "{pair:?}");
                        }
                    }
                }
            }
        }
    }
}
