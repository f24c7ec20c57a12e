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

use super::moves::for_each_successor;
use super::position::{POSITIONS, Position, Square, rank, unrank};
use crate::stop::{POLL_INTERVAL, SearchStats, Stop, Stopped};

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

const UNSEEN: u8 = 0;
const FORWARD: u8 = 1;
const BACKWARD: u8 = 2;

/// Per-thread working memory, reused across queries.
struct Scratch {
    /// `UNSEEN`, `FORWARD` or `BACKWARD`, by rank.
    side: Vec<u8>,
    /// The rank of the position a marked position was reached from.
    parent: Vec<u32>,
    /// Ranks marked by the current query, to be cleared.
    touched: Vec<u32>,
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
/// otherwise `None`.
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
    SCRATCH.with(|cell| {
        let mut slot = cell.borrow_mut();
        let scratch = slot.get_or_insert_with(Scratch::new);
        let result = search(scratch, start.bits(), end.bits(), max_moves, stop);
        scratch.clear();
        result
    })
}

fn search(
    scratch: &mut Scratch,
    start: u64,
    end: u64,
    max_moves: u32,
    stop: &Stop,
) -> Result<Option<Solution>, Stopped> {
    let mut stats = SearchStats::default();
    if start == end {
        return Ok(Some(Solution {
            steps: Vec::new(),
            stats,
        }));
    }
    let (start_rank, end_rank) = (rank(start), rank(end));
    scratch.mark(start_rank, FORWARD, start_rank);
    scratch.mark(end_rank, BACKWARD, end_rank);
    let mut frontiers = [vec![start], vec![end]];
    let mut depth = 0;
    let mut next = Vec::new();
    while depth < max_moves {
        let side = usize::from(frontiers[1].len() < frontiers[0].len());
        let (own, other) = if side == 0 {
            (FORWARD, BACKWARD)
        } else {
            (BACKWARD, FORWARD)
        };
        // The last layer the limit allows need not be stored: only a meeting matters there.
        let last = depth + 1 == max_moves;
        stats.iterations += 1;
        next.clear();
        let mut meeting = None;
        for &pos in &frontiers[side] {
            stats.nodes += 1;
            if stats.nodes.is_multiple_of(POLL_INTERVAL)
                && let Some(reason) = stop.check(stats.nodes)
            {
                return Err(Stopped { reason, stats });
            }
            let from = rank(pos);
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
                return Ok(Some(Solution { steps, stats }));
            }
        }
        if next.is_empty() {
            // This side's component is exhausted without meeting the other: unreachable.
            break;
        }
        std::mem::swap(&mut frontiers[side], &mut next);
        depth += 1;
    }
    Ok(None)
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
