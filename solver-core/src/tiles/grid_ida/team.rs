//! Several threads on one IDA* search, with the answer the search alone gives.
//!
//! Each iteration's tree is cut into *units*: subtrees named by the path from the root to their
//! top (a *prefix*). A member takes the smallest unit waiting, searches it to the iteration's
//! bound, and reports the smallest pruned `g + h` or the first path to the target it met. A
//! member that finds nothing waiting tells the others it is hungry (a flag every unit's search
//! polls, about every 1,000 nodes), and the first of them to poll it gives away the untried moves
//! at the shallowest open node of its path whose subtree is small enough, each a new unit (work
//! stealing near the top of the stack), and goes on with its slice. When nothing
//! waits and nobody works, the iteration is over: the next bound is the least one reported.
//!
//! **Why the answer is the sequential one.** The units of an iteration are disjoint and cover its
//! tree, and each is searched in `d < l < r < u` order, so the first path it meets is its
//! smallest. Paths compare in that order as their move strings, so the smallest path found is the
//! smallest of the iteration once every unit whose prefix is below it has been searched; units
//! whose prefix is above it are dropped unsearched. A unit is searched with the same move pruning
//! state as the sequential search reaches it with, and its own `h` is checked against the bound
//! as the sequential search checks it. The next bound may come out larger than the sequential
//! one (a unit's top is evaluated in full where the sequential search may stop at a smaller
//! lower bound), but it is still proven: the search skips no length that could be optimal.
//!
//! A member that leaves with a unit unfinished (a stop, a helper whose search is over) puts it
//! back whole: searching a subtree again changes no result.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::{Core, Estimate, Slice, Step};
use crate::stop::{SearchStats, Stop, Stopped};
use crate::tiles::board::Move;
use crate::tiles::fsm::MovePruning;
use crate::tiles::grid_board::GridBoard;

/// What every member shares.
#[derive(Debug)]
struct Team {
    /// The search's first board and its blank.
    root: ([u8; 64], usize),
    target: GridBoard,
    neighbours: [[u8; 4]; 64],
    pruning: Arc<MovePruning>,
    /// The heuristic, to be set up afresh on each unit's board.
    estimate: Estimate,
    state: Mutex<State>,
    /// Signals a change to hungry members: units to take, an iteration or the search over.
    changed: Condvar,
    /// Whether a member is hungry and no unit waits ([`Team::sync`]): every unit's search
    /// polls it, so work is given away within a poll rather than at the end of a slice.
    wanted: Arc<AtomicBool>,
}

impl Team {
    /// Raises or lowers [`Team::wanted`] after `state` changed.
    fn sync(&self, state: &State) {
        self.wanted.store(
            state.hungry > 0 && state.waiting.is_empty() && !state.over,
            Ordering::Relaxed,
        );
    }
}

#[derive(Debug)]
struct State {
    bound: u32,
    next_bound: u32,
    iterations: u32,
    /// Nodes of every member, up to the end of their last slice.
    nodes: u64,
    /// Units waiting, by prefix (move indices), with the pruning automaton's state at their top.
    waiting: BTreeMap<Vec<u8>, u32>,
    /// Members searching a unit.
    working: usize,
    /// Units taken by helpers (for tests: the helpers did work).
    helped: u64,
    /// Nodes and number of the units finished, by their top's slack (see [`State::most_slack`]).
    sizes: [(u64, u64); SLACKS],
    /// Members that asked for a unit and got none yet: at its next poll a member gives some of
    /// its work away.
    hungry: usize,
    /// The smallest path to the target found in this iteration (move indices).
    best: Option<Vec<u8>>,
    /// The lead's stop, which helpers poll too.
    stop: Stop,
    /// A stop that fired and that the lead has not reported yet.
    stopped: Option<Stopped>,
    /// Whether the lead is gone (answered or dropped): helpers leave.
    over: bool,
}

impl State {
    /// Whether the iteration has found its answer: a path, and no unit below it left.
    fn answered(&self) -> bool {
        self.best.is_some() && self.working == 0 && self.waiting.is_empty()
    }

    /// Records a path to the target, and drops the waiting units that cannot hold a smaller one.
    fn found(&mut self, path: Vec<u8>) {
        if self.best.as_ref().is_some_and(|best| *best <= path) {
            return;
        }
        self.waiting.retain(|prefix, _| !above(prefix, &path));
        self.best = Some(path);
    }
}

/// How long a member with nothing to do waits for work before it returns.
const HUNGRY_WAIT: Duration = Duration::from_millis(1);

/// The slacks whose units' sizes are kept.
const SLACKS: usize = 128;

