//! Iterative-deepening A* on the 15-puzzle, in lexicographic move order.
//!
//! Each iteration is a depth-first search that tries the blank's moves in a fixed order and
//! prunes nodes whose `g + h` exceeds the bound; the next bound is the smallest `g + h` that was
//! pruned. With an admissible `h`, the first iteration that finds the goal has the optimal length
//! as its bound, no node on an optimal path is pruned in it, and depth-first search in move order
//! meets the optimal paths in lexicographic order: the first one found is the smallest.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use super::board::Move;
use super::fsm::{BLOCKED, MovePruning};
use super::neighbours::neighbour_table;
use crate::stop::{SearchStats, Stop, StopReason, Stopped};

/// A heuristic updated incrementally as tiles move.
pub(crate) trait Heuristic {
    /// Whatever the heuristic keeps per node (copied down the recursion).
    type State: Copy;
    /// The state for a whole board (`cells[i]` = tile at cell `i`, 0 = blank).
    fn start(&self, cells: &[u8; 16]) -> Self::State;
    /// The state after `tile` moved from cell `from` to cell `to`.
    fn moved(&self, state: &Self::State, tile: u8, from: u8, to: u8) -> Self::State;
    /// The lower bound on the moves left. Zero exactly at the goal.
    fn value(&self, state: &Self::State) -> u32;
}

/// Neighbour of each cell in each move's direction (the automaton blocks moves off the board).
const NEIGHBOURS: [[u8; 4]; 16] = neighbour_table(4);

/// Iterations that expanded fewer nodes than this stay on one thread: splitting costs more.
const PARALLEL_AFTER: u64 = 200_000;
/// Subtrees handed out per worker thread in a parallel iteration, for balance.
const SUBTREES_PER_THREAD: usize = 64;

/// Finds the optimal path from `cells` to the heuristic's goal that comes first in the move
/// order of `pruning` (which skips move strings that cannot be that path), on up to `threads`
/// threads. Returns the moves and the work done. The answer does not depend on `threads`.
pub(crate) fn search<H>(
    heuristic: &H,
    cells: [u8; 16],
    pruning: &MovePruning,
    stop: &Stop,
    threads: usize,
) -> Result<(Vec<Move>, SearchStats), Stopped>
where
    H: Heuristic + Sync,
    H::State: Send + Sync,
{
    let blank = cells
        .iter()
        .position(|&t| t == 0)
        .expect("a board has a blank") as u8;
    let root = Node {
        cells,
        blank,
        state: heuristic.start(&cells),
        fsm: MovePruning::start(usize::from(blank)),
        path: Vec::new(),
    };
    let mut stats = SearchStats::default();
    let mut bound = heuristic.value(&root.state);
    let mut last_nodes = 0;
    loop {
        stats.iterations += 1;
        let before = stats.nodes;
        // The cut needs a few levels above the bound; tiny bounds never get here in practice.
        let outcome = if threads > 1 && last_nodes >= PARALLEL_AFTER && bound > 8 {
            iterate_parallel(heuristic, pruning, &root, stop, bound, threads, &mut stats)
        } else {
            let mut search = Search::new(heuristic, pruning, &root, stop, stats.nodes, None);
            let flow = search.dfs(root.state, root.blank, 0, bound, root.fsm);
            stats.nodes = search.nodes;
            match flow {
                Flow::Found => Outcome::Found(search.path),
                Flow::Stopped(reason) => Outcome::Stopped(reason),
                Flow::Continue | Flow::Abandoned | Flow::Suspended => {
                    Outcome::NextBound(search.next_bound)
                }
            }
        };
        last_nodes = stats.nodes - before;
        match outcome {
            Outcome::Found(path) => return Ok((path, stats)),
            Outcome::Stopped(reason) => return Err(Stopped { reason, stats }),
            Outcome::NextBound(next) => {
                // Every state of the 15-puzzle is within 80 moves of every other in its class.
                assert!(
                    next != u32::MAX,
                    "IDA* exhausted its space without reaching the goal"
                );
                bound = next;
            }
        }
    }
}

/// An IDA* search that runs in time slices: [`Sliced::run`] searches until the slice ends and
/// returns, keeping only the path it had reached, the bound and the counts; the next call walks
/// back down that path (at most one move per level, so microseconds) and goes on exactly where
/// it stopped. The answer and the node count are those of [`search`] on one thread.
#[derive(Debug, Clone)]
pub(crate) struct Sliced<S> {
    root: Node<S>,
    bound: u32,
    stats: SearchStats,
    /// Where the current iteration was suspended, and its next bound so far.
    suspended: Option<(Vec<Move>, u32)>,
}

