//! The one scheduler of the server's CPU work: every search of every kind, every batch of 3×3
//! look-ups and every database build runs under it, on a fixed budget of `workers` CPU tokens.
//!
//! **Design: round robin over clients, then flows, on two levels, with preemptible work.** A
//! flow is one stream, one unary call or one background job; a client is a bearer token, else a
//! connection (see [`ClientId`]). Turns go round the clients, and each client's turns round its
//! flows, so one client cannot take more than its turn however many cases, calls or streams it
//! sends. Work that has not run yet waits on the *fresh* level, work that has had a
//! slice on the *started* level; each level is a ring of flows served in turn, and a free token
//! goes to the level that has had less CPU time lately (so each gets at least half the CPU while
//! both have work; counting turns instead would give the started level's long slices nearly
//! all of it). A turn lasts one *quantum* ([`QUANTUM`]); work not done by then is suspended at its next
//! poll and goes back to the end of its flow's queue on the started level. So a cheap case waits
//! about half a quantum per token for its first slice — whatever runs, however many streams
//! are busy — and usually needs no second one; hard searches share the started level fairly
//! between streams and still get half the CPU under a flood of new work. This is a two-level
//! multilevel feedback queue (a short-first approximation) with processor sharing inside each
//! level.
//!
//! Plain round robin rather than deficit round robin: DRR charges flows for work of uneven,
//! unbounded size (packets); here each turn is cut at the quantum, so turns are nearly equal
//! already. The quantum trades latency against cache refills: switching between many searches
//! every millisecond cost about 8 % more CPU on Korf's 100 than every 5 ms (about 2 %), and
//! the fresh level keeps cheap cases fast either way.
//!
//! Background jobs after SERVING (the 15-puzzle's databases for other targets, then its 7-8
//! ones) wait on a third level of their own, below the callers': they take any token no
//! caller's work waits for, and while callers wait they get about one part in
//! [`BACKGROUND_SHARE`] of the CPU time, so callers come first but a busy server still finishes
//! its builds. (As clients like any other, those builds took half the CPU or more from a
//! caller's hard case: on a fresh data directory Korf & Felner's 24-puzzles #38, #40, #25, #32
//! and #44 took 48–56 s instead of 17–19 s.) A caller that waits for what a background job builds
//! hurries it ([`Slice::hurry_background`]): until that job ends, the background level gets a
//! client's share (about half), as it would as a client of its own. The warm-up before SERVING
//! stays a client of its own.
//!
//! Two kinds of work wait for tokens: *tasks*, sliced state machines run by the worker threads
//! (searches resume where they stopped, so a suspended search costs no thread), and *threads*
//! of a build that hold a token while they work and give it back at checkpoints when others
//! wait ([`Token::checkpoint`]).

use std::collections::{HashMap, VecDeque};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use crate::metrics::Metrics;

/// How long a piece of work runs before it yields to others that wait: short enough that a
/// cheap case waits milliseconds behind any number of hard ones, long enough that switching
/// between searches (suspending, resuming and refilling the caches) costs a few percent.
pub(crate) const QUANTUM: Duration = Duration::from_millis(5);

/// While callers' work waits, background jobs get one part in this many of the CPU time (about
/// 11 %): the rest goes to the callers.
pub(crate) const BACKGROUND_SHARE: u32 = 9;

/// A share of the CPU: one stream, one unary call, or one background job, and the client it
/// belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct FlowId {
    id: u64,
    client: ClientId,
}

/// Who a flow's work is for: a caller's bearer token, else its connection; a background job is
/// a client of its own, on the background level. Turns go round the clients first, then round each client's flows, so a
/// client's share is a weight, not a cap: alone it gets every token, and however many calls or
/// streams it opens, another client waits at most one of its turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum ClientId {
    /// The calls made with one token (the address of its shared limits).
    Token(usize),
    /// The calls of one connection.
    Peer(std::net::SocketAddr),
    /// One flow alone (by its flow id), or every caller whose address is unknown (0).
    Alone(u64),
    /// A background job (by its flow id): it waits on the background level.
    Background(u64),
}

