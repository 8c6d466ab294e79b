"""End to end against the real binary: every tool, many threads, big results."""

from __future__ import annotations

import json
import pathlib
import subprocess
import threading
from typing import Any

import pytest

from registry_sidecar import Client, Sidecar, ToolNotAllowedError, ToolNotFoundError, ToolRegistry
from registry_sidecar.payloads import timeout_payload

# The --test-tools set: arguments, and what the payload must say.
TEST_TOOL_CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "echo",
        {"value": {"表": ["📊", 1.5, None, True]}},
        {"status": "success", "value": {"表": ["📊", 1.5, None, True]}},
    ),
    ("add", {"a": 40, "b": 2}, {"status": "success", "sum": 42}),
    ("sleep", {"ms": 20}, {"status": "success", "slept_ms": 20}),
    # slow waits the maximum without ms: listed here so test_every_listed_tool
    # does not call it with empty arguments and wait out the call's timeout.
    ("slow", {"ms": 20}, {"status": "success", "slept_ms": 20}),
    (
        "fail",
        {"exception": "KeyError", "message": "'k'"},
        {"error_code": "TOOL_EXECUTION_ERROR", "exception": "KeyError"},
    ),
    ("fail", {"exception": "OSError", "message": "disk", "fatal": True}, {"error_code": "TOOL_FATAL_ERROR"}),
    ("panic", {"kind": "string"}, {"error_code": "TOOL_INTERNAL_ERROR", "exception": "RuntimeError"}),
    ("panic", {"kind": "error"}, {"error_code": "TOOL_INTERNAL_ERROR"}),
    ("panic", {"kind": "nil"}, {"error_code": "TOOL_INTERNAL_ERROR"}),
    (
        "fallback",
        {"to": "CHAT_SERVICE", "reason": "PREVIEW_MODE"},
        {"status": "fallback", "use_fallback": True, "fallback_to": "CHAT_SERVICE"},
    ),
    ("big", {"items": 3, "text": "ab"}, {"status": "success", "items": ["ab", "ab", "ab"]}),
    ("env_error", {"kind": "not_found"}, {"exception": "FileNotFoundError"}),
    ("env_error", {"kind": "permission"}, {"exception": "PermissionError"}),
    ("env_error", {"kind": "exists"}, {"exception": "FileExistsError"}),
    ("env_error", {"kind": "timeout"}, {"exception": "TimeoutError"}),
    ("env_error", {"kind": "value"}, {"exception": "ValueError"}),
]
TEST_TOOLS = {name for name, _, _ in TEST_TOOL_CASES}

# A spreadsheet session touching every spreadsheet tool, in order; each call
# must succeed. F = the workbook the session edits.
F = "book.xlsx"
SHEET_SESSION: list[tuple[str, dict[str, Any]]] = [
    ("list_sheets", {"file_path": F}),
    (
        "write_cells",
        {
            "file_path": F,
            "sheet_name": "Sheet1",
            "cell_range": "A1:B3",
            "values": [["名称", "数量"], ["苹果", 3], ["梨", 5]],
        },
    ),
    ("write_cells", {"file_path": F, "sheet_name": "Sheet1", "cell": "B4", "value": "=SUM(B2:B3)"}),
    ("read_excel", {"file_path": F, "sheet_name": "Sheet1"}),
    ("insert_rows", {"file_path": F, "sheet_name": "Sheet1", "row": 10}),
    ("insert_columns", {"file_path": F, "sheet_name": "Sheet1", "column": 5}),
    ("delete_rows", {"file_path": F, "sheet_name": "Sheet1", "row": 10}),
    ("delete_columns", {"file_path": F, "sheet_name": "Sheet1", "column": 5}),
    (
        "format_cells",
        {
            "file_path": F,
            "sheet_name": "Sheet1",
            "cell_range": "A1:B1",
            "font": {"bold": True},
            "fill": {"color": "FFFF00"},
        },
    ),
    ("read_cell_styles", {"file_path": F, "sheet_name": "Sheet1", "cell_range": "A1:B1"}),
    ("adjust_column_width", {"file_path": F, "sheet_name": "Sheet1", "columns": {"A": 20}}),
    ("merge_cells", {"file_path": F, "sheet_name": "Sheet1", "cell_range": "D1:E1"}),
    ("unmerge_cells", {"file_path": F, "sheet_name": "Sheet1", "cell_range": "D1:E1"}),
    (
        "add_conditional_rule",
        {
            "file_path": F,
            "sheet_name": "Sheet1",
            "cell_range": "B2:B3",
            "rule_type": "color_scale",
            "min_color": "FF0000",
            "max_color": "00FF00",
        },
    ),
    (
        "add_data_validation",
        {
            "file_path": F,
            "sheet_name": "Sheet1",
            "cell_range": "C2:C3",
            "validation_type": "list",
            "values": ["是", "否"],
        },
    ),
    ("create_sheet", {"file_path": F, "sheet_name": "汇总"}),
    (
        "copy_range_between_sheets",
        {
            "source_file": F,
            "source_sheet": "Sheet1",
            "source_range": "A1:B3",
            "target_sheet": "汇总",
            "target_start": "A1",
        },
    ),
    (
        "create_excel_chart",
        {
            "file_path": F,
            "sheet_name": "Sheet1",
            "chart_type": "bar",
            "data_range": "B1:B3",
            "categories_range": "A2:A3",
            "target_cell": "G2",
        },
    ),
    ("create_sheet", {"file_path": F, "sheet_name": "临时"}),
    ("rename_sheet", {"file_path": F, "old_name": "临时", "new_name": "草稿"}),
    ("delete_sheet", {"file_path": F, "sheet_name": "草稿", "confirm": True}),
]


