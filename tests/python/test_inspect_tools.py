"""The analysis tools excelmanus's prompts call, through the real binary, against openpyxl.

inspect_excel_files: on generated folders of workbooks, every file, sheet name, used range,
header row and preview row is what openpyxl reads; pages go on where the last one stopped,
hidden folders and links (also ones leaving the workspace) are never followed.
scan_excel_snapshot: used ranges, header rows, column profiles, duplicate and sample rows,
merged ranges and tables are what openpyxl reads; sheets page under the result cap.
compare_excel: rows added, removed and changed and the changed cells are those of a pandas
merge on the key columns (or of a comparison by position), over every page of differences.
"""

from __future__ import annotations

import json
import pathlib
import random
import subprocess
from typing import Any

import openpyxl
import pytest


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any], ok: bool = True, max_chars: int = 3000) -> dict[str, Any]:
    """Run one tool through the binary (results capped at max_chars code points) and return the decoded payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), "--max-result-chars", str(max_chars), tool, json.dumps(args)],
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


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A workspace of generated workbooks in nested folders, a hidden folder, and links.

    One for the module: the inspections only read it, and writing its workbooks
    with openpyxl takes seconds.
    """
    rng = random.Random(20261126)
    tmp_path = tmp_path_factory.mktemp("tree")
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


# scan_excel_snapshot: what openpyxl sees of one generated workbook, sheet by sheet.


def snapshot_book(path: pathlib.Path, rng: random.Random) -> None:
    """A workbook of three sheets sharing an id column, with merged cells, a table and duplicate rows."""
    from openpyxl.worksheet.table import Table

    wb = openpyxl.Workbook()
    for i, title in enumerate(["Orders", "Customers", "Empty"]):
        sheet = wb.active if i == 0 else wb.create_sheet()
        assert sheet is not None
        sheet.title = title
        if title == "Empty":
            continue
        top = 1 + i
        width = 6 - i
        headers = ["id"] + [f"{title.lower()}_{c}" for c in range(1, width)]
        for c, h in enumerate(headers):
            sheet.cell(row=top, column=1 + c, value=h)
        rows = [[rng.randrange(50)] + [random_value(rng) for _ in range(width - 1)] for _ in range(rng.randrange(100, 300))]
        rows += rows[:7]  # duplicates
        for r, vals in enumerate(rows):
            for c, v in enumerate(vals):
                if v is not None:
                    sheet.cell(row=top + 1 + r, column=1 + c, value=v)
        sheet.merge_cells(start_row=top + len(rows) + 2, start_column=1, end_row=top + len(rows) + 3, end_column=3)
        if title == "Orders":
            sheet.add_table(Table(displayName="OrdersTable", ref=f"A{top}:{chr(64 + width)}{top + 20}"))
    wb.save(path)


def profile(values: list[Any]) -> dict[str, Any]:
    """One column's profile as scan_excel_snapshot words it."""
    present = [v for v in values if v is not None]
    kinds = {"boolean" if isinstance(v, bool) else "number" if isinstance(v, (int, float)) else "text" for v in present}
    numbers = [v for v in present if isinstance(v, (int, float)) and not isinstance(v, bool)]
    keys = {("b" if isinstance(v, bool) else "n" if isinstance(v, (int, float)) else "s", float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v) for v in present}
    out: dict[str, Any] = {
        "type": "empty" if not kinds else kinds.pop() if len(kinds) == 1 else "mixed",
        "non_empty": len(present), "empty": len(values) - len(present), "unique": len(keys),
    }
    if numbers:
        out["min"], out["max"] = min(numbers), max(numbers)
    return out


