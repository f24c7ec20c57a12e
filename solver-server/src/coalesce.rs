//! What the server reads from a connection before h2 does: adjacent small HTTP/2 DATA frames of
//! one stream merged into one, a bound on the DATA frames a stream may leave unread, and a time
//! limit on the handshake.
//!
//! # Merging
//!
//! grpcio, grpc-go and grpc-java send every message in a DATA frame of its own, and a case is 16
//! to 40 bytes. h2 (0.4, under hyper) keeps each unread frame as a separate buffered event of
//! about 220 bytes, so a stream whose client stops reading replies (the server stops reading its
//! cases: that is the backpressure) held its 24 KiB window as ~1,300 frames, about 290 KiB of h2
//! state, against about 24 KiB when the same bytes came in a few large frames.
//!
//! The frame boundaries of DATA carry no meaning in HTTP/2 (RFC 9113 §8.1: the content is the
//! concatenation of the DATA payloads), and flow control counts payload bytes, not frames. So the
//! server's connections are read through [`Coalescing`], which rewrites each chunk read from the
//! socket in place: when a complete unpadded DATA frame follows, within the same chunk, a complete
//! unpadded DATA frame of the same stream that did not end the stream, its payload is appended to
//! the first (up to 16,384 bytes, the frame size every HTTP/2 peer accepts) and its header
//! dropped. A burst of one-message frames, which is what a sender whose window just opened
//! writes, arrives as one chunk and reaches h2 as a few frames. Nothing is ever held back
//! waiting for more bytes, so latency is unchanged; frames split across reads, padded frames and
//! every other frame type pass through untouched, and so does a connection that does not open
//! with the HTTP/2 client preface.
//!
//! # A bound on unread frames
//!
//! Merging needs the frames adjacent in one read. A client that sends one frame per read, or
//! lets two stalled streams take turns frame by frame, defeated it: 1-byte frames held about
//! 6 MB per stalled stream (every byte of its window a frame), 600 MB for 100 streams on one
//! connection. So [`Coalescing`] also counts, per stream, the frames h2 may still hold unread,
//! and closes the connection (a GOAWAY `ENHANCE_YOUR_CALM` when it can write one, then the
//! read fails, so hyper drops the connection and everything h2 held for it) when a stream holds
//! more than its allowance:
//!
//! * **What is unread.** h2 grants a stream's window back (WINDOW_UPDATE) only for bytes the
//!   application has read, and the application reads a stream's bytes in order; h2 also grants
//!   back at once the padding of padded frames. So of the bytes received on a stream, at least
//!   `granted − padding` have been read, and a frame is counted until that much covers it. The
//!   server's WINDOW_UPDATE and RST_STREAM frames are seen on the write side. Counting is by
//!   buckets of [`BUCKET`] frames (a bucket is dropped once it is all read), so the count is at
//!   most 31 above the frames really unread, never below.
//! * **The allowance.** A stream may hold `min(256 + B / 8, 64 + W / 8)` unread frames, `B`
//!   its unread bytes and `W` the stream window (`--stream-window`, 24 KiB by default: 3,136
//!   frames). A client that sends one message of at least 16 bytes per frame holds at most
//!   `B / 16` frames while it has window to spare; once the server trickles window back (a
//!   stream whose cases come back slower than they are sent), it sends what each grant allows
//!   and cuts a message in two where the grant ends, so a stalled window can hold two frames per
//!   message: grpcio 1.85 sent 26-byte messages as 6 + 20 and 12 + 14, and held 1,601 frames of
//!   15 bytes on average in one 24 KiB window. Hence 8 bytes a frame on average, and 256 frames
//!   more for what is cut otherwise and for the counting's slack: such a stream can be left
//!   unread with its whole window for ever, as before. Frames that carry nothing h2 keeps
//!   (empty DATA frames, padding alone) are not counted.
//! * **What it bounds.** Frames of `s` payload bytes: a stream holds at most `256·8 / (8 − s)`
//!   of them for `s < 8` (292 of 1 byte, 512 of 4, 1,024 of 6, 2,048 of 7) and never more than
//!   3,136 with the default window, so with h2's ~220 bytes per buffered frame (its event in a
//!   slab, and the frame's bytes in the read buffer they pin) a stream's unread frames hold at
//!   most ~64 KB when they are of 1 byte (was 6 MB), ~225 KB of 6, and ~700 KB at worst (frames
//!   of 7 to 8 bytes: what two frames per 16-byte message hold too). (A client that sends before
//!   it acknowledges the server's SETTINGS has HTTP/2's 64 KiB default window; the 3,136 still
//!   holds for it.) Measured on the release build with 100 stalled streams on one connection
//!   (solver-client/attacks/frames.py), a stalled stream's whole cost, its fixed ~155 KB
//!   included: +43 KB for interleaved 1-byte frames (+6,007 KB before; +30 KB with 400
//!   streams), a peak of +506 KB for 7-byte frames before the connection is closed, +862 KB
//!   for 8-byte frames and +495 KB for 16-byte frames (kept, as before).
//! * **What it costs.** The count can only see what h2 granted back, and h2 grants a stream's
//!   window back once a third to a half of it is read, so frames read at once still count until
//!   then: a stream of frames under about 6 bytes is closed even when the server reads it (no
//!   gRPC client sends such frames but the few it cuts at window edges).
//! * **The table.** One entry per stream opened (HEADERS) and not yet closed (END_STREAM or
//!   RST_STREAM from the client, RST_STREAM from the server, which h2 sends for every stream it
//!   closes before the client's half ends). h2 allows `MAX_CONCURRENT_STREAMS` open at once and
//!   resets those beyond; a client with more than 1,024 beyond that at once is closed too, so
//!   the table is bounded as well.
//!
//! # Handshake
//!
//! A connection that sent only the preface, or nothing, or never acknowledged the server's
//! SETTINGS, was kept for ever, `--max-connection-age` or not: hyper reads the protocol version
//! and h2 the client's frames without a time limit. So a connection must complete its
//! handshake within `--handshake-timeout` (10 s) of being accepted: for HTTP/2 the client's
//! acknowledgement of the server's SETTINGS (every client sends it at once, before or after its
//! first requests), for anything else (HTTP/1.1 from browsers, for gRPC-Web) the end of its
//! first request's headers; hyper's own 30 s header timeout covers the later requests.
//! Otherwise its next read or write fails (with a GOAWAY `SETTINGS_TIMEOUT` first on HTTP/2)
//! and hyper drops it.

