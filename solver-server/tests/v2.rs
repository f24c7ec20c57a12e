//! `solver.v2.SolverService`: every RPC against a real server, every answer checked
//! independently (replayed, and compared with the BFS oracle for 3×3, Korf's lengths or a
//! separate `Solve` for 4×4).

use std::collections::HashMap;
use std::time::Duration;

use futures::TryStreamExt as _;
use solver_core::solitaire::{self, Position, Square};
use solver_core::{Board, Board3, Board4, Move, parse_moves};
use solver_proto::tonic_types::{RpcStatusExt as _, StatusExt as _};
use solver_proto::v2::{
    self as pb, HintRequest, Limits, Quality, Sampling, ScrambleRequest, SlidingPuzzle,
    SolitairePuzzle, SolveRequest, VerifyRequest, solution, solve_request, solve_response,
};
use tonic::Code;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::common::{
    Lcg, TestServer, cells, config, distances3, endless, goal3, korf, oracle_path, walk,
};

type Client = pb::solver_service_client::SolverServiceClient<Channel>;

fn sliding<const W: usize>(id: &str, start: &Board<W>, target: Option<&Board<W>>) -> SolveRequest {
    let side = u32::try_from(W).unwrap();
    SolveRequest {
        id: id.to_owned(),
        puzzle: Some(solve_request::Puzzle::Sliding(SlidingPuzzle {
            rows: side,
            cols: side,
            start: cells(start),
            target: target.map(cells).unwrap_or_default(),
        })),
        ..SolveRequest::default()
    }
}

fn squares(list: &[(u32, u32)]) -> Vec<pb::Square> {
    list.iter()
        .map(|&(row, col)| pb::Square { row, col })
        .collect()
}

fn position(list: &[(u32, u32)]) -> Position {
    let squares: Vec<Square> = list
        .iter()
        .map(|&(r, c)| Square::new(r, c).unwrap())
        .collect();
    Position::new(&squares).unwrap()
}

fn solitaire(id: &str, start: &[(u32, u32)], end: &[(u32, u32)], max_moves: u32) -> SolveRequest {
    SolveRequest {
        id: id.to_owned(),
        puzzle: Some(solve_request::Puzzle::Solitaire(SolitairePuzzle {
            start: squares(start),
            end: squares(end),
            max_moves,
        })),
        ..SolveRequest::default()
    }
}

/// The moves of a sliding solution, checked: they replay from `start` to `target`, the length
/// and lower bound agree.
fn sliding_moves<const W: usize>(
    response: &pb::SolveResponse,
    start: &Board<W>,
    target: &Board<W>,
) -> String {
    let Some(solve_response::Outcome::Solution(pb::Solution {
        kind: Some(solution::Kind::Sliding(found)),
    })) = &response.outcome
    else {
        panic!("case {} not solved: {response:?}", response.id);
    };
    let moves = parse_moves(&found.moves).unwrap();
    assert_eq!(start.replay(&moves).unwrap(), *target, "{}", found.moves);
    assert_eq!(found.length as usize, moves.len());
    assert_eq!(found.lower_bound, found.length);
    assert!(response.stats.as_ref().unwrap().elapsed.is_some());
    found.moves.clone()
}

/// The field of the single `BadRequest` violation of a failed call.
fn bad_field(status: &tonic::Status) -> String {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let bad = status
        .get_details_bad_request()
        .expect("a BadRequest detail");
    assert_eq!(bad.field_violations.len(), 1, "{bad:?}");
    assert!(!bad.field_violations[0].description.is_empty());
    bad.field_violations[0].field.clone()
}

async fn solve(client: &mut Client, request: SolveRequest) -> pb::SolveResponse {
    client.solve(request).await.unwrap().into_inner()
}

