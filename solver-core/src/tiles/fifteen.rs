//! The 15-puzzle: optimal and lexicographically smallest answers by IDA* with additive pattern
//! databases.
//!
//! The databases (6-6-3 or 7-8, Korf & Felner 2002) are built for the standard goal, blank in
//! the bottom-right cell. Every lookup also reads them for the board reflected about the main
//! diagonal with each tile renamed to the tile whose goal cell is the reflected one; that maps
//! the goal onto itself, so it is a second admissible bound, and the heuristic takes the larger.
//!
//! Any other target is brought to one of four goals by turning the board (and searching the
//! turned moves in the order that keeps the original answer lexicographically smallest) and
//! renaming tiles: a corner blank to the standard goal, a centre blank to cell 10, an edge blank
//! to cell 13 or 14. The three non-standard goals get 6-6-3-style databases of their own (the
//! same regions of goal cells, one of them a tile short), built on first use in a few seconds;
//! the centre goal is symmetric about the diagonal too and gets the reflected lookup.

use std::sync::OnceLock;
use std::time::Instant;

use super::board::{Board4, Move};
use super::fsm::{self, MovePruning};
use super::ida::{self, Heuristic};
use super::pdb::Pdb;
pub use super::storage;
use crate::pace::{Pace, Stage, Unpaced};
use crate::stop::{SearchStats, Stop, Stopped};

/// A split of the 15 tiles into disjoint patterns, one database each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Partition {
    /// 6-6-3: the left two columns of the top three rows, the right two columns of the top
    /// three rows, and the bottom row (11.5 MB; builds in seconds).
    P663,
    /// 7-8: the top two rows, and the bottom two rows (577 MB; builds in minutes, meant to be
    /// built once and stored).
    P78,
}

impl Partition {
    /// The tiles of each pattern.
    #[must_use]
    pub fn patterns(self) -> &'static [&'static [u8]] {
        match self {
            Partition::P663 => &[&[1, 2, 5, 6, 9, 10], &[3, 4, 7, 8, 11, 12], &[13, 14, 15]],
            Partition::P78 => &[&[1, 2, 3, 4, 5, 6, 7, 8], &[9, 10, 11, 12, 13, 14, 15]],
        }
    }

    /// The name answers report as their method: `"pdb-663"` or `"pdb-78"`.
    #[must_use]
    pub fn method(self) -> &'static str {
        match self {
            Partition::P663 => "pdb-663",
            Partition::P78 => "pdb-78",
        }
    }
}

/// One set of databases the 15-puzzle searches may use, built, stored and loaded as a whole.
///
/// The standard goal (blank bottom-right) has two partitions; targets whose blank turns onto
/// cell 10, 13 or 14 have a 6-6-3-style set of their own (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DatabaseSet {
    /// A partition for the standard goal.
    Standard(Partition),
    /// The 6-6-3 regions for the goal with the blank on this cell (10, 13 or 14).
    Home(u8),
}

impl DatabaseSet {
    /// Every set, smallest first: what a data directory may hold.
    pub const ALL: [DatabaseSet; 5] = [
        DatabaseSet::Standard(Partition::P663),
        DatabaseSet::Home(10),
        DatabaseSet::Home(13),
        DatabaseSet::Home(14),
        DatabaseSet::Standard(Partition::P78),
    ];

