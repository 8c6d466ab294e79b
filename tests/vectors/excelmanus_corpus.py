"""The parity corpus: schemas, arguments and results run through the oracle.

Every case is one call the Go registry makes under the excelmanus profile;
generate.py stores what excelmanus_oracle answers for it. Validation cases
stay inside the keyword subset where JSON Schema and excelmanus's rules
agree on validity (the Go registry lets the full validator decide; see
excelmanus_oracle.py), so each case is refused by both or by neither.
"""

from __future__ import annotations

import json
import random
from typing import Any

import excelmanus_oracle as oracle

# A format_cells-like schema: nested objects, enums, bounds, lists.
FORMAT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "file_path": {"type": "string", "minLength": 1, "maxLength": 12},
        "sheet_name": {"type": "string", "pattern": "^[^\\\\/?*\\[\\]:]+$"},
        "cell_range": {"type": "string", "pattern": "^[A-Z]+[0-9]+(:[A-Z]+[0-9]+)?$"},
        "row": {"type": "integer", "minimum": 1, "maximum": 1048576},
        "ratio": {"type": "number", "minimum": 0.5, "maximum": 1e16},
        "mode": {"type": "string", "enum": ["read", "write", "it's", "say \"hi\""]},
        "level": {"enum": [1, 2, 3]},
        "note": {"type": ["string", "null"], "maxLength": 3},
        "flag": {"type": "boolean"},
        "tags": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "string", "minLength": 2}},
        "rows": {"type": "array", "items": {"type": "array", "maxItems": 2, "items": {"type": "integer", "minimum": 0}}},
        "format": {
            "type": "object",
            "properties": {
                "font": {
                    "type": "object",
                    "properties": {"bold": {"type": "boolean"}, "size": {"type": "number", "minimum": 1, "maximum": 409}},
                    "additionalProperties": False,
                },
                "fill": {"type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"},
                "number_format": {"type": "string"},
            },
            "additionalProperties": False,
        },
        "target": {
            "oneOf": [
                {"type": "string", "minLength": 1},
                {"type": "object", "properties": {"sheet": {"type": "string"}}, "required": ["sheet"]},
            ]
        },
        "either": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
    },
    "required": ["file_path", "cell_range"],
    "additionalProperties": False,
}

OPEN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "nested": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}},
}

OK = {"file_path": "a.xlsx", "cell_range": "A1"}


def args(**extra: Any) -> dict[str, Any]:
    """Valid base arguments plus extra (None values drop a key)."""
    out = dict(OK)
    for k, v in extra.items():
        if v is ...:
            out.pop(k, None)
        else:
            out[k] = v
    return out


SCHEMAS: dict[str, dict[str, Any]] = {"format": FORMAT_SCHEMA, "open": OPEN_SCHEMA}


def schemas() -> dict[str, str]:
    """The corpus's schemas by name, as JSON text."""
    return {name: json.dumps(schema, ensure_ascii=False) for name, schema in SCHEMAS.items()}


