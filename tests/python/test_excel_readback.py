"""openpyxl reads back everything the spreadsheet tools write.

Every test writes through the real binary (`registry-sidecar call`) and checks
the saved workbook with openpyxl, the peer most Python agents use.
"""

from __future__ import annotations

import datetime
import json
import pathlib
import subprocess
from typing import Any

import openpyxl
import pytest
from openpyxl.formatting.rule import Rule


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any], ok: bool = True) -> dict[str, Any]:
    """Run one tool through the binary and return the decoded payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), tool, json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    text = proc.stdout.removesuffix("\n")
    payload: dict[str, Any] = json.loads(text)
    if ok:
        assert proc.returncode == 0, (proc.returncode, text, proc.stderr)
        assert payload["status"] == "success", text
    else:
        assert proc.returncode == 3, (proc.returncode, text)
        assert payload["status"] == "error", text
    return payload


@pytest.fixture()
def ws(tmp_path: pathlib.Path) -> pathlib.Path:
    """A workspace holding data.xlsx: a header and 5 numeric rows."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet.append(["name", "qty", "price"])
    for i in range(1, 6):
        sheet.append([f"item{i}", i * 10, i * 1.5])
    wb.save(tmp_path / "data.xlsx")
    return tmp_path


def load(ws: pathlib.Path, name: str = "data.xlsx", **kw: Any) -> Any:
    return openpyxl.load_workbook(ws / name, **kw)


def test_values_types_and_formulas(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "write_cells", {
        "file_path": "data.xlsx", "sheet_name": "Data", "cell_range": "E1",
        "values": [["int", "float", "text", "bool", "formula", "code"], [42, 2.5, "héllo", True, "=SUM(B2:B6)", "007"]],
    })
    sheet = load(ws)["Data"]
    assert [c.value for c in sheet[2][4:10]] == [42, 2.5, "héllo", True, "=SUM(B2:B6)", "007"]
    assert type(sheet["E2"].value) is int
    assert type(sheet["F2"].value) is float
    assert type(sheet["H2"].value) is bool and sheet["H2"].data_type == "b"
    assert sheet["J2"].data_type == "s"  # "007" stays text, not the number 7
    assert sheet["I2"].data_type == "f"


