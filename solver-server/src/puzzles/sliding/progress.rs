//! How far a table build has come, for the cases that wait on it (`SolveWatch` shows it).

use std::sync::atomic::{AtomicU64, Ordering};

use solver_core::{Pace, Progress, Turn};

/// The fraction of the build under way done, 0 to 1 (0 before its first layer, and while a
/// stored file is read: reading tells nothing finer).
#[derive(Debug, Default)]
pub(crate) struct BuildProgress(AtomicU64);

impl BuildProgress {
    /// The fraction done.
    pub(crate) fn fraction(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }

    /// A build begins.
    pub(crate) fn reset(&self) {
        self.0.store(0f64.to_bits(), Ordering::Relaxed);
    }

    /// `inner`, keeping the fraction of each finished layer here and logging each tenth of the
    /// build of `what` (for a log read without a watcher).
    pub(crate) fn tracking<'a>(&'a self, inner: &'a dyn Pace, what: String) -> Tracking<'a> {
        self.reset();
        Tracking {
            inner,
            progress: self,
            what,
            logged: AtomicU64::new(0),
        }
    }
}

/// A [`Pace`] that passes everything on and keeps the fraction done in its [`BuildProgress`].
pub(crate) struct Tracking<'a> {
    inner: &'a dyn Pace,
    progress: &'a BuildProgress,
    what: String,
    /// The last tenth logged.
    logged: AtomicU64,
}

impl Pace for Tracking<'_> {
    fn enter(&self) -> Box<dyn Turn + '_> {
        self.inner.enter()
    }

    fn layer_done(&self, progress: Progress) {
        self.inner.layer_done(progress);
        // Each database of a set counted alike: the sizes are not at hand here, and a watcher
        // wants motion more than precision.
        let within = progress.reached as f64 / progress.placements.max(1) as f64;
        let done = (progress.database as f64 + within) / progress.databases.max(1) as f64;
        let done = done.clamp(0.0, 1.0);
        self.progress.0.store(done.to_bits(), Ordering::Relaxed);
        let tenth = (done * 10.0) as u64;
        if self.logged.fetch_max(tenth, Ordering::Relaxed) < tenth {
            tracing::info!(what = %self.what, done = format!("{} %", tenth * 10), "building tables");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_move_the_fraction() {
        let progress = BuildProgress::default();
        let tracking = progress.tracking(&solver_core::Unpaced, "a test set".to_owned());
        tracking.layer_done(Progress {
            database: 1,
            databases: 4,
            layers: 3,
            reached: 50,
            placements: 100,
        });
        assert!((progress.fraction() - 0.375).abs() < 1e-9);
        progress.reset();
        assert_eq!(progress.fraction(), 0.0);
    }
}
