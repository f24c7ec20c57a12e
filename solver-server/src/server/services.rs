//! The services a server answers, and the layers in front of them: the solver's v1 and v2
//! contracts, health and reflection, each with gzip both ways; then the limits on health and
//! reflection streams, the bearer-token check and the gRPC-only filter, outermost last.

use std::sync::Arc;

use solver_proto::v2::solver_service_server::SolverServiceServer;
use tokio_util::sync::CancellationToken;
use tonic::codec::CompressionEncoding;
use tonic::service::{Routes, RoutesBuilder};

use crate::auth::{self, Auth};
use crate::config::{self, Config};
use crate::errors::ServeError;
use crate::http;
use crate::pb;
use crate::pb::solver_server::SolverServer;
use crate::service::{Shared, SolverService, SolverServiceV2};
use crate::watch;

/// The fully qualified name of the v1 solver service, as health and reflection know it.
pub(super) const SERVICE_NAME: &str = "solver.v1.Solver";
/// The fully qualified name of the v2 solver service.
pub(super) const SERVICE_NAME_V2: &str = "solver.v2.SolverService";

/// The one compression every service accepts and offers.
const GZIP: CompressionEncoding = CompressionEncoding::Gzip;

/// The bearer tokens the configuration asks for, loaded now (a server whose tokens file does not
/// load does not start) and watched for changes until `stopped`.
pub(super) fn load_auth(
    config: &config::Auth,
    stopped: &CancellationToken,
) -> Result<Option<Arc<Auth>>, ServeError> {
    let Some(path) = &config.tokens_file else {
        return Ok(None);
    };
    let auth = Auth::load(
        path.clone(),
        config.max_streams_per_token,
        config.max_cases_per_token,
    )?;
    tokio::spawn(watch::watch(auth.tokens(), stopped.clone()));
    Ok(Some(auth))
}

/// Every service, behind the filters every call passes.
pub(super) fn routes(
    shared: &Arc<Shared>,
    config: &Config,
    health: tonic_health::pb::health_server::HealthServer<
        impl tonic_health::pb::health_server::Health,
    >,
    auth: Option<Arc<Auth>>,
) -> Result<Routes, ServeError> {
    let routes = services(shared, config, health)?;
    // GET and non-gRPC content types are refused before any service sees them, then calls
    // without a valid bearer token when tokens are asked for; then health `Watch` and
    // reflection streams take a slot of `--max-streams` as the solver's calls do (`health`).
    let routes = crate::health::count_streams(
        routes.routes(),
        Arc::clone(&shared.streams),
        config.limits.max_streams,
    );
    let routes = match auth {
        Some(auth) => auth::require(routes, auth),
        None => routes,
    };
    Ok(http::grpc_only(routes))
}

/// Health, reflection and both solver contracts. Every service takes gzip-compressed requests,
/// and compresses its responses for a client that says it accepts gzip
/// (`grpc-accept-encoding`); others get them uncompressed.
fn services(
    shared: &Arc<Shared>,
    config: &Config,
    health: tonic_health::pb::health_server::HealthServer<
        impl tonic_health::pb::health_server::Health,
    >,
) -> Result<RoutesBuilder, ServeError> {
    let reflection_v1 = reflection()
        .build_v1()?
        .accept_compressed(GZIP)
        .send_compressed(GZIP);
    let reflection_v1alpha = reflection()
        .build_v1alpha()?
        .accept_compressed(GZIP)
        .send_compressed(GZIP);
    let health_service = health.accept_compressed(GZIP).send_compressed(GZIP);
    let solver = SolverServer::new(SolverService::new(Arc::clone(shared)))
        .max_decoding_message_size(config.limits.max_message_bytes)
        .max_encoding_message_size(config.limits.max_message_bytes)
        .accept_compressed(GZIP)
        .send_compressed(GZIP);
    let solver_v2 = SolverServiceServer::new(SolverServiceV2::new(Arc::clone(shared)))
        .max_decoding_message_size(config.limits.max_message_bytes)
        .max_encoding_message_size(config.limits.max_message_bytes)
        .accept_compressed(GZIP)
        .send_compressed(GZIP);
    let mut routes = RoutesBuilder::default();
    routes
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(solver)
        .add_service(solver_v2);
    Ok(routes)
}

/// Reflection over the solver's and the health service's descriptors, listing both.
fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .with_service_name(SERVICE_NAME)
        .with_service_name(SERVICE_NAME_V2)
        .with_service_name("grpc.health.v1.Health")
}
