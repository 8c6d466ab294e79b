"""The records of one agent job: the job, its conversation, its history."""

from __future__ import annotations

import enum
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any


class JobStatus(str, enum.Enum):
    """JobStatus is where a job stands."""

    PENDING = "PENDING"
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


class ExecutionStatus(str, enum.Enum):
    """ExecutionStatus is how a finished job ended."""

    SUCCESS = "SUCCESS"
    FAILURE_TOOL = "FAILURE_TOOL"
    FAILURE_LLM = "FAILURE_LLM"
    FAILURE_MAX_TURNS = "FAILURE_MAX_TURNS"
    CANCELLED = "CANCELLED"


class MessageType(str, enum.Enum):
    """MessageType is the kind of a conversation entry."""

    SYSTEM = "SYSTEM"
    USER_INPUT = "USER_INPUT"
    LLM_RESPONSE = "LLM_RESPONSE"
    TOOL_RESULT = "TOOL_RESULT"


class HistoryType(str, enum.Enum):
    """HistoryType is the kind of an execution-history entry."""

    LLM_CALL = "llm_call"
    TOOL_CALL = "tool_call"
    TOOL_ERROR = "tool_error"
    TOOL_SKIPPED = "tool_skipped"


@dataclass
class ToolCall:
    """ToolCall is one tool call the model asked for. arguments is what the
    model sent: a JSON object text (as OpenAI sends it) or an already-parsed
    mapping."""

    id: str
    name: str
    arguments: str | dict[str, Any]

    def to_openai(self) -> dict[str, Any]:
        """Return the call in OpenAI chat-completions ``tool_calls`` shape."""
        args = self.arguments
        if not isinstance(args, str):
            args = json.dumps(args, ensure_ascii=False)
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": args}}


@dataclass
class LLMResponse:
    """LLMResponse is one model answer: final text, or tool calls to run."""

    content: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)


@dataclass
class Message:
    """Message is one conversation entry. Tool results carry tool_call_id,
    name (the tool), is_error and is_recoverable (``True`` for a recoverable
    error fed back to the model)."""

    type: MessageType
    role: str
    content: str | None
    tool_call_id: str | None = None
    name: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)
    is_error: bool = False
    is_recoverable: bool | None = None

    def to_openai(self) -> dict[str, Any]:
        """Return the message in OpenAI chat-completions shape."""
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [c.to_openai() for c in self.tool_calls]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.type is MessageType.TOOL_RESULT and self.name is not None:
            out["name"] = self.name
        return out


@dataclass
class CriticalToolFailureInfo:
    """CriticalToolFailureInfo describes the tool failure that ended a job."""

    tool_name: str
    error_type: str
    message: str
    is_recoverable: bool
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class ExecutionResult:
    """ExecutionResult is how a job ended: status, a message, and the
    model's final output on success."""

    status: ExecutionStatus
    message: str
    output: str | None = None


@dataclass
class HistoryEntry:
    """HistoryEntry is one step of a job's execution history. params are the
    call's arguments as the model sent them (parsed when they parsed);
    result is the text the model was shown; error is the failure, when any."""

    type: HistoryType
    tool_name: str | None = None
    tool_call_id: str | None = None
    params: Any = None
    result: str | None = None
    error: dict[str, Any] | None = None
    is_critical: bool = False
    elapsed: float = 0.0
    timestamp: float = field(default_factory=time.time)


@dataclass
class Job:
    """Job is one agent task and everything the executor recorded about it.

    input is the user's request; tool_scope (optional) limits which tools the
    registry lets the job call.
    """

    input: str
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    status: JobStatus = JobStatus.PENDING
    execution_result: ExecutionResult | None = None
    critical_tool_failure_info: CriticalToolFailureInfo | None = None
    last_failure_summary: str | None = None
    conversation_history: list[Message] = field(default_factory=list)
    execution_history: list[HistoryEntry] = field(default_factory=list)
    tool_scope: list[str] | None = None
