"""Every code block of README.md and adapters/python/README.md runs as written.

- shell blocks: `registry-sidecar` command lines run for real (in a temporary
  folder, the built binary on PATH); a block followed by a text block must
  print exactly that text. `make` lines name targets that exist (`make -n`).
  Other commands are listed in COVERED with the test that runs them.
- the Go example is compiled and run as a program of its own, in a temporary
  module outside the repository set up by the README's own commands.
- python blocks run in adapters/python/tests/test_readme.py and test_wheel.py;
  the json block (mcpServers) in test_readme_mcp.py.

And the docs stand alone: no file of the repository refers to documents or
scenarios that are not in it.
"""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
READMES = (ROOT / "README.md", ROOT / "adapters" / "python" / "README.md")
#: Where the README's commands put the checkout.
CHECKOUT_PLACEHOLDER = "/path/to/registry-sidecar"
RUN_TIMEOUT_S = 120
#: Commands the README shows that other tests run, and where.
COVERED = {
    "pip install dist/registry_sidecar-*.whl": "adapters/python/tests/test_wheel.py",
    "python -m registry_sidecar --which": "adapters/python/tests/test_wheel.py",
    "python -m registry_sidecar --version": "adapters/python/tests/test_package.py",
    "REGISTRY_SIDECAR_BIN=$PWD/bin/registry-sidecar .venv/bin/python tests/bench/bench_adapter.py --threads-only":
        "tests/bench/bench_adapter.py",
    "pip install --find-links dist/release registry-sidecar": "tests/python/test_wheels.py",
}


@dataclass(frozen=True)
class Block:
    """One fenced code block of a Markdown file."""

    path: pathlib.Path
    lang: str
    body: str
    #: The text block right after it (what it prints), if any.
    shows: str | None


