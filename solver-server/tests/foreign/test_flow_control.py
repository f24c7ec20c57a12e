"""Clients that send one message per HTTP/2 DATA frame are slowed by flow control, never cut off.

grpcio (like grpc-go and grpc-java) frames every message on its own. h2 charges each small
unread frame against a per-connection budget and sends GOAWAY ENHANCE_YOUR_CALM
"too_many_data_frames" when it runs out (see solver-server/src/http.rs); these tests assert that
it never happens to a real client, whatever the server's pace.
"""

import os
import random
import time

import grpc

from conftest import FIFTEEN_GOAL, solver_pb2, solver_pb2_grpc, walk
from grpc_h2 import Connection, grpc_frame, sliding_request

EIGHT = "/solver.v1.Solver/SolveEight"
HARD = int(os.environ.get("FOREIGN_HARD", "3000"))  # hard 15-puzzle cases before the easy ones


def stream_with_grpcio(server, method, boards, count, pause=1.0):
    """Streams `count` cases on ONE call with stock grpcio, reading replies as they come after a
    pause of `pause` seconds at the first one (a slow reader: the sender keeps going, the
    server's window fills and it stops reading); returns (replies by id, final status code)."""

    def requests():
        for case_id in range(1, count + 1):
            board = boards[case_id] if isinstance(boards, dict) else boards[case_id % len(boards)]
            yield solver_pb2.SlidingRequest(id=case_id, start=board)

    replies = {}
    with server.channel() as channel:
        call = getattr(solver_pb2_grpc.SolverStub(channel), method)(requests(), timeout=600)
        try:
            for reply in call:
                assert reply.id not in replies, f"case {reply.id} answered twice"
                replies[reply.id] = reply
                if len(replies) == 1 and pause:
                    time.sleep(pause)
        except grpc.RpcError as error:
            raise AssertionError(
                f"the stream failed after {len(replies)} of {count} replies: "
                f"{error.code()} {error.details()}"
            ) from error
        return replies, call.code()


def test_grpcio_streams_200000_eight_cases_on_one_stream(eight_server, eight_boards):
    count = 200_000
    replies, code = stream_with_grpcio(eight_server, "SolveEight", eight_boards, count)
    assert code == grpc.StatusCode.OK
    assert len(replies) == count
    assert set(replies) == set(range(1, count + 1))
    for reply in replies.values():
        assert reply.WhichOneof("outcome") == "solution", reply


def test_grpcio_keeps_sending_fifteen_cases_while_the_server_is_behind(fifteen_server):
    """3,000 distinct boards 60-120 random moves from the goal (seconds of search in all), then
    50,000 easy ones: the server falls behind, its window of cases fills and it stops reading,
    while grpcio goes on sending one frame per message. With hyper's 1 MiB stream window this
    got GOAWAY "too_many_data_frames" after about 1,000 replies (54e37ea)."""
    rng = random.Random(15)
    hard = [walk(FIFTEEN_GOAL, 4, rng.randint(60, 120), rng) for _ in range(HARD)]
    easy = [walk(FIFTEEN_GOAL, 4, rng.randint(1, 12), rng) for _ in range(499)]
    easy.append([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15])
    count = len(hard) + 50_000
    boards = {case_id: hard[case_id - 1] for case_id in range(1, len(hard) + 1)}
    for case_id in range(len(hard) + 1, count + 1):
        boards[case_id] = easy[case_id % len(easy)]
    replies, code = stream_with_grpcio(fifteen_server, "SolveFifteen", boards, count, pause=0)
    assert code == grpc.StatusCode.OK
    assert set(replies) == set(range(1, count + 1))
    for case_id, reply in replies.items():
        assert reply.WhichOneof("outcome") == "solution", reply
        if case_id > len(hard):
            assert reply.solution.length <= 12, reply
    one_move = [r for i, r in replies.items() if boards[i] == easy[-1]]
    assert one_move and all(r.solution.moves == "r" for r in one_move)


