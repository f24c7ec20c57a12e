//! Answers with a proven bound where optimal is out of reach: weighted A* on boards of any shape.
//!
//! Weighted A* expands nodes in order of `g + w·h` and re-opens a node reached again by a shorter
//! path. With an admissible `h` (Manhattan distance plus linear conflicts, or a set of pattern
//! databases with [`solve_with_databases`]: much closer answers for the same weight) the answer's length
//! `L` is then at most `w` times the optimum (Pohl 1970: until the target is expanded, some node of an optimal path waits in
//! the open list with its optimal `g`, and its key is at most `w` times the optimum). So the
//! optimum is at least `⌈L / w⌉`, and at least `h(start)`; and every path between two boards has
//! the same parity of length (each move moves the blank one step), so the bound is raised to
//! `L`'s parity. The answer carries that proven lower bound, so `L / bound` is a proven ratio.
//!
//! The first attempt goes on after its first answer, anytime (Hansen & Zhou 2007): boards that
//! cannot lead to a shorter answer are dropped, a shorter answer replaces the first, and an open
//! list that empties proves the answer optimal. The proof by the weight stays that of the first
//! answer. On Korf & Felner's 50 24-puzzles at ratio 1.5 with their databases this took the mean
//! length from 1.157 to 1.099 times the optimum, each still under a second.
//!
//! Each attempt is kept within a node limit; when `w` cannot finish within it the search tries
//! twice and four times the weight (at most 8), and then builds a solution the way people do
//! ([the constructive method](super::constructive)), so every board up to 8×8 gets an answer
//! fast. The lower bound is proven either way, so the reported ratio always holds.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::board::Move;
use super::constructive;
use super::distance::Distance;
use super::grid::Grid;
use super::grid_board::GridBoard;
use super::grid_pdb::{Evaluator, GridDatabases};
use crate::stop::{SearchStats, Stop, Stopped};

/// The most boards one weighted attempt keeps before it gives up for a larger weight.
const NODE_LIMIT: usize = 150_000;
/// The same on boards of more than 25 cells: far from the target no weight finishes there, so
/// the attempts stay short (under 20 ms each) and the constructive method answers within 100
/// ms; near the target, where an answer is short, they still finish.
const LARGE_NODE_LIMIT: usize = 10_000;
/// The same with pattern databases: a stronger `h` keeps the open list focused, so a larger
/// limit still answers within a second on 5×5 and spares most boards the doubled weight.
const DATABASE_NODE_LIMIT: usize = 600_000;
/// The largest weight tried before the constructive method.
const MAX_WEIGHT: f64 = 8.0;

/// A solution with what was proven about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Bounded {
    /// The moves, which replay from the start to the target.
    pub moves: Vec<Move>,
    /// A proven lower bound on the optimal length (≤ `moves.len()`).
    pub lower_bound: u32,
    /// How it was found.
    pub method: Method,
    /// Work done, over every attempt.
    pub stats: SearchStats,
}

impl Bounded {
    /// The proven ratio of the answer's length to the optimum (1 when it is proven optimal).
    #[must_use]
    pub fn ratio(&self) -> f64 {
        if self.lower_bound == 0 {
            1.0
        } else {
            self.moves.len() as f64 / f64::from(self.lower_bound)
        }
    }
}

/// How a bounded answer was found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    /// Weighted A* with this weight: the length is at most `weight ×` the optimum.
    Weighted(f64),
    /// Row by row, then column by column (no promise beyond the proven lower bound).
    Constructive,
}

/// A weight as the fraction `num / den` (tenths of a unit are enough).
fn fraction(weight: f64) -> (u64, u64) {
    let num = (weight * 10.0).round().max(10.0) as u64;
    (num, 10)
}