impl FlowId {
    /// The level this flow's work waits on when it would otherwise wait on `level`: background
    /// jobs always wait on their own.
    fn level(self, level: usize) -> usize {
        match self.client {
            ClientId::Background(_) => BACKGROUND,
            _ => level,
        }
    }
}

/// How far a task got in one slice.
#[derive(Debug)]
pub(crate) enum Progress<T> {
    /// Finished with this result.
    Done(T),
    /// Not finished: run me again later.
    Pending,
}

/// Why a job produced no result.
#[derive(Debug, thiserror::Error)]
pub(crate) enum JobError {
    /// The scheduler was shut down before the job finished.
    #[error("the server is shutting down")]
    Closed,
    /// The work panicked.
    #[error("the solver panicked: {0}")]
    Panicked(String),
}

/// One slice of CPU time, as a task sees it.
#[derive(Debug)]
pub(crate) struct Slice<'a> {
    /// Work should suspend at its first poll after this instant.
    pub(crate) end: Instant,
    core: &'a Arc<Core>,
    flow: FlowId,
}

impl Slice<'_> {
    /// Starts `work` (a build with threads of its own) on a thread of its own whose threads
    /// hold tokens of this task's flow. A task must not block its worker waiting for it: it
    /// returns [`Progress::Pending`] and looks again at its next turn.
    pub(crate) fn spawn_paced(&self, work: impl FnOnce(&Pacer<'_>) + Send + 'static) {
        let (core, flow) = (Arc::clone(self.core), self.flow);
        let spawned = std::thread::Builder::new()
            .name("solver-build".to_owned())
            .spawn(move || work(&core.pacer(flow)));
        if let Err(err) = spawned {
            tracing::error!(cause = %err, "cannot start a build thread");
        }
    }

    /// Gives the background job under way a client's share until it ends: this slice's caller
    /// waits for something it builds (see the module docs).
    pub(crate) fn hurry_background(&self) {
        self.core.lock().hurried = true;
    }
}

/// Work that helps another task of its flow: no result of its own, and it ends when the task it
/// helps no longer needs it (see [`Slice::spawn_helper`]).
pub(crate) trait Helping: Send {
    /// Runs one slice; true when it has nothing more to do.
    fn run(&mut self, slice: &Slice<'_>) -> bool;
    /// Whether the work it helps with is over (it is then dropped unrun).
    fn is_over(&self) -> bool;
}

impl Slice<'_> {
    /// Queues `helper` as another task of this slice's flow, at the started level: it gets the
    /// flow's turns like any of its tasks, so a flow's helpers take no turn from other flows and
    /// run only on tokens the flow would get anyway.
    pub(crate) fn spawn_helper(&self, helper: impl Helping + 'static) {
        let mut state = self.core.lock();
        if state.closed {
            return;
        }
        enqueue(
            &mut state,
            self.flow,
            Waiter::Task(Box::new(Helper(helper))),
            STARTED,
        );
        self.core.dispatch(&mut state);
    }
}

/// A [`Helping`] in a queue.
struct Helper<H>(H);

impl<H: Helping> Task for Helper<H> {
    fn run(&mut self, slice: &Slice<'_>) -> bool {
        match catch_unwind(AssertUnwindSafe(|| self.0.run(slice))) {
            Ok(done) => done,
            Err(panic) => {
                tracing::error!(panic = %panic_message(&panic), "a helper panicked");
                true
            }
        }
    }

    fn abandoned(&self) -> bool {
        self.0.is_over()
    }
}

