//! The solver's choice of method, checked against the plain BFS oracle: whatever it picks and
//! whatever it holds, the answer is the optimal, lexicographically smallest one.

use std::sync::Arc;
use std::time::Instant;

use proptest::prelude::*;

use super::*;
use crate::stop::Stop;
use crate::tiles::bfs;
use crate::tiles::board::Board;
use crate::tiles::grid_pdb::Partition;
use crate::{Board3, Unpaced};

/// Runs whatever `begun` is to its answer (`None` when unsolvable), with its method.
fn finish(begun: Begun) -> Option<(Vec<Move>, &'static str)> {
    match begun {
        Begun::Answered { moves, method } => Some((moves, method)),
        Begun::Search(mut search) => loop {
            let far = Instant::now() + std::time::Duration::from_secs(3600);
            if let Some(found) = search.run(&Stop::never(), far) {
                let moves = found.expect("no stop");
                assert_eq!(search.lower_bound() as usize, moves.len());
                return Some((moves, search.method()));
            }
        },
        Begun::Unsolvable => None,
        Begun::Missing(missing) => panic!("{missing:?} missing"),
    }
}

/// Builds `partition`'s set twice and hands each to `install`: the first is held, the second
/// refused (a set of that partition is held already).
fn installs_once(partition: &Partition, install: impl Fn(GridDatabases) -> bool) {
    let build = || GridDatabases::build(partition.clone(), 1, &Unpaced);
    assert!(install(build()), "{partition} not held");
    assert!(!install(build()), "{partition} held twice");
}

/// A board `steps` random moves from `from` (seeded).
fn walk<B: Case>(from: &B, steps: usize, seed: u64) -> B {
    let mut board = from.clone();
    let mut state = seed | 1;
    for _ in 0..steps {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        let mv = Move::ALL[(state >> 33) as usize % 4];
        if let Some(next) = board.slide(mv) {
            board = next;
        }
    }
    board
}

#[test]
fn each_shape_gets_its_method() {
    let solver = Solver::default();
    let start: Board3 = "1 2 3 4 5 6 7 0 8".parse().unwrap();
    let (moves, method) = finish(solver.begin(&start, &Board3::goal(), Lacking::Ask)).unwrap();
    assert_eq!(
        (crate::format_moves(&moves).as_str(), method),
        ("r", TABLE_METHOD)
    );
    assert!(Solver::is_instant(Grid::EIGHT) && !Solver::is_instant(Grid::FIFTEEN));
    // The same board in the size-generic form goes to the same tables.
    let (generic, method) = finish(solver.begin(
        &GridBoard::from(&start),
        &GridBoard::goal(Grid::EIGHT),
        Lacking::SearchWithout,
    ))
    .unwrap();
    assert_eq!((generic, method), (moves, TABLE_METHOD));
    assert_eq!(
        [Grid::EIGHT, Grid::FIFTEEN, Grid::new(3, 4).unwrap()].map(Solver::label),
        ["eight", "fifteen", "sliding"]
    );
    assert!(Solver::answers_optimally(Grid::FIFTEEN));
    assert!(!Solver::answers_optimally(Grid::new(5, 5).unwrap()));

    // 4×4: the databases first, even when told to search without (there is no other method;
    // the server's tests search with them).
    let goal = Board::<4>::goal();
    let start = walk(&goal, 30, 7);
    let missing = solver.begin(&start, &goal, Lacking::SearchWithout);
    assert!(matches!(missing, Begun::Missing(Missing::Fifteen(target)) if target == goal));
    assert!(Missing::Fifteen(goal).worth_waiting_for() && Missing::Fifteen(goal).is_required());
    let generic = GridBoard::from(&goal);
    let missing = solver.begin(&GridBoard::from(&start), &generic, Lacking::SearchWithout);
    assert!(matches!(missing, Begun::Missing(Missing::Fifteen(target)) if target == goal));
    assert_eq!(Board::<4>::try_from(&generic), Ok(goal));
    assert!(Board3::try_from(&generic).is_err());

    // A tabled shape: searched while its table is missing, read once it is held.
    let grid = Grid::new(2, 5).unwrap();
    let (goal, start) = (GridBoard::goal(grid), walk(&GridBoard::goal(grid), 40, 3));
    let blank = goal.blank();
    let missing = solver.begin(&start, &goal, Lacking::Ask);
    assert!(matches!(missing, Begun::Missing(m) if m == Missing::Table { grid, blank }));
    assert!(!Missing::Table { grid, blank }.worth_waiting_for());
    assert!(!Missing::Table { grid, blank }.is_required());
    let (searched, method) = finish(solver.begin(&start, &goal, Lacking::SearchWithout)).unwrap();
    assert_eq!(method, "ida-manhattan-lc");
    solver.tables(grid, 1).table(blank, &Unpaced).unwrap();
    let (read, method) = finish(solver.begin(&start, &goal, Lacking::Ask)).unwrap();
    assert_eq!((read, method), (searched, TABLE_METHOD));

    // A larger shape: its databases are worth waiting for; once held, they guide the search.
    let grid = Grid::new(2, 7).unwrap();
    let (goal, start) = (GridBoard::goal(grid), walk(&GridBoard::goal(grid), 40, 5));
    let blank = goal.blank();
    let begun = solver.begin(&start, &goal, Lacking::Ask);
    assert!(matches!(begun, Begun::Missing(m) if m.worth_waiting_for()));
    let Begun::Search(search) = solver.begin(&start, &goal, Lacking::SearchWithout) else {
        panic!("a search");
    };
    assert_eq!(search.lacks_pruning(), Some(grid));
    let (without, _) = finish(Begun::Search(search)).unwrap();
    // Small patterns (4 cells each) build in milliseconds; they guide the search all the same.
    let patterns = vec![
        vec![0, 1, 2, 3],
        vec![4, 5, 6, 7],
        vec![8, 9, 10, 11],
        vec![12],
    ];
    let partition = Partition::new(grid, blank, patterns).unwrap();
    installs_once(&partition, |set| solver.install_databases(grid, blank, set));
    solver.build_pruning(grid, &Unpaced);
    let Begun::Search(search) = solver.begin(&start, &goal, Lacking::Ask) else {
        panic!("a search");
    };
    assert_eq!(search.lacks_pruning(), None);
    assert_eq!(
        finish(Begun::Search(search)),
        Some((without.clone(), "ida-pdb"))
    );
    assert!(solver.bounded(&start, &goal, 1.5).informed);
    // Another partition's set races the first on each case, with the same answers.
    let columns = vec![
        vec![0, 7, 1, 8],
        vec![2, 9, 3, 10],
        vec![4, 11, 5, 12],
        vec![6],
    ];
    let rival = Partition::new(grid, blank, columns).unwrap();
    installs_once(&rival, |set| {
        solver.install_rival_databases(grid, blank, set)
    });
    assert_eq!(solver.rival_databases(grid, blank).len(), 1);
    for seed in 5..12 {
        let start = walk(&goal, 40 + 3 * seed as usize, seed);
        let Begun::Search(search) = solver.begin(&start, &goal, Lacking::SearchWithout) else {
            panic!("a search");
        };
        let alone = crate::tiles::grid_ida::solve_with_databases(
            &start,
            &goal,
            &solver.databases(grid, blank).unwrap(),
            &crate::tiles::fsm::PruningTables::new(),
            &Stop::never(),
        )
        .unwrap();
        assert_eq!(finish(Begun::Search(search)), Some((alone, "ida-pdb")));
    }
}

