//! How the threads of a long build share the CPU with other work.
//!
//! The library starts its own threads for database builds; a caller that schedules CPU work
//! (the server) passes a [`Pace`] so that each of those threads runs only while it holds a share
//! of the caller's CPU budget, and gives it back between chunks of work when others wait.

/// Admits a build's threads to the CPU.
pub trait Pace: Sync {
    /// Called by each build thread before it works; it holds the returned turn until it is done.
    fn enter(&self) -> Box<dyn Turn + '_>;
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
