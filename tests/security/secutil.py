"""Helpers of the security suite: tree hashes, workbook greps, PNG pixels, an
inotify watch, the renameat2 swapper and a sidecar started without a token.

Everything here talks to the real system (files, sockets, processes); nothing
imitates the sidecar.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import json
import os
import pathlib
import platform
import select
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import zipfile
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]

#: Seconds the binary may take to print its handshake line.
START_TIMEOUT_S = 15.0


def payload(text: str) -> dict[str, Any]:
    """A tool answer decoded (every answer of a spreadsheet tool is a JSON object)."""
    got = json.loads(text)
    assert isinstance(got, dict), text[:300]
    return got


def soffice_missing() -> str | None:
    """Why render_range cannot run here, or None when LibreOffice is installed."""
    if shutil.which("soffice") is None:
        return "LibreOffice (soffice) is not installed: run `make oracle-deps`"
    return None


# ---------------------------------------------------------------- files


def tree_state(root: pathlib.Path) -> dict[str, str]:
    """Every entry under root (hidden ones included, symlinks not followed):
    relative path -> "dir", "link:<target>" or "file:<sha256>"."""
    state: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        base = pathlib.Path(dirpath)
        for name in [*dirnames, *filenames]:
            p = base / name
            rel = p.relative_to(root).as_posix()
            if p.is_symlink():
                state[rel] = "link:" + os.readlink(p)
            elif p.is_dir():
                state[rel] = "dir"
            else:
                state[rel] = "file:" + hashlib.sha256(p.read_bytes()).hexdigest()
    return state


def tree_diff(before: Mapping[str, str], after: Mapping[str, str]) -> list[str]:
    """What changed between two tree_state snapshots, one line per entry."""
    lines = [f"created: {k}" for k in sorted(after.keys() - before.keys())]
    lines += [f"removed: {k}" for k in sorted(before.keys() - after.keys())]
    lines += [f"changed: {k}" for k in sorted(k for k in before.keys() & after.keys() if before[k] != after[k])]
    return lines


def workspace_files(root: pathlib.Path) -> Iterator[pathlib.Path]:
    """Every regular file under root, never following a symlink."""
    for dirpath, _dirnames, filenames in os.walk(root, followlinks=False):
        for name in filenames:
            p = pathlib.Path(dirpath) / name
            if not p.is_symlink() and p.is_file():
                yield p


def xlsx_parts(path: pathlib.Path) -> dict[str, bytes]:
    """Every part of a workbook, by name (raises zipfile.BadZipFile)."""
    with zipfile.ZipFile(path) as z:
        return {info.filename: z.read(info) for info in z.infolist()}


# ---------------------------------------------------------------- PNG


def solid_png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A real RGB PNG of one colour, made with zlib."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b"")


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR (asserts the signature)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR", "PNG without IHDR first"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def count_pixels(path: pathlib.Path, colour: str) -> int:
    """How many pixels of the image are clearly red or clearly blue
    (colour "red" or "blue"); Pillow decodes, after a full load (so a
    truncated file fails here)."""
    with Image.open(path) as img:
        img.load()
        rgb = img.convert("RGB")
        data = rgb.tobytes()
    n = 0
    for i in range(0, len(data), 3):
        r, g, b = data[i], data[i + 1], data[i + 2]
        if colour == "red" and r > 200 and g < 70 and b < 70:
            n += 1
        elif colour == "blue" and b > 200 and r < 70 and g < 70:
            n += 1
    return n


# ---------------------------------------------------------------- inotify

_IN_ACCESS = 0x001
_IN_MODIFY = 0x002
_IN_ATTRIB = 0x004
_IN_CLOSE_WRITE = 0x008
_IN_OPEN = 0x020
_IN_MOVED_FROM = 0x040
_IN_MOVED_TO = 0x080
_IN_CREATE = 0x100
_IN_DELETE = 0x200
_IN_Q_OVERFLOW = 0x4000
_IN_NONBLOCK = 0o4000
_IN_CLOEXEC = 0o2000000
_WATCH_MASK = (
    _IN_ACCESS | _IN_MODIFY | _IN_ATTRIB | _IN_CLOSE_WRITE | _IN_OPEN | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE
)
_EVENT_NAMES = {
    _IN_ACCESS: "ACCESS",
    _IN_MODIFY: "MODIFY",
    _IN_ATTRIB: "ATTRIB",
    _IN_CLOSE_WRITE: "CLOSE_WRITE",
    _IN_OPEN: "OPEN",
    _IN_MOVED_FROM: "MOVED_FROM",
    _IN_MOVED_TO: "MOVED_TO",
    _IN_CREATE: "CREATE",
    _IN_DELETE: "DELETE",
    _IN_Q_OVERFLOW: "QUEUE_OVERFLOW",
}


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)


class OpenWatch:
    """inotify on every folder of a tree: reports any open, read, write,
    create or delete of anything in it (by anyone: the sidecar, soffice)."""

    def __init__(self, root: pathlib.Path) -> None:
        self._libc = _libc()
        fd = self._libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self.fd: int = fd
        self._dirs: dict[int, str] = {}
        for dirpath, _dirnames, _filenames in os.walk(root, followlinks=False):
            wd = self._libc.inotify_add_watch(fd, os.fsencode(dirpath), _WATCH_MASK)
            if wd < 0:
                raise OSError(ctypes.get_errno(), f"inotify_add_watch {dirpath}")
            self._dirs[wd] = pathlib.Path(dirpath).relative_to(root).as_posix()
        # os.walk itself opened the subfolders after their parent was
        # watched: those events are the watcher's own, drop them.
        self.events()

    def events(self) -> list[str]:
        """The events so far, as "OPEN victim.xlsx"-like lines (drains them)."""
        out: list[str] = []
        while True:
            try:
                buf = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return out
            i = 0
            while i + 16 <= len(buf):
                wd, mask, _cookie, size = struct.unpack_from("iIII", buf, i)
                name = buf[i + 16 : i + 16 + size].rstrip(b"\0").decode("utf-8", "replace")
                i += 16 + size
                kinds = [v for k, v in _EVENT_NAMES.items() if mask & k] or [hex(mask)]
                where = self._dirs.get(wd, "?")
                target = f"{where}/{name}" if name else where
                out.append(f"{'|'.join(kinds)} {target}")

    def close(self) -> None:
        os.close(self.fd)


# ---------------------------------------------------------------- swapper

_SWAPPER = r"""
import ctypes, ctypes.util, os, platform, signal, sys
AT_FDCWD, RENAME_EXCHANGE = -100, 2
libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
if hasattr(libc, "renameat2"):
    def exchange():
        return libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
