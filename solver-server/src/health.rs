//! The streams of the services that do not count themselves: health `Watch` and reflection.
//!
//! The solver's streams and unary calls each take one of the server's `--max-streams` slots when
//! they open (`service::stream`, `service::unary`), which is what bounds the memory open calls
//! hold. tonic's health and reflection services know nothing of it, so their streams counted
//! against nothing: 87,000 `Watch` streams on 100 connections held 566 MB (issue 23). Each such
//! stream holds as much as a solver stream does (HTTP/2 state, a task, its buffers), so it takes
//! a slot of the same limit here, before the service sees it, and keeps it until its response
//! body is dropped (the stream ended, was reset or its connection closed). Past the limit it ends
//! RESOURCE_EXHAUSTED at once.
//!
//! Unary `Check` is not counted: it holds nothing once answered, and the kubelet's probes must
//! get an answer even when every slot is taken. With bearer tokens, `auth` (in front of this
//! layer) also asks `Watch` for a token and counts it against the token's calls, so an anonymous
//! caller cannot take the slots; reflection stays open (discovery needs no token) but is counted
//! here.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use tokio::sync::Semaphore;
use tonic::Status;
use tonic::service::Routes;

use crate::auth;

/// Path prefixes of the streams counted here.
const COUNTED: [&str; 2] = ["/grpc.health.v1.Health/Watch", "/grpc.reflection."];

/// The server's stream slots.
#[derive(Debug, Clone)]
struct Slots {
    /// One permit per stream that may be open (shared with the solver's streams and calls).
    streams: Arc<Semaphore>,
    /// How many there are, for the message (`--max-streams`).
    limit: usize,
}

/// Puts the stream count in front of the health `Watch` and reflection routes of `routes`.
pub(crate) fn count_streams(routes: Routes, streams: Arc<Semaphore>, limit: usize) -> Routes {
    Routes::from(
        routes
            .into_axum_router()
            .layer(middleware::from_fn_with_state(
                Slots { streams, limit },
                admit,
            )),
    )
}

async fn admit(State(slots): State<Slots>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if !COUNTED.iter().any(|counted| path.starts_with(counted)) {
        return next.run(request).await;
    }
    match Arc::clone(&slots.streams).try_acquire_owned() {
        Ok(slot) => auth::holding(next.run(request).await, slot),
        Err(_) => Status::resource_exhausted(format!(
            "too many streams are open (the limit is {}, --max-streams); retry later",
            slots.limit
        ))
        .into_http(),
    }
}
