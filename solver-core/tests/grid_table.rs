//! Complete distance tables (boards of at most 12 cells) against plain breadth-first search, the
//! 8-puzzle's table, tables built directly for symmetric blank cells, and their stored form.

use crate::solvers;
use solver_core::tiles::bfs;
use solver_core::tiles::grid::Grid;
use solver_core::tiles::grid_board::GridBoard;
use solver_core::tiles::grid_table::{GridTable, GridTableError, GridTables, storage};
use solver_core::{Board3, Move, Unpaced, format_moves};
use solver_test_support::rng::Lcg;

/// Any board of `grid`.
fn shuffled(grid: Grid, rng: &mut Lcg) -> GridBoard {
    let mut cells: Vec<u8> = (0..grid.cells() as u8).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i + 1));
    }
    GridBoard::new(grid, &cells).unwrap()
}

/// Any board that can reach `target`: a shuffle, two tiles swapped if its parity is the other.
fn reaching(target: &GridBoard, rng: &mut Lcg) -> GridBoard {
    let board = shuffled(target.grid(), rng);
    if board.can_reach(target) {
        return board;
    }
    let mut cells = board.cells().to_vec();
    let tiles: Vec<usize> = (0..cells.len()).filter(|&c| cells[c] != 0).collect();
    cells.swap(tiles[0], tiles[1]);
    GridBoard::new(target.grid(), &cells).unwrap()
}

/// A board of `grid` with the blank on `cell`.
fn blank_on(grid: Grid, cell: usize, rng: &mut Lcg) -> GridBoard {
    let board = shuffled(grid, rng);
    let mut cells = board.cells().to_vec();
    let blank = board.blank();
    cells.swap(blank, cell);
    GridBoard::new(grid, &cells).unwrap()
}

fn built(rows: usize, cols: usize) -> GridTables {
    let tables = GridTables::new(Grid::new(rows, cols).unwrap(), 2).unwrap();
    tables.build_all(&Unpaced);
    assert!(tables.is_ready());
    tables
}

/// `start` to `target` through the tables: the BFS oracle's lexicographically smallest optimal
/// path, byte for byte, replaying to the target, and the distance alike.
fn check(tables: &GridTables, start: &GridBoard, target: &GridBoard, expected: &[Move]) {
    let moves = tables.solve(start, target, &Unpaced).unwrap();
    assert_eq!(
        format_moves(&moves),
        format_moves(expected),
        "{start} to {target}"
    );
    assert_eq!(start.replay(&moves).unwrap(), *target);
    assert_eq!(
        tables.distance(start, target, &Unpaced).unwrap() as usize,
        expected.len()
    );
}

/// Random starts against breadth-first search from `target`: complete (`radius` = `None`), or
/// out to `radius` moves with starts a random walk of at most that many moves away.
fn against_bfs(
    tables: &GridTables,
    target: &GridBoard,
    radius: Option<u32>,
    starts: usize,
    rng: &mut Lcg,
) {
    let dist = bfs::distances(target.clone(), radius.unwrap_or(u32::MAX));
    for _ in 0..starts {
        let start = match radius {
            None => reaching(target, rng),
            Some(r) => {
                let mut start = target.clone();
                for _ in 0..rng.below(r as usize + 1) {
                    start = start.apply(Move::ALL[rng.below(4)]).unwrap_or(start);
                }
                start
            }
        };
        let expected = bfs::smallest_path(start.clone(), &dist).unwrap();
        check(tables, &start, target, &expected);
    }
}

