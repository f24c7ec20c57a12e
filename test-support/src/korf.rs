//! Korf's 100 random 15-puzzle instances with their optimal lengths, read from the one copy of
//! the data (`solver-core/data/korf100.txt`, `solver_core::benchmarks`, which the CI scripts and the client's load
//! tool read too).

use solver_core::Board4;

/// The data file: comment lines (`#`), then one instance a line: its number, its optimal
/// length and its 16 cells for the goal with the blank last.
pub const KORF100: &str = solver_core::benchmarks::KORF100;

/// One of Korf's instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instance {
    /// Its number, 1 to 100.
    pub id: usize,
    /// The length of its optimal solutions.
    pub optimal: usize,
    /// The board, to be solved towards the standard goal.
    pub board: Board4,
}

/// Every instance, in order.
pub fn instances() -> impl Iterator<Item = Instance> {
    KORF100
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let numbers: Vec<u64> = line
                .split_whitespace()
                .map(|t| t.parse().expect("a number"))
                .collect();
            let count = |n: u64| usize::try_from(n).expect("a small number");
            Instance {
                id: count(numbers[0]),
                optimal: count(numbers[1]),
                board: Board4::from_cells(&numbers[2..]).expect("a board"),
            }
        })
}

/// Instance `id` (1 to 100) and its optimal length.
#[must_use]
pub fn korf(id: usize) -> (Board4, usize) {
    let instance = instances()
        .find(|instance| instance.id == id)
        .unwrap_or_else(|| panic!("Korf's instance {id}: there are 100"));
    (instance.board, instance.optimal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hundred_numbered_instances() {
        let all: Vec<Instance> = instances().collect();
        assert_eq!(all.len(), 100);
        assert!(all.iter().enumerate().all(|(i, k)| k.id == i + 1));
        assert!(all.iter().all(|k| k.board.can_reach(&Board4::goal())));
        assert_eq!(korf(88).1, 65);
    }
}
