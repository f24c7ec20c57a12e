//! What a server found in its data directory, reported to whoever asked for it.
//!
//! A server told to (`Config::findings` in `solver-server`) reports every stored 15-puzzle file
//! that failed its checks, and every set it stored, to a [`Findings`] sink; the program holding
//! the other end ([`Found`]) learns what that server found. The client's embedded server is
//! given one, so that the client rebuilds a corrupt 7-8 set once it has answered (with the
//! 6-6-3 set meanwhile).

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, PoisonError};

use solver_core::fifteen::DatabaseSet;

/// One thing a server found in its data directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// The set's stored file failed its checks (the server warned with the file's path and the
    /// check, and does without it or builds it again).
    Unusable(DatabaseSet),
    /// The set was built and stored in the directory.
    Stored(DatabaseSet),
}

/// Where a server reports its [`Finding`]s: nowhere (the default), or the sending end of a
/// channel made by [`Findings::channel`]. Clones report to the same receiver.
#[derive(Debug, Clone, Default)]
pub struct Findings(pub(crate) Option<Sender<Finding>>);

impl Findings {
    /// A sink, and the [`Found`] that receives what is reported to it.
    #[must_use]
    pub fn channel() -> (Self, Found) {
        let (sender, receiver) = mpsc::channel();
        let found = Found(Mutex::new((receiver, Vec::new())));
        (Self(Some(sender)), found)
    }

    /// Reports `finding`; nothing happens when no one listens (no sink, or its [`Found`]
    /// dropped).
    pub fn report(&self, finding: Finding) {
        if let Some(sender) = &self.0 {
            let _ = sender.send(finding);
        }
    }
}

/// The receiving end of a [`Findings`] sink.
#[derive(Debug)]
pub struct Found(Mutex<(Receiver<Finding>, Vec<DatabaseSet>)>);

impl Found {
    /// The sets whose stored file was reported unusable and not reported stored since, in the
    /// order they were first found, of everything reported so far.
    #[must_use]
    pub fn unusable(&self) -> Vec<DatabaseSet> {
        let mut guard = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let (receiver, sets) = &mut *guard;
        for finding in receiver.try_iter() {
            let (Finding::Unusable(set) | Finding::Stored(set)) = finding;
            sets.retain(|&s| s != set);
            if matches!(finding, Finding::Unusable(_)) {
                sets.push(set);
            }
        }
        sets.clone()
    }
}

#[cfg(test)]
mod tests {
    use solver_core::fifteen::Partition;

    use super::*;

    #[test]
    fn unusable_until_stored_again() {
        let strong = DatabaseSet::Standard(Partition::P78);
        let home = DatabaseSet::Home(10);
        let (findings, found) = Findings::channel();
        let server = findings.clone();
        assert!(found.unusable().is_empty());
        server.report(Finding::Unusable(strong));
        server.report(Finding::Unusable(home));
        assert_eq!(found.unusable(), [strong, home]);
        findings.report(Finding::Stored(home));
        assert_eq!(found.unusable(), [strong]);
        server.report(Finding::Stored(strong));
        server.report(Finding::Unusable(strong));
        assert_eq!(found.unusable(), [strong]);
        drop(found);
        // No one listens: reporting is no error.
        server.report(Finding::Stored(strong));
        Findings::default().report(Finding::Unusable(strong));
    }
}
