//! The heuristic of a search, kept up to date move by move: a move moves one tile, so only its
//! pattern's index changes (by a precomputed step) and only that pattern's table is read, once
//! per sum (the board's and its mirror image's, for each partition of the set). The tables are
//! far larger than the caches, so a search asks for its children's entries as it enters a node
//! (`Lookup::prefetch`): on the 24-puzzle that made one thread about 9 % faster (median of
//! five runs of `korf24 --optimal --threads 1 38 40 25`).
//!
//! The hot path does as little as it can: the cells a table's tiles occupy, which only a
//! zero-aware entry whose big region adds something needs (about one read in fifty), are
//! found then from each tile's cell rather than kept up to date at every move, and the flood
//! fill is out of line. With the loops for two sums unrolled, that took the 24-puzzle's search
//! from 365 instructions a node to 321 (`valgrind --tool=cachegrind`, #38, one thread).

use super::GridDatabases;
use super::regions::Regions;
use crate::prefetch::prefetch;
use crate::tiles::grid::Grid;
use crate::tiles::grid_board::GridBoard;
use crate::tiles::moves::Move;

/// The most tables a lookup reads (one per tile of an 8×8 board, or several partitions').
pub(crate) const MAX_TABLES: usize = 64;

/// The most sums a lookup keeps: one per partition, two where reflection applies.
pub(crate) const MAX_SUMS: usize = 8;

/// Per-search state of an additive heuristic towards one target: one sum per partition of the
/// set and, where reflection applies, one more per partition for the board's mirror image (each
/// tile renamed to the one whose target cell mirrors its own); the heuristic is the largest.
#[derive(Debug, Clone)]
pub(crate) struct Lookup {
    /// How many sums are kept.
    sums: usize,
    /// Table (counted over the whole set) of each tile (the board's numbering) in each sum; the
    /// blank's unused.
    pattern: [[u8; MAX_SUMS]; 64],
    /// How each tile's table index changes when the blank makes move `m` onto the tile (the
    /// tile then steps the opposite way), in each sum; wrapping arithmetic.
    step: [[[usize; MAX_SUMS]; 4]; 64],
    /// Each table's current index among all the set's entries (its start plus its sparse
    /// index), and its value, per sum (a sum reads only its partition's).
    index: [[usize; MAX_TABLES]; MAX_SUMS],
    value: [[u8; MAX_TABLES]; MAX_SUMS],
    /// The tiles (the board's numbering) of each table, as each sum groups them: the cells
    /// they occupy are needed only for an entry whose big region adds something, rarely.
    members: [[u64; MAX_TABLES]; MAX_SUMS],
    /// The cell of each tile.
    at: [u8; 64],
    /// The cell each sum sees for each cell (mirrored where it reads the mirror image).
    view: [[u8; 64]; MAX_SUMS],
    regions: Regions,
    /// The sums of the values.
    sum: [u32; MAX_SUMS],
    /// The values replaced by each move entered and not yet left, per sum.
    undo: Vec<[u8; MAX_SUMS]>,
}

/// A move as the lookup needs it: the blank's move `mv` (index in [`Move::ALL`]) from `from`
/// onto `tile` on `to`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Moved {
    pub(crate) tile: u8,
    pub(crate) from: usize,
    pub(crate) to: usize,
    pub(crate) mv: usize,
}

/// Each sum of a set: the first table of its partition, the partition, and whether it reads
/// the mirror image.
fn sums(dbs: &GridDatabases) -> Vec<(usize, &super::Partition, bool)> {
    let partitions = dbs.partitions();
    dbs.readings()
        .iter()
        .map(|reading| {
            let first = partitions[..reading.partition]
                .iter()
                .map(|p| p.patterns().len())
                .sum();
            (first, &partitions[reading.partition], reading.mirrored)
        })
        .collect()
}

