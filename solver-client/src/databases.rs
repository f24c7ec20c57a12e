//! `solver-client databases build|status`: the stored pattern databases, for people.
//!
//! The embedded server loads and stores databases in the same data directory by itself; these
//! commands build the 7-8 set ahead of time (minutes, once) and show what is stored.

use std::io::{IsTerminal as _, Write as _};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use solver_core::fifteen::DatabaseSet;
use solver_core::tiles::grid::Grid;
use solver_core::{Pace, Progress, Turn, Unpaced};
use solver_store::{BuildEvent, DataDir, STRONG, Stored, flags};

use crate::progress;

/// What to do with the stored databases.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Databases {
    /// Build every pattern database set the data directory lacks: above all the 15-puzzle's
    /// 7-8 set (minutes on every core, about 1.5 GB of memory while building, 550 MiB stored),
    /// with which every later run, and every server using that directory, answers 15-puzzle
    /// cases; the others take seconds. Sets stored and intact are kept.
    Build {
        /// Threads to build on (default: every core).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Build every set again, even those stored and intact.
        #[arg(long)]
        force: bool,
        /// Instead of the 15-puzzle's sets, the tables of boards of this shape (repeatable):
        /// the complete table of a board of at most 12 cells (2x6 and 3x4: about 10 s and 60
        /// MB), or the pattern databases of 13 to 25 cells (5x5: Korf & Felner's 6-6-6-6, about
        /// 2.5 minutes and 3.1 GB while building, 977 MB stored, then as many of five other
        /// 6-6-6-6 sets as `--table-memory` holds beside it, as much again each: a server holding
        /// them races them on each optimal 5x5 case and goes on with the one that prunes most
        /// for that board). Loaded when stored and intact.
        #[arg(long, value_name = "RxC", value_parser = crate::family::sliding::any_shape::parse_size)]
        size: Vec<Grid>,
        /// With `--size`: the target's blank cell (0-based, row by row) the tables serve
        /// (default: the last cell, where the standard goal has it).
        #[arg(long, value_name = "CELL", requires = "size")]
        blank: Option<usize>,
        /// With `--size`: the memory a build may take, in MiB (a smaller budget gets smaller
        /// pattern databases, and weaker).
        #[arg(long, value_name = "MIB", default_value_t = flags::TABLE_MEMORY_MIB, requires = "size")]
        table_memory: u64,
    },
    /// List the data directory: which sets are stored, their sizes, and where.
    Status,
}

/// Runs `command` on `data`; `progress_wanted` allows a bar on a terminal.
pub(crate) fn run(
    command: &Databases,
    data: &DataDir,
    progress_wanted: bool,
) -> anyhow::Result<()> {
    match command {
        Databases::Build {
            threads,
            force,
            size,
            blank,
            table_memory,
        } => {
            let threads = threads.unwrap_or_else(every_core).max(1);
            if size.is_empty() {
                build(data, threads, *force, progress_wanted)
            } else {
                build_shapes(data, size, *blank, threads, *table_memory, progress_wanted)
            }
        }
        Databases::Status => status(data),
    }
}

/// After an embedded server has answered: when it found the stored 7-8 set failing its checks
/// (among the sets it reported `unusable`: it warned, and answered with the 6-6-3 set), builds
/// the set again now, so later runs have it (minutes on every core; Ctrl-C stops, and `databases
/// build` does it later). The smaller sets the server rebuilt at once by itself.
///
/// # Errors
/// When the set cannot be built or stored.
pub(crate) fn rebuild_found_unusable(
    data: &DataDir,
    unusable: &[DatabaseSet],
    progress_wanted: bool,
) -> anyhow::Result<()> {
    if !unusable.contains(&STRONG) {
        return Ok(());
    }
    eprintln!(
        "solver-client: the stored {STRONG} set failed its checks (above), so the answers used \
         the smaller set; building it again now (minutes; Ctrl-C stops, and `solver-client \
         databases build` does it later)"
    );
    build_sets(data, &[STRONG], every_core(), false, progress_wanted)
}

fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

fn build(data: &DataDir, threads: usize, force: bool, progress_wanted: bool) -> anyhow::Result<()> {
    build_sets(data, &DatabaseSet::ALL, threads, force, progress_wanted)
}

