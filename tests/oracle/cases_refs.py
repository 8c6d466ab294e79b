"""Oracle cases: Excel's reference semantics on structural edits and copies.

Insert/delete rows and columns, rename/delete sheets and copies, each done in Calc and through
our tools; formulas and recalculated values must agree cell by cell. The format is in README.md
beside this file.
"""

from __future__ import annotations

from typing import Any

# NUMS is a column of numbers with formulas of every reference kind beside it.
NUMS: dict[str, Any] = {
    "A1": 1, "A2": 2, "A3": 3, "A4": 4, "A5": 5, "A6": 6,
    "B1": 10, "B2": 20, "B3": 30, "B4": 40, "B5": 50, "B6": 60,
    "D1": "=A3*10", "D2": "=SUM(A1:A5)", "D3": "=$A$4+A$5+$A6", "D4": "=SUM(A:A)",
    "D5": "=SUM(B2:B4)", "D6": '="A3"&A2',
}

# TWO has a data sheet and a report sheet reading it, names quoted as Excel requires.
TWO: dict[str, Any] = {
    "销售 2024": {"A1": 100, "A2": 200, "A3": 300, "A4": 400, "B1": 1, "B2": 2, "B3": 3, "B4": 4},
    "Report": {
        "A1": "='销售 2024'!A2*2", "A2": "=SUM('销售 2024'!A1:A4)", "A3": "=SUM('销售 2024'!B:B)",
        "A4": "='销售 2024'!$A$4+'销售 2024'!B1", "A5": "=A1+A2", "B1": 7, "B2": "=B1*3",
    },
}

# PLAN's sheet name needs doubled quotes.
PLAN: dict[str, Any] = {
    "Q1 'Plan' v1": {"A1": 5, "A2": 6, "A3": 7, "B1": "=A1*2"},
    "Summary": {"A1": "='Q1 ''Plan'' v1'!A3", "A2": "=SUM('Q1 ''Plan'' v1'!A1:A3)", "A3": "='Q1 ''Plan'' v1'!B1+1"},
}


def rows(op: str, row: int, count: int = 1, sheet: str = "Sheet1") -> dict[str, Any]:
    return {"op": op, "sheet": sheet, "row": row, "count": count}


def cols(op: str, column: str, count: int = 1, sheet: str = "Sheet1") -> dict[str, Any]:
    return {"op": op, "sheet": sheet, "column": column, "count": count}