/// Every shape up to 10 cells, a target with the blank on each cell: random starts against a
/// complete breadth-first search from the target (on 3×3 for the blank on an edge: the 8-puzzle
/// test covers the rest), elsewhere (2×5: a complete search takes seconds) against searches out
/// to 24 moves.
#[test]
fn small_shapes_match_breadth_first_search() {
    let mut rng = Lcg::new(1);
    for (rows, cols, complete) in [
        (2, 2, &[0, 1, 2, 3][..]),
        (2, 3, &[0, 1, 2, 3, 4, 5]),
        (3, 2, &[0, 1, 2, 3, 4, 5]),
        (2, 4, &[0, 1, 2, 3, 4, 5, 6, 7]),
        (4, 2, &[0, 1, 2, 3, 4, 5, 6, 7]),
        (3, 3, &[1]),
        (2, 5, &[]),
        (5, 2, &[]),
    ] {
        let tables = built(rows, cols);
        let grid = tables.grid();
        for cell in 0..grid.cells() {
            let target = blank_on(grid, cell, &mut rng);
            if complete.contains(&cell) {
                against_bfs(&tables, &target, None, 300, &mut rng);
            } else {
                against_bfs(&tables, &target, Some(24), 200, &mut rng);
            }
        }
    }
}

/// Every board of a class, not a sample: the distance to one target of each of the 20,160 2×4
/// boards and 181,440 3×3 boards that reach it.
#[test]
fn every_distance_of_a_class_matches_breadth_first_search() {
    let mut rng = Lcg::new(2);
    for (rows, cols) in [(2, 4), (3, 3)] {
        let tables = built(rows, cols);
        let target = shuffled(tables.grid(), &mut rng);
        let dist = bfs::distances(target.clone(), u32::MAX);
        for (board, &d) in &dist {
            assert_eq!(tables.distance(board, &target, &Unpaced).unwrap(), d);
        }
        let radius = dist.values().max().copied().unwrap();
        assert_eq!(tables.get(target.blank()).unwrap().radius(), radius);
    }
}

/// A symmetry maps only the look-up: a table built directly for a blank cell that the set
/// answers through a mirror or a turn gives the same distances and moves.
#[test]
fn symmetric_classes_read_the_same_distances() {
    let mut rng = Lcg::new(3);
    for (rows, cols, cells) in [
        (2, 3, vec![2, 3, 4, 5]),
        (3, 3, vec![2, 7, 8]),
        (2, 5, vec![7, 9]),
    ] {
        let grid = Grid::new(rows, cols).unwrap();
        let tables = GridTables::new(grid, 2).unwrap();
        for cell in cells {
            let direct = GridTable::build(grid, cell, 2, &Unpaced).unwrap();
            let set = tables.table(cell, &Unpaced).unwrap();
            assert_ne!(
                set.blank(),
                cell,
                "{grid}: cell {cell} is answered through a symmetry"
            );
            assert!(set.covers(cell) && direct.covers(cell));
            assert_eq!(direct.radius(), set.radius());
            for _ in 0..500 {
                let target = blank_on(grid, cell, &mut rng);
                let start = reaching(&target, &mut rng);
                assert_eq!(
                    direct.solve(&start, &target).unwrap(),
                    set.solve(&start, &target).unwrap(),
                    "{start} to {target}"
                );
            }
        }
    }
}

/// 3×3 through the complete tables and through the 8-puzzle's table: the same answers.
#[test]
fn three_by_three_agrees_with_the_eight_puzzle_table() {
    let mut rng = Lcg::new(4);
    let tables = built(3, 3);
    let eight = solvers::eight();
    for _ in 0..3000 {
        let target = shuffled(tables.grid(), &mut rng);
        let start = shuffled(tables.grid(), &mut rng);
        let fast = eight.solve(
            &Board3::from_cells(start.cells()).unwrap(),
            &Board3::from_cells(target.cells()).unwrap(),
        );
        match tables.solve(&start, &target, &Unpaced) {
            Ok(moves) => assert_eq!(Some(moves), fast, "{start} to {target}"),
            Err(e) => {
                assert_eq!(e, GridTableError::Unreachable);
                assert_eq!(fast, None);
            }
        }
    }
}

