"""ToolRegistry: excelmanus's registry interface over a sidecar Client."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

from ._loops import LoopClients
from .client import AsyncClient
from .errors import ToolNotAllowedError, ToolNotFoundError
from .payloads import CODE_NOT_ALLOWED, CODE_NOT_FOUND, error_fields, is_error_result
from .strict import strict_schema
from .sync_client import Client

if TYPE_CHECKING:
    from ._settings import Recovery
    from .sidecar import Sidecar

#: The two OpenAI tool-schema layouts excelmanus emits.
OpenAISchemaMode = Literal["responses", "chat_completions"]


@dataclass(frozen=True)
class ToolDef:
    """A tool as the sidecar lists it: name, description and JSON Schema."""

    name: str
    description: str
    input_schema: dict[str, Any] = field(default_factory=dict)

    def to_openai_schema(self, mode: OpenAISchemaMode = "responses", *, strict: bool = False) -> dict[str, Any]:
        """Return the OpenAI tool schema of the tool in the given layout;
        with strict, in OpenAI strict mode (``"strict": true``, parameters
        from :func:`~registry_sidecar.strict.strict_schema`)."""
        if mode not in ("responses", "chat_completions"):
            raise ValueError(f"unsupported OpenAI schema mode: {mode!r}")
        function: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "parameters": strict_schema(self.input_schema) if strict else self.input_schema,
        }
        if strict:
            function["strict"] = True
        if mode == "responses":
            return {"type": "function", **function}
        return {"type": "function", "function": function}


def _raise_for_code(text: str) -> None:
    """Raise ToolNotFoundError / ToolNotAllowedError for those payloads, with
    the payload's message as the exception text."""
    payload = error_fields(text)
    if payload is None:
        return
    code = payload.get("error_code")
    if code == CODE_NOT_FOUND:
        raise ToolNotFoundError(str(payload.get("message", "")))
    if code == CODE_NOT_ALLOWED:
        raise ToolNotAllowedError(str(payload.get("message", "")))


