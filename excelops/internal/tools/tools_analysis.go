package tools

import "github.com/google/jsonschema-go/jsonschema"

// analysisTools are the read-only analysis tools an agent written for
// excelmanus calls by the same names and arguments: filtering rows by
// conditions (tool_filter_data.go), searching cell values
// (tool_search_values.go) and finding the columns that link workbooks
// (tool_relationships.go).
func analysisTools() []toolSpec {
	return []toolSpec{filterDataTool, searchValuesTool, discoverRelationshipsTool}
}

// queryValueSchema is the schema of a condition value: a string, a number,
// a boolean or a list of strings, numbers and booleans (strict mode adds
// null, read as no value).
func queryValueSchema(null bool) *jsonschema.Schema {
	item := func(t string) *jsonschema.Schema { return &jsonschema.Schema{Type: t} }
	s := &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
		item("string"), item("number"), item("boolean"),
		{Type: "array", Items: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{item("string"), item("number"), item("boolean")}}},
	}}
	if null {
		s.AnyOf = append(s.AnyOf, item("null"))
	}
	return s
}
