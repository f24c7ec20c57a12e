//! The stored form of pattern databases: built once (minutes for 7-8), read back at start-up.
//!
//! Layout, little-endian: the magic `SLIDEPDB`; the format version (u32); the set's code
//! (u8: 1 = 6-6-3, 2 = 7-8, 3, 4, 5 = the 6-6-3 regions for the blank on cell 10, 13, 14); the number of patterns (u8) and, for each, its tile count (u8) and
//! tiles; each table's length (u64); the CRC-32 (u32) of the header so far and all tables; then
//! the tables, one byte per placement in rank order. Everything is checked on reading, so a
//! truncated, stale or foreign file is refused with a message that says which check failed.

use std::io::{self, Read, Write};

use super::databases::PatternDatabases;
use super::sets::{DatabaseSet, Partition};
use crate::tiles::pdb::{Pdb, placements};

const MAGIC: [u8; 8] = *b"SLIDEPDB";
/// The version of the layout above. Bump it whenever the layout or the tables' meaning changes.
pub const FORMAT_VERSION: u32 = 1;

/// The conventional file name of a stored set in a data directory, e.g. `pdb-78-v1.bin`: the
/// format version is part of it, so a new layout never reads an old file.
///
/// ```
/// use solver_core::fifteen::{DatabaseSet, Partition, storage};
/// assert_eq!(storage::file_name(DatabaseSet::Standard(Partition::P78)), "pdb-78-v1.bin");
/// assert_eq!(storage::file_name(DatabaseSet::Home(13)), "pdb-663-blank13-v1.bin");
/// ```
#[must_use]
pub fn file_name(set: DatabaseSet) -> String {
    format!("{}-v{FORMAT_VERSION}.bin", set.name())
}

/// Why a stored database was refused.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// Reading or writing failed.
    #[error("pattern database file: {0}")]
    Io(#[from] io::Error),
    /// The file does not start with the magic bytes.
    #[error("not a pattern database file (bad magic bytes)")]
    NotADatabase,
    /// Written by another version of the layout.
    #[error(
        "pattern database file has format version {found}, this build reads version {FORMAT_VERSION}: rebuild it"
    )]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Holds another set than the one asked for.
    #[error("pattern database file holds {found}, expected {expected}")]
    Set {
        /// What the file says.
        found: String,
        /// What the caller wanted.
        expected: DatabaseSet,
    },
    /// Sizes or checksum do not match.
    #[error("pattern database file is corrupt: {0}")]
    Corrupt(String),
}

fn code(set: DatabaseSet) -> u8 {
    match set {
        DatabaseSet::Standard(Partition::P663) => 1,
        DatabaseSet::Standard(Partition::P78) => 2,
        DatabaseSet::Home(10) => 3,
        DatabaseSet::Home(13) => 4,
        DatabaseSet::Home(14) => 5,
        DatabaseSet::Home(cell) => unreachable!("no databases for the blank on cell {cell}"),
    }
}

/// The header: everything before the tables except the checksum.
fn header(set: DatabaseSet) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(code(set));
    let patterns = set.patterns();
    out.push(patterns.len() as u8);
    for tiles in &patterns {
        out.push(tiles.len() as u8);
        out.extend_from_slice(tiles);
    }
    for tiles in &patterns {
        out.extend_from_slice(&(placements(tiles.len()) as u64).to_le_bytes());
    }
    out
}

