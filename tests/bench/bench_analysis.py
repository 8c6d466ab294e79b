"""search_excel_values, filter_data and inspect_excel_files vs openpyxl, measured in the same run.

Generates N workbooks of R rows x 10 columns (as openpyxl saves a workbook,
with its <dimension>; at most 10 distinct ones, the rest byte copies, so that
generation stays short; each file is still opened and read on its own), then
answers three queries both ways, each in its own child process so that its
peak RSS (ru_maxrss, from os.wait4) is its own:

- search: every cell containing "needle" (any case) in all N workbooks; ours
  is one search_excel_values call (file_path + file_paths, max_results above
  the hits: one page), openpyxl a read-only scan of every cell; the two hit
  lists (file, row, column) must be equal;
- filter: in each workbook, the rows with city == "Oslo" and amount > 500,
  sorted by amount descending, top 100; ours is one filter_data call per
  workbook, openpyxl a read-only scan, a stable sort and a cut;
- inspect: every workbook of the folder with its sheets, used range, header
  and 3 preview rows of 15 columns; ours is one inspect_excel_files call,
  openpyxl a read-only open of each file (its dimension, first 4 rows).

With --big R2, the three queries run again on one workbook of R2 rows (memory
must stay flat in the workbook's size).

Ours runs through the binary's `call` subcommand with no result cap (one
process per call: process start and workbook open are included, nothing is
cached). Both answers are compared before a time is reported. Prints wall
seconds, the ratio openpyxl / ours (above 1: we are faster) and peak RSS of
each side (ours: the largest of its calls; measured by /usr/bin/time).

    REGISTRY_SIDECAR_BIN=bin/registry-sidecar python tests/bench/bench_analysis.py [--files N] [--rows R] [--big R2]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

CITIES = ["Oslo", "Rome", "Lima", "Pune", "Kyiv", "Baku"]
HEADER = ["id", "amount", "name", "city", "qty", "price", "code", "note", "ratio", "flag"]
QUERY = "needle"
#: Distinct workbooks generated; the rest are byte copies of them.
DISTINCT = 10
#: The result cap ours runs with: none, so that a query is one pass like
#: openpyxl's (with the CLI's default cap of 3000 characters a search pages
#: every dozen hits, and each page scans the workbooks again).
RESULT_CHARS = -1


def generate(path: pathlib.Path, seed: int, rows: int) -> None:
    """One workbook of rows x 10 columns (numbers, text, booleans)."""
    import openpyxl  # type: ignore[import-untyped]

    rnd = random.Random(seed)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(HEADER)
    for i in range(rows):
        note = "has a needle here" if rnd.random() < 0.01 else f"note {i % 97}"
        ws.append([i + 1, round(rnd.uniform(0, 1000), 2), f"name {rnd.randint(0, 5000)}", rnd.choice(CITIES),
                   rnd.randint(1, 50), round(rnd.uniform(1, 99), 2), f"C{rnd.randint(0, 99999):05d}", note,
                   rnd.random(), rnd.random() < 0.5])
    wb.save(path)


def spawn(jobs: list[tuple[pathlib.Path, int, int]]) -> None:
    """Generate workbooks in child processes, two at a time: the parent stays
    small, and a child's peak RSS does not start from the parent's (Linux
    counts the parent's peak at fork in the child's ru_maxrss)."""
    running: list[subprocess.Popen[bytes]] = []
    for path, seed, rows in jobs:
        if len(running) == 2:
            check(running.pop(0))
        running.append(subprocess.Popen([sys.executable, __file__, "--generate", str(path), str(seed), str(rows)]))
    for proc in running:
        check(proc)


def check(proc: subprocess.Popen[bytes]) -> None:
    """Wait for a generator and fail on its failure."""
    if proc.wait() != 0:
        raise SystemExit(f"{proc.args!r} failed ({proc.returncode})")


def run_child(argv: list[str]) -> tuple[float, int, str]:
    """Run argv, return (wall seconds, peak RSS bytes, stdout). The peak is
    read by /usr/bin/time where it exists: a child forked from this process
    starts its ru_maxrss at this process's peak (Linux carries it over a
    fork), which would floor every figure at the parent's size."""
    timer = shutil.which("time", path="/usr/bin")
    with tempfile.NamedTemporaryFile("r") as peak:
        wrapped = [timer, "-q", "-f", "%M", "-o", peak.name, *argv] if timer else argv
        start = time.perf_counter()
        proc = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = proc.stdout.read() if proc.stdout else b""
        err = proc.stderr.read() if proc.stderr else b""
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            raise SystemExit(f"{argv[:5]} failed ({code}): {out[-500:]!r} {err[-500:]!r}")
        rss = int(peak.read().split()[-1]) * 1024 if timer else usage.ru_maxrss * 1024
    return wall, rss, out.decode("utf-8", "replace")


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
        hits: list[list[int]] = []
        for n, f in enumerate(files):
            wb = openpyxl.load_workbook(f, read_only=True, data_only=True)
            for ws in wb.worksheets:
                for r, row in enumerate(ws.iter_rows(values_only=True), start=1):
                    hits.extend([n, r, c] for c, v in enumerate(row) if v is not None and QUERY in str(v).lower())
            wb.close()
        print(json.dumps(hits))
        return
    if kind == "inspect":
        seen = []
        for f in files:
            wb = openpyxl.load_workbook(f, read_only=True, data_only=True)
            for ws in wb.worksheets:
                rows = list(ws.iter_rows(min_row=1, max_row=4, max_col=15, values_only=True))
                seen.append([ws.title, ws.calculate_dimension(), [v for v in rows[0] if v is not None]])
            wb.close()
        print(json.dumps(seen))
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


