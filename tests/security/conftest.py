"""Fixtures of the security suite: the attacks run end to end
against the built binary, $REGISTRY_SIDECAR_BIN (set by ``make py-test``),
else ``bin/registry-sidecar`` built with ``go build``."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "security: the attacks on the workspace, the renderer and the listeners, end to end against the built binary")
