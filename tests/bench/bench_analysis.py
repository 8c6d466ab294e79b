"""search_excel_values and filter_data vs openpyxl, measured in the same run.

Generates N workbooks of R rows x 10 columns, then answers two queries both
ways, each in its own child process so that its peak RSS (ru_maxrss, from
os.wait4) is its own:

- search: every cell containing "needle" (any case) in all N workbooks; ours
  is one search_excel_values call (file_path + file_paths) paged through
  with next_offset, openpyxl a read-only scan of every cell;
- filter: in each workbook, the rows with city == "Oslo" and amount > 500,
  sorted by amount descending, top 100; ours is one filter_data call per
  workbook, openpyxl a read-only scan, a stable sort and a cut.

Ours runs through the binary's `call` subcommand with no result cap (one
process per call: process start and workbook open are included, nothing is cached). Both
answers are compared (hit and row counts) before a time is reported. Prints
wall seconds, the ratio openpyxl / ours (above 1: we are faster) and peak
RSS of each side (ours: the largest of its calls).

    REGISTRY_SIDECAR_BIN=bin/registry-sidecar python tests/bench/bench_analysis.py [--files N] [--rows R]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time
from typing import Any

CITIES = ["Oslo", "Rome", "Lima", "Pune", "Kyiv", "Baku"]
HEADER = ["id", "amount", "name", "city", "qty", "price", "code", "note", "ratio", "flag"]
QUERY = "needle"
#: The result cap ours runs with: none, so that a query is one pass like
#: openpyxl's (with the CLI's default cap of 3000 characters a search pages
#: every dozen hits, and each page scans the workbooks again).
RESULT_CHARS = -1


def generate(path: pathlib.Path, seed: int, rows: int) -> None:
    """One workbook of rows x 10 columns (numbers, text, booleans)."""
    import openpyxl  # type: ignore[import-untyped]

    rnd = random.Random(seed)
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Data")
    ws.append(HEADER)
    for i in range(rows):
        note = "has a needle here" if rnd.random() < 0.01 else f"note {i % 97}"
        ws.append([i + 1, round(rnd.uniform(0, 1000), 2), f"name {rnd.randint(0, 5000)}", rnd.choice(CITIES),
                   rnd.randint(1, 50), round(rnd.uniform(1, 99), 2), f"C{rnd.randint(0, 99999):05d}", note,
                   rnd.random(), rnd.random() < 0.5])
    wb.save(path)


def run_child(argv: list[str]) -> tuple[float, int, str]:
    """Run argv, return (wall seconds, peak RSS bytes, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read() if proc.stdout else b""
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{argv[:5]} failed ({code}): {out[-500:]!r} {err[-500:]!r}")
    return wall, usage.ru_maxrss * 1024, out.decode("utf-8", "replace")


def ours(binary: str, work: pathlib.Path, tool: str, args: dict[str, Any]) -> tuple[float, int, list[dict[str, Any]]]:
    """Call a tool through every page; (wall, peak RSS, pages)."""
    wall, rss, pages = 0.0, 0, []
    args = dict(args)
    while True:
        w, r, out = run_child([binary, "call", "--max-result-chars", str(RESULT_CHARS), "--workspace", str(work), tool, json.dumps(args)])
        wall, rss = wall + w, max(rss, r)
        page: dict[str, Any] = json.loads(out)
        if page.get("status") != "success":
            raise SystemExit(f"{tool}: {out[:500]}")
        pages.append(page)
        if not page["has_more"]:
            return wall, rss, pages
        args["offset"] = page["next_offset"]


def child(kind: str, files: list[str]) -> None:
    """The openpyxl side, run in a child process; prints its answer size."""
    import openpyxl

    if kind == "search":
        hits = 0
        for f in files:
            wb = openpyxl.load_workbook(f, read_only=True, data_only=True)
            for ws in wb.worksheets:
                for row in ws.iter_rows(values_only=True):
                    hits += sum(1 for v in row if v is not None and QUERY in str(v).lower())
            wb.close()
        print(hits)
        return
    kept = 0
    for f in files:
        wb = openpyxl.load_workbook(f, read_only=True, data_only=True)
        rows = wb.worksheets[0].iter_rows(values_only=True)
        header = list(next(rows))
        city, amount = header.index("city"), header.index("amount")
        match = [r for r in rows if r[city] == "Oslo" and isinstance(r[amount], (int, float)) and r[amount] > 500]
        match.sort(key=lambda r: r[amount], reverse=True)
        kept += len(match[:100])
        wb.close()
    print(kept)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=3, help="workbooks (N)")
    ap.add_argument("--rows", type=int, default=2000, help="rows per workbook (R)")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.child:
        child(opts.child[0], opts.child[1:])
        return 0
    binary = os.environ.get("REGISTRY_SIDECAR_BIN") or str(pathlib.Path(__file__).resolve().parents[2] / "bin" / "registry-sidecar")
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        names = [f"book{i}.xlsx" for i in range(opts.files)]
        for i, n in enumerate(names):
            generate(work / n, i, opts.rows)
        paths = [str(work / n) for n in names]
        rows = []

        sw, srss, pages = ours(binary, work, "search_excel_values",
                               {"file_path": names[0], "file_paths": names[1:], "query": QUERY, "max_results": 1000})
        got = sum(len(p["matches"]) for p in pages)
        pw, prss, out = run_child([sys.executable, __file__, "--child", "search", *paths])
        if got != int(out) or pages[0]["total_matches"] != got:
            raise SystemExit(f"search answers differ: ours {got}, openpyxl {out.strip()}")
        rows.append((f"search ({got} hits)", sw, pw, srss, prss))

        fw, frss, kept = 0.0, 0, 0
        for n in names:
            w, r, fpages = ours(binary, work, "filter_data", {
                "file_path": n, "conditions": [{"column": "city", "operator": "eq", "value": "Oslo"},
                                               {"column": "amount", "operator": "gt", "value": 500}],
                "sort_by": "amount", "ascending": False, "limit": 100, "max_rows": 100})
            fw, frss, kept = fw + w, max(frss, r), kept + sum(len(p["rows"]) for p in fpages)
        pw, prss, out = run_child([sys.executable, __file__, "--child", "filter", *paths])
        if kept != int(out):
            raise SystemExit(f"filter answers differ: ours {kept}, openpyxl {out.strip()}")
        rows.append((f"filter top-100 x {opts.files} ({kept} rows)", fw, pw, frss, prss))

    print(f"N={opts.files} workbooks of R={opts.rows} rows x 10 columns")
    print(f"{'query':34} {'ours s':>8} {'openpyxl s':>10} {'ratio':>7} {'ours MiB':>9} {'openpyxl MiB':>12}")
    for label, ow, pw, orss, prss in rows:
        print(f"{label:34} {ow:8.2f} {pw:10.2f} {pw / ow:6.1f}x {orss / 2**20:9.0f} {prss / 2**20:12.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
