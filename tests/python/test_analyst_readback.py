"""The analyst tools (tables, frozen panes, filters, sorting, find and replace, notes, links)
as openpyxl and LibreOffice see their result.

Every tool runs through the real binary (`registry-sidecar call`); openpyxl reads the saved
workbook back, and LibreOffice opens it, recalculates and reports what it read (cells, notes,
links, hidden rows, frozen panes, tables), so a file Excel-compatible readers would repair
or misread fails here.
"""

from __future__ import annotations

import pathlib
import zipfile
from typing import Any

import openpyxl
import openpyxl.comments
import pytest
from test_excel_readback import call

BOOK = "sales.xlsx"


@pytest.fixture()
def ws(tmp_path: pathlib.Path) -> pathlib.Path:
    """A workspace holding sales.xlsx: a header, five rows with per-row formulas, a total,
    a tax rate outside the block, and a second sheet."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet.append(["region", "qty", "price", "amount", "with tax"])
    for i, (region, qty, price) in enumerate(
            [("north", 30, 1.5), ("South", 10, 2.5), ("east", 50, 0.5), ("west", 20, 4), ("Centre", 40, 3)], start=2):
        sheet.append([region, qty, price, f"=B{i}*C{i}", f"=D{i}*(1+$H$1)"])
    sheet["A8"], sheet["D8"], sheet["H1"] = "total", "=SUM(D2:D6)", 0.25
    wb.create_sheet("Summary")["A1"] = "see Data"
    wb.save(tmp_path / BOOK)
    return tmp_path


def run_all(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    """Every analyst tool once on sales.xlsx."""
    def tool(name: str, **args: Any) -> dict[str, Any]:
        return call(sidecar_bin, ws, name, {"file_path": BOOK, **args})

    tool("sort_range", sheet_name="Data", cell_range="A1:E6", header=True,
         sort_by=[{"column": "qty", "order": "descending"}])
    tool("find_replace", find="Centre", replace="Center", whole_cell=True)
    tool("create_table", sheet_name="Data", cell_range="A1:E6", table_name="Sales", style="TableStyleMedium9")
    tool("freeze_panes", sheet_name="Data", cell="B2")
    tool("set_autofilter", sheet_name="Summary", cell_range="A3:B7",
         filters=[{"column": "B", "operator": "greaterThan", "value": 2}])
    tool("add_comment", sheet_name="Data", cell="B2", text="largest order", author="Ana")
    tool("set_hyperlink", sheet_name="Summary", cell="A1", location="Data!A1", display_text="to the data",
         tooltip="jump")
    tool("set_hyperlink", sheet_name="Summary", cell="A2", url="https://example.com/report")


def summary_rows(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    """A small block on Summary for the autofilter: a header and four rows."""
    call(sidecar_bin, ws, "write_cells", {"file_path": BOOK, "sheet_name": "Summary", "cell_range": "A3",
                                          "values": [["k", "n"], ["a", 1], ["b", 2], ["c", 3], ["d", 4]]})


# SORTED is Data after sorting by qty descending (and Centre renamed Center).
SORTED = [("east", 50, 0.5), ("Center", 40, 3), ("north", 30, 1.5), ("west", 20, 4), ("South", 10, 2.5)]


def test_openpyxl_reads_back_what_the_tools_wrote(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    summary_rows(sidecar_bin, ws)
    run_all(sidecar_bin, ws)
    wb = openpyxl.load_workbook(ws / BOOK)
    data, summary = wb["Data"], wb["Summary"]

    # sort_range: rows moved, each formula follows its row, the outside total untouched.
    for i, (region, qty, price) in enumerate(SORTED, start=2):
        assert [c.value for c in data[i][:5]] == [region, qty, price, f"=B{i}*C{i}", f"=D{i}*(1+$H$1)"]
    assert data["D8"].value == "=SUM(D2:D6)"

    table = data.tables["Sales"]
    assert table.ref == "A1:E6"
    assert table.tableStyleInfo.name == "TableStyleMedium9"
    assert [c.name for c in table.tableColumns] == ["region", "qty", "price", "amount", "with tax"]

    assert data.freeze_panes == "B2"

    assert summary.auto_filter.ref == "A3:B7"
    (column,) = summary.auto_filter.filterColumn
    assert column.colId == 1
    assert [(f.operator, f.val) for f in column.customFilters.customFilter] == [("greaterThan", "2")]
    assert [r for r in range(3, 8) if summary.row_dimensions[r].hidden] == [4, 5]

    assert data["B2"].comment.text == "largest order"
    assert data["B2"].comment.author == "Ana"

    internal, external = summary["A1"].hyperlink, summary["A2"].hyperlink
    assert (internal.location, internal.tooltip, internal.display) == ("Data!A1", "jump", "to the data")
    assert summary["A1"].value == "to the data"
    assert external.target == "https://example.com/report"
    assert summary["A2"].value == "https://example.com/report"
    assert summary["A2"].font.u == "single"
    assert summary["A2"].font.color.rgb.endswith("0563C1")

    # The cached values openpyxl reads with data_only are the recalculated ones.
    values = openpyxl.load_workbook(ws / BOOK, data_only=True)["Data"]
    for i, (_, qty, price) in enumerate(SORTED, start=2):
        assert values[f"D{i}"].value == pytest.approx(qty * price)
        assert values[f"E{i}"].value == pytest.approx(qty * price * 1.25)


def test_libreoffice_opens_and_reads_the_same(sidecar_bin: pathlib.Path, ws: pathlib.Path, libreoffice: Any) -> None:
    summary_rows(sidecar_bin, ws)
    run_all(sidecar_bin, ws)
    got = libreoffice.run(ws / BOOK, [], structure=True)
    cells = {s["name"]: s["cells"] for s in got["sheets"]}
    data = cells["Data"]
    for i, (region, qty, price) in enumerate(SORTED, start=2):
        assert data[f"A{i}"] == {"v": region}
        assert data[f"D{i}"] == {"f": f"=B{i}*C{i}", "v": pytest.approx(qty * price)}
        assert data[f"E{i}"]["v"] == pytest.approx(qty * price * 1.25)
    assert data["D8"] == {"f": "=SUM(D2:D6)", "v": pytest.approx(sum(q * p for _, q, p in SORTED))}

    structure = {s["name"]: s for s in got["structure"]["sheets"]}
    assert structure["Data"]["notes"] == {"B2": "largest order"}
    assert structure["Data"]["frozen"] is True
    assert structure["Summary"]["hidden_rows"] == [4, 5]
    links = structure["Summary"]["links"]
    assert links["A2"] == {"url": "https://example.com/report", "text": "https://example.com/report"}
    assert links["A1"]["text"] == "to the data"
    assert links["A1"]["url"].endswith("Data.A1") or links["A1"]["url"].endswith("Data!A1"), links["A1"]
    assert structure["Summary"]["autofilter"] == "A3:B7"
    assert structure["Data"]["autofilter"] is None
    tables = {r["name"]: r for r in got["structure"]["database_ranges"]}
    assert tables["Sales"]["range"] == "A1:E6", tables
    assert tables["Sales"]["autofilter"] is True, tables


def test_sort_and_replace_errors_leave_the_file_alone(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    before = (ws / BOOK).read_bytes()
    got = call(sidecar_bin, ws, "find_replace",
               {"file_path": BOOK, "find": "SUM", "replace": "SUMME", "in_formulas": True}, ok=False)
    assert got["exception"] == "ValueError"
    assert "SUMME is not an Excel function" in got["message"]
    got = call(sidecar_bin, ws, "sort_range", {"file_path": BOOK, "sheet_name": "Data", "cell_range": "A1:E6",
                                              "header": True, "sort_by": [{"column": "qtty"}]}, ok=False)
    assert 'Did you mean "qty"?' in got["message"]
    assert (ws / BOOK).read_bytes() == before


@pytest.mark.parametrize(("tool", "args", "notes"), [
    ("add_comment", {"cell": "C4", "text": "second", "author": "Ana"}, {"B3": "a note", "C4": "second"}),
    ("add_comment", {"cell": "B3", "remove": True}, {}),
    ("clear_range", {"cell_range": "B2:B3", "what": "both"}, {}),
    ("sort_range", {"cell_range": "A1:E6", "header": True, "sort_by": [{"column": "qty"}]}, {"B2": "a note"}),
])
def test_notes_openpyxl_wrote_stay_one_part(sidecar_bin: pathlib.Path, ws: pathlib.Path, libreoffice: Any,
                                            tool: str, args: dict[str, Any], notes: dict[str, str]) -> None:
    """openpyxl names its note parts with absolute targets (/xl/comments/comment1.xml,
    /xl/drawings/commentsDrawing1.vml): a tool changing the notes writes those same parts,
    never a second copy beside them (a zip member named "/xl/..."), and LibreOffice opens
    the result and reads every note."""
    wb = openpyxl.load_workbook(ws / BOOK)
    wb["Data"]["B3"].comment = openpyxl.comments.Comment("a note", "me")
    wb.save(ws / BOOK)
    call(sidecar_bin, ws, tool, {"file_path": BOOK, "sheet_name": "Data", **args})

    with zipfile.ZipFile(ws / BOOK) as z:
        names = z.namelist()
    assert len(names) == len(set(names)), names
    assert not [n for n in names if n.startswith("/")], names
    assert {n for n in names if "comment" in n} <= {"xl/comments/comment1.xml", "xl/drawings/commentsDrawing1.vml"}, names
    data = openpyxl.load_workbook(ws / BOOK)["Data"]
    assert {c.coordinate: c.comment.text for row in data.iter_rows() for c in row if c.comment} == notes

    got = libreoffice.run(ws / BOOK, [], structure=True)
    structure = {s["name"]: s for s in got["structure"]["sheets"]}
    assert structure["Data"]["notes"] == notes


@pytest.mark.parametrize(("tool", "args"), [
    ("insert_rows", {"row": 2, "count": 2}),
    ("delete_rows", {"row": 3, "count": 1}),
    ("insert_columns", {"column": "B", "count": 1}),
    ("delete_columns", {"column": "B", "count": 1}),
])
def test_notes_move_with_their_cells(sidecar_bin: pathlib.Path, ws: pathlib.Path, libreoffice: Any,
                                     tool: str, args: dict[str, Any]) -> None:
    """Rows and columns inserted or deleted move the notes with their cells, and a note on a
    deleted cell goes with it: judged by LibreOffice doing the same edit on the same file,
    and read back by openpyxl and by LibreOffice from ours."""
    wb = openpyxl.load_workbook(ws / BOOK)
    for cell, text in {"B3": "on B3", "C5": "on C5", "A7": "on A7"}.items():
        wb["Data"][cell].comment = openpyxl.comments.Comment(text, "me")
    wb.save(ws / BOOK)
    original = ws / "original.xlsx"
    original.write_bytes((ws / BOOK).read_bytes())
    call(sidecar_bin, ws, tool, {"file_path": BOOK, "sheet_name": "Data", **args})

    libreoffice.run(original, [{"op": tool, "sheet": "Data", **args}], save=ws / "calc.xlsx")
    calc = libreoffice.run(ws / "calc.xlsx", [], structure=True)  # structure is read before any op
    want = {s["name"]: s for s in calc["structure"]["sheets"]}["Data"]["notes"]
    assert want != {"B3": "on B3", "C5": "on C5", "A7": "on A7"}, "the edit moves a note"
    got = libreoffice.run(ws / BOOK, [], structure=True)
    assert {s["name"]: s for s in got["structure"]["sheets"]}["Data"]["notes"] == want
    data = openpyxl.load_workbook(ws / BOOK)["Data"]
    assert {c.coordinate: c.comment.text for row in data.iter_rows() for c in row if c.comment} == want
