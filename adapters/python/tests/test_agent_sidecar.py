"""The agent rules against the real Go sidecar (``--test-tools``): a critical
failure, an unknown tool and a validation failure, with TOOL_FATAL_ERROR, TOOL_NOT_FOUND and
TOOL_ARGUMENT_VALIDATION_ERROR coming from Go, fallback routing requested by
the Go ``fallback`` tool, and a parallel batch with a critical call."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from agent_asserts import assert_critical, tool_results

from registry_sidecar import Sidecar, ToolRegistry
from registry_sidecar.agent import (
    FALLBACK_DESTINATION_MISSING,
    FALLBACK_NOT_IMPLEMENTED,
    AgentExecutor,
    ExecutionStatus,
    FallbackRouter,
    HistoryType,
    Job,
    JobStatus,
    LLMResponse,
    Route,
    ToolCall,
)
from registry_sidecar.agent.testing import InMemoryJobRepository, ScriptedLLM

FATAL_ARGS = {"exception": "OSError", "message": "disk on fire", "cause": "sector 7 unreadable",
              "fatal": True}


@pytest.fixture(scope="module")
def reg(sidecar: Sidecar) -> Iterator[ToolRegistry]:
    with ToolRegistry.from_sidecar(sidecar) as r:
        yield r


def call(name: str, args: dict[str, Any], cid: str = "call_1") -> ToolCall:
    return ToolCall(cid, name, json.dumps(args))


def run(llm: ScriptedLLM, registry: Any, *, use_async: bool, **kw: Any
        ) -> tuple[Job, InMemoryJobRepository]:
    repo = InMemoryJobRepository()
    job = Job(input="do it")
    executor = AgentExecutor(llm, registry, repo, **kw)
    if use_async:
        asyncio.run(executor.run(job))
    else:
        executor.run_sync(job)
    return job, repo


MODES = [pytest.param(False, id="run_sync"), pytest.param(True, id="async")]


@pytest.mark.parametrize("use_async", MODES)
def test_3a_fatal_error_from_go(reg: ToolRegistry, use_async: bool) -> None:
    llm = ScriptedLLM([LLMResponse(tool_calls=[
        call("fail", FATAL_ARGS, "c1"), call("add", {"a": 1, "b": 2}, "c2")])])
    job, repo = run(llm, reg, use_async=use_async)
    assert len(llm.seen) == 1
    assert_critical(job, repo, "fail", "disk on fire")
    info = job.critical_tool_failure_info
    assert info is not None
    assert info.details["message"] == "sector 7 unreadable", "details.message = the payload's cause"
    assert info.details["error_code"] == "TOOL_FATAL_ERROR"
    assert info.details["exception"] == "OSError"
    kinds = [(e.type, e.tool_name) for e in job.execution_history]
    assert kinds == [(HistoryType.TOOL_ERROR, "fail"), (HistoryType.TOOL_SKIPPED, "add")]
    assert job.execution_history[0].params == FATAL_ARGS
    assert any(t["function"]["name"] == "fail" for t in llm.tools_seen[0]), "schemas from Go"


@pytest.mark.parametrize("use_async", MODES)
def test_3b_unknown_tool_from_go(reg: ToolRegistry, use_async: bool) -> None:
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("make_coffee", {"cups": 2})])])
    job, repo = run(llm, reg, use_async=use_async)
    assert len(llm.seen) == 1
    assert_critical(job, repo, "make_coffee", "工具 'make_coffee' 未注册。")
    info = job.critical_tool_failure_info
    assert info is not None
    assert info.details["message"] == "工具 'make_coffee' 未注册。", "details.message = the cause"
    assert info.details["type"] == "ToolNotFoundError"
    assert job.execution_history[0].params == {"cups": 2}


@pytest.mark.parametrize("use_async", MODES)
def test_3c_validation_error_from_go(reg: ToolRegistry, use_async: bool) -> None:
    bad = {"a": "one", "b": 2}
    expected = reg.call_tool("add", bad)
    assert json.loads(expected)["error_code"] == "TOOL_ARGUMENT_VALIDATION_ERROR"
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("add", bad, "c1")]),
                       LLMResponse(content="a must be an integer")])
    job, repo = run(llm, reg, use_async=use_async)
    results = tool_results(job)
    assert len(results) == 1
    msg = results[0]
    assert (msg.role, msg.tool_call_id, msg.name, msg.content, msg.is_recoverable) == (
        "tool", "c1", "add", expected, True), "the Go payload, byte for byte"
    assert len(llm.seen) == 2 and llm.seen[1][-1] == msg
    assert job.status is JobStatus.COMPLETED
    assert job.execution_result is not None
    assert job.execution_result.status is ExecutionStatus.SUCCESS
    assert job.execution_result.output == "a must be an integer"
    assert [e.type for e in job.execution_history] == [HistoryType.TOOL_ERROR]
    assert job.execution_history[0].is_critical is False
    assert job.execution_history[0].params == bad
    assert job.critical_tool_failure_info is None
    assert repo.last.status is JobStatus.COMPLETED


@pytest.mark.parametrize(("tool", "args", "critical", "code"), [
    ("fail", {"exception": "ValueError", "message": "bad cell"}, False, "TOOL_EXECUTION_ERROR"),
    ("panic", {"kind": "string"}, True, "TOOL_INTERNAL_ERROR"),
], ids=["execution-recoverable", "panic-critical"])
def test_other_go_codes(reg: ToolRegistry, tool: str, args: dict[str, Any], critical: bool,
                        code: str) -> None:
    llm = ScriptedLLM([LLMResponse(tool_calls=[call(tool, args)]), LLMResponse(content="end")])
    job, _ = run(llm, reg, use_async=False)
    entry = job.execution_history[0]
    assert entry.is_critical is critical
    assert entry.error is not None and entry.error["code"] == code
    assert job.status is (JobStatus.FAILED if critical else JobStatus.COMPLETED)


def test_parallel_batch_with_go_fatal_records_siblings(reg: ToolRegistry) -> None:
    calls = [call("sleep", {"ms": 150}, "c1"), call("fail", FATAL_ARGS, "c2"),
             call("add", {"a": 20, "b": 22}, "c3")]
    llm = ScriptedLLM([LLMResponse(tool_calls=calls)])
    job, repo = run(llm, reg, use_async=True, parallel_tool_calls=True)
    assert_critical(job, repo, "fail", "disk on fire")
    done = {e.tool_call_id: json.loads(e.result or "") for e in job.execution_history
            if e.type is HistoryType.TOOL_CALL}
    assert done == {"c1": {"status": "success", "slept_ms": 150}, "c3": {"status": "success", "sum": 42}}
    assert [m.tool_call_id for m in tool_results(job)] == ["c1", "c3"]


class Router:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def route(self, name: str, arguments: dict[str, Any]) -> object:
        self.calls.append(name)
        return {"ok": True, "text": f"router handled {name}"}


# (id, tool, args, want route, want routing error, want logged signal)
GO_ROUTES = [
    ("go asks CHAT_SERVICE", "fallback", {"to": "CHAT_SERVICE", "reason": "PREVIEW_MODE"},
     Route.CHAT_SERVICE, None, "FALLBACK_REQUIRED"),
    ("go asks TOOL_ROUTER", "fallback", {"to": "TOOL_ROUTER", "reason": "NOT_HERE"},
     Route.TOOL_ROUTER, None, "FALLBACK_REQUIRED"),
    ("go lacks the tool", "not_in_go", {}, Route.TOOL_ROUTER, None, "HANDLER_NOT_FOUND"),
    ("go names no destination", "fallback", {"to": ""}, Route.ERROR, FALLBACK_DESTINATION_MISSING,
     None),
    ("go success", "add", {"a": 1, "b": 1}, Route.PRIMARY, None, None),
]


@pytest.mark.parametrize(("tool", "args", "route", "code", "signal"), [c[1:] for c in GO_ROUTES],
                         ids=[c[0] for c in GO_ROUTES])
def test_go_tool_requests_fallback(reg: ToolRegistry, tool: str, args: dict[str, Any],
                                   route: Route, code: str | None, signal: str | None,
                                   caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="test.agent.sidecar")
    legacy_calls: list[dict[str, Any]] = []
    router = Router()

    def legacy(a: dict[str, Any]) -> object:
        legacy_calls.append(a)
        return {"sucesso": True, "resposta": "legacy preview sent"}

    fr = FallbackRouter(reg, legacy_handlers={"fallback": legacy}, router=router,
                        logger=logging.getLogger("test.agent.sidecar"))
    got = asyncio.run(fr.execute_async(tool, args))
    assert got.route is route and got.error_code == code
    assert len(legacy_calls) == (1 if route is Route.CHAT_SERVICE else 0)
    assert router.calls == ([tool] if route is Route.TOOL_ROUTER else [])
    records = [r for r in caplog.records if r.name == "test.agent.sidecar"]
    assert len(records) == 1 and records[0].route == route.value  # type: ignore[attr-defined]
    assert records[0].signal == signal  # type: ignore[attr-defined]
    assert fr.execute(tool, args).route is route, "the sync API routes the same way"


def test_go_chat_service_without_legacy_handler(reg: ToolRegistry) -> None:
    got = FallbackRouter(reg, router=Router()).execute("fallback", {"to": "CHAT_SERVICE"})
    assert got.error_code == FALLBACK_NOT_IMPLEMENTED


def test_executor_over_router_over_sidecar(reg: ToolRegistry) -> None:
    fr = FallbackRouter(reg, legacy_handlers={"fallback": lambda a: "legacy says hi"})
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("fallback", {"to": "CHAT_SERVICE"})]),
                       LLMResponse(content="done")])
    job, _ = run(llm, fr, use_async=True, tools=reg.get_openai_schemas(mode="chat_completions"))
    assert [m.content for m in tool_results(job)] == ["legacy says hi"]
    assert job.status is JobStatus.COMPLETED


@pytest.mark.parametrize("use_async", MODES)
def test_timeout_from_go_is_recoverable(sidecar: Sidecar, use_async: bool) -> None:
    """A call past its deadline (``timeoutMs`` sent to Go) is TOOL_TIMEOUT:
    shown to the model, which is asked again."""
    with ToolRegistry.from_sidecar(sidecar, call_timeout=0.2) as short:
        llm = ScriptedLLM([LLMResponse(tool_calls=[call("sleep", {"ms": 5000})]),
                           LLMResponse(content="too slow")])
        job, _ = run(llm, short, use_async=use_async)
    payload = json.loads(tool_results(job)[0].content or "")
    assert payload["error_code"] == "TOOL_TIMEOUT"
    assert job.execution_history[0].is_critical is False
    assert job.status is JobStatus.COMPLETED and len(llm.seen) == 2
