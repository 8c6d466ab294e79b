"""discover_file_relationships against pandas.

Four generated workbooks (customers, orders, products, returns) share id
columns under exact and synonym names, with ids missing on one side, a
many-to-one link, a column of the same name and disjoint values, one of
numbers on one side and their text on the other (types incompatible), a
date column, numbers written as int on one side and float on the other, and
generic headers (names) that must not match. Which header pairs match, and
how, is the specification written out below (MATCHES); every number the
tool gives is computed here from pandas: distinct-value intersections over
the first sample_rows data rows, unique ratios from nunique()/count(), value
types from the Python values pandas reads, cardinality and join from them.
"""

from __future__ import annotations

import datetime as dt
import json
import pathlib
import random
import subprocess
from typing import Any

import openpyxl
import pandas as pd
import pytest

THRESHOLD = 0.3  # a normalized match is reported from this overlap on
ONE = 0.9  # a side is "one" from this unique ratio on
FILES = ["customers.xlsx", "orders.xlsx", "products.xlsx", "returns.xlsx"]

# Every header pair that names the same thing, across files: exact (same
# text) or normalized (same after lower case, no spaces/underscores/hyphens
# and the id synonyms). Headers not listed must not match, in particular
# 客户姓名 / 产品名称 / name / 姓名, the "Unnamed: 7" columns (skipped), and
# Customer ID in returns, whose values overlap nothing (a normalized match
# below the threshold, listed here and dropped by it).
MATCHES: list[tuple[str, str, str, str, str, str, str]] = [
    ("customers.xlsx", "客户", "客户编号", "orders.xlsx", "orders", "customer_id", "normalized"),
    ("customers.xlsx", "客户", "客户编号", "returns.xlsx", "退货", "Customer ID", "normalized"),
    ("customers.xlsx", "客户", "客户姓名", "returns.xlsx", "退货", "客户姓名", "exact"),
    ("customers.xlsx", "客户", "region", "returns.xlsx", "退货", "region", "exact"),
    ("orders.xlsx", "orders", "customer_id", "returns.xlsx", "退货", "Customer ID", "normalized"),
    ("orders.xlsx", "orders", "product_id", "products.xlsx", "products", "产品编号", "normalized"),
    ("orders.xlsx", "orders", "batch", "products.xlsx", "products", "batch", "exact"),
    ("orders.xlsx", "orders", "unit_price", "products.xlsx", "products", "unit_price", "exact"),
    ("orders.xlsx", "orders", "order_id", "returns.xlsx", "退货", "订单编号", "normalized"),
    ("orders.xlsx", "orders", "order_date", "returns.xlsx", "退货", "order_date", "exact"),
    ("orders.xlsx", "lines", "订单号", "returns.xlsx", "退货", "订单编号", "normalized"),
]


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, args: dict[str, Any]) -> dict[str, Any]:
    """Run discover_file_relationships through the binary, page after page
    from each next_offset; the first page with every page's file_pairs and
    merge_hints joined (a pair split over two pages given once)."""
    first: dict[str, Any] | None = None
    pairs: dict[tuple[str, str], list[Any]] = {}
    hints: list[Any] = []
    offset = 0
    for _ in range(50):
        proc = subprocess.run(
            [str(sidecar_bin), "call", "--workspace", str(ws), "discover_file_relationships", json.dumps({**args, "offset": offset})],
            capture_output=True, text=True, timeout=120, check=False,
        )
        page: dict[str, Any] = json.loads(proc.stdout)
        assert proc.returncode == 0 and page["status"] == "success", proc.stdout
        assert page["offset"] == offset
        first = first or page
        for p in page["file_pairs"]:
            pairs.setdefault((p["file_a"], p["file_b"]), []).extend(p["shared_columns"])
        hints += page["merge_hints"]
        if not page["has_more"]:
            break
        offset = page["next_offset"]
    assert first is not None
    total = sum(len(c) for c in pairs.values())
    assert total == first["shared_columns_total"]
    return {**first, "file_pairs": [{"file_a": a, "file_b": b, "shared_columns": c} for (a, b), c in pairs.items()],
            "merge_hints": hints, "truncated": False}


