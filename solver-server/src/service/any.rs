//! A case of any kind, for the RPCs that take every puzzle in one message (`solver.v2`'s
//! `Solve` and `SolveStream`): each case is answered by its own kind's [`Puzzle`].

use crate::convert::{GridCase, SlidingCase, SolitaireCase};
use crate::errors::Failure;
use crate::metrics::Outcome;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::grid::{GridAnswer, Sliding};
use crate::service::puzzle::{CaseLimits, Lane, Prepared, Puzzle, SlidingAnswer, SolitaireAnswer};
use crate::service::sliding::{Eight, Fifteen};
use crate::service::solitaire::Solitaire;

/// Cases of every kind.
#[derive(Debug)]
pub(crate) struct AnyPuzzle;

/// A validated case of some kind.
#[derive(Debug)]
pub(crate) enum AnyCase {
    /// A 3×3 board.
    Eight(SlidingCase<3>),
    /// A 4×4 board.
    Fifteen(SlidingCase<4>),
    /// A Solitaire position.
    Solitaire(SolitaireCase),
    /// A board of another shape.
    Sliding(GridCase),
}

/// The answer to a case of some kind.
#[derive(Debug)]
pub(crate) enum AnyAnswer {
    /// A 3×3 answer.
    Eight(SlidingAnswer),
    /// A 4×4 answer.
    Fifteen(SlidingAnswer),
    /// A Solitaire answer.
    Solitaire(SolitaireAnswer),
    /// An answer on another shape.
    Sliding(GridAnswer),
}

/// Work on a case of some kind.
#[derive(Debug)]
pub(crate) enum AnyWork {
    /// 3×3.
    Eight(<Eight as Puzzle>::Work),
    /// 4×4.
    Fifteen(<Fifteen as Puzzle>::Work),
    /// Solitaire.
    Solitaire(<Solitaire as Puzzle>::Work),
    /// Other shapes.
    Sliding(<Sliding as Puzzle>::Work),
}

/// Converts one kind's prepared case into the choice of kinds.
fn lift<P: Puzzle>(
    prepared: Prepared<P>,
    case: fn(P::Case) -> AnyCase,
    answer: fn(P::Answer) -> AnyAnswer,
) -> Prepared<AnyPuzzle> {
    match prepared {
        Prepared::Answered(found) => Prepared::Answered(answer(found)),
        Prepared::Search(found) => Prepared::Search(case(found)),
    }
}

fn map<A>(
    progress: Progress<Result<A, Failure>>,
    answer: fn(A) -> AnyAnswer,
) -> Progress<Result<AnyAnswer, Failure>> {
    match progress {
        Progress::Done(result) => Progress::Done(result.map(answer)),
        Progress::Pending => Progress::Pending,
    }
}

impl Puzzle for AnyPuzzle {
    type Case = AnyCase;
    type Answer = AnyAnswer;
    type Work = AnyWork;

    fn lane(case: &AnyCase) -> Lane {
        match case {
            AnyCase::Eight(case) => Eight::lane(case),
            AnyCase::Fifteen(case) => Fifteen::lane(case),
            AnyCase::Solitaire(case) => Solitaire::lane(case),
            AnyCase::Sliding(case) => Sliding::lane(case),
        }
    }

    fn prepare(case: AnyCase, shared: &Shared) -> Prepared<Self> {
        match case {
            AnyCase::Eight(case) => lift(
                Eight::prepare(case, shared),
                AnyCase::Eight,
                AnyAnswer::Eight,
            ),
            AnyCase::Fifteen(case) => lift(
                Fifteen::prepare(case, shared),
                AnyCase::Fifteen,
                AnyAnswer::Fifteen,
            ),
            AnyCase::Solitaire(case) => lift(
                Solitaire::prepare(case, shared),
                AnyCase::Solitaire,
                AnyAnswer::Solitaire,
            ),
            AnyCase::Sliding(case) => lift(
                Sliding::prepare(case, shared),
                AnyCase::Sliding,
                AnyAnswer::Sliding,
            ),
        }
    }

    fn begin(case: AnyCase) -> AnyWork {
        match case {
            AnyCase::Eight(case) => AnyWork::Eight(Eight::begin(case)),
            AnyCase::Fifteen(case) => AnyWork::Fifteen(Fifteen::begin(case)),
            AnyCase::Solitaire(case) => AnyWork::Solitaire(Solitaire::begin(case)),
            AnyCase::Sliding(case) => AnyWork::Sliding(Sliding::begin(case)),
        }
    }

    fn step(
        work: &mut AnyWork,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<AnyAnswer, Failure>> {
        match work {
            AnyWork::Eight(work) => map(Eight::step(work, limits, shared, slice), AnyAnswer::Eight),
            AnyWork::Fifteen(work) => map(
                Fifteen::step(work, limits, shared, slice),
                AnyAnswer::Fifteen,
            ),
            AnyWork::Solitaire(work) => map(
                Solitaire::step(work, limits, shared, slice),
                AnyAnswer::Solitaire,
            ),
            AnyWork::Sliding(work) => map(
                Sliding::step(work, limits, shared, slice),
                AnyAnswer::Sliding,
            ),
        }
    }

    fn outcome(answer: &AnyAnswer) -> Outcome {
        match answer {
            AnyAnswer::Eight(answer) => Eight::outcome(answer),
            AnyAnswer::Fifteen(answer) => Fifteen::outcome(answer),
            AnyAnswer::Solitaire(answer) => Solitaire::outcome(answer),
            AnyAnswer::Sliding(answer) => Sliding::outcome(answer),
        }
    }

    fn searched_with(answer: &AnyAnswer) -> Option<&'static str> {
        match answer {
            AnyAnswer::Fifteen(answer) => Fifteen::searched_with(answer),
            AnyAnswer::Eight(_) | AnyAnswer::Solitaire(_) | AnyAnswer::Sliding(_) => None,
        }
    }
}
