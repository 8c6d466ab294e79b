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
    **_each(("F.TEST", "FTEST"), ("arg2 errors",),
            "E1:E3 holds no number, so fewer than 2 data points: #DIV/0! in Excel (Microsoft's F.TEST page: "
            "the arguments must contain numbers; fewer than 2 data points is #DIV/0!), as Calc answers with the "
            "errors as array1; Calc runs array2's error values through its arithmetic and answers #VALUE!"),
    **_each(("NORM.INV", "NORMINV", "NORM.S.INV", "NORMSINV"), ("arg1 zero", "arg1 boolean"),
            "a probability of 0 or 1: #NUM! in Excel (Microsoft's NORM.INV and NORM.S.INV pages), #VALUE! in Calc"),
    **_each(("LOGNORM.DIST", "LOGNORMDIST"), ("arg1 negative", "arg1 zero"),
            "x <= 0: #NUM! in Excel (Microsoft's LOGNORM.DIST and LOGNORMDIST pages), 0 in Calc"),
    **_each(("CSC", "CSCH"), ("arg1 zero",),
            "CSC(0) and CSCH(0) are #DIV/0! in Excel (1/SIN(0)), #NUM! in Calc"),
    **_each(("ROUND", "ROUNDDOWN", "ROUNDUP"), ("wrong count",),
            "num_digits left out: Excel requires it (Microsoft's ROUND, ROUNDDOWN and ROUNDUP pages) and refuses "
            "the formula; Calc takes 0"),
    "FLOOR:wrong count": "significance left out: Excel requires it (Microsoft's FLOOR page); Calc takes 1",
    **_each(("NORMDIST", "GAMMADIST", "POISSON", "F.DIST"), ("wrong count",),
            "cumulative left out: Excel requires it (Microsoft's NORMDIST, GAMMADIST, POISSON and F.DIST pages); "
            "Calc takes TRUE"),
    **_each(("LOGNORMDIST", "LOGNORM.INV", "LOGINV"), ("wrong count",),
            "standard_dev left out: Excel requires it (Microsoft's LOGNORMDIST, LOGNORM.INV and LOGINV pages); "
            "Calc takes 1"),
    "PRODUCT:arg2 text number": "Excel counts a text number typed as an argument (Microsoft's PRODUCT page: only "
                                "text that cannot be translated into a number is an error); Calc: #VALUE!",
    "MEDIAN:arg1 blank range": "no numbers: #NUM! in Excel, #VALUE! in Calc",
    **_each(("PERCENTRANK", "PERCENTRANK.INC", "PERCENTRANK.EXC"), ("arg1 single cell",),
            "x (2.25) outside the array's values (7): #N/A in Excel (Microsoft's PERCENTRANK pages interpolate "
            "only between the array's values), #VALUE! in Calc"),
    "FREQUENCY:arg1 blank range": "data_array with no values: an array of zeros in Excel (Microsoft's FREQUENCY "
                                  "page), #VALUE! in Calc",
    **_each(("BETADIST",), ("arg1 large", "arg1 text number"),
            "x above B: #NUM! in Excel (Microsoft's BETADIST page: x < A or x > B), 1 in Calc"),
    **_each(("BETA.INV", "BETAINV"), ("arg1 blank",),
            "probability 0: #NUM! in Excel (Microsoft's BETA.INV and BETAINV pages: probability <= 0), the lower "
            "bound in Calc"),
    "NEGBINOMDIST:arg1 negative": "number_f -2.5 truncates to -2: #NUM! in Excel (Microsoft's NEGBINOMDIST page: "
                                  "number_f < 0), 0.01024 in Calc",
    "HYPGEOM.DIST:arg3 fraction": "population_s 0.25 truncates to 0, below sample_s 2: #NUM! in Excel (Microsoft's "
                                  "HYPGEOM.DIST page), 1 in Calc",
    "CHIDIST:arg2 large": "deg_freedom above 10^10: #NUM! in Excel (Microsoft's CHIDIST page), 1 in Calc",
    "F.INV:arg1 boolean": "probability 1: the inverse is infinite, #NUM! in Excel (no infinite number); Calc "
                          "answers its search's bound, 2.3E+108",
    "ZTEST:arg1 single cell": "sigma given: Microsoft's Z.TEST formula 1-NORM.S.DIST((7-2)/(1.5/SQRT(1)),TRUE) "
                              "is 0.000429; Calc: #DIV/0!",
    "ZTEST:arg1 blank range": "an empty array: #N/A in Excel (Microsoft's Z.TEST page), #DIV/0! in Calc",
    **_each(("IMCSCH", "IMSECH"), ("arg1 number",),
            "Excel writes a complex number's exponent with E (IMSQRT(-1) is 6.1257422745431E-17+i in Excel), "
            "Calc with e"),
    "FVSCHEDULE:arg2 mixed range": "text in schedule: #VALUE! in Excel (Microsoft's FVSCHEDULE page: numbers or "
                                   "blank cells, any other value #VALUE!); Calc reads it as 0",
    "IPMT:arg1 large": "rate 1E+12: the exact interest is -1000*r/(1+r) = -999.999999999 (the engine's closed "
                       "form); Calc subtracts nearly equal numbers: -965.3",
    "PPMT:arg1 cell": "rate 7: the exact principal (rational arithmetic) is -1.0186340660005E-07, the engine's "
                      "closed form; Calc subtracts nearly equal numbers: -1.01849E-07",
    "ODDLPRICE:base": "Microsoft's ODDLPRICE formula over the quasi-coupon periods from 2023-10-01 (NL 183, 183, "
                      "182 days; DC 183, 183, 34; A 166, 0, 0; DSC 17, 183, 34) gives 99.2999586, the engine's; "
                      "Calc: 99.3077",
    "ODDLYIELD:base": "Microsoft's ODDLYIELD formula over the same quasi-coupon periods as ODDLPRICE's gives "
                      "0.0810401, the engine's; Calc: 0.0811816",
    "FORECAST.ETS:arg1 text number": "Calc does not convert a text target date (\"4\": #NUM!); Excel converts a "
                                     "text number typed as a number argument (4: a point of the data, 7)",
    "FORECAST.ETS.CONFINT:required only": "seasonality 1 (detect): Calc draws 1,000 random paths anew at each "
                                          "recalculation, so its value is no reference; "
                                          "tests/python/test_forecast_confint_oracle.py compares such calls "
                                          "within the spread of 200 Calc values",
    "FORECAST.ETS.CONFINT:arg1 large": "a target 1E+12 steps ahead: Calc allocates one number per step (8 TB) "
                                       "and its whole recalculation fails (std::bad_alloc); the engine computes it",
}