    /// The set's name in file names and logs: `pdb-663`, `pdb-78`, `pdb-663-blank10`.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            DatabaseSet::Standard(partition) => partition.method().to_owned(),
            DatabaseSet::Home(cell) => format!("pdb-663-blank{cell}"),
        }
    }

    /// The goal the set is built for.
    #[must_use]
    pub fn goal(self) -> Board4 {
        match self {
            DatabaseSet::Standard(_) => Board4::goal(),
            DatabaseSet::Home(cell) => Board4::canonical(cell as usize),
        }
    }

    /// The tiles of each of the set's databases.
    #[must_use]
    pub fn patterns(self) -> Vec<Vec<u8>> {
        match self {
            DatabaseSet::Standard(partition) => {
                partition.patterns().iter().map(|t| t.to_vec()).collect()
            }
            DatabaseSet::Home(_) => region_patterns(&self.goal()),
        }
    }

    /// The placements (table bytes) of each of the set's databases, in build order: the
    /// weights of [`Progress::fraction`](crate::Progress::fraction).
    #[must_use]
    pub fn database_sizes(self) -> Vec<u64> {
        self.patterns()
            .iter()
            .map(|tiles| super::pdb::placements(tiles.len()) as u64)
            .collect()
    }

    /// The bytes the set's tables take in memory and on disk.
    #[must_use]
    pub fn table_bytes(self) -> u64 {
        self.database_sizes().iter().sum()
    }

    /// The memory a build needs at its peak, roughly: while a database is built, the tables
    /// built before it, its own table, and three masks of blank cells per placement (a byte
    /// each for 8 tiles, two bytes for fewer tiles, which leave more than 8 cells free).
    ///
    /// ```
    /// use solver_core::fifteen::{DatabaseSet, Partition};
    /// // The 8-tile database first: its table and three one-byte masks per placement.
    /// assert_eq!(DatabaseSet::Standard(Partition::P78).build_bytes(), 4 * 518_918_400);
    /// ```
    #[must_use]
    pub fn build_bytes(self) -> u64 {
        let mut done = 0;
        let mut peak = 0;
        for (tiles, size) in self.patterns().iter().zip(self.database_sizes()) {
            let mask = if tiles.len() >= 8 { 1 } else { 2 };
            peak = peak.max(done + size * (1 + 3 * mask));
            done += size;
        }
        peak
    }

    /// Builds the set on `threads` threads run under `pace`: seconds for the 6-6-3 sets,
    /// minutes and about 2 GB of memory for 7-8.
    #[must_use]
    pub fn build(self, threads: usize, pace: &dyn Pace) -> PatternDatabases {
        match self {
            DatabaseSet::Standard(partition) => {
                PatternDatabases::build_paced(partition, threads, pace)
            }
            DatabaseSet::Home(_) => PatternDatabases::build_for_goal(self.goal(), threads, pace),
        }
    }

    /// Whether the process-wide solver has this set now.
    #[must_use]
    pub fn is_installed(self) -> bool {
        match self {
            DatabaseSet::Standard(Partition::P663) => PDB_663.get().is_some(),
            DatabaseSet::Standard(Partition::P78) => STRONG.get().is_some(),
            DatabaseSet::Home(cell) => home_cell(cell as usize).get().is_some(),
        }
    }
}

impl std::fmt::Display for DatabaseSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// An answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The moves of the blank, optimal and lexicographically smallest among the optimal.
    pub moves: Vec<Move>,
    /// The work the search did.
    pub stats: SearchStats,
    /// Which heuristic guided the search: `"pdb-78"` or `"pdb-663"` (6-6-3 regions, for
    /// targets whose blank is not in a corner too).
    pub method: &'static str,
}

/// A 15-puzzle search that ended without an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FifteenError {
    /// The stop check fired (cancelled, deadline or node budget).
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

static PDB_663: OnceLock<PatternDatabases> = OnceLock::new();
static STRONG: OnceLock<PatternDatabases> = OnceLock::new();

/// The databases [`solve`] uses: the installed strong ones if any, else 6-6-3 (built on first
/// use).
fn active(pace: &dyn Pace) -> &'static PatternDatabases {
    STRONG.get().unwrap_or_else(|| {
        PDB_663.get_or_init(|| PatternDatabases::build_paced(Partition::P663, all_cores(), pace))
    })
}

fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Gets [`solve`] ready now, so that the first search does not wait: builds the move-pruning
/// table for the standard goal (about 50 ms) and, unless strong databases are installed, the
/// 6-6-3 databases (a few seconds). [`solve`] builds what it needs on first use otherwise (the
/// pruning tables for targets with the blank in another corner, too). The build's threads
/// run under `pace`.
pub fn warm_up(pace: &dyn Pace) {
    MovePruning::get(Move::ALL, fsm::DEFAULT_LONGEST);
    active(pace);
}

