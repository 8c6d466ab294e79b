"""The splice path's figures: the splice path beside the excelize path and openpyxl.

On a generated 50,000 x 10 workbook (and a 500,000 x 10 one), each system on
its own copy, one long-lived process each:

- repeated 100 x 10 write (best of the repeats after the first call: the
  machine is shared, so the best run is the one least disturbed; every
  system is measured the same way),
- 100 x 10 bold (format_cells; openpyxl: Font(bold=True) + save),
- the first write in a fresh process (the binary's `call` subcommand, start
  to exit, best of FIRST_RUNS fresh processes; openpyxl: load + write +
  save, once),
- a 400-row read (read_excel range; openpyxl read-only iter_rows),
- a repeated 100 x 2 write of formulas reading their rows (=A2*2+B2,
  =SUM(C2:J2)): the sidecar stores each formula's cached value (the recalc
  splice computes them); openpyxl stores the formula text without a value,
  so its figure is a floor for it, not like for like,
- peak RSS of the process (VmHWM of the sidecar; ru_maxrss of openpyxl's).

"splice" is the sidecar as shipped, "excelize" the same binary with
--splice=false, "openpyxl" load-once-then-edit-and-save, its best case.
Ratios are peer / splice: above 1 means the splice path is faster or leaner.

    REGISTRY_SIDECAR_BIN=bin/registry-sidecar .venv/bin/python tests/bench/bench_splice.py [--big-peers]

The 500,000-row peers (excelize path, openpyxl) take minutes and gigabytes;
they run only with --big-peers.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_excel import generate  # noqa: E402  (same generator as the other bench)

SIZES = [50_000, 500_000]
COLS = 10
REPEATS = 5  # timed repeats of each edit after the first call
FIRST_RUNS = 3  # fresh processes timed for the first write
READ_ROWS = 400
HANDSHAKE_TIMEOUT = 60.0
CALL_TIMEOUT = 600.0


def block(i: int) -> list[list[float]]:
    return [[i * 1000 + r * 10 + c + 0.5 for c in range(COLS)] for r in range(100)]


def formula_block(i: int) -> list[list[str]]:
    return [[f"=A{r}*2+B{r}", f"=SUM(C{r}:J{r})"] for r in range(2 + 100 * i, 102 + 100 * i)]


def vmhwm(pid: int) -> int:
    """Peak resident set of pid in bytes."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def sidecar_run(binary: str, work: pathlib.Path, splice: bool) -> dict[str, float]:
    """Writes, bolds and reads through one long-lived sidecar."""
    from registry_sidecar import Client, Sidecar

    args = [] if splice else ["--splice=false"]
    out: dict[str, float] = {}
    with Sidecar.launch(work, binary=binary, args=args, startup_timeout=HANDSHAKE_TIMEOUT) as sc, \
            Client(sc.url, token=sc.token, max_size=64 << 20, call_timeout=CALL_TIMEOUT) as client:

        def timed(tool: str, a: dict[str, Any]) -> float:
            t0 = time.perf_counter()
            res = client.call_tool(tool, {"file_path": "book.xlsx", **a})
            dt = time.perf_counter() - t0
            if res.is_error:
                raise SystemExit(f"bench_splice: {tool} failed: {res.text[:300]}")
            return dt

        writes = [timed("write_cells", {"cell_range": f"L{2 + 100 * i}", "values": block(i)}) for i in range(REPEATS + 1)]
        out["write"] = min(writes[1:])
        bolds = [timed("format_cells", {"cell_range": f"A{2 + 100 * i}:J{101 + 100 * i}", "font": {"bold": True}}) for i in range(REPEATS + 1)]
        out["bold"] = min(bolds[1:])
        reads = [timed("read_excel", {"range": f"A1:J{READ_ROWS}"}) for _ in range(REPEATS + 1)]
        out["read"] = min(reads[1:])
        formulas = [timed("write_cells", {"cell_range": f"W{2 + 100 * i}", "values": formula_block(i)}) for i in range(REPEATS + 1)]
        out["formulas"] = min(formulas[1:])
        pid = sc.pid
        assert pid is not None
        out["rss"] = vmhwm(pid)
    return out


def first_write(binary: str, work: pathlib.Path, splice: bool) -> float:
    """A fresh process: start, write 100 x 10, save, exit."""
    args = json.dumps({"file_path": "book.xlsx", "cell_range": "N2", "values": block(99)})
    t0 = time.perf_counter()
    proc = subprocess.run([binary, "call", "--workspace", str(work), f"--splice={str(splice).lower()}", "write_cells", args],
                          capture_output=True, text=True, timeout=CALL_TIMEOUT)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"bench_splice: first write failed: {proc.stdout[:300]} {proc.stderr[:300]}")
    return dt


