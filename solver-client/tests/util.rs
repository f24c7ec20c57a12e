//! Running the binary, fixtures, and independent checks of answers.

use std::collections::{HashMap, VecDeque};
use std::io::{Read as _, Write as _};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Output, Stdio};

use solver_core::{Board, Move};

/// The fixture file `name` under `tests/fixtures`.
pub(crate) fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The client binary with `args`, with `SOLVER_SERVER` cleared so runs embed their server,
/// `RUST_LOG` and `NO_COLOR` cleared so that stderr is what the tests expect, and the tests' own
/// data directory (never the user's cache).
pub(crate) fn client(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_solver-client"));
    command
        .args(args)
        .env("SOLVER_DATA_DIR", crate::server::data_dir())
        .env_remove("SOLVER_NO_DATA_DIR")
        .env_remove("SOLVER_SERVER")
        .env_remove("RUST_LOG")
        .env_remove("NO_COLOR");
    command
}

/// A client process whose stdin a thread is feeding, with stdout and stderr piped.
pub(crate) struct Running {
    pub(crate) child: Child,
    writer: std::thread::JoinHandle<()>,
}

impl Running {
    /// Starts `command` and feeds it `input`.
    pub(crate) fn start(mut command: Command, input: &[u8]) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawning solver-client");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = input.to_vec();
        let writer = std::thread::spawn(move || {
            // The client may stop reading early (e.g. on a usage error): ignore a broken pipe.
            let _ = stdin.write_all(&input);
        });
        Self { child, writer }
    }

    /// Waits for the exit (after the caller took what it wanted of stdout); returns the status
    /// and everything written to stderr.
    pub(crate) fn finish(mut self) -> (ExitStatus, String) {
        let mut stderr = String::new();
        self.child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut stderr)
            .expect("reading stderr");
        let status = self.child.wait().expect("waiting for solver-client");
        self.writer.join().expect("stdin writer");
        (status, stderr)
    }
}

/// Runs `command` with `input` on stdin and returns what it did.
pub(crate) fn run_with(command: Command, input: &[u8]) -> Output {
    let running = Running::start(command, input);
    let output = running
        .child
        .wait_with_output()
        .expect("waiting for solver-client");
    running.writer.join().expect("stdin writer");
    output
}

/// Runs the client with `args` and `input`.
pub(crate) fn run(args: &[&str], input: &[u8]) -> Output {
    run_with(client(args), input)
}

/// Runs the client with `args` and no input; the output, stdout and stderr.
pub(crate) fn call(args: &[&str]) -> (Output, String, String) {
    let output = run(args, b"");
    let (stdout, stderr) = text(&output);
    (output, stdout, stderr)
}

/// Runs the client with `args`, which must succeed, and parses its one JSON object.
pub(crate) fn json(args: &[&str]) -> serde_json::Value {
    let (output, stdout, stderr) = call(args);
    assert!(output.status.success(), "{args:?}: {stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{stdout:?}: {e}"))
}

/// stdout and stderr as text.
pub(crate) fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8"),
        String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8"),
    )
}

/// Asserts two texts are equal, showing both in full when they are not.
#[macro_export]
macro_rules! eqnice {
    ($expected:expr, $got:expr) => {{
        let expected: &str = &$expected;
        let got: &str = &$got;
        if expected != got {
            panic!(
                "\n\n==== expected ====\n{}\n==== got ====\n{}\n==== (debug) ====\nexpected: {:?}\ngot:      {:?}\n",
                expected, got, expected, got
            );
        }
    }};
}

/// Replays `letters` (either case) from `start` and returns where they lead.
pub(crate) fn replay<const W: usize>(start: &Board<W>, letters: &str) -> Board<W> {
    let moves = solver_core::parse_moves(letters)
        .unwrap_or_else(|e| panic!("{letters:?} is not a move string: {e}"));
    start
        .replay(&moves)
        .unwrap_or_else(|e| panic!("{letters:?} from {start:?}: {e}"))
}

/// The lexicographically smallest of the shortest move strings from `start` to `goal`, by plain
/// breadth-first search up to `limit` moves (`None` beyond): expanding each layer in order and
/// trying moves in letter order (`d < l < r < u`) gives every board, at its first discovery, the
/// smallest shortest string. Independent of the service's algorithms: only `Board::apply` is
/// shared.
pub(crate) fn smallest_shortest<const W: usize>(
    start: &Board<W>,
    goal: &Board<W>,
    limit: usize,
) -> Option<String> {
    // Per board: the board and move it was first reached by, and its depth.
    let mut parent: HashMap<Board<W>, (Option<(Board<W>, Move)>, usize)> =
        HashMap::from([(*start, (None, 0))]);
    let mut queue = VecDeque::from([*start]);
    while let Some(board) = queue.pop_front() {
        let depth = parent[&board].1;
        if board == *goal {
            let mut letters = Vec::with_capacity(depth);
            let mut at = board;
            while let (Some((from, mv)), _) = parent[&at] {
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
                parent.entry(next).or_insert_with(|| {
                    queue.push_back(next);
                    (Some((board, mv)), depth + 1)
                });
            }
        }
    }
    None
}

/// The exact distance from `start` to `goal`, up to `limit` moves (`None` beyond): the length of
/// [`smallest_shortest`].
pub(crate) fn bfs_distance<const W: usize>(
    start: &Board<W>,
    goal: &Board<W>,
    limit: usize,
) -> Option<usize> {
    smallest_shortest(start, goal, limit).map(|moves| moves.len())
}
