//! The `solver.v1.Solver` service: one bidirectional RPC per puzzle kind, each the one [`Edge`]
//! over its kind's [`Puzzle`], which says how it reads its requests and writes its replies
//! (`V1Puzzle`). Its wire behaviour is frozen: other services depend on it.

use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use tonic::{Request, Response, Status, Streaming};

use crate::config::Kind;
use crate::convert::v1 as convert;
use crate::errors::{Failure, StreamEnd};
use crate::pb;
use crate::puzzles::sliding::{Eight, Fifteen, SlidingAnswer};
use crate::puzzles::solitaire::{self, Solitaire, SolitaireAnswer};
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

/// A kind as `solver.v1` serves it: one RPC of its own, with its own messages.
trait V1Puzzle: Puzzle {
    /// The kind its cases are counted under.
    const KIND: Kind;
    /// The request message.
    type Request: Send + 'static;
    /// The reply message.
    type Reply: Send + std::fmt::Debug + 'static;

    /// Reads and validates a request: its id and its case.
    fn read(request: &Self::Request, shared: &Shared) -> (u64, Result<Self::Case, Failure>);
    /// The reply to case `id`.
    fn write(id: u64, result: Result<Self::Answer, Failure>) -> Self::Reply;
}

/// The RPC of kind `P`.
#[derive(Debug)]
struct Solve<P>(PhantomData<P>);

impl<P: V1Puzzle> Edge for Solve<P> {
    type Puzzle = P;
    type Request = P::Request;
    type Reply = P::Reply;
    type Id = u64;

    fn read(request: P::Request, shared: &Shared) -> Read<Self> {
        let (id, case) = P::read(&request, shared);
        (id, P::KIND, case)
    }

    fn write(id: u64, result: Result<P::Answer, Failure>, _: Duration) -> P::Reply {
        P::write(id, result)
    }

    fn end(end: StreamEnd) -> Status {
        end.into()
    }
}

impl V1Puzzle for Eight {
    const KIND: Kind = Kind::Eight;
    type Request = pb::SlidingRequest;
    type Reply = pb::SlidingReply;

    fn read(request: &pb::SlidingRequest, _: &Shared) -> (u64, Result<Self::Case, Failure>) {
        (request.id, convert::sliding_case::<3>(request))
    }

    fn write(id: u64, result: Result<SlidingAnswer, Failure>) -> pb::SlidingReply {
        convert::sliding_reply(id, result)
    }
}

impl V1Puzzle for Fifteen {
    const KIND: Kind = Kind::Fifteen;
    type Request = pb::SlidingRequest;
    type Reply = pb::SlidingReply;

    fn read(request: &pb::SlidingRequest, _: &Shared) -> (u64, Result<Self::Case, Failure>) {
        (request.id, convert::sliding_case::<4>(request))
    }

    fn write(id: u64, result: Result<SlidingAnswer, Failure>) -> pb::SlidingReply {
        convert::sliding_reply(id, result)
    }
}

impl V1Puzzle for Solitaire {
    const KIND: Kind = Kind::Solitaire;
    type Request = pb::SolitaireRequest;
    type Reply = pb::SolitaireReply;

    fn read(request: &pb::SolitaireRequest, shared: &Shared) -> (u64, Result<Self::Case, Failure>) {
        let limit = shared.config.cases.max_solitaire_moves;
        let case = convert::solitaire_case(request, limit, solitaire::DEFAULT_MOVES);
        (request.id, case)
    }

    fn write(id: u64, result: Result<SolitaireAnswer, Failure>) -> pb::SolitaireReply {
        convert::solitaire_reply(id, result)
    }
}
