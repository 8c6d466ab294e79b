"""Security: the small things, and the lock files.

Messages name paths relative to the workspace, never where the workspace or anything
around it lives on the host; lock files exist only for names that passed validation and
work for names up to the file system's limit; copy_sheet copes with a sheet without
``<sheetViews>``.
"""

from __future__ import annotations

import os
import pathlib
import re
import zipfile
from collections.abc import Iterator
from typing import Any

import openpyxl
import pytest
from secutil import payload, soffice_missing, solid_png, tree_diff, tree_state

from registry_sidecar import Client, Sidecar

pytestmark = pytest.mark.security


@pytest.fixture()
def client(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> Iterator[Client]:
    """A sidecar over tmp_path/ws (created empty) and a client of it."""
    ws = tmp_path / "ws"
    ws.mkdir()
    with Sidecar.launch(ws, binary=sidecar_bin) as sc, Client(sc.url, token=sc.token, call_timeout=120) as c:
        yield c


def small_book(path: pathlib.Path) -> None:
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet.append(["name", "qty"])
    sheet.append(["pen", 3])
    wb.save(path)


def test_messages_never_show_where_the_workspace_is(client: Client, tmp_path: pathlib.Path) -> None:
    ws = tmp_path / "ws"
    outside = tmp_path / "outside"
    outside.mkdir()
    small_book(ws / "data.xlsx")
    small_book(outside / "x.xlsx")
    (ws / "broken.xlsx").write_text("not a zip")
    (ws / "dir.xlsx").mkdir()
    (ws / "sub").mkdir()
    (ws / "out.png").mkdir()
    (ws / "notes.txt").write_text("plain text")
    (ws / "pic.png").write_bytes(solid_png(8, 8, (0, 128, 0)))
    (ws / "link_out.xlsx").symlink_to(outside / "x.xlsx")
    (ws / "link_dangling.xlsx").symlink_to(ws / "gone.xlsx")
    (ws / "link_loop.xlsx").symlink_to(ws / "link_loop.xlsx")
    (ws / "linkdir").symlink_to(outside, target_is_directory=True)
    too_long = "a" * 300 + ".xlsx"
    cell = {"cell": "A1", "value": 1}
    calls: list[tuple[str, dict[str, Any]]] = [
        ("read_excel", {"file_path": "missing.xlsx"}),
        ("read_excel", {"file_path": "../x.xlsx"}),
        ("read_excel", {"file_path": "dir.xlsx"}),
        ("read_excel", {"file_path": "sub"}),
        ("read_excel", {"file_path": "broken.xlsx"}),
        ("read_excel", {"file_path": "link_out.xlsx"}),
        ("read_excel", {"file_path": "link_dangling.xlsx"}),
        ("read_excel", {"file_path": "link_loop.xlsx"}),
        ("read_excel", {"file_path": "linkdir/x.xlsx"}),
        ("read_excel", {"file_path": "sub/missing/x.xlsx"}),
        ("read_excel", {"file_path": too_long}),
        ("read_excel", {"file_path": "data.xlsx", "sheet_name": "Nope"}),
        ("list_sheets", {"file_path": "broken.xlsx"}),
        ("describe_workbook", {"file_path": "broken.xlsx"}),
        ("write_cells", {"file_path": "nofolder/x.xlsx", **cell}),
        ("write_cells", {"file_path": "dir.xlsx", **cell}),
        ("write_cells", {"file_path": "broken.xlsx", **cell}),
        ("write_cells", {"file_path": "link_out.xlsx", **cell}),
        ("write_cells", {"file_path": "link_dangling.xlsx", **cell}),
        ("write_cells", {"file_path": "linkdir/new.xlsx", **cell, "create": True}),
        ("write_cells", {"file_path": too_long, **cell, "create": True}),
        ("format_cells", {"file_path": "broken.xlsx", "cell_range": "A1", "font": {"bold": True}}),
        ("copy_sheet", {"file_path": "broken.xlsx"}),
        ("insert_image", {"file_path": "data.xlsx", "image_path": "missing.png", "cell": "C3"}),
        ("insert_image", {"file_path": "data.xlsx", "image_path": "notes.txt", "cell": "C3"}),
        ("insert_image", {"file_path": "data.xlsx", "image_path": "../x.png", "cell": "C3"}),
        ("insert_image", {"file_path": "data.xlsx", "image_path": "link_out.xlsx", "cell": "C3"}),
        ("insert_image", {"file_path": "data.xlsx", "image_path": "sub", "cell": "C3"}),
        ("create_workbook", {"file_path": "data.xlsx"}),
        ("create_workbook", {"file_path": "nofolder/new.xlsx"}),
        ("list_workbooks", {}),
        ("list_workbooks", {"folder": "nofolder"}),
        ("list_workbooks", {"folder": "../"}),
        ("list_workbooks", {"folder": "linkdir"}),
    ]
    if soffice_missing() is None:
        calls += [
            ("render_range", {"file_path": "data.xlsx", "output_path": "out.png"}),
            ("render_range", {"file_path": "data.xlsx", "output_path": "../o.png"}),
            ("render_range", {"file_path": "broken.xlsx", "output_path": "o.png"}),
            ("render_range", {"file_path": "data.xlsx", "output_path": "nofolder/o.png"}),
        ]
    else:
        print(f"\nrender_range calls skipped: {soffice_missing()}")
    host_paths = {str(tmp_path), os.path.realpath(tmp_path)}
    leaks: list[str] = []
    for tool, args in calls:
        r = client.call_tool(tool, args)
        assert r.text, (tool, args)
        if tool != "list_workbooks":
            assert r.is_error, f"{tool} {args} succeeded: {r.text[:300]}"
        for p in host_paths:
            if p in r.text:
                leaks.append(f"{tool} {args}: {r.text[:400]}")
    assert not leaks, f"{len(leaks)} of {len(calls)} answers show where the workspace is ({tmp_path}):\n" + "\n".join(leaks)


REFUSED_WRITES: list[dict[str, Any]] = [
    {"file_path": "x.csv", "cell": "A1", "value": 1},
    {"file_path": "notes.txt", "cell": "A1", "value": 1},
    {"file_path": "x.xlsx.txt", "cell": "A1", "value": 1, "create": True},
    {"file_path": "../x.xlsx", "cell": "A1", "value": 1, "create": True},
    {"file_path": "sub/../x.xlsx", "cell": "A1", "value": 1, "create": True},
    {"file_path": "dir.xlsx", "cell": "A1", "value": 1},
    {"file_path": "bad\u0000name.xlsx", "cell": "A1", "value": 1, "create": True},
    {"file_path": "a" * 300 + ".xlsx", "cell": "A1", "value": 1, "create": True},
]


def test_refused_names_leave_no_lock_file(client: Client, tmp_path: pathlib.Path) -> None:
    ws = tmp_path / "ws"
    small_book(ws / "data.xlsx")
    (ws / "notes.txt").write_text("plain text")
    (ws / "dir.xlsx").mkdir()
    (ws / "sub").mkdir()
    before = tree_state(ws)
    for args in REFUSED_WRITES:
        r = client.call_tool("write_cells", args)
        assert r.is_error, f"{args} was not refused: {r.text[:300]}"
    others: list[tuple[str, dict[str, Any]]] = [
        ("read_excel", {"file_path": "x.csv"}),
        ("format_cells", {"file_path": "x.csv", "cell_range": "A1", "font": {"bold": True}}),
        ("insert_rows", {"file_path": "notes.txt", "row": 1}),
        ("create_workbook", {"file_path": "x.csv"}),
    ]
    for tool, other in others:
        r = client.call_tool(tool, other)
        assert r.is_error, f"{tool} {other} was not refused: {r.text[:300]}"
    created = tree_diff(before, tree_state(ws))
    assert created == [], f"refused calls left files behind: {created}"


@pytest.mark.parametrize("length", [250, 255])
def test_longest_workbook_names_work(client: Client, tmp_path: pathlib.Path, length: int) -> None:
    """A name as long as the file system allows (255 bytes on ext4/tmpfs) is a workbook like any other."""
    ws = tmp_path / "ws"
    name = "a" * (length - len(".xlsx")) + ".xlsx"
    w = client.call_tool("write_cells", {"file_path": name, "cell_range": "A1", "values": [["long", 1]], "create": True})
    assert not w.is_error, w.text[:400]
    r = client.call_tool("read_excel", {"file_path": name, "range": "A1:B1"})
    assert not r.is_error, r.text[:400]
    assert payload(r.text)["values"] == [["long", 1]]
    e = client.call_tool("write_cells", {"file_path": name, "cell": "C1", "value": "=B1+1"})
    assert not e.is_error, e.text[:400]
    sheet = openpyxl.load_workbook(ws / name).active
    assert sheet is not None
    assert [c.value for c in sheet[1]] == ["long", 1, "=B1+1"]
    listed = client.call_tool("list_workbooks", {})
    assert name in [entry["path"] for entry in payload(listed.text)["workbooks"]]


def test_copy_sheet_without_sheetviews(client: Client, tmp_path: pathlib.Path) -> None:
    """A sheet without <sheetViews> (valid OOXML: the element is optional) copies without a crash."""
    ws = tmp_path / "ws"
    small_book(ws / "tmp.xlsx")
    with zipfile.ZipFile(ws / "tmp.xlsx") as src, zipfile.ZipFile(ws / "plain.xlsx", "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data, n = re.subn(rb"<sheetViews>.*?</sheetViews>", b"", data, flags=re.S)
                assert n == 1, data[:400]
            dst.writestr(info, data)
    (ws / "tmp.xlsx").unlink()
    r = client.call_tool("copy_sheet", {"file_path": "plain.xlsx", "sheet_name": "Data", "new_name": "Copy"})
    assert not r.is_error, r.text[:400]
    wb = openpyxl.load_workbook(ws / "plain.xlsx")
    assert wb.sheetnames == ["Data", "Copy"]
    assert [[c.value for c in row] for row in wb["Copy"].iter_rows()] == [["name", "qty"], ["pen", 3]]
