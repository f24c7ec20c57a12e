//! Korf & Felner's 50 twenty-four-puzzles through the bounded-suboptimal solver, every answer
//! checked against the published optimal lengths.
//!
//! ```text
//! cargo run --release -p solver-core --example korf24 -- [--ratio R] [FIRST [LAST]]
//! ```
//!
//! For each instance: the answer's length, its proven lower bound, the published optimum, how it
//! was found, and the time. Every answer must replay to the goal, be no shorter than the optimum,
//! and carry a lower bound no larger than it (the example exits non-zero otherwise). The totals
//! give the mean length over the optimum, the mean proven ratio and the time.

use std::time::Instant;

use solver_core::Stop;
use solver_core::tiles::bounded::{self, Method};
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

const DATA: &str = include_str!("../tests/data/korf24.txt");

fn main() {
    let mut ratio = 1.5;
    let mut range = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--ratio" => {
                ratio = args
                    .next()
                    .and_then(|r| r.parse().ok())
                    .expect("--ratio takes a number such as 1.5");
            }
            n => range.push(n.parse::<usize>().expect("instance numbers")),
        }
    }
    let first = range.first().copied().unwrap_or(1);
    let last = range.get(1).copied().unwrap_or(50);
    let grid = Grid::new(5, 5).expect("5x5");
    let goal = GridBoard::goal(grid);
    let (mut over, mut proven, mut count, mut wrong) = (0.0, 0.0, 0, 0);
    let started = Instant::now();
    for line in DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let numbers: Vec<u32> = line
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        let (id, optimum) = (numbers[0] as usize, numbers[1]);
        if id < first || id > last {
            continue;
        }
        let start = GridBoard::new(grid, &numbers[2..]).expect("a valid board");
        let t = Instant::now();
        let answer = bounded::solve(&start, &goal, ratio, &Stop::never()).expect("no stop");
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
