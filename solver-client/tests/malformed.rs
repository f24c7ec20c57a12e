//! Malformed and truncated input for every problem: the bad case is named on stderr with its
//! line and what is wrong, every other case is answered on stdout, and the exit status is
//! non-zero at the end. Also: a closed stdout ends the run quietly.

use std::io::Read as _;

use crate::eqnice;
use crate::util::{Running, client, run, text};

/// Runs `problem` on `input`; checks stdout exactly, each expected stderr line, and failure.
fn check(problem: &str, input: &str, stdout: &str, messages: &[&str]) {
    let output = run(&["judge", problem], input.as_bytes());
    let (out, err) = text(&output);
    eqnice!(stdout, out);
    for message in messages {
        assert!(
            err.lines().any(|line| line == *message),
            "{problem}: expected stderr line {message:?} in:\n{err}"
        );
    }
    assert!(
        !output.status.success(),
        "{problem}: exit status {}",
        output.status
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn hdu1043_bad_and_truncated_boards() {
    check(
        "hdu1043",
        "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8\n1 2 3 4 5 6 7 y x\n2 1 3 4 5 6 7 8 x\n1 2\n",
        "\nunsolvable\n",
        &[
            "hdu1043: case 2, line 2: expected 9 tiles, found 8",
            "hdu1043: case 3, line 3: token 8 (\"y\") is not a tile: expected 1..=8, or x, X or 0 for the blank",
            "hdu1043: case 5, line 5: the input ends inside the case, after 2 of the 9 tiles",
        ],
    );
}

#[test]
fn poj1077_duplicate_tile() {
    check(
        "poj1077",
        "1 2 3 4 5 6 7 7 x\n1 2 3 4 5 6 7 x 8\n",
        "r\n",
        &["poj1077: case 1, line 1: tile 7 appears twice (cells 7 and 8), so tile 8 is missing"],
    );
}

#[test]
fn uva652_bad_board_and_missing_case() {
    check(
        "uva652",
        "3\n\n1 2 3 4 5 6 7 8 9\n\n1 2 3 4 5 6 7 x 8\n",
        "r\n",
        &[
            "uva652: case 1, line 3: tile 9 (token 9) is out of range: expected 1..=8, or 0 for the blank",
            "uva652: case 3, line 5: missing: the input ends after 2 of the 3 cases the first line announced",
        ],
    );
    check(
        "uva652",
        "many\n1 2 3 4 5 6 7 x 8\n",
        "r\n",
        &[
            "uva652: line 1: expected the number of cases first, found \"many\"; reading cases until the end of input",
        ],
    );
}

#[test]
fn hdu3567_bad_and_truncated_pairs() {
    check(
        "hdu3567",
        "3\n12X453786\n12345678\n564178X23\n7568X4123\n12X45378\n",
        "Case 2: 8\nurrulldr\n",
        &[
            "hdu3567: case 1, line 2: target: \"12345678\" is not a board: expected 9 tiles, or 9 characters packed like 12345678x",
            "hdu3567: case 3, line 6: the input ends inside the case, after 1 of the 2 boards",
        ],
    );
    // Unsolvable pairs break the judge's promise: reported, not printed.
    check(
        "hdu3567",
        "2\n21345678X\n12345678X\n12X453786\n12345678X\n",
        "Case 2: 2\ndd\n",
        &[
            "hdu3567: case 1, line 2: the start cannot reach the target (their permutation parities differ); HDU 3567 promises a solution, so there is nothing to print",
        ],
    );
}

#[test]
fn uva10181_bad_and_truncated_boards() {
    check(
        "uva10181",
        "3\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 15\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n1 2 3\n",
        "R\n",
        &[
            "uva10181: case 1, line 2: tile 15 appears twice (cells 15 and 16), so the blank is missing",
            "uva10181: case 3, line 10: the input ends inside the case, after 3 of the 16 tiles",
        ],
    );
}

#[test]
fn solitaire_bad_and_truncated_positions() {
    for problem in ["poj1198", "hdu1401"] {
        check(
            problem,
            "4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 9\n4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n1 1 1 2\n",
            "YES\n",
            &[
                &format!(
                    "{problem}: case 1, line 1: end: piece 4: square (4, 9) is off the board: rows and columns are 1..=8"
                ),
                &format!(
                    "{problem}: case 3, line 5: the input ends inside the case, after 4 of the 16 numbers"
                ),
            ],
        );
    }
}

#[test]
fn binary_garbage_is_reported_not_fatal() {
    let output = run(
        &["judge", "hdu1043"],
        b"\xff\xfe\x00 junk\n1 2 3 4 5 6 7 x 8\n",
    );
    let (out, err) = text(&output);
    assert!(!output.status.success());
    assert!(err.contains("hdu1043: case 1, line 1: "), "{err}");
    assert!(out.ends_with("r\n"), "{out:?}");
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    // Far more output than a pipe buffer holds, so the client is still writing when we leave.
    let input = "1 2 3 4 5 6 x 7 8\n".repeat(50_000);
    let mut running = Running::start(client(&["judge", "hdu1043"]), input.as_bytes());
    let mut stdout = running.child.stdout.take().unwrap();
    let mut first = [0u8; 3];
    stdout.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"rr\n");
    drop(stdout);
    let (status, stderr) = running.finish();
    assert!(status.success(), "{status}: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn empty_input_is_no_cases() {
    for problem in ["hdu1043", "poj1198", "hdu1401", "poj1077"] {
        let output = run(&["judge", problem], b"  \n");
        assert!(output.status.success(), "{problem}");
        assert!(output.stdout.is_empty());
    }
    let output = run(&["judge", "uva652"], b"0\n");
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
}
