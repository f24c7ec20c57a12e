//! The classes of cases a load run drives, each on streams of its own: the one list of them, with
//! what `--mix` and `--help` say of them and the generator of each class's cases.

use std::sync::Arc;

use solver_core::tiles::grid::Grid;

use super::cases::{LoadCase, Rng};
use super::hard::Hard;
use crate::family::sliding::load as sliding;

/// A class of cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Class {
    Eight,
    FifteenEasy,
    FifteenHard,
    Solitaire,
    Shapes,
}

/// The classes for `load --help`, and an example `--mix`.
pub(super) const HELP: &str = "\
Classes: eight (random 3x3 start and target), fifteen-easy (10 to 30 random moves from the \
goal), fifteen-hard (the --hard boards, tiles renamed afresh for every case so the server's cache \
cannot answer them), solitaire (random pairs, half of them a walk of at most 8 moves apart; \
limit 8), shapes (4x5 and 5x5 boards 20 to 60 random moves from the goal, asked with a max \
ratio of 1.5: the any-shape path's bounded search; not in the default mix).

Example: solver-client load --server 127.0.0.1:50051 --metrics 127.0.0.1:9090 \
--mix eight=4,fifteen-easy=2,fifteen-hard=1,solitaire=1,shapes=1 --duration 30s --timeout 20s";

/// `--mix` by default: one stream of every class.
pub(super) const DEFAULT_MIX: &str = "eight=1,fifteen-easy=1,fifteen-hard=1,solitaire=1";

/// What a name that is no class gets told.
pub(super) const NOT_A_CLASS: &str =
    "is not a class: eight, fifteen-easy, fifteen-hard, solitaire, shapes";

impl Class {
    pub(crate) const ALL: [Class; 5] = [
        Class::Eight,
        Class::FifteenEasy,
        Class::FifteenHard,
        Class::Solitaire,
        Class::Shapes,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Class::Eight => "eight",
            Class::FifteenEasy => "fifteen-easy",
            Class::FifteenHard => "fifteen-hard",
            Class::Solitaire => "solitaire",
            Class::Shapes => "shapes",
        }
    }

    /// The class named `name`.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }

    pub(super) fn default_in_flight(self) -> usize {
        match self {
            Class::FifteenHard => 1,
            _ => 64,
        }
    }

    /// The shape of sliding board whose server tables are worth building before the run (not
    /// timed); `None`: the class has no tables to build.
    pub(super) fn warm_up(self) -> Option<Grid> {
        match self {
            Class::Eight => Some(Grid::EIGHT),
            Class::FifteenEasy | Class::FifteenHard => Some(Grid::FIFTEEN),
            // The any-shape family: nothing to build ahead (a bounded case builds nothing).
            Class::Shapes => Grid::new(5, 5).ok(),
            Class::Solitaire => None,
        }
    }
}

/// Makes the cases of one stream.
#[derive(Debug)]
pub(crate) struct Generator {
    class: Class,
    rng: Rng,
    hard: Arc<[Hard]>,
    next_hard: usize,
}

impl Generator {
    /// The cases of stream `stream` of `class`; hard streams start at different boards.
    pub(crate) fn new(class: Class, seed: u64, stream: usize, hard: Arc<[Hard]>) -> Self {
        let next_hard = stream % hard.len().max(1);
        Self {
            class,
            rng: Rng::new(seed),
            hard,
            next_hard,
        }
    }

    pub(crate) fn next(&mut self) -> LoadCase {
        match self.class {
            Class::Eight => sliding::eight(&mut self.rng),
            Class::FifteenEasy => sliding::fifteen_easy(&mut self.rng),
            Class::FifteenHard => {
                let hard = &self.hard[self.next_hard];
                self.next_hard = (self.next_hard + 1) % self.hard.len();
                sliding::fifteen_hard(hard, &mut self.rng)
            }
            Class::Solitaire => crate::family::solitaire::load::case(&mut self.rng),
            Class::Shapes => sliding::shapes(&mut self.rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use solver_core::solitaire;

    use super::*;
    use crate::family::Query;
    use crate::load::args::{InFlight, parse_mix};
    use crate::load::hard::hard_boards;

    #[test]
    fn generated_cases_are_well_formed() {
        let hard: Arc<[Hard]> = hard_boards("korf").unwrap().into();
        for class in Class::ALL {
            let mut generator = Generator::new(class, 7, 0, hard.clone());
            for _ in 0..200 {
                let case = generator.next();
                match &case.query {
                    Query::Sliding(sliding) => {
                        assert!(sliding.start.can_reach(&sliding.target));
                        assert!(case.at_most.is_some());
                    }
                    Query::Solitaire(pair) => {
                        if let Some(n) = case.at_most {
                            assert!((1..=8).contains(&n));
                            let solved = solitaire::solve(
                                &pair.start,
                                &pair.end,
                                8,
                                &solver_core::Stop::never(),
                            );
                            assert!(matches!(solved, Ok(Some(_))), "{pair:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_class_has_streams_by_default_and_a_class_alone_counts_one() {
        let mix = parse_mix(DEFAULT_MIX).unwrap();
        // Every class but `shapes`, whose first cases may load large tables.
        assert_eq!(
            mix.0,
            Class::ALL[..4].iter().map(|&c| (c, 1)).collect::<Vec<_>>()
        );
        let mix = parse_mix("eight=4,fifteen-easy=2,fifteen-hard=1,solitaire").unwrap();
        assert_eq!(
            mix.0,
            [
                (Class::Eight, 4),
                (Class::FifteenEasy, 2),
                (Class::FifteenHard, 1),
                (Class::Solitaire, 1)
            ]
        );
        assert_eq!(
            parse_mix("nine").unwrap_err().to_string(),
            format!("\"nine\" {NOT_A_CLASS}")
        );
    }

    #[test]
    fn in_flight_defaults() {
        assert_eq!(InFlight::default().of(Class::FifteenHard), 1);
        assert_eq!(InFlight::default().of(Class::Solitaire), 64);
    }
}