def validation_cases() -> list[dict[str, Any]]:
    """(name, schema name, arguments) for every violation kind."""
    f = FORMAT_SCHEMA
    rows: list[tuple] = [
        ("valid", f, args()),
        ("valid nested and oneOf", f, args(format={"font": {"bold": True, "size": 11}}, target={"sheet": "S"}, either=1.5)),
        ("required missing, schema order", f, {"row": 2}),
        ("required both missing, empty args", f, {}),
        ("unknown fields sorted", f, args(zeta=1, Alpha=2, alpha=3, 工作表="x", _x=0)),
        ("type str for integer", f, args(row="3")),
        ("type bool for integer", f, args(row=True)),
        ("type float for integer", f, args(row=2.5)),
        ("type bool for number", f, args(ratio=False)),
        ("type null for string", f, args(file_path=None)),
        ("type list for string", f, args(file_path=["a"])),
        ("type dict for array", f, args(tags={"a": 1})),
        ("type list of types", f, args(note=5)),
        ("type list of types accepts null", f, args(note=None, row=0)),
        ("type boolean gets int", f, args(flag=1)),
        ("enum string", f, args(mode="delete")),
        ("enum repr single quote", f, args(mode="don't")),
        ("enum repr both quotes", f, args(mode="it's \"x\"")),
        ("enum repr controls and CJK", f, args(mode="写入\n\t\\")),
        ("enum int", f, args(level=4)),
        ("enum float repr", f, args(level=2.5)),
        ("enum big float repr", f, args(level=1e16)),
        ("enum list value", f, args(level=[1, "a", None, True])),
        ("enum dict value", f, args(level={"k": "v", "n": 1.0})),
        ("enum 1.0 equals 1", f, args(level=1.0, row=0)),
        ("minLength", f, args(file_path="")),
        ("maxLength code points", f, args(file_path="销售数据表格😀é😀éXY")),
        ("maxLength emoji fits", f, args(file_path="😀😀😀😀😀😀😀😀😀😀😀😀", row=0)),
        ("pattern repr backslashes", f, args(sheet_name="a/b")),
        ("pattern unanchored search", f, args(cell_range="a1")),
        ("minimum int", f, args(row=0)),
        ("maximum int", f, args(row=1048577)),
        ("minimum float bound", f, args(ratio=0.25)),
        ("maximum float bound repr", f, args(ratio=2e16)),
        ("minimum negative", f, args(row=-7)),
        ("minItems", f, args(tags=[])),
        ("maxItems", f, args(tags=["aa", "bb", "cc", "dd"])),
        ("item type", f, args(tags=["aa", 5, "c"])),
        ("nested item paths", f, args(rows=[[1, 2], [3, -1], [1, 2, 3], ["x"]])),
        ("nested object type", f, args(format="bold")),
        ("nested unknown keys", f, args(format={"font": {"bold": "yes", "colour": "red"}, "border": 1, "fill": "red"})),
        ("nested unknown keys two levels", f, args(format={"font": {"italic": True}, "align": "left"})),
        ("oneOf none", f, args(target=5)),
        ("oneOf none object", f, args(target={"name": "S"})),
        ("oneOf two", f, args(either=3)),
        ("argument order of recursion", f, {"row": 0, "cell_range": "a1", "file_path": "", "zz": 1}),
        ("many violations cap detail and list", f, {
            "file_path": "", "cell_range": "1", "row": 0, "ratio": 0.1, "mode": "x", "level": 9,
            "note": "long", "flag": "no", "tags": [1, 2, 3, 4], "rows": [[-1, -2, -3], [-4]],
            "format": {"fill": "red", "font": {"size": 0}, "x": 1}, "target": 1, "either": 1,
            "u1": 1, "u2": 2, "u3": 3,
        }),
        ("open schema nested required", OPEN_SCHEMA, {"a": "x", "nested": {}, "extra": [1]}),
        ("non-ASCII keys and values", f, args(工作表="销售", format={"字体": {"粗体": True}})),
    ]
    rows.extend(random_validation_rows())
    cases = []
    for name, schema, arguments in rows:
        text = json.dumps(arguments, ensure_ascii=False)
        expected = oracle.validation_payload("format_cells", text, schema)
        cases.append({
            "name": name,
            "tool": "format_cells",
            "schema": next(k for k, v in SCHEMAS.items() if v is schema),
            "arguments": text,
            "expected": expected if expected is not None else "ok",
        })
    return cases


# Values per field of FORMAT_SCHEMA, valid and invalid, chosen where JSON
# Schema and Python agree on validity (no integral floats for integer or
# oneOf fields, no bools against numeric enums).
POOLS: dict[str, list[Any]] = {
    "file_path": ["a.xlsx", "", "销售数据表格😀é😀éXY", 5, None, ["a"]],
    "sheet_name": ["S1", "a/b", "", 3, "表[1]"],
    "cell_range": ["A1", "a1", "A1:B2", 1, "A1:"],
    "row": [1, 0, 1048577, "3", 2.5, True, -1],
    "ratio": [0.75, 0.25, 3e16, False, "x", 1],
    "mode": ["read", "delete", "it's", 1, None, "写入"],
    "level": [1, 4, 2.5, "1", [1], 3.0],
    "note": ["ab", "long", None, 5],
    "flag": [True, "no", 0],
    "tags": [["aa"], [], ["aa", "bb", "cc", "dd"], ["a", 5], "aa"],
    "rows": [[[1, 2]], [[1, 2, 3]], [[-1]], [["x"]], [[1], [2, -3]], "r"],
    "format": [{}, {"font": {"bold": True}}, {"font": {"colour": 1}}, {"fill": "#00FF00"}, {"fill": "red", "x": 1},
               "bold", {"font": {"size": 0}}, {"font": {"size": 500.5, "b": 1}, "z": None}],
    "target": ["S", {"sheet": "S"}, 5, {"name": 1}, ""],
    "either": [1, 1.5, "x", None],
    "u1": [1], "工作表": ["x"], "Zeta": [[]],
}