/// A sliced piece of work in a queue.
trait Task: Send {
    /// Runs one slice; true when the task is finished (its result delivered).
    fn run(&mut self, slice: &Slice<'_>) -> bool;
    /// Whether nobody waits for the result any more (the task is dropped unrun).
    fn abandoned(&self) -> bool;
}

struct Job<T, F> {
    work: F,
    result: Option<oneshot::Sender<Result<T, JobError>>>,
}

impl<T, F> Task for Job<T, F>
where
    T: Send,
    F: FnMut(&Slice<'_>) -> Progress<T> + Send,
{
    fn run(&mut self, slice: &Slice<'_>) -> bool {
        let outcome = match catch_unwind(AssertUnwindSafe(|| (self.work)(slice))) {
            Ok(Progress::Pending) => return false,
            Ok(Progress::Done(value)) => Ok(value),
            Err(panic) => Err(JobError::Panicked(panic_message(&panic))),
        };
        if let Some(tx) = self.result.take() {
            let _ = tx.send(outcome);
        }
        true
    }

    fn abandoned(&self) -> bool {
        self.result.as_ref().is_none_or(oneshot::Sender::is_closed)
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// A thread waiting for a token.
#[derive(Debug, Default)]
struct Grant {
    granted: Mutex<bool>,
    cv: Condvar,
}

impl Grant {
    fn give(&self) {
        *self.granted.lock().expect("grant lock") = true;
        self.cv.notify_one();
    }

    fn wait(&self) {
        let mut granted = self.granted.lock().expect("grant lock");
        while !*granted {
            granted = self.cv.wait(granted).expect("grant lock");
        }
    }
}

enum Waiter {
    Task(Box<dyn Task>),
    Thread(Arc<Grant>),
}

/// The levels of waiting work: callers' work that has not run yet, callers' work that has had
/// a slice already, and background jobs.
const FRESH: usize = 0;
const STARTED: usize = 1;
const BACKGROUND: usize = 2;
const LEVELS: usize = 3;

/// One flow's waiting work, by level.
#[derive(Default)]
struct FlowQueue {
    levels: [VecDeque<Waiter>; LEVELS],
}

impl FlowQueue {
    fn is_empty(&self) -> bool {
        self.levels.iter().all(VecDeque::is_empty)
    }
}

/// One client's flows with waiting work, by level, in turn order.
#[derive(Default)]
struct ClientRing {
    levels: [VecDeque<FlowId>; LEVELS],
}

impl ClientRing {
    fn is_empty(&self) -> bool {
        self.levels.iter().all(VecDeque::is_empty)
    }
}

struct State {
    /// Tokens nobody holds.
    free: usize,
    /// Per level, the clients with waiting work at that level, in turn order.
    rings: [VecDeque<ClientId>; LEVELS],
    /// Per client, its flows with waiting work.
    clients: HashMap<ClientId, ClientRing>,
    /// CPU time given to each callers' level, less the smaller of the two: the level behind
    /// gets the next token when both have work, so they share time (not turns) evenly.
    used: [Duration; 2],
    /// Background time owed (positive) or overdrawn (negative), in nanoseconds: callers' time
    /// adds its share, background time takes its own; the background level may take a token
    /// from waiting callers only while it is owed time. Kept within two quanta either way.
    background_owed: i64,
    /// Whether a caller waits for what the running background job builds: callers' time then
    /// adds as much as it takes, so the background level gets about half.
    hurried: bool,
    flows: HashMap<FlowId, FlowQueue>,
    /// Tasks granted a token, for the next idle worker thread.
    ready: VecDeque<(FlowId, usize, Box<dyn Task>)>,
    /// Work waiting for a token (tasks and threads).
    waiting: usize,
    closed: bool,
}

struct Core {
    state: Mutex<State>,
    /// Signals worker threads that `ready` has a task (or the scheduler closed).
    work: Condvar,
    next_flow: AtomicU64,
    metrics: Arc<Metrics>,
}

/// The scheduler: a handle shared by the server; the worker threads stop when it is dropped.
pub(crate) struct Scheduler {
    core: Arc<Core>,
    workers: usize,
}

impl std::fmt::Debug for Core {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core").finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Scheduler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scheduler")
            .field("workers", &self.workers)
            .finish_non_exhaustive()
    }
}

impl Scheduler {
    /// A scheduler of `workers` tokens, with as many worker threads.
    pub(crate) fn new(workers: usize, metrics: Arc<Metrics>) -> Self {
        let workers = workers.max(1);
        let core = Arc::new(Core {
            state: Mutex::new(State {
                free: workers,
                rings: Default::default(),
                clients: HashMap::new(),
                used: [Duration::ZERO; 2],
                background_owed: 0,
                hurried: false,
                flows: HashMap::new(),
                ready: VecDeque::new(),
                waiting: 0,
                closed: false,
            }),
            work: Condvar::new(),
            next_flow: AtomicU64::new(0),
            metrics,
        });
        for n in 0..workers {
            let core = Arc::clone(&core);
            std::thread::Builder::new()
                .name(format!("solver-worker-{n}"))
                .spawn(move || worker(&core))
                .expect("cannot start a worker thread");
        }
        core.metrics
            .scheduler_workers
            .set(i64::try_from(workers).unwrap_or(i64::MAX));
        Self { core, workers }
    }

    /// The number of tokens.
    pub(crate) fn workers(&self) -> usize {
        self.workers
    }

    /// A new flow of a client of its own.
    pub(crate) fn flow(&self) -> FlowId {
        let id = self.core.next_flow.fetch_add(1, Ordering::Relaxed);
        FlowId {
            id,
            client: ClientId::Alone(id),
        }
    }

    /// A new background job's flow (see the module docs).
    pub(crate) fn background_flow(&self) -> FlowId {
        let id = self.core.next_flow.fetch_add(1, Ordering::Relaxed);
        FlowId {
            id,
            client: ClientId::Background(id),
        }
    }

    /// A new flow (a stream, a unary call) of `client`.
    pub(crate) fn flow_of(&self, client: ClientId) -> FlowId {
        FlowId {
            id: self.core.next_flow.fetch_add(1, Ordering::Relaxed),
            client,
        }
    }

    /// Runs `work` in slices under `flow` until it is done, and returns its result. Dropping the
    /// returned future abandons the work: it is dropped at its next turn, unrun.
    pub(crate) async fn run<T, F>(&self, flow: FlowId, work: F) -> Result<T, JobError>
    where
        T: Send + 'static,
        F: FnMut(&Slice<'_>) -> Progress<T> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let job = Job {
            work,
            result: Some(tx),
        };
        {
            let mut state = self.core.lock();
            if state.closed {
                return Err(JobError::Closed);
            }
            enqueue(&mut state, flow, Waiter::Task(Box::new(job)), FRESH);
            self.core.dispatch(&mut state);
        }
        rx.await.unwrap_or(Err(JobError::Closed))
    }
}

impl Core {
    /// Blocks the calling thread until `flow` gets a token.
    fn acquire(&self, flow: FlowId) -> Token<'_> {
        let grant = Arc::new(Grant::default());
        {
            let mut state = self.lock();
            if state.free > 0 && state.nobody_waits() {
                state.free -= 1;
                self.gauge(&state);
                return Token::new(self, flow, flow.level(FRESH));
            }
            enqueue(&mut state, flow, Waiter::Thread(Arc::clone(&grant)), FRESH);
            self.dispatch(&mut state);
        }
        grant.wait();
        Token::new(self, flow, flow.level(FRESH))
    }

