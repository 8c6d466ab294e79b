"""Table tests of normalize_tool_result, ok_result, err_result, fallback_result."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from registry_sidecar.agent import (
    err_result,
    fallback_result,
    is_fallback,
    is_final_error,
    normalize_tool_result,
    ok_result,
)

ALIASES = ("ok", "sucesso", "text", "resposta", "error", "erro")


def _expect(tool: str, kind: str, ok: bool, text: str, error: object) -> dict[str, Any]:
    return {"tool": tool, "kind": kind, "ok": ok, "sucesso": ok, "text": text, "resposta": text,
            "error": error, "erro": error}


# (id, raw, expected subset of the normalized dict)
CASES: list[tuple[str, object, dict[str, Any]]] = [
    ("none", None, _expect("t", "error", False, "Tool 't' returned no result.", "EMPTY_RESULT")),
    ("plain str", "done", _expect("t", "success", True, "done", None)),
    ("empty str", "", _expect("t", "success", True, "", None)),
    ("str that is JSON but not an object", "[1, 2]", _expect("t", "success", True, "[1, 2]", None)),
    ("str with broken JSON", '{"ok": tru', _expect("t", "success", True, '{"ok": tru', None)),
    ("sidecar success payload", '{"status": "success", "sum": 3}',
     {**_expect("t", "success", True, "", None), "status": "success", "sum": 3}),
    ("sidecar error payload",
     '{"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "t", '
     '"exception": "ValueError", "message": "bad cell"}',
     {**_expect("t", "error", False, "bad cell", "TOOL_EXECUTION_ERROR"),
      "error_code": "TOOL_EXECUTION_ERROR", "exception": "ValueError"}),
    ("dict without any alias", {"rows": 4}, {**_expect("t", "success", True, "", None), "rows": 4}),
    ("ok True with text", {"ok": True, "text": "hi"}, _expect("t", "success", True, "hi", None)),
    ("sucesso True with resposta", {"sucesso": True, "resposta": "oi"},
     _expect("t", "success", True, "oi", None)),
    ("ok False with error", {"ok": False, "error": "E1"}, _expect("t", "error", False, "E1", "E1")),
    ("sucesso False with erro and resposta", {"sucesso": False, "erro": "falhou", "resposta": "r"},
     _expect("t", "error", False, "r", "falhou")),
    ("ok True but sucesso False is not ok", {"ok": True, "sucesso": False, "erro": "x"},
     _expect("t", "error", False, "x", "x")),
    ("error without ok flag", {"error": "boom"}, _expect("t", "error", False, "boom", "boom")),
    ("erro without ok flag", {"erro": "quebrou"}, _expect("t", "error", False, "quebrou", "quebrou")),
    ("not ok without any error names none", {"ok": False},
     _expect("t", "error", False, "UNKNOWN_ERROR", "UNKNOWN_ERROR")),
    ("text wins over resposta", {"text": "a", "resposta": "b"}, _expect("t", "success", True, "a", None)),
    ("message is the text when no text", {"success": True, "message": "m"},
     _expect("t", "success", True, "m", None)),
    ("success False", {"success": False, "message": "m"},
     _expect("t", "error", False, "m", "UNKNOWN_ERROR")),
    ("status failed", {"status": "failed"},
     _expect("t", "error", False, "UNKNOWN_ERROR", "UNKNOWN_ERROR")),
    ("error False is no error", {"error": False, "text": "fine"},
     _expect("t", "success", True, "fine", None)),
    ("tool named by the result is kept", {"tool": "other", "ok": True},
     _expect("other", "success", True, "", None)),
    ("foreign kind is kept aside", {"kind": "chart", "ok": True},
     {**_expect("t", "success", True, "", None), "raw_kind": "chart"}),
    ("list is wrapped", [1, "a"], {**_expect("t", "success", True, '[1, "a"]', None), "data": [1, "a"]}),
    ("int is wrapped", 7, {**_expect("t", "success", True, "7", None), "data": 7}),
    ("non-ASCII stays raw", ["ação"], {**_expect("t", "success", True, '["ação"]', None)}),
    # Fallback signals: preserved, not ok, never a final error, fallback_to as given.
    ("use_fallback to CHAT_SERVICE",
     {"use_fallback": True, "fallback_to": "CHAT_SERVICE", "error": "PREVIEW_HANDOFF"},
     {**_expect("t", "fallback", False, "", "PREVIEW_HANDOFF"),
      "use_fallback": True, "fallback_to": "CHAT_SERVICE"}),
    ("error FALLBACK_REQUIRED without use_fallback",
     {"error": "FALLBACK_REQUIRED", "fallback_to": "TOOL_ROUTER"},
     {**_expect("t", "fallback", False, "", "FALLBACK_REQUIRED"),
      "use_fallback": True, "fallback_to": "TOOL_ROUTER"}),
    ("erro FALLBACK_REQUIRED", {"erro": "FALLBACK_REQUIRED", "fallback_to": "CHAT_SERVICE"},
     {**_expect("t", "fallback", False, "", "FALLBACK_REQUIRED"), "use_fallback": True}),
    ("use_fallback with ok True is still not ok",
     {"ok": True, "use_fallback": True, "fallback_to": "TOOL_ROUTER"},
     {**_expect("t", "fallback", False, "", "FALLBACK_REQUIRED"), "fallback_to": "TOOL_ROUTER"}),
    ("fallback_to kept as given (odd case)",
     {"use_fallback": True, "fallback_to": "chat_service "},
     {**_expect("t", "fallback", False, "", "FALLBACK_REQUIRED"), "fallback_to": "chat_service "}),
    ("fallback without destination keeps it absent", {"use_fallback": True},
     _expect("t", "fallback", False, "", "FALLBACK_REQUIRED")),
    ("Go fallback payload text",
     '{"status": "fallback", "error": "FALLBACK_REQUIRED", "tool": "t", "use_fallback": true, '
     '"fallback_to": "CHAT_SERVICE", "reason": "PREVIEW_MODE"}',
     {**_expect("t", "fallback", False, "", "FALLBACK_REQUIRED"), "fallback_to": "CHAT_SERVICE",
      "reason": "PREVIEW_MODE", "status": "fallback"}),
]


@pytest.mark.parametrize(("raw", "expected"), [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_normalize_tool_result(raw: object, expected: dict[str, Any]) -> None:
    before = copy.deepcopy(raw)
    got = normalize_tool_result("t", raw)
    assert got is not None
    for key, value in expected.items():
        assert key in got, key
        assert got[key] == value, key
    for a, b in (("ok", "sucesso"), ("text", "resposta"), ("error", "erro")):
        assert got[a] == got[b]
    assert raw == before, "the input must not be mutated"
    if got["kind"] == "fallback":
        assert is_fallback(got) and not is_final_error(got)
    if isinstance(raw, dict) and "fallback_to" not in raw and got["kind"] == "fallback":
        assert "fallback_to" not in got


def test_normalize_keeps_other_keys_in_order() -> None:
    got = normalize_tool_result("t", {"b": 1, "a": 2, "ok": True})
    assert list(got)[:3] == ["b", "a", "ok"]


def test_normalize_is_idempotent() -> None:
    for _, raw, _ in CASES:
        once = normalize_tool_result("t", raw)
        assert normalize_tool_result("t", once) == once


OK_CASES = [
    ("text only", {"text": "done"}, _expect("w", "success", True, "done", None)),
    ("extra fields", {"text": "", "rows": 2}, {**_expect("w", "success", True, "", None), "rows": 2}),
]


@pytest.mark.parametrize(("kwargs", "expected"), [(c[1], c[2]) for c in OK_CASES],
                         ids=[c[0] for c in OK_CASES])
def test_ok_result(kwargs: dict[str, Any], expected: dict[str, Any]) -> None:
    got = ok_result("w", **kwargs)
    assert got == expected


ERR_CASES: list[tuple[str, object, str | None, dict[str, Any]]] = [
    ("code", "TOOL_EXECUTION_ERROR", None,
     _expect("w", "error", False, "TOOL_EXECUTION_ERROR", "TOOL_EXECUTION_ERROR")),
    ("code with text", "FALLBACK_LOOP", "routed twice",
     _expect("w", "error", False, "routed twice", "FALLBACK_LOOP")),
    ("exception", ValueError("bad cell"), None, _expect("w", "error", False, "bad cell", "ValueError")),
]


@pytest.mark.parametrize(("error", "text", "expected"), [(c[1], c[2], c[3]) for c in ERR_CASES],
                         ids=[c[0] for c in ERR_CASES])
def test_err_result(error: str | BaseException, text: str | None, expected: dict[str, Any]) -> None:
    got = err_result("w", error, text)
    assert got == expected
    assert is_final_error(got) and not is_fallback(got)


@pytest.mark.parametrize(("call", "exc"), [
    (lambda: err_result("w", "FALLBACK_REQUIRED"), ValueError),
    (lambda: err_result("w", ""), ValueError),
    (lambda: ok_result("w", ok=False), TypeError),
    (lambda: err_result("w", "E", erro="x"), TypeError),
], ids=["fallback is not an error", "empty error", "ok_result reserved key", "err_result reserved key"])
def test_result_builders_refuse(call: Any, exc: type[Exception]) -> None:
    with pytest.raises(exc):
        call()


def test_fallback_result_round_trips_through_json() -> None:
    built = fallback_result("t", "TOOL_ROUTER", "no handler", error="HANDLER_NOT_FOUND")
    again = normalize_tool_result("t", json.dumps(built))
    assert again == built
    assert again["kind"] == "fallback" and again["error"] == "HANDLER_NOT_FOUND"


@pytest.mark.parametrize("module", ["results", "routing", "executor"])
def test_docstring_examples(module: str) -> None:
    """The examples in the agent modules' docstrings run and hold."""
    import doctest
    import importlib

    mod = importlib.import_module(f"registry_sidecar.agent.{module}")
    failed, attempted = doctest.testmod(mod, raise_on_error=False, report=True)
    assert attempted > 0, "the module has examples"
    assert failed == 0
