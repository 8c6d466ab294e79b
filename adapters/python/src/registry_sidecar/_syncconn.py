"""One blocking WebSocket connection shared by many threads.

There is no reader thread. A calling thread that finds nobody reading
becomes the reader (the "leader"): it reads frames and hands every answer to
the thread waiting for it, until its own answer arrives; then it passes the
role on to a thread still waiting. A single-threaded caller therefore sends
and receives on its own thread with no hand-off at all. A keepalive thread
answers the sidecar's pings while no call is running.
"""

from __future__ import annotations

import logging
import select
import socket
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from ._wire import READ_CHUNK, Wire
from .errors import SidecarConnectionError

#: Seconds between keepalive passes on an idle connection (the sidecar drops
#: a client that sends nothing, pongs included, for 75 s).
KEEPALIVE_INTERVAL: Final = 10.0
#: Seconds without reading after which a call first checks, without
#: blocking, whether the connection died while idle (back-to-back calls skip
#: that extra system call).
IDLE_CHECK_AFTER: Final = 0.05

_log = logging.getLogger(__name__)


class Lost(Exception):
    """The connection is gone; the text says why."""


class Waiter:
    """One pending request: the answer, or why there will be none."""

    __slots__ = ("event", "msg", "error", "progress")

    def __init__(self, progress: Callable[[float, float | None, str | None], object] | None) -> None:
        self.event = threading.Event()
        self.msg: dict[str, Any] | None = None
        self.error: str | None = None
        self.progress = progress

    @property
    def done(self) -> bool:
        """Whether the request has its answer or its error."""
        return self.msg is not None or self.error is not None


