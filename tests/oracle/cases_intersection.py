"""Oracle cases: implicit intersection of plain formulas, as in a workbook made before Excel 365.

The starting workbook (openpyxl) holds plain formulas, without dynamic array metadata: Excel
and Calc intersect a range where one value is taken with the formula's row (`=A1:A10*2` in row
5 is `A5*2`; in row 12, outside the range, `#VALUE!`). A write to A5 makes our side recompute
them; the same cells are in the Go test TestPlainIntersection
(third_party/excelize/calc_intersect_test.go).

INDEX with a row or column of 0 returns a whole column, row or area of its reference, which a
plain formula intersects as it intersects a range written out (`=INDEX(A1:A10,0)` in row 5 is
A5) and a function taking a range reads whole (`SUM(INDEX(A1:C3,0,2))`): the case
intersection_index_area, whose cells are in the Go test TestIndexAreaPlain
(third_party/excelize/calc_index_area_test.go). A row or column computed to 0 (`INDEX(A1:C3,J2,2)`,
J2 0) is the same: the case intersection_index_computed, in the Go test TestIndexComputedPlain.
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

# INDEX_AREA: A1:A10 the squares, B1:B10 10..100, C1:C10 t1..t10, and plain formulas taking a
# column, row or area of them with INDEX.
INDEX_AREA: dict[str, Any] = {
    **{f"A{i}": i * i for i in range(1, 11)},
    **{f"B{i}": i * 10 for i in range(1, 11)},
    **{f"C{i}": f"t{i}" for i in range(1, 11)},
    "E5": "=INDEX(A1:A10,0)",
    "E12": "=INDEX(A1:A10,0)",
    "E8": "=INDEX(A1:A10,0,1)",
    "G3": "=INDEX(A:A,0)",
    "E2": "=INDEX(A1:C3,0,2)",
    "E4": "=INDEX(A1:C3,0,2)",
    "F10": "=INDEX(A1:C10,0,2)",
    "G2": "=INDEX(A1:C3,,2)",
    "B12": "=INDEX(A1:C1,1,0)",
    "D12": "=INDEX(A1:C1,1,0)",
    "C12": "=INDEX(A1:C3,2,0)",
    "B13": "=INDEX(A1:C1,0)",
    "A14": "=INDEX(A1:C3,2)",
    "B14": "=INDEX(A1:C3,2)",
    "E3": "=INDEX(A1:C3,0,0)",
    "E9": "=INDEX({1;2;3},0)",
    "F6": "=INDEX({1,2;3,4},0,2)",
    "E10": "=INDEX(A1:A10,0)*2",
    "F2": "=INDEX(A1:C3,0,2)*2",
    "G8": "=LEN(INDEX(C1:C10,0))",
    "F9": "=IF(TRUE,INDEX(A1:A10,0))",
    "E6": "=SUM(INDEX(A1:C3,0,2))",
    "E7": "=SUM(INDEX(A1:C3,0,0))",
    "H7": "=SUM(INDEX(A1:C3,0))",
    "F7": "=SUMPRODUCT(INDEX(A1:C3,0,2)*2)",
    "F14": '=COUNTIF(INDEX(A1:C3,0,2),">15")',
    "E1": "=ROWS(INDEX(A1:C3,0,2))",
    "H1": "=ROWS(INDEX(A1:C3,0))",
    "H2": "=COLUMNS(INDEX(A1:C3,0))",
    "H3": "=COLUMNS(INDEX(A1:C3,2))",
    "H6": "=COLUMNS(INDEX(A1:C1,0))",
    "H10": "=COLUMNS(INDEX(A1:C3,,2))",
    "H18": "=INDEX(A1:C3,0,4)",
    "H20": "=INDEX(A1:A10,0,2)",
    # An operator on the column inside SUM: Excel and Calc intersect it (B1*2 in row 1, #VALUE! in
    # row 5); the engine would compute the whole column, so our side leaves it without a value.
    "F1": "=SUM(INDEX(A1:C3,0,2)*2)",
    "F5": "=SUM(INDEX(A1:C3,0,2)*2)",
}

# INDEX_COMPUTED: the sheet of INDEX_AREA with J1 blank, J2 0 and J3 2, and plain formulas whose
# INDEX row or column is computed: 0 (J1 blank, J2, MATCH(...)-2) makes it a whole column or row,
# which the formula intersects as a literal 0 (`=INDEX(A1:C3,J2,2)` in row 3 is B3, in row 4
# #VALUE!); 2 makes it one cell.
INDEX_COMPUTED: dict[str, Any] = {
    **{f"A{i}": i * i for i in range(1, 11)},
    **{f"B{i}": i * 10 for i in range(1, 11)},
    **{f"C{i}": f"t{i}" for i in range(1, 11)},
    "J2": 0,
    "J3": 2,
    "E2": "=INDEX(A1:C3,J1,2)",
    "E3": "=INDEX(A1:C3,J2,2)",
    "E4": "=INDEX(A1:C3,J2,2)",
    "E1": "=INDEX(A1:C3,J3,2)",
    "E12": "=INDEX(A1:C3,J3,2)",
    "E13": "=INDEX(A1:C3,J2,2)",
    "F2": "=INDEX(A1:C3,MATCH(4,A1:A3,0)-2,2)",
    "F3": "=INDEX(A1:C3,MATCH(4,A1:A3,0)-1,2)*2",
    "F1": "=SUM(INDEX(A1:C3,J2,2))",
    "F4": "=SUM(INDEX(A1:C3,J3,2)*2)",
    "G3": "=SUMPRODUCT(INDEX(A1:C3,J2,2)*2)",
    "G4": "=LEN(INDEX(C1:C10,J1))",
    "B13": "=INDEX(A1:C3,2,J1)",
    "D13": "=INDEX(A1:C3,2,J2)",
    "H5": "=IF(TRUE,INDEX(A1:A10,J2))",
    "E7": '=IFERROR(INDEX(A1:A10,MATCH(999,A1:A10,0)),"none")',
    "H7": '=COUNTIF(INDEX(A1:C3,J2,2),">15")',
    "H8": "=ROWS(INDEX(A1:C3,J1,2))",
    "H9": "=E3+E1",
    # An operator on the computed column inside SUM: Excel and Calc intersect it; the engine
    # would compute the whole column, so our side leaves it (and what reads it) without a value.
    "G2": "=SUM(INDEX(A1:C3,J2,2)*2)",
    "H2": "=G2+1",
}

# INDEX_AREA_NUM: the sheet of INDEX_AREA with D1:E3 14,15;24,25;34,35, and INDEX's reference form
# with area_num: on one range area 1 is the range, another #REF!; on a union of ranges (which the
# engine cannot represent) our side leaves the formula, and what reads it, without a value.
INDEX_AREA_NUM: dict[str, Any] = {
    **{f"A{i}": i * i for i in range(1, 11)},
    **{f"B{i}": i * 10 for i in range(1, 11)},
    **{f"C{i}": f"t{i}" for i in range(1, 11)},
    **{f"{c}{r}": r * 10 + 4 + i for r in range(1, 4) for i, c in enumerate("DE")},
    "G1": "=INDEX(A1:C3,2,2,1)",
    "G2": "=INDEX(A1:C3,2,2,2)",
    "G3": "=INDEX(A1:C3,2,3,1.7)",
    "G4": '=INDEX(A1:C3,2,2,"x")',
    "G5": "=INDEX(A1:C3,1,1,0)",
    "G6": "=INDEX((A1:B2,D1:E3),2,2,2)",
    "G7": "=SUM((A1:B2,D1:E3))",
    "G8": "=INDEX((A1:B2,D1:E3),1,1,1)+1",
    "G9": "=G6*2",
}

CASES: list[dict[str, Any]] = [
    {
        "name": "intersection_plain_formulas",
        "sheets": {"Sheet1": LEGACY},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "A5", "value": 7}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "intersection_index_area",
        "sheets": {"Sheet1": INDEX_AREA},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "A5", "value": 7}],
        "read": True,
        "on_open": True,
        "uncomputable": ["Sheet1!F1", "Sheet1!F5"],
    },
    {
        "name": "intersection_index_computed",
        "sheets": {"Sheet1": INDEX_COMPUTED},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "A5", "value": 7}],
        "read": True,
        "on_open": True,
        "uncomputable": ["Sheet1!G2", "Sheet1!H2"],
    },
    {
        "name": "index_area_num",
        "sheets": {"Sheet1": INDEX_AREA_NUM},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "A5", "value": 7}],
        "read": True,
        "on_open": True,
        "uncomputable": ["Sheet1!G6", "Sheet1!G7", "Sheet1!G8", "Sheet1!G9"],
    },
]
