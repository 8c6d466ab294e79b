"""LibreOffice decides formula semantics: every case runs in Calc and through our tools.

Each case (tables in tests/oracle/cases_*.py, format in tests/oracle/README.md) starts
from one workbook, applies the same operations in LibreOffice (lo_driver.py) and through
the real binary (`registry-sidecar call`), lets LibreOffice open and recalculate our
result, and compares formulas and values cell by cell.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import shutil
import subprocess
import sys
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

import oracle  # noqa: E402 - importable once tests/oracle is on sys.path

# BOOK is the workbook's name inside each case's workspace.
BOOK = "book.xlsx"


def load_cases() -> list[dict[str, Any]]:
    """Every case of every tests/oracle/cases_*.py table, names unique."""
    cases: list[dict[str, Any]] = []
    for mod in sorted((ROOT / "tests" / "oracle").glob("cases_*.py")):
        cases.extend(importlib.import_module(mod.stem).CASES)
    names = [c["name"] for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, f"duplicate oracle case names: {dup}"
    return cases


CASES = load_cases()


def params() -> list[Any]:
    out = []
    for c in CASES:
        marks = [pytest.mark.xfail(reason=c["xfail"], strict=True)] if c.get("xfail") else []
        out.append(pytest.param(c, id=c["name"], marks=marks))
    return out


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Run one tool through the binary: (succeeded, payload)."""
    proc = subprocess.run([str(sidecar_bin), "call", "--workspace", str(ws), tool, json.dumps(args)],
                          check=False, capture_output=True, text=True, timeout=120)
    payload: dict[str, Any] = json.loads(proc.stdout)
    assert proc.returncode in (0, 3), (proc.returncode, proc.stdout, proc.stderr)
    return proc.returncode == 0 and payload.get("status") == "success", payload


def start_workbook(libreoffice: oracle.LibreOffice, case: dict[str, Any], tmp: pathlib.Path,
                   sidecar_bin: pathlib.Path) -> pathlib.Path:
    """The case's starting workbook: built by openpyxl, its pivot tables added by create_pivot_table,
    saved again by LibreOffice if asked."""
    built = tmp / "built.xlsx"
    oracle.build_workbook(case, built)
    if case.get("pivots"):
        pivot_ws = tmp / "pivots"
        pivot_ws.mkdir()
        shutil.copy(built, pivot_ws / BOOK)
        for args in case["pivots"]:
            ok, payload = call(sidecar_bin, pivot_ws, "create_pivot_table", {"file_path": BOOK, **args})
            assert ok, f"create_pivot_table {args} failed: {payload}"
        shutil.copy(pivot_ws / BOOK, built)
    if case.get("saved_by", "openpyxl") == "openpyxl":
        return built
    assert case["saved_by"] == "libreoffice", case["saved_by"]
    saved = tmp / "saved.xlsx"
    libreoffice.run(built, [], save=saved)
    return saved


def read_values(sidecar_bin: pathlib.Path, ws: pathlib.Path, sheet: str, cells: dict[str, Any],
                mode: str) -> dict[str, Any]:
    """What read_excel (one range read, formulas=mode) returns for each of cells."""
    if not cells:
        return {}
    pos = {ref: oracle.split_ref(ref) for ref in cells}
    cols = max(c for c, _ in pos.values())
    rows = max(r for _, r in pos.values())
    ok, payload = call(sidecar_bin, ws, "read_excel", {
        "file_path": BOOK, "sheet_name": sheet, "range": f"A1:{oracle.col_name(cols)}{rows}",
        "formulas": mode, "max_rows": rows})
    assert ok, payload
    values = payload["values"]
    got = {}
    for ref, (c, r) in pos.items():
        row = values[r - 1] if r - 1 < len(values) else []
        got[ref] = row[c - 1] if c - 1 < len(row) else None
    return got


