//! `Solve` on boards of every shape from 2×2 to 8×8 through a real server: optimal answers
//! checked against breadth-first search, bounded answers against Korf & Felner's published
//! optima, and the errors that name a bad shape or quality.

use solver_core::tiles::bfs;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::{Move, format_moves, parse_moves};
use solver_proto::tonic_types::StatusExt as _;
use solver_proto::v2::{
    self as pb, Limits, Quality, SlidingPuzzle, SolveRequest, solution, solve_request,
    solve_response,
};
use tonic::Code;

use crate::common::{Lcg, TestServer, config, config_with};

fn request(id: &str, start: &GridBoard, target: Option<&GridBoard>) -> SolveRequest {
    let cells = |b: &GridBoard| b.cells().iter().map(|&c| u32::from(c)).collect();
    SolveRequest {
        id: id.to_owned(),
        puzzle: Some(solve_request::Puzzle::Sliding(SlidingPuzzle {
            rows: start.grid().rows() as u32,
            cols: start.grid().cols() as u32,
            start: cells(start),
            target: target.map(cells).unwrap_or_default(),
        })),
        ..SolveRequest::default()
    }
}

/// The solution's moves and lower bound, checked to replay from `start` to `target`.
fn solved(response: &pb::SolveResponse, start: &GridBoard, target: &GridBoard) -> (String, u32) {
    let Some(solve_response::Outcome::Solution(pb::Solution {
        kind: Some(solution::Kind::Sliding(found)),
    })) = &response.outcome
    else {
        panic!("not a sliding solution: {response:?}");
    };
    let moves = parse_moves(&found.moves).expect("move letters");
    assert_eq!(start.replay(&moves).as_ref(), Ok(target), "{response:?}");
    assert_eq!(found.length as usize, moves.len());
    assert!(found.lower_bound <= found.length);
    (found.moves.clone(), found.lower_bound)
}

fn shuffled(grid: Grid, rng: &mut Lcg) -> GridBoard {
    let mut cells: Vec<u8> = (0..grid.cells() as u8).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i + 1));
    }
    GridBoard::new(grid, &cells).unwrap()
}

#[tokio::test]
async fn small_shapes_are_optimal_and_lexicographically_smallest() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let mut rng = Lcg::new(13);
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)] {
        let grid = Grid::new(rows, cols).unwrap();
        for case in 0..12 {
            let start = shuffled(grid, &mut rng);
            let target = shuffled(grid, &mut rng);
            let goal = case % 3 == 0;
            let target = if goal { GridBoard::goal(grid) } else { target };
            let response = client
                .solve(request("s", &start, (!goal).then_some(&target)))
                .await
                .unwrap()
                .into_inner();
            let dist = bfs::distances(target.clone(), u32::MAX);
            match bfs::smallest_path(start.clone(), &dist) {
                Some(expected) => {
                    let (moves, bound) = solved(&response, &start, &target);
                    assert_eq!(moves, format_moves(&expected), "{rows}x{cols} {start:?}");
                    assert_eq!(bound as usize, expected.len());
                }
                None => assert!(
                    matches!(
                        response.outcome,
                        Some(solve_response::Outcome::Unsolvable(_))
                    ),
                    "{response:?}"
                ),
            }
        }
    }
}

#[tokio::test]
async fn larger_shapes_near_their_target_match_breadth_first_search() {
    // IDA* with Manhattan distance alone (no tables built): a case each of eight shapes.
    let server = TestServer::start(config_with(|config| config.tables.memory = 0)).await;
    let mut client = server.client_v2().await;
    let mut rng = Lcg::new(29);
    // The walk from the target, shorter on the largest boards: the BFS oracle's generic code
    // is built unoptimised here, and costs about three times as much per move of depth.
    for (rows, cols, walk) in [
        (3, 4, 14),
        (2, 5, 14),
        (5, 3, 14),
        (2, 7, 14),
        (4, 5, 14),
        (5, 5, 12),
        (6, 6, 12),
        (8, 8, 11),
    ] {
        let grid = Grid::new(rows, cols).unwrap();
        let target = shuffled(grid, &mut rng);
        let mut start = target.clone();
        for _ in 0..walk {
            start = start.apply(Move::ALL[rng.below(4)]).unwrap_or(start);
        }
        let response = client
            .solve(request("w", &start, Some(&target)))
            .await
            .unwrap()
            .into_inner();
        let dist = bfs::distances(target.clone(), walk);
        let expected = bfs::smallest_path(start.clone(), &dist).unwrap();
        let (moves, _) = solved(&response, &start, &target);
        assert_eq!(moves, format_moves(&expected), "{rows}x{cols}");
        assert!(!response.cached);
        // Asked again: the same answer, from the cache.
        let again = client
            .solve(request("w", &start, Some(&target)))
            .await
            .unwrap()
            .into_inner();
        assert!(again.cached, "{again:?}");
        assert_eq!(solved(&again, &start, &target).0, moves);
    }
}

