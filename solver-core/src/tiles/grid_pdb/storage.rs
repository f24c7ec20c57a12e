//! The stored form of a set: built once (about a minute for 5×5), read back at start-up.
//!
//! Layout, little-endian: the magic `GRIDPDB\0`; the format version (u32); rows, columns and the
//! blank cell (u8 each); the number of patterns (u8) and, for each, its tile count (u8) and its
//! target cells; each table's length (u64); the CRC-32 (u32) of all of that and the tables; then
//! the tables, one byte per sparse index. Everything is checked on reading, so a truncated,
//! stale or foreign file is refused with a message saying which check failed.

use std::io::{self, Read, Write};

use super::tables::Tables;
use super::{GridDatabases, Partition, combinable};
use crate::tiles::grid::Grid;

const MAGIC: [u8; 8] = *b"GRIDPDB\0";
/// The version of the layout above. Bump it whenever the layout or the tables' meaning changes.
pub const FORMAT_VERSION: u32 = 3;

/// Why a stored set was refused.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// Reading or writing failed.
    #[error("grid pattern database file: {0}")]
    Io(#[from] io::Error),
    /// The file does not start with the magic bytes.
    #[error("not a grid pattern database file (bad magic bytes)")]
    NotADatabase,
    /// Written by another version of the layout.
    #[error(
        "grid pattern database file has format version {found}, this build reads version {FORMAT_VERSION}: rebuild it"
    )]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Built for another board shape.
    #[error("grid pattern database file is for a {found} board, expected {expected}")]
    Shape {
        /// The shape in the file, as `RxC`.
        found: String,
        /// The shape asked for.
        expected: Grid,
    },
    /// Built for targets with the blank elsewhere.
    #[error(
        "grid pattern database file is for the blank on cell {found}, expected cell {expected}"
    )]
    Blank {
        /// The blank cell in the file.
        found: usize,
        /// The blank cell asked for.
        expected: usize,
    },
    /// Holds another partition of the tiles.
    #[error("grid pattern database file holds another partition ({found}), expected {expected}")]
    Partition {
        /// What the file says.
        found: String,
        /// What the caller wanted.
        expected: String,
    },
    /// Sizes or checksum do not match.
    #[error("grid pattern database file is corrupt: {0}")]
    Corrupt(String),
    /// The sets asked to be read together cannot be combined.
    #[error(transparent)]
    Combine(#[from] super::CombineError),
}

/// Shape, blank and partition: the part of the header that names the set.
fn identity(partition: &Partition) -> Vec<u8> {
    let grid = partition.grid();
    let mut out = vec![
        grid.rows() as u8,
        grid.cols() as u8,
        partition.blank() as u8,
    ];
    out.push(partition.patterns().len() as u8);
    for cells in partition.patterns() {
        out.push(cells.len() as u8);
        out.extend_from_slice(cells);
    }
    out
}

/// The whole header but the checksum.
fn header(partition: &Partition) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&identity(partition));
    for size in partition.table_sizes() {
        out.extend_from_slice(&size.to_le_bytes());
    }
    out
}

/// See [`GridDatabases::file_name`].
pub(super) fn file_name(partition: &Partition) -> String {
    format!(
        "gridpdb-{}-blank{}-{}-{:08x}-v{FORMAT_VERSION}.bin",
        partition.grid(),
        partition.blank(),
        partition.sizes_name(),
        crc32fast::hash(&identity(partition))
    )
}

