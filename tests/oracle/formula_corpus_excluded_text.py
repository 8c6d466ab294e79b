"""Known Excel/Calc differences of the text, lookup, logical, date and information functions.

Each key is a formula, "FUNCTION:shape" or "*:shape" (as EXCLUDED_CASES in formula_corpus_table.py,
which merges this table); each reason names the Excel behaviour the engine keeps and, where there is
one, the Microsoft page that documents it.
"""

from __future__ import annotations


def _each(names: tuple[str, ...], shapes: tuple[str, ...], reason: str) -> dict[str, str]:
    """The same reason for every shape of every function named."""
    return {f"{name}:{shape}": reason for name in names for shape in shapes}


TEXT_DIFFERENCES: dict[str, str] = {
    **_each(("LEFTB", "RIGHTB"), ("arg2 large",),
            "a count past the text's length is the whole text (Microsoft's LEFT, LEFTB and RIGHT, RIGHTB pages); "
            "Calc refuses a count past its own string limit (Err:502)"),
    "REPLACE:arg3 large": "num_chars past the text's end replaces the rest (Microsoft's REPLACE page: "
                          "REPLACE(\"apple\",2,1E+12,\"XY\") is \"aXY\"); Calc refuses it past its string limit (Err:502)",
    **_each(("REPLACEB",), ("arg1 empty text", "arg1 number", "arg1 blank"),
            "REPLACEB counts as REPLACE unless a double-byte language is the default (Microsoft's REPLACE, "
            "REPLACEB page), and REPLACE(\"\",2,3,\"XY\") is \"XY\" in Excel and Calc alike; Calc's REPLACEB "
            "refuses a start past the text's end (Err:502)"),
    "ASC:base": "ASC changes full-width characters to half-width (Microsoft's ASC page), the ideographic space "
                "U+3000 among them; Calc leaves that space full-width",
    "JIS:base": "JIS changes half-width characters to full-width (Microsoft's JIS page), the space among them "
                "(U+3000); Calc leaves the space half-width",
    "CHAR:arg1 zero": "number runs from 1 to 255 (Microsoft's CHAR page): CHAR(0) is #VALUE! in Excel; Calc "
                      "returns the character U+0000",
    "UNICHAR:arg1 blank": "a blank is 0, and UNICHAR(0) is #VALUE! (Microsoft's UNICHAR page); Calc returns U+0000",
    "NUMBERVALUE:arg1 empty text": "an empty text is 0 (Microsoft's NUMBERVALUE page: \"If an empty string "
                                   "(\\\"\\\") is specified as the Text argument, the result is 0\"); Calc: #VALUE!",
    **_each(("AND", "OR", "XOR"), ("arg1 text bool",),
            "Excel converts a text typed as an argument that reads as a logical value (\"TRUE\") to that value, "
            "as it converts any typed argument; only text in a range or array is ignored (Microsoft's AND, OR "
            "and XOR pages); Calc refuses the text (#VALUE!)"),
    "ISEVEN:arg1 text number": "Excel converts a text number typed as an argument (ISEVEN(\"4\") is TRUE; "
                               "Microsoft's ISEVEN page refuses only a nonnumeric value); Calc: Err:504",
    "MATCH:arg3 text number": "Excel converts a text match_type typed as an argument (\"4\" is 4, an "
                              "approximate match); Calc: Err:504",
    **_each(("ROWS", "COLUMNS"), ("wrong count",),
            "array is required (Microsoft's ROWS and COLUMNS pages): Excel refuses ROWS() at input, so no value "
            "is right; Calc computes 0"),
    **_each(("INDEX",), ("required only", "arg2 fraction"),
            "a lone index into a 2-D array, or row_num 0 (0.25 truncated), returns a whole row or column "
            "(Microsoft's INDEX page), which Excel 365 spills from the cell (its first value shown); Calc "
            "intersects it with the formula's row (#VALUE!)"),
    **_each(("MINUTE", "SECOND"), ("arg1 negative",),
            "Excel's time functions refuse a negative serial number (#NUM!, as HOUR, MINUTE and SECOND of a "
            "date before 1900 do); Calc takes the time of day of -2.5 (0)"),
    "TIME:arg1 large": "hour, minute and second run from 0 to 32767 (Microsoft's TIME page): TIME(1E+12,45,30) "
                       "is #NUM!; Calc takes the hour modulo 24",
    "CELL:wrong count": "an omitted reference is the cell selected when Excel calculates (Microsoft's CELL "
                        "page), a fact of the host: left uncomputed; Calc takes the formula's own cell",
    "TEXT:arg2 text cell": "the format \"Banana\" (B2): Excel shows a letter that is no format code only quoted "
                           "or after a backslash (Microsoft's \"Review guidelines for customizing a number format\" "
                           "page lists the characters shown without quotes: $ + ( : ^ ' { < = - / ) ! & ~ } > and "
                           "the space), so Calc's \"Banana\", its unknown letters kept as literals, is not Excel's "
                           "answer; Calc also reads codes of its own there (TEXT(1234.567,\"nn\") is \"Mon\")",
    "MAXIFS:arg3 error": "an error value as criteria matches the cells holding that error (as "
                         "COUNTIF(range,NA()) counts the #N/A cells): none of A1:A6, so 0; Calc passes the "
                         "criteria's error on",
}
