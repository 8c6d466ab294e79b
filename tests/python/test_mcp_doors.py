"""The MCP doors driven by the official Python SDK, newest 1.x line: ``stdio_client``
launching ``registry-sidecar mcp`` and ``streamablehttp_client`` against
``--mcp-listen``. Each lists the tools (with annotations), runs a spreadsheet tool,
gets an error payload, and cancels a slow test tool (the sidecar then logs the call
as TOOL_CANCELLED: the tool's context was cancelled)."""

from __future__ import annotations

import json
import pathlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio
import anyio.lowlevel
import pytest
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client
from mcp.shared.session import RequestResponder
from mcp_doors import Logs, http_sidecar, stdio_args

# streamablehttp_client is the name the issue asks for; 1.x deprecates it for
# streamable_http_client, the same transport.
pytestmark = pytest.mark.filterwarnings("ignore:Use `streamable_http_client` instead:DeprecationWarning")

CALL_TIMEOUT_S = 15.0
"""How long one call may take before the test fails."""


def _text(result: types.CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


class Progress:
    """Remembers the progress token of the first progress notification (the request id)."""

    def __init__(self) -> None:
        self.token: types.ProgressToken | None = None
        self.started = anyio.Event()

    async def handle(
        self,
        message: RequestResponder[types.ServerRequest, types.ClientResult] | types.ServerNotification | Exception,
    ) -> None:
        notification = message.root if isinstance(message, types.ServerNotification) else None
        if isinstance(notification, types.ProgressNotification) and self.token is None:
            self.token = notification.params.progressToken
            self.started.set()


@asynccontextmanager
async def stdio_session(
    binary: pathlib.Path, workspace: pathlib.Path, progress: Progress
) -> AsyncIterator[tuple[ClientSession, Callable[[], Logs]]]:
    errlog_path = workspace.parent / "stdio-stderr.log"
    with errlog_path.open("w", encoding="utf-8") as errlog:
        params = StdioServerParameters(command=str(binary), args=stdio_args(workspace))
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, message_handler=progress.handle) as session,
        ):
            yield session, lambda: Logs().from_file(errlog_path)


@asynccontextmanager
async def http_session(
    binary: pathlib.Path, workspace: pathlib.Path, progress: Progress
) -> AsyncIterator[tuple[ClientSession, Callable[[], Logs]]]:
    with http_sidecar(binary, workspace) as (url, logs):
        async with streamablehttp_client(url) as (read, write, _), ClientSession(read, write, message_handler=progress.handle) as session:
            yield session, lambda: logs


SESSIONS = {"stdio": stdio_session, "http": http_session}


@pytest.mark.asyncio
@pytest.mark.parametrize("door", sorted(SESSIONS))
async def test_official_python_client(door: str, sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    progress = Progress()
    async with SESSIONS[door](sidecar_bin, workspace, progress) as (session, logs):
        init = await session.initialize()
        assert init.serverInfo.name == "registry-sidecar"
        assert init.capabilities.tools is not None

        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert {"write_cells", "read_excel", "delete_sheet", "slow"} <= set(tools)
        assert tools["read_excel"].annotations is not None and tools["read_excel"].annotations.readOnlyHint is True
        assert tools["delete_sheet"].annotations is not None and tools["delete_sheet"].annotations.destructiveHint is True
        assert tools["insert_rows"].annotations is not None and tools["insert_rows"].annotations.destructiveHint is False
        test_tools = {"echo", "add", "sleep", "slow", "fail", "panic", "fallback", "big", "env_error"}
        for tool in tools.values():  # every tool stays in the workspace; spreadsheet tools have a title
            assert tool.annotations is not None, tool.name
            assert tool.name in test_tools or tool.annotations.title, tool.name
            assert tool.annotations.openWorldHint is False, tool.name
        assert tools["read_excel"].annotations.idempotentHint is True
        assert tools["write_cells"].annotations.idempotentHint is True
        assert tools["insert_rows"].annotations.idempotentHint is False
        assert tools["write_cells"].inputSchema["required"] == ["file_path"]

        with anyio.fail_after(CALL_TIMEOUT_S):
            wrote = await session.call_tool("write_cells", {"file_path": "py.xlsx", "cell": "B2", "value": 42, "create": True})
        assert wrote.isError is False, _text(wrote)
        assert json.loads(_text(wrote))["status"] == "success"
        with anyio.fail_after(CALL_TIMEOUT_S):
            read = await session.call_tool("read_excel", {"file_path": "py.xlsx", "range": "B2"})
        assert json.loads(_text(read))["values"] == [[42]]

        with anyio.fail_after(CALL_TIMEOUT_S):
            missing = await session.call_tool("read_excel", {"file_path": "missing.xlsx"})
        assert missing.isError is True
        payload = json.loads(_text(missing))
        assert payload["status"] == "error"
        assert payload["error_code"] == "TOOL_EXECUTION_ERROR"
        assert payload["exception"] == "FileNotFoundError"

        # Cancel a slow tool: mcp 1.x has no cancel API, so the client sends the
        # MCP notification itself for the request the progress token names.
        async with anyio.create_task_group() as tg:

            async def call_slow() -> None:
                await session.call_tool("slow", {}, progress_callback=lambda *_: anyio.lowlevel.checkpoint())

            tg.start_soon(call_slow)
            with anyio.fail_after(CALL_TIMEOUT_S):
                await progress.started.wait()
            assert progress.token is not None
            await session.send_notification(
                types.ClientNotification(
                    types.CancelledNotification(params=types.CancelledNotificationParams(requestId=progress.token, reason="test"))
                )
            )
            tg.cancel_scope.cancel()
        # The sidecar logs each call as it ends: the slow tool ended cancelled.
        with anyio.fail_after(CALL_TIMEOUT_S):
            while True:
                try:
                    logs().wait_for(timeout=0, msg="call", tool="slow", error_code="TOOL_CANCELLED")
                    break
                except AssertionError:
                    await anyio.sleep(0.05)
        # The session goes on after a cancel.
        with anyio.fail_after(CALL_TIMEOUT_S):
            assert isinstance(await session.send_ping(), types.EmptyResult)