#[tokio::test]
async fn a_ratio_gets_a_proven_bound_within_the_published_optimum() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let grid = Grid::new(5, 5).unwrap();
    let goal = GridBoard::goal(grid);
    // Korf & Felner's instance 1 (optimal length 95).
    let start = GridBoard::new(
        grid,
        &[
            12u8, 3, 9, 22, 1, 18, 24, 4, 14, 19, 21, 5, 15, 0, 10, 8, 13, 6, 2, 17, 7, 23, 16, 20,
            11,
        ],
    )
    .unwrap();
    let response = client
        .solve(SolveRequest {
            quality: Some(Quality { max_ratio: 2.0 }),
            ..request("k1", &start, None)
        })
        .await
        .unwrap()
        .into_inner();
    let (moves, bound) = solved(&response, &start, &goal);
    assert!(
        moves.len() >= 95 && bound <= 95,
        "{} moves, bound {bound}",
        moves.len()
    );

    // An 8x8 board far from its goal still gets an answer with a bound.
    let grid = Grid::new(8, 8).unwrap();
    let mut rng = Lcg::new(5);
    let start = loop {
        let board = shuffled(grid, &mut rng);
        if board.can_reach(&GridBoard::goal(grid)) {
            break board;
        }
    };
    let response = client
        .solve(SolveRequest {
            quality: Some(Quality { max_ratio: 1.5 }),
            ..request("big", &start, None)
        })
        .await
        .unwrap()
        .into_inner();
    solved(&response, &start, &GridBoard::goal(grid));
}

