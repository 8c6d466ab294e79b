"""Budgets end runaway loops with FAILURE_TOOL and a summary naming the budget."""

from __future__ import annotations

import dataclasses
import itertools
import json
import pathlib
import re
from typing import Any

import pytest

from registry_sidecar.agent import (
    AgentExecutor,
    Budgets,
    ExecutionStatus,
    HistoryType,
    Job,
    JobStatus,
    LLMResponse,
    MessageType,
    ToolCall,
    budgets,
)
from registry_sidecar.agent.testing import InMemoryJobRepository, InProcessToolRegistry, ScriptedLLM

README = pathlib.Path(budgets.__file__).with_name("README.md")


def failing_registry() -> InProcessToolRegistry:
    reg = InProcessToolRegistry()

    def bad(args: dict[str, Any]) -> object:
        raise ValueError(f"cell {args.get('n')} is locked")

    reg.register("write_a", bad)
    reg.register("write_b", bad)
    reg.register("read", lambda a: {"status": "success", "n": a.get("n")})
    return reg


def turns(*calls: tuple[str, dict[str, Any]], final: str = "gave up") -> ScriptedLLM:
    script: list[Any] = [LLMResponse(tool_calls=[ToolCall(f"c{i}", name, json.dumps(args))])
                         for i, (name, args) in enumerate(calls)]
    script.append(LLMResponse(content=final))
    return ScriptedLLM(script)


def run(llm: ScriptedLLM, reg: Any, b: Budgets) -> tuple[Job, InMemoryJobRepository]:
    repo = InMemoryJobRepository()
    job = Job(input="loop")
    AgentExecutor(llm, reg, repo, budgets=b).run_sync(job)
    return job, repo


def assert_budget_stop(job: Job, repo: InMemoryJobRepository, budget: str, tool: str) -> None:
    assert job.status is JobStatus.FAILED
    assert job.execution_result is not None
    assert job.execution_result.status is ExecutionStatus.FAILURE_TOOL
    assert job.last_failure_summary is not None
    assert job.last_failure_summary.startswith(f"Critical: Tool '{tool}' failed non-recoverably: ")
    assert budget in job.last_failure_summary, "the summary names the budget"
    info = job.critical_tool_failure_info
    assert info is not None and info.error_type == "BudgetExceededError"
    assert info.details["budget"] == budget and info.is_recoverable is False
    assert repo.last.status is JobStatus.FAILED
    assert job.execution_history[-1].is_critical


CASES = [
    # The 3rd failure of one tool exhausts a retry budget of 2; the model saw 2 errors.
    ("per_tool_retry_budget", Budgets(per_tool_retry_budget=2, max_consecutive_errors=10),
     [("write_a", {"n": 1}), ("write_a", {"n": 2}), ("write_a", {"n": 3})], "write_a", 3, 2),
    # Alternating tools dodge the per-tool budget but not the consecutive cap of 4.
    ("max_consecutive_errors", Budgets(per_tool_retry_budget=10, max_consecutive_errors=4),
     [("write_a", {"n": 1}), ("write_b", {"n": 2}), ("write_a", {"n": 3}), ("write_b", {"n": 4})],
     "write_b", 4, 3),
    # The 4th identical call (same arguments in another key order) is refused, not run.
    ("max_identical_calls", Budgets(max_identical_calls=3),
     [("read", {"n": 1, "m": 2}), ("read", {"m": 2, "n": 1}), ("read", {"n": 1, "m": 2}),
      ("read", {"m": 2, "n": 1})], "read", 4, 3),
]


@pytest.mark.parametrize(("budget", "limits", "calls", "tool", "model_calls", "shown"), CASES,
                         ids=[c[0] for c in CASES])
def test_budget_ends_runaway_loop(budget: str, limits: Budgets, calls: list[Any], tool: str,
                                  model_calls: int, shown: int) -> None:
    reg = failing_registry()
    llm = turns(*calls)
    job, repo = run(llm, reg, limits)
    assert_budget_stop(job, repo, budget, tool)
    assert len(llm.seen) == model_calls, "no model call after the budget ran out"
    tool_results = [m for m in job.conversation_history if m.type is MessageType.TOOL_RESULT]
    assert len(tool_results) == shown


def test_identical_call_refused_is_never_run() -> None:
    reg = failing_registry()
    job, _ = run(turns(*[("read", {"n": 1})] * 3), reg, Budgets(max_identical_calls=2))
    assert len(reg.calls) == 2
    assert job.critical_tool_failure_info is not None
    assert job.critical_tool_failure_info.details["budget"] == "max_identical_calls"


def test_success_resets_the_consecutive_error_run() -> None:
    reg = failing_registry()
    pattern = [("write_a", {"n": 1}), ("write_b", {"n": 2}), ("read", {"n": 0})]
    calls = [(name, {"n": i}) for i, (name, _) in enumerate(pattern * 3)]
    job, _ = run(turns(*calls, final="done"), reg,
                 Budgets(per_tool_retry_budget=10, max_consecutive_errors=3))
    assert job.status is JobStatus.COMPLETED, job.last_failure_summary


def test_unavailable_is_recoverable_once_then_critical() -> None:
    class Down:
        def call_tool(self, name: str, arguments: dict[str, Any],
                      tool_scope: list[str] | None = None) -> str:
            return json.dumps({"status": "error", "error_code": "TOOL_UNAVAILABLE", "tool": name,
                               "exception": "ConnectionError", "message": "sidecar is down"})

    llm = turns(("read", {"n": 1}), ("read", {"n": 2}))
    repo = InMemoryJobRepository()
    job = Job(input="x")
    AgentExecutor(llm, Down(), repo, tools=[]).run_sync(job)
    assert [e.is_critical for e in job.execution_history] == [False, True]
    assert job.critical_tool_failure_info is not None
    assert job.critical_tool_failure_info.message == "sidecar is down"
    assert job.status is JobStatus.FAILED


def test_max_turns() -> None:
    reg = failing_registry()
    calls = [("read", {"n": i}) for i in range(10)]
    job, repo = run(turns(*calls), reg, Budgets(max_turns=3))
    assert job.execution_result is not None
    assert job.execution_result.status is ExecutionStatus.FAILURE_MAX_TURNS
    assert "max_turns" in (job.last_failure_summary or "")
    assert len([e for e in job.execution_history if e.type is HistoryType.TOOL_CALL]) == 3


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(Budgets)])
def test_defaults_are_documented(field: str) -> None:
    default = getattr(Budgets(), field)
    row = re.compile(rf"^\|?\s*`?{field}`?\s*\|?\s+{default}\s", re.MULTILINE)
    assert row.search(budgets.__doc__ or ""), f"{field}={default} missing from the module docs"
    assert row.search(README.read_text(encoding="utf-8")), f"{field}={default} missing from README"


@pytest.mark.parametrize("bad", [
    {"max_consecutive_errors": 0}, {"max_identical_calls": 0}, {"max_turns": 0},
    {"per_tool_retry_budget": -1}, {"max_unavailable": -1},
], ids=lambda d: next(iter(d)))
def test_budgets_refuse_nonsense(bad: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        Budgets(**bad)


def test_zero_retry_budget_fails_on_first_error() -> None:
    reg = failing_registry()
    llm = turns(("write_a", {"n": 1}))
    job, repo = run(llm, reg, Budgets(per_tool_retry_budget=0))
    assert_budget_stop(job, repo, "per_tool_retry_budget", "write_a")
    assert len(llm.seen) == 1
    assert list(itertools.chain(job.conversation_history))[-1].role == "assistant"
