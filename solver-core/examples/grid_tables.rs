//! Builds the complete distance tables of a shape and times answers from them.
//!
//! ```text
//! cargo run --release -p solver-core --example grid_tables -- 3x4 [--threads 2] [--pairs 100000]
//!     [--ida 10] [--ida-seconds 20] [--only CELL] [--dir DIR]
//! ```
//!
//! `--dir` keeps the tables there (read if present, written after a build).
//!
//! For each class of blank cells: build time, memory (the table, and the process's peak while
//! building), layers (the radius: 53 for 3×4, 80 for 2×6). Then random start/target pairs with
//! any blank cells: median, 99th percentile and worst time per answer, every answer replayed to
//! its target, and a sample (spread over the lengths, the longest included) compared move for
//! move with the size-generic IDA* (a search past `--ida-seconds` is reported, not failed).

use std::time::{Duration, Instant};

use solver_core::tiles::fsm::PruningTables;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::grid_ida;
use solver_core::tiles::grid_table::{GridTable, GridTables, storage};
use solver_core::{Pace, Progress, Stop, Turn, Unpaced, format_moves};
use solver_test_support::rng::Lcg;

struct Options {
    grid: Grid,
    threads: usize,
    pairs: usize,
    ida: usize,
    ida_seconds: u64,
    only: Option<usize>,
    dir: Option<std::path::PathBuf>,
}

fn options() -> Options {
    let mut args = std::env::args().skip(1);
    let mut grid = None;
    let mut options = Options {
        grid: Grid::new(3, 4).expect("a shape"),
        threads: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        pairs: 100_000,
        ida: 10,
        ida_seconds: 20,
        only: None,
        dir: None,
    };
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or_else(|| panic!("{arg} takes a number"))
        };
        match arg.as_str() {
            "--threads" => options.threads = value(),
            "--pairs" => options.pairs = value(),
            "--ida" => options.ida = value(),
            "--ida-seconds" => options.ida_seconds = value() as u64,
            "--only" => options.only = Some(value()),
            "--dir" => options.dir = args.next().map(Into::into),
            shape => {
                let (rows, cols) = shape
                    .split_once('x')
                    .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)))
                    .unwrap_or_else(|| panic!("not a shape RxC: {shape}"));
                grid = Some(Grid::new(rows, cols).expect("a supported shape"));
            }
        }
    }
    options.grid = grid.unwrap_or(options.grid);
    options
}

/// Prints a line per 10 layers.
struct Layers;

impl Pace for Layers {
    fn enter(&self) -> Box<dyn Turn + '_> {
        Unpaced.enter()
    }

    fn layer_done(&self, p: Progress) {
        if p.layers.is_multiple_of(10) {
            eprintln!(
                "  layer {:3}: {:.1}% of {} boards reached",
                p.layers,
                100.0 * p.reached as f64 / p.placements as f64,
                p.placements
            );
        }
    }
}

/// A field of /proc/self/status in MB (Linux), e.g. the peak resident size `VmHWM`.
fn status_mb(field: &str) -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// A random board of `grid`.
fn shuffled(grid: Grid, rng: &mut Lcg) -> Vec<u8> {
    let mut cells: Vec<u8> = (0..grid.cells() as u8).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i + 1));
    }
    cells
}

