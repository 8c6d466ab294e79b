"""Known Excel/Calc differences of the math, statistical, financial and engineering functions.

Each key is a formula, "FUNCTION:shape" or "*:shape" (as EXCLUDED_CASES in formula_corpus_table.py,
which merges this table); each reason names the documented Excel behaviour the engine keeps.
"""

from __future__ import annotations


def _each(names: tuple[str, ...], shapes: tuple[str, ...], reason: str) -> dict[str, str]:
    """The same reason for every shape of every function named."""
    return {f"{name}:{shape}": reason for name in names for shape in shapes}


NUMERIC_DIFFERENCES: dict[str, str] = {
    **_each(("SUMX2MY2", "SUMX2PY2", "SUMXMY2"),
            ("arg1 row", "arg1 inline array", "arg1 2-D", "arg1 errors", "arg1 single cell", "arg1 blank range",
             "arg2 row", "arg2 inline array", "arg2 2-D", "arg2 errors", "arg2 single cell", "arg2 blank range"),
            "arrays of different sizes: #N/A in Excel (Microsoft's SUMX2MY2, SUMX2PY2 and SUMXMY2 pages), "
            "#VALUE! in Calc"),
    "SUMXMY2:arg1 mixed range": "Excel skips a pair holding text or a blank (Microsoft's SUMXMY2 page), as "
                                "Calc's own SUMX2MY2 does; Calc's SUMXMY2 answers #VALUE!",
    **_each(("MODE.SNGL",), ("arg1 other range", "arg1 mixed range", "arg1 row", "arg2 negative"),
            "no value repeats: #N/A in Excel (Microsoft's MODE.SNGL page), #VALUE! in Calc"),
    **_each(("MODE.MULT",), ("arg1 single cell", "arg1 blank range", "arg1 other range", "arg1 mixed range"),
            "no value repeats: #N/A in Excel (Microsoft's MODE.MULT page), #VALUE! in Calc"),
    **_each(("LARGE", "SMALL"), ("arg1 single cell", "arg1 blank range"),
            "k above the count of numbers: #NUM! in Excel (Microsoft's LARGE and SMALL pages), #VALUE! in Calc"),
    "SMALL:arg2 large": "k above the count of numbers: #NUM! in Excel (Microsoft's SMALL page), #VALUE! in Calc",
    **_each(("PERCENTILE", "PERCENTILE.INC", "QUARTILE.EXC"), ("arg1 blank range",),
            "no numbers: #NUM! in Excel (Microsoft's PERCENTILE and QUARTILE pages: an empty array), "
            "#VALUE! in Calc"),
    **_each(("PERCENTRANK", "PERCENTRANK.INC", "PERCENTRANK.EXC"), ("arg1 blank range",),
            "no numbers: #NUM! in Excel (Microsoft's PERCENTRANK pages: an empty array), #VALUE! in Calc"),
    "IMPOWER:arg2 boolean": "Excel writes a unit imaginary part as a bare i (COMPLEX(0,1) is \"i\" on Microsoft's "
                            "COMPLEX page; Calc's own COMPLEX(3,TRUE,\"j\") is \"3+j\"); Calc's IMPOWER writes \"1+1i\"",
    **_each(("F.TEST", "FTEST"), ("arg1 single cell", "arg1 blank range", "arg2 single cell", "arg2 blank range"),
            "fewer than 2 numbers: #DIV/0! in Excel (Microsoft's F.TEST page), #VALUE! in Calc"),
    **_each(("NORM.INV", "NORMINV", "NORM.S.INV", "NORMSINV"), ("arg1 zero", "arg1 boolean"),
            "a probability of 0 or 1: #NUM! in Excel (Microsoft's NORM.INV and NORM.S.INV pages), #VALUE! in Calc"),
    **_each(("LOGNORM.DIST", "LOGNORMDIST"), ("arg1 negative", "arg1 zero"),
            "x <= 0: #NUM! in Excel (Microsoft's LOGNORM.DIST and LOGNORMDIST pages), 0 in Calc"),
    **_each(("CSC", "CSCH"), ("arg1 zero",),
            "CSC(0) and CSCH(0) are #DIV/0! in Excel (1/SIN(0)), #NUM! in Calc"),
}
