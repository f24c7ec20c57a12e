"""The gRPC port serves gRPC (and gRPC-Web, see test_grpc_web.py) only: other methods and content
types are refused over HTTP/2, while health, reflection and the solver keep working for gRPC
clients."""

import grpc
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from conftest import solver_pb2, solver_pb2_grpc
from grpc_h2 import Connection, grpc_frame, sliding_request

EIGHT = "/solver.v1.Solver/SolveEight"
CASE = grpc_frame(sliding_request(1, [1, 2, 3, 4, 5, 6, 7, 0, 8]))


def exchange(server, method, content_type, body=None):
    conn = Connection(server.port)
    stream_id = conn.open(EIGHT, method=method, content_type=content_type, end=body is None)
    if body is not None:
        conn.send(stream_id, body, end=True)
        conn.flush()
    assert conn.wait(lambda: conn.streams[stream_id].ended, 10)
    stream = conn.streams[stream_id]
    conn.close()
    return stream


def test_get_is_refused(eight_server):
    stream = exchange(eight_server, "GET", None)
    assert stream.header(b":status") == b"405"
    assert stream.header(b"allow") == b"POST"
    assert stream.messages == []


def test_other_content_types_are_refused(eight_server):
    for content_type in ("text/plain", "application/json", None):
        stream = exchange(eight_server, "POST", content_type, CASE)
        assert stream.header(b":status") == b"415", content_type
        assert stream.messages == [], content_type


def test_grpc_is_served(eight_server):
    for content_type in ("application/grpc", "application/grpc+proto"):
        stream = exchange(eight_server, "POST", content_type, CASE)
        assert stream.header(b":status") == b"200"
        assert stream.status() == 0
        reply = solver_pb2.SlidingReply.FromString(stream.messages[0])
        assert (reply.id, reply.solution.moves) == (1, "r")


def test_health_and_reflection_still_work(eight_server):
    assert eight_server.health() == health_pb2.HealthCheckResponse.SERVING
    with eight_server.channel() as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        (response,) = list(stub.ServerReflectionInfo(iter([request]), timeout=10))
        names = {service.name for service in response.list_services_response.service}
        assert {"solver.v1.Solver", "grpc.health.v1.Health"} <= names
        request = solver_pb2.SlidingRequest(id=3, start=[1, 2, 3, 4, 5, 6, 7, 0, 8])
        (reply,) = list(solver_pb2_grpc.SolverStub(channel).SolveEight(iter([request]), timeout=10))
        assert reply.solution.moves == "r"
