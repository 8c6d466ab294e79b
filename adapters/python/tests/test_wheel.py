"""The README's Python example works after a plain install of the platform
wheel (``make wheel``): installed into a fresh venv outside the repository,
with no $REGISTRY_SIDECAR_BIN and no registry-sidecar on PATH, the package
finds the binary the wheel carries."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import zipfile

import pytest

HERE = pathlib.Path(__file__).resolve().parent
README = HERE.parent / "README.md"
PACKAGE = HERE.parent


@pytest.fixture(scope="module")
def wheel(sidecar_binary: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The wheel `make wheel` built ($REGISTRY_SIDECAR_WHEEL), else one built
    here the same way from the test binary."""
    given = os.environ.get("REGISTRY_SIDECAR_WHEEL")
    if given:
        return pathlib.Path(given)
    out = tmp_path_factory.mktemp("dist")
    env = {**os.environ, "REGISTRY_SIDECAR_WHEEL_BINARY": str(sidecar_binary)}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(PACKAGE)],
                   env=env, check=True, capture_output=True, text=True, timeout=300)
    [whl] = out.glob("registry_sidecar-*.whl")
    return whl


@pytest.fixture(scope="module")
def venv(wheel: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A fresh venv, outside the repository, with the wheel installed."""
    root = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(root)], check=True, timeout=120)
    py = root / "bin" / "python"
    out = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)],
                         capture_output=True, text=True, timeout=300, env=_clean_env())
    assert out.returncode == 0, out.stderr
    return root


def _clean_env() -> dict[str, str]:
    """The environment of a user who just installed the wheel: no
    $REGISTRY_SIDECAR_BIN, no registry-sidecar on PATH, no PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("REGISTRY_SIDECAR_BIN", "PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and not (pathlib.Path(p) / "registry-sidecar").exists())
    return env


def test_wheel_is_a_platform_wheel_carrying_the_binary(wheel: pathlib.Path, sidecar_binary: pathlib.Path) -> None:
    assert not wheel.name.endswith("-none-any.whl"), "a wheel with a binary is tagged for its platform"
    with zipfile.ZipFile(wheel) as zf:
        [entry] = [i for i in zf.infolist() if i.filename.endswith("registry_sidecar/_bin/registry-sidecar")]
        assert entry.filename == "registry_sidecar/_bin/registry-sidecar", "in the wheel's root (platlib), not .data/"
        assert (entry.external_attr >> 16) & 0o111, "the binary is executable"
        assert "Root-Is-Purelib: false" in zf.read(next(n for n in zf.namelist() if n.endswith("/WHEEL"))).decode()
        metadata = zf.read(next(n for n in zf.namelist() if n.endswith("/METADATA"))).decode()
        assert "License-Expression: MIT" in metadata
        assert any(n.endswith("/licenses/LICENSE") for n in zf.namelist())
        bundled = zf.read(entry)
    assert bundled == sidecar_binary.read_bytes(), "the binary built from this checkout"


def test_readme_example_runs_from_the_installed_wheel(venv: pathlib.Path, tmp_path: pathlib.Path) -> None:
    code = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)[0]
    (tmp_path / "workspace").mkdir()
    py = venv / "bin" / "python"
    which = subprocess.run([str(py), "-m", "registry_sidecar", "--which"], cwd=tmp_path, env=_clean_env(),
                           capture_output=True, text=True, timeout=60)
    assert which.returncode == 0, which.stderr
    found = pathlib.Path(which.stdout.splitlines()[0])
    assert found.is_relative_to(venv), f"the binary comes from the wheel, not {found}"
    assert "protocol 1" in which.stdout
    out = subprocess.run([str(py), "-c", code], cwd=tmp_path, env=_clean_env(), capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "write_cells" in lines[0]
    assert json.loads(lines[1])["status"] == "success"
    assert json.loads(lines[2])["rows"] == [["apple", 3]]
    assert (tmp_path / "workspace" / "demo.xlsx").is_file()