/// Table (counted over the whole set from `first`) and slot weight of each target cell in
/// `partition`.
fn cell_tables(partition: &super::Partition, first: usize) -> ([u8; 64], [usize; 64]) {
    let n = partition.grid().cells();
    let mut cell_table = [0u8; 64];
    let mut cell_weight = [0usize; 64];
    for (p, group) in partition.patterns().iter().enumerate() {
        for (slot, &cell) in group.iter().enumerate() {
            cell_table[cell as usize] = (first + p) as u8;
            cell_weight[cell as usize] = n.pow(slot as u32);
        }
    }
    (cell_table, cell_weight)
}

/// The cell mirroring `cell` about the main diagonal of a square board.
fn mirror(grid: Grid, cell: usize) -> usize {
    (cell % grid.cols()) * grid.cols() + cell / grid.cols()
}

/// How a cell's index changes when a tile steps against the blank's move `mv`, `cols` wide.
fn tile_step(mv: Move, cols: usize) -> isize {
    match mv {
        Move::Down => -(cols as isize),
        Move::Left => 1,
        Move::Right => -1,
        Move::Up => cols as isize,
    }
}

/// The move mirroring `mv` about the main diagonal.
fn mirror_move(mv: Move) -> Move {
    match mv {
        Move::Down => Move::Right,
        Move::Right => Move::Down,
        Move::Left => Move::Up,
        Move::Up => Move::Left,
    }
}

impl Lookup {
    /// The heuristic state of the board `cells` towards `target`, or `None` when `dbs` does not
    /// fit `target`.
    pub(crate) fn new(dbs: &GridDatabases, target: &GridBoard, cells: &[u8]) -> Option<Self> {
        if !dbs.fits(target) || cells.len() != target.cells().len() {
            return None;
        }
        let grid = dbs.partition().grid();
        let n = grid.cells();
        let cols = grid.cols();
        let mut home = [0usize; 64];
        for (cell, &tile) in target.cells().iter().enumerate() {
            home[tile as usize] = cell;
        }
        let sums = sums(dbs);
        let blank = cells.iter().position(|&t| t == 0)?;
        let mut lookup = Self {
            sums: sums.len(),
            pattern: [[0; MAX_SUMS]; 64],
            step: [[[0; MAX_SUMS]; 4]; 64],
            index: [[0; MAX_TABLES]; MAX_SUMS],
            value: [[0; MAX_TABLES]; MAX_SUMS],
            members: [[0; MAX_TABLES]; MAX_SUMS],
            at: [0; 64],
            view: [[0; 64]; MAX_SUMS],
            regions: Regions::new(grid),
            sum: [0; MAX_SUMS],
            undo: Vec::with_capacity(256),
        };
        let tables = dbs.tables();
        for (s, &(first, partition, mirrored)) in sums.iter().enumerate() {
            let (cell_table, cell_weight) = cell_tables(partition, first);
            // A mirrored sum sees each tile as the one whose home mirrors its home, on mirrored
            // cells, moving the mirrored way.
            let seen = |cell: usize| if mirrored { mirror(grid, cell) } else { cell };
            for cell in 0..n {
                lookup.view[s][cell] = seen(cell) as u8;
            }
            for (tile, &at) in home.iter().enumerate().take(n).skip(1) {
                let h = seen(at);
                lookup.pattern[tile][s] = cell_table[h];
                for mv in Move::ALL {
                    let moved = if mirrored { mirror_move(mv) } else { mv };
                    let step = tile_step(moved, cols) * cell_weight[h] as isize;
                    lookup.step[tile][mv.index()][s] = step as usize;
                }
            }
            for (cell, &tile) in cells.iter().enumerate() {
                lookup.at[tile as usize] = cell as u8;
                if tile != 0 {
                    let h = seen(home[tile as usize]);
                    let t = cell_table[h] as usize;
                    lookup.index[s][t] += seen(cell) * cell_weight[h];
                    lookup.members[s][t] |= 1 << tile;
                }
            }
            for t in first..first + partition.patterns().len() {
                lookup.index[s][t] += tables.start(t);
                let entry = tables.all()[lookup.index[s][t]];
                let value = lookup.regions.value(entry, seen(blank) as u32, || {
                    lookup.occupied(s, t, &lookup.at)
                });
                lookup.value[s][t] = value;
                lookup.sum[s] += u32::from(value);
            }
        }
        Some(lookup)
    }

