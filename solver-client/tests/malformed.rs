//! Malformed and truncated input for every problem: the bad case is named on stderr with its
//! line and what is wrong, every other case is answered on stdout (one bad case costs only
//! itself, and later cases keep their numbers), and the exit status is non-zero at the end.
//! Also: a closed stdout ends the run quietly, and a counted format's empty input is reported.

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

/// Like [`check`], and the last stderr line is the run's summary: `answered` of `cases` cases.
fn check_summary(
    problem: &str,
    input: &str,
    stdout: &str,
    messages: &[&str],
    (answered, cases): (usize, usize),
) {
    check(problem, input, stdout, messages);
    let output = run(&["judge", problem], input.as_bytes());
    let (_, err) = text(&output);
    let failed = err.lines().count() - 1;
    eqnice!(
        format!(
            "solver-client: {problem}: {failed} problem(s) in the input or its answers (see \
             above); {answered} of {cases} case(s) answered"
        ),
        err.lines().last().unwrap_or_default()
    );
}

/// The answer to the UVa 10181 sample's first board.
const UVA10181_FIRST: &str = "2 3 4 0\n1 5 7 8\n9 6 10 12\n13 14 11 15\n";

#[test]
fn uva10181_a_five_by_five_board_costs_only_itself() {
    // On five lines, and on one.
    check_summary(
        "uva10181",
        &format!(
            "2\n1 2 3 4 5\n6 7 8 9 10\n11 12 13 14 15\n16 17 18 19 20\n21 22 23 24 0\n{UVA10181_FIRST}"
        ),
        "LLLDRDRDR\n",
        &[
            "uva10181: case 1, line 2: expected 16 tiles, found 25 (lines 2 to 6: 5 + 5 + 5 + 5 + 5)",
        ],
        (1, 2),
    );
    check_summary(
        "uva10181",
        &format!(
            "3\n{UVA10181_FIRST}1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0\n{UVA10181_FIRST}"
        ),
        "LLLDRDRDR\nLLLDRDRDR\n",
        &["uva10181: case 2, line 6: expected 16 tiles, found 25"],
        (2, 3),
    );
}

#[test]
fn uva10181_a_row_too_short_or_too_long_costs_only_its_board() {
    check_summary(
        "uva10181",
        &format!(
            "4\n2 3 4 0\n1 5 7\n9 6 10 12\n13 14 11 15\n{UVA10181_FIRST}2 3 4 0\n1 5 7 8 8\n9 6 10 12\n13 14 11 15\n{UVA10181_FIRST}"
        ),
        "LLLDRDRDR\nLLLDRDRDR\n",
        &[
            "uva10181: case 1, line 2: expected 16 tiles, found 15 (lines 2 to 5: 4 + 3 + 4 + 4)",
            "uva10181: case 3, line 10: expected 16 tiles, found 17 (lines 10 to 13: 4 + 5 + 4 + 4)",
        ],
        (2, 4),
    );
}

#[test]
fn hdu1043_a_line_of_sixteen_numbers_is_one_bad_case() {
    check_summary(
        "hdu1043",
        "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n1 2 3 4 5 6 7 x 8\n1 2 3 4 5 6 7 8 8\n1 2 3 4 5 6 x 7 8\n",
        "\nr\nrr\n",
        &[
            "hdu1043: case 2, line 2: expected 9 tiles, found 16",
            "hdu1043: case 4, line 4: tile 8 appears twice (cells 8 and 9), so the blank is missing",
        ],
        (3, 5),
    );
}

#[test]
fn poj1077_and_uva652_lines_too_long_cost_only_themselves() {
    check(
        "poj1077",
        "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 9 10\n1 2 3 4 5 6 7 x 8\n",
        "\nr\n",
        &["poj1077: case 2, line 2: expected 9 tiles, found 10"],
    );
    check(
        "uva652",
        "3\n\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n\n123456x78\n\n1 2 3 4 5 6 7 x 8\n",
        "rr\n\nr\n",
        &["uva652: case 1, line 3: expected 9 tiles, found 16"],
    );
}

#[test]
fn hdu3567_a_bad_line_costs_only_its_case() {
    // A start board with a tile too many on its line: the pairs after it stay paired.
    check(
        "hdu3567",
        "3\n12X453786 5\n12345678X\n564178X23\n7568X4123\n12X453786\n12345678X\n",
        "Case 2: 8\nurrulldr\nCase 3: 2\ndd\n",
        &["hdu3567: case 1, line 2: expected 2 boards, found 3 (lines 2 to 3: 2 + 1)"],
    );
}

#[test]
fn solitaire_a_short_or_long_line_costs_only_its_case() {
    for problem in ["poj1198", "hdu1401"] {
        check_summary(
            problem,
            "4 4 4 5 5 4 6\n2 4 3 3 3 6 4 6\n4 4 4 5 5 4 6 5\n2 4 3 3 3 6 4 6\n4 4 4 5 5 4 6 5 1\n2 4 3 3 3 6 4 6\n4 4 4 5 5 4 6 5\n4 4 4 5 5 4 6 5\n",
            "YES\nYES\n",
            &[
                &format!(
                    "{problem}: case 1, line 1: expected 16 numbers, found 15 (lines 1 to 2: 7 + 8)"
                ),
                &format!(
                    "{problem}: case 3, line 5: expected 16 numbers, found 17 (lines 5 to 6: 9 + 8)"
                ),
            ],
            (2, 4),
        );
    }
}

#[test]
fn a_huge_number_is_quoted_as_typed() {
    check(
        "hdu1043",
        "99999999999999999999999 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 x 8\n",
        "r\n",
        &[
            "hdu1043: case 1, line 1: token 1 (\"99999999999999999999999\") is out of range: expected 1..=8, or 0 for the blank",
        ],
    );
    check(
        "uva652",
        "99999999999999999999999\n1 2 3 4 5 6 7 x 8\n",
        "r\n",
        &[
            "uva652: case 2, line 2: missing: the input ends after 1 of the 99999999999999999999999 cases the first line announced",
        ],
    );
}

#[test]
fn a_counted_format_with_empty_input_says_its_count_is_missing() {
    for problem in ["uva652", "hdu3567", "uva10181"] {
        for input in ["", " \n\n"] {
            let output = run(&["judge", problem], input.as_bytes());
            let (out, err) = text(&output);
            assert_eq!(output.status.code(), Some(1), "{problem}: {err}");
            assert_eq!(out, "");
            eqnice!(
                format!(
                    "{problem}: line 1: the number of cases is missing: the input is empty\n\
                     solver-client: {problem}: 1 problem(s) in the input (see above); no case read\n"
                ),
                err
            );
        }
    }
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
