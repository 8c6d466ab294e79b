"""AsyncClient: JSON-RPC (MCP method names) over one WebSocket connection."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any

from ._asyncconn import Conn, Lost
from ._recovery import ClientCore, drive_async
from ._rpc import (
    CANCEL_REASON,
    TIMEOUT_REASON,
    CallResult,
    PingReply,
    Progress,
    ProgressCallback,
    ToolListing,
    call_result,
    decode_inbound,
    encode_cancel,
    encode_notification,
    initialize_params,
    result_of,
    timed_out,
    unavailable,
)
from ._settings import DEFAULT_MAX_SIZE, Recovery
from ._wire import Wire
from .errors import SidecarConnectionError, SidecarError

__all__ = ["DEFAULT_MAX_SIZE", "AsyncClient", "CallResult", "ProgressCallback", "Recovery"]

_log = logging.getLogger(__name__)


class AsyncClient(ClientCore):
    """An asyncio client of the sidecar's WebSocket endpoint.

    Many calls run concurrently over one connection, matched by JSON-RPC id.
    Tool failures, timeouts and a lost sidecar are returned as payload texts
    (never raised), as excelmanus's in-process registry returns them:

    - ``timeout`` (per call, default ``call_timeout``) is sent as
      ``_meta.timeoutMs``; when it passes the client sends
      ``notifications/cancelled`` and returns the same ``TOOL_TIMEOUT``
      payload text the sidecar's registry produces (it does not raise).
    - cancelling the awaiting task sends ``notifications/cancelled`` and
      re-raises ``asyncio.CancelledError``.
    - a lost connection turns the calls in flight into ``TOOL_UNAVAILABLE``
      payloads; the next call reconnects (``recovery="reconnect"``), also
      relaunches a dead sidecar first (``recovery="relaunch"``, needs
      ``sidecar=``), or keeps returning TOOL_UNAVAILABLE (``"none"``).

    The token is sent as ``Authorization: Bearer <token>``. ``max_size``
    bounds incoming messages in bytes (a bigger one closes the connection
    with 1009); the sidecar's registry caps results well below the default.
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        self._conn: Conn | None = None
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._progress: dict[int, ProgressCallback] = {}
        self._connect_lock: asyncio.Lock | None = None
        self._background: set[asyncio.Task[Any]] = set()

    @property
    def connected(self) -> bool:
        """Whether a connection is open."""
        return self._conn is not None

    async def __aenter__(self) -> AsyncClient:
        await self.connect()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- connection -------------------------------------------------------

    async def connect(self) -> None:
        """Open the connection and run the MCP ``initialize`` exchange.

        Raises AuthenticationError for a refused token and
        SidecarConnectionError for anything else that prevents connecting.
        """
        if self._connect_lock is None:
            self._connect_lock = asyncio.Lock()
        async with self._connect_lock:
            self._closed = False
            if self._conn is None:
                await self._open()

    async def _open(self) -> None:
        wire = Wire(self._dial_url(), token=self.token, max_size=self.max_size)
        loop = asyncio.get_running_loop()
        conn: Conn | None = None
        try:
            async with asyncio.timeout(self.open_timeout):
                _, conn = await loop.create_connection(
                    lambda: Conn(wire, self._on_message, self._on_lost),
                    wire.uri.host,
                    wire.uri.port,
                    ssl=True if wire.uri.secure else None,
                )
                await conn.ready
                self._conn = conn
                self._lost = None
                result = await self._request(conn, "initialize", initialize_params())
                conn.send(encode_notification("notifications/initialized"))
        except SidecarConnectionError:
            # Before OSError: SidecarConnectionError is a ConnectionError.
            await self._discard(conn)
            raise
        except (Lost, SidecarError) as exc:
            await self._discard(conn)
            raise SidecarConnectionError(f"MCP initialize with {self.url} failed: {exc}") from exc
        except TimeoutError as exc:
            await self._discard(conn)
            raise SidecarConnectionError(
                f"cannot connect to {self.url}: no answer within {self.open_timeout:g} s"
            ) from exc
        except OSError as exc:
            await self._discard(conn)
            raise SidecarConnectionError(f"cannot connect to {self.url}: {exc}") from exc
        self._opened(result)

    async def _discard(self, conn: Conn | None) -> None:
        if conn is not None:
            if self._conn is conn:
                self._conn = None
            conn.abort()

    async def close(self) -> None:
        """Close the connection; calls in flight return TOOL_UNAVAILABLE."""
        self._closed = True
        conn = self._conn
        if conn is not None:
            await conn.close()
        for task in list(self._background):
            task.cancel()

    async def _ensure(self) -> Conn | str:
        """Return an open connection, recovering per self.recovery, or a
        message saying why there is none."""
        conn = self._conn
        if conn is not None:
            return conn
        reason = self._why_not_connect()
        if reason is not None:
            return reason
        if self._connect_lock is None:
            self._connect_lock = asyncio.Lock()
        async with self._connect_lock:
            if self._conn is not None:
                return self._conn
            why = await drive_async(self._recovery_plan(), self._open, self.sidecar)
            if why is not None:
                return why
            assert self._conn is not None
            return self._conn

    # -- inbound ----------------------------------------------------------

    def _on_message(self, conn: Conn, raw: bytes) -> None:
        inbound = decode_inbound(raw)
        if isinstance(inbound, dict):
            fut = self._pending.pop(inbound.get("id"), None)  # type: ignore[arg-type]
            if fut is not None and not fut.done():
                fut.set_result(inbound)
        elif isinstance(inbound, Progress):
            self._on_progress(inbound)
        elif isinstance(inbound, PingReply):
            conn.send(inbound.frame)

    def _on_progress(self, p: Progress) -> None:
        cb = self._progress.get(p.token)
        if cb is None:
            return
        try:
            out = cb(p.progress, p.total, p.message)
            if out is not None:
                task = asyncio.ensure_future(out)
                self._background.add(task)
                task.add_done_callback(self._background.discard)
        except Exception:
            _log.exception("progress callback failed")

    def _on_lost(self, conn: Conn, reason: str) -> None:
        if self._conn is conn:
            self._conn = None
            self._lost = reason
            if not self._closed:
                _log.warning("connection to registry-sidecar lost: %s", reason)
        lost = Lost(reason)
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(lost)
        self._pending.clear()

    # -- requests ---------------------------------------------------------

    async def _request(self, conn: Conn, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        rid, frame = self._request_frame(method, params)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        try:
            conn.send(frame)
            return result_of(await fut)
        finally:
            self._pending.pop(rid, None)

    async def _connected(self) -> Conn:
        got = await self._ensure()
        if isinstance(got, str):
            raise SidecarConnectionError(got)
        return got

    async def ping(self) -> None:
        """Send a JSON-RPC ``ping`` and wait for its answer."""
        try:
            await self._request(await self._connected(), "ping", {})
        except Lost as exc:
            raise SidecarConnectionError(str(exc)) from exc

    async def list_tools(self) -> list[dict[str, Any]]:
        """Return the sidecar's tools (MCP ``tools/list``: name, description,
        inputSchema) in registration order, following pagination."""
        listing = ToolListing()
        try:
            while True:
                result = await self._request(await self._connected(), "tools/list", listing.params())
                if listing.add(result):
                    return listing.tools
        except Lost as exc:
            raise SidecarConnectionError(str(exc)) from exc

    def _cancel(self, conn: Conn, rid: int, reason: str) -> None:
        conn.send(encode_cancel(rid, reason))

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        tool_scope: Sequence[str] | None = None,
        timeout: float | None = None,
        progress: ProgressCallback | None = None,
        null_as_omitted: bool = False,
    ) -> CallResult:
        """Call the tool name with arguments and return its payload text.

        tool_scope restricts the call to the listed tools (None: no
        restriction); timeout defaults to the client's call_timeout; progress
        receives the tool's ``notifications/progress``; null_as_omitted
        treats an argument whose value is None as omitted where the tool's
        schema neither requires it nor accepts null (what a model sends
        under an OpenAI strict-mode schema, see strict_schema). Raises
        RPCError only when the sidecar rejects the request itself.
        """
        conn = self._conn
        if conn is None:
            got = await self._ensure()
            if isinstance(got, str):
                return unavailable(name, got)
            conn = got
        rid, frame, timeout = self._call_frame(name, arguments, tool_scope, timeout, progress is not None, null_as_omitted)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        if progress is not None:
            self._progress[rid] = progress
        try:
            conn.send(frame)
            await conn.drain()
            if timeout is None:
                msg = await fut
            else:
                try:
                    async with asyncio.timeout(timeout):
                        msg = await asyncio.shield(fut)
                except TimeoutError:
                    if not fut.done():
                        self._cancel(conn, rid, TIMEOUT_REASON)
                        return timed_out(name)
                    msg = fut.result()
        except Lost as exc:
            return unavailable(name, str(exc))
        except asyncio.CancelledError:
            # Awaiting fut directly cancels it too; only an answer that
            # already arrived makes the notification pointless.
            if not fut.done() or fut.cancelled():
                self._cancel(conn, rid, CANCEL_REASON)
            raise
        finally:
            self._pending.pop(rid, None)
            if progress is not None:
                self._progress.pop(rid, None)
        return call_result(msg)
