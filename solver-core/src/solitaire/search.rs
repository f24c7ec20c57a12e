//! Bidirectional breadth-first search over the perfect rank of all positions.
//!
//! Both frontiers grow one whole layer at a time, the smaller one first. Before a layer is
//! expanded no position has been reached from both ends, so the distance exceeds the sum `f + b`
//! of the depths reached; any meeting found while expanding the next layer therefore closes a
//! path of length `f + b + 1`, the distance. The first meeting found is a shortest path.
//!
//! Marks live in a per-thread array indexed by [`rank`], not in a hash map; only the entries a
//! query touched are cleared afterwards, so a query costs what it explores, not the 635,376
//! positions.

use std::cell::RefCell;
use std::fmt;
use std::time::Instant;

use super::moves::for_each_successor;
use super::position::{POSITIONS, Position, Square, rank, unrank};
use crate::stop::{SearchStats, Stop, Stopped};

/// One move of a piece, from a square to a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it lands on.
    pub to: Square,
}

/// An answer: the moves of a shortest way, and the work done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The moves, in order.
    pub steps: Vec<Step>,
    /// Positions expanded and layers searched.
    pub stats: SearchStats,
}

/// How a search that ran to its end came out. Proving that no way exists within the limit can
/// cost as much as finding one, so both carry the work done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A shortest way within the limit.
    Solved(Solution),
    /// No way within the limit; the work it took to know.
    Unreachable(SearchStats),
}

impl Outcome {
    /// The work done, whichever way the search came out.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        match self {
            Self::Solved(solution) => solution.stats,
            Self::Unreachable(stats) => *stats,
        }
    }

    /// The shortest way, if there is one within the limit.
    #[must_use]
    pub fn into_solution(self) -> Option<Solution> {
        match self {
            Self::Solved(solution) => Some(solution),
            Self::Unreachable(_) => None,
        }
    }
}

const UNSEEN: u8 = 0;
const FORWARD: u8 = 1;
const BACKWARD: u8 = 2;

/// Working memory of a search: per thread for [`search`], per search for [`SlicedSolitaire`].
struct Scratch {
    /// `UNSEEN`, `FORWARD` or `BACKWARD`, by rank.
    side: Vec<u8>,
    /// The rank of the position a marked position was reached from.
    parent: Vec<u32>,
    /// Ranks marked by the current query, to be cleared.
    touched: Vec<u32>,
}

impl fmt::Debug for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scratch")
            .field("touched", &self.touched.len())
            .finish_non_exhaustive()
    }
}

impl Scratch {
    fn new() -> Self {
        Self {
            side: vec![UNSEEN; POSITIONS],
            parent: vec![0; POSITIONS],
            touched: Vec::new(),
        }
    }

    fn mark(&mut self, r: u32, side: u8, parent: u32) {
        self.side[r as usize] = side;
        self.parent[r as usize] = parent;
        self.touched.push(r);
    }

    fn clear(&mut self) {
        for &r in &self.touched {
            self.side[r as usize] = UNSEEN;
        }
        self.touched.clear();
    }

