//! What the gRPC port does below gRPC: HTTP/2 flow-control windows sized so that no client that
//! sends one message per DATA frame is ever cut off, and a filter that refuses requests which are
//! not gRPC.
//!
//! # Flow control and h2's small-DATA-frame budget
//!
//! h2 (0.4.20, under hyper and tonic) keeps a per-connection budget against floods of small DATA
//! frames: a non-final frame of fewer than 256 payload bytes is charged `256 - len` bytes when it
//! arrives and refunded when the application reads it. When the charges exceed the budget, h2
//! sends GOAWAY `ENHANCE_YOUR_CALM` "too_many_data_frames" and every stream on the connection
//! dies. The budget is half the connection's receive window (neither hyper nor tonic can set it
//! otherwise).
//!
//! grpcio, grpc-go and grpc-java put every message in its own DATA frame, and a case is 16 to 40
//! bytes. A stream whose window of cases is full stops being read (that is the backpressure), so
//! its frames wait inside h2, charged, until the sender runs out of HTTP/2 stream window. With
//! hyper's 1 MiB stream window and a 16 MiB connection window (budget 8 MiB), one stream of
//! 18-byte frames got GOAWAY after 39,168 frames.
//!
//! The windows here are chosen so that what a peer may legally leave unread can never exceed the
//! budget:
//!
//! * unread bytes per stream ≤ the stream window `W` (`--stream-window`, 24 KiB by default);
//! * the smallest frame of a one-message-per-frame client is the 5-byte gRPC prefix of an empty
//!   message, so a stream holds at most `⌊W / 5⌋ = 4,915` unread frames, charged at most
//!   `256 - 5 = 251` bytes each: 1,233,665 bytes per stream;
//! * a connection carries at most `N` streams at once (HTTP/2 `MAX_CONCURRENT_STREAMS`), so at
//!   most `N × 1,233,665` bytes of charges;
//! * the connection window is set to twice that, so the budget, half of it, covers every stream
//!   holding a full window of the smallest frames.
//!
//! The largest legal window is 2³¹ − 1, so a connection can offer this to at most
//! `⌊(2³¹ − 1) / 2 / 1,233,665⌋ = 870` streams at once: `N` is `--max-streams` (1,024 by
//! default) but at most 870 per connection, and the connection window is then
//! 2,146,577,100 bytes. `--max-streams` still holds for the server as a whole; on one connection
//! further calls wait for a stream to close. The connection window no longer bounds memory (it
//! exceeds all its streams' windows together); the stream windows do.
//!
//! Why not smaller than 24 KiB: a client may send on a new connection before it has read the
//! server's SETTINGS, with HTTP/2's default window of 65,535 bytes. If the server reads all of it
//! before the client's SETTINGS ACK arrives, h2 0.4.20 sends no WINDOW_UPDATE below half the
//! window (so up to 21,844 bytes stay unclaimed), then lowers the window on the ACK without
//! granting anything. A stream window of at most 21,844 bytes can thus leave the client at a
//! window ≤ 0 with nothing left to read: the stream hangs for ever (measured with 4 KiB: a
//! client that sent 5,000 bytes before reading SETTINGS never got window back). From
//! [`MIN_STREAM_WINDOW`] up the client always keeps some window, sends, and the next read grants
//! the rest.
//!
//! What a stream whose client stops reading holds: its unread request frames (≤ 24 KiB of
//! payload; h2 also keeps about 220 bytes per frame, which for 18-byte frames would be about
//! 290 KiB, but `crate::coalesce` merges each burst of one stream's small frames before h2 sees
//! them), the cases of its server-side window and the replies queued behind them (`--window`,
//! about 440 bytes per unit of window), and a fixed part (codec buffers, stream state). The
//! measured figures are in the server README. Frames smaller than 5 bytes (a message split over
//! several frames, which no gRPC implementation does) can still spend the budget, as h2 intends.
//!
//! # Only gRPC is served
//!
//! The port speaks HTTP/2 only, and tonic routes by path alone. [`grpc_only`] answers a method
//! other than POST with 405 Method Not Allowed and a content type other than `application/grpc`
//! (optionally `+proto`, optionally with parameters) with 415 Unsupported Media Type, as the gRPC
//! over HTTP/2 specification asks, before any service sees the request. gRPC-Web
//! (`application/grpc-web…`) reaches this filter already translated into gRPC by the layer in
//! front of it (`crate::web`), so it passes.

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse as _, Response};
use tonic::codegen::http::{HeaderValue, Method, StatusCode, header};
use tonic::service::Routes;

