//! `solver-client hint`, `scramble` and `verify` (the unary `solver.v2` RPCs), against the
//! embedded server and `--server`: every answer checked independently (replayed, and distances by
//! breadth-first search, or by `solve` for 4×4 boards far beyond its reach).

use solver_core::tiles::bfs;
use solver_core::{Board, Board3, Board4, Move};

use crate::util::{bfs_distance, call, json, replay};

/// Checks a `hint --json` answer for `start` towards `target`: the distance and every move's
/// distance after it by breadth-first search, every legal move graded once, best first.
fn check_hint<const W: usize>(value: &serde_json::Value, start: &Board<W>, target: &Board<W>) {
    // One breadth-first search from the target, as deep as the claimed distance and a move:
    // every distance the hint states lies within it, and a claim short of the truth leaves the
    // start out.
    let claimed = u32::try_from(value["distance"].as_u64().expect("distance")).unwrap();
    let dist = bfs::distances(*target, claimed + 1);
    let distance = dist
        .get(start)
        .copied()
        .expect("the start within the claimed distance");
    assert_eq!(value["distance"], distance, "{value}");
    let moves = value["moves"].as_array().expect("moves");
    let legal = Move::ALL
        .iter()
        .filter(|&&m| start.apply(m).is_some())
        .count();
    assert_eq!(moves.len(), legal, "{value}");
    let mut previous = 0;
    let mut seen = Vec::new();
    for mv in moves {
        let direction = mv["direction"].as_str().expect("direction");
        let after = replay(start, direction);
        let expected = dist[&after];
        assert_eq!(mv["distance_after"], expected, "{direction}: {value}");
        assert_eq!(mv["optimal"], expected < distance, "{direction}: {value}");
        assert!(expected >= previous, "not best first: {value}");
        assert!(expected.abs_diff(distance) == 1, "{value}");
        previous = expected;
        assert!(!seen.contains(&direction), "{direction} twice: {value}");
        seen.push(direction);
    }
}

#[test]
fn hint_on_a_3x3_board_to_the_goal_and_to_a_target() {
    let start: Board3 = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    let value = json(&["hint", "--json", "8 6 7 2 5 4 3 0 1"]);
    check_hint(&value, &start, &Board3::goal());
    assert_eq!(value["rows"], 3);
    assert_eq!(
        value["target"],
        serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 0])
    );

    // Packed, to another target, as text.
    let target: Board3 = "8 1 3 4 0 2 7 6 5".parse().unwrap();
    let value = json(&["hint", "--json", "--target", "813402765", "867254301"]);
    check_hint(&value, &start, &target);
    let (output, stdout, stderr) = call(&["hint", "--target", "8 1 3 4 0 2 7 6 5", "867254301"]);
    assert!(output.status.success(), "{stderr}");
    let distance = value["distance"].as_u64().unwrap();
    assert!(
        stdout.starts_with(&format!(
            "distance: {distance} moves to the target\nmoves, best first (distance after each):\n"
        )),
        "{stdout}"
    );
    let best = value["moves"][0]["direction"].as_str().unwrap();
    assert!(
        stdout.contains(&format!("  {best} -> {:>2}  (blank ", distance - 1)),
        "{stdout}"
    );
    assert!(stdout.contains("; on an optimal path)\n"), "{stdout}");

    // At the target: every move leads one away.
    let (output, stdout, _) = call(&["hint", "1 2 3 4 5 6 7 8 0"]);
    assert!(output.status.success());
    assert!(
        stdout.starts_with("distance: 0 (the position is the target)\n"),
        "{stdout}"
    );
    assert!(stdout.contains("  l ->  1  (blank left)\n"), "{stdout}");
    assert!(stdout.contains("  u ->  1  (blank up)\n"), "{stdout}");
}

#[test]
fn hint_on_a_4x4_board() {
    let board = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15";
    let start: Board4 = board.parse().unwrap();
    let value = json(&["hint", "--json", board]);
    assert_eq!(value["rows"], 4);
    assert_eq!(value["distance"], 9);
    check_hint(&value, &start, &Board4::goal());
    // The best move is the first of `solve`'s answer.
    let solved = json(&["solve", "fifteen", "--json", board]);
    let first = &solved["moves"].as_str().unwrap()[..1];
    assert_eq!(value["moves"][0]["direction"], first, "{value} {solved}");
}

/// The board on the first line of `scramble`'s text.
fn scrambled(args: &[&str]) -> (String, String) {
    let (output, stdout, stderr) = call(args);
    assert!(output.status.success(), "{args:?}: {stderr}");
    let first = stdout.lines().next().expect("a board").to_owned();
    (first, stdout)
}

