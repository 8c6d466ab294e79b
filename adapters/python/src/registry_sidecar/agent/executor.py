"""AgentExecutor: the job loop of model calls and tool calls.

One job: the model is asked; if it answers with text the job is COMPLETED
(``SUCCESS``); if it asks for tool calls they run through the registry and
their results join the conversation, and the model is asked again.

- A recoverable tool error (argument validation, execution error, timeout)
  goes back to the model as that call's ``TOOL_RESULT`` (the error payload
  text, ``is_recoverable=True``) and the model is asked again.
- A critical one (``TOOL_NOT_FOUND``, ``TOOL_FATAL_ERROR``, ``TOOL_INTERNAL_ERROR``,
  ``TOOL_NOT_ALLOWED``, a routing error, a ``ToolError(is_recoverable=False)``,
  an exhausted budget) stops the turn: no further tool call that turn (the rest
  are recorded ``tool_skipped``), no further model call. The job ends FAILED /
  ``FAILURE_TOOL`` with ``critical_tool_failure_info`` and
  ``last_failure_summary = "Critical: Tool '<name>' failed non-recoverably:
  <message>"``; the failure is recorded in the execution history
  (``tool_error``, ``is_critical=True``), not in the conversation.
- With ``parallel_tool_calls=True`` one turn's calls run concurrently; when
  one is critical its siblings have run already and their results are
  recorded (history and conversation) before the job fails.
- ``TOOL_CANCELLED`` is never shown to the model: the job ends CANCELLED.

The repository is saved when the job starts, after every turn, and when it
ends; the last save always holds the final state.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .budgets import Budgets, BudgetTracker
from .classify import CODE_VALIDATION, CallOutcome, classify, error_from_exception, outcome_of_error
from .errors import ToolError
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
from .protocols import JobRepository, LLMAdapter, ToolService, resolve

#: Most calls of one parallel batch running at once (the rest wait their turn).
DEFAULT_MAX_PARALLEL_CALLS: Final = 8

#: ``last_failure_summary`` of a critical tool failure.
CRITICAL_SUMMARY: Final = "Critical: Tool '{name}' failed non-recoverably: {message}"


@dataclass(frozen=True)
class _Prepared:
    """One call ready to run: its parsed params, or the outcome that replaces
    running it (unparseable arguments, a refused repeat)."""

    call: ToolCall
    params: Any
    outcome: CallOutcome | None


@dataclass(frozen=True)
class _Stop:
    """Why a turn ended the job."""

    error: ToolError
    cancelled: bool = False


class AgentExecutor:
    """AgentExecutor runs jobs: llm proposes, registry executes, repository
    persists. registry is any ToolService (the sidecar ``ToolRegistry``, an
    in-process registry, a FallbackRouter). tools are the schemas shown to the
    model; when omitted they come from ``registry.get_openai_schemas(
    mode="chat_completions", tool_scope=job.tool_scope)`` if the registry has it.

    >>> from registry_sidecar.agent.testing import (
    ...     InMemoryJobRepository, InProcessToolRegistry, ScriptedLLM)
    >>> reg = InProcessToolRegistry()
    >>> reg.register("add", lambda a: {"status": "success", "sum": a["a"] + a["b"]})
    >>> llm = ScriptedLLM([LLMResponse(tool_calls=[ToolCall("c1", "add", '{"a": 1, "b": 2}')]),
    ...                    LLMResponse(content="1 + 2 = 3")])
    >>> job = AgentExecutor(llm, reg, InMemoryJobRepository()).run_sync(Job(input="add 1 and 2"))
    >>> job.status.value, job.execution_result.output
    ('COMPLETED', '1 + 2 = 3')
    >>> job.conversation_history[2].content
    '{"status": "success", "sum": 3}'
    """

    def __init__(
        self,
        llm: LLMAdapter,
        registry: ToolService,
        repository: JobRepository,
        *,
        budgets: Budgets | None = None,
        tools: Sequence[Mapping[str, Any]] | None = None,
        system_prompt: str | None = None,
        parallel_tool_calls: bool = False,
        max_parallel_calls: int = DEFAULT_MAX_PARALLEL_CALLS,
        logger: logging.Logger | None = None,
    ) -> None:
        if max_parallel_calls < 1:
            raise ValueError("max_parallel_calls must be at least 1")
        self._llm = llm
        self._registry = registry
        self._repo = repository
        self._budgets = budgets or Budgets()
        self._tools = None if tools is None else [dict(t) for t in tools]
        self._system_prompt = system_prompt
        self._parallel = parallel_tool_calls
        self._max_parallel = max_parallel_calls
        self._log = logger or logging.getLogger(__name__)

    def run_sync(self, job: Job) -> Job:
        """Run job to its end from synchronous code (not inside an event loop)."""
        return asyncio.run(self.run(job))

    async def run(self, job: Job) -> Job:
        """Run job to its end and return it (the same object, updated)."""
        job.status = JobStatus.RUNNING
        if not job.conversation_history:
            if self._system_prompt:
                job.conversation_history.append(
                    Message(MessageType.SYSTEM, "system", self._system_prompt))
            job.conversation_history.append(Message(MessageType.USER_INPUT, "user", job.input))
        await self._save(job)
        try:
            return await self._loop(job)
        except asyncio.CancelledError:
            self._end(job, JobStatus.CANCELLED, ExecutionStatus.CANCELLED, "Job was cancelled.")
            await self._save(job)
            raise

    async def _loop(self, job: Job) -> Job:
        tracker = BudgetTracker(self._budgets)
        try:
            tools = await self._tool_schemas(job)
        except Exception as exc:  # noqa: BLE001 - an unreachable registry ends the job, saved
            self._log.warning("job %s: tool schemas unavailable (%s)", job.id, type(exc).__name__)
            return await self._fail(job, ExecutionStatus.FAILURE_TOOL,
                                    f"Tool schemas unavailable: {type(exc).__name__}: {exc}")
        for _ in range(self._budgets.max_turns):
            try:
                response: LLMResponse = await resolve(
                    self._llm.generate(list(job.conversation_history), tools))
            except Exception as exc:  # noqa: BLE001 - any model failure ends the job
                self._log.warning("job %s: model call failed (%s)", job.id, type(exc).__name__)
                return await self._fail(job, ExecutionStatus.FAILURE_LLM,
                                        f"Model call failed: {type(exc).__name__}: {exc}")
            if not response.tool_calls:
                content = response.content or ""
                job.conversation_history.append(
                    Message(MessageType.LLM_RESPONSE, "assistant", content))
                self._end(job, JobStatus.COMPLETED, ExecutionStatus.SUCCESS, content, output=content)
                await self._save(job)
                return job
            job.conversation_history.append(Message(
                MessageType.LLM_RESPONSE, "assistant", response.content,
                tool_calls=list(response.tool_calls)))
            stop = await self._turn(job, response.tool_calls, tracker)
            if stop is not None:
                self._stop(job, stop)
                await self._save(job)
                return job
            await self._save(job)
        message = (f"max_turns exhausted: the model was called {self._budgets.max_turns} "
                   "times without finishing.")
        return await self._fail(job, ExecutionStatus.FAILURE_MAX_TURNS, message)

    async def _turn(
        self, job: Job, calls: Sequence[ToolCall], tracker: BudgetTracker
    ) -> _Stop | None:
        if self._parallel and len(calls) > 1:
            return await self._parallel_turn(job, calls, tracker)
        for i, call in enumerate(calls):
            prep = self._prepare(call, tracker)
            start = time.monotonic()
            outcome = prep.outcome
            if outcome is None:
                outcome = await self._invoke(job, call.name, prep.params)
            stop = self._record(job, prep, outcome, tracker, time.monotonic() - start)
            if stop is not None:
                for skipped in calls[i + 1:]:
                    job.execution_history.append(HistoryEntry(
                        HistoryType.TOOL_SKIPPED, skipped.name, skipped.id,
                        params=_parse_arguments(skipped.arguments)[0]))
                return stop
        return None

    async def _parallel_turn(
        self, job: Job, calls: Sequence[ToolCall], tracker: BudgetTracker
    ) -> _Stop | None:
        gate = asyncio.Semaphore(self._max_parallel)

        async def run_one(prep: _Prepared) -> tuple[CallOutcome, float]:
            if prep.outcome is not None:
                return prep.outcome, 0.0
            async with gate:
                start = time.monotonic()
                outcome = await self._invoke(job, prep.call.name, prep.params)
                return outcome, time.monotonic() - start

        preps = [self._prepare(call, tracker) for call in calls]
        results = await asyncio.gather(*(run_one(p) for p in preps))
        first: _Stop | None = None
        for prep, (outcome, elapsed) in zip(preps, results, strict=True):
            stop = self._record(job, prep, outcome, tracker, elapsed)
            if first is None:
                first = stop
        return first

    def _prepare(self, call: ToolCall, tracker: BudgetTracker) -> _Prepared:
        params, problem = _parse_arguments(call.arguments)
        if problem is not None:
            err = ToolError(problem, call.name, is_recoverable=True, code=CODE_VALIDATION)
            return _Prepared(call, params, outcome_of_error(err))
        refused = tracker.admit(call.name, params)
        if refused is not None:
            return _Prepared(call, params, outcome_of_error(refused))
        return _Prepared(call, params, None)

    async def _invoke(self, job: Job, name: str, params: dict[str, Any]) -> CallOutcome:
        scope = list(job.tool_scope) if job.tool_scope is not None else None
        try:
            call_async = getattr(self._registry, "call_tool_async", None)
            if call_async is not None:
                raw = await resolve(call_async(name, params, scope))
            else:
                raw = await asyncio.to_thread(self._registry.call_tool, name, params, scope)
        except Exception as exc:  # noqa: BLE001 - classified, never lost
            return outcome_of_error(error_from_exception(name, exc))
        return classify(name, raw)

    def _record(
        self, job: Job, prep: _Prepared, outcome: CallOutcome, tracker: BudgetTracker,
        elapsed: float,
    ) -> _Stop | None:
        call = prep.call
        if outcome.error is None:
            tracker.success()
            if outcome.fallback:
                self._log.warning("job %s: tool %r asked for a fallback, but the registry "
                                  "does not route; shown to the model", job.id, call.name)
            job.conversation_history.append(Message(
                MessageType.TOOL_RESULT, "tool", outcome.text, call.id, call.name))
            job.execution_history.append(HistoryEntry(
                HistoryType.TOOL_CALL, call.name, call.id, prep.params, outcome.text,
                elapsed=elapsed))
            return None
        if outcome.cancelled:
            job.execution_history.append(HistoryEntry(
                HistoryType.TOOL_ERROR, call.name, call.id, prep.params,
                error=_error_info(outcome.error), elapsed=elapsed))
            return _Stop(outcome.error, cancelled=True)
        err = tracker.failure(outcome.error)
        critical = not err.is_recoverable
        job.execution_history.append(HistoryEntry(
            HistoryType.TOOL_ERROR, call.name, call.id, prep.params,
            result=None if critical else outcome.text, error=_error_info(err),
            is_critical=critical, elapsed=elapsed))
        if critical:
            self._log.warning("job %s: tool %r failed critically (%s, %s)", job.id, call.name,
                              err.error_type, err.code)
            return _Stop(err)
        self._log.info("job %s: tool %r failed recoverably (%s)", job.id, call.name, err.code)
        job.conversation_history.append(Message(
            MessageType.TOOL_RESULT, "tool", outcome.text, call.id, call.name,
            is_error=True, is_recoverable=True))
        return None

    def _stop(self, job: Job, stop: _Stop) -> None:
        err = stop.error
        if stop.cancelled:
            self._end(job, JobStatus.CANCELLED, ExecutionStatus.CANCELLED,
                      f"Tool '{err.tool_name}' was cancelled.")
            return
        summary = CRITICAL_SUMMARY.format(name=err.tool_name, message=err.message)
        job.critical_tool_failure_info = CriticalToolFailureInfo(
            tool_name=err.tool_name, error_type=err.error_type, message=err.message,
            is_recoverable=err.is_recoverable, details=dict(err.details))
        job.last_failure_summary = summary
        self._end(job, JobStatus.FAILED, ExecutionStatus.FAILURE_TOOL, summary)

    async def _fail(self, job: Job, result: ExecutionStatus, message: str) -> Job:
        """End job FAILED with message as its result and failure summary, and save it."""
        self._end(job, JobStatus.FAILED, result, message)
        job.last_failure_summary = message
        await self._save(job)
        return job

    @staticmethod
    def _end(job: Job, status: JobStatus, result: ExecutionStatus, message: str,
             output: str | None = None) -> None:
        job.status = status
        job.execution_result = ExecutionResult(result, message, output)

    async def _tool_schemas(self, job: Job) -> list[dict[str, Any]]:
        if self._tools is not None:
            return self._tools
        get = getattr(self._registry, "get_openai_schemas", None)
        if get is None:
            return []
        scope = list(job.tool_scope) if job.tool_scope is not None else None
        schemas = await asyncio.to_thread(get, mode="chat_completions", tool_scope=scope)
        return [dict(s) for s in schemas]

    async def _save(self, job: Job) -> None:
        await resolve(self._repo.save(job))


def _parse_arguments(arguments: object) -> tuple[Any, str | None]:
    """Return (params, problem): the arguments as a dict, or what the model
    sent and why it cannot be used."""
    if isinstance(arguments, Mapping):
        return dict(arguments), None
    if isinstance(arguments, str):
        if not arguments.strip():
            return {}, None
        try:
            parsed = json.loads(arguments)
        except json.JSONDecodeError as exc:
            return arguments, f"Tool arguments are not valid JSON: {exc.msg} (position {exc.pos})."
        if isinstance(parsed, dict):
            return parsed, None
        return arguments, "Tool arguments must be a JSON object."
    return arguments, "Tool arguments must be a JSON object."


def _error_info(err: ToolError) -> dict[str, Any]:
    return {
        "error_type": err.error_type,
        "message": err.message,
        "code": err.code,
        "is_recoverable": err.is_recoverable,
        "details": dict(err.details),
    }