@pytest.mark.parametrize("max_sample_rows", [500, 40])
def test_snapshot_matches_openpyxl(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, max_sample_rows: int) -> None:
    snapshot_book(tmp_path / "book.xlsx", random.Random(max_sample_rows))
    got = call(sidecar_bin, tmp_path, "scan_excel_snapshot", {"file_path": "book.xlsx", "max_sample_rows": max_sample_rows}, max_chars=100_000)
    wb = openpyxl.load_workbook(tmp_path / "book.xlsx")
    assert got["sheet_count"] == len(wb.sheetnames)
    assert [s["name"] for s in got["sheets"]] == wb.sheetnames
    for s in got["sheets"]:
        ws = wb[s["name"]]
        assert sorted(s["merged_ranges"]) == sorted(str(r) for r in ws.merged_cells.ranges)
        assert {t["name"]: t["range"] for t in s["tables"]} == {t.displayName: t.ref for t in ws.tables.values()}
        if not ws._cells:  # noqa: SLF001 - openpyxl's own record of the cells the file holds
            assert s["used_range"] is None and s["header"] == [] and s["data_rows"] == 0
            continue
        assert (s["used_range"], s["max_row"], s["max_column"]) == (ws.calculate_dimension(), ws.max_row, ws.max_column)
        rows = [list(r) for r in ws.iter_rows(min_row=1, max_row=ws.max_row, max_col=ws.max_column, values_only=True)]
        held = [(i + 1, r) for i, r in enumerate(rows) if any(v is not None for v in r)]
        header_row, header = held[0]
        data = [r for _, r in held[1:]]
        assert s["header_row"] == header_row
        assert trimmed(s["header"]) == trimmed(header)
        assert s["data_rows"] == len(data)
        profiled = data[:max_sample_rows]
        assert s["rows_profiled"] == len(profiled) and s["sampled"] == (len(data) > max_sample_rows)
        assert [trimmed(r) for r in s["sample_rows"]] == [trimmed(r) for r in profiled[:5]]
        distinct = {tuple(trimmed(r)) for r in profiled}
        assert s["duplicate_rows"] == len(profiled) - len(distinct)
        for c, col in enumerate(s["columns"]):
            want = profile([r[c] if c < len(r) else None for r in profiled])
            assert {k: col[k] for k in want} == want, (s["name"], col["column"])
            assert "min" in col or "min" not in want
    shared = {x["column"]: x["sheets"] for x in got["shared_columns"]}
    assert shared == {"id": ["Orders", "Customers"]}