    /// The cells the tiles of table `p` occupy with each tile on `at[tile]`, as sum `s` sees
    /// them.
    fn occupied(&self, s: usize, p: usize, at: &[u8; 64]) -> u64 {
        let mut tiles = self.members[s][p];
        let mut cells = 0u64;
        while tiles != 0 {
            let tile = tiles.trailing_zeros() as usize;
            cells |= 1 << self.view[s][usize::from(at[tile])];
            tiles &= tiles - 1;
        }
        cells
    }

    /// How many sums it keeps: one table read each for a move.
    pub(crate) fn sums(&self) -> usize {
        self.sums
    }

    /// The heuristic's value.
    #[inline]
    pub(crate) fn value(&self) -> u32 {
        self.sum[..self.sums].iter().copied().max().unwrap_or(0)
    }

    /// The value after the blank's move `mv` from `from` onto `tile` on `to`. When it is at
    /// most `limit` the state moves on to that board and `Ok(value)` is returned; otherwise
    /// nothing changes and `Err(lower)` gives a lower bound on the value above `limit` (the
    /// first sum above `limit`: the sums after it are not read).
    #[inline]
    pub(crate) fn enter(
        &mut self,
        dbs: &GridDatabases,
        moved: Moved,
        limit: u32,
    ) -> Result<u32, u32> {
        // The counts get loops the compiler unrolls; the usual one (a partition and its
        // reflection) is inlined into the search.
        if self.sums == 2 {
            self.enter_sums::<2>(dbs, moved, limit)
        } else {
            self.enter_other(dbs, moved, limit)
        }
    }

    #[inline(never)]
    fn enter_other(&mut self, dbs: &GridDatabases, moved: Moved, limit: u32) -> Result<u32, u32> {
        match self.sums {
            1 => self.enter_sums::<1>(dbs, moved, limit),
            3 => self.enter_sums::<3>(dbs, moved, limit),
            4 => self.enter_sums::<4>(dbs, moved, limit),
            6 => self.enter_sums::<6>(dbs, moved, limit),
            _ => self.enter_sums::<MAX_SUMS>(dbs, moved, limit),
        }
    }

    /// [`enter`](Self::enter) with the first `S` sums (the others are 0 and never change).
    #[inline(always)]
    fn enter_sums<const S: usize>(
        &mut self,
        dbs: &GridDatabases,
        Moved { tile, from, to, mv }: Moved,
        limit: u32,
    ) -> Result<u32, u32> {
        let entries = dbs.tables().all();
        let t = tile as usize;
        let pattern = &self.pattern[t];
        let step = &self.step[t][mv];
        let mut index = [0usize; S];
        let mut value = [0u8; S];
        let mut sum = [0u32; S];
        let mut h = 0;
        for s in 0..S {
            let p = pattern[s] as usize;
            index[s] = self.index[s][p].wrapping_add(step[s]);
            let entry = entries[index[s]];
            // The tile leaves `to` for `from`; the blank is then on `to`.
            value[s] = self.regions.value(entry, u32::from(self.view[s][to]), || {
                self.occupied(s, p, &self.at) ^ (1 << self.view[s][to]) ^ (1 << self.view[s][from])
            });
            sum[s] = self.sum[s] - u32::from(self.value[s][p]) + u32::from(value[s]);
            if sum[s] > limit {
                return Err(sum[s]);
            }
            h = h.max(sum[s]);
        }
        let mut old = [0u8; MAX_SUMS];
        for s in 0..S {
            let p = pattern[s] as usize;
            old[s] = self.value[s][p];
            self.index[s][p] = index[s];
            self.value[s][p] = value[s];
            self.sum[s] = sum[s];
        }
        self.at[t] = from as u8;
        self.undo.push(old);
        Ok(h)
    }

    /// Asks the memory for the table entries [`enter`](Self::enter)ing the blank's move `mv`
    /// onto `tile` will read.
    #[inline]
    pub(crate) fn prefetch(&self, dbs: &GridDatabases, tile: u8, mv: usize) {
        if self.sums == 2 {
            self.prefetch_sums::<2>(dbs, tile, mv);
        } else {
            self.prefetch_sums::<MAX_SUMS>(dbs, tile, mv);
        }
    }