use std::collections::{HashMap, VecDeque};
use std::future::Future as _;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};
use tonic::transport::server::Connected;

/// The HTTP/2 client connection preface (RFC 9113 §3.4).
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/// Length of a frame header.
const HEADER: usize = 9;
/// Frame type DATA.
const DATA: u8 = 0x0;
/// Frame type HEADERS.
const HEADERS: u8 = 0x1;
/// Frame type RST_STREAM.
const RST_STREAM: u8 = 0x3;
/// Frame type SETTINGS.
const SETTINGS: u8 = 0x4;
/// Frame type GOAWAY.
const GOAWAY: u8 = 0x7;
/// Frame type WINDOW_UPDATE.
const WINDOW_UPDATE: u8 = 0x8;
/// DATA and HEADERS flag: the last frame of the stream.
const END_STREAM: u8 = 0x1;
/// SETTINGS flag: an acknowledgement.
const ACK: u8 = 0x1;
/// DATA flag: the payload is padded (such frames are never merged).
const PADDED: u8 = 0x8;
/// The largest frame built by merging: the initial `SETTINGS_MAX_FRAME_SIZE`, which a peer can
/// only raise, so every HTTP/2 receiver accepts it.
const MAX_MERGED: usize = 16_384;
/// HTTP/2 error code ENHANCE_YOUR_CALM.
const ENHANCE_YOUR_CALM: u32 = 0xb;
/// HTTP/2 error code SETTINGS_TIMEOUT.
const SETTINGS_TIMEOUT: u32 = 0x4;

/// The smallest average DATA frame of a real client that the allowance covers for a whole
/// window: one message per frame, a message at least 16 bytes (a 3×3 case, `SlidingRequest` of
/// 9 tiles, framed), cut in two where a window grant ends.
const MIN_FRAME: u64 = 8;
/// Unread frames a stream may hold whatever their size: room for the frames that real clients
/// cut short at window edges and for the counting's slack ([`BUCKET`]).
const BASE_FRAMES: u64 = 256;
/// Unread frames beyond `W / MIN_FRAME` a stream may hold with a stream window of `W`.
const WINDOW_SLACK: u64 = 64;
/// Frames counted together: a bucket is dropped once all its bytes are read.
const BUCKET: u32 = 32;
/// Streams tracked beyond `MAX_CONCURRENT_STREAMS` (streams h2 refuses, until it says so).
const EXTRA_STREAMS: usize = 1024;

/// What a connection may do: the server's HTTP/2 settings and the handshake's time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// The receive window of each stream (`SETTINGS_INITIAL_WINDOW_SIZE`).
    pub(crate) stream_window: u32,
    /// `SETTINGS_MAX_CONCURRENT_STREAMS`.
    pub(crate) streams_per_connection: u32,
    /// How long after being accepted a connection must have completed its handshake.
    pub(crate) handshake_timeout: Duration,
}

impl Limits {
    /// The most unread frames any stream may hold.
    fn most_frames(&self) -> u64 {
        WINDOW_SLACK + u64::from(self.stream_window) / MIN_FRAME
    }

    /// The most streams tracked at once.
    fn most_streams(&self) -> usize {
        usize::try_from(self.streams_per_connection)
            .unwrap_or(usize::MAX)
            .saturating_add(EXTRA_STREAMS)
    }
}

/// Why a connection is closed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Abuse {
    /// A stream left more small DATA frames unread than its allowance.
    #[error(
        "stream {stream} holds {frames} unread DATA frames of {bytes} bytes in all (at most {allowed})"
    )]
    SmallFrames {
        /// The stream.
        stream: u32,
        /// Its unread frames (as counted).
        frames: u64,
        /// Their payload bytes.
        bytes: u64,
        /// The allowance.
        allowed: u64,
    },
    /// More streams open at once than h2 allows, by far.
    #[error("more than {0} streams open at once")]
    Streams(usize),
}

/// Frames received on a stream that together end `end` bytes into its DATA.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    end: u64,
    frames: u32,
}

/// What one stream received and what the server granted back.
#[derive(Debug, Default)]
struct Unread {
    /// DATA bytes received (payload less padding): the offsets of `buckets`.
    received: u64,
    /// Padding received (pad length field included), which h2 grants back unread.
    padding: u64,
    /// Window granted back by the server's WINDOW_UPDATE frames.
    granted: u64,
    /// The frames of `buckets`.
    frames: u64,
    buckets: VecDeque<Bucket>,
}

impl Unread {
    /// DATA bytes certainly read by the application (granted back and not padding).
    fn read(&self) -> u64 {
        self.granted.saturating_sub(self.padding).min(self.received)
    }

    /// A frame h2 buffers, with `data` bytes.
    fn frame(&mut self, data: u64) {
        self.received += data;
        self.frames += 1;
        match self.buckets.back_mut() {
            Some(bucket) if bucket.frames < BUCKET => {
                bucket.frames += 1;
                bucket.end = self.received;
            }
            _ => self.buckets.push_back(Bucket {
                end: self.received,
                frames: 1,
            }),
        }
    }

    /// `data` bytes appended to the last frame by merging.
    fn extend(&mut self, data: u64) {
        self.received += data;
        if let Some(bucket) = self.buckets.back_mut() {
            bucket.end = self.received;
        }
    }

    /// The server granted `increment` bytes of window back.
    fn grant(&mut self, increment: u64) {
        self.granted += increment;
        let read = self.read();
        while let Some(front) = self.buckets.front()
            && front.end <= read
        {
            self.frames -= u64::from(front.frames);
            self.buckets.pop_front();
        }
    }
}

/// The unread frames of every open stream of a connection.
#[derive(Debug)]
struct Streams {
    limits: Limits,
    unread: HashMap<u32, Unread>,
    /// The highest stream the client opened.
    highest: u32,
}

impl Streams {
    fn new(limits: Limits) -> Self {
        Self {
            limits,
            unread: HashMap::new(),
            highest: 0,
        }
    }

