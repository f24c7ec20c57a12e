//! The HTTP layers in front of every service, as one concrete type so that the transport can
//! take the router they make without spelling out tonic's bounds on a layered router.

use tonic::transport::server::Router;
use tonic_web::GrpcWebLayer;
use tower::ServiceBuilder;
use tower::layer::util::{Identity, Stack};
use tower_http::cors::CorsLayer;

use crate::arrival::ArrivalLayer;
use crate::config::Web;
use crate::page::PageLayer;
use crate::web;

/// The layers of [`layers`], outermost last in the type (innermost first).
pub(super) type Layers = ServiceBuilder<
    Stack<
        ServiceBuilder<Stack<GrpcWebLayer, Stack<CorsLayer, Identity>>>,
        Stack<PageLayer, Stack<ArrivalLayer, Identity>>,
    >,
>;

/// A router of the services behind [`Layers`]: what the transport serves.
pub(super) type LayeredRouter = Router<Stack<Layers, Identity>>;

/// Every request is stamped with its arrival first (see `arrival`); the page at `/`, when on, is
/// answered in front of everything else (see `page`); then CORS and gRPC-Web, for browsers over
/// HTTP/1.1 or HTTP/2 (see `web`).
pub(super) fn layers(web_config: &Web) -> Layers {
    ServiceBuilder::new()
        .layer(ArrivalLayer)
        .layer(PageLayer::new(web_config.page))
        .layer(web::layers(&web_config.cors_allowed_origins))
}
