//! The stored tables of the other sliding shapes: complete distance tables for boards of at most
//! 12 cells (one per class of blank cell) and pattern databases for larger boards (one set per
//! shape and target blank cell), and what fits a memory budget.
//!
//! A server (`grids.rs` in `solver-server`) decides when a case gets which, and holds them; the
//! files are read and written here: a file is loaded when stored and passes its checks, else the
//! table is built and stored ([`write_atomically`]). [`build_shape`] does what a server does on
//! a shape's first case, for an operator (`solver-client databases build --size`).

use std::fs::File;
use std::io::{BufReader, Write};
use std::time::Instant;

use solver_core::Pace;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_pdb::{self, GridDatabases, Partition};
use solver_core::tiles::grid_table::{self, GridTable, GridTables};

use crate::dir::{DataDir, write_atomically};

/// The most cells of a board with pattern databases. Beyond the 24-puzzle an optimal search is
/// within reach only near the target, where Manhattan distance does as well at once, while the
/// databases would take minutes to build.
pub const MAX_DATABASE_CELLS: usize = 25;

/// Whether a shape's optimal answers come from a complete table.
#[must_use]
pub fn tabled(grid: Grid) -> bool {
    grid.cells() <= GridTable::MAX_CELLS
}

/// Bytes a complete table takes: two bits per board of one parity class.
#[must_use]
pub fn table_bytes(grid: Grid) -> u64 {
    let boards: u64 = (1..=grid.cells() as u64).product::<u64>() / 2;
    boards / 4
}

/// Whether building a complete table of `grid` fits `room` bytes: the table, and the build's two
/// frontier bit sets of one bit per board.
#[must_use]
pub fn table_fits(grid: Grid, room: u64) -> bool {
    table_bytes(grid) * 3 <= room
}

/// `wanted` bytes, capped at half the cgroup's memory limit when there is one (a container):
/// the other half is for everything else.
#[must_use]
pub fn memory_budget(wanted: u64) -> u64 {
    let limit = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok());
    limit.map_or(wanted, |limit| (limit / 2).min(wanted))
}

/// The partition of the databases for `grid` and `blank` whose build peaks within `budget`
/// bytes: the default (Korf & Felner's 6-6-6-6 on the 24-puzzle) when it fits, else the largest
/// automatic one that does; `None` when not even single tiles fit.
#[must_use]
pub fn partition_for(grid: Grid, blank: usize, budget: u64) -> Option<Partition> {
    let default = Partition::default_for(grid, blank);
    if default.build_bytes() <= budget {
        return Some(default);
    }
    let mut tables = budget / 2;
    while tables > 0 {
        let partition = Partition::automatic(grid, blank, tables);
        if partition.build_bytes() <= budget {
            return Some(partition);
        }
        tables /= 2;
    }
    None
}

/// Whether `data` holds a file of the databases of `partition` (not read: loading checks it).
#[must_use]
pub fn databases_stored(data: &DataDir, partition: &Partition) -> bool {
    data.path()
        .is_some_and(|dir| dir.join(grid_pdb::file_name(partition)).is_file())
}

/// The databases a case on `grid` towards `blank` gets within `room` bytes: the strongest the
/// room allows when it is stored in `data` (loading takes seconds), else the strongest whose
/// build also fits `request_build` bytes.
#[must_use]
pub fn partition_to_use(
    data: &DataDir,
    grid: Grid,
    blank: usize,
    room: u64,
    request_build: u64,
) -> Option<Partition> {
    let strongest = partition_for(grid, blank, room)?;
    if databases_stored(data, &strongest) || strongest.build_bytes() <= request_build {
        return Some(strongest);
    }
    partition_for(grid, blank, room.min(request_build))
}

/// The partitions whose sets race `main`'s (`solver_core::tiles::grid_ida`'s race) within
/// `room` bytes beside it: the rivals of the default partition ([`Partition::rivals_for`]) when
/// `main` is the default, as many as their tables fit.
#[must_use]
pub fn rivals_within(main: &Partition, room: u64) -> Vec<Partition> {
    if *main != Partition::default_for(main.grid(), main.blank()) {
        return Vec::new();
    }
    let mut left = room;
    Partition::rivals_for(main.grid(), main.blank())
        .into_iter()
        .filter(|rival| {
            let fits = rival.table_bytes() <= left;
            if fits {
                left -= rival.table_bytes();
            }
            fits
        })
        .collect()
}

