"""FallbackRouter: primary first, CHAT_SERVICE to legacy handlers, TOOL_ROUTER to
the router, the three routing errors, one log line per decision. In-process;
the sidecar-backed variant is in test_agent_sidecar.py."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

import pytest

from registry_sidecar import ToolNotFoundError
from registry_sidecar.agent import (
    FALLBACK_DESTINATION_MISSING,
    FALLBACK_LOOP,
    FALLBACK_NOT_IMPLEMENTED,
    FALLBACK_REQUIRED,
    HANDLER_NOT_FOUND,
    FallbackRouter,
    Route,
    RoutedResult,
)
from registry_sidecar.agent.testing import InProcessToolRegistry

LOGGER = "test.agent.routing"
SECRET = "s3cret-argument-value"


class RecordingRouter:
    """A router that answers every tool and records what it was asked."""

    def __init__(self, answer: object = None) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.answer = answer

    def route(self, name: str, arguments: dict[str, Any]) -> object:
        self.calls.append((name, arguments))
        if self.answer is not None:
            return self.answer
        return {"ok": True, "text": f"router ran {name}"}


class AsyncRecordingRouter(RecordingRouter):
    async def route(self, name: str, arguments: dict[str, Any]) -> object:
        await asyncio.sleep(0)
        return super().route(name, arguments)


def fallback_to(dest: object, reason: str = "PREVIEW_MODE") -> Callable[[dict[str, Any]], object]:
    payload: dict[str, Any] = {"status": "fallback", "error": "FALLBACK_REQUIRED", "use_fallback": True}
    if dest is not None:
        payload["fallback_to"] = dest
    payload["reason"] = reason
    return lambda args: payload


def primary() -> InProcessToolRegistry:
    reg = InProcessToolRegistry()
    reg.register("plain", lambda a: {"status": "success", "value": a.get("v")})
    reg.register("preview", fallback_to("CHAT_SERVICE"))
    reg.register("routed", fallback_to("TOOL_ROUTER", "NOT_HERE"))
    reg.register("nowhere", fallback_to(None))
    reg.register("mars", fallback_to("MARS"))
    reg.register("loopy", fallback_to("CHAT_SERVICE"))
    reg.register("unlisted", fallback_to("CHAT_SERVICE"))
    return reg


class Legacy:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def handlers(self) -> dict[str, Callable[[dict[str, Any]], object]]:
        def preview(args: dict[str, Any]) -> object:
            self.calls.append(("preview", args))
            return {"sucesso": True, "resposta": "legacy preview"}

        def loopy(args: dict[str, Any]) -> object:
            self.calls.append(("loopy", args))
            return {"use_fallback": True, "fallback_to": "TOOL_ROUTER"}

        return {"preview": preview, "loopy": loopy}


Driver = Callable[[FallbackRouter, str, dict[str, Any]], RoutedResult]


def run_sync(r: FallbackRouter, name: str, args: dict[str, Any]) -> RoutedResult:
    return r.execute(name, args)


def run_async(r: FallbackRouter, name: str, args: dict[str, Any]) -> RoutedResult:
    return asyncio.run(r.execute_async(name, args))


DRIVERS = [pytest.param(run_sync, id="sync"), pytest.param(run_async, id="async")]


def decisions(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, str]]:
    return [(r.tool, r.route, r.decision) for r in caplog.records  # type: ignore[attr-defined]
            if r.name == LOGGER]


def signals(caplog: pytest.LogCaptureFixture) -> list[object]:
    return [r.signal for r in caplog.records if r.name == LOGGER]  # type: ignore[attr-defined]


def make(router: RecordingRouter | None = None, legacy: Legacy | None = None,
         reg: InProcessToolRegistry | None = None) -> FallbackRouter:
    return FallbackRouter(reg or primary(), legacy_handlers=(legacy or Legacy()).handlers(),
                          router=router, logger=logging.getLogger(LOGGER))


# (tool, want route, want error_code, legacy calls, router calls, want decision, want signal)
ROUTES = [
    ("plain", Route.PRIMARY, None, 0, 0, ("plain", "PRIMARY", "primary"), None),
    ("preview", Route.CHAT_SERVICE, None, 1, 0, ("preview", "CHAT_SERVICE", "fallback"),
     FALLBACK_REQUIRED),
    ("routed", Route.TOOL_ROUTER, None, 0, 1, ("routed", "TOOL_ROUTER", "fallback"),
     FALLBACK_REQUIRED),
    ("absent", Route.TOOL_ROUTER, None, 0, 1, ("absent", "TOOL_ROUTER", "fallback"),
     HANDLER_NOT_FOUND),
    ("nowhere", Route.ERROR, FALLBACK_DESTINATION_MISSING, 0, 0,
     ("nowhere", "ERROR", FALLBACK_DESTINATION_MISSING), None),
    ("mars", Route.ERROR, FALLBACK_DESTINATION_MISSING, 0, 0,
     ("mars", "ERROR", FALLBACK_DESTINATION_MISSING), None),
    ("unlisted", Route.ERROR, FALLBACK_NOT_IMPLEMENTED, 0, 0,
     ("unlisted", "ERROR", FALLBACK_NOT_IMPLEMENTED), None),
]


@pytest.mark.parametrize("drive", DRIVERS)
@pytest.mark.parametrize(("tool", "route", "code", "n_legacy", "n_router", "decision", "signal"),
                         ROUTES, ids=[r[0] for r in ROUTES])
def test_routes(drive: Driver, tool: str, route: Route, code: str | None, n_legacy: int,
                n_router: int, decision: tuple[str, str, str], signal: str | None,
                caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    router, legacy = RecordingRouter(), Legacy()
    args = {"v": SECRET}
    got = drive(make(router, legacy), tool, args)
    assert got.route is route
    assert got.error_code == code
    assert len(legacy.calls) == n_legacy
    assert len(router.calls) == n_router
    for _, seen in legacy.calls + router.calls:
        assert seen == args
    assert decisions(caplog) == [decision], "exactly one log line per decision"
    assert signals(caplog) == [signal], "a hop logs the fallback signal it followed"
    assert all(SECRET not in r.getMessage() for r in caplog.records), "argument values logged"
    if code is not None:
        payload = json.loads(got.text)
        assert list(payload) == ["status", "error_code", "tool", "exception", "message"]
        assert payload["status"] == "error" and payload["error_code"] == code
        assert got.result["kind"] == "error"
    else:
        assert got.result["kind"] == "success"


@pytest.mark.parametrize("drive", DRIVERS)
def test_primary_text_is_returned_byte_for_byte(drive: Driver) -> None:
    reg = InProcessToolRegistry()
    text = '{"status": "success", "note": "ação", "n": 1.0}'
    reg.register("t", lambda a: text)
    assert drive(make(reg=reg), "t", {}).text == text


@pytest.mark.parametrize("drive", DRIVERS)
def test_chat_service_never_goes_to_the_router(drive: Driver) -> None:
    """Even when the router could run the tool, CHAT_SERVICE means the legacy handler."""
    router = RecordingRouter()
    got = drive(make(router), "preview", {})
    assert got.route is Route.CHAT_SERVICE
    assert got.result["text"] == "legacy preview"
    assert router.calls == []


@pytest.mark.parametrize("drive", DRIVERS)
def test_tool_router_without_router_is_destination_missing(drive: Driver) -> None:
    got = drive(make(router=None), "routed", {})
    assert got.error_code == FALLBACK_DESTINATION_MISSING


@pytest.mark.parametrize("drive", DRIVERS)
def test_missing_tool_without_router_stands(drive: Driver, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    with pytest.raises(ToolNotFoundError, match="Tool 'absent' not found."):
        drive(make(router=None), "absent", {})
    assert decisions(caplog) == [("absent", "PRIMARY", "not_found_no_router")]


@pytest.mark.parametrize("drive", DRIVERS)
def test_not_found_payload_goes_to_router(drive: Driver) -> None:
    """A primary that returns the TOOL_NOT_FOUND payload (instead of raising)
    is routed the same way, as HANDLER_NOT_FOUND."""

    class PayloadPrimary:
        def call_tool(self, name: str, arguments: dict[str, Any],
                      tool_scope: list[str] | None = None) -> str:
            return json.dumps({"status": "error", "error_code": "TOOL_NOT_FOUND", "tool": name,
                               "exception": "ToolNotFoundError",
                               "message": f"Tool '{name}' not found."})

    router = RecordingRouter()
    got = drive(FallbackRouter(PayloadPrimary(), router=router), "x", {"a": 1})
    assert got.route is Route.TOOL_ROUTER
    assert router.calls == [("x", {"a": 1})]
    text = drive(FallbackRouter(PayloadPrimary()), "x", {}).text
    assert json.loads(text)["error_code"] == "TOOL_NOT_FOUND"


LOOPS = [
    ("legacy asks again", "loopy", RecordingRouter(), "CHAT_SERVICE"),
    ("router asks again", "routed",
     RecordingRouter({"use_fallback": True, "fallback_to": "CHAT_SERVICE"}), "TOOL_ROUTER"),
    ("router says FALLBACK_REQUIRED", "absent",
     RecordingRouter({"error": "FALLBACK_REQUIRED", "fallback_to": "TOOL_ROUTER"}), "TOOL_ROUTER"),
]


@pytest.mark.parametrize("drive", DRIVERS)
@pytest.mark.parametrize(("tool", "router", "first_hop"), [c[1:] for c in LOOPS],
                         ids=[c[0] for c in LOOPS])
def test_second_fallback_is_a_loop(drive: Driver, tool: str, router: RecordingRouter,
                                   first_hop: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    router.calls.clear()
    legacy = Legacy()
    got = drive(make(router, legacy), tool, {})
    assert got.error_code == FALLBACK_LOOP
    assert len(legacy.calls) + len(router.calls) == 1, "a call is routed exactly once"
    assert decisions(caplog) == [(tool, first_hop, "fallback"), (tool, "ERROR", FALLBACK_LOOP)]


def test_async_destinations() -> None:
    async def legacy_preview(args: dict[str, Any]) -> object:
        await asyncio.sleep(0)
        return "async legacy"

    router = AsyncRecordingRouter()
    fr = FallbackRouter(primary(), legacy_handlers={"preview": legacy_preview}, router=router)
    assert asyncio.run(fr.call_tool_async("preview", {})) == "async legacy"
    assert json.loads(asyncio.run(fr.call_tool_async("routed", {})))["text"] == "router ran routed"
    # The sync API runs an async destination to completion outside an event loop.
    assert fr.call_tool("preview", {}) == "async legacy"


def test_sync_api_refuses_async_destination_inside_a_loop() -> None:
    async def legacy_preview(args: dict[str, Any]) -> object:
        return "never"

    fr = FallbackRouter(primary(), legacy_handlers={"preview": legacy_preview})

    async def inside() -> None:
        with pytest.raises(RuntimeError, match="running event loop"):
            fr.call_tool("preview", {})

    asyncio.run(inside())
