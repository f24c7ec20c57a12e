//! How the threads of a long build share the CPU with other work.
//!
//! The library starts its own threads for database builds; a caller that schedules CPU work
//! (the server) passes a [`Pace`] so that each of those threads runs only while it holds a share
//! of the caller's CPU budget, and gives it back between chunks of work when others wait.

/// Admits a build's threads to the CPU, and hears how far the build has come.
pub trait Pace: Sync {
    /// Called by each build thread before it works; it holds the returned turn until it is done.
    fn enter(&self) -> Box<dyn Turn + '_>;

    /// Called once per finished layer of a database's breadth-first build, for a progress
    /// display; the default ignores it.
    fn layer_done(&self, _progress: Progress) {}
}

/// How far a build of a set of pattern databases has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The database being built (0-based) of the set's `databases`.
    pub database: usize,
    /// How many databases the set has.
    pub databases: usize,
    /// The layers (moves of pattern tiles) done in this database.
    pub layers: u32,
    /// Placements whose distance is known so far in this database.
    pub reached: u64,
    /// Placements this database has in all.
    pub placements: u64,
}

impl Progress {
    /// The fraction of the whole set done, counting each database by its placements' share of
    /// `sizes` (the placements of every database of the set, in build order).
    #[must_use]
    pub fn fraction(&self, sizes: &[u64]) -> f64 {
        let total: u64 = sizes.iter().sum();
        let before: u64 = sizes.iter().take(self.database).sum();
        if total == 0 {
            return 1.0;
        }
        (before as f64 + self.reached as f64) / total as f64
    }
}

/// A [`Pace`] that passes everything on, telling progress which database of a set it is.
pub(crate) struct Stage<'a> {
    pub(crate) inner: &'a dyn Pace,
    pub(crate) database: usize,
    pub(crate) databases: usize,
}

impl Pace for Stage<'_> {
    fn enter(&self) -> Box<dyn Turn + '_> {
        self.inner.enter()
    }

    fn layer_done(&self, progress: Progress) {
        self.inner.layer_done(Progress {
            database: self.database,
            databases: self.databases,
            ..progress
        });
    }
}

/// A build thread's hold on the CPU.
pub trait Turn {
    /// Called between chunks of work (each well under a millisecond): the place to yield.
    fn checkpoint(&mut self);
}

/// No pacing: threads run whenever the operating system lets them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unpaced;

impl Pace for Unpaced {
    fn enter(&self) -> Box<dyn Turn + '_> {
        Box::new(Unpaced)
    }
}

impl Turn for Unpaced {
    fn checkpoint(&mut self) {}
}
