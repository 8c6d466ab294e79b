"""Round-trip every workbook of a folder through the real binary and count what an edit disturbs.

For each workbook and each worksheet, on a fresh copy each time:

* write_cells: one number just below the sheet's used range (first used column, last used
  row + 1; A1 on an empty sheet);
* format_cells: bold on that same cell (the splice path; the style table gains records);
* write_text: a new text in that same cell through the excelize path (`--splice=false`; the
  shared string table gains a record, or is added);
* insert_rows: one row before row 2;
* write_input: the first number cell a formula of the sheet reads, plus one (so that formulas
  must be recomputed).

After each edit the old and new zips are compared entry by entry (rules.py says which changed
entries are expected), and every formula cell whose inputs did not change must keep its cached
<v> text byte for byte (drift). Every call is timed and its debug log read: the path its save
took (splice or excelize) and, for a fallback, the splice path's reason. Usage:

    python tests/corpus/corpus.py [--bin PATH] [--jobs N] [--report FILE] [--update] [FOLDER]

FOLDER defaults to tests/corpus/sample. --update rewrites tests/corpus/baseline.json from the
run; without it, the run is compared to the baseline when FOLDER is the committed sample.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from xml.etree import ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import judge  # noqa: E402
import rules  # noqa: E402
import workbook_parts as wp  # noqa: E402

ROOT = HERE.parents[1]
SAMPLE = HERE / "sample"
BASELINE = HERE / "baseline.json"
TOOLS = ("write_cells", "format_cells", "write_text", "insert_rows", "write_input")
# WRITE_TEXT is the text write_text writes: new to every workbook, with characters to escape.
WRITE_TEXT = "corpus text ✓ <&>"
# BASELINE_FIGURES are the summary figures baseline.json holds; those in HIGHER_IS_BETTER must
# not fall, the others must not rise.
BASELINE_FIGURES = ("files_unexpected", "drift_cells", "files_drift", "files_error", "splice_share", "disagree_cells")
HIGHER_IS_BETTER = frozenset({"splice_share"})


def call(binary: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any],
         flags: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """call runs one tool through `registry-sidecar call` and returns its payload and how it ran.

    How it ran: seconds (wall time of the process), path ("splice", "excelize" or None when
    nothing was saved) and reason (the splice path's fallback reason, or None).
    """
    start = time.monotonic()
    proc = subprocess.run(
        [str(binary), "call", "--log-level", "debug", *flags, "--workspace", str(ws), tool, json.dumps(args)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    seconds = time.monotonic() - start
    try:
        payload: dict[str, Any] = json.loads(proc.stdout)
    except json.JSONDecodeError:
        payload = {"status": "error", "message": (proc.stdout + proc.stderr)[-500:]}
    return payload, {"seconds": round(seconds, 3), **save_path(proc.stderr)}


def save_path(stderr: str) -> dict[str, Any]:
    """save_path reads the JSON log lines of one call: the path of its save and its fallback reason."""
    out: dict[str, Any] = {"path": None, "reason": None}
    for line in stderr.splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(entry, dict):
            continue
        if entry.get("splice_fallback"):
            out["reason"] = entry["splice_fallback"]
        if entry.get("msg") == "workbook saved":
            out["path"] = entry.get("path")
    return out


def defined_names(parts: dict[str, bytes]) -> set[str]:
    """defined_names lists the workbook's defined names, lower-cased."""
    root = ET.fromstring(parts["xl/workbook.xml"])
    return {(d.get("name") or "").lower() for d in root.iter(f"{{{wp.NS_MAIN}}}definedName")}


def drift(
    old: dict[str, bytes], new: dict[str, bytes], old_sheets: list[wp.Sheet], edited: wp.Sheet,
    tool: str, target: tuple[int, int], names: set[str],
) -> list[str]:
    """drift lists the formula cells whose inputs did not change but whose cached value did."""
    out = []
    for sh in old_sheets:
        before = wp.formula_cells(old[sh.part])
        after = wp.formula_cells(new[sh.part]) if sh.part in new else {}
        for (r, c), cell in sorted(before.items()):
            if cell.value is None or rules.POSITIONAL_FUNCS.search(cell.formula):
                continue
            if tool in WRITES and rules.may_see(cell.formula, sh.name, edited.name, target[0], target[1], names):
                continue
            if tool == "insert_rows" and rules.spans(cell.formula, sh.name, edited.name, target[0]):
                continue
            moved = (r + 1, c) if tool == "insert_rows" and sh.part == edited.part and r >= target[0] else (r, c)
            got = after.get(moved)
            now = None if got is None else got.value
            if now != cell.value:
                out.append(f"{sh.name}!{wp.col_letters(c)}{r}: {cell.value!r} -> {now!r}")
    return out


# WRITES are the tools that write one cell below the used range.
WRITES = ("write_cells", "format_cells", "write_text")


def recomputed(old: dict[str, bytes], new: dict[str, bytes], old_sheets: list[wp.Sheet], edited: wp.Sheet,
               tool: str, target: tuple[int, int]) -> list[judge.Recomputed]:
    """recomputed lists the formula cells whose cached value the edit changed (moved with it): what
    our engine computed anew, for LibreOffice to judge."""
    out = []
    for sh in old_sheets:
        if sh.part not in new:
            continue
        before = wp.formula_cells(old[sh.part])
        shifted = tool == "insert_rows" and sh.part == edited.part
        for (r, c), cell in sorted(wp.formula_cells(new[sh.part]).items()):
            at_old = (r - 1, c) if shifted and r > target[0] else (r, c)
            was = before.get(at_old)
            if cell.value is None or (was is not None and was.value == cell.value):
                continue  # kept, or left uncomputed (see uncomputed)
            out.append(judge.Recomputed(sh.name, (r, c), at_old, cell.value, None if was is None else was.value))
    return out


def input_cell(sheet_xml: bytes, sheet: str) -> tuple[tuple[int, int], float] | None:
    """input_cell is the first number cell (row order) that a formula of the same sheet reads, and
    its value: the cell write_input changes so that formulas must be recomputed."""
    numbers = wp.number_cells(sheet_xml)
    if not numbers:
        return None
    read = [ref for cell in wp.formula_cells(sheet_xml).values() for ref in rules.references(cell.formula, sheet)]
    for (r, c), v in sorted(numbers.items()):
        if any(s == sheet and r1 <= r <= r2 and c1 <= c <= c2 for s, r1, c1, r2, c2 in read):
            return (r, c), v
    return None


def uncomputed(old: dict[str, bytes], new: dict[str, bytes], old_sheets: list[wp.Sheet], edited: wp.Sheet,
               tool: str, target: tuple[int, int]) -> int:
    """uncomputed counts the formula cells that held a cached value and hold none after the edit:
    values the engine could not compute exactly, left for Excel to compute on open."""
    n = 0
    for sh in old_sheets:
        if sh.part not in new:
            continue
        after = wp.formula_cells(new[sh.part])
        shifted = tool == "insert_rows" and sh.part == edited.part
        for (r, c), cell in wp.formula_cells(old[sh.part]).items():
            now = after.get((r + 1, c) if shifted and r >= target[0] else (r, c))
            n += cell.value is not None and now is not None and now.value is None
    return n


def check_file(binary: pathlib.Path, path: pathlib.Path, lo: judge.Judge | None = None) -> dict[str, Any]:
    """check_file runs both edits on every worksheet of one workbook and returns what each disturbed."""
    result: dict[str, Any] = {t: {"errors": [], "unexpected": [], "drift": [], "disagree": [], "calls": []} for t in TOOLS}
    try:
        old = wp.entries(str(path))
        old_sheets = wp.sheets(old)
        names = defined_names(old)
    except Exception as exc:  # a workbook the harness itself cannot read is reported, not fatal
        result["unreadable"] = f"{type(exc).__name__}: {exc}"
        return result
    result["sheets"] = len(old_sheets)
    with tempfile.TemporaryDirectory(prefix="corpus-") as tmp:
        ws = pathlib.Path(tmp)
        book = ws / ("book" + path.suffix)
        for sh in old_sheets:
            for tool in TOOLS:
                shutil.copyfile(path, book)
                if tool == "write_input":
                    found = input_cell(old[sh.part], sh.name)
                    if found is None:
                        continue
                    target, value = found
                    args: dict[str, Any] = {"file_path": book.name, "sheet_name": sh.name,
                                            "cell": f"{wp.col_letters(target[1])}{target[0]}", "value": value + 1}
                    allowed = set()
                elif tool in WRITES:
                    used = wp.used_range(old[sh.part])
                    target = (1, 1) if used is None else (used[2] + 1, used[1])
                    cell = f"{wp.col_letters(target[1])}{target[0]}"
                    args = {"file_path": book.name, "sheet_name": sh.name, "cell": cell, "value": 42}
                    if tool == "format_cells":
                        args = {"file_path": book.name, "sheet_name": sh.name, "cell_range": cell, "font": {"bold": True}}
                    elif tool == "write_text":
                        args["value"] = WRITE_TEXT
                    allowed = rules.allowed_write(sh.part)
                else:
                    target = (2, 1)
                    args = {"file_path": book.name, "sheet_name": sh.name, "row": 2, "count": 1}
                    allowed = rules.allowed_insert(old, sh.name, sh.part, sh.related)
                flags = ("--splice=false",) if tool == "write_text" else ()
                payload, ran = call(binary, ws, "write_cells" if tool in ("write_input", "write_text") else tool, args, flags)
                res = result[tool]
                res["calls"].append({"sheet": sh.name, **ran})
                if payload.get("status") != "success":
                    res["errors"].append(f"{sh.name}: {payload.get('exception', '')} {payload.get('message', '')}"[:300])
                    continue
                new = wp.entries(str(book))
                if tool != "write_input":  # an input changed: its dependents rightly change
                    bad = sorted(rules.changed_entries(old, new) - allowed)
                    if tool in ("format_cells", "write_text"):  # list parts may gain records
                        bad = [e for e in bad if not appended(old.get(e), new.get(e))]
                    res["unexpected"] = sorted(set(res["unexpected"]) | {f"{sh.name}: {e}" for e in bad})
                    res["drift"].extend(f"[{sh.name}] {d}" for d in drift(old, new, old_sheets, sh, tool, target, names))
                if lo is not None:
                    fresh = recomputed(old, new, old_sheets, sh, tool, target)
                    res["recomputed"] = res.get("recomputed", 0) + len(fresh)
                    res["uncomputed"] = res.get("uncomputed", 0) + uncomputed(old, new, old_sheets, sh, tool, target)
                    res["disagree"].extend(f"[{sh.name}] {d}" for d in lo.disagreements(path, book, fresh))
    return result


def appended(old: bytes | None, new: bytes | None) -> bool:
    """appended tells a list part that only gained records (or a new list part: the shared string
    table an edit adds) from one rewritten or removed."""
    if new is None or not rules.is_list_part(new):
        return False
    return old is None or rules.appended_only(old, new)


def summarise(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """summarise counts, per tool, the files with an unexpected entry, the drifted cells and the errors."""
    out: dict[str, Any] = {"files": len(results), "unreadable": sorted(n for n, r in results.items() if "unreadable" in r)}
    for tool in TOOLS:
        per = {n: r[tool] for n, r in results.items()}
        out[tool] = {
            "files_unexpected": sum(1 for r in per.values() if r["unexpected"]),
            "drift_cells": sum(len(r["drift"]) for r in per.values()),
            "files_drift": sum(1 for r in per.values() if r["drift"]),
            "files_error": sum(1 for r in per.values() if r["errors"]),
            "recomputed_cells": sum(r.get("recomputed", 0) for r in per.values()),
            "disagree_cells": sum(len(r.get("disagree", [])) for r in per.values()),
            "uncomputed_cells": sum(r.get("uncomputed", 0) for r in per.values()),
            **paths(per),
        }
    return out


def paths(per: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """paths sums up how one tool's calls ran: the share of saves that took the splice path, the
    fallback reasons with their counts, the slowest call and its file."""
    saved = spliced = 0
    reasons: dict[str, int] = {}
    slowest, slowest_file = 0.0, None
    for name, r in sorted(per.items()):
        for c in r.get("calls", []):
            if c["seconds"] > slowest:
                slowest, slowest_file = c["seconds"], f"{name} [{c['sheet']}]"
            if c["path"] is None:
                continue
            saved += 1
            if c["path"] == "splice":
                spliced += 1
            else:
                reason = c["reason"] or "no splice plan"
                reasons[reason] = reasons.get(reason, 0) + 1
    return {
        "splice_share": round(spliced / saved, 4) if saved else 0.0,
        "saves": saved,
        "fallback_reasons": dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        "max_seconds": round(slowest, 3),
        "slowest_file": slowest_file,
    }


def entry_kinds(results: dict[str, dict[str, Any]], tool: str) -> dict[str, int]:
    """entry_kinds counts the unexpected entries by name with digits folded (sheet3.xml -> sheetN.xml)."""
    kinds: dict[str, int] = {}
    for r in results.values():
        seen = {re.sub(r"\d+", "N", e.split(": ", 1)[1]) for e in r[tool]["unexpected"]}
        for k in seen:
            kinds[k] = kinds.get(k, 0) + 1
    return dict(sorted(kinds.items(), key=lambda kv: -kv[1]))


def run(folder: pathlib.Path, binary: pathlib.Path, jobs: int, lo: judge.Judge | None = None) -> dict[str, dict[str, Any]]:
    """run checks every .xlsx and .xlsm workbook of folder with jobs threads and returns the results by file name;
    with lo, LibreOffice judges every recomputed value."""
    files = sorted(p for p in folder.iterdir() if p.suffix in (".xlsx", ".xlsm"))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        done = pool.map(lambda p: (p.name, check_file(binary, p, lo)), files)
        return dict(done)


def open_judge() -> judge.Judge | None:
    """open_judge starts LibreOffice as the judge of recomputed values, or says on stderr why it
    cannot (no soffice or python3-uno) and returns None."""
    import oracle  # type: ignore[import-not-found]  # tests/oracle, on sys.path via judge

    why = oracle.unavailable()
    if why:
        print(f"LibreOffice judge unavailable: {why}", file=sys.stderr)
        return None
    return judge.Judge()


def regressions(summary: dict[str, Any], results: dict[str, dict[str, Any]], baseline: dict[str, Any]) -> list[str]:
    """regressions lists how the run is worse than the baseline: a higher count, a lower splice
    share, or a file clean there and not here."""
    out = []
    for tool in TOOLS:
        for key, was in baseline["summary"][tool].items():
            now = summary[tool][key]
            if key in HIGHER_IS_BETTER:
                if now < was:
                    out.append(f"{tool} {key}: {now} < baseline {was}")
            elif now > was:
                out.append(f"{tool} {key}: {now} > baseline {was}")
        for name, r in results.items():
            base = baseline["files"].get(name, {}).get(tool, {})
            for key in ("unexpected", "drift", "errors", "disagree"):
                extra = sorted(set(r[tool].get(key, [])) - set(base.get(key, [])))
                if extra:
                    out.append(f"{tool} {name} new {key}: {extra[:5]}")
    return out


def main(argv: list[str] | None = None) -> int:
    """main is the command line: run a folder, print the figures, compare or update the baseline."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", nargs="?", default=str(SAMPLE))
    ap.add_argument("--bin", default=os.environ.get("REGISTRY_SIDECAR_BIN", str(ROOT / "bin" / "registry-sidecar")))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--report", help="write every file's findings as JSON here")
    ap.add_argument("--update", action="store_true", help="rewrite tests/corpus/baseline.json from this run")
    ap.add_argument("--no-judge", action="store_true", help="do not ask LibreOffice about recomputed values")
    ns = ap.parse_args(argv)
    folder = pathlib.Path(ns.folder).resolve()
    start = time.monotonic()
    lo = None if ns.no_judge else open_judge()
    try:
        results = run(folder, pathlib.Path(ns.bin), ns.jobs, lo)
    finally:
        if lo is not None:
            lo.close()
    summary = summarise(results)
    summary["seconds"] = round(time.monotonic() - start, 1)
    for tool in TOOLS:
        summary[tool]["entries"] = entry_kinds(results, tool)
    print(json.dumps(summary, indent=2))
    if ns.report:
        pathlib.Path(ns.report).write_text(json.dumps({"summary": summary, "files": results}, indent=1, sort_keys=True) + "\n")
    if ns.update:
        BASELINE.write_text(json.dumps(baseline_of(summary, results), indent=1, sort_keys=True) + "\n")
        return 0
    if folder == SAMPLE.resolve():
        worse = regressions(summary, results, json.loads(BASELINE.read_text()))
        for line in worse:
            print("WORSE:", line)
        return 1 if worse else 0
    return 0


def baseline_of(summary: dict[str, Any], results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """baseline_of keeps the counts and, per file, only the findings (clean files are left out)."""
    counts = {t: {k: summary[t][k] for k in BASELINE_FIGURES} for t in TOOLS}
    findings = ("unexpected", "drift", "errors", "disagree")
    files = {n: {t: {k: r[t].get(k, []) for k in findings} for t in TOOLS}
             for n, r in results.items() if any(r[t].get(k) for t in TOOLS for k in findings)}
    return {"summary": counts, "files": files}


if __name__ == "__main__":
    sys.exit(main())
