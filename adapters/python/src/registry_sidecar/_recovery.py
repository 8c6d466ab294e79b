"""The recovery implementation shared by both clients.

:class:`ClientCore` holds what AsyncClient and Client have in common: their
settings (:class:`~registry_sidecar._settings.Settings`), the request ids, the state the recovery decisions read (closed,
ever connected, why the connection was lost) and the recovery itself,
written once as a sans-I/O plan (:meth:`ClientCore._recovery_plan`): a
generator that yields the steps to perform (open a connection, relaunch the
sidecar, wait for its exit status) and receives their outcomes. Each client
is a thin shell that performs the steps its own way, blocking
(:func:`drive`) or awaiting (:func:`drive_async`), as websockets' sans-I/O
protocol serves both of its connection classes.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
from collections.abc import Awaitable, Callable, Generator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from ._rpc import encode_call, encode_request
from ._settings import Recovery, Settings
from .errors import SidecarConnectionError, SidecarError

if TYPE_CHECKING:
    from .sidecar import Sidecar

#: Seconds to wait for the closing handshake before dropping the socket.
CLOSE_TIMEOUT: Final = 2.0
#: Seconds a failed reconnect waits for the sidecar's exit status, to tell a
#: dead sidecar (relaunch it, or say so) from an unreachable one.
EXIT_WAIT: Final = 1.0


def refused(recovery: Recovery, ever_connected: bool, lost: str | None, sidecar: Sidecar | None) -> str | None:
    """Return why a disconnected client must not try to connect now, or None.
    The first connection is always attempted."""
    if not ever_connected:
        return None
    if recovery == "none":
        return f"{lost or 'not connected'}; automatic reconnection is disabled"
    if recovery == "reconnect" and sidecar is not None and not sidecar.alive:
        return f"the sidecar exited with status {sidecar.returncode}"
    return None


def relaunch_failed(exc: BaseException) -> str:
    """The reason a call reports when relaunching the sidecar failed."""
    return f"relaunching the sidecar failed: {exc}"


class Step(enum.Enum):
    """A step of the recovery plan, performed by the client's shell."""

    #: Open a connection and run MCP initialize; may raise SidecarConnectionError.
    OPEN = "open"
    #: Relaunch the sidecar if it is dead (blocking); may raise SidecarError.
    RELAUNCH = "relaunch"
    #: Wait up to EXIT_WAIT seconds for the sidecar's exit; answers a bool (blocking).
    EXITED = "exited"


#: The recovery plan: yields steps, is sent each step's answer (None, or the
#: bool of EXITED) or thrown its SidecarError, returns None once connected or
#: the reason the call reports as TOOL_UNAVAILABLE.
RecoveryPlan = Generator[Step, object, "str | None"]


def drive(plan: RecoveryPlan, open_: Callable[[], None], sidecar: Sidecar | None) -> str | None:
    """Run plan, performing each step by blocking calls; return its result."""
    answer: object = None
    error: SidecarError | None = None
    while True:
        try:
            step = plan.send(answer) if error is None else plan.throw(error)
        except StopIteration as done:
            result: str | None = done.value
            return result
        answer, error = None, None
        try:
            if step is Step.OPEN:
                open_()
            else:
                answer = _blocking_step(step, sidecar)
        except SidecarError as exc:
            error = exc


async def drive_async(plan: RecoveryPlan, open_: Callable[[], Awaitable[None]], sidecar: Sidecar | None) -> str | None:
    """Run plan on the event loop: OPEN is awaited, the blocking steps run in
    a worker thread; return its result."""
    answer: object = None
    error: SidecarError | None = None
    while True:
        try:
            step = plan.send(answer) if error is None else plan.throw(error)
        except StopIteration as done:
            result: str | None = done.value
            return result
        answer, error = None, None
        try:
            if step is Step.OPEN:
                await open_()
            else:
                answer = await asyncio.to_thread(_blocking_step, step, sidecar)
        except SidecarError as exc:
            error = exc


def _blocking_step(step: Step, sidecar: Sidecar | None) -> bool | None:
    assert sidecar is not None  # the plan asks for these steps only with a sidecar
    if step is Step.RELAUNCH:
        sidecar.relaunch_if_dead()
        return None
    return sidecar.exited(EXIT_WAIT)


class ClientCore(Settings):
    """Settings (their keywords, defaults and checks are :class:`Settings`'),
    request building and recovery state shared by Client and AsyncClient;
    the subclasses add the I/O."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.server_info: dict[str, Any] = {}
        self._ids = itertools.count(1)
        self._closed = False
        self._ever_connected = False
        self._lost: str | None = None

    # -- request building ---------------------------------------------------

    def _request_frame(self, method: str, params: Mapping[str, Any]) -> tuple[int, bytes]:
        """Return a new request id and the encoded request."""
        rid = next(self._ids)
        return rid, encode_request(rid, method, params)

    def _call_frame(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        tool_scope: Sequence[str] | None,
        timeout: float | None,
        progress: bool,
        null_as_omitted: bool = False,
    ) -> tuple[int, bytes, float | None]:
        """Return a new request id, the encoded tools/call and the call's
        timeout (the client's call_timeout when timeout is None)."""
        if timeout is None:
            timeout = self.call_timeout
        rid = next(self._ids)
        frame = encode_call(
            rid,
            name,
            arguments,
            tool_scope=tool_scope,
            timeout=timeout,
            progress=progress,
            null_as_omitted=null_as_omitted,
        )
        return rid, frame, timeout

    # -- recovery decisions -------------------------------------------------

    def _dial_url(self) -> str:
        """Return the URL to connect to: the sidecar's current one (it
        changes when the sidecar is relaunched), else the configured one."""
        if self.sidecar is not None and self.sidecar.url:
            self.url = self.sidecar.url
        return self.url

    def _why_not_connect(self) -> str | None:
        """Return why a disconnected client must not (re)connect now, or None."""
        if self._closed:
            return "the client is closed"
        return refused(self.recovery, self._ever_connected, self._lost, self.sidecar)

    def _relaunch_first(self) -> bool:
        """Whether the sidecar is known dead and recovery relaunches it
        before connecting."""
        return self.recovery == "relaunch" and self.sidecar is not None and not self.sidecar.alive

    def _recovery_plan(self) -> RecoveryPlan:
        """The one recovery implementation of both clients, for a client
        that has no open connection and may (re)connect (see
        :meth:`_why_not_connect`): relaunch a sidecar known dead first when
        recovery is "relaunch"; connect; when that fails and the sidecar
        turns out to have exited, relaunch it and connect once more
        ("relaunch"), or report its exit status. Returns None once connected,
        else the reason."""
        sidecar = self.sidecar
        if self._relaunch_first():
            try:
                yield Step.RELAUNCH
            except SidecarError as exc:
                return relaunch_failed(exc)
        try:
            yield Step.OPEN
            return None
        except SidecarConnectionError as exc:
            error = str(exc)
        if sidecar is None or not (yield Step.EXITED):
            return error
        if self.recovery != "relaunch":
            return f"the sidecar exited with status {sidecar.returncode}"
        try:
            yield Step.RELAUNCH
            yield Step.OPEN
        except SidecarError as exc:
            return relaunch_failed(exc)
        return None

    def _opened(self, server_info: dict[str, Any]) -> None:
        """Record a successful connect and initialize."""
        self.server_info = server_info
        self._lost = None
        self._ever_connected = True
