"""Oracle cases: the Excel functions registry-sidecar adds to excelize's calculator.

XMATCH, RANK.AVG, NUMBERVALUE, OFFSET, AREAS and LET (third_party/excelize/calc_modern.go,
calc_let_modern.go), and arguments left empty (IF(TRUE,,1) is 0), one formula per case,
generated from argument shapes: numbers, text, text numbers, blanks, errors, ranges, rows and
columns, boundary values. Each formula is written with write_cells and read back (read_excel's
value must be Calc's). write_cells stores LET's names as Excel does (_xlfn.LET(_xlpm.x,...)),
so the LET cases show Calc computes that form from our file.

LibreOffice 25.2 has no LAMBDA, ISOMITTED, MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY,
ECMA.CEILING, PERCENTOF, REGEXTEST, REGEXEXTRACT nor REGEXREPLACE: those are checked against
Microsoft's documented examples in third_party/excelize/calc_modern_test.go and
calc_lambda_test.go. Where Calc and Excel differ, the shape is left out
here and pinned there to Excel's documented behaviour: Calc's NUMBERVALUE reads its default
separators from the process locale and refuses "", "3.5%" and ".5"; its XMATCH converts a
text lookup value to a number, takes TRUE for 1 and accepts a match_mode of 3; its binary
search scans unsorted data; its LET names are case-sensitive and a nested LET is #NAME?; and a multi-cell OFFSET as a whole
formula is #VALUE! in Calc, a spill in Excel 365.

One dict per case; the format is in README.md beside this file.
"""

from __future__ import annotations

from typing import Any

# DATA is the sheet every case starts from.
DATA: dict[str, Any] = {
    # A1:A6 ascending numbers, B1:B4 text, C1:C5 ascending with ties
    "A1": 1, "A2": 2, "A3": 3, "A4": 4, "A5": 5, "A6": 6,
    "B1": "apple", "B2": "banana", "B3": "*", "B4": "b1",
    "C1": 1, "C2": 2, "C3": 2, "C4": 2, "C5": 3,
    # E1:E4 descending with a tie; F1 blank; G1:G3 a row; H1:H3 mixed kinds
    "E1": 10, "E2": 8, "E3": 8, "E4": 2,
    "G1": 5, "H1": 7, "I1": 9,
    "H2": 1, "H3": "x", "H4": -2.5,
    # J1:J4 texts for NUMBERVALUE
    "J1": "2.500,27", "J2": "9%%", "J3": " 1 2 3 ", "J4": "1e3",
}


def case(name: str, formula: str) -> dict[str, Any]:
    """One formula written in K1 of a copy of DATA and read back."""
    return {
        "name": "fn_" + name,
        "sheets": {"Sheet1": dict(DATA)},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": "K1", "value": formula}],
        "read": True,
    }


def slug(text: str) -> str:
    """A case-name fragment for an argument."""
    table = {'"': "", "*": "star", "?": "q", "~": "tilde", ".": "p", ",": "c", "%": "pct",
             "-": "m", "/": "div", " ": "_", ":": "_", "(": "", ")": "", "'": "apos", "!": "_", "+": "plus"}
    return "".join(table.get(ch, ch) for ch in text) or "empty"


