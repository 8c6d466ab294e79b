"""Launching and stopping the registry-sidecar process."""

from __future__ import annotations

import atexit
import collections
import functools
import logging
import os
import pathlib
import queue
import secrets
import selectors
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import IO, Final

from ._version import PROTOCOL_VERSION
from .binary import find_binary
from .errors import LaunchError

#: Seconds between SIGTERM and SIGKILL when stopping the sidecar.
STOP_GRACE_SECONDS: Final = 2.0
#: How many stderr lines a launch error quotes.
STDERR_TAIL_LINES: Final = 20
#: Seconds a launch error waits for the stderr reader to drain a dead child.
STDERR_DRAIN_SECONDS: Final = 1.0
#: Longest handshake line accepted, in bytes.
MAX_HANDSHAKE_BYTES: Final = 4096
#: The handshake line's first field.
HANDSHAKE_MAGIC: Final = "REGISTRY-SIDECAR"
#: Environment variable the binary reads its token from.
ENV_TOKEN: Final = "REGISTRY_SIDECAR_TOKEN"
#: Whether a pipe can be waited on with select(): not on Windows, where the
#: handshake is read by a thread instead (see Sidecar._read_handshake).
_PIPES_SELECTABLE: Final = os.name != "nt"
#: Process creation flags: on Windows, no console window for the sidecar
#: when the caller has none (its output goes to pipes anyway).
_CREATION_FLAGS: Final = getattr(subprocess, "CREATE_NO_WINDOW", 0)

_log = logging.getLogger(__name__)


def parse_handshake(line: str) -> str:
    """Return the WebSocket URL of a handshake line
    ``REGISTRY-SIDECAR|<version>|<url>``; raise LaunchError when the line is
    malformed or the protocol version is not the one this package speaks."""
    parts = line.rstrip("\r\n").split("|")
    if len(parts) != 3 or parts[0] != HANDSHAKE_MAGIC:
        raise LaunchError(f"unexpected handshake line from registry-sidecar: {line.strip()[:200]!r}")
    if parts[1] != str(PROTOCOL_VERSION):
        raise LaunchError(
            f"registry-sidecar speaks protocol {parts[1]!r}, this package speaks {PROTOCOL_VERSION}"
        )
    if not parts[2].startswith(("ws://", "wss://")):
        raise LaunchError(f"handshake URL is not a WebSocket URL: {parts[2]!r}")
    return parts[2]


def _token_from_args(args: Sequence[str]) -> str | None:
    """Return the token a --token or --token-file argument gives, if any."""
    for i, arg in enumerate(args):
        for flag in ("--token", "--token-file"):
            value: str | None = None
            if arg == flag and i + 1 < len(args):
                value = args[i + 1]
            elif arg.startswith(flag + "="):
                value = arg[len(flag) + 1 :]
            if value is None:
                continue
            if flag == "--token":
                return value
            return pathlib.Path(value).read_text(encoding="utf-8").strip()
    return None


class _StreamTail:
    """Drains a child's pipe in a daemon thread, keeping the last lines."""

    def __init__(self, stream: IO[bytes], name: str, keep: int) -> None:
        self._stream = stream
        self._lines: collections.deque[str] = collections.deque(maxlen=keep)
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for raw in self._stream:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                with self._lock:
                    self._lines.append(line)
                _log.debug("sidecar: %s", line)
        except (OSError, ValueError):
            pass
        finally:
            self._stream.close()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)

    def tail(self) -> list[str]:
        with self._lock:
            return list(self._lines)