/// h2 charges a non-final DATA frame with fewer payload bytes than this.
const SMALL_FRAME: u64 = 256;

/// The smallest DATA frame a client that sends one message per frame can send: the 5-byte gRPC
/// prefix of an empty message.
const SMALLEST_MESSAGE_FRAME: u64 = 5;

/// The largest HTTP/2 flow-control window.
const MAX_WINDOW: u64 = (1 << 31) - 1;

/// The smallest stream window that cannot hang a stream whose client sent more than it before
/// reading the server's SETTINGS (see the module documentation): h2 leaves at most a third of
/// HTTP/2's default window, 21,844 bytes, unclaimed.
pub(crate) const MIN_STREAM_WINDOW: u32 = 21_846;

/// The smallest connection window used (hyper's default), for a server with few streams.
const MIN_CONNECTION_WINDOW: u64 = 1 << 20;

/// The most h2 may charge one stream holding a full window of `stream_window` bytes of the
/// smallest frames.
const fn stream_charge(stream_window: u32) -> u64 {
    stream_window as u64 / SMALLEST_MESSAGE_FRAME * (SMALL_FRAME - SMALLEST_MESSAGE_FRAME)
}

/// The HTTP/2 settings of every connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Http2Limits {
    /// `SETTINGS_MAX_CONCURRENT_STREAMS`.
    pub(crate) streams_per_connection: u32,
    /// Receive window of each stream.
    pub(crate) stream_window: u32,
    /// Receive window of the connection: twice the charges all its streams may hold.
    pub(crate) connection_window: u32,
}

impl Http2Limits {
    /// The limits for a server allowing `max_streams` streams in all, each with a receive window
    /// of `stream_window` bytes.
    pub(crate) fn new(max_streams: usize, stream_window: u32) -> Self {
        let charge = stream_charge(stream_window).max(1);
        // As many streams per connection as the largest budget covers (870 with 24 KiB
        // windows), and no more than the server allows in all.
        let most = (MAX_WINDOW / 2 / charge).max(1);
        let streams = u64::try_from(max_streams)
            .unwrap_or(u64::MAX)
            .clamp(1, most);
        let connection_window = (2 * streams * charge)
            .max(u64::from(stream_window))
            .clamp(MIN_CONNECTION_WINDOW, MAX_WINDOW);
        Self {
            streams_per_connection: u32::try_from(streams).unwrap_or(u32::MAX),
            stream_window,
            connection_window: u32::try_from(connection_window).unwrap_or(u32::MAX),
        }
    }
}

/// Puts the gRPC-only filter in front of every route (and the fallback) of `routes`.
pub(crate) fn grpc_only(routes: Routes) -> Routes {
    Routes::from(
        routes
            .into_axum_router()
            .layer(middleware::from_fn(refuse_non_grpc)),
    )
}

/// Whether `content_type` names gRPC over HTTP/2 with the protobuf codec.
fn is_grpc(content_type: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(content_type) else {
        return false;
    };
    let media_type = text.split(';').next().unwrap_or_default().trim();
    media_type.eq_ignore_ascii_case("application/grpc")
        || media_type.eq_ignore_ascii_case("application/grpc+proto")
}

async fn refuse_non_grpc(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        let mut response = refusal(
            StatusCode::METHOD_NOT_ALLOWED,
            "this port serves gRPC only: use POST\n",
        );
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("POST"));
        return response;
    }
    let grpc = request
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| is_grpc(value.as_bytes()));
    if !grpc {
        return refusal(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "this port serves gRPC only: content-type must be application/grpc\n",
        );
    }
    next.run(request).await
}

