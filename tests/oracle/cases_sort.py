"""Oracle cases: sort_range against Calc's own Data > Sort.

Calc sorts the starting workbook itself (lo_driver.py `op_sort`, XSortable with its
default reference handling, which moves a formula's relative references with its row as
Excel does); our tool sorts a copy; both are recalculated and compared cell by cell.
The format is in README.md beside this file. Booleans are left out: Calc sorts them as
the numbers 1 and 0, Excel after text.
"""

from __future__ import annotations

from typing import Any

# ORDERS is a sales block with per-row formulas (relative, absolute, mixed), a rate
# outside the block that they read absolutely, and formulas outside reading into it.
ORDERS: dict[str, Any] = {
    "A1": "item", "B1": "qty", "C1": "price", "D1": "amount", "E1": "with tax", "F1": "rank",
    "A2": "pens", "B2": 10, "C2": 2.5, "D2": "=B2*C2", "E2": "=D2*(1+$H$1)", "F2": "=RANK(B2,$B$2:$B$6)",
    "A3": "pads", "B3": 4, "C3": 12, "D3": "=B3*C3", "E3": "=D3*(1+$H$1)", "F3": "=RANK(B3,$B$2:$B$6)",
    "A4": "ink", "B4": 7, "C4": 3.25, "D4": "=B4*C4", "E4": "=D4*(1+$H$1)", "F4": "=RANK(B4,$B$2:$B$6)",
    "A5": "tape", "B5": 2, "C5": 1.75, "D5": "=B5*C5", "E5": "=D5*(1+$H$1)", "F5": "=RANK(B5,$B$2:$B$6)",
    "A6": "glue", "B6": 12, "C6": 0.5, "D6": "=B6*C6", "E6": "=D6*(1+$H$1)", "F6": "=RANK(B6,$B$2:$B$6)",
    "H1": 0.2,
    "A8": "total", "D8": "=SUM(D2:D6)", "E8": "=D2", "F8": "=INDEX(A2:A6,1)",
}

CASES: list[dict[str, Any]] = [
    {
        "name": "sort_formulas_follow_their_rows",
        "sheets": {"Sheet1": ORDERS},
        "ops": [{"op": "sort", "sheet": "Sheet1", "range": "A1:F6", "header": True,
                 "by": [{"column": "B", "order": "descending"}]}],
    },
    {
        "name": "sort_by_text_then_number_without_header",
        "sheets": {"Sheet1": {
            "A1": "east", "B1": 3, "C1": "=B1*10",
            "A2": "West", "B2": 1, "C2": "=B2*10",
            "A3": "east", "B3": 2, "C3": "=B3*10",
            "A4": "North", "B4": 5, "C4": "=B4*10",
            "A5": "west", "B5": 4, "C5": "=B5*10",
            "E1": "=SUM(C1:C2)",
        }},
        "ops": [{"op": "sort", "sheet": "Sheet1", "range": "A1:C5",
                 "by": [{"column": "A"}, {"column": "B", "order": "descending"}]}],
    },
    {
        "name": "sort_text_in_collation_order",
        "sheets": {"Sheet1": {f"A{i}": w for i, w in enumerate(
            ["zeta", "Éclair", "apple", "Ábaco", "eclairs", "Zebra", "_note", "b-side", "B2", "10 items"], start=1)}},
        "ops": [{"op": "sort", "sheet": "Sheet1", "range": "A1:A10", "by": [{"column": "A"}]}],
    },
    {
        "name": "sort_numbers_before_text_blanks_last",
        "sheets": {"Sheet1": {
            "A1": "key", "B1": "tag",
            "A2": "b", "B2": "=ROW()",
            "A3": 30, "B3": "=ROW()",
            "B4": "=ROW()",
            "A5": "A", "B5": "=ROW()",
            "A6": 4, "B6": "=ROW()",
        }},
        "ops": [{"op": "sort", "sheet": "Sheet1", "range": "A1:B6", "header": True, "by": [{"column": "A"}]}],
    },
]
