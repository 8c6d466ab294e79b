"""openpyxl reads back Excel's reference semantics after structural edits and copies.

A workbook built by openpyxl (formulas on two sheets with a quoted name, a defined name, a
conditional format, a data validation and a chart) is edited through the real binary; openpyxl,
the peer most agents use, must then see every reference where Excel would put it.
"""

from __future__ import annotations

import pathlib
from typing import Any

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from openpyxl.formatting.rule import FormulaRule
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from test_excel_readback import call

DATA = "销售 2024"


@pytest.fixture()
def ws(tmp_path: pathlib.Path) -> pathlib.Path:
    wb = openpyxl.Workbook()
    data = wb.active
    assert data is not None
    data.title = DATA
    for r in range(1, 7):
        data.cell(r, 1, r)
        data.cell(r, 2, r * 10)
    data["D1"] = "=A3*10"
    data["D2"] = "=SUM(A1:A5)"
    data["D4"] = '="A3"&$A$4'
    data.conditional_formatting.add("B2:B5", FormulaRule(formula=["$A2>$A$6"]))
    dv = DataValidation(type="list", formula1="$A$1:$A$4")
    dv.add("C2:C5")
    data.add_data_validation(dv)
    chart = BarChart()
    chart.add_data(Reference(data, min_col=2, min_row=1, max_row=6), titles_from_data=True)
    chart.set_categories(Reference(data, min_col=1, min_row=2, max_row=6))
    data.add_chart(chart, "H2")
    report = wb.create_sheet("Report")
    report["A1"] = f"='{DATA}'!A3*2"
    report["A2"] = f"=SUM('{DATA}'!B1:B6)"
    report["A3"] = "=SUM(Amounts)"
    wb.defined_names["Amounts"] = DefinedName("Amounts", attr_text=f"'{DATA}'!$B$2:$B$5")
    wb.save(tmp_path / "refs.xlsx")
    return tmp_path


def load(ws: pathlib.Path) -> Any:
    return openpyxl.load_workbook(ws / "refs.xlsx")


def chart_refs(sheet: Any) -> list[str]:
    chart = sheet._charts[0]
    s = chart.series[0]
    return [s.val.numRef.f, s.cat.numRef.f if s.cat.numRef else s.cat.strRef.f]


def test_delete_rows_is_seen_by_openpyxl(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "delete_rows", {"file_path": "refs.xlsx", "sheet_name": DATA, "row": 3})
    wb = load(ws)
    data, report = wb[DATA], wb["Report"]
    assert data["D1"].value == "=#REF!*10"
    assert data["D2"].value == "=SUM(A1:A4)"
    assert data["D3"].value == '="A3"&$A$3'
    assert report["A1"].value == "=#REF!*2"
    assert report["A2"].value == f"=SUM('{DATA}'!B1:B5)"
    assert wb.defined_names["Amounts"].attr_text == f"'{DATA}'!$B$2:$B$4"
    cf = data.conditional_formatting
    assert [(str(r.sqref), r.rules[0].formula) for r in cf] == [("B2:B4", ["$A2>$A$5"])]
    assert [(str(v.sqref), v.formula1) for v in data.data_validations.dataValidation] == [("C2:C4", "$A$1:$A$3")]
    assert chart_refs(data) == [f"'{DATA}'!$B$2:$B$5", f"'{DATA}'!$A$2:$A$5"]


def test_insert_columns_rename_and_copy_are_seen_by_openpyxl(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "insert_columns", {"file_path": "refs.xlsx", "sheet_name": DATA, "column": "A"})
    call(sidecar_bin, ws, "rename_sheet", {"file_path": "refs.xlsx", "old_name": DATA, "new_name": "Q1 'Plan' v1"})
    call(sidecar_bin, ws, "copy_range_between_sheets", {
        "source_file": "refs.xlsx", "source_sheet": "Report", "source_range": "A1:A2",
        "target_sheet": "Report", "target_start": "C5"})
    wb = load(ws)
    plan, report = wb["Q1 'Plan' v1"], wb["Report"]
    assert plan["E2"].value == "=SUM(B1:B5)"
    assert report["A1"].value == "='Q1 ''Plan'' v1'!B3*2"
    assert report["C5"].value == "='Q1 ''Plan'' v1'!D7*2"
    assert report["C6"].value == "=SUM('Q1 ''Plan'' v1'!E5:E10)"
    assert wb.defined_names["Amounts"].attr_text == "'Q1 ''Plan'' v1'!$C$2:$C$5"
    assert chart_refs(plan) == ["'Q1 ''Plan'' v1'!$C$2:$C$6", "'Q1 ''Plan'' v1'!$B$2:$B$6"]
    assert [str(v.sqref) for v in plan.data_validations.dataValidation] == ["D2:D5"]


def test_delete_sheet_breaks_references(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    call(sidecar_bin, ws, "delete_sheet", {"file_path": "refs.xlsx", "sheet_name": DATA, "confirm": True})
    wb = load(ws)
    assert wb.sheetnames == ["Report"]
    assert wb["Report"]["A1"].value == "=#REF!*2"
    assert wb["Report"]["A2"].value == "=SUM(#REF!)"
    assert wb.defined_names["Amounts"].attr_text == "#REF!"