    #[inline(always)]
    fn prefetch_sums<const S: usize>(&self, dbs: &GridDatabases, tile: u8, mv: usize) {
        let entries = dbs.tables().all().as_ptr();
        let t = tile as usize;
        for s in 0..S.min(self.sums) {
            let p = self.pattern[t][s] as usize;
            let i = self.index[s][p].wrapping_add(self.step[t][mv][s]);
            prefetch(entries.wrapping_add(i));
        }
    }

    /// Undoes the last move [`enter`](Self::enter)ed.
    #[inline]
    pub(crate) fn leave(&mut self, moved: Moved) {
        if self.sums == 2 {
            self.leave_sums::<2>(moved);
        } else {
            self.leave_other(moved);
        }
    }

    #[inline(never)]
    fn leave_other(&mut self, moved: Moved) {
        match self.sums {
            1 => self.leave_sums::<1>(moved),
            3 => self.leave_sums::<3>(moved),
            4 => self.leave_sums::<4>(moved),
            6 => self.leave_sums::<6>(moved),
            _ => self.leave_sums::<MAX_SUMS>(moved),
        }
    }

    #[inline(always)]
    fn leave_sums<const S: usize>(&mut self, Moved { tile, to, mv, .. }: Moved) {
        let old = self.undo.pop().expect("a move to leave");
        let t = tile as usize;
        self.at[t] = to as u8;
        for (s, &was) in old.iter().enumerate().take(S) {
            let p = self.pattern[t][s] as usize;
            self.index[s][p] = self.index[s][p].wrapping_sub(self.step[t][mv][s]);
            self.sum[s] = self.sum[s] - u32::from(self.value[s][p]) + u32::from(was);
            self.value[s][p] = was;
        }
    }
}

/// The heuristic of whole boards towards one target, for searches that evaluate boards one by
/// one (weighted A*): each table's tiles and slot weights precomputed per sum, every table read.
#[derive(Debug, Clone)]
pub(crate) struct Evaluator {
    /// Per sum: its tables, as a range of `groups`.
    sums: Vec<std::ops::Range<usize>>,
    groups: Vec<Group>,
    /// The cell each sum sees for each cell (mirrored where the sum reads the mirror image).
    seen: [[u8; 64]; MAX_SUMS],
    /// Per sum and tile: the group that places it (`u16::MAX` for none) and its slot's weight,
    /// so that a move changes one index per sum ([`Evaluator::step`]).
    placed: [[(u16, usize); 64]; MAX_SUMS],
    regions: Regions,
}

/// What [`Evaluator::value_of`] reads for one board, worked out once: each group's entry
/// among the set's, and each sum's blank cell as that sum sees it. A weighted A* works them out
/// in full for the board it expands and by the moved tile alone for each child
/// ([`Evaluator::step`]), where it used to work out every index twice per child (to ask the
/// memory for the entries, then to read them).
#[derive(Debug, Clone, Default)]
pub(crate) struct Reads {
    index: Vec<usize>,
    blank: [u8; MAX_SUMS],
}

/// One table of one sum: where its entries start among the set's, and the tiles it places,
/// each with its slot's weight in the index.
#[derive(Debug, Clone)]
struct Group {
    start: usize,
    tiles: Vec<(u8, usize)>,
}

impl Group {
    /// The entry's index among the set's, with each tile on cell `at[tile]` as the sum sees
    /// it.
    #[inline]
    fn index(&self, seen: &[u8; 64], at: &[u8; 64]) -> usize {
        self.tiles
            .iter()
            .fold(self.start, |index, &(tile, weight)| {
                index + usize::from(seen[usize::from(at[usize::from(tile)])]) * weight
            })
    }

    /// The cells its tiles occupy (needed only where an entry's big region adds something).
    fn occupied(&self, seen: &[u8; 64], at: &[u8; 64]) -> u64 {
        self.tiles.iter().fold(0, |cells, &(tile, _)| {
            cells | 1 << seen[usize::from(at[usize::from(tile)])]
        })
    }
}

