"""scan_excel_snapshot's statistics and inspect_excel_files' include, through the real binary.

scan_excel_snapshot: on generated workbooks, each column's quartiles are pandas' Series.quantile
(its default, linear interpolation), its outliers those past pandas' quartiles by 1.5 IQR, its
key status and unique ratio those of pandas' is_unique and nunique over the non-blank values of
the rows profiled; past 10000 numbers a column's quartiles come from a sample and say so.
inspect_excel_files include: per sheet the freeze panes, column widths, charts, images and
conditional formatting rules are what openpyxl reads back of generated workbooks.
"""

from __future__ import annotations

import io
import json
import math
import pathlib
import random
import subprocess
from typing import Any

import openpyxl
import pandas as pd
import pytest
from openpyxl.chart import BarChart, Reference
from openpyxl.drawing.image import Image
from openpyxl.formatting.rule import CellIsRule, ColorScaleRule, FormulaRule
from openpyxl.utils import get_column_letter
from PIL import Image as PILImage


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one tool through the binary, with no cap on the result, and return the decoded payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), "--max-result-chars", "-1", tool, json.dumps(args)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    payload: dict[str, Any] = json.loads(proc.stdout)
    assert payload["status"] == "success", proc.stdout
    return payload


HEADER = ["id", "code", "amount", "qty", "region", "flat"]


def stats_book(path: pathlib.Path, rng: random.Random, rows: int) -> None:
    """One sheet: distinct ids, distinct codes with blanks, amounts with far values, quantities with
    text, booleans and blanks mixed in, repeated regions, and a nearly constant column."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Data"
    ws.append(HEADER)
    ids = rng.sample(range(1, 10 * rows), rows)
    for i in range(rows):
        amount: Any = round(rng.gauss(100, 15), 2)
        if rng.random() < 0.04:
            amount = rng.choice([-1, 1]) * rng.uniform(400, 5000)
        elif rng.random() < 0.05:
            amount = None
        qty: Any = rng.randrange(0, 40)
        roll = rng.random()
        if roll < 0.05:
            qty = "n/a"
        elif roll < 0.08:
            qty = None
        elif roll < 0.1:
            qty = roll < 0.09
        ws.append([
            ids[i],
            None if rng.random() < 0.1 else f"C-{i:05d}",
            amount,
            qty,
            rng.choice(["north", "south", "east", "west"]),
            7 if rng.random() < 0.9 else rng.randrange(100),
        ])
    wb.save(path)


def numbers(values: list[Any]) -> list[float]:
    """The numbers among a column's values (booleans, text and blanks left out)."""
    return [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and not (isinstance(v, float) and math.isnan(v))]


def expected_stats(values: list[Any], first_row: int) -> dict[str, Any]:
    """pandas' quartiles and 1.5 IQR outliers of a column's numbers; first_row is the sheet row of values[0]."""
    rows = [first_row + i for i, v in enumerate(values) if numbers([v])]
    s = pd.Series(numbers(values), dtype=float)
    q1, median, q3 = (float(s.quantile(q)) for q in (0.25, 0.5, 0.75))
    low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    mask = (s < low) | (s > high)
    out = [(rows[i], float(s[i])) for i in range(len(s)) if mask[i]]
    return {
        "min": float(s.min()), "p25": q1, "median": median, "p75": q3, "max": float(s.max()),
        "quantiles_from": f"all {len(s)} numbers" if len(s) > 1 else "the one number",
        "outliers": {"lower_fence": low, "upper_fence": high, "count": int(mask.sum()),
                     "examples": [{"row": r, "value": v} for r, v in out[:3]]},
    }


