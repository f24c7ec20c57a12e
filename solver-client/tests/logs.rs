//! Log lines on stderr (the embedded server's, shown with `RUST_LOG`): coloured only with
//! `--color always` or on a terminal without `NO_COLOR`; nothing at all on a normal run.

use std::io::Read as _;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::util::{client, run, run_with, text};

#[test]
fn into_a_pipe_log_lines_are_coloured_only_with_color_always() {
    let esc = '\u{1b}';
    let logged = |args: &[&str], no_color: bool| {
        let mut command = client(args);
        command.env("RUST_LOG", "info");
        if no_color {
            command.env("NO_COLOR", "1");
        }
        let output = run_with(command, b"");
        let (_, stderr) = text(&output);
        assert!(output.status.success(), "{stderr}");
        assert!(stderr.contains("INFO"), "{stderr}");
        stderr
    };
    // stderr is a pipe here: no colour unless --color always.
    for args in [
        &["solve", "eight", "12345678x"][..],
        &["--color", "auto", "solve", "eight", "12345678x"][..],
        &["solve", "eight", "--color", "never", "12345678x"][..],
    ] {
        let stderr = logged(args, false);
        assert!(!stderr.contains(esc), "{args:?}: {stderr:?}");
    }
    let stderr = logged(&["--color", "always", "solve", "eight", "12345678x"], true);
    assert!(stderr.contains(esc), "{stderr:?}");
    // Without RUST_LOG, a normal run writes nothing to stderr.
    let output = run(&["solve", "eight", "12345678x"], b"");
    let (_, stderr) = text(&output);
    assert_eq!(stderr, "");
}

/// On a terminal (a pseudo-terminal from util-linux `script`, where there is one): coloured,
/// unless `NO_COLOR` is set or `--color never` is given.
#[test]
fn on_a_terminal_log_lines_are_coloured_unless_no_color() {
    if !std::path::Path::new("/usr/bin/script").exists() || !cfg!(target_os = "linux") {
        eprintln!("no /usr/bin/script: skipped");
        return;
    }
    let on_terminal = |env: &str, flags: &str| {
        let line = format!(
            "{env} RUST_LOG=info {} {flags} solve eight 12345678x >/dev/null",
            env!("CARGO_BIN_EXE_solver-client")
        );
        let output = std::process::Command::new("/usr/bin/script")
            .args(["-qec", &line, "/dev/null"])
            .env("SOLVER_DATA_DIR", crate::server::data_dir())
            .env_remove("SOLVER_SERVER")
            .env_remove("NO_COLOR")
            .output()
            .expect("running script");
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{line}: {stderr}");
        assert!(stdout.contains("INFO"), "{line}: {stdout:?}");
        stdout.contains('\u{1b}')
    };
    assert!(on_terminal("", ""));
    assert!(!on_terminal("NO_COLOR=1", ""));
    assert!(!on_terminal("", "--color never"));
    assert!(on_terminal("NO_COLOR=1", "--color always"));
}

/// A stderr closed early (`2>&1 | head -1`) while log lines are still due: the run still ends,
/// with its answer.
#[test]
fn a_closed_stderr_does_not_stop_the_run() {
    let mut command = client(&["solve", "eight", "12345678x"]);
    command
        .env("RUST_LOG", "debug")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("spawning solver-client");
    drop(child.stderr.take());
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for solver-client") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("solver-client still running 120 s after its stderr was closed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("reading stdout");
    assert!(status.success(), "{status}");
    assert_eq!(stdout, "already solved: 0 moves\n");
}
