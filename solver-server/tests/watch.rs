//! `SolveWatch`: progress while a case runs, anytime answers on large boards, and the same
//! answer `Solve` gives.

use std::time::Duration;

use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::{Move, parse_moves};
use solver_proto::v2::{
    self as pb, SlidingPuzzle, SolveRequest, SolveWatchRequest, solve_request,
    solve_watch_response::Event,
};
use tonic::Code;

use crate::common::{Lcg, TestServer, config, config_with};

fn case(start: &GridBoard) -> SolveRequest {
    SolveRequest {
        id: "w".to_owned(),
        puzzle: Some(solve_request::Puzzle::Sliding(SlidingPuzzle {
            rows: start.grid().rows() as u32,
            cols: start.grid().cols() as u32,
            start: start.cells().iter().map(|&c| u32::from(c)).collect(),
            target: Vec::new(),
        })),
        ..SolveRequest::default()
    }
}

fn watch(start: &GridBoard, interval_ms: i32) -> SolveWatchRequest {
    SolveWatchRequest {
        request: Some(case(start)),
        interval: Some(prost_types::Duration {
            seconds: 0,
            nanos: interval_ms * 1_000_000,
        }),
    }
}

/// Every message of a watch until it ends: its progress messages and how it ended.
async fn follow(
    client: &mut pb::solver_service_client::SolverServiceClient<tonic::transport::Channel>,
    request: tonic::Request<SolveWatchRequest>,
) -> (
    Vec<pb::SolveProgress>,
    Result<pb::SolveResponse, tonic::Status>,
) {
    let (progress, end) = follow_until(client, request, |_| false).await;
    (progress, end.expect("followed to the end"))
}

/// The progress messages of a watch up to the first after which `enough` holds (the call is
/// then dropped: a cancel, and no end), or up to its end, with how it ended.
async fn follow_until(
    client: &mut pb::solver_service_client::SolverServiceClient<tonic::transport::Channel>,
    request: tonic::Request<SolveWatchRequest>,
    enough: impl Fn(&[pb::SolveProgress]) -> bool,
) -> (
    Vec<pb::SolveProgress>,
    Option<Result<pb::SolveResponse, tonic::Status>>,
) {
    let mut stream = client.solve_watch(request).await.unwrap().into_inner();
    let mut progress = Vec::new();
    loop {
        match stream.message().await {
            Ok(Some(pb::SolveWatchResponse {
                event: Some(Event::Progress(p)),
            })) => {
                progress.push(p);
                if enough(&progress) {
                    return (progress, None);
                }
            }
            Ok(Some(pb::SolveWatchResponse {
                event: Some(Event::Answer(answer)),
            })) => {
                assert!(
                    stream.message().await.unwrap().is_none(),
                    "the answer ends it"
                );
                return (progress, Some(Ok(answer)));
            }
            Ok(other) => panic!("an empty message or an end without answer: {other:?}"),
            Err(status) => return (progress, Some(Err(status))),
        }
    }
}

/// Checks every best answer replays to the goal and every bound only rises and stays below it.
fn check_progress(progress: &[pb::SolveProgress], start: &GridBoard) {
    let goal = GridBoard::goal(start.grid());
    let mut bound = 0;
    for p in progress {
        assert!(p.lower_bound >= bound, "the bound went down: {progress:?}");
        bound = p.lower_bound;
        if let Some(best) = &p.best {
            let moves = parse_moves(&best.moves).unwrap();
            assert_eq!(start.replay(&moves).as_ref(), Ok(&goal), "{best:?}");
            assert_eq!(best.length as usize, moves.len());
            assert!(p.lower_bound <= best.length, "{p:?}");
            let ratio = f64::from(best.length) / f64::from(p.lower_bound);
            assert!((p.best_ratio - ratio).abs() < 1e-9, "{p:?}");
        }
    }
}

