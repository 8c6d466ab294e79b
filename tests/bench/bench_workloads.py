"""How the sync Client scales from 1 thread to 8 by what a call spends its
time on, beside a pool of one connection per thread, in one run.

bench_adapter.py measures thread scaling with the trivial ``add`` tool, where
a call is almost nothing but the client's own Python work and the round
trip. This bench runs the same three rows (one thread; one Client shared by
8 threads; 8 Clients, one connection per thread) for three kinds of call:

- ``add``: the trivial tool (the client's cost; bench_adapter.py's rows);
- ``slow`` 1 ms: the sidecar waits 1 ms (a tool waiting on I/O);
- ``read_excel``: a 5-row range of a small workbook (a spreadsheet tool: the
  sidecar's CPU work, about a millisecond a call).

Each row prints p50/p99 and calls/s, its ratios against its own workload's
1-thread row, and the CPU per call of this process and of the sidecar. The
issue's target (8 threads: calls/s at least 1x, p50 at most 3x the 1-thread
figures) is judged per workload.

``--pin`` puts this process on the first CPU and the sidecar on the others
(Linux only), which shows what the operating system's placement of the 8
threads costs (see the adapter README's Speed section).

Usage: python tests/bench/bench_workloads.py [--calls N] [--pin]
(needs the binary: $REGISTRY_SIDECAR_BIN or bin/registry-sidecar).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Any

from bench_adapter import THREADS, Row, _metered, _row, _threaded, _timed, threads_verdict

from registry_sidecar import Client, Sidecar

#: The workbook read_excel reads: a header and 20 rows.
BOOK = "bench.xlsx"
#: (label, tool, arguments, share of --calls) per workload; the slower
#: workloads run fewer calls so that each takes a few seconds.
WORKLOADS: list[tuple[str, str, dict[str, Any], float]] = [
    ("add", "add", {"a": 1, "b": 2}, 1.0),
    ("slow 1 ms", "slow", {"ms": 1}, 0.2),
    ("read_excel", "read_excel", {"file_path": BOOK, "range": "A1:B5"}, 0.2),
]


class Bound:
    """A client bound to one tool call, in the shape bench_adapter's
    _threaded drives (it calls call_tool("add", ARGS))."""

    def __init__(self, client: Client, tool: str, arguments: dict[str, Any]) -> None:
        self.client, self.tool, self.arguments = client, tool, arguments

    def call_tool(self, name: str, arguments: dict[str, int]) -> object:
        result = self.client.call_tool(self.tool, self.arguments)
        if result.is_error:
            raise RuntimeError(f"{self.tool} failed: {result.text}")
        return result


def pin(sidecar_pid: int) -> None:
    """Put this process on the first CPU it may use and every thread of the
    sidecar on the others."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("--pin needs at least 2 CPUs")
    for tid in os.listdir(f"/proc/{os.getpid()}/task"):
        os.sched_setaffinity(int(tid), {cpus[0]})
    for tid in os.listdir(f"/proc/{sidecar_pid}/task"):
        os.sched_setaffinity(int(tid), set(cpus[1:]))


def workload_rows(sc: Sidecar, label: str, tool: str, arguments: dict[str, Any], n: int) -> list[Row]:
    """The 1-thread, shared and pool rows of one workload."""
    rows: list[Row] = []
    with Client(sc.url, token=sc.token) as c:
        one = Bound(c, tool, arguments)
        rows.append(_metered(sc, lambda: _row(f"{label}: 1 thread", *_timed(lambda: one.call_tool("", {}), n))))
        rows.append(_metered(sc, lambda: _threaded(f"{label}: Client shared by {THREADS}", [one] * THREADS, n)))
    pool = [Client(sc.url, token=sc.token) for _ in range(THREADS)]
    try:
        for c in pool:
            c.connect()
        bound = [Bound(c, tool, arguments) for c in pool]
        rows.append(_metered(sc, lambda: _threaded(f"{label}: {THREADS} Clients, 1 per thread", bound, n)))
    finally:
        for c in pool:
            c.close()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=5000, help="measured calls of the add rows (default 5000)")
    parser.add_argument("--pin", action="store_true", help="this process on one CPU, the sidecar on the others")
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory() as ws, Sidecar.launch(ws, args=["--test-tools", "--log-level", "warn"]) as sc:
        if ns.pin:
            if sc.pid is None:
                raise SystemExit("--pin needs the sidecar's process id")
            pin(sc.pid)
        with Client(sc.url, token=sc.token) as c:
            values: list[list[Any]] = [["item", "qty"]] + [[f"item {i}", i] for i in range(20)]
            made = c.call_tool("write_cells", {"file_path": BOOK, "cell_range": "A1", "values": values})
            if made.is_error:
                raise SystemExit(f"cannot write {BOOK}: {made.text}")
        results: list[tuple[str, list[Row]]] = []
        for label, tool, arguments, share in WORKLOADS:
            results.append((label, workload_rows(sc, label, tool, arguments, max(100, int(ns.calls * share)))))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"load average {load:.1f} on {os.cpu_count()} CPUs{'; pinned' if ns.pin else ''}; ratios vs each workload's 1-thread row"
    )
    print(
        f"{'':36} {'calls':>6} {'p50 us':>9} {'p99 us':>9} {'calls/s':>8} {'p50':>7} {'calls/s':>8}"
        f" {'CPU us/call: python':>20} {'sidecar':>8}"
    )
    for _, rows in results:
        one = rows[0]
        for r in rows:
            print(
                f"{r.name:36} {r.calls:6d} {r.p50_us:9.1f} {r.p99_us:9.1f} {r.calls_per_s:8.0f} "
                f"{r.p50_us / one.p50_us:6.2f}x {r.calls_per_s / one.calls_per_s:7.2f}x"
                f" {r.py_cpu_us:20.1f} {r.sidecar_cpu_us:8.1f}"
            )
    for label, rows in results:
        print(threads_verdict(f"{label}, {THREADS} threads sharing a Client", *rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
