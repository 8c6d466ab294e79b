"""The WebSocket layer shared by Client and AsyncClient.

Both clients drive websockets' sans-I/O ``ClientProtocol`` themselves (a
blocking socket for Client, an asyncio protocol for AsyncClient) instead of
websockets' own connection classes: those add a thread hop (sync) or two
event-loop hops (asyncio) per message, which would triple the round trip.
"""

from __future__ import annotations

import collections
import os
import struct
from typing import Final

from websockets.client import ClientProtocol
from websockets.exceptions import InvalidStatus, InvalidURI
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.typing import Subprotocol
from websockets.uri import WebSocketURI, parse_uri

try:  # websockets' C mask, as websockets itself imports it
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - a build without the C extension
    from websockets.utils import apply_mask

from ._version import __version__
from .errors import AuthenticationError, SidecarConnectionError

#: WebSocket subprotocol offered to the sidecar.
SUBPROTOCOL: Final = Subprotocol("mcp")
#: Bytes read from the socket at a time. Kept under glibc's mmap threshold
#: (128 KiB): socket.recv(n) allocates n bytes first, and a bigger buffer
#: costs an mmap/munmap pair per read, which doubled the round trip.
READ_CHUNK: Final = 64 * 1024
#: First byte of an unfragmented text / binary frame (FIN, no RSV bits).
_WHOLE_TEXT: Final = 0x81
_WHOLE_BINARY: Final = 0x82
#: Frame headers with a 16-bit and a 64-bit payload length.
_HEAD16: Final = struct.Struct("!BBH")
_HEAD64: Final = struct.Struct("!BBQ")
#: Frame masks drawn from os.urandom at a time (4 KiB).
MASKS_PER_DRAW: Final = 1024
#: User-Agent header of the opening handshake.
USER_AGENT: Final = f"registry-sidecar-python/{__version__}"


class TextFramer:
    """Frames a connection's outgoing text messages: unfragmented, masked
    client frames in websockets' format (RFC 6455 5.2), masked by websockets'
    own ``apply_mask``.

    websockets' ``Frame.serialize`` draws each frame's mask with a 4-byte
    ``os.urandom`` call, a system call that releases the GIL: with threads
    sharing a connection, every request then handed the GIL to another
    thread and waited to get it back, the largest single cost of a shared
    Client. Here the masks come from one ``os.urandom`` call per
    MASKS_PER_DRAW frames, as unpredictable as before. Callers on many
    threads frame their messages without touching the shared protocol
    object (only the reader drives it); ``deque.popleft`` hands each mask out
    once. Callers check that the connection is open.
    """

    __slots__ = ("_masks",)

    def __init__(self) -> None:
        self._masks: collections.deque[bytes] = collections.deque()

    def frame(self, data: bytes) -> bytes:
        """Return one masked text frame carrying data."""
        try:
            mask = self._masks.popleft()
        except IndexError:
            mask = self._draw()
        n = len(data)
        if n < 126:
            head = bytes((_WHOLE_TEXT, 0x80 | n))
        elif n < 0x10000:
            head = _HEAD16.pack(_WHOLE_TEXT, 0x80 | 126, n)
        else:
            head = _HEAD64.pack(_WHOLE_TEXT, 0x80 | 127, n)
        return b"".join((head, mask, apply_mask(data, mask)))

    def _draw(self) -> bytes:
        block = os.urandom(4 * MASKS_PER_DRAW)
        self._masks.extend(block[i : i + 4] for i in range(4, len(block), 4))
        return block[:4]


def parse_url(url: str) -> WebSocketURI:
    """Parse a ws:// or wss:// URL; raise SidecarConnectionError if invalid."""
    try:
        return parse_uri(url)
    except (InvalidURI, ValueError) as exc:
        raise SidecarConnectionError(f"cannot connect to {url}: {exc}") from exc


