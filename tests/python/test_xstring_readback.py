"""Text holding a control character or a piece that reads as an `_xHHHH_` escape.

OOXML stores such text as an ST_Xstring (ECMA-376 Part 1, 22.9.2.19): U+0004 as `_x0004_`, the
text `_x0041_` as `_x005F_x0041_`. Everything goes through the real binary (`registry-sidecar
call`); LibreOffice, which decodes ST_Xstring as Excel does, is the oracle for what a file means.
openpyxl 3.1 decodes only `_x005F_` of a shared string and nothing of an inline string or a control
character's escape: the tests say what it reads, and the splice path hands an escape-like text to
the shared strings so openpyxl reads it right.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import zipfile
from typing import Any
from xml.etree import ElementTree

import openpyxl
import pytest
from openpyxl.utils.escape import escape, unescape

CONTROL = "\x04abc"
LITERAL = "_x0041_"
EDGE = "_x0041\x01"  # the control character's escape would close the shape before it


def call(binary: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    proc = subprocess.run(
        [str(binary), "call", "--workspace", str(ws), tool, json.dumps(args)],
        capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    payload: dict[str, Any] = json.loads(proc.stdout)
    assert payload["status"] == "success", payload
    return payload


def calc_values(libreoffice: Any, path: pathlib.Path, area: str) -> list[Any]:
    """The values LibreOffice reads in one column range of the first sheet."""
    got = libreoffice.run(path, [], only=[area])
    return [c.get("v") for _, c in sorted(got["sheets"][0]["cells"].items(), key=lambda kv: int(kv[0][1:]))]


def read_column(binary: pathlib.Path, ws: pathlib.Path, area: str) -> list[Any]:
    values = call(binary, ws, "read_excel", {"file_path": "t.xlsx", "range": area})["values"]
    return [row[0] for row in values]


@pytest.mark.parametrize("existing", [True, False], ids=["existing book", "new book"])
def test_written_text_reads_back(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, libreoffice: Any,
                                 existing: bool) -> None:
    if existing:  # the splice path takes the control character; the escape-like text goes shared
        wb = openpyxl.Workbook()
        sheet = wb.active
        assert sheet is not None
        sheet["A1"] = "x"
        wb.save(tmp_path / "t.xlsx")
    call(sidecar_bin, tmp_path, "write_cells", {"file_path": "t.xlsx", "cell": "B1", "value": CONTROL})
    call(sidecar_bin, tmp_path, "write_cells", {"file_path": "t.xlsx", "cell": "B2", "value": LITERAL})
    call(sidecar_bin, tmp_path, "write_cells", {"file_path": "t.xlsx", "cell": "B3", "value": EDGE})

    with zipfile.ZipFile(tmp_path / "t.xlsx") as z:
        xml = "".join(z.read(n).decode() for n in z.namelist() if n.startswith("xl/") and n.endswith(".xml"))
    assert ">_x0004_abc<" in xml and ">_x005F_x0041_<" in xml, "stored as Excel stores them"
    assert ">_x005F_x0041_x0001_<" in xml

    assert read_column(sidecar_bin, tmp_path, "B1:B3") == [CONTROL, LITERAL, EDGE]
    assert calc_values(libreoffice, tmp_path / "t.xlsx", "B1:B3") == [CONTROL, LITERAL, EDGE]
    got = openpyxl.load_workbook(tmp_path / "t.xlsx").active
    assert got is not None
    assert got["B2"].value == LITERAL
    assert got["B1"].value == "_x0004_abc"  # openpyxl leaves the escape ...
    assert unescape(got["B1"].value) == CONTROL  # ... which its own helper decodes


def test_escaped_book_reads_and_edits(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, libreoffice: Any) -> None:
    # openpyxl refuses a control character in a cell; escape() gives the file form Excel writes.
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet["A1"] = escape(CONTROL)
    sheet["A2"] = "_x005F_x0041_"  # the literal text _x0041_, as Excel writes it
    sheet["A3"] = LITERAL  # openpyxl writes it unescaped: Excel and Calc read "A"
    wb.save(tmp_path / "t.xlsx")

    want = [CONTROL, LITERAL, "A"]
    assert calc_values(libreoffice, tmp_path / "t.xlsx", "A1:A3") == want
    assert read_column(sidecar_bin, tmp_path, "A1:A3") == want
    hits = call(sidecar_bin, tmp_path, "search_excel_values",
                {"file_path": "t.xlsx", "query": LITERAL, "match_mode": "exact"})
    assert hits["total_matches"] == 1
    hits = call(sidecar_bin, tmp_path, "search_excel_values",
                {"file_path": "t.xlsx", "query": CONTROL, "match_mode": "exact"})
    assert hits["total_matches"] == 1

    call(sidecar_bin, tmp_path, "find_replace", {"file_path": "t.xlsx", "find": "abc", "replace": "xyz"})
    call(sidecar_bin, tmp_path, "find_replace", {"file_path": "t.xlsx", "find": "41", "replace": "42"})
    want = ["\x04xyz", "_x0042_", "A"]
    assert calc_values(libreoffice, tmp_path / "t.xlsx", "A1:A3") == want
    assert read_column(sidecar_bin, tmp_path, "A1:A3") == want
    got = openpyxl.load_workbook(tmp_path / "t.xlsx").active
    assert got is not None
    assert [unescape(got["A1"].value), got["A2"].value] == want[:2]


def test_notes_read_back(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, libreoffice: Any) -> None:
    # A note's text (CT_Rst's <t>) and its author are ST_Xstring too.
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet["A1"] = "x"
    wb.save(tmp_path / "t.xlsx")
    texts = {"B1": CONTROL, "B2": LITERAL, "B3": EDGE}
    for cell, text in texts.items():
        call(sidecar_bin, tmp_path, "add_comment", {"file_path": "t.xlsx", "cell": cell, "text": text, "author": LITERAL})

    with zipfile.ZipFile(tmp_path / "t.xlsx") as z:
        part = z.read("xl/comments1.xml")
    ElementTree.fromstring(part)  # well-formed: expat refuses a raw control character
    xml = part.decode()
    assert "\ufffd" not in xml
    assert "<t>_x0004_abc</t>" in xml and "<t>_x005F_x0041_</t>" in xml, "stored as Excel stores them"
    assert "<t>_x005F_x0041_x0001_</t>" in xml and "<author>_x005F_x0041_</author>" in xml

    calc = libreoffice.run(tmp_path / "t.xlsx", [], structure=True)
    assert calc["structure"]["sheets"][0]["notes"] == texts
    got = openpyxl.load_workbook(tmp_path / "t.xlsx").active
    assert got is not None
    stored = {cell: got[cell].comment.text for cell in texts}
    assert stored == {"B1": "_x0004_abc", "B2": "_x005F_x0041_", "B3": "_x005F_x0041_x0001_"}  # as stored ...
    assert {cell: unescape(text) for cell, text in stored.items()} == texts  # ... its helper decodes them

    replaced = call(sidecar_bin, tmp_path, "add_comment", {"file_path": "t.xlsx", "cell": "B2", "text": "new"})
    assert replaced["previous_text"] == LITERAL


def test_header_footer_kept(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, libreoffice: Any) -> None:
    # Header and footer texts are ST_Xstring as well (CT_HeaderFooter); no tool writes them, and an
    # edit that rewrites the sheet keeps Excel's form. openpyxl decodes them as Excel does;
    # LibreOffice 25.2 shows the escapes as typed characters (it decodes notes and cells only).
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet["A1"] = "x"
    sheet.oddHeader.center.text = "a\x04b"  # openpyxl writes the control character _x0004_
    sheet.oddHeader.right.text = "_x005F_x0041_"  # the literal text _x0041_, as Excel writes it
    wb.save(tmp_path / "t.xlsx")
    call(sidecar_bin, tmp_path, "insert_rows", {"file_path": "t.xlsx", "row": 1})

    with zipfile.ZipFile(tmp_path / "t.xlsx") as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
    assert "<oddHeader>&amp;Ca_x0004_b&amp;R_x005F_x0041_</oddHeader>" in xml
    got = openpyxl.load_workbook(tmp_path / "t.xlsx").active
    assert got is not None
    assert got["A2"].value == "x", "the edit took the excelize path"
    assert [got.oddHeader.center.text, got.oddHeader.right.text] == ["a\x04b", LITERAL]
    calc = libreoffice.run(tmp_path / "t.xlsx", [], structure=True)
    assert calc["structure"]["sheets"][0]["header_footer"]["header"] == ["", "a_x0004_b", "_x005F_x0041_"]
