//! `hint`, `verify` and `scramble` on shapes other than 3×3 and 4×4 (`--size RxC`, as `solve
//! sliding` takes it), through the real binary, every answer checked by breadth-first search.

use std::collections::HashMap;

use solver_core::Move;
use solver_core::tiles::bfs;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;

use crate::util::{call, json};

/// `moves` (letters) played from `board`, every one legal.
fn replay(board: &GridBoard, moves: &str) -> GridBoard {
    moves.chars().fold(board.clone(), |b, c| {
        b.apply(Move::from_letter(c).expect("a move letter"))
            .expect("a legal move")
    })
}

/// A board on one line, as the client reads it.
fn line(board: &GridBoard) -> String {
    board
        .cells()
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every board of the goal's shape and its distance to the goal.
fn distances(grid: Grid) -> HashMap<GridBoard, u32> {
    bfs::distances(GridBoard::goal(grid), u32::MAX)
}

#[test]
fn hint_on_2x3_and_2x4_boards_matches_bfs() {
    for (size, rows, cols, walk) in [
        ("2x3", 2, 3, "ulldrrulldrrull"),
        ("2x4", 2, 4, "ullldrrrullldrrrul"),
    ] {
        let grid = Grid::new(rows, cols).unwrap();
        let dist = distances(grid);
        let start = replay(&GridBoard::goal(grid), walk);
        let value = json(&["hint", "--size", size, "--json", &line(&start)]);
        assert_eq!(value["rows"], rows, "{value}");
        assert_eq!(value["cols"], cols, "{value}");
        let distance = dist[&start];
        assert!(distance > 0);
        assert_eq!(value["distance"], distance, "{value}");
        let moves = value["moves"].as_array().expect("moves");
        let legal = Move::ALL
            .iter()
            .filter(|&&m| start.apply(m).is_some())
            .count();
        assert_eq!(moves.len(), legal, "{value}");
        let mut previous = 0;
        for mv in moves {
            let direction = mv["direction"].as_str().expect("direction");
            let after = dist[&replay(&start, direction)];
            assert_eq!(mv["distance_after"], after, "{direction}: {value}");
            assert_eq!(mv["optimal"], after < distance, "{direction}: {value}");
            assert!(after >= previous, "not best first: {value}");
            previous = after;
        }
    }
    // Text too.
    let (output, stdout, stderr) = call(&["hint", "--size", "2x3", "1 2 3 4 0 5"]);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("distance: 1 move to the target\n"),
        "{stdout}"
    );
}

#[test]
fn verify_a_2x4_move_string_and_its_excess() {
    let grid = Grid::new(2, 4).unwrap();
    let goal = GridBoard::goal(grid);
    let start = replay(&goal, "ullldrrrullldrrrull");
    let dist = bfs::distances(goal.clone(), u32::MAX);
    let path = bfs::smallest_path(start.clone(), &dist).expect("solvable");
    let optimal: String = path.iter().map(|m| m.letter()).collect();
    // Optimal, then the blank up and back down: two moves too many.
    let moves = format!("{optimal}ud");
    let value = json(&["verify", "--size", "2x4", "--json", &line(&start), &moves]);
    assert_eq!(value["rows"], 2);
    assert_eq!(value["cols"], 4);
    assert_eq!(value["legal"], true, "{value}");
    assert_eq!(value["reaches_target"], true, "{value}");
    assert_eq!(value["length"], path.len() + 2, "{value}");
    assert_eq!(value["optimal_length"], path.len(), "{value}");
    assert_eq!(value["excess"], 2, "{value}");
    assert_eq!(value["target"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 0]));

    let (output, stdout, stderr) = call(&["verify", "--size", "2x4", &line(&start), &moves]);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("\nexcess: 2\n"), "{stdout}");
}

#[test]
fn scramble_2x4_at_distance_20_is_at_that_bfs_distance() {
    let grid = Grid::new(2, 4).unwrap();
    let dist = distances(grid);
    let args = [
        "scramble",
        "--size",
        "2x4",
        "--distance",
        "20",
        "--seed",
        "7",
    ];
    let value = json(&[&args[..], &["--json"]].concat());
    assert_eq!(value["rows"], 2);
    assert_eq!(value["cols"], 4);
    assert_eq!(value["distance"], 20);
    assert_eq!(value["seed"], 7);
    assert_eq!(value["sampling"], "random_walk");
    let cells: Vec<u64> = value["board"]
        .as_array()
        .expect("board")
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    let board = GridBoard::new(grid, &cells).unwrap();
    assert_eq!(dist[&board], 20);

    // The text form: the same board on its first line (reproducible by seed), then drawn.
    let (output, stdout, stderr) = call(&args);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stdout.lines().next(),
        Some(line(&board).as_str()),
        "{stdout}"
    );
    assert!(stdout.contains("\ndistance: 20 "), "{stdout}");
}

#[test]
fn bad_sizes_and_boards_are_named() {
    let (output, _, stderr) = call(&["hint", "--size", "9x2", "1 2 3 0"]);
    assert!(!output.status.success());
    assert!(
        stderr.contains("--size") && stderr.contains("2..=8"),
        "{stderr}"
    );

    let (output, _, stderr) = call(&["scramble", "--size", "five", "--distance", "3"]);
    assert!(!output.status.success());
    assert!(stderr.contains("not a size"), "{stderr}");

    let (output, _, stderr) = call(&["verify", "--size", "2x4", "1 2 3 0", "l"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr.contains("a 2x4 board is 8 numbers"), "{stderr}");

    // Beyond 2x4's radius (36): refused by the server, the field named.
    let (output, stdout, _) = call(&["scramble", "--size", "2x4", "--distance", "37", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
    assert_eq!(value["error"]["code"], 3, "{value}");
    assert_eq!(value["error"]["field_violations"][0]["field"], "distance");
}