    /// A pacer for build threads of `flow`.
    fn pacer(&self, flow: FlowId) -> Pacer<'_> {
        Pacer { core: self, flow }
    }

    /// Gives one token back, held for `used` at `level`.
    fn release(&self, level: usize, used: Duration) {
        let mut state = self.lock();
        state.charge(level, used);
        state.free += 1;
        self.dispatch(&mut state);
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().expect("scheduler lock")
    }

    /// Hands free tokens to the flows in turn.
    fn dispatch(&self, state: &mut State) {
        dispatch(self, state);
    }

    fn gauge(&self, state: &State) {
        gauge(self, state);
    }
}

impl Drop for Scheduler {
    fn drop(&mut self) {
        let mut state = self.core.lock();
        state.closed = true;
        // Queued work is dropped: its waiters get `Closed`.
        state.ready.clear();
        state.flows.clear();
        state.clients.clear();
        state.rings.iter_mut().for_each(VecDeque::clear);
        state.waiting = 0;
        self.core.gauge(&state);
        drop(state);
        self.core.work.notify_all();
    }
}

impl State {
    fn nobody_waits(&self) -> bool {
        self.rings.iter().all(VecDeque::is_empty)
    }

    /// Whether work holding a token at `level` should give it to waiting work at its next
    /// chance: a background job gives way to any; a caller's work to callers' work, or to a
    /// background job that is owed time.
    fn others_wait(&self, level: usize) -> bool {
        if level == BACKGROUND {
            return !self.nobody_waits();
        }
        !self.rings[FRESH].is_empty()
            || !self.rings[STARTED].is_empty()
            || (!self.rings[BACKGROUND].is_empty() && self.background_owed > 0)
    }