#[test]
fn scramble_3x3_at_distance_20_exactly_and_reproducibly() {
    let args = [
        "scramble",
        "--size",
        "3x3",
        "--distance",
        "20",
        "--seed",
        "7",
    ];
    let (line, stdout) = scrambled(&args);
    let board: Board3 = line.parse().unwrap();
    assert_eq!(
        bfs_distance(&board, &Board3::goal(), 31),
        Some(20),
        "{stdout}"
    );
    assert!(stdout.contains("\ndistance: 20 "), "{stdout}");
    assert!(stdout.contains("\nseed: 7\n"), "{stdout}");
    assert!(stdout.contains("\ndrawn: uniformly"), "{stdout}");
    // The board drawn, `.` for the blank.
    let cells: Vec<String> = board
        .cells()
        .iter()
        .map(|&t| {
            if t == 0 {
                ".".to_owned()
            } else {
                t.to_string()
            }
        })
        .collect();
    assert!(
        stdout.contains(&format!("\n  {}\n", cells[..3].join(" "))),
        "{stdout}"
    );
    // The same seed, the same board; as JSON too.
    assert_eq!(scrambled(&args).0, line);
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let value = json(&with_json);
    let cells: Vec<u64> = board.cells().iter().map(|&c| u64::from(c)).collect();
    assert_eq!(value["board"], serde_json::json!(cells));
    assert_eq!(value["distance"], 20);
    assert_eq!(value["seed"], 7);
    assert_eq!(value["sampling"], "uniform");
    // Another seed, most likely another board, still at distance 20.
    let (other, _) = scrambled(&[
        "scramble",
        "--size",
        "3x3",
        "--distance",
        "20",
        "--seed",
        "8",
    ]);
    let other: Board3 = other.parse().unwrap();
    assert_eq!(bfs_distance(&other, &Board3::goal(), 31), Some(20));
    // No seed: a random one, printed.
    let (line, stdout) = scrambled(&["scramble", "--size", "3x3", "--distance", "5"]);
    let board: Board3 = line.parse().unwrap();
    assert_eq!(bfs_distance(&board, &Board3::goal(), 31), Some(5));
    let seed = stdout
        .lines()
        .find_map(|l| l.strip_prefix("seed: "))
        .expect("the seed");
    let (again, _) = scrambled(&[
        "scramble",
        "--size",
        "3x3",
        "--distance",
        "5",
        "--seed",
        seed,
    ]);
    assert_eq!(again, line);
}

#[test]
fn scramble_4x4_at_distance_30() {
    let args = [
        "scramble",
        "--json",
        "--size",
        "4x4",
        "--distance",
        "30",
        "--seed",
        "12",
    ];
    let value = json(&args);
    assert_eq!(value["distance"], 30);
    assert_eq!(value["sampling"], "random_walk");
    let cells: Vec<String> = value["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    let line = cells.join(" ");
    let board: Board4 = line.parse().unwrap();
    // Its distance by `solve` (a search of its own; far beyond a BFS), replayed.
    let solved = json(&["solve", "fifteen", "--json", &line]);
    assert_eq!(solved["length"], 30, "{solved}");
    assert_eq!(
        replay(&board, solved["moves"].as_str().unwrap()),
        Board4::goal()
    );
    // The same seed, the same board (as text, first line).
    let (text_line, stdout) = scrambled(&[
        "scramble",
        "--size",
        "4x4",
        "--distance",
        "30",
        "--seed",
        "12",
    ]);
    assert_eq!(text_line, line);
    assert!(
        stdout.contains("\ndrawn: the end of a random walk"),
        "{stdout}"
    );
}

#[test]
fn verify_legal_illegal_and_short_of_the_target() {
    // Legal and optimal.
    let value = json(&["verify", "--json", "1 2 3 4 5 6 7 x 8", "r"]);
    assert_eq!(value["legal"], true);
    assert_eq!(value["first_illegal_index"], serde_json::Value::Null);
    assert_eq!(value["reaches_target"], true);
    assert_eq!(value["length"], 1);
    assert_eq!(value["optimal_length"], 1);
    assert_eq!(value["excess"], 0);

    // Legal, reaching, two moves longer than optimal; the board as separate arguments.
    let (output, stdout, stderr) =
        call(&["verify", "1", "2", "3", "4", "5", "6", "7", "x", "8", "rlr"]);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stdout,
        "legal: yes\nreaches target: yes\nlength: 3\noptimal: 1\nexcess: 2\n"
    );

    // An illegal move at index 1 (the blank is on the bottom row): exit code 0, a verdict.
    // Packed: the blank in the middle of the bottom row.
    let (output, stdout, stderr) = call(&["verify", "123456708", "rd"]);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stdout,
        "legal: no\nfirst illegal index: 1 (move 2, 'd', would move the blank off the board)\n\
         reaches target: no\nlength: 2\noptimal: 1\nexcess: - (the moves do not reach the \
         target)\n"
    );
    let value = json(&["verify", "--json", "123456708", "rd"]);
    assert_eq!(value["legal"], false);
    assert_eq!(value["first_illegal_index"], 1);
    assert_eq!(value["reaches_target"], false);

    // Legal but short of the target; a 4×4 board to a target of its own.
    let start = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15";
    let value = json(&["verify", "--json", start, "ll"]);
    assert_eq!(value["legal"], true);
    assert_eq!(value["reaches_target"], false);
    assert_eq!(value["length"], 2);
    assert_eq!(value["optimal_length"], 9);
    assert_eq!(value["excess"], 0);
    let board: Board4 = start.parse().unwrap();
    let target = replay(&board, "lldr");
    let target: Vec<String> = target.cells().iter().map(u8::to_string).collect();
    let value = json(&[
        "verify",
        "--json",
        "--target",
        &target.join(" "),
        start,
        "lldr",
    ]);
    assert_eq!(value["reaches_target"], true);
    assert_eq!(value["optimal_length"], 4);
    assert_eq!(value["excess"], 0);
    // No moves at all: legal, and at the target only if the start is it.
    let value = json(&["verify", "--json", "12345678x", ""]);
    assert_eq!(value["reaches_target"], true);
    assert_eq!(value["length"], 0);
}

