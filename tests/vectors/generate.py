#!/usr/bin/env python3
"""Golden vectors for pyjson, errorsjson and the excelmanus profile, written by Python.

Usage:
    python3 tests/vectors/generate.py          rewrite tests/vectors/encode.json
                                               and tests/vectors/excelmanus.json
    python3 tests/vectors/generate.py --check  regenerate in memory; exit 1 and
                                               name every stale file

excelmanus.json holds what excelmanus_oracle.py (excelmanus's rules in
plain Python) answers for the calls of excelmanus_corpus.py: validation
payloads for every violation kind, the not-found/not-allowed messages, and
truncated results of every phase and of the plain-text fallback.
registry/parity_test.go requires the Go registry to answer the same bytes.

The corpus pins `json.dumps(value, ensure_ascii=False)` byte for byte. Each
case stores the value in a typed, lossless form the Go test can rebuild with
Go types (floats as float.hex(), integers as decimal strings, objects as pair
lists, Go structs by name) next to the exact text Python writes for it.

--check also proves every payload golden file (errorsjson/testdata/*.golden,
registry/testdata/*.golden) is what Python would write: it loads the file
keeping key order and re-dumps it; the bytes must be identical.

Standard library only: `make test` runs this on a fresh machine.
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors" / "encode.json"
PARITY = ROOT / "tests" / "vectors" / "excelmanus.json"
GOLDEN_GLOBS = ("errorsjson/testdata/*.golden", "registry/testdata/*.golden")

# Typed form: every value is a two-element list [kind, payload].
#   ["null", null] ["bool", b] ["int", "<decimal>"] ["float", "<float.hex()>"]
#   ["str", s] ["list", [typed...]] ["obj", [[key, typed]...]]
#   ["struct", [name, [[json_key, typed]...]]]  -- a Go struct the test knows
#   ["bytes", "<hex>"]  -- a Go string holding these bytes, possibly not
#                          UTF-8; Python sees bytes.decode("utf-8", "replace")
Typed = list[Any]
Case = tuple[str, Any, Typed]


def typed(v: Any) -> Typed:
    """Return the typed form of a plain Python value."""
    if v is None:
        return ["null", None]
    if isinstance(v, bool):
        return ["bool", v]
    if isinstance(v, int):
        return ["int", str(v)]
    if isinstance(v, float):
        return ["float", v.hex()]
    if isinstance(v, str):
        return ["str", v]
    if isinstance(v, list):
        return ["list", [typed(x) for x in v]]
    if isinstance(v, dict):
        return ["obj", [[k, typed(x)] for k, x in v.items()]]
    raise TypeError(type(v).__name__)


class GoStruct:
    """A value the Go test builds as the named Go struct.

    pairs are the keys the struct encodes, in field order (omitted
    omitempty fields are simply absent).
    """

    def __init__(self, name: str, pairs: list[tuple[str, Any]]) -> None:
        self.name = name
        self.pairs = pairs

    def plain(self) -> dict:
        return {k: plain(v) for k, v in self.pairs}

    def typed(self) -> Typed:
        return ["struct", [self.name, [[k, typed_any(v)] for k, v in self.pairs]]]


class GoBytes:
    """A Go string made of raw bytes that need not be valid UTF-8.

    Python cannot hold such a string; the encoder's documented decision is
    to write what bytes.decode("utf-8", "replace") gives, so that is the
    expected text.
    """

    def __init__(self, data: bytes) -> None:
        self.data = data

    def plain(self) -> str:
        return self.data.decode("utf-8", "replace")

    def typed(self) -> Typed:
        return ["bytes", self.data.hex()]


def plain(v: Any) -> Any:
    if isinstance(v, (GoStruct, GoBytes)):
        return v.plain()
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def typed_any(v: Any) -> Typed:
    if isinstance(v, (GoStruct, GoBytes)):
        return v.typed()
    if isinstance(v, list):
        return ["list", [typed_any(x) for x in v]]
    if isinstance(v, dict):
        return ["obj", [[k, typed_any(x)] for k, x in v.items()]]
    return typed(v)


def string_cases() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for c in range(0x20):
        out.append((f"control U+{c:04X}", f"a{chr(c)}b"))
    out.append(("all controls", "".join(chr(c) for c in range(0x20))))
    extra = {
        "DEL U+007F": "x\x7fy",
        "NEL U+0085": "x\x85y",
        "LINE SEPARATOR U+2028": "x\u2028y",
        "PARAGRAPH SEPARATOR U+2029": "x\u2029y",
        "BOM U+FEFF": "\ufeffstart",
        "replacement char": "\ufffd",
        "noncharacter U+FFFF": "\uffff",
        "max code point": "\U0010ffff",
        "double quote": 'say "hi"',
        "backslash": "C:\\path\\to\\file",
        "backslash before quote": '\\"',
        "solidus": "a/b</script>",
        "html specials": "<a href='x'>&amp;</a>",
        "empty string": "",
        "space only": " ",
        "CJK": "工具参数不完整或不匹配，请根据工具 schema 补齐后重试。",
        "CJK sheet name": "销售数据_2024年",
        "Japanese": "こんにちは、世界",
        "Korean": "안녕하세요",
        "emoji": "😀",
        "emoji ZWJ family": "👨\u200d👩\u200d👧\u200d👦",
        "emoji flag": "🇨🇳🇺🇸",
        "emoji skin tone": "👍🏽",
        "combining accent": "e\u0301",
        "RTL": "مرحبا",
        "mixed": "A1:B2 销售 😀 \"q\" \\ \n\t end",
        "zero width joiner alone": "\u200d",
        "astral CJK ext B": "𠀀𪚥",
        "latin-1": "café ñ ü ß",
        "tab and newline": "line1\n\tline2\r\n",
        "nul in middle of CJK": "中\x00文",
    }
    out.extend(extra.items())
    rng = random.Random(20240611)
    pools = [(0x20, 0x7E), (0x80, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF), (0x00, 0x1F)]
    for i in range(30):
        chars = []
        for _ in range(rng.randint(1, 24)):
            lo, hi = rng.choice(pools)
            chars.append(chr(rng.randint(lo, hi)))
        out.append((f"random string {i}", "".join(chars)))
    return out


def float_cases() -> list[tuple[str, Any]]:
    named = {
        "zero": 0.0,
        "negative zero": -0.0,
        "one": 1.0,
        "minus one": -1.0,
        "one half": 0.5,
        "0.1+0.2": 0.1 + 0.2,
        "0.1": 0.1,
        "1/3": 1 / 3,
        "1e-05": 1e-05,
        "0.0001": 0.0001,
        "0.00011": 0.00011,
        "below 0.0001": 0.0001 - 1e-20,
        "9.999999999999999e-05": 9.999999999999999e-05,
        "0.001": 0.001,
        "1e15": 1e15,
        "1e16": 1e16,
        "9999999999999998.0": 9999999999999998.0,
        "1234567890123456.8": 1234567890123456.8,
        "1.5e16": 1.5e16,
        "1e17": 1e17,
        "1e22": 1e22,
        "1e23": 1e23,
        "float 2^53": float(2**53),
        "float 2^53+2": float(2**53 + 2),
        "float 2^63": float(2**63),
        "float 2^64": float(2**64),
        "5e-324": 5e-324,
        "min normal": 2.2250738585072014e-308,
        "max float": 1.7976931348623157e308,
        "negative max": -1.7976931348623157e308,
        "epsilon": 2.220446049250313e-16,
        "123.456": 123.456,
        "-123.456e-7": -123.456e-7,
        "1e-7": 1e-7,
        "100.0": 100.0,
        "12345678.9": 12345678.9,
        "NaN": float("nan"),
        "Infinity": float("inf"),
        "-Infinity": float("-inf"),
        "3.14159": 3.14159,
        "-1e-05": -1e-05,
        "-1e16": -1e16,
    }
    out: list[tuple[str, Any]] = list(named.items())
    rng = random.Random(1729)
    count = 0
    while count < 40:
        bits = rng.getrandbits(64)
        f = struct.unpack("<d", struct.pack("<Q", bits))[0]
        if f != f or f in (float("inf"), float("-inf")):
            continue
        out.append((f"random bits {count}", f))
        count += 1
    for i in range(30):
        exp = rng.randint(-8, 20)
        out.append((f"random decimal 1e{exp} #{i}", rng.random() * 10**exp))
    return out


def int_cases() -> list[tuple[str, Any]]:
    return [
        ("int zero", 0),
        ("int one", 1),
        ("int minus one", -1),
        ("2^31-1", 2**31 - 1),
        ("2^53-1", 2**53 - 1),
        ("2^53", 2**53),
        ("2^53+1", 2**53 + 1),
        ("-(2^53+1)", -(2**53 + 1)),
        ("2^63-1", 2**63 - 1),
        ("-2^63", -(2**63)),
        ("2^63", 2**63),
        ("2^64-1", 2**64 - 1),
        ("2^64", 2**64),
        ("2^64+1", 2**64 + 1),
        ("-2^64", -(2**64)),
        ("-(2^63+1)", -(2**63 + 1)),
        ("10^30", 10**30),
        ("-10^40", -(10**40)),
        ("2^200", 2**200),
    ]


def nesting_cases() -> list[tuple[str, Any]]:
    def deep_list(n: int) -> Any:
        v: Any = []
        for _ in range(n):
            v = [v]
        return v

    def deep_obj(n: int) -> Any:
        v: Any = {}
        for i in range(n):
            v = {f"k{i}": v}
        return v

    mixed: Any = "leaf"
    for i in range(60):
        mixed = {"层": i, "items": [mixed, None, True]} if i % 2 else [mixed, {"x": 1.5}]
    return [
        ("deep list 200", deep_list(200)),
        ("deep object 200", deep_obj(200)),
        ("deep mixed 60", mixed),
        ("empty list", []),
        ("empty object", {}),
        ("list of empties", [[], {}, "", 0, 0.0, None, False]),
        ("nested empties", {"a": {}, "b": [], "c": [{}], "d": {"e": []}}),
    ]


def object_cases() -> list[tuple[str, Any]]:
    return [
        ("null", None),
        ("true", True),
        ("false", False),
        ("ordered keys not sorted", {"z": 1, "a": 2, "m": 3}),
        ("non-ASCII keys", {"工作表": "Sheet1", "列": ["A", "B"], "😀": True}),
        ("keys needing escapes", {'q"k': 1, "b\\k": 2, "n\nk": 3, "\x00": 4, "\u2028": 5}),
        ("success payload", {"status": "success", "file": "销售.xlsx", "rows": 12, "ratio": 0.25, "cells": [["A1", 1], ["B1", "x"]]}),
        ("mixed list", [1, -2.5, "三", None, True, {"k": [1e16, 1e-05]}]),
        ("error payload python", {
            "status": "error",
            "error_code": "TOOL_EXECUTION_ERROR",
            "tool": "write_cells",
            "exception": "ValueError",
            "message": "invalid literal for int() with base 10: 'abc'",
        }),
        ("bool and ints", {"t": True, "f": False, "i": 2**70, "n": None}),
        ("list of floats on boundaries", [1e-05, 0.0001, 1e15, 1e16, -0.0, 5e-324]),
        ("large object", {f"key{i:03d}": i * 1.5 for i in range(50)}),
        ("matrix", [[r * 10 + c for c in range(10)] for r in range(10)]),
        ("list of CJK rows", [["姓名", "年龄"], ["张三", 28], ["李四", 35.5]]),
    ]


def struct_cases() -> list[tuple[str, Any]]:
    err = GoStruct("ErrorPayload", [
        ("status", "error"), ("error_code", "TOOL_EXECUTION_ERROR"), ("tool", "写入"),
        ("exception", "FileNotFoundError"), ("message", "open 表.xlsx: no such file"),
        ("cause", "no such file or directory"),
    ])
    err_no_cause = GoStruct("ErrorPayload", [
        ("status", "error"), ("error_code", "TOOL_TIMEOUT"), ("tool", "t"),
        ("exception", "TimeoutError"), ("message", ""),
    ])
    tagged_full = GoStruct("Tagged", [
        ("name", "Ünïcödé 名"), ("count", -42), ("ratio", 1e16), ("tags", ["a", "b"]),
        ("note", "present"), ("Untagged", True), ("nested", GoStruct("Inner", [("x", 0.1 + 0.2), ("y", [])])),
    ])
    tagged_empty = GoStruct("Tagged", [
        ("name", ""), ("count", 0), ("ratio", 0.0), ("tags", []),
        ("Untagged", False), ("nested", GoStruct("Inner", [("x", -0.0), ("y", [])])),
    ])
    return [
        ("struct ErrorPayload with cause", err),
        ("struct ErrorPayload without cause", err_no_cause),
        ("struct Tagged full", tagged_full),
        ("struct Tagged omitempty", tagged_empty),
        ("list of structs", [err_no_cause, GoStruct("Inner", [("x", 5e-324), ("y", ["😀"])])]),
        ("object holding struct", {"result": tagged_full, "ok": True}),
    ]


def invalid_utf8_cases() -> list[tuple[str, Any]]:
    """Go strings that are not UTF-8: every kind of ill-formed subpart."""
    named = {
        "lone 0xFF": b"a\xffb",
        "0xFF 0xFE": b"\xff\xfe",
        "lone continuation": b"x\x80y",
        "overlong C0 AF": b"\xc0\xaf",
        "truncated 2-byte at end": b"ab\xc3",
        "truncated 3-byte at end": b"\xe4\xb8",
        "truncated 3-byte before ASCII": b"\xe4\xb8x",
        "truncated 4-byte emoji": b"\xf0\x9f\x98",
        "truncated 4-byte then CJK": b"\xf0\x9f\x98\xe4\xb8\xad",
        "surrogate encoded ED A0 80": b"\xed\xa0\x80",
        "overlong E0 80 80": b"\xe0\x80\x80",
        "overlong F0 80 80 80": b"\xf0\x80\x80\x80",
        "above U+10FFFF F4 90": b"\xf4\x90\x80\x80",
        "F5 lead": b"\xf5\x80",
        "invalid between escapes": b"\"\xff\n\xe4\xb8\\",
        "invalid around valid CJK": b"\xff\xe4\xb8\xad\xe6\x96",
    }
    out: list[tuple[str, Any]] = [(k, GoBytes(v)) for k, v in named.items()]
    out.append(("object key and value not UTF-8", {"k": GoBytes(b"\xe4\xb8"), "list": [GoBytes(b"\xc3"), "ok"]}))
    return out


def build_cases() -> list[dict]:
    groups: list[Callable[[], list[tuple[str, Any]]]] = [
        string_cases, float_cases, int_cases, nesting_cases, object_cases, struct_cases,
        invalid_utf8_cases,
    ]
    cases: list[dict] = []
    seen = set()
    for group in groups:
        for name, value in group():
            if name in seen:
                raise SystemExit(f"duplicate case name {name!r}")
            seen.add(name)
            cases.append({
                "name": name,
                "value": typed_any(value),
                "expected": json.dumps(plain(value), ensure_ascii=False),
            })
    return cases


def render_vectors() -> str:
    """Render the corpus: a JSON object with one case per line.

    ensure_ascii=True keeps the file itself plain ASCII, so every expected
    string survives any editor or transport unchanged.
    """
    head = json.dumps("Generated by tests/vectors/generate.py from CPython's "
                      "json.dumps(value, ensure_ascii=False). Do not edit; run `make golden`.")
    lines = [json.dumps(case, ensure_ascii=True) for case in build_cases()]
    return '{"comment": ' + head + ',\n"cases": [\n' + ",\n".join(lines) + "\n]}\n"


def render_parity() -> str:
    """Render the excelmanus parity corpus, one case per line, ASCII only."""
    import excelmanus_corpus as corpus  # beside this file; stdlib only

    head = json.dumps("Generated by tests/vectors/generate.py from excelmanus_oracle.py. "
                      "Do not edit; run `make golden`.")
    groups = {
        "validation": corpus.validation_cases(),
        "messages": corpus.message_cases(),
        "truncation": corpus.truncation_cases(),
    }
    parts = ['{"comment": ' + head, '"schemas": ' + json.dumps(corpus.schemas(), ensure_ascii=True)]
    for key, cases in groups.items():
        lines = [json.dumps(c, ensure_ascii=True) for c in cases]
        parts.append(f'"{key}": [\n' + ",\n".join(lines) + "\n]")
    return ",\n".join(parts) + "}\n"


def check_golden(path: Path) -> str | None:
    """Return a problem description, or None when path is Python's bytes."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8: {exc}"
    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict:
        out: dict = {}
        for k, v in items:
            if k in out:
                duplicates.append(k)
            out[k] = v
        return out

    try:
        value = json.loads(text, object_pairs_hook=pairs)
    except ValueError as exc:
        return f"not JSON: {exc}"
    if duplicates:
        return f"duplicate keys {duplicates}"
    again = json.dumps(value, ensure_ascii=False)
    if again != text:
        return f"differs from json.dumps:\n  file:   {text!r}\n  python: {again!r}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when a committed golden is stale")
    args = parser.parse_args()
    outputs = {VECTORS: render_vectors(), PARITY: render_parity()}
    if not args.check:
        for path, rendered in outputs.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(rendered, encoding="utf-8", newline="\n")
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    failed = False
    for path, rendered in outputs.items():
        committed = path.read_text(encoding="utf-8") if path.exists() else ""
        if committed != rendered:
            print(f"stale: {path.relative_to(ROOT)} (run `make golden`)")
            failed = True
    goldens = sorted(p for g in GOLDEN_GLOBS for p in ROOT.glob(g))
    for path in goldens:
        problem = check_golden(path)
        if problem:
            print(f"stale: {path.relative_to(ROOT)}: {problem}")
            failed = True
    if failed:
        return 1
    print(f"ok: {VECTORS.relative_to(ROOT)}, {PARITY.relative_to(ROOT)} and {len(goldens)} payload goldens match Python")
    return 0


if __name__ == "__main__":
    sys.exit(main())