/// Builds now what targets with the blank outside the bottom-right corner need, which [`solve`]
/// otherwise builds on first use: the databases for the three other goals (a few seconds each)
/// and the move-pruning tables of the turned move orders. The build's threads run under `pace`.
pub fn warm_up_any_target(pace: &dyn Pace) {
    for blank in [0, 3, 12, 5, 1, 2] {
        let turn = Turn::normalizing(blank);
        MovePruning::get(turn.order(), fsm::DEFAULT_LONGEST);
        if turn.home != STANDARD_HOME {
            for_home(turn.home, pace);
        }
    }
}

/// Whether a search towards `target` with the process-wide databases starts without building
/// anything first (databases, move-pruning tables).
#[must_use]
pub fn is_ready_for(target: &Board4) -> bool {
    let turn = Turn::normalizing(target.blank());
    let move_pruning = STRONG.get().or(PDB_663.get()).map(|d| d.move_pruning);
    let home_ready = turn.home == STANDARD_HOME || home_cell(turn.home).get().is_some();
    move_pruning.is_some_and(|longest| MovePruning::is_built(turn.order(), longest)) && home_ready
}

/// Builds what a search towards `target` needs and [`is_ready_for`] finds missing (databases,
/// move-pruning table), on threads run under `pace`.
pub fn warm_up_for(target: &Board4, pace: &dyn Pace) {
    let databases = active(pace);
    let turn = Turn::normalizing(target.blank());
    if turn.home != STANDARD_HOME {
        for_home(turn.home, pace);
    }
    MovePruning::get(turn.order(), databases.move_pruning);
}

/// Whether [`solve`] can answer without building databases first.
#[must_use]
pub fn is_ready() -> bool {
    PDB_663.get().is_some() || STRONG.get().is_some()
}

/// Gives the process-wide solver `databases` (built here or loaded from storage) in the slot of
/// their [`DatabaseSet`]: 7-8 replaces 6-6-3 for the standard goal from then on. Only the
/// first set of each kind takes effect; it returns `false` for later ones.
pub fn install(databases: PatternDatabases) -> bool {
    match databases.set() {
        DatabaseSet::Standard(Partition::P78) => STRONG.set(databases).is_ok(),
        DatabaseSet::Standard(Partition::P663) => PDB_663.set(databases).is_ok(),
        DatabaseSet::Home(cell) => home_cell(cell as usize).set(databases).is_ok(),
    }
}

/// The sets a search towards `target` needs that the process-wide solver lacks (what
/// [`warm_up_for`] would build): at most the standard 6-6-3 set, when no standard set is
/// installed, and the target's home set.
#[must_use]
pub fn missing_for(target: &Board4) -> Vec<DatabaseSet> {
    let mut missing = Vec::new();
    if STRONG.get().is_none() && PDB_663.get().is_none() {
        missing.push(DatabaseSet::Standard(Partition::P663));
    }
    let home = Turn::normalizing(target.blank()).home;
    if home != STANDARD_HOME && home_cell(home).get().is_none() {
        missing.push(DatabaseSet::Home(home as u8));
    }
    missing
}

/// The sets for targets whose blank is not in a corner (what [`warm_up_any_target`] builds).
#[must_use]
pub fn home_sets() -> Vec<DatabaseSet> {
    HOMES[1..]
        .iter()
        .map(|&home| DatabaseSet::Home(home as u8))
        .collect()
}

/// The method [`solve`] uses now: `"pdb-78"` once strong databases are installed, else
/// `"pdb-663"`.
#[must_use]
pub fn active_method() -> &'static str {
    STRONG
        .get()
        .map_or(Partition::P663.method(), |d| d.partition.method())
}

/// The optimal move sequence from `start` to `target`, lexicographically smallest among the
/// optimal ones; `Ok(None)` when the target cannot be reached (parity), without searching. Uses
/// the process-wide pattern databases.
///
/// ```no_run
/// use solver_core::{Board4, Stop, fifteen, format_moves};
/// let start: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
/// let answer = fifteen::solve(&start, &Board4::goal(), &Stop::never()).unwrap().unwrap();
/// assert_eq!(format_moves(&answer.moves), "llldrdrdr");
/// ```
///
/// # Errors
/// [`FifteenError::Stopped`] when `stop` fires before the answer is found.
pub fn solve(
    start: &Board4,
    target: &Board4,
    stop: &Stop,
) -> Result<Option<Solution>, FifteenError> {
    active(&Unpaced).solve(start, target, stop)
}

