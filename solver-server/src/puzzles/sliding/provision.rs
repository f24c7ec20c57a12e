//! What the family's table owners do about a table a case lacks.

/// What was done about a table a case lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Provision {
    /// It is held now: begin again.
    Held,
    /// It is being loaded or built.
    Coming,
    /// It cannot be had (over the memory budget, or its build failed): search without it.
    Refused,
}

/// A table's load or build, handed to whoever runs it on a paced build thread.
pub(crate) type Build = Box<dyn FnOnce(&dyn solver_core::Pace) + Send>;
