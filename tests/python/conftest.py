"""Shared fixtures for the cross-language Python suites under tests/python."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def sidecar_bin() -> pathlib.Path:
    """The registry-sidecar binary: $REGISTRY_SIDECAR_BIN, else built into bin/."""
    env = os.environ.get("REGISTRY_SIDECAR_BIN")
    if env:
        return pathlib.Path(env)
    out = ROOT / "bin" / "registry-sidecar"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/registry-sidecar"], cwd=ROOT, check=True)
    return out


@pytest.fixture(scope="session")
def libreoffice() -> Iterator[Any]:
    """One LibreOffice oracle (tests/oracle/lo_driver.py, one soffice) for the whole session.

    Skips, saying why, only where LibreOffice or python3-uno is missing.
    """
    sys.path.insert(0, str(ROOT / "tests" / "oracle"))
    import oracle

    why = oracle.unavailable()
    if why:
        pytest.skip(f"LibreOffice oracle unavailable: {why}")
    lo = oracle.LibreOffice()
    try:
        yield lo
    finally:
        lo.close()
