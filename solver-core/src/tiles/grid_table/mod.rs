//! Complete distance tables for every board of at most 12 cells (2×2 up to 3×4 and 2×6): the
//! optimal and lexicographically smallest answer (`d < l < r < u`) for any start and any target,
//! by look-up.
//!
//! Tile labels are arbitrary, so a target whose blank is on cell `b` is renamed into the
//! canonical goal of `b` (tiles `1..n` row-major around the blank), and the start with it. One
//! table per class of blank cells under the board's symmetries (3×4: corner, long edge, short
//! edge, interior) then answers every target: a symmetry maps both boards first.
//!
//! A table holds the distance mod 3 of every board of the goal's parity class, in 2 bits (3×4 and
//! 2×6: 239,500,800 boards, 60 MB). Neighbours differ by exactly one move, so mod 3 tells the one
//! closer from the one farther: from the start, the first move in `d l r u` order whose board is
//! one closer, repeated, is the lexicographically smallest optimal path (every board on it has a
//! shortest path of that distance, and no smaller first move does), and its length the distance.
//!
//! ```
//! use solver_core::tiles::{grid::Grid, grid_board::GridBoard, grid_table::GridTables};
//! use solver_core::{Unpaced, format_moves};
//! let grid = Grid::new(2, 3).unwrap();
//! let tables = GridTables::new(grid, 1).unwrap();
//! let start = GridBoard::new(grid, &[1u8, 2, 3, 4, 0, 5]).unwrap();
//! let target = GridBoard::goal(grid);
//! assert_eq!(format_moves(&tables.solve(&start, &target, &Unpaced).unwrap()), "r");
//! assert_eq!(tables.distance(&start, &target, &Unpaced).unwrap(), 1);
//! ```

mod build;
mod codec;
pub mod storage;
mod symmetry;

use std::fmt;
use std::sync::OnceLock;

use crate::pace::{Pace, Stage};
use crate::tiles::grid::Grid;
use crate::tiles::grid_board::GridBoard;
use crate::tiles::moves::Move;

use codec::{Codec, MAX_CELLS, NONE, State, block};
use symmetry::{Symmetry, symmetries};

/// Why a table cannot be built or cannot answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GridTableError {
    /// The shape has more cells than a complete table covers.
    #[error(
        "a {grid} board has {} cells: complete tables cover boards of at most {} cells",
        grid.cells(),
        GridTable::MAX_CELLS
    )]
    TooLarge {
        /// The shape asked for.
        grid: Grid,
    },
    /// The blank cell is not on the board.
    #[error("cell {cell} is not on a {grid} board")]
    NoSuchCell {
        /// The shape.
        grid: Grid,
        /// The cell asked for.
        cell: usize,
    },
    /// A board of another shape than the table's.
    #[error("a {found} board was given to a table of {expected} boards")]
    Shape {
        /// The table's shape.
        expected: Grid,
        /// The board's shape.
        found: Grid,
    },
    /// The target's blank is on a cell this table does not answer for.
    #[error(
        "the target's blank is on cell {cell}, which the table for blank cell {blank} does not cover"
    )]
    OtherClass {
        /// The target's blank cell.
        cell: usize,
        /// The table's blank cell.
        blank: usize,
    },
    /// The boards differ in parity.
    #[error("the target cannot be reached from the start (their parities differ)")]
    Unreachable,
}

/// The distances to one canonical goal of every board of its class: see the module docs.
pub struct GridTable {
    grid: Grid,
    blank: usize,
    radius: u32,
    codec: Codec,
    symmetries: Vec<Symmetry>,
    /// Distance mod 3 of the board of rank `i` in bits `2(i % 32)..` of word `i / 32`.
    words: Vec<u64>,
}

impl fmt::Debug for GridTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GridTable")
            .field("grid", &self.grid)
            .field("blank", &self.blank)
            .field("radius", &self.radius)
            .field("bytes", &self.bytes())
            .finish_non_exhaustive()
    }
}

