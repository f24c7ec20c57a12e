//! The stored form of a table: built once (tens of seconds for 3×4 and 2×6), read back at start.
//!
//! Layout, little-endian: the magic `GRIDDIST`; the format version (u32); rows, columns and the
//! blank cell (u8 each); the radius (u32); the number of entries (u64); the CRC-32 (u32) of the
//! header so far and the entries; then the entries, 32 per u64 word. Everything is checked on
//! reading, so a truncated, stale or foreign file is refused with a message naming the check.

use std::io::{self, Read, Write};

use super::GridTable;
use crate::tiles::grid::Grid;

const MAGIC: [u8; 8] = *b"GRIDDIST";
/// The version of the layout above. Bump it whenever the layout or the entries' meaning changes
/// (version 1 ranked boards by the blank's cell first).
pub const FORMAT_VERSION: u32 = 2;
/// Bytes before the checksum: magic, version, rows, columns, blank, radius, entries.
const HEADER: usize = 8 + 4 + 3 + 4 + 8;

/// The conventional file name of a stored table, e.g. `grid-3x4-blank5-v2.bin`: the format
/// version is part of it, so a new layout never reads an old file.
///
/// ```
/// use solver_core::tiles::{grid::Grid, grid_table::storage};
/// assert_eq!(storage::file_name(Grid::new(3, 4).unwrap(), 5), "grid-3x4-blank5-v2.bin");
/// ```
#[must_use]
pub fn file_name(grid: Grid, blank: usize) -> String {
    format!("grid-{grid}-blank{blank}-v{FORMAT_VERSION}.bin")
}

/// Why a stored table was refused.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// Reading or writing failed.
    #[error("distance table file: {0}")]
    Io(#[from] io::Error),
    /// The file does not start with the magic bytes.
    #[error("not a distance table file (bad magic bytes)")]
    NotATable,
    /// Written by another version of the layout.
    #[error(
        "distance table file has format version {found}, this build reads version {FORMAT_VERSION}: rebuild it"
    )]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Holds the table of another shape or blank cell than the one asked for.
    #[error(
        "distance table file holds the {found_rows}x{found_cols} table for blank cell {found_blank}, expected {expected} for blank cell {expected_blank}"
    )]
    Table {
        /// Rows in the file.
        found_rows: u8,
        /// Columns in the file.
        found_cols: u8,
        /// Blank cell in the file.
        found_blank: u8,
        /// The shape asked for.
        expected: Grid,
        /// The blank cell asked for.
        expected_blank: usize,
    },
    /// Sizes or checksum do not match, or the file ends early.
    #[error("distance table file is corrupt: {0}")]
    Corrupt(String),
}

fn header(grid: Grid, blank: usize, radius: u32, entries: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&[grid.rows() as u8, grid.cols() as u8, blank as u8]);
    out.extend_from_slice(&radius.to_le_bytes());
    out.extend_from_slice(&entries.to_le_bytes());
    out
}

/// Words converted per read or write, so a 60 MB table never needs a second copy.
const BATCH: usize = 1 << 16;

impl GridTable {
    /// Writes the table in the stored layout.
    ///
    /// # Errors
    /// Whatever the writer reports.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        let head = header(self.grid, self.blank, self.radius, self.boards());
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        let mut bytes = Vec::with_capacity(BATCH * 8);
        for batch in self.words.chunks(BATCH) {
            bytes.clear();
            bytes.extend(batch.iter().flat_map(|w| w.to_le_bytes()));
            crc.update(&bytes);
        }
        writer.write_all(&head)?;
        writer.write_all(&crc.finalize().to_le_bytes())?;
        for batch in self.words.chunks(BATCH) {
            bytes.clear();
            bytes.extend(batch.iter().flat_map(|w| w.to_le_bytes()));
            writer.write_all(&bytes)?;
        }
        writer.flush()
    }

    /// Reads the table of `grid` for blank cell `blank` written by
    /// [`write_to`](Self::write_to).
    ///
    /// ```
    /// use solver_core::tiles::{grid::Grid, grid_table::GridTable};
    /// let grid = Grid::new(2, 3).unwrap();
    /// let err = GridTable::read_from(&b"GRIDDIST\x07\0\0\0"[..], grid, 5).unwrap_err();
    /// assert!(err.to_string().contains("format version 7"));
    /// ```
    ///
    /// # Errors
    /// [`StorageError`] naming the check that failed: magic, version, shape and blank cell,
    /// sizes or checksum, or the reader's error.
    pub fn read_from(
        mut reader: impl Read,
        grid: Grid,
        blank: usize,
    ) -> Result<Self, StorageError> {
        let mut head = [0u8; HEADER];
        // A file too short for the magic is no table either.
        read_header_part(&mut reader, &mut head[..8]).map_err(|e| match e {
            StorageError::Corrupt(_) => StorageError::NotATable,
            e => e,
        })?;
        if head[..8] != MAGIC {
            return Err(StorageError::NotATable);
        }
        read_header_part(&mut reader, &mut head[8..12])?;
        let found = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
        if found != FORMAT_VERSION {
            return Err(StorageError::Version { found });
        }
        read_header_part(&mut reader, &mut head[12..])?;
        let [rows, cols, cell] = [head[12], head[13], head[14]];
        if (usize::from(rows), usize::from(cols), usize::from(cell))
            != (grid.rows(), grid.cols(), blank)
        {
            return Err(StorageError::Table {
                found_rows: rows,
                found_cols: cols,
                found_blank: cell,
                expected: grid,
                expected_blank: blank,
            });
        }
        if grid.cells() > GridTable::MAX_CELLS {
            return Err(StorageError::Corrupt(format!(
                "no table exists for {grid} boards"
            )));
        }
        let radius = u32::from_le_bytes(head[15..19].try_into().expect("4 bytes"));
        let entries = u64::from_le_bytes(head[19..27].try_into().expect("8 bytes"));
        let words = Self::word_count(grid);
        let expected_entries = (grid.cells() * super::block(grid.cells())) as u64;
        if entries != expected_entries {
            return Err(StorageError::Corrupt(format!(
                "{entries} entries, a {grid} table has {expected_entries}"
            )));
        }
        let mut stored_crc = [0u8; 4];
        read_header_part(&mut reader, &mut stored_crc)?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        let mut table = Vec::with_capacity(words);
        let mut bytes = vec![0u8; BATCH * 8];
        while table.len() < words {
            let n = (words - table.len()).min(BATCH);
            reader
                .read_exact(&mut bytes[..n * 8])
                .map_err(|e| match e.kind() {
                    io::ErrorKind::UnexpectedEof => {
                        StorageError::Corrupt("truncated entries".into())
                    }
                    _ => StorageError::Io(e),
                })?;
            crc.update(&bytes[..n * 8]);
            table.extend(
                bytes[..n * 8]
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes"))),
            );
        }
        if crc.finalize() != u32::from_le_bytes(stored_crc) {
            return Err(StorageError::Corrupt("checksum mismatch".into()));
        }
        let mut extra = [0u8; 1];
        if reader.read(&mut extra)? != 0 {
            return Err(StorageError::Corrupt(
                "trailing bytes after the entries".into(),
            ));
        }
        Ok(Self::from_parts(grid, blank, radius, table))
    }
}

fn read_header_part(reader: &mut impl Read, buf: &mut [u8]) -> Result<(), StorageError> {
    reader.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => StorageError::Corrupt("truncated header".into()),
        _ => StorageError::Io(e),
    })
}
