"""The formula corpus: thousands of generated formulas, judged by LibreOffice, a pass rate per function.

Every function docs/FORMULAS.md says excelize computes, and LibreOffice 25.2 computes too, has an
entry in formula_corpus_table.py: one valid call. From it the generator derives the cases: the call
itself, each argument replaced by other shapes of its kind (numbers negative, zero, fractional and
large; text numbers, text, blank cells, error cells, booleans; ranges, a row, mixed ranges, inline
arrays), the optional arguments left out, and a wrong argument count. Every case is one formula in
one cell of one workbook (DATA, the block every formula reads, then one formula per cell below
each other in column FORMULA_COLUMN):

- ours: the formulas go in through the real binary (`registry-sidecar call write_cells`, in
  blocks) and come back through read_excel (formulas="both": a formula excelize cannot compute
  comes back without a value and fails its case: a function not computed yet is 0%, not a crash);
- LibreOffice's: lo_driver.py opens the same starting workbook, sets the formulas, recalculates
  (calculateAll) and reports the formula cells.

Cell by cell, numbers agree within a relative 1e-9, text exactly, booleans as booleans (Calc
flags a formula whose result it formats as a boolean), errors by code; Calc's own codes
(Err:502) have no Excel spelling, so any error of ours agrees with one. A wrong argument count
(Excel refuses such a formula at input) agrees when both sides give no value.

Known differences between Excel and Calc are left out with their reason (EXCLUDED_FUNCTIONS,
EXCLUDED_CASES in formula_corpus_table.py), never silently; the report lists how many.

`python tests/oracle/formula_corpus.py --report` prints the table per function;
`--write-baseline` records it in formula_corpus_baseline.json, which
tests/python/test_formula_corpus.py holds the engine to.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import oracle  # noqa: E402 - importable once tests/oracle is on sys.path
from formula_corpus_gen import Case, generate  # noqa: E402
from formula_corpus_table import DATA, EXCLUDED_FUNCTIONS  # noqa: E402

BASELINE = HERE / "formula_corpus_baseline.json"
SHEET = "Sheet1"
# FORMULA_COLUMN holds the formulas, one a row from row 1; DATA lives left of it.
FORMULA_COLUMN = "L"
# BLOCK is how many formulas one write_cells call writes.
BLOCK = 5000
BOOK = "corpus.xlsx"


def computed_functions() -> list[str]:
    """The functions docs/FORMULAS.md says excelize computes: excel_functions.txt minus its table."""
    names = []
    for line in (ROOT / "excelops" / "internal" / "recalc" / "excel_functions.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            names.append(line.split("\t")[0])
    doc = (ROOT / "docs" / "FORMULAS.md").read_text()
    section = doc.split("functions excelize cannot compute", 1)[1]
    missing: set[str] = set()
    # Rows of its table: "| NAME, NAME | why |" (the header row names "functions").
    for row in re.findall(r"^\| ([A-Z][A-Z0-9., ]*) \| .+ \|$", section, re.MULTILINE):
        missing.update(n.strip() for n in row.split(","))
    if not missing:
        raise ValueError("docs/FORMULAS.md: the table of functions excelize cannot compute was not found")
    return sorted(n for n in names if n not in missing)


def calc_functions(lo: oracle.LibreOffice, names: list[str], tmp: pathlib.Path) -> set[str]:
    """The names Calc knows as functions: written as =NAME() each, those not #NAME?."""
    ops = [{"op": "set", "sheet": SHEET, "cell": "A1", "values": [[f"={n}()"] for n in names]}]
    book = tmp / "probe.xlsx"
    oracle.build_workbook({"sheets": {SHEET: {}}}, book)
    ans = lo.run(book, ops, only=[f"{SHEET}!A1:A{len(names)}"])
    cells = ans["sheets"][0]["cells"]
    return {n for i, n in enumerate(names) if cells.get(f"A{i + 1}", {}).get("e") != "#NAME?"}


@dataclass
class Outcome:
    """One case's verdict: both values as shown in reports."""

    case: Case
    passed: bool
    ours: Any
    calc: dict[str, Any]


