//! Servers that appear while a run goes on: the `--server` names are resolved again every so often
//! and every new address gets a worker stream of its own (a Kubernetes headless service gains
//! addresses as replicas scale out).

use std::sync::Arc;

use futures::future::BoxFuture;
use futures::stream::BoxStream;

use super::dispatch::Dispatch;
use super::worker::{Event, open};
use crate::endpoints::{self, Address, Endpoint, EndpointError};
use crate::failure::Unanswered;
use crate::link::Link;

/// How a run finds new servers.
pub(crate) struct Refresh {
    /// How often to resolve again.
    pub(crate) every: std::time::Duration,
    /// The current addresses of the servers.
    pub(crate) resolve:
        Box<dyn Fn() -> BoxFuture<'static, Result<Vec<Address>, EndpointError>> + Send + Sync>,
    /// How to connect to them.
    pub(crate) link: Arc<Link>,
}

impl std::fmt::Debug for Refresh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Refresh")
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

impl Refresh {
    /// A timer that first fires one period from now.
    pub(super) fn timer(&self) -> tokio::time::Interval {
        tokio::time::interval_at(tokio::time::Instant::now() + self.every, self.every)
    }

    /// Connects to the addresses not seen before in this run and opens a worker on each.
    pub(super) async fn join(
        &self,
        endpoints: &mut Vec<Endpoint>,
        dispatch: &Arc<Dispatch>,
    ) -> Vec<BoxStream<'static, Event>> {
        // A failed lookup now is no reason to stop a run that has servers: try again later.
        let Ok(urls) = (self.resolve)().await else {
            return Vec::new();
        };
        let fresh: Vec<Address> = urls
            .into_iter()
            .filter(|address| !endpoints.iter().any(|e| e.url == address.url))
            .collect();
        if fresh.is_empty() {
            return Vec::new();
        }
        let Ok(connected) = endpoints::connect(&fresh, &self.link).await else {
            return Vec::new();
        };
        let mut streams = Vec::new();
        for endpoint in connected {
            let worker = dispatch.add_worker();
            endpoints.push(endpoint);
            match open(&endpoints[worker], worker, dispatch).await {
                Ok(stream) => streams.push(stream),
                Err(status) => {
                    let why = Unanswered::Refused {
                        url: endpoints[worker].url.clone(),
                        status,
                    };
                    dispatch.give_up(endpoints, worker, &why);
                }
            }
        }
        streams
    }
}

/// Completes at the refresh timer's next tick; never without a timer.
pub(super) async fn tick(timer: Option<&mut tokio::time::Interval>) {
    match timer {
        Some(timer) => {
            timer.tick().await;
        }
        None => std::future::pending().await,
    }
}