/// Calls `$body` with `N` the cell count of `$grid` as a constant.
macro_rules! by_cells {
    ($grid:expr, $n:ident => $body:expr) => {
        match $grid.cells() {
            4 => {
                const $n: usize = 4;
                $body
            }
            6 => {
                const $n: usize = 6;
                $body
            }
            8 => {
                const $n: usize = 8;
                $body
            }
            9 => {
                const $n: usize = 9;
                $body
            }
            10 => {
                const $n: usize = 10;
                $body
            }
            12 => {
                const $n: usize = 12;
                $body
            }
            n => unreachable!("no shape of 2..=8 rows and columns has {n} cells up to 12"),
        }
    };
}

/// The tiles of the canonical goal of blank cell `blank`: `1..n` row-major, the blank on `blank`.
fn canonical(grid: Grid, blank: usize) -> Vec<u8> {
    (0..grid.cells())
        .map(|cell| match cell.cmp(&blank) {
            std::cmp::Ordering::Less => cell as u8 + 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => cell as u8,
        })
        .collect()
}

fn check_cell(grid: Grid, cell: usize) -> Result<(), GridTableError> {
    if grid.cells() > MAX_CELLS {
        return Err(GridTableError::TooLarge { grid });
    }
    if cell >= grid.cells() {
        return Err(GridTableError::NoSuchCell { grid, cell });
    }
    Ok(())
}

impl GridTable {
    /// The most cells a complete table covers.
    pub const MAX_CELLS: usize = MAX_CELLS;

    /// Builds the table of `grid` for targets with the blank on `blank` (and the cells symmetric
    /// to it), on `threads` threads paced by `pace`; progress is reported per layer. 3×4 and 2×6
    /// take 60 MB and tens of seconds.
    ///
    /// # Errors
    /// [`GridTableError::TooLarge`] beyond [`GridTable::MAX_CELLS`] cells,
    /// [`GridTableError::NoSuchCell`] for a blank cell off the board.
    pub fn build(
        grid: Grid,
        blank: usize,
        threads: usize,
        pace: &dyn Pace,
    ) -> Result<Self, GridTableError> {
        check_cell(grid, blank)?;
        let goal = canonical(grid, blank);
        let codec = Codec::new(grid, grid.parity(&goal));
        let built =
            by_cells!(grid, N => build::build::<N>(&codec, State::pack(&goal), threads, pace));
        Ok(Self::from_parts(grid, blank, built.radius, built.words))
    }

    /// A table from its parts (the build's, or the stored form's).
    fn from_parts(grid: Grid, blank: usize, radius: u32, words: Vec<u64>) -> Self {
        let goal = canonical(grid, blank);
        Self {
            grid,
            blank,
            radius,
            codec: Codec::new(grid, grid.parity(&goal)),
            symmetries: symmetries(grid),
            words,
        }
    }

    /// Words of 2-bit entries of a table of `grid`: one entry per board of a parity class.
    fn word_count(grid: Grid) -> usize {
        (grid.cells() * block(grid.cells())).div_ceil(32)
    }

    /// The board shape.
    #[must_use]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The blank cell of the table's goal.
    #[must_use]
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The largest distance in the table (3×4: 53, 2×6: 80, whatever the blank cell).
    #[must_use]
    pub fn radius(&self) -> u32 {
        self.radius
    }

    /// Boards in the table: `n!/2` for `n` cells.
    #[must_use]
    pub fn boards(&self) -> u64 {
        (self.grid.cells() * block(self.grid.cells())) as u64
    }

    /// Bytes the entries take.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// The canonical goal this table measures distances to: tiles `1..n` row-major, the blank
    /// on [`blank`](Self::blank).
    #[must_use]
    pub fn goal(&self) -> GridBoard {
        GridBoard::new(self.grid, &canonical(self.grid, self.blank)).expect("a permutation")
    }

    /// Whether the table answers targets with the blank on `cell`: those a symmetry of the
    /// board maps onto the table's blank cell.
    #[must_use]
    pub fn covers(&self, cell: usize) -> bool {
        self.symmetry_for(cell).is_some()
    }

