"""Oracle cases: implicit intersection of plain formulas, as in a workbook made before Excel 365.

The starting workbook (openpyxl) holds plain formulas, without dynamic array metadata: Excel
and Calc intersect a range where one value is taken with the formula's row (`=A1:A10*2` in row
5 is `A5*2`; in row 12, outside the range, `#VALUE!`). A write to A5 makes our side recompute
them; the same cells are in the Go test TestPlainIntersection
(third_party/excelize/calc_intersect_test.go).
"""

from __future__ import annotations

from typing import Any

# LEGACY: A1:A10 the squares 1..100, B1:B10 t1..t10, and plain formulas reading them.
LEGACY: dict[str, Any] = {
    **{f"A{i}": i * i for i in range(1, 11)},
    **{f"B{i}": f"t{i}" for i in range(1, 11)},
    "D5": "=A1:A10*2",
    "E5": "=LEN(B1:B10)",
    "F5": "=A1:A10",
    "G5": "=N(A1:A10)",
    "H5": "=ROUND(A1:A10/3,1)",
    "I5": '=IF(A1:A10>20,"big","small")',
    "D6": "=A1:A10&B1:B10",
    "E6": "=-A:A",
    "F6": "=SUM(A1:A10)+A1:A10",
    "D12": "=A1:A10*2",
    "E12": "=LEN(B1:B10)",
}

CASES: list[dict[str, Any]] = [
    {
        "name": "intersection_plain_formulas",
        "sheets": {"Sheet1": LEGACY},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "A5", "value": 7}],
        "read": True,
        "on_open": True,
    },
]
