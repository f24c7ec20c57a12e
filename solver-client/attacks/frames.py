#!/usr/bin/env python3
"""Feeds stalled HTTP/2 streams with tiny DATA frames and measures the server's memory.

Issue 23, item 2: h2 keeps every unread DATA frame as a buffered event of about 220 bytes,
whatever its payload, and the server's merging of adjacent frames (solver-server/src/coalesce.rs)
is defeated by frames of several streams taking turns, or by one frame per socket read. 100
stalled streams on one connection fed interleaved 1-byte frames held +618 MB (6.3 MB a stream);
the server must now hold at most about 400 KB a stream.

What the script does, on `--connections` TCP connections of `--streams` streams each, all raw
HTTP/2 (no HTTP/2 library: frames are built by hand, so millions of them are quick to send):

1. announces a stream window of 0 (`SETTINGS_INITIAL_WINDOW_SIZE`), so the server can send no
   reply: each stream stalls once the server holds `--window` cases (256) it cannot answer;
2. opens the streams (`--method`, v1 `SolveEight` by default) and sends 3x3 cases on them in DATA
   frames of `--frame-bytes` payload bytes (1), as long as HTTP/2 flow control allows, in one of
   three `--pattern`s:
   - `interleaved`: one frame per stream in turn, many frames per write (no two adjacent frames
     of one stream: nothing to merge);
   - `paced`: the same order, but one frame per write, `--pace-ms` apart (one frame per read:
     slow, use few streams);
   - `adjacent`: each stream's frames back to back, for comparison;
3. stops when no stream has had window for `--idle` seconds (every stream stalled, or reset,
   or the connection closed), waits `--settle` seconds and reads the server's RSS (VmRSS of
   `--pid`) again.

It prints what it sent, how the server answered (window granted, RST_STREAM and GOAWAY codes,
connections closed) and the RSS growth per stream, and exits 0 when that growth is at most
`--max-growth-kb` (400) per stream (a stream the server reset or a connection it closed holds
nothing, which is also a pass).

    cargo build --release -p solver-server
    target/release/solver-server --listen 127.0.0.1:50061 --metrics-listen 127.0.0.1:0 \\
        --warm-up eight &
    python3 solver-client/attacks/frames.py --target 127.0.0.1:50061 --pid $! --streams 100
    python3 solver-client/attacks/frames.py --target 127.0.0.1:50061 --pid $! --streams 400

Only the python standard library and `hpack` (which comes with `h2`; `.ci/foreign.sh` installs it
into target/foreign-venv). Linux only (/proc).
"""

import argparse
import collections
import select
import socket
import struct
import sys
import time

import hpack

from procstat import rss  # beside this script

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0, 1, 3, 4, 6, 7, 8
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
INITIAL_WINDOW_SIZE, MAX_CONCURRENT_STREAMS, ENABLE_PUSH = 0x4, 0x3, 0x2
ERRORS = {
    0: "NO_ERROR", 1: "PROTOCOL_ERROR", 2: "INTERNAL_ERROR", 3: "FLOW_CONTROL_ERROR",
    5: "STREAM_CLOSED", 7: "REFUSED_STREAM", 8: "CANCEL", 11: "ENHANCE_YOUR_CALM",
}


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def cases():
    """An endless byte stream of gRPC-framed `solver.v1.SlidingRequest`s (3x3 boards)."""
    board = bytes([1, 2, 3, 4, 5, 6, 7, 0, 8])
    case_id = 0
    while True:
        case_id = case_id % 100_000 + 1
        body = b"\x08" + bytes([case_id & 0x7F | 0x80, case_id >> 7 & 0x7F | 0x80, case_id >> 14])
        body += b"\x12\x09" + board
        yield from b"\x00" + struct.pack(">I", len(body)) + body


class Connection:
    """One raw HTTP/2 connection: what the server granted and what it said."""

    def __init__(self, host, port, method, streams):
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = bytearray()
        self.closed = False
        self.goaway = None
        self.resets = {}
        self.server_settings = {}
        self.connection_window = 65_535
        settings = struct.pack(">HI", INITIAL_WINDOW_SIZE, 0) + struct.pack(">HI", ENABLE_PUSH, 0)
        self.sock.sendall(PREFACE + frame(SETTINGS, 0, 0, settings))
        deadline = time.monotonic() + 10
        while INITIAL_WINDOW_SIZE not in self.server_settings and time.monotonic() < deadline:
            self.pump(0.1)
        initial = self.server_settings.get(INITIAL_WINDOW_SIZE, 65_535)
        most = self.server_settings.get(MAX_CONCURRENT_STREAMS, streams)
        if streams > most:
            print(f"the server allows {most} streams a connection; opening {most}", file=sys.stderr)
            streams = most
        self.ids = [1 + 2 * i for i in range(streams)]
        self.windows = {stream: initial for stream in self.ids}
        self.bytes = {stream: cases() for stream in self.ids}
        encoder = hpack.Encoder()
        opening = bytearray()
        for stream in self.ids:
            block = encoder.encode([
                (":method", "POST"), (":scheme", "http"), (":path", method),
                (":authority", f"{host}:{port}"), ("content-type", "application/grpc"),
                ("te", "trailers"),
            ])
            opening += frame(HEADERS, END_HEADERS, stream, block)
        self.send(opening)

    def send(self, data):
        if self.closed:
            return
        try:
            self.sock.sendall(data)
        except OSError:
            self.closed = True

    def pump(self, timeout):
        """Reads and handles what the server sent within `timeout` seconds."""
        if self.closed:
            return
        ready, _, _ = select.select([self.sock], [], [], timeout)
        while ready:
            try:
                data = self.sock.recv(1 << 20, socket.MSG_DONTWAIT)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self.closed = True
                break
            self.buffer += data
        replies = bytearray()
        while len(self.buffer) >= 9:
            length = int.from_bytes(self.buffer[:3], "big")
            if len(self.buffer) < 9 + length:
                break
            kind, flags = self.buffer[3], self.buffer[4]
            stream = int.from_bytes(self.buffer[5:9], "big") & 0x7FFF_FFFF
            payload = bytes(self.buffer[9 : 9 + length])
            del self.buffer[: 9 + length]
            if kind == SETTINGS and not flags & ACK:
                for at in range(0, len(payload), 6):
                    key, value = struct.unpack_from(">HI", payload, at)
                    self.server_settings[key] = value
                replies += frame(SETTINGS, ACK, 0)
            elif kind == PING and not flags & ACK:
                replies += frame(PING, ACK, 0, payload)
            elif kind == WINDOW_UPDATE:
                increment = int.from_bytes(payload, "big") & 0x7FFF_FFFF
                if stream == 0:
                    self.connection_window += increment
                elif stream in getattr(self, "windows", {}):
                    self.windows[stream] += increment
            elif kind == RST_STREAM:
                self.resets[stream] = int.from_bytes(payload, "big")
            elif kind == GOAWAY:
                self.goaway = int.from_bytes(payload[4:8], "big")
        if replies:
            self.send(replies)

    def open_streams(self):
        return [s for s in self.ids if s not in self.resets] if not self.closed else []