/// Solves `start` → `target` with a length proven within `max_ratio` of the optimum when one
/// weighted attempt of that weight fits the node limit; otherwise with doubled weights (the
/// proven ratio is then larger, and reported). `max_ratio` below 1 counts as 1.
///
/// # Errors
/// [`Stopped`] when `stop` fires first.
///
/// # Panics
/// When `target` cannot be reached from `start`: check [`GridBoard::can_reach`] first.
pub fn solve(
    start: &GridBoard,
    target: &GridBoard,
    max_ratio: f64,
    stop: &Stop,
) -> Result<Bounded, Stopped> {
    let distance = Distance::new(start.grid(), target.cells());
    let limit = if start.grid().cells() > 25 {
        LARGE_NODE_LIMIT
    } else {
        NODE_LIMIT
    };
    solve_by(start, target, max_ratio, stop, limit, &|cells| {
        distance.value(cells)
    })
}

/// [`solve`] guided by the pattern databases `dbs` (the larger of their sum and its reflection)
/// instead of Manhattan distance and linear conflicts.
///
/// # Errors
/// [`Stopped`] when `stop` fires first.
///
/// # Panics
/// When `target` cannot be reached from `start`, or `dbs` does not
/// [`fit`](GridDatabases::fits) `target`.
pub fn solve_with_databases(
    start: &GridBoard,
    target: &GridBoard,
    max_ratio: f64,
    dbs: &GridDatabases,
    stop: &Stop,
) -> Result<Bounded, Stopped> {
    let evaluator = Evaluator::new(dbs, target).expect("the databases fit the target");
    solve_by(
        start,
        target,
        max_ratio,
        stop,
        DATABASE_NODE_LIMIT,
        &|cells| evaluator.value(dbs, cells),
    )
}

fn solve_by(
    start: &GridBoard,
    target: &GridBoard,
    max_ratio: f64,
    stop: &Stop,
    limit: usize,
    h: &dyn Fn(&[u8]) -> u32,
) -> Result<Bounded, Stopped> {
    assert!(start.can_reach(target), "the target is reachable");
    let h0 = h(start.cells());
    let mut stats = SearchStats::default();
    let first = max_ratio.clamp(1.0, MAX_WEIGHT);
    let weights = [first, first * 2.0, first * 4.0];
    for (i, weight) in weights
        .into_iter()
        .filter(|&w| w == first || w <= MAX_WEIGHT)
        .enumerate()
    {
        stats.iterations += 1;
        // Only the first attempt goes on after its first answer: a later one comes after a
        // whole limit spent, and answers at once.
        let anytime = i == 0;
        if let Some(found) = attempt(h, limit, anytime, start, weight, stop, &mut stats)? {
            let (num, den) = fraction(weight);
            // The first answer's length bounds the optimum by the weight; a shorter one found
            // after it does not change that proof.
            let by_weight = (found.first_len as u64 * den).div_ceil(num);
            let by_weight = u32::try_from(by_weight).unwrap_or(u32::MAX);
            let bound = if found.optimal {
                u32::try_from(found.moves.len()).unwrap_or(u32::MAX)
            } else {
                by_weight.max(h0)
            };
            return Ok(Bounded {
                lower_bound: proven(bound, found.moves.len()),
                moves: found.moves,
                method: Method::Weighted(num as f64 / den as f64),
                stats,
            });
        }
    }
    let moves = constructive::solve(start, target);
    Ok(Bounded {
        lower_bound: proven(h0, moves.len()),
        moves,
        method: Method::Constructive,
        stats,
    })
}

/// A lower bound raised to the parity every path between the two boards shares (that of the
/// `len` found), and never above `len`.
fn proven(bound: u32, len: usize) -> u32 {
    let len = u32::try_from(len).unwrap_or(u32::MAX);
    let bound = if bound % 2 == len % 2 {
        bound
    } else {
        bound + 1
    };
    bound.min(len)
}

/// A board reached: its cells, best `g`, parent and the move from the parent.
struct Reached {
    cells: Box<[u8]>,
    g: u32,
    parent: u32,
    mv: Option<Move>,
}

/// What a weighted A* run found.
struct Found {
    /// The shortest answer found.
    moves: Vec<Move>,
    /// The length of the first answer, which the weight bounds.
    first_len: usize,
    /// Whether every board that might lead to a shorter answer was searched: the answer is
    /// then optimal.
    optimal: bool,
}

