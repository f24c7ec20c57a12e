//! A hostile client below gRPC, in raw HTTP/2 frames: tiny DATA frames on stalled streams,
//! interleaved or one per read, close its connection while a client that sends one message per
//! frame and leaves a full window unread keeps its streams; connections that never finish their
//! handshake are closed.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use solver_proto::v2::solve_response;
use solver_server::Config;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

use crate::common::{TestServer, config, config_with, v2_eight};

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const DATA: u8 = 0x0;
const HEADERS: u8 = 0x1;
const RST_STREAM: u8 = 0x3;
const SETTINGS: u8 = 0x4;
const PING: u8 = 0x6;
const GOAWAY: u8 = 0x7;
const WINDOW_UPDATE: u8 = 0x8;
const END_STREAM: u8 = 0x1;
const ACK: u8 = 0x1;
const END_HEADERS: u8 = 0x4;
const INITIAL_WINDOW_SIZE: u16 = 0x4;
const ENHANCE_YOUR_CALM: u32 = 0xb;
const SETTINGS_TIMEOUT: u32 = 0x4;
const EIGHT: &str = "/solver.v1.Solver/SolveEight";

fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).unwrap().to_be_bytes();
    let mut bytes = len[1..].to_vec();
    bytes.extend_from_slice(&[kind, flags]);
    bytes.extend_from_slice(&stream.to_be_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// A `solver.v1.SlidingRequest` for the 3×3 board one move from the goal, gRPC-framed: 18
/// bytes, as grpcio would send it in a DATA frame of its own.
fn case(id: u8) -> Vec<u8> {
    let mut message = vec![0x08, id & 0x7f, 0x12, 9];
    message.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 0, 8]);
    let mut framed = vec![0];
    framed.extend_from_slice(&u32::try_from(message.len()).unwrap().to_be_bytes());
    framed.extend_from_slice(&message);
    framed
}

/// How a connection ended, if it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Closed {
    /// Still open.
    No,
    /// GOAWAY with this code.
    GoAway(u32),
    /// End of file or reset, without a GOAWAY.
    Dropped,
}

/// One HTTP/2 connection driven frame by frame, with no HTTP/2 library in between.
struct Raw {
    socket: TcpStream,
    input: Vec<u8>,
    /// Send window of each stream opened, from the server's SETTINGS and WINDOW_UPDATEs.
    windows: HashMap<u32, i64>,
    initial_window: i64,
    /// Reply bytes received per stream.
    replies: HashMap<u32, Vec<u8>>,
    /// Streams that ended (END_STREAM from the server) or were reset (with the code).
    ended: HashMap<u32, Option<u32>>,
    closed: Closed,
}

impl Raw {
    /// Connects; with `window` as the stream window the client grants the server (0: the
    /// server cannot send a single reply byte, so each stream stalls once its window of cases
    /// is full). Waits for the server's SETTINGS and acknowledges them.
    async fn connect(addr: SocketAddr, window: u32) -> Self {
        let socket = TcpStream::connect(addr).await.unwrap();
        socket.set_nodelay(true).unwrap();
        let mut raw = Self {
            socket,
            input: Vec::new(),
            windows: HashMap::new(),
            initial_window: 65_535,
            replies: HashMap::new(),
            ended: HashMap::new(),
            closed: Closed::No,
        };
        let mut settings = INITIAL_WINDOW_SIZE.to_be_bytes().to_vec();
        settings.extend_from_slice(&window.to_be_bytes());
        let mut hello = PREFACE.to_vec();
        hello.extend(frame(SETTINGS, 0, 0, &settings));
        raw.send(&hello).await;
        raw.pump(Duration::from_millis(300)).await;
        raw
    }

    /// Opens stream `id`, a call of `path` (HPACK literals, nothing indexed).
    async fn open(&mut self, id: u32, path: &str) {
        let mut block = Vec::new();
        for (name, value) in [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", path),
            (":authority", "localhost"),
            ("content-type", "application/grpc"),
            ("te", "trailers"),
        ] {
            block.push(0);
            block.push(u8::try_from(name.len()).unwrap());
            block.extend_from_slice(name.as_bytes());
            block.push(u8::try_from(value.len()).unwrap());
            block.extend_from_slice(value.as_bytes());
        }
        self.windows.insert(id, self.initial_window);
        self.send(&frame(HEADERS, END_HEADERS, id, &block)).await;
    }

