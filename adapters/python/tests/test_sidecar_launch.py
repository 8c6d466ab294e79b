"""Sidecar.launch and stop against stand-in binaries (real child processes)."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from registry_sidecar import LaunchError, Sidecar, binary, find_binary
from registry_sidecar import sidecar as sidecar_module
from registry_sidecar.binary import _repository_build
from registry_sidecar.sidecar import STDERR_TAIL_LINES, STOP_GRACE_SECONDS, parse_handshake

FAKE = textwrap.dedent(
    """\
    import json, os, signal, sys, time
    mode = os.environ.get("FAKE_MODE", "ok")
    record = os.environ.get("FAKE_RECORD")
    if record:
        with open(record, "w") as f:
            json.dump({"argv": sys.argv[1:], "token": os.environ.get("REGISTRY_SIDECAR_TOKEN"), "pid": os.getpid()}, f)
    def on_term(signum, frame):
        if record:
            with open(record + ".term", "w") as f:
                f.write("terminated")
        sys.exit(0)
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    else:
        signal.signal(signal.SIGTERM, on_term)
    if mode == "crash":
        for i in range(30):
            print(f"stderr line {i}", file=sys.stderr, flush=True)
        sys.exit(3)
    if mode == "silent":
        time.sleep(60)
    if mode == "long":
        print("REGISTRY-SIDECAR|1|ws://" + "x" * 5000, flush=True)
    if mode == "unterminated":
        print("REGISTRY-SIDECAR|1|ws://127.0.0.1:9/ws", end="", flush=True)
        sys.exit(0)
    if mode == "v2":
        print("REGISTRY-SIDECAR|2|ws://127.0.0.1:1/ws", flush=True)
    elif mode == "garbage":
        print("hello world", flush=True)
    else:
        print("REGISTRY-SIDECAR|1|ws://127.0.0.1:9/ws", flush=True)
    while True:
        time.sleep(1)
    """
)


@pytest.fixture
def fake_bin(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "fake-sidecar"
    path.write_text(f"#!{sys.executable}\n{FAKE}")
    path.chmod(0o755)
    return path


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); look at its state.
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.split(")")[-1].split()[0] != "Z"


@pytest.mark.parametrize(
    ("line", "url", "error"),
    [
        ("REGISTRY-SIDECAR|1|ws://127.0.0.1:5/ws\n", "ws://127.0.0.1:5/ws", None),
        ("REGISTRY-SIDECAR|2|ws://127.0.0.1:5/ws", None, "protocol '2'"),
        ("REGISTRY-SIDECAR|1|http://127.0.0.1:5/", None, "not a WebSocket URL"),
        ("listening on 5", None, "unexpected handshake"),
        ("", None, "unexpected handshake"),
    ],
)
def test_parse_handshake(line: str, url: str | None, error: str | None) -> None:
    if error is None:
        assert parse_handshake(line) == url
    else:
        with pytest.raises(LaunchError, match=error):
            parse_handshake(line)


def test_launch_passes_listen_workspace_args_and_a_generated_token(
    fake_bin: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    record = tmp_path / "record.json"
    with Sidecar.launch(tmp_path, binary=fake_bin, args=["--test-tools"], env={"FAKE_RECORD": str(record)}) as sc:
        assert sc.alive
        assert sc.url == "ws://127.0.0.1:9/ws"
        seen = json.loads(record.read_text())
        assert seen["argv"] == ["--listen", "127.0.0.1:0", "--workspace", str(tmp_path), "--test-tools"]
        assert seen["pid"] == sc.pid
        assert sc.token is not None and len(sc.token) >= 32
        assert seen["token"] == sc.token
    assert not sc.alive
    assert (tmp_path / "record.json.term").read_text() == "terminated"


@pytest.mark.parametrize(
    ("kwargs", "want"),
    [
        ({"token": "explicit"}, "explicit"),
        ({"env": {"REGISTRY_SIDECAR_TOKEN": "from-env"}}, "from-env"),
        ({"args": ["--token", "from-arg"]}, "from-arg"),
        ({"args": ["--token=from-arg2"]}, "from-arg2"),
    ],
)
def test_launch_token_sources(
    fake_bin: pathlib.Path, tmp_path: pathlib.Path, kwargs: dict[str, object], want: str
) -> None:
    with Sidecar.launch(tmp_path, binary=fake_bin, **kwargs) as sc:  # type: ignore[arg-type]
        assert sc.token == want


def test_launch_error_quotes_the_stderr_tail(fake_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    with pytest.raises(LaunchError) as info:
        Sidecar.launch(tmp_path, binary=fake_bin, env={"FAKE_MODE": "crash"})
    msg = str(info.value)
    assert "exited with status 3" in msg
    assert "stderr line 29" in msg
    first_kept = 30 - STDERR_TAIL_LINES
    assert f"stderr line {first_kept}\n" in msg
    assert f"stderr line {first_kept - 1}\n" not in msg


@pytest.mark.parametrize(
    ("mode", "error"),
    [("v2", "protocol '2'"), ("garbage", "unexpected handshake")],
)
def test_launch_rejects_bad_handshakes_and_kills_the_child(
    fake_bin: pathlib.Path, tmp_path: pathlib.Path, mode: str, error: str
) -> None:
    record = tmp_path / "record.json"
    with pytest.raises(LaunchError, match=error):
        Sidecar.launch(tmp_path, binary=fake_bin, env={"FAKE_MODE": mode, "FAKE_RECORD": str(record)})
    assert not _alive(json.loads(record.read_text())["pid"])


def test_launch_times_out_waiting_for_the_handshake(fake_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    record = tmp_path / "record.json"
    start = time.monotonic()
    with pytest.raises(LaunchError, match=r"within 0\.3 s"):
        Sidecar.launch(
            tmp_path, binary=fake_bin, env={"FAKE_MODE": "silent", "FAKE_RECORD": str(record)}, startup_timeout=0.3
        )
    assert time.monotonic() - start < 5
    assert not _alive(json.loads(record.read_text())["pid"])


@pytest.fixture
def thread_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read the handshake as on Windows (a thread, no select on the pipe)."""
    monkeypatch.setattr(sidecar_module, "_PIPES_SELECTABLE", False)


