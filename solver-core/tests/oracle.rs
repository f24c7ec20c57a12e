//! Property tests: every solver against plain breadth-first search on random inputs.
//!
//! The oracles (`solver_core::tiles::bfs`) share nothing with the solvers but the board type and
//! its moves: they search with hash maps and compute the lexicographically smallest optimal path
//! greedily, taking at every step the first move (in `d, l, r, u` order) that brings the exact
//! distance down by one.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::solvers;
use proptest::prelude::*;
use solver_core::solitaire::{self, Position, Square};
use solver_core::tiles::bfs;
use solver_core::{Board, Board3, Board4, Move, Stop};
use solver_test_support::rng::{forward_walk, walk_choices};

/// Exact distances to `target` of every board within `radius` moves of it (the library's plain
/// BFS, which shares nothing with the solvers but the board type and its moves).
fn distances_to<const W: usize>(target: Board<W>, radius: u32) -> HashMap<Board<W>, u32> {
    bfs::distances(target, radius)
}

/// The lexicographically smallest optimal path, given exact distances to the target of every
/// board on it.
fn greedy_path<const W: usize>(start: Board<W>, dist: &HashMap<Board<W>, u32>) -> Vec<Move> {
    bfs::smallest_path(start, dist).expect("the start is within the distances")
}

fn board3() -> impl Strategy<Value = Board3> {
    Just((0u8..9).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(|cells| Board3::from_cells(&cells).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 50, ..ProptestConfig::default() })]

    /// 3×3, any target: 50 targets × 64 starts = 3,200 pairs, each checked for solvability,
    /// optimal length, lexicographic minimum and replay (a full BFS per target is the cost, so
    /// many starts share each).
    #[test]
    fn eight_matches_bfs(target in board3(), starts in prop::collection::vec(board3(), 64)) {
        let dist = distances_to(target, u32::MAX);
        for start in starts {
            let answer = solvers::eight().solve(&start, &target);
            match dist.get(&start) {
                None => prop_assert!(answer.is_none(), "{start:?} cannot reach {target:?}"),
                Some(&d) => {
                    let moves = answer.expect("reachable");
                    prop_assert_eq!(moves.len(), d as usize);
                    prop_assert_eq!(start.replay(&moves).unwrap(), target);
                    prop_assert_eq!(moves, greedy_path(start, &dist));
                }
            }
        }
    }
}

/// Radius of the exact table around the 4×4 goal used by the 4×4 oracle.
const RADIUS: u32 = 13;
static NEAR_GOAL: LazyLock<HashMap<Board4, u32>> =
    LazyLock::new(|| distances_to(Board4::goal(), RADIUS));