def call_tool(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """One tool call through the binary; the payload (arguments through stdin, no result cap)."""
    proc = subprocess.run([str(sidecar_bin), "call", "--workspace", str(ws), "--max-result-chars", "-1", tool, "-"],
                          input=json.dumps(args), check=False, capture_output=True, text=True, timeout=600)
    if proc.returncode not in (0, 3):
        raise RuntimeError(f"{tool} exited {proc.returncode}: {proc.stderr[-2000:]}")
    payload: dict[str, Any] = json.loads(proc.stdout)
    return payload


def run_ours(cases: list[Case], start: pathlib.Path, sidecar_bin: pathlib.Path, tmp: pathlib.Path) -> list[Any]:
    """read_excel's {"formula", "value"} of every case's cell after write_cells wrote them all.

    A block write_cells refuses (a formula it rejects: the message names the cell) is written
    again without that cell, which then reads as {"refused": message}."""
    ws = tmp / "ours"
    ws.mkdir()
    (ws / BOOK).write_bytes(start.read_bytes())
    refused: dict[int, str] = {}
    for first in range(0, len(cases), BLOCK):
        rows: list[list[str | None]] = [[c.formula] for c in cases[first:first + BLOCK]]
        while True:
            payload = call_tool(sidecar_bin, ws, "write_cells", {
                "file_path": BOOK, "sheet_name": SHEET, "cell_range": f"{FORMULA_COLUMN}{first + 1}", "values": rows})
            if payload.get("status") == "success":
                break
            m = re.match(rf"cell {FORMULA_COLUMN}(\d+)", str(payload.get("message", "")))
            if not m:
                raise RuntimeError(f"write_cells failed: {payload}")
            row = int(m.group(1)) - 1
            refused[row] = str(payload["message"])
            rows[row - first] = [None]
    payload = call_tool(sidecar_bin, ws, "read_excel", {
        "file_path": BOOK, "sheet_name": SHEET, "range": f"{FORMULA_COLUMN}1:{FORMULA_COLUMN}{len(cases)}",
        "formulas": "both", "max_rows": len(cases)})
    if payload.get("status") != "success":
        raise RuntimeError(f"read_excel failed: {payload}")
    values = payload["values"]
    out: list[Any] = []
    for i in range(len(cases)):
        if i in refused:
            out.append({"refused": refused[i]})
        else:
            out.append(values[i][0] if i < len(values) and values[i] else None)
    return out


def run_calc(cases: list[Case], start: pathlib.Path, lo: oracle.LibreOffice) -> list[dict[str, Any]]:
    """Calc's cell (lo_driver's form, booleans flagged "b") of every case."""
    ops = [{"op": "set", "sheet": SHEET, "cell": f"{FORMULA_COLUMN}1", "values": [[c.formula] for c in cases]}]
    ans = lo.run(start, ops, only=[f"{SHEET}!{FORMULA_COLUMN}1:{FORMULA_COLUMN}{len(cases)}"])
    cells = ans["sheets"][0]["cells"] if ans["sheets"] else {}
    return [cells.get(f"{FORMULA_COLUMN}{i + 1}", {}) for i in range(len(cases))]


def is_error(value: Any) -> bool:
    """A value read_excel gives for an error (its Excel text)."""
    return isinstance(value, str) and value.startswith("#") and (value.endswith(("!", "?")) or value == "#N/A")


def agree(case: Case, ours: Any, calc: dict[str, Any]) -> bool:
    """Whether our value is Calc's (the rules in the module docstring)."""
    value = ours.get("value") if isinstance(ours, dict) and "formula" in ours else ours
    no_value = value is None or (isinstance(ours, dict) and "refused" in ours)
    if case.shape == "wrong count" and "e" in calc:
        return no_value or is_error(value)
    if no_value:
        return False
    if "e" in calc:
        if calc["e"].startswith("Err:"):
            return is_error(value)
        return bool(value == calc["e"])
    want = calc.get("v")
    if calc.get("b"):
        return isinstance(value, bool) and value == (want != 0)
    if isinstance(want, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return math.isclose(want, float(value), rel_tol=oracle.REL_TOL, abs_tol=1e-12)
    if want is None:  # Calc shows nothing: an empty text result
        return value == ""
    return bool(value == want)


def build_start(path: pathlib.Path) -> None:
    """The starting workbook: DATA on Sheet1."""
    oracle.build_workbook({"sheets": {SHEET: dict(DATA)}}, path)


def run_corpus(lo: oracle.LibreOffice, sidecar_bin: pathlib.Path, tmp: pathlib.Path,
               cases: list[Case] | None = None) -> list[Outcome]:
    """Every case through both sides, one verdict each."""
    cases = generate() if cases is None else cases
    start = tmp / "start.xlsx"
    build_start(start)
    ours = run_ours(cases, start, sidecar_bin, tmp)
    calc = run_calc(cases, start, lo)
    return [Outcome(c, agree(c, o, k), o, k) for c, o, k in zip(cases, ours, calc, strict=True)]


def has_value(o: Outcome) -> bool:
    """Whether our side gave the formula a value (excelize computed it)."""
    return isinstance(o.ours, dict) and "formula" in o.ours and o.ours.get("value") is not None


def table(outcomes: list[Outcome]) -> dict[str, dict[str, Any]]:
    """Per function: cases, passed, failures without a value (excelize gave none: Excel and Calc
    compute it on open) and the first failure, a wrong value before a missing one."""
    out: dict[str, dict[str, Any]] = {}
    for o in outcomes:
        row = out.setdefault(o.case.function, {"cases": 0, "passed": 0, "no_value": 0, "first_failure": None})
        row["cases"] += 1
        if o.passed:
            row["passed"] += 1
            continue
        if not has_value(o):
            row["no_value"] += 1
        first = row["first_failure"]
        if first is None or (first["no_value"] and has_value(o)):
            row["first_failure"] = {"formula": o.case.formula, "shape": o.case.shape, "ours": o.ours, "calc": o.calc,
                                    "no_value": not has_value(o)}
    return dict(sorted(out.items()))


def baseline_of(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, int]]:
    """What the baseline file records: per function cases and passed."""
    return {fn: {"cases": r["cases"], "passed": r["passed"]} for fn, r in rows.items()}


def show_value(v: Any) -> str:
    """A value as the report shows it: ours without the formula read_excel repeats."""
    if isinstance(v, dict) and "formula" in v:
        v = v.get("value")
    elif isinstance(v, dict) and "f" in v:
        v = {k: x for k, x in v.items() if k != "f"}
    return json.dumps(v, ensure_ascii=False)


def report(rows: dict[str, dict[str, Any]], only_failing: bool) -> str:
    """The per-function table: function, cases, passed, rate, failures without a value, and the
    first failing formula (a wrong value before a missing one) with both values."""
    lines = [f"{'function':<18} {'cases':>5} {'passed':>6} {'rate':>6} {'novalue':>7}  first failure: formula  ours | Calc"]
    total = passed = novalue = 0
    for fn, r in rows.items():
        total += r["cases"]
        passed += r["passed"]
        novalue += r["no_value"]
        if only_failing and r["passed"] == r["cases"]:
            continue
        ff = r["first_failure"]
        tail = f"{ff['formula']}  {show_value(ff['ours'])} | {show_value(ff['calc'])}" if ff else ""
        lines.append(f"{fn:<18} {r['cases']:>5} {r['passed']:>6} {r['passed'] / r['cases']:>6.1%} {r['no_value']:>7}  {tail}")
    lines.append(f"{'TOTAL':<18} {total:>5} {passed:>6} {passed / max(total, 1):>6.1%} {novalue:>7}  "
                 f"({len(rows)} functions; {len(EXCLUDED_FUNCTIONS)} functions and "
                 f"{excluded_case_count()} cases excluded with a reason)")
    return "\n".join(lines)


def excluded_case_count() -> int:
    from formula_corpus_gen import excluded_cases

    return len(excluded_cases())


def excluded_report() -> str:
    """Every function and case left out, with its reason."""
    from formula_corpus_gen import excluded_cases

    lines = [f"{fn}: {why}" for fn, why in sorted(EXCLUDED_FUNCTIONS.items())]
    for case, why in excluded_cases():
        lines.append(f"{case.formula}  ({case.shape}): {why}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--report", action="store_true", help="print the per-function table")
    ap.add_argument("--failing", action="store_true", help="with --report: only functions below 100%%")
    ap.add_argument("--write-baseline", action="store_true", help="record the pass counts in " + BASELINE.name)
    ap.add_argument("--excluded", action="store_true", help="list what is left out and why, then stop")
    ap.add_argument("--function", action="append", default=[], help="run only these functions")
    ap.add_argument("--dump", help="write every outcome as JSON lines to this file")
    ap.add_argument("--bin", default=str(ROOT / "bin" / "registry-sidecar"), help="the registry-sidecar binary")
    args = ap.parse_args(argv)
    if args.excluded:
        print(excluded_report())
        return 0
    why = oracle.unavailable()
    if why:
        print(f"LibreOffice oracle unavailable: {why}", file=sys.stderr)
        return 2
    cases = generate()
    if args.function:
        wanted = {f.upper() for f in args.function}
        cases = [c for c in cases if c.function in wanted]
    lo = oracle.LibreOffice()
    try:
        with tempfile.TemporaryDirectory(prefix="formula-corpus-") as tmp:
            began = time.monotonic()
            outcomes = run_corpus(lo, pathlib.Path(args.bin), pathlib.Path(tmp), cases)
            took = time.monotonic() - began
    finally:
        lo.close()
    rows = table(outcomes)
    if args.dump:
        with open(args.dump, "w") as fh:
            for o in outcomes:
                fh.write(json.dumps({"function": o.case.function, "shape": o.case.shape, "formula": o.case.formula,
                                     "passed": o.passed, "ours": o.ours, "calc": o.calc}, ensure_ascii=False) + "\n")
    if args.report or not args.write_baseline:
        print(report(rows, args.failing))
        print(f"{len(outcomes)} cases in {took:.1f}s")
    if args.write_baseline:
        lines = [f"  {json.dumps(fn)}: {json.dumps(r)}" for fn, r in baseline_of(rows).items()]
        BASELINE.write_text("{\n" + ",\n".join(lines) + "\n}\n")
        print(f"wrote {BASELINE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