@pytest.mark.usefixtures("thread_reader")
@pytest.mark.parametrize(
    ("mode", "error"),
    [
        ("ok", None),
        ("v2", "protocol '2'"),
        ("garbage", "unexpected handshake"),
        ("crash", "exited with status 3"),
        ("silent", r"within 0\.5 s"),
        ("long", "over-long handshake"),
        ("unterminated", "exited with status 0"),
    ],
)
def test_handshake_read_by_a_thread(fake_bin: pathlib.Path, tmp_path: pathlib.Path, mode: str, error: str | None) -> None:
    """The Windows way to read the handshake keeps every outcome of the
    select() way: the URL, or the same LaunchError, and the child killed."""
    record = tmp_path / "record.json"
    env = {"FAKE_MODE": mode, "FAKE_RECORD": str(record)}
    # Only the silent child is meant to run into the timeout; the others get room to start
    # a Python interpreter on a busy machine, and must still be told apart well within 5 s.
    timeout = 0.5 if mode == "silent" else 4.0
    if error is None:
        with Sidecar.launch(tmp_path, binary=fake_bin, env=env, startup_timeout=timeout) as sc:
            assert sc.url == "ws://127.0.0.1:9/ws"
        return
    start = time.monotonic()
    with pytest.raises(LaunchError, match=error):
        Sidecar.launch(tmp_path, binary=fake_bin, env=env, startup_timeout=timeout)
    assert time.monotonic() - start < 5
    assert not _alive(json.loads(record.read_text())["pid"])


