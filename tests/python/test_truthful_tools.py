"""Tools that report truthfully, end to end: the real binary, checked with openpyxl.

Merges don't eat data, no surprise sheets or files, Excel's limits are
errors, dates round-trip, and every schema property is described.
"""

from __future__ import annotations

import datetime
import json
import pathlib
import subprocess
from typing import Any

import openpyxl
import pytest

from registry_sidecar import Client, Sidecar


def run(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Run one tool through `registry-sidecar call`; return the exit code and payload."""
    proc = subprocess.run(
        [str(sidecar_bin), "call", "--workspace", str(ws), tool, json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, json.loads(proc.stdout)


def ok(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    code, payload = run(sidecar_bin, ws, tool, args)
    assert code == 0 and payload["status"] == "success", payload
    return payload


def fail(sidecar_bin: pathlib.Path, ws: pathlib.Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    code, payload = run(sidecar_bin, ws, tool, args)
    assert code == 3 and payload["status"] == "error", payload
    assert payload["error_code"] == "TOOL_EXECUTION_ERROR", payload
    return payload


@pytest.fixture()
def ws(tmp_path: pathlib.Path) -> pathlib.Path:
    """A workspace holding book.xlsx: sheets Data (a 2x4 block) and Copy."""
    wb = openpyxl.Workbook()
    data = wb.active
    assert data is not None
    data.title = "Data"
    data.append(["title", "b1", "c1", "d1"])
    data.append(["a2", 2, None, None])
    wb.create_sheet("Copy")
    wb.save(tmp_path / "book.xlsx")
    return tmp_path


def load(ws: pathlib.Path, name: str = "book.xlsx") -> Any:
    return openpyxl.load_workbook(ws / name)


# --- 3. merges don't eat data ------------------------------------------------


def test_merge_over_values_is_refused_then_discards_only_when_asked(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    args: dict[str, Any] = {"file_path": "book.xlsx", "sheet_name": "Data", "cell_range": "A1:B2"}
    got = fail(sidecar_bin, ws, "merge_cells", args)
    assert got["exception"] == "ValueError"
    assert 'B1="b1", A2="a2", B2=2' in got["message"]
    sheet = load(ws)["Data"]
    assert not sheet.merged_cells.ranges
    assert sheet["B1"].value == "b1" and sheet["B2"].value == 2

    got = ok(sidecar_bin, ws, "merge_cells", {**args, "discard_values": True})
    assert got["merged_range"] == "A1:B2"
    assert got["discarded"] == [{"cell": "B1", "value": "b1"}, {"cell": "A2", "value": "a2"}, {"cell": "B2", "value": 2}]
    sheet = load(ws)["Data"]
    assert [str(r) for r in sheet.merged_cells.ranges] == ["A1:B2"]
    assert sheet["A1"].value == "title"
    assert sheet["C1"].value == "c1"  # outside the merge: untouched


def test_merge_across_an_existing_merge_reports_what_the_sheet_holds(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    base = {"file_path": "book.xlsx", "sheet_name": "Copy"}
    ok(sidecar_bin, ws, "merge_cells", {**base, "cell_range": "B1:C2"})
    got = fail(sidecar_bin, ws, "merge_cells", {**base, "cell_range": "C1:D2"})
    assert "partly overlaps the merged range(s) B1:C2" in got["message"]
    assert [str(r) for r in load(ws)["Copy"].merged_cells.ranges] == ["B1:C2"]
    got = ok(sidecar_bin, ws, "merge_cells", {**base, "cell_range": "A1:D2"})
    assert got["merged_range"] == "A1:D2" and got["replaced_merges"] == ["B1:C2"]
    assert [str(r) for r in load(ws)["Copy"].merged_cells.ranges] == ["A1:D2"]


# --- 4. no surprise sheets or files --------------------------------------------


def test_copy_to_a_misspelt_sheet_suggests_and_creates_nothing(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    args: dict[str, Any] = {"source_file": "book.xlsx", "source_sheet": "Data", "source_range": "A1:B2", "target_sheet": "Cpoy"}
    got = fail(sidecar_bin, ws, "copy_range_between_sheets", args)
    assert got["exception"] == "KeyError"
    assert got["message"] == 'Worksheet Cpoy does not exist. Available sheets: Data, Copy. Did you mean "Copy"? Pass create: true to create it.'
    assert load(ws).sheetnames == ["Data", "Copy"]
    got = ok(sidecar_bin, ws, "copy_range_between_sheets", {**args, "create": True})
    assert got["target"]["sheet_created"] is True
    assert load(ws).sheetnames == ["Data", "Copy", "Cpoy"]


def test_missing_file_gets_did_you_mean_and_no_new_file(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    (ws / "book.xlsx").rename(ws / "sales.xlsx")
    got = fail(sidecar_bin, ws, "write_cells", {"file_path": "Sales.xlsx", "cell": "A1", "value": 1})
    assert got["exception"] == "FileNotFoundError"
    assert 'Did you mean "sales.xlsx"?' in got["message"] and "create: true" in got["message"]
    assert not (ws / "Sales.xlsx").exists()
    got = fail(sidecar_bin, ws, "read_excel", {"file_path": "Sales.xlsx", "sheet_name": "Data"})
    assert got["message"] == 'file not found: Sales.xlsx. Did you mean "sales.xlsx"?'
    got = fail(sidecar_bin, ws, "read_excel", {"file_path": "sales.xlsx", "sheet_name": "data2"})
    assert got["exception"] == "KeyError" and 'Did you mean "Data"?' in got["message"]


# --- 5. Excel's limits are errors, never truncation ----------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"cell": "C3", "value": "=" + "1+" * 4096 + "1"}, "C3: formula of 8,194 characters is longer than Excel's limit of 8,192 characters; nothing was written"),
        ({"cell": "D4", "value": "y" * 32768}, "D4: text of 32,768 characters is longer than Excel's limit of 32,767 characters per cell; nothing was written"),
        ({"cell": "A1048577", "value": 1}, 'cell "A1048577" is past Excel\'s last row 1,048,576'),
        ({"cell": "XFE1", "value": 1}, 'cell "XFE1" is past Excel\'s last column XFD (16,384 columns)'),
        ({"cell_range": "XFD1", "values": [[1, 2]]}, "past Excel's last column XFD (16,384); nothing was written"),
    ],
    ids=["formula", "text", "row", "column", "block"],
)
def test_limits_are_value_errors_and_nothing_is_written(
    sidecar_bin: pathlib.Path, ws: pathlib.Path, args: dict[str, Any], message: str
) -> None:
    before = (ws / "book.xlsx").read_bytes()
    got = fail(sidecar_bin, ws, "write_cells", {"file_path": "book.xlsx", "sheet_name": "Data", **args})
    assert got["exception"] == "ValueError"
    assert message in got["message"]
    assert (ws / "book.xlsx").read_bytes() == before


def test_five_mib_of_text_over_the_websocket_is_refused(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    """The issue's case, through a launched sidecar and the Python client."""
    before = (ws / "book.xlsx").read_bytes()
    with Sidecar.launch(ws, binary=sidecar_bin) as sc, Client(sc.url, token=sc.token, sidecar=sc) as client:
        res = client.call_tool("write_cells", {"file_path": "book.xlsx", "sheet_name": "Data", "cell": "B2", "value": "x" * (5 << 20)})
        assert res.is_error
        payload = json.loads(res.text)
        assert payload["exception"] == "ValueError"
        assert payload["message"] == (
            "B2: text of 5,242,880 characters is longer than Excel's limit of 32,767 characters per cell; nothing was written"
        )
        text = "é" * 32767  # exactly at the limit: stored whole
        res = client.call_tool("write_cells", {"file_path": "book.xlsx", "sheet_name": "Data", "cell": "E1", "value": text})
        assert not res.is_error, res.text
    assert before != (ws / "book.xlsx").read_bytes()
    assert load(ws)["Data"]["E1"].value == text


# --- 6. dates round-trip --------------------------------------------------------


def test_iso_dates_are_real_dates_for_openpyxl(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    got = ok(sidecar_bin, ws, "write_cells", {
        "file_path": "book.xlsx", "sheet_name": "Data", "cell_range": "A4",
        "values": [["2024-01-31", "2024-01-31T13:45:30", "13:45:00", "'2024-01-31", "1850-06-01"]],
    })
    assert got["dates_written"] == 3
    sheet = load(ws)["Data"]
    assert sheet["A4"].value == datetime.datetime(2024, 1, 31) and sheet["A4"].is_date
    assert sheet["B4"].value == datetime.datetime(2024, 1, 31, 13, 45, 30)
    assert sheet["C4"].value == datetime.time(13, 45)
    assert sheet["D4"].value == "2024-01-31" and sheet["D4"].data_type == "s"
    assert sheet["E4"].value == "1850-06-01"  # before 1900: Excel keeps it as text
    text = ok(sidecar_bin, ws, "write_cells", {
        "file_path": "book.xlsx", "sheet_name": "Data", "cell": "F4", "value": "2024-01-31", "value_types": "text",
    })
    assert "dates_written" not in text
    assert load(ws)["Data"]["F4"].value == "2024-01-31"


def test_read_modify_write_keeps_dates(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    wb = load(ws)
    sheet = wb["Data"]
    sheet["A5"] = datetime.datetime(2023, 7, 4, 9, 30)
    sheet["A5"].number_format = "dd/mm/yyyy hh:mm"
    sheet["B5"] = datetime.date(2022, 12, 25)
    wb.save(ws / "book.xlsx")
    read = ok(sidecar_bin, ws, "read_excel", {"file_path": "book.xlsx", "sheet_name": "Data", "range": "A5:B5"})
    assert read["values"] == [["2023-07-04T09:30:00", "2022-12-25T00:00:00"]]
    ok(sidecar_bin, ws, "write_cells", {"file_path": "book.xlsx", "sheet_name": "Data", "cell_range": "A5", "values": read["values"]})
    sheet = load(ws)["Data"]
    assert sheet["A5"].value == datetime.datetime(2023, 7, 4, 9, 30)
    assert sheet["A5"].number_format == "dd/mm/yyyy hh:mm"  # the cell's own date format is kept
    assert sheet["B5"].value == datetime.datetime(2022, 12, 25)
    assert sheet["B5"].is_date


# --- 7. schemas a model can follow ----------------------------------------------


def undescribed(path: str, node: Any, is_property: bool) -> list[str]:
    """Every property under node without a description, and every open object."""
    if not isinstance(node, dict):
        return []
    gaps = []
    if is_property and not str(node.get("description", "")).strip():
        gaps.append(f"{path}: no description")
    props = node.get("properties")
    if isinstance(props, dict):
        if node.get("additionalProperties") is not False:
            gaps.append(f"{path}: unknown keys accepted")
        for name, sub in props.items():
            gaps += undescribed(f"{path}.{name}", sub, True)
    elif node.get("type") == "object" and not isinstance(node.get("additionalProperties"), dict):
        gaps.append(f"{path}: object without properties")
    gaps += undescribed(f"{path}[]", node.get("items"), False)
    for key in ("anyOf", "oneOf", "allOf"):
        for i, branch in enumerate(node.get(key, [])):
            gaps += undescribed(f"{path}.{key}[{i}]", branch, False)
    for name, sub in node.get("$defs", {}).items():
        gaps += undescribed(f"{path}.$defs.{name}", sub, False)
    return gaps


def test_every_property_of_every_listed_tool_is_described(sidecar_bin: pathlib.Path, tmp_path: pathlib.Path) -> None:
    proc = subprocess.run([str(sidecar_bin), "tools", "--format", "json"], capture_output=True, text=True, timeout=60, check=True)
    tools = json.loads(proc.stdout)
    assert len(tools) >= 18
    gaps = [g for t in tools for g in undescribed(t["name"], t["inputSchema"], False)]
    assert gaps == []
    # The same schemas over the WebSocket (tools/list), as an agent gets them.
    with Sidecar.launch(tmp_path, binary=sidecar_bin) as sc, Client(sc.url, token=sc.token, sidecar=sc) as client:
        listed = {t["name"]: t["inputSchema"] for t in client.list_tools()}
    fmt = listed["format_cells"]["properties"]
    assert fmt["border"]["properties"]["left"]["properties"]["style"]["enum"][:3] == ["none", "thin", "medium"]
    assert "description" in fmt["font"]["properties"]["color"]


def test_off_list_values_and_bad_ranges_say_what_is_accepted(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    code, got = run(sidecar_bin, ws, "format_cells", {
        "file_path": "book.xlsx", "cell_range": "A1", "alignment": {"horizontal": "middle"},
    })
    assert code == 3 and got["error_code"] == "TOOL_ARGUMENT_VALIDATION_ERROR"
    assert any(v.startswith("$.alignment.horizontal") for v in got["violations"]), got
    got = fail(sidecar_bin, ws, "read_excel", {"file_path": "book.xlsx", "range": "A:A"})
    assert got["exception"] == "ValueError"
    assert got["message"].startswith('invalid cell range "A:A": use a cell such as "A1" or a rectangle such as "A1:C3"')


def test_rule_format_takes_format_cells_font(sidecar_bin: pathlib.Path, ws: pathlib.Path) -> None:
    """format: {"font": {...}}, once refused, works over the WebSocket; a guessed key gets the accepted ones."""
    with Sidecar.launch(ws, binary=sidecar_bin) as sc, Client(sc.url, token=sc.token, sidecar=sc) as client:
        res = client.call_tool("add_conditional_rule", {
            "file_path": "book.xlsx", "sheet_name": "Data", "cell_range": "B2:B2", "rule_type": "cell_is",
            "operator": "greaterThan", "values": [1], "format": {"font": {"color": "red", "bold": True}},
        })
        assert not res.is_error, res.text
        guessed = client.call_tool("add_conditional_rule", {
            "file_path": "book.xlsx", "sheet_name": "Data", "cell_range": "B2:B2", "rule_type": "cell_is",
            "operator": "greaterThan", "values": [1], "format": {"font": {"colour": "red"}},
        })
    rules = [rule for cf in openpyxl.load_workbook(ws / "book.xlsx")["Data"].conditional_formatting for rule in cf.rules]
    assert len(rules) == 1 and rules[0].dxf is not None
    assert rules[0].dxf.font.b and rules[0].dxf.font.color.rgb.endswith("FF0000")
    assert guessed.is_error
    got = json.loads(guessed.text)
    assert got["error_code"] == "TOOL_ARGUMENT_VALIDATION_ERROR"
    assert any(v.startswith("$.format.font.colour") for v in got["violations"]), got
    assert got["nested_accepted_fields"]["$.format.font"] == ["bold", "color", "italic", "name", "size", "strike", "underline"]
