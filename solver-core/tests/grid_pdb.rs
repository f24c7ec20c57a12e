//! Pattern databases for boards of any shape: the search they guide against plain breadth-first
//! search and against the Manhattan-guided search (optimal, lexicographically smallest, any
//! target), the heuristic between Manhattan distance and the true distance, the stored form and
//! its refusals, and resumed searches.

use std::sync::Arc;
use std::time::Instant;

use solver_core::tiles::bfs;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::grid_ida::{self, GridSearch, Slice};
use solver_core::tiles::grid_pdb::{self, GridDatabases, Partition, Reading, StorageError};
use solver_core::{Move, Stop, Unpaced, format_moves};
use solver_test_support::rng::Lcg;

use crate::solvers;

/// Any board of `grid` (a shuffle: half of them cannot reach a given target).
fn shuffled(grid: Grid, rng: &mut Lcg) -> GridBoard {
    let mut cells: Vec<u8> = (0..grid.cells() as u8).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i + 1));
    }
    GridBoard::new(grid, &cells).unwrap()
}

/// A board `steps` random moves from `from`.
fn walk(from: &GridBoard, steps: usize, rng: &mut Lcg) -> GridBoard {
    (0..steps).fold(from.clone(), |board, _| {
        board.apply(Move::ALL[rng.below(4)]).unwrap_or(board)
    })
}

/// A set for targets with the blank on `blank`, in patterns of about `size` tiles.
fn small_set(grid: Grid, blank: usize, size: usize) -> Arc<GridDatabases> {
    let budget = (grid.cells() as u64).pow(size as u32) * grid.cells() as u64;
    let partition = Partition::automatic(grid, blank, budget);
    Arc::new(GridDatabases::build(partition, 2, &Unpaced))
}

fn manhattan(board: &GridBoard, target: &GridBoard) -> u32 {
    let cols = board.grid().cols();
    let mut home = vec![0usize; board.cells().len()];
    for (cell, &tile) in target.cells().iter().enumerate() {
        home[tile as usize] = cell;
    }
    board
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(cell, &t)| {
            let h = home[t as usize];
            ((cell / cols).abs_diff(h / cols) + (cell % cols).abs_diff(h % cols)) as u32
        })
        .sum()
}

/// Shapes of up to 9 cells, random targets with the blank anywhere, random starts: the answer
/// is breadth-first search's smallest optimal path (and the Manhattan-guided search's), and the
/// heuristic lies between Manhattan distance and the true distance on every board reached.
#[test]
fn small_shapes_match_breadth_first_search_for_any_target() {
    let mut rng = Lcg::new(13);
    for (rows, cols, size, targets) in [(2, 3, 2, 6), (3, 2, 3, 4), (2, 4, 3, 4), (3, 3, 3, 3)] {
        let grid = Grid::new(rows, cols).unwrap();
        for _ in 0..targets {
            let target = shuffled(grid, &mut rng);
            let set = small_set(grid, target.blank(), size);
            let dist = bfs::distances(target.clone(), u32::MAX);
            // Every board that reaches the target: admissible, and at least Manhattan distance.
            for (board, &d) in &dist {
                let h = set.heuristic(board, &target).unwrap();
                assert!(h <= d, "{grid}: h {h} > distance {d} for {board:?}");
                assert!(
                    h >= manhattan(board, &target),
                    "{grid}: h {h} below Manhattan"
                );
                assert_eq!(h % 2, d % 2, "parity of h and distance");
            }
            for _ in 0..12 {
                let start = shuffled(grid, &mut rng);
                let Some(expected) = bfs::smallest_path(start.clone(), &dist) else {
                    assert!(GridSearch::with_databases(&start, &target, set.clone()).is_none());
                    continue;
                };
                let moves = grid_ida::solve_with_databases(
                    &start,
                    &target,
                    &set,
                    solvers::pruning(),
                    &Stop::never(),
                )
                .unwrap();
                assert_eq!(format_moves(&moves), format_moves(&expected), "{grid}");
                assert_eq!(start.replay(&moves).unwrap(), target);
            }
        }
    }
}

