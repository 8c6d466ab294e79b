"""The README's ``mcpServers`` snippet mounts the sidecar as written: the test
launches that command line (only the workspace placeholder replaced, the
binary found on PATH as a host would) with the official MCP Python SDK's
``stdio_client`` and completes a call through it."""

from __future__ import annotations

import json
import os
import pathlib
import re

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
PLACEHOLDER = "/path/to/your/spreadsheets"
CALL_TIMEOUT_S = 15.0


def _snippet() -> dict[str, object]:
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)]
    mounts = [b for b in blocks if "mcpServers" in b]
    assert len(mounts) == 1, "README shows one mcpServers snippet"
    servers = mounts[0]["mcpServers"]
    assert list(servers) == ["registry-sidecar"]
    entry: dict[str, object] = servers["registry-sidecar"]
    return entry


@pytest.mark.asyncio
async def test_readme_mcp_servers_snippet(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    entry = _snippet()
    command, args = entry["command"], entry["args"]
    assert isinstance(command, str) and isinstance(args, list)
    assert PLACEHOLDER in args, "the snippet's workspace placeholder changed"
    workspace = tmp_path / "spreadsheets"
    params = StdioServerParameters(
        command=command,
        args=[str(workspace) if a == PLACEHOLDER else a for a in args],
        env={**os.environ, "PATH": f"{sidecar_bin.parent}{os.pathsep}{os.environ.get('PATH', '')}", **dict(entry.get("env", {}))},  # type: ignore[arg-type]
        cwd=tmp_path,
    )
    with (tmp_path / "stderr.log").open("w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.serverInfo.name == "registry-sidecar"
            with anyio.fail_after(CALL_TIMEOUT_S):
                res = await session.call_tool("write_cells", {"file_path": "hello.xlsx", "cell": "A1", "value": "hi", "create": True})
            assert res.isError is False
            block = res.content[0]
            assert isinstance(block, types.TextContent)
            assert json.loads(block.text)["status"] == "success"
    assert (workspace / "hello.xlsx").is_file()