    /// HEADERS from the client: a new stream unless `id` was seen before.
    fn opened(&mut self, id: u32, end: bool) -> Result<(), Abuse> {
        if id <= self.highest {
            if end {
                self.unread.remove(&id);
            }
            return Ok(());
        }
        self.highest = id;
        if end {
            return Ok(());
        }
        if self.unread.len() >= self.limits.most_streams() {
            return Err(Abuse::Streams(self.limits.most_streams()));
        }
        self.unread.insert(id, Unread::default());
        Ok(())
    }

    fn closed(&mut self, id: u32) {
        self.unread.remove(&id);
    }

    /// A DATA frame for h2 with `data` bytes after `padding` (`merged`: appended to the
    /// previous frame, which h2 sees as one).
    fn data(&mut self, id: u32, data: u64, padding: u64, merged: bool) -> Result<(), Abuse> {
        let Some(stream) = self.unread.get_mut(&id) else {
            return Ok(());
        };
        stream.padding += padding;
        if merged {
            stream.extend(data);
            return Ok(());
        }
        if data == 0 {
            // h2 buffers nothing for an empty non-final frame.
            return Ok(());
        }
        stream.frame(data);
        let bytes = stream.received - stream.read();
        let allowed = (BASE_FRAMES + bytes / MIN_FRAME).min(self.limits.most_frames());
        if stream.frames > allowed {
            return Err(Abuse::SmallFrames {
                stream: id,
                frames: stream.frames,
                bytes,
                allowed,
            });
        }
        Ok(())
    }

    fn granted(&mut self, id: u32, increment: u32) {
        if let Some(stream) = self.unread.get_mut(&id) {
            stream.grant(u64::from(increment));
        }
    }
}

/// Where the rewriter stands in the byte stream between two reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Position {
    /// Inside the client preface, this many bytes of it seen.
    Preface(usize),
    /// At a frame header, `have` of its bytes already passed on (a header split across reads).
    Header { bytes: [u8; HEADER], have: usize },
    /// Inside a frame's payload whose header was passed on already; `padded`: a padded DATA
    /// frame of this stream, flags and length, whose pad length (its first byte) is still to
    /// come.
    Payload {
        remaining: usize,
        padded: Option<(u32, u8, usize)>,
    },
    /// Not HTTP/2: every byte passes through; `head`: how far into the end of the first
    /// request's head (a blank line) the last bytes were.
    Off { head: u8 },
}

/// Where the server's writes stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    /// At a frame header, `have` of its bytes written.
    Header { bytes: [u8; HEADER], have: usize },
    /// Inside a payload that says nothing here.
    Skip(usize),
    /// Inside a stream's WINDOW_UPDATE payload, `have` of its 4 bytes written.
    Update {
        stream: u32,
        bytes: [u8; 4],
        have: usize,
    },
}

const AT_HEADER: Written = Written::Header {
    bytes: [0; HEADER],
    have: 0,
};

/// A DATA frame written earlier in the current chunk that later frames may still extend.
#[derive(Debug, Clone, Copy)]
struct Open {
    /// Offset of its header in the chunk.
    at: usize,
    stream: u32,
    len: usize,
}

/// The state of one connection's bytes: the rewriting of what is read, the unread frames of its
/// streams, and its handshake.
#[derive(Debug)]
pub(crate) struct DataFrames {
    position: Position,
    written: Written,
    streams: Streams,
    /// The handshake is complete (see the module documentation).
    handshaken: bool,
    /// Why the connection must be closed, once it must.
    abuse: Option<Abuse>,
}

/// A frame header's fields: payload length, type, flags, stream.
fn parse(header: &[u8]) -> (usize, u8, u8, u32) {
    let len = usize::from(header[0]) << 16 | usize::from(header[1]) << 8 | usize::from(header[2]);
    let stream = u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & 0x7fff_ffff;
    (len, header[3], header[4], stream)
}