/// One pattern holding every tile, blank ignored, is exact: its only free cell is the blank.
#[test]
fn one_pattern_of_every_tile_is_the_true_distance() {
    let grid = Grid::new(2, 4).unwrap();
    let mut rng = Lcg::new(5);
    let target = shuffled(grid, &mut rng);
    let cells: Vec<u8> = (0..8).filter(|&c| c != target.blank() as u8).collect();
    let partition = Partition::new(grid, target.blank(), vec![cells]).unwrap();
    let set = GridDatabases::build(partition, 2, &Unpaced);
    for (board, &d) in &bfs::distances(target.clone(), u32::MAX) {
        assert_eq!(set.heuristic(board, &target), Some(d));
    }
}

/// Shapes of 10 and 12 cells, random targets, boards up to 40 random moves away: the same
/// answer as the Manhattan-guided search (itself checked against breadth-first search in
/// `grid.rs`), replaying to the target.
#[test]
fn larger_shapes_agree_with_the_manhattan_search() {
    let mut rng = Lcg::new(29);
    for (rows, cols, size) in [(2, 5, 3), (5, 2, 3), (3, 4, 3), (4, 3, 4)] {
        let grid = Grid::new(rows, cols).unwrap();
        for _ in 0..3 {
            let target = shuffled(grid, &mut rng);
            let set = small_set(grid, target.blank(), size);
            for _ in 0..6 {
                let start = walk(&target, 10 + rng.below(30), &mut rng);
                let moves = grid_ida::solve_with_databases(
                    &start,
                    &target,
                    &set,
                    solvers::pruning(),
                    &Stop::never(),
                )
                .unwrap();
                let plain =
                    grid_ida::solve(&start, &target, solvers::pruning(), &Stop::never()).unwrap();
                assert_eq!(format_moves(&moves), format_moves(&plain), "{grid}");
                assert_eq!(start.replay(&moves).unwrap(), target);
            }
        }
    }
}

/// Square boards with the blank on the diagonal read the mirror image too; the larger sum is
/// still admissible, and at least the board's own.
#[test]
fn reflection_only_raises_the_heuristic() {
    let grid = Grid::new(3, 3).unwrap();
    let mut rng = Lcg::new(3);
    for blank in [0, 4, 8] {
        let mut cells: Vec<u8> = (1..9).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        cells.insert(blank, 0);
        let target = GridBoard::new(grid, &cells).unwrap();
        let set = small_set(grid, blank, 3);
        assert!(set.partition().reflects());
        let dist = bfs::distances(target.clone(), u32::MAX);
        let mut raised = 0;
        for (board, &d) in &dist {
            let h = set.heuristic(board, &target).unwrap();
            assert!(h <= d);
            // The mirror image of the board (tiles renamed) is as far from the target.
            let mirror = |c: usize| (c % 3) * 3 + c / 3;
            let mut mirrored = vec![0u8; 9];
            for (c, &t) in board.cells().iter().enumerate() {
                let home = target.cells().iter().position(|&x| x == t).unwrap();
                mirrored[mirror(c)] = target.cells()[mirror(home)];
            }
            let mirrored = GridBoard::new(grid, &mirrored).unwrap();
            assert_eq!(dist[&mirrored], d);
            assert_eq!(set.heuristic(&mirrored, &target), Some(h));
            raised += usize::from(h > manhattan(board, &target));
        }
        assert!(raised > 0);
    }
}

/// The tables built on one thread and on two are the same, and a target with the blank
/// elsewhere is refused.
#[test]
fn builds_are_deterministic_and_fit_only_their_blank_cell() {
    let grid = Grid::new(3, 4).unwrap();
    let partition = Partition::automatic(grid, 11, 12u64.pow(3) * 4);
    let one = GridDatabases::build(partition.clone(), 1, &Unpaced);
    let two = GridDatabases::build(partition, 2, &Unpaced);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    one.write_to(&mut a).unwrap();
    two.write_to(&mut b).unwrap();
    assert!(a == b);
    let goal = GridBoard::goal(grid);
    assert!(one.fits(&goal));
    let other = goal.apply(Move::Up).unwrap();
    assert!(!one.fits(&other));
    assert!(GridSearch::with_databases(&goal, &other, Arc::new(one)).is_none());
}