@pytest.mark.parametrize(("seed", "rows", "max_sample_rows"), [(1, 301, 500), (2, 400, 500), (3, 250, 120), (4, 97, 500)])
def test_snapshot_statistics_match_pandas(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, seed: int, rows: int, max_sample_rows: int) -> None:
    stats_book(tmp_path / "book.xlsx", random.Random(seed), rows)
    got = call(sidecar_bin, tmp_path, "scan_excel_snapshot", {"file_path": "book.xlsx", "max_sample_rows": max_sample_rows})
    sheet = got["sheets"][0]
    df = pd.read_excel(tmp_path / "book.xlsx", sheet_name="Data", dtype=object).head(max_sample_rows)
    assert sheet["rows_profiled"] == len(df)
    cols = {c["header"]: c for c in sheet["columns"]}
    want_keys = []
    for name in HEADER:
        values = [None if isinstance(v, float) and math.isnan(v) else v for v in df[name]]
        col = cols[name]
        if numbers(values):
            want = expected_stats(values, 2)
            assert {k: col[k] for k in want} == want, name
        else:
            assert "p25" not in col and "outliers" not in col
        present = df[name].dropna()
        if not any(isinstance(v, bool) for v in present):  # pandas counts True as 1
            assert col["unique_ratio"] == pytest.approx(present.nunique() / len(present), abs=5e-5), name
        if len(present) >= 2 and present.is_unique:
            want_keys.append({"column": col["column"], "header": name, "non_empty": len(present), "empty": len(df) - len(present), "unique_ratio": 1.0})
    assert sheet["key_columns"] == want_keys
    assert [k["header"] for k in want_keys] == ["id", "code"]


def test_snapshot_samples_past_the_bound(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    rng = random.Random(9)
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["n", "small"])
    for i in range(15_000):
        ws.append([rng.uniform(0, 1000), i if i < 300 else None])
    wb.save(tmp_path / "big.xlsx")
    args = {"file_path": "big.xlsx", "max_sample_rows": 20_000}
    got = call(sidecar_bin, tmp_path, "scan_excel_snapshot", args)
    n, small = got["sheets"][0]["columns"]
    assert n["quantiles_from"] == "a random sample of 10000 of 15000 numbers"
    assert small["quantiles_from"] == "all 300 numbers"
    values = pd.read_excel(tmp_path / "big.xlsx", dtype=object)["n"].astype(float)
    assert (n["min"], n["max"]) == (values.min(), values.max())
    for key, q in (("p25", 0.25), ("median", 0.5), ("p75", 0.75)):
        assert n[key] == pytest.approx(values.quantile(q), abs=20)  # within 2% of the range
    assert call(sidecar_bin, tmp_path, "scan_excel_snapshot", args) == got, "the same file gives the same sample"


# inspect_excel_files include: what openpyxl reads back.


def png() -> bytes:
    """A small PNG."""
    buf = io.BytesIO()
    PILImage.new("RGB", (30, 20), (200, 40, 40)).save(buf, format="PNG")
    return buf.getvalue()


def details_book(path: pathlib.Path, rng: random.Random) -> None:
    """Sheets with random freeze panes, column widths, charts, pictures and conditional formats."""
    wb = openpyxl.Workbook()
    for i in range(3):
        ws = wb.active if i == 0 else wb.create_sheet()
        assert ws is not None
        ws.title = f"S{i}"
        for r in range(1, 12):
            ws.append([r, r * 2, rng.randrange(100)])
        if rng.random() < 0.7:
            ws.freeze_panes = f"{get_column_letter(rng.randrange(1, 4))}{rng.randrange(1, 4)}"
        for c in rng.sample(range(1, 30), rng.randrange(0, 25)):
            ws.column_dimensions[get_column_letter(c)].width = rng.choice([5.5, 12, 20.25, 31.7109375])
        for _ in range(rng.randrange(0, 3)):
            chart = BarChart()
            chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=11))
            ws.add_chart(chart, f"{get_column_letter(rng.randrange(5, 20))}{rng.randrange(1, 30)}")
        for _ in range(rng.randrange(0, 3)):
            ws.add_image(Image(io.BytesIO(png())), f"{get_column_letter(rng.randrange(5, 20))}{rng.randrange(1, 30)}")
        for _ in range(rng.choice([0, 2, 24])):
            cells = f"A1:C{rng.randrange(2, 12)}"
            rule = rng.choice([
                CellIsRule(operator="greaterThan", formula=[str(rng.randrange(50))]),
                CellIsRule(operator="between", formula=["1", '"a&b"']),
                FormulaRule(formula=["MOD(ROW(),2)=0"]),
                ColorScaleRule(start_type="min", start_color="FFFFFF", end_type="max", end_color="FF0000"),
            ])
            ws.conditional_formatting.add(cells, rule)
    wb.save(path)


