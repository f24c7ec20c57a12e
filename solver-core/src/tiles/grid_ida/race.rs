//! Several sets of pattern databases for one board, raced through the search's first iterations
//! so that the rest of it is guided by the set that prunes the most for this board.
//!
//! No one partition of the 24-puzzle's tiles is best on every board: on Korf & Felner's 20
//! easiest instances, Clausecker's best single 6-6-6-6 partition takes from 0.5 to 3.8 times the
//! nodes of Korf & Felner's, instance by instance, and the ratio of one early iteration's nodes
//! already tells which is lower for the whole search (`korf24 --race`, README). Every set is
//! admissible, so every rival finds the same answer (the smallest optimal path): the race changes
//! the time, never the answer.
//!
//! Each rival searches one iteration at a time (its core ends at the root rather than going on to
//! the next bound), the rival with the lowest bound first. Once every rival has searched one
//! bound and one of them needed at least [`RACE_NODES`] for it (or dropped out there, past them),
//! the rival that took the least time there wins (its nodes weighed by what a node costs it: a
//! set maximising two partitions reads twice the tables; the first set on a tie); a rival whose
//! iteration is past that many nodes and past a whole iteration of another at the same bound
//! (weighed the same way) drops out at once, so a loser costs at most about the winner's time.
//! The winner goes on where it is; every rival's nodes count in the search's.
//!
//! **Both cores.** The rivals are held in a state the search shares with its helpers
//! ([`Race::helper`]): each thread takes the rival whose turn it is (the lowest bound, the first
//! on a tie) that no other thread holds, searches it for a turn and puts it back, so two threads
//! search two rivals at once (the race of the 24-puzzle's 29 views took 6.8 s of one core over
//! Korf & Felner's 20 easiest, the other core waiting). The decision is the same rule on the
//! same per-bound counts; what another thread has not finished yet it waits for. Once it is
//! decided, the search takes the winner back and each helper joins its team (`team.rs`).

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::{Core, Estimate, Step, team};
use crate::stop::{SearchStats, Stop, Stopped};

/// The nodes one bound must take before the race is decided there: about 3 ms of one core.
/// Its cost grows about eightfold with each bound it goes on, so the threshold is as low as the picks
/// allow. With the four stored sets (eleven views), Korf & Felner's 20 easiest pick the same
/// view at 60 k, 125 k, 250 k, 500 k and 1 M nodes on 18, 18, 19, 19 and 20 of them: #44's
/// pick at 125 k took 61.0 M nodes against 63.3 M, #36's 790 M against 684 M. The races of the
/// 20 took 1.35 s at 125 k against 9.7 s at 1 M (31 M nodes against 248 M; `korf24` stopped at
/// each decision, 2026-11-29). With fewer sets, deciding at 0.5, 1, 2 or 4 M nodes chose
/// wrongly only between sets within a few per cent of each other (README).
pub(super) const RACE_NODES: u64 = 125_000;

/// How close, in per cent of the leader's time, a rival must be at the deciding bound to race on
/// to the next one. On the 24-puzzle the two best views are often within a few per cent at the
/// first deciding bound and their order there is not their order over the whole search: with
/// six stored sets (29 views), Korf & Felner's #4 went to a view that took 3.71e9 nodes
/// against 3.26e9 (115.7 k against 120.6 k weighed nodes at bound 88, 1.21 M against 1.17 M at
/// bound 90), and #31 to one that took 10.10e9 against 9.59e9 (102.77 k against 102.81 k at
/// bound 87, 5.99 M against 5.84 M at bound 91; `korf24 --optimal --race`, 2026-12-02).
const CLOSE: u64 = 10;

/// The nodes at which a close race is decided all the same (about 30 ms of one core): the
/// race's next bound would cost about eight times as many. Deciding at the
/// first bound where a rival needed 8 M nodes, #4, #31 and #36 went to the view with the fewest
/// nodes over the whole search (#36: 3.89 M against 4.17 M at bound 84, where 125 k nodes chose
/// the other, which took 790 M nodes against 684 M), and #3, #26, #1, #41 and #16 to the same
/// view as at 125 k.
const CLOSE_NODES: u64 = 1_000_000;

/// What a node costs a rival whose move reads `reads` tables, in hundredths of a node that reads
/// two (a partition and its reflection). Four reads took 1.42–1.46 times as long a node on one
/// thread (`korf24 --optimal --threads 1 --add`, Korf & Felner's #38, #40, #25) but 1.54–1.60
/// times on two, where the winner goes on (#4 with its four sums chosen, against two, interleaved
/// runs of `korf24 --race B --race C`, 2026-11-29): the two threads' case counts. Replayed on
/// the per-bound node counts of the 20 easiest, 1.55 picks the four sums on #4 and #28 only.
fn node_cost(reads: usize) -> u64 {
    100 + 55 * reads.saturating_sub(2) as u64 / 2
}

/// How long one rival runs before the race looks at the nodes again.
const TURN: Duration = Duration::from_millis(2);

/// How long a helper with nothing to do in the race waits for a change before it returns (as a
/// team's hungry member does).
const IDLE_WAIT: Duration = Duration::from_millis(1);

/// The race as the search holds it: its rivals (its own first), shared with its helpers.
#[derive(Debug)]
pub(super) struct Race {
    shared: Arc<Shared>,
}

/// The race as a helper on another thread holds it.
#[derive(Debug)]
pub(super) struct RaceHelper {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    /// Signals a rival put back, the race decided, or the search's handing over.
    changed: Condvar,
}

