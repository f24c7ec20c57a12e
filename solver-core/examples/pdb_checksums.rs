//! Fingerprints of built pattern databases, to show that a change to the builders leaves every
//! table byte and every progress report as it was; and build timings of single sets.
//!
//! ```text
//! cargo run --release -p solver-core --example pdb_checksums -- [--threads N] [--p78]
//! cargo run --release -p solver-core --example pdb_checksums -- --time NAME [--threads N]
//! ```
//!
//! The first form builds the 15-puzzle's 6-6-3 sets (standard goal and the three home sets;
//! `--p78` adds 7-8, minutes and 1.5 GB) and grid sets on shapes from 2×3 to 8×8 (narrow and
//! wide masks), and prints per set the CRC-32 and length of its stored form and the CRC-32 of
//! the progress reports it made. `--time NAME` builds one set (a name the first form prints)
//! and prints the seconds it took.

use std::sync::Mutex;
use std::time::Instant;

use solver_core::fifteen::{DatabaseSet, Partition};
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_pdb::{self, GridDatabases};
use solver_core::{Pace, Progress, Turn, Unpaced};

/// Keeps every progress report.
#[derive(Default)]
struct Recorder(Mutex<Vec<Progress>>);

impl Pace for Recorder {
    fn enter(&self) -> Box<dyn Turn + '_> {
        Box::new(Unpaced)
    }

    fn layer_done(&self, progress: Progress) {
        self.0.lock().expect("not poisoned").push(progress);
    }
}

/// Builds a set on some threads under a pace, and stores it.
type Builder = Box<dyn Fn(usize, &dyn Pace) -> Vec<u8>>;

/// A set to build: its name and how to build and store it.
struct Case {
    name: String,
    build: Builder,
}

fn fifteen(set: DatabaseSet) -> Case {
    Case {
        name: set.name(),
        build: Box::new(move |threads, pace| {
            let mut bytes = Vec::new();
            set.build(threads, pace)
                .write_to(&mut bytes)
                .expect("in memory");
            bytes
        }),
    }
}

fn grid(rows: usize, cols: usize, blank: usize, patterns: &[&[u8]]) -> Case {
    let grid = Grid::new(rows, cols).expect("a shape");
    let patterns: Vec<Vec<u8>> = patterns.iter().map(|p| p.to_vec()).collect();
    let partition = grid_pdb::Partition::new(grid, blank, patterns).expect("a partition");
    Case {
        name: format!(
            "grid-{grid}-blank{blank}-{}",
            partition
                .patterns()
                .iter()
                .map(|p| p.len().to_string())
                .collect::<Vec<_>>()
                .join("-")
        ),
        build: Box::new(move |threads, pace| {
            let mut bytes = Vec::new();
            GridDatabases::build(partition.clone(), threads, pace)
                .write_to(&mut bytes)
                .expect("in memory");
            bytes
        }),
    }
}

/// `cells` in order, split into patterns of `size`.
fn runs(cells: impl Iterator<Item = u8>, size: usize) -> Vec<Vec<u8>> {
    cells
        .collect::<Vec<u8>>()
        .chunks(size)
        .map(<[u8]>::to_vec)
        .collect()
}

fn grid_runs(rows: usize, cols: usize, blank: usize, size: usize) -> Case {
    let cells = (0..(rows * cols) as u8).filter(|&c| usize::from(c) != blank);
    let patterns = runs(cells, size);
    let refs: Vec<&[u8]> = patterns.iter().map(Vec::as_slice).collect();
    grid(rows, cols, blank, &refs)
}

fn cases(p78: bool) -> Vec<Case> {
    let mut cases = vec![
        fifteen(DatabaseSet::Standard(Partition::P663)),
        fifteen(DatabaseSet::Home(10)),
        fifteen(DatabaseSet::Home(13)),
        fifteen(DatabaseSet::Home(14)),
    ];
    if p78 {
        cases.push(fifteen(DatabaseSet::Standard(Partition::P78)));
    }
    cases.extend([
        grid(2, 3, 5, &[&[0, 1, 2], &[3, 4]]),
        grid(3, 4, 11, &[&[0, 1, 2, 3, 4, 5], &[6, 7, 8, 9, 10]]),
        grid(3, 4, 0, &[&[1, 2, 3, 5, 6], &[4, 7, 8, 9, 10, 11]]),
        grid(3, 4, 5, &[&[0, 1, 2, 3], &[4, 6, 7, 8], &[9, 10, 11]]),
        grid(
            4,
            4,
            15,
            &[&[0, 1, 4, 5, 8, 9], &[2, 3, 6, 7, 10, 11], &[12, 13, 14]],
        ),
        grid(
            4,
            4,
            6,
            &[&[0, 1, 2, 3, 4], &[5, 7, 8, 9, 10], &[11, 12, 13, 14, 15]],
        ),
        grid_runs(2, 8, 15, 5),
        grid_runs(5, 5, 24, 4),
        grid_runs(5, 5, 12, 5),
        grid_runs(6, 6, 35, 3),
        grid_runs(6, 6, 0, 4),
        grid_runs(8, 8, 63, 2),
        grid_runs(8, 8, 27, 3),
    ]);
    cases
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut threads, mut p78, mut time) = (2, false, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => threads = args.next().and_then(|t| t.parse().ok()).expect("N"),
            "--p78" => p78 = true,
            "--time" => time = Some(args.next().expect("a set's name")),
            other => panic!("unknown argument {other}"),
        }
    }
    let cases = cases(p78 || time.as_deref() == Some("pdb-78"));
    if let Some(name) = time {
        let case = cases
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no set named {name}"));
        let start = Instant::now();
        let bytes = (case.build)(threads, &Unpaced);
        let seconds = start.elapsed().as_secs_f64();
        println!("{name}: {seconds:.3} s ({} bytes)", bytes.len());
        return;
    }
    for case in &cases {
        let recorder = Recorder::default();
        let bytes = (case.build)(threads, &recorder);
        let reports = recorder.0.into_inner().expect("not poisoned");
        let progress = crc32fast::hash(format!("{reports:?}").as_bytes());
        println!(
            "{:<40} bytes {:>10} crc {:08x} reports {:>4} crc {progress:08x}",
            case.name,
            bytes.len(),
            crc32fast::hash(&bytes),
            reports.len()
        );
    }
}
