//! `solver-client solve`: boards as arguments, text, `--show` and `--json`.

use solver_core::{Board3, Board4};

use crate::util::{replay, run, text};

fn solve(args: &[&str]) -> (String, String) {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    let output = run(&all, b"");
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{args:?}: {stderr}");
    (stdout, stderr)
}

#[test]
fn eight_prints_the_moves_and_their_count() {
    let (stdout, _) = solve(&["eight", "2", "3", "4", "1", "5", "x", "7", "6", "8"]);
    let (count, moves) = stdout.trim_end().split_once(" moves: ").expect(&stdout);
    assert_eq!(count.parse::<usize>().unwrap(), moves.len());
    let board: Board3 = "2 3 4 1 5 x 7 6 8".parse().unwrap();
    assert_eq!(replay(&board, moves), Board3::goal());
}

#[test]
fn eight_to_a_target_with_show() {
    let (stdout, _) = solve(&[
        "eight",
        "--show",
        "--target",
        "12345678x",
        "1 2 3 4 5 6 7 x 8",
    ]);
    assert!(stdout.starts_with("1 move: r\n"), "{stdout}");
    assert!(
        stdout.contains("start:\n  1 2 3\n  4 5 6\n  7 . 8\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1. r (blank right):\n  1 2 3\n  4 5 6\n  7 8 .\n"),
        "{stdout}"
    );
}

#[test]
fn json_lines_one_per_case() {
    let (stdout, _) = solve(&[
        "eight",
        "--json",
        "12345678x",
        "2 1 3 4 5 6 7 8 x",
        "1 2 3 4 5 6 x 7 8",
    ]);
    let values: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(values.len(), 3);
    assert_eq!(values[0]["length"], 0);
    assert_eq!(values[1]["solvable"], false);
    assert_eq!(values[2]["moves"], "rr");
    assert_eq!(values[2]["case"], 3);
}

#[test]
fn fifteen_and_solitaire() {
    let (stdout, _) = solve(&["fifteen", "--json", "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15"]);
    let value: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    let board: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
    assert_eq!(
        replay(&board, value["moves"].as_str().unwrap()),
        Board4::goal()
    );
    assert_eq!(value["length"], 9);

    let (stdout, _) = solve(&["solitaire", "--show", "4 4 4 5 5 4 6 5", "2 4 3 3 3 6 4 6"]);
    assert!(
        stdout.starts_with("reachable in 7 moves (limit 8): "),
        "{stdout}"
    );
    assert!(stdout.contains("\n7. "), "{stdout}");
    let (stdout, _) = solve(&[
        "solitaire",
        "--max-moves",
        "6",
        "4 4 4 5 5 4 6 5",
        "2 4 3 3 3 6 4 6",
    ]);
    assert_eq!(stdout, "not reachable within 6 moves\n");
}

#[test]
fn a_bad_board_argument_fails_with_its_reason() {
    let output = run(&["solve", "eight", "1 2 3 4 5 6 7 8 8"], b"");
    let (_, stderr) = text(&output);
    assert!(!output.status.success());
    assert!(stderr.contains("case 1: tile 8 appears twice"), "{stderr}");
}
