"""Classification of tool-call outcomes by error code alone.

A registry call ends in one of three ways: a payload text, a raised exception,
or (for in-process registries) a returned :class:`ToolError`. :func:`classify`
turns each into a :class:`CallOutcome`: the text the model may see, and the
:class:`ToolError` when the call failed.

=================================  ==========================================
error_code                         agent treats as
=================================  ==========================================
TOOL_EXECUTION_ERROR               recoverable
TOOL_ARGUMENT_VALIDATION_ERROR     recoverable
TOOL_TIMEOUT                       recoverable
TOOL_UNAVAILABLE                   recoverable once per job, then critical
TOOL_FATAL_ERROR                   critical
TOOL_NOT_FOUND                     critical
TOOL_NOT_ALLOWED                   critical
TOOL_INTERNAL_ERROR                critical
FALLBACK_* (routing errors)        critical: no retry can fix the route
TOOL_CANCELLED                     not shown to the model; the job is cancelled
any other ``"status": "error"``    recoverable
=================================  ==========================================

Every result goes through :func:`~registry_sidecar.agent.results.normalize_tool_result`
first, so what it calls an error is one here: besides error payloads, a legacy
failure dict (``erro``/``error`` set, ``sucesso: false``, ``ok: false``,
``success: false``) and ``None`` are recoverable tool errors
(``TOOL_EXECUTION_ERROR``) that go back to the model and count against the
retry budgets. The model sees the dict's own JSON, or for ``None`` the
payload ``Tool '<name>' returned no result.``
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..errors import ToolNotAllowedError, ToolNotFoundError

# The error codes live in one table (payloads); re-exported for callers of this module.
from ..payloads import CODE_CANCELLED as CODE_CANCELLED
from ..payloads import CODE_EXECUTION as CODE_EXECUTION
from ..payloads import CODE_FATAL as CODE_FATAL
from ..payloads import CODE_INTERNAL as CODE_INTERNAL
from ..payloads import CODE_NOT_ALLOWED as CODE_NOT_ALLOWED
from ..payloads import CODE_NOT_FOUND as CODE_NOT_FOUND
from ..payloads import CODE_TIMEOUT as CODE_TIMEOUT
from ..payloads import CODE_UNAVAILABLE as CODE_UNAVAILABLE
from ..payloads import CODE_VALIDATION as CODE_VALIDATION
from ..payloads import error_payload
from .errors import ROUTING_ERROR_CODES, ToolError, _exception_text
from .results import normalize_tool_result, result_text

#: Codes that end the job at once.
CRITICAL_CODES: Final = (
    frozenset({CODE_FATAL, CODE_NOT_FOUND, CODE_NOT_ALLOWED, CODE_INTERNAL}) | ROUTING_ERROR_CODES
)

# Exception class names matched along the MRO, so an in-process excelmanus
# registry's own exceptions of these names classify like the adapter's.
_NAMED_CODES: Final = {"ToolNotFoundError": CODE_NOT_FOUND, "ToolNotAllowedError": CODE_NOT_ALLOWED}


@dataclass(frozen=True)
class CallOutcome:
    """CallOutcome is one classified tool call.

    text is what the model sees as the call's result: the payload text for
    successes and payload errors, a serialized error for raised recoverable
    errors, ``None`` for critical errors and cancellations. error is set when
    the call failed. cancelled marks ``TOOL_CANCELLED``; fallback marks an
    unrouted fallback request (shown to the model, not an error).
    """

    text: str | None
    error: ToolError | None = None
    cancelled: bool = False
    fallback: bool = False

    @property
    def critical(self) -> bool:
        """Whether the call failed non-recoverably."""
        return self.error is not None and not self.error.is_recoverable


def classify(tool: str, result: object) -> CallOutcome:
    """Classify what a registry call returned: a payload text, a ToolError,
    or any other value (a legacy dict, a list, ``None``), each normalized by
    :func:`normalize_tool_result` first, so whatever it calls an error is a
    failed call here (module docs)."""
    if isinstance(result, ToolError):
        return outcome_of_error(result)
    if isinstance(result, BaseException):
        return outcome_of_error(error_from_exception(tool, result))
    text = result_text(tool, result)
    normalized = normalize_tool_result(tool, result)
    kind = normalized["kind"]
    if kind == "fallback":
        return CallOutcome(text=text, fallback=True)
    if kind == "success":
        return CallOutcome(text=text)
    code = normalized.get("error_code")
    if not (isinstance(code, str) and code):
        if normalized.get("status") != "error":
            return CallOutcome(text=text, error=_legacy_error(tool, normalized))
        code = CODE_EXECUTION
    err = _payload_error(tool, code, normalized)
    if code == CODE_CANCELLED:
        return CallOutcome(text=None, error=err, cancelled=True)
    return CallOutcome(text=None if not err.is_recoverable else text, error=err)


def outcome_of_error(err: ToolError) -> CallOutcome:
    """Return the outcome of a raised or returned ToolError: critical errors
    are hidden from the model; recoverable ones are shown as an error payload."""
    if err.code == CODE_CANCELLED:
        return CallOutcome(text=None, error=err, cancelled=True)
    if not err.is_recoverable:
        return CallOutcome(text=None, error=err)
    return CallOutcome(text=serialize_error(err), error=err)


def error_from_exception(tool: str, exc: BaseException) -> ToolError:
    """Return the ToolError for an exception a registry call raised."""
    if isinstance(exc, ToolError):
        return exc
    text = _exception_text(exc) or type(exc).__name__
    code = exception_code(exc)
    if code is not None:
        return ToolError(text, tool, exc, is_recoverable=False, code=code)
    if isinstance(exc, TimeoutError):
        return ToolError(text, tool, exc, is_recoverable=True, code=CODE_TIMEOUT)
    if isinstance(exc, ConnectionError):
        return ToolError(text, tool, exc, is_recoverable=True, code=CODE_UNAVAILABLE)
    return ToolError(text, tool, exc, is_recoverable=False, code=CODE_INTERNAL)


def serialize_error(err: ToolError) -> str:
    """Return the payload text the model sees for a recoverable ToolError, in
    the execution-family shape (``status, error_code, tool, exception, message``,
    plus ``cause`` when the error has a different underlying cause)."""
    raised: BaseException = err
    orig = err.original_error
    if orig is not None and _exception_text(orig) == err.message:
        raised = orig  # a wrapper that adds no text of its own: report what was raised
    cause = raised.__cause__
    cause_text = None if cause is None else _exception_text(cause)
    return error_payload(
        err.code or CODE_EXECUTION,
        err.tool_name,
        type(raised).__name__,
        err.message,
        None if cause_text == err.message else cause_text,
    )


def _legacy_error(tool: str, result: dict[str, Any]) -> ToolError:
    """The recoverable error of a not-ok result that is no error payload: a
    legacy failure dict (``erro``, ``sucesso: false``, ...) or ``None``."""
    error = result["error"]
    text = result["text"]
    message = text if isinstance(text, str) and text else str(error)
    details: dict[str, Any] = {"error_code": CODE_EXECUTION, "message": message,
                               "legacy_error": error}
    return ToolError(message, result["tool"], is_recoverable=True, details=details,
                     code=CODE_EXECUTION)


def _payload_error(tool: str, code: str, payload: dict[str, Any]) -> ToolError:
    message = payload.get("message")
    message = message if isinstance(message, str) else ""
    cause = payload.get("cause")
    details: dict[str, Any] = {
        "error_code": code,
        "message": cause if isinstance(cause, str) and cause else message,
    }
    exception = payload.get("exception")
    if isinstance(exception, str):
        details["exception"] = exception
    if isinstance(cause, str):
        details["cause"] = cause
    named = payload.get("tool")
    return ToolError(
        message,
        named if isinstance(named, str) and named else tool,
        is_recoverable=code not in CRITICAL_CODES,
        details=details,
        code=code,
    )


def exception_code(exc: BaseException) -> str | None:
    """Return the error code an exception stands for (``TOOL_NOT_FOUND`` for
    ``ToolNotFoundError``, ``TOOL_NOT_ALLOWED`` for ``ToolNotAllowedError``,
    matched by class or by class name along the MRO), else None."""
    if isinstance(exc, ToolNotFoundError):
        return CODE_NOT_FOUND
    if isinstance(exc, ToolNotAllowedError):
        return CODE_NOT_ALLOWED
    for cls in type(exc).__mro__:
        if cls.__name__ in _NAMED_CODES:
            return _NAMED_CODES[cls.__name__]
    return None

