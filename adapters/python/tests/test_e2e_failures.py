"""End to end: a killed sidecar, bad URLs, bad tokens, cancellation."""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import signal
import socket
import threading
import time
from typing import Any

import pytest

from registry_sidecar import (
    AsyncClient,
    AuthenticationError,
    CallResult,
    Client,
    LaunchError,
    Sidecar,
    SidecarConnectionError,
)

#: Upper bound for noticing a killed sidecar (it is immediate in practice).
DETECT_SECONDS = 5.0


def _payload(res: CallResult) -> dict[str, Any]:
    out = json.loads(res.text)
    assert isinstance(out, dict)
    return out


def _kill_during_call(sc: Sidecar, call: Any) -> tuple[CallResult, float]:
    """Start call() in a thread, SIGKILL the sidecar while it runs, and
    return the call's result and how long after the kill it came back."""
    box: list[CallResult] = []
    th = threading.Thread(target=lambda: box.append(call()))
    th.start()
    time.sleep(0.3)
    assert th.is_alive(), "the call finished before the kill"
    killed = time.monotonic()
    os.kill(sc.pid or 0, signal.SIGKILL)
    th.join(DETECT_SECONDS)
    assert not th.is_alive()
    return box[0], time.monotonic() - killed


@pytest.mark.parametrize(
    ("recovery", "relaunched"),
    [("relaunch", True), ("reconnect", False)],
)
def test_sigkill_mid_call(own_sidecar: Sidecar, recovery: Any, relaunched: bool) -> None:
    sc = own_sidecar
    first_pid = sc.pid
    with Client(sc.url, token=sc.token, sidecar=sc, recovery=recovery) as c:
        res, took = _kill_during_call(sc, lambda: c.call_tool("sleep", {"ms": 10_000}))
        p = _payload(res)
        assert list(p) == ["status", "error_code", "tool", "exception", "message"]
        assert (p["error_code"], p["tool"], p["exception"]) == ("TOOL_UNAVAILABLE", "sleep", "ConnectionError")
        assert took < DETECT_SECONDS
        nxt = c.call_tool("add", {"a": 1, "b": 2})
        if relaunched:
            assert _payload(nxt) == {"status": "success", "sum": 3}
            assert sc.alive and sc.pid != first_pid
            assert c.url == sc.url
        else:
            assert _payload(nxt)["error_code"] == "TOOL_UNAVAILABLE"
            assert _payload(nxt)["message"] == f"the sidecar exited with status {-signal.SIGKILL}"
            assert not sc.alive


def test_sigkill_mid_call_async(own_sidecar: Sidecar) -> None:
    sc = own_sidecar

    async def main() -> tuple[CallResult, CallResult]:
        async with AsyncClient(sc.url, token=sc.token, sidecar=sc, recovery="relaunch") as c:
            task = asyncio.create_task(c.call_tool("sleep", {"ms": 10_000}))
            await asyncio.sleep(0.3)
            os.kill(sc.pid or 0, signal.SIGKILL)
            async with asyncio.timeout(DETECT_SECONDS):
                lost = await task
            return lost, await c.call_tool("add", {"a": 2, "b": 2})

    lost, nxt = asyncio.run(main())
    assert _payload(lost)["error_code"] == "TOOL_UNAVAILABLE"
    assert _payload(nxt) == {"status": "success", "sum": 4}


def test_crash_while_idle_is_recovered_by_the_next_call(own_sidecar: Sidecar) -> None:
    sc = own_sidecar
    with Client(sc.url, token=sc.token, sidecar=sc, recovery="relaunch") as c:
        assert _payload(c.call_tool("add", {"a": 1, "b": 1}))["sum"] == 2
        os.kill(sc.pid or 0, signal.SIGKILL)
        deadline = time.monotonic() + DETECT_SECONDS
        while sc.alive and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)  # let the kernel deliver the EOF
        assert _payload(c.call_tool("add", {"a": 1, "b": 2}))["sum"] == 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    "url",
    [
        lambda: f"ws://127.0.0.1:{_free_port()}/ws",  # nothing listens
        lambda: "ws://[::1",  # not a URL
        lambda: "http://127.0.0.1:1/ws",  # not a WebSocket URL
    ],
)
def test_bad_url(url: Any) -> None:
    target = url()
    c = Client(target, open_timeout=2.0)
    with pytest.raises(SidecarConnectionError):
        c.connect()
    res = c.call_tool("add", {"a": 1, "b": 2})
    assert res.is_error and _payload(res)["error_code"] == "TOOL_UNAVAILABLE"

    async def amain() -> None:
        with pytest.raises(SidecarConnectionError):
            await AsyncClient(target, open_timeout=2.0).connect()

    asyncio.run(amain())


def test_wrong_path_on_a_live_sidecar(sidecar: Sidecar) -> None:
    url = sidecar.url.rsplit("/", 1)[0] + "/nope"
    with pytest.raises(SidecarConnectionError, match="HTTP 404"):
        Client(url, token=sidecar.token).connect()


@pytest.mark.parametrize("token", ["wrong", None, ""])
def test_bad_token(sidecar: Sidecar, token: str | None) -> None:
    assert sidecar.token
    with pytest.raises(AuthenticationError, match="HTTP 401"):
        Client(sidecar.url, token=token).connect()

    async def amain() -> None:
        with pytest.raises(AuthenticationError):
            await AsyncClient(sidecar.url, token=token).connect()

    asyncio.run(amain())


def test_async_cancellation_against_the_real_sidecar(sidecar: Sidecar) -> None:
    async def main() -> float:
        async with AsyncClient(sidecar.url, token=sidecar.token) as c:
            task = asyncio.create_task(c.call_tool("sleep", {"ms": 10_000}))
            await asyncio.sleep(0.1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            start = time.monotonic()
            res = await c.call_tool("add", {"a": 1, "b": 1})
            assert _payload(res)["sum"] == 2
            return time.monotonic() - start

    assert asyncio.run(main()) < DETECT_SECONDS


def test_launch_failure_of_the_real_binary_quotes_stderr(sidecar_binary: pathlib.Path, tmp_path: pathlib.Path) -> None:
    with pytest.raises(LaunchError) as info:
        Sidecar.launch(tmp_path / "missing-workspace", binary=sidecar_binary, args=["--no-such-flag"])
    msg = str(info.value)
    assert "before it was ready" in msg
    assert "last stderr lines" in msg
