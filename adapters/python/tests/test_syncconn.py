"""SyncConn's combined writes: many threads sending at once over one socket
each get every message onto the wire exactly once, whole and in their own
order, however the writer role passes between them."""

from __future__ import annotations

import socket
import threading

from test_wire import open_pair
from websockets.frames import Frame, Opcode

from registry_sidecar._syncconn import SyncConn

THREADS = 16
PER_THREAD = 200


def test_concurrent_sends_arrive_whole_once_and_in_order() -> None:
    wire, server = open_pair()
    ours, theirs = socket.socketpair()
    conn = SyncConn(ours, wire, lambda c, raw: None)
    received = bytearray()

    def drain() -> None:
        while chunk := theirs.recv(1 << 16):
            received.extend(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    start = threading.Barrier(THREADS)

    def send(t: int) -> None:
        start.wait()
        for i in range(PER_THREAD):
            conn.send(f"{t}:{i}:".encode() + b"x" * (i % 300))

    senders = [threading.Thread(target=send, args=(t,)) for t in range(THREADS)]
    for s in senders:
        s.start()
    for s in senders:
        s.join()
    ours.shutdown(socket.SHUT_WR)
    reader.join()
    conn.die("done")
    theirs.close()

    server.receive_data(bytes(received))
    frames = [e for e in server.events_received() if isinstance(e, Frame)]
    assert all(f.opcode is Opcode.TEXT and f.fin for f in frames)
    seen: dict[int, list[int]] = {}
    for f in frames:
        t, i, pad = bytes(f.data).split(b":")
        assert pad == b"x" * (int(i) % 300), "a message arrived whole"
        seen.setdefault(int(t), []).append(int(i))
    assert seen == {t: list(range(PER_THREAD)) for t in range(THREADS)}
