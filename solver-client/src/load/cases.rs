//! The cases a load run sends, per class, and the cheap checks of their replies.
//!
//! Every case carries what is needed to judge its reply without solving it again: sliding-tile
//! moves are replayed and must reach the target (and be exactly as long as the known optimum for
//! the hard boards, no longer than the scrambling walk for the easy ones); a Solitaire end made
//! by a walk of at most 8 moves must be found reachable, and its steps must replay to the end.

use std::collections::HashSet;

use anyhow::{Context as _, bail};
use solver_core::solitaire::{self, DEFAULT_MAX_MOVES, Position, PositionError, Square, Step};
use solver_core::{Board, Board3, Board4, Move, ReplayError, parse_moves};
use solver_proto::v2 as pb;
use solver_proto::v2::{solution, solve_request, solve_response};

use super::class::Class;

/// Korf's 100 instances, with their optimal lengths (`id length cells...` per line).
const KORF100: &str = include_str!("../../../solver-core/tests/data/korf100.txt");

/// The 80-move board (one of the two hardest 15-puzzle positions), solved to the standard goal.
const EIGHTY: [u8; 16] = [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1];

/// The Korf instances `korf` stands for: the harder half, from about 0.05 s to 0.8 s of one core
/// each with the 6-6-3 databases (0.3 M to 5.7 M nodes).
const KORF_SUBSET: [usize; 12] = [3, 10, 15, 22, 33, 54, 59, 60, 63, 66, 82, 88];

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

/// A hard 15-puzzle board with its known optimal length.
#[derive(Debug, Clone)]
pub(crate) struct Hard {
    /// `80` or `korfN`.
    pub(crate) name: String,
    board: Board4,
    length: usize,
}

/// The hard boards named by `--hard`: a comma-separated list of `80`, `korf` (a built-in subset
/// of Korf's 100) and `korfN` (instance N, 1 to 100).
pub(crate) fn hard_boards(spec: &str) -> anyhow::Result<Vec<Hard>> {
    let korf = |id: usize| -> anyhow::Result<Hard> {
        let line = KORF100
            .lines()
            .filter(|l| !l.starts_with('#'))
            .find(|l| l.split_whitespace().next() == Some(id.to_string().as_str()))
            .with_context(|| format!("Korf's instances are numbered 1 to 100, not {id}"))?;
        let numbers: Vec<usize> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .with_context(|| format!("korf100.txt: bad line {line:?}"))?;
        let board =
            Board4::from_cells(&numbers[2..].iter().map(|&n| n as u64).collect::<Vec<u64>>())
                .map_err(|e| anyhow::anyhow!("korf100.txt, instance {id}: {e}"))?;
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
                _ => bail!(
                    "--hard: {other:?} is not a board: use 80, korf (a subset of Korf's 100) or \
                     korfN (instance N)"
                ),
            },
        }
    }
    if boards.is_empty() {
        bail!("--hard names no board");
    }
    let mut seen = HashSet::new();
    boards.retain(|b| seen.insert(b.name.clone()));
    Ok(boards)
}

/// One case as sent, with what its reply is checked against.
#[derive(Debug, Clone)]
pub(crate) enum Query {
    /// A 3×3 start and target of the same parity.
    Eight { start: Board3, target: Board3 },
    /// A 4×4 start and target; the optimal length is `exact` when known, at most `at_most`.
    Fifteen {
        start: Board4,
        /// `None`: the standard goal (sent as an empty target).
        target: Option<Board4>,
        exact: Option<usize>,
        at_most: usize,
    },
    /// A Solitaire pair; `within`: the end was made by a walk of that many moves, so it must be
    /// reachable in at most that many.
    Solitaire {
        start: Position,
        end: Position,
        within: Option<u32>,
    },
}

/// Makes the cases of one stream.
#[derive(Debug)]
pub(crate) struct Generator {
    class: Class,
    rng: Rng,
    hard: std::sync::Arc<[Hard]>,
    next_hard: usize,
}

impl Generator {
    /// The cases of stream `stream` of `class`; hard streams start at different boards.
    pub(crate) fn new(
        class: Class,
        seed: u64,
        stream: usize,
        hard: std::sync::Arc<[Hard]>,
    ) -> Self {
        let next_hard = stream % hard.len().max(1);
        Self {
            class,
            rng: Rng::new(seed),
            hard,
            next_hard,
        }
    }

