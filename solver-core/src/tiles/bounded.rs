//! Answers with a proven bound where optimal is out of reach: weighted A* on boards of any shape.
//!
//! Weighted A* expands boards in order of `g + w·h` (ties to the last reached) and re-opens a board
//! reached again by a shorter path. With an admissible `h` (Manhattan distance plus linear
//! conflicts, or a set of pattern databases with [`solve_with_databases`]: much closer answers
//! for the same work) the first answer's length `L` is at most `w` times the optimum (Pohl 1970:
//! until an optimal answer is found, some board of an optimal path waits in the open list with
//! its optimal `g`, and its key is at most `w` times the optimum).
//!
//! The search goes on after its first answer, anytime (Hansen & Zhou 2007): boards whose
//! `g + h` reaches the best length so far are dropped, a shorter answer replaces the best, and an
//! open list that empties proves the best optimal. Its lower bound on the optimum is the largest
//! of `h(start)`, `⌈L / w⌉` for the first answer, and the least `g + h` left in the open list
//! (the board of an optimal path waiting there has at most the optimum); every path between two
//! boards has the same parity of length (each move moves the blank one step), so the bound is
//! raised to the answer's parity. The answer carries that proven lower bound, so
//! `length / bound` is a proven ratio.
//!
//! The first weight is a tenth below the ratio asked for, at most 1.4 and at least 1: its
//! answers are closer (a larger weight answers sooner, but worse), and it still proves the
//! ratio. The search is kept within a budget of boards generated; when no answer comes within
//! it, the same search goes on with twice the weight, then four times (its boards are kept and
//! its open list reordered: the boards the smaller weight found near the start make the answer
//! much shorter than a fresh search with the larger weight would), and then a solution is built
//! the way people do ([the constructive method](super::constructive)), so every board up to 8×8
//! gets an answer fast. The lower bound is proven either way, so the reported ratio always
//! holds.
//!
//! Korf & Felner's 50 24-puzzles at ratio 1.5, with their 6-6-6-6 databases (zero-aware in
//! part): 1.049 times the optimum on average, the proven ratio 1.229 on average and at most
//! 1.33 (nine answered at the doubled weight), each within a second (the slowest 0.73 s on a
//! 2-core machine, 27 s for the 50); with Manhattan distance and linear conflicts instead: 1.131
//! times the optimum, proven 1.41, the slowest 0.89 s. The children of a board are evaluated
//! together, every table read asked of the memory before any is used, which with the bucket
//! queue (`bounded/open.rs`) made the search about 1.75 times faster per board.

use std::hash::BuildHasher;
use std::sync::Arc;
use std::time::Instant;

use foldhash::fast::FixedState;

use super::board::Move;
use super::constructive::Constructive;
use super::distance::Distance;
use super::grid::Grid;
use super::grid_board::GridBoard;
use super::grid_pdb::{Evaluator, GridDatabases, Reads};
use crate::stop::{SearchStats, Stop, Stopped};

mod open;
use open::{Open, Waiting};

/// How much one search may do, in boards generated: `phase` for each weight before it is
/// doubled, and `total` before it stops shortening an answer.
#[derive(Debug, Clone, Copy)]
struct Budget {
    phase: u64,
    total: u64,
}

/// With Manhattan distance and linear conflicts (about half a second at most on 5×5). On Korf &
/// Felner's 50 at ratio 1.5 a longer search buys closer answers: phases of 150,000 boards and
/// 300,000 in all give 1.175 times the optimum on average, 300,000 and 1,000,000 give 1.136,
/// 500,000 and 1,500,000 only 1.126 for half as much time again.
const BUDGET: Budget = Budget {
    phase: 300_000,
    total: 1_000_000,
};
/// The same on boards of more than 25 cells: far from the target no weight finishes there, so
/// the phases stay short and the constructive method answers within 100 ms; near the target,
/// where an answer is short, they still finish.
const LARGE_BUDGET: Budget = Budget {
    phase: 10_000,
    total: 20_000,
};
/// With pattern databases: a stronger `h` keeps the open list focused, so most 5×5 boards are
/// answered at the first weight. On Korf & Felner's 50 at ratio 1.5, a total of 800,000 boards
/// gave 1.055 times the optimum on average, 1,000,000 gave 1.050, 1,100,000 1.049 (each
/// within 0.8 s on a 2-core machine) and 1,200,000 1.048 (up to 0.9 s).
const DATABASE_BUDGET: Budget = Budget {
    phase: 500_000,
    total: 1_100_000,
};
/// The largest first weight, whatever the ratio allows. A larger one answers sooner but worse,
/// and the anytime search then spends the budget less well: on Korf & Felner's 50 with their
/// databases and the same budget, the first weight 1.4 gave 1.062 times the optimum on
/// average, 1.5 gave 1.085 and 2.9 (ratio 3) 1.33; on other shapes up to 8×8 with Manhattan
/// distance, 1.4 rather than 2.9 also gives shorter answers and fewer constructive ones.
const FIRST_WEIGHT: f64 = 1.4;
/// The largest weight tried before the constructive method.
const MAX_WEIGHT: f64 = 8.0;
/// The most weights tried: the first, twice and four times it.
const WEIGHTS: u32 = 3;
/// The denominator of weights: tenths of a unit.
const DEN: u64 = 10;

