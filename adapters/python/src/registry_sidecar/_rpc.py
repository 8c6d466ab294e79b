"""JSON-RPC messages (MCP method names) shared by Client and AsyncClient."""

from __future__ import annotations

import json
import json.encoder
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ._version import __version__
from .errors import RPCError
from .payloads import timeout_payload, unavailable_payload

#: MCP protocol revision sent in initialize.
MCP_PROTOCOL_VERSION: Final = "2025-11-25"
#: Reason sent with notifications/cancelled when the caller gives up.
CANCEL_REASON: Final = "cancelled by the client"
#: Reason sent with notifications/cancelled when the client's deadline passes.
TIMEOUT_REASON: Final = "timeout"

#: A progress callback: (progress, total or None, message or None). Client
#: runs it on whichever calling thread is reading the connection;
#: AsyncClient runs it on the event loop, and awaits nothing it returns but
#: schedules an awaitable result as a task.
ProgressCallback = Callable[[float, float | None, str | None], Awaitable[None] | None]

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_loads = json.loads
_raw_decode = json.JSONDecoder().raw_decode
_log = logging.getLogger(__name__)


def _not_serializable(o: object) -> object:
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


def _compact_encoder() -> Callable[[object], str]:
    """Return a function encoding a value as _dumps does, minus the cost
    JSONEncoder.encode pays on every call to build its C encoder (most of
    encoding a small request). The C encoder is built once without a
    circular-reference table (the table would be shared by every thread);
    a value it cannot encode is handed to _dumps, which raises the usual
    error (TypeError, "Circular reference detected")."""
    make: Any = getattr(json.encoder, "c_make_encoder", None)
    try:
        encode = make(None, _not_serializable, json.encoder.encode_basestring, None, ":", ",", False, False, True)
    except TypeError:  # no C accelerator (another Python implementation), or another signature
        return _dumps

    def fast(value: object) -> str:
        try:
            return "".join(encode(value, 0))
        except (TypeError, ValueError, RecursionError):
            return _dumps(value)

    return fast


_encode = _compact_encoder()
#: The bytes of a tools/call request around its id, per tool name.
_CALL_HEADS: dict[str, tuple[bytes, bytes]] = {}


@dataclass(frozen=True, slots=True)
class CallResult:
    """The outcome of one tool call: the exact payload text and whether it is
    an error payload (the sidecar's ``isError``)."""

    text: str
    is_error: bool


def unavailable(name: str, why: str) -> CallResult:
    """The result of a call that cannot reach the sidecar: a
    ``TOOL_UNAVAILABLE`` payload saying why."""
    return CallResult(unavailable_payload(name, why), True)


def timed_out(name: str) -> CallResult:
    """The result of a call whose client-side deadline passed: the same
    ``TOOL_TIMEOUT`` payload the sidecar's registry produces."""
    return CallResult(timeout_payload(name), True)


def initialize_params() -> dict[str, Any]:
    """The params of the MCP initialize request."""
    return {
        "protocolVersion": MCP_PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "registry-sidecar-python", "version": __version__},
    }


def encode_request(rid: int, method: str, params: Mapping[str, Any]) -> bytes:
    """Encode a JSON-RPC request."""
    return _encode({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}).encode()


def encode_notification(method: str, params: Mapping[str, Any] | None = None) -> bytes:
    """Encode a JSON-RPC notification."""
    msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        msg["params"] = params
    return _encode(msg).encode()


def encode_cancel(rid: int, reason: str) -> bytes:
    """Encode notifications/cancelled for request rid."""
    return encode_notification("notifications/cancelled", {"requestId": rid, "reason": reason})


def encode_call(
    rid: int,
    name: str,
    arguments: Mapping[str, Any] | None,
    *,
    tool_scope: Sequence[str] | None,
    timeout: float | None,
    progress: bool,
    null_as_omitted: bool = False,
) -> bytes:
    """Encode a tools/call request; _meta carries progressToken (= rid),
    toolScope, timeoutMs and nullAsOmitted when given. The bytes are those of
    encode_request with params {"name", "arguments"[, "_meta"]}, built from
    a cached head per tool name (a tool is called many times)."""
    heads = _CALL_HEADS.get(name)
    if heads is None:
        if len(_CALL_HEADS) >= 1024:
            _CALL_HEADS.clear()
        heads = _CALL_HEADS[name] = (
            b'{"jsonrpc":"2.0","id":',
            b',"method":"tools/call","params":{"name":' + _encode(name).encode() + b',"arguments":',
        )
    tail = b"}}"
    if progress or tool_scope is not None or timeout is not None or null_as_omitted:
        meta: dict[str, Any] = {}
        if progress:
            meta["progressToken"] = rid
        if tool_scope is not None:
            meta["toolScope"] = list(tool_scope)
        if timeout is not None:
            meta["timeoutMs"] = max(1, round(timeout * 1000))
        if null_as_omitted:
            meta["nullAsOmitted"] = True
        tail = b',"_meta":' + _encode(meta).encode() + tail
    args = "{}" if arguments is None else _encode(arguments)
    return b"".join((heads[0], str(rid).encode(), heads[1], args.encode(), tail))