/// Everything the threads of a race share.
#[derive(Debug)]
struct State {
    /// Per rival, the search's own first.
    rivals: Vec<Rival>,
    /// Per rival, the search's own first.
    records: Vec<Record>,
    /// The nodes that decide, [`RACE_NODES`] but in tests.
    threshold: u64,
    /// How close a rival races on past the deciding bound, [`CLOSE`] but in tests.
    close: u64,
    /// Per rival: what a node costs it ([`node_cost`]).
    costs: Vec<u64>,
    /// Rivals a thread holds for a turn.
    taken: usize,
    /// The winner, once decided (or the rival that found the answer).
    decided: Option<usize>,
    /// The stop of the search's last slice, which helpers poll too.
    stop: Stop,
    /// A helper's turn met `stop`: helpers wait for the search to report it.
    halted: bool,
    /// Helpers given out ([`Race::helper`]).
    helpers: usize,
    /// Turns that helpers took (for tests: they did work).
    helped: u64,
    /// Places in the winner's team, one for each helper, once the search has handed over.
    joins: Vec<team::Member>,
    /// Whether the search has handed over (or is gone): helpers join or leave.
    over: bool,
    /// A thread panicked during a turn ([`Held`]): the race cannot be decided by its rule, so
    /// the search panics too (the scheduler reports the case as a bug) rather than wait.
    broken: bool,
    /// For tests: the helper turn (counted by `helped`) that panics, to check [`Held`].
    #[cfg(test)]
    panic_at_turn: Option<u64>,
}

/// A rival held by a thread for a turn. If the thread unwinds during the turn (a bug), the
/// rival is never put back: this gives its place back, drops it out and marks the race broken,
/// so that [`Race::finish`] and the other threads stop waiting for it (a team's member does the
/// same with its unit).
struct Held<'a> {
    shared: &'a Shared,
    rival: usize,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut state = self.shared.lock();
            state.taken -= 1;
            state.records[self.rival].out = true;
            state.broken = true;
            self.shared.changed.notify_all();
        }
    }
}

/// A rival and what the threads need to know of it while one of them holds it.
#[derive(Debug)]
struct Rival {
    /// `None` while a thread holds it.
    search: Option<Box<(Core, Estimate)>>,
    stats: SearchStats,
    bound: u32,
    found: bool,
}

impl Rival {
    fn new(core: Core, estimate: Estimate) -> Self {
        Self {
            stats: core.stats,
            bound: core.bound,
            found: core.found,
            search: Some(Box::new((core, estimate))),
        }
    }
}

/// One rival's iterations.
#[derive(Debug, Clone, Default)]
struct Record {
    /// The bounds it searched in full and the nodes each took.
    done: Vec<(u32, u64)>,
    /// Its node count when its current iteration began.
    started: u64,
    /// Whether it dropped out.
    out: bool,
    /// The bound it dropped out at, past the threshold's nodes.
    dropped_at: Option<u32>,
}

/// How a search's slice of the race ended.
#[derive(Debug)]
pub(super) enum Outcome {
    /// The slice ended first.
    Suspended,
    /// A rival won (or found the answer): the search goes on with it alone ([`Race::finish`]).
    Decided,
}

/// How a helper's slice of the race ended.
#[derive(Debug)]
pub(super) enum Help {
    /// The race goes on (or waits for the search): call again.
    Working,
    /// The race is decided: the helper goes on in the winner's team.
    Join(Box<team::Member>),
    /// The search is over, or gone.
    Over,
}

impl Race {
    /// A race of the search's own core and estimate (rival 0) against `others`, all at their
    /// first iteration.
    pub(super) fn new(own: (Core, Estimate), others: Vec<(Core, Estimate)>) -> Self {
        let rivals: Vec<Rival> = std::iter::once(own)
            .chain(others)
            .map(|(core, estimate)| Rival::new(core, estimate))
            .collect();
        let costs = rivals
            .iter()
            .map(|rival| {
                let (_, estimate) = rival.search.as_deref().expect("held by the race");
                node_cost(estimate.reads())
            })
            .collect();
        let state = State {
            records: vec![Record::default(); rivals.len()],
            rivals,
            threshold: RACE_NODES,
            close: CLOSE,
            costs,
            taken: 0,
            decided: None,
            stop: Stop::never(),
            halted: false,
            helpers: 0,
            helped: 0,
            joins: Vec::new(),
            over: false,
            broken: false,
            #[cfg(test)]
            panic_at_turn: None,
        };
        Self {
            shared: Arc::new(Shared {
                state: Mutex::new(state),
                changed: Condvar::new(),
            }),
        }
    }

    #[cfg(test)]
    pub(super) fn with_threshold(self, nodes: u64) -> Self {
        self.shared.lock().threshold = nodes;
        self
    }

    #[cfg(test)]
    fn with_close(self, per_cent: u64) -> Self {
        self.shared.lock().close = per_cent;
        self
    }

