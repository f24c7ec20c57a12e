//! `solver-client load` against the embedded server: every class gets answers, none is wrong.

use serde_json::Value;

use crate::util::{client, run_with, text};

/// Runs `load` with `args` (plus `--json`) and returns its summary.
fn load(args: &[&str]) -> Value {
    let mut all = vec!["load", "--json", "--no-progress"];
    all.extend_from_slice(args);
    let output = run_with(client(&all), b"");
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}\n{stdout}");
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout:?}"))
}

/// The summary of `class`.
fn class<'a>(summary: &'a Value, name: &str) -> &'a Value {
    summary["classes"]
        .as_array()
        .expect("a list of classes")
        .iter()
        .find(|c| c["class"] == name)
        .unwrap_or_else(|| panic!("no class {name} in {summary}"))
}

/// A fixed number of cases per stream, every class (the hard ones two quick Korf instances, not
/// the 80-move board): all answered, checked, none wrong.
#[test]
fn every_class_is_answered_and_checked() {
    let summary = load(&[
        "--mix",
        "eight=2,fifteen-easy=1,fifteen-hard=1,solitaire=1",
        "--cases",
        "40",
        "--hard",
        "korf42,korf55",
        "--in-flight",
        "8,fifteen-hard=2",
        "--seed",
        "7",
    ]);
    assert_eq!(summary["wrong"], 0, "{summary}");
    assert_eq!(summary["interrupted"], false);
    assert_eq!(summary["seed"], 7);
    for (name, streams) in [
        ("eight", 2),
        ("fifteen-easy", 1),
        ("fifteen-hard", 1),
        ("solitaire", 1),
    ] {
        let c = class(&summary, name);
        assert_eq!(c["streams"], streams, "{c}");
        assert_eq!(c["sent"], 40 * streams, "{c}");
        assert_eq!(c["answered"], 40 * streams, "{c}");
        assert_eq!(c["errors"], 0, "{c}");
        assert_eq!(c["unfinished"], 0, "{c}");
        let p50 = c["latency_us"]["p50"].as_u64().expect("a median latency");
        let max = c["latency_us"]["max"].as_u64().expect("a largest latency");
        assert!(p50 >= 1 && p50 <= max, "{c}");
    }
    assert_eq!(class(&summary, "fifteen-hard")["in_flight"], 2);
    assert_eq!(class(&summary, "eight")["in_flight"], 8);
    // The embedded server lives in the client's process: its memory is this process's.
    assert!(
        summary["server_rss"]["max_bytes"].as_u64().unwrap_or(0) > 0,
        "{summary}"
    );
}

/// A timed run of the classes that need no 15-puzzle databases, over two connections.
#[test]
fn a_timed_run_stops_on_time() {
    let summary = load(&[
        "--mix",
        "eight,solitaire",
        "--streams",
        "4",
        "--connections",
        "2",
        "--duration",
        "700ms",
    ]);
    assert_eq!(summary["wrong"], 0, "{summary}");
    let elapsed = summary["elapsed_s"].as_f64().unwrap();
    assert!((0.7..5.0).contains(&elapsed), "{summary}");
    for name in ["eight", "solitaire"] {
        let c = class(&summary, name);
        assert_eq!(c["streams"], 2, "{c}");
        assert!(c["answered"].as_u64().unwrap() > 0, "{c}");
        assert_eq!(c["errors"], 0, "{c}");
    }
}

/// The `shapes` class (4×5 and 5×5 boards, bounded) drives the any-shape path: every case
/// answered and checked; the global `--timeout` is the streams' deadline.
#[test]
fn the_shapes_class_drives_the_any_shape_path() {
    let summary = load(&[
        "--mix",
        "shapes=2",
        "--cases",
        "12",
        "--in-flight",
        "4",
        "--seed",
        "11",
        "--timeout",
        "60s",
    ]);
    assert_eq!(summary["wrong"], 0, "{summary}");
    assert_eq!(summary["deadline_s"], 60.0, "{summary}");
    let c = class(&summary, "shapes");
    assert_eq!(c["streams"], 2, "{c}");
    assert_eq!(c["answered"], 24, "{c}");
    assert_eq!(c["errors"], 0, "{c}");
}
