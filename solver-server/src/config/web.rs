//! What browsers get on the gRPC port: the page at `/`, and the origins allowed to call.

use clap::Args;

/// Browsers: CORS for pages of other origins, and the server's own page.
#[derive(Debug, Clone, Args)]
pub struct Web {
    /// Browser pages of other origins allowed to call through gRPC-Web (CORS): a
    /// comma-separated list such as `https://game.example,http://localhost:8080`, or `*` for
    /// any. Empty (the default): only pages of the server's own origin. gRPC-Web itself (HTTP/1.1
    /// or HTTP/2, `application/grpc-web*`) is always served on the gRPC port.
    #[arg(
        long,
        env = "SOLVER_CORS_ALLOWED_ORIGINS",
        value_name = "ORIGINS",
        default_value = ""
    )]
    pub cors_allowed_origins: crate::web::AllowedOrigins,

    /// Serve the page at `/` (a board, scrambles, hints and solutions played back, through
    /// gRPC-Web) on the gRPC port; `false` leaves `/` to gRPC alone.
    #[arg(
        id = "web_page",
        long = "web-page",
        value_name = "WEB_PAGE",
        env = "SOLVER_WEB_PAGE",
        default_value_t = true,
        action = clap::ArgAction::Set
    )]
    pub page: bool,
}
