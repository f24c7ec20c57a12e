//! The published benchmark instances, kept once in `solver-core/data/` and embedded here so
//! that tests, examples, the client's load tool and the CI scripts read the same copy.

/// Korf's 100 random 15-puzzle instances with their optimal lengths (R. E. Korf, AI 27, 1985):
/// comment lines (`#`), then one instance a line: its number, its optimal length and its 16 cells
/// for the goal with the blank last.
pub const KORF100: &str = include_str!("../data/korf100.txt");

/// Korf & Felner's 50 random 24-puzzle instances with their optimal lengths (AI 134, 2002), in
/// the same form with 25 cells.
pub const KORF24: &str = include_str!("../data/korf24.txt");

/// Published search effort on Korf & Felner's 50, to compare node counts with: per instance its
/// number, optimal length, the nodes Korf & Felner's 6-6-6-6 databases generated (2002), the
/// nodes Döbbelin, Schütt & Reinefeld's databases expanded (2013: 6-6-6-6, 8-8-8, 9-8-7, 9-9-6,
/// their maximum) and those of Clausecker & Reinefeld's improved and small catalogues of
/// zero-aware databases (2019). Copied from `clausecker/24puzzle`, `doc/results.txt` (commit
/// 5e6b627), whose header the file keeps.
pub const KORF24_PUBLISHED: &str = include_str!("../data/korf24-published.txt");

/// One of Korf & Felner's 24-puzzles ([`KORF24`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance24 {
    /// Its number, 1 to 50.
    pub id: usize,
    /// The length of its optimal solutions.
    pub optimal: u32,
    /// Its 25 cells row by row (0 the blank), for the goal with the blank last.
    pub cells: Vec<u32>,
    /// The nodes Korf & Felner's 6-6-6-6 databases generated on it (2002).
    pub korf_felner_nodes: u64,
    /// The nodes Clausecker & Reinefeld's small catalogue expanded on it (2019).
    pub small_catalogue_nodes: u64,
}

/// The numbers of each instance line (not a comment, not blank) of `data`.
fn number_lines<T: std::str::FromStr>(data: &str) -> impl Iterator<Item = Vec<T>> + '_ {
    data.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            line.split_whitespace()
                .map(|n| n.parse().ok().expect("a number"))
                .collect()
        })
}

/// Korf & Felner's 50 24-puzzles in order, each with its published node counts.
#[must_use]
pub fn korf24() -> Vec<Instance24> {
    number_lines::<u32>(KORF24)
        .zip(number_lines::<u64>(KORF24_PUBLISHED))
        .map(|(board, published)| Instance24 {
            id: board[0] as usize,
            optimal: board[1],
            cells: board[2..].to_vec(),
            korf_felner_nodes: published[2],
            small_catalogue_nodes: published[published.len() - 1],
        })
        .collect()
}

/// The numbers of the `count` instances of [`korf24`] on which Korf & Felner's databases
/// generated the fewest nodes, easiest first (their "easiest" instances).
#[must_use]
pub fn korf24_easiest(count: usize) -> Vec<usize> {
    let mut all = korf24();
    all.sort_by_key(|i| i.korf_felner_nodes);
    all.iter().take(count).map(|i| i.id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Number and optimal length of each instance line of `data`.
    fn lengths(data: &str) -> Vec<(u64, u64)> {
        data.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|line| {
                let mut numbers = line.split_whitespace().map(|n| n.parse::<u64>().unwrap());
                (numbers.next().unwrap(), numbers.next().unwrap())
            })
            .collect()
    }

    #[test]
    fn the_published_figures_are_of_the_same_fifty_instances() {
        assert_eq!(lengths(KORF24_PUBLISHED), lengths(KORF24));
        assert_eq!(lengths(KORF24).len(), 50);
        for line in KORF24_PUBLISHED.lines().filter(|l| !l.starts_with('#')) {
            assert_eq!(line.split_whitespace().count(), 10, "{line}");
        }
    }

    #[test]
    fn the_24_puzzles_pair_each_board_with_its_published_counts() {
        let all = korf24();
        assert_eq!(all.len(), 50);
        assert!(all.iter().enumerate().all(|(i, x)| x.id == i + 1));
        assert!(all.iter().all(|x| x.cells.len() == 25));
        assert_eq!((all[24].id, all[24].optimal), (25, 81));
        assert_eq!(all[24].korf_felner_nodes, 292_174_444);
        assert_eq!(all[24].small_catalogue_nodes, 84_227_356);
        // The order issue 25's pace check lists, by Korf & Felner's 2002 counts.
        assert_eq!(
            korf24_easiest(20),
            [
                38, 40, 25, 32, 44, 37, 30, 13, 1, 28, 36, 5, 22, 16, 29, 4, 26, 3, 31, 41
            ]
        );
    }
}
