"""One valid call per function of the formula corpus (spec syntax: formula_corpus_gen.py).

Cells named here are those of formula_corpus_table.DATA.
"""

from __future__ import annotations

Spec = str | tuple[str, ...]

MATH: dict[str, Spec] = {
    "ABS": "-2.5", "ACOS": "0.5", "ACOSH": "2", "ACOT": "2", "ACOTH": "3", "ASIN": "0.5", "ASINH": "1.5",
    "ATAN": "1", "ATAN2": "1, 2", "ATANH": "0.5", "COS": "1", "COSH": "1", "COT": "1", "COTH": "2",
    "CSC": "1", "CSCH": "1", "SEC": "1", "SECH": "1", "SIN": "1", "SINH": "1", "TAN": "1", "TANH": "1",
    "DEGREES": "1.5", "RADIANS": "90", "PI": "", "SQRTPI": "2", "SQRT": "16", "EXP": "1.5", "LN": "10",
    "LOG": "100 | 10", "LOG10": "1000", "POWER": "2, 10", "MOD": "10, 3", "QUOTIENT": "10, 3",
    "SIGN": "-2", "INT": "-2.5", "TRUNC": "2.567 | 1", "ROUND": "2.567, 1", "ROUNDDOWN": "2.567, 1",
    "ROUNDUP": "2.567, 1", "MROUND": "10, 3", "EVEN": "1.5", "ODD": "1.5", "FACT": "5", "FACTDOUBLE": "7",
    "COMBIN": "8, 3", "COMBINA": "4, 3", "PERMUT": "8, 3", "PERMUTATIONA": "3, 2", "GCD": "12, 18 ...",
    "LCM": "4, 6 ...", "MULTINOMIAL": "2, 3 ...", "CEILING": "2.5, 1", "CEILING.MATH": "2.5 | 1, 0",
    "CEILING.PRECISE": "2.5 | 1", "ISO.CEILING": "2.5 | 1", "FLOOR": "2.5, 1", "FLOOR.MATH": "2.5 | 1, 0",
    "FLOOR.PRECISE": "2.5 | 1", "SUM": "A1:A6, 5 ...", "SUMSQ": "A1:A6 ...", "PRODUCT": "A1:A6, 2 ...",
    "SUMPRODUCT": "A1:A6, D1:D6 ...", "SUMX2MY2": "A1:A6, D1:D6", "SUMX2PY2": "A1:A6, D1:D6",
    "SUMXMY2": "A1:A6, D1:D6", "SUMIF": ('A1:A6, ">2" | D1:D6', '=SUMIF(B1:B6,"apple",D1:D6)',
                                          '=SUMIF(B1:B6,"a*",A1:A6)', "=SUMIF(A1:A6,A1)"),
    "SUMIFS": ('D1:D6, A1:A6, ">0" ...', '=SUMIFS(D1:D6,A1:A6,">0",B1:B6,"<>apple")'),
    "SERIESSUM": "2, 0, 1, D1:D4", "ROMAN": "1999 | 0", "ARABIC": '"MCMXCIX"', "BASE": "255, 16 | 4",
    "DECIMAL": '"FF", 16', "MDETERM": "G2:H3", "MINVERSE": "sum: G2:H3", "MMULT": "sum: G2:H3, G2:H3",
    "MUNIT": "sum: 3", "SUBTOTAL": ("9, A1:A6 ...", "=SUBTOTAL(1,A1:A6)", "=SUBTOTAL(104,A1:A6)"),
    "AGGREGATE": ("9, 6, A1:A6 ...", "=AGGREGATE(14,6,A1:A6,2)", "=AGGREGATE(4,6,E1:E3,A1:A6)"),
    "GAMMA": "4.5", "GAMMALN": "4.5", "GAMMALN.PRECISE": "4.5", "ERF": "0.5 | 1", "ERF.PRECISE": "0.5",
    "ERFC": "0.5", "ERFC.PRECISE": "0.5", "SEQUENCE": ("sum: 3 | 2, 1, 2", "=INDEX(SEQUENCE(3,2,10,-1),3,2)"),
}