impl<S: Copy> Sliced<S> {
    /// The cost bound of the current iteration: every earlier one failed, so the optimal
    /// length is at least this (and equals it once the answer is found).
    pub(crate) fn bound(&self) -> u32 {
        self.bound
    }

    /// The work done so far.
    pub(crate) fn stats(&self) -> SearchStats {
        self.stats
    }

    /// A search from `cells` (nothing runs yet).
    pub(crate) fn new<H: Heuristic<State = S>>(heuristic: &H, cells: [u8; 16]) -> Self {
        let blank = cells
            .iter()
            .position(|&t| t == 0)
            .expect("a board has a blank") as u8;
        let state = heuristic.start(&cells);
        Self {
            root: Node {
                cells,
                blank,
                state,
                fsm: MovePruning::start(usize::from(blank)),
                path: Vec::new(),
            },
            bound: heuristic.value(&state),
            stats: SearchStats::default(),
            suspended: None,
        }
    }

    /// Searches until the answer is found, `stop` fires, or the first poll after `slice_end`
    /// (`None`: this slice ran out, call again).
    pub(crate) fn run<H: Heuristic<State = S>>(
        &mut self,
        heuristic: &H,
        pruning: &MovePruning,
        stop: &Stop,
        slice_end: Instant,
    ) -> Option<Result<(Vec<Move>, SearchStats), Stopped>> {
        loop {
            let mut search =
                Search::new(heuristic, pruning, &self.root, stop, self.stats.nodes, None);
            search.slice_end = Some(slice_end);
            let (state, blank, fsm) = (self.root.state, self.root.blank, self.root.fsm);
            let flow = match self.suspended.take() {
                Some((path, next_bound)) => {
                    search.resume = path;
                    search.next_bound = next_bound;
                    search.resume(state, blank, 0, self.bound, fsm)
                }
                None => {
                    self.stats.iterations += 1;
                    search.dfs(state, blank, 0, self.bound, fsm)
                }
            };
            self.stats.nodes = search.nodes;
            match flow {
                Flow::Found => return Some(Ok((search.path, self.stats))),
                Flow::Stopped(reason) => {
                    return Some(Err(Stopped {
                        reason,
                        stats: self.stats,
                    }));
                }
                Flow::Suspended => {
                    self.suspended = Some((search.path, search.next_bound));
                    return None;
                }
                Flow::Continue | Flow::Abandoned => {
                    assert!(
                        search.next_bound != u32::MAX,
                        "IDA* exhausted its space without reaching the goal"
                    );
                    self.bound = search.next_bound;
                }
            }
        }
    }
}

/// A position in the search tree: the board, the heuristic's state and the path to it.
#[derive(Debug, Clone)]
struct Node<S> {
    cells: [u8; 16],
    blank: u8,
    state: S,
    /// The move-pruning automaton's state.
    fsm: u32,
    path: Vec<Move>,
}

/// How one iteration ended.
enum Outcome {
    Found(Vec<Move>),
    NextBound(u32),
    Stopped(StopReason),
}

