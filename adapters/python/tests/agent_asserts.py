"""Assertions shared by the agent executor suites (in-process and against the sidecar)."""

from __future__ import annotations

from typing import Any

from registry_sidecar.agent import ExecutionStatus, HistoryType, Job, JobStatus, MessageType
from registry_sidecar.agent.testing import InMemoryJobRepository


def tool_results(job: Job) -> list[Any]:
    """The TOOL_RESULT messages of the job's conversation."""
    return [m for m in job.conversation_history if m.type is MessageType.TOOL_RESULT]


def assert_critical(job: Job, repo: InMemoryJobRepository, tool: str, message: str) -> None:
    """job ended FAILURE_TOOL on a critical ToolError of tool, as a critical tool failure is recorded,
    and the repository's last save holds the failed job."""
    summary = f"Critical: Tool '{tool}' failed non-recoverably: {message}"
    assert job.status is JobStatus.FAILED
    assert job.execution_result is not None
    assert job.execution_result.status is ExecutionStatus.FAILURE_TOOL
    assert summary in job.execution_result.message
    assert job.last_failure_summary is not None and summary in job.last_failure_summary
    info = job.critical_tool_failure_info
    assert info is not None
    assert (info.tool_name, info.error_type, info.message, info.is_recoverable) == (
        tool, "ToolError", message, False)
    errors = [e for e in job.execution_history if e.type is HistoryType.TOOL_ERROR]
    assert len(errors) == 1 and errors[0].is_critical and errors[0].tool_name == tool
    assert not any(m.tool_call_id == errors[0].tool_call_id for m in tool_results(job))
    last = repo.last
    assert last.status is JobStatus.FAILED
    assert last.critical_tool_failure_info == info
    assert last.last_failure_summary == job.last_failure_summary
