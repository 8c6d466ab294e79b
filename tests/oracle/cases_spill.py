"""Oracle cases: dynamic array formulas written with write_cells spill as in Excel 365.

A `set` with `"spill": "C1:D3"` is entered on the Calc side as an array formula over that
range (what LibreOffice makes of an Excel 365 dynamic array anchor it reads from a file); our
side writes the formula into the anchor cell alone, and write_cells must store the anchor,
its spill range and every spilled value, so that LibreOffice opening our file shows the same
formula and values in every cell, recalculated and as opened, from our cached values
(`on_open`), and read_excel returns them (`read`).

LINEST and LOGEST (without their statistics) spill a row of coefficients (`spill_linest`).
LibreOffice 25.2 lacks TAKE, DROP, CHOOSEROWS, CHOOSECOLS, VSTACK, HSTACK, TOCOL, TOROW,
EXPAND, TEXTSPLIT, WRAPROWS and WRAPCOLS (it shows #NAME?), so those are checked by the Go tests
alone, against Microsoft's documented results (third_party/excelize/calc_array_modern_test.go,
calc_array_select_test.go). RANDARRAY's values are random: its shape, bounds and volatility are
checked by the Go tests (excelops/internal/tools/formula_spill_test.go). LibreOffice has no logical type (TRUE is
the number 1), so SORT of logical values, which Excel puts after text, is checked by the Go tests.
LibreOffice 25.2 has no #SPILL! either: an obstructed spill (the `blocked` case) is checked only for
what Calc shows (the anchor as a one-cell array formula); the #SPILL! value itself is pinned by
the Go tests (excelops/internal/tools/formula_spill_test.go). LibreOffice 25.2 reads no spill reference either
(_xlfn.ANCHORARRAY from a file is #NAME?), nor MAP or LAMBDA: formulas reading a spill (C1#)
after its anchor spills again are checked by the Go tests (excelops/internal/tools/splice_spill_refs_test.go).
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


# OPS_DATA: A1:A5 1..5, B1:B5 8,6,4,2,0, C1 text, C2 #DIV/0!, C3 blank.
OPS_DATA: dict[str, Any] = {
    **{f"A{i}": i for i in range(1, 6)},
    **{f"B{i}": v for i, v in enumerate([8, 6, 4, 2, 0], start=1)},
    "C1": "x", "C2": "=1/0",
}

# OPERATOR_FORMULAS: each formula over OPS_DATA with the rows and columns of its result; a
# one-value result whose operators apply to a range is still an array formula (rows 1, cols 1),
# while rows 0 marks an ordinary formula.
OPERATOR_FORMULAS: list[tuple[str, int, int]] = [
    ("=SEQUENCE(3)*2", 3, 1),
    ("=A1:A5*10", 5, 1),
    ("=A1:A5>3", 5, 1),
    ("={1,2}+{10;20}", 2, 2),
    ("={1,2,3}*{1,2}", 1, 3),
    ("={1;2}*{1;2;3}", 3, 1),
    ("=FILTER(A1:A5,A1:A5>3)", 2, 1),
    ("=FILTER(A1:B5,(A1:A5>1)*(B1:B5<5))", 3, 2),
    ("=SUM(A1:A5*B1:B5)", 1, 1),
    ("=SUMPRODUCT((A1:A5>2)*B1:B5)", 0, 0),
    ("=SUM(TRANSPOSE({1,2;3,4}))", 0, 0),
    ("=TRANSPOSE(A1:A3*2)", 1, 3),
    ("=-A1:A3", 3, 1),
    ("=A1:A2%", 2, 1),
    ("=A1:A3^2", 3, 1),
    ('=A1:A2&"x"', 2, 1),
    ("=A1:A3/B3:B5", 3, 1),
    ("=C1:C3*2", 3, 1),
    ('=C1:C3&"!"', 3, 1),
    ('=C1:C3=""', 3, 1),
    ('={"a","B"}<"b"', 1, 2),
    ('={1,"1"}>0', 1, 2),
    ("=ROWS(FILTER(A1:A5,A1:A5>2))", 1, 1),
    ("=ROWS(A1:A5*2)", 1, 1),
    ("=COLUMNS({1,2,3})", 0, 0),
    ("=0.1+0.2=0.3", 0, 0),
    ('=1234567&""', 0, 0),
]


# LIFT_DATA: OPS_DATA with D1:D5 apple, x, banana, cat, x.
LIFT_DATA: dict[str, Any] = {
    **OPS_DATA,
    **{f"D{i}": v for i, v in enumerate(["apple", "x", "banana", "cat", "x"], start=1)},
}

# LIFTED_FORMULAS: functions given an array where they take one value, over LIFT_DATA (the same
# formulas as the Go test TestArrayLiftedFunctions in third_party/excelize/calc_array_lift_test.go),
# as OPERATOR_FORMULAS gives rows and columns.
LIFTED_FORMULAS: list[tuple[str, int, int]] = [
    ("=ABS(A1:A3-4)", 3, 1),
    ("=SUM(IF(A1:A5>3,1,0))", 1, 1),
    ('=IF(A1:A5>3,"big","small")', 5, 1),
    ("=LEN(D1:D3)", 3, 1),
    ("=ROUND(A1:A3*1.1,1)", 3, 1),
    ("=SUM(--(A1:A5>2))", 1, 1),
    ("=SUMPRODUCT(LEN(D1:D5))", 0, 0),
    ('=MAX(IF(D1:D5="x",A1:A5))', 1, 1),
    ('=TEXT(A1:A3,"0.0")', 3, 1),
    ("=ISNUMBER(A3:C3)", 1, 3),
    ('=SUM(IF(ISNUMBER(SEARCH("a",D1:D5)),1,0))', 1, 1),
    ("=IFERROR(1/B3:B5,-1)", 3, 1),
    ("=IF(A1:A3>1,B1:B3,C1:C3)", 3, 1),
    ("=IF(A1:A3>2,A1:A3)", 3, 1),
    ("=CHOOSE({1,2},A1,B1)", 1, 2),
    ("=ROUND(A1:A2/3,{1,2})", 2, 2),
    ("=MID(D3:D4,2,2)", 2, 1),
    ("=VLOOKUP(A2:A3,A1:B5,2,FALSE)", 2, 1),
    ("=ABS({-1,2;-3,4})", 2, 2),
    ('=UPPER(D1:D2)&"!"', 2, 1),
    ("=A1:A2+LEN(D1:D2)", 2, 1),
    ("=ISBLANK(C1:C3)", 3, 1),
    ("=N(A2:D2)", 1, 4),
    ("=ABS(C1:C2)", 2, 1),
    ("=IF({1,0,1},{1,2},0)", 1, 3),
    ('=SUM(--(D1:D5="x"))', 1, 1),
    ("=--TRUE", 0, 0),
    ("=---A2", 0, 0),
]


# INDEX_AREA: A1:A10 the squares with A5 7, B1:B10 10..100, C1:C10 t1..t10 (the sheet of the Go
# tests TestIndexAreaArray, third_party/excelize/calc_index_area_test.go, and
# TestWriteCellsIndexAreaSpills, excelops/internal/tools/formula_index_area_test.go).
INDEX_AREA: dict[str, Any] = {
    **{f"A{i}": i * i for i in range(1, 11)},
    **{f"B{i}": i * 10 for i in range(1, 11)},
    **{f"C{i}": f"t{i}" for i in range(1, 11)},
    "A5": 7,
}


def operator_spills(formulas: list[tuple[str, int, int]] = OPERATOR_FORMULAS,
                    cols: str = "EI") -> list[dict[str, Any]]:
    """The set operations of formulas, one under another: the first half from the first of
    cols, row 1, the second from the second."""
    ops: list[dict[str, Any]] = []
    half = (len(formulas) + 1) // 2
    for i, (formula, rows, cols_) in enumerate(formulas):
        if i % half == 0:
            col, row = cols[i // half], 1
        cell = f"{col}{row}"
        if rows == 0:
            ops.append({"op": "set", "sheet": "Sheet1", "cell": cell, "value": formula})
        else:
            last = f"{chr(ord(col) + cols_ - 1)}{row + rows - 1}"
            ops.append(spill(cell, f"{cell}:{last}", formula))
        row += max(rows, 1)
    return ops


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
        "name": "spill_filter_rows",
        "sheets": {"Sheet1": {**DATA, "D1": True, "D2": False, "D3": True, "D4": False, "D5": True}},
        "ops": [spill("F1", "F1:G3", "=FILTER(B1:C5,D1:D5)")],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_filter_columns",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("E1", "E1:F2", "=FILTER(A1:C2,{1,0,1})")],
        "read": True,
        "on_open": True,
    },
    {
        # Nothing kept: if_empty is the value, which does not spill.
        "name": "spill_filter_if_empty",
        "sheets": {"Sheet1": {**DATA, "D1": False, "D2": False, "D3": False, "D4": False, "D5": False}},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "F1", "value": '=FILTER(B1:C5,D1:D5,"none")'}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_sort_by_price_descending",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("E1", "E1:G5", "=SORT(A1:C5,3,-1)")],
        "read": True,
        "on_open": True,
    },
    {
        # Equal keys keep their order (3 pens before 3 ink, 1 pads before 1 glue).
        "name": "spill_sort_stable",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("E1", "E1:F5", "=SORT(A1:B5)")],
        "read": True,
        "on_open": True,
    },
    {
        # Numbers before text, text ignoring case.
        "name": "spill_sort_mixed_types",
        "sheets": {"Sheet1": {"A1": "pear", "A2": 3, "A3": "Apple", "A4": 1.5, "A5": "banana", "A6": -2}},
        "ops": [spill("C1", "C1:C6", "=SORT(A1:A6)"), spill("D1", "D1:D6", "=SORT(A1:A6,1,-1)")],
        "read": True,
        "on_open": True,
    },
    {
        # A blank cell of the result shows 0 (as in Excel); a blank sorts last.
        "name": "spill_filter_sort_blanks",
        "sheets": {"Sheet1": {"A1": 1, "A3": 3, "A4": "x", "B1": True, "B2": True, "B3": True, "B4": False}},
        "ops": [spill("D1", "D1:D3", "=FILTER(A1:A4,B1:B4)"), spill("E1", "E1:E4", "=SORT(A1:A4)")],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_sort_by_columns",
        "sheets": {"Sheet1": {"A1": 3, "B1": 1, "C1": 2, "A2": "c", "B2": "a", "C2": "b"}},
        "ops": [spill("A4", "A4:C5", "=SORT(A1:C2,2,-1,TRUE)")],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_sort_of_filter",
        "sheets": {"Sheet1": {**DATA, "D1": True, "D2": False, "D3": True, "D4": True, "D5": True}},
        "ops": [spill("F1", "F1:F4", "=SORT(FILTER(B1:B5,D1:D5))")],
        "read": True,
        "on_open": True,
    },
    {
        # A comparison of a range inside FILTER, computed element by element.
        "name": "spill_filter_comparison",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("F1", "F1:F2", "=FILTER(B1:B5,A1:A5>2)")],
        "read": True,
        "on_open": True,
    },
    {
        # Operators over ranges and array constants (the same cells and formulas as the Go
        # test TestArrayOperators in third_party/excelize/calc_array_ops_test.go).
        "name": "spill_array_operators",
        "sheets": {"Sheet1": OPS_DATA},
        "ops": operator_spills(),
        "read": True,
        "on_open": True,
    },
    {
        # Functions lifted over arrays (the same cells and formulas as the Go test
        # TestArrayLiftedFunctions in third_party/excelize/calc_array_lift_test.go).
        "name": "spill_lifted_functions",
        "sheets": {"Sheet1": LIFT_DATA},
        "ops": operator_spills(LIFTED_FORMULAS, "FK"),
        "read": True,
        "on_open": True,
    },
    {
        # An omitted argument is an empty one (sort_index left to its default, the first column).
        "name": "spill_sort_omitted_argument",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("F1", "F1:H5", "=SORT(A1:C5,,-1)")],
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
        # INDEX with a row or column of 0 spills the whole column, row or area (not intersected,
        # as a plain formula would be); SUM of an operator on it is an array formula over its own
        # cell; SUM of the column and INDEX of one cell are ordinary formulas.
        "name": "spill_index_area",
        "sheets": {"Sheet1": INDEX_AREA},
        "ops": [spill("E1", "E1:E10", "=INDEX(A1:A10,0)"),
                spill("F1", "F1:F3", "=INDEX(A1:C3,0,2)"),
                spill("G1", "G1:I1", "=INDEX(A1:C3,2,0)"),
                spill("G2", "G2:I2", "=INDEX(A1:C1,0)"),
                spill("G3", "G3:H4", "=INDEX(A1:B2,0,0)"),
                spill("G5", "G5:I5", "=INDEX(A1:C3,2)"),
                spill("F5", "F5:F7", "=INDEX(A1:C3,0,2)*2"),
                spill("G7", "G7:G7", "=SUM(INDEX(A1:C3,0,2)*2)"),
                {"op": "set", "sheet": "Sheet1", "cell": "G8", "value": "=SUM(INDEX(A1:C3,0,2))"},
                {"op": "set", "sheet": "Sheet1", "cell": "G9", "value": "=INDEX(A1:C3,3,2)"}],
        "read": True,
        "on_open": True,
    },
    {
        # INDEX with a row or column computed to 0 (J1 blank, J2 0) spills as a literal 0 does;
        # computed to 2 (J3) it is one cell, an ordinary formula. SUM of an operator on the
        # computed column is one value, so an ordinary formula, which a plain formula's reader
        # (Calc, Excel) intersects: our side leaves it without a value rather than the column's sum.
        "name": "spill_index_computed",
        "sheets": {"Sheet1": {**INDEX_AREA, "J2": 0, "J3": 2}},
        "ops": [spill("E1", "E1:E3", "=INDEX(A1:C3,J2,2)"),
                spill("F1", "F1:F3", "=INDEX(A1:C3,J1,2)"),
                spill("G1", "G1:I1", "=INDEX(A1:C3,2,J2)"),
                {"op": "set", "sheet": "Sheet1", "cell": "G3", "value": "=INDEX(A1:C3,J3,2)"},
                {"op": "set", "sheet": "Sheet1", "cell": "G4", "value": "=SUM(INDEX(A1:C3,J2,2))"},
                {"op": "set", "sheet": "Sheet1", "cell": "G7", "value": "=SUM(INDEX(A1:C3,J2,2)*2)"}],
        "read": True,
        "on_open": True,
        "uncomputable": ["Sheet1!G7"],
    },
    {
        # An obstructed spill: Excel shows #SPILL! in C1 (our file holds it); Calc, which has
        # no #SPILL!, shows the anchor as a one-cell array formula with its first value.
        "name": "spill_blocked",
        "sheets": {"Sheet1": {"C2": "x"}},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "C1", "value": "=SEQUENCE(3)"}],
    },
    # Structural edits around a spill (Calc refuses edits inside an array, so those are pinned by
    # the Go tests, TestSpillsThroughStructuralEdits): the anchor and its values move, a formula
    # reading the spill follows.
    {
        "name": "spill_rows_inserted_above",
        "sheets": {"Sheet1": {"A1": "=SUM(C3:C5)"}},
        "ops": [spill("C3", "C3:C5", "=SEQUENCE(3)"), {"op": "insert_rows", "sheet": "Sheet1", "row": 2}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_rows_deleted_above",
        "sheets": {"Sheet1": {"A1": "=SUM(C3:C5)", "C2": 7}},
        "ops": [spill("C3", "C3:C5", "=SEQUENCE(3)"), {"op": "delete_rows", "sheet": "Sheet1", "row": 2}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_columns_inserted_before",
        "sheets": {"Sheet1": {"A1": "=SUM(C3:D4)"}},
        "ops": [spill("C3", "C3:D4", "=SEQUENCE(2,2)"), {"op": "insert_columns", "sheet": "Sheet1", "column": "B"}],
        "read": True,
        "on_open": True,
    },
    # delete_range beside and around a spill, where Calc can do the same edit (it refuses to
    # delete cells inside an array, so deletes through a spill are pinned by the Go tests,
    # TestSpillsThroughDeleteRange): the spill moves whole or stays, cells beside it move.
    {
        "name": "spill_delete_range_beside",
        "sheets": {"Sheet1": {"A1": "=SUM(C3:C5)", "D4": "z", "D6": 4}},
        "ops": [spill("C3", "C3:C5", "=SEQUENCE(3)"),
                {"op": "delete_range", "sheet": "Sheet1", "range": "D3", "shift": "up"}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_delete_range_above_moves_it_whole",
        "sheets": {"Sheet1": {"A1": "=SUM(C3:C5)", "C1": 7, "C7": 9}},
        "ops": [spill("C3", "C3:C5", "=SEQUENCE(3)"),
                {"op": "delete_range", "sheet": "Sheet1", "range": "C1:C2", "shift": "up"}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_delete_range_left_moves_it_whole",
        "sheets": {"Sheet1": {"A1": "=SUM(C3:D4)", "A3": "x", "F3": 8}},
        "ops": [spill("C3", "C3:D4", "=SEQUENCE(2,2)"),
                {"op": "delete_range", "sheet": "Sheet1", "range": "A3:A4", "shift": "left"}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_delete_range_of_the_whole_spill",
        "sheets": {"Sheet1": {"A1": "=SUM(C1:C9)", "C7": 9, "D4": "kept"}},
        "ops": [spill("C3", "C3:C5", "=SEQUENCE(3)"),
                {"op": "delete_range", "sheet": "Sheet1", "range": "C3:C5", "shift": "up"}],
        "read": True,
        "on_open": True,
    },
    # copy_range_between_sheets of a whole spill: the anchor spills again where it lands (Calc
    # copies the array whole); copies of part of a spill are pinned by TestSpillsThroughCopyRange.
    {
        "name": "spill_copy_range_whole",
        "sheets": {"Sheet1": {**DATA, "H1": "=SUM(F1:F3)"}},
        "ops": [spill("E1", "E1:E3", "=UNIQUE($A$1:$A$5)"),
                {"op": "copy_range", "src_sheet": "Sheet1", "src_range": "E1:E3", "dst_sheet": "Sheet1",
                 "dst_cell": "F1"}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_copy_range_to_another_sheet",
        "sheets": {"Sheet1": DATA, "Other": {"A1": "=SUM(B2:C3)"}},
        "ops": [spill("E1", "E1:F2", "=SEQUENCE(2,2,5)"),
                {"op": "copy_range", "src_sheet": "Sheet1", "src_range": "E1:F2", "dst_sheet": "Other",
                 "dst_cell": "B2"}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_copy_range_values_only",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("E1", "E1:I1", "=TRANSPOSE(B1:B5)"),
                {"op": "copy_range", "src_sheet": "Sheet1", "src_range": "E1:I1", "dst_sheet": "Sheet1",
                 "dst_cell": "E3", "values_only": True}],
        "read": True,
        "on_open": True,
    },
    {
        "name": "spill_copy_sheet",
        "sheets": {"Sheet1": {**DATA, "H1": "=SUM(E1:E3)"}},
        "ops": [spill("E1", "E1:E5", "=SORT(A1:A5,1,-1)"),
                {"op": "copy_sheet", "name": "Sheet1", "new": "Copy"},
                {"op": "set", "sheet": "Copy", "cell": "A2", "value": 9}],
        "read": True,
        "on_open": True,
    },
    # A write into what dynamic arrays on another sheet read, their ranges unchanged: their
    # anchors and spilled cells take the new values in place (write_cells' splice path), and the
    # formulas reading them on that sheet and on a third one follow.
    {
        "name": "spill_on_another_sheet_values_change",
        "sheets": {"Sheet1": DATA, "Calc": {"D1": "=SUM(A1:A3)+B2"}, "Report": {"A1": "=Calc!A3*10+Calc!B2"}},
        "ops": [{"op": "set", "sheet": "Calc", "cell": "A1", "value": "=Sheet1!A1:A3*2", "spill": "A1:A3"},
                {"op": "set", "sheet": "Calc", "cell": "B1", "value": "=FILTER(Sheet1!A1:A5,Sheet1!A1:A5>2)",
                 "spill": "B1:B2"},
                {"op": "set", "sheet": "Sheet1", "cell": "A3", "value": 10}],
        "read": True,
        "on_open": True,
    },
    # sort_range of the data a spill beside it reads: the spill shows the new order (a sort of
    # cells of a spill is refused, as Excel refuses to change part of an array: Go tests).
    {
        "name": "spill_sort_beside",
        "sheets": {"Sheet1": DATA},
        "ops": [spill("E1", "E1:I1", "=TRANSPOSE(B1:B5)"),
                {"op": "sort", "sheet": "Sheet1", "range": "A1:C5", "by": [{"column": "C", "order": "descending"}]}],
        "read": True,
        "on_open": True,
    },
]