    #[cfg(test)]
    fn state(&self) -> MutexGuard<'_, State> {
        self.shared.lock()
    }

    /// Turns that helpers took.
    #[cfg(test)]
    pub(super) fn helped(&self) -> u64 {
        self.shared.lock().helped
    }

    /// The work of every rival together.
    pub(super) fn stats(&self) -> SearchStats {
        let state = self.shared.lock();
        SearchStats {
            nodes: state.nodes(),
            iterations: state
                .rivals
                .iter()
                .map(|r| r.stats.iterations)
                .max()
                .unwrap_or(0),
        }
    }

    /// The largest bound a rival has proven: every rival is admissible, so each one's proof holds.
    pub(super) fn bound(&self) -> u32 {
        let state = self.shared.lock();
        state
            .rivals
            .iter()
            .map(|rival| rival.bound)
            .max()
            .unwrap_or(0)
    }

    /// A helper that searches rivals from another thread until the race is decided, then joins
    /// the winner's team.
    pub(super) fn helper(&self) -> RaceHelper {
        self.shared.lock().helpers += 1;
        RaceHelper {
            shared: Arc::clone(&self.shared),
        }
    }

    /// Runs the race until the slice ends (`Suspended`) or a rival wins; `stop` applies to the
    /// nodes of every rival together, and helpers poll it too.
    ///
    /// # Errors
    /// [`Stopped`] when `stop` fires (here or in a helper), with the nodes of every rival.
    pub(super) fn run(
        &mut self,
        stop: &Stop,
        slice_end: Option<Instant>,
    ) -> Result<Outcome, Stopped> {
        {
            let mut state = self.shared.lock();
            state.stop = stop.clone();
            if state.halted {
                state.halted = false;
                let stats = state.stats();
                if let Some(reason) = stop.check(stats.nodes) {
                    return Err(Stopped { reason, stats });
                }
                self.shared.changed.notify_all();
            }
        }
        self.shared.work(false, stop, slice_end)
    }

    /// Ends the race once every helper has put its rival back: the winner is swapped into `core`
    /// and `estimate` to go on alone, counting every rival's nodes as its own; returns the
    /// largest bound any rival proved and the helpers given out, each to be given a place in the
    /// winner's team ([`Race::hand_over`]).
    pub(super) fn finish(&self, core: &mut Core, estimate: &mut Estimate) -> (u32, usize) {
        let mut state = self.shared.lock();
        while state.taken > 0 {
            state = self
                .shared
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        assert!(!state.broken, "a thread panicked racing beside this search");
        let winner = state.decided.expect("a decided race");
        let proven = state
            .rivals
            .iter()
            .map(|rival| rival.bound)
            .max()
            .unwrap_or(0);
        let total = state.nodes();
        let (their_core, their_estimate) = *state.rivals[winner]
            .search
            .take()
            .expect("every rival put back");
        *core = their_core;
        *estimate = their_estimate;
        core.stats.nodes = total;
        core.one_iteration = false;
        (proven, state.helpers)
    }

    /// Gives the helpers their places in the winner's team (none when the answer is found) and
    /// lets them go.
    pub(super) fn hand_over(self, joins: Vec<team::Member>) {
        self.shared.lock().joins = joins;
        // Dropping `self` tells them.
    }

    /// Gives every rival `pruning` (as [`super::GridSearch::with_pruning`] gives the search's own).
    pub(super) fn set_pruning(&mut self, pruning: &Arc<crate::tiles::fsm::MovePruning>) {
        for rival in &mut self.shared.lock().rivals {
            if let Some(search) = &mut rival.search {
                search.0.pruning = Arc::clone(pruning);
            }
        }
    }
}

impl Drop for Race {
    fn drop(&mut self) {
        self.shared.lock().over = true;
        self.shared.changed.notify_all();
    }
}

impl RaceHelper {
    /// Searches rivals until the first poll after `slice_end`, or until the race is decided and
    /// the search hands over (`Join`) or is over (`Over`).
    pub(super) fn run(&mut self, slice_end: Instant) -> Help {
        let stop = {
            let mut state = self.shared.lock();
            if let Some(help) = state.left() {
                return help;
            }
            state.stop.clone()
        };
        let _ = self.shared.work(true, &stop, Some(slice_end));
        let mut state = self.shared.lock();
        // Decided (or waiting on the search): wait a little for its hand-over.
        let slice_end = slice_end.min(Instant::now() + IDLE_WAIT);
        while state.decided.is_some() || state.halted {
            if let Some(help) = state.left() {
                return help;
            }
            let now = Instant::now();
            if now >= slice_end {
                break;
            }
            state = self
                .shared
                .changed
                .wait_timeout(state, slice_end - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        state.left().unwrap_or(Help::Working)
    }

    /// Whether the search is over, with no place in a team for this helper.
    pub(super) fn is_over(&self) -> bool {
        let state = self.shared.lock();
        (state.over || state.broken) && state.joins.is_empty()
    }
}

impl Shared {
    /// The shared state (as it is if a thread panicked holding it).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes turns of the rivals until the slice ends or the race is decided: for the search,
    /// or for a `helper`, which leaves a stop to the search.
    fn work(
        &self,
        helper: bool,
        stop: &Stop,
        slice_end: Option<Instant>,
    ) -> Result<Outcome, Stopped> {
        let mut state = self.lock();
        loop {
            if state.broken {
                assert!(helper, "a thread panicked racing beside this search");
                return Ok(Outcome::Decided);
            }
            if state.decided.is_some() || state.over || (helper && state.halted) {
                return Ok(Outcome::Decided);
            }
            let next = (0..state.rivals.len())
                .filter(|&i| !state.records[i].out && state.rivals[i].search.is_some())
                .min_by_key(|&i| (state.rivals[i].bound, i));
            let Some(i) = next else {
                // Every rival still in is held by another thread: wait for one to come back (a
                // helper only briefly, so that its token serves other work meanwhile).
                let slice_end = match (helper, slice_end) {
                    (true, Some(end)) => Some(end.min(Instant::now() + IDLE_WAIT)),
                    _ => slice_end,
                };
                match slice_end {
                    Some(end) => {
                        let now = Instant::now();
                        if now >= end {
                            return Ok(Outcome::Suspended);
                        }
                        state = self
                            .changed
                            .wait_timeout(state, end - now)
                            .unwrap_or_else(PoisonError::into_inner)
                            .0;
                    }
                    None => {
                        state = self
                            .changed
                            .wait(state)
                            .unwrap_or_else(PoisonError::into_inner);
                    }
                }
                continue;
            };
            let (mut core, mut estimate) = *state.rivals[i].search.take().expect("not held");
            state.taken += 1;
            if helper {
                state.helped += 1;
            }
            let others = state.nodes() - state.rivals[i].stats.nodes;
            let started = state.records[i].started;
            #[cfg(test)]
            let panics = helper && state.panic_at_turn == Some(state.helped);
            drop(state);
            let held = Held {
                shared: self,
                rival: i,
            };
            #[cfg(test)]
            assert!(!panics, "the panic a test asked for");

            let turn = Instant::now() + TURN;
            let end = slice_end.map_or(turn, |end| end.min(turn));
            core.one_iteration = true;
            let step = estimate.run(&mut core, &stop.after(others), Some(end));
            let bound = core.bound;
            let nodes = core.stats.nodes;
            if matches!(step, Ok(Step::Exhausted)) {
                core.next_iteration();
            }

            drop(held);
            state = self.lock();
            state.taken -= 1;
            state.rivals[i] = Rival::new(core, estimate);
            self.changed.notify_all();
            match step {
                Err(mut stopped) => {
                    if helper {
                        state.halted = true;
                        return Ok(Outcome::Suspended);
                    }
                    stopped.stats.nodes = state.nodes();
                    return Err(stopped);
                }
                Ok(Step::Found(_)) => {
                    state.decide(i);
                    return Ok(Outcome::Decided);
                }
                Ok(Step::Exhausted) => {
                    let record = &mut state.records[i];
                    record.done.push((bound, nodes - started));
                    record.started = nodes;
                    if let Some(winner) = state.winner_at(bound) {
                        state.decide(winner);
                        return Ok(Outcome::Decided);
                    }
                }
                Ok(Step::Suspended) => {
                    if let Some(winner) = state.beaten(i, bound, nodes - started) {
                        state.decide(winner);
                        return Ok(Outcome::Decided);
                    }
                }
            }
            if slice_end.is_some_and(|end| Instant::now() >= end) {
                return Ok(Outcome::Suspended);
            }
        }
    }
}

impl State {
    /// The nodes of every rival together.
    fn nodes(&self) -> u64 {
        self.rivals.iter().map(|rival| rival.stats.nodes).sum()
    }

    fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes(),
            iterations: self
                .rivals
                .iter()
                .map(|r| r.stats.iterations)
                .max()
                .unwrap_or(0),
        }
    }

