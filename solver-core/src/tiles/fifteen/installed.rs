//! The process-wide solver behind [`solve`]: the standard goal's databases (6-6-3, built on
//! first use, or 7-8 once installed), what is ready and what is missing, and the searches that
//! use them.

use std::sync::OnceLock;

use super::answer::{FifteenError, Solution};
use super::databases::{PatternDatabases, all_cores, for_home, home_cell};
use super::search::SlicedSearch;
use super::sets::{DatabaseSet, Partition};
use super::turn::{HOMES, STANDARD_HOME, Turn};
use crate::pace::{Pace, Unpaced};
use crate::stop::Stop;
use crate::tiles::board::{Board4, Move};
use crate::tiles::fsm::{self, MovePruning};

impl DatabaseSet {
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

static PDB_663: OnceLock<PatternDatabases> = OnceLock::new();
static STRONG: OnceLock<PatternDatabases> = OnceLock::new();

/// The databases [`solve`] uses: the installed strong ones if any, else 6-6-3 (built on first
/// use).
fn active(pace: &dyn Pace) -> &'static PatternDatabases {
    STRONG.get().unwrap_or_else(|| {
        PDB_663.get_or_init(|| PatternDatabases::build_paced(Partition::P663, all_cores(), pace))
    })
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
        .map_or(Partition::P663.method(), |d| d.partition().method())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format_moves;

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
