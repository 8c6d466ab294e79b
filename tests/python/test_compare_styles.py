"""compare_excel with ignore_style false, through the real binary, against openpyxl.

Two workbooks are written with openpyxl, the second with the rows shuffled, known style edits
(bold, fill colour, number format, left border, horizontal alignment, a font without name or
size) and a few value edits, its style table built in another order so equal styles get other
ids. Every style difference reported, over every page, is the one openpyxl reads for the same
matched pair of cells, and every difference openpyxl reads is reported.
"""

from __future__ import annotations

import json
import pathlib
import random
import subprocess
from typing import Any

import openpyxl
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

HEADER = ["id", "name", "qty", "price"]


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, args: dict[str, Any], max_chars: int) -> dict[str, Any]:
    """Run compare_excel through the binary (results capped at max_chars code points) and return the payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), "--max-result-chars", str(max_chars), "compare_excel", json.dumps(args)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    payload: dict[str, Any] = json.loads(proc.stdout)
    assert payload["status"] == "success", proc.stdout
    return payload


def rgb(cell: Cell) -> str | None:
    """The fill colour as compare_excel reports it: RRGGBB of a pattern fill's foreground, else None."""
    if cell.fill is None or cell.fill.fill_type is None:
        return None
    value = cell.fill.fgColor.rgb
    return value[-6:].upper() if isinstance(value, str) else None


def attributes(cell: Cell) -> dict[str, Any]:
    """The attributes compared, as openpyxl reads them for cell."""
    return {
        "font.name": cell.font.name,
        "font.size": cell.font.sz,
        "font.bold": bool(cell.font.b),
        "font.italic": bool(cell.font.i),
        "fill.color": rgb(cell),
        "border.left": cell.border.left.style if cell.border.left is not None else None,
        "alignment.horizontal": cell.alignment.horizontal,
        "number_format": cell.number_format,
    }


def write_pair(tmp_path: pathlib.Path, seed: int) -> None:
    """a.xlsx and b.xlsx as the module docstring says."""
    rng = random.Random(seed)
    rows = [[i, rng.choice(["north", "south", "east"]), rng.randrange(100), round(rng.uniform(0, 50), 2)] for i in range(1, 41)]
    base = {
        "bold": Font(name="Calibri", size=11, b=True),
        "fill": PatternFill("solid", fgColor="FFFF00"),
        "fmt": "0.00",
    }
    a = openpyxl.Workbook()
    sa = a.active
    assert sa is not None
    sa.append(HEADER)
    for r in rows:
        sa.append(r)
    for row in range(2, 42):  # a few base styles, the same in b
        if row % 5 == 0:
            sa.cell(row=row, column=2).font = base["bold"]
        if row % 7 == 0:
            sa.cell(row=row, column=3).fill = base["fill"]
        sa.cell(row=row, column=4).number_format = base["fmt"]
    a.save(tmp_path / "a.xlsx")

    b = openpyxl.Workbook()
    sb = b.active
    assert sb is not None
    # Styles b alone uses come first in its table: equal styles get other ids than in a.
    sb.cell(row=1, column=8).font = Font(i=True, color="FF0000")
    sb.cell(row=1, column=9).number_format = "0.0000"
    for c, h in enumerate(HEADER, start=1):
        sb.cell(row=1, column=c, value=h)
    order = list(range(40))
    rng.shuffle(order)
    for out, i in enumerate(order, start=2):
        for c, v in enumerate(rows[i], start=1):
            sb.cell(row=out, column=c, value=v)
        if (i + 2) % 5 == 0:
            sb.cell(row=out, column=2).font = base["bold"]
        if (i + 2) % 7 == 0:
            sb.cell(row=out, column=3).fill = base["fill"]
        sb.cell(row=out, column=4).number_format = base["fmt"]
    edits = [
        lambda cell: setattr(cell, "font", Font(name="Calibri", size=11, b=not cell.font.b)),
        lambda cell: setattr(cell, "fill", PatternFill("solid", fgColor=rng.choice(["FF0000", "00B050", "FFFF00"]))),
        lambda cell: setattr(cell, "number_format", rng.choice(["0.000", "#,##0", "0%", "General"])),
        lambda cell: setattr(cell, "border", Border(left=Side(style=rng.choice(["thin", "thick", "dashed"])))),
        lambda cell: setattr(cell, "alignment", Alignment(horizontal=rng.choice(["center", "right", "left"]))),
        lambda cell: setattr(cell, "font", Font(b=True)),  # no name nor size: openpyxl reads None
    ]
    for _ in range(30):
        cell = sb.cell(row=rng.randrange(2, 42), column=rng.randrange(2, 5))
        rng.choice(edits)(cell)
        if rng.random() < 0.3:
            cell.value = "changed"
    sb.cell(row=1, column=2).font = Font(name="Calibri", size=11, b=True)
    b.save(tmp_path / "b.xlsx")


