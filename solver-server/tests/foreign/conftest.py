"""Foreign clients against the real server binary: fixtures.

Run by `.ci/foreign.sh`, which makes the virtualenv and builds the binary. Environment:
`SOLVER_SERVER_BIN` (the binary; default target/release/solver-server) and `FOREIGN_STUBS` (where
the python stubs of proto/solver/v1 and v2 and the google.rpc files they use are generated;
default target/foreign/stubs).
"""

import collections
import functools
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))


PROTOS = [
    "solver/v1/solver.proto",
    "solver/v2/solver.proto",
    "google/rpc/status.proto",
    "google/rpc/error_details.proto",
]


def _stubs_dir():
    out = Path(os.environ.get("FOREIGN_STUBS", ROOT / "target" / "foreign" / "stubs"))
    out.mkdir(parents=True, exist_ok=True)
    for name in PROTOS:
        proto = ROOT / "proto" / name
        generated = out / name.replace(".proto", "_pb2.py")
        if generated.exists() and generated.stat().st_mtime >= proto.stat().st_mtime:
            continue
        import grpc_tools
        from grpc_tools import protoc

        # grpc_tools bundles the well-known types (google/protobuf/*.proto) there.
        well_known = Path(grpc_tools.__file__).resolve().parent / "_proto"
        code = protoc.main(
            [
                "protoc",
                f"-I{ROOT / 'proto'}",
                f"-I{well_known}",
                f"--python_out={out}",
                f"--grpc_python_out={out}",
                str(proto),
            ]
        )
        assert code == 0, f"grpc_tools.protoc failed on {name}"
    return out


sys.path.insert(0, str(_stubs_dir()))
from solver.v1 import solver_pb2, solver_pb2_grpc  # noqa: E402


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """The release binary on loopback ports, with `--workers 2`."""

    def __init__(self, warm_up, *extra, credentials=None):
        # With `credentials` (grpc.ssl_channel_credentials), the server speaks TLS and every
        # channel of the tests, health checks included, uses them.
        self.credentials = credentials
        binary = os.environ.get("SOLVER_SERVER_BIN", str(ROOT / "target" / "release" / "solver-server"))
        self.port = free_port()
        self.metrics_port = free_port()
        self.log = open(ROOT / "target" / "foreign" / f"server-{self.port}.log", "w")
        self.process = subprocess.Popen(
            [
                binary,
                "--listen",
                f"127.0.0.1:{self.port}",
                "--metrics-listen",
                f"127.0.0.1:{self.metrics_port}",
                "--workers",
                "2",
                "--warm-up",
                warm_up,
                "--warm-up-targets",
                "false",
                # The tests' own data directory (the 6-6-3 set is built once and loaded after),
                # never the user's cache, and no background build of the 7-8 set.
                "--data-dir",
                str(ROOT / "target" / "foreign" / "data"),
                "--build-databases",
                "false",
                *extra,
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.address = f"127.0.0.1:{self.port}"
        started = time.monotonic()
        while self.health() != health_pb2.HealthCheckResponse.SERVING:
            assert self.process.poll() is None, f"server exited: {self.log_text()}"
            assert time.monotonic() - started < 120, "server not SERVING after 120 s"
            time.sleep(0.1)
        print(f"\nserver {self.address} (pid {self.process.pid}, warm-up {warm_up}) SERVING after "
              f"{time.monotonic() - started:.1f} s")

    def log_text(self):
        self.log.flush()
        return (ROOT / "target" / "foreign" / f"server-{self.port}.log").read_text()[-4000:]

    def channel(self):
        if self.credentials is not None:
            # The test certificates name localhost; the address is 127.0.0.1.
            return grpc.secure_channel(
                self.address, self.credentials,
                options=[("grpc.ssl_target_name_override", "localhost")],
            )
        return grpc.insecure_channel(self.address)

    def health(self, service=""):
        try:
            with self.channel() as channel:
                reply = health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(service=service), timeout=2
                )
                return reply.status
        except grpc.RpcError:
            return None

    def rss(self):
        """Resident memory of the server process, in bytes (VmRSS)."""
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise AssertionError("no VmRSS")

    def metric(self, name):
        """Every sample of the metric `name`, as {labels text: value}."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=5) as page:
            text = page.read().decode()
        samples = {}
        for match in re.finditer(rf"^{name}(\{{[^}}]*\}})? (\S+)$", text, re.M):
            samples[match.group(1) or ""] = float(match.group(2))
        return samples

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture(scope="session")
def eight_server():
    server = Server("eight")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def fifteen_server():
    server = Server("eight,fifteen")
    yield server
    server.stop()


@pytest.fixture
def fresh_server():
    """A server of its own, for a test that measures the process."""
    server = Server("eight")
    yield server
    server.stop()


def walk(goal, width, moves, rng):
    """A board `moves` random blank moves away from `goal` (never straight back)."""
    board = list(goal)
    blank = board.index(0)
    previous = None
    for _ in range(moves):
        row, col = divmod(blank, width)
        options = []
        if row > 0:
            options.append(blank - width)
        if row < width - 1:
            options.append(blank + width)
        if col > 0:
            options.append(blank - 1)
        if col < width - 1:
            options.append(blank + 1)
        options = [cell for cell in options if cell != previous] or options
        cell = rng.choice(options)
        board[blank], board[cell] = board[cell], board[blank]
        previous, blank = blank, cell
    return board


EIGHT_GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0]
FIFTEEN_GOAL = list(range(1, 16)) + [0]
MOVES = "dlru"  # byte order: the order searches try moves in


def step(board, width, move):
    """The board (a tuple) after the blank moves `move`, or None when it would leave the board."""
    blank = board.index(0)
    row, col = divmod(blank, width)
    target = {
        "u": blank - width if row > 0 else None,
        "d": blank + width if row < width - 1 else None,
        "l": blank - 1 if col > 0 else None,
        "r": blank + 1 if col < width - 1 else None,
    }[move]
    if target is None:
        return None
    board = list(board)
    board[blank], board[target] = board[target], board[blank]
    return tuple(board)


def replay(board, width, moves):
    """The board after every move of `moves`, asserting each is legal."""
    board = tuple(board)
    for move in moves:
        board = step(board, width, move)
        assert board is not None, f"illegal move {move} in {moves}"
    return board


@functools.lru_cache(maxsize=1)
def eight_distance_table():
    """Exact distance to the 3x3 goal of every board that reaches it, by breadth-first search."""
    goal = tuple(EIGHT_GOAL)
    dist = {goal: 0}
    queue = collections.deque([goal])
    while queue:
        board = queue.popleft()
        for move in MOVES:
            child = step(board, 3, move)
            if child is not None and child not in dist:
                dist[child] = dist[board] + 1
                queue.append(child)
    assert len(dist) == 181440
    return dist


@pytest.fixture(scope="session")
def eight_boards():
    """1,000 distinct solvable 3×3 boards (random walks of up to 40 moves from the goal)."""
    rng = random.Random(1043)
    boards = {tuple(walk(EIGHT_GOAL, 3, rng.randint(1, 40), rng)) for _ in range(3000)}
    return [list(board) for board in sorted(boards)][:1000]


@pytest.fixture(autouse=True)
def _duration(request):
    started = time.monotonic()
    yield
    print(f"\n{request.node.name}: {time.monotonic() - started:.1f} s")
