//! Solves Korf's 100 fifteen-puzzle instances once each and checks every length.
//!
//! ```text
//! cargo run --release -p solver-core --example korf100 -- [--partition 663|78] [--file PATH] [--move-pruning N] [FIRST [LAST]]
//! ```
//!
//! `--reverse` solves from the goal to each instance instead (same optimal lengths; the targets'
//! blanks lie anywhere, so this measures the databases for other goals).
//! `--move-pruning N` sets the longest duplicate move strings the search prunes (default 12;
//! 2 = only a move and its reverse), to measure what the pruning gains.
//! With `--file`, the databases are read from PATH if it exists, else built and written there.
//! Prints one line per instance and the totals: search time (databases excluded), nodes
//! expanded, database build or load time, and the process's peak resident memory.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::PathBuf;
use std::time::Instant;

use solver_core::fifteen::{DatabaseSet, Fifteen, Partition, PatternDatabases};
use solver_core::{Board4, Stop};
use solver_test_support::korf::{Instance, instances};

fn main() {
    let mut partition = Partition::P663;
    let mut file: Option<PathBuf> = None;
    let mut move_pruning = None;
    let mut reverse = false;
    let mut range = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--partition" => {
                partition = match args.next().as_deref() {
                    Some("663") => Partition::P663,
                    Some("78") => Partition::P78,
                    other => panic!("--partition takes 663 or 78, not {other:?}"),
                }
            }
            "--file" => file = Some(args.next().expect("--file takes a path").into()),
            "--reverse" => reverse = true,
            "--move-pruning" => {
                move_pruning = Some(
                    args.next()
                        .and_then(|n| n.parse().ok())
                        .expect("--move-pruning takes a number of moves"),
                );
            }
            n => range.push(n.parse::<usize>().expect("instance numbers")),
        }
    }
    let first = range.first().copied().unwrap_or(1);
    let last = range.get(1).copied().unwrap_or(100);

    let t = Instant::now();
    let databases = match &file {
        Some(path) if path.exists() => {
            let reader = BufReader::new(File::open(path).expect("open the database file"));
            let dbs = PatternDatabases::read_from(reader, DatabaseSet::Standard(partition))
                .expect("a valid database file");
            println!(
                "databases loaded from {} in {:.2} s",
                path.display(),
                t.elapsed().as_secs_f64()
            );
            dbs
        }
        _ => {
            let dbs = PatternDatabases::build(partition);
            println!("databases built in {:.2} s", t.elapsed().as_secs_f64());
            if let Some(path) = &file {
                let t = Instant::now();
                dbs.write_to(BufWriter::new(
                    File::create(path).expect("create the database file"),
                ))
                .expect("write the database file");
                println!(
                    "written to {} in {:.2} s",
                    path.display(),
                    t.elapsed().as_secs_f64()
                );
            }
            dbs
        }
    };

    let databases = match move_pruning {
        Some(longest) => databases.with_move_pruning(longest),
        None => databases,
    };
    // The search's move-pruning tables are built here, outside the timing.
    let t = Instant::now();
    let solver = Fifteen::with(databases);
    solver.warm_up(&solver_core::Unpaced);
    if reverse {
        solver.warm_up_any_target(&solver_core::Unpaced);
    }
    println!("search tables ready in {:.3} s", t.elapsed().as_secs_f64());

    let mut total_time = 0.0;
    let mut total_nodes = 0u64;
    let mut solved = 0;
    let mut wrong = 0;
    for Instance { id, optimal, board } in instances() {
        if id < first || id > last {
            continue;
        }
        let t = Instant::now();
        let (from, to) = if reverse {
            (Board4::goal(), board)
        } else {
            (board, Board4::goal())
        };
        let answer = solver
            .solve(&from, &to, &Stop::never())
            .expect("no stop")
            .expect("solvable");
        let secs = t.elapsed().as_secs_f64();
        let ok = answer.moves.len() == optimal && from.replay(&answer.moves).ok() == Some(to);
        wrong += usize::from(!ok);
        solved += 1;
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
        "{} instances: search {total_time:.2} s, {total_nodes} nodes ({} per instance), {wrong} wrong, method {}",
        solved,
        total_nodes / solved.max(1) as u64,
        solver.method()
    );
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        for line in status
            .lines()
            .filter(|l| l.starts_with("VmHWM") || l.starts_with("VmRSS"))
        {
            println!("{line}");
        }
    }
    assert_eq!(wrong, 0, "wrong answers");
}
