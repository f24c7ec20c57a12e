#!/usr/bin/env python3
"""Talks to a running solver-server from outside its container.

  grpc_check.py wait-serving ADDR TIMEOUT_S
      Polls grpc.health.v1.Health/Check (service "") until SERVING; fails after TIMEOUT_S.
  grpc_check.py health ADDR
      One health check; prints the status; exits 0 only for SERVING.
  grpc_check.py connection-age ADDR AGE_S
      Opens one channel, calls health, and requires the server to close the connection
      (GOAWAY: the channel leaves READY) within AGE_S + 5 s; then a call must succeed again
      on a new connection.
  grpc_check.py korf-requests KORF.txt OUT.jsonl
      Writes Korf's 15-puzzles (id, optimal length, 16 cells per line) as SolveFifteen requests.
  grpc_check.py korf-verify KORF.txt REPLIES.json
      Checks grpcurl's replies: every case answered, each move string replayed from its board
      reaches the goal in exactly the known optimal number of moves.

Every call has a deadline; failures print what went wrong and exit non-zero.
"""

import json
import sys
import time

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def health_status(addr, timeout=2.0):
    with grpc.insecure_channel(addr) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        reply = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout)
        return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)


def wait_serving(addr, timeout_s):
    started = time.monotonic()
    last = "no answer"
    while time.monotonic() - started < timeout_s:
        try:
            last = health_status(addr)
            if last == "SERVING":
                print(f"health SERVING after {time.monotonic() - started:.1f}s")
                return 0
        except grpc.RpcError as err:
            last = f"{err.code().name}: {err.details()}"
        time.sleep(0.5)
    print(f"FAIL: health not SERVING within {timeout_s}s (last: {last})", file=sys.stderr)
    return 1


def connection_age(addr, age_s):
    started = time.monotonic()
    states = []
    with grpc.insecure_channel(addr) as channel:
        channel.subscribe(lambda s: states.append((time.monotonic() - started, s.name)),
                          try_to_connect=True)
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest(service="")
        stub.Check(request, timeout=5)
        deadline = started + age_s + 5
        while time.monotonic() < deadline:
            names = [name for _, name in states]
            if "READY" in names and names[-1] != "READY":
                break
            time.sleep(0.1)
        names = [name for _, name in states]
        if "READY" not in names or names[-1] == "READY":
            print(f"FAIL: connection still open after {age_s + 5:g}s: {states}", file=sys.stderr)
            return 1
        closed_at = next(t for t, name in reversed(states) if name != "READY")
        stub.Check(request, timeout=5)
    print(f"ok: the server closed the connection after {closed_at:.1f}s "
          f"(max age {age_s:g}s) and the next call reconnected")
    return 0


def read_replies(text):
    """grpcurl prints each reply as a JSON object; they follow one another."""
    decoder, pos, replies = json.JSONDecoder(), 0, []
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return replies
        reply, pos = decoder.raw_decode(text, pos)
        replies.append(reply)


def read_korf(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if fields and not fields[0].startswith("#"):
                cases.append((int(fields[0]), int(fields[1]), [int(x) for x in fields[2:18]]))
    return cases


def korf_requests(korf_path, out_path):
    with open(out_path, "w", encoding="utf-8") as out:
        for case_id, _, cells in read_korf(korf_path):
            out.write(json.dumps({"id": case_id, "start": cells}) + "\n")
    return 0


def replay(cells, moves, width=4):
    """Moves the blank by each letter (u d l r); None if a move leaves the board."""
    cells = list(cells)
    blank = cells.index(0)
    steps = {"u": -width, "d": width, "l": -1, "r": 1}
    for letter in moves:
        row, col = divmod(blank, width)
        if (letter == "u" and row == 0) or (letter == "d" and row == width - 1) \
                or (letter == "l" and col == 0) or (letter == "r" and col == width - 1):
            return None
        target = blank + steps[letter]
        cells[blank], cells[target] = cells[target], 0
        blank = target
    return cells


def korf_verify(korf_path, replies_path):
    with open(replies_path, encoding="utf-8") as f:
        replies = {int(r.get("id", 0)): r for r in read_replies(f.read())}
    goal = list(range(1, 16)) + [0]
    bad = []
    cases = read_korf(korf_path)
    for case_id, optimal, cells in cases:
        reply = replies.get(case_id)
        moves = (reply or {}).get("solution", {}).get("moves")
        if moves is None:
            bad.append(f"case {case_id}: no solution ({reply})")
        elif replay(cells, moves) != goal:
            bad.append(f"case {case_id}: {moves!r} does not reach the goal")
        elif len(moves) != optimal:
            bad.append(f"case {case_id}: {len(moves)} moves, optimum is {optimal}")
    if bad:
        print("FAIL: " + "\n      ".join(bad), file=sys.stderr)
        return 1
    print(f"ok: all {len(cases)} cases answered, replayed to the goal, optimal")
    return 0


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    command, addr = sys.argv[1], sys.argv[2]
    if command == "korf-requests":
        return korf_requests(sys.argv[2], sys.argv[3])
    if command == "korf-verify":
        return korf_verify(sys.argv[2], sys.argv[3])
    if command == "wait-serving":
        return wait_serving(addr, float(sys.argv[3]))
    if command == "health":
        try:
            status = health_status(addr)
        except grpc.RpcError as err:
            status = f"{err.code().name}: {err.details()}"
        print(status)
        return 0 if status == "SERVING" else 1
    if command == "connection-age":
        return connection_age(addr, float(sys.argv[3]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
