"""The streamable HTTP door driven by the official MCP Python SDK 2.x ``Client``
(protocol 2026-07-28, stateless): it lists the tools with annotations, runs a
spreadsheet tool, gets an error payload and cancels a slow test tool by
abandoning the call (2.x closes the request, the sidecar cancels the tool)."""

from __future__ import annotations

import json
import pathlib

import anyio
import mcp_types as types
from mcp import Client
from mcp_doors import Logs, http_sidecar

CALL_TIMEOUT_S = 15.0
"""How long one call may take before the test fails."""


def _text(result: types.CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


async def _exercise(url: str, logs: Logs) -> None:
    async with Client(url) as client:
        assert client.protocol_version == "2026-07-28", "2.x speaks the stateless protocol with the sidecar"

        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert {"write_cells", "read_excel", "delete_sheet", "slow"} <= set(tools)
        read_excel, delete_sheet = tools["read_excel"].annotations, tools["delete_sheet"].annotations
        assert read_excel is not None and read_excel.read_only_hint is True
        assert delete_sheet is not None and delete_sheet.destructive_hint is True

        with anyio.fail_after(CALL_TIMEOUT_S):
            wrote = await client.call_tool("write_cells", {"file_path": "py2.xlsx", "cell": "C3", "value": "数据", "create": True})
        assert wrote.is_error is False, _text(wrote)
        with anyio.fail_after(CALL_TIMEOUT_S):
            read = await client.call_tool("read_excel", {"file_path": "py2.xlsx", "range": "C3"})
        assert json.loads(_text(read))["values"] == [["数据"]]

        with anyio.fail_after(CALL_TIMEOUT_S):
            missing = await client.call_tool("read_excel", {"file_path": "missing.xlsx"})
        assert missing.is_error is True
        payload = json.loads(_text(missing))
        assert (payload["error_code"], payload["exception"]) == ("TOOL_EXECUTION_ERROR", "FileNotFoundError")

        started = anyio.Event()

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            started.set()

        async with anyio.create_task_group() as tg:

            async def call_slow() -> None:
                await client.call_tool("slow", {}, progress_callback=on_progress)

            tg.start_soon(call_slow)
            with anyio.fail_after(CALL_TIMEOUT_S):
                await started.wait()
            tg.cancel_scope.cancel()  # abandoning the call cancels it
        with anyio.fail_after(CALL_TIMEOUT_S):
            while True:
                try:
                    logs.wait_for(timeout=0, msg="call", tool="slow", error_code="TOOL_CANCELLED")
                    break
                except AssertionError:
                    await anyio.sleep(0.05)

        with anyio.fail_after(CALL_TIMEOUT_S):
            after = await client.call_tool("add", {"a": 1, "b": 2})
        assert _text(after) == '{"status": "success", "sum": 3}'


def test_official_python_client_2x(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    with http_sidecar(sidecar_bin, tmp_path / "ws") as (url, logs):
        anyio.run(_exercise, url, logs)