    fn symmetry_for(&self, cell: usize) -> Option<&Symmetry> {
        self.symmetries
            .iter()
            .find(|s| cell < self.grid.cells() && usize::from(s.cells[cell]) == self.blank)
    }

    /// The optimal moves from `start` to `target` that are lexicographically smallest among
    /// the optimal ones. Takes microseconds.
    ///
    /// # Errors
    /// [`GridTableError::Shape`] for boards of another shape, [`GridTableError::OtherClass`]
    /// when the target's blank is on a cell the table does not cover, and
    /// [`GridTableError::Unreachable`] when the boards differ in parity.
    pub fn solve(
        &self,
        start: &GridBoard,
        target: &GridBoard,
    ) -> Result<Vec<Move>, GridTableError> {
        let mut moves = Vec::with_capacity(self.radius as usize);
        self.walk(start, target, |mv| moves.push(mv))?;
        Ok(moves)
    }

    /// The optimal distance from `start` to `target`; as [`solve`](Self::solve) without
    /// keeping the moves.
    ///
    /// # Errors
    /// As [`solve`](Self::solve).
    pub fn distance(&self, start: &GridBoard, target: &GridBoard) -> Result<u32, GridTableError> {
        self.walk(start, target, |_| {})
    }

    /// Maps the question into the table's frame and walks the greedy path, telling `step` each
    /// move; returns its length.
    fn walk(
        &self,
        start: &GridBoard,
        target: &GridBoard,
        step: impl FnMut(Move),
    ) -> Result<u32, GridTableError> {
        for board in [start, target] {
            if board.grid() != self.grid {
                return Err(GridTableError::Shape {
                    expected: self.grid,
                    found: board.grid(),
                });
            }
        }
        let cell = target.blank();
        let symmetry = self.symmetry_for(cell).ok_or(GridTableError::OtherClass {
            cell,
            blank: self.blank,
        })?;
        if !start.can_reach(target) {
            return Err(GridTableError::Unreachable);
        }
        // The symmetry moves cell `c` to `σ(c)`; the renaming turns the mapped target into the
        // canonical goal, so a tile on `c` of the target is called `canonical[σ(c)]`.
        let canonical = canonical(self.grid, self.blank);
        let mut rename = [0u8; MAX_CELLS];
        for (c, &tile) in target.cells().iter().enumerate() {
            rename[usize::from(tile)] = canonical[usize::from(symmetry.cells[c])];
        }
        let mut frame = [0u8; MAX_CELLS];
        for (c, &tile) in start.cells().iter().enumerate() {
            frame[usize::from(symmetry.cells[c])] = rename[usize::from(tile)];
        }
        let state = State::pack(&frame[..self.grid.cells()]);
        let moves = symmetry.moves.map(usize::from);
        Ok(by_cells!(self.grid, N => self.greedy::<N>(state, moves, step)))
    }

    /// The entry of the board of rank `rank`: its distance mod 3.
    #[inline]
    fn entry(&self, rank: usize) -> u8 {
        ((self.words[rank / 32] >> (2 * (rank % 32))) & 3) as u8
    }

