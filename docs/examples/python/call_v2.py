#!/usr/bin/env python3
"""Calls solver.v2.SolverService with stubs generated from the proto: Solve (3x3, 4x4 and
Solitaire), Hint, Scramble, and a bad request whose google.rpc.BadRequest detail is read.

Generate the stubs first, from the repository root (docs/calling.md):

    python -m pip install grpcio grpcio-tools
    mkdir -p gen
    python -m grpc_tools.protoc -I proto --python_out=gen --grpc_python_out=gen \
        proto/solver/v2/solver.proto proto/google/rpc/status.proto \
        proto/google/rpc/error_details.proto

then run it against a server (`solver-server --listen 127.0.0.1:50051`):

    python docs/examples/python/call_v2.py --address 127.0.0.1:50051 --stubs gen

Each result is printed on one line.
"""

import argparse
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--address",
        default=os.environ.get("SOLVER_ADDRESS", "127.0.0.1:50051"),
        help="host:port of the server (default: $SOLVER_ADDRESS, else 127.0.0.1:50051)",
    )
    parser.add_argument(
        "--stubs",
        default=os.environ.get("SOLVER_STUBS", "gen"),
        help="the directory grpc_tools.protoc wrote the stubs to (default: $SOLVER_STUBS, else gen)",
    )
    args = parser.parse_args()

    # The generated modules import each other as `solver.v2...` and `google.rpc...`.
    sys.path.insert(0, args.stubs)
    import grpc
    from google.rpc import error_details_pb2, status_pb2
    from solver.v2 import solver_pb2 as pb
    from solver.v2 import solver_pb2_grpc as pb_grpc

    with grpc.insecure_channel(args.address) as channel:
        stub = pb_grpc.SolverServiceStub(channel)

        # Solve, unary: one sliding case (empty target = the standard goal, blank last).
        for rows, start in [
            (3, [8, 6, 7, 2, 5, 4, 3, 0, 1]),
            (4, [2, 3, 4, 0, 1, 5, 7, 8, 9, 6, 10, 12, 13, 14, 11, 15]),
        ]:
            response = stub.Solve(
                pb.SolveRequest(
                    id=f"{rows}x{rows}",
                    sliding=pb.SlidingPuzzle(rows=rows, cols=rows, start=start),
                ),
                timeout=60,
            )
            if response.WhichOneof("outcome") == "unsolvable":
                print(f"Solve {rows}x{rows} {start}: unsolvable ({response.unsolvable.reason})")
                continue
            solution = response.solution.sliding
            print(f"Solve {rows}x{rows} {start}: {solution.length} moves {solution.moves} "
                  f"({response.stats.method})")

        # Solve, Solitaire: the moved pieces' squares are `origin` and `destination`.
        square = lambda row, col: pb.Square(row=row, col=col)  # noqa: E731
        response = stub.Solve(
            pb.SolveRequest(
                solitaire=pb.SolitairePuzzle(
                    start=[square(4, 4), square(4, 5), square(5, 4), square(6, 5)],
                    end=[square(2, 4), square(3, 3), square(3, 6), square(4, 6)],
                    max_moves=8,
                )
            ),
            timeout=60,
        )
        if response.WhichOneof("outcome") == "solution":
            moves = " ".join(
                f"{m.origin.row},{m.origin.col}>{m.destination.row},{m.destination.col}"
                for m in response.solution.solitaire.moves
            )
            print(f"Solve solitaire: {response.solution.solitaire.length} moves {moves}")
        else:
            print(f"Solve solitaire: not reachable within {response.unreachable.max_moves} moves")

        # Hint: the distance, and every legal move with the distance after it, best first.
        start = [1, 2, 3, 4, 5, 6, 0, 7, 8]
        hint = stub.Hint(pb.HintRequest(rows=3, cols=3, start=start), timeout=60)
        moves = " ".join(f"{m.direction}={m.distance_after}" for m in hint.moves)
        print(f"Hint {start}: distance {hint.distance}, moves {moves}")

        # Scramble: a board at exactly the distance asked, the same for the same seed.
        for rows, distance, seed in [(3, 20, 7), (4, 30, 12)]:
            scramble = stub.Scramble(
                pb.ScrambleRequest(rows=rows, cols=rows, distance=distance, seed=seed), timeout=60
            )
            print(f"Scramble {rows}x{rows} distance {scramble.distance} seed {scramble.seed}: "
                  f"{list(scramble.board)} ({pb.Sampling.Name(scramble.sampling)})")

        # A bad argument: INVALID_ARGUMENT, and a google.rpc.BadRequest naming the field in the
        # status details (trailing metadata `grpc-status-details-bin`).
        try:
            stub.Scramble(pb.ScrambleRequest(rows=3, cols=3, distance=40), timeout=60)
            print("Scramble distance 40: accepted?!")
        except grpc.RpcError as error:
            violations = []
            for key, value in error.trailing_metadata() or ():
                if key != "grpc-status-details-bin":
                    continue
                for detail in status_pb2.Status.FromString(value).details:
                    bad = error_details_pb2.BadRequest()
                    if detail.Unpack(bad):
                        violations += [f"{v.field}: {v.description}" for v in bad.field_violations]
            print(f"Scramble distance 40: {error.code().name}, {'; '.join(violations)}")


if __name__ == "__main__":
    main()
