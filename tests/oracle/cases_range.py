"""Oracle cases: delete_range and copy_sheet.

delete_range: cells deleted and the cells beside them shifted up or left.

References to deleted cells become #REF!, references to moved cells follow them, ranges inside
the shifted band shrink, ranges reaching outside it stay; on other sheets and in names too. The
format is in README.md beside this file.
"""

from __future__ import annotations

from typing import Any

# GRID holds numbers in A1:C6 and formulas reading them in E.
GRID: dict[str, Any] = {
    "A1": 1, "A2": 2, "A3": 3, "A4": 4, "A5": 5, "A6": 6,
    "B1": 10, "B2": 20, "B3": 30, "B4": 40, "B5": 50, "B6": 60,
    "C1": 100, "C2": 200, "C3": 300, "C4": 400, "C5": 500, "C6": 600,
    "E1": "=A3*10", "E2": "=SUM(A1:A6)", "E3": "=A5+B5", "E4": "=SUM(A1:C6)", "E5": "=$A$6+A$4",
    "E6": "=SUM(A3:A4)", "E7": "=SUM(B1:B6)", "E8": "=SUM(A2:B5)", "E9": "=A2", "E10": "=SUM(A:A)",
}


# COPIED is a sheet whose formulas read itself (without naming it) and another sheet.
COPIED: dict[str, Any] = {
    "Data": {"A1": 1, "A2": 2, "B1": "=A1*2", "B2": "=SUM(A1:A2)", "B3": "=Report!A1+A2", "B4": "=$A$1+A$2"},
    "Report": {"A1": 7, "A2": "=Data!B1", "A3": "=SUM(Data!B1:B4)"},
}


def delete(rng: str, shift: str, sheet: str = "Sheet1") -> dict[str, Any]:
    return {"op": "delete_range", "sheet": sheet, "range": rng, "shift": shift}


CASES: list[dict[str, Any]] = [
    {"name": "range_delete_up_one_column", "sheets": {"Sheet1": GRID}, "ops": [delete("A3:A4", "up")]},
    {"name": "range_delete_up_two_columns", "sheets": {"Sheet1": GRID}, "ops": [delete("A2:B3", "up")]},
    {"name": "range_delete_up_first_rows", "sheets": {"Sheet1": GRID}, "ops": [delete("A1:A2", "up")]},
    {"name": "range_delete_left_one_row", "sheets": {"Sheet1": {**GRID, "E11": "=SUM(A3:C3)", "E12": "=C3*2", "E13": "=B3"}},
     "ops": [delete("A3:B3", "left")]},
    {"name": "range_delete_up_cross_sheet_and_names",
     "sheets": {"销售 2024": {"A1": 1, "A2": 2, "A3": 3, "A4": 4, "B1": 5},
                "Report": {"A1": "='销售 2024'!A3", "A2": "=SUM('销售 2024'!A1:A4)", "A3": "=SUM(Total)",
                           "A4": "='销售 2024'!A2+'销售 2024'!B1"}},
     "names": {"Total": "'销售 2024'!$A$1:$A$4"},
     "ops": [delete("A2", "up", sheet="销售 2024")]},
    # --- copy_sheet ---------------------------------------------------------------------------
    {"name": "copy_sheet_formulas", "sheets": COPIED, "ops": [{"op": "copy_sheet", "name": "Data", "new": "Data copy", "position": 1}]},
    {"name": "copy_sheet_to_front_quoted_names",
     "sheets": {"Q1 'Plan' v1": {"A1": 5, "B1": "=A1*2", "B2": "=Summary!A2"}, "Summary": {"A1": "='Q1 ''Plan'' v1'!B1", "A2": 3}},
     "ops": [{"op": "copy_sheet", "name": "Q1 'Plan' v1", "new": "Plan 2", "position": 0}]},
    {"name": "copy_sheet_self_references",
     "sheets": {"Data": {"A1": 1, "A2": 2, "B2": "=Data!A2+1", "B3": "=SUM(Data!A1:A2)"}},
     "ops": [{"op": "copy_sheet", "name": "Data", "new": "Data copy"}],
     "xfail": "Excel points a copied sheet's references to its source sheet at the copy (='Data copy'!A2+1), and so "
              "does copy_sheet; LibreOffice keeps them on the source (=Data!A2+1)"},
]