@pytest.mark.parametrize(("tool", "args", "want"), TEST_TOOL_CASES, ids=lambda v: v if isinstance(v, str) else None)
def test_every_test_tool(client: Client, tool: str, args: dict[str, Any], want: dict[str, Any]) -> None:
    res = client.call_tool(tool, args)
    payload = json.loads(res.text)
    for key, value in want.items():
        assert payload[key] == value, res.text
    assert res.is_error == (payload.get("status") == "error")
    assert "panicked" not in res.text or payload["error_code"] == "TOOL_INTERNAL_ERROR"


def test_every_listed_tool(client: Client, workspace: pathlib.Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    seed = openpyxl.Workbook()
    seed.active.title = "Sheet1"
    seed.save(workspace / F)
    names = [t["name"] for t in client.list_tools()]
    assert TEST_TOOLS <= set(names)
    called = set(TEST_TOOLS)
    for tool, args in SHEET_SESSION:
        if tool not in names:
            continue
        res = client.call_tool(tool, args)
        assert json.loads(res.text)["status"] == "success", (tool, res.text)
        called.add(tool)
    # A tool added after this table was written still gets called once,
    # with empty arguments, and must answer with a payload (not panic).
    for tool in names:
        if tool not in called:
            payload = json.loads(client.call_tool(tool, {}).text)
            assert "status" in payload and payload.get("error_code") != "TOOL_INTERNAL_ERROR", (tool, payload)
    # openpyxl (the peer) reads back what the session wrote.
    wb = openpyxl.load_workbook(workspace / F)
    assert wb.sheetnames == ["Sheet1", "汇总"]
    ws = wb["Sheet1"]
    assert [[c.value for c in row] for row in ws["A1:B3"]] == [["名称", "数量"], ["苹果", 3], ["梨", 5]]
    assert ws["B4"].value == "=SUM(B2:B3)"
    assert ws["A1"].font.bold
    assert [[c.value for c in row] for row in wb["汇总"]["A1:B3"]] == [["名称", "数量"], ["苹果", 3], ["梨", 5]]


def test_progress_from_the_sleep_tool(client: Client) -> None:
    seen: list[tuple[float, float | None, str | None]] = []
    res = client.call_tool("sleep", {"ms": 100}, progress=lambda p, t, m: seen.append((p, t, m)))
    assert json.loads(res.text) == {"status": "success", "slept_ms": 100}
    assert [p for p, _, _ in seen] == [10.0 * i for i in range(1, 11)]
    assert all(t == 100.0 for _, t, _ in seen)
    assert seen[-1][2] == "slept 100%"


def test_timeout_against_the_real_sidecar(client: Client) -> None:
    res = client.call_tool("sleep", {"ms": 5000}, timeout=0.2)
    assert res.is_error
    assert res.text == timeout_payload("sleep")
    assert json.loads(client.call_tool("add", {"a": 1, "b": 1}).text)["sum"] == 2


def test_32_threads_x_200_calls_get_their_own_answers(client: Client) -> None:
    threads, calls = 32, 200
    wrong: list[str] = []
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(calls):
                if i % 2:
                    res = client.call_tool("add", {"a": t, "b": i * 1000})
                    if json.loads(res.text)["sum"] != t + i * 1000:
                        wrong.append(res.text)
                else:
                    tag = f"线程{t}-{i}"
                    res = client.call_tool("echo", {"value": tag})
                    if json.loads(res.text)["value"] != tag:
                        wrong.append(res.text)
        except BaseException as exc:  # reported below; a thread must not die silently
            errors.append(exc)

    pool = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join(120)
    assert not errors
    assert not wrong
    assert not any(th.is_alive() for th in pool)


def test_registry_call_tool_through_asyncio_to_thread(sidecar: Sidecar) -> None:
    """excelmanus's pattern: the sync registry.call_tool run by asyncio.to_thread
    from many tasks at once, all on the one shared Client."""
    import asyncio

    calls = 300
    with ToolRegistry.from_sidecar(sidecar) as reg:

        def add(i: int) -> str:
            return reg.call_tool("add", {"a": i, "b": 1000})

        async def main() -> list[str]:
            return list(await asyncio.gather(*(asyncio.to_thread(add, i) for i in range(calls))))

        got = asyncio.run(main())
    assert got == [f'{{"status": "success", "sum": {i + 1000}}}' for i in range(calls)]


def test_result_bigger_than_the_frame_limit_is_truncated_not_1009(sidecar: Sidecar) -> None:
    max_size = 64 * 1024
    items, text = 20_000, "数据" * 10
    untruncated = json.dumps({"status": "success", "items": [text] * items}, ensure_ascii=False).encode()
    assert len(untruncated) > 10 * max_size  # the tool's own result would not fit in a frame
    with Client(sidecar.url, token=sidecar.token, max_size=max_size, recovery="none") as c:
        res = c.call_tool("big", {"items": items, "text": text})
        assert not res.is_error, res.text[:300]
        assert len(res.text.encode()) < max_size
        assert "TOOL_UNAVAILABLE" not in res.text
        assert len(res.text) < len(untruncated)
        # The connection survived: no 1009 close.
        assert c.connected
        assert json.loads(c.call_tool("add", {"a": 2, "b": 3}).text)["sum"] == 5


def test_registry_facade_returns_the_sidecars_exact_text(
    sidecar: Sidecar, sidecar_binary: pathlib.Path, workspace: pathlib.Path
) -> None:
    reg = ToolRegistry.from_sidecar(sidecar)
    cases: list[tuple[str, dict[str, Any]]] = [
        ("add", {"a": 1, "b": 2}),
        ("add", {"a": 1}),
        ("fail", {"exception": "ValueError", "message": "坏了 📉\n", "cause": "原因"}),
        ("fallback", {"to": "TOOL_ROUTER"}),
        ("echo", {"value": "\u2028\x00"}),
    ]
    with reg:
        for tool, args in cases:
            cli = subprocess.run(
                [str(sidecar_binary), "call", "--workspace", str(workspace), "--test-tools", tool, json.dumps(args)],
                capture_output=True,
                text=True,
                check=False,
            )
            assert cli.returncode in (0, 3), cli.stderr
            text = reg.call_tool(tool, args)
            assert text == cli.stdout.removesuffix("\n")
            assert reg.is_error_result(text) == (cli.returncode == 3)
        with pytest.raises(ToolNotFoundError, match=r"^工具 'nope' 未注册。$"):
            reg.call_tool("nope", {})
        with pytest.raises(ToolNotAllowedError, match=r"^工具 'add' 不在授权范围内。$"):
            reg.call_tool("add", {"a": 1, "b": 2}, tool_scope=["echo"])
        assert reg.call_tool("add", {"a": 1, "b": 2}, tool_scope=["add"]) == '{"status": "success", "sum": 3}'


def test_registry_facade_schemas_and_fork(sidecar: Sidecar, sidecar_binary: pathlib.Path) -> None:
    listed = json.loads(
        subprocess.run(
            [str(sidecar_binary), "tools", "--format", "json", "--test-tools"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    names = [t["name"] for t in listed] if isinstance(listed, list) else [t["name"] for t in listed["tools"]]
    with ToolRegistry.from_sidecar(sidecar) as reg:
        assert reg.get_tool_names() == names
        assert [t.name for t in reg.get_all_tools()] == names
        add = reg.get_tool("add")
        assert add is not None and add.input_schema["required"] == ["a", "b"]
        assert reg.get_tool("nope") is None
        responses = reg.get_openai_schemas()
        assert [s["name"] for s in responses] == names
        assert responses[names.index("add")] == {
            "type": "function",
            "name": "add",
            "description": add.description,
            "parameters": add.input_schema,
        }
        chat = reg.get_openai_schemas("chat_completions", tool_scope=["sleep", "add", "unknown"])
        assert [s["function"]["name"] for s in chat] == [n for n in names if n in ("sleep", "add")]
        assert reg.get_openai_schemas(tool_scope=[]) == []
        with pytest.raises(ValueError, match="unsupported"):
            reg.get_openai_schemas("xml")  # type: ignore[arg-type]
        child = reg.fork()
        assert child.get_tool_names() == names
        assert child.call_tool("add", {"a": 2, "b": 2}) == '{"status": "success", "sum": 4}'
        child.close()  # a fork never closes the shared client
        assert reg.call_tool("add", {"a": 3, "b": 3}) == '{"status": "success", "sum": 6}'


def test_registry_call_tool_async(sidecar: Sidecar) -> None:
    import asyncio

    with ToolRegistry.from_sidecar(sidecar) as reg:

        async def main() -> list[str]:
            return list(await asyncio.gather(*(reg.call_tool_async("add", {"a": i, "b": 1}) for i in range(20))))

        got = asyncio.run(main())
        assert got == [f'{{"status": "success", "sum": {i + 1}}}' for i in range(20)]

        async def missing() -> None:
            await reg.call_tool_async("nope", {})

        with pytest.raises(ToolNotFoundError):
            asyncio.run(missing())
