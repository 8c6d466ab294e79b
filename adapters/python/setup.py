"""Build hooks that put the registry-sidecar executable into a platform wheel.

Everything declarative lives in pyproject.toml; this file only adds the
binary, the way Python tools written in Go or Rust ship theirs:

- ``build_py`` first removes any executable an earlier build left in the
  build folder, then places a fresh one as ``registry_sidecar/_bin/
  registry-sidecar`` (``.exe`` on Windows; ``find_binary`` looks there before
  PATH). The executable is ``$REGISTRY_SIDECAR_WHEEL_BINARY`` when set (what
  ``make wheel`` and ``make wheels`` pass: a binary they just built), else
  one compiled now with ``go build`` into a new temporary folder, when Go is
  on PATH and the Go sources are at hand (this checkout, or the ``go/``
  folder of the sdist). Without either the wheel carries no binary and stays
  pure (``find_binary`` then needs ``$REGISTRY_SIDECAR_BIN`` or PATH).
  Editable installs never copy a binary: they use the checkout's own
  ``bin/registry-sidecar``.
- ``$REGISTRY_SIDECAR_WHEEL_TARGET`` (``GOOS/GOARCH``, e.g. ``linux/arm64``)
  builds the wheel of another platform: Go cross-compiles for it (or the
  binary given is taken to be for it) and the wheel is tagged for it.
- ``bdist_wheel`` tags a wheel that carries the binary for its platform
  (``py3-none-<platform>``): the executable is a static Go binary
  (``CGO_ENABLED=0``), so on Linux it is manylinux and musllinux compatible.
  Once the wheel is written, the ``build/`` folder is removed.
- ``sdist`` adds the Go sources the binary is built from (``go/``), so
  installing the sdist where Go exists builds the binary from source.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sysconfig
import tempfile

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

#: Environment variable naming the executable to bundle.
ENV_WHEEL_BINARY = "REGISTRY_SIDECAR_WHEEL_BINARY"
#: Environment variable naming the platform to build for, as GOOS/GOARCH.
ENV_WHEEL_TARGET = "REGISTRY_SIDECAR_WHEEL_TARGET"
#: The package folder that holds the executable.
BIN_DIR = pathlib.Path("registry_sidecar", "_bin")
HERE = pathlib.Path(__file__).resolve().parent
#: The Go sources inside an sdist.
SDIST_GO = "go"
#: The wheel platform tag of each GOOS/GOARCH a wheel is built for. Linux
#: binaries are static, so one wheel serves glibc (manylinux) and musl
#: (musllinux) systems; Go 1.26 runs on macOS 12 and later. The Windows
#: tags are ready for when the binary builds there (`make wheels` leaves
#: Windows out: the workspace layer needs openat/linkat/renameat and flock).
PLATFORM_TAGS = {
    "linux/amd64": "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64",
    "linux/arm64": "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64",
    "darwin/amd64": "macosx_12_0_x86_64",
    "darwin/arm64": "macosx_12_0_arm64",
    "windows/amd64": "win_amd64",
    "windows/arm64": "win_arm64",
}
#: Top-level folders of the checkout that hold no source of the binary.
NOT_GO_SOURCES = {"adapters", "tests", "scripts", "deploy", "docs", "bin", "dist", "build", "node_modules"}


def go_sources() -> pathlib.Path | None:
    """The Go module the binary is built from: the sdist's ``go/`` folder, or
    the checkout this package sits in."""
    for root in (HERE / SDIST_GO, HERE.parents[1]):
        if (root / "go.mod").is_file() and (root / "cmd" / "registry-sidecar").is_dir():
            return root
    return None


def target() -> str | None:
    """The GOOS/GOARCH asked for, or None for this machine."""
    given = os.environ.get(ENV_WHEEL_TARGET, "").strip()
    if not given:
        return None
    if given not in PLATFORM_TAGS:
        raise SystemExit(f"${ENV_WHEEL_TARGET}={given!r}: not one of {', '.join(sorted(PLATFORM_TAGS))}")
    return given


def binary_name() -> str:
    """The executable's file name for the target platform."""
    goos = (target() or "").split("/")[0]
    windows = goos == "windows" or (not goos and os.name == "nt")
    return "registry-sidecar.exe" if windows else "registry-sidecar"


