"""The README's examples run as written against the real binary: the ten-line
example, and the porting guide's examples, each printing what the README shows."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_runs(sidecar_binary: pathlib.Path, tmp_path: pathlib.Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "README has no python example"
    code = blocks[0]
    assert len(code.strip().splitlines()) <= 10
    (tmp_path / "workspace").mkdir()
    env = {**os.environ, "REGISTRY_SIDECAR_BIN": str(sidecar_binary)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "write_cells" in lines[0]
    assert json.loads(lines[1])["status"] == "success"
    assert json.loads(lines[2])["rows"] == [["apple", 3]]
    assert (tmp_path / "workspace" / "demo.xlsx").is_file()


def test_top_level_readme_shows_the_same_example() -> None:
    top = README.parents[2] / "README.md"
    ours = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)[0]
    theirs = re.findall(r"```python\n(.*?)```", top.read_text(encoding="utf-8"), re.S)
    assert ours in theirs, "README.md's Python example drifted from adapters/python/README.md"


def guide_examples() -> list[tuple[str, str]]:
    """The README's examples that show their output: a python block followed
    by a text block with what it prints."""
    text = README.read_text(encoding="utf-8")
    return re.findall(r"```python\n((?:(?!```).)*?)```\s*\n```text\n(.*?)```", text, re.S)


def test_porting_guide_has_one_example_per_seed_scenario() -> None:
    text = README.read_text(encoding="utf-8")
    guide = text[text.index("## Porting a TypeScript executor") :]
    for name in (
        "executeJob",
        "criticalToolFailureInfo",
        "lastFailureSummary",
        "ToolError",
        "DomainError",
        "isRecoverable",
        "history entries",
    ):
        assert name in guide, name
    for scenario in ("**3a.", "**3b.", "**3c.", "**003. Fallback routing", "**003. Legacy failures"):
        assert scenario in guide, scenario
    assert len(guide_examples()) == 5


@pytest.mark.parametrize(("code", "want"), guide_examples(), ids=["3a", "3b", "3c", "003-routing", "003-legacy"])
def test_porting_guide_example_runs(code: str, want: str, sidecar_binary: pathlib.Path, tmp_path: pathlib.Path) -> None:
    """Each example runs as written, in a fresh interpreter, and prints exactly
    what the README shows after it."""
    (tmp_path / "workspace").mkdir()
    env = {**os.environ, "REGISTRY_SIDECAR_BIN": str(sidecar_binary)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == want
