"""Security: one formula cannot sink the process.

``=REPT(REPT("a",32767),32767)`` asks for a 1 GiB text. Excel answers ``#VALUE!`` for a
text result over 32,767 characters; the sidecar must too, quickly and in little memory,
and leave a workbook every tool still reads and edits.
"""

from __future__ import annotations

import pathlib
import resource
import time
import zipfile

import openpyxl
import pytest
from secutil import payload, vm_hwm_kib

from registry_sidecar import Client, Sidecar

pytestmark = pytest.mark.security

BOMB = '=REPT(REPT("a",32767),32767)'
#: The issue asks for 2 s; the assertion leaves room for a loaded 2-core machine.
MAX_SECONDS = 5.0
#: The issue asks for 200 MB peak RSS; the assertion leaves some room.
MAX_RSS_MB = 300
#: Address-space cap put on the sidecar so a failing run dies early instead of
#: taking gigabytes of a shared machine (an idle sidecar maps about 1.3 GB).
ADDRESS_SPACE_CAP = 4 << 30


def test_rept_bomb_is_value_error(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    wb = openpyxl.Workbook()
    sheet = wb.active
    assert sheet is not None
    sheet.title = "Data"
    sheet["A1"] = "keep"
    sheet["A2"] = 41
    wb.save(tmp_path / "book.xlsx")
    with Sidecar.launch(tmp_path, binary=sidecar_bin) as sc, Client(sc.url, token=sc.token, call_timeout=60) as c:
        pid = sc.pid
        assert pid is not None
        resource.prlimit(pid, resource.RLIMIT_AS, (ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP))
        t0 = time.monotonic()
        try:
            r = c.call_tool("write_cells", {"file_path": "book.xlsx", "sheet_name": "Data", "cell": "B1", "value": BOMB})
        except OSError as exc:  # the adapter lets a connection lost mid-call escape as OSError
            sc.exited(5)
            pytest.fail(f"the connection broke during the call ({exc}); sidecar (under a {ADDRESS_SPACE_CAP >> 30} GiB address-space cap) exit status {sc.returncode}; stderr: {sc.stderr_tail()[-3:]}")
        took = time.monotonic() - t0
        alive = sc.alive
        peak_mb = vm_hwm_kib(pid) / 1024 if alive else float("nan")
        print(f"\nREPT bomb: answered in {took:.2f} s, sidecar peak RSS {peak_mb:.0f} MB: {r.text[:200]}")
        assert alive, f"the sidecar died: {sc.stderr_tail()[-3:]}"
        assert took < MAX_SECONDS, f"the answer took {took:.1f} s"
        assert peak_mb < MAX_RSS_MB, f"peak RSS {peak_mb:.0f} MB"
        assert not r.is_error, r.text
        read = c.call_tool("read_excel", {"file_path": "book.xlsx", "sheet_name": "Data", "range": "A1:B2"})
        assert payload(read.text).get("values") == [["keep", "#VALUE!"], [41, None]], read.text
        both = c.call_tool("read_excel", {"file_path": "book.xlsx", "sheet_name": "Data", "range": "B1", "formulas": "both"})
        assert payload(both.text).get("values") == [[{"formula": BOMB, "value": "#VALUE!"}]], both.text
        # Every tool still reads and edits the sheet.
        edit = c.call_tool("write_cells", {"file_path": "book.xlsx", "sheet_name": "Data", "cell": "A3", "value": "=A2+1"})
        assert not edit.is_error, edit.text
        fmt = c.call_tool("format_cells", {"file_path": "book.xlsx", "sheet_name": "Data", "cell_range": "A1:B1", "font": {"bold": True}})
        assert not fmt.is_error, fmt.text
        rows = c.call_tool("insert_rows", {"file_path": "book.xlsx", "sheet_name": "Data", "row": 1})
        assert not rows.is_error, rows.text
        after = c.call_tool("read_excel", {"file_path": "book.xlsx", "sheet_name": "Data", "range": "A2:B4"})
        assert payload(after.text).get("values") == [["keep", "#VALUE!"], [41, None], [42, None]], after.text
        assert vm_hwm_kib(pid) / 1024 < MAX_RSS_MB
    with zipfile.ZipFile(tmp_path / "book.xlsx") as z:
        biggest = max(info.file_size for info in z.infolist())
    assert biggest < 1 << 20, f"a part of {biggest} bytes was saved"
    cached = openpyxl.load_workbook(tmp_path / "book.xlsx", data_only=True)["Data"]
    assert cached["B2"].value == "#VALUE!"
    assert openpyxl.load_workbook(tmp_path / "book.xlsx")["Data"]["B2"].value == BOMB