/// One weighted A* run; `None` when it kept more than `limit` boards before an answer. After
/// the first answer, when `anytime`, it goes on within three quarters of the limit: boards whose `g + h` (`h`
/// admissible) reaches the best length so far are dropped, any shorter answer replaces the best,
/// and an open list that empties proves the best optimal (Hansen & Zhou, "Anytime heuristic
/// search", 2007).
fn attempt(
    estimate: &dyn Fn(&[u8]) -> u32,
    limit: usize,
    anytime: bool,
    start: &GridBoard,
    weight: f64,
    stop: &Stop,
    stats: &mut SearchStats,
) -> Result<Option<Found>, Stopped> {
    let (num, den) = fraction(weight);
    let grid: Grid = start.grid();
    let mut boards: Vec<Reached> = Vec::new();
    let mut index: HashMap<Box<[u8]>, u32> = HashMap::new();
    let mut open = BinaryHeap::new();
    let root: Box<[u8]> = start.cells().into();
    index.insert(root.clone(), 0);
    boards.push(Reached {
        cells: root,
        g: 0,
        parent: 0,
        mv: None,
    });
    let h0 = u64::from(estimate(start.cells()));
    open.push(Reverse((num * h0, h0, 0u32, 0u32)));
    let mut poll = stop.next_poll(stats.nodes);
    let mut best: Option<Found> = None;
    // Boards of `g + h` at least this cannot lead to a shorter answer.
    let mut cutoff = u64::MAX;
    while let Some(Reverse((_, h, g, id))) = open.pop() {
        if g != boards[id as usize].g || u64::from(g) + h >= cutoff {
            continue; // stale (reached again by a shorter path since), or no better
        }
        if h == 0 {
            let moves = path(&boards, id);
            cutoff = moves.len() as u64;
            let first_len = best.as_ref().map_or(moves.len(), |b| b.first_len);
            let found = Found {
                moves,
                first_len,
                optimal: false,
            };
            if !anytime {
                return Ok(Some(found));
            }
            best = Some(found);
            continue;
        }
        // Going on after an answer stops a quarter short of the limit, which keeps every 5×5
        // answer with the databases under a second.
        if boards.len() > limit || (best.is_some() && boards.len() > limit / 4 * 3) {
            return Ok(best);
        }
        let cells = boards[id as usize].cells.clone();
        let blank = cells.iter().position(|&t| t == 0).expect("a blank");
        let came = boards[id as usize].mv;
        for mv in Move::ALL {
            if came.is_some_and(|c| c == mv.reverse()) {
                continue;
            }
            let Some(to) = grid.neighbour(blank, mv) else {
                continue;
            };
            let mut next = cells.clone();
            next.swap(blank, to);
            stats.nodes += 1;
            let g = g + 1;
            let h = u64::from(estimate(&next));
            if u64::from(g) + h >= cutoff {
                continue;
            }
            let child = match index.get(&next) {
                Some(&known) if boards[known as usize].g <= g => continue,
                Some(&known) => {
                    let entry = &mut boards[known as usize];
                    (entry.g, entry.parent, entry.mv) = (g, id, Some(mv));
                    known
                }
                None => {
                    let known = boards.len() as u32;
                    index.insert(next.clone(), known);
                    boards.push(Reached {
                        cells: next.clone(),
                        g,
                        parent: id,
                        mv: Some(mv),
                    });
                    known
                }
            };
            open.push(Reverse((den * u64::from(g) + num * h, h, g, child)));
        }
        if stats.nodes >= poll {
            if let Some(reason) = stop.check(stats.nodes) {
                return Err(Stopped {
                    reason,
                    stats: *stats,
                });
            }
            poll = stop.next_poll(stats.nodes);
        }
    }
    // Every board that might have led to a shorter answer was searched.
    let mut found = best.expect("the open list of a connected space empties only after the target");
    found.optimal = true;
    Ok(Some(found))
}