def result_of(msg: Mapping[str, Any]) -> dict[str, Any]:
    """Return a response's result object; raise RPCError for an error one."""
    err = msg.get("error")
    if err is not None:
        if isinstance(err, dict):
            code = err.get("code", 0)
            return _raise(int(code) if isinstance(code, int) else 0, str(err.get("message", "")), err.get("data"))
        return _raise(0, str(err), None)
    result = msg.get("result")
    if not isinstance(result, dict):
        return _raise(0, "response without a result object", None)
    return result


def _raise(code: int, message: str, data: object) -> dict[str, Any]:
    raise RPCError(code, message, data)


def call_result(msg: Mapping[str, Any]) -> CallResult:
    """Turn a tools/call response into a CallResult (its text content)."""
    result = result_of(msg)
    content = result.get("content")
    text = ""
    if isinstance(content, list):
        if len(content) == 1 and isinstance(content[0], dict):
            text = str(content[0].get("text", ""))
        else:
            text = "".join(str(c.get("text", "")) for c in content if isinstance(c, dict) and c.get("type") == "text")
    return CallResult(text, result.get("isError") is True)


class ToolListing:
    """The pages of a ``tools/list`` exchange: send :meth:`params`, feed each
    result to :meth:`add` until it returns True, then read :attr:`tools`."""

    __slots__ = ("tools", "_cursor")

    def __init__(self) -> None:
        self.tools: list[dict[str, Any]] = []
        self._cursor: str | None = None

    def params(self) -> dict[str, Any]:
        """The params of the next tools/list request."""
        return {} if self._cursor is None else {"cursor": self._cursor}

    def add(self, result: Mapping[str, Any]) -> bool:
        """Keep a page's tools; return True when it was the last page."""
        self.tools.extend(t for t in result.get("tools", []) if isinstance(t, dict))
        nxt = result.get("nextCursor")
        if not isinstance(nxt, str) or not nxt:
            return True
        self._cursor = nxt
        return False


@dataclass(frozen=True, slots=True)
class Progress:
    """A ``notifications/progress`` for the request whose progressToken is
    token."""

    token: Any
    progress: float
    total: float | None
    message: str | None


@dataclass(frozen=True, slots=True)
class PingReply:
    """The frame answering a ping the sidecar sent."""

    frame: bytes


#: What an incoming frame asks of a client: a response (the message, to hand
#: to the request with its ``id``), a progress notification, a ping to
#: answer, or nothing (None).
Inbound = dict[str, Any] | Progress | PingReply | None


def decode_inbound(raw: bytes) -> Inbound:
    """Decode one incoming frame (see Inbound). A frame that is not JSON is
    logged and ignored; so are notifications no client acts on."""
    try:
        text = raw.decode()
        msg, end = _raw_decode(text)
        if end != len(text):  # trailing bytes: what json.loads says of them
            msg = _loads(text)
    except ValueError:
        _log.warning("the sidecar sent a frame that is not JSON")
        return None
    if not isinstance(msg, dict):
        return None
    method = msg.get("method")
    if method is None:
        return msg
    if method == "notifications/progress":
        args = progress_args(msg.get("params"))
        return None if args is None else Progress(*args)
    if method == "ping" and "id" in msg:
        return PingReply(_encode({"jsonrpc": "2.0", "id": msg["id"], "result": {}}).encode())
    return None


def progress_args(params: Any) -> tuple[Any, float, float | None, str | None] | None:
    """Return (token, progress, total, message) of a notifications/progress
    params object, or None when it is malformed."""
    if not isinstance(params, dict) or "progressToken" not in params:
        return None
    progress = params.get("progress")
    total = params.get("total")
    message = params.get("message")
    return (
        params["progressToken"],
        float(progress) if isinstance(progress, (int, float)) else 0.0,
        float(total) if isinstance(total, (int, float)) else None,
        message if isinstance(message, str) else None,
    )
