"""Launching the real binary for the MCP door suites (stdio and streamable HTTP).

Shared by the official Python SDK suites (1.x here, 2.x in tests/python_mcp2):
the sidecar's JSON log lines on stderr tell the tests the MCP URL and what
happened to each call (``{"msg": "call", "tool": ..., "error_code": ...}``).
"""

from __future__ import annotations

import json
import pathlib
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

START_TIMEOUT_S = 15.0
"""How long the binary may take to log that it listens."""

STOP_TIMEOUT_S = 15.0
"""How long the binary may take to exit after SIGTERM."""

LOG_WAIT_S = 15.0
"""How long a test waits for a log line about a call."""


@dataclass
class Logs:
    """JSON log lines of a sidecar, collected as they arrive."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    cond: threading.Condition = field(default_factory=threading.Condition)

    def add(self, raw: str) -> None:
        try:
            line = json.loads(raw)
        except ValueError:
            return
        with self.cond:
            self.lines.append(line)
            self.cond.notify_all()

    def wait_for(self, timeout: float = LOG_WAIT_S, **fields: Any) -> dict[str, Any]:
        """The first line whose fields include ``fields``; fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for line in self.lines:
                    if all(line.get(k) == v for k, v in fields.items()):
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no log line with {fields} in {len(self.lines)} lines")
                self.cond.wait(left)

    def from_file(self, path: pathlib.Path) -> Logs:
        """Reload from a stderr file written by a stdio child."""
        with self.cond:
            self.lines = []
        for raw in path.read_text(encoding="utf-8").splitlines():
            self.add(raw)
        return self


@contextmanager
def http_sidecar(binary: pathlib.Path, workspace: pathlib.Path, *extra: str) -> Iterator[tuple[str, Logs]]:
    """Serve with ``--mcp-listen`` on a free port; yield the /mcp URL and the logs."""
    proc = subprocess.Popen(
        [str(binary), "--listen", "127.0.0.1:0", "--mcp-listen", "127.0.0.1:0", "--workspace", str(workspace), "--test-tools", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    logs = Logs()
    assert proc.stderr is not None
    stderr = proc.stderr

    def pump() -> None:
        for raw in stderr:
            logs.add(raw)

    threading.Thread(target=pump, daemon=True).start()
    try:
        listening = logs.wait_for(START_TIMEOUT_S, msg="listening")
        assert listening["doors"] == ["ws", "http"], listening
        yield listening["mcp_url"], logs
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        code = proc.wait(STOP_TIMEOUT_S)
        assert code == 0, f"sidecar exited {code} after SIGTERM"


def stdio_args(workspace: pathlib.Path) -> list[str]:
    """Arguments of ``registry-sidecar`` for an MCP stdio server with the test tools."""
    return ["mcp", "--workspace", str(workspace), "--test-tools"]
