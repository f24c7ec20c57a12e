//! Cases on streams: many per stream, out of order, bad ones in the middle, the cache, limits.

use std::collections::HashMap;
use std::time::Duration;

use futures::{StreamExt as _, TryStreamExt as _};
use solver_core::solitaire::{self, Position, Square};
use solver_core::{Board3, Board4};
use solver_server::pb::{self, sliding_reply, solitaire_reply};
use tonic::Code;

use crate::common::{
    Lcg, TestServer, cells, checked_moves, config, config_with, endless, goal3, korf, sliding, walk,
};

/// Longest a stream of these tests may take.
const LIMIT: Duration = Duration::from_secs(60);

/// Every reply of a stream, within [`LIMIT`].
async fn all_of<T>(replies: tonic::Streaming<T>) -> Vec<T> {
    tokio::time::timeout(LIMIT, replies.try_collect())
        .await
        .expect("every case answered in time")
        .unwrap()
}

async fn eight(server: &TestServer, requests: Vec<pb::SlidingRequest>) -> Vec<pb::SlidingReply> {
    let mut client = server.client().await;
    let replies = client.solve_eight(tokio_stream::iter(requests)).await;
    all_of(replies.unwrap().into_inner()).await
}

async fn fifteen(server: &TestServer, requests: Vec<pb::SlidingRequest>) -> Vec<pb::SlidingReply> {
    let mut client = server.client().await;
    let replies = client.solve_fifteen(tokio_stream::iter(requests)).await;
    all_of(replies.unwrap().into_inner()).await
}

fn by_id(replies: Vec<pb::SlidingReply>) -> HashMap<u64, pb::SlidingReply> {
    let mut map = HashMap::new();
    for reply in replies {
        let id = reply.id;
        assert!(map.insert(id, reply).is_none(), "case {id} answered twice");
    }
    map
}