def test_raw_http2_one_frame_per_message_is_slowed_not_cut_off(eight_server):
    """100,000+ messages, each its own DATA frame, sent as fast as the windows allow, the replies
    left unread for a while; a second stream on the same connection must still be answered."""
    total = 120_000
    conn = Connection(eight_server.port)
    flood = conn.open(EIGHT, ack=False)
    bystander = conn.open(EIGHT)
    message = grpc_frame(sliding_request(7, [1, 2, 3, 4, 5, 6, 7, 0, 8]))
    assert len(message) < 30

    def send_while_allowed(limit):
        nonlocal sent
        while sent < limit and conn.window(flood) >= len(message):
            conn.send(flood, message)
            sent += 1
            if sent % 256 == 0:
                conn.flush()
                conn.pump(0)
        conn.flush()

    # Phase 1: send everything the windows allow, read no reply of the flood stream.
    sent = 0
    stalled_since = None
    while stalled_since is None or time.monotonic() - stalled_since < 1.0:
        before = sent
        send_while_allowed(total)
        conn.pump(0.05)
        assert conn.goaway is None, f"GOAWAY after {sent} frames: {conn.goaway}"
        assert not conn.closed, f"connection closed after {sent} frames"
        if sent == before:
            stalled_since = stalled_since or time.monotonic()
        else:
            stalled_since = None
    unread = len(conn.streams[flood].messages)
    print(f"\nflood stream stalled by flow control after {sent} frames ({unread} replies held)")
    assert sent < total, "nothing slowed the sender"

    # The bystander on the same connection is answered meanwhile.
    conn.send(bystander, grpc_frame(sliding_request(99, [1, 2, 3, 4, 5, 6, 7, 0, 8])), end=True)
    conn.flush()
    assert conn.wait(lambda: conn.streams[bystander].ended, 10), "bystander not answered"
    assert conn.streams[bystander].status() == 0
    assert len(conn.streams[bystander].messages) == 1

    # Phase 2: read the replies and send the rest.
    conn.grant(flood)
    deadline = time.monotonic() + 120
    while sent < total:
        send_while_allowed(total)
        conn.pump(0.01)
        assert conn.goaway is None, f"GOAWAY after {sent} frames: {conn.goaway}"
        assert not conn.closed and time.monotonic() < deadline, f"stuck after {sent} frames"
    conn.end(flood)
    assert conn.wait(lambda: conn.streams[flood].ended, 60), "flood stream did not end"
    stream = conn.streams[flood]
    assert conn.goaway is None, conn.goaway
    assert stream.reset is None, f"stream reset: {stream.reset}"
    assert stream.status() == 0, stream.trailers
    assert len(stream.messages) == total
    print(f"{total} one-frame messages answered on one stream, no GOAWAY")
    conn.close()


def test_a_burst_sent_before_the_settings_does_not_hang_the_stream(eight_server):
    """A client may send up to HTTP/2's default 64 KiB window before it reads the server's
    SETTINGS. Whatever it sent, and however fast the server read it, the stream must go on
    (with a stream window under 21,846 bytes, h2 0.4.20 never granted window back)."""
    message = grpc_frame(sliding_request(5, [1, 2, 3, 4, 5, 6, 7, 0, 8]))
    for burst in (3_000, 5_000, 15_000, 21_000, 30_000, 60_000):
        conn = Connection(eight_server.port)  # the server's SETTINGS are not read yet
        stream_id = conn.open(EIGHT)
        count = burst // len(message)
        for _ in range(count):
            conn.send(stream_id, message)
        conn.flush()
        time.sleep(0.3)  # the server reads the burst before our SETTINGS ACK reaches it
        conn.pump(0.1)
        assert conn.wait(lambda: conn.window(stream_id) >= len(message), 5), (
            f"after a burst of {count * len(message)} bytes the stream got no window back "
            f"(window {conn.window(stream_id)})"
        )
        conn.send(stream_id, message, end=True)
        conn.flush()
        assert conn.wait(lambda: conn.streams[stream_id].ended, 10)
        assert conn.streams[stream_id].status() == 0
        assert len(conn.streams[stream_id].messages) == count + 1
        conn.close()