impl Evaluator {
    /// The heuristic towards `target`, or `None` when `dbs` does not fit it.
    pub(crate) fn new(dbs: &GridDatabases, target: &GridBoard) -> Option<Self> {
        if !dbs.fits(target) {
            return None;
        }
        let grid = dbs.partition().grid();
        let mut evaluator = Self {
            sums: Vec::new(),
            groups: Vec::new(),
            seen: [[0; 64]; MAX_SUMS],
            placed: [[(u16::MAX, 0); 64]; MAX_SUMS],
            regions: Regions::new(grid),
        };
        for (s, (first, partition, mirrored)) in sums(dbs).into_iter().enumerate() {
            let (cell_table, cell_weight) = cell_tables(partition, first);
            let groups = evaluator.groups.len();
            evaluator
                .groups
                .extend((0..partition.patterns().len()).map(|p| Group {
                    start: dbs.tables().start(first + p),
                    tiles: Vec::new(),
                }));
            for cell in 0..grid.cells() {
                let seen = if mirrored { mirror(grid, cell) } else { cell };
                evaluator.seen[s][cell] = seen as u8;
                let tile = target.cells()[cell];
                if tile != 0 {
                    let group = groups + usize::from(cell_table[seen]) - first;
                    evaluator.groups[group]
                        .tiles
                        .push((tile, cell_weight[seen]));
                    evaluator.placed[s][usize::from(tile)] = (
                        u16::try_from(group).expect("fewer than 2^16 tables"),
                        cell_weight[seen],
                    );
                }
            }
            evaluator.sums.push(groups..evaluator.groups.len());
        }
        Some(evaluator)
    }

    /// The cell of each tile of the board `cells`.
    #[inline]
    fn places(cells: &[u8]) -> [u8; 64] {
        let mut at = [0u8; 64];
        for (cell, &tile) in cells.iter().enumerate() {
            at[usize::from(tile)] = cell as u8;
        }
        at
    }

    /// The heuristic of the board `cells`.
    pub(crate) fn value(&self, dbs: &GridDatabases, cells: &[u8]) -> u32 {
        let mut reads = Reads::default();
        self.read(cells, &mut reads);
        self.value_of(dbs, &reads, cells)
    }

    /// Works out what [`value_of`](Self::value_of) reads for the board `cells`, into `reads`.
    pub(crate) fn read(&self, cells: &[u8], reads: &mut Reads) {
        let at = Self::places(cells);
        reads.index.clear();
        for (s, (groups, seen)) in self.sums.iter().zip(&self.seen).enumerate() {
            reads.blank[s] = seen[usize::from(at[0])];
            reads.index.extend(
                self.groups[groups.clone()]
                    .iter()
                    .map(|g| g.index(seen, &at)),
            );
        }
    }

    /// Works out `child`'s reads from its parent's: the parent with `tile` moved from cell
    /// `from` to cell `to` (the blank's cell), so the blank now on `from`.
    #[inline]
    pub(crate) fn step(&self, parent: &Reads, child: &mut Reads, tile: u8, from: usize, to: usize) {
        child.index.clone_from(&parent.index);
        for (s, seen) in self.seen.iter().enumerate().take(self.sums.len()) {
            child.blank[s] = seen[from];
            let (group, weight) = self.placed[s][usize::from(tile)];
            if let Some(index) = child.index.get_mut(usize::from(group)) {
                *index =
                    (*index + usize::from(seen[to]) * weight) - usize::from(seen[from]) * weight;
            }
        }
    }

    /// The heuristic of the board `cells`, whose reads are `reads`.
    pub(crate) fn value_of(&self, dbs: &GridDatabases, reads: &Reads, cells: &[u8]) -> u32 {
        let entries = dbs.tables().all();
        // The cells a group's tiles occupy matter only where an entry's big region adds
        // something (about one read in fifty): the tiles' places are found only then.
        let at = std::cell::OnceCell::new();
        self.sums
            .iter()
            .zip(&self.seen)
            .enumerate()
            .map(|(s, (groups, seen))| {
                let blank = u32::from(reads.blank[s]);
                self.groups[groups.clone()]
                    .iter()
                    .zip(&reads.index[groups.clone()])
                    .map(|(group, &index)| {
                        let occupied =
                            || group.occupied(seen, at.get_or_init(|| Self::places(cells)));
                        u32::from(self.regions.value(entries[index], blank, occupied))
                    })
                    .sum::<u32>()
            })
            .max()
            .unwrap_or(0)
    }

