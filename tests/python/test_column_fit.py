"""write_cells widens a column whose width was never set to show a date or a formatted
number, as Excel does when one types it, on both write paths; openpyxl reads the widths back.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
from typing import Any

import openpyxl
import pytest

# EXCEL_DEFAULT is the stored width of a column none was set for (8.43 characters shown).
EXCEL_DEFAULT = 9.140625


def write(binary: pathlib.Path, ws: pathlib.Path, splice: bool, args: dict[str, Any]) -> None:
    proc = subprocess.run(
        [str(binary), "call", "--workspace", str(ws), f"--splice={str(splice).lower()}", "write_cells", json.dumps(args)],
        capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, (proc.stdout, proc.stderr)


@pytest.mark.parametrize("splice", [True, False])
def test_openpyxl_reads_the_widened_columns(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, splice: bool) -> None:
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet["A1"] = "header"
    sheet.column_dimensions["B"].width = 8  # set by the user: kept
    sheet["D1"].number_format = "#,##0.00"
    wb.save(tmp_path / "w.xlsx")
    write(sidecar_bin, tmp_path, splice, {"file_path": "w.xlsx", "cell_range": "A2", "values": [
        ["2024-01-31", "2024-01-31", 1234567890123, None, "13:45:00", "2024-01-31 13:45:30"]]})
    write(sidecar_bin, tmp_path, splice, {"file_path": "w.xlsx", "cell": "D1", "value": 1234567.891})

    dims = openpyxl.load_workbook(tmp_path / "w.xlsx").active.column_dimensions
    want = {
        "A": 10.7109375,  # 2024-01-31
        "B": 8,           # its own width
        "C": None,        # General: never ###
        "D": 12.7109375,  # 1,234,567.89
        "E": None,        # 13:45:00 fits
        "F": 19.7109375,  # 2024-01-31 13:45:30
    }
    for col, width in want.items():
        got = dims[col].width if col in dims and dims[col].customWidth else None
        assert got == (pytest.approx(width) if width is not None else None), (col, got)
