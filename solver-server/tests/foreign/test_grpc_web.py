"""gRPC-Web as a browser speaks it, over plain HTTP/1.1 (python's http.client): a unary v2 call
framed as gRPC-Web is answered with the message and a trailer frame; a CORS preflight from an
allowed origin is granted, one from another origin is not; ordinary gRPC still works."""

import http.client
import struct

import pytest

from conftest import Server
from solver.v2 import solver_pb2 as v2

ORIGIN = "https://game.example"


@pytest.fixture(scope="module")
def web_server():
    server = Server("eight", "--cors-allowed-origins", ORIGIN)
    yield server
    server.stop()


def frames(body):
    """The (flag, payload) frames of a gRPC-Web body."""
    out = []
    while body:
        flag, length = struct.unpack(">BI", body[:5])
        out.append((flag, body[5:5 + length]))
        body = body[5 + length:]
    return out


def post(server, path, message, origin=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"content-type": "application/grpc-web+proto", "x-grpc-web": "1"}
    if origin:
        headers["origin"] = origin
    payload = message.SerializeToString()
    connection.request("POST", path, body=struct.pack(">BI", 0, len(payload)) + payload,
                       headers=headers)
    response = connection.getresponse()
    return response, response.read()


def test_a_unary_call_over_http1(web_server):
    request = v2.SolveRequest(
        id="web", sliding=v2.SlidingPuzzle(rows=3, cols=3, start=[1, 2, 3, 4, 5, 6, 7, 0, 8])
    )
    response, body = post(web_server, "/solver.v2.SolverService/Solve", request, ORIGIN)
    assert response.status == 200
    assert response.getheader("content-type").startswith("application/grpc-web")
    assert response.getheader("access-control-allow-origin") == ORIGIN
    (flag, message), (trailer_flag, trailers) = frames(body)
    assert flag == 0 and trailer_flag == 0x80
    reply = v2.SolveResponse.FromString(message)
    assert reply.id == "web" and reply.solution.sliding.moves == "r"
    assert b"grpc-status:0" in trailers.replace(b" ", b"")

    # A bad field: the status comes in the trailers, with its message.
    response, body = post(web_server, "/solver.v2.SolverService/Solve", v2.SolveRequest())
    found = dict(frames(body))
    status = response.getheader("grpc-status") or ""
    assert status == "3" or b"grpc-status:3" in found.get(0x80, b"").replace(b" ", b"")


@pytest.mark.parametrize("origin, allowed", [(ORIGIN, True), ("https://elsewhere.example", False)])
def test_cors_preflight(web_server, origin, allowed):
    connection = http.client.HTTPConnection("127.0.0.1", web_server.port, timeout=10)
    connection.request("OPTIONS", "/solver.v2.SolverService/Solve", headers={
        "origin": origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-grpc-web,x-user-agent,grpc-timeout",
    })
    response = connection.getresponse()
    response.read()
    if allowed:
        assert response.status in (200, 204)
        assert response.getheader("access-control-allow-origin") == origin
        allowed_headers = response.getheader("access-control-allow-headers").lower()
        assert "x-grpc-web" in allowed_headers and "content-type" in allowed_headers
    else:
        assert response.getheader("access-control-allow-origin") is None


def test_grpc_still_works_beside_it(web_server):
    assert web_server.health() is not None
