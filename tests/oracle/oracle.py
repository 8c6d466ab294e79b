"""The test side of the LibreOffice oracle: the driver client, workbook builder, tool mapping.

Runs in the test venv. LibreOffice itself is reached through lo_driver.py, run as a
subprocess of Debian's /usr/bin/python3 (the only interpreter where `uno` imports).
The case format is documented in README.md beside this file.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
import selectors
import shutil
import subprocess
from typing import Any

import openpyxl
from openpyxl.workbook.defined_name import DefinedName

HERE = pathlib.Path(__file__).resolve().parent
DRIVER = HERE / "lo_driver.py"
# SYSTEM_PYTHON is the interpreter whose site-packages hold Debian's python3-uno.
SYSTEM_PYTHON = os.environ.get("LO_ORACLE_PYTHON", "/usr/bin/python3")
# REQUEST_TIMEOUT bounds one driver request (open, edit, recalculate, read) in seconds;
# the first one also waits for soffice to start with a fresh profile.
REQUEST_TIMEOUT = 180.0
# REL_TOL is the relative tolerance of numeric comparisons (Calc and Go round the
# last bits of a float differently).
REL_TOL = 1e-9


def unavailable() -> str | None:
    """Why the oracle cannot run here, or None when it can."""
    if shutil.which("soffice") is None:
        return "LibreOffice (soffice) is not installed: run `make oracle-deps` as root"
    if not os.path.exists(SYSTEM_PYTHON):
        return f"{SYSTEM_PYTHON} is missing (Debian's python3 with python3-uno)"
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import uno"], check=False, capture_output=True, text=True)
    if probe.returncode != 0:
        return f"`import uno` fails in {SYSTEM_PYTHON}: install python3-uno (`make oracle-deps`)"
    return None


class OracleError(RuntimeError):
    """The driver failed or answered with an error."""


class LibreOffice:
    """One lo_driver.py process (one soffice) shared by every case of a session."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [SYSTEM_PYTHON, str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1)
        self.sel = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        ready = self._answer()
        if not ready.get("ready"):
            raise OracleError(f"driver did not start: {ready}")

    def _answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        if not self.sel.select(REQUEST_TIMEOUT):
            self.close()
            raise OracleError(f"LibreOffice did not answer within {REQUEST_TIMEOUT:.0f}s")
        line = self.proc.stdout.readline()
        if not line:
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise OracleError(f"lo_driver.py exited: {err[-2000:]}")
        ans: dict[str, Any] = json.loads(line)
        return ans

    def run(self, path: pathlib.Path | None, ops: list[dict[str, Any]], save: pathlib.Path | None = None,
            on_open: bool = False, structure: bool = False, only: list[str] | None = None) -> dict[str, Any]:
        """Open path (None: a new workbook), apply ops, recalculate, report every cell
        (and, with structure, the notes, links, hidden rows, frozen panes, header and footer
        and tables Calc read; with only, just the cells of those ranges, booleans flagged "b")."""
        req = {"cmd": "run", "path": str(path) if path else None, "ops": ops,
               "save": str(save) if save else None, "on_open": on_open, "structure": structure, "only": only}
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        ans = self._answer()
        if not ans.get("ok"):
            raise OracleError(f"LibreOffice failed: {ans.get('error')}\n{ans.get('trace', '')}")
        return ans

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def build_workbook(case: dict[str, Any], path: pathlib.Path) -> None:
    """Write the case's starting workbook with openpyxl (sheets in order, then names)."""
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    for i, (name, cells) in enumerate(case["sheets"].items()):
        ws = first if i == 0 else wb.create_sheet()
        ws.title = name
        for ref, value in cells.items():
            ws[ref] = value
    for name, ref in case.get("names", {}).items():
        wb.defined_names[name] = DefinedName(name, attr_text=ref)
    wb.save(path)


