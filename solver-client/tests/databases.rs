//! The data directory through the CLI: databases built once and loaded after, a corrupt file
//! reported and rebuilt, `--no-data-dir`, and `databases status`.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::util::{client, fixture, run_with, text};

/// A fresh data directory of this test's own.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("data-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The UVa 10181 sample through `judge`, with info logs, over `dir`.
fn judge_sample(dir: &Path) -> Output {
    let mut command = client(&["judge", "uva10181"]);
    command.env("SOLVER_DATA_DIR", dir).env("RUST_LOG", "info");
    let output = run_with(command, &fixture("uva10181.in"));
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0].len(), 9, "{stdout}");
    assert_eq!(lines[1], "This puzzle is not solvable.");
    output
}

const STANDARD: &str = "pdb-663-v1.bin";

#[test]
fn databases_are_built_once_then_loaded_and_a_corrupt_file_is_rebuilt() {
    let dir = fresh_dir("once");
    let first = text(&judge_sample(&dir)).1;
    assert!(first.contains("pattern databases built"), "{first}");
    assert!(first.contains("pattern databases stored"), "{first}");
    let file = dir.join(STANDARD);
    let stored = std::fs::read(&file).expect("the 6-6-3 set is stored");

    // The second run loads the file and builds nothing.
    let second = text(&judge_sample(&dir)).1;
    assert!(second.contains("pattern databases loaded"), "{second}");
    assert!(!second.contains("pattern databases built"), "{second}");
    assert_eq!(std::fs::read(&file).unwrap(), stored);

    // One flipped bit: the default log level (warnings) names the file, the answers are still
    // right, and the file is rebuilt whole.
    let mut corrupt = stored.clone();
    let middle = corrupt.len() / 2;
    corrupt[middle] ^= 0x10;
    std::fs::write(&file, &corrupt).unwrap();
    let mut command = client(&["judge", "uva10181"]);
    command.env("SOLVER_DATA_DIR", &dir);
    let output = run_with(command, &fixture("uva10181.in"));
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("WARN"), "{stderr}");
    assert!(stderr.contains(&file.display().to_string()), "{stderr}");
    assert!(stderr.contains("checksum mismatch"), "{stderr}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert_eq!(std::fs::read(&file).unwrap(), stored, "rebuilt as before");
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [STANDARD], "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_default_is_the_cache_directory_and_no_data_dir_keeps_nothing() {
    // The data directory every command and the embedded server get comes from the same flags;
    // a 2x3 table is built and stored in a moment, where a 15-puzzle set takes seconds.
    let cache = fresh_dir("cache");
    let build = |flags: &[&str]| {
        let mut args = flags.to_vec();
        args.extend(["databases", "build", "--size", "2x3"]);
        let mut command = client(&args);
        command
            .env_remove("SOLVER_DATA_DIR")
            .env("XDG_CACHE_HOME", &cache);
        let output = run_with(command, b"");
        let (_, stderr) = text(&output);
        (output.status.success(), stderr)
    };
    let (ok, stderr) = build(&["--no-data-dir"]);
    assert!(!ok && stderr.contains("no data directory"), "{stderr}");
    assert!(
        !cache.exists(),
        "--no-data-dir wrote to the cache directory"
    );
    let (ok, stderr) = build(&[]);
    assert!(ok, "{stderr}");
    let stored: Vec<String> = std::fs::read_dir(cache.join("puzzle-solver"))
        .expect("the cache directory's puzzle-solver")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        stored.len() == 1 && stored[0].starts_with("grid-2x3-"),
        "{stored:?}"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn status_lists_every_set_and_where() {
    let dir = fresh_dir("status");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pdb-663-blank13-v1.bin"), vec![0u8; 3 << 20]).unwrap();
    let mut command = client(&["databases", "status"]);
    command.env("SOLVER_DATA_DIR", &dir);
    let output = run_with(command, b"");
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stdout.starts_with(&format!("data directory: {}\n", dir.display())),
        "{stdout}"
    );
    for set in [
        "pdb-663 ",
        "pdb-663-blank10",
        "pdb-663-blank13",
        "pdb-663-blank14",
        "pdb-78 ",
    ] {
        assert!(stdout.contains(set), "{set}: {stdout}");
    }
    assert!(
        stdout.contains("pdb-663-blank13-v1.bin  stored, 3.0 MiB"),
        "{stdout}"
    );
    assert!(
        stdout.contains("missing (solver-client databases build)"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_shapes_tables_are_built_ahead_stored_and_listed() {
    let dir = fresh_dir("shapes");
    let build = |args: &[&str]| {
        let mut all = vec!["--data-dir", dir.to_str().unwrap(), "databases", "build"];
        all.extend(args);
        let output = run_with(client(&all), b"");
        let (stdout, stderr) = text(&output);
        (output.status.success(), stdout, stderr)
    };
    // A complete table (2x3) and a pattern database set (3x5, within a small budget).
    let (ok, _, stderr) = build(&["--size", "2x3", "--size", "3x5", "--table-memory", "64"]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("2x3 (target blank on cell 5): ready"),
        "{stderr}"
    );
    assert!(
        stderr.contains("3x5 (target blank on cell 14): ready"),
        "{stderr}"
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].starts_with("grid-2x3-"), "{names:?}");
    assert!(names[1].starts_with("gridpdb-3x5-"), "{names:?}");
    let stored = std::fs::read(dir.join(&names[1])).unwrap();

    // Built once: the second run loads the files and leaves them as they were.
    let (ok, _, stderr) = build(&["--size", "3x5", "--table-memory", "64"]);
    assert!(ok, "{stderr}");
    assert_eq!(std::fs::read(dir.join(&names[1])).unwrap(), stored);

    let mut status = client(&["--data-dir", dir.to_str().unwrap(), "databases", "status"]);
    status.env_remove("SOLVER_DATA_DIR");
    let (stdout, _) = text(&run_with(status, b""));
    for name in &names {
        assert!(stdout.contains(name.as_str()), "{name}: {stdout}");
    }
    // One column for the states, however long the names.
    let states: Vec<usize> = stdout
        .lines()
        .filter_map(|line| line.find("  stored, ").or(line.find("  missing (")))
        .collect();
    assert_eq!(states.len(), 7, "{stdout}");
    assert!(states.iter().all(|&at| at == states[0]), "{stdout}");
    assert!(stdout.contains("  2x3 table "), "{stdout}");
    assert!(stdout.contains("  3x5 databases "), "{stdout}");

    // Shapes without tables, and cells off the board, are named.
    let (ok, _, stderr) = build(&["--size", "6x6"]);
    assert!(
        !ok && stderr.contains("6x6 boards have no tables"),
        "{stderr}"
    );
    let (ok, _, stderr) = build(&["--size", "2x3", "--blank", "6"]);
    assert!(
        !ok && stderr.contains("cell 6 is not on a 2x3 board"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