/// As [`solve`], with the process-wide databases, as a search that runs in time slices; `None`
/// when the target cannot be reached. Databases missing for this target are built first, on
/// threads run under `pace`.
#[must_use]
pub fn sliced(start: &Board4, target: &Board4, pace: &dyn Pace) -> Option<SlicedSearch<'static>> {
    active(pace).sliced(start, target, pace)
}

/// As [`solve`], splitting the largest iterations over `threads` threads; the same answer.
///
/// # Errors
/// [`FifteenError::Stopped`] when `stop` fires before the answer is found.
pub fn solve_parallel(
    start: &Board4,
    target: &Board4,
    stop: &Stop,
    threads: usize,
) -> Result<Option<Solution>, FifteenError> {
    active(&Unpaced).solve_parallel(start, target, stop, threads)
}

/// A set of additive pattern databases that a caller owns (the process-wide one serves
/// [`solve`]).
#[derive(Debug)]
pub struct PatternDatabases {
    heuristic: Additive,
    partition: Partition,
    /// The goal the databases were built for (the standard one but for [`for_home`]'s).
    goal: Board4,
    /// The longest duplicate move strings the searches prune.
    move_pruning: usize,
}

impl PatternDatabases {
    /// Builds the databases of `partition` on all cores: seconds for 6-6-3; minutes and about
    /// 2 GB of memory for 7-8.
    #[must_use]
    pub fn build(partition: Partition) -> Self {
        Self::build_on(partition, all_cores())
    }

    /// As [`build`](Self::build), on `threads` threads (a server building in the background
    /// may want to leave cores to its searches).
    #[must_use]
    pub fn build_on(partition: Partition, threads: usize) -> Self {
        Self::build_paced(partition, threads, &Unpaced)
    }

    /// As [`build_on`](Self::build_on), each thread running under `pace`.
    #[must_use]
    pub fn build_paced(partition: Partition, threads: usize, pace: &dyn Pace) -> Self {
        let pdbs = build_each(
            &DatabaseSet::Standard(partition).patterns(),
            &Board4::goal(),
            threads,
            pace,
        );
        Self::from_pdbs(pdbs, DatabaseSet::Standard(partition))
    }

    /// 6-6-3-style databases for `goal`: one per region of [`REGIONS`], holding the tiles whose
    /// goal cells lie in it.
    fn build_for_goal(goal: Board4, threads: usize, pace: &dyn Pace) -> Self {
        let pdbs = build_each(&region_patterns(&goal), &goal, threads, pace);
        Self::from_pdbs(pdbs, DatabaseSet::Home(goal.blank() as u8))
    }

    /// The partition these databases cover.
    #[must_use]
    pub fn partition(&self) -> Partition {
        self.partition
    }

    /// Which set these databases are.
    #[must_use]
    pub fn set(&self) -> DatabaseSet {
        if self.goal == Board4::goal() {
            DatabaseSet::Standard(self.partition)
        } else {
            DatabaseSet::Home(self.goal.blank() as u8)
        }
    }

    pub(crate) fn from_pdbs(pdbs: Vec<Pdb>, set: DatabaseSet) -> Self {
        let goal = set.goal();
        let partition = match set {
            DatabaseSet::Standard(partition) => partition,
            DatabaseSet::Home(_) => Partition::P663,
        };
        Self {
            heuristic: Additive::new(pdbs, &goal),
            partition,
            goal,
            move_pruning: fsm::DEFAULT_LONGEST,
        }
    }

    /// Sets the longest move strings the searches look for as duplicates to prune: 2 prunes
    /// only a move followed by its reverse, 0 nothing; the default is 12 and at most 16 count.
    /// Answers are the same for every setting (only the work differs); this is for measuring.
    #[must_use]
    pub fn with_move_pruning(mut self, longest: usize) -> Self {
        self.move_pruning = longest.min(fsm::MAX_LONGEST);
        self
    }

    pub(crate) fn pdbs(&self) -> &[Pdb] {
        &self.heuristic.pdbs
    }