def _stop_process(proc: subprocess.Popen[bytes], grace: float) -> int:
    """Stop proc: SIGTERM, then SIGKILL after grace seconds; return its exit
    status. Also the interpreter-exit hook, which holds the process itself
    (not the Sidecar), so a Sidecar dropped without stop() is still stopped.
    On Windows terminate() already ends the process (TerminateProcess): a
    save it was making leaves the workbook's old bytes or its new ones, never
    a mix, and its temporary file is swept by a later save."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            _log.warning("registry-sidecar ignored SIGTERM; killing it", extra={"pid": proc.pid})
            proc.kill()
            proc.wait()
    return proc.returncode


class Sidecar:
    """A running registry-sidecar process.

    Create it with :meth:`launch`; use it as a context manager or call
    :meth:`stop`. The process is also stopped at interpreter exit.
    """

    def __init__(
        self,
        *,
        binary: pathlib.Path,
        workspace: pathlib.Path,
        args: Sequence[str],
        env: Mapping[str, str] | None,
        token: str | None,
        startup_timeout: float,
    ) -> None:
        self.binary = binary
        self.workspace = workspace
        self.args = tuple(args)
        self.token = token
        self.startup_timeout = startup_timeout
        self._env = dict(env) if env is not None else None
        self._lock = threading.RLock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: _StreamTail | None = None
        self._url = ""
        # The interpreter-exit hook of the running process (see start).
        self._atexit_cb: Callable[[], int] | None = None

    @classmethod
    def launch(
        cls,
        workspace: str | os.PathLike[str],
        *,
        binary: str | os.PathLike[str] | None = None,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        token: str | None = None,
        startup_timeout: float = 10.0,
    ) -> Sidecar:
        """Start the sidecar serving workspace and wait for its handshake line.

        The binary is found by :func:`registry_sidecar.find_binary`. args are
        extra command-line arguments (e.g. ``["--test-tools"]``); env entries
        are added to the inherited environment. Without a token (argument,
        ``$REGISTRY_SIDECAR_TOKEN`` in env or the environment, or a --token /
        --token-file argument) a random one is generated, so only this process
        can connect. Raises LaunchError, quoting the tail of the binary's
        stderr, when it exits, prints a bad handshake or does not become ready
        within startup_timeout seconds.
        """
        merged_env = dict(env) if env is not None else {}
        if token is None:
            token = merged_env.get(ENV_TOKEN) or os.environ.get(ENV_TOKEN) or _token_from_args(args)
        if token is None:
            token = secrets.token_urlsafe(32)
        sidecar = cls(
            binary=find_binary(binary),
            workspace=pathlib.Path(workspace),
            args=args,
            env=merged_env,
            token=token,
            startup_timeout=startup_timeout,
        )
        sidecar.start()
        return sidecar

    @property
    def url(self) -> str:
        """The WebSocket URL from the handshake line."""
        return self._url

    @property
    def pid(self) -> int | None:
        """The process id, or None before start."""
        proc = self._proc
        return proc.pid if proc is not None else None

    @property
    def alive(self) -> bool:
        """Whether the process is running."""
        proc = self._proc
        return proc is not None and proc.poll() is None

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has exited (negative: signal)."""
        proc = self._proc
        return proc.poll() if proc is not None else None

    def stderr_tail(self) -> list[str]:
        """The last lines the process wrote to stderr."""
        tail = self._stderr
        return tail.tail() if tail is not None else []

    def start(self) -> None:
        """Start the process and read its handshake (see :meth:`launch`)."""
        with self._lock:
            if self.alive:
                return
            env = dict(os.environ)
            if self._env:
                env.update(self._env)
            if self.token is not None:
                env[ENV_TOKEN] = self.token
            cmd = [str(self.binary), "--listen", "127.0.0.1:0", "--workspace", str(self.workspace), *self.args]
            try:
                proc = subprocess.Popen(
                    cmd,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env=env,
                    creationflags=_CREATION_FLAGS,
                )
            except OSError as exc:
                raise LaunchError(f"cannot start {self.binary}: {exc}") from exc
            self._proc = proc
            assert proc.stderr is not None and proc.stdout is not None
            self._stderr = _StreamTail(proc.stderr, f"registry-sidecar-stderr-{proc.pid}", STDERR_TAIL_LINES)
            try:
                line = self._read_handshake(proc)
                self._url = parse_handshake(line)
            except LaunchError as exc:
                self._kill()
                raise LaunchError(f"{exc}{self._quote_stderr()}") from None
            _StreamTail(proc.stdout, f"registry-sidecar-stdout-{proc.pid}", STDERR_TAIL_LINES)
            # One callable per process, so atexit.unregister removes only
            # this one; it references the process, not self.
            self._atexit_cb = functools.partial(_stop_process, proc, STOP_GRACE_SECONDS)
            atexit.register(self._atexit_cb)
            _log.info("registry-sidecar started", extra={"pid": proc.pid})

    def _read_handshake(self, proc: subprocess.Popen[bytes]) -> str:
        if not _PIPES_SELECTABLE:
            return self._read_handshake_in_thread(proc)
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + self.startup_timeout
        buf = b""
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in buf:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise LaunchError(
                        f"registry-sidecar did not print its handshake within {self.startup_timeout:g} s"
                    )
                if not sel.select(remaining):
                    continue
                chunk = os.read(fd, MAX_HANDSHAKE_BYTES)
                if not chunk:
                    rc = proc.wait(timeout=STOP_GRACE_SECONDS)
                    raise LaunchError(f"registry-sidecar exited with status {rc} before it was ready")
                buf += chunk
                if len(buf) > MAX_HANDSHAKE_BYTES:
                    raise LaunchError("registry-sidecar printed an over-long handshake line")
        line, _, rest = buf.partition(b"\n")
        if rest.strip():
            _log.debug("sidecar stdout after handshake: %r", rest[:200])
        return line.decode("utf-8", "replace")

    def _read_handshake_in_thread(self, proc: subprocess.Popen[bytes]) -> str:
        """_read_handshake where pipes cannot be selected (Windows): a daemon
        thread reads the first line while this one waits up to the startup
        timeout. On a timeout the caller kills the process, which ends the
        thread's read. What follows the line stays in the pipe's buffer for
        the stdout drain."""
        stdout = proc.stdout
        assert stdout is not None
        got: queue.Queue[bytes | OSError | ValueError] = queue.Queue(maxsize=1)

        def read() -> None:
            try:
                got.put(stdout.readline(MAX_HANDSHAKE_BYTES + 1))
            except (OSError, ValueError) as exc:
                got.put(exc)

        threading.Thread(target=read, name=f"registry-sidecar-handshake-{proc.pid}", daemon=True).start()
        try:
            line = got.get(timeout=self.startup_timeout)
        except queue.Empty:
            raise LaunchError(
                f"registry-sidecar did not print its handshake within {self.startup_timeout:g} s"
            ) from None
        if isinstance(line, (OSError, ValueError)):
            raise LaunchError(f"cannot read registry-sidecar's handshake: {line}")
        if not line:
            rc = proc.wait(timeout=STOP_GRACE_SECONDS)
            raise LaunchError(f"registry-sidecar exited with status {rc} before it was ready")
        if len(line) > MAX_HANDSHAKE_BYTES:
            raise LaunchError("registry-sidecar printed an over-long handshake line")
        if not line.endswith(b"\n"):
            rc = proc.wait(timeout=STOP_GRACE_SECONDS)
            raise LaunchError(f"registry-sidecar exited with status {rc} before it was ready")
        return line[:-1].decode("utf-8", "replace")

    def _quote_stderr(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.join(STDERR_DRAIN_SECONDS)
        tail = self._stderr.tail()
        if not tail:
            return " (stderr was empty)"
        return "; last stderr lines:\n" + "\n".join(tail)

    def _kill(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        proc.wait()

    def stop(self, grace: float = STOP_GRACE_SECONDS) -> int | None:
        """Stop the process: SIGTERM, then SIGKILL after grace seconds.
        Returns its exit status (None if it never started). Idempotent."""
        with self._lock:
            proc = self._proc
            if proc is None:
                return None
            if self._atexit_cb is not None:
                atexit.unregister(self._atexit_cb)
                self._atexit_cb = None
            return _stop_process(proc, grace)

    def restart(self) -> str:
        """Stop the process if it runs, start a new one with the same
        configuration, and return its (new) URL."""
        with self._lock:
            self.stop()
            self._proc = None
            self.start()
            return self._url

    def exited(self, wait: float) -> bool:
        """Wait up to wait seconds for the process to exit; report whether
        it has. (A killed process closes its sockets a moment before its
        exit status can be collected.)"""
        proc = self._proc
        if proc is None:
            return True
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return False
        return True

    def relaunch_if_dead(self) -> str:
        """Start a new process if this one has exited (a crash), and return
        the URL. Safe to call from several clients at once: only the first
        relaunches."""
        with self._lock:
            if not self.alive:
                _log.warning("relaunching registry-sidecar", extra={"status": self.returncode})
                self.restart()
            return self._url

    def __enter__(self) -> Sidecar:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "alive" if self.alive else f"exited {self.returncode}"
        return f"<Sidecar pid={self.pid} url={self._url!r} {state}>"
