//! The page at `/`: a person sets up a board, asks for a scramble, a hint or the solution, and
//! watches the tiles slide (see `web/README.md`).
//!
//! The page, its one script and its stylesheet are built from `web/` and committed in
//! `web/dist/`, so they are embedded here without npm at build time. The page calls the service
//! from the browser through gRPC-Web on the same origin. [`PageLayer`] sits in front of
//! everything else on the gRPC port (gRPC-Web translation and the gRPC-only filter included):
//! `GET` or `HEAD` of one of the page's paths is answered here, over HTTP/1.1 or HTTP/2; every
//! other request goes on untouched. With `--web-page false` nothing is answered here.

use std::task::{Context, Poll};

use axum::body::Body as AxumBody;
use futures::future::{Either, Ready, ready};
use tonic::body::Body;
use tonic::codegen::http::{HeaderValue, Method, Request, Response, StatusCode, header};
use tower::{Layer, Service};

/// One embedded file and the path it is served at.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

/// Everything the page needs.
const ASSETS: [Asset; 3] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("../../web/dist/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/dist/app.js"),
    },
    Asset {
        path: "/app.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../web/dist/app.css"),
    },
];

/// Only what the server itself serves: no other origin, no inline script or style element.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
    base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The response to `method` of `path`, when it is one of the page's.
fn respond(method: &Method, path: &str) -> Option<Response<Body>> {
    if method != Method::GET && method != Method::HEAD {
        return None;
    }
    let asset = ASSETS.iter().find(|asset| asset.path == path)?;
    let body = if method == Method::HEAD {
        AxumBody::empty()
    } else {
        AxumBody::from(asset.body)
    };
    let mut response = Response::new(Body::new(body));
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(asset.body.len()));
    // The files change with the server's version: always ask again.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    Some(response)
}

/// Serves the page in front of the inner service when `enabled`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PageLayer {
    enabled: bool,
}

impl PageLayer {
    pub(crate) fn new(enabled: bool) -> Self {
        Self { enabled }
    }
}

impl<S> Layer<S> for PageLayer {
    type Service = Page<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Page {
            inner,
            enabled: self.enabled,
        }
    }
}

/// See [`PageLayer`].
#[derive(Debug, Clone)]
pub(crate) struct Page<S> {
    inner: S,
    enabled: bool,
}

impl<S, B> Service<Request<B>> for Page<S>
where
    S: Service<Request<B>, Response = Response<Body>>,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = Either<Ready<Result<Response<Body>, S::Error>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if self.enabled
            && let Some(response) = respond(request.method(), request.uri().path())
        {
            return Either::Left(ready(Ok(response)));
        }
        Either::Right(self.inner.call(request))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_its_script_and_stylesheet() {
        let page = std::str::from_utf8(ASSETS[0].body).unwrap();
        assert!(page.contains(r#"src="app.js""#));
        assert!(page.contains(r#"href="app.css""#));
        // Nothing from elsewhere.
        assert!(!page.contains("http://") && !page.contains("https://"));
        for asset in &ASSETS {
            assert!(!asset.body.is_empty(), "{}", asset.path);
        }
    }

    #[test]
    fn only_get_and_head_of_the_page_paths_are_answered() {
        let response = respond(&Method::GET, "/app.js").unwrap();
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8"
        );
        assert!(respond(&Method::HEAD, "/").is_some());
        assert!(respond(&Method::POST, "/").is_none());
        assert!(respond(&Method::GET, "/solver.v2.SolverService/Solve").is_none());
        assert!(respond(&Method::GET, "/../Cargo.toml").is_none());
    }
}
