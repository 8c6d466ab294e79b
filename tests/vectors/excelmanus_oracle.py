"""excelmanus's validation and result-text rules, in plain Python (standard library only).

This is the oracle the Go registry's `excelmanus` message profile is held
to: generate.py runs it over a corpus of schemas, arguments and results and
writes the payload texts it gives into tests/vectors/excelmanus.json; the Go
test (registry/parity_test.go) requires CallTool to answer those bytes.

It is written from the rules as excelmanus's ToolRegistry applies them (excelmanus's
``_collect_schema_violations``, its schema-validation payload and
``ToolDef.truncate_result``), on the values Python's own ``json.loads``
gives, so type names, ``repr()``, ``==`` between 1, 1.0 and True, ``len()``
in code points and key order are Python's by construction.

One documented extension is modelled too, because the Go payload carries
it: when an object below the root holds keys its schema does not declare,
the payload ends with ``nested_accepted_fields`` (path -> sorted accepted
keys). Payloads without such keys are exactly excelmanus's.
"""

from __future__ import annotations

import json
import re
from typing import Any

VALIDATION_MESSAGE = "工具参数与 schema 不匹配，请修正后重试。"
ERROR_CODE = "TOOL_ARGUMENT_VALIDATION_ERROR"
DETAIL_VIOLATIONS = 5
LISTED_VIOLATIONS = 20
DEFAULT_MAX_RESULT_CHARS = 3000


def _type_matches(value: Any, schema_type: Any) -> bool:
    """A JSON Schema ``type`` (a name or a list of names) against a value."""
    if isinstance(schema_type, str):
        names = [schema_type]
    elif isinstance(schema_type, list):
        names = [n for n in schema_type if isinstance(n, str)]
    else:
        return True
    if not names:
        return True
    checks = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "null": lambda v: v is None,
    }
    return any(checks.get(name, lambda v: True)(value) for name in names)


class Walk:
    """Collects violations for one call; ``nested`` gathers the extension."""

    def __init__(self) -> None:
        self.violations: list[str] = []
        self.nested: dict[str, list[str]] = {}

    def node(self, value: Any, schema: dict[str, Any], path: str) -> None:
        """Check one value against one schema node, in §3a's order."""
        out = self.violations
        one_of = schema.get("oneOf")
        if isinstance(one_of, list) and one_of:
            matches = 0
            for branch in one_of:
                if isinstance(branch, dict):
                    trial = Walk()
                    trial.node(value, branch, path)
                    matches += not trial.violations
            if matches != 1:
                out.append(f"{path}: 必须匹配 oneOf 的 1 个分支，当前匹配 {matches} 个")
                return
        if "type" in schema and not _type_matches(value, schema["type"]):
            out.append(f"{path}: 类型不匹配，期望 {schema['type']!r}，实际 {type(value).__name__}")
            return
        enum = schema.get("enum")
        if isinstance(enum, list) and enum and value not in enum:
            out.append(f"{path}: 不在允许枚举中，当前值 {value!r}")
        if isinstance(value, str):
            lo, hi, pattern = schema.get("minLength"), schema.get("maxLength"), schema.get("pattern")
            if isinstance(lo, int) and len(value) < lo:
                out.append(f"{path}: 长度不能小于 {lo}")
            if isinstance(hi, int) and len(value) > hi:
                out.append(f"{path}: 长度不能超过 {hi}")
            if isinstance(pattern, str) and pattern and re.search(pattern, value) is None:
                out.append(f"{path}: 不匹配 pattern {pattern!r}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            lo, hi = schema.get("minimum"), schema.get("maximum")
            if isinstance(lo, (int, float)) and value < lo:
                out.append(f"{path}: 不能小于 {lo}")
            if isinstance(hi, (int, float)) and value > hi:
                out.append(f"{path}: 不能超过 {hi}")
        if isinstance(value, list):
            lo, hi = schema.get("minItems"), schema.get("maxItems")
            if isinstance(lo, int) and len(value) < lo:
                out.append(f"{path}: 列表长度不能小于 {lo}")
            if isinstance(hi, int) and len(value) > hi:
                out.append(f"{path}: 列表长度不能超过 {hi}")
            items = schema.get("items")
            if isinstance(items, dict):
                for i, item in enumerate(value):
                    self.node(item, items, f"{path}[{i}]")
            return
        if not isinstance(value, dict):
            return
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        required = schema.get("required")
        for name in required if isinstance(required, list) else []:
            if isinstance(name, str) and name not in value:
                out.append(f"{path}.{name}: 缺少必填字段")
        if schema.get("additionalProperties") is False and props:
            unknown = [k for k in sorted(value) if k not in props]
            out.extend(f"{path}.{k}: 非法字段（schema 未声明）" for k in unknown)
            if unknown and path != "$":
                self.nested[path] = sorted(props)
        for name, item in value.items():
            sub = props.get(name)
            if isinstance(sub, dict):
                self.node(item, sub, f"{path}.{name}")


def validation_payload(tool: str, arguments_text: str, schema: dict[str, Any]) -> str | None:
    """The payload excelmanus answers for these arguments, or None if valid."""
    arguments = json.loads(arguments_text)
    walk = Walk()
    walk.node(arguments, schema, "$")
    if not walk.violations:
        return None
    required = schema.get("required")
    props = schema.get("properties")
    payload: dict[str, Any] = {
        "status": "error",
        "error_code": ERROR_CODE,
        "tool": tool,
        "message": VALIDATION_MESSAGE,
        "detail": "; ".join(walk.violations[:DETAIL_VIOLATIONS]),
        "violations": walk.violations[:LISTED_VIOLATIONS],
        "required_fields": [r for r in required if isinstance(r, str)] if isinstance(required, list) else [],
        "accepted_fields": sorted(str(k) for k in props) if isinstance(props, dict) else [],
        "provided_fields": sorted(arguments),
    }
    if walk.nested:
        payload["nested_accepted_fields"] = walk.nested
    return json.dumps(payload, ensure_ascii=False)


def not_found_message(tool: str) -> str:
    return f"工具 '{tool}' 未注册。"


def not_allowed_message(tool: str) -> str:
    return f"工具 '{tool}' 不在授权范围内。"


# -- truncation ---------------------------------------------------------------


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, default=str)


