"""Round-trip cost of the Python adapter, beside its peers, in one run.

Rows (the trivial 3-field ``add`` tool everywhere):

- reference registry, in-process: tests' stdlib ReferenceRegistry calling an
  equivalent Python ``add`` (the cost an in-process excelmanus registry pays);
- websockets.sync client: websockets' own synchronous client sending the same
  JSON-RPC frame and waiting for the answer (a naive adapter's transport);
- raw socket floor: a pre-built masked frame written to a plain socket and
  one recv() for the answer, no parsing at all (what the kernel and the
  sidecar cost; no Python client can be faster);
- raw socket floor, 8 sockets: 8 threads each running the raw floor on a
  socket of its own (how far the kernel and the sidecar let any client
  scale from 1 thread to 8 on this machine);
- raw pipeline, 8 in flight: one thread keeping 8 pre-built requests in
  flight on one plain socket (each answered id sent again at once): the
  floor of any client sharing one connection among 8 callers, what the
  sidecar and the kernel cost with no Python work per call to speak of;
- minimal Python caller, on 1 and on 8 sockets: the least Python work a
  call needs (the Client's own request encoder, masked framer and answer
  decoder, one sendall, one recv) on a socket per thread,
  no locks: how far that work, run under the GIL, lets 8 threads scale;
- minimal shared socket, 8 threads: that work on one socket shared the
  plainest way (a send lock, leader/follower reading, a lock per waiting
  call), without the Client's deadlines, combined writes and protocol
  checks: where a shared connection starts from;
- Client (sync), 1 thread; one Client shared by 8 threads; and a pool of 8
  Clients, one connection per thread (the peer a shared client must beat);
- AsyncClient with 1 and with 64 calls in flight.

Latencies are per call (p50/p99 in microseconds); calls/s is calls divided by
the wall time of the whole batch. Ratios are against the websockets.sync
peer measured in this same run. Targets: sync p50 <= 150 us; async >= 10,000
calls/s with 64 in flight; one Client shared by 8 threads (excelmanus calls
its registry from a thread pool) does at least the calls/s of 1 thread with a
p50 at most 3x the 1-thread p50.

The sidecar runs with --log-level warn by default (its info level writes one
log line per call, which the adapter's stderr reader then consumes: that is
a cost of the sidecar's logging, paid equally by every row, not of the
client); pass --sidecar-log-level info to include it.

Usage: python tests/bench/bench_adapter.py [--calls N] [--threads-only] [--sidecar-log-level L] [--json FILE]
(needs the binary: $REGISTRY_SIDECAR_BIN or bin/registry-sidecar).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import itertools
import json
import os
import pathlib
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "adapters" / "python" / "tests"))

from reference_registry import ReferenceRegistry  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

from registry_sidecar import AsyncClient, Client, Sidecar  # noqa: E402
from registry_sidecar._rpc import call_result, decode_inbound, encode_call  # noqa: E402
from registry_sidecar._wire import TextFramer  # noqa: E402

#: Target: sync round trip p50 in microseconds.
TARGET_SYNC_P50_US = 150.0
#: Target: async calls per second with 64 in flight.
TARGET_ASYNC64_CPS = 10_000.0
#: Target: 8 threads sharing a Client, calls/s at least this times 1 thread's.
TARGET_THREADS_CPS_RATIO = 1.0
#: Target: 8 threads sharing a Client, p50 at most this times 1 thread's.
TARGET_THREADS_P50_RATIO = 3.0
#: Threads of the thread-scaling rows.
THREADS = 8
#: Calls before each measured batch.
WARMUP = 300
ARGS = {"a": 1, "b": 2}


@dataclass
class Row:
    name: str
    calls: int
    p50_us: float
    p99_us: float
    calls_per_s: float
    #: CPU per call (user + system, warm-up calls included) of this Python
    #: process, all threads, and of the sidecar process (nan if unknown).
    py_cpu_us: float = float("nan")
    sidecar_cpu_us: float = float("nan")


def _sidecar_cpu(sc: Sidecar) -> float:
    """Seconds of CPU the sidecar process has used so far (Linux's /proc;
    nan elsewhere)."""
    try:
        fields = pathlib.Path(f"/proc/{sc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def _metered(sc: Sidecar, bench: Callable[[], Row]) -> Row:
    """Run one row's bench and fill in its CPU per call (this process's
    rusage, the sidecar's /proc counters), warm-up calls counted."""
    before, sidecar_before = resource.getrusage(resource.RUSAGE_SELF), _sidecar_cpu(sc)
    row = bench()
    after, sidecar_after = resource.getrusage(resource.RUSAGE_SELF), _sidecar_cpu(sc)
    calls = row.calls + WARMUP
    row.py_cpu_us = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / calls * 1e6
    row.sidecar_cpu_us = (sidecar_after - sidecar_before) / calls * 1e6
    return row