/// A solution with what was proven about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Bounded {
    /// The moves, which replay from the start to the target.
    pub moves: Vec<Move>,
    /// A proven lower bound on the optimal length (≤ `moves.len()`).
    pub lower_bound: u32,
    /// How it was found.
    pub method: Method,
    /// Work done, over every weight.
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

/// A weight as the numerator of `num / DEN` (tenths of a unit are enough), at least 1.
fn fraction(weight: f64) -> u64 {
    ((weight * DEN as f64).round() as u64).max(DEN)
}

/// Solves `start` → `target` with a length proven within `max_ratio` of the optimum when the
/// search answers with its first weight (a tenth below `max_ratio`, at most 1.4) within its
/// budget, and often when only a larger weight answers (the open list's bound then proves more
/// than the weight); the proven ratio is reported either way. `max_ratio` below 1 counts as 1.
/// The same boards always get the same answer. [`BoundedSearch`] does the same in slices.
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
    BoundedSearch::new(start, target, max_ratio).finish(stop)
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
    dbs: &Arc<GridDatabases>,
    stop: &Stop,
) -> Result<Bounded, Stopped> {
    BoundedSearch::with_databases(start, target, max_ratio, Arc::clone(dbs)).finish(stop)
}

/// The estimate a search orders its boards by: admissible, owned so that a suspended search
/// can move between threads.
struct Estimate {
    value: Value,
    /// Where the estimate reads large tables: their evaluator, which also works out a
    /// board's reads ahead so that the memory can be asked for them.
    tables: Option<Tables>,
}

type Value = Box<dyn Fn(&[u8]) -> u32 + Send + Sync>;

/// Pattern databases and their evaluator for one target.
struct Tables {
    evaluator: Evaluator,
    dbs: Arc<GridDatabases>,
}

impl Estimate {
    /// An estimate computed from the board alone.
    fn plain(value: impl Fn(&[u8]) -> u32 + Send + Sync + 'static) -> Self {
        Self {
            value: Box::new(value),
            tables: None,
        }
    }

    fn value(&self, cells: &[u8]) -> u32 {
        (self.value)(cells)
    }
}

/// How far one call to [`BoundedSearch::run`] got.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The slice ended first: call again to go on where it stopped.
    Suspended,
    /// The answer.
    Done(Bounded),
}

/// Where a [`BoundedSearch`] stands.
#[derive(Debug)]
enum Phase {
    /// Looking for a first answer within `limit` boards generated in all.
    First { limit: u64 },
    /// Shortening the first answer (of length `first_len`) within the total budget.
    Shorter { first_len: usize },
    /// No weight answered: building the answer the constructive way.
    Building(Box<Constructive>),
}

/// [`solve`] as a value that runs in slices: each call to [`run`](Self::run) goes on until the
/// answer, the stop check or the slice's end, and the next call resumes exactly there (the same
/// answer and the same work as in one go). It holds the boards it has reached, up to its budget
/// of boards generated ([`BoundedSearch::memory_ceiling`] at most).
pub struct BoundedSearch {
    start: GridBoard,
    target: GridBoard,
    search: Search,
    budget: Budget,
    /// The weight, `num / DEN`.
    num: u64,
    h0: u32,
    stats: SearchStats,
    phase: Phase,
    /// The answer's lower bound, once it is given (the open list is freed then).
    answered: Option<u32>,
}

impl std::fmt::Debug for BoundedSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundedSearch")
            .field("num", &self.num)
            .field("stats", &self.stats)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

