//! The sliding solver: every table the sliding searches share, and the one place that picks the
//! method for a board.
//!
//! A [`Solver`] holds the 3×3 and 4×4 tables ([`Squares`], which callers may share between
//! solvers), the complete tables of boards of at most 12 cells, the pattern databases of larger
//! boards and the move-pruning automata. Given a start and a target it answers at once (a table
//! walk), or returns one resumable [`Search`], or says which table it [`Missing`] would make the
//! answer come much faster, so that its owner, who decides what may be loaded or built and on
//! which threads, can get it and ask again. The tables never change an answer: every method gives
//! the optimal, lexicographically smallest moves (`d < l < r < u`).
//!
//! Which method serves which board:
//! * 3×3: the 8-puzzle's trees ([`eight::Tables`]), a walk of microseconds ([`Solver::is_instant`]);
//! * 4×4: IDA* with the 15-puzzle's additive pattern databases ([`Fifteen`]);
//! * at most 12 cells: the complete table of the target's class of blank cell, IDA* with
//!   Manhattan distance and linear conflicts while it is missing (milliseconds on such boards);
//! * larger: IDA* with the shape's pattern databases for the target's blank cell, which a case
//!   should wait for (without them a search may take hours), else with Manhattan distance.
//!
//! No I/O happens here: loading, building and storing tables is the owner's.

mod board;
mod search;

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, Mutex, PoisonError};

pub use board::Case;
pub use search::Search;

use super::board::{Board4, Move};
use super::bounded::BoundedSearch;
use super::eight;
use super::fifteen::Fifteen;
use super::fsm::{self, PruningTables};
use super::grid::Grid;
use super::grid_board::GridBoard;
use super::grid_ida::GridSearch;
use super::grid_pdb::GridDatabases;
use super::grid_table::{GridTable, GridTables};
use crate::pace::Pace;

/// The name answers read from a table (3×3 trees, complete tables) report as their method.
pub const TABLE_METHOD: &str = "table";

/// The 3×3 and 4×4 tables: the 8-puzzle's trees and the 15-puzzle's pattern databases. Callers
/// may share one value between solvers (tests start many servers in one process and build these
/// once); everything else a [`Solver`] holds is its own.
#[derive(Debug, Default)]
pub struct Squares {
    eight: eight::Tables,
    fifteen: Fifteen,
}

impl Squares {
    /// No table built yet: each is built on first use, or by a warm-up.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The 8-puzzle's trees.
    #[must_use]
    pub fn eight(&self) -> &eight::Tables {
        &self.eight
    }

    /// The 15-puzzle's databases, for their owner to install what it loads or builds.
    #[must_use]
    pub fn fifteen(&self) -> &Fifteen {
        &self.fifteen
    }

    /// Builds what answers on `grid` to the standard goal need (blocking: milliseconds for the
    /// 3×3 trees, seconds for the 15-puzzle's databases, on threads run under `pace`); nothing
    /// for the other shapes, whose tables are their [`Solver`]'s.
    pub fn warm_up(&self, grid: Grid, pace: &dyn Pace) {
        if grid == Grid::EIGHT {
            self.eight.warm_up();
        } else if grid == Grid::FIFTEEN {
            self.fifteen.warm_up(pace);
        }
    }

    /// Whether what [`warm_up`](Self::warm_up) builds for `grid` is here.
    #[must_use]
    pub fn is_ready(&self, grid: Grid) -> bool {
        if grid == Grid::EIGHT {
            self.eight.is_ready()
        } else if grid == Grid::FIFTEEN {
            self.fifteen.is_ready_for(&Board4::goal())
        } else {
            true
        }
    }
}

/// What a [`Solver`] lacks for a case, and could get from its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// The 15-puzzle databases for a target ([`Fifteen::missing_for`] names the sets); a 4×4
    /// search cannot start without them.
    Fifteen(Board4),
    /// The complete table of a shape's class of blank cell: the case can be searched without
    /// it meanwhile.
    Table {
        /// The shape.
        grid: Grid,
        /// The target's blank cell.
        blank: usize,
    },
    /// The pattern databases of a shape for a target's blank cell: a search without them may
    /// take hours.
    Databases {
        /// The shape.
        grid: Grid,
        /// The target's blank cell.
        blank: usize,
    },
}

impl Missing {
    /// Whether a case had better wait for what is missing than search without it.
    #[must_use]
    pub fn worth_waiting_for(&self) -> bool {
        !matches!(self, Missing::Table { .. })
    }

    /// Whether no search can start without it (the 15-puzzle's databases): a case waits for it
    /// whatever else it knows.
    #[must_use]
    pub fn is_required(&self) -> bool {
        matches!(self, Missing::Fifteen(_))
    }
}

/// Whether [`Solver::begin`] may answer that something is [`Missing`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lacking {
    /// Say what is missing when a table the solver lacks would serve the case.
    Ask,
    /// Search with what is held: the owner will not get what is missing (for now). A 4×4 case
    /// is still [`Begun::Missing`] without its databases: it has no other method.
    SearchWithout,
}

