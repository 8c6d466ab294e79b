"""The README's ten-line example runs as written against the real binary."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_runs(sidecar_binary: pathlib.Path, tmp_path: pathlib.Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "README has no python example"
    code = blocks[0]
    assert len(code.strip().splitlines()) <= 10
    (tmp_path / "workspace").mkdir()
    env = {**os.environ, "REGISTRY_SIDECAR_BIN": str(sidecar_binary)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
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
