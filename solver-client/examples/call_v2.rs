//! Calling `solver.v2.SolverService` from Rust with the generated client of `solver-proto` (the
//! example of `docs/calling.md`): `Solve`, `Hint`, `Scramble`, and a bad request whose
//! `google.rpc.BadRequest` detail is read.
//!
//! ```sh
//! cargo run -p solver-server --release -- --listen 127.0.0.1:50051 &
//! cargo run -p solver-client --example call_v2 -- http://127.0.0.1:50051
//! ```

use solver_proto::tonic_types::StatusExt as _;
use solver_proto::v2::solver_service_client::SolverServiceClient;
use solver_proto::v2::{
    HintRequest, ScrambleRequest, SlidingPuzzle, SolveRequest, solution, solve_request,
    solve_response,
};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "http://127.0.0.1:50051".to_owned());
    let mut client = SolverServiceClient::connect(address).await?;

    // Solve: one sliding case; an empty target is the standard goal (blank last).
    let response = client
        .solve(SolveRequest {
            id: "a".to_owned(),
            puzzle: Some(solve_request::Puzzle::Sliding(SlidingPuzzle {
                rows: 3,
                cols: 3,
                start: vec![8, 6, 7, 2, 5, 4, 3, 0, 1],
                target: Vec::new(),
            })),
            ..SolveRequest::default()
        })
        .await?
        .into_inner();
    match response.outcome {
        Some(solve_response::Outcome::Solution(solution)) => {
            if let Some(solution::Kind::Sliding(sliding)) = solution.kind {
                println!("Solve: {} moves {}", sliding.length, sliding.moves);
            }
        }
        Some(solve_response::Outcome::Unsolvable(unsolvable)) => {
            println!("Solve: unsolvable ({})", unsolvable.reason);
        }
        other => println!("Solve: {other:?}"),
    }

    // Hint: the distance, and every legal move with the distance after it, best first.
    let hint = client
        .hint(HintRequest {
            rows: 3,
            cols: 3,
            start: vec![1, 2, 3, 4, 5, 6, 0, 7, 8],
            ..HintRequest::default()
        })
        .await?
        .into_inner();
    let moves: Vec<String> = hint
        .moves
        .iter()
        .map(|m| format!("{}={}", m.direction, m.distance_after))
        .collect();
    println!(
        "Hint: distance {}, moves {}",
        hint.distance,
        moves.join(" ")
    );

    // Scramble: a board at exactly the distance asked, the same for the same seed.
    let scramble = client
        .scramble(ScrambleRequest {
            rows: 3,
            cols: 3,
            distance: 20,
            seed: 7,
        })
        .await?
        .into_inner();
    println!(
        "Scramble: {:?} at distance {} ({:?})",
        scramble.board,
        scramble.distance,
        scramble.sampling()
    );

    // A bad field: INVALID_ARGUMENT, with a BadRequest naming it in the status details.
    let refused = client
        .scramble(ScrambleRequest {
            rows: 3,
            cols: 3,
            distance: 40,
            seed: 0,
        })
        .await;
    if let Err(status) = refused {
        println!("Scramble distance 40: {:?}", status.code());
        for violation in status
            .get_details_bad_request()
            .map(|bad| bad.field_violations)
            .unwrap_or_default()
        {
            println!("  {}: {}", violation.field, violation.description);
        }
    }
    Ok(())
}