STATS: dict[str, Spec] = {
    "AVEDEV": "A1:A6 ...", "AVERAGE": "A1:A6, 5 ...", "AVERAGEA": "C1:C6 ...", "AVERAGEIF": 'A1:A6, ">0" | D1:D6',
    "AVERAGEIFS": 'D1:D6, A1:A6, ">0" ...', "COUNT": "A1:A6, 5 ...", "COUNTA": "C1:C6 ...",
    "COUNTBLANK": "C1:C6", "COUNTIF": ('A1:A6, ">2"', '=COUNTIF(B1:B6,"a*")', '=COUNTIF(B1:B6,"?pple")',
                                       '=COUNTIF(C1:C6,"5")', '=COUNTIF(A1:A6,"<>0")'),
    "COUNTIFS": 'A1:A6, ">0", D1:D6, "<10" ...', "MAX": "A1:A6, 5 ...", "MAXA": "C1:C6 ...",
    "MAXIFS": 'D1:D6, A1:A6, ">0" ...', "MIN": "A1:A6, 5 ...", "MINA": "C1:C6 ...",
    "MINIFS": 'D1:D6, A1:A6, ">0" ...', "MEDIAN": "A1:A6 ...", "MODE": "D1:D6, 2, 2 ...",
    "MODE.SNGL": "A1:A6, 3 ...", "MODE.MULT": "sum: A1:A6, 3, -1.5 ...", "LARGE": "A1:A6, 2", "SMALL": "A1:A6, 2",
    "RANK": "3, A1:A6 | 1", "RANK.EQ": "3, A1:A6 | 1", "RANK.AVG": "2, D1:D6 | 1",
    "PERCENTILE": "A1:A6, 0.3", "PERCENTILE.INC": "A1:A6, 0.3", "PERCENTILE.EXC": "A1:A6, 0.3",
    "PERCENTRANK": "A1:A6, 2.25 | 3", "PERCENTRANK.INC": "A1:A6, 2.25 | 3", "PERCENTRANK.EXC": "A1:A6, 2.25 | 3",
    "QUARTILE": "A1:A6, 1", "QUARTILE.INC": "A1:A6, 3", "QUARTILE.EXC": "A1:A6, 1",
    "STDEV": "A1:A6 ...", "STDEV.S": "A1:A6 ...", "STDEV.P": "A1:A6 ...", "STDEVA": "C1:C6 ...",
    "STDEVP": "A1:A6 ...", "STDEVPA": "C1:C6 ...", "VAR": "A1:A6 ...", "VAR.S": "A1:A6 ...",
    "VAR.P": "A1:A6 ...", "VARA": "C1:C6 ...", "VARP": "A1:A6 ...", "VARPA": "C1:C6 ...",
    "DEVSQ": "A1:A6 ...", "GEOMEAN": "D1:D6 ...", "HARMEAN": "D1:D6 ...", "KURT": "A1:A6 ...",
    "SKEW": "A1:A6 ...", "TRIMMEAN": "A1:A6, 0.4", "CORREL": "A1:A6, D1:D6", "PEARSON": "A1:A6, D1:D6",
    "RSQ": "A1:A6, D1:D6", "COVAR": "A1:A6, D1:D6", "COVARIANCE.P": "A1:A6, D1:D6",
    "COVARIANCE.S": "A1:A6, D1:D6", "SLOPE": "A1:A6, D1:D6", "INTERCEPT": "A1:A6, D1:D6",
    "STEYX": "A1:A6, D1:D6", "FORECAST": "4, A1:A6, D1:D6", "FORECAST.LINEAR": "4, A1:A6, D1:D6",
    "FORECAST.ETS.SEASONALITY": ("A1:A6, {1;2;3;4;5;6} | 1, 1", "=FORECAST.ETS.SEASONALITY(D1:D6,{1;2;3;4;5;6})",
                                 "=FORECAST.ETS.SEASONALITY(A1:A6,{1;2;4;5;6;7})"),
    "FORECAST.ETS": "7, A1:A6, {1;2;3;4;5;6} | 1, 1, 1",
    "FORECAST.ETS.STAT": ("A1:A6, {1;2;3;4;5;6}, 7 | 1, 1, 1", "=FORECAST.ETS.STAT(D1:D6,{1;2;3;4;5;6},1,0)",
                          "=FORECAST.ETS.STAT(A1:A6,{1;2;3;4;5;6},2,2)", "=FORECAST.ETS.STAT(A1:A6,{1;2;3;4;5;6},8)"),
    "FORECAST.ETS.CONFINT": ("7, A1:A6, {1;2;3;4;5;6} | 0.95, 0, 1, 1",
                             "=FORECAST.ETS.CONFINT(9.5,A1:A6,{1;2;3;4;5;6},0.8,0)",
                             "=FORECAST.ETS.CONFINT(8,D1:D6,{1;2;3;4;5;6},0.5,0)",
                             "=FORECAST.ETS.CONFINT(3,A1:A6,{1;2;3;4;5;6},0.95,0)",
                             "=FORECAST.ETS.CONFINT(7,A1:A6,{1;2;3;4;5;6},1.5,0)"),
    "TREND": ("sum: A1:A6, D1:D6", "=INDEX(TREND(A1:A6,D1:D6,64),1)"),
    "GROWTH": ("sum: D1:D6, A1:A6", "=INDEX(GROWTH(D1:D6,A1:A6,12),1)"),
    "FREQUENCY": ("sum: A1:A6, D1:D3", "=INDEX(FREQUENCY(A1:A6,D1:D3),4)"),
    "PROB": "A1:A3, {0.2;0.3;0.5}, 0 | 3", "STANDARDIZE": "4, 2, 1.5", "FISHER": "0.5", "FISHERINV": "0.5",
    "PHI": "0.75", "GAUSS": "0.5", "CONFIDENCE": "0.05, 2.5, 50", "CONFIDENCE.NORM": "0.05, 2.5, 50",
    "CONFIDENCE.T": "0.05, 2.5, 50",
    "NORM.DIST": "1.5, 0, 1, TRUE", "NORMDIST": "1.5, 0, 1, FALSE", "NORM.INV": "0.9, 0, 1",
    "NORMINV": "0.9, 0, 1", "NORM.S.DIST": "1.5, TRUE", "NORMSDIST": "1.5", "NORM.S.INV": "0.9",
    "NORMSINV": "0.9", "LOGNORM.DIST": "4, 1, 0.5, TRUE", "LOGNORMDIST": "4, 1, 0.5",
    "LOGNORM.INV": "0.3, 1, 0.5", "LOGINV": "0.3, 1, 0.5", "EXPON.DIST": "0.5, 2, TRUE",
    "EXPONDIST": "0.5, 2, FALSE", "WEIBULL": "2, 3, 4, TRUE", "WEIBULL.DIST": "2, 3, 4, FALSE",
    "GAMMA.DIST": "3, 2, 1.5, TRUE", "GAMMADIST": "3, 2, 1.5, FALSE", "GAMMA.INV": "0.4, 2, 1.5",
    "GAMMAINV": "0.4, 2, 1.5", "BETA.DIST": "0.4, 2, 3, TRUE | 0, 1", "BETADIST": "0.4, 2, 3 | 0, 1",
    "BETA.INV": "0.4, 2, 3 | 0, 1", "BETAINV": "0.4, 2, 3 | 0, 1",
    "BINOM.DIST": "3, 10, 0.4, TRUE", "BINOMDIST": "3, 10, 0.4, FALSE", "BINOM.INV": "10, 0.4, 0.5",
    "CRITBINOM": "10, 0.4, 0.5", "NEGBINOM.DIST": "3, 5, 0.4, TRUE", "NEGBINOMDIST": "3, 5, 0.4",
    "HYPGEOM.DIST": "2, 5, 8, 20, TRUE", "HYPGEOMDIST": "2, 5, 8, 20", "POISSON": "3, 2.5, TRUE",
    "POISSON.DIST": "3, 2.5, FALSE", "CHIDIST": "3, 4", "CHIINV": "0.3, 4", "CHISQ.DIST": "3, 4, TRUE",
    "CHISQ.DIST.RT": "3, 4", "CHISQ.INV": "0.3, 4", "CHISQ.INV.RT": "0.3, 4",
    "CHISQ.TEST": "D1:D3, G1:I1", "CHITEST": "D1:D3, D4:D6", "F.DIST": "1.5, 4, 6, TRUE", "FDIST": "1.5, 4, 6",
    "F.DIST.RT": "1.5, 4, 6", "F.INV": "0.3, 4, 6", "FINV": "0.3, 4, 6", "F.INV.RT": "0.3, 4, 6",
    "F.TEST": "A1:A6, D1:D6", "FTEST": "A1:A6, D1:D6", "T.DIST": "1.5, 5, TRUE", "T.DIST.2T": "1.5, 5",
    "T.DIST.RT": "1.5, 5", "TDIST": "1.5, 5, 2", "T.INV": "0.3, 5", "T.INV.2T": "0.3, 5", "TINV": "0.3, 5",
    "T.TEST": "A1:A6, D1:D6, 2, 1", "TTEST": "A1:A6, D1:D6, 1, 3", "Z.TEST": "A1:A6, 2 | 1.5",
    "ZTEST": "A1:A6, 2 | 1.5",
}