def _row(name: str, lat: list[float], wall: float) -> Row:
    lat.sort()
    return Row(
        name=name,
        calls=len(lat),
        p50_us=statistics.median(lat) * 1e6,
        p99_us=lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1e6,
        calls_per_s=len(lat) / wall,
    )


def _timed(fn: Callable[[], object], n: int) -> tuple[list[float], float]:
    for _ in range(WARMUP):
        fn()
    lat = []
    perf = time.perf_counter
    start = perf()
    for _ in range(n):
        t = perf()
        fn()
        lat.append(perf() - t)
    return lat, perf() - start


def bench_reference(n: int) -> Row:
    reg = ReferenceRegistry()

    def add(a: int, b: int, note: str = "") -> dict[str, object]:
        return {"status": "success", "sum": a + b}

    reg.register("add", add, {"type": "object", "required": ["a", "b"], "properties": {"a": {}, "b": {}, "note": {}}})
    want = '{"status": "success", "sum": 3}'
    assert reg.call_tool("add", ARGS) == want
    return _row("reference registry, in-process", *_timed(lambda: reg.call_tool("add", ARGS), n))


def bench_websockets_sync(sc: Sidecar, n: int) -> Row:
    with ws_connect(sc.url, additional_headers={"Authorization": f"Bearer {sc.token}"}, compression=None) as ws:
        ids = iter(range(1, 10**9))

        def call() -> str:
            frame = json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": next(ids),
                    "method": "tools/call",
                    "params": {"name": "add", "arguments": ARGS},
                }
            )
            ws.send(frame)
            return str(json.loads(ws.recv())["result"]["content"][0]["text"])

        return _row("websockets.sync client (peer)", *_timed(call, n))


def _raw_socket(sc: Sidecar) -> socket.socket:
    """A plain socket past the WebSocket handshake (no MCP initialize)."""
    host, port = sc.url.removeprefix("ws://").split("/", 1)[0].rsplit(":", 1)
    s = socket.create_connection((host, int(port)))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Authorization: Bearer {sc.token}\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head[:40]
    return s


class RawCaller:
    """The raw socket floor as a caller: a pre-built masked frame written to
    a plain socket and one recv() for the answer, no parsing at all."""

    def __init__(self, sc: Sidecar) -> None:
        self.sock = _raw_socket(sc)
        body = json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": ARGS}}
        ).encode()
        assert len(body) < 126
        self.frame = bytes([0x81, 0x80 | len(body)]) + b"\0\0\0\0" + body  # an all-zero mask

    def call_tool(self, name: str, arguments: dict[str, int]) -> bytes:
        self.sock.sendall(self.frame)
        return self.sock.recv(65536)

    def close(self) -> None:
        self.sock.close()