class Wire:
    """One client WebSocket connection's protocol state, without I/O.

    Feed it the bytes read from the socket; it returns complete text
    messages and queues what must be written back (handshake, masked
    frames, automatic pongs, close frames) for :meth:`outgoing`.
    """

    def __init__(self, url: str, *, token: str | None, max_size: int) -> None:
        self.url = url
        self.uri = parse_url(url)
        self._proto = ClientProtocol(self.uri, subprotocols=[SUBPROTOCOL], max_size=max_size)
        self._max_size = max_size
        self._rest = b""  # the start of a frame not yet complete (fast path)
        request = self._proto.connect()
        request.headers["User-Agent"] = USER_AGENT
        if token:
            request.headers["Authorization"] = f"Bearer {token}"
        self._proto.send_request(request)
        self.handshake_done = False
        self._parts: list[bytes] | None = None
        #: Whether websockets may have bytes to write (it was given bytes
        #: since the last :meth:`outgoing`); the fast path never queues any.
        self.wants_write = True

    @property
    def is_open(self) -> bool:
        """Whether the handshake succeeded and no close has started."""
        return self.handshake_done and self._proto.state is State.OPEN

    def outgoing(self) -> tuple[bytes, bool]:
        """Return the bytes to write, and whether to half-close after them."""
        self.wants_write = False
        chunks = self._proto.data_to_send()
        eof = False
        out = []
        for c in chunks:
            if c:
                out.append(c)
            else:
                eof = True
        return b"".join(out), eof

    def send_close(self) -> None:
        """Start the closing handshake (code 1000)."""
        self.wants_write = True
        if self._proto.state is State.OPEN:
            self._proto.send_close(1000)

    def feed(self, data: bytes) -> list[bytes]:
        """Process bytes read (b"" means EOF) and return complete messages.

        Raises AuthenticationError / SidecarConnectionError when the opening
        handshake is refused.

        Once open, the frames a client meets on almost every read (a whole,
        unmasked text or binary frame within max_size) are cut out here
        directly: websockets' generator-based parser costs ~14 us a frame,
        a large part of a small call. Every other frame (ping, pong, close,
        fragments, reserved bits, a masked or oversized frame) is handed to
        websockets whole, or from its header on when it is too big, so
        websockets still answers pings, runs the closing handshake and
        enforces every rule; its parser is given whole frames only and never
        holds a partial one between reads. (Before the handshake completes
        every byte goes to websockets; the sidecar sends no frame before the
        client's first request, so none is left half-parsed there.)
        """
        if not data or not self.is_open:
            rest, self._rest = self._rest, b""
            earlier = self._feed_protocol(rest) if rest else []
            return earlier + self._feed_protocol(data)
        if self._rest:
            data = self._rest + data
            self._rest = b""
        messages: list[bytes] = []
        pos, n = 0, len(data)
        while n - pos >= 2:
            b0, b1 = data[pos], data[pos + 1]
            length, head = b1 & 0x7F, 2
            if length == 126:
                if n - pos < 4:
                    break
                length, head = int.from_bytes(data[pos + 2 : pos + 4]), 4
            elif length == 127:
                if n - pos < 10:
                    break
                length, head = int.from_bytes(data[pos + 2 : pos + 10]), 10
            if length > self._max_size:
                # websockets refuses it from its header (close 1009).
                messages += self._feed_protocol(data[pos:])
                return messages
            if b1 & 0x80:
                head += 4
            end = pos + head + length
            if end > n:
                break
            if (b0 == _WHOLE_TEXT or b0 == _WHOLE_BINARY) and not b1 & 0x80 and self._parts is None:
                messages.append(data[pos + head : end])
            else:
                messages += self._feed_protocol(data[pos:end])
                if not self.is_open:
                    messages += self._feed_protocol(data[end:])
                    return messages
            pos = end
        self._rest = data[pos:]
        return messages

    def _feed_protocol(self, data: bytes) -> list[bytes]:
        """Feed bytes (b"" means EOF) to websockets' protocol and return the
        complete messages it parsed."""
        self.wants_write = True
        if data:
            self._proto.receive_data(data)
        else:
            self._proto.receive_eof()
        messages: list[bytes] = []
        for event in self._proto.events_received():
            if isinstance(event, Frame):
                op = event.opcode
                if op is Opcode.TEXT or op is Opcode.BINARY:
                    if event.fin:
                        messages.append(bytes(event.data))
                    else:
                        self._parts = [bytes(event.data)]
                elif op is Opcode.CONT and self._parts is not None:
                    self._parts.append(bytes(event.data))
                    if event.fin:
                        messages.append(b"".join(self._parts))
                        self._parts = None
            elif isinstance(event, Response):
                self._check_handshake(event)
        if not self.handshake_done and self._proto.state is not State.CONNECTING:
            self._check_handshake(None)
        return messages

    def _check_handshake(self, response: Response | None) -> None:
        exc = self._proto.handshake_exc
        if exc is None and response is not None:
            self.handshake_done = True
            return
        if isinstance(exc, InvalidStatus):
            status = exc.response.status_code
            if status in (401, 403):
                raise AuthenticationError(f"the sidecar at {self.url} refused the token (HTTP {status})") from exc
            raise SidecarConnectionError(f"cannot connect to {self.url}: HTTP {status}") from exc
        raise SidecarConnectionError(f"cannot connect to {self.url}: {exc or 'the handshake failed'}") from exc

    def close_reason(self) -> str:
        """Describe why the connection closed, from the close frames."""
        rcvd, sent = self._proto.close_rcvd, self._proto.close_sent
        parts = []
        if rcvd is not None:
            parts.append(f"received {rcvd}")
        if sent is not None:
            parts.append(f"sent {sent}")
        if not parts:
            return "the connection to the sidecar was lost (no close frame)"
        return "the connection to the sidecar was closed: " + "; ".join(parts)