def blocks(path: pathlib.Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    found = list(re.finditer(r"^```(\w*)\n(.*?)^```\n", text, re.S | re.M))
    out = []
    for i, m in enumerate(found):
        nxt = found[i + 1] if i + 1 < len(found) else None
        shows = None
        if nxt is not None and nxt.group(1) == "text" and not text[m.end() : nxt.start()].strip():
            shows = nxt.group(2)
        out.append(Block(path, m.group(1), m.group(2), shows))
    return out


def all_blocks() -> list[Block]:
    return [b for path in READMES for b in blocks(path)]


def _words(line: str) -> list[str]:
    lex = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lex.whitespace_split = True
    lex.commenters = "#"
    return list(lex)


def commands(block: Block) -> list[list[str]]:
    """The block's simple commands (split at ``&&``, ``||``, ``|`` and ``;``),
    comments dropped and continuation lines joined."""
    out: list[list[str]] = []
    for line in block.body.replace("\\\n", " ").splitlines():
        current: list[str] = []
        for word in _words(line):
            if word in ("&&", "||", "|", ";"):
                out.append(current)
                current = []
            else:
                current.append(word)
        out.append(current)
    return [c for c in out if c]


def _program(cmd: list[str]) -> list[str]:
    """The command without its leading VAR=value assignments."""
    i = 0
    while i < len(cmd) and re.match(r"^[A-Z_]+=", cmd[i]):
        i += 1
    return cmd[i:]


def _runs_binary(block: Block) -> bool:
    return any(_program(c)[:1] == ["registry-sidecar"] for c in commands(block))


def test_every_block_is_a_known_kind() -> None:
    for b in all_blocks():
        assert b.lang in {"sh", "python", "go", "json", "text"}, f"{b.path.name}: a ```{b.lang} block nobody checks"
    top = blocks(READMES[0])
    assert [b.lang for b in top].count("go") == 1, "README.md has one Go example"


def test_shell_commands_are_run_or_covered() -> None:
    """Every shell command is run here (registry-sidecar, make, go) or named
    in COVERED, whose test file exists and runs it."""
    for b in all_blocks():
        if b.lang != "sh":
            continue
        for cmd in commands(b):
            words = _program(cmd)
            if words[0] in ("make", "export", "echo", "registry-sidecar") or words[:2] == ["go", "mod"]:
                continue
            line = " ".join(cmd)
            key = next((k for k in COVERED if line.startswith(k)), None)
            assert key is not None, f"{b.path.name}: no test runs {line!r}"
            assert (ROOT / COVERED[key]).is_file(), COVERED[key]


def test_make_targets_exist() -> None:
    """Each `make ...` the READMEs show names targets and variables that exist
    (a dry run succeeds)."""
    seen = 0
    for b in all_blocks():
        if b.lang != "sh":
            continue
        for cmd in commands(b):
            words = _program(cmd)
            if words[0] != "make":
                continue
            seen += 1
            out = subprocess.run(["make", "-n", *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=60)
            assert out.returncode == 0, f"{cmd}: {out.stderr}"
            for var in (w.split("=", 1)[0] for w in words[1:] if "=" in w):
                assert re.search(rf"^{var}\s*\?=", (ROOT / "Makefile").read_text(), re.M), f"make has no {var}="
    assert seen >= 3


def _sidecar_blocks() -> list[Block]:
    return [b for b in all_blocks() if b.lang == "sh" and _runs_binary(b) and "go mod" not in b.body]


@pytest.mark.parametrize("block", _sidecar_blocks(), ids=lambda b: f"{b.path.parent.name}-{' '.join(commands(b)[-1])[:40]}")
def test_shell_block_runs(block: Block, sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    """The block runs as written in a fresh folder with the built binary on
    PATH and prints what the text block after it shows (or, without one,
    succeeds and prints something)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REGISTRY_SIDECAR_")}
    env["PATH"] = f"{sidecar_bin.parent}{os.pathsep}{env.get('PATH', '')}"
    out = subprocess.run(["bash", "-c", block.body], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=RUN_TIMEOUT_S)
    if block.shows is not None:
        assert out.stdout == block.shows, out.stderr[-2000:]
    else:
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip()


def test_go_example_is_a_program_that_runs_outside_the_repository(tmp_path: pathlib.Path) -> None:
    go = shutil.which("go")
    if go is None:
        pytest.skip("Go is not on PATH")
    top = blocks(READMES[0])
    [setup] = [b for b in top if b.lang == "sh" and "go mod init" in b.body]
    [program] = [b for b in top if b.lang == "go"]
    assert program.shows is not None, "the Go example shows what it prints"
    text = READMES[0].read_text(encoding="utf-8")
    assert "run `go mod tidy && go run .`" in text
    assert CHECKOUT_PLACEHOLDER in setup.body
    module = tmp_path / "demo"
    module.mkdir()
    assert not module.resolve().is_relative_to(ROOT)
    env = {**os.environ, "GOFLAGS": "-mod=mod", "GOWORK": "off"}
    script = setup.body.replace(CHECKOUT_PLACEHOLDER, shlex.quote(str(ROOT)))
    steps = subprocess.run(["bash", "-ec", script], cwd=module, env=env, capture_output=True, text=True,
                           timeout=RUN_TIMEOUT_S)
    assert steps.returncode == 0, steps.stderr
    (module / "main.go").write_text(program.body, encoding="utf-8")
    ran = subprocess.run(["bash", "-ec", "go mod tidy && go run ."], cwd=module, env=env, capture_output=True,
                         text=True, timeout=600)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert ran.stdout == program.shows
    assert (module / "workspace" / "demo.xlsx").is_file()


# References to material outside the repository, written so that this file
# does not match them itself.
OUTSIDE = [
    re.compile(p, re.I)
    for p in (
        "DESIGN" + r"\s*§",
        "DESIGN" + r"\.md",
        r"\bseed" + r" (documents?|scenarios?|\d{3})",
        r"\bscenarios?" + r" (\d{3}|3[abc])",
        r"\bissues?" + r" #?\d+",
        "/work/" + "shared",
    )
]


def test_docs_stand_alone() -> None:
    """No file of the repository points at documents, issues or scenarios
    that are not in it."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True, timeout=60).stdout.decode().split("\0")
    hits = []
    for name in filter(None, listed):
        path = ROOT / name
        if name.startswith(".ci/") or not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            hits += [f"{name}:{n}: {line.strip()[:100]}" for p in OUTSIDE if p.search(line)]
    assert not hits, "references to material outside the repository:\n" + "\n".join(hits)


def test_excelmanus_is_introduced_with_a_link() -> None:
    for path in READMES:
        text = path.read_text(encoding="utf-8")
        first = text.index("excelmanus")
        assert text[first - 1 : first + len("excelmanus](https://github.com/kilolonion/excelmanus)")] == (
            "[excelmanus](https://github.com/kilolonion/excelmanus)"
        ), f"{path.name}: the first mention of excelmanus links to it"
