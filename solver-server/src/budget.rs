//! The memory that searches holding boards of their own (weighted A* for bounded answers) may
//! take at once: each reserves its ceiling before it starts and gives it back when it ends, so
//! that slicing searches (many in progress at once) cannot let a flood of them hold gigabytes.
//! A case that finds no room waits its turn on the scheduler, under its own limits.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A budget of bytes shared by the searches of the whole server.
#[derive(Debug)]
pub(crate) struct MemoryBudget {
    capacity: usize,
    used: AtomicUsize,
}

/// Bytes reserved from a [`MemoryBudget`], given back when dropped.
#[derive(Debug)]
pub(crate) struct Reservation {
    budget: Arc<MemoryBudget>,
    bytes: usize,
}

impl MemoryBudget {
    /// A budget of `capacity` bytes.
    pub(crate) fn new(capacity: usize) -> Arc<Self> {
        Arc::new(Self {
            capacity,
            used: AtomicUsize::new(0),
        })
    }

    /// Reserves `bytes` (at most the whole budget: a search larger than the budget runs alone),
    /// or `None` while others hold too much of it.
    pub(crate) fn reserve(self: &Arc<Self>, bytes: usize) -> Option<Reservation> {
        let bytes = bytes.min(self.capacity);
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                (used + bytes <= self.capacity).then_some(used + bytes)
            })
            .ok()?;
        Some(Reservation {
            budget: Arc::clone(self),
            bytes,
        })
    }

    /// The bytes reserved now.
    #[cfg(test)]
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.used.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_fit_the_budget_and_come_back() {
        let budget = MemoryBudget::new(100);
        let a = budget.reserve(60).unwrap();
        assert!(budget.reserve(60).is_none());
        let b = budget.reserve(40).unwrap();
        assert_eq!(budget.used(), 100);
        drop(a);
        assert_eq!(budget.used(), 40);
        // Larger than the whole budget: runs alone.
        assert!(budget.reserve(500).is_none());
        drop(b);
        let all = budget.reserve(500).unwrap();
        assert_eq!(budget.used(), 100);
        drop(all);
        assert_eq!(budget.used(), 0);
    }
}
