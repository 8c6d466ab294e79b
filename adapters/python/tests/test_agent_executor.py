"""AgentExecutor with an in-process registry: a non-recoverable tool failure, an
unknown tool, arguments that fail validation, parallel batches, cancellation and
model failures. The same cases against the real sidecar are in
test_agent_sidecar.py."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from agent_asserts import assert_critical, tool_results

from registry_sidecar.agent import (
    AgentExecutor,
    ExecutionStatus,
    HistoryType,
    Job,
    JobStatus,
    LLMResponse,
    ToolCall,
    ToolError,
)
from registry_sidecar.agent.testing import (
    InMemoryJobRepository,
    InProcessToolRegistry,
    ScriptedLLM,
)

WRITE_SCHEMA = {
    "type": "object",
    "properties": {"file_path": {"type": "string"}, "value": {"type": "integer"}},
    "required": ["file_path", "value"],
    "additionalProperties": False,
}


def registry() -> InProcessToolRegistry:
    reg = InProcessToolRegistry()

    def write(args: dict[str, Any]) -> object:
        if args["file_path"] == "broken.xlsx":
            raise ToolError("disk on fire", "write_cells",
                            original_error=OSError("sector 7 unreadable"), is_recoverable=False)
        return {"status": "success", "written": args["value"]}

    reg.register("write_cells", write, WRITE_SCHEMA)
    reg.register("list_sheets", lambda a: {"status": "success", "sheets": ["S1"]})
    return reg


def call(name: str, args: object, cid: str = "call_1") -> ToolCall:
    return ToolCall(cid, name, args if isinstance(args, dict) else json.dumps(args))


def run(llm: ScriptedLLM, reg: Any, **kw: Any) -> tuple[Job, InMemoryJobRepository]:
    repo = InMemoryJobRepository()
    job = Job(input="fill the sheet")
    AgentExecutor(llm, reg, repo, **kw).run_sync(job)
    return job, repo


def test_3a_non_recoverable_tool_error_ends_the_job() -> None:
    reg = registry()
    args = {"file_path": "broken.xlsx", "value": 3}
    llm = ScriptedLLM([LLMResponse(tool_calls=[
        call("write_cells", args, "c1"), call("list_sheets", {}, "c2")])])
    job, repo = run(llm, reg)
    assert len(llm.seen) == 1, "the model is called once"
    assert reg.calls == [("write_cells", args)], "the tool runs once, with the parsed arguments"
    assert_critical(job, repo, "write_cells", "disk on fire")
    assert job.critical_tool_failure_info is not None
    assert job.critical_tool_failure_info.details["message"] == "sector 7 unreadable"
    skipped = [e for e in job.execution_history if e.type is HistoryType.TOOL_SKIPPED]
    assert [e.tool_name for e in skipped] == ["list_sheets"], "no further tool call that turn"
    assert tool_results(job) == []


def test_3b_unknown_tool_ends_the_job() -> None:
    reg = registry()
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("make_coffee", {"cups": 2})])])
    job, repo = run(llm, reg)
    assert len(llm.seen) == 1
    assert reg.calls == []
    assert_critical(job, repo, "make_coffee", "Tool 'make_coffee' not found.")
    info = job.critical_tool_failure_info
    assert info is not None
    assert info.details["message"] == "Tool 'make_coffee' not found.", "details.message = the cause"
    assert info.details["type"] == "ToolNotFoundError"
    history = job.execution_history
    assert history[0].params == {"cups": 2}


def test_3c_validation_error_goes_back_to_the_model() -> None:
    reg = registry()
    bad = {"file_path": "a.xlsx", "value": "three"}
    final = "I could not write the value; it must be an integer."
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("write_cells", bad, "c1")]),
                       LLMResponse(content=final)])
    job, repo = run(llm, reg)
    assert reg.calls == [], "the tool does not run"
    expected_payload = reg.call_tool("write_cells", bad)
    assert json.loads(expected_payload)["error_code"] == "TOOL_ARGUMENT_VALIDATION_ERROR"
    results = tool_results(job)
    assert len(results) == 1
    msg = results[0]
    assert (msg.role, msg.tool_call_id, msg.name, msg.content, msg.is_recoverable) == (
        "tool", "c1", "write_cells", expected_payload, True)
    assert len(llm.seen) == 2, "the model is asked a second time"
    assert llm.seen[1][-1] == msg, "with the validation error in its history"
    assert job.status is JobStatus.COMPLETED
    assert job.execution_result is not None
    assert job.execution_result.status is ExecutionStatus.SUCCESS
    assert job.execution_result.output == final
    assert [e.type for e in job.execution_history] == [HistoryType.TOOL_ERROR]
    entry = job.execution_history[0]
    assert entry.is_critical is False and entry.params == bad
    assert job.critical_tool_failure_info is None
    assert repo.last.status is JobStatus.COMPLETED


def test_success_round_trip_and_saves() -> None:
    reg = registry()
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("write_cells", {"file_path": "a", "value": 1})]),
                       LLMResponse(content="done")])
    job, repo = run(llm, reg, system_prompt="be brief")
    assert job.status is JobStatus.COMPLETED
    roles = [m.role for m in job.conversation_history]
    assert roles == ["system", "user", "assistant", "tool", "assistant"]
    assert json.loads(tool_results(job)[0].content or "") == {"status": "success", "written": 1}
    assert [s.status for s in repo.saves] == [JobStatus.RUNNING, JobStatus.RUNNING,
                                              JobStatus.COMPLETED]
    assert llm.tools_seen[0][0]["function"]["name"] == "write_cells", "schemas from the registry"


def test_unparseable_arguments_are_recoverable() -> None:
    reg = registry()
    llm = ScriptedLLM([LLMResponse(tool_calls=[ToolCall("c1", "list_sheets", "{not json")]),
                       LLMResponse(content="sorry")])
    job, _ = run(llm, reg)
    assert reg.calls == []
    payload = json.loads(tool_results(job)[0].content or "")
    assert payload["error_code"] == "TOOL_ARGUMENT_VALIDATION_ERROR"
    assert job.execution_history[0].params == "{not json"
    assert job.status is JobStatus.COMPLETED


class Gate:
    """Lets a test see that calls of one batch overlap in time."""

    def __init__(self, parties: int) -> None:
        self.barrier = threading.Barrier(parties, timeout=5)

    def tool(self, args: dict[str, Any]) -> object:
        self.barrier.wait()  # every sibling must be running at once to pass
        return {"status": "success", "n": args["n"]}


def test_parallel_batch_with_a_critical_call_records_its_siblings() -> None:
    reg = registry()
    gate = Gate(2)
    reg.register("slow", gate.tool)

    def fatal(args: dict[str, Any]) -> object:
        return ToolError("corrupt workbook", "fatal", OSError("bad zip"), is_recoverable=False)

    reg.register("fatal", fatal)
    calls = [call("slow", {"n": 1}, "c1"), call("fatal", {}, "c2"), call("slow", {"n": 2}, "c3")]
    llm = ScriptedLLM([LLMResponse(tool_calls=calls)])
    job, repo = run(llm, reg, parallel_tool_calls=True)
    assert_critical(job, repo, "fatal", "corrupt workbook")
    ok = [e for e in job.execution_history if e.type is HistoryType.TOOL_CALL]
    assert [(e.tool_call_id, json.loads(e.result or "")["n"]) for e in ok] == [("c1", 1), ("c3", 2)]
    assert [m.tool_call_id for m in tool_results(job)] == ["c1", "c3"]
    assert [e.tool_call_id for e in repo.last.execution_history] == ["c1", "c2", "c3"]
    assert len(llm.seen) == 1


def test_sequential_batch_runs_calls_in_order() -> None:
    reg = registry()
    order: list[int] = []

    def rec(args: dict[str, Any]) -> object:
        order.append(args["n"])
        return {"status": "success"}

    reg.register("rec", rec)
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("rec", {"n": i}, f"c{i}") for i in range(4)]),
                       LLMResponse(content="ok")])
    job, _ = run(llm, reg)
    assert order == [0, 1, 2, 3]
    assert job.status is JobStatus.COMPLETED


def test_cancelled_payload_is_not_shown_to_the_model() -> None:
    reg = registry()
    reg.register("stop", lambda a: json.dumps({"status": "error", "error_code": "TOOL_CANCELLED",
                                               "tool": "stop", "exception": "CancelledError",
                                               "message": ""}))
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("stop", {})])])
    job, repo = run(llm, reg)
    assert tool_results(job) == []
    assert job.status is JobStatus.CANCELLED
    assert repo.last.execution_result is not None
    assert repo.last.execution_result.status is ExecutionStatus.CANCELLED
    assert len(llm.seen) == 1


def test_cancelling_the_run_saves_a_cancelled_job() -> None:
    reg = registry()
    started = threading.Event()
    release = threading.Event()

    def block(args: dict[str, Any]) -> object:
        started.set()
        release.wait(5)
        return {"status": "success"}

    reg.register("block", block)
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("block", {})])])
    repo = InMemoryJobRepository()
    job = Job(input="x")

    async def main() -> None:
        task = asyncio.create_task(AgentExecutor(llm, reg, repo).run(job))
        await asyncio.to_thread(started.wait, 5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        release.set()  # let the worker thread finish so the loop can close

    try:
        asyncio.run(main())
    finally:
        release.set()
    assert repo.last.status is JobStatus.CANCELLED


def test_model_failure_ends_failure_llm() -> None:
    llm = ScriptedLLM([])
    job, repo = run(llm, registry())
    assert job.status is JobStatus.FAILED
    assert job.execution_result is not None
    assert job.execution_result.status is ExecutionStatus.FAILURE_LLM
    assert job.critical_tool_failure_info is None
    assert repo.last.status is JobStatus.FAILED


@pytest.mark.parametrize(("raised", "critical", "code"), [
    (TimeoutError("slow"), False, "TOOL_TIMEOUT"),
    (ConnectionError("gone"), False, "TOOL_UNAVAILABLE"),
    (RuntimeError("bug"), True, "TOOL_INTERNAL_ERROR"),
], ids=["timeout", "unavailable", "unexpected"])
def test_registry_exceptions_are_classified(raised: Exception, critical: bool, code: str) -> None:
    class Raising:
        def call_tool(self, name: str, arguments: dict[str, Any],
                      tool_scope: list[str] | None = None) -> str:
            raise raised

    llm = ScriptedLLM([LLMResponse(tool_calls=[call("t", {})]), LLMResponse(content="end")])
    job, _ = run(llm, Raising(), tools=[])
    entry = job.execution_history[0]
    assert entry.is_critical is critical
    assert entry.error is not None and entry.error["code"] == code
    assert job.status is (JobStatus.FAILED if critical else JobStatus.COMPLETED)
    if not critical:
        payload = json.loads(tool_results(job)[0].content or "")
        assert (payload["error_code"], payload["exception"]) == (code, type(raised).__name__)


def test_tool_scope_is_passed_to_the_registry() -> None:
    reg = registry()
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("write_cells", {"file_path": "a", "value": 1})])])
    repo = InMemoryJobRepository()
    job = Job(input="x", tool_scope=["list_sheets"])
    AgentExecutor(llm, reg, repo).run_sync(job)
    assert [t["function"]["name"] for t in llm.tools_seen[0]] == ["list_sheets"]
    assert job.critical_tool_failure_info is not None
    assert job.critical_tool_failure_info.message == (
        "Tool 'write_cells' is not in the allowed tool scope.")


@pytest.mark.parametrize(("answer", "code"), [
    ({"use_fallback": True}, "FALLBACK_DESTINATION_MISSING"),
    ({"use_fallback": True, "fallback_to": "CHAT_SERVICE"}, "FALLBACK_NOT_IMPLEMENTED"),
], ids=["no destination", "no legacy handler"])
def test_routing_errors_are_critical(answer: dict[str, Any], code: str) -> None:
    from registry_sidecar.agent import FallbackRouter

    reg = registry()
    reg.register("handoff", lambda a: answer)
    llm = ScriptedLLM([LLMResponse(tool_calls=[call("handoff", {})])])
    job, repo = run(llm, FallbackRouter(reg), tools=[])
    assert job.status is JobStatus.FAILED
    info = job.critical_tool_failure_info
    assert info is not None and info.details["error_code"] == code
    assert tool_results(job) == []
    assert len(llm.seen) == 1


def test_unreachable_registry_at_job_start_ends_the_job_saved() -> None:
    class Unreachable(InProcessToolRegistry):
        def get_openai_schemas(
            self, mode: str = "chat_completions", tool_scope: Sequence[str] | None = None
        ) -> list[dict[str, Any]]:
            raise ConnectionError("sidecar is gone")

    llm = ScriptedLLM([LLMResponse(content="never asked")])
    job, repo = run(llm, Unreachable())
    assert job.status is JobStatus.FAILED
    assert job.execution_result is not None
    assert job.execution_result.status is ExecutionStatus.FAILURE_TOOL
    assert job.last_failure_summary == "Tool schemas unavailable: ConnectionError: sidecar is gone"
    assert llm.seen == []
    assert repo.last.status is JobStatus.FAILED


def test_in_process_double_speaks_excelmanus_validation_words() -> None:
    """The test double's validation payload has excelmanus's message and
    per-field violations (required in schema order, unknown sorted, then types)."""
    payload = json.loads(registry().call_tool("write_cells", {"zzz": 1, "value": "three", "aaa": True}))
    assert payload["message"] == "工具参数与 schema 不匹配，请修正后重试。"
    assert payload["violations"] == [
        "$.file_path: 缺少必填字段",
        "$.aaa: 非法字段（schema 未声明）",
        "$.zzz: 非法字段（schema 未声明）",
        "$.value: 类型不匹配，期望 'integer'，实际 str",
    ]