/// About how many nodes a unit given away should hold: enough that taking it costs little (a
/// hand-over takes a poll and a lock), few enough that the last iteration, which stops at its
/// first answer, wastes little on units to the right of it. On Korf & Felner's #25, #32, #44,
/// #37 and #30 (two threads), 8 M-node units searched 1.85e9 nodes; 2 M-node units 1.77e9, in
/// about 9 % less time once work was handed over at a poll rather than at a slice's end.
const UNIT_NODES: u64 = 2_000_000;

impl State {
    /// How much slack (`bound - g - h` at its top) a unit given away may have: the largest
    /// whose units so far averaged at most [`UNIT_NODES`]; deeper than any seen when all were
    /// larger; any (the shallowest open node) before any unit has finished. A node's subtree
    /// grows about geometrically with its slack, whatever its depth.
    fn most_slack(&self) -> Option<u32> {
        let known = || {
            self.sizes
                .iter()
                .enumerate()
                .filter(|(_, (_, count))| *count > 0)
        };
        known()
            .filter(|(_, (nodes, count))| nodes / count <= UNIT_NODES)
            .map(|(slack, _)| slack as u32)
            .max()
            .or_else(|| {
                known()
                    .map(|(slack, _)| (slack as u32).saturating_sub(2))
                    .min()
            })
    }

    /// Counts a finished unit's nodes under its slack.
    fn finished(&mut self, unit: &Unit) {
        if let Some(size) = self.sizes.get_mut(unit.slack as usize) {
            size.0 += unit.nodes;
            size.1 += 1;
        }
    }
}

/// Whether every path through `prefix` is larger than `path`.
fn above(prefix: &[u8], path: &[u8]) -> bool {
    prefix > &path[..prefix.len().min(path.len())]
}

/// Whether everything `unit` has left to search is larger than `path`: its depth-first search
/// is past it. What is left is the subtree of the node it is at and the later siblings of that
/// node and of its ancestors, so all of it is larger when the path to that node is (a unit
/// that is most of the tree, such as the lead's first, must not go on to its end once a helper
/// has found the answer to the left of it).
fn past(unit: &Unit, path: &[u8]) -> bool {
    let at: Vec<u8> = unit
        .prefix
        .iter()
        .copied()
        .chain(unit.core.path().iter().map(|mv| mv.index() as u8))
        .collect();
    above(&at, path)
}

/// A unit under way: its prefix, its search and the heuristic on its board.
#[derive(Debug)]
struct Unit {
    prefix: Vec<u8>,
    core: Core,
    estimate: Estimate,
    /// `bound - g - h` at its top (`u32::MAX` when unknown).
    slack: u32,
    /// Nodes searched in it.
    nodes: u64,
}

/// What a member got from the team.
enum Claim {
    Unit(Vec<u8>, u32, u32),
    /// Nothing to do before the slice ends.
    Wait,
    /// The search is over for this member.
    Over,
    Answer(Vec<Move>),
    Stopped(Stopped),
}

/// One thread's part in a team; the first one, the *lead*, gives the answer.
#[derive(Debug)]
pub(super) struct Member {
    team: Arc<Team>,
    unit: Option<Unit>,
    lead: bool,
    /// Whether this member is counted in [`State::hungry`].
    hungry: bool,
}

impl Member {
    /// The lead of a new team, going on with `core` (a whole search under way, which becomes the
    /// first unit of its iteration) from the board `root` towards `target`.
    pub(super) fn lead(
        mut core: Core,
        estimate: Estimate,
        root: ([u8; 64], usize),
        target: GridBoard,
    ) -> Self {
        core.one_iteration = true;
        let wanted = Arc::new(AtomicBool::new(false));
        core.wanted = Some(Arc::clone(&wanted));
        let state = State {
            bound: core.bound,
            next_bound: core.next_bound,
            iterations: core.stats.iterations,
            nodes: core.stats.nodes,
            waiting: BTreeMap::new(),
            working: 1,
            helped: 0,
            sizes: [(0, 0); SLACKS],
            hungry: 0,
            best: None,
            stop: Stop::never(),
            stopped: None,
            over: false,
        };
        let team = Arc::new(Team {
            root,
            target,
            neighbours: core.neighbours,
            pruning: Arc::clone(&core.pruning),
            estimate: estimate.clone(),
            state: Mutex::new(state),
            changed: Condvar::new(),
            wanted,
        });
        Self {
            team,
            unit: Some(Unit {
                prefix: Vec::new(),
                core,
                estimate,
                slack: u32::MAX,
                nodes: 0,
            }),
            lead: true,
            hungry: false,
        }
    }

    /// A helper in the same team.
    pub(super) fn join(&self) -> Self {
        Self {
            team: Arc::clone(&self.team),
            unit: None,
            lead: false,
            hungry: false,
        }
    }