fn path(boards: &[Reached], mut id: u32) -> Vec<Move> {
    let mut moves = Vec::new();
    while let Some(mv) = boards[id as usize].mv {
        moves.push(mv);
        id = boards[id as usize].parent;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::grid::Grid;
    use crate::tiles::grid_ida;

    fn scrambled(grid: Grid, steps: usize, seed: u64) -> GridBoard {
        let mut board = GridBoard::goal(grid);
        let mut state = seed | 1;
        for _ in 0..steps {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            board = board
                .apply(Move::ALL[(state % 4) as usize])
                .unwrap_or(board);
        }
        board
    }

    #[test]
    fn the_proven_bound_holds_against_the_optimum() {
        let grid = Grid::new(3, 4).unwrap();
        let goal = GridBoard::goal(grid);
        for seed in 1..12 {
            let start = scrambled(grid, 200, seed);
            let optimal = grid_ida::solve(&start, &goal, &Stop::never())
                .unwrap()
                .len() as u32;
            for ratio in [1.0, 1.5, 3.0] {
                let answer = solve(&start, &goal, ratio, &Stop::never()).unwrap();
                assert_eq!(start.replay(&answer.moves).unwrap(), goal);
                assert!(
                    answer.lower_bound <= optimal,
                    "bound {} > optimum {optimal}",
                    answer.lower_bound
                );
                assert!(
                    answer.ratio() >= answer.moves.len() as f64 / f64::from(optimal.max(1)) - 1e-9
                );
                if let Method::Weighted(weight) = answer.method {
                    assert!(answer.moves.len() as f64 <= weight * f64::from(optimal) + 1e-9);
                }
                if ratio == 1.0 {
                    assert_eq!(answer.method, Method::Weighted(1.0));
                    assert_eq!(answer.moves.len() as u32, optimal);
                }
            }
        }
    }

    /// Going on after the first answer only ever shortens it; an answer it proves optimal is;
    /// and the first answer's length stays within the weight of the optimum.
    #[test]
    fn anytime_search_never_lengthens_and_proves_only_the_optimum() {
        let grid = Grid::new(3, 4).unwrap();
        let goal = GridBoard::goal(grid);
        let distance = Distance::new(grid, goal.cells());
        let md = |cells: &[u8]| distance.value(cells);
        let mut proved = 0;
        for seed in 1..16 {
            let start = scrambled(grid, 200, seed);
            let optimal = grid_ida::solve(&start, &goal, &Stop::never())
                .unwrap()
                .len();
            for weight in [1.5, 3.0] {
                let mut stats = SearchStats::default();
                let once = attempt(
                    &md,
                    NODE_LIMIT,
                    false,
                    &start,
                    weight,
                    &Stop::never(),
                    &mut stats,
                )
                .unwrap()
                .unwrap();
                let anytime = attempt(
                    &md,
                    NODE_LIMIT,
                    true,
                    &start,
                    weight,
                    &Stop::never(),
                    &mut stats,
                )
                .unwrap()
                .unwrap();
                assert_eq!(start.replay(&anytime.moves).unwrap(), goal);
                assert!(anytime.moves.len() <= once.moves.len());
                assert!(anytime.moves.len() >= optimal);
                assert_eq!(anytime.first_len, once.moves.len());
                assert!(once.moves.len() as f64 <= weight * optimal as f64 + 1e-9);
                if anytime.optimal {
                    assert_eq!(anytime.moves.len(), optimal, "seed {seed}, weight {weight}");
                    proved += 1;
                }
            }
        }
        assert!(proved > 0, "some searches run out of boards to try");
    }

    #[test]
    fn an_eight_by_eight_board_gets_an_answer() {
        let grid = Grid::new(8, 8).unwrap();
        let goal = GridBoard::goal(grid);
        let start = scrambled(grid, 3_000, 7);
        let answer = solve(&start, &goal, 2.0, &Stop::never()).unwrap();
        assert_eq!(start.replay(&answer.moves).unwrap(), goal);
        assert!(answer.lower_bound as usize <= answer.moves.len());
    }
}