    pub(crate) fn next(&mut self) -> Query {
        match self.class {
            Class::Eight => {
                let target = random_board::<3>(&mut self.rng);
                let mut start = random_board::<3>(&mut self.rng);
                if !start.can_reach(&target) {
                    start = swap_two_tiles(&start);
                }
                Query::Eight { start, target }
            }
            Class::FifteenEasy => {
                let steps =
                    EASY_WALK.start() + self.rng.below(EASY_WALK.end() - EASY_WALK.start() + 1);
                Query::Fifteen {
                    start: walk(&Board4::goal(), steps, &mut self.rng),
                    target: None,
                    exact: None,
                    at_most: steps,
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
                Query::Fifteen {
                    start: rename(&hard.board),
                    target: Some(rename(&Board4::goal())),
                    exact: Some(hard.length),
                    at_most: hard.length,
                }
            }
            Class::Solitaire => {
                let start = random_position(&mut self.rng);
                // Half the ends are a short walk away (reachable: the answer is checked), half
                // random (mostly unreachable: the search explores everything within 8 moves).
                if self.rng.below(2) == 0 {
                    let moves = 1 + self.rng.below(DEFAULT_MAX_MOVES as usize);
                    let end = solitaire_walk(start, moves, &mut self.rng);
                    Query::Solitaire {
                        start,
                        end,
                        within: Some(moves as u32),
                    }
                } else {
                    Query::Solitaire {
                        start,
                        end: random_position(&mut self.rng),
                        within: None,
                    }
                }
            }
        }
    }
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

/// The `solver.v2` request for case `id`.
pub(crate) fn request(id: u64, query: &Query) -> pb::SolveRequest {
    let cells = |cells: &[u8]| cells.iter().map(|&t| u32::from(t)).collect();
    let sliding = |side, start, target| {
        solve_request::Puzzle::Sliding(pb::SlidingPuzzle {
            rows: side,
            cols: side,
            start,
            target,
        })
    };
    let puzzle = match query {
        Query::Eight { start, target } => sliding(3, cells(start.cells()), cells(target.cells())),
        Query::Fifteen { start, target, .. } => sliding(
            4,
            cells(start.cells()),
            target.map_or_else(Vec::new, |t| cells(t.cells())),
        ),
        Query::Solitaire { start, end, .. } => {
            let squares = |p: &Position| {
                p.squares()
                    .iter()
                    .map(|s| pb::Square {
                        row: s.row(),
                        col: s.col(),
                    })
                    .collect()
            };
            solve_request::Puzzle::Solitaire(pb::SolitairePuzzle {
                start: squares(start),
                end: squares(end),
                max_moves: DEFAULT_MAX_MOVES,
            })
        }
    };
    pb::SolveRequest {
        id: id.to_string(),
        puzzle: Some(puzzle),
        ..pb::SolveRequest::default()
    }
}

/// What a reply says about its case.
#[derive(Debug)]
pub(crate) enum Verdict {
    /// A correct answer (`cached`: from the server's cache).
    Answered { cached: bool },
    /// An in-band `CaseError`, with its gRPC code.
    Error { code: i32 },
    /// An answer that fails the checks.
    Wrong(String),
}

/// The case id a response answers (`None`: not one this client sends).
pub(crate) fn id(response: &pb::SolveResponse) -> Option<u64> {
    response.id.parse().ok()
}

/// Judges `response` against its case.
pub(crate) fn verdict(response: pb::SolveResponse, query: &Query) -> Verdict {
    use solve_response::Outcome;
    let cached = response.cached;
    match response.outcome {
        Some(Outcome::Error(status)) => Verdict::Error { code: status.code },
        Some(Outcome::Solution(pb::Solution {
            kind: Some(solution::Kind::Sliding(solution)),
        })) => sliding(&solution.moves, query, cached),
        Some(Outcome::Solution(pb::Solution {
            kind: Some(solution::Kind::Solitaire(solution)),
        })) => solitaire(&solution.moves, query, cached),
        Some(Outcome::Unsolvable(_)) => {
            Verdict::Wrong("\"unsolvable\" for a solvable board".to_owned())
        }
        Some(Outcome::Unreachable(_)) => match query {
            Query::Solitaire {
                start,
                end,
                within: Some(n),
            } => Verdict::Wrong(format!(
                "\"unreachable\" for {start} -> {end}, which a walk of {n} moves reaches"
            )),
            Query::Solitaire { within: None, .. } => Verdict::Answered { cached },
            _ => Verdict::Wrong("\"unreachable\" for a sliding-tile case".to_owned()),
        },
        Some(Outcome::Solution(pb::Solution { kind: None })) | None => {
            Verdict::Wrong("a reply without an outcome".to_owned())
        }
    }
}

/// A sliding solution, replayed and measured.
fn sliding(moves: &str, query: &Query, cached: bool) -> Verdict {
    let parsed = match parse_moves(moves) {
        Ok(parsed) => parsed,
        Err(e) => return Verdict::Wrong(format!("bad move string {moves:?}: {e}")),
    };
    let checked = match query {
        Query::Eight { start, target } => {
            check_walk(start, target, &parsed, None, 31).map_err(|e| (e, start.to_string()))
        }
        Query::Fifteen {
            start,
            target,
            exact,
            at_most,
        } => check_walk(
            start,
            &target.unwrap_or_else(Board4::goal),
            &parsed,
            *exact,
            *at_most,
        )
        .map_err(|e| (e, start.to_string())),
        Query::Solitaire { .. } => {
            return Verdict::Wrong("a sliding-tile reply to a Solitaire case".to_owned());
        }
    };
    match checked {
        Ok(()) => Verdict::Answered { cached },
        Err((why, start)) => Verdict::Wrong(format!(
            "moves {moves:?} from {}: {why}",
            start.replace('\n', " / ")
        )),
    }
}

/// A Solitaire solution, replayed: it must reach the end within the limit.
fn solitaire(moves: &[pb::SolitaireMove], query: &Query, cached: bool) -> Verdict {
    let Query::Solitaire { start, end, within } = query else {
        return Verdict::Wrong("a Solitaire reply to a sliding-tile case".to_owned());
    };
    let steps: Result<Vec<Step>, BadStep> = moves
        .iter()
        .map(|m| {
            let square = |s: Option<&pb::Square>| {
                let s = s.ok_or(BadStep::MissingSquare)?;
                Ok::<_, BadStep>(Square::new(s.row, s.col)?)
            };
            Ok(Step {
                from: square(m.origin.as_ref())?,
                to: square(m.destination.as_ref())?,
            })
        })
        .collect();
    let steps = match steps {
        Ok(steps) => steps,
        Err(e) => return Verdict::Wrong(format!("bad Solitaire move: {e}")),
    };
    let limit = within.unwrap_or(DEFAULT_MAX_MOVES);
    match solitaire::replay(start, &steps) {
        Ok(reached) if reached != *end => {
            Verdict::Wrong(format!("the moves end at {reached}, not at {end}"))
        }
        Ok(_) if steps.len() > limit as usize => Verdict::Wrong(format!(
            "{} moves, but it can be done in {limit}",
            steps.len()
        )),
        Ok(_) => Verdict::Answered { cached },
        Err(e) => Verdict::Wrong(format!("illegal Solitaire moves: {e}")),
    }
}

/// Why sliding moves are not a right answer.
#[derive(Debug, thiserror::Error)]
enum WalkError {
    #[error("they do not reach the target")]
    Misses,
    #[error("illegal: {0}")]
    Illegal(#[source] ReplayError),
    #[error("{len} moves, the optimum is {optimum}")]
    NotOptimal { len: usize, optimum: usize },
    #[error("{len} moves, but it can be done in {at_most}")]
    TooLong { len: usize, at_most: usize },
}

fn check_walk<const W: usize>(
    start: &Board<W>,
    target: &Board<W>,
    moves: &[Move],
    exact: Option<usize>,
    at_most: usize,
) -> Result<(), WalkError> {
    match start.replay(moves) {
        Ok(end) if end == *target => {}
        Ok(_) => return Err(WalkError::Misses),
        Err(e) => return Err(WalkError::Illegal(e)),
    }
    let len = moves.len();
    match exact {
        Some(optimum) if len != optimum => Err(WalkError::NotOptimal { len, optimum }),
        _ if len > at_most => Err(WalkError::TooLong { len, at_most }),
        _ => Ok(()),
    }
}

/// Why a Solitaire move of a reply is not one.
#[derive(Debug, thiserror::Error)]
enum BadStep {
    #[error("a move without a square")]
    MissingSquare,
    #[error(transparent)]
    Square(#[from] PositionError),
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

    #[test]
    fn generated_cases_are_well_formed() {
        let hard: std::sync::Arc<[Hard]> = hard_boards("korf").unwrap().into();
        for class in Class::ALL {
            let mut generator = Generator::new(class, 7, 0, hard.clone());
            for _ in 0..200 {
                match generator.next() {
                    Query::Eight { start, target } => assert!(start.can_reach(&target)),
                    Query::Fifteen { start, target, .. } => {
                        assert!(start.can_reach(&target.unwrap_or_else(Board4::goal)));
                    }
                    Query::Solitaire { start, end, within } => {
                        if let Some(n) = within {
                            assert!((1..=8).contains(&n));
                            let solved =
                                solitaire::solve(&start, &end, 8, &solver_core::Stop::never());
                            assert!(matches!(solved, Ok(Some(_))), "{start} -> {end}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn replies_are_judged() {
        let query = Query::Fifteen {
            start: Board4::goal().apply(Move::Up).unwrap(),
            target: None,
            exact: None,
            at_most: 1,
        };
        let reply = |moves: &str| pb::SolveResponse {
            id: "0".to_owned(),
            outcome: Some(solve_response::Outcome::Solution(pb::Solution {
                kind: Some(solution::Kind::Sliding(pb::SlidingSolution {
                    moves: moves.to_owned(),
                    length: moves.len() as u32,
                    lower_bound: moves.len() as u32,
                })),
            })),
            ..pb::SolveResponse::default()
        };
        assert_eq!(id(&reply("d")), Some(0));
        assert!(matches!(
            verdict(reply("d"), &query),
            Verdict::Answered { cached: false }
        ));
        assert!(matches!(verdict(reply("u"), &query), Verdict::Wrong(_)));
        assert!(matches!(verdict(reply("dud"), &query), Verdict::Wrong(_)));
    }
}
