//! Korf & Felner's 50 twenty-four-puzzles through the bounded-suboptimal solver, or optimally
//! through IDA* with their 6-6-6-6 pattern databases and reflection, every answer checked
//! against the published optimal lengths.
//!
//! ```text
//! cargo run --release -p solver-core --example korf24 -- [--ratio R] [FIRST [LAST]]
//! cargo run --release -p solver-core --example korf24 -- --optimal [--file PATH] [--partition P] [--add P] [--race P [--races-only]] [--move-pruning N] [--threads N] [ID...|all]
//! ```
//!
//! With `--file`, the bounded mode is guided by the pattern databases too (read or built as
//! below). `--optimal` builds the 5×5 set (about 977 MB), or reads it from `--file` (writing it there
//! when missing), prints the build or load time, then solves the instances named (38 and 40 when
//! none are: the two easiest; `all` for the 50) and prints per instance the nodes, time and nodes
//! per second, beside the published node counts (`solver_core::benchmarks::KORF24_PUBLISHED`):
//! Korf & Felner's 6-6-6-6 (2002, generated) and Clausecker & Reinefeld's small catalogue (2019,
//! expanded), with ours as a multiple of each; any length other than the published optimum exits
//! non-zero. `--add P` (repeatable) maximises over the sum of another partition `P` too, written
//! as patterns of cells, `/` between patterns and `,` between cells (its set is read from or
//! written to the directory of `--file`); `--partition P` uses `P` in place of Korf & Felner's
//! partition (read from or written to `--file`), to measure another partition's node counts.
//! `--race P` (repeatable) races the set of `P` (read from or written to the directory of
//! `--file`) against the others through each instance's first iterations, and the search goes
//! on with the one that took the least time, its nodes weighed by their cost (as the server
//! does with the stored rivals of its set, `grid_ida/race.rs`); the first two sets maximised,
//! and crossed, race too (`GridDatabases::raced_views`); the nodes printed are every rival's, and
//! the race's own time and nodes beside them (it runs on one thread). Not with `--add`.
//! `--races-only` stops each instance where its race is decided and prints the pick, the bound
//! and the race's time and nodes: the races of the 20 easiest in seconds.
//! `--move-pruning N` forbids duplicate
//! move strings of up to N moves (default 14, as the server; 2: only a move's reverse). `--threads N` (default 2)
//! builds the tables and searches each instance on N threads (one search split among them, with the
//! answer the search alone gives).
//!
//! `--memory` prints how long one read waits for the memory at working sets from 256 KiB to
//! 4 GiB, on 4 KiB pages and on 2 MiB ones (as the tables are held): this machine's searches
//! wait on such reads, and its figures vary from day to day.
//!
//! For each instance: the answer's length, its proven lower bound, the published optimum, how it
//! was found, and the time. Every answer must replay to the goal, be no shorter than the optimum,
//! and carry a lower bound no larger than it (the example exits non-zero otherwise). The totals
//! give the mean length over the optimum, the mean proven ratio and the time.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use solver_core::tiles::bounded::{self, Method};
use solver_core::tiles::fsm::{self, MovePruning};
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::grid_ida::{GridSearch, Slice};
use solver_core::tiles::grid_pdb::{self, GridDatabases, Partition};
use solver_core::{Move, Pace, Progress, Stop, Turn, Unpaced};

/// Published node counts of instance `id`: Korf & Felner's 6-6-6-6 (generated) and Clausecker &
/// Reinefeld's small catalogue (expanded).
fn published(id: usize) -> Option<(u64, u64)> {
    solver_core::benchmarks::korf24()
        .into_iter()
        .find(|i| i.id == id)
        .map(|i| (i.korf_felner_nodes, i.small_catalogue_nodes))
}

/// The instances: id, optimal length, board.
fn instances() -> Vec<(usize, u32, Vec<u32>)> {
    solver_core::benchmarks::korf24()
        .into_iter()
        .map(|i| (i.id, i.optimal, i.cells))
        .collect()
}

/// Prints each finished layer of the build.
struct Layers;

