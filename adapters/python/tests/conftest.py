"""Fixtures of the adapter's test suite.

End-to-end tests run against the real binary: ``$REGISTRY_SIDECAR_BIN`` (set
by ``make test``), else ``<repo>/bin/registry-sidecar``, built with ``go build``
when missing. When it cannot be built they are skipped with the reason.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from fake_server import FakeServer  # noqa: E402

from registry_sidecar import Client, Sidecar  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def sidecar_binary() -> pathlib.Path:
    """The real registry-sidecar binary."""
    env = os.environ.get("REGISTRY_SIDECAR_BIN")
    if env:
        return pathlib.Path(env)
    out = REPO / "bin" / "registry-sidecar"
    if not out.exists():
        proc = subprocess.run(
            ["go", "build", "-o", str(out), "./cmd/registry-sidecar"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            pytest.skip(f"cannot build registry-sidecar: {proc.stderr.strip()[-500:]}")
    return out


@pytest.fixture(scope="session")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A workspace directory shared by the session's sidecar."""
    return tmp_path_factory.mktemp("workspace")


@pytest.fixture(scope="session")
def sidecar(sidecar_binary: pathlib.Path, workspace: pathlib.Path) -> Iterator[Sidecar]:
    """One sidecar with the test tools for the whole session."""
    with Sidecar.launch(workspace, binary=sidecar_binary, args=["--test-tools"]) as sc:
        yield sc


@pytest.fixture(scope="session")
def client(sidecar: Sidecar) -> Iterator[Client]:
    """A connected Client of the session sidecar."""
    with Client(sidecar.url, token=sidecar.token, sidecar=sidecar) as c:
        yield c


@pytest.fixture
def own_sidecar(sidecar_binary: pathlib.Path, tmp_path: pathlib.Path) -> Iterator[Sidecar]:
    """A sidecar of this test alone (for tests that kill it)."""
    with Sidecar.launch(tmp_path, binary=sidecar_binary, args=["--test-tools"]) as sc:
        yield sc


@pytest_asyncio.fixture
async def fake_server() -> AsyncIterator[FakeServer]:
    """A scriptable WebSocket server on a real loopback socket."""
    srv = FakeServer()
    await srv.start()
    yield srv
    await srv.stop()
