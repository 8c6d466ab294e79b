"""The one recovery implementation (ClientCore._recovery_plan), driven by both
shells: blocking (Client) and awaiting (AsyncClient) give the same steps and
the same outcome for every situation."""

from __future__ import annotations

import asyncio
import pathlib
from typing import Any

import pytest

from registry_sidecar import errors
from registry_sidecar._recovery import ClientCore, Step, drive, drive_async


class FakeSidecar:
    """Stands in for Sidecar: alive or not, exits when asked, relaunches."""

    def __init__(self, alive: bool, exits: bool, relaunch_ok: bool = True) -> None:
        self.alive = alive
        self.exits = exits
        self.relaunch_ok = relaunch_ok
        self.returncode = -9
        self.url = "ws://127.0.0.1:1/ws"
        self.log: list[str] = []

    def relaunch_if_dead(self) -> None:
        self.log.append("relaunch")
        if not self.relaunch_ok:
            raise errors.LaunchError("binary vanished")
        self.alive = True

    def exited(self, timeout: float) -> bool:
        self.log.append("exited?")
        return self.exits


# (recovery, sidecar state, opens that fail, want steps, want result)
CASES: list[Any] = [
    ("reconnect", None, 0, ["open"], None),
    ("reconnect", None, 1, ["open"], "cannot connect"),
    ("reconnect", (True, False), 1, ["open", "exited?"], "cannot connect"),
    ("reconnect", (True, True), 1, ["open", "exited?"], "the sidecar exited with status -9"),
    ("relaunch", (False, True), 0, ["relaunch", "open"], None),
    ("relaunch", (True, True), 1, ["open", "exited?", "relaunch", "open"], None),
    ("relaunch", (True, True), 2, ["open", "exited?", "relaunch", "open"],
     "relaunching the sidecar failed: cannot connect"),
    ("relaunch", (True, False), 1, ["open", "exited?"], "cannot connect"),
]


def run(case: Any, how: str, relaunch_ok: bool = True) -> tuple[list[str], str | None]:
    recovery, state, failures, _, _ = case
    sidecar = None if state is None else FakeSidecar(*state, relaunch_ok=relaunch_ok)
    core = ClientCore("ws://127.0.0.1:1/ws", recovery=recovery, sidecar=sidecar)  # type: ignore[arg-type]
    steps: list[str] = sidecar.log if sidecar is not None else []
    left = [failures]

    def open_() -> None:
        steps.append("open")
        if left[0] > 0:
            left[0] -= 1
            raise errors.SidecarConnectionError("cannot connect")

    async def open_async() -> None:
        open_()

    plan = core._recovery_plan()
    if how == "sync":
        result = drive(plan, open_, sidecar)  # type: ignore[arg-type]
    else:
        result = asyncio.run(drive_async(plan, open_async, sidecar))  # type: ignore[arg-type]
    return steps, result


@pytest.mark.parametrize("how", ["sync", "async"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_plan(case: Any, how: str) -> None:
    steps, result = run(case, how)
    assert steps == case[3]
    assert result == case[4]


@pytest.mark.parametrize("how", ["sync", "async"])
def test_failed_relaunch_is_reported(how: str) -> None:
    steps, result = run(("relaunch", (False, True), 0, None, None), how, relaunch_ok=False)
    assert steps == ["relaunch"]
    assert result == "relaunching the sidecar failed: binary vanished"


def test_the_plan_yields_only_steps() -> None:
    plan = ClientCore("ws://x/ws")._recovery_plan()
    assert next(plan) is Step.OPEN


def test_clients_hold_no_recovery_logic_of_their_own() -> None:
    """Both shells hand recovery to the plan; neither relaunches or waits for
    the sidecar's exit itself (the copied logic this replaced)."""
    src = pathlib.Path(errors.__file__).parent
    for shell in ("client.py", "sync_client.py"):
        text = (src / shell).read_text(encoding="utf-8")
        assert "_recovery_plan()" in text, shell
        for word in ("relaunch_if_dead", ".exited(", "relaunch_failed"):
            assert word not in text, f"{shell} performs recovery itself: {word}"