impl Pace for Layers {
    fn enter(&self) -> Box<dyn Turn + '_> {
        Box::new(Unpaced)
    }

    fn layer_done(&self, p: Progress) {
        eprint!(
            "\rdatabase {}/{}: layer {:>2}, {:>5.1}% of {} placements   ",
            p.database + 1,
            p.databases,
            p.layers,
            100.0 * p.reached as f64 / p.placements as f64,
            p.placements
        );
    }
}

/// The 5×5 set: read from `file` when it exists, else built (and written there).
/// The set of `partition`: read from `file` when it exists, otherwise built (and written there).
fn one_set(partition: &Partition, file: Option<&PathBuf>, threads: usize) -> GridDatabases {
    let t = Instant::now();
    let stored = file.filter(|f| f.exists()).map(|f| {
        let reader = std::io::BufReader::new(std::fs::File::open(f).expect("open the file"));
        GridDatabases::read_from(reader, partition).expect("a valid stored set")
    });
    let loaded = stored.is_some();
    let dbs = stored.unwrap_or_else(|| GridDatabases::build(partition.clone(), threads, &Layers));
    eprintln!();
    println!(
        "{} {partition}: {:.1} s, {:.0} MB",
        if loaded { "loaded" } else { "built" },
        t.elapsed().as_secs_f64(),
        dbs.memory_bytes() as f64 / 1e6
    );
    if let (Some(f), false) = (file, loaded) {
        let t = Instant::now();
        let writer = std::io::BufWriter::new(std::fs::File::create(f).expect("create the file"));
        dbs.write_to(writer).expect("write the set");
        println!(
            "wrote {} in {:.1} s",
            f.display(),
            t.elapsed().as_secs_f64()
        );
    }
    dbs
}

/// The default set, or `partitions[0]`'s (from `file` when given), combined with the sets of
/// the other `partitions` (stored beside `file` under their conventional names).
fn databases(file: Option<&PathBuf>, partitions: &[Partition], threads: usize) -> GridDatabases {
    let grid = Grid::new(5, 5).expect("5x5");
    let (first, more) = match partitions.split_first() {
        Some((first, more)) => (first.clone(), more),
        None => (Partition::default_for(grid, grid.cells() - 1), partitions),
    };
    let mut sets = vec![one_set(&first, file, threads)];
    for partition in more {
        let beside = file.map(|f| f.with_file_name(grid_pdb::file_name(partition)));
        sets.push(one_set(partition, beside.as_ref(), threads));
    }
    GridDatabases::combine(sets).expect("sets of one shape")
}

/// A raced view's sums by the partitions' names in `names` (`P0` the first set's, `P1`, … the
/// raced ones): `P0+P0'` is a partition with its reflection, `P0+P1` two crossed.
fn view_name(view: &GridDatabases, names: &[Partition]) -> String {
    view.readings()
        .iter()
        .map(|reading| {
            let partition = &view.partitions()[reading.partition];
            let k = names
                .iter()
                .position(|p| p == partition)
                .unwrap_or(usize::MAX);
            format!("P{k}{}", if reading.mirrored { "'" } else { "" })
        })
        .collect::<Vec<_>>()
        .join("+")
}

/// A 5×5 partition written as patterns of cells, `/` between patterns and `,` between cells.
/// A partition written as patterns of cells, `/` between patterns and `,` between cells.
fn parse_partition(text: &str) -> Result<Partition, String> {
    let patterns = text
        .split('/')
        .map(|p| {
            p.split(',')
                .map(|c| {
                    c.trim()
                        .parse()
                        .map_err(|_| format!("partition {text:?}: {c:?} is not a cell number"))
                })
                .collect::<Result<Vec<u8>, String>>()
        })
        .collect::<Result<Vec<_>, String>>()?;
    Partition::new(Grid::new(5, 5).expect("5x5"), 24, patterns)
        .map_err(|e| format!("partition {text:?}: {e}"))
}

