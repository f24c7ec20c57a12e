//! Optimal solutions on boards of any shape: IDA* in lexicographic move order, run in slices,
//! guided by Manhattan distance plus linear conflicts ([`GridSearch::new`]) or by a shared set of
//! additive pattern databases ([`GridSearch::with_databases`], [`super::grid_pdb`]).
//!
//! Each iteration is a depth-first search that tries the blank's moves in `d < l < r < u` order
//! and prunes nodes whose `g + h` exceeds the bound; the next bound is the smallest pruned
//! `g + h`. With an admissible `h`, the first iteration that reaches the target has the optimal
//! length as its bound, prunes no node on an optimal path, and meets the optimal paths in
//! lexicographic order, so the first found is the smallest. Moves that complete a sequence some
//! shorter or earlier sequence replaces are skipped ([`super::fsm`], built for the board's shape:
//! at least the move that undoes the last one, and with [`GridSearch::with_pruning`] every
//! duplicate string of up to 12 moves), which keeps the smallest optimal path.
//!
//! The depth-first search keeps its whole state (board, path, the next move to try at each
//! depth) in the value, with no recursion, so [`GridSearch::run`] can return at any node and the
//! next call goes on from there: the scheduler can preempt it every few milliseconds. Every
//! completed iteration proves the optimum is at least the next bound, so a stopped search still
//! reports a proven lower bound ([`GridSearch::bound`]). (A pruned child may record less than
//! its full `g + h`, e.g. when the board's own database sum already exceeds the bound and the
//! mirror image is not read: any value above the bound and at most the child's `g + h` keeps the
//! next bound proven.)
//!
//! A search can be split among threads ([`GridSearch::helper`]): its helpers take subtrees of
//! each iteration and give work away as soon as another has none, and the answer is the one the
//! search alone gives (see `team.rs`). Several sets of databases can race through its first
//! iterations, the one that prunes most for the board going on ([`GridSearch::with_rival_databases`],
//! `race.rs`); helpers taken while they race search rivals beside it, then join the winner's
//! team.
//!
//! Each move changes the heuristic incrementally (the moved tile's Manhattan distance and two
//! lines' conflicts, or one pattern's index per side), so the hot loop allocates nothing. Each
//! node keeps the moves left to try as a bit mask that comes with its automaton state from the
//! parent's row (no test of a blocked move per child), the node asks the memory for its own row
//! and for the entries of the children that mask allows (none for a move the automaton forbids),
//! and the stacks are written in place: with the leaner lookups (`grid_pdb/lookup.rs`,
//! `grid_pdb/tables.rs`), Korf & Felner's #38 took 248 instructions a node rather than 365
//! (`valgrind --tool=cachegrind`, one thread), and one thread on #38, #40, #25 about 0.77 times
//! the time. A child the databases prune is never written to the board nor looked up in the
//! automaton (the databases do not read the board): 233. One row asked for a node rather than
//! its four children's: 226 against 242 (`valgrind --tool=callgrind
//! --toggle-collect='*Estimate::run*'`, #38, one thread); the entries of allowed children
//! only, rather than of every child on the board but the way back: 216.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::board::Move;
use super::distance::Distance;
use super::fsm::{self, MovePruning, PruningTables};
use super::grid::Grid;
use super::grid_board::GridBoard;
use super::grid_pdb::{GridDatabases, Lookup, Moved};
use crate::stop::{SearchStats, Stop, Stopped};

mod race;
mod team;

/// What one slice of a search ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slice {
    /// The optimal, lexicographically smallest move sequence.
    Found(Vec<Move>),
    /// The slice's time ran out; call [`GridSearch::run`] again.
    Suspended,
}

/// A resumable optimal search from one board to a target of the same shape.
#[derive(Debug)]
pub struct GridSearch {
    core: Core,
    estimate: Estimate,
    target: GridBoard,
    /// Once [`GridSearch::helper`] split it: this search's place in its team, which then does
    /// the work.
    member: Option<Box<team::Member>>,
    /// While other sets of databases race this one's ([`GridSearch::with_rival_databases`]).
    race: Option<Box<race::Race>>,
    /// A lower bound proven by the race's rivals, which the one left may not have reached.
    floor: u32,
}

/// How far [`Core::run`] got.
#[derive(Debug)]
enum Step {
    /// The first path to the target in this iteration (from the core's start).
    Found(Vec<Move>),
    /// The slice ended.
    Suspended,
    /// A single-iteration core ([`Core::one_iteration`]) searched all of its tree.
    Exhausted,
}

/// The search's state apart from the heuristic.
#[derive(Debug, Clone)]
struct Core {
    /// Each cell's neighbours in [`Move::ALL`] order, [`EDGE`] where the board ends.
    neighbours: [[u8; 4]; 64],
    /// Which moves are pruned after which (its shape is the board's, its order [`Move::ALL`]).
    pruning: Arc<MovePruning>,
    cells: [u8; 64],
    blank: usize,
    /// How many moves the current node is from the start.
    depth: usize,
    /// The moves from the start to the current node: the first `depth` (see [`Core::path`]).
    /// The three stacks are kept longer than any path of the iteration (see
    /// [`Core::reserve`]), so that the hot loop writes them in place rather than pushing.
    path: Vec<Move>,
    /// The pruning automaton's state at each depth on the path and at the current node.
    states: Vec<u32>,
    /// For each depth on the path (and the current node), the moves not yet tried there that
    /// the pruning automaton allows, as bits of their indices in [`Move::ALL`].
    next: Vec<u8>,
    bound: u32,
    next_bound: u32,
    stats: SearchStats,
    found: bool,
    /// Whether the search ends with its iteration ([`Step::Exhausted`]) rather than starting
    /// the next one: a team's share of one iteration.
    one_iteration: bool,
    /// In a team: raised while a member waits for work and none is waiting, so that this
    /// search suspends at its next poll and gives some away (see `team.rs`).
    wanted: Option<Arc<AtomicBool>>,
}

