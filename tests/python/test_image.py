"""`make image`: the OCI image layout tar, unpacked and run.

The layout is read as a runtime would (index, image index, manifest, config,
layer, every digest checked); the layer is unpacked into a root file system
and the image's entrypoint runs in it as the image's user (a chroot as uid
65532, when this process may chroot), with the image's environment, the
ports moved to free loopback ones through the REGISTRY_SIDECAR_* variables
and a token; then the probes answer and a tool is called over MCP streamable
HTTP with the token.

The image is $REGISTRY_SIDECAR_IMAGE (`make py-test` builds it with
`make image` and sets it); without it the suite skips.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import io
import json
import os
import pathlib
import secrets
import shutil
import signal
import subprocess
import tarfile
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from binfmt import identify
from mcp import ClientSession, types
from mcp.client.streamable_http import streamablehttp_client
from mcp_doors import START_TIMEOUT_S, STOP_TIMEOUT_S, Logs

UID = 65532
OCI_INDEX = "application/vnd.oci.image.index.v1+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_CONFIG = "application/vnd.oci.image.config.v1+json"
OCI_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip"
HOST_ARCH = {"x86_64": "amd64", "aarch64": "arm64"}.get(os.uname().machine, os.uname().machine)


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    given = os.environ.get("REGISTRY_SIDECAR_IMAGE")
    if not given:
        pytest.skip("no $REGISTRY_SIDECAR_IMAGE: run `make image` and point it at the tar (make py-test does)")
    out = tmp_path_factory.mktemp("layout")
    with tarfile.open(given) as tf:
        tf.extractall(out, filter="data")
    return out


def _blob(layout: pathlib.Path, desc: dict[str, Any]) -> bytes:
    algo, digest = desc["digest"].split(":")
    data = (layout / "blobs" / algo / digest).read_bytes()
    assert hashlib.sha256(data).hexdigest() == digest and len(data) == desc["size"], desc["digest"]
    return data


def _image(layout: pathlib.Path, arch: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The manifest and config of the image for linux/arch."""
    index = json.loads((layout / "index.json").read_text())
    [top] = index["manifests"]
    assert top["mediaType"] == OCI_INDEX
    assert top["annotations"]["org.opencontainers.image.ref.name"]
    images = json.loads(_blob(layout, top))
    [desc] = [m for m in images["manifests"] if m["platform"] == {"os": "linux", "architecture": arch, **(
        {"variant": "v8"} if arch == "arm64" else {})}]
    manifest = json.loads(_blob(layout, desc))
    assert manifest["mediaType"] == OCI_MANIFEST and manifest["config"]["mediaType"] == OCI_CONFIG
    return manifest, json.loads(_blob(layout, manifest["config"]))


def test_layout_holds_both_linux_images(layout: pathlib.Path) -> None:
    assert json.loads((layout / "oci-layout").read_text()) == {"imageLayoutVersion": "1.0.0"}
    for arch in ("amd64", "arm64"):
        manifest, config = _image(layout, arch)
        assert (config["os"], config["architecture"]) == ("linux", arch)
        [layer] = manifest["layers"]
        assert layer["mediaType"] == OCI_LAYER, "one layer on an empty base: nothing was pulled"


def test_config_runs_as_nonroot_with_a_workspace_volume(layout: pathlib.Path) -> None:
    _, config = _image(layout, HOST_ARCH)
    c = config["config"]
    assert c["User"] == f"{UID}:{UID}"
    assert c["Entrypoint"] == ["/registry-sidecar"] and c["Cmd"] == ["serve"]
    assert c["Volumes"] == {"/workspace": {}}
    assert c["ExposedPorts"] == {"8765/tcp": {}, "8766/tcp": {}}
    env = dict(e.split("=", 1) for e in c["Env"])
    assert env["REGISTRY_SIDECAR_LISTEN"] == "0.0.0.0:8765"
    assert env["REGISTRY_SIDECAR_MCP_LISTEN"] == "0.0.0.0:8766"
    assert env["REGISTRY_SIDECAR_WORKSPACE"] == "/workspace"
    assert "REGISTRY_SIDECAR_TOKEN" not in env, "the token is the deployment's, never the image's"