def write(path: pathlib.Path, sheets: dict[str, list[list[Any]]]) -> None:
    """One workbook, its sheets in order, each a header row and data rows."""
    wb = openpyxl.Workbook()
    first = True
    for title, rows in sheets.items():
        ws = wb.active if first else wb.create_sheet(title)
        assert ws is not None
        ws.title = title
        first = False
        for r in rows:
            ws.append(r)
    wb.save(path)


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The four workbooks."""
    ws = tmp_path_factory.mktemp("relationships")
    rnd = random.Random(7)
    day = dt.datetime(2024, 1, 1)
    customers: list[list[Any]] = [["客户编号", "客户姓名", "城市", "注册日期", "region"]]
    for i in range(1, 41):
        customers.append([f"C{i:03d}", f"客户{i}", rnd.choice(["北京", "上海", "广州"]), day + dt.timedelta(days=i), i % 5])
    orders: list[list[Any]] = [["order_id", "customer_id", "product_id", "unit_price", "batch", "order_date", "name", "Unnamed: 7"]]
    for i in range(1, 61):
        cust = f"C{rnd.randint(1, 45):03d}"  # C041..C045 are no customer's
        prod = f"P{rnd.randint(1, 12):02d}"  # P11, P12 are no product's
        price: Any = rnd.choice([5, 7, 9, None])
        orders.append([f"O{i:04d}", cust, prod, price, f"B{i % 4}", day + dt.timedelta(days=i % 20), rnd.choice(["a", "b"]), "x"])
    lines: list[list[Any]] = [["订单号", "qty"]] + [[f"O{rnd.randint(1, 70):04d}", rnd.randint(1, 5)] for _ in range(30)]
    products: list[list[Any]] = [["产品编号", "产品名称", "unit_price", "batch", "Unnamed: 7"]]
    for i in range(1, 11):
        products.append([f"P{i:02d}", f"Widget {i}", float(rnd.choice([5, 9, 11])), f"X{i}", "x"])
    returns: list[list[Any]] = [["订单编号", "客户姓名", "Customer ID", "order_date", "姓名", "region"]]
    for i in range(1, 16):
        returns.append([f"O{rnd.randint(1, 80):04d}", f"客户{rnd.randint(30, 60)}", f"Z{i:03d}",
                        day + dt.timedelta(days=rnd.randint(0, 40)), "n", str(i % 5)])
    write(ws / "customers.xlsx", {"客户": customers})
    write(ws / "orders.xlsx", {"orders": orders, "lines": lines})
    write(ws / "products.xlsx", {"products": products})
    write(ws / "returns.xlsx", {"退货": returns})
    return ws


def values(ws: pathlib.Path, file: str, sheet: str, col: str, sample: int) -> pd.Series[Any]:
    """The non-blank values of a column in the first sample data rows, as
    the cells hold them (openpyxl: text stays text, where read_excel would
    turn "1" into 1), in a pandas Series."""
    wb = openpyxl.load_workbook(ws / file, read_only=True, data_only=True)
    try:
        rows = [list(r) for r in wb[sheet].iter_rows(min_row=1, max_row=sample + 1, values_only=True)]
    finally:
        wb.close()
    frame = pd.DataFrame(rows[1:], columns=rows[0], dtype=object)
    series: pd.Series[Any] = frame[col].replace("", None).dropna()
    return series


def kind(series: pd.Series[Any]) -> str:
    """number, text, date, bool, mixed or empty, by the Python values."""
    kinds: set[str] = set()
    for v in series:
        if pd.api.types.is_bool(v):
            kinds.add("bool")
        elif pd.api.types.is_number(v):
            kinds.add("number")
        elif isinstance(v, (dt.datetime, pd.Timestamp)):
            kinds.add("date")
        else:
            kinds.add("text")
    if not kinds:
        return "empty"
    return kinds.pop() if len(kinds) == 1 else "mixed"


def expected(ws: pathlib.Path, sample: int) -> tuple[dict[tuple[str, str], list[dict[str, Any]]], dict[tuple[str, str], tuple[str, str]]]:
    """The shared columns of each pair of files, and each pair's best key."""
    pairs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for fa, sa, ca, fb, sb, cb, how in MATCHES:
        a, b = values(ws, fa, sa, ca, sample), values(ws, fb, sb, cb, sample)
        da, db = set(a), set(b)
        overlap = len(da & db) / min(len(da), len(db)) if da and db else 0.0
        if how == "normalized" and overlap < THRESHOLD:
            continue
        ua = a.nunique() / a.count() if a.count() else 0.0
        ub = b.nunique() / b.count() if b.count() else 0.0
        rel = {(True, True): "one_to_one", (True, False): "one_to_many",
               (False, True): "many_to_one", (False, False): "many_to_many"}[(ua >= ONE, ub >= ONE)]
        join = {"one_to_many": "right", "many_to_one": "left", "many_to_many": "inner",
                "one_to_one": "inner" if overlap >= ONE else "outer"}[rel]
        ta, tb = kind(a), kind(b)
        pairs.setdefault((fa, fb), []).append({
            "sheet_a": sa, "col_a": ca, "sheet_b": sb, "col_b": cb, "match_type": how,
            "overlap_ratio": round(overlap, 4), "unique_ratio_a": round(ua, 4), "unique_ratio_b": round(ub, 4),
            "relationship": rel, "suggested_join": join, "type_a": ta, "type_b": tb,
            "type_compatible": ta == tb or "mixed" in (ta, tb) or "empty" in (ta, tb),
        })
    keys: dict[tuple[str, str], tuple[str, str]] = {}
    for pair, cols in pairs.items():
        good = [c for c in cols if c["overlap_ratio"] >= THRESHOLD and c["type_compatible"] and c["relationship"] != "many_to_many"]
        if good:
            best = max(good, key=lambda c: (c["overlap_ratio"], c["match_type"] == "exact", max(c["unique_ratio_a"], c["unique_ratio_b"])))
            keys[pair] = (best["col_a"], best["col_b"])
    return pairs, keys


