"""Oracle cases: formulas written through the tools, recalculation, cached values, validation.

One dict per case; the format is in README.md beside this file.
"""

from __future__ import annotations

from typing import Any

# SALES is a small sales sheet: quantity x price per row, a total under it.
SALES: dict[str, Any] = {
    "A1": "item", "B1": "qty", "C1": "price", "D1": "amount", "E1": "cost",
    "A2": "pens", "B2": 10, "C2": 2.5, "D2": "=B2*C2", "E2": 100,
    "A3": "pads", "B3": 4, "C3": 12, "D3": "=B3*C3", "E3": 156,
    "A4": "ink", "B4": 7, "C4": 3.25, "D4": "=B4*C4", "E4": 200,
    "A5": "tape", "B5": 2, "C5": 1.75, "D5": "=B5*C5", "E5": 200,
    "A6": "total", "D6": "=SUM(D2:D5)", "E6": "=SUM(E2:E5)",
}


def sets(sheet: str, cells: dict[str, Any], **extra: Any) -> list[dict[str, Any]]:
    """One set operation per cell (the tools write them one call each)."""
    return [{"op": "set", "sheet": sheet, "cell": ref, "value": v, **extra} for ref, v in cells.items()]


CASES: list[dict[str, Any]] = [
    # --- formulas written through the tools compute what Calc computes ------------------
    {
        "name": "write_arithmetic_chain",
        "sheets": {"Sheet1": {"A1": 2, "A2": 5}},
        "ops": sets("Sheet1", {"B1": "=A1*3", "C1": "=B1+A2", "D1": "=C1/4-1", "E1": "=(A1+A2)^2"}),
        "read": True,
    },
    {
        "name": "write_aggregates",
        "sheets": {"Sheet1": {"A1": 3, "A2": 9, "A3": -4, "A4": 12.5, "A5": "x"}},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "B1", "values": [
            ["=SUM(A1:A5)"], ["=AVERAGE(A1:A4)"], ["=MIN(A1:A4)"], ["=MAX(A1:A4)"],
            ["=COUNT(A1:A5)"], ["=COUNTA(A1:A5)"], ["=PRODUCT(A1:A3)"]]}],
        "read": True,
    },
    {
        "name": "write_logic",
        "sheets": {"Sheet1": {"A1": 5, "A2": 0, "A3": "yes"}},
        "ops": sets("Sheet1", {
            "B1": '=IF(A1>3,"big","small")', "B2": "=AND(A1>1,A2=0)", "B3": "=OR(A1<0,A2<0)",
            "B4": "=NOT(A2)", "B5": '=IF(A3="yes",A1*2,0)', "B6": "=A1>=5"}),
        "read": True,
    },
    {
        "name": "write_text_functions",
        "sheets": {"Sheet1": {"A1": "Hello", "A2": "world", "A3": 42}},
        "ops": sets("Sheet1", {
            "B1": '=A1&" "&A2', "B2": "=UPPER(A2)", "B3": "=LEN(A1)", "B4": "=LEFT(A1,3)",
            "B5": "=CONCATENATE(A2,A3)", "B6": '=TEXT(A3,"0.00")', "B7": "=TRIM(\"  a  b \")"}),
        "read": True,
    },
    {
        "name": "write_lookups",
        "sheets": {"Sheet1": {"A1": "a", "B1": 10, "A2": "b", "B2": 20, "A3": "c", "B3": 30}},
        "ops": sets("Sheet1", {
            "D1": '=VLOOKUP("b",A1:B3,2,FALSE)', "D2": '=INDEX(B1:B3,MATCH("c",A1:A3,0))',
            "D3": '=HLOOKUP(10,B1:B3,2,FALSE)', "D4": "=INDEX(A1:B3,2,2)"}),
        "read": True,
    },
    {
        "name": "write_math",
        "sheets": {"Sheet1": {"A1": 2.345, "A2": -7, "A3": 16}},
        "ops": sets("Sheet1", {
            "B1": "=ROUND(A1,2)", "B2": "=ABS(A2)", "B3": "=MOD(A2,3)", "B4": "=POWER(A3,0.5)",
            "B5": "=SQRT(A3)", "B6": "=INT(A1)", "B7": "=ROUNDUP(A1,1)", "B8": "=PI()*2"}),
        "read": True,
    },
    {
        "name": "write_conditional_aggregates",
        "sheets": {"Sheet1": {"A1": "n", "B1": 1, "A2": "s", "B2": 2, "A3": "n", "B3": 3, "A4": "e", "B4": 4}},
        "ops": sets("Sheet1", {
            "D1": '=SUMIF(A1:A4,"n",B1:B4)', "D2": '=COUNTIF(B1:B4,">1")',
            "D3": '=AVERAGEIF(A1:A4,"n",B1:B4)', "D4": '=SUMPRODUCT(B1:B4,B1:B4)'}),
        "read": True,
    },
    {
        "name": "write_error_results",
        "sheets": {"Sheet1": {"A1": 1, "A2": 0}},
        "ops": sets("Sheet1", {"B1": "=A1/A2", "B2": "=NA()", "B3": '=VALUE("abc")', "B4": "=IFERROR(A1/A2,-1)"}),
        "read": True,
    },
    {
        "name": "write_dates",
        "sheets": {"Sheet1": {"A1": 2024}},
        "ops": sets("Sheet1", {"B1": "=DATE(A1,1,31)+1", "B2": "=YEAR(DATE(A1,3,1))",
                               "B3": "=MONTH(B1)", "B4": "=DAY(B1)"}),
        "read": True,
    },
    {
        "name": "write_cross_sheet_quoted_names",
        "sheets": {"销售 2024": {"A1": 7, "A2": 8}, "Q1 'Plan' v1": {"A1": 100}, "Sheet3": {}},
        "ops": sets("Sheet3", {"A1": "='销售 2024'!A1*2", "A2": "=SUM('销售 2024'!A1:A2)",
                               "A3": "='Q1 ''Plan'' v1'!A1+'销售 2024'!A2"}),
        "read": True,
    },
    {
        "name": "write_block_with_formulas",
        "sheets": {"Data": {}},
        "ops": [{"op": "set", "sheet": "Data", "cell": "A1", "values": [
            ["qty", "price", "amount"], [3, 1.5, "=A2*B2"], [4, 2.25, "=A3*B3"], [None, "total", "=SUM(C2:C3)"]]}],
        "read": True,
    },
    {
        "name": "formula_only_rows_read",
        "sheets": {"Sheet1": {"A1": 1, "B1": 2}},
        "ops": sets("Sheet1", {"A3": "=A1+B1", "B3": "=A3*2", "A5": '="row "&A3'}),
        "read": True,
    },
    {
        "name": "write_chained_dependents",
        "sheets": {"Sheet1": {"A1": 1, "B1": "=A1+1", "C1": "=B1*10", "D1": "=SUM(A1:C1)"}},
        "ops": sets("Sheet1", {"A1": 5}),
        "read": True, "on_open": True,
    },
    {
        "name": "insert_rows_inside_summed_range",
        "sheets": {"Sales": SALES},
        "ops": [{"op": "insert_rows", "sheet": "Sales", "row": 4, "count": 2},
                *sets("Sales", {"B4": 1, "C4": 100, "D4": "=B4*C4"})],
    },
    {
        "name": "insert_columns_before_formulas",
        "sheets": {"Sales": SALES, "Summary": {"A1": "=Sales!D6", "A2": "=SUM(Sales!B2:C5)"}},
        "ops": [{"op": "insert_columns", "sheet": "Sales", "column": "B", "count": 2},
                *sets("Summary", {"A3": "=Sales!F6*2"})],
    },
    # --- changing a cell updates every formula that depends on it, on every sheet -------
    {
        "name": "stale_total_libreoffice_saved",
        # The example: LibreOffice saved the total 656; E3 changes by 90.
        "sheets": {"Sales": SALES},
        "saved_by": "libreoffice",
        "ops": sets("Sales", {"E3": 246}),
        "read": True, "on_open": True,
    },
    {
        "name": "dependents_on_other_sheets",
        "sheets": {"Inputs": {"A1": 10, "A2": 20}, "Report": {"A1": "=Inputs!A1*2", "B1": "=SUM(Inputs!A1:A2)"},
                   "Deep": {"A1": "=Report!A1+Report!B1"}},
        "saved_by": "libreoffice",
        "ops": sets("Inputs", {"A1": 1}),
        "read": True, "on_open": True,
    },
    {
        "name": "change_value_block_updates_total",
        "sheets": {"Sales": SALES},
        "saved_by": "libreoffice",
        "ops": [{"op": "set", "sheet": "Sales", "cell": "B2", "values": [[1, 1], [2, 2]]}],
        "read": True, "on_open": True,
    },
    {
        "name": "formula_replaced_by_value",
        "sheets": {"Sales": SALES},
        "saved_by": "libreoffice",
        "ops": sets("Sales", {"D3": 1000}),
        "read": True, "on_open": True,
    },
    {
        # The names a LET binds read nothing: a write into what its values read recomputes
        # it (on the splice path), and the formula reading it, with Calc's values.
        "name": "let_dependents_recomputed",
        "sheets": {"Sheet1": {"A1": 3, "A2": 4}},
        "ops": [*sets("Sheet1", {"B1": "=LET(x,A1*2,x+1)", "B2": "=LET(x,A1,y,A2,x*y)",
                                 "C1": "=B1+B2"}),
                *sets("Sheet1", {"A1": 7})],
        "read": True, "on_open": True,
    },
    {
        "name": "insert_rows_recalculates",
        "sheets": {"Sales": SALES},
        "saved_by": "libreoffice",
        "ops": [{"op": "insert_rows", "sheet": "Sales", "row": 3, "count": 2},
                *sets("Sales", {"B3": 5, "C3": 10, "D3": "=B3*C3"})],
        "read": True, "on_open": True,
    },
    {
        "name": "delete_rows_recalculates",
        "sheets": {"Sales": SALES},
        "saved_by": "libreoffice",
        "ops": [{"op": "delete_rows", "sheet": "Sales", "row": 4}],
        "read": True, "on_open": True,
    },
    {
        "name": "insert_columns_recalculates",
        "sheets": {"Sales": SALES},
        "saved_by": "libreoffice",
        "ops": [{"op": "insert_columns", "sheet": "Sales", "column": "C"}, *sets("Sales", {"C2": 3})],
        "read": True, "on_open": True,
    },
    {
        "name": "uncomputable_dependent_dropped",
        # The engine leaves CELL("width") and CELL("prefix") uncomputed (facts of formats);
        # Calc computes them. Their cached values depend on A1 and are not ours to keep:
        # read_excel shows the formulas instead.
        "sheets": {"Sheet1": {"A1": 1, "A2": 5, "B1": "=A1+CELL(\"width\",A1)", "B2": "=A1&CELL(\"prefix\",A1)"}},
        "saved_by": "libreoffice",
        "ops": sets("Sheet1", {"A1": 2}),
        "read": True, "on_open": True, "uncomputable": ["Sheet1!B1", "Sheet1!B2"],
    },
    # --- formulas are checked before they are written ----------------------------------
    {
        "name": "reject_bad_cell_in_block_writes_nothing",
        "sheets": {"Sheet1": {"A1": 1}},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "B2", "values": [[5, "=A1*2"], ["=VLOOKUPP(1,A1:A2,1)", 7]],
                 "expect": "rejected", "bad_cell": "B3", "message": ["VLOOKUPP", "VLOOKUP"]}],
    },
]