    async fn send(&mut self, bytes: &[u8]) {
        if self.closed == Closed::No && self.socket.write_all(bytes).await.is_err() {
            self.closed = Closed::Dropped;
        }
    }

    /// A DATA frame on `id`, counted against its window.
    fn data(&mut self, id: u32, payload: &[u8], flags: u8) -> Vec<u8> {
        *self.windows.get_mut(&id).unwrap() -= i64::try_from(payload.len()).unwrap();
        frame(DATA, flags, id, payload)
    }

    /// Reads and handles what arrives within `wait`.
    async fn pump(&mut self, wait: Duration) {
        let deadline = tokio::time::Instant::now() + wait;
        let mut buf = vec![0; 1 << 16];
        while self.closed == Closed::No {
            let read = tokio::time::timeout_at(deadline, self.socket.read(&mut buf)).await;
            match read {
                Err(_) => break,
                Ok(Ok(0) | Err(_)) => {
                    self.handle();
                    if self.closed == Closed::No {
                        self.closed = Closed::Dropped;
                    }
                    break;
                }
                Ok(Ok(n)) => {
                    self.input.extend_from_slice(&buf[..n]);
                    let answer = self.handle();
                    self.send(&answer).await;
                }
            }
        }
    }

    /// Handles the whole frames received; returns what to answer (ACKs).
    fn handle(&mut self) -> Vec<u8> {
        let mut answer = Vec::new();
        while self.input.len() >= 9 {
            let len = usize::from(self.input[0]) << 16
                | usize::from(self.input[1]) << 8
                | usize::from(self.input[2]);
            if self.input.len() < 9 + len {
                break;
            }
            let (kind, flags) = (self.input[3], self.input[4]);
            let id = u32::from_be_bytes(self.input[5..9].try_into().unwrap()) & 0x7fff_ffff;
            let payload: Vec<u8> = self.input[9..9 + len].to_vec();
            self.input.drain(..9 + len);
            let word = |at: usize| u32::from_be_bytes(payload[at..at + 4].try_into().unwrap());
            match kind {
                SETTINGS if flags & ACK == 0 => {
                    for setting in payload.chunks(6) {
                        if u16::from_be_bytes([setting[0], setting[1]]) == INITIAL_WINDOW_SIZE {
                            let value =
                                i64::from(u32::from_be_bytes(setting[2..].try_into().unwrap()));
                            for window in self.windows.values_mut() {
                                *window += value - self.initial_window;
                            }
                            self.initial_window = value;
                        }
                    }
                    answer.extend(frame(SETTINGS, ACK, 0, &[]));
                }
                PING if flags & ACK == 0 => answer.extend(frame(PING, ACK, 0, &payload)),
                WINDOW_UPDATE if id != 0 => {
                    if let Some(window) = self.windows.get_mut(&id) {
                        *window += i64::from(word(0) & 0x7fff_ffff);
                    }
                }
                DATA => {
                    self.replies
                        .entry(id)
                        .or_default()
                        .extend_from_slice(&payload);
                    if flags & END_STREAM != 0 {
                        self.ended.insert(id, None);
                    }
                }
                HEADERS if flags & END_STREAM != 0 => {
                    self.ended.insert(id, None);
                }
                RST_STREAM => {
                    self.ended.insert(id, Some(word(0)));
                }
                GOAWAY => self.closed = Closed::GoAway(word(4)),
                _ => {}
            }
        }
        answer
    }

    /// The gRPC messages received on `id`.
    fn messages(&self, id: u32) -> usize {
        let bytes = self.replies.get(&id).map_or(&[][..], Vec::as_slice);
        let (mut at, mut count) = (0, 0);
        while at + 5 <= bytes.len() {
            at += 5 + usize::try_from(u32::from_be_bytes(
                bytes[at + 1..at + 5].try_into().unwrap(),
            ))
            .unwrap();
            count += 1;
        }
        count
    }
}

