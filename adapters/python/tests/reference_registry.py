"""A stdlib-only, in-process reference registry with excelmanus's payload rules.

It is the Python side of the byte-parity suite (test_parity.py) and the
in-process peer of tests/bench/bench_adapter.py. It follows the rules of
excelmanus's ``ToolRegistry.call_tool`` (kilolonion/excelmanus,
excelmanus/tools/registry.py), with the sidecar's error-code table:

- a name outside ``tool_scope`` raises ToolNotAllowedError, an unknown name
  ToolNotFoundError, with excelmanus's messages;
- arguments that fail the tool's schema give excelmanus's schema-validation
  payload, worded by tests/vectors/excelmanus_oracle.py (the oracle the Go
  registry's goldens come from); arguments that then do not bind to the
  function's signature give the binding payload (``detail`` is the binding
  error's text);
- an exception from the tool gives the execution payload:
  ``exception`` = ``type(exc).__name__``, ``message`` = ``str(exc)``, and
  ``cause`` = ``str(exc.__cause__)`` only when there is a cause and its text
  differs; an exception with a true ``fatal`` attribute gives
  TOOL_FATAL_ERROR; FallbackRequired gives the fallback payload;
- a result that is not a ``str`` is encoded with
  ``json.dumps(result, ensure_ascii=False)``.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any


def _load_oracle() -> ModuleType:
    """tests/vectors/excelmanus_oracle.py, the stdlib-only oracle of the goldens."""
    path = Path(__file__).resolve().parents[3] / "tests" / "vectors" / "excelmanus_oracle.py"
    spec = importlib.util.spec_from_file_location("excelmanus_oracle", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


excelmanus_oracle = _load_oracle()

#: The message of excelmanus's signature-binding payloads.
VALIDATION_MESSAGE = "工具参数不完整或不匹配，请根据工具 schema 补齐后重试。"


class ToolNotFoundError(Exception):
    """The tool is not registered."""


class ToolNotAllowedError(Exception):
    """The tool is outside the caller's scope."""


class FallbackRequired(Exception):
    """Raised by a tool to ask for fallback routing."""

    def __init__(self, to: str, reason: str = "") -> None:
        super().__init__(f"fallback to {to} required: {reason}")
        self.to = to
        self.reason = reason


@dataclass
class RefTool:
    """A registered reference tool."""

    name: str
    func: Callable[..., Any]
    input_schema: dict[str, Any] = field(default_factory=lambda: {"type": "object"})


def dumps(payload: Any) -> str:
    """Encode as excelmanus does."""
    return json.dumps(payload, ensure_ascii=False)


class ReferenceRegistry:
    """An in-process registry that formats failures as excelmanus does."""

    def __init__(self) -> None:
        self._tools: dict[str, RefTool] = {}

    def register(self, name: str, func: Callable[..., Any], input_schema: dict[str, Any] | None = None) -> None:
        """Register func under name; refuses duplicates."""
        if name in self._tools:
            raise ValueError(f"tool {name!r} already registered")
        self._tools[name] = RefTool(name, func, input_schema or {"type": "object"})

    def call_tool(self, name: str, arguments: Mapping[str, Any], tool_scope: Sequence[str] | None = None) -> str:
        """Run a tool and return its payload text."""
        if tool_scope is not None and name not in set(tool_scope):
            raise ToolNotAllowedError(f"工具 '{name}' 不在授权范围内。")
        tool = self._tools.get(name)
        if tool is None:
            raise ToolNotFoundError(f"工具 '{name}' 未注册。")
        schema_error: str | None = excelmanus_oracle.validation_payload(name, json.dumps(dict(arguments)), tool.input_schema)
        if schema_error is not None:
            return schema_error
        detail = self._binding_problem(tool, arguments)
        if detail is not None:
            return self._validation_payload(tool, arguments, detail)
        try:
            result = tool.func(**arguments)
        except FallbackRequired as req:
            return dumps(
                {
                    "status": "fallback",
                    "error": "FALLBACK_REQUIRED",
                    "tool": name,
                    "use_fallback": True,
                    "fallback_to": req.to,
                    "reason": req.reason,
                }
            )
        except Exception as exc:  # noqa: BLE001 - the registry's whole job
            return self._execution_payload(name, exc)
        return result if isinstance(result, str) else dumps(result)

    @staticmethod
    def _binding_problem(tool: RefTool, arguments: Mapping[str, Any]) -> str | None:
        try:
            inspect.signature(tool.func).bind(**arguments)
        except TypeError as exc:
            return str(exc)
        return None

    @staticmethod
    def _validation_payload(tool: RefTool, arguments: Mapping[str, Any], detail: str) -> str:
        schema = tool.input_schema
        required = [r for r in schema.get("required", []) if isinstance(r, str)]
        props = schema.get("properties")
        accepted = sorted(str(k) for k in props) if isinstance(props, dict) else []
        return dumps(
            {
                "status": "error",
                "error_code": "TOOL_ARGUMENT_VALIDATION_ERROR",
                "tool": tool.name,
                "message": VALIDATION_MESSAGE,
                "detail": detail,
                "required_fields": required,
                "accepted_fields": accepted,
                "provided_fields": sorted(arguments.keys()),
            }
        )

    @staticmethod
    def _execution_payload(name: str, exc: BaseException) -> str:
        payload: dict[str, Any] = {
            "status": "error",
            "error_code": "TOOL_FATAL_ERROR" if getattr(exc, "fatal", False) else "TOOL_EXECUTION_ERROR",
            "tool": name,
            "exception": type(exc).__name__,
            "message": str(exc),
        }
        if exc.__cause__ is not None and str(exc.__cause__) != str(exc):
            payload["cause"] = str(exc.__cause__)
        return dumps(payload)
