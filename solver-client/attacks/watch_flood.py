#!/usr/bin/env python3
"""Floods a solver-server with `grpc.health.v1.Health/Watch` streams and measures its memory.

Issue 23, item 4: Watch streams needed no token and counted against no limit, so 87,000 of them
on 100 connections (870 a connection, the server's HTTP/2 stream limit) held +566 MB, and the
memory stayed held after they closed. The server must now refuse them (UNAUTHENTICATED without a
token when tokens are required, RESOURCE_EXHAUSTED past `--max-streams`) or hold them in
little memory.

The script opens `--streams` Watch calls spread over `--connections` channels (each channel its
own TCP connection), waits until every call has either received its first status or failed,
holds them open for `--hold` seconds, cancels them all and closes the channels. It reads the
server's resident memory (VmRSS in /proc/PID/status) before, the highest while the streams are
open, and `--settle` seconds after they closed, and prints how many calls were accepted or
refused, by status code.

It passes (exit status 0) when RSS grew by less than `--max-growth-mb` (128) while the streams
were open and came back within `--max-after-mb` (64) of where it was before.

    cargo build --release -p solver-server
    printf 'secret\\n' > /tmp/tokens
    target/release/solver-server --listen 127.0.0.1:50077 --metrics-listen 127.0.0.1:0 \\
        --auth-tokens-file /tmp/tokens &
    target/foreign-venv/bin/python solver-client/attacks/watch_flood.py \\
        --target 127.0.0.1:50077 --pid $!

Needs python grpcio and grpcio-health-checking (1.85, as `.ci/foreign.sh` installs them into
target/foreign-venv). Linux only (/proc).
"""

import argparse
import asyncio
import collections
import sys
import time

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from procstat import rss  # beside this script

MB = 1 << 20


async def sample_peak(pid, peak, stop):
    """Keeps the highest RSS seen in `peak[0]` until `stop` is set."""
    while not stop.is_set():
        peak[0] = max(peak[0], rss(pid))
        try:
            await asyncio.wait_for(stop.wait(), 0.2)
        except asyncio.TimeoutError:
            pass


async def open_watch(stub, metadata, outcomes, started):
    """Opens one Watch: returns the call while it streams, or None once it failed."""
    call = stub.Watch(health_pb2.HealthCheckRequest(service=""), metadata=metadata)
    try:
        await call.read()
    except grpc.aio.AioRpcError as err:
        outcomes[err.code().name] += 1
        return None
    except asyncio.CancelledError:
        call.cancel()
        raise
    finally:
        started[0] += 1
    outcomes["accepted (first status received)"] += 1
    return call


async def flood(args):
    metadata = (("authorization", f"Bearer {args.token}"),) if args.token else None
    # A subchannel pool of each channel's own: one TCP connection per channel.
    options = [("grpc.use_local_subchannel_pool", 1)]
    channels = [
        grpc.aio.insecure_channel(args.target, options=options) for _ in range(args.connections)
    ]
    for channel in channels:
        await asyncio.wait_for(channel.channel_ready(), 10)

    before = rss(args.pid)
    print(f"server RSS before: {before / MB:.1f} MB", flush=True)

    peak, stop = [before], asyncio.Event()
    sampler = asyncio.create_task(sample_peak(args.pid, peak, stop))
    outcomes, started = collections.Counter(), [0]
    stubs = [health_pb2_grpc.HealthStub(channel) for channel in channels]
    began = time.monotonic()
    tasks = [
        asyncio.create_task(open_watch(stubs[i % len(stubs)], metadata, outcomes, started))
        for i in range(args.streams)
    ]
    while started[0] < args.streams:
        await asyncio.sleep(1)
        print(
            f"  {started[0]:>6} of {args.streams} answered after "
            f"{time.monotonic() - began:.0f} s; server RSS {rss(args.pid) / MB:.1f} MB",
            flush=True,
        )
        if time.monotonic() - began > args.open_timeout:
            print(f"  gave up waiting after {args.open_timeout} s", flush=True)
            break
    calls = [task.result() for task in tasks if task.done() and task.result() is not None]
    for task in tasks:
        if not task.done():
            task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(args.hold)
    during = rss(args.pid)
    print(f"server RSS with the streams open: {during / MB:.1f} MB", flush=True)

    for call in calls:
        call.cancel()
    for channel in channels:
        await channel.close()
    await asyncio.sleep(args.settle)
    stop.set()
    await sampler
    after = rss(args.pid)
    return before, peak[0], during, after, outcomes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", required=True, help="the server's HOST:PORT")
    parser.add_argument("--pid", type=int, required=True, help="the server's process id")
    parser.add_argument("--streams", type=int, default=87_000)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--token", help="a bearer token to send (default: none)")
    parser.add_argument("--hold", type=float, default=5, help="seconds to hold the streams open")
    parser.add_argument(
        "--settle", type=float, default=10, help="seconds to wait after closing before measuring"
    )
    parser.add_argument("--open-timeout", type=float, default=600)
    parser.add_argument("--max-growth-mb", type=float, default=128)
    parser.add_argument("--max-after-mb", type=float, default=64)
    args = parser.parse_args()

    before, peak, during, after, outcomes = asyncio.run(flood(args))
    print(f"calls: {dict(outcomes)}")
    growth, left = (peak - before) / MB, (after - before) / MB
    print(
        f"server RSS: before {before / MB:.1f} MB, peak {peak / MB:.1f} MB (+{growth:.1f}), "
        f"with the streams open {during / MB:.1f} MB, {args.settle:.0f} s after they closed "
        f"{after / MB:.1f} MB ({left:+.1f})"
    )
    ok = growth < args.max_growth_mb and left < args.max_after_mb
    print(
        f"{'PASS' if ok else 'FAIL'}: growth {growth:.1f} MB (< {args.max_growth_mb:.0f} asked), "
        f"after closing {left:+.1f} MB (< {args.max_after_mb:.0f} asked)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