    /// Counts CPU time used at `level`. Only the difference between the callers' levels is
    /// kept, and at most two quanta of it, so a level that was idle for long cannot then starve
    /// the other; likewise for what the background level is owed.
    fn charge(&mut self, level: usize, used: Duration) {
        let nanos = i64::try_from(used.as_nanos()).unwrap_or(i64::MAX);
        let bound = i64::try_from((2 * QUANTUM).as_nanos()).unwrap_or(i64::MAX);
        if level == BACKGROUND {
            self.background_owed = self.background_owed.saturating_sub(nanos);
        } else {
            let share = if self.hurried {
                nanos
            } else {
                nanos / i64::from(BACKGROUND_SHARE - 1)
            };
            self.background_owed = self.background_owed.saturating_add(share);
            self.used[level] += used;
            let least = self.used[0].min(self.used[1]);
            for total in &mut self.used {
                *total = (*total - least).min(2 * QUANTUM);
            }
        }
        self.background_owed = self.background_owed.clamp(-bound, bound);
    }

    /// The level the next free token goes to, or `None` when nothing waits: the callers' levels
    /// take turns by time; the background level gets a token when no caller's work waits, or
    /// when it is owed time.
    fn next_level(&self) -> Option<usize> {
        let waits = self.rings.each_ref().map(|ring| !ring.is_empty());
        if waits[BACKGROUND] && (self.background_owed > 0 || !(waits[FRESH] || waits[STARTED])) {
            return Some(BACKGROUND);
        }
        match [waits[FRESH], waits[STARTED]] {
            [true, true] if self.used[FRESH] <= self.used[STARTED] => Some(FRESH),
            [true, true] => Some(STARTED),
            [true, false] => Some(FRESH),
            [false, true] => Some(STARTED),
            [false, false] => None,
        }
    }
}

fn enqueue(state: &mut State, flow: FlowId, waiter: Waiter, level: usize) {
    let level = flow.level(level);
    let queue = state.flows.entry(flow).or_default();
    if queue.levels[level].is_empty() {
        let client = state.clients.entry(flow.client).or_default();
        if client.levels[level].is_empty() {
            state.rings[level].push_back(flow.client);
        }
        client.levels[level].push_back(flow);
    }
    queue.levels[level].push_back(waiter);
    state.waiting += 1;
}

fn dispatch(inner: &Core, state: &mut State) {
    while state.free > 0 {
        let Some(level) = state.next_level() else {
            break;
        };
        let client_id = state.rings[level].pop_front().expect("a ring with clients");
        let client = state
            .clients
            .get_mut(&client_id)
            .expect("a client in a ring has flows");
        let flow = client.levels[level]
            .pop_front()
            .expect("a client in a ring has flows at its level");
        let queue = state
            .flows
            .get_mut(&flow)
            .expect("a flow in a ring has a queue");
        let waiter = queue.levels[level]
            .pop_front()
            .expect("a flow in a ring has waiting work at its level");
        if !queue.levels[level].is_empty() {
            client.levels[level].push_back(flow);
        }
        if !client.levels[level].is_empty() {
            state.rings[level].push_back(client_id);
        }
        if client.is_empty() {
            state.clients.remove(&client_id);
        }
        if queue.is_empty() {
            state.flows.remove(&flow);
        }
        state.waiting -= 1;
        match waiter {
            Waiter::Task(task) => {
                if task.abandoned() {
                    continue;
                }
                state.free -= 1;
                state.ready.push_back((flow, level, task));
                inner.work.notify_one();
            }
            Waiter::Thread(grant) => {
                state.free -= 1;
                grant.give();
            }
        }
    }
    gauge(inner, state);
}

