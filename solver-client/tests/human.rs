//! `solver-client solve`: boards as arguments or on stdin, targets, text, `--show` and `--json`.

use solver_core::{Board3, Board4};

use crate::eqnice;
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

#[test]
fn a_huge_number_is_one_error_quoted_as_typed() {
    let quoted = "solver-client: case 1: token 1 (\"99999999999999999999999\") is out of range: \
                  expected 1..=8, or 0 for the blank\n";
    for args in [
        &[
            "solve",
            "eight",
            "99999999999999999999999",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "7",
            "8",
        ][..],
        &["solve", "eight", "99999999999999999999999 1 2 3 4 5 6 7 8"][..],
    ] {
        let output = run(args, b"");
        let (stdout, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(stdout, "");
        eqnice!(quoted, stderr);
    }
    let output = run(&["solve", "eight", "99999999999999999999999"], b"");
    let (_, stderr) = text(&output);
    eqnice!(
        "solver-client: case 1: \"99999999999999999999999\" is not a board: expected 9 tiles, \
         or 9 characters packed like 12345678x\n",
        stderr
    );
    let output = run(
        &[
            "solve",
            "eight",
            "--target",
            "99999999999999999999999 2 3 4 5 6 7 8 x",
            "12345678x",
        ],
        b"",
    );
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr.contains("token 1 (\"99999999999999999999999\") is out of range"),
        "{stderr}"
    );
}

#[test]
fn fifteen_to_a_target() {
    let (stdout, _) = solve(&[
        "fifteen",
        "--json",
        "--target",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
        "2 1 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
    ]);
    let values: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(values[0]["moves"], "l");
    assert_eq!(
        values[0]["target"],
        serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15])
    );
    assert_eq!(values[1]["solvable"], false);
    let output = run(
        &[
            "solve",
            "fifteen",
            "--target",
            "1 2 3",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
        ],
        b"",
    );
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1));
    eqnice!(
        "solver-client: --target \"1 2 3\": the input ends inside the case, after 3 of the 16 tiles\n",
        stderr
    );
}

#[test]
fn boards_come_from_stdin_when_none_are_given() {
    let output = run(&["solve", "eight"], b"1 2 3 4 5 6 7 x 8\n12345678x\n");
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    eqnice!(
        "case 1: 1 move: r\ncase 2: already solved: 0 moves\n",
        stdout
    );

    // A bad line is named with its line; the others are answered.
    let output = run(
        &["solve", "eight", "--target", "123456x78"],
        b"1 2 3 4 5 6 7 x 8\n1 2 3 4 5 6 7 8 9 10\n1 2 3 4 5 6 7 8 x\n",
    );
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1));
    eqnice!("case 1: 1 move: l\ncase 3: 2 moves: ll\n", stdout);
    eqnice!(
        "solver-client: case 2, line 2: expected 9 tiles, found 10\n\
         solver-client: 2 of 3 case(s) answered\n",
        stderr
    );

    let output = run(
        &["solve", "solitaire"],
        b"4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n",
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("reachable in 7 moves (limit 8): "),
        "{stdout}"
    );

    let output = run(
        &["solve", "fifteen", "--json"],
        b"2 3 4 0\n1 5 7 8\n9 6 10 12\n13 14 11 15\n",
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("\"length\":9"), "{stdout}");

    let output = run(&["solve", "eight"], b"");
    let (_, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1));
    eqnice!(
        "solver-client: no board given: none as arguments, and none on standard input\n",
        stderr
    );

    let output = run(&["solve", "eight", "--help"], b"");
    let (stdout, _) = text(&output);
    assert!(stdout.contains("read from standard input"), "{stdout}");
}
