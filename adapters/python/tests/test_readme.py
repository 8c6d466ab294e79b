"""The README's examples run as written against the real binary: the ten-line
example, and every other example, each printing what the README shows."""

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


def test_every_python_block_is_checked() -> None:
    """Every python block is the ten-line example or shows its output."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    shown = [code for code, _ in guide_examples()]
    assert blocks[1:] == shown, "a python block after the first is not followed by the text block it prints"


GUIDE_RULES = (
    "**A tool fails non-recoverably**",
    "**The model asks for a tool that does not exist**",
    "**The arguments fail validation**",
    "**Fallback routing**",
    "**Legacy failures are tool errors**",
)


def test_porting_guide_has_one_example_per_rule() -> None:
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
    for rule in GUIDE_RULES:
        assert rule in guide, rule
    assert len(re.findall(r"```python\n", guide)) == len(GUIDE_RULES)


def _example_id(code: str) -> str:
    first = code.strip().splitlines()[-1]
    return re.sub(r"\W+", "-", first)[:40].strip("-")


@pytest.mark.parametrize(("code", "want"), guide_examples(), ids=[_example_id(c) for c, _ in guide_examples()])
def test_readme_example_prints_what_it_shows(
    code: str, want: str, sidecar_binary: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    """Each example runs as written, in a fresh interpreter, and prints exactly
    what the README shows after it."""
    (tmp_path / "workspace").mkdir()
    env = {**os.environ, "REGISTRY_SIDECAR_BIN": str(sidecar_binary)}
    env.pop("REGISTRY_SIDECAR_MESSAGE_PROFILE", None)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == want
