"""The package version (single source for pyproject.toml and --version)."""

__version__ = "0.1.0"

#: The sidecar handshake protocol version this package speaks.
PROTOCOL_VERSION = 1