    /// As [`solve`], with these databases.
    ///
    /// # Errors
    /// [`FifteenError::Stopped`] when `stop` fires before the answer is found.
    pub fn solve(
        &self,
        start: &Board4,
        target: &Board4,
        stop: &Stop,
    ) -> Result<Option<Solution>, FifteenError> {
        self.solve_parallel(start, target, stop, 1)
    }

    /// As [`solve`](Self::solve), splitting the last, largest iterations of the search over
    /// `threads` threads. The answer is the same for every number of threads.
    ///
    /// # Errors
    /// [`FifteenError::Stopped`] when `stop` fires before the answer is found.
    pub fn solve_parallel(
        &self,
        start: &Board4,
        target: &Board4,
        stop: &Stop,
        threads: usize,
    ) -> Result<Option<Solution>, FifteenError> {
        let Some(search) = self.prepare(start, target, &Unpaced) else {
            return Ok(None);
        };
        let (moves, stats) = ida::search(
            &search.databases.heuristic,
            search.cells,
            search.pruning,
            stop,
            threads,
        )?;
        let moves = moves
            .into_iter()
            .map(|m| search.turn.undo_move(m))
            .collect();
        Ok(Some(Solution {
            moves,
            stats,
            method: search.databases.partition.method(),
        }))
    }

    /// As [`solve`](Self::solve), as a search that runs in time slices ([`SlicedSearch::run`]);
    /// `None` when the target cannot be reached (parity). Building what the target needs
    /// (pruning tables; databases for a non-corner blank) happens here, on first use, on
    /// threads run under `pace`.
    #[must_use]
    pub fn sliced(
        &self,
        start: &Board4,
        target: &Board4,
        pace: &dyn Pace,
    ) -> Option<SlicedSearch<'_>> {
        let prepared = self.prepare(start, target, pace)?;
        Some(SlicedSearch {
            search: ida::Sliced::new(&prepared.databases.heuristic, prepared.cells),
            prepared,
        })
    }

    /// What a search from `start` to `target` runs on: the databases for the target's blank,
    /// the turned move order's pruning, the turn and the renamed start; `None` on parity.
    fn prepare(&self, start: &Board4, target: &Board4, pace: &dyn Pace) -> Option<Prepared<'_>> {
        if !start.can_reach(target) {
            return None;
        }
        let turn = Turn::normalizing(target.blank());
        let databases = if turn.home == STANDARD_HOME {
            self
        } else {
            for_home(turn.home, pace)
        };
        let (start, target) = (turn.apply(start), turn.apply(target));
        // Rename tiles so that the turned target is the databases' goal.
        let mut rename = [0u8; 16];
        for (&tile, &goal_tile) in target.cells().iter().zip(databases.goal.cells()) {
            rename[tile as usize] = goal_tile;
        }
        Some(Prepared {
            databases,
            pruning: MovePruning::get(turn.order(), self.move_pruning),
            turn,
            cells: cells_of(&start.relabel(&rename)),
        })
    }
}

/// A search made ready by [`PatternDatabases::prepare`].
#[derive(Debug)]
struct Prepared<'a> {
    databases: &'a PatternDatabases,
    pruning: &'static MovePruning,
    turn: Turn,
    cells: [u8; 16],
}

/// A 15-puzzle search that runs in time slices, for callers that share threads between many
/// searches (the server's scheduler): each [`run`](Self::run) goes on where the last stopped.
/// Suspended, it holds a path of at most 80 moves and a few counters. The answer is the one
/// [`solve`] gives.
#[derive(Debug)]
pub struct SlicedSearch<'a> {
    prepared: Prepared<'a>,
    search: ida::Sliced<AdditiveState>,
}