    /// Positions from `r` back to the root of its side, `r` first.
    fn chain(&self, mut r: u32, root: u32) -> Vec<u64> {
        let mut out = vec![unrank(r)];
        while r != root {
            r = self.parent[r as usize];
            out.push(unrank(r));
        }
        out
    }
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

/// A shortest sequence of moves from `start` to `end` if one has at most `max_moves` moves,
/// otherwise `None`: [`search`] for callers that do not count the work of an unreachable case.
///
/// ```
/// use solver_core::Stop;
/// use solver_core::solitaire::{Position, solve};
/// let parse = |s: &str| {
///     let n: Vec<u32> = s.split_whitespace().map(|t| t.parse().unwrap()).collect();
///     let squares: Vec<_> = n.chunks(2).map(|rc| solver_core::solitaire::Square::new(rc[0], rc[1]).unwrap()).collect();
///     Position::new(&squares).unwrap()
/// };
/// let (start, end) = (parse("4 4 4 5 5 4 6 5"), parse("2 4 3 3 3 6 4 6"));
/// let answer = solve(&start, &end, 8, &Stop::never()).unwrap().unwrap();
/// assert_eq!(answer.steps.len(), 7);
/// assert!(solve(&start, &end, 6, &Stop::never()).unwrap().is_none());
/// ```
///
/// # Errors
/// [`Stopped`] when `stop` fires first.
pub fn solve(
    start: &Position,
    end: &Position,
    max_moves: u32,
    stop: &Stop,
) -> Result<Option<Solution>, Stopped> {
    search(start, end, max_moves, stop).map(Outcome::into_solution)
}

/// A shortest sequence of moves from `start` to `end` within `max_moves` moves, or the
/// knowledge that there is none, each with the work it cost.
///
/// ```
/// use solver_core::Stop;
/// use solver_core::solitaire::{Outcome, Position, Square, search};
/// let sq = |r, c| Square::new(r, c).unwrap();
/// let start = Position::new(&[sq(4, 4), sq(4, 5), sq(5, 4), sq(6, 5)]).unwrap();
/// let end = Position::new(&[sq(2, 4), sq(3, 3), sq(3, 6), sq(4, 6)]).unwrap();
/// let Outcome::Unreachable(stats) = search(&start, &end, 6, &Stop::never()).unwrap() else {
///     panic!("the sample takes 7 moves");
/// };
/// assert!(stats.nodes > 0);
/// ```
///
/// # Errors
/// [`Stopped`] when `stop` fires first.
pub fn search(
    start: &Position,
    end: &Position,
    max_moves: u32,
    stop: &Stop,
) -> Result<Outcome, Stopped> {
    SCRATCH.with(|cell| {
        let mut slot = cell.borrow_mut();
        let scratch = slot.get_or_insert_with(Scratch::new);
        let result = Layers::new(start.bits(), end.bits(), max_moves)
            .run(scratch, stop, None)
            .expect("a search without a slice end runs to the end");
        scratch.clear();
        result
    })
}

/// The state of a bidirectional search between two polls: the frontiers, which side is being
/// expanded and how far into its layer.
#[derive(Debug, Clone)]
struct Layers {
    start: u64,
    end: u64,
    max_moves: u32,
    frontiers: [Vec<u64>; 2],
    next: Vec<u64>,
    depth: u32,
    /// The side whose layer is being expanded, and the index of its next position; `None`
    /// between layers.
    layer: Option<(usize, usize)>,
    stats: SearchStats,
    next_poll: u64,
}

impl Layers {
    fn new(start: u64, end: u64, max_moves: u32) -> Self {
        Self {
            start,
            end,
            max_moves,
            frontiers: [vec![start], vec![end]],
            next: Vec::new(),
            depth: 0,
            layer: None,
            stats: SearchStats::default(),
            next_poll: 0,
        }
    }

    /// Searches on, with `scratch` holding this search's marks; `None` when `slice_end` passed
    /// at a poll (call again with the same scratch to go on).
    fn run(
        &mut self,
        scratch: &mut Scratch,
        stop: &Stop,
        slice_end: Option<Instant>,
    ) -> Option<Result<Outcome, Stopped>> {
        if self.start == self.end {
            return Some(Ok(Outcome::Solved(Solution {
                steps: Vec::new(),
                stats: self.stats,
            })));
        }
        let (start_rank, end_rank) = (rank(self.start), rank(self.end));
        if self.depth == 0 && self.layer.is_none() && self.stats.iterations == 0 {
            scratch.mark(start_rank, FORWARD, start_rank);
            scratch.mark(end_rank, BACKWARD, end_rank);
            self.next_poll = stop.next_poll(0);
        }
        while self.depth < self.max_moves {
            let (side, first) = match self.layer {
                Some(at) => at,
                None => {
                    self.stats.iterations += 1;
                    self.next.clear();
                    (
                        usize::from(self.frontiers[1].len() < self.frontiers[0].len()),
                        0,
                    )
                }
            };
            let (own, other) = if side == 0 {
                (FORWARD, BACKWARD)
            } else {
                (BACKWARD, FORWARD)
            };
            // The last layer the limit allows need not be stored: only a meeting matters there.
            let last = self.depth + 1 == self.max_moves;
            let mut meeting = None;
            for index in first..self.frontiers[side].len() {
                if self.stats.nodes >= self.next_poll {
                    self.next_poll = stop.next_poll(self.stats.nodes);
                    if let Some(reason) = stop.check(self.stats.nodes) {
                        return Some(Err(Stopped {
                            reason,
                            stats: self.stats,
                        }));
                    }
                    if slice_end.is_some_and(|end| Instant::now() >= end) {
                        self.layer = Some((side, index));
                        return None;
                    }
                }
                self.stats.nodes += 1;
                let pos = self.frontiers[side][index];
                let from = rank(pos);
                let next = &mut self.next;
                for_each_successor(pos, |child| {
                    if meeting.is_some() {
                        return;
                    }
                    let r = rank(child);
                    match scratch.side[r as usize] {
                        UNSEEN if !last => {
                            scratch.mark(r, own, from);
                            next.push(child);
                        }
                        s if s == other => meeting = Some((from, r)),
                        _ => {}
                    }
                });
                if let Some((near, far)) = meeting {
                    let (fwd, bwd) = if side == 0 { (near, far) } else { (far, near) };
                    let steps = path(scratch, fwd, bwd, start_rank, end_rank);
                    return Some(Ok(Outcome::Solved(Solution {
                        steps,
                        stats: self.stats,
                    })));
                }
            }
            self.layer = None;
            if self.next.is_empty() {
                // This side's component is exhausted without meeting the other: unreachable.
                break;
            }
            std::mem::swap(&mut self.frontiers[side], &mut self.next);
            self.depth += 1;
        }
        Some(Ok(Outcome::Unreachable(self.stats)))
    }
}

/// A Solitaire search that runs in time slices, for callers that share threads between many
/// searches: each [`run`](Self::run) goes on where the last stopped. It owns its marks (a few MB
/// at most, only the pages it touches), so a caller should bound how many it keeps suspended;
/// [`search`] is cheaper for searches that finish at once.
#[derive(Debug)]
pub struct SlicedSolitaire {
    layers: Layers,
    scratch: Scratch,
}

impl SlicedSolitaire {
    /// A search for a shortest way from `start` to `end` of at most `max_moves` moves (nothing
    /// runs yet).
    #[must_use]
    pub fn new(start: &Position, end: &Position, max_moves: u32) -> Self {
        Self {
            layers: Layers::new(start.bits(), end.bits(), max_moves),
            scratch: Scratch::new(),
        }
    }

