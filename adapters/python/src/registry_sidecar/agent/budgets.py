"""Budgets that end runaway agent loops.

A model that keeps calling a failing tool, keeps failing across tools, or
keeps sending the very same call burns tokens without progress. Each budget
below ends such a loop the way a critical tool error does: the job fails with
``FAILURE_TOOL``, ``critical_tool_failure_info.error_type ==
"BudgetExceededError"`` and a ``last_failure_summary`` that names the budget:
``Critical: Tool '<name>' failed non-recoverably: <budget> exhausted ...``.

Defaults (see :class:`Budgets`):

=========================  =======  ==================================================
budget                     default  the job ends when
=========================  =======  ==================================================
per_tool_retry_budget      2        one tool fails recoverably 1 + 2 = 3 times in a job
max_consecutive_errors     4        4 tool calls in a row fail (any tools; a success resets)
max_identical_calls        3        a 4th call with the same tool and the same arguments
                                    is asked for (it is refused, never run)
max_unavailable            1        the sidecar is unreachable a 2nd time (TOOL_UNAVAILABLE
                                    is recoverable once, then critical)
max_turns                  25       the model has been called 25 times without finishing
                                    (ends ``FAILURE_MAX_TURNS``, not a tool failure)
=========================  =======  ==================================================

Only recoverable errors count toward the first two budgets; critical errors
end the job at once anyway. Arguments are compared as canonical JSON (sorted
keys), so ``{"a": 1, "b": 2}`` and ``{"b": 2, "a": 1}`` are the same call.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..payloads import CODE_UNAVAILABLE
from .errors import BudgetExceededError, ToolError

#: Default recoverable failures allowed per tool beyond its first failure.
DEFAULT_PER_TOOL_RETRY_BUDGET: Final = 2
#: Default length of a run of failed calls that ends the job.
DEFAULT_MAX_CONSECUTIVE_ERRORS: Final = 4
#: Default number of identical calls (same tool, same arguments) a job may make.
DEFAULT_MAX_IDENTICAL_CALLS: Final = 3
#: Default number of TOOL_UNAVAILABLE outcomes tolerated as recoverable.
DEFAULT_MAX_UNAVAILABLE: Final = 1
#: Default number of model calls a job may make.
DEFAULT_MAX_TURNS: Final = 25


@dataclass(frozen=True)
class Budgets:
    """Budgets are the limits of one job's loop (defaults in the module docs).

    per_tool_retry_budget: retries a tool gets after its first recoverable
    failure; the failure that would need one more retry ends the job.
    max_consecutive_errors: failed calls in a row (across tools) that end the job.
    max_identical_calls: calls with the same tool and arguments a job may make;
    one more is refused and ends the job.
    max_unavailable: TOOL_UNAVAILABLE outcomes treated as recoverable; the next
    one is critical.
    max_turns: model calls per job; reaching it ends ``FAILURE_MAX_TURNS``.
    """

    per_tool_retry_budget: int = DEFAULT_PER_TOOL_RETRY_BUDGET
    max_consecutive_errors: int = DEFAULT_MAX_CONSECUTIVE_ERRORS
    max_identical_calls: int = DEFAULT_MAX_IDENTICAL_CALLS
    max_unavailable: int = DEFAULT_MAX_UNAVAILABLE
    max_turns: int = DEFAULT_MAX_TURNS

    def __post_init__(self) -> None:
        for name in ("max_consecutive_errors", "max_identical_calls", "max_turns"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        for name in ("per_tool_retry_budget", "max_unavailable"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")


def call_key(tool: str, arguments: object) -> str:
    """Return the identity of a call for the repeat guard: the tool name and
    its arguments as canonical JSON."""
    try:
        args = json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        args = repr(arguments)
    return f"{tool}\x00{args}"


@dataclass
class BudgetTracker:
    """BudgetTracker counts one job's calls against its Budgets. It is not
    thread-safe; the executor records outcomes in call order."""

    budgets: Budgets
    failures: Counter[str] = field(default_factory=Counter)
    identical: Counter[str] = field(default_factory=Counter)
    consecutive_errors: int = 0
    unavailable: int = 0

    def admit(self, tool: str, arguments: Mapping[str, Any] | object) -> BudgetExceededError | None:
        """Count a call about to run; return the error that refuses it when it
        would exceed max_identical_calls, else None."""
        key = call_key(tool, arguments)
        self.identical[key] += 1
        seen = self.identical[key]
        limit = self.budgets.max_identical_calls
        if seen > limit:
            return BudgetExceededError(
                f"max_identical_calls exhausted: the same call was requested {seen} times "
                f"(limit {limit})",
                tool,
                budget="max_identical_calls",
                limit=limit,
            )
        return None

    def success(self) -> None:
        """Record a call that succeeded: the consecutive-error run ends."""
        self.consecutive_errors = 0

    def failure(self, err: ToolError) -> ToolError:
        """Record a failed call and return the error to act on: err itself, or
        a critical BudgetExceededError when a budget ran out (or the
        TOOL_UNAVAILABLE allowance was used up)."""
        self.consecutive_errors += 1
        if not err.is_recoverable:
            return err
        if err.code == CODE_UNAVAILABLE:
            self.unavailable += 1
            if self.unavailable > self.budgets.max_unavailable:
                return ToolError(
                    err.message, err.tool_name, err.original_error, is_recoverable=False,
                    details=err.details, code=err.code,
                )
        self.failures[err.tool_name] += 1
        count = self.failures[err.tool_name]
        retries = self.budgets.per_tool_retry_budget
        if count > retries:
            return BudgetExceededError(
                f"per_tool_retry_budget exhausted: failed {count} times "
                f"(1 try + {retries} retries); last error: {err.message}",
                err.tool_name,
                budget="per_tool_retry_budget",
                limit=retries,
                last_error=err,
            )
        cap = self.budgets.max_consecutive_errors
        if self.consecutive_errors >= cap:
            return BudgetExceededError(
                f"max_consecutive_errors exhausted: {self.consecutive_errors} failed calls "
                f"in a row (limit {cap}); last error: {err.message}",
                err.tool_name,
                budget="max_consecutive_errors",
                limit=cap,
                last_error=err,
            )
        return err
