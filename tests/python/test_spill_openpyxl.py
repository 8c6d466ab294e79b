"""Dynamic array formulas written with write_cells (Excel 365 spill): openpyxl opens the file
without error, sees the anchor as an array formula over its spill range and the spilled values
as plain cached values, on a new workbook and on an existing one (whose writes take the splice
path, which writes the anchor, the metadata part and the values itself).
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import zipfile
from typing import Any

import openpyxl
import pytest
from openpyxl.worksheet.formula import ArrayFormula


def write(binary: pathlib.Path, ws: pathlib.Path, args: dict[str, Any]) -> None:
    proc = subprocess.run(
        [str(binary), "call", "--workspace", str(ws), "write_cells", json.dumps(args)],
        capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, (proc.stdout, proc.stderr)


@pytest.mark.parametrize("existing", [True, False])
def test_openpyxl_reads_a_spill(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, existing: bool) -> None:
    if existing:
        wb = openpyxl.Workbook()
        sheet = wb.active
        assert sheet is not None
        for i, v in enumerate([3, 1, 3, 2, 1], start=1):
            sheet.cell(row=i, column=1, value=v)
        sheet["E2"] = "x"
        wb.save(tmp_path / "s.xlsx")
    write(sidecar_bin, tmp_path, {"file_path": "s.xlsx", "cell": "C1", "value": "=SEQUENCE(3,2)"})
    write(sidecar_bin, tmp_path, {"file_path": "s.xlsx", "cell": "E1", "value": "=SEQUENCE(3)"})

    with zipfile.ZipFile(tmp_path / "s.xlsx") as z:
        assert "xl/metadata.xml" in z.namelist()

    formulas = openpyxl.load_workbook(tmp_path / "s.xlsx").active
    anchor = formulas["C1"].value
    assert isinstance(anchor, ArrayFormula), anchor
    assert anchor.ref == "C1:D3"
    assert anchor.text == "=_xlfn.SEQUENCE(3,2)"

    values = openpyxl.load_workbook(tmp_path / "s.xlsx", data_only=True).active
    got = [[values.cell(row=r, column=c).value for c in (3, 4)] for r in (1, 2, 3)]
    assert got == [[1, 2], [3, 4], [5, 6]]
    if existing:
        assert values["E1"].value == "#SPILL!"  # E2 holds "x": the spill is blocked
        assert values["E3"].value is None
    else:
        assert [values.cell(row=r, column=5).value for r in (1, 2, 3)] == [1, 2, 3]