def queries(binary: str, work: pathlib.Path, names: list[str], label: str, which: set[str]) -> list[tuple[str, float, float, int, int]]:
    """The queries named in which over the workbooks names in work, ours then openpyxl's."""
    paths = [str(work / n) for n in names]
    rows: list[tuple[str, float, float, int, int]] = []
    if "search" in which:
        rows += search_query(binary, work, names, paths, label)
    if "filter" in which:
        rows += filter_query(binary, work, names, paths, label)
    if "inspect" in which:
        rows += inspect_query(binary, work, paths, label)
    return rows


def search_query(binary: str, work: pathlib.Path, names: list[str], paths: list[str], label: str) -> list[tuple[str, float, float, int, int]]:
    """search_excel_values in one call vs an openpyxl scan of every cell."""
    sw, srss, pages = ours(binary, work, "search_excel_values",
                           {"file_path": names[0], "file_paths": names[1:], "query": QUERY, "max_results": 10**7})
    got = [[names.index(m.get("file", names[0])), m["row"], col_index(m["cell_ref"])] for p in pages for m in p["matches"]]
    pw, prss, out = run_child([sys.executable, __file__, "--child", "search", *paths])
    if got != json.loads(out) or pages[0]["total_matches"] != len(got):
        raise SystemExit(f"search answers differ: ours {len(got)} hits, openpyxl {len(json.loads(out))}")
    return [(f"search {label} ({len(got)} hits)", sw, pw, srss, prss)]


def filter_query(binary: str, work: pathlib.Path, names: list[str], paths: list[str], label: str) -> list[tuple[str, float, float, int, int]]:
    """filter_data per workbook vs an openpyxl scan, sort and cut."""
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
    return [(f"filter top-100 {label} ({kept} rows)", fw, pw, frss, prss)]


def inspect_query(binary: str, work: pathlib.Path, paths: list[str], label: str) -> list[tuple[str, float, float, int, int]]:
    """inspect_excel_files over the folder vs an openpyxl open of each file."""
    iw, irss, ipages = ours(binary, work, "inspect_excel_files", {"max_files": 200, "preview_rows": 3, "max_columns": 15})
    seen = [[sh["name"], sh["used_range"], sh["header"]] for p in ipages for f in p["files"] for sh in f["sheets"]]
    pw, prss, out = run_child([sys.executable, __file__, "--child", "inspect", *paths])
    if seen != json.loads(out):
        raise SystemExit(f"inspect answers differ: ours {seen[:2]}, openpyxl {json.loads(out)[:2]}")
    return [(f"inspect {label} ({len(seen)} sheets)", iw, pw, irss, prss)]


def col_index(ref: str) -> int:
    """0-based column of a cell reference such as "AB12"."""
    n = 0
    for ch in ref:
        if not ch.isalpha():
            break
        n = n * 26 + ord(ch.upper()) - 64
    return n - 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=3, help="workbooks (N)")
    ap.add_argument("--rows", type=int, default=2000, help="rows per workbook (R)")
    ap.add_argument("--big", type=int, default=0, help="rows of one more, big workbook (R2; 0: none)")
    ap.add_argument("--queries", default="search,filter,inspect", help="which queries to run, comma-separated")
    ap.add_argument("--big-only", action="store_true", help="skip the N workbooks: only the big one")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    ap.add_argument("--generate", nargs=3, help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.generate:
        generate(pathlib.Path(opts.generate[0]), int(opts.generate[1]), int(opts.generate[2]))
        return 0
    if opts.child:
        child(opts.child[0], opts.child[1:])
        return 0
    binary = os.environ.get("REGISTRY_SIDECAR_BIN") or str(pathlib.Path(__file__).resolve().parents[2] / "bin" / "registry-sidecar")
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp) / "many"
        work.mkdir()
        names = [f"book{i:03d}.xlsx" for i in range(opts.files)]
        which = set(opts.queries.split(","))
        rows = []
        if not opts.big_only:
            spawn([(work / n, i, opts.rows) for i, n in enumerate(names[:DISTINCT])])
            for i, n in enumerate(names[DISTINCT:], start=DISTINCT):
                shutil.copyfile(work / names[i % DISTINCT], work / n)
            rows = queries(binary, work, names, f"x {opts.files}", which)
        if opts.big:
            big = pathlib.Path(tmp) / "big"
            big.mkdir()
            spawn([(big / "big.xlsx", 1000, opts.big)])
            rows += queries(binary, big, ["big.xlsx"], f"{opts.big} rows", which)

    print(f"N={opts.files} workbooks of R={opts.rows} rows x 10 columns" + (f", and one of {opts.big} rows" if opts.big else ""))
    print(f"{'query':34} {'ours s':>8} {'openpyxl s':>10} {'ratio':>7} {'ours MiB':>9} {'openpyxl MiB':>12}")
    for label, ow, pw, orss, prss in rows:
        print(f"{label:34} {ow:8.2f} {pw:10.2f} {pw / ow:6.1f}x {orss / 2**20:9.0f} {prss / 2**20:12.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