    fn decide(&mut self, winner: usize) {
        self.decided = Some(winner);
    }

    /// What a helper does now that the race is decided: join the winner's team, or leave.
    fn left(&mut self) -> Option<Help> {
        if self.broken {
            return Some(Help::Over);
        }
        if !self.over {
            return None;
        }
        Some(
            self.joins
                .pop()
                .map_or(Help::Over, |member| Help::Join(Box::new(member))),
        )
    }

    /// The nodes rival `i` took for `bound`: `Some(0)` when it skipped that bound (its own
    /// bounds went past it), `None` while it has not searched it in full.
    fn size_at(&self, i: usize, bound: u32) -> Option<u64> {
        let rival = &self.rivals[i];
        match self.records[i].done.iter().find(|(b, _)| *b == bound) {
            Some(&(_, nodes)) => Some(nodes),
            None => (rival.bound > bound || rival.found).then_some(0),
        }
    }

    /// Rival `i`, `so_far` nodes into `bound`, drops out once past the threshold and past the
    /// weighed time another rival still in took for the whole bound; returns the winner when
    /// that decides the race (one rival left, or every one left has searched the bound).
    fn beaten(&mut self, i: usize, bound: u32, so_far: u64) -> Option<usize> {
        let beaten = so_far >= self.threshold
            && (0..self.records.len()).any(|j| {
                j != i
                    && !self.records[j].out
                    && self
                        .size_at(j, bound)
                        .is_some_and(|theirs| theirs * self.costs[j] < so_far * self.costs[i])
            });
        if !beaten {
            return None;
        }
        self.records[i].out = true;
        self.records[i].dropped_at = Some(bound);
        let mut left = (0..self.records.len()).filter(|&j| !self.records[j].out);
        if let (Some(last), None) = (left.next(), left.next()) {
            return Some(last);
        }
        // Those left may all have searched this bound: it decides now.
        self.winner_at(bound)
    }