/// How an optimal answer begins.
#[derive(Debug)]
pub enum Begun {
    /// Read from a table: the answer, in microseconds.
    Answered {
        /// The optimal, lexicographically smallest moves.
        moves: Vec<Move>,
        /// How they were found ([`TABLE_METHOD`]).
        method: &'static str,
    },
    /// A search to run in slices.
    Search(Search),
    /// A table the solver lacks would serve the case: get it and begin again, or begin with
    /// [`Lacking::SearchWithout`].
    Missing(Missing),
    /// The start cannot reach the target (parity): nothing was searched.
    Unsolvable,
}

/// A bounded search made ready by [`Solver::bounded`].
#[derive(Debug)]
pub struct Bounded {
    /// The search.
    pub search: BoundedSearch,
    /// Whether it has the target's pattern databases (its answers are much shorter with them).
    pub informed: bool,
}

/// Sets of pattern databases that race one another (`grid_ida/race.rs`).
type RivalSets = Vec<Arc<GridDatabases>>;

/// Every sliding table one owner holds, and the choice of method (see the [module](self)).
#[derive(Debug, Default)]
pub struct Solver {
    squares: Arc<Squares>,
    /// The complete tables, per shape of at most 12 cells (each holding a table per class of
    /// blank cell as it is loaded or built).
    tables: Mutex<HashMap<Grid, Arc<GridTables>>>,
    /// The pattern databases, per shape and target blank cell.
    databases: Mutex<HashMap<(Grid, usize), Arc<GridDatabases>>>,
    /// Sets of other partitions that race those on each optimal case (`grid_ida/race.rs`).
    rivals: Mutex<HashMap<(Grid, usize), RivalSets>>,
    /// The move-pruning automata of the other shapes.
    pruning: PruningTables,
    /// The longest move strings those automata forbid, at most (`None`: each shape's
    /// [`fsm::longest_for`]).
    pruning_cap: Option<usize>,
}

impl Solver {
    /// A solver with the 3×3 and 4×4 tables of `squares` and no other table yet.
    #[must_use]
    pub fn new(squares: Arc<Squares>) -> Self {
        Self {
            squares,
            ..Self::default()
        }
    }

    /// The same solver with move-pruning automata of at most `longest` moves: a quicker build
    /// for more nodes (on 5×5, 12 moves build in about 0.3 s against 2 s for the default 14).
    #[must_use]
    pub fn with_move_pruning_cap(mut self, longest: usize) -> Self {
        self.pruning_cap = Some(longest);
        self
    }

    /// The longest forbidden move strings of `grid`'s automaton.
    fn longest(&self, grid: Grid) -> usize {
        let longest = fsm::longest_for(grid);
        self.pruning_cap.map_or(longest, |cap| longest.min(cap))
    }

    /// The 3×3 and 4×4 tables.
    #[must_use]
    pub fn squares(&self) -> &Arc<Squares> {
        &self.squares
    }

    /// Whether every answer on `grid` is a table walk of microseconds, no dearer than a cache
    /// look-up (the 3×3 board): such cases are batched and never cached.
    #[must_use]
    pub fn is_instant(grid: Grid) -> bool {
        grid == Grid::EIGHT
    }