/// One iteration split over threads. The tree is cut at a depth where it has enough subtrees;
/// the subtrees, in move order, are handed out in that order. A subtree that finds the goal
/// abandons every later one, but earlier ones run to the end, so the answer is the first goal
/// in move order: exactly what one thread would have found.
fn iterate_parallel<H>(
    heuristic: &H,
    pruning: &MovePruning,
    root: &Node<H::State>,
    stop: &Stop,
    bound: u32,
    threads: usize,
    stats: &mut SearchStats,
) -> Outcome
where
    H: Heuristic + Sync,
    H::State: Send + Sync,
{
    // Cut deep enough for many subtrees, but above the bound so no goal lies above the cut.
    let mut frontier = Vec::new();
    let mut next_bound = u32::MAX;
    for depth in 2..bound {
        let mut search = Search::new(heuristic, pruning, root, stop, stats.nodes, None);
        search.split = Some((depth, Vec::new()));
        match search.dfs(root.state, root.blank, 0, bound, root.fsm) {
            Flow::Found => return Outcome::Found(search.path),
            Flow::Stopped(reason) => return Outcome::Stopped(reason),
            Flow::Continue | Flow::Abandoned | Flow::Suspended => {}
        }
        frontier = search.split.map(|(_, f)| f).unwrap_or_default();
        next_bound = search.next_bound;
        stats.nodes = search.nodes;
        if frontier.len() >= SUBTREES_PER_THREAD * threads {
            break;
        }
    }
    let shared = Shared {
        next: AtomicUsize::new(0),
        best: AtomicUsize::new(usize::MAX),
        found: Mutex::new(None),
        stopped: Mutex::new(None),
        abandon: AtomicBool::new(false),
        nodes: AtomicU64::new(stats.nodes),
        next_bound: AtomicU32::new(next_bound),
    };
    let work = || {
        loop {
            let index = shared.next.fetch_add(1, Ordering::Relaxed);
            if index >= frontier.len()
                || index > shared.best.load(Ordering::Relaxed)
                || shared.abandon.load(Ordering::Relaxed)
            {
                break;
            }
            let node = &frontier[index];
            let mut search = Search::new(heuristic, pruning, node, stop, 0, Some((&shared, index)));
            let flow = search.dfs(
                node.state,
                node.blank,
                node.path.len() as u32,
                bound,
                node.fsm,
            );
            shared
                .nodes
                .fetch_add(search.nodes - search.reported, Ordering::Relaxed);
            shared
                .next_bound
                .fetch_min(search.next_bound, Ordering::Relaxed);
            match flow {
                Flow::Found => {
                    let mut found = shared.found.lock().expect("no worker panics");
                    if found.as_ref().is_none_or(|(i, _)| index < *i) {
                        *found = Some((index, search.path));
                        shared.best.fetch_min(index, Ordering::Relaxed);
                    }
                }
                Flow::Stopped(reason) => {
                    shared
                        .stopped
                        .lock()
                        .expect("no worker panics")
                        .get_or_insert(reason);
                    shared.abandon.store(true, Ordering::Relaxed);
                }
                Flow::Continue | Flow::Abandoned | Flow::Suspended => {}
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
    stats.nodes = shared.nodes.load(Ordering::Relaxed);
    if let Some(reason) = shared.stopped.into_inner().expect("no worker panics") {
        return Outcome::Stopped(reason);
    }
    match shared.found.into_inner().expect("no worker panics") {
        Some((_, path)) => Outcome::Found(path),
        None => Outcome::NextBound(shared.next_bound.load(Ordering::Relaxed)),
    }
}

/// What the workers of one parallel iteration share.
struct Shared {
    /// The next subtree to hand out.
    next: AtomicUsize,
    /// The smallest subtree index that found the goal.
    best: AtomicUsize,
    found: Mutex<Option<(usize, Vec<Move>)>>,
    stopped: Mutex<Option<StopReason>>,
    /// Set when a worker was stopped: the others give up too.
    abandon: AtomicBool,
    /// Nodes expanded by all workers (added up at every poll, for the budget).
    nodes: AtomicU64,
    next_bound: AtomicU32,
}

enum Flow {
    Found,
    Continue,
    Stopped(StopReason),
    /// A parallel worker gave up its subtree: an earlier one found the goal, or another was
    /// stopped.
    Abandoned,
    /// A sliced search reached the end of its time slice; `path` is where it stopped.
    Suspended,
}

struct Search<'a, H: Heuristic> {
    heuristic: &'a H,
    pruning: &'a MovePruning,
    cells: [u8; 16],
    order: [Move; 4],
    stop: &'a Stop,
    path: Vec<Move>,
    /// Nodes expanded, counting those before this search started.
    nodes: u64,
    /// Of `nodes`, how many were already added to the shared count.
    reported: u64,
    next_bound: u32,
    /// The parallel iteration this search is a subtree of, and the subtree's index.
    shared: Option<(&'a Shared, usize)>,
    /// When cutting the tree: the depth of the cut and the nodes collected there.
    split: Option<(u32, Vec<Node<H::State>>)>,
    /// The node count at which to poll the stop check next.
    next_poll: u64,
    /// A sliced search suspends at the first poll after this instant.
    slice_end: Option<Instant>,
    /// The path at the suspension being resumed.
    resume: Vec<Move>,
}

impl<'a, H: Heuristic> Search<'a, H> {
    fn new(
        heuristic: &'a H,
        pruning: &'a MovePruning,
        from: &Node<H::State>,
        stop: &'a Stop,
        nodes: u64,
        shared: Option<(&'a Shared, usize)>,
    ) -> Self {
        let mut path = Vec::with_capacity(96);
        path.extend_from_slice(&from.path);
        Self {
            heuristic,
            pruning,
            cells: from.cells,
            order: pruning.order(),
            stop,
            path,
            nodes,
            reported: nodes,
            next_bound: u32::MAX,
            shared,
            split: None,
            next_poll: stop.next_poll(nodes),
            slice_end: None,
            resume: Vec::new(),
        }
    }

    /// Checks the stop conditions; for a parallel worker, also whether to give up its subtree.
    #[cold]
    fn poll(&mut self) -> Option<Flow> {
        self.next_poll = self.stop.next_poll(self.nodes);
        let total = match self.shared {
            None => self.nodes,
            Some((shared, index)) => {
                let delta = self.nodes - self.reported;
                self.reported = self.nodes;
                let total = shared.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
                if shared.best.load(Ordering::Relaxed) < index
                    || shared.abandon.load(Ordering::Relaxed)
                {
                    return Some(Flow::Abandoned);
                }
                total
            }
        };
        if let Some(reason) = self.stop.check(total) {
            return Some(Flow::Stopped(reason));
        }
        match self.slice_end {
            Some(end) if Instant::now() >= end => Some(Flow::Suspended),
            _ => None,
        }
    }

    fn dfs(&mut self, state: H::State, blank: u8, g: u32, bound: u32, fsm: u32) -> Flow {
        let h = self.heuristic.value(&state);
        let f = g + h;
        if f > bound {
            self.next_bound = self.next_bound.min(f);
            return Flow::Continue;
        }
        if h == 0 {
            return Flow::Found;
        }
        if let Some((depth, frontier)) = &mut self.split
            && g == *depth
        {
            frontier.push(Node {
                cells: self.cells,
                blank,
                state,
                fsm,
                path: self.path.clone(),
            });
            return Flow::Continue;
        }
        self.nodes += 1;
        if self.nodes >= self.next_poll
            && let Some(flow) = self.poll()
        {
            return flow;
        }
        self.expand(state, blank, g, bound, fsm, 0, false)
    }

    /// Searches the children of the current node in move order, from the `first`th move on;
    /// with `resuming`, the `first`th child is the next node of a suspended path.
    #[inline(always)]
    #[expect(
        clippy::too_many_arguments,
        reason = "the hot recursion keeps its state in registers"
    )]
    fn expand(
        &mut self,
        state: H::State,
        blank: u8,
        g: u32,
        bound: u32,
        fsm: u32,
        first: usize,
        resuming: bool,
    ) -> Flow {
        for (i, mv) in self.order.into_iter().enumerate() {
            if i < first {
                continue;
            }
            let next_fsm = self.pruning.next(fsm, mv);
            if next_fsm == BLOCKED {
                continue;
            }
            let to = NEIGHBOURS[blank as usize][mv.index()];
            let tile = self.cells[to as usize];
            let child = self.heuristic.moved(&state, tile, to, blank);
            self.cells[blank as usize] = tile;
            self.cells[to as usize] = 0;
            self.path.push(mv);
            let flow = if resuming && i == first {
                self.resume(child, to, g + 1, bound, next_fsm)
            } else {
                self.dfs(child, to, g + 1, bound, next_fsm)
            };
            if !matches!(flow, Flow::Continue) {
                return flow;
            }
            self.path.pop();
            self.cells[to as usize] = tile;
            self.cells[blank as usize] = 0;
        }
        Flow::Continue
    }

    /// Walks back down the path a sliced search was suspended on (`self.resume`) and goes on
    /// from there: each node on it continues with the move it was in, then the later ones. The
    /// node it was suspended at was already counted and polled, so it is expanded at once.
    fn resume(&mut self, state: H::State, blank: u8, g: u32, bound: u32, fsm: u32) -> Flow {
        match self.resume.get(g as usize) {
            None => self.expand(state, blank, g, bound, fsm, 0, false),
            Some(&mv) => {
                let first = self
                    .order
                    .iter()
                    .position(|&m| m == mv)
                    .expect("a move of the order");
                self.expand(state, blank, g, bound, fsm, first, true)
            }
        }
    }
}
