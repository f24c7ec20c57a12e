#!/usr/bin/env python3
"""Takes every file descriptor of the server with connections and measures what it does then.

Issue 23, item 6: at its file descriptor limit the server spun at 0.92 cores on failing accepts
(EMFILE: the waiting connection stays in the backlog, the listener stays ready) and health checks
failed; it never raised its soft limit. It must now back off between failing accepts (nearly no
CPU), raise its soft limit to the hard one at start (logged), and serve health checks again as
soon as descriptors are free.

The script reads the server's limit (/proc/PID/limits), opens enough connections to take every
descriptor it has left plus `--extra` (64) more, which wait in the listen backlog, and holds them
`--hold` seconds (10) while it samples the server's CPU time (/proc/PID/stat) and, each second, a
health check (`grpc.health.v1.Health/Check`, 1 s deadline). Then it closes them all and checks
that the server answers health checks again within 5 s. Connections either complete the HTTP/2
handshake and idle (`--mode handshake`, default: the server keeps them) or send nothing
(`--mode idle`: closed by the server's handshake time limit after 10 s).

It exits 0 when the server used at most `--max-cpu` (0.1) cores while its descriptors were taken
and answered again once they were released.

Start the server with a hard limit that a test can reach (the server raises its soft limit to
the hard one, so `ulimit -n` alone is not enough):

    cargo build --release -p solver-server
    prlimit --nofile=1024:1024 target/release/solver-server --listen 127.0.0.1:50063 \\
        --metrics-listen 127.0.0.1:0 --warm-up eight &
    target/foreign-venv/bin/python solver-client/attacks/fds.py --target 127.0.0.1:50063 --pid $!

Needs python grpcio and grpcio-health-checking for the health checks (as `.ci/foreign.sh`
installs them into target/foreign-venv); without them the health checks are skipped. Linux only
(/proc).
"""

import argparse
import os
import resource
import socket
import sys
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
SETTINGS_ACK = b"\x00\x00\x00\x04\x01\x00\x00\x00\x00"

try:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc
except ImportError:  # health checks skipped
    grpc = None


def limits(pid):
    """The server's (soft, hard) limit of open files."""
    with open(f"/proc/{pid}/limits", encoding="ascii") as text:
        for line in text:
            if line.startswith("Max open files"):
                soft, hard = line.split()[3:5]
                return int(soft), int(hard) if hard != "unlimited" else None
    raise RuntimeError("no 'Max open files' line")


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def cpu_seconds(pid):
    """User plus system CPU time of the process so far, in seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def healthy(target):
    """Whether a health check is answered SERVING within 1 s (None: cannot check)."""
    if grpc is None:
        return None
    try:
        with grpc.insecure_channel(target) as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=1
            )
            return reply.status == health_pb2.HealthCheckResponse.SERVING
    except grpc.RpcError:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="127.0.0.1:50051", help="the server's gRPC address")
    parser.add_argument("--pid", type=int, required=True, help="the server's process id")
    parser.add_argument("--mode", choices=["handshake", "idle"], default="handshake")
    parser.add_argument("--extra", type=int, default=64, help="connections beyond the limit")
    parser.add_argument("--hold", type=float, default=10.0)
    parser.add_argument("--max-cpu", type=float, default=0.1, help="cores while at the limit")
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)

    soft, hard = limits(args.pid)
    in_use = open_fds(args.pid)
    print(f"server: open files limit soft {soft}, hard {hard}; {in_use} in use")
    wanted = soft - in_use + args.extra
    _, own_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (own_hard, own_hard))
    if wanted > own_hard - 100:
        print(f"FAIL: {wanted} connections needed, this process may open {own_hard}; start the "
              f"server with a lower hard limit (prlimit --nofile=1024:1024 ...)")
        return 2
    print(f"healthy before: {healthy(args.target)}")

    opening = PREFACE + SETTINGS + SETTINGS_ACK if args.mode == "handshake" else b""
    connections = []
    started = time.monotonic()
    for _ in range(wanted):
        try:
            sock = socket.create_connection((host, int(port)), timeout=5)
        except OSError as err:
            print(f"connect failed after {len(connections)} connections: {err}")
            break
        if opening:
            sock.sendall(opening)
        connections.append(sock)
    print(f"{len(connections)} connections ({args.mode}) opened in "
          f"{time.monotonic() - started:.1f} s; server fds {open_fds(args.pid)} of {soft}")

    time.sleep(1)
    cpu_before, wall_before = cpu_seconds(args.pid), time.monotonic()
    checks = []
    while time.monotonic() - wall_before < args.hold:
        checks.append(healthy(args.target))
        time.sleep(max(0.0, 1.0 - (time.monotonic() - wall_before) % 1.0))
    cores = (cpu_seconds(args.pid) - cpu_before) / (time.monotonic() - wall_before)
    fds_held = open_fds(args.pid)
    print(f"while held ({args.hold:.0f} s): server CPU {cores:.3f} cores, fds {fds_held}, "
          f"health checks {checks}")

    for sock in connections:
        sock.close()
    released = time.monotonic()
    back = None
    while time.monotonic() - released < 5:
        if healthy(args.target) in (True, None):
            back = time.monotonic() - released
            break
        time.sleep(0.1)
    print(f"after release: health answered after {back if back is None else f'{back:.2f} s'}; "
          f"fds {open_fds(args.pid)}")
    ok = cores <= args.max_cpu and back is not None
    print("PASS" if ok else f"FAIL: {cores:.2f} cores (at most {args.max_cpu}) or no answer")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