TEXT: dict[str, Spec] = {
    "BAHTTEXT": "1234.5", "CHAR": "65", "CLEAN": '"a\tb"', "CODE": '"Apple"', "CONCAT": '"a", B1:B3, 5 ...',
    "CONCATENATE": '"a", "b", 5 ...', "DOLLAR": "1234.567 | 2", "EXACT": '"apple", "Apple"',
    "FIND": '"p", "apple" | 3', "FINDB": '"p", "apple" | 3', "FIXED": "1234.567, 1 | TRUE",
    "LEFT": '"apple" | 3', "LEFTB": '"apple" | 3', "LEN": '"apple"', "LENB": '"apple"', "LOWER": '"ApPle"',
    "MID": '"apple", 2, 3', "MIDB": '"apple", 2, 3', "PROPER": '"hello wORLD"', "REPLACE": '"apple", 2, 3, "XY"',
    "REPLACEB": '"apple", 2, 3, "XY"', "REPT": '"ab", 3', "RIGHT": '"apple" | 2', "RIGHTB": '"apple" | 2',
    "SEARCH": '"P", "apple" | 3', "SEARCHB": '"P", "apple" | 3',
    "SUBSTITUTE": '"banana", "a", "o" | 2', "T": '"text"', "TEXT": ('1234.567, "0.00"', '=TEXT(0.25,"0%")',
                                                                   '=TEXT(J1,"yyyy-mm-dd")', '=TEXT(-5,"0;(0)")'),
    "TEXTJOIN": '"-", TRUE, B1:B3, "x" ...', "TRIM": '"  a   b  "', "UNICHAR": "9731", "UNICODE": '"A"',
    "UPPER": '"apple"', "ASC": ('"ＡＢＣ　１２３"', '=ASC("ｶﾞ")', '=ASC(B1)'), "JIS": ('"ABC 123"', '=JIS(B1)'),
    "CELL": ('"row", C5', '=CELL("col",C5)', '=CELL("address",C5)', '=CELL("contents",A2)', '=CELL("type",B1)',
             '=CELL("type",F9)', '=CELL("nonsense",A1)'), "VALUE": '"12.5"', "NUMBERVALUE": '"1.234,5", ",", "."', "ENCODEURL": '"a b&c"',
    "N": "A4", "DATEVALUE": '"2024-03-15"', "TIMEVALUE": '"13:45:30"',
    "FILTERXML": ('"<r><b>x</b><c n=""k"">y</c></r>", "//b"', '=FILTERXML("<r><c n=""k"">y</c></r>","//c/@n")',
                  '=FILTERXML("<r><b>x</b><b>z</b></r>","count(//b)")', '=FILTERXML("<r>","//r")'),
}

