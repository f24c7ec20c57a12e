//! Adjacent small HTTP/2 DATA frames of one stream merged into one before h2 sees them.
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

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tonic::transport::server::Connected;

/// The HTTP/2 client connection preface (RFC 9113 §3.4).
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/// Length of a frame header.
const HEADER: usize = 9;
/// Frame type DATA.
const DATA: u8 = 0x0;
/// DATA flag: the last frame of the stream.
const END_STREAM: u8 = 0x1;
/// DATA flag: the payload is padded (such frames are left alone).
const PADDED: u8 = 0x8;
/// The largest frame built by merging: the initial `SETTINGS_MAX_FRAME_SIZE`, which a peer can
/// only raise, so every HTTP/2 receiver accepts it.
const MAX_MERGED: usize = 16_384;

/// Where the rewriter stands in the byte stream between two reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Position {
    /// Inside the client preface, this many bytes of it seen.
    Preface(usize),
    /// At a frame header, `have` of its bytes already passed on (a header split across reads).
    Header { bytes: [u8; HEADER], have: usize },
    /// Inside a frame's payload whose header was passed on already.
    Payload(usize),
    /// Not HTTP/2 as expected: every byte passes through.
    Off,
}

/// A DATA frame written earlier in the current chunk that later frames may still extend.
#[derive(Debug, Clone, Copy)]
struct Open {
    /// Offset of its header in the chunk.
    at: usize,
    stream: u32,
    len: usize,
}

/// The rewriting state of one connection's incoming bytes.
#[derive(Debug, Clone)]
pub(crate) struct DataFrames {
    position: Position,
}

impl Default for DataFrames {
    fn default() -> Self {
        Self {
            position: Position::Preface(0),
        }
    }
}

/// A frame header's fields: payload length, type, flags, stream.
fn parse(header: &[u8]) -> (usize, u8, u8, u32) {
    let len = usize::from(header[0]) << 16 | usize::from(header[1]) << 8 | usize::from(header[2]);
    let stream = u32::from_be_bytes([header[5], header[6], header[7], header[8]]) & 0x7fff_ffff;
    (len, header[3], header[4], stream)
}

impl DataFrames {
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
                Position::Off => {
                    let rest = end - read;
                    pass(chunk, &mut read, &mut write, rest);
                }
                Position::Preface(seen) => {
                    let take = (PREFACE.len() - seen).min(end - read);
                    if chunk[read..read + take] != PREFACE[seen..seen + take] {
                        self.position = Position::Off;
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
                Position::Payload(remaining) => {
                    let take = remaining.min(end - read);
                    pass(chunk, &mut read, &mut write, take);
                    self.position = Self::after_payload(remaining - take);
                }
                Position::Header { have: 0, .. } if end - read >= HEADER => {
                    let (len, kind, flags, stream) = parse(&chunk[read..read + HEADER]);
                    let whole = end - read - HEADER >= len;
                    if kind == DATA && flags & PADDED == 0 && stream != 0 && whole {
                        match open {
                            Some(ref mut frame)
                                if frame.stream == stream && frame.len + len <= MAX_MERGED =>
                            {
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
                                let at = write;
                                pass(chunk, &mut read, &mut write, HEADER + len);
                                open =
                                    (flags & END_STREAM == 0).then_some(Open { at, stream, len });
                            }
                        }
                        continue;
                    }
                    open = None;
                    pass(chunk, &mut read, &mut write, HEADER);
                    self.position = Self::after_payload(len);
                }
                Position::Header { mut bytes, have } => {
                    // A header split across reads: passed on as it comes, parsed once whole.
                    open = None;
                    let take = (HEADER - have).min(end - read);
                    bytes[have..have + take].copy_from_slice(&chunk[read..read + take]);
                    pass(chunk, &mut read, &mut write, take);
                    self.position = if have + take == HEADER {
                        Self::after_payload(parse(&bytes).0)
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

    /// The position with `remaining` payload bytes still to pass.
    fn after_payload(remaining: usize) -> Position {
        if remaining == 0 {
            Position::Header {
                bytes: [0; HEADER],
                have: 0,
            }
        } else {
            Position::Payload(remaining)
        }
    }
}

/// A connection whose incoming HTTP/2 DATA frames are merged as the module documentation says;
/// writes pass through.
#[derive(Debug)]
pub(crate) struct Coalescing<IO> {
    io: IO,
    frames: DataFrames,
}

impl<IO> Coalescing<IO> {
    pub(crate) fn new(io: IO) -> Self {
        Self {
            io,
            frames: DataFrames::default(),
        }
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for Coalescing<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.io).poll_read(cx, buf))?;
        let kept = this.frames.rewrite(&mut buf.filled_mut()[before..]);
        buf.set_filled(before + kept);
        Poll::Ready(Ok(()))
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for Coalescing<IO> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
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
        let mut frames = DataFrames::default();
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
