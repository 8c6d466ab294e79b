"""One blocking WebSocket connection shared by many threads.

There is no reader thread. A calling thread that finds nobody reading
becomes the reader (the "leader"): it reads frames and hands every answer to
the thread waiting for it, until its own answer arrives; then it passes the
role on to a thread still waiting. A single-threaded caller therefore sends
and receives on its own thread with no hand-off at all. A keepalive thread
answers the sidecar's pings while no call is running.

Many threads scale because the work that costs a system call, and with it a
trip through the GIL, is shared: a caller frames its message on its own
thread and queues it; whichever thread holds the writer role sends every
queued frame in one ``sendall`` (flat combining), and one ``recv`` of the
leader delivers every answer that has arrived. A waiting thread sleeps on a
bare lock of its own (no Condition, no shared wake-ups) and is woken exactly
once, by the leader that read its answer or to take over reading.
"""

from __future__ import annotations

import _thread
import collections
import logging
import select
import socket
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from ._wire import READ_CHUNK, TextFramer, Wire
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
    """One pending request: the answer, or why there will be none.

    Its thread sleeps in :meth:`sleep` on a lock it holds; :meth:`wake`
    releases that lock once (a wake-up is never lost: one given before the
    sleep makes the sleep return at once).
    """

    __slots__ = ("_gate", "msg", "error", "progress")

    def __init__(self, progress: Callable[[float, float | None, str | None], object] | None) -> None:
        self._gate = _thread.allocate_lock()
        self._gate.acquire()
        self.msg: dict[str, Any] | None = None
        self.error: str | None = None
        self.progress = progress

    @property
    def done(self) -> bool:
        """Whether the request has its answer or its error."""
        return self.msg is not None or self.error is not None

    def sleep(self, timeout: float | None) -> None:
        """Sleep until woken or timeout seconds passed (None: no limit)."""
        self._gate.acquire(timeout=-1 if timeout is None else max(0.0, timeout))

    def wake(self) -> None:
        """Wake the waiting thread (a no-op when a wake-up is already pending)."""
        try:
            self._gate.release()
        except RuntimeError:
            pass


class SyncConn:
    """A connected socket plus its Wire, with leader/follower reading and
    combined writing."""

    def __init__(self, sock: socket.socket, wire: Wire, dispatch: Callable[[SyncConn, bytes], None]) -> None:
        self.sock = sock
        self.wire = wire
        self.dispatch = dispatch
        self.pending: dict[int, Waiter] = {}
        self.lock = threading.Lock()  # guards the Wire (its protocol state) and teardown
        self.read_lock = threading.Lock()  # held by the leader
        self._send_lock = threading.Lock()  # held by the thread writing the queue out
        self._outbox: collections.deque[bytes] = collections.deque()
        self._framer = TextFramer()
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
        """Queue one text message and see it written, by this thread or by
        the one writing already; raises Lost when the connection is gone."""
        if not self.alive:
            raise Lost(self.reason)
        self._write(self._framer.frame(message))
        if not self.alive:
            raise Lost(self.reason)

    def _write(self, data: bytes) -> None:
        """Queue bytes for the socket and write the queue out, unless another
        thread is writing it: that thread takes these bytes along.

        A thread that finds the writer role taken has queued its bytes before
        trying; the writer checks the queue again after giving the role up,
        so nothing is left behind.
        """
        outbox = self._outbox
        lock = self._send_lock
        if not outbox and lock.acquire(blocking=False):
            # Nobody is writing and nothing waits: write these bytes now.
            try:
                if not self.alive:
                    return
                try:
                    self.sock.sendall(data)
                except OSError as exc:
                    self.die(f"the connection to the sidecar was lost: {exc}")
                    return
            finally:
                lock.release()
            if not outbox:
                return
        else:
            outbox.append(data)
        while outbox and lock.acquire(blocking=False):
            try:
                while outbox:
                    chunks = [outbox.popleft() for _ in range(len(outbox))]
                    if not self.alive:
                        return
                    try:
                        self.sock.sendall(chunks[0] if len(chunks) == 1 else b"".join(chunks))
                    except OSError as exc:
                        self.die(f"the connection to the sidecar was lost: {exc}")
                        return
            finally:
                lock.release()

    # -- reading (leader only) ----------------------------------------------

    def _process(self, data: bytes) -> None:
        self.last_read = time.monotonic()
        with self.lock:
            if not self.alive:
                return
            try:
                messages = self.wire.feed(data)
            except SidecarConnectionError as exc:
                self._die_locked(str(exc))
                return
            out = self.wire.outgoing()[0] if self.wire.wants_write else b""
        if out:
            self._write(out)  # pongs, the answer to a close
        dispatch = self.dispatch
        for raw in messages:
            dispatch(self, raw)
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

    def wait(self, waiter: Waiter, deadline: float | None) -> None:
        """Wait for waiter's answer until deadline (monotonic; None: no
        limit), reading for everyone whenever nobody else does."""
        try:
            while not waiter.done:
                if self.read_lock.acquire(blocking=False):
                    try:
                        self.lead(waiter, deadline)
                    finally:
                        self.read_lock.release()
                    if waiter.done or not self.alive:
                        break
                    if deadline is not None and time.monotonic() >= deadline:
                        break
                    continue
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    break
                waiter.sleep(remaining)
        finally:
            self.wake_leader()

    def wake_leader(self) -> None:
        """Wake one waiting thread to take over reading, if nobody reads."""
        if self.read_lock.locked():
            return
        for waiter in list(self.pending.values()):
            if not waiter.done:
                waiter.wake()
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
            waiter.wake()

    def close(self, reason: str) -> None:
        """Send a close frame and drop the connection."""
        with self.lock:
            if self.alive:
                self.wire.send_close()
                out, _ = self.wire.outgoing()
            else:
                out = b""
        # The close frame is a courtesy: a writer stuck on a full socket holds
        # the writer role, and die()'s shutdown is what frees it.
        if out and self._send_lock.acquire(blocking=False):
            try:
                self.sock.sendall(out)
            except OSError:
                pass
            finally:
                self._send_lock.release()
        self.die(reason)
