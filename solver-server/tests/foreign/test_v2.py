"""solver.v2.SolverService from a stock python grpcio client that knows only the address and the
proto: reflection lists the service, and every RPC is called, every answer checked here
independently (replayed; a breadth-first search for 3x3 boards and Solitaire, Korf's published
lengths for 4x4, and `Solve` itself for the distances of scrambles and hints on 4x4)."""

import random
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from conftest import (  # also puts the generated stubs on sys.path
    EIGHT_GOAL, FIFTEEN_GOAL, MOVES, eight_distance_table, replay, step, walk,
)
from google.rpc import error_details_pb2, status_pb2
from solver.v2 import solver_pb2 as v2, solver_pb2_grpc as v2_grpc

KORF = Path(__file__).resolve().parents[3] / "solver-core" / "data" / "korf100.txt"
TIMEOUT = 60


@pytest.fixture(scope="module")
def eight_distances():
    """Exact distance to the 3x3 goal of every board that reaches it, by BFS."""
    return eight_distance_table()


def smallest_optimal(board, dist):
    """The lexicographically smallest optimal path, from exact distances."""
    path = ""
    while dist[board] > 0:
        for move in MOVES:
            child = step(board, 3, move)
            if child is not None and dist.get(child) == dist[board] - 1:
                path += move
                board = child
                break
    return path


def korf(instance):
    rows = [line.split() for line in KORF.read_text().splitlines() if not line.startswith("#")]
    numbers = [int(n) for n in rows[instance - 1]]
    assert numbers[0] == instance
    return numbers[2:], numbers[1]


@pytest.fixture(scope="module")
def stub(fifteen_server):
    with fifteen_server.channel() as channel:
        yield v2_grpc.SolverServiceStub(channel)


def sliding(case_id, width, start, target=()):
    return v2.SolveRequest(
        id=case_id,
        sliding=v2.SlidingPuzzle(rows=width, cols=width, start=start, target=list(target)),
    )


def solved_moves(response, width, start, target):
    assert response.WhichOneof("outcome") == "solution", response
    found = response.solution.sliding
    assert replay(tuple(start), width, found.moves) == tuple(target)
    assert found.length == len(found.moves) == found.lower_bound
    return found.moves


def bad_request(details):
    """The field violations of a google.rpc.Status's details."""
    for detail in details:
        bad = error_details_pb2.BadRequest()
        if detail.Unpack(bad):
            return [violation.field for violation in bad.field_violations]
    raise AssertionError(f"no BadRequest in {details}")