fn main() {
    let options = options();
    let grid = options.grid;
    let tables = GridTables::new(grid, options.threads).expect("a shape of at most 12 cells");
    let classes: Vec<usize> = match options.only {
        Some(cell) => vec![cell],
        None => tables.classes().to_vec(),
    };
    println!(
        "{grid}: classes of blank cells {classes:?}, {} threads",
        options.threads
    );
    let mut radius = 0;
    for &cell in &classes {
        // Reset the peak resident size (Linux), so each build's own peak shows.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        let before = status_mb("VmRSS:").unwrap_or(0.0);
        let started = Instant::now();
        let path = options
            .dir
            .as_ref()
            .map(|d| d.join(storage::file_name(grid, cell)));
        if let Some(path) = path.as_ref().filter(|p| p.exists()) {
            let file = std::io::BufReader::new(std::fs::File::open(path).expect("readable"));
            let table = GridTable::read_from(file, grid, cell).expect("a stored table");
            println!(
                "blank cell {cell}: read {} in {:.2} s, radius {}",
                path.display(),
                started.elapsed().as_secs_f64(),
                table.radius()
            );
            radius = radius.max(table.radius());
            tables.insert(table).expect("one table per class");
            continue;
        }
        let table = GridTable::build(grid, cell, options.threads, &Layers).expect("a class cell");
        let took = started.elapsed();
        let peak = status_mb("VmHWM:").unwrap_or(0.0);
        println!(
            "blank cell {cell}: built in {:.1} s, {} boards, table {:.1} MB, process peak {:.0} MB \
             while building ({:.0} MB before), {} layers (radius {})",
            took.as_secs_f64(),
            table.boards(),
            table.bytes() as f64 / 1e6,
            peak,
            before,
            table.radius() + 1,
            table.radius(),
        );
        if let Some(path) = &path {
            let file = std::io::BufWriter::new(std::fs::File::create(path).expect("writable"));
            table.write_to(file).expect("written");
        }
        radius = radius.max(table.radius());
        tables.insert(table).expect("one table per class");
    }
    // The published radius is the largest distance over every target: the largest class's.
    if let Some(known) = grid.known_radius() {
        assert!(radius <= known, "beyond the published radius {known}");
        if options.only.is_none() {
            assert_eq!(radius, known, "the published radius of {grid}");
            println!("largest radius {radius}: the published radius of {grid}");
        }
    }

    let mut rng = Lcg::new(13);
    let mut times = Vec::with_capacity(options.pairs);
    let mut answers = Vec::with_capacity(options.pairs);
    while answers.len() < options.pairs {
        let target = GridBoard::new(grid, &shuffled(grid, &mut rng)).expect("a permutation");
        if tables.get(target.blank()).is_none() {
            continue;
        }
        let mut cells = shuffled(grid, &mut rng);
        if !GridBoard::new(grid, &cells)
            .expect("a permutation")
            .can_reach(&target)
        {
            let tiles: Vec<usize> = (0..cells.len()).filter(|&c| cells[c] != 0).collect();
            cells.swap(tiles[0], tiles[1]);
        }
        let start = GridBoard::new(grid, &cells).expect("a permutation");
        let began = Instant::now();
        let moves = tables.solve(&start, &target, &Unpaced).expect("reachable");
        times.push(began.elapsed());
        assert_eq!(
            start.replay(&moves).expect("moves stay on the board"),
            target
        );
        answers.push((start, target, moves));
    }
    let mut sorted = times.clone();
    sorted.sort_unstable();
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q) as usize];
    let lengths: Vec<usize> = answers.iter().map(|(_, _, m)| m.len()).collect();
    println!(
        "{} answers, all replayed to their targets: median {:.2} µs, 99% {:.2} µs, worst {:.2} µs; \
         lengths mean {:.1}, longest {}",
        answers.len(),
        micros(at(0.5)),
        micros(at(0.99)),
        micros(at(1.0)),
        lengths.iter().sum::<usize>() as f64 / lengths.len() as f64,
        lengths.iter().max().unwrap_or(&0),
    );

    // IDA*: a sample spread over the lengths, the longest included; a search past its deadline
    // is reported, not failed.
    let mut by_length: Vec<usize> = (0..answers.len()).collect();
    by_length.sort_by_key(|&i| answers[i].2.len());
    let (mut same, mut gave_up) = (0, 0);
    let pruning = PruningTables::new();
    for k in 0..options.ida {
        let (start, target, moves) =
            &answers[by_length[k * (by_length.len() - 1) / options.ida.saturating_sub(1).max(1)]];
        let stop =
            Stop::never().with_deadline(Instant::now() + Duration::from_secs(options.ida_seconds));
        let began = Instant::now();
        match grid_ida::solve(start, target, &pruning, &stop) {
            Ok(ida) => {
                assert_eq!(
                    format_moves(&ida),
                    format_moves(moves),
                    "{start} to {target}"
                );
                same += 1;
                println!(
                    "  IDA* agrees on a {}-move answer ({:.2} s)",
                    moves.len(),
                    began.elapsed().as_secs_f64()
                );
            }
            Err(stopped) => {
                gave_up += 1;
                println!("  IDA* gave up on a {}-move answer: {stopped}", moves.len());
            }
        }
    }
    println!("IDA*: {same} equal answers, {gave_up} searches past their deadline");
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
