//! Browsers on the gRPC port: gRPC-Web (tonic-web) over HTTP/1.1 or HTTP/2, and CORS for pages
//! served from other origins.
//!
//! A browser cannot speak gRPC over HTTP/2 itself (no trailers, no control of framing), so
//! gRPC-Web requests (`application/grpc-web`, `application/grpc-web-text`) are translated into
//! gRPC before any service sees them, and the replies back. Unary and server-streaming calls work
//! so; bidirectional streams (v1, `SolveStream`) need a real gRPC client. A page from another
//! origin may call only when its origin is listed in `--cors-allowed-origins` (or `*`): the
//! preflight is answered here, and the gRPC status headers are exposed to its script.

use std::time::Duration;

use tonic::codegen::http::{HeaderName, HeaderValue, Method, header};
use tonic_web::GrpcWebLayer;
use tower::ServiceBuilder;
use tower::layer::util::{Identity, Stack};
use tower_http::cors::{AllowOrigin, CorsLayer};

/// Where browser pages may call from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum AllowedOrigins {
    /// Only the server's own origin (its page at `/`): no CORS headers.
    #[default]
    SameOrigin,
    /// Any origin (`*`).
    Any,
    /// These origins (`https://game.example`, exactly as browsers send them).
    List(Vec<HeaderValue>),
}

impl std::str::FromStr for AllowedOrigins {
    type Err = String;

    /// `*`, or a comma-separated list of origins; empty means the server's own origin only.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(Self::SameOrigin);
        }
        if text == "*" {
            return Ok(Self::Any);
        }
        text.split(',')
            .map(str::trim)
            .filter(|origin| !origin.is_empty())
            .map(|origin| {
                if !(origin.starts_with("http://") || origin.starts_with("https://"))
                    || origin.trim_end_matches('/').matches('/').count() != 2
                {
                    return Err(format!(
                        "{origin:?} is not an origin: expected scheme://host[:port], such as https://game.example"
                    ));
                }
                HeaderValue::from_str(origin.trim_end_matches('/'))
                    .map_err(|_| format!("{origin:?} is not a valid origin"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Self::List)
    }
}

impl std::fmt::Display for AllowedOrigins {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::SameOrigin => Ok(()),
            Self::Any => f.write_str("*"),
            Self::List(origins) => {
                let names: Vec<&str> = origins.iter().filter_map(|o| o.to_str().ok()).collect();
                f.write_str(&names.join(","))
            }
        }
    }
}

/// The CORS policy for `origins`: preflights answered, gRPC(-Web) request headers allowed and
/// the status headers exposed.
fn cors(origins: &AllowedOrigins) -> CorsLayer {
    let allow = match origins {
        AllowedOrigins::SameOrigin => AllowOrigin::list([]),
        AllowedOrigins::Any => AllowOrigin::any(),
        AllowedOrigins::List(list) => AllowOrigin::list(list.iter().cloned()),
    };
    let names = |names: &[&'static str]| -> Vec<HeaderName> {
        names.iter().map(|&n| HeaderName::from_static(n)).collect()
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([Method::POST, Method::OPTIONS])
        .allow_headers(
            [header::CONTENT_TYPE, header::AUTHORIZATION]
                .into_iter()
                .chain(names(&[
                    "x-grpc-web",
                    "x-user-agent",
                    "grpc-timeout",
                    "grpc-accept-encoding",
                ]))
                .collect::<Vec<_>>(),
        )
        .expose_headers(names(&[
            "grpc-status",
            "grpc-message",
            "grpc-status-details-bin",
            "grpc-encoding",
        ]))
        .max_age(Duration::from_secs(3600))
}

/// The layers in front of every service: CORS outermost (a preflight never reaches gRPC), then
/// the gRPC-Web translation.
pub(crate) fn layers(
    origins: &AllowedOrigins,
) -> ServiceBuilder<Stack<GrpcWebLayer, Stack<CorsLayer, Identity>>> {
    ServiceBuilder::new()
        .layer(cors(origins))
        .layer(GrpcWebLayer::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_parse_and_print_back() {
        assert_eq!("".parse(), Ok(AllowedOrigins::SameOrigin));
        assert_eq!("*".parse(), Ok(AllowedOrigins::Any));
        let list: AllowedOrigins = "https://a.example, http://localhost:8080/".parse().unwrap();
        assert_eq!(list.to_string(), "https://a.example,http://localhost:8080");
        assert!("a.example".parse::<AllowedOrigins>().is_err());
        assert!("https://a.example/path".parse::<AllowedOrigins>().is_err());
    }
}