impl BoundedSearch {
    /// A search from `start` to `target` (which must be reachable) guided by Manhattan distance
    /// and linear conflicts.
    ///
    /// # Panics
    /// When `target` cannot be reached from `start`.
    #[must_use]
    pub fn new(start: &GridBoard, target: &GridBoard, max_ratio: f64) -> Self {
        let distance = Distance::new(start.grid(), target.cells());
        let budget = if start.grid().cells() > 25 {
            LARGE_BUDGET
        } else {
            BUDGET
        };
        Self::by(
            start,
            target,
            max_ratio,
            budget,
            Estimate::plain(move |cells| distance.value(cells)),
        )
    }

    /// A search guided by the pattern databases `dbs`.
    ///
    /// # Panics
    /// When `target` cannot be reached from `start`, or `dbs` does not
    /// [`fit`](GridDatabases::fits) `target`.
    #[must_use]
    pub fn with_databases(
        start: &GridBoard,
        target: &GridBoard,
        max_ratio: f64,
        dbs: Arc<GridDatabases>,
    ) -> Self {
        let evaluator = Evaluator::new(&dbs, target).expect("the databases fit the target");
        let tables = Tables {
            evaluator: evaluator.clone(),
            dbs: Arc::clone(&dbs),
        };
        let estimate = Estimate {
            value: Box::new(move |cells| evaluator.value(&dbs, cells)),
            tables: Some(tables),
        };
        Self::by(start, target, max_ratio, DATABASE_BUDGET, estimate)
    }

    fn by(
        start: &GridBoard,
        target: &GridBoard,
        max_ratio: f64,
        budget: Budget,
        h: Estimate,
    ) -> Self {
        assert!(start.can_reach(target), "the target is reachable");
        let h0 = h.value(start.cells());
        // A tenth below the ratio, and at most FIRST_WEIGHT: closer answers for the same work,
        // and the weight still proves the ratio.
        let num = fraction(max_ratio.clamp(1.0, MAX_WEIGHT))
            .saturating_sub(1)
            .min(fraction(FIRST_WEIGHT))
            .max(DEN);
        Self {
            start: start.clone(),
            target: target.clone(),
            search: Search::new(start, h, num),
            budget,
            num,
            h0,
            stats: SearchStats {
                iterations: 1,
                ..SearchStats::default()
            },
            phase: Phase::First {
                limit: budget.phase,
            },
            answered: None,
        }
    }

    /// The most memory this search can hold, in bytes: every board it may generate stored
    /// once (cells, `g`, `h`, parent, move, each array at most doubled by growth) with its index
    /// slot (the index at most a quarter full) and an open-list entry (also at most doubled).
    #[must_use]
    pub fn memory_ceiling(&self) -> usize {
        let boards = self
            .budget
            .total
            .max(u64::from(WEIGHTS) * self.budget.phase);
        let per_board = 2 * (self.start.cells().len() + 13) + 4 * 8 + 2 * size_of::<Waiting>();
        usize::try_from(boards).unwrap_or(usize::MAX) * per_board
    }

    /// The work done so far.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The lower bound proven so far: the heuristic of the start and the least `g + h` waiting
    /// (never above the best answer's length); the answer's own once it is given.
    #[must_use]
    pub fn lower_bound(&self) -> u32 {
        self.answered
            .unwrap_or_else(|| self.h0.max(self.search.open_bound()))
    }

    /// The shortest answer found so far and the lower bound proven with it, as the answer would
    /// carry them were the search to end now, while it goes on shortening them (see
    /// [`run`](Self::run)); `None` before the first answer, and once the answer is given.
    #[must_use]
    pub fn best_so_far(&self) -> Option<(&[Move], u32)> {
        let Phase::Shorter { first_len } = self.phase else {
            return None;
        };
        let moves = self.search.best.as_deref()?;
        Some((moves, proven(self.shorter_bound(first_len), moves.len())))
    }

    /// What the search has proven once its first answer, `first_len` moves long, was found: the
    /// weight bounds the optimum from below, and so do the start's heuristic and the open list.
    fn shorter_bound(&self, first_len: usize) -> u32 {
        let by_weight = (first_len as u64 * DEN).div_ceil(self.num);
        u32::try_from(by_weight)
            .unwrap_or(u32::MAX)
            .max(self.h0)
            .max(self.search.open_bound())
    }