def xmatch_cases() -> list[dict[str, Any]]:
    out = []
    # Linear search, exact and approximate, forwards and backwards (unsorted-safe).
    for value in ["1", "3", "6", "7", "0", "3.5", "-1", "A3", "C5"]:
        for match in ["", "0", "-1", "1"]:
            for search in ["", "-1"]:
                if match == "" and search == "-1":
                    continue
                args = ",".join(a for a in [value, "A1:A6", match or ("0" if search else ""), search] if a)
                out.append(case(f"xmatch_lin_{slug(value)}_{slug(match)}_{slug(search)}", f"=XMATCH({args})"))
    # Ties: the first met from either end.
    for value, match in [("2", "0"), ("2.5", "-1"), ("1.5", "1")]:
        for search in ["1", "-1"]:
            out.append(case(f"xmatch_ties_{slug(value)}_{match}_{slug(search)}", f"=XMATCH({value},C1:C5,{match},{search})"))
    # Binary search on sorted data, ascending and descending (no ties where Calc and Excel may differ).
    for value in ["1", "3", "3.5", "0", "7", "6"]:
        for match in ["0", "-1", "1"]:
            out.append(case(f"xmatch_bin_asc_{slug(value)}_{slug(match)}", f"=XMATCH({value},A1:A6,{match},2)"))
    for value in ["10", "2", "9", "11", "1", "5"]:
        for match in ["0", "-1", "1"]:
            out.append(case(f"xmatch_bin_desc_{slug(value)}_{slug(match)}", f"=XMATCH({value},E1:E4,{match},-2)"))
    # Text: case-insensitive, wildcards only in match_mode 2, ~ escapes.
    for value in ['"banana"', '"BANANA"', '"b*"', '"*an*"', '"?pple"', '"~*"', '"c"', '"b?"', '""']:
        for match in ["0", "2"]:
            out.append(case(f"xmatch_text_{slug(value)}_{match}", f"=XMATCH({value},B1:B4,{match})"))
    out.append(case("xmatch_text_wild_reverse", '=XMATCH("b*",B1:B4,2,-1)'))
    out.append(case("xmatch_text_next_smaller", '=XMATCH("c",B1:B4,-1)'))
    out.append(case("xmatch_text_next_larger", '=XMATCH("az",B1:B4,1)'))
    # A row, a blank lookup value, mixed kinds, errors, bad shapes.
    out += [
        case("xmatch_row", "=XMATCH(7,G1:I1)"),
        case("xmatch_row_next_larger", "=XMATCH(8,G1:I1,1)"),
        case("xmatch_row_missing", "=XMATCH(6,G1:I1)"),
        case("xmatch_blank_value", "=XMATCH(F1,A1:A6)"),
        case("xmatch_mixed_number", "=XMATCH(-2.5,H1:H4)"),
        case("xmatch_mixed_text", '=XMATCH("X",H1:H4)'),
        case("xmatch_mixed_next_larger", "=XMATCH(0,H1:H4,1)"),
        case("xmatch_error_value", "=XMATCH(1/0,A1:A6)"),
        case("xmatch_two_dimensional", "=XMATCH(3,A1:B3)"),
        case("xmatch_search_mode_zero", "=XMATCH(3,A1:A6,0,0)"),
        case("xmatch_wildcard_binary", '=XMATCH("b*",B1:B4,2,2)'),
        case("xmatch_text_mode", '=XMATCH(3,A1:A6,"x")'),
        case("xmatch_in_index", "=INDEX(B1:B4,XMATCH(2,A1:A6))"),
        case("xmatch_of_cell", "=XMATCH(E3,E1:E4)"),
    ]
    return out


def rank_avg_cases() -> list[dict[str, Any]]:
    out = []
    for rng, values in [("C1:C5", ["1", "2", "3"]), ("E1:E4", ["10", "8", "2"]), ("A1:A6", ["1", "4", "6"])]:
        for value in values:
            for order in ["", "0", "1"]:
                args = ",".join(a for a in [value, rng, order] if a)
                out.append(case(f"rank_avg_{slug(rng)}_{value}_{slug(order)}", f"=RANK.AVG({args})"))
    out += [
        case("rank_avg_missing", "=RANK.AVG(7,C1:C5)"),
        case("rank_avg_fraction_missing", "=RANK.AVG(2.5,A1:A6)"),
        case("rank_avg_text_number", '=RANK.AVG("2",C1:C5)'),
        case("rank_avg_text", '=RANK.AVG("x",C1:C5)'),
        case("rank_avg_error", "=RANK.AVG(1/0,C1:C5)"),
        case("rank_avg_error_order", "=RANK.AVG(2,C1:C5,1/0)"),
        case("rank_avg_cell", "=RANK.AVG(E2,E1:E4)"),
        case("rank_avg_mixed_kinds", "=RANK.AVG(-2.5,H1:H4)"),
        case("rank_avg_row", "=RANK.AVG(7,G1:I1,1)"),
        case("rank_avg_order_nonzero", "=RANK.AVG(4,A1:A6,-3)"),
    ]
    return out


