"""FORECAST.ETS.CONFINT of a seasonal model, judged by LibreOffice within its own spread.

With a season, Calc (FORECAST.ETS.PI.ADD, which it reads Excel's function as) takes the
interval from 1,000 random paths through the fitted model, drawn anew at every
recalculation; ours draws the same paths every time (a fixed seed,
third_party/excelize/calc_forecast_ets_confint.go). So one Calc value is no reference: each
formula below was computed by LibreOffice 25.2 in 200 cells at once
(tests/oracle/lo_driver.py, FORECAST.ETS.PI.ADD), and LO and HI are the least and greatest
of those 200 values. Ours must lie within them widened by MARGIN on each side; a fresh run
of Calc must too, which shows the recorded spread is still Calc's. Without a season the
interval is a closed form, compared exactly in tests/oracle/cases_functions.py.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

import oracle  # noqa: E402 - importable once tests/oracle is on sys.path
from cases_functions import ETS_DATA  # noqa: E402

BOOK = "book.xlsx"
# MARGIN widens the measured spread on each side (relative): 200 draws are not the whole
# distribution, and the spread of one formula's draws is about 30% of its median.
MARGIN = 0.15
# CALC_COPIES is how many cells the fresh Calc run computes each formula in.
CALC_COPIES = 10

# SERIES adds to ETS_DATA E1:E8, powers of two: a series whose season is detected as none,
# which Calc still simulates (with the seasonality argument left at 1) rather than use the
# closed form of seasonality 0.
SERIES: dict[str, Any] = {**ETS_DATA, **{f"E{i + 1}": 2**i for i in range(8)}}

# SEASONAL: (formula, LO, HI), the spread of 200 LibreOffice 25.2 values.
SEASONAL: list[tuple[str, float, float]] = [
    ("=FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,4)", 0.5957203692187782, 0.7730436537388528),
    ("=FORECAST.ETS.CONFINT(20,B1:B16,A1:A16,0.95,4)", 0.5838879489615678, 0.7845507065968427),
    ("=FORECAST.ETS.CONFINT(18,B1:B16,A1:A16)", 0.5754050354016265, 0.7815120403480549),
    ("=FORECAST.ETS.CONFINT(22.5,B1:B16,A1:A16,0.9,4)", 0.6576881184857566, 0.7971210844442709),
    ("=FORECAST.ETS.CONFINT(19,B1:B16,A1:A16,0.95,3)", 8.072940963923589, 10.355924890591169),
    ("=FORECAST.ETS.CONFINT(30,B1:B16,A1:A16,0.95,4)", 1.0258215405181517, 1.359707057054905),
    ("=FORECAST.ETS.CONFINT(45700,D1:D12,C1:C12)", 0.34904111770004936, 0.43263262318264806),
    ("=FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,4,1,2)", 0.5858946086626311, 0.7576414135660343),
    ("=FORECAST.ETS.CONFINT(10,E1:E8,A1:A8)", 44.15422078896995, 57.65546965454649),
    ("=FORECAST.ETS.CONFINT(12,E1:E8,A1:A8,0.9)", 83.33489324693585, 108.61904044287047),
]


def within(value: Any, lo: float, hi: float) -> bool:
    """Whether value is a number within [lo, hi] widened by MARGIN."""
    return isinstance(value, (int, float)) and lo * (1 - MARGIN) <= value <= hi * (1 + MARGIN)


def call(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one tool through the binary; its payload, which must be a success."""
    proc = subprocess.run([str(sidecar_bin), "call", "--workspace", str(ws), tool, json.dumps(args)],
                          check=False, capture_output=True, text=True, timeout=120)
    payload: dict[str, Any] = json.loads(proc.stdout)
    assert proc.returncode == 0 and payload.get("status") == "success", (proc.returncode, proc.stdout, proc.stderr)
    return payload


def test_seasonal_confint_within_calcs_spread(libreoffice: oracle.LibreOffice, sidecar_bin: pathlib.Path,
                                              tmp_path: pathlib.Path) -> None:
    start = tmp_path / "start.xlsx"
    oracle.build_workbook({"sheets": {"Sheet1": SERIES}}, start)
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / BOOK).write_bytes(start.read_bytes())
    call(sidecar_bin, ws, "write_cells", {"file_path": BOOK, "sheet_name": "Sheet1", "cell_range": "K1",
                                          "values": [[f] for f, _, _ in SEASONAL]})
    read = call(sidecar_bin, ws, "read_excel", {"file_path": BOOK, "sheet_name": "Sheet1",
                                                "range": f"K1:K{len(SEASONAL)}", "max_rows": len(SEASONAL)})
    ours = [row[0] for row in read["values"]]
    wrong = [f"{f}: ours {v!r}, Calc's 200 draws {lo}..{hi}"
             for (f, lo, hi), v in zip(SEASONAL, ours, strict=True) if not within(v, lo, hi)]
    assert not wrong, "\n".join(wrong)

    ops = [{"op": "set", "sheet": "Sheet1", "cell": "K1", "values": [[f] * CALC_COPIES for f, _, _ in SEASONAL]}]
    ans = libreoffice.run(start, ops, only=[f"Sheet1!K1:T{len(SEASONAL)}"])
    cells = ans["sheets"][0]["cells"]
    drift = []
    for i, (f, lo, hi) in enumerate(SEASONAL):
        for col in "KLMNOPQRST"[:CALC_COPIES]:
            got = cells.get(f"{col}{i + 1}", {})
            if not within(got.get("v"), lo, hi):
                drift.append(f"{f}: Calc {oracle.show(got)}, recorded {lo}..{hi}")
    assert not drift, "Calc's values left the recorded spread:\n" + "\n".join(drift)
