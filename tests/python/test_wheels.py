"""`make wheels`: a platform wheel per released platform and an sdist.

Each wheel's tag matches the binary it carries (format, CPU, static on
Linux, lowest macOS version, a console program on Windows); pip picks the
right wheel for each platform from the folder, as the README's install
command has it; the Linux aarch64 wheel's binary runs under qemu-user
(Debian's qemu-user-static) and completes a tool call, and so does the
Windows wheel's under wine (Debian's wine64, with mingw-w64 for a stand-in
DLL wine 8 lacks); the sdist builds the binary from source where Go exists.

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
    "win_amd64": ("PE", "amd64", "registry-sidecar.exe"),
}
#: A platform pip may run on -> the tag of the wheel it must pick.
PICKS = {
    "manylinux_2_28_x86_64": "manylinux_2_17_x86_64",
    "musllinux_1_2_x86_64": "manylinux_2_17_x86_64",
    "manylinux_2_31_aarch64": "manylinux_2_17_aarch64",
    "musllinux_1_2_aarch64": "manylinux_2_17_aarch64",
    "macosx_14_0_arm64": "macosx_12_0_arm64",
    "macosx_13_0_x86_64": "macosx_12_0_x86_64",
    "win_amd64": "win_amd64",
}
QEMU_TIMEOUT_S = 120
WRITE_ARGS = {"file_path": "arm.xlsx", "cell_range": "A1:B1", "values": [["built for", "aarch64"]]}
#: Seconds one wine run may take (the first one also makes the wine prefix).
WINE_TIMEOUT_S = 180
#: The stand-in bcryptprimitives.dll's source (see its header).
WINE_STUB = pathlib.Path(__file__).resolve().parent / "wine"


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
    if fmt == "PE":
        assert exe.console, "a console program: its handshake and logs go to the pipes Sidecar.launch reads"


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
    """pip install --target, as on platform (None: this machine); returns the
    bundled binary."""
    platforms = [f"--platform={p}" for p in _pip_platforms(platform)] if platform else []
    out = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-index", "--find-links", str(release), "--only-binary=:all:", *platforms,
         "--target", str(target), "registry-sidecar"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    name = "registry-sidecar.exe" if platform == "win_amd64" else "registry-sidecar"
    return target / "registry_sidecar" / "_bin" / name


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


def _wine() -> str:
    for name in ("wine64", "wine"):
        found = shutil.which(name)
        if found:
            return found
    if os.access("/usr/lib/wine/wine64", os.X_OK):  # Debian's wine64 without the wine wrapper
        return "/usr/lib/wine/wine64"
    pytest.skip("wine is not installed (`apt-get install wine64 gcc-mingw-w64-x86-64-win32`; make wine-deps does it as root)")


def _wine_run(wine: str, env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([wine, *args], input=stdin, capture_output=True, text=True, timeout=WINE_TIMEOUT_S, env=env)


def _wine_ready(wine: str, env: dict[str, str], binary: pathlib.Path, prefix: pathlib.Path) -> None:
    """Make the private prefix run Go binaries: wine before 9 has no
    bcryptprimitives.dll, so the stand-in is built into it (or the test skips)."""
    first = _wine_run(wine, env, str(binary), "--version")
    if "bcryptprimitives.dll not found" not in first.stderr:
        return
    gcc = shutil.which("x86_64-w64-mingw32-gcc")
    if gcc is None:
        pytest.skip("this wine lacks bcryptprimitives.dll and mingw-w64 is not installed to build the stand-in "
                    "(`apt-get install gcc-mingw-w64-x86-64-win32`)")
    system32 = prefix / "drive_c" / "windows" / "system32"
    assert system32.is_dir(), "the first wine run makes the prefix"
    subprocess.run([gcc, "-shared", "-O2", "-o", str(system32 / "bcryptprimitives.dll"),
                    str(WINE_STUB / "bcryptprimitives.c"), str(WINE_STUB / "bcryptprimitives.def"), "-ladvapi32"],
                   check=True, capture_output=True, timeout=120)


def _windows_path(path: pathlib.Path) -> str:
    """The path as the Windows program sees it: wine maps / to drive Z:."""
    return "Z:" + str(path).replace("/", "\\")


def test_windows_wheel_runs_under_wine(release: pathlib.Path, tmp_path: pathlib.Path) -> None:
    """The Windows binary starts, and its workspace layer (the save through
    os.Root, the LockFileEx lock, the identity check before a replace, the
    Windows path rules) completes a create, an edit of the existing file and
    a read; an alternate data stream is refused."""
    wine = _wine()
    binary = _install(release, "win_amd64", tmp_path / "site")
    assert identify(binary.read_bytes()).format == "PE"
    prefix = tmp_path / "wineprefix"
    env = {**os.environ, "WINEPREFIX": str(prefix), "WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="}
    _wine_ready(wine, env, binary, prefix)
    version = _wine_run(wine, env, str(binary), "--version")
    assert version.returncode == 0, version.stderr[-2000:]
    assert version.stdout.startswith("registry-sidecar ") and "protocol 1" in version.stdout
    ws = tmp_path / "ws"
    (ws / "sub").mkdir(parents=True)
    base = [str(binary), "call", "--workspace", _windows_path(ws), "--log-level", "error"]
    for args in (
        {"file_path": "sub\\win.xlsx", "cell_range": "A1:B1", "values": [["built for", "windows"]]},
        {"file_path": "sub/win.xlsx", "cell_range": "A2:B2", "values": [["edited", 2]]},
    ):
        call = _wine_run(wine, env, *base, "write_cells", json.dumps(args))
        assert call.returncode == 0, call.stdout + call.stderr[-2000:]
        assert json.loads(call.stdout)["status"] == "success", call.stdout
    read = _wine_run(wine, env, *base, "read_excel", "-", stdin=json.dumps({"file_path": "sub/win.xlsx"}))
    assert read.returncode == 0, read.stderr[-2000:]
    got = json.loads(read.stdout)
    assert got["columns"] == ["built for", "windows"] and got["rows"] == [["edited", 2]], got
    stream = _wine_run(wine, env, *base, "read_excel", json.dumps({"file_path": "sub/win.xlsx:x.xlsx"}))
    assert json.loads(stream.stdout)["exception"] == "PermissionError", stream.stdout
    assert sorted(p.name for p in (ws / "sub").iterdir()) == [".~win.xlsx.lock", "win.xlsx"], "no temporary is left"


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
                   "go/excelops/internal/recalc/excel_functions.txt", "go/LICENSE"):
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
    for words in ("Linux", "x86_64", "aarch64", "musl", "macOS", "Apple silicon", "Intel", "Windows", "win_amd64",
                  "pip install --find-links dist/release registry-sidecar", "sdist"):
        assert words in section, words