fn gauge(inner: &Core, state: &State) {
    let workers = inner.metrics.scheduler_workers.get();
    inner
        .metrics
        .scheduler_waiting
        .set(i64::try_from(state.waiting + state.ready.len()).unwrap_or(i64::MAX));
    inner
        .metrics
        .scheduler_busy
        .set(workers - i64::try_from(state.free).unwrap_or(i64::MAX));
}

/// A worker thread: runs granted tasks one slice at a time.
fn worker(core: &Arc<Core>) {
    let mut state = core.lock();
    loop {
        while state.ready.is_empty() && !state.closed {
            state = core.work.wait(state).expect("scheduler lock");
        }
        if state.closed {
            break;
        }
        let (flow, level, mut task) = state.ready.pop_front().expect("a ready task");
        drop(state);
        let mut granted = Instant::now();
        let finished = loop {
            let slice = Slice {
                end: Instant::now() + QUANTUM,
                core,
                flow,
            };
            if task.run(&slice) {
                break true;
            }
            core.metrics.scheduler_preempted.inc();
            // Nobody else waits: keep the token and go on. The slice is charged either way, so
            // that the background level's due grows while a caller keeps its token.
            let mut state = core.lock();
            state.charge(level, granted.elapsed());
            granted = Instant::now();
            if state.others_wait(level) || state.closed {
                break false;
            }
        };
        state = core.lock();
        state.charge(level, granted.elapsed());
        if !finished && !state.closed {
            enqueue(&mut state, flow, Waiter::Task(task), STARTED);
        }
        state.free += 1;
        core.dispatch(&mut state);
    }
}

/// A token held by a build thread; given back when dropped.
#[derive(Debug)]
pub(crate) struct Token<'a> {
    core: &'a Core,
    flow: FlowId,
    level: usize,
    since: Instant,
}

impl<'a> Token<'a> {
    fn new(core: &'a Core, flow: FlowId, level: usize) -> Self {
        Self {
            core,
            flow,
            level,
            since: Instant::now(),
        }
    }

    /// Yields the token to waiting work once this thread has had its quantum, and waits for its
    /// next turn.
    pub(crate) fn checkpoint(&mut self) {
        if self.since.elapsed() < QUANTUM {
            return;
        }
        let grant = Arc::new(Grant::default());
        {
            let mut state = self.core.lock();
            if !state.others_wait(self.level) {
                state.charge(self.level, self.since.elapsed());
                drop(state);
                self.since = Instant::now();
                return;
            }
            enqueue(
                &mut state,
                self.flow,
                Waiter::Thread(Arc::clone(&grant)),
                STARTED,
            );
            state.charge(self.level, self.since.elapsed());
            state.free += 1;
            self.core.dispatch(&mut state);
        }
        grant.wait();
        self.level = self.flow.level(STARTED);
        self.since = Instant::now();
    }
}

impl Drop for Token<'_> {
    fn drop(&mut self) {
        self.core.release(self.level, self.since.elapsed());
    }
}

/// Paces the threads of a build: each holds a token of the build's flow while it works.
#[derive(Debug)]
pub(crate) struct Pacer<'a> {
    core: &'a Core,
    flow: FlowId,
}

impl solver_core::Pace for Pacer<'_> {
    fn enter(&self) -> Box<dyn solver_core::Turn + '_> {
        Box::new(self.core.acquire(self.flow))
    }
}

impl solver_core::Turn for Token<'_> {
    fn checkpoint(&mut self) {
        Token::checkpoint(self);
    }
}

