"""The page at `/` in a real browser: fixtures.

Run by `.ci/page.sh`, which installs chromium and the virtualenv (playwright, pytest) and builds
the binary. Environment: `SOLVER_SERVER_BIN` (default target/release/solver-server), `CHROMIUM`
(default /usr/bin/chromium; playwright's own browser download is never used) and
`PAGE_ARTIFACTS` (screenshots and the servers' logs; default target/page).
"""

import os
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = Path(os.environ.get("PAGE_ARTIFACTS", ROOT / "target" / "page"))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_server(name, *args):
    """The release binary on a loopback port with `args`, its log in ARTIFACTS/`name`.log;
    yields its URL once it serves the page, and stops it after."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    binary = os.environ.get("SOLVER_SERVER_BIN", str(ROOT / "target" / "release" / "solver-server"))
    port = free_port()
    log_path = ARTIFACTS / f"{name}.log"
    log = open(log_path, "w")
    process = subprocess.Popen(
        [binary, "--listen", f"127.0.0.1:{port}", "--metrics-listen", "off", *args],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/"
    started = time.monotonic()
    while True:
        assert process.poll() is None, f"server exited: {log_path.read_text()}"
        assert time.monotonic() - started < 120, "server not answering after 120 s"
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        time.sleep(0.1)
    yield url
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()


@pytest.fixture(scope="session")
def server():
    """The release binary, the 3×3 table and the 15-puzzle's 6-6-3 databases ready (built once
    into the tests' data directory, loaded after)."""
    yield from run_server(
        "server",
        "--workers", "2",
        "--warm-up", "eight,fifteen",
        "--warm-up-targets", "false",
        "--data-dir", str(ARTIFACTS / "data"),
        "--build-databases", "false",
    )


@pytest.fixture(scope="session")
def impatient_server():
    """A second server whose cases may search 15 s only (no tables warmed): a large board asked
    optimally ends with RESOURCE_EXHAUSTED after its first answer came (which takes 1 to 3 s,
    beside the 5x5 automaton's build and Chromium on two cores: 15 s leaves room on a loaded
    or slower machine)."""
    yield from run_server(
        "impatient-server",
        "--workers", "1",
        "--warm-up", "none",
        "--case-timeout", "15s",
        "--data-dir", str(ARTIFACTS / "data-impatient"),
        "--build-databases", "false",
    )


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox"],
        )
        yield browser
        browser.close()


def open_page(browser, server):
    """A fresh tab on the page at `server`, with every console error, page error and failed
    request kept: a test ends by checking there were none."""
    # The page's Content-Security-Policy forbids evaluating strings, which playwright's
    # wait_for_function does: the tests' own scripts bypass it.
    context = browser.new_context(viewport={"width": 1100, "height": 900}, bypass_csp=True)
    tab = context.new_page()
    tab.problems = []
    tab.on("console", lambda m: m.type == "error" and tab.problems.append(f"console: {m.text}"))
    tab.on("pageerror", lambda e: tab.problems.append(f"page error: {e}"))
    tab.on("requestfailed", lambda r: tab.problems.append(f"request failed: {r.url}"))
    # Only the server: a request anywhere else would fail the test.
    tab.route(
        lambda url: not url.startswith(server),
        lambda route: (tab.problems.append(f"foreign request: {route.request.url}"), route.abort()),
    )
    tab.goto(server)
    tab.wait_for_selector("html[data-ready=true]")
    yield tab
    context.close()


@pytest.fixture
def page(browser, server):
    yield from open_page(browser, server)


@pytest.fixture
def impatient_page(browser, impatient_server):
    """A tab on the impatient server."""
    yield from open_page(browser, impatient_server)
