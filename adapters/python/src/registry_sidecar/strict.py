"""OpenAI strict-mode tool schemas, as the Go registry derives them.

OpenAI strict function calling (``"strict": true``) accepts a subset of JSON
Schema in which every property is required and every object refuses unknown
keys, so a model in strict mode sends every argument, ``null`` for an
optional one it leaves out. :func:`strict_schema` is Go's
``registry.StrictSchema`` (a test compares both on every tool); the sidecar
maps those nulls back to omitted arguments when a call asks it to
(``_meta.nullAsOmitted``, which :class:`~registry_sidecar.ToolRegistry` sends).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The schema keywords OpenAI strict mode accepts; strict_schema drops the
#: others (the sidecar still enforces them when the call comes back).
STRICT_KEYWORDS: frozenset[str] = frozenset(
    {
        "type",
        "description",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "$defs",
        "$ref",
    }
)

_NULL: dict[str, Any] = {"type": "null"}


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Return the OpenAI strict-mode form of a tool's JSON Schema (schema is
    not changed): every object lists all its properties in ``required`` and
    refuses unknown keys; a property that was optional also accepts null (its
    type gains ``"null"``, its enum ``None``, its anyOf a ``{"type": "null"}``
    branch); keywords outside :data:`STRICT_KEYWORDS` are dropped."""
    return _object(schema)


def _node(value: Any) -> Any:
    if isinstance(value, Mapping):
        return _object(value)
    if isinstance(value, list):
        return [_node(v) for v in value]
    return value


def _object(schema: Mapping[str, Any]) -> dict[str, Any]:
    required = schema.get("required")
    required = required if isinstance(required, list) else []
    props = schema.get("properties")
    is_object = "properties" in schema or schema.get("type") == "object"
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key not in STRICT_KEYWORDS or key == "required" or (key == "additionalProperties" and is_object):
            continue
        if key == "properties" and isinstance(value, Mapping):
            out[key] = {
                name: _node(sub) if name in required else _nullable(_node(sub)) for name, sub in value.items()
            }
        elif key in ("enum", "const", "$ref"):
            out[key] = value
        elif key == "$defs" and isinstance(value, Mapping):
            out[key] = {name: _node(sub) for name, sub in value.items()}
        else:
            out[key] = _node(value)
    if is_object:
        out["required"] = list(props) if isinstance(props, Mapping) else []
        out["additionalProperties"] = False
    return out


def _nullable(schema: Any) -> Any:
    """Make a strict schema accept null too."""
    if not isinstance(schema, dict) or _accepts_null(schema):
        return schema
    if "$ref" in schema:
        return {"anyOf": [schema, dict(_NULL)]}
    out = dict(schema)
    if isinstance(out.get("anyOf"), list):
        out["anyOf"] = [*out["anyOf"], dict(_NULL)]
        return out
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
    elif isinstance(kind, list):
        out["type"] = [*kind, "null"]
    if isinstance(out.get("enum"), list):
        out["enum"] = [*out["enum"], None]
    return out


def _accepts_null(schema: Mapping[str, Any]) -> bool:
    """Whether schema lets null through: untyped, a type (or an anyOf
    branch) of null, or None among its enum values; a $ref counts as no."""
    if "$ref" in schema:
        return False
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        return any(isinstance(b, Mapping) and _accepts_null(b) for b in branches)
    kind = schema.get("type")
    if isinstance(kind, str) and kind != "null":
        return False
    if isinstance(kind, list) and "null" not in kind:
        return False
    values = schema.get("enum")
    if isinstance(values, list):
        return any(v is None for v in values)
    return True