/// The optimal length from `start` to the goal by a unary `Solve`, the solution replayed.
async fn optimal4(client: &mut Client, start: &Board4, target: &Board4) -> usize {
    let response = solve(client, sliding("check", start, Some(target))).await;
    sliding_moves(&response, start, target).len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_answers_every_kind_optimally() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;

    // 3×3 against the BFS oracle: optimal and lexicographically smallest, to the goal and to
    // other targets.
    let mut rng = Lcg::new(12);
    let goal_distances = distances3(goal3());
    for i in 0..30 {
        let start = walk(goal3(), rng.below(40), &mut rng);
        let response = solve(&mut client, sliding(&format!("e{i}"), &start, None)).await;
        assert_eq!(response.id, format!("e{i}"));
        assert_eq!(
            sliding_moves(&response, &start, &goal3()),
            oracle_path(start, &goal_distances)
        );
    }
    let target = walk(goal3(), 33, &mut rng);
    let target_distances = distances3(target);
    for i in 0..5 {
        let start = walk(target, 20 + i, &mut rng);
        let response = solve(&mut client, sliding("t", &start, Some(&target))).await;
        assert_eq!(
            sliding_moves(&response, &start, &target),
            oracle_path(start, &target_distances)
        );
    }
    let swapped = Board3::from_cells(&[2u8, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let response = solve(&mut client, sliding("u", &swapped, None)).await;
    assert!(matches!(
        response.outcome,
        Some(solve_response::Outcome::Unsolvable(_))
    ));

    // 4×4: Korf's instances and their known optimal lengths.
    for instance in [55, 79] {
        let (start, optimal) = korf(instance);
        let response = solve(&mut client, sliding("k", &start, None)).await;
        assert_eq!(
            sliding_moves(&response, &start, &Board4::goal()).len(),
            optimal,
            "Korf #{instance}"
        );
        let stats = response.stats.unwrap();
        assert!(stats.method.starts_with("pdb-"), "{stats:?}");
        assert!(stats.nodes > 0);
    }

    // Solitaire: a shortest way, replayed; and one out of reach within the limit.
    let (start, end) = (
        [(4, 4), (4, 5), (5, 4), (6, 5)],
        [(2, 4), (3, 3), (3, 6), (4, 6)],
    );
    let response = solve(&mut client, solitaire("s", &start, &end, 0)).await;
    let Some(solve_response::Outcome::Solution(pb::Solution {
        kind: Some(solution::Kind::Solitaire(found)),
    })) = &response.outcome
    else {
        panic!("{response:?}");
    };
    assert_eq!(found.length, 7);
    let steps: Vec<solitaire::Step> = found
        .moves
        .iter()
        .map(|m| {
            let (from, to) = (m.origin.unwrap(), m.destination.unwrap());
            solitaire::Step {
                from: Square::new(from.row, from.col).unwrap(),
                to: Square::new(to.row, to.col).unwrap(),
            }
        })
        .collect();
    assert_eq!(
        solitaire::replay(&position(&start), &steps).unwrap(),
        position(&end)
    );
    let response = solve(&mut client, solitaire("s6", &start, &end, 6)).await;
    assert_eq!(
        response.outcome,
        Some(solve_response::Outcome::Unreachable(pb::Unreachable {
            max_moves: 6
        }))
    );
    // Knowing that there is no way took a search: its work is reported, as for a solution.
    let stats = response.stats.unwrap();
    assert_eq!(stats.method, "bidirectional-bfs", "{stats:?}");
    assert!(stats.nodes > 0 && stats.iterations == 6, "{stats:?}");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_field_is_invalid_argument_naming_it() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let goal = goal3();
    let mut short = sliding("a", &goal, None);
    if let Some(solve_request::Puzzle::Sliding(puzzle)) = &mut short.puzzle {
        puzzle.start.pop();
    }
    let mut nine = sliding("b", &goal, None);
    if let Some(solve_request::Puzzle::Sliding(puzzle)) = &mut nine.puzzle {
        puzzle.rows = 9;
    }
    let mut bad_target = sliding("c", &goal, None);
    if let Some(solve_request::Puzzle::Sliding(puzzle)) = &mut bad_target.puzzle {
        puzzle.target = vec![9; 9];
    }
    let ratio = SolveRequest {
        quality: Some(Quality { max_ratio: 0.5 }),
        ..sliding("d", &goal, None)
    };
    let four = [(1, 1), (1, 2), (1, 3), (1, 4)];
    let cases = [
        (short, "sliding.start"),
        (nine, "sliding.rows"),
        (bad_target, "sliding.target"),
        (ratio, "quality.max_ratio"),
        (SolveRequest::default(), "puzzle"),
        (solitaire("e", &four[..3], &four, 0), "solitaire.start"),
        (solitaire("f", &four, &four, 100_000), "solitaire.max_moves"),
    ];
    for (request, field) in cases {
        let status = client.solve(request).await.unwrap_err();
        assert_eq!(bad_field(&status), field, "{status:?}");
        assert!(status.message().starts_with(field), "{status:?}");
    }
    let status = client
        .hint(HintRequest {
            rows: 3,
            cols: 9,
            start: cells(&goal),
            ..HintRequest::default()
        })
        .await
        .unwrap_err();
    assert_eq!(bad_field(&status), "cols");
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_stream_answers_good_and_bad_cases_in_band() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let mut rng = Lcg::new(21);
    let goal_distances = distances3(goal3());
    let mut eights = HashMap::new();
    let mut requests = Vec::new();
    for i in 0..200 {
        let start = walk(goal3(), rng.below(40), &mut rng);
        let id = format!("eight-{i}");
        requests.push(sliding(&id, &start, None));
        eights.insert(id, start);
    }
    let (korf_start, korf_length) = korf(79);
    requests.push(sliding("korf", &korf_start, None));
    requests.push(solitaire(
        "solitaire",
        &[(4, 4), (4, 5), (5, 4), (6, 5)],
        &[(2, 4), (3, 3), (3, 6), (4, 6)],
        0,
    ));
    let mut short = sliding("bad-start", &goal3(), None);
    if let Some(solve_request::Puzzle::Sliding(puzzle)) = &mut short.puzzle {
        puzzle.start.pop();
    }
    requests.insert(50, short);
    requests.insert(
        60,
        SolveRequest {
            id: "no-puzzle".to_owned(),
            ..SolveRequest::default()
        },
    );
    let (hard, hard_target) = endless();
    requests.insert(
        70,
        SolveRequest {
            limits: Some(Limits { node_budget: 5_000 }),
            ..sliding("budget", &hard, Some(&hard_target))
        },
    );

    let replies: Vec<pb::SolveResponse> = tokio::time::timeout(
        Duration::from_secs(60),
        client
            .solve_stream(tokio_stream::iter(requests))
            .await
            .unwrap()
            .into_inner()
            .try_collect(),
    )
    .await
    .expect("answered in time")
    .unwrap();
    let replies: HashMap<String, pb::SolveResponse> =
        replies.into_iter().map(|r| (r.id.clone(), r)).collect();
    assert_eq!(replies.len(), 205);
    for (id, start) in &eights {
        assert_eq!(
            sliding_moves(&replies[id], start, &goal3()),
            oracle_path(*start, &goal_distances)
        );
    }
    assert_eq!(
        sliding_moves(&replies["korf"], &korf_start, &Board4::goal()).len(),
        korf_length
    );
    assert!(matches!(
        replies["solitaire"].outcome,
        Some(solve_response::Outcome::Solution(_))
    ));
    for (id, field) in [("bad-start", "sliding.start"), ("no-puzzle", "puzzle")] {
        let Some(solve_response::Outcome::Error(error)) = &replies[id].outcome else {
            panic!("{:?}", replies[id]);
        };
        assert_eq!(error.code, Code::InvalidArgument as i32);
        let bad = error.get_details_bad_request().expect("BadRequest");
        assert_eq!(bad.field_violations[0].field, field);
    }
    let Some(solve_response::Outcome::Error(error)) = &replies["budget"].outcome else {
        panic!("{:?}", replies["budget"]);
    };
    assert_eq!(error.code, Code::ResourceExhausted as i32, "{error:?}");
    assert!(error.get_details_retry_info().is_none());
    assert!(error.message.contains("5000"), "{error:?}");
    server.stop().await.unwrap();
}

/// Checks a hint against exact distances: `distance_of(board)` is the optimal distance.
fn check_hint<const W: usize>(
    hint: &pb::HintResponse,
    start: &Board<W>,
    distance_of: impl Fn(&Board<W>) -> usize,
) {
    assert_eq!(hint.distance as usize, distance_of(start));
    let legal: Vec<Move> = Move::ALL
        .into_iter()
        .filter(|&m| start.apply(m).is_some())
        .collect();
    assert_eq!(hint.moves.len(), legal.len(), "{hint:?}");
    let mut previous: Option<(u32, char)> = None;
    for graded in &hint.moves {
        let letter = graded.direction.chars().next().unwrap();
        let mv = Move::from_letter(letter).unwrap();
        let after = start.apply(mv).expect("a legal move");
        assert_eq!(
            graded.distance_after as usize,
            distance_of(&after),
            "{hint:?}"
        );
        let key = (graded.distance_after, letter);
        assert!(previous.is_none_or(|p| p < key), "not best first: {hint:?}");
        previous = Some(key);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hint_distances_are_exact() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let mut rng = Lcg::new(5);
    let distances = distances3(goal3());
    for steps in [0, 1, 7, 20, 31, 40] {
        let start = walk(goal3(), steps, &mut rng);
        let hint = client
            .hint(HintRequest {
                rows: 3,
                cols: 3,
                start: cells(&start),
                ..HintRequest::default()
            })
            .await
            .unwrap()
            .into_inner();
        check_hint(&hint, &start, |b| distances[b] as usize);
    }

    // 4×4: each child's distance checked by solving it.
    for steps in [0, 18, 34] {
        let start = walk(Board4::goal(), steps, &mut rng);
        let hint = client
            .hint(HintRequest {
                rows: 4,
                cols: 4,
                start: cells(&start),
                ..HintRequest::default()
            })
            .await
            .unwrap()
            .into_inner();
        let mut exact = HashMap::new();
        exact.insert(start, optimal4(&mut client, &start, &Board4::goal()).await);
        for mv in Move::ALL {
            if let Some(after) = start.apply(mv) {
                exact.insert(after, optimal4(&mut client, &after, &Board4::goal()).await);
            }
        }
        check_hint(&hint, &start, |b| exact[b]);
        if hint.distance > 0 {
            let answer = solve(&mut client, sliding("first", &start, None)).await;
            let moves = sliding_moves(&answer, &start, &Board4::goal());
            assert!(moves.starts_with(hint.moves[0].direction.as_str()));
        }
    }

    // An unreachable target is a bad `target`; a budget too small is RESOURCE_EXHAUSTED.
    let swapped = Board3::from_cells(&[2u8, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let status = client
        .hint(HintRequest {
            rows: 3,
            cols: 3,
            start: cells(&swapped),
            ..HintRequest::default()
        })
        .await
        .unwrap_err();
    assert_eq!(bad_field(&status), "target");
    // Said as `Solve` says an unsolvable case, with the target meant when none was given.
    assert!(
        status.message().starts_with(
            "target: unsolvable: the start can never reach the target (the standard goal"
        ),
        "{}",
        status.message()
    );
    let (hard, target) = endless();
    let status = client
        .hint(HintRequest {
            rows: 4,
            cols: 4,
            start: cells(&hard),
            target: cells(&target),
            limits: Some(Limits { node_budget: 2_000 }),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.get_details_retry_info().is_none());
    server.stop().await.unwrap();
}

async fn scramble(
    client: &mut Client,
    side: u32,
    distance: u32,
    seed: u64,
) -> pb::ScrambleResponse {
    client
        .scramble(ScrambleRequest {
            rows: side,
            cols: side,
            distance,
            seed,
        })
        .await
        .unwrap()
        .into_inner()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scramble_is_exact_and_reproducible() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let distances = distances3(goal3());
    for (distance, seed) in [(0, 1), (1, 2), (14, 0), (27, 99), (31, 5), (31, 6)] {
        let drawn = scramble(&mut client, 3, distance, seed).await;
        let board = Board3::from_cells(&drawn.board).unwrap();
        assert_eq!(distances[&board], distance);
        assert_eq!((drawn.distance, drawn.seed), (distance, seed));
        assert_eq!(drawn.sampling(), Sampling::Uniform);
        assert_eq!(
            scramble(&mut client, 3, distance, seed).await.board,
            drawn.board
        );
    }
    let a = scramble(&mut client, 3, 20, 1).await;
    let b = scramble(&mut client, 3, 20, 2).await;
    assert_ne!(a.board, b.board, "different seeds, the same board");

    for (distance, seed) in [(0, 3), (9, 4), (24, 7), (34, 9), (35, 8), (46, 1)] {
        let drawn = scramble(&mut client, 4, distance, seed).await;
        let board = Board4::from_cells(&drawn.board).unwrap();
        // Uniform by rejection from 35 moves on, a random walk nearer the goal.
        let sampling = if distance >= 35 {
            Sampling::Uniform
        } else {
            Sampling::RandomWalk
        };
        assert_eq!(drawn.sampling(), sampling, "distance {distance}");
        assert_eq!(
            optimal4(&mut client, &board, &Board4::goal()).await,
            distance as usize
        );
        assert_eq!(
            scramble(&mut client, 4, distance, seed).await.board,
            drawn.board
        );
    }

    for (side, distance, field) in [(3, 32, "distance"), (4, 81, "distance"), (9, 3, "rows")] {
        let status = client
            .scramble(ScrambleRequest {
                rows: side,
                cols: side,
                distance,
                seed: 0,
            })
            .await
            .unwrap_err();
        assert_eq!(bad_field(&status), field);
    }
    server.stop().await.unwrap();
}

fn verify_request<const W: usize>(
    start: &Board<W>,
    target: &Board<W>,
    moves: &str,
) -> VerifyRequest {
    let side = u32::try_from(W).unwrap();
    VerifyRequest {
        rows: side,
        cols: side,
        start: cells(start),
        target: cells(target),
        moves: moves.to_owned(),
        limits: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_judges_legal_illegal_and_short_moves() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let start: Board3 = "1 2 3 4 5 6 7 x 8".parse().unwrap();
    let goal = goal3();
    let verdict = |moves: &str| {
        let mut client = client.clone();
        let request = verify_request(&start, &goal, moves);
        async move { client.verify(request).await.unwrap().into_inner() }
    };
    let optimal = verdict("r").await;
    assert!(optimal.legal && optimal.reaches_target);
    assert_eq!(
        (
            optimal.length,
            optimal.optimal_length,
            optimal.excess,
            optimal.first_illegal_index
        ),
        (1, 1, 0, None)
    );
    let long = verdict("rlr").await;
    assert!(long.legal && long.reaches_target);
    assert_eq!((long.length, long.optimal_length, long.excess), (3, 1, 2));
    let illegal = verdict("ldd").await;
    assert!(!illegal.legal && !illegal.reaches_target);
    assert_eq!(illegal.first_illegal_index, Some(1));
    assert_eq!(illegal.excess, 0);
    let short = verdict("u").await;
    assert!(short.legal && !short.reaches_target);
    assert_eq!(
        (short.length, short.optimal_length, short.excess),
        (1, 1, 0)
    );

    // 4×4: an optimal answer from Solve verifies with no excess.
    let (korf_start, korf_length) = korf(55);
    let answer = solve(&mut client, sliding("k", &korf_start, None)).await;
    let moves = sliding_moves(&answer, &korf_start, &Board4::goal());
    let judged = client
        .verify(verify_request(&korf_start, &Board4::goal(), &moves))
        .await
        .unwrap()
        .into_inner();
    assert!(judged.legal && judged.reaches_target);
    assert_eq!(judged.optimal_length as usize, korf_length);
    assert_eq!(judged.excess, 0);

    let status = client
        .verify(verify_request(&start, &goal, "rx"))
        .await
        .unwrap_err();
    assert_eq!(bad_field(&status), "moves");
    let swapped = Board3::from_cells(&[2u8, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let status = client
        .verify(verify_request(&swapped, &goal, ""))
        .await
        .unwrap_err();
    assert_eq!(bad_field(&status), "target");
    server.stop().await.unwrap();
}

/// `Hint`, `Scramble` and `Verify` are counted per call: by outcome, with their latency, and
/// in flight until answered or cancelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hint_scramble_and_verify_are_counted() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let start: Board3 = "1 2 3 4 5 6 7 x 8".parse().unwrap();
    let swapped = Board3::from_cells(&[2u8, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
    let hint = |board: &Board3| HintRequest {
        rows: 3,
        cols: 3,
        start: cells(board),
        ..HintRequest::default()
    };
    client.hint(hint(&start)).await.unwrap();
    client.hint(hint(&start)).await.unwrap();
    assert_eq!(
        client.hint(hint(&swapped)).await.unwrap_err().code(),
        Code::InvalidArgument
    );
    scramble(&mut client, 3, 5, 1).await;
    let far = ScrambleRequest {
        rows: 3,
        cols: 3,
        distance: 99,
        seed: 0,
    };
    assert_eq!(
        client.scramble(far).await.unwrap_err().code(),
        Code::InvalidArgument
    );
    client
        .verify(verify_request(&start, &goal3(), "r"))
        .await
        .unwrap();
    let (hard, goal) = endless();
    let mut budgeted = verify_request(&hard, &goal, "");
    budgeted.limits = Some(Limits { node_budget: 2_000 });
    assert_eq!(
        client.verify(budgeted).await.unwrap_err().code(),
        Code::ResourceExhausted
    );
    let counted = [
        ("hint", "ok", 2.0),
        ("hint", "invalid_argument", 1.0),
        ("scramble", "ok", 1.0),
        ("scramble", "invalid_argument", 1.0),
        ("verify", "ok", 1.0),
        ("verify", "resource_exhausted", 1.0),
        ("verify", "invalid_argument", 0.0),
    ];
    for (rpc, outcome, calls) in counted {
        let series = format!(r#"solver_requests_total{{rpc="{rpc}",outcome="{outcome}"}}"#);
        assert_eq!(server.metric(&series).await, calls, "{series}");
    }
    for (rpc, calls) in [("hint", 3.0), ("scramble", 2.0), ("verify", 2.0)] {
        let series = format!(r#"solver_request_latency_seconds_count{{rpc="{rpc}"}}"#);
        assert_eq!(server.metric(&series).await, calls, "{series}");
    }

    // A call whose client goes away mid-search is in flight until then, and cancelled after.
    let in_flight = r#"solver_requests_in_flight{rpc="hint"}"#;
    let cancelled = r#"solver_requests_total{rpc="hint",outcome="cancelled"}"#;
    let mut leaving = client.clone();
    let endless_hint = HintRequest {
        rows: 4,
        cols: 4,
        start: cells(&hard),
        ..HintRequest::default()
    };
    let call = tokio::spawn(async move { leaving.hint(endless_hint).await });
    let until = |series: &'static str, value: f64| {
        let server = &server;
        async move {
            tokio::time::timeout(Duration::from_secs(30), async {
                while server.metric(series).await != value {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            })
            .await
            .unwrap_or_else(|_| panic!("{series} never reached {value}"));
        }
    };
    until(in_flight, 1.0).await;
    call.abort();
    until(cancelled, 1.0).await;
    assert_eq!(server.metric(in_flight).await, 0.0);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_reports_v2_beside_v1() {
    let server = TestServer::start(config()).await;
    let mut health = HealthClient::new(server.channel().await);
    for service in ["solver.v1.Solver", "solver.v2.SolverService"] {
        tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                let reply = health
                    .check(HealthCheckRequest {
                        service: service.to_owned(),
                    })
                    .await
                    .map(|r| r.into_inner().status());
                if matches!(reply, Ok(ServingStatus::Serving)) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
        .expect("SERVING in time");
    }
    server.stop().await.unwrap();
}