impl GridDatabases {
    /// Writes the set in the stored layout (one partition per file).
    ///
    /// # Errors
    /// Whatever the writer reports; `InvalidInput` for a [`combine`](Self::combine)d set, whose
    /// partitions are stored one by one.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        if self.partitions.len() != 1 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a combined set is stored one partition per file",
            ));
        }
        let head = header(self.partition());
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        for t in 0..self.tables.count() {
            crc.update(self.tables.table(t));
        }
        writer.write_all(&head)?;
        writer.write_all(&crc.finalize().to_le_bytes())?;
        for t in 0..self.tables.count() {
            writer.write_all(self.tables.table(t))?;
        }
        writer.flush()
    }

    /// Reads the set of `expected` written by [`write_to`](Self::write_to).
    ///
    /// # Errors
    /// [`StorageError`] naming the check that failed: magic, version, shape, blank cell,
    /// partition, sizes, checksum, or the reader's error.
    pub fn read_from(reader: impl Read, expected: &Partition) -> Result<Self, StorageError> {
        Self::read_all(vec![(reader, expected)])
    }

    /// Reads several stored sets, each from its reader, into **one** allocation: the same set
    /// as [`combine`](Self::combine) makes of them, without a second copy while it is made, so
    /// that [`view`](Self::view)s of it can share the bytes.
    ///
    /// # Errors
    /// [`StorageError`] for the first set that fails its checks (as
    /// [`read_from`](Self::read_from)), or [`StorageError::Combine`] when the partitions cannot
    /// be combined.
    pub fn read_all<R: Read>(sets: Vec<(R, &Partition)>) -> Result<Self, StorageError> {
        let partitions: Vec<Partition> = sets.iter().map(|(_, p)| (*p).clone()).collect();
        combinable(&partitions)?;
        let sizes: Vec<u64> = partitions.iter().flat_map(Partition::table_sizes).collect();
        let mut tables = Tables::zeroed(&sizes);
        let mut first = 0;
        for (reader, expected) in sets {
            let count = expected.patterns().len();
            read_one(reader, expected, &mut tables, first..first + count)?;
            first += count;
        }
        Ok(Self::new(partitions, tables))
    }
}

/// Reads the set of `expected` from `reader` into `tables`' tables `slots`.
fn read_one(
    mut reader: impl Read,
    expected: &Partition,
    tables: &mut Tables,
    slots: std::ops::Range<usize>,
) -> Result<(), StorageError> {
    let mut magic = [0u8; 8];
    read_part(&mut reader, &mut magic).map_err(|e| match e {
        StorageError::Corrupt(_) => StorageError::NotADatabase,
        e => e,
    })?;
    if magic != MAGIC {
        return Err(StorageError::NotADatabase);
    }
    let mut word = [0u8; 4];
    read_part(&mut reader, &mut word)?;
    let found = u32::from_le_bytes(word);
    if found != FORMAT_VERSION {
        return Err(StorageError::Version { found });
    }
    let mut fixed = [0u8; 4];
    read_part(&mut reader, &mut fixed)?;
    let [rows, cols, blank, count] = fixed;
    let grid = expected.grid();
    if (usize::from(rows), usize::from(cols)) != (grid.rows(), grid.cols()) {
        return Err(StorageError::Shape {
            found: format!("{rows}x{cols}"),
            expected: grid,
        });
    }
    if usize::from(blank) != expected.blank() {
        return Err(StorageError::Blank {
            found: blank.into(),
            expected: expected.blank(),
        });
    }
    let mut patterns = Vec::with_capacity(count.into());
    for _ in 0..count {
        let mut len = [0u8; 1];
        read_part(&mut reader, &mut len)?;
        let mut cells = vec![0u8; len[0].into()];
        read_part(&mut reader, &mut cells)?;
        patterns.push(cells);
    }
    if patterns != expected.patterns() {
        let sizes: Vec<String> = patterns.iter().map(|p| p.len().to_string()).collect();
        return Err(StorageError::Partition {
            found: format!("{} patterns of {} tiles", patterns.len(), sizes.join("-")),
            expected: expected.to_string(),
        });
    }
    let sizes = expected.table_sizes();
    for &size in &sizes {
        let mut len = [0u8; 8];
        read_part(&mut reader, &mut len)?;
        if u64::from_le_bytes(len) != size {
            return Err(StorageError::Corrupt(format!(
                "a table of {} bytes where {size} were expected",
                u64::from_le_bytes(len)
            )));
        }
    }
    read_part(&mut reader, &mut word)?;
    let stored_crc = u32::from_le_bytes(word);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header(expected));
    for t in slots {
        let table = tables.table_mut(t);
        reader.read_exact(table).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => StorageError::Corrupt("truncated tables".into()),
            _ => StorageError::Io(e),
        })?;
        crc.update(table);
    }
    if crc.finalize() != stored_crc {
        return Err(StorageError::Corrupt("checksum mismatch".into()));
    }
    let mut extra = [0u8; 1];
    if reader.read(&mut extra)? != 0 {
        return Err(StorageError::Corrupt(
            "trailing bytes after the tables".into(),
        ));
    }
    Ok(())
}

/// Reads a header field; a short file is corrupt (truncated header).
fn read_part(reader: &mut impl Read, buf: &mut [u8]) -> Result<(), StorageError> {
    reader.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => StorageError::Corrupt("truncated header".into()),
        _ => StorageError::Io(e),
    })
}
