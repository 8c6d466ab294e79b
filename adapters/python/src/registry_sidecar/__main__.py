"""``python -m registry_sidecar``: version and binary discovery."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence

from ._version import PROTOCOL_VERSION, __version__
from .binary import find_binary
from .errors import LaunchError


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m registry_sidecar", description=__doc__)
    parser.add_argument("--version", action="store_true", help="print the package version and exit")
    parser.add_argument(
        "--which", action="store_true", help="print the sidecar binary this package would launch, and its version"
    )
    ns = parser.parse_args(argv)
    if ns.version:
        print(f"registry-sidecar (python) {__version__} protocol {PROTOCOL_VERSION}")
        return 0
    if ns.which:
        try:
            path = find_binary()
        except LaunchError as exc:
            print(exc, file=sys.stderr)
            return 1
        print(path)
        out = subprocess.run([str(path), "--version"], capture_output=True, text=True, check=False)
        print(out.stdout.strip() or out.stderr.strip())
        return out.returncode
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
