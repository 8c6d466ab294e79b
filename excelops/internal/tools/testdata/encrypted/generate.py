"""Regenerate the encrypted workbook fixtures of excelops/internal/tools/pkgopen_test.go.

Run from this folder with a Python that has openpyxl and msoffcrypto-tool:

    python -m venv /tmp/v && /tmp/v/bin/pip install openpyxl msoffcrypto-tool
    /tmp/v/bin/python generate.py

default_password.xlsx is encrypted with Excel's default password
("VelvetSweatshop", what Excel uses for read-only-recommended files);
secret_password.xlsx with a password of its own. Both hold the same sheet.
"""

from __future__ import annotations

import io

import msoffcrypto  # type: ignore[import-untyped]
from msoffcrypto.format.ooxml import OOXMLFile  # type: ignore[import-untyped]
from openpyxl import Workbook


def plain() -> bytes:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Data"
    ws.append(["name", "amount"])
    ws.append(["apples", 3])
    ws.append(["pears", 4.5])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def encrypt(data: bytes, password: str, path: str) -> None:
    src = OOXMLFile(io.BytesIO(data))
    with open(path, "wb") as out:
        src.encrypt(password, out)
    # Check: it decrypts back to the same package.
    with open(path, "rb") as f:
        back = msoffcrypto.OfficeFile(f)
        back.load_key(password=password)
        dec = io.BytesIO()
        back.decrypt(dec)
    assert dec.getvalue() == data


if __name__ == "__main__":
    d = plain()
    encrypt(d, "VelvetSweatshop", "default_password.xlsx")
    encrypt(d, "s3cret", "secret_password.xlsx")
