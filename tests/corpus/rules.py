"""Which changed zip entries an edit may cause, and which formula cells' cached values must not move.

The rule for entries, per edit:

* always allowed: xl/calcChain.xml (a cache of calculation order Excel rebuilds; rewriting or
  dropping it loses nothing), docProps/core.xml (the modified timestamp) and docProps/app.xml
  (the application name and version of the last writer);
* write_cells of one number: the edited sheet's XML, nothing else;
* format_cells (bold) and write_text (text through the excelize path): the edited sheet's XML,
  plus list parts (styles, shared strings, relationships, content types) changed only by records
  appended to their lists, every original byte kept (appended_only);
* insert_rows: the edited sheet's XML, the parts hanging off that sheet that hold row positions
  (tables, comments, drawings and their VML, charts, pivot tables), and any other XML part whose
  text names the edited sheet in a reference ("Name!" or "'Name'!": other sheets' formulas,
  validations and conditional formats, defined names in xl/workbook.xml, chart series, pivot
  cache sources). This is looser than "must change" (a reference wholly above the inserted row
  need not move), so a count under it is a floor, not a ceiling.

An entry added or removed counts as changed.
"""

from __future__ import annotations

import re

ALWAYS_ALLOWED = frozenset({"xl/calcChain.xml", "docProps/core.xml", "docProps/app.xml"})

# Parts hanging off a sheet that hold positions an inserted row moves.
POSITIONAL_PARTS = ("/tables/", "/comments", "/drawings/", "/charts/", "/pivotTables/", "/threadedComments/")

# Functions whose value depends on the position of a cell, the clock or chance: a cell using one
# may rightly change its cached value when rows move, so drift is not counted for it.
POSITIONAL_FUNCS = re.compile(r"\b(NOW|TODAY|RAND|RANDBETWEEN|RANDARRAY|OFFSET|INDIRECT|CELL|INFO|ROW|ROWS|COLUMN|COLUMNS)\s*\(", re.I)

# A reference with an optional sheet prefix: A1, $A$1:B2, A:C, 3:5.
REF_RE = re.compile(
    r"(?:(?P<sheet>'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?"
    r"(?<![\w.])(?P<a>\$?[A-Z]{1,3}\$?\d+|\$?[A-Z]{1,3}(?=:\$?[A-Z]{1,3}\b)|\$?\d+(?=:\$?\d+))"
    r"(?::(?P<b>\$?[A-Z]{1,3}\$?\d+|\$?[A-Z]{1,3}|\$?\d+))?(?![\w(])"
)
STRING_RE = re.compile(r'"(?:[^"]|"")*"')
NAME_RE = re.compile(r"(?<![\w.'!$])([A-Za-z_\\][\w.]*)(?![\w(!\[])")


def sheet_ref_pattern(name: str) -> re.Pattern[bytes]:
    """sheet_ref_pattern matches a reference to sheet name in XML text (quoted or not, escaped or not)."""
    quoted = name.replace("'", "''")
    forms = {name + "!", "'" + quoted + "'!"}
    escaped = set()
    for f in forms:
        e = f.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        escaped.update({e, e.replace("'", "&apos;")})
    forms |= escaped
    alts = b"|".join(re.escape(f.encode()) for f in sorted(forms))
    source = re.escape(('sheet="' + name.replace("&", "&amp;") + '"').encode())
    return re.compile(b"(?:" + alts + b"|" + source + b")")


def allowed_write(sheet_part: str) -> set[str]:
    """allowed_write is the set of entries a one-number write_cells on sheet_part may change."""
    return set(ALWAYS_ALLOWED) | {sheet_part}


def allowed_insert(parts: dict[str, bytes], sheet_name: str, sheet_part: str, related: list[str]) -> set[str]:
    """allowed_insert is the set of entries insert_rows on sheet_part may change (see the module rule)."""
    out = set(ALWAYS_ALLOWED) | {sheet_part}
    out.update(r for r in related if any(p in r for p in POSITIONAL_PARTS))
    pattern = sheet_ref_pattern(sheet_name)
    for name, data in parts.items():
        if name.endswith((".xml", ".vml")) and pattern.search(data):
            out.add(name)
    return out


# Where records may be appended to a list part: before a list's or the root's end tag, or in
# place of an empty list; LIST_START is where a list the part lacked may be inserted.
LIST_END = re.compile(rb"</(?:numFmts|fonts|fills|borders|cellStyleXfs|cellXfs|cellStyles|dxfs|tableStyles|sst|Relationships|Types)>"
                      rb"|<(?:numFmts|dxfs|tableStyles)\b[^>]*/>")