/// The race of a search's sets (`grid_ida/race.rs`): how long it took and the nodes of every
/// rival, up to its decision.
struct Raced {
    seconds: f64,
    nodes: u64,
}

/// Runs `search` on `threads` threads to its answer (its helpers race beside it, then join its
/// team, as on a server), or only through its race with `races_only` (`None` for the answer
/// then); the race is timed apart.
fn run_on(search: &mut GridSearch, threads: usize, races_only: bool) -> (Option<Vec<Move>>, Raced) {
    let slice = Duration::from_millis(5);
    let t = Instant::now();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 1..threads {
            let Some(mut helper) = search.helper() else {
                break;
            };
            let done = &done;
            scope.spawn(move || {
                while !done.load(Ordering::Relaxed) && !helper.run(Instant::now() + slice) {}
            });
        }
        let mut race = None;
        let moves = loop {
            let found = search.run(&Stop::never(), Some(Instant::now() + slice));
            if race.is_none() && !search.racing() {
                race = Some(Raced {
                    seconds: t.elapsed().as_secs_f64(),
                    nodes: search.stats().nodes,
                });
                if races_only {
                    break None;
                }
            }
            if let Ok(Slice::Found(moves)) = found {
                break Some(moves);
            }
        };
        done.store(true, Ordering::Relaxed);
        let race = race.expect("decided before the answer");
        (moves, race)
    })
}

fn optimal(
    file: Option<&PathBuf>,
    more: &[Partition],
    races: &[Partition],
    threads: usize,
    longest: usize,
    ids: &[usize],
    races_only: bool,
) {
    let grid = Grid::new(5, 5).expect("5x5");
    let goal = GridBoard::goal(grid);
    let main = databases(file, more, threads);
    // The raced partitions by name: P0 the first set's, P1, P2, … those of --race.
    let names: Vec<Partition> = main
        .partitions()
        .iter()
        .take(1)
        .cloned()
        .chain(races.iter().cloned())
        .collect();
    let sets: Vec<Arc<GridDatabases>> = if races.is_empty() {
        vec![Arc::new(main)]
    } else {
        // As a server holds them: one allocation, the raced sets views of it.
        let mut all = vec![main];
        for partition in races {
            let beside = file.map(|f| f.with_file_name(grid_pdb::file_name(partition)));
            all.push(one_set(partition, beside.as_ref(), threads));
        }
        let all = GridDatabases::combine(all).expect("5x5 sets of the same blank");
        std::iter::once(all.view(&[0]))
            .chain(all.raced_views())
            .map(Arc::new)
            .collect()
    };
    let t = Instant::now();
    let pruning = Arc::new(MovePruning::build(grid, Move::ALL, longest));
    println!(
        "move pruning up to {longest} moves: built in {:.2} s, {} states ({:.1} MB)",
        t.elapsed().as_secs_f64(),
        pruning.states(),
        pruning.states() as f64 * 16.0 / 1e6
    );
    let ids = if ids.is_empty() { &[38, 40][..] } else { ids };
    let all = instances();
    let mut wrong = 0;
    let (mut nodes, mut seconds) = (0u64, 0.0);
    let (mut race_nodes, mut race_seconds) = (0u64, 0.0);
    for &id in ids {
        let (_, optimum, cells) = all
            .iter()
            .find(|(i, _, _)| *i == id)
            .expect("an instance from 1 to 50");
        let start = GridBoard::new(grid, cells).expect("a valid board");
        let t = Instant::now();
        let mut search = GridSearch::with_rival_databases(&start, &goal, &sets)
            .expect("reachable")
            .with_pruning(Arc::clone(&pruning));
        let h0 = search.bound();
        let (moves, race) = run_on(&mut search, threads, races_only);
        race_nodes += race.nodes;
        race_seconds += race.seconds;
        let guide = if sets.len() > 1 {
            search.databases().map_or_else(String::new, |dbs| {
                format!(", guided by {}", view_name(dbs, &names))
            })
        } else {
            String::new()
        };
        let Some(moves) = moves else {
            println!(
                "{id:>2}: race {:.3} s, {} nodes, decided at bound {}{guide}",
                race.seconds,
                race.nodes,
                search.bound()
            );
            continue;
        };
        let raced = if sets.len() > 1 {
            format!(" (race {:.3} s, {} nodes)", race.seconds, race.nodes)
        } else {
            String::new()
        };
        let elapsed = t.elapsed().as_secs_f64();
        let stats = search.stats();
        let ok = moves.len() as u32 == *optimum && start.replay(&moves).ok() == Some(goal.clone());
        wrong += usize::from(!ok);
        let beside = published(id).map_or_else(String::new, |(korf, small)| {
            format!(
                "; published: Korf & Felner 6-6-6-6 {korf} ({:.3}x ours), small catalogue {small} ({:.2}x ours)",
                korf as f64 / stats.nodes.max(1) as f64,
                small as f64 / stats.nodes.max(1) as f64,
            )
        });
        println!(
            "{id:>2}: {:>3} moves (optimum {optimum}), h0 {h0}, {} iterations, {} nodes, {elapsed:.2} s, {:.2} M nodes/s{guide}{raced}{beside}{}",
            moves.len(),
            stats.iterations,
            stats.nodes,
            stats.nodes as f64 / elapsed / 1e6,
            if ok { "" } else { "  WRONG" }
        );
        nodes += stats.nodes;
        seconds += elapsed;
    }
    if sets.len() > 1 {
        println!(
            "{} races: {race_seconds:.2} s, {race_nodes} nodes",
            ids.len()
        );
    }
    if races_only {
        return;
    }
    let (korf, small) = ids
        .iter()
        .filter_map(|&id| published(id))
        .fold((0u64, 0u64), |(k, s), (korf, small)| (k + korf, s + small));
    println!(
        "{} instances: {nodes} nodes, {seconds:.2} s, {:.2} M nodes/s; published over the same: Korf & Felner {korf} ({:.3}x ours), small catalogue {small} ({:.2}x ours)",
        ids.len(),
        nodes as f64 / seconds / 1e6,
        korf as f64 / nodes.max(1) as f64,
        small as f64 / nodes.max(1) as f64,
    );
    if wrong > 0 {
        eprintln!("{wrong} answers wrong");
        std::process::exit(1);
    }
}