/// Sends the bytes of 3×3 cases on `streams` in DATA frames of `size` bytes, the streams taking
/// turns frame by frame (`per_write` frames a write: 1 writes each frame alone, 1 ms apart),
/// as long as their windows allow and the connection is open; stops when nothing could be sent
/// for a second. Returns the frames sent.
async fn feed(raw: &mut Raw, streams: &[u32], size: usize, per_write: usize, most: usize) -> usize {
    let mut bytes: HashMap<u32, std::iter::Cycle<std::vec::IntoIter<u8>>> = streams
        .iter()
        .map(|&id| {
            (
                id,
                (1..=100)
                    .flat_map(case)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .cycle(),
            )
        })
        .collect();
    let size_i64 = i64::try_from(size).unwrap();
    let mut sent = 0;
    let mut idle_since = None;
    while raw.closed == Closed::No && sent < most {
        let mut out = Vec::new();
        let mut frames = 0;
        for &id in streams
            .iter()
            .cycle()
            .take(streams.len() * per_write.div_ceil(streams.len()))
        {
            if raw.windows[&id] >= size_i64 && !raw.ended.contains_key(&id) {
                let payload: Vec<u8> = bytes.get_mut(&id).unwrap().take(size).collect();
                out.extend(raw.data(id, &payload, 0));
                frames += 1;
            }
        }
        if frames == 0 {
            let since = *idle_since.get_or_insert_with(Instant::now);
            if since.elapsed() > Duration::from_secs(1) {
                break;
            }
            raw.pump(Duration::from_millis(50)).await;
            continue;
        }
        idle_since = None;
        raw.send(&out).await;
        sent += frames;
        let wait = if per_write == 1 { 1 } else { 0 };
        raw.pump(Duration::from_millis(wait)).await;
    }
    raw.pump(Duration::from_millis(300)).await;
    sent
}

/// A call on a connection of its own is answered.
async fn another_client_is_served(server: &TestServer) {
    let reply = server
        .client_v2()
        .await
        .solve(v2_eight("other"))
        .await
        .expect("another client is served")
        .into_inner();
    assert!(matches!(
        reply.outcome,
        Some(solve_response::Outcome::Solution(_))
    ));
}

#[tokio::test]
async fn interleaved_one_byte_frames_on_stalled_streams_close_the_connection() {
    let server = TestServer::start(config()).await;
    let mut raw = Raw::connect(server.addr, 0).await;
    for id in [1, 3, 5] {
        raw.open(id, EIGHT).await;
    }
    // Each stream's window is 24 KiB: 3 × 24,576 frames, or more, would go in unbounded.
    let sent = feed(&mut raw, &[1, 3, 5], 1, 192, 200_000).await;
    assert_eq!(
        raw.closed,
        Closed::GoAway(ENHANCE_YOUR_CALM),
        "{sent} frames of 1 byte sent, the connection still open"
    );
    assert!(sent < 3 * 24_576, "closed after {sent} frames only");
    another_client_is_served(&server).await;
}

#[tokio::test]
async fn one_byte_frames_one_per_read_close_the_connection() {
    let server = TestServer::start(config()).await;
    let mut raw = Raw::connect(server.addr, 0).await;
    raw.open(1, EIGHT).await;
    // One frame per write, flushed, 1 ms apart: each a read of its own on the server.
    let sent = feed(&mut raw, &[1], 1, 1, 3_000).await;
    assert_ne!(
        raw.closed,
        Closed::No,
        "{sent} frames sent one by one, connection open"
    );
    another_client_is_served(&server).await;
}