/// Which admissible heuristic guides the search.
#[derive(Debug, Clone)]
enum Estimate {
    Conflicts(Box<Conflicts>),
    Databases(Box<Databases>),
}

impl Estimate {
    /// The same heuristic for the board `cells` towards `target`.
    fn fresh(&self, target: &GridBoard, cells: &[u8]) -> Self {
        match self {
            Estimate::Conflicts(_) => Estimate::Conflicts(Box::new(Conflicts::new(
                target.grid(),
                target.cells(),
                cells,
            ))),
            Estimate::Databases(databases) => Estimate::Databases(Box::new(Databases {
                lookup: Lookup::new(&databases.dbs, target, cells)
                    .expect("the databases fit the search's target"),
                dbs: Arc::clone(&databases.dbs),
            })),
        }
    }

    /// Table reads a move costs: 0 for Manhattan distance and conflicts.
    fn reads(&self) -> usize {
        match self {
            Estimate::Conflicts(_) => 0,
            Estimate::Databases(databases) => databases.lookup.sums(),
        }
    }

    /// The heuristic's value for its board.
    fn value(&self) -> u32 {
        match self {
            Estimate::Conflicts(conflicts) => conflicts.value(),
            Estimate::Databases(databases) => databases.lookup.value(),
        }
    }

    fn run(
        &mut self,
        core: &mut Core,
        stop: &Stop,
        slice_end: Option<Instant>,
    ) -> Result<Step, Stopped> {
        match self {
            Estimate::Conflicts(conflicts) => core.run(&mut **conflicts, stop, slice_end),
            Estimate::Databases(databases) => core.run(&mut **databases, stop, slice_end),
        }
    }
}

/// A heuristic kept up to date move by move.
trait Heuristic {
    /// Whether [`enter`](Self::enter) reads the board: when it does not, a child it prunes is
    /// never written to the board.
    const READS_BOARD: bool;

    /// The child's value after the blank's move `mv` from `from` to `to` (`cells` already show
    /// `tile` on `from` where [`READS_BOARD`](Self::READS_BOARD)): `Ok(h)` with the state moved
    /// on when `h <= limit`, otherwise `Err` with a lower bound above `limit` and the state
    /// unchanged.
    fn enter(
        &mut self,
        cells: &[u8; 64],
        tile: u8,
        from: usize,
        to: usize,
        mv: usize,
        limit: u32,
    ) -> Result<u32, u32>;

    /// Undoes the last move entered (`cells` already show `tile` back on `to`).
    fn leave(&mut self, cells: &[u8; 64], tile: u8, from: usize, to: usize, mv: usize);

    /// Asks the memory for what entering the blank's move `mv` onto `tile` will read, so that
    /// the reads of a node's children overlap (a hint: nothing changes).
    #[inline]
    fn prefetch(&self, _tile: u8, _mv: usize) {}
}

/// Manhattan distance plus linear conflicts, the two lines a move touches recomputed.
#[derive(Debug, Clone)]
struct Conflicts {
    distance: Distance,
    cols: usize,
    /// `manhattan_of[tile][cell]`.
    manhattan_of: [[u8; 64]; 64],
    manhattan: u32,
    row_conflicts: [u32; 8],
    col_conflicts: [u32; 8],
    conflicts: u32,
}

impl Conflicts {
    fn new(grid: Grid, target: &[u8], cells: &[u8]) -> Self {
        let distance = Distance::new(grid, target);
        let grid = distance.grid();
        let mut manhattan_of = [[0u8; 64]; 64];
        for (tile, row) in manhattan_of
            .iter_mut()
            .enumerate()
            .take(grid.cells())
            .skip(1)
        {
            for (cell, md) in row.iter_mut().enumerate().take(grid.cells()) {
                *md = distance.manhattan(tile as u8, cell) as u8;
            }
        }
        let mut row_conflicts = [0; 8];
        let mut col_conflicts = [0; 8];
        for (r, conflicts) in row_conflicts.iter_mut().enumerate().take(grid.rows()) {
            *conflicts = distance.row_conflicts(cells, r);
        }
        for (c, conflicts) in col_conflicts.iter_mut().enumerate().take(grid.cols()) {
            *conflicts = distance.col_conflicts(cells, c);
        }
        Self {
            manhattan: distance.manhattan_sum(cells),
            conflicts: row_conflicts.iter().sum::<u32>() + col_conflicts.iter().sum::<u32>(),
            distance,
            cols: grid.cols(),
            manhattan_of,
            row_conflicts,
            col_conflicts,
        }
    }

    fn value(&self) -> u32 {
        self.manhattan + self.conflicts
    }

    /// The conflicts of the two lines a move between `a` and `b` changes, with their indices
    /// and whether they are rows: a vertical move changes a tile's row (its column's order is
    /// unchanged), a horizontal one its column.
    fn lines(&self, cells: &[u8; 64], a: usize, b: usize) -> (bool, [usize; 2], [u32; 2]) {
        let cols = self.cols;
        if a % cols == b % cols {
            let rows = [a / cols, b / cols];
            let new = rows.map(|r| self.distance.row_conflicts(cells, r));
            (true, rows, new)
        } else {
            let lines = [a % cols, b % cols];
            let new = lines.map(|c| self.distance.col_conflicts(cells, c));
            (false, lines, new)
        }
    }

    fn set_lines(&mut self, (rows, lines, new): (bool, [usize; 2], [u32; 2])) {
        let store = if rows {
            &mut self.row_conflicts
        } else {
            &mut self.col_conflicts
        };
        for (&line, &value) in lines.iter().zip(&new) {
            self.conflicts = self.conflicts - store[line] + value;
            store[line] = value;
        }
    }
}

impl Heuristic for Conflicts {
    const READS_BOARD: bool = true;

