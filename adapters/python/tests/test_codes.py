"""One vocabulary: the Python error codes and fallback words are Go's
errorsjson/codes.go, parsed from the Go source (not copied)."""

from __future__ import annotations

import pathlib
import re

from registry_sidecar import payloads
from registry_sidecar.agent import classify, results, routing

CODES_GO = pathlib.Path(__file__).resolve().parents[3] / "errorsjson" / "codes.go"

# `CodeExecution Code = "TOOL_EXECUTION_ERROR"` and `FallbackRequired = "FALLBACK_REQUIRED"`.
_CONST = re.compile(r'^\s*(?:const\s+)?(\w+)\s+(?:Code\s+)?=\s+"([^"]*)"', re.M)


def go_constants() -> dict[str, str]:
    text = CODES_GO.read_text(encoding="utf-8")
    found = dict(_CONST.findall(text))
    assert found, f"no constants parsed from {CODES_GO}"
    return found


def go_codes() -> list[str]:
    """The Code values of codes.go, in declaration order."""
    text = CODES_GO.read_text(encoding="utf-8")
    return re.findall(r'^\s*Code\w+\s+Code\s+=\s+"([^"]+)"', text, re.M)


def test_error_codes_are_gos_table() -> None:
    assert list(payloads.ERROR_CODES) == go_codes(), "same codes, same order (append-only on both sides)"


def test_every_python_code_constant_is_in_the_table() -> None:
    for module in (payloads, classify):
        for name in dir(module):
            if name.startswith("CODE_"):
                assert getattr(module, name) in payloads.ERROR_CODES, f"{module.__name__}.{name}"


def test_python_names_match_go_names() -> None:
    go = go_constants()
    pairs = {
        "CodeExecution": payloads.CODE_EXECUTION,
        "CodeFatal": payloads.CODE_FATAL,
        "CodeArgumentValidation": payloads.CODE_VALIDATION,
        "CodeNotFound": payloads.CODE_NOT_FOUND,
        "CodeNotAllowed": payloads.CODE_NOT_ALLOWED,
        "CodeTimeout": payloads.CODE_TIMEOUT,
        "CodeCancelled": payloads.CODE_CANCELLED,
        "CodeInternal": payloads.CODE_INTERNAL,
        "CodeUnavailable": payloads.CODE_UNAVAILABLE,
        "FallbackRequired": results.FALLBACK_REQUIRED,
        "FallbackChatService": routing.CHAT_SERVICE,
        "FallbackToolRouter": routing.TOOL_ROUTER,
    }
    assert {k: go.get(k) for k in pairs} == pairs
    assert set(pairs) == set(go), "a constant added to codes.go needs its Python name here"
    assert routing.Route.CHAT_SERVICE.value == go["FallbackChatService"]
    assert routing.Route.TOOL_ROUTER.value == go["FallbackToolRouter"]