#[tokio::test]
async fn one_message_frames_left_unread_keep_their_streams() {
    // grpcio's framing (one 18-byte message per DATA frame), two streams taking turns, replies
    // unread: the server stops reading, each stream's window fills up with unread frames.
    let server = TestServer::start(config()).await;
    let mut raw = Raw::connect(server.addr, 0).await;
    for id in [1, 3] {
        raw.open(id, EIGHT).await;
    }
    let message = 18;
    let sent = feed(&mut raw, &[1, 3], message, 2, usize::MAX).await;
    assert_eq!(raw.closed, Closed::No, "closed after {sent} frames");
    assert!(
        raw.windows.values().all(|&w| w < 18),
        "not stalled: {:?}",
        raw.windows
    );
    assert!(raw.ended.is_empty(), "streams reset: {:?}", raw.ended);
    raw.pump(Duration::from_secs(1)).await;
    assert_eq!(raw.closed, Closed::No);

    // The client reads its replies now: every case is answered and both streams end well.
    let mut grant = INITIAL_WINDOW_SIZE.to_be_bytes().to_vec();
    grant.extend_from_slice(&(1u32 << 30).to_be_bytes());
    let mut bytes = frame(SETTINGS, 0, 0, &grant);
    bytes.extend(frame(WINDOW_UPDATE, 0, 0, &(1u32 << 30).to_be_bytes()));
    raw.send(&bytes).await;
    let mut end = Vec::new();
    for id in [1, 3] {
        end.extend(raw.data(id, &[], END_STREAM));
    }
    raw.send(&end).await;
    let cases = sent / 2;
    let deadline = Instant::now() + Duration::from_secs(30);
    while (raw.ended.len() < 2 || raw.messages(1) + raw.messages(3) < sent)
        && raw.closed == Closed::No
        && Instant::now() < deadline
    {
        raw.pump(Duration::from_millis(100)).await;
    }
    assert_eq!(raw.closed, Closed::No);
    assert_eq!(raw.ended, HashMap::from([(1, None), (3, None)]));
    assert_eq!((raw.messages(1), raw.messages(3)), (cases, cases));
}

/// A server whose connections must finish their handshake within half a second.
fn quick() -> Config {
    config_with(|config| config.transport.handshake_timeout = Duration::from_millis(500))
}

/// Waits up to `wait` for the server to close `socket`; returns what it sent and when it
/// closed, or `None` if it did not.
async fn closed_within(socket: &mut TcpStream, wait: Duration) -> Option<(Vec<u8>, Duration)> {
    let started = Instant::now();
    let mut received = Vec::new();
    let mut buf = vec![0; 1 << 16];
    loop {
        match tokio::time::timeout(
            wait.saturating_sub(started.elapsed()),
            socket.read(&mut buf),
        )
        .await
        {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some((received, started.elapsed())),
            Ok(Ok(n)) => received.extend_from_slice(&buf[..n]),
        }
    }
}

/// The error code of the GOAWAY among `received` frames, if any.
fn goaway_code(mut received: &[u8]) -> Option<u32> {
    while received.len() >= 9 {
        let len = usize::from(received[0]) << 16
            | usize::from(received[1]) << 8
            | usize::from(received[2]);
        if received[3] == GOAWAY && received.len() >= 17 {
            return Some(u32::from_be_bytes(received[13..17].try_into().unwrap()));
        }
        received = &received[(9 + len).min(received.len())..];
    }
    None
}

#[tokio::test]
async fn connections_that_never_finish_their_handshake_are_closed() {
    let server = TestServer::start(quick()).await;
    let mut settings = INITIAL_WINDOW_SIZE.to_be_bytes().to_vec();
    settings.extend_from_slice(&65_535u32.to_be_bytes());
    let preface_and_settings = [PREFACE, &frame(SETTINGS, 0, 0, &settings)].concat();
    let openings: [(&str, &[u8]); 4] = [
        ("nothing", b""),
        ("the preface only", PREFACE),
        (
            "the preface and SETTINGS, never acknowledging the server's",
            &preface_and_settings,
        ),
        (
            "half an HTTP/1.1 request",
            b"POST /solver.v2.SolverService/Solve HTTP/1.1\r\nHost: x\r\n",
        ),
    ];
    for (what, opening) in openings {
        let mut socket = TcpStream::connect(server.addr).await.unwrap();
        socket.write_all(opening).await.unwrap();
        let closed = closed_within(&mut socket, Duration::from_secs(5)).await;
        let (received, after) = closed.unwrap_or_else(|| panic!("{what}: still open after 5 s"));
        assert!(
            after >= Duration::from_millis(400),
            "{what}: closed after {after:?}"
        );
        if opening.starts_with(PREFACE) {
            assert_eq!(goaway_code(&received), Some(SETTINGS_TIMEOUT), "{what}");
        }
    }
    // A client that finished its handshake keeps its idle connection.
    let mut client = server.client_v2().await;
    client.solve(v2_eight("first")).await.unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    client.solve(v2_eight("after a pause")).await.unwrap();
}
