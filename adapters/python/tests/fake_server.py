"""A small scriptable MCP-over-WebSocket server for client tests.

It listens on a real loopback socket and records every message it receives,
so tests can assert what the client sent (notifications/cancelled, _meta,
the Authorization header) — things the real sidecar does not echo back.
Tools:

- ``echo``: answers ``{"status": "success", "value": <arguments.value>}``;
- ``hang``: never answers;
- ``progress``: sends ``notifications/progress`` steps, then answers;
- ``slow``: answers after ``arguments.ms`` milliseconds.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response


@dataclass
class FakeServer:
    """The running server: its URL and everything it received."""

    token: str | None = None
    received: list[dict[str, Any]] = field(default_factory=list)
    headers: list[Headers] = field(default_factory=list)
    connections: list[ServerConnection] = field(default_factory=list)
    server: Server | None = None
    url: str = ""
    got_message: asyncio.Event = field(default_factory=asyncio.Event)
    #: websockets' keepalive: ping every ping_interval s, drop the client
    #: when no pong came within ping_timeout s (None: never).
    ping_interval: float | None = None
    ping_timeout: float | None = None

    def methods(self) -> list[str]:
        """The method of every received message, in order."""
        return [str(m.get("method")) for m in self.received]

    async def wait_for(self, method: str, timeout: float = 5.0) -> dict[str, Any]:
        """Wait until a message with method arrived and return it."""
        async with asyncio.timeout(timeout):
            while True:
                for m in self.received:
                    if m.get("method") == method:
                        return m
                self.got_message.clear()
                await self.got_message.wait()

    def _auth(self, conn: ServerConnection, request: Request) -> Response | None:
        self.headers.append(request.headers)
        if self.token is not None and request.headers.get("Authorization") != f"Bearer {self.token}":
            return conn.respond(401, "bad token\n")
        return None

    async def _handle(self, conn: ServerConnection) -> None:
        self.connections.append(conn)
        async for raw in conn:
            msg = json.loads(raw)
            self.received.append(msg)
            self.got_message.set()
            if "id" not in msg:
                continue
            rid = msg["id"]
            method = msg.get("method")
            if method == "initialize":
                await conn.send(
                    json.dumps(
                        {"jsonrpc": "2.0", "id": rid, "result": {"protocolVersion": "2025-11-25", "capabilities": {}}}
                    )
                )
            elif method == "ping":
                await conn.send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {}}))
            elif method == "tools/list":
                tools = [{"name": n, "description": n, "inputSchema": {"type": "object"}} for n in ("echo", "hang")]
                await conn.send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"tools": tools}}))
            elif method == "tools/call":
                asyncio.get_running_loop().create_task(self._call(conn, rid, msg["params"]))
            else:
                await conn.send(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "nope"}}))

    async def _call(self, conn: ServerConnection, rid: Any, params: dict[str, Any]) -> None:
        name = params["name"]
        args = params.get("arguments", {})
        if name == "hang":
            return
        if name == "slow":
            await asyncio.sleep(args["ms"] / 1000)
        if name == "progress":
            token = params["_meta"]["progressToken"]
            for i in range(1, 4):
                note = {"progressToken": token, "progress": i, "total": 3, "message": f"step {i}"}
                await conn.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": note}))
        text = json.dumps({"status": "success", "value": args.get("value")}, ensure_ascii=False)
        result = {"content": [{"type": "text", "text": text}], "isError": False}
        await conn.send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}))

    async def start(self) -> None:
        """Listen on an ephemeral loopback port."""
        self.server = await serve(
            self._handle,
            "127.0.0.1",
            0,
            process_request=self._auth,
            compression=None,
            ping_interval=self.ping_interval,
            ping_timeout=self.ping_timeout,
        )
        port = self.server.sockets[0].getsockname()[1]
        self.url = f"ws://127.0.0.1:{port}/ws"

    async def stop(self) -> None:
        """Close the server and its connections."""
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
