"""Payloads built on the Python side, and excelmanus's is_error_result."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

import pytest

from registry_sidecar import ToolRegistry, is_error_result
from registry_sidecar.payloads import error_code, timeout_payload, unavailable_payload

GO_GOLDEN = pathlib.Path(__file__).resolve().parents[3] / "errorsjson" / "testdata"


@pytest.mark.parametrize(
    ("golden", "build"),
    [
        ("unavailable.golden", lambda: unavailable_payload("list_sheets", "sidecar exited: signal: killed")),
        ("timeout.golden", lambda: timeout_payload("read_excel")),
    ],
)
def test_python_payloads_equal_go_golden_files(golden: str, build: Callable[[], str]) -> None:
    path = GO_GOLDEN / golden
    if not path.exists():
        pytest.skip(f"{path} not present")
    assert build() == path.read_text(encoding="utf-8").rstrip("\n")


@pytest.mark.parametrize(
    "message",
    ["plain", "工作簿已损坏", "📊 chart", "tab\tnl\nnul\x00 us\x1f del\x7f", "ls\u2028ps\u2029", 'q"b\\'],
)
def test_unavailable_payload_encoding(message: str) -> None:
    text = unavailable_payload("写入", message)
    assert text == json.dumps(
        {
            "status": "error",
            "error_code": "TOOL_UNAVAILABLE",
            "tool": "写入",
            "exception": "ConnectionError",
            "message": message,
        },
        ensure_ascii=False,
    )
    assert json.loads(text)["message"] == message
    assert is_error_result(text)
    assert error_code(text) == "TOOL_UNAVAILABLE"


@pytest.mark.parametrize(
    ("value", "want"),
    [
        ('{"status": "error", "error_code": "X"}', True),
        ('{"status": "error"}', True),
        ('{"status":"error"}', False),  # prefix check is byte-exact
        (' {"status": "error"}', False),
        ('{"status": "error"', False),  # not JSON
        ('{"status": "error"}\n[结果已截断，原始长度: 9000 字符]', False),
        ('{"status": "errors"}', False),
        ('{"status": "error", "status": "ok"}', False),  # the last duplicate wins
        ('{"status": "success"}', False),
        ('{"status": "fallback", "error": "FALLBACK_REQUIRED"}', False),
        ("", False),
        (b'{"status": "error"}', False),
        ({"status": "error"}, False),
        (None, False),
        (1, False),
    ],
)
def test_is_error_result_verdicts(value: Any, want: bool) -> None:
    assert is_error_result(value) is want
    assert ToolRegistry.is_error_result(value) is want


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('{"status": "error", "error_code": "TOOL_NOT_FOUND"}', "TOOL_NOT_FOUND"),
        ('{"status": "error"}', None),
        ('{"status": "error", "error_code": 5}', None),
        ('{"status": "error"', None),
        ('{"status": "success", "error_code": "X"}', None),
    ],
)
def test_error_code(text: str, code: str | None) -> None:
    assert error_code(text) == code
