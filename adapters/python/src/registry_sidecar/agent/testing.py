"""Test doubles for engines built on the agent layer (like Go's httptest).

- :class:`InProcessToolRegistry`: an excelmanus-like in-process registry:
  scope check, lookup (``ToolNotFoundError``), a small JSON-Schema subset
  (``required``, ``additionalProperties: false``, property ``type``) that
  returns the ``TOOL_ARGUMENT_VALIDATION_ERROR`` payload without running the
  tool, then the tool function. A function may raise (or return) a
  :class:`~registry_sidecar.agent.errors.ToolError`, which propagates as is;
  any other exception becomes a ``TOOL_EXECUTION_ERROR`` payload.
- :class:`ScriptedLLM`: an LLMAdapter that answers from a script and keeps a
  snapshot of the conversation of every call.
- :class:`InMemoryJobRepository`: keeps a deep copy of every save.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import ToolNotAllowedError, ToolNotFoundError
from ..payloads import error_payload
from .classify import CODE_EXECUTION, CODE_VALIDATION
from .errors import ToolError
from .models import Job, LLMResponse, Message

#: The fixed message of schema-validation payloads (excelmanus's, and the Go
#: registry's under its default ``excelmanus`` message profile).
VALIDATION_MESSAGE: Final = "工具参数与 schema 不匹配，请修正后重试。"

#: Python's type names, as excelmanus's violation texts print them.
_PY_TYPE_NAMES: Final = {bool: "bool", int: "int", float: "float", str: "str", list: "list",
                         dict: "dict", type(None): "NoneType"}

_JSON_TYPES: Final[dict[str, tuple[type, ...]]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}

#: A tool function of the in-process registry.
ToolFunc = Callable[[dict[str, Any]], object]


@dataclass
class _Tool:
    func: ToolFunc
    schema: dict[str, Any]


class InProcessToolRegistry:
    """InProcessToolRegistry runs Python functions as tools and records every
    call that reached a function in ``calls`` as ``(name, arguments)``."""

    def __init__(self) -> None:
        self._tools: dict[str, _Tool] = {}
        self._lock = threading.Lock()
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def register(self, name: str, func: ToolFunc, schema: Mapping[str, Any] | None = None) -> None:
        """Register func as tool name with an input schema (default: any object)."""
        if name in self._tools:
            raise ValueError(f"tool {name!r} is already registered")
        self._tools[name] = _Tool(func, dict(schema or {"type": "object"}))

    def get_tool_names(self) -> list[str]:
        """Return the tool names in registration order."""
        return list(self._tools)

    def get_openai_schemas(
        self, mode: str = "chat_completions", tool_scope: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """Return chat-completions (or responses) schemas of the tools in scope."""
        out = []
        for name, tool in self._tools.items():
            if tool_scope is not None and name not in tool_scope:
                continue
            fn = {"name": name, "description": "", "parameters": tool.schema}
            out.append({"type": "function", "function": fn} if mode == "chat_completions"
                       else {"type": "function", **fn})
        return out

    def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None, tool_scope: Sequence[str] | None = None
    ) -> str:
        """Run tool name and return its payload text (see the module docs)."""
        if tool_scope is not None and name not in tool_scope:
            raise ToolNotAllowedError(f"Tool '{name}' is not in the allowed tool scope.")
        tool = self._tools.get(name)
        if tool is None:
            raise ToolNotFoundError(f"Tool '{name}' not found.")
        args = dict(arguments or {})
        invalid = _validate(name, tool.schema, args)
        if invalid is not None:
            return invalid
        with self._lock:
            self.calls.append((name, copy.deepcopy(args)))
        try:
            result = tool.func(args)
        except ToolError:
            raise
        except Exception as exc:  # noqa: BLE001 - becomes the payload, like excelmanus
            cause = None if exc.__cause__ is None else str(exc.__cause__)
            return error_payload(CODE_EXECUTION, name, type(exc).__name__, str(exc),
                                 None if cause == str(exc) else cause)
        if isinstance(result, ToolError):
            raise result
        return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)


def _validate(name: str, schema: Mapping[str, Any], args: Mapping[str, Any]) -> str | None:
    props: Mapping[str, Any] = schema.get("properties", {})
    required: list[str] = list(schema.get("required", []))
    # excelmanus's order and words: required fields in schema order, unknown
    # fields sorted, then each present property's type, in argument order.
    violations = [f"$.{r}: 缺少必填字段" for r in required if r not in args]
    if schema.get("additionalProperties") is False and props:
        violations += [f"$.{k}: 非法字段（schema 未声明）" for k in sorted(args) if k not in props]
    for key, value in args.items():
        spec = props.get(key)
        want = spec.get("type") if isinstance(spec, Mapping) else None
        if isinstance(want, str) and want in _JSON_TYPES:
            ok = isinstance(value, _JSON_TYPES[want]) and not (
                want in ("integer", "number") and isinstance(value, bool))
            if not ok:
                actual = _PY_TYPE_NAMES.get(type(value), type(value).__name__)
                violations.append(f"$.{key}: 类型不匹配，期望 {want!r}，实际 {actual}")
    if not violations:
        return None
    return json.dumps({
        "status": "error", "error_code": CODE_VALIDATION, "tool": name,
        "message": VALIDATION_MESSAGE, "detail": "; ".join(violations[:5]),
        "violations": violations[:20], "required_fields": required,
        "accepted_fields": sorted(props), "provided_fields": sorted(args),
    }, ensure_ascii=False)


#: A scripted answer: a response, or a function of the conversation so far.
ScriptStep = LLMResponse | Callable[[Sequence[Message]], LLMResponse]


@dataclass
class ScriptedLLM:
    """ScriptedLLM answers from script, one step per call; ``seen`` keeps a
    deep copy of the messages of every call (so ``len(seen)`` is the number
    of model calls). Running out of script raises RuntimeError."""

    script: list[ScriptStep]
    seen: list[list[Message]] = field(default_factory=list)
    tools_seen: list[list[dict[str, Any]]] = field(default_factory=list)

    async def generate(
        self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]
    ) -> LLMResponse:
        """Return the next scripted answer."""
        self.seen.append(copy.deepcopy(list(messages)))
        self.tools_seen.append([dict(t) for t in tools])
        if len(self.seen) > len(self.script):
            raise RuntimeError(f"the script has {len(self.script)} answers; call {len(self.seen)}")
        step = self.script[len(self.seen) - 1]
        return step if isinstance(step, LLMResponse) else step(messages)


@dataclass
class InMemoryJobRepository:
    """InMemoryJobRepository keeps a deep copy of each saved job in ``saves``."""

    saves: list[Job] = field(default_factory=list)

    def save(self, job: Job) -> None:
        """Record a snapshot of job."""
        self.saves.append(copy.deepcopy(job))

    @property
    def last(self) -> Job:
        """The most recent snapshot."""
        if not self.saves:
            raise LookupError("no job was saved")
        return self.saves[-1]
