"""Finding the registry-sidecar binary."""

from __future__ import annotations

import os
import pathlib
import shutil
import sys
from typing import Final

from .errors import LaunchError

#: Environment variable naming the binary to launch.
ENV_BIN: Final = "REGISTRY_SIDECAR_BIN"
#: The binary's name on PATH and in the repository's bin/ directory.
BINARY_NAME: Final = "registry-sidecar"
#: Where a platform wheel (``make wheel``, ``make wheels``) puts the binary,
#: in this package (``registry-sidecar.exe`` on Windows).
BUNDLED_BINARY: Final = (
    pathlib.Path(__file__).resolve().parent / "_bin" / (BINARY_NAME + (".exe" if sys.platform == "win32" else ""))
)


def _repository_build(start: pathlib.Path) -> pathlib.Path | None:
    """Return <repo>/bin/registry-sidecar for the repository that holds start
    (a checkout where the package is installed in editable mode), if built."""
    for parent in start.parents:
        candidate = parent / "bin" / BINARY_NAME
        if (parent / "go.mod").is_file() and candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def find_binary(binary: str | os.PathLike[str] | None = None) -> pathlib.Path:
    """Return the sidecar binary to run, looked up in this order: the binary
    argument, ``$REGISTRY_SIDECAR_BIN``, the binary a platform wheel carries
    (``registry_sidecar/_bin/registry-sidecar``, built from the same checkout
    as this package), ``registry-sidecar`` on PATH, and the repository's own
    build (``<repo>/bin/registry-sidecar``, for an editable install).

    Raises LaunchError when none of them exists.
    """
    if binary is not None:
        path = pathlib.Path(binary)
        if not path.is_file():
            raise LaunchError(f"registry-sidecar binary {str(path)!r} does not exist")
        return path
    env = os.environ.get(ENV_BIN)
    if env:
        path = pathlib.Path(env)
        if not path.is_file():
            raise LaunchError(f"${ENV_BIN} names {env!r}, which does not exist")
        return path
    if BUNDLED_BINARY.is_file():
        return BUNDLED_BINARY
    on_path = shutil.which(BINARY_NAME)
    if on_path:
        return pathlib.Path(on_path)
    built = _repository_build(pathlib.Path(__file__).resolve())
    if built is not None:
        return built
    raise LaunchError(
        f"cannot find the {BINARY_NAME} binary: install the platform wheel (`make wheel`), "
        f"pass binary=..., set ${ENV_BIN}, put {BINARY_NAME} on PATH, or build it with `make build`"
    )
