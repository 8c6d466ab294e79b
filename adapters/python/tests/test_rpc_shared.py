"""The logic both clients share (``_rpc``, ``_recovery``), without I/O."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from registry_sidecar import AsyncClient, CallResult, Client
from registry_sidecar._recovery import ClientCore
from registry_sidecar._rpc import (
    PingReply,
    Progress,
    ToolListing,
    decode_inbound,
    encode_call,
    encode_notification,
    encode_request,
    timed_out,
    unavailable,
)


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        (b'{"jsonrpc":"2.0","id":7,"result":{}}', {"jsonrpc": "2.0", "id": 7, "result": {}}),
        (b'{"jsonrpc":"2.0","id":8,"error":{"code":-32601}}', {"jsonrpc": "2.0", "id": 8, "error": {"code": -32601}}),
        (
            b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":1,"total":4,"message":"m"}}',
            Progress(3, 1.0, 4.0, "m"),
        ),
        (
            b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":"x"}}',
            Progress("t", 0.0, None, None),
        ),
        (b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}', None),
        (b'{"jsonrpc":"2.0","method":"notifications/message","params":{}}', None),
        (b'{"jsonrpc":"2.0","method":"ping"}', None),
        (b"[1, 2]", None),
    ],
    ids=[
        "result",
        "error",
        "progress",
        "progress defaults",
        "progress without token",
        "other notification",
        "ping without id",
        "not an object",
    ],
)
def test_decode_inbound(raw: bytes, want: Any) -> None:
    assert decode_inbound(raw) == want


def test_decode_inbound_answers_pings() -> None:
    got = decode_inbound(b'{"jsonrpc":"2.0","id":"p1","method":"ping"}')
    assert isinstance(got, PingReply)
    assert json.loads(got.frame) == {"jsonrpc": "2.0", "id": "p1", "result": {}}


def test_decode_inbound_logs_frames_that_are_not_json(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert decode_inbound(b"{nope") is None
    assert "not JSON" in caplog.text


def test_tool_listing_follows_cursors() -> None:
    pages = [
        {"tools": [{"name": "a"}, "junk"], "nextCursor": "c1"},
        {"tools": [{"name": "b"}], "nextCursor": "c2"},
        {"tools": [{"name": "c"}], "nextCursor": ""},
    ]
    listing = ToolListing()
    sent = []
    for page in pages:
        sent.append(listing.params())
        done = listing.add(page)
        assert done == (page is pages[-1])
    assert sent == [{}, {"cursor": "c1"}, {"cursor": "c2"}]
    assert [t["name"] for t in listing.tools] == ["a", "b", "c"]


def test_local_payloads() -> None:
    assert unavailable("t", "gone") == CallResult(
        '{"status": "error", "error_code": "TOOL_UNAVAILABLE", "tool": "t", '
        '"exception": "ConnectionError", "message": "gone"}',
        True,
    )
    assert timed_out("t") == CallResult(
        '{"status": "error", "error_code": "TOOL_TIMEOUT", "tool": "t", '
        '"exception": "TimeoutError", "message": "tool \'t\' timed out"}',
        True,
    )


@pytest.mark.parametrize("cls", [Client, AsyncClient])
def test_settings_build_an_equal_peer(cls: type[ClientCore]) -> None:
    c = cls("ws://127.0.0.1:1/ws", token="k", max_size=1234, call_timeout=2.5, open_timeout=3.0, recovery="none")
    peer = AsyncClient(**c.settings())
    assert peer.settings() == c.settings()
    assert c.settings()["max_size"] == 1234 and c.settings()["recovery"] == "none"


def test_call_frame_uses_the_default_timeout_and_fresh_ids() -> None:
    core = ClientCore("ws://127.0.0.1:1/ws", call_timeout=1.5)
    rid1, frame1, timeout1 = core._call_frame("add", {"a": 1}, None, None, False)
    rid2, frame2, timeout2 = core._call_frame("add", None, ["add"], 0.25, True)
    assert (rid1, timeout1, rid2, timeout2) == (1, 1.5, 2, 0.25)
    assert json.loads(frame1)["params"] == {"name": "add", "arguments": {"a": 1}, "_meta": {"timeoutMs": 1500}}
    assert json.loads(frame2)["params"] == {
        "name": "add",
        "arguments": {},
        "_meta": {"progressToken": 2, "toolScope": ["add"], "timeoutMs": 250},
    }


def _compact(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


@pytest.mark.parametrize(
    ("name", "arguments", "scope", "timeout", "progress", "meta"),
    [
        ("add", {"a": 1, "b": 2}, None, None, False, None),
        ("add", None, None, None, False, None),
        (
            '名前 "q"',
            {"é": "x\n\u2028", "f": [1.5, -0.0, 1e300, float("inf"), None, True], "d": {"k": {}}},
            None,
            None,
            False,
            None,
        ),
        (
            "add",
            {"a": 1},
            ("add", "sub"),
            0.0001,
            True,
            {"progressToken": 9, "toolScope": ["add", "sub"], "timeoutMs": 1},
        ),
        ("add", {}, None, 2.5, False, {"timeoutMs": 2500}),
    ],
    ids=["plain", "no arguments", "unicode and nesting", "all meta", "timeout only"],
)
def test_encode_call_is_compact_json_of_the_request(
    name: str,
    arguments: dict[str, Any] | None,
    scope: tuple[str, ...] | None,
    timeout: float | None,
    progress: bool,
    meta: dict[str, Any] | None,
) -> None:
    params: dict[str, Any] = {"name": name, "arguments": {} if arguments is None else arguments}
    if meta is not None:
        params["_meta"] = meta
    want = _compact({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params})
    assert encode_call(9, name, arguments, tool_scope=scope, timeout=timeout, progress=progress) == want
    assert encode_call(9, name, arguments, tool_scope=scope, timeout=timeout, progress=progress) == want  # cached head
    assert encode_request(9, "tools/call", params) == want
    assert encode_notification("n", {"x": [1]}) == _compact({"jsonrpc": "2.0", "method": "n", "params": {"x": [1]}})


def test_encode_call_refuses_what_json_refuses() -> None:
    circular: dict[str, Any] = {}
    circular["self"] = circular
    with pytest.raises(ValueError, match="Circular reference"):
        encode_call(1, "add", circular, tool_scope=None, timeout=None, progress=False)
    with pytest.raises(TypeError, match="not JSON serializable"):
        encode_call(1, "add", {"a": object()}, tool_scope=None, timeout=None, progress=False)


@pytest.mark.parametrize(
    ("recovery", "closed", "ever", "lost", "want"),
    [
        ("reconnect", False, False, None, None),
        ("none", False, False, None, None),
        ("none", False, True, "bye", "bye; automatic reconnection is disabled"),
        ("reconnect", False, True, "bye", None),
        ("reconnect", True, True, None, "the client is closed"),
    ],
)
def test_why_not_connect(recovery: Any, closed: bool, ever: bool, lost: str | None, want: str | None) -> None:
    core = ClientCore("ws://127.0.0.1:1/ws", recovery=recovery)
    core._closed, core._ever_connected, core._lost = closed, ever, lost
    assert core._why_not_connect() == want
    assert core._relaunch_first() is False  # no sidecar to relaunch


def test_bad_recovery_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown recovery"):
        ClientCore("ws://x/ws", recovery="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs sidecar"):
        Client("ws://x/ws", recovery="relaunch")
