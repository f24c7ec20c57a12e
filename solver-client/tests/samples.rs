//! Every judge sample through the real binary and its embedded server: exact bytes where the
//! answer is unique, replay-and-verify (plus optimality) where any valid answer counts.

use solver_core::{Board3, Board4};

use crate::eqnice;
use crate::util::{bfs_distance, fixture, replay, run, text};

fn exact(problem: &str) {
    let output = run(&["judge", problem], &fixture(&format!("{problem}.in")));
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{problem}: {stderr}");
    eqnice!(
        String::from_utf8(fixture(&format!("{problem}.out"))).unwrap(),
        stdout
    );
    assert_eq!(stderr, "");
}

#[test]
fn hdu3567_sample_exact() {
    exact("hdu3567");
}

#[test]
fn poj1198_sample_exact() {
    exact("poj1198");
}

#[test]
fn hdu1401_sample_exact() {
    exact("hdu1401");
}

/// Checks one 3×3 answer line: `unsolvable` exactly when parity says so, otherwise moves that
/// solve the board in the optimal number of moves.
fn check_eight_line(board: &Board3, line: &str) {
    let goal = Board3::goal();
    if !board.can_reach(&goal) {
        assert_eq!(line, "unsolvable", "{board:?}");
        return;
    }
    assert!(line.bytes().all(|b| b"dlru".contains(&b)), "{line:?}");
    assert_eq!(
        replay(board, line),
        goal,
        "{line:?} does not solve {board:?}"
    );
    assert_eq!(
        Some(line.len()),
        bfs_distance(board, &goal, 31),
        "{line:?} is not optimal"
    );
}

fn eight_boards(lines: &[&str]) -> Vec<Board3> {
    lines.iter().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn hdu1043_sample_replays() {
    let input = fixture("hdu1043.in");
    let output = run(&["judge", "hdu1043"], &input);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let boards = eight_boards(
        &String::from_utf8(input)
            .unwrap()
            .lines()
            .collect::<Vec<_>>(),
    );
    let lines: Vec<&str> = stdout.split_terminator('\n').collect();
    assert_eq!(lines.len(), boards.len(), "{stdout:?}");
    for (board, line) in boards.iter().zip(&lines) {
        check_eight_line(board, line);
    }
    // The second board is already solved: an empty line. The third is unsolvable.
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "unsolvable");
    assert!(stdout.ends_with('\n'));
}

#[test]
fn poj1077_sample_replays() {
    let output = run(&["judge", "poj1077"], &fixture("poj1077.in"));
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let board: Board3 = "2 3 4 1 5 x 7 6 8".parse().unwrap();
    let line = stdout.strip_suffix('\n').expect("one line");
    check_eight_line(&board, line);
    // The judge's example answer is a valid one too, and no shorter than ours.
    let example = String::from_utf8(fixture("poj1077.out.example")).unwrap();
    assert_eq!(replay(&board, example.trim_end()), Board3::goal());
    assert!(line.len() <= example.trim_end().len());
}

#[test]
fn uva652_sample_replays_with_blank_lines_between() {
    let output = run(&["judge", "uva652"], &fixture("uva652.in"));
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    // Two outputs separated by one blank line, none after the last.
    let blocks: Vec<&str> = stdout.split("\n\n").collect();
    assert_eq!(blocks.len(), 2, "{stdout:?}");
    let boards = eight_boards(&["2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 8 x"]);
    check_eight_line(&boards[0], blocks[0]);
    // The second board is solved already: its output is an empty line.
    assert_eq!(blocks[1], "\n");
    assert_eq!(stdout, format!("{}\n\n\n", blocks[0]));
}

#[test]
fn uva10181_sample_replays() {
    let output = run(&["judge", "uva10181"], &fixture("uva10181.in"));
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.split_terminator('\n').collect();
    assert_eq!(lines.len(), 2, "{stdout:?}");
    let board: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
    assert!(
        lines[0].bytes().all(|b| b"DLRU".contains(&b)),
        "{:?}",
        lines[0]
    );
    assert_eq!(replay(&board, lines[0]), Board4::goal());
    assert_eq!(
        Some(lines[0].len()),
        bfs_distance(&board, &Board4::goal(), 9)
    );
    assert_eq!(lines[1], "This puzzle is not solvable.");
    let example = String::from_utf8(fixture("uva10181.out.example")).unwrap();
    assert_eq!(lines[0].len(), example.lines().next().unwrap().len());
}

#[test]
fn lowercase_and_uppercase_x_and_odd_spacing_are_read() {
    let output = run(
        &["judge", "hdu1043"],
        b"\t2 3 4\r\n1 5 X\n\n7 6 8   1 2 3 4 5 6 7 x 8",
    );
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.split_terminator('\n').collect();
    check_eight_line(&"2 3 4 1 5 x 7 6 8".parse().unwrap(), lines[0]);
    assert_eq!(lines[1], "r");
}

#[test]
fn many_cases_come_back_in_input_order() {
    // Boards at increasing distance, so answers finish out of order on the server.
    let mut input = String::new();
    let mut boards = Vec::new();
    let mut board = Board3::goal();
    for (i, mv) in "ulldrruldlurrdluldrrulldrr"
        .chars()
        .cycle()
        .take(600)
        .enumerate()
    {
        if let Some(next) = board.apply(solver_core::Move::from_letter(mv).unwrap()) {
            board = next;
        }
        if i % 3 == 0 {
            let tokens: Vec<String> = board.cells().iter().map(u8::to_string).collect();
            input.push_str(&tokens.join(" "));
            input.push('\n');
            boards.push(board);
        }
    }
    let output = run(&["judge", "hdu1043"], input.as_bytes());
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.split_terminator('\n').collect();
    assert_eq!(lines.len(), boards.len());
    for (board, line) in boards.iter().zip(&lines) {
        assert_eq!(replay(board, line), Board3::goal());
    }
}
