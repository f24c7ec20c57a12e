//! One worker: a `solver.v2` `SolveStream` on one server endpoint, fed from the shared queue.

use std::sync::Arc;

use futures::stream::{self, BoxStream, StreamExt as _};
use solver_proto::v2 as pb;

use super::dispatch::{Dispatch, requests};
use crate::endpoints::Endpoint;

/// Largest message accepted from the service (a reply is a few hundred bytes).
const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// What a worker's reply stream yields: a reply, a failure, or (`None`) its end.
pub(super) type Event = (usize, Option<Result<pb::SolveResponse, tonic::Status>>);

/// Opens worker `worker`'s stream on `endpoint`, sending what the queue hands it; its replies
/// come out as [`Event`]s, ending with `(worker, None)`.
pub(super) async fn open(
    endpoint: &Endpoint,
    worker: usize,
    dispatch: &Arc<Dispatch>,
) -> Result<BoxStream<'static, Event>, tonic::Status> {
    let mut client = endpoint
        .client()
        .max_decoding_message_size(MAX_MESSAGE_BYTES);
    let requests = requests(Arc::clone(dispatch), worker);
    let replies = client
        .solve_stream(endpoint.link.request(requests))
        .await?
        .into_inner();
    Ok(replies
        .map(move |reply| (worker, Some(reply)))
        .chain(stream::once(async move { (worker, None) }))
        .boxed())
}
