"""Oracle cases: dynamic array formulas written with write_cells spill as in Excel 365.

A `set` with `"spill": "C1:D3"` is entered on the Calc side as an array formula over that
range (what LibreOffice makes of an Excel 365 dynamic array anchor it reads from a file); our
side writes the formula into the anchor cell alone, and write_cells must store the anchor,
its spill range and every spilled value, so that LibreOffice opening our file shows the same
formula and values in every cell, recalculated and as opened, from our cached values
(`on_open`), and read_excel returns them (`read`).

LINEST and LOGEST (without their statistics) spill a row of coefficients (`spill_linest`).
LibreOffice 25.2 lacks TAKE, DROP, CHOOSEROWS, CHOOSECOLS, VSTACK, HSTACK, TOCOL, TOROW and
EXPAND (it shows #NAME?), so those are checked by the Go tests alone, against Microsoft's
documented results (third_party/excelize/calc_array_modern_test.go).
LibreOffice 25.2 has no #SPILL! either: an obstructed spill (the `blocked` case) is checked only for
what Calc shows (the anchor as a one-cell array formula); the #SPILL! value itself is pinned by
the Go tests (excelops/formula_spill_test.go).
"""

from __future__ import annotations

from typing import Any

# DATA is a small column of repeated numbers, names and prices.
DATA: dict[str, Any] = {
    "A1": 3, "A2": 1, "A3": 3, "A4": 2, "A5": 1,
    "B1": "pens", "B2": "pads", "B3": "ink", "B4": "tape", "B5": "glue",
    "C1": 2.5, "C2": 12, "C3": 3.25, "C4": 1.75, "C5": 4,
}


def spill(cell: str, rng: str, formula: str) -> dict[str, Any]:
    """The set operation of one spilling formula."""
    return {"op": "set", "sheet": "Sheet1", "cell": cell, "value": formula, "spill": rng}


CASES: list[dict[str, Any]] = [
    {
        "name": "spill_sequence_column",
        "sheets": {"Sheet1": {"A1": 1}},
        "ops": [spill("C3", "C3:C5", "=SEQUENCE(3)")],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_sequence_block",
        "sheets": {"Sheet1": {"A1": 1}},
        "ops": [spill("B2", "B2:D3", "=SEQUENCE(2,3,10,-2.5)")],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_unique",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("E1", "E1:E3", "=UNIQUE(A1:A5)")],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_transpose_text",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("E1", "E1:I1", "=TRANSPOSE(B1:B5)")],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_sortby",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("E1", "E1:F5", "=SORTBY(B1:C5,C1:C5,-1)")],
        "read": True,
        "on_open": True,
    },
    {
        # Formulas reading spilled cells, written before and after the spill.
        "name": "spill_read_by_formulas",
        "sheets": {"Sheet1": {"A1": 1, "F1": "=SUM(C1:C4)"}},
        "ops": [spill("C1", "C1:C4", "=SEQUENCE(4,1,5)"),
                {"op": "set", "sheet": "Sheet1", "cell": "F2", "value": "=C3*2"}],
        "read": True,
        "on_open": True,
    },
    {
        # LINEST and LOGEST's coefficients, last x first, then the intercept (a row).
        "name": "spill_linest",
        "sheets": {"Sheet1": {**DATA, "D1": 1, "D2": 4, "D3": 9, "D4": 3, "D5": 7,
                              "E1": 0, "E2": 1, "E3": 1, "E4": 0, "E5": 1}},
        "ops": [spill("G1", "G1:H1", "=LINEST(C1:C5,A1:A5)"),
                spill("G2", "G2:H2", "=LINEST(C1:C5,A1:A5,FALSE)"),
                spill("G3", "G3:H3", "=LOGEST(C1:C5,D1:D5)"),
                spill("G4", "G4:H4", "=LINEST(C1:C5)"),
                spill("G5", "G5:I5", "=LINEST(C1:C5,D1:E5)"),
                spill("G6", "G6:I6", "=LOGEST(C1:C5,D1:E5,TRUE,FALSE)")],
        "read": True,
        "on_open": True,
    },
    {
        # An obstructed spill: Excel shows #SPILL! in C1 (our file holds it); Calc, which has
        # no #SPILL!, shows the anchor as a one-cell array formula with its first value.
        "name": "spill_blocked",
        "sheets": {"Sheet1": {"C2": "x"}},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "C1", "value": "=SEQUENCE(3)"}],
    },
]