impl PatternDatabases {
    /// Writes the databases in the stored layout.
    ///
    /// # Errors
    /// Whatever the writer reports.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        let head = header(self.set());
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        for pdb in self.pdbs() {
            crc.update(pdb.table());
        }
        writer.write_all(&head)?;
        writer.write_all(&crc.finalize().to_le_bytes())?;
        for pdb in self.pdbs() {
            writer.write_all(pdb.table())?;
        }
        writer.flush()
    }

    /// Reads the `expected` set written by [`write_to`](Self::write_to).
    ///
    /// ```
    /// use solver_core::fifteen::{DatabaseSet, Partition, PatternDatabases};
    /// let set = DatabaseSet::Standard(Partition::P78);
    /// let err = PatternDatabases::read_from(&b"SLIDEPDB\x09\0\0\0"[..], set).unwrap_err();
    /// assert!(err.to_string().contains("format version 9"));
    /// ```
    ///
    /// # Errors
    /// [`StorageError`] naming the check that failed: magic, version, set, sizes or checksum,
    /// or the reader's error.
    pub fn read_from(mut reader: impl Read, expected: DatabaseSet) -> Result<Self, StorageError> {
        let mut magic = [0u8; 8];
        read_header_part(&mut reader, &mut magic)?;
        if magic != MAGIC {
            return Err(StorageError::NotADatabase);
        }
        let mut version = [0u8; 4];
        read_header_part(&mut reader, &mut version)?;
        let found = u32::from_le_bytes(version);
        if found != FORMAT_VERSION {
            return Err(StorageError::Version { found });
        }
        let want = header(expected);
        let mut rest = vec![0u8; want.len() - 12];
        read_header_part(&mut reader, &mut rest)?;
        if rest != want[12..] {
            let found = DatabaseSet::ALL
                .into_iter()
                .find(|&set| rest.first() == Some(&code(set)))
                .map_or_else(|| format!("set code {:?}", rest.first()), DatabaseSet::name);
            return Err(StorageError::Set { found, expected });
        }
        let mut stored_crc = [0u8; 4];
        read_header_part(&mut reader, &mut stored_crc)?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&want);
        let mut pdbs = Vec::new();
        for tiles in expected.patterns() {
            let pdb = Pdb::read_with(&tiles, |table| {
                reader.read_exact(table).map_err(|e| match e.kind() {
                    io::ErrorKind::UnexpectedEof => {
                        StorageError::Corrupt("truncated tables".into())
                    }
                    _ => StorageError::Io(e),
                })
            })?;
            crc.update(pdb.table());
            pdbs.push(pdb);
        }
        if crc.finalize() != u32::from_le_bytes(stored_crc) {
            return Err(StorageError::Corrupt("checksum mismatch".into()));
        }
        let mut extra = [0u8; 1];
        if reader.read(&mut extra)? != 0 {
            return Err(StorageError::Corrupt(
                "trailing bytes after the tables".into(),
            ));
        }
        Ok(Self::from_pdbs(pdbs, expected))
    }
}

fn read_header_part(reader: &mut impl Read, buf: &mut [u8]) -> Result<(), StorageError> {
    reader.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => StorageError::NotADatabase,
        _ => StorageError::Io(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::fifteen::Fifteen;
    use crate::tiles::fifteen::solver::test_solver;
    use crate::{Board4, Stop};

    #[test]
    fn round_trip_and_every_refusal() {
        let p663 = DatabaseSet::Standard(Partition::P663);
        let solver = test_solver();
        let dbs = solver.databases(p663).expect("the test solver holds 6-6-3");
        let mut bytes = Vec::new();
        dbs.write_to(&mut bytes).unwrap();
        let back = PatternDatabases::read_from(&bytes[..], p663).unwrap();
        let mut again = Vec::new();
        back.write_to(&mut again).unwrap();
        assert!(again == bytes, "a set read back is written the same");
        let board: Board4 = "2 3 4 0 1 5 7 8 9 6 10 12 13 14 11 15".parse().unwrap();
        let a = solver
            .solve(&board, &Board4::goal(), &Stop::never())
            .unwrap();
        let from_storage = Fifteen::with(back);
        assert_eq!(
            a,
            from_storage
                .solve(&board, &Board4::goal(), &Stop::never())
                .unwrap()
        );

        let refuse = |bytes: &[u8], partition| {
            PatternDatabases::read_from(bytes, partition)
                .unwrap_err()
                .to_string()
        };
        let p78 = DatabaseSet::Standard(Partition::P78);
        assert!(refuse(&bytes, p78).contains("holds pdb-663, expected pdb-78"));
        assert!(
            refuse(&bytes, DatabaseSet::Home(10))
                .contains("holds pdb-663, expected pdb-663-blank10")
        );
        assert!(refuse(b"hello", p663).contains("not a pattern database"));
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(refuse(&flipped, p663).contains("checksum mismatch"));
        assert!(refuse(&bytes[..bytes.len() - 1], p663).contains("truncated"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(refuse(&longer, p663).contains("trailing bytes"));
    }

    #[test]
    fn a_home_set_round_trips_and_keeps_its_goal() {
        let set = DatabaseSet::Home(13);
        let dbs = set.build(2, &crate::Unpaced);
        assert_eq!(dbs.set(), set);
        let mut bytes = Vec::new();
        dbs.write_to(&mut bytes).unwrap();
        assert_eq!(
            bytes.len() as u64,
            set.table_bytes() + header(set).len() as u64 + 4
        );
        let back = PatternDatabases::read_from(&bytes[..], set).unwrap();
        assert_eq!(back.set(), set);
        let refused = PatternDatabases::read_from(&bytes[..], DatabaseSet::Home(14));
        assert!(
            refused
                .unwrap_err()
                .to_string()
                .contains("holds pdb-663-blank13")
        );
        for (built, read) in dbs.pdbs().iter().zip(back.pdbs()) {
            assert_eq!(built.tiles(), read.tiles());
            assert!(built.table() == read.table());
        }
    }
}
