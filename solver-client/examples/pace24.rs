//! Korf & Felner's 24-puzzles through a running server, one v2 unary `Solve` after another, the
//! way issue 25 checks the 24-puzzle's pace: each answer replayed to the goal and compared with
//! the published optimum, the wall time of each call, and what the total means for all 50.
//!
//! The server's data directory should hold every set the server would otherwise build while
//! the cases run (`solver-client databases build --size 5x5 --data-dir data` and
//! `solver-server build-databases --data-dir data`): a build in the background takes about
//! 11 % of the CPU from callers' work until it ends, and slows it with its memory traffic
//! (#4 took 78.7 s with only the 5×5 set stored, against 66.5 s with every set).
//!
//! ```sh
//! SOLVER_CASE_TIMEOUT=1800s target/release/solver-server --data-dir data --listen 127.0.0.1:50051 &
//! cargo run --release -p solver-client --example pace24 -- http://127.0.0.1:50051
//! cargo run --release -p solver-client --example pace24 -- http://127.0.0.1:50051 --ratio 1.5 all
//! ```
//!
//! Without instance numbers it runs the 20 easiest by Korf & Felner's 2002 node counts. The
//! optimal run projects its total onto all 50 by the instances' share of the expansions of
//! Clausecker & Reinefeld's small catalogue (2019), the yardstick of the issue; `--ratio R`
//! asks for answers within `R` of the optimum and checks each proven bound. Exits non-zero
//! when any answer is wrong or missing.

use std::process::ExitCode;
use std::time::Instant;

use solver_core::benchmarks::{Instance24, korf24, korf24_easiest};
use solver_core::parse_moves;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_proto::v2::solver_service_client::SolverServiceClient;
use solver_proto::v2::{
    Quality, SlidingPuzzle, SlidingSolution, SolveRequest, solution, solve_request, solve_response,
};

/// What a run asks for, from the command line.
struct Options {
    server: String,
    ratio: Option<f64>,
    ids: Vec<usize>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let server = args
        .next()
        .ok_or("usage: pace24 URL [--ratio R] [all | ID...]")?;
    let (mut ratio, mut ids) = (None, Vec::new());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--ratio" => {
                let text = args.next().ok_or("--ratio takes a number")?;
                let r: f64 = text
                    .parse()
                    .map_err(|_| format!("--ratio takes a number, not {text:?}"))?;
                ratio = Some(r);
            }
            "all" => ids.extend(1..=50),
            id => match id.parse::<usize>() {
                Ok(n @ 1..=50) => ids.push(n),
                _ => return Err(format!("{id:?} is not an instance number (1 to 50)")),
            },
        }
    }
    if ids.is_empty() {
        ids = korf24_easiest(20);
    }
    Ok(Options { server, ratio, ids })
}