    /// The winner once every rival still in has searched `bound` and one needed at least the
    /// threshold's nodes for it (or dropped out there, past them): the least time there (nodes
    /// weighed by their cost), the first on a tie. A close race goes on: while others are within
    /// [`CLOSE`] of the leader's time and the leader needed fewer than [`CLOSE_NODES`], those
    /// others and the leader search the next bound and the rest drop out (`None`).
    fn winner_at(&mut self, bound: u32) -> Option<usize> {
        let sizes: Vec<(usize, u64)> = (0..self.records.len())
            .filter(|&i| !self.records[i].out)
            .map(|i| Some((i, self.size_at(i, bound)?)))
            .collect::<Option<_>>()?;
        let most = sizes.iter().map(|&(_, nodes)| nodes).max()?;
        let dropped = self.records.iter().any(|r| r.dropped_at == Some(bound));
        if most < self.threshold && !dropped {
            return None;
        }
        let time = |&(i, nodes): &(usize, u64)| nodes * self.costs[i];
        let &(leader, leader_nodes) = sizes
            .iter()
            .min_by_key(|&&(i, nodes)| (time(&(i, nodes)), i))
            .expect("a rival in the race");
        let best = time(&(leader, leader_nodes));
        let close: Vec<usize> = sizes
            .iter()
            .filter(|&&(i, nodes)| {
                i != leader && time(&(i, nodes)) * 100 <= best * (100 + self.close)
            })
            .map(|&(i, _)| i)
            .collect();
        if close.is_empty() || leader_nodes >= CLOSE_NODES {
            return Some(leader);
        }
        for &(i, _) in &sizes {
            if i != leader && !close.contains(&i) {
                self.records[i].out = true;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::tests::xorshift;
    use super::super::{GridSearch, Slice};
    use super::*;
    use crate::tiles::board::Move;
    use crate::tiles::fsm::{self, PruningTables};
    use crate::tiles::grid::Grid;
    use crate::tiles::grid_board::GridBoard;
    use crate::tiles::grid_pdb::{GridDatabases, Partition};

    /// Three sets for the 15-puzzle's goal: 2×2 blocks, rows, and one tile a pattern (no better
    /// than Manhattan distance).
    fn sets() -> Vec<Arc<GridDatabases>> {
        let grid = Grid::FIFTEEN;
        let blocks = vec![
            vec![0, 1, 4, 5],
            vec![2, 3, 6, 7],
            vec![8, 9, 12, 13],
            vec![10, 11, 14],
        ];
        let rows = vec![
            vec![0, 1, 2, 3],
            vec![4, 5, 6, 7],
            vec![8, 9, 10, 11],
            vec![12, 13, 14],
        ];
        let singles = (0..15).map(|cell| vec![cell]).collect();
        [blocks, rows, singles]
            .into_iter()
            .map(|patterns| {
                let partition = Partition::new(grid, 15, patterns).unwrap();
                Arc::new(GridDatabases::build(partition, 1, &crate::Unpaced))
            })
            .collect()
    }

    /// What each test starts from: the sets, the move-pruning automata, the goal, and a random
    /// stream seeded with `seed`.
    fn bench(
        seed: u64,
    ) -> (
        Vec<Arc<GridDatabases>>,
        PruningTables,
        GridBoard,
        impl FnMut() -> u64,
    ) {
        (
            sets(),
            PruningTables::new(),
            GridBoard::goal(Grid::FIFTEEN),
            xorshift(seed),
        )
    }

    /// The answer from `start` to the goal with `set` alone (and the 15-puzzle's move pruning),
    /// and its nodes.
    fn alone(
        start: &GridBoard,
        set: &Arc<GridDatabases>,
        tables: &PruningTables,
    ) -> (Vec<Move>, u64) {
        let grid = Grid::FIFTEEN;
        let mut search = GridSearch::with_databases(start, &GridBoard::goal(grid), Arc::clone(set))
            .unwrap()
            .with_pruning(tables.get(grid, Move::ALL, fsm::longest_for(grid)));
        let Ok(Slice::Found(moves)) = search.run(&Stop::never(), None) else {
            unreachable!("no stop, no slice end")
        };
        (moves, search.stats().nodes)
    }

    /// A board `steps` random moves from the goal.
    fn walk(steps: usize, next: &mut impl FnMut() -> u64) -> GridBoard {
        (0..steps).fold(GridBoard::goal(Grid::FIFTEEN), |board, _| {
            board
                .apply(Move::ALL[(next() % 4) as usize])
                .unwrap_or(board)
        })
    }

    /// A search from `start` to the 15-puzzle's goal whose `sets` race, decided at `threshold`
    /// nodes, with the 15-puzzle's move pruning.
    fn racing(
        start: &GridBoard,
        sets: &[Arc<GridDatabases>],
        threshold: u64,
        tables: &PruningTables,
    ) -> GridSearch {
        let grid = Grid::FIFTEEN;
        let mut search = GridSearch::with_rival_databases(start, &GridBoard::goal(grid), sets)
            .unwrap()
            .with_pruning(tables.get(grid, Move::ALL, fsm::longest_for(grid)));
        let race = search
            .race
            .take()
            .map(|race| race.with_threshold(threshold));
        search.race = race.map(Box::new);
        search
    }

    /// A raced search in slices of one poll, `threshold` nodes deciding: its answer, its nodes,
    /// and the set that won; its bound never goes down on the way.
    fn raced(
        start: &GridBoard,
        sets: &[Arc<GridDatabases>],
        threshold: u64,
        tables: &PruningTables,
    ) -> (Vec<Move>, u64, Arc<GridDatabases>) {
        let mut search = racing(start, sets, threshold, tables);
        let mut bound = search.bound();
        let moves = loop {
            let found = search.run(&Stop::never(), Some(Instant::now()));
            assert!(search.bound() >= bound, "{start}: the bound went down");
            bound = search.bound();
            if let Ok(Slice::Found(moves)) = found {
                break moves;
            }
        };
        assert_eq!(bound as usize, moves.len());
        let super::super::Estimate::Databases(databases) = &search.estimate else {
            unreachable!("raced sets are databases")
        };
        (moves, search.stats().nodes, Arc::clone(&databases.dbs))
    }

    /// Whichever set wins, the answer is the one each set alone gives (the smallest optimal
    /// path), with races decided after a few nodes or many, whatever order the sets come in.
    #[test]
    fn a_race_gives_the_answer_of_each_set_alone() {
        let (sets, tables, _, mut next) = bench(0x005e_ed0f_7ace);
        for round in 0..12 {
            let start = walk(60 + round * 10, &mut next);
            let (alone, _) = alone(&start, &sets[0], &tables);
            let mut order = sets.clone();
            order.rotate_left(round % 3);
            let threshold = [1, 200, 5_000, RACE_NODES][round % 4];
            let (moves, _, _) = raced(&start, &order, threshold, &tables);
            assert_eq!(moves, alone, "{start}, threshold {threshold}");
        }
    }

    /// The set that prunes the most wins, even when it comes last, and the race costs far fewer
    /// nodes than the weakest set alone.
    #[test]
    fn the_set_with_the_fewest_nodes_wins() {
        let (sets, tables, _, mut next) = bench(0xabad_1dea);
        let mut weakest_first: Vec<_> = sets.clone();
        weakest_first.reverse();
        let (mut raced_nodes, mut weak_nodes, mut strong_wins, mut weak_wins) = (0, 0, 0, 0);
        for _ in 0..6 {
            let start = walk(200, &mut next);
            let (_, weak) = alone(&start, &sets[2], &tables);
            let (_, nodes, winner) = raced(&start, &weakest_first, 2_000, &tables);
            raced_nodes += nodes;
            weak_nodes += weak;
            strong_wins += usize::from(!Arc::ptr_eq(&winner, &sets[2]));
            weak_wins += usize::from(Arc::ptr_eq(&winner, &sets[2]));
        }
        assert!(strong_wins > weak_wins, "{strong_wins} against {weak_wins}");
        assert!(
            raced_nodes < weak_nodes / 2,
            "{raced_nodes} of {weak_nodes}"
        );
    }

    /// A bound decides once the rivals still in have searched it and one needed the threshold's
    /// nodes, or one dropped out there past them (it used to go on to the next bound then, each
    /// rival searching one more iteration: Korf & Felner's #44 took 1.6 times the nodes).
    #[test]
    fn a_rival_dropped_past_the_threshold_decides_its_bound() {
        let (sets, _, goal, mut next) = bench(0x0d20_9b0d);
        let start = walk(100, &mut next);
        let search = GridSearch::with_rival_databases(&start, &goal, &sets).unwrap();
        let race = search.race.unwrap().with_threshold(1_000);
        let mut race = race.state();
        let bound = 90;
        race.records[0].done.push((bound, 500));
        race.records[1].done.push((bound, 300));
        assert_eq!(race.winner_at(bound), None, "rival 2 is still in");
        race.records[2].out = true;
        assert_eq!(race.winner_at(bound), None, "none reached the threshold");
        race.records[2].dropped_at = Some(bound);
        assert_eq!(race.winner_at(bound), Some(1));
        race.records[0].done[0].1 = 1_500;
        race.records[2].dropped_at = None;
        assert_eq!(race.winner_at(bound), Some(1));
    }

    /// A close race goes on: the rivals within [`CLOSE`] of the leader's time search the next
    /// bound and the rest drop out; that bound decides among them, and so does a leader that
    /// needed [`CLOSE_NODES`], however close the others.
    #[test]
    fn a_close_race_goes_on_to_the_next_bound() {
        let (sets, _, goal, mut next) = bench(0x0c10_5e00);
        let start = walk(100, &mut next);
        let race = || {
            let search = GridSearch::with_rival_databases(&start, &goal, &sets).unwrap();
            search.race.unwrap().with_threshold(1_000)
        };
        let close = |base: u64| base * (100 + CLOSE) / 100;
        let at = |sizes: [u64; 3]| {
            let race = race();
            let mut race = race.state();
            for (record, nodes) in race.records.iter_mut().zip(sizes) {
                record.done.push((90, nodes));
            }
            let winner = race.winner_at(90);
            (
                winner,
                race.records.iter().map(|r| r.out).collect::<Vec<_>>(),
            )
        };
        assert_eq!(at([2_000, 5_000, 9_000]), (Some(0), vec![false; 3]));
        assert_eq!(
            at([close(2_000), 2_000, 9_000]),
            (None, vec![false, false, true]),
            "rival 2 drops out, 0 and 1 go on"
        );
        assert_eq!(
            at([close(2_000) + 1, 2_000, 9_000]),
            (Some(1), vec![false; 3])
        );
        let many = CLOSE_NODES;
        assert_eq!(at([many + 1, many, many]), (Some(1), vec![false; 3]));

        // Where they went on, the next bound decides among those still in.
        let race = race();
        let mut race = race.state();
        for (record, nodes) in race.records.iter_mut().zip([2_100, 2_000, 9_000]) {
            record.done.push((90, nodes));
        }
        assert_eq!(race.winner_at(90), None);
        race.records[0].done.push((92, 10_000));
        assert_eq!(race.winner_at(92), None, "rival 1 has not searched 92");
        race.records[1].done.push((92, 13_000));
        assert_eq!(race.winner_at(92), Some(0));
    }

    /// A set that reads more tables a move wins only where it saves more nodes than its reads
    /// cost; the cost follows the reads.
    #[test]
    fn nodes_are_weighed_by_their_reads() {
        assert_eq!((node_cost(0), node_cost(1), node_cost(2)), (100, 100, 100));
        assert!(node_cost(4) > node_cost(2));
        let (sets, _, goal, mut next) = bench(0x3e16_4ed5);
        let start = walk(100, &mut next);
        let search = GridSearch::with_rival_databases(&start, &goal, &sets).unwrap();
        let race = search.race.unwrap().with_threshold(1_000).with_close(0);
        let mut race = race.state();
        let four = node_cost(4);
        race.costs = vec![100, 100, four];
        let bound = 90;
        race.records[0].done.push((bound, 5_000));
        race.records[2].done.push((bound, 1_000));
        race.records[1].done.push((bound, 1_000 * four / 100 - 1));
        assert_eq!(race.winner_at(bound), Some(1));
        race.records[1].done[0].1 = 1_000 * four / 100 + 1;
        assert_eq!(race.winner_at(bound), Some(2));
        // A set maximising two partitions, each with its mirror image: four reads a move.
        let rebuilt = |set: &Arc<GridDatabases>| {
            GridDatabases::build(set.partition().clone(), 1, &crate::Unpaced)
        };
        let both = GridDatabases::combine(vec![rebuilt(&sets[0]), rebuilt(&sets[1])]).unwrap();
        let raced = [Arc::clone(&sets[1]), Arc::new(both)];
        let search = GridSearch::with_rival_databases(&start, &goal, &raced).unwrap();
        assert_eq!(
            search.race.unwrap().state().costs,
            [node_cost(2), node_cost(4)]
        );
    }

    /// A race stopped by its node budget counts every rival's nodes against it, reports them all,
    /// and resumed gives the same answer; decided, the search splits as any other.
    #[test]
    fn a_stopped_race_counts_every_rival_and_resumes() {
        let (sets, tables, goal, mut next) = bench(0x0bad_cafe);
        let start = walk(300, &mut next);
        let (alone, _) = alone(&start, &sets[1], &tables);
        let mut search = GridSearch::with_rival_databases(&start, &goal, &sets).unwrap();
        let race = search.race.take().map(|race| race.with_threshold(20_000));
        search.race = race.map(Box::new);
        let (mut stops, mut helped) = (0, false);
        let moves = loop {
            let budget = search.stats().nodes + 500;
            match search.run(
                &Stop::never().with_node_budget(budget),
                Some(Instant::now()),
            ) {
                Ok(Slice::Found(moves)) => break moves,
                Ok(Slice::Suspended) => {}
                Err(stopped) => {
                    stops += 1;
                    assert_eq!(stopped.stats.nodes, search.stats().nodes);
                    assert!(
                        stopped.stats.nodes <= budget + 1,
                        "{stopped:?} over {budget}"
                    );
                }
            }
            if search.race.is_none() && !helped {
                // Decided: the search splits as any other (the helper works on this thread).
                helped = true;
                let mut helper = search.helper().expect("a search under way");
                let _ = helper.run(Instant::now());
            }
        };
        assert_eq!(moves, alone);
        assert!(stops > 0, "the budget never fired");
        assert!(helped, "the race was never decided");
    }

    /// A search whose sets race, with `helpers` helpers from the start, all on this thread in
    /// turns of one poll each, and a race decided at `threshold` nodes: its answer, and the
    /// turns the helpers took in the race. Every helper ends with the search.
    fn raced_in_turns(
        start: &GridBoard,
        sets: &[Arc<GridDatabases>],
        threshold: u64,
        helpers: usize,
        tables: &PruningTables,
    ) -> (Vec<Move>, u64) {
        let mut search = racing(start, sets, threshold, tables);
        let mut team: Vec<_> = (0..helpers).map(|_| search.helper().unwrap()).collect();
        let mut turns = 0;
        loop {
            for helper in &mut team {
                let _ = helper.run(Instant::now());
            }
            if let Some(race) = &search.race {
                turns = race.helped();
            }
            if let Ok(Slice::Found(moves)) = search.run(&Stop::never(), Some(Instant::now())) {
                assert!(team.iter_mut().all(|helper| helper.run(Instant::now())));
                assert!(team.iter().all(super::super::Helper::is_over));
                return (moves, turns);
            }
        }
    }

    /// With helpers from the start, the rivals are searched by several threads' turns (here on
    /// one thread): the answer is the one each set alone gives, and the helpers take turns.
    #[test]
    fn helpers_race_beside_the_search_and_keep_its_answer() {
        let (sets, tables, _, mut next) = bench(0x4e1f_e25e);
        let mut turns = 0;
        for round in 0..8 {
            let start = walk(80 + round * 20, &mut next);
            let (alone, _) = alone(&start, &sets[0], &tables);
            let threshold = [1, 300, 5_000, RACE_NODES][round % 4];
            let (moves, helped) = raced_in_turns(&start, &sets, threshold, 1 + round % 2, &tables);
            assert_eq!(moves, alone, "{start}, threshold {threshold}");
            turns += helped;
        }
        assert!(turns > 0, "the helpers never raced");
    }

    /// On real threads: a helper races from another thread, joins the winner's team, and both
    /// see the search end with the answer the sets give alone.
    #[test]
    fn a_helper_on_another_thread_races_then_joins_the_team() {
        let (sets, tables, _, mut next) = bench(0x7a11_c0de);
        let (mut raced_turns, mut team_units) = (0, 0);
        for _ in 0..4 {
            let start = walk(300, &mut next);
            let (alone, _) = alone(&start, &sets[0], &tables);
            let mut lead = racing(&start, &sets, 5_000, &tables);
            let mut helper = lead.helper().unwrap();
            let slice = Duration::from_micros(300);
            let worker = std::thread::spawn(move || while !helper.run(Instant::now() + slice) {});
            // The helper starts the race.
            std::thread::sleep(Duration::from_millis(20));
            let moves = loop {
                if let Some(race) = &lead.race {
                    raced_turns = raced_turns.max(race.helped());
                }
                if let Ok(Slice::Found(moves)) =
                    lead.run(&Stop::never(), Some(Instant::now() + slice))
                {
                    break moves;
                }
            };
            assert_eq!(moves, alone, "{start}");
            team_units += lead.member.as_ref().map_or(0, |member| member.helped());
            worker.join().unwrap();
        }
        assert!(raced_turns > 0, "the helper never raced");
        assert!(team_units > 0, "the helper never joined a team");
    }

    /// A helper that panics in the middle of a turn (a bug) leaves its rival held: the search
    /// then panics too, which the scheduler reports as the case's error, rather than wait for
    /// that rival for good; a second helper sees the race over.
    #[test]
    fn a_helper_panicking_mid_turn_fails_the_search_rather_than_hanging_it() {
        let (sets, tables, _, mut next) = bench(0x0b0e_face);
        let start = walk(300, &mut next);
        let mut lead = racing(&start, &sets, RACE_NODES, &tables);
        lead.race.as_ref().unwrap().state().panic_at_turn = Some(1);
        let mut helper = lead.helper().unwrap();
        let mut other = lead.helper().unwrap();
        let slice = Duration::from_micros(300);
        let worker = std::thread::spawn(move || while !helper.run(Instant::now() + slice) {});
        assert!(worker.join().is_err(), "the helper's turn panicked");
        assert!(
            other.run(Instant::now() + slice),
            "the race is over for the other helper"
        );
        let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            while !matches!(
                lead.run(&Stop::never(), Some(Instant::now() + slice)),
                Ok(Slice::Found(_))
            ) {}
        }));
        let message = failed.expect_err("the search panicked");
        assert_eq!(
            message.downcast_ref::<&str>(),
            Some(&"a thread panicked racing beside this search")
        );
    }

