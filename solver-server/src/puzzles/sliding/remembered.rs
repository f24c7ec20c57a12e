//! What the family keeps in the server's cache: optimal moves, by shape, start and target. 3×3
//! answers are read from a table as fast as from the cache, so they are never cached.

use std::sync::Arc;

use solver_core::tiles::grid_board::GridBoard;
use solver_core::{Board3, Board4, Move};

use crate::cache::{Cache, CacheKey};
use crate::config::Kind;

/// How the answers of a board type are cached.
pub(crate) trait Remembered: Sized {
    /// The cache key of a start and target; `None` when the type's answers are not cached.
    fn key(start: &Self, target: &Self) -> Option<CacheKey>;

    /// Caches `moves`, the optimal answer from `start` to `target`.
    fn remember(cache: &Cache, start: &Self, target: &Self, moves: &[Move]);
}

impl Remembered for Board3 {
    fn key(_: &Self, _: &Self) -> Option<CacheKey> {
        None
    }

    fn remember(_: &Cache, _: &Self, _: &Self, _: &[Move]) {}
}

impl Remembered for Board4 {
    fn key(start: &Self, target: &Self) -> Option<CacheKey> {
        Some(square_key(start, target))
    }

    fn remember(cache: &Cache, start: &Self, target: &Self, moves: &[Move]) {
        remember_path(cache, *start, *target, moves);
    }
}

impl Remembered for GridBoard {
    fn key(start: &Self, target: &Self) -> Option<CacheKey> {
        Some(grid_key(start, target))
    }

    fn remember(cache: &Cache, start: &Self, target: &Self, moves: &[Move]) {
        let letters = solver_core::format_moves(moves);
        remember(cache, grid_key(start, target), Arc::from(letters));
    }
}

/// The key of a 4×4 start and target.
pub(crate) fn square_key(start: &Board4, target: &Board4) -> CacheKey {
    CacheKey::new(
        Kind::Fifteen,
        start.cells().iter().chain(target.cells()).copied(),
    )
}

/// The key of a start and target of another shape (optimal answers only): rows, columns, the
/// start's cells and the target's.
pub(crate) fn grid_key(start: &GridBoard, target: &GridBoard) -> CacheKey {
    let grid = start.grid();
    let shape = [grid.rows() as u8, grid.cols() as u8];
    CacheKey::new(
        Kind::Sliding,
        shape
            .iter()
            .chain(start.cells())
            .chain(target.cells())
            .copied(),
    )
}

/// The optimal moves cached under `key`, as letters.
pub(crate) fn recall(cache: &Cache, key: &CacheKey) -> Option<Arc<str>> {
    cache.get::<Arc<str>>(key).map(|moves| Arc::clone(&*moves))
}

/// Caches `moves`, as letters, the optimal answer of `key`'s case.
pub(crate) fn remember(cache: &Cache, key: CacheKey, moves: Arc<str>) {
    cache.insert(key, moves);
}

/// Caches every suffix of an optimal, lexicographically smallest 4×4 path: the board after `k`
/// moves reaches `target` optimally by `moves[k..]` (a shorter or smaller way from there would
/// shorten or shrink the whole path).
pub(crate) fn remember_path(cache: &Cache, start: Board4, target: Board4, moves: &[Move]) {
    if !cache.enabled() {
        return;
    }
    let letters = solver_core::format_moves(moves);
    let mut board = start;
    for k in 0..=moves.len() {
        remember(cache, square_key(&board, &target), Arc::from(&letters[k..]));
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

    #[test]
    fn path_suffixes_are_cached() {
        let cache = Cache::new(100, Arc::new(Metrics::new()));
        let goal = Board4::goal();
        let start = goal.replay(&parse_moves("ulul").unwrap()).unwrap();
        let moves = parse_moves("rdrd").unwrap();
        assert_eq!(start.replay(&moves).unwrap(), goal);
        remember_path(&cache, start, goal, &moves);
        assert_eq!(cache.len(), 5);
        let after_two = start.replay(&moves[..2]).unwrap();
        assert_eq!(
            recall(&cache, &square_key(&after_two, &goal)).as_deref(),
            Some("rd")
        );
        assert_eq!(
            recall(&cache, &square_key(&goal, &goal)).as_deref(),
            Some("")
        );
    }

    #[test]
    fn keys_tell_shapes_and_targets_apart() {
        use solver_core::tiles::grid::Grid;
        let wide = GridBoard::goal(Grid::new(2, 3).unwrap());
        let tall = GridBoard::goal(Grid::new(3, 2).unwrap());
        assert_ne!(grid_key(&wide, &wide), grid_key(&tall, &tall));
        let start = Board4::goal().replay(&parse_moves("u").unwrap()).unwrap();
        assert_ne!(
            square_key(&start, &Board4::goal()),
            square_key(&Board4::goal(), &start)
        );
    }
}