def anchored(anchor: Any) -> dict[str, str]:
    """An openpyxl anchor as the cells inspect_excel_files names."""
    out = {"from_cell": f"{get_column_letter(anchor._from.col + 1)}{anchor._from.row + 1}"}  # noqa: SLF001 - openpyxl's anchor
    if getattr(anchor, "to", None) is not None:
        out["to_cell"] = f"{get_column_letter(anchor.to.col + 1)}{anchor.to.row + 1}"
    return out


def listed(key: str, items: list[Any], cap: int = 20) -> dict[str, Any]:
    """key's fields as inspect_excel_files caps a list."""
    out: dict[str, Any] = {f"{key}_count": len(items), key: items[:cap]}
    if len(items) > cap:
        out[f"{key}_truncated"] = True
    return out


def expected_details(ws: Any) -> dict[str, Any]:
    """What openpyxl reads of one sheet's details, in inspect_excel_files' terms."""
    freeze = None
    if ws.freeze_panes:
        col, row = openpyxl.utils.cell.coordinate_from_string(ws.freeze_panes)
        freeze = {"top_left_cell": ws.freeze_panes, "frozen_rows": row - 1, "frozen_columns": openpyxl.utils.column_index_from_string(col) - 1}
    widths = {}
    for dim in ws.column_dimensions.values():
        if dim.customWidth:
            key = get_column_letter(dim.min) if dim.min == dim.max else f"{get_column_letter(dim.min)}:{get_column_letter(dim.max)}"
            widths[key] = dim.width
    rules = []
    for cf in ws.conditional_formatting:
        for rule in cf.rules:
            r: dict[str, Any] = {"range": str(cf.sqref), "type": rule.type}
            if rule.operator is not None:
                r["operator"] = rule.operator
            if rule.formula:
                r["formulas"] = list(rule.formula)
            rules.append(r)
    width_items = list(widths.items())
    width_fields: dict[str, Any] = {"column_widths_count": len(width_items), "column_widths": dict(width_items[:20])}
    if len(width_items) > 20:
        width_fields["column_widths_truncated"] = True
    return {
        "freeze_panes": freeze,
        **width_fields,
        **listed("charts", [anchored(c.anchor) for c in ws._charts]),  # noqa: SLF001 - openpyxl's charts of a sheet
        **listed("images", [anchored(i.anchor) for i in ws._images]),  # noqa: SLF001 - openpyxl's pictures of a sheet
        **listed("conditional_formatting", rules),
    }


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_inspect_include_matches_openpyxl(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, seed: int) -> None:
    details_book(tmp_path / "book.xlsx", random.Random(seed))
    include = ["freeze_panes", "charts", "images", "conditional_formatting", "column_widths"]
    got = call(sidecar_bin, tmp_path, "inspect_excel_files", {"include": include, "preview_rows": 0})
    assert "include_note" not in got
    wb = openpyxl.load_workbook(tmp_path / "book.xlsx")
    (entry,) = got["files"]
    for s in entry["sheets"]:
        want = expected_details(wb[s["name"]])
        assert {k: s[k] for k in s if k.startswith(tuple(include))} == want, s["name"]
    plain = call(sidecar_bin, tmp_path, "inspect_excel_files", {"preview_rows": 0})
    assert not any(k.startswith(tuple(include)) for s in plain["files"][0]["sheets"] for k in s)