    /// A stop that a helper meets in the race is reported by the search, with every rival's
    /// nodes; resumed, the race gives the same answer. A search dropped mid-race sends its
    /// helpers away.
    #[test]
    fn a_race_with_helpers_stops_resumes_and_ends() {
        let (sets, tables, _, mut next) = bench(0x57_0bad);
        let start = walk(300, &mut next);
        let (alone, _) = alone(&start, &sets[0], &tables);
        let pruned = || racing(&start, &sets, 20_000, &tables);
        let mut search = pruned();
        let mut helper = search.helper().unwrap();
        let mut stops = 0;
        let moves = loop {
            let budget = search.stats().nodes + 700;
            let stop = Stop::never().with_node_budget(budget);
            match search.run(&stop, Some(Instant::now())) {
                Ok(Slice::Found(moves)) => break moves,
                Ok(Slice::Suspended) => {}
                Err(stopped) => {
                    stops += 1;
                    assert_eq!(stopped.stats.nodes, search.stats().nodes);
                }
            }
            if helper.run(Instant::now()) {
                // The search is over for it (answered, or a team stopped): ask for another.
                match search.helper() {
                    Some(next) => helper = next,
                    None => {
                        break loop {
                            if let Ok(Slice::Found(moves)) = search.run(&Stop::never(), None) {
                                break moves;
                            }
                        };
                    }
                }
            }
        };
        assert_eq!(moves, alone);
        assert!(stops > 0, "the budget never fired");

        let mut search = pruned();
        let mut helper = search.helper().unwrap();
        let _ = helper.run(Instant::now());
        assert!(!helper.is_over());
        drop(search);
        assert!(
            helper.run(Instant::now()),
            "a helper of a dropped search goes"
        );
        assert!(helper.is_over());
    }