else:
    nr = {"x86_64": 316, "aarch64": 276}[platform.machine()]
    def exchange():
        return libc.syscall(nr, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
stop = False
def on_term(signum, frame):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)
n = 0
failed = 0
while not stop:
    if exchange() == 0:
        n += 1
        if n == 2:
            print("ready", flush=True)
    else:
        failed += 1
        if failed > 1000:
            print("renameat2 failed: errno %d" % ctypes.get_errno(), flush=True)
            sys.exit(2)
if n % 2:
    if exchange() == 0:
        n += 1
print("swaps %d" % n, flush=True)
"""


@dataclass
class Swapper:
    """A separate process exchanging two names with renameat2(RENAME_EXCHANGE)
    in a tight loop; stop() ends it with both names back where they were."""

    a: pathlib.Path
    b: pathlib.Path
    proc: subprocess.Popen[str] | None = None
    swaps: int = 0
    started: float = 0.0
    elapsed: float = 0.0

    def start(self) -> None:
        if platform.system() != "Linux":
            raise RuntimeError("renameat2 needs Linux")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SWAPPER, str(self.a), str(self.b)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 10)
        line = self.proc.stdout.readline().strip() if ready else "(nothing within 10 s)"
        if line != "ready":
            self.proc.kill()
            raise RuntimeError(f"swapper did not start: {line}")
        self.started = time.monotonic()

    def stop(self) -> None:
        proc = self.proc
        if proc is None:
            return
        self.elapsed = time.monotonic() - self.started
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
        for line in out.splitlines():
            if line.startswith("swaps "):
                self.swaps = int(line.split()[1])
        self.proc = None
        if proc.returncode != 0:
            raise RuntimeError(f"swapper exited {proc.returncode}: {out}")


# ---------------------------------------------------------------- a sidecar without a token


@dataclass
class Plain:
    """A sidecar started by hand, without a token: its WebSocket and MCP
    addresses and the JSON log lines it wrote."""

    proc: subprocess.Popen[str]
    ws_url: str
    mcp_url: str
    logs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ws_port(self) -> int:
        return int(self.ws_url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])

    @property
    def mcp_port(self) -> int:
        return int(self.mcp_url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])


def env_without_token() -> dict[str, str]:
    """The inherited environment minus every REGISTRY_SIDECAR_ variable, so the
    binary gets no token and no setting the test did not give it."""
    return {k: v for k, v in os.environ.items() if not k.startswith("REGISTRY_SIDECAR_")}


@contextmanager
def plain_sidecar(
    binary: pathlib.Path, workspace: pathlib.Path, *extra: str, mcp_listen: str = "127.0.0.1:0", expect_auth: bool = False
) -> Iterator[Plain]:
    """``registry-sidecar --listen 127.0.0.1:0 --mcp-listen MCP_LISTEN`` started by hand,
    with no token from the environment (extra may give one: then pass expect_auth).

    The WebSocket URL comes from the handshake line on stdout, the MCP URL
    from the ``listening`` log line's ``mcp_url`` on stderr.
    """
    proc = subprocess.Popen(
        [str(binary), "--listen", "127.0.0.1:0", "--mcp-listen", mcp_listen, "--workspace", str(workspace), *extra],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env_without_token(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    logs: list[dict[str, Any]] = []
    listening = threading.Event()
    stderr = proc.stderr

    def pump() -> None:
        for raw in stderr:
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            if isinstance(line, dict):
                logs.append(line)
                if line.get("msg") == "listening":
                    listening.set()

    threading.Thread(target=pump, daemon=True).start()
    try:
        ready, _, _ = select.select([proc.stdout], [], [], START_TIMEOUT_S)
        line = proc.stdout.readline().strip() if ready else ""
        parts = line.split("|")
        assert len(parts) == 3 and parts[0] == "REGISTRY-SIDECAR", f"no handshake line: {line!r}"
        assert listening.wait(START_TIMEOUT_S), "no 'listening' log line"
        entry = next(x for x in logs if x.get("msg") == "listening")
        assert entry.get("auth") is expect_auth, entry
        yield Plain(proc=proc, ws_url=parts[2], mcp_url=str(entry["mcp_url"]), logs=logs)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def run_refused_start(binary: pathlib.Path, args: Sequence[str], env: Mapping[str, str], wait: float = 10.0) -> tuple[int | None, str, str]:
    """Start the binary expecting it to refuse; return (exit status, stdout,
    stderr). The status is None when it printed its handshake line instead
    (it started serving): it is then stopped at once."""
    proc = subprocess.Popen(
        [str(binary), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(env),
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], wait)
    first = proc.stdout.readline() if ready else ""
    if first.startswith("REGISTRY-SIDECAR|") or proc.poll() is None and not ready:
        proc.kill()
        out, err = proc.communicate()
        return None, first + out, err
    out, err = proc.communicate(timeout=wait)
    return proc.returncode, first + out, err


def vm_hwm_kib(pid: int) -> int:
    """Peak resident set size of a process (VmHWM), in KiB."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmHWM for pid {pid}")


def descendants(pid: int) -> list[tuple[int, int, str, str]]:
    """(pid, parent pid, comm, state) of every descendant of pid, read from /proc."""
    children: dict[int, list[int]] = {}
    info: dict[int, tuple[int, int, str, str]] = {}
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # comm is in parentheses and may hold spaces: split after the last ')'.
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        state, ppid_text = stat[stat.rindex(")") + 2 :].split()[:2]
        me, ppid = int(entry.name), int(ppid_text)
        children.setdefault(ppid, []).append(me)
        info[me] = (me, ppid, comm, state)
    out: list[tuple[int, int, str, str]] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(info[child])
            todo.append(child)
    return out
