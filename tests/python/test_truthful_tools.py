"""Issue 14 items 3-7 end to end: the real binary, checked with openpyxl.

Merges don't eat data, no surprise sheets or files, Excel's limits are
errors, dates round-trip, and every schema property is described.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
from typing import Any

import openpyxl
import pytest


def run(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Run one tool through `registry-sidecar call`; return the exit code and payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), tool, json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, json.loads(proc.stdout)


def ok(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    code, payload = run(sidecar_bin, ws, tool, args)
    assert code == 0 and payload["status"] == "success", payload
    return payload


def fail(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    code, payload = run(sidecar_bin, ws, tool, args)
    assert code == 3 and payload["status"] == "error", payload
    assert payload["error_code"] == "TOOL_EXECUTION_ERROR", payload
    return payload


@pytest.fixture()
def ws(tmp_path: pathlib.Path) -> pathlib.Path:
    """A workspace holding book.xlsx: sheets Data (a 2x4 block) and Copy."""
    wb = openpyxl.Workbook()
    data = wb.active
    assert data is not None
    data.title = "Data"
    data.append(["title", "b1", "c1", "d1"])
    data.append(["a2", 2, None, None])
    wb.create_sheet("Copy")
    wb.save(tmp_path / "book.xlsx")
    return tmp_path


def load(ws: pathlib.Path, name: str = "book.xlsx") -> Any:
    return openpyxl.load_workbook(ws / name)


# --- 3. merges don't eat data ------------------------------------------------


def test_merge_over_values_is_refused_then_discards_only_when_asked(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    args: dict[str, Any] = {"file_path": "book.xlsx", "sheet_name": "Data", "cell_range": "A1:B2"}
    got = fail(sidecar_bin, ws, "merge_cells", args)
    assert got["exception"] == "ValueError"
    assert 'B1="b1", A2="a2", B2=2' in got["message"]
    sheet = load(ws)["Data"]
    assert not sheet.merged_cells.ranges
    assert sheet["B1"].value == "b1" and sheet["B2"].value == 2

    got = ok(sidecar_bin, ws, "merge_cells", {**args, "discard_values": True})
    assert got["merged_range"] == "A1:B2"
    assert got["discarded"] == [{"cell": "B1", "value": "b1"}, {"cell": "A2", "value": "a2"}, {"cell": "B2", "value": 2}]
    sheet = load(ws)["Data"]
    assert [str(r) for r in sheet.merged_cells.ranges] == ["A1:B2"]
    assert sheet["A1"].value == "title"
    assert sheet["C1"].value == "c1"  # outside the merge: untouched


def test_merge_across_an_existing_merge_reports_what_the_sheet_holds(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    base = {"file_path": "book.xlsx", "sheet_name": "Copy"}
    ok(sidecar_bin, ws, "merge_cells", {**base, "cell_range": "B1:C2"})
    got = fail(sidecar_bin, ws, "merge_cells", {**base, "cell_range": "C1:D2"})
    assert "partly overlaps the merged range(s) B1:C2" in got["message"]
    assert [str(r) for r in load(ws)["Copy"].merged_cells.ranges] == ["B1:C2"]
    got = ok(sidecar_bin, ws, "merge_cells", {**base, "cell_range": "A1:D2"})
    assert got["merged_range"] == "A1:D2" and got["replaced_merges"] == ["B1:C2"]
    assert [str(r) for r in load(ws)["Copy"].merged_cells.ranges] == ["A1:D2"]


# --- 4. no surprise sheets or files --------------------------------------------


def test_copy_to_a_misspelt_sheet_suggests_and_creates_nothing(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    args: dict[str, Any] = {"source_file": "book.xlsx", "source_sheet": "Data", "source_range": "A1:B2", "target_sheet": "Cpoy"}
    got = fail(sidecar_bin, ws, "copy_range_between_sheets", args)
    assert got["exception"] == "KeyError"
    assert got["message"] == 'Worksheet Cpoy does not exist. Available sheets: Data, Copy. Did you mean "Copy"? Pass create: true to create it.'
    assert load(ws).sheetnames == ["Data", "Copy"]
    got = ok(sidecar_bin, ws, "copy_range_between_sheets", {**args, "create": True})
    assert got["target"]["sheet_created"] is True
    assert load(ws).sheetnames == ["Data", "Copy", "Cpoy"]


def test_missing_file_gets_did_you_mean_and_no_new_file(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    (ws / "book.xlsx").rename(ws / "sales.xlsx")
    got = fail(sidecar_bin, ws, "write_cells", {"file_path": "Sales.xlsx", "cell": "A1", "value": 1})
    assert got["exception"] == "FileNotFoundError"
    assert 'Did you mean "sales.xlsx"?' in got["message"] and "create: true" in got["message"]
    assert not (ws / "Sales.xlsx").exists()
    got = fail(sidecar_bin, ws, "read_excel", {"file_path": "Sales.xlsx", "sheet_name": "Data"})
    assert got["message"] == 'file not found: Sales.xlsx. Did you mean "sales.xlsx"?'
    got = fail(sidecar_bin, ws, "read_excel", {"file_path": "sales.xlsx", "sheet_name": "data2"})
    assert got["exception"] == "KeyError" and 'Did you mean "Data"?' in got["message"]
