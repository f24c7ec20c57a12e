//! `solve` of one large board through `SolveWatch`: stopped by `--timeout`, it prints the best
//! answer found so far with its proven ratio (exit 4); answered in time, it prints what a run
//! without the watch prints.

use crate::util::{run, text};

/// Korf & Felner's 24-puzzle instance 1 (95 moves): far beyond an optimal search in seconds.
const KORF_1: &str = "12 3 9 22 1 18 24 4 14 19 21 5 15 0 10 8 13 6 2 17 7 23 16 20 11";

#[test]
fn a_timeout_prints_the_best_answer_with_its_proven_ratio_or_the_bound() {
    let output = run(
        &[
            "--timeout",
            "5s",
            "solve",
            "sliding",
            "--size",
            "5x5",
            KORF_1,
            "--json",
        ],
        b"",
    );
    let (stdout, stderr) = text(&output);
    // A release build answers within 1.5 in about a second; a test build on a busy machine may
    // still be looking for its first answer (the service's own tests check that one comes).
    match output.status.code() {
        Some(4) => {
            let answer: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
            // The client replayed the moves before printing them (a reply that misses the goal
            // is an error, not an answer).
            assert_eq!(answer["optimal"], false, "{answer}");
            let length = answer["length"].as_u64().unwrap();
            let bound = answer["lower_bound"].as_u64().unwrap();
            assert!(length >= 95 && bound <= 95 && bound > 0, "{answer}");
            let ratio = answer["ratio"].as_f64().unwrap();
            assert!(
                (ratio - length as f64 / bound as f64).abs() < 1e-9,
                "{answer}"
            );
            assert!(stderr.contains("not proven optimal"), "{stderr}");
        }
        Some(5) => {
            assert_eq!(stdout, "");
            let bound: u32 = stderr
                .split("the optimum is at least ")
                .nth(1)
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("no bound said: {stderr}"));
            assert!(bound > 0 && bound <= 95, "{stderr}");
            assert!(stderr.contains("--max-ratio"), "{stderr}");
        }
        other => panic!("exit {other:?}: {stdout}{stderr}"),
    }
    assert!(stderr.contains("--timeout passed"), "{stderr}");
}

#[test]
fn answered_in_time_it_prints_what_an_unwatched_run_prints() {
    // A walk of thirty moves from the goal on 3×4: answered in well under a second.
    let scrambled = "5 0 6 3 2 1 10 8 9 7 4 11";
    let watched = run(
        &[
            "--timeout",
            "120s",
            "solve",
            "sliding",
            "--size",
            "3x4",
            scrambled,
        ],
        b"",
    );
    let plain = run(&["solve", "sliding", "--size", "3x4", scrambled], b"");
    let (watched_out, watched_err) = text(&watched);
    assert_eq!(watched.status.code(), Some(0), "{watched_err}");
    assert_eq!(watched_out, text(&plain).0);
    assert!(watched_out.contains("moves"), "{watched_out}");
}