/// The optimal, lexicographically smallest path to `target` by exhaustive depth-first search
/// in move order, bounded by `near`, the exact distances to the target within `radius` (a board
/// outside the table is more than `radius` away), deepening one move at a time.
fn oracle_fifteen(
    start: Board4,
    target: Board4,
    near: &HashMap<Board4, u32>,
    radius: u32,
) -> Vec<Move> {
    let lower_bound = |b: &Board4| near.get(b).map_or(radius as usize + 1, |&d| d as usize);
    fn dfs(
        b: Board4,
        target: Board4,
        budget: usize,
        path: &mut Vec<Move>,
        lower_bound: &dyn Fn(&Board4) -> usize,
    ) -> bool {
        if b == target {
            return true;
        }
        if lower_bound(&b) > budget {
            return false;
        }
        for mv in Move::ALL {
            if let Some(next) = b.apply(mv) {
                path.push(mv);
                if dfs(next, target, budget - 1, path, lower_bound) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    (lower_bound(&start)..)
        .find_map(|bound| {
            let mut path = Vec::new();
            dfs(start, target, bound, &mut path, &lower_bound).then_some(path)
        })
        .expect("solvable")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// 4×4 boards scrambled by random walks of up to 25 moves: 2,000 of them.
    #[test]
    fn fifteen_matches_oracle(walk in prop::collection::vec(0u8..4, 0..=25)) {
        let start = walk_choices(Board4::goal(), &walk);
        let answer = solvers::fifteen().solve(&start, &Board4::goal(), &Stop::never()).unwrap().unwrap();
        prop_assert_eq!(start.replay(&answer.moves).unwrap(), Board4::goal());
        prop_assert_eq!(answer.moves, oracle_fifteen(start, Board4::goal(), &NEAR_GOAL, RADIUS));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Any target, the blank anywhere (each target is turned to one of four goals with its own
    /// databases, and the move order is turned with it): 100 targets, each with 4 starts 10 to 18 moves away
    /// along walks that do not turn back.
    #[test]
    fn fifteen_any_target_matches_oracle(
        to_target in prop::collection::vec(0u8..3, 0..=80),
        walks in prop::collection::vec(prop::collection::vec(0u8..3, 10..=18), 4),
    ) {
        const NEAR: u32 = 10;
        let target = walk_choices(Board4::goal(), &to_target);
        let near = distances_to(target, NEAR);
        for walk in walks {
            let start = forward_walk(target, &walk);
            let answer = solvers::fifteen().solve(&start, &target, &Stop::never()).unwrap().unwrap();
            prop_assert_eq!(start.replay(&answer.moves).unwrap(), target);
            // Suspended at every poll and resumed, the search must find the same path.
            let sliced = crate::extremes::solve_in_slices(&start, &target, &Stop::never()).unwrap();
            prop_assert_eq!(&sliced.moves, &answer.moves);
            prop_assert_eq!(answer.moves, oracle_fifteen(start, target, &near, NEAR));
        }
    }
}

fn position() -> impl Strategy<Value = Position> {
    prop::sample::subsequence((0u32..64).collect::<Vec<_>>(), 4)
        .prop_shuffle()
        .prop_map(|squares| {
            let squares: Vec<Square> = squares
                .iter()
                .map(|&i| Square::new(i / 8 + 1, i % 8 + 1).unwrap())
                .collect();
            Position::new(&squares).unwrap()
        })
}

/// Every position one move from `p`, by the rules written out plainly.
fn solitaire_moves(p: &Position) -> Vec<Position> {
    let occupied: Vec<(i32, i32)> = p
        .squares()
        .iter()
        .map(|s| (s.row() as i32, s.col() as i32))
        .collect();
    let is_free = |r: i32, c: i32| {
        (1..=8).contains(&r) && (1..=8).contains(&c) && !occupied.contains(&(r, c))
    };
    let mut out = Vec::new();
    for (i, &(r, c)) in occupied.iter().enumerate() {
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (nr, nc) = (r + dr, c + dc);
            let dest = if is_free(nr, nc) {
                Some((nr, nc))
            } else if occupied.contains(&(nr, nc)) && is_free(nr + dr, nc + dc) {
                Some((nr + dr, nc + dc))
            } else {
                None
            };
            if let Some((tr, tc)) = dest {
                let mut squares: Vec<Square> = occupied
                    .iter()
                    .map(|&(r, c)| Square::new(r as u32, c as u32).unwrap())
                    .collect();
                squares[i] = Square::new(tr as u32, tc as u32).unwrap();
                out.push(Position::new(&squares).unwrap());
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 25, ..ProptestConfig::default() })]

    /// Solitaire: 25 starts × 120 ends at distances 0..10 (random walks) = 3,000 pairs, checked
    /// for the exact distance, YES/NO at several limits, and a legal replayed sequence (the BFS
    /// ten layers deep from each start is the cost, so many ends share it).
    #[test]
    fn solitaire_matches_bfs(start in position(), walks in prop::collection::vec(prop::collection::vec(0usize..64, 0..=10), 120)) {
        // Plain BFS from the start, 10 layers deep.
        let mut dist = HashMap::from([(start, 0u32)]);
        let mut layer = vec![start];
        for d in 1..=10 {
            let mut next = Vec::new();
            for p in &layer {
                for q in solitaire_moves(p) {
                    dist.entry(q).or_insert_with(|| { next.push(q); d });
                }
            }
            layer = next;
        }
        for walk in walks {
            let end = walk.iter().fold(start, |p, &c| {
                let moves = solitaire_moves(&p);
                if moves.is_empty() { p } else { moves[c % moves.len()] }
            });
            let d = dist[&end];
            for limit in [d.saturating_sub(1), d, 8, 10] {
                let answer = solitaire::search(&start, &end, limit, &Stop::never()).unwrap();
                // Suspended at every poll and resumed, the search must give the same answer.
                let mut sliced = solitaire::SlicedSolitaire::new(&start, &end, limit);
                let resumed = loop {
                    if let Some(done) = sliced.run(&Stop::never(), std::time::Instant::now()) {
                        break done.unwrap();
                    }
                };
                prop_assert_eq!(&resumed, &answer);
                prop_assert_eq!(
                    &solitaire::solve(&start, &end, limit, &Stop::never()).unwrap(),
                    &answer.clone().into_solution()
                );
                prop_assert!(start == end || limit == 0 || answer.stats().nodes > 0);
                let answer = answer.into_solution();
                prop_assert_eq!(answer.is_some(), d <= limit, "distance {} limit {}", d, limit);
                if let Some(answer) = answer {
                    prop_assert_eq!(answer.steps.len() as u32, d);
                    prop_assert_eq!(solitaire::replay(&start, &answer.steps).unwrap(), end);
                }
            }
        }
    }
}