def numbervalue_cases() -> list[dict[str, Any]]:
    out = []
    # Separators always given: Calc's defaults follow its process locale.
    for text, dec, grp in [
        ("2.500,27", ",", "."), ("1,000.5", ".", ","), ("12,345.678", ".", ","), ("1 000,5", ",", " "),
        ("1.000.000", ",", "."), ("1'000.5", ".", "'"), ("-1000", ".", ","), ("-12.5", ".", ","),
        ("10%", ".", ","), ("50%%", ".", ","), ("1e-3", ".", ","), ("007", ".", ","), ("0", ".", ","),
        ("1.2,5", ".", ","), ("1.2.5", ".", ","), ("5%3", ".", ","), ("(5)", ".", ","), ("$5", ".", ","),
        ("abc", ".", ","), ("+5", ".", ","), ("1e", ".", ","), ("% 5", ".", ","), ("5 %", ".", ","),
        ("2,5", ",", "."), ("-1e3%", ".", ","),
    ]:
        out.append(case(f"numbervalue_{slug(text)}_{slug(dec)}{slug(grp)}", f'=NUMBERVALUE("{text}","{dec}","{grp}")'))
    out += [
        case("numbervalue_cell_comma", '=NUMBERVALUE(J1,",",".")'),
        case("numbervalue_cell_percents", "=NUMBERVALUE(J2)"),
        case("numbervalue_cell_spaces", "=NUMBERVALUE(J3)"),
        case("numbervalue_cell_exponent", "=NUMBERVALUE(J4)"),
        case("numbervalue_number", "=NUMBERVALUE(5)"),
        case("numbervalue_number_cell", "=NUMBERVALUE(A3)"),
        case("numbervalue_text_cell", "=NUMBERVALUE(B1)"),
        case("numbervalue_error", "=NUMBERVALUE(1/0)"),
        case("numbervalue_error_decimal", '=NUMBERVALUE("5",1/0)'),
        case("numbervalue_error_group", '=NUMBERVALUE("1,5",",",1/0)'),
        case("numbervalue_empty_separators", '=NUMBERVALUE("1.5","","")'),
        case("numbervalue_same_separators", '=NUMBERVALUE("1.5",".",".")'),
        case("numbervalue_in_sum", '=SUM(NUMBERVALUE("1,5",","),1)'),
        case("numbervalue_decimal_only", '=NUMBERVALUE("1000,5",",")'),
        case("numbervalue_decimal_only_no_group", '=NUMBERVALUE("1.000,5",",")'),
    ]
    return out


def offset_cases() -> list[dict[str, Any]]:
    out = []
    for rows, cols in [("0", "0"), ("2", "0"), ("0", "1"), ("5", "0"), ("1.9", "0"), ("-0.5", "0")]:
        out.append(case(f"offset_cell_{slug(rows)}_{slug(cols)}", f"=OFFSET(A1,{rows},{cols})"))
    out += [
        case("offset_up", "=OFFSET(A4,-3,0)"),
        case("offset_left", "=OFFSET(B2,0,-1)"),
        case("offset_truncated_up", "=OFFSET(A2,-1.9,0)"),
        case("offset_sum_height", "=SUM(OFFSET(A1,1,0,3,1))"),
        case("offset_sum_height_only", "=SUM(OFFSET(A1,0,0,6))"),
        case("offset_sum_range_moved", "=SUM(OFFSET(A1:A2,2,0))"),
        case("offset_average", "=AVERAGE(OFFSET(A1:A2,2,0))"),
        case("offset_count_area", "=COUNT(OFFSET(A1,0,0,3,3))"),
        case("offset_counta_area", "=COUNTA(OFFSET(A1,0,1,4,1))"),
        case("offset_omitted_size", "=SUM(OFFSET(A1:A6,0,0,,))"),
        case("offset_max", "=MAX(OFFSET(E1,0,0,4))"),
        case("offset_rows", "=ROWS(OFFSET(A1,0,0,3,2))"),
        case("offset_columns", "=COLUMNS(OFFSET(A1,0,0,3,2))"),
        case("offset_last_row", "=SUM(OFFSET(A1,1048575,0))"),
        case("offset_past_bottom", "=OFFSET(A1,1048576,0)"),
        case("offset_past_top", "=OFFSET(A1,-1,0)"),
        case("offset_past_left", "=OFFSET(A1,0,-1)"),
        case("offset_zero_height", "=SUM(OFFSET(A1,0,0,0,1))"),
        case("offset_text_rows", '=OFFSET(A1,"x",0)'),
        case("offset_error_rows", "=OFFSET(A1,1/0,0)"),
        case("offset_text_number_rows", '=OFFSET(A1,"2",0)'),
        case("offset_in_index", "=INDEX(OFFSET(A1,0,0,6,2),3,1)"),
        case("offset_in_vlookup", "=VLOOKUP(8,OFFSET(E1,0,0,4,1),1,FALSE)"),
        case("areas_range", "=AREAS(A1:B3)"),
        case("areas_cell", "=AREAS(A1)"),
        case("areas_offset", "=AREAS(OFFSET(A1,0,0,3,2))"),
        case("areas_qualified", "=AREAS(Sheet1!A1:B3)"),
    ]
    return out