    #[inline]
    fn enter(
        &mut self,
        cells: &[u8; 64],
        tile: u8,
        from: usize,
        to: usize,
        _mv: usize,
        limit: u32,
    ) -> Result<u32, u32> {
        let md = &self.manhattan_of[tile as usize];
        let manhattan = self.manhattan + u32::from(md[from]) - u32::from(md[to]);
        let lines = self.lines(cells, from, to);
        let store = if lines.0 {
            &self.row_conflicts
        } else {
            &self.col_conflicts
        };
        let conflicts =
            self.conflicts - store[lines.1[0]] - store[lines.1[1]] + lines.2[0] + lines.2[1];
        let h = manhattan + conflicts;
        if h > limit {
            return Err(h);
        }
        self.manhattan = manhattan;
        self.set_lines(lines);
        Ok(h)
    }

    #[inline]
    fn leave(&mut self, cells: &[u8; 64], tile: u8, from: usize, to: usize, _mv: usize) {
        let md = &self.manhattan_of[tile as usize];
        self.manhattan = self.manhattan + u32::from(md[to]) - u32::from(md[from]);
        let lines = self.lines(cells, from, to);
        self.set_lines(lines);
    }
}

/// A shared set of pattern databases and this search's lookups in it.
#[derive(Debug, Clone)]
struct Databases {
    dbs: Arc<GridDatabases>,
    lookup: Lookup,
}

impl Heuristic for Databases {
    const READS_BOARD: bool = false;

    #[inline]
    fn enter(
        &mut self,
        _cells: &[u8; 64],
        tile: u8,
        from: usize,
        to: usize,
        mv: usize,
        limit: u32,
    ) -> Result<u32, u32> {
        let moved = Moved { tile, from, to, mv };
        self.lookup.enter(&self.dbs, moved, limit)
    }

    #[inline]
    fn leave(&mut self, _cells: &[u8; 64], tile: u8, from: usize, to: usize, mv: usize) {
        self.lookup.leave(Moved { tile, from, to, mv });
    }

    #[inline]
    fn prefetch(&self, tile: u8, mv: usize) {
        self.lookup.prefetch(&self.dbs, tile, mv);
    }
}

impl Core {
    fn new(start: &GridBoard, bound: u32) -> Self {
        let grid = start.grid();
        let mut cells = [0u8; 64];
        cells[..grid.cells()].copy_from_slice(start.cells());
        Self::at(
            cells,
            start.blank(),
            MovePruning::start(start.blank()),
            grid.neighbour_table(),
            Arc::new(MovePruning::build(grid, Move::ALL, 2)),
            bound,
        )
    }

    /// A search from the board `cells` (blank on `blank`), the pruning automaton in `state`.
    fn at(
        cells: [u8; 64],
        blank: usize,
        state: u32,
        neighbours: [[u8; 4]; 64],
        pruning: Arc<MovePruning>,
        bound: u32,
    ) -> Self {
        let mut core = Self {
            neighbours,
            pruning,
            cells,
            blank,
            depth: 0,
            path: Vec::new(),
            states: Vec::new(),
            next: Vec::new(),
            bound,
            next_bound: u32::MAX,
            stats: SearchStats {
                nodes: 0,
                iterations: 1,
            },
            found: bound == 0,
            one_iteration: false,
            wanted: None,
        };
        core.reserve();
        core.states[0] = state;
        core.next[0] = core.pruning.allowed(state);
        core
    }

    /// Makes the stacks long enough for every path of the current bound: a node on a path has
    /// `g <= bound`, and its children's `g` at most one more.
    fn reserve(&mut self) {
        let len = self.bound as usize + 2;
        if self.path.len() < len {
            self.path.resize(len, Move::Down);
            self.states.resize(len, 0);
            self.next.resize(len, 0);
        }
    }

    /// The moves from the start to the current node.
    fn path(&self) -> &[Move] {
        &self.path[..self.depth]
    }

    /// The board the search started from (the current one with the path undone): cells and
    /// blank.
    fn top(&self) -> ([u8; 64], usize) {
        let (mut cells, mut blank) = (self.cells, self.blank);
        for mv in self.path().iter().rev() {
            let from = usize::from(self.neighbours[blank][mv.reverse().index()]);
            cells[blank] = cells[from];
            cells[from] = 0;
            blank = from;
        }
        (cells, blank)
    }

    /// The moves not yet tried at the node `depth` moves down the path, each as the path to the
    /// child it leads to (in move indices) and the pruning automaton's state there; blocked
    /// moves are left out. See [`Core::give_away`].
    fn untried(&self, depth: usize) -> Vec<(Vec<u8>, u32)> {
        let left = self.next[depth];
        (0..Move::ALL.len())
            .filter_map(|index| {
                let state = self.pruning.next(self.states[depth], Move::ALL[index]);
                (left >> index & 1 == 1).then(|| {
                    let mut path: Vec<u8> = self.path[..depth]
                        .iter()
                        .map(|mv| mv.index() as u8)
                        .collect();
                    path.push(index as u8);
                    (path, state)
                })
            })
            .collect()
    }

    /// Leaves the moves not yet tried at depth `depth` to others: this search skips them.
    fn give_away(&mut self, depth: usize) {
        self.next[depth] = 0;
    }

    /// Starts the next iteration at the root, whose bound the last one found.
    fn next_iteration(&mut self) {
        assert!(
            self.next_bound != u32::MAX,
            "IDA* exhausted a connected space without reaching the target"
        );
        self.bound = self.next_bound;
        self.next_bound = u32::MAX;
        self.next[0] = self.pruning.allowed(self.states[0]);
        self.stats.iterations += 1;
        self.reserve();
    }