/// Written and read back: the same tables, the same answers; every damaged or foreign file is
/// refused with a message naming the check.
#[test]
fn the_stored_form_round_trips_and_refuses_what_is_wrong() {
    let grid = Grid::new(3, 4).unwrap();
    let partition = Partition::automatic(grid, 11, 12u64.pow(3) * 4);
    let set = GridDatabases::build(partition.clone(), 2, &Unpaced);
    assert_eq!(
        set.file_name(),
        format!(
            "gridpdb-3x4-blank11-3-3-3-2-{}-v3.bin",
            &set.file_name()[28..36]
        )
    );
    let mut bytes = Vec::new();
    set.write_to(&mut bytes).unwrap();
    assert_eq!(
        bytes.len() as u64,
        set.memory_bytes() + 8 + 4 + 4 + 15 + 4 * 8 + 4
    );
    let back = GridDatabases::read_from(&bytes[..], &partition).unwrap();
    let mut again = Vec::new();
    back.write_to(&mut again).unwrap();
    assert!(again == bytes);

    let refuse = |bytes: &[u8], partition: &Partition| {
        GridDatabases::read_from(bytes, partition)
            .unwrap_err()
            .to_string()
    };
    assert!(refuse(b"hello", &partition).contains("bad magic"));
    assert!(refuse(b"", &partition).contains("bad magic"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(refuse(&version, &partition).contains("format version 9"));
    assert!(refuse(&bytes[..14], &partition).contains("truncated header"));
    let wide = Partition::automatic(Grid::new(4, 3).unwrap(), 11, 12u64.pow(3) * 4);
    assert!(refuse(&bytes, &wide).contains("is for a 3x4 board, expected 4x3"));
    let blank0 = Partition::automatic(grid, 0, 12u64.pow(3) * 4);
    assert!(refuse(&bytes, &blank0).contains("blank on cell 11, expected cell 0"));
    let other = Partition::automatic(grid, 11, 12u64.pow(4) * 3);
    assert!(refuse(&bytes, &other).contains("another partition (4 patterns of 3-3-3-2 tiles)"));
    let mut length = bytes.clone();
    length[31] ^= 1;
    assert!(refuse(&length, &partition).contains("corrupt: a table of"));
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert!(refuse(&flipped, &partition).contains("checksum mismatch"));
    assert!(refuse(&bytes[..bytes.len() - 1], &partition).contains("truncated tables"));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(refuse(&longer, &partition).contains("trailing bytes"));
    let err = GridDatabases::read_from(&b"GRIDPDB\0\x01\0\0\0"[..], &partition).unwrap_err();
    assert!(matches!(err, StorageError::Version { found: 1 }));
}

/// Sliced, stopped by node budgets and resumed: the answer, node count and bound of one go.
#[test]
fn slices_and_budgets_give_the_one_go_answer_and_counts() {
    let grid = Grid::new(3, 4).unwrap();
    let goal = GridBoard::goal(grid);
    let set = small_set(grid, 11, 3);
    let mut rng = Lcg::new(77);
    for _ in 0..3 {
        let start = walk(&goal, 200, &mut rng);
        let mut whole = GridSearch::with_databases(&start, &goal, set.clone()).unwrap();
        let Ok(Slice::Found(expected)) = whole.run(&Stop::never(), None) else {
            panic!("one go finds it");
        };
        let mut search = GridSearch::with_databases(&start, &goal, set.clone()).unwrap();
        let mut bound = search.bound();
        let answer = loop {
            let stop = Stop::never().with_node_budget(search.stats().nodes + 777);
            match search.run(&stop, Some(Instant::now())) {
                Ok(Slice::Found(moves)) => break moves,
                Ok(Slice::Suspended) | Err(_) => {
                    assert!(search.bound() >= bound && search.bound() <= expected.len() as u32);
                    bound = search.bound();
                }
            }
        };
        assert_eq!(answer, expected);
        assert_eq!(search.stats(), whole.stats());
        assert_eq!(search.bound(), expected.len() as u32);
        // A budget stops exactly past it.
        let mut stopped = GridSearch::with_databases(&start, &goal, set.clone()).unwrap();
        if let Err(e) = stopped.run(&Stop::never().with_node_budget(50), None) {
            assert_eq!(e.stats.nodes, 51);
        }
    }
}

/// Every move changes the heuristic by an odd amount: each table value has the parity of its
/// tiles' Manhattan distance, and a move changes one tile's by one.
#[test]
fn every_move_changes_the_heuristic_by_an_odd_amount() {
    let grid = Grid::new(2, 3).unwrap();
    let goal = GridBoard::goal(grid);
    let set = small_set(grid, 5, 2);
    let dist = bfs::distances(goal.clone(), u32::MAX);
    for board in dist.keys() {
        let h = set.heuristic(board, &goal).unwrap();
        for mv in Move::ALL {
            if let Some(next) = board.apply(mv) {
                let g = set.heuristic(&next, &goal).unwrap();
                assert!(
                    h.abs_diff(g) % 2 == 1,
                    "a move keeps the heuristic's parity"
                );
            }
        }
    }
}

/// Weighted A* guided by the databases: within its weight of the optimum, with a proven lower
/// bound no larger than it, and optimal at weight 1.
#[test]
fn bounded_answers_with_databases_respect_the_optimum() {
    use solver_core::tiles::bounded;
    let grid = Grid::new(3, 4).unwrap();
    let mut rng = Lcg::new(41);
    let target = shuffled(grid, &mut rng);
    let set = small_set(grid, target.blank(), 3);
    for _ in 0..6 {
        let start = walk(&target, 200, &mut rng);
        let optimal = grid_ida::solve_with_databases(
            &start,
            &target,
            &set,
            solvers::pruning(),
            &Stop::never(),
        )
        .unwrap()
        .len();
        for ratio in [1.0, 1.5, 3.0] {
            let answer =
                bounded::solve_with_databases(&start, &target, ratio, &set, &Stop::never())
                    .unwrap();
            assert_eq!(start.replay(&answer.moves).unwrap(), target);
            assert!(answer.lower_bound as usize <= optimal);
            assert!(answer.moves.len() as f64 <= ratio * optimal as f64 + 1e-9);
            if ratio == 1.0 {
                assert_eq!(answer.moves.len(), optimal);
            }
        }
    }
}

/// The cells of `grid` but `blank`, in patterns of `size` taken in order from the last cell
/// back: another partition than [`Partition::automatic`]'s snake.
fn backwards(grid: Grid, blank: usize, size: usize) -> Partition {
    let cells: Vec<u8> = (0..grid.cells() as u8)
        .rev()
        .filter(|&c| usize::from(c) != blank)
        .collect();
    let patterns = cells.chunks(size).map(<[u8]>::to_vec).collect();
    Partition::new(grid, blank, patterns).unwrap()
}

/// Two partitions combined: the heuristic is the larger of the two sets' on every board that
/// reaches the target (so still admissible, and raised somewhere), the search it guides gives
/// breadth-first search's smallest optimal path, and bounded answers keep their ratio.
#[test]
fn a_combined_set_takes_the_larger_sum_and_keeps_the_answers() {
    use solver_core::tiles::bounded;
    let mut rng = Lcg::new(71);
    for (rows, cols, blank) in [(3, 3, 4), (3, 3, 8), (2, 4, 3), (3, 3, 0)] {
        let grid = Grid::new(rows, cols).unwrap();
        let mut cells: Vec<u8> = (1..grid.cells() as u8).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        cells.insert(blank, 0);
        let target = GridBoard::new(grid, &cells).unwrap();
        let one = small_set(grid, blank, 3);
        let other = GridDatabases::build(backwards(grid, blank, 3), 1, &Unpaced);
        let other_alone = GridDatabases::build(backwards(grid, blank, 3), 1, &Unpaced);
        let first_alone = GridDatabases::build(one.partition().clone(), 1, &Unpaced);
        let both = Arc::new(GridDatabases::combine(vec![first_alone, other]).unwrap());
        assert_eq!(both.partitions().len(), 2);
        assert_eq!(both.memory_bytes(), 2 * one.memory_bytes());
        let dist = bfs::distances(target.clone(), u32::MAX);
        let mut raised = 0;
        for (board, &d) in &dist {
            let (a, b) = (
                one.heuristic(board, &target).unwrap(),
                other_alone.heuristic(board, &target).unwrap(),
            );
            let h = both.heuristic(board, &target).unwrap();
            assert_eq!(h, a.max(b), "{grid}: {board:?}");
            assert!(h <= d, "{grid}: h {h} > distance {d}");
            raised += usize::from(b > a);
        }
        assert!(
            raised > 0,
            "{grid}: the second partition never raised the first"
        );
        for _ in 0..8 {
            let start = walk(&target, 60, &mut rng);
            let expected = bfs::smallest_path(start.clone(), &dist).unwrap();
            let moves = grid_ida::solve_with_databases(
                &start,
                &target,
                &both,
                solvers::pruning(),
                &Stop::never(),
            )
            .unwrap();
            assert_eq!(format_moves(&moves), format_moves(&expected), "{grid}");
            let answer =
                bounded::solve_with_databases(&start, &target, 1.5, &both, &Stop::never()).unwrap();
            assert_eq!(start.replay(&answer.moves).unwrap(), target);
            assert!(answer.lower_bound as usize <= expected.len());
            assert!(answer.moves.len() as f64 <= 1.5 * expected.len() as f64 + 1e-9);
        }
    }
}

/// Sets combine only when they share shape and blank cell, and a combined set is stored one
/// partition per file.
#[test]
fn combining_refuses_mismatched_sets_and_writing_a_combined_one() {
    use solver_core::tiles::grid_pdb::CombineError;
    let grid = Grid::new(2, 3).unwrap();
    let set = |blank| GridDatabases::build(Partition::automatic(grid, blank, 1 << 20), 1, &Unpaced);
    assert_eq!(
        GridDatabases::combine(Vec::new()).unwrap_err(),
        CombineError::Empty
    );
    assert!(matches!(
        GridDatabases::combine(vec![set(5), set(0)]),
        Err(CombineError::Mismatch { .. })
    ));
    let other = GridDatabases::build(backwards(grid, 5, 2), 1, &Unpaced);
    let both = GridDatabases::combine(vec![set(5), other]).unwrap();
    let error = both.write_to(Vec::new()).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    let mut bytes = Vec::new();
    set(5).write_to(&mut bytes).unwrap();
    assert!(!bytes.is_empty());
}

/// More partitions than a lookup maximises (five with their reflections: ten sums) combine into
/// one set that holds their tables but fits no target; its views of up to eight sums fit, and
/// each gives what those partitions combined alone give; more than 64 tables are refused.
#[test]
fn a_set_of_more_sums_than_a_lookup_keeps_holds_views_only() {
    use solver_core::tiles::grid_pdb::CombineError;
    let grid = Grid::new(3, 3).unwrap();
    let target = GridBoard::goal(grid);
    let partitions: Vec<Partition> = [3, 2, 1]
        .into_iter()
        .map(|size| backwards(grid, 8, size))
        .chain([2, 3].map(|size| Partition::automatic(grid, 8, 9u64.pow(size))))
        .collect();
    let build = |k: usize| GridDatabases::build(partitions[k].clone(), 1, &Unpaced);
    let all = GridDatabases::combine((0..5).map(build).collect()).unwrap();
    assert_eq!(all.readings().len(), 10);
    assert!(!all.fits(&target));
    assert_eq!(all.heuristic(&target, &target), None);
    let view = all.view(&[4, 0]);
    let alone = GridDatabases::combine(vec![build(4), build(0)]).unwrap();
    assert!(view.fits(&target));
    let dist = bfs::distances(target.clone(), u32::MAX);
    for board in dist.keys() {
        assert_eq!(
            view.heuristic(board, &target),
            alone.heuristic(board, &target),
            "{board:?}"
        );
    }
    assert!(!all.raced_views().is_empty());
    assert!(all.raced_views().iter().all(|v| v.fits(&target)));
    let singles = (0..9).map(|_| build(2)).collect();
    assert_eq!(
        GridDatabases::combine(singles).unwrap_err(),
        CombineError::TooMany { tables: 72 }
    );
}

/// The zero-aware bits raise the heuristic above the sum of the least costs where a pattern
/// walls the blank away from where its tiles need it, and never lower it (2×4: no reflection,
/// so the heuristic is that one sum).
#[test]
fn the_blanks_region_raises_the_least_costs() {
    let grid = Grid::new(2, 4).unwrap();
    let target = GridBoard::goal(grid);
    let set = small_set(grid, target.blank(), 3);
    assert!(!set.partition().reflects());
    let dist = bfs::distances(target.clone(), u32::MAX);
    let mut raised = 0;
    for (board, &d) in &dist {
        let least: u32 = set
            .partition()
            .patterns()
            .iter()
            .enumerate()
            .map(|(p, homes)| {
                let cells: Vec<u8> = homes
                    .iter()
                    .map(|&home| {
                        let tile = target.cells()[usize::from(home)];
                        board.cells().iter().position(|&t| t == tile).unwrap() as u8
                    })
                    .collect();
                u32::from(set.pattern_value(p, &cells))
            })
            .sum();
        let h = set.heuristic(board, &target).unwrap();
        assert!(least <= h && h <= d, "least {least}, h {h}, distance {d}");
        raised += usize::from(h > least);
    }
    assert!(raised > 0, "the blank's region never counted");
}

/// Stored sets read together make one allocation that [`GridDatabases::combine`] would make of
/// them; a view of a partition is that set alone (same heuristic on every board, same bytes
/// written), and the raced views are each other partition alone, then the first two together,
/// then every pair that shares at most one pattern crossed, the first with each other one first
/// (both read for the board, both for its mirror image), all sharing the memory. A broken file among them is refused as alone.
#[test]
fn sets_read_together_give_views_of_one_allocation() {
    let grid = Grid::new(3, 3).unwrap();
    let target = GridBoard::goal(grid);
    let partitions = [
        Partition::automatic(grid, 8, 9u64.pow(3) * 3),
        backwards(grid, 8, 3),
        backwards(grid, 8, 2),
    ];
    let alone: Vec<GridDatabases> = partitions
        .iter()
        .map(|p| GridDatabases::build(p.clone(), 1, &Unpaced))
        .collect();
    let files: Vec<Vec<u8>> = alone
        .iter()
        .map(|set| {
            let mut bytes = Vec::new();
            set.write_to(&mut bytes).unwrap();
            bytes
        })
        .collect();
    let together = GridDatabases::read_all(
        files
            .iter()
            .zip(&partitions)
            .map(|(bytes, p)| (&bytes[..], p))
            .collect(),
    )
    .unwrap();
    assert_eq!(together.partitions(), &partitions[..]);
    let total: u64 = alone.iter().map(GridDatabases::memory_bytes).sum();
    assert_eq!(together.memory_bytes(), total);
    let views = together.raced_views();
    let chosen: Vec<Vec<Partition>> = views.iter().map(|v| v.partitions().to_vec()).collect();
    let pair = |j: usize, k: usize| vec![partitions[j].clone(), partitions[k].clone()];
    let crossed = [(0, 1), (0, 2), (1, 2)];
    // Each pair shares at most one pattern (the last two share [1, 0]), so all are crossed.
    assert_eq!(grid_pdb::crossed_pairs(&partitions), crossed);
    let mut expected = vec![
        vec![partitions[1].clone()],
        vec![partitions[2].clone()],
        pair(0, 1),
    ];
    for &(j, k) in &crossed {
        expected.extend([pair(j, k), pair(j, k)]);
    }
    assert_eq!(chosen, expected);
    for (view, &(j, k)) in views[3..].chunks(2).zip(&crossed) {
        // A view names its own partitions: the pair's first is its 0, the second its 1.
        assert_eq!(view[0].readings(), [Reading::plain(0), Reading::plain(1)]);
        assert_eq!(
            view[1].readings(),
            [Reading::mirrored(0), Reading::mirrored(1)],
            "partitions {j} and {k} crossed"
        );
    }
    let plain: Vec<GridDatabases> = (0..3)
        .map(|k| together.view_readings(&[Reading::plain(k)]))
        .collect();
    let mirrored: Vec<GridDatabases> = (0..3)
        .map(|k| together.view_readings(&[Reading::mirrored(k)]))
        .collect();
    let first_two = GridDatabases::combine(vec![
        GridDatabases::build(partitions[0].clone(), 1, &Unpaced),
        GridDatabases::build(partitions[1].clone(), 1, &Unpaced),
    ])
    .unwrap();
    // The board mirrored about the main diagonal, each tile renamed to the one whose target
    // cell mirrors its own (the goal's tile on cell c is c + 1).
    let mirror = |cell: usize| (cell % 3) * 3 + cell / 3;
    let mirror_board = |board: &GridBoard| {
        let mut cells = vec![0u8; 9];
        for (cell, &tile) in board.cells().iter().enumerate() {
            cells[mirror(cell)] = if tile == 0 {
                0
            } else {
                mirror(usize::from(tile) - 1) as u8 + 1
            };
        }
        GridBoard::new(grid, &cells).unwrap()
    };
    let h = |set: &GridDatabases, board: &GridBoard| set.heuristic(board, &target).unwrap();
    for (i, (board, distance)) in bfs::distances(target.clone(), u32::MAX)
        .into_iter()
        .enumerate()
    {
        for (k, set) in alone.iter().enumerate() {
            assert_eq!(
                together.view(&[k]).heuristic(&board, &target),
                set.heuristic(&board, &target),
                "{board:?}, partition {k}"
            );
        }
        assert_eq!(
            views[2].heuristic(&board, &target),
            first_two.heuristic(&board, &target)
        );
        // The readings' checks on every fifth board (each builds several lookups).
        if i % 5 != 0 {
            continue;
        }
        for (k, set) in alone.iter().enumerate() {
            assert_eq!(
                h(&mirrored[k], &board),
                h(&plain[k], &mirror_board(&board)),
                "{board:?}, partition {k} mirrored"
            );
            let both = together.view_readings(&[Reading::plain(k), Reading::mirrored(k)]);
            assert_eq!(h(&both, &board), h(set, &board), "{board:?}, partition {k}");
        }
        for (view, &(j, k)) in views[3..].chunks(2).zip(&crossed) {
            assert_eq!(
                h(&view[0], &board),
                h(&plain[j], &board).max(h(&plain[k], &board))
            );
            assert_eq!(
                h(&view[1], &board),
                h(&mirrored[j], &board).max(h(&mirrored[k], &board))
            );
        }
        for view in &views {
            assert!(h(view, &board) <= distance, "{board:?}: admissible");
        }
    }
    for (k, bytes) in files.iter().enumerate() {
        let mut again = Vec::new();
        together.view(&[k]).write_to(&mut again).unwrap();
        assert!(&again == bytes, "partition {k} written from its view");
        assert_eq!(together.view(&[k]).memory_bytes(), alone[k].memory_bytes());
    }
    let mut broken = files[1].clone();
    let last = broken.len() - 1;
    broken[last] ^= 1;
    let error = GridDatabases::read_all(vec![
        (&files[0][..], &partitions[0]),
        (&broken[..], &partitions[1]),
    ])
    .unwrap_err();
    assert!(error.to_string().contains("checksum mismatch"), "{error}");
    let elsewhere = Partition::automatic(grid, 0, 9u64.pow(3) * 3);
    let error = GridDatabases::read_all(vec![
        (&files[0][..], &partitions[0]),
        (&files[0][..], &elsewhere),
    ])
    .unwrap_err();
    assert!(matches!(error, StorageError::Combine(_)), "{error}");
}
