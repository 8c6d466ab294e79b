"""Wire's fast path for whole data frames against websockets' own parser:
random server frame streams (text, binary, pings, fragments with pings
between them, a close), cut at random points, give the same messages, the
same pongs and the same closing handshake as websockets alone."""

from __future__ import annotations

import random

import pytest
from websockets.frames import Close, CloseCode, Frame, Opcode
from websockets.server import ServerProtocol

from registry_sidecar._wire import Wire

MAX_SIZE = 100_000


def open_pair(max_size: int = MAX_SIZE) -> tuple[Wire, ServerProtocol]:
    """A Wire whose opening handshake a real websockets server accepted."""
    wire = Wire("ws://127.0.0.1:1/ws", token=None, max_size=max_size)
    server = ServerProtocol(subprotocols=["mcp"], max_size=None)
    request, _ = wire.outgoing()
    server.receive_data(request)
    [req] = server.events_received()
    server.send_response(server.accept(req))  # type: ignore[arg-type]
    assert wire.feed(b"".join(server.data_to_send())) == []
    assert wire.is_open
    return wire, server


def client_frames(server: ServerProtocol, data: bytes) -> list[Frame]:
    server.receive_data(data)
    return [e for e in server.events_received() if isinstance(e, Frame)]


def random_stream(rng: random.Random, server: ServerProtocol) -> tuple[bytes, list[bytes], list[bytes], bool]:
    """Server frames as bytes, the messages and ping payloads they carry,
    and whether the stream ends with a close."""
    out: list[bytes] = []
    messages: list[bytes] = []
    pings: list[bytes] = []

    def flush() -> None:
        out.extend(server.data_to_send())

    for _ in range(rng.randint(1, 12)):
        kind = rng.choice(["text", "text", "binary", "ping", "fragments", "big"])
        if kind == "ping":
            payload = rng.randbytes(rng.randint(0, 20))
            server.send_ping(payload)
            pings.append(payload)
        elif kind == "fragments":
            parts = [rng.randbytes(rng.randint(0, 300)) for _ in range(rng.randint(2, 4))]
            server.send_text(parts[0], fin=False)
            for i, part in enumerate(parts[1:], 1):
                if rng.random() < 0.5:
                    payload = rng.randbytes(4)
                    server.send_ping(payload)
                    pings.append(payload)
                server.send_continuation(part, fin=i == len(parts) - 1)
            messages.append(b"".join(parts))
        else:
            size = {"text": rng.randint(0, 200), "binary": rng.randint(0, 200),
                    "big": rng.choice([125, 126, 127, 65535, 65536, 70000])}[kind]
            payload = rng.randbytes(size)
            (server.send_binary if kind == "binary" else server.send_text)(payload)
            messages.append(payload)
        flush()
    closes = rng.random() < 0.3
    if closes:
        server.send_close(CloseCode.GOING_AWAY, "bye")
        flush()
    return b"".join(out), messages, pings, closes


@pytest.mark.parametrize("seed", range(200))
def test_fast_path_agrees_with_websockets(seed: int) -> None:
    rng = random.Random(seed)
    wire, server = open_pair()
    stream, want, pings, closes = random_stream(rng, server)
    got: list[bytes] = []
    sent = b""
    pos = 0
    while pos < len(stream):
        step = rng.choice([1, 2, 3, 7, 64, 1000, 100_000])
        got += wire.feed(stream[pos : pos + step])
        sent += wire.outgoing()[0]
        pos += step
    assert got == want
    answers = client_frames(server, sent)
    assert [f.data for f in answers if f.opcode is Opcode.PONG] == pings, "every ping answered, in order"
    assert wire.is_open is not closes
    if closes:
        assert answers[-1].opcode is Opcode.CLOSE, "the closing handshake is answered"
        assert "1001" in wire.close_reason()


def test_oversized_frame_closes_with_1009() -> None:
    wire, server = open_pair(max_size=1000)
    server.send_text(b"x" * 1001)
    data = b"".join(server.data_to_send())
    assert wire.feed(data[:5]) == []  # the header alone is enough to refuse it
    assert not wire.is_open
    [close] = client_frames(server, wire.outgoing()[0])
    assert Close.parse(close.data).code == CloseCode.MESSAGE_TOO_BIG


def test_masked_server_frame_is_a_protocol_error() -> None:
    wire, _ = open_pair()
    wire.feed(Frame(Opcode.TEXT, b"hi").serialize(mask=True))
    assert not wire.is_open, "websockets refuses a masked frame from a server"


def test_eof_after_a_partial_frame_reaches_websockets() -> None:
    wire, server = open_pair()
    server.send_text(b"hello")
    data = b"".join(server.data_to_send())
    assert wire.feed(data[:3]) == []
    assert wire.feed(b"") == []
    assert not wire.is_open
