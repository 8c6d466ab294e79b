"""Client settings: the one place that declares the keywords a client is
built with, their defaults and their validation.

:class:`Settings` is a dataclass whose generated ``__init__`` is the
constructor of both clients (``Client(url, *, token=..., ...)`` and
``AsyncClient`` alike, through :class:`~registry_sidecar._recovery.ClientCore`):
a keyword is added, given a default or checked here and nowhere else.
:class:`ClientSettings` is the same keywords as a mapping, what
``client.settings()`` returns to build a peer client.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Final, Literal, TypedDict, cast

if TYPE_CHECKING:
    from .sidecar import Sidecar

#: Default largest incoming message, in bytes. The registry caps results at
#: 3,000 code points (at most 12 KB of UTF-8); 16 MiB leaves room for big
#: tool lists and tools with larger caps, and matches the sidecar's own
#: inbound limit.
DEFAULT_MAX_SIZE: Final = 16 * 1024 * 1024
#: Default seconds to open a connection (TCP, WebSocket and MCP initialize).
DEFAULT_OPEN_TIMEOUT: Final = 10.0

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


# eq and repr stay object's: two clients are never equal by their settings,
# and a client's repr must not show its token.
@dataclasses.dataclass(eq=False, repr=False)
class Settings:
    """The settings of a client, its constructor arguments: the sidecar's
    ``url``, then keywords only. ``url`` follows a relaunched sidecar."""

    url: str
    _: dataclasses.KW_ONLY
    #: Sent as ``Authorization: Bearer <token>``.
    token: str | None = None
    #: Largest incoming message, in bytes.
    max_size: int = DEFAULT_MAX_SIZE
    #: Seconds a call may take unless it says otherwise (None: the tool's own).
    call_timeout: float | None = None
    #: Seconds to open a connection (TCP, WebSocket and MCP initialize).
    open_timeout: float = DEFAULT_OPEN_TIMEOUT
    #: What a call does after the connection was lost (:data:`Recovery`).
    recovery: Recovery = "reconnect"
    #: The launched sidecar, to follow its URL and relaunch it.
    sidecar: Sidecar | None = None

    def __post_init__(self) -> None:
        check_recovery(self.recovery, self.sidecar)

    def settings(self) -> ClientSettings:
        """Return these settings as constructor arguments, to build a peer
        client (``AsyncClient(**client.settings())``)."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(Settings)}
        return cast("ClientSettings", fields)


class ClientSettings(TypedDict):
    """The constructor arguments of a client (the fields of
    :class:`Settings`), to build a peer client with the same settings
    (``AsyncClient(**client.settings())``)."""

    url: str
    token: str | None
    max_size: int
    call_timeout: float | None
    open_timeout: float
    recovery: Recovery
    sidecar: Sidecar | None
