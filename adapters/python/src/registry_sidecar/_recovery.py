"""Connection settings and the recovery policy shared by both clients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from .sidecar import Sidecar

#: Default largest incoming message, in bytes. The registry caps results at
#: 3,000 code points (at most 12 KB of UTF-8); 16 MiB leaves room for big
#: tool lists and tools with larger caps, and matches the sidecar's own
#: inbound limit.
DEFAULT_MAX_SIZE: Final = 16 * 1024 * 1024
#: Default seconds to open a connection (TCP, WebSocket and MCP initialize).
DEFAULT_OPEN_TIMEOUT: Final = 10.0
#: Seconds to wait for the closing handshake before dropping the socket.
CLOSE_TIMEOUT: Final = 2.0
#: Seconds a failed reconnect waits for the sidecar's exit status, to tell a
#: dead sidecar (relaunch it, or say so) from an unreachable one.
EXIT_WAIT: Final = 1.0

#: What a call does after the connection was lost: open a new connection
#: ("reconnect"), relaunch a dead sidecar first ("relaunch", needs the
#: sidecar), or keep returning TOOL_UNAVAILABLE until connect() ("none").
Recovery = Literal["reconnect", "relaunch", "none"]


def check_recovery(recovery: str, sidecar: Sidecar | None) -> None:
    """Validate a client's recovery option."""
    if recovery not in ("reconnect", "relaunch", "none"):
        raise ValueError(f"unknown recovery {recovery!r}")
    if recovery == "relaunch" and sidecar is None:
        raise ValueError('recovery="relaunch" needs sidecar= to relaunch')


def refused(recovery: Recovery, ever_connected: bool, lost: str | None, sidecar: Sidecar | None) -> str | None:
    """Return why a disconnected client must not try to connect now, or None.
    The first connection is always attempted."""
    if not ever_connected:
        return None
    if recovery == "none":
        return f"{lost or 'not connected'}; automatic reconnection is disabled"
    if recovery == "reconnect" and sidecar is not None and not sidecar.alive:
        return f"the sidecar exited with status {sidecar.returncode}"
    return None


def after_failed_connect(recovery: Recovery, sidecar: Sidecar | None, error: str) -> str | None:
    """Decide what follows a failed (re)connect: None means the sidecar
    is dead and recovery is "relaunch" (relaunch and retry once); a string is
    the reason to report."""
    if sidecar is None or not sidecar.exited(EXIT_WAIT):
        return error
    if recovery == "relaunch":
        return None
    return f"the sidecar exited with status {sidecar.returncode}"
