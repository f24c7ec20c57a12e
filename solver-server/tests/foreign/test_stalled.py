"""1,000 streams whose clients send cases and never read a reply: the server's memory stays
bounded, it stays healthy and serves others, and its gauges return to zero when they leave."""

import time

import grpc
from grpc_health.v1 import health_pb2

from conftest import solver_pb2, solver_pb2_grpc
from grpc_h2 import Connection, grpc_frame, sliding_request

EIGHT = "/solver.v1.Solver/SolveEight"


def stall(server, connections, streams_per_connection, packed):
    """Opens the streams and sends on each until flow control stops every one: many messages per
    DATA frame (`packed`, as tonic and solver-client send them) or one per frame (as grpcio
    does: the worst case for h2's per-frame cost). Returns (connections, streams, cases)."""
    message = grpc_frame(sliding_request(123456, [8, 6, 7, 2, 5, 4, 3, 0, 1]))
    conns = [Connection(server.port) for _ in range(connections)]
    for conn in conns:
        conn.pump(0.05)  # the server's SETTINGS (its small stream window) first
    streams = [
        (conn, conn.open(EIGHT, ack=False)) for conn in conns for _ in range(streams_per_connection)
    ]
    sent = 0
    idle_since = None
    started = time.monotonic()
    while idle_since is None or time.monotonic() - idle_since < 1.5:
        progress = False
        for conn, stream_id in streams:
            window = conn.window(stream_id)
            while window >= len(message):
                count = min(window, conn.h2.max_outbound_frame_size) // len(message) if packed else 1
                conn.send(stream_id, message * count)
                window -= count * len(message)
                sent += count
                progress = True
        for conn in conns:
            conn.flush()
            conn.pump(0)
            assert conn.goaway is None and not conn.closed, f"connection lost: {conn.goaway}"
        if progress:
            idle_since = None
        else:
            idle_since = idle_since or time.monotonic()
            time.sleep(0.02)
        assert time.monotonic() - started < 180, "the stalled clients never stalled"
    return conns, streams, sent


def in_flight(server):
    return server.metric("solver_cases_in_flight")


def stall_and_measure(server, connections, streams_per_connection, packed):
    before = server.rss()
    conns, streams, sent = stall(server, connections, streams_per_connection, packed)
    time.sleep(0.5)
    grown = server.rss() - before
    held = sum(len(conn.streams[s].messages) for conn, s in streams)
    print(
        f"\n{len(streams)} stalled streams on {len(conns)} connections, "
        f"{'many messages' if packed else 'one message'} per frame: {sent} cases sent, "
        f"{held} replies taken by the clients' windows; server RSS "
        f"{before / 2**20:.0f} MiB -> {(before + grown) / 2**20:.0f} MiB, "
        f"+{grown / 2**20:.0f} MiB = {grown / len(streams) / 1024:.0f} KiB per stream"
    )
    assert server.metric("solver_streams_open")[""] == len(streams)
    return conns, streams, grown


def leave_and_check_gauges(server, conns):
    """The stalled clients leave: every gauge of cases in flight is back to 0 within 5 s."""
    for conn in conns:
        conn.close()
    left = time.monotonic()
    while True:
        gauges = in_flight(server)
        if gauges and all(value == 0 for value in gauges.values()):
            break
        assert time.monotonic() - left < 5, (
            f"solver_cases_in_flight 5 s after the clients left: {gauges}"
        )
        time.sleep(0.1)
    print(f"solver_cases_in_flight at 0 for every kind {time.monotonic() - left:.2f} s after")


def test_a_thousand_stalled_streams_stay_under_256_mb(fresh_server):
    server = fresh_server
    conns, streams, grown = stall_and_measure(server, 100, 10, packed=True)

    # Healthy, and another client is served meanwhile.
    assert server.health() == health_pb2.HealthCheckResponse.SERVING
    assert server.health("solver.v1.Solver") == health_pb2.HealthCheckResponse.SERVING
    with server.channel() as channel:
        request = solver_pb2.SlidingRequest(id=5, start=[1, 2, 3, 4, 5, 6, 7, 0, 8])
        replies = list(solver_pb2_grpc.SolverStub(channel).SolveEight(iter([request]), timeout=10))
    assert [(r.id, r.solution.moves) for r in replies] == [(5, "r")]

    assert grown < 256 << 20, f"RSS grew by {grown / 2**20:.0f} MiB for {len(streams)} streams"
    leave_and_check_gauges(server, conns)


def test_a_thousand_stalled_streams_of_one_frame_messages_stay_under_256_mb(fresh_server):
    """grpcio's framing, one message per DATA frame: h2 would keep about 220 bytes per unread
    frame, but the server merges each burst of one stream's frames before h2 sees them
    (src/coalesce.rs), so a stalled stream costs about what a batching client's does."""
    server = fresh_server
    conns, streams, grown = stall_and_measure(server, 100, 10, packed=False)
    assert all(conn.goaway is None for conn in conns)
    assert server.health() == health_pb2.HealthCheckResponse.SERVING
    assert grown < 256 << 20, f"RSS grew by {grown / 2**20:.0f} MiB for {len(streams)} streams"
    leave_and_check_gauges(server, conns)
