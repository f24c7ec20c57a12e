//! Sliding-tile benchmarks: the 3×3 tables and answers, the 4×4 databases and searches, the
//! move-pruning automata of the 15- and 24-puzzle.
//!
//! `cargo bench -p solver-core --bench tiles`. Korf's 100 as a whole (about ten seconds a run) is
//! measured by `cargo run --release -p solver-core --example korf100` instead; here a fixed
//! subset of it keeps the bench short.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use solver_core::fifteen::{Fifteen, Partition, PatternDatabases};
use solver_core::tiles::fsm::{self, MovePruning};
use solver_core::tiles::grid::Grid;
use solver_core::{Board3, Board4, Move, Stop, eight};

use solver_test_support::korf::instances;
use solver_test_support::rng::Lcg;

fn board3(rng: &mut Lcg) -> Board3 {
    let mut cells: Vec<u8> = (0..9).collect();
    for i in (1..9).rev() {
        cells.swap(i, (rng.bits() % (i as u64 + 1)) as usize);
    }
    Board3::from_cells(&cells).unwrap()
}

fn eight_tables(c: &mut Criterion) {
    c.bench_function("eight/build all nine trees", |b| {
        b.iter(eight::Tables::build);
    });
    let tables = eight::Tables::build();
    let mut rng = Lcg::new(7);
    let pairs: Vec<(Board3, Board3)> = (0..1024)
        .map(|_| (board3(&mut rng), board3(&mut rng)))
        .filter(|(s, t)| s.can_reach(t))
        .collect();
    let mut i = 0;
    c.bench_function("eight/one answer (random start and target)", |b| {
        b.iter(|| {
            i = (i + 1) % pairs.len();
            let (s, t) = &pairs[i];
            black_box(tables.solve(black_box(s), black_box(t)))
        });
    });
}

fn korf_subset() -> Vec<Board4> {
    // Instances 2, 4, 5, 8, 9, 12, 13: between 45 and 56 moves, a few milliseconds each.
    let wanted = [2, 4, 5, 8, 9, 12, 13];
    instances()
        .filter(|instance| wanted.contains(&instance.id))
        .map(|instance| instance.board)
        .collect()
}

fn fifteen(c: &mut Criterion) {
    let mut group = c.benchmark_group("fifteen");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(60));
    group.bench_function("build 6-6-3 databases", |b| {
        b.iter(|| PatternDatabases::build(Partition::P663));
    });
    group.finish();

    let solver = Fifteen::with(PatternDatabases::build(Partition::P663));
    let boards = korf_subset();
    let mut group = c.benchmark_group("fifteen");
    group.sample_size(10);
    group.bench_function("korf subset (7 instances, 45..56 moves)", |b| {
        b.iter(|| {
            for board in &boards {
                let answer = solver
                    .solve(board, &Board4::goal(), &Stop::never())
                    .unwrap()
                    .unwrap();
                black_box(answer.moves.len());
            }
        });
    });
    group.finish();
    black_box(Move::ALL);
}

/// The automata the searches use by default on 4×4 and 5×5 ([`fsm::longest_for`]): the 5×5 one
/// is built before a server with the 24-puzzle's databases reports SERVING.
fn pruning(c: &mut Criterion) {
    let mut group = c.benchmark_group("pruning");
    group.sample_size(10);
    for (rows, cols) in [(4, 4), (5, 5)] {
        let grid = Grid::new(rows, cols).unwrap();
        let longest = fsm::longest_for(grid);
        group.bench_function(format!("build {grid} up to {longest} moves"), |b| {
            b.iter(|| MovePruning::build(grid, Move::ALL, longest).states());
        });
    }
    group.finish();
}

criterion_group!(benches, eight_tables, fifteen, pruning);
criterion_main!(benches);
