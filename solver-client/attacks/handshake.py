#!/usr/bin/env python3
"""Opens connections that never finish their handshake and times how long the server keeps them.

Issue 23, item 6: connections that sent only the HTTP/2 preface (or nothing, or the preface and
SETTINGS without ever acknowledging the server's) were kept for ever, even with
`--max-connection-age`, each holding a file descriptor and a task. The server must now close
them within seconds (`--handshake-timeout`, 10 s by default); the check: closed within 40 s with
`--max-connection-age 10s`.

The script opens `--connections` connections of each kind in `--kinds` (default: all four):

- `nothing`: connects and sends nothing;
- `preface`: the 24-byte HTTP/2 client preface only;
- `settings`: the preface and an empty SETTINGS frame, never acknowledging the server's SETTINGS;
- `http1`: half an HTTP/1.1 request head (no blank line).

It reads (and otherwise ignores) what the server sends, notes when each connection is closed
(end of file or reset) and whether a GOAWAY came first, and waits at most `--within` seconds
(40). With `--pid`, it also prints the server's open file descriptors (/proc/PID/fd) before,
while the connections are open, and at the end. It exits 0 when every connection was closed in
time.

    cargo build --release -p solver-server
    target/release/solver-server --listen 127.0.0.1:50062 --metrics-listen 127.0.0.1:0 \\
        --warm-up eight --max-connection-age 10s &
    python3 solver-client/attacks/handshake.py --target 127.0.0.1:50062 --pid $! \\
        --connections 200

Standard library only. Linux only for `--pid` (/proc).
"""

import argparse
import os
import resource
import selectors
import socket
import sys
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
OPENINGS = {
    "nothing": b"",
    "preface": PREFACE,
    "settings": PREFACE + SETTINGS,
    "http1": b"POST /solver.v2.SolverService/Solve HTTP/1.1\r\nHost: x\r\n",
}


def open_fds(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="127.0.0.1:50051", help="the server's gRPC address")
    parser.add_argument("--pid", type=int, help="the server's process id (for its fd count)")
    parser.add_argument("--connections", type=int, default=50, help="connections of each kind")
    parser.add_argument("--kinds", default=",".join(OPENINGS), help="comma-separated kinds")
    parser.add_argument("--within", type=float, default=40.0, help="seconds allowed")
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)
    kinds = args.kinds.split(",")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    fds_before = open_fds(args.pid) if args.pid else None
    selector = selectors.DefaultSelector()
    opened = {}
    started = time.monotonic()
    for kind in kinds:
        for _ in range(args.connections):
            sock = socket.create_connection((host, int(port)))
            sock.sendall(OPENINGS[kind])
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, kind)
            opened[sock] = {"kind": kind, "closed": None, "goaway": False}
    fds_open = open_fds(args.pid) if args.pid else None
    print(f"{len(opened)} connections open ({', '.join(kinds)}; {args.connections} each)")

    left = len(opened)
    while left and time.monotonic() - started < args.within:
        for key, _ in selector.select(timeout=0.5):
            sock = key.fileobj
            try:
                data = sock.recv(1 << 16)
            except (ConnectionResetError, BlockingIOError) as err:
                data = b"" if isinstance(err, ConnectionResetError) else None
            if data is None:
                continue
            if data:
                # A GOAWAY frame (type 7) among what the server sent.
                opened[sock]["goaway"] |= b"\x07\x00\x00\x00\x00\x00" in data
                continue
            opened[sock]["closed"] = time.monotonic() - started
            selector.unregister(sock)
            sock.close()
            left -= 1

    ok = True
    for kind in kinds:
        mine = [c for c in opened.values() if c["kind"] == kind]
        times = sorted(c["closed"] for c in mine if c["closed"] is not None)
        goaways = sum(c["goaway"] for c in mine)
        if len(times) == len(mine):
            print(f"{kind:9}: all {len(mine)} closed after {times[0]:.1f} to {times[-1]:.1f} s, "
                  f"{goaways} with a GOAWAY first")
        else:
            ok = False
            print(f"{kind:9}: {len(mine) - len(times)} of {len(mine)} still open after "
                  f"{args.within:.0f} s")
    if args.pid:
        print(f"server's open fds: {fds_before} before, {fds_open} with the connections open, "
              f"{open_fds(args.pid)} at the end")
    for sock in list(opened):
        try:
            sock.close()
        except OSError:
            pass
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