@pytest.fixture(scope="module")
def rootfs(layout: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    manifest, config = _image(layout, HOST_ARCH)
    [layer] = manifest["layers"]
    data = _blob(layout, layer)
    out = tmp_path_factory.mktemp("rootfs")
    out.chmod(0o755)  # a root file system's / (pytest makes its folders 0700)
    assert "sha256:" + hashlib.sha256(gzip.decompress(data)).hexdigest() == config["rootfs"]["diff_ids"][0]
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tf:
        members = tf.getmembers()
        tf.extractall(out, filter="fully_trusted" if os.geteuid() == 0 else "data", numeric_owner=True)
    assert {m.name for m in members} == {"etc", "etc/group", "etc/passwd", "registry-sidecar", "tmp", "workspace"}
    return out


def test_rootfs_is_a_static_binary_and_the_users_folders(rootfs: pathlib.Path) -> None:
    binary = rootfs / "registry-sidecar"
    exe = identify(binary.read_bytes())
    assert exe.format == "ELF" and exe.static
    assert binary.stat().st_mode & 0o777 == 0o755
    assert (rootfs / "tmp").stat().st_mode & 0o7777 == 0o1777
    assert f"nonroot:x:{UID}:{UID}:" in (rootfs / "etc" / "passwd").read_text()
    if os.geteuid() == 0:
        assert (rootfs / "workspace").stat().st_uid == UID


def _chroot_works(rootfs: pathlib.Path) -> bool:
    chroot = shutil.which("chroot")
    if os.geteuid() != 0 or chroot is None:
        return False
    probe = subprocess.run([chroot, f"--userspec={UID}:{UID}", str(rootfs), "/registry-sidecar", "--version"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.fixture(scope="module")
def running(layout: pathlib.Path, rootfs: pathlib.Path) -> Iterator[tuple[dict[str, Any], str, pathlib.Path]]:
    """The image's entrypoint, running; yields the listening log line, the
    token and the workspace folder on this machine."""
    _, config = _image(layout, HOST_ARCH)
    c = config["config"]
    token = secrets.token_urlsafe(24)
    env = dict(e.split("=", 1) for e in c["Env"])
    env.update(REGISTRY_SIDECAR_LISTEN="127.0.0.1:0", REGISTRY_SIDECAR_MCP_LISTEN="127.0.0.1:0",
               REGISTRY_SIDECAR_TOKEN=token)
    if _chroot_works(rootfs):
        argv = [str(shutil.which("chroot")), f"--userspec={c['User']}", str(rootfs), *c["Entrypoint"], *c["Cmd"]]
        workspace = rootfs / env["REGISTRY_SIDECAR_WORKSPACE"].lstrip("/")
    else:
        # Not root here: the same binary, environment and arguments, the
        # workspace path moved into the unpacked root file system.
        argv = [str(rootfs / c["Entrypoint"][0].lstrip("/")), *c["Entrypoint"][1:], *c["Cmd"]]
        workspace = rootfs / "workspace"
        env["REGISTRY_SIDECAR_WORKSPACE"] = str(workspace)
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    logs = Logs()
    assert proc.stderr is not None and proc.stdout is not None
    stderr = proc.stderr
    threading.Thread(target=lambda: [logs.add(line) for line in stderr], daemon=True).start()
    try:
        handshake = proc.stdout.readline()
        assert handshake.startswith("REGISTRY-SIDECAR|1|ws://127.0.0.1:"), handshake
        listening = logs.wait_for(START_TIMEOUT_S, msg="listening")
        yield listening, token, workspace
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        assert proc.wait(STOP_TIMEOUT_S) == 0


def _get(url: str, token: str | None = None) -> int:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def test_probes_answer_without_the_token(running: tuple[dict[str, Any], str, pathlib.Path]) -> None:
    listening, _, _ = running
    for base in (listening["mcp_url"].removesuffix("/mcp"), listening["url"].replace("ws://", "http://").removesuffix("/ws")):
        assert _get(base + "/healthz") == 200
        assert _get(base + "/readyz") == 200


# streamablehttp_client is the transport the other MCP door tests use; mcp 1.x
# deprecates the name for streamable_http_client, the same transport.
@pytest.mark.filterwarnings("ignore:Use `streamable_http_client` instead:DeprecationWarning")
def test_mcp_http_call_with_the_token(running: tuple[dict[str, Any], str, pathlib.Path]) -> None:
    listening, token, workspace = running
    url = listening["mcp_url"]
    assert _get(url) == 401, "the MCP door wants the token"

    async def call() -> types.CallToolResult:
        headers = {"Authorization": f"Bearer {token}"}
        async with streamablehttp_client(url, headers=headers) as (read, write, _), ClientSession(read, write) as s:
            await s.initialize()
            return await s.call_tool("write_cells", {"file_path": "from-image.xlsx", "cell": "A1", "value": "hi",
                                                     "create": True})

    res = asyncio.run(asyncio.wait_for(call(), 60))
    assert res.isError is False
    block = res.content[0]
    assert isinstance(block, types.TextContent) and json.loads(block.text)["status"] == "success"
    made = workspace / "from-image.xlsx"
    assert made.is_file()
    if os.geteuid() == 0:
        assert made.stat().st_uid == UID, "written by the image's user"
