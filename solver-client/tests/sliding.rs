//! `solve sliding --size RxC`: boards of any shape through the binary, against a plain BFS on
//! small shapes (optimal length, lexicographic minimum, any target), a bounded 5×5 answer whose
//! bound is checked, and the messages for bad sizes, tiles and ratios.

use std::collections::{HashMap, VecDeque};

use solver_core::Move;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

use crate::random::Lcg;
use crate::server::Server;
use crate::util::{run, text};

/// The lexicographically smallest shortest move string from `start` to `goal` by plain BFS
/// (layers in order, moves in letter order), up to `limit` moves.
fn smallest_shortest(start: &GridBoard, goal: &GridBoard, limit: usize) -> Option<String> {
    let mut parent: HashMap<GridBoard, (Option<(GridBoard, Move)>, usize)> =
        HashMap::from([(start.clone(), (None, 0))]);
    let mut queue = VecDeque::from([start.clone()]);
    while let Some(board) = queue.pop_front() {
        let depth = parent[&board].1;
        if board == *goal {
            let mut letters = Vec::new();
            let mut at = board;
            while let (Some((from, mv)), _) = parent[&at].clone() {
                letters.push(mv.letter());
                at = from;
            }
            return Some(letters.iter().rev().collect());
        }
        if depth == limit {
            continue;
        }
        for mv in Move::ALL {
            if let Some(next) = board.apply(mv) {
                parent.entry(next.clone()).or_insert_with(|| {
                    queue.push_back(next);
                    (Some((board.clone(), mv)), depth + 1)
                });
            }
        }
    }
    None
}

/// A board `steps` random moves away from `from`.
fn walk(from: &GridBoard, steps: usize, rng: &mut Lcg) -> GridBoard {
    let mut board = from.clone();
    for _ in 0..steps {
        let moves: Vec<GridBoard> = Move::ALL.iter().filter_map(|&m| board.apply(m)).collect();
        board = moves[rng.below(moves.len())].clone();
    }
    board
}

fn line(board: &GridBoard) -> String {
    board
        .cells()
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn small_shapes_match_bfs_with_any_target() {
    let server = Server::start();
    let url = server.url();
    let mut rng = Lcg::new(13);
    for (rows, cols, depth) in [
        (2, 2, 8),
        (2, 3, 14),
        (3, 2, 14),
        (2, 4, 14),
        (2, 5, 12),
        (3, 4, 10),
    ] {
        let grid = Grid::new(rows, cols).unwrap();
        // A random target, and starts at most `depth` random moves from it.
        let target = walk(&GridBoard::goal(grid), 40, &mut rng);
        let starts: Vec<GridBoard> = (0..12).map(|_| walk(&target, depth, &mut rng)).collect();
        let input: String = starts.iter().map(|s| line(s) + "\n").collect();
        let size = format!("{rows}x{cols}");
        let output = run(
            &[
                "solve",
                "sliding",
                "--size",
                &size,
                "--target",
                &line(&target),
                "--json",
                "--server",
                &url,
            ],
            input.as_bytes(),
        );
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{size}: {stderr}");
        let answers: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), starts.len(), "{stdout}");
        for (start, answer) in starts.iter().zip(&answers) {
            let expected = smallest_shortest(start, &target, depth).unwrap();
            assert_eq!(
                answer["moves"],
                expected.as_str(),
                "{size} {start}: {answer}"
            );
            assert_eq!(answer["length"], expected.len());
            assert_eq!(answer["lower_bound"], expected.len());
            assert_eq!(answer["optimal"], true);
            assert_eq!(answer["puzzle"], "sliding");
            assert_eq!(
                (answer["rows"].clone(), answer["cols"].clone()),
                (rows.into(), cols.into())
            );
        }
    }
}

#[test]
fn text_answers_and_unsolvable_boards() {
    let output = run(&["solve", "sliding", "--size", "2x3", "1 2 3 4 0 5"], b"");
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(stdout, "1 move: r\n");
    // Two boards in one argument list, one of them unsolvable; drawn with --show.
    let output = run(
        &[
            "solve", "sliding", "--size", "2x2", "1 2 0 3", "2 1 3 0", "--show",
        ],
        b"",
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stdout,
        "case 1: 1 move: r\n\nstart:\n  1 2\n  . 3\n\n1. r (blank right):\n  1 2\n  3 .\n\n\
         case 2: unsolvable: the board and the target have different permutation parity\n"
    );
}

