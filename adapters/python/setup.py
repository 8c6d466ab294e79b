"""Build hooks that put the registry-sidecar executable into a platform wheel.

Everything declarative lives in pyproject.toml; this file only adds the
binary, the way Python tools written in Go or Rust ship theirs:

- ``build_py`` copies the executable into the package as
  ``registry_sidecar/_bin/registry-sidecar`` (``find_binary`` looks there
  before PATH). It takes ``$REGISTRY_SIDECAR_WHEEL_BINARY`` (what ``make
  wheel`` sets: the binary it just built from this checkout), else builds one
  with ``go build`` when this is a checkout with Go on PATH. Without either the
  wheel carries no binary and stays pure (``find_binary`` then needs
  ``$REGISTRY_SIDECAR_BIN`` or PATH). Editable installs never copy a binary:
  they use the checkout's own ``bin/registry-sidecar``.
- ``bdist_wheel`` tags a wheel that carries the binary for the platform it
  was built for (``py3-none-<platform>``): the executable is a static Go
  binary (``CGO_ENABLED=0``), so on Linux it is manylinux and musllinux
  compatible.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sysconfig

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

#: Environment variable naming the executable to bundle.
ENV_WHEEL_BINARY = "REGISTRY_SIDECAR_WHEEL_BINARY"
#: Where the executable goes inside the package.
BUNDLED = pathlib.Path("registry_sidecar", "_bin", "registry-sidecar")
HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]


def _binary_to_bundle(build_temp: pathlib.Path) -> pathlib.Path | None:
    given = os.environ.get(ENV_WHEEL_BINARY)
    if given:
        path = pathlib.Path(given)
        if not path.is_file():
            raise SystemExit(f"${ENV_WHEEL_BINARY} names {given!r}, which does not exist")
        return path
    go = shutil.which("go")
    if go is None or not (REPO / "go.mod").is_file():
        return None
    build_temp = build_temp.resolve()
    build_temp.mkdir(parents=True, exist_ok=True)
    out = build_temp / "registry-sidecar"
    env = {**os.environ, "CGO_ENABLED": "0"}
    subprocess.run([go, "build", "-trimpath", "-o", str(out), "./cmd/registry-sidecar"],
                   cwd=REPO, env=env, check=True)
    return out


class BuildPyWithBinary(build_py):
    """build_py that also places the registry-sidecar executable."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        binary = _binary_to_bundle(pathlib.Path(self.get_finalized_command("build").build_temp))
        if binary is None:
            return
        target = pathlib.Path(self.build_lib) / BUNDLED
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(binary, target)
        target.chmod(0o755)
        self.distribution.bundles_binary = True  # type: ignore[attr-defined]


def platform_tag() -> str:
    """The wheel platform tag of this machine, widened to manylinux and
    musllinux on Linux (the bundled binary is static)."""
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    if plat.startswith("linux_"):
        arch = plat.removeprefix("linux_")
        return f"manylinux_2_17_{arch}.manylinux2014_{arch}.musllinux_1_1_{arch}"
    return plat


class PlatformWheel(bdist_wheel):
    """bdist_wheel that tags a wheel carrying the binary for its platform."""

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
        if not getattr(self.distribution, "bundles_binary", False):
            self.root_is_pure = True
        super().run()


setup(cmdclass={"build_py": BuildPyWithBinary, "bdist_wheel": PlatformWheel})
