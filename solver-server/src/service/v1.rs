//! The `solver.v1.Solver` service: one bidirectional RPC per puzzle kind, each an [`Edge`] over
//! its kind's [`Puzzle`](crate::service::puzzle::Puzzle). Its wire behaviour is frozen: other
//! services depend on it.

use std::sync::Arc;
use std::time::Duration;

use tonic::{Request, Response, Status, Streaming};

use crate::config::Kind;
use crate::convert::v1 as convert;
use crate::engine;
use crate::errors::{Failure, StreamEnd};
use crate::pb;
use crate::service::Shared;
use crate::service::puzzle::{SlidingAnswer, SolitaireAnswer};
use crate::service::sliding::{Eight, Fifteen};
use crate::service::solitaire::Solitaire;
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
        stream::open::<SolveEight, _>(&self.shared, Kind::Eight.name(), request)
    }

    async fn solve_fifteen(
        &self,
        request: Request<Streaming<pb::SlidingRequest>>,
    ) -> Result<Response<Self::SolveFifteenStream>, Status> {
        stream::open::<SolveFifteen, _>(&self.shared, Kind::Fifteen.name(), request)
    }

    async fn solve_solitaire(
        &self,
        request: Request<Streaming<pb::SolitaireRequest>>,
    ) -> Result<Response<Self::SolveSolitaireStream>, Status> {
        stream::open::<SolveSolitaire, _>(&self.shared, Kind::Solitaire.name(), request)
    }
}

/// `SolveEight`.
#[derive(Debug)]
struct SolveEight;

/// `SolveFifteen`.
#[derive(Debug)]
struct SolveFifteen;

/// `SolveSolitaire`.
#[derive(Debug)]
struct SolveSolitaire;

impl Edge for SolveEight {
    type Puzzle = Eight;
    type Request = pb::SlidingRequest;
    type Reply = pb::SlidingReply;
    type Id = u64;

    fn read(request: pb::SlidingRequest, _shared: &Shared) -> Read<Self> {
        (
            request.id,
            Kind::Eight,
            convert::sliding_case::<3>(&request),
        )
    }

    fn write(id: u64, result: Result<SlidingAnswer, Failure>, _: Duration) -> pb::SlidingReply {
        convert::sliding_reply(id, result)
    }

    fn end(end: StreamEnd) -> Status {
        end.into()
    }
}

impl Edge for SolveFifteen {
    type Puzzle = Fifteen;
    type Request = pb::SlidingRequest;
    type Reply = pb::SlidingReply;
    type Id = u64;

    fn read(request: pb::SlidingRequest, _shared: &Shared) -> Read<Self> {
        (
            request.id,
            Kind::Fifteen,
            convert::sliding_case::<4>(&request),
        )
    }

    fn write(id: u64, result: Result<SlidingAnswer, Failure>, _: Duration) -> pb::SlidingReply {
        convert::sliding_reply(id, result)
    }

    fn end(end: StreamEnd) -> Status {
        end.into()
    }
}

impl Edge for SolveSolitaire {
    type Puzzle = Solitaire;
    type Request = pb::SolitaireRequest;
    type Reply = pb::SolitaireReply;
    type Id = u64;

    fn read(request: pb::SolitaireRequest, shared: &Shared) -> Read<Self> {
        let limit = shared.config.max_solitaire_moves;
        (
            request.id,
            Kind::Solitaire,
            convert::solitaire_case(&request, limit, engine::SOLITAIRE_DEFAULT_MOVES),
        )
    }

    fn write(id: u64, result: Result<SolitaireAnswer, Failure>, _: Duration) -> pb::SolitaireReply {
        convert::solitaire_reply(id, result)
    }

    fn end(end: StreamEnd) -> Status {
        end.into()
    }
}
