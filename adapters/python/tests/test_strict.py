"""OpenAI strict mode: schemas from get_openai_schemas(strict=True) and
calls shaped by them, on every spreadsheet tool of the real binary."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from registry_sidecar import Client, Sidecar, ToolRegistry, strict_schema
from registry_sidecar.payloads import error_fields

REPO = pathlib.Path(__file__).resolve().parents[3]
GOLDEN = REPO / "excelops" / "internal" / "tools" / "testdata" / "schemas_strict.golden.json"

# The same sample as Go's registry/strict_test.go.
SAMPLE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "file_path": {"type": "string", "minLength": 1, "description": "Path"},
        "mode": {"type": "string", "enum": ["a", "b"], "default": "a"},
        "column": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "value": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "font": {
            "type": "object",
            "properties": {"bold": {"type": "boolean"}, "size": {"type": "number", "maximum": 409}},
            "required": ["size"],
            "additionalProperties": False,
        },
        "rows": {
            "type": "array",
            "maxItems": 3,
            "items": {
                "type": "object",
                "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
                "required": ["x"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["file_path"],
    "additionalProperties": False,
}


def test_strict_schema_of_the_sample() -> None:
    before = json.dumps(SAMPLE)
    got = strict_schema(SAMPLE)
    assert json.dumps(SAMPLE) == before, "the schema itself is not changed"
    assert json.dumps(got) == json.dumps(
        {
            "type": "object",
            "properties": {
                "file_path": {"type": "string", "description": "Path"},
                "mode": {"type": ["string", "null"], "enum": ["a", "b", None]},
                "column": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
                "value": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "font": {
                    "type": ["object", "null"],
                    "properties": {"bold": {"type": ["boolean", "null"]}, "size": {"type": "number", "maximum": 409}},
                    "required": ["bold", "size"],
                    "additionalProperties": False,
                },
                "rows": {
                    "type": ["array", "null"],
                    "maxItems": 3,
                    "items": {
                        "type": "object",
                        "properties": {"x": {"type": "integer"}, "y": {"type": ["integer", "null"]}},
                        "required": ["x", "y"],
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["file_path", "mode", "column", "value", "font", "rows"],
            "additionalProperties": False,
        }
    )


@pytest.fixture(scope="module")
def tools_sidecar(sidecar_binary: pathlib.Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sidecar]:
    """A sidecar with the spreadsheet tools only, over an empty workspace."""
    with Sidecar.launch(tmp_path_factory.mktemp("strict"), binary=sidecar_binary) as sc:
        yield sc


@pytest.fixture(scope="module")
def facade(tools_sidecar: Sidecar) -> Iterator[ToolRegistry]:
    with ToolRegistry.from_sidecar(tools_sidecar) as reg:
        yield reg


def test_strict_schemas_match_go(facade: ToolRegistry) -> None:
    """strict_schema gives, for every tool, what Go's registry.Strict() does
    (excelops/internal/tools/testdata/schemas_strict.golden.json), key order included."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = facade.get_openai_schemas("chat_completions", strict=True)
    assert [json.dumps(g, ensure_ascii=False) for g in golden] == [json.dumps(s, ensure_ascii=False) for s in got]
    responses = facade.get_openai_schemas("responses", ["write_cells"], strict=True)
    assert responses[0]["strict"] is True and responses[0]["name"] == "write_cells"
    assert "strict" not in facade.get_openai_schemas("responses", ["write_cells"])[0]


def _sample(schema: dict[str, Any], strict: bool) -> Any:
    """A value schema accepts; objects get their required properties and,
    when strict, None for every optional one (Go's sampleOf)."""
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return _sample(schema["anyOf"][0], strict)
    kind = schema.get("type")
    if kind == "string":
        return "A1"
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return True
    if kind == "array":
        return [_sample(schema["items"], strict) for _ in range(schema.get("minItems", 0))]
    if kind == "object":
        required = schema.get("required", [])
        out: dict[str, Any] = {}
        for name, sub in schema.get("properties", {}).items():
            if name in required:
                out[name] = _sample(sub, strict)
            elif strict:
                out[name] = None
        return out
    return None


def test_strict_calls_on_every_tool(facade: ToolRegistry, tools_sidecar: Sidecar) -> None:
    """A call shaped by the strict schema (every optional argument None)
    answers through the facade exactly as the call without those arguments;
    sent as is, the Nones are refused by validation."""
    tools = facade.get_all_tools()
    assert len(tools) == 45
    with Client(tools_sidecar.url, token=tools_sidecar.token) as client:
        for tool in tools:
            strict_args = _sample(tool.input_schema, strict=True)
            omitted = _sample(tool.input_schema, strict=False)
            got = facade.call_tool(tool.name, strict_args)
            want = client.call_tool(tool.name, omitted).text
            assert got == want, tool.name
            fields = error_fields(got)
            assert fields is None or fields.get("error_code") != "TOOL_ARGUMENT_VALIDATION_ERROR", (tool.name, got)
            if strict_args != omitted:
                plain = error_fields(client.call_tool(tool.name, strict_args).text)
                assert plain is not None and plain.get("error_code") == "TOOL_ARGUMENT_VALIDATION_ERROR", tool.name
    strict_facade = ToolRegistry(facade.client, null_as_omitted=False)
    refused = error_fields(strict_facade.call_tool("read_excel", {"file_path": "A1", "sheet_name": None}))
    assert refused is not None and refused.get("error_code") == "TOOL_ARGUMENT_VALIDATION_ERROR"
