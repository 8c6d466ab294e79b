"""Fallback routing: the primary tool service first, then where a tool asks.

Rules:

1. The primary service (the sidecar's ``ToolRegistry``) answers first. A
   result without a fallback signal is returned unchanged; a legacy service's
   non-dict, non-None value (a number, a list) is returned as is by
   ``call_tool`` (``RoutedResult.value``; its ``text`` is its JSON).
   An exception the primary raises is logged as a warning with the tool's
   name and the call goes on to the router (decision ``primary_exception``,
   signal the exception's class name); with no router configured the
   exception propagates. ``ToolNotAllowedError`` always propagates: a call
   outside the caller's tool scope is refused, never routed around.
2. ``fallback_to == "CHAT_SERVICE"`` goes to the caller's legacy handler for
   that tool, never to the router. A legacy map without the tool gives
   ``FALLBACK_NOT_IMPLEMENTED``.
3. ``fallback_to == "TOOL_ROUTER"`` goes to the router. A tool the primary
   lacks (``ToolNotFoundError`` or a ``TOOL_NOT_FOUND`` payload) becomes the
   fallback ``{"use_fallback": true, "fallback_to": "TOOL_ROUTER", "error":
   "HANDLER_NOT_FOUND"}`` and goes there too; with no router configured the
   primary's own not-found outcome stands (raised or returned as it was).
4. No destination (``fallback_to`` absent, empty or unknown, or ``TOOL_ROUTER``
   without a router) gives ``FALLBACK_DESTINATION_MISSING``.
5. A destination that itself asks for a fallback gives ``FALLBACK_LOOP``: a
   call is routed at most once, never in a loop.

A destination's answer is normalized like the primary's: a string or a
non-dict value comes back as is, a dict as its JSON text.

Routing errors are returned as execution-family error payloads
(``{"status": "error", "error_code": "FALLBACK_LOOP", "tool": ..., "exception":
"ToolError", "message": ...}``); the executor treats them as critical. Every
decision logs one line on the injected ``logging.Logger`` with the fields
``tool``, ``route``, ``decision`` and ``signal`` (a hop's fallback ``error``:
``FALLBACK_REQUIRED``, or ``HANDLER_NOT_FOUND`` for a tool the primary lacks;
else None) in ``extra`` (argument values are never logged).
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..payloads import CHAT_SERVICE as CHAT_SERVICE
from ..payloads import CODE_NOT_ALLOWED, CODE_NOT_FOUND, error_payload
from ..payloads import TOOL_ROUTER as TOOL_ROUTER
from .classify import exception_code
from .errors import FALLBACK_DESTINATION_MISSING, FALLBACK_LOOP, FALLBACK_NOT_IMPLEMENTED
from .protocols import LegacyHandler, ToolRouterService, ToolService, resolve, resolve_sync
from .results import HANDLER_NOT_FOUND, fallback_result, normalize_tool_result, result_text


class Route(str, enum.Enum):
    """Route is where a routed call's answer came from."""

    PRIMARY = "PRIMARY"
    CHAT_SERVICE = CHAT_SERVICE
    TOOL_ROUTER = TOOL_ROUTER
    ERROR = "ERROR"


@dataclass(frozen=True)
class RoutedResult:
    """RoutedResult is a routed call's answer: text is what the model sees
    (the primary's payload byte-for-byte, a string as is, any other value as
    its JSON, or a routing-error payload); result is its normalized dict;
    route where it came from; error_code the routing error, if any; value
    the answer exactly as the service that gave it returned it (None for a
    routing error)."""

    text: str
    result: dict[str, Any]
    route: Route
    error_code: str | None = None
    value: object = None

    @property
    def answer(self) -> object:
        """What ``call_tool`` returns: a legacy non-dict, non-None value
        (a number, a list, a bool) as is; otherwise the text."""
        value = self.value
        if value is None or isinstance(value, (str, Mapping)):
            return self.text
        return value


@dataclass(frozen=True)
class _Hop:
    """A pending fallback hop: where to, and why."""

    route: Route
    reason: str