#[test]
fn bad_questions_are_refused() {
    let grid = Grid::new(2, 3).unwrap();
    let other = Grid::new(3, 2).unwrap();
    assert_eq!(
        GridTables::new(Grid::new(4, 4).unwrap(), 1)
            .unwrap_err()
            .to_string(),
        "a 4x4 board has 16 cells: complete tables cover boards of at most 12 cells"
    );
    assert_eq!(
        GridTable::build(grid, 6, 1, &Unpaced).unwrap_err(),
        GridTableError::NoSuchCell { grid, cell: 6 }
    );
    let table = GridTable::build(grid, 1, 1, &Unpaced).unwrap();
    let goal = GridBoard::goal(grid);
    assert_eq!(
        table.solve(&goal, &goal).unwrap_err(),
        GridTableError::OtherClass { cell: 5, blank: 1 }
    );
    let target = table.goal();
    assert_eq!(table.solve(&target, &target).unwrap(), []);
    let swapped = GridBoard::new(grid, &[2u8, 0, 1, 3, 4, 5]).unwrap();
    assert_eq!(
        table.solve(&swapped, &target).unwrap_err(),
        GridTableError::Unreachable
    );
    let tall = GridBoard::goal(other);
    assert_eq!(
        table.distance(&tall, &target).unwrap_err().to_string(),
        "a 3x2 board was given to a table of 2x3 boards"
    );
    let tables = GridTables::new(grid, 1).unwrap();
    assert!(tables.solve(&goal, &tall, &Unpaced).is_err());
    assert!(tables.get(0).is_none() && tables.get(9).is_none());
}

/// The stored form reads back the same table, and every damaged or foreign file is refused
/// with its reason.
#[test]
fn stored_tables_round_trip_and_every_refusal() {
    let grid = Grid::new(2, 4).unwrap();
    let table = GridTable::build(grid, 1, 2, &Unpaced).unwrap();
    let mut bytes = Vec::new();
    table.write_to(&mut bytes).unwrap();
    assert_eq!(bytes.len(), 8 + 4 + 3 + 4 + 8 + 4 + table.bytes());
    assert_eq!(storage::file_name(grid, 1), "grid-2x4-blank1-v2.bin");

    let back = GridTable::read_from(&bytes[..], grid, 1).unwrap();
    assert_eq!(
        (back.grid(), back.blank(), back.radius()),
        (grid, 1, table.radius())
    );
    let mut rng = Lcg::new(5);
    for _ in 0..200 {
        let target = blank_on(grid, 6, &mut rng);
        let start = reaching(&target, &mut rng);
        assert_eq!(table.solve(&start, &target), back.solve(&start, &target));
    }
    let tables = GridTables::new(grid, 1).unwrap();
    tables.insert(back).unwrap();
    assert!(tables.get(6).is_some() && tables.get(0).is_none());
    let again = GridTable::read_from(&bytes[..], grid, 1).unwrap();
    assert!(tables.insert(again).is_err(), "the class has its table");

    let refuse = |bytes: &[u8], grid: Grid, blank: usize| {
        GridTable::read_from(bytes, grid, blank)
            .unwrap_err()
            .to_string()
    };
    assert!(refuse(b"hello", grid, 1).contains("not a distance table"));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(refuse(&magic, grid, 1).contains("bad magic"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(refuse(&version, grid, 1).contains("format version 9, this build reads version 2"));
    let wrong_shape = refuse(&bytes, Grid::new(4, 2).unwrap(), 1);
    assert!(
        wrong_shape.contains("holds the 2x4 table for blank cell 1, expected 4x2 for blank cell 1"),
        "{wrong_shape}"
    );
    assert!(
        refuse(&bytes, grid, 0)
            .contains("holds the 2x4 table for blank cell 1, expected 2x4 for blank cell 0")
    );
    assert!(refuse(&bytes[..20], grid, 1).contains("truncated header"));
    assert!(refuse(&bytes[..bytes.len() - 1], grid, 1).contains("truncated entries"));
    let mut entries = bytes.clone();
    entries[19] ^= 1;
    assert!(refuse(&entries, grid, 1).contains("entries, a 2x4 table has 20160"));
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert!(refuse(&flipped, grid, 1).contains("checksum mismatch"));
    let mut radius = bytes.clone();
    radius[15] ^= 1;
    assert!(refuse(&radius, grid, 1).contains("checksum mismatch"));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(refuse(&longer, grid, 1).contains("trailing bytes"));
}
