"""Byte parity: the sidecar's payloads equal the in-process reference's.

The reference registry (reference_registry.py) formats failures as
excelmanus's ``ToolRegistry.call_tool`` does. Each case raises a Python
exception in a reference tool and asks the sidecar's ``fail`` test tool to
return the Go error that mirrors it; the two payload texts must be
byte-identical, CJK, emoji and control characters included.

Argument validation is compared byte for byte too: the reference words a
schema failure with tests/vectors/excelmanus_oracle.py (excelmanus's
``_collect_schema_violations`` rules), the sidecar with its default
excelmanus message profile.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn

import pytest
from reference_registry import FallbackRequired, ReferenceRegistry, ToolNotAllowedError, ToolNotFoundError

from registry_sidecar import Client, ToolRegistry
from registry_sidecar import ToolNotAllowedError as SidecarNotAllowed
from registry_sidecar import ToolNotFoundError as SidecarNotFound


class _Fatal(Exception):
    """A reference exception marked non-recoverable."""

    fatal = True


def _raiser(make: Callable[[], BaseException]) -> Callable[..., NoReturn]:
    def tool(**_: Any) -> NoReturn:
        raise make()

    return tool


def _chain(outer: BaseException, cause: BaseException | None) -> BaseException:
    outer.__cause__ = cause
    return outer


# (case id, Python exception factory, the fail tool's arguments)
CASES: list[tuple[str, Callable[[], BaseException], dict[str, Any]]] = [
    ("ValueError", lambda: ValueError("bad value: -1"), {"exception": "ValueError", "message": "bad value: -1"}),
    # str(KeyError('k')) is "'k'": the Go tool must quote like Python does.
    ("KeyError", lambda: KeyError("sheet"), {"exception": "KeyError", "message": "'sheet'"}),
    (
        "FileNotFoundError",
        lambda: FileNotFoundError(2, "No such file or directory", "a.xlsx"),
        {"exception": "FileNotFoundError", "message": "[Errno 2] No such file or directory: 'a.xlsx'"},
    ),
    ("TimeoutError-empty", lambda: TimeoutError(), {"exception": "TimeoutError", "message": ""}),
    (
        "from-differing-cause",
        lambda: _chain(ValueError("cannot write A1"), KeyError("A1")),
        {"exception": "ValueError", "message": "cannot write A1", "cause": "'A1'"},
    ),
    (
        "from-same-text-cause",
        lambda: _chain(RuntimeError("disk full"), OSError("disk full")),
        {"exception": "RuntimeError", "message": "disk full", "cause": "disk full"},
    ),
    ("from-None", lambda: _chain(ValueError("no cause"), None), {"exception": "ValueError", "message": "no cause"}),
    (
        "CJK",
        lambda: ValueError("工作表 '销售数据' 不存在，请检查名称"),
        {"exception": "ValueError", "message": "工作表 '销售数据' 不存在，请检查名称"},
    ),
    (
        "emoji",
        lambda: _chain(ValueError("📊 chart failed 🚀"), KeyError("👍🏽")),
        {"exception": "ValueError", "message": "📊 chart failed 🚀", "cause": "'👍🏽'"},
    ),
    (
        "control-characters",
        lambda: ValueError('nul\x00 bell\x07 bs\x08 tab\t nl\n ff\x0c cr\r esc\x1b us\x1f del\x7f q" bs\\ /'),
        {
            "exception": "ValueError",
            "message": 'nul\x00 bell\x07 bs\x08 tab\t nl\n ff\x0c cr\r esc\x1b us\x1f del\x7f q" bs\\ /',
        },
    ),
    (
        "line-separators",
        lambda: ValueError("ls\u2028ps\u2029nbsp\u00a0bom\ufeff"),
        {"exception": "ValueError", "message": "ls\u2028ps\u2029nbsp\u00a0bom\ufeff"},
    ),
    (
        "custom-name",
        lambda: type("WorkbookLockedError", (Exception,), {})("锁定"),
        {"exception": "WorkbookLockedError", "message": "锁定"},
    ),
    ("fatal", lambda: _Fatal("corrupt"), {"exception": "_Fatal", "message": "corrupt", "fatal": True}),
]


@pytest.fixture(scope="module")
def reference() -> ReferenceRegistry:
    reg = ReferenceRegistry()
    for case_id, make, _ in CASES:
        reg.register(case_id, _raiser(make))
    return reg


@pytest.mark.parametrize(("case_id", "make", "go_args"), CASES, ids=[c[0] for c in CASES])
def test_execution_error_payloads_are_byte_identical(
    client: Client,
    reference: ReferenceRegistry,
    case_id: str,
    make: Callable[[], BaseException],
    go_args: dict[str, Any],
) -> None:
    want = reference.call_tool(case_id, {}).replace(f'"tool": {json.dumps(case_id)}', '"tool": "fail"', 1)
    got = client.call_tool("fail", go_args)
    assert got.is_error
    assert got.text == want


def test_fallback_payload_is_byte_identical(client: Client) -> None:
    ref = ReferenceRegistry()
    ref.register("fallback", _raiser(lambda: FallbackRequired("CHAT_SERVICE", "预览模式")))
    got = client.call_tool("fallback", {"to": "CHAT_SERVICE", "reason": "预览模式"})
    assert not got.is_error
    assert got.text == ref.call_tool("fallback", {})


@pytest.mark.parametrize(
    "value",
    [
        {"表": "值", "emoji": "😀", "ctl": "\x01\n"},
        [1, -2, 3.5, 1e-05, 1e16, -0.0, None, True],
        "\u2028",
        12345678901234567890,
    ],
)
def test_success_payload_is_byte_identical(client: Client, value: Any) -> None:
    ref = ReferenceRegistry()
    ref.register("echo", lambda value: {"status": "success", "value": value})
    assert client.call_tool("echo", {"value": value}).text == ref.call_tool("echo", {"value": value})


ADD_SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "note": {"type": "string", "maxLength": 64}},
    "required": ["a", "b"],
    "additionalProperties": False,
}


def _add(a: int, b: int, note: str = "") -> dict[str, Any]:
    return {"status": "success", "sum": a + b}


@pytest.mark.parametrize(
    "args",
    [
        {"a": 1},
        {},
        {"a": 1, "b": 2, "c": 3},
        {"b": 2, "zeta": 0, "alpha": 1},
        {"a": "1", "b": True, "note": "x" * 65},
        {"a": 1.5, "b": None, "工作表": "销售"},
    ],
)
def test_validation_payload_is_byte_identical(client: Client, args: dict[str, Any]) -> None:
    ref = ReferenceRegistry()
    ref.register("add", _add, ADD_SCHEMA)
    want = ref.call_tool("add", args)
    got = client.call_tool("add", args)
    assert got.is_error
    assert got.text == want


def test_not_found_and_not_allowed_raise_like_the_reference(client: Client, reference: ReferenceRegistry) -> None:
    facade = ToolRegistry(client)
    pairs: list[tuple[Callable[[], str], Callable[[], str], type[Exception], type[Exception]]] = [
        (
            lambda: reference.call_tool("nope", {}),
            lambda: facade.call_tool("nope", {}),
            ToolNotFoundError,
            SidecarNotFound,
        ),
        (
            lambda: reference.call_tool("ValueError", {}, tool_scope=["x"]),
            lambda: facade.call_tool("fail", {}, tool_scope=["x"]),
            ToolNotAllowedError,
            SidecarNotAllowed,
        ),
    ]
    for call_ref, call_go, ref_exc, go_exc in pairs:
        with pytest.raises(ref_exc) as ref_info:
            call_ref()
        with pytest.raises(go_exc) as go_info:
            call_go()
        assert str(go_info.value).replace("'fail'", "'ValueError'") == str(ref_info.value)


def test_empty_cause_text_is_kept(client: Client) -> None:
    ref = ReferenceRegistry()
    ref.register("fail", _raiser(lambda: _chain(ValueError("m"), KeyError())))
    assert client.call_tool("fail", {"exception": "ValueError", "message": "m", "cause": ""}).text == ref.call_tool(
        "fail", {}
    )
