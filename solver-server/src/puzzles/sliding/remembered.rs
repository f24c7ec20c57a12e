//! What the family keeps in the server's cache: optimal moves, by shape, start and target.
//! Instant shapes' answers (3×3) are read from a table as fast as from the cache, so they are
//! never cached.

use std::sync::Arc;

use solver_core::Move;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::solver::Solver;

use super::case::kind;
use crate::cache::{Cache, CacheKey};

/// The cache key of a start and target: their shape's kind, then rows, columns, the start's cells
/// and the target's; `None` when the shape's answers are not cached.
pub(crate) fn key(start: &GridBoard, target: &GridBoard) -> Option<crate::cache::CacheKey> {
    let grid = start.grid();
    if Solver::is_instant(grid) {
        return None;
    }
    let shape = [grid.rows() as u8, grid.cols() as u8];
    Some(CacheKey::new(
        kind(grid),
        shape
            .iter()
            .chain(start.cells())
            .chain(target.cells())
            .copied(),
    ))
}

/// The optimal moves cached for `start` to `target`, as letters.
pub(crate) fn recall(cache: &Cache, start: &GridBoard, target: &GridBoard) -> Option<Arc<str>> {
    let key = key(start, target)?;
    cache.get::<Arc<str>>(&key).map(|moves| Arc::clone(&*moves))
}

/// Caches every suffix of an optimal, lexicographically smallest path: the board after `k`
/// moves reaches `target` optimally by `moves[k..]` (a shorter or smaller way from there would
/// shorten or shrink the whole path).
pub(crate) fn remember(cache: &Cache, start: &GridBoard, target: &GridBoard, moves: &[Move]) {
    if !cache.enabled() || key(start, target).is_none() {
        return;
    }
    let letters = solver_core::format_moves(moves);
    let mut board = start.clone();
    for k in 0..=moves.len() {
        if let Some(key) = key(&board, target) {
            cache.insert(key, Arc::<str>::from(&letters[k..]));
        }
        if let Some(&mv) = moves.get(k) {
            match board.apply(mv) {
                Some(next) => board = next,
                None => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Metrics;
    use solver_core::parse_moves;
    use solver_core::tiles::grid::Grid;

    #[test]
    fn path_suffixes_are_cached() {
        let cache = Cache::new(100, Arc::new(Metrics::new()));
        let goal = GridBoard::goal(Grid::FIFTEEN);
        let start = goal.replay(&parse_moves("ulul").unwrap()).unwrap();
        let moves = parse_moves("rdrd").unwrap();
        assert_eq!(start.replay(&moves).unwrap(), goal);
        remember(&cache, &start, &goal, &moves);
        assert_eq!(cache.len(), 5);
        let after_two = start.replay(&moves[..2]).unwrap();
        assert_eq!(recall(&cache, &after_two, &goal).as_deref(), Some("rd"));
        assert_eq!(recall(&cache, &goal, &goal).as_deref(), Some(""));
    }

    #[test]
    fn instant_shapes_are_never_cached() {
        let cache = Cache::new(100, Arc::new(Metrics::new()));
        let goal = GridBoard::goal(Grid::EIGHT);
        let start = goal.replay(&parse_moves("ul").unwrap()).unwrap();
        remember(&cache, &start, &goal, &parse_moves("rd").unwrap());
        assert_eq!(cache.len(), 0);
        assert_eq!(recall(&cache, &start, &goal), None);
    }

    #[test]
    fn keys_tell_shapes_and_targets_apart() {
        let wide = GridBoard::goal(Grid::new(2, 3).unwrap());
        let tall = GridBoard::goal(Grid::new(3, 2).unwrap());
        assert_ne!(key(&wide, &wide), key(&tall, &tall));
        let goal = GridBoard::goal(Grid::FIFTEEN);
        let start = goal.replay(&parse_moves("u").unwrap()).unwrap();
        assert_ne!(key(&start, &goal), key(&goal, &start));
    }
}
