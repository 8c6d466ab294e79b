"""The WebSocket layer shared by Client and AsyncClient.

Both clients drive websockets' sans-I/O ``ClientProtocol`` themselves (a
blocking socket for Client, an asyncio protocol for AsyncClient) instead of
websockets' own connection classes: those add a thread hop (sync) or two
event-loop hops (asyncio) per message, which would triple the round trip.
"""

from __future__ import annotations

from typing import Final

from websockets.client import ClientProtocol
from websockets.exceptions import InvalidStatus, InvalidURI
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.typing import Subprotocol
from websockets.uri import WebSocketURI, parse_uri

from ._version import __version__
from .errors import AuthenticationError, SidecarConnectionError

#: WebSocket subprotocol offered to the sidecar.
SUBPROTOCOL: Final = Subprotocol("mcp")
#: Bytes read from the socket at a time. Kept under glibc's mmap threshold
#: (128 KiB): socket.recv(n) allocates n bytes first, and a bigger buffer
#: costs an mmap/munmap pair per read, which doubled the round trip.
READ_CHUNK: Final = 64 * 1024
#: User-Agent header of the opening handshake.
USER_AGENT: Final = f"registry-sidecar-python/{__version__}"


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
        request = self._proto.connect()
        request.headers["User-Agent"] = USER_AGENT
        if token:
            request.headers["Authorization"] = f"Bearer {token}"
        self._proto.send_request(request)
        self.handshake_done = False
        self._parts: list[bytes] | None = None

    @property
    def is_open(self) -> bool:
        """Whether the handshake succeeded and no close has started."""
        return self.handshake_done and self._proto.state is State.OPEN

    def outgoing(self) -> tuple[bytes, bool]:
        """Return the bytes to write, and whether to half-close after them."""
        chunks = self._proto.data_to_send()
        eof = False
        out = []
        for c in chunks:
            if c:
                out.append(c)
            else:
                eof = True
        return b"".join(out), eof

    def send_text(self, data: bytes) -> bytes:
        """Frame one text message and return the bytes to write."""
        self._proto.send_text(data)
        return b"".join(self._proto.data_to_send())

    def send_close(self) -> None:
        """Start the closing handshake (code 1000)."""
        if self._proto.state is State.OPEN:
            self._proto.send_close(1000)

    def feed(self, data: bytes) -> list[bytes]:
        """Process bytes read (b"" means EOF) and return complete messages.

        Raises AuthenticationError / SidecarConnectionError when the opening
        handshake is refused.
        """
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
