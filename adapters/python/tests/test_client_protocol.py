"""AsyncClient against a scriptable server: what goes on the wire."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fake_server import FakeServer

from registry_sidecar import AsyncClient, AuthenticationError, SidecarConnectionError
from registry_sidecar.payloads import is_error_result, timeout_payload


def _value(text: str) -> Any:
    return json.loads(text)["value"]


@pytest.mark.asyncio
async def test_concurrent_calls_share_one_connection_and_match_by_id(fake_server: FakeServer) -> None:
    async with AsyncClient(fake_server.url) as client:
        # slow answers arrive in reverse order of sending.
        calls = [client.call_tool("slow", {"value": i, "ms": (50 - i) * 2}) for i in range(50)]
        results = await asyncio.gather(*calls)
    assert [_value(r.text) for r in results] == list(range(50))
    assert len(fake_server.connections) == 1
    ids = [m["id"] for m in fake_server.received if m.get("method") == "tools/call"]
    assert len(set(ids)) == 50


@pytest.mark.asyncio
async def test_initialize_handshake_precedes_calls(fake_server: FakeServer) -> None:
    async with AsyncClient(fake_server.url) as client:
        await client.call_tool("echo", {"value": 1})
    assert fake_server.methods()[:3] == ["initialize", "notifications/initialized", "tools/call"]
    init = fake_server.received[0]["params"]
    assert init["clientInfo"]["name"] == "registry-sidecar-python"


@pytest.mark.parametrize(
    ("server_token", "client_token", "ok"),
    [
        (None, None, True),
        ("s3cret", "s3cret", True),
        ("s3cret", "wrong", False),
        ("s3cret", None, False),
    ],
)
@pytest.mark.asyncio
async def test_bearer_token(
    fake_server: FakeServer, server_token: str | None, client_token: str | None, ok: bool
) -> None:
    fake_server.token = server_token
    client = AsyncClient(fake_server.url, token=client_token)
    if ok:
        await client.connect()
        await client.close()
        if client_token is not None:
            assert fake_server.headers[-1]["Authorization"] == f"Bearer {client_token}"
        else:
            assert "Authorization" not in fake_server.headers[-1]
    else:
        with pytest.raises(AuthenticationError, match="HTTP 401"):
            await client.connect()


@pytest.mark.asyncio
async def test_cancelling_the_task_sends_notifications_cancelled(fake_server: FakeServer) -> None:
    async with AsyncClient(fake_server.url) as client:
        task = asyncio.create_task(client.call_tool("hang", {}))
        call = await fake_server.wait_for("tools/call")
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        note = await fake_server.wait_for("notifications/cancelled")
    assert note["params"]["requestId"] == call["id"]
    assert "id" not in note


@pytest.mark.asyncio
async def test_timeout_returns_timeout_payload_and_cancels(fake_server: FakeServer) -> None:
    async with AsyncClient(fake_server.url, call_timeout=0.15) as client:
        res = await client.call_tool("hang", {})
        note = await fake_server.wait_for("notifications/cancelled")
        # A call under the same client still works afterwards.
        ok = await client.call_tool("echo", {"value": "after"})
    call = next(m for m in fake_server.received if m.get("method") == "tools/call")
    assert res.is_error
    assert res.text == timeout_payload("hang")
    assert json.loads(res.text)["error_code"] == "TOOL_TIMEOUT"
    assert call["params"]["_meta"]["timeoutMs"] == 150
    assert note["params"] == {"requestId": call["id"], "reason": "timeout"}
    assert _value(ok.text) == "after"


@pytest.mark.asyncio
async def test_per_call_timeout_overrides_the_clients(fake_server: FakeServer) -> None:
    async with AsyncClient(fake_server.url, call_timeout=30.0) as client:
        res = await client.call_tool("hang", {}, timeout=0.1)
        note = await fake_server.wait_for("notifications/cancelled")
        ok = await client.call_tool("echo", {"value": "default"})
    calls = [m for m in fake_server.received if m.get("method") == "tools/call"]
    assert res.text == timeout_payload("hang")
    assert [c["params"]["_meta"]["timeoutMs"] for c in calls] == [100, 30_000]
    assert note["params"] == {"requestId": calls[0]["id"], "reason": "timeout"}
    assert _value(ok.text) == "default"


@pytest.mark.asyncio
async def test_progress_callback_receives_every_step(fake_server: FakeServer) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with AsyncClient(fake_server.url) as client:
        res = await client.call_tool("progress", {"value": "done"}, progress=on_progress)
    call = next(m for m in fake_server.received if m.get("method") == "tools/call")
    assert call["params"]["_meta"]["progressToken"] == call["id"]
    assert seen == [(1.0, 3.0, "step 1"), (2.0, 3.0, "step 2"), (3.0, 3.0, "step 3")]
    assert _value(res.text) == "done"


@pytest.mark.parametrize(
    ("scope", "meta"),
    [
        (None, None),
        (["echo"], {"toolScope": ["echo"]}),
        ([], {"toolScope": []}),
    ],
)
@pytest.mark.asyncio
async def test_tool_scope_goes_into_meta(
    fake_server: FakeServer, scope: list[str] | None, meta: dict[str, Any] | None
) -> None:
    async with AsyncClient(fake_server.url) as client:
        await client.call_tool("echo", {"value": 1}, tool_scope=scope)
    call = next(m for m in fake_server.received if m.get("method") == "tools/call")
    assert call["params"].get("_meta") == meta


@pytest.mark.asyncio
async def test_frame_over_max_size_closes_and_reports_unavailable(fake_server: FakeServer) -> None:
    async with AsyncClient(fake_server.url, max_size=1024, recovery="none") as client:
        res = await client.call_tool("echo", {"value": "x" * 4096})
    assert res.is_error and is_error_result(res.text)
    payload = json.loads(res.text)
    assert payload["error_code"] == "TOOL_UNAVAILABLE"
    assert payload["exception"] == "ConnectionError"
    assert "1009" in payload["message"]


@pytest.mark.parametrize(
    ("recovery", "recovered"),
    [("reconnect", True), ("none", False)],
)
@pytest.mark.asyncio
async def test_lost_connection_fails_calls_in_flight_then_recovers_by_option(
    fake_server: FakeServer, recovery: Any, recovered: bool
) -> None:
    async with AsyncClient(fake_server.url, recovery=recovery) as client:
        task = asyncio.create_task(client.call_tool("hang", {}))
        await fake_server.wait_for("tools/call")
        await fake_server.connections[0].close()
        lost = await task
        nxt = await client.call_tool("echo", {"value": "next"})
    assert list(json.loads(lost.text)) == ["status", "error_code", "tool", "exception", "message"]
    assert json.loads(lost.text)["error_code"] == "TOOL_UNAVAILABLE"
    if recovered:
        assert not nxt.is_error
        assert len(fake_server.connections) == 2
    else:
        assert json.loads(nxt.text)["error_code"] == "TOOL_UNAVAILABLE"
        assert "disabled" in json.loads(nxt.text)["message"]


@pytest.mark.parametrize(
    "url",
    ["ws://127.0.0.1:1/ws", "http://127.0.0.1:1/", "not a url"],
)
@pytest.mark.asyncio
async def test_bad_url_raises_on_connect_and_returns_payload_on_call(url: str) -> None:
    client = AsyncClient(url, open_timeout=2.0)
    with pytest.raises(SidecarConnectionError):
        await client.connect()
    res = await client.call_tool("echo", {"value": 1})
    assert res.is_error
    assert json.loads(res.text)["error_code"] == "TOOL_UNAVAILABLE"


@pytest.mark.asyncio
async def test_closed_client_returns_unavailable(fake_server: FakeServer) -> None:
    client = AsyncClient(fake_server.url)
    await client.connect()
    await client.close()
    res = await client.call_tool("echo", {"value": 1})
    assert json.loads(res.text)["message"] == "the client is closed"
