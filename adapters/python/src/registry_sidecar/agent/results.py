"""Normalized tool results: one dict shape for every handler's return value.

Agent code meets tool results from three kinds of producers: the sidecar (JSON
payload text), legacy in-process handlers (dicts with Portuguese or English
keys, plain strings, sometimes ``None``) and routers. :func:`normalize_tool_result`
turns any of them into a dict that always carries

``tool``
    the tool's name (a ``tool`` the result already names is kept);
``kind``
    ``"success"``, ``"error"`` or ``"fallback"``;
``ok`` / ``sucesso``
    the same bool under both names;
``text`` / ``resposta``
    the same human-readable text under both names;
``error`` / ``erro``
    the same error value under both names (``None`` when ok).

Fallback signals (``use_fallback`` truthy, ``error``/``erro`` equal to
``"FALLBACK_REQUIRED"``, or ``status == "fallback"``) make a result
``kind == "fallback"``: not ok, but never a final error. ``use_fallback`` is
set to ``True`` and ``fallback_to`` is kept exactly as given (never defaulted,
never rewritten), so the router decides from what the tool asked for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final, Literal

from ..payloads import CODE_EXECUTION, error_payload
from ..payloads import FALLBACK_REQUIRED as FALLBACK_REQUIRED

#: The ``error`` value the router gives a tool the primary service lacks.
HANDLER_NOT_FOUND: Final = "HANDLER_NOT_FOUND"
#: The ``error`` value of a ``None`` handler result.
EMPTY_RESULT: Final = "EMPTY_RESULT"
#: The ``error`` value of a not-ok result that named no error of its own.
UNKNOWN_ERROR: Final = "UNKNOWN_ERROR"

#: The outcome classes a normalized result's ``kind`` takes.
ResultKind = Literal["success", "error", "fallback"]

#: Keys normalization owns; :func:`ok_result`/:func:`err_result` refuse them as extras.
RESERVED_KEYS: Final = frozenset(
    {"tool", "kind", "ok", "sucesso", "text", "resposta", "error", "erro"}
)

_OK_STATUSES: Final = frozenset({"success", "ok", "sucesso"})
_NOT_OK_STATUSES: Final = frozenset({"error", "erro", "failed", "failure", "fallback"})
_TEXT_KEYS: Final = ("text", "resposta", "message", "mensagem")


def normalize_tool_result(tool: str, raw: object) -> dict[str, Any]:
    """Return raw as a normalized result dict for tool; never returns None.

    - ``None`` becomes an error result (``error == "EMPTY_RESULT"``, ``text``
      saying the tool returned no result).
    - A ``str`` holding a JSON object (a sidecar payload) is parsed and
      normalized like that dict; any other ``str`` is a successful text result.
    - A ``Mapping`` is copied (the input is never mutated) and given the
      aliases; keys the mapping has besides those are kept in order.
    - Anything else (list, number, bool) is a successful result with the value
      under ``data`` and its JSON text under ``text``.

    ``ok`` is decided in this order: a fallback signal (never ok); an explicit
    bool ``ok`` or ``sucesso`` (if either is ``False``, not ok); a bool
    ``success``; ``status`` (``success``/``ok`` vs ``error``/``failed``); the
    presence of ``error``/``erro``/``error_code``; else ok. ``text`` is the
    first string among ``text``, ``resposta``, ``message``, ``mensagem``.
    ``error`` is ``error``, else ``erro``, else the payload's ``error_code``.

    >>> r = normalize_tool_result("send_report", {"sucesso": True, "resposta": "enviado"})
    >>> r["ok"], r["text"], r["kind"]
    (True, 'enviado', 'success')
    >>> r = normalize_tool_result("send_report", {"use_fallback": True, "fallback_to": "CHAT_SERVICE"})
    >>> r["kind"], r["ok"], r["erro"], r["fallback_to"]
    ('fallback', False, 'FALLBACK_REQUIRED', 'CHAT_SERVICE')
    >>> normalize_tool_result("read", None)["error"]
    'EMPTY_RESULT'
    """
    if raw is None:
        return _build(tool, {}, ok=False, kind="error", text=_empty_text(tool),
                      error=EMPTY_RESULT)
    if isinstance(raw, str):
        parsed = _parse_object(raw)
        if parsed is None:
            return _build(tool, {}, ok=True, kind="success", text=raw, error=None)
        return _normalize_mapping(tool, parsed)
    if isinstance(raw, Mapping):
        return _normalize_mapping(tool, raw)
    text = json.dumps(raw, ensure_ascii=False, default=str)
    return _build(tool, {"data": raw}, ok=True, kind="success", text=text, error=None)


def result_text(tool: str, raw: object) -> str:
    """Return the text the model sees for a handler's raw result: a string
    unchanged; ``None`` as the execution-family error payload ``Tool '<tool>'
    returned no result.`` (exception ``ToolError``), so it reads as the error
    it is; anything else (a dict, a list, a number) as its own JSON, never
    wrapped in the normalized shape.

    >>> result_text("t", [1, "a"])
    '[1, "a"]'
    >>> payload = json.loads(result_text("t", None))
    >>> payload["error_code"], payload["exception"], payload["message"]
    ('TOOL_EXECUTION_ERROR', 'ToolError', "Tool 't' returned no result.")
    """
    if isinstance(raw, str):
        return raw
    if raw is None:
        return error_payload(CODE_EXECUTION, tool, "ToolError", _empty_text(tool))
    if isinstance(raw, Mapping):
        raw = dict(raw)
    return json.dumps(raw, ensure_ascii=False, default=str)


def _empty_text(tool: str) -> str:
    return f"Tool '{tool}' returned no result."


def ok_result(tool: str, text: str = "", **fields: Any) -> dict[str, Any]:
    """Return a normalized success result for tool with text and extra fields.

    Extra fields may not use the keys normalization owns (:data:`RESERVED_KEYS`).
    """
    _refuse_reserved(fields)
    return _build(tool, fields, ok=True, kind="success", text=text, error=None)


def err_result(tool: str, error: str | BaseException, text: str | None = None, **fields: Any) -> dict[str, Any]:
    """Return a normalized final-error result for tool.

    error is an error code (``"TOOL_EXECUTION_ERROR"``) or an exception, whose
    class name becomes the code and whose text the default ``text``. A fallback
    is not an error: ``error == "FALLBACK_REQUIRED"`` raises ``ValueError``
    (use :func:`fallback_result`), and so does an empty error.
    """
    _refuse_reserved(fields)
    if isinstance(error, BaseException):
        code = type(error).__name__
        default_text = str(error)
    else:
        code = error
        default_text = error
    if not code:
        raise ValueError("err_result needs a non-empty error")
    if code == FALLBACK_REQUIRED:
        raise ValueError("a fallback request is not a final error; use fallback_result")
    body = dict(fields)
    return _build(tool, body, ok=False, kind="error", text=default_text if text is None else text, error=code)


def fallback_result(
    tool: str,
    fallback_to: object,
    reason: str = "",
    *,
    error: str = FALLBACK_REQUIRED,
) -> dict[str, Any]:
    """Return a normalized fallback request for tool: ``use_fallback`` True,
    ``fallback_to`` exactly as given, ``error`` (``FALLBACK_REQUIRED`` unless
    told, e.g. ``HANDLER_NOT_FOUND``) and ``reason``."""
    body: dict[str, Any] = {"use_fallback": True, "fallback_to": fallback_to, "reason": reason}
    return _build(tool, body, ok=False, kind="fallback", text=reason, error=error)


def is_fallback(result: Mapping[str, Any]) -> bool:
    """Report whether result (raw or normalized) carries a fallback signal."""
    if result.get("use_fallback"):
        return True
    if result.get("error") == FALLBACK_REQUIRED or result.get("erro") == FALLBACK_REQUIRED:
        return True
    return result.get("status") == "fallback"


def is_final_error(result: Mapping[str, Any]) -> bool:
    """Report whether a normalized result is a final error (not ok, not a fallback)."""
    return result.get("kind") == "error"


def _normalize_mapping(tool: str, raw: Mapping[Any, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {str(k): v for k, v in raw.items()}
    named = body.get("tool")
    if isinstance(named, str) and named:
        tool = named
    error = _first_present(body, ("error", "erro"))
    text = _first_text(body)
    if is_fallback(body):
        body["use_fallback"] = True
        return _build(
            tool,
            body,
            ok=False,
            kind="fallback",
            text=text,
            error=FALLBACK_REQUIRED if error is None else error,
        )
    ok = _decide_ok(body, error)
    if ok:
        return _build(tool, body, ok=True, kind="success", text=text, error=None)
    if error is None:
        code = body.get("error_code")
        error = code if isinstance(code, str) and code else UNKNOWN_ERROR
    if not text and isinstance(error, str):
        text = error
    return _build(tool, body, ok=False, kind="error", text=text, error=error)


def _decide_ok(body: Mapping[str, Any], error: object) -> bool:
    flags = [body[k] for k in ("ok", "sucesso") if isinstance(body.get(k), bool)]
    if flags:
        return all(flags)
    success = body.get("success")
    if isinstance(success, bool):
        return success
    status = body.get("status")
    if isinstance(status, str):
        lowered = status.lower()
        if lowered in _OK_STATUSES:
            return True
        if lowered in _NOT_OK_STATUSES:
            return False
    return error is None and not body.get("error_code")


def _first_present(body: Mapping[str, Any], keys: tuple[str, ...]) -> object:
    for key in keys:
        value = body.get(key)
        if value is not None and value != "" and value is not False:
            return value
    return None


def _first_text(body: Mapping[str, Any]) -> str:
    for key in _TEXT_KEYS:
        value = body.get(key)
        if isinstance(value, str):
            return value
    return ""


def _build(
    tool: str,
    body: dict[str, Any],
    *,
    ok: bool,
    kind: ResultKind,
    text: str,
    error: object,
) -> dict[str, Any]:
    raw_kind = body.get("kind")
    if raw_kind is not None and raw_kind != kind:
        body["raw_kind"] = raw_kind
    body["tool"] = tool
    body["kind"] = kind
    body["ok"] = ok
    body["sucesso"] = ok
    body["text"] = text
    body["resposta"] = text
    body["error"] = error
    body["erro"] = error
    return body


def _parse_object(text: str) -> dict[str, Any] | None:
    stripped = text.lstrip()
    if not stripped.startswith("{"):
        return None
    try:
        parsed = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) else None


def _refuse_reserved(fields: Mapping[str, Any]) -> None:
    clash = sorted(RESERVED_KEYS.intersection(fields))
    if clash:
        raise TypeError(f"fields may not set normalized keys: {', '.join(clash)}")
