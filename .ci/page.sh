#!/usr/bin/env bash
# The page at `/` in a real browser: Debian's chromium, driven headless by playwright (from PyPI,
# pointed at /usr/bin/chromium: playwright's own browser download is never used) against the
# release server. solver-server/tests/page/ starts the binary on a free loopback port
# (`--workers 2 --warm-up eight,fifteen`), loads the page and, through gRPC-Web:
#   - solves a 3×3 board (31 moves) and a 4×4 board scrambled by the service at distance 36
#     (hinted first), plays each solution to its end and checks the board shown (each tile's
#     place on the screen) is the goal; screenshots (mid-animation, a 5×5 Solve live and
#     stopped) go to target/page/ (kept as a CI artifact, with the servers' logs);
#   - steps, rewinds and pauses a solution; solves 2×3 and 3×5 boards; moves tiles with the
#     keyboard; reports a malformed and an unsolvable board;
#   - Hint and Solve ask about the board typed in the Tiles box (no "Use these tiles"); a typed
#     text that is no board, a ratio below 1 and a distance the shape cannot have are refused
#     beside their field, with no call; the service scrambles 2×2, 3×3, 5×5 and 8×8 boards;
#     Cancel (and Escape) aborts an optimal 5×5 Solve and the page is idle within 1 s;
#   - Solve goes through SolveWatch: a hard 5×5 board (Korf & Felner's #10) typed and asked optimally shows its live
#     line (phase, proven lower bound, nodes, a ticking time) within 2 s, then a best answer with
#     its proven ratio; Stop leaves the page idle within 1 s with that answer kept (length, ratio,
#     bound in the status), in the player, and played to the goal. A second server
#     (`--case-timeout 15s`, nothing warmed) ends such a case with RESOURCE_EXHAUSTED: the page
#     keeps the best answer and says the service stopped the search;
#   - no console error, failed request or request to anywhere but the server.
# Before that, when npm is there: the committed generated code (web/src/gen) and bundle (web/dist)
# are what web/ generates and builds.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
chromium --version

venv=target/page-venv
requirements=(playwright==1.65.* pytest==9.*)
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

if command -v npm >/dev/null; then
    # Generated code from proto/solver/v2 as committed, types checked, bundle as committed.
    (cd web && npm ci --silent --no-audit --no-fund && npm run --silent generate \
        && npm run --silent check && npm run --silent check-dist)
    if ! git diff --quiet -- web/src/gen; then
        echo "web/src/gen is stale: run \`npm run generate\` in web/ and commit it" >&2
        exit 1
    fi
else
    echo "no npm here: web/dist not compared with its sources"
fi

cargo build --release -p solver-server --bin solver-server
mkdir -p target/page
export SOLVER_SERVER_BIN="$PWD/target/release/solver-server"
export CHROMIUM=/usr/bin/chromium
export PAGE_ARTIFACTS="$PWD/target/page"
"$venv/bin/python" -m pytest -v -p no:cacheprovider --durations=0 solver-server/tests/page
ls -l target/page/*.png
