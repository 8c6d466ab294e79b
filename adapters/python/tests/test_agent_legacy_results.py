"""Primary service failures and legacy results: an exception from the primary tool service is logged as a
warning with the tool's name and routed on to the ToolRouter; a legacy
non-dict, non-None result is returned as is; the executor classifies every
result through normalize_tool_result, so legacy failure dicts and None are
recoverable tool errors that go back to the model and count against the
retry budgets."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from agent_asserts import tool_results

from registry_sidecar import SidecarConnectionError, ToolNotAllowedError
from registry_sidecar.agent import (
    FALLBACK_LOOP,
    AgentExecutor,
    Budgets,
    ExecutionStatus,
    FallbackRouter,
    HistoryType,
    Job,
    JobStatus,
    LLMResponse,
    Route,
    RoutedResult,
    ToolCall,
    normalize_tool_result,
)
from registry_sidecar.agent.testing import InMemoryJobRepository, InProcessToolRegistry, ScriptedLLM

LOGGER = "test.agent.legacy"
SECRET = "s3cret-argument-value"


class Raising:
    """A primary tool service that raises what it is given, for every tool."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc
        self.calls: list[str] = []

    def call_tool(self, name: str, arguments: dict[str, Any],
                  tool_scope: list[str] | None = None) -> str:
        self.calls.append(name)
        raise self.exc


class AsyncRaising(Raising):
    async def call_tool_async(self, name: str, arguments: dict[str, Any],
                              tool_scope: list[str] | None = None) -> str:
        await asyncio.sleep(0)
        return self.call_tool(name, arguments, tool_scope)


class Router:
    def __init__(self, answer: object = "router ran it") -> None:
        self.answer = answer
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def route(self, name: str, arguments: dict[str, Any]) -> object:
        self.calls.append((name, arguments))
        return self.answer


def execute(fr: FallbackRouter, name: str, args: dict[str, Any], how: str) -> RoutedResult:
    if how == "sync":
        return fr.execute(name, args)
    return asyncio.run(fr.execute_async(name, args))


def records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER]


HOWS = ["sync", "async"]
SERVICES = [pytest.param(Raising, id="call_tool"), pytest.param(AsyncRaising, id="call_tool_async")]


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("service", SERVICES)
@pytest.mark.parametrize("exc", [SidecarConnectionError("sidecar gone"), RuntimeError("bug"),
                                 TimeoutError()], ids=["connection", "runtime", "timeout"])