def let_cases() -> list[dict[str, Any]]:
    return [
        case("let_one_name", "=LET(x,2,x*3)"),
        case("let_two_names", "=LET(x,A1,y,A2,x*y)"),
        case("let_name_uses_name", "=LET(x,2,y,x*3,x+y)"),
        case("let_aggregates", "=LET(a,SUM(A1:A6),b,COUNT(A1:A6),a/b)"),
        case("let_text_result", '=LET(x,5,IF(x>3,"big","small"))'),
        case("let_range", "=LET(r,A1:A6,MAX(r)-MIN(r))"),
        case("let_unused_error", "=LET(x,1/0,5)"),
        case("let_used_error", "=LET(x,1/0,x+1)"),
        case("let_text", "=LET(x,B1,UPPER(x))"),
        case("let_xmatch", "=LET(x,A1:A6,XMATCH(4,x))"),
        case("let_offset", "=LET(n,3,OFFSET(A1,n,0))"),
        case("let_in_expression", "=1+LET(x,A2,x)*2"),
        case("let_negation", "=LET(x,2,-x^2)"),
        case("let_parenthesised_body", "=LET(x,2,(x+1)*(x+2))"),
        case("let_sequence_sum", "=LET(n,4,SUM(SEQUENCE(n)))"),
        dict(case("let_on_open", "=LET(x,A2,y,x*A3,y-x)"), on_open=True),
    ]


def omitted_cases() -> list[dict[str, Any]]:
    """Arguments left empty: an empty argument, not a missing one (IF(TRUE,,1) is 0)."""
    return [
        case("omitted_if_true", "=IF(TRUE(),,1)"),
        case("omitted_if_false", "=IF(FALSE(),1,)"),
        case("omitted_if_cell", "=IF(A1>0,,A2)"),
        case("omitted_if_in_sum", "=SUM(IF(A1>0,,5),1)"),
        case("omitted_sum", "=SUM(1,,2)"),
        case("omitted_counta", "=COUNTA(1,,2)"),
        case("omitted_count", "=COUNT(1,,2)"),
        case("omitted_concatenate", '=CONCATENATE("a",,"b")'),
        case("omitted_sequence_start", "=SUM(SEQUENCE(1,3,,2))"),
        case("omitted_sequence_index", "=INDEX(SEQUENCE(1,3,,2),1,3)"),
        case("omitted_vlookup_exact", "=VLOOKUP(2.5,A1:A6,1,)"),
        case("omitted_round_digits", "=ROUND(2.567,)"),
        dict(case("omitted_if_on_open", "=IF(A1=1,,7)"), on_open=True),
    ]


def text_cell_cases() -> list[dict[str, Any]]:
    """ASC, JIS and CELL (calc_text_width.go, calc_cell_info.go). Calc has no PHONETIC reading
    and widens no ASCII space in JIS (Excel does): those are pinned in calc_text_cell_test.go."""
    return [
        case("asc_latin", '=ASC("ＥＸＣＥＬ")'),
        case("asc_katakana", '=ASC("エクセル")'),
        case("asc_voiced", '=ASC("ガパ゛")'),
        case("asc_number", "=ASC(A1)"),
        case("jis_latin", '=JIS("EXCEL")'),
        case("jis_katakana", '=JIS("ｴｸｾﾙ")'),
        case("jis_voiced", '=JIS("ｶﾞﾊﾟ")'),
        case("jis_mark_alone", '=JIS("ｱﾞ")'),
        case("cell_row", '=CELL("row",A20)'),
        case("cell_col", '=CELL("col",E1:E4)'),
        case("cell_address", '=CELL("address",B2:C3)'),
        case("cell_contents_text", '=CELL("contents",B2)'),
        case("cell_contents_blank", '=CELL("contents",F1)'),
        case("cell_type_text", '=CELL("type",B1)'),
        case("cell_type_blank", '=CELL("type",F1)'),
        case("cell_type_number", '=CELL("type",A1)'),
        dict(case("cell_on_open", '=CELL("contents",A2)*10'), on_open=True),
    ]


def filterxml_cases() -> list[dict[str, Any]]:
    """FILTERXML (calc_filterxml.go) where one node or an XPath value is selected. Calc keeps the
    first of several nodes outside an array formula, returns a number's text as text, gives #N/A
    for no node and expands DTD entities; Excel spills the nodes, returns numbers, gives #VALUE!
    and (here) expands nothing: those are pinned in calc_filterxml_test.go."""
    xml = '"<r><b>x</b><c n=""k7"">z<d>w</d></c></r>"'
    return [
        case("filterxml_element", f'=FILTERXML({xml},"//b")'),
        case("filterxml_attribute", f'=FILTERXML({xml},"//c/@n")'),
        case("filterxml_children_text", f'=FILTERXML({xml},"//c")'),
        case("filterxml_root_text", f'=FILTERXML({xml},"/r")'),
        case("filterxml_count", f'=FILTERXML({xml},"count(//d)")'),
        case("filterxml_string", f'=FILTERXML({xml},"string(//d)")'),
        case("filterxml_predicate", f'=FILTERXML({xml},"//c[@n=\'k7\']/d")'),
        case("filterxml_escape", '=FILTERXML("<a>&lt;&amp;</a>","//a")'),
        case("filterxml_from_cell", '=FILTERXML("<a>"&B1&"</a>","//a")'),
        case("filterxml_bad_xml", '=FILTERXML("<a>","//a")'),
        case("filterxml_bad_xpath", f'=FILTERXML({xml},"//[")'),
        case("filterxml_number_xml", '=FILTERXML(A1,"//a")'),
        case("filterxml_empty_xpath", f'=FILTERXML({xml},"")'),
    ]