/// The answer's moves when they take `start` to the goal, else why not.
fn replayed(start: &[u32], answer: &SlidingSolution) -> Result<(), String> {
    let grid = Grid::new(5, 5).expect("5x5");
    let board = GridBoard::new(grid, start).map_err(|e| e.to_string())?;
    let moves = parse_moves(&answer.moves).map_err(|e| e.to_string())?;
    if moves.len() != answer.length as usize {
        return Err(format!(
            "{} moves, length says {}",
            moves.len(),
            answer.length
        ));
    }
    match board.replay(&moves) {
        Ok(end) if end == GridBoard::goal(grid) => Ok(()),
        Ok(_) => Err("the moves do not reach the goal".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

/// One call: the answer and its wall time in seconds, or what went wrong.
async fn solve(
    client: &mut SolverServiceClient<tonic::transport::Channel>,
    instance: &Instance24,
    ratio: Option<f64>,
) -> (Result<(SlidingSolution, u64), String>, f64) {
    let request = SolveRequest {
        id: instance.id.to_string(),
        puzzle: Some(solve_request::Puzzle::Sliding(SlidingPuzzle {
            rows: 5,
            cols: 5,
            start: instance.cells.clone(),
            target: Vec::new(),
        })),
        quality: ratio.map(|max_ratio| Quality { max_ratio }),
        ..SolveRequest::default()
    };
    let t = Instant::now();
    let reply = client.solve(request).await;
    let seconds = t.elapsed().as_secs_f64();
    let answer = match reply.map(tonic::Response::into_inner) {
        Err(status) => Err(format!("{:?}: {}", status.code(), status.message())),
        Ok(response) => {
            let nodes = response.stats.map_or(0, |s| s.nodes);
            match response.outcome {
                Some(solve_response::Outcome::Solution(solution)) => match solution.kind {
                    Some(solution::Kind::Sliding(sliding)) => Ok((sliding, nodes)),
                    other => Err(format!("not a sliding solution: {other:?}")),
                },
                other => Err(format!("no solution: {other:?}")),
            }
        }
    };
    (answer, seconds)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let mut client = match SolverServiceClient::connect(options.server.clone()).await {
        Ok(client) => client,
        Err(e) => {
            eprintln!("cannot connect to {}: {e}", options.server);
            return ExitCode::from(2);
        }
    };
    let all = korf24();
    let (mut total, mut wrong, mut slowest) = (0.0, 0, 0.0f64);
    let (mut over, mut proven) = (Vec::new(), Vec::new());
    for &id in &options.ids {
        let instance = &all[id - 1];
        let (answer, seconds) = solve(&mut client, instance, options.ratio).await;
        total += seconds;
        slowest = slowest.max(seconds);
        let checked = answer.and_then(|(sliding, nodes)| {
            replayed(&instance.cells, &sliding)?;
            let length = sliding.length;
            match options.ratio {
                None if length != instance.optimal => {
                    Err(format!("{length} moves, optimum {}", instance.optimal))
                }
                None => Ok(format!("{length} moves (the optimum), {nodes} nodes")),
                Some(r) => {
                    let bound = sliding.lower_bound;
                    if bound == 0 || bound > instance.optimal || f64::from(length) > r * f64::from(bound) {
                        return Err(format!(
                            "{length} moves with lower bound {bound}: not proven within {r} (optimum {})",
                            instance.optimal
                        ));
                    }
                    over.push(f64::from(length) / f64::from(instance.optimal));
                    proven.push(f64::from(length) / f64::from(bound));
                    Ok(format!(
                        "{length} moves ({:.3}x the optimum {}), proven >= {bound} ({:.3})",
                        over[over.len() - 1],
                        instance.optimal,
                        proven[proven.len() - 1]
                    ))
                }
            }
        });
        match checked {
            Ok(line) => println!("#{id}: {line}, {seconds:.3} s, replayed; {total:.1} s so far"),
            Err(why) => {
                wrong += 1;
                println!("#{id}: WRONG: {why} ({seconds:.3} s)");
            }
        }
    }
    let count = options.ids.len();
    if options.ratio.is_some() && !over.is_empty() {
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        println!(
            "{count} instances: mean length {:.4}x the optimum, mean proven ratio {:.3} (at most {:.3}), slowest call {:.0} ms, {total:.1} s in all",
            mean(&over),
            mean(&proven),
            proven.iter().copied().fold(0.0, f64::max),
            slowest * 1e3
        );
    } else {
        let small = |ids: &mut dyn Iterator<Item = usize>| -> u64 {
            ids.map(|id| all[id - 1].small_catalogue_nodes).sum()
        };
        let share = small(&mut options.ids.iter().copied()) as f64 / small(&mut (1..=50)) as f64;
        println!(
            "{count} instances: {total:.1} s; their share of the small catalogue's expansions over all 50: {:.2} %; all 50 at this pace: {:.1} h",
            share * 100.0,
            total / share / 3600.0
        );
    }
    if wrong > 0 {
        println!("{wrong} of {count} wrong");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