    /// From `state` (in the table's frame) to the goal, taking at each step the first move (in
    /// the caller's order, which `moves` maps into the frame) whose board is one closer.
    #[inline]
    fn greedy<const N: usize>(
        &self,
        mut state: State,
        moves: [usize; 4],
        mut step: impl FnMut(Move),
    ) -> u32 {
        let goal = self.blank;
        let codec = &self.codec;
        let mut rank = codec.rank::<N>(state);
        let mut value = self.entry(rank);
        // The move that would undo the last one: it leads one farther, never tried.
        let mut back = 4;
        let mut length = 0;
        let unknown = (state, usize::MAX);
        let entry = |(_, r): (State, usize)| if r == usize::MAX { 3 } else { self.entry(r) };
        // Two moves per round: the boards one and two moves on are ranked first and all their
        // entries loaded together, so the processor overlaps the cache misses of both steps.
        while rank != goal {
            let closer = (value + 2) % 3;
            let closer_still = (value + 1) % 3;
            let mut next = [unknown; 4];
            let mut after = [[unknown; 4]; 4];
            for (m, &frame_move) in moves.iter().enumerate() {
                let to = codec.neighbours[state.blank][frame_move];
                if m == back || to == NONE {
                    continue;
                }
                let (child, child_rank) = codec.rank_after::<N>(state, rank, usize::from(to));
                next[m] = (child, child_rank);
                let undo = Move::ALL[m].reverse().index();
                for (m2, &frame_move) in moves.iter().enumerate() {
                    let to = codec.neighbours[child.blank][frame_move];
                    if m2 != undo && to != NONE {
                        after[m][m2] = codec.rank_after::<N>(child, child_rank, usize::from(to));
                    }
                }
            }
            let entries = next.map(entry);
            let later = after.map(|row| row.map(entry));
            let m = (0..4)
                .find(|&m| entries[m] == closer)
                .expect("every board but the goal has a neighbour one move closer");
            step(Move::ALL[m]);
            length += 1;
            if next[m].1 == goal {
                break;
            }
            let m2 = (0..4)
                .find(|&m2| later[m][m2] == closer_still)
                .expect("every board but the goal has a neighbour one move closer");
            step(Move::ALL[m2]);
            length += 1;
            (state, rank) = after[m][m2];
            value = closer_still;
            back = Move::ALL[m2].reverse().index();
            debug_assert!(
                length <= self.radius,
                "a path longer than the table's radius"
            );
        }
        length
    }
}

/// The tables of one shape, one per class of blank cells, each built on first use (or all at once
/// with [`build_all`](Self::build_all), or put in from storage with [`insert`](Self::insert)).
/// The caller owns the set; nothing is kept process-wide.
#[derive(Debug)]
pub struct GridTables {
    grid: Grid,
    threads: usize,
    classes: Vec<usize>,
    symmetries: Vec<Symmetry>,
    tables: Vec<OnceLock<GridTable>>,
}

impl GridTables {
    /// An empty set for `grid`, whose builds use `threads` threads.
    ///
    /// # Errors
    /// [`GridTableError::TooLarge`] beyond [`GridTable::MAX_CELLS`] cells.
    pub fn new(grid: Grid, threads: usize) -> Result<Self, GridTableError> {
        check_cell(grid, 0)?;
        let classes = symmetry::classes(grid);
        Ok(Self {
            grid,
            threads,
            tables: classes.iter().map(|_| OnceLock::new()).collect(),
            classes,
            symmetries: symmetries(grid),
        })
    }

    /// The board shape.
    #[must_use]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The blank cell of each class's table (the smallest cell of the class), in class order:
    /// 3×4: 0, 1, 4, 5 (corner, long edge, short edge, interior).
    #[must_use]
    pub fn classes(&self) -> &[usize] {
        &self.classes
    }

    /// The index of the class of blank cell `cell` in [`classes`](Self::classes).
    fn class_of(&self, cell: usize) -> usize {
        let rep = symmetry::representative(&self.symmetries, cell);
        self.classes
            .iter()
            .position(|&c| c == rep)
            .expect("every cell has a class")
    }

    /// The table for targets with the blank on `cell`, if built.
    #[must_use]
    pub fn get(&self, cell: usize) -> Option<&GridTable> {
        if cell >= self.grid.cells() {
            return None;
        }
        self.tables[self.class_of(cell)].get()
    }

    /// The table for targets with the blank on `cell`, built now (paced by `pace`) if missing;
    /// its progress is that of one table.
    ///
    /// # Errors
    /// [`GridTableError::NoSuchCell`] for a cell off the board.
    pub fn table(&self, cell: usize, pace: &dyn Pace) -> Result<&GridTable, GridTableError> {
        self.table_of(cell, pace, 0, 1)
    }

    /// [`table`](Self::table), its progress told as table `database` of `databases`.
    fn table_of(
        &self,
        cell: usize,
        pace: &dyn Pace,
        database: usize,
        databases: usize,
    ) -> Result<&GridTable, GridTableError> {
        check_cell(self.grid, cell)?;
        let class = self.class_of(cell);
        Ok(self.tables[class].get_or_init(|| {
            let stage = Stage {
                inner: pace,
                database,
                databases,
            };
            GridTable::build(self.grid, self.classes[class], self.threads, &stage)
                .expect("checked above")
        }))
    }

