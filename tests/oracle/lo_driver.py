#!/usr/bin/python3
"""LibreOffice formula oracle: apply spreadsheet operations in Calc and report every cell.

Run with Debian's /usr/bin/python3 (the only interpreter where `import uno` works).
It starts one headless soffice with a private profile and serves requests, one JSON
object per line on stdin, one JSON answer per line on stdout (see README.md here):

    {"cmd": "run", "path": "in.xlsx" | null, "ops": [...], "save": "out.xlsx" | null,
     "on_open": false, "structure": false, "only": ["Sheet1!K1:K900"] | null}
    {"cmd": "quit"}

`run` opens the workbook (null: a new one), reads what Calc shows on open when `on_open`
is true (before any recalculation) and, when `structure` is true, what it read besides
values (notes, links, hidden rows, frozen panes, header and footer, database ranges: see
`structure`), applies the operations in order, recalculates everything (calculateAll),
optionally stores the result as xlsx, and answers

    {"ok": true, "sheets": [{"name": "Sheet1", "cells": {"A1": {"f": "=A2*10", "v": 20.0}}}],
     "probes": [...], "on_open": [...]}

A cell is {"v": number | string} or, for an error, {"e": "#REF!"} (Calc's own text, such
as "Err:520"); formula cells add "f", the formula in Excel A1 syntax as Calc prints it.
Empty cells are left out. With "only", the answer reports just those ranges (a large batch of
formulas is read in a fraction of the time the whole used area takes), and a formula whose
result Calc formats as a boolean adds "b": true (Calc's TRUE is the number 1). Any failure answers {"ok": false, "error": "..."} and the
server keeps serving.

For a one-off look: `/usr/bin/python3 lo_driver.py FILE.xlsx [OPS.json]` prints one answer.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
from typing import Any

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]
from com.sun.star.connection import NoConnectException  # type: ignore[import-not-found]
from com.sun.star.table import CellAddress  # type: ignore[import-not-found]

# CONNECT_TIMEOUT is how long soffice may take to accept the first connection
# (a fresh profile on a busy machine takes several seconds).
CONNECT_TIMEOUT = 120.0
# XL_A1 is com.sun.star.sheet.AddressConvention.XL_A1 (Excel's A1 syntax).
XL_A1 = 1
# XL_ENGLISH is com.sun.star.sheet.FormulaLanguage.XL_ENGLISH; ALL_EXCEPT_SPECIAL is
# com.sun.star.sheet.FormulaMapGroup.ALL_EXCEPT_SPECIAL.
XL_ENGLISH, ALL_EXCEPT_SPECIAL = 4, 0x7FFFFFFF
# Cell content types (com.sun.star.table.CellContentType).
EMPTY, VALUE, TEXT, FORMULA = "EMPTY", "VALUE", "TEXT", "FORMULA"
# FormulaResult flags (com.sun.star.sheet.FormulaResult).
RESULT_VALUE, RESULT_STRING, RESULT_ERROR = 1, 2, 4
# LOGICAL is com.sun.star.util.NumberFormat.LOGICAL (a boolean number format).
LOGICAL = 1024


def prop(name: str, value: Any) -> PropertyValue:
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def col_index(col: str | int) -> int:
    """0-based column index of a letter ("C") or 1-based number (3)."""
    if isinstance(col, int):
        return col - 1
    n = 0
    for ch in col.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def col_name(i: int) -> str:
    """Column letters of a 0-based index."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


BARE_BOOL = re.compile(r"(?<![\w.!$'])(TRUE|FALSE)(?![\w(!])", re.IGNORECASE)
# CALC_NAMES are Excel's names of the exponential smoothing functions, which Calc's parser does not
# know, and Calc's own (its xlsx import reads _xlfn.FORECAST.ETS.CONFINT as FORECAST.ETS.PI.ADD).
CALC_NAMES = {"FORECAST.ETS": "FORECAST.ETS.ADD", "FORECAST.ETS.CONFINT": "FORECAST.ETS.PI.ADD",
              "FORECAST.ETS.STAT": "FORECAST.ETS.STAT.ADD"}
CALC_NAME = re.compile(r"(?<![\w.])(FORECAST\.ETS(?:\.CONFINT|\.STAT)?)(?=\()", re.IGNORECASE)