const USAGE: &str = "usage: korf24 [--ratio R] [--file PATH] [FIRST [LAST]]
       korf24 --memory
       korf24 --optimal [--file PATH] [--partition P] [--add P] [--race P [--races-only]] [--move-pruning N] [--threads N] [ID...|all]";

/// What the command line asks for.
struct Options {
    ratio: f64,
    range: Vec<usize>,
    exact: bool,
    file: Option<PathBuf>,
    threads: usize,
    more: Vec<Partition>,
    partition: Option<Partition>,
    races: Vec<Partition>,
    longest: usize,
    races_only: bool,
}

/// The command line, or what is wrong with it.
fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    fn value<T: std::str::FromStr>(
        args: &mut impl Iterator<Item = String>,
        flag: &str,
        what: &str,
    ) -> Result<T, String> {
        let text = args.next().ok_or(format!("{flag} takes {what}"))?;
        text.parse()
            .map_err(|_| format!("{flag} takes {what}, not {text:?}"))
    }
    let mut options = Options {
        ratio: 1.5,
        range: Vec::new(),
        exact: false,
        file: None,
        threads: 2,
        more: Vec::new(),
        partition: None,
        races: Vec::new(),
        longest: fsm::longest_for(Grid::new(5, 5).expect("5×5")),
        races_only: false,
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--ratio" => options.ratio = value(&mut args, "--ratio", "a number of at least 1")?,
            "--optimal" => options.exact = true,
            "--races-only" => options.races_only = true,
            "--file" => options.file = Some(value(&mut args, "--file", "a path")?),
            "--partition" => {
                let text: String = value(&mut args, "--partition", "a partition")?;
                options.partition = Some(parse_partition(&text)?);
            }
            "--add" => {
                let text: String = value(&mut args, "--add", "a partition")?;
                options.more.push(parse_partition(&text)?);
            }
            "--race" => {
                let text: String = value(&mut args, "--race", "a partition")?;
                options.races.push(parse_partition(&text)?);
            }
            "--move-pruning" => {
                options.longest = value(&mut args, "--move-pruning", "a number of moves")?;
            }
            "--threads" => options.threads = value(&mut args, "--threads", "a number")?,
            "all" => options.range.extend(1..=50),
            n => match n.parse::<usize>() {
                Ok(id @ 1..=50) => options.range.push(id),
                _ => {
                    return Err(format!(
                        "{n:?}: not an option, nor an instance from 1 to 50"
                    ));
                }
            },
        }
    }
    if options.ratio.is_nan() || options.ratio < 1.0 {
        return Err(format!("--ratio {}: must be at least 1", options.ratio));
    }
    if !(2..=fsm::MAX_LONGEST).contains(&options.longest) {
        return Err(format!(
            "--move-pruning {}: from 2 to {}",
            options.longest,
            fsm::MAX_LONGEST
        ));
    }
    if options.threads == 0 {
        return Err("--threads 0: at least one".to_owned());
    }
    Ok(options)
}