    /// The shared state (as it is if a member panicked holding it: a panic in one member must
    /// not turn into a second one in another's drop).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.team
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn bound(&self) -> u32 {
        self.lock().bound
    }

    pub(super) fn stats(&self) -> SearchStats {
        let state = self.lock();
        SearchStats {
            nodes: state.nodes,
            iterations: state.iterations,
        }
    }

    /// How many units helpers took.
    #[cfg(test)]
    pub(super) fn helped(&self) -> u64 {
        self.lock().helped
    }

    pub(super) fn is_over(&self) -> bool {
        let state = self.lock();
        state.over || state.answered()
    }

    /// The lead's slice: `Found` with the answer, `Suspended` when the slice ended first.
    pub(super) fn run_lead(
        &mut self,
        stop: &Stop,
        slice_end: Option<Instant>,
    ) -> Result<Slice, Stopped> {
        self.lock().stop = stop.clone();
        match self.work(stop, slice_end) {
            Claim::Answer(moves) => Ok(Slice::Found(moves)),
            Claim::Stopped(stopped) => Err(stopped),
            Claim::Wait | Claim::Over | Claim::Unit(..) => Ok(Slice::Suspended),
        }
    }

    /// A helper's slice: `true` once there is nothing more for it to do.
    pub(super) fn run_helper(&mut self, slice_end: Instant) -> bool {
        let stop = self.lock().stop.clone();
        match self.work(&stop, Some(slice_end)) {
            Claim::Wait | Claim::Unit(..) => false,
            Claim::Over | Claim::Answer(_) | Claim::Stopped(_) => {
                self.put_back();
                true
            }
        }
    }

    /// Searches units until the slice ends or the search is over for this member.
    fn work(&mut self, stop: &Stop, slice_end: Option<Instant>) -> Claim {
        loop {
            let Some(unit) = &mut self.unit else {
                match self.claim(slice_end) {
                    Claim::Unit(prefix, state, bound) => {
                        self.start(prefix, state, bound);
                        continue;
                    }
                    other => return other,
                }
            };
            let before = self
                .team
                .state
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .nodes;
            unit.core.stats.nodes = before;
            let ran = unit.estimate.run(&mut unit.core, stop, slice_end);
            let mut state = self
                .team
                .state
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let nodes = unit.core.stats.nodes - before;
            state.nodes += nodes;
            unit.nodes += nodes;
            match ran {
                Ok(Step::Found(path)) => {
                    let mut full = unit.prefix.clone();
                    full.extend(path.iter().map(|mv| mv.index() as u8));
                    state.found(full);
                }
                Ok(Step::Exhausted) => {
                    let next = (unit.prefix.len() as u32).saturating_add(unit.core.next_bound);
                    state.next_bound = state.next_bound.min(next);
                }
                Ok(Step::Suspended) => {
                    if state.over || state.stopped.is_some() {
                        drop(state);
                        return self.claim(slice_end);
                    }
                    if state.best.as_ref().is_some_and(|best| past(unit, best)) {
                        // Nothing left in it can beat the path found: drop it.
                    } else {
                        if state.hungry > 0 && state.waiting.is_empty() {
                            give(&self.team, unit, &mut state);
                            self.team.sync(&state);
                            self.team.changed.notify_all();
                        }
                        if slice_end.is_none_or(|end| Instant::now() < end) {
                            // Suspended to give work away: go on with the rest of the slice.
                            continue;
                        }
                        return Claim::Wait;
                    }
                }
                Err(stopped) => {
                    state.stopped = Some(stopped);
                    self.team.changed.notify_all();
                    drop(state);
                    // The unit stays with this member (its search resumes) until it leaves.
                    return self.claim(slice_end);
                }
            }
            state.finished(unit);
            state.working -= 1;
            self.unit = None;
            self.team.changed.notify_all();
        }
    }

