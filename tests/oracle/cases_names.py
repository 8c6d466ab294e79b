"""Formulas name what exists: references to sheets, defined names and tables.

A formula our tools write may refer only to the sheets, defined names and tables the
workbook has. A reference to anything else is refused (a missing sheet as a KeyError, a
missing name as a ValueError, each with the near name), and Calc shows an error for it; a
reference to what exists computes what Calc computes.
"""

from __future__ import annotations

from typing import Any

from cases_recalc import sets

PLAN = {"Sheet1": {"A1": 1, "A2": 2, "B2": 10}, "Q1 Plan": {"A1": 5, "A2": 7}, "Sheet3": {"A1": 100}}

CASES: list[dict[str, Any]] = [
    {
        "name": "names_existing_sheets_and_names_compute",
        "sheets": PLAN,
        "names": {"TaxRate": "Sheet1!$A$2"},
        "ops": sets("Sheet1", {
            "C1": "='Q1 Plan'!A2*2",
            "C2": "=SUM('q1 plan'!A1:A2)",
            "C3": "=SUM(Sheet1:Sheet3!A1)",
            "C4": "=TaxRate*B2",
            "C5": "=LET(x,2,x*A2)",
        }),
        "read": True,
    },
    {
        "name": "reject_unknown_quoted_sheet",
        "sheets": PLAN,
        "ops": sets("Sheet1", {"C1": "='Q1 Plna'!A2"}, expect="rejected", exception="KeyError",
                    message=["Q1 Plna", '"Q1 Plan"']),
    },
    {
        "name": "reject_unknown_unquoted_sheet",
        "sheets": PLAN,
        "ops": sets("Sheet1", {"C1": "=SUM(Sales!B:B)"}, expect="rejected", exception="KeyError",
                    message=['"Sales"']),
    },
    {
        "name": "reject_unknown_3d_end",
        "sheets": PLAN,
        "ops": sets("Sheet1", {"C1": "=SUM(Sheet1:Sheet9!A1)"}, expect="rejected", exception="KeyError",
                    message=['"Sheet9"']),
    },
    {
        "name": "reject_unknown_defined_name",
        "sheets": PLAN,
        "names": {"TaxRate": "Sheet1!$A$2"},
        "ops": sets("Sheet1", {"C1": "=TaxRat*B2"}, expect="rejected", message=['"TaxRat"', '"TaxRate"']),
    },
]