def name(code):
    return ERRORS.get(code, str(code))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="127.0.0.1:50051", help="the server's gRPC address")
    parser.add_argument("--pid", type=int, required=True, help="the server's process id")
    parser.add_argument("--connections", type=int, default=1)
    parser.add_argument("--streams", type=int, default=100, help="streams per connection")
    parser.add_argument("--frame-bytes", type=int, default=1, help="payload bytes per DATA frame")
    parser.add_argument("--pattern", choices=["interleaved", "paced", "adjacent"], default="interleaved")
    parser.add_argument("--pace-ms", type=float, default=1.0, help="pause between writes (paced)")
    parser.add_argument("--method", default="/solver.v1.Solver/SolveEight")
    parser.add_argument("--idle", type=float, default=2.0)
    parser.add_argument("--settle", type=float, default=2.0)
    parser.add_argument("--max-growth-kb", type=float, default=400.0)
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)

    before = rss(args.pid)
    conns = [Connection(host, int(port), args.method, args.streams) for _ in range(args.connections)]
    streams = sum(len(conn.ids) for conn in conns)
    for conn in conns:
        conn.pump(0.2)
    started = time.monotonic()
    frames_sent = 0
    peak = before
    idle_since = None
    size = args.frame_bytes
    while True:
        progress = False
        for conn in conns:
            out = bytearray()
            live = [s for s in conn.open_streams() if conn.windows[s] >= size]
            while live and conn.connection_window >= size:
                rounds = 1 if args.pattern == "paced" else 64
                order = ([s for s in live for _ in range(rounds)] if args.pattern == "adjacent"
                         else [s for _ in range(rounds) for s in live])
                for stream in order:
                    if conn.windows[stream] < size or conn.connection_window < size:
                        continue
                    payload = bytes(next(conn.bytes[stream]) for _ in range(size))
                    piece = frame(DATA, 0, stream, payload)
                    conn.windows[stream] -= size
                    conn.connection_window -= size
                    frames_sent += 1
                    progress = True
                    if args.pattern == "paced":
                        conn.send(piece)
                        time.sleep(args.pace_ms / 1000)
                    else:
                        out += piece
                if len(out) >= 1 << 16 or args.pattern == "paced":
                    conn.send(out)
                    out.clear()
                    conn.pump(0)
                live = [s for s in conn.open_streams() if conn.windows[s] >= size]
            conn.send(out)
            conn.pump(0)
        peak = max(peak, rss(args.pid))
        if progress:
            idle_since = None
        else:
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since >= args.idle:
                break
            for conn in conns:
                conn.pump(0.05)
    sending = time.monotonic() - started
    time.sleep(args.settle)
    for conn in conns:
        conn.pump(0)
    after = rss(args.pid)
    peak = max(peak, after)

    resets = collections.Counter(name(code) for conn in conns for code in conn.resets.values())
    goaways = collections.Counter(name(conn.goaway) for conn in conns if conn.goaway is not None)
    closed = sum(conn.closed for conn in conns)
    held = sum(len(conn.open_streams()) for conn in conns)
    grown = after - before
    print(
        f"{streams} streams on {len(conns)} connection(s), {args.pattern} DATA frames of {size} "
        f"byte(s): {frames_sent} frames ({frames_sent * (9 + size) / 1e6:.1f} MB) sent in "
        f"{sending:.1f} s"
    )
    print(
        f"server: streams reset {dict(resets) or 'none'}, GOAWAY {dict(goaways) or 'none'}, "
        f"connections closed {closed} of {len(conns)}, streams still open {held}"
    )
    print(
        f"server RSS {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB (peak {peak / 1e6:.1f} MB): "
        f"{grown / 1e6:+.1f} MB, {grown / streams / 1e3:+.1f} KB per stream "
        f"(peak {(peak - before) / streams / 1e3:+.1f} KB)"
    )
    for conn in conns:
        conn.sock.close()
    ok = grown / streams <= args.max_growth_kb * 1e3
    print("PASS" if ok else f"FAIL: more than {args.max_growth_kb:.0f} KB per stream")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
