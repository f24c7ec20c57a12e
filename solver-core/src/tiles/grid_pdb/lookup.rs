//! The heuristic of a search, kept up to date move by move: a move moves one tile, so only its
//! pattern's index changes (by a precomputed step) and only that pattern's table is read, once
//! for the board and once for its mirror image.

use super::GridDatabases;
use crate::tiles::grid::Grid;
use crate::tiles::grid_board::GridBoard;
use crate::tiles::moves::Move;

/// The most patterns a set may have (one per tile of an 8×8 board).
const MAX_PATTERNS: usize = 64;

/// Per-search state of an additive heuristic towards one target: side 0 reads the board, side 1
/// (when reflection applies) its mirror image, with each tile renamed to the one whose target
/// cell mirrors its own.
#[derive(Debug, Clone)]
pub(crate) struct Lookup {
    /// Whether side 1 is read.
    reflect: bool,
    /// Pattern of each tile (the board's numbering) on each side; the blank's unused.
    pattern: [[u8; 2]; 64],
    /// How each tile's pattern index changes when the blank makes move `m` onto the tile (the
    /// tile then steps the opposite way), on each side; wrapping arithmetic.
    step: [[[usize; 2]; 4]; 64],
    /// Each pattern's current index and table value, per side.
    index: [[usize; MAX_PATTERNS]; 2],
    value: [[u8; MAX_PATTERNS]; 2],
    /// The sums of the values, per side.
    sum: [u32; 2],
    /// The values replaced by each move entered and not yet left.
    undo: Vec<[u8; 2]>,
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
        let partition = dbs.partition();
        let grid = partition.grid();
        let n = grid.cells();
        let reflect = partition.reflects();
        // Pattern and slot weight of each target cell.
        let mut cell_pattern = [0u8; 64];
        let mut cell_weight = [0usize; 64];
        for (p, group) in partition.patterns().iter().enumerate() {
            for (slot, &cell) in group.iter().enumerate() {
                cell_pattern[cell as usize] = p as u8;
                cell_weight[cell as usize] = n.pow(slot as u32);
            }
        }
        let mut home = [0usize; 64];
        for (cell, &tile) in target.cells().iter().enumerate() {
            home[tile as usize] = cell;
        }
        let mut lookup = Self {
            reflect,
            pattern: [[0; 2]; 64],
            step: [[[0; 2]; 4]; 64],
            index: [[0; MAX_PATTERNS]; 2],
            value: [[0; MAX_PATTERNS]; 2],
            sum: [0; 2],
            undo: Vec::with_capacity(256),
        };
        let cols = grid.cols();
        for (tile, &at) in home.iter().enumerate().take(n).skip(1) {
            // Side 1 sees this tile as the one whose home mirrors its home, on mirrored cells.
            let homes = [at, mirror(grid, at)];
            for (side, &h) in homes.iter().enumerate().take(1 + usize::from(reflect)) {
                lookup.pattern[tile][side] = cell_pattern[h];
                for mv in Move::ALL {
                    let seen = if side == 0 { mv } else { mirror_move(mv) };
                    let step = tile_step(seen, cols) * cell_weight[h] as isize;
                    lookup.step[tile][mv.index()][side] = step as usize;
                }
            }
        }
        for (cell, &tile) in cells.iter().enumerate() {
            if tile == 0 {
                continue;
            }
            let h = home[tile as usize];
            let p = cell_pattern[h] as usize;
            lookup.index[0][p] += cell * cell_weight[h];
            if reflect {
                let (mh, mc) = (mirror(grid, h), mirror(grid, cell));
                lookup.index[1][cell_pattern[mh] as usize] += mc * cell_weight[mh];
            }
        }
        let tables = dbs.tables();
        for side in 0..1 + usize::from(reflect) {
            for (p, table) in tables.iter().enumerate() {
                let value = table[lookup.index[side][p]];
                lookup.value[side][p] = value;
                lookup.sum[side] += u32::from(value);
            }
        }
        Some(lookup)
    }

    /// The heuristic's value.
    #[inline]
    pub(crate) fn value(&self) -> u32 {
        self.sum[0].max(self.sum[1])
    }

    /// The value after the blank's move `mv` onto `tile`. When it is at most `limit` the state
    /// moves on to that board and `Ok(value)` is returned; otherwise nothing changes and
    /// `Err(lower)` gives a lower bound on the value above `limit` (the mirror image is not read
    /// when the board alone exceeds `limit`).
    #[inline]
    pub(crate) fn enter(
        &mut self,
        dbs: &GridDatabases,
        tile: u8,
        mv: usize,
        limit: u32,
    ) -> Result<u32, u32> {
        let tables = dbs.tables();
        let t = tile as usize;
        let [p0, p1] = self.pattern[t];
        let [s0, s1] = self.step[t][mv];
        let (p0, p1) = (p0 as usize, p1 as usize);
        let i0 = self.index[0][p0].wrapping_add(s0);
        let (old0, v0) = (self.value[0][p0], tables[p0][i0]);
        let h0 = self.sum[0] - u32::from(old0) + u32::from(v0);
        if h0 > limit {
            return Err(h0);
        }
        let mut h = h0;
        let mut old1 = 0;
        if self.reflect {
            let i1 = self.index[1][p1].wrapping_add(s1);
            let v1 = tables[p1][i1];
            old1 = self.value[1][p1];
            let h1 = self.sum[1] - u32::from(old1) + u32::from(v1);
            h = h.max(h1);
            if h > limit {
                return Err(h);
            }
            self.index[1][p1] = i1;
            self.value[1][p1] = v1;
            self.sum[1] = h1;
        }
        self.index[0][p0] = i0;
        self.value[0][p0] = v0;
        self.sum[0] = h0;
        self.undo.push([old0, old1]);
        Ok(h)
    }

    /// Undoes the last move [`enter`](Self::enter)ed: the blank's move `mv` onto `tile`.
    #[inline]
    pub(crate) fn leave(&mut self, tile: u8, mv: usize) {
        let [old0, old1] = self.undo.pop().expect("a move to leave");
        let t = tile as usize;
        let [p0, p1] = self.pattern[t];
        let [s0, s1] = self.step[t][mv];
        let (p0, p1) = (p0 as usize, p1 as usize);
        self.index[0][p0] = self.index[0][p0].wrapping_sub(s0);
        self.sum[0] = self.sum[0] - u32::from(self.value[0][p0]) + u32::from(old0);
        self.value[0][p0] = old0;
        if self.reflect {
            self.index[1][p1] = self.index[1][p1].wrapping_sub(s1);
            self.sum[1] = self.sum[1] - u32::from(self.value[1][p1]) + u32::from(old1);
            self.value[1][p1] = old1;
        }
    }
}