LOGIC_INFO: dict[str, Spec] = {
    "AND": "TRUE, 1 ...", "OR": "FALSE, 0 ...", "XOR": "TRUE, FALSE ...", "NOT": "FALSE",
    "TRUE": "", "FALSE": "", "IF": '1, "yes" | "no"', "IFERROR": 'E1, "fallback"', "IFNA": 'E1, "fallback"',
    "IFS": '1>2, "a", TRUE, "b" ...', "SWITCH": '2, 1, "one", 2, "two" | "other"',
    "CHOOSE": '2, "a", "b", "c" ...', "LET": ("only:", "=LET(x,2,x*3)", "=LET(x,A1:A6,SUM(x))", '=LET(a,"b",a&a)'),
    "ERROR.TYPE": "E2", "ISBLANK": "H10", "ISERR": "E1", "ISERROR": "E2", "ISEVEN": "4", "ISODD": "3",
    "ISFORMULA": "A1", "ISLOGICAL": "F1", "ISNA": "E1", "ISNONTEXT": "A1", "ISNUMBER": "A1", "ISREF": "A1",
    "ISTEXT": "B1", "NA": "", "TYPE": "A1", "SHEET": "", "SHEETS": "", "DELTA": "2, 2", "GESTEP": "3, 2",
}

LOOKUP: dict[str, Spec] = {
    "ADDRESS": "2, 3 | 1, TRUE, \"Sheet2\"", "AREAS": "A1:B3", "COLUMN": "C5", "COLUMNS": "A1:C6",
    "ROW": "C5", "ROWS": "A1:C6", "HLOOKUP": "7, G1:I3, 2 | FALSE", "VLOOKUP": "7, A1:B6, 2 | FALSE",
    "LOOKUP": ("4, D1:D6 | A1:A6", '=LOOKUP("b",B1:B3)'), "MATCH": "4, D1:D6 | 1",
    "INDEX": ("A1:B6, 3 | 2", "=INDEX(G1:I1,2)", "=SUM(INDEX(A1:B6,0,1))"),
    "INDIRECT": ('"A4" | TRUE', '=INDIRECT("R4C1",FALSE)', '=SUM(INDIRECT("A1:A3"))'),
    "OFFSET": ("A1, 2, 0 | 1, 1", "=SUM(OFFSET(A1,1,0,3,1))"), "TRANSPOSE": "sum: A1:B3",
    "XLOOKUP": ('7, A1:A6, B1:B6 | "none", 0, 1', '=XLOOKUP(5,D1:D6,A1:A6,,-1)', '=XLOOKUP("b*",B1:B6,A1:A6,,2)'),
    "XMATCH": "8, D1:D6 | 0, 1", "SORTBY": "sum: A1:A6, D1:D6 | -1", "UNIQUE": ("sum: A1:A6", "=ROWS(UNIQUE(B1:B6))"),
    "HYPERLINK": '"https://example.com" | "site"',
    # Calc computes these, excelize not yet: they score 0% until it does.
    "FILTER": ("sum: A1:A6, A1:A6>2", '=ROWS(FILTER(B1:B6,A1:A6>2))', '=SUM(FILTER(A1:A6,A1:A6>100,0))'),
    "SORT": ("sum: A1:A6 | 1, -1", "=INDEX(SORT(A1:A6),1)", "=INDEX(SORT(A1:A6,1,-1),2)"),
    "LINEST": ("sum: D1:D6, A1:A6", "=INDEX(LINEST(D1:D6,A1:A6),1)"),
    "LOGEST": ("sum: D1:D6, A1:A6", "=INDEX(LOGEST(D1:D6,A1:A6),1)"),
}

