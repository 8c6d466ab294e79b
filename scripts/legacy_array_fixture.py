"""Build excelops/internal/tools/testdata/legacy_arrays*.xlsx: legacy array formulas of several shapes.

openpyxl writes each workbook (the formula on its first cell only, as Excel stores a
Ctrl+Shift+Enter formula); LibreOffice opens and saves it again, so every cell of each
range carries Calc's cached value. legacy_arrays.xlsx holds A1 = 1, legacy_arrays_after.xlsx
A1 = 5: the Go test writes 5 into A1 of the first and compares with the second.

Run: .venv/bin/python scripts/legacy_array_fixture.py (needs soffice).
"""

import shutil
import subprocess
import tempfile
from pathlib import Path

from openpyxl import Workbook
from openpyxl.worksheet.formula import ArrayFormula

OUT = Path(__file__).resolve().parent.parent / "excelops" / "internal" / "tools" / "testdata"

# range -> formula: same size, one column over two, 1x1 over 2x2, array smaller than the
# range, a column over a row, one cell written as a range; then a 3x2 array over 4x3 (#N/A
# past it both ways), a row over a taller range, a scalar over a range, texts, and a function
# the engine lacks (INFO: its cells and their readers stay without a value)
ARRAYS = {
    "I1:I3": "=A1:A3*2",
    "K1:L3": "=A1:A3*2",
    "N1:O2": "=SUM(A1:A3)",
    "Q1:Q4": "=A1:A3*2",
    "S1:T1": "=A1:A3*2",
    "X1:X1": "=SUM(A1:A3*2)",
    "D6:F9": "=A1:B3*1",
    "H6:J8": "=TRANSPOSE(A1:A3)",
    "O6:P8": "=A1*3",
    "R6:R8": '=IF(A1:A3>1,"big","small")',
    "Z6:Z8": '=IFERROR(INFO("numfile")*0+A1:A3,0)',
}

# plain formulas reading the arrays' ranges: cells other than their first, whole ranges
READERS = {
    "V1": "=L1+1",
    "V2": "=SUM(N1:O2)",
    "V3": "=T1*1",
    "V4": "=I3+L3",
    "V5": "=SUM(K1:L3)",
    "V6": "=SUM(D6:E8)",
    "V7": "=ISNA(F6)",
    "V8": "=Z7+1",
    "V9": '=R7&"!"',
    "V10": "=SUM(H6:J8)",
}


def build(path: Path, a1: int) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    for row, (a, b) in enumerate(zip([a1, 2, 3], [11, 12, 13], strict=True), start=1):
        ws.cell(row=row, column=1, value=a)
        ws.cell(row=row, column=2, value=b)  # the same in both: only A1 is edited
    for ref, formula in ARRAYS.items():
        ws[ref.split(":")[0]] = ArrayFormula(ref, formula)
    for ref, formula in READERS.items():
        ws[ref] = formula
    wb.save(path)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, a1 in (("legacy_arrays.xlsx", 1), ("legacy_arrays_after.xlsx", 5)):
            src = Path(tmp) / "src" / name
            src.parent.mkdir(exist_ok=True)
            build(src, a1)
            out = Path(tmp) / "out"
            subprocess.run(
                [
                    "soffice",
                    f"-env:UserInstallation=file://{tmp}/profile",
                    "--headless",
                    "--convert-to",
                    "xlsx:Calc MS Excel 2007 XML",
                    "--outdir",
                    str(out),
                    str(src),
                ],
                check=True,
                capture_output=True,
                timeout=120,
            )
            shutil.copy(out / name, OUT / name)


if __name__ == "__main__":
    main()