def input_form(formula: str) -> str:
    """A formula as one types it into Calc, outside string literals.

    Bare TRUE/FALSE become the functions TRUE()/FALSE(): Calc's API parser turns a bare TRUE
    into the number 1, while its input line and its xlsx import keep the function. The file
    prefixes of newer functions (_xlfn., _xlws.) go: one types TEXTJOIN, the file holds
    _xlfn.TEXTJOIN, and Calc's parser knows only the former. Excel's names of the exponential
    smoothing functions become Calc's (CALC_NAMES).
    """
    parts = formula.split('"')
    for i in range(0, len(parts), 2):
        p = BARE_BOOL.sub(lambda m: m.group(1).upper() + "()", parts[i])
        p = re.sub(r"(?i)_xl(fn|ws)\.", "", p)
        parts[i] = CALC_NAME.sub(lambda m: CALC_NAMES[m.group(1).upper()], p)
    return '"'.join(parts)


def split_cell(ref: str) -> tuple[int, int]:
    """0-based (column, row) of an A1 reference such as "B3"."""
    letters = "".join(ch for ch in ref if ch.isalpha())
    return col_index(letters), int(ref[len(letters):]) - 1


class Office:
    """One headless soffice process and a connection to it."""

    def __init__(self) -> None:
        self.profile = tempfile.mkdtemp(prefix="lo-oracle-profile-")
        pipe = "lo-oracle-" + uuid.uuid4().hex
        self.proc = subprocess.Popen(
            ["soffice", "--headless", "--invisible", "--nologo", "--norestore", "--nodefault",
             "--nolockcheck", "-env:UserInstallation=file://" + self.profile,
             f"--accept=pipe,name={pipe};urp;StarOffice.ComponentContext"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        deadline = time.monotonic() + CONNECT_TIMEOUT
        while True:
            try:
                self.ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                break
            except NoConnectException as exc:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError("soffice did not accept a connection") from exc
                time.sleep(0.2)
        self.desktop = self.ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", self.ctx)

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                try:
                    self.desktop.terminate()
                except Exception:  # noqa: BLE001,S110 - the office may already be gone; kill follows
                    pass
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        except AttributeError:
            pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def open(self, path: str | None) -> Any:
        url = "private:factory/scalc" if path is None else uno.systemPathToFileUrl(os.path.abspath(path))
        doc = self.desktop.loadComponentFromURL(url, "_blank", 0, (prop("Hidden", True),))
        if doc is None:
            raise RuntimeError(f"LibreOffice cannot open {path}")
        return doc


class Book:
    """One open Calc document and the operations the oracle applies to it."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.parser = doc.createInstance("com.sun.star.sheet.FormulaParser")
        self.parser.FormulaConvention = XL_A1
        # Excel's English function names both ways (TRUE/FALSE stay functions, no _xlfn.).
        mapper = doc.createInstance("com.sun.star.sheet.FormulaOpCodeMapper")
        self.parser.OpCodeMap = mapper.getAvailableMappings(XL_ENGLISH, ALL_EXCEPT_SPECIAL)
        self.probes: list[dict[str, Any]] = []

    def sheet(self, name: str | None) -> Any:
        sheets = self.doc.Sheets
        if name is None:
            return self.doc.CurrentController.ActiveSheet if self.doc.CurrentController else sheets.getByIndex(0)
        if not sheets.hasByName(name):
            raise KeyError(f"no sheet {name!r}")
        return sheets.getByName(name)

    def set_value(self, cell: Any, sheet: Any, value: Any) -> None:
        if value is None:
            cell.setString("")
        elif isinstance(value, bool):
            cell.setValue(1.0 if value else 0.0)
        elif isinstance(value, (int, float)):
            cell.setValue(float(value))
        elif isinstance(value, str) and value.startswith("=") and len(value) > 1:
            addr = cell.CellAddress
            tokens = self.parser.parseFormula(input_form(value), addr)
            cell.setTokens(tokens)
        else:
            cell.setString(str(value))

    def op_set(self, op: dict[str, Any]) -> None:
        sheet = self.sheet(op.get("sheet"))
        if op.get("spill"):
            # A dynamic array formula: Calc enters it over its spill range as an array
            # formula, which is what it makes of an Excel 365 anchor in a file.
            rng = sheet.getCellRangeByName(op["spill"])
            addr = rng.getCellByPosition(0, 0).CellAddress
            rng.setArrayTokens(self.parser.parseFormula(input_form(op["value"]), addr))
            return
        c0, r0 = split_cell(op["cell"])
        rows = op["values"] if "values" in op else [[op.get("value")]]
        for i, row in enumerate(rows):
            for j, v in enumerate(row):
                cell = sheet.getCellByPosition(c0 + j, r0 + i)
                if op.get("expect") == "rejected":
                    before = cell.getFormula()
                    self.set_value(cell, sheet, v)
                    self.doc.calculateAll()
                    self.probes.append({"cell": col_name(c0 + j) + str(r0 + i + 1), "input": v, **read_cell(cell, self)})
                    cell.setFormula(before)
                else:
                    self.set_value(cell, sheet, v)

    def op_insert_rows(self, op: dict[str, Any]) -> None:
        self.sheet(op.get("sheet")).Rows.insertByIndex(op["row"] - 1, op.get("count", 1))

    def op_delete_rows(self, op: dict[str, Any]) -> None:
        self.sheet(op.get("sheet")).Rows.removeByIndex(op["row"] - 1, op.get("count", 1))

    def op_insert_columns(self, op: dict[str, Any]) -> None:
        self.sheet(op.get("sheet")).Columns.insertByIndex(col_index(op["column"]), op.get("count", 1))

    def op_delete_columns(self, op: dict[str, Any]) -> None:
        self.sheet(op.get("sheet")).Columns.removeByIndex(col_index(op["column"]), op.get("count", 1))

    def op_create_sheet(self, op: dict[str, Any]) -> None:
        sheets = self.doc.Sheets
        sheets.insertNewByName(op["name"], op.get("position", sheets.getCount()))

    def op_rename_sheet(self, op: dict[str, Any]) -> None:
        self.sheet(op["old"]).setName(op["new"])

    def op_delete_sheet(self, op: dict[str, Any]) -> None:
        self.doc.Sheets.removeByName(op["name"])

    def op_copy_range(self, op: dict[str, Any]) -> None:
        """Copy a range as Calc's paste does: relative references move by the offset."""
        src = self.sheet(op["src_sheet"])
        if not self.doc.Sheets.hasByName(op["dst_sheet"]):
            self.op_create_sheet({"name": op["dst_sheet"]})
        dst = self.sheet(op["dst_sheet"])
        rng = src.getCellRangeByName(op["src_range"]).RangeAddress
        c0, r0 = split_cell(op.get("dst_cell", "A1"))
        if op.get("values_only"):
            data = src.getCellRangeByName(op["src_range"]).getDataArray()
            h, w = len(data), len(data[0])
            dst.getCellRangeByPosition(c0, r0, c0 + w - 1, r0 + h - 1).setDataArray(data)
            return
        target = CellAddress()
        target.Sheet, target.Column, target.Row = dst.RangeAddress.Sheet, c0, r0
        src.copyRange(target, rng)

    def op_sort(self, op: dict[str, Any]) -> None:
        """Sort a range's rows as Calc's Data > Sort does (references updated as Calc's default)."""
        rng = self.sheet(op.get("sheet")).getCellRangeByName(op["range"])
        start = rng.RangeAddress.StartColumn
        fields = []
        for key in op["by"]:
            field = uno.createUnoStruct("com.sun.star.table.TableSortField")
            field.Field = col_index(key["column"]) - start
            field.IsAscending = key.get("order", "ascending") == "ascending"
            field.IsCaseSensitive = False
            fields.append(field)
        desc = (prop("SortFields", uno.Any("[]com.sun.star.table.TableSortField", tuple(fields))),
                prop("ContainsHeader", bool(op.get("header"))))
        uno.invoke(rng, "sort", (desc,))

    def op_delete_range(self, op: dict[str, Any]) -> None:
        """Delete cells and shift the ones below (up) or to the right (left) into their place."""
        sheet = self.sheet(op.get("sheet"))
        mode = uno.Enum("com.sun.star.sheet.CellDeleteMode", "UP" if op["shift"] == "up" else "LEFT")
        sheet.removeRange(sheet.getCellRangeByName(op["range"]).RangeAddress, mode)

    def op_copy_sheet(self, op: dict[str, Any]) -> None:
        """Copy a sheet as Calc's Move or Copy Sheet does, to a name and position."""
        sheets = self.doc.Sheets
        sheets.copyByName(op["name"], op["new"], op.get("position", sheets.getCount()))

    def apply(self, op: dict[str, Any]) -> None:
        fn = getattr(self, "op_" + op["op"], None)
        if fn is None:
            raise ValueError(f"unknown op {op['op']!r}")
        fn(op)

    def formula(self, cell: Any) -> str:
        try:
            return "=" + self.parser.printFormula(cell.getTokens(), cell.CellAddress)
        except Exception:  # noqa: BLE001 - any UNO failure: fall back to Calc's own syntax
            return str(cell.getFormula())

    def snapshot(self) -> list[dict[str, Any]]:
        out = []
        sheets = self.doc.Sheets
        for i in range(sheets.getCount()):
            sheet = sheets.getByIndex(i)
            cur = sheet.createCursor()
            cur.gotoEndOfUsedArea(False)
            last_col, last_row = cur.RangeAddress.EndColumn, cur.RangeAddress.EndRow
            cells: dict[str, Any] = {}
            for r in range(last_row + 1):
                for c in range(last_col + 1):
                    cell = sheet.getCellByPosition(c, r)
                    got = read_cell(cell, self)
                    if got:
                        cells[col_name(c) + str(r + 1)] = got
            out.append({"name": sheet.Name, "cells": cells})
        return out


    def ranges(self, only: list[str]) -> list[dict[str, Any]]:
        """The cells of the given ranges ("Sheet1!K1:K900"), by sheet, booleans flagged."""
        formats = self.doc.NumberFormats
        out: dict[str, dict[str, Any]] = {}
        for area in only:
            name, _, span = area.rpartition("!")
            sheet = self.sheet(name or None)
            addr = sheet.getCellRangeByName(span).RangeAddress
            cells = out.setdefault(sheet.Name, {})
            for r in range(addr.StartRow, addr.EndRow + 1):
                for c in range(addr.StartColumn, addr.EndColumn + 1):
                    cell = sheet.getCellByPosition(c, r)
                    got = read_cell(cell, self)
                    if "f" in got and isinstance(got.get("v"), float):
                        kind = formats.getByKey(cell.NumberFormat).Type
                        if kind & LOGICAL:
                            got["b"] = True
                    if got:
                        cells[col_name(c) + str(r + 1)] = got
        return [{"name": name, "cells": cells} for name, cells in out.items()]


def structure(doc: Any) -> dict[str, Any]:
    """What Calc read besides values: per sheet its notes, links, hidden rows, whether panes
    are frozen, its own autofilter and its header and footer; the workbook's named database
    ranges (tables)."""
    sheets = doc.Sheets
    ctrl = doc.CurrentController
    out = []
    for i in range(sheets.getCount()):
        sheet = sheets.getByIndex(i)
        notes = {}
        anns = sheet.Annotations
        for k in range(anns.getCount()):
            ann = anns.getByIndex(k)
            pos = ann.Position
            notes[col_name(pos.Column) + str(pos.Row + 1)] = note_text(ann)
        cur = sheet.createCursor()
        cur.gotoEndOfUsedArea(False)
        last_col, last_row = cur.RangeAddress.EndColumn, cur.RangeAddress.EndRow
        hidden = [r + 1 for r in range(last_row + 1) if not sheet.Rows.getByIndex(r).IsVisible]
        links = {}
        for r in range(last_row + 1):
            for c in range(last_col + 1):
                fields = sheet.getCellByPosition(c, r).getTextFields().createEnumeration()
                while fields.hasMoreElements():
                    field = fields.nextElement()
                    if getattr(field, "URL", ""):  # a URL field (Calc names no specific service)
                        links[col_name(c) + str(r + 1)] = {"url": field.URL, "text": field.Representation}
        autofilter = None  # the sheet's own filter: an unnamed database range of the sheet
        unnamed = doc.getPropertyValue("UnnamedDatabaseRanges")
        if unnamed.hasByTable(i):
            rng = unnamed.getByTable(i)
            if rng.AutoFilter:
                autofilter = area_name(rng.DataArea)
        frozen = None
        if ctrl is not None:
            ctrl.setActiveSheet(sheet)
            frozen = bool(ctrl.hasFrozenPanes())
        out.append({"name": sheet.Name, "notes": notes, "links": links, "hidden_rows": hidden, "frozen": frozen,
                    "autofilter": autofilter, "header_footer": header_footer(doc, sheet)})
    ranges = []
    db = doc.DatabaseRanges
    for name in db.ElementNames:
        rng = db.getByName(name)
        ranges.append({"name": name, "sheet": rng.DataArea.Sheet, "range": area_name(rng.DataArea),
                       "autofilter": bool(rng.AutoFilter)})
    return {"sheets": out, "database_ranges": ranges}


def header_footer(doc: Any, sheet: Any) -> dict[str, list[str]]:
    """The sheet's odd-page (or only) header and footer as Calc shows them: the texts of the
    left, center and right sections, read from the sheet's page style."""
    style = doc.StyleFamilies.getByName("PageStyles").getByName(sheet.PageStyle)
    out: dict[str, list[str]] = {}
    for key, name in (("header", "RightPageHeaderContent"), ("footer", "RightPageFooterContent")):
        content = style.getPropertyValue(name)
        out[key] = [str(content.LeftText.String), str(content.CenterText.String), str(content.RightText.String)]
    return out


def note_text(ann: Any) -> str:
    """A note's text as its caption shows it.

    In LibreOffice 25.2 the annotation's own String is empty for notes read from some xlsx
    files (those openpyxl writes, and excelize's on a fresh sheet), while the caption shape
    (AnnotationShape) holds the text; in 7.4 both hold it.
    """
    text = str(ann.String)
    if not text and ann.AnnotationShape is not None:
        text = str(ann.AnnotationShape.String)
    return text


def area_name(addr: Any) -> str:
    """A CellRangeAddress as "A1:C3"."""
    return f"{col_name(addr.StartColumn)}{addr.StartRow + 1}:{col_name(addr.EndColumn)}{addr.EndRow + 1}"


def read_cell(cell: Any, book: Book) -> dict[str, Any]:
    """One cell as the answer shows it ({} for an empty cell)."""
    kind = cell.getType().value
    if kind == EMPTY:
        return {}
    if kind == VALUE:
        return {"v": cell.getValue()}
    if kind == TEXT:
        return {"v": cell.getString()}
    got: dict[str, Any] = {"f": book.formula(cell)}
    if cell.getError() != 0:
        got["e"] = cell.getString()
    elif cell.FormulaResultType2 == RESULT_STRING:
        got["v"] = cell.getString()
    else:
        got["v"] = cell.getValue()
    return got


def run(office: Office, req: dict[str, Any]) -> dict[str, Any]:
    doc = office.open(req.get("path"))
    try:
        book = Book(doc)
        on_open = book.snapshot() if req.get("on_open") else None
        extra = structure(doc) if req.get("structure") else None
        if req.get("only"):
            # A batch of formulas: each is computed once, by the calculateAll below, rather
            # than as it is set (interpreting thousands one by one takes minutes).
            doc.enableAutomaticCalculation(False)
        for op in req.get("ops", []):
            book.apply(op)
        doc.calculateAll()
        cells = book.ranges(req["only"]) if req.get("only") else book.snapshot()
        ans: dict[str, Any] = {"ok": True, "sheets": cells, "probes": book.probes}
        if on_open is not None:
            ans["on_open"] = on_open
        if extra is not None:
            ans["structure"] = extra
        if req.get("save"):
            url = uno.systemPathToFileUrl(os.path.abspath(req["save"]))
            doc.storeToURL(url, (prop("FilterName", "Calc MS Excel 2007 XML"),))
        return ans
    finally:
        doc.close(True)


def serve(office: Office) -> None:
    out = sys.stdout
    out.write(json.dumps({"ok": True, "ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if req.get("cmd") == "quit":
                break
            if req.get("cmd") != "run":
                raise ValueError(f"unknown cmd {req.get('cmd')!r}")
            ans = run(office, req)
        except Exception as exc:  # noqa: BLE001 - the server outlives one bad request
            ans = {"ok": False, "error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}
        out.write(json.dumps(ans, ensure_ascii=False) + "\n")
        out.flush()


def main(argv: list[str]) -> int:
    office = Office()
    try:
        if len(argv) > 1:
            ops = []
            if len(argv) > 2:
                with open(argv[2]) as fh:
                    ops = json.load(fh)
            print(json.dumps(run(office, {"path": None if argv[1] == "-" else argv[1], "ops": ops}), ensure_ascii=False, indent=1))
        else:
            serve(office)
    finally:
        office.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