    /// The name `grid`'s cases are counted under in metrics, and served under in `solver.v1`:
    /// `eight` (3×3), `fifteen` (4×4) or `sliding` (every other shape).
    #[must_use]
    pub fn label(grid: Grid) -> &'static str {
        if grid == Grid::EIGHT {
            "eight"
        } else if grid == Grid::FIFTEEN {
            "fifteen"
        } else {
            "sliding"
        }
    }

    /// Whether `grid`'s cases are best answered optimally whatever ratio is asked: the 3×3 and
    /// 4×4 boards, whose tables give the optimum within a second (a bounded search would give
    /// longer answers no sooner).
    #[must_use]
    pub fn answers_optimally(grid: Grid) -> bool {
        grid == Grid::EIGHT || grid == Grid::FIFTEEN
    }

    /// Whether `grid`'s answers come from complete tables (at most 12 cells).
    #[must_use]
    pub fn is_tabled(grid: Grid) -> bool {
        grid.cells() <= GridTable::MAX_CELLS
    }

    /// Begins the optimal answer from `start` to `target` with the method the board and the
    /// tables held call for.
    pub fn begin<B: Case>(&self, start: &B, target: &B, lacking: Lacking) -> Begun {
        B::begin(self, start, target, lacking)
    }

    /// Begins a case on another shape than 3×3 and 4×4 (see [`begin`](Self::begin)).
    fn begin_grid(&self, start: &GridBoard, target: &GridBoard, lacking: Lacking) -> Begun {
        if !start.can_reach(target) {
            return Begun::Unsolvable;
        }
        let (grid, blank) = (start.grid(), target.blank());
        if Self::is_tabled(grid) {
            if let Some(tables) = self.table(grid, blank) {
                let moves = tables
                    .get(blank)
                    .and_then(|table| table.solve(start, target).ok())
                    .expect("a held table answers every reachable target");
                return Begun::Answered {
                    moves,
                    method: TABLE_METHOD,
                };
            }
        } else if let Some(databases) = self.databases(grid, blank) {
            let mut sets = vec![databases];
            sets.extend(self.rival_databases(grid, blank));
            let search = GridSearch::with_rival_databases(start, target, &sets)
                .expect("the databases fit the target");
            return Begun::Search(self.with_pruning(search, grid));
        }
        if lacking == Lacking::Ask {
            return Begun::Missing(if Self::is_tabled(grid) {
                Missing::Table { grid, blank }
            } else {
                Missing::Databases { grid, blank }
            });
        }
        let search = GridSearch::new(start, target).expect("the target is reachable");
        Begun::Search(self.with_pruning(search, grid))
    }

    /// `search`, with `grid`'s move-pruning automaton when it is built.
    fn with_pruning(&self, search: GridSearch, grid: Grid) -> Search {
        let longest = self.longest(grid);
        if self.pruning.is_built(grid, Move::ALL, longest) {
            let pruning = self.pruning.get(grid, Move::ALL, longest);
            Search::grid(search.with_pruning(pruning), None)
        } else {
            Search::grid(search, Some(grid))
        }
    }

    /// Whether `grid`'s move-pruning automaton is built (searches without it give the same
    /// answers with more nodes).
    #[must_use]
    pub fn has_pruning(&self, grid: Grid) -> bool {
        self.pruning.is_built(grid, Move::ALL, self.longest(grid))
    }

    /// Builds `grid`'s move-pruning automaton (seconds on 5×5) under `pace`, giving the CPU back
    /// at its checkpoints when others wait.
    pub fn build_pruning(&self, grid: Grid, pace: &dyn Pace) {
        let mut turn = pace.enter();
        let _ = self
            .pruning
            .get_yielding(grid, Move::ALL, self.longest(grid), &mut || {
                turn.checkpoint();
            });
    }

    /// A bounded search from `start` to `target` within `max_ratio` of the optimum, with the
    /// target's pattern databases when they are held.
    #[must_use]
    pub fn bounded(&self, start: &GridBoard, target: &GridBoard, max_ratio: f64) -> Bounded {
        match self.databases(start.grid(), target.blank()) {
            Some(databases) => Bounded {
                search: BoundedSearch::with_databases(start, target, max_ratio, databases),
                informed: true,
            },
            None => Bounded {
                search: BoundedSearch::new(start, target, max_ratio),
                informed: false,
            },
        }
    }

    /// The complete table of `grid` for targets with the blank on `blank`, when held.
    #[must_use]
    pub fn table(&self, grid: Grid, blank: usize) -> Option<Arc<GridTables>> {
        let tables = lock(&self.tables).get(&grid).cloned()?;
        tables.get(blank).is_some().then_some(tables)
    }

    /// The complete tables of `grid` (a tabled shape), holding those loaded or built so far; an
    /// empty set the first time, whose tables build on `threads` threads.
    ///
    /// # Panics
    /// When `grid` has more than 12 cells.
    #[must_use]
    pub fn tables(&self, grid: Grid, threads: usize) -> Arc<GridTables> {
        let mut tables = lock(&self.tables);
        let entry = tables.entry(grid).or_insert_with(|| {
            Arc::new(GridTables::new(grid, threads).expect("a shape of at most 12 cells"))
        });
        Arc::clone(entry)
    }

    /// The pattern databases of `grid` for targets with the blank on `blank`, when held.
    #[must_use]
    pub fn databases(&self, grid: Grid, blank: usize) -> Option<Arc<GridDatabases>> {
        lock(&self.databases).get(&(grid, blank)).cloned()
    }

    /// The sets held beside [`databases`](Self::databases) for `grid` and `blank`, which race
    /// them on each optimal case.
    #[must_use]
    pub fn rival_databases(&self, grid: Grid, blank: usize) -> Vec<Arc<GridDatabases>> {
        lock(&self.rivals)
            .get(&(grid, blank))
            .cloned()
            .unwrap_or_default()
    }

    /// Holds `databases` (another partition's, several maximised, or other readings of them)
    /// for `grid` and `blank` from now on, to race the main set on each optimal case; `false`
    /// (and nothing changes) when a set of the same sums is held for them already.
    pub fn install_rival_databases(
        &self,
        grid: Grid,
        blank: usize,
        databases: GridDatabases,
    ) -> bool {
        let mut rivals = lock(&self.rivals);
        let held = rivals.entry((grid, blank)).or_default();
        if held.iter().any(|set| set.same_sums(&databases)) {
            return false;
        }
        held.push(Arc::new(databases));
        true
    }

    /// Holds `databases` for `grid` and `blank` from now on; `false` (and nothing changes) when
    /// a set is held for them already.
    pub fn install_databases(&self, grid: Grid, blank: usize, databases: GridDatabases) -> bool {
        match lock(&self.databases).entry((grid, blank)) {
            Entry::Vacant(slot) => {
                slot.insert(Arc::new(databases));
                true
            }
            Entry::Occupied(_) => false,
        }
    }
}

/// A lock whose holder never panics while holding it, so poisoning carries no meaning.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests;
