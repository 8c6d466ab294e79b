"""Tool errors as the agent loop sees them: recoverable or critical.

:class:`ToolError` is what a tool call becomes when it fails. A recoverable
error goes back to the model as that call's result; a critical one
(``is_recoverable=False``) ends the job with ``FAILURE_TOOL``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

#: Routing error: a fallback request named no (or an unknown, or an unconfigured) destination.
FALLBACK_DESTINATION_MISSING: Final = "FALLBACK_DESTINATION_MISSING"
#: Routing error: ``CHAT_SERVICE`` fallback for a tool the legacy handler map lacks.
FALLBACK_NOT_IMPLEMENTED: Final = "FALLBACK_NOT_IMPLEMENTED"
#: Routing error: a fallback destination itself asked for a fallback.
FALLBACK_LOOP: Final = "FALLBACK_LOOP"

#: Every error code the routing layer produces.
ROUTING_ERROR_CODES: Final = frozenset(
    {FALLBACK_DESTINATION_MISSING, FALLBACK_NOT_IMPLEMENTED, FALLBACK_LOOP}
)


class ToolError(Exception):
    """ToolError is a failed tool call: its message, the tool's name, the
    underlying error (Python's ``__cause__``), whether the model may recover
    from it, and structured details.

    details defaults to ``{"message": str(original_error), "type": <its class>}``
    when an original error is given, so a critical failure records its cause.
    code is the payload ``error_code`` the error came from, when it came from one.
    """

    def __init__(
        self,
        message: str,
        tool_name: str,
        original_error: BaseException | None = None,
        is_recoverable: bool = True,
        details: Mapping[str, Any] | None = None,
        *,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.tool_name = tool_name
        self.original_error = original_error
        self.is_recoverable = is_recoverable
        self.code = code
        if details is not None:
            self.details: dict[str, Any] = dict(details)
        elif original_error is not None:
            self.details = {
                "message": _exception_text(original_error),
                "type": type(original_error).__name__,
            }
        else:
            self.details = {}
        if original_error is not None:
            self.__cause__ = original_error

    @property
    def error_type(self) -> str:
        """The error's class name, e.g. ``"ToolError"``."""
        return type(self).__name__

    def __repr__(self) -> str:
        return (
            f"{self.error_type}({self.message!r}, tool_name={self.tool_name!r}, "
            f"is_recoverable={self.is_recoverable!r}, code={self.code!r})"
        )


class BudgetExceededError(ToolError):
    """BudgetExceededError is the critical error that ends a runaway loop: a
    budget (see :class:`~registry_sidecar.agent.budgets.Budgets`) ran out.
    budget is the budget's field name, limit its value."""

    def __init__(
        self,
        message: str,
        tool_name: str,
        *,
        budget: str,
        limit: int,
        last_error: ToolError | None = None,
    ) -> None:
        details: dict[str, Any] = {"budget": budget, "limit": limit}
        if last_error is not None:
            details["last_error"] = {
                "message": last_error.message,
                "code": last_error.code,
                "details": dict(last_error.details),
            }
        super().__init__(
            message, tool_name, original_error=last_error, is_recoverable=False, details=details
        )
        self.budget = budget
        self.limit = limit


def _exception_text(err: BaseException) -> str:
    """The text an exception was raised with; KeyError's quoting is undone."""
    if len(err.args) == 1 and isinstance(err.args[0], str):
        return err.args[0]
    return str(err)