/// A frame's bytes.
fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).unwrap_or(0).to_be_bytes();
    let mut bytes = Vec::with_capacity(HEADER + payload.len());
    bytes.extend_from_slice(&len[1..]);
    bytes.extend_from_slice(&[kind, flags]);
    bytes.extend_from_slice(&stream.to_be_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

impl DataFrames {
    pub(crate) fn new(limits: Limits) -> Self {
        Self {
            position: Position::Preface(0),
            written: AT_HEADER,
            streams: Streams::new(limits),
            handshaken: false,
            abuse: None,
        }
    }

    /// Rewrites `chunk`, the next bytes read from the connection, in place; returns how many
    /// of its leading bytes are the rewritten chunk. Never returns 0 for a non-empty chunk.
    pub(crate) fn rewrite(&mut self, chunk: &mut [u8]) -> usize {
        let end = chunk.len();
        let (mut read, mut write) = (0, 0);
        let mut open: Option<Open> = None;
        // Moves `len` bytes from the read cursor to the write cursor.
        let pass = |chunk: &mut [u8], read: &mut usize, write: &mut usize, len: usize| {
            chunk.copy_within(*read..*read + len, *write);
            *read += len;
            *write += len;
        };
        while read < end {
            match self.position {
                Position::Off { head } => {
                    let rest = end - read;
                    if !self.handshaken {
                        self.request_head(&chunk[read..], head);
                    }
                    pass(chunk, &mut read, &mut write, rest);
                }
                Position::Preface(seen) => {
                    let take = (PREFACE.len() - seen).min(end - read);
                    if chunk[read..read + take] != PREFACE[seen..seen + take] {
                        self.position = Position::Off { head: 0 };
                        continue;
                    }
                    pass(chunk, &mut read, &mut write, take);
                    self.position = if seen + take == PREFACE.len() {
                        Position::Header {
                            bytes: [0; HEADER],
                            have: 0,
                        }
                    } else {
                        Position::Preface(seen + take)
                    };
                }
                Position::Payload { remaining, padded } => {
                    if let Some((stream, flags, len)) = padded {
                        self.data(stream, flags, len, Some(chunk[read]));
                    }
                    let take = remaining.min(end - read);
                    pass(chunk, &mut read, &mut write, take);
                    self.position = Self::after_header(remaining - take, None);
                }
                Position::Header { have: 0, .. } if end - read >= HEADER => {
                    let (len, kind, flags, stream) = parse(&chunk[read..read + HEADER]);
                    let whole = end - read - HEADER >= len;
                    if kind == DATA && flags & PADDED == 0 && stream != 0 && whole {
                        match open {
                            Some(ref mut frame)
                                if frame.stream == stream && frame.len + len <= MAX_MERGED =>
                            {
                                self.merged(stream, flags, len);
                                read += HEADER;
                                pass(chunk, &mut read, &mut write, len);
                                frame.len += len;
                                let bytes = u32::try_from(frame.len).unwrap_or(0).to_be_bytes();
                                chunk[frame.at..frame.at + 3].copy_from_slice(&bytes[1..]);
                                if flags & END_STREAM != 0 {
                                    chunk[frame.at + 4] |= END_STREAM;
                                    open = None;
                                }
                            }
                            _ => {
                                self.data(stream, flags, len, None);
                                let at = write;
                                pass(chunk, &mut read, &mut write, HEADER + len);
                                open =
                                    (flags & END_STREAM == 0).then_some(Open { at, stream, len });
                            }
                        }
                        continue;
                    }
                    open = None;
                    let first = chunk.get(read + HEADER).copied().filter(|_| len > 0);
                    let padded = self.frame(len, kind, flags, stream, first);
                    pass(chunk, &mut read, &mut write, HEADER);
                    self.position = Self::after_header(len, padded);
                }
                Position::Header { mut bytes, have } => {
                    // A header split across reads: passed on as it comes, parsed once whole.
                    open = None;
                    let take = (HEADER - have).min(end - read);
                    bytes[have..have + take].copy_from_slice(&chunk[read..read + take]);
                    pass(chunk, &mut read, &mut write, take);
                    self.position = if have + take == HEADER {
                        let (len, kind, flags, stream) = parse(&bytes);
                        let first = chunk.get(read).copied().filter(|_| len > 0);
                        let padded = self.frame(len, kind, flags, stream, first);
                        Self::after_header(len, padded)
                    } else {
                        Position::Header {
                            bytes,
                            have: have + take,
                        }
                    };
                }
            }
        }
        write
    }

    /// Takes note of a frame whose header is passed on (not a merged DATA frame): the
    /// handshake, streams opening and closing, the frames h2 holds. Returns the padded DATA
    /// frame whose pad length is still to come (see [`Position::Payload`]).
    fn frame(
        &mut self,
        len: usize,
        kind: u8,
        flags: u8,
        stream: u32,
        first: Option<u8>,
    ) -> Option<(u32, u8, usize)> {
        match kind {
            DATA if flags & PADDED != 0 && len > 0 && first.is_none() => {
                return Some((stream, flags, len));
            }
            DATA => self.data(stream, flags, len, first),
            HEADERS => {
                let opened = self.streams.opened(stream, flags & END_STREAM != 0);
                self.note(opened);
            }
            RST_STREAM => self.streams.closed(stream),
            SETTINGS if flags & ACK != 0 => self.handshaken = true,
            _ => {}
        }
        None
    }

    /// A DATA frame h2 will see as a frame of its own; `first`: its first payload byte, when
    /// `len > 0` (the pad length of a padded frame).
    fn data(&mut self, stream: u32, flags: u8, len: usize, first: Option<u8>) {
        let len = len as u64;
        let (data, padding) = match first {
            Some(pad) if flags & PADDED != 0 => {
                let padding = (u64::from(pad) + 1).min(len);
                (len - padding, padding)
            }
            _ => (len, 0),
        };
        if flags & END_STREAM != 0 {
            // The stream's last frame: nothing more can come to be held.
            self.streams.closed(stream);
        } else {
            let counted = self.streams.data(stream, data, padding, false);
            self.note(counted);
        }
    }

    /// A DATA frame merged into the one before it.
    fn merged(&mut self, stream: u32, flags: u8, len: usize) {
        let counted = self.streams.data(stream, len as u64, 0, true);
        self.note(counted);
        if flags & END_STREAM != 0 {
            self.streams.closed(stream);
        }
    }

    fn note(&mut self, result: Result<(), Abuse>) {
        if let Err(abuse) = result {
            self.abuse.get_or_insert(abuse);
        }
    }

    /// Looks for the blank line that ends the first request's head in `bytes` (LF or CRLF line
    /// ends), `head` bytes of it seen before (1: a line end, 2: a line end and a CR).
    fn request_head(&mut self, bytes: &[u8], mut head: u8) {
        for &byte in bytes {
            head = match (byte, head) {
                (b'\n', 1 | 2) => {
                    self.handshaken = true;
                    return;
                }
                (b'\n', _) => 1,
                (b'\r', 1) => 2,
                (b'\r', _) => head,
                _ => 0,
            };
        }
        self.position = Position::Off { head };
    }

    /// The position with `remaining` payload bytes still to pass.
    fn after_header(remaining: usize, padded: Option<(u32, u8, usize)>) -> Position {
        if remaining == 0 {
            Position::Header {
                bytes: [0; HEADER],
                have: 0,
            }
        } else {
            Position::Payload { remaining, padded }
        }
    }

    /// Whether the connection speaks HTTP/2 (as far as it went).
    fn http2(&self) -> bool {
        !matches!(self.position, Position::Off { .. })
    }

    /// Whether the client sent the whole HTTP/2 preface.
    fn past_preface(&self) -> bool {
        !matches!(self.position, Position::Off { .. } | Position::Preface(_))
    }

    /// Takes note of `bytes`, the next bytes the server wrote: its WINDOW_UPDATE frames (what
    /// the application read) and RST_STREAM frames (streams closed).
    pub(crate) fn written(&mut self, mut bytes: &[u8]) {
        if !self.http2() {
            return;
        }
        while !bytes.is_empty() {
            match self.written {
                Written::Header {
                    bytes: mut header,
                    have,
                } => {
                    let take = (HEADER - have).min(bytes.len());
                    header[have..have + take].copy_from_slice(&bytes[..take]);
                    bytes = &bytes[take..];
                    if have + take < HEADER {
                        self.written = Written::Header {
                            bytes: header,
                            have: have + take,
                        };
                        continue;
                    }
                    let (len, kind, _, stream) = parse(&header);
                    if kind == RST_STREAM {
                        self.streams.closed(stream);
                    }
                    self.written = match len {
                        0 => AT_HEADER,
                        4 if kind == WINDOW_UPDATE && stream != 0 => Written::Update {
                            stream,
                            bytes: [0; 4],
                            have: 0,
                        },
                        len => Written::Skip(len),
                    };
                }
                Written::Skip(remaining) => {
                    let take = remaining.min(bytes.len());
                    bytes = &bytes[take..];
                    self.written = if take == remaining {
                        AT_HEADER
                    } else {
                        Written::Skip(remaining - take)
                    };
                }
                Written::Update {
                    stream,
                    bytes: mut value,
                    have,
                } => {
                    let take = (4 - have).min(bytes.len());
                    value[have..have + take].copy_from_slice(&bytes[..take]);
                    bytes = &bytes[take..];
                    self.written = if have + take == 4 {
                        let increment = u32::from_be_bytes(value) & 0x7fff_ffff;
                        self.streams.granted(stream, increment);
                        AT_HEADER
                    } else {
                        Written::Update {
                            stream,
                            bytes: value,
                            have: have + take,
                        }
                    };
                }
            }
        }
    }

    /// A GOAWAY frame with `code`, when the client spoke HTTP/2 and the server's writes stand
    /// between two frames (so that it can go in between).
    fn goaway(&self, code: u32, reason: &str) -> Option<Vec<u8>> {
        if !self.past_preface() || self.written != AT_HEADER {
            return None;
        }
        let mut payload = self.streams.highest.to_be_bytes().to_vec();
        payload.extend_from_slice(&code.to_be_bytes());
        payload.extend_from_slice(reason.as_bytes());
        Some(frame(GOAWAY, 0, 0, &payload))
    }
}

/// The address of the peer of a connection, for the log.
pub(crate) trait Peer {
    /// The peer's address, when known.
    fn peer(&self) -> Option<SocketAddr>;
}

impl Peer for TcpStream {
    fn peer(&self) -> Option<SocketAddr> {
        self.peer_addr().ok()
    }
}

impl Peer for tokio_rustls::server::TlsStream<TcpStream> {
    fn peer(&self) -> Option<SocketAddr> {
        self.get_ref().0.peer_addr().ok()
    }
}

/// A connection read as the module documentation says: DATA frames merged, unread frames
/// bounded, the handshake timed.
#[derive(Debug)]
pub(crate) struct Coalescing<IO> {
    io: IO,
    frames: DataFrames,
    /// Until the handshake is complete: when it must be, and the timer (made when first
    /// polled).
    deadline: Option<(Instant, Option<Pin<Box<Sleep>>>)>,
    peer: Option<SocketAddr>,
    /// The connection failed with this: every later read and write fails alike.
    failed: Option<io::ErrorKind>,
}

impl<IO: Peer> Coalescing<IO> {
    pub(crate) fn new(io: IO, limits: Limits) -> Self {
        Self {
            peer: io.peer(),
            io,
            frames: DataFrames::new(limits),
            deadline: Some((Instant::now() + limits.handshake_timeout, None)),
            failed: None,
        }
    }
}

impl<IO: AsyncWrite + Unpin> Coalescing<IO> {
    /// Fails the connection with `kind`, after a GOAWAY with `code` when one can be written.
    fn fail(&mut self, cx: &mut Context<'_>, kind: io::ErrorKind, code: u32, reason: &str) {
        self.failed = Some(kind);
        if let Some(goaway) = self.frames.goaway(code, reason)
            && let Poll::Ready(Ok(written)) = Pin::new(&mut self.io).poll_write(cx, &goaway)
            && written == goaway.len()
        {
            let _ = Pin::new(&mut self.io).poll_flush(cx);
        }
    }

    /// Fails the connection when its handshake is overdue.
    fn check_handshake(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        if let Some(kind) = self.failed {
            return Err(kind.into());
        }
        if self.frames.handshaken {
            self.deadline = None;
        }
        let Some((at, timer)) = &mut self.deadline else {
            return Ok(());
        };
        let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(*at)));
        if timer.as_mut().poll(cx).is_pending() {
            return Ok(());
        }
        tracing::debug!(peer = ?self.peer, "closing a connection whose handshake is overdue");
        self.deadline = None;
        self.fail(
            cx,
            io::ErrorKind::TimedOut,
            SETTINGS_TIMEOUT,
            "handshake overdue",
        );
        Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the connection's handshake is overdue",
        ))
    }
}

