"""The workbook-level tools through the real binary, read back by openpyxl and opened by LibreOffice.

create_workbook, list_workbooks, describe_workbook, define_name, copy_sheet, clear_range and
delete_range: what each wrote is what openpyxl reads, and LibreOffice opens the
result and shows the expected content.
"""

from __future__ import annotations

import datetime
import json
import pathlib
import subprocess
from typing import Any

import openpyxl
import openpyxl.comments
import pytest
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.table import Table


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any], ok: bool = True) -> dict[str, Any]:
    """Run one tool through the binary and return the decoded payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), tool, json.dumps(args)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    payload: dict[str, Any] = json.loads(proc.stdout)
    if ok:
        assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
        assert payload["status"] == "success", proc.stdout
    else:
        assert proc.returncode == 3, (proc.returncode, proc.stdout)
    return payload


def cells_of(answer: dict[str, Any], sheet: str) -> dict[str, Any]:
    """The cells LibreOffice shows on one sheet of an oracle answer."""
    for s in answer["sheets"]:
        if s["name"] == sheet:
            cells: dict[str, Any] = s["cells"]
            return cells
    raise KeyError(sheet)


@pytest.fixture()
def ws(tmp_path: pathlib.Path) -> pathlib.Path:
    """A workspace holding data.xlsx: sheet Data (header, 5 rows, formulas) and sheet Report."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet.append(["name", "qty", "price", "total"])
    for i in range(1, 6):
        sheet.append([f"item{i}", i * 10, i * 1.5, f"=B{i + 1}*C{i + 1}"])
    sheet["F1"] = "=SUM(D2:D6)"
    report = wb.create_sheet("Report")
    report["A1"] = "=SUM(Data!B2:B6)"
    report["A2"] = "=Data!B4"
    wb.save(tmp_path / "data.xlsx")
    return tmp_path


def test_create_workbook(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, libreoffice: Any) -> None:
    got = call(sidecar_bin, tmp_path, "create_workbook", {"file_path": "new.xlsx", "sheet_names": ["Data", "销售 2024"]})
    assert got["sheets"] == ["Data", "销售 2024"]
    wb = openpyxl.load_workbook(tmp_path / "new.xlsx")
    assert wb.sheetnames == ["Data", "销售 2024"]
    refused = call(sidecar_bin, tmp_path, "create_workbook", {"file_path": "new.xlsx"}, ok=False)
    assert refused["exception"] == "ValueError"
    call(sidecar_bin, tmp_path, "write_cells", {"file_path": "new.xlsx", "sheet_name": "销售 2024", "cell": "A1", "value": 5})
    answer = libreoffice.run(tmp_path / "new.xlsx", [])
    assert [s["name"] for s in answer["sheets"]] == ["Data", "销售 2024"]
    assert cells_of(answer, "销售 2024") == {"A1": {"v": 5.0}}