    /// The depth-first search of the module docs, from wherever the last call stopped.
    fn run<H: Heuristic>(
        &mut self,
        heuristic: &mut H,
        stop: &Stop,
        slice_end: Option<Instant>,
    ) -> Result<Step, Stopped> {
        let mut poll = stop.next_poll(self.stats.nodes);
        if self.found {
            return Ok(Step::Found(self.path().to_vec()));
        }
        loop {
            let depth = self.depth;
            let left = self.next[depth];
            if left == 0 {
                // Every move from this node tried: back up, or end the iteration at the root.
                if depth == 0 {
                    if self.one_iteration {
                        return Ok(Step::Exhausted);
                    }
                    self.next_iteration();
                    continue;
                }
                self.depth -= 1;
                let last = self.path[self.depth];
                let to = self.blank;
                let from = usize::from(self.neighbours[to][last.reverse().index()]);
                let tile = self.cells[from];
                self.cells[to] = tile;
                self.cells[from] = 0;
                self.blank = from;
                heuristic.leave(&self.cells, tile, from, to, last.index());
                continue;
            }
            self.next[depth] = left & (left - 1);
            let index = left.trailing_zeros() as usize & 3;
            let from = self.blank;
            let to = usize::from(self.neighbours[from][index]);
            let tile = self.cells[to];
            if H::READS_BOARD {
                self.cells[from] = tile;
                self.cells[to] = 0;
            }
            self.stats.nodes += 1;
            // A node on the path has `g + h <= bound` and `h >= 1`, so its children's
            // `g <= bound`.
            let g = depth as u32 + 1;
            match heuristic.enter(&self.cells, tile, from, to, index, self.bound - g) {
                Err(h) => {
                    self.next_bound = self.next_bound.min(g + h);
                    if H::READS_BOARD {
                        self.cells[to] = tile;
                        self.cells[from] = 0;
                    }
                }
                Ok(h) => {
                    if !H::READS_BOARD {
                        self.cells[from] = tile;
                        self.cells[to] = 0;
                    }
                    let mv = Move::ALL[index];
                    let (state, allowed) = self.pruning.step(self.states[depth], index);
                    self.blank = to;
                    self.path[depth] = mv;
                    self.states[depth + 1] = state;
                    self.depth = depth + 1;
                    if h == 0 {
                        self.found = true;
                        return Ok(Step::Found(self.path().to_vec()));
                    }
                    // The children's reads miss the caches: start them all now, for the moves
                    // the node allows, which came with its state from the parent's row (when
                    // they waited for the node's own row, asking for every child on the board
                    // was faster). Its own row is read only when a child passes.
                    let mut onward = allowed;
                    while onward != 0 {
                        let i = onward.trailing_zeros() as usize & 3;
                        onward &= onward - 1;
                        let next = self.neighbours[to][i];
                        heuristic.prefetch(self.cells[usize::from(next)], i);
                    }
                    self.pruning.prefetch(state);
                    self.next[depth + 1] = allowed;
                }
            }
            if self.stats.nodes >= poll {
                if let Some(reason) = stop.check(self.stats.nodes) {
                    return Err(Stopped {
                        reason,
                        stats: self.stats,
                    });
                }
                poll = stop.next_poll(self.stats.nodes);
                if slice_end.is_some_and(|end| Instant::now() >= end)
                    || self
                        .wanted
                        .as_ref()
                        .is_some_and(|wanted| wanted.load(Ordering::Relaxed))
                {
                    return Ok(Step::Suspended);
                }
            }
        }
    }
}

impl GridSearch {
    /// A search from `start` to `target` guided by Manhattan distance plus linear conflicts
    /// (nothing runs yet), or `None` when `target` is of another shape or cannot be reached
    /// (see [`GridBoard::can_reach`]).
    #[must_use]
    pub fn new(start: &GridBoard, target: &GridBoard) -> Option<Self> {
        if !start.can_reach(target) {
            return None;
        }
        let conflicts = Conflicts::new(start.grid(), target.cells(), start.cells());
        Some(Self {
            core: Core::new(start, conflicts.value()),
            estimate: Estimate::Conflicts(Box::new(conflicts)),
            target: target.clone(),
            member: None,
            race: None,
            floor: 0,
        })
    }

    /// A search from `start` to `target` guided by the pattern databases `dbs` (the larger of
    /// their sum and its reflection), or `None` when `target` cannot be reached or `dbs` does not
    /// [`fit`](GridDatabases::fits) it (another shape, or another blank cell).
    #[must_use]
    pub fn with_databases(
        start: &GridBoard,
        target: &GridBoard,
        dbs: Arc<GridDatabases>,
    ) -> Option<Self> {
        if !start.can_reach(target) {
            return None;
        }
        let lookup = Lookup::new(&dbs, target, start.cells())?;
        Some(Self {
            core: Core::new(start, lookup.value()),
            estimate: Estimate::Databases(Box::new(Databases { dbs, lookup })),
            target: target.clone(),
            member: None,
            race: None,
            floor: 0,
        })
    }

    /// A search from `start` to `target` guided by whichever of `sets` prunes the most for this
    /// board: they race through the first iterations (`grid_ida/race.rs`), and the winner goes
    /// on alone, with the same answer as any of them alone; `None` when `target` cannot be
    /// reached or none of `sets` fits it (sets that do not fit are left out). With one set that
    /// fits, the same as [`with_databases`](Self::with_databases).
    #[must_use]
    pub fn with_rival_databases(
        start: &GridBoard,
        target: &GridBoard,
        sets: &[Arc<GridDatabases>],
    ) -> Option<Self> {
        let mut fitting = sets
            .iter()
            .filter_map(|dbs| Self::with_databases(start, target, Arc::clone(dbs)));
        let mut search = fitting.next()?;
        let others: Vec<_> = fitting.map(|rival| (rival.core, rival.estimate)).collect();
        if !others.is_empty() {
            let own = (search.core.clone(), search.estimate.clone());
            search.race = Some(Box::new(race::Race::new(own, others)));
        }
        Some(search)
    }