impl<IO: AsyncRead + AsyncWrite + Unpin> AsyncRead for Coalescing<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        this.check_handshake(cx)?;
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.io).poll_read(cx, buf))?;
        let kept = this.frames.rewrite(&mut buf.filled_mut()[before..]);
        buf.set_filled(before + kept);
        if let Some(abuse) = this.frames.abuse.take() {
            buf.set_filled(before);
            tracing::warn!(peer = ?this.peer, cause = %abuse, "closing a connection that holds too much");
            this.fail(
                cx,
                io::ErrorKind::InvalidData,
                ENHANCE_YOUR_CALM,
                "too many unread frames",
            );
            return Poll::Ready(Err(io::Error::new(io::ErrorKind::InvalidData, abuse)));
        }
        if this.frames.handshaken {
            this.deadline = None;
        }
        Poll::Ready(Ok(()))
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for Coalescing<IO> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.check_handshake(cx)?;
        let written = ready!(Pin::new(&mut this.io).poll_write(cx, buf))?;
        this.frames.written(&buf[..written]);
        Poll::Ready(Ok(written))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.check_handshake(cx)?;
        let written = ready!(Pin::new(&mut this.io).poll_write_vectored(cx, bufs))?;
        let mut left = written;
        for buf in bufs {
            let take = left.min(buf.len());
            this.frames.written(&buf[..take]);
            left -= take;
            if left == 0 {
                break;
            }
        }
        Poll::Ready(Ok(written))
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