/// How long one read waits for the memory when each read's address comes from the one before
/// (a pointer chase), over working sets from the caches' sizes to a table's, on 4 KiB pages and
/// on 2 MiB ones (as the tables are held: `pages.rs`). The searches wait on such reads, and this
/// machine's figures vary from day to day, so a run's times are comparable with another day's
/// only beside these.
fn memory() {
    println!("one dependent read, by working set:   4 KiB pages   2 MiB pages");
    for (name, bytes) in [
        ("256 KiB", 256 << 10),
        ("1 MiB", 1 << 20),
        ("4 MiB", 4 << 20),
        ("32 MiB", 32 << 20),
        ("256 MiB", 256 << 20),
        ("1 GiB", 1 << 30),
        ("4 GiB", 4 << 30),
    ] {
        let small = chase(&mut vec![0u64; bytes / 8]);
        let huge = chase(&mut HugeSlots::new(bytes / 8));
        println!("  {name:>7}: {small:28.1} ns {huge:10.1} ns");
    }
}

/// Nanoseconds a read over `slots`, each read's address taken from the slot read before.
fn chase(slots: &mut [u64]) -> f64 {
    let len = slots.len();
    // A full-period linear congruential step modulo a power of two visits every slot once,
    // in an order no prefetcher follows.
    for (i, slot) in slots.iter_mut().enumerate() {
        *slot = (i
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407)
            % len) as u64;
    }
    let reads = 4_000_000;
    let mut at = 0;
    for _ in 0..reads.min(len) {
        at = slots[at] as usize;
    }
    let started = Instant::now();
    for _ in 0..reads {
        at = slots[at] as usize;
    }
    std::hint::black_box(at);
    started.elapsed().as_secs_f64() * 1e9 / reads as f64
}

/// Slots on 2 MiB pages where the system grants them: an anonymous mapping advised before it is
/// touched, as the tables' memory is.
struct HugeSlots {
    at: *mut u64,
    len: usize,
}

impl HugeSlots {
    const HUGE: usize = 2 << 20;

    #[expect(
        unsafe_code,
        reason = "a private anonymous mapping, owned and unmapped by this value"
    )]
    fn new(len: usize) -> HugeSlots {
        let bytes = (len * 8).next_multiple_of(Self::HUGE);
        // SAFETY: a fresh private anonymous mapping; MADV_HUGEPAGE only changes how it is backed.
        let at = unsafe {
            let at = libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert!(at != libc::MAP_FAILED, "mapping {bytes} bytes");
            libc::madvise(at, bytes, libc::MADV_HUGEPAGE);
            at.cast::<u64>()
        };
        HugeSlots { at, len }
    }
}

