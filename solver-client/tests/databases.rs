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
    let cache = fresh_dir("cache");
    let judge = |flags: &[&str]| {
        let mut args = flags.to_vec();
        args.extend(["judge", "uva10181"]);
        let mut command = client(&args);
        command
            .env_remove("SOLVER_DATA_DIR")
            .env("XDG_CACHE_HOME", &cache);
        let output = run_with(command, &fixture("uva10181.in"));
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{stderr}");
        assert_eq!(stdout.lines().count(), 2, "{stdout}");
    };
    judge(&["--no-data-dir"]);
    assert!(
        !cache.exists(),
        "--no-data-dir wrote to the cache directory"
    );
    judge(&[]);
    assert!(cache.join("puzzle-solver").join(STANDARD).is_file());
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
        stdout.contains("pdb-663-blank13-v1.bin     stored, 3.0 MiB"),
        "{stdout}"
    );
    assert!(
        stdout.contains("missing (solver-client databases build)"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