def _largest(sizes: dict[str, int]) -> str | None:
    """The key of the biggest size; the first one in insertion order on ties."""
    if not sizes:
        return None
    return max(sizes, key=lambda k: sizes[k])  # max keeps the first of equals, as a stable sort


def _search(n: int, limit: int, candidate: Any) -> str | None:
    """Binary search over k in [0, n] for the largest candidate(k) that fits."""
    lo, hi, best = 0, n, None
    while lo <= hi:
        mid = (lo + hi) // 2
        text = _dumps(candidate(mid))
        if len(text) <= limit:
            best, lo = text, mid + 1
        else:
            hi = mid - 1
    return best


def _shrink_list(data: dict[str, Any], limit: int) -> str | None:
    field = _largest({k: len(v) for k, v in data.items() if isinstance(v, list) and v})
    if field is None:
        return None
    full = data[field]

    def candidate(k: int) -> dict[str, Any]:
        out = dict(data)
        out[field] = full[:k]
        if k < len(full):
            out[f"_{field}_truncated"] = True
            out[f"_{field}_note"] = (
                f"⚠️ 完整数据有 {len(full)} 行，仅展示前 {k} 行（字段: {field}）。"
                "如需更多数据，可用 offset/max_rows 分页读取，或用 run_code 执行 pandas 操作全量数据。"
            )
        else:
            out.pop(f"_{field}_truncated", None)
            out.pop(f"_{field}_note", None)
        return out

    return _search(len(full), limit, candidate)


def _shrink_dict(data: dict[str, Any], limit: int) -> str | None:
    sizes = {}
    for k, v in data.items():
        if isinstance(v, dict) and not k.startswith("_"):
            size = len(_dumps(v))
            if size > 200:
                sizes[k] = size
    field = _largest(sizes)
    if field is None:
        return None
    items = list(data[field].items())

    def candidate(k: int) -> dict[str, Any]:
        kept = dict(items[:k])
        if k < len(items):
            kept["__truncated__"] = f"保留 {k}/{len(items)} 项"
        out = dict(data)
        out[field] = kept
        return out

    return _search(len(items), limit, candidate)


def _shrink_string(data: dict[str, Any], limit: int) -> str | None:
    field = _largest({k: len(v) for k, v in data.items() if isinstance(v, str) and len(v) > 100 and not k.startswith("_")})
    if field is None:
        return None
    full = data[field]

    def candidate(k: int) -> dict[str, Any]:
        out = dict(data)
        if k < len(full):
            out[field] = full[len(full) - k:]
            out[f"_{field}_note"] = (
                f"⚠️ 原始输出 {len(full)} 字符，已截断前部，保留后 {k} 字符。"
                "如需完整输出，可在 run_code 中将结果写入文件后用 read_text_file 查看。"
            )
        else:
            out.pop(f"_{field}_note", None)
        return out

    return _search(len(full), limit, candidate)


def truncate_result(text: str, limit: int = DEFAULT_MAX_RESULT_CHARS) -> str:
    """excelmanus's ToolDef.truncate_result with its default head-only cut."""
    if limit <= 0 or len(text) <= limit:
        return text
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        for phase in (_shrink_list, _shrink_dict, _shrink_string):
            out = phase(parsed, limit)
            if out is not None:
                return out
    return f"{text[:limit]}\n[结果已截断，原始长度: {len(text)} 字符]"