LIST_START = re.compile(rb"<(?:fonts|fills|borders|cellStyleXfs|cellXfs|cellStyles|dxfs|tableStyles|colors|extLst)\b")
COUNT_ATTR = re.compile(rb'\b(count|uniqueCount)="\d*"')
LIST_ROOT = re.compile(rb"<(?:styleSheet|sst|Relationships|Types)[\s>]")


def is_list_part(data: bytes) -> bool:
    """is_list_part tells the parts whose records an edit may append to."""
    return LIST_ROOT.search(data[:400]) is not None


def appended_only(old: bytes, new: bytes) -> bool:
    """appended_only reports whether new is old with records inserted only where lists end (or a
    missing list inserted), counts aside: old, cut at those points, appears piece by piece, in
    order, in new, its first piece at the start."""
    o, n = COUNT_ATTR.sub(rb'\1=""', old), COUNT_ATTR.sub(rb'\1=""', new)
    cuts = sorted([(m.start(), m.end()) for m in LIST_END.finditer(o)] + [(m.start(), m.start()) for m in LIST_START.finditer(o)],
                  key=lambda c: (c[0], -c[1]))
    pos = frm = 0
    for start, end in cuts:
        if start < frm:
            continue
        piece = o[frm:start]
        i = n.find(piece, pos)
        if i < 0 or (frm == 0 and i != 0):
            return False
        pos, frm = i + len(piece), start
        tag = o[start:end]
        if tag.endswith(b"/>"):
            if n.startswith(tag, pos):
                pos, frm = pos + len(tag), end
            else:  # an empty list written out with its records
                name = re.match(rb"<(\w+)", tag)
                assert name
                close = n.find(b"</" + name.group(1) + b">", pos)
                if close < 0:
                    return False
                pos, frm = close + len(name.group(1)) + 3, end
    return n[pos:].endswith(o[frm:])


def changed_entries(old: dict[str, bytes], new: dict[str, bytes]) -> set[str]:
    """changed_entries lists every entry added, removed or whose bytes differ."""
    return {n for n in old.keys() | new.keys() if old.get(n) != new.get(n)}


def _bound(text: str, is_end: bool) -> tuple[int, int]:
    text = text.replace("$", "")
    m = re.match(r"^([A-Z]*)(\d*)$", text)
    assert m
    letters, digits = m.group(1), m.group(2)
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - 64
    if not letters:
        col = 16384 if is_end else 1
    row = int(digits) if digits else (1048576 if is_end else 1)
    return row, col


def references(formula: str, own_sheet: str) -> list[tuple[str, int, int, int, int]]:
    """references lists (sheet, r1, c1, r2, c2) of every A1 reference in formula (strings skipped)."""
    text = STRING_RE.sub('""', formula)
    out = []
    for m in REF_RE.finditer(text):
        sheet = m.group("sheet")
        if sheet is None:
            sheet = own_sheet
        elif sheet.startswith("'"):
            sheet = sheet[1:-1].replace("''", "'")
        a = m.group("a")
        b = m.group("b") or a
        r1, c1 = _bound(a, False)
        r2, c2 = _bound(b, True)
        if m.group("b") is None:
            r2, c2 = r1, c1
        out.append((sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)))
    return out


def may_see(formula: str, own_sheet: str, target_sheet: str, row: int, col: int, names: set[str]) -> bool:
    """may_see reports whether formula on own_sheet may read cell (row, col) of target_sheet.

    A defined name, a structured table reference or a position-dependent function counts as
    "may", so such cells are left out of the drift count for a write.
    """
    if POSITIONAL_FUNCS.search(formula) or "[" in formula:
        return True
    text = STRING_RE.sub('""', formula)
    for ident in NAME_RE.findall(text):
        if ident.lower() in names:
            return True
    for sheet, r1, c1, r2, c2 in references(formula, own_sheet):
        if sheet.lower() == target_sheet.lower() and r1 <= row <= r2 and c1 <= col <= c2:
            return True
    return False


def spans(formula: str, own_sheet: str, target_sheet: str, row: int) -> bool:
    """spans reports whether a reference of formula to target_sheet starts above row and reaches it.

    Inserting a row there widens the reference to take in the new empty row, so the formula's
    inputs change and its cached value may rightly change with them.
    """
    for sheet, r1, _, r2, _ in references(formula, own_sheet):
        if sheet.lower() == target_sheet.lower() and r1 < row <= r2:
            return True
    return False

