"""The shared range shape through the real binary, judged by openpyxl.

Every range argument takes "A1:C3", "$A$1:$C$3", reversed corners and a
sheet-qualified "Sheet!A1:C3" / "'My Sheet'!A1:C3"; read_excel's cell_range
is an alias of range and rename_sheet's old_name of sheet_name. The expected
cells are read with openpyxl from the same workbook.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
from typing import Any

import openpyxl
import pytest

SHEETS = {"Data": "d", "My Sheet": "m"}


def run(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one tool through the binary and return its payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), tool, json.dumps(args)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    payload: dict[str, Any] = json.loads(proc.stdout)
    return payload


@pytest.fixture()
def book(tmp_path: pathlib.Path) -> pathlib.Path:
    """b.xlsx: sheets Data and 'My Sheet', 5x5 cells of text naming each cell."""
    wb = openpyxl.Workbook()
    first = True
    for title, prefix in SHEETS.items():
        ws = wb.active if first else wb.create_sheet(title)
        assert ws is not None
        ws.title = title
        first = False
        for r in range(1, 6):
            ws.append([f"{prefix}{r}{c}" for c in range(1, 6)])
    path = tmp_path / "b.xlsx"
    wb.save(path)
    return path


def cells(path: pathlib.Path, sheet: str, ref: str) -> list[list[Any]]:
    """The values of ref on sheet, as openpyxl reads them."""
    wb = openpyxl.load_workbook(path, data_only=True)
    try:
        return [[c.value for c in row] for row in wb[sheet][ref]]
    finally:
        wb.close()


@pytest.mark.parametrize(
    ("args", "sheet"),
    [
        ({"range": "B2:D4"}, "Data"),
        ({"cell_range": "B2:D4"}, "Data"),
        ({"range": "$D$4:$B$2"}, "Data"),
        ({"range": "Data!B2:D4", "sheet_name": "data"}, "Data"),
        ({"cell_range": "'My Sheet'!D4:B2"}, "My Sheet"),
        ({"range": "'my sheet'!B2:D4", "cell_range": "$B$2:$D$4"}, "My Sheet"),
    ],
)
def test_read_excel_range_forms(sidecar_bin: pathlib.Path, book: pathlib.Path, args: dict[str, Any], sheet: str) -> None:
    payload = run(sidecar_bin, book.parent, "read_excel", {"file_path": book.name, **args})
    assert payload["status"] == "success", payload
    assert payload["sheet"] == sheet
    assert payload["range"] == "B2:D4"
    assert payload["values"] == cells(book, sheet, "B2:D4")


def test_write_and_copy_take_the_sheet_from_the_range(sidecar_bin: pathlib.Path, book: pathlib.Path) -> None:
    ws = book.parent
    wrote = run(sidecar_bin, ws, "write_cells", {
        "file_path": book.name, "cell_range": "'My Sheet'!C7:B6", "values": [["x", "y"], ["z", "w"]]})
    assert wrote["status"] == "success", wrote
    assert cells(book, "My Sheet", "B6:C7") == [["x", "y"], ["z", "w"]]
    assert cells(book, "Data", "B6:C7") == [[None, None], [None, None]]

    copied = run(sidecar_bin, ws, "copy_range_between_sheets", {
        "source_file": book.name, "source_range": "'My Sheet'!A1:B2", "target_sheet": "Data", "target_start": "E8"})
    assert copied["status"] == "success", copied
    assert cells(book, "Data", "E8:F9") == cells(book, "My Sheet", "A1:B2")


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read_excel", {"sheet_name": "Data", "range": "'My Sheet'!A1:B2"}),
        ("format_cells", {"sheet_name": "Data", "cell_range": "'My Sheet'!A1", "font": {"bold": True}}),
        ("read_excel", {"range": "A1:B2", "cell_range": "A1:B3"}),
        ("rename_sheet", {"sheet_name": "Data", "old_name": "My Sheet", "new_name": "X"}),
        ("clear_range", {"cell_range": "A:B"}),
    ],
)
def test_disagreements_are_refused_and_nothing_changes(
    sidecar_bin: pathlib.Path, book: pathlib.Path, tool: str, args: dict[str, Any],
) -> None:
    before = book.read_bytes()
    payload = run(sidecar_bin, book.parent, tool, {"file_path": book.name, **args})
    assert payload["status"] == "error", payload
    assert payload["exception"] == "ValueError"
    assert book.read_bytes() == before


def test_rename_sheet_alias(sidecar_bin: pathlib.Path, book: pathlib.Path) -> None:
    payload = run(sidecar_bin, book.parent, "rename_sheet", {"file_path": book.name, "old_name": "my sheet", "new_name": "Renamed"})
    assert payload["status"] == "success", payload
    wb = openpyxl.load_workbook(book)
    try:
        assert wb.sheetnames == ["Data", "Renamed"]
    finally:
        wb.close()