    /// Asks the memory for the table entries of `reads`, so that a search can start the misses
    /// of several boards before it reads any.
    pub(crate) fn prefetch(&self, dbs: &GridDatabases, reads: &Reads) {
        let entries = dbs.tables().all().as_ptr();
        for &index in &reads.index {
            prefetch(entries.wrapping_add(index));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Unpaced;
    use crate::tiles::grid_pdb::Partition;

    /// A random arrangement of the cells' values `0..n`, from `state` (xorshift).
    fn shuffled(n: usize, state: &mut u64) -> Vec<u8> {
        let mut cells: Vec<u8> = (0..n as u8).collect();
        for i in (1..n).rev() {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            cells.swap(i, (*state % (i as u64 + 1)) as usize);
        }
        cells
    }

    /// The whole-board evaluator (weighted A*) and the move-by-move lookup (IDA*, built afresh
    /// for each board here) are two readings of one heuristic: they agree on every board, with
    /// and without reflection, towards targets with the blank anywhere the set allows.
    #[test]
    fn the_evaluator_and_the_lookup_agree_and_a_move_steps_the_reads() {
        let sets: [(usize, usize, usize, Vec<Vec<u8>>); 4] = [
            (3, 3, 8, vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]),
            (3, 3, 4, vec![vec![0, 1, 3], vec![2, 5, 8], vec![6, 7]]),
            (2, 4, 7, vec![vec![0, 1, 2], vec![3, 4, 5, 6]]),
            (
                3,
                4,
                0,
                vec![vec![1, 2, 3, 5], vec![4, 6, 7], vec![8, 9, 10, 11]],
            ),
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for (rows, cols, blank, patterns) in sets {
            let grid = Grid::new(rows, cols).unwrap();
            let partition = Partition::new(grid, blank, patterns).unwrap();
            let set = GridDatabases::build(partition, 1, &Unpaced);
            for _ in 0..5 {
                // A target with the blank on the set's blank cell and the tiles anywhere.
                let mut target = shuffled(grid.cells(), &mut state);
                let at = target.iter().position(|&t| t == 0).unwrap();
                target.swap(at, blank);
                let target = GridBoard::new(grid, &target).unwrap();
                let evaluator = Evaluator::new(&set, &target).unwrap();
                for _ in 0..100 {
                    let cells = shuffled(grid.cells(), &mut state);
                    let lookup = Lookup::new(&set, &target, &cells).unwrap();
                    assert_eq!(
                        evaluator.value(&set, &cells),
                        lookup.value(),
                        "{grid}, target {:?}, board {cells:?}",
                        target.cells()
                    );
                    // A child's reads worked out from its parent's by the moved tile are the
                    // ones worked out afresh, and give the same value.
                    let mut parent = Reads::default();
                    evaluator.read(&cells, &mut parent);
                    let blank = cells.iter().position(|&t| t == 0).unwrap();
                    for next in grid.neighbour_table()[blank] {
                        if next == Grid::EDGE {
                            continue;
                        }
                        let mut child = cells.clone();
                        child.swap(blank, usize::from(next));
                        let (mut stepped, mut fresh) = (Reads::default(), Reads::default());
                        evaluator.step(&parent, &mut stepped, child[blank], next.into(), blank);
                        evaluator.read(&child, &mut fresh);
                        assert_eq!(
                            (&stepped.index, &stepped.blank),
                            (&fresh.index, &fresh.blank),
                            "{grid}, board {cells:?}, child {child:?}"
                        );
                        assert_eq!(
                            evaluator.value_of(&set, &stepped, &child),
                            Lookup::new(&set, &target, &child).unwrap().value()
                        );
                    }
                }
            }
        }
    }
}
