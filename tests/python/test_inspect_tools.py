"""The analysis tools excelmanus's prompts call, through the real binary, against openpyxl.

inspect_excel_files: on generated folders of workbooks, every file, sheet name, used range,
header row and preview row is what openpyxl reads; pages go on where the last one stopped,
hidden folders and links (also ones leaving the workspace) are never followed.
"""

from __future__ import annotations

import json
import pathlib
import random
import subprocess
from typing import Any

import openpyxl
import pytest


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


def random_value(rng: random.Random) -> Any:
    """A cell value: text (some of it CJK), an integer, a float, a boolean or nothing."""
    kind = rng.randrange(6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice(["north", "south", "销售", "x y", "007"]) + str(rng.randrange(100))
    if kind == 2:
        return rng.randrange(-1000, 1000)
    if kind == 3:
        return round(rng.uniform(-100, 100), 3)
    if kind == 4:
        return rng.random() < 0.5
    return f"item{rng.randrange(10_000)}"


def random_book(path: pathlib.Path, rng: random.Random) -> None:
    """A workbook of one to three sheets, each a header row (maybe below a gap) and up to 300 rows."""
    wb = openpyxl.Workbook()
    for i in range(rng.randrange(1, 4)):
        sheet = wb.active if i == 0 else wb.create_sheet()
        assert sheet is not None
        sheet.title = rng.choice(["Data", "Sales", "汇总", "Report"]) + str(i)
        if rng.random() < 0.15:
            continue  # an empty sheet
        top = rng.randrange(1, 4)
        left = rng.randrange(1, 3)
        width = rng.randrange(1, 25)
        for c in range(width):
            sheet.cell(row=top, column=left + c, value=f"col{c}")
        for r in range(rng.randrange(0, 300)):
            for c in range(width):
                v = random_value(rng)
                if v is not None:
                    sheet.cell(row=top + 1 + r, column=left + c, value=v)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def trimmed(row: list[Any]) -> list[Any]:
    """row without its trailing empty cells."""
    end = len(row)
    while end and row[end - 1] is None:
        end -= 1
    return row[:end]


def expected_sheet(ws: Any, preview_rows: int, max_columns: int) -> dict[str, Any]:
    """What openpyxl sees of one sheet, in inspect_excel_files' terms."""
    if not ws._cells:  # noqa: SLF001 - openpyxl's own record of the cells the file holds
        return {"name": ws.title, "used_range": None, "max_row": 0, "max_column": 0, "header_row": None, "header": [], "preview": []}
    # Measured first: iter_rows creates the cells it walks.
    dims = (ws.calculate_dimension(), ws.max_row, ws.max_column)
    rows = [trimmed(list(r)) for r in ws.iter_rows(min_row=1, max_row=ws.max_row, max_col=max_columns, values_only=True)]
    held = [(i + 1, r) for i, r in enumerate(rows) if r]
    return {
        "name": ws.title,
        "used_range": dims[0],
        "max_row": dims[1],
        "max_column": dims[2],
        "header_row": held[0][0] if held else None,
        "header": held[0][1] if held else [],
        "preview": [r for _, r in held[1 : 1 + preview_rows]],
    }


def got_sheet(s: dict[str, Any]) -> dict[str, Any]:
    """One sheet of an answer, in the terms of expected_sheet."""
    keys = ["name", "used_range", "max_row", "max_column", "header_row", "header", "preview"]
    out = {k: s[k] for k in keys}
    out["header"] = trimmed(out["header"])
    out["preview"] = [trimmed(r) for r in out["preview"]]
    return out


@pytest.fixture()
def tree(tmp_path: pathlib.Path) -> pathlib.Path:
    """A workspace of generated workbooks in nested folders, a hidden folder, and links."""
    rng = random.Random(20261126)
    ws = tmp_path / "ws"
    for name in ["a.xlsx", "b.xlsx", "reports/2024/q1.xlsx", "reports/2024/q2.xlsx", "reports/销售.xlsx", "z/deep/er/last.xlsx"]:
        random_book(ws / name, rng)
    random_book(ws / ".hidden" / "secret.xlsx", rng)
    random_book(tmp_path / "outside" / "out.xlsx", rng)
    (ws / "outside-link").symlink_to(tmp_path / "outside")
    (ws / "link.xlsx").symlink_to(ws / "a.xlsx")
    (ws / "notes.txt").write_text("not a workbook")
    return ws


def inspect_all(sidecar_bin: pathlib.Path, ws: pathlib.Path, args: dict[str, Any]) -> list[dict[str, Any]]:
    """Every file of an inspection, page after page; a page cut short says why."""
    files: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        page = call(sidecar_bin, ws, "inspect_excel_files", {**args, "offset": offset})
        assert page["partial"] is False
        files += page["files"]
        offset = page.get("next_offset")
        assert page["has_more"] is (offset is not None)
        if offset is not None and len(page["files"]) < args.get("max_files", 20):
            assert "result size limit" in page["truncated"]
    return files


VISIBLE = ["a.xlsx", "b.xlsx", "reports/2024/q1.xlsx", "reports/2024/q2.xlsx", "reports/销售.xlsx", "z/deep/er/last.xlsx"]


@pytest.mark.parametrize(("preview_rows", "max_columns"), [(3, 15), (0, 1)])
def test_inspect_matches_openpyxl(sidecar_bin: pathlib.Path, tree: pathlib.Path, preview_rows: int, max_columns: int) -> None:
    files = inspect_all(sidecar_bin, tree, {"preview_rows": preview_rows, "max_columns": max_columns})
    assert [f["path"] for f in files] == VISIBLE
    for f in files:
        wb = openpyxl.load_workbook(tree / f["path"])
        assert f["sheet_count"] == len(wb.sheetnames)
        assert [s["name"] for s in f["sheets"]] == wb.sheetnames
        for s in f["sheets"]:
            assert got_sheet(s) == expected_sheet(wb[s["name"]], preview_rows, max_columns), (f["path"], s["name"])


def test_inspect_pages_never_skip(sidecar_bin: pathlib.Path, tree: pathlib.Path) -> None:
    for max_files in (2,):
        files = inspect_all(sidecar_bin, tree, {"max_files": max_files, "preview_rows": 0})
        assert [f["path"] for f in files] == VISIBLE


@pytest.mark.parametrize(("args", "want"), [
    ({"search": "Q1"}, ["reports/2024/q1.xlsx"]),
    ({"search": "销售"}, ["reports/销售.xlsx"]),
    ({"directory": "reports", "recursive": False}, ["reports/销售.xlsx"]),
    ({"directory": "z"}, ["z/deep/er/last.xlsx"]),
])
def test_inspect_filters(sidecar_bin: pathlib.Path, tree: pathlib.Path, args: dict[str, Any], want: list[str]) -> None:
    assert [f["path"] for f in inspect_all(sidecar_bin, tree, args)] == want


def test_inspect_sheet_name_matches_openpyxl(sidecar_bin: pathlib.Path, tree: pathlib.Path) -> None:
    files = inspect_all(sidecar_bin, tree, {"sheet_name": "sales"})
    want = {}
    for p in VISIBLE:
        names = [n for n in openpyxl.load_workbook(tree / p, read_only=True).sheetnames if "sales" in n.lower()]
        if names:
            want[p] = names
    assert {f["path"]: [s["name"] for s in f["sheets"]] for f in files} == want


def test_inspect_search_matches_paths_and_sheet_names(sidecar_bin: pathlib.Path, tree: pathlib.Path) -> None:
    want = [p for p in VISIBLE if "report" in p or any("report" in n.lower() for n in openpyxl.load_workbook(tree / p, read_only=True).sheetnames)]
    assert [f["path"] for f in inspect_all(sidecar_bin, tree, {"search": "REPORT", "preview_rows": 0})] == want


@pytest.mark.parametrize("directory", ["../", "outside-link", "/etc", "a.xlsx", "missing"])
def test_inspect_keeps_to_the_workspace(sidecar_bin: pathlib.Path, tree: pathlib.Path, directory: str) -> None:
    got = call(sidecar_bin, tree, "inspect_excel_files", {"directory": directory}, ok=False)
    assert got["status"] == "error"
