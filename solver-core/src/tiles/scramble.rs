//! Boards at an exact optimal distance from the standard goal, drawn reproducibly from a seed.
//!
//! The draws use [`SplitMix64`], a fixed algorithm written out here, so that the same seed gives
//! the same board on every machine and in every build.
//!
//! * 3×3: [`EightLayers`] holds every board of the goal's class by its distance (a BFS from the
//!   goal, 181,440 boards), so a draw is uniform over all boards at the distance asked.
//! * 4×4: no table is feasible. From [`FIFTEEN_UNIFORM_FROM`] moves on, [`UniformSampler`]
//!   draws boards uniformly and keeps the first whose optimal distance the caller measures to be
//!   the one asked (rejection sampling: uniform over every board at that distance). Nearer the
//!   goal such boards are too rare for that, and [`WalkSampler`] walks at random from the goal,
//!   lengthening the walk until the distance is the one asked: every board at that distance can
//!   come out, but not all equally likely.

use super::board::{Board, Board3, Move};
use super::grid::Grid;
use super::slide::Slide;

/// How a board at an exact distance from the goal is drawn on a shape (see the [module](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sampling {
    /// Uniformly, from the table of every 3×3 board by distance ([`EightLayers`]).
    Table,
    /// Uniformly, by rejection ([`UniformSampler`]: 4×4 from [`FIFTEEN_UNIFORM_FROM`] moves).
    Uniform,
    /// By a random walk measured by the optimal solver ([`WalkSampler`]: every other case).
    RandomWalk,
}

impl Sampling {
    /// The way boards of `grid` at `distance` are drawn.
    #[must_use]
    pub fn of(grid: Grid, distance: u32) -> Self {
        if grid == Grid::EIGHT {
            Sampling::Table
        } else if grid == Grid::FIFTEEN && distance >= FIFTEEN_UNIFORM_FROM {
            Sampling::Uniform
        } else {
            Sampling::RandomWalk
        }
    }
}

/// The largest optimal distance of a 3×3 board from the goal.
pub const EIGHT_MAX_DISTANCE: u32 = 31;
/// The largest optimal distance of a 4×4 board from the goal.
pub const FIFTEEN_MAX_DISTANCE: u32 = 80;

/// A distance that no board of the size has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no {rows}x{rows} board is {distance} moves from the goal: the most is {max}")]
pub struct TooFar {
    /// The side of the board.
    pub rows: usize,
    /// The distance asked.
    pub distance: u32,
    /// The largest distance a board of that size has.
    pub max: u32,
}

/// The smallest distance at which 4×4 boards are drawn uniformly ([`UniformSampler`]). Boards
/// this near the goal are a small share of all (Korf & Schultze 2005 counted every depth; the
/// median board is about 53 moves away), but nearly every other draw is refused by the
/// heuristic alone, before any search: measured in the server's tests, a 35-move board took
/// 10 ms and 54,445 nodes with the 6-6-3 databases. Nearer the goal the share shrinks fast,
/// and a random walk serves instead.
pub const FIFTEEN_UNIFORM_FROM: u32 = 35;

/// The SplitMix64 generator (Steele, Lea and Flood, 2014): 64 bits of state, a fixed sequence
/// for each seed.
///
/// ```
/// use solver_core::tiles::scramble::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator seeded with `seed` (every value, 0 included, is a good seed).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias (rejection of the short last
    /// range).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// Every 3×3 board of the goal's class, grouped by optimal distance from the standard goal.
#[derive(Debug)]
pub struct EightLayers {
    /// `layers[d]`: the boards at distance `d`, 4 bits per cell, in BFS order.
    layers: Vec<Vec<u64>>,
}

fn pack(board: &Board3) -> u64 {
    board
        .cells()
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &t)| acc | (u64::from(t) << (4 * i)))
}

fn unpack(packed: u64) -> Board3 {
    let cells: Vec<u8> = (0..9).map(|i| ((packed >> (4 * i)) & 0xF) as u8).collect();
    Board3::from_cells(&cells).expect("packed from a board")
}

