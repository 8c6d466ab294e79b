"""The formula corpus generator: from one valid call per function to its cases.

A table entry (formula_corpus_table.FUNCTIONS) is the text of one valid call's arguments:

    "ROUND": "2.567, 1"          two arguments
    "LOG": "100 | 10"            arguments after "|" are optional
    "SUM": "A1:A6, 5 ..."        a trailing "..." marks a function taking more of the last
    "SEQUENCE": "sum: 3, 2"      "sum:" wraps the call in SUM(): the function returns an array
                                 (a single cell shows its first value, or spills)

or a tuple of that text and extra whole formulas written by hand ("only:" as the text: just
those, for volatile functions and LET, whose generated shapes would not be stable or valid). Each argument's kind is read
from its text (a number, a quoted text, TRUE/FALSE, a range or inline array, a single cell;
anything else is kept as written), and the generator makes the cases:

- "base": the call as written; "required only": the optional arguments left out;
- "argN <shape>": argument N replaced by a shape of its kind (SHAPES: the first argument by
  FIRST_SHAPES of them, the others by LATER_SHAPES in all);
- "wrong count": one required argument too few (with none required, one too many).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from formula_corpus_table import EXCLUDED_CASES, EXCLUDED_FUNCTIONS, FUNCTIONS

# SHAPES are the replacements per argument kind: (shape name, argument text). The cells are
# those of formula_corpus_table.DATA: A4 7, A2 -1.5, B2 "Banana", B4 "7", H10 blank, E1 #N/A,
# E2 #DIV/0!, E3 #VALUE!, F1 TRUE; D1:D6 powers of two, G1:I1 a row, C1:C6 numbers, text
# numbers, text and a blank, E1:E3 errors, H5:H8 blank, G2:H3 a 2x2 matrix.
SHAPES: dict[str, list[tuple[str, str]]] = {
    "number": [("negative", "-2.5"), ("zero", "0"), ("text", '"abc"'), ("error", "E1"),
               ("fraction", "0.25"), ("large", "1E+12"), ("text number", '"4"'), ("blank", "H10"),
               ("boolean", "TRUE"), ("cell", "A4"), ("error formula", "1/0"), ("div0 cell", "E2")],
    "text": [("empty text", '""'), ("number", "12"), ("error", "E2"), ("text cell", "B2"),
             ("blank", "H10"), ("boolean for text", "TRUE"), ("text number cell", "B4")],
    "bool": [("zero", "0"), ("text bool", '"TRUE"'), ("error", "E1"), ("number", "2"), ("blank", "H10"),
             ("text", '"x"')],
    "range": [("other range", "D1:D6"), ("mixed range", "C1:C6"), ("row", "G1:I1"), ("inline array", "{1,2;3,4}"),
              ("errors", "E1:E3"), ("single cell", "A4"), ("blank range", "H5:H8"), ("2-D", "G2:H3")],
    "cell": [("negative cell", "A2"), ("text cell", "B2"), ("blank", "H10"), ("error", "E3"),
             ("boolean cell", "F1"), ("text number cell", "B4")],
}
# FIRST_SHAPES is how many shapes replace the first argument, LATER_SHAPES how many replace
# the others (in turn); each function starts at its own place in the lists, so the corpus as
# a whole tries every shape of every kind.
FIRST_SHAPES = 5
LATER_SHAPES = 2

# DATE_SERIAL: a number argument this large is a date; EARLY_SERIAL_SHAPES replace it by a serial
# before 1900-03-01, where Excel and Calc count days differently (EARLY_SERIAL says how).
DATE_SERIAL = 30000
EARLY_SERIAL_SHAPES = {"negative", "zero", "fraction", "text number", "blank", "boolean", "cell", "number",
                       "text number cell", "single cell", "negative cell", "boolean cell"}
EARLY_SERIAL = ("a date before 1900-03-01: Excel counts the fictional 1900-02-29 (serial 60 is that day, "
                "serial 0 is 1900-01-00), Calc's calendar starts on 1899-12-30 (DAY(4) is 4 in Excel, 3 in Calc)")

NUMBER = re.compile(r"-?\d+(\.\d+)?(E[+-]?\d+)?$", re.IGNORECASE)
RANGE = re.compile(r"\$?[A-Z]{1,2}\$?\d+:\$?[A-Z]{1,2}\$?\d+$")
CELL = re.compile(r"\$?[A-Z]{1,2}\$?\d+$")


@dataclass(frozen=True)
class Case:
    """One formula of the corpus: its function, the shape it tries, the formula."""

    function: str
    shape: str
    formula: str
    replaced: str = ""  # the argument text the shape replaced ("" for none)


def kind(arg: str) -> str | None:
    """The kind of an argument's text (a key of SHAPES), None to keep it as written."""
    a = arg.strip()
    if NUMBER.match(a):
        return "number"
    if len(a) >= 2 and a[0] == a[-1] == '"':
        return "text"
    if a.upper() in ("TRUE", "FALSE"):
        return "bool"
    if RANGE.match(a) or a.startswith("{"):
        return "range"
    if CELL.match(a):
        return "cell"
    return None