#[test]
fn unsolvable_boards_are_told_without_a_search() {
    let solver = Solver::default();
    let swapped: Board3 = "2 1 3 4 5 6 7 8 0".parse().unwrap();
    assert!(matches!(
        solver.begin(&swapped, &Board3::goal(), Lacking::Ask),
        Begun::Unsolvable
    ));
    let goal = Board::<4>::goal();
    let mut cells = goal.cells().to_vec();
    cells.swap(0, 1);
    let swapped = Board::<4>::from_cells(&cells).unwrap();
    assert!(matches!(
        solver.begin(&swapped, &goal, Lacking::Ask),
        Begun::Unsolvable
    ));
    let grid = Grid::new(2, 3).unwrap();
    let mut cells = grid.goal();
    cells.swap(0, 1);
    let swapped = GridBoard::new(grid, &cells).unwrap();
    assert!(matches!(
        solver.begin(&swapped, &GridBoard::goal(grid), Lacking::Ask),
        Begun::Unsolvable
    ));
}

/// Shapes small enough for the oracle, tabled and not.
fn small_grids() -> impl Strategy<Value = Grid> {
    prop_oneof![
        Just(Grid::new(2, 2).unwrap()),
        Just(Grid::new(2, 3).unwrap()),
        Just(Grid::new(3, 2).unwrap()),
        Just(Grid::new(2, 4).unwrap()),
        Just(Grid::new(3, 3).unwrap()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every method the solver picks, with or without its tables, gives the oracle's answer
    /// (3×3 boards, in either form, are read from the 8-puzzle's trees).
    #[test]
    fn every_method_gives_the_oracles_answer(
        grid in small_grids(),
        target_steps in 0usize..20,
        steps in 0usize..40,
        seed: u64,
    ) {
        let target = walk(&GridBoard::goal(grid), target_steps, seed ^ 0x5eed);
        let start = walk(&target, steps, seed);
        let dist = bfs::distances(target.clone(), u32::MAX);
        let expected = bfs::smallest_path(start.clone(), &dist).unwrap();
        let solver = Solver::new(Arc::new(Squares::new()));
        let (searched, _) = finish(solver.begin(&start, &target, Lacking::SearchWithout)).unwrap();
        prop_assert_eq!(&searched, &expected);
        solver.tables(grid, 1).table(target.blank(), &Unpaced).unwrap();
        let (read, method) = finish(solver.begin(&start, &target, Lacking::Ask)).unwrap();
        prop_assert_eq!(method, TABLE_METHOD);
        prop_assert_eq!(&read, &expected);
        if grid == Grid::EIGHT {
            let square = |b: &GridBoard| Board3::from_cells(b.cells()).unwrap();
            let (eight, _) =
                finish(solver.begin(&square(&start), &square(&target), Lacking::Ask)).unwrap();
            prop_assert_eq!(&eight, &expected);
        }
    }
}
