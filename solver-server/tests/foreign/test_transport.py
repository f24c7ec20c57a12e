"""A hostile client below gRPC (issue 23, items 2 and 6), scaled down from the attack scripts in
solver-client/attacks: tiny DATA frames on stalled streams, interleaved or one per read, cost
little and close the connection, while grpcio's framing left unread is never cut off; connections
that never finish their HTTP/2 handshake are closed."""

import socket
import time

import h2.errors
import h2.settings
from grpc_health.v1 import health_pb2

from conftest import Server
from grpc_h2 import Connection, grpc_frame, sliding_request

EIGHT = "/solver.v1.Solver/SolveEight"
CASE = grpc_frame(sliding_request(7, [1, 2, 3, 4, 5, 6, 7, 0, 8]))


def stalling_connection(server):
    """A connection whose streams get no window for replies: each stalls once the server holds
    its window of cases unanswered."""
    conn = Connection(server.port)
    conn.h2.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
    conn.flush()
    conn.pump(0.2)
    return conn


def feed(conn, streams, size, paced, limit, offset=None):
    """Sends case bytes on `streams` in DATA frames of `size` bytes, the streams taking turns
    frame by frame, as long as the windows allow, the connection is open and fewer than `limit`
    frames were sent; `paced`: each frame written alone, 1 ms apart. `offset`: where each
    stream's bytes stand, kept between calls. Returns the frames sent."""
    data = {stream: (CASE * 2000) for stream in streams}
    if offset is None:
        offset = {}
    for stream in streams:
        offset.setdefault(stream, 0)
    sent = 0
    idle_since = None
    while sent < limit and not conn.closed and conn.goaway is None:
        progress = False
        for stream in streams:
            if conn.window(stream) >= size:
                at = offset[stream] % (len(data[stream]) - size)
                conn.send(stream, data[stream][at : at + size])
                offset[stream] += size
                sent += 1
                progress = True
                if paced:
                    conn.flush()
                    time.sleep(0.001)
        conn.flush()
        conn.pump(0)
        if progress:
            idle_since = None
        else:
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since > 1.5:
                break
            conn.pump(0.05)
    conn.pump(0.5)
    return sent


def test_interleaved_one_byte_frames_on_stalled_streams_are_cut_short(fresh_server):
    server = fresh_server
    before = server.rss()
    peak = before
    conn = stalling_connection(server)
    streams = [conn.open(EIGHT, ack=False) for _ in range(20)]
    sent = 0
    offset = {}
    while not conn.closed and conn.goaway is None and sent < 20 * 30_000:
        chunk = feed(conn, streams, 1, paced=False, limit=2_000, offset=offset)
        sent += chunk
        peak = max(peak, server.rss())
        if chunk == 0:
            break
    grown = peak - before
    print(f"\n{sent} interleaved 1-byte frames on {len(streams)} streams: GOAWAY {conn.goaway}, "
          f"closed {conn.closed}; RSS peak +{grown / 1e3:.0f} KB, "
          f"{grown / len(streams) / 1e3:.0f} KB per stream")
    assert conn.goaway is not None or conn.closed, f"{sent} frames sent, connection open"
    if conn.goaway is not None:
        assert conn.goaway[0] == h2.errors.ErrorCodes.ENHANCE_YOUR_CALM, conn.goaway
    assert grown < 400e3 * len(streams), f"RSS grew by {grown / 1e6:.1f} MB"
    assert server.health() == health_pb2.HealthCheckResponse.SERVING
    assert server.process.poll() is None


def test_one_byte_frames_one_per_read_are_cut_short(eight_server):
    conn = stalling_connection(eight_server)
    stream = conn.open(EIGHT, ack=False)
    sent = feed(conn, [stream], 1, paced=True, limit=3_000)
    print(f"\n{sent} 1-byte frames one per write: GOAWAY {conn.goaway}, closed {conn.closed}")
    assert conn.goaway is not None or conn.closed, f"{sent} frames sent one by one, still open"
    assert eight_server.health() == health_pb2.HealthCheckResponse.SERVING


def test_grpcio_framing_left_unread_is_never_cut_off(eight_server):
    """One 18-byte message per DATA frame on two streams taking turns, replies unread until
    every window is full: no GOAWAY, no reset; then the client reads and every case is
    answered."""
    conn = stalling_connection(eight_server)
    streams = [conn.open(EIGHT, ack=False) for _ in range(2)]
    sent = feed(conn, streams, len(CASE), paced=False, limit=10**9)
    assert conn.goaway is None and not conn.closed, f"cut off after {sent} frames: {conn.goaway}"
    assert all(conn.window(s) < len(CASE) for s in streams), "the streams never stalled"
    assert not any(conn.streams[s].reset for s in streams)
    conn.pump(1.0)
    assert conn.goaway is None and not conn.closed
    print(f"\n{sent} one-message frames unread on 2 stalled streams: connection kept")

    conn.h2.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1 << 20})
    for stream in streams:
        conn.grant(stream)
        conn.end(stream)
    assert conn.wait(lambda: all(conn.streams[s].ended for s in streams), 30)
    for stream in streams:
        assert conn.streams[stream].reset is None
        assert conn.streams[stream].status() == 0
    assert sum(len(conn.streams[s].messages) for s in streams) == sent
    conn.close()


def open_and_wait_closed(port, opening, within):
    """Connects, sends `opening`, and returns how long the server took to close the connection
    (None if it did not within `within` seconds)."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(opening)
    started = time.monotonic()
    sock.settimeout(1.0)
    try:
        while time.monotonic() - started < within:
            try:
                if not sock.recv(1 << 16):
                    return time.monotonic() - started
            except socket.timeout:
                continue
            except ConnectionResetError:
                return time.monotonic() - started
        return None
    finally:
        sock.close()


def test_connections_that_never_finish_their_handshake_are_closed():
    """With `--max-connection-age 10s` (and the default handshake time limit), connections that
    send nothing, the preface only, or the preface and SETTINGS without acknowledging the
    server's are closed within 40 s (10 s expected)."""
    import threading

    server = Server("eight", "--max-connection-age", "10s")
    try:
        settings = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
        preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        openings = {"nothing": b"", "preface": preface, "preface+settings": preface + settings}
        results = {}

        def run(name, opening):
            results[name] = open_and_wait_closed(server.port, opening, 40)

        threads = [threading.Thread(target=run, args=item) for item in openings.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(f"\nclosed after (s): {results}")
        for name, after in results.items():
            assert after is not None, f"{name}: still open after 40 s"
            assert after < 40, f"{name}: closed after {after:.1f} s"
        assert server.health() == health_pb2.HealthCheckResponse.SERVING
    finally:
        server.stop()
