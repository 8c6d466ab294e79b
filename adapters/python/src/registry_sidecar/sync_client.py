"""Client: the synchronous, thread-safe client."""

from __future__ import annotations

import itertools
import json
import logging
import threading
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ._recovery import (
    DEFAULT_MAX_SIZE,
    DEFAULT_OPEN_TIMEOUT,
    Recovery,
    after_failed_connect,
    check_recovery,
    refused,
)
from ._rpc import (
    CANCEL_REASON,
    TIMEOUT_REASON,
    CallResult,
    ProgressCallback,
    call_result,
    encode_call,
    encode_cancel,
    encode_notification,
    encode_request,
    initialize_params,
    progress_args,
    result_of,
)
from ._syncconn import Lost, SyncConn, Waiter
from .errors import SidecarConnectionError, SidecarError
from .payloads import timeout_payload, unavailable_payload

if TYPE_CHECKING:
    from .sidecar import Sidecar

_log = logging.getLogger(__name__)



class Client:
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

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        max_size: int = DEFAULT_MAX_SIZE,
        call_timeout: float | None = None,
        open_timeout: float = DEFAULT_OPEN_TIMEOUT,
        recovery: Recovery = "reconnect",
        sidecar: Sidecar | None = None,
    ) -> None:
        check_recovery(recovery, sidecar)
        self.url = url
        self.token = token
        self.max_size = max_size
        self.call_timeout = call_timeout
        self.open_timeout = open_timeout
        self.recovery: Recovery = recovery
        self.sidecar = sidecar
        self.server_info: dict[str, Any] = {}
        self._conn: SyncConn | None = None
        self._ids = itertools.count(1)
        self._connect_lock = threading.Lock()
        self._closed = False
        self._ever_connected = False
        self._lost: str | None = None

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
        if self.sidecar is not None and self.sidecar.url:
            self.url = self.sidecar.url
        conn = SyncConn.open(
            self.url, token=self.token, max_size=self.max_size, timeout=self.open_timeout, dispatch=self._dispatch
        )
        try:
            msg = self._roundtrip(conn, "initialize", initialize_params(), self.open_timeout)
            self.server_info = result_of(msg)
            conn.send(encode_notification("notifications/initialized"))
        except (Lost, SidecarError) as exc:
            conn.die("initialize failed")
            raise SidecarConnectionError(f"MCP initialize with {self.url} failed: {exc}") from exc
        conn.start_keepalive()
        self._conn = conn
        self._lost = None
        self._ever_connected = True

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
        if self._closed:
            return "the client is closed"
        if conn is not None:
            self._lost = conn.reason
        reason = refused(self.recovery, self._ever_connected, self._lost, self.sidecar)
        if reason is not None:
            return reason
        with self._connect_lock:
            conn = self._conn
            if conn is not None and conn.alive:
                return conn
            if self.recovery == "relaunch" and self.sidecar is not None and not self.sidecar.alive:
                try:
                    self.sidecar.relaunch_if_dead()
                except SidecarError as exc:
                    return f"relaunching the sidecar failed: {exc}"
            try:
                self._open()
            except SidecarConnectionError as exc:
                why = after_failed_connect(self.recovery, self.sidecar, str(exc))
                if why is not None:
                    return why
                assert self.sidecar is not None
                try:
                    self.sidecar.relaunch_if_dead()
                    self._open()
                except SidecarError as exc2:
                    return f"relaunching the sidecar failed: {exc2}"
            assert self._conn is not None
            return self._conn

    def _connected(self) -> SyncConn:
        got = self._ensure()
        if isinstance(got, str):
            raise SidecarConnectionError(got)
        return got

    # -- inbound ----------------------------------------------------------

    def _dispatch(self, conn: SyncConn, raw: bytes) -> None:
        try:
            msg = json.loads(raw)
        except ValueError:
            _log.warning("the sidecar sent a frame that is not JSON")
            return
        if not isinstance(msg, dict):
            return
        method = msg.get("method")
        if method is None:
            waiter = conn.pending.pop(msg.get("id"), None)  # type: ignore[arg-type]
            if waiter is not None:
                waiter.msg = msg
                waiter.event.set()
        elif method == "notifications/progress":
            args = progress_args(msg.get("params"))
            if args is None:
                return
            w = conn.pending.get(args[0])
            if w is not None and w.progress is not None:
                try:
                    w.progress(args[1], args[2], args[3])
                except Exception:
                    _log.exception("progress callback failed")
        elif method == "ping" and "id" in msg:
            try:
                conn.send(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {}}).encode())
            except Lost:
                pass

    # -- requests ---------------------------------------------------------

    def _wait(self, conn: SyncConn, waiter: Waiter, deadline: float | None) -> None:
        """Wait for waiter, reading for everyone when nobody else does."""
        try:
            while not waiter.done:
                if conn.read_lock.acquire(blocking=False):
                    try:
                        conn.lead(waiter, deadline)
                    finally:
                        conn.read_lock.release()
                    if waiter.done or not conn.alive:
                        break
                    if deadline is not None and time.monotonic() >= deadline:
                        break
                    continue
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    break
                waiter.event.wait(remaining)
                waiter.event.clear()
        finally:
            conn.wake_leader()

    def _roundtrip(self, conn: SyncConn, method: str, params: Mapping[str, Any], timeout: float | None) -> dict[str, Any]:
        rid = next(self._ids)
        waiter = Waiter(None)
        conn.pending[rid] = waiter
        try:
            conn.send(encode_request(rid, method, params))
            self._wait(conn, waiter, None if timeout is None else time.monotonic() + timeout)
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
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        try:
            while True:
                params: dict[str, Any] = {} if cursor is None else {"cursor": cursor}
                result = result_of(self._roundtrip(self._connected(), "tools/list", params, None))
                tools.extend(t for t in result.get("tools", []) if isinstance(t, dict))
                nxt = result.get("nextCursor")
                if not isinstance(nxt, str) or not nxt:
                    return tools
                cursor = nxt
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
    ) -> CallResult:
        """Call the tool name and return its payload (see AsyncClient.call_tool)."""
        conn = self._conn
        if conn is None or not conn.alive:
            got = self._ensure()
            if isinstance(got, str):
                return CallResult(unavailable_payload(name, got), True)
            conn = got
        elif conn.idle() and conn.read_lock.acquire(blocking=False):
            # Nobody is reading: notice a sidecar that died (or closed us)
            # while idle before sending, so this call can recover instead.
            try:
                conn.drain()
            finally:
                conn.read_lock.release()
            if not conn.alive:
                return self.call_tool(name, arguments, tool_scope=tool_scope, timeout=timeout, progress=progress)
        if timeout is None:
            timeout = self.call_timeout
        rid = next(self._ids)
        frame = encode_call(rid, name, arguments, tool_scope=tool_scope, timeout=timeout, progress=progress is not None)
        waiter = Waiter(progress)
        conn.pending[rid] = waiter
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            conn.send(frame)
            self._wait(conn, waiter, deadline)
        except Lost as exc:
            return CallResult(unavailable_payload(name, str(exc)), True)
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
            return CallResult(unavailable_payload(name, waiter.error), True)
        self._cancel(conn, rid, TIMEOUT_REASON)
        return CallResult(timeout_payload(name), True)

    @staticmethod
    def _cancel(conn: SyncConn, rid: int, reason: str) -> None:
        try:
            conn.send(encode_cancel(rid, reason))
        except Lost:
            pass
