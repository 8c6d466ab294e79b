"""filter_data and search_excel_values against references nobody here wrote.

filter_data must return the rows pandas selects for the same query on the
same sheet; search_excel_values the hits a plain scan with openpyxl finds.
The workbooks are generated (numbers, text, dates, blanks, error values) and
small, so every query runs through the real binary in well under a second.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import pathlib
import random
import subprocess
from collections.abc import Callable
from typing import Any

import openpyxl
import pandas as pd
import pytest

ROWS = 300
HEADER = ["id", "amount", "name", "when", "mixed", "flag"]
WORDS = ["alpha", "Beta", "gamma", "delta", "ALPHA", "epsilon", "Zeta", "beta max"]
ERRORS = ["#N/A", "#DIV/0!", "#VALUE!"]


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one tool through the binary and return its success payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), tool, json.dumps(args)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    payload: dict[str, Any] = json.loads(proc.stdout)
    assert proc.returncode == 0 and payload["status"] == "success", proc.stdout
    return payload


def make_rows(seed: int, n: int) -> list[list[Any]]:
    """Data rows of one generated sheet: every column has blanks."""
    rnd = random.Random(seed)
    rows: list[list[Any]] = []
    for i in range(n):
        amount: Any = rnd.choice([None, rnd.randint(-50, 500), round(rnd.uniform(-50, 500), 2), 100])
        name: Any = rnd.choice([None, rnd.choice(WORDS), f"{rnd.choice(WORDS)} {i % 7}"])
        when: Any = rnd.choice([None, dt.datetime(2023, 1, 1) + dt.timedelta(days=rnd.randint(0, 900))])
        mixed: Any = rnd.choice([None, rnd.randint(0, 9), rnd.choice(WORDS), rnd.choice(ERRORS), "7"])
        flag: Any = rnd.choice([None, True, False])
        rows.append([i + 1, amount, name, when, mixed, flag])
    return rows


def write_book(path: pathlib.Path, sheets: dict[str, list[list[Any]]]) -> None:
    """Write the sheets, each under HEADER, with openpyxl."""
    wb = openpyxl.Workbook()
    first = True
    for title, rows in sheets.items():
        ws = wb.active if first else wb.create_sheet(title)
        assert ws is not None
        ws.title = title
        first = False
        ws.append(HEADER)
        for r in rows:
            ws.append(r)
    wb.save(path)


def sheet_frame(path: pathlib.Path, sheet: str) -> pd.DataFrame:
    """The sheet as pandas sees it: header row as columns, dates as the
    ISO-8601 text the tools return, error values as their text."""
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        values = [list(r) for r in wb[sheet].iter_rows(values_only=True)]
    finally:
        wb.close()
    data = [[v.isoformat() if isinstance(v, dt.datetime) else v for v in r] for r in values[1:]]
    frame = pd.DataFrame(data, columns=values[0])
    frame.index = pd.RangeIndex(2, 2 + len(frame))  # sheet row numbers
    return frame


def mask(frame: pd.DataFrame, cond: dict[str, Any]) -> pd.Series[bool]:
    """The rows pandas keeps for one condition."""
    col, op = frame[cond["column"]], cond["operator"]
    val: Any = cond.get("value")
    ops: dict[str, Any] = {
        "eq": lambda: col == val,
        "ne": lambda: col != val,
        "gt": lambda: col > val,
        "ge": lambda: col >= val,
        "lt": lambda: col < val,
        "le": lambda: col <= val,
        "contains": lambda: col.str.contains(val, regex=False, na=False),
        "startswith": lambda: col.str.startswith(val, na=False),
        "endswith": lambda: col.str.endswith(val, na=False),
        "in": lambda: col.isin(val),
        "not_in": lambda: ~col.isin(val),
        "between": lambda: col.between(val[0], val[1]),
        "isnull": lambda: col.isna(),
        "notnull": lambda: col.notna(),
    }
    out: pd.Series[bool] = ops[op]().fillna(False).astype(bool)
    return out


def pandas_answer(frame: pd.DataFrame, query: dict[str, Any]) -> tuple[list[int], list[list[Any]]]:
    """Row numbers and rows pandas returns for a filter_data query."""
    conds = query.get("conditions") or ([{k: query[k] for k in ("column", "operator", "value") if k in query}] if "column" in query else [])
    sel = pd.Series(True, index=frame.index)
    if conds:
        masks = [mask(frame, c) for c in conds]
        sel = masks[0]
        for m in masks[1:]:
            sel = (sel | m) if query.get("logic") == "or" else (sel & m)
    out = frame[sel]
    if "sort_by" in query:
        out = out.sort_values(query["sort_by"], ascending=query.get("ascending", True), kind="stable", na_position="last")
    if "limit" in query:
        out = out.head(query["limit"])
    if "columns" in query:
        out = out[query["columns"]]
    rows = [[norm(v) for v in r] for r in out.itertuples(index=False)]
    return [int(i) for i in out.index], rows


def norm(v: Any) -> Any:
    """One value compared across JSON and pandas: NaN is null, whole floats ints."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


