"""The Python example of docs/calling.md, run as a reader would: stubs generated from the proto by
the exact command the guide gives, then docs/examples/python/call_v2.py against the server the
fixture started (its address by argument). Every line it prints is checked here independently:
moves replayed, distances by breadth-first search (3x3) or by `Solve` (4x4)."""

import re
import subprocess
import sys

from conftest import (  # also puts the test stubs on sys.path
    EIGHT_GOAL, FIFTEEN_GOAL, ROOT, eight_distance_table, replay, step,
)
from solver.v2 import solver_pb2 as v2, solver_pb2_grpc as v2_grpc

EXAMPLE = ROOT / "docs" / "examples" / "python" / "call_v2.py"

# The command of docs/calling.md (run from the repository root), with `gen` made absolute.
PROTOC = [
    "-m", "grpc_tools.protoc", "-I", "proto", "--python_out={gen}", "--grpc_python_out={gen}",
    "proto/solver/v2/solver.proto", "proto/google/rpc/status.proto",
    "proto/google/rpc/error_details.proto",
]


def eight_distance(board):
    """The exact distance of a 3x3 board to the goal (None when it cannot reach it)."""
    return eight_distance_table().get(tuple(board))


def numbers(text):
    return [int(n) for n in re.findall(r"\d+", text)]


def test_the_python_example_of_the_guide(fifteen_server, tmp_path):
    gen = tmp_path / "gen"
    gen.mkdir()
    protoc = [sys.executable] + [arg.format(gen=gen) for arg in PROTOC]
    subprocess.run(protoc, cwd=ROOT, check=True)
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--address", fifteen_server.address, "--stubs", str(gen)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    print(run.stdout, run.stderr)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 7, run.stdout

    # Solve 3x3 and 4x4: replayed to the goal, optimal lengths known (a 31-move board; 9).
    for line, width, goal, length in [(lines[0], 3, EIGHT_GOAL, 31), (lines[1], 4, FIFTEEN_GOAL, 9)]:
        match = re.fullmatch(r"Solve (\d)x\d \[([\d, ]+)\]: (\d+) moves ([udlr]*) \(.+\)", line)
        assert match, line
        start = numbers(match.group(2))
        assert int(match.group(1)) == width and int(match.group(3)) == length, line
        assert len(match.group(4)) == length
        assert replay(start, width, match.group(4)) == tuple(goal), line

    # Solitaire: the shortest is 7 moves (the POJ 1198 sample).
    assert lines[2].startswith("Solve solitaire: 7 moves "), lines[2]
    assert len(lines[2].split(": 7 moves ")[1].split()) == 7

    # Hint: the distance and each move's distance after it, by BFS, best first.
    match = re.fullmatch(r"Hint \[([\d, ]+)\]: distance (\d+), moves (.*)", lines[3])
    assert match, lines[3]
    start = numbers(match.group(1))
    assert int(match.group(2)) == eight_distance(start)
    graded = [move.split("=") for move in match.group(3).split()]
    legal = [m for m in "dlru" if step(start, 3, m) is not None]
    assert sorted(m for m, _ in graded) == sorted(legal), lines[3]
    afters = [int(after) for _, after in graded]
    assert afters == sorted(afters), lines[3]
    for move, after in graded:
        assert int(after) == eight_distance(step(start, 3, move)), (move, lines[3])

    # Scramble 3x3 at 20 (BFS) and 4x4 at 30 (`Solve`), seeds as asked.
    match = re.fullmatch(r"Scramble 3x3 distance 20 seed 7: \[([\d, ]+)\] \(SAMPLING_UNIFORM\)", lines[4])
    assert match, lines[4]
    assert eight_distance(numbers(match.group(1))) == 20
    match = re.fullmatch(r"Scramble 4x4 distance 30 seed 12: \[([\d, ]+)\] \(SAMPLING_\w+\)", lines[5])
    assert match, lines[5]
    board = numbers(match.group(1))
    assert sorted(board) == list(range(16))
    with fifteen_server.channel() as channel:
        solved = v2_grpc.SolverServiceStub(channel).Solve(
            v2.SolveRequest(sliding=v2.SlidingPuzzle(rows=4, cols=4, start=board)), timeout=120
        )
    assert solved.solution.sliding.length == 30
    assert replay(board, 4, solved.solution.sliding.moves) == tuple(FIFTEEN_GOAL)

    # The bad request: its code and the BadRequest field violation.
    assert lines[6].startswith("Scramble distance 40: INVALID_ARGUMENT, distance: 40: "), lines[6]
