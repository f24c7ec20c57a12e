#!/usr/bin/env bash
# Foreign clients against the release server: stock python grpcio and raw HTTP/2 (python `h2`),
# which send one message per DATA frame, unlike solver-client. The tests
# (solver-server/tests/foreign/) start the binary themselves on free loopback ports with
# `--workers 2 --metrics-listen 127.0.0.1:PORT --warm-up eight` (`eight,fifteen` for the
# 15-puzzle test), generate the python stubs of proto/solver/v1/solver.proto with grpcio-tools,
# and assert behaviour, not timing:
#   - 200,000 3×3 cases on one grpcio stream, and 15-puzzle cases while the server is behind:
#     every case answered, status OK;
#   - 120,000 one-frame messages on one raw HTTP/2 stream, replies unread for a while: no
#     GOAWAY, a second stream on the connection still answered;
#   - 1,000 stalled streams: RSS growth < 256 MB, health SERVING, another client served, and
#     solver_cases_in_flight back to 0 within 5 s after they leave;
#   - GET and non-gRPC content types refused (405, 415); health and reflection still work.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/foreign-venv
requirements=(grpcio==1.85.* grpcio-tools==1.85.* grpcio-health-checking==1.85.*
    grpcio-reflection==1.85.* h2==4.* pytest==9.*)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/requirements" 2>/dev/null)" != "${requirements[*]}" ]; then
    rm -rf "$venv"
    if ! python3 -m venv "$venv"; then
        # Debian's python3 keeps venv (ensurepip) in a package of its own.
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${requirements[@]}"
    echo "${requirements[*]}" > "$venv/requirements"
fi
"$venv/bin/python" -c 'import grpc, h2; print("grpcio", grpc.__version__, "h2", h2.__version__)'

cargo build --release -p solver-server --bin solver-server
mkdir -p target/foreign
export SOLVER_SERVER_BIN="$PWD/target/release/solver-server"
export FOREIGN_STUBS="$PWD/target/foreign/stubs"
"$venv/bin/python" -m pytest -v -s -p no:cacheprovider --durations=0 solver-server/tests/foreign
