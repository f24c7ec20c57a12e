//! Solves Korf's 100 fifteen-puzzle instances once each and checks every length.
//!
//! `cargo run --release -p solver-core --example korf100 [FIRST [LAST]]` prints one line per
//! instance and the totals: search time (databases excluded), nodes expanded, database build time.

use std::time::Instant;

use solver_core::{Board4, Stop, fifteen};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("instance numbers"))
        .collect();
    let first = args.first().copied().unwrap_or(1);
    let last = args.get(1).copied().unwrap_or(100);

    let build = Instant::now();
    fifteen::warm_up();
    let build = build.elapsed();
    println!("pattern databases built in {:.2} s", build.as_secs_f64());

    let mut total_time = 0.0;
    let mut total_nodes = 0u64;
    let mut wrong = 0;
    for line in include_str!("../tests/data/korf100.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let numbers: Vec<usize> = line
            .split_whitespace()
            .map(|t| t.parse().expect("numbers"))
            .collect();
        let (id, optimal) = (numbers[0], numbers[1]);
        if id < first || id > last {
            continue;
        }
        let board = Board4::from_cells(&numbers[2..].iter().map(|&n| n as u64).collect::<Vec<_>>())
            .expect("valid board");
        let t = Instant::now();
        let answer = fifteen::solve(&board, &Board4::goal(), &Stop::never())
            .expect("no stop")
            .expect("solvable");
        let secs = t.elapsed().as_secs_f64();
        let ok = answer.moves.len() == optimal
            && board.replay(&answer.moves).ok() == Some(Board4::goal());
        wrong += usize::from(!ok);
        total_time += secs;
        total_nodes += answer.stats.nodes;
        println!(
            "{id:3} {:2} {} {:8.3} s {:12} nodes",
            answer.moves.len(),
            if ok { "ok " } else { "BAD" },
            secs,
            answer.stats.nodes
        );
    }
    println!(
        "total {total_time:.2} s, {total_nodes} nodes, {wrong} wrong ({} method)",
        "pdb-663"
    );
    assert_eq!(wrong, 0, "wrong answers");
}
