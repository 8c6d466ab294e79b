"""Agent-side rules for engines that call registry-sidecar tools.

Pure Python; nothing here needs a running sidecar:

- :mod:`.results`: :func:`normalize_tool_result`, :func:`ok_result`,
  :func:`err_result`, :func:`fallback_result`: one dict shape (with the
  ``ok``/``sucesso``, ``text``/``resposta``, ``error``/``erro`` aliases) for
  every handler's return value.
- :mod:`.routing`: :class:`FallbackRouter`: primary tool service first, then
  ``CHAT_SERVICE`` (legacy handlers) or ``TOOL_ROUTER`` as a tool asks.
- :mod:`.errors` and :mod:`.classify`: :class:`ToolError` and the
  code-by-code recoverable/critical table.
- :mod:`.executor`: :class:`AgentExecutor`, the job loop, with the
  :class:`LLMAdapter` and :class:`JobRepository` protocols and :class:`Job`.
- :mod:`.budgets`: :class:`Budgets` that end runaway loops.

See ``README.md`` next to this file for the rules and the defaults.
"""

from __future__ import annotations

from .budgets import Budgets, BudgetTracker
from .classify import CRITICAL_CODES, CallOutcome, classify, error_from_exception
from .errors import (
    FALLBACK_DESTINATION_MISSING,
    FALLBACK_LOOP,
    FALLBACK_NOT_IMPLEMENTED,
    BudgetExceededError,
    ToolError,
)
from .executor import CRITICAL_SUMMARY, AgentExecutor
from .models import (
    CriticalToolFailureInfo,
    ExecutionResult,
    ExecutionStatus,
    HistoryEntry,
    HistoryType,
    Job,
    JobStatus,
    LLMResponse,
    Message,
    MessageType,
    ToolCall,
)
from .protocols import JobRepository, LegacyHandler, LLMAdapter, ToolRouterService, ToolService
from .results import (
    FALLBACK_REQUIRED,
    HANDLER_NOT_FOUND,
    err_result,
    fallback_result,
    is_fallback,
    is_final_error,
    normalize_tool_result,
    ok_result,
)
from .routing import CHAT_SERVICE, TOOL_ROUTER, FallbackRouter, Route, RoutedResult

__all__ = [
    "AgentExecutor",
    "BudgetExceededError",
    "BudgetTracker",
    "Budgets",
    "CHAT_SERVICE",
    "CRITICAL_CODES",
    "CRITICAL_SUMMARY",
    "CallOutcome",
    "CriticalToolFailureInfo",
    "ExecutionResult",
    "ExecutionStatus",
    "FALLBACK_DESTINATION_MISSING",
    "FALLBACK_LOOP",
    "FALLBACK_NOT_IMPLEMENTED",
    "FALLBACK_REQUIRED",
    "FallbackRouter",
    "HANDLER_NOT_FOUND",
    "HistoryEntry",
    "HistoryType",
    "Job",
    "JobRepository",
    "JobStatus",
    "LLMAdapter",
    "LLMResponse",
    "LegacyHandler",
    "Message",
    "MessageType",
    "Route",
    "RoutedResult",
    "TOOL_ROUTER",
    "ToolCall",
    "ToolError",
    "ToolRouterService",
    "ToolService",
    "classify",
    "err_result",
    "error_from_exception",
    "fallback_result",
    "is_fallback",
    "is_final_error",
    "normalize_tool_result",
    "ok_result",
]
