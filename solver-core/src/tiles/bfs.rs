//! Plain breadth-first search over boards: the reference every faster solver is checked
//! against (by the tests here, the server's and the client's), short enough to trust by reading.
//! Memory grows with the boards reached, so it is for 3×3 (and boards of up to about 10 cells of
//! any shape) and small radii on larger boards.

use std::collections::{HashMap, VecDeque};

use super::board::Move;
pub use super::slide::Slide;

/// Exact distances to `target` of every board within `radius` moves of it (every board that can
/// reach it, when `radius` is large enough: 181,440 for 3×3).
///
/// ```
/// use solver_core::{Board3, tiles::bfs};
/// let dist = bfs::distances(Board3::goal(), u32::MAX);
/// assert_eq!(dist.len(), 181_440);
/// assert_eq!(dist.values().max(), Some(&31));
/// ```
#[must_use]
pub fn distances<B: Slide>(target: B, radius: u32) -> HashMap<B, u32> {
    let mut dist = HashMap::from([(target.clone(), 0)]);
    let mut queue = VecDeque::from([target]);
    while let Some(board) = queue.pop_front() {
        let d = dist[&board];
        if d == radius {
            continue;
        }
        for mv in Move::ALL {
            if let Some(next) = board.slide(mv)
                && !dist.contains_key(&next)
            {
                dist.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    dist
}

/// The lexicographically smallest optimal path from `start` (byte order `d < l < r < u`), given
/// exact distances to the target of every board on it: at every step the first move that gets
/// one closer. `None` when `start` is not in `dist`.
///
/// ```
/// use solver_core::{Board3, format_moves, tiles::bfs};
/// let dist = bfs::distances(Board3::goal(), u32::MAX);
/// let start: Board3 = "1 2 3 4 5 6 7 0 8".parse().unwrap();
/// assert_eq!(format_moves(&bfs::smallest_path(start, &dist).unwrap()), "r");
/// ```
#[must_use]
pub fn smallest_path<B: Slide>(start: B, dist: &HashMap<B, u32>) -> Option<Vec<Move>> {
    let mut board = start;
    let mut path = Vec::new();
    while *dist.get(&board)? > 0 {
        let (mv, next) = Move::ALL
            .iter()
            .filter_map(|&m| board.slide(m).map(|b| (m, b)))
            .find(|(_, b)| dist.get(b).is_some_and(|&d| d + 1 == dist[&board]))?;
        path.push(mv);
        board = next;
    }
    Some(path)
}
