"""Exceptions raised by the adapter.

Tool failures are never raised: like excelmanus's in-process registry, they are
returned as JSON payload strings. The exceptions here are for the two codes
excelmanus raises (``ToolNotFoundError``, ``ToolNotAllowedError``) and for
problems with the sidecar itself (launching, connecting, protocol).
"""

from __future__ import annotations


class SidecarError(Exception):
    """Base class of every exception this package raises."""


class LaunchError(SidecarError):
    """The sidecar binary could not be found, did not start, or spoke an
    unexpected handshake. The message quotes the last lines of its stderr."""


class SidecarConnectionError(SidecarError, ConnectionError):
    """The WebSocket connection to the sidecar could not be opened or was lost."""


class AuthenticationError(SidecarConnectionError):
    """The sidecar refused the connection's token (HTTP 401/403)."""


class RPCError(SidecarError):
    """The sidecar answered a request with a JSON-RPC error object."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(f"JSON-RPC error {code}: {message}")
        self.code = code
        self.rpc_message = message
        self.data = data


class ToolNotFoundError(SidecarError):
    """The named tool is not registered (payload code ``TOOL_NOT_FOUND``)."""


class ToolNotAllowedError(SidecarError):
    """The named tool is outside the caller's tool scope (``TOOL_NOT_ALLOWED``)."""
