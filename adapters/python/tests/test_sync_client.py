"""Client (sync) against the scriptable server running on another thread."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fake_server import FakeServer

from registry_sidecar import AuthenticationError, Client
from registry_sidecar.payloads import timeout_payload


class ThreadedServer:
    """A FakeServer on its own event-loop thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = self.run(self._make())

    async def _make(self) -> FakeServer:
        srv = FakeServer()
        await srv.start()
        return srv

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def wait_for(self, method: str) -> dict[str, Any]:
        return self.run(self.server.wait_for(method))  # type: ignore[no-any-return]

    def close(self) -> None:
        self.run(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def tserver() -> Iterator[ThreadedServer]:
    srv = ThreadedServer()
    yield srv
    srv.close()


def _value(text: str) -> Any:
    return json.loads(text)["value"]


def test_threads_get_their_own_answers_when_answers_arrive_out_of_order(tserver: ThreadedServer) -> None:
    rnd = random.Random(7)
    delays = [[rnd.randint(0, 20) for _ in range(10)] for _ in range(16)]
    wrong: list[tuple[Any, Any]] = []
    with Client(tserver.server.url) as c:

        def work(t: int) -> None:
            for i, ms in enumerate(delays[t]):
                want = f"{t}/{i}"
                got = _value(c.call_tool("slow", {"value": want, "ms": ms}).text)
                if got != want:
                    wrong.append((want, got))

        pool = [threading.Thread(target=work, args=(t,)) for t in range(16)]
        for th in pool:
            th.start()
        for th in pool:
            th.join(30)
        assert not any(th.is_alive() for th in pool)
    assert wrong == []
    assert len(tserver.server.connections) == 1


def test_timeout_sends_cancelled_and_returns_the_timeout_payload(tserver: ThreadedServer) -> None:
    with Client(tserver.server.url) as c:
        res = c.call_tool("hang", {}, timeout=0.1)
        note = tserver.wait_for("notifications/cancelled")
        after = c.call_tool("echo", {"value": "ok"})
    call = next(m for m in tserver.server.received if m.get("method") == "tools/call")
    assert res.is_error and res.text == timeout_payload("hang")
    assert call["params"]["_meta"] == {"timeoutMs": 100}
    assert note["params"] == {"requestId": call["id"], "reason": "timeout"}
    assert _value(after.text) == "ok"


def test_a_follower_times_out_while_another_thread_reads(tserver: ThreadedServer) -> None:
    with Client(tserver.server.url) as c:
        slow: list[str] = []
        th = threading.Thread(target=lambda: slow.append(c.call_tool("slow", {"value": "v", "ms": 400}).text))
        th.start()
        tserver.wait_for("tools/call")
        res = c.call_tool("hang", {}, timeout=0.1)
        th.join(5)
    assert res.text == timeout_payload("hang")
    assert _value(slow[0]) == "v"


def test_progress_runs_the_callback(tserver: ThreadedServer) -> None:
    seen: list[tuple[float, float | None, str | None]] = []
    with Client(tserver.server.url) as c:
        res = c.call_tool("progress", {"value": 1}, progress=lambda p, t, m: seen.append((p, t, m)))
    assert _value(res.text) == 1
    assert seen == [(1.0, 3.0, "step 1"), (2.0, 3.0, "step 2"), (3.0, 3.0, "step 3")]


def test_token_header_and_refusal(tserver: ThreadedServer) -> None:
    tserver.server.token = "t0k"
    with Client(tserver.server.url, token="t0k") as c:
        c.ping()
    assert tserver.server.headers[-1]["Authorization"] == "Bearer t0k"
    with pytest.raises(AuthenticationError):
        Client(tserver.server.url, token="nope").connect()


def test_lost_connection_then_reconnect(tserver: ThreadedServer) -> None:
    with Client(tserver.server.url) as c:
        box: list[str] = []
        th = threading.Thread(target=lambda: box.append(c.call_tool("hang", {}).text))
        th.start()
        tserver.wait_for("tools/call")
        tserver.run(tserver.server.connections[0].close())
        th.join(5)
        assert json.loads(box[0])["error_code"] == "TOOL_UNAVAILABLE"
        assert _value(c.call_tool("echo", {"value": "again"}).text) == "again"
    assert len(tserver.server.connections) == 2


def test_max_size_is_explicit(tserver: ThreadedServer) -> None:
    with Client(tserver.server.url, max_size=1000, recovery="none") as c:
        ok = c.call_tool("echo", {"value": "x" * 500})
        big = c.call_tool("echo", {"value": "x" * 2000})
    assert _value(ok.text) == "x" * 500
    payload = json.loads(big.text)
    assert payload["error_code"] == "TOOL_UNAVAILABLE"
    assert "1009" in payload["message"]


def test_closed_client(tserver: ThreadedServer) -> None:
    c = Client(tserver.server.url)
    c.connect()
    c.close()
    assert json.loads(c.call_tool("echo", {"value": 1}).text)["message"] == "the client is closed"


def test_keepalive_answers_pings_while_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    import registry_sidecar._syncconn as syncconn

    monkeypatch.setattr(syncconn, "KEEPALIVE_INTERVAL", 0.05)
    srv = ThreadedServer.__new__(ThreadedServer)
    srv.loop = asyncio.new_event_loop()
    srv.thread = threading.Thread(target=srv.loop.run_forever, daemon=True)
    srv.thread.start()

    async def make() -> FakeServer:
        s = FakeServer(ping_interval=0.1, ping_timeout=0.3)
        await s.start()
        return s

    srv.server = srv.run(make())
    try:
        with Client(srv.server.url, recovery="none") as c:
            import time

            time.sleep(1.0)  # idle for three ping timeouts
            assert c.connected
            assert _value(c.call_tool("echo", {"value": "alive"}).text) == "alive"
        assert len(srv.server.connections) == 1
    finally:
        srv.close()