    /// Builds every missing table, one after the other; progress counts the tables built.
    pub fn build_all(&self, pace: &dyn Pace) {
        let missing: Vec<usize> = self
            .classes
            .iter()
            .copied()
            .filter(|&cell| self.get(cell).is_none())
            .collect();
        for (database, &cell) in missing.iter().enumerate() {
            self.table_of(cell, pace, database, missing.len())
                .expect("a class's cell is on the board");
        }
    }

    /// Puts in a table (read from storage, say). Returns it back when the set already has its
    /// class's table, or when it is of another shape or not for a class's own blank cell.
    ///
    /// # Errors
    /// The table itself, refused.
    pub fn insert(&self, table: GridTable) -> Result<(), Box<GridTable>> {
        if table.grid != self.grid || !self.classes.contains(&table.blank) {
            return Err(Box::new(table));
        }
        self.tables[self.class_of(table.blank)]
            .set(table)
            .map_err(Box::new)
    }

    /// Whether every class's table is built.
    #[must_use]
    pub fn is_ready(&self) -> bool {
        self.tables.iter().all(|t| t.get().is_some())
    }

    /// As [`GridTable::solve`], with the table of the target's blank cell (built first if
    /// missing, paced by `pace`).
    ///
    /// # Errors
    /// [`GridTableError::Shape`] and [`GridTableError::Unreachable`].
    pub fn solve(
        &self,
        start: &GridBoard,
        target: &GridBoard,
        pace: &dyn Pace,
    ) -> Result<Vec<Move>, GridTableError> {
        self.for_target(target, pace)?.solve(start, target)
    }

    /// As [`GridTable::distance`], with the table of the target's blank cell (built first if
    /// missing, paced by `pace`).
    ///
    /// # Errors
    /// As [`solve`](Self::solve).
    pub fn distance(
        &self,
        start: &GridBoard,
        target: &GridBoard,
        pace: &dyn Pace,
    ) -> Result<u32, GridTableError> {
        self.for_target(target, pace)?.distance(start, target)
    }

    fn for_target(
        &self,
        target: &GridBoard,
        pace: &dyn Pace,
    ) -> Result<&GridTable, GridTableError> {
        if target.grid() != self.grid {
            return Err(GridTableError::Shape {
                expected: self.grid,
                found: target.grid(),
            });
        }
        self.table(target.blank(), pace)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::pace::{Progress, Turn, Unpaced};

    /// Records the (table, tables) of every layer reported.
    #[derive(Default)]
    struct Record(Mutex<Vec<(usize, usize)>>);

    impl Pace for Record {
        fn enter(&self) -> Box<dyn Turn + '_> {
            Unpaced.enter()
        }

        fn layer_done(&self, p: Progress) {
            self.0.lock().unwrap().push((p.database, p.databases));
        }
    }

    /// One table's build says "table 1 of 1" (it said "1 of" every class); building them all
    /// counts the ones built.
    #[test]
    fn progress_counts_the_tables_built() {
        let grid = Grid::new(2, 3).unwrap();
        let one = Record::default();
        GridTables::new(grid, 1).unwrap().table(5, &one).unwrap();
        assert!(one.0.lock().unwrap().iter().all(|&t| t == (0, 1)));
        let tables = GridTables::new(grid, 1).unwrap();
        tables.table(5, &Unpaced).unwrap();
        let rest = Record::default();
        tables.build_all(&rest);
        let seen = rest.0.into_inner().unwrap();
        let missing = tables.classes().len() - 1;
        assert!(missing >= 1, "2x3 has more than one class of blank cell");
        assert!(seen.iter().all(|&(_, of)| of == missing), "{seen:?}");
        let mut indices: Vec<usize> = seen.iter().map(|&(i, _)| i).collect();
        indices.dedup();
        assert_eq!(indices, (0..missing).collect::<Vec<_>>());
    }
}
