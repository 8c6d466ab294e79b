"""Security: a web page cannot drive the sidecar through DNS rebinding.

Without a token (as ``make run`` starts it) every listener accepts only loopback ``Host``
headers and loopback or absent ``Origin`` headers, on every path: ``/ws``, ``/mcp``,
``/metrics``, ``/healthz``, ``/readyz``. Requests are written on raw sockets so the test
controls the Host header. A whitespace-only token is refused at start, from every source.
"""

from __future__ import annotations

import json
import pathlib
import socket
from collections.abc import Iterator

import pytest
from secutil import Plain, env_without_token, plain_sidecar, run_refused_start

pytestmark = pytest.mark.security

WS_KEY = "dGhlIHNhbXBsZSBub25jZQ=="
INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "rebinding-test", "version": "1"}},
    }
)
CALL = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {
            "name": "list_workbooks",
            "arguments": {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "rebinding-test", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }
)


def request(port: int, method: str, path: str, headers: list[tuple[str, str]], body: str = "") -> tuple[int, str]:
    """Send one HTTP/1.1 request on a raw socket to 127.0.0.1:port; return the
    status code and whatever of the answer arrived (headers and some body)."""
    lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers)]
    if body:
        lines.append(f"Content-Length: {len(body.encode())}")
    lines.append("Connection: close")
    raw = ("\r\n".join(lines) + "\r\n\r\n" + body).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(raw)
        got = b""
        while b"\r\n\r\n" not in got:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
        # A little of the body, for the messages (a 101 sends none).
        if not got.startswith(b"HTTP/1.1 101"):
            s.settimeout(0.3)
            try:
                got += s.recv(4096)
            except (TimeoutError, OSError):
                pass
    text = got.decode("utf-8", "replace")
    status_line = text.split("\r\n", 1)[0]
    parts = status_line.split()
    assert len(parts) >= 2 and parts[0].startswith("HTTP/"), f"not an HTTP answer: {text[:200]!r}"
    return int(parts[1]), text


def upgrade(host: str, origin: str | None) -> list[tuple[str, str]]:
    """Headers of a WebSocket upgrade with this Host and Origin."""
    h = [
        ("Host", host),
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Key", WS_KEY),
        ("Sec-WebSocket-Version", "13"),
    ]
    if origin is not None:
        h.append(("Origin", origin))
    return h


