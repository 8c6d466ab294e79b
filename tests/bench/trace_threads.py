"""Where the time of one Client shared by 8 threads goes: a timestamp around
every call that can block (socket reads and writes, a waiting thread's sleep)
and at every wake-up, then the timeline cut into the time some thread runs
Python (it holds the GIL: between resuming from a blocking call and making
the next one) and the time none does, split by why: a woken thread (given
its answer, or handed the reading) has not got to run yet, or no thread
waits to run (every request is at the sidecar or on its way).

Not a benchmark (the timestamps cost time themselves); it explains the
8-thread rows of bench_adapter.py. The client is instrumented from outside
(a socket wrapper, wrapped Waiter methods), not changed.

Usage: python tests/bench/trace_threads.py [--calls N] [--threads T]
(needs the binary: $REGISTRY_SIDECAR_BIN or bin/registry-sidecar).
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

from registry_sidecar import Client, Sidecar
from registry_sidecar._syncconn import Waiter

ARGS = {"a": 1, "b": 2}
Event = tuple[float, int, str, int]  # time, thread (or waiter) id, kind, waiter id


class _TracedSocket:
    """A socket whose reads and writes are logged as blocking calls."""

    def __init__(self, sock: socket.socket, log: Callable[[str, int], None]) -> None:
        self._sock, self._log = sock, log

    def recv(self, n: int, *flags: int) -> bytes:
        self._log("block", 0)
        try:
            return self._sock.recv(n, *flags)
        finally:
            self._log("resume", 0)

    def sendall(self, data: bytes) -> None:
        self._log("block", 0)
        try:
            self._sock.sendall(data)
        finally:
            self._log("resume", 0)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def trace(url: str, token: str, calls: int, threads: int) -> list[Event]:
    events: list[Event] = []
    now, ident = time.perf_counter, threading.get_ident

    def log(kind: str, waiter: int) -> None:
        events.append((now(), ident(), kind, waiter))

    sleep, wake = Waiter.sleep, Waiter.wake

    def traced_sleep(self: Waiter, timeout: float | None) -> None:
        log("block", id(self))
        sleep(self, timeout)
        log("woke", id(self))

    def traced_wake(self: Waiter) -> None:
        if self._gate.locked():
            log("wake", id(self))
        wake(self)

    with Client(url, token=token) as client:
        conn = client._conn
        assert conn is not None
        conn.sock = _TracedSocket(conn.sock, log)  # type: ignore[assignment]
        Waiter.sleep, Waiter.wake = traced_sleep, traced_wake  # type: ignore[method-assign]
        try:
            start = threading.Barrier(threads)

            def work() -> None:
                start.wait()
                for _ in range(calls // threads):
                    client.call_tool("add", ARGS)

            workers = [threading.Thread(target=work) for _ in range(threads)]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
        finally:
            Waiter.sleep, Waiter.wake = sleep, wake  # type: ignore[method-assign]
    return events


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def _overlap(spans: list[tuple[float, float]], a: float, b: float) -> float:
    return sum(max(0.0, min(e, b) - max(s, a)) for s, e in spans if s < b and e > a)


def report(events: list[Event], calls: int) -> None:
    events.sort()
    # The middle half: every thread is calling, none is starting or done.
    t0, t1 = events[len(events) // 4][0], events[3 * len(events) // 4][0]
    mid = [e for e in events if t0 <= e[0] <= t1]
    span = t1 - t0
    running: list[tuple[float, float]] = []  # a thread runs Python
    resumed: dict[int, float] = {}
    woken_at: dict[int, float] = {}
    waiting: list[tuple[float, float]] = []  # woken, not yet running
    for t, thread, kind, waiter in mid:
        if kind in ("resume", "woke"):
            resumed[thread] = t
        elif kind == "block" and thread in resumed:
            running.append((resumed.pop(thread), t))
        if kind == "wake":
            woken_at[waiter] = t
        elif kind == "woke" and waiter in woken_at:
            waiting.append((woken_at.pop(waiter), t))
    busy = _union(running)
    idle = [(a, b) for (_, a), (b, _) in zip(busy, busy[1:], strict=False) if b > a]
    idle_total = sum(b - a for a, b in idle)
    waits = _union(waiting)
    woken_idle = sum(_overlap(waits, a, b) for a, b in idle)
    in_span = calls * span / (events[-1][0] - events[0][0])
    delays = sorted(b - a for a, b in waiting)
    print(f"{calls} calls; the middle {span * 1e3:.0f} ms (about {in_span:.0f} calls):")
    print(f"  some thread runs Python {(span - idle_total) / span:.0%} of the time; none does {idle_total / span:.0%}")
    print(
        f"  of that idle time, {woken_idle / idle_total:.0%} has a woken thread (answered, or handed the reading) not yet running, "
        f"{1 - woken_idle / idle_total:.0%} has every request at the sidecar"
    )
    print(
        f"  wake-up to running: median {statistics.median(delays) * 1e6:.0f} us, "
        f"p90 {delays[int(len(delays) * 0.9)] * 1e6:.0f} us ({len(delays) / in_span:.2f} wake-ups per call)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=8)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as ws, Sidecar.launch(ws, args=["--test-tools", "--log-level", "warn"]) as sc:
        events = trace(sc.url, sc.token or "", ns.calls, ns.threads)
    report(events, ns.calls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
