"""Fixtures of the MCP Python SDK 2.x suite (run in .venv-mcp2 by `make test`)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "python"))


@pytest.fixture(scope="session")
def sidecar_bin() -> pathlib.Path:
    """The registry-sidecar binary: $REGISTRY_SIDECAR_BIN, else built into bin/."""
    env = os.environ.get("REGISTRY_SIDECAR_BIN")
    if env:
        return pathlib.Path(env)
    out = ROOT / "bin" / "registry-sidecar"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/registry-sidecar"], cwd=ROOT, check=True)
    return out