class FallbackRouter:
    """FallbackRouter routes tool calls: primary service first, then the
    destination a fallback request names (module docs list the rules).

    It is itself a :class:`~registry_sidecar.agent.protocols.ToolService`
    (``call_tool`` and ``call_tool_async`` return the text), so an
    :class:`~registry_sidecar.agent.executor.AgentExecutor` can use it as its
    registry.

    >>> from registry_sidecar.agent.testing import InProcessToolRegistry
    >>> primary = InProcessToolRegistry()
    >>> primary.register("send", lambda a: {"use_fallback": True, "fallback_to": "CHAT_SERVICE"})
    >>> fr = FallbackRouter(primary, legacy_handlers={"send": lambda a: "sent by legacy"})
    >>> fr.call_tool("send", {"to": "ana"})
    'sent by legacy'
    >>> FallbackRouter(primary).execute("send", {}).error_code
    'FALLBACK_NOT_IMPLEMENTED'
    >>> FallbackRouter(primary, legacy_handlers={"send": lambda a: [1, 2]}).call_tool("send", {})
    [1, 2]
    """

    def __init__(
        self,
        primary: ToolService,
        *,
        legacy_handlers: Mapping[str, LegacyHandler] | None = None,
        router: ToolRouterService | None = None,
        logger: logging.Logger | None = None,
    ) -> None:
        self._primary = primary
        self._legacy: dict[str, LegacyHandler] = dict(legacy_handlers or {})
        self._router = router
        self._log = logger or logging.getLogger(__name__)

    def call_tool(
        self, name: str, arguments: dict[str, Any], tool_scope: list[str] | None = None
    ) -> object:
        """Route one call synchronously and return its answer: the text the
        model sees, or a legacy non-dict, non-None value as is
        (:attr:`RoutedResult.answer`)."""
        return self.execute(name, arguments, tool_scope).answer

    async def call_tool_async(
        self, name: str, arguments: dict[str, Any], tool_scope: list[str] | None = None
    ) -> object:
        """Route one call and return its answer (see :meth:`call_tool`)."""
        return (await self.execute_async(name, arguments, tool_scope)).answer

    async def execute_async(
        self, name: str, arguments: dict[str, Any], tool_scope: list[str] | None = None
    ) -> RoutedResult:
        """Route one call and return the full RoutedResult."""
        try:
            raw = await self._primary_async(name, arguments, tool_scope)
        except Exception as exc:
            step = self._after_primary_error(name, exc)
            if step is None:
                raise
        else:
            step = self._after_primary(name, raw)
        if isinstance(step, RoutedResult):
            return step
        answer = await resolve(self._destination(step, name)(arguments))
        return self._after_destination(name, step, answer)

    def execute(
        self, name: str, arguments: dict[str, Any], tool_scope: list[str] | None = None
    ) -> RoutedResult:
        """Route one call synchronously and return the full RoutedResult."""
        try:
            raw = self._primary.call_tool(name, arguments, tool_scope)
        except Exception as exc:
            step = self._after_primary_error(name, exc)
            if step is None:
                raise
        else:
            step = self._after_primary(name, raw)
        if isinstance(step, RoutedResult):
            return step
        answer = resolve_sync(self._destination(step, name)(arguments))
        return self._after_destination(name, step, answer)

    async def _primary_async(
        self, name: str, arguments: dict[str, Any], tool_scope: list[str] | None
    ) -> object:
        call_async = getattr(self._primary, "call_tool_async", None)
        if call_async is not None:
            return await resolve(call_async(name, arguments, tool_scope))
        return await asyncio.to_thread(self._primary.call_tool, name, arguments, tool_scope)

    def _after_primary_error(self, name: str, exc: Exception) -> RoutedResult | _Hop | None:
        """Decide what follows an exception the primary raised: the next step,
        or None when the exception stands (the caller re-raises it).

        A not-found becomes the ``HANDLER_NOT_FOUND`` fallback to the router;
        a not-allowed always stands (the scope is the caller's, no router may
        widen it); any other exception is logged as a warning and routed on
        to the router. Without a router both stand, logged."""
        code = exception_code(exc)
        if code == CODE_NOT_ALLOWED:
            return None
        if code == CODE_NOT_FOUND:
            if self._router is None:
                self._no_router(name)
                return None
            return self._after_primary(name, self._not_found(name))
        kind = type(exc).__name__
        if self._router is None:
            self._decide(logging.WARNING, name, Route.PRIMARY, "primary_exception_no_router",
                         "tool %r: primary service raised %s and no router is configured; "
                         "the exception propagates", name, kind, signal=kind)
            return None
        self._decide(logging.WARNING, name, Route.TOOL_ROUTER, "primary_exception",
                     "tool %r: primary service raised %s; routing to TOOL_ROUTER", name, kind,
                     signal=kind)
        return _Hop(Route.TOOL_ROUTER, kind)

    def _not_found(self, name: str) -> dict[str, Any]:
        return fallback_result(name, TOOL_ROUTER, "tool not found in the primary service",
                               error=HANDLER_NOT_FOUND)

    def _no_router(self, name: str) -> None:
        self._decide(logging.INFO, name, Route.PRIMARY, "not_found_no_router",
                     "tool %r: primary service has no handler and no router is configured; "
                     "the not-found result stands", name)

    def _after_primary(self, name: str, raw: object) -> RoutedResult | _Hop:
        result = normalize_tool_result(name, raw)
        if result["kind"] != "fallback" and result.get("error_code") == CODE_NOT_FOUND:
            if self._router is None:
                self._no_router(name)
                return RoutedResult(result_text(name, raw), result, Route.PRIMARY, value=raw)
            result = self._not_found(name)
        if result["kind"] != "fallback":
            self._decide(logging.DEBUG, name, Route.PRIMARY, "primary",
                         "tool %r: answered by the primary service (%s)", name, result["kind"])
            return RoutedResult(result_text(name, raw), result, Route.PRIMARY, value=raw)
        dest = result.get("fallback_to")
        reason = result.get("reason") or result.get("error") or ""
        if dest == CHAT_SERVICE:
            if name not in self._legacy:
                return self._fail(name, FALLBACK_NOT_IMPLEMENTED,
                                  f"Tool '{name}' asked for a CHAT_SERVICE fallback, "
                                  "but no legacy handler implements it.")
            self._decide(logging.INFO, name, Route.CHAT_SERVICE, "fallback",
                         "tool %r: fallback to CHAT_SERVICE legacy handler (%s, reason %s)",
                         name, result["error"], reason, signal=result["error"])
            return _Hop(Route.CHAT_SERVICE, str(reason))
        if dest == TOOL_ROUTER and self._router is not None:
            self._decide(logging.INFO, name, Route.TOOL_ROUTER, "fallback",
                         "tool %r: fallback to TOOL_ROUTER (%s, reason %s)", name,
                         result["error"], reason, signal=result["error"])
            return _Hop(Route.TOOL_ROUTER, str(reason))
        if dest == TOOL_ROUTER:
            why = "no router is configured"
        elif dest is None or dest == "":
            why = "it named no destination"
        else:
            why = f"its destination {dest!r} is unknown"
        return self._fail(name, FALLBACK_DESTINATION_MISSING,
                          f"Tool '{name}' asked for a fallback, but {why}.")

    def _destination(self, hop: _Hop, name: str) -> LegacyHandler:
        if hop.route is Route.CHAT_SERVICE:
            return self._legacy[name]
        router = self._router
        assert router is not None  # _after_primary only hops to a configured router
        return lambda arguments: router.route(name, arguments)

    def _after_destination(self, name: str, hop: _Hop, raw: object) -> RoutedResult:
        result = normalize_tool_result(name, raw)
        if result["kind"] == "fallback":
            return self._fail(name, FALLBACK_LOOP,
                              f"Tool '{name}' asked for a second fallback from "
                              f"{hop.route.value}; a call is routed once.")
        return RoutedResult(result_text(name, raw), result, hop.route, value=raw)

    def _fail(self, name: str, code: str, message: str) -> RoutedResult:
        self._decide(logging.WARNING, name, Route.ERROR, code, "tool %r: %s: %s",
                     name, code, message)
        text = error_payload(code, name, "ToolError", message)
        return RoutedResult(text, normalize_tool_result(name, text), Route.ERROR, code)

    def _decide(self, level: int, name: str, route: Route, decision: str, msg: str,
                *args: object, signal: object = None) -> None:
        self._log.log(level, "routing: " + msg, *args,
                      extra={"tool": name, "route": route.value, "decision": decision,
                             "signal": signal})