def tool_calls(op: dict[str, Any], file: str) -> tuple[str, dict[str, Any]]:
    """The tool call that performs one oracle operation on our side."""
    kind = op["op"]
    sheet = {"sheet_name": op["sheet"]} if op.get("sheet") else {}
    if kind == "set":
        if "values" in op:
            return "write_cells", {"file_path": file, **sheet, "cell_range": op["cell"], "values": op["values"]}
        return "write_cells", {"file_path": file, **sheet, "cell": op["cell"], "value": op.get("value")}
    if kind in ("insert_rows", "delete_rows"):
        return kind, {"file_path": file, **sheet, "row": op["row"], "count": op.get("count", 1)}
    if kind in ("insert_columns", "delete_columns"):
        return kind, {"file_path": file, **sheet, "column": op["column"], "count": op.get("count", 1)}
    if kind == "create_sheet":
        args = {"file_path": file, "sheet_name": op["name"]}
        if "position" in op:
            args["position"] = op["position"]
        return kind, args
    if kind == "rename_sheet":
        return kind, {"file_path": file, "old_name": op["old"], "new_name": op["new"]}
    if kind == "delete_sheet":
        return kind, {"file_path": file, "sheet_name": op["name"], "confirm": True}
    if kind == "copy_range":
        args = {"source_file": file, "source_sheet": op["src_sheet"], "source_range": op["src_range"],
                "target_file": file, "target_sheet": op["dst_sheet"], "target_start": op.get("dst_cell", "A1"),
                "create": True}
        if op.get("values_only"):
            args["values_only"] = True
        return "copy_range_between_sheets", args
    if kind == "sort":
        by = [{"column": k["column"], "order": k.get("order", "ascending")} for k in op["by"]]
        return "sort_range", {"file_path": file, **sheet, "cell_range": op["range"], "sort_by": by,
                              "header": bool(op.get("header"))}
    if kind == "copy_sheet":
        args = {"file_path": file, "sheet_name": op["name"], "new_name": op["new"]}
        if "position" in op:
            args["position"] = op["position"]
        return kind, args
    if kind == "delete_range":
        return kind, {"file_path": file, **sheet, "cell_range": op["range"], "shift": op["shift"]}
    raise ValueError(f"no tool performs op {kind!r}")


def same_value(want: Any, got: Any) -> bool:
    """Values equal as a reader would judge them: numbers within REL_TOL, else exactly."""
    if isinstance(want, float) and isinstance(got, (int, float)):  # Calc's TRUE is 1.0
        return math.isclose(want, float(got), rel_tol=REL_TOL, abs_tol=1e-12)
    return bool(want == got)


def diff_sheets(want: list[dict[str, Any]], got: list[dict[str, Any]], what: tuple[str, ...] = ("f", "v", "e")) -> list[str]:
    """Every difference between two driver snapshots, one line each."""
    out: list[str] = []
    wn, gn = [s["name"] for s in want], [s["name"] for s in got]
    if wn != gn:
        out.append(f"sheets: LibreOffice {wn}, ours {gn}")
    gots = {s["name"]: s["cells"] for s in got}
    for s in want:
        g = gots.get(s["name"], {})
        for ref in sorted(set(s["cells"]) | set(g), key=cell_order):
            wc, gc = s["cells"].get(ref, {}), g.get(ref, {})
            for k in what:
                if k not in wc and k not in gc:
                    continue
                if k == "v" and same_value(wc.get(k), gc.get(k)):
                    continue
                if k != "v" and wc.get(k) == gc.get(k):
                    continue
                if k == "f" and broken_alike(wc, gc):
                    continue
                out.append(f"{s['name']}!{ref}: LibreOffice {show(wc)}, ours {show(gc)}")
                break
    return out


# REF_TEXT matches what stands for a reference in a formula Calc prints: an optional sheet
# prefix (a quoted name with doubled quotes, a bare name or Calc's #REF!), then a cell, range,
# whole-column or whole-row reference, or the #REF! of a deleted one.
REF_TEXT = re.compile(
    r"(?:'(?:[^']|'')*'!|[A-Za-z_][\w.]*!|#REF!!)?"
    r"(?:\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+|#REF!)?"
    r"(?![\w(])")


def ref_skeleton(formula: str) -> str:
    """The formula without its references (text inside string literals kept)."""
    parts = re.split(r'("(?:[^"]|"")*")', formula)
    return "".join(p if p.startswith('"') else REF_TEXT.sub("", p) for p in parts)


def broken_alike(want: dict[str, Any], got: dict[str, Any]) -> bool:
    """Two #REF! cells whose formulas differ only in how their references are spelt.

    Calc prints a deleted reference of a formula it edited itself with stale coordinates or
    none (=A3*10, =*10, ='Sheet'!*2, =#REF!!), and the #REF! it reads from a file as nothing:
    one meaning, several spellings. The formulas must still agree once every reference is
    taken out (the same functions, operators and literals in the same places)."""
    if want.get("e") != "#REF!" or got.get("e") != "#REF!":
        return False
    return ref_skeleton(str(want.get("f", ""))) == ref_skeleton(str(got.get("f", "")))


def split_ref(ref: str) -> tuple[int, int]:
    """1-based (column, row) of an A1 cell reference such as "B3"."""
    letters = "".join(ch for ch in ref if ch.isalpha())
    col = 0
    for ch in letters.upper():
        col = col * 26 + ord(ch) - 64
    return col, int(ref[len(letters):])


def col_name(col: int) -> str:
    """Column letters of a 1-based column number."""
    s = ""
    while col:
        col, r = divmod(col - 1, 26)
        s = chr(65 + r) + s
    return s


def cell_order(ref: str) -> tuple[int, str]:
    letters = "".join(ch for ch in ref if ch.isalpha())
    return int(ref[len(letters):]), letters.rjust(3)


def show(cell: dict[str, Any]) -> str:
    return json.dumps(cell, ensure_ascii=False) if cell else "(empty)"