impl SlicedSearch<'_> {
    /// A proven lower bound on the optimal length: the bound of the iteration the search is in
    /// (every shorter one was searched in full). Before the first slice it is the heuristic's
    /// estimate of the start.
    #[must_use]
    pub fn lower_bound(&self) -> u32 {
        self.search.bound()
    }

    /// The work done so far.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.search.stats()
    }

    /// Searches until the answer is found (`Some(Ok)`), `stop` fires (`Some(Err)`), or the
    /// slice ends: the first poll (at most [`POLL_INTERVAL`](crate::stop::POLL_INTERVAL) nodes)
    /// after `slice_end` returns `None`, and the next call resumes.
    ///
    /// # Errors
    /// [`FifteenError::Stopped`] when `stop` fires before the answer is found.
    pub fn run(
        &mut self,
        stop: &Stop,
        slice_end: Instant,
    ) -> Option<Result<Solution, FifteenError>> {
        let prepared = &self.prepared;
        let result = self.search.run(
            &prepared.databases.heuristic,
            prepared.pruning,
            stop,
            slice_end,
        )?;
        Some(match result {
            Ok((moves, stats)) => Ok(Solution {
                moves: moves
                    .into_iter()
                    .map(|m| prepared.turn.undo_move(m))
                    .collect(),
                stats,
                method: prepared.databases.partition.method(),
            }),
            Err(stopped) => Err(stopped.into()),
        })
    }
}

/// Where the databases for the goal with its blank on `home` (not the standard one) are kept.
fn home_cell(home: usize) -> &'static OnceLock<PatternDatabases> {
    static BUILT: [OnceLock<PatternDatabases>; 3] = [const { OnceLock::new() }; 3];
    let index = HOMES[1..]
        .iter()
        .position(|&h| h == home)
        .expect("a non-standard home");
    &BUILT[index]
}

/// Where [`Turn::normalizing`] brings a target's blank: one cell of each class of cells under
/// the board's rotations (corners, centre cells, and two classes of edge cells).
const HOMES: [usize; 4] = [STANDARD_HOME, 10, 13, 14];
/// The standard goal's blank cell, which the main databases serve.
const STANDARD_HOME: usize = 15;

/// Goal cells grouped into the 6-6-3 regions: the left and the right two columns of the top
/// three rows, and the bottom row.
const REGIONS: [&[usize]; 3] = [
    &[0, 1, 4, 5, 8, 9],
    &[2, 3, 6, 7, 10, 11],
    &[12, 13, 14, 15],
];

/// The tiles of `goal` in each region (the blank's region has one tile fewer).
fn region_patterns(goal: &Board4) -> Vec<Vec<u8>> {
    REGIONS
        .iter()
        .map(|cells| {
            cells
                .iter()
                .map(|&c| goal.cells()[c])
                .filter(|&t| t != 0)
                .collect()
        })
        .collect()
}

/// The databases for the goal with its blank on `home` (one of [`HOMES`] but the standard one),
/// built on first use on all cores, paced by `pace`.
fn for_home(home: usize, pace: &dyn Pace) -> &'static PatternDatabases {
    home_cell(home).get_or_init(|| {
        PatternDatabases::build_for_goal(Board4::canonical(home), all_cores(), pace)
    })
}

/// Builds one database per pattern for `goal`, one after another, each telling `pace` its place
/// in the set.
fn build_each(patterns: &[Vec<u8>], goal: &Board4, threads: usize, pace: &dyn Pace) -> Vec<Pdb> {
    patterns
        .iter()
        .enumerate()
        .map(|(database, tiles)| {
            let stage = Stage {
                inner: pace,
                database,
                databases: patterns.len(),
            };
            Pdb::build_for(tiles, goal, threads.max(1), &stage)
        })
        .collect()
}

fn cells_of(board: &Board4) -> [u8; 16] {
    let mut cells = [0u8; 16];
    cells.copy_from_slice(board.cells());
    cells
}

/// A rotation of the board that carries a target's blank to one of [`HOMES`].
#[derive(Debug, Clone, Copy)]
struct Turn {
    /// `cell[c]`: where cell `c` goes.
    cell: [u8; 16],
    /// `moves[m]`: what move `m` becomes.
    moves: [Move; 4],
    /// Where the blank cell it was made for goes.
    home: usize,
}