    /// Boards small enough for the breadth-first oracle, towards random targets, with sets of
    /// two or three partitions racing (and the first two's raced views) and decided after a few
    /// nodes: the answer is always the oracle's (the optimal, lexicographically smallest path).
    mod oracle {
        use proptest::prelude::*;

        use super::*;
        use crate::tiles::bfs;

        fn shapes() -> impl Strategy<Value = (usize, usize)> {
            prop_oneof![Just((3, 3)), Just((2, 4)), Just((4, 2))]
        }

        /// The shape's cells in patterns of `size`, by rows or by columns.
        fn partition(grid: Grid, blank: usize, size: usize, by_rows: bool) -> Partition {
            let (rows, cols) = (grid.rows(), grid.cols());
            let cells: Vec<u8> = (0..grid.cells())
                .map(|i| {
                    if by_rows {
                        i
                    } else {
                        (i % rows) * cols + i / rows
                    }
                })
                .filter(|&cell| cell != blank)
                .map(|cell| cell as u8)
                .collect();
            Partition::new(
                grid,
                blank,
                cells.chunks(size).map(<[u8]>::to_vec).collect(),
            )
            .unwrap()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(40))]

            #[test]
            fn a_race_gives_the_oracles_answer(
                (rows, cols) in shapes(),
                target_steps in 0usize..30,
                steps in 0usize..60,
                sizes in proptest::collection::vec((1usize..5, any::<bool>()), 2..4),
                threshold in 1u64..3_000,
                seed: u64,
            ) {
                let grid = Grid::new(rows, cols).unwrap();
                let mut next = xorshift(seed | 1);
                let mut walk = |from: GridBoard, steps: usize| {
                    (0..steps).fold(from, |board, _| {
                        board.apply(Move::ALL[(next() % 4) as usize]).unwrap_or(board)
                    })
                };
                let target = walk(GridBoard::goal(grid), target_steps);
                let start = walk(target.clone(), steps);
                let dist = bfs::distances(target.clone(), u32::MAX);
                let expected = bfs::smallest_path(start.clone(), &dist).unwrap();
                let build = |&(size, by_rows): &(usize, bool)| {
                    let partition = partition(grid, target.blank(), size, by_rows);
                    GridDatabases::build(partition, 1, &crate::Unpaced)
                };
                let mut sets: Vec<_> = sizes.iter().map(|s| Arc::new(build(s))).collect();
                // And the first two's views as a server races them: maximised, and crossed
                // where reflection applies (a 3×3 target's blank on the diagonal).
                let both = GridDatabases::combine(sizes[..2].iter().map(build).collect());
                sets.extend(both.unwrap().raced_views().into_iter().map(Arc::new));
                let mut search = GridSearch::with_rival_databases(&start, &target, &sets).unwrap();
                let race = search.race.take().map(|race| race.with_threshold(threshold));
                search.race = race.map(Box::new);
                // Half of them with a helper racing beside the search, in turns.
                let mut helper = (seed % 2 == 0).then(|| search.helper()).flatten();
                let moves = loop {
                    if let Some(helper) = &mut helper {
                        let _ = helper.run(Instant::now());
                    }
                    if let Ok(Slice::Found(moves)) =
                        search.run(&Stop::never(), Some(Instant::now()))
                    {
                        break moves;
                    }
                };
                prop_assert_eq!(moves, expected);
            }
        }
    }
}
