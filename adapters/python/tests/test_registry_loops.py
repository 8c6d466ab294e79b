"""ToolRegistry.call_tool_async keeps one AsyncClient per event loop: the
client must be closed with its loop, leaving no socket to the garbage
collector (no ResourceWarning), in the common
``asyncio.run(registry.call_tool_async(...))`` pattern."""

from __future__ import annotations

import asyncio
import gc
import os
import pathlib
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable, Iterator

import pytest

import registry_sidecar
from registry_sidecar import Client, Sidecar, ToolRegistry

#: Seconds the child interpreter may take.
CHILD_TIMEOUT = 60.0


def _add(i: int) -> str:
    return f'{{"status": "success", "sum": {i + 1}}}'


@pytest.fixture
def registry(sidecar: Sidecar) -> Iterator[ToolRegistry]:
    """A registry owning its own Client of the session sidecar."""
    reg = ToolRegistry(Client(sidecar.url, token=sidecar.token), owns_client=True)
    yield reg
    reg.close()


@pytest.fixture
def unraisable(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Collects what Python reports as "Exception ignored in ..." (a warning
    raised in a __del__ under the "error" filter lands here)."""
    seen: list[str] = []

    def hook(u: sys.UnraisableHookArgs) -> None:
        seen.append(f"{u.exc_type.__name__}: {u.exc_value} ({u.object!r})")

    monkeypatch.setattr(sys, "unraisablehook", hook)
    return seen


def _collect_under_error_filter(body: Callable[[], None]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        body()
        gc.collect()


@pytest.mark.parametrize("use_fork", [False, True], ids=["registry", "fork"])
def test_asyncio_run_closes_the_loops_client(registry: ToolRegistry, unraisable: list[str], use_fork: bool) -> None:
    reg = registry.fork() if use_fork else registry

    def body() -> None:
        for i in range(3):
            assert asyncio.run(reg.call_tool_async("add", {"a": i, "b": 1})) == _add(i)
            gc.collect()
        # Whatever the registry still holds is let go of here.
        registry.close()

    _collect_under_error_filter(body)
    assert unraisable == []


def test_aclose_before_closing_a_hand_made_loop(registry: ToolRegistry, unraisable: list[str]) -> None:
    def body() -> None:
        loop = asyncio.new_event_loop()
        try:
            assert loop.run_until_complete(registry.call_tool_async("add", {"a": 1, "b": 1})) == _add(1)
            loop.run_until_complete(registry.aclose())
            # The next call on the same loop opens a new client.
            assert loop.run_until_complete(registry.call_tool_async("add", {"a": 2, "b": 1})) == _add(2)
            loop.run_until_complete(registry.aclose())
        finally:
            loop.close()

    _collect_under_error_filter(body)
    assert unraisable == []


def test_concurrent_calls_share_one_client_per_loop(registry: ToolRegistry, unraisable: list[str]) -> None:
    async def main() -> list[str]:
        return list(await asyncio.gather(*(registry.call_tool_async("add", {"a": i, "b": 1}) for i in range(16))))

    def body() -> None:
        assert asyncio.run(main()) == [_add(i) for i in range(16)]
        registry.close()

    _collect_under_error_filter(body)
    assert unraisable == []


def test_pattern_in_a_fresh_interpreter_with_resource_warnings_as_errors(sidecar: Sidecar) -> None:
    """The pattern exactly as a user runs it, in ``python -X dev -W
    error::ResourceWarning``, without closing the registry: nothing on
    stderr."""
    script = textwrap.dedent(
        """
        import asyncio, gc, os
        from registry_sidecar import Client, ToolRegistry

        client = Client(os.environ["SIDECAR_URL"], token=os.environ["SIDECAR_TOKEN"] or None)
        reg = ToolRegistry(client, owns_client=True)
        for i in range(3):
            text = asyncio.run(reg.call_tool_async("add", {"a": i, "b": 1}))
            assert text == '{"status": "success", "sum": %d}' % (i + 1), text
            gc.collect()
        del reg
        gc.collect()
        print("ok")
        """
    )
    src = str(pathlib.Path(registry_sidecar.__file__).resolve().parents[1])
    env = {
        **os.environ,
        "SIDECAR_URL": sidecar.url,
        "SIDECAR_TOKEN": sidecar.token or "",
        "PYTHONPATH": os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p),
    }
    proc = subprocess.run(
        [sys.executable, "-X", "dev", "-W", "error::ResourceWarning", "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "ok\n"
    assert proc.stderr == ""
