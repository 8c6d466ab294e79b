"""The formula corpus (tests/oracle/formula_corpus.py): every function excelize computes against Calc.

One workbook, thousands of generated formulas, written through the real binary and read back, and
the same formulas set in LibreOffice: no function's pass rate may fall below the committed baseline
(tests/oracle/formula_corpus_baseline.json). The run takes about a minute.
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

import formula_corpus as fc  # noqa: E402 - importable once tests/oracle is on sys.path
from formula_corpus_gen import Case, cases_of, generate  # noqa: E402
from formula_corpus_table import EXCLUDED_FUNCTIONS, FUNCTIONS  # noqa: E402

# One worker runs the whole module (make test's pytest -n --dist loadgroup): the corpus is one
# batch through the binary and LibreOffice, which a second worker would run again.
pytestmark = pytest.mark.xdist_group("formula_corpus")


@pytest.fixture(scope="module")
def corpus_rows(libreoffice: Any, sidecar_bin: pathlib.Path, tmp_path_factory: pytest.TempPathFactory
                ) -> dict[str, dict[str, Any]]:
    """The per-function table of one whole corpus run."""
    outcomes = fc.run_corpus(libreoffice, sidecar_bin, tmp_path_factory.mktemp("corpus"))
    return fc.table(outcomes)


def test_corpus_is_large_and_deterministic() -> None:
    cases = generate()
    assert len(cases) >= 2000, len(cases)
    assert cases == generate()
    formulas = [c.formula for c in cases]
    assert len(set(formulas)) == len(formulas), "a formula is in the corpus twice"


def test_no_pass_rate_falls_below_the_baseline(corpus_rows: dict[str, dict[str, Any]]) -> None:
    baseline = json.loads(fc.BASELINE.read_text())
    worse, stale = [], []
    for fn, row in corpus_rows.items():
        base = baseline.get(fn)
        if base is None or base["cases"] != row["cases"]:
            stale.append(fn)
            if base is None or row["passed"] / row["cases"] >= base["passed"] / base["cases"]:
                continue
        elif row["passed"] >= base["passed"]:
            continue
        ff = row["first_failure"]
        worse.append(f"{fn}: {row['passed']}/{row['cases']} passed, baseline {base['passed']}/{base['cases']}; "
                     f"first failure {ff['formula']}: ours {fc.show_value(ff['ours'])}, Calc {fc.show_value(ff['calc'])}")
    assert not worse, "pass rates below the baseline:\n" + "\n".join(worse)
    gone = sorted(set(baseline) - set(corpus_rows))
    assert not gone and not stale, (
        f"the baseline names other functions or case counts ({gone or stale}): "
        "run `.venv/bin/python tests/oracle/formula_corpus.py --write-baseline` and commit it")


def test_every_function_both_compute_is_covered(libreoffice: Any, tmp_path: pathlib.Path) -> None:
    """Each function excelize computes (docs/FORMULAS.md) that Calc also computes has a table
    entry, or is excluded with a reason."""
    computed = fc.computed_functions()
    in_calc = fc.calc_functions(libreoffice, computed, tmp_path)
    missing = sorted(n for n in in_calc if n not in FUNCTIONS and n not in EXCLUDED_FUNCTIONS)
    assert not missing, f"functions without corpus cases: {missing}"
    assert len(in_calc) > 400, f"Calc named only {len(in_calc)} functions: is the probe broken?"


def case(shape: str = "base") -> Case:
    return Case("F", shape, "=F()")


def ours(value: Any) -> dict[str, Any]:
    return {"formula": "=F()", "value": value}


@pytest.mark.parametrize(("shape", "got", "calc", "want"), [
    ("base", ours(1.5), {"v": 1.5}, True),
    ("base", ours(1.5 + 1e-12), {"v": 1.5}, True),
    ("base", ours(1.5001), {"v": 1.5}, False),
    ("base", ours(True), {"v": 1.0}, False),          # a boolean is not Calc's number
    ("base", ours(True), {"v": 1.0, "b": True}, True),
    ("base", ours(1), {"v": 1.0, "b": True}, False),  # nor a number Calc's boolean
    ("base", ours("1"), {"v": 1.0}, False),
    ("base", ours("a"), {"v": "a"}, True),
    ("base", ours("A"), {"v": "a"}, False),
    ("base", ours("#N/A"), {"e": "#N/A"}, True),
    ("base", ours("#VALUE!"), {"e": "#N/A"}, False),
    ("base", ours("#NUM!"), {"e": "Err:502"}, True),  # Calc's own codes: any error
    ("base", ours(0), {"e": "Err:502"}, False),
    ("base", ours(None), {"v": 1.0}, False),          # no value is a failure
    ("base", ours(None), {"e": "#N/A"}, False),
    ("wrong count", ours(None), {"e": "Err:511"}, True),
    ("wrong count", {"refused": "no"}, {"e": "Err:511"}, True),
    ("wrong count", ours(0), {"e": "Err:511"}, False),
])
def test_agree(shape: str, got: Any, calc: dict[str, Any], want: bool) -> None:
    assert fc.agree(case(shape), got, calc) is want


def test_generator_shapes() -> None:
    """One spec makes the call, its shapes, the optional arguments left out and a wrong count."""
    cases = cases_of("LOG", "100 | 10")
    shapes = {c.shape: c.formula for c in cases}
    assert shapes["base"] == "=LOG(100,10)"
    assert shapes["required only"] == "=LOG(100)"
    assert shapes["wrong count"] == "=LOG()"
    assert sum(s.startswith("arg1 ") for s in shapes) == 5 and sum(s.startswith("arg2 ") for s in shapes) == 2
    assert cases_of("SEQUENCE", "sum: 3")[0].formula == "=SUM(SEQUENCE(3))"
    assert [c.formula for c in cases_of("NOW", ("only:", "=ISNUMBER(NOW())"))] == ["=ISNUMBER(NOW())"]