FILTER_QUERIES: list[dict[str, Any]] = [
    {"column": "amount", "operator": "eq", "value": 100},
    {"column": "amount", "operator": "ne", "value": 100},
    {"column": "amount", "operator": "gt", "value": 250},
    {"column": "amount", "operator": "ge", "value": 100},
    {"column": "amount", "operator": "lt", "value": 0},
    {"column": "amount", "operator": "le", "value": 0.5},
    {"column": "amount", "operator": "between", "value": [10, 100]},
    {"column": "amount", "operator": "in", "value": [100, 7, 42]},
    {"column": "amount", "operator": "not_in", "value": [100]},
    {"column": "amount", "operator": "isnull"},
    {"column": "amount", "operator": "notnull"},
    {"column": "name", "operator": "eq", "value": "alpha"},
    {"column": "name", "operator": "contains", "value": "eta"},
    {"column": "name", "operator": "startswith", "value": "Beta"},
    {"column": "name", "operator": "endswith", "value": " 3"},
    {"column": "name", "operator": "gt", "value": "delta"},
    {"column": "name", "operator": "in", "value": ["Zeta", "gamma"]},
    {"column": "when", "operator": "ge", "value": "2024-06-01"},
    {"column": "when", "operator": "between", "value": ["2023-03-01", "2023-09-30T23:59:59"]},
    {"column": "when", "operator": "isnull"},
    {"column": "mixed", "operator": "eq", "value": "#N/A"},
    {"column": "mixed", "operator": "eq", "value": 7},
    {"column": "mixed", "operator": "eq", "value": "7"},
    {"column": "mixed", "operator": "ne", "value": "alpha"},
    {"column": "mixed", "operator": "in", "value": [3, "Beta", "#VALUE!"]},
    {"column": "mixed", "operator": "contains", "value": "a"},
    {"column": "mixed", "operator": "isnull"},
    {"column": "flag", "operator": "eq", "value": True},
    {"conditions": [{"column": "amount", "operator": "gt", "value": 100}, {"column": "name", "operator": "contains", "value": "a"}]},
    {"conditions": [{"column": "amount", "operator": "gt", "value": 400}, {"column": "when", "operator": "isnull", "value": None}], "logic": "or"},
    {"conditions": [{"column": "flag", "operator": "eq", "value": False}, {"column": "mixed", "operator": "notnull", "value": None},
                    {"column": "amount", "operator": "lt", "value": 300}], "logic": "and"},
    {"column": "amount", "operator": "gt", "value": 0, "sort_by": "amount"},
    {"column": "amount", "operator": "notnull", "sort_by": "amount", "ascending": False, "limit": 25},
    {"sort_by": "name", "limit": 40, "columns": ["name", "id"]},
    {"sort_by": "when", "ascending": False, "columns": ["when"]},
    {"column": "name", "operator": "notnull", "columns": ["id", "mixed", "flag"], "limit": 30},
    {"sort_by": "amount", "ascending": False},
]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """One generated workbook, two sheets."""
    ws = tmp_path_factory.mktemp("analysis")
    write_book(ws / "data.xlsx", {"Data": make_rows(1, ROWS), "More": make_rows(2, ROWS // 3)})
    return ws


@pytest.mark.parametrize("query", FILTER_QUERIES, ids=[json.dumps(q, sort_keys=True)[:80] for q in FILTER_QUERIES])
def test_filter_data_matches_pandas(sidecar_bin: pathlib.Path, book: pathlib.Path, query: dict[str, Any]) -> None:
    frame = sheet_frame(book / "data.xlsx", "Data")
    want_rows, want_values = pandas_answer(frame, query)
    got_rows: list[int] = []
    got_values: list[list[Any]] = []
    args = {"file_path": "data.xlsx", "sheet_name": "Data", "max_rows": 120, **query}
    for _ in range(20):  # pages, each from the previous next_offset
        page = call(sidecar_bin, book, "filter_data", args)
        got_rows += page["row_numbers"]
        got_values += [[norm(v) for v in r] for r in page["rows"]]
        if not page["has_more"]:
            break
        args["offset"] = page["next_offset"]
    assert not page["has_more"]
    assert page["columns"] == query.get("columns", HEADER)
    assert page["total_matched"] == len(want_rows)
    assert got_rows == want_rows
    assert got_values == want_values


def cell_str(v: Any) -> str:
    """The text a search matches a cell by: str() of openpyxl's value, dates as ISO-8601."""
    return v.isoformat() if isinstance(v, dt.datetime) else str(v)


def reference_search(ws: pathlib.Path, files: list[str], query: dict[str, Any]) -> list[tuple[str, str, int, str, str]]:
    """Every hit a plain openpyxl scan finds, in file, sheet, row, column order."""
    import re

    mode: str = query.get("match_mode", "contains")
    q: str = query["query"]
    cs: bool = query.get("case_sensitive", False)

    def fold(s: str) -> str:
        return s if cs else s.lower()

    if mode == "regex":
        pat = re.compile(q, 0 if cs else re.IGNORECASE)
    tokens = [fold(t) for t in re.findall(r"[^\W\d_]+|\d+", q)]
    match: dict[str, Callable[[str], bool]] = {
        "contains": lambda c: fold(q) in fold(c),
        "exact": lambda c: fold(c) == fold(q),
        "startswith": lambda c: fold(c).startswith(fold(q)),
        "regex": lambda c: pat.search(c) is not None,
        "fuzzy": lambda c: all(t in fold(c) for t in tokens),
    }
    sheets = {s.lower() for s in query.get("sheets", [])}
    columns = {c.lower() for c in query.get("columns", [])}
    hits: list[tuple[str, str, int, str, str]] = []
    for name in files:
        wb = openpyxl.load_workbook(ws / name, read_only=True, data_only=True)
        try:
            for sh in wb.worksheets:
                if sheets and sh.title.lower() not in sheets:
                    continue
                rows = [list(r) for r in sh.iter_rows(values_only=True)]
                header = [str(c) if c is not None else f"Col_{i}" for i, c in enumerate(rows[0])] if rows else []
                keep = {i for i, h in enumerate(header) if h.lower() in columns} if columns else None
                for r, row in enumerate(rows, start=1):
                    for i, v in enumerate(row):
                        if v is None or (keep is not None and i not in keep):
                            continue
                        if match[mode](cell_str(v)):
                            hits.append((name, sh.title, r, openpyxl.utils.get_column_letter(i + 1), cell_str(v)[:200]))
        finally:
            wb.close()
    return hits


SEARCH_QUERIES: list[dict[str, Any]] = [
    {"query": "alpha"},
    {"query": "ALPHA", "case_sensitive": True},
    {"query": "beta", "match_mode": "exact"},
    {"query": "Beta", "match_mode": "exact", "case_sensitive": True},
    {"query": "be", "match_mode": "startswith"},
    {"query": r"^[a-e]\w+ [0-3]$", "match_mode": "regex"},
    {"query": r"^Zeta", "match_mode": "regex", "case_sensitive": True},
    {"query": "max beta", "match_mode": "fuzzy"},
    {"query": "7", "match_mode": "exact"},
    {"query": "#n/a"},
    {"query": "true", "match_mode": "exact"},
    {"query": "2024-02", "match_mode": "startswith"},
    {"query": ".5"},
    {"query": "a", "sheets": ["more"]},
    {"query": "a", "columns": ["NAME", "mixed"]},
    {"query": "1", "columns": ["id"], "sheets": ["Data", "More"]},
]


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """Three generated workbooks, two sheets each."""
    ws = tmp_path_factory.mktemp("search")
    for k in range(3):
        write_book(ws / f"b{k}.xlsx", {"Data": make_rows(10 + k, 120), "More": make_rows(20 + k, 40)})
    return ws


@pytest.mark.parametrize("query", SEARCH_QUERIES, ids=[json.dumps(q, sort_keys=True)[:80] for q in SEARCH_QUERIES])
def test_search_excel_values_matches_openpyxl_scan(sidecar_bin: pathlib.Path, books: pathlib.Path, query: dict[str, Any]) -> None:
    files = ["b0.xlsx", "b1.xlsx", "b2.xlsx"]
    want = reference_search(books, files, query)
    args: dict[str, Any] = {"file_path": files[0], "file_paths": files[1:], "max_results": 400, **query}
    got: list[tuple[str, str, int, str, str]] = []
    for _ in range(100):
        page = call(sidecar_bin, books, "search_excel_values", args)
        for m in page["matches"]:
            col = "".join(ch for ch in m["cell_ref"] if ch.isalpha())
            assert m["cell_ref"] == f"{col}{m['row']}"
            got.append((m["file"], m["sheet"], m["row"], col, m["value"]))
        if not page["has_more"]:
            break
        args["offset"] = page["next_offset"]
    assert not page["has_more"]
    assert page["total_matches"] == len(want)
    assert got == want