/// The stored set of `partition`: `None` when `data` holds none, or it fails its checks (a
/// warning names it). A rival set is only ever loaded: an operator builds it.
#[must_use]
pub fn load_databases(data: &DataDir, partition: &Partition) -> Option<GridDatabases> {
    load(data, &grid_pdb::file_name(partition), |reader| {
        GridDatabases::read_from(reader, partition)
    })
}

/// The stored sets of `partitions` read into one allocation (see
/// [`GridDatabases::read_all`]), so that the sets that race are views of it rather than copies:
/// `None` when one is not stored, or one fails its checks (a warning says which check; loading
/// them one by one then names the file).
#[must_use]
pub fn load_together(data: &DataDir, partitions: &[Partition]) -> Option<GridDatabases> {
    let dir = data.path()?;
    let paths: Vec<_> = partitions
        .iter()
        .map(|p| dir.join(grid_pdb::file_name(p)))
        .collect();
    let readers = paths
        .iter()
        .zip(partitions)
        .map(|(path, p)| Some((BufReader::with_capacity(1 << 20, File::open(path).ok()?), p)))
        .collect::<Option<Vec<_>>>()?;
    let started = Instant::now();
    match GridDatabases::read_all(readers) {
        Ok(set) => {
            for path in &paths {
                tracing::info!(path = %path.display(), "table loaded");
            }
            tracing::info!(sets = partitions.len(), bytes = set.memory_bytes(), elapsed = ?started.elapsed(), "pattern databases loaded together");
            Some(set)
        }
        Err(cause) => {
            tracing::warn!(%cause, "stored pattern databases unusable together: loaded one by one");
            None
        }
    }
}

/// Loads into `tables` every class's table stored in `data` and missing there (a file is read
/// in well under a second); returns the bytes of the tables it put in, so that a caller adds
/// each table to its budget once.
pub fn load_tables(data: &DataDir, tables: &GridTables) -> u64 {
    let grid = tables.grid();
    let mut bytes = 0;
    for &cell in tables.classes() {
        if tables.get(cell).is_some() {
            continue;
        }
        let name = grid_table::storage::file_name(grid, cell);
        if let Some(table) = load(data, &name, |reader| {
            GridTable::read_from(reader, grid, cell)
        }) {
            let table_bytes = table.bytes() as u64;
            if tables.insert(table).is_ok() {
                bytes += table_bytes;
            }
        }
    }
    bytes
}

/// Builds the table of `blank`'s class into `tables` under `pace` and stores it in `data`;
/// returns its bytes, or `None` when it cannot be built.
pub fn build_table(
    data: &DataDir,
    tables: &GridTables,
    blank: usize,
    pace: &dyn Pace,
) -> Option<u64> {
    let started = Instant::now();
    let grid = tables.grid();
    let table = tables.table(blank, pace).ok()?;
    tracing::info!(%grid, blank = table.blank(), radius = table.radius(), bytes = table.bytes(), elapsed = ?started.elapsed(), "complete table built");
    let name = grid_table::storage::file_name(grid, table.blank());
    store(data, &name, |writer| table.write_to(writer));
    Some(table.bytes() as u64)
}

/// The databases of `partition`: loaded from `data`, else built on `threads` threads under
/// `pace` and stored there.
pub fn databases(
    data: &DataDir,
    partition: Partition,
    threads: usize,
    pace: &dyn Pace,
) -> GridDatabases {
    let started = Instant::now();
    let name = grid_pdb::file_name(&partition);
    if let Some(set) = load(data, &name, |reader| {
        GridDatabases::read_from(reader, &partition)
    }) {
        return set;
    }
    let set = GridDatabases::build(partition, threads, pace);
    tracing::info!(partition = %set.partition(), bytes = set.memory_bytes(), elapsed = ?started.elapsed(), "pattern databases built");
    store(data, &name, |writer| set.write_to(writer));
    set
}

/// Reads the file `name` of the data directory with `read`: `None` when there is no such
/// file, or it fails its checks (a warning names it; it is built again and replaced).
fn load<T, E: std::fmt::Display>(
    data: &DataDir,
    name: &str,
    read: impl FnOnce(BufReader<File>) -> Result<T, E>,
) -> Option<T> {
    let path = data.path()?.join(name);
    let file = File::open(&path).ok()?;
    let started = Instant::now();
    match read(BufReader::with_capacity(1 << 20, file)) {
        Ok(value) => {
            tracing::info!(path = %path.display(), elapsed = ?started.elapsed(), "table loaded");
            Some(value)
        }
        Err(cause) => {
            tracing::warn!(path = %path.display(), %cause, "stored table unusable: built again");
            None
        }
    }
}