/// The progress of a watch of `start` (a message every `interval_ms` at most) that `timeout`
/// ends before any answer, checked.
async fn watch_to_deadline(
    client: &mut pb::solver_service_client::SolverServiceClient<tonic::transport::Channel>,
    start: &GridBoard,
    interval_ms: i32,
    timeout: Duration,
) -> Vec<pb::SolveProgress> {
    let mut request = tonic::Request::new(watch(start, interval_ms));
    request.set_timeout(timeout);
    let (progress, end) = follow(client, request).await;
    let status = end.expect_err("no optimum before the deadline");
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    check_progress(&progress, start);
    progress
}

/// The progress of a watch of `start` (a message every `interval_ms` at most), checked, up to
/// the first message after which `enough` holds; the call is then dropped (a cancel). Panics
/// when the case ends first or `cap` passes: waiting for what a test needs rather than for a
/// fixed time keeps it right on a loaded machine and quick on an idle one.
async fn watch_until(
    client: &mut pb::solver_service_client::SolverServiceClient<tonic::transport::Channel>,
    start: &GridBoard,
    interval_ms: i32,
    cap: Duration,
    enough: impl Fn(&[pb::SolveProgress]) -> bool,
) -> Vec<pb::SolveProgress> {
    let mut request = tonic::Request::new(watch(start, interval_ms));
    request.set_timeout(cap);
    let (progress, end) = follow_until(client, request, enough).await;
    if let Some(end) = end {
        panic!("the watch ended before the test saw enough: {end:?}, {progress:?}");
    }
    check_progress(&progress, start);
    progress
}

/// The distinct lower bounds a watch's Searching messages gave.
fn searching_bounds(progress: &[pb::SolveProgress]) -> std::collections::BTreeSet<u32> {
    progress
        .iter()
        .filter(|p| p.phase() == pb::SolvePhase::Searching)
        .map(|p| p.lower_bound)
        .collect()
}

/// A server that builds no table for the other shapes: their optimal searches use Manhattan
/// distance, so a hard board stays hard and an easy one needs no build.
async fn without_tables() -> TestServer {
    TestServer::start(config_with(|config| config.tables.memory = 0)).await
}

#[tokio::test]
async fn a_watched_case_ends_with_the_answer_solve_gives() {
    let server = without_tables().await;
    let mut client = server.client_v2().await;
    let grid = Grid::new(5, 5).unwrap();
    let mut rng = Lcg::new(71);
    for _ in 0..3 {
        let mut start = GridBoard::goal(grid);
        for _ in 0..40 {
            start = start.apply(Move::ALL[rng.below(4)]).unwrap_or(start);
        }
        let (progress, answer) = follow(&mut client, tonic::Request::new(watch(&start, 100))).await;
        let answer = answer.unwrap();
        check_progress(&progress, &start);
        let solved = client.solve(case(&start)).await.unwrap().into_inner();
        assert_eq!(answer.outcome, solved.outcome, "{progress:?}");
    }
}

#[tokio::test]
async fn a_hard_case_shows_an_answer_and_then_a_rising_bound() {
    let server = without_tables().await;
    let mut client = server.client_v2().await;
    // A bounded answer, then the optimal search raising its bound twice: seconds on an idle
    // machine; the cap only ends a test that would otherwise hang.
    let progress = watch_until(
        &mut client,
        &korf_1(),
        100,
        Duration::from_secs(60),
        |progress| {
            progress.iter().any(|p| p.best.is_some()) && searching_bounds(progress).len() >= 2
        },
    )
    .await;
    // The first message comes at once: the case waiting for a token, or (on a server with
    // tokens free, its background builds below callers' work) already bounding.
    let first = progress.first().expect("progress at once");
    assert!(
        matches!(
            first.phase(),
            pb::SolvePhase::Waiting | pb::SolvePhase::Bounding
        ),
        "{first:?}"
    );
    let at = first.elapsed.as_ref().expect("elapsed");
    assert!(at.seconds == 0, "{first:?}");
    // The bounded answer came before the optimal search began.
    let answered = progress.iter().position(|p| p.best.is_some()).unwrap();
    let searching = progress
        .iter()
        .position(|p| p.phase() == pb::SolvePhase::Searching)
        .unwrap();
    assert!(answered <= searching, "{progress:?}");
    assert!(
        progress[answered].best.as_ref().unwrap().length >= 95,
        "{progress:?}"
    );
    assert!(progress.last().unwrap().nodes > 0);
}