fn build_sets(
    data: &DataDir,
    sets: &[DatabaseSet],
    threads: usize,
    force: bool,
    progress_wanted: bool,
) -> anyhow::Result<()> {
    let dir = data_path(data)?;
    eprintln!("data directory: {}", dir.display());
    let report = Report::new(progress_wanted && std::io::stderr().is_terminal());
    data.build_missing(sets, force, threads, &|event| match event {
        BuildEvent::Kept(set) => eprintln!("{set}: stored and intact, kept"),
        BuildEvent::Unusable(set, cause) => eprintln!("{set}: {cause}; building it again"),
        BuildEvent::Started(set) => eprintln!(
            "{set}: building on {threads} thread(s), about {} MiB of memory, {} MiB stored",
            set.build_bytes() >> 20,
            set.table_bytes() >> 20
        ),
        BuildEvent::Layer(set, progress) => report.layer(set, progress),
        BuildEvent::Stored(set, path) => {
            report.clear();
            eprintln!(
                "{set}: built and stored in {} ({:.1} s in all)",
                path.display(),
                report.started.elapsed().as_secs_f64()
            );
        }
    })?;
    Ok(())
}

fn data_path(data: &DataDir) -> anyhow::Result<&std::path::Path> {
    data.path()
        .context("no data directory (--no-data-dir, or no home directory): give --data-dir")
}

/// `databases build --size`: each shape's tables loaded, or built and stored, as a server would
/// on the shape's first case.
fn build_shapes(
    data: &DataDir,
    shapes: &[Grid],
    blank: Option<usize>,
    threads: usize,
    budget_mib: u64,
    progress_wanted: bool,
) -> anyhow::Result<()> {
    let dir = data_path(data)?;
    eprintln!("data directory: {}", dir.display());
    for &grid in shapes {
        let blank = blank.unwrap_or(grid.cells() - 1);
        let report = Report::new(progress_wanted && std::io::stderr().is_terminal());
        let name = format!("{grid} (target blank on cell {blank})");
        eprintln!("{name}: loading, or building on {threads} thread(s)");
        let pace = Shaped {
            report: &report,
            name: &name,
        };
        solver_store::build_shape(data.clone(), grid, blank, threads, budget_mib, &pace)
            .with_context(|| name.clone())?;
        report.clear();
        eprintln!(
            "{name}: ready in {} ({:.1} s)",
            dir.display(),
            report.started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Unpaced building that reports each finished layer of a shape's tables.
struct Shaped<'a> {
    report: &'a Report,
    name: &'a str,
}

impl Pace for Shaped<'_> {
    fn enter(&self) -> Box<dyn Turn + '_> {
        Box::new(Unpaced)
    }

    fn layer_done(&self, p: Progress) {
        let fraction = p.reached as f64 / p.placements.max(1) as f64;
        self.report.line(
            fraction,
            &format!(
                "{}: table {} of {}, layer {}, {:.1} % of its entries",
                self.name,
                p.database + 1,
                p.databases,
                p.layers,
                100.0 * fraction
            ),
        );
    }
}

/// Progress of a build: a bar redrawn on a terminal, otherwise one plain line per database
/// layer.
struct Report {
    bar: bool,
    started: Instant,
    drawn: Mutex<bool>,
}

impl Report {
    fn new(bar: bool) -> Self {
        Self {
            bar,
            started: Instant::now(),
            drawn: Mutex::new(false),
        }
    }

    fn layer(&self, set: DatabaseSet, p: Progress) {
        let fraction = p.fraction(&set.database_sizes());
        self.line(
            fraction,
            &format!(
                "{set}: database {} of {}, layer {}, {:.1} % done",
                p.database + 1,
                p.databases,
                p.layers,
                100.0 * fraction,
            ),
        );
    }

    /// Shows `text` and the time so far: on the bar, filled to `fraction`, or as a line.
    fn line(&self, fraction: f64, text: &str) {
        let line = format!("{text}, {}", seconds(self.started.elapsed()));
        let mut err = std::io::stderr().lock();
        if self.bar {
            let filled = ((fraction * progress::WIDTH as f64) as usize).min(progress::WIDTH);
            let _ = write!(err, "\r\x1b[2K[{}] {line}", progress::bar(filled));
            let _ = err.flush();
            *self
                .drawn
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
        } else {
            let _ = writeln!(err, "{line}");
        }
    }

