"""insert_image, create_pivot_table and render_range through the real binary.

openpyxl reads back the images and the pivot table with its cache; LibreOffice opens the
results headless (and computes the pivot table from its source on open, as Excel does);
render_range's PNG is checked from its bytes.
"""

from __future__ import annotations

import csv
import json
import pathlib
import shutil
import struct
import subprocess
import zlib
from typing import Any

import openpyxl
import pytest
from PIL import Image


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any], ok: bool = True) -> dict[str, Any]:
    """Run one tool through the binary and return the decoded payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), tool, json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    payload: dict[str, Any] = json.loads(proc.stdout)
    if ok:
        assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
        assert payload["status"] == "success", proc.stdout
    else:
        assert payload["status"] == "error", proc.stdout
    return payload


def png_bytes(width: int, height: int) -> bytes:
    """A real RGB PNG of width x height pixels (a red-to-blue gradient), made with zlib."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (255 * x // width, 0, 255 - 255 * x // width)) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


@pytest.fixture()
def ws(tmp_path: pathlib.Path) -> pathlib.Path:
    """A workspace with sales.xlsx (sheet Data: region, product, qty, price) and logo.png."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet.append(["region", "product", "qty", "price"])
    for row in [("east", "pen", 3, 1.5), ("west", "pen", 4, 1.5), ("east", "ink", 5, 2.0), ("north", "pad", 6, 3.0), ("west", "ink", 7, 2.0)]:
        sheet.append(list(row))
    wb.save(tmp_path / "sales.xlsx")
    (tmp_path / "logo.png").write_bytes(png_bytes(40, 20))
    return tmp_path


def soffice_or_skip() -> str:
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed: run `make oracle-deps`")
    return soffice


def libreoffice_csv(soffice: str, book: pathlib.Path, out: pathlib.Path) -> dict[str, list[list[str]]]:
    """Have LibreOffice open book headless and export every sheet as CSV; sheet name to rows."""
    profile = out / "lo-profile"
    # Filter options: comma, quote, UTF-8, ..., -1 = every sheet to its own file.
    proc = subprocess.run(
        [soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--convert-to",
         "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
         "--outdir", str(out / "csv"), str(book)],
        capture_output=True, text=True, timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    sheets = {}
    for path in (out / "csv").glob(f"{book.stem}-*.csv"):
        sheets[path.stem.removeprefix(book.stem + "-")] = list(csv.reader(path.open(encoding="utf-8")))
    assert sheets, (proc.stdout, proc.stderr)
    return sheets


def test_openpyxl_reads_inserted_images(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    (ws / "photo.png").write_bytes((ws / "logo.png").read_bytes())
    call(sidecar_bin, ws, "insert_image", {"file_path": "sales.xlsx", "sheet_name": "Data", "image_path": "logo.png", "cell": "F2", "alt_text": "logo"})
    call(sidecar_bin, ws, "insert_image", {"file_path": "sales.xlsx", "sheet_name": "Data", "image_path": "photo.png", "cell": "F10", "width": 80})
    sheet = openpyxl.load_workbook(ws / "sales.xlsx")["Data"]
    images = sheet._images
    assert len(images) == 2
    anchors = sorted((img.anchor._from.col, img.anchor._from.row) for img in images)
    assert anchors == [(5, 1), (5, 9)]  # F2 and F10, 0-based
    assert sorted(img.format for img in images) == ["png", "png"]
    assert all((img.width, img.height) == (40, 20) for img in images)  # the pictures themselves
    # Both start in column F; the one shown 80 pixels wide reaches further right.
    by_row = {img.anchor._from.row: img.anchor.to for img in images}
    assert (by_row[9].col, by_row[9].colOff) > (by_row[1].col, by_row[1].colOff)
    assert sheet["C4"].value == 5  # cells are kept
    refused = call(sidecar_bin, ws, "insert_image", {"file_path": "sales.xlsx", "image_path": "sales.xlsx", "cell": "A1"}, ok=False)
    assert refused["exception"] == "ValueError" and "not a PNG or JPEG" in refused["message"]


def test_openpyxl_sees_the_pivot_table_and_its_cache(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    got = call(sidecar_bin, ws, "create_pivot_table", {
        "file_path": "sales.xlsx", "sheet_name": "Data", "source_range": "A1:D6", "target_sheet": "Summary", "create": True,
        "rows": ["region"], "columns": ["product"], "values": [{"field": "qty", "function": "sum"}],
    })
    assert got["pivot_table"] == "PivotTable1"
    wb = openpyxl.load_workbook(ws / "sales.xlsx")
    pivots = wb["Summary"]._pivots
    assert len(pivots) == 1
    pivot = pivots[0]
    assert pivot.name == "PivotTable1"
    cache = pivot.cache
    assert cache is not None
    assert cache.cacheSource.worksheetSource.sheet == "Data"
    assert cache.cacheSource.worksheetSource.ref == "A1:D6"
    assert [f.name for f in cache.cacheFields] == ["region", "product", "qty", "price"]
    assert cache.refreshOnLoad
    assert [d.name for d in pivot.dataFields] == ["Sum of qty"]
    assert [f.x for f in pivot.rowFields] == [0] and [f.x for f in pivot.colFields] == [1]
    bad = call(sidecar_bin, ws, "create_pivot_table", {
        "file_path": "sales.xlsx", "source_range": "A1:D6", "rows": ["regoin"], "values": [{"field": "qty"}]}, ok=False)
    assert bad["exception"] == "ValueError"
    assert '"region", "product", "qty", "price"' in bad["message"]


def test_libreoffice_opens_the_results_and_computes_the_pivot(sidecar_bin: pathlib.Path, ws: pathlib.Path, tmp_path: pathlib.Path) -> None:
    soffice = soffice_or_skip()
    call(sidecar_bin, ws, "insert_image", {"file_path": "sales.xlsx", "sheet_name": "Data", "image_path": "logo.png", "cell": "F2"})
    call(sidecar_bin, ws, "create_pivot_table", {
        "file_path": "sales.xlsx", "sheet_name": "Data", "source_range": "A1:D6", "target_sheet": "Summary", "create": True,
        "rows": ["region"], "values": [{"field": "qty"}],
    })
    sheets = libreoffice_csv(soffice, ws / "sales.xlsx", tmp_path)
    assert sheets["Data"][3][:3] == ["east", "ink", "5"]
    # LibreOffice lays the pivot table out itself: qty summed per region.
    totals = {row[0]: row[1] for row in sheets["Summary"] if len(row) > 1 and row[0]}
    assert (totals["east"], totals["north"], totals["west"]) == ("8", "6", "11"), sheets["Summary"]
    assert totals["Total Result"] == "25", sheets["Summary"]


def test_render_range_writes_a_png(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    soffice_or_skip()
    got = call(sidecar_bin, ws, "render_range", {"file_path": "sales.xlsx", "sheet_name": "Data", "output_path": "shot.png"})
    assert got["range"] == "A1:D6"  # the used range
    data = (ws / "shot.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (got["width"], got["height"])
    assert got["size_bytes"] == len(data)
    assert 100 < width < 2000 and 50 < height < 2000
    assert got["blank"] is False
    assert got["not_rendered"] == []  # nothing in this workbook reaches outside it
    assert got["network_isolation"] in ("netns", "settings")
    with Image.open(ws / "shot.png") as img:
        assert img.size == (width, height)
        gray = img.convert("L")
        dark = sum(1 for v in gray.tobytes() if v < 128)
    assert dark > 200, "the cells' text is drawn"