#[tokio::test]
async fn bad_shapes_qualities_and_budgets_are_named() {
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let grid = Grid::new(2, 3).unwrap();
    let goal = GridBoard::goal(grid);
    let shaped = |rows: u32, cols: u32| {
        let mut r = request("x", &goal, None);
        if let Some(solve_request::Puzzle::Sliding(p)) = &mut r.puzzle {
            (p.rows, p.cols) = (rows, cols);
        }
        r
    };
    let ratio = |max_ratio: f64| SolveRequest {
        quality: Some(Quality { max_ratio }),
        ..request("q", &goal, None)
    };
    for (request, field) in [
        (shaped(1, 6), "sliding.rows"),
        (shaped(2, 9), "sliding.cols"),
        (shaped(3, 3), "sliding.start"),
        (ratio(0.5), "quality.max_ratio"),
        (ratio(f64::NAN), "quality.max_ratio"),
    ] {
        let status = client.solve(request).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        let bad = status.get_details_bad_request().expect("BadRequest");
        assert_eq!(bad.field_violations[0].field, field, "{status:?}");
    }
    // A hard 5x5 board asked for optimal under a small node budget: RESOURCE_EXHAUSTED.
    let grid = Grid::new(5, 5).unwrap();
    let start = shuffled(grid, &mut Lcg::new(3));
    let target = if start.can_reach(&GridBoard::goal(grid)) {
        GridBoard::goal(grid)
    } else {
        let mut cells = grid.goal();
        cells.swap(0, 1);
        GridBoard::new(grid, &cells).unwrap()
    };
    let status = client
        .solve(SolveRequest {
            limits: Some(Limits {
                node_budget: 100_000,
            }),
            ..request("budget", &start, Some(&target))
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
}

#[tokio::test]
async fn hint_and_verify_take_every_shape() {
    use solver_proto::v2::{HintRequest, VerifyRequest};
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    let mut rng = Lcg::new(41);
    for (rows, cols) in [(2, 3), (3, 2), (2, 4), (3, 4), (2, 5)] {
        let grid = Grid::new(rows, cols).unwrap();
        let target = shuffled(grid, &mut rng);
        let mut start = target.clone();
        for _ in 0..12 {
            start = start.apply(Move::ALL[rng.below(4)]).unwrap_or(start);
        }
        let cells = |b: &GridBoard| b.cells().iter().map(|&c| u32::from(c)).collect::<Vec<_>>();
        let dist = bfs::distances(target.clone(), 14);
        let hint = client
            .hint(HintRequest {
                rows: rows as u32,
                cols: cols as u32,
                start: cells(&start),
                target: cells(&target),
                ..HintRequest::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(hint.distance, dist[&start], "{rows}x{cols}");
        let legal = Move::ALL
            .iter()
            .filter(|&&m| start.apply(m).is_some())
            .count();
        assert_eq!(hint.moves.len(), legal);
        for graded in &hint.moves {
            let mv = parse_moves(&graded.direction).unwrap()[0];
            let after = start.apply(mv).unwrap();
            assert_eq!(graded.distance_after, dist[&after], "{rows}x{cols} {mv:?}");
        }

        // A player's detour: the optimal answer with a move and its reverse inserted.
        let best = bfs::smallest_path(start.clone(), &dist).unwrap();
        let mut played = format_moves(&best);
        let wiggle = Move::ALL
            .iter()
            .find(|&&m| target.apply(m).is_some())
            .copied()
            .unwrap();
        played.push_str(&format_moves(&[wiggle, wiggle.reverse()]));
        let verdict = client
            .verify(VerifyRequest {
                rows: rows as u32,
                cols: cols as u32,
                start: cells(&start),
                target: cells(&target),
                moves: played,
                ..VerifyRequest::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert!(verdict.legal && verdict.reaches_target, "{verdict:?}");
        assert_eq!(verdict.optimal_length as usize, best.len());
        assert_eq!(verdict.excess, 2);
    }
}

#[tokio::test]
async fn scramble_takes_every_shape_at_the_exact_distance() {
    use solver_proto::v2::{Sampling, ScrambleRequest};
    let server = TestServer::start(config()).await;
    let mut client = server.client_v2().await;
    for (rows, cols, distance) in [(2, 4, 25), (4, 2, 9), (2, 5, 30)] {
        let grid = Grid::new(rows, cols).unwrap();
        let request = ScrambleRequest {
            rows: rows as u32,
            cols: cols as u32,
            distance,
            seed: 11,
        };
        let drawn = client.scramble(request).await.unwrap().into_inner();
        assert_eq!(drawn.sampling(), Sampling::RandomWalk);
        let board = GridBoard::new(grid, &drawn.board).unwrap();
        let dist = bfs::distances(GridBoard::goal(grid), distance);
        assert_eq!(dist.get(&board), Some(&distance), "{rows}x{cols}: {board}");
        let again = client.scramble(request).await.unwrap().into_inner();
        assert_eq!(again.board, drawn.board, "the same seed, the same board");
    }
    // Beyond the shape's radius (2x4: 36): refused, naming the distance.
    let status = client
        .scramble(ScrambleRequest {
            rows: 2,
            cols: 4,
            distance: 37,
            seed: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    let bad = status.get_details_bad_request().expect("BadRequest");
    assert_eq!(bad.field_violations[0].field, "distance");
}

/// The method an answer reports.
/// The move-pruning automata of the oracle searches, built once.
fn pruning() -> &'static solver_core::tiles::fsm::PruningTables {
    static TABLES: std::sync::LazyLock<solver_core::tiles::fsm::PruningTables> =
        std::sync::LazyLock::new(Default::default);
    &TABLES
}

fn method(response: &pb::SolveResponse) -> &str {
    response.stats.as_ref().map_or("", |s| s.method.as_str())
}

/// The server's answer for `start` → `target`, checked to equal the in-process optimal IDA*'s
/// (Manhattan distance; checked against breadth-first search in solver-core).
async fn solve_as_ida(
    client: &mut pb::solver_service_client::SolverServiceClient<tonic::transport::Channel>,
    start: &GridBoard,
    target: &GridBoard,
) -> pb::SolveResponse {
    let response = client
        .solve(request("ida", start, Some(target)))
        .await
        .unwrap()
        .into_inner();
    let expected =
        solver_core::tiles::grid_ida::solve(start, target, pruning(), &solver_core::Stop::never())
            .unwrap();
    let (moves, bound) = solved(&response, start, target);
    assert_eq!(moves, format_moves(&expected), "{start:?} -> {target:?}");
    assert_eq!(bound as usize, expected.len());
    response
}

#[tokio::test]
async fn complete_tables_and_pattern_databases_serve_once_built() {
    // No cache: a hint searched while its table is built would be cached, and asked again it
    // would come from the cache, never from the table this test waits for.
    let server = TestServer::start(config_with(|c| c.limits.cache_entries = 0)).await;
    let mut client = server.client_v2().await;
    let mut rng = Lcg::new(31);

    // 2×5: the first case starts the table's build and is searched meanwhile; once built,
    // answers are walks of the table, equal to the optimal IDA*'s (checked against
    // breadth-first search in solver-core; a full BFS of 2×5 here would take seconds a case).
    let grid = Grid::new(2, 5).unwrap();
    let mut from_table = 0;
    for attempt in 0..200 {
        let (start, target) = (shuffled(grid, &mut rng), shuffled(grid, &mut rng));
        if !start.can_reach(&target) {
            continue;
        }
        let response = solve_as_ida(&mut client, &start, &target).await;
        if method(&response) == "table" {
            from_table += 1;
            if from_table == 20 {
                break;
            }
        } else {
            assert_eq!(method(&response), "ida-manhattan-lc", "{response:?}");
            assert!(attempt < 150, "the 2x5 table was never used");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    assert_eq!(from_table, 20);
    // Hint and Verify walk the table too: every distance equals the optimal IDA*'s.
    let cells = |b: &GridBoard| b.cells().iter().map(|&c| u32::from(c)).collect::<Vec<_>>();
    let ida_length = |from: &GridBoard, to: &GridBoard| {
        solver_core::tiles::grid_ida::solve(from, to, pruning(), &solver_core::Stop::never())
            .unwrap()
            .len() as u32
    };
    for _ in 0..3 {
        let (start, target) = loop {
            let pair = (shuffled(grid, &mut rng), shuffled(grid, &mut rng));
            if pair.0.can_reach(&pair.1) {
                break pair;
            }
        };
        // The target's class of blank cell may not have its table yet (one is built at a
        // time, on first use): the hint starts its build and is searched meanwhile.
        let mut attempts = 0;
        let hint = loop {
            let hint = client
                .hint(pb::HintRequest {
                    rows: 2,
                    cols: 5,
                    start: cells(&start),
                    target: cells(&target),
                    ..pb::HintRequest::default()
                })
                .await
                .unwrap()
                .into_inner();
            if hint.stats.as_ref().unwrap().method == "table" {
                break hint;
            }
            attempts += 1;
            assert!(attempts < 500, "the table was never used: {hint:?}");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        };
        assert_eq!(hint.distance, ida_length(&start, &target));
        for graded in &hint.moves {
            let after = start
                .apply(parse_moves(&graded.direction).unwrap()[0])
                .unwrap();
            assert_eq!(graded.distance_after, ida_length(&after, &target));
        }
        let verdict = client
            .verify(pb::VerifyRequest {
                rows: 2,
                cols: 5,
                start: cells(&start),
                target: cells(&target),
                moves: String::new(),
                ..pb::VerifyRequest::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            verdict.stats.as_ref().unwrap().method,
            "table",
            "{verdict:?}"
        );
        assert_eq!(verdict.optimal_length, hint.distance);
    }

    // 4×5: the case waits for its databases (patterns sized to the test's small budget), then
    // IDA* with them gives the optimal, lexicographically smallest answer: the same as IDA*
    // with Manhattan distance in process. Targets with the blank on one cell share a set.
    let grid = Grid::new(4, 5).unwrap();
    for _ in 0..3 {
        let mut target = shuffled(grid, &mut rng);
        while target.blank() != 7 {
            target = shuffled(grid, &mut rng);
        }
        let mut start = target.clone();
        for _ in 0..40 {
            start = start.apply(Move::ALL[rng.below(4)]).unwrap_or(start);
        }
        let response = solve_as_ida(&mut client, &start, &target).await;
        assert_eq!(method(&response), "ida-pdb", "{response:?}");
    }
    // The databases were stored, and the table.
    let stored: Vec<String> = std::fs::read_dir(crate::common::test_data_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        stored.iter().any(|n| n.starts_with("gridpdb-4x5-")),
        "{stored:?}"
    );
    assert!(
        stored.iter().any(|n| n.starts_with("grid-2x5-")),
        "{stored:?}"
    );
}

/// A search still going after its first slice gets a helper on the server's other token, and
/// answers as the search alone does: the smallest optimal path (each answer equal to the
/// in-process IDA*'s, which is checked against breadth-first search in solver-core).
#[tokio::test]
async fn a_hard_search_split_across_both_tokens_gives_the_same_answer() {
    let server = TestServer::start(config_with(|c| c.scheduling.workers = 2)).await;
    let mut client = server.client_v2().await;
    let grid = Grid::new(4, 5).unwrap();
    let goal = GridBoard::goal(grid);
    // 53 to 57 moves, 4.6e6 to 1.3e7 nodes with Manhattan distance and linear conflicts:
    // hundreds of slices each.
    for cells in [
        [
            6u8, 17, 4, 14, 3, 12, 8, 1, 9, 5, 16, 2, 11, 0, 18, 7, 19, 10, 15, 13,
        ],
        [
            12, 8, 13, 4, 9, 2, 14, 18, 0, 5, 1, 3, 11, 10, 7, 16, 6, 19, 17, 15,
        ],
        [
            13, 8, 10, 4, 19, 1, 5, 2, 3, 7, 0, 12, 15, 18, 9, 6, 16, 11, 17, 14,
        ],
    ] {
        let start = GridBoard::new(grid, &cells).unwrap();
        solve_as_ida(&mut client, &start, &goal).await;
    }
    let text = server.scrape().await;
    let helpers = text
        .lines()
        .find_map(|line| line.strip_prefix("solver_search_helpers_total "))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no helpers counted:\n{text}"));
    assert_eq!(helpers, 3, "one helper per hard case");
    assert!(text.contains("solver_scheduler_busy 0"), "{text}");
    assert!(text.contains("solver_scheduler_waiting 0"), "{text}");
    server.stop().await.unwrap();
}
