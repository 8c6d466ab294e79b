"""The splice path and the excelize path make the same workbook.

Random sequences of write_cells, format_cells and adjust_column_width run
through the real binary twice, on copies of varied workbooks: once with the
splice path (the default) and once with ``--splice=false`` (every edit parsed
and saved by excelize). openpyxl, the reader the Python agents use, must read
both back identically: values, types, number formats, fonts, fills, borders,
alignment, merged cells, column widths, and the untouched charts, conditional
formats and data validations. LibreOffice headless then opens spliced files
and converts them to CSV with the recalculated formula values. Formulas
splice too (the recalc splice computes their cached values, and those of
the formulas reading a write, in a small calculator workbook): the cached
values openpyxl reads (data_only) are compared as well, and the test checks
that writes holding formulas did take the splice path.
"""

from __future__ import annotations

import csv
import datetime
import json
import pathlib
import random
import shutil
import subprocess
from typing import Any

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from openpyxl.formatting.rule import CellIsRule, ColorScaleRule
from openpyxl.styles import Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

SEQUENCES_PER_BOOK = 3
OPS_PER_SEQUENCE = 10


def call(binary: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any], splice: bool, spliced: list[bool] | None = None) -> dict[str, Any]:
    """Run one tool through the binary on one path; return the payload.

    spliced, when given, gets whether the call saved through the splice path
    (the sidecar's debug log says which path saved).
    """
    proc = subprocess.run(
        [str(binary), "call", "--workspace", str(ws), f"--splice={str(splice).lower()}", "--log-level=debug", tool, json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    payload: dict[str, Any] = json.loads(proc.stdout)
    if spliced is not None:
        logs = [json.loads(line) for line in proc.stderr.splitlines() if line.startswith("{")]
        spliced.append(any(e.get("msg") == "workbook saved" and e.get("path") == "splice" for e in logs))
    return payload


def holds_formula(args: dict[str, Any]) -> bool:
    """Whether a write_cells call writes a formula."""
    if args.get("value_types") == "text":
        return False
    values = [args["value"]] if "value" in args else [v for row in args.get("values", []) for v in row]
    return any(isinstance(v, str) and v.startswith("=") for v in values)


def seed_openpyxl(path: pathlib.Path) -> None:
    """Shared strings, styles, merges, formulas, widths: as openpyxl writes them."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Data"
    ws.append(["name", "qty", "price", "total"])
    for i in range(1, 12):
        ws.append([f"item {i}", i, i * 1.25, f"=B{i + 1}*C{i + 1}"])
    ws["A1"].font = Font(bold=True, color="FF0000")
    ws["B1"].fill = PatternFill("solid", fgColor="FFFF00")
    ws["C1"].border = Border(left=Side(style="thin"), bottom=Side(style="double"))
    ws["C3"].number_format = "0.00%"
    ws.merge_cells("F1:G2")
    ws["F1"] = "merged"
    ws.column_dimensions["A"].width = 18
    ws.column_dimensions["H"].width = 7
    wb.create_sheet("Other")["A1"] = "second sheet"
    wb.save(path)


def seed_rules(path: pathlib.Path) -> None:
    """A chart, conditional formats and a data validation to keep."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["k", "v"])
    for i in range(1, 9):
        ws.append([f"k{i}", i * 3])
    chart = BarChart()
    chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=9), titles_from_data=True)
    ws.add_chart(chart, "E2")
    ws.conditional_formatting.add("B2:B9", CellIsRule(operator="greaterThan", formula=["10"], font=Font(bold=True)))
    ws.conditional_formatting.add("B2:B9", ColorScaleRule(start_type="min", start_color="FF0000", end_type="max", end_color="00FF00"))
    dv = DataValidation(type="list", formula1='"a,b,c"', allow_blank=True)
    ws.add_data_validation(dv)
    dv.add("C2:C9")
    wb.create_sheet("Other")  # FORMULAS refer to it: a missing sheet would be refused
    wb.save(path)


