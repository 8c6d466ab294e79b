"""Security: the workspace is a wall even while another process changes the tree.

A separate process exchanges ``ws/sub`` (a real folder) with ``ws/swap`` (a symlink to
``outside/``, a sibling of the workspace) with renameat2(RENAME_EXCHANGE) in a tight loop,
so ``sub`` keeps turning into a way out. Meanwhile several connections to the real binary
read, write, copy sheets, insert images and render into ``sub/``. Whatever each call
answers (success or a refusal), nothing of ``outside/`` may reach an answer or the
workspace, and nothing in ``outside/`` may be created, changed or even opened.

Also: a workbook hard-linked to an outside file is replaced inside the workspace only.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import queue
import random
import threading
import time
import zipfile
from dataclasses import dataclass, field
from typing import Any

import openpyxl
import pytest
from openpyxl.styles import PatternFill
from secutil import (
    OpenWatch,
    Swapper,
    count_pixels,
    payload,
    soffice_missing,
    solid_png,
    tree_diff,
    tree_state,
    workspace_files,
    xlsx_parts,
)

from registry_sidecar import Client, Sidecar

INSIDE_MARKER = "INSIDE_MARKER_c41d7e"
OUTSIDE_MARKER = "OUTSIDE_MARKER_9b7e2a"
#: A file name only outside/ has (a listing that shows it looked outside).
OUTSIDE_ONLY = "outside_only_5f1c"

READS = 2000
WRITES = 2000
NEW_NAME_WRITES = 200
#: copy_sheet + insert_image + render_range together.
OTHERS = 200
RENDERS = 30
LISTS = 50
CONNECTIONS = 6
CALL_TIMEOUT_S = 120.0

pytestmark = pytest.mark.security


def make_book(path: pathlib.Path, marker: str, red: bool) -> None:
    """A real workbook: sheet Data, marker text in A1:A6, numbers in B; red fill on A1:C6 if red."""
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet["A1"] = marker
    sheet["B1"] = "qty"
    for r in range(2, 7):
        sheet[f"A{r}"] = f"{marker} row {r}"
        sheet[f"B{r}"] = r
    if red:
        fill = PatternFill("solid", fgColor="FF0000")
        for row in sheet["A1:C6"]:
            for cell in row:
                cell.fill = fill
    wb.save(path)


@dataclass
class Answer:
    tool: str
    args: dict[str, Any]
    text: str
    is_error: bool


@dataclass
class Layout:
    base: pathlib.Path
    ws: pathlib.Path
    outside: pathlib.Path


def build_layout(tmp_path: pathlib.Path) -> Layout:
    """base/ws/sub (the real folder), base/ws/swap -> base/outside, base/outside (same names, other content)."""
    base = tmp_path / "base"
    ws = base / "ws"
    sub = ws / "sub"
    outside = base / "outside"
    sub.mkdir(parents=True)
    outside.mkdir()
    for name in ("victim.xlsx", "copy.xlsx", "img.xlsx"):
        make_book(sub / name, INSIDE_MARKER, red=False)
        make_book(outside / name, OUTSIDE_MARKER, red=True)
    make_book(outside / f"{OUTSIDE_ONLY}.xlsx", OUTSIDE_MARKER, red=True)
    (sub / "pic.png").write_bytes(solid_png(40, 30, (0, 160, 0)))
    (outside / "pic.png").write_bytes(solid_png(40, 30, (255, 0, 0)))
    (outside / "secret.txt").write_text(f"{OUTSIDE_MARKER} do not read\n")
    (outside / "nested").mkdir()
    (outside / "nested" / "victim.xlsx").write_bytes((outside / "victim.xlsx").read_bytes())
    (ws / "swap").symlink_to(outside, target_is_directory=True)
    return Layout(base=base, ws=ws, outside=outside)


def plan(with_renders: bool) -> list[tuple[str, dict[str, Any]]]:
    """Every call of the run, shuffled (fixed seed)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    calls += [("read_excel", {"file_path": "sub/victim.xlsx", "sheet_name": "Data", "range": "A1:C6"})] * READS
    calls += [
        ("write_cells", {"file_path": "sub/victim.xlsx", "sheet_name": "Data", "cell": f"C{2 + i % 5}", "value": f"w{i}"})
        for i in range(WRITES)
    ]
    calls += [
        ("write_cells", {"file_path": f"sub/new_{i}.xlsx", "cell": "A1", "value": f"new {i}", "create": True})
        for i in range(NEW_NAME_WRITES)
    ]
    renders = RENDERS if with_renders else 0
    copies = (OTHERS - renders) // 2
    images = OTHERS - renders - copies
    calls += [("copy_sheet", {"file_path": "sub/copy.xlsx", "sheet_name": "Data", "new_name": f"C{i}"}) for i in range(copies)]
    calls += [
        ("insert_image", {"file_path": "sub/img.xlsx", "sheet_name": "Data", "image_path": "sub/pic.png", "cell": f"E{1 + i}"})
        for i in range(images)
    ]
    calls += [
        ("render_range", {"file_path": "sub/victim.xlsx", "sheet_name": "Data", "cell_range": "A1:C6", "output_path": f"sub/out_{i}.png"})
        for i in range(renders)
    ]
    calls += [("list_workbooks", {})] * LISTS
    random.Random(20).shuffle(calls)
    return calls


