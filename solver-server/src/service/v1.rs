//! The `solver.v1.Solver` service: one bidirectional RPC per puzzle kind, each the one [`Edge`]
//! over its family's [`Puzzle`], with how it reads its requests and writes its replies
//! (`V1Rpc`). Its wire behaviour is frozen: other services depend on it.

use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use solver_core::tiles::grid::Grid;
use tonic::{Request, Response, Status, Streaming};

use crate::config::Kind;
use crate::convert::v1 as convert;
use crate::errors::{Failure, StreamEnd};
use crate::pb;
use crate::puzzles::sliding::{Sliding, SlidingAnswer, SlidingCase};
use crate::puzzles::solitaire::{self, Solitaire, SolitaireAnswer, SolitaireCase};
use crate::service::Shared;
use crate::service::puzzle::Puzzle;
use crate::service::stream::{self, Edge, Read, ReplyStream};

/// The `solver.v1.Solver` implementation.
#[derive(Debug, Clone)]
pub(crate) struct SolverService {
    shared: Arc<Shared>,
}

impl SolverService {
    /// A service over `shared`.
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        Self { shared }
    }
}

#[tonic::async_trait]
impl pb::solver_server::Solver for SolverService {
    type SolveEightStream = ReplyStream<pb::SlidingReply>;
    type SolveFifteenStream = ReplyStream<pb::SlidingReply>;
    type SolveSolitaireStream = ReplyStream<pb::SolitaireReply>;

    async fn solve_eight(
        &self,
        request: Request<Streaming<pb::SlidingRequest>>,
    ) -> Result<Response<Self::SolveEightStream>, Status> {
        stream::open::<Solve<Eight>, _>(&self.shared, Eight::KIND.name(), request)
    }

    async fn solve_fifteen(
        &self,
        request: Request<Streaming<pb::SlidingRequest>>,
    ) -> Result<Response<Self::SolveFifteenStream>, Status> {
        stream::open::<Solve<Fifteen>, _>(&self.shared, Fifteen::KIND.name(), request)
    }

    async fn solve_solitaire(
        &self,
        request: Request<Streaming<pb::SolitaireRequest>>,
    ) -> Result<Response<Self::SolveSolitaireStream>, Status> {
        stream::open::<Solve<Solitaire>, _>(&self.shared, Solitaire::KIND.name(), request)
    }
}

/// A kind as `solver.v1` serves it: one RPC of its own, with its own messages, over its family's
/// [`Puzzle`].
trait V1Rpc: Send + Sync + 'static {
    /// The family that answers its cases.
    type Puzzle: Puzzle;
    /// The kind its cases are counted under.
    const KIND: Kind;
    /// The request message.
    type Request: Send + 'static;
    /// The reply message.
    type Reply: Send + std::fmt::Debug + 'static;

    /// Reads and validates a request: its id and its case.
    fn read(
        request: &Self::Request,
        shared: &Shared,
    ) -> (u64, Result<<Self::Puzzle as Puzzle>::Case, Failure>);
    /// The reply to case `id`.
    fn write(id: u64, result: Result<<Self::Puzzle as Puzzle>::Answer, Failure>) -> Self::Reply;
}

/// The RPC of kind `R`.
#[derive(Debug)]
struct Solve<R>(PhantomData<R>);

impl<R: V1Rpc> Edge for Solve<R> {
    type Puzzle = R::Puzzle;
    type Request = R::Request;
    type Reply = R::Reply;
    type Id = u64;

    fn read(request: R::Request, shared: &Shared) -> Read<Self> {
        let (id, case) = R::read(&request, shared);
        (id, R::KIND, case)
    }

    fn write(
        id: u64,
        result: Result<<R::Puzzle as Puzzle>::Answer, Failure>,
        _: Duration,
    ) -> R::Reply {
        R::write(id, result)
    }

    fn end(end: StreamEnd) -> Status {
        end.into()
    }
}

/// `SolveEight`: 3×3 boards.
#[derive(Debug)]
struct Eight;

/// `SolveFifteen`: 4×4 boards.
#[derive(Debug)]
struct Fifteen;

impl V1Rpc for Eight {
    type Puzzle = Sliding;
    const KIND: Kind = Kind::Eight;
    type Request = pb::SlidingRequest;
    type Reply = pb::SlidingReply;

    fn read(request: &pb::SlidingRequest, _: &Shared) -> (u64, Result<SlidingCase, Failure>) {
        (request.id, convert::sliding_case(request, Grid::EIGHT))
    }

    fn write(id: u64, result: Result<SlidingAnswer, Failure>) -> pb::SlidingReply {
        convert::sliding_reply(id, result)
    }
}

impl V1Rpc for Fifteen {
    type Puzzle = Sliding;
    const KIND: Kind = Kind::Fifteen;
    type Request = pb::SlidingRequest;
    type Reply = pb::SlidingReply;

    fn read(request: &pb::SlidingRequest, _: &Shared) -> (u64, Result<SlidingCase, Failure>) {
        (request.id, convert::sliding_case(request, Grid::FIFTEEN))
    }

    fn write(id: u64, result: Result<SlidingAnswer, Failure>) -> pb::SlidingReply {
        convert::sliding_reply(id, result)
    }
}

impl V1Rpc for Solitaire {
    type Puzzle = Solitaire;
    const KIND: Kind = Kind::Solitaire;
    type Request = pb::SolitaireRequest;
    type Reply = pb::SolitaireReply;

    fn read(
        request: &pb::SolitaireRequest,
        shared: &Shared,
    ) -> (u64, Result<SolitaireCase, Failure>) {
        let limit = shared.config.families.solitaire.max_moves;
        let case = convert::solitaire_case(request, limit, solitaire::DEFAULT_MOVES);
        (request.id, case)
    }

    fn write(id: u64, result: Result<SolitaireAnswer, Failure>) -> pb::SolitaireReply {
        convert::solitaire_reply(id, result)
    }
}