    /// Runs until the answer, `stop` or `slice_end` (checked every [`POLL_INTERVAL`](crate::stop::POLL_INTERVAL) boards,
    /// and between the constructive method's groups).
    ///
    /// # Errors
    /// [`Stopped`] when `stop` fires first; the search is then over.
    pub fn run(&mut self, stop: &Stop, slice_end: Option<Instant>) -> Result<Step, Stopped> {
        loop {
            match &mut self.phase {
                Phase::First { limit } => {
                    match self.search.run(*limit, stop, slice_end, &mut self.stats)? {
                        Ran::Suspended => return Ok(Step::Suspended),
                        Ran::Answer => {
                            let first_len = self.search.best.as_ref().map_or(0, Vec::len);
                            // At weight 1 the first answer is optimal.
                            if self.num == DEN {
                                let moves = self.search.best.take().expect("an answer");
                                let len = u32::try_from(moves.len()).unwrap_or(u32::MAX);
                                return Ok(Step::Done(self.answer(moves, len, true)));
                            }
                            self.phase = Phase::Shorter { first_len };
                        }
                        Ran::Limit | Ran::Exhausted => {
                            if self.stats.iterations == WEIGHTS
                                || self.num * 2 > fraction(MAX_WEIGHT)
                            {
                                self.phase = Phase::Building(Box::new(Constructive::new(
                                    &self.start,
                                    &self.target,
                                )));
                            } else {
                                self.num *= 2;
                                self.search.reweigh(self.num);
                                *limit += self.budget.phase;
                                self.stats.iterations += 1;
                            }
                        }
                    }
                }
                Phase::Shorter { first_len } => {
                    let first_len = *first_len;
                    let optimal = match self.search.run(
                        self.budget.total,
                        stop,
                        slice_end,
                        &mut self.stats,
                    )? {
                        Ran::Suspended => return Ok(Step::Suspended),
                        Ran::Answer => continue,
                        Ran::Limit => false,
                        Ran::Exhausted => true,
                    };
                    let bound = self.shorter_bound(first_len);
                    let moves = self.search.best.take().expect("an answer");
                    let bound = if optimal {
                        u32::try_from(moves.len()).unwrap_or(u32::MAX)
                    } else {
                        bound
                    };
                    return Ok(Step::Done(self.answer(moves, bound, true)));
                }
                Phase::Building(building) => {
                    if let Some(reason) = stop.check(self.stats.nodes) {
                        return Err(Stopped {
                            reason,
                            stats: self.stats,
                        });
                    }
                    if let Some(moves) = building.step() {
                        let bound = self.h0.max(self.search.open_bound());
                        return Ok(Step::Done(self.answer(moves, bound, false)));
                    }
                    if slice_end.is_some_and(|end| Instant::now() >= end) {
                        return Ok(Step::Suspended);
                    }
                }
            }
        }
    }

    /// Runs to the end in one go.
    fn finish(mut self, stop: &Stop) -> Result<Bounded, Stopped> {
        match self.run(stop, None)? {
            Step::Done(answer) => Ok(answer),
            Step::Suspended => unreachable!("a run without a slice end is never suspended"),
        }
    }

    fn answer(&mut self, moves: Vec<Move>, bound: u32, weighted: bool) -> Bounded {
        // The boards are no longer needed: free them now rather than when the value goes.
        self.search.boards = Boards::new(0);
        self.search.open = Open::default();
        let lower_bound = proven(bound, moves.len());
        self.answered = Some(lower_bound);
        Bounded {
            lower_bound,
            moves,
            method: if weighted {
                Method::Weighted(self.num as f64 / DEN as f64)
            } else {
                Method::Constructive
            },
            stats: self.stats,
        }
    }
}

/// A lower bound raised to the parity every path between the two boards shares (that of the
/// `len` found), and never above `len`.
fn proven(bound: u32, len: usize) -> u32 {
    let len = u32::try_from(len).unwrap_or(u32::MAX);
    let bound = if bound % 2 == len % 2 {
        bound
    } else {
        bound.saturating_add(1)
    };
    bound.min(len)
}

/// The boards one search has reached, each stored once: the cells of all side by side in one
/// array (no allocation per board), found again through an open-addressing table of ids.
struct Boards {
    /// Cells per board.
    size: usize,
    cells: Vec<u8>,
    /// Per board: the shortest path length found, the heuristic, the parent and the move from it.
    g: Vec<u32>,
    h: Vec<u32>,
    parent: Vec<u32>,
    mv: Vec<Option<Move>>,
    /// Per slot: a board's hash (high half) and id + 1 (low half), or 0; at most half full.
    slots: Vec<u64>,
}

