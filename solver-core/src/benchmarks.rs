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
}
