"""The reference tools against outside oracles.

get_reference_map, trace_references and get_impact_analysis run through the real binary on
workbooks generated here (a few hundred rows: same-sheet, cross-sheet, defined-name, table and
external references). The references they report must be the ones openpyxl's formula tokenizer
finds (operand tokens of subtype RANGE) in the same formulas; the cells get_impact_analysis
claims change when a cell changes must be exactly the cells LibreOffice's recalculation changes.
"""

from __future__ import annotations

import pathlib
from typing import Any

import openpyxl
import pandas as pd
import pytest
from openpyxl.formula.tokenizer import Token, Tokenizer
from openpyxl.packaging.relationship import Relationship
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.workbook.external_link.external import ExternalBook, ExternalLink, ExternalSheetNames
from openpyxl.worksheet.table import Table
from test_excel_readback import call

ROWS = 200
BOOK = "refs.xlsx"
EXTERNAL = "links.xlsx"


def build(ws: pathlib.Path) -> None:
    """refs.xlsx: Data (a table Sales with a formula column), Calc and 'My Report' reading it."""
    frame = pd.DataFrame({"Qty": [(r % 7) + 1 for r in range(ROWS)], "Price": [10 + r for r in range(ROWS)]})
    path = ws / BOOK
    frame.to_excel(path, sheet_name="Data", index=False)
    wb = openpyxl.load_workbook(path)
    data = wb["Data"]
    data["C1"] = "Amount"
    for r in range(2, ROWS + 2):
        data[f"C{r}"] = f"=A{r}*B{r}"
    data.add_table(Table(displayName="Sales", ref=f"A1:C{ROWS + 1}"))
    data["E1"] = "=SUM(A2:A11)"
    data["E2"] = "=E1*2"
    wb.defined_names["Prices"] = DefinedName("Prices", attr_text=f"Data!$B$2:$B${ROWS + 1}")
    calc = wb.create_sheet("Calc")
    calc["A1"] = f"=SUM(Data!A2:A{ROWS + 1})"
    calc["A2"] = "=SUM(Prices)"
    calc["A3"] = "=SUM(Sales[Qty])"
    calc["A4"] = "=A1+A2"
    calc["A5"] = "=Data!$B$5*2"
    calc["A6"] = "=SUM(Sales[Amount])"
    calc["A7"] = "=Data!E2+1"
    report = wb.create_sheet("My Report")
    report["B1"] = "=Calc!A4*2"
    report["B2"] = "='My Report'!B1+Calc!A6"
    wb.save(path)


def build_external(ws: pathlib.Path) -> None:
    """links.xlsx: formulas with external, 3-D and structured this-row references (tokenizer only)."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Jan"
    wb.create_sheet("Mar")
    sheet["A1"] = "=[1]Prices!A1*2"
    sheet["A2"] = "='[1]My Data'!B2:C3"
    sheet["A3"] = "=SUM(Jan:Mar!B2)+Rate"
    sheet["A4"] = "=SUM(Sales[[#This Row],[Qty]])+Sales[#All]"
    sheet["A5"] = '="A1"&B1&IF(C1>0,D$1,$E2:F9)'
    link = ExternalLink(
        externalBook=ExternalBook(sheetNames=ExternalSheetNames(sheetName=["Prices", "My Data"]), id="rId1")
    )
    link.file_link = Relationship(type="externalLinkPath", Target="prices.xlsx", TargetMode="External", Id="rId1")
    wb._external_links.append(link)
    wb.save(ws / EXTERNAL)


def tokenizer_refs(formula: str) -> list[str]:
    """The reference operands openpyxl's tokenizer finds in formula."""
    return [t.value for t in Tokenizer(formula).items if t.type == Token.OPERAND and t.subtype == Token.RANGE]


def all_formulas(sidecar_bin: pathlib.Path, ws: pathlib.Path, book: str) -> list[dict[str, Any]]:
    """Every formula get_reference_map lists in full detail, read page by page."""
    out: list[dict[str, Any]] = []
    offset = 0
    while True:
        got = call(
            sidecar_bin,
            ws,
            "get_reference_map",
            {"file_path": book, "detail": "full", "offset": offset, "max_items": 37},
        )
        out.extend(got["formulas"])
        if not got["has_more"]:
            return out
        assert got["next_offset"] == offset + len(got["formulas"])
        offset = got["next_offset"]