/// The heuristic of whole boards towards one target, for searches that evaluate boards one by
/// one (weighted A*): the tiles' patterns and slot weights precomputed, every table read.
#[derive(Debug, Clone)]
pub(crate) struct Evaluator {
    reflect: bool,
    patterns: usize,
    /// Per tile and side: its pattern and its slot's weight.
    pattern: [[u8; 2]; 64],
    weight: [[usize; 2]; 64],
    /// The cell mirroring each cell (square boards).
    mirror: [u8; 64],
}

impl Evaluator {
    /// The heuristic towards `target`, or `None` when `dbs` does not fit it.
    pub(crate) fn new(dbs: &GridDatabases, target: &GridBoard) -> Option<Self> {
        if !dbs.fits(target) {
            return None;
        }
        let partition = dbs.partition();
        let grid = partition.grid();
        let n = grid.cells();
        let mut cell_pattern = [0u8; 64];
        let mut cell_weight = [0usize; 64];
        for (p, group) in partition.patterns().iter().enumerate() {
            for (slot, &cell) in group.iter().enumerate() {
                cell_pattern[cell as usize] = p as u8;
                cell_weight[cell as usize] = n.pow(slot as u32);
            }
        }
        let reflect = partition.reflects();
        let mut evaluator = Self {
            reflect,
            patterns: partition.patterns().len(),
            pattern: [[0; 2]; 64],
            weight: [[0; 2]; 64],
            mirror: [0; 64],
        };
        for cell in 0..n {
            if reflect {
                evaluator.mirror[cell] = mirror(grid, cell) as u8;
            }
            let tile = target.cells()[cell] as usize;
            let homes = [cell, if reflect { mirror(grid, cell) } else { cell }];
            for (side, &h) in homes.iter().enumerate() {
                evaluator.pattern[tile][side] = cell_pattern[h];
                evaluator.weight[tile][side] = cell_weight[h];
            }
        }
        Some(evaluator)
    }

    /// The heuristic of the board `cells`.
    pub(crate) fn value(&self, dbs: &GridDatabases, cells: &[u8]) -> u32 {
        let mut index = [[0usize; MAX_PATTERNS]; 2];
        for (cell, &tile) in cells.iter().enumerate() {
            if tile != 0 {
                let (t, m) = (tile as usize, self.mirror[cell] as usize);
                index[0][self.pattern[t][0] as usize] += cell * self.weight[t][0];
                index[1][self.pattern[t][1] as usize] += m * self.weight[t][1];
            }
        }
        let tables = dbs.tables();
        let sum = |side: usize| -> u32 {
            (0..self.patterns)
                .map(|p| u32::from(tables[p][index[side][p]]))
                .sum()
        };
        if self.reflect {
            sum(0).max(sum(1))
        } else {
            sum(0)
        }
    }
}