def seed_plain(path: pathlib.Path) -> None:
    """No formula anywhere, so every write takes the splice path: shared
    strings, styles (a date column, a styled row), merges, widths."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Data"
    ws.append(["name", "when", "qty"])
    for i in range(1, 12):
        ws.append([f"item {i}", datetime.date(2024, 1, i), i * 1.5])
        ws.cell(i + 1, 2).number_format = "dd/mm/yyyy"
    ws["A1"].font = Font(bold=True)
    ws["C4"].number_format = "0.00%"
    ws.row_dimensions[6].fill = PatternFill("solid", fgColor="FFFF00")
    ws.merge_cells("E1:F2")
    ws.column_dimensions["B"].width = 14
    wb.create_sheet("Other")["A1"] = "second sheet"
    wb.save(path)


def seed_inline(binary: pathlib.Path, path: pathlib.Path) -> None:
    """Inline strings: a workbook created by the binary, then written by the splice path."""
    ws = path.parent
    assert call(binary, ws, "write_cells", {"file_path": path.name, "cell": "A1", "value": 1}, True)["status"] == "success"
    out = call(binary, ws, "write_cells", {
        "file_path": path.name, "cell_range": "A2",
        "values": [["inline text", " padded ", "a&b<c>"], [True, 2.5, "=A1+1"]],
    }, True)
    assert out["status"] == "success", out
    # FORMULAS refer to Other: a formula naming a missing sheet would be refused.
    out = call(binary, ws, "create_sheet", {"file_path": path.name, "sheet_name": "Other"}, True)
    assert out["status"] == "success", out


DATES: list[Any] = ["2024-01-31", "13:45:00", "2024-02-29T08:30:15.25", "1999-12-31 23:59", "1899-06-01", "'2024-01-31", " 2024-03-01 "]
PLAIN_VALUES: list[Any] = [0, 7, -3, 2.5, 1e-7, 123456789012, "text", " spaced ", "a&b<c>\"q\"", "ünï", "12", "007", "",
                           True, False, None, *DATES]
FORMULAS: list[Any] = ["=SUM(B2:B4)", "=A1&\"x\"", "=1/0", "=B3*2+D2", '=IF(B3>2,"big",FALSE)', "=COUNTA(A:A)", "=Other!A1&A1"]
VALUES: list[Any] = [*PLAIN_VALUES, *FORMULAS, *FORMULAS]


def random_op(rng: random.Random, formulas: bool = True) -> tuple[str, dict[str, Any]]:
    """One random edit within A1:H30 (values without formulas when formulas is False)."""
    kind = rng.choice(["block", "cell", "format", "format", "width"])
    values = VALUES if formulas else PLAIN_VALUES
    if kind in ("block", "cell"):
        r, c = rng.randint(1, 30), rng.randint(1, 8)
        extra: dict[str, Any] = {"value_types": "text"} if rng.random() < 0.2 else {}
        if kind == "cell":
            return "write_cells", {"cell": f"{get_column_letter(c)}{r}", "value": rng.choice(values), **extra}
        rows = [[rng.choice(values) for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(1, 4))]
        return "write_cells", {"cell_range": f"{get_column_letter(c)}{r}", "values": rows, **extra}
    if kind == "width":
        cols = {get_column_letter(rng.randint(1, 10)): rng.choice([5, 8.5, 12, 30]) for _ in range(rng.randint(1, 3))}
        return "adjust_column_width", {"columns": cols}
    r1, c1 = rng.randint(1, 30), rng.randint(1, 8)
    rng_ref = f"{get_column_letter(c1)}{r1}:{get_column_letter(c1 + rng.randint(0, 3))}{r1 + rng.randint(0, 5)}"
    args: dict[str, Any] = {"cell_range": rng_ref}
    for key in rng.sample(["font", "fill", "border", "alignment", "number_format"], rng.randint(1, 3)):
        if key == "font":
            args["font"] = rng.choice([{"bold": True}, {"italic": True, "size": 14}, {"color": "0000FF", "name": "Arial"}, {"underline": "single"}])
        elif key == "fill":
            args["fill"] = {"color": rng.choice(["FFFF00", "lightblue", "#00FF00"])}
        elif key == "border":
            args["border"] = rng.choice([{"style": "thin"}, {"style": "medium", "color": "FF0000"}, {"bottom": {"style": "double"}}])
        elif key == "alignment":
            args["alignment"] = rng.choice([{"horizontal": "center"}, {"wrap_text": True, "vertical": "top"}])
        else:
            args["number_format"] = rng.choice(["0.00", "#,##0", "yyyy-mm-dd", "General"])
    return "format_cells", args


def color(c: Any) -> Any:
    if c is None:
        return None
    return (c.type, c.rgb if c.type == "rgb" else c.theme if c.type == "theme" else c.indexed, c.tint)


def snapshot(path: pathlib.Path) -> dict[str, Any]:
    """What openpyxl sees, sheet by sheet."""
    wb = openpyxl.load_workbook(path)
    cached = openpyxl.load_workbook(path, data_only=True)  # formulas' cached values
    out: dict[str, Any] = {}
    for ws in wb.worksheets:
        values = cached[ws.title]
        cells = {}
        for r in range(1, max(ws.max_row, 35) + 1):
            for c in range(1, max(ws.max_column, 12) + 1):
                cell = ws.cell(r, c)
                f, fl, b, a = cell.font, cell.fill, cell.border, cell.alignment
                cells[cell.coordinate] = (
                    cell.value, values.cell(r, c).value, cell.data_type, cell.number_format,
                    (f.name, f.sz, f.b, f.i, f.u, f.strike, color(f.color)),
                    (fl.patternType, color(fl.fgColor) if fl.patternType else None),
                    tuple((s.style, color(s.color) if s.style else None) if s is not None else None for s in (b.left, b.right, b.top, b.bottom)),
                    (a.horizontal, a.vertical, a.wrap_text, a.text_rotation, a.indent, a.shrink_to_fit),
                )
        widths = {}  # per column: a span <col min max> covers each of its columns
        for dim in ws.column_dimensions.values():
            if dim.customWidth and dim.min is not None:
                for c in range(dim.min, (dim.max or dim.min) + 1):
                    widths[get_column_letter(c)] = dim.width
        out[ws.title] = {
            "cells": cells,
            "merged": sorted(str(m) for m in ws.merged_cells.ranges),
            "widths": widths,
            "charts": len(ws._charts),
            "conditional": sorted(str(cf.sqref) for cf in ws.conditional_formatting),
            "validations": sorted(str(dv.sqref) for dv in ws.data_validations.dataValidation),
        }
    return out


@pytest.mark.parametrize("seed_name", ["openpyxl", "rules", "inline", "plain"])
def test_splice_and_excelize_make_the_same_workbook(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, seed_name: str) -> None:
    seed = tmp_path / "seed" / "book.xlsx"
    seed.parent.mkdir()
    if seed_name == "openpyxl":
        seed_openpyxl(seed)
    elif seed_name == "rules":
        seed_rules(seed)
    elif seed_name == "plain":
        seed_plain(seed)
    else:
        seed_inline(sidecar_bin, seed)
    formula_writes: list[bool] = []  # per write of a formula: it spliced
    for n in range(SEQUENCES_PER_BOOK):
        rng = random.Random(f"{seed_name}-{n}")
        # The plain book never gets a formula, so all its writes splice.
        ops = [random_op(rng, formulas=seed_name != "plain") for _ in range(OPS_PER_SEQUENCE)]
        books = {}
        answers: dict[bool, list[dict[str, Any]]] = {}
        for splice in (True, False):
            ws = tmp_path / f"{n}-{splice}"
            ws.mkdir()
            shutil.copy(seed, ws / "book.xlsx")
            answers[splice] = []
            for tool, args in ops:
                paths: list[bool] = []
                out = call(sidecar_bin, ws, tool, {"file_path": "book.xlsx", **args}, splice, paths)
                assert out["status"] == "success", (tool, args, out)
                answers[splice].append(out)
                if splice and tool == "write_cells" and holds_formula(args):
                    formula_writes.append(paths[0])
            books[splice] = snapshot(ws / "book.xlsx")
        assert answers[True] == answers[False], (seed_name, n, ops)
        spliced, parsed = books[True], books[False]
        assert spliced.keys() == parsed.keys()
        for sheet in spliced:
            for key in ("merged", "widths", "charts", "conditional", "validations"):
                assert spliced[sheet][key] == parsed[sheet][key], (seed_name, n, sheet, key, ops)
            diff = {k: (v, parsed[sheet]["cells"].get(k)) for k, v in spliced[sheet]["cells"].items() if parsed[sheet]["cells"].get(k) != v}
            assert not diff, (seed_name, n, sheet, ops, list(diff.items())[:5])
    if seed_name != "plain":
        # Formulas splice too (the recalc splice), unless the write meets
        # what the calculator workbook cannot hold exactly (a merged cell).
        assert formula_writes and sum(formula_writes) * 2 > len(formula_writes), formula_writes
    if seed_name == "rules":
        assert spliced["Sheet"]["charts"] == 1 and len(spliced["Sheet"]["conditional"]) >= 1 and spliced["Sheet"]["validations"]


def test_libreoffice_recalculates_spliced_formulas(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed: run `make oracle-deps`")
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet.append(["name", "qty", "price"])
    wb.save(tmp_path / "book.xlsx")
    # Every write takes the splice path: values, formulas (the recalc splice
    # stores their cached values) and a value that formulas read.
    ops: list[dict[str, Any]] = [
        {"cell_range": "B2", "values": [[10], [20], [30]]},
        {"cell": "C2", "value": 4},
        {"cell_range": "D2", "values": [["=B2*C2"]]},
        {"cell_range": "F5", "values": [["=SUM(B2:B4)", "=F5*2", "=D2+1", '="n="&B2']]},
        {"cell": "B3", "value": 25},
    ]
    for args in ops:
        paths: list[bool] = []
        out = call(sidecar_bin, tmp_path, "write_cells", {"file_path": "book.xlsx", "sheet_name": "Data", **args}, True, paths)
        assert out["status"] == "success", out
        assert paths == [True], ("took the excelize path", args)
    # The cached values the splice stored are the ones LibreOffice computes.
    cached = openpyxl.load_workbook(tmp_path / "book.xlsx", data_only=True)["Data"]
    ours = [cached["D2"].value, *(cached.cell(5, c).value for c in range(6, 10))]
    assert ours == [40, 65, 130, 41, "n=10"], ours
    profile = tmp_path / "lo-profile"
    proc = subprocess.run(
        [soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--convert-to", "csv", "--outdir", str(tmp_path / "csv"), str(tmp_path / "book.xlsx")],
        capture_output=True, text=True, timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader((tmp_path / "csv" / "book.csv").open(encoding="utf-8")))
    # B2..B4 = 10, 25, 30; C2 = 4; D2 = B2*C2 = 40
    assert rows[1][3] == "40", rows[1]
    assert rows[4][5:9] == ["65", "130", "41", "n=10"], rows[4]