def mcp_headers(host: str, origin: str | None, fast_call: bool) -> list[tuple[str, str]]:
    """Headers of a streamable-HTTP POST: initialize, or (fast_call) a stateless 2026-07-28 tools/call."""
    h = [("Host", host), ("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")]
    if fast_call:
        h += [("Mcp-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "list_workbooks")]
    if origin is not None:
        h.append(("Origin", origin))
    return h


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module", params=["one-port", "two-ports"])
def plain(request: pytest.FixtureRequest, sidecar_bin: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Plain]:
    """A sidecar without a token: ``--mcp-listen 127.0.0.1:0`` (the same listener as
    ``--listen``, as its log line's mcp_url says) or ``--mcp-listen`` on a port of its own."""
    mcp = "127.0.0.1:0" if request.param == "one-port" else f"127.0.0.1:{free_port()}"
    with plain_sidecar(sidecar_bin, tmp_path_factory.mktemp("rebinding-ws"), mcp_listen=mcp) as p:
        if request.param == "two-ports":
            assert p.mcp_port != p.ws_port, p.mcp_url
        yield p


def ports(p: Plain) -> list[int]:
    """Every listener: each serves every path."""
    return sorted({p.ws_port, p.mcp_port})


# Host and Origin pairs a rebinding page can produce ({port} is the listener's port).
EVIL: list[tuple[str, str | None]] = [
    ("evil.com:{port}", "http://evil.com:{port}"),
    ("evil.com:{port}", None),
    ("evil.com", None),
    ("127.0.0.1.nip.io:{port}", "http://127.0.0.1.nip.io:{port}"),
    ("localhost.evil.com:{port}", None),
    ("127.0.0.1:{port}", "http://evil.com:{port}"),
    ("localhost:{port}", "null"),
]
EVIL_IDS = ["evil-host-and-origin", "evil-host", "evil-host-no-port", "rebound-name", "localhost-prefix", "evil-origin", "null-origin"]

# Loopback Host and Origin pairs that must keep working.
LOOPBACK: list[tuple[str, str | None]] = [
    ("127.0.0.1:{port}", None),
    ("localhost:{port}", "http://localhost:{port}"),
    ("[::1]:{port}", None),
    ("127.0.0.1:{port}", "http://127.0.0.1:9999"),
]
LOOPBACK_IDS = ["ip", "localhost-same-origin", "ipv6", "loopback-origin-other-port"]


@pytest.mark.parametrize(("host", "origin"), EVIL, ids=EVIL_IDS)
def test_rebinding_refused_on_every_path(plain: Plain, host: str, origin: str | None) -> None:
    answers: list[str] = []
    for port in ports(plain):
        h = host.format(port=port)
        o = origin.format(port=port) if origin is not None else None
        probes: list[tuple[str, str, list[tuple[str, str]], str]] = [
            ("GET", "/ws", upgrade(h, o), ""),
            ("POST", "/mcp", mcp_headers(h, o, fast_call=False), INITIALIZE),
            ("POST", "/mcp", mcp_headers(h, o, fast_call=True), CALL),
            ("GET", "/metrics", [("Host", h)] + ([("Origin", o)] if o else []), ""),
            ("GET", "/healthz", [("Host", h)] + ([("Origin", o)] if o else []), ""),
            ("GET", "/readyz", [("Host", h)] + ([("Origin", o)] if o else []), ""),
        ]
        for method, path, headers, body in probes:
            status, text = request(port, method, path, headers, body)
            if status != 403:
                answers.append(f"port {port} {method} {path} Host={h!r} Origin={o!r}: {status} {text[:160]!r}")
    assert not answers, "accepted (403 expected):\n" + "\n".join(answers)
    assert plain.proc.poll() is None


@pytest.mark.parametrize(("host", "origin"), LOOPBACK, ids=LOOPBACK_IDS)
def test_loopback_host_still_works(plain: Plain, host: str, origin: str | None) -> None:
    for port in ports(plain):
        h = host.format(port=port)
        o = origin.format(port=port) if origin is not None else None
        extra = [("Origin", o)] if o else []
        status, text = request(port, "GET", "/ws", upgrade(h, o))
        assert status == 101, (port, h, o, text[:300])
        for path in ("/healthz", "/readyz", "/metrics"):
            status, text = request(port, "GET", path, [("Host", h), *extra])
            assert status == 200, (port, path, h, o, text[:300])
        status, text = request(port, "POST", "/mcp", mcp_headers(h, o, fast_call=False), INITIALIZE)
        assert status == 200, (port, h, o, text[:300])
        status, text = request(port, "POST", "/mcp", mcp_headers(h, o, fast_call=True), CALL)
        assert status == 200 and "workbooks" in text, (port, h, o, text[:300])


def test_token_keeps_origin_rules(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    """With a token, a browser Origin from elsewhere is still refused, even carrying the token."""
    token = "s3cret-token-for-origin-test"
    with plain_sidecar(sidecar_bin, tmp_path, "--token", token, expect_auth=True) as p:
        for port in ports(p):
            auth = [("Authorization", f"Bearer {token}")]
            status, text = request(port, "GET", "/ws", upgrade(f"127.0.0.1:{port}", f"http://evil.com:{port}") + auth)
            assert status == 403, text[:300]
            status, text = request(port, "POST", "/mcp", mcp_headers(f"127.0.0.1:{port}", f"http://evil.com:{port}", fast_call=True) + auth, CALL)
            assert status == 403, text[:300]
            status, text = request(port, "GET", "/ws", upgrade(f"127.0.0.1:{port}", None) + auth)
            assert status == 101, text[:300]


WHITESPACE_TOKENS = [" ", "   ", "\t", " \t\n"]


@pytest.mark.parametrize("token", WHITESPACE_TOKENS, ids=["space", "spaces", "tab", "mixed"])
@pytest.mark.parametrize("source", ["flag", "env", "file"])
def test_whitespace_token_refused_at_start(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path, token: str, source: str) -> None:
    args = ["--listen", "127.0.0.1:0", "--workspace", str(tmp_path)]
    env = env_without_token()
    if source == "flag":
        args += ["--token", token]
    elif source == "env":
        env["REGISTRY_SIDECAR_TOKEN"] = token
    else:
        (tmp_path / "token").write_text(token)
        args += ["--token-file", str(tmp_path / "token")]
    status, out, err = run_refused_start(sidecar_bin, args, env)
    assert status is not None, f"a whitespace token ({source}) was accepted: the sidecar started and served ({out.strip()!r})"
    assert status != 0, (status, out, err)
    assert "REGISTRY-SIDECAR|" not in out, out
    assert "token" in err.lower(), f"the refusal does not say why: {err.strip()[-300:]!r}"