class ToolRegistry:
    """A drop-in for excelmanus's ``ToolRegistry`` whose tools run in the
    sidecar.

    ``call_tool`` returns the exact payload text the sidecar produced, for
    success and for every failure, except that ``TOOL_NOT_FOUND`` and
    ``TOOL_NOT_ALLOWED`` raise :class:`ToolNotFoundError` and
    :class:`ToolNotAllowedError` as excelmanus does. The tool list is fetched
    once and cached; :meth:`refresh` fetches it again.

    ``get_openai_schemas(..., strict=True)`` gives OpenAI strict-mode
    schemas, in which every optional argument is nullable; ``call_tool``
    passes a None for such an argument as omitted (the sidecar drops it
    before checking the arguments), so a strict model's calls run as meant.
    ``null_as_omitted=False`` keeps excelmanus's refusal of those nulls.

    ``call_tool`` (and thus ``asyncio.to_thread(registry.call_tool, ...)``)
    uses the thread-safe Client; ``call_tool_async`` uses one AsyncClient
    per event loop with the same settings, so cancelling the awaiting task
    cancels the call in the sidecar. That client is closed when its loop
    shuts down (``asyncio.run(registry.call_tool_async(...))`` leaves no
    socket behind); a hand-made loop ended by ``loop.close()`` alone should
    ``await registry.aclose()`` first.
    """

    def __init__(self, client: Client, *, owns_client: bool = False, null_as_omitted: bool = True) -> None:
        self._client = client
        self._owns_client = owns_client
        self._null_as_omitted = null_as_omitted
        self._lock = threading.Lock()
        self._tools: dict[str, ToolDef] | None = None
        # One AsyncClient per event loop, with the Client's settings.
        self._async = LoopClients(lambda: AsyncClient(**client.settings()))

    @classmethod
    def from_sidecar(
        cls,
        sidecar: Sidecar,
        *,
        call_timeout: float | None = None,
        recovery: Recovery = "relaunch",
        max_size: int | None = None,
        null_as_omitted: bool = True,
    ) -> ToolRegistry:
        """Connect a new Client to sidecar and wrap it; the registry closes
        the client on close(). By default a crashed sidecar is relaunched on
        the next call."""
        kwargs: dict[str, Any] = {}
        if max_size is not None:
            kwargs["max_size"] = max_size
        client = Client(
            sidecar.url, token=sidecar.token, sidecar=sidecar, call_timeout=call_timeout, recovery=recovery, **kwargs
        )
        try:
            client.connect()
        except BaseException:
            client.close()
            raise
        return cls(client, owns_client=True, null_as_omitted=null_as_omitted)

    @property
    def client(self) -> Client:
        """The underlying Client."""
        return self._client

    def close(self) -> None:
        """If this registry created its client: close it, and the per-loop
        async clients of loops that still run. Forks share the clients and
        never close them."""
        if not self._owns_client:
            return
        self._client.close()
        self._async.close()

    async def aclose(self) -> None:
        """If this registry created its client: close the running loop's
        async client now (the next ``call_tool_async`` on this loop opens a
        new one). Needed only before closing a loop by hand; ``asyncio.run``
        closes it by itself."""
        if self._owns_client:
            await self._async.aclose()

    def __enter__(self) -> ToolRegistry:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def fork(self) -> ToolRegistry:
        """Return a per-session registry sharing the client and a copy of the
        cached tool list; refreshing one does not affect the other."""
        child = ToolRegistry(self._client, null_as_omitted=self._null_as_omitted)
        with self._lock:
            child._tools = dict(self._tools) if self._tools is not None else None
            child._async = self._async
        return child

    def refresh(self) -> None:
        """Fetch the tool list from the sidecar again."""
        listed = self._client.list_tools()
        tools: dict[str, ToolDef] = {}
        for t in listed:
            if "name" not in t:
                continue
            schema = t.get("inputSchema")
            tools[str(t["name"])] = ToolDef(
                name=str(t["name"]),
                description=str(t.get("description", "")),
                input_schema=schema if isinstance(schema, dict) else {},
            )
        with self._lock:
            self._tools = tools

    def _all(self) -> dict[str, ToolDef]:
        tools = self._tools
        if tools is None:
            self.refresh()
            tools = self._tools
            assert tools is not None
        return tools

    def get_tool(self, tool_name: str) -> ToolDef | None:
        """Return the tool named tool_name, or None."""
        return self._all().get(tool_name)

    def get_all_tools(self) -> list[ToolDef]:
        """Return every tool, in the sidecar's registration order."""
        return list(self._all().values())

    def get_tool_names(self) -> list[str]:
        """Return every tool name, in registration order."""
        return list(self._all().keys())

    def get_openai_schemas(
        self,
        mode: OpenAISchemaMode = "responses",
        tool_scope: Sequence[str] | None = None,
        *,
        strict: bool = False,
    ) -> list[dict[str, Any]]:
        """Return OpenAI tool schemas, restricted to tool_scope when given;
        with strict, in OpenAI strict mode (every property required, the
        optional ones nullable, ``"strict": true``), the same as Go's
        ``registry.OpenAISchemas(mode, scope, registry.Strict())``."""
        tools = self._all()
        if tool_scope is None:
            selected = list(tools.values())
        else:
            scope = set(tool_scope)
            selected = [t for name, t in tools.items() if name in scope]
        return [t.to_openai_schema(mode=mode, strict=strict) for t in selected]

    def call_tool(
        self,
        tool_name: str,
        arguments: Mapping[str, Any] | None,
        tool_scope: Sequence[str] | None = None,
    ) -> str:
        """Run the tool in the sidecar and return its exact payload text."""
        result = self._client.call_tool(
            tool_name, arguments, tool_scope=tool_scope, null_as_omitted=self._null_as_omitted
        )
        if result.is_error:
            _raise_for_code(result.text)
        return result.text

    async def call_tool_async(
        self,
        tool_name: str,
        arguments: Mapping[str, Any] | None,
        tool_scope: Sequence[str] | None = None,
    ) -> str:
        """call_tool for asyncio callers, on any event loop."""
        aclient = await self._async.get()
        result = await aclient.call_tool(
            tool_name, arguments, tool_scope=tool_scope, null_as_omitted=self._null_as_omitted
        )
        if result.is_error:
            _raise_for_code(result.text)
        return result.text

    @staticmethod
    def is_error_result(result: Any) -> bool:
        """Whether result is an error payload (excelmanus's check: the
        ``{"status": "error"`` prefix, then a JSON parse)."""
        return is_error_result(result)