/// Writes the file `name` into the data directory atomically (see [`write_atomically`]);
/// a failure is logged, the table still serves this process.
fn store(data: &DataDir, name: &str, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
    let Some(dir) = data.path() else {
        return;
    };
    match write_atomically(dir, name, write) {
        Ok(path) => tracing::info!(path = %path.display(), "table stored"),
        Err(cause) => {
            tracing::warn!(%cause, name, "table not stored; it is built again next run");
        }
    }
}

/// Why [`build_shape`] left nothing.
#[derive(Debug, thiserror::Error)]
pub enum ShapeError {
    /// The shape has neither a complete table nor pattern databases.
    #[error(
        "{grid} boards have no tables: more than {MAX_DATABASE_CELLS} cells (searched with Manhattan distance)"
    )]
    TooLarge {
        /// The shape.
        grid: Grid,
    },
    /// Not even the smallest tables fit the memory budget.
    #[error("the {grid} tables do not fit {mib} MiB (--table-memory)")]
    OverBudget {
        /// The shape.
        grid: Grid,
        /// The budget, in MiB.
        mib: u64,
    },
    /// The blank's cell is not on the board.
    #[error("cell {blank} is not on a {grid} board (cells 0 to {})", grid.cells() - 1)]
    NoSuchCell {
        /// The shape.
        grid: Grid,
        /// The cell asked for.
        blank: usize,
    },
}

