"""`make wheels`: a platform wheel per released platform and an sdist.

Each wheel's tag matches the binary it carries (format, CPU, static on
Linux, lowest macOS version); pip picks the right wheel for each platform
from the folder, as the README's install command has it; the Linux aarch64
wheel's binary runs under qemu-user (Debian's qemu-user-static) and completes
a tool call; the sdist builds the binary from source where Go exists.

The release folder is $REGISTRY_SIDECAR_RELEASE (`make py-test` builds it
with `make wheels` and sets it); without it the suite skips.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest
from binfmt import identify

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: Platform tag -> (format, CPU, file name of the binary in the wheel).
EXPECTED = {
    "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64": ("ELF", "x86_64", "registry-sidecar"),
    "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64": ("ELF", "aarch64", "registry-sidecar"),
    "macosx_12_0_x86_64": ("Mach-O", "x86_64", "registry-sidecar"),
    "macosx_12_0_arm64": ("Mach-O", "arm64", "registry-sidecar"),
}
#: A platform pip may run on -> the tag of the wheel it must pick.
PICKS = {
    "manylinux_2_28_x86_64": "manylinux_2_17_x86_64",
    "musllinux_1_2_x86_64": "manylinux_2_17_x86_64",
    "manylinux_2_31_aarch64": "manylinux_2_17_aarch64",
    "musllinux_1_2_aarch64": "manylinux_2_17_aarch64",
    "macosx_14_0_arm64": "macosx_12_0_arm64",
    "macosx_13_0_x86_64": "macosx_12_0_x86_64",
}
QEMU_TIMEOUT_S = 120
WRITE_ARGS = {"file_path": "arm.xlsx", "cell_range": "A1:B1", "values": [["built for", "aarch64"]]}


@pytest.fixture(scope="module")
def release() -> pathlib.Path:
    given = os.environ.get("REGISTRY_SIDECAR_RELEASE")
    if not given:
        pytest.skip("no $REGISTRY_SIDECAR_RELEASE: run `make wheels` and point it at dist/release (make py-test does)")
    return pathlib.Path(given)


def _wheels(release: pathlib.Path) -> dict[str, pathlib.Path]:
    """The release's wheels by platform tag (the file name's last part)."""
    return {whl.name.removesuffix(".whl").split("-")[-1]: whl for whl in release.glob("registry_sidecar-*.whl")}


def _pip_platforms(platform: str) -> list[str]:
    """The platform tags pip running on that platform accepts, newest first:
    pip expands a glibc or musl version to every older one itself, but not for
    a --platform given on the command line (packaging.tags' rule)."""
    for family, low in (("manylinux_2_", 17), ("musllinux_1_", 0)):
        if platform.startswith(family):
            minor, arch = platform.removeprefix(family).split("_", 1)
            tags = [f"{family}{m}_{arch}" for m in range(int(minor), low - 1, -1)]
            return tags + ([f"manylinux2014_{arch}"] if family == "manylinux_2_" else [])
    return [platform]


def test_release_has_a_wheel_per_platform_and_an_sdist(release: pathlib.Path) -> None:
    wheels = _wheels(release)
    assert set(wheels) == set(EXPECTED), sorted(wheels)
    for whl in wheels.values():
        assert "-py3-none-" in whl.name, "one wheel serves every Python 3 (the binary is not an extension)"
    assert len(list(release.glob("registry_sidecar-*.tar.gz"))) == 1


@pytest.mark.parametrize("platform", sorted(EXPECTED))
def test_wheel_carries_the_binary_of_its_tag(release: pathlib.Path, platform: str) -> None:
    fmt, arch, name = EXPECTED[platform]
    whl = _wheels(release)[platform]
    with zipfile.ZipFile(whl) as zf:
        binaries = [i for i in zf.infolist() if "/_bin/" in i.filename]
        assert [i.filename for i in binaries] == [f"registry_sidecar/_bin/{name}"]
        assert (binaries[0].external_attr >> 16) & 0o111, "the binary is executable"
        wheel_meta = zf.read(next(n for n in zf.namelist() if n.endswith(".dist-info/WHEEL"))).decode()
        exe = identify(zf.read(binaries[0]))
    assert "Root-Is-Purelib: false" in wheel_meta
    tags = sorted(line.split(": ", 1)[1] for line in wheel_meta.splitlines() if line.startswith("Tag: "))
    assert tags == sorted(f"py3-none-{p}" for p in platform.split(".")), "WHEEL's tags are the file name's"
    assert (exe.format, exe.arch) == (fmt, arch)
    if fmt == "ELF":
        assert exe.static, "a static binary: one wheel for glibc and musl systems"
    if fmt == "Mach-O":
        assert exe.min_os is not None and exe.min_os <= (12, 0), f"runs on macOS {exe.min_os}, tagged 12.0"


@pytest.mark.parametrize("platform", sorted(PICKS))
def test_pip_picks_the_wheel_of_each_platform(release: pathlib.Path, platform: str, tmp_path: pathlib.Path) -> None:
    """What the README's install command does on that platform: pip, given
    the folder, takes the wheel whose tag fits."""
    out = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-index", "--find-links", str(release), "--only-binary=:all:",
         *[f"--platform={p}" for p in _pip_platforms(platform)],
         "--python-version", "3.12", "-d", str(tmp_path), "registry-sidecar"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    [got] = list(tmp_path.glob("*.whl"))
    assert PICKS[platform] in got.name, got.name


def _install(release: pathlib.Path, platform: str | None, target: pathlib.Path) -> pathlib.Path:
    """pip install --target, as on platform (None: this machine)."""
    platforms = [f"--platform={p}" for p in _pip_platforms(platform)] if platform else []
    out = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-index", "--find-links", str(release), "--only-binary=:all:", *platforms,
         "--target", str(target), "registry-sidecar"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return target / "registry_sidecar" / "_bin" / "registry-sidecar"


def _qemu() -> str:
    for name in ("qemu-aarch64-static", "qemu-aarch64"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("qemu-user is not installed (`apt-get install qemu-user-static`; make qemu-deps does it as root)")


def test_aarch64_wheel_runs_under_qemu(release: pathlib.Path, tmp_path: pathlib.Path) -> None:
    qemu = _qemu()
    binary = _install(release, "manylinux_2_31_aarch64", tmp_path / "site")
    assert identify(binary.read_bytes()).arch == "aarch64"
    version = subprocess.run([qemu, str(binary), "--version"], capture_output=True, text=True, timeout=QEMU_TIMEOUT_S)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("registry-sidecar ") and "protocol 1" in version.stdout
    ws = tmp_path / "ws"
    call = subprocess.run(
        [qemu, str(binary), "call", "--workspace", str(ws), "--log-level", "error", "write_cells",
         json.dumps(WRITE_ARGS)],
        capture_output=True, text=True, timeout=QEMU_TIMEOUT_S,
    )
    assert call.returncode == 0, call.stdout + call.stderr
    assert json.loads(call.stdout)["status"] == "success"
    read = subprocess.run(
        [qemu, str(binary), "call", "--workspace", str(ws), "--log-level", "error", "read_excel", "-"],
        input=json.dumps({"file_path": "arm.xlsx"}), capture_output=True, text=True, timeout=QEMU_TIMEOUT_S,
    )
    assert read.returncode == 0, read.stderr
    assert json.loads(read.stdout)["columns"] == ["built for", "aarch64"]


def test_x86_64_wheel_runs_here(release: pathlib.Path, tmp_path: pathlib.Path) -> None:
    if os.uname().machine != "x86_64":
        pytest.skip("not an x86_64 machine")
    binary = _install(release, None, tmp_path / "site")
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    assert version.returncode == 0 and "protocol 1" in version.stdout


def test_sdist_carries_the_go_sources(release: pathlib.Path) -> None:
    [sdist] = list(release.glob("registry_sidecar-*.tar.gz"))
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for needed in ("setup.py", "pyproject.toml", "go/go.mod", "go/go.sum", "go/cmd/registry-sidecar/main.go",
                   "go/excelops/excel_functions.txt", "go/LICENSE"):
        assert needed in names, needed
    assert not [n for n in names if n.endswith("_test.go") or "/testdata/" in n or "/_bin/" in n]
    assert not [n for n in names if n.startswith(("go/adapters/", "go/tests/", "go/deploy/"))]


def test_sdist_builds_the_binary_where_go_exists(release: pathlib.Path, tmp_path: pathlib.Path) -> None:
    if shutil.which("go") is None:
        pytest.skip("Go is not on PATH")
    [sdist] = list(release.glob("registry_sidecar-*.tar.gz"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("REGISTRY_SIDECAR_WHEEL")}
    out = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-cache-dir", "--target", str(tmp_path / "site"), str(sdist)],
        capture_output=True, text=True, timeout=900, env=env,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    binary = tmp_path / "site" / "registry_sidecar" / "_bin" / "registry-sidecar"
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30)
    assert version.returncode == 0 and "protocol 1" in version.stdout


def test_readme_says_how_to_install_on_each_platform() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Install") :]
    section = section[: section.index("\n## ", 1)]
    for words in ("Linux", "x86_64", "aarch64", "musl", "macOS", "Apple silicon", "Intel", "Windows", "WSL",
                  "pip install --find-links dist/release registry-sidecar", "sdist"):
        assert words in section, words
