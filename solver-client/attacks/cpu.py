#!/usr/bin/env python3
"""CPU attacks of issue 23 at full size, against a running server (python grpcio, no stubs:
the few messages are encoded by hand).

  scramble  two Scrambles of 10^9 moves (5x5 and 3x6, 3 s deadline) while health is checked
            every 0.5 s: every check must answer SERVING and both calls end INVALID_ARGUMENT.
  bounded   50 bounded 5x5 Solves (max_ratio 1.5), unary from one channel, then the same 50 on
            one SolveStream, while another channel sends a 3x3 Solve every 100 ms: prints the
            3x3 calls' waits (the check: none over 100 ms).

Usage: cpu.py HOST:PORT scramble|bounded
"""

import random
import struct
import sys
import threading
import time

import grpc

SOLVE = "/solver.v2.SolverService/Solve"
SOLVE_STREAM = "/solver.v2.SolverService/SolveStream"
SCRAMBLE = "/solver.v2.SolverService/Scramble"
HEALTH = "/grpc.health.v1.Health/Check"


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, wire, payload):
    key = varint(number << 3 | wire)
    if wire == 0:
        return key + varint(payload)
    if wire == 1:
        return key + payload
    return key + varint(len(payload)) + payload


def sliding(rows, cols, start, max_ratio=0.0):
    board = field(1, 0, rows) + field(2, 0, cols)
    board += field(3, 2, b"".join(varint(t) for t in start))
    message = field(2, 2, board)
    if max_ratio:
        message += field(5, 2, field(1, 1, struct.pack("<d", max_ratio)))
    return message


def solvable_board(rows, cols, rng):
    """A random board that reaches the standard goal (the permutation's parity rule)."""
    cells = rows * cols
    while True:
        tiles = list(range(cells))
        rng.shuffle(tiles)
        inversions = sum(
            1
            for i in range(cells)
            for j in range(i + 1, cells)
            if tiles[i] and tiles[j] and tiles[i] > tiles[j]
        )
        blank_row_from_bottom = rows - tiles.index(0) // cols
        if cols % 2 == 1:
            ok = inversions % 2 == 0
        else:
            ok = (inversions + blank_row_from_bottom) % 2 == 1
        if ok:
            return tiles


def identity(b):
    return b


def scramble_attack(target):
    channel = grpc.insecure_channel(target)
    health = channel.unary_unary(HEALTH, identity, identity)
    scramble = channel.unary_unary(SCRAMBLE, identity, identity)
    results = []

    def call(rows, cols):
        request = field(1, 0, rows) + field(2, 0, cols) + field(3, 0, 10**9) + field(4, 0, 1)
        try:
            scramble(request, timeout=3)
            results.append("OK")
        except grpc.RpcError as err:
            results.append(err.code().name)

    threads = [threading.Thread(target=call, args=shape) for shape in [(5, 5), (3, 6)]]
    for thread in threads:
        thread.start()
    failed = 0
    for _ in range(16):
        try:
            reply = health(b"", timeout=1)
            if reply != b"\x08\x01":
                failed += 1
        except grpc.RpcError:
            failed += 1
        time.sleep(0.5)
    for thread in threads:
        thread.join()
    print(f"scrambles: {results}; health checks failed: {failed} of 16")
    return failed == 0


def bounded_attack(target):
    rng = random.Random(7)
    boards = [solvable_board(5, 5, rng) for _ in range(50)]
    waits = []
    stop = threading.Event()

    def cheap():
        channel = grpc.insecure_channel(target)
        solve = channel.unary_unary(SOLVE, identity, identity)
        request = sliding(3, 3, [1, 2, 3, 4, 5, 6, 7, 0, 8])
        solve(request, timeout=10)
        while not stop.is_set():
            started = time.monotonic()
            solve(request, timeout=10)
            waits.append(time.monotonic() - started)
            time.sleep(0.1)

    prober = threading.Thread(target=cheap)
    prober.start()
    time.sleep(0.5)
    flood = grpc.insecure_channel(target)
    solve = flood.unary_unary(SOLVE, identity, identity)
    futures = [solve.future(sliding(5, 5, b, 1.5), timeout=60) for b in boards]
    unary_failed = {}
    for future in futures:
        try:
            future.result()
        except grpc.RpcError as err:
            unary_failed[err.code().name] = unary_failed.get(err.code().name, 0) + 1
    unary_waits = list(waits)
    stream = flood.stream_stream(SOLVE_STREAM, identity, identity)
    replies = list(stream(iter([sliding(5, 5, b, 1.5) for b in boards]), timeout=120))
    stop.set()
    prober.join()
    stream_waits = waits[len(unary_waits):]
    for name, ws in [("unary", unary_waits), ("stream", stream_waits)]:
        ws = sorted(ws)
        print(
            f"3x3 beside 50 bounded 5x5 ({name}): {len(ws)} calls, "
            f"median {ws[len(ws) // 2] * 1000:.1f} ms, max {ws[-1] * 1000:.1f} ms"
        )
    # 50 searches of up to a second of CPU each share the server's cores: on two cores some
    # miss the 60 s deadline, which is capacity, not starvation.
    print(f"unary bounded calls failed, by code: {unary_failed}; stream replies: {len(replies)}")
    return max(waits) < 0.1


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in ("scramble", "bounded"):
        sys.exit(__doc__)
    ok = scramble_attack(sys.argv[1]) if sys.argv[2] == "scramble" else bounded_attack(sys.argv[1])
    sys.exit(0 if ok else 1)