#[test]
fn a_bounded_5x5_answer_states_its_proven_bound() {
    let grid = Grid::new(5, 5).unwrap();
    let goal = GridBoard::goal(grid);
    let mut rng = Lcg::new(5);
    // Shallow: the optimum is known by BFS, and the bound must not exceed it.
    let shallow = walk(&goal, 10, &mut rng);
    let optimum = smallest_shortest(&shallow, &goal, 10).unwrap().len();
    // Deep: far beyond an optimal search's reach in a test.
    let deep = walk(&goal, 400, &mut rng);
    let output = run(
        &[
            "solve",
            "sliding",
            "--size",
            "5x5",
            "--max-ratio",
            "1.5",
            "--json",
            &line(&shallow),
            &line(&deep),
        ],
        b"",
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let answers: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (start, answer) in [&shallow, &deep].into_iter().zip(&answers) {
        let moves = solver_core::parse_moves(answer["moves"].as_str().unwrap()).unwrap();
        assert_eq!(start.replay(&moves).unwrap(), goal, "{answer}");
        let length = answer["length"].as_u64().unwrap();
        let bound = answer["lower_bound"].as_u64().unwrap();
        assert_eq!(length, moves.len() as u64);
        assert!(bound <= length && bound > 0, "{answer}");
        assert_eq!(answer["optimal"], bound == length, "{answer}");
        if bound < length {
            let ratio = answer["ratio"].as_f64().unwrap();
            assert!(
                (ratio - length as f64 / bound as f64).abs() < 1e-9,
                "{answer}"
            );
            // Whether the 1.5 asked is proven is said, and true to the numbers.
            assert_eq!(answer["within_max_ratio"], ratio <= 1.5, "{answer}");
        }
    }
    let shallow_bound = answers[0]["lower_bound"].as_u64().unwrap() as usize;
    assert!(
        shallow_bound <= optimum,
        "bound {shallow_bound} > optimum {optimum}"
    );

    // For a person: the length, the bound and the ratio when not proven optimal.
    let output = run(
        &[
            "solve",
            "sliding",
            "--size",
            "5x5",
            "--max-ratio",
            "1.5",
            &line(&deep),
        ],
        b"",
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let length = answers[1]["length"].as_u64().unwrap();
    let bound = answers[1]["lower_bound"].as_u64().unwrap();
    // This board's bounded answer is not proven optimal (seeded: the same board every run).
    assert!(bound < length, "{}", answers[1]);
    let ratio = length as f64 / bound as f64;
    assert!(
        stdout.starts_with(&format!(
            "{length} moves (not proven optimal: the optimum is at least {bound}, so at most \
             {ratio:.3} times it): "
        )),
        "{stdout}"
    );
}

#[test]
fn bad_sizes_tiles_and_ratios_are_named() {
    let usage = |args: &[&str], want: &str| {
        let output = run(args, b"");
        let (_, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    };
    usage(
        &["solve", "sliding", "--size", "9x2", "1 2"],
        "a 9×2 board is not supported: rows and columns must each be 2..=8",
    );
    usage(
        &["solve", "sliding", "--size", "big", "1"],
        "\"big\" is not a size like 5x5",
    );
    usage(
        &[
            "solve",
            "sliding",
            "--size",
            "2x2",
            "--max-ratio",
            "0.5",
            "1 2 3 0",
        ],
        "the ratio must be a finite number of at least 1",
    );
    usage(&["solve", "sliding", "1 2 3 0"], "--size");

    let output = run(
        &[
            "solve",
            "sliding",
            "--size",
            "2x3",
            "1 2 3 4 5 5",
            "1 2 3 4 x 5",
        ],
        b"",
    );
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stdout, "case 2: 1 move: r\n");
    assert!(
        stderr.contains("solver-client: case 1: tile 5 appears twice"),
        "{stderr}"
    );

    let output = run(
        &[
            "solve",
            "sliding",
            "--size",
            "2x3",
            "--target",
            "1 2 3",
            "1 2 3 4 x 5",
        ],
        b"",
    );
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("--target \"1 2 3\" (2x3 board): "),
        "{stderr}"
    );
}