def test_stop_kills_a_child_that_ignores_sigterm(fake_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    sc = Sidecar.launch(tmp_path, binary=fake_bin, env={"FAKE_MODE": "stubborn"})
    start = time.monotonic()
    assert sc.stop(grace=0.3) == -signal.SIGKILL
    assert 0.3 <= time.monotonic() - start < 5
    assert sc.stop() == -signal.SIGKILL  # idempotent


def test_context_exit_kills_a_stubborn_child_after_the_default_grace(
    fake_bin: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    assert STOP_GRACE_SECONDS == 2.0
    with Sidecar.launch(tmp_path, binary=fake_bin, env={"FAKE_MODE": "stubborn"}) as sc:
        assert sc.alive
        start = time.monotonic()
    took = time.monotonic() - start
    assert sc.returncode == -signal.SIGKILL
    assert STOP_GRACE_SECONDS <= took < STOP_GRACE_SECONDS + 3


@pytest.mark.parametrize(
    "epilogue",
    ["", "del sc; import gc; gc.collect()\n"],
    ids=["kept", "dropped without stop"],
)
def test_interpreter_exit_stops_the_sidecar(fake_bin: pathlib.Path, tmp_path: pathlib.Path, epilogue: str) -> None:
    record = tmp_path / "record.json"
    script = (
        "import sys; from registry_sidecar import Sidecar\n"
        f"sc = Sidecar.launch({str(tmp_path)!r}, binary={str(fake_bin)!r}, env={{'FAKE_RECORD': {str(record)!r}}})\n"
        "print(sc.pid, flush=True)\n"
        f"{epilogue}"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True)
    pid = int(out.stdout.strip())
    assert (tmp_path / "record.json.term").read_text() == "terminated"
    assert not _alive(pid)


def test_restart_starts_a_new_process(fake_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    with Sidecar.launch(tmp_path, binary=fake_bin) as sc:
        first = sc.pid
        os.kill(first or 0, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while sc.alive and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not sc.alive
        assert sc.returncode == -signal.SIGKILL
        sc.restart()
        assert sc.alive and sc.pid != first


def _exe(path: pathlib.Path) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def test_find_binary_lookup_order(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    arg = _exe(tmp_path / "arg" / "registry-sidecar")
    env = _exe(tmp_path / "env" / "registry-sidecar")
    on_path = _exe(tmp_path / "path" / "registry-sidecar")
    bundled = _exe(tmp_path / "wheel" / "registry_sidecar" / "_bin" / "registry-sidecar")
    monkeypatch.setenv("REGISTRY_SIDECAR_BIN", str(env))
    monkeypatch.setenv("PATH", str(on_path.parent))
    monkeypatch.setattr(binary, "BUNDLED_BINARY", bundled)
    assert find_binary(arg) == arg
    assert find_binary() == env
    monkeypatch.delenv("REGISTRY_SIDECAR_BIN")
    assert find_binary() == bundled, "the binary a platform wheel carries comes before PATH"
    monkeypatch.setattr(binary, "BUNDLED_BINARY", tmp_path / "no-wheel" / "registry-sidecar")
    assert find_binary() == on_path
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    # Last: the repository's own build, found from the package's location.
    repo_bin = _repository_build(pathlib.Path(__file__).resolve())
    if repo_bin is None:
        with pytest.raises(LaunchError, match="cannot find"):
            find_binary()
    else:
        assert find_binary() == repo_bin


def test_repository_build_walks_up_to_go_mod(tmp_path: pathlib.Path) -> None:
    (tmp_path / "go.mod").write_text("module x\n")
    start = tmp_path / "adapters" / "python" / "src" / "pkg" / "binary.py"
    assert _repository_build(start) is None
    built = _exe(tmp_path / "bin" / "registry-sidecar")
    assert _repository_build(start) == built


@pytest.mark.parametrize(
    ("setup", "error"),
    [("arg", "does not exist"), ("env", "REGISTRY_SIDECAR_BIN")],
)
def test_find_binary_reports_a_missing_explicit_binary(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, setup: str, error: str
) -> None:
    missing = tmp_path / "nope"
    if setup == "arg":
        with pytest.raises(LaunchError, match=error):
            find_binary(missing)
    else:
        monkeypatch.setenv("REGISTRY_SIDECAR_BIN", str(missing))
        with pytest.raises(LaunchError, match=error):
            find_binary()
