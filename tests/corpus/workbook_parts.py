"""Reading the parts of an .xlsx the corpus harness compares: sheets, their related parts, formula cells."""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
WORKSHEET_TYPE = NS_REL + "/worksheet"

CELL_RE = re.compile(r"^([A-Z]+)([0-9]+)$")


@dataclass
class Sheet:
    """One worksheet: its name, its XML part and the parts its relationships point at."""

    name: str
    part: str
    related: list[str] = field(default_factory=list)


def col_number(letters: str) -> int:
    """col_number turns column letters into a 1-based number."""
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def col_letters(n: int) -> str:
    """col_letters turns a 1-based column number into letters."""
    out = ""
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def split_cell(ref: str) -> tuple[int, int]:
    """split_cell turns "B7" into (7, 2)."""
    m = CELL_RE.match(ref.replace("$", ""))
    if not m:
        raise ValueError(ref)
    return int(m.group(2)), col_number(m.group(1))


def entries(path: str) -> dict[str, bytes]:
    """entries returns every zip entry of the file by name."""
    with zipfile.ZipFile(path) as z:
        return {info.filename: z.read(info) for info in z.infolist() if not info.is_dir()}


def rels_of(parts: dict[str, bytes], part: str) -> list[str]:
    """rels_of returns the package parts the relationships of part point at (external ones left out)."""
    base = posixpath.dirname(part)
    rels_name = posixpath.join(base, "_rels", posixpath.basename(part) + ".rels")
    data = parts.get(rels_name)
    if data is None:
        return []
    out = []
    for rel in ET.fromstring(data).iter(f"{{{NS_PKG_REL}}}Relationship"):
        if rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        full = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(base, target))
        out.append(full)
    return out


def sheets(parts: dict[str, bytes]) -> list[Sheet]:
    """sheets lists the worksheets (not chartsheets) in workbook order, with their related parts."""
    wb_rels: dict[str | None, ET.Element] = {}
    data = parts.get("xl/_rels/workbook.xml.rels")
    if data is None:
        return []
    for rel in ET.fromstring(data).iter(f"{{{NS_PKG_REL}}}Relationship"):
        wb_rels[rel.get("Id")] = rel
    out = []
    for sh in ET.fromstring(parts["xl/workbook.xml"]).iter(f"{{{NS_MAIN}}}sheet"):
        found = wb_rels.get(sh.get(f"{{{NS_REL}}}id"))
        if found is None or found.get("Type") != WORKSHEET_TYPE:
            continue
        target = found.get("Target", "")
        part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
        related = rels_of(parts, part)
        # a drawing's own relationships (charts, images) belong to the sheet too
        for r in list(related):
            if "/drawings/" in r:
                related.extend(rels_of(parts, r))
        out.append(Sheet(name=sh.get("name", ""), part=part, related=related))
    return out


def used_range(sheet_xml: bytes) -> tuple[int, int, int, int] | None:
    """used_range returns (first_row, first_col, last_row, last_col) of the cells present, None when empty."""
    rows: list[int] = []
    cols: list[int] = []
    for c in ET.fromstring(sheet_xml).iter(f"{{{NS_MAIN}}}c"):
        ref = c.get("r")
        if ref:
            r, k = split_cell(ref)
            rows.append(r)
            cols.append(k)
    if not rows:
        return None
    return min(rows), min(cols), max(rows), max(cols)


@dataclass
class FormulaCell:
    """A formula cell: its formula text (a shared formula's master text) and its cached value text."""

    formula: str
    value: str | None


def formula_cells(sheet_xml: bytes) -> dict[tuple[int, int], FormulaCell]:
    """formula_cells maps (row, col) of every formula cell to its formula and its cached <v> text."""
    out: dict[tuple[int, int], FormulaCell] = {}
    masters: dict[str, str] = {}
    cells = list(ET.fromstring(sheet_xml).iter(f"{{{NS_MAIN}}}c"))
    for c in cells:
        f = c.find(f"{{{NS_MAIN}}}f")
        if f is not None and f.get("t") == "shared" and f.text:
            masters[f.get("si", "")] = f.text
    for c in cells:
        f = c.find(f"{{{NS_MAIN}}}f")
        ref = c.get("r")
        if f is None or not ref:
            continue
        text = f.text or (masters.get(f.get("si", ""), "") if f.get("t") == "shared" else "")
        v = c.find(f"{{{NS_MAIN}}}v")
        out[split_cell(ref)] = FormulaCell(formula=text, value=None if v is None else (v.text or ""))
    return out


def number_cells(sheet_xml: bytes) -> dict[tuple[int, int], float]:
    """number_cells maps (row, col) of every cell holding a plain number (no formula) to it."""
    out: dict[tuple[int, int], float] = {}
    for c in ET.fromstring(sheet_xml).iter(f"{{{NS_MAIN}}}c"):
        ref, v = c.get("r"), c.find(f"{{{NS_MAIN}}}v")
        if not ref or v is None or c.find(f"{{{NS_MAIN}}}f") is not None or c.get("t", "n") != "n":
            continue
        try:
            out[split_cell(ref)] = float(v.text or "")
        except ValueError:
            continue
    return out