/// The boards' hash: fixed, so that nothing in a search depends on the process.
const HASHER: FixedState = FixedState::with_seed(0x5eed_b0a4_d5e1_7a11);

impl Boards {
    fn new(size: usize) -> Self {
        Self {
            size,
            cells: Vec::new(),
            g: Vec::new(),
            h: Vec::new(),
            parent: Vec::new(),
            mv: Vec::new(),
            slots: vec![0; 1 << 12],
        }
    }

    fn len(&self) -> usize {
        self.g.len()
    }

    fn cells(&self, id: u32) -> &[u8] {
        let at = id as usize * self.size;
        &self.cells[at..at + self.size]
    }

    fn hash(cells: &[u8]) -> u32 {
        HASHER.hash_one(cells) as u32
    }

    /// Asks the memory for the slot [`find`](Self::find) reads first for `hash`.
    fn prefetch(&self, hash: u32) {
        let mask = self.slots.len() - 1;
        crate::prefetch::prefetch(self.slots.as_ptr().wrapping_add(hash as usize & mask));
    }

    /// The id of the board `cells` (of hash `hash`), if reached.
    fn find(&self, cells: &[u8], hash: u32) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            let id = (slot as u32).wrapping_sub(1);
            if (slot >> 32) as u32 == hash && self.cells(id) == cells {
                return Some(id);
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds a board not reached before; returns its id.
    fn add(
        &mut self,
        cells: &[u8],
        hash: u32,
        g: u32,
        h: u32,
        parent: u32,
        mv: Option<Move>,
    ) -> u32 {
        if (self.len() + 1) * 2 > self.slots.len() {
            let doubled = vec![0; self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, doubled);
            for slot in old.into_iter().filter(|&s| s != 0) {
                self.place(slot);
            }
        }
        let id = u32::try_from(self.len()).expect("fewer than 2^32 boards");
        self.place(u64::from(hash) << 32 | u64::from(id + 1));
        self.cells.extend_from_slice(cells);
        self.g.push(g);
        self.h.push(h);
        self.parent.push(parent);
        self.mv.push(mv);
        id
    }

    fn place(&mut self, slot: u64) {
        let mask = self.slots.len() - 1;
        let mut i = (slot >> 32) as usize & mask;
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
    }

    /// The moves from the start to the board `id`, following the parents: a board's `g` is set
    /// with its parent, to one more than the parent's, and a parent's `g` can only fall since,
    /// so `g` falls along the way, which ends at the start and is at most `g` long.
    fn path(&self, mut id: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        while let Some(mv) = self.mv[id as usize] {
            moves.push(mv);
            id = self.parent[id as usize];
        }
        moves.reverse();
        moves
    }
}

/// How a call to [`Search::run`] ended.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ran {
    /// A shorter answer was found (now [`Search::best`]).
    Answer,
    /// More boards than the limit were generated.
    Limit,
    /// The open list is empty: no board can lead to an answer shorter than the best.
    Exhausted,
    /// The slice ended: run again to go on.
    Suspended,
}

/// Weighted A* with re-opening (`g + w·h`, ties to the last reached), which may go on after an
/// answer with it as an upper bound (Hansen & Zhou, "Anytime heuristic search", 2007): boards
/// whose `g + h` (`h` admissible) reaches the best length are dropped, and the weight may change
/// between calls to [`run`](Self::run).
struct Search {
    grid: Grid,
    estimate: Estimate,
    boards: Boards,
    /// The boards waiting, by key `DEN·g + num·h`; an entry whose `g` is no longer its board's
    /// is stale.
    open: Open,
    /// The weight, `num / DEN`.
    num: u64,
    /// The shortest answer found.
    best: Option<Vec<Move>>,
    /// Boards generated so far.
    nodes: u64,
    /// With tables: the expanded board's reads, then each child's (scratch, kept to reuse).
    reads: [Reads; 5],
}

impl Search {
    fn new(start: &GridBoard, estimate: Estimate, num: u64) -> Self {
        let mut boards = Boards::new(start.cells().len());
        let h = estimate.value(start.cells());
        let root = boards.add(start.cells(), Boards::hash(start.cells()), 0, h, 0, None);
        let mut open = Open::default();
        open.push(num * u64::from(h), Waiting { g: 0, h, id: root });
        Self {
            grid: start.grid(),
            estimate,
            boards,
            open,
            num,
            best: None,
            nodes: 0,
            reads: Default::default(),
        }
    }