def test_primary_exception_is_logged_and_routed_to_the_router(
        how: str, service: type[Raising], exc: Exception, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    primary, router = service(exc), Router()
    fr = FallbackRouter(primary, router=router, logger=logging.getLogger(LOGGER))
    got = execute(fr, "write_cells", {"v": SECRET}, how)
    assert primary.calls == ["write_cells"]
    assert router.calls == [("write_cells", {"v": SECRET})], "routed on, with the arguments"
    assert (got.route, got.text, got.error_code) == (Route.TOOL_ROUTER, "router ran it", None)
    [rec] = records(caplog)
    assert rec.levelno == logging.WARNING
    assert "'write_cells'" in rec.getMessage() and type(exc).__name__ in rec.getMessage()
    assert (rec.tool, rec.route, rec.decision, rec.signal) == (  # type: ignore[attr-defined]
        "write_cells", "TOOL_ROUTER", "primary_exception", type(exc).__name__)
    assert SECRET not in rec.getMessage()


@pytest.mark.parametrize("how", HOWS)
def test_primary_exception_without_router_propagates_logged(
        how: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    fr = FallbackRouter(Raising(RuntimeError("bug")), logger=logging.getLogger(LOGGER))
    with pytest.raises(RuntimeError, match="bug"):
        execute(fr, "t", {}, how)
    [rec] = records(caplog)
    assert rec.levelno == logging.WARNING
    assert rec.decision == "primary_exception_no_router"  # type: ignore[attr-defined]


@pytest.mark.parametrize("how", HOWS)
def test_not_allowed_is_never_routed_around_the_scope(how: str) -> None:
    router = Router()
    fr = FallbackRouter(Raising(ToolNotAllowedError("Tool 't' is not in the allowed tool scope.")),
                        router=router)
    with pytest.raises(ToolNotAllowedError):
        execute(fr, "t", {}, how)
    assert router.calls == []


@pytest.mark.parametrize("how", HOWS)
def test_router_asking_again_after_an_exception_is_a_loop(how: str) -> None:
    router = Router({"use_fallback": True, "fallback_to": "CHAT_SERVICE"})
    got = execute(FallbackRouter(Raising(RuntimeError("x")), router=router), "t", {}, how)
    assert got.error_code == FALLBACK_LOOP
    assert len(router.calls) == 1


LEGACY_VALUES = [42, 3.5, True, [1, "dois"], ("a", 1), 0, False, []]


@pytest.mark.parametrize("value", LEGACY_VALUES, ids=repr)
def test_legacy_non_dict_result_is_returned_as_is(value: object) -> None:
    """From a CHAT_SERVICE legacy handler, from the router and from a legacy
    primary, the very object comes back from call_tool (sync and async)."""
    reg = InProcessToolRegistry()
    reg.register("send", lambda a: {"use_fallback": True, "fallback_to": "CHAT_SERVICE"})
    reg.register("route", lambda a: {"use_fallback": True, "fallback_to": "TOOL_ROUTER"})
    fr = FallbackRouter(reg, legacy_handlers={"send": lambda a: value}, router=Router(value))
    for tool in ("send", "route"):
        assert fr.call_tool(tool, {}) is value
        assert asyncio.run(fr.call_tool_async(tool, {})) is value
        routed = fr.execute(tool, {})
        assert routed.value is value and routed.answer is value
        assert json.loads(routed.text) == (list(value) if isinstance(value, tuple) else value), \
            "the text is the value's own JSON, not a wrapper"

    class LegacyPrimary:
        def call_tool(self, name: str, arguments: dict[str, Any],
                      tool_scope: list[str] | None = None) -> object:
            return value

    assert FallbackRouter(LegacyPrimary()).call_tool("t", {}) is value


def test_strings_dicts_and_none_come_back_as_text() -> None:
    reg = InProcessToolRegistry()
    reg.register("send", lambda a: {"use_fallback": True, "fallback_to": "CHAT_SERVICE"})
    for answer, text in [("enviado", "enviado"),
                         ({"sucesso": True, "resposta": "ação"}, '{"sucesso": true, "resposta": "ação"}')]:
        assert FallbackRouter(reg, legacy_handlers={"send": lambda a, x=answer: x}).call_tool(
            "send", {}) == text
    none = FallbackRouter(reg, legacy_handlers={"send": lambda a: None}).execute("send", {})
    assert json.loads(none.text) == {"status": "error", "error_code": "TOOL_EXECUTION_ERROR",
                                     "tool": "send", "exception": "ToolError",
                                     "message": "Tool 'send' returned no result."}
    assert none.answer == none.text and none.result["kind"] == "error"


# -- the executor classifies every result through normalize_tool_result ----

class Legacy:
    """A legacy in-process service: returns its handlers' values unchanged
    (no JSON encoding), as excelmanus-era Python services do."""

    def __init__(self, **handlers: Any) -> None:
        self.handlers = handlers
        self.calls: list[str] = []

    def call_tool(self, name: str, arguments: dict[str, Any],
                  tool_scope: list[str] | None = None) -> object:
        self.calls.append(name)
        return self.handlers[name](arguments)


FAILURES = [
    pytest.param({"sucesso": False, "erro": "DB_DOWN"}, "DB_DOWN", id="sucesso-false-erro"),
    pytest.param({"erro": "DB_DOWN"}, "DB_DOWN", id="erro"),
    pytest.param({"error": "quota exceeded"}, "quota exceeded", id="error"),
    pytest.param({"ok": False, "text": "sheet locked"}, "sheet locked", id="ok-false"),
    pytest.param({"sucesso": False, "resposta": "sem conexão"}, "sem conexão", id="sucesso-false"),
    pytest.param(None, "Tool 'lookup' returned no result.", id="None"),
]


def _call(cid: str, name: str = "lookup") -> ToolCall:
    return ToolCall(cid, name, json.dumps({"id": cid}))


# Each failure as the object a legacy service returns and (but None) as its JSON text.
AS_RETURNED = [pytest.param(*p.values, False, id=f"{p.id}-object") for p in FAILURES] + [
    pytest.param(*p.values, True, id=f"{p.id}-json-text") for p in FAILURES if p.values[0] is not None]


@pytest.mark.parametrize(("answer", "message", "as_text"), AS_RETURNED)
def test_legacy_failure_goes_back_to_the_model(answer: object, message: str, as_text: bool) -> None:
    raw = json.dumps(answer) if as_text else answer
    service = Legacy(lookup=lambda a: raw)
    llm = ScriptedLLM([LLMResponse(tool_calls=[_call("c1")]), LLMResponse(content="it failed")])
    repo = InMemoryJobRepository()
    job = AgentExecutor(llm, service, repo).run_sync(Job(input="look it up"))
    assert job.status is JobStatus.COMPLETED, job.last_failure_summary
    [msg] = tool_results(job)
    assert (msg.tool_call_id, msg.is_error, msg.is_recoverable) == ("c1", True, True)
    if answer is None:
        assert json.loads(msg.content or "")["message"] == message
    else:
        assert json.loads(msg.content or "") == answer, "the model sees what the tool said"
    assert len(llm.seen) == 2 and llm.seen[1][-1] == msg, "the model is asked again with it"
    [entry] = job.execution_history
    assert entry.type is HistoryType.TOOL_ERROR and entry.is_critical is False
    assert entry.error is not None
    assert (entry.error["code"], entry.error["message"], entry.error["is_recoverable"]) == (
        "TOOL_EXECUTION_ERROR", message, True)
    assert job.critical_tool_failure_info is None


@pytest.mark.parametrize(("answer", "message"), FAILURES)
def test_legacy_failures_count_against_the_retry_budget(answer: object, message: str) -> None:
    service = Legacy(lookup=lambda a: answer)
    llm = ScriptedLLM([LLMResponse(tool_calls=[_call(f"c{i}")]) for i in range(3)]
                      + [LLMResponse(content="never")])
    job = AgentExecutor(llm, service, InMemoryJobRepository(),
                        budgets=Budgets(per_tool_retry_budget=2, max_consecutive_errors=10)
                        ).run_sync(Job(input="loop"))
    assert service.calls == ["lookup"] * 3
    assert len(llm.seen) == 3, "no model call after the budget ran out"
    assert job.status is JobStatus.FAILED
    assert job.execution_result is not None
    assert job.execution_result.status is ExecutionStatus.FAILURE_TOOL
    info = job.critical_tool_failure_info
    assert info is not None and info.details["budget"] == "per_tool_retry_budget"
    assert info.details["last_error"]["message"] == message
    assert len(tool_results(job)) == 2


def test_legacy_failures_count_against_the_consecutive_cap() -> None:
    service = Legacy(a=lambda x: {"erro": "A"}, b=lambda x: None)
    llm = ScriptedLLM([LLMResponse(tool_calls=[_call(f"c{i}", "ab"[i % 2])]) for i in range(3)])
    job = AgentExecutor(llm, service, InMemoryJobRepository(),
                        budgets=Budgets(per_tool_retry_budget=10, max_consecutive_errors=3)
                        ).run_sync(Job(input="loop"))
    info = job.critical_tool_failure_info
    assert info is not None and info.details["budget"] == "max_consecutive_errors"


@pytest.mark.parametrize("answer", [{"sucesso": True, "resposta": "ok"}, {"ok": True},
                                    "plain text", 42, [1, 2], {"status": "success"}],
                         ids=repr)
def test_legacy_successes_are_successes(answer: object) -> None:
    llm = ScriptedLLM([LLMResponse(tool_calls=[_call("c1")]), LLMResponse(content="done")])
    job = AgentExecutor(llm, Legacy(lookup=lambda a: answer), InMemoryJobRepository()
                        ).run_sync(Job(input="x"))
    [msg] = tool_results(job)
    assert msg.is_error is False
    assert [e.type for e in job.execution_history] == [HistoryType.TOOL_CALL]
    assert normalize_tool_result("lookup", answer)["ok"] is True


def test_router_legacy_failure_reaches_the_model_as_an_error() -> None:
    """Through a FallbackRouter: a CHAT_SERVICE legacy handler's failure dict
    is a recoverable error for the executor, not a success."""
    reg = InProcessToolRegistry()
    reg.register("send_report", lambda a: {"use_fallback": True, "fallback_to": "CHAT_SERVICE"})
    fr = FallbackRouter(reg, legacy_handlers={"send_report": lambda a: {"sucesso": False,
                                                                        "erro": "SMTP_DOWN"}})
    llm = ScriptedLLM([LLMResponse(tool_calls=[_call("c1", "send_report")]),
                       LLMResponse(content="could not send")])
    job = AgentExecutor(llm, fr, InMemoryJobRepository()).run_sync(Job(input="send"))
    [msg] = tool_results(job)
    assert msg.is_error and msg.is_recoverable
    assert json.loads(msg.content or "") == {"sucesso": False, "erro": "SMTP_DOWN"}
    assert job.execution_history[0].type is HistoryType.TOOL_ERROR
