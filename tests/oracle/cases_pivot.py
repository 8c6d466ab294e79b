"""GETPIVOTDATA on a pivot table create_pivot_table made: Calc reads the table from the file and
computes GETPIVOTDATA on it; read_excel must give Calc's value of every formula ("read")."""

from __future__ import annotations

from typing import Any

# SALES is the source range A1:D9: region, product, quarter, amount.
SALES: dict[str, Any] = {
    "A1": "Region", "B1": "Product", "C1": "Quarter", "D1": "Amount",
    "A2": "East", "B2": "Pen", "C2": "Q1", "D2": 10,
    "A3": "East", "B3": "Ink", "C3": "Q1", "D3": 4,
    "A4": "West", "B4": "Pen", "C4": "Q1", "D4": 7,
    "A5": "West", "B5": "Pen", "C5": "Q2", "D5": 3,
    "A6": "East", "B6": "Pen", "C6": "Q2", "D6": 5,
    "A7": "North", "B7": "Ink", "C7": "Q2", "D7": 8,
    "A8": "West", "B8": "Ink", "C8": "Q1", "D8": 2.5,
    "A9": "East", "B9": "Pen", "C9": "Q1", "D9": 1,
}

CASES: list[dict[str, Any]] = [
    {
        "name": "getpivotdata_rows_and_columns",
        "sheets": {"Data": SALES},
        "pivots": [{"sheet_name": "Data", "source_range": "A1:D9", "target_sheet": "Pivot", "create": True,
                    "target_cell": "A3", "rows": ["Region", "Product"], "columns": ["Quarter"],
                    "values": [{"field": "Amount", "function": "sum"}]}],
        "ops": [{"op": "set", "sheet": "Data", "cell": "H1", "values": [
            ['=GETPIVOTDATA("Amount",Pivot!A3)'],
            ['=GETPIVOTDATA("Sum of Amount",Pivot!A3,"Region","East")'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Region","West","Product","Pen")'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Quarter","Q2")'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Region","East","Quarter","Q1")'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Region","east","Product","pen","Quarter","Q1")'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Region","South")'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Product","Pen")'],
            ['=GETPIVOTDATA("Price",Pivot!A3)'],
            ['=GETPIVOTDATA("Amount",Data!A1)'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Color","Red")'],
            ['=GETPIVOTDATA("Amount",Pivot!C6,"Region","North","Quarter","Q1")'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Region","North","Product","Pen")'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Region",A7)'],
            ['=GETPIVOTDATA("Amount",Pivot!A3,"Region",1/0)'],
        ]}],
        "read": True,
    },
    {
        "name": "getpivotdata_number_items",
        "sheets": {"Data": {"A1": "Year", "B1": "Units", "A2": 2023, "B2": 5, "A3": 2024, "B3": 7,
                            "A4": 2024, "B4": 1.5, "A5": 2023, "B5": 2}},
        "pivots": [{"sheet_name": "Data", "source_range": "A1:B5", "target_cell": "E1", "rows": ["Year"],
                    "values": [{"field": "Units", "function": "sum"}]}],
        "ops": [{"op": "set", "sheet": "Data", "cell": "H1", "values": [
            ['=GETPIVOTDATA("Units",E1,"Year",2024)'],
            ['=GETPIVOTDATA("Units",$E$1,"Year","2023")'],
            ['=GETPIVOTDATA("Units",E1,"Year",2025)'],
            ['=GETPIVOTDATA("Units",E1)'],
        ]}],
        "read": True,
    },
    {
        "name": "getpivotdata_count_and_average",
        "sheets": {"Data": SALES},
        "pivots": [{"sheet_name": "Data", "source_range": "A1:D9", "target_sheet": "Pivot", "create": True,
                    "target_cell": "B2", "rows": ["Product"],
                    "values": [{"field": "Amount", "function": "count"},
                               {"field": "Region", "function": "count"},
                               {"field": "Amount", "function": "average"}]}],
        "ops": [{"op": "set", "sheet": "Data", "cell": "H1", "values": [
            ['=GETPIVOTDATA("Count of Amount",Pivot!B2)'],
            ['=GETPIVOTDATA("Count of Region",Pivot!C4,"Product","Ink")'],
            ['=GETPIVOTDATA("Average of Amount",Pivot!B2,"Product","Pen")'],
            ['=GETPIVOTDATA("Average of Amount",Pivot!B2)'],
        ]}],
        "read": True,
    },
]