fn error_of(reply: &pb::SlidingReply) -> &pb::CaseError {
    match &reply.outcome {
        Some(sliding_reply::Outcome::Error(error)) => error,
        other => panic!("case {} is not an error: {other:?}", reply.id),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_answers_many_cases_on_one_stream_around_bad_ones() {
    let server = TestServer::start(config()).await;
    let mut rng = Lcg::new(7);
    let mut expected = HashMap::new();
    let mut requests = Vec::new();
    for id in 0..3000u64 {
        let target = if id % 3 == 0 {
            walk(goal3(), 40, &mut rng)
        } else {
            goal3()
        };
        let steps = rng.below(32);
        let start = walk(target, steps, &mut rng);
        let target_cells = if id % 3 == 0 {
            cells(&target)
        } else {
            Vec::new()
        };
        requests.push(sliding(id, &cells(&start), &target_cells));
        expected.insert(id, (start, target, steps));
    }
    // A malformed case, a duplicate tile and an unsolvable one in the middle of the stream.
    requests[1000].start.pop();
    requests[1001].start[0] = requests[1001].start[1];
    requests[1002] = sliding(1002, &[2, 1, 3, 4, 5, 6, 7, 8, 0], &[]);
    // HDU 3567's sample, whose answers are exact (optimal, then lexicographically smallest).
    requests.push(sliding(
        5000,
        &[1, 2, 0, 4, 5, 3, 7, 8, 6],
        &[1, 2, 3, 4, 5, 6, 7, 8, 0],
    ));
    requests.push(sliding(
        5001,
        &[5, 6, 4, 1, 7, 8, 0, 2, 3],
        &[7, 5, 6, 8, 0, 4, 1, 2, 3],
    ));

    let replies = by_id(eight(&server, requests).await);
    assert_eq!(replies.len(), 3002);

    let error = error_of(&replies[&1000]);
    assert_eq!(error.code, Code::InvalidArgument as i32);
    assert_eq!(error.message, "case 1000: start: expected 9 tiles, found 8");
    let error = error_of(&replies[&1001]);
    assert_eq!(error.code, Code::InvalidArgument as i32);
    assert!(
        error.message.starts_with("case 1001: start: "),
        "{}",
        error.message
    );
    assert!(matches!(
        replies[&1002].outcome,
        Some(sliding_reply::Outcome::Unsolvable(_))
    ));
    for (id, (start, target, steps)) in &expected {
        if (1000..=1002).contains(id) {
            continue;
        }
        let moves = checked_moves(&replies[id], start, target);
        assert!(
            moves.len() <= *steps,
            "case {id}: {moves} is longer than the walk"
        );
    }
    let sample = Board3::from_cells(&[1u8, 2, 0, 4, 5, 3, 7, 8, 6]).unwrap();
    assert_eq!(checked_moves(&replies[&5000], &sample, &goal3()), "dd");
    let start = Board3::from_cells(&[5u8, 6, 4, 1, 7, 8, 0, 2, 3]).unwrap();
    let target = Board3::from_cells(&[7u8, 5, 6, 8, 0, 4, 1, 2, 3]).unwrap();
    assert_eq!(checked_moves(&replies[&5001], &start, &target), "urrulldr");

    let text = server.scrape().await;
    assert!(text.contains(r#"solver_cases_total{kind="eight",outcome="invalid_argument"} 2"#));
    assert!(text.contains(r#"solver_cases_total{kind="eight",outcome="unsolvable"} 1"#));
    assert!(text.contains(r#"solver_cases_in_flight{kind="eight"} 0"#));
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifteen_replies_come_back_out_of_order_matched_by_id() {
    let server = TestServer::start(config()).await;
    let (hard, optimal) = korf(88);
    let mut rng = Lcg::new(15);
    let mut requests = vec![sliding(0, &cells(&hard), &[])];
    let mut easy = HashMap::new();
    for id in 1..=20 {
        let start = walk(Board4::goal(), 12, &mut rng);
        requests.push(sliding(id, &cells(&start), &[]));
        easy.insert(id, start);
    }
    // UVa 10181's sample: one exact answer and one unsolvable board.
    requests.push(sliding(
        100,
        &[2, 3, 4, 0, 1, 5, 7, 8, 9, 6, 10, 12, 13, 14, 11, 15],
        &[],
    ));
    requests.push(sliding(
        101,
        &[13, 1, 2, 4, 5, 0, 3, 7, 9, 6, 10, 12, 15, 8, 11, 14],
        &[],
    ));
    // A malformed one.
    requests.push(sliding(102, &[1, 2, 3], &[]));

    let replies = fifteen(&server, requests).await;
    let order: Vec<u64> = replies.iter().map(|r| r.id).collect();
    let replies = by_id(replies);
    assert_eq!(replies.len(), 24);
    let position_of_hard = order.iter().position(|&id| id == 0).unwrap();
    assert!(
        position_of_hard > 0,
        "the hard case was sent first and should not be answered first: {order:?}"
    );
    assert_eq!(
        checked_moves(&replies[&0], &hard, &Board4::goal()).len(),
        optimal
    );
    for (id, start) in &easy {
        assert!(checked_moves(&replies[id], start, &Board4::goal()).len() <= 12);
    }
    let sample =
        Board4::from_cells(&[2u8, 3, 4, 0, 1, 5, 7, 8, 9, 6, 10, 12, 13, 14, 11, 15]).unwrap();
    assert_eq!(
        checked_moves(&replies[&100], &sample, &Board4::goal()),
        "llldrdrdr"
    );
    assert!(matches!(
        replies[&101].outcome,
        Some(sliding_reply::Outcome::Unsolvable(_))
    ));
    assert_eq!(
        error_of(&replies[&102]).message,
        "case 102: start: expected 16 tiles, found 3"
    );
    let stats = replies[&0].stats.as_ref().unwrap();
    assert!(
        stats.nodes > 0 && stats.method.starts_with("pdb"),
        "{stats:?}"
    );
    server.stop().await.unwrap();
}

fn position(squares: &[(u32, u32)]) -> Vec<pb::Square> {
    squares
        .iter()
        .map(|&(row, col)| pb::Square { row, col })
        .collect()
}

fn core_position(squares: &[pb::Square]) -> Position {
    let squares: Vec<Square> = squares
        .iter()
        .map(|s| Square::new(s.row, s.col).unwrap())
        .collect();
    Position::new(&squares).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solitaire_answers_reachable_unreachable_and_bad_cases() {
    let server = TestServer::start(config()).await;
    let start = position(&[(4, 4), (4, 5), (5, 4), (6, 5)]);
    let end = position(&[(2, 4), (3, 3), (3, 6), (4, 6)]);
    let request = |id, start: &[pb::Square], end: &[pb::Square], max_moves| pb::SolitaireRequest {
        id,
        start: start.to_vec(),
        end: end.to_vec(),
        max_moves,
    };
    let requests = vec![
        request(1, &start, &end, 0),
        request(2, &start, &end, 6),
        request(3, &start[..3], &end, 0),
        request(4, &position(&[(9, 1), (1, 1), (1, 2), (1, 3)]), &end, 0),
        request(5, &start, &end, 100_000),
        request(6, &start, &start, 0),
        request(7, &position(&[(1, 1), (1, 1), (1, 2), (1, 3)]), &end, 0),
    ];
    let mut client = server.client().await;
    let replies = client.solve_solitaire(tokio_stream::iter(requests)).await;
    let replies = all_of(replies.unwrap().into_inner()).await;
    let replies: HashMap<u64, pb::SolitaireReply> =
        replies.into_iter().map(|r| (r.id, r)).collect();
    assert_eq!(replies.len(), 7);

    let Some(solitaire_reply::Outcome::Solution(solution)) = &replies[&1].outcome else {
        panic!("{:?}", replies[&1]);
    };
    assert_eq!(solution.length, 7);
    let steps: Vec<solitaire::Step> = solution
        .moves
        .iter()
        .map(|m| {
            let (from, to) = (m.from.unwrap(), m.to.unwrap());
            solitaire::Step {
                from: Square::new(from.row, from.col).unwrap(),
                to: Square::new(to.row, to.col).unwrap(),
            }
        })
        .collect();
    assert_eq!(
        solitaire::replay(&core_position(&start), &steps).unwrap(),
        core_position(&end)
    );
    assert!(matches!(
        replies[&2].outcome,
        Some(solitaire_reply::Outcome::Unreachable(pb::Unreachable {
            max_moves: 6
        }))
    ));
    // Knowing that there is no way took a search: its work is reported, as for a solution.
    let stats = replies[&2].stats.as_ref().unwrap();
    assert_eq!(stats.method, "bidirectional-bfs", "{stats:?}");
    assert!(stats.nodes > 0 && stats.iterations == 6, "{stats:?}");
    for (id, field) in [(3, "start"), (4, "start"), (5, "max_moves"), (7, "start")] {
        let Some(solitaire_reply::Outcome::Error(error)) = &replies[&id].outcome else {
            panic!("{:?}", replies[&id]);
        };
        assert_eq!(error.code, Code::InvalidArgument as i32);
        assert!(
            error.message.starts_with(&format!("case {id}: {field}: ")),
            "{}",
            error.message
        );
    }
    let Some(solitaire_reply::Outcome::Solution(solution)) = &replies[&6].outcome else {
        panic!("{:?}", replies[&6]);
    };
    assert_eq!(solution.length, 0);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_cases_and_path_suffixes_hit_the_cache() {
    let server = TestServer::start(config()).await;
    let mut rng = Lcg::new(99);
    let start3 = walk(goal3(), 25, &mut rng);
    let first = eight(&server, vec![sliding(1, &cells(&start3), &[])]).await;
    assert!(!first[0].cached);
    // A 3×3 answer is a table look-up: never cached, so never answered from the cache.
    let again = eight(&server, vec![sliding(2, &cells(&start3), &[])]).await;
    assert!(!again[0].cached, "{again:?}");
    assert_eq!(
        checked_moves(&again[0], &start3, &goal3()),
        checked_moves(&first[0], &start3, &goal3())
    );

    let start4 = walk(Board4::goal(), 40, &mut rng);
    let solved = fifteen(&server, vec![sliding(3, &cells(&start4), &[])]).await;
    assert!(!solved[0].cached);
    let moves = checked_moves(&solved[0], &start4, &Board4::goal());
    assert!(moves.len() >= 4, "{moves}");
    // The board three moves along the answer is answered from the cache with the rest of it.
    let along = start4
        .replay(&solver_core::parse_moves(&moves[..3]).unwrap())
        .unwrap();
    let suffix = fifteen(&server, vec![sliding(4, &cells(&along), &[])]).await;
    assert!(suffix[0].cached, "{suffix:?}");
    assert_eq!(
        checked_moves(&suffix[0], &along, &Board4::goal()),
        moves[3..]
    );

    for series in ["hits", "misses"] {
        assert_eq!(
            server
                .metric(&format!(r#"solver_cache_{series}_total{{kind="eight"}}"#))
                .await,
            0.0
        );
    }
    assert_eq!(
        server
            .metric(r#"solver_cache_hits_total{kind="fifteen"}"#)
            .await,
        1.0
    );
    // The 4×4 path and its suffixes, and no 3×3 answer.
    assert_eq!(
        server.metric("solver_cache_entries").await,
        (moves.len() + 1) as f64
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disabled_cache_never_answers() {
    let server = TestServer::start(config_with(|config| config.limits.cache_entries = 0)).await;
    let board = walk(goal3(), 20, &mut Lcg::new(3));
    for id in 0..2 {
        let reply = eight(&server, vec![sliding(id, &cells(&board), &[])]).await;
        assert!(!reply[0].cached);
    }
    assert_eq!(server.metric("solver_cache_entries").await, 0.0);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn budgets_give_per_case_resource_exhausted_and_the_stream_goes_on() {
    let server = TestServer::start(config_with(|config| {
        config.cases.timeout = Duration::from_millis(300);
    }))
    .await;
    let (hard, target) = endless();
    let easy = walk(Board4::goal(), 10, &mut Lcg::new(5));
    let mut budgeted = sliding(1, &cells(&hard), &cells(&target));
    budgeted.node_budget = 1000;
    let requests = vec![
        budgeted,
        sliding(2, &cells(&hard), &cells(&target)),
        sliding(3, &cells(&easy), &[]),
    ];
    let replies = by_id(fifteen(&server, requests).await);
    let error = error_of(&replies[&1]);
    assert_eq!(error.code, Code::ResourceExhausted as i32);
    assert!(
        error
            .message
            .contains("node budget of 1000 (stopped at node 1001)"),
        "{}",
        error.message
    );
    let error = error_of(&replies[&2]);
    assert_eq!(error.code, Code::ResourceExhausted as i32);
    assert!(
        error.message.contains("time limit of 300 ms"),
        "{}",
        error.message
    );
    checked_moves(&replies[&3], &easy, &Board4::goal());
    assert_eq!(
        server
            .metric(r#"solver_cases_total{kind="fifteen",outcome="resource_exhausted"}"#)
            .await,
        2.0
    );
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_window_still_answers_everything() {
    let server = TestServer::start(config_with(|config| {
        config.scheduling.window = 2;
        config.scheduling.batch = 1;
    }))
    .await;
    let mut rng = Lcg::new(11);
    let requests: Vec<_> = (0..500)
        .map(|id| sliding(id, &cells(&walk(goal3(), 20, &mut rng)), &[]))
        .collect();
    let replies = by_id(eight(&server, requests).await);
    assert_eq!(replies.len(), 500);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_over_the_limit_are_refused() {
    let server = TestServer::start(config_with(|config| config.limits.max_streams = 1)).await;
    let mut client = server.client().await;
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    let _open = client
        .solve_eight(tokio_stream::wrappers::ReceiverStream::new(rx))
        .await
        .unwrap();
    // Another connection: on the same one, HTTP/2's own stream limit would queue the call.
    let refused = server
        .client()
        .await
        .solve_eight(tokio_stream::iter(Vec::<pb::SlidingRequest>::new()))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    drop(tx);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_held_to_the_window() {
    let server = TestServer::start(config_with(|config| {
        config.scheduling.window = 8;
        config.scheduling.batch = 4;
    }))
    .await;
    // This client's own h2 counts the small reply frames it leaves unread against a budget of
    // half its connection window; a large window keeps the client from ending the connection
    // itself (GOAWAY too_many_data_frames) while it does not read.
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{}", server.addr))
        .unwrap()
        .initial_connection_window_size(i32::MAX as u32)
        .connect()
        .await
        .unwrap();
    let mut client = pb::solver_client::SolverClient::new(channel);
    let mut rng = Lcg::new(21);
    let boards: Vec<Vec<u32>> = (0..1000)
        .map(|_| cells(&walk(goal3(), 30, &mut rng)))
        .collect();
    const CASES: u64 = 100_000;
    let requests = tokio_stream::iter((0..CASES).map(move |id| {
        sliding(
            id,
            &boards[usize::try_from(id).unwrap() % boards.len()],
            &[],
        )
    }));
    let mut replies = client.solve_eight(requests).await.unwrap().into_inner();
    // Read nothing for a while. The client's HTTP/2 receive window takes some replies; then the
    // server must stop reading too, with at most a window of cases in flight, rather than
    // buffer the 100,000 cases.
    // Stalled = no case answered for 10 samples in a row (a busy machine may take a while to
    // fill the buffers, so there is no fixed time for it).
    let mut answered: Vec<f64> = Vec::new();
    while answered.len() < 11 || answered[answered.len() - 11] != answered[answered.len() - 1] {
        assert!(answered.len() < 400, "never stalled: {answered:?}");
        tokio::time::sleep(Duration::from_millis(25)).await;
        let in_flight = server
            .metric(r#"solver_cases_in_flight{kind="eight"}"#)
            .await;
        assert!(
            in_flight <= 8.0,
            "{in_flight} cases in flight with a window of 8"
        );
        answered.push(
            server
                .metric(r#"solver_cases_total{kind="eight",outcome="solved"}"#)
                .await,
        );
    }
    let stalled_at = answered[answered.len() - 1];
    assert!(stalled_at < CASES as f64, "{answered:?}");
    // Now read: everything arrives.
    let mut count = 0;
    while let Some(reply) = tokio::time::timeout(LIMIT, replies.next()).await.unwrap() {
        reply.unwrap();
        count += 1;
    }
    assert_eq!(count, CASES);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_message_ends_the_stream_with_a_status() {
    let server =
        TestServer::start(config_with(|config| config.limits.max_message_bytes = 256)).await;
    let mut client = server.client().await;
    let requests = vec![
        sliding(1, &[1, 2, 3, 4, 5, 6, 7, 0, 8], &[]),
        sliding(2, &[7; 1000], &[]),
    ];
    let mut replies = client
        .solve_eight(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    let mut answered = Vec::new();
    let status = loop {
        match tokio::time::timeout(LIMIT, replies.next()).await.unwrap() {
            Some(Ok(reply)) => answered.push(reply.id),
            Some(Err(status)) => break status,
            None => panic!("the stream ended without a status"),
        }
    };
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(answered.len() <= 1, "{answered:?}");
    server.stop().await.unwrap();
}
