"""TextFramer against websockets: its frames are byte for byte the frames
websockets' own serializer writes with the same mask, a websockets server
reads them back whole, and every frame gets a fresh mask, on one thread or
many (masks come from os.urandom in blocks, not one system call a frame)."""

from __future__ import annotations

import threading

import pytest
from test_wire import client_frames, open_pair
from websockets import frames as ws_frames
from websockets.frames import Frame, Opcode

from registry_sidecar._wire import MASKS_PER_DRAW, TextFramer

# Every header form: 7-bit length (0..125), 16-bit (126..65535), 64-bit.
SIZES = [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000]


def _mask_of(frame: bytes) -> bytes:
    n = frame[1] & 0x7F
    head = 2 if n < 126 else 4 if n == 126 else 10
    return frame[head : head + 4]


@pytest.mark.parametrize("size", SIZES)
def test_frame_is_websockets_frame_with_the_same_mask(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    data = bytes(i % 251 for i in range(size))
    ours = TextFramer().frame(data)
    mask = _mask_of(ours)
    monkeypatch.setattr(ws_frames.secrets, "token_bytes", lambda n: mask)
    assert ours == Frame(Opcode.TEXT, data).serialize(mask=True)


def test_websockets_server_reads_every_size_back() -> None:
    _, server = open_pair(max_size=100_000)
    framer = TextFramer()
    messages = [bytes([65 + i]) * size for i, size in enumerate(SIZES)]
    frames = client_frames(server, b"".join(framer.frame(m) for m in messages))
    assert [(f.opcode, f.fin, bytes(f.data)) for f in frames] == [(Opcode.TEXT, True, m) for m in messages]


def test_masks_are_fresh_across_draws() -> None:
    framer = TextFramer()
    count = 3 * MASKS_PER_DRAW + 5  # four draws
    masks = [_mask_of(framer.frame(b"x")) for _ in range(count)]
    # Random 4-byte masks: a repeat among a few thousand is a 1-in-1000 event;
    # a reused block or a constant mask would repeat thousands of times.
    assert len(set(masks)) >= count - 2


def test_threads_framing_at_once_never_share_a_block() -> None:
    framer = TextFramer()
    per_thread, threads = 2 * MASKS_PER_DRAW, 8
    masks: list[list[bytes]] = [[] for _ in range(threads)]
    start = threading.Barrier(threads)

    def work(i: int) -> None:
        start.wait()
        out = masks[i]
        for _ in range(per_thread):
            out.append(_mask_of(framer.frame(b"y")))

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    every = [m for ms in masks for m in ms]
    assert len(every) == per_thread * threads
    assert len(set(every)) >= len(every) - 2
