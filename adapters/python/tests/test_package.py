"""The package surface: version, entry point, exports, ToolDef schemas."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

import registry_sidecar
from registry_sidecar import ToolDef, __version__
from registry_sidecar.__main__ import main


def test_python_m_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "registry_sidecar", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout == f"registry-sidecar (python) {__version__} protocol 1\n"


def test_which_reports_the_binary(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = tmp_path / "registry-sidecar"
    fake.write_text("#!/bin/sh\necho 'registry-sidecar 9.9.9 protocol 1'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("REGISTRY_SIDECAR_BIN", str(fake))
    assert main(["--which"]) == 0
    assert capsys.readouterr().out == f"{fake}\nregistry-sidecar 9.9.9 protocol 1\n"
    monkeypatch.setenv("REGISTRY_SIDECAR_BIN", str(tmp_path / "missing"))
    assert main(["--which"]) == 1


def test_public_api_is_exported() -> None:
    for name in registry_sidecar.__all__:
        assert hasattr(registry_sidecar, name), name
    for name in [
        "Sidecar",
        "AsyncClient",
        "Client",
        "ToolRegistry",
        "ToolNotFoundError",
        "ToolNotAllowedError",
        "CallResult",
    ]:
        assert name in registry_sidecar.__all__


@pytest.mark.parametrize(
    ("mode", "want"),
    [
        ("responses", {"type": "function", "name": "t", "description": "d", "parameters": {"type": "object"}}),
        (
            "chat_completions",
            {"type": "function", "function": {"name": "t", "description": "d", "parameters": {"type": "object"}}},
        ),
    ],
)
def test_tooldef_openai_schema(mode: Any, want: dict[str, Any]) -> None:
    assert ToolDef("t", "d", {"type": "object"}).to_openai_schema(mode) == want


def test_tooldef_rejects_unknown_mode() -> None:
    with pytest.raises(ValueError, match="unsupported OpenAI schema mode: 'xml'"):
        ToolDef("t", "d").to_openai_schema("xml")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"recovery": "relaunch"}, "needs sidecar"), ({"recovery": "sometimes"}, "unknown recovery")],
)
def test_client_options_are_checked(kwargs: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        registry_sidecar.Client("ws://127.0.0.1:1/ws", **kwargs)
    with pytest.raises(ValueError, match=error):
        registry_sidecar.AsyncClient("ws://127.0.0.1:1/ws", **kwargs)
