"""deploy/kubernetes: the sidecar beside an agent container, checked against
the Kubernetes API schemas (kubernetes-validate ships them, so this works
offline) and for the fields that make the sidecar pattern work."""

from __future__ import annotations

import pathlib
import re
import subprocess
from typing import Any

import kubernetes_validate
import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
MANIFESTS = sorted((ROOT / "deploy" / "kubernetes").glob("*.yaml"))
#: Kubernetes releases the manifests must validate against, strictly (no
#: unknown fields): the oldest still common and the newest the package knows.
VERSIONS = ("1.29", kubernetes_validate.latest_version())
SIDECAR = "registry-sidecar"


def _documents() -> list[dict[str, Any]]:
    docs = []
    for path in MANIFESTS:
        docs += [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    return docs


def _pod_spec() -> dict[str, Any]:
    [deployment] = [d for d in _documents() if d["kind"] == "Deployment"]
    spec: dict[str, Any] = deployment["spec"]["template"]["spec"]
    return spec


def _container(name: str) -> dict[str, Any]:
    [found] = [c for c in _pod_spec()["containers"] if c["name"] == name]
    return found


@pytest.mark.parametrize("version", VERSIONS)
def test_manifests_validate_against_the_kubernetes_schemas(version: str) -> None:
    assert MANIFESTS, "deploy/kubernetes holds no manifest"
    for doc in _documents():
        kubernetes_validate.validate(doc, version, strict=True)


def test_sidecar_shares_the_workspace_with_the_agent() -> None:
    spec = _pod_spec()
    assert len(spec["containers"]) == 2
    [agent] = [c for c in spec["containers"] if c["name"] != SIDECAR]
    sidecar = _container(SIDECAR)
    volumes = {v["name"]: v for v in spec["volumes"]}

    def workspace_of(c: dict[str, Any]) -> tuple[str, str]:
        [m] = [m for m in c["volumeMounts"] if m["mountPath"] == "/workspace"]
        return m["name"], m["mountPath"]

    assert workspace_of(agent) == workspace_of(sidecar)
    shared = volumes[workspace_of(sidecar)[0]]
    assert "emptyDir" in shared or "persistentVolumeClaim" in shared
    env = {e["name"]: e for e in sidecar["env"]}
    assert env["REGISTRY_SIDECAR_WORKSPACE"]["value"] == "/workspace"
    assert spec["securityContext"]["runAsUser"] == 65532 and spec["securityContext"]["fsGroup"] == 65532


def test_token_comes_from_a_secret_on_both_sides() -> None:
    for c in _pod_spec()["containers"]:
        env = {e["name"]: e for e in c["env"]}
        ref = env["REGISTRY_SIDECAR_TOKEN"]["valueFrom"]["secretKeyRef"]
        assert ref == {"name": "registry-sidecar-token", "key": "token"}
        assert "value" not in env["REGISTRY_SIDECAR_TOKEN"]


def test_probes_limits_and_ports() -> None:
    sidecar = _container(SIDECAR)
    ports = {p["name"]: p["containerPort"] for p in sidecar["ports"]}
    env = {e["name"]: e.get("value") for e in sidecar["env"]}
    assert env["REGISTRY_SIDECAR_LISTEN"].endswith(f":{ports['ws']}")
    assert env["REGISTRY_SIDECAR_MCP_LISTEN"].endswith(f":{ports['mcp']}")
    assert sidecar["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert sidecar["readinessProbe"]["httpGet"]["path"] == "/readyz"
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert sidecar[probe]["httpGet"]["port"] in ports
    for c in _pod_spec()["containers"]:
        assert {"cpu", "memory"} <= set(c["resources"]["limits"]), c["name"]
        assert {"cpu", "memory"} <= set(c["resources"]["requests"]), c["name"]
    ctx = sidecar["securityContext"]
    assert ctx["readOnlyRootFilesystem"] is True and ctx["allowPrivilegeEscalation"] is False


def _bytes(size: str) -> int:
    m = re.fullmatch(r"(\d+)(Ki|Mi|Gi|KiB|MiB|GiB)?", size)
    assert m, size
    return int(m.group(1)) * {None: 1, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "KiB": 1 << 10,
                              "MiB": 1 << 20, "GiB": 1 << 30}[m.group(2)]


def test_memory_budgets_fit_the_limit() -> None:
    sidecar = _container(SIDECAR)
    env = {e["name"]: e.get("value") for e in sidecar["env"]}
    limit = _bytes(sidecar["resources"]["limits"]["memory"])
    budgets = _bytes(env["REGISTRY_SIDECAR_CALL_MEMORY_BUDGET"]) + _bytes(env["REGISTRY_SIDECAR_CACHE_BUDGET"])
    assert budgets < limit
    assert _bytes(env["GOMEMLIMIT"]) < limit


def test_sidecar_environment_names_real_flags(sidecar_bin: pathlib.Path) -> None:
    """Every REGISTRY_SIDECAR_* the manifest sets is a variable the binary reads."""
    helptext = subprocess.run([str(sidecar_bin), "serve", "--help"], capture_output=True, text=True, timeout=30).stdout
    for e in _container(SIDECAR)["env"]:
        if e["name"].startswith("REGISTRY_SIDECAR_"):
            assert f"[${e['name']}]" in helptext, e["name"]
