"""The committed corpus sample through the real binary: the figures never get worse than baseline.json.

Also the rules the harness judges by, table-driven: which references a formula holds, which
parts name a sheet, which formulas may see a written cell or span an inserted row.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
from typing import Any

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402
import rules  # noqa: E402

ROOT = HERE.parents[1]


@pytest.fixture(scope="module")
def sidecar_bin() -> pathlib.Path:
    """The registry-sidecar binary: $REGISTRY_SIDECAR_BIN, else built into bin/."""
    env = os.environ.get("REGISTRY_SIDECAR_BIN")
    if env:
        return pathlib.Path(env)
    out = ROOT / "bin" / "registry-sidecar"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/registry-sidecar"], cwd=ROOT, check=True)
    return out


@pytest.mark.parametrize(
    ("formula", "own", "want"),
    [
        ("SUM(A1:B2)", "S", [("S", 1, 1, 2, 2)]),
        ("Sheet2!$C$3*2", "S", [("Sheet2", 3, 3, 3, 3)]),
        ("'My ''Sheet'!A:A", "S", [("My 'Sheet", 1, 1, 1048576, 1)]),
        ("SUM(3:5)", "S", [("S", 3, 1, 5, 16384)]),
        ('"A1"&B2', "S", [("S", 2, 2, 2, 2)]),
        ("LOG10(2)", "S", []),
    ],
)
def test_references(formula: str, own: str, want: list[tuple[str, int, int, int, int]]) -> None:
    assert rules.references(formula, own) == want


@pytest.mark.parametrize(
    ("xml", "name", "want"),
    [
        (b"<f>Data!A1</f>", "Data", True),
        (b"<f>'My Data'!A1</f>", "My Data", True),
        (b"<f>&apos;My Data&apos;!A1</f>", "My Data", True),
        (b'<worksheetSource ref="A1:B2" sheet="Data"/>', "Data", True),
        (b"<f>OtherData!A1</f>", "Data", True),
        (b"<f>Other!A1</f>", "Data", False),
    ],
)
def test_sheet_ref_pattern(xml: bytes, name: str, want: bool) -> None:
    # "OtherData!" contains "Data!": the rule is loose on purpose (a floor on the count)
    assert bool(rules.sheet_ref_pattern(name).search(xml)) is want


@pytest.mark.parametrize(
    ("formula", "row", "col", "want"),
    [
        ("SUM(A1:A9)", 10, 1, False),
        ("SUM(A1:A10)", 10, 1, True),
        ("SUM(A:A)", 10, 1, True),
        ("Other!A10", 10, 1, False),
        ("total*2", 10, 1, True),
        ("Table1[[#This Row],[x]]", 10, 1, True),
        ("ROW()", 10, 1, True),
    ],
)
def test_may_see(formula: str, row: int, col: int, want: bool) -> None:
    assert rules.may_see(formula, "S", "S", row, col, {"total"}) is want


@pytest.mark.parametrize(
    ("formula", "want"),
    [
        ("SUM(B1:B2)", True),
        ("SUM(B2:B9)", False),
        ("B1:C1*B2:C2", False),
        ("Other!B1:B9", False),
    ],
)
def test_spans(formula: str, want: bool) -> None:
    assert rules.spans(formula, "S", "S", 2) is want


STYLES = (b'<styleSheet xmlns="m"><fonts count="1"><font><sz val="11"/></font></fonts>'
          b'<cellXfs count="1"><xf fontId="0"/></cellXfs><dxfs count="0"/><extLst/></styleSheet>')


@pytest.mark.parametrize("new,want", [
    # records appended to two lists, an empty list written out, counts updated
    (b'<styleSheet xmlns="m"><fonts count="2"><font><sz val="11"/></font><font><b/></font></fonts>'
     b'<cellXfs count="2"><xf fontId="0"/><xf fontId="1"></xf></cellXfs><dxfs count="1"><dxf/></dxfs><extLst/></styleSheet>', True),
    # a list the original lacked, inserted where the schema puts it
    (b'<styleSheet xmlns="m"><numFmts count="1"><numFmt numFmtId="164"/></numFmts><fonts count="1"><font><sz val="11"/></font></fonts>'
     b'<cellXfs count="1"><xf fontId="0"/></cellXfs><dxfs count="0"/><extLst/></styleSheet>', True),
    (STYLES, True),
    # re-serialised: an original record rewritten
    (b'<styleSheet xmlns="m"><fonts count="1"><font><sz val="11"></sz></font></fonts>'
     b'<cellXfs count="1"><xf fontId="0"/></cellXfs><dxfs count="0"/><extLst/></styleSheet>', False),
    # a record inserted before the original ones
    (b'<styleSheet xmlns="m"><fonts count="2"><font><b/></font><font><sz val="11"/></font></fonts>'
     b'<cellXfs count="1"><xf fontId="0"/></cellXfs><dxfs count="0"/><extLst/></styleSheet>', False),
    # something dropped at the end
    (b'<styleSheet xmlns="m"><fonts count="1"><font><sz val="11"/></font></fonts>'
     b'<cellXfs count="1"><xf fontId="0"/></cellXfs><dxfs count="0"/></styleSheet>', False),
])
def test_appended_only(new: bytes, want: bool) -> None:
    assert rules.appended_only(STYLES, new) is want
    assert rules.is_list_part(new)


def test_sample_not_worse_than_baseline(sidecar_bin: pathlib.Path) -> None:
    """The sample's figures, with LibreOffice judging every recomputed value where it is installed
    (make test installs it)."""
    lo = corpus.open_judge()
    try:
        results = corpus.run(corpus.SAMPLE, sidecar_bin, jobs=2, lo=lo)
    finally:
        if lo is not None:
            lo.close()
    summary = corpus.summarise(results)
    assert summary["files"] >= 60
    assert not summary["unreadable"]
    if lo is not None:
        assert summary["write_input"]["recomputed_cells"] > 0, "LibreOffice judged some recomputed value"
    baseline = json.loads(corpus.BASELINE.read_text())
    worse = corpus.regressions(summary, results, baseline)
    assert not worse, "worse than tests/corpus/baseline.json (regenerate with --update only when better):\n" + "\n".join(worse)


def _result(unexpected: list[str], drift: list[str]) -> dict[str, dict[str, list[str]]]:
    return {t: {"errors": [], "unexpected": unexpected if t == "insert_rows" else [], "drift": drift if t == "insert_rows" else []} for t in corpus.TOOLS}


@pytest.mark.parametrize(
    ("now", "worse"),
    [
        ({"a.xlsx": _result(["S: xl/styles.xml"], [])}, []),
        ({"a.xlsx": _result([], [])}, []),
        ({"a.xlsx": _result(["S: xl/styles.xml", "S: _rels/.rels"], [])}, ["insert_rows a.xlsx new unexpected: ['S: _rels/.rels']"]),
        ({"a.xlsx": _result(["S: xl/styles.xml"], []), "b.xlsx": _result(["S: xl/styles.xml"], ["x"])},
         ["insert_rows files_unexpected: 2 > baseline 1", "insert_rows drift_cells: 1 > baseline 0", "insert_rows files_drift: 1 > baseline 0",
          "insert_rows b.xlsx new unexpected: ['S: xl/styles.xml']", "insert_rows b.xlsx new drift: ['x']"]),
    ],
)
def test_regressions(now: dict[str, dict[str, Any]], worse: list[str]) -> None:
    was = {"a.xlsx": _result(["S: xl/styles.xml"], [])}
    baseline = corpus.baseline_of(corpus.summarise(was), was)
    assert corpus.regressions(corpus.summarise(now), now, baseline) == worse


def _calls(*ran: tuple[str | None, str | None, float]) -> dict[str, dict[str, Any]]:
    res: dict[str, dict[str, Any]] = {t: dict(r) for t, r in _result([], []).items()}
    res["write_cells"]["calls"] = [{"sheet": "S", "path": p, "reason": r, "seconds": s} for p, r, s in ran]
    return res


def test_paths_summary() -> None:
    now = {
        "a.xlsx": _calls(("splice", None, 0.1), ("excelize", "a formula to recompute reads a defined name", 0.3)),
        "b.xlsx": _calls(("excelize", "a formula to recompute reads a defined name", 1.5), (None, None, 0.2)),
    }
    got = corpus.summarise(now)["write_cells"]
    assert got["splice_share"] == round(1 / 3, 4)
    assert got["saves"] == 3
    assert got["fallback_reasons"] == {"a formula to recompute reads a defined name": 2}
    assert got["max_seconds"] == 1.5
    assert got["slowest_file"] == "b.xlsx [S]"


@pytest.mark.parametrize(
    ("paths", "worse"),
    [
        (["splice", "splice"], []),
        (["splice", "excelize"], ["write_cells splice_share: 0.5 < baseline 1.0"]),
    ],
)
def test_share_must_not_fall(paths: list[str], worse: list[str]) -> None:
    was = {"a.xlsx": _calls(("splice", None, 0.1)), "b.xlsx": _calls(("splice", None, 0.1))}
    baseline = corpus.baseline_of(corpus.summarise(was), was)
    now = {n: _calls((p, None if p == "splice" else "x", 0.1)) for n, p in zip(("a.xlsx", "b.xlsx"), paths, strict=True)}
    assert corpus.regressions(corpus.summarise(now), now, baseline) == worse


def test_save_path_reads_the_debug_log() -> None:
    stderr = "\n".join([
        "not json",
        json.dumps({"level": "debug", "msg": "splice declined; taking the excelize path", "splice_fallback": "rows out of order"}),
        json.dumps({"level": "debug", "msg": "workbook saved", "path": "excelize", "splice_fallback": "rows out of order"}),
    ])
    assert corpus.save_path(stderr) == {"path": "excelize", "reason": "rows out of order"}
    assert corpus.save_path(json.dumps({"msg": "workbook saved", "path": "splice"})) == {"path": "splice", "reason": None}


@pytest.mark.parametrize(
    ("ours", "calc", "want"),
    [
        ("1030", {"v": 1030.0}, True),
        ("630", {"v": 1030.0}, False),
        ("0.1", {"v": 0.1 + 1e-17}, True),
        ("#REF!", {"e": "#REF!"}, True),
        ("0", {"e": "#REF!"}, False),
        ("TRUE", {"v": 1}, True),
        ("FALSE", {"v": 1}, False),
        ("text", {"v": "text"}, True),
        (" text", {"v": "text"}, False),
    ],
)
def test_judge_agree(ours: str, calc: dict[str, Any], want: bool) -> None:
    import judge

    assert judge.agree(ours, calc) is want
