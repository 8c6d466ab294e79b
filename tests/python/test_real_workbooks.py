"""Real-world workbooks through the real binary: they open, and damaged ones stay damaged.

A workbook encrypted with Excel's default password reads and refuses writes; one with a
password of its own is refused; a zip quirk unzip reads (a directory offset of zero and trailing
bytes) is read and edited, and LibreOffice shows the edit; a macro sheet is
listed with its kind; a cell pointing at a shared string that does not exist fails reads and
writes alike, leaving the file as it was.
"""

from __future__ import annotations

import io
import json
import pathlib
import shutil
import struct
import subprocess
import zipfile
from typing import Any

import openpyxl
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "excelops" / "internal" / "tools" / "testdata" / "encrypted"


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


def book_bytes(other: bool = False) -> bytes:
    """A small workbook: sheet Data with a header and two rows (and with other, a sheet Other)."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet.append(["name", "qty"])
    sheet.append(["apples", 3])
    sheet.append(["pears", 4])
    if other:
        wb.create_sheet("Other").append(["kept", 1])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_default_password_reads_and_refuses_writes(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    shutil.copy(FIXTURES / "default_password.xlsx", tmp_path / "ro.xlsx")
    before = (tmp_path / "ro.xlsx").read_bytes()
    got = call(sidecar_bin, tmp_path, "read_excel", {"file_path": "ro.xlsx", "range": "A1:B3"})
    assert got["values"] == [["name", "amount"], ["apples", 3], ["pears", 4.5]]
    refused = call(sidecar_bin, tmp_path, "write_cells", {"file_path": "ro.xlsx", "cell": "C1", "value": 1}, ok=False)
    assert refused["exception"] == "PermissionError"
    assert refused["message"].startswith("encrypted workbook: ro.xlsx is encrypted with Excel's default password")
    assert (tmp_path / "ro.xlsx").read_bytes() == before


def test_other_password_refused(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    shutil.copy(FIXTURES / "secret_password.xlsx", tmp_path / "secret.xlsx")
    for tool in ("list_sheets", "read_excel", "write_cells"):
        args: dict[str, Any] = {"file_path": "secret.xlsx"}
        if tool == "write_cells":
            args.update(cell="A1", value=1)
        got = call(sidecar_bin, tmp_path, tool, args, ok=False)
        assert got["exception"] == "PermissionError"
        assert got["message"] == "encrypted workbook: a password is required"


def quirky(data: bytes) -> bytes:
    """data with its directory offset set to zero and 66 KiB of trailing bytes (Go's reader rejects both)."""
    out = bytearray(data)
    end = out.rfind(b"PK\x05\x06")
    struct.pack_into("<I", out, end + 16, 0)
    return bytes(out) + bytes(66 << 10)


def test_zip_quirk_read_and_edited(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, libreoffice: Any) -> None:
    path = tmp_path / "q.xlsx"
    path.write_bytes(quirky(book_bytes()))
    unzip = shutil.which("unzip")
    if unzip:
        tested = subprocess.run([unzip, "-t", str(path)], capture_output=True, text=True, check=False)
        assert tested.returncode in (0, 1, 2) and tested.stdout.count(" OK") >= 3, tested.stdout
    got = call(sidecar_bin, tmp_path, "read_excel", {"file_path": "q.xlsx", "range": "A2:B3"})
    assert got["values"] == [["apples", 3], ["pears", 4]]
    call(sidecar_bin, tmp_path, "write_cells", {"file_path": "q.xlsx", "cell": "C2", "value": 7})
    wb = openpyxl.load_workbook(path)
    assert wb["Data"]["C2"].value == 7
    assert wb["Data"]["A3"].value == "pears"
    answer = libreoffice.run(path, [])
    cells = next(s["cells"] for s in answer["sheets"] if s["name"] == "Data")
    assert cells["C2"]["v"] == 7.0
    assert cells["A3"]["v"] == "pears"


def with_macro_sheet(data: bytes) -> bytes:
    """data with an Excel 4 macro sheet named Module after its sheets."""
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            body = src.read(item.filename)
            if item.filename == "[Content_Types].xml":
                body = body.replace(b"</Types>", b'<Override PartName="/xl/macrosheets/sheet1.xml" '
                                    b'ContentType="application/vnd.ms-excel.macrosheet+xml"/></Types>')
            elif item.filename == "xl/workbook.xml":
                body = body.replace(b"</sheets>", b'<sheet name="Module" sheetId="9" r:id="rIdM"/></sheets>')
            elif item.filename == "xl/_rels/workbook.xml.rels":
                body = body.replace(b"</Relationships>", b'<Relationship Id="rIdM" Type="http://schemas.microsoft.com/'
                                    b'office/2006/relationships/xlMacrosheet" Target="macrosheets/sheet1.xml"/></Relationships>')
            out.writestr(item.filename, body)
        out.writestr("xl/macrosheets/sheet1.xml", b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                     b'<xm:macrosheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                     b'xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><sheetData><row r="1">'
                     b'<c r="A1"><f>RETURN()</f><v>0</v></c></row></sheetData></xm:macrosheet>')
    return buf.getvalue()


def test_macro_sheet_listed_and_skipped(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    (tmp_path / "m.xlsx").write_bytes(with_macro_sheet(book_bytes()))
    listed = call(sidecar_bin, tmp_path, "list_sheets", {"file_path": "m.xlsx"})
    assert [(s["name"], s["kind"]) for s in listed["sheets"]] == [("Data", "worksheet"), ("Module", "macrosheet")]
    described = call(sidecar_bin, tmp_path, "describe_workbook", {"file_path": "m.xlsx"})
    assert [s["kind"] for s in described["sheets"]] == ["worksheet", "macrosheet"]
    refused = call(sidecar_bin, tmp_path, "read_excel", {"file_path": "m.xlsx", "sheet_name": "Module"}, ok=False)
    assert refused["exception"] == "ValueError"
    assert "Excel 4 macro sheet" in refused["message"]
    call(sidecar_bin, tmp_path, "insert_rows", {"file_path": "m.xlsx", "row": 1})
    assert openpyxl.load_workbook(tmp_path / "m.xlsx")["Data"]["A3"].value == "apples"


@pytest.mark.parametrize("tool,args", [
    ("write_cells", {"cell": "C1", "value": 1}),
    ("format_cells", {"cell_range": "A1", "font": {"bold": True}}),
    # The damage is on Data; the write names another sheet: still refused.
    ("write_cells", {"sheet_name": "Other", "cell": "C1", "value": 1}),
    ("insert_rows", {"sheet_name": "Other", "row": 1}),
])
def test_damaged_stays_damaged(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, tool: str, args: dict[str, Any]) -> None:
    src = zipfile.ZipFile(io.BytesIO(book_bytes(other="sheet_name" in args)))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            body = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                start = body.index(b"<c r=\"A3\"")
                end = body.index(b"</c>", start) + 4
                body = body[:start] + b'<c r="A3" t="s"><v>99</v></c>' + body[end:]
            out.writestr(item.filename, body)
    path = tmp_path / "d.xlsx"
    path.write_bytes(buf.getvalue())
    read = call(sidecar_bin, tmp_path, "read_excel", {"file_path": "d.xlsx", "sheet_name": "Data"}, ok=False)
    assert read["exception"] == "BadZipFile"
    assert read["message"] == 'file is damaged: cell A3 points to shared string "99" that does not exist'
    written = call(sidecar_bin, tmp_path, tool, {"file_path": "d.xlsx", **args}, ok=False)
    assert (written["exception"], written["message"]) == (read["exception"], read["message"])
    assert path.read_bytes() == buf.getvalue()


def test_duplicate_part_names_damaged(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    data = book_bytes()
    buf = io.BytesIO(data)
    with zipfile.ZipFile(buf, "a") as z, pytest.warns(UserWarning, match="Duplicate name"):
        z.writestr("xl/worksheets/sheet1.xml", b"<worksheet/>")
    path = tmp_path / "dup.xlsx"
    path.write_bytes(buf.getvalue())
    for tool, args in (("read_excel", {}), ("write_cells", {"cell": "A1", "value": 1})):
        got = call(sidecar_bin, tmp_path, tool, {"file_path": "dup.xlsx", **args}, ok=False)
        assert got["exception"] == "BadZipFile"
        assert "two parts named" in got["message"]
    assert path.read_bytes() == buf.getvalue()