#[tokio::test]
async fn a_watch_past_its_deadline_ends_with_deadline_exceeded_and_its_progress_so_far() {
    let server = without_tables().await;
    let mut client = server.client_v2().await;
    let progress = watch_to_deadline(&mut client, &korf_1(), 50, Duration::from_millis(500)).await;
    assert!(!progress.is_empty());
}

/// Korf & Felner's instance 1 (95 moves): far beyond Manhattan distance's IDA* in seconds.
fn korf_1() -> GridBoard {
    GridBoard::new(
        Grid::new(5, 5).unwrap(),
        &[
            12u8, 3, 9, 22, 1, 18, 24, 4, 14, 19, 21, 5, 15, 0, 10, 8, 13, 6, 2, 17, 7, 23, 16, 20,
            11,
        ],
    )
    .unwrap()
}

#[tokio::test]
async fn a_case_behind_another_callers_work_shows_waiting_then_gets_its_share() {
    // One search thread, held by another connection's hard case.
    let server = TestServer::start(config_with(|config| {
        config.tables.memory = 0;
        config.scheduling.workers = 1;
    }))
    .await;
    let mut hog = server.client_v2().await;
    let mut request = tonic::Request::new(case(&korf_1()));
    request.set_timeout(Duration::from_secs(8));
    let hogging = tokio::spawn(async move { hog.solve(request).await });
    // Long enough for it to start (and with it the build of the 5×5 move-pruning automaton,
    // about a second of work that must yield too), short of that build's end.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!hogging.is_finished(), "the other case ended early");

    let mut client = server.client_v2().await;
    // Instance 1 turned about the diagonal: as hard, and not the same case.
    let start = korf_1();
    let mirrored: Vec<u8> = (0..25)
        .map(|cell| start.cells()[(cell % 5) * 5 + cell / 5])
        .collect();
    let start = GridBoard::new(start.grid(), &mirrored).unwrap();
    // Until it searches (a cap of 6 s, while the other case has 8).
    let progress = watch_until(
        &mut client,
        &start,
        50,
        Duration::from_secs(6),
        |progress| {
            progress.last().is_some_and(|last| {
                matches!(
                    last.phase(),
                    pb::SolvePhase::Bounding | pb::SolvePhase::Searching
                ) && last.nodes > 0
            })
        },
    )
    .await;
    // The one thread was busy when the case came: it said so at once ...
    let first = progress.first().expect("progress at once");
    assert_eq!(first.phase(), pb::SolvePhase::Waiting, "{progress:?}");
    // ... and was not starved: it searched beside the other case, which still runs.
    assert!(
        !hogging.is_finished(),
        "the other case ended first: {progress:?}"
    );
    // Its deadline ends it, told by the server or (in a close race) by the client's timer.
    let other = hogging.await.unwrap().expect_err("no optimum within 8 s");
    assert!(
        matches!(other.code(), Code::DeadlineExceeded | Code::Cancelled),
        "{other:?}"
    );
}

#[tokio::test]
async fn a_watch_without_a_case_is_refused_by_name() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let status = client
        .solve_watch(SolveWatchRequest::default())
        .await
        .expect_err("no case");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("request"), "{status:?}");
}

#[tokio::test]
async fn a_watched_case_waiting_for_its_databases_ends_with_the_optimum() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let start = GridBoard::new(
        Grid::new(4, 5).unwrap(),
        &[
            1u8, 2, 13, 10, 3, 6, 8, 14, 5, 4, 11, 0, 7, 18, 9, 16, 12, 15, 17, 19,
        ],
    )
    .unwrap();
    let (progress, answer) = follow(&mut client, tonic::Request::new(watch(&start, 100))).await;
    let answer = answer.unwrap();
    check_progress(&progress, &start);
    let solved = client.solve(case(&start)).await.unwrap().into_inner();
    assert_eq!(answer.outcome, solved.outcome, "{progress:?}");
}
