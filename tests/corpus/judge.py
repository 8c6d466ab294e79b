"""LibreOffice's word on the formula values an edit recomputed.

After an edit, every formula cell whose cached value differs from the one the file held
(moved with the edit) was recomputed by our engine. LibreOffice opens our result and
recalculates it (tests/oracle/lo_driver.py, one soffice for the run); each recomputed value
must agree with Calc's. A cell where Calc's recalculation of the original file already
disagreed with Excel's cached value is left out: there Calc is no judge of Excel.
"""

from __future__ import annotations

import math
import pathlib
import sys
import threading
from typing import Any, NamedTuple

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "oracle"))

import workbook_parts as wp  # noqa: E402


class Judge:
    """Judge asks one LibreOffice (serialised by a lock: the driver serves one request at a time)."""

    def __init__(self) -> None:
        import oracle  # type: ignore[import-not-found]  # tests/oracle, put on sys.path above

        self.lo = oracle.LibreOffice()
        self.lock = threading.Lock()
        self.originals: dict[str, dict[str, dict[str, Any]]] = {}

    def close(self) -> None:
        """close ends the LibreOffice process."""
        self.lo.close()

    def calc(self, path: pathlib.Path) -> dict[str, dict[str, Any]]:
        """calc is Calc's recalculated cells of the workbook at path, by sheet and A1 reference."""
        with self.lock:
            got = self.lo.run(path, [])
        return {s["name"]: s["cells"] for s in got["sheets"]}

    def disagreements(self, original: pathlib.Path, book: pathlib.Path, recomputed: list[Recomputed]) -> list[str]:
        """disagreements lists the recomputed cells whose value is not what Calc computes for our
        file, leaving out those whose old place Calc computes unlike Excel's cached value."""
        if not recomputed:
            return []
        key = str(original)
        if key not in self.originals:
            self.originals[key] = self.calc(original)
        before, now = self.originals[key], self.calc(book)
        out = []
        for r in recomputed:
            if r.was is not None:
                old = before.get(r.sheet, {}).get(f"{wp.col_letters(r.old[1])}{r.old[0]}")
                if old is None or not agree(r.was, old):
                    continue  # Calc does not compute this cell as Excel did: no judge here
            ref = f"{wp.col_letters(r.at[1])}{r.at[0]}"
            lo = now.get(r.sheet, {}).get(ref)
            if lo is None or agree(r.value, lo):
                continue
            out.append(f"{r.sheet}!{ref}: ours {r.value!r}, Calc {show(lo)}")
        return out


class Recomputed(NamedTuple):
    """Recomputed is a formula cell whose cached value the edit changed: its sheet, its place
    (row, column) now and before the edit, its value now and the one the file cached."""

    sheet: str
    at: tuple[int, int]
    old: tuple[int, int]
    value: str
    was: str | None


def agree(ours: str, calc: dict[str, Any]) -> bool:
    """agree says whether our cached value text matches Calc's cell: the same error, text, or a
    number within a relative 1e-9 (booleans are Calc's 1 and 0)."""
    if "e" in calc:
        return bool(ours == calc["e"])
    v = calc.get("v")
    if isinstance(v, (int, float)):
        try:
            n = float(ours)
        except ValueError:
            return ours.upper() in ("TRUE", "FALSE") and float(ours.upper() == "TRUE") == v
        return math.isclose(n, float(v), rel_tol=1e-9, abs_tol=1e-12)
    return bool(ours == ("" if v is None else str(v)))


def show(cell: dict[str, Any]) -> str:
    """show prints Calc's value of a cell."""
    return repr(cell.get("e", cell.get("v")))