OPENPYXL_PEER = r"""
import json, resource, sys, time
import openpyxl
from openpyxl.styles import Font
path, repeats, read_rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
out = {}
t0 = time.perf_counter()
wb = openpyxl.load_workbook(path)
ws = wb.worksheets[0]
for r in range(100):
    for c in range(10):
        ws.cell(row=r + 2, column=c + 14, value=r * 10 + c + 0.5)
wb.save(path)
out["first"] = time.perf_counter() - t0
writes, bolds = [], []
for i in range(repeats):
    t0 = time.perf_counter()
    for r in range(100):
        for c in range(10):
            ws.cell(row=2 + 100 * i + r, column=12 + c, value=i * 1000 + r * 10 + c + 0.5)
    wb.save(path)
    writes.append(time.perf_counter() - t0)
bold = Font(bold=True)
for i in range(repeats):
    t0 = time.perf_counter()
    for row in ws.iter_rows(min_row=2 + 100 * i, max_row=101 + 100 * i, max_col=10):
        for cell in row:
            cell.font = bold
    wb.save(path)
    bolds.append(time.perf_counter() - t0)
reads = []
for i in range(repeats):
    t0 = time.perf_counter()
    ro = openpyxl.load_workbook(path, read_only=True)
    rows = [list(r) for r in ro.worksheets[0].iter_rows(min_row=1, max_row=read_rows, max_col=10, values_only=True)]
    ro.close()
    reads.append(time.perf_counter() - t0)
formulas = []
for i in range(repeats):
    t0 = time.perf_counter()
    for r in range(2 + 100 * i, 102 + 100 * i):
        ws.cell(row=r, column=23, value=f"=A{r}*2+B{r}")
        ws.cell(row=r, column=24, value=f"=SUM(C{r}:J{r})")
    wb.save(path)
    formulas.append(time.perf_counter() - t0)
out.update(write=min(writes), bold=min(bolds), read=min(reads), formulas=min(formulas),
           rss=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
print(json.dumps(out))
"""


def openpyxl_run(path: pathlib.Path) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", OPENPYXL_PEER, str(path), str(REPEATS), str(READ_ROWS)],
                          capture_output=True, text=True, timeout=7200)
    if proc.returncode != 0:
        raise SystemExit(f"bench_splice: openpyxl peer failed: {proc.stderr[-500:]}")
    result: dict[str, float] = json.loads(proc.stdout)
    return result


def fmt(key: str, v: float | None) -> str:
    if v is None:
        return "-"
    if key == "rss":
        return f"{v / 2**20:.0f} MB"
    return f"{v * 1000:.0f} ms" if v < 10 else f"{v:.1f} s"


def main() -> None:
    binary = os.environ.get("REGISTRY_SIDECAR_BIN", "bin/registry-sidecar")
    big_peers = "--big-peers" in sys.argv
    with tempfile.TemporaryDirectory() as tmp:
        base = pathlib.Path(tmp)
        for rows in SIZES:
            src = base / f"src-{rows}.xlsx"
            generate(src, rows, COLS)
            print(f"\n== {rows:,} x {COLS} workbook ({src.stat().st_size / 2**20:.1f} MB)")
            results: dict[str, dict[str, float]] = {}
            systems = ["splice", "excelize", "openpyxl"] if rows <= 50_000 or big_peers else ["splice"]
            for system in systems:
                work = base / f"{system}-{rows}"
                work.mkdir()
                shutil.copy(src, work / "book.xlsx")
                if system == "openpyxl":
                    results[system] = openpyxl_run(work / "book.xlsx")
                    continue
                splice = system == "splice"
                r = {"first": min(first_write(binary, work, splice) for _ in range(FIRST_RUNS))}
                r.update(sidecar_run(binary, work, splice))
                results[system] = r
            print(f"{'figure':<34}" + "".join(f"{s:>12}" for s in systems) + "".join(f"{s + '/splice':>18}" for s in systems[1:]))
            for key, label in [("write", "repeated 100x10 write"), ("bold", "100x10 bold"), ("first", "first write, fresh process"),
                               ("read", f"{READ_ROWS}-row read"), ("formulas", "repeated 100x2 formula write"), ("rss", "peak RSS")]:
                row = f"{label:<34}" + "".join(f"{fmt(key, results[s].get(key)):>12}" for s in systems)
                for s in systems[1:]:
                    ours, theirs = results["splice"].get(key), results[s].get(key)
                    row += f"{(theirs / ours if ours and theirs else 0):>17.1f}x"
                print(row, flush=True)


if __name__ == "__main__":
    main()