# Formulas Excel cannot hold: our tools refuse them (naming the cell and the problem) and
# Calc shows an error for each (Err:5xx, #NAME?), or, with calc_autocorrects, rewrites it.
REJECTED: list[tuple[str, str, list[str]]] = [
    ("unfinished_formula", "=1+", ["ends with the operator"]),
    ("not_a_formula", "=== not a formula", ["nothing on its left"]),
    ("misspelt_function", "=SUMME(A1)", ["SUMME", "did you mean SUM?"]),
    ("misspelt_average", "=AVERGE(A1:A2)", ["did you mean AVERAGE?"]),
    ("extra_closing_parenthesis", "=(A1+1))", ["closes nothing"]),
    ("operator_before_closing", "=SUM(A1+)", ["nothing on its right"]),
    ("leading_operator", "=*2", ["nothing on its left"]),
    ("two_values_without_operator", "=1 2", ["space"]),
    ("unclosed_text", '="abc', ["not closed"]),
    ("empty_parentheses", "=()", ["empty parentheses"]),
]
CASES += [
    {"name": f"reject_{name}", "sheets": {"Sheet1": {"A1": 1, "A2": 2}},
     "ops": sets("Sheet1", {"B1": formula}, expect="rejected", message=words)}
    for name, formula, words in REJECTED
]
CASES.append({
    # Calc's input line (like Excel's) closes the parenthesis for the user; a file cannot.
    "name": "reject_unclosed_parenthesis",
    "sheets": {"Sheet1": {"A1": 1}},
    "ops": sets("Sheet1", {"B1": "=SUM(A1"}, expect="rejected", calc_autocorrects=True,
                message=["parenthesis is not closed"]),
})


CASES.append({
    "name": "write_functions_newer_than_2007",
    "sheets": {"Sheet1": {"A1": "a", "A2": "b", "B1": 3, "B2": 4}},
    "ops": sets("Sheet1", {"C1": '=TEXTJOIN(",",TRUE,A1:A2)', "C2": '=CONCAT(A1,A2)', "C3": "=IFS(B1>3,1,B2>3,2)",
                           "C4": "=MAXIFS(B1:B2,A1:A2,\"b\")", "C5": "=_xlfn.CONCAT(A2,A1)"}),
    "read": True,
})

CASES.append({
    # excelize computes around what it leaves uncomputed (IFERROR(CELL("width",...),5) would be 5):
    # such formulas get no cached value, read_excel shows the formula, Calc recalculates.
    "name": "nested_uncomputable_not_trusted",
    "sheets": {"Sheet1": {"A1": 1}},
    "ops": sets("Sheet1", {"B1": '=IFERROR(CELL("width",A1),5)', "B2": '=ISERROR(CELL("format",A1))', "B3": "=A1*2"}),
    "read": True, "on_open": True, "uncomputable": ["Sheet1!B1", "Sheet1!B2"],
})