    /// Takes the smallest waiting unit, starts the next iteration when this one is over, or
    /// waits for units until the slice ends (counted as hungry until it gets one).
    fn claim(&mut self, slice_end: Option<Instant>) -> Claim {
        let team = Arc::clone(&self.team);
        let mut state = team.state.lock().unwrap_or_else(PoisonError::into_inner);
        let mut waited = false;
        let claim = loop {
            if state.over {
                break Claim::Over;
            }
            if state.stopped.is_some() {
                if !self.lead {
                    break Claim::Over;
                }
                let mut stopped = state.stopped.take().expect("checked");
                stopped.stats = SearchStats {
                    nodes: state.nodes,
                    iterations: state.iterations,
                };
                break Claim::Stopped(stopped);
            }
            if self.unit.is_some() {
                // Back from a stop with a unit to resume.
                break Claim::Wait;
            }
            if let Some((prefix, automaton)) = state.waiting.pop_first() {
                state.working += 1;
                state.helped += u64::from(!self.lead);
                break Claim::Unit(prefix, automaton, state.bound);
            }
            if state.working == 0 {
                if let Some(best) = &state.best {
                    if !self.lead {
                        break Claim::Over;
                    }
                    let moves = best.iter().map(|&i| Move::ALL[usize::from(i)]).collect();
                    state.over = true;
                    team.changed.notify_all();
                    break Claim::Answer(moves);
                }
                assert!(
                    state.next_bound != u32::MAX,
                    "IDA* exhausted a connected space without reaching the target"
                );
                state.bound = state.next_bound;
                state.next_bound = u32::MAX;
                state.iterations += 1;
                state
                    .waiting
                    .insert(Vec::new(), MovePruning::start(team.root.1));
                continue;
            }
            if !self.hungry {
                self.hungry = true;
                state.hungry += 1;
                team.sync(&state);
            }
            let now = Instant::now();
            if waited || slice_end.is_some_and(|end| now >= end) {
                return Claim::Wait;
            }
            waited = true;
            // Not long: the others give work away at the end of their slices, and a helper that
            // waits holds a CPU token others may want.
            let wait = slice_end.map_or(HUNGRY_WAIT, |end| (end - now).min(HUNGRY_WAIT));
            state = team
                .changed
                .wait_timeout(state, wait)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        };
        if self.hungry {
            self.hungry = false;
            state.hungry -= 1;
        }
        team.sync(&state);
        claim
    }

    /// Sets up the unit under `prefix` (automaton `state`) for the iteration of `bound`; one
    /// whose top is the target or beyond the bound is over at once.
    fn start(&mut self, prefix: Vec<u8>, state: u32, bound: u32) {
        let team = &self.team;
        let (mut cells, mut blank) = team.root;
        for &index in &prefix {
            let to = usize::from(team.neighbours[blank][usize::from(index)]);
            cells[blank] = cells[to];
            cells[to] = 0;
            blank = to;
        }
        let n = team.target.cells().len();
        let estimate = team.estimate.fresh(&team.target, &cells[..n]);
        let (g, h) = (prefix.len() as u32, estimate.value());
        if h == 0 || g + h > bound {
            let mut shared = self.lock();
            if h == 0 {
                shared.found(prefix);
            } else {
                shared.next_bound = shared.next_bound.min(g + h);
            }
            shared.working -= 1;
            team.changed.notify_all();
            return;
        }
        let mut core = Core::at(
            cells,
            blank,
            state,
            team.neighbours,
            Arc::clone(&team.pruning),
            bound - g,
        );
        core.one_iteration = true;
        core.wanted = Some(Arc::clone(&team.wanted));
        self.unit = Some(Unit {
            prefix,
            core,
            estimate,
            slack: bound - g - h,
            nodes: 0,
        });
    }

    /// Leaves the team: an unfinished unit goes back to wait, whole.
    fn put_back(&mut self) {
        if let Some(unit) = self.unit.take() {
            let mut state = self.lock();
            let automaton = unit.core.states[0];
            state.waiting.insert(unit.prefix, automaton);
            state.working -= 1;
            self.team.changed.notify_all();
        }
    }
}

/// Gives away the untried moves of one node on `unit`'s path: the shallowest whose slack is at
/// most [`State::most_slack`], else the deepest with any, so that the units are about
/// [`UNIT_NODES`] large.
fn give(team: &Team, unit: &mut Unit, state: &mut State) {
    let most = state.most_slack();
    let n = team.target.cells().len();
    let (mut cells, mut blank) = unit.core.top();
    let depth = unit.core.depth;
    let mut chosen = None;
    for k in 0..=depth {
        let units = unit.core.untried(k);
        if !units.is_empty() {
            let g = (unit.prefix.len() + k) as u32;
            let small = most.is_none_or(|most| {
                let h = team.estimate.fresh(&team.target, &cells[..n]).value();
                state.bound.saturating_sub(g + h) <= most
            });
            chosen = Some((k, units));
            if small {
                break;
            }
        }
        if k < depth {
            let to = usize::from(team.neighbours[blank][unit.core.path[k].index()]);
            cells[blank] = cells[to];
            cells[to] = 0;
            blank = to;
        }
    }
    if let Some((k, units)) = chosen {
        unit.core.give_away(k);
        for (path, automaton) in units {
            let mut prefix = unit.prefix.clone();
            prefix.extend(path);
            state.waiting.insert(prefix, automaton);
        }
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        if self.hungry {
            let mut state = self.lock();
            state.hungry -= 1;
            self.team.sync(&state);
        }
        if self.lead {
            self.lock().over = true;
            self.team.changed.notify_all();
        } else {
            self.put_back();
        }
    }
}
