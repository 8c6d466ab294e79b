"""The formula corpus table: the data block, one valid call per function, and what is left out.

The spec syntax is in formula_corpus_gen.py. Adding a function is adding one FUNCTIONS entry;
a function the engine cannot compute yet runs anyway and scores 0% (its cells come back without a
value), which the baseline records.
"""

from __future__ import annotations

from typing import Any

from formula_corpus_excluded_num import NUMERIC_DIFFERENCES
from formula_corpus_excluded_text import TEXT_DIFFERENCES
from formula_corpus_functions import FUNCTIONS as CALLS
from formula_corpus_functions import Spec

# DATA is the block every formula reads (Sheet1; the formulas go in column L).
DATA: dict[str, Any] = {
    # A1:A6 numbers of both signs; B1:B6 text (B4 a text number); C1:C6 mixed, C3 blank
    "A1": 3, "A2": -1.5, "A3": 0, "A4": 7, "A5": 2.25, "A6": 10,
    "B1": "apple", "B2": "Banana", "B3": "cherry", "B4": "7", "B5": "a b c", "B6": "apple",
    "C1": 4, "C2": "text", "C4": 2.5, "C5": "5", "C6": -3,
    # D1:D6 powers of two; E1:E3 error cells; F1, F2 booleans
    "D1": 1, "D2": 2, "D3": 4, "D4": 8, "D5": 16, "D6": 32,
    "E1": "#N/A", "E2": "#DIV/0!", "E3": "#VALUE!",
    "F1": True, "F2": False,
    # G1:I1 a row; G2:H3 a 2x2 matrix; J1:J3 a date, a date-time, a time
    "G1": 5, "H1": 7, "I1": 9, "G2": 2, "H2": 1, "G3": 1, "H3": 3,
    "J1": 45292, "J2": 45350.75, "J3": 0.625,
    # A8:C11 a database (header row), E8:E9 its criteria; H5:H10 stay blank
    "A8": "Item", "B8": "Qty", "C8": "Price",
    "A9": "pen", "B9": 3, "C9": 1.5,
    "A10": "ink", "B10": 5, "C10": 4,
    "A11": "pen", "B11": 2, "C11": 1.25,
    "E8": "Item", "E9": "pen",
    # F4:F9 cash flows; G5:G9 their dates
    "F4": -1000, "F5": 300, "F6": 400, "F7": 500, "F8": 200, "F9": 100,
    "G5": 45292, "G6": 45474, "G7": 45658, "G8": 45839, "G9": 46023,
    "I3": "2024-03-15", "I4": "13:45:30", "I5": "1+2i", "I6": "3-4i",
}

# VOLATILE functions have no stable value: only shapes whose result is stable are compared.
VOLATILE: dict[str, tuple[str, ...]] = {
    "NOW": ("=ISNUMBER(NOW())", "=NOW()>45000", "=NOW()-TODAY()<1", "=NOW(1)"),
    "TODAY": ("=ISNUMBER(TODAY())", "=TODAY()=INT(TODAY())", "=TODAY()>45000"),
    "RAND": ("=AND(RAND()>=0,RAND()<1)", "=ISNUMBER(RAND())", "=RAND(1)"),
    "RANDBETWEEN": ("=RANDBETWEEN(3,3)", "=RANDBETWEEN(-2,-2)", "=RANDBETWEEN(1,6)<=6", "=RANDBETWEEN(5,1)",
                    '=RANDBETWEEN("a",2)', "=RANDBETWEEN(E1,2)", "=RANDBETWEEN(1)"),
    "RANDARRAY": ("=ROWS(RANDARRAY(3,2))", "=COLUMNS(RANDARRAY(3,2))", "=SUM(RANDARRAY(2,2,5,5))",
                  "=MIN(RANDARRAY(4,4,1,6,TRUE))>=1", "=ISNUMBER(RANDARRAY())", "=RANDARRAY(0)"),
}

# FUNCTIONS is every function's spec: the calls, and the volatile functions' stable shapes.
FUNCTIONS: dict[str, Spec] = {**CALLS, **{name: ("only:", *shapes) for name, shapes in VOLATILE.items()}}