#[test]
fn a_bad_argument_names_the_field() {
    // Refused by the server, with a BadRequest detail: the field and why.
    let (output, stdout, stderr) = call(&["scramble", "--size", "3x3", "--distance", "40"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with(
            "solver-client: the server refused the call (INVALID_ARGUMENT)\n  field `distance`: 40"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("the most is 31"), "{stderr}");

    let (output, _, stderr) = call(&["verify", "12345678x", "rx"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr.contains("(INVALID_ARGUMENT)\n  field `moves`: "),
        "{stderr}"
    );

    // A target the board can never reach.
    let (output, _, stderr) = call(&["hint", "--target", "213456780", "12345678x"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr.starts_with(
            "solver-client: unsolvable: the start can never reach this target: the start and \
             the target have different permutation parities"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("(the server refused the call: INVALID_ARGUMENT, field `target`)"),
        "{stderr}"
    );

    // With --json: one JSON object on stdout, exit code 1.
    let (output, stdout, _) = call(&["scramble", "--json", "--size", "4x4", "--distance", "81"]);
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
    assert_eq!(value["error"]["status"], "INVALID_ARGUMENT");
    assert_eq!(value["error"]["code"], 3);
    assert_eq!(value["error"]["field_violations"][0]["field"], "distance");

    // Refused by the client before any call: the argument and why.
    let (output, _, stderr) = call(&["hint", "1 2 3 4 5 6 7 8 8"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr.contains("BOARD \"1 2 3 4 5 6 7 8 8\": tile 8 appears twice"),
        "{stderr}"
    );
    let (output, _, stderr) = call(&["verify", "1 2 3 4", "r"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr.contains("9 numbers (3×3) or 16 (4×4)"), "{stderr}");
    let (output, _, stderr) = call(&[
        "hint",
        "--target",
        "12345678x",
        "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr.contains("--target is a 3×3 board but BOARD is 4×4"),
        "{stderr}"
    );

    // Moves forgotten: said so, however the board was given.
    for board in [
        &["1", "2", "3", "4", "5", "6", "7", "8", "0"][..],
        &["12345678x"],
    ] {
        let args: Vec<&str> = std::iter::once("verify")
            .chain(board.iter().copied())
            .collect();
        let (output, _, stderr) = call(&args);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.starts_with("solver-client: MOVES missing: the last argument, "),
            "{stderr}"
        );
        assert!(stderr.contains("`verify BOARD MOVES`"), "{stderr}");
    }
    // A puzzle name, as `solve` takes, is named rather than counted as a tile.
    let (output, _, stderr) = call(&["verify", "eight", "1 2 3 4 5 6 7 8 0", "r"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr.contains("\"eight\" is a puzzle name"), "{stderr}");
}

#[test]
fn over_the_wire_to_a_running_server() {
    let server = crate::server::Server::start();
    let url = server.url();
    let value = json(&["--server", &url, "hint", "--json", "8 6 7 2 5 4 3 0 1"]);
    let start: Board3 = "8 6 7 2 5 4 3 0 1".parse().unwrap();
    check_hint(&value, &start, &Board3::goal());
    let value = json(&[
        "scramble",
        "--server",
        &url,
        "--json",
        "--size",
        "eight",
        "--distance",
        "31",
        "--seed",
        "0",
    ]);
    let cells: Vec<String> = value["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    let board: Board3 = cells.join(" ").parse().unwrap();
    assert_eq!(bfs_distance(&board, &Board3::goal(), 31), Some(31));
    let value = json(&[
        "verify",
        "--server",
        &url,
        "--json",
        "1 2 3 4 5 6 7 x 8",
        "r",
    ]);
    assert_eq!(value["reaches_target"], true);
    // A server that is not there: a clear error naming it, exit code 3 (not reached). Its
    // runtime drops the listener on its own threads after `drop` returns: until then a
    // connection is still taken (and fails later, as another error), so wait for the refusal.
    let addr = server.addr();
    drop(server);
    let refused_by = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::net::TcpStream::connect(addr).is_ok() {
        assert!(
            std::time::Instant::now() < refused_by,
            "{addr} still takes connections"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (output, _, stderr) = call(&["--server", &url, "hint", "12345678x"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(
        stderr.contains(&format!(
            "solver-client: connecting to the solver server at {url}"
        )),
        "{stderr}"
    );
}