class MinimalCaller(RawCaller):
    """The least Python work a call needs, on a socket of its own: the
    Client's own request encoder, masked framer and answer decoder, one
    sendall, one recv (no locks, no waiter, no checks)."""

    def __init__(self, sc: Sidecar) -> None:
        super().__init__(sc)
        self.ids = iter(range(1, 10**9))
        self.framer = TextFramer()

    def call_tool(self, name: str, arguments: dict[str, int]) -> bytes:
        request = encode_call(next(self.ids), name, arguments, tool_scope=None, timeout=None, progress=False)
        self.sock.sendall(self.framer.frame(request))
        data = self.sock.recv(65536)
        answer = decode_inbound(data[2 if data[1] < 126 else 4 :])
        assert isinstance(answer, dict)
        return call_result(answer).text.encode()


def bench_minimal_threads(sc: Sidecar, n: int, threads: int) -> Row:
    pool = [MinimalCaller(sc) for _ in range(threads)]
    try:
        assert b"sum" in pool[0].call_tool("add", ARGS)
        name = "minimal Python caller" + (f", {threads} sockets" if threads > 1 else "")
        return _threaded(f"{name} (peer)", pool, n)
    finally:
        for r in pool:
            r.close()


class MinimalShared:
    """The minimal caller's work on one socket shared the plainest way: a
    caller sends its frame (one lock around sendall), parks a bare lock in a
    dict by id, and either reads for everyone (if nobody is) until its own
    answer arrives, handing each answer to its thread, or sleeps on its
    lock. No deadlines, no combined writes, no protocol checks."""

    def __init__(self, sc: Sidecar) -> None:
        self.sock = _raw_socket(sc)
        self.ids = itertools.count(1)
        self.framer = TextFramer()
        self.pending: dict[int, list[Any]] = {}
        self.send_lock = threading.Lock()
        self.read_lock = threading.Lock()
        self.rest = b""

    def call_tool(self, name: str, arguments: dict[str, int]) -> bytes:
        rid = next(self.ids)
        frame = self.framer.frame(encode_call(rid, name, arguments, tool_scope=None, timeout=None, progress=False))
        gate = threading.Lock()
        gate.acquire()
        slot: list[Any] = [None, gate]
        self.pending[rid] = slot
        with self.send_lock:
            self.sock.sendall(frame)
        while slot[0] is None:
            if self.read_lock.acquire(blocking=False):
                try:
                    while slot[0] is None:
                        self._read()
                finally:
                    self.read_lock.release()
                for other in list(self.pending.values()):  # hand the reading over
                    if other[0] is None:
                        _wake(other[1])
                        break
            else:
                gate.acquire()
        return call_result(slot[0]).text.encode()

    def _read(self) -> None:
        data = self.rest + self.sock.recv(65536)
        pos, end = 0, len(data)
        while end - pos >= 2:
            size, head = data[pos + 1] & 0x7F, 2
            if size == 126:
                if end - pos < 4:
                    break
                size, head = int.from_bytes(data[pos + 2 : pos + 4]), 4
            if end - pos < head + size:
                break
            answer = decode_inbound(data[pos + head : pos + head + size])
            pos += head + size
            assert isinstance(answer, dict)
            slot = self.pending.pop(answer["id"])
            slot[0] = answer
            _wake(slot[1])
        self.rest = data[pos:]

    def close(self) -> None:
        self.sock.close()


def _wake(gate: threading.Lock) -> None:
    try:
        gate.release()
    except RuntimeError:  # woken already
        pass


def bench_minimal_shared(sc: Sidecar, n: int, threads: int) -> Row:
    caller = MinimalShared(sc)
    try:
        assert b"sum" in caller.call_tool("add", ARGS)
        return _threaded(f"minimal shared socket, {threads} thr (peer)", [caller] * threads, n)
    finally:
        caller.close()


def bench_raw_floor(sc: Sidecar, n: int) -> Row:
    raw = RawCaller(sc)
    try:
        assert b"sum" in raw.call_tool("add", ARGS)
        return _row("raw socket floor (peer)", *_timed(lambda: raw.call_tool("add", ARGS), n))
    finally:
        raw.close()