impl EightLayers {
    /// Builds the layers by breadth-first search from the goal (tens of milliseconds).
    #[must_use]
    pub fn build() -> Self {
        let goal = Board3::goal();
        let mut seen = foldhash::HashSet::default();
        seen.insert(pack(&goal));
        let mut layers = vec![vec![pack(&goal)]];
        loop {
            let mut next = Vec::new();
            for &packed in layers.last().expect("a layer") {
                let board = unpack(packed);
                for mv in Move::ALL {
                    if let Some(child) = board.apply(mv) {
                        let key = pack(&child);
                        if seen.insert(key) {
                            next.push(key);
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            layers.push(next);
        }
        Self { layers }
    }

    /// The number of boards at `distance` from the goal.
    ///
    /// ```
    /// let layers = solver_core::tiles::scramble::EightLayers::build();
    /// assert_eq!(layers.count(0), 1);
    /// assert_eq!(layers.count(31), 2);
    /// ```
    #[must_use]
    pub fn count(&self, distance: u32) -> usize {
        self.layers.get(distance as usize).map_or(0, Vec::len)
    }

    /// A board at exactly `distance` from the goal, uniform over all of them, the same for the
    /// same `seed`.
    ///
    /// # Errors
    /// [`TooFar`] above distance 31.
    pub fn draw(&self, distance: u32, seed: u64) -> Result<Board3, TooFar> {
        let layer = self.layers.get(distance as usize).ok_or(TooFar {
            rows: 3,
            distance,
            max: EIGHT_MAX_DISTANCE,
        })?;
        let index = SplitMix64::new(seed).below(layer.len() as u64);
        Ok(unpack(
            layer[usize::try_from(index).expect("a layer index")],
        ))
    }
}

/// A random walk from the standard goal that grows until its end is exactly at the distance
/// wanted. The caller measures each [`candidate`](Self::candidate) with an optimal solver and
/// reports it through [`measured`](Self::measured).
///
/// The walk never undoes its last move. It starts with `distance` steps, so the end is at most
/// that far; while the measured distance falls short by `gap`, it walks `gap` steps more (every
/// step changes the distance by one, so it never overshoots), and the distance's parity always
/// matches the one wanted.
///
/// ```
/// use solver_core::{Board3, eight::Tables, tiles::scramble::WalkSampler};
/// let tables = Tables::new();
/// let mut sampler = WalkSampler::new(Board3::goal(), 12, 99);
/// let board = loop {
///     let optimal = tables.solve(&sampler.candidate(), &Board3::goal()).unwrap().len();
///     if let Some(board) = sampler.measured(optimal as u32) {
///         break board;
///     }
/// };
/// assert_eq!(tables.solve(&board, &Board3::goal()).unwrap().len(), 12);
/// ```
#[derive(Debug, Clone)]
pub struct WalkSampler<B> {
    rng: SplitMix64,
    goal: B,
    board: B,
    last: Option<Move>,
    distance: u32,
}

impl<B: Slide> WalkSampler<B> {
    /// A walk from `goal` towards `distance` drawn from `seed`.
    #[must_use]
    pub fn new(goal: B, distance: u32, seed: u64) -> Self {
        let mut sampler = Self {
            rng: SplitMix64::new(seed),
            board: goal.clone(),
            goal,
            last: None,
            distance,
        };
        sampler.walk(distance);
        sampler
    }

    /// The distance wanted.
    #[must_use]
    pub fn distance(&self) -> u32 {
        self.distance
    }

    /// The board whose optimal distance to measure next.
    #[must_use]
    pub fn candidate(&self) -> B {
        self.board.clone()
    }

    /// Takes the candidate's measured optimal distance: the candidate when it is the one wanted,
    /// else `None`, and the walk goes on to the next candidate.
    pub fn measured(&mut self, optimal: u32) -> Option<B> {
        if optimal == self.distance {
            return Some(self.board.clone());
        }
        if optimal < self.distance && (self.distance - optimal).is_multiple_of(2) {
            self.walk(self.distance - optimal);
        } else {
            // Cannot happen with a correct measurement; start over rather than loop for ever.
            self.board = self.goal.clone();
            self.last = None;
            self.walk(self.distance);
        }
        None
    }

    fn walk(&mut self, steps: u32) {
        for _ in 0..steps {
            let mut options: Vec<(Move, B)> = Move::ALL
                .iter()
                .filter(|&&mv| Some(mv.reverse()) != self.last)
                .filter_map(|&mv| self.board.slide(mv).map(|b| (mv, b)))
                .collect();
            let pick = self.rng.below(options.len() as u64);
            let (mv, board) =
                options.swap_remove(usize::try_from(pick).expect("at most 4 options"));
            self.board = board;
            self.last = Some(mv);
        }
    }
}

/// Uniform 4×4 boards at an exact optimal distance from the goal, by rejection: boards are drawn
/// uniformly from those that can reach the goal, and the caller measures each with an optimal
/// search bounded by the distance (a search whose lower bound passes it refuses the board at
/// once). The first board measured at exactly the distance is the answer; every board at that
/// distance is equally likely, and the same seed gives the same board.
#[derive(Debug, Clone)]
pub struct UniformSampler {
    rng: SplitMix64,
    board: Board<4>,
    distance: u32,
    draws: u64,
}

impl UniformSampler {
    /// A sampler of boards at `distance`, drawn from `seed`.
    #[must_use]
    pub fn new(distance: u32, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let board = Self::draw(&mut rng);
        Self {
            rng,
            board,
            distance,
            draws: 1,
        }
    }

    /// A uniform board of the goal's parity class: a uniform permutation, and when it is of the
    /// other class, two tiles swapped (a bijection between the classes, so still uniform).
    fn draw(rng: &mut SplitMix64) -> Board<4> {
        let mut cells: [u8; 16] = std::array::from_fn(|i| i as u8);
        for i in (1..cells.len()).rev() {
            let j = usize::try_from(rng.below(i as u64 + 1)).expect("below 16");
            cells.swap(i, j);
        }
        let board = Board::<4>::from_cells(&cells).expect("a permutation is a board");
        if board.can_reach(&Board::goal()) {
            return board;
        }
        let tiles: Vec<usize> = (0..16).filter(|&i| cells[i] != 0).take(2).collect();
        cells.swap(tiles[0], tiles[1]);
        Board::<4>::from_cells(&cells).expect("a permutation is a board")
    }

    /// The distance wanted.
    #[must_use]
    pub fn distance(&self) -> u32 {
        self.distance
    }

    /// The board to measure next.
    #[must_use]
    pub fn candidate(&self) -> Board<4> {
        self.board
    }

    /// How many boards were drawn so far.
    #[must_use]
    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// Takes the candidate's measurement: `Some(optimal)`, or `None` when it is known to be
    /// farther than the distance wanted. Returns the candidate when it is at the distance,
    /// else draws the next one and returns `None`.
    pub fn measured(&mut self, optimal: Option<u32>) -> Option<Board<4>> {
        if optimal == Some(self.distance) {
            return Some(self.board);
        }
        self.board = Self::draw(&mut self.rng);
        self.draws += 1;
        None
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn each_shape_and_distance_has_its_way_of_drawing() {
        assert_eq!(Sampling::of(Grid::EIGHT, 5), Sampling::Table);
        assert_eq!(
            Sampling::of(Grid::FIFTEEN, FIFTEEN_UNIFORM_FROM),
            Sampling::Uniform
        );
        assert_eq!(
            Sampling::of(Grid::FIFTEEN, FIFTEEN_UNIFORM_FROM - 1),
            Sampling::RandomWalk
        );
        let wide = Grid::new(3, 4).unwrap();
        assert_eq!(Sampling::of(wide, 40), Sampling::RandomWalk);
        assert_eq!(Grid::EIGHT.max_distance(), EIGHT_MAX_DISTANCE);
        assert_eq!(Grid::FIFTEEN.max_distance(), FIFTEEN_MAX_DISTANCE);
    }

    /// Exact distances from the goal of every 3×3 board of its class, by plain BFS.
    fn oracle() -> HashMap<Board3, u32> {
        crate::tiles::bfs::distances(Board3::goal(), u32::MAX)
    }

    #[test]
    fn layers_hold_every_board_at_its_distance() {
        let layers = EightLayers::build();
        let dist = oracle();
        let mut counts = vec![0usize; 32];
        for &d in dist.values() {
            counts[d as usize] += 1;
        }
        for (d, &count) in counts.iter().enumerate() {
            assert_eq!(layers.count(d as u32), count, "distance {d}");
        }
        assert_eq!(layers.count(32), 0);
        for (d, layer) in layers.layers.iter().enumerate() {
            for &packed in layer.iter().step_by(97) {
                assert_eq!(dist[&unpack(packed)], d as u32);
            }
        }
    }

    #[test]
    fn uniform_draws_can_reach_the_goal_spread_evenly_and_repeat_by_seed() {
        let mut sampler = UniformSampler::new(40, 9);
        let mut again = UniformSampler::new(40, 9);
        let mut blank_cells = [0u32; 16];
        let mut tile_one_cells = [0u32; 16];
        for _ in 0..16_000 {
            let board = sampler.candidate();
            assert_eq!(board, again.candidate());
            assert!(board.can_reach(&Board::goal()), "{board:?}");
            blank_cells[board.blank()] += 1;
            tile_one_cells[board.positions()[1] as usize] += 1;
            assert_eq!(sampler.measured(None), None);
            again.measured(Some(39));
        }
        assert_eq!(sampler.draws(), 16_001);
        // 1,000 expected in each cell; 5 standard deviations is about 160.
        for count in blank_cells.iter().chain(&tile_one_cells) {
            assert!(
                (840..=1160).contains(count),
                "{blank_cells:?} {tile_one_cells:?}"
            );
        }
        let wanted = sampler.candidate();
        assert_eq!(sampler.measured(Some(40)), Some(wanted));
    }

    #[test]
    fn too_far_is_an_error() {
        let layers = EightLayers::build();
        assert_eq!(
            layers.draw(32, 1),
            Err(TooFar {
                rows: 3,
                distance: 32,
                max: 31
            })
        );
    }

    #[test]
    fn splitmix_is_the_published_sequence() {
        // The first outputs for seed 1234567 of the reference implementation.
        let mut rng = SplitMix64::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn draws_cover_a_small_layer() {
        // Distance 2 has few boards: a few dozen seeds draw each of them.
        let layers = EightLayers::build();
        let drawn: std::collections::HashSet<Board3> =
            (0..200).map(|seed| layers.draw(2, seed).unwrap()).collect();
        assert_eq!(drawn.len(), layers.count(2));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A draw is at exactly the distance asked (by the BFS oracle) and reproducible.
        #[test]
        fn draws_are_exact_and_reproducible(distance in 0u32..=31, seed: u64) {
            static ORACLE: std::sync::LazyLock<HashMap<Board3, u32>> = std::sync::LazyLock::new(oracle);
            static LAYERS: std::sync::LazyLock<EightLayers> = std::sync::LazyLock::new(EightLayers::build);
            let board = LAYERS.draw(distance, seed).unwrap();
            prop_assert_eq!(ORACLE[&board], distance);
            prop_assert_eq!(LAYERS.draw(distance, seed).unwrap(), board);
        }

        /// The walk sampler, measured with the 3×3 table, ends at exactly the distance asked
        /// (by the BFS oracle), the same for the same seed.
        #[test]
        fn walks_end_at_the_distance(distance in 0u32..=24, seed: u64) {
            static ORACLE: std::sync::LazyLock<HashMap<Board3, u32>> = std::sync::LazyLock::new(oracle);
            let run = || {
                let mut sampler = WalkSampler::new(Board3::goal(), distance, seed);
                for _ in 0..10_000 {
                    let optimal = crate::tiles::eight::test_tables().solve(&sampler.candidate(), &Board3::goal()).unwrap().len();
                    if let Some(board) = sampler.measured(optimal as u32) {
                        return Some(board);
                    }
                }
                None
            };
            let board = run().expect("a walk reaches the distance");
            prop_assert_eq!(ORACLE[&board], distance);
            prop_assert_eq!(run(), Some(board));
        }
    }
}