def run_calls(sc: Sidecar, calls: list[tuple[str, dict[str, Any]]]) -> list[Answer]:
    """Run calls over CONNECTIONS connections at once; every answer, in no order."""
    todo: queue.SimpleQueue[tuple[str, dict[str, Any]]] = queue.SimpleQueue()
    for c in calls:
        todo.put(c)
    answers: list[Answer] = []
    lock = threading.Lock()
    failures: list[BaseException] = []

    def worker() -> None:
        try:
            with Client(sc.url, token=sc.token, call_timeout=CALL_TIMEOUT_S) as client:
                while True:
                    try:
                        tool, args = todo.get_nowait()
                    except queue.Empty:
                        return
                    r = client.call_tool(tool, args)
                    with lock:
                        answers.append(Answer(tool, args, r.text, r.is_error))
        except BaseException as exc:  # reported by the test
            failures.append(exc)

    threads = [threading.Thread(target=worker, name=f"client-{i}") for i in range(CONNECTIONS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures
    return answers


@dataclass
class Scan:
    """What the workspace holds after the run."""

    leaks: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)
    files: int = 0


def scan_workspace(ws: pathlib.Path, outside_hashes: set[str], needles: list[bytes]) -> Scan:
    """What of outside/ made it into the workspace (leaks): markers in any file or
    any workbook part, copies of outside files (whole or as image media), red
    pixels (outside's fill or picture) in any PNG. Also workbooks and PNGs that
    no longer open (damaged; hidden ".~" files, a tool's temp files, are only
    listed as leftovers)."""
    scan = Scan()
    for p in workspace_files(ws):
        scan.files += 1
        rel = p.relative_to(ws).as_posix()
        hidden = p.name.startswith(".~")
        if hidden and not p.name.endswith(".lock"):
            scan.leftovers.append(rel)
        data = p.read_bytes()
        if hashlib.sha256(data).hexdigest() in outside_hashes:
            scan.leaks.append(f"{rel}: a byte copy of an outside file")
        for n in needles:
            if n in data:
                scan.leaks.append(f"{rel}: holds {n.decode()!r}")
        if data[:2] == b"PK":
            try:
                parts = xlsx_parts(p)
            except zipfile.BadZipFile as exc:
                if not hidden:
                    scan.damaged.append(f"{rel}: not a readable workbook ({exc})")
                continue
            for name, body in parts.items():
                for n in needles:
                    if n in body:
                        scan.leaks.append(f"{rel}!{name}: holds {n.decode()!r}")
                if name.startswith("xl/media/") and hashlib.sha256(body).hexdigest() in outside_hashes:
                    scan.leaks.append(f"{rel}!{name}: the outside picture")
        elif data[:8] == b"\x89PNG\r\n\x1a\n" or p.suffix == ".png":
            try:
                red = count_pixels(p, "red")
            except Exception as exc:  # Pillow's errors on a truncated or broken PNG
                if not hidden:
                    scan.damaged.append(f"{rel}: not a readable PNG ({exc})")
                continue
            if red > 20:
                scan.leaks.append(f"{rel}: {red} red pixels (outside's workbook or picture was rendered)")
    return scan


def test_swapper_cannot_lead_outside(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    lay = build_layout(tmp_path)
    why_no_render = soffice_missing()
    if why_no_render:
        print(f"\nrender_range part skipped: {why_no_render}")
    calls = plan(with_renders=why_no_render is None)
    outside_before = tree_state(lay.outside)
    outside_hashes = {v.removeprefix("file:") for v in outside_before.values() if v.startswith("file:")}
    watch = OpenWatch(lay.outside)
    swapper = Swapper(lay.ws / "sub", lay.ws / "swap")
    t0 = time.monotonic()
    try:
        with Sidecar.launch(lay.ws, binary=sidecar_bin) as sc:
            swapper.start()
            try:
                answers = run_calls(sc, calls)
            finally:
                swapper.stop()
            alive = sc.alive
            with Client(sc.url, token=sc.token, call_timeout=CALL_TIMEOUT_S) as client:
                final = client.call_tool("read_excel", {"file_path": "sub/victim.xlsx", "sheet_name": "Data", "range": "A1:C6"})
            alive_after = sc.alive
        opened = watch.events()
    finally:
        watch.close()
    elapsed = time.monotonic() - t0
    sub = lay.ws / "sub"
    assert sub.is_dir() and not sub.is_symlink(), "the swapper left ws/sub a symlink"

    # --- what the calls answered
    by_tool: dict[str, list[int]] = {}
    for a in answers:
        ok_err = by_tool.setdefault(a.tool, [0, 0])
        ok_err[1 if a.is_error else 0] += 1
    codes: dict[str, int] = {}
    for a in answers:
        if a.is_error:
            code = str(payload(a.text).get("error_code"))
            codes[code] = codes.get(code, 0) + 1
    print(
        f"\nswapper: {swapper.swaps} exchanges in {swapper.elapsed:.1f} s; {len(answers)} calls "
        f"(tool: [ok, refused]) {by_tool}; error codes {codes}; total {elapsed:.1f} s"
    )

    found: dict[str, list[str]] = {}

    def violation(kind: str, example: str) -> None:
        found.setdefault(kind, []).append(example[:400])

    secrets = {
        OUTSIDE_MARKER: "outside content",
        OUTSIDE_ONLY: "an outside file name",
        str(lay.outside): "the outside folder's absolute path",
        str(lay.ws): "the workspace's absolute path",
        os.path.realpath(lay.ws): "the workspace's absolute path",
    }
    for a in answers:
        for s, what in secrets.items():
            if s in a.text:
                violation(f"{a.tool} answered with {what}", f"{a.args}: {a.text}")
        if a.is_error and payload(a.text).get("error_code") == "TOOL_INTERNAL_ERROR":
            violation(f"{a.tool} crashed (TOOL_INTERNAL_ERROR)", f"{a.args}: {a.text}")
        if a.tool == "read_excel" and not a.is_error and INSIDE_MARKER not in a.text:
            violation("read_excel succeeded without the inside content", a.text)
    for d in tree_diff(outside_before, tree_state(lay.outside)):
        violation("outside/ changed", d)
    for name in sorted(set(os.listdir(lay.base)) - {"ws", "outside"}):
        violation("created beside the workspace", name)
    for e in opened:
        violation("outside/ opened, read or written", e)
    scan = scan_workspace(lay.ws, outside_hashes, [OUTSIDE_MARKER.encode(), OUTSIDE_ONLY.encode()])
    print(f"workspace: {scan.files} files, {len(scan.leftovers)} temp files left behind")
    for leak in scan.leaks:
        violation("outside content in the workspace", leak)
    for damage in scan.damaged:
        violation("damaged file in the workspace", damage)
    if not alive or not alive_after:
        violation("the sidecar died", f"alive after the run: {alive}, after the final read: {alive_after}")
    report = [f"{kind}: {len(examples)}, e.g.\n    " + "\n    ".join(examples[:3]) for kind, examples in found.items()]
    assert not found, "ways out of the workspace:\n" + "\n".join(report)

    # --- the run really exercised both states, and the workspace is still whole
    assert len(answers) == len(calls)
    assert scan.files > 5
    assert by_tool["read_excel"][0] > 0, "no read of sub/victim.xlsx succeeded: the test did not exercise the tools"
    assert by_tool["write_cells"][0] > 0, "no write succeeded"
    assert not final.is_error and INSIDE_MARKER in final.text, final.text[:300]
    wb = openpyxl.load_workbook(sub / "victim.xlsx")
    assert wb["Data"]["A1"].value == INSIDE_MARKER


EDITS: list[tuple[str, dict[str, Any]]] = [
    ("write_cells", {"sheet_name": "Data", "cell": "B1", "value": "written inside"}),
    ("format_cells", {"sheet_name": "Data", "cell_range": "A1:B2", "font": {"bold": True}}),
    ("insert_rows", {"sheet_name": "Data", "row": 2}),
    ("copy_sheet", {"sheet_name": "Data", "new_name": "Copy"}),
    ("insert_image", {"sheet_name": "Data", "image_path": "pic.png", "cell": "E2"}),
]


@pytest.mark.parametrize(("tool", "args"), EDITS, ids=[e[0] for e in EDITS])
def test_hard_linked_workbook_is_replaced_inside_only(
    sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, tool: str, args: dict[str, Any]
) -> None:
    ws = tmp_path / "ws"
    outside = tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    make_book(outside / "h.xlsx", OUTSIDE_MARKER, red=False)
    os.link(outside / "h.xlsx", ws / "h.xlsx")
    (ws / "pic.png").write_bytes(solid_png(20, 20, (0, 160, 0)))
    assert os.stat(ws / "h.xlsx").st_ino == os.stat(outside / "h.xlsx").st_ino
    outside_before = tree_state(outside)
    before = (ws / "h.xlsx").read_bytes()
    with Sidecar.launch(ws, binary=sidecar_bin) as sc, Client(sc.url, token=sc.token, call_timeout=CALL_TIMEOUT_S) as c:
        r = c.call_tool(tool, {"file_path": "h.xlsx", **args})
    assert not r.is_error, r.text
    assert tree_diff(outside_before, tree_state(outside)) == [], "the outside name of the hard link changed"
    after = (ws / "h.xlsx").read_bytes()
    assert after != before, "the workspace name did not get the edit"
    assert os.stat(ws / "h.xlsx").st_ino != os.stat(outside / "h.xlsx").st_ino, "the link was written through, not replaced"
    assert os.stat(outside / "h.xlsx").st_nlink == 1
    wb = openpyxl.load_workbook(ws / "h.xlsx")
    sheet = wb["Data"]
    if tool == "write_cells":
        assert sheet["B1"].value == "written inside"
    elif tool == "copy_sheet":
        assert wb.sheetnames == ["Data", "Copy"]
    elif tool == "insert_rows":
        assert sheet["A3"].value == f"{OUTSIDE_MARKER} row 2"