impl Turn {
    /// The rotation taking cell `blank` to a cell of [`HOMES`]. Each class of cells under
    /// rotation holds exactly one of them, so there is exactly one.
    fn normalizing(blank: usize) -> Self {
        // Cell (r, c) goes to the returned (row, col): quarter turns clockwise.
        type Rotation = fn(usize, usize) -> (usize, usize);
        let rotations: [Rotation; 4] = [
            |r, c| (r, c),
            |r, c| (c, 3 - r),
            |r, c| (3 - r, 3 - c),
            |r, c| (3 - c, r),
        ];
        let (rotate, home) = rotations
            .into_iter()
            .find_map(|rotate| {
                let (r, c) = rotate(blank / 4, blank % 4);
                HOMES.contains(&(r * 4 + c)).then_some((rotate, r * 4 + c))
            })
            .expect("every cell turns onto a home");
        let mut cell = [0u8; 16];
        for (c, slot) in cell.iter_mut().enumerate() {
            let (r2, c2) = rotate(c / 4, c % 4);
            *slot = (r2 * 4 + c2) as u8;
        }
        // A move from cell 5 (which has all four neighbours) shows where each direction goes.
        let moves = Move::ALL.map(|m| {
            let to = m.target(5, 4).expect("cell 5 is inside");
            let (from2, to2) = (cell[5] as usize, cell[to] as usize);
            *Move::ALL
                .iter()
                .find(|m2| m2.target(from2, 4) == Some(to2))
                .expect("rotations keep neighbours")
        });
        Self { cell, moves, home }
    }

    /// The order to search the turned moves in: the turned image of `d < l < r < u`, so that
    /// the first answer found turns back into the lexicographically smallest one.
    fn order(&self) -> [Move; 4] {
        Move::ALL.map(|m| self.moves[m.index()])
    }

    fn apply(&self, board: &Board4) -> Board4 {
        let mut cells = [0u8; 16];
        for (c, &tile) in board.cells().iter().enumerate() {
            cells[self.cell[c] as usize] = tile;
        }
        Board4::from_cells(&cells).expect("a rotation keeps a board valid")
    }

    fn undo_move(&self, turned: Move) -> Move {
        Move::ALL[self
            .moves
            .iter()
            .position(|&m| m == turned)
            .expect("moves map onto moves")]
    }
}

/// Sum of disjoint pattern databases, maxed with the same sum on the reflected board when the
/// goal is symmetric about the main diagonal.
#[derive(Debug)]
struct Additive {
    pdbs: Vec<Pdb>,
    /// For a symmetric goal: the tile whose goal cell mirrors tile `t`'s (the blank stays the
    /// blank).
    mirror_tile: Option<[u8; 16]>,
    /// Pattern and slot of each tile (index 0, the blank, unused).
    pattern_of: [u8; 16],
    slot_of: [u8; 16],
}

/// Reflection about the main diagonal: cell (r, c) ↔ (c, r).
const MIRROR_CELL: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut c = 0;
    while c < 16 {
        t[c] = ((c % 4) * 4 + c / 4) as u8;
        c += 1;
    }
    t
};

/// Per-node heuristic state: the slot cells of every pattern, for the board and its mirror
/// image, and the running sums of their database values.
#[derive(Debug, Clone, Copy)]
struct AdditiveState {
    cells: [[[u8; 8]; 4]; 2],
    values: [[u8; 4]; 2],
    sums: [u32; 2],
}

impl Additive {
    fn new(pdbs: Vec<Pdb>, goal: &Board4) -> Self {
        let mirror_tile = (MIRROR_CELL[goal.blank()] as usize == goal.blank()).then(|| {
            let positions = goal.positions();
            let mut mirror = [0u8; 16];
            for (tile, m) in mirror.iter_mut().enumerate() {
                *m = goal.cells()[MIRROR_CELL[positions[tile] as usize] as usize];
            }
            mirror
        });
        let mut pattern_of = [0u8; 16];
        let mut slot_of = [0u8; 16];
        for (p, pdb) in pdbs.iter().enumerate() {
            for (s, &tile) in pdb.tiles().iter().enumerate() {
                pattern_of[tile as usize] = p as u8;
                slot_of[tile as usize] = s as u8;
            }
        }
        Self {
            pdbs,
            mirror_tile,
            pattern_of,
            slot_of,
        }
    }

    #[inline]
    fn lookup(&self, state: &AdditiveState, side: usize, pattern: usize) -> u8 {
        let pdb = &self.pdbs[pattern];
        pdb.get(&state.cells[side][pattern][..pdb.tiles().len()])
    }