# EXCLUDED_FUNCTIONS are computed by excelize and named by Calc but not compared, with the reason.
EXCLUDED_FUNCTIONS: dict[str, str] = {
    "GETPIVOTDATA": "the data block holds no pivot table (every call would be #REF!); tests/oracle/cases_pivot.py "
                    "compares it on pivot tables create_pivot_table made",
    "ODDFPRICE": "Calc answers #VALUE! to valid calls (issue < settlement < first coupon < maturity)",
    "ODDFYIELD": "Calc answers #VALUE! to valid calls (issue < settlement < first coupon < maturity)",
    **{name: "Calc counts 181 days from 2024-03-15 to 2024-09-15 where Microsoft's documented formula takes "
             "the actual 184 (TBILLPRICE(45366,45550,0.05): 97.444 by the formula and ours, 97.486 in Calc)"
       for name in ("TBILLEQ", "TBILLPRICE", "TBILLYIELD")},
}

# EXCLUDED_CASES are known Excel/Calc differences: a formula, "FUNCTION:shape" or "*:shape" (that
# shape of any argument of any function, argN left out), and the reason.
EXCLUDED_CASES: dict[str, str] = {
    **NUMERIC_DIFFERENCES,
    **TEXT_DIFFERENCES,
    "FILTERXML:arg2 text cell": "an XPath selecting no node: Excel's FILTERXML is #VALUE!, Calc's #N/A",
    "ISFORMULA:arg1 error": "Calc reads an error cell of a file as a formula (=#VALUE!): ISFORMULA is TRUE, Excel FALSE",
    "ISFORMULA:arg1 boolean cell": "Calc reads a boolean cell of a file as a formula (=TRUE()): ISFORMULA is TRUE",
    "ISNUMBER:arg1 boolean cell": "Calc's booleans are numbers: ISNUMBER(TRUE cell) is TRUE in Calc, FALSE in Excel",
    "TYPE:arg1 boolean cell": "Calc's booleans are numbers (a formula cell: TYPE 8); Excel's TYPE(TRUE) is 4",
    "MATCH:arg1 boolean": "Calc's TRUE is the number 1; Excel's TRUE sorts after every number (MATCH(TRUE,nums,1) "
                          "is the last position)",
    "FIND:arg1 empty text": "Excel: an empty find_text matches at start_num; Calc: #VALUE!",
    "FINDB:arg1 empty text": "Excel: an empty find_text matches at start_num; Calc: #VALUE!",
    "SEARCH:arg1 empty text": "Excel: an empty find_text matches at start_num; Calc: #VALUE!",
    "SEARCHB:arg1 empty text": "Excel: an empty find_text matches at start_num; Calc: #VALUE!",
    "FIND:arg1 blank": "a blank find_text is empty text: Excel matches at start_num; Calc: #VALUE!",
    "SEARCH:arg1 blank": "a blank find_text is empty text: Excel matches at start_num; Calc: #VALUE!",
    "SEARCHB:arg1 blank": "a blank find_text is empty text: Excel matches at start_num; Calc: #VALUE!",
    "DATE:arg1 zero": "Excel adds a year from 0 to 1899 to 1900 (DATE(0,3,15) is 1900-03-15, documented); "
                      "Calc reads year 0 as 2000",
    "GAUSS:arg1 large": "Calc's GAUSS(1E+12) overflows to -2.1E+263; Excel's is 0.5",
    "COTH:arg1 large": "Excel's COTH refuses |number| >= 2^27 (#NUM!, documented); Calc computes 1",
    "SUM:arg2 text number": "Excel counts a text number typed as an argument (SUM(A1:A6,\"4\") adds 4); Calc: #VALUE!",
    "SMALL:arg2 text number": "Excel converts a text k (SMALL(r,\"4\")); Calc: Err:504",
    "=PERCENTRANK.EXC(A1:A6,2.25,3)": "Excel truncates PERCENTRANK to its significance digits (Microsoft's "
                                      "example: PERCENTRANK.EXC(...,5.43,1) is 0.3), Calc rounds: 0.428 vs 0.429",
    "=PERCENTRANK.EXC(A1:A6,2.25)": "Excel truncates PERCENTRANK's result, Calc rounds it (0.428 vs 0.429)",
    "=PERCENTRANK.EXC(A1:A6,H10,3)": "Excel truncates PERCENTRANK's result, Calc rounds it (0.285 vs 0.286)",
    "VLOOKUP:required only": "an approximate match in unsorted data (A1:A6): the answer depends on each "
                             "program's binary search",
    "*:boolean for text": "Calc's TRUE is the number 1, so a text function given TRUE sees \"1\" "
                          "(LEFT(TRUE,3) is \"1\"); Excel's sees \"TRUE\"",
}