def test_style_differences_match_openpyxl(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    write_pair(tmp_path, 11)
    diffs: list[dict[str, Any]] = []
    first: dict[str, Any] = {}
    offset: int | None = 0
    while offset is not None:
        page = call(sidecar_bin, tmp_path, {"file_a": "a.xlsx", "file_b": "b.xlsx", "key_columns": ["id"], "ignore_style": False, "offset": offset}, 4000)
        first = first or page
        diffs += page["diffs"]
        offset = page.get("next_offset")
    assert len(diffs) == first["total_diffs"]

    wa = openpyxl.load_workbook(tmp_path / "a.xlsx").active
    wb = openpyxl.load_workbook(tmp_path / "b.xlsx").active
    assert wa is not None and wb is not None
    row_of_b = {wb.cell(row=r, column=1).value: r for r in range(2, wb.max_row + 1)}
    pairs = [(1, 1)] + [(r, row_of_b[wa.cell(row=r, column=1).value]) for r in range(2, 42)]
    want: dict[tuple[str, str], tuple[Any, Any]] = {}
    for ra, rb in pairs:
        for c in range(1, len(HEADER) + 1):
            ca, cb = wa.cell(row=ra, column=c), wb.cell(row=rb, column=c)
            xa, xb = attributes(ca), attributes(cb)
            for name in xa:
                if xa[name] != xb[name]:
                    want[(ca.coordinate, name)] = (xa[name], xb[name])

    got: dict[tuple[str, str], tuple[Any, Any]] = {}
    cells = 0
    styled = [d for d in diffs if d["type"] == "style_changed"]
    for d in styled:
        assert d.get("header", False) is (d["row_a"] == 1)
        assert d["header"] if "key" not in d else d["key"]["id"] == wa.cell(row=d["row_a"], column=1).value
        for ch in d["changes"]:
            cells += 1
            assert ch["cell_b"] == wb.cell(row=d["row_b"], column=HEADER.index(ch["column"]) + 1).coordinate
            for at in ch["attributes"]:
                got[(ch["cell_a"], at["attribute"])] = (at["old"], at["new"])
    assert got == want
    assert want, "the edits changed some styles"
    s = first["summary"]
    assert (s["rows_style_changed"], s["cells_style_changed"]) == (len(styled), cells)
    assert any(d.get("header") for d in styled)

    changed_values = {ch["cell_a"] for d in diffs if d["type"] == "row_changed" for ch in d["changes"]}
    assert changed_values & {cell for cell, _ in got}, "some cell changed both value and style"

    plain = call(sidecar_bin, tmp_path, {"file_a": "a.xlsx", "file_b": "b.xlsx", "key_columns": ["id"], "max_diffs": 10_000}, -1)
    assert not [d for d in plain["diffs"] if d["type"] == "style_changed"]
    assert plain["total_diffs"] == first["total_diffs"] - len(styled)