def canonical(cols: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Shared columns in one order, for comparing sets."""
    return sorted(cols, key=lambda c: (c["sheet_a"], c["col_a"], c["sheet_b"], c["col_b"]))


@pytest.mark.parametrize("sample", [200, 25, 3])
def test_relationships_match_pandas(sidecar_bin: pathlib.Path, books: pathlib.Path, sample: int) -> None:
    got = call(sidecar_bin, books, {"file_paths": FILES, "sample_rows": sample})
    want_pairs, want_keys = expected(books, sample)
    assert got["files_analyzed"] == len(FILES)
    assert got["files"] == FILES
    assert got["partial"] is False and got["truncated"] is False
    got_pairs = {(p["file_a"], p["file_b"]): canonical(p["shared_columns"]) for p in got["file_pairs"]}
    assert got_pairs == {k: canonical(v) for k, v in want_pairs.items()}
    order = [(p["file_a"], p["file_b"]) for p in got["file_pairs"]]
    assert order == sorted(order, key=lambda p: (FILES.index(p[0]), FILES.index(p[1])))
    hints = {(h["file_a"], h["file_b"]): (h["key_column_a"], h["key_column_b"]) for h in got["merge_hints"]}
    assert hints == want_keys
    for h in got["merge_hints"]:
        assert h["pandas_hint"] == f"pd.merge(a, b, left_on={h['key_column_a']!r}, right_on={h['key_column_b']!r}, how={h['suggested_join']!r})"
    linked = {f for pair in want_keys for f in pair}
    grouped = [f for g in got["suggested_groups"] for f in g["files"]]
    assert sorted(grouped) == sorted(linked)
    assert all(len(g["files"]) >= 2 for g in got["suggested_groups"])


def test_directory_scan_equals_file_paths(sidecar_bin: pathlib.Path, books: pathlib.Path) -> None:
    by_paths = call(sidecar_bin, books, {"file_paths": FILES})
    by_folder = call(sidecar_bin, books, {"directory": ".", "max_files": 10})
    assert by_folder["files"] == FILES
    assert by_folder["file_pairs"] == by_paths["file_pairs"]
    assert by_folder["merge_hints"] == by_paths["merge_hints"]


def test_one_file_has_no_pairs(sidecar_bin: pathlib.Path, books: pathlib.Path) -> None:
    got = call(sidecar_bin, books, {"file_paths": ["orders.xlsx"]})
    assert got["files_analyzed"] == 1
    assert got["file_pairs"] == [] and got["merge_hints"] == [] and got["suggested_groups"] == []


def add_link(path: pathlib.Path, target: str) -> None:
    """Give the workbook at path an external link to target, as Excel keeps
    one for formulas reading another workbook (and a formula using it)."""
    from openpyxl.packaging.relationship import Relationship
    from openpyxl.workbook.external_link.external import ExternalBook, ExternalLink, ExternalSheetNames

    wb = openpyxl.load_workbook(path)
    n = len(wb._external_links) + 1
    link = ExternalLink(externalBook=ExternalBook(sheetNames=ExternalSheetNames(sheetName=["Sheet1"]), id="rId1"))
    link.file_link = Relationship(type="externalLinkPath", Target=target, TargetMode="External", Id="rId1")
    wb._external_links.append(link)
    ws = wb.worksheets[0]
    ws.cell(row=1, column=ws.max_column + 1, value=f"=[{n}]Sheet1!A1")
    wb.save(path)


def test_workbook_links_match_openpyxl(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    """workbook_links: every analyzed file's external links as openpyxl
    reads them, each resolved from the linking file's folder to the analyzed
    file it names (none for a file outside the call); linked files group."""
    (tmp_path / "sub").mkdir()
    for name in ["a.xlsx", "sub/b.xlsx", "c.xlsx"]:
        wb = openpyxl.Workbook()
        ws = wb.active
        assert ws is not None
        ws.append([f"col_{name[-6]}"])
        ws.append([1])
        wb.save(tmp_path / name)
    add_link(tmp_path / "a.xlsx", "sub/b.xlsx")
    add_link(tmp_path / "a.xlsx", "elsewhere/prices.xlsx")
    add_link(tmp_path / "sub/b.xlsx", "../c.xlsx")
    files = ["a.xlsx", "sub/b.xlsx", "c.xlsx"]
    got = call(sidecar_bin, tmp_path, {"file_paths": files})
    want = []
    for f in files:
        for link in openpyxl.load_workbook(tmp_path / f)._external_links:
            target = link.file_link.Target
            resolved = (pathlib.PurePosixPath(f).parent / target).as_posix()
            named = pathlib.PurePosixPath(*[p for p in resolved.split("/") if p]).as_posix()
            parts: list[str] = []
            for p in named.split("/"):
                if p == "..":
                    parts.pop()
                else:
                    parts.append(p)
            named = "/".join(parts)
            want.append({"file": f, "links_to": target, "analyzed_file": named if named in files else None})
    assert got["workbook_links"] == want
    assert [g["files"] for g in got["suggested_groups"]] == [files]
