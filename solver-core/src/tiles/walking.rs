//! Walking distance (Ken'ichiro Takahashi): a 15-puzzle lower bound that sees tiles of the same
//! goal row interact.
//!
//! Vertically, a board is summarised by how many tiles of each goal row sit in each row, and by
//! the blank's row; a vertical move takes one tile from the blank's neighbouring row into the
//! blank's row. The fewest such moves from a summary to the goal's is the vertical walking
//! distance, found once for all 24,964 summaries by breadth-first search. Horizontally the same
//! with columns (the board's transpose has the same goal summary, so one table serves both).
//! Every move is vertical or horizontal, so the sum is admissible.

use std::collections::HashMap;

use super::ida::Heuristic;

/// The summary table: distances and transitions.
#[derive(Debug)]
pub(crate) struct WalkingDistance {
    /// Distance of each summary to the goal's.
    distance: Vec<u8>,
    /// `next[summary][dir][class]`: the summary after the blank moves up (`dir` 0) or down (1)
    /// taking the place of a tile of goal row `class`; `u16::MAX` where there is none.
    next: Vec<[[u16; 4]; 2]>,
    /// Summary keys to indices, for whole boards.
    index: HashMap<u64, u16>,
}

/// A summary packed into 50 bits: `counts[row][class]` three bits each (row-major), then the
/// blank's row.
fn key(counts: &[[u8; 4]; 4], blank_row: usize) -> u64 {
    let mut k = 0u64;
    for (r, row) in counts.iter().enumerate() {
        for (c, &n) in row.iter().enumerate() {
            k |= u64::from(n) << (3 * (r * 4 + c));
        }
    }
    k | ((blank_row as u64) << 48)
}

fn unkey(k: u64) -> ([[u8; 4]; 4], usize) {
    let mut counts = [[0u8; 4]; 4];
    for (r, row) in counts.iter_mut().enumerate() {
        for (c, n) in row.iter_mut().enumerate() {
            *n = ((k >> (3 * (r * 4 + c))) & 7) as u8;
        }
    }
    (counts, (k >> 48) as usize)
}

impl WalkingDistance {
    /// Builds the table by breadth-first search from the goal's summary.
    pub(crate) fn build() -> Self {
        let mut goal = [[0u8; 4]; 4];
        for (r, row) in goal.iter_mut().enumerate() {
            row[r] = if r == 3 { 3 } else { 4 };
        }
        let start = key(&goal, 3);
        let mut index = HashMap::from([(start, 0u16)]);
        let mut keys = vec![start];
        let mut distance = vec![0u8];
        let mut head = 0;
        while head < keys.len() {
            let (counts, blank) = unkey(keys[head]);
            for to in [blank.wrapping_sub(1), blank + 1] {
                if to > 3 {
                    continue;
                }
                for class in 0..4 {
                    if counts[to][class] == 0 {
                        continue;
                    }
                    let mut next = counts;
                    next[to][class] -= 1;
                    next[blank][class] += 1;
                    let k = key(&next, to);
                    if let std::collections::hash_map::Entry::Vacant(e) = index.entry(k) {
                        e.insert(keys.len() as u16);
                        keys.push(k);
                        distance.push(distance[head] + 1);
                    }
                }
            }
            head += 1;
        }
        let next = keys
            .iter()
            .map(|&k| {
                let (counts, blank) = unkey(k);
                let mut out = [[u16::MAX; 4]; 2];
                for (dir, to) in [blank.wrapping_sub(1), blank + 1].into_iter().enumerate() {
                    if to > 3 {
                        continue;
                    }
                    for class in 0..4 {
                        if counts[to][class] > 0 {
                            let mut next = counts;
                            next[to][class] -= 1;
                            next[blank][class] += 1;
                            out[dir][class] = index[&key(&next, to)];
                        }
                    }
                }
                out
            })
            .collect();
        Self {
            distance,
            next,
            index,
        }
    }

    /// The number of summaries.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.distance.len()
    }

    /// The summary of `cells` seen along `axis` (0: rows, 1: columns), for the standard goal.
    fn summary(&self, cells: &[u8; 16], axis: usize) -> u16 {
        let mut counts = [[0u8; 4]; 4];
        let mut blank_line = 0;
        for (cell, &tile) in cells.iter().enumerate() {
            let (line, goal_line) = if axis == 0 {
                (cell / 4, (tile as usize + 15) % 16 / 4)
            } else {
                (cell % 4, (tile as usize + 15) % 16 % 4)
            };
            if tile == 0 {
                blank_line = line;
            } else {
                counts[line][goal_line] += 1;
            }
        }
        self.index[&key(&counts, blank_line)]
    }
}

impl Heuristic for WalkingDistance {
    /// Vertical and horizontal summaries.
    type State = [u16; 2];

    fn start(&self, cells: &[u8; 16]) -> [u16; 2] {
        [self.summary(cells, 0), self.summary(cells, 1)]
    }

    #[inline]
    fn moved(&self, state: &[u16; 2], tile: u8, from: u8, to: u8) -> [u16; 2] {
        // The tile moves from `from` to `to`; the blank the other way.
        let t = usize::from(tile - 1);
        let mut next = *state;
        let (axis, class, dir) = if from / 4 == to / 4 {
            (1, t % 4, usize::from(from > to))
        } else {
            (0, t / 4, usize::from(from > to))
        };
        next[axis] = self.next[usize::from(state[axis])][dir][class];
        next
    }

    #[inline]
    fn value(&self, state: &[u16; 2]) -> u32 {
        u32::from(self.distance[usize::from(state[0])])
            + u32::from(self.distance[usize::from(state[1])])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_the_known_size() {
        let wd = WalkingDistance::build();
        assert_eq!(wd.len(), 24_964);
    }
}
