"""Spreadsheet tools vs openpyxl, measured in the same run.

For each operation this runs our tool through the binary's `call` subcommand
in a child process, and the same work in openpyxl in-process inside a separate
child Python process, and records wall time and peak RSS (ru_maxrss of each
child, from os.wait4). Workbooks are generated first. Prints a table with
ratios (openpyxl / ours: above 1 means we are faster or leaner).

It then measures an agent's editing session: 10 consecutive edits of the
50k-row workbook in one long-lived process, ours through the real sidecar
over WebSocket (the parsed workbook stays cached between calls) vs openpyxl
loading the workbook once and saving after each edit (its best case).

    REGISTRY_SIDECAR_BIN=bin/registry-sidecar python tests/bench/bench_excel.py [--session]
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from typing import Any

READ_ROWS, READ_COLS = 100_000, 20
RULE_ROWS, RULE_COLS = 50_000, 10
WRITE_ROWS, WRITE_COLS = 1_000, 10  # a 10k-cell block
FORMAT_RANGE = f"A1:J{RULE_ROWS + 1}"  # every cell of the 50k-row sheet
REPEATS = 2  # each measurement is the best of REPEATS runs
SESSION_EDITS = 10  # edits of one workbook in one long-lived process
HANDSHAKE_TIMEOUT = 30.0  # seconds to wait for the sidecar's ready line
CALL_TIMEOUT = 300.0  # seconds one tools/call may take

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    "</Types>"
)
ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
    "</Relationships>"
)
STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'
    "</styleSheet>"
)


def col_name(n: int) -> str:
    s = ""
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def generate(path: pathlib.Path, rows: int, cols: int) -> None:
    """Write a rows x cols workbook (header row of text, then numbers) fast,
    straight as XML, so generation does not dominate the benchmark."""
    letters = [col_name(c + 1) for c in range(cols)]
    parts = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<dimension ref="A1:{letters[-1]}{rows + 1}"/><sheetData>'
    ]
    head = "".join(f'<c r="{c}1" t="inlineStr"><is><t>col{c}</t></is></c>' for c in letters)
    parts.append(f'<row r="1">{head}</row>')
    for r in range(2, rows + 2):
        cells = "".join(f'<c r="{c}{r}"><v>{(r * 31 + i * 17) % 1000 + i / 8}</v></c>' for i, c in enumerate(letters))
        parts.append(f'<row r="{r}">{cells}</row>')
    parts.append("</sheetData></worksheet>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        z.writestr("_rels/.rels", ROOT_RELS)
        z.writestr("xl/workbook.xml", WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        z.writestr("xl/styles.xml", STYLES)
        z.writestr("xl/worksheets/sheet1.xml", "".join(parts))


# openpyxl peers, run in a child interpreter: argv = op, path
PEER = r'''
import json, sys
import openpyxl
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Font, PatternFill
op, path = sys.argv[1], sys.argv[2]
if op == "read":
    wb = openpyxl.load_workbook(path, read_only=True)
    ws = wb["Data"]
    values = [list(r) for r in ws.iter_rows(min_row=1, max_row=%(read_rows)d, max_col=%(read_cols)d, values_only=True)]
    text = json.dumps({"status": "success", "values": values}, ensure_ascii=False)
    wb.close()
    assert len(values) == %(read_rows)d
elif op == "write":
    wb = openpyxl.load_workbook(path)
    ws = wb["Data"]
    for r in range(%(write_rows)d):
        for c in range(%(write_cols)d):
            ws.cell(row=r + 2, column=c + 12, value=r * c + 0.5)
    wb.save(path)
elif op == "rule":
    wb = openpyxl.load_workbook(path)
    ws = wb["Data"]
    ws.conditional_formatting.add("A2:J%(rule_last)d", CellIsRule(operator="greaterThan", formula=["500"], fill=PatternFill("solid", fgColor="FFC7CE")))
    wb.save(path)
elif op == "format":
    wb = openpyxl.load_workbook(path)
    ws = wb["Data"]
    font, fill = Font(bold=True, color="FF0000"), PatternFill("solid", fgColor="FFFF00")
    for row in ws["%(format_range)s"]:
        for cell in row:
            cell.font = font
            cell.fill = fill
    wb.save(path)
'''


# openpyxl peer of the editing session: load once, then edit + save each time.
SESSION_PEER = r"""
import json, sys, time
import openpyxl
path, edits, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t0 = time.perf_counter()
wb = openpyxl.load_workbook(path)
load = time.perf_counter() - t0
ws = wb["Data"]
times = []
for i in range(edits):
    t0 = time.perf_counter()
    for c in range(cols):
        ws.cell(row=i + 2, column=c + 12, value=i * 100 + c + 0.5)
    wb.save(path)
    times.append(time.perf_counter() - t0)
