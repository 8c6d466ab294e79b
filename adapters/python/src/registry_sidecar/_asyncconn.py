"""One asyncio WebSocket connection driving a Wire (used by AsyncClient)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ._recovery import CLOSE_TIMEOUT
from ._wire import READ_CHUNK, TextFramer, Wire
from .errors import SidecarConnectionError


class Lost(Exception):
    """Internal: the connection dropped while a request was pending."""


class Conn(asyncio.BufferedProtocol):
    """One WebSocket connection: an asyncio protocol driving a Wire.

    It is a BufferedProtocol: the loop reads into one preallocated buffer
    instead of allocating a fresh 256 KiB bytes object per read (an
    mmap/munmap pair each time, a large part of a small call's cost).
    """

    def __init__(
        self,
        wire: Wire,
        on_message: Callable[[Conn, bytes], None],
        on_lost: Callable[[Conn, str], None],
    ) -> None:
        loop = asyncio.get_running_loop()
        self.on_message = on_message
        self.on_lost = on_lost
        self.wire = wire
        self._framer = TextFramer()
        self.transport: asyncio.Transport | None = None
        self.ready: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.alive = True
        self._resumed: asyncio.Future[None] | None = None
        self._view = memoryview(bytearray(READ_CHUNK))

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self._flush()

    def _flush(self) -> None:
        data, eof = self.wire.outgoing()
        assert self.transport is not None
        if data:
            self.transport.write(data)
        if eof and self.transport.can_write_eof():
            self.transport.write_eof()

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._view

    def buffer_updated(self, nbytes: int) -> None:
        self.data_received(bytes(self._view[:nbytes]))

    def data_received(self, data: bytes) -> None:
        try:
            messages = self.wire.feed(data)
        except SidecarConnectionError as exc:
            if not self.ready.done():
                self.ready.set_exception(exc)
            self.abort()
            return
        self._flush()
        if not self.ready.done() and self.wire.handshake_done:
            self.ready.set_result(None)
        for raw in messages:
            self.on_message(self, raw)
        if self.wire.handshake_done and not self.wire.is_open and self.transport is not None:
            self.transport.close()

    def eof_received(self) -> bool | None:
        try:
            self.wire.feed(b"")
        except SidecarConnectionError:
            pass
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.alive = False
        reason = self.wire.close_reason()
        if exc is not None and "no close frame" in reason:
            reason = f"the connection to the sidecar was lost: {exc}"
        if not self.ready.done():
            self.ready.set_exception(SidecarConnectionError(f"cannot connect to {self.wire.url}: {reason}"))
        if self._resumed is not None and not self._resumed.done():
            self._resumed.set_result(None)
        if not self.closed.done():
            self.closed.set_result(None)
        self.on_lost(self, reason)

    def pause_writing(self) -> None:
        self._resumed = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        if self._resumed is not None and not self._resumed.done():
            self._resumed.set_result(None)
        self._resumed = None

    def send(self, message: bytes) -> None:
        """Write one text message (no-op once the connection is gone)."""
        if self.alive and self.wire.is_open and self.transport is not None:
            self.transport.write(self._framer.frame(message))

    async def drain(self) -> None:
        """Wait while the transport's write buffer is over its limit."""
        if self._resumed is not None:
            await self._resumed

    async def close(self) -> None:
        """Run the closing handshake, then drop the socket."""
        if self.transport is None or not self.alive:
            return
        self.wire.send_close()
        self._flush()
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await asyncio.shield(self.closed)
        except TimeoutError:
            self.abort()

    def abort(self) -> None:
        """Drop the socket at once, without a closing handshake."""
        if self.transport is not None:
            self.transport.abort()
