"""gzip from a stock grpcio client: a channel that compresses every request (and so advertises
gzip) is answered, on unary v2 calls and on v1 streams alike."""

import grpc

from conftest import solver_pb2, solver_pb2_grpc
from solver.v2 import solver_pb2 as v2, solver_pb2_grpc as v2_grpc


def test_a_gzip_channel_is_served(eight_server):
    channel = grpc.insecure_channel(
        f"127.0.0.1:{eight_server.port}", compression=grpc.Compression.Gzip
    )
    with channel:
        stub = v2_grpc.SolverServiceStub(channel)
        request = v2.SolveRequest(
            id="gz", sliding=v2.SlidingPuzzle(rows=3, cols=3, start=[1, 2, 3, 4, 5, 6, 7, 0, 8])
        )
        # Before gzip was accepted this call failed UNIMPLEMENTED ("gzip compression not
        # supported"); grpcio hides the response's grpc-encoding, which the Rust test checks.
        response = stub.Solve(request, timeout=10)
        assert response.solution.sliding.moves == "r"

        requests = [
            solver_pb2.SlidingRequest(id=i, start=[1, 2, 3, 4, 5, 6, 7, 0, 8]) for i in range(100)
        ]
        replies = list(solver_pb2_grpc.SolverStub(channel).SolveEight(iter(requests), timeout=10))
        assert sorted(r.id for r in replies) == list(range(100))
        assert all(r.solution.moves == "r" for r in replies)