fn refusal(status: StatusCode, message: &'static str) -> Response {
    let mut response = (status, Body::from(message)).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests {
    use std::future::poll_fn;

    use tonic::codegen::Service;

    use super::*;

    /// h2 0.4.20's rule (`Counts::record_data_frame`, `DataFrameBudget::resolve`), restated.
    fn h2_budget(connection_window: u32) -> u64 {
        (u64::from(connection_window) / 2).max(SMALL_FRAME * 100)
    }

    #[test]
    fn every_stream_full_of_the_smallest_frames_fits_the_budget() {
        for stream_window in [MIN_STREAM_WINDOW, 24 << 10, 64 << 10, 1 << 20] {
            for max_streams in [1, 2, 100, 870, 871, 1024, 10_000, 1_000_000] {
                let limits = Http2Limits::new(max_streams, stream_window);
                let frames = u64::from(limits.stream_window) / SMALLEST_MESSAGE_FRAME;
                let charges = u64::from(limits.streams_per_connection) * frames * 251;
                assert!(
                    charges <= h2_budget(limits.connection_window),
                    "{max_streams} streams of {stream_window} bytes: {charges} > {}",
                    h2_budget(limits.connection_window)
                );
                assert!(limits.connection_window >= limits.stream_window);
                assert!(limits.streams_per_connection >= 1);
            }
        }
        let limits = Http2Limits::new(1024, 24 << 10);
        assert_eq!(limits.streams_per_connection, 870);
        assert_eq!(limits.connection_window, 2_146_577_100);
        assert_eq!(Http2Limits::new(100, 24 << 10).streams_per_connection, 100);
        assert_eq!(
            Http2Limits::new(100, 24 << 10).connection_window,
            246_733_000
        );
        assert_eq!(Http2Limits::new(9999, 1 << 20).streams_per_connection, 20);
    }

    /// h2 0.4.20 (`FlowControl::unclaimed_capacity`): a WINDOW_UPDATE goes out once the
    /// unclaimed capacity reaches half the window. Before the SETTINGS ACK the window is 65,535;
    /// the most that can stay unclaimed is the largest `u` with `u < (65,535 − u) / 2`.
    #[test]
    fn the_smallest_stream_window_outlasts_what_h2_leaves_unclaimed() {
        let default = 65_535_i64;
        let most_unclaimed = (0..default)
            .filter(|u| *u < (default - u) / 2)
            .max()
            .unwrap();
        assert_eq!(most_unclaimed, 21_844);
        assert!(i64::from(MIN_STREAM_WINDOW) > most_unclaimed);
    }

    #[test]
    fn grpc_content_types() {
        for good in [
            "application/grpc",
            "application/grpc+proto",
            "Application/GRPC; charset=utf-8",
        ] {
            assert!(is_grpc(good.as_bytes()), "{good}");
        }
        for bad in [
            "",
            "text/plain",
            "application/json",
            "application/grpc-web",
            "application/grpc-web+proto",
            "application/grpc+json",
            "application/grpcx",
        ] {
            assert!(!is_grpc(bad.as_bytes()), "{bad}");
        }
    }

    async fn status_of(method: Method, content_type: Option<&str>) -> (StatusCode, Option<String>) {
        let mut routes = grpc_only(Routes::default()).prepare();
        let mut request = Request::builder()
            .method(method)
            .uri("/solver.v1.Solver/SolveEight");
        if let Some(content_type) = content_type {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        let request = request.body(Body::empty()).unwrap();
        poll_fn(|cx| Service::<Request>::poll_ready(&mut routes, cx))
            .await
            .unwrap();
        let response = routes.call(request).await.unwrap();
        let grpc_status = response
            .headers()
            .get("grpc-status")
            .map(|value| value.to_str().unwrap().to_owned());
        (response.status(), grpc_status)
    }

    #[tokio::test]
    async fn only_grpc_reaches_the_services() {
        assert_eq!(
            status_of(Method::GET, None).await,
            (StatusCode::METHOD_NOT_ALLOWED, None)
        );
        assert_eq!(
            status_of(Method::GET, Some("application/grpc")).await,
            (StatusCode::METHOD_NOT_ALLOWED, None)
        );
        assert_eq!(
            status_of(Method::POST, Some("application/json")).await,
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, None)
        );
        assert_eq!(
            status_of(Method::POST, None).await,
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, None)
        );
        // gRPC goes through to the routes (here none: tonic answers UNIMPLEMENTED, code 12).
        assert_eq!(
            status_of(Method::POST, Some("application/grpc")).await,
            (StatusCode::OK, Some("12".to_owned()))
        );
    }
}