impl<IO: Connected> Connected for Coalescing<IO> {
    type ConnectInfo = IO::ConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.io.connect_info()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LIMITS: Limits = Limits {
        stream_window: 24 << 10,
        streams_per_connection: 100,
        handshake_timeout: Duration::from_secs(10),
    };

    /// One HTTP/2 frame as the tests build and compare them.
    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Frame {
        kind: u8,
        flags: u8,
        stream: u32,
        payload: Vec<u8>,
    }

    fn data(stream: u32, flags: u8, payload: &[u8]) -> Frame {
        Frame {
            kind: DATA,
            flags,
            stream,
            payload: payload.to_vec(),
        }
    }

    fn encode(frames: &[Frame]) -> Vec<u8> {
        let mut bytes = PREFACE.to_vec();
        for frame in frames {
            let len = u32::try_from(frame.payload.len()).unwrap().to_be_bytes();
            bytes.extend_from_slice(&len[1..]);
            bytes.extend_from_slice(&[frame.kind, frame.flags]);
            bytes.extend_from_slice(&frame.stream.to_be_bytes());
            bytes.extend_from_slice(&frame.payload);
        }
        bytes
    }

    fn decode(bytes: &[u8]) -> Vec<Frame> {
        assert_eq!(&bytes[..PREFACE.len()], PREFACE);
        let mut rest = &bytes[PREFACE.len()..];
        let mut frames = Vec::new();
        while !rest.is_empty() {
            let (len, kind, flags, stream) = parse(&rest[..HEADER]);
            assert!(
                len <= MAX_MERGED || kind != DATA,
                "a merged frame of {len} bytes"
            );
            frames.push(Frame {
                kind,
                flags,
                stream,
                payload: rest[HEADER..HEADER + len].to_vec(),
            });
            rest = &rest[HEADER + len..];
        }
        frames
    }

    /// Feeds `bytes` through a rewriter in chunks of the given sizes (the rest in one).
    fn rewrite_in_chunks(bytes: &[u8], sizes: &[usize]) -> Vec<u8> {
        let mut frames = DataFrames::new(LIMITS);
        let mut out = Vec::new();
        let mut rest = bytes.to_vec();
        let mut sizes = sizes.iter();
        while !rest.is_empty() {
            let size = sizes.next().map_or(rest.len(), |&s| s.clamp(1, rest.len()));
            let mut chunk: Vec<u8> = rest.drain(..size).collect();
            let kept = frames.rewrite(&mut chunk);
            assert!(kept > 0, "a non-empty chunk rewritten to nothing");
            out.extend_from_slice(&chunk[..kept]);
        }
        out
    }

    /// What the frames mean: DATA content per run of one stream's mergeable frames.
    fn meaning(frames: &[Frame]) -> Vec<Frame> {
        let mut merged: Vec<Frame> = Vec::new();
        for frame in frames {
            if let Some(last) = merged.last_mut()
                && last.kind == DATA
                && frame.kind == DATA
                && last.stream == frame.stream
                && last.flags & (END_STREAM | PADDED) == 0
                && frame.flags & PADDED == 0
                && frame.stream != 0
            {
                last.payload.extend_from_slice(&frame.payload);
                last.flags |= frame.flags & END_STREAM;
                continue;
            }
            merged.push(frame.clone());
        }
        merged
    }

