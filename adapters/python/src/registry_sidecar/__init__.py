"""registry_sidecar: launch the registry-sidecar Go tool host and call its
tools from Python.

    from registry_sidecar import Sidecar, ToolRegistry

    with Sidecar.launch("./workspace") as sc, ToolRegistry.from_sidecar(sc) as reg:
        print(reg.call_tool("list_sheets", {"file_path": "book.xlsx"}))

``ToolRegistry`` behaves like excelmanus's in-process registry; ``AsyncClient``
and ``Client`` are the lower-level asyncio and thread-safe clients.
"""

from ._rpc import CallResult, ProgressCallback
from ._settings import DEFAULT_MAX_SIZE, Recovery
from ._version import PROTOCOL_VERSION, __version__
from .binary import find_binary
from .client import AsyncClient
from .errors import (
    AuthenticationError,
    LaunchError,
    RPCError,
    SidecarConnectionError,
    SidecarError,
    ToolNotAllowedError,
    ToolNotFoundError,
)
from .payloads import is_error_result
from .registry import OpenAISchemaMode, ToolDef, ToolRegistry
from .sidecar import Sidecar
from .strict import strict_schema
from .sync_client import Client

__all__ = [
    "DEFAULT_MAX_SIZE",
    "PROTOCOL_VERSION",
    "AsyncClient",
    "AuthenticationError",
    "CallResult",
    "Client",
    "LaunchError",
    "OpenAISchemaMode",
    "ProgressCallback",
    "RPCError",
    "Recovery",
    "Sidecar",
    "SidecarConnectionError",
    "SidecarError",
    "ToolDef",
    "ToolNotAllowedError",
    "ToolNotFoundError",
    "ToolRegistry",
    "__version__",
    "find_binary",
    "is_error_result",
    "strict_schema",
]
