"""A wheel or an install from the checkout never carries an earlier build's
binary: with Go on PATH the build compiles the binary afresh, without Go it
ships none, and no ``build/`` folder is left behind either way.

Each case builds in a copy of the checkout (its tracked and unignored files,
as a fresh clone has them) with a stale binary planted where setuptools'
``build_py`` used to leave one.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
STALE = b"#!/bin/sh\necho stale binary from an earlier build\n"
#: Where setuptools' build_py put the binary of an earlier build.
STALE_PATH = pathlib.PurePosixPath("build", "lib", "registry_sidecar", "_bin", "registry-sidecar")
BUILD_TIMEOUT_S = 600


def _copy_checkout(dest: pathlib.Path) -> pathlib.Path:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True, timeout=60,
    ).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = REPO / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest / "adapters" / "python"


def _plant_stale(package: pathlib.Path) -> None:
    stale = package / STALE_PATH
    stale.parent.mkdir(parents=True, exist_ok=True)
    stale.write_bytes(STALE)
    stale.chmod(0o755)


def _env(with_go: bool, go: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("REGISTRY_SIDECAR_WHEEL_BINARY", "REGISTRY_SIDECAR_WHEEL_TARGET", "PYTHONPATH")}
    go_dir = str(pathlib.Path(go).parent)
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p and not (pathlib.Path(p) / "go").exists()]
    env["PATH"] = os.pathsep.join(([go_dir] if with_go else []) + path)
    return env


@pytest.fixture(scope="module")
def go() -> str:
    found = shutil.which("go")
    if found is None:
        pytest.skip("Go is not on PATH: the build with Go cannot be tried")
    return found


def _pip(args: list[str], env: dict[str, str], cwd: pathlib.Path) -> None:
    out = subprocess.run([sys.executable, "-m", "pip", *args, "--disable-pip-version-check", "--no-cache-dir"],
                         cwd=cwd, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]


def _wheel(package: pathlib.Path, out: pathlib.Path, env: dict[str, str]) -> pathlib.Path:
    _pip(["wheel", "--quiet", "--no-deps", "-w", str(out), str(package)], env, package.parent)
    [whl] = out.glob("registry_sidecar-*.whl")
    return whl


def _bundled(whl: pathlib.Path) -> bytes | None:
    with zipfile.ZipFile(whl) as zf:
        names = [n for n in zf.namelist() if "/_bin/" in n]
        assert len(names) <= 1, names
        return zf.read(names[0]) if names else None


def test_wheel_with_go_then_without_go(go: str, tmp_path: pathlib.Path) -> None:
    package = _copy_checkout(tmp_path / "checkout")
    _plant_stale(package)
    first = _wheel(package, tmp_path / "with-go", _env(True, go))
    binary = _bundled(first)
    assert binary is not None and binary != STALE, "with Go the wheel carries a binary compiled now"
    assert not first.name.endswith("-none-any.whl"), first.name
    assert not (package / "build").exists(), "the build removed its build/ folder"
    exe = tmp_path / "registry-sidecar"
    exe.write_bytes(binary)
    exe.chmod(0o755)
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=30)
    assert version.stdout.startswith("registry-sidecar "), version

    _plant_stale(package)
    second = _wheel(package, tmp_path / "without-go", _env(False, go))
    assert second.name.endswith("-py3-none-any.whl"), f"without Go the wheel is pure: {second.name}"
    assert _bundled(second) is None, "without Go the wheel carries no binary, not an earlier one"
    assert not (package / "build").exists()


def test_install_without_go_after_a_build_with_go(go: str, tmp_path: pathlib.Path) -> None:
    """The issue's sequence: an install with Go, then one without Go and
    without pip's cache; the second installs a pure package."""
    package = _copy_checkout(tmp_path / "checkout")
    with_go, without_go = tmp_path / "site-with-go", tmp_path / "site-without-go"
    _pip(["install", "--quiet", "--no-deps", "--target", str(with_go), str(package)], _env(True, go), package.parent)
    assert (with_go / "registry_sidecar" / "_bin" / "registry-sidecar").is_file()
    _plant_stale(package)
    _pip(["install", "--quiet", "--no-deps", "--target", str(without_go), str(package)], _env(False, go),
         package.parent)
    assert (without_go / "registry_sidecar" / "__init__.py").is_file()
    assert not (without_go / "registry_sidecar" / "_bin").exists(), "no binary without Go"
    assert not (package / "build").exists()


def test_build_outputs_are_ignored() -> None:
    for path in ("adapters/python/build/lib/x", "build/x", "dist/x.whl", ".venv-build/x",
                 "adapters/python/src/registry_sidecar.egg-info/PKG-INFO"):
        out = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=REPO, timeout=30)
        assert out.returncode == 0, f"{path} is not ignored by .gitignore"