    /// Searches until the answer is known (`Some(Ok)`, as [`search`]'s), `stop` fires
    /// (`Some(Err)`), or the first poll after `slice_end` (`None`: call again to go on).
    ///
    /// # Errors
    /// [`Stopped`] when `stop` fires first.
    pub fn run(&mut self, stop: &Stop, slice_end: Instant) -> Option<Result<Outcome, Stopped>> {
        self.layers.run(&mut self.scratch, stop, Some(slice_end))
    }
}

/// The moves of the path start → … → `fwd` → `bwd` → … → end.
fn path(scratch: &Scratch, fwd: u32, bwd: u32, start: u32, end: u32) -> Vec<Step> {
    let mut positions = scratch.chain(fwd, start);
    positions.reverse();
    positions.extend(scratch.chain(bwd, end));
    positions
        .windows(2)
        .map(|pair| {
            let (before, after) = (pair[0], pair[1]);
            Step {
                from: Square::from_index((before & !after).trailing_zeros()),
                to: Square::from_index((after & !before).trailing_zeros()),
            }
        })
        .collect()
}

/// Applies `steps` to `start`, checking that each is a legal move; the position reached.
///
/// ```
/// use solver_core::solitaire::{Position, Square, Step, replay};
/// let sq = |r, c| Square::new(r, c).unwrap();
/// let start = Position::new(&[sq(1, 1), sq(1, 2), sq(8, 8), sq(8, 7)]).unwrap();
/// let jump = Step { from: sq(1, 1), to: sq(1, 3) };
/// let end = replay(&start, &[jump]).unwrap();
/// assert_eq!(end, Position::new(&[sq(1, 3), sq(1, 2), sq(8, 8), sq(8, 7)]).unwrap());
/// assert!(replay(&start, &[Step { from: sq(1, 1), to: sq(1, 2) }]).is_err());
/// ```
///
/// # Errors
/// [`IllegalStep`] naming the first move that is not a legal step or jump.
pub fn replay(start: &Position, steps: &[Step]) -> Result<Position, IllegalStep> {
    let mut bits = start.bits();
    for (index, step) in steps.iter().enumerate() {
        let target = (bits & !(1u64 << step.from.index())) | (1u64 << step.to.index());
        let mut legal = false;
        for_each_successor(bits, |child| legal |= child == target && target != bits);
        if !legal {
            return Err(IllegalStep { index, step: *step });
        }
        bits = target;
    }
    Ok(Position::from_bits(bits))
}

/// A move that is neither a step to an empty neighbour nor a jump over one adjacent piece.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {} from ({}) to ({}) is not a legal step or jump", index + 1, step.from, step.to)]
pub struct IllegalStep {
    /// Zero-based index of the move.
    pub index: usize,
    /// The move.
    pub step: Step,
}
