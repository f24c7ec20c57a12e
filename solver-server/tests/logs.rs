//! The binary's log lines: coloured as `--color` says (the client's flag, shared), whatever
//! stderr is.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};

/// The first log lines of a server started with `args` (stderr is a pipe here), up to the one
/// saying it listens; the server is killed then.
fn first_lines(args: &[&str], no_color: bool) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_solver-server"));
    command
        .args([
            "--listen",
            "127.0.0.1:0",
            "--metrics-listen",
            "off",
            "--no-data-dir",
            "--warm-up",
            "none",
        ])
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("SOLVER_COLOR")
        .env_remove("SOLVER_LOG_FORMAT")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if no_color {
        command.env("NO_COLOR", "1");
    } else {
        command.env_remove("NO_COLOR");
    }
    let mut child = command.spawn().expect("the server binary starts");
    let stderr = child.stderr.take().expect("a piped stderr");
    let mut lines = String::new();
    for line in BufReader::new(stderr).lines().take(20) {
        let line = line.expect("log lines are text");
        lines.push_str(&line);
        lines.push('\n');
        if line.contains("listening") {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(lines.contains("listening"), "{lines}");
    lines
}

#[test]
fn color_follows_the_flag_then_no_color() {
    const ESCAPE: char = '\u{1b}';
    assert!(first_lines(&["--color", "always"], true).contains(ESCAPE));
    assert!(!first_lines(&["--color", "never"], false).contains(ESCAPE));
    // A pipe is not a terminal: `auto` does not colour it.
    assert!(!first_lines(&[], false).contains(ESCAPE));
    // JSON lines are never coloured.
    let json = first_lines(&["--color", "always", "--log-format", "json"], false);
    assert!(!json.contains(ESCAPE), "{json}");
}
