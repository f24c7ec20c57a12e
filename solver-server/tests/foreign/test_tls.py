"""TLS from a stock grpcio client, with certificates made by the openssl command line: a TLS
client solves; a plaintext one is refused; with a client CA, a client without a certificate is
refused and one with a certificate of that CA solves; a certificate file replaced under the
running server is what the next connections get."""

import shutil
import subprocess
import time

import grpc
import pytest

from conftest import ROOT, Server
from solver.v2 import solver_pb2 as v2, solver_pb2_grpc as v2_grpc

TLS = ROOT / "target" / "foreign" / "tls"


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_ca(name):
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-days", "2", "-subj", f"/CN={name}", "-keyout", str(TLS / f"{name}.key"),
            "-out", str(TLS / f"{name}.pem"))
    return TLS / f"{name}.pem"


def sign(ca, name, dns="localhost"):
    """A certificate for `dns` signed by `ca`: (certificate path, key path)."""
    key, csr, cert = TLS / f"{name}.key", TLS / f"{name}.csr", TLS / f"{name}.pem"
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-subj", f"/CN={dns}", "-keyout", str(key), "-out", str(csr))
    ext = TLS / f"{name}.ext"
    ext.write_text(f"subjectAltName=DNS:{dns}\n")
    openssl("x509", "-req", "-in", str(csr), "-CA", str(TLS / f"{ca}.pem"),
            "-CAkey", str(TLS / f"{ca}.key"), "-CAcreateserial", "-days", "2",
            "-extfile", str(ext), "-out", str(cert))
    return cert, key


@pytest.fixture(scope="module")
def pki():
    if shutil.which("openssl") is None:
        pytest.skip("no openssl command")
    shutil.rmtree(TLS, ignore_errors=True)
    TLS.mkdir(parents=True)
    make_ca("ca")
    make_ca("clients")
    make_ca("second")
    return {
        "server": sign("ca", "server"),
        "client": sign("clients", "client", dns="client"),
        "second": sign("second", "server2"),
    }


def credentials(ca, client=None):
    chain = key = None
    if client is not None:
        chain, key = client[0].read_bytes(), client[1].read_bytes()
    return grpc.ssl_channel_credentials((TLS / f"{ca}.pem").read_bytes(), key, chain)


def solve(address, creds):
    options = [("grpc.ssl_target_name_override", "localhost")]
    with grpc.secure_channel(address, creds, options=options) as channel:
        request = v2.SolveRequest(
            id="tls", sliding=v2.SlidingPuzzle(rows=3, cols=3, start=[1, 2, 3, 4, 5, 6, 7, 0, 8])
        )
        return v2_grpc.SolverServiceStub(channel).Solve(request, timeout=5)


def test_tls_and_reload(pki):
    live = TLS / "live"
    live.mkdir(exist_ok=True)
    cert, key = live / "cert.pem", live / "key.pem"
    shutil.copy(pki["server"][0], cert)
    shutil.copy(pki["server"][1], key)
    server = Server("eight", "--tls-cert", str(cert), "--tls-key", str(key),
                    credentials=credentials("ca"))
    try:
        assert solve(server.address, credentials("ca")).solution.sliding.moves == "r"
        with grpc.insecure_channel(server.address) as channel:
            with pytest.raises(grpc.RpcError) as refused:
                v2_grpc.SolverServiceStub(channel).Solve(v2.SolveRequest(), timeout=5)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE

        # Kubernetes-style replacement: complete files renamed into place.
        for source, target in ((pki["second"][1], key), (pki["second"][0], cert)):
            shutil.copy(source, target.with_suffix(".new"))
            target.with_suffix(".new").rename(target)
        deadline = time.monotonic() + 15
        while True:
            try:
                solve(server.address, credentials("second"))
                break
            except grpc.RpcError:
                assert time.monotonic() < deadline, "the replaced certificate was never served"
                time.sleep(0.3)
        with pytest.raises(grpc.RpcError):
            solve(server.address, credentials("ca"))
    finally:
        server.stop()


def test_mutual_tls(pki):
    server = Server("eight", "--tls-cert", str(pki["server"][0]), "--tls-key",
                    str(pki["server"][1]), "--tls-client-ca", str(TLS / "clients.pem"),
                    credentials=credentials("ca", pki["client"]))
    try:
        with pytest.raises(grpc.RpcError) as refused:
            solve(server.address, credentials("ca"))
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        reply = solve(server.address, credentials("ca", pki["client"]))
        assert reply.solution.sliding.moves == "r"
    finally:
        server.stop()