# ETS_DATA is the series the FORECAST.ETS.CONFINT cases read: A1:A16 the timeline 1..16 and B1:B16
# values with a season of 4 and a rising trend; C1:C12 the first days of the months of 2024 and D1:D12
# values for them (third_party/excelize/calc_forecast_ets_test.go's etsBook).
ETS_DATA: dict[str, Any] = {
    **{f"A{i + 1}": i + 1 for i in range(16)},
    **{f"B{i + 1}": y for i, y in enumerate([12, 15, 20, 11, 14, 18, 23, 13, 16, 21, 26, 15, 18, 24, 29, 17])},
    **{f"C{i + 1}": 45292 + d for i, d in enumerate([0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335])},
    **{f"D{i + 1}": z for i, z in enumerate([5, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17])},
}


def confint_cases() -> list[dict[str, Any]]:
    """FORECAST.ETS.CONFINT without a season (seasonality 0: Calc's closed form, exact) on ETS_DATA:
    one and several steps ahead, levels, the default level, a monthly timeline, a target between
    steps, a timeline of step 2, a target inside the data or at its end. With a season Calc draws random paths,
    so its value changes at every recalculation: those are compared within Calc's measured spread
    in tests/python/test_forecast_confint_oracle.py."""
    step2 = "{2;4;6;8;10;12;14;16;18;20;22;24;26;28;30;32}"
    formulas = {
        "one_step": "=FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,0)",
        "two_steps": "=FORECAST.ETS.CONFINT(18,B1:B16,A1:A16,0.95,0)",
        "between_steps": "=FORECAST.ETS.CONFINT(20.5,B1:B16,A1:A16,0.9,0)",
        "far_low_level": "=FORECAST.ETS.CONFINT(25,B1:B16,A1:A16,0.5,0)",
        "default_level": "=FORECAST.ETS.CONFINT(17,B1:B8,A1:A8,,0)",
        "months": "=FORECAST.ETS.CONFINT(45700,D1:D12,C1:C12,0.95,0)",
        "months_mid": "=FORECAST.ETS.CONFINT(45720,D1:D12,C1:C12,0.8,0)",
        "step_two": f"=FORECAST.ETS.CONFINT(37,B1:B16,{step2},0.95,0)",
        "inside_data": "=FORECAST.ETS.CONFINT(10,B1:B16,A1:A16,0.95,0)",
        "at_end": "=FORECAST.ETS.CONFINT(16,B1:B16,A1:A16,0.95,0)",
        "level_one": "=FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,1,0)",
    }
    out = [dict(case("confint_" + name, formula), sheets={"Sheet1": dict(ETS_DATA)})
           for name, formula in formulas.items()]
    # Several target dates (a range, an array constant) spill the forecasts and intervals of each, as
    # in Excel 365; Calc computes them as an array formula over the spill range.
    spills = [("K1", "K1:K3", "=FORECAST.ETS({17;18;20.5},B1:B16,A1:A16)"),
              ("L1", "L1:L3", "=FORECAST.ETS.CONFINT(E1:E3,B1:B16,A1:A16,0.9,0)"),
              ("M1", "M1:N1", "=FORECAST.ETS.CONFINT({17,19},D1:D12,A1:A12,0.95,0)")]
    out.append({
        "name": "fn_confint_spill",
        "sheets": {"Sheet1": {**ETS_DATA, "E1": 17, "E2": 18.5, "E3": 22}},
        "ops": [{"op": "set", "sheet": "Sheet1", "cell": cell, "value": formula, "spill": rng}
                for cell, rng, formula in spills],
        "read": True,
        "on_open": True,
    })
    return out


CASES: list[dict[str, Any]] = (xmatch_cases() + rank_avg_cases() + numbervalue_cases() + offset_cases() + let_cases()
                               + omitted_cases() + text_cell_cases() + filterxml_cases() + confint_cases())