def test_list_workbooks(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    (ws / "sub").mkdir()
    openpyxl.Workbook().save(ws / "sub" / "b.xlsx")
    (ws / "broken.xlsx").write_text("not a zip")
    got = call(sidecar_bin, ws, "list_workbooks", {"max_results": 2})
    assert got["total"] == 3
    assert got["has_more"] is True
    assert [w["path"] for w in got["workbooks"]] == ["broken.xlsx", "data.xlsx"]
    assert "error" in got["workbooks"][0]
    data = got["workbooks"][1]
    assert data["sheets"] == openpyxl.load_workbook(ws / "data.xlsx").sheetnames
    assert data["size_bytes"] == (ws / "data.xlsx").stat().st_size
    modified = datetime.datetime.fromisoformat(data["modified"])
    assert abs(modified.timestamp() - (ws / "data.xlsx").stat().st_mtime) < 1
    rest = call(sidecar_bin, ws, "list_workbooks", {"offset": got["next_offset"]})
    assert [w["path"] for w in rest["workbooks"]] == ["sub/b.xlsx"]


def test_describe_workbook_matches_openpyxl(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    wb = openpyxl.load_workbook(ws / "data.xlsx")
    sheet = wb["Data"]
    used = sheet.dimensions  # openpyxl counts merged cells as used; the used range is cells with content
    sheet.merge_cells("H1:I2")
    sheet.freeze_panes = "B2"
    dv = DataValidation(type="list", formula1='"a,b"')
    dv.add("A2:A6")
    sheet.add_data_validation(dv)
    wb.defined_names["Qty"] = DefinedName("Qty", attr_text="Data!$B$2:$B$6")
    wb.save(ws / "data.xlsx")
    got = call(sidecar_bin, ws, "describe_workbook", {"file_path": "data.xlsx"})
    data = got["sheets"][0]
    assert data["used_range"] == used == "A1:F6"
    assert data["merged_ranges"] == [str(r) for r in sheet.merged_cells.ranges]
    assert data["freeze_panes"]["top_left_cell"] == sheet.freeze_panes
    assert data["data_validations"][0]["range"] == "A2:A6"
    assert got["defined_names"] == [{"name": "Qty", "scope": "workbook", "refers_to": "Data!$B$2:$B$6"}]
    assert got["sheets"][1]["used_range"] == "A1:A2"


def test_define_name(sidecar_bin: pathlib.Path, ws: pathlib.Path, libreoffice: Any) -> None:
    call(sidecar_bin, ws, "define_name", {"file_path": "data.xlsx", "name": "Qty", "refers_to": "=Data!$B$2:$B$6"})
    call(sidecar_bin, ws, "define_name", {"file_path": "data.xlsx", "name": "Rate", "refers_to": "0.5", "scope": "Report"})
    call(sidecar_bin, ws, "write_cells", {"file_path": "data.xlsx", "sheet_name": "Report", "cell": "B1", "value": "=SUM(Qty)*Rate"})
    wb = openpyxl.load_workbook(ws / "data.xlsx")
    assert wb.defined_names["Qty"].attr_text == "Data!$B$2:$B$6"
    assert wb["Report"].defined_names["Rate"].attr_text == "0.5"
    dup = call(sidecar_bin, ws, "define_name", {"file_path": "data.xlsx", "name": "qty", "refers_to": "Data!$A$1"}, ok=False)
    assert dup["exception"] == "ValueError"
    answer = libreoffice.run(ws / "data.xlsx", [])
    assert cells_of(answer, "Report")["B1"]["v"] == 75.0


def test_copy_sheet(sidecar_bin: pathlib.Path, ws: pathlib.Path, libreoffice: Any) -> None:
    wb = openpyxl.load_workbook(ws / "data.xlsx")
    wb["Data"]["E2"] = "=Data!B2+1"
    wb["Data"].merge_cells("H1:I1")
    wb["Data"]["A2"].comment = openpyxl.comments.Comment("first item", "me")
    wb["Data"]["A3"].hyperlink = "https://example.com/"
    wb.save(ws / "data.xlsx")
    got = call(sidecar_bin, ws, "copy_sheet", {"file_path": "data.xlsx", "sheet_name": "Data"})
    assert got["new_sheet"] == "Data (2)"
    wb = openpyxl.load_workbook(ws / "data.xlsx")
    assert wb.sheetnames == ["Data", "Data (2)", "Report"]
    copy = wb["Data (2)"]
    assert copy["D3"].value == "=B3*C3"
    assert copy["E2"].value == "='Data (2)'!B2+1"
    assert wb["Data"]["E2"].value == "=Data!B2+1"
    assert [str(r) for r in copy.merged_cells.ranges] == ["H1:I1"]
    assert wb["Report"]["A1"].value == "=SUM(Data!B2:B6)"
    assert copy["A2"].comment is not None and copy["A2"].comment.text.startswith("first item")
    assert wb["Data"]["A2"].comment is not None
    assert copy["A3"].hyperlink is not None and copy["A3"].hyperlink.target == "https://example.com/"
    answer = libreoffice.run(ws / "data.xlsx", [])
    cells = cells_of(answer, "Data (2)")
    assert cells["D3"]["v"] == 60.0
    assert cells["E2"] == {"f": "='Data (2)'!B2+1", "v": 11.0}


@pytest.mark.parametrize(("what", "value_kept", "style_kept"), [("values", False, True), ("formats", True, False), ("both", False, False)])
def test_clear_range(sidecar_bin: pathlib.Path, ws: pathlib.Path, libreoffice: Any, what: str, value_kept: bool, style_kept: bool) -> None:
    wb = openpyxl.load_workbook(ws / "data.xlsx")
    wb["Data"]["B2"].font = openpyxl.styles.Font(bold=True)
    wb["Data"]["B3"].comment = openpyxl.comments.Comment("a note", "me")
    wb.save(ws / "data.xlsx")
    got = call(sidecar_bin, ws, "clear_range", {"file_path": "data.xlsx", "sheet_name": "Data", "cell_range": "B2:B3", "what": what})
    assert got["cleared"] == what
    data = openpyxl.load_workbook(ws / "data.xlsx")["Data"]
    assert (data["B2"].value == 10) is value_kept
    assert data["B2"].font.b is style_kept
    assert (data["B3"].comment is None) is (what == "both"), "Clear All takes the notes too"
    assert data["D2"].value == "=B2*C2"
    answer = libreoffice.run(ws / "data.xlsx", [])
    cells = cells_of(answer, "Data")
    assert cells["D2"]["v"] == (15.0 if value_kept else 0.0)
    assert cells_of(answer, "Report")["A1"]["v"] == (150.0 if value_kept else 120.0)


def test_delete_range(sidecar_bin: pathlib.Path, ws: pathlib.Path, libreoffice: Any) -> None:
    wb = openpyxl.load_workbook(ws / "data.xlsx")
    data = wb["Data"]
    data["B4"].font = openpyxl.styles.Font(bold=True)
    data.merge_cells("H5:H6")
    wb.save(ws / "data.xlsx")
    got = call(sidecar_bin, ws, "delete_range", {"file_path": "data.xlsx", "sheet_name": "Data", "cell_range": "B2:B3", "shift": "up"})
    assert got["cells_deleted"] == 2
    wb = openpyxl.load_workbook(ws / "data.xlsx")
    data = wb["Data"]
    assert [data.cell(r, 2).value for r in range(1, 7)] == ["qty", 30, 40, 50, None, None]
    assert data["B2"].font.b is True
    assert data["D2"].value == "=#REF!*C2"
    assert data["D4"].value == "=B2*C4"
    assert wb["Report"]["A1"].value == "=SUM(Data!B2:B4)"
    assert wb["Report"]["A2"].value == "=Data!B2"
    assert [str(r) for r in data.merged_cells.ranges] == ["H5:H6"]
    answer = libreoffice.run(ws / "data.xlsx", [])
    cells = cells_of(answer, "Data")
    assert cells["D4"]["v"] == 30 * 4.5
    assert cells["D2"]["e"] == "#REF!"
    assert cells_of(answer, "Report")["A1"]["v"] == 120.0
    refused = call(sidecar_bin, ws, "delete_range", {"file_path": "data.xlsx", "sheet_name": "Data", "cell_range": "H5", "shift": "up"}, ok=False)
    assert "merged range H5:H6" in refused["message"]


def test_delete_range_moves_a_whole_table(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, libreoffice: Any) -> None:
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet["A1"], sheet["A2"] = "junk", "junk"
    for row in (["name", "qty"], ["pen", 3], ["ink", 4]):
        sheet.append(row)
    sheet.add_table(Table(displayName="Stock", ref="A3:B5"))
    sheet["D1"] = "=SUM(Stock[qty])"
    wb.save(tmp_path / "t.xlsx")
    call(sidecar_bin, tmp_path, "delete_range", {"file_path": "t.xlsx", "cell_range": "A1:B1", "shift": "up"})
    back = openpyxl.load_workbook(tmp_path / "t.xlsx").active
    assert back is not None
    assert back.tables["Stock"].ref == "A2:B4"
    assert back.tables["Stock"].autoFilter.ref == "A2:B4"
    assert [c.value for c in back["A2:B2"][0]] == ["name", "qty"]
    answer = libreoffice.run(tmp_path / "t.xlsx", [])
    cells = answer["sheets"][0]["cells"]
    assert cells["D1"]["v"] == 7.0
    assert cells["A4"] == {"v": "ink"}
