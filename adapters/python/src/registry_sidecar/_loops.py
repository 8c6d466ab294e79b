"""One AsyncClient per event loop, closed when its loop shuts down.

An asyncio connection belongs to the loop that opened it, so
``ToolRegistry.call_tool_async`` keeps one AsyncClient per loop. A loop
does not tell anyone it is closing, but every well-behaved runner
(``asyncio.run``, ``asyncio.Runner``, pytest-asyncio) awaits
``loop.shutdown_asyncgens()`` first, which closes every async generator the
loop has seen while the loop still runs. Each client therefore comes with a
small watcher generator, first iterated on its loop and kept alive here:
when the loop shuts down, the watcher's ``finally`` closes the client on that
loop, so nothing is left for the garbage collector to warn about.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import AsyncGenerator, Callable

from .client import AsyncClient


class _Entry:
    """A loop's client and the watcher that closes it with the loop."""

    __slots__ = ("client", "watcher")

    def __init__(self, client: AsyncClient) -> None:
        self.client = client
        self.watcher: AsyncGenerator[None, None] | None = None


class LoopClients:
    """The AsyncClients of one registry (and its forks), one per event loop.

    A loop closed without ``shutdown_asyncgens`` (a hand-made loop ended by
    ``loop.close()`` alone) cannot close its client any more: await
    :meth:`aclose` on it before closing it.
    """

    def __init__(self, factory: Callable[[], AsyncClient]) -> None:
        self._factory = factory
        self._lock = threading.Lock()
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Entry] = weakref.WeakKeyDictionary()

    async def get(self) -> AsyncClient:
        """Return the running loop's client, creating it on first use."""
        loop = asyncio.get_running_loop()
        with self._lock:
            entry = self._clients.get(loop)
            if entry is not None:
                return entry.client
            entry = _Entry(self._factory())
            self._clients[loop] = entry
        watcher = self._close_with_loop(entry)
        entry.watcher = watcher
        # The first iteration registers the generator with this loop's
        # shutdown_asyncgens; it runs to the yield without suspending.
        await anext(watcher)
        return entry.client

    async def _close_with_loop(self, entry: _Entry) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            with self._lock:
                for loop, e in list(self._clients.items()):
                    if e is entry:
                        del self._clients[loop]
            await entry.client.close()

    async def aclose(self) -> None:
        """Close the running loop's client, if it has one; the next call on
        this loop opens a new one."""
        with self._lock:
            entry = self._clients.pop(asyncio.get_running_loop(), None)
        if entry is not None and entry.watcher is not None:
            await entry.watcher.aclose()

    def close(self) -> None:
        """Close every client whose loop still runs (on that loop, without
        waiting) and forget them all. A loop that is not running closes its
        client when it next runs or shuts down; a closed one cannot."""
        with self._lock:
            entries = list(self._clients.items())
            self._clients.clear()
        for loop, entry in entries:
            if entry.watcher is not None and loop.is_running():
                asyncio.run_coroutine_threadsafe(entry.watcher.aclose(), loop)