/// Runs `work` on a thread of its own that holds tokens of a new flow through `Pacer`: for
/// builds outside any case that callers may wait for (the warm-up, the 15-puzzle's other
/// targets), as a client of its own.
pub(crate) async fn run_paced<T: Send + 'static>(
    scheduler: &Arc<Scheduler>,
    work: impl FnOnce(&Pacer<'_>) -> T + Send + 'static,
) -> Result<T, JobError> {
    run_on(scheduler, Scheduler::flow, work).await
}

/// [`run_paced`] on the background level, below callers' work (see the module docs): for builds
/// after SERVING. A caller that waits for what it builds must call
/// [`Slice::hurry_background`]. Background jobs run one after another.
pub(crate) async fn run_in_background<T: Send + 'static>(
    scheduler: &Arc<Scheduler>,
    work: impl FnOnce(&Pacer<'_>) -> T + Send + 'static,
) -> Result<T, JobError> {
    // A hurry is for the job under way, not a later one.
    scheduler.core.lock().hurried = false;
    let done = run_on(scheduler, Scheduler::background_flow, work).await;
    scheduler.core.lock().hurried = false;
    done
}

async fn run_on<T: Send + 'static>(
    scheduler: &Arc<Scheduler>,
    flow: fn(&Scheduler) -> FlowId,
    work: impl FnOnce(&Pacer<'_>) -> T + Send + 'static,
) -> Result<T, JobError> {
    let scheduler = Arc::clone(scheduler);
    tokio::task::spawn_blocking(move || {
        let flow = flow(&scheduler);
        work(&scheduler.core.pacer(flow))
    })
    .await
    .map_err(|err| {
        // A blocking task not yet started when the runtime shuts down is cancelled: that is the
        // server stopping (an embedded server whose client is done), not a fault.
        if err.is_cancelled() {
            JobError::Closed
        } else {
            JobError::Panicked(err.to_string())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn scheduler(workers: usize) -> Arc<Scheduler> {
        Arc::new(Scheduler::new(workers, Arc::new(Metrics::new())))
    }

    /// Work that burns `slices` quanta, one per slice.
    fn spin(slices: u32) -> impl FnMut(&Slice<'_>) -> Progress<u32> + Send + 'static {
        let mut done = 0;
        move |slice| {
            while Instant::now() < slice.end {
                std::hint::spin_loop();
            }
            done += 1;
            if done == slices {
                Progress::Done(done)
            } else {
                Progress::Pending
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bounds_concurrency() {
        let scheduler = scheduler(2);
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let jobs: Vec<_> = (0..8)
            .map(|_| {
                let (scheduler, running, peak) = (
                    Arc::clone(&scheduler),
                    Arc::clone(&running),
                    Arc::clone(&peak),
                );
                tokio::spawn(async move {
                    let flow = scheduler.flow();
                    scheduler
                        .run(flow, move |_| {
                            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                            peak.fetch_max(now, Ordering::SeqCst);
                            std::thread::sleep(Duration::from_millis(5));
                            running.fetch_sub(1, Ordering::SeqCst);
                            Progress::Done(())
                        })
                        .await
                })
            })
            .collect();
        for job in jobs {
            job.await.unwrap().unwrap();
        }
        assert_eq!(peak.load(Ordering::SeqCst), 2);
    }

    /// A short job finishes while long ones of other flows are still running: they are
    /// preempted, not run to completion first.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn short_work_is_not_stuck_behind_long_work() {
        let scheduler = scheduler(1);
        let long: Vec<_> = (0..3)
            .map(|_| {
                let scheduler = Arc::clone(&scheduler);
                tokio::spawn(async move {
                    let flow = scheduler.flow();
                    scheduler.run(flow, spin(60)).await
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(20)).await;
        let flow = scheduler.flow();
        scheduler.run(flow, spin(1)).await.unwrap();
        for job in &long {
            assert!(
                !job.is_finished(),
                "a long job finished before the short one"
            );
        }
        for job in long {
            assert_eq!(job.await.unwrap().unwrap(), 60);
        }
    }

    #[tokio::test]
    async fn panics_are_reported() {
        let scheduler = scheduler(1);
        let flow = scheduler.flow();
        let result = scheduler
            .run(flow, |_| -> Progress<u8> { panic!("boom") })
            .await;
        assert!(matches!(result, Err(JobError::Panicked(m)) if m == "boom"));
        // The worker survived.
        assert_eq!(scheduler.run(flow, |_| Progress::Done(7)).await.unwrap(), 7);
    }

    /// How long a background build that spins in short steps works while a caller's job of 60
    /// quanta runs on the one token, and how long that job takes; `hurry` hurries the build.
    async fn background_share(hurry: bool) -> (u64, u64) {
        let scheduler = scheduler(1);
        let builder = Arc::clone(&scheduler);
        // Nanoseconds the build has worked, holding the token.
        let worked = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (counted, stopped) = (Arc::clone(&worked), Arc::clone(&stop));
        // Ends the build however the test ends (the runtime waits for its thread).
        struct Stop(Arc<std::sync::atomic::AtomicBool>);
        impl Drop for Stop {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let _stop = Stop(Arc::clone(&stop));
        let build = tokio::spawn(async move {
            run_in_background(&builder, move |pacer| {
                let mut turn = solver_core::Pace::enter(pacer);
                while !stopped.load(Ordering::SeqCst) {
                    let step = Instant::now();
                    while step.elapsed() < Duration::from_micros(200) {
                        std::hint::spin_loop();
                    }
                    let nanos = u64::try_from(step.elapsed().as_nanos()).unwrap();
                    counted.fetch_add(nanos, Ordering::SeqCst);
                    turn.checkpoint();
                }
            })
            .await
        });
        tokio::time::sleep(Duration::from_millis(30)).await;
        let before = worked.load(Ordering::SeqCst);
        assert!(before > 0, "the build never started");
        let started = Instant::now();
        let flow = scheduler.flow();
        let mut spun = spin(60);
        let job = scheduler.run(flow, move |slice| {
            if hurry {
                slice.hurry_background();
            }
            spun(slice)
        });
        assert_eq!(job.await.unwrap(), 60);
        let (during, took) = (worked.load(Ordering::SeqCst) - before, started.elapsed());
        stop.store(true, Ordering::SeqCst);
        build.await.unwrap().unwrap();
        (during, u64::try_from(took.as_nanos()).unwrap())
    }

    /// A background build gives way to a caller's long work (far less than the half of the time
    /// a client of its own would get), yet still gets turns while that work goes on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn background_jobs_give_way_to_callers_but_are_not_starved() {
        let (during, took) = background_share(false).await;
        assert!(
            during * 4 < took,
            "the build worked {during} ns of the caller's {took} ns"
        );
        assert!(during > 0, "the build was starved for {took} ns");
    }

    /// A caller that waits for a background build hurries it: the build then gets about the
    /// half a client of its own would.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_hurried_background_job_gets_a_clients_share() {
        let (during, took) = background_share(true).await;
        assert!(
            during * 4 > took,
            "the hurried build worked only {during} ns of the caller's {took} ns"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn paced_threads_share_the_tokens() {
        let scheduler = scheduler(1);
        let builder = Arc::clone(&scheduler);
        let build = tokio::spawn(async move {
            run_paced(&builder, |pacer| {
                let mut turn = solver_core::Pace::enter(pacer);
                let started = Instant::now();
                while started.elapsed() < Duration::from_millis(300) {
                    turn.checkpoint();
                }
            })
            .await
        });
        tokio::time::sleep(Duration::from_millis(30)).await;
        // The one token is the build's, but it yields at its checkpoints.
        let flow = scheduler.flow();
        scheduler.run(flow, spin(1)).await.unwrap();
        assert!(!build.is_finished());
        build.await.unwrap().unwrap();
        let state = scheduler.core.lock();
        assert_eq!(state.free, 1);
        assert_eq!(state.waiting, 0);
    }
}