def _binary_to_bundle(scratch: pathlib.Path) -> pathlib.Path | None:
    given = os.environ.get(ENV_WHEEL_BINARY)
    if given:
        path = pathlib.Path(given)
        if not path.is_file():
            raise SystemExit(f"${ENV_WHEEL_BINARY} names {given!r}, which does not exist")
        return path
    go = shutil.which("go")
    src = go_sources()
    if go is None or src is None:
        return None
    out = scratch / binary_name()
    env = {**os.environ, "CGO_ENABLED": "0"}
    goal = target()
    if goal is not None:
        env["GOOS"], env["GOARCH"] = goal.split("/")
    subprocess.run([go, "build", "-trimpath", "-ldflags=-s -w", "-o", str(out), "./cmd/registry-sidecar"],
                   cwd=src, env=env, check=True)
    return out


class BuildPyWithBinary(build_py):
    """build_py that places a fresh registry-sidecar executable, or none."""

    def run(self) -> None:
        super().run()
        # Whatever an earlier build left here must never reach this wheel.
        shutil.rmtree(pathlib.Path(self.build_lib) / BIN_DIR, ignore_errors=True)
        self.distribution.bundles_binary = False  # type: ignore[attr-defined]
        if getattr(self, "editable_mode", False):
            return
        with tempfile.TemporaryDirectory(prefix="registry-sidecar-build-") as scratch:
            binary = _binary_to_bundle(pathlib.Path(scratch))
            if binary is None:
                return
            target_path = pathlib.Path(self.build_lib) / BIN_DIR / binary_name()
            target_path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(binary, target_path)
        target_path.chmod(0o755)
        self.distribution.bundles_binary = True  # type: ignore[attr-defined]


def platform_tag() -> str:
    """The wheel platform tag of the target (this machine unless
    ``$REGISTRY_SIDECAR_WHEEL_TARGET`` names another), widened to
    manylinux and musllinux on Linux (the bundled binary is static)."""
    goal = target()
    if goal is not None:
        return PLATFORM_TAGS[goal]
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    if plat.startswith("linux_"):
        arch = plat.removeprefix("linux_")
        return f"manylinux_2_17_{arch}.manylinux2014_{arch}.musllinux_1_1_{arch}"
    return plat


class PlatformWheel(bdist_wheel):
    """bdist_wheel that tags a wheel carrying the binary for its platform and
    leaves no build folder behind."""

    def get_tag(self) -> tuple[str, str, str]:
        if getattr(self.distribution, "bundles_binary", False):
            return "py3", "none", platform_tag()
        return super().get_tag()

    def finalize_options(self) -> None:
        super().finalize_options()
        # The binary is only known once build_py ran; get_tag decides then.
        self.root_is_pure = False

    def run(self) -> None:
        self.run_command("build_py")
        if getattr(self.distribution, "bundles_binary", False):
            # Install into platlib, the wheel's root, not .data/purelib.
            self.distribution.has_ext_modules = lambda: True  # type: ignore[method-assign]
        else:
            self.root_is_pure = True
        try:
            super().run()
        finally:
            build_base = pathlib.Path(self.get_finalized_command("build").build_base).resolve()
            if build_base.is_relative_to(HERE):
                shutil.rmtree(build_base, ignore_errors=True)


def _embedded(go_file: pathlib.Path) -> list[str]:
    """The file names a Go file's ``//go:embed`` lines name."""
    names: list[str] = []
    for line in go_file.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*//go:embed\s+(.+)", line)
        if m:
            names.extend(m.group(1).split())
    return names


class SdistWithGo(sdist):
    """sdist that also carries the Go module the binary is built from."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        src = go_sources()
        if src is None:
            raise SystemExit("sdist: the Go sources (go.mod, cmd/registry-sidecar) are not at hand")
        dest = pathlib.Path(base_dir, SDIST_GO)
        wanted = {"go.mod", "go.sum", "LICENSE"}
        for dirpath, dirnames, filenames in os.walk(src):
            here = pathlib.Path(dirpath)
            top = here == src
            dirnames[:] = [d for d in dirnames
                           if not d.startswith(".") and d != "testdata" and not (top and d in NOT_GO_SOURCES)]
            for name in filenames:
                if name.endswith(".go") and not name.endswith("_test.go"):
                    rel = (here / name).relative_to(src)
                    wanted.add(str(rel))
                    wanted.update(str(rel.parent / embedded) for embedded in _embedded(here / name))
        for rel_name in sorted(wanted):
            out = dest / rel_name
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / rel_name, out)


setup(cmdclass={"build_py": BuildPyWithBinary, "bdist_wheel": PlatformWheel, "sdist": SdistWithGo})