print(json.dumps({"load": load, "edits": times}))
"""


def session_values(i: int) -> list[list[float]]:
    """The row edit i writes (the same on both sides)."""
    return [[i * 100 + c + 0.5 for c in range(WRITE_COLS)]]


def sidecar_session(binary: str, work: pathlib.Path, name: str) -> list[float]:
    """Run SESSION_EDITS write_cells calls on one sidecar over WebSocket and
    return the wall time of each, as the agent sees it (save included)."""
    from registry_sidecar import Client, Sidecar  # in the venv with the adapter

    with Sidecar.launch(work, binary=binary, startup_timeout=HANDSHAKE_TIMEOUT) as sc, \
            Client(sc.url, token=sc.token, max_size=64 << 20, call_timeout=CALL_TIMEOUT) as client:
        times = []
        for i in range(SESSION_EDITS):
            args = {"file_path": name, "sheet_name": "Data", "cell_range": f"L{i + 2}", "values": session_values(i)}
            t0 = time.perf_counter()
            res = client.call_tool("write_cells", args)
            times.append(time.perf_counter() - t0)
            if res.is_error or not res.text.startswith('{"status": "success"'):
                raise SystemExit(f"bench_excel: edit {i} failed: {res.text[:300]}")
        return times


def check_session(path: pathlib.Path) -> None:
    """Both sides must leave the same edited cells behind."""
    import warnings

    import openpyxl  # type: ignore[import-untyped]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the generated workbook has no default style
        wb = openpyxl.load_workbook(path, read_only=True)
    ws = wb["Data"]
    got = [list(r) for r in ws.iter_rows(min_row=2, max_row=SESSION_EDITS + 1, min_col=12,
                                         max_col=11 + WRITE_COLS, values_only=True)]
    wb.close()
    want = [session_values(i)[0] for i in range(SESSION_EDITS)]
    if got != want:
        raise SystemExit(f"bench_excel: {path.name} does not hold the session's edits")


def session_bench(binary: str, work: pathlib.Path) -> None:
    """Measure and print the editing session, ours vs openpyxl."""
    ours, peer = work / "ours-session.xlsx", work / "openpyxl-session.xlsx"
    shutil.copyfile(work / "rules.xlsx", ours)
    shutil.copyfile(work / "rules.xlsx", peer)
    t0 = time.perf_counter()
    times = sidecar_session(binary, work, ours.name)
    ours_total = time.perf_counter() - t0  # includes the sidecar's start
    _, _, out = run_child([sys.executable, "-c", SESSION_PEER, str(peer), str(SESSION_EDITS), str(WRITE_COLS)])
    res = json.loads(out)
    check_session(ours)
    check_session(peer)
    ours_mean = sum(times) / len(times)
    peer_times: list[float] = res["edits"]
    peer_mean = sum(peer_times) / len(peer_times)
    peer_total = res["load"] + sum(peer_times)
    print(f"\n{SESSION_EDITS} consecutive edits of the {RULE_ROWS // 1000}k-row workbook in one long-lived process "
          f"({WRITE_COLS} cells each, saved every time):")
    print(f"  ours (sidecar over WebSocket, cached workbook): first edit {times[0]:.2f}s, tenth edit {times[-1]:.2f}s, "
          f"mean {ours_mean:.2f}s/edit, session {ours_total:.2f}s incl. start")
    print(f"  openpyxl in-process (load once {res['load']:.2f}s): first edit {peer_times[0]:.2f}s, "
          f"tenth edit {peer_times[-1]:.2f}s, mean {peer_mean:.2f}s/edit, session {peer_total:.2f}s incl. load")
    print(f"  per-edit speedup (openpyxl mean / ours mean): {peer_mean / ours_mean:.1f}x; "
          f"whole session: {peer_total / ours_total:.1f}x; ours first/tenth edit: {times[0] / times[-1]:.1f}x")


def run_child(argv: list[str]) -> tuple[float, int, str]:
    """Run argv, return (wall seconds, peak RSS bytes, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read() if proc.stdout else b""
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed ({proc.returncode}): {out[-500:]!r} {err[-500:]!r}")
    return wall, usage.ru_maxrss * 1024, out.decode("utf-8", "replace")


def main() -> int:
    binary = os.environ.get("REGISTRY_SIDECAR_BIN", "bin/registry-sidecar")
    if not pathlib.Path(binary).exists():
        print(f"bench_excel: {binary} not built; skipping", file=sys.stderr)
        return 1
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-excel-"))
    try:
        t0 = time.perf_counter()
        # Generate in a child process: a forked child starts with a copy of
        # its parent's memory, which would inflate every ru_maxrss below.
        for name, nrows, cols in (("read.xlsx", READ_ROWS, READ_COLS), ("rules.xlsx", RULE_ROWS, RULE_COLS),
                                 ("small.xlsx", 100, RULE_COLS)):
            subprocess.run([sys.executable, __file__, "--generate", str(work / name), str(nrows), str(cols)], check=True)
        print(f"generated workbooks in {time.perf_counter() - t0:.1f}s: "
              f"read.xlsx {READ_ROWS}x{READ_COLS} ({(work / 'read.xlsx').stat().st_size >> 10} KiB), "
              f"rules.xlsx {RULE_ROWS}x{RULE_COLS} ({(work / 'rules.xlsx').stat().st_size >> 10} KiB)")
        peer = PEER % {
            "read_rows": READ_ROWS, "read_cols": READ_COLS, "write_rows": WRITE_ROWS, "write_cols": WRITE_COLS,
            "rule_last": RULE_ROWS + 1, "format_range": FORMAT_RANGE,
        }
        block = [[r * c + 0.5 for c in range(WRITE_COLS)] for r in range(WRITE_ROWS)]
        ops: list[tuple[str, str, str, dict[str, Any]]] = [
            (f"read {READ_ROWS // 1000}k x {READ_COLS} range", "read", "read.xlsx",
             {"tool": "read_excel", "args": {"range": f"A1:{col_name(READ_COLS)}{READ_ROWS}"}}),
            (f"write {WRITE_ROWS * WRITE_COLS // 1000}k-cell block (small book)", "write", "small.xlsx",
             {"tool": "write_cells", "args": {"cell_range": "L2", "values": block}}),
            (f"write {WRITE_ROWS * WRITE_COLS // 1000}k-cell block ({RULE_ROWS // 1000}k rows)", "write", "rules.xlsx",
             {"tool": "write_cells", "args": {"cell_range": "L2", "values": block}}),
            (f"add conditional rule ({RULE_ROWS // 1000}k rows)", "rule", "rules.xlsx",
             {"tool": "add_conditional_rule", "args": {"cell_range": f"A2:J{RULE_ROWS + 1}", "rule_type": "cell_is",
                                                       "operator": "greaterThan", "values": [500]}}),
            (f"format {FORMAT_RANGE} ({RULE_ROWS // 1000}k rows)", "format", "rules.xlsx",
             {"tool": "format_cells", "args": {"cell_range": FORMAT_RANGE, "font": {"bold": True, "color": "FF0000"},
                                               "fill": {"color": "FFFF00"}}}),
        ]
        rows = []
        for label, op, source, spec in ops:
            best: dict[str, tuple[float, int]] = {}
            for _ in range(REPEATS):
                for who in ("ours", "openpyxl"):
                    target = work / f"{who}-{source}"
                    shutil.copyfile(work / source, target)
                    if who == "ours":
                        args = dict(spec["args"], file_path=target.name, sheet_name="Data")
                        # No result cap: both sides produce the full JSON text.
                        argv = [binary, "call", "--max-result-chars", "-1", "--workspace", str(work),
                                spec["tool"], json.dumps(args)]
                    else:
                        argv = [sys.executable, "-c", peer, op, str(target)]
                    wall, rss, out = run_child(argv)
                    if who == "ours":
                        assert out.startswith('{"status": "success"'), out[:300]
                    prev = best.get(who)
                    best[who] = (min(wall, prev[0]) if prev else wall, min(rss, prev[1]) if prev else rss)
            (ow, orss), (pw, prss) = best["ours"], best["openpyxl"]
            rows.append((label, ow, pw, pw / ow, orss, prss, prss / orss))
        print()
        print(f"{'operation':38} {'ours s':>8} {'openpyxl s':>10} {'speedup':>8} {'ours MiB':>9} {'openpyxl MiB':>12} {'RSS ratio':>9}")
        for label, ow, pw, sp, orss, prss, rr in rows:
            print(f"{label:38} {ow:8.2f} {pw:10.2f} {sp:7.1f}x {orss / 2**20:9.0f} {prss / 2**20:12.0f} {rr:8.2f}x")
        print(f"\n(best of {REPEATS}; speedup = openpyxl time / ours; RSS ratio = openpyxl peak RSS / ours; both > 1 favour ours)")
        session_bench(binary, work)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def session_only() -> int:
    """Run only the editing-session measurement (--session)."""
    binary = os.environ.get("REGISTRY_SIDECAR_BIN", "bin/registry-sidecar")
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-excel-"))
    try:
        subprocess.run([sys.executable, __file__, "--generate", str(work / "rules.xlsx"), str(RULE_ROWS), str(RULE_COLS)],
                       check=True)
        session_bench(binary, work)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--generate":
        generate(pathlib.Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
        sys.exit(0)
    if sys.argv[1:] == ["--session"]:
        sys.exit(session_only())
    sys.exit(main())