@pytest.mark.parametrize("book", [BOOK, EXTERNAL])
def test_reference_map_matches_the_tokenizer(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, book: str) -> None:
    build(tmp_path)
    build_external(tmp_path)
    listed = all_formulas(sidecar_bin, tmp_path, book)
    wb = openpyxl.load_workbook(tmp_path / book)
    want = {}
    for sheet in wb.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    want[f"{sheet.title}!{cell.coordinate}"] = tokenizer_refs(cell.value)
    got = {f"{f['sheet']}!{f['cell']}": [r["ref"] for r in f["references"]] for f in listed}
    assert got == want


def test_reference_map_edges(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    build(tmp_path)
    got = call(sidecar_bin, tmp_path, "get_reference_map", {"file_path": BOOK})
    edges = {(e["source_sheet"], e["target_sheet"], e["ref_type"]): e["ref_count"] for e in got["cross_sheet_edges"]}
    assert edges == {
        ("Calc", "Data", "range"): 1,
        ("Calc", "Data", "name"): 1,
        ("Calc", "Data", "table"): 2,
        ("Calc", "Data", "cell"): 2,
        ("My Report", "Calc", "cell"): 2,
    }
    assert [n["name"] for n in got["named_ranges"]] == ["Prices"]
    assert [t["name"] for t in got["tables"]] == ["Sales"]


def test_external_links_name_the_linked_workbook(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    build_external(tmp_path)
    got = call(sidecar_bin, tmp_path, "get_reference_map", {"file_path": EXTERNAL})
    assert got["external_links"] == [{"workbook": "prices.xlsx", "ref_count": 2}]
    trace = call(sidecar_bin, tmp_path, "trace_references", {"file_path": EXTERNAL, "target": "Jan!A2", "depth": 1})
    assert [(p["display"], p["type"], p["workbook"]) for p in trace["precedents"]] == [
        ("'[1]My Data'!B2:C3", "external", "prices.xlsx")
    ]


def test_trace_references_precedents_match_the_tokenizer(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    build(tmp_path)
    wb = openpyxl.load_workbook(tmp_path / BOOK)
    for target in ["Calc!A4", "Calc!A6", "'My Report'!B2", "Data!C9"]:
        sheet, cell = target.rsplit("!", 1)
        formula = wb[sheet.strip("'")][cell].value
        got = call(
            sidecar_bin,
            tmp_path,
            "trace_references",
            {"file_path": BOOK, "target": target, "direction": "precedents", "depth": 1},
        )
        assert [p["display"] for p in got["precedents"]] == tokenizer_refs(formula), target


def cell_values(report: dict[str, Any]) -> dict[str, Any]:
    """sheet!cell -> value (or error) of every non-empty cell of a LibreOffice report."""
    out = {}
    for sheet in report["sheets"]:
        for ref, c in sheet["cells"].items():
            out[f"{sheet['name']}!{ref}"] = c.get("v", c.get("e"))
    return out


@pytest.mark.parametrize(
    "sheet,cell", [("Data", "A5"), ("Data", "B7"), ("Data", "A11"), ("Data", "B150"), ("Calc", "A1"), ("Data", "E1")]
)
def test_impact_is_what_libreoffice_recalculates(
    sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, libreoffice: Any, sheet: str, cell: str
) -> None:
    build(tmp_path)
    got = call(
        sidecar_bin,
        tmp_path,
        "get_impact_analysis",
        {"file_path": BOOK, "target": f"{sheet}!{cell}", "max_items": 1000},
    )
    assert not got["has_more"]
    claimed = {f"{d['sheet']}!{d['cell']}" for d in got["direct_impact"] + got["indirect_impact"]}
    assert got["total_affected_cells"] == len(claimed)
    before = cell_values(libreoffice.run(tmp_path / BOOK, []))
    after = cell_values(
        libreoffice.run(tmp_path / BOOK, [{"op": "set", "sheet": sheet, "cell": cell, "value": 1234.5}])
    )
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)} - {f"{sheet}!{cell}"}
    assert claimed == changed
