"""The sidecar driven by a client nobody here wrote: the official MCP Python
SDK's WebSocket transport (mcp<2, the last line that ships it)."""

from __future__ import annotations

import asyncio
import json
import pathlib
import signal
import subprocess
import warnings
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from mcp import ClientSession, types
    from mcp.client.websocket import websocket_client

HANDSHAKE_TIMEOUT_S = 15.0
"""How long the binary may take to print its handshake line."""

STOP_TIMEOUT_S = 15.0
"""How long the binary may take to exit after SIGTERM."""


@pytest_asyncio.fixture
async def sidecar_url(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> AsyncIterator[str]:
    """Launch the real binary with the test tools and yield its ws:// URL."""
    proc = await asyncio.create_subprocess_exec(
        str(sidecar_bin),
        "--listen",
        "127.0.0.1:0",
        "--workspace",
        str(tmp_path / "ws"),
        "--test-tools",
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), HANDSHAKE_TIMEOUT_S)).decode().strip()
        prefix, version, url = line.split("|")
        assert (prefix, version) == ("REGISTRY-SIDECAR", "1")
        assert url.startswith("ws://127.0.0.1:") and url.endswith("/ws")
        yield url
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.wait(), STOP_TIMEOUT_S)
    assert code == 0, f"sidecar exited {code} after SIGTERM"


def _text(result: types.CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


@pytest.mark.asyncio
async def test_mcp_sdk_session(sidecar_url: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        transport = websocket_client(sidecar_url)
    async with transport as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        assert init.serverInfo.name == "registry-sidecar"
        assert init.capabilities.tools is not None

        listed = await session.list_tools()
        by_name = {t.name: t for t in listed.tools}
        assert {"echo", "add", "sleep", "fail"} <= set(by_name)
        assert by_name["add"].inputSchema["required"] == ["a", "b"]

        ok = await session.call_tool("add", {"a": 40, "b": 2})
        assert ok.isError is False
        assert _text(ok) == '{"status": "success", "sum": 42}'

        failed = await session.call_tool("fail", {"exception": "KeyError", "message": "no sheet 'Q3'", "cause": "lookup"})
        assert failed.isError is True
        payload = json.loads(_text(failed))
        assert payload == {
            "status": "error",
            "error_code": "TOOL_EXECUTION_ERROR",
            "tool": "fail",
            "exception": "KeyError",
            "message": "no sheet 'Q3'",
            "cause": "lookup",
        }

        invalid = await session.call_tool("add", {"a": "one"})
        assert invalid.isError is True
        assert json.loads(_text(invalid))["error_code"] == "TOOL_ARGUMENT_VALIDATION_ERROR"

        assert isinstance(await session.send_ping(), types.EmptyResult)


@pytest.mark.asyncio
async def test_mcp_sdk_progress(sidecar_url: str) -> None:
    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        transport = websocket_client(sidecar_url)
    async with transport as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        res = await session.call_tool("sleep", {"ms": 100}, progress_callback=on_progress)
        assert _text(res) == '{"status": "success", "slept_ms": 100}'
    assert seen == sorted(seen) and len(seen) == 10 and seen[-1] == 100