impl std::ops::Deref for HugeSlots {
    type Target = [u64];
    #[expect(unsafe_code, reason = "the mapping holds len zeroed slots")]
    fn deref(&self) -> &[u64] {
        // SAFETY: the mapping is at least len * 8 bytes, zero-filled, and lives as long as self.
        unsafe { std::slice::from_raw_parts(self.at, self.len) }
    }
}

impl std::ops::DerefMut for HugeSlots {
    #[expect(unsafe_code, reason = "the mapping holds len zeroed slots")]
    fn deref_mut(&mut self) -> &mut [u64] {
        // SAFETY: as in deref, and &mut self is the only access.
        unsafe { std::slice::from_raw_parts_mut(self.at, self.len) }
    }
}

impl Drop for HugeSlots {
    #[expect(unsafe_code, reason = "unmaps the mapping made in new")]
    fn drop(&mut self) {
        // SAFETY: the mapping made in new, of this length, no longer borrowed.
        unsafe {
            libc::munmap(self.at.cast(), (self.len * 8).next_multiple_of(Self::HUGE));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    if args == ["--memory"] {
        memory();
        return;
    }
    let Options {
        ratio,
        range,
        exact,
        file,
        threads,
        mut more,
        partition,
        races,
        longest,
        races_only,
    } = match parse_args(args.into_iter()) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("korf24: {message}\n{USAGE}");
            std::process::exit(2);
        }
    };
    if let Some(first) = partition {
        more.insert(0, first);
    } else if !more.is_empty() {
        more.insert(0, Partition::default_for(Grid::new(5, 5).expect("5x5"), 24));
    }
    if more.len() > 1 && !races.is_empty() {
        eprintln!("korf24: --add and --race do not go together\n{USAGE}");
        std::process::exit(2);
    }
    if exact {
        optimal(
            file.as_ref(),
            &more,
            &races,
            threads,
            longest,
            &range,
            races_only,
        );
        return;
    }
    // With --file, the bounded search is guided by the databases too.
    let dbs = file
        .as_ref()
        .map(|f| Arc::new(databases(Some(f), &more, threads)));
    let first = range.first().copied().unwrap_or(1);
    let last = range.get(1).copied().unwrap_or(50);
    let grid = Grid::new(5, 5).expect("5x5");
    let goal = GridBoard::goal(grid);
    let (mut over, mut proven, mut count, mut wrong) = (0.0, 0.0, 0, 0);
    let started = Instant::now();
    for (id, optimum, cells) in instances() {
        if id < first || id > last {
            continue;
        }
        let start = GridBoard::new(grid, &cells).expect("a valid board");
        let t = Instant::now();
        let answer = match &dbs {
            Some(dbs) => bounded::solve_with_databases(&start, &goal, ratio, dbs, &Stop::never()),
            None => bounded::solve(&start, &goal, ratio, &Stop::never()),
        }
        .expect("no stop");
        let elapsed = t.elapsed();
        let len = answer.moves.len() as u32;
        let ok = start.replay(&answer.moves).ok() == Some(goal.clone())
            && len >= optimum
            && answer.lower_bound <= optimum;
        wrong += usize::from(!ok);
        let method = match answer.method {
            Method::Weighted(w) => format!("weighted {w}"),
            Method::Constructive => "constructive".to_owned(),
        };
        println!(
            "{id:>2}: {len:>4} moves, proven >= {:>3}, optimum {optimum:>3} ({:.3}x), {method}, {} nodes, {:.1} ms{}",
            answer.lower_bound,
            f64::from(len) / f64::from(optimum),
            answer.stats.nodes,
            elapsed.as_secs_f64() * 1e3,
            if ok { "" } else { "  WRONG" }
        );
        over += f64::from(len) / f64::from(optimum);
        proven += answer.ratio();
        count += 1;
    }
    println!(
        "{count} instances, --ratio {ratio}: mean length {:.3}x the optimum, mean proven ratio {:.3}, {:.2} s in all",
        over / f64::from(count.max(1)),
        proven / f64::from(count.max(1)),
        started.elapsed().as_secs_f64()
    );
    if wrong > 0 {
        eprintln!("{wrong} answers wrong");
        std::process::exit(1);
    }
}