def split_args(text: str) -> tuple[list[str], int]:
    """The arguments of a spec and how many are required (those before "|")."""
    args: list[str] = []
    required = -1
    depth, quoted, cur = 0, False, ""
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "({":
            depth += 1
        elif not quoted and ch in ")}":
            depth -= 1
        elif not quoted and depth == 0 and ch in ",|":
            args.append(cur.strip())
            cur = ""
            if ch == "|":
                required = len(args)
            continue
        cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args, len(args) if required < 0 else required


def cases_of(name: str, spec: str | tuple[str, ...]) -> list[Case]:
    """Every case of one table entry, duplicates left out, in a fixed order."""
    text, extra = (spec, ()) if isinstance(spec, str) else (spec[0], spec[1:])
    if text == "only:":
        return [Case(name, f"extra {i + 1}", f) for i, f in enumerate(extra)]
    wrap = text.startswith("sum:")
    text = text.removeprefix("sum:").strip()
    variadic = text.endswith("...")
    text = text.removesuffix("...").strip()
    args, required = split_args(text)

    def call(a: list[str]) -> str:
        inner = f"{name}({','.join(a)})"
        return f"=SUM({inner})" if wrap else f"={inner}"

    def shaped(a: list[str], i: int, shape: tuple[str, str]) -> Case:
        return Case(name, f"arg{i + 1} {shape[0]}", call(a[:i] + [shape[1]] + a[i + 1:]), a[i])

    out = [Case(name, "base", call(args))]
    if required < len(args):
        out.append(Case(name, "required only", call(args[:required])))
    turn = sum(map(ord, name))  # where this function starts in each shape list
    if args and kind(args[0]):
        shapes = SHAPES[str(kind(args[0]))]
        for j in range(FIRST_SHAPES):
            out.append(shaped(args, 0, shapes[(turn + j) % len(shapes)]))
    for j in range(LATER_SHAPES if len(args) > 1 else 0):
        i = 1 + j % (len(args) - 1)
        k = kind(args[i])
        if k is not None:
            out.append(shaped(args, i, SHAPES[k][(turn + j) % len(SHAPES[k])]))
    if required > 0:
        out.append(Case(name, "wrong count", call(args[:required - 1])))
    elif not variadic:
        out.append(Case(name, "wrong count", call(args + ["1"])))
    for i, formula in enumerate(extra):
        out.append(Case(name, f"extra {i + 1}", formula))
    seen: set[str] = set()
    unique = []
    for c in out:
        if c.formula not in seen:
            seen.add(c.formula)
            unique.append(c)
    return unique


def excluded(case: Case) -> str | None:
    """Why a case is left out (a known Excel/Calc difference), or None."""
    shape = case.shape.split(" ", 1)[1] if case.shape.startswith("arg") else case.shape
    if NUMBER.match(case.replaced) and float(case.replaced) >= DATE_SERIAL and shape in EARLY_SERIAL_SHAPES:
        return EARLY_SERIAL
    for key in (case.formula, f"{case.function}:{case.shape}", f"*:{shape}"):
        if key in EXCLUDED_CASES:
            return EXCLUDED_CASES[key]
    return None


def all_cases() -> list[Case]:
    """Every case the table makes, excluded ones included."""
    out: list[Case] = []
    for name, spec in FUNCTIONS.items():
        if name not in EXCLUDED_FUNCTIONS:
            out.extend(cases_of(name, spec))
    return out


def generate() -> list[Case]:
    """The corpus: every case the table makes, less those excluded with a reason."""
    return [c for c in all_cases() if excluded(c) is None]


def excluded_cases() -> list[tuple[Case, str]]:
    """The cases left out and why."""
    out = []
    for c in all_cases():
        why = excluded(c)
        if why is not None:
            out.append((c, why))
    return out