def test_snapshot_pages_sheets(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    snapshot_book(tmp_path / "book.xlsx", random.Random(1))
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:  # the default cap of 3000 code points holds about one sheet
        page = call(sidecar_bin, tmp_path, "scan_excel_snapshot", {"file_path": "book.xlsx", "offset": offset, "include_relationships": False})
        assert page["sheets"] and "shared_columns" not in page
        seen += [s["name"] for s in page["sheets"]]
        offset = page.get("next_offset")
        assert page["has_more"] is (offset is not None)
    assert seen == ["Orders", "Customers", "Empty"]
    missing = call(sidecar_bin, tmp_path, "scan_excel_snapshot", {"file_path": "nope.xlsx"}, ok=False)
    assert missing["status"] == "error"


# compare_excel: on generated pairs of workbooks, rows added, removed and changed, and the changed
# cells, are those of a pandas merge on the key columns.


def pair(tmp_path: pathlib.Path, seed: int) -> tuple[list[str], list[str]]:
    """a.xlsx and b.xlsx: b is a with rows dropped, rows added, cells changed and a column swapped; returns (a's, b's) headers."""
    rng = random.Random(seed)
    head_a = ["id", "region", "qty", "price", "note"]
    head_b = ["id", "region", "qty", "price", "extra"]
    rows_a = [[i, rng.choice(["north", "south", "east"]), rng.randrange(100), round(rng.uniform(0, 50), 2), random_value(rng)]
              for i in rng.sample(range(1000), rng.randrange(50, 300))]
    rows_b = []
    for r in rows_a:
        if rng.random() < 0.1:
            continue  # removed
        r = list(r)
        if rng.random() < 0.2:
            r[rng.randrange(1, 4)] = random_value(rng)
        r[4] = rng.randrange(5)
        rows_b.append(r)
    rows_b += [[1000 + i, "west", i, 1.5, None] for i in range(rng.randrange(0, 20))]
    rng.shuffle(rows_b)
    for name, head, rows in (("a.xlsx", head_a, rows_a), ("b.xlsx", head_b, rows_b)):
        wb = openpyxl.Workbook()
        sheet = wb.active
        assert sheet is not None
        sheet.append(head)
        for r in rows:
            sheet.append(r)
        wb.save(tmp_path / name)
    return head_a, head_b


def same(x: Any, y: Any) -> bool:
    """pandas cells equal as compare_excel counts them: both empty, or equal numbers, or equal values of one kind."""
    import pandas as pd

    if pd.isna(x) and pd.isna(y):
        return True
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return float(x) == float(y)
    return type(x) is type(y) and bool(x == y)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_compare_matches_pandas_merge(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, seed: int) -> None:
    import pandas as pd

    head_a, head_b = pair(tmp_path, seed)
    diffs: list[dict[str, Any]] = []
    offset: int | None = 0
    first: dict[str, Any] = {}
    while offset is not None:
        page = call(sidecar_bin, tmp_path, "compare_excel", {"file_a": "a.xlsx", "file_b": "b.xlsx", "key_columns": ["id"], "offset": offset}, max_chars=20_000)
        first = first or page
        diffs += page["diffs"]
        offset = page.get("next_offset")
    assert len(diffs) == first["total_diffs"]
    assert first["columns_added"] == ["extra"] and first["columns_removed"] == ["note"]

    a = pd.read_excel(tmp_path / "a.xlsx", dtype=object)
    b = pd.read_excel(tmp_path / "b.xlsx", dtype=object)
    m = a.merge(b, on="id", how="outer", suffixes=("_a", "_b"), indicator=True)
    shared = [c for c in head_a if c in head_b and c != "id"]
    want_added = {int(k) for k in m.loc[m["_merge"] == "right_only", "id"]}
    want_removed = {int(k) for k in m.loc[m["_merge"] == "left_only", "id"]}
    want_changed: dict[int, set[str]] = {}
    for _, r in m[m["_merge"] == "both"].iterrows():
        cols = {c for c in shared if not same(r[c + "_a"], r[c + "_b"])}
        if cols:
            want_changed[int(r["id"])] = cols

    got_added = {int(d["key"]["id"]) for d in diffs if d["type"] == "row_added"}
    got_removed = {int(d["key"]["id"]) for d in diffs if d["type"] == "row_removed"}
    got_changed = {int(d["key"]["id"]): {c["column"] for c in d["changes"]} for d in diffs if d["type"] == "row_changed"}
    assert (got_added, got_removed, got_changed) == (want_added, want_removed, want_changed)
    s = first["summary"]
    assert (s["rows_added"], s["rows_removed"], s["rows_changed"]) == (len(want_added), len(want_removed), len(want_changed))
    assert s["cells_changed"] == sum(len(c) for c in want_changed.values())
    for d in diffs:
        if d["type"] == "row_changed":
            row = a[a["id"] == d["key"]["id"]].iloc[0]
            for c in d["changes"]:
                assert same(c["old"], row[c["column"]])


def test_compare_by_position_matches_pandas(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    import pandas as pd

    head_a, head_b = pair(tmp_path, 7)
    got = call(sidecar_bin, tmp_path, "compare_excel", {"file_a": "a.xlsx", "file_b": "b.xlsx", "max_diffs": 10_000}, max_chars=-1)
    assert got["has_more"] is False
    a = pd.read_excel(tmp_path / "a.xlsx", dtype=object)
    b = pd.read_excel(tmp_path / "b.xlsx", dtype=object)
    shared = [c for c in head_a if c in head_b]
    n = min(len(a), len(b))
    want_changed = {i + 2: {c for c in shared if not same(a.iloc[i][c], b.iloc[i][c])} for i in range(n)}
    want_changed = {k: v for k, v in want_changed.items() if v}
    got_changed = {d["row_a"]: {c["column"] for c in d["changes"]} for d in got["diffs"] if d["type"] == "row_changed"}
    assert got_changed == want_changed
    s = got["summary"]
    assert (s["rows_added"], s["rows_removed"]) == (max(len(b) - len(a), 0), max(len(a) - len(b), 0))