    /// The same search with `pruning` skipping the duplicate move strings it knows (by default
    /// only a move's reverse is skipped); the answer is the same, found sooner.
    ///
    /// # Panics
    /// When `pruning` was built for another shape or move order than [`Move::ALL`], or the
    /// search has already run.
    #[must_use]
    pub fn with_pruning(mut self, pruning: Arc<MovePruning>) -> Self {
        assert!(
            pruning.grid() == self.core.pruning.grid() && pruning.order() == Move::ALL,
            "move pruning built for {} in order {:?} on a {} search",
            pruning.grid(),
            pruning.order(),
            self.core.pruning.grid()
        );
        assert!(self.core.stats.nodes == 0, "the search has already run");
        assert!(self.member.is_none(), "the search is already split");
        if let Some(race) = &mut self.race {
            race.set_pruning(&pruning);
        }
        self.core.pruning = pruning;
        self
    }

    /// The name of the method, for answers and metrics: `ida-manhattan-lc` (Manhattan distance
    /// plus linear conflicts) or `ida-pdb` (pattern databases).
    #[must_use]
    pub fn method(&self) -> &'static str {
        match self.estimate {
            Estimate::Conflicts(_) => "ida-manhattan-lc",
            Estimate::Databases(_) => "ida-pdb",
        }
    }

    /// A lower bound on the optimal length, proven by the iterations done (the heuristic's value
    /// before any); the optimal length itself once found.
    #[must_use]
    pub fn bound(&self) -> u32 {
        let bound = match (&self.member, &self.race) {
            (Some(member), _) => member.bound(),
            (None, Some(race)) => race.bound(),
            (None, None) => self.core.bound,
        };
        bound.max(self.floor)
    }

    /// Whether its sets of databases still race (`grid_ida/race.rs`): for benchmarks that time
    /// the race apart.
    #[must_use]
    pub fn racing(&self) -> bool {
        self.race.is_some()
    }

    /// The pattern databases guiding the search: the race's winner once it is decided (the
    /// first set while it runs), `None` for Manhattan distance and linear conflicts. For
    /// benchmarks that report which raced set won.
    #[must_use]
    pub fn databases(&self) -> Option<&Arc<GridDatabases>> {
        match &self.estimate {
            Estimate::Databases(databases) => Some(&databases.dbs),
            Estimate::Conflicts(_) => None,
        }
    }

    /// The work done so far (by the whole team, once split).
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        match (&self.member, &self.race) {
            (Some(member), _) => member.stats(),
            (None, Some(race)) => race.stats(),
            (None, None) => self.core.stats,
        }
    }

    /// A helper that works on this search from another thread, each in slices: the first call
    /// splits the search (it goes on where it is), and each call adds one more helper. The
    /// answer is the one this search alone would give (see `grid_ida/team.rs`); it comes from this
    /// search's [`run`](Self::run), and [`Helper::run`] only works. Helpers poll the `stop` of
    /// this search's last [`run`](Self::run); a node budget is checked by each against the
    /// team's count at the start of its slice, so a team may overshoot it by a slice per helper.
    ///
    /// While its sets of databases race, a helper searches rivals beside this search (each
    /// thread one rival at a time) and joins the winner's team once the race is decided.
    ///
    /// `None` when the search is over (its answer found).
    #[must_use]
    pub fn helper(&mut self) -> Option<Helper> {
        if let Some(race) = &self.race {
            return Some(Helper(Work::Race(race.helper())));
        }
        if self.core.found || self.member.as_ref().is_some_and(|member| member.is_over()) {
            return None;
        }
        Some(Helper(Work::Team(Box::new(self.lead().join()))))
    }

    /// This search's place in its team, the team made on first use from where the search is.
    fn lead(&mut self) -> &mut team::Member {
        self.member.get_or_insert_with(|| {
            let core = self.core.clone();
            let root = core.top();
            Box::new(team::Member::lead(
                core,
                self.estimate.clone(),
                root,
                self.target.clone(),
            ))
        })
    }

    /// Searches until the answer is found (`Ok(Found)`), `stop` fires (`Err`), or the first poll
    /// after `slice_end` (`Ok(Suspended)`: call again to go on).
    ///
    /// # Errors
    /// [`Stopped`] when `stop` fires; the search can still be resumed with a new `stop`.
    pub fn run(&mut self, stop: &Stop, slice_end: Option<Instant>) -> Result<Slice, Stopped> {
        if let Some(race) = &mut self.race {
            match race.run(stop, slice_end)? {
                race::Outcome::Suspended => return Ok(Slice::Suspended),
                race::Outcome::Decided => {
                    let race = self.race.take().expect("a race under way");
                    let (proven, helpers) = race.finish(&mut self.core, &mut self.estimate);
                    self.floor = proven;
                    // The race's helpers go on in the winner's team.
                    let joins = if helpers > 0 && !self.core.found {
                        let lead = self.lead();
                        (0..helpers).map(|_| lead.join()).collect()
                    } else {
                        Vec::new()
                    };
                    race.hand_over(joins);
                }
            }
        }
        if let Some(member) = &mut self.member {
            return member.run_lead(stop, slice_end);
        }
        Ok(match self.estimate.run(&mut self.core, stop, slice_end)? {
            Step::Found(moves) => Slice::Found(moves),
            Step::Suspended => Slice::Suspended,
            Step::Exhausted => unreachable!("a whole search goes on to its next iteration"),
        })
    }
}

/// One more worker on a split [`GridSearch`], for another thread.
#[derive(Debug)]
pub struct Helper(Work);

/// What a helper works on.
#[derive(Debug)]
enum Work {
    /// The search's race, until it is decided.
    Race(race::RaceHelper),
    /// A share of the search's iterations.
    Team(Box<team::Member>),
}

