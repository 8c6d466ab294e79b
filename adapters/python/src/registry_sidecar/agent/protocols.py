"""The small consumer-side interfaces the agent layer depends on."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from .models import Job, LLMResponse, Message

T = TypeVar("T")


@runtime_checkable
class ToolService(Protocol):
    """ToolService is anything that runs tools the excelmanus way: the
    sidecar-backed ``ToolRegistry``, an in-process registry, a
    :class:`~registry_sidecar.agent.routing.FallbackRouter`. It returns the
    result payload text (or raises ``ToolNotFoundError``/``ToolNotAllowedError``,
    or, for in-process registries, raises or returns a ``ToolError``).
    An optional ``call_tool_async`` with the same signature is preferred by the
    async executor when present."""

    def call_tool(
        self, name: str, arguments: dict[str, Any], tool_scope: list[str] | None = None, /
    ) -> object:
        """Run tool name with arguments and return its result."""
        ...


class LLMAdapter(Protocol):
    """LLMAdapter asks a model for its next step. generate may be a plain or
    an ``async`` method; messages is the whole conversation so far and tools
    the tool schemas (OpenAI chat-completions shape)."""

    def generate(
        self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]], /
    ) -> Awaitable[LLMResponse] | LLMResponse:
        """Return the model's next answer."""
        ...


class JobRepository(Protocol):
    """JobRepository persists jobs; save may be a plain or an ``async`` method.
    The executor saves after every state change, the final one last."""

    def save(self, job: Job, /) -> Awaitable[None] | None:
        """Persist job's current state."""
        ...


#: A legacy handler for one tool: called with the arguments, returns anything
#: :func:`~registry_sidecar.agent.results.normalize_tool_result` accepts (or an
#: awaitable of it).
LegacyHandler = Callable[[dict[str, Any]], object]


class ToolRouterService(Protocol):
    """ToolRouterService is the router a ``TOOL_ROUTER`` fallback goes to
    (e.g. the engine's generic tool router). route may be plain or ``async``."""

    def route(self, name: str, arguments: dict[str, Any], /) -> object:
        """Run tool name with arguments and return its result."""
        ...


async def resolve(value: Awaitable[T] | T) -> T:
    """Await value when it is awaitable, else return it."""
    if inspect.isawaitable(value):
        return await value
    return value


def resolve_sync(value: Awaitable[T] | T) -> T:
    """Return value, running it to completion when it is awaitable. Refuses
    (RuntimeError) inside a running event loop: use the async API there."""
    if not inspect.isawaitable(value):
        return value
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return cast(T, asyncio.run(_await(value)))
    if inspect.iscoroutine(value):
        value.close()
    raise RuntimeError("an async handler was called from the sync API inside a running event loop")


async def _await(value: Awaitable[T]) -> T:
    return await value