DATE_TIME: dict[str, Spec] = {
    "DATE": "2024, 3, 15", "DATEDIF": '45292, 45658, "m"', "DAY": "45350.75", "MONTH": "45350.75",
    "YEAR": "45350.75", "HOUR": "0.625", "MINUTE": "0.6256", "SECOND": "0.62563", "TIME": "13, 45, 30",
    "DAYS": "45658, 45292", "DAYS360": "45292, 45658 | TRUE", "EDATE": "45350, 3", "EOMONTH": "45350, 1",
    "WEEKDAY": "45350 | 2", "WEEKNUM": "45350 | 2", "ISOWEEKNUM": "45350",
    "NETWORKDAYS": "45292, 45350 | G5:G9", "NETWORKDAYS.INTL": '45292, 45350 | 11, G5:G9',
    "WORKDAY": "45292, 20 | G5:G9", "WORKDAY.INTL": '45292, 20 | "0000011", G5:G9',
    "YEARFRAC": "45292, 45658 | 1",
}

ENGINEERING: dict[str, Spec] = {
    "BESSELI": "1.5, 1", "BESSELJ": "1.5, 1", "BESSELK": "1.5, 1", "BESSELY": "1.5, 1",
    "BIN2DEC": '"1101"', "BIN2HEX": '"1101" | 4', "BIN2OCT": '"1101" | 4', "DEC2BIN": "13 | 8",
    "DEC2HEX": "255 | 4", "DEC2OCT": "64 | 4", "HEX2BIN": '"1F" | 8', "HEX2DEC": '"FF"',
    "HEX2OCT": '"1F" | 4', "OCT2BIN": '"17" | 8', "OCT2DEC": '"17"', "OCT2HEX": '"17" | 4',
    "BITAND": "12, 10", "BITOR": "12, 10", "BITXOR": "12, 10", "BITLSHIFT": "5, 2", "BITRSHIFT": "20, 2",
    "COMPLEX": '3, 4 | "j"', "CONVERT": '1, "mi", "km"', "EUROCONVERT": '1, "DEM", "EUR"',
    "IMABS": '"3+4i"', "IMAGINARY": '"3+4i"', "IMARGUMENT": '"3+4i"', "IMCONJUGATE": '"3+4i"',
    "IMCOS": '"1+i"', "IMCOSH": '"1+i"', "IMCOT": '"1+i"', "IMCSC": '"1+i"', "IMCSCH": '"1+i"',
    "IMDIV": '"3+4i", "1-i"', "IMEXP": '"1+i"', "IMLN": '"3+4i"', "IMLOG10": '"3+4i"', "IMLOG2": '"3+4i"',
    "IMPOWER": '"1+i", 3', "IMPRODUCT": '"3+4i", "1-i" ...', "IMREAL": '"3+4i"', "IMSEC": '"1+i"',
    "IMSECH": '"1+i"', "IMSIN": '"1+i"', "IMSINH": '"1+i"', "IMSQRT": '"3+4i"', "IMSUB": '"3+4i", "1-i"',
    "IMSUM": '"3+4i", "1-i" ...', "IMTAN": '"1+i"',
}