impl Helper {
    /// Works on the search until the first poll after `slice_end`, or until nothing is left to
    /// do for it: `true` once the search is over (answered, stopped, or dropped), and this
    /// helper can go.
    pub fn run(&mut self, slice_end: Instant) -> bool {
        if let Work::Race(racing) = &mut self.0 {
            match racing.run(slice_end) {
                race::Help::Working => return false,
                race::Help::Over => return true,
                race::Help::Join(member) => self.0 = Work::Team(member),
            }
        }
        match &mut self.0 {
            Work::Team(member) => member.run_helper(slice_end),
            Work::Race(_) => unreachable!("a helper that joined its team"),
        }
    }

    /// Units this helper's team handed to helpers (0 while it races).
    #[cfg(test)]
    fn helped(&self) -> u64 {
        match &self.0 {
            Work::Race(_) => 0,
            Work::Team(member) => member.helped(),
        }
    }

    /// Whether the search is over, so this helper has nothing more to do.
    #[must_use]
    pub fn is_over(&self) -> bool {
        match &self.0 {
            Work::Race(racing) => racing.is_over(),
            Work::Team(member) => member.is_over(),
        }
    }
}

/// Solves `start` → `target` optimally in one go, with the shape's move pruning from `pruning`
/// ([`fsm::longest_for`]).
///
/// # Errors
/// [`Stopped`] when `stop` fires first.
///
/// # Panics
/// When `target` cannot be reached from `start`: check [`GridBoard::can_reach`] first.
pub fn solve(
    start: &GridBoard,
    target: &GridBoard,
    pruning: &PruningTables,
    stop: &Stop,
) -> Result<Vec<Move>, Stopped> {
    let search = GridSearch::new(start, target).expect("the target is reachable");
    finish(search, pruning, stop)
}

/// Solves `start` → `target` optimally in one go, guided by the pattern databases `dbs`, with
/// the shape's move pruning from `pruning`.
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
    dbs: &Arc<GridDatabases>,
    pruning: &PruningTables,
    stop: &Stop,
) -> Result<Vec<Move>, Stopped> {
    let search = GridSearch::with_databases(start, target, Arc::clone(dbs))
        .expect("the target is reachable and the databases fit it");
    finish(search, pruning, stop)
}