    /// The length below which an answer would be new.
    fn cutoff(&self) -> u32 {
        self.best
            .as_ref()
            .map_or(u32::MAX, |b| u32::try_from(b.len()).unwrap_or(u32::MAX))
    }

    /// Orders the open list by the weight `num / DEN` from now on.
    fn reweigh(&mut self, num: u64) {
        if num == self.num {
            return;
        }
        self.num = num;
        let g = &self.boards.g;
        for board in self.open.drain() {
            if g[board.id as usize] == board.g {
                let key = DEN * u64::from(board.g) + num * u64::from(board.h);
                self.open.push(key, board);
            }
        }
    }

    /// A lower bound on the optimum: the least `g + h` in the open list, or the best length.
    /// Until an optimal answer is found, some board of an optimal path waits there with its
    /// optimal `g` (re-opening puts back every board reached by a shorter path; the boards
    /// dropped for reaching the best length would only prove the best optimal).
    fn open_bound(&self) -> u32 {
        self.open
            .iter()
            .map(|board| board.g + board.h)
            .fold(self.cutoff(), u32::min)
    }

    /// Searches on until a shorter answer, more than `limit` boards generated in all, an empty
    /// open list, or `slice_end` (checked with `stop`).
    fn run(
        &mut self,
        limit: u64,
        stop: &Stop,
        slice_end: Option<Instant>,
        stats: &mut SearchStats,
    ) -> Result<Ran, Stopped> {
        let size = self.boards.size;
        let mut buf = [0u8; 64];
        let mut poll = stop.next_poll(stats.nodes);
        let cutoff = self.cutoff();
        while let Some((key, board)) = self.open.pop() {
            let Waiting { g, h, id } = board;
            if g != self.boards.g[id as usize] || g + h >= cutoff {
                continue; // stale (reached again by a shorter path since), or no better
            }
            if h == 0 {
                // Only the target has `h` 0 (every tile home).
                self.best = Some(self.boards.path(id));
                return Ok(Ran::Answer);
            }
            if self.nodes > limit {
                self.open.push(key, board); // still waiting, for the next run and the bound
                return Ok(Ran::Limit);
            }
            let cells = &mut buf[..size];
            cells.copy_from_slice(self.boards.cells(id));
            let blank = cells.iter().position(|&t| t == 0).expect("a blank");
            let came = self.boards.mv[id as usize];
            let g = g + 1;
            // The children's index slots and table entries miss the caches: start every miss
            // before reading any.
            let [parent, reads @ ..] = &mut self.reads;
            if let Some(tables) = &self.estimate.tables {
                tables.evaluator.read(cells, parent);
            }
            let mut children = [(Move::Down, 0usize, 0u32); 4];
            let mut count = 0;
            for mv in Move::ALL {
                if came.is_some_and(|c| c == mv.reverse()) {
                    continue;
                }
                let Some(to) = self.grid.neighbour(blank, mv) else {
                    continue;
                };
                cells.swap(blank, to);
                let hash = Boards::hash(cells);
                self.boards.prefetch(hash);
                if let Some(tables) = &self.estimate.tables {
                    let child = &mut reads[count];
                    tables
                        .evaluator
                        .step(parent, child, cells[blank], to, blank);
                    tables.evaluator.prefetch(&tables.dbs, child);
                }
                cells.swap(blank, to);
                children[count] = (mv, to, hash);
                count += 1;
            }
            for (&(mv, to, hash), child_reads) in children[..count].iter().zip(&*reads) {
                stats.nodes += 1;
                self.nodes += 1;
                cells.swap(blank, to);
                let child = match self.boards.find(cells, hash) {
                    Some(known) => {
                        let k = known as usize;
                        if self.boards.g[k] <= g || g + self.boards.h[k] >= cutoff {
                            None
                        } else {
                            (self.boards.g[k], self.boards.parent[k], self.boards.mv[k]) =
                                (g, id, Some(mv));
                            Some((known, self.boards.h[k]))
                        }
                    }
                    None => {
                        let h = match &self.estimate.tables {
                            Some(tables) => {
                                tables.evaluator.value_of(&tables.dbs, child_reads, cells)
                            }
                            None => self.estimate.value(cells),
                        };
                        (g + h < cutoff)
                            .then(|| (self.boards.add(cells, hash, g, h, id, Some(mv)), h))
                    }
                };
                cells.swap(blank, to);
                if let Some((child, h)) = child {
                    let key = DEN * u64::from(g) + self.num * u64::from(h);
                    self.open.push(key, Waiting { g, h, id: child });
                }
            }
            if stats.nodes >= poll {
                if let Some(reason) = stop.check(stats.nodes) {
                    return Err(Stopped {
                        reason,
                        stats: *stats,
                    });
                }
                if slice_end.is_some_and(|end| Instant::now() >= end) {
                    return Ok(Ran::Suspended);
                }
                poll = stop.next_poll(stats.nodes);
            }
        }
        Ok(Ran::Exhausted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::bfs;
    use crate::tiles::fsm::PruningTables;
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
        let pruning = PruningTables::new();
        for seed in 1..12 {
            let start = scrambled(grid, 200, seed);
            let optimal = grid_ida::solve(&start, &goal, &pruning, &Stop::never())
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

    /// Going on after the first answer only ever shortens it; the first is within the weight of
    /// the optimum; the open list's bound never exceeds the optimum; and an emptied open list
    /// comes only with the optimum.
    #[test]
    fn anytime_search_never_lengthens_and_proves_only_the_optimum() {
        let grid = Grid::new(3, 4).unwrap();
        let goal = GridBoard::goal(grid);
        let pruning = PruningTables::new();
        let distance = Distance::new(grid, goal.cells());
        let md = || -> Estimate {
            let distance = distance.clone();
            Estimate::plain(move |cells: &[u8]| distance.value(cells))
        };
        let mut proved = 0;
        for seed in 1..16 {
            let start = scrambled(grid, 200, seed);
            let optimal = grid_ida::solve(&start, &goal, &pruning, &Stop::never())
                .unwrap()
                .len();
            for weight in [1.5, 3.0] {
                let mut stats = SearchStats::default();
                let mut search = Search::new(&start, md(), fraction(weight));
                let ran = search
                    .run(u64::MAX, &Stop::never(), None, &mut stats)
                    .unwrap();
                assert_eq!(ran, Ran::Answer);
                let mut last = search.best.as_ref().unwrap().len();
                assert!(last as f64 <= weight * optimal as f64 + 1e-9);
                let mut limit = search.nodes;
                while limit < 200_000 {
                    limit += 5_000;
                    let ran = search.run(limit, &Stop::never(), None, &mut stats).unwrap();
                    let best = search.best.as_ref().unwrap();
                    assert_eq!(start.replay(best).unwrap(), goal);
                    assert!(best.len() <= last, "seed {seed}, weight {weight}");
                    assert!(best.len() >= optimal);
                    assert!(search.open_bound() as usize <= optimal);
                    last = best.len();
                    if ran == Ran::Exhausted {
                        assert_eq!(last, optimal, "seed {seed}, weight {weight}");
                        proved += 1;
                        break;
                    }
                }
            }
        }
        assert!(proved > 0, "some searches run out of boards to try");
    }

    /// What a search in slices shows between them: answers that replay and only shorten, bounds
    /// never above the optimum, and the final answer no longer than the last shown.
    #[test]
    fn the_best_so_far_is_valid_and_only_improves() {
        let grid = Grid::new(3, 4).unwrap();
        let goal = GridBoard::goal(grid);
        let pruning = PruningTables::new();
        let mut shown = 0;
        for seed in 1..8 {
            let start = scrambled(grid, 200, seed);
            let optimal = grid_ida::solve(&start, &goal, &pruning, &Stop::never())
                .unwrap()
                .len();
            let mut search = BoundedSearch::new(&start, &goal, 3.0);
            let mut last = usize::MAX;
            let answer = loop {
                // A slice that ends at once: one poll interval of boards per call.
                let step = search.run(&Stop::never(), Some(Instant::now())).unwrap();
                if let Some((moves, bound)) = search.best_so_far() {
                    assert_eq!(start.replay(moves).unwrap(), goal);
                    assert!(moves.len() <= last && moves.len() >= optimal);
                    assert!(bound as usize <= optimal, "seed {seed}");
                    last = moves.len();
                    shown += 1;
                }
                if let Step::Done(answer) = step {
                    break answer;
                }
            };
            assert!(answer.moves.len() <= last);
            assert!(search.best_so_far().is_none());
            assert_eq!(search.lower_bound(), answer.lower_bound);
        }
        assert!(shown > 0, "no answer was shown before the end");
    }

    /// Against breadth-first search on every board of small shapes, with budgets small enough
    /// that the weight is doubled and the constructive method answers too: the answers replay,
    /// the proven bound never exceeds the optimum, a weight bounds the length, and the same
    /// boards get the same answer.
    #[test]
    fn the_bound_never_exceeds_the_breadth_first_optimum() {
        let budgets = [
            Budget {
                phase: 30,
                total: 60,
            },
            Budget {
                phase: 300,
                total: 2_000,
            },
            BUDGET,
        ];
        let mut methods = [0; 3];
        for (rows, cols) in [(3, 3), (2, 4), (3, 2)] {
            let grid = Grid::new(rows, cols).unwrap();
            let goal = GridBoard::goal(grid);
            for seed in 1..7 {
                let target = scrambled(grid, 301, seed);
                let distances = bfs::distances(target.clone(), u32::MAX);
                let distance = Distance::new(grid, target.cells());
                let by = |start: &GridBoard, ratio: f64, budget: Budget| {
                    let distance = distance.clone();
                    let md = Estimate::plain(move |cells: &[u8]| distance.value(cells));
                    BoundedSearch::by(start, &target, ratio, budget, md).finish(&Stop::never())
                };
                for start_seed in 1..5 {
                    let start = scrambled(grid, 300 + start_seed, seed * 31 + start_seed as u64);
                    let start = if start.can_reach(&target) {
                        start
                    } else {
                        goal.clone()
                    };
                    let optimal = distances[&start] as usize;
                    for budget in budgets {
                        for ratio in [1.0, 1.5, 3.0] {
                            let answer = by(&start, ratio, budget).unwrap();
                            let again = by(&start, ratio, budget).unwrap();
                            assert_eq!(answer, again, "the same answer");
                            assert_eq!(start.replay(&answer.moves).unwrap(), target);
                            let len = answer.moves.len();
                            assert!(len >= optimal);
                            assert!(
                                answer.lower_bound as usize <= optimal,
                                "{rows}x{cols}: bound {} > optimum {optimal}",
                                answer.lower_bound
                            );
                            assert_eq!(answer.lower_bound as usize % 2, len % 2);
                            match answer.method {
                                Method::Weighted(w) => {
                                    assert!(len as f64 <= w * optimal as f64 + 1e-9);
                                    methods[usize::from(w > ratio)] += 1;
                                }
                                Method::Constructive => methods[2] += 1,
                            }
                        }
                    }
                }
            }
        }
        // Within the ratio, with a doubled weight, and constructive: each way is tried.
        assert!(methods.iter().all(|&n| n > 0), "{methods:?}");
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

    /// Run in slices that end at once (every poll suspends), a search gives exactly the answer
    /// and the work of one run in one go, in each way it can end (weighted, a doubled weight,
    /// constructive), and stops at the node budget in slices too.
    #[test]
    fn slices_give_the_same_answer_as_one_go() {
        let cases = [
            (3, 4, 200, 1.5, 3),
            (4, 5, 400, 1.5, 2),
            (5, 5, 2_000, 1.2, 1),
            (8, 8, 3_000, 2.0, 2),
        ];
        let mut suspended = 0;
        for (rows, cols, steps, ratio, seeds) in cases {
            let grid = Grid::new(rows, cols).unwrap();
            let goal = GridBoard::goal(grid);
            for seed in 1..=seeds {
                let start = scrambled(grid, steps, seed);
                let whole = solve(&start, &goal, ratio, &Stop::never()).unwrap();
                let mut search = BoundedSearch::new(&start, &goal, ratio);
                let sliced = loop {
                    match search.run(&Stop::never(), Some(Instant::now())).unwrap() {
                        Step::Suspended => suspended += 1,
                        Step::Done(answer) => break answer,
                    }
                };
                assert_eq!(sliced, whole, "{rows}x{cols} seed {seed}");
            }
        }
        assert!(suspended > 100, "{suspended} suspensions");
        let grid = Grid::new(5, 5).unwrap();
        let goal = GridBoard::goal(grid);
        let start = scrambled(grid, 2_000, 9);
        let stop = Stop::never().with_node_budget(5_000);
        let mut search = BoundedSearch::new(&start, &goal, 1.5);
        let stopped = loop {
            match search.run(&stop, Some(Instant::now())) {
                Ok(Step::Suspended) => {}
                Ok(Step::Done(answer)) => panic!("answered within the budget: {answer:?}"),
                Err(stopped) => break stopped,
            }
        };
        assert_eq!(stopped.reason, crate::stop::StopReason::NodeBudget);
    }
}
