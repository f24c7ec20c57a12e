//! The connection of one command and its one call: to `--server` or an embedded server, on the
//! first server that is not UNAVAILABLE, with the response shown or the refusal reported.

use std::future::Future;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use solver_proto::v2::solver_service_client::SolverServiceClient;
use solver_store::DataDir;
use tonic::transport::Channel;
use tonic::{Code, Status};

use super::refusal::refused;
use crate::embedded::{Embedded, Tables};
use crate::endpoints::{self, Endpoint};
use crate::link::Link;
use crate::progress::waiting;

/// The client of the `solver.v2` service.
pub(super) type Client = SolverServiceClient<Channel>;

/// The connection of one command: the servers, the runtime the call runs on, and the embedded
/// server when there is no `--server` (dropped last, which stops it).
pub(super) struct Connection {
    endpoints: Vec<Endpoint>,
    /// Whether a wait shows on a terminal (not with `--no-progress`).
    progress: bool,
    runtime: tokio::runtime::Runtime,
    _embedded: Option<Embedded>,
}

impl Connection {
    /// Connects to `server`, or starts an embedded server that gets the tables of `kind` ready,
    /// exactly as `solve` does.
    pub(super) fn open(
        server: Option<&str>,
        link: &Arc<Link>,
        data: DataDir,
        kind: Tables,
        progress: bool,
    ) -> anyhow::Result<Self> {
        let embedded = match server {
            Some(_) => None,
            None => Some(Embedded::start(vec![kind], data)?),
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the client's runtime")?;
        let what = if embedded.is_some() {
            "starting the embedded server (its tables first)"
        } else {
            "connecting"
        };
        let endpoints = runtime.block_on(waiting(
            what,
            progress,
            endpoints::open(server, embedded.as_ref(), link),
        ))?;
        Ok(Self {
            endpoints,
            progress,
            runtime,
            _embedded: embedded,
        })
    }

    /// Makes one call with `call` (given a client and the link that makes its requests), on the
    /// first server that is not UNAVAILABLE (shutting down, or gone since it was connected); the
    /// others are tried in turn. A failure comes with the URL of the server that gave it. While
    /// it waits, a terminal shows `what` and the time taken.
    pub(super) fn call<T, F, Fut>(&self, what: &str, mut call: F) -> Result<T, (String, Status)>
    where
        F: FnMut(Client, Arc<Link>) -> Fut,
        Fut: Future<Output = Result<tonic::Response<T>, Status>>,
    {
        self.runtime.block_on(waiting(what, self.progress, async {
            let mut last = (String::new(), Status::unavailable("no server to call"));
            for endpoint in &self.endpoints {
                match call(endpoint.client(), Arc::clone(&endpoint.link)).await {
                    Ok(response) => return Ok(response.into_inner()),
                    Err(status) if status.code() == Code::Unavailable => {
                        last = (endpoint.url.clone(), status);
                    }
                    Err(status) => return Err((endpoint.url.clone(), status)),
                }
            }
            Err(last)
        }))
    }

    /// Every command's flow: one call with `call` (as [`call`](Self::call) makes it), the
    /// response handed to `show`, or the refusal reported as [`refused`] does (as JSON with
    /// `json`).
    pub(super) fn answer<T, F, Fut>(
        &self,
        what: &str,
        json: bool,
        call: F,
        show: impl FnOnce(T) -> anyhow::Result<()>,
    ) -> anyhow::Result<ExitCode>
    where
        F: FnMut(Client, Arc<Link>) -> Fut,
        Fut: Future<Output = Result<tonic::Response<T>, Status>>,
    {
        match self.call(what, call) {
            Ok(response) => show(response).map(|()| ExitCode::SUCCESS),
            Err((url, status)) => refused(&url, &status, json),
        }
    }
}