def test_let_and_lambda_names_as_excel_stores_them(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    """LET and LAMBDA names are stored with Excel's _xlpm. prefix; openpyxl reads the formula
    text and data_only reads the values we cached (a spilled MAP's included)."""
    call(sidecar_bin, ws, "write_cells", {
        "file_path": "data.xlsx", "sheet_name": "Data", "cell_range": "E2",
        "values": [["=LET(q,B2,q*C2)", "=LAMBDA(a,b,IF(ISOMITTED(b),a,a+b))(B3,)", "=MAP(B2:B3,LAMBDA(v,v*2))"]],
    })
    sheet = load(ws)["Data"]
    assert sheet["E2"].value == "=_xlfn.LET(_xlpm.q,B2,_xlpm.q*C2)"
    assert sheet["F2"].value == "=_xlfn.LAMBDA(_xlpm.a,_xlpm.b,IF(_xlfn.ISOMITTED(_xlpm.b),_xlpm.a,_xlpm.a+_xlpm.b))(B3,)"
    assert sheet["G2"].value.text == "=_xlfn.MAP(B2:B3,_xlfn.LAMBDA(_xlpm.v,_xlpm.v*2))"
    assert sheet["G2"].value.ref == "G2:G3"
    values = load(ws, data_only=True)["Data"]
    assert [values["E2"].value, values["F2"].value, values["G2"].value, values["G3"].value] == [15, 20, 20, 40]


def test_single_cell_and_new_workbook(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    got = call(sidecar_bin, ws, "write_cells", {"file_path": "new.xlsx", "cell": "B3", "value": "x"})
    assert got["created"] is True
    assert load(ws, "new.xlsx").active["B3"].value == "x"


def test_number_format_font_fill_border_alignment(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "format_cells", {
        "file_path": "data.xlsx", "sheet_name": "Data", "cell_range": "A1:C1",
        "font": {"name": "Arial", "size": 14, "bold": True, "italic": True, "underline": "double", "strike": True, "color": "FF0000"},
        "fill": {"color": "FFFF00"},
        "border": {"style": "thin", "color": "0000FF", "bottom": {"style": "thick"}},
        "alignment": {"horizontal": "center", "vertical": "top", "wrap_text": True},
    })
    call(sidecar_bin, ws, "format_cells", {
        "file_path": "data.xlsx", "sheet_name": "Data", "cell_range": "A2",
        "alignment": {"horizontal": "left", "text_rotation": 45, "indent": 2, "shrink_to_fit": True},
    })
    call(sidecar_bin, ws, "format_cells", {
        "file_path": "data.xlsx", "sheet_name": "Data", "cell_range": "C2:C6", "number_format": "#,##0.00",
    })
    sheet = load(ws)["Data"]
    c = sheet["B1"]
    assert c.font.name == "Arial" and c.font.sz == 14 and c.font.b and c.font.i
    assert c.font.u == "double" and c.font.strike
    assert c.font.color.rgb.endswith("FF0000")
    assert c.fill.fill_type == "solid" and c.fill.fgColor.rgb.endswith("FFFF00")
    assert c.border.left.style == "thin" and c.border.left.color.rgb.endswith("0000FF")
    assert c.border.bottom.style == "thick"
    assert c.alignment.horizontal == "center" and c.alignment.vertical == "top" and c.alignment.wrap_text
    a2 = sheet["A2"].alignment
    assert (a2.horizontal, a2.textRotation, a2.indent, a2.shrink_to_fit) == ("left", 45, 2, True)
    assert sheet["C3"].number_format == "#,##0.00"
    assert sheet["C3"].value == 3.0  # formatting keeps values


def test_format_keeps_unspecified_attributes(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "format_cells", {"file_path": "data.xlsx", "cell_range": "A2", "font": {"bold": True}})
    call(sidecar_bin, ws, "format_cells", {"file_path": "data.xlsx", "cell_range": "A2", "fill": {"color": "00FF00"}})
    c = load(ws)["Data"]["A2"]
    assert c.font.b and c.fill.fgColor.rgb.endswith("00FF00")


def test_merge_unmerge_and_column_widths(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "merge_cells", {"file_path": "data.xlsx", "cell_range": "E1:G2"})
    call(sidecar_bin, ws, "merge_cells", {"file_path": "data.xlsx", "cell_range": "A8:B8"})
    call(sidecar_bin, ws, "unmerge_cells", {"file_path": "data.xlsx", "cell_range": "A8:B8"})
    call(sidecar_bin, ws, "adjust_column_width", {"file_path": "data.xlsx", "columns": {"A": 25, "C": 12.5}})
    sheet = load(ws)["Data"]
    assert [str(r) for r in sheet.merged_cells.ranges] == ["E1:G2"]
    assert sheet.column_dimensions["A"].width == pytest.approx(25)
    assert sheet.column_dimensions["C"].width == pytest.approx(12.5)
    # auto_fit: the reported widths are the ones openpyxl reads, and the
    # column of long item names gets wider than the short numeric one.
    fitted = call(sidecar_bin, ws, "adjust_column_width", {"file_path": "data.xlsx", "auto_fit": True})["columns_adjusted"]
    sheet = load(ws)["Data"]
    for col, width in fitted.items():
        assert sheet.column_dimensions[col].width == pytest.approx(width)
    assert fitted["A"] > fitted["B"] > 0
    bad = call(sidecar_bin, ws, "unmerge_cells", {"file_path": "data.xlsx", "cell_range": "A1:B1"}, ok=False)
    assert bad["exception"] == "ValueError"


CELL_IS = [
    ("equal", [10], "equal", ["10"]),
    ("notEqual", [10], "notEqual", ["10"]),
    ("greaterThan", [10], "greaterThan", ["10"]),
    ("greaterThanOrEqual", [10], "greaterThanOrEqual", ["10"]),
    ("lessThan", [10], "lessThan", ["10"]),
    ("lessThanOrEqual", [10], "lessThanOrEqual", ["10"]),
    ("between", [10, 30], "between", ["10", "30"]),
    ("notBetween", [10, 30], "notBetween", ["10", "30"]),
]


@pytest.mark.parametrize("op,values,want_op,want_formula", CELL_IS)
def test_cell_is_rules(sidecar_bin: pathlib.Path, ws: pathlib.Path, op: str, values: list[int], want_op: str, want_formula: list[str]) -> None:
    call(sidecar_bin, ws, "add_conditional_rule", {
        "file_path": "data.xlsx", "cell_range": "B2:B6", "rule_type": "cell_is", "operator": op, "values": values,
        "format": {"font_color": "9C0006", "fill_color": "FFC7CE", "bold": True},
    })
    rules = rules_of(load(ws)["Data"])
    assert len(rules) == 1
    rng, rule = rules[0]
    assert rng == "B2:B6"
    assert rule.type == "cellIs" and rule.operator == want_op and rule.formula == want_formula
    assert rule.dxf is not None and rule.dxf.font.b
    assert rule.dxf.fill.fgColor.rgb.endswith("FFC7CE") or rule.dxf.fill.bgColor.rgb.endswith("FFC7CE")


def rules_of(sheet: Any) -> list[tuple[str, Rule]]:
    out = []
    for cf in sheet.conditional_formatting:
        for rule in cf.rules:
            out.append((str(cf.sqref), rule))
    return out


def test_formula_icon_colorscale_databar_rules(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "add_conditional_rule", {
        "file_path": "data.xlsx", "rules": [
            {"cell_range": "A2:C6", "rule_type": "formula", "formula": "=$B2>20", "format": {"fill_color": "C6EFCE"}},
            {"cell_range": "B2:B6", "rule_type": "icon_set", "icon_style": "3TrafficLights1"},
            {"cell_range": "C2:C6", "rule_type": "color_scale", "min_color": "F8696B", "mid_color": "FFEB84", "max_color": "63BE7B"},
            {"cell_range": "B2:B6", "rule_type": "data_bar", "bar_color": "638EC6"},
        ],
    })
    by_type = {rule.type: (rng, rule) for rng, rule in rules_of(load(ws)["Data"])}
    assert set(by_type) == {"expression", "iconSet", "colorScale", "dataBar"}
    assert by_type["expression"][1].formula == ["$B2>20"]
    assert by_type["iconSet"][1].iconSet.iconSet == "3TrafficLights1"
    cs = by_type["colorScale"][1].colorScale
    assert [c.rgb[-6:] for c in cs.color] == ["F8696B", "FFEB84", "63BE7B"]
    assert by_type["dataBar"][1].dataBar.color.rgb.endswith("638EC6")
    assert by_type["dataBar"][0] == "B2:B6"


def test_failed_rule_batch_changes_nothing(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    before = (ws / "data.xlsx").read_bytes()
    bad = call(sidecar_bin, ws, "add_conditional_rule", {
        "file_path": "data.xlsx", "rules": [
            {"cell_range": "B2:B6", "rule_type": "data_bar"},
            {"cell_range": "B2:B6", "rule_type": "cell_is", "operator": "between", "values": [1]},
        ],
    }, ok=False)
    assert bad["exception"] == "ValueError"
    assert (ws / "data.xlsx").read_bytes() == before


def test_data_validation(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "add_data_validation", {
        "file_path": "data.xlsx", "cell_range": "D2:D6", "validation_type": "list", "values": ["yes", "no"],
        "error_message": "pick one", "prompt": "yes or no",
    })
    call(sidecar_bin, ws, "add_data_validation", {
        "file_path": "data.xlsx", "cell_range": "B2:B6", "validation_type": "whole", "operator": "between",
        "formula1": "0", "formula2": "100",
    })
    dvs = {str(dv.sqref): dv for dv in load(ws)["Data"].data_validations.dataValidation}
    assert dvs["D2:D6"].type == "list" and dvs["D2:D6"].formula1 == '"yes,no"'
    assert dvs["D2:D6"].error == "pick one" and dvs["D2:D6"].prompt == "yes or no"
    assert dvs["B2:B6"].type == "whole" and dvs["B2:B6"].operator == "between"
    assert (dvs["B2:B6"].formula1, dvs["B2:B6"].formula2) == ("0", "100")


@pytest.mark.parametrize("kind,tag", [("bar", "barChart"), ("line", "lineChart"), ("pie", "pieChart"), ("scatter", "scatterChart"), ("area", "areaChart")])
def test_charts(sidecar_bin: pathlib.Path, ws: pathlib.Path, kind: str, tag: str) -> None:
    call(sidecar_bin, ws, "create_excel_chart", {
        "file_path": "data.xlsx", "chart_type": kind, "data_range": "B1:C6", "categories_range": "A2:A6",
        "title": "Sales", "target_cell": "E2",
    })
    sheet = load(ws)["Data"]
    assert len(sheet._charts) == 1
    chart = sheet._charts[0]
    assert chart.tagname == tag
    assert len(chart.series) == 2  # one series per data column
    refs = [s.val.numRef.f if s.val is not None else s.yVal.numRef.f for s in chart.series]
    assert "$B$2:$B$6" in refs[0] and "$C$2:$C$6" in refs[1]
    cats = [s.cat.numRef.f if s.cat.numRef is not None else s.cat.strRef.f for s in chart.series if s.cat is not None]
    cats += [s.xVal.numRef.f if s.xVal.numRef is not None else s.xVal.strRef.f for s in chart.series if s.xVal is not None]
    assert cats and all("$A$2:$A$6" in f for f in cats)
    title = "".join(r.t for p in chart.title.tx.rich.p for r in (p.r or []))
    assert title == "Sales"
    assert (chart.anchor._from.col, chart.anchor._from.row) == (4, 1)  # E2, zero-based


def test_sheets_names_and_order(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "create_sheet", {"file_path": "data.xlsx", "sheet_name": "First", "position": 0})
    call(sidecar_bin, ws, "create_sheet", {"file_path": "data.xlsx", "sheet_name": "Last"})
    call(sidecar_bin, ws, "rename_sheet", {"file_path": "data.xlsx", "old_name": "Last", "new_name": "Summary"})
    call(sidecar_bin, ws, "create_sheet", {"file_path": "data.xlsx", "sheet_name": "Tmp"})
    call(sidecar_bin, ws, "delete_sheet", {"file_path": "data.xlsx", "sheet_name": "Tmp", "confirm": True})
    assert load(ws).sheetnames == ["First", "Data", "Summary"]
    listed = call(sidecar_bin, ws, "list_sheets", {"file_path": "data.xlsx"})
    assert [s["name"] for s in listed["sheets"]] == ["First", "Data", "Summary"]
    dup = call(sidecar_bin, ws, "create_sheet", {"file_path": "data.xlsx", "sheet_name": "data"}, ok=False)
    assert dup["exception"] == "ValueError"


def test_rows_columns_and_copy(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "insert_rows", {"file_path": "data.xlsx", "row": 2, "count": 2})
    call(sidecar_bin, ws, "insert_columns", {"file_path": "data.xlsx", "column": "B"})
    call(sidecar_bin, ws, "delete_rows", {"file_path": "data.xlsx", "row": 2})
    sheet = load(ws)["Data"]
    assert sheet["A1"].value == "name" and sheet["B1"].value is None and sheet["C1"].value == "qty"
    assert sheet["A2"].value is None and sheet["A3"].value == "item1" and sheet["C3"].value == 10
    call(sidecar_bin, ws, "copy_range_between_sheets", {
        "source_file": "data.xlsx", "source_sheet": "Data", "source_range": "A3:D4",
        "target_sheet": "Copy", "target_start": "B2", "create": True,
    })
    want = [["item1", None, 10, 1.5], ["item2", None, 20, 3.0]]
    assert [[c.value for c in row] for row in load(ws)["Copy"]["B2:E3"]] == want
    # Across workbooks: the target is created on the fly.
    call(sidecar_bin, ws, "write_cells", {"file_path": "other.xlsx", "cell": "A1", "value": "x"})
    call(sidecar_bin, ws, "copy_range_between_sheets", {
        "source_file": "data.xlsx", "source_sheet": "Data", "source_range": "A3:D4",
        "target_file": "other.xlsx", "target_sheet": "Sheet1", "target_start": "A2",
    })
    assert [[c.value for c in row] for row in load(ws, "other.xlsx")["Sheet1"]["A2:D3"]] == want


def test_read_only_dimensions_cover_every_cell(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    # A write far from the data must grow the used range, not shrink it to the block.
    call(sidecar_bin, ws, "write_cells", {"file_path": "data.xlsx", "cell_range": "H20", "values": [[1, 2]]})
    ro = load(ws, read_only=True)["Data"]
    assert (ro.max_row, ro.max_column) == (20, 9)
    call(sidecar_bin, ws, "write_cells", {"file_path": "data.xlsx", "cell": "B2", "value": 99})
    ro = load(ws, read_only=True)["Data"]
    assert (ro.max_row, ro.max_column) == (20, 9)
    call(sidecar_bin, ws, "insert_rows", {"file_path": "data.xlsx", "row": 1, "count": 3})
    ro = load(ws, read_only=True)["Data"]
    assert ro.max_row == 23
    rows = list(ro.iter_rows(values_only=True))
    assert rows[3][:3] == ("name", "qty", "price")


def test_read_excel_matches_openpyxl(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    got = call(sidecar_bin, ws, "read_excel", {"file_path": "data.xlsx", "range": "A1:C6"})
    want = [list(r) for r in load(ws, read_only=True)["Data"].iter_rows(min_row=1, max_row=6, max_col=3, values_only=True)]
    assert got["values"] == want
    page = call(sidecar_bin, ws, "read_excel", {"file_path": "data.xlsx", "max_rows": 2, "offset": 1})
    assert page["columns"] == ["name", "qty", "price"]
    assert page["rows"] == want[2:4] and page["has_more"] is True and page["next_offset"] == 3


def test_errors_are_python_exceptions(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    assert call(sidecar_bin, ws, "read_excel", {"file_path": "../x.xlsx"}, ok=False)["exception"] == "PermissionError"
    assert call(sidecar_bin, ws, "read_excel", {"file_path": "nope.xlsx"}, ok=False)["exception"] == "FileNotFoundError"
    assert call(sidecar_bin, ws, "read_excel", {"file_path": "data.xlsx", "sheet_name": "Nope"}, ok=False)["exception"] == "KeyError"


def test_read_excel_matches_openpyxl_on_varied_cells(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    """A differential check of the streaming reader against openpyxl on a workbook openpyxl
    wrote: shared strings with CJK, emoji, markup characters, whitespace and rich text, ints past
    2^53, floats on repr boundaries, booleans, error values and empty cells in between."""
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "混合"
    rows: list[list[Any]] = [
        ["销售数据", "emoji 😀", "a&b<c>\"d'", "  padded  ", None, "tab\tand\nnewline"],
        [9007199254740993, -0.0, 1e-05, 1e16, 0.1 + 0.2, -123456789],
        [True, False, None, "=not a formula", "#N/A", ""],
        [None, None, None, None, None, "last"],
    ]
    for row in rows:
        sheet.append(row)
    sheet["C3"] = CellRichText(["bold ", TextBlock(InlineFont(b=True), "part")])
    sheet["E3"].data_type = "e"
    sheet["D3"].data_type = "s"
    wb.save(tmp_path / "mixed.xlsx")

    got = call(sidecar_bin, tmp_path, "read_excel", {"file_path": "mixed.xlsx", "sheet_name": "混合", "range": "A1:F4"})
    want = [
        list(r)
        for r in load(tmp_path, "mixed.xlsx", read_only=True)["混合"].iter_rows(
            min_row=1, max_row=4, max_col=6, values_only=True
        )
    ]
    assert len(got["values"]) == len(want)
    for got_row, want_row in zip(got["values"], want, strict=True):
        # openpyxl reads an empty string cell back as None; so may we.
        assert [None if v == "" else v for v in got_row] == [None if v == "" else v for v in want_row]
    assert got["values"][1][0] in (2**53, 2**53 + 1) and got["values"][2][2] == "bold part"
    assert got["values"][0][:2] == ["销售数据", "emoji 😀"] and got["values"][3][5] == "last"


def iso(v: Any) -> Any:
    """openpyxl's value as a JSON payload carries it: dates and times as isoformat() text."""
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    return v


@pytest.mark.parametrize("epoch", ["1900", "1904"])
def test_read_excel_matches_openpyxl_on_dates(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, epoch: str) -> None:
    """A differential check of date handling against openpyxl on a workbook openpyxl wrote, in
    both date systems: dates, datetimes (with milliseconds), times, the serials around Excel's
    fictitious 1900-02-29, builtin and custom date formats, and number formats that must stay
    numbers (percentage, plain, a duration, a negative serial under a date format)."""
    from openpyxl.utils.datetime import CALENDAR_MAC_1904

    wb = openpyxl.Workbook()
    if epoch == "1904":
        wb.epoch = CALENDAR_MAC_1904
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Dates"
    sheet.append(["date", "datetime", "time", "custom", "percent", "plain", "builtin 14", "builtin 22"])
    rows: list[list[Any]] = [
        [datetime.date(2024, 1, 31), datetime.datetime(2024, 1, 31, 13, 45, 10), datetime.time(13, 45, 10),
         datetime.datetime(2024, 2, 29, 8, 5), 0.125, 45322, 45322, 45322.75],
        [datetime.date(1999, 12, 31), datetime.datetime(2000, 2, 29, 23, 59, 59, 500000), datetime.time(0, 0, 0, 250000),
         datetime.datetime(1970, 1, 1), 1.5, 0.5, 59, 60.5],
        [datetime.date(9999, 12, 31), datetime.datetime(1904, 3, 1, 0, 0, 1), datetime.time(23, 59, 59),
         datetime.datetime(2100, 12, 31, 12), -0.25, 7.25, 61, 0.75],
    ]
    for row in rows:
        sheet.append(row)
    for r in range(2, 5):
        sheet.cell(r, 4).number_format = "yyyy/mm/dd hh:mm"
        sheet.cell(r, 5).number_format = "0.00%"
        sheet.cell(r, 6).number_format = "#,##0.00"
        sheet.cell(r, 7).number_format = "mm-dd-yy"  # builtin 14
        sheet.cell(r, 8).number_format = "m/d/yy h:mm"  # builtin 22
    sheet["I1"], sheet["I2"] = "duration", 1.5
    sheet["I2"].number_format = "[h]:mm:ss"  # openpyxl: a timedelta; we keep the serial
    sheet["J1"], sheet["J2"] = "negative", -3
    sheet["J2"].number_format = "yyyy-mm-dd"  # openpyxl: a date before 1900; we keep the serial
    wb.save(tmp_path / "dates.xlsx")

    read = load(tmp_path, "dates.xlsx", read_only=True)
    assert read.epoch == (CALENDAR_MAC_1904 if epoch == "1904" else datetime.datetime(1899, 12, 30))
    want = [[iso(v) for v in r] for r in read["Dates"].iter_rows(min_row=1, max_row=4, max_col=8, values_only=True)]
    got = call(sidecar_bin, tmp_path, "read_excel", {"file_path": "dates.xlsx", "range": "A1:H4"})
    assert got["values"] == want
    summary = call(sidecar_bin, tmp_path, "read_excel", {"file_path": "dates.xlsx", "max_rows": 3})
    assert summary["columns"][:8] == want[0] and [r[:8] for r in summary["rows"]] == want[1:]
    # The checks above must not pass vacuously: dates are text, the rest stay numbers.
    assert got["values"][1][:3] == ["2024-01-31T00:00:00", "2024-01-31T13:45:10", "13:45:10"]
    assert got["values"][2][1] == "2000-02-29T23:59:59.500000" and got["values"][2][2] == "00:00:00.250000"
    assert got["values"][1][4:6] == [0.125, 45322]
    if epoch == "1900":
        assert got["values"][2][6:] == ["1900-02-28T00:00:00", "1900-02-28T12:00:00"]
    # Where openpyxl's value has no JSON form (a timedelta) or is a date Excel shows as ####,
    # the serial stays a number.
    assert [r[8:] for r in summary["rows"]] == [[1.5, -3], [None, None], [None, None]]
    odd = read["Dates"]
    assert isinstance(next(odd.iter_rows(min_row=2, max_row=2, min_col=9, max_col=9, values_only=True))[0], datetime.timedelta)


def test_paging_under_the_result_cap_matches_openpyxl(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    # Rows too long for 50 of them to fit in the 3000-character result cap:
    # each page is sized to fit, and following next_offset reads every row
    # that openpyxl sees exactly once (truncation used to skip rows).
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.append(["n", "text", "more"])
    for i in range(1, 121):
        sheet.append([i, f"ligne {i} " + "é中\"\\" * 20, None if i % 7 == 0 else i * 0.5])
    wb.save(tmp_path / "long.xlsx")
    want = [list(r) for r in load(tmp_path, "long.xlsx", read_only=True).active.iter_rows(values_only=True)]

    def pages(args: dict[str, Any], key: str) -> list[list[Any]]:
        got: list[list[Any]] = []
        offset = 0
        for _ in range(200):
            page = call(sidecar_bin, tmp_path, "read_excel", {"file_path": "long.xlsx", "offset": offset, **args})
            assert not [k for k in page if k.startswith("_")], "page cut by truncation"
            assert page["rows_returned"] == len(page[key])
            got += page[key]
            if not page["has_more"]:
                assert "next_offset" not in page
                return got
            assert page["next_offset"] == offset + len(page[key]) > offset
            offset = page["next_offset"]
        raise AssertionError("paging does not end")

    assert pages({}, "rows") == want[1:]
    assert pages({"range": "A1:C500"}, "values") == want