def bench_raw_floor_threads(sc: Sidecar, n: int, threads: int) -> Row:
    pool = [RawCaller(sc) for _ in range(threads)]
    try:
        return _threaded(f"raw floor, {threads} sockets (peer)", pool, n)
    finally:
        for r in pool:
            r.close()


def bench_raw_pipeline(sc: Sidecar, n: int, inflight: int) -> Row:
    """One thread keeping inflight requests in flight on one plain socket:
    pre-built frames, every answered id sent again at once (all in one
    sendall per read), the id cut out of the answer without parsing it.
    Latency runs from a request's send to its answer's read. The floor of
    any client sharing one connection among that many callers: what the
    sidecar and the kernel cost, with no Python work per call to speak of."""
    sock = _raw_socket(sc)
    frames = {}
    for rid in range(1, inflight + 1):
        body = json.dumps(
            {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": "add", "arguments": ARGS}}
        ).encode()
        assert len(body) < 126
        frames[rid] = bytes([0x81, 0x80 | len(body)]) + b"\0\0\0\0" + body
    perf = time.perf_counter
    sent: dict[int, float] = {}
    lat: list[float] = []
    try:
        now = perf()
        for rid in frames:
            sent[rid] = now
        sock.sendall(b"".join(frames.values()))
        buf = b""
        done = 0
        start = now
        while done < n + WARMUP:
            buf += sock.recv(65536)
            now = perf()
            again = []
            pos = 0
            while len(buf) - pos >= 2:
                size, head = buf[pos + 1] & 0x7F, 2
                if size == 126:
                    if len(buf) - pos < 4:
                        break
                    size, head = int.from_bytes(buf[pos + 2 : pos + 4]), 4
                if len(buf) - pos < head + size:
                    break
                i = buf.index(b'"id":', pos) + 5
                rid = int(buf[i : buf.index(b",", i)])
                pos += head + size
                done += 1
                if done == WARMUP:
                    start = now
                elif done > WARMUP:
                    lat.append(now - sent[rid])
                again.append(rid)
            buf = buf[pos:]
            for rid in again:
                sent[rid] = now
            if again:
                sock.sendall(b"".join(frames[rid] for rid in again))
        wall = perf() - start
        lat = lat[:n]
        return _row(f"raw pipeline, {inflight} in flight (peer)", lat, wall)
    finally:
        sock.close()


def bench_sync(sc: Sidecar, n: int) -> Row:
    with Client(sc.url, token=sc.token) as c:
        assert c.call_tool("add", ARGS).text == '{"status": "success", "sum": 3}'
        return _row("Client (sync), 1 thread", *_timed(lambda: c.call_tool("add", ARGS), n))


class _Caller(Protocol):
    def call_tool(self, name: str, arguments: dict[str, int]) -> object: ...


def _threaded(name: str, clients: Sequence[_Caller], n: int) -> Row:
    """n calls spread over len(clients) threads, thread i calling clients[i]."""
    threads = len(clients)
    per = n // threads
    lats: list[list[float]] = [[] for _ in range(threads)]
    barrier = threading.Barrier(threads + 1)

    def work(i: int) -> None:
        c, out = clients[i], lats[i]
        for _ in range(WARMUP // threads):
            c.call_tool("add", ARGS)
        barrier.wait()
        perf = time.perf_counter
        for _ in range(per):
            t = perf()
            c.call_tool("add", ARGS)
            out.append(perf() - t)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in ts:
        t.join()
    wall = time.perf_counter() - start
    return _row(name, [x for lat in lats for x in lat], wall)


def bench_sync_threads(sc: Sidecar, n: int, threads: int) -> Row:
    with Client(sc.url, token=sc.token) as c:
        return _threaded(f"Client (sync), {threads} threads", [c] * threads, n)


def bench_sync_pool(sc: Sidecar, n: int, threads: int) -> Row:
    pool = [Client(sc.url, token=sc.token) for _ in range(threads)]
    try:
        for c in pool:
            c.connect()
        return _threaded(f"{threads} Clients, 1 per thread (peer)", pool, n)
    finally:
        for c in pool:
            c.close()


async def _bench_async(sc: Sidecar, n: int, inflight: int) -> Row:
    async with AsyncClient(sc.url, token=sc.token) as c:
        for _ in range(WARMUP):
            await c.call_tool("add", ARGS)
        per = n // inflight
        lat: list[float] = []
        perf = time.perf_counter

        async def worker() -> None:
            for _ in range(per):
                t = perf()
                await c.call_tool("add", ARGS)
                lat.append(perf() - t)

        start = perf()
        await asyncio.gather(*(worker() for _ in range(inflight)))
        return _row(f"AsyncClient, {inflight} in flight", lat, perf() - start)


def threads_verdict(what: str, one: Row, shared: Row, pool: Row) -> str:
    """The thread-scaling target line: the shared row against the 1-thread
    row, with the pool of one connection per thread beside it."""
    cps, p50 = shared.calls_per_s / one.calls_per_s, shared.p50_us / one.p50_us
    ok = cps >= TARGET_THREADS_CPS_RATIO and p50 <= TARGET_THREADS_P50_RATIO
    return (
        f"target {what}: calls/s >= {TARGET_THREADS_CPS_RATIO:.1f}x and p50 <= {TARGET_THREADS_P50_RATIO:.0f}x "
        f"1 thread: {cps:.2f}x calls/s, {p50:.2f}x p50 {'OK' if ok else 'MISSED'} (pool of {THREADS} connections: "
        f"{pool.calls_per_s / one.calls_per_s:.2f}x calls/s, {pool.p50_us / one.p50_us:.2f}x p50)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=5000, help="measured calls per row (default 5000)")
    parser.add_argument("--json", type=pathlib.Path, help="also write the rows as JSON here")
    parser.add_argument(
        "--threads-only",
        action="store_true",
        help="only the thread-scaling rows: the raw floor and the minimal Python caller with 1 and 8 sockets; Client with 1 thread, shared by 8, pool of 8",
    )
    parser.add_argument("--sidecar-log-level", default="warn", help="the sidecar's --log-level (default warn)")
    ns = parser.parse_args()
    n = ns.calls
    args = ["--test-tools", "--log-level", ns.sidecar_log_level]
    with tempfile.TemporaryDirectory() as ws, Sidecar.launch(ws, args=args) as sc:
        benches: list[Callable[[], Row]]
        if ns.threads_only:
            benches = [
                lambda: bench_raw_floor(sc, n),
                lambda: bench_raw_floor_threads(sc, n, THREADS),
                lambda: bench_raw_pipeline(sc, n, THREADS),
                lambda: bench_minimal_threads(sc, n, 1),
                lambda: bench_minimal_threads(sc, n, THREADS),
                lambda: bench_minimal_shared(sc, n, THREADS),
                lambda: bench_sync(sc, n),
                lambda: bench_sync_threads(sc, n, THREADS),
                lambda: bench_sync_pool(sc, n, THREADS),
            ]
        else:
            benches = [
                lambda: bench_reference(n * 4),
                lambda: bench_websockets_sync(sc, n),
                lambda: bench_raw_floor(sc, n),
                lambda: bench_sync(sc, n),
                lambda: bench_sync_threads(sc, n, THREADS),
                lambda: bench_sync_pool(sc, n, THREADS),
                lambda: bench_raw_floor_threads(sc, n, THREADS),
                lambda: bench_raw_pipeline(sc, n, THREADS),
                lambda: bench_minimal_threads(sc, n, 1),
                lambda: bench_minimal_threads(sc, n, THREADS),
                lambda: bench_minimal_shared(sc, n, THREADS),
                lambda: asyncio.run(_bench_async(sc, n, 1)),
                lambda: asyncio.run(_bench_async(sc, n * 2, 64)),
            ]
        rows = [_metered(sc, bench) for bench in benches]
        peer = rows[6] if ns.threads_only else rows[1]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"sidecar --log-level {ns.sidecar_log_level}; {n} calls per row; load average {load:.1f} "
        f"on {os.cpu_count()} CPUs; peer: {peer.name}"
    )
    print(
        f"{'':40} {'calls':>7} {'p50 us':>9} {'p99 us':>9} {'calls/s':>9} {'p50 vs peer':>12} {'calls/s vs peer':>16}"
        f" {'CPU us/call: python':>20} {'sidecar':>8}"
    )
    for r in rows:
        print(
            f"{r.name:40} {r.calls:7d} {r.p50_us:9.1f} {r.p99_us:9.1f} {r.calls_per_s:9.0f} "
            f"{r.p50_us / peer.p50_us:11.2f}x {r.calls_per_s / peer.calls_per_s:15.2f}x"
            f" {r.py_cpu_us:20.1f} {r.sidecar_cpu_us:8.1f}"
        )
    one = next(r for r in rows if r.name == "Client (sync), 1 thread")
    shared = next(r for r in rows if r.name == f"Client (sync), {THREADS} threads")
    pool = next(r for r in rows if r.name.endswith("(peer)") and "per thread" in r.name)
    raw1 = next(r for r in rows if r.name == "raw socket floor (peer)")
    raw8 = next(r for r in rows if r.name.startswith(f"raw floor, {THREADS} sockets"))
    min1 = next(r for r in rows if r.name == "minimal Python caller (peer)")
    min8 = next(r for r in rows if r.name.startswith(f"minimal Python caller, {THREADS} sockets"))
    pipe = next(r for r in rows if r.name.startswith("raw pipeline"))
    mins = next(r for r in rows if r.name.startswith("minimal shared socket"))
    cps_ratio, p50_ratio = shared.calls_per_s / one.calls_per_s, shared.p50_us / one.p50_us
    print(threads_verdict(f"{THREADS} threads sharing a Client", one, shared, pool))
    print(
        f"floor: raw sockets, {THREADS} threads vs 1: {raw8.calls_per_s / raw1.calls_per_s:.2f}x calls/s, "
        f"{raw8.p50_us / raw1.p50_us:.2f}x p50; minimal Python callers, {THREADS} sockets vs 1: "
        f"{min8.calls_per_s / min1.calls_per_s:.2f}x calls/s, {min8.p50_us / min1.p50_us:.2f}x p50"
    )
    print(
        f"floor of one connection shared by {THREADS} callers (raw pipeline, {THREADS} in flight, no Python per call): "
        f"p50 {pipe.p50_us / one.p50_us:.2f}x the Client's 1-thread p50, {pipe.calls_per_s / one.calls_per_s:.2f}x its calls/s; "
        f"the shared Client reaches {shared.calls_per_s / pipe.calls_per_s:.2f}x the floor's calls/s"
    )
    print(
        f"plainest shared socket (minimal shared socket, {THREADS} threads): p50 "
        f"{mins.p50_us / one.p50_us:.2f}x the Client's 1-thread p50, {mins.calls_per_s / one.calls_per_s:.2f}x its calls/s "
        f"(the shared Client: {p50_ratio:.2f}x, {cps_ratio:.2f}x)"
    )
    if not ns.threads_only:
        sync, async64 = rows[3], rows[12]
        ok_sync = sync.p50_us <= TARGET_SYNC_P50_US
        ok_async = async64.calls_per_s >= TARGET_ASYNC64_CPS
        print(f"target sync p50 <= {TARGET_SYNC_P50_US:.0f} us: {sync.p50_us:.1f} us {'OK' if ok_sync else 'MISSED'}")
        print(
            f"target async(64) >= {TARGET_ASYNC64_CPS:.0f} calls/s: {async64.calls_per_s:.0f} "
            f"{'OK' if ok_async else 'MISSED'}"
        )
    if ns.json:
        ns.json.parent.mkdir(parents=True, exist_ok=True)
        ns.json.write_text(json.dumps([asdict(r) for r in rows], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