    #[test]
    fn a_burst_of_one_stream_becomes_one_frame() {
        let frames: Vec<Frame> = (0..100u8).map(|i| data(1, 0, &[i; 18])).collect();
        let out = decode(&rewrite_in_chunks(&encode(&frames), &[]));
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].payload,
            frames
                .iter()
                .flat_map(|f| f.payload.clone())
                .collect::<Vec<_>>()
        );
        assert_eq!(out[0].flags, 0);
    }

    #[test]
    fn streams_end_stream_padding_and_other_frames_keep_their_boundaries() {
        let settings = Frame {
            kind: 0x4,
            flags: 0,
            stream: 0,
            payload: vec![0; 6],
        };
        let frames = vec![
            settings.clone(),
            data(1, 0, b"a"),
            data(1, 0, b"b"),
            data(3, 0, b"c"),
            data(1, END_STREAM, b"d"),
            data(1, 0, b"e"),
            data(5, PADDED, &[1, b'x', 0]),
            data(5, 0, b"f"),
            settings,
            data(5, END_STREAM, b"g"),
        ];
        let out = decode(&rewrite_in_chunks(&encode(&frames), &[]));
        assert_eq!(out, meaning(&frames));
        assert_eq!(out.len(), 9);
    }

    #[test]
    fn merging_stops_at_the_frame_size_every_peer_accepts() {
        let frames: Vec<Frame> = (0..5).map(|_| data(1, 0, &[7; 5_000])).collect();
        let out = decode(&rewrite_in_chunks(&encode(&frames), &[]));
        let sizes: Vec<usize> = out.iter().map(|f| f.payload.len()).collect();
        assert_eq!(sizes, [15_000, 10_000]);
    }

    #[test]
    fn anything_but_http2_passes_through() {
        let request = b"POST /solver.v2.SolverService/Solve HTTP/1.1\r\nHost: x\r\n\r\n".to_vec();
        assert_eq!(rewrite_in_chunks(&request, &[3, 5]), request);
    }

    /// HEADERS opening `stream` (the header block does not matter here).
    fn headers(stream: u32) -> Frame {
        Frame {
            kind: HEADERS,
            flags: 0x4,
            stream,
            payload: vec![0x83],
        }
    }

    /// What the server writes to grant `increment` bytes of `stream`'s window back.
    fn window_update(stream: u32, increment: u32) -> Vec<u8> {
        frame(WINDOW_UPDATE, 0, stream, &increment.to_be_bytes())
    }

    /// The bytes after the preface.
    fn frames_only(frames: &[Frame]) -> Vec<u8> {
        encode(frames)[PREFACE.len()..].to_vec()
    }

    /// A rewriter past the preface with `streams` opened.
    fn opened(streams: &[u32]) -> DataFrames {
        let mut frames = DataFrames::new(LIMITS);
        let opening: Vec<Frame> = streams.iter().map(|&s| headers(s)).collect();
        let mut bytes = encode(&opening);
        frames.rewrite(&mut bytes);
        assert_eq!(frames.abuse, None);
        frames
    }

    /// Feeds `frames` one per read; returns how many went in before the connection was found
    /// abusive (all of them when it was not).
    fn one_per_read(state: &mut DataFrames, frames: &[Frame]) -> usize {
        for (fed, frame) in frames.iter().enumerate() {
            let mut bytes = frames_only(std::slice::from_ref(frame));
            state.rewrite(&mut bytes);
            if state.abuse.is_some() {
                return fed + 1;
            }
        }
        frames.len()
    }

    #[test]
    fn interleaved_one_byte_frames_close_the_connection() {
        let mut state = opened(&[1, 3]);
        let frames: Vec<Frame> = (0..2_000).map(|i| data(1 + 2 * (i % 2), 0, b"x")).collect();
        let mut bytes = frames_only(&frames);
        let kept = state.rewrite(&mut bytes);
        assert_eq!(
            kept,
            bytes.len(),
            "nothing merged: no two frames of a stream adjacent"
        );
        // 256 frames, plus one per 8 bytes: the 293rd frame of stream 1 is one too many.
        assert_eq!(
            state.abuse,
            Some(Abuse::SmallFrames {
                stream: 1,
                frames: 293,
                bytes: 293,
                allowed: 292
            })
        );
    }

    #[test]
    fn one_byte_frames_one_per_read_close_the_connection() {
        let mut state = opened(&[1]);
        let frames: Vec<Frame> = (0..2_000).map(|_| data(1, 0, b"x")).collect();
        assert_eq!(one_per_read(&mut state, &frames), 293);
    }

    #[test]
    fn a_full_window_of_one_message_frames_is_never_too_much() {
        // grpcio's framing, streams taking turns frame by frame, one frame per read, nothing
        // read by the server: a whole 24 KiB window of 16-byte (20, 40) frames each, or of the
        // 8-byte halves of 16-byte messages cut in two where window grants end.
        for size in [8, 16, 20, 40] {
            let mut state = opened(&[1, 3, 5]);
            let per_stream = (24 << 10) / size;
            let frames: Vec<Frame> = (0..3 * per_stream)
                .map(|i| data(1 + 2 * (i % 3) as u32, 0, &vec![7; size]))
                .collect();
            assert_eq!(
                one_per_read(&mut state, &frames),
                frames.len(),
                "{size} bytes"
            );
            assert_eq!(state.abuse, None);
        }
    }

    #[test]
    fn frames_granted_back_are_forgotten() {
        // 4-byte frames on a stream the server reads: granted back every 64 frames, 100,000
        // frames go through.
        let mut state = opened(&[1]);
        for _ in 0..100_000 / 64 {
            let frames: Vec<Frame> = (0..64).map(|_| data(1, 0, &[1; 4])).collect();
            assert_eq!(one_per_read(&mut state, &frames), 64);
            state.written(&window_update(1, 64 * 4));
        }
        assert_eq!(state.abuse, None);
        // Then the server stops reading: the allowance applies again (256 + 4·F/8 < F).
        let frames: Vec<Frame> = (0..2_000).map(|_| data(1, 0, &[1; 4])).collect();
        assert_eq!(one_per_read(&mut state, &frames), 513);
    }

    #[test]
    fn bytes_read_earlier_buy_no_room_for_small_frames() {
        let mut state = opened(&[1]);
        for _ in 0..64 {
            let mut bytes = frames_only(&[data(1, 0, &[0; 16_384])]);
            state.rewrite(&mut bytes);
            state.written(&window_update(1, 16_384));
        }
        let frames: Vec<Frame> = (0..2_000).map(|_| data(1, 0, b"x")).collect();
        assert_eq!(one_per_read(&mut state, &frames), 293);
    }

    #[test]
    fn padding_granted_back_counts_as_nothing_read() {
        // h2 grants a padded frame's padding back at once; its one byte of data stays unread.
        let mut state = opened(&[1]);
        let mut padded = vec![200];
        padded.extend_from_slice(&[b'x'; 201]);
        let mut fed = 0;
        while state.abuse.is_none() && fed < 2_000 {
            // Split after the header: the pad length comes in the next read.
            let bytes = frames_only(&[data(1, PADDED, &padded)]);
            let (header, payload) = bytes.split_at(HEADER);
            state.rewrite(&mut header.to_vec());
            state.rewrite(&mut payload.to_vec());
            state.written(&window_update(1, 201));
            fed += 1;
        }
        assert_eq!(fed, 293);
    }

    #[test]
    fn the_stream_table_is_bounded_and_emptied() {
        let most = LIMITS.most_streams();
        // Streams the server resets, or that end, leave the table.
        let mut state = opened(&[]);
        for i in 0..(4 * most) as u32 {
            let stream = 1 + 2 * i;
            let mut bytes = frames_only(&[headers(stream), data(stream, 0, b"abc")]);
            state.rewrite(&mut bytes);
            match i % 3 {
                0 => state.written(&frame(RST_STREAM, 0, stream, &[0, 0, 0, 7])),
                1 => {
                    state.rewrite(&mut frames_only(&[data(stream, END_STREAM, b"")]));
                }
                _ => {
                    state.rewrite(&mut frames_only(&[Frame {
                        kind: RST_STREAM,
                        flags: 0,
                        stream,
                        payload: vec![0, 0, 0, 8],
                    }]));
                }
            }
        }
        assert_eq!(state.abuse, None);
        assert!(state.streams.unread.is_empty());
        // Streams left open are not.
        let opening: Vec<Frame> = (0..=most as u32).map(|i| headers(1 + 2 * i)).collect();
        let mut state = opened(&[]);
        state.rewrite(&mut frames_only(&opening));
        assert_eq!(state.abuse, Some(Abuse::Streams(most)));
    }

    #[test]
    fn the_handshake_ends_with_the_settings_acknowledged() {
        let settings = Frame {
            kind: SETTINGS,
            flags: 0,
            stream: 0,
            payload: vec![0; 6],
        };
        let ack = Frame {
            kind: SETTINGS,
            flags: ACK,
            stream: 0,
            payload: Vec::new(),
        };
        let mut state = DataFrames::new(LIMITS);
        let bytes = encode(&[settings, headers(1), data(1, 0, b"abc"), ack]);
        for byte in &bytes[..bytes.len() - 1] {
            state.rewrite(&mut [*byte]);
            assert!(!state.handshaken);
        }
        state.rewrite(&mut [bytes[bytes.len() - 1]]);
        assert!(state.handshaken);
    }

    #[test]
    fn http1_handshakes_at_the_end_of_the_first_head() {
        for head in [
            &b"POST /solver.v2.SolverService/Solve HTTP/1.1\r\nHost: x\r\n\r\nbody"[..],
            b"GET / HTTP/1.1\nHost: x\n\n",
            b"GET / HTTP/1.1\r\nHost: x\r\n\n",
        ] {
            let mut state = DataFrames::new(LIMITS);
            let blank = head
                .windows(2)
                .position(|w| w == b"\n\n" || w == b"\n\r")
                .unwrap();
            let done = blank + if head[blank + 1] == b'\r' { 3 } else { 2 };
            for (at, byte) in head.iter().enumerate() {
                assert_eq!(state.handshaken, at >= done, "{at}");
                state.rewrite(&mut [*byte]);
            }
            assert!(state.handshaken);
        }
        let mut state = DataFrames::new(LIMITS);
        state.rewrite(&mut b"GET / HTTP/1.1\r\nHost: x\r\n".to_vec());
        assert!(!state.handshaken);
    }

    impl Peer for tokio::io::DuplexStream {
        fn peer(&self) -> Option<SocketAddr> {
            None
        }
    }

    /// Reads what `client` has received: the frames after the server's bytes.
    async fn received(client: &mut tokio::io::DuplexStream) -> Vec<u8> {
        use tokio::io::AsyncReadExt as _;
        let mut bytes = Vec::new();
        let _ =
            tokio::time::timeout(Duration::from_millis(100), client.read_to_end(&mut bytes)).await;
        bytes
    }

    /// Limits whose handshake time limit is short enough for a test.
    const QUICK: Limits = Limits {
        handshake_timeout: Duration::from_millis(200),
        ..LIMITS
    };

    #[tokio::test]
    async fn a_connection_that_does_not_finish_its_handshake_is_closed() {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        let (mut client, server) = tokio::io::duplex(1 << 16);
        let started = Instant::now();
        let mut server = Coalescing::new(server, QUICK);
        client.write_all(PREFACE).await.unwrap();
        let mut buf = [0; 64];
        assert_eq!(server.read(&mut buf).await.unwrap(), PREFACE.len());
        let err = server.read(&mut buf).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        let elapsed = started.elapsed();
        assert!(elapsed >= QUICK.handshake_timeout && elapsed < 10 * QUICK.handshake_timeout);
        // It said so: GOAWAY SETTINGS_TIMEOUT.
        let goaway = received(&mut client).await;
        assert_eq!(&goaway[3..5], &[GOAWAY, 0]);
        assert_eq!(&goaway[13..17], &SETTINGS_TIMEOUT.to_be_bytes());
        assert!(server.write(b"x").await.is_err());
    }

    #[tokio::test]
    async fn a_connection_that_says_nothing_is_closed_and_one_that_handshook_is_not() {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        let (_client, server) = tokio::io::duplex(1 << 16);
        let mut server = Coalescing::new(server, QUICK);
        let err = server.read(&mut [0; 64]).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);

        let (mut client, server) = tokio::io::duplex(1 << 16);
        let mut server = Coalescing::new(server, QUICK);
        client
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0; 64];
        assert!(server.read(&mut buf).await.unwrap() > 0);
        let read = tokio::time::timeout(5 * QUICK.handshake_timeout, server.read(&mut buf));
        assert!(
            read.await.is_err(),
            "an idle connection after its first request stays"
        );
    }

    #[tokio::test]
    async fn an_abusive_connection_gets_goaway_enhance_your_calm() {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        let (mut client, server) = tokio::io::duplex(1 << 20);
        let mut server = Coalescing::new(server, LIMITS);
        let frames: Vec<Frame> = std::iter::once(headers(1))
            .chain(std::iter::once(headers(3)))
            .chain((0..600).map(|i| data(1 + 2 * (i % 2), 0, b"x")))
            .collect();
        client.write_all(&encode(&frames)).await.unwrap();
        let mut buf = vec![0; 1 << 16];
        let err = loop {
            match server.read(&mut buf).await {
                Ok(n) => assert!(n > 0),
                Err(err) => break err,
            }
        };
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        let goaway = received(&mut client).await;
        assert_eq!(&goaway[3..5], &[GOAWAY, 0]);
        assert_eq!(
            &goaway[9..13],
            &3u32.to_be_bytes(),
            "the last stream opened"
        );
        assert_eq!(&goaway[13..17], &ENHANCE_YOUR_CALM.to_be_bytes());
    }

    fn frame_strategy() -> impl Strategy<Value = Frame> {
        prop_oneof![
            6 => (1u32..4, prop::bool::weighted(0.1), prop::collection::vec(any::<u8>(), 0..40))
                .prop_map(|(stream, end, payload)| data(stream, u8::from(end), &payload)),
            1 => (1u32..4, prop::collection::vec(any::<u8>(), 1..20)).prop_map(|(stream, mut p)| {
                p[0] = 0;
                data(stream, PADDED, &p)
            }),
            1 => (0u8..10, 0u32..4, prop::collection::vec(any::<u8>(), 0..20))
                .prop_map(|(kind, stream, payload)| Frame { kind: kind.max(1), flags: 0, stream, payload }),
            1 => (1u32..3).prop_map(|stream| data(stream, 0, &vec![9; 6_000])),
        ]
    }

    proptest! {
        /// However the bytes are cut into reads, the rewritten stream is well-formed HTTP/2 with
        /// the same meaning, and never more frames than it came with.
        #[test]
        fn any_frames_cut_anywhere_keep_their_meaning(
            frames in prop::collection::vec(frame_strategy(), 0..60),
            sizes in prop::collection::vec(1usize..200, 0..30),
        ) {
            let out = decode(&rewrite_in_chunks(&encode(&frames), &sizes));
            prop_assert_eq!(meaning(&out), meaning(&frames));
            prop_assert!(out.len() <= frames.len());
        }
    }
}