class SyncConn:
    """A connected socket plus its Wire, with leader/follower reading."""

    def __init__(self, sock: socket.socket, wire: Wire, dispatch: Callable[[SyncConn, bytes], None]) -> None:
        self.sock = sock
        self.wire = wire
        self.dispatch = dispatch
        self.pending: dict[int, Waiter] = {}
        self.lock = threading.Lock()  # guards the Wire and socket writes
        self.read_lock = threading.Lock()  # held by the leader
        self.alive = True
        self.reason = ""
        self.last_read = time.monotonic()
        self._stop = threading.Event()
        self._keepalive: threading.Thread | None = None
        # A plain socket can peek without blocking by flag (one syscall);
        # a TLS socket refuses flags and needs select.
        self._dontwait = hasattr(socket, "MSG_DONTWAIT") and not isinstance(sock, ssl.SSLSocket)

    @classmethod
    def open(
        cls, url: str, *, token: str | None, max_size: int, timeout: float, dispatch: Callable[[SyncConn, bytes], None]
    ) -> SyncConn:
        """Connect and run the WebSocket handshake within timeout seconds."""
        wire = Wire(url, token=token, max_size=max_size)
        host, port = wire.uri.host, wire.uri.port
        try:
            sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise SidecarConnectionError(f"cannot connect to {url}: {exc}") from exc
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if wire.uri.secure:
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
            data, _ = wire.outgoing()
            sock.sendall(data)
            deadline = time.monotonic() + timeout
            while not wire.handshake_done:
                sock.settimeout(max(0.0, deadline - time.monotonic()))
                chunk = sock.recv(READ_CHUNK)
                wire.feed(chunk)
                if not chunk and not wire.handshake_done:
                    raise SidecarConnectionError(f"cannot connect to {url}: the server closed the connection")
            sock.settimeout(None)
        except SidecarConnectionError:
            sock.close()
            raise
        except OSError as exc:
            sock.close()
            raise SidecarConnectionError(f"cannot connect to {url}: {exc}") from exc
        except BaseException:
            sock.close()
            raise
        return cls(sock, wire, dispatch)

    def start_keepalive(self) -> None:
        """Start the thread that answers pings while nobody reads."""
        self._keepalive = threading.Thread(target=self._keepalive_loop, name="registry-sidecar-keepalive", daemon=True)
        self._keepalive.start()

    def _keepalive_loop(self) -> None:
        while not self._stop.wait(KEEPALIVE_INTERVAL):
            if self.read_lock.acquire(blocking=False):
                try:
                    self.drain()
                finally:
                    self.read_lock.release()
                self.wake_leader()

    # -- writing ----------------------------------------------------------

    def send(self, message: bytes) -> None:
        """Write one text message; raises Lost when the connection is gone."""
        with self.lock:
            if not self.alive:
                raise Lost(self.reason)
            try:
                self.sock.sendall(self.wire.send_text(message))
            except OSError as exc:
                reason = f"the connection to the sidecar was lost: {exc}"
                self._die_locked(reason)
                raise Lost(reason) from exc

    # -- reading (leader only) ----------------------------------------------

    def _process(self, data: bytes) -> None:
        self.last_read = time.monotonic()
        with self.lock:
            try:
                messages = self.wire.feed(data)
            except SidecarConnectionError as exc:
                self._die_locked(str(exc))
                return
            out, _ = self.wire.outgoing()
            if out and self.alive:
                try:
                    self.sock.sendall(out)
                except OSError:
                    pass
        for raw in messages:
            self.dispatch(self, raw)
        if not data or not self.wire.is_open:
            self.die(self.wire.close_reason())

    def idle(self) -> bool:
        """Whether nothing was read for IDLE_CHECK_AFTER seconds."""
        return time.monotonic() - self.last_read > IDLE_CHECK_AFTER

    def drain(self) -> None:
        """Process whatever is readable now, without blocking (leader only)."""
        while self.alive:
            try:
                if self._dontwait:
                    data = self.sock.recv(READ_CHUNK, socket.MSG_DONTWAIT)
                else:
                    readable, _, _ = select.select([self.sock], [], [], 0)
                    if not readable:
                        return
                    data = self.sock.recv(READ_CHUNK)
            except (BlockingIOError, ssl.SSLWantReadError):
                return
            except (OSError, ValueError) as exc:
                self.die(f"the connection to the sidecar was lost: {exc}")
                return
            self._process(data)

    def lead(self, waiter: Waiter, deadline: float | None) -> None:
        """Read and dispatch until waiter is done, the deadline passes or the
        connection dies (leader only)."""
        sock = self.sock
        blocking = True
        while not waiter.done and self.alive:
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                sock.settimeout(remaining)
                blocking = False
            elif not blocking:
                sock.settimeout(None)
                blocking = True
            try:
                data = sock.recv(READ_CHUNK)
            except TimeoutError:
                return
            except OSError as exc:
                self.die(f"the connection to the sidecar was lost: {exc}")
                return
            self._process(data)
        if not blocking:
            sock.settimeout(None)

    def wake_leader(self) -> None:
        """Nudge one waiting thread to take over reading, if nobody reads."""
        if self.read_lock.locked():
            return
        for waiter in list(self.pending.values()):
            if not waiter.done:
                waiter.event.set()
                return

    # -- teardown -----------------------------------------------------------

    def die(self, reason: str) -> None:
        """Mark the connection lost and fail every pending request."""
        with self.lock:
            self._die_locked(reason)

    def _die_locked(self, reason: str) -> None:
        if not self.alive:
            return
        self.alive = False
        self.reason = reason
        self._stop.set()
        try:
            # shutdown wakes a leader blocked in recv; close alone may not.
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass
        pending = list(self.pending.values())
        self.pending.clear()
        for waiter in pending:
            if not waiter.done:
                waiter.error = reason
            waiter.event.set()

    def close(self, reason: str) -> None:
        """Send a close frame and drop the connection."""
        with self.lock:
            if self.alive:
                self.wire.send_close()
                out, _ = self.wire.outgoing()
                try:
                    self.sock.sendall(out)
                except OSError:
                    pass
            self._die_locked(reason)
