// Package registry holds the tools of registry-sidecar and calls them.
//
// A Registry maps tool names to Tools (a JSON Schema and a Go function).
// CallTool runs one call end to end and always answers with a Result: an
// unknown tool, arguments that fail the schema, a tool error, a panic, a
// timeout or a cancellation all come back as a payload encoded by
// errorsjson, never as a Go error or a panic. Go programs use it directly:
//
//	reg := registry.New(registry.WithLogger(log))
//	if err := reg.Register(registry.Tool{Name: "add", InputSchema: schema, Func: add}); err != nil {
//		return err
//	}
//	res := reg.CallTool(ctx, "add", []byte(`{"a": 1, "b": 2}`))
//	fmt.Println(res.Text, res.IsError)
//
// The order of checks is: tool scope, lookup, arguments are a JSON object,
// JSON Schema (draft 2020-12, compiled once at Register), then the tool
// under its per-call deadline and recover, then encoding and truncation.
// Schemas written in the common keyword subset (type, properties, required,
// additionalProperties, items, enum of strings, bounds, lengths, pattern)
// also get a fast path that proves valid arguments valid on the raw bytes;
// every doubt and every violation goes through the full validator, which
// alone decides whether arguments are valid.
//
// The texts the registry writes itself come from one catalogue with two
// message profiles (Profile; WithProfile, WithCallProfile): excelmanus (the
// default) words a failed validation exactly as excelmanus's
// _collect_schema_violations does (one violation per field, Python type
// names, repr() quoting; keywords outside its subset in the same style),
// en keeps the validator's English sorted by instance path.
//
// A tool's result becomes text as Python's str() would: a Go string is the
// text itself, a json.RawMessage its own bytes (compact JSON re-spaced to
// json.dumps's separators in the excelmanus profile), anything else is
// encoded with errorsjson.
//
// Results longer than the tool's MaxResultChars (in code points) are
// truncated as excelmanus's truncate_result does: a JSON object shrinks its
// largest list, else its largest object, else the tail of its largest
// string, with excelmanus's markers and the profile's notes, and stays
// valid JSON; other text is cut with a plain-text note.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package registry
