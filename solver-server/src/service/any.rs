//! A case of any kind, for the RPCs that take every puzzle in one message (`solver.v2`'s
//! `Solve` and `SolveStream`). Each kind is one [`V2Puzzle`]: its [`Puzzle`] plus how its part of
//! a request is read and how its answer is written. Its cases are erased behind [`AnyCase`] and
//! its answers behind [`AnyAnswer`], implemented once for every kind, so [`AnyPuzzle`] answers
//! them without knowing the kinds: a new kind is its module plus its line in
//! `service::v2::registry::solve_case`.

use std::fmt;
use std::time::Duration;

use solver_proto::v2 as pb;

use crate::config::Kind;
use crate::convert::v2::Common;
use crate::errors::Failure;
use crate::metrics::Outcome;
use crate::scheduler::{Progress, Slice};
use crate::service::Shared;
use crate::service::puzzle::{CaseLimits, Lane, Puzzle};

/// A [`Puzzle`] that `Solve` and `SolveStream` serve: how a case is read from its part of a
/// `SolveRequest` and how an answer becomes a `SolveResponse`.
pub(crate) trait V2Puzzle: Puzzle {
    /// The family's name, in debug output.
    const NAME: &'static str;
    /// The message of the request's `puzzle` its cases are read from.
    type Part;

    /// The kind a case of `part` is counted under, whether or not it reads.
    fn kind(part: &Self::Part) -> Kind;

    /// Reads and validates a case; errors name their field under the part (`sliding.start`).
    fn read(part: &Self::Part, common: Common, shared: &Shared) -> Result<Self::Case, Failure>;
    /// The response to `answer`, found `elapsed` after the request was read (without its id).
    fn response(answer: Self::Answer, elapsed: Duration) -> pb::SolveResponse;
}

/// A validated case of some kind, and once begun, the work on it (one allocation for both).
pub(crate) trait AnyCase: Send + fmt::Debug {
    /// How the case is handed to the scheduler.
    fn lane(&self) -> Lane;
    /// Answers the case at once when no search is needed.
    fn prepare(&self, shared: &Shared) -> Option<Box<dyn AnyAnswer>>;
    /// Works on the case for one time slice, beginning the work at the first.
    fn step(
        &mut self,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<Box<dyn AnyAnswer>, Failure>>;
}

/// The answer to a case of some kind.
pub(crate) trait AnyAnswer: Send + fmt::Debug {
    /// How it ended, for metrics.
    fn outcome(&self) -> Outcome;
    /// The heuristic whose search found it, where that is counted.
    fn searched_with(&self) -> Option<&'static str>;
    /// The response to it, `elapsed` after its request was read (without its id).
    fn response(self: Box<Self>, elapsed: Duration) -> pb::SolveResponse;
}

/// Reads a case of kind `P` from its part of a request, unless the request's common fields
/// already failed: the kind it is counted under and the case.
pub(crate) fn read<P: V2Puzzle>(
    part: &P::Part,
    common: Result<Common, Failure>,
    shared: &Shared,
) -> (Kind, Result<Box<dyn AnyCase>, Failure>) {
    let case = common.and_then(|common| P::read(part, common, shared));
    (
        P::kind(part),
        case.map(|case| Box::new(Erased::<P>::Case(case)) as Box<dyn AnyCase>),
    )
}

/// One kind's case, then its work.
enum Erased<P: Puzzle> {
    /// Not begun.
    Case(P::Case),
    /// Begun, between time slices.
    Work(P::Work),
    /// Only while the case becomes its work.
    Beginning,
}

impl<P: V2Puzzle> fmt::Debug for Erased<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Erased::Case(case) => f.debug_tuple(P::NAME).field(case).finish(),
            Erased::Work(_) => write!(f, "{}(begun)", P::NAME),
            Erased::Beginning => write!(f, "{}(beginning)", P::NAME),
        }
    }
}

/// One kind's answer.
struct Answer<P: Puzzle>(P::Answer);

impl<P: V2Puzzle> fmt::Debug for Answer<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple(P::NAME).field(&self.0).finish()
    }
}

fn boxed<P: V2Puzzle>(answer: P::Answer) -> Box<dyn AnyAnswer> {
    Box::new(Answer::<P>(answer))
}

impl<P: V2Puzzle> AnyCase for Erased<P> {
    fn lane(&self) -> Lane {
        match self {
            Erased::Case(case) => P::lane(case),
            Erased::Work(_) | Erased::Beginning => Lane::Search,
        }
    }

    fn prepare(&self, shared: &Shared) -> Option<Box<dyn AnyAnswer>> {
        match self {
            Erased::Case(case) => P::prepare(case, shared).map(boxed::<P>),
            Erased::Work(_) | Erased::Beginning => None,
        }
    }

    fn step(
        &mut self,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<Box<dyn AnyAnswer>, Failure>> {
        if matches!(self, Erased::Case(_)) {
            let Erased::Case(case) = std::mem::replace(self, Erased::Beginning) else {
                unreachable!("just matched");
            };
            *self = Erased::Work(P::begin(case));
        }
        let Erased::Work(work) = self else {
            unreachable!("a case becomes its work before its first step");
        };
        match P::step(work, limits, shared, slice) {
            Progress::Done(result) => Progress::Done(result.map(boxed::<P>)),
            Progress::Pending => Progress::Pending,
        }
    }
}

impl<P: V2Puzzle> AnyAnswer for Answer<P> {
    fn outcome(&self) -> Outcome {
        P::outcome(&self.0)
    }

    fn searched_with(&self) -> Option<&'static str> {
        P::searched_with(&self.0)
    }

    fn response(self: Box<Self>, elapsed: Duration) -> pb::SolveResponse {
        P::response(self.0, elapsed)
    }
}

/// Cases of every kind, each answered by its own kind's [`Puzzle`].
#[derive(Debug)]
pub(crate) struct AnyPuzzle;

impl Puzzle for AnyPuzzle {
    type Case = Box<dyn AnyCase>;
    type Answer = Box<dyn AnyAnswer>;
    /// The case's own box: beginning allocates nothing more.
    type Work = Box<dyn AnyCase>;

    fn lane(case: &Self::Case) -> Lane {
        case.lane()
    }

    fn prepare(case: &Self::Case, shared: &Shared) -> Option<Self::Answer> {
        case.as_ref().prepare(shared)
    }

    fn begin(case: Self::Case) -> Self::Work {
        case
    }

    fn step(
        work: &mut Self::Work,
        limits: &CaseLimits,
        shared: &Shared,
        slice: &Slice<'_>,
    ) -> Progress<Result<Self::Answer, Failure>> {
        work.step(limits, shared, slice)
    }

    fn outcome(answer: &Self::Answer) -> Outcome {
        answer.outcome()
    }

    fn searched_with(answer: &Self::Answer) -> Option<&'static str> {
        answer.as_ref().searched_with()
    }
}