    fn clear(&self) {
        let drawn = self
            .drawn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

fn seconds(elapsed: Duration) -> String {
    format!("{:.0} s", elapsed.as_secs_f64())
}

fn status(data: &DataDir) -> anyhow::Result<()> {
    let Some(dir) = data.path() else {
        println!("no data directory (--no-data-dir): databases are built in memory on every run");
        return Ok(());
    };
    println!("data directory: {}", dir.display());
    let mut rows = Vec::new();
    for (set, path, stored) in data.status() {
        let name = path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let state = match stored {
            Stored::Present(bytes) => format!("stored, {}", mib(bytes)),
            Stored::Missing if set == STRONG => {
                "missing (solver-client databases build)".to_owned()
            }
            Stored::Missing => "missing (built and stored on first use)".to_owned(),
            Stored::Unreadable(e) => format!("unreadable: {e}"),
        };
        rows.push([set.name().to_owned(), name, state]);
    }
    // The other shapes' tables, stored by `databases build --size` or by a server's first
    // case on the shape.
    let mut shapes: Vec<(String, u64)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let bytes = entry.metadata().ok()?.len();
            name.starts_with("grid").then_some((name, bytes))
        })
        .collect();
    shapes.sort();
    let none = shapes.is_empty();
    for (name, bytes) in shapes {
        rows.push([shape_label(&name), name, format!("stored, {}", mib(bytes))]);
    }
    let mut out = std::io::stdout().lock();
    out.write_all(aligned(&rows).as_bytes())?;
    if none {
        writeln!(
            out,
            "  other shapes: none stored (built on first use, or by databases build --size RxC)"
        )?;
    }
    Ok(())
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

/// What a stored file of another shape holds, from its name (`grid-3x4-blank0-v2.bin`: the
/// complete table of 3×4 boards; `gridpdb-5x5-blank24-...`: pattern databases).
fn shape_label(file: &str) -> String {
    let mut parts = file.split('-');
    let kind = match parts.next() {
        Some("grid") => "table",
        Some("gridpdb") => "databases",
        _ => return "other shape".to_owned(),
    };
    parts.next().map_or_else(
        || "other shape".to_owned(),
        |shape| format!("{shape} {kind}"),
    )
}

/// Rows of three columns, indented, each of the first two as wide as its widest cell: file
/// names run from 18 characters to over 40, so fixed widths cannot line them up.
fn aligned(rows: &[[String; 3]]) -> String {
    let width = |column: usize| {
        rows.iter()
            .map(|row| row[column].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (first, second) = (width(0), width(1));
    rows.iter()
        .map(|[a, b, c]| format!("  {a:<first$}  {b:<second$}  {c}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_columns_line_up_whatever_their_widths() {
        let row = |a: &str, b: &str, c: &str| [a.to_owned(), b.to_owned(), c.to_owned()];
        let rows = [
            row("pdb-78", "pdb-78-v1.bin", "missing"),
            row(
                "5x5 databases",
                "gridpdb-5x5-blank24-6-6-6-6-0a1b2c3d-v2.bin",
                "stored, 931.3 MiB",
            ),
            row("3x4 table", "grid-3x4-blank0-v2.bin", "stored, 57.1 MiB"),
        ];
        let text = aligned(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        let starts: Vec<usize> = lines
            .iter()
            .zip(["missing", "stored, 931", "stored, 57"])
            .map(|(line, state)| line.find(state).unwrap())
            .collect();
        assert!(starts.iter().all(|&s| s == starts[0]), "{text}");
        let files: Vec<usize> = lines
            .iter()
            .map(|l| l.find("grid").or(l.find("pdb-78-")).unwrap())
            .collect();
        assert!(files.iter().all(|&f| f == files[0]), "{text}");
        assert_eq!(
            lines[0],
            format!("  pdb-78         pdb-78-v1.bin{}  missing", " ".repeat(30))
        );
    }

    #[test]
    fn other_shapes_are_named_by_their_files() {
        assert_eq!(shape_label("grid-3x4-blank0-v2.bin"), "3x4 table");
        assert_eq!(
            shape_label("gridpdb-5x5-blank24-6-6-6-6-0a1b2c3d-v2.bin"),
            "5x5 databases"
        );
        assert_eq!(shape_label("gridx"), "other shape");
    }
}
