//! When a call arrived, stamped on the request before anything else of ours sees it.
//!
//! tonic's server starts a timer of its own for a call's `grpc-timeout` just before our layers,
//! and when it fires first the call ends CANCELLED ("Timeout expired"), not DEADLINE_EXCEEDED.
//! A unary call's deadline counted from this stamp (less a millisecond for the timer wheel's
//! rounding) always passes no later than tonic's, and the handler's DEADLINE_EXCEEDED, polled
//! first, wins; counted from when the handler starts (after the body is read and decoded) it
//! could pass later.

use std::task::{Context, Poll};
use std::time::Instant;

use tonic::codegen::http::Request;
use tower::{Layer, Service};

/// The instant a request reached the server's layers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Arrival(pub(crate) Instant);

/// Stamps every request with its [`Arrival`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ArrivalLayer;

impl<S> Layer<S> for ArrivalLayer {
    type Service = Stamped<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Stamped { inner }
    }
}

/// See [`ArrivalLayer`].
#[derive(Debug, Clone)]
pub(crate) struct Stamped<S> {
    inner: S,
}

impl<S, B> Service<Request<B>> for Stamped<S>
where
    S: Service<Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        request.extensions_mut().insert(Arrival(Instant::now()));
        self.inner.call(request)
    }
}