    /// Places `tile` at `cell` on side 0 and its mirror image on side 1 (if the goal has one),
    /// updating the sums. Without a mirror image, side 1's sum stays 0 and never wins the max.
    #[inline]
    fn place(&self, state: &mut AdditiveState, tile: u8, cell: u8, refresh: bool) {
        let mirrored = self
            .mirror_tile
            .map(|m| (m[tile as usize], MIRROR_CELL[cell as usize]));
        for (side, (t, c)) in [Some((tile, cell)), mirrored]
            .into_iter()
            .enumerate()
            .filter_map(|(side, placed)| placed.map(|p| (side, p)))
        {
            let (p, s) = (
                self.pattern_of[t as usize] as usize,
                self.slot_of[t as usize] as usize,
            );
            state.cells[side][p][s] = c;
            if refresh {
                let value = self.lookup(state, side, p);
                state.sums[side] =
                    state.sums[side] + u32::from(value) - u32::from(state.values[side][p]);
                state.values[side][p] = value;
            }
        }
    }
}

impl Heuristic for Additive {
    type State = AdditiveState;

    fn start(&self, cells: &[u8; 16]) -> AdditiveState {
        let mut state = AdditiveState {
            cells: [[[0; 8]; 4]; 2],
            values: [[0; 4]; 2],
            sums: [0; 2],
        };
        for (c, &tile) in cells.iter().enumerate() {
            if tile != 0 {
                self.place(&mut state, tile, c as u8, false);
            }
        }
        let sides = if self.mirror_tile.is_some() { 2 } else { 1 };
        for side in 0..sides {
            for p in 0..self.pdbs.len() {
                state.values[side][p] = self.lookup(&state, side, p);
            }
            state.sums[side] = state.values[side].iter().map(|&v| u32::from(v)).sum();
        }
        state
    }

    #[inline]
    fn moved(&self, state: &AdditiveState, tile: u8, _from: u8, to: u8) -> AdditiveState {
        let mut next = *state;
        self.place(&mut next, tile, to, true);
        next
    }

    #[inline]
    fn value(&self, state: &AdditiveState) -> u32 {
        state.sums[0].max(state.sums[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format_moves;

    #[test]
    fn mirror_maps_symmetric_goals_onto_themselves() {
        for home in HOMES {
            let goal = Board4::canonical(home);
            let additive = Additive::new(Vec::new(), &goal);
            match additive.mirror_tile {
                Some(mirror) => {
                    for (c, &t) in goal.cells().iter().enumerate() {
                        assert_eq!(goal.cells()[MIRROR_CELL[c] as usize], mirror[t as usize]);
                    }
                }
                None => assert!([13, 14].contains(&home), "home {home} has a mirror"),
            }
        }
    }

    #[test]
    fn the_standard_goal_regions_are_6_6_3() {
        let patterns = region_patterns(&Board4::goal());
        assert_eq!(patterns, Partition::P663.patterns().to_vec());
        assert_eq!(
            region_patterns(&Board4::canonical(10))
                .iter()
                .map(Vec::len)
                .collect::<Vec<_>>(),
            [6, 5, 4]
        );
    }

    #[test]
    fn turns_keep_moves_consistent() {
        let start: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
        for blank in 0..16 {
            let turn = Turn::normalizing(blank);
            assert!(HOMES.contains(&turn.home));
            assert_eq!(usize::from(turn.cell[blank]), turn.home);
            for m in Move::ALL {
                let direct = start.apply(m).map(|b| turn.apply(&b));
                let turned = turn.apply(&start).apply(turn.moves[m.index()]);
                assert_eq!(direct, turned);
                assert_eq!(turn.undo_move(turn.moves[m.index()]), m);
            }
        }
        assert_eq!(Turn::normalizing(0).home, 15);
        assert_eq!(Turn::normalizing(5).home, 10);
    }

    #[test]
    fn uva_sample() {
        let start: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
        let answer = solve(&start, &Board4::goal(), &Stop::never())
            .unwrap()
            .unwrap();
        assert_eq!(format_moves(&answer.moves), "llldrdrdr");
        let unsolvable: Board4 = "13 1 2 4 5 0 3 7 9 6 10 12 15 8 11 14".parse().unwrap();
        assert_eq!(
            solve(&unsolvable, &Board4::goal(), &Stop::never()).unwrap(),
            None
        );
    }
}
