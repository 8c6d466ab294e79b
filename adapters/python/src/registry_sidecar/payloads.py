"""Payload texts built on the Python side, and excelmanus's error check.

Payloads are encoded exactly like the Go ``errorsjson`` package encodes them:
``json.dumps(payload, ensure_ascii=False)`` with the execution-family key order
``status, error_code, tool, exception, message``.
"""

from __future__ import annotations

import json
from typing import Any, Final

# The error codes of the payloads: one table, append-only, the same as Go's
# errorsjson/codes.go (tests/test_codes.py parses that file and compares).
#: Error code of an error a tool returned.
CODE_EXECUTION: Final = "TOOL_EXECUTION_ERROR"
#: Error code of an error the tool marked non-recoverable.
CODE_FATAL: Final = "TOOL_FATAL_ERROR"
#: Error code of arguments that failed the tool's schema.
CODE_VALIDATION: Final = "TOOL_ARGUMENT_VALIDATION_ERROR"
#: Error code of a call to an unregistered tool.
CODE_NOT_FOUND: Final = "TOOL_NOT_FOUND"
#: Error code of a call outside the caller's tool scope.
CODE_NOT_ALLOWED: Final = "TOOL_NOT_ALLOWED"
#: Error code of a call whose deadline passed.
CODE_TIMEOUT: Final = "TOOL_TIMEOUT"
#: Error code of a call the caller cancelled.
CODE_CANCELLED: Final = "TOOL_CANCELLED"
#: Error code of a tool that crashed (Go panic).
CODE_INTERNAL: Final = "TOOL_INTERNAL_ERROR"
#: Error code of a call that could not reach the sidecar.
CODE_UNAVAILABLE: Final = "TOOL_UNAVAILABLE"

#: Every error code, in the order of the table above.
ERROR_CODES: Final = (
    CODE_EXECUTION,
    CODE_FATAL,
    CODE_VALIDATION,
    CODE_NOT_FOUND,
    CODE_NOT_ALLOWED,
    CODE_TIMEOUT,
    CODE_CANCELLED,
    CODE_INTERNAL,
    CODE_UNAVAILABLE,
)

#: The ``error`` value of a fallback payload (Go ``errorsjson.FallbackRequired``).
FALLBACK_REQUIRED: Final = "FALLBACK_REQUIRED"
#: ``fallback_to`` value that sends a call to the legacy handler map.
CHAT_SERVICE: Final = "CHAT_SERVICE"
#: ``fallback_to`` value that sends a call to the router.
TOOL_ROUTER: Final = "TOOL_ROUTER"

_ERROR_PREFIX: Final = '{"status": "error"'


def error_payload(code: str, tool: str, exception: str, message: str, cause: str | None = None) -> str:
    """Return an execution-family error payload text, byte-identical to Go's;
    ``cause`` is appended only when given."""
    payload = {
        "status": "error",
        "error_code": code,
        "tool": tool,
        "exception": exception,
        "message": message,
    }
    if cause is not None:
        payload["cause"] = cause
    return json.dumps(payload, ensure_ascii=False)


def unavailable_payload(tool: str, message: str) -> str:
    """Return the ``TOOL_UNAVAILABLE`` payload (exception ``ConnectionError``)."""
    return error_payload(CODE_UNAVAILABLE, tool, "ConnectionError", message)


def timeout_payload(tool: str) -> str:
    """Return the ``TOOL_TIMEOUT`` payload; its text equals the one the Go
    registry produces when a tool's own deadline passes."""
    return error_payload(CODE_TIMEOUT, tool, "TimeoutError", f"tool '{tool}' timed out")


def error_fields(result: str) -> dict[str, Any] | None:
    """Return the JSON object of a text that starts like an error payload
    (``{"status": "error"``), else None. Its ``status`` is not checked: a
    duplicate key may have overridden it."""
    if not result.startswith(_ERROR_PREFIX):
        return None
    try:
        parsed = json.loads(result)
    except json.JSONDecodeError:
        return None
    return parsed if isinstance(parsed, dict) else None


def is_error_result(result: Any) -> bool:
    """Report whether result is an error payload, with excelmanus's verdicts:
    only a ``str`` that starts with ``{"status": "error"`` and parses as a JSON
    object whose status is ``"error"``."""
    if not isinstance(result, str):
        return False
    fields = error_fields(result)
    return fields is not None and fields.get("status") == "error"


def error_code(result: str) -> str | None:
    """Return the ``error_code`` of an error payload text, else None."""
    fields = error_fields(result)
    code = None if fields is None else fields.get("error_code")
    return code if isinstance(code, str) else None