CASES: list[dict[str, Any]] = [
    # --- delete rows ----------------------------------------------------------------------
    {"name": "refs_delete_row_under_reference_gives_ref", "sheets": {"Sheet1": NUMS},
     "ops": [rows("delete_rows", 3)]},
    {"name": "refs_delete_rows_shrink_range", "sheets": {"Sheet1": NUMS},
     "ops": [rows("delete_rows", 2, 2)]},
    {"name": "refs_delete_rows_whole_range_gives_ref", "sheets": {"Sheet1": {**NUMS, "F1": "=SUM(B3:B4)", "F2": "=B3"}},
     "ops": [rows("delete_rows", 3, 2)]},
    {"name": "refs_delete_first_rows", "sheets": {"Sheet1": {**NUMS, "F7": "=SUM(A1:A6)", "F8": "=A1+A6"}},
     "ops": [rows("delete_rows", 1, 2)]},
    {"name": "refs_delete_rows_below_data", "sheets": {"Sheet1": NUMS},
     "ops": [rows("delete_rows", 10, 3)]},
    {"name": "refs_delete_row_absolute_and_mixed", "sheets": {"Sheet1": {**NUMS, "F1": "=$A$2*A$3", "F2": "=$B4+B$6"}},
     "ops": [rows("delete_rows", 1)]},
    {"name": "refs_delete_rows_whole_row_refs", "sheets": {"Sheet1": {**NUMS, "H1": "=SUM(2:3)", "H2": "=SUM($5:$6)", "H8": "=SUM(4:4)"}},
     "ops": [rows("delete_rows", 4)]},
    {"name": "refs_delete_rows_cross_sheet_quoted", "sheets": TWO,
     "ops": [rows("delete_rows", 2, 1, "销售 2024")]},
    {"name": "refs_delete_rows_on_report_leaves_data_refs", "sheets": TWO,
     "ops": [rows("delete_rows", 3, 1, "Report")]},
    {"name": "refs_delete_rows_doubled_quote_sheet", "sheets": PLAN,
     "ops": [rows("delete_rows", 1, 1, "Q1 'Plan' v1")]},
    {"name": "refs_delete_rows_string_literal_untouched", "sheets": {"Sheet1": {"A1": 1, "A2": 2, "A3": 3, "C3": '=IF(A3>0,"A3 ok","A1")&A1'}},
     "ops": [rows("delete_rows", 1)]},
    # --- insert rows ----------------------------------------------------------------------
    {"name": "refs_insert_rows_inside_range_grows", "sheets": {"Sheet1": NUMS},
     "ops": [rows("insert_rows", 3, 2)]},
    {"name": "refs_insert_rows_above_everything", "sheets": {"Sheet1": NUMS},
     "ops": [rows("insert_rows", 1, 3)]},
    {"name": "refs_insert_rows_cross_sheet", "sheets": TWO,
     "ops": [rows("insert_rows", 2, 2, "销售 2024")]},
    {"name": "refs_insert_rows_then_fill", "sheets": {"Sheet1": NUMS},
     "ops": [rows("insert_rows", 4), {"op": "set", "sheet": "Sheet1", "cell": "A4", "value": 100}]},
    # --- columns --------------------------------------------------------------------------
    {"name": "refs_delete_column_gives_ref", "sheets": {"Sheet1": {"A1": 1, "B1": 2, "C1": 3, "D1": 4, "F1": "=B1*10", "F2": "=SUM(A1:D1)", "F3": "=$C$1+D1"}},
     "ops": [cols("delete_columns", "B")]},
    {"name": "refs_delete_columns_shrink_and_whole_columns", "sheets": {"Sheet1": {**NUMS, "F1": "=SUM(A1:B6)", "F2": "=SUM(B:B)", "F3": "=COUNT(A:B)"}},
     "ops": [cols("delete_columns", "B")]},
    {"name": "refs_delete_columns_cross_sheet", "sheets": TWO,
     "ops": [cols("delete_columns", "A", 1, "销售 2024")]},
    {"name": "refs_insert_columns_move_and_grow", "sheets": {"Sheet1": {**NUMS, "F1": "=SUM(A1:B6)", "F2": "=$B$2*A2"}},
     "ops": [cols("insert_columns", "B", 2)]},
    {"name": "refs_insert_columns_cross_sheet", "sheets": TWO,
     "ops": [cols("insert_columns", "A", 1, "销售 2024")]},
    # --- names ----------------------------------------------------------------------------
    {"name": "refs_defined_name_follows_deleted_rows", "sheets": {"Sheet1": {**NUMS, "F1": "=SUM(Amounts)"}},
     "names": {"Amounts": "Sheet1!$B$2:$B$5"}, "ops": [rows("delete_rows", 3)]},
    {"name": "refs_defined_name_follows_inserted_columns", "sheets": {"Sheet1": {**NUMS, "F1": "=SUM(Amounts)"}},
     "names": {"Amounts": "Sheet1!$B$1:$B$6"}, "ops": [cols("insert_columns", "A")]},
    # --- sheets ---------------------------------------------------------------------------
    {"name": "refs_rename_sheet_rewrites_formulas", "sheets": TWO,
     "ops": [{"op": "rename_sheet", "old": "销售 2024", "new": "Sales"}]},
    {"name": "refs_rename_sheet_to_quoted_name", "sheets": {"Data": {"A1": 3, "A2": 4}, "Out": {"A1": "=Data!A1*Data!A2", "A2": "=SUM(Data!A1:A2)"}},
     "ops": [{"op": "rename_sheet", "old": "Data", "new": "Q1 'Plan' v1"}]},
    {"name": "refs_rename_sheet_with_name", "sheets": {"Data": {"A1": 3, "A2": 4}, "Out": {"A1": "=SUM(Vals)"}},
     "names": {"Vals": "Data!$A$1:$A$2"}, "ops": [{"op": "rename_sheet", "old": "Data", "new": "Data 2"}]},
    {"name": "refs_delete_sheet_gives_ref", "sheets": {**PLAN, "Other": {"A1": 1}},
     "ops": [{"op": "delete_sheet", "name": "Q1 'Plan' v1"}]},
    # --- copies ---------------------------------------------------------------------------
    {"name": "refs_copy_moves_relative_keeps_absolute", "sheets": {"Sheet1": {**NUMS, "E1": "=A1*B1", "E2": "=$A$1*B2", "E3": "=A$1+$B3"}},
     "ops": [{"op": "copy_range", "src_sheet": "Sheet1", "src_range": "E1:E3", "dst_sheet": "Sheet1", "dst_cell": "F2"}]},
    {"name": "refs_copy_to_other_sheet", "sheets": {"Sheet1": {**NUMS, "E1": "=A1*B1", "E2": "=SUM(A1:A3)"}, "Copy": {"A1": 1, "B1": 2, "A2": 3}},
     "ops": [{"op": "copy_range", "src_sheet": "Sheet1", "src_range": "E1:E2", "dst_sheet": "Copy", "dst_cell": "C1"}]},
    {"name": "refs_copy_whole_columns_and_cross_sheet", "sheets": TWO,
     "ops": [{"op": "copy_range", "src_sheet": "Report", "src_range": "A1:A4", "dst_sheet": "Report", "dst_cell": "C3"}]},
    # (A copy that moves a reference off the grid is left to the Go tests: Excel and openpyxl
    # give #REF!, Calc wraps the reference around the sheet.)
    {"name": "refs_copy_down_a_block", "sheets": {"Sheet1": {**NUMS, "E1": "=A1*B1", "E2": "=A2*$B$1"}},
     "ops": [{"op": "copy_range", "src_sheet": "Sheet1", "src_range": "E1:E2", "dst_sheet": "Sheet1", "dst_cell": "E4"}]},
    {"name": "refs_copy_values_only", "sheets": {"Sheet1": {**NUMS, "E1": "=A1*B1", "E2": "=SUM(A1:A3)"}},
     "ops": [{"op": "copy_range", "src_sheet": "Sheet1", "src_range": "E1:E2", "dst_sheet": "Sheet1", "dst_cell": "G5", "values_only": True}]},
]