@pytest.mark.parametrize("case", params())
def test_oracle(case: dict[str, Any], libreoffice: oracle.LibreOffice, sidecar_bin: pathlib.Path,
                tmp_path: pathlib.Path) -> None:
    start = start_workbook(libreoffice, case, tmp_path, sidecar_bin)
    want = libreoffice.run(start, case["ops"])

    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(start, ws / BOOK)
    for op in case["ops"]:
        tool, args = oracle.tool_calls(op, BOOK)
        before = (ws / BOOK).read_bytes()
        ok, payload = call(sidecar_bin, ws, tool, args)
        if op.get("expect") == "rejected":
            assert not ok, f"{tool} accepted {op}: {payload}"
            assert payload["exception"] == op.get("exception", "ValueError"), payload
            assert op.get("bad_cell", op["cell"]) in payload["message"], payload
            for word in op.get("message", []):
                assert word in payload["message"], (word, payload)
            assert (ws / BOOK).read_bytes() == before, "a rejected write changed the file"
        else:
            assert ok, f"{tool} {args} failed: {payload}"

    # LibreOffice agrees that what we refused is broken.
    probes = {p["cell"]: p for p in want["probes"]}
    for op in case["ops"]:
        if op.get("expect") == "rejected":
            probe = probes[op.get("bad_cell", op["cell"])]
            if op.get("calc_autocorrects"):
                assert probe["f"] != probe["input"], f"LibreOffice keeps {probe['input']!r} as is: {probe}"
            else:
                assert "e" in probe, f"LibreOffice accepts {probe['input']!r}: {probe}"

    got = libreoffice.run(ws / BOOK, [], on_open=bool(case.get("on_open")))
    diffs = oracle.diff_sheets(want["sheets"], got["sheets"])
    assert not diffs, "after recalculation:\n" + "\n".join(diffs)
    if case.get("on_open"):
        # What LibreOffice shows on opening our file, before anyone recalculates.
        diffs = oracle.diff_sheets(want["sheets"], got["on_open"], what=("v", "e"))
        assert not diffs, "on open:\n" + "\n".join(diffs)
    if case.get("read"):
        check_read(case, want, sidecar_bin, ws)


def check_read(case: dict[str, Any], want: dict[str, Any], sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    """read_excel's default (values) mode gives LibreOffice's value of every formula cell,
    or the formula text for the cells the case lists under "uncomputable"."""
    uncomputable = set(case.get("uncomputable", []))
    for sheet in want["sheets"]:
        formulas = {ref: c for ref, c in sheet["cells"].items() if "f" in c}
        got = read_values(sidecar_bin, ws, sheet["name"], formulas, "values")
        diffs = []
        for ref, cell in formulas.items():
            key = f"{sheet['name']}!{ref}"
            if key in uncomputable:
                ok = isinstance(got[ref], str) and got[ref].startswith("=")
            elif "e" in cell:
                # Calc's own codes (Err:502) have no Excel spelling: any Excel error will do.
                ok = isinstance(got[ref], str) and (got[ref] == cell["e"] or got[ref][:1] in "#=")
            else:
                ok = oracle.same_value(cell["v"], got[ref])
            if not ok:
                diffs.append(f"{key}: LibreOffice {oracle.show(cell)}, read_excel {json.dumps(got[ref], ensure_ascii=False)}")
        assert not diffs, "read_excel values:\n" + "\n".join(diffs)


def test_diff_sheets_reports_every_kind_of_difference() -> None:
    """The comparison itself: it must see a changed formula, value, error, sheet and cell."""
    want = [{"name": "S", "cells": {"A1": {"v": 1.0}, "B1": {"f": "=A1", "v": 1.0}, "C1": {"f": "=1/0", "e": "#DIV/0!"}}}]
    assert oracle.diff_sheets(want, want) == []
    assert oracle.diff_sheets(want, [{"name": "S", "cells": {**want[0]["cells"], "A1": {"v": 1.0 + 1e-12}}}]) == []
    changed = [{"name": "S", "cells": {"A1": {"v": 2.0}, "B1": {"f": "=A2", "v": 1.0}, "C1": {"f": "=1/0", "v": 0.0},
                                       "D1": {"v": "extra"}}}]
    got = oracle.diff_sheets(want, changed)
    assert [line.split(":")[0] for line in got] == ["S!A1", "S!B1", "S!C1", "S!D1"], got
    assert oracle.diff_sheets(want, [{"name": "T", "cells": {}}])[0].startswith("sheets:")


def test_broken_references_compare_by_meaning() -> None:
    """#REF! cells agree whatever spelling Calc gives their deleted references, never otherwise."""
    ref = {"e": "#REF!"}
    assert oracle.broken_alike({**ref, "f": '="A3"&A3'}, {**ref, "f": '="A3"&'})
    assert oracle.broken_alike({**ref, "f": "=SUM('销售 2024'!)"}, {**ref, "f": "=SUM()"})
    assert oracle.broken_alike({**ref, "f": "=#REF!!+1"}, {**ref, "f": "=+1"})
    assert not oracle.broken_alike({**ref, "f": "=SUM(A1)*2"}, {**ref, "f": "=SUM()*3"})
    assert not oracle.broken_alike({**ref, "f": '="A3"&A3'}, {**ref, "f": '="A1"&'})
    assert not oracle.broken_alike({"e": "#VALUE!", "f": "=A3"}, {**ref, "f": "="})