FINANCE: dict[str, Spec] = {
    "ACCRINT": "45292, 45474, 45383, 0.05, 1000, 2 | 0", "ACCRINTM": "45292, 45658, 0.05 | 1000, 0",
    "AMORDEGRC": "2400, 45292, 45657, 300, 1, 0.15 | 1", "AMORLINC": "2400, 45292, 45657, 300, 1, 0.15 | 1",
    "COUPDAYBS": "45366, 46827, 2 | 1", "COUPDAYS": "45366, 46827, 2 | 1", "COUPDAYSNC": "45366, 46827, 2 | 1",
    "COUPNCD": "45366, 46827, 2 | 1", "COUPNUM": "45366, 46827, 2 | 1", "COUPPCD": "45366, 46827, 2 | 1",
    "CUMIPMT": "0.01, 36, 10000, 1, 12, 0", "CUMPRINC": "0.01, 36, 10000, 1, 12, 0",
    "DB": "10000, 1000, 5, 2 | 7", "DDB": "10000, 1000, 5, 2 | 1.5", "DISC": "45366, 45550, 97.5, 100 | 1",
    "DOLLARDE": "1.02, 16", "DOLLARFR": "1.125, 16", "DURATION": "45366, 46827, 0.05, 0.06, 2 | 1",
    "MDURATION": "45366, 46827, 0.05, 0.06, 2 | 1", "FV": "0.01, 12, -100 | -1000, 1",
    "FVSCHEDULE": "1000, {0.05,0.04,0.03}", "INTRATE": "45366, 45550, 1000, 1020 | 1",
    "IPMT": "0.01, 2, 12, 1000 | 0, 1", "IRR": "F4:F9 | 0.1", "ISPMT": "0.01, 2, 12, 1000",
    "MIRR": "F4:F9, 0.1, 0.12", "NOMINAL": "0.05, 12", "NPER": "0.01, -100, 1000 | 0, 1",
    "NPV": "0.1, F5:F9 ...", "ODDFPRICE": "45366, 46827, 45200, 45550, 0.05, 0.06, 100, 2 | 1",
    "ODDFYIELD": "45366, 46827, 45200, 45550, 0.05, 98, 100, 2 | 1",
    "ODDLPRICE": "45366, 45600, 45200, 0.05, 0.06, 100, 2 | 1",
    "ODDLYIELD": "45366, 45600, 45200, 0.05, 98, 100, 2 | 1", "PDURATION": "0.05, 1000, 2000",
    "PMT": "0.01, 12, 1000 | 0, 1", "PPMT": "0.01, 2, 12, 1000 | 0, 1",
    "PRICE": "45366, 46827, 0.05, 0.06, 100, 2 | 1", "PRICEDISC": "45366, 45550, 0.05, 100 | 1",
    "PRICEMAT": "45366, 46827, 45292, 0.05, 0.06 | 1", "PV": "0.01, 12, -100 | 0, 1",
    "RATE": "12, -100, 1000 | 0, 0, 0.1", "RECEIVED": "45366, 45550, 1000, 0.05 | 1", "SLN": "10000, 1000, 5",
    "SYD": "10000, 1000, 5, 2", "TBILLEQ": "45366, 45550, 0.05", "TBILLPRICE": "45366, 45550, 0.05",
    "TBILLYIELD": "45366, 45550, 98", "VDB": "10000, 1000, 5, 1, 2 | 2, FALSE", "XIRR": "F5:F9, G5:G9 | 0.1",
    "XNPV": "0.1, F5:F9, G5:G9", "YIELD": "45366, 46827, 0.05, 98, 100, 2 | 1",
    "YIELDDISC": "45366, 45550, 98, 100 | 1", "YIELDMAT": "45366, 46827, 45292, 0.05, 98 | 1",
}

DATABASE: dict[str, Spec] = {
    name: f'A8:C11, "{field}", E8:E9'
    for name, field in [("DAVERAGE", "Qty"), ("DCOUNT", "Qty"), ("DCOUNTA", "Item"), ("DGET", "Price"),
                        ("DMAX", "Qty"), ("DMIN", "Price"), ("DPRODUCT", "Qty"), ("DSTDEV", "Qty"),
                        ("DSTDEVP", "Qty"), ("DSUM", "Price"), ("DVAR", "Qty"), ("DVARP", "Qty")]
}

FUNCTIONS: dict[str, Spec] = {**MATH, **STATS, **TEXT, **LOGIC_INFO, **LOOKUP, **DATE_TIME, **ENGINEERING,
                              **FINANCE, **DATABASE}