/// Loads, or builds and stores in `data`, what optimal cases on `grid` towards targets with
/// the blank on `blank` use (the complete table of the blank's class, or a pattern database
/// set), as a server would on their first case, on `threads` threads under `pace`, within
/// `budget_mib` MiB. The log lines (loaded, built, stored) tell which happened.
///
/// # Errors
/// [`ShapeError`] when the shape has no tables, they do not fit, or `blank` is off the board.
pub fn build_shape(
    data: DataDir,
    grid: Grid,
    blank: usize,
    threads: usize,
    budget_mib: u64,
    pace: &dyn Pace,
) -> Result<(), ShapeError> {
    if blank >= grid.cells() {
        return Err(ShapeError::NoSuchCell { grid, blank });
    }
    if !tabled(grid) && grid.cells() > MAX_DATABASE_CELLS {
        return Err(ShapeError::TooLarge { grid });
    }
    let room = memory_budget(budget_mib << 20);
    let over = || ShapeError::OverBudget {
        grid,
        mib: budget_mib,
    };
    if tabled(grid) {
        if !table_fits(grid, room) {
            return Err(over());
        }
        let tables = GridTables::new(grid, threads).expect("a tabled shape");
        load_tables(&data, &tables);
        if tables.get(blank).is_none() {
            build_table(&data, &tables, blank, pace).ok_or_else(over)?;
        }
    } else {
        // An operator's build: no request limit.
        let partition = partition_to_use(&data, grid, blank, room, u64::MAX).ok_or_else(over)?;
        let beside = room.saturating_sub(partition.table_bytes());
        let rivals = rivals_within(&partition, beside);
        databases(&data, partition, threads, pace);
        // Each set is dropped once stored: a rival's build has the whole budget.
        for rival in rivals.into_iter().filter(|r| r.build_bytes() <= room) {
            databases(&data, rival, threads, pace);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shape_is_built_once_then_loaded() {
        let dir = std::env::temp_dir().join(format!("solver-store-shapes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let data = DataDir::new(Some(dir.clone()));
        let grid = Grid::new(2, 3).unwrap();
        let unpaced = &solver_core::Unpaced;
        build_shape(data.clone(), grid, 5, 1, 64, unpaced).unwrap();
        let names = || -> Vec<String> {
            std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        };
        let stored = names();
        assert_eq!(stored.len(), 1, "{stored:?}");
        assert!(stored[0].starts_with("grid-2x3-"), "{stored:?}");
        let tables = GridTables::new(grid, 1).unwrap();
        assert!(load_tables(&data, &tables) > 0);
        assert!(tables.get(5).is_some());
        assert_eq!(
            load_tables(&data, &tables),
            0,
            "a table held is not loaded again"
        );
        build_shape(data.clone(), grid, 5, 1, 64, unpaced).unwrap();
        assert_eq!(names(), stored);

        let too_large = build_shape(data.clone(), Grid::new(6, 6).unwrap(), 0, 1, 64, unpaced);
        assert!(matches!(too_large, Err(ShapeError::TooLarge { .. })));
        let off = build_shape(data.clone(), grid, 6, 1, 64, unpaced).unwrap_err();
        assert_eq!(
            off.to_string(),
            "cell 6 is not on a 2x3 board (cells 0 to 5)"
        );
        let over = build_shape(data, Grid::new(3, 4).unwrap(), 11, 1, 1, unpaced);
        assert!(matches!(over, Err(ShapeError::OverBudget { mib: 1, .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The 24-puzzle's rivals race the default set when the room holds them beside it, and
    /// never a smaller set chosen for a tight budget.
    #[test]
    fn rivals_race_the_default_set_when_they_fit_beside_it() {
        let grid = Grid::new(5, 5).unwrap();
        let default = Partition::default_for(grid, 24);
        let rivals = rivals_within(&default, 5 * default.table_bytes());
        assert_eq!(rivals, Partition::rivals_for(grid, 24));
        assert_eq!(rivals.len(), 5);
        // The default budget holds them all beside the default set.
        let budget = crate::flags::TABLE_MEMORY_MIB << 20;
        assert_eq!(
            rivals_within(&default, budget - default.table_bytes()),
            rivals
        );
        assert_eq!(
            rivals_within(&default, 2 * default.table_bytes()),
            rivals[..2]
        );
        // As many as fit, the first first.
        assert_eq!(rivals_within(&default, default.table_bytes()), rivals[..1]);
        assert!(rivals_within(&default, default.table_bytes() - 1).is_empty());
        let small = partition_for(grid, 24, 256 << 20).unwrap();
        assert_ne!(small, default);
        assert!(rivals_within(&small, 8 << 30).is_empty());
        let none = DataDir::new(None);
        assert!(load_databases(&none, &rivals[0]).is_none());
    }

    /// Stored sets load together into one set of every partition; a missing or broken file
    /// leaves it to loading them one by one (`None`).
    #[test]
    fn stored_sets_load_together_or_not_at_all() {
        let grid = Grid::new(2, 3).unwrap();
        let first = Partition::new(grid, 5, vec![vec![0, 1, 2], vec![3, 4]]).unwrap();
        let second = Partition::new(grid, 5, vec![vec![0, 3], vec![1, 2, 4]]).unwrap();
        let dir =
            std::env::temp_dir().join(format!("solver-store-together-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let data = DataDir::new(Some(dir.clone()));
        let both = [first.clone(), second.clone()];
        assert!(load_together(&data, &both).is_none(), "nothing stored");
        let unpaced = &solver_core::Unpaced;
        databases(&data, first.clone(), 1, unpaced);
        assert!(load_together(&data, &both).is_none(), "one stored");
        databases(&data, second.clone(), 1, unpaced);
        let set = load_together(&data, &both).unwrap();
        assert_eq!(set.partitions(), &both[..]);
        let path = dir.join(grid_pdb::file_name(&second));
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        assert!(load_together(&data, &both).is_none(), "one broken");
        assert!(load_together(&DataDir::new(None), &both).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stored_set_is_used_whatever_its_build_would_take() {
        let grid = Grid::new(5, 5).unwrap();
        let blank = grid.cells() - 1;
        let request_limit = 256 << 20;
        let none = DataDir::new(None);
        let partition = partition_to_use(&none, grid, blank, 8 << 30, request_limit).unwrap();
        assert!(partition.build_bytes() <= request_limit);
        let dir = std::env::temp_dir().join(format!("solver-store-pdb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let data = DataDir::new(Some(dir.clone()));
        let strongest = partition_for(grid, blank, 8 << 30).unwrap();
        assert!(!databases_stored(&data, &strongest));
        std::fs::write(dir.join(grid_pdb::file_name(&strongest)), b"stored").unwrap();
        assert!(databases_stored(&data, &strongest));
        assert_eq!(
            partition_to_use(&data, grid, blank, 8 << 30, request_limit),
            Some(strongest)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