fn finish(search: GridSearch, pruning: &PruningTables, stop: &Stop) -> Result<Vec<Move>, Stopped> {
    let grid = search.core.pruning.grid();
    let mut search = search.with_pruning(pruning.get(grid, Move::ALL, fsm::longest_for(grid)));
    match search.run(stop, None)? {
        Slice::Found(moves) => Ok(moves),
        Slice::Suspended => unreachable!("a search without a slice end is never suspended"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::board::format_moves;

    #[test]
    fn a_short_board_is_solved_and_replays() {
        let grid = Grid::new(3, 4).unwrap();
        let goal = GridBoard::goal(grid);
        let start = goal
            .replay(&crate::tiles::board::parse_moves("uullddrurd").unwrap())
            .unwrap();
        let moves = solve(&start, &goal, &PruningTables::new(), &Stop::never()).unwrap();
        assert_eq!(start.replay(&moves).unwrap(), goal);
        assert!(moves.len() <= 10);
        assert_eq!(
            solve(&goal, &goal, &PruningTables::new(), &Stop::never()).unwrap(),
            vec![]
        );
        let _ = format_moves(&moves);
    }

    /// Pruning the duplicate strings changes how many boards are searched, never the answer:
    /// random boards of several shapes towards random targets.
    #[test]
    fn move_pruning_keeps_the_answer_and_saves_nodes() {
        let tables = PruningTables::new();
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut plain_nodes, mut pruned_nodes) = (0, 0);
        for (rows, cols) in [(2, 4), (3, 3), (3, 4), (4, 3), (2, 6), (4, 4), (3, 5)] {
            let grid = Grid::new(rows, cols).unwrap();
            let pruning = tables.get(grid, Move::ALL, fsm::longest_for(grid));
            for _ in 0..6 {
                let walk = |from: GridBoard, next: &mut dyn FnMut() -> u64| {
                    (0..300).fold(from, |board, _| {
                        board
                            .apply(Move::ALL[(next() % 4) as usize])
                            .unwrap_or(board)
                    })
                };
                let target = walk(GridBoard::goal(grid), &mut next);
                let start = walk(target.clone(), &mut next);
                let mut plain = GridSearch::new(&start, &target).unwrap();
                let mut pruned = GridSearch::new(&start, &target)
                    .unwrap()
                    .with_pruning(Arc::clone(&pruning));
                let (Ok(Slice::Found(a)), Ok(Slice::Found(b))) = (
                    plain.run(&Stop::never(), None),
                    pruned.run(&Stop::never(), None),
                ) else {
                    unreachable!("no stop, no slice end")
                };
                assert_eq!(a, b, "{start} to {target}");
                assert!(pruned.stats().nodes <= plain.stats().nodes);
                plain_nodes += plain.stats().nodes;
                pruned_nodes += pruned.stats().nodes;
            }
        }
        assert!(
            pruned_nodes < plain_nodes * 9 / 10,
            "{pruned_nodes} of {plain_nodes}"
        );
    }

    /// The 24-puzzle's longer automaton (14 moves) keeps every answer the default one (12)
    /// gives, with no more nodes: boards 80 random moves from random targets.
    #[test]
    fn the_24_puzzles_longer_automaton_keeps_the_answers() {
        let grid = Grid::new(5, 5).unwrap();
        assert!(fsm::longest_for(grid) > fsm::DEFAULT_LONGEST);
        let tables = PruningTables::new();
        let short = tables.get(grid, Move::ALL, fsm::DEFAULT_LONGEST);
        let long = tables.get(grid, Move::ALL, fsm::longest_for(grid));
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let (mut short_nodes, mut long_nodes) = (0, 0);
        for _ in 0..8 {
            let walk = |from: GridBoard, steps: usize, next: &mut dyn FnMut() -> u64| {
                (0..steps).fold(from, |board, _| {
                    board
                        .apply(Move::ALL[(next() % 4) as usize])
                        .unwrap_or(board)
                })
            };
            let target = walk(GridBoard::goal(grid), 300, &mut next);
            let start = walk(target.clone(), 80, &mut next);
            let search = |pruning: &Arc<MovePruning>| {
                let mut search = GridSearch::new(&start, &target)
                    .unwrap()
                    .with_pruning(Arc::clone(pruning));
                let Ok(Slice::Found(moves)) = search.run(&Stop::never(), None) else {
                    unreachable!("no stop, no slice end")
                };
                (moves, search.stats().nodes)
            };
            let (a, short_searched) = search(&short);
            let (b, long_searched) = search(&long);
            assert_eq!(a, b, "{start} to {target}");
            assert!(long_searched <= short_searched, "{start} to {target}");
            short_nodes += short_searched;
            long_nodes += long_searched;
        }
        assert!(long_nodes < short_nodes, "{long_nodes} of {short_nodes}");
    }

    #[test]
    #[should_panic(expected = "move pruning built for 3x4")]
    fn pruning_of_another_shape_is_refused() {
        let start = GridBoard::goal(Grid::new(4, 3).unwrap());
        let pruning = Arc::new(MovePruning::build(Grid::new(3, 4).unwrap(), Move::ALL, 4));
        let _ = GridSearch::new(&start, &start)
            .unwrap()
            .with_pruning(pruning);
    }

    #[test]
    fn unreachable_targets_are_refused() {
        let grid = Grid::new(2, 2).unwrap();
        let swapped = GridBoard::new(grid, &[2u8, 1, 3, 0]).unwrap();
        assert!(GridSearch::new(&swapped, &GridBoard::goal(grid)).is_none());
    }

    #[test]
    fn slices_and_stops_give_the_one_go_answer() {
        let grid = Grid::new(3, 4).unwrap();
        let start = GridBoard::new(grid, &[5u8, 1, 3, 4, 9, 2, 7, 8, 0, 6, 10, 11]).unwrap();
        let goal = GridBoard::goal(grid);
        let whole = solve(&start, &goal, &PruningTables::new(), &Stop::never()).unwrap();
        let mut search = GridSearch::new(&start, &goal).unwrap();
        let mut rounds = 0;
        let answer = loop {
            rounds += 1;
            // A node budget that fires every few polls, then a fresh one: resumable.
            let stop = Stop::never().with_node_budget(search.stats().nodes + 3_000);
            match search.run(&stop, Some(Instant::now())) {
                Ok(Slice::Found(moves)) => break moves,
                Ok(Slice::Suspended) | Err(_) => {}
            }
        };
        assert_eq!(answer, whole);
        assert!(rounds > 1 || whole.len() < 10);
    }

    /// Boards of `grid` a random walk of `steps` moves from a random target, and the target.
    fn walked_pair(
        grid: Grid,
        steps: usize,
        next: &mut dyn FnMut() -> u64,
    ) -> (GridBoard, GridBoard) {
        let walk = |from: GridBoard, next: &mut dyn FnMut() -> u64| {
            (0..steps).fold(from, |board, _| {
                board
                    .apply(Move::ALL[(next() % 4) as usize])
                    .unwrap_or(board)
            })
        };
        let target = walk(GridBoard::goal(grid), next);
        (walk(target.clone(), next), target)
    }

    /// A search from `start` to `target` with the move pruning `pruning`.
    fn pruned(start: &GridBoard, target: &GridBoard, pruning: &Arc<MovePruning>) -> GridSearch {
        GridSearch::new(start, target)
            .unwrap()
            .with_pruning(Arc::clone(pruning))
    }

    /// A xorshift stream from `state`: the random boards of the tests here and in `race.rs`.
    pub(super) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// The 15-puzzle's shape with its default move pruning (built in `tables`), and a random
    /// stream from `seed`: what the tests on real threads start from.
    fn four_by_four(
        tables: &PruningTables,
        seed: u64,
    ) -> (Grid, Arc<MovePruning>, impl FnMut() -> u64) {
        let grid = Grid::new(4, 4).unwrap();
        (
            grid,
            tables.get(grid, Move::ALL, fsm::longest_for(grid)),
            xorshift(seed),
        )
    }

    /// Runs `search` (after `alone` slices of its own) split among `helpers` helpers, all on this
    /// thread in turns of one poll each, and returns its answer once every helper is done.
    fn in_turns(mut search: GridSearch, alone: usize, helpers: usize) -> Vec<Move> {
        for _ in 0..alone {
            if let Ok(Slice::Found(moves)) = search.run(&Stop::never(), Some(Instant::now())) {
                return moves;
            }
        }
        let mut team: Vec<Helper> = (0..helpers).map(|_| search.helper().unwrap()).collect();
        loop {
            for helper in &mut team {
                let _ = helper.run(Instant::now());
            }
            if let Ok(Slice::Found(moves)) = search.run(&Stop::never(), Some(Instant::now())) {
                assert!(team.iter().all(Helper::is_over));
                if search.stats().nodes > 100_000 {
                    assert!(team[0].helped() > 0, "the helpers did nothing");
                }
                assert!(team.iter_mut().all(|helper| helper.run(Instant::now())));
                return moves;
            }
        }
    }

    /// A team gives the answer the search alone gives (the smallest optimal path), however many
    /// helpers and whenever it is split: random boards of several shapes towards random targets.
    #[test]
    fn a_team_finds_the_answer_of_the_search_alone() {
        let tables = PruningTables::new();
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for (rows, cols) in [(3, 4), (4, 3), (2, 6), (4, 4), (3, 5), (5, 3)] {
            let grid = Grid::new(rows, cols).unwrap();
            let pruning = tables.get(grid, Move::ALL, fsm::longest_for(grid));
            for round in 0..5 {
                let (start, target) = walked_pair(grid, 300, &mut next);
                let search = || pruned(&start, &target, &pruning);
                let alone = finish(search(), &tables, &Stop::never()).unwrap();
                let helpers = 1 + round % 3;
                let team = in_turns(search(), round % 2 * 3, helpers);
                assert_eq!(
                    format_moves(&team),
                    format_moves(&alone),
                    "{start} to {target}, {helpers} helper(s)"
                );
            }
        }
    }

    /// The same with pattern databases (and their reflection), on the 15-puzzle's board.
    #[test]
    fn a_team_with_databases_finds_the_answer_of_the_search_alone() {
        let grid = Grid::new(4, 4).unwrap();
        let partition = super::super::grid_pdb::Partition::new(
            grid,
            15,
            vec![
                vec![0, 1, 4, 5],
                vec![2, 3, 6, 7],
                vec![8, 9, 12, 13],
                vec![10, 11, 14],
            ],
        )
        .unwrap();
        let dbs = Arc::new(GridDatabases::build(partition, 2, &crate::Unpaced));
        let tables = PruningTables::new();
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let goal = GridBoard::goal(grid);
        for round in 0..6 {
            let (start, _) = walked_pair(grid, 400, &mut next);
            let search = || GridSearch::with_databases(&start, &goal, Arc::clone(&dbs)).unwrap();
            let alone = finish(search(), &tables, &Stop::never()).unwrap();
            let pruned = search().with_pruning(tables.get(grid, Move::ALL, fsm::longest_for(grid)));
            let team = in_turns(pruned, round % 2, 1 + round % 2);
            assert_eq!(format_moves(&team), format_moves(&alone), "{start}");
        }
    }

    /// On real threads, a helper takes part from another thread, and both see the search end.
    #[test]
    fn a_helper_on_another_thread_shares_the_search() {
        let tables = PruningTables::new();
        let (grid, pruning, mut next) = four_by_four(&tables, 0x1234_5678_9abc_def1);
        for _ in 0..4 {
            let (start, target) = walked_pair(grid, 300, &mut next);
            let search = || pruned(&start, &target, &pruning);
            let alone = finish(search(), &tables, &Stop::never()).unwrap();
            let mut lead = search();
            let mut helper = lead.helper().unwrap();
            let slice = std::time::Duration::from_micros(300);
            let worker = std::thread::spawn(move || {
                let mut slices = 0u64;
                while !helper.run(Instant::now() + slice) {
                    slices += 1;
                }
                slices
            });
            let moves = loop {
                if let Ok(Slice::Found(moves)) =
                    lead.run(&Stop::never(), Some(Instant::now() + slice))
                {
                    break moves;
                }
            };
            assert_eq!(moves, alone, "{start} to {target}");
            worker.join().unwrap();
        }
    }

    /// A search in a team suspends at its next poll while another member wants work, even with
    /// no slice end (so that it can give some away), and goes on to the same answer after.
    #[test]
    fn a_wanted_flag_suspends_the_search_at_its_next_poll() {
        let tables = PruningTables::new();
        let (grid, pruning, mut next) = four_by_four(&tables, 0x0dd5_eed5_1234_5678);
        let (start, target) = loop {
            let (start, target) = walked_pair(grid, 400, &mut next);
            let mut probe = pruned(&start, &target, &pruning);
            let _ = probe.run(&Stop::never(), None);
            if probe.stats().nodes > 100 * crate::stop::POLL_INTERVAL {
                break (start, target);
            }
        };
        let alone = finish(pruned(&start, &target, &pruning), &tables, &Stop::never()).unwrap();
        let mut search = pruned(&start, &target, &pruning);
        let wanted = Arc::new(AtomicBool::new(true));
        search.core.wanted = Some(Arc::clone(&wanted));
        for _ in 0..3 {
            let before = search.stats().nodes;
            assert_eq!(search.run(&Stop::never(), None), Ok(Slice::Suspended));
            assert!(search.stats().nodes - before <= 2 * crate::stop::POLL_INTERVAL);
        }
        wanted.store(false, Ordering::Relaxed);
        assert_eq!(search.run(&Stop::never(), None), Ok(Slice::Found(alone)));
    }

    /// A team stopped by its node budget reports the nodes of every member, and resumed with a
    /// new budget gives the same answer; dropping the search sends its helpers away.
    #[test]
    fn a_stopped_team_resumes_and_a_dropped_one_ends() {
        let grid = Grid::new(4, 4).unwrap();
        let start = GridBoard::new(
            grid,
            &[6u8, 1, 3, 4, 2, 0, 7, 8, 5, 10, 11, 12, 9, 13, 14, 15],
        )
        .unwrap();
        let goal = GridBoard::goal(grid);
        let alone = solve(&start, &goal, &PruningTables::new(), &Stop::never()).unwrap();
        let mut lead = GridSearch::new(&start, &goal).unwrap();
        let mut helper = lead.helper().unwrap();
        let (mut stops, mut turns) = (0, 0);
        let answer = loop {
            turns += 1;
            let _ = helper.run(Instant::now());
            let stop = Stop::never().with_node_budget(lead.stats().nodes + 5_000);
            match lead.run(&stop, Some(Instant::now())) {
                Ok(Slice::Found(moves)) => break moves,
                Ok(Slice::Suspended) => {}
                Err(stopped) => {
                    stops += 1;
                    assert_eq!(stopped.stats.nodes, lead.stats().nodes);
                    // A helper that saw the stop has left; another one comes.
                    if helper.is_over() || helper.run(Instant::now()) {
                        helper = lead.helper().unwrap();
                    }
                }
            }
            assert!(turns < 1_000_000);
        };
        assert_eq!(answer, alone);
        assert!(stops > 0 || alone.len() < 12);
        let mut lead = GridSearch::new(&start, &goal).unwrap();
        let mut helper = lead.helper().unwrap();
        let _ = lead.run(&Stop::never(), Some(Instant::now()));
        drop(lead);
        assert!(helper.is_over());
        assert!(helper.run(Instant::now()));
    }
}