def call_error_fields(error):
    """The BadRequest fields of a failed call (from grpc-status-details-bin)."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            return bad_request(status_pb2.Status.FromString(value).details)
    raise AssertionError(f"no details in {error}")


def test_reflection_and_health_list_v2(fifteen_server):
    with fifteen_server.channel() as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        (response,) = list(stub.ServerReflectionInfo(iter([request]), timeout=10))
        names = {service.name for service in response.list_services_response.service}
        assert {"solver.v1.Solver", "solver.v2.SolverService"} <= names
    assert fifteen_server.health("solver.v2.SolverService") == health_pb2.HealthCheckResponse.SERVING


def test_solve_unary_every_kind(stub, eight_distances):
    rng = random.Random(12)
    for i in range(40):
        start = walk(EIGHT_GOAL, 3, rng.randint(0, 40), rng)
        response = stub.Solve(sliding(f"e{i}", 3, start), timeout=TIMEOUT)
        assert response.id == f"e{i}"
        moves = solved_moves(response, 3, start, EIGHT_GOAL)
        assert moves == smallest_optimal(tuple(start), eight_distances)
    response = stub.Solve(sliding("u", 3, [2, 1, 3, 4, 5, 6, 7, 8, 0]), timeout=TIMEOUT)
    assert response.WhichOneof("outcome") == "unsolvable"

    for instance in (55, 79):
        start, optimal = korf(instance)
        response = stub.Solve(sliding("k", 4, start), timeout=TIMEOUT)
        assert len(solved_moves(response, 4, start, FIFTEEN_GOAL)) == optimal
        assert response.stats.method.startswith("pdb-")

    start = [(4, 4), (4, 5), (5, 4), (6, 5)]
    end = [(2, 4), (3, 3), (3, 6), (4, 6)]
    request = v2.SolveRequest(
        id="s",
        solitaire=v2.SolitairePuzzle(
            start=[v2.Square(row=r, col=c) for r, c in start],
            end=[v2.Square(row=r, col=c) for r, c in end],
        ),
    )
    response = stub.Solve(request, timeout=TIMEOUT)
    found = response.solution.solitaire
    pieces = set(start)
    for move in found.moves:
        origin = (move.origin.row, move.origin.col)
        destination = (move.destination.row, move.destination.col)
        assert solitaire_moves(frozenset(pieces)).get(origin, set()) >= {destination}, move
        pieces = (pieces - {origin}) | {destination}
    assert pieces == set(end)
    assert found.length == len(found.moves) == solitaire_distance(frozenset(start), frozenset(end), 8)


def solitaire_moves(pieces):
    """Every move of a Solitaire position: {origin: {destinations}}."""
    moves = {}
    for row, col in pieces:
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            near = (row + dr, col + dc)
            far = (row + 2 * dr, col + 2 * dc)
            if near not in pieces and 1 <= near[0] <= 8 and 1 <= near[1] <= 8:
                moves.setdefault((row, col), set()).add(near)
            elif near in pieces and far not in pieces and 1 <= far[0] <= 8 and 1 <= far[1] <= 8:
                moves.setdefault((row, col), set()).add(far)
    return moves


def solitaire_distance(start, end, limit):
    """Shortest number of moves, by bidirectional BFS (moves are reversible), or None."""
    def neighbours(pieces):
        for origin, destinations in solitaire_moves(pieces).items():
            for destination in destinations:
                yield (pieces - {origin}) | {destination}

    sides = [{start: 0}, {end: 0}]
    frontiers = [[start], [end]]
    for depth in range(limit + 1):
        meet = [sides[0][p] + sides[1][p] for p in sides[0].keys() & sides[1].keys()]
        if meet:
            return min(meet)
        side = depth % 2
        layer = []
        for pieces in frontiers[side]:
            for child in neighbours(pieces):
                if child not in sides[side]:
                    sides[side][child] = sides[side][pieces] + 1
                    layer.append(child)
        frontiers[side] = layer
    return None


def test_a_bad_field_fails_the_call_naming_it(stub):
    cases = [
        (sliding("a", 3, [1, 2, 3]), "sliding.start"),
        (v2.SolveRequest(id="b", sliding=v2.SlidingPuzzle(rows=9, cols=9, start=EIGHT_GOAL)), "sliding.rows"),
        (v2.SolveRequest(id="b5", sliding=v2.SlidingPuzzle(rows=5, cols=5, start=EIGHT_GOAL)), "sliding.start"),
        (v2.SolveRequest(id="c"), "puzzle"),
        (
            v2.SolveRequest(
                id="d", sliding=v2.SlidingPuzzle(rows=3, cols=3, start=EIGHT_GOAL), quality=v2.Quality(max_ratio=0.5)
            ),
            "quality.max_ratio",
        ),
    ]
    for request, field in cases:
        with pytest.raises(grpc.RpcError) as raised:
            stub.Solve(request, timeout=TIMEOUT)
        assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert call_error_fields(raised.value) == [field]


def test_solve_stream_good_and_bad_cases(stub, eight_distances):
    rng = random.Random(3)
    boards = {}
    requests = []
    for i in range(500):
        board = walk(EIGHT_GOAL, 3, rng.randint(0, 40), rng)
        boards[f"e{i}"] = board
        requests.append(sliding(f"e{i}", 3, board))
    start, optimal = korf(79)
    requests.insert(100, sliding("korf", 4, start))
    requests.insert(200, sliding("bad", 3, [1, 1, 2, 3, 4, 5, 6, 7, 8]))
    requests.insert(300, v2.SolveRequest(id="empty"))
    replies = {reply.id: reply for reply in stub.SolveStream(iter(requests), timeout=TIMEOUT)}
    assert len(replies) == 503
    for case_id, board in boards.items():
        moves = solved_moves(replies[case_id], 3, board, EIGHT_GOAL)
        assert moves == smallest_optimal(tuple(board), eight_distances)
    assert len(solved_moves(replies["korf"], 4, start, FIFTEEN_GOAL)) == optimal
    for case_id, field in (("bad", "sliding.start"), ("empty", "puzzle")):
        error = replies[case_id].error
        assert error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        assert bad_request(error.details) == [field]


def test_hint_distances_are_exact(stub, eight_distances):
    rng = random.Random(8)
    for _ in range(10):
        board = walk(EIGHT_GOAL, 3, rng.randint(0, 40), rng)
        hint = stub.Hint(v2.HintRequest(rows=3, cols=3, start=board), timeout=TIMEOUT)
        assert hint.distance == eight_distances[tuple(board)]
        legal = [m for m in MOVES if step(tuple(board), 3, m) is not None]
        assert sorted(m.direction for m in hint.moves) == sorted(legal)
        keys = [(m.distance_after, m.direction) for m in hint.moves]
        assert keys == sorted(keys)
        for m in hint.moves:
            assert m.distance_after == eight_distances[step(tuple(board), 3, m.direction)]

    board = walk(FIFTEEN_GOAL, 4, 30, rng)
    hint = stub.Hint(v2.HintRequest(rows=4, cols=4, start=board), timeout=TIMEOUT)

    def distance(start):
        response = stub.Solve(sliding("d", 4, start), timeout=TIMEOUT)
        return len(solved_moves(response, 4, start, FIFTEEN_GOAL))

    assert hint.distance == distance(board)
    for m in hint.moves:
        assert m.distance_after == distance(list(step(tuple(board), 4, m.direction)))

    with pytest.raises(grpc.RpcError) as raised:
        stub.Hint(v2.HintRequest(rows=3, cols=3, start=[2, 1, 3, 4, 5, 6, 7, 8, 0]), timeout=TIMEOUT)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert call_error_fields(raised.value) == ["target"]


def test_scramble_exact_and_reproducible(stub, eight_distances):
    for distance, seed in ((0, 1), (13, 2), (31, 3), (22, 2**64 - 1)):
        drawn = stub.Scramble(v2.ScrambleRequest(rows=3, cols=3, distance=distance, seed=seed), timeout=TIMEOUT)
        assert eight_distances[tuple(drawn.board)] == distance
        assert drawn.sampling == v2.SAMPLING_UNIFORM
        again = stub.Scramble(v2.ScrambleRequest(rows=3, cols=3, distance=distance, seed=seed), timeout=TIMEOUT)
        assert again.board == drawn.board
    for distance, seed in ((10, 5), (30, 6), (40, 7)):
        drawn = stub.Scramble(v2.ScrambleRequest(rows=4, cols=4, distance=distance, seed=seed), timeout=TIMEOUT)
        # Uniform (by rejection) from 35 moves on; a random walk nearer the goal.
        expected = v2.SAMPLING_UNIFORM if distance >= 35 else v2.SAMPLING_RANDOM_WALK
        assert drawn.sampling == expected
        response = stub.Solve(sliding("s", 4, list(drawn.board)), timeout=TIMEOUT)
        assert len(solved_moves(response, 4, list(drawn.board), FIFTEEN_GOAL)) == distance
    with pytest.raises(grpc.RpcError) as raised:
        stub.Scramble(v2.ScrambleRequest(rows=3, cols=3, distance=32), timeout=TIMEOUT)
    assert call_error_fields(raised.value) == ["distance"]


def test_verify(stub):
    start = [1, 2, 3, 4, 5, 6, 7, 0, 8]

    def verify(moves):
        return stub.Verify(v2.VerifyRequest(rows=3, cols=3, start=start, moves=moves), timeout=TIMEOUT)

    good = verify("r")
    assert (good.legal, good.reaches_target, good.length, good.optimal_length, good.excess) == (True, True, 1, 1, 0)
    assert not good.HasField("first_illegal_index")
    long = verify("rlr")
    assert (long.reaches_target, long.excess) == (True, 2)
    illegal = verify("rr")
    assert (illegal.legal, illegal.first_illegal_index, illegal.reaches_target) == (False, 1, False)
    short = verify("l")
    assert (short.legal, short.reaches_target, short.excess) == (True, False, 0)
    with pytest.raises(grpc.RpcError) as raised:
        verify("rq")
    assert call_error_fields(raised.value) == ["moves"]
