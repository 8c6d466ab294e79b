"""Client: the synchronous, thread-safe client."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any

from ._recovery import ClientCore, drive
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
from ._syncconn import Lost, SyncConn, Waiter
from .errors import SidecarConnectionError, SidecarError

_log = logging.getLogger(__name__)


class Client(ClientCore):
    """A synchronous client, safe to call from many threads at once.

    All threads share one connection; calls run concurrently and are matched
    by JSON-RPC id. There is no background reader: a calling thread reads
    for everyone while it waits (see ``_syncconn``), so a lone caller pays no
    thread hand-off. Behaviour matches :class:`AsyncClient`: failures,
    timeouts (``notifications/cancelled`` is sent) and a lost sidecar come
    back as payload texts, and the next call recovers per ``recovery``.
    Progress callbacks run on whichever calling thread is reading; they must
    not call this client.
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        self._conn: SyncConn | None = None
        self._connect_lock = threading.Lock()

    @property
    def connected(self) -> bool:
        """Whether a connection is open."""
        conn = self._conn
        return conn is not None and conn.alive

    def __enter__(self) -> Client:
        self.connect()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- connection -------------------------------------------------------

    def connect(self) -> None:
        """Open the connection and run the MCP ``initialize`` exchange.

        Raises AuthenticationError for a refused token and
        SidecarConnectionError for anything else that prevents connecting.
        """
        with self._connect_lock:
            self._closed = False
            if not self.connected:
                self._open()

    def _open(self) -> None:
        conn = SyncConn.open(
            self._dial_url(),
            token=self.token,
            max_size=self.max_size,
            timeout=self.open_timeout,
            dispatch=self._dispatch,
        )
        try:
            server_info = result_of(self._roundtrip(conn, "initialize", initialize_params(), self.open_timeout))
            conn.send(encode_notification("notifications/initialized"))
        except (Lost, SidecarError) as exc:
            conn.die("initialize failed")
            raise SidecarConnectionError(f"MCP initialize with {self.url} failed: {exc}") from exc
        conn.start_keepalive()
        self._conn = conn
        self._opened(server_info)

    def close(self) -> None:
        """Close the connection; calls in flight return TOOL_UNAVAILABLE."""
        self._closed = True
        conn = self._conn
        if conn is not None:
            conn.close("the client is closed")

    def _ensure(self) -> SyncConn | str:
        conn = self._conn
        if conn is not None and conn.alive:
            return conn
        if conn is not None and not self._closed:
            self._lost = conn.reason
        reason = self._why_not_connect()
        if reason is not None:
            return reason
        with self._connect_lock:
            conn = self._conn
            if conn is not None and conn.alive:
                return conn
            why = drive(self._recovery_plan(), self._open, self.sidecar)
            if why is not None:
                return why
            assert self._conn is not None
            return self._conn

    def _connected(self) -> SyncConn:
        got = self._ensure()
        if isinstance(got, str):
            raise SidecarConnectionError(got)
        return got

    # -- inbound ----------------------------------------------------------

    def _dispatch(self, conn: SyncConn, raw: bytes) -> None:
        inbound = decode_inbound(raw)
        if isinstance(inbound, dict):
            waiter = conn.pending.pop(inbound.get("id"), None)  # type: ignore[arg-type]
            if waiter is not None:
                waiter.msg = inbound
                waiter.wake()
        elif isinstance(inbound, Progress):
            w = conn.pending.get(inbound.token)
            if w is not None and w.progress is not None:
                try:
                    w.progress(inbound.progress, inbound.total, inbound.message)
                except Exception:
                    _log.exception("progress callback failed")
        elif isinstance(inbound, PingReply):
            try:
                conn.send(inbound.frame)
            except Lost:
                pass

    # -- requests ---------------------------------------------------------

    def _roundtrip(
        self, conn: SyncConn, method: str, params: Mapping[str, Any], timeout: float | None
    ) -> dict[str, Any]:
        rid, frame = self._request_frame(method, params)
        waiter = Waiter(None)
        conn.pending[rid] = waiter
        try:
            conn.send(frame)
            conn.wait(waiter, None if timeout is None else time.monotonic() + timeout)
        finally:
            conn.pending.pop(rid, None)
        if waiter.msg is None:
            raise Lost(waiter.error or f"no answer to {method} within {timeout:g} s")
        return waiter.msg

    def ping(self) -> None:
        """Send a JSON-RPC ping and wait for the answer."""
        try:
            result_of(self._roundtrip(self._connected(), "ping", {}, self.open_timeout))
        except Lost as exc:
            raise SidecarConnectionError(str(exc)) from exc

    def list_tools(self) -> list[dict[str, Any]]:
        """Return the sidecar's tools (MCP ``tools/list``) in registration
        order, following pagination."""
        listing = ToolListing()
        try:
            while True:
                result = result_of(self._roundtrip(self._connected(), "tools/list", listing.params(), None))
                if listing.add(result):
                    return listing.tools
        except Lost as exc:
            raise SidecarConnectionError(str(exc)) from exc

    def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        tool_scope: Sequence[str] | None = None,
        timeout: float | None = None,
        progress: ProgressCallback | None = None,
        null_as_omitted: bool = False,
    ) -> CallResult:
        """Call the tool name and return its payload (see AsyncClient.call_tool)."""
        conn = self._conn
        if conn is None or not conn.alive:
            got = self._ensure()
            if isinstance(got, str):
                return unavailable(name, got)
            conn = got
        elif conn.idle() and conn.read_lock.acquire(blocking=False):
            # Nobody is reading: notice a sidecar that died (or closed us)
            # while idle before sending, so this call can recover instead.
            try:
                conn.drain()
            finally:
                conn.read_lock.release()
            if not conn.alive:
                return self.call_tool(
                    name,
                    arguments,
                    tool_scope=tool_scope,
                    timeout=timeout,
                    progress=progress,
                    null_as_omitted=null_as_omitted,
                )
        rid, frame, timeout = self._call_frame(name, arguments, tool_scope, timeout, progress is not None, null_as_omitted)
        waiter = Waiter(progress)
        conn.pending[rid] = waiter
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            conn.send(frame)
            conn.wait(waiter, deadline)
        except Lost as exc:
            return unavailable(name, str(exc))
        except BaseException:
            # KeyboardInterrupt and the like: tell the sidecar to stop.
            if not waiter.done:
                self._cancel(conn, rid, CANCEL_REASON)
            raise
        finally:
            conn.pending.pop(rid, None)
        if waiter.msg is not None:
            return call_result(waiter.msg)
        if waiter.error is not None:
            return unavailable(name, waiter.error)
        self._cancel(conn, rid, TIMEOUT_REASON)
        return timed_out(name)

    @staticmethod
    def _cancel(conn: SyncConn, rid: int, reason: str) -> None:
        try:
            conn.send(encode_cancel(rid, reason))
        except Lost:
            pass