def random_validation_rows() -> list[tuple]:
    """Random combinations of POOLS in random argument order."""
    rng = random.Random(31)
    out = []
    for i in range(80):
        arguments = {}
        keys = list(POOLS)
        rng.shuffle(keys)
        for k in keys:
            required = k in ("file_path", "cell_range")
            unknown = k not in FORMAT_SCHEMA["properties"]
            if rng.random() < (0.85 if required else 0.15 if unknown else 0.4):
                arguments[k] = rng.choice(POOLS[k])
        out.append((f"random arguments {i}", FORMAT_SCHEMA, arguments))
    return out


def _rows(n: int) -> list[Any]:
    return [[i, f"客户{i}😀", i * 1.5, None] for i in range(n)]


# Pretty-printed JSON whose json.dumps form fits: the search reaches k = n
# and answers the whole object re-dumped.
PADDED = json.dumps({"status": "success", "data": [1, 2, 3], "note": "完成"}, indent=80, ensure_ascii=False)


def truncation_cases() -> list[dict[str, Any]]:
    """(name, result text, limit) covering each phase and the fallback."""
    styles = {f"列{i:02d}": "宋体 12pt 粗体" for i in range(40)}
    long_out = "行" * 300 + "尾巴😀END"
    rows: list[tuple] = [
        ("list phase keeps a prefix", {"status": "success", "small": [1], "data": _rows(100), "total": 100}, 3000),
        ("list phase small limit", {"status": "success", "data": _rows(60)}, 400),
        ("list ties pick the first", {"status": "success", "a": _rows(20), "b": _rows(20)}, 600),
        ("list phase empties the list", {"status": "success", "data": _rows(3), "meta": "x" * 80}, 330),
        ("list phase fails, dict phase from the original", {"status": "success", "data": _rows(3), "styles": styles}, 600),
        ("dict phase", {"status": "success", "shape": {"rows": 2}, "styles": styles}, 400),
        ("dict under 200 chars is skipped", {"status": "success", "styles": {"a": "x" * 150}, "text": "y" * 120}, 200),
        ("string phase keeps the tail", {"status": "success", "stdout": long_out, "_hidden": "x" * 150}, 500),
        ("string phase skips marker-like keys", {"_stdout": long_out, "stderr": "e" * 101}, 400),
        ("nothing shrinkable: plain fallback", {f"k{i:02d}": i for i in range(60)}, 100),
        ("string too short to shrink: plain fallback", {"status": "success", "s": "z" * 99, "t": "w" * 99}, 150),
        ("top-level list is plain text", [["一", "二", "三"]] * 30, 50),
        ("not JSON is plain text", "第一行\n" * 400, 1000),
        ("CJK and emoji counted in code points", {"status": "success", "data": ["😀中文" * 5] * 50}, 300),
        ("exactly at the limit is untouched", {"status": "success", "data": [1, 2, 3]}, 40),
        ("string phase tight limit", {"status": "success", "log": "日志" * 200 + "😀"}, 250),
        ("string ties pick the first", {"a": "x" * 200, "b": "y" * 200}, 380),
        ("dict ties pick the first", {"p": styles, "q": dict(styles)}, 1200),
        ("padded text re-dumped whole", PADDED, 400),
        ("floats and big ints re-dumped as Python", {"status": "success", "data": [1.0, 1e16, 1e-05, 2**70, -0.0] * 40}, 300),
    ]
    rng = random.Random(13)
    words = ["a", "表格", "😀", '"q"', "\\", "\n", "éé", "行列", "x" * 12]

    def gen(depth: int) -> Any:
        k = rng.randrange(7)
        if k == 0 and depth < 2:
            return [gen(depth + 1) for _ in range(rng.randrange(14))]
        if k == 1 and depth < 2:
            return {f"{rng.choice(words)}{i}": gen(depth + 1) for i in range(rng.randrange(8))}
        if k == 2:
            return rng.normalvariate(0, 1e6)
        if k == 3:
            return rng.randrange(1 << 40)
        return "".join(rng.choice(words) for _ in range(rng.randrange(16)))

    for i in range(60):
        obj = {"status": "success"}
        for j in range(rng.randrange(5) + 1):
            obj[f"f{j}"] = gen(0)
        n = len(json.dumps(obj, ensure_ascii=False))
        rows.append((f"random object {i}", obj, rng.randrange(n + 50) + 1))
    cases = []
    for name, value, limit in rows:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        cases.append({"name": name, "text": text, "limit": limit, "expected": oracle.truncate_result(text, limit)})
    return cases


def message_cases() -> list[dict[str, str]]:
    return [
        {"name": "not found", "tool": "no_such_tool", "expected": oracle.not_found_message("no_such_tool")},
        {"name": "not allowed", "tool": "format_cells", "expected": oracle.not_allowed_message("format_cells")},
    ]
