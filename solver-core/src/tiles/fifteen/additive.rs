//! The heuristic: the sum of disjoint pattern databases, read for the board and, when the goal
//! is symmetric about the main diagonal, for its mirror image too, the larger sum winning.

use crate::tiles::board::Board4;
use crate::tiles::ida::Heuristic;
use crate::tiles::pdb::Pdb;

/// Sum of disjoint pattern databases, maxed with the same sum on the reflected board when the
/// goal is symmetric about the main diagonal.
#[derive(Debug)]
pub(super) struct Additive {
    pub(super) pdbs: Vec<Pdb>,
    /// For a symmetric goal: the tile whose goal cell mirrors tile `t`'s (the blank stays the
    /// blank).
    mirror_tile: Option<[u8; 16]>,
    /// Pattern and slot of each tile (index 0, the blank, unused).
    pattern_of: [u8; 16],
    slot_of: [u8; 16],
}

/// Reflection about the main diagonal: cell (r, c) ↔ (c, r).
const MIRROR_CELL: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut c = 0;
    while c < 16 {
        t[c] = ((c % 4) * 4 + c / 4) as u8;
        c += 1;
    }
    t
};

/// Per-node heuristic state: the slot cells of every pattern, for the board and its mirror
/// image, and the running sums of their database values.
#[derive(Debug, Clone, Copy)]
pub(super) struct AdditiveState {
    cells: [[[u8; 8]; 4]; 2],
    values: [[u8; 4]; 2],
    sums: [u32; 2],
}

impl Additive {
    pub(super) fn new(pdbs: Vec<Pdb>, goal: &Board4) -> Self {
        let mirror_tile = (MIRROR_CELL[goal.blank()] as usize == goal.blank()).then(|| {
            let positions = goal.positions();
            let mut mirror = [0u8; 16];
            for (tile, m) in mirror.iter_mut().enumerate() {
                *m = goal.cells()[MIRROR_CELL[positions[tile] as usize] as usize];
            }
            mirror
        });
        let mut pattern_of = [0u8; 16];
        let mut slot_of = [0u8; 16];
        for (p, pdb) in pdbs.iter().enumerate() {
            for (s, &tile) in pdb.tiles().iter().enumerate() {
                pattern_of[tile as usize] = p as u8;
                slot_of[tile as usize] = s as u8;
            }
        }
        Self {
            pdbs,
            mirror_tile,
            pattern_of,
            slot_of,
        }
    }

    #[inline]
    fn lookup(&self, state: &AdditiveState, side: usize, pattern: usize) -> u8 {
        let pdb = &self.pdbs[pattern];
        pdb.get(&state.cells[side][pattern][..pdb.tiles().len()])
    }

    /// Places `tile` at `cell` on side 0 and its mirror image on side 1 (if the goal has one),
    /// updating the sums. Without a mirror image, side 1's sum stays 0 and never wins the max.
    #[inline]
    fn place(&self, state: &mut AdditiveState, tile: u8, cell: u8, refresh: bool) {
        let mirrored = self
            .mirror_tile
            .map(|m| (m[tile as usize], MIRROR_CELL[cell as usize]));
        for (side, (t, c)) in [Some((tile, cell)), mirrored]
            .into_iter()
            .enumerate()
            .filter_map(|(side, placed)| placed.map(|p| (side, p)))
        {
            let (p, s) = (
                self.pattern_of[t as usize] as usize,
                self.slot_of[t as usize] as usize,
            );
            state.cells[side][p][s] = c;
            if refresh {
                let value = self.lookup(state, side, p);
                state.sums[side] =
                    state.sums[side] + u32::from(value) - u32::from(state.values[side][p]);
                state.values[side][p] = value;
            }
        }
    }
}

impl Heuristic for Additive {
    type State = AdditiveState;

    fn start(&self, cells: &[u8; 16]) -> AdditiveState {
        let mut state = AdditiveState {
            cells: [[[0; 8]; 4]; 2],
            values: [[0; 4]; 2],
            sums: [0; 2],
        };
        for (c, &tile) in cells.iter().enumerate() {
            if tile != 0 {
                self.place(&mut state, tile, c as u8, false);
            }
        }
        let sides = if self.mirror_tile.is_some() { 2 } else { 1 };
        for side in 0..sides {
            for p in 0..self.pdbs.len() {
                state.values[side][p] = self.lookup(&state, side, p);
            }
            state.sums[side] = state.values[side].iter().map(|&v| u32::from(v)).sum();
        }
        state
    }

    #[inline]
    fn moved(&self, state: &AdditiveState, tile: u8, _from: u8, to: u8) -> AdditiveState {
        let mut next = *state;
        self.place(&mut next, tile, to, true);
        next
    }

    #[inline]
    fn value(&self, state: &AdditiveState) -> u32 {
        state.sums[0].max(state.sums[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::fifteen::turn::HOMES;

    #[test]
    fn mirror_maps_symmetric_goals_onto_themselves() {
        for home in HOMES {
            let goal = Board4::canonical(home);
            let additive = Additive::new(Vec::new(), &goal);
            match additive.mirror_tile {
                Some(mirror) => {
                    for (c, &t) in goal.cells().iter().enumerate() {
                        assert_eq!(goal.cells()[MIRROR_CELL[c] as usize], mirror[t as usize]);
                    }
                }
                None => assert!([13, 14].contains(&home), "home {home} has a mirror"),
            }
        }
    }
}
